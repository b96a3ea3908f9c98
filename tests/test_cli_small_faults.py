"""Small faults a new user met (issue 18, item 7), each kept by a test that
failed on the code before the fix: progress bars, the winner's line, a
fidelity plot's title, an empty eliminations plot, option checks and help,
the README's synopses, render's frame count and ``replay --until 0``. (The
GUI test that waited on frames is in tests/test_gui.py.)"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import click
import pytest
from click.testing import CliRunner
from gui_display import display  # noqa: F401  (the session fixture)

from warlords_sim.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parent.parent


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture
def tiny_game(tmp_path: Path) -> Path:
    """A recorded 2-player game of one round and one die each (about a second)."""
    rules = tmp_path / "tiny.toml"
    rules.write_text("rounds = 1\ndice_per_player = 1\n")
    game = tmp_path / "game.jsonl"
    res = CliRunner().invoke(
        main, ["simulate", "--players", "2", "--rules", str(rules), "--record", str(game)]
    )
    assert res.exit_code == 0, res.output
    return game


# ------------------------------------------------------------- progress bars


def test_progress_draws_a_bar_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    """README: "a progress bar shows on a terminal (`--progress` forces it)".
    rich draws nothing on a console that is not a terminal, and CliRunner's
    stderr is not one: with --progress the bar is drawn anyway (flick,
    simulate, fidelity); without it, flick draws none there."""
    flick = ["flick", "--at", "0,-120", "--velocity", "0,300", "--trials", "3"]
    res = CliRunner().invoke(main, [*flick, "--progress"])
    assert res.exit_code == 0, res.output
    assert "flicking" in res.stderr
    res = CliRunner().invoke(main, flick)
    assert res.exit_code == 0 and res.stderr == ""
    rules = tmp_path / "tiny.toml"
    rules.write_text("rounds = 1\ndice_per_player = 1\n")
    res = CliRunner().invoke(
        main, ["simulate", "--players", "2", "--rules", str(rules), "--progress"]
    )
    assert res.exit_code == 0, res.output
    assert "round" in res.stderr and "flicks" in res.stderr
    fid = ["fidelity", "--engines", "2.5d,2.5d", "--trials", "1", "--scenarios", "slide-pin-300"]
    res = CliRunner().invoke(main, [*fid, "--progress"])
    assert res.exit_code == 0, res.output
    assert "fidelity" in res.stderr


# ----------------------------------------------------------- the winner's line


def test_the_winners_line_names_the_rule_that_decided() -> None:
    """A 4-player tie on damage (74 and 74) printed ``Winner: P2`` with no
    word of the tie-break (RULES.md, Final tie-break: the most in
    opponents' courtyards in the final round; still tied: shared)."""
    from warlords_sim.rules.scoring import winners_text

    assert winners_text([60, 74, 80, 90], [0, 9, 0, 0]) == ("Winner: P0 (lowest total damage 60)")
    assert winners_text([74, 80, 74, 90], [3, 0, 9, 0]) == (
        "Winner: P2 (P0 and P2 tied on 74 damage; tie-break: most in opponents' "
        "courtyards in the final round, P0 3, P2 9)"
    )
    assert winners_text([74, 74, 74, 90], [5, 2, 5, 0]) == (
        "Shared win: P0 and P2 (P0, P1 and P2 tied on 74 damage, and tied on the "
        "tie-break, dice in opponents' courtyards in the final round: P0 5, P1 2, P2 5)"
    )


def test_simulate_prints_the_tie_break(capsys: pytest.CaptureFixture[str]) -> None:
    from warlords_sim.cli.simulate_cmd import _table

    rnd = {
        "round": 1, "first_player": 0, "damage": [74, 80, 74, 90], "flicks": 40,
        "eliminated": [0, 0, 0, 0], "ended_by": "no_dice", "out_player": 3,
        "side_walls": False, "scored_on_opponents": [3, 0, 9, 0],
    }  # fmt: skip
    data = {
        "players": 4, "variant": "standard", "board": "standard", "seed": 0,
        "bots": ["aim"] * 4, "skill": 0.7, "engine": "2.5d", "rounds": [rnd],
        "totals": [74, 80, 74, 90], "flicks": 40, "winner": 2, "winners": [2],
    }  # fmt: skip
    _table(data)
    out = _flat(capsys.readouterr().out)
    assert "Winner: P2 (P0 and P2 tied on 74 damage; tie-break: most in opponents'" in out


# ------------------------------------------------------------------ pictures


def test_a_fidelity_title_counts_the_criteria_that_agree() -> None:
    """A plot of a scenario where 3 of 8 criteria passed was titled
    "disagree (3/8 criteria)", which reads as 3 disagreeing."""
    from warlords_sim.fidelity.plot import plot_title

    checks = [SimpleNamespace(passed=k < 3) for k in range(8)]
    sr: Any = SimpleNamespace(
        scenario=SimpleNamespace(name="high-2-900", description="Seat 0, area 2."),
        checks=checks,
        passed=False,
    )
    title = plot_title(sr, ("2.5d", "reference"))
    assert title.splitlines()[0] == "high-2-900: 2.5d vs reference: disagree: 3 of 8 criteria agree"
    sr.checks, sr.passed = [SimpleNamespace(passed=True)] * 8, True
    assert "agree: 8 of 8 criteria agree" in plot_title(sr, ("2.5d", "reference"))


def _summary(off: float, over: float) -> dict[str, Any]:
    def cell(name: str) -> dict[str, Any]:
        return {
            "name": name,
            "skill": 0.7,
            "games": 3,
            "offboard_per_round": {"value": off, "ci": [off * 0.5, off * 1.5], "n": 3},
            "wall_exits_per_round": {"value": over, "ci": [over * 0.5, over * 1.5], "n": 3},
        }

    settings = {"players": 2, "bots": ["aim"], "skills": [0.7], "board": "standard"}
    return {"settings": settings, "variants": [cell("standard"), cell("wall2")]}


def test_eliminations_plot_of_no_eliminations_starts_at_zero_and_says_so() -> None:
    """With nothing eliminated the axis ran from -0.04 to 0.04 around bars
    of height 0: now 0 to 1, with a note; with dice eliminated it starts at 0."""
    from warlords_sim.experiments.plots import eliminations_figure

    ax = eliminations_figure(_summary(0.0, 0.0)).axes[0]
    assert ax.get_ylim() == (0.0, 1.0)
    assert any("no die left the board" in t.get_text() for t in ax.texts)
    ax = eliminations_figure(_summary(1.2, 0.4)).axes[0]
    lo, hi = ax.get_ylim()
    assert lo == 0.0 and hi >= 1.2 * 1.5
    assert not any("no die left the board" in t.get_text() for t in ax.texts)


# --------------------------------------------------------- options and help


def test_variants_seed_must_not_be_negative() -> None:
    """``variants --seed -1`` was accepted; every other command wants >= 0."""
    args = ["variants", "--seed", "-1", "--games", "1", "--players", "2", "--variants", "standard"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "--seed" in lines[0] and "-1" in lines[0], lines


def test_every_option_of_every_command_has_help() -> None:
    """``variants --players`` (and ``play --players``) had none."""
    missing = []
    for name in COMMANDS:
        cmd = main.get_command(click.Context(main), name)
        assert cmd is not None
        for p in cmd.params:
            if isinstance(p, click.Option) and not p.help:
                missing.append(f"{name} {'/'.join(p.opts)}")
    assert missing == []


def test_top_level_help_lists_every_command_summary_whole() -> None:
    """``warlords-sim --help`` cut the summaries to a line with "..."."""
    res = CliRunner().invoke(main, ["--help"])
    assert res.exit_code == 0
    listing = res.output[res.output.index("Commands:") :]
    assert "..." not in listing
    for name, (_, _, summary) in COMMANDS.items():
        assert _flat(f"{name} {summary}") in _flat(listing), name
        cmd = main.get_command(click.Context(main), name)
        assert cmd is not None and cmd.help is not None
        first = cmd.help.split("\n\n")[0]
        assert _flat(first) == summary, name  # the summary is the command's own


def test_readme_synopses_list_every_option() -> None:
    """The README's ``simulate`` synopsis lacked ``--engine`` (and ``flick``'s
    ``--progress``): every option of a command whose synopsis the README
    gives appears in it (one of a flag pair is enough)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    synopses: dict[str, str] = {}
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        m = re.match(r"warlords-sim (\w+) [\[(]", block)
        if m and m.group(1) not in synopses:
            synopses[m.group(1)] = block
    assert {"board", "flick", "simulate", "variants", "play"} <= set(synopses)
    missing = []
    for name, block in synopses.items():
        cmd = main.get_command(click.Context(main), name)
        assert cmd is not None
        for p in cmd.params:
            if not isinstance(p, click.Option) or "--help" in p.opts:
                continue
            names = [o for o in (*p.opts, *p.secondary_opts) if o.startswith("--")]
            if not any(re.search(re.escape(o) + r"(?![\w-])", block) for o in names):
                missing.append(f"{name} {names[0]}")
    assert missing == []


# ------------------------------------------------------------ render, replay


def test_render_reports_the_frames_an_mp4_holds(
    display: str,  # noqa: F811
    tiny_game: Path,
    tmp_path: Path,
) -> None:
    """``render`` said 38 frames for an MP4 of 110: a frame held longer than
    1/fps is repeated in a video, and it counted each once."""
    import imageio.v2 as iio

    out = tmp_path / "game.mp4"
    args = ["render", str(tiny_game), "--out", str(out), "--to", "2", "--fps", "10"]
    res = CliRunner().invoke(main, [*args, "--size", "200"])
    assert res.exit_code == 0, res.output
    reader = iio.get_reader(str(out), format="FFMPEG")
    try:
        n = reader.count_frames()
    finally:
        reader.close()
    assert n > 0
    assert f", {n} frames, {n / 10:.1f} s at 10 fps" in res.output, (n, res.output)


def test_replay_until_0_names_no_actions(tiny_game: Path, tmp_path: Path) -> None:
    """``replay --until 0 --branch`` said "actions 1..0"."""
    new = tmp_path / "setup.jsonl"
    res = CliRunner().invoke(main, ["replay", str(tiny_game), "--until", "0", "--branch", str(new)])
    assert res.exit_code == 0, res.output
    assert "1..0" not in res.output
    assert f"{new}: the set-up of {tiny_game}, none of its actions" in res.output
    res = CliRunner().invoke(main, ["replay", str(tiny_game), "--until", "0", "--verify"])
    assert res.exit_code == 0, res.output
    assert "1..0" not in res.output and "none of its" in res.output
    one = tmp_path / "one.jsonl"
    res = CliRunner().invoke(main, ["replay", str(tiny_game), "--until", "1", "--branch", str(one)])
    assert res.exit_code == 0, res.output
    assert f"{one}: action 1 of {tiny_game}" in res.output


def test_a_nan_length_scale_is_refused_as_the_option_it_is(tmp_path: Path) -> None:
    """Found by a hostile user (stop 26): ``fidelity --length-scale nan``
    got past click's range (every comparison with NaN is false) and was
    blamed on the file ("the fitted flight is never 2 mm clear of the
    table"). It is refused as the option, exit 2, before any file is read."""
    res = CliRunner().invoke(
        main,
        ["fidelity", "--tosses", str(tmp_path / "none.npz"), "--engine", "2.5d",
         "--length-scale", "nan"],
    )  # fmt: skip
    assert res.exit_code == 2
    assert "--length-scale" in res.output and "none.npz" not in res.output


def test_an_edited_digest_is_not_blamed_on_the_dice(tmp_path: Path) -> None:
    """Found by a hostile user (stop 26): a replay line whose digest alone
    was edited (its last hex digit) was reported as "digest f712e5409d95a373
    replayed, f712e5409d95a373 recorded; no die's place differs
    (orientation, pins or walls do)": two digests printed alike, and a
    false claim. The digests are shown as far as they part, and the message
    says the recorded digest may itself have been edited."""
    import json

    src = ROOT / "examples" / "replays" / "sandbox-flicks.jsonl"
    lines = src.read_text().splitlines()
    k = next(i for i, line in enumerate(lines) if '"digest"' in line and i > 0)
    rec = json.loads(lines[k])
    last = rec["digest"][-1]
    rec["digest"] = rec["digest"][:-1] + ("0" if last != "0" else "1")
    lines[k] = json.dumps(rec)
    copy = tmp_path / "edited.jsonl"
    copy.write_text("\n".join(lines) + "\n")
    res = CliRunner().invoke(main, ["replay", str(copy), "--verify"])
    assert res.exit_code == 1, res.output
    text = _flat(res.output)
    assert rec["digest"] in text  # shown in full: it parts at the last digit
    assert "edited or mis-recorded" in text
