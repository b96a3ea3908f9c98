"""3-vectors and 3x3 matrices in plain floats, the same on every CPU.

Contract
--------
Everything that feeds the settled state of a die is computed here or in
plain Python floats, never with numpy's matrix products or transcendental
ufuncs. Those dispatch on the CPU at run time: ``a @ b`` on float64 arrays
calls OpenBLAS, whose kernel is chosen per CPU (measured here: a Haswell and
a Prescott kernel give different last bits for 3x3 products, and so did the
replay digests), and ``np.sin``/``np.cos`` use SVML on AVX-512 hosts and libm
elsewhere. A replay recorded on an AVX-512 machine then diverged here by
8e-17 rad (issue 18). Python's ``+ - * /`` and ``math.sqrt`` are IEEE-754
correctly rounded, so a fixed order of them gives the same bits anywhere.

What remains CPU-dependent is the C library's ``sin``/``cos``/``atan2``/
``exp`` (glibc picks an FMA variant on CPUs that have FMA; pymunk's Chipmunk
calls the same ``cos``/``sin`` at every step): the replay header records a
probe of it (:mod:`warlords_sim.physics.numerics`).

Matrices in and out are numpy float64 arrays (containers only: reading
and writing their entries is exact); every product is taken in the order
written, each term left to right: ``(a0 b0 + a1 b1) + a2 b2``.
Units are whatever the caller's are (mm, rad, s).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

__all__ = ["dot3", "matmul", "matvec", "norm3", "rotation_about", "rotation_z", "trace_dot"]

Matrix = NDArray[np.float64]
Rows = Sequence[Sequence[float]]
Vector = Sequence[float] | NDArray[np.float64]


def _rows(m: Matrix | Rows) -> list[list[float]]:
    if isinstance(m, np.ndarray):
        out: list[list[float]] = m.tolist()
        return out
    return [[float(x) for x in row] for row in m]


def matmul(a: Matrix | Rows, b: Matrix | Rows) -> Matrix:
    """The product ``a b`` of a 3x3 matrix and a 3xN matrix (N >= 1).

    Args:
        a: 3x3 (array or nested sequence). b: 3xN.

    Returns:
        A new 3xN float64 array, each entry ``(a[i,0] b[0,j] + a[i,1] b[1,j])
        + a[i,2] b[2,j]``: the same bits on every CPU (no BLAS).

    Raises:
        ValueError: ``a`` is not 3x3 or ``b`` has not 3 rows of one length.
    """
    ra, rb = _rows(a), _rows(b)
    if len(ra) == 3 and len(rb) == 3:
        # 3x3 times 3x3 (nearly every call), written out: the same arithmetic
        # as below
        try:
            (a00, a01, a02), (a10, a11, a12), (a20, a21, a22) = ra
            (x0, x1, x2), (y0, y1, y2), (z0, z1, z2) = rb
        except (TypeError, ValueError):
            pass  # not 3x3: the checks below say what is wrong
        else:
            return np.array(
                [
                    [
                        a00 * x0 + a01 * y0 + a02 * z0,
                        a00 * x1 + a01 * y1 + a02 * z1,
                        a00 * x2 + a01 * y2 + a02 * z2,
                    ],
                    [
                        a10 * x0 + a11 * y0 + a12 * z0,
                        a10 * x1 + a11 * y1 + a12 * z1,
                        a10 * x2 + a11 * y2 + a12 * z2,
                    ],
                    [
                        a20 * x0 + a21 * y0 + a22 * z0,
                        a20 * x1 + a21 * y1 + a22 * z1,
                        a20 * x2 + a21 * y2 + a22 * z2,
                    ],
                ],
                dtype=np.float64,
            )
    if len(ra) != 3 or any(len(r) != 3 for r in ra):
        raise ValueError(f"matmul: a must be 3x3, got {len(ra)} rows")
    if len(rb) != 3 or len({len(r) for r in rb}) != 1:
        raise ValueError("matmul: b must have 3 rows of one length")
    b0, b1, b2 = rb
    return np.array(
        [
            [a0 * x + a1 * y + a2 * z for x, y, z in zip(b0, b1, b2, strict=True)]
            for a0, a1, a2 in ra
        ],
        dtype=np.float64,
    )


def matvec(a: Matrix | Rows, v: Vector) -> NDArray[np.float64]:
    """The product ``a v`` of a 3x3 matrix and a 3-vector, as a new (3,) float64
    array, each entry ``(a[i,0] v0 + a[i,1] v1) + a[i,2] v2`` (no BLAS).

    Raises:
        ValueError: ``a`` is not 3x3 or ``v`` has not 3 entries.
    """
    if len(v) != 3:
        raise ValueError(f"matvec: v must have 3 entries, got {len(v)}")
    return matmul(a, [[float(v[0])], [float(v[1])], [float(v[2])]])[:, 0].copy()


def dot3(u: Vector, v: Vector) -> float:
    """The dot product ``(u0 v0 + u1 v1) + u2 v2`` of two 3-vectors (no BLAS)."""
    return float(u[0]) * float(v[0]) + float(u[1]) * float(v[1]) + float(u[2]) * float(v[2])


def norm3(v: Vector) -> float:
    """Euclidean length of a 3-vector, ``sqrt((x x + y y) + z z)`` (no BLAS)."""
    x, y, z = float(v[0]), float(v[1]), float(v[2])
    return math.sqrt(x * x + y * y + z * z)


def trace_dot(m: Matrix | Rows, r: Matrix | Rows) -> float:
    """``trace(m^T r)``, the sum of the entrywise products, row by row.

    Larger is closer for rotation matrices (used to snap an orientation to
    the nearest of the cube's 24 rotations).
    """
    total = 0.0
    for row_m, row_r in zip(_rows(m), _rows(r), strict=True):
        for x, y in zip(row_m, row_r, strict=True):
            total += x * y
    return total


def rotation_about(axis: Vector, angle: float) -> Matrix:
    """Rotation matrix for ``angle`` rad about the unit vector ``axis``.

    Rodrigues' formula ``I + sin(a) K + (1 - cos(a)) K^2`` with ``K`` the
    cross-product matrix of ``axis``, written out entry by entry.
    """
    x, y, z = float(axis[0]), float(axis[1]), float(axis[2])
    c, s = math.cos(angle), math.sin(angle)
    k = 1.0 - c
    return np.array(
        [
            [1.0 + k * -(y * y + z * z), -s * z + k * (x * y), s * y + k * (x * z)],
            [s * z + k * (x * y), 1.0 + k * -(x * x + z * z), -s * x + k * (y * z)],
            [-s * y + k * (x * z), s * x + k * (y * z), 1.0 + k * -(x * x + y * y)],
        ],
        dtype=np.float64,
    )


def rotation_z(angle: float) -> Matrix:
    """Rotation matrix for a yaw of ``angle`` rad about the vertical (z) axis."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]], dtype=np.float64)
