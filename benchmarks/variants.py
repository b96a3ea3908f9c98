"""Games per minute of ``warlords-sim variants`` for 4-player aim-bot games
with 1 and 2 local workers, and the speed-up.

Run:  python benchmarks/variants.py [--games N] [--workers 1,2]
Goal: a speed-up of at least 1.7 with 2 workers on 2 cores.

Each figure is wall time from handing the specs to the runner until the last
row is back, so it includes starting the worker processes and their one-off
launch-table measurements. The same games are played each time (same seeds),
and their rows are checked to be identical.
"""

from __future__ import annotations

import argparse
import os
import time

from warlords_sim.experiments import Experiment, builtin_variant, run_games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=24, help="games per run (default 24)")
    parser.add_argument("--workers", default="1,2", help="worker counts to time (default 1,2)")
    args = parser.parse_args()
    exp = Experiment((builtin_variant("standard"),), players=4, games=args.games)
    specs = exp.specs()
    counts = [int(w) for w in args.workers.split(",")]
    rates: dict[int, float] = {}
    results: dict[int, list[dict[str, object]]] = {}
    for w in counts:
        rows: list[dict[str, object]] = []
        t = time.perf_counter()
        run_games(specs, rows.append, workers=w)
        dt = time.perf_counter() - t
        rates[w] = len(rows) / dt * 60.0
        results[w] = sorted(rows, key=lambda r: int(str(r["index"])))
        flicks = sum(int(str(r["flicks"])) for r in rows) / len(rows)
        print(
            f"{w} worker{'s' if w > 1 else ' '}: {rates[w]:6.1f} games/min "
            f"({len(rows)} 4-player aim-bot games in {dt:.1f} s, {flicks:.0f} flicks a game)"
        )
    first = results[counts[0]]
    assert all(r == first for r in results.values()), "rows differ between worker counts"
    if 1 in rates and len(rates) > 1:
        best = max(w for w in rates if w != 1)
        print(f"speed-up with {best} workers: {rates[best] / rates[1]:.2f}")
    print(f"({os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at the end)")


if __name__ == "__main__":
    main()
