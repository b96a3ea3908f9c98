"""A die at rest in the reference world: its stored state between flicks.

Contract: frozen values and pure functions (mm, rad; orientation as a unit
quaternion (w, x, y, z) and as a 3x3 rotation whose column i is body axis
i); the conversions use MuJoCo's quaternion routines. No simulation here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import mujoco
import numpy as np
from numpy.typing import NDArray

from warlords_sim.physics.linalg3 import matmul
from warlords_sim.physics.orientation import snap_flat
from warlords_sim.reference.shapes import half_height, lowest_offset, tilt, yaw_of

__all__ = [
    "FLAT_SINK_MM",
    "FLAT_TILT",
    "KEEP_MM",
    "KEEP_RAD",
    "RestingDie",
    "close",
    "laid_flat",
    "mat_to_quat",
    "quat_to_mat",
    "rz",
]

#: A die moved less than this (mm) and turned less than KEEP_RAD keeps its pose.
KEEP_MM = 0.05
KEEP_RAD = 1e-3
#: A die resting on the table tilted less than this (rad) and sunk less than
#: FLAT_SINK_MM is laid exactly flat when it settles.
FLAT_TILT = math.radians(0.5)
FLAT_SINK_MM = 0.05

Quat = tuple[float, float, float, float]


def rz(angle: float) -> NDArray[np.float64]:
    """Rotation (3x3) by ``angle`` rad about the vertical."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def mat_to_quat(r: NDArray[np.float64]) -> Quat:
    """Unit quaternion (w, x, y, z) of rotation ``r``."""
    q = np.zeros(4)
    mujoco.mju_mat2Quat(q, np.ascontiguousarray(r, dtype=np.float64).ravel())
    return (float(q[0]), float(q[1]), float(q[2]), float(q[3]))


def quat_to_mat(q: Sequence[float]) -> NDArray[np.float64]:
    """Rotation (3x3) of unit quaternion ``q`` (w, x, y, z)."""
    m = np.zeros(9)
    mujoco.mju_quat2Mat(m, np.asarray(q, dtype=np.float64))
    return m.reshape(3, 3)


@dataclass(frozen=True)
class RestingDie:
    """A die at rest: centre (mm), orientation quaternion (w, x, y, z) and
    whether it rests on a die or the siege engine."""

    x: float
    y: float
    z: float
    quat: Quat
    on_die: bool = False

    @property
    def rotation(self) -> NDArray[np.float64]:
        return quat_to_mat(self.quat)


def close(a: RestingDie, b: RestingDie) -> bool:
    """Has the die barely moved between ``a`` and ``b``?"""
    if math.dist((a.x, a.y, a.z), (b.x, b.y, b.z)) > KEEP_MM:
        return False
    dot = abs(sum(p * q for p, q in zip(a.quat, b.quat, strict=True)))
    return 2.0 * math.acos(min(1.0, dot)) < KEEP_RAD


def laid_flat(s: RestingDie, sides: tuple[float, float, float], radius: float) -> RestingDie:
    """A die at rest on the table within :data:`FLAT_TILT` of flat (its
    lowest point within :data:`FLAT_SINK_MM` of the surface) laid exactly
    flat: the nearest cube rotation with the same face up and yaw, its
    centre half its height above the table. MuJoCo's soft contact leaves a
    resting die microradians askew and micrometres deep, and a die restarted
    from such a pose rocks and creeps (about 20 um/s); laid flat it stays put."""
    r = s.rotation
    if s.on_die or tilt(r) > FLAT_TILT:
        return s
    if abs(s.z - lowest_offset(r, sides, radius)) > FLAT_SINK_MM:
        return s  # resting on something above the table
    yaw = yaw_of(r)
    flat = matmul(rz(yaw), snap_flat(matmul(rz(-yaw), r)))
    return replace(s, z=half_height(flat, sides), quat=mat_to_quat(flat))
