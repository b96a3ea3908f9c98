"""Ctrl-C and SIGTERM stop a long command cleanly.

A plain ``kill``, ``timeout``, ``docker stop``, systemd and job schedulers
(Slurm, PBS) send SIGTERM, whose default action ends the process at once:
nothing is saved and the worker processes are left behind. Inside
:func:`signals_as_interrupt` (every subcommand runs in one) the first
SIGINT or SIGTERM raises KeyboardInterrupt in the main thread, never inside
one of pymunk's C callbacks, where it would be lost (:mod:`warlords_sim.stop`:
there it is raised after the physics step), so the command's Ctrl-C path
runs (finished work kept, summary written). Further signals are ignored
while it cleans up (``kill -9`` still ends it, and the lab's worker
processes follow their parent). The exit status is the shell's 128 + the
signal number: 130 after Ctrl-C, 143 after SIGTERM.

Only the main thread can set signal handlers: elsewhere (a command run by a
test in a thread) nothing is installed.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from warlords_sim.stop import Request, handling_signals

__all__ = ["Stop", "signals_as_interrupt"]


@dataclass
class Stop:
    """Why a command was interrupted: ``signum`` is SIGINT (Ctrl-C, and a
    KeyboardInterrupt no signal caused) unless a SIGTERM was received."""

    request: Request = field(default_factory=Request)

    @property
    def signum(self) -> int:
        """The signal received (SIGINT if none was)."""
        return signal.SIGINT if self.request.signum is None else self.request.signum

    @property
    def received(self) -> bool:
        """A signal was received within the block."""
        return self.request.signum is not None

    @property
    def name(self) -> str:
        """The signal's name (``SIGINT``, ``SIGTERM``)."""
        return signal.Signals(self.signum).name

    @property
    def exit_status(self) -> int:
        """128 + the signal number, as a shell reports a process it ended."""
        return 128 + self.signum


@contextmanager
def signals_as_interrupt() -> Iterator[Stop]:
    """Within the block, the first SIGINT or SIGTERM raises KeyboardInterrupt
    in plain Python (:func:`warlords_sim.stop.handling_signals`) and is
    recorded in the yielded :class:`Stop`; the previous handlers are restored
    on leaving the outermost block (a nested block shares its stop)."""
    with handling_signals() as req:
        yield Stop(req)
