"""The lab across skills and boards (issue 13, item 4): the (variant, skill)
grid, its seeds (distinct per skill, unchanged for the default skill so old
folders resume), tests against the first variant at the same skill, a
shared win counting 1/k to each of its k winners, ``--board`` with a name
and a path (the file's text travels to the workers), resume refused for
other skills or another board, and the skills plot."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from warlords_sim.board import BOARDS_DIR
from warlords_sim.bots import SkillLevel
from warlords_sim.cli import main
from warlords_sim.experiments import (
    COLUMNS,
    Experiment,
    ExperimentError,
    Variant,
    builtin_variant,
    experiment_board,
    game_seed,
    run_experiment,
)
from warlords_sim.experiments.stats import summarize
from warlords_sim.experiments.store import read_rows

NOVICE, EXPERT = SkillLevel.NOVICE, SkillLevel.EXPERT


def _short(name: str) -> Variant:
    """A built-in wall variant cut to one round (2-player games of ~0.1 s)."""
    v = builtin_variant(name)
    return Variant(v.name, v.rules.replace(rounds=1))


def _grid(games: int = 2, **kw: Any) -> Experiment:
    return Experiment(
        (_short("standard"), _short("wall2")),
        players=2,
        games=games,
        bots=("aim", "random"),
        skills=kw.pop("skills", (NOVICE, EXPERT)),
        **kw,
    )


# ---------------------------------------------------------------- the grid


def test_skills_make_a_grid_of_cells_with_their_own_seeds() -> None:
    exp = _grid(2)
    specs = exp.specs()
    cells = [(s["variant"], s["skill"], s["index"]) for s in specs]
    assert cells[:4] == [
        ("standard", "novice", 0),
        ("wall2", "novice", 0),
        ("standard", "expert", 0),
        ("wall2", "expert", 0),
    ]
    assert len(cells) == len(set(cells)) == 8
    assert json.loads(json.dumps(specs)) == specs  # plain data
    seeds = [s["seed"] for s in specs]
    assert len(set(seeds)) == 8  # distinct per skill, too
    assert specs[0]["seed"] == game_seed(0, "standard", 0, "novice") != game_seed(0, "standard", 0)
    # one default skill: the seeds of the lab before skills
    plain = Experiment((_short("standard"),), players=2, games=2, bots=("aim", "aim"))
    assert [s["seed"] for s in plain.specs()] == [game_seed(0, "standard", i) for i in range(2)]
    assert plain.settings()["skills"] == [0.7]
    # levels by name, numbers as numbers, in the order given
    mixed = _grid(1, skills=("expert", 0.3))
    assert mixed.skills == (EXPERT, 0.3) and mixed.skill_labels == ["expert", "0.3"]
    assert mixed.settings()["skills"] == ["expert", 0.3]
    for bad, msg in (((), "at least one"), ((0.3, 0.3), "0.3 is given twice"), ((2.0,), "[0, 1]")):
        with pytest.raises(ExperimentError, match=msg.replace("[", r"\[")):
            _grid(1, skills=bad)


def test_every_metric_per_variant_and_skill_against_the_first_at_that_skill(
    tmp_path: Path,
) -> None:
    exp = _grid(2)
    res = run_experiment(exp, tmp_path / "lab", workers=1)
    rows = read_rows(tmp_path / "lab" / "games.csv")
    assert {(r["variant"], r["skill"]) for r in rows} == {
        (v, k) for v in ("standard", "wall2") for k in ("novice", "expert")
    }
    by_seed = {s["seed"]: s for s in exp.specs()}
    assert all(by_seed[r["seed"]]["skill"] == r["skill"] for r in rows)
    cells = res.summary["variants"]
    assert [(c["name"], c["skill"]) for c in cells] == [
        ("standard", "novice"),
        ("wall2", "novice"),
        ("standard", "expert"),
        ("wall2", "expert"),
    ]
    assert res.summary["settings"]["skills"] == ["novice", "expert"]
    for ref, other in (cells[0:2], cells[2:4]):
        assert "diff" not in ref["mean_damage"]
        dmg = [
            float(r["damage"])
            for r in rows
            if (r["variant"], r["skill"]) == ("wall2", other["skill"])
        ]
        base = [
            float(r["damage"])
            for r in rows
            if (r["variant"], r["skill"]) == ("standard", other["skill"])
        ]
        assert other["mean_damage"]["diff"] == pytest.approx(
            sum(dmg) / len(dmg) - sum(base) / len(base)
        )
        lo, hi = other["mean_damage"]["diff_ci"]
        assert lo <= other["mean_damage"]["diff"] <= hi
        assert other["games"] == 2 and len(other["win_rate_by_seat"]) == 2
    png = tmp_path / "lab" / "skills.png"
    assert png in res.files and png.stat().st_size > 20_000
    # one skill: no skills plot
    one = run_experiment(_grid(1, skills=(NOVICE,)), tmp_path / "one", workers=1)
    assert not (tmp_path / "one" / "skills.png").exists() and one.files


def test_wall1_trigger_rate_is_a_row_per_skill() -> None:
    from warlords_sim.experiments.report import format_table

    exp = Experiment(
        (_short("standard"), _short("wall1")),
        players=2,
        games=1,
        bots=("random", "random"),
        skills=(NOVICE, EXPERT),
    )
    res = run_experiment(exp, None, workers=1)
    trig = [c["wall1_trigger_rate"] for c in res.summary["variants"]]
    assert trig[0] is None and trig[2] is None  # standard: no such rate
    assert trig[1]["n"] == trig[3]["n"] == 1  # one per cell
    from rich.console import Console

    console = Console(width=200, record=True, file=io.StringIO())
    console.print(format_table(res.summary))
    text = console.export_text()
    lines = [ln for ln in text.splitlines() if ln.startswith("│ wall 1 triggered")]
    assert len(lines) == 1 and "novice" in lines[0]  # then the expert row below it
    after = text.splitlines()[text.splitlines().index(lines[0]) :]
    assert any("expert" in ln for ln in after[1:4])
    flat = " ".join(text.split())
    assert "a shared win counts 1/k" in flat and "wall 1 triggered: games whose" in flat


# ---------------------------------------------------------------- 1/k


def _row(index: int, winners: str, variant: str = "a", first: int = 0) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(COLUMNS, 0)
    row.update(
        variant=variant,
        skill="0.7",
        index=index,
        players=2,
        wall_variant="standard",
        rounds=1,
        first_player=first,
        winners=winners,
        damage_p2=None,
        damage_p3=None,
    )
    return row


def test_a_shared_win_counts_one_kth_to_each_winner() -> None:
    """Four hand-built games: P0 wins, P0 and P1 share, P1 wins, P0 wins.
    P0's win rate is (1 + 1/2 + 0 + 1) / 4 = 62.5 %, P1's 37.5 %: they add
    up to 100 %, where counting 1 to each winner gave 75 % and 50 %."""
    a = [_row(0, "0"), _row(1, "0 1"), _row(2, "1"), _row(3, "0")]
    b = [_row(i, w, "b", first=1) for i, w in enumerate(("0", "1", "1", "1"))]
    cells = summarize([*a, *b], ["a", "b"], 2, skills=["0.7"])
    wins = [m["value"] for m in cells[0]["win_rate_by_seat"]]
    assert wins == [0.625, 0.375]
    assert cells[0]["win_rate_by_seat"][0]["count"] == 2.5
    assert cells[0]["first_player_win_rate"]["value"] == 0.625
    assert cells[0]["shared_win_rate"]["value"] == 0.25
    lo, hi = cells[0]["win_rate_by_seat"][0]["ci"]
    assert 0.0 < lo < 0.625 < hi < 1.0
    # against a reference with a shared win: Welch on the shares, not Fisher
    p0 = cells[1]["win_rate_by_seat"][0]
    assert p0["value"] == 0.25 and p0["diff"] == pytest.approx(0.25 - 0.625)
    assert p0["test"] == "welch" and 0.0 < p0["p"] <= 1.0
    assert cells[1]["first_player_win_rate"]["value"] == 0.75  # P1 started and won 3
    # whole wins only: Fisher's exact test
    whole = summarize([*a[:1], *a[2:], *b[:3]], ["a", "b"], 2, skills=["0.7"])
    assert whole[1]["win_rate_by_seat"][0]["test"] == "fisher"


# ---------------------------------------------------------------- boards


def _board_copy(tmp_path: Path, name: str = "mine", note: str = "") -> Path:
    text = (BOARDS_DIR / "standard.toml").read_text(encoding="utf-8")
    path = tmp_path / f"{name}.toml"
    path.write_text(
        text.replace('name = "standard"', f'name = "{name}"', 1) + note, encoding="utf-8"
    )
    return path


def test_a_board_file_travels_to_the_workers_as_its_text(tmp_path: Path) -> None:
    path = _board_copy(tmp_path)
    board = experiment_board(str(path))
    assert board.name == "mine" and board.file == str(path)
    exp = Experiment((_short("standard"),), players=2, games=1, bots=("random", "random"),
                     board=board)  # fmt: skip
    spec = exp.specs()[0]
    assert spec["board"]["toml"] == path.read_text(encoding="utf-8")
    path.write_text("not a board", encoding="utf-8")  # the workers never read the file
    res = run_experiment(exp, tmp_path / "lab", workers=1, plots=False)
    assert res.played == 1
    settings = json.loads((tmp_path / "lab" / "experiment.json").read_text())
    assert settings["board"] == "mine" and settings["board_sha256"] == board.sha256
    assert res.summary["settings"]["board"] == "mine"
    assert experiment_board("standard").file == "standard"


def test_variants_board_option_with_a_name_a_path_and_a_bad_file(tmp_path: Path) -> None:
    args = ["variants", "--players", "2", "--games", "1", "--workers", "1"]
    args += ["--bots", "random", "--variants", "standard"]
    ok = CliRunner().invoke(main, [*args, "--board", "standard"])
    assert ok.exit_code == 0, ok.output
    path = _board_copy(tmp_path)
    res = CliRunner().invoke(main, [*args, "--board", str(path), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["settings"]["board"] == "mine"
    bad = tmp_path / "bad.toml"
    bad.write_text("name = 3\n", encoding="utf-8")
    res = CliRunner().invoke(main, [*args, "--board", str(bad)])
    lines = res.stderr.strip().splitlines()
    assert res.exit_code == 2 and len(lines) == 1 and str(bad) in lines[0], res.stderr


# ---------------------------------------------------------------- resume


def test_resume_is_refused_for_other_skills_or_another_board(tmp_path: Path) -> None:
    out = tmp_path / "lab"
    run_experiment(_grid(1, skills=(NOVICE,)), out, workers=1, plots=False)
    with pytest.raises(ExperimentError, match="played at skills novice, not novice,expert"):
        run_experiment(_grid(1), out, workers=1, plots=False)
    with pytest.raises(ExperimentError, match="played on board 'standard', not 'mine'"):
        run_experiment(
            _grid(1, skills=(NOVICE,), board=experiment_board(str(_board_copy(tmp_path)))),
            out,
            workers=1,
            plots=False,
        )
    changed = _board_copy(tmp_path, "standard", note="\n# edited\n")
    with pytest.raises(ExperimentError, match="another version of board 'standard'"):
        run_experiment(
            _grid(1, skills=(NOVICE,), board=experiment_board(str(changed))),
            out,
            workers=1,
            plots=False,
        )
    # the same board file, elsewhere: the same games, resumed
    moved = tmp_path / "moved.toml"
    moved.write_bytes((BOARDS_DIR / "standard.toml").read_bytes())
    again = _grid(2, skills=(NOVICE,), board=experiment_board(str(moved)))
    assert run_experiment(again, out, workers=1, plots=False).played == 2


def _as_version_1(folder: Path, skill: float = 0.7) -> None:
    """Rewrite a lab folder as the lab before skills wrote it: settings
    version 1 with ``skill``, games.csv without the skill column."""
    sj = folder / "experiment.json"
    s = json.loads(sj.read_text())
    for key in ("skills", "board_file", "board_sha256"):
        del s[key]
    s.update(version=1, skill=skill)
    sj.write_text(json.dumps(s))
    path = folder / "games.csv"
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    cols = [c for c in COLUMNS if c != "skill"]
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, cols, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def test_a_folder_of_the_lab_before_skills_resumes_at_the_default_skill(
    tmp_path: Path,
) -> None:
    exp = Experiment((_short("standard"),), players=2, games=3, bots=("aim", "random"))
    whole = run_experiment(exp, tmp_path / "whole", workers=1, plots=False)
    first = Experiment(exp.variants, 2, 2, exp.bots)
    run_experiment(first, tmp_path / "old", workers=1, plots=False)
    _as_version_1(tmp_path / "old")
    assert "skill" not in (tmp_path / "old" / "games.csv").read_text().splitlines()[0]
    resumed = run_experiment(exp, tmp_path / "old", workers=1, plots=False)
    assert resumed.played == 1 and resumed.summary == whole.summary
    assert read_rows(tmp_path / "old" / "games.csv") == read_rows(tmp_path / "whole" / "games.csv")
    # an old folder of another skill: its seeds left the skill out, refused
    run_experiment(Experiment(exp.variants, 2, 1, exp.bots, (0.5,)), tmp_path / "x", workers=1,
                   plots=False)  # fmt: skip
    _as_version_1(tmp_path / "x", skill=0.5)
    with pytest.raises(ExperimentError, match="older warlords-sim .skill = 0.5."):
        run_experiment(Experiment(exp.variants, 2, 1, exp.bots, (0.5,)), tmp_path / "x",
                       workers=1)  # fmt: skip


def test_an_old_folder_resumed_on_an_edited_board_says_it_kept_no_sha256(
    tmp_path: Path,
) -> None:
    """The lab before boards kept no SHA-256; resumed on another file named
    standard, the message read "(SHA-256 None..., this file's ...)"."""
    exp = Experiment((_short("standard"),), players=2, games=1, bots=("random", "random"))
    run_experiment(exp, tmp_path / "old", workers=1, plots=False)
    _as_version_1(tmp_path / "old")
    edited = experiment_board(str(_board_copy(tmp_path, "standard", note="\n# edited\n")))
    again = Experiment(exp.variants, 2, 2, exp.bots, board=edited)
    with pytest.raises(ExperimentError) as e:
        run_experiment(again, tmp_path / "old", workers=1, plots=False)
    text = str(e.value)
    assert "None" not in text and "did not record its board's SHA-256" in text, text
    assert edited.sha256[:12] in text and edited.file in text
    # the shipped board still resumes it
    assert run_experiment(Experiment(exp.variants, 2, 2, exp.bots), tmp_path / "old",
                          workers=1, plots=False).played == 1  # fmt: skip


# ---------------------------------------------------------------- the command


def test_help_explains_skills_board_and_shared_wins() -> None:
    res = CliRunner().invoke(main, ["variants", "--help"])
    text = " ".join(res.output.split())
    assert res.exit_code == 0
    for part in (
        "--skills novice,club,expert",
        "--skills novice,expert --out",  # the example
        "--board NAME|PATH",
        "--board boards/standard.toml",
        "a shared win counting 1/k to each of its k winners",
        "skills.png",
        "aim, random, search",
    ):
        assert part in text, part


def test_cli_skills_grid_and_skill_as_one_skill(tmp_path: Path) -> None:
    rules = tmp_path / "short.toml"
    rules.write_text("rounds = 1\n")
    args = ["variants", "--players", "2", "--games", "1", "--workers", "1", "--rules", str(rules)]
    res = CliRunner().invoke(main, [*args, "--skills", "novice,0.3", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert [(c["name"], c["skill"]) for c in data["variants"]] == [
        ("short", "novice"),
        ("short", "0.3"),
    ]
    one = CliRunner().invoke(main, [*args, "--skill", "0.3", "--json"])
    many = CliRunner().invoke(main, [*args, "--skills", "0.3", "--json"])
    assert one.exit_code == many.exit_code == 0
    assert json.loads(one.stdout) == json.loads(many.stdout)
    table = CliRunner().invoke(main, [*args, "--skills", "novice,expert"])
    assert table.exit_code == 0 and "skill" in table.output and "expert" in table.output
