"""The trials behind ``warlords-sim flick``: the standard set-up on either
engine, one die flicked from a start point or a seat's front area, N noisy
trials from consecutive seeds, and their text summary.

Imported by the ``flick`` command when it runs (not for its ``--help``), by
tests and benchmarks; also ``flick --record``'s recording
(:func:`open_sandbox_recorder`, :func:`record_flick`). The set-up itself
(world, start, siege placement, speed limit) is the rules layer's
:mod:`warlords_sim.rules.flick_setup`. Units mm, mm/s, rad/s; frame origin
at the board centre, x right, y up.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from warlords_sim.board import Board
from warlords_sim.extras import extra_hint, missing_modules
from warlords_sim.fidelity.hand import noisy_velocity
from warlords_sim.physics import Flick, FlickError, FlickResult, LaunchKind, Region
from warlords_sim.rules.flick_setup import (
    MAX_FLICK_SPEED,
    flick_start,
    speed_problem,
    standard_world,
)
from warlords_sim.rules.physics_port import Physics

if TYPE_CHECKING:
    from warlords_sim.replay import Recorder

__all__ = [
    "TrialResult",
    "open_sandbox_recorder",
    "record_flick",
    "run_trials",
    "setup_world",
    "summary",
]

_DIE = 0


@dataclass(frozen=True)
class TrialResult:
    """One trial of ``flick``: its inputs after noise and where the die ended."""

    trial: int
    seed: int
    velocity: tuple[float, float]
    initial_face: int
    face: int
    x_mm: float
    y_mm: float
    angle_rad: float
    region: Region
    cocked: bool
    settle_s: float
    steps: int
    landings: int
    digest: str

    def as_json(self) -> dict[str, object]:
        return {
            "trial": self.trial,
            "seed": self.seed,
            "vx_mm_s": self.velocity[0],
            "vy_mm_s": self.velocity[1],
            "initial_face": self.initial_face,
            "face": self.face,
            "x_mm": self.x_mm,
            "y_mm": self.y_mm,
            "angle_rad": self.angle_rad,
            "region": str(self.region),
            "cocked": self.cocked,
            "settle_s": self.settle_s,
            "steps": self.steps,
            "landings": self.landings,
            "digest": self.digest,
        }


def setup_world(board: Board, engine: str = "2.5d") -> Physics:
    """The standard set-up on ``engine``:
    :func:`warlords_sim.rules.flick_setup.standard_world` (all four castles,
    every seat's three centre-ring pins in seat order).

    Raises:
        ValueError: an unknown engine.
        ImportError: the reference engine without MuJoCo installed.
        WorldError: a board the engine cannot simulate (a cuboid die on the
            2.5D engine, a restitution out of the reference's reach).
    """
    return standard_world(board, engine)


def run_trials(
    board: Board,
    *,
    at: tuple[float, float] | None = None,
    seat_area: tuple[int, int] | None = None,
    velocity: tuple[float, float],
    spin: float = 0.0,
    strike: float = 0.0,
    launch: LaunchKind = LaunchKind.TABLE,
    face: int = 1,
    seed: int = 0,
    trials: int = 1,
    noise: float = 0.0,
    progress: bool = False,
    on_result: Callable[[TrialResult], None] | None = None,
    engine: str = "2.5d",
) -> list[TrialResult]:
    """Run ``trials`` flicks of one die from the same start.

    Trial i uses ``numpy.random.default_rng(seed + i)``: the speed is
    multiplied by (1 + normal(0, noise)) and the direction turned by
    normal(0, noise) rad; a noisy speed over the maximum is clamped to it.
    Without noise every trial flicks at exactly ``velocity``.
    ``on_result`` is called with each trial as it finishes (to stream output).
    ``engine`` names the physics engine (one of ``ENGINES``); trials of
    both engines draw the same noisy inputs from the same seeds.

    Raises:
        FlickError: bad flick inputs (NaN, speed over the maximum, ...).
        FlickSetupError: see :func:`~warlords_sim.rules.flick_setup.flick_start`.
        WorldError, ImportError, ValueError: see :func:`setup_world`.
    """
    base = setup_world(board, engine)
    begin = flick_start(board, base, at, seat_area, launch, velocity)
    start, height, siege = begin.start, begin.height_mm, begin.siege_engine
    problem = speed_problem(math.hypot(*velocity))
    if problem is not None:
        raise FlickError(problem)

    def fresh() -> Physics:
        # building the set-up anew (0.5 ms) is ten times cheaper than copying it
        world = setup_world(board, engine)
        if siege is not None:
            world.place_siege_engine(*siege)
        if launch is LaunchKind.TABLE:
            world.add_die(_DIE, start[0], start[1], face)
        return world

    out: list[TrialResult] = []
    indices = range(trials)
    iterator: Iterable[int] = indices
    if progress:
        from rich.console import Console
        from rich.progress import track

        # drawn even when stderr is not a terminal (a pipe, a log): progress
        # is True only when it was asked for or stderr is a terminal
        console = Console(stderr=True, force_terminal=True)
        iterator = track(indices, description="flicking", console=console, transient=True)
    for i in iterator:
        v = noisy_velocity(velocity, noise, np.random.default_rng(seed + i), MAX_FLICK_SPEED)
        world = fresh()
        fl = Flick(
            _DIE,
            v,
            spin,
            launch,
            None if launch is LaunchKind.TABLE else start,
            height,
            strike,
        )
        res = world.flick(fl, face=face)
        result = _trial(i, seed + i, v, res)
        out.append(result)
        if on_result is not None:
            on_result(result)
    return out


def _trial(i: int, seed: int, v: tuple[float, float], res: FlickResult) -> TrialResult:
    e = res.end()
    return TrialResult(
        i, seed, v, res.initial_face, e.face, e.x, e.y, e.angle, e.region, e.cocked,
        res.settle_s, res.steps, e.landings, res.digest,
    )  # fmt: skip


def summary(results: list[TrialResult], label: str) -> str:
    """The text report of ``flick``: one trial's rest, or N trials' face counts
    (with a chi-square test against uniform faces), regions and spread."""
    n = len(results)
    lines = [label]
    if n == 1:
        r = results[0]
        lines += [
            f"  face     {r.initial_face} -> {r.face}" + ("  (cocked)" if r.cocked else ""),
            f"  rests at ({r.x_mm:.1f}, {r.y_mm:.1f}) mm, angle {r.angle_rad:.3f} rad",
            f"  region   {r.region}",
            f"  settled  after {r.settle_s:.3f} s ({r.steps} steps, {r.landings} landings)",
            f"  digest   {r.digest[:16]}",
        ]
        return "\n".join(lines)
    faces = Counter(r.face for r in results)
    regions = Counter(str(r.region) for r in results)
    lines.append(f"  trials   {n}")
    lines.append("  faces    " + "  ".join(f"{f}:{faces.get(f, 0)}" for f in range(1, 7)))
    counts = [faces.get(f, 0) for f in range(1, 7)]
    if sum(counts) >= 6:
        if missing_modules("lab", ["scipy"]):  # the player's install has no scipy
            lines.append(f"  chi-square against uniform faces: needs the {extra_hint('lab')}")
        else:
            from scipy.stats import chisquare

            p = float(chisquare(counts).pvalue)
            lines.append(f"  chi-square against uniform faces: p = {p:.3g}")
    lines.append("  regions  " + ", ".join(f"{k} {v}" for k, v in regions.most_common()))
    settle = np.array([r.settle_s for r in results])
    lines.append(f"  settle   median {np.median(settle):.3f} s, max {settle.max():.3f} s")
    dist = np.array([[r.x_mm, r.y_mm] for r in results])
    lines.append(
        f"  landing  mean ({dist[:, 0].mean():.1f}, {dist[:, 1].mean():.1f}) mm, "
        f"sd ({dist[:, 0].std():.1f}, {dist[:, 1].std():.1f}) mm"
    )
    return "\n".join(lines)


# ------------------------------------------------------- flick --record


def open_sandbox_recorder(path: str, board: Board, force: bool) -> Recorder:
    """``flick --record PATH``: a new sandbox replay (before any simulation).

    Raises:
        ReplayError: the file exists (without ``force``) or cannot be written.
    """
    from warlords_sim.replay import Recorder

    return Recorder.create(Path(path), board, seed=None, bots=[], mode="sandbox", force=force)


def record_flick(
    rec: Recorder,
    board: Board,
    at: tuple[float, float] | None,
    seat_area: tuple[int, int] | None,
    launch: LaunchKind,
    trial: TrialResult,
    spin: float,
    face: int,
    strike: float = 0.0,
) -> None:
    """Record ``flick``'s single trial as a sandbox flick and close the replay.

    Raises:
        FlickSetupError: as :func:`run_trials` (not after a trial ran).
        RuntimeError: the recorded flick does not settle as the trial did (a bug).
    """
    from warlords_sim.replay import SandboxFlick, apply_sandbox, sandbox_setup, sandbox_world

    begin = flick_start(board, setup_world(board), at, seat_area, launch, trial.velocity)
    table = launch is LaunchKind.TABLE
    action = SandboxFlick(
        die=0,
        velocity=trial.velocity,
        spin=spin,
        launch=launch,
        start=None if table else begin.start,
        height_mm=begin.height_mm,
        face=face,
        add_at=begin.start if table else None,
        siege_engine=begin.siege_engine,
        strike_mm=strike,
    )
    world = sandbox_world(board, sandbox_setup(board))
    result = apply_sandbox(world, action)
    if result.digest != trial.digest:  # the same flick in the same world: a bug if not
        raise RuntimeError(f"recorded flick digest {result.digest} != {trial.digest}")
    with rec:
        rec.record(action, world, result=result)
        rec.finish(world)
