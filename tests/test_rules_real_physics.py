"""Rule scenarios through the real physics (issue 3: "plus the same
scenarios through the real physics where the geometry allows").

Each test sets a die down with the real :class:`~warlords_sim.physics.World`,
flicks it with a gentle table slide aimed by the Coulomb slide distance
``v = sqrt(2 mu g d)`` (a table slide keeps its face: docs/physics.md), and
checks what the rules make of where it came to rest.
"""

from __future__ import annotations

import math

from warlords_sim.board import load_board
from warlords_sim.physics import RegionKind, World
from warlords_sim.rules import (
    BoardFlick,
    Game,
    GameConfig,
    HouseRules,
    Location,
    PendingKind,
)
from warlords_sim.rules.scoring import round_damage

BOARD = load_board("standard")
MU_G = BOARD.die.table_friction * BOARD.gravity_mm_s2


def _game(players: int = 2) -> Game:
    config = GameConfig(BOARD, players, HouseRules().check())
    game = Game(config)
    assert isinstance(game.state.physics, World)
    return game


def _put(game: Game, die: int, x: float, y: float, face: int) -> None:
    """Set ``die`` down at rest at (x, y) mm in the world and the state."""
    world = game.state.physics
    world.add_die(die, x, y, face)  # type: ignore[attr-defined]
    state = game.state.dice[die]
    state.pose = world.pose(die)
    state.location = Location.BOARD


def _slide(game: Game, die: int, to: tuple[float, float]) -> None:
    """Flick ``die`` straight at ``to`` so that it stops there."""
    pose = game.state.dice[die].pose
    assert pose is not None
    dx, dy = to[0] - pose.x, to[1] - pose.y
    dist = math.hypot(dx, dy)
    v = math.sqrt(2.0 * MU_G * dist)
    game.apply(BoardFlick(die, (v * dx / dist, v * dy / dist), 0.0))


def test_slide_into_an_opponents_courtyard_scores_its_face() -> None:
    """Player 0's die slides through seat 2's gateway and stops in its
    courtyard: it counts its face (5) as damage to player 1 (seat 2)."""
    game = _game(2)
    assert game.state.seats == (0, 2)
    gate = BOARD.castles[2].gateways[0]
    gx, _ = gate.center
    court = BOARD.castles[2].courtyard
    target = (gx, (court.y0 + court.y1) / 2.0)
    _put(game, 0, gx, 120.0, face=5)
    _slide(game, 0, target)
    die = game.state.dice[0]
    assert die.pose is not None and die.pose.face == 5
    assert die.pose.region.kind is RegionKind.COURTYARD and die.pose.region.seat == 2
    assert die.location is Location.COURTYARD
    assert round_damage(game.state) == [0, 5]


def test_a_die_resting_entirely_in_a_gateway_goes_to_the_back_of_the_courtyard() -> None:
    """A die that stops entirely inside seat 2's gateway is moved to the back
    of that courtyard, face unchanged, and scores there."""
    game = _game(2)
    gate = BOARD.castles[2].gateways[1]
    gx, gy = gate.center
    _put(game, 1, gx, 120.0, face=4)
    _slide(game, 1, (gx, gy))
    die = game.state.dice[1]
    assert die.pose is not None
    assert die.location is Location.COURTYARD
    assert die.pose.region.kind is RegionKind.COURTYARD and die.pose.region.seat == 2
    assert die.pose.face == 4
    assert round_damage(game.state) == [0, 4]


def test_a_die_flicked_off_the_open_edge_is_eliminated() -> None:
    """A die flicked hard over the open edge (no side walls) is eliminated
    for the round."""
    game = _game(2)
    _put(game, 2, -250.0, 0.0, face=2)
    game.apply(BoardFlick(2, (-1500.0, 0.0), 0.0))
    assert game.state.dice[2].location is Location.ELIMINATED
    assert 2 not in game.state.physics.dice  # type: ignore[attr-defined]


def test_stopping_entirely_in_the_center_ring_offers_a_pin_move() -> None:
    """A die that starts outside the ring, slides in between two ring pins
    and stops entirely inside may move a ring pin (the face is irrelevant)."""
    game = _game(2)
    a = math.radians(15.0)  # between the ring holes at 0 and 30 degrees
    _put(game, 3, 130.0 * math.cos(a), 130.0 * math.sin(a), face=2)
    _slide(game, 3, (0.0, 0.0))
    die = game.state.dice[3]
    assert die.pose is not None and die.pose.region.kind is RegionKind.CENTER_RING
    assert game.state.pending is not None
    assert game.state.pending.kind is PendingKind.RING


def test_a_two_player_game_has_no_three_player_wall() -> None:
    """Saved case (issue 12): both empty seats of a 2-player game were closed
    by an invisible three-player wall; a die flicked toward an empty seat at
    1200 mm/s from (100, 0) struck it near x = 156 and stopped at x = 70. The
    rulebook gives that wall only "in a three player game": the die slides
    off the open edge and is eliminated. With three players it still stands."""
    for players, leaves in ((2, True), (3, False)):
        game = _game(players)
        die = game.config.dice_of(0)[0]
        _put(game, die, 100.0, 0.0, 2)
        seats = game.config.castle_seats()
        empty_right = 3 not in seats  # seat 3 is the right-hand edge
        assert empty_right
        game.apply(BoardFlick(die, (1200.0, 0.0), 0.0))
        gone = game.state.dice[die].location is Location.ELIMINATED
        assert gone is leaves, (players, game.state.dice[die])
