"""One root error (issue 22, item 3): every error of the package's that
means "the input is wrong" (or the machine lacks something) is a
:class:`warlords_sim.errors.WarlordsError` besides its built-in base, and
the command line prints one line for any of them. What it replaced: 29
classes with no common root, caught by the CLI as 8 hand-kept tuples (a
:class:`ScenarioError` raised outside its command's own ``except`` kept
its traceback)."""

from __future__ import annotations

import ast
from pathlib import Path

import click
import pytest

import warlords_sim
from warlords_sim.errors import WarlordsError

#: Errors that mean a bug, not bad input: they keep their traceback.
BUGS = {"GameFailedError"}


def _error_classes() -> dict[str, list[str]]:
    """Every ``class ...Error(...)`` of the package's source: name -> the
    names of its bases (read, not imported: the window's modules would
    open a display)."""
    found: dict[str, list[str]] = {}
    for path in Path(warlords_sim.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name.endswith("Error"):
                found[node.name] = [ast.unparse(b).rsplit(".", 1)[-1] for b in node.bases]
    return found


def _roots(name: str, classes: dict[str, list[str]]) -> bool:
    """Whether the class ``name`` derives from WarlordsError."""
    if name == "WarlordsError":
        return True
    return any(_roots(b, classes) for b in classes.get(name, []) if b != name)


def test_every_input_error_of_the_package_derives_from_the_root() -> None:
    classes = _error_classes()
    assert len(classes) >= 30, sorted(classes)  # the walk found them
    stray = sorted(n for n in classes if n not in BUGS and not _roots(n, classes))
    assert not stray, f"not a WarlordsError: {stray}"
    assert all(n in classes and not _roots(n, classes) for n in BUGS)
    # the ones the CLI listed by hand before, and some it never listed
    from warlords_sim.board import BoardError
    from warlords_sim.fidelity.scenarios import ScenarioError
    from warlords_sim.net.protocol import ProtocolError
    from warlords_sim.physics.types import FlickError, WorldError

    for cls in (BoardError, ScenarioError, ProtocolError, FlickError, WorldError):
        assert issubclass(cls, WarlordsError), cls


def test_each_keeps_its_builtin_base() -> None:
    """``except ValueError`` (and ``except ImportError`` for an extra) still
    catch what they caught."""
    from warlords_sim.board import BoardError
    from warlords_sim.extras import MissingExtraError
    from warlords_sim.replay import ReplayError
    from warlords_sim.rules.errors import NotYourDieError

    assert issubclass(BoardError, ValueError) and issubclass(ReplayError, ValueError)
    assert issubclass(NotYourDieError, ValueError)
    assert issubclass(MissingExtraError, ImportError)


def test_the_cli_prints_one_line_for_any_root_error(capsys: pytest.CaptureFixture[str]) -> None:
    """A root error raised from any command (here one the CLI never listed)
    is one ``warlords-sim: error:`` line and exit status 2; another
    exception keeps its traceback."""
    from warlords_sim.cli import main
    from warlords_sim.fidelity.toss_state import TossStateError

    @click.command("boom")
    @click.option("--bug", is_flag=True)
    def boom(bug: bool) -> None:
        raise RuntimeError("a bug") if bug else TossStateError("toss 3: field q: not a unit")

    main.add_command(boom)
    try:
        with pytest.raises(SystemExit) as e:
            main(["boom"], prog_name="warlords-sim")
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert err == "warlords-sim: error: toss 3: field q: not a unit\n"
        with pytest.raises(RuntimeError, match="a bug"):
            main(["boom", "--bug"], prog_name="warlords-sim", standalone_mode=False)
    finally:
        main.commands.pop("boom", None)
