"""The motion of a die: the state machine of a 2.5D die's flight, bounces,
edge catches, pivots, hops and ledge exits, applied to its pymunk body.

A die is in one of these states (:class:`~warlords_sim.physics.bodies.DieBody`):

* **grounded**, sliding or at rest on its floor (the table, a wall's top,
  another die): pymunk moves it in the plane, Coulomb table friction from
  its pivot and gear joints (:meth:`DieMotion.set_grounded`);
* **on a ledge** (``ledge``): flicked from a crenelation or the engine's
  top, sliding over the ledge's edge until the first step boundary after
  it leaves it (:meth:`DieMotion.slide_off_ledge`, :meth:`DieMotion.leave_ledge`);
* **in flight** (``flight``): ballistic, passing over what is lower than
  its lowest point (:meth:`DieMotion.start_flight`,
  :meth:`DieMotion.update_air_mask`); its lowest point reaching its floor is
  an impact of the landing model (:meth:`DieMotion.bounce`,
  :meth:`DieMotion.land`), after which it flies on (:meth:`DieMotion.fly_on`)
  or comes down on an edge (:meth:`DieMotion.lay_flat`); a blow beside it
  in the air is the blow model's kick (:meth:`DieMotion.side_kick`);
* **pivoting** (``roll``) on a bottom edge (an edge catch,
  :meth:`DieMotion.trip`; a strike; the end of a bounce): rigid-body
  dynamics on the edge over steps (:meth:`DieMotion.roll`,
  :meth:`DieMotion.start_face`, :meth:`DieMotion.advance_roll`), ending on
  a face (an impact again), in a hop (:meth:`DieMotion.hop`, a flight) or
  stopped by what it ran into (:meth:`DieMotion.end_roll`).

Contract
--------
* :class:`DieMotion` holds the die's models (landing, side blows, pivot
  parameters, support) and changes one die's state and body at a time
  through the world's :class:`~warlords_sim.physics.bodies.WorldState`: it
  sets bodies' velocities, positions (telling pymunk), joints' forces and
  collision masks, appends LANDING, TRIP and HOP events, wakes dice and
  schedules the next look at them. It never steps the space; the world
  and :mod:`~warlords_sim.physics.settle` call it between steps. Where a
  die's footprint jumps it is cleared of overlaps by
  :mod:`~warlords_sim.physics.overlap`.
* Units mm, g, s, rad; board frame; heights above the board surface;
  fixed step :data:`~warlords_sim.physics.bodies.TIMESTEP`.
* No randomness; the order of every floating-point operation is part of
  the model (replays are bit for bit: a change is a new model version).
* Imports pymunk (through the records), numpy and the physics model
  modules; never the world, the rules or anything above.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pymunk
from numpy.typing import NDArray

from warlords_sim.board import Board
from warlords_sim.physics import overlap, tumble
from warlords_sim.physics.bodies import TIMESTEP, DieBody, OnLedge, Rolling, WorldState
from warlords_sim.physics.flight import DIE_BIT, HeightBands, plan_flight, solve_flight
from warlords_sim.physics.impact import (
    EdgeCatchBlows,
    LandingModel,
    RoundedLanding,
    SideBlowModel,
)
from warlords_sim.physics.linalg3 import matmul, norm3
from warlords_sim.physics.orientation import face_up, rotation_about, rotation_z
from warlords_sim.physics.pivot import PivotEnd, PivotParams, PivotState
from warlords_sim.physics.pivot import advance as pivot_advance
from warlords_sim.physics.pivot import centre_offset as pivot_centre
from warlords_sim.physics.pivot import energy as pivot_energy
from warlords_sim.physics.support import Support
from warlords_sim.physics.types import Event, EventKind

__all__ = ["PATCH_ARM", "ROCK_LIFT_MM", "DieMotion"]

#: A die turning about a bottom edge too slowly to lift its centre this far
#: (mm) is taken to stay flat (7.7 rad/s for a 16 mm die; it tips over from
#: 19.5): the rocking is not followed.
ROCK_LIFT_MM = 0.5
#: A die that stops bouncing tilted less than this (rad) from a face, and
#: turning slower than the rock rate, lies flat at once.
_FLAT_TILT = 1e-3
#: A change of a pivoting die's velocity over a step (relative to its
#: square, (mm/s)^2) that is pymunk's rounding, not a contact: to 2.5d-10 a
#: change of 6e-14 mm/s against the motion ended a pivot as if the die had
#: run into something (fuzz case #5388 of benchmarks/fuzz_flicks.py).
_CONTACT_DV = 1e-9
#: Mean distance of a square contact patch from its centre, in edge lengths
#: (integral of r over the unit square): the friction torque is mu m g times this.
PATCH_ARM = 0.3826


class DieMotion:
    """The motion of the dice of one world (see the module docstring).

    Args:
        ws: the world's shared state (its dice, clock, events).
        board: the board (the die's data, the table's edge).
        bands: the world's collision height bands.
        support: what holds up a die off the table.
        landing: the landing (bounce) model; replaceable (a test's spy).
        blows: the side-blow model.
        pivot: the pivot's parameters (the die, its edge, the table).
        i2: the die's moment of inertia per unit mass, mm^2.
    """

    def __init__(
        self,
        ws: WorldState,
        board: Board,
        bands: HeightBands,
        support: Support,
        landing: LandingModel,
        blows: SideBlowModel,
        pivot: PivotParams,
        i2: float,
    ) -> None:
        die = board.die
        self._ws = ws
        self._board = board
        self._bands = bands
        self._support = support
        self.landing = landing
        self.blows = blows
        self._pivot = pivot
        self._size = die.size_mm
        self._g = board.gravity_mm_s2
        self._mass = die.mass_g
        self._radius = die.edge_radius_mm
        self._i2 = i2
        #: the slowest turn about an edge that is followed: it lifts the centre
        #: by ROCK_LIFT_MM, (1/3) a^2 w^2 = g dz
        self.rock_rate = math.sqrt(3.0 * self._g * ROCK_LIFT_MM) / self._size

    @classmethod
    def of_board(
        cls, ws: WorldState, board: Board, bands: HeightBands, support: Support, i2: float
    ) -> DieMotion:
        """The board's die's motion: the rounded die's landing model, the
        edge-catch blow model, and the pivot on an edge rounded to
        ``die.edge_radius_mm``, as the flight and the bounce take it."""
        die = board.die
        g = board.gravity_mm_s2
        # the die pivoting on a bottom edge: rounded to die.edge_radius_mm,
        # as the flight and the bounce take it (board data)
        pivot = PivotParams(
            size=die.size_mm,
            radius=die.edge_radius_mm,
            gravity=g,
            friction=die.table_friction,
            static_friction=max(die.table_static_friction, die.table_friction),
            i2=i2,
        )
        # the collision models (pooltool's resolver shape: one per kind)
        landing = RoundedLanding(die, g)
        blows = EdgeCatchBlows(die, tumble.trip_speed(die.size_mm, g, i2))
        return cls(ws, board, bands, support, landing, blows, pivot, i2)

    def face(self, d: DieBody) -> int:
        """Face up of die ``d`` now."""
        return face_up(self.orientation(d))

    def orientation(self, d: DieBody) -> NDArray[np.float64]:
        """World orientation (3x3) of die ``d`` now."""
        f = d.flight
        if f is not None:
            return f.orientation(self._ws.time - f.t0)
        ro = d.roll
        if ro is not None:
            return matmul(rotation_about((-ro.uy, ro.ux, 0.0), ro.phi), ro.r0)
        return matmul(rotation_z(float(d.body.angle)), d.r_rel)

    def height(self, d: DieBody) -> float:
        """Height (mm) of the centre of die ``d`` above the board surface."""
        f = d.flight
        if f is None:
            if d.ledge is not None:
                return d.ledge.on_ledge
            if d.roll is not None:
                return d.floor + pivot_centre(d.roll.phi, self._pivot)[1]
            return d.floor + self._size / 2.0
        return f.height(self._ws.time - f.t0)

    def energy(self, d: DieBody) -> float:
        """Kinetic plus potential energy of die ``d`` now, g mm^2/s^2
        (nJ), the board surface the zero of height: its planar motion
        (pymunk), its height, vertical speed and 3D turning (flight or
        pivot; a die sliding off a ledge counts what it leaves the ledge
        with, no more than it had on it), the rounded die's moment of inertia
        (:func:`~warlords_sim.physics.impact.die_inertia`). For checking
        that the motion creates no energy (``benchmarks/fuzz_flicks.py``)."""
        m = self._mass
        i2 = self._i2
        st = d.ledge
        if st is not None:  # sliding off a ledge: what it leaves it with
            w = st.omega
            kin = st.vx**2 + st.vy**2 + st.vz**2 + i2 * float(w[0] ** 2 + w[1] ** 2 + w[2] ** 2)
            return 0.5 * m * kin + m * self._g * st.z
        vx, vy = d.body.velocity
        spin = float(d.body.angular_velocity)
        f = d.flight
        if f is not None:
            t = self._ws.time - f.t0
            vz, z = f.vz(t), f.height(t)
            wx, wy = float(f.omega[0]), float(f.omega[1])
            kin = vx * vx + vy * vy + vz * vz + i2 * (wx * wx + wy * wy + spin * spin)
            return 0.5 * m * kin + m * self._g * z
        ro = d.roll
        if ro is not None:
            return m * (pivot_energy(ro.state, self._pivot) + self._g * d.floor)
        kin = vx * vx + vy * vy + i2 * spin * spin
        return 0.5 * m * kin + m * self._g * (d.floor + self._size / 2.0)

    def set_down(self, d: DieBody, x: float, y: float, angle: float | None) -> None:
        """Lift die ``d`` and set it down at rest on the table at (x, y) mm,
        turned ``angle`` rad (None: as it is), same face up."""
        ws = self._ws
        d.body.position = (x, y)
        if angle is not None:
            d.body.angle = angle
        d.body.velocity = (0.0, 0.0)
        d.body.angular_velocity = 0.0
        d.flight = None
        d.roll = None
        d.cocked = False
        d.lean = None
        self.set_grounded(d, 0.0)
        ws.reindex(d.body)
        ws.rested(d)
        ws.poses.pop(d.id, None)

    def set_rest(
        self,
        d: DieBody,
        x: float,
        y: float,
        angle: float,
        r_rel: NDArray[np.float64],
        floor: float,
        cocked: bool,
    ) -> None:
        """Set die ``d`` at rest exactly as given: centre (x, y) mm, yaw
        ``angle`` rad, orientation ``r_rel`` in its yaw frame, on a floor
        ``floor`` mm high, ``cocked`` or not (a rest state taken over)."""
        ws = self._ws
        d.body.position = (x, y)
        d.body.angle = angle
        d.body.velocity = (0.0, 0.0)
        d.body.angular_velocity = 0.0
        d.flight = d.roll = d.ledge = d.lean = None
        d.r_rel = r_rel
        self.set_grounded(d, floor)
        d.cocked = cocked
        ws.reindex(d.body)
        ws.rested(d)
        ws.poses.pop(d.id, None)

    def launch(self, d: DieBody, vx: float, vy: float, spin: float) -> None:
        """Die ``d`` is flicked: it moves at (vx, vy) mm/s turning at
        ``spin`` rad/s, and so, from the first step, do the dice it rests
        against (they get their first push with no new contact: the contact
        outlives their rest; saved case in tests/test_physics_faults.py)."""
        ws = self._ws
        d.body.velocity = (vx, vy)
        d.body.angular_velocity = spin
        ws.wake(d)
        ws.moved.add(d.id)
        for j in sorted(ws.contacts.get(d.id, ())):
            other = ws.dice.get(j)
            if other is not None:
                ws.wake(other)
        d.cocked = False
        d.lean = None

    def set_grounded(self, d: DieBody, floor: float) -> None:
        d.flight = None
        d.floor = floor
        spec = self._board.die
        force = spec.table_friction * spec.mass_g * self._g
        d.pivot.max_force = force
        d.gear.max_force = force * PATCH_ARM * spec.size_mm
        mask = self._bands.mask_above(floor) if floor > 0.0 else self._bands.all_mask
        self.set_mask(d, mask)

    def set_mask(self, d: DieBody, mask: int) -> None:
        if mask != d.mask:
            d.mask = mask
            d.shape.filter = pymunk.ShapeFilter(categories=DIE_BIT, mask=mask)

    def start_flight(
        self,
        d: DieBody,
        z0: float,
        vz0: float,
        r0: NDArray[np.float64],
        omega: NDArray[np.float64],
        bounces: int = 0,
        floor: float = 0.0,
    ) -> None:
        """Launch die ``d`` into a free flight from centre height ``z0`` (mm)
        with vertical speed ``vz0`` (mm/s), orientation ``r0`` and angular
        velocity ``omega`` (rad/s, world), to land on a surface ``floor`` mm high."""
        d.roll = None
        d.pivot.max_force = 0.0
        d.gear.max_force = 0.0
        d.body.angular_velocity = float(omega[2])
        d.flight = plan_flight(
            self._bands,
            self._ws.time,
            self._ws.steps,
            z0,
            vz0,
            r0,
            omega,
            floor,
            bounces,
            self._size,
            self._g,
            TIMESTEP,
            radius=self._radius,
        )
        self._ws.wake(d)
        self._ws.moved.add(d.id)
        d.cocked = False
        d.lean = None
        self.update_air_mask(d)

    def update_air_mask(self, d: DieBody) -> None:
        """Set the die's collision mask from the height of its lowest point
        and schedule the next change (or the landing); land it on top of
        what it came down onto (:meth:`Support.under`)."""
        f = d.flight
        assert f is not None
        idx = f.mask_index(self._ws.steps)
        if idx is None:
            d.next_mask_step = f.hit_step
            self._ws.check_soon(f.hit_step)
            return
        mask = int(f.masks[idx])
        landed_on = None
        if mask != d.mask:
            vz = f.vz(self._ws.time - f.t0)
            landed_on = self._support.under(d.shape, d.body.position, d.mask, mask, vz)
        self.set_mask(d, mask)
        if landed_on is not None:
            self.bounce(d, floor=landed_on)  # came down onto its top
            return
        d.next_mask_step = f.next_mask_step(idx)
        self._ws.check_soon(d.next_mask_step)

    def fall(self, d: DieBody) -> None:
        """The die lost its support: it falls from rest onto the table."""
        r = self.orientation(d)
        z0, vz0, omega = Support.fall(d.floor, self._size)
        d.cocked = False
        self.start_flight(d, z0, vz0, r, omega)

    def bounce(self, d: DieBody, floor: float) -> None:
        """The die's lowest point has reached ``floor``: impact (the landing
        model), then fly on or lie."""
        f = d.flight
        assert f is not None
        t = min(self._ws.time, f.t_hit) - f.t0 if floor == f.floor else self._ws.time - f.t0
        r = f.orientation(t)
        vz = f.vz(t)
        if floor > 0.0 and not self._support.holds(d.shape, d.body.position, floor):
            # it has moved off what it landed on: fall on to the table
            zc = f.height(t)
            omega3 = np.array([f.omega[0], f.omega[1], d.body.angular_velocity])
            self.start_flight(d, zc, vz, r, omega3, bounces=f.bounces, floor=0.0)
            return
        vx, vy = d.body.velocity
        omega = np.array([f.omega[0], f.omega[1], d.body.angular_velocity])
        self.land(d, np.array([vx, vy, vz]), omega, r, floor, f.bounces, f.height(t), f.t0 + t)

    def land(
        self,
        d: DieBody,
        v: NDArray[np.float64],
        omega: NDArray[np.float64],
        r: NDArray[np.float64],
        floor: float,
        bounces: int,
        centre: float | None = None,
        at: float | None = None,
    ) -> None:
        """Die ``d`` at orientation ``r``, moving at ``v`` (mm/s, 3) and
        turning at ``omega`` (rad/s, 3), strikes the surface ``floor`` mm
        high with its lowest point: the landing model's impact, then it
        flies on (a bounce) or pivots on its edge (:meth:`lay_flat`).

        ``centre``: the centre's height (mm) as it strikes, if its lowest
        point may have sunk below the surface (a die coming down onto the
        top of something is found there after the step: up to a step's fall
        below it, or more when its footprint reached over the top before its
        centre did, :meth:`Support.on_top`). The impact sets its lowest point
        on the surface; the potential energy of that rise is paid out of
        the motion the impact leaves it (every velocity scaled by one
        factor), so that no energy is created (the fuzz of
        benchmarks/fuzz_flicks.py found a tumbling die sunk 6 mm into a die
        it came down on gaining 1.2 %).

        ``at``: the world time of the impact, within the step just taken
        (default: its end). The die moves on from the impact as it left
        it, not from the end of the step: pymunk carried it through the step
        at its velocity before the impact, which is made good, and its
        flight is followed from the impact, through the next impact if that
        comes within the step (:meth:`fly_on`)."""
        landing = self.landing.land(v, omega, r, bounces)
        v3, w3 = landing.v, landing.omega
        rise = 0.0 if centre is None else floor - float(landing.contact[2]) - centre
        if rise > 0.0:
            kin = 0.5 * (float(v3[0] ** 2 + v3[1] ** 2 + v3[2] ** 2))
            kin += 0.5 * self._pivot.i2 * float(w3[0] ** 2 + w3[1] ** 2 + w3[2] ** 2)
            k = math.sqrt(max(kin - self._g * rise, 0.0) / kin) if kin > 0.0 else 0.0
            v3, w3 = v3 * k, w3 * k
        lag = 0.0 if at is None else max(self._ws.time - at, 0.0)
        if lag > 0.0:
            # pymunk moved it through the whole step at its velocity before
            # the impact: it has moved at the new one since the impact
            (vx0, vy0), spin0 = d.body.velocity, float(d.body.angular_velocity)
            x, y = d.body.position
            d.body.position = (x + (float(v3[0]) - vx0) * lag, y + (float(v3[1]) - vy0) * lag)
            d.body.angle = float(d.body.angle) + (float(w3[2]) - spin0) * lag
            self._ws.reindex(d.body)
        d.body.velocity = (float(v3[0]), float(v3[1]))
        d.body.angular_velocity = float(w3[2])
        x, y = d.body.position
        self._ws.events.append(
            Event(
                EventKind.LANDING,
                self._ws.time,
                d.id,
                float(x),
                float(y),
                "table" if floor == 0.0 else "top",
                landing.speed,
                face_up(r),
            )
        )
        if landing.settles:
            # what it has to pivot on with: no more than the bounce left it
            up = -float(landing.contact[2])
            kin = float(v3[0] ** 2 + v3[1] ** 2 + v3[2] ** 2)
            kin += self._pivot.i2 * float(w3[0] ** 2 + w3[1] ** 2 + w3[2] ** 2)
            self.lay_flat(d, r, w3, floor, budget=0.5 * kin + self._g * up)
        else:
            zc = floor - float(landing.contact[2])
            self.fly_on(d, zc, float(v3[2]), r, w3, floor, bounces + 1, lag)

    def fly_on(
        self,
        d: DieBody,
        z: float,
        vz: float,
        r: NDArray[np.float64],
        omega: NDArray[np.float64],
        floor: float,
        bounces: int,
        lag: float,
    ) -> None:
        """Die ``d`` bounced ``lag`` s before the end of the step just taken,
        from centre height ``z`` (mm) at vertical speed ``vz`` (mm/s),
        orientation ``r`` and angular velocity ``omega``: its free flight
        from there, up to the end of the step, then on as a planned flight;
        or, if it strikes the surface again within the step, that impact
        (:meth:`land`). Model 2.5d-9 started the flight at the end of the
        step in the state of the impact, so each bounce lost up to a step
        (4.2 ms) of fall and turn while pymunk carried the die on, and
        impacts a fraction of a millisecond apart (a corner, then its
        neighbour) came a step apart each."""
        if lag > 0.0:
            fl = solve_flight(
                z, vz, r, omega, floor, self._size, self._g, TIMESTEP, radius=self._radius
            )
            t = min(fl.t_hit, lag)
            rate = norm3(omega)
            if rate > 0.0:
                r = matmul(rotation_about(omega / rate, rate * t), r)
            z, vz = z + vz * t - 0.5 * self._g * t * t, vz - self._g * t
            if fl.t_hit < lag:
                vx, vy = d.body.velocity
                at = self._ws.time - lag + t
                self.land(d, np.array([vx, vy, vz]), omega, r, floor, bounces, z, at)
                return
        self.start_flight(d, z, vz, r, omega, bounces=bounces, floor=floor)

    def lay_flat(
        self,
        d: DieBody,
        r: NDArray[np.float64],
        omega: NDArray[np.float64],
        floor: float,
        budget: float | None = None,
    ) -> None:
        """End the bouncing: the die rests on its lowest bottom edge, tilted
        as it came down (:func:`~warlords_sim.physics.tumble.edge_contact`),
        and pivots on from there (:meth:`start_face`): it tips over, rocks
        back or hops off as the pivot's dynamics have it; a die that comes
        down flat and hardly turning lies flat at once. ``budget`` (mm^2/s^2,
        per unit mass, above the floor) is the energy the die has: the pivot
        it starts on the edge never has more (its motion is the part of the
        die's that the edge's contact allows; the rest is lost to it)."""
        ec = tumble.edge_contact(r, float(d.body.angle), omega)
        d.body.angle = ec.yaw
        d.r_rel = ec.rel
        d.flight = None
        self.set_grounded(d, floor)
        d.cocked = False
        d.lean = None
        self._ws.reindex(d.body)
        # the footprint turned to the flat yaw (up to 45 degrees): it may
        # now reach into a wall, pin or die beside it, which stops it there
        overlap.clear_overlap(self._ws, d)
        if ec.phi < _FLAT_TILT and abs(ec.rate) < self.rock_rate:
            return
        # (the set-down may have turned the die: take its axes as they are now)
        flat = self.orientation(d)
        ux, uy = tumble.roll_axis(float(d.body.angle), ec.ux, ec.uy)
        vx, vy = d.body.velocity
        if self.start_face(
            d, ux, uy, ec.rate, flat, (vx, vy), phi=ec.phi, centre=True, budget=budget
        ):
            self._ws.wake(d)
            self._ws.moved.add(d.id)
            self._ws.next_check = self._ws.steps + 1

    def side_kick(
        self, d: DieBody, nx: float, ny: float, speed: float, bottom: float, top: float
    ) -> None:
        """An airborne die struck something beside it: apply the blow
        model's kick (:meth:`SideBlowModel.kick`) and fly on."""
        f = d.flight
        assert f is not None
        vx, vy = d.body.velocity
        kick = self.blows.kick(
            f,
            self._ws.time - f.t0,
            (vx, vy),
            float(d.body.angular_velocity),
            nx,
            ny,
            speed,
            bottom,
            top,
        )
        if kick is None:
            return
        if kick.velocity is not None:
            d.body.velocity = kick.velocity
        self.start_flight(d, kick.z, kick.vz, kick.r, kick.omega, bounces=f.bounces, floor=f.floor)

    def trip(self, d: DieBody, nx: float, ny: float, speed: float) -> None:
        """A sliding die struck at ``speed`` mm/s (normal to the contact, and
        the blow model chose to trip it) catches its bottom edge and pivots
        about it towards (nx, ny), the way the blow drives it, at the blow
        model's trip spin; it rolls over as many edges as that carries it
        (:func:`~warlords_sim.physics.tumble.plan_roll`), stopping tipped
        against anything in the way (cocked if still there once it rests)."""
        w = self.blows.trip_spin(speed)
        x, y = d.body.position
        self._ws.events.append(
            Event(
                EventKind.TRIP,
                self._ws.time,
                d.id,
                float(x),
                float(y),
                speed=speed,
                face=self.face(d),
            )
        )
        self.roll(d, nx, ny, w)

    def roll(
        self,
        d: DieBody,
        dx: float,
        dy: float,
        omega: float,
        slide: tuple[float, float] | None = None,
    ) -> None:
        """Start die ``d``, lying flat, pivoting over the bottom edge toward
        (dx, dy) (along its body axis closest to that) at ``omega`` rad/s;
        the pivot is then dynamics over steps (:meth:`advance_roll`,
        :mod:`~warlords_sim.physics.pivot`): it tips over, rocks back, or
        hops off the edge as Newton's laws have it. A turn too slow to lift
        the centre by :data:`ROCK_LIFT_MM` is not followed (the die stays
        flat); if something stands where it would land it leans on it
        instead (:meth:`~warlords_sim.physics.settle.Settling.decide_cocked`).
        ``slide`` (mm/s) is how fast the edge it pivots on slides over the
        floor (default: the die's velocity); friction slows it, and it may
        turn the die faster."""
        if omega < self.rock_rate:
            return
        ux, uy = tumble.roll_axis(float(d.body.angle), dx, dy)
        vx, vy = slide if slide is not None else tuple(d.body.velocity)
        if not self.start_face(d, ux, uy, omega, self.orientation(d), (vx, vy)):
            return
        self._ws.wake(d)
        self._ws.moved.add(d.id)
        self._ws.next_check = self._ws.steps + 1

    def start_face(
        self,
        d: DieBody,
        ux: float,
        uy: float,
        omega: float,
        r0: NDArray[np.float64],
        slide: tuple[float, float] = (0.0, 0.0),
        phi: float = 0.0,
        centre: bool = False,
        budget: float | None = None,
    ) -> bool:
        """Begin turning die ``d`` (lying flat at world orientation ``r0``,
        or tilted ``phi`` rad from it) over its bottom edge toward (ux, uy)
        at ``omega`` rad/s; ``slide`` (mm/s) is the edge's slip over the
        floor, or with ``centre`` the die centre's horizontal velocity.
        False (and it leans that way) if a wall, pin or die stands where it
        would land. ``budget``: the most energy the pivot may have (per unit
        mass, mm^2/s^2, above the floor; its velocities are scaled down to it)."""
        x0, y0 = d.body.position
        a = self._size
        ahead, up = pivot_centre(phi, self._pivot)
        # turning enough to bring its centre over the edge: it would land
        # beyond, so whatever stands there stops it (a rock that falls back
        # short of the top stays where it is and is followed)
        over = 0.5 * (self._pivot.i2 + ahead * ahead + up * up) * omega * omega + self._g * up
        tips = omega > 0.0 and over >= self._g * (self._pivot.radius + self._pivot.arm)
        if tips and overlap.blocked(self._ws, d, x0 + ux * a, y0 + uy * a):
            d.lean = (ux, uy)
            return False
        d.lean = None
        rho = self._pivot.radius
        v_along = slide[0] * ux + slide[1] * uy
        cross = -slide[0] * uy + slide[1] * ux
        # the edge's centre moves at the centre's speed less the turn's share
        along = v_along - (up - rho) * omega if centre else v_along + rho * omega
        st = PivotState(phi, omega, along, cross)
        if budget is not None:
            st = self.capped(st, budget)
        ox, oy = x0 - ux * ahead, y0 - uy * ahead
        d.roll = Rolling(ux, uy, ox, oy, r0, st, st, begun=self._ws.steps)
        d.pivot.max_force = 0.0
        d.gear.max_force = 0.0
        d.body.angular_velocity = 0.0
        self.send_roll(d)
        return True

    def capped(self, st: PivotState, budget: float) -> PivotState:
        """``st`` with its velocities scaled down, if need be, so that its
        energy (per unit mass, above the floor) is at most ``budget``: a
        change of contact (an edge taking the die, a blow folded into the
        pivot) only ever loses energy."""
        e = pivot_energy(st, self._pivot)
        pot = self._g * pivot_centre(st.phi, self._pivot)[1]
        if e <= budget or e <= pot:
            return st
        f = math.sqrt(max(budget - pot, 0.0) / (e - pot))
        return replace(st, rate=st.rate * f, along=st.along * f, cross=st.cross * f)

    def roll_target(self, ro: Rolling, st: PivotState) -> tuple[float, float]:
        """Where the centre of the die pivoting as ``ro`` is at state ``st``."""
        ahead, _ = pivot_centre(st.phi, self._pivot)
        along = st.s + ahead
        return ro.ox + ro.ux * along - ro.uy * st.t, ro.oy + ro.uy * along + ro.ux * st.t

    def send_roll(self, d: DieBody, at: tuple[float, float] | None = None) -> None:
        """Work out the pivot's next step and set the body's velocity so
        that the step takes its centre there (``at``: where the body is, if
        the caller has just read it)."""
        ro = d.roll
        assert ro is not None
        ro.next, ro.end = pivot_advance(ro.state, TIMESTEP, self._pivot)
        tx, ty = self.roll_target(ro, ro.next)
        x, y = d.body.position if at is None else at
        ro.sent = ((tx - x) / TIMESTEP, (ty - y) / TIMESTEP)
        d.body.velocity = ro.sent
        d.body.angular_velocity = 0.0  # it turns about the edge, not about z

    def advance_roll(self, d: DieBody) -> None:
        """After a step: the pivoting die is where the pivot's step sent it.
        Then, as the step ended: it pivots on; it hops off the edge (a
        flight); it lands on the next face or back on the one it left, an
        impact about the edge it lands on that keeps 1/4 of its turning rate
        (angular momentum about that edge, rigid cube), and pivots on over
        that edge while that can lift it, else lies flat there."""
        ro = d.roll
        assert ro is not None
        tx, ty = self.roll_target(ro, ro.next)
        x, y = d.body.position
        vx, vy = d.body.velocity
        dvx, dvy = vx - ro.sent[0], vy - ro.sent[1]
        sent2 = ro.sent[0] * ro.sent[0] + ro.sent[1] * ro.sent[1]
        if dvx * ro.sent[0] + dvy * ro.sent[1] < -_CONTACT_DV * (sent2 + 1.0):
            # it ran into something (a contact pushing back against its
            # motion): the pivot ends there, lying on the face nearer up,
            # tipped against what stopped it, sliding on at the velocity the
            # contact left it with (its turning is lost to the blow). Driven
            # on, it would press through walls and pins step after step
            # (saved cases in tests/test_physics_tunnelling.py)
            r = ro.r0
            if ro.next.phi > math.pi / 4.0:
                r = tumble.quarter_turn(ro.r0, ro.ux, ro.uy)
                px, py = d.body.position
                self._ws.events.append(
                    Event(
                        EventKind.LANDING,
                        self._ws.time,
                        d.id,
                        float(px),
                        float(py),
                        "table" if d.floor == 0.0 else "top",
                        abs(ro.next.rate) * self._size,
                        face_up(r),
                    )
                )
            self.end_roll(d, r, lean=(ro.ux, ro.uy), slide=(float(vx), float(vy)))
            return
        if dvx != 0.0 or dvy != 0.0:
            # struck from behind or the side in the step (pymunk's impulse
            # from a die that met it): the blow's change of the centre's velocity is the pivot's
            # too, taken at the centre's height (the plane shows no more), so
            # momentum and energy pass between the dice as pymunk solved them
            nxt = ro.next
            # what pymunk's blow did to the energy of the body it moved
            gain = 0.5 * (vx * vx + vy * vy - ro.sent[0] ** 2 - ro.sent[1] ** 2)
            budget = pivot_energy(nxt, self._pivot) + gain
            ro.next = self.capped(
                replace(
                    nxt,
                    along=nxt.along + dvx * ro.ux + dvy * ro.uy,
                    cross=nxt.cross - dvx * ro.uy + dvy * ro.ux,
                ),
                budget,
            )
            # and the path goes on from where the blow moved it
            ro.ox, ro.oy = ro.ox + x - tx, ro.oy + y - ty
        ro.state = ro.next
        st = ro.state
        if ro.end is PivotEnd.NONE:
            self.send_roll(d, (x, y))
            return
        slip = self.roll_slip(ro, st)
        if ro.end is PivotEnd.HOP:
            self.hop(d, ro)
            return
        # it comes down flat on the next face (or back on the one it left):
        # the far edge of that face strikes the floor, an impact of the
        # landing model (restitution, friction), after which it bounces or
        # pivots on as that leaves it
        forward = ro.end is PivotEnd.NEXT_FACE
        r1 = tumble.quarter_turn(ro.r0, ro.ux, ro.uy) if forward else ro.r0
        d.body.position = self.roll_target(ro, st)
        self._ws.reindex(d.body)
        ahead, up = pivot_centre(st.phi, self._pivot)
        vu = st.along + (up - self._pivot.radius) * st.rate
        v3 = np.array(
            [ro.ux * vu - ro.uy * st.cross, ro.uy * vu + ro.ux * st.cross, -ahead * st.rate]
        )
        w3 = np.array([-ro.uy * st.rate, ro.ux * st.rate, 0.0])
        d.roll = None
        d.r_rel = tumble.lay_flat(r1, float(d.body.angle))[1]
        if not self._board.on_board(*d.body.position):
            self.end_roll(d, r1, slide=slip)  # rolled off the open edge: _check_die takes it
            return
        self.land(d, v3, w3, r1, d.floor, 0)

    def roll_slip(self, ro: Rolling, st: PivotState) -> tuple[float, float]:
        """The pivoting edge's slip over the floor at ``st``, mm/s (board frame)."""
        along = st.along - self._pivot.radius * st.rate
        return ro.ux * along - ro.uy * st.cross, ro.uy * along + ro.ux * st.cross

    def hop(self, d: DieBody, ro: Rolling) -> None:
        """The floor can no longer hold the pivoting edge: the die flies off
        it with the pivot's motion (centre velocity, turning rate) at the
        turn it has reached."""
        st = ro.state
        ahead, up = pivot_centre(st.phi, self._pivot)
        height = up - self._pivot.radius
        # centre velocity: the edge's motion plus the turn about it
        vu = st.along + height * st.rate
        vz = -ahead * st.rate
        d.body.velocity = (ro.ux * vu - ro.uy * st.cross, ro.uy * vu + ro.ux * st.cross)
        axis = (-ro.uy, ro.ux, 0.0)
        r = matmul(rotation_about(axis, st.phi), ro.r0)
        omega = np.array([axis[0] * st.rate, axis[1] * st.rate, 0.0])
        x, y = d.body.position
        self._ws.events.append(
            Event(
                EventKind.HOP,
                self._ws.time,
                d.id,
                float(x),
                float(y),
                speed=abs(st.rate) * self._size,
            )
        )
        self.start_flight(d, d.floor + up, vz, r, omega, floor=d.floor)

    def end_roll(
        self,
        d: DieBody,
        r: NDArray[np.float64],
        lean: tuple[float, float] | None = None,
        slide: tuple[float, float] = (0.0, 0.0),
    ) -> None:
        """The roll is over: the die lies flat at world orientation ``r``
        (an exact cube rotation) where it is, sliding on at ``slide`` mm/s;
        ``lean`` is the way it leans on what stopped it, if anything did."""
        # exact, in the frame of the die's own yaw (a blow while it pivoted may
        # have turned the body: the yaw comes from the die's axes, not it)
        yaw, d.r_rel = tumble.lay_flat(r, float(d.body.angle))
        if yaw != d.body.angle:
            d.body.angle = yaw
            self._ws.reindex(d.body)
        d.roll = None
        d.lean = lean
        d.body.velocity = slide
        d.body.angular_velocity = 0.0
        self.set_grounded(d, d.floor)

    def slide_off_ledge(self, d: DieBody, off: tumble.LedgeLaunch, z0: float) -> None:
        """Die ``d``, flicked from a ledge, leaves it ``off.time`` s after
        the flick (``off``: its state then, its centre ``z0`` mm high). It
        slides over the ledge for the steps until then, and flies from the
        first step boundary after it, in the state its free flight has
        reached there. Model 2.5d-9 started the flight as the flick began,
        leaving the time on the ledge out of the clock (the first landing of
        a 900 mm/s high launch at 83 ms against the reference's 91 ms; saved
        case in tests/test_physics_ledge.py)."""
        x, y = d.body.position
        wait = math.ceil(off.time / TIMESTEP - 1e-9) if off.time > 0.0 else 0
        tau = wait * TIMESTEP - off.time  # the free flight before that boundary
        w = off.omega
        rate = norm3(w)
        r = off.r if rate == 0.0 else matmul(rotation_about(w / rate, rate * tau), off.r)
        state = OnLedge(
            self._ws.steps + wait,
            x + off.dx + off.vx * tau,
            y + off.dy + off.vy * tau,
            z0 + off.vz * tau - 0.5 * self._g * tau * tau,
            off.vx,
            off.vy,
            off.vz - self._g * tau,
            r,
            w,
            float(d.body.angle) + float(w[2]) * (off.time + tau),
            z0 + off.drop,
        )
        if wait == 0:
            d.ledge = state
            self.leave_ledge(d)
            return
        # over the ledge: the body moves at the speed that brings it there,
        # turning at its yaw rate
        d.body.velocity = ((state.x - x) / (wait * TIMESTEP), (state.y - y) / (wait * TIMESTEP))
        d.body.angular_velocity = float(w[2])
        d.ledge = state

    def leave_ledge(self, d: DieBody) -> None:
        """The die flicked from a ledge has left it: its flight starts."""
        st = d.ledge
        assert st is not None
        d.ledge = None
        d.body.position = (st.x, st.y)
        d.body.angle = st.yaw
        d.body.velocity = (st.vx, st.vy)
        self._ws.reindex(d.body)
        self.start_flight(d, st.z, st.vz, st.r, st.omega)
