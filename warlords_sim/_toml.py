"""A linear scan of a TOML document for what :mod:`tomllib` handles badly.

:mod:`tomllib` takes time and memory quadratic in the parts of a dotted key
or table name (``a.b.c... = 1``: 20 000 parts took 1.6 GB; 21 000 parts
``"\\""``, a quote escaped, 2.3 GB and 88 s), and raises a bare ValueError,
naming neither line nor key, for an integer of more digits than Python
converts (4300). :func:`long_dotted_key` and :func:`long_integer` find
them first, in one pass over the text that never backtracks: the text is
cut into tokens left to right (strings, comments, runs of dotted key
parts, anything else), so a quote or a dot inside a string is never taken
for a key's. Every token is matched by one regular expression with
possessive quantifiers; none is looked at twice.

Where the scan and TOML could disagree (an unterminated string, a
multi-line string closed by more than five quotes) the text is invalid
TOML, which :mod:`tomllib` refuses at that spot, before it reaches
anything after it; a single-line token never spans a line, so such a
disagreement ends with its line.

This module imports nothing of the package.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

__all__ = ["long_dotted_key", "long_integer"]

_BARE = r"[A-Za-z0-9_+-]++"
_BASIC = r'"(?:[^"\\\n]|\\.)*+"'
_LITERAL = r"'[^'\n]*+'"
_PART = rf"(?:{_BARE}|{_BASIC}|{_LITERAL})"
# a multi-line basic or literal string; one never closed: the rest (invalid TOML)
_ML = (
    r'"""(?:[^\\"]|\\[\s\S]|"(?!""))*+"{3,5}+'
    r"|'''(?:[^']|'(?!''))*+'{3,5}+"
    r"|\"\"\"[\s\S]*+|'''[\s\S]*+"
)
_TOKEN = re.compile(
    rf"{_ML}"
    rf"|(?P<run>{_PART}(?:[ \t]*+\.[ \t]*+{_PART})*+)"  # key parts joined by dots (or one)
    r"|[\"'][^\n]*+"  # a string not closed on its line: the rest of it (invalid TOML)
    r"|#[^\n]*+"  # a comment
    r"|[^\"'#A-Za-z0-9_+-]++"  # punctuation and white space
)
_PARTS = re.compile(_PART)
_DIGITS = re.compile(r"[+-]?[0-9][0-9_]*+")


def _runs(text: str) -> Iterator[re.Match[str]]:
    """The runs of dotted key parts (a bare word, a number, a quoted key)
    outside strings and comments, in order."""
    for m in _TOKEN.finditer(text):
        if m.lastgroup == "run":
            yield m


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


@functools.lru_cache(maxsize=4)
def _long_run(most: int) -> re.Pattern[str]:
    """A pattern matching, from the start of a text, every token up to the
    first run of more than ``most`` dotted key parts (group ``long``). The
    tokens before it are skipped by one possessive repetition, so the
    search is one pass in the regular-expression engine."""
    unclosed = r'"(?!(?:[^"\\\n]|\\.)*+")[^\n]*+' r"|'(?![^'\n]*+')[^\n]*+"
    short = rf"{_PART}(?:[ \t]*+\.[ \t]*+{_PART}){{0,{most - 1}}}+(?![ \t]*+\.[ \t]*+{_PART})"
    skip = rf"(?:{_ML}|{short}|{unclosed}|#[^\n]*+|[^\"'#A-Za-z0-9_+-]++)*+"
    return re.compile(rf"{skip}(?P<long>{_PART}(?:[ \t]*+\.[ \t]*+{_PART}){{{most},}}+)")


def long_dotted_key(text: str, most: int) -> int | None:
    """The line (1-based) of the first dotted key or table name of more than
    ``most`` parts in TOML ``text``, or None."""
    m = _long_run(most).match(text)
    return None if m is None else _line(text, m.start("long"))


_HEADER = re.compile(r"[ \t]*+\[\[?+[ \t]*+(?P<name>[^\]\n]*?)[ \t]*+\]")
_KEY = re.compile(r"[ \t]*+(?P<key>[^=\[#\n][^=\n]*?)[ \t]*+=")


def long_integer(text: str, most: int) -> tuple[int, str, int] | None:
    """The first decimal integer of more than ``most`` digits outside the
    strings and comments of TOML ``text``: (line, the key it is the value of
    as ``table.key`` (best effort: the last table header and key before it),
    its number of digits), or None."""
    for m in _runs(text):
        for part in _PARTS.finditer(m.group()):
            token = part.group()
            if not _DIGITS.fullmatch(token):
                continue
            digits = sum(c.isdigit() for c in token)
            if digits > most:
                start = m.start() + part.start()
                return _line(text, start), _key_before(text, start), digits
    return None


def _key_before(text: str, pos: int) -> str:
    """``table.key`` of the value at ``pos``: the last ``[table]`` header
    and ``key =`` at the start of a line before it."""
    table = key = ""
    offset = 0
    for line in text[:pos].split("\n"):
        head = _HEADER.match(line)
        if head is not None:
            table, key = head.group("name"), ""
        else:
            found = _KEY.match(line)
            if found is not None:
                key = found.group("key")
        offset += len(line) + 1
    parts = [p for p in (table, key) if p]
    return ".".join(parts) if parts else "?"
