"""A replay names other files without local paths, and never echoes them
(issue 18, item 4).

What broke: a replay's ``board.file`` may name any file its reader can
read, and loading it echoed what the file held: ``format = "..."`` came
back as 40 characters of the value ("expected 'warlords-board', got
'sk-live-...'"), another key as "unknown field api_key". And every replay
of a board file held that file's absolute path (``/home/alice/...``), as a
branch's ``branch_of.file`` held the source replay's path, in files people
share. Now a board file is parsed only if its bytes have the header's
SHA-256, and both fields name a file relative to the replay's folder, or
by its name alone; an older replay's absolute path still loads.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from warlords_sim.cli import main
from warlords_sim.replay import load_replay

ROOT = Path(__file__).resolve().parents[1]
SANDBOX = ROOT / "examples" / "replays" / "sandbox-flicks.jsonl"
SECRET = "sk-live-hunter2-0123456789abcdefghijklmnop"


def _with_board_file(src: Path, dest: Path, file: str) -> Path:
    """``src`` with its header's ``board.file`` set to ``file``."""
    lines = src.read_text().splitlines(keepends=True)
    header = json.loads(lines[0])
    header["board"]["file"] = file
    dest.write_text(json.dumps(header, separators=(",", ":")) + "\n" + "".join(lines[1:]))
    return dest


@pytest.mark.parametrize(
    "secret",
    [
        f'format = "{SECRET}"\n',  # echoed as "got 'sk-live-hunter2-...' (44 characters)"
        f"{SECRET.replace('-', '_')} = 1\n",  # echoed as "unknown field sk_live_..."
        f'format = "warlords-board"\nversion = 1\nname = "{SECRET}"\n[die]\nsize_mm = "x"\n',
    ],
)
def test_a_replay_naming_another_file_gets_not_a_word_of_it(tmp_path: Path, secret: str) -> None:
    private = tmp_path / "private.txt"
    private.write_text(secret)
    evil = _with_board_file(SANDBOX, tmp_path / "evil.jsonl", str(private))
    res = CliRunner().invoke(main, ["replay", str(evil), "--verify"])
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    for word in (SECRET, SECRET.replace("-", "_"), SECRET[:12], "sk_live", "api"):
        assert word not in res.stderr, res.stderr
    assert "is not the board the replay was recorded on" in lines[0]
    assert "give --board PATH" in lines[0]


def test_a_board_file_is_named_relative_to_the_replay_and_found_from_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Recorded with the board in the replay's folder (or below it) and
    verified from another folder; a board elsewhere is named by its name
    alone and found with --board."""
    text = (ROOT / "boards" / "standard.toml").read_text()
    mine = text.replace('name = "standard"', 'name = "mine"')
    assert mine != text
    (tmp_path / "runs" / "boards").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    inside = tmp_path / "runs" / "boards" / "mine.toml"
    outside = tmp_path / "elsewhere" / "theirs.toml"
    inside.write_text(mine)
    outside.write_text(mine)
    flick = ["flick", "--at", "0,-120", "--velocity", "600,0"]
    monkeypatch.chdir(tmp_path)
    for board, name in ((inside, "boards/mine.toml"), (outside, "theirs.toml")):
        out = tmp_path / "runs" / f"{board.stem}.jsonl"
        res = CliRunner().invoke(main, [*flick, "--board", str(board), "--record", str(out)])
        assert res.exit_code == 0, res.output
        text_out = out.read_text()
        assert str(tmp_path) not in text_out  # no local path in a shared file
        assert load_replay(out).header.board.file == name
    monkeypatch.chdir(tmp_path / "elsewhere")
    ok = CliRunner().invoke(main, ["replay", str(tmp_path / "runs" / "mine.jsonl"), "--verify"])
    assert ok.exit_code == 0, ok.output
    gone = CliRunner().invoke(main, ["replay", str(tmp_path / "runs" / "theirs.jsonl"), "--verify"])
    assert gone.exit_code == 2 and "is not there; give --board PATH" in gone.stderr
    given = CliRunner().invoke(
        main,
        ["replay", str(tmp_path / "runs" / "theirs.jsonl"), "--verify", "--board", "theirs.toml"],
    )
    assert given.exit_code == 0, given.output


def test_an_older_replay_with_an_absolute_path_still_loads(tmp_path: Path) -> None:
    board = tmp_path / "mine.toml"
    board.write_text((ROOT / "boards" / "standard.toml").read_text())
    rec = tmp_path / "a" / "shot.jsonl"
    rec.parent.mkdir()
    res = CliRunner().invoke(
        main,
        [
            "flick",
            "--at",
            "0,-120",
            "--velocity",
            "600,0",
            "--board",
            str(board),
            "--record",
            str(rec),
        ],
    )
    assert res.exit_code == 0, res.output
    old = _with_board_file(rec, tmp_path / "old.jsonl", str(board.resolve()))  # as before
    ok = CliRunner().invoke(main, ["replay", str(old), "--verify"])
    assert ok.exit_code == 0, ok.output


def test_a_branch_names_its_source_without_a_local_path(tmp_path: Path) -> None:
    src = tmp_path / "src" / "game.jsonl"
    src.parent.mkdir()
    src.write_bytes((ROOT / "examples" / "replays" / "game-2p-standard.jsonl").read_bytes())
    new = tmp_path / "out" / "branch.jsonl"
    new.parent.mkdir()
    res = CliRunner().invoke(main, ["replay", str(src), "--until", "2", "--branch", str(new)])
    assert res.exit_code == 0, res.output
    assert str(tmp_path) not in new.read_text()
    of = load_replay(new).header.branch_of
    assert of is not None and of.file == "game.jsonl" and of.until == 2


def test_recorded_names_and_paths() -> None:
    from warlords_sim.replay.paths import recorded_name, recorded_path

    assert recorded_name("/d/runs/b/x.toml", "/d/runs/g.jsonl") == "b/x.toml"
    assert recorded_name("/d/x.toml", "/d/runs/g.jsonl") == "x.toml"
    assert recorded_path("b/x.toml", "/d/runs/g.jsonl") == Path("/d/runs/b/x.toml")
    assert recorded_path("/abs/x.toml", "/d/runs/g.jsonl") == Path("/abs/x.toml")
    assert recorded_name(os.path.join("runs", "x.toml"), "runs/g.jsonl") == "x.toml"
