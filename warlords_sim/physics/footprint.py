"""Footprints seen from above: does a die or the siege engine placed here
overlap a wall, a pin, a die or the engine?

Contract: pure 2D geometry (mm, board frame) for the placement checks of
both engines (``add_die``, ``place_siege_engine``, the reference's
``free_spot_near``) and of the fidelity scenario loader, which refuses a
set-up before any world is built; convex polygons as tuples of (x, y)
corners in order; no pymunk, no MuJoCo, no state. Touching (a shared edge)
is not overlapping.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from warlords_sim.board import Board, standing_walls  # re-exported: the board layer owns it

__all__ = [
    "Polygon",
    "die_footprint",
    "polygon_circle_overlap",
    "polygons_depth",
    "polygons_overlap",
    "rect_polygon",
    "square",
    "standing_walls",
    "what_overlaps",
]

Point = tuple[float, float]
Polygon = tuple[Point, ...]


def square(x: float, y: float, angle: float, width: float, depth: float | None = None) -> Polygon:
    """Corners of a ``width`` x ``depth`` (default square) rectangle centred at
    (x, y), turned ``angle`` rad."""
    c, s = math.cos(angle), math.sin(angle)
    hx, hy = width / 2.0, (width if depth is None else depth) / 2.0
    return tuple(
        (x + c * px - s * py, y + s * px + c * py)
        for px, py in ((-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy))
    )


def rect_polygon(x0: float, y0: float, x1: float, y1: float) -> Polygon:
    """Corners of an axis-aligned rectangle."""
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def _axes(poly: Sequence[Point]) -> list[Point]:
    out = []
    n = len(poly)
    for i in range(n):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % n]
        ex, ey = bx - ax, by - ay
        length = math.hypot(ex, ey)
        if length > 0.0:
            out.append((-ey / length, ex / length))
    return out


def _project(poly: Sequence[Point], axis: Point) -> tuple[float, float]:
    values = [px * axis[0] + py * axis[1] for px, py in poly]
    return min(values), max(values)


def polygons_depth(a: Sequence[Point], b: Sequence[Point]) -> float:
    """How deep (mm) convex polygons ``a`` and ``b`` overlap: the least
    overlap of their projections on the edge normals of both (separating-axis
    test); 0.0 if they are apart or only touch."""
    depth = math.inf
    for axis in _axes(a) + _axes(b):
        a0, a1 = _project(a, axis)
        b0, b1 = _project(b, axis)
        overlap = min(a1, b1) - max(a0, b0)
        if overlap <= 0.0:
            return 0.0
        depth = min(depth, overlap)
    return depth


def polygons_overlap(a: Sequence[Point], b: Sequence[Point]) -> bool:
    """True if convex polygons ``a`` and ``b`` overlap with positive area
    (separating-axis test; touching edges do not count)."""
    return polygons_depth(a, b) > 0.0


def polygon_circle_overlap(poly: Sequence[Point], cx: float, cy: float, r: float) -> bool:
    """True if the convex polygon ``poly`` and the disc of radius ``r`` at
    (cx, cy) overlap (touching does not count)."""
    inside = True
    best = math.inf
    n = len(poly)
    for i in range(n):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % n]
        ex, ey = bx - ax, by - ay
        n2 = ex * ex + ey * ey
        t = 0.0 if n2 == 0.0 else max(0.0, min(1.0, ((cx - ax) * ex + (cy - ay) * ey) / n2))
        best = min(best, math.hypot(cx - ax - t * ex, cy - ay - t * ey))
        if ex * (cy - ay) - ey * (cx - ax) < 0.0:  # right of a counter-clockwise edge
            inside = False
    return inside or best < r


def die_footprint(
    sides: tuple[float, float, float],
    x: float,
    y: float,
    rotation: NDArray[np.float64],
    shrink: float = 0.0,
) -> Polygon:
    """The footprint of a die lying flat at (x, y) mm.

    Args:
        sides: the die's side lengths along its body x, y, z (``DieSpec.sides_mm``), mm.
        x, y: centre, mm.
        rotation: 3x3 body-to-board rotation (one of the 24 flat rest rotations).
        shrink: mm taken off every side of the rectangle (a tolerance).
    """
    vertical = int(np.argmax(np.abs(rotation[2])))
    h = (vertical + 1) % 3
    w, d = sides[h], sides[(vertical + 2) % 3]
    ang = math.atan2(float(rotation[1, h]), float(rotation[0, h]))
    return square(x, y, ang, w - 2.0 * shrink, d - 2.0 * shrink)


def what_overlaps(
    poly: Polygon,
    board: Board,
    castle_seats: Iterable[int],
    side_walls: bool,
    pins: Iterable[int] = (),
    engine: tuple[float, float] | None = None,
    dice: Mapping[int, Polygon] | None = None,
) -> str | None:
    """What the footprint ``poly`` overlaps, for a message, or None.

    Args:
        poly: the footprint (mm).
        board: the board (its walls, holes, pin radius, engine width).
        castle_seats, side_walls: which walls stand (:func:`standing_walls`).
        pins: hole indices holding a pin.
        engine: centre of the siege engine (mm), or None.
        dice: footprints of dice, by id.

    Returns:
        ``"a wall of castle 0"``, ``"the pin in hole 3"``, ``"the siege
        engine"``, ``"die 2"`` (the first found, in that order), or None.
    """
    for label, wall in standing_walls(board, castle_seats, side_walls):
        r = wall.rect
        if polygons_overlap(poly, rect_polygon(r.x0, r.y0, r.x1, r.y1)):
            return label
    radius = board.pin.radius_mm
    for hole in sorted(pins):
        hx, hy = board.holes[hole]
        if polygon_circle_overlap(poly, hx, hy, radius):
            return f"the pin in hole {hole}"
    if engine is not None:
        w = board.siege_engine.width_mm / 2.0
        ex, ey = engine
        if polygons_overlap(poly, rect_polygon(ex - w, ey - w, ex + w, ey + w)):
            return "the siege engine"
    for i in sorted(dice or {}):
        if polygons_overlap(poly, (dice or {})[i]):
            return f"die {i}"
    return None
