"""One rule for every file a command writes (issue 12, fault 4): an existing
file is never replaced without ``--force`` (one line, exit 2, nothing lost);
with ``--force`` it is; a write that fails or meets a file that appeared
meanwhile leaves the old file as it was; ``play`` records by default into the
user's data directory, never the current one, and says where.

What broke: ``flick --plot`` and ``play --screenshot`` overwrote tracked
files of the repository (the README's examples wrote into docs/) while
``render`` refused, and ``play`` wrote its recording into the current
directory.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from pathlib import Path

import click
import platformdirs
import pytest
from click.testing import CliRunner
from gui_display import display  # noqa: F401  (the session fixture)

from warlords_sim.cli import main
from warlords_sim.cli._outputs import DATA_ENV, check_output, data_dir, saving
from warlords_sim.cli.play_cmd import recording_path

ROOT = Path(__file__).resolve().parents[1]
GAME_2P = ROOT / "examples" / "replays" / "game-2p-standard.jsonl"
PNG = b"\x89PNG\r\n\x1a\n"
JSONL = b'{"'


@dataclass(frozen=True)
class Writer:
    """A command and the file (or, for a folder, the file in it) it writes."""

    name: str
    args: tuple[str, ...]  # "{out}" stands for the output path
    target: str  # the file that exists beforehand (relative to tmp_path)
    out: str  # what "{out}" becomes (relative to tmp_path)
    magic: bytes  # how the written file starts
    forced_write: bool = True  # False: writing needs a window; only the refusal is tested here


WRITERS = [
    Writer("board --png", ("board", "--png", "{out}"), "b.png", "b.png", PNG),
    Writer(
        "flick --plot",
        ("flick", "--at", "0,-120", "--velocity", "300,0", "--plot", "{out}"),
        "f.png",
        "f.png",
        PNG,
    ),
    Writer(
        "flick --record",
        ("flick", "--at", "0,-120", "--velocity", "300,0", "--record", "{out}"),
        "f.jsonl",
        "f.jsonl",
        JSONL,
    ),
    Writer(
        "simulate --record",
        ("simulate", "--bots", "random", "--seed", "1", "--record", "{out}"),
        "s.jsonl",
        "s.jsonl",
        JSONL,
    ),
    Writer(
        "replay --branch",
        ("replay", str(GAME_2P), "--until", "2", "--branch", "{out}"),
        "r.jsonl",
        "r.jsonl",
        JSONL,
    ),
    Writer(
        "render --out",
        ("render", str(GAME_2P), "--to", "1", "--size", "160", "--out", "{out}"),
        "end.png",
        "end.png",
        PNG,
    ),
    Writer(
        "variants --out",
        (
            "variants",
            "--players",
            "2",
            "--games",
            "1",
            "--variants",
            "standard",
            "--workers",
            "1",
            "--out",
            "{out}",
        ),  # fmt: skip
        "lab/summary.json",
        "lab",
        b"{",
    ),
    Writer(
        "fidelity --plot",
        (
            "fidelity",
            "--engines",
            "2.5d,2.5d",
            "--trials",
            "1",
            "--scenarios",
            "slide-pin-300",
            "--plot",
            "{out}",
        ),  # fmt: skip
        "fid/slide-pin-300.png",
        "fid",
        PNG,
    ),
    Writer(
        "play --screenshot",
        ("play", "--screenshot", "{out}"),
        "shot.png",
        "shot.png",
        PNG,
        forced_write=False,
    ),
    Writer(
        "play --record",
        ("play", "--record", "{out}"),
        "game.jsonl",
        "game.jsonl",
        JSONL,
        forced_write=False,
    ),
]


def _invoke(w: Writer, tmp_path: Path, *extra: str) -> tuple[int, str, str]:
    out = str(tmp_path / w.out)
    args = [a.replace("{out}", out) for a in w.args]
    res = CliRunner().invoke(main, [*args, *extra])
    return res.exit_code, res.stdout, res.stderr


def _existing(w: Writer, tmp_path: Path) -> Path:
    target = tmp_path / w.target
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(b"keep")
    return target


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.mark.parametrize("w", WRITERS, ids=[w.name for w in WRITERS])
def test_an_existing_file_is_refused_without_force(w: Writer, tmp_path: Path) -> None:
    target = _existing(w, tmp_path)
    before = _files(tmp_path)
    code, out, err = _invoke(w, tmp_path)
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("warlords-sim: error: "), err
    assert "--force" in lines[0] and "another path" in lines[0], lines[0]
    assert w.args[-2] in lines[0]  # names the option
    assert target.read_bytes() == b"keep"
    assert _files(tmp_path) == before  # nothing else written either


@pytest.mark.parametrize(
    "w", [w for w in WRITERS if w.forced_write], ids=[w.name for w in WRITERS if w.forced_write]
)
def test_force_replaces_the_file(w: Writer, tmp_path: Path) -> None:
    target = _existing(w, tmp_path)
    code, out, err = _invoke(w, tmp_path, "--force")
    assert code == 0, (out, err)
    assert target.read_bytes().startswith(w.magic)
    leftovers = [p for p in _files(tmp_path) if ".partial" in p]
    assert leftovers == []


def test_play_screenshot_with_force_replaces_the_file(
    display: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    target = tmp_path / "shot.png"
    target.write_bytes(b"keep")
    args = ["play", "--bots", "all", "--screenshot", str(target), "--force"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    assert target.read_bytes().startswith(PNG)
    assert _files(tmp_path) == ["shot.png"]


# ------------------------------------------------------------ the helper


def test_a_file_that_appears_during_the_write_is_kept(tmp_path: Path) -> None:
    target = check_output(tmp_path / "x.png", "--plot", force=False)
    with (
        pytest.raises(click.exceptions.Exit) as e,
        saving(target, "--plot", force=False) as tmp,
    ):
        tmp.write_bytes(b"new")
        target.write_bytes(b"someone else's")  # appears while the command runs
    assert e.value.exit_code == 2
    assert target.read_bytes() == b"someone else's"
    assert _files(tmp_path) == ["x.png"]


def test_a_failed_write_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "x.png"
    target.write_bytes(b"keep")
    with pytest.raises(RuntimeError), saving(target, "--plot", force=True) as tmp:
        tmp.write_bytes(b"half")
        raise RuntimeError("the writer failed")
    assert target.read_bytes() == b"keep"
    assert _files(tmp_path) == ["x.png"]


def test_suffix_and_folder_checks_are_one_line(tmp_path: Path) -> None:
    for path, want in (
        (tmp_path / "x.jpg", "expected a .png file name"),
        (tmp_path / "no" / "x.png", "no such directory"),
        (tmp_path, "is a directory"),
    ):
        res = CliRunner().invoke(main, ["flick", "--at", "0,0", "--velocity", "1,0", "--plot",
                                        str(path)])  # fmt: skip
        assert res.exit_code == 2 and want in res.stderr, res.stderr
        assert len(res.stderr.strip().splitlines()) == 1


# ------------------------------------------------------------ play's recordings


def test_play_records_by_default_under_the_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    first = recording_path(None)
    assert first.parent == tmp_path / "data" / "recordings" and first.parent.is_dir()
    assert first.name.startswith("warlords-") and first.suffix == ".jsonl"
    dt.datetime.strptime(first.stem.removeprefix("warlords-")[:15], "%Y%m%d-%H%M%S")
    # a name taken (two games in the same second) gets a new one, never reused
    first.write_text("{}\n")
    assert recording_path(None) not in (first, tmp_path / first.name)
    assert recording_path("mine.jsonl") == Path("mine.jsonl")  # --record as given
    assert _files(tmp_path) == ["data", "data/recordings", f"data/recordings/{first.name}"]


def test_the_data_dir_is_platformdirs_without_the_override(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(DATA_ENV, raising=False)
    assert data_dir() == Path(platformdirs.user_data_dir("warlords-sim"))
    monkeypatch.setenv(DATA_ENV, "/somewhere")
    assert data_dir() == Path("/somewhere")


def test_play_says_where_it_records(
    display: str,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from warlords_sim.gui import app

    monkeypatch.setenv(DATA_ENV, str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(app, "run", lambda controller, **_: None)
    res = CliRunner().invoke(main, ["play", "--bots", "1"])
    assert res.exit_code == 0, res.output
    recorded = list((tmp_path / "data" / "recordings").glob("warlords-*.jsonl"))
    assert len(recorded) == 1
    assert f"recording the game to {recorded[0]}" in res.stdout.splitlines()[0]
    assert sorted(os.listdir(tmp_path)) == ["data"]  # nothing in the current directory


def test_written_files_get_the_usual_mode(tmp_path: Path) -> None:
    """Found by a new user: images and videos were written 0600 (mkstemp's
    private mode) while recordings got 0644. A file written through the
    helper gets 0666 less the umask, as any new file does."""
    from warlords_sim.cli._outputs import saving

    umask = os.umask(0o022)
    try:
        with saving(tmp_path / "x.png", "--out", False) as tmp:
            tmp.write_bytes(b"png")
    finally:
        os.umask(umask)
    assert ((tmp_path / "x.png").stat().st_mode & 0o777) == 0o644
