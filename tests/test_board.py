"""The board layer and the ``board`` command: geometry sanity of the standard
board, one-line errors naming the file and field for bad board files, and
the JSON and PNG outputs."""

from __future__ import annotations

import itertools
import json
import math
import re
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from matplotlib.colors import to_rgb
from matplotlib.image import imread

from warlords_sim.board import (
    BOARDS_DIR,
    Board,
    BoardError,
    Crenelation,
    Rect,
    load_board,
    rotate_to_seat,
)
from warlords_sim.cli import main
from warlords_sim.plotting import SEAT_COLOURS, board_figure

STANDARD = BOARDS_DIR / "standard.toml"
Point = tuple[float, float]


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board("standard")


def _square(x: float, y: float, size: float) -> list[Point]:
    h = size / 2.0
    return [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]


def _overlap(a: Rect, b: Rect, tol: float = 1e-9) -> bool:
    """Interiors intersect (touching edges do not count)."""
    return a.x0 < b.x1 - tol and b.x0 < a.x1 - tol and a.y0 < b.y1 - tol and b.y0 < a.y1 - tol


def _dot(p: Point, q: Point) -> float:
    return p[0] * q[0] + p[1] * q[1]


# --------------------------------------------------------------------------
# geometry of the standard board
# --------------------------------------------------------------------------


def test_standard_loads(board: Board) -> None:
    assert board.name == "standard"
    assert len(board.castles) == 4
    assert [c.seat for c in board.castles] == [0, 1, 2, 3]
    assert re.fullmatch(r"[0-9a-f]{64}", board.sha256)
    assert board.on_board(0.0, 0.0)
    assert not board.on_board(board.half_size_mm + 1.0, 0.0)


def test_load_board_by_path_equals_by_name(board: Board) -> None:
    assert load_board(STANDARD) == board


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_castles_are_seat_zero_turned(board: Board, seat: int) -> None:
    c0, ck = board.castles[0], board.castles[seat]
    assert ck.courtyard == c0.courtyard.rotated(seat)
    assert ck.moat == c0.moat.rotated(seat)
    assert ck.gateways == tuple(g.rotated(seat) for g in c0.gateways)
    assert ck.walls == tuple(type(w)(w.rect.rotated(seat), w.height_mm) for w in c0.walls)
    assert ck.outward == rotate_to_seat(*c0.outward, seat)
    for a0, ak in zip(c0.front_areas, ck.front_areas, strict=True):
        for cren in Crenelation:
            s0, sk = a0.spot(cren), ak.spot(cren)
            assert (sk.x, sk.y) == rotate_to_seat(s0.x, s0.y, seat)
            assert sk.height_mm == s0.height_mm


def test_seats_sit_bottom_left_top_right(board: Board) -> None:
    # seat 0 bottom, 1 left, 2 top, 3 right; each castle faces the centre
    directions = [(0.0, -1.0), (-1.0, 0.0), (0.0, 1.0), (1.0, 0.0)]
    for castle, d in zip(board.castles, directions, strict=True):
        cx, cy = castle.courtyard.center
        assert _dot((cx, cy), d) > 0.6 * board.half_size_mm
        assert castle.outward == (-d[0], -d[1])
        assert castle.moat.center[0] * d[0] + castle.moat.center[1] * d[1] < _dot((cx, cy), d)


def test_front_areas_run_left_to_right_as_the_seat_sees_them(board: Board) -> None:
    for castle in board.castles:
        ox, oy = castle.outward
        right = (oy, -ox)  # the seat's right hand, looking along outward
        along = [_dot((a.high.x, a.high.y), right) for a in castle.front_areas]
        assert along == sorted(along)
        assert [a.area for a in castle.front_areas] == [1, 2, 3]


def test_launch_spots_lie_just_outside_the_front_wall(board: Board) -> None:
    size = board.die.size_mm
    every_wall = [w.rect for c in board.castles for w in c.walls]
    for castle in board.castles:
        out = castle.outward
        front_face = max(
            max(_dot(p, out) for p in ((w.rect.x0, w.rect.y0), (w.rect.x1, w.rect.y1)))
            for w in castle.walls
        )
        right = (out[1], -out[0])
        front_walls = [
            w.rect
            for w in castle.walls
            if math.isclose(
                max(_dot((w.rect.x0, w.rect.y0), out), _dot((w.rect.x1, w.rect.y1), out)),
                front_face,
            )
        ]
        for area in castle.front_areas:
            for spot in (area.high, area.low):
                assert spot.outward == out
                die = Rect(
                    spot.x - size / 2, spot.y - size / 2, spot.x + size / 2, spot.y + size / 2
                )
                assert not any(_overlap(die, w) for w in every_wall), spot
                gap = _dot((spot.x, spot.y), out) - size / 2 - front_face
                assert 0.0 <= gap <= 0.25 * size, (spot, gap)
                assert board.on_board(spot.x, spot.y)
                # it sits in front of a stretch of front wall (a crenelation), not a gateway
                lateral = _dot((spot.x, spot.y), right)
                assert any(
                    min(_dot((w.x0, w.y0), right), _dot((w.x1, w.y1), right))
                    <= lateral
                    <= max(_dot((w.x0, w.y0), right), _dot((w.x1, w.y1), right))
                    for w in front_walls
                ), spot
            assert area.high.height_mm == board.high_crenelation_mm
            assert area.low.height_mm == board.low_crenelation_mm
            assert board.low_crenelation_mm < board.high_crenelation_mm


def test_gateways_hold_a_die(board: Board) -> None:
    from warlords_sim.physics.regions import classify
    from warlords_sim.physics.types import RegionKind

    size = board.die.size_mm
    for castle in board.castles:
        for gate in castle.gateways:
            cx, cy = gate.center
            assert gate.contains_all(_square(cx, cy, size))
            region = classify(board, cx, cy, 0.0)
            assert (region.kind, region.seat) == (RegionKind.GATEWAY, castle.seat)
            # a gateway opens from the courtyard: it touches the courtyard, not a wall's inside
            assert not _overlap(gate, castle.courtyard)
            assert not any(_overlap(gate, w.rect) for w in castle.walls)


def test_courtyard_is_closed_by_walls_and_gateways(board: Board) -> None:
    for castle in board.castles:
        for other in (*castle.gateways, castle.moat):
            assert not _overlap(castle.courtyard, other)
        assert not any(_overlap(castle.courtyard, w.rect) for w in castle.walls)
        fp = castle.footprint
        assert fp.x0 <= castle.courtyard.x0 and castle.courtyard.x1 <= fp.x1
        assert fp.y0 <= castle.courtyard.y0 and castle.courtyard.y1 <= fp.y1


def test_center_ring_pins_are_across_from_their_castle(board: Board) -> None:
    """Seat k's three pins sit in the ring holes facing castle k ("directly
    across from their home castle", as the house opposite mine faces it)."""
    ring = board.center_ring
    seen: set[int] = set()
    n = len(ring.hole_indices)
    for seat, holes in enumerate(ring.pins_by_seat):
        assert len(holes) == 3
        assert not seen & set(holes)
        seen.update(holes)
        castle_dir = board.castles[seat].courtyard.center
        for i in holes:
            assert i in ring.hole_indices
            x, y = board.holes[i]
            assert math.isclose(math.hypot(x, y), ring.radius_mm)
            # on the ring's side facing the castle, within a quarter turn
            cos = _dot((x, y), castle_dir) / (math.hypot(x, y) * math.hypot(*castle_dir))
            assert cos > math.cos(math.pi / 4 + 1e-9), (seat, i)
        # and they are the holes nearest to the castle's direction
        across = math.atan2(castle_dir[1], castle_dir[0])
        dist = sorted(
            abs(math.remainder(math.atan2(board.holes[i][1], board.holes[i][0]) - across, math.tau))
            for i in range(n)
        )
        worst = max(
            abs(math.remainder(math.atan2(board.holes[i][1], board.holes[i][0]) - across, math.tau))
            for i in holes
        )
        assert worst <= dist[2] + 1e-9


def test_a_die_fits_between_ring_pins(board: Board) -> None:
    ring = board.center_ring
    n = len(ring.hole_indices)
    chord = 2 * ring.radius_mm * math.sin(math.pi / n)
    assert chord - 2 * board.pin.radius_mm > board.die.size_mm
    assert ring.contains_all(_square(0.0, 0.0, board.die.size_mm))


def test_field_holes_avoid_castles_moats_and_walls(board: Board) -> None:
    r = board.pin.radius_mm
    n_ring = len(board.center_ring.hole_indices)
    blocked: list[tuple[str, Rect]] = []
    for c in board.castles:
        blocked.append((f"castle {c.seat}", c.footprint))
        blocked.append((f"moat {c.seat}", c.moat))
        blocked += [(f"gateway {c.seat}", g) for g in c.gateways]
        blocked += [(f"wall {c.seat}", w.rect) for w in c.walls]
        blocked += [(f"side wall {c.seat}", w.rect) for w in c.side_walls]
        blocked.append((f"three-player wall {c.seat}", c.three_player_wall.rect))
    for i, (x, y) in enumerate(board.holes[n_ring:], start=n_ring):
        hole = Rect(x - r, y - r, x + r, y + r)
        for what, rect in blocked:
            assert not _overlap(hole, rect), f"hole {i} at {(x, y)} inside {what}"
        assert math.hypot(x, y) > board.center_ring.radius_mm + board.die.size_mm
        assert abs(x) + r < board.half_size_mm and abs(y) + r < board.half_size_mm


def test_holes_are_distinct(board: Board) -> None:
    every = list(board.holes) + [h for c in board.castles for h in c.wall_holes]
    for (i, a), (j, b) in itertools.combinations(enumerate(every), 2):
        assert math.dist(a, b) > 2 * board.pin.radius_mm, (i, j, a, b)


def test_three_player_wall_stands_in_its_holes(board: Board) -> None:
    for c in board.castles:
        rect = c.three_player_wall.rect
        for x, y in c.wall_holes:
            assert rect.contains(x, y)
            assert board.on_board(x, y)
        assert not _overlap(rect, c.moat)
        for other in board.castles:
            assert not _overlap(rect, other.footprint)


# --------------------------------------------------------------------------
# bad board files
# --------------------------------------------------------------------------


def _set_field(text: str, section: str, key: str, value: str | None) -> str:
    """Replace (or with ``None`` delete) the first ``key = ...`` line after ``[section]``."""
    start = text.index(f"[{section}]") if section else 0
    m = re.compile(rf"^(\s*){re.escape(key)}\s*=.*$", re.M).search(text, start)
    assert m, (section, key)
    line = "" if value is None else f"{m.group(1)}{key} = {value}"
    return text[: m.start()] + line + text[m.end() :]


def _add_line(text: str, section: str, line: str) -> str:
    start = text.index(f"[{section}]")
    end = text.index("\n", start) + 1
    return text[:end] + line + "\n" + text[end:]


BAD_FILES: dict[str, tuple[Callable[[str], str], str]] = {
    "wrong type": (lambda t: _set_field(t, "die", "size_mm", '"sixteen"'), "die.size_mm"),
    "missing field": (lambda t: _set_field(t, "die", "mass_g", None), "mass_g"),
    "unknown field": (lambda t: _add_line(t, "pin", "colour_mm = 3.0"), "colour_mm"),
    "negative size": (lambda t: _set_field(t, "board", "size_mm", "-600.0"), "board.size_mm"),
    "x0 > x1": (
        lambda t: _set_field(t, "castle", "courtyard", "[100.0, -284.0, -100.0, -226.0]"),
        "castle.courtyard",
    ),
    "narrow gateway": (
        lambda t: _set_field(
            t,
            "castle",
            "gateways",
            "[[-55.0, -226.0, -45.0, -202.0], [25.0, -226.0, 55.0, -202.0]]",
        ),
        "castle.gateways[0]",
    ),
    "ring holes": (lambda t: _set_field(t, "center_ring", "holes", "10"), "center_ring.holes"),
    "wrong format": (lambda t: _set_field(t, "", "format", '"chess-board"'), "format"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_board_file_names_file_and_field(tmp_path: Path, case: str) -> None:
    corrupt, field = BAD_FILES[case]
    text = STANDARD.read_text(encoding="utf-8")
    bad = corrupt(text)
    assert bad != text
    path = tmp_path / "bad.toml"
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(BoardError) as info:
        load_board(path)
    msg = str(info.value)
    assert str(path) in msg
    assert field in msg
    assert isinstance(info.value, ValueError)


def _sides(value: str) -> Callable[[str], str]:
    return lambda t: t.replace("# sides_mm = [16.0, 16.0, 16.0]", f"sides_mm = {value}")


# What broke: sides of 1e300 mm crashed MuJoCo, 1e9 mm flooded qhull
# warnings, 200 mm ran; an edge radius of half the side (a sphere) loaded;
# a notch narrower than the die loaded although the board promises "room
# for a 16 mm die".
OUT_OF_RANGE: dict[str, tuple[Callable[[str], str], str, str]] = {
    "side 1e300": (_sides("[1e300, 1e300, 1e300]"), "die.sides_mm[0]", "[2, 100] mm"),
    "side 1e9": (_sides("[16.0, 1e9, 16.0]"), "die.sides_mm[1]", "[2, 100] mm"),
    "side 200": (_sides("[16.0, 16.0, 200.0]"), "die.sides_mm[2]", "[2, 100] mm"),
    "side 0.1": (_sides("[0.1, 16.0, 16.0]"), "die.sides_mm[0]", "[2, 100] mm"),
    "size 1e9": (lambda t: _set_field(t, "die", "size_mm", "1e9"), "die.size_mm", "[2, 100] mm"),
    "edge radius half": (
        lambda t: _set_field(t, "die", "edge_radius_mm", "8.0"),
        "die.edge_radius_mm",
        "(0, 8) mm",
    ),
    "edge radius vs a thin side": (
        _sides("[16.0, 16.0, 3.0]"),
        "die.edge_radius_mm",
        "(0, 1.5) mm",
    ),
    "notch as wide as the die": (
        lambda t: _set_field(t, "castle", "crenelation_width_mm", "16.0"),
        "castle.crenelation_width_mm",
        "more than 16 mm",
    ),
    "notch narrower than a cuboid's longest side": (
        _sides("[20.0, 16.0, 12.0]"),
        "castle.crenelation_width_mm",
        "more than 20 mm",
    ),
}


@pytest.mark.parametrize("case", sorted(OUT_OF_RANGE))
def test_die_and_notch_sizes_are_bounded(tmp_path: Path, case: str) -> None:
    """Every die side lies in 2..100 mm, the edge radius under half the
    smallest side, the low crenelation's notch wider than the die; the error
    names the file, the field and the allowed range."""
    corrupt, field, allowed = OUT_OF_RANGE[case]
    path = tmp_path / "bad.toml"
    path.write_text(corrupt(STANDARD.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(BoardError) as info:
        load_board(path)
    msg = str(info.value)
    for needle in (str(path), f"field `{field}`:", allowed):
        assert needle in msg, msg


def _coefficients() -> list[tuple[str, str, float]]:
    """Every friction and restitution coefficient of the standard board file,
    as (section, key, upper bound): restitution is a fraction in [0, 1];
    friction coefficients run to 2 (rubber on dry rough surfaces reaches
    about 1-2). Read from the file, so a coefficient added later is tested too."""
    data = tomllib.loads(STANDARD.read_text(encoding="utf-8"))
    out = []
    for section, fields in data.items():
        if not isinstance(fields, dict):
            continue
        for key in fields:
            if "restitution" in key:
                out.append((section, key, 1.0))
            elif "friction" in key:
                out.append((section, key, 2.0))
    return out


COEFFICIENTS = _coefficients()


def test_every_coefficient_of_the_board_is_tested() -> None:
    names = {f"{s}.{k}" for s, k, _ in COEFFICIENTS}
    assert len(names) == 9 and "die.table_restitution" in names, names


@pytest.mark.parametrize("bad", ["over", "-0.1", "nan", "inf"])
@pytest.mark.parametrize(
    ("section", "key", "hi"), COEFFICIENTS, ids=[f"{s}.{k}" for s, k, _ in COEFFICIENTS]
)
def test_coefficients_out_of_range_are_refused(
    tmp_path: Path, section: str, key: str, hi: float, bad: str
) -> None:
    """What broke: a board with ``die.table_restitution = 1.5`` (a bounce
    gaining energy) loaded silently as far as any test knew; no test reached
    a coefficient's range check. Each coefficient out of range (1.5 for a
    restitution, 2.5 for a friction, negative, NaN, infinite) is refused
    with the file, the field and the range."""
    value = {"over": str(hi + 0.5)}.get(bad, bad)
    path = tmp_path / "bad.toml"
    path.write_text(
        _set_field(STANDARD.read_text(encoding="utf-8"), section, key, value), encoding="utf-8"
    )
    with pytest.raises(BoardError) as info:
        load_board(path)
    msg = str(info.value)
    for needle in (str(path), f"field `{section}.{key}`:", f"[0, {hi}]"):
        assert needle in msg, msg


@pytest.mark.parametrize(
    ("section", "key", "hi"), COEFFICIENTS, ids=[f"{s}.{k}" for s, k, _ in COEFFICIENTS]
)
def test_coefficients_at_their_limits_load(
    tmp_path: Path, section: str, key: str, hi: float
) -> None:
    """The ends of each range are allowed: 0 and the upper bound."""
    for value in (0.0, hi):
        path = tmp_path / "edge.toml"
        path.write_text(
            _set_field(STANDARD.read_text(encoding="utf-8"), section, key, str(value)),
            encoding="utf-8",
        )
        board = load_board(path)
        spec = {"die": board.die, "pin": board.pin.material, "wall_material": board.wall_material}
        assert getattr(spec[section], key) == value


def test_board_summary_prints_a_cuboid_die_s_sides(tmp_path: Path) -> None:
    """``warlords-sim board`` names a cuboid die's three sides, not its
    size_mm (it printed "die 16 mm" for a 20 x 16 x 12 mm die)."""
    text = _sides("[20.0, 16.0, 12.0]")(STANDARD.read_text(encoding="utf-8"))
    path = tmp_path / "cuboid.toml"
    path.write_text(_set_field(text, "castle", "crenelation_width_mm", "24.0"), encoding="utf-8")
    result = CliRunner().invoke(main, ["board", str(path)])
    assert result.exit_code == 0, result.output
    assert "die         20 x 16 x 12 mm" in result.stdout, result.stdout
    result = CliRunner().invoke(main, ["board"])
    assert "die         16 mm," in result.stdout, result.stdout


def test_not_toml(tmp_path: Path) -> None:
    path = tmp_path / "garbage.toml"
    path.write_text("this is [not toml\n", encoding="utf-8")
    with pytest.raises(BoardError, match="TOML") as info:
        load_board(path)
    assert str(path) in str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    with pytest.raises(BoardError) as info:
        load_board(path)
    assert str(path) in str(info.value)


def test_unknown_board_name() -> None:
    with pytest.raises(BoardError, match="nope") as info:
        load_board("nope")
    assert "standard" in str(info.value)  # lists the known boards


# --------------------------------------------------------------------------
# the `board` command
# --------------------------------------------------------------------------


def test_cli_help_and_version() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["--help"])
    assert result.exit_code == 0
    assert "board" in result.stdout and "mm" in result.stdout
    result = runner.invoke(main, ["--version"])
    assert result.exit_code == 0
    assert "0." in result.stdout


def test_cli_board_summary() -> None:
    result = CliRunner().invoke(main, ["board"])
    assert result.exit_code == 0, result.output
    assert "standard" in result.stdout and "sha256" in result.stdout


def test_cli_board_json(board: Board) -> None:
    result = CliRunner().invoke(main, ["board", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    for key in ("name", "sha256", "size_mm", "die", "pin", "castles", "holes"):
        assert key in data
    for key in ("center_ring", "siege_engine", "units", "setup"):
        assert key in data
    assert data["name"] == "standard"
    assert data["sha256"] == board.sha256
    assert data["units"]["length"] == "mm"
    assert len(data["castles"]) == 4
    castle = data["castles"][0]
    for key in ("walls", "courtyard", "gateways", "moat", "front_areas"):
        assert key in castle
    for key in ("wall_holes", "three_player_wall", "side_walls"):
        assert key in castle
    assert set(castle["courtyard"]) == {"x0", "y0", "x1", "y1"}
    spot = castle["front_areas"][0]["high"]
    assert spot["crenelation"] == "high"
    assert {"x", "y", "height_mm", "outward"} <= set(spot)
    assert len(data["holes"]) == len(board.holes)
    assert data["center_ring"]["pins_by_seat"] == [list(p) for p in board.center_ring.pins_by_seat]
    assert data["siege_engine"]["width_mm"] == board.siege_engine.width_mm
    assert data["setup"]["players"] == 4


def _pixel(img: object, fig_xy: tuple[float, float]) -> tuple[float, float, float]:
    import numpy as np

    a = np.asarray(img)
    h, w = a.shape[:2]
    col = int(fig_xy[0] * w)
    row = int((1.0 - fig_xy[1]) * h)
    patch = a[row - 2 : row + 3, col - 2 : col + 3, :3].reshape(-1, 3)
    r, g, b = np.median(patch, axis=0)
    return (float(r), float(g), float(b))


def _courtyard_pixels(board: Board, img: object) -> list[tuple[float, float, float]]:
    """Colour of the PNG at each courtyard's centre (the figure layout is fixed)."""
    fig, ax = board_figure(board)
    out = []
    for castle in board.castles:
        px, py = ax.transData.transform(castle.courtyard.center)
        out.append(_pixel(img, (px / fig.bbox.width, py / fig.bbox.height)))
    return out


def test_cli_board_png(tmp_path: Path, board: Board) -> None:
    out = tmp_path / "out.png"
    result = CliRunner().invoke(main, ["board", "--png", str(out)])
    assert result.exit_code == 0, result.output
    assert str(out) in result.stdout
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    img = imread(out)
    for seat, got in enumerate(_courtyard_pixels(board, img)):
        want = to_rgb(SEAT_COLOURS[seat])
        assert all(abs(g - w) < 0.02 for g, w in zip(got, want, strict=True)), (seat, got, want)
    # overwriting needs --force (tests/test_outputs.py has the refusal)
    result = CliRunner().invoke(main, ["board", "--png", str(out), "--side-walls", "--force"])
    assert result.exit_code == 0, result.output


def test_cli_board_png_three_players(tmp_path: Path, board: Board) -> None:
    out = tmp_path / "three.png"
    result = CliRunner().invoke(main, ["board", "--players", "3", "--png", str(out)])
    assert result.exit_code == 0, result.output
    pixels = _courtyard_pixels(board, imread(out))
    assert all(abs(g - w) < 0.02 for g, w in zip(pixels[0], to_rgb(SEAT_COLOURS[0]), strict=True))
    # no castle at seat 3: no green there
    assert max(abs(g - w) for g, w in zip(pixels[3], to_rgb(SEAT_COLOURS[3]), strict=True)) > 0.1


def test_cli_png_and_json_keep_stdout_json(tmp_path: Path) -> None:
    out = tmp_path / "both.png"
    result = CliRunner().invoke(main, ["board", "--json", "--png", str(out)])
    assert result.exit_code == 0, result.output
    json.loads(result.stdout)
    assert str(out) in result.stderr
    assert out.exists()


def test_cli_unknown_board_is_one_line_exit_2() -> None:
    result = CliRunner().invoke(main, ["board", "nope"])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("warlords-sim: error: ")
    assert "nope" in lines[0]
    assert result.stdout == ""


def test_cli_bad_board_file_is_one_line_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    text = STANDARD.read_text(encoding="utf-8")
    path.write_text(_set_field(text, "board", "size_mm", "-1.0"), encoding="utf-8")
    result = CliRunner().invoke(main, ["board", str(path)])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert str(path) in lines[0] and "board.size_mm" in lines[0]


def test_cli_unwritable_png_is_one_line_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["board", "--png", str(tmp_path / "no" / "such" / "x.png")])
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1


def test_plotting_and_board_command_load_no_gui() -> None:
    code = (
        "import sys, warlords_sim.plotting, warlords_sim.cli.board_cmd; "
        "bad = [m for m in ('pyglet', 'matplotlib.pyplot') if m in sys.modules]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("low", ["40.0", "45.0"])
def test_a_low_crenelation_not_below_the_high_one_is_refused(tmp_path: Path, low: str) -> None:
    """Guards the loader's ``low >= high`` check (a ``>`` let a board whose
    low and high crenelations are the same height load). The rulebook's
    supply flick is "from either a high or low crenelation": two heights, the
    low one below the high one (the standard board: 20 and 40 mm). A low
    crenelation as high as the high one (40 mm) or higher is refused, naming
    the file and the field; just below it loads."""
    text = STANDARD.read_text(encoding="utf-8")
    assert "high_crenelation_mm = 40.0" in text
    path = tmp_path / "bad.toml"
    path.write_text(_set_field(text, "castle", "low_crenelation_mm", low), encoding="utf-8")
    with pytest.raises(BoardError) as info:
        load_board(path)
    msg = str(info.value)
    wanted = ("field `castle.low_crenelation_mm`:", "less than high_crenelation_mm")
    for needle in (str(path), *wanted):
        assert needle in msg, msg
    path.write_text(_set_field(text, "castle", "low_crenelation_mm", "39.5"), encoding="utf-8")
    assert load_board(path).low_crenelation_mm == 39.5


def test_the_board_edge_itself_is_on_the_board(board: Board) -> None:
    """Guards ``Board.on_board``'s closed bounds: the board is the square of
    side ``size_mm`` (600), "beyond it a die falls off" (boards/standard.toml):
    a point on any edge or corner is over the board, the next float beyond it
    is not."""
    h = board.size_mm / 2.0
    assert h == board.half_size_mm == 300.0
    for x, y in ((h, 0.0), (-h, 0.0), (0.0, h), (0.0, -h), (h, h), (-h, -h)):
        assert board.on_board(x, y), (x, y)
        out = (math.nextafter(x, math.copysign(math.inf, x)) if x else 0.0,
               math.nextafter(y, math.copysign(math.inf, y)) if y else 0.0)  # fmt: skip
        assert not board.on_board(*out), out


def test_the_strike_limit_is_half_the_dies_height(tmp_path: Path) -> None:
    """Guards ``DieSpec.strike_limit_mm``: the finger strikes within the
    die's trailing face, so at most half its height (the body z side,
    ``sides_mm[2]``, face 1 up) from its centre. A 20 x 16 x 12 mm die: 6 mm,
    not half its x side (10) or y side (8); a cube of 16 mm: 8."""
    path = tmp_path / "cuboid.toml"
    text = _sides("[20.0, 16.0, 12.0]")(STANDARD.read_text(encoding="utf-8"))
    text = text.replace("crenelation_width_mm = 20.0", "crenelation_width_mm = 24.0")
    path.write_text(text, encoding="utf-8")
    assert load_board(path).die.strike_limit_mm == 6.0
    assert load_board(STANDARD).die.strike_limit_mm == 16.0 / 2.0
