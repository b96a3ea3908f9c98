"""Flight: a die in the air, and the height bands that let it pass over things.

pymunk moves a die in the plane; while the die is airborne this module owns
what the plane cannot show: the height z of its centre, its vertical speed
and its full 3D orientation, and which obstacles it is low enough to hit.

Contract
--------
* :func:`solve_flight` and :func:`orientation_at` are pure arithmetic
  (no pymunk, no state), the same bits on every CPU: numpy only as a
  container and for elementwise arithmetic, products and sines in plain
  floats (:mod:`~warlords_sim.physics.linalg3`). :class:`HeightBands` maps heights to pymunk
  collision categories and masks (plain ints); :class:`InFlight` is the
  record of one flight in world time, built by :func:`plan_flight`. Nothing
  here touches a pymunk body: :class:`~warlords_sim.physics.world.World`
  applies the results.
* Units mm, g, s, rad; heights above the board surface; world frame.

The model: flight is exact. Gravity acts on z; a cube's inertia, sharp or
rounded, is the same about every axis, so in free flight its angular
velocity is constant and the orientation is R(t) = Rot(w t) R0.
:func:`solve_flight` finds when the die's lowest point first reaches the
floor, and the height of the lowest point at each physics step. The die is
a cube of edge ``size`` whose edges and corners are rounded with
``radius`` (0: sharp): its lowest point lies ``radius`` below the lowest
corner of the core cube of edge ``size - 2 radius``
(:mod:`~warlords_sim.physics.contact`). While that lowest point is higher than
an obstacle (wall, pin, engine, another die) the die does not collide with
it (design brief section 2): each distinct obstacle height is one collision
category (:class:`HeightBands`), and a flying die's mask holds only the
categories taller than its lowest point.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from warlords_sim.board import Board
from warlords_sim.physics.linalg3 import matmul, norm3

__all__ = [
    "DIE_BIT",
    "Flight",
    "HeightBands",
    "InFlight",
    "orientation_at",
    "plan_flight",
    "solve_flight",
]

#: Collision category of the dice (and of every obstacle exactly as tall as a die).
DIE_BIT = 1

Vec = NDArray[np.float64]


@dataclass(frozen=True)
class Flight:
    """A solved ballistic flight, times relative to its start.

    Attributes:
        t_hit: time (s) at which the lowest point reaches the floor.
        low_at_steps: height (mm) of the die's lowest point at the end of
            each physics step 1..n (n = steps until the hit), relative to
            the board surface (not the floor).
    """

    t_hit: float
    low_at_steps: Vec


def _offset_of(
    r0: Vec, omega: Vec, size: float, radius: float = 0.0
) -> tuple[Callable[[float], float], float]:
    """The z offset (mm) of the lowest point from the centre as a function of
    the time t (s): the lowest corner of the core cube of edge ``size - 2
    radius``, less ``radius``; and a bound on how fast it changes (mm/s: the
    corners' speed, |omega| times their distance from the centre).

    Plain floats (the products entry by entry in
    :func:`~warlords_sim.physics.linalg3.matmul`'s order, libm's sine and
    cosine), so the result does not depend on the CPU. At each t, with
    phi = |omega| t: min over the corners of (c0 + sin(phi) c1) + (1 -
    cos(phi)) c2, Rodrigues' formula's z for each corner.
    """
    (r00, r01, r02), (r10, r11, r12), (r20, r21, r22) = _rows3(r0)
    # the core cube's corners at t = 0 (world offsets): r0 times the corners
    # (+-half, +-half, +-half), each entry (r_i0 x + r_i1 y) + r_i2 z
    half = 0.5 * (size - 2.0 * radius)
    vx, vy, vz = [], [], []
    for x in (-half, half):
        for y in (-half, half):
            for z in (-half, half):
                vx.append(r00 * x + r01 * y + r02 * z)
                vy.append(r10 * x + r11 * y + r12 * z)
                vz.append(r20 * x + r21 * y + r22 * z)
    w = norm3(omega)
    if w < 1e-12:
        still = min(vz) - radius
        return (lambda t: still), 0.0
    ux, uy, uz = float(omega[0]) / w, float(omega[1]) / w, float(omega[2]) / w
    cx, cy, cz = uz * ux, uz * uy, uz * uz - 1.0
    a0, a1, a2, a3, a4, a5, a6, a7 = vz
    b0, b1, b2, b3, b4, b5, b6, b7 = (-uy * x + ux * y for x, y in zip(vx, vy, strict=True))
    d0, d1, d2, d3, d4, d5, d6, d7 = (
        cx * x + cy * y + cz * z for x, y, z in zip(vx, vy, vz, strict=True)
    )
    sin, cos = math.sin, math.cos

    def offset(t: float) -> float:
        phi = w * t
        s, c = sin(phi), 1.0 - cos(phi)
        m = a0 + s * b0 + c * d0
        v = a1 + s * b1 + c * d1
        m = v if v < m else m
        v = a2 + s * b2 + c * d2
        m = v if v < m else m
        v = a3 + s * b3 + c * d3
        m = v if v < m else m
        v = a4 + s * b4 + c * d4
        m = v if v < m else m
        v = a5 + s * b5 + c * d5
        m = v if v < m else m
        v = a6 + s * b6 + c * d6
        m = v if v < m else m
        v = a7 + s * b7 + c * d7
        m = v if v < m else m
        return m - radius

    return offset, w * math.sqrt(3.0) * half


def _rows3(m: Vec) -> list[list[float]]:
    """A 3x3 matrix's rows as plain floats."""
    rows: list[list[float]] = (
        m.tolist() if isinstance(m, np.ndarray) else [[float(x) for x in row] for row in m]
    )
    return rows


def solve_flight(
    z0: float,
    vz0: float,
    r0: Vec,
    omega: Vec,
    floor: float,
    size: float,
    gravity: float,
    dt: float,
    substeps: int = 8,
    radius: float = 0.0,
) -> Flight:
    """Solve a free flight until the die's lowest point reaches ``floor``.

    Args:
        z0: centre height at the start, mm. vz0: vertical speed, mm/s.
        r0: orientation at the start (3x3). omega: angular velocity (rad/s, world, 3).
        floor: height of the surface beneath, mm. size: die edge, mm.
        gravity: mm/s^2. dt: physics timestep, s. substeps: samples per step
            used to find the hit time. radius: the die's edge and corner
            radius, mm (0 <= radius <= size / 2; 0: a sharp cube).

    Returns:
        The :class:`Flight`. The hit time is found on a grid of dt/substeps
        and refined by linear interpolation.
    """
    # upper bound: the lowest point is at least half an edge below the centre
    # (lying flat is the highest it can be), so the die has surely reached the
    # floor once its centre is down to floor + size / 2
    disc = vz0 * vz0 + 2.0 * gravity * max(z0 - floor - size / 2.0, 0.0)
    t_max = (vz0 + math.sqrt(disc)) / gravity + dt
    n_steps = max(1, math.ceil(t_max / dt))
    if n_steps <= _SHORT_FLIGHT_STEPS:
        return _solve_short(z0, vz0, r0, omega, floor, size, gravity, dt, substeps, n_steps, radius)
    h = dt / substeps
    g2 = 0.5 * gravity
    offset, speed = _offset_of(r0, omega, size, radius)
    # The lowest point lies at most a corner's reach below the centre and
    # moves at most at the corners' speed: between the samples evaluated
    # (each step's end, for the masks, and what may be the hit) it is bounded
    # below, and a sample that bound keeps above the floor is not evaluated.
    # A sample is at (k + 1) h; its lowest point's height (z0 + vz0 t - g t^2 / 2)
    # + offset(t) (the height of the centre is concave in t: on a step it is
    # lowest at one of its ends).
    reach = math.sqrt(3.0) * (size / 2.0 - radius) + radius
    speed *= 1.0 + 1e-9
    t_last, off_last = 0.0, offset(0.0)  # the latest sample evaluated
    k_last, low_last = -1, 0.0
    low_steps: list[float] = []
    k = -1  # the first sample at or below the floor
    step = 0
    for step in range(n_steps):
        first = step * substeps
        last = first + substeps - 1
        t_first, t_end = (first + 1) * h, (last + 1) * h
        z_first = z0 + vz0 * t_first - g2 * t_first * t_first
        z_end = z0 + vz0 * t_end - g2 * t_end * t_end
        bound = max(off_last - speed * (t_end - t_last), -reach) - _REACH_MARGIN
        if min(z_first, z_end) + bound > floor:
            # no sample of this step reaches the floor: only its end is needed
            off_last = offset(t_end)
            t_last, k_last, low_last = t_end, last, z_end + off_last
            low_steps.append(low_last)
            continue
        for i in range(first, last + 1):
            t = (i + 1) * h
            zc = z0 + vz0 * t - g2 * t * t
            if (
                i != last
                and zc + max(off_last - speed * (t - t_last), -reach) - _REACH_MARGIN > floor
            ):
                continue
            off = offset(t)
            low = zc + off
            if low <= floor:
                k = i
                break
            t_last, off_last, k_last, low_last = t, off, i, low
        else:
            low_steps.append(low_last)
            continue
        break
    if k < 0:  # numerically grazing: land at the end of the window
        t_hit = n_steps * substeps * h
    elif k == 0:
        # touching at the start (just after a bounce): the next contact is
        # at least one sample later, so time always moves on
        t_hit = h
    else:
        t_prev, t_k = k * h, (k + 1) * h
        if k_last == k - 1:
            l_prev = low_last
        else:
            l_prev = z0 + vz0 * t_prev - g2 * t_prev * t_prev + offset(t_prev)
        frac = 0.0 if l_prev == low else (l_prev - floor) / (l_prev - low)
        t_hit = t_prev + min(max(frac, 0.0), 1.0) * (t_k - t_prev)
    steps = max(1, math.ceil(t_hit / dt - 1e-9))
    if len(low_steps) < steps:  # the end of the step of the hit
        t_end = (step * substeps + substeps) * h
        low_steps.append(z0 + vz0 * t_end - g2 * t_end * t_end + offset(t_end))
    del low_steps[steps:]
    return Flight(t_hit=t_hit, low_at_steps=np.array(low_steps, dtype=np.float64))


#: How far (mm) the lowest point may be taken below the bounds of
#: :func:`solve_flight` (a corner's reach, sqrt 3 (a/2 - rho) + rho, below the
#: centre; the corners' speed since the latest sample): a bound on the
#: rounding of :func:`_offset_of` (under 1e-13 mm), many times over.
_REACH_MARGIN = 1e-6


#: Flights of at most this many steps are solved in plain floats, sample by
#: sample, stopping at the hit (cheaper than numpy's set-up for short hops).
_SHORT_FLIGHT_STEPS = 8


def _solve_short(
    z0: float,
    vz0: float,
    r0: Vec,
    omega: Vec,
    floor: float,
    size: float,
    gravity: float,
    dt: float,
    substeps: int,
    n_steps: int,
    radius: float = 0.0,
) -> Flight:
    """:func:`solve_flight` for short hops: the same samples and the same
    answer, evaluated one at a time until the hit."""
    h2 = size / 2.0 - radius
    rows = [[float(x) * h2 for x in r0[i]] for i in range(3)]
    verts = [
        (
            rows[0][0] * sx + rows[0][1] * sy + rows[0][2] * sz,
            rows[1][0] * sx + rows[1][1] * sy + rows[1][2] * sz,
            rows[2][0] * sx + rows[2][1] * sy + rows[2][2] * sz,
        )
        for sx in (-1.0, 1.0)
        for sy in (-1.0, 1.0)
        for sz in (-1.0, 1.0)
    ]
    wx, wy, wz = float(omega[0]), float(omega[1]), float(omega[2])
    w = math.sqrt(wx * wx + wy * wy + wz * wz)
    if w < 1e-12:
        lowest = min(v[2] for v in verts) - radius
        coefs = [(lowest, 0.0, 0.0)]
    else:
        ux, uy, uz = wx / w, wy / w, wz / w
        coefs = [
            (vz - radius, -uy * vx + ux * vy, uz * ux * vx + uz * uy * vy + (uz * uz - 1.0) * vz)
            for vx, vy, vz in verts
        ]
    g2 = 0.5 * gravity
    h = dt / substeps
    sin, cos = math.sin, math.cos

    def low(t: float) -> float:
        s, c = sin(w * t), 1.0 - cos(w * t)
        return z0 + vz0 * t - g2 * t * t + min(c0 + s * c1 + c * c2 for c0, c1, c2 in coefs)

    if len(coefs) == 8:
        # the same, the minimum over the corners written out (the first of equals)
        (a0, b0, d0), (a1, b1, d1), (a2, b2, d2), (a3, b3, d3) = coefs[:4]
        (a4, b4, d4), (a5, b5, d5), (a6, b6, d6), (a7, b7, d7) = coefs[4:]

        def low(t: float) -> float:
            s, c = sin(w * t), 1.0 - cos(w * t)
            m = a0 + s * b0 + c * d0
            v = a1 + s * b1 + c * d1
            m = v if v < m else m
            v = a2 + s * b2 + c * d2
            m = v if v < m else m
            v = a3 + s * b3 + c * d3
            m = v if v < m else m
            v = a4 + s * b4 + c * d4
            m = v if v < m else m
            v = a5 + s * b5 + c * d5
            m = v if v < m else m
            v = a6 + s * b6 + c * d6
            m = v if v < m else m
            v = a7 + s * b7 + c * d7
            m = v if v < m else m
            return z0 + vz0 * t - g2 * t * t + m

    n = n_steps * substeps
    t_hit = n * h
    t_prev = l_prev = 0.0
    for k in range(n):
        t = (k + 1) * h
        lk = low(t)
        if lk <= floor:
            if k == 0:
                t_hit = t
            else:
                frac = 0.0 if l_prev == lk else (l_prev - floor) / (l_prev - lk)
                t_hit = t_prev + min(max(frac, 0.0), 1.0) * (t - t_prev)
            break
        t_prev, l_prev = t, lk
    steps = max(1, math.ceil(t_hit / dt - 1e-9))
    lows = [low(j * dt) for j in range(1, steps + 1)]
    return Flight(t_hit=t_hit, low_at_steps=np.array(lows))


def orientation_at(r0: Vec, omega: Vec, t: float) -> Vec:
    """Orientation after rotating at constant ``omega`` (rad/s) for ``t`` s
    (Rodrigues' formula; plain floats, it runs at every bounce)."""
    wx, wy, wz = float(omega[0]), float(omega[1]), float(omega[2])
    w = math.sqrt(wx * wx + wy * wy + wz * wz)
    if w * t == 0.0:
        return np.array(r0, dtype=np.float64)
    ux, uy, uz = wx / w, wy / w, wz / w
    ang = w * t
    s, c = math.sin(ang), math.cos(ang)
    k = 1.0 - c
    rot = [
        [c + ux * ux * k, ux * uy * k - uz * s, ux * uz * k + uy * s],
        [uy * ux * k + uz * s, c + uy * uy * k, uy * uz * k - ux * s],
        [uz * ux * k - uy * s, uz * uy * k + ux * s, c + uz * uz * k],
    ]
    return matmul(rot, r0)


class HeightBands:
    """Collision categories by obstacle height, and the masks of a die by its
    lowest point.

    Every distinct obstacle height (mm) is one pymunk collision category; an
    obstacle exactly as tall as a die shares the dice's :data:`DIE_BIT`. A
    die whose lowest point is at height z collides only with the categories
    taller than z.

    Args:
        heights: the obstacle heights, mm (duplicates allowed).
        die_size: the die's edge, mm.
    """

    def __init__(self, heights: Iterable[float], die_size: float) -> None:
        levels: list[tuple[float, int]] = []
        bit = DIE_BIT << 1
        for h in sorted(set(heights) | {die_size}):
            levels.append((h, DIE_BIT if h == die_size else bit))
            if h != die_size:
                bit <<= 1
        #: (height mm, category bit), by rising height.
        self.levels: tuple[tuple[float, int], ...] = tuple(levels)
        all_mask = 0
        for _, b in self.levels:
            all_mask |= b
        #: Every category: the mask of a die on the board surface.
        self.all_mask = all_mask
        # for a lowest point z: levels with height > z are those from
        # searchsorted(heights, z, "right") on; their masks OR-ed (suffix sums)
        self._heights = np.array([h for h, _ in self.levels])
        suffix = [0] * (len(self.levels) + 1)
        for i in range(len(self.levels) - 1, -1, -1):
            suffix[i] = suffix[i + 1] | self.levels[i][1]
        self._suffix_masks = np.array(suffix, dtype=np.int64)

    @classmethod
    def of_board(cls, board: Board) -> HeightBands:
        """The bands of everything on ``board``: the die, pins, siege engine,
        every castle wall, side wall and three-player wall."""
        heights = {board.die.size_mm, board.pin.height_mm, board.siege_engine.launch_height_mm}
        for c in board.castles:
            heights.update(w.height_mm for w in c.walls)
            heights.update(w.height_mm for w in c.side_walls)
            heights.add(c.three_player_wall.height_mm)
        return cls(heights, board.die.size_mm)

    def bit_for(self, height: float) -> int | None:
        """The category of obstacles ``height`` mm tall, or None if no band has it."""
        for h, b in self.levels:
            if h == height:
                return b
        return None

    def bit_at(self, floor: float) -> int:
        """The category of a surface ``floor`` mm high (0 if none is that high)."""
        bit = 0
        for h, b in self.levels:
            if h == floor:
                bit = b
        return bit

    def height_of(self, category: int) -> float | None:
        """Height (mm) of the obstacles of ``category``, or None."""
        for h, bit in self.levels:
            if bit == category:
                return h
        return None

    def mask_above(self, low: float) -> int:
        """Categories of everything taller than ``low`` mm."""
        m = 0
        for h, b in self.levels:
            if h > low + 1e-9:
                m |= b
        return m

    def masks_along(self, low: Vec) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Collision mask for each height (mm) of a die's lowest point in
        ``low``, and the indices where the mask changes."""
        idx = np.searchsorted(self._heights, low, side="right")
        masks = self._suffix_masks[idx]
        changes = np.flatnonzero(masks[1:] != masks[:-1]) + 1
        return masks, changes


@dataclass
class InFlight:
    """A die's current flight, in world time (mutable: its bounce count and
    masks belong to the die while it flies).

    ``low[j]`` and ``masks[j]`` are the height (mm) of the lowest point and
    the collision mask in force after step ``step0 + j + 1``; ``changes``
    indexes ``masks`` where it changes.
    """

    t0: float  # world time of the flight's start, s
    step0: int  # world step index at its start
    z0: float  # centre height at t0, mm
    vz0: float  # vertical speed at t0, mm/s
    r0: Vec  # world orientation at t0
    omega: Vec  # angular velocity (world), rad/s
    floor: float  # surface it will land on, mm
    hit_step: int  # step after which it lands
    t_hit: float  # world time of landing
    low: Vec  # lowest point (mm) at the end of steps step0+1 ..
    masks: NDArray[np.int64]  # collision mask in force after each of those steps
    changes: NDArray[np.int64]  # indices into masks where the mask changes
    gravity: float  # mm/s^2
    bounces: int = 0

    def height(self, t: float) -> float:
        """Centre height (mm) ``t`` s after the flight's start."""
        return self.z0 + self.vz0 * t - 0.5 * self.gravity * t * t

    def vz(self, t: float) -> float:
        """Vertical speed (mm/s) ``t`` s after the flight's start."""
        return self.vz0 - self.gravity * t

    def orientation(self, t: float) -> Vec:
        """World orientation ``t`` s after the flight's start."""
        return orientation_at(self.r0, self.omega, t)

    def mask_index(self, steps: int) -> int | None:
        """Index into :attr:`masks` in force once world step ``steps`` is done
        (None for a flight too short to have masks)."""
        if self.masks.size == 0:
            return None
        return min(max(steps - self.step0 - 1, 0), self.masks.size - 1)

    def next_mask_step(self, idx: int) -> int:
        """World step at which the mask after index ``idx`` next changes, or
        the landing step if that comes first."""
        # masks[j] is in force after step j + 1
        later = self.changes[self.changes > idx]
        nxt = self.step0 + int(later[0]) + 1 if later.size else self.hit_step
        return min(nxt, self.hit_step)


def plan_flight(
    bands: HeightBands,
    time: float,
    steps: int,
    z0: float,
    vz0: float,
    r0: Vec,
    omega: Vec,
    floor: float,
    bounces: int,
    size: float,
    gravity: float,
    dt: float,
    radius: float = 0.0,
) -> InFlight:
    """The flight of a die leaving centre height ``z0`` (mm) at world time
    ``time`` (step ``steps``) with vertical speed ``vz0`` (mm/s), orientation
    ``r0`` and angular velocity ``omega`` (rad/s, world), to land on a
    surface ``floor`` mm high; ``bounces`` landings so far; a die of edge
    ``size`` rounded to ``radius`` mm (:func:`solve_flight`). What it stands
    on (``floor`` > 0) is left out of its masks: it cannot be hit from above."""
    fl = solve_flight(z0, vz0, r0, omega, floor, size, gravity, dt, radius=radius)
    hit_step = steps + max(1, math.ceil(fl.t_hit / dt - 1e-9))
    masks, changes = bands.masks_along(fl.low_at_steps)
    if floor > 0.0:  # whatever it stands on cannot be hit from above
        keep = np.int64(bands.mask_above(floor))
        masks = masks & keep
        changes = np.flatnonzero(masks[1:] != masks[:-1]) + 1
    return InFlight(
        t0=time,
        step0=steps,
        z0=z0,
        vz0=vz0,
        r0=r0,
        omega=omega,
        floor=floor,
        hit_step=hit_step,
        t_hit=time + fl.t_hit,
        low=fl.low_at_steps,
        masks=masks,
        changes=changes,
        gravity=gravity,
        bounces=bounces,
    )
