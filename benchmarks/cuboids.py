"""Benchmark: cuboid dice tossed in the 3D reference engine against the
published experiment.

Measured: 15 steel cuboids y x y x x (two square y x y faces), tossed by
hand onto a hard surface; p(square face up) from 275-1,011 rolls each
(Mathematical Gazette 97, note 97.16, March 2013, table 1; more data in
Riemer, Stoyan and Obreschkow, "Cuboidal dice and Gibbs distributions",
Metrika 2013).

Simulated: the reference engine's die model and contact
(:mod:`warlords_sim.reference.toss`): y = 16 mm, x = ratio * y, steel
(7.85 g/cm3), edges rounded to 0.5 mm (machined steel), restitution 0.5 and
kinetic friction 0.3 on the surface (generic hard surface: engineering
tables; the paper names neither), dropped from 300 mm (hand height) with a
uniformly random orientation, a spin uniform in 0-20 rad/s about a random
axis and normal(0, 200 mm/s) sideways speed. Nothing here is fitted to the
measured p.

Prints a table: ratio, measured p with its 95 % Wilson interval, simulated
p with its interval, the difference and whether it is within 0.05. With
--plot OUT.png also draws both against x/y (written only there; an existing
OUT.png only with --force).

Run: python benchmarks/cuboids.py [--tosses N] [--seed S] [--plot OUT.png [--force]]
"""

from __future__ import annotations

import argparse
import math
import os
import time

import numpy as np

from warlords_sim.reference.solver import TIMESTEP
from warlords_sim.reference.toss import TossSetup, square_face_share, toss

RATIOS = (0.47, 0.63, 0.75, 0.81, 0.93, 0.97, 1.16, 1.23, 1.44, 1.55, 1.60, 1.71, 1.87, 2.12, 2.65)
MEASURED = (
    0.916, 0.738, 0.548, 0.496, 0.399, 0.385, 0.148, 0.154,
    0.052, 0.040, 0.017, 0.031, 0.009, 0.007, 0.006,
)  # fmt: skip
ROLLS = (332, 840, 799, 740, 516, 530, 1011, 532, 654, 606, 702, 609, 680, 275, 503)
SIDE_MM = 16.0
STEEL_G_MM3 = 7.85e-3
EDGE_RADIUS_MM = 0.5
RESTITUTION = 0.5
FRICTION = 0.3
TOLERANCE = 0.05


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a binomial share ``p`` of ``n`` trials."""
    if n == 0:
        return (math.nan, math.nan)
    den = 1.0 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


def simulate(ratio: float, tosses: int, seed: int, timestep: float) -> float:
    """Share of ``tosses`` of the x/y = ``ratio`` cuboid landing square face up."""
    x = ratio * SIDE_MM
    sides = (SIDE_MM, SIDE_MM, x)
    setup = TossSetup(
        sides,
        EDGE_RADIUS_MM,
        STEEL_G_MM3 * SIDE_MM * SIDE_MM * x,
        RESTITUTION,
        FRICTION,
        timestep,
    )
    rng = np.random.default_rng([seed, round(ratio * 100)])
    return square_face_share([toss(setup, rng) for _ in range(tosses)])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tosses", type=int, default=500, help="tosses per cuboid (default 500)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--timestep", type=float, default=TIMESTEP, help="physics step, s (the reference's)"
    )
    ap.add_argument("--plot", metavar="OUT.png", help="write a plot of both to OUT.png")
    ap.add_argument("--force", action="store_true", help="with --plot: overwrite OUT.png")
    args = ap.parse_args()
    if args.tosses < 1:
        ap.error(f"--tosses must be at least 1, got {args.tosses}")
    if args.plot and os.path.exists(args.plot) and not args.force:
        ap.error(f"--plot {args.plot}: the file already exists; "
                 "pass --force to overwrite it or pick another path")  # fmt: skip
    sims = []
    t0 = time.process_time()
    print(f"{args.tosses} tosses per cuboid, timestep {args.timestep * 1e3:g} ms")
    print(" x/y  measured p  (95% CI)        simulated p (95% CI)        diff   within 0.05")
    for ratio, p, n in zip(RATIOS, MEASURED, ROLLS, strict=True):
        s = simulate(ratio, args.tosses, args.seed, args.timestep)
        sims.append(s)
        lo, hi = wilson(p, n)
        slo, shi = wilson(s, args.tosses)
        ok = "yes" if abs(s - p) <= TOLERANCE else "NO"
        print(
            f"{ratio:4.2f}  {p:.3f} ({lo:.3f}-{hi:.3f})  n={n:<5d}"
            f"{s:.3f} ({slo:.3f}-{shi:.3f})       {s - p:+.3f}  {ok}"
        )
    within = sum(abs(s - p) <= TOLERANCE for s, p in zip(sims, MEASURED, strict=True))
    print(f"within {TOLERANCE}: {within} of {len(RATIOS)}; CPU {time.process_time() - t0:.1f} s")
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(7, 4.5))
        err = np.array(
            [
                [p - wilson(p, n)[0], wilson(p, n)[1] - p]
                for p, n in zip(MEASURED, ROLLS, strict=True)
            ]
        ).T
        ax.errorbar(RATIOS, MEASURED, yerr=err, fmt="o", label="measured (Math. Gazette 97.16)")
        serr = np.array(
            [[s - wilson(s, args.tosses)[0], wilson(s, args.tosses)[1] - s] for s in sims]
        ).T
        ax.errorbar(
            RATIOS, sims, yerr=serr, fmt="s", label=f"reference engine ({args.tosses} tosses)"
        )
        ax.set_xlabel("x / y (long side over square side)")
        ax.set_ylabel("p(square face up)")
        ax.set_title("Cuboid dice: reference engine vs tosses (95 % intervals)")
        ax.grid(alpha=0.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.plot, dpi=120)
        print(f"wrote {args.plot}")


if __name__ == "__main__":
    main()
