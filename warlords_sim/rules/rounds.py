"""Setting up a game and its rounds, and ending a round.

Rulebook, Rounds and Setup: "three pins should be placed in the center ring
per player in the holes directly across from their home castle"; six dice
per player in the supply; one round per player. End of a Round: "All
players return their dice to their home castles ... All defensive pins are
returned to the center ring." Three players: castles rotate, the fourth
castle's place walled. Wall variants 1 and 2.
"""

from __future__ import annotations

from warlords_sim.board import default_pins
from warlords_sim.rules.game import DieState, GameConfig, GameState, RoundCounts, RoundRecord
from warlords_sim.rules.physics_port import Physics
from warlords_sim.rules.scoring import (
    courtyard_dice,
    first_player_after,
    round_damage,
    scored_on_opponents,
    winners,
)

__all__ = [
    "end_round",
    "new_game",
    "next_round",
    "ring_setup",
    "score_round",
    "side_walls_for_round",
    "start_round",
]


def side_walls_for_round(config: GameConfig, rnd: int, totals: list[int]) -> bool:
    """Whether the side walls stand in round ``rnd`` (0-based): wall2 always;
    wall1 in the final round if any single player has no damage then."""
    variant = config.house_rules.wall_variant
    if variant == "wall2":
        return True
    if variant == "wall1":
        return rnd == config.rounds - 1 and any(t == 0 for t in totals)
    return False


def ring_setup(config: GameConfig) -> tuple[int, ...]:
    """The center-ring holes holding pins at the start of every round: three
    across from each castle in play (:func:`~warlords_sim.board.default_pins`,
    house rule ``ring_pins``)."""
    far = config.house_rules.ring_pins == "far_side"
    return default_pins(config.board, config.castle_seats(), far_side=far)


def new_game(config: GameConfig, physics: Physics) -> GameState:
    """A game at the start of round one (first player from the house rules)."""
    state = GameState(config=config, physics=physics, totals=[0] * config.players)
    start_round(state, 0, config.house_rules.first_player)
    return state


def start_round(state: GameState, rnd: int, first_player: int) -> None:
    """Reset dice, pins and walls for round ``rnd`` with ``first_player`` to start."""
    config = state.config
    phys = state.physics
    state.round = rnd
    state.seats = config.seats_for_round(rnd)
    state.first_player = first_player
    state.active = first_player
    state.side_walls = side_walls_for_round(config, rnd, state.totals)
    for die in phys.dice:
        phys.remove_die(die)
    phys.remove_siege_engine()
    phys.set_walls(config.castle_seats(), state.side_walls)
    phys.set_pins(ring_setup(config))
    state.dice = {i: DieState(i, p) for p in range(config.players) for i in config.dice_of(p)}
    state.pending = None
    state.second_flick = False
    state.ring_at_turn_start = frozenset()
    state.turn_dice = []
    state.round_flicks = 0
    state.eliminated = [0] * config.players
    state.pulled_pins = 0
    state.counts = RoundCounts()


def end_round(state: GameState, ended_by: str, out_player: int | None) -> RoundRecord:
    """Score the round, then start the next one or end the game
    (:func:`score_round`, then :func:`next_round` unless the game is over)."""
    record = score_round(state, ended_by, out_player)
    if not state.over:
        next_round(state)
    return record


def score_round(state: GameState, ended_by: str, out_player: int | None) -> RoundRecord:
    """Score the round: its record joins the history, its damage the totals;
    after the final round the game is over and has its winners. The dice
    and pins stay where the round left them (:func:`next_round` clears them)."""
    damage = round_damage(state)
    scored = scored_on_opponents(state)
    record = RoundRecord(
        round=state.round,
        first_player=state.first_player,
        seats=state.seats,
        side_walls=state.side_walls,
        damage=damage,
        scored_on_opponents=scored,
        flicks=state.round_flicks,
        eliminated=list(state.eliminated),
        ended_by=ended_by,
        out_player=out_player,
        courtyard=courtyard_dice(state),
        counts=state.counts.copy(),
    )
    state.history.append(record)
    state.totals = [t + d for t, d in zip(state.totals, damage, strict=True)]
    if state.round + 1 >= state.config.rounds:
        state.over = True
        state.pending = None
        state.winners = winners(state.totals, scored)
    return record


def next_round(state: GameState) -> None:
    """Set up the round after the one just scored (:func:`score_round`):
    its first player (house rule ``first_player_by``), then
    :func:`start_round` ("All players return their dice to their home
    castles ... All defensive pins are returned to the center ring")."""
    record = state.history[-1]
    by_round = state.config.house_rules.first_player_by == "round"
    first = first_player_after(state, record.damage if by_round else state.totals)
    start_round(state, state.round + 1, first)
