"""The fidelity suite (issue 9, item 3): scenario files, metrics with known
answers, the verdict, and ``warlords-sim fidelity`` end to end.

Engine runs use "2.5d" on both sides (a self-check that must agree on every
criterion), a fake engine (the suite must not care which engine it runs)
and, when it is built, the MuJoCo reference.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner, Result

from warlords_sim.board import BOARDS_DIR, Board, load_board
from warlords_sim.cli import fidelity_cmd as fidelity_cmd_mod
from warlords_sim.cli import main
from warlords_sim.fidelity import (
    Criterion,
    EngineStats,
    ScenarioError,
    Spread,
    TrialOutcome,
    compare,
    engine_stats,
    load_scenarios,
    noisy_velocity,
    run_fidelity,
    select,
    spread,
    tv_distance,
)
from warlords_sim.fidelity import runner as runner_mod
from warlords_sim.fidelity.runner import trial_outcome
from warlords_sim.physics.types import (
    DiePose,
    Event,
    EventKind,
    Flick,
    FlickResult,
    LaunchKind,
    Region,
    RegionKind,
)
from warlords_sim.rules.physics_port import make_world


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board("standard")


def _cli(*args: object) -> Result:
    return CliRunner().invoke(main, ["fidelity", *(str(a) for a in args)])


# ------------------------------------------------------------ scenario files

_GOOD = """format = "warlords-fidelity-scenarios"
version = 1

[[scenario]]
name = "first"
description = "fine"
noise = 0.05
flick = { launch = "high", from = "0:2", velocity = [0.0, 900.0] }

[[scenario]]
name = "second"
description = "the one edited below"
noise = 0.05
flick = { launch = "table", at = [0.0, -120.0], velocity = [0.0, 600.0] }
"""


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "scen.toml"
    p.write_text(text)
    return p


def _edit(old: str, new: str) -> str:
    head, sep, tail = _GOOD.partition('name = "second"')
    assert old in tail
    return head + sep + tail.replace(old, new)


@pytest.mark.parametrize(
    ("text", "needles"),
    [
        ("format = [", ["not valid TOML"]),
        (_GOOD.replace("warlords-fidelity-scenarios", "x"), ["field `format`", "expected"]),
        (
            _edit(", velocity = [0.0, 600.0]", ""),
            ["'second' (#2)", "missing field `flick.velocity`"],
        ),
        (_edit("noise = 0.05", "noise = 0.05\nspeed = 3"), ["'second'", "unknown field `speed`"]),
        (_edit('launch = "table"', 'launch = "sideways"'), ["'second'", "flick.launch"]),
        (_edit("600.0]", '"fast"]'), ["'second'", "flick.velocity"]),
        (_edit("600.0]", "600.0], face = 7"), ["'second'", "flick.face", "1-6"]),
        (_edit("600.0]", "6000.0]"), ["'second'", "flick.velocity", "2000"]),
        (_edit("noise = 0.05", "noise = 1.5"), ["'second'", "field `noise`", "[0, 1]"]),
        (_edit('at = [0.0, -120.0]', 'from = "0:2"'), ["'second'", "flick.from"]),
        (_edit('launch = "table", at = [0.0, -120.0]', 'launch = "siege"'), ["siege_engine"]),
        (_edit("noise = 0.05", "noise = 0.05\npins = [0, 999]"), ["'second'", "pins[1]", "0-"]),
        (_edit("noise = 0.05", 'noise = 0.05\npins = "all"'), ["'second'", "field `pins`"]),
        (_edit("at = [0.0, -120.0]", "at = [0.0, -420.0]"), ["flick.at", "on the board"]),
        (
            _edit("noise = 0.05", "noise = 0.05\ndice = [{ die = 0, at = [50.0, 0.0] }]"),
            ["'second'", "dice[0].die"],
        ),
        (_GOOD.replace('name = "second"', 'name = "first"'), ["'first' (#2)", "used twice"]),
        (_GOOD.replace('name = "second"', 'name = "Second, Case"'), ["field `name`"]),
    ],
)  # fmt: skip
def test_bad_scenario_files_name_file_scenario_and_field(
    tmp_path: Path, board: Board, text: str, needles: list[str]
) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(ScenarioError) as info:
        load_scenarios(path, board)
    msg = str(info.value)
    assert str(path) in msg
    for needle in needles:
        assert needle in msg, msg


@pytest.mark.parametrize(
    ("edit", "field", "blocker"),
    [
        ("dice = [{ die = 1, at = [0.0, -60.0] }]", "dice[0].at", "the pin in hole 9"),
        ("dice = [{ die = 1, at = [0.0, -214.0] }]", "dice[0].at", "a wall of castle 0"),
        ("dice = [{ die = 1, at = [5.0, -120.0] }]", "flick.at", "die 1"),
        (
            "dice = [{ die = 1, at = [50.0, 50.0] }, { die = 2, at = [52.0, 50.0] }]",
            "dice[1].at",
            "die 1",
        ),
        ("siege_engine = [0.0, -60.0]", "siege_engine", "the pin in hole 9"),
        ("siege_engine = [0.0, -200.0]", "siege_engine", "a wall of castle 0"),
        ("siege_engine = [0.0, -130.0]", "flick.at", "the siege engine"),
    ],
)
def test_a_set_up_that_does_not_fit_is_refused_on_load(
    tmp_path: Path, board: Board, edit: str, field: str, blocker: str
) -> None:
    """A die or siege engine overlapping a wall, a pin, the engine or another
    die is refused when the file is loaded with its board (so --list refuses
    it too), naming the file, the scenario, the field and what it overlaps.

    What broke: these were found only when a world was built, in a message
    naming neither the file nor the field (``set-up on 2.5d: a die at (0,
    -214) mm would overlap a wall``); a siege engine on a pin or a wall was
    not found at all."""
    path = _write(tmp_path, _edit("noise = 0.05", f"noise = 0.05\n{edit}"))
    with pytest.raises(ScenarioError) as info:
        load_scenarios(path, board)
    msg = str(info.value)
    for needle in (str(path), "'second' (#2)", f"field `{field}`:", f"overlap {blocker}"):
        assert needle in msg, msg
    res = _cli("--scenario-file", path, "--list")
    assert res.exit_code == 2 and f"field `{field}`:" in res.output, res.output


def test_a_set_up_found_only_when_built_names_file_and_field(tmp_path: Path, board: Board) -> None:
    """Loaded without a board (no geometry checks), a die on a pin is found
    when the world is built: the run fails before any trial, the message
    naming the file, the scenario, the field and the engine."""
    path = _write(
        tmp_path, _edit("noise = 0.05", "noise = 0.05\ndice = [{ die = 1, at = [0.0, -60.0] }]")
    )
    scenarios = load_scenarios(path)
    scenarios = tuple(replace(s, pins=(9,)) for s in scenarios)
    with pytest.raises(ScenarioError) as info:
        run_fidelity(board, scenarios, 1, 0, ("2.5d", "2.5d"))
    msg = str(info.value)
    for needle in (str(path), "'second'", "field `dice[0].at`", "on 2.5d", "overlap"):
        assert needle in msg, msg


def test_a_board_an_engine_cannot_run_is_one_line(tmp_path: Path) -> None:
    """``fidelity --board CUBOID`` on the 2.5D engine: one line, exit 2.

    What broke: make_world's WorldError (the 2.5D engine models cubic dice
    only) was raised outside build_world's try: a traceback."""
    text = BOARDS_DIR.joinpath("standard.toml").read_text()
    text = text.replace("# sides_mm = [16.0, 16.0, 16.0]", "sides_mm = [16.0, 16.0, 12.0]")
    path = tmp_path / "cuboid.toml"
    path.write_text(text)
    res = _cli("--board", path, "--scenarios", "slide-pin-300", "--trials", 1,
               "--engines", "2.5d,2.5d")  # fmt: skip
    assert res.exit_code == 2, res.output
    assert "engine 2.5d cannot run the board" in res.output and "cubic dice only" in res.output
    assert len(res.output.strip().splitlines()) == 1, res.output


def test_the_shipped_scenarios_cover_the_issue(board: Board) -> None:
    """Crenelations high and low, areas 1-3, 300/900/1600 mm/s, with and
    without spin; table slides into a pin, a wall and a die, head-on and
    offset, 300-1500 mm/s; a landing on a die; siege shots."""
    sc = load_scenarios(board=board)
    cren = [s for s in sc if s.flick.launch in (LaunchKind.LOW, LaunchKind.HIGH)]
    assert {s.flick.launch for s in cren} == {LaunchKind.LOW, LaunchKind.HIGH}
    assert {s.flick.seat_area[1] for s in cren if s.flick.seat_area} == {1, 2, 3}
    assert {300.0, 900.0, 1600.0} <= {math.hypot(*s.flick.velocity) for s in cren}
    assert {s.flick.spin != 0.0 for s in cren} == {True, False}
    table = [s for s in sc if s.flick.launch is LaunchKind.TABLE]
    speeds = [math.hypot(*s.flick.velocity) for s in table]
    assert min(speeds) <= 300.0 and max(speeds) >= 1500.0
    assert any(s.dice for s in table) and any(not s.dice for s in table)
    for kind in ("pin", "wall", "die"):
        names = [s.name for s in table if f"-{kind}-" in s.name]
        assert any("offset" in n for n in names) and any("offset" not in n for n in names), kind
    assert any(s.dice and s.flick.launch is LaunchKind.HIGH for s in sc)  # lands on a die
    assert any(s.flick.launch is LaunchKind.SIEGE for s in sc)
    assert len({s.name for s in sc}) == len(sc)


def test_select_keeps_the_order_given_and_refuses_unknown_names(board: Board) -> None:
    sc = load_scenarios(board=board)
    picked = select(sc, "slide-pin-300, high-2-900")
    assert [s.name for s in picked] == ["slide-pin-300", "high-2-900"]
    assert select(sc, "all") == sc
    with pytest.raises(ScenarioError, match="unknown scenario 'nope'"):
        select(sc, "high-2-900,nope")


# ----------------------------------------------------------------- metrics


def test_spread_and_tv_distance_known_answers() -> None:
    s = spread([5.0, 1.0, 4.0, 2.0, 3.0])
    assert (s.median, s.q1, s.q3, s.iqr) == (3.0, 2.0, 4.0, 2.0)
    assert spread([0.0, 10.0]).q1 == 2.5  # linear interpolation
    assert math.isnan(spread([]).median)
    assert tv_distance({1: 2, 2: 2}, {1: 4}) == pytest.approx(0.5)
    assert tv_distance({"a": 3}, {"a": 30}) == 0.0
    assert tv_distance({"a": 1}, {"b": 1}) == 1.0
    assert tv_distance({1: 1, 2: 1, 3: 2}, {1: 2, 2: 1, 3: 1}) == pytest.approx(0.25)
    assert math.isnan(tv_distance({}, {"a": 1}))
    with pytest.raises(ValueError):
        tv_distance({"a": -1}, {"a": 1})


def _outcome(along: float, face: int = 1, exited: bool = False, landings: int = 0,
             region: str = "board", across: float = 0.0) -> TrialOutcome:  # fmt: skip
    return TrialOutcome(
        0, (0.0, 1.0), across, along, along, across, exited, 1, face,
        "off_board" if exited else region, landings, 1.0, False,
    )  # fmt: skip


def test_engine_stats_of_constructed_outcomes() -> None:
    outs = [
        _outcome(-5.0, face=1, landings=2),
        _outcome(10.0, face=3, landings=4, region="moat:0"),
        _outcome(20.0, face=3, landings=0),
        _outcome(300.0, face=6, exited=True, landings=2),  # its face is not counted
    ]
    st = engine_stats("x", outs)
    assert st.trials == 4
    assert st.behind_share == 0.25
    assert st.landings_mean == 2.0
    assert st.face_changed == pytest.approx(2.0 / 3.0)
    assert st.faces == (1, 0, 2, 0, 0, 0)
    assert st.regions == (("board", 2), ("moat:0", 1), ("off_board", 1))
    assert st.exit_share == 0.25
    assert st.along.median == 15.0


def test_trial_outcome_measures_travel_in_the_aim_frame() -> None:
    """Aim (0.6, 0.8) from (10, 10); resting at (10 + 3*0.6 - 4*0.8, 10 + 3*0.8 + 4*0.6):
    3 mm along, 4 mm to the left. A die that left the board counts where it left."""
    fl = Flick(0, (60.0, 80.0), launch=LaunchKind.TABLE)
    x, y = 10.0 + 3 * 0.6 - 4 * 0.8, 10.0 + 3 * 0.8 + 4 * 0.6
    pose = DiePose(0, x, y, 0.0, 4, 0, Region(RegionKind.BOARD))
    events = (Event(EventKind.LANDING, 0.1, 0, x, y), Event(EventKind.LANDING, 0.1, 1, x, y))
    res = FlickResult(fl, {0: pose}, (), events, 10, 0.5, "", 2)
    o = trial_outcome(0, fl.velocity, (10.0, 10.0), (0.6, 0.8), res)
    assert (o.along, o.across) == (pytest.approx(3.0), pytest.approx(4.0))
    assert (o.face, o.initial_face, o.landings, o.exited) == (4, 2, 1, False)
    gone = FlickResult(fl, {}, (0,), (Event(EventKind.EXIT, 0.2, 0, 10.0, 310.0, face=5),),
                       10, 0.5, "", 2)  # fmt: skip
    o = trial_outcome(0, fl.velocity, (10.0, 10.0), (0.0, 1.0), gone)
    assert (o.along, o.across, o.exited, o.region) == (300.0, 0.0, True, "off_board")


def test_hand_noise_is_seeded_speed_first_then_heading() -> None:
    assert noisy_velocity((3.0, 4.0), 0.0, np.random.default_rng(1)) == (3.0, 4.0)
    n = np.random.default_rng(7).normal(0.0, 0.1, 2)
    vx, vy = noisy_velocity((0.0, 1000.0), 0.1, np.random.default_rng(7))
    assert math.hypot(vx, vy) == pytest.approx(1000.0 * (1.0 + n[0]))
    assert math.atan2(vy, vx) == pytest.approx(math.pi / 2 + n[1])
    fast = noisy_velocity((0.0, 1000.0), 1.0, np.random.default_rng(0), max_speed=1000.0)
    assert math.hypot(*fast) <= 1000.0 + 1e-9
    with pytest.raises(ValueError, match="noise"):
        noisy_velocity((0.0, 1.0), -0.1, np.random.default_rng(0))


# ----------------------------------------------------------------- verdict


def _stats(along: float = 100.0, iqr: float = 50.0, behind: float = 0.0,
           changed: float = 0.5, faces: tuple[int, ...] = (10, 0, 0, 0, 0, 10),
           regions: tuple[tuple[str, int], ...] = (("board", 20),)) -> EngineStats:  # fmt: skip
    sp = Spread(along, along - iqr / 2, along + iqr / 2)
    return EngineStats(
        "e", 20, sp, Spread(0.0, -5.0, 5.0), behind, 3.0, changed,
        (faces[0], faces[1], faces[2], faces[3], faces[4], faces[5]), regions, 1.0, 0.0,
    )  # fmt: skip


def _verdicts(a: EngineStats, b: EngineStats) -> dict[Criterion, bool]:
    return {c.criterion: c.passed for c in compare(a, b)}


def test_verdict_tolerances() -> None:
    base = _stats()
    assert all(_verdicts(base, base).values())
    v = _verdicts
    assert v(_stats(along=114.9), base)[Criterion.ALONG_MEDIAN]  # 15 % of the baseline
    assert not v(_stats(along=115.1), base)[Criterion.ALONG_MEDIAN]
    assert v(_stats(along=29.0), _stats(along=20.0))[Criterion.ALONG_MEDIAN]  # 10 mm floor
    assert not v(_stats(along=31.0), _stats(along=20.0))[Criterion.ALONG_MEDIAN]
    assert v(_stats(iqr=64.9), base)[Criterion.ALONG_IQR]  # 30 %
    assert not v(_stats(iqr=65.1), base)[Criterion.ALONG_IQR]
    assert v(_stats(iqr=14.0), _stats(iqr=5.0))[Criterion.ALONG_IQR]  # 10 mm floor
    assert v(_stats(behind=0.09), base)[Criterion.BEHIND]
    assert not v(_stats(behind=0.11), base)[Criterion.BEHIND]
    assert not v(_stats(changed=0.61), base)[Criterion.FACE_CHANGED]
    # TV: moving 3 of 20 dice to another face is 0.15, 4 of 20 is 0.20
    assert v(_stats(faces=(7, 3, 0, 0, 0, 10)), base)[Criterion.FACES]
    assert not v(_stats(faces=(6, 4, 0, 0, 0, 10)), base)[Criterion.FACES]
    assert not v(_stats(regions=(("board", 16), ("moat:0", 4))), base)[Criterion.REGIONS]


def test_verdict_without_data() -> None:
    """No faces on either side (every die left the board) agrees; on one
    side only, it does not."""
    none = _stats(faces=(0,) * 6, changed=math.nan)
    checks = {c.criterion: c for c in compare(none, none)}
    assert checks[Criterion.FACES].passed and math.isnan(checks[Criterion.FACES].difference)
    assert checks[Criterion.FACE_CHANGED].passed
    assert not _verdicts(none, _stats())[Criterion.FACES]
    assert not _verdicts(_stats(), none)[Criterion.FACE_CHANGED]


# ---------------------------------------------------------- running engines


def test_cli_self_check_agrees_on_every_criterion() -> None:
    """All shipped scenarios, 3 trials, 2.5d against itself: the same noisy
    inputs give the same figures, so every criterion passes; the JSON holds
    every figure and the trials' inputs are the same on both sides."""
    res = _cli("--engines", "2.5d,2.5d", "--trials", 3, "--seed", 11, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert doc["format"] == "warlords-fidelity-report" and doc["version"] == 1
    assert (doc["trials"], doc["seed"], doc["engines"]) == (3, 11, ["2.5d", "2.5d"])
    assert doc["passed"] is True
    assert doc["scenarios_passed"] == len(doc["scenarios"]) >= 15
    for sc in doc["scenarios"]:
        assert [c["criterion"] for c in sc["checks"]] == [c.value for c in Criterion]
        assert all(c["passed"] for c in sc["checks"])
        a, b = sc["engines"]
        for key in (
            "along_median_mm", "along_iqr_mm", "across_median_mm", "across_iqr_mm",
            "behind_share", "landings_per_flick", "p_face_changed", "faces", "regions",
            "settle_median_s", "exit_share",
        ):  # fmt: skip
            assert key in a and a[key] == b[key], (sc["name"], key)
        assert len(a["outcomes"]) == 3
        assert [o["vx_mm_s"] for o in a["outcomes"]] == [o["vx_mm_s"] for o in b["outcomes"]]


def test_cli_table_and_bad_input() -> None:
    res = _cli("--engines", "2.5d,2.5d", "--trials", 2, "--scenarios", "slide-wall-300")
    assert res.exit_code == 0, res.output
    assert "1 of 1 scenarios agree" in res.output and "PASS 8/8" in res.output
    for args, needle in (
        (("--scenarios", "nope"), "unknown scenario 'nope'"),
        (("--engines", "2.5d"), "--engines"),
        (("--engines", "2.5d,mujoco"), "--engines"),
        (("--trials", 0), "--trials"),
        (("--scenario-file", "/nonexistent/s.toml"), "cannot read"),
    ):
        res = _cli(*args)
        assert res.exit_code == 2, (args, res.output)
        assert needle in res.output, (args, res.output)


def test_plot_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    out = tmp_path / "plots"
    out.mkdir()
    png = out / "slide-pin-300.png"
    png.write_bytes(b"mine")
    args = ("--engines", "2.5d,2.5d", "--trials", 2, "--scenarios", "slide-pin-300",
            "--plot", out)  # fmt: skip
    res = _cli(*args)
    assert res.exit_code == 2 and "already exists" in res.output and "--force" in res.output
    assert png.read_bytes() == b"mine"
    res = _cli(*args, "--force")
    assert res.exit_code == 0, res.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_targets_are_checked_before_any_trial(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--plot DIR``: an empty name, a folder that cannot be created, a
    target that is a folder are refused with ``--plot`` before any trial.

    What broke: ``--plot ""`` was taken as the current folder, a folder
    under a file and a target that is a folder failed with a traceback
    after every trial had run."""

    def no_run(*_: object, **__: object) -> None:
        raise AssertionError("trials ran before the --plot checks")

    monkeypatch.setattr(fidelity_cmd_mod, "run_fidelity", no_run)
    afile = tmp_path / "afile"
    afile.write_text("mine")
    taken = tmp_path / "taken"
    (taken / "slide-pin-300.png").mkdir(parents=True)
    for plot, needle in (
        ("", "--plot: expected a folder"),
        (afile, "is not a folder"),
        (afile / "sub", "--plot: cannot create the folder"),
        (taken, "slide-pin-300.png is a folder"),
    ):
        for force in ((), ("--force",)):
            res = _cli("--engines", "2.5d,2.5d", "--scenarios", "slide-pin-300", "--plot", plot,
                       *force)  # fmt: skip
            assert res.exit_code == 2, (plot, res.output)
            assert needle in res.output and len(res.output.strip().splitlines()) == 1, res.output
    assert afile.read_text() == "mine"


class _BackwardsWorld:
    """A fake engine: the flicked die ends 20 mm behind its start with its
    face unchanged; every flick it is given is recorded."""

    flicks: list[Flick] = []

    def __init__(self, board: Board) -> None:
        self.at: dict[int, tuple[float, float, int]] = {}

    def add_pin(self, hole: int) -> None:
        pass

    def place_siege_engine(self, x: float, y: float) -> None:
        pass

    def add_die(self, die: int, x: float, y: float, face: int = 1, angle: float = 0.0) -> None:
        self.at[die] = (x, y, face)

    def flick(self, flick: Flick, face: int | None = None, max_time: float = 60.0) -> FlickResult:
        _BackwardsWorld.flicks.append(flick)
        start = flick.start or self.at[flick.die][:2]
        f = face or 1
        s = flick.speed
        x, y = start[0] - 20.0 * flick.velocity[0] / s, start[1] - 20.0 * flick.velocity[1] / s
        pose = DiePose(flick.die, x, y, 0.0, f, 0, Region(RegionKind.BOARD))
        return FlickResult(flick, {flick.die: pose}, (), (), 1, 0.1, "", f)


def test_the_suite_runs_any_engine_behind_the_port(
    board: Board, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a fake 'reference' the run goes through the same code: the fake
    sees the same noisy flicks as the 2.5D model, and its backwards landings
    fail the behind-share criterion."""

    def fake_make_world(b: Board, engine: str, seats: object, side: bool) -> object:
        return _BackwardsWorld(b) if engine == "reference" else make_world(b, engine, seats, side)  # type: ignore[arg-type]

    monkeypatch.setattr(runner_mod, "make_world", fake_make_world)
    _BackwardsWorld.flicks = []
    sc = select(load_scenarios(board=board), "slide-pin-300,high-2-900")
    report = run_fidelity(board, sc, 4, 5, ("2.5d", "reference"))
    assert report.engines == ("2.5d", "reference") and not report.passed
    for sr in report.scenarios:
        a, b = sr.stats
        assert b.behind_share == 1.0 and b.face_changed == 0.0
        assert b.along.median == pytest.approx(-20.0, abs=0.5)  # the heading noise
        checks = {c.criterion: c for c in sr.checks}
        assert not checks[Criterion.BEHIND].passed
        assert [o.velocity for o in sr.outcomes[0]] == [o.velocity for o in sr.outcomes[1]]
    assert len(_BackwardsWorld.flicks) == 8
    assert [f.velocity for f in _BackwardsWorld.flicks[:4]] == [
        o.velocity for o in report.scenarios[0].outcomes[0]
    ]


def _reference_skip_reason() -> str | None:
    """None when the reference engine can run; else why the test is skipped.
    A missing mujoco skips only outside CI (in CI the test runs and fails)."""
    if importlib.util.find_spec("mujoco") is None:
        return None if os.environ.get("CI") else "mujoco is not installed"
    import warlords_sim.reference as reference

    if not hasattr(reference, "ReferenceWorld"):
        return "the reference engine (warlords_sim.reference.ReferenceWorld) is not built yet"
    return None


@pytest.mark.skipif(_reference_skip_reason() is not None, reason=str(_reference_skip_reason()))
def test_small_run_on_both_engines(board: Board) -> None:
    """Two scenarios, 3 trials, 2.5D against the reference: every figure is
    there and finite on both sides (agreement is the full run's business)."""
    sc = select(load_scenarios(board=board), "slide-pin-300,high-2-900")
    report = run_fidelity(board, sc, 3, 0, ("2.5d", "reference"))
    for sr in report.scenarios:
        assert len(sr.checks) == len(Criterion)
        for st, outs in zip(sr.stats, sr.outcomes, strict=True):
            assert st.trials == 3 and len(outs) == 3
            assert math.isfinite(st.along.median) and math.isfinite(st.settle_median_s)
            assert sum(st.faces) + round(st.exit_share * 3) == 3
    doc = report.as_json()
    assert json.loads(json.dumps(doc, allow_nan=False)) == doc


def test_a_missing_reference_engine_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the ``reference`` extra the command says so and exits 2
    before running any trial."""

    def no_reference(b: Board, engine: str, seats: object, side: bool) -> object:
        if engine == "reference":
            raise ModuleNotFoundError("No module named 'mujoco'", name="mujoco")
        return make_world(b, engine, seats, side)  # type: ignore[arg-type]

    monkeypatch.setattr(runner_mod, "make_world", no_reference)
    res = _cli("--trials", 2, "--scenarios", "slide-pin-300")
    assert res.exit_code == 2
    assert "engine 'reference' is not available" in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_importing_the_suite_loads_no_gui_no_plotting_no_mujoco() -> None:
    """matplotlib and rich load only for output, mujoco only for the
    reference engine (through the physics port), pyglet never."""
    code = (
        "import sys, warlords_sim.fidelity, warlords_sim.cli.fidelity_cmd; "
        "bad = [m for m in ('pyglet', 'matplotlib', 'mujoco') if m in sys.modules]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
