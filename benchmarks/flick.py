"""Benchmark: how long one flick takes to resolve, against bare pymunk.

The standard board with its 12 center-ring pins and 24 dice scattered on it;
100 seeded flicks, each picking up one of the dice and flicking it from a
castle launch spot (seats, areas and crenelations in turn, 500-1200 mm/s
outward with a seeded spread of direction), each resolved until everything
is at rest. For every flick the same number of steps is then timed on a bare
pymunk space holding the same bodies, shapes and friction joints (no Python
callbacks, no 2.5D model), started from the same state.

Prints the median ms per resolved flick, the median bare-pymunk ms for the
same steps, and their ratio (goal: ratio <= 1.5, median < 10 ms).

With ``--reference N`` the first N of the same flicks are then resolved on
the 3D MuJoCo reference engine (the same set-up, built the same way) and its
CPU time per flick is printed beside.

Run: python benchmarks/flick.py [--flicks N] [--seed S] [--reference N]
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

import numpy as np
import pymunk

from warlords_sim.board import Crenelation, load_board
from warlords_sim.physics import TIMESTEP, Flick, LaunchKind, World
from warlords_sim.rules.physics_port import Physics, make_world


def scatter(world: Physics, n: int, rng: np.random.Generator) -> list[int]:
    """Put ``n`` dice at random free places in the open middle of the board."""
    ids: list[int] = []
    while len(ids) < n:
        x, y = (float(v) for v in rng.uniform(-160.0, 160.0, 2))
        if world.free_spot_near(x, y, 22.0) == (x, y):
            die = 100 + len(ids)
            world.add_die(die, x, y, int(rng.integers(1, 7)), float(rng.uniform(0, math.tau)))
            ids.append(die)
    return ids


def bare_space(world: World, sleeping: bool) -> pymunk.Space:
    """A plain pymunk space with the same bodies, shapes and joints as ``world``;
    with ``sleeping`` as a pymunk user would set it up for a top-down table
    (gravity 0, so the idle speed is given explicitly: 0.5 mm/s, the world's
    rest speed; asleep after 0.5 s idle)."""
    space = pymunk.Space()
    space.iterations = world.space.iterations
    if sleeping:
        space.idle_speed_threshold = 0.5
        space.sleep_time_threshold = 0.5
    bodies: dict[pymunk.Body, pymunk.Body] = {world.space.static_body: space.static_body}
    for b in world.space.bodies:
        nb = pymunk.Body(b.mass, b.moment)
        nb.position, nb.angle = b.position, b.angle
        nb.velocity, nb.angular_velocity = b.velocity, b.angular_velocity
        bodies[b] = nb
        space.add(nb)
    for s in world.space.shapes:
        body = bodies[s.body]
        if isinstance(s, pymunk.Circle):
            ns: pymunk.Shape = pymunk.Circle(body, s.radius, s.offset)
        else:
            ns = pymunk.Poly(body, s.get_vertices())
        ns.elasticity, ns.friction, ns.filter = s.elasticity, s.friction, s.filter
        space.add(ns)
    for c in world.space.constraints:
        if isinstance(c, pymunk.PivotJoint):
            nc: pymunk.Constraint = pymunk.PivotJoint(
                bodies[c.a], bodies[c.b], c.anchor_a, c.anchor_b
            )
        else:
            nc = pymunk.GearJoint(bodies[c.a], bodies[c.b], c.phase, c.ratio)
        nc.max_bias, nc.max_force = c.max_bias, c.max_force
        space.add(nc)
    return space


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--flicks", type=int, default=100, help="flicks to time (default 100)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the set-up and flicks")
    ap.add_argument(
        "--reference",
        type=int,
        default=0,
        metavar="N",
        help="also resolve the first N flicks on the MuJoCo reference (default 0: skip)",
    )
    args = ap.parse_args()
    board = load_board("standard")
    world = World(board)
    for seat in range(4):
        for hole in board.center_ring.pins_by_seat[seat]:
            world.add_pin(hole)
    rng = np.random.default_rng(args.seed)
    dice = scatter(world, 24, rng)
    flicks: list[tuple[Flick, int]] = []
    flick_ms: list[float] = []
    bare_ms: list[float] = []
    awake_ms: list[float] = []
    steps: list[int] = []
    for i in range(args.flicks):
        seat, area = i % 4, 1 + (i // 4) % 3
        cren = Crenelation.HIGH if (i // 12) % 2 == 0 else Crenelation.LOW
        spot = board.launch_spot(seat, area, cren)
        heading = math.atan2(spot.outward[1], spot.outward[0]) + float(rng.normal(0.0, 0.35))
        speed = float(rng.uniform(500.0, 1200.0))
        die = dice[i % len(dice)]
        if die not in world.dice:  # knocked off earlier: bring it back
            world.add_die(die, spot.x, spot.y)
        fl = Flick(
            die,
            (speed * math.cos(heading), speed * math.sin(heading)),
            0.0,
            LaunchKind.HIGH if cren is Crenelation.HIGH else LaunchKind.LOW,
            (spot.x, spot.y),
            spot.height_mm,
        )
        flicks.append((fl, 1 + i % 6))
        before = world.copy()
        t0 = time.process_time()
        res = world.flick(fl, face=1 + i % 6)
        flick_ms.append((time.process_time() - t0) * 1e3)
        steps.append(res.steps)
        # bare pymunk, interleaved: the same bodies and joints, the flicked
        # die given the flick's velocity, stepped as many times; with
        # sleeping (the target's yardstick) and without
        before.begin_flick(fl, face=1 + i % 6)
        for sleeping, out in ((True, bare_ms), (False, awake_ms)):
            space = bare_space(before, sleeping)
            if sleeping:  # the dice at rest have been idle long enough to sleep
                for b in space.bodies:
                    if b.velocity.length == 0.0 and b.angular_velocity == 0.0:
                        b.sleep()
            t0 = time.process_time()
            for _ in range(res.steps):
                space.step(TIMESTEP)
            out.append((time.process_time() - t0) * 1e3)
    med_f = statistics.median(flick_ms)
    med_b = statistics.median(bare_ms)
    med_a = statistics.median(awake_ms)
    n_steps = sum(steps)
    ratios = [f / b for f, b in zip(flick_ms, bare_ms, strict=True)]
    print(f"flicks: {args.flicks}, dice on the board: {len(world.dice)}, pins: {len(world.pins)}")
    print(f"steps per flick: median {statistics.median(steps):.0f}, max {max(steps)} (CPU time)")
    print(
        f"resolved flick:  median {med_f:.2f} ms, p95 {np.percentile(flick_ms, 95):.2f} ms, "
        f"{sum(flick_ms) * 1e3 / n_steps:.1f} us a step"
    )
    print(
        f"bare pymunk, sleeping: median {med_b:.2f} ms, p95 {np.percentile(bare_ms, 95):.2f} ms, "
        f"{sum(bare_ms) * 1e3 / n_steps:.1f} us a step"
    )
    print(
        f"bare pymunk, awake:    median {med_a:.2f} ms, "
        f"{sum(awake_ms) * 1e3 / n_steps:.1f} us a step"
    )
    print(f"ratio (median flick / median bare sleeping): {med_f / med_b:.2f}  (goal <= 1.5)")
    print(f"ratio (median flick / median bare awake):    {med_f / med_a:.2f}")
    print(f"ratio per flick (sleeping): median {statistics.median(ratios):.2f}")
    if args.reference > 0:
        ref = make_world(board, "reference")
        for seat in range(4):
            for hole in board.center_ring.pins_by_seat[seat]:
                ref.add_pin(hole)
        ref_dice = scatter(ref, 24, np.random.default_rng(args.seed))
        cpu: list[float] = []
        for fl, face in flicks[: args.reference]:
            if fl.die not in ref.dice and fl.start is not None:
                ref.add_die(fl.die, *ref.free_spot_near(*fl.start, 22.0))
            t0 = time.process_time()
            ref.flick(fl, face=face)
            cpu.append((time.process_time() - t0) * 1e3)
        print(
            f"reference (MuJoCo), first {len(cpu)} flicks, {len(ref_dice)} dice: CPU median "
            f"{statistics.median(cpu):.1f} ms, p95 {np.percentile(cpu, 95):.1f} ms a flick"
        )


if __name__ == "__main__":
    main()
