"""Turning a flick action into a physics flick.

Rulebook, Flicking: dice from the supply start at a front area's high or low
crenelation; a die on the board slides off from where it rests. The Siege
Engine: the die is picked up, the engine "placed as closely as possible to
the die's original position (castle moats have no affect)", and the die is
flicked from its top.
"""

from __future__ import annotations

import math

from warlords_sim.physics.types import Flick, FlickResult, LaunchKind
from warlords_sim.rules.actions import BoardFlick, SiegeShot, SupplyFlick
from warlords_sim.rules.errors import BadFlickError
from warlords_sim.rules.flick_setup import launch_kind_of, siege_start_point
from warlords_sim.rules.game import GameState
from warlords_sim.rules.places import free_spot_near

__all__ = ["physics_flick", "run_flick", "siege_engine_spot", "siege_launch", "siege_start"]


def siege_start(
    state: GameState, die: int, velocity: tuple[float, float]
) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where the siege engine goes for ``die`` and where the die starts on it
    (:func:`siege_engine_spot`, then :func:`siege_launch`).

    Returns:
        (engine centre, die start), mm: the die starts just off the engine's
        edge in the flick direction, at the engine's launch height.

    Raises:
        BadFlickError: that start is off the board.
    """
    return siege_launch(state, siege_engine_spot(state, die), velocity)


def siege_engine_spot(state: GameState, die: int) -> tuple[float, float]:
    """Where the siege engine goes for ``die`` (mm): the free place nearest
    the die's resting place (``Physics.free_spot_near``, the die itself not
    counting; memoized per state by :mod:`warlords_sim.rules.places`). It
    does not depend on the flick, so a caller trying several velocities for
    one die computes it once."""
    pose = state.dice[die].pose
    assert pose is not None
    return free_spot_near(state, pose.x, pose.y, state.board.siege_engine.width_mm, die)


def siege_launch(
    state: GameState, engine: tuple[float, float], velocity: tuple[float, float]
) -> tuple[tuple[float, float], tuple[float, float]]:
    """(engine centre, die start) of a siege shot at ``velocity`` (mm/s) from
    the engine at ``engine`` (mm, from :func:`siege_engine_spot`).

    Raises:
        BadFlickError: the start is off the board.
    """
    b = state.board
    ex, ey = engine
    speed = math.hypot(*velocity)
    ux, uy = velocity[0] / speed, velocity[1] / speed
    sx, sy = siege_start_point(b, engine, (ux, uy))
    if not b.on_board(sx, sy):
        raise BadFlickError(
            f"the siege engine at ({ex:.0f}, {ey:.0f}) mm leaves no room on the board to "
            f"launch in direction ({ux:.2f}, {uy:.2f})"
        )
    return (ex, ey), (sx, sy)


def physics_flick(
    state: GameState,
    action: SupplyFlick | BoardFlick | SiegeShot,
    siege: tuple[tuple[float, float], tuple[float, float]] | None = None,
) -> tuple[Flick, int | None]:
    """The physics flick of the (already checked) action and the face up at
    launch (a supply die's ``face``, else None).

    A siege shot places the siege engine in the physics; the caller removes
    it once the flick has settled (:func:`run_flick` does). ``siege``: the
    shot's (engine centre, die start) if already known (what
    :func:`~warlords_sim.rules.legal.check_start` returned for this state and
    action); else it is computed (:func:`siege_start`).
    """
    b = state.board
    if isinstance(action, SupplyFlick):
        die = state.supply(state.active)[0]
        spot = b.launch_spot(state.seat_of(state.active), action.area, action.crenelation)
        flick = Flick(
            die,
            action.velocity,
            action.spin,
            launch_kind_of(action.crenelation),
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
    engine, start = siege if siege is not None else siege_start(state, action.die, action.velocity)
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


def run_flick(
    state: GameState,
    action: SupplyFlick | BoardFlick | SiegeShot,
    siege: tuple[tuple[float, float], tuple[float, float]] | None = None,
) -> FlickResult:
    """Simulate the (already checked) flick; returns the settled result
    (``siege`` as for :func:`physics_flick`)."""
    phys = state.physics
    flick, face = physics_flick(state, action, siege)
    try:
        return phys.flick(flick, face=face)
    finally:
        if isinstance(action, SiegeShot):
            phys.remove_siege_engine()
