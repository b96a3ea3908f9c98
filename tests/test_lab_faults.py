"""Faults a break-it review found in ``warlords-sim variants`` and nearby,
each with the behaviour that replaced it:

1. Two runs into one ``--out DIR`` at once mixed their games, settings and
   summary silently: a run now holds a lock on DIR (``DIR/.lock``), and a
   second one fails at once naming the first one's pid. The temporary files
   of experiment.json and summary.json had fixed names (``*.json.tmp``):
   they now have unique ones.
2. The total of games was unbounded (``--games`` per cell times variants
   times skills) and every game's spec was built up front: the grid is
   capped at 10,000,000 games and the specs are made as workers take them.
3. ``-0`` was another skill than 0 (other label, other seeds).
4. Skill labels kept 6 significant digits, and seeds and duplicate checks
   use them: 0.3 and 0.3000001 were "given twice", 0.7000001 played the
   default 0.7's games. Labels are now exact (the default 0.7's is
   unchanged, as are those of every number ``%g`` showed exactly).
5. 41 skills made unreadable plots (cut titles, overlapping ticks, a
   constrained-layout warning on stderr), and with one game per cell
   skills.png was blank without saying why.
6. ``--bots search,`` meant every seat, ``search,,aim`` dropped the empty
   item and ``SEARCH`` was a count error (``--variants`` and ``--rules``
   dropped empty items too).
8. ``--board ""`` said ".: is a folder".

Games of an older skill label in a resumed folder (``-0``, a number cut
to 6 digits) are kept in games.csv, not counted, and the command says so.
(7, ``replay --branch/--verify`` with ``--bots``/``--skill``, is in
tests/test_replay.py; 8's old-folder message in tests/test_lab_skills.py.)
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from matplotlib.text import Text

from warlords_sim.bots import parse_bot_names, parse_skill, skill_label
from warlords_sim.cli import main
from warlords_sim.experiments import (
    COLUMNS,
    Experiment,
    ExperimentError,
    Variant,
    builtin_variant,
    game_seed,
    parse_skills,
    run_experiment,
)
from warlords_sim.experiments.lab import build_summary
from warlords_sim.experiments.plots import damage_figure, eliminations_figure, skills_figure
from warlords_sim.experiments.store import LOCK_OWNER, read_rows
from warlords_sim.replay import load_replay


def _short(name: str) -> Variant:
    """A built-in wall variant cut to one round (2-player games of ~0.1 s)."""
    v = builtin_variant(name)
    return Variant(v.name, v.rules.replace(rounds=1))


def _one_line_error(res: Any) -> str:
    assert res.exit_code == 2, (res.output, res.exception)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("warlords-sim: error: "), res.stderr
    return str(lines[0])


# ---------------------------------------------------------------- 1. one run per folder

#: Holds DIR's lock (as a run does) until its standard input closes.
_HOLDER = """
import sys
from warlords_sim.experiments.store import lock_folder
with lock_folder(sys.argv[1]):
    print("held", flush=True)
    sys.stdin.read()
"""


def test_a_second_run_into_a_folder_in_use_fails_at_once(tmp_path: Path) -> None:
    out = tmp_path / "lab"
    args = ["variants", "--players", "2", "--games", "1", "--workers", "1"]
    args += ["--bots", "random", "--variants", "standard", "--out", str(out)]
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(out)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        assert (out / LOCK_OWNER).read_text().split()[0] == str(holder.pid)
        line = _one_line_error(CliRunner().invoke(main, args))
        assert f"--out {out}: the folder is in use by another variants run" in line
        assert f"(pid {holder.pid})" in line and "use another --out" in line
        # nothing of the refused run was written
        assert sorted(p.name for p in out.iterdir()) == [".lock", LOCK_OWNER]
    finally:
        holder.communicate("", timeout=30)  # lets go of the lock and exits
    assert holder.returncode == 0
    assert not (out / LOCK_OWNER).exists()
    ok = CliRunner().invoke(main, args)  # free again: the same command runs
    assert ok.exit_code == 0, ok.output
    assert len(read_rows(out / "games.csv")) == 1 and not (out / LOCK_OWNER).exists()


def test_settings_and_summary_go_through_temporary_files_of_their_own(tmp_path: Path) -> None:
    """A fixed temporary name (``summary.json.tmp``) is shared by every run
    writing the folder; one already taken (here by a folder) broke the run."""
    out = tmp_path / "lab"
    out.mkdir()
    (out / "experiment.json.tmp").mkdir()
    (out / "summary.json.tmp").mkdir()
    exp = Experiment((_short("standard"),), players=2, games=1, bots=("random", "random"))
    res = run_experiment(exp, out, workers=1, plots=False)
    assert res.played == 1
    assert json.loads((out / "summary.json").read_text())["variants"][0]["games"] == 1
    assert json.loads((out / "experiment.json").read_text())["players"] == 2
    assert not [p.name for p in out.iterdir() if ".partial" in p.name]


# ---------------------------------------------------------------- 2. the grid's size


def test_the_whole_grid_is_capped_and_specs_are_made_as_needed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    three = (_short("standard"), _short("wall1"), _short("wall2"))
    with pytest.raises(ExperimentError, match=r"is 12000000 games; expected at most 10000000"):
        Experiment(three, players=2, games=4_000_000, bots=("aim", "aim"))
    with pytest.raises(ExperimentError, match=r"--games 5000000 x 1 variants x 3 skills"):
        Experiment(three[:1], players=2, games=5_000_000, bots=("aim", "aim"),
                   skills=(0.2, 0.5, 0.9))  # fmt: skip
    big = Experiment(three[:1], players=2, games=10_000_000, bots=("aim", "aim"))
    first = next(big.iter_specs())  # at once: nothing else is built
    assert (first["index"], first["seed"]) == (0, game_seed(0, "standard", 0))
    assert big.missing({("standard", "0.7", 0), ("other", "0.7", 1)}) == 9_999_999

    # the command refuses it before any work
    def never(*args: Any, **kw: Any) -> Any:
        raise AssertionError("run_experiment was called")

    monkeypatch.setattr("warlords_sim.experiments.run_experiment", never)
    res = CliRunner().invoke(main, ["variants", "--games", "4000000", "--skills", "0.3,0.7"])
    assert "expected at most 10000000" in _one_line_error(res)
    monkeypatch.undo()

    # a run never makes the list of every spec
    def no_list(self: Experiment, skip: Any = None) -> Any:
        raise AssertionError("Experiment.specs was called")

    monkeypatch.setattr(Experiment, "specs", no_list)
    exp = Experiment(three[:2], players=2, games=2, bots=("random", "random"))
    done = run_experiment(exp, tmp_path / "lab", workers=1, plots=False)
    assert done.played == 4
    again = Experiment(three[:2], players=2, games=3, bots=("random", "random"))
    assert run_experiment(again, tmp_path / "lab", workers=1, plots=False).played == 2


# ---------------------------------------------------------------- 3, 4. skill numbers


def test_minus_zero_is_the_skill_zero() -> None:
    s = parse_skill("-0")
    assert s == 0.0 and math.copysign(1.0, s) == 1.0 and skill_label(-0.0) == "0"
    with pytest.raises(ExperimentError, match="--skills: 0 is given twice"):
        Experiment((_short("standard"),), players=2, games=1, bots=("aim", "aim"),
                   skills=parse_skills("0,-0.0"))  # fmt: skip
    a = Experiment((_short("standard"),), players=2, games=2, bots=("aim", "aim"), skills=(-0.0,))
    b = Experiment((_short("standard"),), players=2, games=2, bots=("aim", "aim"), skills=(0.0,))
    assert a.skill_labels == ["0"] and a.specs() == b.specs()
    assert json.dumps(a.settings()) == json.dumps(b.settings())


def test_minus_zero_in_simulate_and_its_replay_header(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    args = ["simulate", "--players", "2", "--bots", "random", "--skill", "-0", "--json"]
    res = CliRunner().invoke(main, [*args, "--record", str(path)])
    assert res.exit_code == 0, res.output
    assert '"skill": 0.0' in res.stdout and "-0" not in res.stdout
    header = json.loads(path.read_text().splitlines()[0])
    assert header["skill"] == 0.0 and math.copysign(1.0, header["skill"]) == 1.0
    # a replay written with -0.0 before: read as 0.0
    first, rest = path.read_text().split("\n", 1)
    path.write_text(json.dumps({**json.loads(first), "skill": -0.0}) + "\n" + rest)
    assert '"skill": -0.0' in path.read_text()
    skill = load_replay(path).header.skill
    assert skill == 0.0 and isinstance(skill, float) and math.copysign(1.0, skill) == 1.0


def test_games_of_an_older_label_are_kept_and_said_not_counted(tmp_path: Path) -> None:
    """A folder of skill 0 whose games.csv says ``-0`` (as the lab wrote for
    ``--skills -0``): its experiment.json matches (-0.0 == 0.0), so it
    resumes; those games, seeded with the label ``-0``, stay in the file,
    are not counted and the command says so."""
    out = tmp_path / "lab"
    args = ["variants", "--players", "2", "--games", "2", "--workers", "1", "--bots", "random"]
    args += ["--variants", "standard", "--skills", "0", "--out", str(out), "--json"]
    assert CliRunner().invoke(main, args).exit_code == 0
    csv = out / "games.csv"
    header, *games = csv.read_text().splitlines()
    csv.write_text("\n".join([header, *(g.replace(",0,", ",-0,", 1) for g in games)]) + "\n")
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    assert f"\nnote: 2 games in {csv} have skill labels of an older" in res.stderr
    assert json.loads(res.stdout)["variants"][0]["games"] == 2
    assert len(read_rows(csv)) == 4  # nothing dropped


def test_skill_labels_are_exact_and_keep_the_old_ones_that_were() -> None:
    assert skill_label(0.3000001) == "0.3000001" and skill_label(0.7000001) == "0.7000001"
    assert skill_label(0.1 + 0.2) == "0.30000000000000004"
    # what %g showed exactly keeps its label (and a lab folder its seeds)
    for value, label in ((0.7, "0.7"), (1.0, "1"), (0.0, "0"), (0.25, "0.25"), (1e-05, "1e-05")):
        assert skill_label(value) == label
    grid = Experiment((_short("standard"),), players=2, games=2, bots=("aim", "aim"),
                      skills=parse_skills("0.3,0.3000001"))  # fmt: skip
    assert grid.skill_labels == ["0.3", "0.3000001"]
    assert len({s["seed"] for s in grid.specs()}) == 4
    near = Experiment((_short("standard"),), players=2, games=1, bots=("aim", "aim"),
                      skills=(0.7000001,))  # fmt: skip
    default = Experiment((_short("standard"),), players=2, games=1, bots=("aim", "aim"))
    assert near.specs()[0]["seed"] != default.specs()[0]["seed"] == game_seed(0, "standard", 0)


# ---------------------------------------------------------------- 5. plots


def _rows(skills: list[str], games: int) -> list[dict[str, Any]]:
    """Hand-made rows of two variants at every skill, values varying with
    the cell and game (only what the plots draw; no game is played)."""
    rows = []
    for k, label in enumerate(skills):
        for v, name in enumerate(("standard", "wall2")):
            for i in range(games):
                row: dict[str, Any] = dict.fromkeys(COLUMNS, 0)
                d0, d1 = (k + 2 * i + v) % 7, (3 * k + i + 2 * v) % 5
                row.update(
                    variant=name, skill=label, index=i, players=2, wall_variant=name,
                    rounds=2, first_player=0, winners="0" if d0 <= d1 else "1",
                    damage=d0 + d1, damage_p0=d0, damage_p1=d1, damage_p2=None,
                    damage_p3=None, offboard=(k + i) % 4 + v, wall_exits=v * (i % 3),
                    flicks=20 + k + i,
                )  # fmt: skip
                rows.append(row)
    return rows


def _overlaps(fig: Any) -> list[str]:
    """Tick labels of an axis that overlap, and texts that leave the figure."""
    renderer = fig.canvas.get_renderer()
    fig.canvas.draw()
    found = []
    for ax in fig.axes:
        boxes = [t.get_window_extent(renderer) for t in ax.get_xticklabels() if t.get_text()]
        for a, b in zip(boxes, boxes[1:], strict=False):
            if a.x1 > b.x0 + 0.5:
                found.append(f"x tick labels overlap in {ax.get_title()!r}")
                break
    width, height = fig.bbox.width, fig.bbox.height
    y_ticks = {  # not drawn when outside the axis' view: their places are stale
        id(t)
        for ax in fig.axes
        for tick in ax.yaxis.get_major_ticks() + ax.yaxis.get_minor_ticks()
        for t in (tick.label1, tick.label2)
    }
    for t in fig.findobj(Text):
        if not t.get_visible() or not t.get_text() or id(t) in y_ticks:
            continue
        box = t.get_window_extent(renderer)
        if box.x0 < -1 or box.x1 > width + 1 or box.y0 < -1 or box.y1 > height + 1:
            found.append(f"text out of the figure: {t.get_text()[:40]!r}")
    return found


def _grid_summary(games: int, skills: tuple[float, ...]) -> tuple[dict[str, Any], list[Any]]:
    exp = Experiment((_short("standard"), _short("wall2")), players=2, games=games,
                     bots=("aim", "aim"), skills=skills)  # fmt: skip
    rows = _rows(exp.skill_labels, games)
    return build_summary(exp, rows, complete=True), rows


_MANY_SKILLS = tuple(round(i / 40, 3) for i in range(41))


def test_many_skills_make_readable_plots_and_one_game_is_said() -> None:
    summary, rows = _grid_summary(1, _MANY_SKILLS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # constrained_layout's warning was printed on stderr
        figures = [damage_figure(summary, rows), eliminations_figure(summary),
                   skills_figure(summary)]  # fmt: skip
        for fig in figures:
            assert _overlaps(fig) == []
    # grown with the 82 cells and the 41 skills (upright labels, 0.2 in at least each)
    assert all(f.get_figwidth() >= 82 * 0.2 for f in figures[:2])
    assert figures[2].get_figwidth() >= 41 * 0.2
    assert len({a.get_position().x0 for a in figures[2].axes}) == 1  # skills.png: stacked
    for fig in figures:  # each says why it has no intervals
        said = [t.get_text() for t in fig.findobj(Text) if "no 95% CI" in t.get_text()]
        assert len(said) == 1 and "at least 2 games per cell" in said[0], said
    # skills.png draws the difference at every skill, without an interval
    lines = [x for x in figures[2].axes[0].get_lines() if x.get_marker() == "o"]
    assert sum(len(x.get_xdata()) for x in lines) >= 41


def test_plots_say_nothing_however_slow_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """matplotlib warns 'Creating legend with loc="best" can be slow' when
    its search for a legend's place took over 1 s of wall time, which a
    loaded machine makes of any plot: the test above failed so in CI (load
    6) and ``variants`` printed the warning on stderr. Here the legend's
    clock moves 2 s at every reading."""
    import types

    import matplotlib.legend

    clock = iter(range(0, 10**6, 2))
    slow = types.SimpleNamespace(perf_counter=lambda: float(next(clock)))
    monkeypatch.setattr(matplotlib.legend, "time", slow)
    summary, rows = _grid_summary(2, _MANY_SKILLS[::8])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for fig in (damage_figure(summary, rows), eliminations_figure(summary),
                    skills_figure(summary)):  # fmt: skip
            assert fig.findobj(matplotlib.legend.Legend)  # each has a legend to place
            fig.canvas.draw()


def test_skills_plot_with_intervals_says_nothing_and_few_skills_sit_side_by_side() -> None:
    summary, _ = _grid_summary(2, _MANY_SKILLS[::4])
    fig = skills_figure(summary)
    assert not [t for t in fig.findobj(Text) if "no 95% CI" in t.get_text()]
    assert fig.get_figwidth() == 11.0 and len({a.get_position().y0 for a in fig.axes}) == 1
    assert _overlaps(fig) == []


# ---------------------------------------------------------------- 6. --bots


def test_bot_names_are_read_like_skills() -> None:
    assert parse_bot_names("SEARCH", 2) == ("search", "search")
    assert parse_bot_names(" Aim , random ", 2) == ("aim", "random")
    for text, message in (
        ("search,", "an empty item in 'search,'"),
        ("search,,aim", "an empty item"),
        (",", "expected 1 or 2 comma-separated bot names"),
        ("clever", "unknown bot 'clever' (known: aim, random, search)"),
        ("aim,aim,aim", "expected 1 or 2 comma-separated names, got 3"),
    ):
        with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
            parse_bot_names(text, 2)
    assert Experiment.parse_bots("Random", 3) == ("random",) * 3


@pytest.mark.parametrize("command", ["variants", "simulate"])
@pytest.mark.parametrize(
    ("bots", "message"),
    [
        ("search,", "--bots: an empty item in 'search,'"),
        ("search,,aim", "--bots: an empty item in 'search,,aim'"),
        ("wizard", "--bots: unknown bot 'wizard' (known: aim, random, search)"),
        ("", "--bots: expected 1 or 2 comma-separated bot names"),
    ],
)
def test_bad_bots_are_one_line_in_variants_and_simulate(
    command: str, bots: str, message: str
) -> None:
    res = CliRunner().invoke(main, [command, "--players", "2", "--bots", bots])
    assert message in _one_line_error(res)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--variants", "standard,"], "--variants: an empty item in 'standard,'"),
        (["--rules", "a.toml,,b.toml"], "--rules: an empty item in 'a.toml,,b.toml'"),
        (["--variants", " , "], "--variants: expected comma-separated names, got nothing"),
    ],
)
def test_variants_and_rules_refuse_empty_items_too(extra: list[str], message: str) -> None:
    res = CliRunner().invoke(main, ["variants", "--players", "2", *extra])
    assert message in _one_line_error(res)


def test_bot_names_in_any_case_play(tmp_path: Path) -> None:
    args = ["--players", "2", "--bots", "RANDOM,Random", "--json"]
    res = CliRunner().invoke(main, ["simulate", *args])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["bots"] == ["random", "random"]


# ---------------------------------------------------------------- 8. --board ""


@pytest.mark.parametrize("command", ["variants", "simulate", "flick", "replay"])
def test_an_empty_board_is_named_as_such(command: str, tmp_path: Path) -> None:
    extra = [str(tmp_path / "none.jsonl")] if command == "replay" else []
    res = CliRunner().invoke(main, [command, *extra, "--board", " "])
    line = _one_line_error(res)
    assert "--board: empty; expected a board name (standard" in line, line
    assert "is a folder" not in line
