"""Measured cube tosses: reading a ``.npz`` file in the format of the
ContactNets fit set (``../shared/data/cube-tosses/README.md``).

Contract
--------
* :func:`load_tosses` reads the file with ``numpy.load`` (no pickle) through
  :func:`warlords_sim._files.read_regular` (a regular file of at most
  :data:`MAX_FILE_BYTES`) and returns a frozen :class:`TossFile`; anything
  wrong raises :class:`TossFileError`, one line naming the file, the key and
  what was expected.
* Keys: ``side_m`` (the cube's side, m) and, for each toss ``k``, ``t_k``
  (n, s, rising), ``pos_k`` (n x 3, m, the cube's centre, board frame, z
  up), ``quat_k`` (n x 4, (w, x, y, z), body to board, unit within 1 %)
  and ``ground_z_k`` (a scalar, m: the table's height in the board frame).
  Other keys (``vel_k``, ``angvel_k``, ``mass_kg``...) are read by nobody
  here and may be absent. A toss's arrays may end before the cube touches
  the table (a file to predict), or run on until it rests (a file to judge
  against).
* SI units inside a :class:`Toss`, as in the file.
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from warlords_sim._files import read_user_file
from warlords_sim.errors import WarlordsError

__all__ = ["MAX_FILE_BYTES", "Toss", "TossFile", "TossFileError", "load_tosses"]

#: Largest toss file read, bytes (the 285-toss fit set is 4 MB).
MAX_FILE_BYTES = 512 * 1024 * 1024
#: Most tosses in one file.
MAX_TOSSES = 100_000
#: A quaternion whose norm is farther than this from 1 is refused.
QUAT_NORM_TOLERANCE = 0.01

_TOSS_KEY = re.compile(r"^t_([A-Za-z0-9]+)$")
_PER_TOSS = ("t", "pos", "quat", "ground_z")


class TossFileError(WarlordsError, ValueError):
    """A toss file that cannot be read or has a key of the wrong kind."""


@dataclass(frozen=True)
class Toss:
    """One measured toss (SI units, the file's board frame).

    Attributes:
        name: the toss's key suffix (``"000"``).
        t: sample times (n,), s, rising.
        pos: cube centre (n x 3), m.
        quat: orientation (n x 4), (w, x, y, z), body to board, unit.
        ground_z: the table's height, m.
    """

    name: str
    t: NDArray[np.float64]
    pos: NDArray[np.float64]
    quat: NDArray[np.float64]
    ground_z: float


@dataclass(frozen=True)
class TossFile:
    """The tosses of one file, in the file's order of toss names (sorted).

    Attributes:
        path: the file, as given. side_m: the cube's side, m.
    """

    path: str
    side_m: float
    tosses: tuple[Toss, ...]


def _err(path: str, key: str, expected: str) -> TossFileError:
    return TossFileError(f"{path}: {key}: {expected}")


def _array(path: str, data: dict[str, NDArray[np.generic]], key: str) -> NDArray[np.float64]:
    if key not in data:
        raise _err(path, key, "missing (every toss k needs t_k, pos_k, quat_k and ground_z_k)")
    a = data[key]
    if a.dtype.kind not in "fiu":
        raise _err(path, key, f"expected numbers, got an array of dtype {a.dtype}")
    out = np.asarray(a, dtype=np.float64)
    if not np.all(np.isfinite(out)):
        raise _err(path, key, "expected finite numbers, got NaN or infinity")
    return out


def _toss(path: str, data: dict[str, NDArray[np.generic]], name: str) -> Toss:
    t = _array(path, data, f"t_{name}")
    if t.ndim != 1 or t.size < 1:
        raise _err(path, f"t_{name}", f"expected a 1-D array of times (s), got shape {t.shape}")
    n = t.size
    if n > 1 and not np.all(np.diff(t) > 0.0):
        raise _err(path, f"t_{name}", "expected strictly rising times")
    pos = _array(path, data, f"pos_{name}")
    if pos.shape != (n, 3):
        raise _err(path, f"pos_{name}", f"expected shape ({n}, 3) (as t_{name}), got {pos.shape}")
    quat = _array(path, data, f"quat_{name}")
    if quat.shape != (n, 4):
        raise _err(path, f"quat_{name}", f"expected shape ({n}, 4) (as t_{name}), got {quat.shape}")
    norms = np.linalg.norm(quat, axis=1)
    bad = np.flatnonzero(np.abs(norms - 1.0) > QUAT_NORM_TOLERANCE)
    if bad.size:
        i = int(bad[0])
        raise _err(
            path,
            f"quat_{name}",
            f"expected unit quaternions (w, x, y, z), row {i} has norm {norms[i]:.4g}",
        )
    gz = _array(path, data, f"ground_z_{name}")
    if gz.size != 1:
        raise _err(path, f"ground_z_{name}", f"expected one number (m), got shape {gz.shape}")
    return Toss(name, t, pos, quat / norms[:, None], float(gz.reshape(())))


def load_tosses(path: str | Path) -> TossFile:
    """Read the toss file ``path`` (see the module docstring).

    Raises:
        TossFileError: the file is missing, unreadable, not a .npz, too
            large, or a key is missing or of the wrong shape, type or range
            (the message names the file and the key).
    """
    where = str(path)
    raw = read_user_file(Path(path), MAX_FILE_BYTES, "toss file (.npz)", TossFileError)
    try:
        with np.load(io.BytesIO(raw), allow_pickle=False) as npz:
            keys = list(npz.files)
            names = sorted(m.group(1) for k in keys if (m := _TOSS_KEY.match(k)))
            if len(names) > MAX_TOSSES:
                raise TossFileError(
                    f"{where}: expected at most {MAX_TOSSES} tosses, got {len(names)}"
                )
            wanted = ["side_m"] + [f"{p}_{n}" for n in names for p in _PER_TOSS]
            data = {k: npz[k] for k in wanted if k in keys}
    except TossFileError:
        raise
    except (ValueError, OSError, zipfile.BadZipFile, EOFError) as e:
        raise TossFileError(f"{where}: not a numpy .npz file ({e})") from None
    if not names:
        raise _err(
            where, "t_<k>", "no toss in the file (expected keys t_k, pos_k, quat_k, ground_z_k)"
        )
    side = _array(where, data, "side_m") if "side_m" in data else None
    if side is None:
        raise _err(where, "side_m", "missing (the cube's side, m)")
    if side.size != 1 or not 0.0 < float(side.reshape(())) < 10.0:
        raise _err(where, "side_m", f"expected one side length in (0, 10) m, got {side!r}")
    tosses = tuple(_toss(where, data, n) for n in names)
    return TossFile(where, float(side.reshape(())), tosses)
