"""Cost of a flick against the dice at rest on the board and the flick's speed,
in each engine (issue 10, target 2).

For every cell: the standard board with its 12 centre-ring pins and D dice
scattered at rest in the open middle (the set-up of benchmarks/flick.py), and
N supply launches from the seats' middle high crenelations, alternately,
straight out at the speed given with a seeded spread of direction of 0.1
rad. Each flick starts from the same set-up (a copy), so the cells are
alike but for D and the speed. Prints the median CPU time per flick (ms) as
a Markdown table per engine, and the median steps.

Usage: python benchmarks/scaling.py [--flicks N] [--engines 2.5d,reference]
       [--dice 0,8,16,24] [--speeds 300,900,2000]
Prints; writes nothing.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

import numpy as np

from warlords_sim.board import Crenelation, load_board
from warlords_sim.physics import Flick, LaunchKind
from warlords_sim.rules.physics_port import Physics, make_world


def scatter(world: Physics, n: int, rng: np.random.Generator) -> None:
    """``n`` dice at random free places in the open middle of the board."""
    placed = 0
    while placed < n:
        x, y = (float(v) for v in rng.uniform(-160.0, 160.0, 2))
        if world.free_spot_near(x, y, 22.0) == (x, y):
            world.add_die(100 + placed, x, y, int(rng.integers(1, 7)))
            placed += 1


def cell(engine: str, dice: int, speed: float, flicks: int) -> tuple[float, float]:
    """Median CPU ms per flick and median steps, for one engine, dice count and speed."""
    board = load_board("standard")
    base = make_world(board, engine)
    for seat in range(4):
        for hole in board.center_ring.pins_by_seat[seat]:
            base.add_pin(hole)
    scatter(base, dice, np.random.default_rng(dice))
    rng = np.random.default_rng(7)
    cpu, steps = [], []
    for i in range(flicks):
        spot = board.launch_spot(i % 4, 2, Crenelation.HIGH)
        heading = math.atan2(spot.outward[1], spot.outward[0]) + float(rng.normal(0.0, 0.1))
        fl = Flick(
            1,
            (speed * math.cos(heading), speed * math.sin(heading)),
            0.0,
            LaunchKind.HIGH,
            (spot.x, spot.y),
            spot.height_mm,
        )
        world = base.copy()
        t0 = time.process_time()
        res = world.flick(fl, face=1)
        cpu.append((time.process_time() - t0) * 1e3)
        steps.append(res.steps)
    return statistics.median(cpu), statistics.median(steps)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--flicks", type=int, default=12, help="flicks a cell (default 12)")
    ap.add_argument("--engines", default="2.5d,reference", help="comma-separated engines")
    ap.add_argument("--dice", default="0,8,16,24", help="dice at rest, comma-separated")
    ap.add_argument("--speeds", default="300,900,2000", help="flick speeds mm/s, comma-separated")
    args = ap.parse_args()
    dice = [int(t) for t in args.dice.split(",")]
    speeds = [float(t) for t in args.speeds.split(",")]
    for engine in args.engines.split(","):
        print(f"\n{engine}: median CPU ms per flick (median steps), {args.flicks} flicks a cell\n")
        print("| dice at rest | " + " | ".join(f"{s:.0f} mm/s" for s in speeds) + " |")
        print("|---|" + "---|" * len(speeds))
        for n in dice:
            row = [cell(engine, n, s, args.flicks) for s in speeds]
            print(f"| {n} | " + " | ".join(f"{ms:.1f} ({st:.0f})" for ms, st in row) + " |")


if __name__ == "__main__":
    main()
