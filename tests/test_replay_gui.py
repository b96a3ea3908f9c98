"""Replays and the window (issue 5): a game played in the window with
synthetic mouse input verifies headless digest for digest; watching a
replay (pause, step, speed); rendering GIF, MP4 and PNG off-screen; bad
input for render and watch; ``play --resume`` of a crashed game."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from gui_display import display  # noqa: F401  (the session fixture)

from warlords_sim.board import Crenelation, load_board
from warlords_sim.bots import make_bot
from warlords_sim.cli import main
from warlords_sim.replay import Recorder, load_replay, rebuild, to_action, verify
from warlords_sim.rules import GameConfig, HouseRules
from warlords_sim.rules.actions import Action
from warlords_sim.rules.engine import Game

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "replays"
GAME_2P = EXAMPLES / "game-2p-standard.jsonl"
#: one past the 2-player example's last action (its length changes when it is re-recorded)
PAST_2P = len(load_replay(GAME_2P).actions) + 1
BOARD = load_board("standard")
LEFT = 1  # pyglet.window.mouse.LEFT
# pyglet.window.key symbols
SPACE, RIGHT, PLUS, MINUS, KEY_D, KEY_F = 0x20, 0xFF53, 0x2B, 0x2D, 0x64, 0x66


@pytest.fixture(scope="module")
def pyglet_mod(display: str) -> Any:  # noqa: F811
    import pyglet

    pyglet.options["shadow_window"] = False
    pyglet.options["vsync"] = False
    return pyglet


def _px(w: Any, x: float, y: float) -> tuple[int, int]:
    px, py = w.to_px(x, y)
    return round(px), round(py)


def _drag(w: Any, start: tuple[float, float], pull: tuple[float, float]) -> None:
    """Press at ``start`` (mm), drag by ``pull`` (mm) in three moves, release."""
    sx, sy = _px(w, *start)
    w.on_mouse_press(sx, sy, LEFT, 0)
    for k in (1, 2, 3):
        ex, ey = _px(w, start[0] + pull[0] * k / 3, start[1] + pull[1] * k / 3)
        w.on_mouse_drag(ex, ey, 0, 0, LEFT, 0)
    w.on_mouse_release(ex, ey, LEFT, 0)


# ------------------------------------------------------------ play -> verify


def test_game_played_with_the_mouse_in_the_window_verifies_headless(
    pyglet_mod: Any, tmp_path: Path
) -> None:
    from warlords_sim.gui.app import PlayWindow
    from warlords_sim.gui.controller import GameController, Phase

    config = GameConfig(BOARD, 2, HouseRules(rounds=1, dice_per_player=2))
    path = tmp_path / "played.jsonl"
    rec = Recorder.create(path, config, seed=4, bots=["human", "aim"], skill=0.7)
    c = GameController(config, {1: make_bot("aim")}, seed=4, recorder=rec, bot_delay=0.0)
    w = PlayWindow(c, 1000, 700)
    try:
        w.on_key_press(KEY_F, 0)  # fast-forward x4: the flicks still run frame by frame
        ox, oy = BOARD.castles[0].outward
        human_flicks = 0
        for frame in range(6000):
            if c.phase is Phase.GAME_OVER:
                break
            if c.phase is Phase.INPUT:
                legal = c.legal()
                assert legal is not None
                if legal.pending is not None:
                    w.on_key_press(KEY_D, 0)  # decline the ability
                    continue
                pull = 45.0 + 15.0 * (human_flicks % 3)
                if legal.supply_spots:
                    spot = BOARD.launch_spot(0, 1 + human_flicks % 3, Crenelation.HIGH)
                    start = (spot.x, spot.y)
                else:
                    die = legal.board_dice[0]
                    pose = c.state.dice[die].pose
                    start = (pose.x, pose.y)
                _drag(w, start, (-ox * pull + 4.0, -oy * pull))
                assert c.phase is Phase.FLICKING, c.message
                human_flicks += 1
            elif c.phase is Phase.ROUND_OVER:
                w.on_key_press(SPACE, 0)
            else:
                c.tick(1 / 30)
            if frame % 10 == 0:
                w.draw_frame()
        assert c.phase is Phase.GAME_OVER and human_flicks >= 2
    finally:
        w.close()
    rep = load_replay(path)
    assert rep.result is not None and rep.header.bots == ["human", "aim"]
    report = verify(rep)
    assert report.ok and report.checked == len(rep.actions) == len(c.actions)
    assert list(rep.result.totals) == list(c.state.totals)


# ------------------------------------------------------------ watch


def test_replay_controller_plays_a_whole_game_to_its_recorded_result() -> None:
    from warlords_sim.gui.controller import Phase
    from warlords_sim.gui.playback import ReplayController

    rep = load_replay(GAME_2P)
    c = ReplayController(rep)
    c.skip_to(len(rep.actions))
    assert c.done == len(rep.actions) and c.diverged == [] and c.refused is None
    assert rep.result is not None and list(c.state.totals) == list(rep.result.totals)
    c.proceed()
    assert c.phase is Phase.GAME_OVER and not c.advance()


@pytest.fixture
def watch(pyglet_mod: Any) -> Iterator[Any]:
    from warlords_sim.gui.playback import ReplayController
    from warlords_sim.gui.watch import WatchWindow

    w = WatchWindow(ReplayController(load_replay(GAME_2P)), 1000, 700)
    w.dispatch_events()
    yield w
    w.close()


def test_watch_pauses_steps_one_action_and_changes_speed(watch: Any) -> None:
    w, c = watch, watch.c
    w.on_key_press(SPACE, 0)
    assert c.paused
    for _ in range(30):
        c.tick(0.1)
    assert c.done == 0 and c.phase.value == "bot"
    w.draw_frame()
    actions = load_replay(GAME_2P).actions
    n = len(actions)  # the example's own length (re-recorded when physics changes)
    assert w.hud.prompt.label.text == f"before action 1 of {n}"
    # Right: action 1 animates frame by frame, then playback pauses again
    w.on_key_press(RIGHT, 0)
    assert c.phase.value == "flicking" and not c.paused
    steps = []
    for _ in range(400):
        c.tick(1 / 60)
        steps.append(c._steps)
        w.draw_frame()
        if c.done == 1:
            break
    assert steps[:3] == [4, 8, 12]  # 1/240 s physics steps, 4 a frame at speed 1
    assert c.done == 1 and c.paused and c.diverged == []
    w.draw_frame()
    # told from the re-simulated outcome, as the log tells it (not the file's summary)
    assert w.hud.prompt.label.text == f"action 1 of {n}: {c.told}"
    assert c.told.startswith("P0 supply flick from area") and "red die 1 landed" in c.told
    assert "paused" in w.hud.status.label.text
    c.tick(5.0)
    assert c.done == 1
    # Right twice: the second brings action 2 to rest at once
    w.on_key_press(RIGHT, 0)
    c.tick(1 / 60)
    w.draw_frame()
    # while it moves, the prompt shows what was flicked, not yet where it rests
    moving = w.hud.prompt.label.text
    assert moving.startswith(f"action 2 of {n}: P0 flicks red die ") and "landed" not in moving
    w.on_key_press(RIGHT, 0)
    assert c.done == 2 and c.paused and c.phase.value == "bot"
    # + and - step through the speeds; Space plays on
    for _ in range(2):
        w.on_key_press(PLUS, 0)
    assert c.speed == 4.0
    w.on_key_press(MINUS, 0)
    assert c.speed == 2.0
    w.on_key_press(SPACE, 0)
    for _ in range(200):
        c.tick(1 / 30)
        if c.done >= 5:
            break
    w.draw_frame()
    assert c.done >= 5 and not c.paused and c.diverged == []
    assert "speed x2" in w.hud.status.label.text


def test_replay_command_opens_the_watch_window(
    display: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import warlords_sim.gui.watch as watch_mod

    seen: list[Any] = []
    monkeypatch.setattr(watch_mod, "run_watch", lambda c, **kw: seen.append(c))
    res = CliRunner().invoke(main, ["replay", str(GAME_2P), "--until", "3"])
    assert res.exit_code == 0, res.output
    assert "watching" in res.output and len(seen) == 1
    assert seen[0].done == 3 and seen[0].paused


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["replay", "no-such.jsonl"], "cannot read"),
        (["replay", str(EXAMPLES / "sandbox-flicks.jsonl")], "sandbox replay"),
        (["replay", str(GAME_2P), "--until", "500"], "out of range"),
        (["replay", str(GAME_2P), "--json"], "--json needs --verify"),
    ],
)
def test_watch_bad_input_is_one_line_exit_2(
    display: str,  # noqa: F811
    args: list[str],
    match: str,
) -> None:
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("warlords-sim: error: ") and match in lines[0]


# ------------------------------------------------------------ render


def _expected_frames(actions: range, fps: int) -> int:
    """1 (the board before) + per flick ceil(steps * fps / 240), 1 per choice."""
    rep = load_replay(GAME_2P)
    game: Game = rebuild(rep, actions.start - 1).game
    frames = 1
    for i in actions:
        action = to_action(rep.actions[i - 1].action)
        assert isinstance(action, Action)
        out = game.apply(action)
        frames += 1 if out.result is None else math.ceil(out.result.steps * fps / 240)
    return frames


def test_render_writes_a_gif_with_one_frame_per_fps_tick_and_a_png(
    display: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    from PIL import Image

    out = tmp_path / "game.gif"
    res = CliRunner().invoke(
        main,
        ["render", str(GAME_2P), "--out", str(out), "--from", "5", "--to", "7", "--fps", "20",
         "--size", "240"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    want = _expected_frames(range(5, 8), 20)
    assert f"{want} frames" in res.output
    with Image.open(out) as im:
        assert im.n_frames == want
        assert im.width == 240 and 240 < im.height < 290
        total = 0
        for i in range(im.n_frames):
            im.seek(i)
            total += im.info["duration"]
    assert total == want * 50 + 4 * 600  # 1/20 s a frame, 4 settled frames held 0.6 s
    png = tmp_path / "end.png"
    res = CliRunner().invoke(main, ["render", str(GAME_2P), "--out", str(png), "--size", "300"])
    assert res.exit_code == 0, res.output
    with Image.open(png) as im:
        assert im.format == "PNG" and im.width == 300
        rgb = im.convert("RGB")
        cx, cy = BOARD.castles[2].courtyard.center  # P1's courtyard, yellow, at the top
        scale = 300 / (BOARD.size_mm + 60.0)
        x, y = 150 + cx * scale, im.height - 150 - cy * scale
        r, g, b = rgb.getpixel((round(x), round(y)))  # type: ignore[misc]
        assert r > 180 and g > 120 and b < 120


def test_render_mp4(display: str, tmp_path: Path) -> None:  # noqa: F811
    out = tmp_path / "game.mp4"
    args = ["render", str(GAME_2P), "--out", str(out), "--to", "1", "--fps", "10", "--size", "200"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    assert out.read_bytes()[4:8] == b"ftyp"


def test_render_without_a_display_uses_pyglets_headless_mode(tmp_path: Path) -> None:
    out = tmp_path / "first.png"
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    code = (
        "import sys; from warlords_sim.cli import main; "
        f"sys.argv = ['warlords-sim', 'render', {str(GAME_2P)!r}, '--out', {str(out)!r}, "
        "'--to', '2', '--size', '200']; main()"
    )
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert out.stat().st_size > 2000


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["no-such.jsonl", "--out", "{tmp}/a.gif"], "cannot read"),
        ([str(GAME_2P), "--out", "{tmp}/a.jpg"], "expected a .gif, .mp4 or .png"),
        ([str(GAME_2P), "--out", "{tmp}/nodir/a.gif"], "no such directory"),
        ([str(GAME_2P), "--out", "{tmp}/exists.gif"], "pass --force"),
        ([str(GAME_2P), "--out", "{tmp}/a.gif", "--from", "0"], "--from 0 is out of range"),
        (
            [str(GAME_2P), "--out", "{tmp}/a.gif", "--to", str(PAST_2P)],
            f"--to {PAST_2P} is out of range",
        ),
        ([str(GAME_2P), "--out", "{tmp}/a.gif", "--from", "9", "--to", "3"], "range is empty"),
        ([str(GAME_2P), "--out", "{tmp}/a.gif", "--fps", "0"], "--fps"),
        ([str(GAME_2P), "--out", "{tmp}/a.gif", "--size", "50"], "--size"),
        ([str(EXAMPLES / "sandbox-flicks.jsonl"), "--out", "{tmp}/a.gif"], "sandbox replay"),
    ],
)
def test_render_bad_input_is_one_line_exit_2_and_writes_nothing(
    tmp_path: Path, args: list[str], match: str
) -> None:
    (tmp_path / "exists.gif").write_bytes(b"keep")
    before = sorted(p.name for p in tmp_path.iterdir())
    res = CliRunner().invoke(main, ["render", *(a.replace("{tmp}", str(tmp_path)) for a in args)])
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("warlords-sim: error: ") and match in lines[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert (tmp_path / "exists.gif").read_bytes() == b"keep"


# ------------------------------------------------------------ play --resume


def _drive(c: Any, **_: Any) -> None:
    """Stands for the window's frame loop: bots play the game to the end."""
    from warlords_sim.gui.controller import Phase

    for _ in range(100_000):
        if c.phase is Phase.GAME_OVER:
            return
        if c.phase is Phase.FLICKING:
            c.finish_flick()
        elif c.phase is Phase.ROUND_OVER:
            c.proceed()
        else:
            c.tick(10.0)


def test_play_resume_of_a_truncated_copy_reaches_the_same_result(
    display: str,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import warlords_sim.gui.app as app

    monkeypatch.setattr(app, "run", _drive)
    lines = GAME_2P.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "crashed.jsonl"
    cut.write_bytes(b"".join(lines[:61]) + lines[61][: len(lines[61]) // 2])  # 60 actions + half
    res = CliRunner().invoke(main, ["play", "--resume", str(cut)])
    assert res.exit_code == 0, res.output
    assert "after action 60" in res.output and "cut off" in res.output
    orig, resumed = load_replay(GAME_2P), load_replay(cut)
    assert resumed.result is not None and orig.result is not None
    assert resumed.result.totals == orig.result.totals
    assert resumed.result.winners == orig.result.winners
    assert [a.digest for a in resumed.actions] == [a.digest for a in orig.actions]
    assert verify(resumed).ok


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["--resume", str(GAME_2P)], "the game is finished"),
        (["--resume", "no-such.jsonl"], "cannot read"),
        (["--resume", str(EXAMPLES / "sandbox-flicks.jsonl")], "sandbox replay"),
        (["--resume", str(GAME_2P), "--players", "3"], "drop --players"),
    ],
)
def test_play_resume_bad_input_is_one_line_exit_2(
    display: str,  # noqa: F811
    args: list[str],
    match: str,
) -> None:
    before = GAME_2P.read_bytes()
    res = CliRunner().invoke(main, ["play", *args])
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("warlords-sim: error: ") and match in lines[0]
    assert GAME_2P.read_bytes() == before


def test_the_command_line_and_playback_load_no_pyglet() -> None:
    code = (
        "import sys, warlords_sim.cli, warlords_sim.gui.playback; "
        "assert 'pyglet' not in sys.modules, 'pyglet loaded'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_watch_without_a_display_says_to_render_instead(monkeypatch: pytest.MonkeyPatch) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("DISPLAY is an X11 matter")
    monkeypatch.delenv("DISPLAY", raising=False)
    res = CliRunner().invoke(main, ["replay", str(GAME_2P)])
    assert res.exit_code == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "no DISPLAY" in lines[0] and "warlords-sim render" in lines[0]
