"""The aim bot's launch tables: measured once per board, kept on disk.

A die launched from a crenelation or the siege engine flies, bounces and
tumbles, which no formula captures, so the aim bot looks up where a die
launched straight out at each speed comes to rest (:func:`launch_table`).
Measuring a table takes 37 flicks on the real 2.5D physics (about 60 ms of
CPU), so tables are

* kept in memory per board, keyed by the board's ``sha256`` (the hash of its
  file; hashing the frozen :class:`~warlords_sim.board.Board` tree itself
  costs about 60 us a call), the launch height and kind;
* saved in the user's cache directory (``platformdirs.user_cache_dir``,
  overridden by the environment variable ``WARLORDS_SIM_CACHE_DIR``), one
  JSON file per table, named by a key over everything the measurement
  depends on: the board's ``sha256``, the physics ``MODEL_VERSION`` and the
  hash of the physics' source files, the
  pymunk and numpy versions, the machine architecture, this module's table
  format and the launch. A file that is not a regular file (a FIFO, a link
  to ``/dev/zero``), over 64 kB, unreadable, corrupt or made for another key
  is ignored and measured afresh (and rewritten), and a :class:`FileWarning`
  says so once a process; a cache directory that cannot be written is
  ignored. Nothing is written into the repository.

A table read from the cache is bit-identical to a freshly measured one (JSON
floats round-trip exactly), so the bot's choices do not depend on the cache.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import math
import os
import platform
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from warlords_sim._files import FileProblem, read_regular
from warlords_sim._text import FileWarning
from warlords_sim.board import Board
from warlords_sim.physics.types import Flick, LaunchKind
from warlords_sim.physics.version import MODEL_VERSION

__all__ = [
    "CACHE_ENV",
    "LaunchTable",
    "cache_dir",
    "launch_table",
    "launch_table_warmup",
    "measure_launch_table",
]

#: Environment variable naming the cache directory (default: the user's cache dir).
CACHE_ENV = "WARLORDS_SIM_CACHE_DIR"
#: Bump when the measurement below changes (speeds, start, world set-up).
TABLE_FORMAT = "launch-table-1"
#: Launch speeds measured, mm/s.
SPEEDS: tuple[float, ...] = tuple(float(v) for v in range(150, 2001, 50))
#: Where the measured die starts, mm (launched along +y).
_START_Y = -150.0


@dataclass(frozen=True)
class LaunchTable:
    """(speed mm/s, distance mm) rows of a launch, in increasing speed.

    :meth:`nearest` finds the row whose distance is nearest a wanted one by
    binary search over the distances, with exactly the answer (ties to the
    slowest speed) of a linear scan ``min(rows, key=|distance - d|)``.
    """

    rows: tuple[tuple[float, float], ...]
    _dists: tuple[float, ...] = field(init=False, repr=False, compare=False)
    _speeds: tuple[float, ...] = field(init=False, repr=False, compare=False)
    _first: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        first: dict[float, int] = {}
        for i, (_, d) in enumerate(self.rows):
            first.setdefault(d, i)
        dists = sorted(first)
        object.__setattr__(self, "_dists", tuple(dists))
        object.__setattr__(self, "_first", tuple(first[d] for d in dists))
        object.__setattr__(self, "_speeds", tuple(r[0] for r in self.rows))

    @property
    def reach(self) -> float:
        """The longest distance in the table, mm (``-inf`` when empty)."""
        return self._dists[-1] if self._dists else float("-inf")

    def nearest(self, distance: float) -> tuple[float, float]:
        """(speed, |distance error|) of the row nearest ``distance`` mm.

        Raises:
            ValueError: the table is empty.
        """
        dists = self._dists
        if not dists:
            raise ValueError("empty launch table: no launch came to rest on the board")
        n = len(dists)
        i = bisect.bisect_left(dists, distance)
        best = min(
            abs(dists[j] - distance) for j in (i - 1, i) if 0 <= j < n
        )  # the same float as the scan's
        # every distinct distance at exactly that error (rounding can tie
        # neighbours), on both sides; the scan keeps the first row among them
        row = len(self.rows)
        j = i - 1
        while j >= 0 and abs(dists[j] - distance) == best:
            row = min(row, self._first[j])
            j -= 1
        j = i
        while j < n and abs(dists[j] - distance) == best:
            row = min(row, self._first[j])
            j += 1
        return self._speeds[row], best


class _CacheFile(msgspec.Struct, forbid_unknown_fields=True):
    key: str
    rows: list[tuple[float, float]]


def cache_dir() -> Path:
    """The directory launch tables are cached in (``$WARLORDS_SIM_CACHE_DIR``
    or the user's cache directory for ``warlords-sim``)."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("warlords-sim"))


@functools.cache
def _physics_source() -> str:
    """SHA-256 of the 2.5D physics' source files: an edit of the model that
    forgot its MODEL_VERSION bump (or made between two bumps, in development)
    must not reuse tables measured on the old code."""
    import warlords_sim.physics as physics

    h = hashlib.sha256()
    for path in sorted(Path(physics.__file__).parent.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def _key(board: Board, height_mm: float, kind: LaunchKind) -> str:
    import numpy

    from warlords_sim.physics.version import pymunk_version

    parts = (
        TABLE_FORMAT,
        board.sha256,
        MODEL_VERSION,
        _physics_source(),
        f"pymunk {pymunk_version()}",
        f"numpy {numpy.__version__}",
        platform.machine(),
        repr(float(height_mm)),
        kind.value,
        repr(SPEEDS),
        repr(_START_Y),
    )
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def measure_launch_table(board: Board, height_mm: float, kind: LaunchKind) -> LaunchTable:
    """Measure the table on the real physics: for each of :data:`SPEEDS`, a
    die launched straight out (+y, face 1, no spin, struck at its centre)
    from ``height_mm`` at (0, -150) mm on an empty board, and the distance
    along y to where it rests (launches that leave the board are left out).

    Raises:
        WorldError: a board whose die is not a cube (the table is measured on
            the 2.5D engine, which models cubic dice only), or on which no
            launch comes to rest.
    """
    from warlords_sim.physics.world import World, WorldError

    if not board.die.cubic:
        raise WorldError(
            f"{board.path}: die.sides_mm {list(board.die.sides_mm)}: the aim bot plans on the "
            "2.5D engine, which models cubic dice only: play a cuboid die with random bots"
        )
    # a SIEGE flick needs a placed engine; with none, the same ledge launch
    # from that height is a HIGH one (the 2.5D world moves both alike)
    launch = LaunchKind.HIGH if kind is LaunchKind.SIEGE else kind
    rows = []
    for v in SPEEDS:
        world = World(board, castle_seats=())
        res = world.flick(Flick(0, (0.0, v), 0.0, launch, (0.0, _START_Y), height_mm), face=1)
        pose = res.pose
        if pose is not None:
            rows.append((v, pose.y - _START_Y))
    if not rows:
        raise WorldError(
            f"{board.path}: no die launched {kind.value} ({height_mm:g} mm up) at "
            f"{SPEEDS[0]:g}..{SPEEDS[-1]:g} mm/s came to rest on the board, so the aim bot "
            "cannot plan on it: play it with random bots"
        )
    return LaunchTable(tuple(rows))


#: Largest launch-table cache file read, bytes (one is about 2 kB).
MAX_CACHE_BYTES = 65_536
_warned = False


def _ignore(path: Path, reason: str) -> None:
    """Say, once a process, that a bad cache file is ignored (it is
    measured afresh and rewritten)."""
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(
            f"{path}: {reason}; ignored it and measured the launch table afresh",
            FileWarning,
            stacklevel=3,
        )


def _load(path: Path, key: str) -> LaunchTable | None:
    """The table cached at ``path`` for ``key``, or None (missing, or bad:
    not a regular file, over :data:`MAX_CACHE_BYTES`, unreadable, corrupt,
    made for another key; a bad one is said once, :func:`_ignore`)."""
    try:
        raw = read_regular(path, MAX_CACHE_BYTES, "launch-table cache file")
    except FileNotFoundError:
        return None
    except FileProblem as e:
        _ignore(path, str(e))
        return None
    except OSError as e:
        _ignore(path, f"cannot read it: {e.strerror or e}")
        return None
    try:
        data = msgspec.json.decode(raw, type=_CacheFile)
    except msgspec.DecodeError:
        _ignore(path, "not a launch table (corrupt)")
        return None
    rows = tuple((float(s), float(d)) for s, d in data.rows)
    speeds = [s for s, _ in rows]
    if (
        data.key != key
        or not rows
        or not set(speeds) <= set(SPEEDS)
        or speeds != sorted(set(speeds))
        or not all(math.isfinite(d) for _, d in rows)
    ):
        # made for another board, model or build (under the same name), or tampered with
        _ignore(path, "not the launch table of this board and build")
        return None
    return LaunchTable(rows)


def _save(path: Path, key: str, table: LaunchTable) -> None:
    blob = msgspec.json.encode(_CacheFile(key, list(table.rows)))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".launch-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(blob)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        pass  # a read-only or full cache only costs the next process a measurement


_MEMORY: dict[tuple[str, float, LaunchKind], LaunchTable] = {}


def launch_table(board: Board, height_mm: float, kind: LaunchKind) -> LaunchTable:
    """The launch table of ``board`` from ``height_mm`` for ``kind``: from
    memory, else from the disk cache, else measured
    (:func:`measure_launch_table`) and saved.

    Raises:
        WorldError: a board whose die is not a cube, or on which no launch
            comes to rest (:func:`measure_launch_table`).
    """
    mem = (board.sha256, height_mm, kind)
    table = _MEMORY.get(mem)
    if table is not None:
        return table
    key = _key(board, height_mm, kind)
    path = cache_dir() / f"launch-{key[:32]}.json"
    table = _load(path, key)
    if table is None:
        table = measure_launch_table(board, height_mm, kind)
        _save(path, key, table)
    _MEMORY[mem] = table
    return table


def launch_table_warmup(board: Board) -> None:
    """Load (or measure and save) every launch table of ``board`` now rather
    than on first use: about 1 ms from the cache, 0.2 s measured."""
    launch_table(board, board.low_crenelation_mm, LaunchKind.LOW)
    launch_table(board, board.high_crenelation_mm, LaunchKind.HIGH)
    launch_table(board, board.siege_engine.launch_height_mm, LaunchKind.SIEGE)
