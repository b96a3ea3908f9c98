"""Digests that do not depend on the CPU (issue 18, item 1).

What once broke: ``examples/replays/game-4p-wall2.jsonl``, recorded on an
AVX-512 machine, diverged at its first action on an AVX2 machine (same
package, pymunk, Python and platform) by 8.33e-17 rad. The physics took 3x3
matrix products with numpy's ``@`` (OpenBLAS, whose kernel is picked per
CPU: a Prescott and a Haswell kernel gave different last bits, and with
``OPENBLAS_CORETYPE=Prescott`` every example replay diverged at action 1
here) and sines with ``np.sin`` (SVML on AVX-512 hosts, libm elsewhere).

Two guards, so that the whole kind stays out:

* a static scan: no module on the way to a settled state calls a numpy
  operation that dispatches on the CPU (matrix products, ``np.linalg``,
  transcendental ufuncs); elementwise ``+ - * /`` and ``np.sqrt`` are
  correctly rounded and stay allowed;
* a run: the digests of a fixed set of flicks and of a whole game are the
  same with OpenBLAS forced onto another kernel and numpy's SIMD dispatch
  switched off as without.

What the digests do still depend on, the C maths library (glibc picks an
FMA or an SSE2 ``sin``/``cos`` by CPU, and pymunk calls them at every
step), is recorded in the replay header (``versions.libm``) and checked
here too.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from warlords_sim.physics.numerics import libm_probe, numerics_label

PACKAGE = Path(__file__).resolve().parent.parent / "warlords_sim"

#: The layers whose arithmetic feeds a settled state (the rules and bots
#: decide the actions; replay re-simulates them; reference is the other
#: engine replays can be recorded on; fidelity's scenarios set up worlds).
STATE_PATHS = [
    PACKAGE / "board.py",
    PACKAGE / "physics",
    PACKAGE / "rules",
    PACKAGE / "bots",
    PACKAGE / "replay",
    PACKAGE / "reference",
    PACKAGE / "fidelity" / "scenarios.py",
]

#: numpy names whose results may differ between CPUs (BLAS kernels, SIMD
#: transcendental loops such as SVML).
DISPATCHING = {
    "dot", "vdot", "inner", "matmul", "tensordot", "einsum", "linalg", "outer_matmul",
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh",
    "arcsinh", "arccosh", "arctanh", "exp", "exp2", "expm1", "log", "log2", "log10",
    "log1p", "power", "float_power", "cbrt", "hypot", "logaddexp", "logaddexp2",
}  # fmt: skip


def _modules() -> list[Path]:
    out: list[Path] = []
    for p in STATE_PATHS:
        out.extend(sorted(p.rglob("*.py")) if p.is_dir() else [p])
    return out


def _offences(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        where = f"{path.relative_to(PACKAGE.parent)}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.BinOp | ast.AugAssign) and isinstance(node.op, ast.MatMult):
            found.append(f"{where}: the @ operator (BLAS for float arrays)")
        elif isinstance(node, ast.Attribute):
            base = node.value
            if isinstance(base, ast.Name) and base.id in {"np", "numpy"}:
                if node.attr in DISPATCHING:
                    found.append(f"{where}: np.{node.attr}")
            elif node.attr == "dot" and not isinstance(base, ast.Name | ast.Attribute):
                continue
            elif node.attr == "dot":
                found.append(f"{where}: .dot() (BLAS)")
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("numpy"):
            bad = [a.name for a in node.names if a.name in DISPATCHING]
            if bad or node.module.startswith("numpy.linalg"):
                found.append(f"{where}: from {node.module} import {', '.join(bad) or '...'}")
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            mod = node.module if isinstance(node, ast.ImportFrom) else None
            if any(n.startswith("scipy") for n in names) or (mod or "").startswith("scipy"):
                found.append(f"{where}: scipy (BLAS/LAPACK)")
    return found


def test_no_cpu_dispatched_numpy_on_the_way_to_a_settled_state() -> None:
    modules = _modules()
    assert len(modules) > 40  # the scan sees the layers (a moved folder would empty it)
    offences = [o for m in modules for o in _offences(m)]
    assert not offences, "CPU-dependent numpy in the state path:\n" + "\n".join(offences)


def test_the_scan_catches_each_kind(tmp_path: Path) -> None:
    """The scan is able to fail: each kind it looks for, planted, is found."""
    planted = tmp_path / "planted.py"
    planted.write_text(
        "import numpy as np\nfrom numpy.linalg import norm\n"
        "a = b @ c\nd = np.sin(x)\ne = np.linalg.det(m)\nf = m.dot(v)\ng @= h\n",
        encoding="utf-8",
    )
    # _offences names paths relative to the package's parent: plant it there
    inside = PACKAGE.parent / "tests" / f"_planted_{os.getpid()}.py"
    inside.write_text(planted.read_text(encoding="utf-8"), encoding="utf-8")
    try:
        kinds = _offences(inside)
    finally:
        inside.unlink()
    assert len(kinds) == 6, kinds


#: A child that prints the digests of the fingerprint flicks, the roll and
#: row flicks, and every action of a 2-player aim game (seed 4).
_CHILD = textwrap.dedent(
    """
    import hashlib, json, sys
    sys.path.insert(0, sys.argv[1])
    import test_model_version as t
    from warlords_sim.bots import make_bot, play_game
    from warlords_sim.replay.snapshot import digest_of
    from warlords_sim.board import load_board
    from warlords_sim.rules import GameConfig

    out = {"flicks": t.fingerprint(), "rolls": t.roll_fingerprint(), "row": t.row_fingerprint()}
    h = hashlib.sha256()
    cfg = GameConfig(load_board("standard"), players=2)
    bots = [make_bot("aim", skill=0.7), make_bot("aim", skill=0.7)]
    play_game(cfg, bots, seed=4, on_outcome=lambda state, _: h.update(digest_of(state).encode()))
    out["game"] = h.hexdigest()
    print(json.dumps(out))
    """
)


def _digests(env: dict[str, str]) -> dict[str, str]:
    full = {**os.environ, **env}
    res = subprocess.run(
        [sys.executable, "-c", _CHILD, str(Path(__file__).resolve().parent)],
        capture_output=True,
        text=True,
        env=full,
        timeout=600,
        check=False,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    got: dict[str, str] = json.loads(res.stdout.strip().splitlines()[-1])
    return got


def _numpy_dispatch_features() -> str:
    """Every SIMD feature numpy dispatches to on this CPU beyond its
    baseline (names as this numpy spells them)."""
    from numpy._core._multiarray_umath import (  # type: ignore[attr-defined]
        __cpu_baseline__,
        __cpu_dispatch__,
        __cpu_features__,
    )

    return " ".join(
        f for f in __cpu_dispatch__ if __cpu_features__.get(f) and f not in __cpu_baseline__
    )


@pytest.mark.slow
def test_digests_do_not_depend_on_blas_kernels_or_numpy_simd() -> None:
    base = _digests({})
    variants = {
        "OpenBLAS Prescott kernel": {"OPENBLAS_CORETYPE": "Prescott"},
        "OpenBLAS Sandybridge kernel": {"OPENBLAS_CORETYPE": "Sandybridge"},
        "numpy SIMD dispatch off": {"NPY_DISABLE_CPU_FEATURES": _numpy_dispatch_features()},
        "one BLAS thread": {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"},
    }
    for name, env in variants.items():
        assert _digests(env) == base, f"digests differ with {name} ({env})"


def test_the_header_records_the_maths_library(tmp_path: Path) -> None:
    from warlords_sim.replay.format import current_versions

    v = current_versions()
    assert v.libm == numerics_label()
    assert v.libm.endswith(f"probe {libm_probe()}")
    assert len(libm_probe()) == 12 and int(libm_probe(), 16) >= 0


def test_the_probe_tells_the_maths_library_variants_apart() -> None:
    """With glibc's FMA variants masked (``GLIBC_TUNABLES``), the probe
    changes: it measures what the digests depend on. Where the CPU has no
    FMA, or the C library is not glibc, both runs take the same path."""
    import platform

    if platform.libc_ver()[0] != "glibc" or platform.machine() != "x86_64":
        pytest.skip("the masking tunable is glibc's on x86-64")
    flags = Path("/proc/cpuinfo").read_text(encoding="utf-8")
    masked = subprocess.run(
        [
            sys.executable,
            "-c",
            "from warlords_sim.physics.numerics import libm_probe as p; print(p())",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "GLIBC_TUNABLES": "glibc.cpu.hwcaps=-AVX2,-FMA"},
        check=True,
    ).stdout.strip()
    if " fma " in flags and " avx2 " in flags:
        assert masked != libm_probe()
    else:
        assert masked == libm_probe()


def test_verify_says_first_when_the_maths_library_rounds_otherwise(tmp_path: Path) -> None:
    """A replay from a machine whose C maths library rounds otherwise is
    named before anything is simulated (a `note:` line first), and the
    JSON report lists it among the versions that differ."""
    from click.testing import CliRunner

    from warlords_sim.cli import main

    src = PACKAGE.parent / "examples" / "replays" / "sandbox-flicks.jsonl"
    lines = src.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["versions"]["libm"] = "glibc 2.36, probe 000000000000"
    path = tmp_path / "other-libm.jsonl"
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["replay", str(path), "--verify"])
    first = res.output.splitlines()[0]
    assert first.startswith("note: recorded with other versions: C maths library glibc 2.36, ")
    assert "probe 000000000000 (here " in first and "digests may differ" in first
    res = CliRunner().invoke(main, ["replay", str(path), "--verify", "--json"])
    rep = json.loads(res.output.splitlines()[-1])
    assert any(v.startswith("C maths library") for v in rep["versions_differ"])
