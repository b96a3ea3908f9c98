"""A failed or interrupted command leaves the old file as it was (issue 12,
break-it findings on ``--record``/``--branch``/``render``).

What broke: ``--record X --force`` and ``replay --branch X --force`` opened X
with "wb" at once, so a run that then failed (a cuboid die the 2.5D engine
refuses) or was killed (SIGTERM) destroyed the old recording; a failed
``--record`` left a header-only file; ``flick --record x.png --plot x.png``
wrote one file twice; ``--branch`` onto a hard link of the source destroyed
the source; two concurrent forced runs interleaved their lines in one file;
SIGTERM during ``render`` left a hidden ``.partial`` file.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from warlords_sim.board import load_board
from warlords_sim.cli import main
from warlords_sim.replay import Recorder, load_replay
from warlords_sim.rules.game import GameConfig

ROOT = Path(__file__).resolve().parents[1]
GAME_2P = ROOT / "examples" / "replays" / "game-2p-standard.jsonl"
OLD = b"old recording, keep me\n"


def _cuboid_board(tmp_path: Path) -> Path:
    """The standard board with a 16 x 16 x 10 mm die: the 2.5D engine refuses it."""
    text = (ROOT / "boards" / "standard.toml").read_text()
    cub = text.replace("# sides_mm = [16.0, 16.0, 16.0]", "sides_mm = [16.0, 16.0, 10.0]")
    assert cub != text  # the board file still has the commented line this relies on
    path = tmp_path / "cub.toml"
    path.write_text(cub)
    return path


def _cli(*args: object) -> list[str]:
    run = "from warlords_sim.cli import main; main(prog_name='warlords-sim')"
    return [sys.executable, "-c", run, *map(str, args)]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def test_a_forced_recorder_replaces_the_file_only_when_it_ends(tmp_path: Path) -> None:
    target = tmp_path / "g.jsonl"
    target.write_bytes(OLD)
    config = GameConfig(load_board("standard"), 2)
    rec = Recorder.create(target, config, seed=0, bots=["aim", "aim"], force=True)
    assert rec.pending and rec.path.parent == tmp_path and rec.path.name.startswith(".g.")
    assert target.read_bytes() == OLD  # not truncated while recording
    assert load_replay(rec.path).actions == []  # the live prefix is a valid replay
    rec.close()  # interrupted: the old file stays, the prefix is kept
    assert target.read_bytes() == OLD and rec.path.exists()
    assert rec.place() == target and not rec.pending
    assert load_replay(target).header.players == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.jsonl"]


def test_a_failed_forced_record_keeps_the_old_file(tmp_path: Path) -> None:
    cub = _cuboid_board(tmp_path)
    target = tmp_path / "cr.jsonl"
    target.write_bytes(OLD)
    res = CliRunner().invoke(
        main,
        ["simulate", "--players", "2", "--board", str(cub), "--record", str(target), "--force"],
    )
    assert res.exit_code == 2 and "cubic dice only" in res.stderr
    assert target.read_bytes() == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cr.jsonl", "cub.toml"]


def test_a_failed_record_leaves_no_stray_file(tmp_path: Path) -> None:
    cub = _cuboid_board(tmp_path)
    target = tmp_path / "cr.jsonl"
    res = CliRunner().invoke(
        main, ["simulate", "--players", "2", "--board", str(cub), "--record", str(target)]
    )
    assert res.exit_code == 2 and "cubic dice only" in res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cub.toml"]


def test_record_and_plot_naming_one_file_are_refused(tmp_path: Path) -> None:
    out = tmp_path / "x.png"
    res = CliRunner().invoke(
        main,
        ["flick", "--at", "0,-120", "--velocity", "300,0", "--record", str(out)]
        + ["--plot", str(tmp_path / "." / "x.png")],
    )
    assert res.exit_code == 2 and "name the same file" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and not out.exists()


def test_a_branch_onto_a_hard_link_of_the_source_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "g2.jsonl"
    src.write_bytes(GAME_2P.read_bytes())
    os.link(src, tmp_path / "hard.jsonl")
    res = CliRunner().invoke(
        main,
        ["replay", str(src), "--until", "2", "--branch", str(tmp_path / "hard.jsonl")]
        + ["--force"],
    )
    assert res.exit_code == 2 and "is the replay being read" in res.stderr
    assert src.read_bytes() == GAME_2P.read_bytes()


def test_sigterm_keeps_the_old_file_and_says_where_the_prefix_is(tmp_path: Path) -> None:
    target = tmp_path / "g.jsonl"
    target.write_bytes(OLD)
    args = _cli("simulate", "--players", "4", "--seed", "3", "--record", target, "--force")
    proc = subprocess.Popen(args, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    partial: list[Path] = []
    while time.monotonic() < deadline and proc.poll() is None:  # until actions are on disk
        partial = list(tmp_path.glob(".g.*.partial.jsonl"))
        if partial and partial[0].read_bytes().count(b"\n") > 3:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert target.read_bytes() == OLD
    assert len(partial) == 1 and str(partial[0]) in err.decode()
    rep = load_replay(partial[0])  # a resumable prefix
    assert rep.result is None and len(rep.actions) >= 3


@pytest.mark.parametrize("existed", [True, False])
def test_an_interrupted_forced_record_says_what_became_of_the_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], existed: bool
) -> None:
    """``--record PATH --force`` interrupted: "PATH is unchanged" where a
    file was there, "nothing was written to PATH" where none was, and where
    the recording so far is. Failed before: "is unchanged" for a file that
    never existed."""
    import click

    from warlords_sim.cli._outputs import recording

    target = tmp_path / "g.jsonl"
    if existed:
        target.write_bytes(OLD)
    config = GameConfig(load_board("standard"), 2)
    rec = Recorder.create(target, config, seed=0, bots=["aim", "aim"], force=True)
    with pytest.raises(click.exceptions.Exit), recording(rec, "--record"):
        rec.copy_line(load_replay(GAME_2P).actions[0])  # an action on disk: a prefix to keep
        raise KeyboardInterrupt
    err = capsys.readouterr().err
    assert f"the recording so far is in {rec.path} (" in err, err
    note = (
        f"--record {target} is unchanged"
        if existed
        else f"nothing was written to --record {target}"
    )
    assert f"({note})" in err, err
    assert target.exists() == existed


def test_two_concurrent_forced_records_leave_one_whole_recording(tmp_path: Path) -> None:
    target = tmp_path / "f.jsonl"
    target.write_bytes(OLD)
    runs = [
        subprocess.Popen(
            _cli("simulate", "--bots", "random", "--seed", seed, "--record", target, "--force"),
            env=_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for seed in (1, 2)
    ]
    for p in runs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    rep = load_replay(target)
    assert rep.result is not None and rep.header.seed in (1, 2) and not rep.warnings
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.jsonl"]


def test_sigterm_during_render_leaves_no_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The drawing is replaced by one that writes a little and then gets a
    SIGTERM (the window and the movie writer are not what is tested)."""
    pytest.importorskip("PIL")
    from warlords_sim.cli import render_cmd

    out = tmp_path / "end.png"
    out.write_bytes(OLD)

    class FakeCanvas:
        def __init__(self, *a: object) -> None:
            pass

        def close(self) -> None:
            pass

    def draw(controller: object, canvas: object, tmp: Path, *rest: object) -> tuple[int, float]:
        tmp.write_bytes(b"half a picture")
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the signal arrives before this ends
        raise AssertionError("SIGTERM did not interrupt the render")

    import warlords_sim.gui.movie as movie

    monkeypatch.setattr(movie, "prepare_offscreen", lambda: None)
    monkeypatch.setattr(movie, "Canvas", FakeCanvas)
    monkeypatch.setattr(render_cmd, "_draw", draw)
    res = CliRunner().invoke(
        main, ["render", str(GAME_2P), "--to", "1", "--out", str(out), "--force"]
    )
    assert res.exit_code == 128 + signal.SIGTERM, res.output
    assert "interrupted by SIGTERM" in res.stderr
    assert out.read_bytes() == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["end.png"]


GAME_2P = Path(__file__).resolve().parent.parent / "examples" / "replays" / "game-2p-standard.jsonl"


def _crashed(tmp_path: Path, actions: int) -> Path:
    """The example game cut after ``actions`` actions: a game to resume."""
    lines = GAME_2P.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "crashed.jsonl"
    cut.write_bytes(b"".join(lines[: 1 + actions]))
    return cut


def test_a_game_being_recorded_cannot_be_resumed_by_another_recorder(tmp_path: Path) -> None:
    """Saved case (issue 21's new-user run): two ``host --resume`` of one
    file both appended, the file got action index 7 after 8 and no command
    could read it again. A recorder holds its file: a second append is
    refused and changes nothing; once the first ends, the resume works."""
    from warlords_sim.gui.playback import resume_game
    from warlords_sim.replay import ReplayError

    cut = _crashed(tmp_path, 10)
    before = cut.read_bytes()
    first, _ = resume_game(cut)
    try:
        with pytest.raises(ReplayError, match="another warlords-sim is recording this game"):
            resume_game(cut)
        assert cut.read_bytes() == before
    finally:
        assert first.recorder is not None
        first.recorder.close()
    second, line = resume_game(cut)
    assert second.recorder is not None
    second.recorder.close()
    assert "after action 10" in line


def test_a_resume_refuses_a_file_that_grew_after_it_was_read(tmp_path: Path) -> None:
    """A replay read, then appended to by a recorder that has since ended,
    then resumed from the stale reading would cut off the new lines: the
    append reads it again under its lock and refuses, losing nothing."""
    from warlords_sim.gui.playback import resume_game
    from warlords_sim.replay import ReplayError
    from warlords_sim.replay.rebuild import rebuild

    cut = _crashed(tmp_path, 10)
    stale = load_replay(cut)
    more = GAME_2P.read_bytes().splitlines(keepends=True)[11:13]
    with cut.open("ab") as f:  # another run recorded two more actions, and ended
        f.write(b"".join(more))
    grown = cut.read_bytes()
    rebuilt = rebuild(stale)
    with pytest.raises(ReplayError, match="changed while it was being read .* 2 more actions"):
        Recorder.append(stale, rebuilt.game, rebuilt.replayer.after)
    assert cut.read_bytes() == grown
    c, line = resume_game(cut)
    assert c.recorder is not None
    c.recorder.close()
    assert "after action 12" in line


def test_a_rebuild_checks_the_bots_choices_against_the_file() -> None:
    """The bots choose again before each of their recorded actions (their
    generators must stand where they stood); the recorded bot, at the
    recorded skill, chooses exactly what the file records, and a bot of
    that name at another skill is said to differ (issue 22: the choice was
    thrown away unchecked)."""
    from warlords_sim.bots import make_bot
    from warlords_sim.replay.rebuild import rebuild

    replay = load_replay(GAME_2P)
    assert replay.header.bots == ["aim", "aim"] and replay.header.skill == 0.7
    same = rebuild(replay, 20, policies=[make_bot("aim", 0.7), make_bot("aim", 0.7)])
    assert same.replayer.choices_differ == [] and not same.warnings
    other = rebuild(replay, 20, policies=[make_bot("aim", 0.2), make_bot("aim", 0.2)])
    assert other.replayer.choices_differ[:1] == [1]
    assert any("the bots choose otherwise than the file records" in w for w in other.warnings)
