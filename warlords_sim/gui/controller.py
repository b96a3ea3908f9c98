"""The game flow behind the window, without pyglet: whose turn, flicks
stepped frame by frame, bots, the log, the end-of-round and end-of-game
screens, and the replay recording.

A flick runs through the same rules code as ``simulate``:
:meth:`~warlords_sim.rules.engine.Game.begin` checks it and gives the
physics flick, the controller steps the physics (``SteppedPhysics.step()``,
the rules' port) one fixed timestep (the world's ``timestep``: 1/240 s on
the 2.5D) at a time from an accumulator
fed by the frame time (never the frame time itself), and hands the settled
``result()`` to :meth:`~warlords_sim.rules.engine.Game.finish`.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import numpy as np

from warlords_sim.board import Crenelation
from warlords_sim.bots.play import player_rngs
from warlords_sim.bots.policy import Hand, Policy
from warlords_sim.bots.skill import HandSpec, SkillLevel, as_skill, hand_label, parse_hand
from warlords_sim.colours import SEAT_COLOUR_NAMES
from warlords_sim.gui.describe import Before, narrate, player_text, straddle_text
from warlords_sim.rules.actions import (
    Action,
    BoardFlick,
    RingPinMove,
    SapperPull,
    SiegeShot,
    SpyMove,
    SupplyFlick,
)
from warlords_sim.rules.engine import Game, Launch, Outcome, use_ability
from warlords_sim.rules.errors import IllegalActionError
from warlords_sim.rules.game import GameConfig, GameState, Location, RoundRecord
from warlords_sim.rules.legal import Legal, check
from warlords_sim.rules.physics_port import SteppedPhysics
from warlords_sim.rules.scoring import courtyard_dice, round_damage

__all__ = ["DieView", "GameController", "Phase", "open_recorder", "stroke_line"]

#: Longest stretch of simulated time one frame may catch up (s): after a stall
#: the animation slows down instead of freezing the window.
MAX_CATCH_UP = 0.1
#: A flick still moving after this many simulated seconds is settled at once.
MAX_FLICK_TIME = 60.0


class Phase(Enum):
    """What the window is waiting for."""

    INPUT = "input"  # a human player's choice
    FLICKING = "flicking"  # a flick is animating
    BOT = "bot"  # a bot is about to act
    ROUND_OVER = "round_over"  # the end-of-round screen
    GAME_OVER = "game_over"  # the end-of-game screen


@dataclass(frozen=True)
class DieView:
    """What the renderer needs of one die: place (mm), yaw (rad), face up,
    height of its centre above the board (mm), colour seat, cocked."""

    die: int
    seat: int
    x: float
    y: float
    angle: float
    face: int
    height: float
    cocked: bool = False


def open_recorder(
    path: Path,
    config: GameConfig,
    seed: int,
    bots: tuple[str, ...],
    skill: float | str | SkillLevel | None = None,
    force: bool = False,
    hands: Mapping[int, HandSpec] | None = None,
) -> tuple[Any | None, str]:
    """A replay recorder from ``warlords_sim.replay`` if that module exists;
    ``skill`` is the bots' (recorded so that ``play --resume`` plays them so)
    and ``hands`` the human players' (player -> hand, None: exact; a human
    missing from it is exact); an existing file at ``path`` is replaced only
    if ``force``.

    Returns:
        (recorder or None, a line saying where the game is recorded or why not).
    """
    try:
        replay = importlib.import_module("warlords_sim.replay")
    except ImportError:
        return None, "warning: warlords_sim.replay is not available; this game is not recorded"
    given = hands or {}
    per_player = [given.get(p) for p in range(config.players)]
    rec = replay.Recorder.create(
        path, config, seed=seed, bots=bots, skill=skill, mode="game", force=force,
        hands=per_player,
    )  # fmt: skip
    return rec, f"recording the game to {path}"


class GameController:
    """A game played in the window: humans and bots, flicks animated.

    Args:
        config: the game.
        bots: player -> bot policy (the other players are human).
        seed: seeds the bots' generators exactly as ``play_game`` does.
        recorder: an object with ``record(action, game, outcome)`` and
            ``finish(game)`` (see :func:`open_recorder`), or None.
        bot_delay: seconds a bot waits before acting (0: at once).
        auto_continue: seconds the end-of-round screen stays when every
            player is a bot (humans continue it themselves).
        game: a game in progress to continue (``play --resume``: rebuilt
            from a replay) instead of a new one; its physics must be a World.
        rngs: the players' generators for ``game`` (one per player), where
            they stood (see :func:`warlords_sim.replay.rebuild`).
        hands: human player -> the hand their flicks go through (a skill:
            :meth:`~warlords_sim.bots.policy.Hand.deliver` scatters each
            flick they drag with their own generator, ``rngs[p]``, as a
            bot's hand does; None or missing: exact, the flick as dragged).
    """

    def __init__(
        self,
        config: GameConfig,
        bots: Mapping[int, Policy] | None = None,
        *,
        seed: int = 0,
        recorder: Any | None = None,
        bot_delay: float = 0.6,
        auto_continue: float = 3.0,
        game: Game | None = None,
        rngs: list[np.random.Generator] | None = None,
        hands: Mapping[int, HandSpec | str] | None = None,
    ) -> None:
        self.config = config
        self.game = game if game is not None else Game(config)
        world = self.game.state.physics
        if not isinstance(world, SteppedPhysics):
            raise TypeError("the window needs a physics it can step (the 2.5D World)")
        self.world: SteppedPhysics = world
        self.bots: dict[int, Policy] = dict(bots or {})
        self.seed = seed
        if rngs is None:
            rngs = player_rngs(seed, config.players)
        self.rngs = list(rngs)
        #: Each human player's hand (None: exact), as given.
        self.hand_specs: dict[int, HandSpec] = {
            p: _hand_spec(h) for p, h in (hands or {}).items() if p not in self.bots
        }
        self.hands: dict[int, Hand] = {
            p: Hand(h) for p, h in self.hand_specs.items() if h is not None
        }
        #: The last human flick through a hand: (aimed, delivered).
        self.last_stroke: tuple[Action, Action] | None = None
        self._aimed: Action | None = None
        self.recorder = recorder
        self.bot_delay = bot_delay
        self.auto_continue = auto_continue
        self.speed = 1.0
        #: Every line told of the game so far (the panel shows what fits
        #: and scrolls back through the rest, see :class:`~.hud.Hud`).
        self.log: list[str] = []
        #: The last action told in one line (the replay panel's and captions' headline).
        self.told = ""
        #: Each human player's launch spot to start with (area, crenelation):
        #: after ``play --resume``, the one of their last supply flick.
        self.launch_spots: dict[int, tuple[int, Crenelation]] = {}
        self._message = ""  # a refusal or a hint, shown until the next choice
        self.message_is_refusal = False  # drawn in red
        self.phase = Phase.INPUT
        self.actions: list[Action] = []
        self.round_record: RoundRecord | None = None
        self.frozen: list[DieView] | None = None  # dice shown on the end-of-round screen
        #: The finished round's last state (dice where the rules left them,
        #: gateway dice at the back of the courtyard) on the end-of-round screen.
        self.final: GameState | None = None
        self._before: Before | None = None
        self.launch: Launch | None = None
        self._initial = 0
        self._steps = 0
        self._t0 = 0.0
        self._acc = 0.0
        self._timer = 0.0
        self._finished = False
        self._legal: Legal | None = None
        #: Dice across a gateway's line already said this round (see _tell).
        self._straddlers: set[int] = set()
        self._straddle_round = -1
        self._next()

    # ------------------------------------------------------------ queries

    @property
    def state(self) -> Any:
        return self.game.state

    def legal(self) -> Legal | None:
        """The active player's choices (None while flicking or between rounds)."""
        if self.phase not in (Phase.INPUT, Phase.BOT):
            return None
        if self._legal is None:
            self._legal = self.game.legal_actions()
        return self._legal

    def is_human_turn(self) -> bool:
        return self.phase is Phase.INPUT

    def wait_reason(self) -> str:
        """Why a human's input is not taken now (said when they try)."""
        if self.phase is Phase.FLICKING:
            return "wait: the dice are moving"
        return "wait: the dice are moving or a bot is playing"

    def caption(self) -> str:
        """The window's title: "Warlords" (a network seat's window adds whose)."""
        return "Warlords"

    def hand_label(self, p: int) -> str:
        """What the panel says of player ``p``'s hand: "hand club" for a
        human ("hand exact" without one), "" for a bot (its row says its
        skill)."""
        if p in self.bots:
            return ""
        return f"hand {hand_label(self.hand_specs.get(p))}"

    def hand_of(self, p: int) -> Hand | None:
        """The hand human player ``p`` flicks with (None: exact)."""
        return self.hands.get(p)

    def player_name(self, p: int) -> str:
        seat = self.state.seat_of(p)
        who = self.bots[p].name + " bot" if p in self.bots else "human"
        return f"P{p} {SEAT_COLOUR_NAMES[seat]} ({who})"

    def seat_colour_of(self, player: int) -> int:
        return int(self.state.seat_of(player))

    def dice(self) -> list[DieView]:
        """Every die on the board (or the frozen end-of-round position)."""
        if self.frozen is not None:
            return self.frozen
        w = self.world
        out = []
        for die in w.dice:
            p = w.pose(die)
            owner = self.config.owner(die)
            out.append(
                DieView(
                    die,
                    self.seat_colour_of(owner),
                    p.x,
                    p.y,
                    p.angle,
                    p.face,
                    w.height(die),
                    p.cocked,
                )
            )
        return out

    def damage_now(self) -> list[int]:
        """Damage per player: finished rounds plus this round's courtyards."""
        now = round_damage(self.state) if self.phase is not Phase.GAME_OVER else None
        totals = list(self.state.totals)
        if now is None or self.phase is Phase.ROUND_OVER:
            return totals
        return [t + d for t, d in zip(totals, now, strict=True)]

    def shown_state(self) -> GameState:
        """The state the board shows: the finished round's last state on the
        end-of-round screen, else the game's."""
        return self.final if self.final is not None else self.state

    def counts(self, player: int) -> tuple[int, int, int, int]:
        """``player``'s dice by the rulebook's places: (in the supply, in play
        (the rules' ``in_play``: supply and board, and courtyards under house
        rule ``courtyard_dice_in_play``), in courtyards, eliminated), of the
        state shown (:meth:`shown_state`)."""
        s = self.shown_state()
        supply = len(s.dice_of(player, Location.SUPPLY))
        in_play = len(s.in_play(player))
        court = len(s.dice_of(player, Location.COURTYARD))
        out = len(s.dice_of(player, Location.ELIMINATED))
        return supply, in_play, court, out

    def scored_dice(self) -> set[int]:
        """Dice that count as damage now, by the rules' own test
        (:func:`~warlords_sim.rules.scoring.courtyard_dice`; on the
        end-of-round screen the round record's). While a flick moves the
        dice, those that counted when it began (but the flicked die): the
        frames stay steady through a chain of flicks, and the rules decide
        again once the dice have settled. They used to vanish whenever any
        die moved."""
        if self.phase is Phase.FLICKING:
            flicked = self.launch.flick.die if self.launch is not None else None
            return {die for die, _, _ in courtyard_dice(self.state) if die != flicked}
        if self.phase is Phase.ROUND_OVER and self.round_record is not None:
            return {die for die, _, _ in self.round_record.courtyard}
        return {die for die, _, _ in courtyard_dice(self.state)}

    def castle_damage(self) -> dict[int, int]:
        """Castle seat -> damage this round (:func:`round_damage`; on the
        end-of-round screen the finished round's record)."""
        s = self.state
        if self.round_record is not None:
            r = self.round_record
            return {r.seats[p]: r.damage[p] for p in range(len(r.damage))}
        return {s.seats[p]: d for p, d in enumerate(round_damage(s))}

    # ------------------------------------------------------------ acting

    @property
    def message(self) -> str:
        """What the panel tells the player now: a hint, or (see
        :attr:`message_is_refusal`) why the last choice was refused."""
        return self._message

    @message.setter
    def message(self, text: str) -> None:
        self._message = text
        self.message_is_refusal = False

    def refuse(self, reason: str) -> None:
        """Show ``reason`` as a refusal (red in the panel), dice named as on
        the board (:func:`~warlords_sim.gui.describe.player_text`)."""
        self._message = player_text(self.state, reason)
        self.message_is_refusal = True

    def submit(self, action: Action) -> bool:
        """A human's action: applied (or its flick launched), or refused with
        the rules' reason in :attr:`message`. Returns whether it was taken."""
        if self.phase is not Phase.INPUT:
            self.refuse("wait: it is not a human player's turn")
            return False
        p = self.state.active
        hand = self.hands.get(p)
        if hand is None or not isinstance(action, SupplyFlick | BoardFlick | SiegeShot):
            return self._start(action)
        # the hand scatters the flick as dragged (the player's own generator);
        # a refused flick leaves the generator as it was, so the draws of the
        # flicks taken are those a replay re-draws (replay/rebuild.py)
        try:  # the flick as aimed must be one the rules allow (a hand clamps, never excuses)
            check(self.state, action)
        except IllegalActionError as e:
            self.refuse(str(e))
            return False
        rng = self.rngs[p]
        saved = rng.bit_generator.state
        delivered = hand.deliver(action, rng, self.config.board)
        if not self._start(delivered, aimed=action):
            rng.bit_generator.state = saved
            return False
        self.last_stroke = (action, delivered)
        self.log.append(stroke_line(action, delivered))
        return True

    def _start(self, action: Action, aimed: Action | None = None) -> bool:
        before = Before.of(self.state)
        # an ability may end the round (a Spy set in a courtyard): keep a copy
        # to draw its last state (a few ms; abilities are rare)
        ability = isinstance(action, SpyMove | SapperPull | RingPinMove)
        pre = self.state.copy() if ability else None
        try:
            begun = self.game.begin(action)
        except IllegalActionError as e:
            self.refuse(str(e))
            return False
        self.message = ""
        self._legal = None
        self.actions.append(action)
        self._aimed = aimed
        if isinstance(begun, Outcome):
            self._tell(before, begun)
            self._record(action, begun)
            if begun.round_ended is not None and pre is not None:
                # an ability ended the round: draw its last state, the
                # ability carried out on the copy taken before it
                assert isinstance(action, SpyMove | SapperPull | RingPinMove)  # with pre
                use_ability(pre, action)
                self.final = pre
                self.frozen = self._views(pre)
            self._after(begun)
            return True
        self.launch = begun
        self._before = before
        self._t0 = self.world.time
        self._initial = self.world.begin_flick(begun.flick, begun.face)
        self._steps = 0
        self._acc = 0.0
        self.phase = Phase.FLICKING
        return True

    def tick(self, dt: float) -> None:
        """Advance by ``dt`` seconds of wall-clock time (the frame time)."""
        if self.phase is Phase.FLICKING:
            self._acc = min(self._acc + dt * self.speed, MAX_CATCH_UP * max(self.speed, 1.0))
            step = self.world.timestep
            while self._acc >= step:
                self._acc -= step
                if self.step_flick():
                    break
        elif self.phase is Phase.BOT:
            self._timer -= dt
            if self._timer <= 0.0:
                self._bot_act()
        elif self.phase is Phase.ROUND_OVER and self._all_bots():
            self._timer -= dt
            if self._timer <= 0.0:
                self.proceed()

    def step_flick(self) -> bool:
        """One physics step (the world's timestep) of the running flick,
        whatever the clock says (movies, screenshots); True once it
        has settled."""
        self.world.step()
        self._steps += 1
        if self.world.settled or self._steps * self.world.timestep >= MAX_FLICK_TIME:
            self._settle()
            return True
        return False

    def frame_shown(self) -> None:
        """The window has just shown a frame of the game (a hook: a network
        client times the first frame of each flick by it, net.client)."""

    def finish_flick(self) -> None:
        """Run the animating flick to rest at once."""
        while self.phase is Phase.FLICKING:
            self.step_flick()

    def _settle(self) -> None:
        launch = self.launch
        assert launch is not None
        w = self.world
        if not w.settled:
            self._steps += w.run_until_settled(MAX_FLICK_TIME)
        result = w.result(launch.flick, self._initial, self._steps, w.time - self._t0)
        before = self._before or Before.of(self.state)
        self.launch = None
        self._before = None
        outcome = self.game.finish(launch, result)
        self._tell(before, outcome)
        self._record(launch.action, outcome)
        if outcome.round_ended is not None:
            # the rules keep the state as the round ended (dice where they settled,
            # gateway dice at the back of the courtyard) before the next one is set up
            final = outcome.settled(self.state)
            self.final = final
            self.frozen = self._views(final)
        self._after(outcome)

    def _views(self, state: GameState) -> list[DieView]:
        """The dice on the board or in a courtyard in ``state``, for drawing."""
        half = self.config.board.die.size_mm / 2.0
        return [
            DieView(
                d.id,
                state.seats[d.owner],
                p.x,
                p.y,
                p.angle,
                p.face,
                p.elevation_mm + half,
                p.cocked,
            )
            for d in state.dice.values()
            if (p := d.pose) is not None and d.location in (Location.BOARD, Location.COURTYARD)
        ]

    def _after(self, outcome: Outcome) -> None:
        self._legal = None
        if outcome.round_ended is not None:
            self.round_record = outcome.round_ended
            self.phase = Phase.ROUND_OVER
            self._timer = self.auto_continue
            if self.game.over:
                self._finish_recording()
            return
        self._next()

    def proceed(self) -> None:
        """Leave the end-of-round screen."""
        if self.phase is not Phase.ROUND_OVER:
            return
        self.frozen = None
        self.final = None
        self.round_record = None
        if self.game.over:
            self.phase = Phase.GAME_OVER
            return
        self._next()

    def _next(self) -> None:
        self._legal = None
        if self.game.over:
            self.phase = Phase.GAME_OVER
            self._finish_recording()
            return
        if self.state.active in self.bots:
            self.phase = Phase.BOT
            self._timer = self.bot_delay
        else:
            self.phase = Phase.INPUT

    def _all_bots(self) -> bool:
        return len(self.bots) == self.config.players

    def act_now(self) -> None:
        """The seat to move acts now rather than after its delay: the bot's
        choice (a replay: its next recorded action; a network client: no
        action, the host sends it). A flick is launched, not run."""
        self._bot_act()

    def _bot_act(self) -> None:
        self.play_for(self.bots[self.state.active])

    def play_for(self, policy: Policy) -> None:
        """Let ``policy`` take the active player's next action now, whoever
        plays that seat (screenshots, tests); a flick is launched, not run."""
        p = self.state.active
        legal = self.game.legal_actions()
        action = policy.choose(self.state, legal, self.rngs[p])
        self.phase = Phase.INPUT
        if not self._start(action):
            raise RuntimeError(f"{policy.name!r} (player {p}): {self.message}")

    def fast_forward(self, policy: Policy, flicks: int) -> None:
        """Play on at once (``policy`` for every player, end-of-round screens
        skipped) until ``flicks`` flicks have been made in the game or it ends."""
        while not self.game.over and self.state.flicks < flicks:
            if self.phase is Phase.FLICKING:
                self.finish_flick()
            elif self.phase is Phase.ROUND_OVER:
                self.proceed()
            else:
                self.play_for(policy)
        self.finish_flick()
        self.proceed()

    # ------------------------------------------------------------ log, replay

    def _record(self, action: Action, outcome: Outcome) -> None:
        aimed, self._aimed = self._aimed, None
        if self.recorder is None:
            return
        if aimed is None:
            self.recorder.record(action, self.game, outcome)
        else:
            self.recorder.record(action, self.game, outcome, aimed=aimed)

    def _finish_recording(self) -> None:
        if self.recorder is not None and not self._finished:
            self._finished = True
            self.recorder.finish(self.game)

    def _tell(self, before: Before, outcome: Outcome) -> None:
        """Log the action (see :func:`~warlords_sim.gui.describe.narrate`);
        a die left across the line between a gateway and its courtyard has
        the rules' reading of it shown as the panel's hint, once a round
        (:func:`~warlords_sim.gui.describe.straddle_text`)."""
        told = narrate(before, outcome, self.config.rounds)
        self.log.extend(told.lines)
        self.told = told.headline
        if before.round != self._straddle_round:
            self._straddle_round = before.round
            self._straddlers.clear()
        hint = straddle_text(before, outcome, self._straddlers)
        if hint is not None:
            self.message = hint


def _hand_spec(hand: HandSpec | str) -> HandSpec:
    """A hand as given (a skill, a level's name, ``"exact"`` or None) as a
    :data:`~warlords_sim.bots.skill.HandSpec`.

    Raises:
        ValueError: not a hand (see :func:`~warlords_sim.bots.skill.parse_hand`).
    """
    if hand is None or isinstance(hand, str):
        return None if hand is None else parse_hand(hand)
    return as_skill(hand)


def stroke_line(aimed: Action, delivered: Action) -> str:
    """The log's line of what a hand did to a flick: "hand: 1043 of 1000
    mm/s, 1.5 deg left, strike +0.7 mm, spin -12.0 rad/s" (strike and
    spin to one decimal, never "-0.0")."""
    assert isinstance(aimed, SupplyFlick | BoardFlick | SiegeShot)
    assert isinstance(delivered, SupplyFlick | BoardFlick | SiegeShot)
    va, vd = aimed.velocity, delivered.velocity
    off = math.degrees(
        math.remainder(math.atan2(vd[1], vd[0]) - math.atan2(va[1], va[0]), 2 * math.pi)
    )
    side = "left" if off > 0 else "right"
    return (
        f"hand: {math.hypot(*vd):.0f} of {math.hypot(*va):.0f} mm/s, {abs(off):.1f} deg "
        f"{side}, strike {_signed(delivered.strike_mm)} mm, spin {_signed(delivered.spin)} rad/s"
    )


def _signed(value: float) -> str:
    """``value`` to one decimal with its sign, ``+0.0`` for what rounds to 0
    (``-0.04`` would print ``-0.0``)."""
    shown = round(value, 1)
    return f"{shown if shown != 0.0 else 0.0:+.1f}"
