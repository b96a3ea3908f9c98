"""How far one pixel of drag moves a flick's landing, in each engine.

In the window a flick is a slingshot: velocity = drag (mm) x GAIN (1/s), and
at the default window size one pixel of drag is about 0.8 mm of board, so
about 8 mm/s of flick velocity (gui/input.py). A player can aim a flick when
a one-pixel change moves the landing by about as much as it would move a
real die. This prints, for supply flicks from seat 0's middle high
crenelation and for board (table) flicks, the landing shift for one pixel
more power (along the aim) and one pixel sideways (across it), as the median
and 90th percentile over a sweep of base speeds, for each engine.

Usage: python benchmarks/aim.py [--engines 2.5d,reference] [--px-mm-s 8]
Prints a Markdown table; writes nothing.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from warlords_sim.board import Board, Crenelation, load_board
from warlords_sim.physics import Flick, LaunchKind
from warlords_sim.rules.physics_port import Physics, make_world


def standard_world(board: Board, engine: str) -> Physics:
    """All four castles and every seat's three centre-ring pins."""
    world = make_world(board, engine)
    for seat in range(4):
        for hole in board.center_ring.pins_by_seat[seat]:
            world.add_pin(hole)
    return world


def landing(board: Board, engine: str, kind: str, vx: float, vy: float) -> tuple[float, float]:
    """Where the flicked die rests (mm); (nan, nan) if it left the board."""
    world = standard_world(board, engine)
    if kind == "supply":
        spot = board.launch_spot(0, 2, Crenelation.HIGH)
        flick = Flick(
            1, (vx, vy), launch=LaunchKind.HIGH, start=(spot.x, spot.y), height_mm=spot.height_mm
        )
        res = world.flick(flick, face=1)
    else:
        world.add_die(1, 0.0, -150.0)
        res = world.flick(Flick(1, (vx, vy)))
    pose = res.pose
    return (math.nan, math.nan) if pose is None else (pose.x, pose.y)


def sweep(
    board: Board, engine: str, kind: str, px: float
) -> tuple[list[float], list[float], float]:
    """Shifts (mm) per pixel along and across the aim over the base speeds,
    and the CPU seconds it took."""
    t0 = time.process_time()
    along, across = [], []
    speeds = [600.0 + 50.0 * i for i in range(17)]  # 600 .. 1400 mm/s
    for v in speeds:
        base = landing(board, engine, kind, 0.0, v)
        more = landing(board, engine, kind, 0.0, v + px)
        side = landing(board, engine, kind, px, v)
        along.append(math.dist(base, more))
        across.append(math.dist(base, side))
    return along, across, time.process_time() - t0


def _stats(xs: list[float]) -> str:
    ok = sorted(x for x in xs if math.isfinite(x))
    if not ok:
        return "-"
    p90 = ok[min(len(ok) - 1, int(0.9 * len(ok)))]
    return f"{statistics.median(ok):.1f} / {p90:.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--engines", default="2.5d,reference", help="comma-separated engines (default both)"
    )
    ap.add_argument("--px-mm-s", type=float, default=8.0, help="flick speed per pixel of drag")
    args = ap.parse_args()
    board = load_board("standard")
    print(f"One pixel = {args.px_mm_s:g} mm/s; base speeds 600..1400 mm/s along +y (17 of them).")
    print("Landing shift per pixel, mm (median / 90th percentile):\n")
    print("| flick | engine | one px more power | one px sideways | CPU s |")
    print("|---|---|---|---|---|")
    for kind in ("supply", "board"):
        for engine in args.engines.split(","):
            along, across, cpu = sweep(board, engine, kind, args.px_mm_s)
            print(f"| {kind} | {engine} | {_stats(along)} | {_stats(across)} | {cpu:.1f} |")


if __name__ == "__main__":
    main()
