"""A rounded-edge cube striking a horizontal floor: where it touches, and the impact.

Contract
--------
* Pure arithmetic in plain Python floats (``+ - * /`` and ``math.sqrt``,
  correctly rounded, so the same bits on every CPU): no pymunk, no state,
  no numpy products or transcendental functions (numpy arrays are only
  containers for what goes in and out). Units mm, g, s, rad; world frame,
  z up; an orientation is a 3x3 rotation whose column k is body axis k in
  the world (as in :mod:`~warlords_sim.physics.orientation`).
* The die is a cube of edge ``size`` whose edges and corners are rounded
  with ``radius``: the set of points within ``radius`` of a core cube of
  edge ``size - 2 radius`` (the reference engine's mesh,
  :func:`~warlords_sim.reference.shapes.rounded_box_vertices`, is the
  hull of the same eight corner spheres).
* :func:`floor_contact`: which feature of the die (a corner, an edge or a
  face) touches a floor below it, and where.
* :func:`impact`: a rigid-body impact there with Coulomb friction
  and Stronge's energetic coefficient of restitution (W. J. Stronge,
  "Rigid body collisions with friction", Proc. R. Soc. Lond. A 431, 169-181,
  1990; Impact Mechanics, Cambridge University Press 2000, ch. 5). The
  contact velocity is followed as a function of the normal impulse ``p``
  through slip (whose direction turns in 3D), stick and slip reversal;
  compression ends where the normal contact speed is zero, restitution
  where the normal force's work in restitution is ``e^2`` times its work in
  compression. Normal and frictional work are both dissipative, so no
  impact creates energy (Newton's restitution with friction can, when the
  slip stops or reverses: Kane and Levinson's paradox, Stronge 1990). A
  corner or an edge is a point contact (an edge's at its midpoint); a face
  flat on the floor is a patch whose pressure holds it flat.
* Not modelled: an edge's line contact (the rotation about the horizontal
  axis across the edge, which a line's pressure would slap back as a face's
  is, passes through a point contact; MuJoCo's two-point edge contact does
  slap it back), twisting friction (a face's resistance to spinning about
  the vertical), simultaneous contacts of different features.
* :func:`rounded_cube_inertia`: its moment of inertia (isotropic, like any
  body with a cube's symmetry).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "CONTACT_MODULUS_PA",
    "DEFAULT_RESOLUTION",
    "Feature",
    "FloorContact",
    "Impact",
    "Regime",
    "compression_depth",
    "floor_contact",
    "impact",
    "rounded_cube_inertia",
]

Vec = NDArray[np.float64]
Vector = Sequence[float] | NDArray[np.float64]

#: Integration steps per unit of the slip's rates (and four per unit per
#: frictionless impulse, see :func:`impact`): 4x as many steps change the
#: speeds by 2e-6 of them at the median, 1.1e-4 at the 99th percentile
#: (benchmarks/contact.py; tests/test_physics_contact.py holds it under 1e-3).
DEFAULT_RESOLUTION = 2
#: A slip whose component across the offset's direction is below this
#: fraction of its speed is followed along it, that component frozen (its
#: friction then acts along the offset's direction only: an error below 1e-4
#: of the tangential impulse across, 1e-8 along; none if the slip then stops,
#: the frozen part ending with it).
_PLANAR = 1e-4
#: A slip below this fraction of the impact's speed scale (its larger of the
#: slip and the normal approach speed) is followed along the offset's
#: direction to where it stops: a slip that comes this near to stopping has
#: stopped (and sticks if mu_s allows: with mu < mu_s a turning slip passing
#: this near the origin would otherwise swing past it).
_FINISH = 1e-6
#: A corner whose downward speed is below this fraction of the die's speed
#: scale (``|v_z| + (|omega_x| + |omega_y|) size``) is not moving down in
#: :func:`floor_contact`: rounding, not motion.
_STILL = 1e-9
#: Integration steps after which the impact is given up (never reached in
#: the tests: a bug guard, not a limit of the model).
_MAX_STEPS = 20_000


# ---------------------------------------------------------------- geometry


def rounded_cube_inertia(mass: float, size: float, radius: float) -> float:
    """Moment of inertia (g mm^2) about any axis through the centre of a
    uniform cube of edge ``size`` (mm) and ``mass`` (g) whose edges and
    corners are rounded with ``radius`` (mm).

    The body is the core cube of half-edge ``h = size / 2 - radius``, six
    face slabs ``radius`` thick, twelve quarter cylinders along the edges
    and eight eighth balls at the corners. With ``J = integral of x^2 dV``
    (equal for x, y and z by symmetry) and ``V`` its volume, ``I = 2 m J / V``
    (derived in the tests' docstring; a Monte Carlo integral agrees to
    0.1 %, and so does MuJoCo's inertia of a finely meshed one):

    * ``V = 8 h^3 + 24 h^2 R + 6 pi R^2 h + 4/3 pi R^3``
    * ``J = 8/3 h^5 + 8/3 h^2 ((h + R)^3 - h^3) + 16/3 h^4 R``
      ``+ 14/3 pi R^2 h^3 + 32/3 h^2 R^3 + 2 pi R^4 h``
      ``+ 4/3 pi R^3 h^2 + 4/15 pi R^5``

    ``radius = 0`` gives a sharp cube's ``m size^2 / 6``, ``radius = size / 2``
    a ball's ``2/5 m (size/2)^2``. At 1.6 mm on a 16 mm die it is 2.8 % less
    than the sharp cube's (41.46 m against 42.67 m, mm^2).

    Raises:
        ValueError: mass or size not positive, radius outside [0, size / 2].
    """
    if not (mass > 0.0 and math.isfinite(mass)):
        raise ValueError(f"rounded_cube_inertia: mass must be positive (g), got {mass}")
    if not (size > 0.0 and math.isfinite(size)):
        raise ValueError(f"rounded_cube_inertia: size must be positive (mm), got {size}")
    if not 0.0 <= radius <= size / 2.0:
        raise ValueError(
            f"rounded_cube_inertia: radius must be in [0, {size / 2.0:g}] mm, got {radius}"
        )
    h, r, pi = size / 2.0 - radius, radius, math.pi
    h2, r2 = h * h, r * r
    volume = 8.0 * h2 * h + 24.0 * h2 * r + 6.0 * pi * r2 * h + 4.0 / 3.0 * pi * r2 * r
    second = (
        8.0 / 3.0 * h2 * h2 * h
        + 8.0 / 3.0 * h2 * ((h + r) ** 3 - h2 * h)
        + 16.0 / 3.0 * h2 * h2 * r
        + 14.0 / 3.0 * pi * r2 * h2 * h
        + 32.0 / 3.0 * h2 * r2 * r
        + 2.0 * pi * r2 * r2 * h
        + 4.0 / 3.0 * pi * r2 * r * h2
        + 4.0 / 15.0 * pi * r2 * r2 * r
    )
    return 2.0 * mass * second / volume


class Feature(Enum):
    """The part of a rounded cube that touches the floor."""

    CORNER = "corner"  # one corner sphere
    EDGE = "edge"  # an edge cylinder (two corners level)
    FACE = "face"  # a face (four corners level)


@dataclass(frozen=True)
class FloorContact:
    """Where a rounded cube touches a floor below it.

    Attributes:
        feature: corner, edge or face.
        offset: (3,) mm, world: from the die's centre to the contact point:
            a corner sphere's centre offset minus ``(0, 0, radius)``, the
            midpoint of an edge cylinder's bottom line, or a face's centre.
        depth: mm, how far the die's lowest point lies below its centre
            (its centre's height when it touches the floor).
        corners: indices (0..7) of the core corners of the feature, corner
            ``k`` having signs ``(-1)^(bit i of k + 1)`` along body axis i
            (bit set: +, clear: -).
    """

    feature: Feature
    offset: Vec
    depth: float
    corners: tuple[int, ...]


#: Signs along body axes x, y, z of core corner k (bit i of k set: +).
_SIGNS = tuple(tuple(1.0 if k >> i & 1 else -1.0 for i in range(3)) for k in range(8))


def _rotation(r: object) -> list[list[float]]:
    if isinstance(r, np.ndarray) and r.dtype == np.float64 and r.shape == (3, 3):
        fast: list[list[float]] = r.tolist()  # already plain floats
        return fast
    rows = r.tolist() if isinstance(r, np.ndarray) else r
    try:
        out = [[float(x) for x in row] for row in rows]  # type: ignore[union-attr]
    except TypeError as exc:
        raise ValueError("floor_contact: r must be a 3x3 rotation matrix") from exc
    if len(out) != 3 or any(len(row) != 3 for row in out):
        raise ValueError("floor_contact: r must be a 3x3 rotation matrix")
    return out


def _vec3(v: Vector, what: str) -> tuple[float, float, float]:
    if len(v) != 3:
        raise ValueError(f"{what} must have 3 entries, got {len(v)}")
    x, y, z = float(v[0]), float(v[1]), float(v[2])
    if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(z)):
        raise ValueError(f"{what} must be finite, got ({x}, {y}, {z})")
    return x, y, z


def floor_contact(
    r: NDArray[np.float64] | Sequence[Sequence[float]],
    size: float,
    radius: float,
    v: Vector | None = None,
    omega: Vector | None = None,
    tol: float = 1e-3,
    compression: float = 0.0,
) -> FloorContact | None:
    """The feature of a rounded cube that touches a floor below it.

    Args:
        r: orientation, 3x3 (columns: body axes in the world).
        size: edge, mm. radius: edge and corner radius, mm (0: sharp).
        v: centre velocity (mm/s, 3), with ``omega`` (rad/s, 3): if both are
            given, only core corners within 2 % of ``size`` of the lowest
            whose contact points move down count (faster than 1e-9 of the
            speed scale ``|v_z| + (|omega_x| + |omega_y|) size``: slower is
            rounding), and the lowest of those (as
            :func:`~warlords_sim.physics.sharp_impact.contact_point` does).
        tol: corners whose centres lie within ``tol * size`` of the lowest
            (in height) touch together: two on an edge, four on a face.
        compression: how far (mm) the impact presses the contact in
            (:func:`compression_depth`; 0, the default: a rigid contact).
            A corner less than that above the lowest touches within the
            same impact: the pair is an edge whose contact point lies
            between the edge's midpoint (level) and the lower corner (the
            higher one ``compression`` up, touching only at the deepest),
            in proportion to the height between them. A face keeps
            ``tol``. (Model 2.5d-11; with ``tol`` alone a corner 0.02 mm
            higher than its neighbour made the landing one corner's, which
            turned a 900 mm/s low launch's die at 58 rad/s about the flick
            where the edge's impact turns it at 0.)

    Returns:
        The :class:`FloorContact`, or None when ``v`` and ``omega`` are
        given and no corner near the floor moves down.

    Raises:
        ValueError: ``r`` not 3x3, size not positive, radius outside
            [0, size / 2], ``v`` or ``omega`` not 3 finite numbers.
    """
    m = _rotation(r)
    if not (size > 0.0 and math.isfinite(size)):
        raise ValueError(f"floor_contact: size must be positive (mm), got {size}")
    if not 0.0 <= radius <= size / 2.0:
        raise ValueError(f"floor_contact: radius must be in [0, {size / 2.0:g}] mm, got {radius}")
    hc = size / 2.0 - radius
    cols = [(m[0][k] * hc, m[1][k] * hc, m[2][k] * hc) for k in range(3)]
    (ax, ay, az), (bx, by, bz), (cx, cy, cz) = cols
    # core corner k: sum over axes i of sign_i(k) * cols[i]
    corners = [
        (sx * ax + sy * bx + sz * cx, sx * ay + sy * by + sz * cy, sx * az + sy * bz + sz * cz)
        for sx, sy, sz in _SIGNS
    ]
    depth = abs(az) + abs(bz) + abs(cz) + radius
    level = max(tol * size, compression)
    zs = [c[2] for c in corners]
    zmin = min(zs)
    if v is None or omega is None:
        low = zs.index(zmin)
        moving = set(range(8))
        down = [0.0] * 8
    else:
        _, _, vz = _vec3(v, "floor_contact: v")
        wx, wy, _ = _vec3(omega, "floor_contact: omega")
        down = [vz + wx * c[1] - wy * c[0] for c in corners]
        near = zmin + 0.02 * size
        # moving down faster than rounding can tell: a corner that merely
        # stays on the floor (a die pivoted flat onto a face: its pivot
        # edge's corners at +-1e-14 mm/s) is not a falling one
        still = _STILL * (abs(vz) + (abs(wx) + abs(wy)) * size)
        moving = {k for k in range(8) if zs[k] <= near and down[k] < -still}
        if not moving:
            return None
        low = -1
        for k in range(8):  # the lowest of them (the first, if tied)
            if k in moving and (low < 0 or zs[k] < zs[low]):
                low = k
    z0 = corners[low][2]
    # axes along which the neighbouring corner is level with the lowest and counts
    rise = [corners[low ^ 1 << i][2] - z0 for i in range(3)]
    flat = [i for i in range(3) if (low ^ 1 << i) in moving and rise[i] <= level]
    face_level = tol * size
    ids: tuple[int, ...]
    if (
        len(flat) == 2
        and (low ^ 1 << flat[0] ^ 1 << flat[1]) in moving
        and max(rise[flat[0]], rise[flat[1]]) <= face_level
    ):
        feature, span = Feature.FACE, flat
        ids = (low, low ^ 1 << flat[0], low ^ 1 << flat[1], low ^ 1 << flat[0] ^ 1 << flat[1])
    elif flat:
        if level > face_level:  # the edge whose far corner is nearest level
            axis = min(flat, key=lambda i: (rise[i], down[low ^ 1 << i], i))
        else:
            axis = min(flat, key=lambda i: (down[low ^ 1 << i], i))  # the faster-falling edge
        feature, span, ids = Feature.EDGE, [axis], (low, low ^ 1 << axis)
    else:
        feature, span, ids = Feature.CORNER, [], (low,)
    ox = oy = oz = 0.0
    for i in range(3):
        if i in span:
            if feature is Feature.FACE or compression <= 0.0:
                continue  # the feature's midpoint along this axis is the centre's
            # between the edge's midpoint and the lower corner
            share = min(rise[i] / compression, 1.0)
        else:
            share = 1.0
        s = share if low >> i & 1 else -share
        ox += s * cols[i][0]
        oy += s * cols[i][1]
        oz += s * cols[i][2]
    return FloorContact(feature, np.array([ox, oy, oz - radius]), depth, tuple(sorted(ids)))


#: Combined contact modulus E* of an acrylic die on a wooden board, Pa:
#: 1 / ((1 - 0.35^2) / 3.2 GPa + (1 - 0.4^2) / 1 GPa), acrylic 3.2 GPa and
#: Poisson 0.35 (engineering tables), wood across the grain 1 GPa (0.5-2 GPa:
#: 0.05-0.15 of the longitudinal 10-14 GPa, Wood Handbook, USDA Forest
#: Products Laboratory, chapter 4) and 0.4; 0.54-1.4 GPa over that range.
CONTACT_MODULUS_PA = 0.897e9


def compression_depth(
    mass: float, inertia: float, offset: Vector, radius: float, speed: float
) -> float:
    """How far (mm) an impact at ``speed`` mm/s presses a rounded corner into
    the floor at its deepest: Hertz's sphere on a half-space, ``(15 m v^2 /
    (16 E* sqrt R))^(2/5)`` (K. L. Johnson, Contact Mechanics, 1985, section
    11.4), of the corner's radius ``radius`` mm (at least 0.1 mm) and the
    die's effective mass at the contact point ``offset`` (mm, from the
    centre), ``1 / (1 / m + (r_x^2 + r_y^2) / I)`` (``mass`` g, ``inertia`` g
    mm^2), with :data:`CONTACT_MODULUS_PA`. A 4.6 g die landing on a corner
    at 600 mm/s: 0.05 mm; it lasts about ``2.94 depth / speed``, 0.25 ms.
    0 for a speed that is not positive."""
    if not speed > 0.0:
        return 0.0
    rx, ry = float(offset[0]), float(offset[1])
    m_eff = 1.0 / (1.0 / mass + (rx * rx + ry * ry) / inertia) * 1e-3  # kg
    r_m = max(radius, 0.1) * 1e-3
    v = speed * 1e-3
    depth_m: float = (15.0 * m_eff * v * v / (16.0 * CONTACT_MODULUS_PA * math.sqrt(r_m))) ** 0.4
    return depth_m * 1e3


# ------------------------------------------------------------------ impact


class Regime(Enum):
    """How the contact's slip went during an impact."""

    NONE = "none"  # the contact point was not approaching the floor: no impulse
    SLIP = "slip"  # it slipped throughout (in 3D its direction may turn)
    STICK = "stick"  # the slip stopped (or was nil) and the contact stuck
    REVERSE = "reverse"  # the slip stopped and resumed the way the impulse drives it


@dataclass(frozen=True)
class Impact:
    """The outcome of :func:`impact`.

    Attributes:
        v: centre velocity after (mm/s, 3). omega: angular velocity after (rad/s, 3).
        normal_impulse: g mm/s (>= 0), along +z.
        tangential_impulse: (3,) g mm/s, horizontal (friction).
        regime: slip, stick, reverse (or none).
        stop_impulse: the normal impulse (g mm/s) at which the slip stopped,
            None if it never did (or was nil to start with).
        compression_impulse: the normal impulse at the end of compression.
        energy_before, energy_after: kinetic energy, g mm^2/s^2 (1e-9 J).
        steps: integration steps taken (0: closed form throughout).
    """

    v: Vec
    omega: Vec
    normal_impulse: float
    tangential_impulse: Vec
    regime: Regime
    stop_impulse: float | None
    compression_impulse: float
    energy_before: float
    energy_after: float
    steps: int


@dataclass(slots=True)
class _Frame:
    """An impact in its contact frame: e1 (signed so that the normal impulse
    drives the slip towards +e1), e2 across it, n = +z; the slip (x, y) =
    (u_t.e1, u_t.e2 >= 0) starts at (x0, y0) and changes per unit normal
    impulse by ``(c, 0) - mu (k1 sx, k2 sy)`` while slipping along the unit
    (sx, sy); the normal speed is ``g0 + gp p + gx x``; the normal force's
    work grows by (normal speed) times ``1 + kappa sx`` per unit impulse
    while slipping, ``1 + kappa_s`` while stuck (both 0 for a point)."""

    e1x: float
    e1y: float
    e2x: float
    e2y: float
    x0: float
    y0: float
    c: float
    k1: float
    k2: float
    g0: float
    gp: float
    gx: float
    kappa: float
    kappa_s: float
    impulse: float  # the frictionless impulse, a scale for the steps


def _hermite(q0: float, q1: float, d0: float, d1: float, t: float) -> float:
    """Cubic Hermite interpolant on [0, 1] (d0, d1: derivatives times the step)."""
    t2 = t * t
    t3 = t2 * t
    return (
        (2.0 * t3 - 3.0 * t2 + 1.0) * q0
        + (t3 - 2.0 * t2 + t) * d0
        + (3.0 * t2 - 2.0 * t3) * q1
        + (t3 - t2) * d1
    )


def _cubic(q0: float, q1: float, d0: float, d1: float) -> tuple[float, float, float, float]:
    """Monomial coefficients of the cubic Hermite interpolant on [0, 1]."""
    return q0, d0, 3.0 * (q1 - q0) - 2.0 * d0 - d1, 2.0 * (q0 - q1) + d0 + d1


def _work_at(rates: Sequence[float], t: float) -> float:
    """The integral from 0 to t of the polynomial ``sum rates_i t^i``."""
    out = 0.0
    for i in range(len(rates) - 1, -1, -1):
        out = out * t + rates[i] / (i + 1)
    return out * t


def _rate_at(rates: Sequence[float], t: float) -> float:
    out = 0.0
    for a in reversed(rates):
        out = out * t + a
    return out


def _hermite_root(q0: float, q1: float, d0: float, d1: float) -> float:
    """The t in [0, 1] where the Hermite interpolant crosses 0 (q0 < 0 <= q1):
    Newton's method kept inside a shrinking bracket."""
    if not q0 < 0.0:
        return 0.0
    lo, hi = 0.0, 1.0
    t = q0 / (q0 - q1)
    scale = abs(q0) + abs(q1)
    a0, a1, a2, a3 = _cubic(q0, q1, d0, d1)
    for _ in range(60):
        f = a0 + t * (a1 + t * (a2 + t * a3))
        if f < 0.0:
            lo = t
        else:
            hi = t
        if abs(f) <= 1e-15 * scale or hi - lo <= 1e-15:
            break
        df = a1 + t * (2.0 * a2 + 3.0 * t * a3)
        nt = t - f / df if df > 0.0 else 0.5 * (lo + hi)
        t = nt if lo < nt < hi else 0.5 * (lo + hi)
    return t


def _work_root(rates: Sequence[float], gap: float) -> float:
    """The t in [0, 1] at which the integral of the work rate ``sum rates_i
    t^i`` (positive) reaches ``gap`` > 0 (reached by t = 1 up to rounding):
    Newton's method kept inside a shrinking bracket."""
    lo, hi = 0.0, 1.0
    # start from the quadratic part: r0 t + r1 t^2 / 2 = gap
    r0, r1 = rates[0], rates[1]
    disc = r0 * r0 + 2.0 * r1 * gap
    t = 2.0 * gap / (r0 + math.sqrt(disc)) if disc > 0.0 and r0 + math.sqrt(disc) > 0.0 else 0.5
    t = t if 0.0 < t < 1.0 else 0.5
    for _ in range(60):
        f = _work_at(rates, t) - gap
        if f < 0.0:
            lo = t
        else:
            hi = t
        if hi - lo <= 1e-15 or abs(f) <= 1e-15 * gap:
            break
        df = _rate_at(rates, t)
        nt = t - f / df if df > 0.0 else 0.5 * (lo + hi)
        t = nt if lo < nt < hi else 0.5 * (lo + hi)
    return t


@dataclass(slots=True)
class _Slip:
    """The contact's state along the impact: normal impulse ``p``, slip
    components ``x`` (along e1) and ``y`` (along e2, >= 0), the normal
    force's work ``w`` in the phase so far (compression or restitution; in
    the units of the frame's work rate), what restitution must reach, and
    the phase."""

    p: float
    x: float
    y: float
    w: float
    compressing: bool = True
    target: float = 0.0
    compression: float = 0.0
    done: bool = False


def _end_compression(st: _Slip, e: float) -> None:
    st.compressing = False
    st.compression = st.p
    st.target = e * e * -st.w  # the work restitution must do (w_c < 0)
    st.w = 0.0  # from here on: the work in restitution
    st.done = e == 0.0


def _linear_phase(
    st: _Slip,
    f: _Frame,
    alpha: float,
    beta: float,
    factor: float,
    e: float,
    stops: bool,
) -> bool:
    """Advance through a phase in which the slip ``x`` changes at ``alpha``,
    the normal speed at ``beta`` per unit normal impulse and the work at
    ``factor`` times the normal speed (all constant): to the end of the
    impact, or to where ``x`` reaches 0 (if ``stops``; returns True then)."""
    while not st.done:
        un = f.g0 + f.gp * st.p + f.gx * st.x
        if st.compressing:
            d = -un / beta
        else:
            gap = (st.target - st.w) / factor
            un = un if un > 0.0 else 0.0  # (rounding may leave it a hair below at the start)
            root = un + math.sqrt(un * un + 2.0 * beta * gap) if gap > 0.0 else 0.0
            d = 2.0 * gap / root if root > 0.0 else 0.0
        stop = stops and alpha * st.x < 0.0 and -st.x / alpha < d
        if stop:
            d = -st.x / alpha
        st.w += factor * (un * d + 0.5 * beta * d * d)
        st.p += d
        if stop:
            st.x = 0.0
            return True
        st.x += alpha * d
        if st.compressing:
            _end_compression(st, e)
        else:
            st.done = True
    return False


def impact(
    v: Vector,
    omega: Vector,
    offset: Vector,
    mass: float,
    inertia: float,
    restitution: float,
    friction: float,
    static_friction: float | None = None,
    *,
    feature: Feature = Feature.CORNER,
    resolution: float = DEFAULT_RESOLUTION,
) -> Impact:
    """Rigid-body impact of a die on a horizontal floor (normal +z).

    Args:
        v: centre velocity before (mm/s, 3). omega: angular velocity (rad/s, 3).
        offset: from the centre to the contact point (mm, 3, world), e.g.
            :attr:`FloorContact.offset`.
        mass: g. inertia: moment of inertia about any axis through the
            centre, g mm^2 (isotropic: a cube's, :func:`rounded_cube_inertia`).
        restitution: Stronge's energetic coefficient e* in [0, 1]: the normal
            force's work in restitution is ``e*^2`` times (minus) its work in
            compression.
        friction: kinetic Coulomb coefficient in [0, 1] while the contact
            slips; 0 is a frictionless impact.
        static_friction: the coefficient that must hold a contact whose slip
            has stopped (or was nil): default ``friction``; at least ``friction``.
        feature: :attr:`Feature.FACE` for a face flat on the floor with all
            its corners approaching (``offset`` its centre, taken straight
            below the die's centre: the face is level to within
            :func:`floor_contact`'s tolerance): see below. A
            corner or an edge is a point impact at ``offset`` (an edge's at
            its midpoint).
        resolution: integration steps per unit of the slip's rates when its
            direction turns (see below, and :data:`DEFAULT_RESOLUTION`).

    Returns:
        The :class:`Impact`. The contact velocity ``u`` is followed as a
        function of the normal impulse ``p``: while slipping, ``du/dp =
        K (n - mu s)`` with ``K`` the inverse mass matrix of the contact
        point and ``s`` the unit slip direction; when the slip reaches zero
        (below 1e-6 of the speeds) the contact sticks if the impulse ratio
        that keeps it stuck is within ``static_friction``, otherwise it slips
        again the one way ``K`` allows. Compression ends where the normal
        contact speed is zero, restitution where the normal work in
        restitution is ``e*^2`` times that in compression. With a cube's
        isotropic inertia and a horizontal floor the slip is driven along
        the horizontal part of the offset; it keeps its direction when it
        starts along or against it, and then each phase is in closed form.
        Otherwise it turns and is integrated (classical Runge-Kutta in the
        variable ``tau`` with ``dp = |slip| dtau``, in which the approach to
        sticking is smooth; events found on the steps' cubic Hermite
        interpolants) until it runs along that direction or stops.

        A flat face is a patch, not a point: the floor's pressure holds it
        flat, its centre shifting so as to cancel friction's tipping torque,
        and the face's normal velocity field (its centre's speed and its
        tilting rates) keeps its shape while it is compressed and restored
        (the rigid limit of a uniform compliant layer: every point of the
        face compressed in proportion to its approach speed). The pressure's
        work on the tilting counts as normal work, so e* still governs it;
        friction acts on the translation and on the slip of the face, to
        which the tilting contributes. (A point at the face's centre would
        let friction tip a die landing flat: tens of rad/s that MuJoCo's
        face contact does not show.) The pressure's centre is not checked
        to stay within the face; twisting friction is not modelled.

        Frictionless impacts, and impacts whose slip keeps one direction,
        give Newton's ``u_z' = -e u_z``; a centred face impact gives
        ``v_z' = -e v_z``. No impact creates energy. Plain floats throughout.

    Raises:
        ValueError: a vector not 3 finite numbers; mass or inertia not
            positive; restitution outside [0, 1]; friction outside [0, 1] or
            static_friction below it; resolution below 1; or a contact whose
            slip would drive the normal impulse without bound (Painleve's
            paradox: impossible for a cube's contacts with friction up to 1).
    """
    try:
        vx, vy, vz = float(v[0]), float(v[1]), float(v[2])
        wx, wy, wz = float(omega[0]), float(omega[1]), float(omega[2])
        rx, ry, rz = float(offset[0]), float(offset[1]), float(offset[2])
    except (IndexError, TypeError) as exc:
        raise ValueError("impact: v, omega and offset must have 3 entries each") from exc
    if (
        len(v) != 3
        or len(omega) != 3
        or len(offset) != 3
        or not math.isfinite(vx + vy + vz + wx + wy + wz + rx + ry + rz)
    ):
        _vec3(v, "impact: v"), _vec3(omega, "impact: omega"), _vec3(offset, "impact: offset")
    if not (mass > 0.0 and math.isfinite(mass)):
        raise ValueError(f"impact: mass must be positive (g), got {mass}")
    if not (inertia > 0.0 and math.isfinite(inertia)):
        raise ValueError(f"impact: inertia must be positive (g mm^2), got {inertia}")
    if not 0.0 <= restitution <= 1.0:
        raise ValueError(f"impact: restitution must be in [0, 1], got {restitution}")
    if not 0.0 <= friction <= 1.0:
        raise ValueError(f"impact: friction must be in [0, 1], got {friction}")
    mu = float(friction)
    mus = mu if static_friction is None else float(static_friction)
    if not (mus >= mu and math.isfinite(mus)):
        raise ValueError(
            f"impact: static_friction must be at least friction ({mu:g}), got {static_friction}"
        )
    if not (resolution >= 1.0 and math.isfinite(resolution)):
        raise ValueError(f"impact: resolution must be at least 1, got {resolution}")
    e = float(restitution)
    inv_m = 1.0 / mass
    b = 1.0 / inertia
    energy_before = 0.5 * (
        mass * (vx * vx + vy * vy + vz * vz) + inertia * (wx * wx + wy * wy + wz * wz)
    )
    face = feature is Feature.FACE
    if face:  # a level face: its centre straight below the die's (to floor_contact's tolerance)
        rx = ry = 0.0
    # contact velocity u = v + omega x r
    ux = vx + wy * rz - wz * ry
    uy = vy + wz * rx - wx * rz
    un0 = vz + wx * ry - wy * rx
    # approaching slower than rounding can tell (1e-12 of the speeds, or
    # 1e-100 mm/s): no impact
    scale = (
        abs(vx) + abs(vy) + abs(vz) + (abs(wx) + abs(wy) + abs(wz)) * (abs(rx) + abs(ry) + abs(rz))
    )
    if not un0 < -1e-12 * scale - 1e-100:
        return Impact(
            np.array([vx, vy, vz]),
            np.array([wx, wy, wz]),
            0.0,
            np.zeros(3),
            Regime.NONE,
            None,
            0.0,
            energy_before,
            energy_before,
            0,
        )
    if face:
        # the face's centre moves at u_c = un0 + p / m; its tilting rates, and
        # so the tilting part (omega_h x r)_t of its slip, in proportion
        dx, dy = wy * rz / (mass * un0), -wx * rz / (mass * un0)  # d slip / dp from tilting
        c = math.sqrt(dx * dx + dy * dy)
        frame_dir = (dx / c, dy / c) if c > 0.0 else None
        k1 = k2 = inv_m
        knn = inv_m
        q2 = (mass * c) ** 2
        beta = inertia * (wx * wx + wy * wy) / (mass * un0 * un0)  # tilting / centre energy
        kappa, kappa_s = mu * mass * c / (1.0 + beta), q2 / (1.0 + beta)
    else:
        # K = (1/m + b |r|^2) I - b r r^T (b = 1/inertia): in the frame,
        # K e1.e1 = k1, K e2.e2 = k2, K n.n = knn, K e1.n = c >= 0, others 0
        rho = math.sqrt(rx * rx + ry * ry)
        if rho > 0.0:
            sign = -1.0 if rz > 0.0 else 1.0
            frame_dir = (sign * rx / rho, sign * ry / rho)
            c = b * abs(rz) * rho
        else:
            frame_dir, c = None, 0.0
        k1 = inv_m + b * rz * rz
        k2 = inv_m + b * (rho * rho + rz * rz)
        knn = inv_m + b * rho * rho
        kappa = kappa_s = 0.0
    if not (knn - mu * c > 0.0 and kappa < 1.0):
        raise ValueError(
            f"impact: friction {mu:g} at offset ({rx:g}, {ry:g}, {rz:g}) mm would drive the "
            "normal impulse without bound (Painleve's paradox; impossible for a cube's "
            "contacts with friction up to 1)"
        )
    s0 = math.sqrt(ux * ux + uy * uy)
    if frame_dir is not None:
        e1x, e1y = frame_dir
    elif s0 > 0.0:
        e1x, e1y = ux / s0, uy / s0
    else:
        e1x, e1y = 1.0, 0.0
    e2x, e2y = -e1y, e1x
    x0 = ux * e1x + uy * e1y
    y0 = ux * e2x + uy * e2y
    if y0 < 0.0:
        e2x, e2y, y0 = -e2x, -e2y, -y0
    gx = 0.0 if face else c / k1
    gp = knn - c * gx  # the normal speed's rate while stuck (a Schur complement of K: > 0)
    frame = _Frame(
        e1x, e1y, e2x, e2y, x0, y0, c, k1, k2, un0 - gx * x0, gp, gx, kappa, kappa_s,
        (1.0 + e) * -un0 / knn,
    )  # fmt: skip
    st, regime, stop_at, steps = _solve(frame, mu, mus, e, resolution, max(s0, -un0))
    p = st.p
    if face:
        j1 = mass * (st.x - x0 - c * p)
        j2 = mass * (st.y - y0)
    else:
        j1 = (st.x - x0 - c * p) / k1
        j2 = (st.y - y0) / k2
    jx = j1 * e1x + j2 * e2x
    jy = j1 * e1y + j2 * e2y
    nvx, nvy, nvz = vx + jx * inv_m, vy + jy * inv_m, vz + p * inv_m
    if face:
        scale = (un0 + p * inv_m) / un0  # the tilting ends as the centre's speed does
        nwx, nwy, nwz = wx * scale, wy * scale, wz
    else:
        nwx = wx + b * (ry * p - rz * jy)
        nwy = wy + b * (rz * jx - rx * p)
        nwz = wz + b * (rx * jy - ry * jx)
    energy_after = 0.5 * (
        mass * (nvx * nvx + nvy * nvy + nvz * nvz) + inertia * (nwx * nwx + nwy * nwy + nwz * nwz)
    )
    return Impact(
        np.array([nvx, nvy, nvz]),
        np.array([nwx, nwy, nwz]),
        p,
        np.array([jx, jy, 0.0]),
        regime,
        stop_at,
        st.compression,
        energy_before,
        energy_after,
        steps,
    )


def _solve(
    f: _Frame, mu: float, mus: float, e: float, resolution: float, speed: float
) -> tuple[_Slip, Regime, float | None, int]:
    """Follow the impact in its frame through its phases: 'turn' (a slip
    whose direction turns, integrated), 'line' (slip along +-e1, the part
    across frozen), 'stop' (slip nil: stick or slip again), 'free' (no
    friction). Returns the final state, the regime, the normal impulse at
    which the slip stopped, and the integration steps."""
    st = _Slip(0.0, f.x0, f.y0, 0.0)
    regime = Regime.SLIP
    stop_at: float | None = None
    steps = 0
    s0 = math.sqrt(f.x0 * f.x0 + f.y0 * f.y0)
    if mu == 0.0:
        phase = "free"
    elif s0 == 0.0:
        phase = "stop"
    elif f.y0 <= _PLANAR * s0:
        phase = "line"
    else:
        phase = "turn"
    sx = 1.0 if f.x0 >= 0.0 else -1.0
    big_a, big_b = mu * f.k1, mu * f.k2
    while not st.done:
        if phase == "free":
            _linear_phase(st, f, f.c, f.gp + f.gx * f.c, 1.0, e, stops=False)
        elif phase == "line":
            alpha = f.c - big_a * sx
            if _linear_phase(st, f, alpha, f.gp + f.gx * alpha, 1.0 + f.kappa * sx, e, stops=True):
                st.y = 0.0  # the residue across the ray ends with the slip
                stop_at = st.p
                phase = "stop"
        elif phase == "stop":
            if f.c <= mus * f.k1:  # the impulse ratio that keeps it stuck is within mu_s
                regime = Regime.STICK
                _linear_phase(st, f, 0.0, f.gp, 1.0 + f.kappa_s, e, stops=False)
            else:  # it slips again along +e1 (where K (n - mu s) is parallel to s)
                regime = Regime.REVERSE if s0 > 0.0 else Regime.SLIP
                sx = 1.0
                phase = "line"
        else:
            # at most 1 / (4 resolution) of the frictionless impulse per step
            dp = f.impulse / (4.0 * resolution)
            phase, n = _turn(st, f, big_a, big_b, e, resolution, dp, speed)
            steps += n
            sx = 1.0 if st.x >= 0.0 else -1.0
    return st, regime, stop_at, steps


def _turn(
    st: _Slip,
    f: _Frame,
    big_a: float,
    big_b: float,
    e: float,
    resolution: float,
    dp_max: float,
    speed: float,
) -> tuple[str, int]:
    """Integrate a slip whose direction turns, in ``tau`` (``dp = s dtau``):

        dx/dtau = c s - A x,  dy/dtau = -B y,  dp/dtau = s

    (``s = |(x, y)|``, ``A = mu k1``, ``B = mu k2``) with classical Runge-Kutta
    steps of 1 / resolution of the local rates of the slip's speed and
    direction, and at most ``dp_max`` of normal impulse. The normal work is
    integrated along each step's cubic Hermite interpolants of the normal
    speed, p and x (``dW/dtau = u_n (s + kappa x)``), on which the events
    (end of compression, end of restitution) are found. Goes on until the
    impact ends ('done') or the slip runs along +-e1 or has (nearly)
    stopped ('line'). Returns the next phase and the steps taken."""
    c, g0, gp, gx, kappa = f.c, f.g0, f.gp, f.gx, f.kappa
    big_d = big_b - big_a
    floor = 0.05 * (c if c > big_b else big_b)
    x, y, p, w = st.x, st.y, st.p, st.w
    compressing, target = st.compressing, st.target
    sqrt = math.sqrt
    finish, planar = _FINISH * speed, _PLANAR
    s = sqrt(x * x + y * y)
    fx, fy = c * s - big_a * x, -big_b * y
    un = g0 + gp * p + gx * x
    steps = 0
    while True:
        steps += 1
        if steps > _MAX_STEPS:
            raise RuntimeError("impact: the slip integration did not end (a bug: please report)")
        # the step: 1 / resolution of the local rates of the slip's speed
        # and of its turning, and at most dp_max of normal impulse
        cs = x / s
        rate = big_d * cs * cs + c * cs - big_b
        rate = -rate if rate < 0.0 else rate
        turn = c + big_d * cs
        turn = -turn if turn < 0.0 else turn
        rate = turn if turn > rate else rate
        rate = floor if floor > rate else rate
        h = 1.0 / (resolution * rate)
        h = h if s * h <= dp_max else dp_max / s
        hh = 0.5 * h
        x2, y2 = x + hh * fx, y + hh * fy
        s2 = sqrt(x2 * x2 + y2 * y2)
        ax, ay = c * s2 - big_a * x2, -big_b * y2
        x3, y3 = x + hh * ax, y + hh * ay
        s3 = sqrt(x3 * x3 + y3 * y3)
        bx, by = c * s3 - big_a * x3, -big_b * y3
        x4, y4 = x + h * bx, y + h * by
        s4 = sqrt(x4 * x4 + y4 * y4)
        k = h / 6.0
        nx = x + k * (fx + 2.0 * (ax + bx) + (c * s4 - big_a * x4))
        ny = y + k * (fy + 2.0 * (ay + by) - big_b * y4)
        np_ = p + k * (s + 2.0 * (s2 + s3) + s4)
        ns = sqrt(nx * nx + ny * ny)
        gx1, gy1 = c * ns - big_a * nx, -big_b * ny
        un1 = g0 + gp * np_ + gx * nx
        # cubic Hermite interpolants on the step (t in [0, 1]): u_n, p, x
        du0, du1 = h * (gp * s + gx * fx), h * (gp * ns + gx * gx1)
        n1, n2, n3 = du0, 3.0 * (un1 - un) - 2.0 * du0 - du1, 2.0 * (un - un1) + du0 + du1
        hs, hns = h * s, h * ns
        d1 = 2.0 * (3.0 * (np_ - p) - 2.0 * hs - hns)
        d2 = 3.0 * (2.0 * (p - np_) + hs + hns)
        # the work rate u_n (p' + kappa h x) = sum r_i t^i
        r0 = un * hs
        r1 = un * d1 + n1 * hs
        r2 = un * d2 + n1 * d1 + n2 * hs
        r3 = n1 * d2 + n2 * d1 + n3 * hs
        r4 = n2 * d2 + n3 * d1
        r5 = n3 * d2
        r6 = 0.0
        if kappa:
            kh = kappa * h
            q0, q1 = kh * x, kh * h * fx
            q2 = kh * (3.0 * (nx - x) - h * (2.0 * fx + gx1))
            q3 = kh * (2.0 * (x - nx) + h * (fx + gx1))
            r0 += un * q0
            r1 += un * q1 + n1 * q0
            r2 += un * q2 + n1 * q1 + n2 * q0
            r3 += un * q3 + n1 * q2 + n2 * q1 + n3 * q0
            r4 += n1 * q3 + n2 * q2 + n3 * q1
            r5 += n2 * q3 + n3 * q2
            r6 = n3 * q3
        dw = r0 + r1 / 2.0 + r2 / 3.0 + r3 / 4.0 + r4 / 5.0 + r5 / 6.0 + r6 / 7.0
        if compressing and un1 >= 0.0:
            rates = (r0, r1, r2, r3, r4, r5, r6)
            t = _hermite_root(un, un1, du0, du1)
        elif not compressing and w + dw >= target:
            rates = (r0, r1, r2, r3, r4, r5, r6)
            t = _work_root(rates, target - w)
        else:
            x, y, p, w, s, un = nx, ny, np_, w + dw, ns, un1
            fx, fy = gx1, gy1
            if ns <= finish or y <= planar * ns:
                st.x, st.y, st.p, st.w = x, y, p, w
                return "line", steps
            continue
        # an event inside the step: the state there, from the step's interpolants
        w += _work_at(rates, t)
        x = _hermite(x, nx, h * fx, h * gx1, t)
        y = _hermite(y, ny, h * fy, h * gy1, t)
        p = _hermite(p, np_, h * s, h * ns, t)
        st.x, st.y, st.p, st.w = x, y, p, w
        if not compressing:
            st.done = True
            return "done", steps
        _end_compression(st, e)
        if st.done:
            return "done", steps
        w, compressing, target = st.w, st.compressing, st.target
        s = sqrt(x * x + y * y)
        fx, fy = c * s - big_a * x, -big_b * y
        un = g0 + gp * p + gx * x
