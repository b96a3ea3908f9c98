"""SIGTERM stops a long command as cleanly as Ctrl-C.

A plain ``kill``, ``timeout``, ``docker stop``, systemd and job schedulers
(Slurm, PBS) send SIGTERM, whose default action ends the process at once:
nothing is saved and the worker processes are left behind. Inside
:func:`sigterm_as_interrupt` the first SIGTERM raises KeyboardInterrupt in
the main thread, where Ctrl-C's would be raised, so the command's Ctrl-C
path runs (finished work kept, summary written). Further SIGTERMs are
ignored while it cleans up (``kill -9`` still ends it, and the lab's worker
processes follow their parent). The exit status is the shell's 128 + the
signal number: 130 after Ctrl-C, 143 after SIGTERM.

Only the main thread can set signal handlers: elsewhere (a command run by a
test in a thread) nothing is installed.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType

__all__ = ["Stop", "sigterm_as_interrupt"]


@dataclass
class Stop:
    """Why a command was interrupted: ``signum`` is SIGINT (Ctrl-C, the
    default) unless a SIGTERM was received."""

    signum: int = signal.SIGINT
    received: bool = False

    @property
    def name(self) -> str:
        """The signal's name (``SIGINT``, ``SIGTERM``)."""
        return signal.Signals(self.signum).name

    @property
    def exit_status(self) -> int:
        """128 + the signal number, as a shell reports a process it ended."""
        return 128 + self.signum


@contextmanager
def sigterm_as_interrupt() -> Iterator[Stop]:
    """Within the block, a SIGTERM raises KeyboardInterrupt (once) and is
    recorded in the yielded :class:`Stop`; the previous handler is restored
    on leaving."""
    stop = Stop()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def on_term(signum: int, frame: FrameType | None) -> None:
        if stop.received:  # already stopping: let the clean-up finish
            return
        stop.signum = signum
        stop.received = True
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, on_term)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGTERM, previous)
