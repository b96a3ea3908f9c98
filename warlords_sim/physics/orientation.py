"""The die's 3D orientation: which face is up, and the 24 rotations of a cube.

An orientation is a 3x3 rotation matrix (numpy, float64) whose column i is
the world direction of the die's body axis i. Faces sit on the body axes:
+z is 1, -z is 6, +x is 2, -x is 5, +y is 3, -y is 4, so opposite faces sum
to 7 and 1, 2, 3 run counter-clockwise round their corner (a right-handed
die, as casino dice are).

The orientation changes only through simulated motion (``physics.flight``,
``physics.impact``, ``physics.tumble``); this module only reads and snaps it.
"""

from __future__ import annotations

import itertools

import numpy as np
from numpy.typing import NDArray

from warlords_sim.physics.linalg3 import rotation_about, rotation_z, trace_dot

__all__ = [
    "FACE_NORMALS",
    "ROTATIONS",
    "face_up",
    "orientation_index",
    "rotation_about",
    "rotation_z",
    "snap_flat",
    "with_face_up",
]

Matrix = NDArray[np.float64]

#: Body-frame outward normal of each face 1..6.
FACE_NORMALS: dict[int, tuple[float, float, float]] = {
    1: (0.0, 0.0, 1.0),
    6: (0.0, 0.0, -1.0),
    2: (1.0, 0.0, 0.0),
    5: (-1.0, 0.0, 0.0),
    3: (0.0, 1.0, 0.0),
    4: (0.0, -1.0, 0.0),
}


def _det(m: Matrix) -> float:
    """Determinant of a 3x3 matrix of 0 and +-1 (exact in floats)."""
    (a, b, c), (d, e, f), (g, h, i) = m.tolist()
    return float(a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g))


def _all_rotations() -> tuple[Matrix, ...]:
    out = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1.0, -1.0), repeat=3):
            m = np.zeros((3, 3))
            for col, (row, s) in enumerate(zip(perm, signs, strict=True)):
                m[row, col] = s
            if _det(m) > 0:
                out.append(m)
    return tuple(out)


#: The 24 proper rotations of a cube, in a fixed order (index = orientation id).
ROTATIONS: tuple[Matrix, ...] = _all_rotations()


def face_up(r: Matrix) -> int:
    """The face whose outward normal points most upward (world +z).

    For a cocked die this is the craps reading "as if the support were
    removed". Ties (a die balanced exactly on an edge) go to the lower face
    number, deterministically.
    """
    zrow = r[2]
    if isinstance(zrow, np.ndarray) and zrow.dtype == np.float64:
        zrow = zrow.tolist()  # plain floats: the same products, without numpy's scalars
    best, best_z = 1, -2.0
    for face in (1, 2, 3, 4, 5, 6):
        n = FACE_NORMALS[face]
        z = zrow[0] * n[0] + zrow[1] * n[1] + zrow[2] * n[2]
        if z > best_z + 1e-12:
            best, best_z = face, z
    return best


def with_face_up(face: int) -> Matrix:
    """A rest orientation (one of ``ROTATIONS``) with ``face`` up.

    Raises:
        ValueError: face not in 1..6.
    """
    if face not in FACE_NORMALS:
        raise ValueError(f"face must be 1..6, got {face!r}")
    for m in ROTATIONS:
        if face_up(m) == face:
            return m.copy()
    raise AssertionError("unreachable: every face is up in some rotation")


def snap_flat(r: Matrix) -> Matrix:
    """The rest orientation nearest to ``r`` with the same face up.

    The die falls onto the face opposite the one pointing most upward; its
    yaw (rotation about world z) is kept to the nearest quarter turn, so the
    result is one of ``ROTATIONS`` expressed in the die's yaw frame.
    """
    best = ROTATIONS[0]
    best_score = -1e9
    for m in ROTATIONS:
        score = trace_dot(m, r)  # trace(m^T r): larger is closer
        if score > best_score:
            best, best_score = m, score
    up = face_up(r)
    if face_up(best) != up:
        # r is balanced near an edge: pick the nearest rotation with the right face up
        cands = [m for m in ROTATIONS if face_up(m) == up]
        best = max(cands, key=lambda m: trace_dot(m, r))
    return best.copy()


_INDEX = {m.astype(np.int8).tobytes(): i for i, m in enumerate(ROTATIONS)}
#: The same look-up by the nine entries as ints, and the rotations' entries as floats.
_INDEX_ENTRIES = {tuple(int(v) for v in m.ravel()): i for i, m in enumerate(ROTATIONS)}
_ENTRIES = tuple(tuple(float(v) for v in m.ravel()) for m in ROTATIONS)


def orientation_index(r: Matrix) -> int:
    """Index into ``ROTATIONS`` of the rest orientation nearest to ``r``
    (a dictionary look-up when ``r`` is exactly one of them)."""
    if isinstance(r, np.ndarray) and r.dtype == np.float64 and r.shape == (3, 3):
        # in plain floats (a die at rest is one of them: most calls)
        entries = [v for row in r.tolist() for v in row]
        try:
            near = _INDEX_ENTRIES.get(tuple(round(v) for v in entries))  # half to even, as rint
        except (ValueError, OverflowError):  # nan or inf: as below
            near = None
        if near is not None:
            ref = _ENTRIES[near]
            if max(abs(v - q) for v, q in zip(entries, ref, strict=True)) < 1e-9:
                return near
    exact = _INDEX.get(np.rint(r).astype(np.int8).tobytes())
    if exact is not None and float(np.max(np.abs(r - ROTATIONS[exact]))) < 1e-9:
        return exact
    scores = [trace_dot(m, r) for m in ROTATIONS]
    return int(np.argmax(scores))
