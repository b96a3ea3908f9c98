"""The launch of a flick and of a drop: the die's motion as it starts, from
the flick's inputs, before the world applies it.

* A TABLE flick struck at its centre starts half a step into its slide
  (:func:`half_step_ahead`: pymunk moves a body with its velocity before
  friction acts in a step, so velocities act as mid-step values; starting
  at v - mu g dt / 2 makes the Coulomb slide exact at every step, distance
  v^2 / (2 mu g)).
* A TABLE flick struck above or below its centre turns over the bottom
  edge the blow presses into the table (:func:`table_start`,
  :mod:`~warlords_sim.physics.strike`), then pitches over that edge
  (:func:`strike_pitch`).
* A flick from a crenelation or the siege engine's top slides off a
  ledge (:func:`ledge_exit`; the ledge's edge from :func:`ledge_edge`).
* A drop (a die let go in free flight from a full 3D state) is checked
  and its footprint's yaw found (:func:`check_drop`, :func:`drop_clearance`,
  :func:`drop_yaw`).

Contract
--------
* Pure arithmetic on value objects (the flick, the board, the walls in
  force): no pymunk, no world state; the world applies the results
  (:meth:`~warlords_sim.physics.world.World.begin_flick`,
  :meth:`~warlords_sim.physics.world.World.drop`). The order of every
  floating-point operation is part of the model (replays are bit for bit).
* Units mm, g, s, rad; board frame; heights above the board surface.
* Imports numpy and the physics model modules below the world; never
  pymunk, the world or the rules.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from warlords_sim.board import Board, Rect
from warlords_sim.physics import tumble
from warlords_sim.physics.bodies import TIMESTEP
from warlords_sim.physics.footprint import standing_walls
from warlords_sim.physics.ledge import LEDGE_GAP_MM
from warlords_sim.physics.linalg3 import dot3, matmul
from warlords_sim.physics.motion import PATCH_ARM
from warlords_sim.physics.strike import StrikeResponse, strike_on_surface
from warlords_sim.physics.types import Flick, LaunchKind, WorldError

__all__ = [
    "PitchRoll",
    "TableStart",
    "check_drop",
    "drop_clearance",
    "drop_yaw",
    "half_step_ahead",
    "ledge_edge",
    "ledge_exit",
    "strike_pitch",
    "table_start",
]


def half_step_ahead(
    board: Board, i2: float, vx: float, vy: float, spin: float
) -> tuple[float, float, float]:
    """A grounded die's velocity (mm/s) and spin (rad/s) after half a step
    of table friction (``i2``: the die's moment of inertia per unit mass, mm^2)."""
    spec = board.die
    dv = spec.table_friction * board.gravity_mm_s2 * TIMESTEP / 2.0  # mm/s
    speed = math.hypot(vx, vy)
    scale = max(speed - dv, 0.0) / speed if speed > 0.0 else 0.0
    # friction torque mu m g * arm over the moment m i2
    dw = dv * PATCH_ARM * spec.size_mm / i2
    spin = math.copysign(max(abs(spin) - dw, 0.0), spin)
    return vx * scale, vy * scale, spin


@dataclass(frozen=True)
class TableStart:
    """The die's planar motion as a flick starts: velocity (mm/s), spin
    (rad/s), and the strike's response if a TABLE flick struck it off its
    centre (else None)."""

    vx: float
    vy: float
    spin: float
    struck: StrikeResponse | None


def table_start(flick: Flick, board: Board, i2: float) -> TableStart:
    """How the die starts sliding: a TABLE flick struck off its centre
    turns over the pressed bottom edge (:func:`strike_on_surface`), its
    centre moving on at the strike's forward speed; one struck at its
    centre starts half a step into its slide (:func:`half_step_ahead`);
    a launch from a ledge keeps the flick's velocity and spin."""
    vx, vy = flick.velocity
    spin = flick.spin
    struck = None
    if flick.launch is LaunchKind.TABLE and flick.strike_mm != 0.0 and flick.speed > 0.0:
        # struck above or below its centre: the die turns over the bottom
        # edge the blow presses into the table (physics/strike.py)
        spec = board.die
        struck = strike_on_surface(
            flick.speed,
            flick.strike_mm,
            spec.size_mm,
            spec.table_friction,
            spec.table_static_friction,
            i2=i2,
        )
        vx, vy = vx / flick.speed * struck.forward, vy / flick.speed * struck.forward
    elif flick.launch is LaunchKind.TABLE:
        # pymunk moves a body with its velocity before friction acts in a
        # step, so velocities act as mid-step values: start the die at its
        # velocity half a step into the slide (v - mu g dt / 2), which makes
        # the Coulomb slide exact at every step (distance v^2 / (2 mu g))
        vx, vy, spin = half_step_ahead(board, i2, vx, vy, spin)
    return TableStart(vx, vy, spin, struck)


@dataclass(frozen=True)
class PitchRoll:
    """A struck die's turn over its pressed bottom edge: toward (dx, dy)
    (unit, board frame) at ``omega`` rad/s, the edge sliding at ``slide``
    mm/s."""

    dx: float
    dy: float
    omega: float
    slide: tuple[float, float]


def strike_pitch(flick: Flick, struck: StrikeResponse | None, size: float) -> PitchRoll | None:
    """The roll a strike off the centre starts (None if it does not turn
    the die): it rolls over as many edges as the turn carries it (forward
    for a high strike, back over its trailing edge for a low one), as an
    edge catch does, then slides on at the strike's forward speed."""
    if struck is None or struck.pitch == 0.0:
        return None
    ux, uy = flick.velocity[0] / flick.speed, flick.velocity[1] / flick.speed
    sign = 1.0 if struck.pitch > 0.0 else -1.0
    # the pressed edge slides on at the centre's speed plus the turn's
    # own motion of that edge: a high strike turns the die nose down,
    # its leading bottom edge moving back at w a / 2 (forward - w a/2);
    # a low strike turns it nose up, its trailing bottom edge moving
    # forward at |w| a / 2 (forward + |w| a/2). It took forward - |w|
    # a/2 for both, so 70 % of low strikes ended behind their start
    # (saved case in tests/test_physics_faults.py)
    edge = max(struck.forward - struck.pitch * size / 2.0, 0.0)
    return PitchRoll(sign * ux, sign * uy, abs(struck.pitch), (ux * edge, uy * edge))


def ledge_edge(
    flick: Flick,
    board: Board,
    castle_seats: Sequence[int],
    side_walls: bool,
    engine: tuple[float, float] | None,
) -> tuple[float, float] | None:
    """The unit normal (board plane, pointing off the ledge) of the edge
    a crenelation or siege launch leaves from: a wall's or the engine
    top's side, along the board axis nearest the flick, when a wall or
    the engine (centred at ``engine`` mm) stands under the die behind the
    edge; None (an edge across the flick) at an open spot, where the
    reference sets a block across the flick
    (:class:`~warlords_sim.reference.scene.LaunchLedge`)."""
    assert flick.start is not None  # validate_flick checked it
    speed = flick.speed
    if speed <= 0.0:
        return None
    ux, uy = flick.velocity[0] / speed, flick.velocity[1] / speed
    back = board.die.size_mm + LEDGE_GAP_MM  # the middle of the die on the ledge
    px, py = flick.start[0] - ux * back, flick.start[1] - uy * back
    rects = [w.rect for _, w in standing_walls(board, castle_seats, side_walls)]
    if engine is not None:
        ew = board.siege_engine.width_mm / 2.0
        ex, ey = engine
        rects.append(Rect(ex - ew, ey - ew, ex + ew, ey + ew))
    if not any(rect.contains(px, py) for rect in rects):
        return None
    if abs(ux) >= abs(uy):
        return (1.0 if ux > 0.0 else -1.0, 0.0)
    return (0.0, 1.0 if uy > 0.0 else -1.0)


def ledge_exit(
    flick: Flick,
    board: Board,
    i2: float,
    vx: float,
    vy: float,
    r: NDArray[np.float64],
    edge: tuple[float, float] | None,
) -> tuple[tumble.LedgeLaunch, float]:
    """A die flicked at (vx, vy) mm/s from a ledge ``flick.height_mm`` high,
    at world orientation ``r``, slides off it over ``edge``
    (:func:`ledge_edge`): the overhang solved in closed form
    (:func:`~warlords_sim.physics.tumble.ledge_launch`), and the height
    (mm) of its centre as it leaves the ledge."""
    size = board.die.size_mm
    off = tumble.ledge_launch(
        vx,
        vy,
        flick.spin,
        r,
        size,
        board.gravity_mm_s2,
        board.wall_material.friction,
        strike=flick.strike_mm,
        i2=i2,
        radius=board.die.edge_radius_mm,
        edge=edge,
    )
    return off, flick.height_mm + size / 2.0 - off.drop


def check_drop(
    board: Board,
    position: tuple[float, float, float],
    velocity: tuple[float, float, float],
    rotation: NDArray[np.float64],
    omega: tuple[float, float, float],
) -> NDArray[np.float64]:
    """Check a drop's numbers (see :meth:`~warlords_sim.physics.world.World.drop`)
    but for its place on the board; the rotation as a float64 array.

    Raises:
        WorldError: numbers not finite, a rotation that is not one, or a
            start whose lowest point (of the die rounded to
            ``die.edge_radius_mm``) is not above the board surface.
    """
    r = np.asarray(rotation, dtype=np.float64)
    values = [*position, *velocity, *omega]
    if len(values) != 9 or not all(math.isfinite(float(v)) for v in values):
        raise WorldError(
            "a drop needs finite position (mm), velocity (mm/s) and omega (rad/s), "
            f"three numbers each, got {position!r}, {velocity!r}, {omega!r}"
        )
    if (
        r.shape != (3, 3)
        or not np.all(np.isfinite(r))
        or float(np.max(np.abs(matmul(r.T, r) - np.eye(3)))) > 1e-6
        or dot3(np.cross(r[:, 0], r[:, 1]), r[:, 2]) < 0.0  # det < 0: a reflection
    ):
        raise WorldError("a drop's rotation must be a proper 3x3 rotation matrix")
    return r


def drop_clearance(board: Board, z: float, r: NDArray[np.float64]) -> None:
    """A drop from centre height ``z`` mm at orientation ``r`` starts clear
    of the table.

    Raises:
        WorldError: the lowest point of the rounded die is not above the
            board surface.
    """
    radius = board.die.edge_radius_mm
    core = board.die.size_mm / 2.0 - radius
    low = z - core * (abs(float(r[2, 0])) + abs(float(r[2, 1])) + abs(float(r[2, 2])))
    low -= radius
    if low <= 0.0:
        raise WorldError(
            f"a drop must start clear of the table: the lowest point is at {low:.3g} mm"
        )


def drop_yaw(r: NDArray[np.float64]) -> float:
    """The pymunk square's yaw (rad) for a die at orientation ``r``: the
    heading of the body axis after the one closest to vertical (its
    footprint when it lands on that face)."""
    up = int(np.argmax(np.abs(r[2])))
    nxt = (up + 1) % 3
    return math.atan2(float(r[1, nxt]), float(r[0, nxt]))
