"""Imports go one way, layer by layer (docs/architecture.md, issue 12).

Every module of the package is parsed (``ast``) and each of its imports --
at the top, inside functions and under ``TYPE_CHECKING``, ``import x`` and
``from x import y``, absolute and relative -- is checked against the layers
of docs/architecture.md::

    board <- physics <- reference, plotting <- rules <- bots
          <- replay, fidelity <- experiments, gui <- cli

A module imports only tiers to its left (its own package aside); pyglet
only in ``gui``, pymunk only in ``physics``, mujoco only in ``reference``;
matplotlib only where pictures are drawn (``plotting``, ``experiments``,
``fidelity``), and the window not ``plotting`` (it would load matplotlib
for a colour name). Before issue 12 the command line imported pyglet, the
replay and bot layers pymunk; no test looked.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import warlords_sim

PACKAGE = Path(warlords_sim.__file__).parent

#: The tiers of docs/architecture.md, left (lowest) to right. A module may
#: import tiers to its left; modules of one tier do not import each other.
TIERS: tuple[frozenset[str], ...] = tuple(
    frozenset(t)
    for t in (
        {"board"},
        {"physics"},
        {"reference", "plotting"},
        {"rules"},
        {"bots"},
        {"replay", "fidelity"},
        {"experiments", "gui"},
        {"net"},
        {"cli"},
    )
)
#: Plain modules every layer may import: the package's version, the safe
#: file readers (and their TOML scan), printing file text safely, the seat
#: colours (no imports), the root error, msgspec's messages taken apart, the
#: extras' names and the stop requests.
SHARED = frozenset(
    {"", "_files", "_msgspec", "_toml", "_text", "colours", "errors", "extras", "stop"}
)
#: Third-party packages that only some layers may import.
ONLY_IN: dict[str, frozenset[str]] = {
    "pyglet": frozenset({"gui"}),
    "pymunk": frozenset({"physics"}),
    "mujoco": frozenset({"reference"}),
    "websockets": frozenset({"net"}),
    "matplotlib": frozenset({"plotting", "experiments", "fidelity"}),
}
#: Imports a layer's tier would allow but the docs forbid.
NEVER: dict[str, frozenset[str]] = {"gui": frozenset({"plotting"})}


def _tier(layer: str) -> int:
    for i, tier in enumerate(TIERS):
        if layer in tier:
            return i
    raise KeyError(layer)


def _layer(module: str) -> str:
    """``warlords_sim.rules.engine`` -> ``rules``; ``warlords_sim`` -> ``""``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def imported_modules(source: str, module: str, is_package: bool) -> list[tuple[int, str]]:
    """(line, dotted name) of every module ``source`` (the text of
    ``module``) imports, relative imports resolved, ``from a import b``
    counted as ``a.b`` too (``b`` may be a module)."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            found += [(node.lineno, f"{target}.{a.name}") for a in node.names if a.name != "*"]
    return found


def problems(source: str, module: str, is_package: bool = False) -> list[str]:
    """What in ``source`` (module ``module``) breaks the layers, one line each."""
    layer = _layer(module)
    out = []
    for line, name in imported_modules(source, module, is_package):
        top = name.split(".")[0]
        where = f"{module}:{line} imports {name}"
        if top in ONLY_IN and layer not in ONLY_IN[top]:
            out.append(f"{where}: {top} belongs to {', '.join(sorted(ONLY_IN[top]))} only")
        if top != "warlords_sim" or name == "warlords_sim.__version__":
            continue
        other = _layer(name)
        if other == layer or other in SHARED or layer in SHARED and other == "":
            continue
        if layer in SHARED:
            out.append(f"{where}: {layer or 'warlords_sim'} imports no layer")
        elif other in NEVER.get(layer, frozenset()):
            out.append(f"{where}: {layer} never imports {other}")
        elif _tier(other) >= _tier(layer):
            out.append(f"{where}: {layer} may import only layers to its left, not {other}")
    return out


def _modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out.append((name, path))
    return out


def test_every_layer_of_the_package_is_known() -> None:
    """A new top-level module must be given a tier (or SHARED) here."""
    known = set().union(*TIERS) | SHARED
    unknown = {_layer(name) for name, _ in _modules()} - known
    assert not unknown, f"give these a tier in TIERS: {sorted(unknown)}"


@pytest.mark.parametrize(("module", "path"), _modules(), ids=[name for name, _ in _modules()])
def test_imports_follow_the_layers(module: str, path: Path) -> None:
    bad = problems(path.read_text(encoding="utf-8"), module, path.name == "__init__.py")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        ("warlords_sim.cli.play_cmd", "def f():\n    import pyglet\n", "pyglet belongs to gui"),
        ("warlords_sim.replay.format", "from pymunk import version\n", "pymunk belongs to physics"),
        ("warlords_sim.rules.x", "import mujoco.viewer\n", "mujoco belongs to reference"),
        ("warlords_sim.gui.hud", "from warlords_sim import plotting\n", "never imports plotting"),
        ("warlords_sim.physics.w", "from warlords_sim.rules import Game\n", "not rules"),
        ("warlords_sim.bots.aim", "from ..replay import load_replay\n", "not replay"),
        ("warlords_sim.rules", "from .. import gui\n", "not gui"),
        ("warlords_sim.gui.app", "from warlords_sim.experiments import x\n", "not experiments"),
        ("warlords_sim.colours", "import warlords_sim.board\n", "imports no layer"),
    ],
)
def test_the_check_catches_a_wrong_import(module: str, source: str, expected: str) -> None:
    """The checker itself: each of these imports is reported."""
    bad = problems(source, module, is_package=module == "warlords_sim.rules")
    assert any(expected in b for b in bad), bad


def test_the_check_allows_imports_to_the_left() -> None:
    source = (
        "from warlords_sim.board import Board\nfrom . import flicks\n"
        "from warlords_sim import __version__, colours\nimport pymunk\n"
    )
    assert problems(source, "warlords_sim.physics.world") == []
