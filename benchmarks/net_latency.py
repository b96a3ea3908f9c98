"""Network play on loopback: from a release in one window to the other
window's first frame of the motion, and the bytes a game sends.

Starts ``warlords-sim host`` (2 humans, hand exact) and two play windows,
each in a process of its own as two players' ``join`` would be (P0's and
P1's, on the display in ``DISPLAY``: run under ``xvfb-run -a``). Each
window plays its own seat: when its turn has waited 0.5 s (a person's
pause) it flicks from its supply with a drag made by xdotool (a pending
ability is declined and a board flick is the aim bot's, neither timed);
a round screen is clicked away at once. Each process runs the play
window's frame loop by hand (at most one frame per 1/60 s, as
``pyglet.app.run`` would) and writes its trace: for every action, when
its own act was sent (the release), when the host's ``begun`` arrived,
when the flick started and when its first frame was shown, on the
system's monotonic clock, which the two processes share. A flick's
latency is the actor's release to the other window's first frame.
When a game ends before ``--drags`` timed flicks, another one starts.

Then a whole game of two ``join --bot aim`` clients and a headless
watcher over another host gives the bytes the host sent (the host's own
closing line) and the replay's size.

Usage: xvfb-run -a python benchmarks/net_latency.py [--drags 30]
Writes nothing in the repository (its files go to a temporary folder);
prints the figures.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from net_helpers import join, processes, start_host  # noqa: E402

#: A person's pause before a flick (s): the actor does not flick into the
#: other window's last frames of the previous one.
PAUSE = 0.5


def _window(url: str, token: str, x0: int, out: Path, n: int) -> None:
    """One player's window (in its own process): plays its seat by drags
    until the game ends, the host closes or ``n`` flicks were dragged by
    anybody (the host's line count), then writes its trace to ``out``."""
    from warlords_sim.gui import prepare_window

    prepare_window()
    import numpy as np

    from warlords_sim.bots import make_bot
    from warlords_sim.gui.app import PlayWindow
    from warlords_sim.gui.controller import Phase
    from warlords_sim.net.client import join as connect
    from warlords_sim.rules.actions import Decline

    c = connect(url, token)
    w = PlayWindow(c, 900, 640, rotate=True, mute=True)
    w.set_location(x0, 0)
    bot, rng = make_bot("aim"), np.random.default_rng(0)
    dragged: list[int] = []
    k, ready_at = 0, None
    end = time.monotonic() + 900
    try:
        while not c.game.over and c.closed is None and time.monotonic() < end:
            if c.phase is Phase.ROUND_OVER:
                c.proceed()  # the player's click on the round screen, at once
            w.frame()
            time.sleep(1 / 60)
            if not c.is_human_turn() or c.state.active != c.me:
                ready_at = None
                continue
            ready_at = ready_at or time.monotonic()
            if time.monotonic() - ready_at < PAUSE:
                continue
            ready_at = None
            legal = c.legal()
            if legal is None:
                continue
            if legal.pending is not None or not legal.supply_spots:
                c.submit(Decline() if legal.pending is not None else bot.choose(
                    c.state, legal, rng))  # fmt: skip
                continue
            area, crenelation = legal.supply_spots[k % len(legal.supply_spots)]
            spot = c.config.board.launch_spot(c.state.seat_of(c.me), area, crenelation)
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
            if c.trace and c.trace[-1][0] == "sent":
                dragged.append(c.trace[-1][1])
            if c.index >= n * 4:  # enough for anybody: both windows stop soon after
                break
    finally:
        out.write_text(json.dumps({"trace": c.trace, "dragged": dragged, "over": c.game.over}))
        w.close()
        c.link.close()


def _one_game(tmp: Path, game: int) -> list[tuple[float, ...]]:
    """A game of two windows: per dragged flick, the time from the release
    to the other window's ``begun``, ``started`` and ``first_frame``."""
    h = start_host(tmp, "--hand", "exact", "--record", str(tmp / f"drags-{game}.jsonl"))
    outs = [tmp / f"window-{game}-{p}.json" for p in (0, 1)]
    with processes(h.proc):
        ws = [subprocess.Popen([sys.executable, __file__, "--window", h.url, h.tokens[p],
                                str(920 * p), str(outs[p])]) for p in (0, 1)]  # fmt: skip
        try:
            for p in ws:
                p.wait(1200)
        finally:
            for p in ws:
                p.kill()
    data = [json.loads(o.read_text()) for o in outs]
    rows = []
    for me, other in ((0, 1), (1, 0)):
        sent = {i: t for e, i, t in data[me]["trace"] if e == "sent"}
        seen = {(e, i): t for e, i, t in data[other]["trace"]}
        for i in data[me]["dragged"]:
            if ("first_frame", i) in seen:
                rows.append(tuple(seen[(e, i)] - sent[i] for e in ("first_frame", "begun",
                                                                   "started")))  # fmt: skip
    return rows


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
    if sys.argv[1:2] == ["--window"]:
        url, token, x0, out = sys.argv[2:6]
        _window(url, token, int(x0), Path(out), 10**6)
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--drags", type=int, default=30, help="timed flicks (default 30)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        timed: list[tuple[float, ...]] = []
        game = 0
        while len(timed) < args.drags:
            got = _one_game(tmp, game)
            if not got:
                raise RuntimeError("a whole game gave no timed flick")
            timed += got
            game += 1
        print(f"{len(timed)} dragged flicks in {game} games, each window in its own process:")
        for what, col in (("release -> the other window's first frame of the motion", 0),
                          ("release -> the host's 'begun' reaching the other window", 1),
                          ("release -> the flick started in the other window", 2)):  # fmt: skip
            ms = sorted(1000 * t[col] for t in timed)
            p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
            print(f"  {what}: median {statistics.median(ms):.1f} ms, "
                  f"p95 {p95:.1f} ms, max {ms[-1]:.1f} ms")  # fmt: skip
        sent, size, actions = _game_bytes(tmp)
        print(f"a whole 2-player aim game ({actions} actions) to 2 players and 1 watcher: "
              f"the host {sent}; the replay is {size} bytes")  # fmt: skip


if __name__ == "__main__":
    main()
