"""Unit quaternions (w, x, y, z) and rotation vectors, in numpy.

Contract: pure functions, no state; a quaternion ``q`` rotates body
coordinates into the world (``v_world = R(q) v_body``), as the cube-toss
files store them; a rotation matrix's column i is the world direction of
body axis i (as in :mod:`warlords_sim.physics.orientation`). Angles in rad.
Arrays broadcast over leading axes where noted.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["angle_between", "qexp", "qlog", "qmat", "qmul", "qconj", "mat_quat", "qnormalize"]

Array = NDArray[np.float64]


def qnormalize(q: Array) -> Array:
    """``q`` (..., 4) scaled to unit length, the sign chosen with w >= 0."""
    q = np.asarray(q, dtype=np.float64)
    q = q / np.linalg.norm(q, axis=-1, keepdims=True)
    return np.where(q[..., :1] < 0.0, -q, q)


def qmul(a: Array, b: Array) -> Array:
    """Hamilton product ``a b`` (..., 4): rotate by ``b``, then by ``a``."""
    aw, ax, ay, az = np.moveaxis(np.asarray(a, dtype=np.float64), -1, 0)
    bw, bx, by, bz = np.moveaxis(np.asarray(b, dtype=np.float64), -1, 0)
    return np.stack(
        [
            aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
        ],
        axis=-1,
    )


def qconj(q: Array) -> Array:
    """The inverse of unit quaternion(s) ``q`` (..., 4)."""
    return np.asarray(np.asarray(q, dtype=np.float64) * np.array([1.0, -1.0, -1.0, -1.0]))


def qexp(v: Array) -> Array:
    """Unit quaternion(s) (..., 4) of the rotation by rotation vector(s) ``v``
    (..., 3): about ``v / |v|`` by ``|v|`` rad."""
    v = np.asarray(v, dtype=np.float64)
    ang = np.linalg.norm(v, axis=-1, keepdims=True)
    half = 0.5 * ang
    # sin(half) / ang, with its limit 1/2 at 0
    k = np.where(ang > 1e-12, np.sin(half) / np.where(ang > 1e-12, ang, 1.0), 0.5)
    return np.concatenate([np.cos(half), k * v], axis=-1)


def qlog(q: Array) -> Array:
    """Rotation vector(s) (..., 3) of unit quaternion(s) ``q`` (..., 4): the
    shortest rotation, angle in [0, pi]."""
    q = qnormalize(q)
    w = np.clip(q[..., :1], -1.0, 1.0)
    xyz = q[..., 1:]
    s = np.linalg.norm(xyz, axis=-1, keepdims=True)
    ang = 2.0 * np.arctan2(s, w)
    k = np.where(s > 1e-12, ang / np.where(s > 1e-12, s, 1.0), 2.0)
    return np.asarray(k * xyz)


def qmat(q: Array) -> Array:
    """Rotation matrices (..., 3, 3) of unit quaternion(s) ``q`` (..., 4)."""
    w, x, y, z = np.moveaxis(qnormalize(q), -1, 0)
    return np.stack(
        [
            np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
            np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
            np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1),
        ],
        axis=-2,
    )


def mat_quat(r: Array) -> Array:
    """Unit quaternion (4, w >= 0) of one rotation matrix ``r`` (3, 3)
    (Shepperd's method: the largest of w, x, y, z first, for accuracy)."""
    r = np.asarray(r, dtype=np.float64)
    tr = float(np.trace(r))
    diag = (tr, float(r[0, 0]), float(r[1, 1]), float(r[2, 2]))
    i = int(np.argmax(diag))
    if i == 0:
        s = 2.0 * np.sqrt(1.0 + tr)
        q = [0.25 * s, (r[2, 1] - r[1, 2]) / s, (r[0, 2] - r[2, 0]) / s, (r[1, 0] - r[0, 1]) / s]
    elif i == 1:
        s = 2.0 * np.sqrt(1.0 + r[0, 0] - r[1, 1] - r[2, 2])
        q = [(r[2, 1] - r[1, 2]) / s, 0.25 * s, (r[0, 1] + r[1, 0]) / s, (r[0, 2] + r[2, 0]) / s]
    elif i == 2:
        s = 2.0 * np.sqrt(1.0 - r[0, 0] + r[1, 1] - r[2, 2])
        q = [(r[0, 2] - r[2, 0]) / s, (r[0, 1] + r[1, 0]) / s, 0.25 * s, (r[1, 2] + r[2, 1]) / s]
    else:
        s = 2.0 * np.sqrt(1.0 - r[0, 0] - r[1, 1] + r[2, 2])
        q = [(r[1, 0] - r[0, 1]) / s, (r[0, 2] + r[2, 0]) / s, (r[1, 2] + r[2, 1]) / s, 0.25 * s]
    return qnormalize(np.array(q, dtype=np.float64))


def angle_between(a: Array, b: Array) -> Array:
    """Angle(s) (rad, in [0, pi]) of the rotation taking ``b`` to ``a`` (..., 4)."""
    dot = np.abs(np.sum(qnormalize(a) * qnormalize(b), axis=-1))
    return np.asarray(2.0 * np.arccos(np.clip(dot, 0.0, 1.0)))
