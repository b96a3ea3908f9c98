"""The play window as a network client (issue 21), under Xvfb: P0's
window and P1's window are joined to one host; one drag with xdotool in
P0's window is sent, played by the host and seen by P1's window (and a
headless watcher in another process), on the same digest. The latency
from the release to P1's first frame of the motion is what
``benchmarks/net_latency.py`` measures over many drags."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from gui_display import display, x_sync  # noqa: F401  (the session fixture)
from net_helpers import join, processes, replay_lines, start_host

from warlords_sim.board import Crenelation
from warlords_sim.gui.controller import Phase

needs_xdotool = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool not installed")


@pytest.fixture(scope="module")
def pyglet_mod(display: str) -> Any:  # noqa: F811
    import pyglet

    pyglet.options["shadow_window"] = False
    pyglet.options["vsync"] = False
    return pyglet


def _window(c: Any, x: int) -> Any:
    from warlords_sim.gui.app import PlayWindow

    w = PlayWindow(c, 900, 640, rotate=True, mute=True)
    w.set_location(x, 0)
    x_sync(w)
    w.draw_frame()
    w.flip()
    x_sync(w)
    return w


def _screen(w: Any, x: float, y: float) -> tuple[int, int]:
    wx, wy = w.get_location()
    px, py = w.to_px(x, y)
    return wx + round(px), wy + (w.height - round(py))


@needs_xdotool
def test_a_drag_in_one_window_is_played_and_seen_in_the_other(
    pyglet_mod: Any, tmp_path: Path
) -> None:
    from warlords_sim.net.client import join as connect

    rec = tmp_path / "g.jsonl"
    h = start_host(tmp_path, "--hand", "exact", "--record", str(rec))
    watcher = join(tmp_path, h.url, "--headless")
    with processes(h.proc, watcher):
        # the watcher must be in before the drag, or it joins the game after it
        watcher.expect(r"^joined \S+: watching, the game after action 0$")
        c0 = connect(h.url, h.tokens[0])
        c1 = connect(h.url, h.tokens[1])
        w0, w1 = _window(c0, 0), _window(c1, 920)
        try:
            assert c0.is_human_turn() and not c1.is_human_turn()
            spot = c0.config.board.launch_spot(0, 2, Crenelation.HIGH)
            x, y = _screen(w0, spot.x, spot.y)
            for args in (("mousemove", str(x), str(y)), ("mousedown", "1"),
                         *(("mousemove", str(x), str(y + 25 * k)) for k in range(1, 4)),
                         ("mouseup", "1")):  # fmt: skip
                subprocess.run(["xdotool", *args], check=True)
                x_sync(w0)
            assert c0.trace and c0.trace[-1][0] == "sent", c0.message
            end = time.monotonic() + 60
            while not any(e == "first_frame" for e, _, _ in c1.trace):
                assert time.monotonic() < end, (c0.message, c1.message)
                for w in (w0, w1):
                    w.frame()
            assert c1.phase is Phase.FLICKING and c1.launch is not None
            delivered = c1.launch.action
            while c0.phase is Phase.FLICKING or c1.phase is Phase.FLICKING:
                assert time.monotonic() < end
                for w in (w0, w1):
                    w.frame()
            # both settled it here and checked it against the host's line
            while (c0._own_digest or c1._own_digest) and time.monotonic() < end:
                c0.pump(0.05)
                c1.pump(0.05)
            assert c0.index == c1.index == 1 and not (c0._own_digest or c1._own_digest)
            assert not c0.diverged and not c1.diverged
            watcher.expect(r"^P0 flicked red die \d+ at \d+ mm/s")
        finally:
            for w, c in ((w0, c0), (w1, c1)):
                w.close()
                c.link.close()
    line = next(ln for ln in replay_lines(rec) if ln["kind"] == "action")
    assert line["player"] == 0 and tuple(line["action"]["velocity"]) == delivered.velocity
