"""The board files ship inside the package (issue 12, fault 1).

A built wheel held no ``boards/*.toml``: ``load_board("standard")`` worked only
from a source checkout, and every command of an installed wheel failed with
"unknown board". The board files stay in ``boards/`` at the top of the
repository; pyproject.toml maps that folder into the package
(``[tool.hatch.build.targets.wheel.force-include]``) and ``warlords_sim.board``
finds it with :mod:`importlib.resources`.

The test lays the package out as that mapping does, in a temporary folder,
and has a fresh interpreter that imports the package from there find and load
every board by name. It fails when the mapping is gone or points elsewhere, or
when the lookup looks anywhere but in the package (as ``Path(__file__)``'s
grandparent did). Cheap: no wheel is built (``.ci/run`` builds the real wheel,
installs it in a fresh virtual environment and runs the commands).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: In a fresh interpreter: list the shipped boards through importlib.resources,
#: load each by name, and print where they were found as JSON.
_PROBE = """
import importlib.resources, json
import warlords_sim
from warlords_sim.board import BOARDS_DIR, load_board
shipped = importlib.resources.files("warlords_sim") / "boards"
names = sorted(t.name for t in shipped.iterdir() if t.name.endswith(".toml"))
paths = [load_board(n.removesuffix(".toml")).path for n in names]
print(json.dumps({"package": warlords_sim.__file__, "boards_dir": str(BOARDS_DIR),
                  "names": names, "paths": paths}))
"""


def _boards_in_wheel() -> str:
    """Where pyproject.toml puts the repository's ``boards/`` in the wheel."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wheel = pyproject.get("tool", {}).get("hatch", {}).get("build", {}).get("targets", {})
    force_include = wheel.get("wheel", {}).get("force-include", {})
    assert "boards" in force_include, (
        "pyproject.toml: [tool.hatch.build.targets.wheel.force-include] does not map "
        f"boards/ into the package (got {force_include})"
    )
    return str(force_include["boards"])


def test_every_board_is_found_through_importlib_resources_in_the_wheel_layout(
    tmp_path: Path,
) -> None:
    site = tmp_path / "site"
    shutil.copytree(
        ROOT / "warlords_sim",
        site / "warlords_sim",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    shutil.copytree(ROOT / "boards", site / _boards_in_wheel())
    env = {**os.environ, "PYTHONPATH": str(site)}
    run = subprocess.run(
        [sys.executable, "-c", _PROBE],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout.splitlines()[-1])

    package_dir = site / "warlords_sim"
    assert Path(found["package"]).parent == package_dir  # the copy, not the checkout
    assert Path(found["boards_dir"]) == package_dir / "boards"
    expected = sorted(p.name for p in (ROOT / "boards").glob("*.toml"))
    assert expected, "no board files in boards/"
    assert found["names"] == expected
    for path in found["paths"]:
        assert Path(path).parent == package_dir / "boards"
