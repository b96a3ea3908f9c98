"""Stress: SIGTERM at random moments to ``simulate --players 4 --record``.

Each try starts ``warlords-sim simulate --players 4 --seed 5 --record F``
(``--checkout``'s ``warlords_sim`` first on the path), waits until the
header and one action line are on disk, then sends SIGTERM after a random
delay (uniform in 0 .. ``--within`` s, seeded) and waits for the exit. A try
stopped cleanly when the command exits 143 within ``--timeout`` s, says
where its recording is, and that file loads as a replay without a result
(a resumable prefix). A try whose game had already ended when the signal
was due is not counted and is tried again. Issue 18, item 5: before the
fix a SIGTERM raised inside one of pymunk's C callbacks was lost ("Exception
ignored from cffi callback"), the game ran to its end and exited 0.

Run:  python benchmarks/sigterm_stress.py [--tries 20] [--checkout PATH] [--seed 0]
Prints one line per try and the count of clean stops.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def one_try(checkout: Path, delay: float, timeout: float, folder: Path) -> str | None:
    """``"clean"``, or what went wrong; None: the game ended before the signal."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    out = folder / "f.jsonl"
    out.unlink(missing_ok=True)
    run = "from warlords_sim.cli import main; main(prog_name='warlords-sim')"
    argv = [sys.executable, "-c", run, "simulate", "--players", "4", "--seed", "5"]
    proc = subprocess.Popen(
        [*argv, "--record", str(out)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + timeout
    while proc.poll() is None and _lines(out) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(delay)
    if proc.poll() is not None:
        proc.communicate()
        return None
    proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return f"still running {timeout:g} s after SIGTERM"
    text = err.decode(errors="replace")
    ignored = "Exception ignored" in text
    if proc.returncode != 128 + signal.SIGTERM:
        return f"exit {proc.returncode}" + (" (Exception ignored in a callback)" if ignored else "")
    if str(out) not in text:
        return "exit 143 but no word of the recording"
    sys.path.insert(0, str(checkout))
    from warlords_sim.replay import load_replay

    rep = load_replay(out)
    if rep.result is not None:
        return "exit 143 with a finished recording"
    return "clean" + (" (Exception ignored printed)" if ignored else "")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tries", type=int, default=20)
    ap.add_argument("--checkout", type=Path, default=ROOT)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--within", type=float, default=3.0, help="latest delay, seconds")
    ap.add_argument("--timeout", type=float, default=120.0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    results: list[str] = []
    skipped = 0
    with tempfile.TemporaryDirectory() as tmp:
        while len(results) < args.tries:
            delay = rng.uniform(0.0, args.within)
            r = one_try(args.checkout.resolve(), delay, args.timeout, Path(tmp))
            if r is None:
                skipped += 1
                print(f"  delay {delay:.2f} s: the game had ended, not counted", flush=True)
                continue
            results.append(r)
            print(f"{len(results):3d} delay {delay:.2f} s: {r}", flush=True)
    clean = sum(r.startswith("clean") for r in results)
    print(f"{clean} of {len(results)} stopped cleanly ({skipped} tries not counted)")


if __name__ == "__main__":
    main()
