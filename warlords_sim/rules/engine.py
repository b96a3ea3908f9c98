"""The rules engine: legal actions, applying an action, turns and rounds.

:class:`Game` ties a :class:`~warlords_sim.rules.game.GameConfig` to a
:class:`~warlords_sim.rules.game.GameState` and its physics::

    game = Game(GameConfig(load_board("standard"), players=2))
    legal = game.legal_actions()
    outcome = game.apply(SupplyFlick(2, Crenelation.LOW, (0.0, 900.0)))

Flow of a turn: one flick (rulebook, Flicking: "During a player's turn,
he/she may flick one of their own dice"); when it settles, dice places are
updated (:mod:`.resolve`), the round ends at once if a player has no dice in
play, else the flicked die may earn an ability (:mod:`.abilities`) that the
player uses or declines; then play passes clockwise.
"""

from __future__ import annotations

from dataclasses import dataclass

from warlords_sim.physics.types import EventKind, Flick, FlickResult, RegionKind
from warlords_sim.rules import abilities
from warlords_sim.rules.actions import (
    Action,
    BoardFlick,
    Decline,
    RingPinMove,
    SapperPull,
    SiegeShot,
    SpyMove,
    SupplyFlick,
)
from warlords_sim.rules.flicks import physics_flick, run_flick
from warlords_sim.rules.game import (
    GameConfig,
    GameState,
    Location,
    Pending,
    RoundRecord,
)
from warlords_sim.rules.legal import Legal, check_start, legal_actions
from warlords_sim.rules.physics_port import Physics, make_world
from warlords_sim.rules.resolve import Placement, place_after_move, place_dice
from warlords_sim.rules.rounds import new_game, next_round, score_round

__all__ = ["Game", "Launch", "Outcome", "apply", "begin", "finish"]


@dataclass(frozen=True)
class Outcome:
    """What one action did.

    Attributes:
        action, player: the action and who took it.
        result: the physics result of a flick (None for other actions).
        placement: dice eliminated, returned, moved from gateways, scored.
        pending: the ability now waiting for the same player, if any.
        round_ended: the finished round's record if this action ended it.
        game_over: the game ended with this action.
        final: when the action ended a round and another one began, a copy
            of the state as the action left it, before the next round was
            set up (the dice where they settled); None otherwise (then the
            state itself is that). :attr:`settled` picks the right one.
    """

    action: Action
    player: int
    result: FlickResult | None = None
    placement: Placement | None = None
    pending: Pending | None = None
    round_ended: RoundRecord | None = None
    game_over: bool = False
    final: GameState | None = None

    def settled(self, state: GameState) -> GameState:
        """The state as this action left it: :attr:`final` if a new round
        was set up since, else ``state`` (the state it was applied to)."""
        return self.final if self.final is not None else state


def _close_round(
    state: GameState, ended_by: str, out_player: int | None
) -> tuple[RoundRecord, GameState | None]:
    """Score the round; keep a copy of the state as it ended (unless the
    game is over); set up the next round with the first player to start."""
    record = score_round(state, ended_by, out_player)
    if state.over:
        return record, None
    final = state.copy()
    next_round(state)
    _start_turn(state, state.first_player)
    return record, final


def _start_turn(state: GameState, player: int) -> None:
    state.active = player
    state.pending = None
    state.second_flick = False
    state.turn_dice = []
    state.ring_at_turn_start = frozenset(
        d.id
        for d in state.dice.values()
        if d.location is Location.BOARD
        and d.pose is not None
        and d.pose.region.kind is RegionKind.CENTER_RING
    )


def _end_turn(state: GameState) -> None:
    _start_turn(state, state.next_player(state.active))


def _out_player(state: GameState) -> int | None:
    """The first player (in turn order from the active one) with no dice in play."""
    p = state.active
    for _ in range(state.players):
        if not state.in_play(p):
            return p
        p = state.next_player(p)
    return None


def _count(
    state: GameState,
    action: Action,
    result: FlickResult,
    placement: Placement,
    out: int | None,
    player: int,
) -> None:
    """Statistics only (:class:`~warlords_sim.rules.game.RoundCounts`): siege
    shots, exits over the side walls, a round ended by the final-die rule."""
    counts = state.counts
    if isinstance(action, SiegeShot):
        counts.siege_shots += 1
    over = {e.die for e in result.events if e.kind is EventKind.EXIT and e.over_wall}
    counts.wall_exits += len(over)
    if out is not None and out != player:
        counts.final_die_end = any(state.config.owner(d) == out for d in placement.eliminated)


def use_ability(state: GameState, action: SpyMove | SapperPull | RingPinMove) -> Placement:
    """Carry out a checked ability (the Spy set down, a pin pulled or a ring
    pin moved) and place every die after it as after a landing
    (:func:`~warlords_sim.rules.resolve.place_after_move`). The turn and the
    round are left to the caller (:func:`apply`); the window calls it on a
    copy to draw the last state of a round an ability ended."""
    if isinstance(action, SpyMove):
        abilities.move_spy(state, action.die, action.x, action.y)
    elif isinstance(action, SapperPull):
        abilities.pull_pin(state, action.hole)
    else:
        abilities.move_ring_pin(state, action.from_hole, action.to_hole)
    return place_after_move(state)


def apply(state: GameState, action: Action) -> Outcome:
    """Apply ``action`` to ``state`` (mutated) and say what happened.

    Raises:
        IllegalActionError: a subclass naming why the action is not legal now
            (the state is then unchanged).
    """
    siege = check_start(state, action)
    player = state.active
    if isinstance(action, Decline):
        _end_turn(state)
        return Outcome(action, player)
    if isinstance(action, SpyMove | SapperPull | RingPinMove):
        placement = use_ability(state, action)
        out = _out_player(state)
        if out is not None:  # "The round ends immediately when one player no longer
            # has any dice in play" (a Spy set in a courtyard may be the last)
            record, final = _close_round(state, "no_dice", out)
            return Outcome(action, player, None, placement, None, record, state.over, final)
        _end_turn(state)
        return Outcome(action, player, None, placement)
    assert isinstance(action, SupplyFlick | BoardFlick | SiegeShot)
    result = run_flick(state, action, siege)
    return _settle(state, action, player, result)


def _settle(
    state: GameState,
    action: SupplyFlick | BoardFlick | SiegeShot,
    player: int,
    result: FlickResult,
) -> Outcome:
    """The rules after ``player``'s flick has settled with ``result``."""
    second = state.pending is not None
    state.second_flick = second
    state.pending = None
    state.turn_dice.append(result.flick.die)
    state.round_flicks += 1
    state.flicks += 1
    placement = place_dice(state, result)
    out = _out_player(state)
    _count(state, action, result, placement, out, player)
    ended = None
    if out is not None:
        ended = _close_round(state, "no_dice", out)
    elif state.round_flicks >= state.config.house_rules.max_flicks_per_round:
        ended = _close_round(state, "flick_limit", None)
    if ended is not None:
        record, final = ended
        return Outcome(action, player, result, placement, None, record, state.over, final)
    pending = abilities.earned(state, result)
    if pending is None:
        _end_turn(state)
    else:
        state.pending = pending
    return Outcome(action, player, result, placement, pending)


@dataclass(frozen=True)
class Launch:
    """A checked flick whose physics the caller runs (see :func:`begin`).

    Attributes:
        action, player: the flick action and who took it.
        flick: the physics flick to launch (``World.begin_flick(flick, face)``).
        face: face up at launch of a die from the supply (None otherwise).
    """

    action: SupplyFlick | BoardFlick | SiegeShot
    player: int
    flick: Flick
    face: int | None


def begin(state: GameState, action: Action) -> Outcome | Launch:
    """Like :func:`apply`, but a flick is only checked and launched, not run.

    For a flick it returns the :class:`Launch`: the caller runs the physics
    (``initial = world.begin_flick(launch.flick, launch.face)``, then
    ``world.step()`` until ``world.settled``, then ``world.result(...)``;
    exactly what ``World.flick`` does) and hands the result to
    :func:`finish`. A siege shot's engine is placed in the physics here and
    removed by :func:`finish`. Any other action is applied at once and its
    :class:`Outcome` returned. Nothing else may touch ``state`` in between.

    Raises:
        IllegalActionError: as :func:`apply` (the state is then unchanged).
    """
    if not isinstance(action, SupplyFlick | BoardFlick | SiegeShot):
        return apply(state, action)
    siege = check_start(state, action)
    flick, face = physics_flick(state, action, siege)
    return Launch(action, state.active, flick, face)


def finish(state: GameState, launch: Launch, result: FlickResult) -> Outcome:
    """Finish the flick :func:`begin` launched, from its settled ``result``
    (the same rules :func:`apply` runs after its flick)."""
    if isinstance(launch.action, SiegeShot):
        state.physics.remove_siege_engine()
    return _settle(state, launch.action, launch.player, result)


class Game:
    """A game: its config, its state and the physics the state holds.

    Args:
        config: the game played.
        physics: the world to use (default: a new real
            :class:`~warlords_sim.physics.World` of the config's board).
    """

    def __init__(self, config: GameConfig, physics: Physics | None = None) -> None:
        self.config = config
        self.state = new_game(config, physics if physics is not None else make_world(config.board))
        _start_turn(self.state, self.state.active)

    @classmethod
    def from_state(cls, state: GameState) -> Game:
        game = cls.__new__(cls)
        game.config = state.config
        game.state = state
        return game

    @property
    def over(self) -> bool:
        return self.state.over

    def legal_actions(self) -> Legal:
        """See :func:`warlords_sim.rules.legal.legal_actions`."""
        return legal_actions(self.state)

    def apply(self, action: Action) -> Outcome:
        """See :func:`apply`."""
        return apply(self.state, action)

    def begin(self, action: Action) -> Outcome | Launch:
        """See :func:`begin`."""
        return begin(self.state, action)

    def finish(self, launch: Launch, result: FlickResult) -> Outcome:
        """See :func:`finish`."""
        return finish(self.state, launch, result)

    def copy(self) -> Game:
        """An independent copy (state and physics)."""
        return Game.from_state(self.state.copy())
