"""Reading an input file safely (a regular file, a bounded size, bounded
TOML and JSON), and replacing a file whole.

Every reader of a user's file (a board, house rules, a fidelity scenario
file, a replay, a lab folder's settings) goes through here, so a hostile
file is refused in one line instead of a hang or a traceback:

- :func:`read_regular` opens without blocking, refuses anything but a
  regular file (``/dev/zero``, a FIFO, a folder) and reads at most
  ``cap + 1`` bytes, so a device or a file growing while read cannot take
  memory without bound.
- :func:`parse_toml` refuses a dotted key or table name of more than
  :data:`MAX_DOTTED_PARTS` parts before :mod:`tomllib` sees it (tomllib
  takes time and memory quadratic in the parts: 20 000 parts took 1.6 GB)
  and turns the :class:`RecursionError` of deeply nested arrays or inline
  tables into an error.
- :func:`parse_json` turns a JSON nesting too deep for :mod:`json` into an
  error and keeps an integer of more than :data:`MAX_INT_DIGITS` digits
  out (Python refuses to convert more than 4300 digits; no field needs
  more than 20): it is read as a :class:`LongNumber` that the caller
  reports with the field's name (:func:`find_long_number`).

Writing: :func:`temp_sibling` makes a new hidden file next to a target,
its name unique (:func:`tempfile.mkstemp`: two processes writing the same
target never share one), and :func:`replace_text` fills one and moves it
over the target with :func:`os.replace`, so a reader sees the old file or
the new one, never a part.

This module imports nothing of the package: every layer may use it.
Errors are :class:`FileProblem` without the file name; the caller adds the
name and raises its own error type.
"""

from __future__ import annotations

import json
import os
import re
import stat
import tomllib
from pathlib import Path
from typing import Any

__all__ = [
    "MAX_DOTTED_PARTS",
    "MAX_INT_DIGITS",
    "MAX_JSON_DEPTH",
    "FileProblem",
    "LongNumber",
    "find_long_number",
    "parse_json",
    "parse_toml",
    "read_regular",
    "replace_text",
    "temp_sibling",
]

#: A dotted key (``a.b.c = 1``) or table name of more parts is refused.
#: The shipped files use at most 3.
MAX_DOTTED_PARTS = 64
#: A JSON integer of more digits is not converted (an int64 has 19).
MAX_INT_DIGITS = 100
#: A JSON value nested deeper is refused (a replay line nests 4 deep).
MAX_JSON_DEPTH = 64

_CHUNK = 1 << 20
# More than 64 key parts joined by dots (a bare or quoted part each) before
# `=` or `]`; it starts where no bare-key character or dot precedes and
# never backtracks (possessive), so a search is linear in the text.
_PART = r"""(?:[A-Za-z0-9_-]++|"[^"\n]*+"|'[^'\n]*+')"""
_DOTTED = re.compile(
    rf"(?<![A-Za-z0-9_.-])(?:{_PART}[ \t]*+\.[ \t]*+){{{MAX_DOTTED_PARTS},}}+{_PART}[ \t]*+[=\]]"
)


class FileProblem(ValueError):
    """What is wrong with a file, without its name (the caller adds it)."""


class LongNumber(str):
    """A JSON integer with more than :data:`MAX_INT_DIGITS` digits, kept as its text."""


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
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise FileProblem(f"is a folder, expected a {what}")
        if not stat.S_ISREG(st.st_mode):
            raise FileProblem(f"not a regular file, expected a {what}")
        if st.st_size > cap:
            raise FileProblem(f"expected a {what} of at most {cap} bytes, got {st.st_size}")
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


def parse_toml(data: bytes) -> dict[str, Any]:
    """The TOML document in ``data`` (UTF-8).

    Raises:
        FileProblem: not UTF-8, not valid TOML, a dotted key of more than
            :data:`MAX_DOTTED_PARTS` parts, or nested too deeply.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise FileProblem(f"not valid TOML: {e}") from None
    m = _DOTTED.search(text)
    if m is not None:
        line = text.count("\n", 0, m.start()) + 1
        raise FileProblem(
            f"not valid TOML: line {line}: a dotted key of more than "
            f"{MAX_DOTTED_PARTS} parts (expected at most {MAX_DOTTED_PARTS})"
        )
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise FileProblem(f"not valid TOML: {e}") from None
    except RecursionError:
        raise FileProblem("not valid TOML: nested too deeply") from None


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
    JSON value, or None. Iterative: a deep value cannot overflow the stack."""
    stack: list[tuple[Any, str]] = [(obj, where)]
    while stack:
        node, at = stack.pop()
        if isinstance(node, LongNumber):
            return at
        if isinstance(node, dict):
            items = [(v, f"{at}.{k}" if at else str(k)) for k, v in node.items()]
        elif isinstance(node, list):
            items = [(v, f"{at}[{i}]") for i, v in enumerate(node)]
        else:
            continue
        stack.extend(reversed(items))
    return None


def temp_sibling(target: Path) -> Path:
    """A new, empty, hidden file next to ``target``
    (``.STEM.XXXXXXXX.partial.SUFFIX``, the name unique), with the mode any
    new file gets (0666 less the umask), not :func:`tempfile.mkstemp`'s 0600.

    Raises:
        OSError: it cannot be created.
    """
    import tempfile

    fd, name = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.stem}.", suffix=f".partial{target.suffix}"
    )
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(name, 0o666 & ~umask)
    return Path(name)


def replace_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole: into a :func:`temp_sibling`,
    then moved over ``path`` (:func:`os.replace`); on any error the
    temporary file is removed and ``path`` is as it was.

    Raises:
        OSError: the folder cannot be written.
    """
    tmp = temp_sibling(path)
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
