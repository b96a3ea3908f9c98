"""A display for the GUI tests: the one in ``DISPLAY``, or an ``Xvfb`` this
module starts (and stops). Without either the GUI tests skip, except under
CI (``CI`` set), where they fail: CI installs xvfb, so no display is a bug.

:func:`x_sync` is how a GUI test waits for the X server: never by sleeping."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def _free_display() -> int:
    for n in range(90, 190):
        if not Path(f"/tmp/.X11-unix/X{n}").exists() and not Path(f"/tmp/.X{n}-lock").exists():
            return n
    raise RuntimeError("no free X display number in :90..:189")


def _no_display(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"CI is set but no display for the GUI tests: {why}")
    pytest.skip(f"no display for the GUI tests: {why}")


@pytest.fixture(scope="session")
def display() -> Iterator[str]:
    """The X display the GUI tests use (started with Xvfb when needed)."""
    if os.environ.get("DISPLAY"):
        yield os.environ["DISPLAY"]
        return
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        _no_display("DISPLAY is unset and Xvfb is not installed (apt-get install xvfb)")
    n = _free_display()
    proc = subprocess.Popen(
        [xvfb, f":{n}", "-screen", "0", "1400x1000x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    sock = Path(f"/tmp/.X11-unix/X{n}")
    deadline = time.monotonic() + 10.0
    while not sock.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    if not sock.exists():
        proc.kill()
        _no_display(f"Xvfb :{n} did not start")
    os.environ["DISPLAY"] = f":{n}"
    try:
        yield f":{n}"
    finally:
        del os.environ["DISPLAY"]
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()


def x_sync(window: Any) -> None:
    """Wait until the X server has done everything asked of it so far, then
    handle the events that brought the window (configure, expose, pointer).

    ``XSync`` on the window's connection is a round trip: when it returns,
    the server has processed the window's requests (a move, a resize, a
    swap of buffers) and every event it sent the window before its reply
    is queued here. An ``xdotool`` command has exited, and so synced its
    own connection, before this is called: its pointer events are queued
    too. A wait on the server, not on the clock, so it holds however busy
    the machine is (issue 18: sleeps of 10-30 ms between events failed on a
    loaded machine)."""
    from pyglet.libs.x11 import xlib

    xlib.XSync(window._x_display, False)
    window.dispatch_events()
