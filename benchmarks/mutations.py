"""A mutation run: plant one-line bugs, one at a time, and see which tests catch them.

Run by hand, not in the test suite (issue 22, item 4)::

    xvfb-run -a .venv/bin/python benchmarks/mutations.py            # every mutation
    .venv/bin/python benchmarks/mutations.py --only rules board     # some layers
    .venv/bin/python benchmarks/mutations.py --list                 # the list only

The repository is copied to a temporary folder first (without ``.git`` and
the venv); each mutation is patched into the copy, its nearest tests (the
test files of its layer, listed with it) are run there with pytest, and the
file is restored (try/finally) before the next. The working tree is never
touched. The copy's package is the one the tests import: pytest runs with
the copy as its working directory and first on ``PYTHONPATH`` (checked
before the run).

Prints one row a mutation: its name, layer, file:line, whether the nearest
tests caught it and the first test that failed (``-x``), or "missed"; then
the counts per layer. A mutation whose old text is not found exactly once is
reported as "stale" (the code has changed: update the list).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RULES = [
    "tests/test_rules_abilities.py",
    "tests/test_rules_flicking.py",
    "tests/test_rules_rounds.py",
    "tests/test_rules_counts.py",
    "tests/test_rules_places.py",
    "tests/test_rules_setup.py",
    "tests/test_rules_begin_finish.py",
]
REPLAY = ["tests/test_replay.py", "tests/test_replay_claims.py", "tests/test_replay_paths.py"]
BOTS = ["tests/test_bots_hand.py", "tests/test_bots_skill.py", "tests/test_bots_search.py"]
GUI = ["tests/test_gui_hand.py", "tests/test_gui_hotseat.py", "tests/test_gui_panel.py"]
CLI = ["tests/test_cli_small_faults.py", "tests/test_signals.py"]


@dataclass(frozen=True)
class Mutation:
    name: str
    layer: str
    file: str
    old: str
    new: str
    tests: tuple[str, ...]


def m(name: str, layer: str, file: str, old: str, new: str, tests: list[str]) -> Mutation:
    return Mutation(name, layer, file, old, new, tuple(tests))


MUTATIONS = [
    # ------------------------------------------------------------- board
    m("low crenelation may equal high", "board", "warlords_sim/board.py",
      "if low >= high:", "if low > high:", ["tests/test_board.py"]),
    m("a zero size counts as positive", "board", "warlords_sim/board.py",
      "if not (math.isfinite(v) and v > 0):", "if not (math.isfinite(v) and v >= 0):",
      ["tests/test_board.py"]),
    m("on_board excludes its far edge", "board", "warlords_sim/board.py",
      "return -h <= x <= h and -h <= y <= h", "return -h <= x < h and -h <= y <= h",
      ["tests/test_board.py"]),
    m("strike limit from the x side", "board", "warlords_sim/board.py",
      "return self.sides_mm[2] / 2.0", "return self.sides_mm[0] / 2.0",
      ["tests/test_board.py"]),
    # ----------------------------------------------------------- physics
    m("spin limit refuses its own value", "physics", "warlords_sim/physics/checks.py",
      "if abs(flick.spin) > MAX_FLICK_SPIN:", "if abs(flick.spin) >= MAX_FLICK_SPIN:",
      ["tests/test_physics_inputs.py"]),
    m("trip spin 3v/(3a)", "physics", "warlords_sim/physics/tumble.py",
      "return 3.0 * speed / (4.0 * size)", "return 3.0 * speed / (3.0 * size)",
      ["tests/test_physics_tumble.py", "tests/test_physics_impact.py"]),
    m("impact matrix: k1 with the wrong arm", "physics", "warlords_sim/physics/contact.py",
      "        k1 = inv_m + b * rz * rz", "        k1 = inv_m + b * rho * rho",
      ["tests/test_physics_contact.py"]),
    m("cocked flag out of the digest", "physics", "warlords_sim/physics/digest.py",
      'h.update(struct.pack("<d?", d.floor, d.cocked))', 'h.update(struct.pack("<d", d.floor))',
      ["tests/test_physics_determinism.py"]),
    m("over_wall always False", "physics", "warlords_sim/physics/settle.py",
      "over_wall=over_wall,", "over_wall=False,", ["tests/test_physics_saved_cases.py"]),
    # ------------------------------------------------------------- rules
    m("strike at the limit refused", "rules", "warlords_sim/rules/legal.py",
      "abs(action.strike_mm) <= half", "abs(action.strike_mm) < half", RULES),
    m("siege shot counts as a supply flick", "rules", "warlords_sim/rules/abilities.py",
      "launch in (LaunchKind.TABLE, LaunchKind.SIEGE)", "launch in (LaunchKind.TABLE,)", RULES),
    m("doubles need three", "rules", "warlords_sim/rules/legal.py",
      "if len(ids) >= 2 for i in ids", "if len(ids) > 2 for i in ids", RULES),
    m("tie-break counts own courtyard", "rules", "warlords_sim/rules/scoring.py",
      "if state.player_at(seat) != owner:", "if state.player_at(seat) == owner:", RULES),
    m("next first player: left, not right", "rules", "warlords_sim/rules/scoring.py",
      "cand = order[(a - k) % n]", "cand = order[(a + k) % n]", RULES),
    m("supply area 3 refused", "rules", "warlords_sim/rules/legal.py",
      "if not 1 <= action.area <= 3:", "if not 1 <= action.area < 3:", RULES),
    # -------------------------------------------------------------- bots
    m("player_rngs accepts 0 players", "bots", "warlords_sim/bots/play.py",
      "if players < 1:", "if players < 0:", BOTS),
    m("random bot never sets a 6", "bots", "warlords_sim/bots/random_bot.py",
      "face = int(rng.integers(1, 7))", "face = int(rng.integers(1, 6))", BOTS),
    m("random bot moves a ring pin with no open hole", "bots", "warlords_sim/bots/random_bot.py",
      "if legal.ring_pins and legal.open_holes:", "if legal.ring_pins or legal.open_holes:", BOTS),
    # ------------------------------------------------------------ replay
    m("result count compared with >", "replay", "warlords_sim/replay/loader.py",
      "if result.actions != n_actions:", "if result.actions > n_actions:", REPLAY),
    m("dice: only those that moved", "replay", "warlords_sim/replay/snapshot.py",
      "if before.get(i) != r]", "if i not in before or (before[i].x, before[i].y) != (r.x, r.y)]",
      REPLAY),
    m("aimed dropped in version 4", "replay", "warlords_sim/replay/recorder.py",
      "and self.header.version >= 4:", "and self.header.version > 4:",
      [*REPLAY, "tests/test_replay_hands.py"]),
    m("action index checked one off", "replay", "warlords_sim/replay/loader.py",
      "_check_action(line, self.header, len(self.actions) + 1, err)",
      "_check_action(line, self.header, len(self.actions), err)", REPLAY),
    # ------------------------------------------------- gui controller
    m("hand line: left and right swapped", "gui", "warlords_sim/gui/controller.py",
      'side = "left" if off > 0 else "right"', 'side = "left" if off < 0 else "right"', GUI),
    m("hand line prints -0.0", "gui", "warlords_sim/gui/controller.py",
      'return f"{shown if shown != 0.0 else 0.0:+.1f}"', 'return f"{shown:+.1f}"', GUI),
    m("courtyard count reads the board", "gui", "warlords_sim/gui/controller.py",
      "court = len(s.dice_of(player, Location.COURTYARD))",
      "court = len(s.dice_of(player, Location.BOARD))", GUI),
    # --------------------------------------------------------------- net
    m("message limit refuses its own size", "net", "warlords_sim/net/protocol.py",
      "if len(raw) > MAX_MESSAGE_BYTES:", "if len(raw) >= MAX_MESSAGE_BYTES:",
      ["tests/test_net.py"]),
    m("an infinite number passes", "net", "warlords_sim/net/protocol.py",
      "return not math.isfinite(obj)", "return math.isnan(obj)", ["tests/test_net.py"]),
    m("an older protocol is let in", "net", "warlords_sim/net/host.py",
      "if hello.protocol != PROTOCOL:", "if hello.protocol > PROTOCOL:", ["tests/test_net.py"]),
    # --------------------------------------------------------------- cli
    m("--until 0 refused", "cli", "warlords_sim/cli/replay_cmd.py",
      "if until is not None and until < 0:", "if until is not None and until <= 0:",
      [*CLI, "tests/test_replay.py"]),
    m("a diverging verify exits 0", "cli", "warlords_sim/cli/replay_cmd.py",
      "        raise click.exceptions.Exit(1)", "        raise click.exceptions.Exit(0)",
      [*CLI, "tests/test_replay.py"]),
    m("signal exit 127 + n", "cli", "warlords_sim/cli/_signals.py",
      "return 128 + self.signum", "return 127 + self.signum", CLI),
]  # fmt: skip


def _copy(dest: Path) -> None:
    skip = shutil.ignore_patterns(
        ".git", ".venv", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache",
        "*.egg-info", ".hypothesis",
    )  # fmt: skip
    shutil.copytree(ROOT, dest, ignore=skip)


def _env(copy: Path) -> dict[str, str]:
    env = dict(os.environ, CI="1", PYTHONPATH=str(copy), PYTHONDONTWRITEBYTECODE="1")
    return env


def _check_copy_imported(copy: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-c", "import warlords_sim; print(warlords_sim.__file__)"],
        cwd=copy, env=_env(copy), capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    if not Path(out).resolve().is_relative_to(copy.resolve()):
        raise SystemExit(f"the copy's tests would import {out}, not the copy's package")


_FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+)", re.M)


def _run(copy: Path, tests: tuple[str, ...], timeout: float) -> tuple[bool, str, float]:
    """(caught, by which test or why, seconds)."""
    cmd = [sys.executable, "-m", "pytest", "-q", "-n0", "-x", "-p", "no:cacheprovider",
           "-p", "no:randomly", "-rfE", *tests]  # fmt: skip
    t0 = time.monotonic()
    try:
        res = subprocess.run(cmd, cwd=copy, env=_env(copy), capture_output=True, text=True,
                             timeout=timeout)  # fmt: skip
    except subprocess.TimeoutExpired:
        return True, f"timeout after {timeout:.0f} s", time.monotonic() - t0
    dt = time.monotonic() - t0
    if res.returncode == 0:
        return False, "missed", dt
    hit = _FAILED.search(res.stdout)
    if hit:
        return True, hit.group(1), dt
    tail = (res.stdout + res.stderr).strip().splitlines()[-1:] or ["?"]
    return True, f"exit {res.returncode}: {tail[0][:60]}", dt


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--only", nargs="*", help="layers (or mutation names) to run")
    ap.add_argument("--list", action="store_true", help="print the mutations and stop")
    ap.add_argument(
        "--tests-from",
        metavar="REV",
        help="run the tests of git revision REV (the counts before new tests)",
    )
    ap.add_argument(
        "--no-baseline",
        action="store_true",
        help="skip running each set of tests once unmutated first",
    )
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per mutation")
    args = ap.parse_args()
    chosen = [x for x in MUTATIONS if not args.only or x.layer in args.only or x.name in args.only]
    if args.list:
        for x in chosen:
            print(f"{x.layer:8} {x.file}: {x.old!r} -> {x.new!r}  [{' '.join(x.tests)}]")
        return 0
    rows: list[tuple[Mutation, str, bool | None, str, float]] = []
    with tempfile.TemporaryDirectory(prefix="mutations-") as tmp:
        copy = Path(tmp) / "repo"
        _copy(copy)
        if args.tests_from:
            shutil.rmtree(copy / "tests")
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.tests_from, "tests"],
                                     capture_output=True, check=True).stdout  # fmt: skip
            subprocess.run(["tar", "-x", "-C", str(copy)], input=archive, check=True)
        _check_copy_imported(copy)
        broken: dict[tuple[str, ...], str] = {}
        if not args.no_baseline:
            for tests in dict.fromkeys(x.tests for x in chosen):
                failed, by, dt = _run(copy, tests, args.timeout)
                why = f": {by}" if failed else ""
                state = "FAILS" if failed else "passes"
                print(f"baseline {state} ({dt:.0f} s): {' '.join(tests)}{why}", file=sys.stderr)
                if failed:
                    broken[tests] = by
        for x in chosen:
            path = copy / x.file
            text = path.read_text(encoding="utf-8")
            if text.count(x.old) != 1:
                found = text.count(x.old)
                rows.append((x, x.file, None, f"stale: old text found {found} times", 0.0))
                continue
            line = text[: text.index(x.old)].count("\n") + 1
            if x.tests in broken:
                why = f"baseline fails: {broken[x.tests]}"
                rows.append((x, f"{x.file}:{line}", None, why, 0.0))
                continue
            try:
                path.write_text(text.replace(x.old, x.new), encoding="utf-8")
                caught, by, dt = _run(copy, x.tests, args.timeout)
            finally:
                path.write_text(text, encoding="utf-8")
            rows.append((x, f"{x.file}:{line}", caught, by, dt))
            mark = "caught" if caught else "MISSED"
            print(f"[{len(rows)}/{len(chosen)}] {mark} {x.name} ({dt:.0f} s)", file=sys.stderr)
    print(f"{'mutation':44} {'layer':8} {'where':38} {'caught':6}  by")
    for x, where, caught, by, dt in rows:
        flag = "n/a" if caught is None else ("yes" if caught else "no")
        print(f"{x.name:44} {x.layer:8} {where:38} {flag:6}  {by} ({dt:.0f} s)")
    print()
    layers = sorted({x.layer for x in chosen})
    print(f"{'layer':8} {'mutations':>9} {'caught':>6} {'missed':>6}")
    for layer in layers:
        mine = [r for r in rows if r[0].layer == layer and r[2] is not None]
        n_caught = sum(1 for r in mine if r[2])
        print(f"{layer:8} {len(mine):9} {n_caught:6} {len(mine) - n_caught:6}")
    total = [r for r in rows if r[2] is not None]
    print(f"{'all':8} {len(total):9} {sum(1 for r in total if r[2]):6} "
          f"{sum(1 for r in total if not r[2]):6}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
