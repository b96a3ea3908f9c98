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
from dataclasses import dataclass, replace
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

    def __post_init__(self) -> None:
        if not (self.size > 0.0 and self.gravity > 0.0 and self.i2 > 0.0):
            raise ValueError("pivot: size, gravity and inertia must be positive")
        if not 0.0 <= self.radius < self.size / 2.0:
            raise ValueError(f"pivot: edge radius must be in [0, a/2), got {self.radius}")
        if self.friction < 0.0 or self.static_friction < self.friction:
            raise ValueError("pivot: friction coefficients must satisfy 0 <= mu <= mu_s")

    @property
    def arm(self) -> float:
        """R: distance (mm) from the edge cylinder's centre to the die's centre."""
        return math.sqrt(2.0) * (self.size / 2.0 - self.radius)


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


def _deriv(
    y: tuple[float, float, float, float],
    p: PivotParams,
    stuck: bool,
    way: tuple[float, float] = (0.0, 0.0),
) -> tuple[float, float, float, float, float, float]:
    """d/dt of (phi, rate, along, cross, s, t) at ``y`` = (phi, rate, along,
    cross); ``way`` is the unit slip direction (along u, across u) friction
    opposes, held for the whole RK4 step (the caller finds where the slip
    stops and splits the step there). The equations of the module
    docstring, written out (it runs four times a substep).

    Raises:
        _Lifts: the floor would have to pull. _Singular: see :func:`_slip_accel`.
    """
    phi, rate, along, cross = y
    arm = p.arm
    h = -arm * math.cos(phi + _Q)
    k = arm * math.sin(phi + _Q)
    rho, g, i2 = p.radius, p.gravity, p.i2
    w2 = rate * rate
    if stuck:
        lever = rho + k
        acc = h * (g + rho * w2) / (i2 + h * h + lever * lever)
        if g - h * acc - k * w2 < 0.0:
            raise _Lifts
        return (rate, acc, rho * acc, 0.0, along, cross)
    du, dc = way
    mu = p.friction
    c = h + mu * du * (rho + k)
    den = i2 + c * h
    if den <= 1e-9 * i2:
        raise _Singular
    acc = c * (g - k * w2) / den
    n = g - h * acc - k * w2
    if n < 0.0:
        raise _Lifts
    # centre along u: along + k rate, so along' = f - k acc + h rate^2
    return (rate, acc, -mu * du * n - k * acc + h * w2, -mu * dc * n, along, cross)


def _rk4(st: PivotState, p: PivotParams, dt: float, stuck: bool) -> PivotState:
    """One RK4 step in one contact mode, a slip in the direction it has at
    the start (raises as :func:`_deriv`)."""
    wu, wc = _slip(st, p)
    speed = math.hypot(wu, wc)
    way = (wu / speed, wc / speed) if speed > 0.0 and not stuck else (0.0, 0.0)
    p0, r0, a0, c0 = st.phi, st.rate, st.along, st.cross
    half = dt / 2.0
    k1 = _deriv((p0, r0, a0, c0), p, stuck, way)
    y = (p0 + k1[0] * half, r0 + k1[1] * half, a0 + k1[2] * half, c0 + k1[3] * half)
    k2 = _deriv(y, p, stuck, way)
    y = (p0 + k2[0] * half, r0 + k2[1] * half, a0 + k2[2] * half, c0 + k2[3] * half)
    k3 = _deriv(y, p, stuck, way)
    y = (p0 + k3[0] * dt, r0 + k3[1] * dt, a0 + k3[2] * dt, c0 + k3[3] * dt)
    k4 = _deriv(y, p, stuck, way)
    w = dt / 6.0
    return PivotState(
        p0 + (k1[0] + 2.0 * (k2[0] + k3[0]) + k4[0]) * w,
        r0 + (k1[1] + 2.0 * (k2[1] + k3[1]) + k4[1]) * w,
        a0 + (k1[2] + 2.0 * (k2[2] + k3[2]) + k4[2]) * w,
        c0 + (k1[3] + 2.0 * (k2[3] + k3[3]) + k4[3]) * w,
        st.s + (k1[4] + 2.0 * (k2[4] + k3[4]) + k4[4]) * w,
        st.t + (k1[5] + 2.0 * (k2[5] + k3[5]) + k4[5]) * w,
    )


def _holds(st: PivotState, p: PivotParams) -> bool:
    """Whether static friction holds a contact that is not slipping now."""
    _, n, f = _stick_accel(st.phi, st.rate, p)
    return abs(f) <= p.static_friction * max(n, 0.0)


def _substep(st: PivotState, p: PivotParams, dt: float) -> PivotState:
    """``dt`` s on, rolling or slipping as friction decides.

    Raises:
        _Lifts: the floor lets go of the edge within the substep (the die
            hops from where it was at the substep's start).
    """
    e0 = energy(st, p)
    wu, wc = _slip(st, p)
    stuck = math.hypot(wu, wc) <= STICK_SPEED and _holds(st, p)
    if not stuck:
        if math.hypot(wu, wc) <= STICK_SPEED:
            # static friction cannot hold it: it starts to slip the way the
            # friction needed to hold it would have opposed
            _, _, f = _stick_accel(st.phi, st.rate, p)
            st = replace(st, along=p.radius * st.rate - math.copysign(STICK_SPEED * 2.0, f))
            wu, wc = _slip(st, p)
        try:
            nxt = _rk4(st, p, dt, stuck=False)
        except _Singular:  # Painlevé: the edge sticks
            stuck = True
            st = replace(st, along=p.radius * st.rate, cross=0.0)
        else:
            nu, nc = _slip(nxt, p)
            if nu * wu + nc * wc > 0.0:
                return _no_gain(nxt, e0, p)
            # the slip stops within the substep: find when (bisection; past
            # that the friction would push the wrong way), stop it there and
            # go on rolling, or slipping the other way, for the rest
            lo, hi = 0.0, dt
            for _ in range(30):
                mid = 0.5 * (lo + hi)
                mu_, mc_ = _slip(_rk4(st, p, mid, stuck=False), p)
                if mu_ * wu + mc_ * wc > 0.0:
                    lo = mid
                else:
                    hi = mid
            at = _rk4(st, p, lo, stuck=False) if lo > 0.0 else st
            at = _no_gain(replace(at, along=p.radius * at.rate, cross=0.0), e0, p)
            if dt - lo <= 0.0:
                return at
            return _substep(at, p, dt - lo)
    return _keep_energy(_rk4(st, p, dt, stuck=True), e0, p)


def _keep_energy(st: PivotState, e0: float, p: PivotParams) -> PivotState:
    """A rolling edge keeps energy exactly: the rate is set from it (RK4's
    drift, ~1e-9 a step, is neither kept nor allowed to grow)."""
    h, k = _hk(st.phi, p)
    big = p.i2 + (p.radius + k) ** 2 + h * h
    pot = p.gravity * (p.radius + k)
    w2 = 2.0 * (e0 - pot) / big
    rate = math.copysign(math.sqrt(max(w2, 0.0)), st.rate)
    return replace(st, rate=rate, along=p.radius * rate, cross=0.0)


def _no_gain(st: PivotState, e0: float, p: PivotParams) -> PivotState:
    """A slipping edge loses energy to friction: never let the integration
    error add any (every velocity is scaled by one factor, which scales the
    kinetic energy by its square, down to the energy it had)."""
    e = energy(st, p)
    if e <= e0:
        return st
    pot = p.gravity * (p.radius + _hk(st.phi, p)[1])
    kin = e - pot
    f = math.sqrt(max(e0 - pot, 0.0) / kin) if kin > 0.0 else 0.0
    return replace(st, rate=st.rate * f, along=st.along * f, cross=st.cross * f)


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
    for _ in range(SUBSTEPS):
        # (a floor that would have to pull anywhere in a substep raises
        # _Lifts from the equations themselves)
        try:
            st = _substep(st, p, h)
        except _Lifts:
            return st, PivotEnd.HOP
        if st.phi >= math.pi / 2.0:
            return _at(st, math.pi / 2.0, p), PivotEnd.NEXT_FACE
        if st.phi <= 0.0 and st.rate <= 0.0:
            return _at(st, 0.0, p), PivotEnd.BACK
    return st, PivotEnd.NONE
