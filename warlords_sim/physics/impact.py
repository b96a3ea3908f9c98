"""The die's vertical and tumbling motion: flight, bounces and rolls.

pymunk moves a die in the plane; this module owns what the plane cannot
show: the height z of the die's centre, its vertical speed, and its full 3D
orientation. It is pure arithmetic (numpy), with no pymunk and no state.

The model (units mm, g, s, rad):

* **Flight** is exact. Gravity acts on z; a cube's inertia is the same about
  every axis (I = m a^2 / 6), so in free flight its angular velocity is
  constant and the orientation is R(t) = Rot(w t) R0. :func:`solve_flight`
  finds when the lowest corner first reaches the floor, and the height of
  the lowest point at each physics step (used to pass over low obstacles).
* **Bounces** are rigid-body impacts at the lowest contact point (a corner,
  an edge midpoint or a face centre), with Newton restitution along the
  normal and Coulomb friction (stick or slip) in the plane; see
  :func:`impact`. A spinning die landing on a corner kicks sideways and
  changes its spin: the face comes out of the motion (Nagler & Richter,
  Phys. Rev. E 78, 036207, 2008, use the same impulse model for dice).
* **Rolls** on the table: a die turning about a bottom edge with angular
  speed w tips over if (1/2) I_edge w^2 >= m g a (sqrt 2 - 1) / 2, with
  I_edge = 2 m a^2 / 3; each face impact keeps 1/4 of w (angular momentum
  about the new edge, rigid cube). :func:`roll_count`.
* **Trips**: a sliding die whose bottom edge is caught pivots about it with
  w = 3 v / (4 a) (angular momentum about the edge); it tips over when
  v >= sqrt(16 g a (sqrt 2 - 1) / 6) ~ 1.05 sqrt(g a), 0.42 m/s for a 16 mm die.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "Flight",
    "impact",
    "ledge_tumble",
    "roll_count",
    "solve_flight",
    "trip_speed",
]

Vec = NDArray[np.float64]

_CORNERS = np.array(
    [[sx, sy, sz] for sx in (-0.5, 0.5) for sy in (-0.5, 0.5) for sz in (-0.5, 0.5)]
).T  # 3 x 8, unit cube


@dataclass(frozen=True)
class Flight:
    """A solved ballistic flight, times relative to its start.

    Attributes:
        t_hit: time (s) at which the lowest point reaches the floor.
        low_at_steps: height (mm) of the die's lowest point at the end of
            each physics step 1..n (n = steps until the hit), relative to
            the board surface (not the floor).
    """

    t_hit: float
    low_at_steps: Vec


def _lowest_offsets(r0: Vec, omega: Vec, times: Vec, size: float) -> Vec:
    """z offset of the lowest corner from the centre at each time (mm)."""
    w = float(np.linalg.norm(omega))
    verts = r0 @ (_CORNERS * size)  # 3 x 8, world offsets at t = 0
    if w < 1e-12:
        return np.full(times.shape, float(np.min(verts[2])))
    u = omega / w
    a = np.array([-u[1], u[0], 0.0])
    b = np.array([u[2] * u[0], u[2] * u[1], u[2] * u[2] - 1.0])
    c0 = verts[2]
    c1 = a @ verts
    c2 = b @ verts
    phi = w * times
    s = np.sin(phi)[:, None]
    c = (1.0 - np.cos(phi))[:, None]
    return np.asarray(np.min(c0[None, :] + s * c1[None, :] + c * c2[None, :], axis=1))


def solve_flight(
    z0: float,
    vz0: float,
    r0: Vec,
    omega: Vec,
    floor: float,
    size: float,
    gravity: float,
    dt: float,
    substeps: int = 8,
) -> Flight:
    """Solve a free flight until the die's lowest point reaches ``floor``.

    Args:
        z0: centre height at the start, mm. vz0: vertical speed, mm/s.
        r0: orientation at the start (3x3). omega: angular velocity (rad/s, world, 3).
        floor: height of the surface beneath, mm. size: die edge, mm.
        gravity: mm/s^2. dt: physics timestep, s. substeps: samples per step
            used to find the hit time.

    Returns:
        The :class:`Flight`. The hit time is found on a grid of dt/substeps
        and refined by linear interpolation.
    """
    # upper bound: the lowest point is at least half an edge below the centre
    # (lying flat is the highest it can be), so the die has surely reached the
    # floor once its centre is down to floor + size / 2
    disc = vz0 * vz0 + 2.0 * gravity * max(z0 - floor - size / 2.0, 0.0)
    t_max = (vz0 + math.sqrt(disc)) / gravity + dt
    n_steps = max(1, math.ceil(t_max / dt))
    if n_steps <= _SHORT_FLIGHT_STEPS:
        return _solve_short(z0, vz0, r0, omega, floor, size, gravity, dt, substeps, n_steps)
    h = dt / substeps
    times = np.arange(1, n_steps * substeps + 1, dtype=np.float64) * h
    zc = z0 + vz0 * times - 0.5 * gravity * times * times
    low = zc + _lowest_offsets(r0, omega, times, size)
    below = np.nonzero(low <= floor)[0]
    if below.size == 0:  # numerically grazing: land at the end of the window
        k = times.size - 1
        t_hit = float(times[k])
    else:
        k = int(below[0])
        if k == 0:
            # touching at the start (just after a bounce): the next contact is
            # at least one sample later, so time always moves on
            t_hit = float(times[0])
        else:
            t_prev, l_prev = float(times[k - 1]), float(low[k - 1])
            t_k, l_k = float(times[k]), float(low[k])
            frac = 0.0 if l_prev == l_k else (l_prev - floor) / (l_prev - l_k)
            t_hit = t_prev + min(max(frac, 0.0), 1.0) * (t_k - t_prev)
    steps = max(1, math.ceil(t_hit / dt - 1e-9))
    low_steps = low[substeps - 1 : steps * substeps : substeps]
    return Flight(t_hit=t_hit, low_at_steps=np.asarray(low_steps))


#: Flights of at most this many steps are solved in plain floats, sample by
#: sample, stopping at the hit (cheaper than numpy's set-up for short hops).
_SHORT_FLIGHT_STEPS = 8


def _solve_short(
    z0: float,
    vz0: float,
    r0: Vec,
    omega: Vec,
    floor: float,
    size: float,
    gravity: float,
    dt: float,
    substeps: int,
    n_steps: int,
) -> Flight:
    """:func:`solve_flight` for short hops: the same samples and the same
    answer, evaluated one at a time until the hit."""
    h2 = size / 2.0
    rows = [[float(x) * h2 for x in r0[i]] for i in range(3)]
    verts = [
        (
            rows[0][0] * sx + rows[0][1] * sy + rows[0][2] * sz,
            rows[1][0] * sx + rows[1][1] * sy + rows[1][2] * sz,
            rows[2][0] * sx + rows[2][1] * sy + rows[2][2] * sz,
        )
        for sx in (-1.0, 1.0)
        for sy in (-1.0, 1.0)
        for sz in (-1.0, 1.0)
    ]
    wx, wy, wz = float(omega[0]), float(omega[1]), float(omega[2])
    w = math.sqrt(wx * wx + wy * wy + wz * wz)
    if w < 1e-12:
        lowest = min(v[2] for v in verts)
        coefs = [(lowest, 0.0, 0.0)]
    else:
        ux, uy, uz = wx / w, wy / w, wz / w
        coefs = [
            (vz, -uy * vx + ux * vy, uz * ux * vx + uz * uy * vy + (uz * uz - 1.0) * vz)
            for vx, vy, vz in verts
        ]
    g2 = 0.5 * gravity
    h = dt / substeps

    def low(t: float) -> float:
        s, c = math.sin(w * t), 1.0 - math.cos(w * t)
        return z0 + vz0 * t - g2 * t * t + min(c0 + s * c1 + c * c2 for c0, c1, c2 in coefs)

    n = n_steps * substeps
    t_hit = n * h
    t_prev = l_prev = 0.0
    for k in range(n):
        t = (k + 1) * h
        lk = low(t)
        if lk <= floor:
            if k == 0:
                t_hit = t
            else:
                frac = 0.0 if l_prev == lk else (l_prev - floor) / (l_prev - lk)
                t_hit = t_prev + min(max(frac, 0.0), 1.0) * (t - t_prev)
            break
        t_prev, l_prev = t, lk
    steps = max(1, math.ceil(t_hit / dt - 1e-9))
    lows = [low(j * dt) for j in range(1, steps + 1)]
    return Flight(t_hit=t_hit, low_at_steps=np.array(lows))


def orientation_at(r0: Vec, omega: Vec, t: float) -> Vec:
    """Orientation after rotating at constant ``omega`` (rad/s) for ``t`` s
    (Rodrigues' formula; plain floats, it runs at every bounce)."""
    wx, wy, wz = float(omega[0]), float(omega[1]), float(omega[2])
    w = math.sqrt(wx * wx + wy * wy + wz * wz)
    if w * t == 0.0:
        return np.array(r0, dtype=np.float64)
    ux, uy, uz = wx / w, wy / w, wz / w
    ang = w * t
    s, c = math.sin(ang), math.cos(ang)
    k = 1.0 - c
    rot = np.array(
        [
            [c + ux * ux * k, ux * uy * k - uz * s, ux * uz * k + uy * s],
            [uy * ux * k + uz * s, c + uy * uy * k, uy * uz * k - ux * s],
            [uz * ux * k - uy * s, uz * uy * k + ux * s, c + uz * uz * k],
        ]
    )
    return np.asarray(rot @ r0)


def contact_point(
    r: Vec, size: float, v: Vec | None = None, omega: Vec | None = None, tol: float = 1e-3
) -> Vec | None:
    """Offset (mm, world) from the centre to the contact with a floor below.

    The mean of the corners within ``tol * size`` of the lowest (a corner,
    an edge midpoint or a face centre). Given the velocity ``v`` (mm/s) and
    angular velocity ``omega`` (rad/s), only corners within 2 % of the edge
    of the lowest and moving down count, the lowest of them; None if no
    corner near the floor moves down.
    """
    h = size / 2.0
    r0, r1, r2 = ([float(x) * h for x in r[i]] for i in range(3))
    corners = []
    for sx in (-1.0, 1.0):
        for sy in (-1.0, 1.0):
            for sz in (-1.0, 1.0):
                corners.append(
                    (
                        r0[0] * sx + r0[1] * sy + r0[2] * sz,
                        r1[0] * sx + r1[1] * sy + r1[2] * sz,
                        r2[0] * sx + r2[1] * sy + r2[2] * sz,
                    )
                )
    zmin = min(c[2] for c in corners)
    if v is None or omega is None:
        cand = [c for c in corners if c[2] <= zmin + tol * size]
    else:
        vz, wx, wy = float(v[2]), float(omega[0]), float(omega[1])
        moving = [
            c for c in corners if c[2] <= zmin + 0.02 * size and vz + wx * c[1] - wy * c[0] < 0.0
        ]
        if not moving:
            return None
        zc = min(c[2] for c in moving)
        cand = [c for c in moving if c[2] <= zc + tol * size]
    n = len(cand)
    return np.array(
        [sum(c[0] for c in cand) / n, sum(c[1] for c in cand) / n, sum(c[2] for c in cand) / n]
    )


def impact(
    v: Vec,
    omega: Vec,
    r: Vec,
    mass: float,
    size: float,
    restitution: float,
    friction: float,
    static_friction: float | None = None,
) -> tuple[Vec, Vec]:
    """Rigid-body impact of the die on a horizontal surface.

    Args:
        v: centre velocity before (mm/s, 3, vz < 0). omega: angular velocity (rad/s, 3).
        r: offset from centre to the contact point (mm, 3), see :func:`contact_point`.
        mass: g. size: edge, mm. restitution: Newton coefficient (normal).
        friction: kinetic Coulomb coefficient (the bound while slipping).
        static_friction: coefficient that decides sticking (default: ``friction``).

    Returns:
        (v', omega') after the impact. The normal impulse makes the contact
        point's normal speed -restitution times what it was; the tangential
        impulse stops the contact point's sliding if that needs no more than
        static_friction times the normal impulse, otherwise it is friction
        times the normal impulse, opposing the sliding. Plain floats inside
        (it runs at every bounce).
    """
    vx, vy, vz = float(v[0]), float(v[1]), float(v[2])
    wx, wy, wz = float(omega[0]), float(omega[1]), float(omega[2])
    rx, ry, rz = float(r[0]), float(r[1]), float(r[2])
    # contact point velocity v + omega x r
    cx = vx + wy * rz - wz * ry
    cy = vy + wz * rx - wx * rz
    cz = vz + wx * ry - wy * rx
    if cz >= 0.0:
        return np.array([vx, vy, vz]), np.array([wx, wy, wz])
    inv_m = 1.0 / mass
    inv_i = 6.0 / (mass * size * size)
    # K = inv_m I - inv_i [r]x^2 = inv_m I + inv_i (|r|^2 I - r r^T)
    rr = rx * rx + ry * ry + rz * rz
    k00 = inv_m + inv_i * (rr - rx * rx)
    k11 = inv_m + inv_i * (rr - ry * ry)
    k22 = inv_m + inv_i * (rr - rz * rz)
    k01 = -inv_i * rx * ry
    k02 = -inv_i * rx * rz
    k12 = -inv_i * ry * rz
    # sticking: solve K j = (0, 0, -e cz) - c  (Cramer's rule, K symmetric)
    bx, by, bz = -cx, -cy, -restitution * cz - cz
    det = (
        k00 * (k11 * k22 - k12 * k12)
        - k01 * (k01 * k22 - k12 * k02)
        + k02 * (k01 * k12 - k11 * k02)
    )
    jx = (
        bx * (k11 * k22 - k12 * k12) - k01 * (by * k22 - k12 * bz) + k02 * (by * k12 - k11 * bz)
    ) / det
    jy = (
        k00 * (by * k22 - k12 * bz) - bx * (k01 * k22 - k12 * k02) + k02 * (k01 * bz - by * k02)
    ) / det
    jz = (
        k00 * (k11 * bz - by * k12) - k01 * (k01 * bz - by * k02) + bx * (k01 * k12 - k11 * k02)
    ) / det
    mu_s = friction if static_friction is None else static_friction
    if math.hypot(jx, jy) > mu_s * jz:
        # slipping: tangential impulse = mu * jn against the sliding
        st = math.hypot(cx, cy)
        dx, dy = (-cx / st, -cy / st) if st > 1e-9 else (0.0, 0.0)

        def slip(mu: float) -> tuple[float, float, float, float]:
            ux, uy = mu * dx, mu * dy
            kn = k02 * ux + k12 * uy + k22  # normal row of K times the direction
            jn = -(1.0 + restitution) * cz / kn
            ax, ay, az = ux * jn, uy * jn, jn
            # tangential contact velocity after, along the original sliding
            after = (cx + k00 * ax + k01 * ay + k02 * az) * cx + (
                cy + k01 * ax + k11 * ay + k12 * az
            ) * cy
            return ax, ay, az, after

        jx, jy, jz, after = slip(friction)
        if after < 0.0:
            # a constant slip direction would overshoot and drive the contact
            # backwards (gaining energy, as in Kane's example): the sliding
            # stops within the impact, so take the friction that just stops it
            lo, hi = 0.0, friction
            for _ in range(40):
                mid = 0.5 * (lo + hi)
                if slip(mid)[3] < 0.0:
                    hi = mid
                else:
                    lo = mid
            jx, jy, jz, _ = slip(lo)

    # Newton restitution with sticking friction is not energy-consistent for
    # every contact geometry (a few % of landings at e = 0.8 would gain up to
    # ~18 %): in that case keep the normal response and shrink the
    # tangential impulse until no energy is created (frictionless never does)
    def energy(ax: float, ay: float, az: float) -> float:
        nvx, nvy, nvz = vx + ax * inv_m, vy + ay * inv_m, vz + az * inv_m
        nwx = wx + inv_i * (ry * az - rz * ay)
        nwy = wy + inv_i * (rz * ax - rx * az)
        nwz = wz + inv_i * (rx * ay - ry * ax)
        return (nvx * nvx + nvy * nvy + nvz * nvz) / inv_m + (
            nwx * nwx + nwy * nwy + nwz * nwz
        ) / inv_i

    e0 = (vx * vx + vy * vy + vz * vz) / inv_m + (wx * wx + wy * wy + wz * wz) / inv_i
    if energy(jx, jy, jz) > e0:
        tx, ty = jx, jy
        target = -(1.0 + restitution) * cz

        def scaled(f: float) -> tuple[float, float, float]:
            ax, ay = tx * f, ty * f
            return ax, ay, (target - k02 * ax - k12 * ay) / k22

        lo, hi = 0.0, 1.0
        for _ in range(40):
            mid = 0.5 * (lo + hi)
            if energy(*scaled(mid)) > e0:
                hi = mid
            else:
                lo = mid
        jx, jy, jz = scaled(lo)
    v_new = np.array([vx + jx * inv_m, vy + jy * inv_m, vz + jz * inv_m])
    omega_new = np.array(
        [
            wx + inv_i * (ry * jz - rz * jy),
            wy + inv_i * (rz * jx - rx * jz),
            wz + inv_i * (rx * jy - ry * jx),
        ]
    )
    return v_new, omega_new


def tip_energy_ok(omega: float, size: float, gravity: float) -> bool:
    """True if a die turning at ``omega`` rad/s about a bottom edge, lying flat,
    has the energy to tip over that edge: (1/3) a^2 w^2 >= g a (sqrt2 - 1) / 2."""
    return omega * omega * size * size / 3.0 >= gravity * size * (math.sqrt(2.0) - 1.0) / 2.0


def roll_count(omega: float, size: float, gravity: float, limit: int = 8) -> int:
    """Faces a die rolls over on the table starting flat with ``omega`` rad/s
    about a bottom edge; each face impact keeps 1/4 of the angular speed."""
    n = 0
    w = abs(omega)
    while n < limit and tip_energy_ok(w, size, gravity):
        n += 1
        w *= 0.25
    return n


def trip_speed(size: float, gravity: float) -> float:
    """Slowest sliding speed (mm/s) at which a die whose leading bottom edge
    is caught tips over: ~1.05 sqrt(g a) (0.42 m/s for a = 16 mm)."""
    return math.sqrt(16.0 * gravity * size * (math.sqrt(2.0) - 1.0) / 6.0)


def ledge_tumble(speed: float, size: float, gravity: float) -> float:
    """Forward tumble (rad/s) of a die sliding off a ledge at ``speed`` mm/s.

    While the centre overhangs the edge (for a time a / (2 v)) the support at
    the edge carries about m g, a torque m g v t about the centre; integrated:
    w = 3 g / (4 v). Capped at sqrt(6 g / a), the rate of a die tipping off
    from rest.
    """
    cap = math.sqrt(6.0 * gravity / size)
    if speed <= 0.0:
        return cap
    return min(3.0 * gravity / (4.0 * speed), cap)
