"""The reference world: the board and its dice as 3D rigid bodies in MuJoCo,
behind the same physics port as the 2.5D :class:`~warlords_sim.physics.World`.

Contract
--------
* Same methods, value objects and errors as the 2.5D world (the ``Physics``
  protocol of :mod:`warlords_sim.rules.physics_port`): flicks in
  (:class:`~warlords_sim.physics.types.Flick`), settled
  :class:`~warlords_sim.physics.types.FlickResult` out; bad flick inputs
  raise :class:`~warlords_sim.physics.types.FlickError`, impossible requests
  :class:`~warlords_sim.physics.world.WorldError`. Faces come from
  :func:`~warlords_sim.physics.orientation.face_up` of the body's rotation,
  regions from :func:`~warlords_sim.physics.regions.classify`.
* Units mm, g, s, rad at the interface; board frame; z up from the board.
* The state between flicks lives in Python (each die's centre and
  orientation quaternion at rest, the pins, the engine, the walls); a flick
  (re)builds the MuJoCo model from it when the topology changed
  (:mod:`~warlords_sim.reference.scene`), simulates every die as a free
  body, and stores the settled poses back. A die that ends a flick less
  than :data:`KEEP_MM` from where it was, turned less than :data:`KEEP_RAD`,
  keeps its stored pose exactly, so soft-contact creep never accumulates.
* Timestep :data:`TIMESTEP` (0.025 ms) and contact softness (time constant
  0.25 ms) from :mod:`~warlords_sim.reference.solver`, where the launch
  faces have converged in the timestep (docs/fidelity.md, "Convergence of
  the reference"); damping ratios calibrated per contact kind so that a
  face-down drop rebounds with the board's restitutions
  (:mod:`~warlords_sim.reference.calibrate`). A board restitution out of
  reach halves the timestep (at most three times) unless a timestep was
  given; :attr:`ReferenceWorld.timestep` says which was used.
* Flicks. TABLE: the die at rest gets the flick's velocity and yaw spin.
  HIGH, LOW, SIEGE: ``flick.start`` is where the die's centre is as it
  leaves the ledge (the same convention as the 2.5D world); the ledge's
  front edge lies ``size_mm / 2 + 1`` mm behind it along the flick
  direction; the die starts resting on the ledge (bottom at
  ``flick.height_mm``) with its centre straight above that edge, moving at
  the flick velocity, and tips off the edge by itself. Where no wall or
  engine top stands there at that height (a launch ``at`` an open spot),
  a block of the die's side is set behind the edge for the flick
  (:class:`~warlords_sim.reference.scene.LaunchLedge`): the 2.5D world
  takes every such launch off a ledge's edge, and the engines take the
  same set-up.
* A flick (:class:`~warlords_sim.reference.run.FlickRun`) ends when every
  die is at rest, or raises WorldError after ``max_time``; its events are
  LAUNCH, CONTACT, LANDING (normal approach speed at least 60 mm/s), EXIT
  (the centre leaves the board square) and REST, defined in that module.
  A die settled flat on the table is laid exactly flat
  (:func:`~warlords_sim.reference.state.laid_flat`); a die resting tilted
  more than :data:`COCKED_TILT`, or on a die or the engine, is cocked.
* Deterministic: same state and flick, same MuJoCo version and platform,
  bitwise the same result (MuJoCo steps single-threaded; nothing random).
* Cost: about 0.1-0.3 s of CPU per flick (docs/physics.md).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from warlords_sim.board import Board, Rect
from warlords_sim.physics.digest import ReferenceRecord, reference_digest
from warlords_sim.physics.footprint import Polygon, die_footprint, square
from warlords_sim.physics.linalg3 import matmul
from warlords_sim.physics.orientation import face_up, orientation_index, snap_flat, with_face_up
from warlords_sim.physics.regions import classify
from warlords_sim.physics.types import (
    DiePose,
    Event,
    Flick,
    FlickResult,
    LaunchKind,
)
from warlords_sim.physics.world import WorldError
from warlords_sim.physics.world_base import WorldBase
from warlords_sim.reference.calibrate import CalibrationError, ContactDamping, calibrate_board
from warlords_sim.reference.run import FlickRun, StepHook
from warlords_sim.reference.scene import Built, LaunchLedge, build_scene, static_walls
from warlords_sim.reference.shapes import half_height, lowest_offset, tilt, yaw_of
from warlords_sim.reference.solver import SOLVER, TIMESTEP, Solver
from warlords_sim.reference.state import RestingDie, close, mat_to_quat, rz

__all__ = ["COCKED_TILT", "TIMESTEP", "ReferenceWorld"]

#: Tilt (rad) above which a resting die counts as cocked (about 5 degrees).
COCKED_TILT = math.radians(5.0)
_MAX_HALVINGS = 3
LEDGE_TOLERANCE_MM = 0.5
"""A wall or engine top within this of a launch's height (mm) is its ledge."""


class ReferenceWorld(WorldBase[RestingDie]):
    """The board, its pins and dice simulated in 3D with MuJoCo.

    Args:
        board: the validated board (a cuboid die is allowed here).
        castle_seats: seats whose castles stand (three players: the fourth
            place is closed by the three-player wall).
        side_walls: whether the optional side walls stand.
        timestep: physics step, s; default :data:`TIMESTEP`, halved (at
            most three times) while a board restitution is out of reach.
        solver: contact softness and solver options (default
            :data:`~warlords_sim.reference.solver.SOLVER`).

    Raises:
        WorldError: bad castle seats, or a board restitution the contact
            cannot give at the timestep (the message names the board field).

    A :class:`ReferenceWorld` is mutable; :meth:`copy` gives an independent one.
    """

    def __init__(
        self,
        board: Board,
        castle_seats: Sequence[int] = (0, 1, 2, 3),
        side_walls: bool = False,
        timestep: float | None = None,
        solver: Solver = SOLVER,
    ) -> None:
        super().__init__(board, castle_seats, side_walls)
        self._poses: dict[int, DiePose] = {}
        self.contact = self._calibrate(board, timestep, solver)
        self.time = 0.0
        self.steps = 0
        self._dice: dict[int, RestingDie] = {}
        self._pins: set[int] = set()
        self._engine_xy: tuple[float, float] | None = None
        self._built: tuple[tuple[object, ...], Built] | None = None
        self._ledge: LaunchLedge | None = None  # only while a flick runs
        self._events: list[Event] = []

    @staticmethod
    def _calibrate(board: Board, timestep: float | None, solver: Solver) -> ContactDamping:
        dt = TIMESTEP if timestep is None else timestep
        if not (math.isfinite(dt) and 0.0 < dt <= 1e-3):
            raise WorldError(f"reference timestep must be in (0, 1 ms], got {dt} s")
        for _ in range(_MAX_HALVINGS + 1):
            try:
                return calibrate_board(board, dt, solver)
            except CalibrationError as e:
                if timestep is not None or dt < TIMESTEP / 2**_MAX_HALVINGS * 1.5:
                    raise WorldError(f"{board.path}: {e}") from e
                dt /= 2.0
        raise AssertionError("unreachable")

    @property
    def timestep(self) -> float:
        """The physics timestep in use, s."""
        return self.contact.timestep

    # ------------------------------------- walls, pins, engine (WorldBase)

    def _walls_changed(self) -> None:
        self._poses.clear()

    def _put_pin(self, hole: int) -> None:
        self._pins.add(hole)

    def _take_pin(self, hole: int) -> None:
        """A die leaning on the pin falls at the next flick."""
        self._pins.discard(hole)

    def _replace_pins(self, holes: list[int]) -> None:
        self._pins = set(holes)

    def _put_engine(self, x: float, y: float) -> None:
        self._engine_xy = (x, y)

    def _take_engine(self) -> None:
        self._engine_xy = None

    # --------------------------------------------------------- footprints

    def _die_footprint(self, s: RestingDie, shrink: float = 0.0) -> Polygon:
        return die_footprint(self.board.die.sides_mm, s.x, s.y, s.rotation, shrink)

    def _feet(self, exclude_die: int | None = None) -> dict[int, Polygon]:
        """The footprints of the dice but ``exclude_die``, by id."""
        return {i: self._die_footprint(s) for i, s in self._dice.items() if i != exclude_die}

    def _clear_test(self, width: float, exclude_die: int | None) -> Callable[[float, float], bool]:
        """Free: the square overlaps no wall, pin, engine or die but
        ``exclude_die`` (:func:`~warlords_sim.physics.footprint.what_overlaps`)."""
        feet = self._feet(exclude_die)

        def clear(px: float, py: float) -> bool:
            return self._overlapped(square(px, py, 0.0, width), feet) is None

        return clear

    # -------------------------------------------------------------- dice

    def _flat_state(self, x: float, y: float, r: NDArray[np.float64]) -> RestingDie:
        return RestingDie(x, y, half_height(r, self.board.die.sides_mm), mat_to_quat(r))

    def add_die(self, die: int, x: float, y: float, face: int = 1, angle: float = 0.0) -> None:
        """Put die ``die`` at rest at (x, y) mm with ``face`` up, turned ``angle`` rad.

        Raises:
            WorldError: an id not an integer 0..2**31-1
                (:data:`~warlords_sim.physics.types.MAX_DIE_ID`), the id is
                taken, the place is off the board, or the die would overlap
                a wall, pin, die or the siege engine there (by more than 0.1 mm).
            ValueError: face not in 1..6.
        """
        self._check_new_die(die, x, y, angle)
        state = self._flat_state(x, y, matmul(rz(angle), with_face_up(face)))
        blocker = self._overlapped(self._die_footprint(state, 0.1), self._feet())
        if blocker is not None:
            raise WorldError(f"a die at ({x:g}, {y:g}) mm would overlap {blocker}")
        self._dice[die] = state

    def _take_die(self, die: int) -> None:
        """A die resting on it falls at the next flick."""
        del self._dice[die]
        self._poses.clear()

    def move_die(self, die: int, x: float, y: float, angle: float | None = None) -> None:
        """Lift die ``die`` and set it down flat at rest at (x, y) mm, same
        face up, turned ``angle`` rad (default: its current yaw).

        Used by the Spy ability and by gateway dice moved into the courtyard.

        Raises:
            WorldError: no such die, a place off the board, a non-finite angle.
        """
        s = self._check_move(die, x, y, angle)
        r = s.rotation
        yaw = yaw_of(r)
        rel = snap_flat(matmul(rz(-yaw), r))
        self._dice[die] = self._flat_state(x, y, matmul(rz(yaw if angle is None else angle), rel))
        self._poses.clear()

    def pose(self, die: int) -> DiePose:
        """The current pose of die ``die`` (at rest between flicks).

        Raises:
            WorldError: no such die.
        """
        cached = self._poses.get(die)
        if cached is not None:
            return cached
        s = self._get(die)
        r = s.rotation
        yaw = yaw_of(r)
        low = s.z - lowest_offset(r, self.board.die.sides_mm, self.board.die.edge_radius_mm)
        elevation = round(low, 2) if low > 0.5 else 0.0
        pose = DiePose(
            die=die,
            x=s.x,
            y=s.y,
            angle=yaw,
            face=face_up(r),
            orientation=orientation_index(matmul(rz(-yaw), r)),
            region=classify(self.board, s.x, s.y, yaw, self.castle_seats),
            cocked=tilt(r) > COCKED_TILT or s.on_die,
            elevation_mm=elevation,
        )
        self._poses[die] = pose
        return pose

    def face(self, die: int) -> int:
        """Face up of die ``die`` now.

        Raises:
            WorldError: no such die.
        """
        return face_up(self._get(die).rotation)

    def orientation(self, die: int) -> NDArray[np.float64]:
        """World orientation (3x3) of die ``die`` now.

        Raises:
            WorldError: no such die.
        """
        return self._get(die).rotation

    def height(self, die: int) -> float:
        """Height (mm) of the centre of die ``die`` above the board surface.

        Raises:
            WorldError: no such die.
        """
        return self._get(die).z

    # ------------------------------------------------------------ flicks

    def _launch_state(self, flick: Flick, face: int | None) -> RestingDie:
        """Where and how the flicked die starts."""
        old = self._dice.get(flick.die)
        if old is None:
            r = with_face_up(face if face is not None else 1)
        else:
            r = old.rotation
            yaw = yaw_of(r)
            rel = with_face_up(face) if face is not None else snap_flat(matmul(rz(-yaw), r))
            r = matmul(rz(yaw), rel)
        if flick.launch is LaunchKind.TABLE:
            if flick.start is None:
                assert old is not None  # validate() checked it
                return old if face is None else replace(old, quat=mat_to_quat(r))
            return self._flat_state(flick.start[0], flick.start[1], r)
        assert flick.start is not None  # validate() checked it
        sx, sy = flick.start
        speed = flick.speed
        ux, uy = (flick.velocity[0] / speed, flick.velocity[1] / speed) if speed > 0 else (0, 0)
        back = self.board.die.size_mm / 2.0 + 1.0
        ex, ey = sx - ux * back, sy - uy * back
        z = flick.height_mm + half_height(r, self.board.die.sides_mm)
        return RestingDie(ex, ey, z, mat_to_quat(r))

    def _launch_ledge(self, flick: Flick, start: RestingDie) -> LaunchLedge | None:
        """The block a crenelation or siege launch leaves from where no
        wall or engine top stands under the die at the launch height
        (within :data:`LEDGE_TOLERANCE_MM`), else None (the board's own
        ledge is there). The die rests with its centre over the ledge's
        front edge; the block lies behind that edge along the flick."""
        if flick.launch is LaunchKind.TABLE or flick.speed <= 0.0:
            return None
        ux, uy = flick.velocity[0] / flick.speed, flick.velocity[1] / flick.speed
        half = self.board.die.size_mm / 2.0
        px, py = start.x - ux * half, start.y - uy * half  # behind the edge
        tops = [
            (w.rect, w.height_mm)
            for w in static_walls(self.board, self.castle_seats, self.side_walls)
        ]
        if self._engine_xy is not None:
            ew = self.board.siege_engine.width_mm / 2.0
            ex, ey = self._engine_xy
            tops.append(
                (Rect(ex - ew, ey - ew, ex + ew, ey + ew), self.board.siege_engine.launch_height_mm)
            )
        for rect, height in tops:
            if rect.contains(px, py) and abs(height - flick.height_mm) <= LEDGE_TOLERANCE_MM:
                return None
        return LaunchLedge(px, py, flick.height_mm, ux, uy)

    def flick(
        self,
        flick: Flick,
        face: int | None = None,
        max_time: float = 60.0,
        *,
        on_step: StepHook | None = None,
    ) -> FlickResult:
        """Simulate ``flick`` until everything is at rest.

        Args:
            flick: the flick.
            face: face up at launch for a die entering from the supply
                (default 1; for a die already in the world, its face unless given).
            max_time: simulated seconds before giving up.
            on_step: called after every physics step with MuJoCo's model and
                data (SI units; for measurements and drawing, never to change them).

        Returns:
            The :class:`FlickResult` (poses of every die, exits, events, digest).

        Raises:
            FlickError: bad inputs (see :meth:`validate`).
            ValueError: face not in 1..6.
            WorldError: still moving after ``max_time`` (the world is then
                left as it was before the flick).
        """
        self.validate(flick)
        before = dict(self._dice)
        start = self._launch_state(flick, face)
        initial = face_up(start.rotation)
        self._dice[flick.die] = start
        self._poses.clear()
        self._ledge = self._launch_ledge(flick, start)
        try:
            run = FlickRun(
                self._model(),
                self._dice,
                flick,
                initial,
                self.board,
                self.side_walls,
                max_time,
            )
            run.simulate(on_step)
            if run.model_changed:
                self._built = None
        except BaseException:
            self._dice = before
            raise
        finally:
            self._ledge = None
        self.steps += run.steps
        self.time += run.steps * self.timestep
        for i in run.exited:
            self._dice.pop(i, None)
        for i, s in run.settled.items():
            old = before.get(i)
            if old is not None and i != flick.die and close(old, s):
                continue  # barely stirred: keep the exact pose
            self._dice[i] = s
        self._events = run.events
        return FlickResult(
            flick=flick,
            poses={i: self.pose(i) for i in sorted(self._dice)},
            exited=tuple(run.exited),
            events=tuple(run.events),
            steps=run.steps,
            settle_s=run.steps * self.timestep,
            digest=self.digest(),
            initial_face=initial,
            touched=frozenset(run.touched),
        )

    @property
    def events(self) -> tuple[Event, ...]:
        """Events of the last flick."""
        return tuple(self._events)

    def _model(self) -> Built:
        """The compiled scene of the current topology (cached)."""
        key: tuple[object, ...] = (
            self.castle_seats,
            self.side_walls,
            self.pins,
            self._engine_xy,
            self.dice,
            self._ledge,
        )
        if self._built is None or self._built[0] != key:
            built = build_scene(
                self.board,
                self.castle_seats,
                self.side_walls,
                self._pins,
                self._engine_xy,
                self.dice,
                self.contact,
                self._ledge,
            )
            self._built = (key, built)
        return self._built[1]

    # ----------------------------------------------------------- identity

    def digest(self) -> str:
        """SHA-256 (hex) of the state: every die's id, centre and orientation
        quaternion (the exact float64 bits) and support flag; the pins; the
        siege engine; the walls in force."""
        dice = [
            ReferenceRecord(i, s.x, s.y, s.z, s.quat, s.on_die)
            for i, s in sorted(self._dice.items())
        ]
        return reference_digest(
            dice, self._pins, self._engine_xy, self.side_walls, self.castle_seats
        )

    def copy(self) -> ReferenceWorld:
        """An independent copy (the board and the calibration are shared,
        being immutable; the compiled model is rebuilt when needed)."""
        built, self._built = self._built, None
        try:
            memo: dict[int, object] = {id(self.board): self.board, id(self.contact): self.contact}
            return copy.deepcopy(self, memo)
        finally:
            self._built = built
