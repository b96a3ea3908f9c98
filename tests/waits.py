"""Waiting on an event (a file's rows, a line printed, a process gone), not a fixed time.

A test that sleeps a fixed time hoping something has happened fails on a
loaded machine and wastes time on an idle one. These poll for the event
itself, bounded by a generous timeout; on the timeout, or when the process
that was to cause the event has ended first, they fail saying which event
never came.
"""

from __future__ import annotations

import selectors
import subprocess
import time
from collections.abc import Callable
from typing import IO

#: Generous: the interpreter's start-up and a few games on a shared, loaded machine.
TIMEOUT = 180.0


def wait_for(
    what: str,
    check: Callable[[], bool],
    *,
    timeout: float = TIMEOUT,
    proc: subprocess.Popen[bytes] | subprocess.Popen[str] | None = None,
    interval: float = 0.02,
) -> float:
    """Poll ``check`` until it is true; the seconds it took.

    Raises:
        AssertionError: ``what`` did not happen within ``timeout`` s, or
            ``proc`` ended before it did (without it having happened).
    """
    start = time.monotonic()
    while not check():
        if proc is not None and proc.poll() is not None:
            if check():
                break
            raise AssertionError(f"{what}: the process ended first (exit {proc.returncode})")
        if time.monotonic() - start > timeout:
            raise AssertionError(f"{what}: not within {timeout:g} s")
        time.sleep(interval)
    return time.monotonic() - start


def read_line(stream: IO[str], what: str, timeout: float = TIMEOUT) -> str:
    """The next line of a child's text pipe, waited for up to ``timeout`` s.

    Raises:
        AssertionError: no line within ``timeout`` s, or the pipe closed first.
    """
    with selectors.DefaultSelector() as sel:
        sel.register(stream, selectors.EVENT_READ)
        if not sel.select(timeout):
            raise AssertionError(f"{what}: no line within {timeout:g} s")
    line = stream.readline()
    if not line:
        raise AssertionError(f"{what}: the pipe closed without a line")
    return line
