"""``warlords-sim board``: show, draw or dump a board file.

Imports the board layer only; matplotlib only for ``--png``.
"""

from __future__ import annotations

import dataclasses
import json
from enum import Enum
from pathlib import Path
from typing import Any

import click

from warlords_sim.board import Board, castle_seats_for, closed_seats, default_pins
from warlords_sim.cli._common import echo, fail, load_board_or_fail
from warlords_sim.cli._outputs import check_output, saving
from warlords_sim.extras import require_extra

__all__ = ["board", "board_to_json"]

#: Units of every number in the JSON dump.
UNITS = {"length": "mm", "mass": "g", "time": "s", "angle": "rad"}
FRAME = "origin at the board centre, x right, y up; seats 0 bottom, 1 left, 2 top, 3 right"


def _plain(obj: Any) -> Any:
    """Dataclass dicts with enums replaced by their values and tuples by lists."""
    if isinstance(obj, Enum):
        return obj.value
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_plain(v) for v in obj]
    return obj


def board_to_json(
    b: Board,
    *,
    castle_seats: tuple[int, ...] = (0, 1, 2, 3),
    side_walls: bool = False,
) -> dict[str, Any]:
    """The validated board as JSON-ready data (lengths mm, masses g).

    Every field of :class:`~warlords_sim.board.Board` (rectangles as
    ``{x0, y0, x1, y1}``, points as ``[x, y]``), plus ``units``, ``frame``
    and ``setup``: the castle seats, the closed seat, the side walls and the
    centre-ring pin holes of the chosen player count.
    """
    data: dict[str, Any] = {"units": UNITS, "frame": FRAME}
    data.update(_plain(dataclasses.asdict(b)))
    closed = closed_seats(castle_seats)
    data["setup"] = {
        "players": len(castle_seats),
        "castle_seats": list(castle_seats),
        "closed_seat": closed[0] if closed else None,
        "side_walls": side_walls,
        "pins": list(default_pins(b, castle_seats)),
    }
    return data


def _die_size(b: Board) -> str:
    """``16 mm`` for a cube, ``20 x 16 x 12 mm (a cuboid: sides_mm)`` otherwise."""
    if b.die.cubic:
        return f"{b.die.size_mm:g} mm"
    sides = " x ".join(f"{v:g}" for v in b.die.sides_mm)
    return f"{sides} mm (a cuboid: sides_mm along body x, y, z)"


def _summary(b: Board, castle_seats: tuple[int, ...], side_walls: bool) -> str:
    c0 = b.castles[0]
    ring = b.center_ring
    n_ring = len(ring.hole_indices)
    gates = ", ".join(f"{g.width:g} x {g.height:g}" for g in c0.gateways)
    lines = [
        f"board {b.name!r}: {b.description}".rstrip(": "),
        f"  file        {b.path}",
        f"  sha256      {b.sha256}",
        f"  size        {b.size_mm:g} mm square, open edge; gravity {b.gravity_mm_s2:g} mm/s^2",
        f"  die         {_die_size(b)}, {b.die.mass_g:g} g, table friction "
        f"{b.die.table_friction:g}, restitution {b.die.table_restitution:g}",
        f"  pins        radius {b.pin.radius_mm:g} mm, height {b.pin.height_mm:g} mm",
        f"  castles     courtyard {c0.courtyard.width:g} x {c0.courtyard.height:g} mm, "
        f"{len(c0.walls)} walls {max(w.height_mm for w in c0.walls):g} mm high, "
        f"{len(c0.gateways)} gateways ({gates} mm), moat {c0.moat.width:g} x {c0.moat.height:g} mm",
        f"  launch      3 front areas, high crenelation {b.high_crenelation_mm:g} mm, "
        f"low {b.low_crenelation_mm:g} mm",
        f"  holes       {len(b.holes)}: {n_ring} in the centre ring (radius "
        f"{ring.radius_mm:g} mm), {len(b.holes) - n_ring} across the field",
        f"  siege       {b.siege_engine.width_mm:g} mm square, launch height "
        f"{b.siege_engine.launch_height_mm:g} mm",
        f"  players     {len(castle_seats)}: castles at seats "
        + ", ".join(str(s) for s in castle_seats)
        + (
            f"; seat {({0, 1, 2, 3} - set(castle_seats)).pop()} closed by the three-player wall"
            if len(castle_seats) == 3
            else ""
        )
        + ("; side walls up" if side_walls else ""),
    ]
    return "\n".join(lines)


@click.command("board")
@click.argument("name_or_path", metavar="[NAME|PATH]", default="standard")
@click.option(
    "--png",
    "png",
    metavar="OUT",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Draw the board to scale and write it as a PNG (an existing OUT only with --force).",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print the validated geometry as JSON on stdout."
)
@click.option(
    "--players",
    type=click.IntRange(2, 4),
    metavar="2|3|4",
    default=4,
    show_default=True,
    help="Players: 4 castles; 3 close seat 3 with the three-player wall; 2 sit at seats 0 and 2.",
)
@click.option("--side-walls", is_flag=True, help="Put up the optional side walls (wall variants).")
@click.option("--force", is_flag=True, help="With --png: overwrite an existing file.")
def board(
    name_or_path: str,
    png: Path | None,
    as_json: bool,
    players: int,
    side_walls: bool,
    force: bool,
) -> None:
    """Show, draw or dump a board file.

    NAME is a board from boards/ (default: standard); PATH a board .toml
    file. The file is validated; a bad one is reported with the file, the
    field and what was expected. Without --png or --json, prints a summary.
    Lengths are mm, in the board frame (origin at the centre, x right, y up).
    """
    if png is not None:
        require_extra("render", "board --png")
    b = load_board_or_fail(name_or_path, "NAME|PATH")
    seats = castle_seats_for(players)
    if png is not None:
        from warlords_sim.plotting import save_board_png

        out = check_output(png, "--png", force)
        try:
            with saving(out, "--png", force) as tmp:
                save_board_png(b, tmp, castle_seats=seats, side_walls=side_walls)
        except OSError as e:
            fail(f"cannot write {png}: {e.strerror or e}")
        # keep stdout clean for the JSON when both are asked for
        echo(f"wrote {out}", err=as_json)
    if as_json:
        echo(json.dumps(board_to_json(b, castle_seats=seats, side_walls=side_walls), indent=2))
    if png is None and not as_json:
        echo(_summary(b, seats, side_walls))
