"""Pivot: a die turning over a bottom edge on a floor, as dynamics.

A die lying on a face that is struck low, caught at its bottom edge, or
landing with tumble turns about one of its bottom edges. This module
integrates that motion from Newton's laws (issue 19), where the earlier
model drove the die along a kinematic path and paid no heed to the sliding
edge, so rolls could gain energy (up to 54 % in a fuzz of 10,000 flicks)
and could never leave the floor.

Contract
--------
* Pure arithmetic in plain floats (no numpy, no pymunk, no state):
  :func:`advance` takes a :class:`PivotState` and returns the next one and
  what ended the pivot, if anything; :class:`~warlords_sim.physics.world.World`
  moves the pymunk body along.
* Units mm, g, s, rad. The motion is in the vertical plane of the roll
  direction ``u`` (a unit table vector across the edge); a slide across
  ``u`` (``cross``) is carried along and braked by the same friction.

The model: a cube of edge ``a`` whose edges are rounded with radius ``rho``
(design brief, section 2; board data ``die.edge_radius_mm``), mass ``m`` and
moment of inertia ``m i2`` about its centre (``i2 = a^2 / 6`` for a sharp
cube). It touches the floor along one edge, a cylinder of radius ``rho``
whose centre is at height ``rho``; the die's centre lies ``R = sqrt 2 (a/2 -
rho)`` from that centre, at the angle ``phi + pi/4`` above the floor
(``phi`` = 0 lying flat on the face it left, ``pi/2`` flat on the next one).
With ``h = -R cos(phi + pi/4)`` (the centre ahead of the edge) and ``k = R
sin(phi + pi/4)`` (above it), per unit mass, with the floor's normal force
``n`` and friction ``f`` at the contact point (a rigid-body balance of the
centre's acceleration and the torque about it):

* rolling on the edge without slip (static friction holds, ``|f| <= mu_s
  n``): ``phi'' = h (g + rho phi'^2) / (i2 + h^2 + (rho + k)^2)``, energy is
  kept exactly (the rate is taken from it);
* slipping at slip velocity ``w`` (Coulomb, ``f = -mu n w/|w|``):
  ``phi'' = c (g - k phi'^2) / (i2 + c h)`` with ``c = h + mu s (rho + k)``
  (``s`` the slip's sign along ``u``), energy falls by ``mu n |w|``;
* ``n = g - h phi'' - k phi'^2``: when it would be negative the floor can
  no longer hold the edge and the die **hops** off it. Slipping (and static
  friction cannot hold an edge as ``n`` nears 0), ``n = (g - k phi'^2) i2 /
  (i2 + c h)``: it hops when ``k phi'^2 > g``, where the edge in free flight
  would rise (:func:`hop_rate`: a sharp 16 mm cube lying flat at 35.0 rad/s,
  balanced on its edge at 29.4);
* at ``phi = pi/2`` the die lands on the next face (:attr:`PivotEnd.NEXT_FACE`),
  and back at ``phi = 0`` on the face it left (:attr:`PivotEnd.BACK`): the
  caller resolves that impact.

A very rough edge on a low pivot can make the sliding equations singular
(``i2 + c h <= 0``: Painlevé's paradox); the edge then sticks. Energy never
grows by more than the potential of an RK4 substep's overshoot at a
turning point (under 1e-6 of it in 300 hypothesis cases,
tests/test_physics_pivot.py): what is kinetic is scaled back, never added.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from enum import Enum

__all__ = [
    "PivotEnd",
    "PivotParams",
    "PivotState",
    "advance",
    "centre_offset",
    "energy",
    "hop_rate",
    "normal_force",
]

_Q = math.pi / 4.0
#: substeps of :func:`advance` per call (RK4 each)
SUBSTEPS = 2
#: slip speed (mm/s) below which a slipping edge is taken to have stopped
STICK_SPEED = 1e-6


class PivotEnd(Enum):
    """What ended a pivot (``NONE``: it goes on)."""

    NONE = "none"
    HOP = "hop"  # the floor can no longer hold the edge: the die flies
    NEXT_FACE = "next_face"  # turned a quarter: lands on the next face
    BACK = "back"  # turned back: lands on the face it left


@dataclass(frozen=True)
class PivotParams:
    """The die and the floor.

    Attributes:
        size: edge a, mm. radius: edge rounding rho, mm (0 <= rho < a/2).
        gravity: mm/s^2. friction: kinetic coefficient. static_friction:
            the coefficient that decides whether a rolling edge holds.
        i2: moment of inertia about the centre per unit mass, mm^2 (a^2/6
            for a sharp cube).

    Raises:
        ValueError: a size or gravity that is not positive, a radius out of
            [0, a/2), a negative friction coefficient or inertia.
    """

    size: float
    radius: float
    gravity: float
    friction: float
    static_friction: float
    i2: float
    #: (arm, radius, gravity, i2, friction, static_friction), set from the above
    _consts: tuple[float, float, float, float, float, float] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        if not (self.size > 0.0 and self.gravity > 0.0 and self.i2 > 0.0):
            raise ValueError("pivot: size, gravity and inertia must be positive")
        if not 0.0 <= self.radius < self.size / 2.0:
            raise ValueError(f"pivot: edge radius must be in [0, a/2), got {self.radius}")
        if self.friction < 0.0 or self.static_friction < self.friction:
            raise ValueError("pivot: friction coefficients must satisfy 0 <= mu <= mu_s")
        # what the integration reads at every substep, looked up once
        arm = math.sqrt(2.0) * (self.size / 2.0 - self.radius)
        consts = (arm, self.radius, self.gravity, self.i2, self.friction, self.static_friction)
        object.__setattr__(self, "_consts", consts)

    @property
    def arm(self) -> float:
        """R: distance (mm) from the edge cylinder's centre to the die's centre."""
        return self._consts[0]


@dataclass(frozen=True)
class PivotState:
    """A die pivoting on one bottom edge.

    Attributes:
        phi: turned about the edge, rad (0 flat on the face it left, pi/2
            flat on the next).
        rate: d phi / dt, rad/s (positive: on toward the next face).
        along: speed of the edge cylinder's centre along u, mm/s.
        cross: its speed across u (along the edge), mm/s.
        s: how far the edge cylinder's centre has moved along u, mm.
        t: how far across u, mm.
    """

    phi: float
    rate: float
    along: float = 0.0
    cross: float = 0.0
    s: float = 0.0
    t: float = 0.0


def _hk(phi: float, p: PivotParams) -> tuple[float, float]:
    r = p.arm
    return -r * math.cos(phi + _Q), r * math.sin(phi + _Q)


def centre_offset(phi: float, p: PivotParams) -> tuple[float, float]:
    """Where the die's centre is from the edge's floor contact point, mm:
    (ahead along u, height above the floor)."""
    h, k = _hk(phi, p)
    return h, p.radius + k


def energy(st: PivotState, p: PivotParams) -> float:
    """Kinetic plus potential energy per unit mass (mm^2/s^2), the floor's
    height the zero of the potential."""
    h, k = _hk(st.phi, p)
    vx = st.along + k * st.rate
    vz = -h * st.rate
    kin = 0.5 * (vx * vx + vz * vz + st.cross * st.cross + p.i2 * st.rate * st.rate)
    return kin + p.gravity * (p.radius + k)


def _slip(st: PivotState, p: PivotParams) -> tuple[float, float]:
    """The contact point's slip velocity (along u, across u), mm/s."""
    return st.along - p.radius * st.rate, st.cross


def _stick_accel(phi: float, rate: float, p: PivotParams) -> tuple[float, float, float]:
    """(phi'', n, f along u) with the edge rolling without slip."""
    h, k = _hk(phi, p)
    rho, g = p.radius, p.gravity
    acc = h * (g + rho * rate * rate) / (p.i2 + h * h + (rho + k) * (rho + k))
    n = g - h * acc - k * rate * rate
    f = (rho + k) * acc - h * rate * rate
    return acc, n, f


def _slip_accel(
    phi: float, rate: float, dir_u: float, p: PivotParams
) -> tuple[float, float, float] | None:
    """(phi'', n, f along u) with the contact slipping, ``dir_u`` the slip
    direction's component along u (the friction opposes it); None where the
    equations are singular (Painlevé)."""
    h, k = _hk(phi, p)
    c = h + p.friction * dir_u * (p.radius + k)
    den = p.i2 + c * h
    if den <= 1e-9 * p.i2:
        return None
    acc = c * (p.gravity - k * rate * rate) / den
    n = p.gravity - h * acc - k * rate * rate
    return acc, n, -p.friction * dir_u * n


def _contact_mode(st: PivotState, p: PivotParams) -> tuple[float, float, float] | None:
    """(phi'', n, f) of the contact as friction has it now: rolling if it
    is not slipping and static friction can hold it (``n >= 0``, ``|f| <=
    mu_s n``), else slipping (the way it slips, or would start to: against
    the friction that holding it would need); None where the slipping
    equations are singular (then it sticks)."""
    wu, wc = _slip(st, p)
    speed = math.hypot(wu, wc)
    if speed <= STICK_SPEED:
        acc, n, f = _stick_accel(st.phi, st.rate, p)
        if n >= 0.0 and abs(f) <= p.static_friction * n:
            return acc, n, f
        return _slip_accel(st.phi, st.rate, -math.copysign(1.0, f), p)
    return _slip_accel(st.phi, st.rate, wu / speed, p)


def normal_force(st: PivotState, p: PivotParams) -> float:
    """The floor's normal force per unit mass (mm/s^2) now, as friction
    has the contact (:func:`_contact_mode`); below 0 the floor would have to
    pull, and the die hops off the edge."""
    got = _contact_mode(st, p)
    return (got if got is not None else _stick_accel(st.phi, st.rate, p))[1]


def hop_rate(phi: float, p: PivotParams) -> float:
    """Turning rate (rad/s) at turn ``phi`` above which the die hops off
    its edge whenever the edge slips (or is frictionless): ``k w^2 > g``,
    where the free edge would accelerate up (a sharp 16 mm cube lying flat:
    35.0 rad/s; balanced on its edge: 29.4). A rolling edge would hop
    earlier, but static friction cannot hold it as ``n`` nears 0: it slips
    first (see :func:`_contact_mode`)."""
    _, k = _hk(phi, p)
    return math.sqrt(p.gravity / k)


class _Lifts(Exception):
    """The floor's force would pull (n < 0) somewhere in a substep."""


class _Singular(Exception):
    """The slipping equations are singular (Painlevé) in a substep."""


#: A pivot's state as the integration carries it: (phi, rate, along, cross, s, t)
_Y = tuple[float, float, float, float, float, float]


def _rk4_stuck(y: _Y, k: tuple[float, float, float, float, float, float], dt: float) -> _Y:
    """One RK4 step of ``y`` rolling on the edge without slip, ``k`` the
    params' constants (:attr:`PivotParams._consts`). The equations of the
    module docstring, written out at each of the four stages: phi'' =
    h (g + rho phi'^2) / (i2 + h^2 + (rho + k)^2), along' = rho phi'',
    cross' = 0 (and s' = along, t' = cross).

    Raises:
        _Lifts: the floor would have to pull (n < 0) at a stage.
    """
    arm, rho, g, i2 = k[0], k[1], k[2], k[3]
    p0, r0, a0, c0, s0, t0 = y
    half = dt / 2.0
    cos, sin, q = math.cos, math.sin, _Q
    # stage 1
    h = -arm * cos(p0 + q)
    kk = arm * sin(p0 + q)
    w2 = r0 * r0
    lever = rho + kk
    acc1 = h * (g + rho * w2) / (i2 + h * h + lever * lever)
    if g - h * acc1 - kk * w2 < 0.0:
        raise _Lifts
    da1 = rho * acc1
    # stage 2
    p2, r2, a2, c2 = p0 + r0 * half, r0 + acc1 * half, a0 + da1 * half, c0 + 0.0 * half
    h = -arm * cos(p2 + q)
    kk = arm * sin(p2 + q)
    w2 = r2 * r2
    lever = rho + kk
    acc2 = h * (g + rho * w2) / (i2 + h * h + lever * lever)
    if g - h * acc2 - kk * w2 < 0.0:
        raise _Lifts
    da2 = rho * acc2
    # stage 3
    p3, r3, a3, c3 = p0 + r2 * half, r0 + acc2 * half, a0 + da2 * half, c0 + 0.0 * half
    h = -arm * cos(p3 + q)
    kk = arm * sin(p3 + q)
    w2 = r3 * r3
    lever = rho + kk
    acc3 = h * (g + rho * w2) / (i2 + h * h + lever * lever)
    if g - h * acc3 - kk * w2 < 0.0:
        raise _Lifts
    da3 = rho * acc3
    # stage 4
    p4, r4, a4, c4 = p0 + r3 * dt, r0 + acc3 * dt, a0 + da3 * dt, c0 + 0.0 * dt
    h = -arm * cos(p4 + q)
    kk = arm * sin(p4 + q)
    w2 = r4 * r4
    lever = rho + kk
    acc4 = h * (g + rho * w2) / (i2 + h * h + lever * lever)
    if g - h * acc4 - kk * w2 < 0.0:
        raise _Lifts
    da4 = rho * acc4
    w = dt / 6.0
    return (
        p0 + (r0 + 2.0 * (r2 + r3) + r4) * w,
        r0 + (acc1 + 2.0 * (acc2 + acc3) + acc4) * w,
        a0 + (da1 + 2.0 * (da2 + da3) + da4) * w,
        c0 + (0.0 + 2.0 * (0.0 + 0.0) + 0.0) * w,
        s0 + (a0 + 2.0 * (a2 + a3) + a4) * w,
        t0 + (c0 + 2.0 * (c2 + c3) + c4) * w,
    )


def _rk4_slip(
    y: _Y, k: tuple[float, float, float, float, float, float], dt: float, du: float, dc: float
) -> _Y:
    """One RK4 step of ``y`` slipping, the unit slip direction (``du`` along
    u, ``dc`` across) that friction opposes held for the whole step (the
    caller finds where the slip stops and splits the step there): phi'' =
    c (g - k phi'^2) / (i2 + c h), c = h + mu du (rho + k); n = g - h phi''
    - k phi'^2; along' = -mu du n - k phi'' + h phi'^2 (the centre along u
    is along + k rate); cross' = -mu dc n. Written out at each stage.

    Raises:
        _Lifts: the floor would have to pull at a stage. _Singular: the
            slipping equations are singular there (Painlevé).
    """
    arm, rho, g, i2, mu = k[0], k[1], k[2], k[3], k[4]
    p0, r0, a0, c0, s0, t0 = y
    half = dt / 2.0
    cos, sin, q = math.cos, math.sin, _Q
    mdu = mu * du
    fu, fc = -mu * du, -mu * dc
    tiny = 1e-9 * i2
    # stage 1
    h = -arm * cos(p0 + q)
    kk = arm * sin(p0 + q)
    w2 = r0 * r0
    c = h + mdu * (rho + kk)
    den = i2 + c * h
    if den <= tiny:
        raise _Singular
    acc1 = c * (g - kk * w2) / den
    n = g - h * acc1 - kk * w2
    if n < 0.0:
        raise _Lifts
    da1 = fu * n - kk * acc1 + h * w2
    dc1 = fc * n
    # stage 2
    p2, r2, a2, c2 = p0 + r0 * half, r0 + acc1 * half, a0 + da1 * half, c0 + dc1 * half
    h = -arm * cos(p2 + q)
    kk = arm * sin(p2 + q)
    w2 = r2 * r2
    c = h + mdu * (rho + kk)
    den = i2 + c * h
    if den <= tiny:
        raise _Singular
    acc2 = c * (g - kk * w2) / den
    n = g - h * acc2 - kk * w2
    if n < 0.0:
        raise _Lifts
    da2 = fu * n - kk * acc2 + h * w2
    dc2 = fc * n
    # stage 3
    p3, r3, a3, c3 = p0 + r2 * half, r0 + acc2 * half, a0 + da2 * half, c0 + dc2 * half
    h = -arm * cos(p3 + q)
    kk = arm * sin(p3 + q)
    w2 = r3 * r3
    c = h + mdu * (rho + kk)
    den = i2 + c * h
    if den <= tiny:
        raise _Singular
    acc3 = c * (g - kk * w2) / den
    n = g - h * acc3 - kk * w2
    if n < 0.0:
        raise _Lifts
    da3 = fu * n - kk * acc3 + h * w2
    dc3 = fc * n
    # stage 4
    p4, r4, a4, c4 = p0 + r3 * dt, r0 + acc3 * dt, a0 + da3 * dt, c0 + dc3 * dt
    h = -arm * cos(p4 + q)
    kk = arm * sin(p4 + q)
    w2 = r4 * r4
    c = h + mdu * (rho + kk)
    den = i2 + c * h
    if den <= tiny:
        raise _Singular
    acc4 = c * (g - kk * w2) / den
    n = g - h * acc4 - kk * w2
    if n < 0.0:
        raise _Lifts
    da4 = fu * n - kk * acc4 + h * w2
    dc4 = fc * n
    w = dt / 6.0
    return (
        p0 + (r0 + 2.0 * (r2 + r3) + r4) * w,
        r0 + (acc1 + 2.0 * (acc2 + acc3) + acc4) * w,
        a0 + (da1 + 2.0 * (da2 + da3) + da4) * w,
        c0 + (dc1 + 2.0 * (dc2 + dc3) + dc4) * w,
        s0 + (a0 + 2.0 * (a2 + a3) + a4) * w,
        t0 + (c0 + 2.0 * (c2 + c3) + c4) * w,
    )


def _energy_of(y: _Y, p: PivotParams) -> float:
    """:func:`energy` of a state tuple (the same arithmetic)."""
    arm, rho, g, i2 = p._consts[:4]
    phi, rate, along, cross = y[0], y[1], y[2], y[3]
    h = -arm * math.cos(phi + _Q)
    k = arm * math.sin(phi + _Q)
    vx = along + k * rate
    vz = -h * rate
    kin = 0.5 * (vx * vx + vz * vz + cross * cross + i2 * rate * rate)
    return kin + g * (rho + k)


def _substep(y: _Y, p: PivotParams, dt: float, e0: float | None = None) -> tuple[_Y, float | None]:
    """``dt`` s on, rolling or slipping as friction decides; ``e0`` is
    :func:`_energy_of` ``y`` if the caller knows it. Returns the state and
    its energy if known (None: not worked out).

    Raises:
        _Lifts: the floor lets go of the edge within the substep (the die
            hops from where it was at the substep's start).
    """
    arm, rho, g, i2, _, mus = p._consts
    phi, rate, along, cross, s, t = y
    if e0 is None:
        # e0 = energy(y) (the same arithmetic as _hk, energy)
        h = -arm * math.cos(phi + _Q)
        k = arm * math.sin(phi + _Q)
        vx = along + k * rate
        vz = -h * rate
        e0 = 0.5 * (vx * vx + vz * vz + cross * cross + i2 * rate * rate) + g * (rho + k)
    wu, wc = along - rho * rate, cross
    speed = math.hypot(wu, wc)
    slow = speed <= STICK_SPEED
    if slow:
        # static friction holds a contact that is not slipping (_stick_accel)?
        h = -arm * math.cos(phi + _Q)
        k = arm * math.sin(phi + _Q)
        acc = h * (g + rho * rate * rate) / (i2 + h * h + (rho + k) * (rho + k))
        n = g - h * acc - k * rate * rate
        f = (rho + k) * acc - h * rate * rate
        stuck = abs(f) <= mus * max(n, 0.0)
    else:
        stuck = False
    consts = p._consts
    if not stuck:
        if slow:
            # static friction cannot hold it: it starts to slip the way the
            # friction needed to hold it would have opposed
            along = rho * rate - math.copysign(STICK_SPEED * 2.0, f)
            y = (phi, rate, along, cross, s, t)
            wu, wc = along - rho * rate, cross
            speed = math.hypot(wu, wc)
        # the slip's direction, held for the step (as _rk4 takes it)
        du, dc = (wu / speed, wc / speed) if speed > 0.0 else (0.0, 0.0)
        try:
            nxt = _rk4_slip(y, consts, dt, du, dc)
        except _Singular:  # Painlevé: the edge sticks
            stuck = True
            y = (phi, rate, rho * rate, 0.0, s, t)
        else:
            nu, nc = nxt[2] - rho * nxt[1], nxt[3]
            if nu * wu + nc * wc > 0.0:
                return _no_gain(nxt, e0, p)
            # the slip stops within the substep: find when (bisection; past
            # that the friction would push the wrong way), stop it there and
            # go on rolling, or slipping the other way, for the rest
            lo, hi = 0.0, dt
            for _ in range(30):
                mid = 0.5 * (lo + hi)
                m = _rk4_slip(y, consts, mid, du, dc)
                if (m[2] - rho * m[1]) * wu + m[3] * wc > 0.0:
                    lo = mid
                else:
                    hi = mid
            at = _rk4_slip(y, consts, lo, du, dc) if lo > 0.0 else y
            at = _no_gain((at[0], at[1], rho * at[1], 0.0, at[4], at[5]), e0, p)[0]
            if dt - lo <= 0.0:
                return at, None
            return _substep(at, p, dt - lo)
    return _keep_energy(_rk4_stuck(y, consts, dt), e0, p), None


def _keep_energy(y: _Y, e0: float, p: PivotParams) -> _Y:
    """A rolling edge keeps energy exactly: the rate is set from it (RK4's
    drift, ~1e-9 a step, is neither kept nor allowed to grow)."""
    arm, rho, g, i2 = p._consts[:4]
    phi = y[0]
    h = -arm * math.cos(phi + _Q)
    k = arm * math.sin(phi + _Q)
    big = i2 + (rho + k) ** 2 + h * h
    pot = g * (rho + k)
    w2 = 2.0 * (e0 - pot) / big
    rate = math.copysign(math.sqrt(max(w2, 0.0)), y[1])
    return (phi, rate, rho * rate, 0.0, y[4], y[5])


def _no_gain(y: _Y, e0: float, p: PivotParams) -> tuple[_Y, float | None]:
    """A slipping edge loses energy to friction: never let the integration
    error add any (every velocity is scaled by one factor, which scales the
    kinetic energy by its square, down to the energy it had). Returns the
    state and its energy if it was kept (None if scaled)."""
    e = _energy_of(y, p)
    if e <= e0:
        return y, e
    arm, rho, g = p._consts[:3]
    pot = g * (rho + arm * math.sin(y[0] + _Q))
    kin = e - pot
    f = math.sqrt(max(e0 - pot, 0.0) / kin) if kin > 0.0 else 0.0
    return (y[0], y[1] * f, y[2] * f, y[3] * f, y[4], y[5]), None


def _at(st: PivotState, phi: float, p: PivotParams) -> PivotState:
    """``st`` moved back to the turn ``phi`` it overshot in its last
    substep, with the rate its energy gives there (the slip unchanged), so
    that ending the pivot on the boundary creates no energy; if the energy
    cannot reach the boundary, ``st`` unchanged (a hair past it)."""
    e = energy(st, p)
    h, k = _hk(phi, p)
    slip_u = st.along - p.radius * st.rate
    lever = p.radius + k
    qa = 0.5 * (lever * lever + h * h + p.i2)
    qb = slip_u * lever
    qc = 0.5 * (slip_u * slip_u + st.cross * st.cross) + p.gravity * (p.radius + k) - e
    disc = qb * qb - 4.0 * qa * qc
    if disc < 0.0:
        # the overshoot took it below the boundary's height by more than its
        # kinetic energy can pay back: it is left where it is (a hair past)
        return st
    if st.rate >= 0.0:
        rate = (-qb + math.sqrt(disc)) / (2.0 * qa)
    else:
        rate = (-qb - math.sqrt(disc)) / (2.0 * qa)
    return replace(st, phi=phi, rate=rate, along=slip_u + p.radius * rate)


def advance(st: PivotState, dt: float, p: PivotParams) -> tuple[PivotState, PivotEnd]:
    """The pivot ``dt`` s later (``SUBSTEPS`` RK4 substeps), or the state
    at the substep where it ended and why.

    Raises:
        ValueError: ``dt`` not positive.
    """
    if not dt > 0.0:
        raise ValueError(f"pivot: dt must be positive, got {dt}")
    h = dt / SUBSTEPS
    y = (st.phi, st.rate, st.along, st.cross, st.s, st.t)
    e: float | None = None  # the energy of y, where the last substep knew it
    for _ in range(SUBSTEPS):
        # (a floor that would have to pull anywhere in a substep raises
        # _Lifts from the equations themselves)
        try:
            nxt, e = _substep(y, p, h, e)
        except _Lifts:
            return PivotState(*y), PivotEnd.HOP
        y = nxt
        if y[0] >= math.pi / 2.0:
            return _at(PivotState(*y), math.pi / 2.0, p), PivotEnd.NEXT_FACE
        if y[0] <= 0.0 and y[1] <= 0.0:
            return _at(PivotState(*y), 0.0, p), PivotEnd.BACK
    return PivotState(*y), PivotEnd.NONE
