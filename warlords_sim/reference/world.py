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
* Timestep :data:`TIMESTEP` (0.2 ms), contact time constant 2 ms, damping
  ratios calibrated per contact kind so that a face-down drop rebounds with
  the board's restitutions (:mod:`~warlords_sim.reference.calibrate`). A
  board restitution out of reach at 0.2 ms halves the timestep (at most
  three times) unless a timestep was given; :attr:`ReferenceWorld.timestep`
  says which was used.
* Flicks. TABLE: the die at rest gets the flick's velocity and yaw spin.
  HIGH, LOW, SIEGE: ``flick.start`` is where the die's centre is as it
  leaves the ledge (the same convention as the 2.5D world); the ledge's
  front edge lies ``size_mm / 2 + 1`` mm behind it along the flick
  direction; the die starts resting on the ledge (bottom at
  ``flick.height_mm``) with its centre straight above that edge, moving at
  the flick velocity, and tips off the edge by itself.
* A flick ends when every die has moved slower than :data:`REST_SPEED` and
  turned slower than :data:`REST_SPIN` for :data:`REST_TIME`, or raises
  WorldError after ``max_time``. Events: LAUNCH; CONTACT when a die begins
  touching a wall, pin, die or the siege engine from the side (not within
  :data:`DEBOUNCE_S` of last touching it); LANDING when a die that touched
  no support (the table, or the top of something below it: a contact normal
  within 45 degrees of vertical) begins touching one with a normal approach
  speed of at least :data:`LANDING_SPEED` (60 mm/s; slower touches are
  settling, not landings: the fidelity suite compares landings per flick);
  EXIT when a die's centre leaves the board square (it is taken out of the
  simulation); REST for every die that moved, once all are at rest.
* Deterministic: same state and flick, same MuJoCo version and platform,
  bitwise the same result (MuJoCo steps single-threaded; nothing random).
* Cost: a few hundred microseconds of CPU per millisecond simulated with a
  handful of dice (see docs/physics.md for measured figures).
"""

from __future__ import annotations

import copy
import hashlib
import math
import struct
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

import mujoco
import numpy as np
from numpy.typing import NDArray

from warlords_sim.board import Board
from warlords_sim.physics.orientation import face_up, orientation_index, snap_flat, with_face_up
from warlords_sim.physics.regions import classify
from warlords_sim.physics.types import (
    DiePose,
    Event,
    EventKind,
    Flick,
    FlickError,
    FlickResult,
    LaunchKind,
)
from warlords_sim.physics.world import MAX_FLICK_SPEED, MAX_FLICK_SPIN, WorldError
from warlords_sim.reference.calibrate import CalibrationError, ContactDamping, calibrate_board
from warlords_sim.reference.footprint import (
    Polygon,
    polygon_circle_overlap,
    polygons_overlap,
    rect_polygon,
    square,
)
from warlords_sim.reference.scene import Built, build_scene, static_walls
from warlords_sim.reference.shapes import half_height, lowest_offset, tilt, yaw_of

__all__ = [
    "LANDING_SPEED",
    "REST_SPEED",
    "REST_SPIN",
    "REST_TIME",
    "TIMESTEP",
    "ReferenceWorld",
]

#: Physics timestep, s (halved for a board whose restitution needs it).
TIMESTEP = 2e-4
#: A die slower than this (mm/s) and turning slower than REST_SPIN (rad/s)
#: for REST_TIME (s) is at rest. A die left after a slide chatters on its
#: soft contacts at about 0.1 rad/s and 0.3 mm/s, so the thresholds lie above that.
REST_SPEED = 5.0
REST_SPIN = 0.5
REST_TIME = 0.05
#: Least normal approach speed (mm/s) of a landing.
LANDING_SPEED = 60.0
#: A contact with the same thing within this time (s) is the same contact.
DEBOUNCE_S = 0.01
#: A die moved less than this (mm) and turned less than KEEP_RAD keeps its pose.
KEEP_MM = 0.05
KEEP_RAD = 1e-3
#: Tilt (rad) above which a resting die counts as cocked (about 5 degrees).
COCKED_TILT = math.radians(5.0)
#: A die resting on the table tilted less than this (rad) and sunk less than
#: FLAT_SINK_MM is laid exactly flat when it settles.
FLAT_TILT = math.radians(0.5)
FLAT_SINK_MM = 0.05
#: Steps between checks for exits and rest.
CHECK_EVERY = 10
#: Cosine of the largest angle from vertical of a supporting contact's normal.
_SUPPORT_COS = math.sqrt(0.5)
_MM = 1e-3
_MAX_HALVINGS = 3

Quat = tuple[float, float, float, float]
#: Called after every step of a flick with the MuJoCo model and data (SI units).
StepHook = Callable[[mujoco.MjModel, mujoco.MjData], None]


def _rz(angle: float) -> NDArray[np.float64]:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def _mat_to_quat(r: NDArray[np.float64]) -> Quat:
    q = np.zeros(4)
    mujoco.mju_mat2Quat(q, np.ascontiguousarray(r, dtype=np.float64).ravel())
    return (float(q[0]), float(q[1]), float(q[2]), float(q[3]))


def _quat_to_mat(q: Sequence[float]) -> NDArray[np.float64]:
    m = np.zeros(9)
    mujoco.mju_quat2Mat(m, np.asarray(q, dtype=np.float64))
    return m.reshape(3, 3)


@dataclass(frozen=True)
class _DieState:
    """A die at rest: centre (mm), orientation quaternion (w, x, y, z) and
    whether it rests on a die or the siege engine."""

    x: float
    y: float
    z: float
    quat: Quat
    on_die: bool = False

    @property
    def rotation(self) -> NDArray[np.float64]:
        return _quat_to_mat(self.quat)


class ReferenceWorld:
    """The board, its pins and dice simulated in 3D with MuJoCo.

    Args:
        board: the validated board (a cuboid die is allowed here).
        castle_seats: seats whose castles stand (three players: the fourth
            place is closed by the three-player wall).
        side_walls: whether the optional side walls stand.
        timestep: physics step, s; default :data:`TIMESTEP`, halved (at
            most three times) while a board restitution is out of reach.

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
    ) -> None:
        self.board = board
        self._poses: dict[int, DiePose] = {}
        self.castle_seats: tuple[int, ...] = ()
        self.side_walls = side_walls
        self.set_walls(castle_seats, side_walls)
        self.contact = self._calibrate(board, timestep)
        self.time = 0.0
        self.steps = 0
        self._dice: dict[int, _DieState] = {}
        self._pins: set[int] = set()
        self._engine_xy: tuple[float, float] | None = None
        self._built: tuple[tuple[object, ...], Built] | None = None
        self._events: list[Event] = []

    @staticmethod
    def _calibrate(board: Board, timestep: float | None) -> ContactDamping:
        dt = TIMESTEP if timestep is None else timestep
        if not (math.isfinite(dt) and 0.0 < dt <= 1e-3):
            raise WorldError(f"reference timestep must be in (0, 1 ms], got {dt} s")
        for _ in range(_MAX_HALVINGS + 1):
            try:
                return calibrate_board(board, dt)
            except CalibrationError as e:
                if timestep is not None or dt < TIMESTEP / 2**_MAX_HALVINGS * 1.5:
                    raise WorldError(f"{board.path}: {e}") from e
                dt /= 2.0
        raise AssertionError("unreachable")

    @property
    def timestep(self) -> float:
        """The physics timestep in use, s."""
        return self.contact.timestep

    # ------------------------------------------------------------- walls

    def set_walls(self, castle_seats: Sequence[int], side_walls: bool) -> None:
        """Change which castles stand and whether the side walls stand.

        Raises:
            WorldError: a seat not in 0..3, or a seat given twice.
        """
        seats = tuple(sorted(castle_seats))
        if len(set(seats)) != len(seats) or any(
            not 0 <= k < len(self.board.castles) for k in seats
        ):
            raise WorldError(f"castle seats must be distinct seats 0..3, got {list(castle_seats)}")
        self.castle_seats = seats
        self.side_walls = side_walls
        self._poses.clear()

    # -------------------------------------------------------------- pins

    @property
    def pins(self) -> tuple[int, ...]:
        """Hole indices (into ``board.holes``) holding a pin, sorted."""
        return tuple(sorted(self._pins))

    def add_pin(self, hole: int) -> None:
        """Put a pin in hole ``hole``.

        Raises:
            WorldError: no such hole, or the hole already holds a pin.
        """
        if not 0 <= hole < len(self.board.holes):
            raise WorldError(f"no hole {hole}; holes are 0..{len(self.board.holes) - 1}")
        if hole in self._pins:
            raise WorldError(f"hole {hole} already holds a pin")
        self._pins.add(hole)

    def remove_pin(self, hole: int) -> None:
        """Pull the pin out of hole ``hole`` (a die leaning on it falls at
        the next flick).

        Raises:
            WorldError: the hole holds no pin.
        """
        if hole not in self._pins:
            raise WorldError(f"hole {hole} holds no pin")
        self._pins.discard(hole)

    def set_pins(self, holes: Iterable[int]) -> None:
        """Replace all pins by pins in ``holes``.

        Raises:
            WorldError: a hole out of range or given twice (nothing changed).
        """
        wanted = list(holes)
        if len(set(wanted)) != len(wanted) or any(
            not 0 <= h < len(self.board.holes) for h in wanted
        ):
            raise WorldError(
                f"pins need distinct holes 0..{len(self.board.holes) - 1}, got {wanted}"
            )
        self._pins = set(wanted)

    # ------------------------------------------------------ siege engine

    @property
    def siege_engine(self) -> tuple[float, float] | None:
        """Centre (mm) of the placed siege engine, or None."""
        return self._engine_xy

    def place_siege_engine(self, x: float, y: float) -> None:
        """Place the siege engine (a square block) centred at (x, y) mm.

        Raises:
            WorldError: the place is not finite or the engine would stick out
                of the board (find a place with :meth:`free_spot_near`).
        """
        self._check_point(x, y, "siege engine position")
        half = self.board.half_size_mm - self.board.siege_engine.width_mm / 2.0
        if abs(x) > half or abs(y) > half:
            raise WorldError(f"a siege engine at ({x:g}, {y:g}) mm would stick out of the board")
        self._engine_xy = (x, y)

    def remove_siege_engine(self) -> None:
        """Take the siege engine off the board (no-op if not placed)."""
        self._engine_xy = None

    # --------------------------------------------------------- footprints

    def _die_footprint(self, s: _DieState, shrink: float = 0.0) -> Polygon:
        r = s.rotation
        vertical = int(np.argmax(np.abs(r[2])))
        h = (vertical + 1) % 3
        sides = self.board.die.sides_mm
        w, d = sides[h], sides[(vertical + 2) % 3]
        ang = math.atan2(float(r[1, h]), float(r[0, h]))
        return square(s.x, s.y, ang, w - 2.0 * shrink, d - 2.0 * shrink)

    def _blocker(self, poly: Polygon, exclude_die: int | None = None) -> str | None:
        """What the footprint ``poly`` overlaps: a wall, a pin, a die, the engine."""
        for wall in static_walls(self.board, self.castle_seats, self.side_walls):
            r = wall.rect
            if polygons_overlap(poly, rect_polygon(r.x0, r.y0, r.x1, r.y1)):
                return "a wall"
        radius = self.board.pin.radius_mm
        for hole in sorted(self._pins):
            hx, hy = self.board.holes[hole]
            if polygon_circle_overlap(poly, hx, hy, radius):
                return "a pin"
        if self._engine_xy is not None:
            w = self.board.siege_engine.width_mm / 2.0
            ex, ey = self._engine_xy
            if polygons_overlap(poly, rect_polygon(ex - w, ey - w, ex + w, ey + w)):
                return "the siege engine"
        for i in sorted(self._dice):
            if i == exclude_die:
                continue
            if polygons_overlap(poly, self._die_footprint(self._dice[i])):
                return f"die {i}"
        return None

    def free_spot_near(
        self, x: float, y: float, width: float, exclude_die: int | None = None
    ) -> tuple[float, float]:
        """The free place nearest to (x, y) for a ``width`` mm square (the siege engine).

        Free: on the board, touching no wall, pin or die (moats do not
        count; rulebook, The Siege Engine). Searched on rings of 2 mm steps,
        as the 2.5D world does.

        Raises:
            WorldError: the point is not finite, the width not positive, or
                no free place within the board.
        """
        if not (math.isfinite(x) and math.isfinite(y)):
            raise WorldError(f"free_spot_near needs a finite point, got ({x}, {y})")
        if not (math.isfinite(width) and width > 0.0):
            raise WorldError(f"free_spot_near needs a positive width in mm, got {width}")
        half = self.board.half_size_mm - width / 2.0

        def free(px: float, py: float) -> bool:
            if abs(px) > half or abs(py) > half:
                return False
            return self._blocker(square(px, py, 0.0, width), exclude_die) is None

        if free(x, y):
            return (x, y)
        step = 2.0
        for ring in range(1, int(self.board.size_mm / step) + 1):
            radius = ring * step
            n = max(8, int(2 * math.pi * radius / step))
            for i in range(n):
                a = 2.0 * math.pi * i / n
                px, py = x + radius * math.cos(a), y + radius * math.sin(a)
                if free(px, py):
                    return (px, py)
        raise WorldError("no free place on the board for the siege engine")

    # -------------------------------------------------------------- dice

    @property
    def dice(self) -> tuple[int, ...]:
        """Ids of the dice in the world, sorted."""
        return tuple(sorted(self._dice))

    def _flat_state(self, x: float, y: float, r: NDArray[np.float64]) -> _DieState:
        return _DieState(x, y, half_height(r, self.board.die.sides_mm), _mat_to_quat(r))

    def add_die(self, die: int, x: float, y: float, face: int = 1, angle: float = 0.0) -> None:
        """Put die ``die`` at rest at (x, y) mm with ``face`` up, turned ``angle`` rad.

        Raises:
            WorldError: the id is taken, the place is off the board, or the
                die would overlap a wall, pin, die or the siege engine there
                (by more than 0.1 mm).
            ValueError: face not in 1..6.
        """
        if die in self._dice:
            raise WorldError(f"die {die} is already in the world")
        self._check_point(x, y, "die position")
        if not math.isfinite(angle):
            raise WorldError(f"die angle must be a finite number of radians, got {angle}")
        state = self._flat_state(x, y, _rz(angle) @ with_face_up(face))
        blocker = self._blocker(self._die_footprint(state, 0.1))
        if blocker is not None:
            raise WorldError(f"a die at ({x:g}, {y:g}) mm would overlap {blocker}")
        self._dice[die] = state

    def remove_die(self, die: int) -> None:
        """Take die ``die`` out of the world (a die resting on it falls at
        the next flick).

        Raises:
            WorldError: no such die.
        """
        self._get(die)
        del self._dice[die]
        self._poses.clear()

    def move_die(self, die: int, x: float, y: float, angle: float | None = None) -> None:
        """Lift die ``die`` and set it down flat at rest at (x, y) mm, same
        face up, turned ``angle`` rad (default: its current yaw).

        Used by the Spy ability and by gateway dice moved into the courtyard.

        Raises:
            WorldError: no such die, a place off the board, a non-finite angle.
        """
        s = self._get(die)
        self._check_point(x, y, "die position")
        if angle is not None and not math.isfinite(angle):
            raise WorldError(f"die angle must be a finite number of radians, got {angle}")
        r = s.rotation
        yaw = yaw_of(r)
        rel = snap_flat(_rz(-yaw) @ r)
        self._dice[die] = self._flat_state(x, y, _rz(yaw if angle is None else angle) @ rel)
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
            orientation=orientation_index(_rz(-yaw) @ r),
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

    def _get(self, die: int) -> _DieState:
        s = self._dice.get(die)
        if s is None:
            raise WorldError(f"no die {die} in the world")
        return s

    def _check_point(self, x: float, y: float, what: str) -> None:
        if not (math.isfinite(x) and math.isfinite(y)):
            raise WorldError(f"{what} must be finite numbers, got ({x}, {y})")
        if not self.board.on_board(x, y):
            h = self.board.half_size_mm
            raise WorldError(f"{what} ({x:g}, {y:g}) mm is off the board (|x|, |y| <= {h:g} mm)")

    # ------------------------------------------------------------ flicks

    def validate(self, flick: Flick) -> None:
        """Check a flick's inputs (the same checks as the 2.5D world).

        Raises:
            FlickError: a NaN or infinite number, a speed over
                :data:`~warlords_sim.physics.MAX_FLICK_SPEED`, a spin over
                :data:`~warlords_sim.physics.MAX_FLICK_SPIN`, a start off
                the board, a TABLE flick of a die not in the world, a height
                below zero, a launch without a start point.
        """
        vx, vy = flick.velocity
        for name, v in (("velocity x", vx), ("velocity y", vy), ("spin", flick.spin)):
            if not math.isfinite(v):
                raise FlickError(f"flick {name} must be a finite number, got {v}")
        if flick.speed > MAX_FLICK_SPEED * (1.0 + 1e-12):
            raise FlickError(
                f"flick speed {flick.speed:.10g} mm/s is over the maximum of "
                f"{MAX_FLICK_SPEED:.0f} mm/s"
            )
        if abs(flick.spin) > MAX_FLICK_SPIN:
            raise FlickError(
                f"flick spin {flick.spin:.10g} rad/s is over the maximum of "
                f"{MAX_FLICK_SPIN:.0f} rad/s"
            )
        if not math.isfinite(flick.height_mm) or flick.height_mm < 0:
            raise FlickError(f"launch height must be >= 0 mm, got {flick.height_mm}")
        if flick.start is not None:
            sx, sy = flick.start
            if not (math.isfinite(sx) and math.isfinite(sy)):
                raise FlickError(f"flick start must be finite numbers, got {flick.start}")
            if not self.board.on_board(sx, sy):
                h = self.board.half_size_mm
                raise FlickError(
                    f"flick start ({sx:g}, {sy:g}) mm is off the board (|x|, |y| <= {h:g} mm)"
                )
        if flick.launch is LaunchKind.TABLE and flick.die not in self._dice:
            raise FlickError(f"no die {flick.die} on the board to flick")
        if flick.launch is not LaunchKind.TABLE and flick.start is None:
            raise FlickError(f"a {flick.launch.value} flick needs a start point")

    def _launch_state(self, flick: Flick, face: int | None) -> _DieState:
        """Where and how the flicked die starts."""
        old = self._dice.get(flick.die)
        if old is None:
            r = with_face_up(face if face is not None else 1)
        else:
            r = old.rotation
            yaw = yaw_of(r)
            rel = with_face_up(face) if face is not None else snap_flat(_rz(-yaw) @ r)
            r = _rz(yaw) @ rel
        if flick.launch is LaunchKind.TABLE:
            if flick.start is None:
                assert old is not None  # validate() checked it
                return old if face is None else replace(old, quat=_mat_to_quat(r))
            return self._flat_state(flick.start[0], flick.start[1], r)
        assert flick.start is not None  # validate() checked it
        sx, sy = flick.start
        speed = flick.speed
        ux, uy = (flick.velocity[0] / speed, flick.velocity[1] / speed) if speed > 0 else (0, 0)
        back = self.board.die.size_mm / 2.0 + 1.0
        ex, ey = sx - ux * back, sy - uy * back
        z = flick.height_mm + half_height(r, self.board.die.sides_mm)
        return _DieState(ex, ey, z, _mat_to_quat(r))

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
        try:
            run = _Run(self, flick, initial, max_time)
            run.simulate(on_step)
        except BaseException:
            self._dice = before
            raise
        self.steps += run.steps
        self.time += run.steps * self.timestep
        for i in run.exited:
            self._dice.pop(i, None)
        for i, s in run.settled.items():
            old = before.get(i)
            if old is not None and i != flick.die and _close(old, s):
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
            )
            self._built = (key, built)
        return self._built[1]

    # ----------------------------------------------------------- identity

    def digest(self) -> str:
        """SHA-256 (hex) of the state: every die's id, centre and orientation
        quaternion (the exact float64 bits) and support flag; the pins; the
        siege engine; the walls in force."""
        h = hashlib.sha256(b"reference")
        for i in sorted(self._dice):
            s = self._dice[i]
            h.update(struct.pack("<q3d4d?", i, s.x, s.y, s.z, *s.quat, s.on_die))
        pins = sorted(self._pins)
        h.update(struct.pack(f"<{len(pins)}q", *pins))
        if self._engine_xy is not None:
            h.update(struct.pack("<dd", *self._engine_xy))
        h.update(struct.pack(f"<?{len(self.castle_seats)}q", self.side_walls, *self.castle_seats))
        return h.hexdigest()

    def copy(self) -> ReferenceWorld:
        """An independent copy (the board and the calibration are shared,
        being immutable; the compiled model is rebuilt when needed)."""
        built, self._built = self._built, None
        try:
            memo: dict[int, object] = {id(self.board): self.board, id(self.contact): self.contact}
            return copy.deepcopy(self, memo)
        finally:
            self._built = built


def _close(a: _DieState, b: _DieState) -> bool:
    """Has the die barely moved between ``a`` and ``b``?"""
    if math.dist((a.x, a.y, a.z), (b.x, b.y, b.z)) > KEEP_MM:
        return False
    dot = abs(sum(p * q for p, q in zip(a.quat, b.quat, strict=True)))
    return 2.0 * math.acos(min(1.0, dot)) < KEEP_RAD


def _laid_flat(s: _DieState, sides: tuple[float, float, float], radius: float) -> _DieState:
    """A die at rest on the table within :data:`FLAT_TILT` of flat (its
    lowest point within :data:`FLAT_SINK_MM` of the surface) laid exactly
    flat: the nearest cube rotation with the same face up and yaw, its
    centre half its height above the table. MuJoCo's soft contact leaves a
    resting die microradians askew and micrometres deep, and a die restarted
    from such a pose rocks and creeps (about 20 um/s); laid flat it stays put."""
    r = s.rotation
    if s.on_die or tilt(r) > FLAT_TILT:
        return s
    if abs(s.z - lowest_offset(r, sides, radius)) > FLAT_SINK_MM:
        return s  # resting on something above the table
    yaw = yaw_of(r)
    flat = _rz(yaw) @ snap_flat(_rz(-yaw) @ r)
    return replace(s, z=half_height(flat, sides), quat=_mat_to_quat(flat))


class _Run:
    """One flick's simulation: steps, events, exits, rest."""

    def __init__(self, world: ReferenceWorld, flick: Flick, initial: int, max_time: float) -> None:
        self.world = world
        self.flick = flick
        self.max_time = max_time
        self.built = world._model()
        self.model = self.built.model
        self.data = mujoco.MjData(self.model)
        self.events: list[Event] = []
        self.touched: set[int] = set()
        self.exited: list[int] = []
        self.settled: dict[int, _DieState] = {}
        self.steps = 0
        self.gone = np.zeros(len(self.built.dice), dtype=bool)
        self._contact_seen: dict[int, int] = {}  # pair code -> last step seen
        self._supported: set[int] = set()  # die indices touching a support
        self._moved: set[int] = set()
        self._restored = False
        self._set_state(initial)

    # ------------------------------------------------------------- set-up

    def _set_state(self, initial: int) -> None:
        w, d, b = self.world, self.data, self.built
        for k, i in enumerate(b.dice):
            s = w._dice[i]
            a = b.qpos[k]
            d.qpos[a : a + 3] = [s.x * _MM, s.y * _MM, s.z * _MM]
            d.qpos[a + 3 : a + 7] = s.quat
        fl = self.flick
        k = b.dice.index(fl.die)
        s = w._dice[fl.die]
        v = b.qvel[k]
        d.qvel[v : v + 3] = [fl.velocity[0] * _MM, fl.velocity[1] * _MM, 0.0]
        # a free joint's angular velocity is in the body frame
        d.qvel[v + 3 : v + 6] = s.rotation.T @ np.array([0.0, 0.0, fl.spin])
        mujoco.mj_forward(self.model, d)
        self._moved.add(k)
        self.events.append(
            Event(EventKind.LAUNCH, 0.0, fl.die, s.x, s.y, fl.launch.value, fl.speed, initial)
        )
        self._contacts(record=False)  # what it touches at the start is no news

    # --------------------------------------------------------------- loop

    def simulate(self, on_step: StepHook | None = None) -> None:
        model, data = self.model, self.data
        dt = model.opt.timestep
        limit = int(round(self.max_time / dt))
        quiet_needed = int(math.ceil(REST_TIME / dt))
        quiet = 0
        step = mujoco.mj_step
        while True:
            step(model, data)
            self.steps += 1
            if on_step is not None:
                on_step(model, data)
            if data.ncon:
                self._contacts()
            elif self._supported:
                self._supported = set()
            if self.steps % CHECK_EVERY == 0:
                self._exits()
                if self._calm():
                    quiet += CHECK_EVERY
                    if quiet >= quiet_needed:
                        break
                else:
                    quiet = 0
            if self.steps >= limit:
                raise WorldError(f"dice still moving after {self.max_time} s")
        self._finish()

    # ----------------------------------------------------------- contacts

    def _contacts(self, record: bool = True) -> None:
        """Record CONTACT and LANDING events of this step's new contacts
        (only note them with ``record=False``)."""
        data, built = self.data, self.built
        n = data.ncon
        con = data.contact
        geom = con.geom[:n]
        nz = con.frame[:n, 2]
        gd = built.geom_die
        da, db = gd[geom[:, 0]], gd[geom[:, 1]]
        ng = self.model.ngeom
        supported: dict[int, int] = {}  # die index -> contact index of a support
        new: list[tuple[int, int, int]] = []  # (die index, other geom, contact)
        step = self.steps
        window = max(1, int(round(DEBOUNCE_S / self.model.opt.timestep)))
        for c in range(n):
            for die_k, other, sign in ((da[c], geom[c, 1], -1.0), (db[c], geom[c, 0], 1.0)):
                if die_k < 0 or self.gone[die_k]:
                    continue
                # the contact normal points from geom 0 to geom 1; sign turns it
                # to point from the other thing to this die
                up = sign * float(nz[c])
                other = int(other)
                is_table = built.labels[other] == "table"
                if is_table or up > _SUPPORT_COS:
                    supported.setdefault(int(die_k), c)
                    continue
                code = int(die_k) * ng + other
                last = self._contact_seen.get(code)
                self._contact_seen[code] = step
                if last is None or step - last > window:
                    new.append((int(die_k), other, c))
        if record:
            for die_k, other, c in new:
                self._side_contact(die_k, other, c)
            for die_k, c in supported.items():
                if die_k not in self._supported:
                    self._landing(die_k, c, geom[c])
        self._supported = set(supported)

    def _point_velocity(self, body: int, point: NDArray[np.float64]) -> NDArray[np.float64]:
        """World velocity (m/s) of ``point`` (m) moving with ``body``."""
        if body == 0:
            return np.zeros(3)
        v = np.zeros(6)
        mujoco.mj_objectVelocity(self.model, self.data, mujoco.mjtObj.mjOBJ_BODY, body, v, 0)
        arm = point - self.data.xpos[body]
        return np.asarray(v[3:] + np.cross(v[:3], arm), dtype=np.float64)

    def _approach(self, c: int) -> float:
        """Normal approach speed (mm/s) of the two geoms of contact ``c``."""
        con = self.data.contact
        g0, g1 = int(con.geom[c, 0]), int(con.geom[c, 1])
        p = np.array(con.pos[c])
        n = np.array(con.frame[c, :3])
        b0, b1 = int(self.model.geom_bodyid[g0]), int(self.model.geom_bodyid[g1])
        rel = self._point_velocity(b1, p) - self._point_velocity(b0, p)
        # geom 1 approaches geom 0 when its velocity along n (0 -> 1) is negative
        return float(-np.dot(rel, n)) / _MM

    def _die_xy(self, k: int) -> tuple[float, float]:
        a = self.built.qpos[k]
        return float(self.data.qpos[a]) / _MM, float(self.data.qpos[a + 1]) / _MM

    def _side_contact(self, k: int, other: int, c: int) -> None:
        speed = self._approach(c)
        label = self.built.labels[other]
        if label.startswith("die:") and speed > 0.0:
            self.touched.add(self.built.dice[k])
            self.touched.add(int(label[4:]))
        x, y = self._die_xy(k)
        i = self.built.dice[k]
        self._moved.add(k)
        self.events.append(
            Event(EventKind.CONTACT, self.steps * self.model.opt.timestep, i, x, y, label, speed)
        )

    def _landing(self, k: int, c: int, geom: NDArray[np.int64]) -> None:
        speed = self._approach(c)
        if speed < LANDING_SPEED:
            return
        other = int(geom[0]) if int(geom[1]) == self.built.geoms[k] else int(geom[1])
        label = self.built.labels[other]
        x, y = self._die_xy(k)
        i = self.built.dice[k]
        self._moved.add(k)
        self.events.append(
            Event(
                EventKind.LANDING,
                self.steps * self.model.opt.timestep,
                i,
                x,
                y,
                "table" if label == "table" else "top",
                speed,
                face_up(self._rotation(k)),
            )
        )

    def _rotation(self, k: int) -> NDArray[np.float64]:
        a = self.built.qpos[k]
        return _quat_to_mat(self.data.qpos[a + 3 : a + 7])

    # -------------------------------------------------------- exits, rest

    def _exits(self) -> None:
        half = self.world.board.half_size_mm * _MM
        qpos = self.data.qpos
        for k, a in enumerate(self.built.qpos):
            if self.gone[k]:
                continue
            if abs(qpos[a]) > half or abs(qpos[a + 1]) > half:
                self._exit(k)

    def _exit(self, k: int) -> None:
        i = self.built.dice[k]
        x, y = self._die_xy(k)
        self.events.append(
            Event(
                EventKind.EXIT,
                self.steps * self.model.opt.timestep,
                i,
                x,
                y,
                face=face_up(self._rotation(k)),
                over_wall=self.world.side_walls,
            )
        )
        self.exited.append(i)
        self.gone[k] = True
        g = self.built.geoms[k]
        # out of the simulation: it touches nothing and floats where it is
        self.model.geom_contype[g] = 0
        self.model.geom_conaffinity[g] = 0
        body = int(self.model.geom_bodyid[g])
        self.model.body_gravcomp[body] = 1.0
        v = self.built.qvel[k]
        self.data.qvel[v : v + 6] = 0.0
        self.world._built = None  # the model was changed: build afresh next time

    def _calm(self) -> bool:
        qvel = self.data.qvel
        for k, v in enumerate(self.built.qvel):
            if self.gone[k]:
                continue
            lin = math.sqrt(float(qvel[v] ** 2 + qvel[v + 1] ** 2 + qvel[v + 2] ** 2)) / _MM
            ang = math.sqrt(float(qvel[v + 3] ** 2 + qvel[v + 4] ** 2 + qvel[v + 5] ** 2))
            if lin >= REST_SPEED or ang >= REST_SPIN:
                self._moved.add(k)
                return False
        return True

    def _finish(self) -> None:
        """Read back every die's settled state (a die lying flat on the table
        is laid exactly flat: see :func:`_laid_flat`); REST events for those
        that moved."""
        on = self._resting_on_die_or_engine()
        t = self.steps * self.model.opt.timestep
        board = self.world.board
        for k, i in enumerate(self.built.dice):
            if self.gone[k]:
                continue
            a = self.built.qpos[k]
            q = self.data.qpos
            quat = np.array(q[a + 3 : a + 7])
            quat /= np.linalg.norm(quat)
            s = _laid_flat(
                _DieState(
                    float(q[a]) / _MM,
                    float(q[a + 1]) / _MM,
                    float(q[a + 2]) / _MM,
                    (float(quat[0]), float(quat[1]), float(quat[2]), float(quat[3])),
                    k in on,
                ),
                board.die.sides_mm,
                board.die.edge_radius_mm,
            )
            self.settled[i] = s
            old = self.world._dice.get(i)
            if k in self._moved or old is None or not _close(old, s):
                self.events.append(Event(EventKind.REST, t, i, s.x, s.y, face=face_up(s.rotation)))

    def _resting_on_die_or_engine(self) -> set[int]:
        """Die indices with a supporting contact on a die or the siege engine."""
        out: set[int] = set()
        data, built = self.data, self.built
        for c in range(data.ncon):
            g0, g1 = (int(g) for g in data.contact.geom[c])
            nz = float(data.contact.frame[c, 2])
            for die_g, other, up in ((g0, g1, -nz), (g1, g0, nz)):
                k = int(built.geom_die[die_g])
                if k < 0 or up <= _SUPPORT_COS:
                    continue
                label = built.labels[other]
                if label.startswith("die:") or label == "siege_engine":
                    out.add(k)
        return out
