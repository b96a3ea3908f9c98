"""The board layer: the Warlords board as validated, immutable data.

Contract
--------
* Reads a board file (``boards/NAME.toml``) and returns a :class:`Board`, a
  tree of frozen dataclasses. Nothing here knows about pymunk, the rules or
  any window; every other layer imports this one, never the reverse.
* Units throughout the package: millimetres (mm), grams (g), seconds (s) and
  radians (rad). Frame: origin at the board centre, x right, y up, seen from
  above. Seats are numbered in turn (clockwise) order: 0 bottom edge, 1 left,
  2 top, 3 right. A castle is described once, in seat 0's frame, and turned
  by -90 degrees per seat.
* A bad file raises :class:`BoardError` whose message names the file, the
  field and what was expected.
* Every count and length of the file is bounded before anything is built:
  the file's size (:data:`MAX_FILE_BYTES`), then each number and list in the
  msgspec schema (board side :data:`BOARD_SIZE_RANGE_MM`, coordinates within
  the largest board, heights up to :data:`MAX_HEIGHT_MM`, at most
  :data:`MAX_CASTLE_PARTS` walls, gateways and side walls, at most
  :data:`MAX_RING_HOLES` ring holes and :data:`MAX_FIELD_HOLES` field holes;
  each bound's reason is its ``description`` and is quoted in the error),
  then the bounds that depend on other fields (die sides
  :data:`DIE_SIDE_RANGE_MM`, the die's density
  :data:`DIE_DENSITY_RANGE_G_CM3`, everything within this board, the
  ring's holes spaced for its pins, launch spots outside the castle), then
  the geometry as a whole: the parts of a castle and the four turned
  castles apart, gateways opening on the courtyard, every pin clear of the
  castles and of the other pins, the ring clear of the castles
  (``_check_geometry``). The shipped boards pass every check.

The rulebook gives no measurements; ``boards/standard.toml`` documents ours.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
import msgspec.inspect

from warlords_sim._files import FileProblem, parse_toml, read_user_file
from warlords_sim._msgspec import field_problem, where_and_what
from warlords_sim.errors import WarlordsError

__all__ = [
    "BOARDS_DIR",
    "BOARD_SIZE_RANGE_MM",
    "DIE_DENSITY_RANGE_G_CM3",
    "DIE_SIDE_RANGE_MM",
    "MAX_CASTLE_PARTS",
    "MAX_FIELD_HOLES",
    "MAX_FILE_BYTES",
    "MAX_HEIGHT_MM",
    "MAX_RING_HOLES",
    "Board",
    "BoardError",
    "Castle",
    "CenterRing",
    "Crenelation",
    "DieSpec",
    "FrontArea",
    "LaunchSpot",
    "Material",
    "PinSpec",
    "Rect",
    "SiegeEngineSpec",
    "Wall",
    "board_from_bytes",
    "castle_seats_for",
    "closed_seats",
    "default_pins",
    "load_board",
    "read_board_file",
    "notch_wall",
    "known_boards",
    "resolve_board_path",
    "rotate_to_seat",
    "seat_pins",
    "standing_walls",
]


def _shipped_boards_dir() -> Path:
    """The folder of the shipped board files, found with :mod:`importlib.resources`.

    An installed wheel holds them as package data, ``warlords_sim/boards/``
    (pyproject.toml maps the repository's top-level ``boards/`` there). A source
    checkout (an editable install, or ``PYTHONPATH``) has no such folder in the
    package; there they are the checkout's ``boards/``, beside the package.
    """
    package = importlib.resources.files("warlords_sim")
    packaged = package / "boards"
    if not packaged.is_dir() and isinstance(package, Path):
        return package.parent / "boards"
    return Path(str(packaged))


#: Folder of the board files shipped with the project: ``warlords_sim/boards/``
#: of an installed wheel, else ``boards/`` at the top of a source checkout.
BOARDS_DIR = _shipped_boards_dir()

Point = tuple[float, float]


class BoardError(WarlordsError, ValueError):
    """A board file is missing, unreadable or invalid.

    The message names the file, the field and what was expected.
    """


def rotate_to_seat(x: float, y: float, seat: int) -> Point:
    """Turn a point given in seat 0's frame into seat ``seat``'s place.

    Args:
        x, y: point in seat 0's frame, mm.
        seat: 0..3; the castle turns by -90 degrees (clockwise) per seat.

    Returns:
        The point in the board frame, mm. Exact for multiples of 90 degrees
        (integer cosines, no rounding error).
    """
    c, s = ((1, 0), (0, -1), (-1, 0), (0, 1))[seat % 4]
    return (x * c - y * s + 0.0, x * s + y * c + 0.0)


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle, mm: ``x0 <= x <= x1``, ``y0 <= y <= y1``."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def center(self) -> Point:
        return ((self.x0 + self.x1) / 2.0, (self.y0 + self.y1) / 2.0)

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    def contains(self, x: float, y: float, margin: float = 0.0) -> bool:
        """True if (x, y) lies inside the rectangle shrunk by ``margin`` mm."""
        return (
            self.x0 + margin <= x <= self.x1 - margin and self.y0 + margin <= y <= self.y1 - margin
        )

    def contains_all(self, points: tuple[Point, ...] | list[Point]) -> bool:
        """True if every point lies inside (a die footprint's corners, say)."""
        return all(self.contains(px, py) for px, py in points)

    def overlaps_any(self, points: tuple[Point, ...] | list[Point]) -> bool:
        """True if any point lies inside."""
        return any(self.contains(px, py) for px, py in points)

    def rotated(self, seat: int) -> Rect:
        """This rectangle (given in seat 0's frame) turned to ``seat``."""
        ax, ay = rotate_to_seat(self.x0, self.y0, seat)
        bx, by = rotate_to_seat(self.x1, self.y1, seat)
        return Rect(min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))

    def as_list(self) -> list[float]:
        return [self.x0, self.y0, self.x1, self.y1]


@dataclass(frozen=True)
class Wall:
    """A wall: a rectangular footprint (mm) and a height (mm).

    A die whose lowest point is above ``height_mm`` passes over it.
    """

    rect: Rect
    height_mm: float


class Crenelation(Enum):
    """The two launch heights of a front area (rulebook, Flicking)."""

    HIGH = "high"
    LOW = "low"


@dataclass(frozen=True)
class LaunchSpot:
    """Where a die from the supply starts: a seat's front area at a crenelation.

    ``x, y`` is the die's centre (mm) just outside the front face of the wall,
    ``height_mm`` the height of its bottom face, ``outward`` the unit vector
    from the castle towards the board.
    """

    seat: int
    area: int
    crenelation: Crenelation
    x: float
    y: float
    height_mm: float
    outward: Point


@dataclass(frozen=True)
class FrontArea:
    """One of a castle's three front areas (1..3, left to right as its seat sees them)."""

    area: int
    high: LaunchSpot
    low: LaunchSpot

    def spot(self, crenelation: Crenelation) -> LaunchSpot:
        return self.high if crenelation is Crenelation.HIGH else self.low


@dataclass(frozen=True)
class Castle:
    """A castle at one seat, in board coordinates (mm).

    ``walls`` block dice lower than their height; ``courtyard`` is the
    scoring region; a die entirely inside one of ``gateways`` is moved to the
    back of the courtyard (rulebook, End of a Round and Damage); ``moat`` is
    where a Spy may not be placed. ``three_player_wall`` closes this seat's
    place when no castle stands there; ``side_walls`` are the optional walls
    of the wall variants along this seat's board edge.
    """

    seat: int
    walls: tuple[Wall, ...]
    courtyard: Rect
    gateways: tuple[Rect, ...]
    moat: Rect
    front_areas: tuple[FrontArea, ...]
    wall_holes: tuple[Point, Point]
    three_player_wall: Wall
    side_walls: tuple[Wall, ...]
    outward: Point

    @property
    def footprint(self) -> Rect:
        """Bounding rectangle of the walls, mm."""
        return Rect(
            min(w.rect.x0 for w in self.walls),
            min(w.rect.y0 for w in self.walls),
            max(w.rect.x1 for w in self.walls),
            max(w.rect.y1 for w in self.walls),
        )

    @property
    def edge_gap_wall(self) -> Wall:
        """The side wall that closes the board edge where this castle would
        stand when its seat is walled off (three players, side walls up): as
        thick and tall as the castle's side walls, as wide as its footprint.

        Raises:
            BoardError: the castle has no side walls to take the size from.
        """
        if not self.side_walls:
            raise BoardError(f"castle {self.seat} has no side walls")
        fp = self.footprint
        side = self.side_walls[0]
        t = min(side.rect.width, side.rect.height)
        ox, oy = self.outward  # from the board edge into the board
        if ox == 0.0:
            y0 = fp.y0 if oy > 0 else fp.y1 - t
            rect = Rect(fp.x0, y0, fp.x1, y0 + t)
        else:
            x0 = fp.x0 if ox > 0 else fp.x1 - t
            rect = Rect(x0, fp.y0, x0 + t, fp.y1)
        return Wall(rect, side.height_mm)

    @property
    def back_of_courtyard(self) -> Point:
        """A point at the back of the courtyard (mm), where gateway dice are moved."""
        cx, cy = self.courtyard.center
        ox, oy = self.outward
        depth = min(self.courtyard.width, self.courtyard.height) / 2.0
        return (cx - ox * depth * 0.5, cy - oy * depth * 0.5)


@dataclass(frozen=True)
class Material:
    """Contact parameters against a die: restitution and kinetic friction coefficient."""

    restitution: float
    friction: float


@dataclass(frozen=True)
class DieSpec:
    """The d6: edge length (mm), mass (g) and its contact coefficients.

    ``edge_radius_mm`` is the radius (mm) of its rounded edges and corners
    (the 3D reference engine models them; the 2.5D world ignores them).
    ``sides_mm`` are its side lengths along its body axes x, y, z (the axes
    of faces 2, 3 and 1), mm: ``(size, size, size)`` for a cube; a cuboid
    die is for the reference engine only (the 2.5D world refuses it).
    """

    size_mm: float
    mass_g: float
    table_friction: float
    table_static_friction: float
    table_restitution: float
    die_friction: float
    die_restitution: float
    edge_radius_mm: float = 1.6
    sides_mm: tuple[float, float, float] = (16.0, 16.0, 16.0)

    @property
    def cubic(self) -> bool:
        """True if every side is ``size_mm`` long (a cube)."""
        return all(s == self.size_mm for s in self.sides_mm)

    @property
    def strike_limit_mm(self) -> float:
        """Largest ``|strike_mm|`` of a flick, mm from the die's centre: half
        its height, its body z side (``sides_mm[2]``; ``size_mm / 2`` for a
        cube): the finger strikes within the die's trailing face.

        The one owner of the strike limit: the physics' flick check
        (``physics.checks.validate_flick``), the rules' legality check, the
        hand (``bots.policy``), the random bot, the window's strike control
        and the fidelity scenarios all read it. Before issue 22 the rules,
        the random bot and the window used ``size_mm / 2``, which on a
        cuboid die is not the physics' limit."""
        return self.sides_mm[2] / 2.0


@dataclass(frozen=True)
class PinSpec:
    """A pin (peg): a cylinder of ``radius_mm`` and ``height_mm``."""

    radius_mm: float
    height_mm: float
    material: Material


@dataclass(frozen=True)
class CenterRing:
    """The centre ring: ``holes`` on a circle of ``radius_mm`` around the origin.

    ``inner_radius_mm`` is the radius a die must lie entirely within to be
    "entirely within the center ring" (the hole circle less a pin radius).
    ``pins_by_seat[k]`` are the hole indices (into ``Board.holes``) of the
    pins set up for seat k, "directly across from their home castle"
    (rulebook, Rounds and Setup).
    """

    radius_mm: float
    inner_radius_mm: float
    hole_indices: tuple[int, ...]
    pins_by_seat: tuple[tuple[int, ...], ...]

    def contains_all(self, points: tuple[Point, ...] | list[Point]) -> bool:
        r2 = self.inner_radius_mm**2
        return all(px * px + py * py <= r2 for px, py in points)


@dataclass(frozen=True)
class SiegeEngineSpec:
    """The siege engine: a square footprint ``width_mm`` wide (mm); dice are
    flicked from its top, ``launch_height_mm`` high."""

    width_mm: float
    launch_height_mm: float


@dataclass(frozen=True)
class Board:
    """A validated board. All lengths mm, masses g, times s.

    ``holes`` lists every pin hole: the centre ring's first (see
    ``center_ring.hole_indices``), then the field holes. ``sha256`` is the
    hash of the file's bytes (replays record it).
    """

    name: str
    description: str
    path: str
    sha256: str
    size_mm: float
    gravity_mm_s2: float
    die: DieSpec
    pin: PinSpec
    wall_material: Material
    castles: tuple[Castle, ...]
    holes: tuple[Point, ...]
    center_ring: CenterRing
    siege_engine: SiegeEngineSpec
    high_crenelation_mm: float
    low_crenelation_mm: float
    crenelation_width_mm: float = 20.0

    @property
    def half_size_mm(self) -> float:
        return self.size_mm / 2.0

    def on_board(self, x: float, y: float) -> bool:
        """True if the point (mm) is over the board surface."""
        h = self.half_size_mm
        return -h <= x <= h and -h <= y <= h

    def launch_spot(self, seat: int, area: int, crenelation: Crenelation) -> LaunchSpot:
        """The launch spot of ``seat``'s front ``area`` (1..3) at ``crenelation``.

        Raises:
            BoardError: seat not 0..3 or area not 1..3.
        """
        if not 0 <= seat < len(self.castles):
            raise BoardError(f"{self.path}: no seat {seat}; expected 0..{len(self.castles) - 1}")
        areas = self.castles[seat].front_areas
        if not 1 <= area <= len(areas):
            raise BoardError(f"{self.path}: no front area {area}; expected 1..{len(areas)}")
        return areas[area - 1].spot(crenelation)


# --------------------------------------------------------------------------
# File schema (msgspec validates types and names the field in its errors)
# --------------------------------------------------------------------------

#: Largest board side, mm. A flick at the speed limit (2000 mm/s) slides
#: v^2 / (2 mu g) = 680 mm on the standard table (mu = 0.3): a board over
#: 5 m is never crossed; under 100 mm no castle of a hand-sized die fits.
BOARD_SIZE_RANGE_MM = (100.0, 5000.0)
#: Tallest wall, crenelation, pin or siege engine, mm. The standard's tallest
#: is 60 mm; a die falling 500 mm lands at 3.1 m/s, 1.6 times the 2 m/s flick
#: limit the impact coefficients were chosen for.
MAX_HEIGHT_MM = 500.0
#: Most walls, gateways or side walls of a castle: the standard has 6, 2 and 2;
#: each is a physics shape at four seats.
MAX_CASTLE_PARTS = 64
#: Most centre-ring holes. Also, so that pins in neighbouring holes do not
#: overlap, at most pi / asin(pin radius / ring radius): 62 on the standard
#: ring, which has 12.
MAX_RING_HOLES = 400
#: Most field holes: the standard has 52; the rules scan every hole for each
#: list of legal actions.
MAX_FIELD_HOLES = 1000
#: Largest board file read, bytes (the standard is 6 kB; 1000 field holes
#: take about 20 kB), checked before it is parsed.
MAX_FILE_BYTES = 1_000_000

_SIDE = BOARD_SIZE_RANGE_MM[1]


def _m(description: str, **bounds: Any) -> msgspec.Meta:
    return msgspec.Meta(description=description, **bounds)


# Every number of the file is bounded here, in the schema, so that msgspec
# refuses it before anything is built; each bound carries its reason (shown
# in the error). Tighter bounds that depend on other fields (this board's
# size, the die's size, the ring's radius) are checked in load_board.
Coord = Annotated[
    float,
    _m(
        f"a coordinate on the largest board (|x|, |y| <= {_SIDE / 2:g} mm; "
        "checked against this board's size too)",
        ge=-_SIDE / 2,
        le=_SIDE / 2,
    ),
]
Length = Annotated[
    float, _m(f"a positive length no longer than the largest board ({_SIDE:g} mm)", gt=0, le=_SIDE)
]
Height = Annotated[
    float,
    _m(
        f"a positive height up to {MAX_HEIGHT_MM:g} mm (a die falling further lands faster "
        "than the flick speeds the impact model is for; the standard's tallest is 60 mm)",
        gt=0,
        le=MAX_HEIGHT_MM,
    ),
]
Vec2 = tuple[Coord, Coord]
Rect4 = tuple[Coord, Coord, Coord, Coord]
BoardSize = Annotated[
    float,
    _m(
        f"a board side in [{BOARD_SIZE_RANGE_MM[0]:g}, {_SIDE:g}] mm (a flick at the 2000 mm/s "
        "limit slides about 680 mm; the standard board is 600 mm)",
        ge=BOARD_SIZE_RANGE_MM[0],
        le=_SIDE,
    ),
]
Gravity = Annotated[
    float,
    _m("a gravity in [981, 98100] mm/s^2 (0.1 g to 10 g; Earth: 9810)", ge=981.0, le=98100.0),
]
Mass = Annotated[
    float,
    _m("a mass in (0, 1000] g (a die a finger flicks; the standard is 4.6 g)", gt=0, le=1000.0),
]
PinRadius = Annotated[
    float, _m("a pin radius in [0.5, 50] mm (a peg; the standard is 3 mm)", ge=0.5, le=50.0)
]


def _count(what: str, most: int, least: int = 0) -> msgspec.Meta:
    return _m(f"{least}..{most} {what}", min_length=least, max_length=most)


class _BoardSection(msgspec.Struct, forbid_unknown_fields=True):
    size_mm: BoardSize
    gravity_mm_s2: Gravity = 9810.0


class _DieSection(msgspec.Struct, forbid_unknown_fields=True):
    # sides and coefficients: checked in load_board (DIE_SIDE_RANGE_MM, _fraction)
    size_mm: float
    mass_g: Mass
    table_friction: float
    table_static_friction: float
    table_restitution: float
    die_friction: float
    die_restitution: float
    edge_radius_mm: float | None = None
    sides_mm: tuple[float, float, float] | None = None


class _PinSection(msgspec.Struct, forbid_unknown_fields=True):
    radius_mm: PinRadius
    height_mm: Height
    friction: float
    restitution: float


class _MaterialSection(msgspec.Struct, forbid_unknown_fields=True):
    friction: float
    restitution: float


class _WallSection(msgspec.Struct, forbid_unknown_fields=True):
    rect: Rect4
    height_mm: Height


class _FrontAreaSection(msgspec.Struct, forbid_unknown_fields=True):
    high: Vec2
    low: Vec2


class _ThreePlayerWallSection(msgspec.Struct, forbid_unknown_fields=True):
    holes: tuple[Vec2, Vec2]
    thickness_mm: Length
    height_mm: Height


_PARTS = (
    "(the standard castle has 6 walls, 2 gateways and 2 side walls; "
    "each is a physics shape at four seats)"
)


class _CastleSection(msgspec.Struct, forbid_unknown_fields=True):
    high_crenelation_mm: Height
    low_crenelation_mm: Height
    courtyard: Rect4
    gateways: Annotated[list[Rect4], _count(f"gateways {_PARTS}", MAX_CASTLE_PARTS, 1)]
    moat: Rect4
    walls: Annotated[list[_WallSection], _count(f"walls {_PARTS}", MAX_CASTLE_PARTS, 1)]
    front_areas: Annotated[
        list[_FrontAreaSection], _count("front areas (the rulebook's three)", 3, 3)
    ]
    three_player_wall: _ThreePlayerWallSection
    side_walls: Annotated[list[_WallSection], _count(f"side walls {_PARTS}", MAX_CASTLE_PARTS)] = []
    crenelation_width_mm: Length = 20.0


class _RingSection(msgspec.Struct, forbid_unknown_fields=True):
    radius_mm: Length
    holes: Annotated[
        int,
        _m(
            f"a multiple of 4 in 4..{MAX_RING_HOLES} (one pin set-up per seat; the standard "
            "ring has 12 holes)",
            ge=4,
            le=MAX_RING_HOLES,
            multiple_of=4,
        ),
    ]
    pins_per_seat: Annotated[
        int,
        _m(
            f"1..{MAX_RING_HOLES // 4} (and at most a quarter of the holes)",
            ge=1,
            le=MAX_RING_HOLES // 4,
        ),
    ]


class _SiegeSection(msgspec.Struct, forbid_unknown_fields=True):
    width_mm: Length
    launch_height_mm: Height


class _FieldSection(msgspec.Struct, forbid_unknown_fields=True):
    holes: Annotated[
        list[Vec2],
        _count(
            "holes (the standard board has 52; the rules scan every hole each turn)",
            MAX_FIELD_HOLES,
        ),
    ]


_Name = Annotated[str, _m("a name of 1..100 characters", min_length=1, max_length=100)]


class _BoardFile(msgspec.Struct, forbid_unknown_fields=True):
    format: Literal["warlords-board"]
    version: Literal[1]
    name: _Name
    board: _BoardSection
    die: _DieSection
    pin: _PinSection
    wall_material: _MaterialSection
    castle: _CastleSection
    center_ring: _RingSection
    siege_engine: _SiegeSection
    field: _FieldSection
    description: Annotated[str, _m("a text of at most 10000 characters", max_length=10_000)] = ""


def known_boards() -> list[str]:
    """The names of the shipped boards (``boards/*.toml``), sorted."""
    return sorted(f.stem for f in BOARDS_DIR.glob("*.toml"))


def resolve_board_path(name_or_path: str | Path) -> Path:
    """Find a board file: an existing path, else ``boards/NAME.toml``.

    Raises:
        BoardError: empty, or neither exists; the message lists the shipped boards.
    """
    p = Path(name_or_path)
    text = str(name_or_path)
    if not text.strip():  # Path("") is the current folder
        raise BoardError(
            f"empty board name: expected a board of boards/ ({', '.join(known_boards())}) "
            "or a path to a board .toml file"
        )
    if p.is_dir():
        raise BoardError(f"{p}: is a folder, not a board file")
    if p.is_file():
        return p
    if p.exists():
        raise BoardError(f"{p}: not a regular file, expected a board file")
    if p.suffix == ".toml" or "/" in text or "\\" in text:
        raise BoardError(f"{p}: board file not found")
    candidate = BOARDS_DIR / f"{name_or_path}.toml"
    if candidate.is_file():
        return candidate
    known = ", ".join(known_boards()) or "none"
    raise BoardError(
        f"unknown board {str(name_or_path)!r}: not a file and not in {BOARDS_DIR} "
        f"(known boards: {known})"
    )


def _err(path: Path, field: str, expected: str) -> BoardError:
    return BoardError(f"{path}: field `{field}`: expected {expected}")


def _rect(path: Path, field: str, r: Rect4) -> Rect:
    for v in r:
        if not math.isfinite(v):
            raise _err(path, field, "finite numbers")
    if not (r[0] < r[2] and r[1] < r[3]):
        raise _err(path, field, f"[x0, y0, x1, y1] with x0 < x1 and y0 < y1, got {list(r)}")
    return Rect(*r)


def _positive(path: Path, field: str, v: float) -> float:
    if not (math.isfinite(v) and v > 0):
        raise _err(path, field, f"a positive number, got {v}")
    return v


#: Side lengths a die may have, mm: hand-sized dice (a standard d6 is
#: 16 mm; 2..100 mm leaves wide room). The simulation is set up and checked
#: for such dice; far outside them the 3D reference breaks (sides of 1e300 mm
#: crashed MuJoCo, 1e9 mm flooded qhull warnings building the die's mesh).
DIE_SIDE_RANGE_MM = (2.0, 100.0)


def _die_side(path: Path, field: str, v: float) -> float:
    lo, hi = DIE_SIDE_RANGE_MM
    if not (math.isfinite(v) and lo <= v <= hi):
        raise _err(
            path,
            field,
            f"a side in [{lo:g}, {hi:g}] mm (a hand-sized die, as the simulation is set up "
            f"and checked for; a standard d6 is 16 mm), got {v}",
        )
    return float(v)


#: Densities a die may have, g/cm^3: from a foam (polystyrene foam is about
#: 0.02) to osmium (22.6, the densest element). The standard die, 4.6 g in
#: 4.1 cm^3, has 1.12. A mass far below the range (1e-320 g, a subnormal
#: number) breaks the physics: every launch left the board.
DIE_DENSITY_RANGE_G_CM3 = (0.01, 23.0)


def _die_mass(path: Path, v: float, sides: tuple[float, float, float]) -> float:
    lo, hi = DIE_DENSITY_RANGE_G_CM3
    volume = sides[0] * sides[1] * sides[2] / 1000.0  # cm^3
    if not (math.isfinite(v) and lo * volume <= v <= hi * volume):
        raise _err(
            path,
            "die.mass_g",
            f"a mass of {lo * volume:.3g}..{hi * volume:.3g} g for this die's "
            f"{volume:.3g} cm^3 (a density of {lo:g}..{hi:g} g/cm^3, from foam to osmium; "
            f"the standard die has 1.12), got {v!r}",
        )
    return float(v)


def _fraction(path: Path, field: str, v: float, hi: float = 1.0) -> float:
    if not (math.isfinite(v) and 0.0 <= v <= hi):
        raise _err(path, field, f"a number in [0, {hi}], got {v}")
    return v


def _build_castle(path: Path, cs: _CastleSection, seat: int, die_size: float) -> Castle:
    walls = tuple(
        Wall(
            _rect(path, f"castle.walls[{i}].rect", w.rect).rotated(seat),
            _positive(path, f"castle.walls[{i}].height_mm", w.height_mm),
        )
        for i, w in enumerate(cs.walls)
    )
    side = tuple(
        Wall(
            _rect(path, f"castle.side_walls[{i}].rect", w.rect).rotated(seat),
            _positive(path, f"castle.side_walls[{i}].height_mm", w.height_mm),
        )
        for i, w in enumerate(cs.side_walls)
    )
    gateways = tuple(
        _rect(path, f"castle.gateways[{i}]", g).rotated(seat) for i, g in enumerate(cs.gateways)
    )
    for i, g in enumerate(gateways):
        if min(g.width, g.height) < die_size:
            raise _err(path, f"castle.gateways[{i}]", f"room for a {die_size} mm die")
    courtyard = _rect(path, "castle.courtyard", cs.courtyard).rotated(seat)
    moat = _rect(path, "castle.moat", cs.moat).rotated(seat)
    outward = rotate_to_seat(0.0, 1.0, seat)
    if len(cs.front_areas) != 3:
        raise _err(path, "castle.front_areas", f"3 front areas, got {len(cs.front_areas)}")
    areas = []
    for i, fa in enumerate(cs.front_areas):
        spots = {}
        for cren, xy, h in (
            (Crenelation.HIGH, fa.high, cs.high_crenelation_mm),
            (Crenelation.LOW, fa.low, cs.low_crenelation_mm),
        ):
            x, y = rotate_to_seat(xy[0], xy[1], seat)
            spots[cren] = LaunchSpot(seat, i + 1, cren, x, y, h, outward)
        areas.append(FrontArea(i + 1, spots[Crenelation.HIGH], spots[Crenelation.LOW]))
    tp = cs.three_player_wall
    (ax, ay), (bx, by) = tp.holes
    t = _positive(path, "castle.three_player_wall.thickness_mm", tp.thickness_mm) / 2.0
    tp_rect = Rect(min(ax, bx) - t, min(ay, by) - t, max(ax, bx) + t, max(ay, by) + t)
    holes = (rotate_to_seat(ax, ay, seat), rotate_to_seat(bx, by, seat))
    return Castle(
        seat=seat,
        walls=walls,
        courtyard=courtyard,
        gateways=gateways,
        moat=moat,
        front_areas=tuple(areas),
        wall_holes=holes,
        three_player_wall=Wall(
            tp_rect.rotated(seat),
            _positive(path, "castle.three_player_wall.height_mm", tp.height_mm),
        ),
        side_walls=side,
        outward=outward,
    )


def _check_layout(
    path: Path,
    castles: tuple[Castle, ...],
    holes: tuple[Point, ...],
    n_ring: int,
    half: float,
    die_size: float,
    pin_radius: float,
) -> None:
    """Everything on the board and nothing inside a wall that must not be."""

    def within(r: Rect) -> bool:
        return max(abs(r.x0), abs(r.x1), abs(r.y0), abs(r.y1)) <= half + 1e-9

    c = castles[0]  # the castle is given once: seat 0's copy names the fields
    if not c.gateways:
        raise _err(path, "castle.gateways", "at least one gateway")
    for field, rects in (
        ("castle.walls", [w.rect for w in c.walls]),
        ("castle.side_walls", [w.rect for w in c.side_walls]),
        ("castle.gateways", list(c.gateways)),
        ("castle.courtyard", [c.courtyard]),
        ("castle.moat", [c.moat]),
        ("castle.three_player_wall", [c.three_player_wall.rect]),
    ):
        for i, r in enumerate(rects):
            if not within(r):
                raise _err(
                    path, f"{field}[{i}]", f"a rectangle within the board (|x|, |y| <= {half:g})"
                )
    h = die_size / 2.0
    for i, area in enumerate(c.front_areas):
        for spot in (area.high, area.low):
            name = f"castle.front_areas[{i}].{spot.crenelation.value}"
            if abs(spot.x) > half - h or abs(spot.y) > half - h:
                raise _err(
                    path, name, f"a launch spot with the die on the board, got {[spot.x, spot.y]}"
                )
            for w in c.walls:
                r = w.rect
                if r.x0 - h < spot.x < r.x1 + h and r.y0 - h < spot.y < r.y1 + h:
                    raise _err(path, name, "a launch spot whose die clears the castle walls")
            # a die from the supply starts outside the castle, in front of its wall
            for part, r in [("courtyard", c.courtyard), *(("gateway", g) for g in c.gateways)]:
                if r.x0 - h < spot.x < r.x1 + h and r.y0 - h < spot.y < r.y1 + h:
                    raise _err(
                        path,
                        name,
                        f"a launch spot outside the castle, its die clear of the {part} "
                        f"{r.as_list()} (a die from the supply starts in front of the wall), "
                        f"got {[spot.x, spot.y]}",
                    )
    seen: dict[tuple[float, float], int] = {}
    walls = [w.rect for k in castles for w in k.walls]
    for i, (x, y) in enumerate(holes):
        name = f"field.holes[{i - n_ring}]" if i >= n_ring else "center_ring.radius_mm"
        if not (abs(x) < half and abs(y) < half):
            raise _err(path, name, f"holes on the board, got {[x, y]}")
        if (x, y) in seen:
            raise _err(path, name, f"distinct holes; [{x:g}, {y:g}] is given twice")
        seen[(x, y)] = i
        for r in walls:
            if r.contains(x, y, -pin_radius):
                raise _err(path, name, f"a hole clear of the castle walls, got {[x, y]}")


#: Slack (mm) in the geometry checks: rectangles that only touch (share an
#: edge) are apart; the seats' copies are exact (integer cosines).
_EPS = 1e-9


def _overlap(a: Rect, b: Rect) -> bool:
    """The rectangles' insides meet (touching edges do not count)."""
    return a.x0 < b.x1 - _EPS and b.x0 < a.x1 - _EPS and a.y0 < b.y1 - _EPS and b.y0 < a.y1 - _EPS


def _adjoin(a: Rect, b: Rect) -> bool:
    """The rectangles share a stretch of edge (or overlap)."""
    ix = min(a.x1, b.x1) - max(a.x0, b.x0)
    iy = min(a.y1, b.y1) - max(a.y0, b.y0)
    return (ix >= -_EPS and iy > _EPS) or (iy >= -_EPS and ix > _EPS)


def _rect_text(r: Rect) -> str:
    return "[" + ", ".join(f"{v:g}" for v in r.as_list()) + "]"


def _parts(c: Castle) -> list[tuple[str, str, Rect]]:
    """(field, kind, rectangle) of every part of castle ``c``; the field is
    named as in the file (the castle is given once, in seat 0's frame)."""
    out = [(f"castle.walls[{i}]", "wall", w.rect) for i, w in enumerate(c.walls)]
    out.append(("castle.courtyard", "courtyard", c.courtyard))
    out += [(f"castle.gateways[{i}]", "gateway", g) for i, g in enumerate(c.gateways)]
    out.append(("castle.moat", "moat", c.moat))
    out += [(f"castle.side_walls[{i}]", "side wall", w.rect) for i, w in enumerate(c.side_walls)]
    out.append(("castle.three_player_wall", "three-player wall", c.three_player_wall.rect))
    return out


#: Pairs of kinds that may overlap. In one castle: the three-player wall
#: stands only where no castle does (it may cross that castle's place).
#: Between seats: the side walls of neighbouring seats meet in the board's
#: corners, and only one seat is ever closed by a three-player wall.
_SAME_CASTLE_OK = frozenset(
    frozenset((k, "three-player wall"))
    for k in ("wall", "courtyard", "gateway", "moat", "side wall", "three-player wall")
)
_OTHER_SEAT_OK = frozenset({frozenset(("side wall",)), frozenset(("three-player wall",))})


def _check_geometry(
    path: Path,
    castles: tuple[Castle, ...],
    holes: tuple[Point, ...],
    n_ring: int,
    ring_radius: float,
    pin_radius: float,
    die_size: float,
) -> None:
    """The board as a whole can be built: in a castle no two parts overlap
    (walls, courtyard, gateways, moat, side walls) and each gateway opens
    on the courtyard; the four castles, turned to their seats, keep apart
    (their side walls may meet in the corners); every pin, in any hole,
    stands clear of every castle's walls, courtyard and gateways and of the
    side and three-player walls, and apart from the pins of other holes;
    the centre ring keeps clear of the castles; a die at a launch spot is
    clear of the other castles.

    Raises:
        BoardError: naming the field (as the file gives it, in seat 0's
            frame) and what it overlaps.
    """
    own = _parts(castles[0])
    for i, (fa, ka, ra) in enumerate(own):
        for fb, kb, rb in own[i + 1 :]:
            if frozenset((ka, kb)) not in _SAME_CASTLE_OK and _overlap(ra, rb):
                raise _err(
                    path,
                    fb,
                    f"a {kb} apart from {fa}: {_rect_text(rb)} overlaps the {ka} {_rect_text(ra)} "
                    "(a castle's parts may touch, not overlap)",
                )
    c0 = castles[0]
    for i, g in enumerate(c0.gateways):
        if not _adjoin(g, c0.courtyard):
            raise _err(
                path,
                f"castle.gateways[{i}]",
                f"a gateway that opens on the courtyard {_rect_text(c0.courtyard)} (sharing an "
                f"edge with it), got {_rect_text(g)}",
            )
    for seat in (1, 2, 3):
        other = _parts(castles[seat])
        for fa, ka, ra in own:
            for fb, kb, rb in other:
                if frozenset((ka, kb)) in _OTHER_SEAT_OK or not _overlap(ra, rb):
                    continue
                raise _err(
                    path,
                    fa,
                    f"castles that keep apart when turned to their seats: seat 0's {ka} "
                    f"{_rect_text(ra)} overlaps seat {seat}'s {kb} ({fb} turned: "
                    f"{_rect_text(rb)})",
                )
    solid = [
        (seat, field, kind, r)
        for seat, c in enumerate(castles)
        for field, kind, r in _parts(c)
        if kind != "moat"
    ]
    for i, (x, y) in enumerate(holes):
        name = f"field.holes[{i - n_ring}]" if i >= n_ring else "center_ring.radius_mm"
        for seat, field, kind, r in solid:
            if r.contains(x, y, -pin_radius):
                raise _err(
                    path,
                    name,
                    f"a hole whose pin ({pin_radius:g} mm radius) stands clear of the castles, "
                    f"got [{x:g}, {y:g}] in seat {seat}'s {kind} ({field} turned: "
                    f"{_rect_text(r)})",
                )
    _check_pins_apart(path, holes, n_ring, pin_radius)
    for seat, field, kind, r in solid:
        if kind in ("wall", "courtyard", "gateway") and _disc_meets(ring_radius, r):
            raise _err(
                path,
                "center_ring.radius_mm",
                f"a ring clear of the castles, got {ring_radius:g} mm, which reaches seat "
                f"{seat}'s {kind} ({field} turned: {_rect_text(r)})",
            )
    h = die_size / 2.0
    for i, area in enumerate(c0.front_areas):
        for spot in (area.high, area.low):
            die = Rect(spot.x - h, spot.y - h, spot.x + h, spot.y + h)
            for seat, field, kind, r in solid:
                if seat != 0 and _overlap(die, r):
                    raise _err(
                        path,
                        f"castle.front_areas[{i}].{spot.crenelation.value}",
                        f"a launch spot whose die is clear of the other castles, got "
                        f"[{spot.x:g}, {spot.y:g}] on seat {seat}'s {kind} ({field} turned: "
                        f"{_rect_text(r)})",
                    )


def _disc_meets(radius: float, r: Rect) -> bool:
    """The disc of ``radius`` around the board centre meets rectangle ``r``'s inside."""
    dx = max(r.x0, 0.0, -r.x1)
    dy = max(r.y0, 0.0, -r.y1)
    return math.hypot(dx, dy) < radius - _EPS


def _check_pins_apart(path: Path, holes: tuple[Point, ...], n_ring: int, pin_radius: float) -> None:
    """No two holes closer than a pin's width (their pins would overlap);
    a sweep over the holes sorted by x, so 1000 holes cost no million pairs."""
    gap = 2.0 * pin_radius
    order = sorted(range(len(holes)), key=lambda i: holes[i])
    for k, i in enumerate(order):
        xi, yi = holes[i]
        for j in order[k + 1 :]:
            xj, yj = holes[j]
            if xj - xi >= gap:
                break
            if math.hypot(xj - xi, yj - yi) < gap - _EPS:
                a, b = sorted((i, j))
                name = f"field.holes[{b - n_ring}]" if b >= n_ring else "center_ring.radius_mm"
                where = f"field.holes[{a - n_ring}]" if a >= n_ring else f"ring hole {a}"
                raise _err(
                    path,
                    name,
                    f"holes at least {gap:g} mm apart (two pins of {pin_radius:g} mm radius), got "
                    f"[{holes[b][0]:g}, {holes[b][1]:g}], "
                    f"{math.hypot(xj - xi, yj - yi):.3g} mm from {where}",
                )


def notch_wall(castle: Castle, spot: LaunchSpot, die_size: float) -> Wall | None:
    """The wall whose front edge is the ledge of launch ``spot``: the wall
    holding the point ``die_size / 2 + 1`` mm behind the spot (against its
    outward direction), where the die's centre leaves the ledge. None if no
    wall stands there."""
    ox, oy = spot.outward
    back = die_size / 2.0 + 1.0 + 1e-6
    px, py = spot.x - ox * back, spot.y - oy * back
    for w in castle.walls:
        if w.rect.contains(px, py):
            return w
    return None


def _check_notches(path: Path, castle: Castle, width: float, die_size: float) -> None:
    """Each low crenelation's notch (``width`` mm, centred on the launch
    spot) fits inside the front wall behind it."""
    for i, area in enumerate(castle.front_areas):
        spot = area.low
        wall = notch_wall(castle, spot, die_size)
        if wall is None:
            continue
        r = wall.rect
        lo, hi, c = (r.x0, r.x1, spot.x) if spot.outward[0] == 0.0 else (r.y0, r.y1, spot.y)
        if not (lo <= c - width / 2.0 and c + width / 2.0 <= hi):
            raise _err(
                path,
                "castle.crenelation_width_mm",
                f"a notch that fits in the front wall behind front_areas[{i}].low "
                f"(wall {lo:g}..{hi:g} mm, notch {c - width / 2.0:g}..{c + width / 2.0:g} mm)",
            )


def load_board(name_or_path: str | Path = "standard") -> Board:
    """Load and validate a board file.

    Args:
        name_or_path: a board name from ``boards/`` (``"standard"``) or a path
            to a ``.toml`` file.

    Returns:
        The validated :class:`Board` (all lengths mm).

    Raises:
        BoardError: unknown board, unreadable TOML, a missing or mistyped
            field, a value out of range, or a board that cannot be built
            (overlapping parts, a gateway off its courtyard, a pin inside a
            castle); the message names the file, the field and what was
            expected.
    """
    path, raw = read_board_file(name_or_path)
    return board_from_bytes(raw, path)


def read_board_file(name_or_path: str | Path) -> tuple[Path, bytes]:
    """The path a board name or path stands for, and the file's bytes (a
    regular file of at most :data:`MAX_FILE_BYTES`), unvalidated.

    Raises:
        BoardError: unknown board, or the file cannot be read (naming it).
    """
    path = resolve_board_path(name_or_path)
    raw = read_user_file(path, MAX_FILE_BYTES, "board file (the standard is 6 kB)", BoardError,
                         "the board file")  # fmt: skip
    return path, raw


def _parse_board_file(raw: bytes, path: Path) -> _BoardFile:
    """The bytes of a board file parsed (TOML) and checked against the schema
    (every field present, typed and within its bound), nothing built yet.

    Raises:
        BoardError: more than :data:`MAX_FILE_BYTES`, not TOML, or a field
            the schema refuses (its reason quoted), naming ``path``.
    """
    if len(raw) > MAX_FILE_BYTES:
        raise BoardError(
            f"{path}: expected a board file of at most {MAX_FILE_BYTES} bytes, got {len(raw)}"
        )
    try:
        data = parse_toml(raw)
    except FileProblem as e:
        raise BoardError(f"{path}: {e}") from None
    try:
        return msgspec.convert(data, _BoardFile)
    except msgspec.ValidationError as e:
        raise BoardError(f"{path}: {_explain_msgspec(str(e), data)}") from e


def _build_die(path: Path, d: _DieSection) -> DieSpec:
    """The die: its size and sides (mm, :data:`DIE_SIDE_RANGE_MM`; the sides
    default to a cube of the size), its edge radius (mm, default a tenth of
    the size), mass (g, :data:`DIE_DENSITY_RANGE_G_CM3`) and materials.

    Raises:
        BoardError: a side, the edge radius, the mass, a friction (0..2) or a
            restitution (0..1) out of range; checked in that order.
    """
    die_size = _die_side(path, "die.size_mm", d.size_mm)
    sx, sy, sz = d.sides_mm if d.sides_mm is not None else (die_size, die_size, die_size)
    sides = (
        _die_side(path, "die.sides_mm[0]", sx),
        _die_side(path, "die.sides_mm[1]", sy),
        _die_side(path, "die.sides_mm[2]", sz),
    )
    radius = d.edge_radius_mm if d.edge_radius_mm is not None else die_size / 10.0
    if not (math.isfinite(radius) and 0.0 < radius < min(sides) / 2.0):
        raise _err(
            path,
            "die.edge_radius_mm",
            f"a radius in (0, {min(sides) / 2.0:g}) mm, less than half the smallest side "
            f"(at half of it the die is a sphere or a rod), got {radius}",
        )
    return DieSpec(
        size_mm=die_size,
        mass_g=_die_mass(path, d.mass_g, sides),
        table_friction=_fraction(path, "die.table_friction", d.table_friction, 2.0),
        table_static_friction=_fraction(
            path, "die.table_static_friction", d.table_static_friction, 2.0
        ),
        table_restitution=_fraction(path, "die.table_restitution", d.table_restitution),
        die_friction=_fraction(path, "die.die_friction", d.die_friction, 2.0),
        die_restitution=_fraction(path, "die.die_restitution", d.die_restitution),
        edge_radius_mm=radius,
        sides_mm=sides,
    )


def _material(path: Path, section: str, restitution: float, friction: float) -> Material:
    """A material of the file's ``section`` (``pin``, ``wall_material``).

    Raises:
        BoardError: the restitution outside 0..1 or (then) the friction
            outside 0..2.
    """
    return Material(
        _fraction(path, f"{section}.restitution", restitution),
        _fraction(path, f"{section}.friction", friction, 2.0),
    )


def _build_pin(path: Path, p: _PinSection) -> PinSpec:
    """The pins: radius and height (mm, positive) and material.

    Raises:
        BoardError: the radius, the height, then the material out of range.
    """
    return PinSpec(
        radius_mm=_positive(path, "pin.radius_mm", p.radius_mm),
        height_mm=_positive(path, "pin.height_mm", p.height_mm),
        material=_material(path, "pin", p.restitution, p.friction),
    )


def _crenelations(path: Path, cs: _CastleSection, die: DieSpec) -> tuple[float, float, float]:
    """The heights of the high and the low crenelation and the width of the
    low one's notch, mm: ``(high, low, notch)``.

    Raises:
        BoardError: a height or the width not positive, the low crenelation
            not below the high one, or a notch no wider than the die's
            longest side.
    """
    high = _positive(path, "castle.high_crenelation_mm", cs.high_crenelation_mm)
    low = _positive(path, "castle.low_crenelation_mm", cs.low_crenelation_mm)
    if low >= high:
        raise _err(path, "castle.low_crenelation_mm", f"less than high_crenelation_mm ({high})")
    notch = _positive(path, "castle.crenelation_width_mm", cs.crenelation_width_mm)
    widest = max(die.size_mm, *die.sides_mm)
    if not notch > widest:
        raise _err(
            path,
            "castle.crenelation_width_mm",
            f"a notch wider than the die, which must fit through it: more than {widest:g} mm "
            f"(the die's longest side, it may lie any way across the notch), got {notch:g}",
        )
    return high, low, notch


def _build_castles(
    path: Path, cs: _CastleSection, die_size: float, notch: float
) -> tuple[Castle, ...]:
    """The four castles, the file's one turned to each seat, with every low
    crenelation's notch (``notch`` mm wide) fitting in its front wall.

    Raises:
        BoardError: as :func:`_build_castle`, or a notch that does not fit.
    """
    castles = tuple(_build_castle(path, cs, seat, die_size) for seat in range(4))
    _check_notches(path, castles[0], notch, die_size)
    return castles


def _ring_radius(path: Path, ring: _RingSection, pin_radius: float, half: float) -> float:
    """The centre ring's radius (mm), checked with its number of holes and of
    pins per seat: pins fit in neighbouring holes, the ring is on the board.

    Raises:
        BoardError: the radius not between a pin radius and the half side
            less a pin radius, the holes not a positive multiple of 4 or too
            many for the ring, or the pins per seat not 1..holes/4.
    """
    r = _positive(path, "center_ring.radius_mm", ring.radius_mm)
    if not pin_radius < r < half - pin_radius:
        raise _err(
            path,
            "center_ring.radius_mm",
            f"a radius between the pin radius ({pin_radius:g} mm) and the board's half side "
            f"less a pin radius ({half - pin_radius:g} mm), got {r:g}",
        )
    if ring.holes < 4 or ring.holes % 4:
        raise _err(path, "center_ring.holes", f"a positive multiple of 4, got {ring.holes}")
    # neighbouring holes 2 r sin(pi / n) apart hold pins 2 * pin radius wide
    fits = math.floor(math.pi / math.asin(pin_radius / r))
    if ring.holes > fits:
        raise _err(
            path,
            "center_ring.holes",
            f"at most {fits} holes on a {r:g} mm ring, so that pins of {pin_radius:g} mm "
            f"radius in neighbouring holes do not overlap, got {ring.holes}",
        )
    per_seat = ring.pins_per_seat
    if not 1 <= per_seat <= ring.holes // 4:
        raise _err(path, "center_ring.pins_per_seat", f"1..{ring.holes // 4}, got {per_seat}")
    return r


def _ring_holes(n: int, r: float) -> list[Point]:
    """The ``n`` centre-ring holes (mm) evenly on the circle of radius ``r``,
    hole 0 on the positive x axis, then counter-clockwise."""
    ring_holes: list[Point] = []
    for i in range(n):
        a = 2.0 * math.pi * i / n
        ring_holes.append((r * math.cos(a), r * math.sin(a)))
    return ring_holes


def _ring_pins_by_seat(n: int, per_seat: int) -> tuple[tuple[int, ...], ...]:
    """For each seat, the ``per_seat`` ring holes (of ``n``, sorted indices)
    that get its pins."""
    pins_by_seat: list[tuple[int, ...]] = []
    for seat in range(4):
        # "directly across from their home castle": the ring holes facing the
        # castle (as "the house opposite mine" faces it), on the ring's side
        # towards that castle; the pins are "defensive" (rulebook). Seat k's
        # castle lies in direction (0, -1) turned by -90k degrees.
        ox, oy = rotate_to_seat(0.0, -1.0, seat)
        across = math.atan2(oy, ox)
        order = sorted(
            range(n),
            key=lambda i: (abs(math.remainder(2.0 * math.pi * i / n - across, 2.0 * math.pi)), i),
        )
        pins_by_seat.append(tuple(sorted(order[:per_seat])))
    return tuple(pins_by_seat)


def _field_holes(path: Path, holes: Iterable[tuple[float, float]], half: float) -> list[Point]:
    """The field's holes (mm), each a point on the board (``half`` its half side).

    Raises:
        BoardError: a hole not finite or off the board.
    """
    field = []
    for i, (x, y) in enumerate(holes):
        if not (math.isfinite(x) and math.isfinite(y) and abs(x) < half and abs(y) < half):
            raise _err(
                path, f"field.holes[{i}]", f"a point on the board (|x|, |y| < {half}), got {[x, y]}"
            )
        field.append((float(x), float(y)))
    return field


def board_from_bytes(raw: bytes, path: str | Path) -> Board:
    """Validate the bytes of a board file (as :func:`load_board` reads them)
    into a :class:`Board` whose ``path`` is ``path`` and whose ``sha256`` is
    that of ``raw``. For a board that travels as data (a lab's game spec
    carries the file's text to its workers, which may not see the file).

    Args:
        raw: the file's bytes (UTF-8 TOML), at most :data:`MAX_FILE_BYTES`.
        path: the file they came from, named in errors and kept as ``Board.path``.

    Raises:
        BoardError: as :func:`load_board`, naming ``path``.
    """
    path = Path(path)
    f = _parse_board_file(raw, path)
    size = _positive(path, "board.size_mm", f.board.size_mm)
    g = _positive(path, "board.gravity_mm_s2", f.board.gravity_mm_s2)
    die = _build_die(path, f.die)
    pin = _build_pin(path, f.pin)
    wall_material = _material(
        path, "wall_material", f.wall_material.restitution, f.wall_material.friction
    )
    high, low, notch = _crenelations(path, f.castle, die)
    castles = _build_castles(path, f.castle, die.size_mm, notch)

    half = size / 2.0
    r = _ring_radius(path, f.center_ring, pin.radius_mm, half)
    n = f.center_ring.holes
    all_holes = tuple(_ring_holes(n, r)) + tuple(_field_holes(path, f.field.holes, half))
    center_ring = CenterRing(
        radius_mm=r,
        inner_radius_mm=r - pin.radius_mm,
        hole_indices=tuple(range(n)),
        pins_by_seat=_ring_pins_by_seat(n, f.center_ring.pins_per_seat),
    )
    siege = SiegeEngineSpec(
        _positive(path, "siege_engine.width_mm", f.siege_engine.width_mm),
        _positive(path, "siege_engine.launch_height_mm", f.siege_engine.launch_height_mm),
    )
    _check_layout(path, castles, all_holes, n, half, die.size_mm, pin.radius_mm)
    _check_geometry(path, castles, all_holes, n, r, pin.radius_mm, die.size_mm)
    if siege.width_mm >= size:
        raise _err(path, "siege_engine.width_mm", f"less than the board size {size:g} mm")
    return Board(
        name=f.name,
        description=f.description,
        path=str(path),
        sha256=hashlib.sha256(raw).hexdigest(),
        size_mm=size,
        gravity_mm_s2=g,
        die=die,
        pin=pin,
        wall_material=wall_material,
        castles=castles,
        holes=all_holes,
        center_ring=center_ring,
        siege_engine=siege,
        high_crenelation_mm=high,
        low_crenelation_mm=low,
        crenelation_width_mm=notch,
    )


def _explain_msgspec(msg: str, data: object = None) -> str:
    """Turn msgspec's ``Expected `float`, got `str` - at `$.die.size_mm```
    into ``field `die.size_mm`: expected float, got str`` (the field in
    backticks, as every loader names it; the expected value spelled out for
    a fixed string such as ``format``). A
    bound of the schema broken (``Expected `int` <= 400``) is told with the
    bound's reason from the schema and the value ``data`` holds there."""
    problem = field_problem(msg)
    if problem is not None:
        return f"{problem[1]} `{problem[0]}`"
    where, msg = where_and_what(msg)
    if msg.startswith("Invalid enum value") and where in ("format", "version"):
        expected = "'warlords-board'" if where == "format" else "1"
        got = msg.partition("value ")[2]
        return f"field `{where}`: expected {expected}, got {_clip(got)}"
    reason = _schema_reason(where) if ", got" not in msg else None
    if reason is not None:
        value = _value_at(data, where)
        shown = f"{len(value)} items" if isinstance(value, list) else _clip(repr(value))
        return f"field `{where}`: expected {reason}, got {shown}"
    text = (msg[0].lower() + msg[1:]).replace("`", "")
    return f"field `{where}`: {text}" if where else text


def _path_parts(where: str) -> list[str | int]:
    """``castle.walls[0].rect`` -> ``["castle", "walls", 0, "rect"]``."""
    parts: list[str | int] = []
    for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", where):
        parts.append(int(index) if index else name)
    return parts


def _schema_reason(where: str) -> str | None:
    """The description (the bound and why) the schema gives the field at ``where``."""
    t: Any = msgspec.inspect.type_info(_BoardFile)
    reason = None
    for part in [*_path_parts(where), None]:
        reason = None
        while isinstance(t, (msgspec.inspect.Metadata, msgspec.inspect.UnionType)):
            if isinstance(t, msgspec.inspect.Metadata):
                desc = (t.extra_json_schema or {}).get("description")
                reason = desc if isinstance(desc, str) else reason
                t = t.type
            else:  # an optional section: the part that is not None
                t = next(x for x in t.types if not isinstance(x, msgspec.inspect.NoneType))
        if part is None:
            break
        if isinstance(t, msgspec.inspect.StructType) and isinstance(part, str):
            t = next((f.type for f in t.fields if f.name == part), None)
        elif isinstance(t, msgspec.inspect.ListType) and isinstance(part, int):
            t = t.item_type
        elif isinstance(t, msgspec.inspect.TupleType) and isinstance(part, int):
            t = t.item_types[part] if part < len(t.item_types) else None
        else:
            return None
    return reason


def _value_at(data: object, where: str) -> object:
    cur = data
    for part in _path_parts(where):
        try:
            cur = cur[part]  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            return "?"
    return cur


def _clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else f"{text[: limit - 3]}... ({len(text)} characters)"


def castle_seats_for(players: int, walled_seat: int = 3) -> tuple[int, ...]:
    """The seats with a castle for a game of ``players`` (2..4) players, sorted.

    Four players use every seat; three leave ``walled_seat`` (default 3,
    right; house rule ``three_player_walled_seat``) closed by the
    three-player wall; two sit facing each other at seats 0 and 2.

    The one owner of which seats are in play: the rules
    (``GameConfig.castle_seats``, with the house rule), ``board --players``
    and the plots all call it. It lives in the board layer, not the rules,
    so that ``board --json`` and the plots need no physics.

    Raises:
        ValueError: players not in 2..4, or walled_seat not in 0..3.
    """
    if players not in (2, 3, 4):
        raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
    if walled_seat not in range(4):
        raise ValueError(f"walled_seat must be a seat 0..3, got {walled_seat!r}")
    if players == 2:
        return (0, 2)
    if players == 3:
        return tuple(s for s in range(4) if s != walled_seat)
    return (0, 1, 2, 3)


def closed_seats(castle_seats: Iterable[int]) -> tuple[int, ...]:
    """The seats closed by the three-player wall when the castles of
    ``castle_seats`` stand: the one seat without a castle when exactly three
    stand, none otherwise. The wall is given only "in a three player game"
    (rulebook, Special Rules for a Three Player Game): with two players the
    empty places are open board edge, where dice leave the board."""
    seats = set(castle_seats)
    return tuple(s for s in range(4) if s not in seats) if len(seats) == 3 else ()


def standing_walls(
    board: Board, castle_seats: Iterable[int], side_walls: bool
) -> list[tuple[str, Wall]]:
    """Every wall standing, with a label for messages: the castle walls of
    ``castle_seats``, the three-player wall of a seat it closes
    (:func:`closed_seats`: three castles only), and with ``side_walls`` the
    side walls and, at every seat without a castle, the edge gap wall that
    closes its stretch of board edge (:attr:`Castle.edge_gap_wall`).

    The one owner of which walls stand: the 2.5D world builds its walls
    from it (in this order, which enters the settled digests), the
    reference and the scripted physics too (through
    :mod:`warlords_sim.physics.footprint`), and the window
    (``gui.render``) and the plots (:mod:`warlords_sim.plotting`) draw
    exactly these. It lives in the board layer, as :func:`closed_seats`
    does, so that the plots need no physics (pymunk).

    Returns:
        ``(label, wall)`` pairs, castle by castle in seat order; labels
        such as ``"a wall of castle 0"``, ``"the three-player wall of seat
        3"``, ``"a side wall"``. Rectangles in mm, board frame. A castle
        without side walls has no edge gap wall either.
    """
    seats = set(castle_seats)
    closed = closed_seats(seats)
    out: list[tuple[str, Wall]] = []
    for castle in board.castles:
        if castle.seat in seats:
            out.extend((f"a wall of castle {castle.seat}", w) for w in castle.walls)
        elif castle.seat in closed:
            out.append((f"the three-player wall of seat {castle.seat}", castle.three_player_wall))
        if side_walls:
            out.extend(("a side wall", w) for w in castle.side_walls)
            if castle.seat not in seats and castle.side_walls:
                out.append(("a side wall", castle.edge_gap_wall))
    return out


def seat_pins(
    board: Board, castle_seats: Iterable[int] = (0, 1, 2, 3), far_side: bool = False
) -> tuple[int, ...]:
    """The centre-ring set-up of :func:`default_pins` in seat order: each
    seat's holes (``center_ring.pins_by_seat``) in turn, as the ``flick``
    command and sandbox replays add them (8, 9, 10, 5, 6, 7, ... on the
    standard board). The order pins are added to the physics enters the
    settled digests (pymunk's shapes are kept in add order), so recorded
    set-ups keep this order; a game's rounds add them sorted."""
    holes: list[int] = []
    for seat in castle_seats:
        for hole in board.center_ring.pins_by_seat[(seat + 2) % 4 if far_side else seat]:
            if hole not in holes:
                holes.append(hole)
    return tuple(holes)


def default_pins(
    board: Board, castle_seats: Iterable[int] = (0, 1, 2, 3), far_side: bool = False
) -> tuple[int, ...]:
    """Hole indices (into ``board.holes``) of the centre-ring set-up for
    ``castle_seats``: "three pins should be placed in the center ring per
    player in the holes directly across from their home castle" (rulebook,
    Rounds and Setup), sorted (:func:`seat_pins` gives them in seat order).

    Read by default as the arc of the ring facing each castle
    (``center_ring.pins_by_seat[seat]``); ``far_side`` reads "across" as the
    arc on the far side of the ring, the one facing the opposite seat (house
    rule ``ring_pins = "far_side"``). With two or four players both readings
    fill the same holes; with three they leave different holes empty."""
    return tuple(sorted(seat_pins(board, castle_seats, far_side)))
