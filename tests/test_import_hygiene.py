"""Each command imports only what it uses (issue 10, target 4).

``warlords-sim --help``, every subcommand's ``--help`` and ``board --json``
run in a fresh interpreter; the test reads ``sys.modules`` afterwards and
asserts the heavy packages they do not use were never imported. Before the
command line registered its subcommands lazily, ``--help`` imported numpy
and pymunk, and ``board --json`` matplotlib and PIL (for two helpers).
Also checks the copies the command line keeps for its help texts
(:mod:`warlords_sim.cli._names`, the summaries of
:data:`warlords_sim.cli.COMMANDS`) against their sources.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from warlords_sim.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[1]

#: Run the command line with the given arguments, then print the top-level
#: names of every imported module (and the warlords_sim ones) as JSON on
#: the last line of stderr.
_PROBE = """
import json, sys
from warlords_sim.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
top = {m.split(".")[0] for m in sys.modules}
names = sorted(top | {m for m in sys.modules if m.startswith("warlords_sim")})
print("\\n" + json.dumps(names), file=sys.stderr)
"""

#: Nothing of the simulator's heavy dependencies.
_HEAVY = {"numpy", "pymunk", "matplotlib", "PIL", "scipy", "pyglet", "mujoco"}
#: What no run outside plotting, the lab, the window and the reference may load.
_NOT_FOR_A_FLICK = {"matplotlib", "PIL", "scipy", "pyglet", "mujoco"}


def _imported(*args: str) -> set[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return set(json.loads(proc.stderr.strip().splitlines()[-1]))


@pytest.mark.parametrize(
    "args",
    [("--help",), ("board", "--json")] + [(name, "--help") for name in COMMANDS],
    ids=lambda a: " ".join(a),
)
def test_help_and_board_json_import_no_heavy_package(args: tuple[str, ...]) -> None:
    loaded = _imported(*args)
    assert not loaded & _HEAVY, f"warlords-sim {' '.join(args)} imported {loaded & _HEAVY}"
    if args == ("--help",):  # the listing loads no subcommand at all
        assert not {m for m in loaded if m.startswith("warlords_sim.cli.")} - {
            "warlords_sim.cli._common"
        }


def test_a_flick_loads_the_physics_but_no_plotting_lab_window_or_reference() -> None:
    loaded = _imported("flick", "--at", "0,-120", "--velocity", "600,0")
    assert {"numpy", "pymunk"} <= loaded  # the probe does see what a command uses
    assert not loaded & _NOT_FOR_A_FLICK, loaded & _NOT_FOR_A_FLICK


@pytest.mark.parametrize("name", list(COMMANDS))
def test_listed_summary_is_the_commands_own(name: str) -> None:
    """``--help`` lists each command from COMMANDS' summary; it must shorten
    to what the command's own help gives, at any width."""
    cmd = main.get_command(click.Context(main), name)
    assert cmd is not None and cmd.name == name
    stand_in = click.Command(name, help=COMMANDS[name][2])
    for limit in (40, 80, 1000):
        assert stand_in.get_short_help_str(limit) == cmd.get_short_help_str(limit)


def test_help_names_are_copies_of_their_sources() -> None:
    from warlords_sim.bots import BOTS
    from warlords_sim.cli import _names
    from warlords_sim.fidelity import DEFAULT_SCENARIOS
    from warlords_sim.physics import MAX_FLICK_SPEED, MAX_FLICK_SPIN, LaunchKind
    from warlords_sim.rules.physics_port import ENGINES

    assert _names.ENGINES == ENGINES
    assert _names.BOTS == BOTS
    assert tuple(k.value for k in LaunchKind) == _names.LAUNCH_KINDS
    assert _names.MAX_FLICK_SPEED == MAX_FLICK_SPEED
    assert _names.MAX_FLICK_SPIN == MAX_FLICK_SPIN
    assert _names.DEFAULT_SCENARIOS.resolve() == DEFAULT_SCENARIOS.resolve()


def test_an_unknown_command_is_a_one_line_usage_error() -> None:
    from click.testing import CliRunner

    res = CliRunner().invoke(main, ["nosuch"])
    assert res.exit_code == 2
    assert "No such command 'nosuch'" in res.output
