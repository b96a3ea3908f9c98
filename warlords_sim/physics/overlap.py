"""The removal of overlaps: a die at rest, or one whose footprint jumped,
moved out of what it reaches into, as a rigid die would have been stopped.

pymunk pushes overlapping shapes apart only a few per cent a step (its
collision bias), and laying a die flat turns its footprint by up to 45
degrees in one go: this module finishes the job, so that a die at rest
overlaps no wall, pin, engine or die it collides with (regions are decided
with no tolerance). Saved cases: tests/test_physics_faults.py.

Contract
--------
* Plain functions on the world's :class:`~warlords_sim.physics.bodies.WorldState`:
  they move dice's bodies by hand (and tell pymunk,
  :meth:`~warlords_sim.physics.bodies.WorldState.reindex`), and
  ask pymunk what a die's shape meets (``shape_query``, ``segment_query``,
  with the die's own collision filter: only what it collides with at its
  height counts). They never step the space, record no events and change
  no die's motion state.
* Units mm, rad; board frame. Imports pymunk, the physics records, the
  flight bands and the shapes' probe; never the world or the motion.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pymunk

from warlords_sim.physics.bodies import DieBody, WorldState
from warlords_sim.physics.flight import DIE_BIT, HeightBands
from warlords_sim.physics.shapes import probe_square

__all__ = [
    "CLEARANCE",
    "SETDOWN_REACH",
    "blocked",
    "circle_overlap",
    "clear_overlap",
    "deepest_overlap",
    "may_overlap",
    "overlaps",
    "path_blocked",
    "push_out",
    "relax_at_rest",
    "shift",
    "square_clear",
]

#: How far (in die sizes) :func:`clear_overlap` looks for a place to
#: set down a die wedged in a gap narrower than itself. Such a gap (between
#: the siege engine and a wall, say) is under one die size wide, so a place
#: where the die fits lies within about a die size of it; farther than two,
#: the die could not have slid there, and it is left where it is. It used to
#: search out to the board's edge: a die with no straight path out (every
#: path blocked) tried every point of the board, 360,000 paths and seconds
#: of CPU for one flick (saved case in tests/test_physics_faults.py). The
#: bound changes a result only where a place exists farther than two die
#: sizes but none nearer; no fingerprint, example replay or saved case
#: settles differently, so the model version stays.
SETDOWN_REACH = 2.0
#: A die at rest is moved this far (mm) clear of what it touched, beyond
#: the contact itself, so that its footprint is never inside a wall's
#: rectangle by a rounding error (regions need no tolerance).
CLEARANCE = 1e-6
#: Passes of :func:`push_out` (each resolves the deepest overlap).
_CLEAR_PASSES = 8
#: Joint passes of :func:`relax_at_rest` before it gives up on a group.
_RELAX_PASSES = 50
#: Overlap of two dice at rest (mm) that :func:`relax_at_rest` leaves:
#: a micrometre, far below what the eye or the rules can tell (regions are
#: decided against walls, which are always cleared whole). Without it a jam
#: of dice pressed against two walls converges only geometrically.
_DIE_OVERLAP_TOLERANCE = 1e-3
#: pymunk filter group given to a die's shape while it probes its own
#: paths (:func:`path_blocked`): shapes of one group never meet.
_SELF_GROUP = 1


def deepest_overlap(st: WorldState, d: DieBody) -> tuple[float, float, float]:
    """How deep (mm) die ``d`` reaches into anything it collides with at
    its height (a wall, pin, the engine, a die), and the unit normal
    (x, y) pointing from the die into it; (0, 0, 0) if it overlaps nothing
    (the deepest of :func:`overlaps`, the first of equals)."""
    depth, nx, ny = 0.0, 0.0, 0.0
    for _, dep, ux, uy in overlaps(st, d):
        if dep > depth:
            depth, nx, ny = dep, ux, uy
    return depth, nx, ny


def circle_overlap(
    d: DieBody, size: float, cx: float, cy: float, radius: float
) -> tuple[float, float, float]:
    """Depth (mm) of a circle centred at (cx, cy) into die ``d``'s square
    (edge ``size`` mm), and the unit normal from the die towards it; depth
    0 if apart."""
    x, y = d.body.position
    a = float(d.body.angle)
    c, s = math.cos(a), math.sin(a)
    lx, ly = c * (cx - x) + s * (cy - y), -s * (cx - x) + c * (cy - y)  # die frame
    h = size / 2.0
    if abs(lx) <= h and abs(ly) <= h:  # centre inside: out through the nearest side
        if h - abs(lx) < h - abs(ly):
            dep, ux, uy = radius + h - abs(lx), math.copysign(1.0, lx), 0.0
        else:
            dep, ux, uy = radius + h - abs(ly), 0.0, math.copysign(1.0, ly)
    else:
        qx, qy = min(max(lx, -h), h), min(max(ly, -h), h)
        dist = math.hypot(lx - qx, ly - qy)
        if dist >= radius:
            return 0.0, 0.0, 0.0
        dep, ux, uy = radius - dist, (lx - qx) / dist, (ly - qy) / dist
    return dep, c * ux - s * uy, s * ux + c * uy


def clear_overlap(st: WorldState, d: DieBody) -> None:
    """Move die ``d`` out of anything it overlaps, as a rigid die would
    have been stopped there. Used where the die's footprint jumps (laying
    flat turns it) and when it comes to rest still pressed into something
    (pymunk removes overlaps gradually, through its collision bias).

    1. It is pushed straight out of the deepest overlap,
       :data:`CLEARANCE` beyond the contact, pass after pass.
    2. Wedged in a gap narrower than it is at its yaw, it turns in place
       (a turn about the vertical: the face up is kept), by degrees
       alternately either way up to 45, to the first yaw at which it fits.
    3. In a gap narrower than the die itself (between the siege engine
       and a wall, say) it would rest tilted across the gap, which the
       2.5D model cannot hold up: it is set down at the nearest place
       where it fits at its yaw (rings of 1 mm, out to
       :data:`SETDOWN_REACH` die sizes) that its centre can reach in a
       straight line without crossing anything, a limit of the model.
       With no such place it is left where it is.
    """
    if push_out(st, d):
        return
    angle0 = float(d.body.angle)
    x0, y0 = (float(v) for v in d.body.position)
    for k in range(1, 46):
        for sign in (1.0, -1.0):
            st.put(d, x0, y0, angle0 + sign * math.radians(k))
            if push_out(st, d):
                return
    st.put(d, x0, y0, angle0)
    for ring in range(1, int(SETDOWN_REACH * st.size) + 1):
        n = max(8, int(2.0 * math.pi * ring))
        for i in range(n):
            a = 2.0 * math.pi * i / n
            x, y = x0 + ring * math.cos(a), y0 + ring * math.sin(a)
            if not st.board.on_board(x, y) or path_blocked(st, d, x0, y0, x, y):
                continue
            st.put(d, x, y, angle0)
            if deepest_overlap(st, d)[0] <= 0.0:
                return
    st.put(d, x0, y0, angle0)  # nowhere on the board: leave it


def overlaps(st: WorldState, d: DieBody) -> list[tuple[pymunk.Shape, float, float, float]]:
    """Everything die ``d`` reaches into at its height (the query honours
    both filters): per shape, the deepest overlap (mm) and the unit normal
    (x, y) from the die into it.

    Polygons (walls, the engine, dice) use pymunk's contact; a pin (a
    circle) is measured here, because pymunk 7.3.1 reports a polygon
    overlapping a circle with a positive distance (the sign of a
    separation) in ``shape_query``."""
    found: list[tuple[pymunk.Shape, float, float, float]] = []
    for hit in st.space.shape_query(d.shape):
        other = hit.shape
        if other is None or other is d.shape:
            continue
        if isinstance(other, pymunk.Circle):
            cx, cy = other.offset
            dep, ux, uy = circle_overlap(d, st.size, float(cx), float(cy), other.radius)
        else:
            cps = hit.contact_point_set
            dep, ux, uy = 0.0, cps.normal.x, cps.normal.y
            for p in cps.points:
                dep = max(dep, -p.distance)
        if dep > 0.0:
            found.append((other, dep, ux, uy))
    return found


def relax_at_rest(st: WorldState, d: DieBody) -> None:
    """Die ``d`` has come to rest still pressed into something: end the
    overlap as pymunk's collision bias would have, given time.

    pymunk resolves an overlap gradually (a fraction a step) along the
    contact normal, weighted by inverse mass: out of a wall, pin or the
    siege engine the die goes the whole depth; of two dice of equal mass
    each goes half. Done here at once and jointly, in Gauss-Seidel
    passes over the die and every die at rest it overlaps (directly or
    through another), with shock propagation (Guendelman, Bridson and
    Fedkiw 2003): a die pushed out of something immovable is itself
    immovable for the dice pressing on it, so a row of dice against a
    wall clears in one pass per die. A die still moving is left to
    pymunk (it is in contact); two dice overlapping by no more than
    :data:`_DIE_OVERLAP_TOLERANCE` are left as they are.

    A jam, a row of dice pressed between two walls into a gap up to
    pymunk's collision slop (0.1 mm a contact) narrower than the row,
    has no such solution: the dice are then cleared of the walls, pins
    and engine exactly (regions are decided against walls) and stay
    pressed together (by 0.15 mm at most in 40 four-player games,
    benchmarks/overlap.py). Only a die still in a wall, pin or the
    engine after that (wedged between two) is turned or moved by
    :func:`clear_overlap`. Saved cases: tests/test_physics_faults.py (the rows of
    pressed dice)."""
    group, fixed = [d], set[int]()
    members = {d.id}
    for _ in range(_RELAX_PASSES):
        clear = True
        for e in list(group):
            for other, dep, nx, ny in overlaps(st, e):
                j = st.shape_die.get(other)
                full = dep + CLEARANCE
                if j is None:  # a wall, a pin, the engine: the whole depth
                    shift(st, e, -nx * full, -ny * full)
                    fixed.add(e.id)
                    clear = False
                    continue
                if j in st.active or dep <= _DIE_OVERLAP_TOLERANCE:
                    continue
                f = st.dice[j]
                if j not in members:
                    members.add(j)
                    group.append(f)
                if e.id in fixed and j not in fixed:
                    shift(st, f, nx * full, ny * full)
                    fixed.add(j)
                elif j in fixed and e.id not in fixed:
                    shift(st, e, -nx * full, -ny * full)
                    fixed.add(e.id)
                else:  # two dice of equal mass: half each
                    half = dep / 2.0 + CLEARANCE
                    shift(st, e, -nx * half, -ny * half)
                    shift(st, f, nx * half, ny * half)
                clear = False
        if clear:
            return
    # a jam: clear of walls, pins and the engine; the dice stay pressed
    # together as deep as the jam leaves them
    group.sort(key=lambda g: g.id)
    for e in group:
        for other, dep, nx, ny in overlaps(st, e):
            if other not in st.shape_die:
                shift(st, e, -nx * (dep + CLEARANCE), -ny * (dep + CLEARANCE))
    for e in group:
        if any(other not in st.shape_die for other, *_ in overlaps(st, e)):
            clear_overlap(st, e)  # wedged between two walls, say


def shift(st: WorldState, d: DieBody, dx: float, dy: float) -> None:
    """Move die ``d`` by (dx, dy) mm; its kept pose is forgotten and, at
    rest, its place of rest follows it."""
    x, y = d.body.position
    d.body.position = (x + dx, y + dy)
    st.reindex(d.body)
    st.poses.pop(d.id, None)
    if d.rest_at is not None:
        st.rested(d)


def path_blocked(st: WorldState, d: DieBody, x0: float, y0: float, x1: float, y1: float) -> bool:
    """Does the straight path of die ``d``'s centre from (x0, y0) to
    (x1, y1) cross anything it collides with?

    The die's own shape is kept out of the query by a filter group it
    shares with the probe for the query's duration, so pymunk can stop
    at the first hit in C (``segment_query_first``) instead of handing
    every hit to Python: the answer is the same, in about half the time
    (the set-down search of :func:`clear_overlap` asks thousands)."""
    own = d.shape.filter
    d.shape.filter = pymunk.ShapeFilter(_SELF_GROUP, own.categories, own.mask)
    try:
        probe = pymunk.ShapeFilter(_SELF_GROUP, DIE_BIT, d.mask)
        return st.space.segment_query_first((x0, y0), (x1, y1), 0.0, probe) is not None
    finally:
        d.shape.filter = own


def may_overlap(st: WorldState, d: DieBody) -> bool:
    """Could die ``d`` overlap anything? Not if pymunk found no contact
    for it in the step just taken and nothing was moved by hand since:
    its collision detection ran at these very places, with the same
    filters as :func:`deepest_overlap`'s query (a cheap exact test that
    spares that query for a die at rest touching nothing)."""
    if st.hand_moved:
        return True
    touching: list[object] = []
    d.body.each_arbiter(touching.append)
    return bool(touching)


def push_out(st: WorldState, d: DieBody) -> bool:
    """Push die ``d`` straight out of its deepest overlap, up to
    :data:`_CLEAR_PASSES` times; True if it then overlaps nothing."""
    for _ in range(_CLEAR_PASSES):
        depth, nx, ny = deepest_overlap(st, d)
        if depth <= 0.0:
            return True
        x, y = d.body.position
        push = depth + CLEARANCE
        d.body.position = (x - nx * push, y - ny * push)
        st.reindex(d.body)
    return deepest_overlap(st, d)[0] <= 0.0


def blocked(st: WorldState, d: DieBody, x: float, y: float) -> bool:
    """Would die ``d``, its centre at (x, y) mm, overlap or touch anything
    it collides with? (It is put back where it was.)"""
    old = d.body.position
    d.body.position = (x, y)
    st.reindex(d.body)
    hits = st.space.shape_query(d.shape)
    d.body.position = old
    st.reindex(d.body)
    return any(h.shape is not None and h.shape is not d.shape for h in hits)


def square_clear(
    st: WorldState, bands: HeightBands, width: float, skip: pymunk.Shape | None
) -> Callable[[float, float], bool]:
    """Whether a ``width`` mm square (axis-aligned) centred at a point
    touches no wall, pin, engine or die but ``skip``: a probe queried in
    pymunk's space, every height band (for ``free_spot_near``). A
    bounding-box query comes first, a cheap pre-test of the same answer."""
    space = st.space
    w = width / 2.0
    box = probe_square(bands, w)
    probe = box.body
    assert probe is not None  # probe_square gives it a body
    filt = box.filter

    def clear(px: float, py: float) -> bool:
        # nothing whose bounding box reaches the square: free (a cheap
        # pre-test of the same answer as the exact query below)
        bb = pymunk.BB(px - w, py - w, px + w, py + w)
        if all(s is skip for s in space.bb_query(bb, filt)):
            return True
        probe.position = (px, py)
        box.cache_bb()
        return all(h.shape is None or h.shape is skip for h in space.shape_query(box))

    return clear
