"""A castle's crenelations and launch-spot markers, in board millimetres.

The geometry is the board's (:mod:`warlords_sim.board`): each front area
has a high launch spot (the die starts on the wall top,
``high_crenelation_mm``) and a low one (it starts in a notch cut
``crenelation_width_mm`` wide into the front wall, ``low_crenelation_mm``
high), each in front of the wall :func:`~warlords_sim.board.notch_wall`
finds behind it. Drawn from above:

* the low crenelation's notch: the wall cut through its thickness,
  ``crenelation_width_mm`` wide and centred on the low spot, in a lighter
  shade with dark cheeks (the notch's sides);
* the high crenelation: the merlon beside the notch, a raised block of the
  same width with a dark rim;
* the markers where the die starts: a filled triangle pointing out of the
  castle at a high spot, a hollow square at a low one, so the two differ
  by shape and not only by fill.

:func:`spot_marker_side` gives the markers' size for the hit tests and
the tests.
"""

from __future__ import annotations

from typing import Any

from pyglet import shapes

from warlords_sim.board import Board, Castle, Crenelation, LaunchSpot, Rect, notch_wall

__all__ = ["crenelation_rect", "crenelation_shapes", "spot_marker_side"]

RGB = tuple[int, int, int]

_INK = (59, 48, 36)
_PAPER = (255, 255, 255)


def spot_marker_side(board: Board) -> float:
    """Side (mm) of a launch spot's marker: half a die edge."""
    return board.die.size_mm / 2.0


def crenelation_rect(board: Board, castle: Castle, spot: LaunchSpot) -> Rect | None:
    """The part of the front wall behind ``spot`` that its crenelation
    occupies (mm): ``crenelation_width_mm`` along the wall, centred on the
    spot, through the wall's thickness. None if no wall stands behind it."""
    wall = notch_wall(castle, spot, board.die.size_mm)
    if wall is None:
        return None
    r = wall.rect
    half = board.crenelation_width_mm / 2.0
    if spot.outward[0] == 0.0:  # the wall runs along x
        return Rect(max(r.x0, spot.x - half), r.y0, min(r.x1, spot.x + half), r.y1)
    return Rect(r.x0, max(r.y0, spot.y - half), r.x1, min(r.y1, spot.y + half))


def _shade(c: RGB, f: float) -> RGB:
    if f < 0:
        k = 1.0 + f
        return (int(c[0] * k), int(c[1] * k), int(c[2] * k))
    r, g, b = (int(v + (255 - v) * f) for v in c)
    return (r, g, b)


def crenelation_shapes(
    board: Board, castle: Castle, colour: RGB, batch: Any, groups: tuple[Any, Any]
) -> list[Any]:
    """The shapes of ``castle``'s crenelations (group ``groups[0]``, over
    its walls, ``colour`` the walls' colour) and launch-spot markers
    (``groups[1]``); the caller keeps them alive."""
    walls, marks = groups
    out: list[Any] = []
    rim = _shade(colour, -0.6)
    for area in castle.front_areas:
        for cren in (Crenelation.LOW, Crenelation.HIGH):
            spot = area.spot(cren)
            r = crenelation_rect(board, castle, spot)
            if r is not None:
                out.extend(_crenel(r, spot, cren, colour, rim, batch, walls))
            out.extend(_marker(board, spot, cren, batch, marks))
    return out


def _crenel(
    r: Rect, spot: LaunchSpot, cren: Crenelation, colour: RGB, rim: RGB, batch: Any, group: Any
) -> list[Any]:
    out: list[Any] = []
    if cren is Crenelation.LOW:  # the notch: lower, so lighter, with dark cheeks
        out.append(
            shapes.Rectangle(
                r.x0, r.y0, r.width, r.height, _shade(colour, 0.22), batch=batch, group=group
            )
        )
        t = 1.6
        if spot.outward[0] == 0.0:
            cheeks = ((r.x0, r.y0, t, r.height), (r.x1 - t, r.y0, t, r.height))
        else:
            cheeks = ((r.x0, r.y0, r.width, t), (r.x0, r.y1 - t, r.width, t))
        for x, y, w, h in cheeks:
            out.append(shapes.Rectangle(x, y, w, h, rim, batch=batch, group=group))
        return out
    # the merlon: a raised block, dark rim and a lit top
    out.append(shapes.Rectangle(r.x0, r.y0, r.width, r.height, rim, batch=batch, group=group))
    inset = 2.2
    out.append(
        shapes.Rectangle(
            r.x0 + inset,
            r.y0 + inset,
            r.width - 2 * inset,
            r.height - 2 * inset,
            _shade(colour, 0.12),
            batch=batch,
            group=group,
        )
    )
    return out


def _marker(board: Board, spot: LaunchSpot, cren: Crenelation, batch: Any, group: Any) -> list[Any]:
    side = spot_marker_side(board)
    ox, oy = spot.outward
    px, py = -oy, ox  # along the wall
    x, y = spot.x, spot.y
    if cren is Crenelation.HIGH:  # a filled triangle pointing out of the castle
        h = side * 0.6
        return [
            shapes.Triangle(
                x + ox * h,
                y + oy * h,
                x - ox * h + px * h,
                y - oy * h + py * h,
                x - ox * h - px * h,
                y - oy * h - py * h,
                _INK,
                batch=batch,
                group=group,
            )
        ]
    s = side * 0.95  # a hollow square
    box = shapes.Box(x - s / 2, y - s / 2, s, s, 1.4, _INK, batch=batch, group=group)
    inner = shapes.Rectangle(
        x - s / 2 + 1.4, y - s / 2 + 1.4, s - 2.8, s - 2.8, _PAPER, batch=batch, group=group
    )
    return [inner, box]
