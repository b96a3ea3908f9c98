"""Fidelity scenarios as data: a TOML file, validated on load.

A scenario is one set-up (castles, pins, resting dice, the siege engine),
one flick (die, launch kind, start, velocity in mm/s, spin in rad/s, face
at launch) and the hand noise of its trials (see :mod:`.hand`). The
shipped file is ``warlords_sim/fidelity/scenarios.toml``; its header
comment documents every field. Loading checks types (msgspec), ranges and
the board (hole indices, points on the board, and that the set-up fits:
no resting die, table-flicked die or siege engine overlapping a wall, a
pin, the engine or another die, by the geometry of
:mod:`~warlords_sim.physics.footprint`, as both engines check it); every
error is a :class:`ScenarioError` naming the file, the scenario and the field.

Units mm, mm/s, rad, rad/s; board frame (origin at the centre, x right,
y up); seats 0 bottom, 1 left, 2 top, 3 right.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import msgspec

from warlords_sim._files import FileProblem, parse_toml, read_user_file
from warlords_sim._msgspec import field_problem, where_and_what
from warlords_sim.board import Board, BoardError, Crenelation, default_pins
from warlords_sim.errors import WarlordsError
from warlords_sim.physics.footprint import Polygon, die_footprint, square, what_overlaps
from warlords_sim.physics.linalg3 import matmul
from warlords_sim.physics.orientation import rotation_z, with_face_up
from warlords_sim.physics.types import MAX_DIE_ID, LaunchKind
from warlords_sim.rules.flick_setup import (
    MAX_FLICK_SPEED,
    MAX_FLICK_SPIN,
    crenelation_of,
    siege_start_point,
    speed_problem,
)

__all__ = [
    "DEFAULT_SCENARIOS",
    "MAX_FILE_BYTES",
    "STANDARD_RING",
    "check_strikes",
    "RestingDie",
    "Scenario",
    "ScenarioError",
    "ScenarioFlick",
    "load_scenarios",
    "select",
]

#: The scenario file shipped with the package.
DEFAULT_SCENARIOS = Path(__file__).with_name("scenarios.toml")
#: The ``pins`` value meaning "the centre-ring pins of every castle's seat".
STANDARD_RING = "standard ring"
#: A scenario file larger than this is refused (the shipped one is 8 kB).
MAX_FILE_BYTES = 1_000_000
_FORMAT = "warlords-fidelity-scenarios"
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


class ScenarioError(WarlordsError, ValueError):
    """A scenario file that cannot be used; the message names the file, the
    scenario and the field, and says what was expected."""


@dataclass(frozen=True)
class RestingDie:
    """A die at rest before the flick: id, centre (mm), face up, yaw (rad)."""

    die: int
    x: float
    y: float
    face: int = 1
    angle: float = 0.0


@dataclass(frozen=True)
class ScenarioFlick:
    """The flick of a scenario, before hand noise.

    Attributes:
        die: id of the flicked die.
        launch: TABLE (the die rests at ``at`` and slides off), LOW / HIGH
            (from a crenelation: ``seat_area`` or ``at``), SIEGE (from the
            top of the scenario's siege engine, leaving its edge along the aim).
        at: start point (mm), or None.
        seat_area: (seat 0-3, front area 1-3) for a crenelation launch, or None.
        velocity: (vx, vy) mm/s; its direction is the aim.
        spin: yaw rate, rad/s, counter-clockwise.
        face: face up at launch, 1-6.
        strike_mm: where the finger strikes, mm above the die's centre
            (physics/strike.py).
    """

    die: int
    launch: LaunchKind
    at: tuple[float, float] | None
    seat_area: tuple[int, int] | None
    velocity: tuple[float, float]
    spin: float = 0.0
    face: int = 1
    strike_mm: float = 0.0

    @property
    def aim(self) -> tuple[float, float]:
        """Unit vector of the nominal velocity (the aim)."""
        s = math.hypot(*self.velocity)
        return (self.velocity[0] / s, self.velocity[1] / s)


@dataclass(frozen=True)
class Scenario:
    """One fidelity scenario.

    Attributes:
        name: short id (lower case, digits, ``-`` and ``_``), unique in its file.
        description: one sentence for people.
        castle_seats: seats whose castle stands.
        side_walls: the optional side walls stand.
        pins: hole indices (into ``Board.holes``) holding a pin.
        dice: dice at rest before the flick.
        siege_engine: centre (mm) of the siege engine, or None.
        flick: the flick.
        noise: hand noise s of every trial (speed times 1 + N(0, s),
            heading turned by N(0, s) rad).
        path: the file it was loaded from ("" if built in code), for messages.
    """

    name: str
    description: str
    castle_seats: tuple[int, ...]
    side_walls: bool
    pins: tuple[int, ...]
    dice: tuple[RestingDie, ...]
    siege_engine: tuple[float, float] | None
    flick: ScenarioFlick
    noise: float
    path: str = ""

    def launch_point(self, board: Board) -> tuple[tuple[float, float], float]:
        """Where the flicked die's centre starts (x, y mm) and the height (mm)
        of its bottom face there: the resting place for a table flick, the
        launch spot for a crenelation, for the siege engine a point just off
        its edge along the aim (as ``warlords-sim flick --launch siege``)."""
        f = self.flick
        if f.launch is LaunchKind.TABLE:
            assert f.at is not None  # checked on load
            return f.at, 0.0
        if f.launch is LaunchKind.SIEGE:
            assert self.siege_engine is not None  # checked on load
            start = siege_start_point(board, self.siege_engine, f.aim)
            return start, board.siege_engine.launch_height_mm
        cren = crenelation_of(f.launch)
        if f.seat_area is not None:
            spot = board.launch_spot(f.seat_area[0], f.seat_area[1], cren)
            return (spot.x, spot.y), spot.height_mm
        assert f.at is not None  # checked on load
        h = board.low_crenelation_mm if cren is Crenelation.LOW else board.high_crenelation_mm
        return f.at, h


class _Die(msgspec.Struct, forbid_unknown_fields=True):
    die: int
    at: tuple[float, float]
    face: int = 1
    angle: float = 0.0


class _Flick(msgspec.Struct, forbid_unknown_fields=True, rename={"from_": "from"}):
    launch: Literal["table", "low", "high", "siege"]
    velocity: tuple[float, float]
    die: int = 0
    at: tuple[float, float] | None = None
    from_: str | None = None
    spin: float = 0.0
    face: int = 1
    strike_mm: float = 0.0


class _Scenario(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    description: str
    flick: _Flick
    noise: float
    castle_seats: list[int] = msgspec.field(default_factory=lambda: [0, 1, 2, 3])
    side_walls: bool = False
    pins: str | list[int] = STANDARD_RING
    dice: list[_Die] = msgspec.field(default_factory=list)
    siege_engine: tuple[float, float] | None = None


class _File(msgspec.Struct, forbid_unknown_fields=True):
    format: str
    version: int
    scenario: list[_Scenario]


def _explain(msg: str) -> tuple[str, str]:
    """msgspec's ``Expected `int`, got `str` - at `$.scenario[2].flick.face```
    as (``"scenario[2].flick.face"``, ``"expected int, got str"``)."""
    problem = field_problem(msg)
    if problem is not None:
        return problem
    where, msg = where_and_what(msg)
    return where, (msg[0].lower() + msg[1:]).replace("`", "")


def _where(path: Path, raw: dict[str, Any], field: str, what: str) -> str:
    """The message ``FILE: scenario 'NAME' (#3), field `flick.face`: WHAT`` for
    ``scenario[2].flick.face`` (``...: missing field `flick.face``` for a
    missing or unknown field)."""
    m = re.match(r"^scenario\[(\d+)\]\.?(.*)$", field)
    if m is None:
        head, rest = str(path), field
    else:
        i = int(m.group(1))
        name: object = None
        scenarios = raw.get("scenario")
        if isinstance(scenarios, list) and i < len(scenarios) and isinstance(scenarios[i], dict):
            name = scenarios[i].get("name")
        label = f"scenario {name!r} (#{i + 1})" if isinstance(name, str) else f"scenario #{i + 1}"
        head, rest = f"{path}: {label}", m.group(2)
    if not rest:
        return f"{head}: {what}"
    if what in ("missing field", "unknown field"):
        return f"{head}: {what} `{rest}`"
    return f"{head}, field `{rest}`: {what}"


class _Checker:
    """Range and board checks of one parsed scenario; errors name the field."""

    def __init__(self, path: Path, index: int, name: str, board: Board | None) -> None:
        self.prefix = f"{path}: scenario {name!r} (#{index + 1})"
        self.board = board

    def error(self, field: str, expected: str, got: object) -> ScenarioError:
        return ScenarioError(f"{self.prefix}, field `{field}`: expected {expected}, got {got!r}")

    def finite(self, field: str, *values: float) -> None:
        if not all(math.isfinite(v) for v in values):
            raise self.error(field, "finite numbers", values if len(values) > 1 else values[0])

    def point(self, field: str, xy: tuple[float, float]) -> tuple[float, float]:
        self.finite(field, *xy)
        if self.board is not None and not self.board.on_board(*xy):
            h = self.board.half_size_mm
            raise self.error(field, f"a point on the board (|x|, |y| <= {h:g} mm)", list(xy))
        return (float(xy[0]), float(xy[1]))

    def die_id(self, field: str, die: int) -> int:
        if not 0 <= die <= MAX_DIE_ID:
            raise self.error(field, f"a die id 0..{MAX_DIE_ID} (2**31-1)", die)
        return die

    def face(self, field: str, face: int) -> int:
        if face not in range(1, 7):
            raise self.error(field, "a face 1-6", face)
        return face

    def seats(self, seats: list[int]) -> tuple[int, ...]:
        if not seats or any(s not in range(4) for s in seats) or len(set(seats)) != len(seats):
            raise self.error("castle_seats", "distinct seats 0-3, at least one", seats)
        return tuple(seats)

    def pins(self, pins: str | list[int], seats: tuple[int, ...]) -> tuple[int, ...]:
        if isinstance(pins, str):
            if pins != STANDARD_RING:
                raise self.error("pins", f"{STANDARD_RING!r} or a list of hole indices", pins)
            if self.board is None:
                return ()
            return default_pins(self.board, seats)
        n = len(self.board.holes) if self.board is not None else None
        for i, hole in enumerate(pins):
            if hole < 0 or (n is not None and hole >= n) or pins.index(hole) != i:
                limit = f"0-{n - 1}" if n is not None else ">= 0"
                raise self.error(f"pins[{i}]", f"distinct hole indices {limit}", hole)
        return tuple(pins)

    def flick(self, f: _Flick) -> ScenarioFlick:
        launch = LaunchKind(f.launch)
        vx, vy = f.velocity
        self.finite("flick.velocity", vx, vy)
        speed = math.hypot(vx, vy)
        if speed <= 0.0 or speed_problem(speed) is not None:
            raise self.error(
                "flick.velocity", f"a speed in (0, {MAX_FLICK_SPEED:g}] mm/s", list(f.velocity)
            )
        self.finite("flick.spin", f.spin)
        if abs(f.spin) > MAX_FLICK_SPIN:
            raise self.error("flick.spin", f"|spin| <= {MAX_FLICK_SPIN:g} rad/s", f.spin)
        # within the die: the limit is the board's die, and a file holds
        # scenarios for any board (see check_strikes, for those chosen)
        self.finite("flick.strike_mm", f.strike_mm)
        self.die_id("flick.die", f.die)
        at = self.point("flick.at", f.at) if f.at is not None else None
        seat_area: tuple[int, int] | None = None
        if f.from_ is not None:
            if launch not in (LaunchKind.LOW, LaunchKind.HIGH):
                raise self.error("flick.from", "no 'from' unless launch is low or high", f.from_)
            m = re.fullmatch(r"([0-3]):([1-3])", f.from_)
            if m is None:
                raise self.error("flick.from", "'SEAT:AREA' with seat 0-3 and area 1-3", f.from_)
            seat_area = (int(m.group(1)), int(m.group(2)))
        if launch in (LaunchKind.LOW, LaunchKind.HIGH):
            if (at is None) == (seat_area is None):
                raise self.error("flick", "exactly one of 'at' and 'from'", f"{f.launch} launch")
        elif launch is LaunchKind.TABLE:
            if at is None:
                raise self.error("flick.at", "the resting place of a table flick", None)
        elif at is not None:
            raise self.error("flick.at", "no 'at' for a siege launch (it leaves the engine)", f.at)
        return ScenarioFlick(
            f.die, launch, at, seat_area, (float(vx), float(vy)), float(f.spin),
            self.face("flick.face", f.face), float(f.strike_mm),
        )  # fmt: skip


def check_strikes(path: str | Path, scenarios: Sequence[Scenario], board: Board) -> None:
    """Check that each scenario's flick strikes within ``board``'s die
    (``|strike_mm| <=`` ``board.die.strike_limit_mm``),
    before any trial runs: the physics refuses it only when the flick runs.
    A scenario file holds scenarios for any board, so :func:`load_scenarios`
    does not; call this on the scenarios chosen.

    Raises:
        ScenarioError: names the file, the scenario and ``flick.strike_mm``.
    """
    half = board.die.strike_limit_mm
    for s in scenarios:
        if abs(s.flick.strike_mm) > half:
            raise ScenarioError(
                f"{path}: scenario {s.name!r}, field `flick.strike_mm`: expected a height within "
                f"the board's die, -{half:g}..{half:g} mm from its centre, "
                f"got {s.flick.strike_mm:g}"
            )


def _build(path: Path, i: int, s: _Scenario, board: Board | None) -> Scenario:
    c = _Checker(path, i, s.name, board)
    if not _NAME.match(s.name):
        raise c.error("name", "lower-case letters, digits, '-' and '_'", s.name)
    if not (math.isfinite(s.noise) and 0.0 <= s.noise <= 1.0):
        raise c.error("noise", "a number in [0, 1]", s.noise)
    seats = c.seats(s.castle_seats)
    flick = c.flick(s.flick)
    dice: list[RestingDie] = []
    for k, d in enumerate(s.dice):
        c.die_id(f"dice[{k}].die", d.die)
        if d.die == flick.die or any(d.die == o.die for o in dice):
            raise c.error(f"dice[{k}].die", "an id unused by the flick and the other dice", d.die)
        x, y = c.point(f"dice[{k}].at", d.at)
        c.finite(f"dice[{k}].angle", d.angle)
        dice.append(RestingDie(d.die, x, y, c.face(f"dice[{k}].face", d.face), d.angle))
    engine = c.point("siege_engine", s.siege_engine) if s.siege_engine is not None else None
    if flick.launch is LaunchKind.SIEGE and engine is None:
        raise c.error("siege_engine", "a siege engine [x, y] for a siege launch", None)
    scenario = Scenario(
        s.name, s.description, seats, s.side_walls, c.pins(s.pins, seats), tuple(dice), engine,
        flick, s.noise, str(path),
    )  # fmt: skip
    if board is not None:
        _check_fit(c, board, scenario)
        try:
            start, _ = scenario.launch_point(board)
        except BoardError as e:
            raise c.error("flick.from", "a launch spot of the board", str(e)) from None
        if not board.on_board(*start):
            raise c.error("siege_engine", "an engine whose launch point is on the board", start)
    return scenario


def _check_fit(c: _Checker, board: Board, sc: Scenario) -> None:
    """The set-up fits the board, as both engines will check it when it is
    built: the siege engine overlaps no wall or pin; a resting die (and a
    table flick's die) no wall, pin, the engine or a die before it. Dice are
    probed 0.1 mm smaller all round, as the engines' ``add_die`` does."""

    def refuse(field: str, what: str, xy: tuple[float, float], blocker: str) -> ScenarioError:
        return ScenarioError(
            f"{c.prefix}, field `{field}`: {what} at ({xy[0]:g}, {xy[1]:g}) mm would overlap "
            f"{blocker}; expected a place clear of the walls, pins, siege engine and other dice"
        )

    if sc.siege_engine is not None:
        ex, ey = sc.siege_engine
        half = board.half_size_mm - board.siege_engine.width_mm / 2.0
        if abs(ex) > half or abs(ey) > half:
            raise c.error("siege_engine", f"an engine on the board (|x|, |y| <= {half:g} mm)", [
                ex, ey,
            ])  # fmt: skip
        poly = square(ex, ey, 0.0, board.siege_engine.width_mm)
        blocker = what_overlaps(poly, board, sc.castle_seats, sc.side_walls, sc.pins)
        if blocker is not None:
            raise refuse("siege_engine", "the siege engine", sc.siege_engine, blocker)
    placed: dict[int, Polygon] = {}
    sides = board.die.sides_mm
    todo = [(f"dice[{k}].at", d.die, d.x, d.y, d.face, d.angle) for k, d in enumerate(sc.dice)]
    f = sc.flick
    if f.launch is LaunchKind.TABLE and f.at is not None:
        todo.append(("flick.at", f.die, f.at[0], f.at[1], f.face, 0.0))
    for field, die, x, y, face, angle in todo:
        poly = die_footprint(sides, x, y, matmul(rotation_z(angle), with_face_up(face)), 0.1)
        blocker = what_overlaps(
            poly, board, sc.castle_seats, sc.side_walls, sc.pins, sc.siege_engine, placed
        )
        if blocker is not None:
            raise refuse(field, "a die", (x, y), blocker)
        placed[die] = die_footprint(sides, x, y, matmul(rotation_z(angle), with_face_up(face)))


def load_scenarios(
    path: str | Path = DEFAULT_SCENARIOS, board: Board | None = None
) -> tuple[Scenario, ...]:
    """Load and validate a scenario file.

    Args:
        path: the TOML file (default: the shipped ``scenarios.toml``).
        board: check hole indices and points against this board and resolve
            ``pins = "standard ring"``; without it those checks are skipped
            and a standard ring reads as no pins.

    Returns:
        The scenarios, in file order.

    Raises:
        ScenarioError: unreadable, not a regular file or over
            :data:`MAX_FILE_BYTES`, bad TOML, a wrong format line, a
            missing, unknown or mistyped field, a value out of range, a name
            used twice; the message names the file, the scenario and the field.
    """
    p = Path(path)
    data = read_user_file(p, MAX_FILE_BYTES, "scenario file (the shipped one is 8 kB)",
                          ScenarioError, "the scenario file")  # fmt: skip
    try:
        raw = parse_toml(data)
    except FileProblem as e:
        raise ScenarioError(f"{p}: {e}") from None
    if raw.get("format") != _FORMAT:
        raise ScenarioError(f"{p}: field `format`: expected {_FORMAT!r}, got {raw.get('format')!r}")
    if raw.get("version") != 1:
        raise ScenarioError(f"{p}: field `version`: expected 1, got {raw.get('version')!r}")
    try:
        f = msgspec.convert(raw, _File)
    except msgspec.ValidationError as e:
        field, what = _explain(str(e))
        raise ScenarioError(_where(p, raw, field, what)) from e
    if not f.scenario:
        raise ScenarioError(f"{p}: field `scenario`: expected at least one [[scenario]]")
    out: list[Scenario] = []
    for i, s in enumerate(f.scenario):
        sc = _build(p, i, s, board)
        if any(o.name == sc.name for o in out):
            raise ScenarioError(f"{p}: scenario {sc.name!r} (#{i + 1}), field `name`: used twice")
        out.append(sc)
    return tuple(out)


def select(scenarios: tuple[Scenario, ...], names: str | None) -> tuple[Scenario, ...]:
    """The scenarios named in ``names`` (comma-separated, in that order), or
    all of them for None or ``"all"``.

    Raises:
        ScenarioError: an unknown name (the message lists the known ones).
    """
    if names is None or names.strip() == "all":
        return scenarios
    by_name = {s.name: s for s in scenarios}
    out: list[Scenario] = []
    for name in (n.strip() for n in names.split(",")):
        if not name:
            continue
        if name not in by_name:
            known = ", ".join(by_name)
            raise ScenarioError(f"unknown scenario {name!r}; known scenarios: {known}")
        if by_name[name] not in out:
            out.append(by_name[name])
    if not out:
        raise ScenarioError(
            f"no scenario named in {names!r}: "
            "give names from 'warlords-sim fidelity --list', or all"
        )
    return tuple(out)
