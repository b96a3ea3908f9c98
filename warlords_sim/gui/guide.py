"""The aim guide: where a flicked die, going straight along the aim, first
touches something (a wall, a pin, another die) or leaves the board.

Pure plane geometry, as pool games draw their guide line; no physics is run,
so it says nothing of how far the flick carries, of bounces, or of a die
flying over a low wall. The moving die is a disc of half its edge (the
circle inscribed in its footprint); each obstacle is grown by that radius
(its Minkowski sum with the disc: a wall's rectangle and another die's
turned square with rounded corners, a pin's circle) and the die's centre
is cast as a ray against them. An obstacle the start already lies in is
skipped (the die is touching it: the ray can only leave it). The board's
edge is where the centre leaves the board square.

With a hand (``play --hand``), :func:`aim_spread` casts the same ray at
the edges of the hand's direction spread (two sd either side of the aim,
where 95 % of flicks start): the cone the window fills shows where the
hand may send the die before it first touches something.

No pyglet here: the window draws what :func:`aim_guide` and
:func:`aim_spread` return.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from warlords_sim.board import Board, Rect, standing_walls

__all__ = [
    "SPREAD_SDS",
    "GuideHit",
    "HitKind",
    "aim_guide",
    "aim_spread",
    "cast",
    "ray_box",
    "ray_circle",
    "ray_rounded_box",
]

Point = tuple[float, float]

#: The cone of :func:`aim_spread` spans this many sd of the hand's direction
#: either side of the aim (95 % of a normal's draws lie within 1.96 sd).
SPREAD_SDS = 2.0
#: The angle between neighbouring rays of :func:`aim_spread`'s cone (rad):
#: 0.5 deg, so that rays 700 mm long (about the board's diagonal from a
#: castle) end about 6 mm apart, under a die's width and a pin's: where
#: neighbours stop at different distances (a pin, a die's edge), the fill
#: steps there instead of cutting a wide sliver across (9 rays over a
#: novice's 16 deg ended 140 mm apart). Measured: a novice's 33 rays with
#: 24 dice and 12 pins on the board, 5-6 ms CPU a frame while dragging
#: (9 rays: 1.6 ms), on a loaded 2-core machine.
SPREAD_RAY_STEP = math.radians(0.5)
#: The fewest rays a cone is cast with.
SPREAD_MIN_RAYS = 9


class HitKind(Enum):
    """What the guide line ends on."""

    WALL = "wall"
    PIN = "pin"
    DIE = "die"
    EDGE = "edge"


@dataclass(frozen=True)
class GuideHit:
    """The end of the guide line.

    Attributes:
        x, y: the die's centre when it first touches (mm, board frame).
        distance: how far the centre went from the start (mm).
        kind: what it touches; ``EDGE``: nothing, it leaves the board.
    """

    x: float
    y: float
    distance: float
    kind: HitKind


def ray_circle(o: Point, d: Point, c: Point, radius: float) -> float | None:
    """Distance along the unit direction ``d`` from ``o`` to where the ray
    enters the circle (centre ``c``, ``radius`` mm); None if it misses it,
    it lies behind, or ``o`` is inside it."""
    fx, fy = o[0] - c[0], o[1] - c[1]
    cc = fx * fx + fy * fy - radius * radius
    if cc <= 0.0:
        return None
    b = fx * d[0] + fy * d[1]
    disc = b * b - cc
    if b >= 0.0 or disc < 0.0:
        return None
    return -b - math.sqrt(disc)


def ray_box(o: Point, d: Point, hx: float, hy: float) -> float | None:
    """Distance along unit ``d`` from ``o`` to where the ray enters the
    box ``|x| <= hx, |y| <= hy`` (centred on the origin); None if it misses,
    the box lies behind, or ``o`` is inside it (slab method)."""
    t0, t1 = -math.inf, math.inf
    for p, v, h in ((o[0], d[0], hx), (o[1], d[1], hy)):
        if abs(v) < 1e-12:
            if abs(p) > h:
                return None
            continue
        a, b = (-h - p) / v, (h - p) / v
        if a > b:
            a, b = b, a
        t0, t1 = max(t0, a), min(t1, b)
    if t0 > t1 or t1 < 0.0 or t0 < 0.0:
        return None
    return t0


def ray_rounded_box(
    o: Point, d: Point, centre: Point, hx: float, hy: float, angle: float, radius: float
) -> float | None:
    """Distance along unit ``d`` from ``o`` to where the ray enters a box
    (half sides ``hx``, ``hy`` mm, turned ``angle`` rad about ``centre``)
    grown by ``radius`` with rounded corners; None if it misses, it lies
    behind, or ``o`` is inside it."""
    c, s = math.cos(angle), math.sin(angle)
    px, py = o[0] - centre[0], o[1] - centre[1]
    lo = (c * px + s * py, -s * px + c * py)
    ld = (c * d[0] + s * d[1], -s * d[0] + c * d[1])
    # inside the grown box: skip it
    qx, qy = max(abs(lo[0]) - hx, 0.0), max(abs(lo[1]) - hy, 0.0)
    if qx * qx + qy * qy < radius * radius:
        return None
    hits = [
        ray_box(lo, ld, hx + radius, hy),
        ray_box(lo, ld, hx, hy + radius),
        *(ray_circle(lo, ld, (sx * hx, sy * hy), radius) for sx in (-1, 1) for sy in (-1, 1)),
    ]
    found = [t for t in hits if t is not None]
    return min(found) if found else None


def _edge(o: Point, d: Point, half: float) -> float:
    """Distance along unit ``d`` until ``o`` leaves the square ``|x|, |y| <= half``."""
    t = math.inf
    for p, v in zip(o, d, strict=True):
        if v > 1e-12:
            t = min(t, (half - p) / v)
        elif v < -1e-12:
            t = min(t, (-half - p) / v)
    return max(t, 0.0)


def cast(
    start: Point,
    direction: Point,
    *,
    half_board: float,
    radius: float,
    walls: Iterable[Rect] = (),
    pins: Iterable[Point] = (),
    pin_radius: float = 0.0,
    dice: Iterable[tuple[float, float, float]] = (),
    die_half: float = 0.0,
) -> GuideHit:
    """Cast a die (a disc of ``radius`` mm) from ``start`` along
    ``direction`` (any length) and return the first thing it touches.

    Args:
        start: the die's centre (mm).
        direction: the aim (mm/s or any length, not zero).
        half_board: half the board's side (mm); the board is centred.
        radius: the moving die's radius (mm): half its edge.
        walls: axis-aligned wall rectangles (mm).
        pins: pin centres (mm), each of ``pin_radius``.
        dice: other dice as (x, y, yaw rad), each a square of half side
            ``die_half`` mm.

    Raises:
        ValueError: ``direction`` is zero or not finite.
    """
    n = math.hypot(*direction)
    if not n > 0.0 or not math.isfinite(n):
        raise ValueError(f"aim guide: direction {direction} must be a non-zero finite vector")
    d = (direction[0] / n, direction[1] / n)
    best = _edge(start, d, half_board)
    kind = HitKind.EDGE
    for r in walls:
        cx, cy = r.center
        t = ray_rounded_box(start, d, (cx, cy), r.width / 2, r.height / 2, 0.0, radius)
        if t is not None and t < best:
            best, kind = t, HitKind.WALL
    for p in pins:
        t = ray_circle(start, d, p, pin_radius + radius)
        if t is not None and t < best:
            best, kind = t, HitKind.PIN
    for x, y, a in dice:
        t = ray_rounded_box(start, d, (x, y), die_half, die_half, a, radius)
        if t is not None and t < best:
            best, kind = t, HitKind.DIE
    return GuideHit(start[0] + d[0] * best, start[1] + d[1] * best, best, kind)


def aim_guide(
    board: Board,
    castle_seats: Sequence[int],
    side_walls: bool,
    pins: Iterable[int],
    dice: Iterable[tuple[float, float, float]],
    start: Point,
    direction: Point,
) -> GuideHit:
    """The guide for a die at ``start`` aimed along ``direction`` on
    ``board``: the walls standing for ``castle_seats`` (and the side walls
    if ``side_walls``), the pins in the holes ``pins`` (indices into
    ``board.holes``), the other dice ``dice`` as (x, y, yaw rad) (leave the
    flicked die out). See :func:`cast`.

    Raises:
        ValueError: ``direction`` is zero.
    """
    size = board.die.size_mm
    return cast(
        start,
        direction,
        half_board=board.half_size_mm,
        radius=size / 2.0,
        walls=[w.rect for _, w in standing_walls(board, castle_seats, side_walls)],
        pins=[board.holes[h] for h in pins],
        pin_radius=board.pin.radius_mm,
        dice=dice,
        die_half=size / 2.0,
    )


def aim_spread(
    board: Board,
    castle_seats: Sequence[int],
    side_walls: bool,
    pins: Iterable[int],
    dice: Iterable[tuple[float, float, float]],
    start: Point,
    direction: Point,
    angle_sd: float,
    rays: int | None = None,
) -> tuple[GuideHit, ...]:
    """The cone of likely aims of a hand whose direction errs by a normal
    of ``angle_sd`` rad: ``rays`` guides (:func:`aim_guide`) fanned evenly
    from :data:`SPREAD_SDS` sd to the right of ``direction`` to as far to
    its left, in that order; the window fills the polygon from ``start``
    through their ends. By default one ray every :data:`SPREAD_RAY_STEP`
    (at least :data:`SPREAD_MIN_RAYS`): 33 for a novice's 16 deg, 17 for a
    club player's, 9 for an expert's. An exact hand (``angle_sd`` 0)
    gives no cone.

    Raises:
        ValueError: ``direction`` is zero, ``angle_sd`` negative or not
            finite, fewer than 2 rays.
    """
    if not (math.isfinite(angle_sd) and angle_sd >= 0.0):
        raise ValueError(f"aim spread: angle sd must be a finite number >= 0 rad, got {angle_sd}")
    if rays is None:
        rays = max(SPREAD_MIN_RAYS, math.ceil(2.0 * SPREAD_SDS * angle_sd / SPREAD_RAY_STEP) + 1)
    if rays < 2:
        raise ValueError(f"aim spread: needs at least 2 rays, got {rays}")
    if angle_sd == 0.0:
        return ()
    n = math.hypot(*direction)
    if not n > 0.0 or not math.isfinite(n):
        raise ValueError(f"aim guide: direction {direction} must be a non-zero finite vector")
    base = math.atan2(direction[1], direction[0])
    half = SPREAD_SDS * angle_sd
    # only what lies in the cone's wedge can stop a ray of it (the die swept
    # along a ray reaches its half-diagonal either side): the rest is left
    # out once, not tested by every ray
    reach = board.die.size_mm * math.sqrt(0.5)

    def in_wedge(x: float, y: float, radius: float) -> bool:
        dx, dy = x - start[0], y - start[1]
        d = math.hypot(dx, dy)
        if d <= radius + reach:
            return True
        off = abs(math.remainder(math.atan2(dy, dx) - base, 2.0 * math.pi))
        return off <= half + math.asin(min(1.0, (radius + reach) / d))

    dice = [d for d in dice if in_wedge(d[0], d[1], reach)]
    pin_r = board.pin.radius_mm
    pins = [h for h in pins if in_wedge(*board.holes[h], pin_r)]
    out = []
    for k in range(rays):
        a = base - half + 2.0 * half * k / (rays - 1)
        out.append(
            aim_guide(
                board, castle_seats, side_walls, pins, dice, start, (math.cos(a), math.sin(a))
            )
        )
    return tuple(out)
