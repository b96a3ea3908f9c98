"""Shapes of the reference scene: the die as a box with rounded edges, and
its rest geometry.

Contract: pure numpy geometry, no MuJoCo and no state. Units mm, rad; a
rotation is a 3x3 matrix whose column i is the world direction of the die's
body axis i (as in :mod:`warlords_sim.physics.orientation`).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from numpy.typing import NDArray

from warlords_sim.physics.linalg3 import dot3

__all__ = ["half_height", "lowest_offset", "rounded_box_vertices", "tilt", "yaw_of"]

Matrix = NDArray[np.float64]


def rounded_box_vertices(
    sides: tuple[float, float, float], radius: float, segments: int = 4
) -> NDArray[np.float64]:
    """Vertices (n x 3, mm, centred on the origin) whose convex hull is a
    box of ``sides`` (mm) with edges and corners rounded to ``radius`` mm.

    The hull of eight corner spheres of ``radius`` at (+-(s/2 - radius)),
    each sampled on its outer octant in ``segments`` steps of latitude and
    longitude (22.5 degrees for 4), so the faces stay exactly flat and the
    rounded edges are cylinders cut into ``segments`` facets.

    Raises:
        ValueError: a side not positive, or a radius outside (0, min(sides) / 2].
    """
    if min(sides) <= 0.0:
        raise ValueError(f"box sides must be positive, got {sides}")
    if not 0.0 < radius <= min(sides) / 2.0:
        raise ValueError(f"edge radius must be in (0, {min(sides) / 2.0:g}] mm, got {radius}")
    core = [s / 2.0 - radius for s in sides]
    pts = []
    for sx, sy, sz in itertools.product((-1.0, 1.0), repeat=3):
        for i in range(segments + 1):
            theta = (math.pi / 2.0) * i / segments
            for j in range(segments + 1 if i else 1):
                phi = (math.pi / 2.0) * j / segments
                ux = math.sin(theta) * math.cos(phi)
                uy = math.sin(theta) * math.sin(phi)
                uz = math.cos(theta)
                pts.append(
                    (
                        sx * (core[0] + radius * ux),
                        sy * (core[1] + radius * uy),
                        sz * (core[2] + radius * uz),
                    )
                )
    return np.unique(np.round(np.array(pts, dtype=np.float64), 12), axis=0)


def lowest_offset(r: Matrix, sides: tuple[float, float, float], radius: float) -> float:
    """How far (mm) the lowest point of the rounded box turned by ``r`` lies
    below its centre."""
    core = np.array([s / 2.0 - radius for s in sides])
    return dot3(np.abs(r[2]), core) + radius


def half_height(r: Matrix, sides: tuple[float, float, float]) -> float:
    """Half the box's height (mm) when it lies flat turned by ``r``: half the
    side along the body axis closest to vertical."""
    return sides[int(np.argmax(np.abs(r[2])))] / 2.0


def tilt(r: Matrix) -> float:
    """Angle (rad) between the body axis closest to vertical and the vertical."""
    return math.acos(min(1.0, float(np.max(np.abs(r[2])))))


def yaw_of(r: Matrix) -> float:
    """Yaw (rad, in (-pi/4, pi/4]) of a die turned by ``r``: the heading of the
    body axis after the one closest to vertical, reduced modulo a quarter turn
    (a square footprint looks the same every quarter turn)."""
    vertical = int(np.argmax(np.abs(r[2])))
    h = (vertical + 1) % 3
    yaw = math.atan2(float(r[1, h]), float(r[0, h]))
    q = math.pi / 2.0
    yaw = math.remainder(yaw, q)
    if yaw <= -q / 2.0:
        yaw += q
    return yaw
