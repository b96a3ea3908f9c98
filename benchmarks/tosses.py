"""Benchmark: both engines on the measured cube tosses (issue 19, item 1),
the material fit and its cross-validation; every figure of the tosses
section of docs/fidelity.md.

Subcommands (the data file defaults to ../shared/data/cube-tosses/fit.npz
beside the repository; ``--tosses`` takes another):

* ``measure``: what the tosses show without a simulator: the contact
  detection's check (how well the flight fit predicts the last sample in
  the air and the first touching one), the free flight's gravity with and
  without the length scale, the sliding friction of flat slides, the
  first impact's tangential to normal velocity change; and the same
  first-impact and slide figures read off the reference's simulated
  trajectories of two materials, processed alike.
* ``convergence``: the reference's faces at 0.5, 0.2 and 0.1 ms.
* ``grid --engine E --cache DIR``: runs every grid point of engine E on
  every toss and keeps its per-toss figures in DIR (one .npz a point;
  points already there are skipped, so an interrupted grid resumes). DIR
  must be outside the repository: nothing is cached into it.
* ``report --cache DIR``: 5-fold cross-validation of each engine's grid
  (the held-out figures), the folds' choices, the profile of the loss
  along each parameter, a bootstrap of the chosen point, and the grid's
  CPU time.
* ``final``: the named materials on every toss, both engines, with CPU
  time: the table of ``warlords-sim fidelity --tosses`` in Markdown.

Run: python benchmarks/tosses.py measure|convergence|final
     python benchmarks/tosses.py grid --engine reference --cache /tmp/tosses-grid
     python benchmarks/tosses.py report --cache /tmp/tosses-grid
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

from warlords_sim.fidelity.materials import CubeMaterial, material
from warlords_sim.fidelity.rotations import qmat
from warlords_sim.fidelity.toss_engines import make_engine
from warlords_sim.fidelity.toss_file import load_tosses
from warlords_sim.fidelity.toss_fit import (
    PointResult,
    bootstrap,
    cross_validate,
    point_result,
    profile,
    toss_loss,
)
from warlords_sim.fidelity.toss_state import (
    CONTACT_CLEARANCE_M,
    Frame,
    estimate_state,
    lowest_corner,
)
from warlords_sim.fidelity.toss_table import markdown_rows
from warlords_sim.fidelity.tosses import (
    GRAVITY,
    LENGTH_SCALE,
    Prepared,
    check_tosses,
    run_toss,
    summarize,
)

REPO = Path(__file__).resolve().parents[1]
DEFAULT_TOSSES = REPO.parent / "shared" / "data" / "cube-tosses" / "fit.npz"

#: The cube's moment of inertia if it is a hollow acrylic box: 0.37 kg of
#: PMMA (1.17-1.20 g/cm^3, engineering tables) in a 104.8 mm cube is a shell
#: with 5.2 mm walls (a solid one would weigh 1.37 kg), whose inertia
#: rho (a^5 - b^5) / 6 is 0.00102 kg m^2 for either density (the uniform
#: solid cube of that mass: 0.000677; upstream uses 0.00081).
HOLLOW_INERTIA_G_MM2 = 1.02e6
#: The sliding friction of a face on the table, from the flat slides:
#: ``measure`` reads 0.212 off the measured slides, and 0.215 off the
#: reference's simulated slides at 0.22 read the same way (a slide that also
#: spins decelerates less than mu g).
FACE_FRICTION = 0.22


def hollow_inertia(mass_kg: float, side_m: float, density: float) -> tuple[float, float]:
    """Wall thickness (m) and inertia (kg m^2) of a hollow cube of ``mass_kg``
    and ``side_m`` made of a material of ``density`` kg/m^3 (uniform walls)."""
    inner = (side_m**3 - mass_kg / density) ** (1.0 / 3.0)
    return (side_m - inner) / 2.0, density * (side_m**5 - inner**5) / 6.0


def reference_grid() -> list[dict[str, float]]:
    """The reference's grid (fixed before it was run; its ranges were chosen
    after exploratory runs on the same tosses, see docs/fidelity.md)."""
    pts: list[dict[str, float]] = []
    for mu, e, r in itertools.product(
        (0.16, 0.18, 0.20, 0.22), (0.05, 0.1, 0.15, 0.25), (0.5, 2.0, 4.0)
    ):
        pts.append({"friction": mu, "restitution": e, "edge_radius_mm": r})
    for me, e, r in itertools.product((0.14, 0.16, 0.18), (0.05, 0.1, 0.15, 0.25), (0.5, 2.0, 4.0)):
        pts.append(
            {"friction": FACE_FRICTION, "edge_friction": me, "restitution": e, "edge_radius_mm": r}
        )
    centre = {
        "friction": FACE_FRICTION,
        "edge_friction": 0.16,
        "restitution": 0.1,
        "edge_radius_mm": 2.0,
    }
    for k, vals in (
        ("inertia_g_mm2", (677000.0, 810000.0, 1220000.0)),
        ("time_constant_s", (0.001, 0.005)),
        ("torsional_mm", (2.0, 5.0)),
        ("rolling_mm", (2.0, 5.0)),
        ("edge_radius_mm", (6.0, 8.0)),
    ):
        pts.extend({**centre, k: v} for v in vals)
    # added after the first report: faces chose e 0.25, the grid's edge, so
    # the grid goes on to 0.35 where the faces' choices were
    for me, r in itertools.product((0.16, 0.18), (2.0, 4.0)):
        pts.append(
            {
                "friction": FACE_FRICTION,
                "edge_friction": me,
                "restitution": 0.35,
                "edge_radius_mm": r,
            }
        )
    pts.extend({"friction": mu, "restitution": 0.35, "edge_radius_mm": 4.0} for mu in (0.18, 0.2))
    # the plain box as upstream fitted it (inertia 0.00081)
    pts.append(
        {"friction": 0.18, "restitution": 0.125, "edge_radius_mm": 0.5, "inertia_g_mm2": 810000.0}
    )
    return pts


def planar_grid() -> list[dict[str, float]]:
    """The 2.5D model's grid: what its die takes (one friction, restitution).
    Restitution reaches 0.6 (it stopped at 0.4 until model 2.5d-11, where
    every fold of 2.5d-10 chose 0.4, the grid's edge)."""
    return [
        {"friction": mu, "restitution": e}
        for mu, e in itertools.product(
            (0.14, 0.16, 0.18, 0.20, 0.22, 0.24, 0.26), (0.05, 0.1, 0.15, 0.25, 0.4, 0.5, 0.6)
        )
    ]


def grid_base() -> CubeMaterial:
    """The base every grid point changes: upstream's entry with the hollow cube's inertia."""
    return material("contactnets-upstream").with_(inertia_g_mm2=HOLLOW_INERTIA_G_MM2)


def key(params: dict[str, float]) -> str:
    return ",".join(f"{k}={params[k]:g}" for k in sorted(params))


def load_prepared(path: Path) -> tuple[list[Prepared], float]:
    f = load_tosses(path)
    return check_tosses(f), f.side_m


def run_point(
    engine: str, params: dict[str, float], prepared: list[Prepared], side_m: float
) -> PointResult:
    mat = grid_base().with_(**params)
    t0 = time.process_time()
    eng = make_engine(engine, side_m * 1e3, mat)
    outs = [run_toss(p, eng, side_m) for p in prepared]
    return point_result(params, outs, time.process_time() - t0)


def save_point(path: Path, r: PointResult) -> None:
    tmp = path.with_suffix(".tmp.npz")
    np.savez(
        tmp,
        params=json.dumps(r.params),
        agree=r.agree,
        rest_err=r.rest_err,
        rest_angle=r.rest_angle,
        traj_pos=r.traj_pos,
        traj_angle=r.traj_angle,
        baseline=r.baseline,
        cpu_s=r.cpu_s,
    )
    tmp.replace(path)


def load_point(path: Path) -> PointResult:
    with np.load(path) as z:
        return PointResult(
            params=json.loads(str(z["params"])),
            agree=z["agree"],
            rest_err=z["rest_err"],
            rest_angle=z["rest_angle"],
            traj_pos=z["traj_pos"],
            traj_angle=z["traj_angle"],
            baseline=z["baseline"],
            cpu_s=float(z["cpu_s"]),
        )


def outside_repo(cache: Path) -> Path:
    c = cache.resolve()
    if c == REPO or REPO in c.parents:
        sys.exit(
            f"--cache {cache}: inside the repository; give a folder outside it "
            "(nothing is cached into it)"
        )
    return c


# ----------------------------------------------------------------- measure


def _flat(P: np.ndarray, Q: np.ndarray, half: float, table_z: float) -> np.ndarray:
    r = qmat(Q)
    tilt = np.degrees(np.arccos(np.clip(np.max(np.abs(r[:, 2, :]), axis=1), 0.0, 1.0)))
    return (tilt < 2.0) & (lowest_corner(P, Q, half) - table_z < 0.003)


def slide_frictions(
    t: np.ndarray, P: np.ndarray, Q: np.ndarray, half: float, table_z: float
) -> list[float]:
    """Deceleration / g of every flat slide of at least 6 samples that keeps
    moving faster than 0.03 m/s (a parabola fitted to the centre)."""
    flat = _flat(P, Q, half, table_z)
    out = []
    i = 0
    while i < t.size:
        if not flat[i]:
            i += 1
            continue
        j = i
        while j + 1 < t.size and flat[j + 1]:
            j += 1
        seg = np.arange(i, j + 1)
        if seg.size >= 6:
            tt = t[seg] - t[seg[0]]
            a = np.stack([np.ones_like(tt), tt, 0.5 * tt * tt], 1)
            c, *_ = np.linalg.lstsq(a, P[seg, :2], rcond=None)
            v0 = np.linalg.norm(c[1])
            if v0 > 0.15 and np.linalg.norm(c[1] + c[2] * tt[-1]) > 0.03:
                out.append(float(-(c[2] @ c[1]) / v0 / GRAVITY))
        i = j + 1
    return out


def first_impact(t: np.ndarray, P: np.ndarray, c: int) -> tuple[float, float]:
    """Horizontal and vertical change of the centre's velocity over the
    first contact: from the last two samples in the air to a line through
    the three after the touching one (m/s)."""
    vb = (P[c - 1] - P[c - 2]) / (t[c - 1] - t[c - 2])
    seg = np.arange(c + 1, c + 4)
    a = np.stack([np.ones(3), t[seg]], 1)
    coef, *_ = np.linalg.lstsq(a, P[seg], rcond=None)
    dv = coef[1] - vb
    return float(np.linalg.norm(dv[:2])), float(dv[2])


def flat_time(
    t: np.ndarray, P: np.ndarray, Q: np.ndarray, c: int, half: float, table_z: float
) -> float:
    """Time (s) from the first contact to lying flat on a face."""
    flat = _flat(P, Q, half, table_z)
    flat[:c] = False
    return float(t[int(np.argmax(flat))] - t[c]) if flat.any() else math.nan


def _pct(a: list[float] | np.ndarray) -> str:
    a = np.asarray(a, dtype=float)
    a = a[np.isfinite(a)]
    q1, m, q3 = np.percentile(a, [25, 50, 75])
    return f"{m:.3f} (IQR {q1:.3f}-{q3:.3f}, n = {a.size})"


def traj_figures(
    prepared: list[Prepared], half: float, runs: list | None
) -> dict[str, list[float]]:
    """The first-impact, slide and flat-time figures of the measured
    trajectories (runs None) or of the simulated ones (same processing)."""
    out: dict[str, list[float]] = {"mu": [], "dvh": [], "dvz": [], "ratio": [], "t_flat": []}
    for i, p in enumerate(prepared):
        t = p.toss.t
        P = p.frame.from_file(p.toss.pos)
        Q = p.toss.quat.copy()
        if runs is not None:
            first = int(np.flatnonzero(t >= p.state.t - 1e-12)[0])
            P[first:] = runs[i].pos * 1e-3 + np.array([0.0, 0.0, p.frame.table_z])
            Q[first:] = runs[i].quat
        c = p.state.contact_index
        out["mu"] += slide_frictions(t, P, Q, half, p.frame.table_z)
        dvh, dvz = first_impact(t, P, c)
        out["dvh"].append(dvh)
        out["dvz"].append(dvz)
        out["ratio"].append(dvh / dvz if dvz > 0.1 else math.nan)
        out["t_flat"].append(flat_time(t, P, Q, c, half, p.frame.table_z))
    return out


def cmd_measure(args: argparse.Namespace) -> None:
    f = load_tosses(args.tosses)
    half = f.side_m / 2.0
    print(f"{len(f.tosses)} tosses of {args.tosses}")
    for scale in (1.0, LENGTH_SCALE):
        gs, rest_z = [], []
        for toss in f.tosses:
            fr = Frame.of(toss, half, scale)
            gs.append(estimate_state(toss, fr).gravity_fit)
            rest_z.append(float(toss.pos[-1, 2]) * scale)
        print(
            f"lengths x {scale:g}: free-flight gravity {_pct(gs)} m/s^2; resting centre "
            f"{np.median(rest_z) * 1e3:.2f} mm above the board frame "
            f"(half side {half * 1e3:.1f} mm)"
        )
    prepared = check_tosses(f)
    st = [p.state for p in prepared]
    print(
        "flight samples before the first contact (corner within "
        f"{CONTACT_CLEARANCE_M * 1e3:g} mm): min {min(s.flight_samples for s in st)}, "
        f"median {np.median([s.flight_samples for s in st]):.0f}; "
        f"fit RMS {np.median([s.rms_pos for s in st]) * 1e3:.2f} mm, "
        f"{math.degrees(float(np.median([s.rms_angle for s in st]))):.3f} deg (medians)"
    )
    # contact detection check: fit without the last sample in the air, predict it and the next
    from dataclasses import replace

    err_last, err_touch, clear_last = [], [], []
    for p in prepared:
        c = p.state.contact_index
        sub = replace(
            p.toss, t=p.toss.t[: c - 1], pos=p.toss.pos[: c - 1], quat=p.toss.quat[: c - 1]
        )
        s = estimate_state(sub, p.frame)
        for j, acc in ((c - 1, err_last), (c, err_touch)):
            pos, _ = s.at(float(p.toss.t[j]), GRAVITY)
            acc.append(float(np.linalg.norm(pos - p.frame.from_file(p.toss.pos[j]))) * 1e3)
        low = lowest_corner(p.frame.from_file(p.toss.pos[c - 1]), p.toss.quat[c - 1], half)
        clear_last.append((float(low) - p.frame.table_z) * 1e3)
    print(
        f"contact check, the flight fitted without its last sample: that sample (corner "
        f"{np.median(clear_last):.1f} mm up, median) is predicted within {_pct(err_last)} mm, "
        f"the first touching sample within {_pct(err_touch)} mm "
        f"(p90 {np.percentile(err_touch, 90):.2f})"
    )
    m = traj_figures(prepared, half, None)
    base = {
        "slide friction (flat slides)": "mu",
        "first impact dv_h, m/s": "dvh",
        "first impact dv_z, m/s": "dvz",
        "dv_h / dv_z": "ratio",
        "first contact to flat, s": "t_flat",
    }
    print("measured:")
    for name, k in base.items():
        print(f"  {name}: {_pct(m[k])}")
    chosen = material("contactnets-acrylic")
    for label, mat in (
        ("contactnets-acrylic with one friction 0.22", chosen.with_(edge_friction=None)),
        ("contactnets-acrylic", chosen),
        ("contactnets-upstream", material("contactnets-upstream")),
    ):
        eng = make_engine("reference", f.side_m * 1e3, mat)
        runs = [run_toss(p, eng, f.side_m).run for p in prepared]
        s = traj_figures(prepared, half, runs)
        print(f"reference, {label} (inertia {mat.inertia_g_mm2:g} g mm^2), same processing:")
        for name, k in base.items():
            print(f"  {name}: {_pct(s[k])}")
    w, inertia = hollow_inertia(0.37, f.side_m, 1190.0)
    print(
        f"a hollow PMMA cube (1.19 g/cm^3) of 0.37 kg: walls {w * 1e3:.1f} mm, "
        f"inertia {inertia:.6f} kg m^2"
    )


def cmd_convergence(args: argparse.Namespace) -> None:
    prepared, side = load_prepared(args.tosses)
    mat = material(args.material)
    print(f"material {mat.name}")
    faces = {}
    for dt in (5e-4, 2e-4, 1e-4):
        t0 = time.process_time()
        eng = make_engine("reference", side * 1e3, mat.with_(timestep_s=dt))
        outs = [run_toss(p, eng, side) for p in prepared]
        faces[dt] = np.array([o.sim_face for o in outs])
        s = summarize(outs)
        print(
            f"timestep {dt * 1e3:g} ms: agreement {s.agreement:.3f}, rest error median "
            f"{s.rest_error_median:.3f} sides, {time.process_time() - t0:.1f} s CPU"
        )
    for dt in (5e-4, 2e-4):
        print(f"same face at {dt * 1e3:g} ms as at 0.1 ms: {np.mean(faces[dt] == faces[1e-4]):.3f}")


def cmd_grid(args: argparse.Namespace) -> None:
    cache = outside_repo(Path(args.cache)) / args.engine
    cache.mkdir(parents=True, exist_ok=True)
    prepared, side = load_prepared(args.tosses)
    pts = reference_grid() if args.engine == "reference" else planar_grid()
    order = list(enumerate(pts))
    for i, params in reversed(order) if args.reverse else order:
        path = cache / f"{key(params)}.npz"
        busy = cache / f"{key(params)}.running"  # another process is on it
        if path.exists() or busy.exists():
            continue
        busy.touch()
        try:
            r = run_point(args.engine, params, prepared, side)
            save_point(path, r)
        finally:
            busy.unlink()
        print(
            f"[{i + 1}/{len(pts)}] {key(params)}: agreement {np.mean(r.agree):.3f}, rest "
            f"{np.median(r.rest_err):.3f}, loss {np.mean(toss_loss(r)):.3f}, {r.cpu_s:.1f} s",
            flush=True,
        )


def _full(params: dict[str, float]) -> dict[str, float]:
    """Every fitted parameter of a grid point, the base's where it keeps
    them (no edge friction: the face's)."""
    b = grid_base()
    full = {
        "friction": b.friction,
        "restitution": b.restitution,
        "edge_radius_mm": b.edge_radius_mm,
        "inertia_g_mm2": b.inertia_g_mm2,
        "time_constant_s": b.time_constant_s,
        "torsional_mm": b.torsional_mm,
        "rolling_mm": b.rolling_mm,
        **params,
    }
    full.setdefault("edge_friction", full["friction"])
    return full


def _name(params: dict[str, float]) -> str:
    short = {
        "friction": "mu",
        "edge_friction": "mu_edge",
        "restitution": "e",
        "edge_radius_mm": "r",
        "inertia_g_mm2": "I",
        "time_constant_s": "tc",
        "torsional_mm": "tors",
        "rolling_mm": "roll",
    }
    return " ".join(f"{short.get(k, k)} {params[k]:g}" for k in sorted(params))


def cmd_report(args: argparse.Namespace) -> None:
    cache = outside_repo(Path(args.cache))
    for engine in ("reference", "2.5d"):
        pts = reference_grid() if engine == "reference" else planar_grid()
        paths = [cache / engine / f"{key(p)}.npz" for p in pts]
        missing = [p for p in paths if not p.exists()]
        if missing:
            print(
                f"{engine}: {len(missing)} of {len(pts)} grid points not run yet "
                f"(grid --engine {engine})"
            )
            continue
        results = [load_point(p) for p in paths]
        cpu = sum(r.cpu_s for r in results)
        n = results[0].agree.size
        print(f"\n## {engine}: {len(results)} grid points x {n} tosses, {cpu / 60:.1f} CPU minutes")
        for k, crit in ((5, "loss"), (10, "loss"), (5, "faces")):
            cv = cross_validate(results, k=k, seed=args.seed, criterion=crit)
            print(
                f"{k}-fold CV (seed {args.seed}), chosen by {crit}, held out: face agreement "
                f"{cv.agreement:.3f} "
                f"({cv.agree_ci[0]:.3f}-{cv.agree_ci[1]:.3f}), rest error median "
                f"{cv.rest_err_median:.3f} sides (q1-q3 {cv.rest_err_q1:.3f}-"
                f"{cv.rest_err_q3:.3f}), trajectory error in contact {cv.traj_pos:.3f} sides, "
                f"{cv.traj_angle_deg:.1f} deg, "
                f"loss {cv.loss:.3f}; baseline {cv.baseline:.3f}"
            )
            if k == 5:  # the folds' choices
                for j, fold in enumerate(cv.folds):
                    print(
                        f"  fold {j}: chose {_name(results[fold.chosen].params)}; held out "
                        f"{fold.agree}/{fold.n} = {fold.agree / fold.n:.3f}, rest median "
                        f"{fold.rest_err_median:.3f}, loss train {fold.train_loss:.3f} "
                        f"test {fold.test_loss:.3f}"
                    )
        losses = [float(np.mean(toss_loss(r))) for r in results]
        order = np.argsort(losses)
        print("best in-sample (all tosses):")
        for i in order[:10]:
            r = results[i]
            print(
                f"  {_name(r.params)}: loss {losses[i]:.3f}, agreement {np.mean(r.agree):.3f}, "
                f"rest median {np.median(r.rest_err):.3f}"
            )
        params = sorted({k for r in results for k in r.params})
        for pname in params:
            prof = profile(results, pname)
            if len(prof) < 2:
                continue
            cells = ", ".join(
                f"{v:g}: {loss:.3f} ({np.mean(results[i].agree):.3f})" for v, i, loss in prof
            )
            print(f"profile {pname} (least loss, its agreement): {cells}")
        for crit in ("loss", "faces"):
            draws = bootstrap(results, args.draws, args.seed, crit)
            print(f"bootstrap ({args.draws} resamples of the tosses), the point chosen by {crit}:")
            ids, counts = np.unique(draws, return_counts=True)
            for i, c in sorted(zip(ids, counts, strict=True), key=lambda x: -x[1])[:6]:
                print(f"  {c / args.draws:.3f}  {_name(results[int(i)].params)}")
            for pname in params:
                vals = [_full(results[int(i)].params)[pname] for i in draws]
                lo, hi = np.percentile(vals, [2.5, 97.5])
                print(f"  {pname}: 95 % of resamples in {lo:g}..{hi:g}")


def cmd_final(args: argparse.Namespace) -> None:
    prepared, side = load_prepared(args.tosses)
    rows = []
    for name in args.materials.split(","):
        mat = material(name)
        for engine in ("reference", "2.5d"):
            t0 = time.process_time()
            eng = make_engine(engine, side * 1e3, mat)
            outs = [run_toss(p, eng, side) for p in prepared]
            cpu = time.process_time() - t0
            rows.append((f"{engine}, {name}", summarize(outs)))
            wrong = [o for o in outs if o.agrees is False]
            real = sum(1 for o in outs if o.measured_face != o.start_face)
            model = sum(1 for o in outs if o.sim_face != o.start_face)
            kept = sum(1 for o in wrong if o.sim_face == o.start_face)
            tipped = sum(1 for o in wrong if o.measured_face == o.start_face)
            print(
                f"{engine}, {name}: {len(wrong)} wrong faces: the real cube changed face and the "
                f"model kept it in {kept}, the model changed it and the real cube kept it in "
                f"{tipped}, both changed it to different faces in {len(wrong) - kept - tipped}; "
                f"the face changed in {real} real tosses and {model} simulated ones"
            )
            print(
                f"{engine}, {name}: {cpu:.1f} s CPU, {cpu / len(outs) * 1e3:.0f} ms a toss",
                flush=True,
            )
    print()
    print("\n".join(markdown_rows(rows)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tosses", type=Path, default=DEFAULT_TOSSES, help="the toss file (.npz)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("measure")
    cv = sub.add_parser("convergence")
    cv.add_argument("--material", default="contactnets-acrylic")
    g = sub.add_parser("grid")
    g.add_argument("--engine", choices=("reference", "2.5d"), required=True)
    g.add_argument("--cache", required=True, help="folder outside the repository")
    g.add_argument("--reverse", action="store_true", help="the points in reverse order")
    r = sub.add_parser("report")
    r.add_argument("--cache", required=True)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--draws", type=int, default=1000)
    fi = sub.add_parser("final")
    fi.add_argument("--materials", default="contactnets-acrylic,contactnets-upstream")
    args = ap.parse_args()
    {
        "measure": cmd_measure,
        "convergence": cmd_convergence,
        "grid": cmd_grid,
        "report": cmd_report,
        "final": cmd_final,
    }[args.cmd](args)


if __name__ == "__main__":
    main()
