"""The rounded die's floor impact (physics/contact.py): its cost, its
convergence, and its agreement with the MuJoCo reference.

1. Cost: CPU time per impact (``time.process_time``) of
   :func:`~warlords_sim.physics.contact.impact` on random first impacts of
   the standard die (16 mm, 4.6 g, edge radius 1.6 mm; restitution 0.5,
   friction 0.3, static friction 0.5, the board's data), split into those
   solved in closed form (the slip keeps its direction) and those
   integrated (it turns), with the integration steps.
2. Convergence: the default resolution against 4x as many steps.
3. Agreement with MuJoCo: random single impacts (corner-first, edge-first,
   face-first, with spin and sideways speed) of the reference's die on a
   plane with the reference's contact (:mod:`warlords_sim.reference.impact_probe`,
   gravity off during the impact); the model is given MuJoCo's state at the
   step before the first contact and compared with MuJoCo's right after
   the contact ends. Also with static friction 0.3 (MuJoCo has one friction
   coefficient) and the old model (``physics.sharp_impact``: a sharp cube's
   corner, Newton restitution; the 2.5D bounce up to model 2.5d-8).
4. The 900 mm/s high launch (``flick --from 0:2 --launch high --velocity
   0,900``): its first table impact in the reference world (the state
   before it taken from the flick), and in the 2.5D world's flight (the
   state its landing model is handed, and what the model the world uses
   makes of it: ``impact.RoundedLanding`` from model 2.5d-9 on).
5. The cost on the states the 2.5D world's bounce model is handed over
   random launches, against the old contact point and impact.

Usage: python benchmarks/contact.py [--impacts 50] [--seed 1]   (prints; writes nothing)
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

import numpy as np

from warlords_sim.board import load_board
from warlords_sim.physics import Flick, LaunchKind
from warlords_sim.physics import sharp_impact as old_impact
from warlords_sim.physics.contact import (
    DEFAULT_RESOLUTION,
    Feature,
    floor_contact,
    impact,
    rounded_cube_inertia,
)
from warlords_sim.physics.impact import Landing
from warlords_sim.physics.linalg3 import matmul, norm3, rotation_about, rotation_z
from warlords_sim.rules.flick_setup import flick_start, standard_world

SIZE, RADIUS, MASS = 16.0, 1.6, 4.6
E, MU, MU_S = 0.5, 0.3, 0.5


def random_rotation(rng: np.random.Generator) -> np.ndarray:
    """A uniformly random rotation (a normalised Gaussian quaternion)."""
    w, x, y, z = rng.normal(size=4)
    n = math.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def random_arrival(
    rng: np.random.Generator, kind: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An orientation, velocity (mm/s) and spin (rad/s) arriving ``kind``
    first: 'corner' (uniform orientation), 'edge' (an edge level, tilted
    5-40 degrees), 'face' (flat), falling at 300-1200 mm/s, sliding at up to
    900 mm/s, spinning at up to 30 rad/s about a random axis."""
    yaw = rotation_z(rng.uniform(-math.pi, math.pi))
    if kind == "corner":
        r = random_rotation(rng)
    elif kind == "edge":
        r = matmul(yaw, rotation_about((1.0, 0.0, 0.0), math.radians(rng.uniform(5.0, 40.0))))
    else:
        r = yaw
    heading = rng.uniform(-math.pi, math.pi)
    speed = rng.uniform(0.0, 900.0)
    v = np.array(
        [speed * math.cos(heading), speed * math.sin(heading), -rng.uniform(300.0, 1200.0)]
    )
    axis = rng.normal(size=3)
    omega = axis / norm3(axis) * rng.uniform(0.0, 30.0)
    return r, v, omega


Arrival = tuple[np.ndarray, np.ndarray, np.ndarray, Feature]


def random_impacts(rng: np.random.Generator, n: int) -> list[Arrival]:
    """n random (v, omega, offset, feature) first impacts of the standard die
    (any orientation; 1 in 10 arriving flat, 3 in 10 on an edge)."""
    out: list[Arrival] = []
    kinds = ["corner"] * 6 + ["edge"] * 3 + ["face"]
    while len(out) < n:
        r, v, omega = random_arrival(rng, kinds[len(out) % len(kinds)])
        fc = floor_contact(r, SIZE, RADIUS, v, omega)
        if fc is not None:
            out.append((v, omega, fc.offset, fc.feature))
    return out


def cost(rng: np.random.Generator, inertia: float) -> None:
    cases = random_impacts(rng, 2000)
    groups: dict[str, list[Arrival]] = {"closed form": [], "integrated": []}
    steps = []
    for v, w, off, feat in cases:
        out = impact(v, w, off, MASS, inertia, E, MU, MU_S, feature=feat)
        steps.append(out.steps)
        groups["closed form" if out.steps == 0 else "integrated"].append((v, w, off, feat))
    print(f"1. CPU per impact (process_time), {len(cases)} random first impacts, e {E}, "
          f"mu {MU}, mu_s {MU_S}, resolution {DEFAULT_RESOLUTION}:")  # fmt: skip
    t_all = 0.0
    for name, group in groups.items():
        reps = 3
        t0 = time.process_time()
        for _ in range(reps):
            for v, w, off, feat in group:
                impact(v, w, off, MASS, inertia, E, MU, MU_S, feature=feat)
        dt = (time.process_time() - t0) / reps
        t_all += dt
        per = dt / max(len(group), 1) * 1e6
        print(f"   {name:12s} {len(group):5d} impacts, {per:6.1f} us each")
    integrated = [s for s in steps if s]
    print(f"   all          {len(cases):5d} impacts, {t_all / len(cases) * 1e6:6.1f} us each; "
          f"steps when integrated: median {statistics.median(integrated):.0f}, "
          f"p90 {np.percentile(integrated, 90):.0f}, max {max(integrated)}")  # fmt: skip
    t0 = time.process_time()
    for _ in range(200_000):
        pass
    loop = (time.process_time() - t0) / 200_000 * 1e9
    print(f"   (this machine: an empty Python loop turn {loop:.0f} ns)")


def convergence(rng: np.random.Generator, inertia: float) -> None:
    cases = random_impacts(rng, 1000)
    errs = []
    for v, w, off, feat in cases:
        a = impact(v, w, off, MASS, inertia, E, MU, MU_S, feature=feat)
        b = impact(
            v, w, off, MASS, inertia, E, MU, MU_S, feature=feat, resolution=4 * DEFAULT_RESOLUTION
        )
        scale = max(norm3(v), norm3(w) * SIZE / 2.0)
        errs.append(max(norm3(a.v - b.v), norm3(a.omega - b.omega) * SIZE / 2.0) / scale)
    print(f"\n2. convergence, resolution {DEFAULT_RESOLUTION} against {4 * DEFAULT_RESOLUTION}, "
          f"{len(cases)} random impacts: largest difference of v or omega*a/2, relative to the "
          f"arrival's: median {statistics.median(errs):.1e}, p99 {np.percentile(errs, 99):.1e}, "
          f"max {max(errs):.1e}")  # fmt: skip


def _errors(
    vm: np.ndarray, wm: np.ndarray, vr: np.ndarray, wr: np.ndarray, vz_in: float
) -> tuple[float, ...]:
    """Relative errors of |omega| and of omega (vector) against the
    reference's omega, of the horizontal velocity (vector) against the
    reference's, and of v_z against the arrival's (the rebound of the centre
    after a corner impact can be near zero)."""
    w_mag = abs(norm3(wm) - norm3(wr)) / norm3(wr)
    w_vec = norm3(wm - wr) / norm3(wr)
    h = math.hypot(vr[0], vr[1])
    v_h = math.hypot(vm[0] - vr[0], vm[1] - vr[1]) / h if h > 1.0 else math.nan
    v_z = abs(vm[2] - vr[2]) / abs(vz_in)
    return w_mag, w_vec, v_h, v_z


def agreement(rng: np.random.Generator, n: int, inertia: float) -> None:
    from warlords_sim.reference.impact_probe import ImpactProbe

    probe = ImpactProbe((SIZE, SIZE, SIZE), RADIUS, MASS, E, MU)
    kinds = ["corner", "edge", "face"]
    rows: dict[str, list[tuple[float, ...]]] = {
        "model": [],
        "model, mu_s 0.3": [],
        "faces as points": [],
        "old 2.5D impact": [],
    }
    by_kind: dict[str, list[tuple[float, ...]]] = {k: [] for k in kinds}
    clean = 0
    for i in range(n):
        kind = kinds[i % 3]
        r, v, omega = random_arrival(rng, kind)
        res = probe.run(r, v, omega)
        b, a = res.before, res.after
        fc = floor_contact(b.r, SIZE, RADIUS, b.v, b.omega)
        if fc is None:
            continue
        clean += res.separated and set(res.corners) <= set(fc.corners)
        new = impact(b.v, b.omega, fc.offset, MASS, inertia, E, MU, MU_S, feature=fc.feature)
        same = impact(b.v, b.omega, fc.offset, MASS, inertia, E, MU, MU, feature=fc.feature)
        point = impact(b.v, b.omega, fc.offset, MASS, inertia, E, MU, MU_S)
        cp = old_impact.contact_point(b.r, SIZE, b.v, b.omega)
        if cp is None:
            cp = old_impact.contact_point(b.r, SIZE)
        assert cp is not None
        ov, ow = old_impact.impact(b.v, b.omega, cp, MASS, SIZE, E, MU, MU_S)
        rows["model"].append(_errors(new.v, new.omega, a.v, a.omega, b.v[2]))
        rows["model, mu_s 0.3"].append(_errors(same.v, same.omega, a.v, a.omega, b.v[2]))
        rows["faces as points"].append(_errors(point.v, point.omega, a.v, a.omega, b.v[2]))
        rows["old 2.5D impact"].append(_errors(ov, ow, a.v, a.omega, b.v[2]))
        by_kind[kind].append(rows["model"][-1])
    count = len(rows["model"])
    print(f"\n3. against MuJoCo ({probe.model.opt.timestep * 1e3:g} ms, damping ratio "
          f"{probe.damping_ratio:.3f}, gravity off), {count} random first impacts ({clean} "
          f"touched only the model's feature and separated): median relative error "
          f"(v_z: of the arrival's)")  # fmt: skip
    print(f"   {'':20s} {'|omega|':>8s} {'omega':>8s} {'v_horiz':>8s} {'v_z':>8s}")

    def line(name: str, errs: list[tuple[float, ...]]) -> None:
        cols = [
            statistics.median(e for e in col if not math.isnan(e))
            for col in zip(*errs, strict=True)
        ]
        print(f"   {name:20s} " + " ".join(f"{c:8.3f}" for c in cols))

    for name, errs in rows.items():
        line(name, errs)
    for kind in kinds:
        line(f"model, {kind}-first", by_kind[kind])
    print(f"   (mesh inertia in MuJoCo {probe.inertia[0]:.2f} g mm^2, the formula {inertia:.2f})")


def launch(inertia: float) -> None:
    import mujoco

    board = load_board("standard")
    print("\n4. the 900 mm/s high launch from 0:2, its first table impact (mm/s, rad/s):")
    from warlords_sim.reference import ReferenceWorld

    world = standard_world(board, "reference")
    assert isinstance(world, ReferenceWorld)
    begin = flick_start(board, world, None, (0, 2), LaunchKind.HIGH, (0.0, 900.0))
    fl = Flick(1, (0.0, 900.0), 0.0, LaunchKind.HIGH, begin.start, begin.height_mm, 0.0)
    seen: dict[str, tuple[float, np.ndarray, np.ndarray, np.ndarray]] = {}
    last: list[tuple[float, np.ndarray, np.ndarray, np.ndarray]] = []

    def hook(m: mujoco.MjModel, d: mujoco.MjData) -> None:
        table = m.geom("table").id
        body = m.nbody - 1
        rot = np.array(d.xmat[body]).reshape(3, 3)
        state = (float(d.time), rot, np.array(d.qvel[0:3]) * 1e3, rot @ np.array(d.qvel[3:6]))
        touching = any(table in (d.contact[i].geom1, d.contact[i].geom2) for i in range(d.ncon))
        if "before" not in seen and touching:
            seen["before"] = last[0]
        elif "before" in seen and "after" not in seen and d.ncon == 0:
            seen["after"] = state
        last[:] = [state]

    world.flick(fl, face=1, on_step=hook)
    t0, r, v, w = seen["before"]
    t1, _, va, wa = seen["after"]
    fc = floor_contact(r, SIZE, RADIUS, v, w)
    assert fc is not None
    new = impact(v, w, fc.offset, MASS, inertia, E, MU, MU_S, feature=fc.feature)
    cp = old_impact.contact_point(r, SIZE, v, w)
    assert cp is not None
    ov, ow = old_impact.impact(v, w, cp, MASS, SIZE, E, MU, MU_S)
    g = board.gravity_mm_s2 * (t1 - t0)  # the reference has gravity during its contact

    def fmt(vv: np.ndarray, ww: np.ndarray, dvz: float = 0.0) -> str:
        return (f"v ({vv[0]:.0f}, {vv[1]:.0f}, {vv[2] - dvz:.0f}), omega ({ww[0]:.2f}, "
                f"{ww[1]:.2f}, {ww[2]:.2f}), |omega| {norm3(ww):.2f}")  # fmt: skip

    print(f"   reference, before ({t0 * 1e3:.1f} ms): {fmt(v, w)}; {fc.feature.value} first")
    print(f"   reference, after  ({t1 * 1e3:.1f} ms): {fmt(va, wa)}")
    print(
        f"   model (same state, minus g dt in v_z): {fmt(new.v, new.omega, g)} ({new.regime.value})"
    )
    print(f"   old 2.5D impact (same state):          {fmt(ov, ow, g)}")
    # the 2.5D world's own first landing
    world25 = standard_world(board, "2.5d")
    spy = _LandingSpy(world25)
    world25.flick(fl, face=1)
    r2, v2, w2 = spy.states[0]
    own = spy.landings[0]
    fc2 = floor_contact(r2, SIZE, RADIUS, v2, w2)
    assert fc2 is not None
    new2 = impact(v2, w2, fc2.offset, MASS, inertia, E, MU, MU_S, feature=fc2.feature)
    cp2 = old_impact.contact_point(r2, SIZE, v2, w2)
    assert cp2 is not None
    ov2, ow2 = old_impact.impact(v2, w2, cp2, MASS, SIZE, E, MU, MU_S)
    tilt = [math.degrees(math.acos(min(1.0, max(abs(x[2][k]) for k in range(3))))) for x in (r, r2)]
    print(
        f"   2.5D flight, before: {fmt(v2, w2)}; tilt {tilt[1]:.1f} deg (reference "
        f"{tilt[0]:.1f}), contact offset y {fc2.offset[1]:.2f} mm (reference {fc.offset[1]:.2f})"
    )
    print(
        f"   model on the 2.5D's state:             {fmt(new2.v, new2.omega)} ({new2.regime.value})"
    )
    print(f"   old 2.5D impact on it:                 {fmt(ov2, ow2)}")
    print(f"   the 2.5D world's own ({spy.model_name}):   {fmt(own.v, own.omega)}")
    assert fc.feature in Feature


class _LandingSpy:
    """Stands in for a 2.5D world's landing model, keeping the states it is
    handed (orientation, velocity, spin) and what the model made of them."""

    def __init__(self, world: object) -> None:
        self.model = world._motion.landing  # type: ignore[attr-defined]
        self.model_name = type(self.model).__name__
        self.states: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.landings: list[Landing] = []
        world._motion.landing = self  # type: ignore[attr-defined]

    def land(self, v: np.ndarray, omega: np.ndarray, r: np.ndarray, bounces: int) -> Landing:
        self.states.append((r.copy(), v.copy(), omega.copy()))
        out = self.model.land(v, omega, r, bounces)
        self.landings.append(out)
        return out


def game_landings(rng: np.random.Generator, inertia: float, launches: int = 40) -> None:
    """The cost on the 2.5D world's own landings: the states its bounce model
    is handed over random high and low launches, timed through the old
    contact point and impact and through floor_contact and impact."""
    board = load_board("standard")
    states: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    for i in range(launches):
        kind = (LaunchKind.HIGH, LaunchKind.LOW)[i % 2]
        speed, turn = rng.uniform(300.0, 1800.0), rng.normal(0.0, 0.3)
        vel = (speed * math.sin(turn), speed * math.cos(turn))
        world = standard_world(board, "2.5d")
        spy = _LandingSpy(world)
        begin = flick_start(board, world, None, (0, 1 + i % 3), kind, vel)
        fl = Flick(1, vel, rng.normal(0.0, 5.0), kind, begin.start, begin.height_mm, 0.0)
        world.flick(fl, face=1 + i % 6)
        states.extend(spy.states)
    contacts = [(r, v, w, floor_contact(r, SIZE, RADIUS, v, w)) for r, v, w in states]
    kept = [(v, w, fc) for _, v, w, fc in contacts if fc is not None]
    steps = [impact(v, w, fc.offset, MASS, inertia, E, MU, MU_S, feature=fc.feature).steps
             for v, w, fc in kept]  # fmt: skip
    kinds = {f: sum(fc.feature is f for _, _, fc in kept) for f in Feature}
    reps = 5
    t0 = time.process_time()
    for _ in range(reps):
        for r, v, w in states:
            floor_contact(r, SIZE, RADIUS, v, w)
    t_contact = (time.process_time() - t0) / (reps * len(states))
    t0 = time.process_time()
    for _ in range(reps):
        for v, w, fc in kept:
            impact(v, w, fc.offset, MASS, inertia, E, MU, MU_S, feature=fc.feature)
    t_impact = (time.process_time() - t0) / (reps * len(kept))
    t0 = time.process_time()
    for _ in range(reps):
        for r, v, w in states:
            cp = old_impact.contact_point(r, SIZE, v, w)
            if cp is not None:
                old_impact.impact(v, w, cp, MASS, SIZE, E, MU, MU_S)
    t_old = (time.process_time() - t0) / (reps * len(states))
    print(f"\n5. the 2.5D world's own landings ({len(states)} from {launches} random high and "
          f"low launches; {', '.join(f'{n} {f.value}' for f, n in kinds.items())}; integrated "
          f"{sum(s > 0 for s in steps)}, steps median {statistics.median(steps):.0f}, max "
          f"{max(steps)}): floor_contact {t_contact * 1e6:.1f} us + impact {t_impact * 1e6:.1f} "
          f"us, against {t_old * 1e6:.1f} us for the old contact point and impact")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--impacts", type=int, default=51, help="MuJoCo single impacts [51]")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random impacts [1]")
    args = ap.parse_args()
    inertia = rounded_cube_inertia(MASS, SIZE, RADIUS)
    sharp = MASS * SIZE * SIZE / 6.0
    print(f"inertia of the rounded die: {inertia:.2f} g mm^2, {inertia / sharp:.4f} of the sharp "
          f"cube's m a^2/6 = {sharp:.2f} ({(1 - inertia / sharp) * 100:.1f} % less)\n")  # fmt: skip
    cost(np.random.default_rng(args.seed), inertia)
    convergence(np.random.default_rng(args.seed + 1), inertia)
    agreement(np.random.default_rng(args.seed + 2), args.impacts, inertia)
    launch(inertia)
    game_landings(np.random.default_rng(args.seed + 3), inertia)


if __name__ == "__main__":
    main()
