"""Start-up: the CPU time of ``warlords-sim --help``, of every subcommand's
``--help`` and of ``board --json``, each in a fresh interpreter.

CPU time (user + system) of the child process, from ``getrusage``; the
median of ``--runs`` runs. ``python -c pass`` is the interpreter's own
start-up, for scale. With ``--against PATH`` (another checkout, e.g. the
main one before a change) every command is also timed with that checkout's
``warlords_sim`` first on the path, the two interleaved run by run, and the
ratio after / before printed.

Run:  python benchmarks/startup.py [--runs N] [--against /work/main]
Goal: ``warlords-sim --help`` < 0.12 s CPU (issue 10, target 4).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUBCOMMANDS = ("board", "fidelity", "flick", "play", "render", "replay", "simulate", "variants")
GOAL_S = 0.12
_RUN = "import sys; from warlords_sim.cli import main; sys.argv[0] = 'warlords-sim'; main()"


def _cpu(argv: list[str], checkout: Path) -> float:
    """CPU seconds (user + system) of one run of ``argv`` with ``checkout``
    first on the path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(checkout), env.get("PYTHONPATH", "")]).rstrip(
        os.pathsep
    )
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(argv, cwd=checkout, env=env, capture_output=True, timeout=120)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed in {checkout}:\n{proc.stderr.decode()}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7, help="Runs per command (median).")
    parser.add_argument(
        "--against", type=Path, default=None, help="Another checkout to time as 'before'."
    )
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs: expected at least 1")
    checkouts = [ROOT] if args.against is None else [args.against.resolve(), ROOT]
    cases: list[tuple[str, list[str]]] = [("python -c pass", [sys.executable, "-c", "pass"])]
    for label in (["--help"], *([c, "--help"] for c in SUBCOMMANDS), ["board", "--json"]):
        cases.append(("warlords-sim " + " ".join(label), [sys.executable, "-c", _RUN, *label]))

    width = max(len(name) for name, _ in cases)
    if args.against is None:
        print(f"{'command':<{width}}  CPU s (median of {args.runs})")
    else:
        print(f"{'command':<{width}}  before s  after s  after/before  (median of {args.runs})")
        print(f"{'':<{width}}  before: {checkouts[0]}\n{'':<{width}}  after:  {checkouts[1]}")
    help_s = 0.0
    for name, argv in cases:
        times: list[list[float]] = [[] for _ in checkouts]
        for _ in range(args.runs):
            for i, checkout in enumerate(checkouts):  # interleaved
                times[i].append(_cpu(argv, checkout))
        med = [statistics.median(t) for t in times]
        if name == "warlords-sim --help":
            help_s = med[-1]
        if args.against is None:
            print(f"{name:<{width}}  {med[0]:.3f}")
        else:
            print(f"{name:<{width}}  {med[0]:8.3f}  {med[1]:7.3f}  {med[1] / med[0]:12.2f}")
    verdict = "met" if help_s < GOAL_S else "NOT met"
    print(f"goal: warlords-sim --help < {GOAL_S} s CPU: {help_s:.3f} s, {verdict}")


if __name__ == "__main__":
    main()
