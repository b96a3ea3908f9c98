"""The supply launch of issue 9's "What it must show", in each engine.

``warlords-sim flick --from 0:2 --launch high --velocity 0,900 --trials N
--noise 0.05 [--engine E]``: the share ending in the thrower's own moat, the
median advance along the aim, landings per flick, the faces and their
chi-square against uniform (reported, never a target: gentle real throws
favour the starting face, Kapitaniak et al. 2012).

Usage: python benchmarks/launch_report.py [--trials 1500] [--engines 2.5d,reference]
       [--velocity 0,900] [--from 0:2] [--launch high]
Prints a Markdown table; writes nothing.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections import Counter

from scipy.stats import chisquare

from warlords_sim.board import Crenelation, load_board
from warlords_sim.cli.flick_cmd import run_trials
from warlords_sim.physics import LaunchKind, RegionKind


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--trials", type=int, default=1500, help="noisy launches per engine (default 1500)"
    )
    ap.add_argument(
        "--engines", default="2.5d,reference", help="comma-separated engines (default both)"
    )
    ap.add_argument("--velocity", default="0,900", help="VX,VY mm/s (default 0,900)")
    ap.add_argument("--from", dest="seat_area", default="0:2", help="SEAT:AREA (default 0:2)")
    ap.add_argument("--launch", default="high", choices=["high", "low"], help="crenelation")
    ap.add_argument("--noise", type=float, default=0.05, help="hand noise (default 0.05)")
    args = ap.parse_args()
    board = load_board("standard")
    vx, vy = (float(t) for t in args.velocity.split(","))
    seat, area = (int(t) for t in args.seat_area.split(":"))
    launch = LaunchKind(args.launch)
    cren = Crenelation.LOW if launch is LaunchKind.LOW else Crenelation.HIGH
    spot = board.launch_spot(seat, area, cren)
    speed = math.hypot(vx, vy)
    ux, uy = vx / speed, vy / speed
    print(
        f"flick --from {args.seat_area} --launch {args.launch} --velocity {args.velocity} "
        f"--trials {args.trials} --noise {args.noise:g}\n"
    )
    print(
        "| engine | own moat | median advance mm (IQR) | behind start | landings/flick "
        "| face kept | faces 1..6 | chi-square p | CPU s/flick |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for engine in args.engines.split(","):
        t0 = time.process_time()
        rows = run_trials(
            board,
            seat_area=(seat, area),
            velocity=(vx, vy),
            launch=launch,
            trials=args.trials,
            noise=args.noise,
            engine=engine,
        )
        cpu = (time.process_time() - t0) / len(rows)
        n = len(rows)
        moat = sum(1 for r in rows if r.region.kind is RegionKind.MOAT and r.region.seat == seat)
        on = [r for r in rows if r.region.kind is not RegionKind.OFF_BOARD]
        adv = sorted((r.x_mm - spot.x) * ux + (r.y_mm - spot.y) * uy for r in on)
        q1, q3 = adv[len(adv) // 4], adv[(3 * len(adv)) // 4]
        behind = sum(1 for a in adv if a < 0.0)
        faces = Counter(r.face for r in on)
        obs = [faces.get(f, 0) for f in range(1, 7)]
        p = float(chisquare(obs).pvalue)
        kept = sum(1 for r in on if r.face == r.initial_face)
        landings = statistics.mean(r.landings for r in rows)
        print(
            f"| {engine} | {moat / n:.3f} | {statistics.median(adv):.0f} ({q1:.0f}-{q3:.0f}) "
            f"| {behind / max(len(adv), 1):.3f} | {landings:.1f} | {kept / max(len(on), 1):.2f} "
            f"| {'/'.join(map(str, obs))} | {p:.2g} | {cpu:.3f} |"
        )


if __name__ == "__main__":
    main()
