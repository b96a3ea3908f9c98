"""Footprints seen from above: does a die or the siege engine placed here
overlap a wall, a pin, a die or the engine?

Contract: pure 2D geometry (mm) for the reference world's placement checks
(``add_die``, ``free_spot_near``); convex polygons as tuples of (x, y)
corners in order; no MuJoCo, no state.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["Polygon", "polygon_circle_overlap", "polygons_overlap", "rect_polygon", "square"]

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


def polygons_overlap(a: Sequence[Point], b: Sequence[Point]) -> bool:
    """True if convex polygons ``a`` and ``b`` overlap with positive area
    (separating-axis test; touching edges do not count)."""
    for axis in _axes(a) + _axes(b):
        a0, a1 = _project(a, axis)
        b0, b1 = _project(b, axis)
        if a1 <= b0 or b1 <= a0:
            return False
    return True


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
