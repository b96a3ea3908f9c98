"""Value objects of the physics layer: flicks in, settled results out.

Units: millimetres, grams, seconds, radians; board frame (origin at the
centre, x right, y up). Every class here is frozen; the rules layer reads
them and never sees pymunk.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from numbers import Integral, Real

from warlords_sim.errors import WarlordsError

__all__ = [
    "MAX_DIE_ID",
    "DieEnd",
    "DiePose",
    "Event",
    "EventKind",
    "Flick",
    "FlickError",
    "FlickResult",
    "LaunchKind",
    "Region",
    "RegionKind",
    "WorldError",
    "die_id_problem",
]


class WorldError(WarlordsError, ValueError):
    """A request the world cannot honour (unknown die, a place off the board)."""


#: Largest die id: ids are 0..2**31-1, a signed 32-bit integer. The
#: settled-state digests pack ids as 64-bit integers (a larger id crashed
#: them); 32 bits leaves that with room and is a size every JSON reader of a
#: replay holds exactly.
MAX_DIE_ID = 2**31 - 1


def die_id_problem(die: object) -> str | None:
    """Why ``die`` is not a die id (an integer 0..:data:`MAX_DIE_ID`, not a
    bool), or None if it is one."""
    if isinstance(die, bool) or not isinstance(die, Integral):
        return f"a die id must be an integer 0..{MAX_DIE_ID}, got {_short(die)}"
    if not 0 <= int(die) <= MAX_DIE_ID:
        return f"die id {_short(die)} is out of range: ids are 0..{MAX_DIE_ID}"
    return None


def _short(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to about ``limit`` characters (for error lines)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _is_number(v: object) -> bool:
    """A real number (int, float, numpy's), not a bool."""
    return isinstance(v, Real) and not isinstance(v, bool)


def _pair(value: object) -> tuple[float, float] | None:
    """``value`` as two floats if it is a sequence of two numbers, else None."""
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        return None
    items = tuple(value)
    if len(items) != 2 or not all(_is_number(c) for c in items):
        return None
    return (float(items[0]), float(items[1]))


class FlickError(WarlordsError, ValueError):
    """A flick that cannot be simulated: NaN or infinite numbers, a speed
    over the maximum flick speed, a start off the board, an unknown die."""


class LaunchKind(Enum):
    """Where a flick starts (rulebook, Flicking; The Siege Engine).

    TABLE: a die on the board slides off from where it rests.
    LOW / HIGH: a die from the supply, from a front area's low or high crenelation.
    SIEGE: a die flicked from the top of the siege engine.
    """

    TABLE = "table"
    LOW = "low"
    HIGH = "high"
    SIEGE = "siege"


@dataclass(frozen=True)
class Flick:
    """One flick of one die.

    Raises:
        FlickError: a die id that is not an integer 0..:data:`MAX_DIE_ID`;
            a velocity that is not two numbers; a spin, height or strike
            that is not a number (a bool is not a number here); a start
            that is neither None nor two numbers; an unknown launch kind.
            Numbers are stored as floats. Ranges (finite, the speed and
            spin limits, the strike within the die) are checked by
            :func:`~warlords_sim.physics.checks.validate_flick`.

    Attributes:
        die: id of the die to flick (must be in the world), 0..:data:`MAX_DIE_ID`.
        velocity: (vx, vy) in mm/s, board frame, of the die's centre as it
            leaves the finger.
        spin: yaw rate in rad/s, counter-clockwise seen from above.
        launch: the launch kind.
        start: (x, y) mm where the die's centre starts; ``None`` for a TABLE
            flick means "where the die rests now". For LOW/HIGH it is the
            launch spot; for SIEGE a point just off the engine's edge in the
            flick's direction (the die leaves the engine's top there).
        height_mm: height of the die's bottom face at the start (crenelation
            or engine height); ignored (0) for TABLE.
        strike_mm: where the finger strikes the die's trailing face, mm
            above its centre (-a/2 .. a/2, default 0: at the centre). High it
            turns the die forward as it goes, low it slides
            (:mod:`~warlords_sim.physics.strike`); ``velocity`` is then the
            impulse per unit mass.
    """

    die: int
    velocity: tuple[float, float]
    spin: float = 0.0
    launch: LaunchKind = LaunchKind.TABLE
    start: tuple[float, float] | None = None
    height_mm: float = 0.0
    strike_mm: float = 0.0

    def __post_init__(self) -> None:
        problem = die_id_problem(self.die)
        if problem is not None:
            raise FlickError(f"flick die: {problem}")
        v = self.velocity
        try:
            vx, vy = v
        except (TypeError, ValueError):
            raise FlickError(
                f"flick velocity must be two numbers (vx, vy) in mm/s, got {_short(v)}"
            ) from None
        if not (_is_number(vx) and _is_number(vy)):
            raise FlickError(
                f"flick velocity must be two numbers (vx, vy) in mm/s, got {_short(v)}"
            )
        object.__setattr__(self, "velocity", (float(vx), float(vy)))
        for name, unit in (("spin", "rad/s"), ("height_mm", "mm"), ("strike_mm", "mm")):
            value = getattr(self, name)
            if not _is_number(value):
                raise FlickError(f"flick {name} must be a number in {unit}, got {_short(value)}")
            object.__setattr__(self, name, float(value))
        if self.start is not None:
            start = _pair(self.start)
            if start is None:
                got = _short(self.start)
                raise FlickError(f"flick start must be two numbers (x, y) in mm or None, got {got}")
            object.__setattr__(self, "start", start)
        if not isinstance(self.launch, LaunchKind):
            try:  # accept the kind's name, e.g. "high"
                object.__setattr__(self, "launch", LaunchKind(self.launch))
            except ValueError:
                kinds = ", ".join(k.value for k in LaunchKind)
                raise FlickError(
                    f"unknown launch kind {self.launch!r}; expected one of {kinds}"
                ) from None

    @property
    def speed(self) -> float:
        """Speed of the flick, mm/s."""
        return math.hypot(self.velocity[0], self.velocity[1])


class RegionKind(Enum):
    """Where a settled die lies, decided from its whole footprint."""

    BOARD = "board"
    OFF_BOARD = "off_board"
    CENTER_RING = "center_ring"
    COURTYARD = "courtyard"
    GATEWAY = "gateway"
    MOAT = "moat"


@dataclass(frozen=True)
class Region:
    """A region with its seat (for courtyard, gateway and moat)."""

    kind: RegionKind
    seat: int | None = None

    def __str__(self) -> str:
        return self.kind.value if self.seat is None else f"{self.kind.value}:{self.seat}"

    @classmethod
    def parse(cls, text: str) -> Region:
        """Inverse of ``str``: ``"courtyard:2"`` -> Region(COURTYARD, 2).

        Raises:
            ValueError: unknown region text.
        """
        kind, _, seat = text.partition(":")
        return cls(RegionKind(kind), int(seat) if seat else None)


@dataclass(frozen=True)
class DiePose:
    """The settled state of one die.

    Attributes:
        die: die id.
        x, y: centre, mm.
        angle: yaw, rad (counter-clockwise).
        face: face up, 1..6 (for a cocked die, the face pointing most upward:
            "as if the support were removed").
        orientation: index 0..23 of the cube rotation at rest.
        region: the region of its whole footprint.
        cocked: True if it rests tilted against or on top of something.
        elevation_mm: height of what it rests on (0 on the board surface).
    """

    die: int
    x: float
    y: float
    angle: float
    face: int
    orientation: int
    region: Region
    cocked: bool = False
    elevation_mm: float = 0.0


class EventKind(Enum):
    """Kinds of physics events (the event log the rules read)."""

    LAUNCH = "launch"
    CONTACT = "contact"  # a die touched a wall, pin, die or the siege engine
    LANDING = "landing"  # an airborne die struck the surface beneath it
    TRIP = "trip"  # a sliding die caught an edge and tumbled
    HOP = "hop"  # a die pivoting on an edge turned too fast for the floor to hold it
    EXIT = "exit"  # a die left the board
    REST = "rest"  # a die came to rest


@dataclass(frozen=True)
class Event:
    """One entry of the event log.

    ``other`` names what was touched: ``"die:<id>"``, ``"wall"``, ``"pin:<hole>"``,
    ``"siege_engine"``, ``"table"``; ``speed`` is the normal impact speed (mm/s)
    for contacts and landings; ``over_wall`` marks an exit over the side walls.
    """

    kind: EventKind
    t: float
    die: int
    x: float
    y: float
    other: str = ""
    speed: float = 0.0
    face: int = 0
    over_wall: bool = False


@dataclass(frozen=True)
class FlickResult:
    """What a flick came to once everything settled.

    Attributes:
        flick: the flick simulated.
        poses: settled poses of every die still on the board, by die id.
        exited: ids of dice that left the board during this flick.
        events: the event log, in time order.
        steps: physics steps taken.
        settle_s: simulated seconds from the flick to everything at rest.
        digest: SHA-256 hex of the settled state (see ``World.digest``).
        initial_face: face up of the flicked die before the flick.
    """

    flick: Flick
    poses: dict[int, DiePose]
    exited: tuple[int, ...]
    events: tuple[Event, ...]
    steps: int
    settle_s: float
    digest: str
    initial_face: int
    touched: frozenset[int] = field(default_factory=frozenset)

    @property
    def pose(self) -> DiePose | None:
        """The flicked die's settled pose, or None if it left the board."""
        return self.poses.get(self.flick.die)

    def end(self) -> DieEnd:
        """Where the flicked die ended: its settled pose, or where it left
        the board (its face as it left, angle 0, region off board); and how
        many times it landed. The one summary of a trial the ``flick``
        command and the fidelity suite both report."""
        die = self.flick.die
        landings = sum(1 for e in self.events if e.kind is EventKind.LANDING and e.die == die)
        pose = self.pose
        if pose is None:
            ex = next(e for e in self.events if e.kind is EventKind.EXIT and e.die == die)
            off = Region(RegionKind.OFF_BOARD)
            return DieEnd(ex.x, ex.y, 0.0, ex.face, off, False, True, landings)
        return DieEnd(pose.x, pose.y, pose.angle, pose.face, pose.region, pose.cocked, False,
                      landings)  # fmt: skip


@dataclass(frozen=True)
class DieEnd:
    """Where a flicked die ended (:meth:`FlickResult.end`): centre (mm, the
    exit point if it left the board), yaw (rad), face up, region, cocked,
    whether it left the board, and its landings."""

    x: float
    y: float
    angle: float
    face: int
    region: Region
    cocked: bool
    exited: bool
    landings: int
