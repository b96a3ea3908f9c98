"""What the replay digests depend on, measured: BLAS kernels, numpy's SIMD
dispatch and the C maths library's CPU variants (issue 18, item 1).

    python benchmarks/portable.py [--draws 100000]

Prints, for each example replay, whether it verifies with OpenBLAS forced
onto other kernels, with numpy's SIMD dispatch off, and with glibc's FMA
variants of ``sin``/``cos``/``exp`` masked (``GLIBC_TUNABLES``), and how often
those variants round differently. Writes nothing. The figures of
docs/replay-format.md ("What the digests depend on") come from here.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples" / "replays").glob("*.jsonl"))
MASK_FMA = {"GLIBC_TUNABLES": "glibc.cpu.hwcaps=-AVX2,-FMA"}

_DRAWS = """
import json, math, random, sys
r = random.Random(7)
xs = [r.uniform(-8.0, 8.0) for _ in range(int(sys.argv[1]))]
out = {n: [(math.atan2(x, 1.3) if n == "atan2" else getattr(math, n)(x)).hex() for x in xs]
       for n in ("sin", "cos", "atan2", "exp")}
print(json.dumps(out))
"""


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, capture_output=True, text=True, env={**os.environ, **env}, check=False, timeout=1200
    )


def _numpy_features() -> str:
    from numpy._core._multiarray_umath import (  # type: ignore[attr-defined]
        __cpu_baseline__,
        __cpu_dispatch__,
        __cpu_features__,
    )

    return " ".join(
        f for f in __cpu_dispatch__ if __cpu_features__.get(f) and f not in __cpu_baseline__
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--draws", type=int, default=100_000, help="libm calls per function compared")
    args = ap.parse_args()
    if args.draws < 1:
        ap.error("--draws must be >= 1")

    plain = json.loads(_run([sys.executable, "-c", _DRAWS, str(args.draws)], {}).stdout)
    masked = json.loads(_run([sys.executable, "-c", _DRAWS, str(args.draws)], MASK_FMA).stdout)
    print(f"C maths library, FMA variant vs SSE2 variant, {args.draws:,} draws in [-8, 8]:")
    for name in plain:
        n = sum(a != b for a, b in zip(plain[name], masked[name], strict=True))
        rate = f"1 in {args.draws / n:,.0f}" if n else "never"
        print(f"  {name:6s} differs in {n} ({rate})")

    variants = {
        "as is": {},
        "OPENBLAS_CORETYPE=Prescott": {"OPENBLAS_CORETYPE": "Prescott"},
        "OPENBLAS_CORETYPE=Sandybridge": {"OPENBLAS_CORETYPE": "Sandybridge"},
        "numpy SIMD dispatch off": {"NPY_DISABLE_CPU_FEATURES": _numpy_features()},
        "glibc FMA variants masked": MASK_FMA,
    }
    print("\nexample replays, `warlords-sim replay FILE --verify --json`:")
    for path in EXAMPLES:
        for label, env in variants.items():
            cmd = [sys.executable, "-c", "from warlords_sim.cli import main; main()"]
            res = _run([*cmd, "replay", str(path), "--verify", "--json"], env)
            try:
                rep = json.loads(res.stdout.strip().splitlines()[-1])
            except (IndexError, json.JSONDecodeError):
                print(f"  {path.name:26s} {label:30s} error: {res.stderr.strip()[-200:]}")
                continue
            if rep["ok"]:
                verdict = f"verifies ({rep['checked']} actions)"
            else:
                at = f"action {rep['checked']}" if rep["first_divergence"] else "the result"
                verdict = f"diverges at {at} of {rep['actions']}"
            print(f"  {path.name:26s} {label:30s} {verdict}")


if __name__ == "__main__":
    main()
