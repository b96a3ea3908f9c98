"""Benchmark: the full fidelity run, the 2.5D model against the 3D reference.

Every shipped scenario (warlords_sim/fidelity/scenarios.toml), 200 noisy
trials on each engine by default, the same seeds on both; with the
reference as the baseline, the same trials again on the reference for each
of its unmeasured parameters' variants (fidelity.uncertainty.VARIANTS: edge
radius 0.8 and 2.4 mm, restitution 0.45 and 0.6), whose spread widens the
faces tolerances (``--no-spread`` skips them); prints the verdict as
Markdown (the table of docs/fidelity.md is regenerated from it) and the CPU
time taken per engine and flick. ``--plot DIR`` also writes one picture per
scenario (refusing to overwrite without ``--force``).

Run: python benchmarks/fidelity.py [--trials N] [--seed S] [--no-spread]
     [--engines 2.5d,reference] [--scenarios NAMES] [--plot DIR [--force]]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from warlords_sim.board import load_board
from warlords_sim.fidelity import load_scenarios, run_fidelity, select
from warlords_sim.fidelity.runner import run_scenario
from warlords_sim.fidelity.table import markdown
from warlords_sim.fidelity.uncertainty import VARIANTS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=200, help="noisy trials a scenario and engine")
    ap.add_argument("--seed", type=int, default=0, help="seed of trial 0 (default 0)")
    ap.add_argument("--engines", default="2.5d,reference", help="judged,baseline")
    ap.add_argument("--scenarios", default="all", help="names (see fidelity --list)")
    ap.add_argument("--board", default="standard", help="board name or path")
    ap.add_argument("--plot", metavar="DIR", help="write landing-cloud PNGs there")
    ap.add_argument("--force", action="store_true", help="overwrite existing PNGs")
    ap.add_argument("--no-spread", action="store_true", help="skip the reference's variants")
    args = ap.parse_args()
    board = load_board(args.board)
    scenarios = select(load_scenarios(board=board), args.scenarios)
    a, b = args.engines.split(",")
    paths: list[Path] = []
    if args.plot:
        paths = [Path(args.plot) / f"{s.name}.png" for s in scenarios]
        taken = [p for p in paths if p.exists()]
        if taken and not args.force:
            sys.exit(f"{taken[0]} exists; use --force to overwrite")
        Path(args.plot).mkdir(parents=True, exist_ok=True)

    t0 = time.process_time()
    variants = () if args.no_spread else VARIANTS
    report = run_fidelity(board, scenarios, args.trials, args.seed, (a, b), variants=variants)
    total = time.process_time() - t0
    print(markdown(report))
    # the cost of each engine alone: one more scenario-trial on each (a small sample)
    for engine in dict.fromkeys((a, b)):
        t1 = time.process_time()
        n = 0
        for sc in scenarios:
            n += len(run_scenario(board, sc, engine, min(args.trials, 5), args.seed))
        per = (time.process_time() - t1) / n * 1e3
        print(f"{engine}: {per:.1f} ms CPU per flick (set-up included, {n} flicks)")
    flicks = (2 + len(report.variants)) * len(scenarios) * args.trials
    print(f"whole run: {total:.1f} s CPU for {flicks} flicks")
    if args.plot:
        from warlords_sim.fidelity.plot import scenario_plot

        for sr, path in zip(report.scenarios, paths, strict=True):
            scenario_plot(board, sr, report.engines, path)
        print(f"wrote {len(paths)} PNGs to {args.plot}")


if __name__ == "__main__":
    main()
