"""Frame time of the play window with all 24 dice moving.

Run:  python benchmarks/frames.py [--frames N]
(uses DISPLAY, or starts Xvfb itself when DISPLAY is unset)
Goal: 95th percentile under 16.7 ms (60 frames a second).

Four players' 24 dice are put on the board and kicked every 12 frames in
random directions (seeded), so all of them slide and collide all the time.
A frame is what the window does at 60 Hz: 4 physics steps of 1/240 s and a
full redraw (board, dice, overlay, side panel); both are timed, and the
redraw alone, with ``glFinish`` so the GPU work (llvmpipe under Xvfb) counts.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics
import subprocess
import time
from pathlib import Path

import numpy as np


def _xvfb() -> subprocess.Popen[bytes] | None:
    if os.environ.get("DISPLAY"):
        return None
    exe = shutil.which("Xvfb")
    if exe is None:
        raise SystemExit("no DISPLAY and no Xvfb (apt-get install xvfb)")
    n = next(k for k in range(90, 190) if not Path(f"/tmp/.X11-unix/X{k}").exists())
    proc = subprocess.Popen(
        [exe, f":{n}", "-screen", "0", "1400x1000x24"], stderr=subprocess.DEVNULL
    )
    for _ in range(200):
        if Path(f"/tmp/.X11-unix/X{n}").exists():
            break
        time.sleep(0.05)
    os.environ["DISPLAY"] = f":{n}"
    return proc


def _pct(xs: list[float], q: float) -> float:
    return float(np.percentile(np.array(xs), q))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--frames", type=int, default=600)
    args = parser.parse_args()
    xvfb = _xvfb()
    try:
        import pyglet

        pyglet.options["shadow_window"] = False
        pyglet.options["vsync"] = False
        from pyglet import gl

        from warlords_sim.board import load_board
        from warlords_sim.gui.app import PlayWindow
        from warlords_sim.gui.controller import GameController
        from warlords_sim.physics.types import Flick, LaunchKind
        from warlords_sim.rules import GameConfig

        board = load_board("standard")
        c = GameController(GameConfig(board, 4), {}, bot_delay=0.0)
        w = PlayWindow(c, 1200, 830)
        world = c.world
        rng = np.random.default_rng(1)
        spots = [(x, y) for x in range(-150, 151, 50) for y in range(-100, 101, 50)]
        rng.shuffle(spots)

        def kick() -> None:
            k = 0
            for die in range(24):
                if die not in world.dice:
                    while True:
                        x, y = spots[k % len(spots)]
                        k += 1
                        fx, fy = world.free_spot_near(float(x), float(y), 17.0)
                        if abs(fx) < 200 and abs(fy) < 200:
                            break
                    world.add_die(die, fx, fy, int(rng.integers(1, 7)))
                d = world.pose(die)
                a = math.atan2(-d.y, -d.x) + float(rng.normal(0.0, 0.8))
                v = float(rng.uniform(500.0, 1200.0))
                world.begin_flick(
                    Flick(die, (v * math.cos(a), v * math.sin(a)), 0.0, LaunchKind.TABLE)
                )

        frame_ms: list[float] = []
        draw_ms: list[float] = []
        moving: list[int] = []
        for i in range(args.frames + 30):
            if i % 12 == 0:
                kick()
            t0 = time.perf_counter()
            for _ in range(4):
                world.step()
            t1 = time.perf_counter()
            w.dispatch_events()
            w.switch_to()
            w.on_draw()
            gl.glFinish()
            t2 = time.perf_counter()
            w.flip()
            if i >= 30:  # warm-up frames excluded
                frame_ms.append((t2 - t0) * 1000.0)
                draw_ms.append((t2 - t1) * 1000.0)
                moving.append(len(world._active))
        w.close()
        print(
            f"frame (4 physics steps + redraw), {args.frames} frames, 24 dice on the board, "
            f"median {statistics.median(moving):.0f} moving: "
            f"median {statistics.median(frame_ms):.2f} ms, "
            f"p95 {_pct(frame_ms, 95):.2f} ms; redraw alone: median "
            f"{statistics.median(draw_ms):.2f} ms, p95 {_pct(draw_ms, 95):.2f} ms "
            f"(goal p95 < 16.7 ms: {'met' if _pct(frame_ms, 95) < 16.7 else 'NOT met'})"
        )
    finally:
        if xvfb is not None:
            xvfb.terminate()


if __name__ == "__main__":
    main()
