"""Replays record the physics engine and model version (issue 9, item 8).

A replay made with another model version, or before replays recorded one
(format version 1), loads, but everything that re-simulates it refuses it
in one line naming both versions, exit status 2, before anything is
simulated.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import warlords_sim.reference as reference_pkg
from warlords_sim.cli import main
from warlords_sim.physics import MODEL_VERSION
from warlords_sim.replay import (
    VERSION,
    ModelMismatch,
    Recorder,
    ReplayError,
    check_model,
    current_physics,
    load_replay,
    rebuild,
    resume,
    verify_engines,
)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "replays"
# the module (the package's `rebuild` attribute is the function)
rebuild_mod = importlib.import_module("warlords_sim.replay.rebuild")
GAME = EXAMPLES / "game-2p-standard.jsonl"
SANDBOX = EXAMPLES / "sandbox-flicks.jsonl"


def run(*args: object) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def write_lines(path: Path, objs: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(o) + "\n" for o in objs))


def edited(src: Path, tmp_path: Path, fn: Any, keep: int | None = None) -> Path:
    """A copy of ``src`` (its first ``keep`` lines) with ``fn`` applied to its header."""
    objs = lines(src)[:keep]
    fn(objs[0])
    out = tmp_path / src.name
    write_lines(out, objs)
    return out


def old_model(h: dict[str, Any]) -> None:
    h["physics"]["model"] = "2.5d-1"
    h["versions"]["pymunk"] = "6.0.0"  # verify's note on versions would come first


def format_1(h: dict[str, Any]) -> None:
    """The header of every replay made before this change."""
    h["version"] = 1
    del h["physics"]
    del h["versions"]["libm"]


@pytest.fixture
def no_simulation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any physics world built for re-simulation fails the test."""

    def boom(*_: object, **__: object) -> None:
        raise AssertionError("a physics world was built before the model check")

    monkeypatch.setattr(rebuild_mod, "make_world", boom)
    monkeypatch.setattr(rebuild_mod, "sandbox_world", boom)


# ------------------------------------------------------------- recording


def test_new_replays_record_the_engine_and_model(tmp_path: Path) -> None:
    rep = load_replay(GAME)  # re-recorded by examples/replays/record_examples.py
    # (examples recorded before format version 4 stay 3 until re-recorded)
    assert rep.header.version in (3, VERSION)
    assert rep.header.versions.libm is not None
    assert rep.header.physics is not None
    assert (rep.header.physics.engine, rep.header.physics.model) == ("2.5d", MODEL_VERSION)
    # a branch keeps the engine and records this build's model
    new = tmp_path / "prefix.jsonl"
    assert run("replay", SANDBOX, "--until", 2, "--branch", new).exit_code == 0
    header = lines(new)[0]
    assert header["physics"] == {"engine": "2.5d", "model": MODEL_VERSION}
    assert header["version"] == VERSION == 4


def test_an_unknown_engine_cannot_be_recorded(tmp_path: Path) -> None:
    from warlords_sim.board import load_board

    with pytest.raises(ReplayError, match="unknown physics engine '3d'"):
        Recorder.create(tmp_path / "x.jsonl", load_board("standard"), seed=None, bots=[],
                        mode="sandbox", engine="3d")  # fmt: skip
    assert not (tmp_path / "x.jsonl").exists()


# ------------------------------------------------- refused to re-simulate

REFUSALS = {
    "another model": (old_model, "field `physics.model`: made with physics model 2.5d-1"),
    "format 1": (format_1, "no field `physics`: made before replays recorded"),
}


@pytest.mark.parametrize("case", list(REFUSALS))
@pytest.mark.parametrize("src", [GAME, SANDBOX], ids=["game", "sandbox"])
def test_verify_and_branch_refuse_another_model_in_one_line(
    case: str, src: Path, tmp_path: Path, no_simulation: None
) -> None:
    fn, expected = REFUSALS[case]
    path = edited(src, tmp_path, fn)
    rep = load_replay(path)  # loading (display only) still works
    assert len(rep.actions) == len(lines(src)) - 2
    new = tmp_path / "new.jsonl"
    for args in (["--verify"], ["--verify", "--json"], ["--until", "2", "--branch", new]):
        res = run("replay", path, *args)
        assert res.exit_code == 2, res.output
        assert res.stdout == ""  # not even the versions note
        err = res.stderr.strip().splitlines()
        assert len(err) == 1, res.stderr
        assert f"{path}: line 1: {expected}" in err[0]
        assert f"this build has {'model ' if case == 'format 1' else ''}{MODEL_VERSION}" in err[0]
    assert not new.exists()


def test_resume_rebuild_and_the_window_refuse_another_model(
    tmp_path: Path, no_simulation: None
) -> None:
    from warlords_sim.bots import make_bot
    from warlords_sim.gui.playback import ReplayController, resume_game

    path = edited(GAME, tmp_path, old_model, keep=10)  # an unfinished game
    before = path.read_bytes()
    rep = load_replay(path)
    for call in (
        lambda: rebuild(rep),
        lambda: resume(path, [make_bot("aim"), make_bot("aim")]),
        lambda: ReplayController(rep),
        lambda: resume_game(path),
    ):
        with pytest.raises(ModelMismatch, match="2.5d-1.*this build has " + MODEL_VERSION):
            call()
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "args",
    [["replay", "{f}"], ["render", "{f}", "--out", "{tmp}/a.gif"], ["play", "--resume", "{f}"]],
    ids=["watch", "render", "play --resume"],
)
def test_the_window_commands_refuse_another_model_first(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_simulation: None
) -> None:
    """Refused before the display is looked for (none here) or anything is drawn."""
    monkeypatch.delenv("DISPLAY", raising=False)
    path = edited(GAME, tmp_path, old_model, keep=10)
    before = sorted(tmp_path.iterdir())
    res = run(*(a.format(f=path, tmp=tmp_path) for a in args))
    assert res.exit_code == 2, res.output
    err = res.stderr.strip().splitlines()
    assert len(err) == 1 and "made with physics model 2.5d-1" in err[0], res.stderr
    assert "this build has " + MODEL_VERSION in err[0]
    assert sorted(tmp_path.iterdir()) == before


# ----------------------------------------------------------- bad headers


BAD_HEADERS = {
    "missing physics": (
        lambda h: h.pop("physics"),
        "line 1: missing field `physics` (format version ",  # 3 or 4: the example's
    ),
    "missing model": (
        lambda h: h["physics"].pop("model"),
        "line 1: missing field `physics.model`",
    ),
    "unknown engine": (
        lambda h: h["physics"].update(engine="3d"),
        "line 1: field `physics.engine`: expected one of '2.5d', 'reference', got '3d'",
    ),
    "empty model": (
        lambda h: h["physics"].update(model=""),
        "line 1: field `physics.model`: expected a model version",
    ),
    "model not a string": (
        lambda h: h["physics"].update(model=2),
        "line 1: field `physics.model`: expected str, got int",
    ),
    "physics in format 1": (
        lambda h: (h.update(version=1), h["versions"].pop("libm")),
        "line 1: field `physics`: not part of format version 1",
    ),
    # what broke: "expected object | null", though null is then refused as missing
    "physics a string": (
        lambda h: h.update(physics="2.5d"),
        "line 1: field `physics`: expected an object naming the physics engine and model "
        'version, e.g. {"engine": "2.5d"',
    ),
    "physics null": (
        lambda h: h.update(physics=None),
        "line 1: field `physics`: expected an object naming",
    ),
    # what broke: a huge value was echoed whole
    "huge engine": (
        lambda h: h["physics"].update(engine="e" * 100_000),
        "line 1: field `physics.engine`: expected one of '2.5d', 'reference', got 'eeeeee",
    ),
    "unknown version": (
        lambda h: h.update(version=5),
        "line 1: field `version`: unknown version 5; this warlords-sim reads versions 1, 2, 3, 4",
    ),
    "libm in format 2": (
        lambda h: h.update(version=2),
        "line 1: field `versions.libm`: not part of format version 2",
    ),
    "missing libm": (
        lambda h: h["versions"].pop("libm"),
        "line 1: missing field `versions.libm` (format version ",  # the example's
    ),
}


@pytest.mark.parametrize("case", list(BAD_HEADERS))
def test_a_bad_physics_field_fails_loading_in_one_line(case: str, tmp_path: Path) -> None:
    fn, expected = BAD_HEADERS[case]
    path = edited(SANDBOX, tmp_path, fn)
    with pytest.raises(ReplayError) as e:
        load_replay(path)
    assert str(e.value).startswith(f"{path}: {expected}")
    assert len(str(e.value)) < 300 + len(str(path)), "a long value must be cut"
    res = run("replay", path, "--verify")
    assert res.exit_code == 2 and len(res.stderr.strip().splitlines()) == 1
    assert expected in res.stderr


# ------------------------------------------------------ the reference engine


def test_a_reference_replay_needs_the_reference_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def on_reference(h: dict[str, Any]) -> None:
        h["physics"] = {"engine": "reference", "model": "ref-1"}

    rep = load_replay(edited(GAME, tmp_path, on_reference, keep=5))
    monkeypatch.delattr(reference_pkg, "MODEL_VERSION", raising=False)
    with pytest.raises(ModelMismatch, match="made on engine 'reference' .model ref-1., but engine "
                       "'reference' is not available"):  # fmt: skip
        check_model(rep)
    monkeypatch.setattr(reference_pkg, "MODEL_VERSION", "ref-2", raising=False)
    with pytest.raises(ModelMismatch, match="made with physics model ref-1 .engine reference.; "
                       "this build has ref-2"):  # fmt: skip
        check_model(rep)
    monkeypatch.setattr(reference_pkg, "MODEL_VERSION", "ref-1", raising=False)
    assert check_model(rep).engine == "reference"
    assert current_physics("reference").model == "ref-1"
    with pytest.raises(ModelMismatch, match="engine 'reference'.*on '2.5d' only"):
        check_model(rep, ("2.5d",))  # the window steps the 2.5D World


def test_a_2_5d_replay_does_not_import_the_reference() -> None:
    code = (
        "import sys; from warlords_sim.replay import check_model, load_replay; "
        f"check_model(load_replay({str(SANDBOX)!r})); "
        "mods = ('warlords_sim.reference', 'mujoco'); "
        "print(sorted(m for m in sys.modules if m.startswith(mods)))"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert res.stdout.strip() == "[]"


# ------------------------------------------- refusals say what would work


def _on_reference(model: str) -> Any:
    def fn(h: dict[str, Any]) -> None:
        h["physics"] = {"engine": "reference", "model": model}

    return fn


def test_a_sandbox_replay_on_the_reference_is_not_sent_to_verify(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_simulation: None
) -> None:
    """A sandbox replay (re-simulated on the 2.5D world only) labelled as
    made on the reference: ``replay --verify`` refuses it in one line that
    does not suggest ``--verify``.

    What broke: the refusal said "check it headless with 'warlords-sim
    replay FILE --verify'", the very command that had failed."""
    monkeypatch.setattr(reference_pkg, "MODEL_VERSION", "ref-1", raising=False)
    path = edited(SANDBOX, tmp_path, _on_reference("ref-1"))
    res = run("replay", path, "--verify")
    assert res.exit_code == 2, res.output
    err = res.stderr.strip().splitlines()
    assert len(err) == 1 and "--verify" not in err[0], err
    assert "a sandbox replay is re-simulated on '2.5d' only" in err[0], err


def test_the_window_suggests_verify_only_when_verify_would_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_simulation: None
) -> None:
    """``render`` of a game made on the reference suggests ``replay
    --verify`` only if this build has the reference model it names;
    otherwise it says that no command re-simulates it.

    What broke: it suggested --verify, which then refused the file too."""
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.setattr(reference_pkg, "MODEL_VERSION", "ref-1", raising=False)
    for model, verifiable in (("ref-1", True), ("2.5d-4", False)):
        path = edited(GAME, tmp_path, _on_reference(model), keep=10)
        res = run("render", path, "--out", tmp_path / "a.gif")
        assert res.exit_code == 2, res.output
        err = res.stderr.strip()
        assert ("--verify" in err) is verifiable, err
        rep = load_replay(path)
        if verifiable:
            assert check_model(rep, verify_engines(rep)).model == "ref-1"
        else:
            assert "no command re-simulates it" in err, err
            res = run("replay", path, "--verify")
            assert res.exit_code == 2 and "physics.model" in res.stderr, res.stderr


def test_a_huge_model_string_is_cut_in_the_refusal(tmp_path: Path, no_simulation: None) -> None:
    """What broke: a 10 MB ``physics.model`` was echoed whole."""
    path = edited(SANDBOX, tmp_path, lambda h: h["physics"].update(model="x" * 1_000_000))
    res = run("replay", path, "--verify")
    assert res.exit_code == 2
    err = res.stderr.strip()
    assert "xxx... (1000000 characters)" in err and len(err) < 400 + len(str(path)), err[:500]
