"""The games of an experiment on disk: ``DIR/games.csv`` and ``DIR/experiment.json``.

``games.csv`` gets one row per game, appended and flushed as each game
finishes (in the order they finish), so a stopped run keeps every finished
game; a last line cut short by a crash is dropped on the next run.
``experiment.json`` holds the settings that decide a game's outcome; running
again with the same ``--out`` checks them and plays only the games missing.
Without a directory the rows are kept in memory.

One run at a time: :func:`lock_folder` holds an exclusive lock on the
folder (``DIR/.lock``, :mod:`filelock`) for the whole run, so a second run
into the same folder fails at once, naming the first one's process (kept in
``DIR/.lock.pid`` while it holds the lock), instead of mixing its games,
settings and summary with the first one's. ``experiment.json`` and a
rewritten ``games.csv`` are replaced whole (a temporary file of a unique
name, then :func:`os.replace`).

A folder of the lab before skills (settings version 1, a games.csv without
the ``skill`` column) is resumed only if it played the default skill
(:func:`~.specs.check_resumable`); its games.csv then gets the column, filled
with that skill, before anything is appended (rewritten whole, atomically).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from warlords_sim._files import (
    MAX_INT_DIGITS,
    FileProblem,
    find_long_number,
    open_regular,
    parse_json,
    partial_file,
    read_regular,
    replace_text,
)
from warlords_sim.bots.skill import skill_label
from warlords_sim.experiments.specs import DEFAULT_SKILL, ExperimentError, check_resumable
from warlords_sim.experiments.worker import COLUMNS, Row

__all__ = [
    "GAMES_CSV",
    "LOCK_FILE",
    "LOCK_OWNER",
    "SETTINGS_JSON",
    "GameStore",
    "lock_folder",
    "parse_row",
    "read_rows",
]

GAMES_CSV = "games.csv"
SETTINGS_JSON = "experiment.json"
#: The lock file a run holds (``flock``) while it uses the folder.
LOCK_FILE = ".lock"
#: "PID HOST" of the run holding the lock (removed when it lets go).
LOCK_OWNER = ".lock.pid"
#: An experiment.json larger than this is refused (one written is under 2 kB).
MAX_SETTINGS_BYTES = 1_000_000
_TEXT_COLUMNS = frozenset({"variant", "skill", "wall_variant", "winners"})
#: The columns of a games.csv of settings version 1 (no skill column).
COLUMNS_V1 = tuple(c for c in COLUMNS if c != "skill")


def parse_row(raw: dict[str, str], where: str = GAMES_CSV) -> Row:
    """A CSV row back to its values (integers, strings, None for empty cells).

    Raises:
        ExperimentError: a cell that should be an integer is not.
    """
    row: Row = {}
    for col in COLUMNS:
        cell = raw.get(col)
        if col in _TEXT_COLUMNS:
            row[col] = cell or ""
        elif cell is None or cell == "":
            row[col] = None
        else:
            try:
                row[col] = int(cell)
            except ValueError:
                raise ExperimentError(
                    f"{where}: column `{col}`: expected an integer, got {cell!r}"
                ) from None
    return row


def _format(row: Row) -> list[str]:
    return ["" if row.get(c) is None else str(row[c]) for c in COLUMNS]


#: Longest line of a games.csv read, bytes (a row is about 150 bytes).
MAX_LINE_BYTES = 65_536


def _open_csv(path: Path, mode: str = "rb") -> IO[bytes] | None:
    """``path`` opened if it is a regular file (a FIFO or a device is
    refused, never read), None if there is none.

    Raises:
        ExperimentError: not a regular file, or it cannot be opened.
    """
    try:
        return open_regular(path, "games.csv (a regular file)", mode)
    except FileNotFoundError:
        return None
    except FileProblem as e:
        raise ExperimentError(f"{path}: {e}") from None
    except OSError as e:
        raise ExperimentError(f"{path}: cannot read it: {e.strerror or e}") from e


def _lines(f: IO[bytes], path: Path) -> Iterator[str]:
    """The whole lines of ``f`` (a last line cut short by a crash is left
    out), each read with a bound: a line over :data:`MAX_LINE_BYTES` ends
    the reading with an error instead of taking the memory."""
    n = 0
    while True:
        raw = f.readline(MAX_LINE_BYTES + 1)
        n += 1
        if not raw.endswith(b"\n"):
            if len(raw) > MAX_LINE_BYTES:
                raise ExperimentError(
                    f"{path}: line {n}: longer than {MAX_LINE_BYTES} bytes (a row of "
                    "games.csv is about 150); it was not written by warlords-sim variants, "
                    "use another --out"
                )
            return  # the end, or a last line cut short
        yield raw.decode("utf-8", errors="replace")


def _rows(f: IO[bytes], path: Path) -> Iterator[tuple[int, dict[str, str]]]:
    """(line, row) of the CSV in ``f``, as :class:`csv.DictReader` reads it,
    its first line checked against :data:`COLUMNS`.

    Raises:
        ExperimentError: not a games.csv of this version, or not CSV.
    """
    lines = _lines(f, path)
    reader = csv.DictReader(lines)
    try:
        fields = tuple(reader.fieldnames or ())
        if fields and fields != COLUMNS:
            raise ExperimentError(
                f"{path}: expected the columns {','.join(COLUMNS)}; it was not written by "
                "this version of warlords-sim variants, use another --out"
            )
        for raw in reader:
            yield reader.line_num, raw
    except csv.Error as e:
        raise ExperimentError(
            f"{path}: line {reader.line_num}: not a games.csv row ({e}); use another --out"
        ) from None


def read_rows(path: str | Path) -> list[Row]:
    """The games in a ``games.csv`` (the first row of each (variant, index);
    a last line cut short is ignored; no file: none). Read line by line,
    each line bounded (:data:`MAX_LINE_BYTES`).

    Raises:
        ExperimentError: not a regular file, not a games.csv of this
            version, a line too long, or a bad cell.
    """
    path = Path(path)
    f = _open_csv(path)
    if f is None:
        return []
    rows: list[Row] = []
    seen: set[tuple[str, str, int]] = set()
    with f:
        for line, raw in _rows(f, path):
            row = parse_row(raw, f"{path}: line {line}")
            key = (row["variant"], row["skill"], row["index"])
            if key not in seen:
                seen.add(key)
                rows.append(row)
    return rows


def _add_skill_column(path: Path) -> None:
    """A games.csv of settings version 1 rewritten with the ``skill`` column
    (the default skill: the only one such a folder may resume with, see
    :func:`~.specs.check_resumable`); any other file is left alone. Read
    line by line (as :func:`read_rows`) into a partial file that replaces
    ``path`` whole."""
    f = _open_csv(path)
    if f is None:
        return
    with f:
        lines = _lines(f, path)
        try:
            reader = csv.DictReader(lines)
            if tuple(reader.fieldnames or ()) != COLUMNS_V1:
                return
            label = skill_label(DEFAULT_SKILL)
            with partial_file(path) as tmp:
                with tmp.open("w", encoding="utf-8", newline="") as out:
                    writer = csv.DictWriter(out, COLUMNS, lineterminator="\n")
                    writer.writeheader()
                    for raw in reader:
                        writer.writerow({**raw, "skill": label})
                os.replace(tmp, path)
        except csv.Error as e:
            raise ExperimentError(f"{path}: not a games.csv ({e}); use another --out") from None


def _cut_partial_line(f: IO[bytes]) -> None:
    """Cut a last line left short by a crash (no newline at the end of the
    file) off ``f``, looking back from the end in bounded chunks."""
    end = f.seek(0, os.SEEK_END)
    if end == 0:
        return
    f.seek(end - 1)
    if f.read(1) == b"\n":
        return
    pos = end
    while pos > 0:
        step = min(pos, 1 << 16)
        f.seek(pos - step)
        chunk = f.read(step)
        nl = chunk.rfind(b"\n")
        if nl >= 0:
            f.truncate(pos - step + nl + 1)
            return
        pos -= step
    f.truncate(0)


def _owner(directory: Path) -> str:
    """Who holds ``directory``'s lock, for a message: ``pid 1234`` (``on
    HOST`` if another machine's), or ``pid unknown``."""
    try:
        raw = read_regular(directory / LOCK_OWNER, 4096, "lock owner file")
        pid, _, host = raw.decode("utf-8").strip().partition(" ")
    except (OSError, UnicodeDecodeError, FileProblem):
        return "pid unknown"
    if not pid.isdigit() or len(pid) > 12:
        return "pid unknown"
    elsewhere = host and host != socket.gethostname()
    return f"pid {pid}" + (f" on {host[:100]}" if elsewhere else "")


@contextlib.contextmanager
def lock_folder(directory: str | Path) -> Iterator[None]:
    """Hold an exclusive lock on ``directory`` (created if missing) for the
    block: the file ``DIR/.lock``, locked without waiting (:mod:`filelock`;
    the lock goes with the process, even killed with ``kill -9``), and
    ``DIR/.lock.pid`` naming this process while it is held.

    Raises:
        ExperimentError: ``directory`` is a file, or another process holds
            the lock (naming its pid).
        OSError: the folder or the lock file cannot be created.
    """
    from filelock import FileLock, Timeout  # the lab extra: not for every import

    d = Path(directory)
    if d.exists() and not d.is_dir():
        raise ExperimentError(f"--out: {d} exists and is not a directory")
    d.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(d / LOCK_FILE))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        raise ExperimentError(
            f"--out {d}: the folder is in use by another variants run ({_owner(d)}); "
            "wait for it to finish or use another --out"
        ) from None
    try:
        replace_text(d / LOCK_OWNER, f"{os.getpid()} {socket.gethostname()}\n")
        yield
    finally:
        try:
            (d / LOCK_OWNER).unlink(missing_ok=True)
        finally:
            lock.release()


class GameStore:
    """Rows of finished games, in ``directory`` (or in memory if None)."""

    def __init__(self, directory: str | Path | None) -> None:
        self.directory = Path(directory) if directory is not None else None
        self.rows: list[Row] = []
        self._file: IO[bytes] | None = None

    @property
    def csv_path(self) -> Path | None:
        return self.directory / GAMES_CSV if self.directory is not None else None

    def open(self, settings: dict[str, Any]) -> list[Row]:
        """Check ``settings`` against earlier games in the directory, load
        those games and get ready to append; returns the games already played.

        Raises:
            ExperimentError: the directory holds games of other settings, or
                a games.csv or experiment.json that cannot be read.
            OSError: the directory cannot be created or written.
        """
        if self.directory is None:
            return self.rows
        d = self.directory
        if d.exists() and not d.is_dir():
            raise ExperimentError(f"--out: {d} exists and is not a directory")
        d.mkdir(parents=True, exist_ok=True)
        sj = d / SETTINGS_JSON
        if sj.exists():
            try:
                stored = parse_json(read_regular(sj, MAX_SETTINGS_BYTES, "settings file"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
                raise ExperimentError(f"{sj}: cannot read the experiment settings: {e}") from e
            except FileProblem as e:
                raise ExperimentError(f"{sj}: {e}") from None
            long = find_long_number(stored)
            if long is not None:
                raise ExperimentError(
                    f"{sj}: field `{long}`: expected a number of at most {MAX_INT_DIGITS} digits"
                )
            if not isinstance(stored, dict):
                raise ExperimentError(f"{sj}: expected a JSON object")
            settings = check_resumable(stored, settings, str(d))
            _add_skill_column(d / GAMES_CSV)
        elif (d / GAMES_CSV).exists():
            raise ExperimentError(
                f"{d / GAMES_CSV} exists but {SETTINGS_JSON} does not; use another --out"
            )
        replace_text(sj, json.dumps(settings, indent=2) + "\n")
        self.rows = self._load_and_repair()
        path = d / GAMES_CSV
        new = not path.exists() or path.stat().st_size == 0
        self._file = open(path, "ab", buffering=0)  # noqa: SIM115 (open while the run lasts)
        if new:
            self._write_line(list(COLUMNS))
        return list(self.rows)

    def _load_and_repair(self) -> list[Row]:
        path = self.csv_path
        assert path is not None
        f = _open_csv(path, "r+b")
        if f is not None:
            with f:
                _cut_partial_line(f)
        return read_rows(path)

    def append(self, row: Row) -> None:
        """Keep a finished game (appended to games.csv and on disk).

        Raises:
            ExperimentError: games.csv cannot be written (a full disk): the
                row is not kept, the games before it are (the same command
                again resumes).
        """
        cells = _format(row)
        if self._file is not None:
            self._write_line(cells)
        # keep what was written, read back: in-memory rows equal a resumed run's
        self.rows.append(parse_row(dict(zip(COLUMNS, cells, strict=True))))

    def _write_line(self, cells: list[str]) -> None:
        """One CSV line written whole, or not at all (on an error the file is
        cut back to where it was: no half row)."""
        assert self._file is not None and self.csv_path is not None
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerow(cells)
        data = memoryview(out.getvalue().encode("utf-8"))
        f = self._file
        start = f.seek(0, os.SEEK_END)
        try:
            while data:
                data = data[f.write(data) or 0 :]
        except OSError as e:
            with contextlib.suppress(OSError):
                f.truncate(start)
            n = len(self.rows)
            kept = f"the {n} games before are kept: " if n else ""
            raise ExperimentError(
                f"{self.csv_path}: cannot write it: {e.strerror or e}; {kept}free some space "
                "and run the same command again" + (" to resume" if n else "")
            ) from e

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
