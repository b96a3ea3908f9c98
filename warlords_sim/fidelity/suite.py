"""The fidelity suite: every scenario on two engines, side by side, judged.

:func:`run_fidelity` runs each scenario's noisy trials on both engines (the
same seeds, so the same noisy flicks), summarises them
(:mod:`.metrics`) and judges the first engine against the second, the
baseline (:mod:`.verdict`). When the baseline is the reference engine and
variants are given (:data:`.uncertainty.VARIANTS`), it also runs the same
trials on the reference with each variant's board and judges the faces
within the reference's spread (:mod:`.uncertainty`). The result is a
frozen :class:`FidelityReport`; :mod:`.table` prints it and :mod:`.plot`
draws it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from warlords_sim.board import Board
from warlords_sim.errors import WarlordsError
from warlords_sim.fidelity.metrics import EngineStats, engine_stats
from warlords_sim.fidelity.runner import TrialOutcome, build_world, engine_problem, run_scenario
from warlords_sim.fidelity.scenarios import Scenario
from warlords_sim.fidelity.uncertainty import (
    ReferenceSpread,
    Variant,
    reference_spread,
    variant_board,
)
from warlords_sim.fidelity.verdict import ISSUE_9, Check, Tolerances, compare
from warlords_sim.rules.physics_port import ENGINES

#: ``(board, scenario, engine, trials, seed, on_trial) -> outcomes``, as
#: :func:`.runner.run_scenario`.
ScenarioRunner = Callable[
    [Board, Scenario, str, int, int, Callable[[], None] | None], tuple[TrialOutcome, ...]
]

__all__ = ["FORMAT", "FidelityError", "FidelityReport", "ScenarioReport", "run_fidelity"]

#: Format name of :meth:`FidelityReport.as_json`.
FORMAT = "warlords-fidelity-report"


class FidelityError(WarlordsError, ValueError):
    """Bad arguments to :func:`run_fidelity` (engines, trials, no scenarios)."""


@dataclass(frozen=True)
class ScenarioReport:
    """One scenario: both engines' trials and figures, and the checks of the
    first engine against the second (the baseline); ``spread`` is the
    reference baseline's spread over its unmeasured parameters (None if not
    measured)."""

    scenario: Scenario
    outcomes: tuple[tuple[TrialOutcome, ...], tuple[TrialOutcome, ...]]
    stats: tuple[EngineStats, EngineStats]
    checks: tuple[Check, ...]
    spread: ReferenceSpread | None = None

    @property
    def passed(self) -> bool:
        """Every criterion agrees."""
        return all(c.passed for c in self.checks)

    def as_json(self) -> dict[str, object]:
        s = self.scenario
        return {
            "name": s.name,
            "description": s.description,
            "launch": s.flick.launch.value,
            "velocity_mm_s": list(s.flick.velocity),
            "spin_rad_s": s.flick.spin,
            "noise": s.noise,
            "passed": self.passed,
            "checks": [c.as_json() for c in self.checks],
            "reference_spread": None if self.spread is None else self.spread.as_json(),
            "engines": [
                {**st.as_json(), "outcomes": [o.as_json() for o in out]}
                for st, out in zip(self.stats, self.outcomes, strict=True)
            ],
        }


@dataclass(frozen=True)
class FidelityReport:
    """The whole run: settings and one :class:`ScenarioReport` per scenario;
    ``variants`` are those the reference baseline's spread was measured over
    (none: not measured)."""

    board: str
    trials: int
    seed: int
    engines: tuple[str, str]
    tolerances: Tolerances
    scenarios: tuple[ScenarioReport, ...]
    variants: tuple[Variant, ...] = ()

    @property
    def passed(self) -> bool:
        """Every scenario agrees."""
        return all(s.passed for s in self.scenarios)

    def as_json(self) -> dict[str, object]:
        """Every figure, as plain JSON types (NaN as null). Units: mm, s, shares."""
        t = self.tolerances
        return {
            "format": FORMAT,
            "version": 1,
            "board": self.board,
            "trials": self.trials,
            "seed": self.seed,
            "engines": list(self.engines),
            "baseline": self.engines[1],
            "tolerances": {
                "median_rel": t.median_rel,
                "median_mm": t.median_mm,
                "iqr_rel": t.iqr_rel,
                "iqr_mm": t.iqr_mm,
                "share": t.share,
                "tv": t.tv,
            },
            "reference_variants": [
                {"name": v.name, "parameter": v.parameter, "value": v.value} for v in self.variants
            ],
            "passed": self.passed,
            "scenarios_passed": sum(s.passed for s in self.scenarios),
            "scenarios": [s.as_json() for s in self.scenarios],
        }


def run_fidelity(
    board: Board,
    scenarios: Sequence[Scenario],
    trials: int,
    seed: int = 0,
    engines: Sequence[str] = ("2.5d", "reference"),
    *,
    tolerances: Tolerances = ISSUE_9,
    variants: Sequence[Variant] = (),
    on_trial: Callable[[], None] | None = None,
    runner: ScenarioRunner = run_scenario,
) -> FidelityReport:
    """Run ``scenarios`` on both ``engines`` and judge the first against the
    second (the baseline).

    Trial i of every scenario, on both engines, draws its hand noise from
    ``numpy.random.default_rng(seed + i)``. Every scenario's set-up is built
    once on each engine before any trial runs, so a set-up that does not fit
    or an engine that is not installed fails at once.

    Args:
        board: the board.
        scenarios: the scenarios (see :func:`.load_scenarios`).
        trials: noisy trials per scenario and engine, >= 1.
        seed: noise seed of trial 0, >= 0.
        engines: two names from :data:`~warlords_sim.rules.physics_port.ENGINES`
            (the same name twice is allowed: a self-check).
        tolerances: the agreement tolerances.
        variants: when the baseline is ``"reference"``, the unmeasured
            parameters' variants to measure its spread over (the same
            trials again for each; :data:`.uncertainty.VARIANTS`); ignored
            for another baseline.
        on_trial: called after every trial (a progress bar).
        runner: runs one scenario's trials on one engine and board
            (:func:`.runner.run_scenario`, or a wrapper of it that keeps
            its outcomes, as ``benchmarks/fidelity.py --cache`` does).

    Raises:
        FidelityError: not two known engines, an engine that cannot simulate
            the board (a cuboid die on the 2.5D engine), trials < 1, a
            negative seed, no scenarios.
        ImportError: the reference engine is not installed.
        ScenarioError: an engine cannot simulate the board, or a set-up
            does not fit it (the message names the file, scenario and field).
        RuntimeError: an engine failed on a trial (chained).
    """
    engs = tuple(engines)
    if len(engs) != 2 or any(e not in ENGINES for e in engs):
        raise FidelityError(
            f"engines: expected two of {', '.join(ENGINES)} (the second is the baseline), "
            f"got {','.join(engs) or 'none'}"
        )
    if trials < 1:
        raise FidelityError(f"trials: expected at least 1, got {trials}")
    if seed < 0:
        raise FidelityError(f"seed: expected >= 0, got {seed}")
    if not scenarios:
        raise FidelityError("no scenarios to run")
    for engine in dict.fromkeys(engs):
        problem = engine_problem(board, engine)
        if problem is not None:
            raise FidelityError(f"engine {engine} cannot run the board: {problem}")
        for sc in scenarios:
            build_world(board, sc, engine)
    boards = {v: variant_board(board, v) for v in variants} if engs[1] == "reference" else {}
    for v, vb in boards.items():
        problem = engine_problem(vb, "reference")
        if problem is not None:
            raise FidelityError(f"reference variant {v.name} cannot run the board: {problem}")
    reports = []
    for sc in scenarios:
        outs = tuple(runner(board, sc, e, trials, seed, on_trial) for e in engs)
        a, b = (engine_stats(e, o) for e, o in zip(engs, outs, strict=True))
        spread = None
        if boards:
            runs = {
                v.name: runner(vb, sc, "reference", trials, seed, on_trial)
                for v, vb in boards.items()
            }
            spread = reference_spread(b, {n: engine_stats(n, o) for n, o in runs.items()})
        checks = compare(a, b, tolerances, spread)
        reports.append(ScenarioReport(sc, (outs[0], outs[1]), (a, b), checks, spread))
    engines_ = (engs[0], engs[1])
    return FidelityReport(
        board.name, trials, seed, engines_, tolerances, tuple(reports), tuple(boards)
    )
