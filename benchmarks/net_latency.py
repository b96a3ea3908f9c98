"""Network play on loopback: from a release in one window to the other
window's first frame of the motion, and the bytes a game sends.

Starts ``warlords-sim host`` (2 humans, hand exact) in a process, joins
it with two play windows in this process (P0's and P1's, on the display
in ``DISPLAY``: run under ``xvfb-run -a``), and makes ``--drags`` flicks
with xdotool, each in the window of the player to move (a pending ability
is declined, a board flick is the aim bot's, untimed; a round screen is
clicked away, as a player would). For each flick it takes the release (the acting window's
``sent`` trace: the moment the drag ends and the act is sent) and the
other window's first frame drawn with that flick moving (its
``first_frame`` trace); both clocks are this process's monotonic clock.
The windows run the play window's frame loop by hand, at most one frame
per 1/60 s each, as ``pyglet.app.run`` would.

Then a whole game of two ``join --bot aim`` clients and a headless
watcher over another host gives the bytes the host sent (the host's own
closing line) and the replay's size.

Usage: xvfb-run -a python benchmarks/net_latency.py [--drags 30]
Writes nothing in the repository (its files go to a temporary folder);
prints the figures.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from net_helpers import join, processes, start_host  # noqa: E402


def _drags(n: int, tmp: Path) -> list[float]:
    from warlords_sim.gui import prepare_window

    prepare_window()
    import numpy as np

    from warlords_sim.bots import make_bot
    from warlords_sim.gui.app import PlayWindow
    from warlords_sim.gui.controller import Phase
    from warlords_sim.net.client import join as connect
    from warlords_sim.rules.actions import Decline

    h = start_host(tmp, "--hand", "exact", "--record", str(tmp / "drags.jsonl"))
    out: list[float] = []
    bot, rng = make_bot("aim"), np.random.default_rng(0)
    with processes(h.proc):
        cs = [connect(h.url, h.tokens[p]) for p in (0, 1)]
        ws = [PlayWindow(c, 900, 640, rotate=True, mute=True) for c in cs]
        ws[0].set_location(0, 0)
        ws[1].set_location(920, 0)

        def frames(until: float) -> None:
            for w in ws:
                w.frame()
            time.sleep(max(0.0, min(until - time.monotonic(), 1 / 60)))

        try:
            k = 0
            end = time.monotonic() + 60 * n
            while len(out) < n and not cs[0].game.over and time.monotonic() < end:
                frames(end)
                for c in cs:
                    if c.phase is Phase.ROUND_OVER and not c.game.over:
                        c.proceed()  # the player's click on the round screen
                actor = next((i for i in (0, 1) if cs[i].is_human_turn()), None)
                if actor is None or any(c.phase is Phase.FLICKING for c in cs):
                    continue
                c, w, other = cs[actor], ws[actor], cs[1 - actor]
                legal = c.legal()
                if legal is None:
                    continue
                if legal.pending is not None or not legal.supply_spots:
                    # an ability declined, a board flick by the aim bot: not timed
                    pick = Decline() if legal.pending is not None else bot.choose(
                        c.state, legal, rng)  # fmt: skip
                    c.submit(pick)
                    continue
                area, crenelation = legal.supply_spots[k % len(legal.supply_spots)]
                seat = c.state.seat_of(c.me)
                spot = c.config.board.launch_spot(seat, area, crenelation)
                wx, wy = w.get_location()
                px, py = w.to_px(spot.x, spot.y)
                x, y = wx + round(px), wy + (w.height - round(py))
                pull = 40 + 10 * (k % 5)
                for args in (("mousemove", str(x), str(y)), ("mousedown", "1"),
                             ("mousemove", str(x), str(y + pull // 2)),
                             ("mousemove", str(x), str(y + pull)), ("mouseup", "1")):  # fmt: skip
                    subprocess.run(["xdotool", *args], check=True)
                    w.switch_to()
                    w.dispatch_events()
                k += 1
                sent = [t for e, i, t in c.trace if e == "sent"]
                if not sent or c.trace[-1][0] != "sent":
                    continue  # the drag did not flick (refused): try again
                index = c.trace[-1][1]
                released = c.trace[-1][2]
                limit = time.monotonic() + 30
                while not any(e == "first_frame" and i == index for e, i, _ in other.trace):
                    frames(limit)
                    if time.monotonic() > limit:
                        raise TimeoutError(f"flick {index}: no frame of it in P{1 - actor}'s "
                                           f"window in 30 s ({other.message})")  # fmt: skip
                first = next(t for e, i, t in other.trace if e == "first_frame" and i == index)
                out.append(first - released)
        finally:
            for w, c in zip(ws, cs, strict=True):
                w.close()
                c.link.close()
    return out


def _game_bytes(tmp: Path) -> tuple[str, int, int]:
    rec = tmp / "game.jsonl"
    h = start_host(tmp, "--hand", "exact", "--record", str(rec))
    cs = [join(tmp, h.url, "--token", t, "--bot", "aim") for t in h.tokens.values()]
    watcher = join(tmp, h.url, "--headless")
    with processes(h.proc, watcher, *cs):
        for c in (*cs, watcher):
            c.wait()
        h.proc.wait()
    m = re.search(r"sent (\d+) bytes in (\d+) messages", h.proc.text)
    assert m, h.proc.text
    return m.group(0), rec.stat().st_size, sum(1 for _ in rec.open()) - 2


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--drags", type=int, default=30)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        lat = sorted(_drags(args.drags, tmp))
        ms = [1000 * v for v in lat]
        p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
        print(f"release -> other window's first frame of the motion, {len(ms)} flicks on "
              f"loopback: median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, "
              f"max {ms[-1]:.1f} ms")  # fmt: skip
        sent, size, actions = _game_bytes(tmp)
        print(f"a whole 2-player aim game ({actions} actions) to 2 players and 1 watcher: "
              f"the host {sent}; the replay is {size} bytes")  # fmt: skip


if __name__ == "__main__":
    main()
