"""Drawing the board and experiment results with matplotlib (Agg, no window).

Everything is drawn to scale in the board frame: millimetres, origin at the
board centre, x right, y up, seen from above; seats 0 bottom, 1 left, 2 top,
3 right. Angles are radians (counter-clockwise).

This module builds :class:`matplotlib.figure.Figure` objects directly and
renders them with the Agg canvas; it never imports ``matplotlib.pyplot``,
pyglet or pymunk, so it is safe in headless workers and tests. It reads only
:mod:`warlords_sim.board` at run time, and the physics value type
:class:`~warlords_sim.physics.types.DiePose` for annotations (importing the
physics package would load pymunk).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.legend_handler import HandlerTuple
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Patch, Polygon, Rectangle
from numpy.typing import ArrayLike

from warlords_sim.board import (
    Board,
    Castle,
    FrontArea,
    Rect,
    Wall,
    castle_seats_for,
    closed_seats,
    default_pins,
    standing_walls,
)
from warlords_sim.colours import SEAT_COLOUR_NAMES, SEAT_COLOURS, SIDE_LABEL_TURN
from warlords_sim.extras import missing_modules

if TYPE_CHECKING:  # only for annotations: importing the physics package loads pymunk
    from warlords_sim.physics.types import DiePose

__all__ = [
    "SEAT_COLOURS",
    "SEAT_COLOUR_NAMES",
    "board_figure",
    "castle_seats_for",
    "default_pins",
    "draw_board",
    "landing_plot",
    "save_board_png",
    "seat_colour",
]

Point = tuple[float, float]
RGB = tuple[float, float, float]

_BOARD_FILL = "#ecdcb8"  # light wood
_BOARD_EDGE = "#8a6a3a"
_OFF_BOARD = "#f7f7f5"
_MOAT_FILL = "#8fcbec"
_MOAT_EDGE = "#3a8cc2"
_HOLE_FILL = "#c9b48a"
_HOLE_EDGE = "#6b5532"
_PIN_FILL = "#2b2b2b"
_RING_EDGE = "#8a6a3a"
_SIDE_WALL = "#5b3b1c"
_THREE_PLAYER_WALL = "#6e6e6e"
_SIEGE_FILL = "#9c7b4a"
_TEXT = "#3b3024"

# z-order of the layers, bottom to top
_Z_BOARD, _Z_MOAT, _Z_CASTLE, _Z_WALL, _Z_HOLE, _Z_MARK, _Z_PIN, _Z_ENGINE, _Z_DIE = range(1, 10)

#: Pip positions of each face in units of the half die edge.
_PIPS: dict[int, tuple[Point, ...]] = {
    1: ((0.0, 0.0),),
    2: ((-0.5, -0.5), (0.5, 0.5)),
    3: ((-0.5, -0.5), (0.0, 0.0), (0.5, 0.5)),
    4: ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)),
    5: ((-0.5, -0.5), (0.5, -0.5), (0.0, 0.0), (-0.5, 0.5), (0.5, 0.5)),
    6: ((-0.5, -0.5), (-0.5, 0.0), (-0.5, 0.5), (0.5, -0.5), (0.5, 0.0), (0.5, 0.5)),
}


def seat_colour(seat: int) -> str:
    """The colour of ``seat`` (0..3) as a hex string.

    Raises:
        ValueError: seat not in 0..3.
    """
    if not 0 <= seat < len(SEAT_COLOURS):
        raise ValueError(f"seat must be 0..3, got {seat!r}")
    return SEAT_COLOURS[seat]


def _shade(colour: str, factor: float) -> RGB:
    """Mix ``colour`` with black (factor < 0) or white (factor > 0); |factor| in [0, 1]."""
    r, g, b = to_rgb(colour)
    if factor < 0:
        k = 1.0 + factor
        return (r * k, g * k, b * k)
    return (r + (1 - r) * factor, g + (1 - g) * factor, b + (1 - b) * factor)


def _luminance(colour: str) -> float:
    r, g, b = to_rgb(colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _rect_patch(r: Rect, **kw: Any) -> Rectangle:
    return Rectangle((r.x0, r.y0), r.width, r.height, **kw)


def _check_seats(seats: Iterable[int], what: str) -> tuple[int, ...]:
    out = tuple(seats)
    for s in out:
        if not (isinstance(s, int) and 0 <= s <= 3):
            raise ValueError(f"{what}: seats must be 0..3, got {s!r}")
    if len(set(out)) != len(out):
        raise ValueError(f"{what}: repeated seat in {out}")
    return out


def _die_corners(x: float, y: float, angle: float, size: float) -> list[Point]:
    """Corners (mm) of a die's square footprint, as ``physics.regions.footprint``."""
    c, s = math.cos(angle), math.sin(angle)
    h = size / 2.0
    return [
        (x + c * px - s * py, y + s * px + c * py)
        for px, py in ((-h, -h), (h, -h), (h, h), (-h, h))
    ]


def _draw_die(ax: Axes, pose: DiePose, owner: int, size: float) -> None:
    colour = seat_colour(owner)
    corners = _die_corners(pose.x, pose.y, pose.angle, size)
    ax.add_patch(
        Polygon(
            corners,
            closed=True,
            facecolor=colour,
            edgecolor="black",
            linewidth=0.9,
            linestyle="--" if pose.cocked else "-",
            zorder=_Z_DIE,
        )
    )
    pip = "#111111" if _luminance(colour) > 0.55 else "white"
    c, s = math.cos(pose.angle), math.sin(pose.angle)
    h = size / 2.0
    for px, py in _PIPS.get(pose.face, ()):
        dx, dy = px * h, py * h
        ax.add_patch(
            Circle(
                (pose.x + c * dx - s * dy, pose.y + s * dx + c * dy),
                size * 0.09,
                facecolor=pip,
                edgecolor="none",
                zorder=_Z_DIE + 0.1,
            )
        )


def _wall_style(board: Board, wall: Wall) -> dict[str, Any]:
    """A castle wall in its seat's colour, darkened; the three-player wall
    grey; a side wall (and an edge gap wall) brown."""
    for castle in board.castles:
        if wall in castle.walls:
            colour = seat_colour(castle.seat)
            return {
                "facecolor": _shade(colour, -0.45),
                "edgecolor": _shade(colour, -0.7),
                "linewidth": 0.5,
            }
        if wall == castle.three_player_wall:
            return {"facecolor": _THREE_PLAYER_WALL, "edgecolor": "black", "linewidth": 0.5}
    return {"facecolor": _SIDE_WALL, "edgecolor": "none"}


def _checked_drawing(
    board: Board,
    castle_seats: Sequence[int],
    pins: Iterable[int] | None,
    dice: Iterable[tuple[DiePose, int]],
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[DiePose, int], ...]]:
    """The seats, pin holes and dice of a drawing, checked before anything is drawn.

    Returns:
        ``(seats, pin_holes, dice)``: the castle seats, the hole indices
        holding a pin (the centre-ring set-up for the seats when ``pins``
        is ``None``) and the ``(pose, owner_seat)`` pairs.

    Raises:
        ValueError: a seat outside 0..3 (or repeated), a hole index out of
            range or a face outside 1..6.
    """
    seats = _check_seats(castle_seats, "castle_seats")
    pin_holes = default_pins(board, seats) if pins is None else tuple(pins)
    for i in pin_holes:
        if not 0 <= i < len(board.holes):
            raise ValueError(f"pin hole index {i} out of range 0..{len(board.holes) - 1}")
    checked = tuple(dice)
    for pose, owner in checked:
        seat_colour(owner)
        if pose.face not in _PIPS:
            raise ValueError(f"die {pose.die}: face must be 1..6, got {pose.face!r}")
    return seats, pin_holes, checked


def _draw_table(ax: Axes, board: Board, margin: float) -> None:
    """Set up ``ax`` (equal aspect, limits the board plus ``margin`` mm each
    side, off-board colour) and draw the board's square."""
    half = board.half_size_mm
    ax.set_facecolor(_OFF_BOARD)
    ax.set_xlim(-half - margin, half + margin)
    ax.set_ylim(-half - margin, half + margin)
    ax.set_aspect("equal")
    ax.add_patch(
        Rectangle(
            (-half, -half),
            board.size_mm,
            board.size_mm,
            facecolor=_BOARD_FILL,
            edgecolor=_BOARD_EDGE,
            linewidth=1.5,
            zorder=_Z_BOARD,
        )
    )


def _draw_centre_ring(ax: Axes, board: Board) -> None:
    """The centre ring: a disc of its radius (mm) about the origin, a shade
    darker than the board."""
    ax.add_patch(
        Circle(
            (0.0, 0.0),
            board.center_ring.radius_mm,
            facecolor=_shade(_BOARD_FILL, -0.06),
            edgecolor=_RING_EDGE,
            linewidth=1.0,
            zorder=_Z_BOARD + 0.5,
        )
    )


def _draw_castle(ax: Axes, castle: Castle, labels: bool) -> None:
    """One standing castle without its walls: the moat blue, the courtyard in
    the seat colour, the gateways lighter and dashed, then each front area's
    launch spots (and its number when ``labels``)."""
    colour = seat_colour(castle.seat)
    ax.add_patch(
        _rect_patch(
            castle.moat,
            facecolor=_MOAT_FILL,
            edgecolor=_MOAT_EDGE,
            linewidth=0.8,
            zorder=_Z_MOAT,
        )
    )
    ax.add_patch(
        _rect_patch(castle.courtyard, facecolor=colour, edgecolor="none", zorder=_Z_CASTLE)
    )
    for gate in castle.gateways:
        ax.add_patch(
            _rect_patch(
                gate,
                facecolor=_shade(colour, 0.55),
                edgecolor=_shade(colour, -0.45),
                linewidth=0.6,
                linestyle=(0, (2, 1.5)),
                zorder=_Z_CASTLE,
            )
        )
    for area in castle.front_areas:
        _draw_launch_spots(ax, castle, area)
        if labels:
            _draw_area_number(ax, castle, area)


def _draw_launch_spots(ax: Axes, castle: Castle, area: FrontArea) -> None:
    """A front area's two launch spots as triangles pointing out of the castle
    (not to be taken for pins): the high crenelation's filled, the low's open."""
    for spot, filled in ((area.high, True), (area.low, False)):
        ox, oy = castle.outward
        px, py = -oy, ox
        tri = [
            (spot.x + ox * 3.4, spot.y + oy * 3.4),
            (spot.x - ox * 2.2 + px * 3.0, spot.y - oy * 2.2 + py * 3.0),
            (spot.x - ox * 2.2 - px * 3.0, spot.y - oy * 2.2 - py * 3.0),
        ]
        ax.add_patch(
            Polygon(
                tri,
                closed=True,
                facecolor=_TEXT if filled else "white",
                edgecolor=_TEXT,
                linewidth=0.8,
                zorder=_Z_MARK,
            )
        )


def _draw_area_number(ax: Axes, castle: Castle, area: FrontArea) -> None:
    """A front area's number, faint, 11 mm outward of the middle of its two
    launch spots."""
    ox, oy = castle.outward
    mx = (area.high.x + area.low.x) / 2.0 + ox * 11.0
    my = (area.high.y + area.low.y) / 2.0 + oy * 11.0
    ax.text(
        mx,
        my,
        str(area.area),
        ha="center",
        va="center",
        fontsize=6,
        color=_TEXT,
        alpha=0.55,
        zorder=_Z_MARK,
    )


def _draw_walls(ax: Axes, board: Board, seats: tuple[int, ...], side_walls: bool) -> None:
    """The walls standing in the physics for ``seats`` and ``side_walls``
    (:func:`~warlords_sim.board.standing_walls`), each in its style."""
    for _, wall in standing_walls(board, seats, side_walls):
        ax.add_patch(_rect_patch(wall.rect, zorder=_Z_WALL, **_wall_style(board, wall)))


def _draw_holes(ax: Axes, board: Board) -> None:
    """Every pin hole, of the pin's radius (mm): the ring's and the field's,
    then the three-player walls'."""
    wall_holes = [h for c in board.castles for h in c.wall_holes]
    for x, y in (*board.holes, *wall_holes):
        ax.add_patch(
            Circle(
                (x, y),
                board.pin.radius_mm,
                facecolor=_HOLE_FILL,
                edgecolor=_HOLE_EDGE,
                linewidth=0.6,
                zorder=_Z_HOLE,
            )
        )


def _draw_pins(ax: Axes, board: Board, pin_holes: Iterable[int]) -> None:
    """A pin, a little wider than its hole, in each hole of ``pin_holes``
    (indices into ``board.holes``, already checked)."""
    for i in pin_holes:
        x, y = board.holes[i]
        ax.add_patch(
            Circle(
                (x, y),
                board.pin.radius_mm * 1.15,
                facecolor=_PIN_FILL,
                edgecolor="black",
                linewidth=0.5,
                zorder=_Z_PIN,
            )
        )


def _draw_siege_engine(ax: Axes, board: Board, centre: Point, labels: bool) -> None:
    """The siege engine's hatched square footprint about ``centre`` (mm), and
    its name under it when ``labels``."""
    w = board.siege_engine.width_mm
    sx, sy = centre
    ax.add_patch(
        Rectangle(
            (sx - w / 2.0, sy - w / 2.0),
            w,
            w,
            facecolor=_SIEGE_FILL,
            edgecolor="black",
            hatch="xx",
            linewidth=0.8,
            alpha=0.9,
            zorder=_Z_ENGINE,
        )
    )
    if labels:
        ax.text(
            sx,
            sy - w / 2.0 - 3.0,
            "siege engine",
            ha="center",
            va="top",
            fontsize=6,
            color=_TEXT,
            zorder=_Z_ENGINE,
        )


def _seat_label(
    seat: int, seats: tuple[int, ...], closed: tuple[int, ...]
) -> tuple[str, str | RGB]:
    """The name written by ``seat``'s side and its colour: the seat colour's
    name for a castle that stands, else closed (three-player wall) or empty."""
    name = f"seat {seat}"
    if seat in seats:
        return f"{name} ({SEAT_COLOUR_NAMES[seat]})", _shade(seat_colour(seat), -0.25)
    if seat in closed:
        return f"{name} (closed: three-player wall)", _THREE_PLAYER_WALL
    return f"{name} (empty)", _THREE_PLAYER_WALL


def _draw_seat_labels(
    ax: Axes, board: Board, seats: tuple[int, ...], closed: tuple[int, ...], margin: float
) -> None:
    """Each seat's name in the margin (``margin`` mm wide) behind its side,
    turned to be read from that side."""
    d = board.half_size_mm + margin * 0.45
    for seat in range(4):
        ox, oy = board.castles[seat].outward
        name, colour = _seat_label(seat, seats, closed)
        ax.text(
            -ox * d,
            -oy * d,
            name,
            ha="center",
            va="center",
            rotation=math.degrees(SIDE_LABEL_TURN[seat]) % 360.0,
            rotation_mode="anchor",
            fontsize=9,
            fontweight="bold",
            color=colour,
        )


def draw_board(
    ax: Axes,
    board: Board,
    *,
    castle_seats: Sequence[int] = (0, 1, 2, 3),
    side_walls: bool = False,
    pins: Iterable[int] | None = None,
    dice: Iterable[tuple[DiePose, int]] = (),
    siege_engine: Point | None = None,
    labels: bool = True,
) -> None:
    """Draw ``board`` to scale on ``ax`` (data units: mm, board frame).

    Args:
        ax: the matplotlib axes; its aspect is set equal and its limits to
            the board plus a margin for the seat labels.
        board: the board to draw.
        castle_seats: seats whose castle stands (courtyard in the seat colour,
            walls darker, gateways lighter, moat blue, launch spots).
        side_walls: the optional side walls stand (wall variants 1 and 2).
            The walls drawn are exactly those standing in the physics for
            ``castle_seats`` and ``side_walls``
            (:func:`~warlords_sim.board.standing_walls`: the three-player
            wall with three castles, the edge gap walls with side walls).
        pins: hole indices (into ``board.holes``) holding a pin; ``None``
            means the centre-ring set-up for ``castle_seats``.
        dice: ``(pose, owner_seat)`` pairs; each die is a square of the
            board's die size (mm) turned by ``pose.angle`` (rad), in the
            owner's colour, showing ``pose.face`` in pips; a cocked die has
            a dashed outline.
        siege_engine: ``(x, y)`` mm centre of the siege engine's square
            footprint, or ``None`` for no engine.
        labels: write seat names, front-area numbers and the engine's name.

    Raises:
        ValueError: a seat outside 0..3, a hole index out of range or a
            face outside 1..6.
    """
    seats, pin_holes, poses = _checked_drawing(board, castle_seats, pins, dice)
    margin = 0.09 * board.size_mm
    _draw_table(ax, board, margin)
    _draw_centre_ring(ax, board)
    for seat in seats:
        _draw_castle(ax, board.castles[seat], labels)
    _draw_walls(ax, board, seats, side_walls)
    _draw_holes(ax, board)
    _draw_pins(ax, board, pin_holes)
    if siege_engine is not None:
        _draw_siege_engine(ax, board, siege_engine, labels)
    for pose, owner in poses:
        _draw_die(ax, pose, owner, board.die.size_mm)
    if labels:
        _draw_seat_labels(ax, board, seats, closed_seats(seats), margin)
    ax.set_xlabel("x (mm)")
    ax.set_ylabel("y (mm)")
    ax.tick_params(labelsize=7)


def _legend_handles(side_walls: bool, closed: bool, engine: bool) -> tuple[list[Any], list[str]]:
    """Legend handles and their labels; a tuple handle shows the four seat colours."""
    handles: list[Any] = [
        tuple(Patch(facecolor=c, edgecolor="none") for c in SEAT_COLOURS),
        tuple(Patch(facecolor=_shade(c, -0.45), edgecolor="none") for c in SEAT_COLOURS),
        tuple(
            Patch(facecolor=_shade(c, 0.55), edgecolor=_shade(c, -0.45), linestyle="--")
            for c in SEAT_COLOURS
        ),
        Patch(facecolor=_MOAT_FILL, edgecolor=_MOAT_EDGE, label="moat"),
        Line2D(
            [],
            [],
            marker="^",
            linestyle="none",
            markerfacecolor=_TEXT,
            markeredgecolor=_TEXT,
            label="launch spot, high crenelation",
        ),
        Line2D(
            [],
            [],
            marker="^",
            linestyle="none",
            markerfacecolor="white",
            markeredgecolor=_TEXT,
            label="launch spot, low crenelation",
        ),
        Line2D(
            [],
            [],
            marker="o",
            linestyle="none",
            markerfacecolor=_HOLE_FILL,
            markeredgecolor=_HOLE_EDGE,
            label="pin hole",
        ),
        Line2D(
            [],
            [],
            marker="o",
            linestyle="none",
            markerfacecolor=_PIN_FILL,
            markeredgecolor="black",
            label="pin",
        ),
        Patch(facecolor=_shade(_BOARD_FILL, -0.06), edgecolor=_RING_EDGE, label="centre ring"),
    ]
    if closed:
        handles.append(Patch(facecolor=_THREE_PLAYER_WALL, label="three-player wall"))
    if side_walls:
        handles.append(Patch(facecolor=_SIDE_WALL, label="side wall (wall variants)"))
    if engine:
        handles.append(
            Patch(facecolor=_SIEGE_FILL, edgecolor="black", hatch="xx", label="siege engine")
        )
    fixed = ["courtyard (seat colours)", "castle wall", "gateway"]
    labels = fixed + [h.get_label() for h in handles[len(fixed) :]]
    return handles, labels


def board_figure(
    board: Board,
    *,
    title: str | None = None,
    legend: bool = True,
    **kw: Any,
) -> tuple[Figure, Axes]:
    """A new figure (not attached to pyplot) showing ``board``.

    Args:
        board: the board.
        title: figure title; default names the board and its size.
        legend: add a key to the right of the board.
        **kw: passed to :func:`draw_board` (``castle_seats``, ``side_walls``,
            ``pins``, ``dice``, ``siege_engine``, ``labels``).

    Returns:
        ``(figure, axes)``; the axes' data units are mm in the board frame.
        The layout is fixed (no tight bounding box), so ``axes.transData``
        maps board millimetres to pixels of the saved image.
    """
    fig = Figure(figsize=(10.0, 7.6) if legend else (7.6, 7.6))
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.07, 0.06, 0.65, 0.86) if legend else (0.09, 0.06, 0.86, 0.86))
    draw_board(ax, board, **kw)
    if title is None:
        title = f"Warlords board {board.name!r}: {board.size_mm:g} mm square, to scale"
    fig.suptitle(title, fontsize=12, y=0.975)
    if legend:
        closed = bool(closed_seats(kw.get("castle_seats", (0, 1, 2, 3))))
        handles, names = _legend_handles(
            bool(kw.get("side_walls")), closed, kw.get("siege_engine") is not None
        )
        fig.legend(
            handles,
            names,
            handler_map={tuple: HandlerTuple(ndivide=None, pad=0.0)},
            loc="upper left",
            bbox_to_anchor=(0.735, 0.92),
            fontsize=8,
            handlelength=3.0,
            frameon=False,
        )
        die = board.die
        c0 = board.castles[0]
        side = (
            f"side walls {max(w.height_mm for w in c0.side_walls):g} mm high\n"
            if c0.side_walls
            else ""
        )
        notes = (
            f"die {die.size_mm:g} mm, {die.mass_g:g} g\n"
            f"castle walls {max(w.height_mm for w in c0.walls):g} mm high\n"
            f"three-player wall {c0.three_player_wall.height_mm:g} mm high, in the\n"
            f"two holes off the closed seat's moat corners\n"
            f"{side}"
            f"crenelations: high {board.high_crenelation_mm:g} mm, "
            f"low {board.low_crenelation_mm:g} mm\n"
            f"pins r {board.pin.radius_mm:g} mm, {board.pin.height_mm:g} mm high\n"
            f"centre ring r {board.center_ring.radius_mm:g} mm, "
            f"{len(board.center_ring.hole_indices)} holes\n"
            f"siege engine {board.siege_engine.width_mm:g} mm square, "
            f"launch {board.siege_engine.launch_height_mm:g} mm\n"
            f"front areas 1-3 left to right\nas each seat sees them\n\n"
            f"frame: origin at the centre,\nx right, y up; units mm"
        )
        fig.text(0.745, 0.06, notes, fontsize=7.5, va="bottom", color=_TEXT, linespacing=1.5)
    return fig, ax


def save_board_png(board: Board, path: str | Path, *, dpi: int = 120, **kw: Any) -> Path:
    """Draw ``board`` and write it as a PNG at ``path`` (overwritten if it exists).

    Args:
        board: the board.
        path: output file; written as PNG whatever its suffix.
        dpi: pixels per inch (the figure is 10 x 7.6 in with the legend).
        **kw: passed to :func:`board_figure` and on to :func:`draw_board`.

    Returns:
        The path written.

    Raises:
        OSError: the file cannot be written.
    """
    out = Path(path)
    fig, _ = board_figure(board, **kw)
    fig.savefig(out, format="png", dpi=dpi)
    return out


def landing_plot(
    board: Board,
    poses_xy: ArrayLike,
    faces: ArrayLike,
    path: str | Path,
    *,
    title: str | None = None,
    dpi: int = 120,
    **board_kw: Any,
) -> Path:
    """Plot where dice came to rest and which faces came up; write a PNG.

    Left: the board with the landing points, a 2D histogram (5 mm bins,
    empty bins clear) for many points or a translucent scatter for few.
    Right: counts of faces 1..6 with the uniform expectation n/6 and its
    95 % binomial band, and a chi-square test of uniformity in the title.

    Args:
        board: the board.
        poses_xy: landing centres, shape ``(n, 2)``, mm in the board frame.
        faces: face up of each landing, shape ``(n,)``, integers 1..6.
        path: PNG to write (overwritten).
        title: figure title.
        dpi: pixels per inch.
        **board_kw: passed to :func:`draw_board`.

    Returns:
        The path written.

    Raises:
        ValueError: shapes disagree, or a face outside 1..6.
        OSError: the file cannot be written.
    """
    xy = np.asarray(poses_xy, dtype=float).reshape(-1, 2)
    f = np.asarray(faces, dtype=int).reshape(-1)
    if len(xy) != len(f):
        raise ValueError(f"poses_xy has {len(xy)} points but faces has {len(f)} values")
    if f.size and (f.min() < 1 or f.max() > 6):
        raise ValueError("faces must be 1..6")
    n = len(f)

    fig = Figure(figsize=(12.0, 6.2))
    FigureCanvasAgg(fig)
    ax_b = fig.add_axes((0.05, 0.08, 0.45, 0.82))
    ax_f = fig.add_axes((0.66, 0.12, 0.32, 0.72))
    draw_board(ax_b, board, **board_kw)
    if n >= 300:
        half = board.half_size_mm + 0.09 * board.size_mm
        bins = np.arange(-half, half + 5.0, 5.0)
        _, _, _, image = ax_b.hist2d(
            xy[:, 0], xy[:, 1], bins=[bins, bins], cmin=1, cmap="magma_r", alpha=0.85, zorder=20
        )
        cax = fig.add_axes((0.495, 0.16, 0.012, 0.66))
        fig.colorbar(image, cax=cax, label="dice per 5 mm bin")
    elif n:
        size, alpha = (6, 0.35) if n >= 20 else (40, 0.9)
        ax_b.scatter(xy[:, 0], xy[:, 1], s=size, c="black", alpha=alpha, linewidths=0, zorder=20)
    ax_b.set_title(f"landing points (n = {n})", fontsize=10)

    counts = np.bincount(f, minlength=7)[1:7]
    ax_f.bar(np.arange(1, 7), counts, color="#7d8fa8", edgecolor="#33414f", width=0.7)
    expected = n / 6.0
    # the uniform band and the chi-square test need enough dice to mean
    # anything (every expected count at least 5)
    tested = n >= 30
    if tested:
        sd = math.sqrt(n * (1.0 / 6.0) * (5.0 / 6.0))
        ax_f.axhspan(
            max(expected - 1.96 * sd, 0.0),
            expected + 1.96 * sd,
            color="#e07a5f",
            alpha=0.15,
            label="95 % band",
        )
        ax_f.axhline(
            expected, color="#c0392b", linewidth=1.5, label=f"uniform: n/6 = {expected:.1f}"
        )
    ax_f.set_ylim(bottom=0.0)
    ax_f.set_xticks(range(1, 7))
    ax_f.set_xlabel("face up")
    ax_f.set_ylabel("dice")
    sub = f"faces (n = {n}; too few for a test of uniformity)" if n else "faces"
    if tested and missing_modules("lab", ["scipy"]):
        sub = "faces (the test of uniformity needs the 'lab' extra)"
    elif tested:
        from scipy.stats import chisquare

        stat, p = chisquare(counts)
        sub = f"faces: chi-square {float(stat):.2f}, p = {float(p):.3f}"
    ax_f.set_title(sub, fontsize=10)
    if tested:
        ax_f.legend(fontsize=8, loc="lower right")
    if title:
        fig.suptitle(title, fontsize=12)
    out = Path(path)
    fig.savefig(out, format="png", dpi=dpi)
    return out
