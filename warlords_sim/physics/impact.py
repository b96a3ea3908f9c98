"""Impact: what a blow does to a die, on the surface beneath it and from the side.

Contract
--------
* Pure arithmetic (numpy), no pymunk and no state. The models take a die's
  motion as values and return its motion after the blow (or what the blow
  sets off); :class:`~warlords_sim.physics.world.World` applies the result.
  Two collision types, each a small class behind a Protocol (the shape of
  pooltool's ``physics/resolve``), gathered by the world:

  - :class:`LandingModel` (default :class:`RigidLanding`): an airborne die's
    lowest point reaches the surface beneath it; bounce or lie down.
  - :class:`SideBlowModel` (default :class:`EdgeCatchBlows`): a die strikes
    a wall, pin, the siege engine or another die beside it. This is the one
    place that decides what a side blow does to a grounded die (nothing, or
    a trip over its bottom edge, carried out by
    :mod:`~warlords_sim.physics.tumble`) and to an airborne die (a kick that
    tips it, :meth:`SideBlowModel.kick`). pymunk has already resolved the
    blow in the plane; these add what the plane cannot show.
* Units mm, g, s, rad; world frame, z up.

The bounce (units mm, g, s, rad): a rigid-body impact at the lowest contact
point (a corner, an edge midpoint or a face centre), with Newton
restitution along the normal and Coulomb friction (stick or slip) in the
plane; see :func:`impact`. A spinning die landing on a corner kicks sideways
and changes its spin: the face comes out of the motion (Nagler & Richter,
Phys. Rev. E 78, 036207, 2008, use the same impulse model for dice).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from warlords_sim.board import DieSpec
from warlords_sim.physics.flight import InFlight
from warlords_sim.physics.tumble import trip_spin

__all__ = [
    "MAX_BOUNCES",
    "REST_BOUNCE_SPEED",
    "BlowResponse",
    "EdgeCatchBlows",
    "Kick",
    "Landing",
    "LandingModel",
    "RigidLanding",
    "SideBlowModel",
    "contact_point",
    "impact",
]

Vec = NDArray[np.float64]

#: A bounce leaving less vertical speed than this (mm/s) ends the bouncing
#: (the next hop would rise under 0.2 mm).
REST_BOUNCE_SPEED = 60.0
#: Most bounces in one landing sequence before the die is laid flat.
MAX_BOUNCES = 60


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


@dataclass(frozen=True)
class Landing:
    """What one landing did.

    Attributes:
        v: centre velocity after (mm/s, 3). omega: angular velocity after (rad/s, 3).
        contact: offset (mm, world, 3) from the centre to the contact point.
        speed: normal speed (mm/s, >= 0) at which the contact point struck.
        settles: the bouncing is over: the die lies down (and may roll on).
    """

    v: Vec
    omega: Vec
    contact: Vec
    speed: float
    settles: bool


class LandingModel(Protocol):
    """An airborne die's lowest point reaches the surface beneath it."""

    def land(self, v: Vec, omega: Vec, r: Vec, bounces: int) -> Landing:
        """The die moving at ``v`` (mm/s, 3, world) and ``omega`` (rad/s, 3)
        at orientation ``r`` lands, after ``bounces`` earlier landings."""
        ...


class RigidLanding:
    """A rigid-body bounce (:func:`impact`) with the table's restitution and
    friction (board data, cited there); the bouncing ends when a bounce
    leaves less than :data:`REST_BOUNCE_SPEED` upwards and too little tumble
    to tip over an edge, or after :data:`MAX_BOUNCES`.

    Args:
        die: the die's board data (mass, size, table restitution and friction).
        gravity: mm/s^2.
    """

    def __init__(self, die: DieSpec, gravity: float) -> None:
        self.die = die
        self.gravity = gravity

    def land(self, v: Vec, omega: Vec, r: Vec, bounces: int) -> Landing:
        """See :meth:`LandingModel.land`."""
        spec = self.die
        size = spec.size_mm
        contact = contact_point(r, size, v, omega)
        if contact is None:  # the corners at the floor are already moving up
            contact = contact_point(r, size)
            assert contact is not None  # without v and omega there always is one
            v3, w3 = v, omega
        else:
            v3, w3 = impact(
                v,
                omega,
                contact,
                spec.mass_g,
                size,
                spec.table_restitution,
                spec.table_friction,
                spec.table_static_friction,
            )
        # normal speed of the contact point: -(vz + (omega x r)_z)
        cz = float(v[2]) + float(omega[0] * contact[1] - omega[1] * contact[0])
        # rising this slowly it would hop under 0.2 mm: the bouncing is over
        # and the die pivots on its edge from here (World._lay_flat), as
        # dynamics, however much it still turns
        spent = float(v3[2]) < REST_BOUNCE_SPEED
        return Landing(v3, w3, contact, max(-cz, 0.0), spent or bounces >= MAX_BOUNCES)


class BlowResponse(Enum):
    """What a side blow sets off, beyond pymunk's push in the plane."""

    NONE = "none"
    TRIP = "trip"  # a grounded die catches its bottom edge and tumbles over it
    KICK = "kick"  # an airborne die is tipped (and braked) by where the blow lands


@dataclass(frozen=True)
class Kick:
    """An airborne die's motion after a side blow.

    Attributes:
        velocity: new horizontal velocity (mm/s), or None to keep pymunk's.
        z: centre height, mm. vz: vertical speed, mm/s.
        r: orientation. omega: angular velocity (rad/s, world, 3).
    """

    velocity: tuple[float, float] | None
    z: float
    vz: float
    r: Vec
    omega: Vec


class SideBlowModel(Protocol):
    """A die strikes something beside it (a wall, pin, the siege engine or a die)."""

    def response(self, airborne: bool, floor: float, approach: float, top: float) -> BlowResponse:
        """What a blow at normal approach speed ``approach`` (mm/s, > 0 when
        closing) from something whose top is ``top`` mm high sets off for a
        die that is ``airborne`` or stands on a surface ``floor`` mm high.
        Called from the collision callback: it must only decide, never
        change anything."""
        ...

    def trip_spin(self, speed: float) -> float:
        """Angular speed (rad/s) about the caught edge of a grounded die
        tripped by a blow at ``speed`` mm/s."""
        ...

    def kick(
        self,
        f: InFlight,
        t: float,
        velocity: tuple[float, float],
        spin: float,
        nx: float,
        ny: float,
        speed: float,
        bottom: float,
        top: float,
    ) -> Kick | None:
        """An airborne die in flight ``f``, ``t`` s into it, moving at
        ``velocity`` (mm/s, after pymunk turned it) with yaw rate ``spin``,
        struck along (nx, ny) at ``speed`` mm/s by something spanning heights
        ``bottom``..``top`` mm. None if the blow changes nothing more."""
        ...


class EdgeCatchBlows:
    """Side blows decided by where they act (design brief section 2).

    A grounded die is struck over the height where it and the obstacle
    overlap. Everything on the board that can strike a die standing on the
    table (a castle wall, a pin, the siege engine, another die of the same
    size) reaches at least to the die's centre height, so the blow acts at
    or above the centre: pymunk pushes and spins the die in the plane and
    nothing tips it (a horizontal impulse at the centre height has no
    moment about the centre, and one above it presses the far bottom edge
    into the table). Only an obstacle whose top is below the die's centre
    catches the die's bottom edge; then, at the trip speed
    (:func:`~warlords_sim.physics.tumble.trip_speed`) or faster, the die
    pivots over that edge. (The model before this one tripped every grounded
    die at 420 mm/s or more, whatever struck it: a face-on blow from a
    castle wall turned the face toward the wall up.) An airborne die is
    kicked by every closing blow, tipped by where the blow lands in height.

    Args:
        die: the die's board data (mass, size, die restitution and friction).
        trip_speed: mm/s.
    """

    def __init__(self, die: DieSpec, trip_speed: float) -> None:
        self.die = die
        self.trip_speed = trip_speed

    def response(self, airborne: bool, floor: float, approach: float, top: float) -> BlowResponse:
        """See :meth:`SideBlowModel.response`."""
        if airborne:
            return BlowResponse.KICK if approach > 0.0 else BlowResponse.NONE
        caught_below_centre = top < floor + self.die.size_mm / 2.0
        if approach >= self.trip_speed and caught_below_centre:
            return BlowResponse.TRIP
        return BlowResponse.NONE

    def trip_spin(self, speed: float) -> float:
        """See :func:`~warlords_sim.physics.tumble.trip_spin`."""
        return trip_spin(speed, self.die.size_mm)

    def kick(
        self,
        f: InFlight,
        t: float,
        velocity: tuple[float, float],
        spin: float,
        nx: float,
        ny: float,
        speed: float,
        bottom: float,
        top: float,
    ) -> Kick | None:
        """An airborne die struck something beside it (pymunk has already
        turned its horizontal motion). Add what the plane cannot show: the
        blow lands above or below the die's centre (where the die and the
        obstacle overlap in height), which tips it, and friction at the
        contact opposes the contact point's vertical sliding. The blow is
        taken as m (1 + e) v along (nx, ny), e the die's restitution. The
        tumble it adds is paid for out of the horizontal motion, so no
        energy is created; None if there is too little to pay for it, or
        the die and the obstacle do not overlap in height."""
        spec = self.die
        size = spec.size_mm
        zc = f.height(t)
        lo, hi = max(zc - size / 2.0, bottom), min(zc + size / 2.0, top)
        if hi <= lo:
            return None
        m = spec.mass_g
        inv_i = 6.0 / (m * size * size)
        jn = m * (1.0 + spec.die_restitution) * speed
        rx, ry, rz = -nx * size / 2.0, -ny * size / 2.0, (lo + hi) / 2.0 - zc
        wx, wy = float(f.omega[0]), float(f.omega[1])
        wz = spin
        # the blow's torque about the centre (its z part is pymunk's)
        wx += inv_i * (-rz * jn * ny)
        wy += inv_i * (rz * jn * nx)
        # friction against the contact point's vertical sliding
        vz = f.vz(t)
        uz = vz + wx * ry - wy * rx
        kzz = 1.0 / m + inv_i * (rx * rx + ry * ry)
        jf = max(-spec.die_friction * jn, min(spec.die_friction * jn, -uz / kzz))
        vz += jf / m
        wx += inv_i * ry * jf
        wy -= inv_i * rx * jf
        # the blow's horizontal part is pymunk's already: pay for the tumble
        # it adds out of the horizontal motion, so no energy is created
        vz0 = f.vz(t)
        w0x, w0y = float(f.omega[0]), float(f.omega[1])
        vx, vy = velocity
        e_before = m * vz0 * vz0 + (w0x * w0x + w0y * w0y) / inv_i
        e_after = m * vz * vz + (wx * wx + wy * wy) / inv_i
        gain = 0.5 * (e_after - e_before)
        new_velocity = None
        if gain > 0.0:
            v2 = vx * vx + vy * vy
            room = 0.5 * m * v2
            if gain <= room and v2 > 0.0:
                scale = math.sqrt(1.0 - gain / room)
                new_velocity = (vx * scale, vy * scale)
            else:
                return None  # too little motion to pay for it: no tumble from this blow
        return Kick(new_velocity, zc, vz, f.orientation(t), np.array([wx, wy, wz]))
