"""No tunnelling (issue 2: "thousands of fuzzed flicks at up to the maximum
speed, aimed at walls, pins and gaps between pins: no die ever ends inside a
wall, a pin or a courtyard it could not reach").

pymunk has no swept collision: a die moving more than its half width plus
half an obstacle's thickness in one step can pass through it (design brief,
section 2). ``MAX_FLICK_SPEED`` is chosen so that it cannot. These tests fire
seeded TABLE flicks at up to that speed at castle walls (front walls away
from the gateways, the castles' side walls, the thin three-player wall and
the optional side walls), at pins (the centre ring and field pins) and at
the gaps between centre-ring pins, with other dice placed near the target.

Every step of every die is followed (its centre and height), so a die that
passes through an obstacle is caught even if it ends somewhere innocent:

* a centre path never crosses the core of a wall (the wall less 1 mm on
  each side) or passes within 2 mm of a pin's centre while the die is low
  enough to hit it;
* a die low enough to hit the castle walls enters a courtyard only across
  the courtyard's front line inside a gateway (there is no other way in on
  the table; dice flung over the walls are the saved cases at the end);
* at rest, no die's centre is inside a wall or within a pin's radius plus
  1 mm of a pin's centre (unless it rests on top of it), and no die
  overlaps a wall, a pin or another die by more than 1 mm.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, replace

import numpy as np
import pytest
from numpy.typing import NDArray

from warlords_sim.board import Board, Rect, load_board, rotate_to_seat
from warlords_sim.physics import (
    MAX_FLICK_SPEED,
    Flick,
    FlickResult,
    RegionKind,
    World,
)

#: Just under the maximum, so that speed * unit vector never rounds above it.
VMAX = MAX_FLICK_SPEED * (1.0 - 1e-6)
N_FLICKS = 1500  # per family: walls, pins, ring gaps
#: Deepest overlap (mm) of two things at rest that still counts as touching
#: (pymunk's collision slop; the world moves a die at rest clear of what it
#: touched, so settled dice overlap nothing: tests/test_physics_faults.py).
REST_OVERLAP = 0.1

Array = NDArray[np.float64]


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board("standard")


# ----------------------------------------------------------------- geometry


def _corners(x: float, y: float, angle: float, half: float) -> list[tuple[float, float]]:
    c, s = math.cos(angle), math.sin(angle)
    return [
        (x + c * px - s * py, y + s * px + c * py)
        for px, py in ((-half, -half), (half, -half), (half, half), (-half, half))
    ]


def _gap_rect(x: float, y: float, angle: float, half: float, r: Rect) -> float:
    """Separation (mm) between a die square and a rectangle; negative if they overlap."""
    c, s = math.cos(angle), math.sin(angle)
    sq = _corners(x, y, angle, half)
    rc = [(r.x0, r.y0), (r.x1, r.y0), (r.x1, r.y1), (r.x0, r.y1)]
    gap = -math.inf
    for ax, ay in ((1.0, 0.0), (0.0, 1.0), (c, s), (-s, c)):
        a = [px * ax + py * ay for px, py in sq]
        b = [px * ax + py * ay for px, py in rc]
        gap = max(gap, max(min(a), min(b)) - min(max(a), max(b)))
    return gap


def _within(x: float, y: float, r: Rect, reach: float) -> bool:
    """Whether the point (x, y) is at most ``reach`` mm from rectangle ``r``."""
    dx = max(r.x0 - x, 0.0, x - r.x1)
    dy = max(r.y0 - y, 0.0, y - r.y1)
    return dx * dx + dy * dy <= reach * reach


def _gap_squares(
    p: tuple[float, float, float], q: tuple[float, float, float], half: float
) -> float:
    """Separation (mm) between two die squares (x, y, angle); negative if they overlap."""
    ca, cb = _corners(*p, half), _corners(*q, half)
    gap = -math.inf
    for ang in (p[2], q[2]):
        c, s = math.cos(ang), math.sin(ang)
        for ax, ay in ((c, s), (-s, c)):
            a = [px * ax + py * ay for px, py in ca]
            b = [px * ax + py * ay for px, py in cb]
            gap = max(gap, max(min(a), min(b)) - min(max(a), max(b)))
    return gap


def _gap_pin(
    x: float, y: float, angle: float, half: float, px: float, py: float, pr: float
) -> float:
    """Separation (mm) between a die square and a pin circle; negative if they overlap."""
    c, s = math.cos(angle), math.sin(angle)
    dx, dy = px - x, py - y
    lx, ly = c * dx + s * dy, -s * dx + c * dy
    if abs(lx) <= half and abs(ly) <= half:
        return -(pr + min(half - abs(lx), half - abs(ly)))
    qx, qy = min(max(lx, -half), half), min(max(ly, -half), half)
    return math.hypot(lx - qx, ly - qy) - pr


def _segments_cross_rects(a: Array, b: Array, rects: Array) -> NDArray[np.bool_]:
    """(S, W): does segment a[i] -> b[i] meet rectangle rects[j] (x0, y0, x1, y1)?
    Liang-Barsky clipping, vectorised."""
    d = b - a
    lo_t = np.full((a.shape[0], rects.shape[0]), -np.inf)
    hi_t = np.full_like(lo_t, np.inf)
    with np.errstate(divide="ignore", invalid="ignore"):
        for k, (lo, hi) in enumerate(((rects[:, 0], rects[:, 2]), (rects[:, 1], rects[:, 3]))):
            p, dk = a[:, k : k + 1], d[:, k : k + 1]
            t1, t2 = (lo[None, :] - p) / dk, (hi[None, :] - p) / dk
            enter, leave = np.minimum(t1, t2), np.maximum(t1, t2)
            inside = (p >= lo[None, :]) & (p <= hi[None, :])
            still = dk == 0.0
            enter = np.where(still, np.where(inside, -np.inf, np.inf), enter)
            leave = np.where(still, np.where(inside, np.inf, -np.inf), leave)
            lo_t, hi_t = np.maximum(lo_t, enter), np.minimum(hi_t, leave)
    return (lo_t <= hi_t) & (lo_t <= 1.0) & (hi_t >= 0.0)


def _segments_to_points(a: Array, b: Array, pts: Array) -> Array:
    """(S, P): distance from segment a[i] -> b[i] to point pts[j]."""
    d = b - a
    len2 = np.sum(d * d, axis=1)[:, None]
    rel_x = pts[None, :, 0] - a[:, 0:1]
    rel_y = pts[None, :, 1] - a[:, 1:2]
    t = np.clip((rel_x * d[:, 0:1] + rel_y * d[:, 1:2]) / np.where(len2 > 0.0, len2, 1.0), 0.0, 1.0)
    return np.hypot(
        a[:, 0:1] + t * d[:, 0:1] - pts[None, :, 0], a[:, 1:2] + t * d[:, 1:2] - pts[None, :, 1]
    )


def _to_seat0(xy: Array, seat: int) -> Array:
    """Board points into ``seat``'s castle frame (seat 0's description)."""
    c, s = ((1, 0), (0, 1), (-1, 0), (0, -1))[seat % 4]  # inverse of rotate_to_seat
    return np.stack([xy[:, 0] * c - xy[:, 1] * s, xy[:, 0] * s + xy[:, 1] * c], axis=1)


# ------------------------------------------------------------- the checker


@dataclass(frozen=True)
class Obstacles:
    walls: tuple[Rect, ...]
    heights: Array
    cores: Array
    pins: Array


@dataclass(frozen=True)
class Layout:
    """What :func:`_obstacles` and :func:`_free` read of a world: its castles,
    side walls and pins, and the dice placed so far (x, y, angle). The cases
    are laid out on one of these: building a pymunk World for each try (and
    the obstacles again for each die placed) took a third of the fuzz's time."""

    castle_seats: tuple[int, ...]
    side_walls: bool
    pins: tuple[int, ...]  # hole indices, sorted as World.pins
    dice: tuple[tuple[float, float, float], ...] = ()


def _obstacles(board: Board, w: World | Layout) -> Obstacles:
    walls: list[Rect] = []
    heights: list[float] = []
    for castle in board.castles:
        standing = castle.walls if castle.seat in w.castle_seats else (castle.three_player_wall,)
        extra = castle.side_walls if w.side_walls else ()
        for wall in (*standing, *extra):
            walls.append(wall.rect)
            heights.append(wall.height_mm)
    cores = np.array([[r.x0 + 1.0, r.y0 + 1.0, r.x1 - 1.0, r.y1 - 1.0] for r in walls])
    pins = np.array([board.holes[h] for h in w.pins]) if w.pins else np.zeros((0, 2))
    return Obstacles(tuple(walls), np.array(heights), cores, pins)


def _flick_tracked(
    w: World, flick: Flick, drop: tuple[object, ...] | None = None
) -> tuple[FlickResult, dict[int, Array]]:
    """Run ``flick`` to rest, recording (x, y, centre height) of every die
    after every step; with ``drop`` (the arguments of :meth:`World.drop`)
    the die is let go in the air instead (``flick`` then only names it in
    the result)."""
    t0 = w.time
    initial = w.begin_flick(flick) if drop is None else w.drop(*drop)  # type: ignore[arg-type]
    bodies = {}
    for die in w.dice:
        p = w.pose(die)
        match = [bd for bd in w.space.bodies if bd.position.x == p.x and bd.position.y == p.y]
        assert len(match) == 1, f"cannot find die {die}'s body"
        bodies[die] = match[0]
    tracks: dict[int, list[tuple[float, float, float]]] = {
        die: [(bd.position.x, bd.position.y, w.height(die))] for die, bd in bodies.items()
    }
    steps = 0
    while not w.settled:
        w.step()
        steps += 1
        alive = set(w.dice)
        for die, bd in bodies.items():
            if die in alive:
                tracks[die].append((bd.position.x, bd.position.y, w.height(die)))
        assert steps < 60 * 240, "still moving after 60 s"
    res = w.result(flick, initial, steps, w.time - t0)
    return res, {die: np.array(t) for die, t in tracks.items()}


def _problems(board: Board, w: World, res: FlickResult, tracks: dict[int, Array]) -> list[str]:
    obs = _obstacles(board, w)
    out: list[str] = []
    half = board.die.size_mm / 2.0
    for die, tr in tracks.items():
        a, b = tr[:-1], tr[1:]
        moved = np.any(a[:, :2] != b[:, :2], axis=1)
        a, b = a[moved], b[moved]
        if not len(a):
            continue
        z = np.maximum(a[:, 2], b[:, 2])[:, None]  # centre height over the segment
        through = _segments_cross_rects(a[:, :2], b[:, :2], obs.cores) & (
            z < obs.heights[None, :] + half
        )
        for i, j in np.argwhere(through)[:1]:
            out.append(
                f"die {die} passed through wall {obs.walls[j]}: {a[i].tolist()} -> {b[i].tolist()}"
            )
        if len(obs.pins):
            near = (_segments_to_points(a[:, :2], b[:, :2], obs.pins) < 2.0) & (
                z < board.pin.height_mm + half
            )
            for i, j in np.argwhere(near)[:1]:
                out.append(
                    f"die {die} passed through the pin at {obs.pins[j].tolist()}: "
                    f"{a[i].tolist()} -> {b[i].tolist()}"
                )
        for castle in board.castles:
            if castle.seat not in w.castle_seats:
                continue
            cy = castle.courtyard.rotated((4 - castle.seat) % 4)  # back in seat 0's frame
            gates = [g.rotated((4 - castle.seat) % 4) for g in castle.gateways]
            p, q = _to_seat0(a[:, :2], castle.seat), _to_seat0(b[:, :2], castle.seat)

            def inside(pts: Array, r: Rect = cy) -> NDArray[np.bool_]:
                return (
                    (pts[:, 0] >= r.x0)
                    & (pts[:, 0] <= r.x1)
                    & (pts[:, 1] >= r.y0)
                    & (pts[:, 1] <= r.y1)
                )

            wall_top = max(w_.height_mm for w_ in castle.walls)
            for i in np.nonzero(inside(q) & ~inside(p))[0]:
                if z[i, 0] >= wall_top + half:
                    continue  # high enough to have flown over the wall: not tunnelling
                ok = False
                if p[i, 1] > cy.y1 and q[i, 1] != p[i, 1]:
                    t = (cy.y1 - p[i, 1]) / (q[i, 1] - p[i, 1])
                    xc = p[i, 0] + t * (q[i, 0] - p[i, 0])
                    ok = any(g.x0 <= xc <= g.x1 for g in gates)
                if not ok:
                    out.append(
                        f"die {die} entered courtyard {castle.seat} not through a gateway: "
                        f"{a[i].tolist()} -> {b[i].tolist()}"
                    )
    poses = list(res.poses.values())
    reach = half * math.sqrt(2.0)  # of a die's corners from its centre
    for pose in poses:
        for rect, h in zip(obs.walls, obs.heights, strict=True):
            if pose.elevation_mm >= h:
                continue  # resting on top of it
            if rect.contains(pose.x, pose.y):
                out.append(f"die {pose.die} rests with its centre inside wall {rect}: {pose}")
            elif (
                _within(pose.x, pose.y, rect, reach)  # else clear of it: no need to look closer
                and _gap_rect(pose.x, pose.y, pose.angle, half, rect) < -REST_OVERLAP
            ):
                out.append(f"die {pose.die} rests overlapping wall {rect}: {pose}")
        if pose.elevation_mm >= board.pin.height_mm:
            continue
        for px, py in obs.pins:
            if math.hypot(pose.x - px, pose.y - py) < board.pin.radius_mm + 1.0:
                out.append(f"die {pose.die} rests on the pin at ({px}, {py}): {pose}")
            elif (
                _gap_pin(pose.x, pose.y, pose.angle, half, px, py, board.pin.radius_mm)
                < -REST_OVERLAP
            ):
                out.append(f"die {pose.die} rests overlapping the pin at ({px}, {py}): {pose}")
    for i, p in enumerate(poses):
        for q in poses[i + 1 :]:
            if (
                p.elevation_mm == q.elevation_mm
                and _gap_squares((p.x, p.y, p.angle), (q.x, q.y, q.angle), half) < -REST_OVERLAP
            ):
                out.append(f"dice {p.die} and {q.die} rest overlapping: {p} {q}")
    return out


# -------------------------------------------------------------- the flicks


@dataclass(frozen=True)
class Case:
    """One fuzzed flick: the world's walls and pins, the dice, the flick."""

    seats: tuple[int, ...]
    side_walls: bool
    field_pins: tuple[int, ...]
    dice: tuple[tuple[int, float, float, int, float], ...]  # id, x, y, face, angle
    velocity: tuple[float, float]
    spin: float
    strike: float = 0.0  # mm above the die's centre (Flick.strike_mm)

    def world(self, board: Board) -> World:
        w = World(board, castle_seats=self.seats, side_walls=self.side_walls)
        for hole in (*board.center_ring.hole_indices, *self.field_pins):
            w.add_pin(hole)
        for die, x, y, face, angle in self.dice:
            w.add_die(die, x, y, face=face, angle=angle)
        return w


def _free(
    board: Board,
    at: Layout,
    obs: Obstacles,
    x: float,
    y: float,
    angle: float,
    clearance: float = 0.5,
) -> bool:
    """True if a die at (x, y, angle) keeps ``clearance`` mm from everything
    of ``at`` (whose obstacles are ``obs``)."""
    half = board.die.size_mm / 2.0
    if max(abs(x), abs(y)) > board.half_size_mm - half * math.sqrt(2.0):
        return False
    if any(_gap_rect(x, y, angle, half, r) < clearance for r in obs.walls):
        return False
    if any(
        _gap_pin(x, y, angle, half, px, py, board.pin.radius_mm) < clearance for px, py in obs.pins
    ):
        return False
    return all(_gap_squares((x, y, angle), die, half) >= clearance for die in at.dice)


def _cases(board: Board, family: str, n: int, seed: int) -> Iterator[Case]:
    """``n`` seeded flicks of one family ("wall", "pin" or "gap")."""
    rng = np.random.default_rng(seed)
    # where the finger strikes, from a generator of its own so that the
    # cases drawn before strikes were fuzzed stay the same: none for a
    # third of the flicks, else anywhere on the face (a struck die rolls
    # over its edges, and a rolling die once passed through walls)
    strikes = np.random.default_rng(seed + 1000)
    half_die = board.die.size_mm / 2.0
    made = 0
    while made < n:
        seats: tuple[int, ...] = (0, 1, 2, 3)
        side = False
        field: tuple[int, ...] = ()
        seat = int(rng.integers(4))
        if family == "wall":
            mode = int(rng.integers(4))
            if mode == 0:  # the front wall, away from the gateways
                lo, hi = [(-102.0, -65.0), (-15.0, 15.0), (65.0, 102.0)][int(rng.integers(3))]
                tx, ty = rng.uniform(lo, hi), -202.0
                sx, sy = tx + rng.uniform(-40.0, 40.0), rng.uniform(-190.0, -110.0)
            elif mode == 1:  # a castle's side wall, from outside
                sign = float(rng.choice([-1.0, 1.0]))
                tx, ty = sign * 110.0, rng.uniform(-280.0, -232.0)
                sx, sy = sign * rng.uniform(122.0, 190.0), ty + rng.uniform(-30.0, 30.0)
            elif mode == 2:  # the 8 mm three-player wall closing this seat
                seats = tuple(s for s in range(4) if s != seat)
                tx, ty = rng.uniform(-125.0, 125.0), -161.0
                sx, sy = tx + rng.uniform(-40.0, 40.0), rng.uniform(-140.0, -60.0)
            else:  # the 6 mm optional side walls along the board edge
                side = True
                sign = float(rng.choice([-1.0, 1.0]))
                tx, ty = sign * rng.uniform(125.0, 290.0), -294.0
                sx, sy = tx + rng.uniform(-40.0, 40.0), rng.uniform(-280.0, -180.0)
            x, y = rotate_to_seat(float(sx), float(sy), seat)
            ax, ay = rotate_to_seat(float(tx), float(ty), seat)
        elif family == "pin":
            field = tuple(
                int(h) for h in rng.choice(np.arange(12, len(board.holes)), size=6, replace=False)
            )
            hole = int(rng.choice([*range(12), *field]))
            px, py = board.holes[hole]
            heading = rng.uniform(-math.pi, math.pi)
            dist = rng.uniform(14.0, 150.0)
            off = rng.uniform(-11.0, 11.0)  # die half width + pin radius: a hit
            x, y = px - dist * math.cos(heading), py - dist * math.sin(heading)
            ax, ay = px - off * math.sin(heading), py + off * math.cos(heading)
        else:  # between two neighbouring ring pins, from inside or outside the ring
            k = int(rng.integers(12))
            (p1x, p1y), (p2x, p2y) = board.holes[k], board.holes[(k + 1) % 12]
            mx, my = (p1x + p2x) / 2.0, (p1y + p2y) / 2.0
            chord = math.hypot(p2x - p1x, p2y - p1y)
            f = rng.uniform(-6.0, 6.0)
            ax, ay = mx + f * (p2x - p1x) / chord, my + f * (p2y - p1y) / chord
            out_dir = (
                math.atan2(my, mx)
                + (0.0 if rng.random() < 0.5 else math.pi)
                + rng.uniform(-0.6, 0.6)
            )
            dist = rng.uniform(15.0, 120.0)
            x, y = ax + dist * math.cos(out_dir), ay + dist * math.sin(out_dir)
        x, y, ax, ay = float(x), float(y), float(ax), float(ay)
        probe = Layout(seats, side, tuple(sorted((*board.center_ring.hole_indices, *field))))
        obs = _obstacles(board, probe)
        angle = float(rng.uniform(0.0, math.pi / 2.0))
        if not _free(board, probe, obs, x, y, angle):
            continue
        dice = [(1, x, y, int(rng.integers(1, 7)), angle)]
        probe = replace(probe, dice=((x, y, angle),))
        for _ in range(int(rng.integers(0, 3))):  # bystanders near the target
            ex, ey = ax + rng.uniform(-30.0, 30.0), ay + rng.uniform(-30.0, 30.0)
            ea = float(rng.uniform(0.0, math.pi / 2.0))
            if _free(board, probe, obs, float(ex), float(ey), ea):
                die = len(dice) + 1
                probe = replace(probe, dice=(*probe.dice, (float(ex), float(ey), ea)))
                dice.append((die, float(ex), float(ey), int(rng.integers(1, 7)), ea))
        speed = VMAX if rng.random() < 0.4 else rng.uniform(300.0, VMAX)
        d = math.hypot(ax - x, ay - y)
        made += 1
        yield Case(
            seats,
            side,
            field,
            tuple(dice),
            (speed * (ax - x) / d, speed * (ay - y) / d),
            float(rng.normal(0.0, 10.0)),
            0.0 if strikes.random() < 1.0 / 3.0 else float(strikes.uniform(-half_die, half_die)),
        )


def _fuzz(board: Board, family: str, seed: int) -> None:
    failures = []
    for i, case in enumerate(_cases(board, family, N_FLICKS, seed)):
        w = case.world(board)
        flick = Flick(1, case.velocity, spin=case.spin, strike_mm=case.strike)
        res, tracks = _flick_tracked(w, flick)
        problems = _problems(board, w, res, tracks)
        if problems:
            failures.append(f"#{i} {case}:\n    " + "\n    ".join(problems))
    assert not failures, f"{len(failures)} of {N_FLICKS} flicks:\n" + "\n".join(failures[:5])


@pytest.mark.slow
def test_no_tunnelling_through_walls(board: Board) -> None:
    """Fuzzed flicks at front walls away from the gateways, castle side
    walls, the three-player wall and the side walls, at up to the maximum
    speed, struck anywhere on the face (two thirds of them): no die passes
    through a wall or enters a courtyard but by a gateway."""
    _fuzz(board, "wall", 1)


@pytest.mark.slow
def test_no_tunnelling_through_pins(board: Board) -> None:
    """Fuzzed flicks at centre-ring and field pins, at up to the maximum speed:
    no die passes through or ends on a pin."""
    _fuzz(board, "pin", 2)


@pytest.mark.slow
def test_no_tunnelling_between_ring_pins(board: Board) -> None:
    """Fuzzed flicks at the gaps between neighbouring centre-ring pins (25 mm
    wide, a 16 mm die fits), from inside and outside the ring: dice pass or
    bounce, but never through a pin."""
    _fuzz(board, "gap", 3)


def test_flicks_at_solid_front_wall_never_reach_its_courtyard(board: Board) -> None:
    """The simplest form of the rule: a lone die (no pins, no other dice)
    flicked straight at a solid part of a castle's front wall, at any speed
    up to the maximum, never ends in that castle's courtyard."""
    rng = np.random.default_rng(4)
    for _ in range(300):
        seat = int(rng.integers(4))
        lo, hi = [(-102.0, -65.0), (-15.0, 15.0), (65.0, 102.0)][int(rng.integers(3))]
        tx = float(rng.uniform(lo, hi))
        x, y = rotate_to_seat(tx, float(rng.uniform(-170.0, -100.0)), seat)
        ox, oy = board.castles[seat].outward
        speed = float(rng.uniform(200.0, VMAX))
        w = World(board)
        w.add_die(1, x, y, face=int(rng.integers(1, 7)), angle=float(rng.uniform(0.0, 1.5)))
        res = w.flick(Flick(1, (-ox * speed, -oy * speed), spin=float(rng.normal(0.0, 5.0))))
        pose = res.pose
        assert pose is None or pose.region.kind is not RegionKind.COURTYARD, (
            seat,
            x,
            y,
            speed,
            pose,
        )


def test_checker_catches_a_die_inside_a_wall(board: Board) -> None:
    """The checker is not vacuous: a die at rest in a wall or overlapping a
    pin, or a path drawn through a wall, a pin or into a courtyard by its
    side, is reported; a path through a gateway or high over a wall is not."""
    w = World(board)
    for hole in board.center_ring.hole_indices:
        w.add_pin(hole)
    w.add_die(1, 0.0, -150.0)
    ok, tracks = _flick_tracked(w, Flick(1, (0.0, 100.0)))
    assert _problems(board, w, ok, tracks) == []
    # paths, judged with the die resting innocently
    through = {1: np.array([[0.0, -190.0, 8.0], [0.0, -240.0, 8.0]])}
    found = _problems(board, w, ok, through)
    assert any("passed through wall" in p for p in found)
    assert any("not through a gateway" in p for p in found)
    over = {1: np.array([[0.0, -190.0, 60.0], [0.0, -240.0, 60.0]])}
    assert _problems(board, w, ok, over) == []  # flown over, not tunnelled
    low = {1: np.array([[0.0, -190.0, 45.0], [0.0, -240.0, 45.0]])}  # bottom still below 40 mm
    assert any("not through a gateway" in p for p in _problems(board, w, ok, low))
    side = {1: np.array([[-120.0, -255.0, 8.0], [-90.0, -255.0, 8.0]])}  # across a side wall
    assert any("not through a gateway" in p for p in _problems(board, w, ok, side))
    gate = {1: np.array([[-40.0, -190.0, 8.0], [-40.0, -214.0, 8.0], [-40.0, -240.0, 8.0]])}
    assert _problems(board, w, ok, gate) == []
    for seat in (1, 2, 3):  # the same paths turned to the other castles
        turned = {
            name: {1: np.array([[*rotate_to_seat(x, y, seat), z] for x, y, z in path[1]])}
            for name, path in (("through", through), ("side", side), ("gate", gate))
        }
        assert any(
            f"courtyard {seat} not through" in p for p in _problems(board, w, ok, turned["through"])
        )
        assert any(
            f"courtyard {seat} not through" in p for p in _problems(board, w, ok, turned["side"])
        )
        assert _problems(board, w, ok, turned["gate"]) == []
    pin = {1: np.array([[50.0, 0.0, 8.0], [70.0, 0.0, 8.0]])}
    assert any("through the pin" in p for p in _problems(board, w, ok, pin))
    # poses at rest: inside the middle front wall of castle 0, then overlapping a pin
    w.move_die(1, 0.0, -214.0)
    res = w.result(Flick(1, (0.0, 0.0)), 1, 0, 0.0)
    assert any("inside wall" in p for p in _problems(board, w, res, {}))
    # its centre clear of the wall, turned 45 degrees, a corner 1.5 mm into it
    w.move_die(1, 0.0, -202.0 + 8.0 * math.sqrt(2.0) - 1.5, angle=math.pi / 4.0)
    res = w.result(Flick(1, (0.0, 0.0)), 1, 0, 0.0)
    found = _problems(board, w, res, {})
    assert any("rests overlapping wall" in p for p in found), (w.pose(1), found)
    w.move_die(1, 60.0 - 3.0 - 8.0 + 1.5, 0.0)  # 1.5 mm into the ring pin at (60, 0)
    res = w.result(Flick(1, (0.0, 0.0)), 1, 0, 0.0)
    assert any("overlapping the pin" in p for p in _problems(board, w, res, {}))


# ------------------------------------------------------------- saved cases


def test_die_rests_clear_of_the_wall_it_hit(board: Board) -> None:
    """Saved case: a die turned 45 degrees slides at 700 mm/s into castle 0's
    left side wall (x = -110), trips and comes to rest, touching the wall at
    most (0.5 mm of overlap).

    What broke (with trips handed to the flight model, commit a454680): it
    rested with its corner 1.03 mm inside the wall. The blow pushed the
    corner 1.8 mm in, the trip turned the die into a short hop, pymunk's
    penetration correction backed it out only ~0.08 mm a step, and the rest
    test (body speed under 0.5 mm/s) declared it settled while it still
    overlapped. About 1 % of fuzzed flicks ended with a die overlapping a
    wall, a pin or another die by 0.5-2 mm."""
    w = World(board)
    w.add_die(1, -160.0, -255.0, angle=math.pi / 4.0)
    res = w.flick(Flick(1, (700.0, 0.0)))
    pose = res.pose
    assert pose is not None
    wall = board.castles[0].walls[1].rect
    assert wall.x0 == -110.0
    assert _gap_rect(pose.x, pose.y, pose.angle, board.die.size_mm / 2.0, wall) > -0.5


def test_struck_bystander_stays_out_of_courtyards(board: Board) -> None:
    """Saved case: a die flicked at 2 m/s into a bystander die near the ring
    pins (a third die further on). Whatever flies, nobody ends in a
    courtyard: the nearest gateway is far off the line.

    What broke (with trips handed to the flight model, commit a454680): both
    dice tripped into the air; the bystander struck ring pin 4 while
    airborne, was kicked up to 860 mm/s vertically, bounced up to 71 mm and
    flew over castle 1's side wall (40 mm) into its courtyard."""
    w = World(board)
    for hole in board.center_ring.hole_indices:
        w.add_pin(hole)
    for die, x, y, face, angle in (
        (1, -112.90374662626465, 60.140297475816475, 3, 1.4766734265312376),
        (2, -67.72903579216367, 53.68923111909168, 6, 1.4558029832332895),
        (3, -39.73848439663509, 27.875282635621133, 3, 0.047101590928781085),
    ):
        w.add_die(die, x, y, face=face, angle=angle)
    res, tracks = _flick_tracked(
        w, Flick(1, (1916.734798544166, -571.0689205812678), spin=11.329896183089412)
    )
    for pose in res.poses.values():
        assert pose.region.kind is not RegionKind.COURTYARD, pose
    wall = max(wl.height_mm for wl in board.castles[1].walls)
    for die, tr in tracks.items():
        assert tr[:, 2].max() < wall + board.die.size_mm / 2.0, (
            f"die {die} rose to {tr[:, 2].max():.1f} mm"
        )


def test_a_rolling_die_stops_at_the_side_wall(board: Board) -> None:
    """Saved case (issue 18; a random bot's board flick in a wall2 game,
    ``simulate --players 4 --bots random --variant wall2 --seed 1``, action
    327): a die struck 1.9 mm above its centre slides at 890 mm/s towards
    the 30 mm side wall of seat 3 while rolling forward over its edge.

    What broke: it passed through the 6 mm wall on the table (height 0, no
    landing) and left the board "over the wall". A rolling die was moved by
    a velocity the roll set again before every step; pymunk moves a body by
    its velocity before it solves the step's contacts, so the wall's answer
    (the die bouncing back at -276 mm/s) was overwritten each step and the
    roll drove the die on, 2 mm a step, through the wall; the "pushed off
    its path" test compared positions, which a contact never changed. In
    four such games (seeds 0-3) 73 table flicks left the board over a wall,
    every one a die that rolled through a wall (castle walls as well as side
    walls): 53 still rolling as they left, 20 sliding on from a roll that
    had ended inside the wall. A contact that pushes back against a rolling
    die's motion now ends the roll there; the same four seeds then send no
    table flick over a wall. Struck off centre, the fuzzed flicks above
    found 204 of 1500 through walls, 38 of 1500 through pins and 13 of 1500
    through ring pins before."""
    w = World(board, side_walls=True)
    w.add_die(1, 244.6521642745504, 134.33641166544712, face=2, angle=-2.3326100386669117)
    flick = Flick(
        1,
        (884.4548360563822, 93.00385829357258),
        spin=-3.4687506847164524,
        strike_mm=1.925626483225443,
    )
    res, tracks = _flick_tracked(w, flick)
    assert res.exited == ()
    assert any(e.kind.value == "contact" and e.other == "wall" for e in res.events)
    assert _problems(board, w, res, tracks) == []
    pose = res.pose
    assert pose is not None and pose.region.kind is RegionKind.BOARD


def test_a_die_coming_down_over_a_wall_end_lands_on_its_top(board: Board) -> None:
    """Saved case (the wall fuzz above, #581 of 1500 on model 2.5d-8): a die
    struck 7 mm above its centre at 2 m/s near the board's corner hops off
    its edge, strikes the side wall, flies up to 109 mm and comes down at
    1100 mm/s onto the end of the middle front wall of the castle at +x, moving 860 mm/s
    towards it along the wall. Kept as the die let go (``World.drop``) in
    that flight's state 0.2 s in (96 mm up, 62 ms before it came down),
    beside the other die: from model 2.5d-9 on (the rounded die's bounces
    and inertia) the flick itself takes another path.

    What broke: its lowest point dropped below the wall's top (40 mm) with
    its centre 0.08 mm beyond the wall's end, so it did not land on top
    (the centre was not over the wall) and its collision mask took in the
    wall with its footprint already 8 mm over it. pymunk moves bodies
    before it looks for contacts: its next step carried the centre 3.6 mm
    on, over the wall, and only then met the wall, as a blow from the side
    with an overlap half a die deep; for two steps the die sat 40-45 mm
    high (its bottom inside the wall) over the wall's core while pymunk
    pushed it back out. A flying die that meets something with its centre
    over it and above its top has come down onto that top: it lands there
    (``Support.on_top``)."""
    w = World(board, side_walls=True)
    w.add_die(2, 282.3142812861351, 270.92619846953176, face=6, angle=1.4017444217352022)
    rotation = np.array(
        [
            [0.39357919407824543, 0.9185480450309831, 0.0369446472236242],
            [0.91929071462118, -0.3932612323125851, -0.01581724284659069],
            [-5.204170427930421e-18, 0.04018820883973392, -0.9991921276062247],
        ]
    )
    drop = (
        1,
        (229.40470211635062, 75.34918394823535, 96.02840498867795),
        (-302.30190287036027, -861.8351456816806, -511.05575112164456),
        rotation,
        (69.37173982100747, 162.03294593334164, 82.03413991392958),
    )
    res, tracks = _flick_tracked(w, Flick(1, (-302.30190287036027, -861.8351456816806)), drop)
    assert _problems(board, w, res, tracks) == []
    (end,) = [  # the middle front wall of the castle at +x
        wl.rect
        for c in board.castles
        for wl in c.walls
        if (wl.rect.x0, wl.rect.y1) == (202.0, 25.0)
    ]
    on_top = [
        e
        for e in res.events
        if e.kind.value == "landing" and e.other == "top" and end.contains(e.x, e.y)
    ]
    assert on_top, "it never landed on the wall's top"


def test_dice_coming_down_beside_a_wall_end_never_sit_in_it(board: Board) -> None:
    """The case above as a family: flat dice dropped at 800 mm/s down,
    300-900 mm/s along a castle's middle front wall towards its end, from
    2-15 mm beyond the end and 60-64 mm high, come down over the end's edge
    at every phase of a step. No die's centre is ever over the wall's core
    while its bottom is below the wall's top, unless it has landed on the
    top (4 of these 120 did before ``Support.on_top``: pymunk met the wall
    only after its step had moved the centre over it)."""
    (end,) = [
        wl.rect
        for c in board.castles
        for wl in c.walls
        if (wl.rect.x0, wl.rect.y1) == (202.0, 25.0)
    ]
    top = 40.0
    inside = []
    for y0 in np.arange(end.y1 + 2.0, end.y1 + 15.0, 1.3):
        for vy in (-300.0, -600.0, -900.0):
            for z0 in (60.0, 61.1, 62.3, 63.7):
                w = World(board)
                w.drop(1, (214.0, float(y0), z0), (0.0, vy, -800.0), np.eye(3), (0.0, 0.0, 0.0))
                steps = 0
                while not w.settled and 1 in w.dice:
                    w.step()
                    steps += 1
                    assert steps < 60 * 240, "still moving after 60 s"
                    if 1 not in w.dice:
                        break
                    p = w.pose(1)
                    low = w.height(1) - board.die.size_mm / 2.0
                    if (
                        end.x0 + 1.0 < p.x < end.x1 - 1.0
                        and end.y0 + 1.0 < p.y < end.y1 - 1.0
                        and low < top - 1e-9
                    ):
                        inside.append((round(float(y0), 1), vy, z0, round(p.y, 2), round(low, 2)))
                        break
    assert not inside, f"centre over the wall, bottom below its top: {inside}"
