"""The fidelity verdict within the reference's own uncertainty (issue 19,
item 2): the spread of the reference's faces over its unmeasured parameters
(edge radius, restitution) is the tolerance of the faces and P(face changed)
criteria when it is wider than the fixed one.

Everything here runs on constructed figures or a fake engine behind the
physics port: no MuJoCo. Each test fails on the code before the spread
existed (no ``fidelity.uncertainty``, no ``spread`` in ``compare``, no
``variants`` in ``run_fidelity``, no ``--spread`` option).
"""

from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest
from click.testing import CliRunner

from warlords_sim.board import Board, load_board
from warlords_sim.cli import main
from warlords_sim.fidelity import (
    Criterion,
    EngineStats,
    Spread,
    compare,
    load_scenarios,
    run_fidelity,
    select,
)
from warlords_sim.fidelity import runner as runner_mod
from warlords_sim.fidelity.table import markdown, scenario_rows
from warlords_sim.fidelity.uncertainty import (
    VARIANTS,
    ReferenceSpread,
    Variant,
    reference_spread,
    variant_board,
)
from warlords_sim.physics.types import DiePose, Flick, FlickResult, Region, RegionKind
from warlords_sim.rules.physics_port import make_world


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board("standard")


def _stats(faces: tuple[int, ...] = (10, 0, 0, 0, 0, 10), changed: float = 0.5) -> EngineStats:
    sp = Spread(100.0, 75.0, 125.0)
    return EngineStats(
        "e", 20, sp, Spread(0.0, -5.0, 5.0), 0.0, 3.0, changed,
        (faces[0], faces[1], faces[2], faces[3], faces[4], faces[5]), (("board", 20),), 1.0, 0.0,
    )  # fmt: skip


def _checks(a: EngineStats, b: EngineStats, spread: ReferenceSpread | None) -> dict:
    return {c.criterion: c for c in compare(a, b, spread=spread)}


def test_a_spread_wider_than_the_fixed_tolerance_is_the_tolerance() -> None:
    """Faces TV 0.20 fails against 0.15; a reference whose own faces move
    by TV 0.25 between edge radii makes 0.25 the tolerance, and it passes."""
    ref = _stats()
    judged = _stats(faces=(6, 4, 0, 0, 0, 10))  # 4 of 20 dice moved: TV 0.20
    assert not _checks(judged, ref, None)[Criterion.FACES].passed
    wide = reference_spread(ref, {"r 2.4 mm": _stats(faces=(5, 5, 0, 0, 0, 10))})
    assert wide.faces == pytest.approx(0.25)
    c = _checks(judged, ref, wide)[Criterion.FACES]
    assert c.passed and c.widened
    assert c.tolerance == pytest.approx(0.25) and c.spread == pytest.approx(0.25)
    assert c.difference == pytest.approx(0.20)


def test_a_spread_narrower_than_the_fixed_tolerance_keeps_it() -> None:
    ref = _stats()
    judged = _stats(faces=(6, 4, 0, 0, 0, 10))
    narrow = reference_spread(ref, {"e 0.6": _stats(faces=(9, 1, 0, 0, 0, 10))})
    c = _checks(judged, ref, narrow)[Criterion.FACES]
    assert not c.passed and not c.widened
    assert c.tolerance == pytest.approx(0.15) and c.spread == pytest.approx(0.05)


def test_the_face_changed_tolerance_widens_from_its_own_floor() -> None:
    """P(face changed) 0.70 against 0.50 fails at 0.10; a reference spread
    of 0.25 there passes it; the spread of one criterion leaves the other's
    tolerance and every other criterion alone."""
    ref = _stats(changed=0.5)
    judged = _stats(changed=0.7)
    assert not _checks(judged, ref, None)[Criterion.FACE_CHANGED].passed
    sp = reference_spread(ref, {"r 0.8 mm": _stats(changed=0.75), "e 0.45": _stats(changed=0.4)})
    assert sp.face_changed == pytest.approx(0.25) and sp.faces == 0.0
    checks = _checks(judged, ref, sp)
    assert checks[Criterion.FACE_CHANGED].passed
    assert checks[Criterion.FACE_CHANGED].tolerance == pytest.approx(0.25)
    assert checks[Criterion.FACES].tolerance == pytest.approx(0.15)
    assert checks[Criterion.BEHIND].tolerance == pytest.approx(0.10)
    assert checks[Criterion.BEHIND].spread is None


def test_the_spread_is_the_largest_over_the_variants_and_minds_missing_faces() -> None:
    ref = _stats()
    none = _stats(faces=(0,) * 6, changed=math.nan)
    sp = reference_spread(ref, {"a": _stats(faces=(9, 1, 0, 0, 0, 10)), "b": none})
    assert [v.name for v in sp.variants] == ["a", "b"]
    assert sp.faces == 1.0 and sp.face_changed == 1.0  # one side has no faces at all
    assert reference_spread(none, {"a": none}).faces == 0.0
    assert reference_spread(ref, {}).faces == 0.0
    doc = sp.as_json()
    assert doc["faces_tv"] == 1.0 and doc["variants"][0]["faces"]["2"] == 1


def test_variant_boards_move_one_parameter(board: Board) -> None:
    r = variant_board(board, Variant("edge_radius_mm", 2.4))
    assert r.die.edge_radius_mm == 2.4
    assert replace(r, die=board.die) == board
    e = variant_board(board, Variant("restitution", 0.45))
    assert (e.die.table_restitution, e.wall_material.restitution, e.pin.material.restitution) == (
        0.45, 0.45, 0.45,
    )  # fmt: skip
    assert e.die.die_restitution == board.die.die_restitution
    assert [v.name for v in VARIANTS] == ["r 0.8 mm", "r 2.4 mm", "e 0.45", "e 0.6"]
    with pytest.raises(ValueError, match="half the die's smallest side"):
        variant_board(board, Variant("edge_radius_mm", 8.0))
    with pytest.raises(ValueError, match="at most 1"):
        variant_board(board, Variant("restitution", 1.2))
    with pytest.raises(ValueError, match="edge_radius_mm or restitution"):
        Variant("friction", 0.3)


class _RadiusWorld:
    """A fake reference: the flicked die stays where it was launched and
    shows face 1 with the board's 1.6 mm edge radius, face 2 with 0.8 mm and
    face 3 with 2.4 mm (any restitution); every board it is built on is recorded."""

    boards: list[Board] = []
    flicks: list[Flick] = []

    def __init__(self, board: Board) -> None:
        self.board = board
        self.at: dict[int, tuple[float, float]] = {}
        _RadiusWorld.boards.append(board)

    def add_pin(self, hole: int) -> None:
        pass

    def place_siege_engine(self, x: float, y: float) -> None:
        pass

    def add_die(self, die: int, x: float, y: float, face: int = 1, angle: float = 0.0) -> None:
        self.at[die] = (x, y)

    def flick(self, flick: Flick, face: int | None = None, max_time: float = 60.0) -> FlickResult:
        _RadiusWorld.flicks.append(flick)
        x, y = flick.start or self.at[flick.die]
        f = {1.6: 1, 0.8: 2, 2.4: 3}[self.board.die.edge_radius_mm]
        pose = DiePose(flick.die, x, y, 0.0, f, 0, Region(RegionKind.BOARD))
        return FlickResult(flick, {flick.die: pose}, (), (), 1, 0.1, "", face or 1)


def test_the_suite_runs_the_variants_on_the_same_trials(
    board: Board, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reference baseline runs once per variant on that variant's board
    with the same noisy flicks; half its dice move to another face between
    edge radii, so the faces tolerance is the spread (TV 1.0) and the 2.5D's
    disagreement (every die kept face 1 on the table) passes it; the table
    and the JSON show the spread."""

    def fake(b: Board, engine: str, seats: object, side: bool) -> object:
        return _RadiusWorld(b) if engine == "reference" else make_world(b, engine, seats, side)  # type: ignore[arg-type]

    monkeypatch.setattr(runner_mod, "make_world", fake)
    _RadiusWorld.boards, _RadiusWorld.flicks = [], []
    sc = select(load_scenarios(board=board), "slide-pin-300")
    report = run_fidelity(board, sc, 3, 2, ("2.5d", "reference"), variants=VARIANTS)
    assert report.variants == VARIANTS
    radii = sorted({b.die.edge_radius_mm for b in _RadiusWorld.boards})
    assert radii == [0.8, 1.6, 2.4]
    assert {b.die.table_restitution for b in _RadiusWorld.boards} == {0.45, 0.5, 0.6}
    assert len(_RadiusWorld.flicks) == 3 * (1 + len(VARIANTS))
    first = [f.velocity for f in _RadiusWorld.flicks[:3]]
    for k in range(1, 1 + len(VARIANTS)):
        assert [f.velocity for f in _RadiusWorld.flicks[3 * k : 3 * k + 3]] == first
    sr = report.scenarios[0]
    assert sr.spread is not None
    assert [(v.name, v.faces_tv) for v in sr.spread.variants] == [
        ("r 0.8 mm", 1.0), ("r 2.4 mm", 1.0), ("e 0.45", 0.0), ("e 0.6", 0.0),
    ]  # fmt: skip
    checks = {c.criterion: c for c in sr.checks}
    assert checks[Criterion.FACES].widened and checks[Criterion.FACES].passed
    rows = {r.criterion: r for r in scenario_rows(sr)}
    assert rows["reference spread, faces TV"].b == "1.00 (r 0.8 mm)"
    assert "(reference spread)" in rows["faces 1-6"].agreement
    md = markdown(report)
    assert "reference spread: faces TV" in md and "| 1.00 (r 0.8 mm) |" in md
    doc = json.loads(json.dumps(report.as_json(), allow_nan=False))
    assert [v["name"] for v in doc["reference_variants"]] == [v.name for v in VARIANTS]
    spread = doc["scenarios"][0]["reference_spread"]
    assert spread["faces_tv"] == 1.0
    faces = [c for c in doc["scenarios"][0]["checks"] if c["criterion"] == "faces"][0]
    assert faces["tolerance_is_spread"] is True and faces["reference_spread"] == 1.0


def test_no_spread_without_a_reference_baseline_or_variants(board: Board) -> None:
    sc = select(load_scenarios(board=board), "slide-wall-300")
    report = run_fidelity(board, sc, 2, 0, ("2.5d", "2.5d"), variants=VARIANTS)
    assert report.variants == () and report.scenarios[0].spread is None
    assert all(c.spread is None and not c.widened for c in report.scenarios[0].checks)
    assert "reference spread" not in markdown(report)


def test_cli_spread_needs_the_reference_baseline() -> None:
    res = CliRunner().invoke(
        main, ["fidelity", "--engines", "2.5d,2.5d", "--spread", "--scenarios", "slide-wall-300"]
    )
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, res.output
    assert "--spread" in res.output and "reference" in res.output
