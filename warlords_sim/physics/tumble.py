"""Tumble: a die turning over its edges on a surface, as motion over steps.

Edge catches (trips) of a sliding die, rolls over one or more faces, the
forward tumble of a die sliding off a ledge, and laying a die that has
stopped bouncing flat on the face below it.

Contract
--------
* Pure arithmetic (numpy), no pymunk and no state. The functions return
  what the die does (:class:`Roll`, a flat yaw and orientation, a spin);
  :class:`~warlords_sim.physics.world.World` applies it to the die's body.
  What the die may roll into is asked through a ``blocked(x, y)`` callback.
* Units mm, g, s, rad; board frame. Orientations are 3x3 rotation matrices
  (:mod:`~warlords_sim.physics.orientation`).
* The face changes only through these motions and the bounces of
  :mod:`~warlords_sim.physics.impact`; never a random draw.

The model (rigid cube of edge a, mass m; derived from the impulse-momentum
balance about the pivoting edge, design brief section 2):

* **Rolls** on the table: a die turning about a bottom edge with angular
  speed w tips over if (1/2) I_edge w^2 >= m g a (sqrt 2 - 1) / 2, with
  I_edge = 2 m a^2 / 3 (:func:`tip_energy_ok`); the motion itself is the
  dynamics of :mod:`~warlords_sim.physics.pivot`, and where it ends on a
  face an impact of :mod:`~warlords_sim.physics.impact`.
* **Trips**: a sliding die whose bottom edge is caught pivots about it with
  w = v (a/2) / (i2 + a^2/2) (angular momentum about the edge,
  :func:`trip_spin`; 3 v / (4 a) for a sharp cube, i2 = a^2/6); it tips
  over from v ~ 1.05 sqrt(g a), 0.42 m/s for a 16 mm die
  (:func:`trip_speed`). The world passes the rounded die's inertia
  (:func:`~warlords_sim.physics.impact.die_inertia`); the caught edge is
  taken sharp.
* **Ledge launch**: a die sliding off a crenelation or the siege engine
  pivots forward over the edge while it slides (:func:`ledge_launch`, the
  motion solved in :mod:`~warlords_sim.physics.ledge`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from warlords_sim.physics.ledge import LEDGE_GAP_MM, slide_off_ledge
from warlords_sim.physics.linalg3 import matmul
from warlords_sim.physics.orientation import FACE_NORMALS, face_up, rotation_about, rotation_z
from warlords_sim.physics.strike import free_strike

__all__ = [
    "EdgeContact",
    "edge_contact",
    "lay_flat",
    "LedgeLaunch",
    "MIN_LEDGE_SPEED",
    "ledge_launch",
    "quarter_turn",
    "roll_axis",
    "tip_energy_ok",
    "trip_speed",
    "trip_spin",
]

Vec = NDArray[np.float64]


def tip_energy_ok(omega: float, size: float, gravity: float) -> bool:
    """True if a die turning at ``omega`` rad/s about a bottom edge, lying flat,
    has the energy to tip over that edge: (1/3) a^2 w^2 >= g a (sqrt2 - 1) / 2."""
    return omega * omega * size * size / 3.0 >= gravity * size * (math.sqrt(2.0) - 1.0) / 2.0


def trip_speed(size: float, gravity: float, i2: float | None = None) -> float:
    """Slowest sliding speed (mm/s) at which a die whose leading bottom edge
    is caught tips over: the trip's turn (:func:`trip_spin`) has the energy
    to lift the centre over the edge, (1/2) (i2 + a^2/2) w^2 >= g a (sqrt 2
    - 1) / 2, so v^2 = 4 g (sqrt 2 - 1) (i2 + a^2/2) / a: ~1.05 sqrt(g a),
    0.42 m/s for a = 16 mm with a sharp cube's ``i2 = a^2 / 6`` (the
    default); ``i2`` (mm^2) is the moment of inertia about the centre per
    unit mass."""
    if i2 is None:
        return math.sqrt(16.0 * gravity * size * (math.sqrt(2.0) - 1.0) / 6.0)
    return math.sqrt(4.0 * gravity * (math.sqrt(2.0) - 1.0) * (i2 + size * size / 2.0) / size)


@dataclass(frozen=True)
class LedgeLaunch:
    """How a die flicked from a ledge starts its flight.

    Attributes:
        dx, dy: where its centre is as it leaves the ledge, relative to the
            flick's start point, mm (within a millimetre of it; see
            :mod:`~warlords_sim.physics.ledge` for the convention).
        drop: how far the centre has dropped below its height on the ledge, mm.
        vx, vy: horizontal velocity, mm/s. vz: vertical speed, mm/s (<= 0).
        r: world orientation (3x3), tilted forward over the ledge.
        omega: angular velocity (rad/s, world, 3): the forward tumble about
            the ledge's edge plus the flick's yaw rate.
        time: seconds from the flick to leaving the ledge (its flight
            starts then).
    """

    dx: float
    dy: float
    drop: float
    vx: float
    vy: float
    vz: float
    r: Vec
    omega: Vec
    time: float = 0.0


#: Slowest speed (mm/s) the overhang is solved at: a die nudged slower than
#: this creeps off the ledge as if flicked at it.
MIN_LEDGE_SPEED = 10.0


def ledge_launch(
    vx: float,
    vy: float,
    spin: float,
    r: Vec,
    size: float,
    gravity: float,
    friction: float,
    strike: float = 0.0,
    i2: float | None = None,
    radius: float = 0.0,
    edge: tuple[float, float] | None = None,
) -> LedgeLaunch:
    """A die flicked at (vx, vy) mm/s with yaw rate ``spin`` (rad/s) and world
    orientation ``r`` slides off a ledge
    (:func:`~warlords_sim.physics.ledge.slide_off_ledge`, kinetic
    ``friction`` between die and ledge, the die's edges rounded to
    ``radius`` mm), struck ``strike`` mm above its centre
    (:func:`~warlords_sim.physics.strike.free_strike`: its centre is over
    the edge, so no bottom edge is pressed into the ledge). A flick of no
    speed at all is a die let go where it is: it falls straight, untilted.
    ``i2`` is the die's moment of inertia about its centre per unit mass,
    mm^2 (default a sharp cube's a^2 / 6).

    ``edge``: the unit normal (board plane) of the ledge's edge, pointing
    off the ledge (default: the flick direction, an edge across the flick).
    The die tips over the edge as it is, about the edge's line, with the
    speed across the edge; friction on the edge slows its slide along the
    edge, turns it about the vertical and brakes its yaw
    (:func:`~warlords_sim.physics.ledge.slide_off_ledge`'s ``along`` and
    ``spin``; model 2.5d-10 kept both as flicked). A crenelation's edge
    runs along its wall: in model 2.5d-9 a flick a fraction of a degree off
    square tipped about an axis that far from the die's edge, so it came
    down on one corner of its leading edge instead of the edge (saved case
    in tests/test_physics_ledge.py).
    """
    speed = math.hypot(vx, vy)
    if speed == 0.0:
        return LedgeLaunch(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, np.asarray(r), np.array([0.0, 0.0, spin]))
    ux, uy = (vx / speed, vy / speed) if speed > 0.0 else (0.0, 1.0)
    nx, ny = (ux, uy) if edge is None else edge
    across = vx * nx + vy * ny
    along = -vx * ny + vy * nx  # along the edge, (-ny, nx)
    if across <= 0.0:
        raise ValueError(
            f"ledge_launch: the flick ({vx:g}, {vy:g}) mm/s does not cross the edge "
            f"of normal ({nx:g}, {ny:g})"
        )
    # a finger's blow above the centre: its tumble about the edge's line
    pitch = free_strike(speed, strike, size, i2=i2).pitch * (ux * nx + uy * ny)
    ex = slide_off_ledge(
        max(across, MIN_LEDGE_SPEED),
        size,
        gravity,
        friction,
        tumble=pitch,
        i2=i2,
        radius=radius,
        along=along,
        spin=spin,
    )
    # the centre starts over the edge, LEDGE_GAP_MM + a/2 behind the start
    # along the flick (the convention of physics/ledge.py)
    back = size / 2.0 + LEDGE_GAP_MM
    dx = -ux * back + nx * ex.forward_mm - ny * ex.drift
    dy = -uy * back + ny * ex.forward_mm + nx * ex.drift
    # it turns about the vertical while it slides over the ledge, and
    # tumbles forward about z x n, the ledge's edge (2.5d-9 left the yaw
    # out: a die flicked at 300 mm/s with 20 rad/s of spin left the ledge
    # 0.7 rad short of the reference's yaw, and came down on another corner)
    axis = np.array([-ny, nx, 0.0])
    r0 = matmul(rotation_about(axis, ex.tilt), matmul(rotation_z(ex.yaw), r))
    return LedgeLaunch(
        dx=dx,
        dy=dy,
        drop=ex.drop_mm,
        vx=nx * ex.speed - ny * ex.along,
        vy=ny * ex.speed + nx * ex.along,
        vz=ex.vz,
        r=np.asarray(r0),
        omega=np.array([axis[0] * ex.tumble, axis[1] * ex.tumble, ex.spin]),
        time=ex.time,
    )


def trip_spin(speed: float, size: float, i2: float | None = None) -> float:
    """Angular speed (rad/s) about the caught bottom edge of a die sliding at
    ``speed`` mm/s when that edge is caught: angular momentum m v a / 2
    about the edge over m (i2 + a^2 / 2), ``i2`` (mm^2) the moment of
    inertia about the centre per unit mass (default a sharp cube's a^2 / 6:
    w = 3 v / (4 a))."""
    if i2 is None:
        return 3.0 * speed / (4.0 * size)
    return speed * size / 2.0 / (i2 + size * size / 2.0)


def roll_axis(theta: float, dx: float, dy: float) -> tuple[float, float]:
    """The unit table direction (ux, uy) along the die's body axis closest to
    (dx, dy), for a die of yaw ``theta`` rad: a flat die rolls over the
    bottom edge across that axis."""
    local = math.atan2(dy, dx) - theta
    quarter = round(local / (math.pi / 2.0))
    ang = theta + quarter * math.pi / 2.0
    return math.cos(ang), math.sin(ang)


def quarter_turn(r: Vec, ux: float, uy: float) -> Vec:
    """World orientation ``r`` after rolling a quarter turn toward the unit
    table vector (ux, uy): about z x u, Rodrigues' formula with cos and sin
    of the quarter turn taken as exactly 0 and 1 (no floating-point drift).

    It used to round the entries of that rotation, which is exact only for a
    u along the board's x or y axis; at any other yaw it turned the die
    about the board axis nearest to z x u, and a die rolling at a yaw off
    the board's axes came down on its next face tilted by that difference
    (up to 45 degrees; saved case in tests/test_physics_roll.py)."""
    a, b = -uy, ux  # the rotation's unit axis (a, b, 0)
    turn = np.array([[a * a, a * b, b], [a * b, b * b, -a], [-b, a, 0.0]])
    return matmul(turn, r)


@dataclass(frozen=True)
class EdgeContact:
    """A die that has stopped bouncing, seen as pivoting on its lowest
    bottom edge (:func:`edge_contact`).

    Attributes:
        yaw, rel: the yaw (rad) and yaw-frame orientation of the die lying
            flat on the face it tilts from (as :func:`lay_flat` gives them).
        ux, uy: the pivot direction (a unit table vector along a body axis):
            the die tilts toward it, over the edge on that side.
        phi: the tilt about that edge, rad (0 flat, pi/4 balanced on it).
        rate: turning rate about the edge toward (ux, uy), rad/s.
    """

    yaw: float
    rel: Vec
    ux: float
    uy: float
    phi: float
    rate: float


def edge_contact(r: Vec, theta: float, omega: Vec) -> EdgeContact:
    """Die ``r`` (world orientation), yaw ``theta`` (pymunk's angle, rad),
    turning at ``omega`` (rad/s, world, 3), taken as tilted over the bottom
    edge it leans toward: the face below is the one :func:`lay_flat` lays it
    on, the tilt is the angle between that face's outward normal and
    straight down, the edge the one the normal leans away from. A die lying
    flat (no tilt) pivots the way its tumble turns it (``omega = z x u``).
    Plain floats; the edge direction snaps to the die's body axes."""
    yaw, rel = lay_flat(r, theta)
    down = FACE_NORMALS[7 - face_up(r)]
    axis = next(i for i in range(3) if down[i] != 0.0)
    sign = down[axis]
    nx, ny, nz = (float(r[i, axis]) * sign for i in range(3))
    nh = math.hypot(nx, ny)
    wx, wy = float(omega[0]), float(omega[1])
    if nh > 1e-9:
        phi = math.atan2(nh, -nz)
        dx, dy = -nx / nh, -ny / nh
    else:
        phi = 0.0
        wh = math.hypot(wx, wy)
        dx, dy = (wy / wh, -wx / wh) if wh > 0.0 else (1.0, 0.0)
    ux, uy = roll_axis(yaw, dx, dy)
    return EdgeContact(yaw, rel, ux, uy, phi, -uy * wx + ux * wy)


def lay_flat(r: Vec, theta: float) -> tuple[float, Vec]:
    """A die that has stopped bouncing, at world orientation ``r``, falls
    onto the face below.

    The face up is :func:`~warlords_sim.physics.orientation.face_up` of
    ``r``; the body axis of that face becomes vertical, and the next body
    axis (cyclically) points along its own horizontal projection, which
    gives the yaw. The result is built exactly from those two facts, never
    by rounding ``r``: a die landing tilted by more than 30 degrees has an
    axis whose rounded components put two faces equally up (saved case in
    tests/test_physics_faults.py).

    Args:
        r: world orientation (3x3 rotation matrix).
        theta: the die's yaw (pymunk angle, rad) before it lies flat.

    Returns:
        The flat die's yaw (rad, the one nearest to ``theta`` congruent mod
        pi/2 to the measured one, so that pymunk's angle stays continuous)
        and its orientation in that yaw's frame: exactly one of
        :data:`~warlords_sim.physics.orientation.ROTATIONS`, with the same
        face up as ``r``.
    """
    up = face_up(r)
    normal = FACE_NORMALS[up]
    up_axis = next(i for i in range(3) if normal[i] != 0.0)
    sign = normal[up_axis]
    # yaw of the flat die: the horizontal direction of the next body axis
    horiz = (up_axis + 1) % 3
    third = (up_axis + 2) % 3
    measured = math.atan2(float(r[1, horiz]), float(r[0, horiz]))
    q = math.pi / 2.0
    yaw = theta + math.remainder(measured - theta, q)
    # flat orientation in the measured yaw's frame: the up axis along
    # sign * z, the next axis along x, the third (right-handed: e_up x e_next)
    # along sign * y
    flat = np.zeros((3, 3))
    flat[2, up_axis] = sign
    flat[0, horiz] = 1.0
    flat[1, third] = sign
    # the same in the frame of ``yaw``: a whole number of quarter turns away
    turn = _QUARTER_TURNS[round((measured - yaw) / q) % 4]
    return yaw, matmul(turn, flat) + 0.0


#: Exact rotations about z by 0, 1, 2 and 3 quarter turns.
_QUARTER_TURNS: tuple[Vec, ...] = tuple(
    np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    for c, s in ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))
)
