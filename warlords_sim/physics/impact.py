"""Impact: what a blow does to a die, on the surface beneath it and from the side.

Contract
--------
* Pure arithmetic (numpy), no pymunk and no state. The models take a die's
  motion as values and return its motion after the blow (or what the blow
  sets off); :class:`~warlords_sim.physics.world.World` applies the result.
  Two collision types, each a small class behind a Protocol (the shape of
  pooltool's ``physics/resolve``), gathered by the world:

  - :class:`LandingModel` (default :class:`RoundedLanding`): an airborne die's
    lowest point reaches the surface beneath it; bounce or lie down.
  - :class:`SideBlowModel` (default :class:`EdgeCatchBlows`): a die strikes
    a wall, pin, the siege engine or another die beside it. This is the one
    place that decides what a side blow does to a grounded die (nothing, or
    a trip over its bottom edge, carried out by
    :mod:`~warlords_sim.physics.tumble`) and to an airborne die (a kick that
    tips it, :meth:`SideBlowModel.kick`). pymunk has already resolved the
    blow in the plane; these add what the plane cannot show.
* Units mm, g, s, rad; world frame, z up.

The bounce: a rounded die's impact on the floor
(:mod:`~warlords_sim.physics.contact`: the corner sphere, edge cylinder or
face that touches; Coulomb friction through slip, stick and slip reversal;
Stronge's energetic restitution, so no bounce creates energy). A spinning
die landing on a corner kicks sideways and changes its spin: the face comes
out of the motion (Nagler & Richter, Phys. Rev. E 78, 036207, 2008, model
dice with impulses at the contact too). The die's one moment of inertia is
:func:`die_inertia`, the rounded cube's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from warlords_sim.board import DieSpec
from warlords_sim.physics.contact import (
    Feature,
    compression_depth,
    floor_contact,
    impact,
    rounded_cube_inertia,
)
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
    "RoundedLanding",
    "SideBlowModel",
    "die_inertia",
]

Vec = NDArray[np.float64]

#: A bounce leaving less vertical speed than this (mm/s) ends the bouncing
#: (the next hop would rise under 0.2 mm).
REST_BOUNCE_SPEED = 60.0
#: Most bounces in one landing sequence before the die is laid flat.
MAX_BOUNCES = 60


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


def die_inertia(die: DieSpec) -> float:
    """The die's moment of inertia (g mm^2) about any axis through its
    centre: a uniform cube of ``die.size_mm`` and ``die.mass_g`` rounded to
    ``die.edge_radius_mm`` (:func:`~warlords_sim.physics.contact.rounded_cube_inertia`;
    190.73 g mm^2 for the standard die, 2.8 % below a sharp cube's m a^2 / 6).
    The one inertia of the 2.5D die: its flight, landings, pivot, strikes,
    ledge exit, side kicks and pymunk's turning in the plane all take it.

    Raises:
        ValueError: see :func:`~warlords_sim.physics.contact.rounded_cube_inertia`.
    """
    return rounded_cube_inertia(die.mass_g, die.size_mm, die.edge_radius_mm)


class RoundedLanding:
    """A rounded die's bounce on the surface beneath it: the corner sphere,
    edge cylinder or face of the die rounded to ``die.edge_radius_mm`` that
    touches (:func:`~warlords_sim.physics.contact.floor_contact`), and a
    rigid-body impact there with Coulomb friction and Stronge's energetic
    restitution, through slip, stick and slip reversal
    (:func:`~warlords_sim.physics.contact.impact`; W. J. Stronge, Proc. R.
    Soc. Lond. A 431, 1990), with the table's restitution, kinetic and
    static friction (board data, cited there) and the rounded die's inertia
    (:func:`die_inertia`). No landing creates energy. The bouncing ends when
    a bounce leaves less than :data:`REST_BOUNCE_SPEED` upwards, or after
    :data:`MAX_BOUNCES`; the die then pivots on from its edge
    (:meth:`~warlords_sim.physics.motion.DieMotion.lay_flat`).

    (It replaced :mod:`~warlords_sim.physics.sharp_impact`'s sharp corner
    and Newton restitution in model 2.5d-9: there the 900 mm/s high
    launch's first impact left the die turning at 35.4 rad/s, here 15.7;
    the reference engine's rounded die 6.1, from a landing tilted 23.4
    degrees where the 2.5D's ledge exit gives 21.4: tests/test_physics_saved_cases.py.)

    Args:
        die: the die's board data (mass, size, edge radius, table
            restitution and friction).
        gravity: mm/s^2.

    Raises:
        ValueError: an edge radius outside [0, size / 2] (board data checks it).
    """

    def __init__(self, die: DieSpec, gravity: float) -> None:
        self.die = die
        self.gravity = gravity
        self.inertia = die_inertia(die)
        self._static = max(die.table_static_friction, die.table_friction)

    def land(self, v: Vec, omega: Vec, r: Vec, bounces: int) -> Landing:
        """See :meth:`LandingModel.land`; the contact is the touching
        feature's point (:attr:`~warlords_sim.physics.contact.FloorContact.offset`)."""
        spec = self.die
        size, radius = spec.size_mm, spec.edge_radius_mm
        fc = floor_contact(r, size, radius, v, omega)
        if fc is not None and fc.feature is not Feature.FACE:
            # corners within the impact's compression touch in the same
            # impact (contact.compression_depth; model 2.5d-11)
            approach = -(float(v[2]) + float(omega[0] * fc.offset[1] - omega[1] * fc.offset[0]))
            depth = compression_depth(spec.mass_g, self.inertia, fc.offset, radius, approach)
            fc = floor_contact(r, size, radius, v, omega, compression=depth) or fc
        if fc is None:  # the corners at the floor are already moving up
            fc = floor_contact(r, size, radius)
            assert fc is not None  # without v and omega there always is one
            v3, w3 = v, omega
        else:
            out = impact(
                v,
                omega,
                fc.offset,
                spec.mass_g,
                self.inertia,
                spec.table_restitution,
                spec.table_friction,
                self._static,
                feature=fc.feature,
            )
            v3, w3 = out.v, out.omega
        contact = fc.offset
        # normal speed of the contact point: -(vz + (omega x r)_z)
        cz = float(v[2]) + float(omega[0] * contact[1] - omega[1] * contact[0])
        # both the point that struck and the centre leave the floor this
        # slowly (they would rise under 0.2 mm): the bouncing is over and
        # the die pivots on its edge from here (DieMotion.lay_flat), as
        # dynamics. Not the centre's alone: a corner's impact leaves a
        # tumbling die's centre still falling while the corner springs up
        # and the die turns onto its next corner, a new impact (2.5d-9 took
        # the centre's, and laid a die tumbling at 86 rad/s on an edge after
        # its first corner impact: saved case in tests/test_physics_impact.py)
        leave = float(v3[2]) + float(w3[0] * contact[1] - w3[1] * contact[0])
        spent = max(leave, float(v3[2])) < REST_BOUNCE_SPEED
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
        die: the die's board data (mass, size, edge radius, die restitution
            and friction); its inertia is :func:`die_inertia`.
        trip_speed: mm/s.
    """

    def __init__(self, die: DieSpec, trip_speed: float) -> None:
        self.die = die
        self.trip_speed = trip_speed
        #: the moment of inertia about the centre per unit mass, mm^2
        self.i2 = die_inertia(die) / die.mass_g

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
        return trip_spin(speed, self.die.size_mm, self.i2)

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
        inv_i = 1.0 / (m * self.i2)
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
