"""Reading an input file safely (a regular file, a bounded size, bounded
TOML and JSON), and replacing a file whole.

Every reader of a user's file (a board, house rules, a fidelity scenario
file, a replay, a lab folder's settings and games, a launch-table cache
file) goes through here, so a hostile file is refused in one line instead
of a hang or a traceback:

- :func:`read_regular` opens without blocking, refuses anything but a
  regular file (``/dev/zero``, a FIFO, a folder) and reads at most
  ``cap + 1`` bytes, so a device or a file growing while read cannot take
  memory without bound; :func:`open_regular` opens one the same way for a
  reader that streams it (a lab's games.csv).
- :func:`parse_toml` refuses a dotted key or table name of more than
  :data:`MAX_DOTTED_PARTS` parts before :mod:`tomllib` sees it (tomllib
  takes time and memory quadratic in the parts: 21 000 parts ``"\\""``
  took 2.3 GB), found by a linear scan that reads strings as strings
  (:mod:`warlords_sim._toml`); turns the :class:`RecursionError` of deeply
  nested arrays or inline tables into an error; and refuses an integer
  outside 64 bits (TOML's range; tomllib raises a bare ValueError for one
  of over 4300 digits), naming its line and key.
- :func:`parse_json` turns a JSON nesting too deep for :mod:`json` into an
  error and keeps an integer of more than :data:`MAX_INT_DIGITS` digits
  out (Python refuses to convert more than 4300 digits; no field needs
  more than 20): it is read as a :class:`LongNumber` that the caller
  reports with the field's name (:func:`find_long_number`, which makes a
  path only for the value it finds, not for every element it passes).

Writing: :func:`temp_sibling` makes a new hidden file next to a target,
its name unique (:func:`tempfile.mkstemp`: two processes writing the same
target never share one); :func:`partial_file` holds one locked while a
writer fills it and removes the stale ones a writer killed outright left
(:func:`remove_stale_partials`); :func:`replace_text` fills one and moves
it over the target with :func:`os.replace`, so a reader sees the old file
or the new one, never a part, and an error names the target.

This module imports nothing of the package but :mod:`warlords_sim._toml`
(which imports nothing): every layer may use it.
Errors are :class:`FileProblem` without the file name; the caller adds the
name and raises its own error type.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import time
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from warlords_sim._toml import long_dotted_key, long_integer
from warlords_sim.errors import WarlordsError

__all__ = [
    "EXISTS_HINT",
    "MAX_DOTTED_PARTS",
    "MAX_INT_DIGITS",
    "MAX_JSON_DEPTH",
    "FileProblem",
    "LongNumber",
    "exists_message",
    "find_long_number",
    "find_value",
    "open_regular",
    "parse_json",
    "parse_toml",
    "partial_file",
    "read_regular",
    "read_user_file",
    "remove_stale_partials",
    "replace_text",
    "temp_sibling",
]

#: What to do about an existing file; every refusal of one says it.
EXISTS_HINT = "pass --force to overwrite it or pick another path"


def exists_message(option: str, path: str | os.PathLike[str]) -> str:
    """``OPTION PATH: the file already exists; pass --force ...`` (one line;
    ``option`` "" for a path no option named)."""
    name = f"{option} {os.fspath(path)}" if option else os.fspath(path)
    return f"{name}: the file already exists; {EXISTS_HINT}"


#: A dotted key (``a.b.c = 1``) or table name of more parts is refused.
#: The shipped files use at most 3.
MAX_DOTTED_PARTS = 64
#: A JSON integer of more digits is not converted (an int64 has 19).
MAX_INT_DIGITS = 100
#: A JSON value nested deeper is refused (a replay line nests 4 deep).
MAX_JSON_DEPTH = 64

_CHUNK = 1 << 20


class FileProblem(WarlordsError, ValueError):
    """What is wrong with a file, without its name (the caller adds it)."""


class LongNumber(str):
    """A JSON integer with more than :data:`MAX_INT_DIGITS` digits, kept as its text."""


def read_user_file(
    path: Path, cap: int, what: str, error: type[Exception], reading: str = "it"
) -> bytes:
    """:func:`read_regular`, its errors turned into one ``error`` naming the
    file: ``PATH: cannot read READING: REASON`` (``reading``: "the board
    file") or ``PATH: PROBLEM`` (not a regular file, too large). The one
    place the loaders of the user's files (board, house rules, replay,
    scenarios, tosses) say so.

    Raises:
        error: as above (the OSError its cause).
    """
    try:
        return read_regular(path, cap, what)
    except OSError as e:
        raise error(f"{path}: cannot read {reading}: {e.strerror or e}") from e
    except FileProblem as e:
        raise error(f"{path}: {e}") from None


def read_regular(path: Path, cap: int, what: str) -> bytes:
    """The bytes of a regular file of at most ``cap`` bytes.

    Args:
        path: the file.
        cap: the largest size accepted, bytes.
        what: the file's kind in the message (``"board file"``).

    Raises:
        FileProblem: not a regular file (a device, a FIFO, a folder), or
            more than ``cap`` bytes.
        OSError: the file cannot be opened or read (missing, no permission).
    """
    fd = _open_regular_fd(path, what)
    try:
        size = os.fstat(fd).st_size
        if size > cap:
            raise FileProblem(f"expected a {what} of at most {cap} bytes, got {size}")
        chunks: list[bytes] = []
        total = 0
        while total <= cap:
            chunk = os.read(fd, min(_CHUNK, cap + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > cap:
            raise FileProblem(f"expected a {what} of at most {cap} bytes, got more")
        return b"".join(chunks)
    finally:
        os.close(fd)


def open_regular(path: Path, what: str, mode: str = "rb") -> IO[Any]:
    """``path`` opened (``mode``: ``"rb"``, or ``"r+b"`` to also write) if it
    is a regular file, for a reader that streams it (a lab's games.csv may
    be large); opened without blocking, so a FIFO cannot hang it.

    Raises:
        FileProblem: not a regular file (a device, a FIFO, a folder).
        OSError: the file cannot be opened (missing, no permission).
    """
    fd = _open_regular_fd(path, what, writable=mode != "rb")
    try:
        os.set_blocking(fd, True)
        return os.fdopen(fd, mode)
    except BaseException:
        os.close(fd)
        raise


def _open_regular_fd(path: Path, what: str, writable: bool = False) -> int:
    flags = (os.O_RDWR if writable else os.O_RDONLY) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise FileProblem(f"is a folder, expected a {what}")
        if not stat.S_ISREG(st.st_mode):
            raise FileProblem(f"not a regular file, expected a {what}")
    except BaseException:
        os.close(fd)
        raise
    return fd


def parse_toml(data: bytes) -> dict[str, Any]:
    """The TOML document in ``data`` (UTF-8).

    Raises:
        FileProblem: not UTF-8, not valid TOML, a dotted key of more than
            :data:`MAX_DOTTED_PARTS` parts, nested too deeply, or an
            integer outside 64 bits (TOML's range; Python would not even
            convert one of over 4300 digits), naming the line or the field.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise FileProblem(f"not valid TOML: {e}") from None
    line = long_dotted_key(text, MAX_DOTTED_PARTS)
    if line is not None:
        raise FileProblem(
            f"not valid TOML: line {line}: a dotted key of more than "
            f"{MAX_DOTTED_PARTS} parts (expected at most {MAX_DOTTED_PARTS})"
        )
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise FileProblem(f"not valid TOML: {e}") from None
    except RecursionError:
        raise FileProblem("not valid TOML: nested too deeply") from None
    except ValueError:  # an integer too long to convert (tomllib names nothing)
        found = long_integer(text, _PY_INT_DIGITS)
        if found is None:
            raise
        line, key, digits = found
        raise FileProblem(
            f"line {line}: field `{key}`: expected {_INT64}, got an integer of {digits} digits"
        ) from None
    big = find_value(doc, _outside_int64)
    if big is not None:
        where, value = big
        try:
            count = str(len(str(abs(value))))
        except ValueError:  # past Python's conversion limit (a hex or binary literal)
            count = f"about {int(abs(value).bit_length() * 0.30103) + 1}"
        raise FileProblem(f"field `{where}`: expected {_INT64}, got an integer of {count} digits")
    return doc


#: Python's limit on converting a decimal integer (sys.get_int_max_str_digits()).
_PY_INT_DIGITS = 4300
_INT64 = "an integer within 64 bits (TOML's range: -2**63 .. 2**63 - 1)"


def _outside_int64(v: object) -> bool:
    return type(v) is int and not -(2**63) <= v < 2**63


def _parse_int(text: str) -> int | LongNumber:
    digits = len(text) - (text[:1] == "-")
    return LongNumber(text) if digits > MAX_INT_DIGITS else int(text)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object as a dict, refusing a key given twice (``json.loads``
    would keep the last silently: a file could say two things at once)."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:  # shown as JSON has it: escaped and cut short
                shown = json.dumps(key)
                shown = shown if len(shown) <= 60 else shown[:57] + '..."'
                raise FileProblem(f"key {shown} given twice in one object; expected it once")
            seen.add(key)
    return out


def parse_json(text: str | bytes) -> Any:
    """The JSON value in ``text``; an integer of more than
    :data:`MAX_INT_DIGITS` digits comes back as a :class:`LongNumber`.

    Raises:
        json.JSONDecodeError: not JSON (as :func:`json.loads`).
        UnicodeDecodeError: bytes that are not UTF-8.
        FileProblem: nested deeper than :data:`MAX_JSON_DEPTH` (so that no
            recursive walk of the value can overflow the stack), or a key
            given twice in one object.
    """
    try:
        value = json.loads(text, parse_int=_parse_int, object_pairs_hook=_unique_keys)
    except RecursionError:
        raise FileProblem("not JSON (nested too deeply)") from None
    level: list[Any] = [value]
    for _ in range(MAX_JSON_DEPTH + 1):
        level = [
            v
            for node in level
            if isinstance(node, dict | list)
            for v in (node.values() if isinstance(node, dict) else node)
        ]
        if not level:
            return value
    raise FileProblem(f"not JSON (nested too deeply: expected at most {MAX_JSON_DEPTH} levels)")


def find_long_number(obj: Any, where: str = "") -> str | None:
    """Path (``board.size[2]``) of the first :class:`LongNumber` in a parsed
    JSON value, or None (:func:`find_value`)."""
    found = find_value(obj, lambda v: isinstance(v, LongNumber))
    if found is None:
        return None
    path = found[0]
    if not where:
        return path
    return f"{where}{path}" if path.startswith("[") else f"{where}.{path}" if path else where


def find_value(obj: Any, match: Callable[[Any], bool]) -> tuple[str, Any] | None:
    """The first value in ``obj`` (dicts and lists, depth first) for which
    ``match`` is true, and its path (``board.size[2]``; ``""`` for ``obj``
    itself), or None. Iterative, and a path is made only for the value
    found: a list of millions of elements costs no memory beyond itself."""
    if match(obj):
        return "", obj
    if not isinstance(obj, dict | list):
        return None
    keys: list[Any] = []
    stack: list[Iterator[tuple[Any, Any]]] = [_children(obj)]
    while stack:
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            if keys:
                keys.pop()
            continue
        key, value = step
        if match(value):
            return _path([*keys, key]), value
        if isinstance(value, dict | list):
            keys.append(key)
            stack.append(_children(value))
    return None


def _children(node: dict[Any, Any] | list[Any]) -> Iterator[tuple[Any, Any]]:
    return iter(node.items()) if isinstance(node, dict) else enumerate(node)


def _path(keys: list[Any]) -> str:
    out = ""
    for k in keys:
        out += f"[{k}]" if isinstance(k, int) else f".{k}" if out else str(k)
    return out


def temp_sibling(target: Path) -> Path:
    """A new, empty, hidden file next to ``target``
    (``.STEM.XXXXXXXX.partial.SUFFIX``, the name unique), with the mode any
    new file gets (0666 less the umask), not :func:`tempfile.mkstemp`'s 0600.

    Raises:
        OSError: it cannot be created, or ``target`` exists and is not a
            regular file (a device such as /dev/null, a FIFO, a folder): what
            replaces it would destroy it (for root, a device for the whole
            machine), so it is refused (``EPERM``).
    """
    import errno
    import tempfile

    try:
        st = os.stat(target)
    except FileNotFoundError:
        pass
    else:
        if not stat.S_ISREG(st.st_mode):
            raise OSError(
                errno.EPERM,
                "it is not a regular file (a device, a FIFO or a folder), and only "
                "regular files are replaced",
                str(target),
            )
    fd, name = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.stem}.", suffix=f".partial{target.suffix}"
    )
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(name, 0o666 & ~umask)
    return Path(name)


def replace_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole: into a :func:`partial_file`,
    then moved over ``path`` (:func:`os.replace`); on any error the
    temporary file is removed and ``path`` is as it was.

    Raises:
        OSError: the folder cannot be written, or the disk is full; its
            ``filename`` is ``path``.
    """
    try:
        with partial_file(path) as tmp:
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, path)
    except OSError as e:
        raise OSError(e.errno, e.strerror or str(e), str(path)) from e


@contextlib.contextmanager
def partial_file(target: Path) -> Iterator[Path]:
    """A :func:`temp_sibling` of ``target`` for a writer to fill and move over
    ``target`` (:func:`os.replace`) once complete, locked by this process
    (:func:`fcntl.flock`) while the block runs and removed after it if it is
    still there (an error, an interruption).

    A writer killed outright (``kill -9``, a power cut) cannot remove its
    file; nothing holds its lock any more, so the next :func:`partial_file`
    of the same target removes it (:func:`remove_stale_partials`): a killed
    run leaves no file behind for longer than the next run's start.

    Raises:
        OSError: the file cannot be created.
    """
    remove_stale_partials(target)
    tmp = temp_sibling(target)
    fd = _hold(tmp)
    try:
        yield tmp
    finally:
        try:
            tmp.unlink(missing_ok=True)
        finally:
            if fd is not None:
                os.close(fd)


def _hold(path: Path) -> int | None:
    """An open descriptor of ``path`` holding an exclusive lock on it, or
    None where there are no such locks (Windows) or the file system refuses."""
    try:
        import fcntl
    except ImportError:
        return None
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


#: A partial file younger than this (s) is never removed: its writer may
#: be between creating it and locking it.
_STALE_AFTER_S = 2.0


def remove_stale_partials(target: Path) -> list[Path]:
    """Remove the partial files of ``target`` (``.STEM.XXXXXXXX.partial.SUFFIX``,
    :func:`temp_sibling`'s names) that no process holds (their writer was
    killed) and that are older than 2 s; returns those removed. A replay's
    (``.jsonl``: a forced recording's resumable prefix) is never removed."""
    try:
        import fcntl
    except ImportError:
        return []
    if target.suffix.lower() == ".jsonl":
        return []
    name = re.compile(
        re.escape(f".{target.stem}.") + r"[a-z0-9_]{8}" + re.escape(f".partial{target.suffix}")
    )
    try:
        names = os.listdir(target.parent)
    except OSError:
        return []
    removed = []
    for entry in names:
        if not name.fullmatch(entry):
            continue
        path = target.parent / entry
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or time.time() - st.st_mtime < _STALE_AFTER_S:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # its writer is still at work
            if os.lstat(path).st_ino == st.st_ino:
                path.unlink()
                removed.append(path)
        except OSError:
            continue
        finally:
            os.close(fd)
    return removed
