"""A light core with extras (issue 12).

Every install used to pull scipy, matplotlib, dask and imageio-ffmpeg
(about 590 MB) although a player needs none of them: ``pip install
warlords-sim`` is now the player's install and the rest are extras
(``lab``, ``render``, ``reference``; see :mod:`warlords_sim.extras`).

The tests check the extras of :data:`~warlords_sim.extras.EXTRAS` against
pyproject.toml; run the player's commands in a fresh interpreter in which
every extra's modules are missing (``sys.modules[name] = None`` makes an
import fail as if the package were not installed, and
:func:`importlib.util.find_spec` say so); and run each command that needs
an extra with one of its modules missing, which must end with one line
naming the extra and exit status 2, before anything is written. Before
the split, ``play`` loaded matplotlib (the window took its colour names
from the plotting module), and ``flick --trials`` scipy.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner
from gui_display import display  # noqa: F401  (the session fixture)

from warlords_sim.cli import main
from warlords_sim.extras import EXTRAS, MissingExtraError, missing_modules, require_extra

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "replays" / "game-2p-standard.jsonl"
#: Every module an extra brings.
EXTRA_MODULES = sorted({m for mods in EXTRAS.values() for m in mods})


def _requirement_name(req: str) -> str:
    """``"dask[distributed]>=2024.1"`` -> ``"dask"``."""
    for i, ch in enumerate(req):
        if not (ch.isalnum() or ch in "-_."):
            return req[:i].lower()
    return req.lower()


def test_the_extras_are_the_ones_pyproject_declares() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    optional = project["optional-dependencies"]
    core = {_requirement_name(r) for r in project["dependencies"]}
    for extra, modules in EXTRAS.items():
        declared = {_requirement_name(r) for r in optional[extra]}
        assert declared == set(modules.values()), f"[{extra}] in pyproject.toml"
        assert not core & declared, f"the core installs part of the {extra!r} extra"
    assert optional["all"] == [f"warlords-sim[{','.join(EXTRAS)}]"]
    assert "warlords-sim[all]" in optional["test"]  # the tests run everything


_PROBE = """
import contextlib, io, json, sys
for name in json.loads(sys.argv[1]):
    sys.modules[name] = None  # as if not installed
from warlords_sim.cli import main
runs = []
for args in json.loads(sys.argv[2]):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(args)
            code = 0
        except SystemExit as e:
            code = e.code
    runs.append({"args": args, "code": code, "out": out.getvalue(), "err": err.getvalue()})
loaded = sorted({m.split(".")[0] for m, mod in sys.modules.items() if mod is not None})
print(json.dumps({"runs": runs, "loaded": loaded}))
"""


def _without_extras(commands: list[list[str]], cwd: Path) -> dict[str, object]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(EXTRA_MODULES), json.dumps(commands)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    result: dict[str, object] = json.loads(proc.stdout.splitlines()[-1])
    return result


def test_the_players_commands_run_without_any_extra(
    display: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    """board, flick (one and N trials), simulate, replay --verify, fidelity
    --list and play (a screenshot of the window) with no extra installed."""
    shot = tmp_path / "play.png"
    commands = [
        ["board"],
        ["board", "--json", "--players", "3"],
        ["flick", "--at", "0,-120", "--velocity", "600,0"],
        ["flick", "--at", "0,-120", "--velocity", "600,0", "--trials", "6", "--noise", "0.05"],
        ["simulate", "--players", "2", "--seed", "1"],
        ["replay", "--verify", str(EXAMPLE)],
        ["fidelity", "--list"],
        ["play", "--bots", "0,1", "--screenshot", str(shot)],
    ]
    got = _without_extras(commands, tmp_path)
    runs = got["runs"]
    assert isinstance(runs, list)
    for run in runs:
        assert run["code"] == 0, f"{run['args']}: {run['err']}"
    # the one figure that needs scipy says where to get it
    trials = runs[3]["out"]
    assert "chi-square against uniform faces: needs the 'lab' extra" in trials
    assert "faces    1:" in trials and "winner" in runs[5]["out"]
    assert shot.stat().st_size > 10_000
    loaded = got["loaded"]
    assert isinstance(loaded, list)
    assert {"numpy", "pymunk", "pyglet"} <= set(loaded)  # the probe sees what is used
    assert not set(loaded) & set(EXTRA_MODULES), set(loaded) & set(EXTRA_MODULES)


#: (command line, the module made missing, the extra the message names).
_NEEDS = [
    (["variants", "--players", "2", "--games", "1", "--out", "{tmp}/lab"], "scipy", "lab"),
    (["variants", "--players", "2", "--games", "1"], "distributed", "lab"),
    (["board", "--png", "{tmp}/board.png"], "matplotlib", "render"),
    (
        ["flick", "--at", "0,-120", "--velocity", "600,0", "--plot", "{tmp}/f.png"],
        "matplotlib",
        "render",
    ),
    (["render", str(EXAMPLE), "--out", "{tmp}/end.png"], "PIL", "render"),
    (["render", str(EXAMPLE), "--out", "{tmp}/game.mp4"], "imageio_ffmpeg", "render"),
    (["fidelity", "--trials", "1", "--engines", "reference,2.5d"], "mujoco", "reference"),
    (
        ["fidelity", "--trials", "1", "--engines", "2.5d,2.5d", "--plot", "{tmp}/plots"],
        "matplotlib",
        "render",
    ),
    (["simulate", "--players", "2", "--engine", "reference"], "mujoco", "reference"),
    (
        ["flick", "--at", "0,-120", "--velocity", "600,0", "--engine", "reference"],
        "mujoco",
        "reference",
    ),
]


@pytest.mark.parametrize(
    ("args", "module", "extra"), _NEEDS, ids=[" ".join(a[:1] + [m]) for a, m, _ in _NEEDS]
)
def test_a_command_without_its_extra_says_which_to_install(
    args: list[str], module: str, extra: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in [m for m in sys.modules if m.startswith("warlords_sim.reference")]:
        monkeypatch.delitem(sys.modules, name)  # imported afresh, without mujoco
    monkeypatch.setitem(sys.modules, module, None)  # import and find_spec: not installed
    argv = [a.replace("{tmp}", str(tmp_path)) for a in args]
    res = CliRunner().invoke(main, argv)
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1, res.output
    assert lines[0].startswith("warlords-sim: error: ")
    assert f"needs the '{extra}' extra ({module} is not installed): " in lines[0]
    assert lines[0].endswith(
        f"pip install 'warlords-sim[{extra}]' (in a clone: pip install -e '.[{extra}]')"
    )
    assert list(tmp_path.iterdir()) == []  # refused before anything was written


def test_the_message_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "scipy", None)
    monkeypatch.setitem(sys.modules, "dask", None)
    res = CliRunner().invoke(main, ["variants", "--games", "1"])
    assert (res.exit_code, res.output) == (
        2,
        "warlords-sim: error: variants needs the 'lab' extra (scipy, dask are not installed): "
        "pip install 'warlords-sim[lab]' (in a clone: pip install -e '.[lab]')\n",
    )


def test_require_extra_checks_only_what_it_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)
    assert missing_modules("render") == ("imageio_ffmpeg",)
    assert missing_modules("render", ["PIL", "matplotlib"]) == ()
    require_extra("render", "a PNG", ["PIL"])  # installed: nothing raised
    with pytest.raises(MissingExtraError) as caught:
        require_extra("render", "an MP4")
    assert (caught.value.extra, caught.value.missing) == ("render", ("imageio_ffmpeg",))
    assert isinstance(caught.value, ImportError)  # what an import of it would raise
    with pytest.raises(ValueError, match="unknown extra 'nope'"):
        require_extra("nope", "x")
    with pytest.raises(ValueError, match="scipy: not a module of the 'render' extra"):
        missing_modules("render", ["scipy"])
