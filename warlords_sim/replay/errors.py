"""The replay error: one line naming the file, the line, the field and what was expected."""

from __future__ import annotations

from warlords_sim.errors import WarlordsError

__all__ = ["ReplayError", "clip"]

#: Longest value (characters) an error line quotes whole.
CLIP = 40


def clip(value: object, limit: int = CLIP) -> str:
    """``str(value)`` cut to ``limit`` characters (``...`` and the full
    length added), so that an error line never echoes a huge field."""
    text = str(value)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 3]}... ({len(text)} characters)"


class ReplayError(WarlordsError, ValueError):
    """A replay file that cannot be used: unreadable, not JSON Lines, a wrong
    format name or version, a missing or mistyped field, a non-finite number,
    an action the rules refuse, a board that differs, a file that exists.
    The message is one line and names the file (and the line and field when
    there is one)."""
