"""What a player and a lab see of the die (issue 19, item 4), in each engine.

Three tables, printed as Markdown (docs/physics.md, "What a player sees of
the die"):

1. **Launches that keep their face**, by launch kind and speed: the suite's
   launch set-ups (``high-2-900`` and ``low-2-900``: seat 0, area 2 of the
   standard board; ``siege-over-wall-800``: the siege engine at (0, -150)
   shooting at seat 0's castle) at 300, 600, 900, 1200, 1500 and 1800 mm/s
   along their aim, face 6 up at launch (the supply face), hand noise 0.05.
   "Kept" means the 6 is still up at rest; a die that left the board kept
   nothing (its share is printed beside).
2. **Board flicks that change face**, by speed and strike: a die flicked
   from (150, -150) along +y (the suite's ``strike-*`` set-up) at 300, 900
   and 1500 mm/s with the finger's strike height -8, -4, 0, 4 and 8 mm
   above the die's centre, face 1 up: the share whose face at rest is not
   1, and the median travel (distance from the start to where it rested or
   left the board, mm).
3. **The issue's struck flick** (``flick --at 230,-240 --velocity -2000,0
   --strike 8 --face 1 --noise 0.1``): faces at rest, travel, where.

Each trial i draws its hand noise from ``default_rng(seed + i)``, the same in
both engines (:func:`warlords_sim.fidelity.runner.run_scenario`). Shares come
with their 95 % Wilson interval. Whatever the physics gives is the answer:
nothing here is a target.

Usage: python benchmarks/face_keep.py [--engines 2.5d,reference]
           [--trials 100] [--reference-trials 30] [--seed 0]
Prints the tables and the CPU time; writes nothing.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections import Counter
from dataclasses import replace

from rich.progress import Progress

from warlords_sim.board import load_board
from warlords_sim.experiments.stats import wilson
from warlords_sim.fidelity.runner import TrialOutcome, run_scenario
from warlords_sim.fidelity.scenarios import Scenario, load_scenarios

SPEEDS = (300.0, 600.0, 900.0, 1200.0, 1500.0, 1800.0)
KINDS = (("high", "high-2-900"), ("low", "low-2-900"), ("siege", "siege-over-wall-800"))
BOARD_SPEEDS = (300.0, 900.0, 1500.0)
STRIKES = (-8.0, -4.0, 0.0, 4.0, 8.0)
SUPPLY_FACE = 6


def _at_speed(sc: Scenario, speed: float, face: int, **flick: object) -> Scenario:
    f = sc.flick
    aim = f.aim
    v = (aim[0] * speed, aim[1] * speed)
    return replace(sc, flick=replace(f, velocity=v, face=face, **flick))  # type: ignore[arg-type]


def _share(k: int, n: int) -> str:
    rate, lo, hi = wilson(k, n)
    if rate is None or lo is None or hi is None:
        return "-"
    return f"{rate:.2f} ({lo:.2f}-{hi:.2f})"


def _travel(o: TrialOutcome) -> float:
    return math.hypot(o.along, o.across)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engines", default="2.5d,reference", help="comma-separated (default both)")
    ap.add_argument("--trials", type=int, default=100, help="2.5D trials a cell (default 100)")
    ap.add_argument(
        "--reference-trials", type=int, default=30, help="reference trials a cell (default 30)"
    )
    ap.add_argument("--seed", type=int, default=0, help="first noise seed (default 0)")
    args = ap.parse_args()
    if args.trials < 1 or args.reference_trials < 1:
        ap.error("--trials and --reference-trials must be at least 1")
    board = load_board("standard")
    by_name = {s.name: s for s in load_scenarios(board=board)}
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    strike_base = by_name["strike-high-300"]
    struck = replace(
        strike_base,
        name="struck-2000",
        noise=0.1,
        flick=replace(
            strike_base.flick, at=(230.0, -240.0), velocity=(-2000.0, 0.0), strike_mm=8.0, face=1
        ),
    )
    jobs: list[tuple[str, str, Scenario]] = []
    for kind, name in KINDS:
        for v in SPEEDS:
            jobs.append(("launch", f"{kind} {v:.0f}", _at_speed(by_name[name], v, SUPPLY_FACE)))
    for v in BOARD_SPEEDS:
        for s in STRIKES:
            sc = _at_speed(strike_base, v, 1, strike_mm=s)
            jobs.append(("board", f"{v:.0f} {s:+.0f}", sc))
    jobs.append(("struck", "struck", struck))

    results: dict[tuple[str, str], tuple[TrialOutcome, ...]] = {}
    cpu: dict[str, float] = {}
    with Progress(transient=True) as bar:
        for engine in engines:
            n = args.trials if engine == "2.5d" else args.reference_trials
            task = bar.add_task(engine, total=len(jobs) * n)
            t0 = time.process_time()
            for _, label, sc in jobs:
                results[(engine, label)] = run_scenario(
                    board, sc, engine, n, args.seed, lambda t=task: bar.advance(t)
                )
            cpu[engine] = time.process_time() - t0

    print("### Launches that keep their face (face 6 up at launch)\n")
    head = " | ".join(f"{e}: kept (95 %) | off board" for e in engines)
    print(f"| launch | speed mm/s | {head} |")
    print("|---|--:|" + "--:|--:|" * len(engines))
    for kind, _ in KINDS:
        for v in SPEEDS:
            cells = []
            for e in engines:
                outs = results[(e, f"{kind} {v:.0f}")]
                kept = sum(1 for o in outs if not o.exited and o.face == SUPPLY_FACE)
                off = sum(1 for o in outs if o.exited)
                cells += [_share(kept, len(outs)), f"{off}/{len(outs)}"]
            print(f"| {kind} | {v:.0f} | " + " | ".join(cells) + " |")

    print("\n### Board flicks that change face (face 1 up, from (150, -150) along +y)\n")
    head = " | ".join(f"{e}: changed (95 %) | travel mm" for e in engines)
    print(f"| speed mm/s | strike mm | {head} |")
    print("|--:|--:|" + "--:|--:|" * len(engines))
    for v in BOARD_SPEEDS:
        for s in STRIKES:
            cells = []
            for e in engines:
                outs = results[(e, f"{v:.0f} {s:+.0f}")]
                changed = sum(1 for o in outs if o.face != o.initial_face)
                cells += [
                    _share(changed, len(outs)),
                    f"{statistics.median(_travel(o) for o in outs):.0f}",
                ]
            print(f"| {v:.0f} | {s:+.0f} | " + " | ".join(cells) + " |")

    print(
        "\n### The struck flick (`flick --at 230,-240 --velocity -2000,0 --strike 8 "
        "--face 1 --noise 0.1`)\n"
    )
    print("| engine | trials | faces at rest (face: count) | travel mm, median (min-max) | where |")
    print("|---|--:|---|---|---|")
    for e in engines:
        outs = results[(e, "struck")]
        faces = Counter(o.face for o in outs)
        where = Counter("off board" if o.exited else o.region.split(":")[0] for o in outs)
        t = [_travel(o) for o in outs]
        print(
            f"| {e} | {len(outs)} | "
            + " ".join(f"{f}:{faces[f]}" for f in sorted(faces))
            + f" | {statistics.median(t):.0f} ({min(t):.0f}-{max(t):.0f}) | "
            + ", ".join(f"{k} {c}" for k, c in where.most_common())
            + " |"
        )
    print()
    for e in engines:
        print(f"{e}: {cpu[e]:.1f} s CPU")


if __name__ == "__main__":
    main()
