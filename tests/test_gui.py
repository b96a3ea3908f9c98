"""The window, tested as a person would use it, under Xvfb (see gui_display).

The board is drawn (the castles' colours checked in a screenshot), a
synthetic drag on a supply die flicks it, a real X pointer driven by xdotool
flicks one, cancelling works, every ability prompt is reachable and usable,
and a bot's flick animates frame by frame."""

from __future__ import annotations

import math
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from gui_display import display, x_sync  # noqa: F401  (the session fixture)

from warlords_sim.board import Crenelation, load_board
from warlords_sim.bots import make_bot
from warlords_sim.plotting import SEAT_COLOURS
from warlords_sim.rules import GameConfig, HouseRules, Location, Pending, PendingKind
from warlords_sim.rules.legal import open_holes
from warlords_sim.rules.scoring import winners_text

BOARD = load_board("standard")
LEFT, RIGHT = 1, 4  # pyglet.window.mouse.LEFT, RIGHT


@pytest.fixture(scope="module")
def pyglet_mod(display: str) -> Any:  # noqa: F811
    import pyglet

    pyglet.options["shadow_window"] = False
    pyglet.options["vsync"] = False
    return pyglet


def _controller(players: int = 2, bots: dict[int, Any] | None = None, **kw: Any) -> Any:
    from warlords_sim.gui.controller import GameController

    config = GameConfig(BOARD, players, HouseRules())
    return GameController(config, bots or {}, bot_delay=0.0, **kw)


@pytest.fixture
def window(pyglet_mod: Any) -> Iterator[Any]:
    from warlords_sim.gui.app import PlayWindow

    w = PlayWindow(_controller(4), 1100, 800)
    w.dispatch_events()
    yield w
    w.close()


def _px(w: Any, x: float, y: float) -> tuple[int, int]:
    px, py = w.to_px(x, y)
    return round(px), round(py)


def _settle(w: Any) -> None:
    w.c.finish_flick()
    w.draw_frame()


def _colour_at(img: Any, w: Any, x: float, y: float) -> tuple[int, int, int]:
    px, py = _px(w, x, y)
    r, g, b = (int(round(v * 255)) for v in img[w.height - 1 - py, px][:3])
    return r, g, b


def test_window_draws_the_board_with_castles_in_seat_colours(window: Any, tmp_path: Path) -> None:
    import matplotlib.image as mpimg

    path = window.save_png(tmp_path / "board.png")
    img = mpimg.imread(path)
    for seat in range(4):
        cx, cy = BOARD.castles[seat].courtyard.center
        want = tuple(int(SEAT_COLOURS[seat][i : i + 2], 16) for i in (1, 3, 5))
        got = _colour_at(img, window, cx, cy)
        assert max(abs(a - b) for a, b in zip(got, want, strict=True)) <= 3, (seat, got, want)
    # a moat is drawn blue, the board surface light wood
    mx, my = BOARD.castles[0].moat.center
    r, g, b = _colour_at(img, window, mx, my - 6.0)
    assert b > r
    assert _colour_at(img, window, 150.0, 40.0)[0] > 200


def test_resize_keeps_the_board_square_and_to_scale(window: Any) -> None:
    window.set_size(900, 560)
    window.dispatch_events()
    window.on_resize(900, 560)
    (x0, y0), (x1, y1) = window.to_px(-300, -300), window.to_px(300, 300)
    assert math.isclose(x1 - x0, y1 - y0) and y1 - y0 <= 560
    mx, my = window.to_mm(*window.to_px(12.5, -40.0))
    assert math.isclose(mx, 12.5) and math.isclose(my, -40.0)


def _drag(w: Any, start: tuple[float, float], pull: tuple[float, float]) -> None:
    """Press at ``start`` (mm), drag by ``pull`` (mm) in three moves, release."""
    sx, sy = _px(w, *start)
    w.on_mouse_press(sx, sy, LEFT, 0)
    for k in (1, 2, 3):
        ex, ey = _px(w, start[0] + pull[0] * k / 3, start[1] + pull[1] * k / 3)
        w.on_mouse_drag(ex, ey, 0, 0, LEFT, 0)
    w.on_mouse_release(ex, ey, LEFT, 0)


def test_synthetic_drag_on_a_supply_die_flicks_it(window: Any) -> None:
    c = window.c
    spot = BOARD.launch_spot(0, 2, Crenelation.HIGH)
    from warlords_sim.gui.input import GAIN

    _drag(window, (spot.x, spot.y), (0.0, -60.0))  # pull back 60 mm: 60 GAIN up the board
    assert c.phase.value == "flicking" and c.launch is not None
    vx, vy = c.launch.action.velocity
    assert abs(vx) < 1e-6 and math.isclose(vy, 60.0 * GAIN, rel_tol=0.05)
    window.draw_frame()
    _settle(window)
    assert c.state.flicks == 1 and len(c.state.supply(0)) == 5
    assert c.log and "P0 flicked red die 1" in "\n".join(c.log)


def test_speed_label_stays_on_the_board_off_the_castle_labels(window: Any) -> None:
    """Found in a played game: a full pull from the bottom castle takes the
    pointer below the board, and the speed label ("2000 mm/s (max)") was
    drawn over the bottom castle's label, both unreadable. The label stays
    on the board, wherever the pointer goes; the castle labels are outside it."""
    (bx0, by0), (bx1, by1) = window.to_px(-300, -300), window.to_px(300, 300)
    for lb in window.hud.castle_labels.values():  # the castle labels lie outside the board
        assert not (bx0 < lb.x < bx1 and by0 < lb.y < by1), (lb.text, lb.x, lb.y)
    spot = BOARD.launch_spot(0, 2, Crenelation.HIGH)
    sx, sy = _px(window, spot.x, spot.y)
    for dx, dy in ((0, -900), (-900, -900), (900, -900), (-900, 0), (900, 0), (0, 900)):
        window.on_mouse_press(sx, sy, LEFT, 0)
        window.on_mouse_drag(sx + dx, sy + dy, 0, 0, LEFT, 0)
        window.draw_frame()
        lb = window.hud.speed.label
        assert lb.visible and lb.text.endswith("mm/s (max)")
        left, top = lb.x, lb.y  # anchored at its top left corner
        right, bottom = left + lb.content_width, top - lb.content_height
        assert bx0 <= left and right <= bx1 and by0 <= bottom and top <= by1, (dx, dy)
        window.on_key_press(0xFF1B, 0)  # Escape: nothing is flicked
        window.on_mouse_release(sx + dx, sy + dy, LEFT, 0)
    assert window.c.state.flicks == 0


def test_speed_is_capped_and_cancels_flick_nothing(window: Any) -> None:
    c, inp = window.c, window.input
    spot = BOARD.launch_spot(0, 1, Crenelation.LOW)
    sx, sy = _px(window, spot.x, spot.y)
    window.on_mouse_press(sx, sy, LEFT, 0)
    window.on_mouse_drag(sx, sy - 700, 0, 0, LEFT, 0)
    assert inp.drag is not None and math.isclose(inp.drag.speed, 2000.0)
    window.draw_frame()
    assert window.hud.speed.label.text == "2000 mm/s (max)"
    window.on_key_press(0xFF1B, 0)  # Escape
    window.on_mouse_release(sx, sy - 700, LEFT, 0)
    assert c.state.flicks == 0 and c.phase.value == "input" and "cancel" in c.message
    window.on_mouse_press(sx, sy, LEFT, 0)
    window.on_mouse_drag(sx, sy - 100, 0, 0, LEFT, 0)
    window.on_mouse_press(sx, sy - 100, RIGHT, 0)  # the right button cancels too
    window.on_mouse_release(sx, sy - 100, LEFT, 0)
    assert c.phase.value == "input" and "cancel" in c.message


def test_illegal_choices_are_refused_with_a_message(window: Any) -> None:
    c = window.c
    other = BOARD.launch_spot(2, 2, Crenelation.HIGH)  # P2's castle
    _drag(window, (other.x, other.y), (0.0, 50.0))
    assert c.state.flicks == 0 and "another castle" in c.message
    window.input.key("d")
    assert "nothing to decline" in c.message
    window.input.key("s")
    assert "doubles" in c.message


def _place(c: Any, die: int, x: float, y: float, face: int) -> None:
    c.world.add_die(die, x, y, face)
    d = c.state.dice[die]
    d.location = Location.BOARD
    d.pose = c.world.pose(die)


def _force(c: Any, kind: PendingKind, die: int) -> None:
    c.game.state.pending = Pending(kind, die)
    c._legal = None


def test_every_ability_prompt_is_reachable(window: Any) -> None:
    c, w = window.c, window
    _place(c, 0, -120.0, -60.0, 1)
    _place(c, 1, 120.0, -60.0, 1)  # doubles with die 0
    _place(c, 6, 0.0, -120.0, 2)  # player 1's die
    # a die of another player is refused with the rules' reason, the die
    # named as drawn (player 1's first die, blue), never by its internal number
    _drag(w, (0.0, -120.0), (0.0, -40.0))
    assert c.message.startswith("blue die 1 belongs to P1") and "die 6" not in c.message
    prompts = {}
    # Scout: flick the same die again
    _force(c, PendingKind.SCOUT, 0)
    prompts["scout"] = w._prompt()
    _drag(w, (-120.0, -60.0), (0.0, -20.0))
    assert c.launch is not None and c.launch.action.die == 0
    _settle(w)
    c.game.state.active = 0
    c.game.state.pending = None
    c._next()
    # General: a second die, not the 6 itself; D twice declines
    _force(c, PendingKind.GENERAL, 1)
    prompts["general"] = w._prompt()
    w.input.key("d")
    w.input.key("d")
    assert c.state.active != 0 and "declined" in c.log[-1]
    c.game.state.active = 0
    c._next()
    # Spy: a ghost follows the pointer, green where legal, red where not
    _force(c, PendingKind.SPY, 1)
    prompts["spy"] = w._prompt()
    w.on_mouse_motion(*_px(w, 0.0, 0.0), 0, 0)
    assert w.input.spy_ok is False  # the center ring
    w.draw_frame()
    w.on_mouse_motion(*_px(w, 140.0, 150.0), 0, 0)
    assert w.input.spy_ok is True
    w.draw_frame()
    w.on_mouse_press(*_px(w, 140.0, 150.0), LEFT, 0)
    pose = c.state.dice[1].pose
    assert abs(pose.x - 140.0) < 1.5 and abs(pose.y - 150.0) < 1.5
    c.game.state.active = 0
    c._next()
    # Sapper: click a pin
    _force(c, PendingKind.SAPPER, 0)
    prompts["sapper"] = w._prompt()
    w.draw_frame()
    pin = c.world.pins[0]
    before = len(c.world.pins)
    w.on_mouse_press(*_px(w, *BOARD.holes[pin]), LEFT, 0)
    assert len(c.world.pins) == before - 1 and pin not in c.world.pins
    c.game.state.active = 0
    c._next()
    # center ring: a ring pin, then an open hole
    _force(c, PendingKind.RING, 0)
    prompts["ring"] = w._prompt()
    ring = [h for h in c.world.pins if h in BOARD.center_ring.hole_indices][0]
    target = [h for h in open_holes(c.state) if h not in BOARD.center_ring.hole_indices][0]
    w.on_mouse_press(*_px(w, *BOARD.holes[ring]), LEFT, 0)
    w.draw_frame()
    w.on_mouse_press(*_px(w, *BOARD.holes[target]), LEFT, 0)
    assert target in c.world.pins and ring not in c.world.pins
    c.game.state.active = 0
    c._next()
    # siege engine: offered with doubles; the engine appears and the die flies from it
    _place(c, 2, -150.0, 130.0, c.state.dice[0].pose.face)
    c._legal = None
    prompts["siege"] = w._prompt()
    assert "siege" in prompts["siege"]
    w.input.key("s")
    assert w.input.siege
    _drag(w, (-150.0, 130.0), (-30.0, 0.0))
    assert c.launch is not None and type(c.launch.action).__name__ == "SiegeShot"
    assert c.world.siege_engine is not None
    w.draw_frame()
    _settle(w)
    assert c.world.siege_engine is None
    for name, word in (
        ("scout", "Scout"),
        ("general", "General"),
        ("spy", "Spy"),
        ("sapper", "Sapper"),
        ("ring", "ring"),
    ):
        assert word in prompts[name], (name, prompts[name])
        assert "D to decline" in prompts[name]


def test_bot_flicks_animate_frame_by_frame(pyglet_mod: Any) -> None:
    from warlords_sim.gui.app import PlayWindow

    c = _controller(2, {1: make_bot("random")})
    w = PlayWindow(c, 1000, 700)
    try:
        spot = BOARD.launch_spot(0, 2, Crenelation.LOW)
        _drag(w, (spot.x, spot.y), (0.0, -50.0))
        _settle(w)
        if c.phase.value == "input":  # the flick earned an ability: decline it (D twice)
            w.input.key("d")
            w.input.key("d")
        assert c.phase.value == "bot"
        c.tick(0.01)  # the bot acts
        assert c.phase.value == "flicking"
        steps = []
        for _ in range(5):
            c.tick(1 / 60)
            steps.append(c._steps)
            w.draw_frame()
        assert steps == [4, 8, 12, 16, 20]  # a fixed 1/240 s timestep, 4 a frame
    finally:
        w.close()


def test_whole_game_ends_with_the_game_over_screen(pyglet_mod: Any) -> None:
    from warlords_sim.gui.app import PlayWindow

    records: list[Any] = []

    class Rec:
        def record(self, action: Any, game: Any, outcome: Any = None) -> None:
            records.append(action)

        def finish(self, result: Any = None) -> None:
            records.append(("finish", result))

    config = GameConfig(BOARD, 2, HouseRules(rounds=1, dice_per_player=2))
    from warlords_sim.gui.controller import GameController

    c = GameController(config, {1: make_bot("aim")}, recorder=Rec(), bot_delay=0.0)
    w = PlayWindow(c, 1000, 700)
    try:
        c.fast_forward(make_bot("aim"), 10_000)
        assert c.game.over
        w.draw_frame()
        assert c.phase.value in ("round_over", "game_over")
        c.proceed()
        w.draw_frame()
        assert c.phase.value == "game_over"
        # the end screen names the winner, or the players sharing the win,
        # and the rule that decided it
        said = winners_text(c.state.totals, c.state.history[-1].scored_on_opponents)
        assert said.startswith(("Winner: ", "Shared win: "))
        assert said in " ".join(w.hud.screen_text.text.splitlines()), w.hud.screen_text.text
        assert records[-1][0] == "finish" and len(records) - 1 == len(c.actions)
    finally:
        w.close()


def test_screenshot_option_writes_a_png(display: str, tmp_path: Path) -> None:  # noqa: F811
    from warlords_sim.cli import main

    out = tmp_path / "play.png"
    res = CliRunner().invoke(main, ["play", "--bots", "1", "--seed", "2", "--screenshot", str(out)])
    assert res.exit_code == 0, res.output
    assert out.stat().st_size > 10_000


def test_the_screenshot_shows_the_hand_given(
    display: str,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``play --hand novice --screenshot`` draws the human with a novice's
    hand (panel and cone). Failed before: the screenshot's controller had
    no hands, every screenshot said "hand exact"."""
    from warlords_sim.cli import main
    from warlords_sim.gui import app

    seen: list[str] = []

    class Window(app.PlayWindow):
        def save_png(self, path: Any) -> Any:
            seen.append(self.c.hand_label(0))
            return super().save_png(path)

    monkeypatch.setattr(app, "PlayWindow", Window)
    out = tmp_path / "novice.png"
    args = ["play", "--bots", "1", "--seed", "2", "--hand", "novice", "--screenshot", str(out)]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    assert seen == ["hand novice"]


def test_the_screenshot_game_is_played_by_the_seated_bots(
    display: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    """What once broke: ``play --bot search --screenshot`` drew a game the aim
    bot had played for every seat, under a panel naming the search bot. Each
    bot now plays its own seats (an aim bot stands in for the humans)."""
    from warlords_sim.gui.app import screenshot_game

    class Spy:
        name = "spy"

        def __init__(self) -> None:
            self.aim = make_bot("aim")
            self.players: set[int] = set()

        def choose(self, state: Any, legal: Any, rng: Any) -> Any:
            self.players.add(state.active)
            return self.aim.choose(state, legal, rng)

    spy = Spy()
    config = GameConfig(load_board("standard"), players=2)
    screenshot_game(config, {1: spy}, 2, tmp_path / "shot.png")
    assert spy.players == {1}
    assert (tmp_path / "shot.png").stat().st_size > 10_000


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool not installed")
def test_real_pointer_drag_with_xdotool_flicks_a_supply_die(pyglet_mod: Any) -> None:
    from warlords_sim.gui.app import PlayWindow

    c = _controller(2)
    w = PlayWindow(c, 1000, 700)
    try:
        w.set_location(0, 0)
        x_sync(w)  # moved: its configure events handled before the pointer comes
        w.draw_frame()
        w.flip()
        x_sync(w)
        spot = BOARD.launch_spot(0, 2, Crenelation.HIGH)
        wx, wy = w.get_location()
        sx, sy = _px(w, spot.x, spot.y)
        x, y = wx + sx, wy + (w.height - sy)  # X screen coordinates run downwards

        def xdo(*args: str) -> None:
            subprocess.run(["xdotool", *args], check=True)
            x_sync(w)  # its pointer events handled

        xdo("mousemove", str(x), str(y))
        xdo("mousedown", "1")
        for k in range(1, 6):
            xdo("mousemove", str(x), str(y + 14 * k))
        xdo("mouseup", "1")
        assert c.phase.value == "flicking", c.message
        vx, vy = c.launch.action.velocity
        assert vy > 300 and abs(vx) < 0.2 * vy
        _settle(w)
        assert c.state.flicks == 1 and len(c.state.supply(0)) == 5
    finally:
        w.close()


def test_strike_height_keys_and_wheel(window: Any) -> None:
    """W/X and shift+wheel set where the finger strikes (2 mm a step, within
    the die), shown in the panel beside the spin; a flick carries it and it
    goes back to the centre after the flick."""
    inp = window.input
    for _ in range(6):
        window.on_key_press(0x77, 0)  # w
    assert inp.strike == 8.0  # capped at the die's top edge
    window.on_key_press(0x78, 0)  # x
    assert inp.strike == 6.0
    window.on_key_press(0xFFE1, 0)  # left shift held
    window.on_mouse_scroll(0, 0, 0, -2)
    window.on_key_release(0xFFE1, 0)
    assert inp.strike == 2.0 and inp.spin == 0.0
    window.on_mouse_scroll(0, 0, 0, 1)  # without shift: spin
    assert inp.spin != 0.0 and inp.strike == 2.0
    window.draw_frame()
    assert "strike +2 mm" in window.hud.status.label.text
    spot = BOARD.launch_spot(0, 2, Crenelation.HIGH)
    _drag(window, (spot.x, spot.y), (0.0, -50.0))
    c = window.c
    assert c.phase.value == "flicking" and c.launch is not None
    assert c.launch.action.strike_mm == 2.0 and inp.strike == 0.0


# ------------------------------------------------------------ redraw on change


def _sync(w: Any) -> None:
    """Wait for the X server (:func:`gui_display.x_sync`)."""
    x_sync(w)


class _Clock:
    """A wall clock the test moves by hand (``PlayWindow(clock=...)``)."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def _shown(w: Any) -> Any:
    """The window's pixels as the X server shows them (RGB, top row first)."""
    import os

    import numpy as np
    from PIL import ImageGrab

    _sync(w)  # the last frame's swap has reached the screen
    x, y = w.get_location()
    img = np.asarray(ImageGrab.grab(xdisplay=os.environ["DISPLAY"]))
    return img[y : y + w.height, x : x + w.width, :3]


def _fresh(w: Any) -> Any:
    """A full redraw of the window now, read from the back buffer (not shown)."""
    import ctypes

    import numpy as np
    from pyglet import gl

    w.switch_to()
    w.on_draw()
    buf = (ctypes.c_ubyte * (w.width * w.height * 4))()
    gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
    gl.glReadPixels(0, 0, w.width, w.height, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, buf)
    return np.frombuffer(buf, np.uint8).reshape(w.height, w.width, 4)[::-1, :, :3]


def _up_to_date(w: Any) -> bool:
    shown = _shown(w)
    fresh = _fresh(w)
    w.frame()  # the redraw above was not shown: frame() shows one (it marks the window stale)
    return bool((shown == fresh).all())


def test_idle_window_draws_nothing_and_redraws_on_every_change(pyglet_mod: Any) -> None:
    """frame() redraws only when something drawn changed, and what the X
    server shows is then exactly a fresh redraw: after a HUD key, during
    and after a flick (the settled dice, the log), after a resize and an
    expose. Pointer moves that change nothing draw nothing.

    The window runs on a clock the test moves (1/60 s a frame in flight,
    nothing otherwise) and the test waits for the X server's answers
    (:func:`_sync`), never for wall-clock time: it used to read the real
    clock, so that on a loaded machine (load 9) one frame could carry the
    whole flick to rest and the frame after ``finish_flick`` had nothing
    new to draw, and it gave a resize one second to arrive."""
    from warlords_sim.gui.app import PlayWindow

    clock = _Clock()
    w = PlayWindow(_controller(4), 1100, 800, clock=clock)
    c = w.c
    try:
        _sync(w)  # the window is mapped and exposed
        assert w.frame()  # a new window is drawn once
        assert [w.frame() for _ in range(5)] == [False] * 5
        w.on_mouse_motion(*_px(w, 40.0, 40.0), 0, 0)  # no hover effect on a plain turn
        assert not w.frame()
        w.on_key_press(0x71, 0)  # q: the spin in the panel
        assert w.frame() and not w.frame()
        assert "spin +10" in w.hud.status.label.text and _up_to_date(w)
        spot = BOARD.launch_spot(0, 2, Crenelation.HIGH)
        sx, sy = _px(w, spot.x, spot.y)
        w.on_mouse_press(sx, sy, LEFT, 0)
        w.on_mouse_drag(sx, sy - 40, 0, 0, LEFT, 0)
        assert w.frame()  # the aim arrow and the speed label
        assert _up_to_date(w)
        w.on_mouse_drag(sx, sy - 60, 0, 0, LEFT, 0)
        assert w.frame() and not w.frame()
        w.on_mouse_release(sx, sy - 60, LEFT, 0)
        assert c.phase.value == "flicking"
        drawn = []
        for _ in range(6):  # in flight: a frame drawn for every 1/60 s
            clock.t += 1 / 60
            drawn.append(w.frame())
        assert drawn == [True] * 6 and c.phase.value == "flicking" and _up_to_date(w)
        c.finish_flick()  # settles between two frames
        assert w.frame()
        # the turn passed to another human: the hot-seat banner shows until
        # its time is up (no time passes on this clock); end it
        banner = w.hotseat.banner
        assert banner.visible
        banner.tick(banner.seconds)
        assert w.frame()  # the banner taken away
        assert not w.frame()
        assert "flicked red die 1" in w.hud.log.label.text and _up_to_date(w)
        w.set_size(900, 640)
        _sync(w)  # the server's configure and expose events for the resize
        assert w.frame()
        assert _up_to_date(w)
        _sync(w)
        assert not w.frame()  # nothing more to draw after the resize
        w.on_expose()
        assert w.frame() and not w.frame()
    finally:
        w.close()


def test_bot_turn_waits_without_drawing_then_shows_the_flick(pyglet_mod: Any) -> None:
    """While a bot's delay runs nothing is redrawn; its flick is. (On the
    test's own clock, waiting for the X server's events: it read the wall
    clock and failed in a full run of the suite on a loaded machine, issue
    18, like the idle-window test above.)"""
    from warlords_sim.gui.app import PlayWindow

    c = _controller(2, {0: make_bot("random")}, seed=3)
    c.bot_delay = 0.5
    c._next()
    clock = _Clock()
    w = PlayWindow(c, 1000, 700, clock=clock)
    try:
        _sync(w)
        assert w.frame()
        assert c.phase.value == "bot"
        for _ in range(5):
            clock.t += 1 / 60
            assert not w.frame()
        clock.t += 0.5
        w.frame()
        assert c.phase.value == "flicking"
        clock.t += 1 / 60
        assert w.frame() and _up_to_date(w)
    finally:
        w.close()
