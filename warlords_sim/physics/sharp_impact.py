"""The sharp cube's bounce of models 2.5d-1 to 2.5d-8: kept as a baseline.

Contract
--------
* Pure arithmetic in plain floats, no pymunk and no state; units mm, g, s,
  rad; world frame, z up.
* The world no longer uses it: from model 2.5d-9 on a landing is
  :class:`~warlords_sim.physics.impact.RoundedLanding` (a rounded die's
  contact and Stronge's energetic restitution, :mod:`~warlords_sim.physics.contact`).
  This is the model it replaced, kept so that ``benchmarks/contact.py`` and
  ``benchmarks/reference_contact.py`` can print the old figures beside the
  new and tests/test_physics_contact.py can show its tests fail on it.

The model: a rigid-body impact of a sharp cube (inertia ``m a^2 / 6``) at
its lowest contact point (a corner, an edge midpoint or a face centre,
:func:`contact_point`), with Newton restitution along the normal and Coulomb
friction (stick or slip) in the plane (:func:`impact`); Nagler & Richter,
Phys. Rev. E 78, 036207, 2008, use the same impulse model for dice.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

__all__ = ["contact_point", "impact"]

Vec = NDArray[np.float64]


def contact_point(
    r: Vec, size: float, v: Vec | None = None, omega: Vec | None = None, tol: float = 1e-3
) -> Vec | None:
    """Offset (mm, world) from the centre to the contact with a floor below.

    The mean of the corners within ``tol * size`` of the lowest (a corner,
    an edge midpoint or a face centre). Given the velocity ``v`` (mm/s) and
    angular velocity ``omega`` (rad/s), only corners within 2 % of the edge
    of the lowest and moving down count, the lowest of them; None if no
    corner near the floor moves down. A corner moves down when its downward
    speed exceeds the rounding error of working it out (1e-9 of the speeds
    it is made of): the corners of the edge a die pivots on have none,
    and when it comes down on its next face they used to count or not by
    the sign of a 1e-14 mm/s remainder, so that the far edge's impact was
    taken at three corners or at the face's centre (saved case in
    tests/test_physics_roll.py).
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
        still = 1e-9 * (abs(vz) + (abs(wx) + abs(wy)) * size)
        moving = [
            c for c in corners if c[2] <= zmin + 0.02 * size and vz + wx * c[1] - wy * c[0] < -still
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
        static_friction: coefficient that decides sticking of a contact
            that is not sliding as the impact begins (default: ``friction``);
            a sliding contact only stops and sticks if kinetic friction can
            stop it within the impact.

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
    # Coulomb: a contact already sliding when the impact begins is resisted
    # by kinetic friction until its sliding stops; static friction only
    # holds a contact that is not sliding (below 1 mm/s) to start with
    sliding = math.hypot(cx, cy) > 1.0
    mu_s = friction if static_friction is None or sliding else static_friction
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
            jx, jy, jz, _ = slip(_bisect(lambda mu: slip(mu)[3] < 0.0, friction))

    # Newton restitution with sticking friction is not energy-consistent for
    # every contact geometry (a few % of landings at e = 0.8 would gain up to
    # ~18 %): in that case keep the normal response and shrink the
    # tangential impulse until no energy is created (frictionless never does)
    def velocities(ax: float, ay: float, az: float) -> tuple[float, ...]:
        """(v', omega') after the impulse (ax, ay, az) at r, six floats."""
        return (
            vx + ax * inv_m,
            vy + ay * inv_m,
            vz + az * inv_m,
            wx + inv_i * (ry * az - rz * ay),
            wy + inv_i * (rz * ax - rx * az),
            wz + inv_i * (rx * ay - ry * ax),
        )

    def energy(ax: float, ay: float, az: float) -> float:
        nvx, nvy, nvz, nwx, nwy, nwz = velocities(ax, ay, az)
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

        jx, jy, jz = scaled(_bisect(lambda f: energy(*scaled(f)) > e0, 1.0))
    after_impact = velocities(jx, jy, jz)
    return np.array(after_impact[:3]), np.array(after_impact[3:])


def _bisect(too_far: Callable[[float], bool], hi: float) -> float:
    """The largest x in [0, ``hi``] not ``too_far`` (``too_far`` monotone),
    to 40 halvings (``hi`` / 2**40), from below."""
    lo = 0.0
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        if too_far(mid):
            hi = mid
        else:
            lo = mid
    return lo
