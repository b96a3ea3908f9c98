"""Benchmark: has the reference engine's face outcome converged in its timestep,
its contact softness and its solver options? (issue 19, item 2)

Launches: the fidelity suite's three launch set-ups (``high-2-900``: seat 0,
area 2, high crenelation; ``low-2-900``: the low one; ``siege-over-wall-800``:
the siege engine at (0, -150) shooting over seat 0's front wall), each at
``--speeds`` speeds spread evenly over 300-1800 mm/s along the scenario's aim,
no hand noise, face 1 up at launch. Every setting runs the same launches, so
each launch is compared pointwise between two settings and the face
distributions are compared with the pairing kept.

Settings (groups), each against the group's baseline:

* timestep: the contact the reference had until ``reference-6`` (time
  constant 2 ms, solimp width 0.2 mm) at 0.2, 0.1, 0.05, 0.025 and 0.0125 ms
  (``--timesteps``), against the finest; and its chaos floor (0.025 ms
  against itself with every speed times 1 + 1e-6). 0.4 ms cannot give the
  board's die-on-die restitution 0.69 with that contact (the calibration
  refuses it), so it is not run.
* softness: the time constant from 2 ms down to 0.125 ms, halving, with the
  solimp width kept at 0.1 mm per ms (the contact's force law keeps its
  shape as it stiffens), each at timestep = time constant / 10, 20, 40 and
  80 down to 6.25 us, against the stiffest at its finest timestep.
* chosen: the reference's contact (``SOLVER``) at a tenth, a twentieth and
  a fortieth of its time constant, against the last.
* solver: at the reference's timestep (``--at``), MuJoCo's other knobs of
  contact accuracy (MuJoCo documentation, Modeling, "Solver parameters" and
  "Preventing slip"; Computation, "Choosing timestep and integrator"): the
  implicitfast and RK4 integrators, impratio 10, Newton tolerance 1e-10,
  three NoSlip iterations; and its chaos floor.

Figures per setting: the share of launches with the same face at rest as
the baseline ("pointwise"), also with the rest position within 1 mm, P(face
kept) (face 1 still up; a die off the board has kept nothing), and the
total-variation distance (TV) of the resting-face distributions (faces 1-6
and "off the board") on seven subsets: each kind over every speed, every kind
in each of the bands 300-800, 800-1300, 1300-1800 mm/s, and everything.
Faces of a chaotic toss never agree pointwise between settings (1e-6 of the
speed changes them: the chaos floors), so the criterion of convergence is the
distribution: a subset is within the noise when neither its TV nor its
difference in P(face kept) is larger than 95 % of those figures when each
launch's two outcomes are swapped at random (2,000 swaps, seeded; a
randomisation test of equal distributions for paired data, at 5 %). With a
chaotic system this is what can be asked: that no test on these launches
tells the setting from the baseline.

Drop test: the calibrated damping ratio of the die on the table (board
restitution 0.5) at each setting, the rebound ratio of face-down drops
(:func:`~warlords_sim.reference.calibrate.drop_rebound`) with that damping
ratio simulated at half the timestep (0.5 when the calibration has
converged), and how long a 700 mm/s drop's first contact lasts face and
corner down, beside a Hertz estimate of a real corner impact
(:func:`hertz_range`). Tumbling drops: ``--tosses`` tosses
(:mod:`~warlords_sim.reference.toss`: 150 mm, random orientation and spin)
of the board's die at each timestep of the timestep group: pointwise faces
and TV against the finest.

Run: nice python benchmarks/reference_convergence.py [--speeds 100]
     [--tosses 60] [--jobs 1] [--detail] [--save FILE [--force]]
     [--load FILE [--resume]]
Prints Markdown tables (docs/fidelity.md, "Convergence of the reference"):
one row per setting, or with ``--detail`` one per setting and subset; and
the CPU time. ``--save`` keeps the raw outcomes (JSON lines; an existing file
only with --force); ``--load`` prints the tables from such files without
simulating (with ``--resume``, it runs what they lack; with ``--save``,
everything is written to the new file). About 50 CPU minutes at the defaults.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import resource
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import mujoco
import numpy as np

from warlords_sim.board import Board, load_board
from warlords_sim.fidelity import load_scenarios
from warlords_sim.fidelity.scenarios import Scenario
from warlords_sim.physics.types import Flick
from warlords_sim.reference import TIMESTEP, ReferenceWorld
from warlords_sim.reference.calibrate import (
    DROP_SPEEDS,
    damping_ratio,
    drop_model,
    drop_rebound,
    set_dampratio,
)
from warlords_sim.reference.solver import SOLVER, Solver
from warlords_sim.reference.toss import TossSetup, toss

#: Headings of the groups' tables.
TITLES = {
    "timestep": "Timestep, with the 2 ms contact of reference-5",
    "softness": "Contact softness (time constant, solimp width, timestep)",
    "chosen": "Timestep, with the reference's contact",
    "solver": "Solver options, with the reference's contact and timestep",
}
#: Launch kinds and the fidelity scenario whose set-up each uses.
SETUPS = {"high": "high-2-900", "low": "low-2-900", "siege": "siege-over-wall-800"}
SPEED_RANGE = (300.0, 1800.0)
#: Speed bands (mm/s) of the distribution rows.
BANDS = ((300.0, 800.0), (800.0, 1300.0), (1300.0, 1800.0))
#: Relative speed change of the chaos-floor rows.
PERTURBATION = 1e-6
#: The contact of the timestep group: 2 ms, solimp width 0.2 mm (the
#: reference's until ``reference-6``), and the timestep of its chaos floor.
TIMESTEP_CONTACT = replace(SOLVER, time_constant=2e-3, solimp_width_mm=0.2)
CHAOS_TIMESTEP = 2.5e-5
#: Contact time constants of the softness group (s), each with a solimp
#: width of 0.1 mm per ms (the contact's force law kept in shape as it
#: stiffens), at timestep = time constant / each of RATIOS, none below
#: MIN_TIMESTEP (s; finer ones cost too much).
SOFTNESS = (2e-3, 1e-3, 5e-4, 2.5e-4, 1.25e-4)
WIDTH_PER_S = 100.0
RATIOS = (10, 20, 40, 80)
MIN_TIMESTEP = 6.25e-6
#: Rest positions closer than this (mm) agree.
SAME_PLACE_MM = 1.0
SWAPS = 2000
TOSS_HEIGHT_MM = 150.0
#: Approach speed (mm/s) of the drops whose contact duration is measured, and
#: the die's edge radius (mm, the standard board's).
CONTACT_DROP_MM_S = 700.0
RADIUS_MM = 1.6
OFF = 0  # "face" of a die that left the board


@dataclass(frozen=True)
class Setting:
    """One way of running the reference: a timestep (s), solver settings and
    a relative change of every launch speed (0 but for the chaos floor)."""

    group: str
    label: str
    timestep: float
    solver: Solver
    perturb: float = 0.0
    baseline: bool = False

    @property
    def key(self) -> str:
        """What the outcomes depend on (settings of equal keys run once)."""
        return json.dumps([self.timestep, asdict(self.solver), self.perturb], sort_keys=True)


def _softness_label(s: Solver, dt: float) -> str:
    return f"{s.time_constant * 1e3:g} ms, {s.solimp_width_mm:g} mm, {dt * 1e3:g} ms"


def settings(timesteps: Sequence[float], at: float = TIMESTEP) -> list[Setting]:
    """Every setting of the study, in print order; one baseline per group.
    The solver group (and its chaos floor) runs at timestep ``at`` (s)."""
    out: list[Setting] = []
    finest = min(timesteps)
    for dt in sorted(timesteps, reverse=True):
        out.append(
            Setting("timestep", f"{dt * 1e3:g} ms", dt, TIMESTEP_CONTACT, baseline=dt == finest)
        )
    out.append(
        Setting("timestep", f"{CHAOS_TIMESTEP * 1e3:g} ms, speeds x (1 + 1e-6)", CHAOS_TIMESTEP,
                TIMESTEP_CONTACT, PERTURBATION)
    )  # fmt: skip
    soft = [
        (tc, ratio) for tc in SOFTNESS for ratio in RATIOS if tc / ratio >= MIN_TIMESTEP - 1e-12
    ]
    stiffest = min(tc for tc, _ in soft)
    top = max(r for tc, r in soft if tc == stiffest)
    for tc, ratio in soft:
        sv = replace(SOLVER, time_constant=tc, solimp_width_mm=WIDTH_PER_S * tc)
        dt = tc / ratio
        out.append(Setting("softness", _softness_label(sv, dt), dt, sv,
                           baseline=(tc, ratio) == (stiffest, top)))  # fmt: skip
    ratios = [r for r in RATIOS if SOLVER.time_constant / r >= MIN_TIMESTEP - 1e-12]
    for ratio in ratios:
        dt = SOLVER.time_constant / ratio
        out.append(Setting("chosen", _softness_label(SOLVER, dt), dt, SOLVER,
                           baseline=ratio == max(ratios)))  # fmt: skip
    for sv in (
        SOLVER,
        replace(SOLVER, integrator="implicitfast"),
        replace(SOLVER, integrator="rk4"),
        replace(SOLVER, impratio=10.0),
        replace(SOLVER, tolerance=1e-10),
        replace(SOLVER, noslip_iterations=3),
    ):
        out.append(Setting("solver", sv.label(), at, sv, baseline=sv == SOLVER))
    out.append(Setting("solver", "default, speeds x (1 + 1e-6)", at, SOLVER, PERTURBATION))
    return out


# ------------------------------------------------------------------ running


def _world(board: Board, sc: Scenario, setting: Setting) -> ReferenceWorld:
    w = ReferenceWorld(board, sc.castle_seats, sc.side_walls, setting.timestep, setting.solver)
    for hole in sc.pins:
        w.add_pin(hole)
    if sc.siege_engine is not None:
        w.place_siege_engine(*sc.siege_engine)
    for d in sc.dice:
        w.add_die(d.die, d.x, d.y, d.face, d.angle)
    return w


def run_launches(job: tuple[Setting, str, int]) -> list[dict[str, object]]:
    """One setting's launches of one kind: a row per launch."""
    setting, kind, n = job
    board = load_board("standard")
    sc = {s.name: s for s in load_scenarios(board=board)}[SETUPS[kind]]
    base = _world(board, sc, setting)
    start, height = sc.launch_point(board)
    ux, uy = sc.flick.aim
    rows: list[dict[str, object]] = []
    for i, v in enumerate(np.linspace(*SPEED_RANGE, n)):
        speed = float(v) * (1.0 + setting.perturb)
        f = sc.flick
        flick = Flick(f.die, (ux * speed, uy * speed), f.spin, f.launch, start, height)
        res = base.copy().flick(flick, face=f.face)
        p = res.pose
        face, x, y = (OFF, math.nan, math.nan) if p is None else (p.face, p.x, p.y)
        rows.append(
            {
                "part": "launch",
                "key": setting.key,
                "label": setting.label,
                "kind": kind,
                "i": i,
                "v": float(v),
                "face": face,
                "x": x,
                "y": y,
                "initial": res.initial_face,
            }
        )
    return rows


def contact_ms(model: mujoco.MjModel, sides: tuple[float, float, float], corner: bool) -> float:
    """How long (ms) the first contact of a die dropped at CONTACT_DROP_MM_S
    onto the table of a :func:`~warlords_sim.reference.calibrate.drop_model`
    lasts: face down, or corner down (the body diagonal vertical)."""
    data = mujoco.MjData(model)
    dt = model.opt.timestep
    q = np.array([1.0, 0.0, 0.0, 0.0])
    low = sides[2] / 2.0
    if corner:  # turn (1, 1, 1) / sqrt(3) onto -z: about (-1, 1, 0) by acos(-1 / sqrt(3))
        angle = math.acos(-1.0 / math.sqrt(3.0))
        q = np.array([math.cos(angle / 2.0), *(np.array([-1.0, 1.0, 0.0]) / math.sqrt(2.0)
                      * math.sin(angle / 2.0))])  # fmt: skip
        low = math.sqrt(3.0) * (sides[0] / 2.0 - RADIUS_MM) + RADIUS_MM
    data.qpos[:3] = [0.0, 0.0, (low + 0.2) * 1e-3]
    data.qpos[3:7] = q
    data.qvel[2] = -CONTACT_DROP_MM_S * 1e-3
    steps = 0
    for _ in range(int(0.05 / dt)):
        mujoco.mj_step(model, data)
        if data.ncon:
            steps += 1
        elif steps:
            break
    return steps * dt * 1e3


def hertz_ms(m_g: float, radius_mm: float, e_star_pa: float, v_mm_s: float) -> float:
    """Duration (ms) of an elastic Hertz impact of a sphere of ``radius_mm``
    and effective mass ``m_g`` at ``v_mm_s`` on a half-space, combined modulus
    ``e_star_pa``: 2.87 (m^2 / (R E*^2 v))^(1/5) (K. L. Johnson, Contact
    Mechanics, 1985, section 11.4)."""
    m, r, v = m_g * 1e-3, radius_mm * 1e-3, v_mm_s * 1e-3
    return 2.87 * (m * m / (r * e_star_pa**2 * v)) ** 0.2 * 1e3


def hertz_range() -> tuple[float, float]:
    """The Hertz duration (ms) of the standard die's corner (edge radius
    1.6 mm, 4.6 g acrylic) striking a wooden board, over the plausible
    ranges: effective mass a quarter of the die's to all of it, wood across
    the grain E = 0.5-2 GPa (radial modulus 0.05-0.15 of the longitudinal
    10-14 GPa; Wood Handbook, USDA Forest Products Laboratory, chapter 4),
    Poisson 0.4; acrylic 3.2 GPa, 0.35 (engineering tables); 0.5-1.5 m/s."""

    def e_star(wood: float) -> float:
        return 1.0 / ((1 - 0.35**2) / 3.2e9 + (1 - 0.4**2) / wood)

    short = hertz_ms(4.6 / 4.0, RADIUS_MM, e_star(2e9), 1500.0)
    long = hertz_ms(4.6, RADIUS_MM, e_star(0.5e9), 500.0)
    return short, long


def run_drops(job: tuple[Setting, float | None, int]) -> list[dict[str, object]]:
    """The drop test of one setting: the calibrated damping ratio (unless
    ``known``, already measured) and the rebound with it at half the
    timestep; the contact's duration face and corner down; ``n`` tumbling tosses."""
    setting, known, n = job
    board = load_board("standard")
    die = board.die
    geo = (die.sides_mm, die.edge_radius_mm, die.mass_g, board.pin.radius_mm, board.gravity_mm_s2)
    s, dt = setting.solver, setting.timestep
    rows: list[dict[str, object]] = []
    dr = known
    if dr is None:
        dr = damping_ratio("table", die.table_restitution, dt, *geo, s)
        model, geom = drop_model("table", *geo, dt / 2.0, s)
        set_dampratio(model, geom, "table", dr, s.time_constant)
        half = drop_rebound(model, die.sides_mm, DROP_SPEEDS)
        rows.append(
            {
                "part": "drop",
                "key": setting.key,
                "label": setting.label,
                "dampratio": dr,
                "rebound_half_step": half,
            }
        )
    model, geom = drop_model("table", *geo, dt, s)
    set_dampratio(model, geom, "table", dr, s.time_constant)
    rows.append(
        {
            "part": "contact",
            "key": setting.key,
            "face_ms": contact_ms(model, die.sides_mm, False),
            "corner_ms": contact_ms(model, die.sides_mm, True),
        }
    )
    if n:
        setup = TossSetup(
            die.sides_mm,
            die.edge_radius_mm,
            die.mass_g,
            die.table_restitution,
            die.table_friction,
            dt,
            board.gravity_mm_s2,
            s,
        )
        for i in range(n):
            face = toss(setup, np.random.default_rng([19, i]), TOSS_HEIGHT_MM)
            rows.append(
                {"part": "toss", "key": setting.key, "label": setting.label, "i": i, "face": face}
            )
    return rows


# -------------------------------------------------------------- statistics


def _tv(a: Sequence[int], b: Sequence[int]) -> float:
    ca, cb = Counter(a), Counter(b)
    return 0.5 * sum(abs(ca[k] - cb[k]) for k in set(ca) | set(cb)) / len(a)


def paired_noise(
    a: Sequence[int], b: Sequence[int], initial: int, rng: np.random.Generator
) -> tuple[float, float, float, float, bool]:
    """TV of the face distributions of paired outcomes ``a``, ``b`` and the
    difference in P(face ``initial`` kept), each with the 95 % quantile of
    the same figure over random swaps within pairs, and whether both pass
    the randomisation test at 5 % (at least 5 % of the swaps give a figure as
    large as the observed one): (tv, tv95, dkept, dkept95, agree)."""
    x, y = np.asarray(a), np.asarray(b)
    tv = _tv(list(x), list(y))
    dk = abs(float(np.mean(x == initial)) - float(np.mean(y == initial)))
    tvs, dks = [], []
    for _ in range(SWAPS):
        swap = rng.random(x.size) < 0.5
        xs, ys = np.where(swap, y, x), np.where(swap, x, y)
        tvs.append(_tv(list(xs), list(ys)))
        dks.append(abs(float(np.mean(xs == initial)) - float(np.mean(ys == initial))))
    eps = 1e-12
    agree = (
        float(np.mean(np.asarray(tvs) >= tv - eps)) >= 0.05
        and float(np.mean(np.asarray(dks) >= dk - eps)) >= 0.05
    )
    return tv, float(np.quantile(tvs, 0.95)), dk, float(np.quantile(dks, 0.95)), agree


def _launch_rows(rows: list[dict], key: str, kind: str) -> list[dict]:
    return sorted(
        (r for r in rows if r["part"] == "launch" and r["key"] == key and r["kind"] == kind),
        key=lambda r: r["i"],
    )


def _subsets(kinds: Sequence[str]) -> list[tuple[str, tuple[str, ...], float, float]]:
    """(name, kinds, lowest speed, highest speed) of the table's rows per setting:
    each kind over every speed, every kind in each speed band, everything."""
    top = SPEED_RANGE[1] + 1.0
    out = [(k, (k,), SPEED_RANGE[0], top) for k in kinds]
    out += [(f"{lo:g}-{hi:g} mm/s", tuple(kinds), lo, hi if hi < SPEED_RANGE[1] else top)
            for lo, hi in BANDS]  # fmt: skip
    return [*out, ("all", tuple(kinds), SPEED_RANGE[0], top)]


@dataclass(frozen=True)
class Row:
    """One setting against another on one subset of the launches."""

    subset: str
    n: int
    kept: float
    same: float = math.nan
    near: float = math.nan
    tv: float = math.nan
    tv95: float = math.nan
    dkept: float = math.nan
    dkept95: float = math.nan
    agree: bool = True


def compare_rows(
    rows: list[dict], key: str, other: str | None, kinds: Sequence[str], rng: np.random.Generator
) -> list[Row]:
    """The launches of setting ``key`` against those of ``other`` (None:
    only its own P(face kept)) on every subset; subsets either lacks are left out."""
    out = []
    for name, ks, lo, hi in _subsets(kinds):
        a = [r for k in ks for r in _launch_rows(rows, key, k) if lo <= r["v"] < hi]
        if not a:
            continue
        fa = [int(r["face"]) for r in a]
        kept = float(np.mean([f == r["initial"] for f, r in zip(fa, a, strict=True)]))
        if other is None:
            out.append(Row(name, len(a), kept))
            continue
        b = [r for k in ks for r in _launch_rows(rows, other, k) if lo <= r["v"] < hi]
        if len(a) != len(b):
            continue
        fb = [int(r["face"]) for r in b]
        same = float(np.mean([x == y for x, y in zip(fa, fb, strict=True)]))
        near = float(
            np.mean(
                [
                    x == y and math.hypot(p["x"] - q["x"], p["y"] - q["y"]) < SAME_PLACE_MM
                    for x, y, p, q in zip(fa, fb, a, b, strict=True)
                ]
            )
        )
        tv, tv95, dk, dk95, agree = paired_noise(fa, fb, int(a[0]["initial"]), rng)
        out.append(Row(name, len(a), kept, same, near, tv, tv95, dk, dk95, agree))
    return out


def _against(s: Setting, base: Setting) -> str:
    """The key a setting is compared with: the chaos floor with its own
    setting unperturbed, every other with the group's baseline."""
    return replace(s, perturb=0.0).key if s.perturb else base.key


def group_table(rows: list[dict], group: list[Setting], kinds: Sequence[str]) -> list[str]:
    """Markdown, one row per setting and subset of the launches, against
    the group's baseline, and a line counting the rows outside the noise."""
    base = next(s for s in group if s.baseline)
    out = [
        "| setting | launches | n | same face | same face, within 1 mm | P(face kept) | "
        "TV (95 % noise) | P(kept) difference (95 % noise) | within noise |",
        "|---|---|--:|--:|--:|--:|--:|--:|:-:|",
    ]
    rng = np.random.default_rng(19)
    tests = fails = 0
    for s in group:
        found = compare_rows(rows, s.key, None if s.baseline else _against(s, base), kinds, rng)
        for i, r in enumerate(found):
            head = (s.label + (" (baseline)" if s.baseline else "")) if i == 0 else ""
            if s.baseline:
                out.append(f"| {head} | {r.subset} | {r.n} |  |  | {r.kept:.2f} |  |  |  |")
                continue
            if not s.perturb:
                tests += 1
                fails += not r.agree
            out.append(
                f"| {head} | {r.subset} | {r.n} | {r.same:.2f} | {r.near:.2f} | {r.kept:.2f} | "
                f"{r.tv:.2f} ({r.tv95:.2f}) | {r.dkept:.2f} ({r.dkept95:.2f}) | "
                f"{'yes' if r.agree else '**no**'} |"
            )
    out.append(
        f"\n{fails} of {tests} rows against the baseline outside the noise "
        f"(by chance alone about {0.1 * tests:.1f}: two tests a row at 5 %)."
    )
    return out


def summary_table(rows: list[dict], group: list[Setting], kinds: Sequence[str]) -> list[str]:
    """Markdown, one row per setting: pointwise agreement with the baseline
    (all launches, and each kind), P(face kept) by kind, the largest TV of
    any subset with its noise, and how many subsets are within the noise."""
    base = next(s for s in group if s.baseline)
    ks = ", ".join(kinds)
    out = [
        f"| setting | same face: all ({ks}) | same face, within 1 mm: all | "
        f"P(face kept): {ks} | largest TV of a subset (95 % noise) | subsets within noise |",
        "|---|--:|--:|--:|--:|--:|",
    ]
    rng = np.random.default_rng(19)
    for s in group:
        found = compare_rows(rows, s.key, None if s.baseline else _against(s, base), kinds, rng)
        if not found:
            continue
        by = {r.subset: r for r in found}
        kept = ", ".join(f"{by[k].kept:.2f}" for k in kinds if k in by)
        if s.baseline:
            out.append(f"| {s.label} (baseline) |  |  | {kept} |  |  |")
            continue
        every = by.get("all", found[-1])
        each = ", ".join(f"{by[k].same:.2f}" for k in kinds if k in by)
        worst = max(found, key=lambda r: r.tv)
        ok = sum(r.agree for r in found)
        out.append(
            f"| {s.label} | {every.same:.2f} ({each}) | {every.near:.2f} | {kept} | "
            f"{worst.tv:.2f} ({worst.tv95:.2f}, {worst.subset}) | {ok} of {len(found)} |"
        )
    return out


def drop_table(rows: list[dict], group: list[Setting]) -> list[str]:
    """Markdown rows of the drop test of one group."""
    out = [
        "| setting | table damping ratio | rebound at half the timestep | "
        f"contact at {CONTACT_DROP_MM_S:g} mm/s, face / corner down, ms |",
        "|---|--:|--:|--:|",
    ]
    for s in group:
        d = next((r for r in rows if r["part"] == "drop" and r["key"] == s.key), None)
        c = next((r for r in rows if r["part"] == "contact" and r["key"] == s.key), None)
        if d is not None and not s.perturb:
            length = "" if c is None else f"{c['face_ms']:.2f} / {c['corner_ms']:.2f}"
            out.append(
                f"| {s.label} | {d['dampratio']:.3f} | {d['rebound_half_step']:.3f} | {length} |"
            )
    return out


def toss_table(rows: list[dict], group: list[Setting]) -> list[str]:
    base = next(s for s in group if s.baseline)
    fb = [
        int(r["face"])
        for r in sorted(
            (r for r in rows if r["part"] == "toss" and r["key"] == base.key), key=lambda r: r["i"]
        )
    ]
    if not fb:
        return []
    out = ["| timestep | same face as the finest | TV (95 % noise) |", "|---|--:|--:|"]
    rng = np.random.default_rng(19)
    for s in group:
        fa = [
            int(r["face"])
            for r in sorted(
                (r for r in rows if r["part"] == "toss" and r["key"] == s.key), key=lambda r: r["i"]
            )
        ]
        if not fa or s.baseline:
            continue
        tv, tv95, _, _, _ = paired_noise(fa, fb, 1, rng)
        same = float(np.mean([x == y for x, y in zip(fa, fb, strict=True)]))
        out.append(f"| {s.label} | {same:.2f} | {tv:.2f} ({tv95:.2f}) |")
    return out


# -------------------------------------------------------------------- main


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--speeds", type=int, default=100, help="launch speeds per kind (default 100)")
    ap.add_argument("--tosses", type=int, default=60, help="tumbling drops per timestep")
    ap.add_argument(
        "--timesteps",
        default="0.2,0.1,0.05,0.025,0.0125",
        help="timesteps of the timestep group, ms (default 0.2,...,0.0125)",
    )
    ap.add_argument(
        "--at",
        type=float,
        default=TIMESTEP * 1e3,
        help="timestep of the chaos floor and the solver group, ms (default the reference's)",
    )
    ap.add_argument("--groups", default="timestep,softness,chosen,solver", help="groups to run")
    ap.add_argument("--kinds", default="high,low,siege", help="launch kinds")
    ap.add_argument("--detail", action="store_true", help="every subset's row, not a summary")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--save", metavar="FILE", help="keep the raw outcomes there (JSON lines)")
    ap.add_argument("--force", action="store_true", help="with --save: overwrite FILE")
    ap.add_argument(
        "--load",
        metavar="FILE",
        action="append",
        help="print the tables of --save files (repeatable) without simulating",
    )
    ap.add_argument(
        "--resume", action="store_true", help="with --load: also run what the files lack"
    )
    a = ap.parse_args()
    kinds = tuple(a.kinds.split(","))
    groups = tuple(a.groups.split(","))
    if any(k not in SETUPS for k in kinds) or a.speeds < 2 or not 1 <= a.jobs <= 64:
        ap.error(f"--kinds: some of {', '.join(SETUPS)}; --speeds >= 2; --jobs in 1..64")
    try:
        steps = [float(t) * 1e-3 for t in a.timesteps.split(",")]
    except ValueError:
        ap.error(f"--timesteps: comma-separated milliseconds, got {a.timesteps!r}")
    every = [s for s in settings(steps, a.at * 1e-3) if s.group in groups]
    if a.save and Path(a.save).exists() and not a.force:
        ap.error(f"--save {a.save}: the file already exists; pass --force to overwrite it")
    t0, wall = time.process_time(), time.time()
    rows: list[dict] = []
    for f in a.load or []:
        rows += [json.loads(line) for line in Path(f).read_text().splitlines()]
    have = {(r["key"], r.get("kind")) for r in rows if r["part"] != "toss"}
    have |= {(r["key"], "toss") for r in rows if r["part"] == "toss"}
    unique = list({s.key: s for s in every}.values())
    run = not a.load or a.resume
    jobs: list[tuple] = [
        (s, k, a.speeds) for s in unique for k in kinds if run and (s.key, k) not in have
    ]
    dropped: dict[str, tuple[Setting, bool]] = {}  # key -> (setting, tossed too)
    for s in every:
        if s.group in ("timestep", "softness") and not s.perturb:
            tossed = dropped.get(s.key, (s, False))[1] or s.group == "timestep"
            dropped[s.key] = (s, tossed)
    known = {r["key"]: r["dampratio"] for r in rows if r["part"] == "drop"}
    contacts = {r["key"] for r in rows if r["part"] == "contact"}
    drops = [
        (s, known.get(s.key), a.tosses if tossed and (s.key, "toss") not in have else 0)
        for s, tossed in dropped.values()
        if run and (s.key not in contacts or (tossed and (s.key, "toss") not in have))
    ]
    out = open(a.save, "w") if a.save else None  # noqa: SIM115 (written as parts finish)

    def keep(part: list[dict]) -> None:
        rows.extend(part)
        if out is not None:
            out.write("".join(json.dumps(r) + "\n" for r in part))
            out.flush()

    if out is not None:
        keep([])
        out.write("".join(json.dumps(r) + "\n" for r in rows))
    if a.jobs == 1:
        for j in jobs:
            keep(run_launches(j))
            print(
                f"... {j[0].label} {j[1]}: {time.process_time() - t0:.0f} s CPU",
                file=sys.stderr,
                flush=True,
            )
        for d in drops:
            keep(run_drops(d))
    elif jobs or drops:
        with multiprocessing.Pool(a.jobs) as pool:
            for part in pool.imap_unordered(run_launches, jobs):
                keep(part)
                print(
                    f"... {part[0]['label']} {part[0]['kind']}: {time.time() - wall:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
            for part in pool.imap_unordered(run_drops, drops):
                keep(part)
    if out is not None:
        out.close()
    cpu = time.process_time() - t0 + resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    print(
        f"Launches: {', '.join(f'{k} ({SETUPS[k]})' for k in kinds)}; {a.speeds} speeds "
        f"each, {SPEED_RANGE[0]:g}-{SPEED_RANGE[1]:g} mm/s, no noise. Reference solver: "
        f"{asdict(SOLVER)}, timestep {TIMESTEP * 1e3:g} ms; chaos floor and solver "
        f"group at {a.at:g} ms.\n"
    )
    for g in groups:
        grp = [s for s in every if s.group == g]
        if not grp:
            continue
        print(f"### {TITLES.get(g, g)}\n")
        print("\n".join(summary_table(rows, grp, kinds)) + "\n")
        if a.detail:
            print("\n".join(group_table(rows, grp, kinds)) + "\n")
        if g in ("timestep", "softness"):
            print("Drop test:\n")
            print("\n".join(drop_table(rows, grp)) + "\n")
        if g == "softness":
            lo, hi = hertz_range()
            print(f"A real corner impact (Hertz, die on wood): {lo:.2f}-{hi:.2f} ms.\n")
        if g == "timestep":
            tt = toss_table(rows, grp)
            if tt:
                print(f"Tumbling drops ({TOSS_HEIGHT_MM:g} mm, random orientation):\n")
                print("\n".join(tt) + "\n")
    if jobs or drops:
        print(f"CPU {cpu / 60:.1f} min ({time.time() - wall:.0f} s wall, {a.jobs} job(s))")


if __name__ == "__main__":
    main()
