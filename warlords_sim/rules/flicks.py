"""Turning a flick action into a physics flick.

Rulebook, Flicking: dice from the supply start at a front area's high or low
crenelation; a die on the board slides off from where it rests. The Siege
Engine: the die is picked up, the engine "placed as closely as possible to
the die's original position (castle moats have no affect)", and the die is
flicked from its top.
"""

from __future__ import annotations

import math

from warlords_sim.board import Crenelation
from warlords_sim.physics.ledge import LEDGE_GAP_MM
from warlords_sim.physics.types import Flick, FlickResult, LaunchKind
from warlords_sim.rules.actions import BoardFlick, SiegeShot, SupplyFlick
from warlords_sim.rules.errors import BadFlickError
from warlords_sim.rules.game import GameState

__all__ = ["physics_flick", "run_flick", "siege_start"]


def siege_start(
    state: GameState, die: int, velocity: tuple[float, float]
) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where the siege engine goes for ``die`` and where the die starts on it.

    Returns:
        (engine centre, die start), mm: the die starts just off the engine's
        edge in the flick direction, at the engine's launch height.

    Raises:
        BadFlickError: that start is off the board.
    """
    b = state.board
    pose = state.dice[die].pose
    assert pose is not None
    width = b.siege_engine.width_mm
    ex, ey = state.physics.free_spot_near(pose.x, pose.y, width, exclude_die=die)
    speed = math.hypot(*velocity)
    ux, uy = velocity[0] / speed, velocity[1] / speed
    reach = width / 2.0 + b.die.size_mm / 2.0 + LEDGE_GAP_MM
    sx, sy = ex + ux * reach, ey + uy * reach
    if not b.on_board(sx, sy):
        raise BadFlickError(
            f"the siege engine at ({ex:.0f}, {ey:.0f}) mm leaves no room on the board to "
            f"launch in direction ({ux:.2f}, {uy:.2f})"
        )
    return (ex, ey), (sx, sy)


def physics_flick(
    state: GameState, action: SupplyFlick | BoardFlick | SiegeShot
) -> tuple[Flick, int | None]:
    """The physics flick of the (already checked) action and the face up at
    launch (a supply die's ``face``, else None).

    A siege shot places the siege engine in the physics; the caller removes
    it once the flick has settled (:func:`run_flick` does).
    """
    b = state.board
    if isinstance(action, SupplyFlick):
        die = state.supply(state.active)[0]
        spot = b.launch_spot(state.seat_of(state.active), action.area, action.crenelation)
        launch = LaunchKind.HIGH if action.crenelation is Crenelation.HIGH else LaunchKind.LOW
        flick = Flick(
            die,
            action.velocity,
            action.spin,
            launch,
            (spot.x, spot.y),
            spot.height_mm,
            action.strike_mm,
        )
        return flick, action.face
    if isinstance(action, BoardFlick):
        flick = Flick(
            action.die, action.velocity, action.spin, LaunchKind.TABLE, strike_mm=action.strike_mm
        )
        return flick, None
    engine, start = siege_start(state, action.die, action.velocity)
    state.physics.place_siege_engine(*engine)
    flick = Flick(
        action.die,
        action.velocity,
        action.spin,
        LaunchKind.SIEGE,
        start,
        b.siege_engine.launch_height_mm,
        action.strike_mm,
    )
    return flick, None


def run_flick(state: GameState, action: SupplyFlick | BoardFlick | SiegeShot) -> FlickResult:
    """Simulate the (already checked) flick; returns the settled result."""
    phys = state.physics
    flick, face = physics_flick(state, action)
    try:
        return phys.flick(flick, face=face)
    finally:
        if isinstance(action, SiegeShot):
            phys.remove_siege_engine()
