"""A recorded game played back through the window's game flow, without pyglet.

:class:`ReplayController` is a :class:`~warlords_sim.gui.controller.GameController`
whose every seat takes its next action from the replay instead of a bot or
a mouse: each flick is re-simulated frame by frame through the same rules
``begin``/``finish`` path and world ``begin_flick``/``step`` as ``play``,
so the dice move as they did when the game was recorded. The settled
digest after each action is compared with the recorded one.

Playback keys (see :class:`~warlords_sim.gui.watch.WatchWindow`): pause,
step one action, speed up and down.
"""

from __future__ import annotations

import os

import numpy as np

from warlords_sim.board import Board, Crenelation
from warlords_sim.bots.policy import Policy
from warlords_sim.bots.skill import HandSpec, parse_hand
from warlords_sim.gui.controller import GameController, Phase
from warlords_sim.gui.describe import Before, narrate
from warlords_sim.replay.errors import ReplayError
from warlords_sim.replay.format import ActionLine
from warlords_sim.replay.loader import Replay, to_action
from warlords_sim.replay.model import check_model
from warlords_sim.replay.rebuild import Rebuilt, board_for, config_for
from warlords_sim.replay.sandbox import SandboxFlick
from warlords_sim.replay.snapshot import digest_of
from warlords_sim.rules.actions import Action
from warlords_sim.rules.engine import Game, Outcome
from warlords_sim.rules.game import GameState
from warlords_sim.rules.legal import Legal

__all__ = ["SPEEDS", "ReplayController", "resume_game"]

#: Playback speeds that + and - step through.
SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)


class _Recorded:
    """Stands for a player in a replay: its actions come from the file."""

    def __init__(self, name: str) -> None:
        self.name = name

    def choose(self, state: GameState, legal: Legal, rng: np.random.Generator) -> Action:
        raise RuntimeError("a replayed player does not choose: its actions are recorded")


class ReplayController(GameController):
    """Plays ``replay`` back (a game replay; a sandbox one is refused).

    Args:
        replay: the loaded replay.
        board: the board (default: the header's, checked by SHA-256).
        force: play on a board whose SHA-256 differs.
        bot_delay: seconds between actions at speed 1.
        auto_continue: seconds the end-of-round screen stays at speed 1.

    Raises:
        ReplayError: a sandbox replay, another physics model or engine than
            this build's 2.5D model (:func:`~warlords_sim.replay.model.check_model`),
            a board that cannot be loaded or differs.
    """

    def __init__(
        self,
        replay: Replay,
        *,
        board: Board | None = None,
        force: bool = False,
        bot_delay: float = 0.5,
        auto_continue: float = 2.0,
    ) -> None:
        if replay.mode != "game":
            raise ReplayError(
                f"{replay.path}: a sandbox replay (flicks without a game) cannot be watched "
                "or rendered; check it with 'warlords-sim replay FILE --verify'"
            )
        check_model(replay, ("2.5d",))  # the window steps the 2.5D World
        the_board, warning = board_for(replay, board, force)
        config = config_for(replay, the_board)
        self.replay = replay
        self.warnings = [warning] if warning else []
        self.done = 0  # actions played to rest
        self.paused = False
        self.diverged: list[int] = []  # actions whose digest differs from the recording
        self.refused: str | None = None  # why the rules refused the next action
        self._pause_after = False
        h = replay.header
        bots = {p: _Recorded(h.bots[p]) for p in range(config.players)}
        super().__init__(
            config,
            bots,
            seed=h.seed if h.seed is not None else 0,
            bot_delay=bot_delay,
            auto_continue=auto_continue,
        )

    # ------------------------------------------------------------ queries

    @property
    def total(self) -> int:
        """Actions in the replay."""
        return len(self.replay.actions)

    @property
    def flicking(self) -> bool:
        """A flick is in flight."""
        return self.phase is Phase.FLICKING

    @property
    def at_end(self) -> bool:
        """Every action played (or the next one refused)."""
        return self.done >= self.total or self.refused is not None

    def line(self, index: int) -> ActionLine:
        """Action line ``index`` (1-based)."""
        return self.replay.actions[index - 1]

    def player_name(self, p: int) -> str:
        from warlords_sim.colours import SEAT_COLOUR_NAMES

        seat = self.state.seat_of(p)
        name = self.replay.header.bots[p]
        who = "human" if name == "human" else f"{name} bot"
        return f"P{p} {SEAT_COLOUR_NAMES[seat]} ({who})"

    def headline(self) -> str:
        """The action number and what it did, told from the re-simulated
        outcome as the log tells it (:func:`~warlords_sim.gui.describe.narrate`):
        the one in flight (what is flicked), or the last one played."""
        if self.phase is Phase.FLICKING and self.launch is not None:
            n = self.done + 1
            la = self.launch
            what = self._before.die(la.flick.die) if self._before is not None else "a die"
            return f"action {n} of {self.total}: P{la.player} flicks {what} ..."
        if self.done == 0:
            return f"before action 1 of {self.total}"
        return f"action {self.done} of {self.total}: {self.told}"

    def status(self) -> str:
        """Playing or paused, the speed, and how the replay ends."""
        if self.refused is not None:
            return "stopped: " + self.refused
        if self.phase is Phase.GAME_OVER:
            state = "end of the game"
        elif self.at_end:
            state = "end of the recording (no result: an unfinished game)"
        else:
            state = "paused" if self.paused else "playing"
        text = f"{state}, speed x{self.speed:g}"
        if self.diverged:
            n = len(self.diverged)
            first = self.diverged[0]
            text += f"\n{n} action{'s' * (n > 1)} settled otherwise than recorded, first {first}"
        return text

    # ------------------------------------------------------------ playback

    def toggle_pause(self) -> None:
        self.paused = not self.paused
        self._pause_after = False

    def faster(self) -> None:
        self.speed = next((s for s in SPEEDS if s > self.speed), SPEEDS[-1])

    def slower(self) -> None:
        self.speed = next((s for s in reversed(SPEEDS) if s < self.speed), SPEEDS[0])

    def step_action(self) -> None:
        """Play one action and pause when it settles (a flick in flight is
        brought to rest at once instead)."""
        if self.phase is Phase.FLICKING:
            self.finish_flick()
            self.paused = True
            self._pause_after = False
            return
        if self.phase is Phase.ROUND_OVER:
            self.proceed()
        if self.phase is not Phase.BOT or self.at_end:
            self.paused = True
            return
        self.paused = False
        self._pause_after = True
        self._bot_act()

    def advance(self) -> bool:
        """Play the next action to rest at once (end-of-round screens left);
        False if there is none."""
        if self.phase is Phase.FLICKING:
            self.finish_flick()
            return True
        if self.phase is Phase.ROUND_OVER:
            self.proceed()
        if self.phase is not Phase.BOT or self.at_end:
            return False
        self._bot_act()
        self.finish_flick()
        return self.refused is None

    def skip_to(self, n: int) -> None:
        """Play actions at once until ``n`` of them are done (or none is left)."""
        while self.done < n and self.advance():
            pass

    def tick(self, dt: float) -> None:
        if self.paused:
            return
        if self.phase is Phase.FLICKING:
            super().tick(dt)  # the controller applies the speed to the physics
        elif self.phase is Phase.BOT and self.at_end:
            return
        else:
            super().tick(dt * self.speed)

    def _bot_act(self) -> None:
        if self.at_end:
            return
        line = self.line(self.done + 1)
        action = to_action(line.action)
        if isinstance(action, SandboxFlick):  # the loader refuses these in a game
            raise ReplayError(f"{self.replay.path}: action {line.index} is a sandbox flick")
        if not self._start(action):
            self.refused = (
                f"action {line.index} ({action.kind}): the rules refuse it: {self.message}"
            )
            self.paused = True

    def _record(self, action: Action, outcome: Outcome) -> None:
        line = self.line(self.done + 1)
        self.done += 1
        if digest_of(outcome.settled(self.game.state)) != line.digest:
            self.diverged.append(line.index)
            if len(self.diverged) == 1:
                self.message = (
                    f"action {line.index} settled otherwise than recorded (digest differs): "
                    "see 'warlords-sim replay FILE --verify'"
                )
        if self._pause_after:
            self._pause_after = False
            self.paused = True


class _Told(Game):
    """A game that tells each action it applies as the window's log does."""

    lines: list[str]
    headline: str

    @classmethod
    def from_state(cls, state: GameState) -> _Told:
        game = cls.__new__(cls)
        game.config = state.config
        game.state = state
        game.lines = []
        game.headline = ""
        return game

    def apply(self, action: Action) -> Outcome:
        before = Before.of(self.state)
        outcome = super().apply(action)
        told = narrate(before, outcome, self.config.rounds)
        self.lines.extend(told.lines)
        self.headline = told.headline
        return outcome


def recorded_hands(replay: Replay) -> dict[int, HandSpec]:
    """Each human player's hand as the replay's header records it (a file
    without ``hands``, from before format version 4: every human exact, as
    those games were played)."""
    hands = replay.header.hands
    if hands is None:
        return {}
    return {
        p: parse_hand(h) if isinstance(h, str) else h for p, h in enumerate(hands) if h is not None
    }


def resume_game(
    path: str | os.PathLike[str],
    *,
    board: Board | None = None,
    force: bool = False,
    controller: type[GameController] = GameController,
) -> tuple[GameController, str]:
    """A controller continuing the game of ``path`` (``play --resume``): a
    replay that ends without a result (after a crash), rebuilt action by
    action (every digest checked), its bots' generators brought to where
    they stood, its whole log told again from the actions' outcomes (as the
    window told them, each hand's line from the line's ``aimed``), each
    human's launch spot the one of their last supply flick, and a recorder
    appending to the same file (a last line cut off in the middle is
    removed first). ``controller`` is the class built (a subclass of
    :class:`GameController`: the network host's).

    Returns:
        (the controller, a line saying where the game resumes).

    Raises:
        ReplayError: a bad or finished replay, a sandbox one, another physics
            model or engine than this build's 2.5D model, an unknown bot,
            a divergence (unless ``force``), a file that cannot be written.
    """
    from warlords_sim.bots import make_bot
    from warlords_sim.replay.loader import load_replay
    from warlords_sim.replay.recorder import Recorder

    replay = load_replay(path)
    if replay.mode != "game":
        raise ReplayError(f"{replay.path}: a sandbox replay has no game to resume")
    if replay.result is not None:
        raise ReplayError(
            f"{replay.path}: the game is finished (it has a result line); "
            "watch it with 'warlords-sim replay FILE' or branch from it with --branch"
        )
    check_model(replay, ("2.5d",))  # the window steps the 2.5D World
    h = replay.header
    skill = h.skill if h.skill is not None else 0.7
    try:
        policies = [None if name == "human" else make_bot(name, skill) for name in h.bots]
    except ValueError as e:
        raise ReplayError(f"{replay.path}: line 1: field `bots`: {e}") from e
    rebuilt, told, spots = retell(replay, policies=policies, board=board, force=force)
    recorder = Recorder.append(replay, rebuilt.game, rebuilt.replayer.after)
    bots = {p: pol for p, pol in enumerate(policies) if pol is not None}
    built = controller(
        rebuilt.game.config,
        bots,
        seed=h.seed if h.seed is not None else 0,
        recorder=recorder,
        game=rebuilt.game,
        rngs=rebuilt.rngs,
        hands=recorded_hands(replay),
    )
    built.log.extend(told.lines)
    built.launch_spots = {p: spot for p, spot in spots.items() if p not in bots}
    built.told = told.headline
    built.message = f"resumed after action {len(replay.actions)}"
    notes = [*replay.warnings, *rebuilt.warnings]
    line = f"resuming {replay.path} after action {len(replay.actions)}, appending to it"
    return built, "\n".join([*(f"warning: {w}" for w in notes), line])


def retell(
    replay: Replay,
    *,
    policies: list[Policy | None] | None = None,
    board: Board | None = None,
    force: bool = False,
) -> tuple[Rebuilt, _Told, dict[int, tuple[int, Crenelation]]]:
    """The game of ``replay`` rebuilt action by action (every digest
    checked, the bots' generators brought on with ``policies``) with its
    whole log told again as the window told it: what ``play --resume`` and
    a network client joining a game in progress start from.

    Returns:
        (the rebuilt game, whose ``game`` is the teller: its ``lines`` and
        ``headline`` are the log; each player's last supply flick's launch
        spot, area and crenelation).

    Raises:
        ReplayError: as :func:`~warlords_sim.replay.rebuild.rebuild`;
        ReplayDivergence: a digest differs (unless ``force``).
    """
    from warlords_sim.gui.controller import stroke_line
    from warlords_sim.replay.loader import aimed_action
    from warlords_sim.replay.rebuild import ReplayDivergence, rebuild
    from warlords_sim.rules.actions import SupplyFlick

    # every action is told again as the window's log told it (from its
    # outcome): the panel keeps the whole game's log
    n = len(replay.actions)
    rebuilt = rebuild(replay, 0, policies=policies, board=board, force=force)
    told = _Told.from_state(rebuilt.game.state)
    rebuilt.replayer.game = told
    spots: dict[int, tuple[int, Crenelation]] = {}
    for entry in replay.actions:
        action = to_action(entry.action)
        aimed = aimed_action(entry)
        if aimed is not None and not isinstance(action, SandboxFlick):
            # the hand's line, as the window told it before the flick's
            told.lines.append(stroke_line(aimed, action))
        if isinstance(action, SupplyFlick) and entry.player is not None:
            spots[entry.player] = (action.area, action.crenelation)  # the spot last used
        div = rebuilt.replayer.step()
        if div is not None and rebuilt.divergence is None:
            if not force:
                raise ReplayDivergence(f"{replay.path}: {div.describe()}", div)
            rebuilt.divergence = div
    rebuilt.index = n
    return rebuilt, told, spots
