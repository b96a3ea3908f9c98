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

``--cache DIR`` (outside the repository) keeps the reference's outcomes,
one JSON file per scenario, board variant, trial count and seed, named by a
hash of the reference's model version, the board and the scenario: a rerun
after a change of the 2.5D model simulates only the 2.5D (the reference's
~30 CPU minutes at 40 trials are read back). Only the reference is kept.

Run: python benchmarks/fidelity.py [--trials N] [--seed S] [--no-spread]
     [--engines 2.5d,reference] [--scenarios NAMES] [--plot DIR [--force]]
     [--cache DIR]
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from warlords_sim.board import Board, load_board
from warlords_sim.fidelity import load_scenarios, run_fidelity, select
from warlords_sim.fidelity.runner import TrialOutcome, run_scenario
from warlords_sim.fidelity.scenarios import Scenario
from warlords_sim.fidelity.table import markdown
from warlords_sim.fidelity.uncertainty import VARIANTS

CACHED = "reference"


def cache_key(version: str, board: Board, sc: Scenario, trials: int, seed: int) -> str:
    """What the reference's outcomes depend on, hashed: its model version,
    the board's and the scenario's data (not where they were read from)."""
    what = (
        version,
        dataclasses.replace(board, path=""),
        dataclasses.replace(sc, path=""),
        trials,
        seed,
    )
    return hashlib.sha256(repr(what).encode()).hexdigest()[:20]


def caching_runner(folder: Path):  # type: ignore[no-untyped-def]
    """``run_scenario`` that keeps and reads back the reference's outcomes in
    ``folder`` (see the module docstring)."""
    from warlords_sim.reference import MODEL_VERSION

    folder.mkdir(parents=True, exist_ok=True)

    def run(
        board: Board,
        sc: Scenario,
        engine: str,
        trials: int,
        seed: int,
        on_trial: Callable[[], None] | None = None,
    ) -> tuple[TrialOutcome, ...]:
        if engine != CACHED:
            return run_scenario(board, sc, engine, trials, seed, on_trial)
        key = cache_key(MODEL_VERSION, board, sc, trials, seed)
        path = folder / f"{sc.name}-{board.name}-{trials}-{seed}-{key}.json"
        if path.exists():
            rows = json.loads(path.read_text())
            outs = tuple(TrialOutcome(**{**r, "velocity": tuple(r["velocity"])}) for r in rows)
            if on_trial is not None:
                for _ in outs:
                    on_trial()
            return outs
        outs = run_scenario(board, sc, engine, trials, seed, on_trial)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps([dataclasses.asdict(o) for o in outs]))
        tmp.replace(path)
        return outs

    return run


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
    ap.add_argument("--cache", metavar="DIR", help="keep/read the reference's outcomes there")
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
    runner = caching_runner(Path(args.cache)) if args.cache else run_scenario
    report = run_fidelity(
        board, scenarios, args.trials, args.seed, (a, b), variants=variants, runner=runner
    )
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
    kept = " (the reference's outcomes read back from --cache where kept)" if args.cache else ""
    print(f"whole run: {total:.1f} s CPU for {flicks} flicks{kept}")
    if args.plot:
        from warlords_sim.fidelity.plot import scenario_plot

        for sr, path in zip(report.scenarios, paths, strict=True):
            scenario_plot(board, sr, report.engines, path)
        print(f"wrote {len(paths)} PNGs to {args.plot}")


if __name__ == "__main__":
    main()
