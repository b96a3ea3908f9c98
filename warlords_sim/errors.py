"""The root of the package's errors.

Every error that means "the input is wrong, or the machine lacks
something" (a bad board, house-rules, replay, scenario, toss or material
file; an illegal action; a flick the physics refuses; a wrong message on
the network; an extra not installed; no OpenGL for off-screen drawing) is
a :class:`WarlordsError`, besides the built-in class it has always been
(most are also a :class:`ValueError`, :class:`MissingExtraError` an
:class:`ImportError`), so that ``except ValueError`` keeps working and
``except WarlordsError`` catches them all. The command line prints one
line for any of them (and for an :class:`OSError`) and exits 2; anything
else is a bug and keeps its traceback.

Imports nothing: every layer may import it.
"""

from __future__ import annotations

__all__ = ["WarlordsError"]


class WarlordsError(Exception):
    """The input is wrong, or the machine lacks something the command needs:
    the message says what and what to do (one line, naming the file and
    the field where there is one)."""
