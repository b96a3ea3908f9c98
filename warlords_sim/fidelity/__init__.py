"""The fidelity suite: the 2.5D model and the 3D reference engine side by
side on scenarios kept as data (issue 9, item 3).

Layers: :mod:`.scenarios` (the TOML file, validated), :mod:`.hand` (hand
noise), :mod:`.runner` (noisy trials on one engine through the physics
port), :mod:`.metrics` (figures), :mod:`.uncertainty` (the reference's spread
over its unmeasured parameters), :mod:`.verdict` (agreement),
:mod:`.suite` (:func:`run_fidelity`), :mod:`.table` and :mod:`.plot`
(output; they load rich and matplotlib, so they are not imported here).

Example::

    from warlords_sim.board import load_board
    from warlords_sim.fidelity import load_scenarios, run_fidelity, select

    board = load_board("standard")
    scenarios = select(load_scenarios(board=board), "high-2-900,slide-pin-300")
    report = run_fidelity(board, scenarios, trials=50, seed=0, engines=("2.5d", "reference"))
    print(report.passed)
"""

from warlords_sim.fidelity.hand import noisy_velocity
from warlords_sim.fidelity.metrics import EngineStats, Spread, engine_stats, spread, tv_distance
from warlords_sim.fidelity.runner import TrialOutcome, run_scenario
from warlords_sim.fidelity.scenarios import (
    DEFAULT_SCENARIOS,
    Scenario,
    ScenarioError,
    load_scenarios,
    select,
)
from warlords_sim.fidelity.suite import FidelityError, FidelityReport, ScenarioReport, run_fidelity
from warlords_sim.fidelity.uncertainty import VARIANTS, ReferenceSpread, Variant, reference_spread
from warlords_sim.fidelity.verdict import Check, Criterion, Tolerances, compare

__all__ = [
    "DEFAULT_SCENARIOS",
    "VARIANTS",
    "Check",
    "Criterion",
    "EngineStats",
    "FidelityError",
    "FidelityReport",
    "ReferenceSpread",
    "Scenario",
    "ScenarioError",
    "ScenarioReport",
    "Spread",
    "Tolerances",
    "TrialOutcome",
    "Variant",
    "compare",
    "engine_stats",
    "load_scenarios",
    "noisy_velocity",
    "reference_spread",
    "run_fidelity",
    "run_scenario",
    "select",
    "spread",
    "tv_distance",
]
