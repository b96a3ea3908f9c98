"""The window's looks and sounds under Xvfb (see gui_display): the castles'
crenelations drawn so a high and a low launch spot differ by shape, the
spin mark of a turning die, and impact sounds that stay silent and quiet
with no audio device, ``--mute`` and the M key."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from gui_display import display  # noqa: F401  (the session fixture)

from warlords_sim.board import Crenelation, load_board
from warlords_sim.rules import GameConfig, HouseRules

BOARD = load_board("standard")
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def pyglet_mod(display: str) -> Any:  # noqa: F811
    import pyglet

    pyglet.options["shadow_window"] = False
    pyglet.options["vsync"] = False
    return pyglet


def _controller(players: int = 2, bots: dict[int, Any] | None = None) -> Any:
    from warlords_sim.gui.controller import GameController

    config = GameConfig(BOARD, players, HouseRules())
    return GameController(config, bots or {}, bot_delay=0.0)


@pytest.fixture
def window(pyglet_mod: Any) -> Iterator[Any]:
    from warlords_sim.gui.app import PlayWindow

    w = PlayWindow(_controller(4), 1200, 830, mute=True)
    w.dispatch_events()
    yield w
    w.close()


def _pixels(w: Any, path: Path) -> Any:
    import matplotlib.image as mpimg

    img = mpimg.imread(w.save_png(path))
    return (img[::-1, :, :3] * 255.0).round().astype(int)  # row 0 at the bottom, as pyglet


def _patch(w: Any, img: Any, x0: float, y0: float, x1: float, y1: float, inset: int = 2) -> Any:
    (px0, py0), (px1, py1) = w.to_px(x0, y0), w.to_px(x1, y1)
    a, b = sorted((round(px0), round(px1)))
    c, d = sorted((round(py0), round(py1)))
    return img[c + inset : d - inset, a + inset : b - inset]


def test_high_and_low_crenelations_are_drawn_differently(window: Any, tmp_path: Path) -> None:
    """Behind a high spot the wall stands whole (a merlon), behind a low
    one a notch is cut: the wall's pixels there differ. Their markers differ
    by shape (a filled triangle, a hollow square: dark and light centres)."""
    from warlords_sim.gui.castles import crenelation_rect

    img = _pixels(window, tmp_path / "castles.png")
    for seat in range(4):
        castle = BOARD.castles[seat]
        for area in castle.front_areas:
            rects = {}
            for cren in Crenelation:
                r = crenelation_rect(BOARD, castle, area.spot(cren))
                assert r is not None
                rects[cren] = _patch(window, img, r.x0, r.y0, r.x1, r.y1).reshape(-1, 3)
            high, low = rects[Crenelation.HIGH], rects[Crenelation.LOW]
            assert high.size > 0 and low.size > 0
            diff = abs(high.mean(axis=0) - low.mean(axis=0)).max()
            assert diff > 15, (seat, area.area, high.mean(axis=0), low.mean(axis=0))
            # the notch is lighter than the merlon: it is lower
            assert low.mean() > high.mean() + 15, (seat, area.area)
            centres = {}
            for cren in Crenelation:
                s = area.spot(cren)
                px, py = window.to_px(s.x, s.y)
                centres[cren] = img[round(py), round(px)].mean()
            assert centres[Crenelation.HIGH] < 90 < 200 < centres[Crenelation.LOW], (seat, centres)


def test_a_turning_die_shows_its_spin_and_a_still_one_costs_no_redraw(window: Any) -> None:
    from warlords_sim.gui.controller import DieView
    from warlords_sim.gui.render import SPIN_SHOWN, DiceLayer

    layer = DiceLayer(BOARD)
    pose = {"die": 3, "seat": 0, "x": 10.0, "y": 20.0, "face": 5, "height": 8.0}
    assert layer.update([DieView(angle=0.0, **pose)], t=1.0)
    (sprite,) = layer._sprites.values()
    assert not sprite.marked  # one look: no spin measured yet
    assert layer.update([DieView(angle=0.5, **pose)], t=1.05)  # 10 rad/s counter-clockwise
    assert abs(sprite.spin - 10.0) < 1e-9 and sprite.marked and sprite.head.color[3] > 0
    head_ccw = sprite.head.rotation
    layer.update([DieView(angle=0.0, **pose)], t=1.10)  # -10 rad/s: the head on the other side
    assert sprite.spin < -SPIN_SHOWN and sprite.head.rotation != head_ccw
    # it stops: the mark goes, once; then nothing changes and nothing is redrawn
    assert layer.update([DieView(angle=0.0, **pose)], t=1.15)
    assert not sprite.marked and sprite.head.color[3] == sprite.tail.color[3] == 0
    assert not layer.update([DieView(angle=0.0, **pose)], t=1.20)
    assert not layer.update([DieView(angle=0.0, **pose)], t=None)
    # barely turning (below SPIN_SHOWN): no mark
    layer.update([DieView(angle=0.05, **pose)], t=1.25)
    assert not sprite.marked


def test_no_spin_mark_stays_on_a_die_once_the_flick_has_settled(pyglet_mod: Any) -> None:
    """Found in a played game: a bot's die that was still turning in the
    flick's last physics step kept its spin arc while it lay still for the
    following turns (the world's clock stops when a flick settles, so the
    spin was never measured again). Outside a flick no die shows a mark."""
    from warlords_sim.bots import make_bot
    from warlords_sim.gui.app import PlayWindow
    from warlords_sim.gui.controller import Phase

    c = _controller()
    c.fast_forward(make_bot("aim"), 1)  # one die on the board, the flick settled
    assert c.phase is not Phase.FLICKING
    w = PlayWindow(c, 1200, 830, mute=True)
    try:
        w.dispatch_events()
        w._prepare()
        (d,) = c.dice()
        t = c.world.time
        # the die as the flick's last two steps drew it: turning at 10 rad/s
        w.dice_layer.update([replace(d, angle=d.angle - 0.5)], t=t - 0.05)
        w.dice_layer.update([d], t=t)
        sprite = w.dice_layer._sprites[(d.die, False)]
        assert sprite.marked
        w._prepare()  # a frame after the flick: the die lies still
        assert not sprite.marked and sprite.head.color[3] == 0
    finally:
        w.close()


_NO_DEVICE_GAME = """
import json, sys, time, warnings
warnings.simplefilter("always")
import pyglet
pyglet.options["shadow_window"] = False
pyglet.options["vsync"] = False
from warlords_sim.board import load_board
from warlords_sim.bots import make_bot
from warlords_sim.rules import GameConfig
from warlords_sim.gui.app import PlayWindow
from warlords_sim.gui.controller import GameController, Phase

c = GameController(
    GameConfig(load_board("standard"), 2), {0: make_bot("aim"), 1: make_bot("aim")},
    seed=5, bot_delay=0.0,
)
c.speed = 4.0
w = PlayWindow(c, 900, 640)
deadline = time.monotonic() + 40.0
while c.state.flicks < 2 and time.monotonic() < deadline:
    w.frame()
    time.sleep(0.002)
while c.phase is Phase.FLICKING and time.monotonic() < deadline:
    w.frame()
w.frame()
print(json.dumps({"flicks": c.state.flicks, "heard": w.sound.heard, "muted": w.sound.muted,
                  "device": w.sound.device, "why": w.sound.why, "drawn": w.frames_drawn}))
w.close()
"""


def test_a_flick_with_sound_on_and_no_audio_device_is_silent_and_quiet(
    display: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    """A fresh process (pyglet picks its driver once) with no sound server
    to find: the window opens, bots flick with the dice knocking, and
    nothing is printed on stderr."""
    env = dict(os.environ)
    env.update(
        DISPLAY=display,
        PYTHONPATH=str(ROOT),
        XDG_RUNTIME_DIR=str(tmp_path),  # no pulse socket here
        PULSE_SERVER=f"unix:{tmp_path}/no-such-socket",
        ALSOFT_DRIVERS="pulse",  # OpenAL, if installed, may only try the missing server
        PYTHONWARNINGS="always",
    )
    env.pop("PYGLET_AUDIO", None)
    proc = subprocess.run(
        [sys.executable, "-c", _NO_DEVICE_GAME],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    # frames drawn depend on the machine's speed (the flicks run in wall time):
    # at least the window itself and one frame of each flick
    assert out["flicks"] >= 2 and out["drawn"] >= 3
    assert not out["muted"] and out["device"] is False and "no audio device" in out["why"]
    assert out["heard"] >= 2  # the knocks went through the mapping and the limit


def test_mute_flag_and_m_key(pyglet_mod: Any, tmp_path: Path, monkeypatch: Any) -> None:
    from pyglet.window import key

    from warlords_sim.bots import make_bot
    from warlords_sim.cli import main
    from warlords_sim.gui import app
    from warlords_sim.gui.app import PlayWindow

    seen: dict[str, Any] = {}
    monkeypatch.setattr(app, "run", lambda controller, **kw: seen.update(kw))
    for args, mute in (([], False), (["--mute"], True)):
        rec = tmp_path / f"game{len(args)}.jsonl"
        res = CliRunner().invoke(main, ["play", "--bots", "all", "--record", str(rec), *args])
        assert res.exit_code == 0, res.output
        assert seen["mute"] is mute

    c = _controller(2)  # two humans: nothing acts unless asked
    w = PlayWindow(c, 900, 640, mute=True)
    try:
        c.play_for(make_bot("aim"))  # P0's flick, launched
        c.finish_flick()
        w.frame()
        assert c.state.flicks == 1 and c.world.events
        assert w.sound.heard == 0 and w.sound.device is None  # muted: audio never opened
        w.on_key_press(key.M, 0)
        assert not w.sound.muted and "sound on (M)" in c.message
        w.on_key_press(key.M, 0)
        assert w.sound.muted and c.message == "sound off (M)"
    finally:
        w.close()
