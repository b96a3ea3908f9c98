"""Text from a file made safe to print on a terminal.

A board, house-rules file, scenario file or replay is shared between
people, and what the command line prints often quotes it: a key the schema
does not know, a replay's action summary, a board's description. A
terminal obeys the control characters in what it prints: ``ESC [2J``
clears the screen, ``ESC ] 0;TITLE BEL`` sets the window title, others
move the cursor or rewrite what is shown (click strips some ANSI
sequences when its output is not a terminal, but not on one, where they
act). :func:`printable` writes every such character as an escape
(``\\x1b``) instead; every line the command line prints goes through it.

:class:`FileWarning` is the warning a layer gives when it ignores a bad
file of its own (a launch-table cache file that is a FIFO, say); the
command line prints it as one line, escaped.

This module imports nothing of the package.
"""

from __future__ import annotations

import re

__all__ = ["FileWarning", "printable"]

# C0 controls but tab and newline, DEL, C1 controls (0x9b is a one-byte CSI
# on some terminals), and the Unicode controls that reorder or hide text
# (bidirectional embeddings, overrides and isolates; the line and paragraph
# separators, which some terminals take for a new line)
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, newlines: bool = True) -> str:
    """``text`` with every terminal control character written as an escape
    (``ESC`` as ``\\x1b``, U+202E as ``\\u202e``); tabs kept, and newlines
    unless ``newlines`` is False (then ``\\x0a``)."""
    out = _UNSAFE.sub(_escape, text)
    return out if newlines else out.replace("\n", "\\x0a")


class FileWarning(UserWarning):
    """A file of our own (a cache) was bad and has been ignored: the
    command line prints it as one line, ``warlords-sim: warning: ...``."""
