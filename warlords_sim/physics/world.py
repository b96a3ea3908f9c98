"""The physics world: the board's bodies in pymunk, dice that slide, fly,
bounce and tumble, and a flick resolved until everything is at rest.

This module orchestrates: it owns the bodies, steps the space, and
packages the results. Each job lives in a module of its own and is called
from here:

* :mod:`~warlords_sim.physics.world_base`: the dice's bookkeeping, pins,
  siege engine and walls in force, and the checks of their inputs (shared
  with the reference and the rules' scripted physics);
* :mod:`~warlords_sim.physics.bodies`: the state the jobs share (the
  space, each die's record, the clock, the event log);
* :mod:`~warlords_sim.physics.shapes`: the pymunk shapes and their materials;
* :mod:`~warlords_sim.physics.collisions`: the collision callbacks, which
  only record;
* :mod:`~warlords_sim.physics.settle`: what is due after a step, and
  coming to rest;
* :mod:`~warlords_sim.physics.motion`: a die's flight, bounces, edge
  catches, pivots, hops and ledge exits (the state machine), built on the
  models of :mod:`~warlords_sim.physics.flight`,
  :mod:`~warlords_sim.physics.impact`, :mod:`~warlords_sim.physics.tumble`,
  :mod:`~warlords_sim.physics.pivot` and :mod:`~warlords_sim.physics.support`;
* :mod:`~warlords_sim.physics.overlap`: a die moved out of what it overlaps;
* :mod:`~warlords_sim.physics.launch`: how a flick or a drop starts;
* :mod:`~warlords_sim.physics.digest`: the settled state's digest and
  rest state (their byte layout is part of the replay contract).

Contract
--------
* Imports pymunk and numpy, never pyglet and never the rules. The rules
  layer hands in :class:`~warlords_sim.physics.types.Flick` values and reads
  back :class:`~warlords_sim.physics.types.FlickResult` values and the event
  log; collision callbacks only record events.
* Units: mm, g, s, rad; board frame (origin at the centre, x right, y up).
* Fixed timestep :data:`TIMESTEP` (1/240 s). No randomness at all: noise is
  the caller's business, on the flick's inputs. Same inputs, same platform,
  same pymunk: bitwise the same results. Copies of one world
  (:meth:`World.copy`) continue bitwise identically to each other; a copy
  follows its original closely, not bit for bit
  (see there).
* The 2.5D model (design brief section 2): pymunk moves each die in the
  plane as a 16 mm square; Coulomb table friction comes from a PivotJoint and
  a GearJoint to the static body with ``max_bias = 0`` and ``max_force`` =
  mu m g (the recipe of pymunk's ``examples/tank.py``). A die also has a
  height, a vertical speed and a full 3D orientation
  (:mod:`~warlords_sim.physics.flight`): in the air it passes over anything
  lower than its lowest point (collision filters by height band), lands,
  bounces, and comes to rest on a face chosen by the motion.
* At rest (when a flick has settled, and after every change between
  flicks) every die lies flat in an exact cube rotation, overlaps no wall,
  pin, engine or die it collides with, stands on what is under it (a die
  whose support was moved or removed has fallen), and is ``cocked`` only
  if it rests on a die or is tipped against something still beside it
  (tests/test_physics_faults.py).
* Maximum flick speed :data:`MAX_FLICK_SPEED` (2000 mm/s): a die then moves
  8.3 mm a step, less than the 11 mm of die half-width plus pin radius and
  the 11 mm of die half-width plus half the thinnest wall (the 6 mm side
  walls), so it cannot pass through a pin or wall between two steps (pymunk
  has no swept collision). A die that pivots is moved by a velocity the
  pivot sets before every step; the velocity a contact leaves it with is
  folded into the pivot (:meth:`~warlords_sim.physics.motion.DieMotion.advance_roll`),
  which would otherwise overwrite the contact's answer step after step.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pymunk
from numpy.typing import NDArray

from warlords_sim import stop
from warlords_sim.board import Board
from warlords_sim.physics import launch, overlap
from warlords_sim.physics.bodies import TIMESTEP, DieBody, WorldState
from warlords_sim.physics.checks import MAX_FLICK_SPEED, MAX_FLICK_SPIN, die_id_problem
from warlords_sim.physics.collisions import ContactRecorder
from warlords_sim.physics.digest import (
    DieRecord,
    check_rest_die,
    parse_rest_state,
    rest_state,
    world_digest,
)
from warlords_sim.physics.flight import HeightBands
from warlords_sim.physics.footprint import square, standing_walls
from warlords_sim.physics.impact import die_inertia
from warlords_sim.physics.linalg3 import matmul
from warlords_sim.physics.motion import DieMotion
from warlords_sim.physics.orientation import (
    face_up,
    orientation_index,
    rotation_z,
    with_face_up,
)
from warlords_sim.physics.regions import classify
from warlords_sim.physics.settle import REST_SPEED, REST_SPIN, Settling
from warlords_sim.physics.shapes import (
    Materials,
    add_die_parts,
    engine_shape,
    pin_shape,
    wall_shape,
)
from warlords_sim.physics.support import Support
from warlords_sim.physics.types import (
    DiePose,
    Event,
    EventKind,
    Flick,
    FlickResult,
    LaunchKind,
    WorldError,
)
from warlords_sim.physics.world_base import WorldBase

__all__ = [
    "MAX_FLICK_SPEED",
    "MAX_FLICK_SPIN",
    "REST_SPEED",
    "REST_SPIN",
    "TIMESTEP",
    "World",
    "WorldError",
]

# pymunk calls Python back from C (collision handlers, the results of every
# query, a space's finalizer), where an exception is printed and lost: a
# Ctrl-C or SIGTERM that comes there is raised by step() instead (issue 18)
stop.defer_inside("pymunk")


class World(WorldBase[DieBody]):
    """The board, its pins and the dice on it, simulated in pymunk.

    Args:
        board: the validated board (its die a cube: see ``DieSpec.sides_mm``).
        castle_seats: seats whose castles stand (three players: the fourth
            place is closed by the three-player wall).
        side_walls: whether the optional side walls stand (wall variants).

    A :class:`World` is mutable; :meth:`copy` gives an independent one.

    Raises:
        WorldError: the board's die is not a cube; a castle seat not in
            0..3 or given twice.
    """

    def __init__(
        self,
        board: Board,
        castle_seats: Sequence[int] = (0, 1, 2, 3),
        side_walls: bool = False,
    ) -> None:
        if not board.die.cubic:
            sides = ", ".join(f"{v:g}" for v in board.die.sides_mm)
            raise WorldError(
                f"{board.path}: die.sides_mm [{sides}] is not a cube of size_mm "
                f"{board.die.size_mm:g}: the 2.5D engine models cubic dice only "
                "(use the reference engine)"
            )
        super().__init__(board, castle_seats, side_walls)
        space = pymunk.Space()
        space.iterations = 10
        self._ws = WorldState(board, space)
        self._dice = self._ws.dice
        self._pins: dict[int, pymunk.Circle] = {}
        self._walls: list[pymunk.Shape] = []
        self._engine: pymunk.Poly | None = None
        self._engine_xy: tuple[float, float] | None = None
        die = board.die
        #: the die's one moment of inertia about its centre per unit mass
        #: (mm^2): the rounded cube's, in the flight, landings, pivot,
        #: strikes, ledge exit, side kicks and pymunk's turning in the plane
        self._i2 = die_inertia(die) / die.mass_g
        # height bands: one collision category per distinct obstacle height
        self._bands = HeightBands.of_board(board)
        self._support = support = Support(space, self._bands, board)
        self._motion = DieMotion.of_board(self._ws, board, self._bands, support, self._i2)
        self._settling = Settling(self._ws, self._motion, support)
        self._materials = Materials.of_board(board)
        self._build_static()
        self._collisions = ContactRecorder(self._ws, self._motion, support, self._bands, self._pins)
        self._collisions.install(space)

    @property
    def space(self) -> pymunk.Space:
        """The pymunk space (for measurements and drawing, never to change it)."""
        return self._ws.space

    @property
    def time(self) -> float:
        """Simulated time, s."""
        return self._ws.time

    @property
    def steps(self) -> int:
        """Steps taken."""
        return self._ws.steps

    # ------------------------------------------------------------------ build

    def _build_static(self) -> None:
        space = self._ws.space
        for shape in self._walls:
            space.remove(shape)
        self._walls = []
        for _, w in standing_walls(self.board, self.castle_seats, self.side_walls):
            shape = wall_shape(space.static_body, self.board, self._bands, self._materials, w)
            space.add(shape)
            self._walls.append(shape)

    def _walls_changed(self) -> None:
        """The walls changed (:meth:`set_walls`): rebuilt; what they held falls."""
        self._ws.poses.clear()
        self._build_static()
        self._settle_after_change()

    # ------------------------------------------------------------------- pins

    def _put_pin(self, hole: int) -> None:
        space = self._ws.space
        shape = pin_shape(space.static_body, self.board, self._bands, self._materials, hole)
        space.add(shape)
        self._pins[hole] = shape

    def _take_pin(self, hole: int) -> None:
        """A die leaning on the pin drops back flat (:meth:`_settle_after_change`)."""
        self._ws.space.remove(self._pins.pop(hole))
        self._settle_after_change()

    def _replace_pins(self, holes: list[int]) -> None:
        for hole in list(self._pins):
            self._ws.space.remove(self._pins.pop(hole))
        for hole in holes:
            self.add_pin(hole)
        self._settle_after_change()

    # --------------------------------------------------------- siege engine

    def _put_engine(self, x: float, y: float) -> None:
        self._remove_engine()
        space = self._ws.space
        shape = engine_shape(space.static_body, self.board, self._bands, self._materials, x, y)
        space.add(shape)
        self._engine = shape
        self._engine_xy = (x, y)
        self._settle_after_change()

    def _take_engine(self) -> None:
        """A die on top of the engine falls and settles at once
        (:meth:`_settle_after_change`)."""
        self._remove_engine()
        self._settle_after_change()

    def _remove_engine(self) -> None:
        if self._engine is not None:
            self._ws.space.remove(self._engine)
        self._engine = None
        self._engine_xy = None

    def _clear_test(self, width: float, exclude_die: int | None) -> Callable[[float, float], bool]:
        d = None if exclude_die is None else self._dice.get(exclude_die)
        return overlap.square_clear(self._ws, self._bands, width, None if d is None else d.shape)

    # ------------------------------------------------------------------- dice

    def add_die(self, die: int, x: float, y: float, face: int = 1, angle: float = 0.0) -> None:
        """Put die ``die`` at rest at (x, y) mm with ``face`` up, turned ``angle`` rad.

        Raises:
            WorldError: an id not an integer 0..2**31-1
                (:data:`~warlords_sim.physics.types.MAX_DIE_ID`), the id is
                taken, the place is off the board, or the die would overlap
                a wall, pin, die or the siege engine there (by more than
                0.1 mm; :func:`~warlords_sim.physics.footprint.what_overlaps`
                names it, as for the reference).
            ValueError: face not in 1..6.
        """
        self._check_new_die(die, x, y, angle)
        size = self.board.die.size_mm
        feet = {}
        for i, d in self._dice.items():
            bx, by = d.body.position
            feet[i] = square(float(bx), float(by), float(d.body.angle), size)
        blocker = self._overlapped(square(x, y, angle, size - 0.2), feet)
        if blocker is not None:
            raise WorldError(f"a die at ({x:g}, {y:g}) mm would overlap {blocker}")
        self._create_die(die, x, y, face, angle)

    def _create_die(self, die: int, x: float, y: float, face: int, angle: float) -> None:
        self._check_new_die(die, x, y, angle)
        r_rel = with_face_up(face)
        ws = self._ws
        ws.hand_moved = True
        parts = add_die_parts(
            ws.space, self.board, self._bands, self._materials, self._i2, x, y, angle
        )
        d = DieBody(die, parts.body, parts.shape, parts.pivot, parts.gear, r_rel)
        ws.add(d)
        self._motion.set_grounded(d, 0.0)
        ws.rested(d)

    def _take_die(self, die: int) -> None:
        """What the die held up falls and settles at once
        (:meth:`_settle_after_change`)."""
        self._ws.remove(die)
        self._settle_after_change()

    def move_die(self, die: int, x: float, y: float, angle: float | None = None) -> None:
        """Lift die ``die`` and set it down at rest at (x, y) mm, same face up.

        Used by the Spy ability and by gateway dice moved into the courtyard.
        A die it held up (standing on it, or leaning on it) falls or drops
        back flat and settles before this returns
        (:meth:`_settle_after_change`), so every :meth:`pose` afterwards is
        a die at rest on what is really under it.

        Raises:
            WorldError: no such die, a place off the board or not finite.
        """
        self._move_die(die, x, y, angle)
        self._settle_after_change()

    def _move_die(self, die: int, x: float, y: float, angle: float | None = None) -> None:
        self._motion.set_down(self._check_move(die, x, y, angle), x, y, angle)

    def pose(self, die: int) -> DiePose:
        """The current pose of die ``die`` (meaningful once at rest; cached
        for dice at rest).

        Raises:
            WorldError: no such die.
        """
        cached = self._ws.poses.get(die)
        if cached is not None:
            return cached
        d = self._get(die)
        x, y = d.body.position
        r = self._motion.orientation(d)
        pose = DiePose(
            die=die,
            x=float(x),
            y=float(y),
            angle=float(d.body.angle),
            face=face_up(r),
            orientation=orientation_index(d.r_rel),
            region=classify(self.board, float(x), float(y), float(d.body.angle), self.castle_seats),
            cocked=d.cocked,
            elevation_mm=d.floor,
        )
        if die not in self._ws.active:
            self._ws.poses[die] = pose
        return pose

    def face(self, die: int) -> int:
        """Face up of die ``die`` now (WorldError: no such die)."""
        return self._motion.face(self._get(die))

    def height(self, die: int) -> float:
        """Height (mm) of the centre of die ``die`` above the board surface
        (WorldError: no such die)."""
        return self._motion.height(self._get(die))

    def energy(self, die: int) -> float:
        """Kinetic plus potential energy of die ``die`` now, g mm^2/s^2 (nJ)
        (:meth:`~warlords_sim.physics.motion.DieMotion.energy`).

        Raises:
            WorldError: no such die.
        """
        return self._motion.energy(self._get(die))

    def orientation(self, die: int) -> NDArray[np.float64]:
        """World orientation (3x3) of die ``die`` now (for drawing;
        WorldError: no such die)."""
        return self._motion.orientation(self._get(die))

    # ------------------------------------------------------------- stepping

    def step(self) -> None:
        """Advance one timestep and do what the step made due.

        Raises:
            KeyboardInterrupt: a stop was requested (Ctrl-C or SIGTERM within
                :func:`warlords_sim.stop.handling_signals`), after the step;
                a signal that came inside one of pymunk's C callbacks is
                raised here, in plain Python, instead of being lost.
            whatever a collision callback raised during the step (a bug, or
                a KeyboardInterrupt outside the command line), after the step.
        """
        ws = self._ws
        ws.space.step(TIMESTEP)
        ws.hand_moved = False
        rec = self._collisions
        if rec.error is not None:
            error, rec.error = rec.error, None
            raise error
        ws.steps += 1
        ws.time = ws.steps * TIMESTEP
        if ws.dirty or ws.steps >= ws.next_check:
            self._settling.after_step(self.side_walls)
        if stop.requested_signum is not None:  # a Ctrl-C or SIGTERM came
            stop.check()

    def _settle_after_change(self) -> None:
        """After a change between flicks (a die moved or removed, a pin
        pulled, walls or the engine changed): a die whose support has gone
        falls and everything settles now, simulated as in a flick (its events
        join :attr:`events`), and every lean is re-decided. During a flick
        (dice moving) nothing is done here: the running flick checks
        supports and leans itself."""
        ws = self._ws
        if ws.active:
            return
        support = self._support
        for i in sorted(ws.dice):
            d = ws.dice[i]
            if d.floor > 0.0 and not support.holds(d.shape, d.body.position, d.floor):
                self._motion.fall(d)
        if ws.active:
            self.run_until_settled()  # ends with decide_all_cocked
        else:
            self._settling.decide_all_cocked()

    # ---------------------------------------------------------------- flicks

    def _start_events(self) -> None:
        ws = self._ws
        ws.events = []
        ws.exited = []
        ws.touched = set()
        ws.moved = set()

    def begin_flick(self, flick: Flick, face: int | None = None) -> int:
        """Launch a flick; step with :meth:`step` until :attr:`settled`.

        A die flicked from a crenelation or the siege engine is (re)placed at
        ``flick.start`` (added if not in the world, with ``face`` up, default
        1); a TABLE flick starts the die where it rests (or at ``flick.start``).
        How it starts moving: :mod:`~warlords_sim.physics.launch`.

        Returns:
            The face up of the die at launch.

        Raises:
            FlickError: see :meth:`validate`.
        """
        self.validate(flick)
        ws, motion = self._ws, self._motion
        self._start_events()
        sx, sy = flick.start if flick.start is not None else (0.0, 0.0)
        if flick.die not in self._dice:
            self._create_die(flick.die, sx, sy, face if face is not None else 1, 0.0)
        d = self._dice[flick.die]
        if face is not None:
            d.r_rel = with_face_up(face)
        if flick.start is not None:
            # picked up and put at the start: a die it held up falls during
            # the flick (the moved die must not be pushed by a settle here)
            self._move_die(flick.die, sx, sy)
        initial = motion.face(d)
        start = launch.table_start(flick, self.board, self._i2)
        vx, vy = start.vx, start.vy
        motion.launch(d, vx, vy, start.spin)
        x, y = d.body.position
        ws.events.append(
            Event(
                EventKind.LAUNCH,
                ws.time,
                d.id,
                float(x),
                float(y),
                flick.launch.value,
                flick.speed,
                initial,
            )
        )
        pitch = launch.strike_pitch(flick, start.struck, self.board.die.size_mm)
        if pitch is not None:
            motion.roll(d, pitch.dx, pitch.dy, pitch.omega, slide=pitch.slide)
        if flick.launch is not LaunchKind.TABLE:
            # it slides off the ledge (a crenelation or the engine's top):
            # the overhang is solved in closed motion, the flight starts as
            # it leaves the edge, the ledge's time after the flick
            edge = launch.ledge_edge(
                flick, self.board, self.castle_seats, self.side_walls, self._engine_xy
            )
            off, z0 = launch.ledge_exit(
                flick, self.board, self._i2, vx, vy, motion.orientation(d), edge
            )
            # it starts above everything lower than its launch height, so that
            # coming down over a taller obstacle lands it on top
            motion.set_mask(d, self._bands.mask_above(flick.height_mm))
            motion.slide_off_ledge(d, off, z0)
        ws.next_check = ws.steps + 1
        return initial

    def drop(
        self,
        die: int,
        position: tuple[float, float, float],
        velocity: tuple[float, float, float],
        rotation: NDArray[np.float64],
        omega: tuple[float, float, float],
    ) -> int:
        """Let die ``die`` go in free flight above the table, from a full 3D
        state (a die tossed by hand, or a measured toss: the fidelity
        layer's ``fidelity --tosses``); step with :meth:`step` until
        :attr:`settled`.

        The die (added if not in the world) flies from there as any
        airborne die of this model does (:mod:`~warlords_sim.physics.flight`:
        exact ballistic flight, constant spin), then lands, bounces and
        tumbles by the same models as after a launch; nothing of the model
        is changed or bypassed. No flick limit applies (the speed limit
        guards against tunnelling through walls and pins at the game's die
        size); the start must be clear of the table.

        Args:
            die: the die's id (0..:data:`~warlords_sim.physics.types.MAX_DIE_ID`).
            position: its centre (x, y, z), mm, board frame; z above the
                board surface.
            velocity: its centre's velocity (vx, vy, vz), mm/s.
            rotation: its orientation (3x3, column i the world direction
                of body axis i; a proper rotation within 1e-6).
            omega: its angular velocity (rad/s, world frame).

        Returns:
            The face up at the start.

        Raises:
            WorldError: a bad id, numbers not finite, (x, y) off the board,
                a rotation that is not one, or a start whose lowest point
                (of the die rounded to ``die.edge_radius_mm``) is not above
                the board surface.
        """
        problem = die_id_problem(die)
        if problem is not None:
            raise WorldError(problem)
        r = launch.check_drop(self.board, position, velocity, rotation, omega)
        x, y, z = (float(v) for v in position)
        self._check_point(x, y, "drop position")
        launch.drop_clearance(self.board, z, r)
        ws = self._ws
        self._start_events()
        if die not in self._dice:
            self._create_die(die, x, y, 1, 0.0)
        d = self._dice[die]
        yaw = launch.drop_yaw(r)
        self._move_die(die, x, y, yaw)
        d.r_rel = matmul(rotation_z(-yaw), r)  # plain floats: the same bits on every CPU
        initial = face_up(r)
        d.body.velocity = (float(velocity[0]), float(velocity[1]))
        ws.events.append(
            Event(
                EventKind.LAUNCH,
                ws.time,
                die,
                x,
                y,
                "drop",
                float(math.hypot(velocity[0], velocity[1])),
                initial,
            )
        )
        self._motion.start_flight(d, z, float(velocity[2]), r, np.array([float(w) for w in omega]))
        ws.next_check = ws.steps + 1
        return initial

    @property
    def timestep(self) -> float:
        """The fixed timestep of :meth:`step`, s (:data:`TIMESTEP`)."""
        return TIMESTEP

    @property
    def settled(self) -> bool:
        """True when no die moves (all grounded and at rest)."""
        return not self._ws.active

    def run_until_settled(self, max_time: float = 60.0) -> int:
        """Step until everything is at rest; returns the steps taken.

        Raises:
            WorldError: still moving after ``max_time`` simulated seconds.
        """
        ws = self._ws
        start = ws.steps
        limit = start + int(max_time / TIMESTEP)
        step = self.step
        while True:
            step()
            if not ws.active:
                return ws.steps - start
            if ws.steps >= limit:
                raise WorldError(f"dice still moving after {max_time} s")

    def flick(self, flick: Flick, face: int | None = None, max_time: float = 60.0) -> FlickResult:
        """Simulate ``flick`` until everything is at rest.

        Args:
            flick: the flick.
            face: face up at launch for a die entering from the supply
                (default 1; ignored for a die already in the world unless given).
            max_time: simulated seconds before giving up.

        Returns:
            The :class:`FlickResult` (poses of every die, exits, events, digest).

        Raises:
            FlickError: bad inputs (see :meth:`validate`).
            WorldError: still moving after ``max_time``.
        """
        t0 = self.time
        initial = self.begin_flick(flick, face)
        steps = self.run_until_settled(max_time)
        return self.result(flick, initial, steps, self.time - t0)

    def result(self, flick: Flick, initial_face: int, steps: int, settle_s: float) -> FlickResult:
        """Package the settled state after ``flick``."""
        ws = self._ws
        return FlickResult(
            flick=flick,
            poses={i: self.pose(i) for i in sorted(self._dice)},
            exited=tuple(ws.exited),
            events=tuple(ws.events),
            steps=steps,
            settle_s=settle_s,
            digest=self.digest(),
            initial_face=initial_face,
            touched=frozenset(ws.touched),
        )

    @property
    def events(self) -> tuple[Event, ...]:
        """Events since the last flick began, including those of any
        settling after a change between flicks (a die falling when its
        support is moved or removed)."""
        return tuple(self._ws.events)

    # ------------------------------------------------------------ identity

    def _records(self) -> list[DieRecord]:
        out = []
        for i in sorted(self._dice):
            d = self._dice[i]
            x, y = d.body.position
            out.append(DieRecord(i, x, y, d.body.angle, d.r_rel, d.floor, d.cocked))
        return out

    def digest(self) -> str:
        """SHA-256 (hex) of the state: every die's id, position, angle (the
        exact float64 bits), orientation, floor and cocked flag; the pins;
        the siege engine; the walls in force
        (:func:`~warlords_sim.physics.digest.world_digest`)."""
        return world_digest(
            self._records(), self._pins, self._engine_xy, self.side_walls, self.castle_seats
        )

    def rest_state(self) -> dict[str, Any]:
        """The settled world as plain data (JSON keeps every float's bits):
        what :meth:`digest` hashes (:func:`~warlords_sim.physics.digest.rest_state`).
        A network host sends it to a client whose re-simulation differed
        (:meth:`take_rest_state`).

        Raises:
            WorldError: a die is still moving.
        """
        if not self.settled:
            raise WorldError("the world's state is taken only at rest (a die is moving)")
        return rest_state(
            self._records(), self._pins, self._engine_xy, self.castle_seats, self.side_walls
        )

    def take_rest_state(self, state: Mapping[str, Any]) -> None:
        """Make this world the settled world ``state`` describes (as
        :meth:`rest_state` gives it, from another world of the same board):
        dice added, removed and set down bit for bit, the pins, the siege
        engine and the walls; afterwards :meth:`digest` is the other
        world's. Nothing is settled afterwards: the state was at rest.

        Raises:
            WorldError: a field missing or of the wrong type, a die off the
                board, an orientation that is not a rotation (the world is
                then unchanged only up to the dice already set).
        """
        rs = parse_rest_state(state)
        for rec in rs.dice.values():
            self._check_point(rec.x, rec.y, "die position")
            check_rest_die(rec)
        ws = self._ws
        # what else stands first: each change settles the dice it moved,
        # which are then set down where the state has them
        for i in [i for i in self._dice if i not in rs.dice]:
            ws.remove(i)
        if (list(self.castle_seats), self.side_walls) != (rs.castle_seats, rs.side_walls):
            self.set_walls(rs.castle_seats, rs.side_walls)
        if list(self._pins) != rs.pins:
            self.set_pins(rs.pins)
        if rs.engine is None:
            if self._engine_xy is not None:
                self.remove_siege_engine()
        elif self._engine_xy is None or self._engine_xy != rs.engine:
            if self._engine_xy is not None:
                self.remove_siege_engine()
            self.place_siege_engine(*rs.engine)
        for i, rec in rs.dice.items():
            if i not in self._dice:
                self._create_die(i, rec.x, rec.y, 1, rec.angle)
            d = self._dice[i]
            self._motion.set_rest(d, rec.x, rec.y, rec.angle, rec.r_rel, rec.floor, rec.cocked)
        ws.poses.clear()

    def copy(self) -> World:
        """An independent deep copy, mid-flick or not.

        Two copies of one world continue bitwise identically to each other.
        The copy follows this world bit for bit only while pymunk meets the
        same contacts in the same order, which fails in two known cases,
        each kept as a strict xfail: taken during a contact, pymunk 7.3
        restores the contact's solver state slightly differently (parting by
        ~1e-3 mm a step, tests/test_physics_determinism.py); and taken at
        rest, a later step where three or more dice touch at once may meet
        their contacts in another order, because the copy's spatial index is
        built afresh, not with this world's history (and a joint's
        accumulated impulse is not copied). Over a four-player aim game a
        third of the actions then end apart by 0.02 mm at the median (at most
        a few mm), never with a die in another place (tests/test_rules_snapshot.py,
        ``benchmarks/copies.py``)."""
        memo: dict[int, object] = {id(self.board): self.board}  # immutable: share it
        return copy.deepcopy(self, memo)
