"""The lab with human hands: do the wall variants matter once bots miss as people do?

Issue 20, item 2. Two, three and four aim bots play the three built-in wall
variants (standard, wall1, wall2) at each of the hand levels of
``warlords_sim/bots/skill.py`` (novice, club, expert; the same hand the window
gives a human player), ``--games`` games per (variant, level) cell, with
``warlords-sim variants`` (one run per player count, its folder kept under
``--lab DIR`` so that a second run resumes it). Then it prints, per player
count, one Markdown table row per (level, variant) with 95 % intervals:

* dice eliminated per round (off the board; the lab's ``offboard_per_round``),
  and the difference from standard at the same level with its p-value;
* dice over the side walls per round (``wall_exits_per_round``);
* how often wall variant 1 triggered (its side walls came up for the final
  round because a player had no damage; wall1 only);
* who wins: the first player's (P0, who starts round 1) share of the wins,
  and the seat that won most often.

and a sentence per player count saying what the run can and cannot tell.
With ``--search-games N`` it then plays N two-player games of the search bot
against aim at each level (``benchmarks/bots.py --skill LEVEL``: seats
alternating, game i with seed i) and prints search's win rate with its 95 %
Wilson interval per level.
The figures are whatever the games give: nothing here is tuned.

Writes nothing into the repository: without ``--lab`` the games go to a
temporary folder that is removed at the end. ``--write DIR`` also copies each
run's ``skills.png`` to ``DIR/hands-study-Np.png`` (refused if the file
exists, unless ``--force``).

Run:  python benchmarks/hands_study.py [--games 100] [--players 2,3,4]
                                       [--search-games 0] [--jobs 2]
                                       [--lab DIR] [--write DIR [--force]]
Cost: about 0.3 s of CPU a 2-player game, 1 s a 3-player and 1.3 s a
4-player one: at 100 games a cell, about 40 CPU minutes; a search game
about 16 CPU seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
_CLI = "import sys; from warlords_sim.cli import main; sys.argv[0] = 'warlords-sim'; main()"
LEVELS = "novice,club,expert"
VARIANTS = "standard,wall1,wall2"


def variants_args(players: int, games: int) -> list[str]:
    """The ``warlords-sim variants`` arguments of one player count's run."""
    return [
        "variants",
        "--players",
        str(players),
        "--variants",
        VARIANTS,
        "--skills",
        LEVELS,
        "--games",
        str(games),
    ]


def run_lab(players: int, games: int, out: Path) -> tuple[float, float, int]:
    """Play (or resume) one player count's games into ``out``; returns the
    wall and CPU seconds it took and how many games it played (0 when all
    were in ``out`` already). A failure ends the script with the command's
    own error."""
    csv = out / "games.csv"
    before = len(csv.read_text(encoding="utf-8").splitlines()) if csv.exists() else 0
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    argv = [sys.executable, "-c", _CLI, *variants_args(players, games), "--out", str(out)]
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"hands_study: {' '.join(argv[3:])} failed: {proc.stderr.strip()}")
    after = len(csv.read_text(encoding="utf-8").splitlines())
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return wall, cpu, after - max(before, 1)


def _rate(m: dict[str, Any] | None, pct: bool = False, digits: int = 3) -> str:
    """``0.012 [0.004, 0.020]`` (or as percentages)."""
    if not m:
        return "-"
    k = 100.0 if pct else 1.0
    f = f"{{:.{1 if pct else digits}f}}"
    unit = "%" if pct else ""
    if m["ci"] is None or None in m["ci"]:  # one game: no interval
        return f"{f.format(k * m['value'])}{unit}"
    lo, hi = (max(0.0, v) for v in m["ci"])  # a Wilson bound of 1e-17 is 0
    return f"{f.format(k * m['value'])}{unit} [{f.format(k * lo)}, {f.format(k * hi)}]"


def _p(m: dict[str, Any]) -> str:
    p = m.get("p")
    if p is None:
        return ""
    return " (p < 0.001)" if p < 0.001 else f" (p = {p:.3f})"


def table(players: int, summary: dict[str, Any]) -> str:
    """The Markdown table and the sentence of one player count's run."""
    cells = summary["variants"]
    lines = [
        f"**{players} players** ({cells[0]['games']} games a cell; 95 % intervals; "
        "p: difference from standard at the same level)",
        "",
        "| level | variant | eliminated / round | over walls / round | wall 1 triggered "
        "| P0 wins | most wins |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    said: list[str] = []
    for c in cells:
        wins = c["win_rate_by_seat"]
        best = max(range(len(wins)), key=lambda i: wins[i]["value"])
        off = c["offboard_per_round"]
        lines.append(
            f"| {c['skill']} | {c['name']} | {_rate(off)}{_p(off)} "
            f"| {_rate(c['wall_exits_per_round'])} | {_rate(c.get('wall1_trigger_rate'), True)} "
            f"| {_rate(wins[0], True)} | P{best} {100 * wins[best]['value']:.0f}% |"
        )
        if c["name"] != "standard" and off.get("p") is not None and off["p"] < 0.05:
            said.append(f"{c['name']} at {c['skill']} ({off['value']:.3f} a round{_p(off)})")
    if said:
        lines.append(
            "\nThe variants that change the dice eliminated per round, at p < 0.05: "
            + "; ".join(said)
            + "."
        )
    else:
        lines.append("\nNo variant changes the dice eliminated per round at p < 0.05 at any level.")
    return "\n".join(lines)


def search_rates(games: int, jobs: int) -> str:
    """Search against aim at each level: the ``search wins`` row of
    ``benchmarks/bots.py`` per level, as a Markdown table."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    rows = [
        "| level | games | search wins against aim (95 % Wilson) | CPU s a game |",
        "|---|--:|---|--:|",
    ]
    for level in LEVELS.split(","):
        argv = [sys.executable, str(ROOT / "benchmarks" / "bots.py"), "--skill", level]
        argv += ["--games", str(games), "--jobs", str(jobs)]
        proc = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"hands_study: {' '.join(argv[1:])} failed: {proc.stderr.strip()}")
        cells = {
            line.split("|")[1].strip(): line.split("|")[2].strip()
            for line in proc.stdout.splitlines()
            if line.startswith("| ") and line.count("|") >= 3
        }
        rows.append(
            f"| {level} | {games} | {cells['search wins']} | {cells['CPU s per game (mean)']} |"
        )
        print(f"search against aim, {level}: {cells['search wins']}", file=sys.stderr)
    return "\n".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=100, help="games a (variant, level) cell")
    ap.add_argument("--players", default="2,3,4", help="player counts, e.g. 2,3,4")
    ap.add_argument("--search-games", type=int, default=0, help="search vs aim games a level")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes of the search games")
    ap.add_argument("--lab", type=Path, metavar="DIR", help="keep the games in DIR/Np (resumes)")
    ap.add_argument("--write", type=Path, metavar="DIR", help="copy the pictures into DIR")
    ap.add_argument("--force", action="store_true", help="with --write: overwrite pictures")
    args = ap.parse_args()
    try:
        counts = [int(p) for p in args.players.split(",")]
    except ValueError:
        ap.error(f"--players {args.players!r}: expected player counts such as 2,3,4")
    if any(p not in (2, 3, 4) for p in counts):
        ap.error(f"--players {args.players!r}: each count must be 2, 3 or 4")
    if args.search_games < 0 or not 1 <= args.jobs <= 64:
        ap.error("--search-games must be >= 0 and --jobs in 1..64")
    if args.games < 1:
        ap.error(f"--games {args.games}: expected at least 1")
    if args.force and args.write is None:
        ap.error("--force goes with --write DIR")
    if args.write is not None and not args.write.is_dir():
        ap.error(f"--write {args.write}: no such folder")
    if args.lab is not None and args.lab.exists() and not args.lab.is_dir():
        ap.error(f"--lab {args.lab}: not a folder (give a folder to keep the games in)")
    if args.write is not None and not args.force:  # before any game is played
        for players in counts:
            target = args.write / f"hands-study-{players}p.png"
            if target.exists():
                ap.error(
                    f"--write {args.write}: {target.name} already exists; "
                    "pass --force to overwrite it or pick another folder"
                )
    with tempfile.TemporaryDirectory(prefix="hands-study-") as tmp:
        base = args.lab if args.lab is not None else Path(tmp)
        for players in counts:
            out = base / f"{players}p"
            out.parent.mkdir(parents=True, exist_ok=True)
            wall, cpu, played = run_lab(players, args.games, out)
            summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
            games = sum(int(c["games"]) for c in summary["variants"])
            took = (
                f"{cpu:.0f} s of CPU, {wall / 60:.1f} minutes on {os.cpu_count()} cores"
                if played == games
                else f"{played} of them played by this run"
            )
            cmd = " ".join(variants_args(players, args.games))
            print(f"`warlords-sim {cmd} --out DIR` ({games} games, {took})\n")
            print(table(players, summary) + "\n", flush=True)
            if args.write is not None:
                target = args.write / f"hands-study-{players}p.png"
                shutil.copyfile(out / "skills.png", target)
                print(f"wrote {target}\n")
    if args.search_games > 0:
        print(search_rates(args.search_games, args.jobs))


if __name__ == "__main__":
    main()
