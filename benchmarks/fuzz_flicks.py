"""Fuzzed flicks of every launch kind, with strikes: crashes, overlaps at
rest and energy gains (issue 19, "What it must show").

    python benchmarks/fuzz_flicks.py [--flicks 10000] [--seed 0] [--gain 0.01]

Each flick: the standard board with the centre-ring pins, two resting dice
near the flicked one (so that rolls shove touching dice), one die flicked
from the table (strike -8..8 mm, half of them struck), a low or high
crenelation or the siege engine, at 100-2000 mm/s with spin. Reported:

* crashes: any exception from the physics;
* overlaps: a settled die reaching more than 0.1 mm into a wall, pin, the
  engine or a die at its height (board data, footprints shrunk by 0.1 mm);
* energy gains: the dice's total energy (``World.energy``: kinetic plus
  potential) exceeding its value one step after the launch by more than
  ``--gain`` of it, at any step (the launch itself gives the energy).

Writes nothing; prints the counts and the worst cases, with a progress bar.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter

import numpy as np
from rich.progress import track

from warlords_sim.board import Board, Crenelation, load_board
from warlords_sim.physics import Flick, LaunchKind, World, WorldError
from warlords_sim.physics.footprint import die_footprint, what_overlaps

KINDS = (LaunchKind.TABLE, LaunchKind.LOW, LaunchKind.HIGH, LaunchKind.SIEGE)


def _world(board: Board) -> World:
    w = World(board)
    for seat in range(4):
        for hole in board.center_ring.pins_by_seat[seat]:
            w.add_pin(hole)
    return w


def _overlaps(board: Board, w: World) -> list[str]:
    out = []
    size = board.die.size_mm - 0.2  # more than 0.1 mm deep on a side
    polys = {i: die_footprint((size,) * 3, p.x, p.y, w.orientation(i)) for i in w.dice
             for p in (w.pose(i),) if p.elevation_mm == 0.0}  # fmt: skip
    for i, poly in polys.items():
        others = {j: q for j, q in polys.items() if j != i}
        hit = what_overlaps(
            poly, board, w.castle_seats, w.side_walls, w.pins, w.siege_engine, others
        )
        if hit is not None:
            out.append(f"die {i} in {hit}")
    return out


def one(board: Board, rng: np.random.Generator) -> tuple[str, float, str]:
    """('ok' | 'crash' | 'overlap' | 'gain' | 'skip', worst gain, detail)."""
    w = _world(board)
    kind = KINDS[int(rng.integers(len(KINDS)))]
    h = board.half_size_mm * 0.8
    speed = float(rng.uniform(100.0, 2000.0))
    a = float(rng.uniform(0.0, 2.0 * math.pi))
    v = (speed * math.cos(a), speed * math.sin(a))
    spin = float(rng.uniform(-30.0, 30.0))
    strike = float(rng.uniform(-8.0, 8.0)) if rng.random() < 0.5 else 0.0
    face = int(rng.integers(1, 7))
    try:
        if kind is LaunchKind.TABLE:
            x, y = w.free_spot_near(*rng.uniform(-h, h, 2), 17.0)
            w.add_die(0, x, y, face, float(rng.uniform(0.0, 1.6)))
            flick = Flick(0, v, spin, strike_mm=strike)
        elif kind is LaunchKind.SIEGE:
            width = board.siege_engine.width_mm
            ex, ey = w.free_spot_near(*rng.uniform(-h, h, 2), width)
            w.place_siege_engine(ex, ey)
            off = width / 2.0 + board.die.size_mm / 2.0 + 0.5
            start = (ex + math.cos(a) * off, ey + math.sin(a) * off)
            if not board.on_board(*start):
                return "skip", 0.0, ""
            height = board.siege_engine.launch_height_mm
            flick = Flick(0, v, spin, kind, start, height, strike_mm=strike)
        else:
            cren = Crenelation.LOW if kind is LaunchKind.LOW else Crenelation.HIGH
            spot = board.launch_spot(int(rng.integers(4)), int(rng.integers(1, 4)), cren)
            # out of the castle: the flick points away from the centre's far side
            v = (v[0], abs(v[1]) * (1.0 if spot.y < 0 else -1.0))
            flick = Flick(0, v, spin, kind, (spot.x, spot.y), spot.height_mm, strike_mm=strike)
            x, y = spot.x, spot.y
        bx, by = (flick.start or (0.0, 0.0)) if kind is not LaunchKind.TABLE else (x, y)
        for k in (1, 2):  # dice ahead of where it starts, in its way
            ahead = 25.0 + 40.0 * k
            near = (bx + math.cos(a) * ahead + float(rng.normal(0, 15)),
                    by + math.sin(a) * ahead + float(rng.normal(0, 15)))  # fmt: skip
            try:
                cx, cy = w.free_spot_near(*near, 17.0)
                w.add_die(k, cx, cy, int(rng.integers(1, 7)), float(rng.uniform(0.0, 1.6)))
            except WorldError:
                pass  # no room there: fewer dice in the way
        w.validate(flick)
    except (WorldError, ValueError) as exc:
        return "skip", 0.0, str(exc)
    try:
        w.begin_flick(flick, face if kind is not LaunchKind.TABLE else None)
        w.step()
        e0 = sum(w.energy(i) for i in w.dice)
        worst = 0.0
        steps = 0
        while not w.settled:
            w.step()
            steps += 1
            if steps > 60 * 240:
                return "crash", worst, "still moving after 60 s"
            e = sum(w.energy(i) for i in w.dice)  # dice that left take theirs with them
            worst = max(worst, e / e0 - 1.0 if e0 > 0.0 else 0.0)
    except Exception as exc:  # noqa: BLE001 (a crash is what is counted)
        return "crash", 0.0, f"{type(exc).__name__}: {exc}"
    bad = _overlaps(board, w)
    if bad:
        return "overlap", worst, "; ".join(bad)
    return (
        ("gain" if worst > _GAIN else "ok"),
        worst,
        f"{kind.value} {speed:.0f} strike {strike:.1f}",
    )


_GAIN = 0.01


def main() -> None:
    global _GAIN
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--flicks", type=int, default=10_000, help="how many flicks (default 10000)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the fuzz (default 0)")
    ap.add_argument("--gain", type=float, default=0.01, help="energy gain counted (default 0.01)")
    args = ap.parse_args()
    if args.flicks < 1 or args.seed < 0 or not args.gain > 0.0:
        ap.error("--flicks must be >= 1, --seed >= 0, --gain > 0")
    _GAIN = args.gain
    board = load_board("standard")
    rng = np.random.default_rng(args.seed)
    counts: Counter[str] = Counter()
    worst: list[tuple[float, int, str]] = []
    examples: dict[str, list[str]] = {}
    t0 = time.process_time()
    for k in track(range(args.flicks), description="fuzzed flicks"):
        verdict, gain, detail = one(board, rng)
        counts[verdict] += 1
        worst.append((gain, k, detail))
        if verdict in ("crash", "overlap", "gain", "skip"):
            examples.setdefault(verdict, []).append(f"#{k}: {detail}")
    cpu = time.process_time() - t0
    done = args.flicks - counts["skip"]
    print(f"{done} flicks ({counts['skip']} set-ups skipped), {cpu:.0f} s CPU")
    print("  skipped, e.g.:", examples.get("skip", [])[:3])
    for v in ("crash", "overlap", "gain"):
        print(f"  {v}: {counts[v]}" + (f"  e.g. {examples[v][:3]}" if v in examples else ""))
    worst.sort(reverse=True)
    print("  largest energy gains:", ", ".join(f"{g:+.2%} (#{k}: {d})" for g, k, d in worst[:5]))


if __name__ == "__main__":
    main()
