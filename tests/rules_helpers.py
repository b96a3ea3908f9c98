"""Helpers for the rules tests: games over scripted physics, and placing dice."""

from __future__ import annotations

from typing import Any

from warlords_sim.board import Board, Crenelation, load_board
from warlords_sim.rules import Game, GameConfig, HouseRules, Location, Outcome, SupplyFlick
from warlords_sim.rules.scripted import FLICKED, Landing, ScriptedPhysics

BOARD: Board = load_board("standard")

# Points of the standard board (mm)
OPEN = (150.0, -60.0)  # plain board, seat 0's half
OPEN2 = (-150.0, 60.0)
RING = (0.0, 0.0)  # entirely within the center ring
COURTYARD = {s: BOARD.castles[s].courtyard.center for s in range(4)}
GATEWAY = {s: BOARD.castles[s].gateways[0].center for s in range(4)}
MOAT = {s: BOARD.castles[s].moat.center for s in range(4)}


def game(players: int = 2, script: list[Landing] | None = None, **rules: Any) -> Game:
    """A game over scripted physics with the given house rules."""
    config = GameConfig(BOARD, players, HouseRules(**rules).check())
    phys = ScriptedPhysics(BOARD, script or [], config.castle_seats())
    return Game(config, phys)


def phys(g: Game) -> ScriptedPhysics:
    p = g.state.physics
    assert isinstance(p, ScriptedPhysics)
    return p


def land(x: float, y: float, face: int) -> Landing:
    """The flicked die comes to rest at (x, y) with ``face`` up."""
    return Landing({FLICKED: (x, y, face)})


OFF = Landing({FLICKED: None})


def supply_flick(g: Game, landing: Landing, area: int = 2, face: int = 1) -> Outcome:
    """The active player flicks from the supply; the die lands as ``landing`` says."""
    phys(g).push(landing)
    return g.apply(SupplyFlick(area, Crenelation.LOW, (0.0, 800.0), 0.0, face))


def place(g: Game, die: int, x: float, y: float, face: int) -> None:
    """Put ``die`` (from the supply) on the board at rest, in physics and state."""
    g.state.physics.add_die(die, x, y, face)  # type: ignore[attr-defined]
    d = g.state.dice[die]
    d.pose = g.state.physics.pose(die)
    d.location = Location.COURTYARD if d.pose.region.kind.value == "courtyard" else Location.BOARD
