"""Regenerate the README's figures: run the commands they come from and print
each figure with the place in README.md it belongs to.

Every number the README quotes from a command, and every picture it shows,
is listed here with the command that makes it (``--list`` prints the list).
A run prints, for each figure, a header naming the README section and the
text it replaces, then the snippet: the table or the sentence as the README
should say it, or the benchmark's output that a table cell summarizes. An
exact snippet (the variants table) is also compared with the README's text.

Nothing is written into the repository: the commands write into a temporary
folder that is removed at the end (``--lab DIR`` keeps the 900 games of the
variants table there instead, and the hands study's 2700 games in
DIR/hands-study, and a second run with it resumes them: an interrupted run
loses nothing, and a finished one is summarized again at once, without its
timings). With ``--write DIR`` the pictures are
made too, into DIR (``--write docs`` for the README's own), and as every
command does, an existing file there is refused unless ``--force`` is given.

Run:  python benchmarks/readme_figures.py [--only NAME,...] [--list] [--lab DIR]
                                          [--write DIR [--force]]
Cost: the variants table is 900 games (minutes on 2 cores), the hands study
2700 (about 40 CPU minutes); the benchmarks
run as documented in their own files (``bench-bots`` plays 200 games of the
search bot, about 50 CPU minutes: leave it out with ``--only``); ``suite`` runs the test suite
twice, on a worker per core and then in one process (about 7 CPU minutes each);
``frames`` and the window pictures need a display (``xvfb-run -a``).
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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
_CLI = "import sys; from warlords_sim.cli import main; sys.argv[0] = 'warlords-sim'; main()"

#: The variants run the README's table comes from.
LAB_ARGS = ("variants", "--players", "2", "--games", "300")


@dataclass
class Run:
    """What one command printed, and what it cost."""

    argv: list[str]
    stdout: str
    stderr: str
    wall_s: float
    cpu_s: float  # user + system of the child and its children (workers)


@dataclass
class Context:
    tmp: Path  # where the commands write when --write is not given
    write: Path | None
    force: bool
    lab: Path | None = None  # --lab: the variants run's folder, kept (and resumed)
    lab_played: int = 0  # games the variants run played (not found in --lab DIR)
    runs: dict[str, Run] = field(default_factory=dict)

    def out(self, name: str) -> Path:
        """Where a picture goes: DIR/name with --write, else the temporary folder."""
        return (self.write or self.tmp) / name


def run(argv: list[str], *, cwd: Path = ROOT, display: bool = False) -> Run:
    """Run ``argv`` with this checkout's ``warlords_sim`` first on the path;
    a failure ends the script with the command's own error."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.setdefault("COLUMNS", "100")  # rich tables at the README's width
    if display and not env.get("DISPLAY") and shutil.which("xvfb-run"):
        argv = ["xvfb-run", "-a", *argv]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:  # the command's own one-line error says why
        print(f"readme_figures: {' '.join(argv[-6:])} failed:", file=sys.stderr)
        sys.exit(proc.stderr.strip() or proc.returncode)
    return Run(argv, proc.stdout, proc.stderr, wall, cpu)


def cli(*args: str | Path, display: bool = False) -> Run:
    return run([sys.executable, "-c", _CLI, *map(str, args)], display=display)


def bench(name: str, *args: str, display: bool = False) -> Run:
    return run([sys.executable, str(ROOT / "benchmarks" / name), *args], display=display)


def force(ctx: Context) -> list[str]:
    return ["--force"] if ctx.force else []


# ------------------------------------------------------------ the figures


def _lab_dir(ctx: Context) -> Path:
    return ctx.lab if ctx.lab is not None else ctx.tmp / "lab"


def _lab(ctx: Context) -> tuple[Run | None, dict[str, object]]:
    """The variants run (once for all the figures that come from it), and
    None for the run if it played none of the games (all were in --lab DIR
    already: no time was measured)."""
    d = _lab_dir(ctx)
    if "lab" not in ctx.runs:
        csv = d / "games.csv"
        before = len(csv.read_text(encoding="utf-8").splitlines()) if csv.exists() else 0
        r = cli(*LAB_ARGS, "--out", d)
        after = len(csv.read_text(encoding="utf-8").splitlines())
        ctx.runs["lab"] = r
        ctx.lab_played = after - max(before, 1)  # the header line aside
    r = ctx.runs["lab"]
    summary = json.loads((d / "summary.json").read_text(encoding="utf-8"))
    games = sum(int(v["games"]) for v in summary["variants"])  # type: ignore[index]
    return (r if ctx.lab_played == games else None), summary


def variants_table(ctx: Context) -> str:
    r, summary = _lab(ctx)
    games = sum(int(v["games"]) for v in summary["variants"])  # type: ignore[index]
    table = "\n".join(
        line.rstrip()
        for line in ctx.runs["lab"].stdout.rstrip().splitlines()
        if not line.startswith("wrote ")
    )
    took = (
        f"{r.cpu_s:.0f} s of CPU,\n{r.wall_s / 60:.1f} minutes on {os.cpu_count()} cores"
        if r is not None
        else "time: see the run that played them"
    )
    intro = f"`warlords-sim {' '.join(LAB_ARGS)} --out lab/` ({games} games, {took}) printed:"
    return f"{intro}\n\n```\n{table}\n```"


def variants_sentence(ctx: Context) -> str:
    _, summary = _lab(ctx)
    by = {v["name"]: v for v in summary["variants"]}  # type: ignore[index, union-attr]
    std, w2, w1 = by["standard"], by["wall2"], by["wall1"]
    off_s, off_2 = std["offboard_per_round"], w2["offboard_per_round"]
    p = off_2.get("p")
    pt = "p < 0.001" if p is not None and p < 0.001 else f"p = {p:.3f}"
    trig = w1.get("wall1_trigger_rate") or {}
    never = trig.get("value") == 0
    tail = (
        "; with aim bots, no player\never ended round 1 without damage, so wall "
        "variant 1 never triggered."
        if never
        else f"; wall variant 1 triggered in {100 * trig.get('value', 0):.1f}% of the games."
    )
    if p is not None and p < 0.05:
        head = "Side walls from round one (wall2) keep dice on the board"
    else:  # the run cannot tell the variants apart here: say so
        head = "Side walls from round one (wall2) make no difference the run can see"
    return (
        f"{head}: {off_2['value']:.3f} dice\n"
        f"eliminated per round instead of {off_s['value']:.3f} ({pt}){tail}"
    )


def game_times(ctx: Context) -> str:
    r, summary = _lab(ctx)
    if r is None:
        return "(not measured: the games of --lab DIR were played by an earlier run)"
    games = sum(int(v["games"]) for v in summary["variants"])  # type: ignore[index]
    two = r.cpu_s / games
    four = bench("variants.py", "--workers", "1")
    rate = next(
        float(line.split(":")[1].split("games/min")[0])
        for line in four.stdout.splitlines()
        if line.startswith("1 worker")
    )
    return (
        f"2-player aim-bot games take about {two:.1f} s, 4-player ones about "
        f"{60.0 / rate:.1f} s per core.\n"
        f"(2 players: {r.cpu_s:.0f} s of CPU for the {games} games of the table, workers "
        f"included; 4 players: benchmarks/variants.py, 1 worker: {rate:.1f} games/min, "
        "start-up included)"
    )


def hands_study(ctx: Context) -> str:
    """The lab with people's hands (issue 20, item 2): benchmarks/hands_study.py,
    its games kept in --lab DIR/hands-study (resumed), its pictures made with
    --write."""
    args = ["--lab", str((ctx.lab or ctx.tmp) / "hands-study")]
    if ctx.write is not None:
        args += ["--write", str(ctx.write), *force(ctx)]
    return bench("hands_study.py", *args).stdout.rstrip()


def _copy_picture(ctx: Context, source: Path, name: str, what: str) -> str:
    """Copy a lab run's plot ``source`` to ``--write DIR/name`` (refused if
    it exists, unless --force)."""
    target = ctx.out(name)
    if target.exists() and not ctx.force:
        sys.exit(
            f"readme_figures: --write {target}: the file already exists; "
            "pass --force to overwrite it or pick another path"
        )
    shutil.copyfile(source, target)
    return f"wrote {target} ({source.name} of {what})"


def _bench_figure(name: str, *args: str, display: bool = False) -> Callable[[Context], str]:
    def make(ctx: Context) -> str:
        return bench(name, *args, display=display).stdout.rstrip()

    return make


def suite(ctx: Context) -> str:
    """The suite as ``pytest`` runs it (a worker per core, pyproject's
    addopts), then in one process (``-n 0``), one after the other: wall and
    CPU time of each and the load average around each (the machine's other
    work shows there)."""
    lines = []
    for label, extra in (("pytest", []), ("pytest -n 0", ["-n", "0"])):
        load0 = os.getloadavg()[0]
        r = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra])
        last = r.stdout.rstrip().splitlines()[-1]
        lines.append(
            f"{label}: {last}  (wall {r.wall_s:.0f} s, CPU {r.cpu_s:.0f} s, "
            f"load {load0:.1f} before, {os.getloadavg()[0]:.1f} after)"
        )
    return "\n".join(lines)


def _picture(*args: str, display: bool = False) -> Callable[[Context], str]:
    """A picture: the command with ``{out}`` for the file."""

    def make(ctx: Context) -> str:
        name = next(a for a in args if a.startswith("{out}")).removeprefix("{out}")
        path = ctx.out(name)
        argv = [str(path) if a.startswith("{out}") else a for a in args]
        r = cli(*argv, *force(ctx), display=display)
        return (r.stdout.strip().splitlines() or ["wrote " + str(path)])[-1]

    return make


def _window_shot(name: str) -> Callable[[Context], str]:
    """A picture of the real window, driven by docs/window_shots.py."""

    def make(ctx: Context) -> str:
        out = ctx.out(f"{name}.png").parent
        script = str(ROOT / "docs" / "window_shots.py")
        r = run(
            [sys.executable, script, "--only", name, "--out", str(out), *force(ctx)], display=True
        )
        return (r.stdout.strip().splitlines() or [f"wrote {out / name}.png"])[-1]

    return make


def _hand_spread_picture(ctx: Context) -> str:
    """docs/hand-spread.png: the repeated drag's landings (benchmarks/hand_spread.py)."""
    path = ctx.out("hand-spread.png")
    r = bench("hand_spread.py", "--png", str(path), *force(ctx), display=True)
    return r.stdout.strip().splitlines()[-1]


def variants_picture(ctx: Context) -> str:
    _lab(ctx)
    return _copy_picture(
        ctx, _lab_dir(ctx) / "eliminations.png", "variants-eliminations.png", "the variants run"
    )


@dataclass(frozen=True)
class Figure:
    name: str
    where: str  # README section and what the snippet replaces
    how: str  # the command it comes from
    make: Callable[[Context], str]
    exact: bool = False  # compared with the README (its code block, if any; blanks aside)
    picture: bool = False  # made only with --write


FIGURES = (
    Figure(
        "variants-table",
        "Testing house rules: the line '`warlords-sim variants ...` (N games, M minutes "
        "on K cores) printed:' and the code block after it",
        "warlords-sim variants --players 2 --games 300 --out DIR",
        variants_table,
        exact=True,
    ),
    Figure(
        "variants-sentence",
        "Testing house rules: the paragraph after the table ('Side walls from round one ...')",
        "the same run's summary.json (offboard_per_round, wall1_trigger_rate)",
        variants_sentence,
        exact=True,
    ),
    Figure(
        "game-times",
        "Testing house rules: the sentence '2-player aim-bot games take about ...'",
        "the same run's CPU time; python benchmarks/variants.py --workers 1",
        game_times,
    ),
    Figure(
        "hands-study",
        "Testing house rules, 'With people's hands': the three tables (2, 3 and 4 players), "
        "the lines naming their commands and the sentences after them",
        "python benchmarks/hands_study.py --lab DIR (2,700 games, about 40 CPU minutes)",
        hands_study,
    ),
    Figure(
        "bench-flick",
        "Performance table, row 'resolved flick', column 'figure'",
        "python benchmarks/flick.py --reference 10",
        _bench_figure("flick.py", "--reference", "10"),
    ),
    Figure(
        "bench-game",
        "Performance table, row 'whole 4-player game of bots', column 'figure'",
        "python benchmarks/game.py --games 5",
        _bench_figure("game.py", "--games", "5"),
    ),
    Figure(
        "bench-frames",
        "Performance table, row 'play window, under Xvfb', column 'figure'",
        "xvfb-run -a python benchmarks/frames.py",
        _bench_figure("frames.py", display=True),
    ),
    Figure(
        "bench-replay",
        "Performance table, row 'verify a recorded 4-player game', column 'figure'",
        "python benchmarks/replay.py --games 5",
        _bench_figure("replay.py", "--games", "5"),
    ),
    Figure(
        "bench-variants",
        "Performance table, row '`warlords-sim variants`, 24 whole 4-player games', "
        "column 'figure'",
        "python benchmarks/variants.py",
        _bench_figure("variants.py"),
    ),
    Figure(
        "bench-bots",
        "Bots: the table of search against aim, and the Performance table's row "
        "'search against aim', column 'figure'",
        "python benchmarks/bots.py --games 200 --jobs 2 (about 50 CPU minutes)",
        _bench_figure("bots.py", "--games", "200", "--jobs", "2"),
    ),
    Figure(
        "bench-bots-quiet",
        "Bots: the sentence on the decision times alone on the machine",
        "python benchmarks/bots.py --games 24 --jobs 1",
        _bench_figure("bots.py", "--games", "24", "--jobs", "1"),
    ),
    Figure(
        "bench-copies",
        "Performance table, row 'a copy of a game state', column 'figure'",
        "python benchmarks/copies.py --games 2",
        _bench_figure("copies.py", "--games", "2"),
    ),
    Figure(
        "bench-startup",
        "Performance table, row 'command start-up', column 'figure'",
        "python benchmarks/startup.py",
        _bench_figure("startup.py"),
    ),
    Figure(
        "suite",
        "Performance table, row 'the test suite', column 'figure'",
        "pytest; pytest -n 0",
        suite,
    ),
    Figure(
        "board.png",
        "The board: the picture docs/board.png",
        "warlords-sim board --side-walls --png DIR/board.png",
        _picture("board", "--side-walls", "--png", "{out}board.png"),
        picture=True,
    ),
    Figure(
        "board-3-players.png",
        "The board: the picture linked as docs/board-3-players.png",
        "warlords-sim board --players 3 --side-walls --png DIR/board-3-players.png",
        _picture("board", "--players", "3", "--side-walls", "--png", "{out}board-3-players.png"),
        picture=True,
    ),
    Figure(
        "flick-fairness.png",
        "flick: the picture docs/flick-fairness.png",
        "warlords-sim flick --from 0:2 --velocity 0,900 --trials 3000 --noise 0.05 "
        "--plot DIR/flick-fairness.png",
        _picture(
            "flick",
            "--from",
            "0:2",
            "--velocity",
            "0,900",
            "--trials",
            "3000",
            "--noise",
            "0.05",
            "--no-progress",
            "--plot",
            "{out}flick-fairness.png",
        ),  # fmt: skip
        picture=True,
    ),
    Figure(
        "variants-eliminations.png",
        "Testing house rules: the picture docs/variants-eliminations.png",
        "eliminations.png of the variants-table run",
        variants_picture,
        picture=True,
    ),
    Figure(
        "replay.gif",
        "Replays: the picture docs/replay.gif",
        "warlords-sim render examples/replays/game-2p-standard.jsonl --out DIR/replay.gif "
        "--to 10 --fps 15 --size 400",
        _picture(
            "render",
            "examples/replays/game-2p-standard.jsonl",
            "--out",
            "{out}replay.gif",
            "--to",
            "10",
            "--fps",
            "15",
            "--size",
            "400",
        ),  # fmt: skip
        picture=True,
    ),
    Figure(
        "play.png",
        "play: the picture docs/play.png",
        "warlords-sim play --players 4 --bots 1,2,3 --seed 1 --screenshot DIR/play.png",
        _picture(
            "play",
            "--players",
            "4",
            "--bots",
            "1,2,3",
            "--seed",
            "1",
            "--screenshot",
            "{out}play.png",
            display=True,
        ),  # fmt: skip
        picture=True,
    ),
    Figure(
        "hotseat.png",
        "play: the picture docs/hotseat.png",
        "warlords-sim play --players 4 --bots none --seed 1 --screenshot DIR/hotseat.png",
        _picture(
            "play",
            "--players",
            "4",
            "--bots",
            "none",
            "--seed",
            "1",
            "--screenshot",
            "{out}hotseat.png",
            display=True,
        ),  # fmt: skip
        picture=True,
    ),
    Figure(
        "hand-spread",
        "play, 'A hand for everyone': the code block of the repeated drag's spread",
        "xvfb-run -a python benchmarks/hand_spread.py",
        _bench_figure("hand_spread.py", display=True),
    ),
    Figure(
        "hand-spread.png",
        "play, 'A hand for everyone': the picture docs/hand-spread.png",
        "xvfb-run -a python benchmarks/hand_spread.py --png DIR/hand-spread.png",
        _hand_spread_picture,
        picture=True,
    ),
    Figure(
        "guide.png",
        "play: the picture docs/guide.png",
        "python docs/window_shots.py --only guide --out DIR (xdotool drives the window)",
        _window_shot("guide"),
        picture=True,
    ),
    Figure(
        "scored.png",
        "play: the picture docs/scored.png",
        "python docs/window_shots.py --only scored --out DIR (the replay window after action 61)",
        _window_shot("scored"),
        picture=True,
    ),
)


def _fenced(text: str) -> str:
    """The code block of a snippet if it has one (what must match exactly:
    the words around it hold timings), else the snippet."""
    parts = text.split("```")
    return parts[1] if len(parts) >= 3 else text


def _flat(text: str) -> str:
    """``text`` with every run of blanks and line breaks as one space (the
    README wraps its prose anywhere)."""
    return " ".join(text.split())


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--only", metavar="NAME,...", help="these figures only (see --list)")
    ap.add_argument("--list", action="store_true", help="list the figures and where they go")
    ap.add_argument("--write", metavar="DIR", type=Path, help="also make the pictures, into DIR")
    ap.add_argument("--force", action="store_true", help="with --write: overwrite pictures")
    ap.add_argument(
        "--lab",
        metavar="DIR",
        type=Path,
        help="keep the variants run in DIR and the hands study in DIR/hands-study "
        "(outside the repository); run again to resume them",
    )
    args = ap.parse_args()
    if args.list:
        for f in FIGURES:
            kind = "picture (--write)" if f.picture else "text"
            print(f"{f.name:26s} {kind}\n  where: README.md, {f.where}\n  from:  {f.how}")
        return
    names = {f.name for f in FIGURES}
    only = set(args.only.split(",")) if args.only else None
    if only is not None and only - names:
        ap.error(f"--only: unknown figure {sorted(only - names)[0]!r} (see --list)")
    if args.force and args.write is None:
        ap.error("--force goes with --write DIR")
    if args.write is not None and not args.write.is_dir():
        ap.error(f"--write {args.write}: no such directory")
    chosen = [
        f
        for f in FIGURES
        if (f.name in only if only is not None else not f.picture or args.write is not None)
    ]
    if any(f.picture for f in chosen) and args.write is None:
        ap.error("pictures are made only with --write DIR")
    readme = README.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory(prefix="readme-figures-") as tmp:
        ctx = Context(Path(tmp), args.write, args.force, args.lab)
        for f in chosen:
            snippet = f.make(ctx)
            print(f"=== {f.name}: README.md, {f.where}\n    from: {f.how}")
            if f.exact:
                same = _flat(_fenced(snippet)) in _flat(readme)
                print(f"    README: {'the same' if same else 'DIFFERS: replace it with'}")
            print(snippet + "\n", flush=True)


if __name__ == "__main__":
    main()
