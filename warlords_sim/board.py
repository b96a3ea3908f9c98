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

The rulebook gives no measurements; ``boards/standard.toml`` documents ours.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import math
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Literal

import msgspec

__all__ = [
    "BOARDS_DIR",
    "DIE_SIDE_RANGE_MM",
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
    "castle_seats_for",
    "closed_seats",
    "default_pins",
    "load_board",
    "notch_wall",
    "resolve_board_path",
    "rotate_to_seat",
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


class BoardError(ValueError):
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

Vec2 = tuple[float, float]
Rect4 = tuple[float, float, float, float]


class _BoardSection(msgspec.Struct, forbid_unknown_fields=True):
    size_mm: float
    gravity_mm_s2: float = 9810.0


class _DieSection(msgspec.Struct, forbid_unknown_fields=True):
    size_mm: float
    mass_g: float
    table_friction: float
    table_static_friction: float
    table_restitution: float
    die_friction: float
    die_restitution: float
    edge_radius_mm: float | None = None
    sides_mm: tuple[float, float, float] | None = None


class _PinSection(msgspec.Struct, forbid_unknown_fields=True):
    radius_mm: float
    height_mm: float
    friction: float
    restitution: float


class _MaterialSection(msgspec.Struct, forbid_unknown_fields=True):
    friction: float
    restitution: float


class _WallSection(msgspec.Struct, forbid_unknown_fields=True):
    rect: Rect4
    height_mm: float


class _FrontAreaSection(msgspec.Struct, forbid_unknown_fields=True):
    high: Vec2
    low: Vec2


class _ThreePlayerWallSection(msgspec.Struct, forbid_unknown_fields=True):
    holes: tuple[Vec2, Vec2]
    thickness_mm: float
    height_mm: float


class _CastleSection(msgspec.Struct, forbid_unknown_fields=True):
    high_crenelation_mm: float
    low_crenelation_mm: float
    courtyard: Rect4
    gateways: list[Rect4]
    moat: Rect4
    walls: list[_WallSection]
    front_areas: list[_FrontAreaSection]
    three_player_wall: _ThreePlayerWallSection
    side_walls: list[_WallSection] = []
    crenelation_width_mm: float = 20.0


class _RingSection(msgspec.Struct, forbid_unknown_fields=True):
    radius_mm: float
    holes: int
    pins_per_seat: int


class _SiegeSection(msgspec.Struct, forbid_unknown_fields=True):
    width_mm: float
    launch_height_mm: float


class _FieldSection(msgspec.Struct, forbid_unknown_fields=True):
    holes: list[Vec2]


class _BoardFile(msgspec.Struct, forbid_unknown_fields=True):
    format: Literal["warlords-board"]
    version: Literal[1]
    name: str
    board: _BoardSection
    die: _DieSection
    pin: _PinSection
    wall_material: _MaterialSection
    castle: _CastleSection
    center_ring: _RingSection
    siege_engine: _SiegeSection
    field: _FieldSection
    description: str = ""


def resolve_board_path(name_or_path: str | Path) -> Path:
    """Find a board file: an existing path, else ``boards/NAME.toml``.

    Raises:
        BoardError: neither exists; the message lists the shipped boards.
    """
    p = Path(name_or_path)
    text = str(name_or_path)
    if p.is_dir():
        raise BoardError(f"{p}: is a folder, not a board file")
    if p.is_file():
        return p
    if p.suffix == ".toml" or "/" in text or "\\" in text:
        raise BoardError(f"{p}: board file not found")
    candidate = BOARDS_DIR / f"{name_or_path}.toml"
    if candidate.is_file():
        return candidate
    known = ", ".join(sorted(f.stem for f in BOARDS_DIR.glob("*.toml"))) or "none"
    raise BoardError(
        f"unknown board {str(name_or_path)!r}: not a file and not in {BOARDS_DIR} "
        f"(known boards: {known})"
    )


def _err(path: Path, field: str, expected: str) -> BoardError:
    return BoardError(f"{path}: field {field}: expected {expected}")


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
            field, or a value out of range; the message names the file, the
            field and what was expected.
    """
    path = resolve_board_path(name_or_path)
    raw = path.read_bytes()
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise BoardError(f"{path}: not valid TOML: {e}") from e
    try:
        f = msgspec.convert(data, _BoardFile)
    except msgspec.ValidationError as e:
        raise BoardError(f"{path}: {_explain_msgspec(str(e))}") from e

    size = _positive(path, "board.size_mm", f.board.size_mm)
    g = _positive(path, "board.gravity_mm_s2", f.board.gravity_mm_s2)
    d = f.die
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
    die = DieSpec(
        size_mm=die_size,
        mass_g=_positive(path, "die.mass_g", d.mass_g),
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
    pin = PinSpec(
        radius_mm=_positive(path, "pin.radius_mm", f.pin.radius_mm),
        height_mm=_positive(path, "pin.height_mm", f.pin.height_mm),
        material=Material(
            _fraction(path, "pin.restitution", f.pin.restitution),
            _fraction(path, "pin.friction", f.pin.friction, 2.0),
        ),
    )
    wall_material = Material(
        _fraction(path, "wall_material.restitution", f.wall_material.restitution),
        _fraction(path, "wall_material.friction", f.wall_material.friction, 2.0),
    )
    cs = f.castle
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
    castles = tuple(_build_castle(path, cs, seat, die.size_mm) for seat in range(4))
    _check_notches(path, castles[0], notch, die.size_mm)

    half = size / 2.0
    ring = f.center_ring
    r = _positive(path, "center_ring.radius_mm", ring.radius_mm)
    if ring.holes < 4 or ring.holes % 4:
        raise _err(path, "center_ring.holes", f"a positive multiple of 4, got {ring.holes}")
    per_seat = ring.pins_per_seat
    if not 1 <= per_seat <= ring.holes // 4:
        raise _err(path, "center_ring.pins_per_seat", f"1..{ring.holes // 4}, got {per_seat}")
    n = ring.holes
    ring_holes: list[Point] = []
    for i in range(n):
        a = 2.0 * math.pi * i / n
        ring_holes.append((r * math.cos(a), r * math.sin(a)))
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
    field = []
    for i, (x, y) in enumerate(f.field.holes):
        if not (math.isfinite(x) and math.isfinite(y) and abs(x) < half and abs(y) < half):
            raise _err(
                path, f"field.holes[{i}]", f"a point on the board (|x|, |y| < {half}), got {[x, y]}"
            )
        field.append((float(x), float(y)))
    all_holes = tuple(ring_holes) + tuple(field)
    center_ring = CenterRing(
        radius_mm=r,
        inner_radius_mm=r - pin.radius_mm,
        hole_indices=tuple(range(n)),
        pins_by_seat=tuple(pins_by_seat),
    )
    siege = SiegeEngineSpec(
        _positive(path, "siege_engine.width_mm", f.siege_engine.width_mm),
        _positive(path, "siege_engine.launch_height_mm", f.siege_engine.launch_height_mm),
    )
    _check_layout(path, castles, all_holes, n, half, die.size_mm, pin.radius_mm)
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


def _explain_msgspec(msg: str) -> str:
    """Turn msgspec's ``Expected `float`, got `str` - at `$.die.size_mm```
    into ``field die.size_mm: expected float, got str`` (no backticks, the
    expected value spelled out for a fixed string such as ``format``)."""
    where = ""
    if " - at `$" in msg:
        msg, _, at = msg.partition(" - at `$")
        where = at.rstrip("`").lstrip(".")
    if msg.startswith("Object missing required field"):
        name = msg.split("`")[1]
        field = f"{where}.{name}" if where else name
        return f"missing field {field}"
    if msg.startswith("Object contains unknown field"):
        name = msg.split("`")[1]
        field = f"{where}.{name}" if where else name
        return f"unknown field {field}"
    if msg.startswith("Invalid enum value") and where in ("format", "version"):
        expected = "'warlords-board'" if where == "format" else "1"
        got = msg.partition("value ")[2]
        return f"field {where}: expected {expected}, got {got}"
    text = (msg[0].lower() + msg[1:]).replace("`", "")
    return f"field {where}: {text}" if where else text


def castle_seats_for(players: int) -> tuple[int, ...]:
    """The seats with a castle for a game of ``players`` (2..4) players.

    Four players use every seat; three leave seat 3 (right) closed by the
    three-player wall; two sit facing each other at seats 0 and 2.

    Raises:
        ValueError: players not in 2..4.
    """
    seats = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
    if players not in seats:
        raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
    return seats[players]


def closed_seats(castle_seats: Iterable[int]) -> tuple[int, ...]:
    """The seats closed by the three-player wall when the castles of
    ``castle_seats`` stand: the one seat without a castle when exactly three
    stand, none otherwise. The wall is given only "in a three player game"
    (rulebook, Special Rules for a Three Player Game): with two players the
    empty places are open board edge, where dice leave the board."""
    seats = set(castle_seats)
    return tuple(s for s in range(4) if s not in seats) if len(seats) == 3 else ()


def default_pins(board: Board, castle_seats: Iterable[int] = (0, 1, 2, 3)) -> tuple[int, ...]:
    """Hole indices (into ``board.holes``) of the centre-ring set-up for ``castle_seats``:
    ``pins_per_seat`` pins across from each castle (rulebook, Rounds and Setup)."""
    holes: set[int] = set()
    for seat in castle_seats:
        holes.update(board.center_ring.pins_by_seat[seat])
    return tuple(sorted(holes))
