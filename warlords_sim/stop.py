"""Stopping on Ctrl-C and SIGTERM without losing the stop inside a C callback.

pymunk calls Python back from C: the collision handlers during a step, the
result callbacks of every query (``bb_query``, ``shape_query``, ...), the
space's finalizer. An exception raised there is printed as "Exception
ignored from cffi callback" and lost. A signal handler that raises
KeyboardInterrupt (Python's own for Ctrl-C, and the command line's for
SIGTERM before issue 18) raises it wherever the main thread happens to be:
3 of 20 SIGTERMs at random moments to ``simulate --players 4 --record``
landed in such a callback (``benchmarks/sigterm_stress.py``), and the
command played on to the end, exited 0 and ignored later signals.

Within :func:`handling_signals` SIGINT and SIGTERM are recorded in the
block's :class:`Request` (the first one only: further signals are ignored
while the command cleans up; ``kill -9`` still ends it). Where the main
thread stands decides when KeyboardInterrupt is raised:

- in plain Python (a bot thinking, a wait for worker processes, a sleep):
  at once, from the handler, as before;
- with a frame of a module that calls Python back from C on the stack (the
  physics registers pymunk with :func:`defer_inside`): not there. The
  physics calls :func:`check` after every step, which raises it from plain
  Python; a request still pending when the block ends is raised there.

Once a stop is requested, :func:`check` raises again on every call in the
main thread, so the physics does not step on after a stop (should a raise
ever be lost elsewhere, the next step raises it again).

This module imports nothing of the package: every layer may use it. Only
the main thread can set signal handlers; elsewhere :func:`handling_signals`
installs nothing and :func:`check` never raises.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType

__all__ = [
    "SIGNALS",
    "Request",
    "check",
    "defer_inside",
    "handling_signals",
    "requested_signum",
]

#: The signals :func:`handling_signals` turns into a stop: Ctrl-C and the
#: plain ``kill`` (also what ``timeout``, ``docker stop``, systemd and job
#: schedulers send).
SIGNALS: tuple[signal.Signals, ...] = (signal.SIGINT, signal.SIGTERM)


@dataclass
class Request:
    """A block's stop request: ``signum`` is the first signal received (None:
    none yet); ``raised`` is true once KeyboardInterrupt was raised for it."""

    signum: int | None = None
    raised: bool = False


#: The innermost block's request (None: no block is handling signals).
_active: Request | None = None
#: The signal a stop was requested by, or None: read it (the physics does,
#: every step: cheaper than a call); never set it.
requested_signum: int | None = None
#: Module names (and their packages) that call Python back from C.
_deferring: tuple[str, ...] = ()


def defer_inside(*modules: str) -> None:
    """Never raise KeyboardInterrupt from a signal handler while a frame of
    one of ``modules`` (a package name covers its submodules: ``"pymunk"``)
    is on the main thread's stack; :func:`check` raises it later."""
    global _deferring
    _deferring = tuple(sorted({*_deferring, *modules}))


def _inside_deferring(frame: FrameType | None) -> bool:
    """A frame of a deferring module is on the stack from ``frame`` down."""
    prefixes = tuple(m + "." for m in _deferring)
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if isinstance(name, str) and (name in _deferring or name.startswith(prefixes)):
            return True
        frame = frame.f_back
    return False


def _on_signal(signum: int, frame: FrameType | None) -> None:
    global requested_signum
    req = _active
    if req is None or req.signum is not None:  # already stopping: let the clean-up finish
        return
    req.signum = signum
    requested_signum = signum
    if _inside_deferring(frame):
        return  # raised by check() after the step, or when the block ends
    req.raised = True
    raise KeyboardInterrupt


def check() -> None:
    """Raise KeyboardInterrupt if a stop was requested (main thread only).

    The physics calls it after a step in which :data:`requested_signum` is set.

    Raises:
        KeyboardInterrupt: a SIGINT or SIGTERM arrived within :func:`handling_signals`.
    """
    if requested_signum is not None:
        _raise_requested()


def _raise_requested() -> None:
    if threading.current_thread() is not threading.main_thread():
        return
    req = _active
    if req is not None:
        req.raised = True
    raise KeyboardInterrupt


@contextmanager
def handling_signals() -> Iterator[Request]:
    """Within the block, SIGINT and SIGTERM request a stop (see the module
    docstring) and the yielded :class:`Request` records which. The previous
    handlers are restored on leaving the outermost block; a nested block
    shares the outer one's request.

    Raises:
        KeyboardInterrupt: when the block ends with a stop requested but not
            yet raised (it arrived inside a C callback after the last step).
    """
    global _active, requested_signum
    if threading.current_thread() is not threading.main_thread():
        yield Request()  # only the main thread can set signal handlers
        return
    outer = _active
    if outer is not None:
        yield outer
        _raise_if_pending(outer)
        return
    req = Request()
    _active = req
    previous: dict[signal.Signals, object] = {}
    try:
        for s in SIGNALS:
            previous[s] = signal.signal(s, _on_signal)
        yield req
        _raise_if_pending(req)
    finally:
        for s, handler in previous.items():
            # None: a handler not set from Python; restore the default
            signal.signal(s, signal.SIG_DFL if handler is None else handler)  # type: ignore[arg-type]
        _active = None
        requested_signum = None


def _raise_if_pending(req: Request) -> None:
    if req.signum is not None and not req.raised:
        req.raised = True
        raise KeyboardInterrupt
