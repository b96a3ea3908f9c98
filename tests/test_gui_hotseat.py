"""Hot-seat for every seat (issue 11): the view turned so the human player
to move has their castle at the bottom, the mouse mapped back through the
same transform, the turn banner, and ``play --skill``.

Before: the board was always drawn with seat 0 at the bottom, so in
hot-seat the top player dragged upward on an upside-down board; no banner
said the turn had passed; ``--skill 2`` failed with "skill must be in
[0, 1]" without naming the option, and the skill was not recorded, so a
resumed game played its bots at 0.7 whatever was asked.

The unit tests need no display; the window tests run under Xvfb
(tests/gui_display.py), the pointer driven by xdotool.
"""

from __future__ import annotations

import math
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from gui_display import display, x_sync  # noqa: F401  (the session fixture)

from warlords_sim.board import Crenelation, load_board
from warlords_sim.bots import Hand, make_bot
from warlords_sim.cli import main
from warlords_sim.cli._seats import SKILL_HELP, parse_skill
from warlords_sim.gui.controller import GameController, Phase, open_recorder
from warlords_sim.gui.hotseat import (
    BANNER_SECONDS,
    Banner,
    HotSeat,
    ViewTransform,
    default_rotate,
    seat_turns,
)
from warlords_sim.gui.input import GAIN, Drag
from warlords_sim.rules import GameConfig, HouseRules
from warlords_sim.rules.actions import Decline, SupplyFlick

BOARD = load_board("standard")
needs_xdotool = pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool not installed")

# ------------------------------------------------------------ the transform


def _transform(seat: int) -> ViewTransform:
    return ViewTransform(1.37, (412.5, 351.25), seat_turns(seat))


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_board_to_window_to_board_round_trip(seat: int) -> None:
    t = _transform(seat)
    pts = [(x, y) for x in (-300.0, -87.3, 0.0, 12.5, 299.9) for y in (-300.0, -4.1, 0.0, 250.0)]
    for x, y in pts:
        bx, by = t.to_mm(*t.to_px(x, y))
        assert math.isclose(bx, x, abs_tol=1e-9) and math.isclose(by, y, abs_tol=1e-9)
        px, py = t.to_px(*t.to_mm(x + 400.0, y + 300.0))
        assert math.isclose(px, x + 400.0, abs_tol=1e-9)
        assert math.isclose(py, y + 300.0, abs_tol=1e-9)


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_each_seats_castle_is_drawn_at_the_bottom_when_turned_to(seat: int) -> None:
    """Every castle lands on the side :meth:`screen_side` names; the
    seat turned to is straight below the board centre."""
    t = _transform(seat)
    for s in range(4):
        cx, cy = BOARD.castles[s].courtyard.center
        px, py = t.to_px(cx, cy)
        dx, dy = px - t.origin[0], py - t.origin[1]
        side = (0, 1, 2, 3)[t.screen_side(s)]
        want = ((0, -1), (-1, 0), (0, 1), (1, 0))[side]  # bottom, left, top, right
        r = math.hypot(dx, dy)
        assert math.isclose(dx / r, want[0], abs_tol=1e-9)
        assert math.isclose(dy / r, want[1], abs_tol=1e-9)
    assert t.screen_side(seat) == 0


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_drag_down_the_screen_from_the_bottom_castle_flicks_at_the_centre(seat: int) -> None:
    """The same pull on screen (60 px down, from the launch spot) gives, in
    the board frame, a flick out of the bottom castle toward the centre."""
    t = _transform(seat)
    spot = BOARD.launch_spot(seat, 2, Crenelation.HIGH)
    px, py = t.to_px(spot.x, spot.y)
    press = t.to_mm(px, py)
    drag = Drag("supply", (spot.x, spot.y), press, t.to_mm(px, py - 60.0))
    vx, vy = drag.velocity()
    assert math.isclose(math.hypot(vx, vy), 60.0 / t.scale * GAIN, rel_tol=1e-9)
    _assert_at_the_centre(seat, vx, vy)


def _assert_at_the_centre(seat: int, vx: float, vy: float) -> None:
    """(vx, vy) mm/s points from ``seat``'s castle toward the board centre:
    within 2 degrees of the line from the castle's centre to the board's."""
    cx, cy = BOARD.castles[seat].courtyard.center
    to_centre = math.atan2(-cy, -cx)
    off = abs(math.remainder(math.atan2(vy, vx) - to_centre, math.tau))
    assert off < math.radians(2.0), (seat, vx, vy)


def test_the_view_matrix_is_the_transform() -> None:
    """What pyglet draws (the view matrix) and what the mouse maps through
    (to_px / to_mm) are one map."""
    from pyglet.math import Mat4, Vec4

    for seat in range(4):
        t = _transform(seat)
        m = Mat4(*t.matrix())
        for x, y in ((0.0, 0.0), (120.0, -45.0), (-300.0, 280.0)):
            v = m @ Vec4(x, y, 0.0, 1.0)
            px, py = t.to_px(x, y)
            assert math.isclose(v.x, px, abs_tol=1e-6) and math.isclose(v.y, py, abs_tol=1e-6)


def test_bad_transforms_are_refused() -> None:
    with pytest.raises(ValueError, match="turns must be 0..3"):
        ViewTransform(1.0, (0.0, 0.0), 4)
    with pytest.raises(ValueError, match="scale must be > 0"):
        ViewTransform(0.0, (0.0, 0.0))
    with pytest.raises(ValueError, match="seat must be 0..3"):
        seat_turns(-1)


# ------------------------------------------------------------ the banner


def test_banner_shows_then_fades_out() -> None:
    b = Banner()
    assert not b.visible
    b.show("yellow's turn (P2)", 2)
    assert b.opacity == 1.0
    b.tick(0.9)
    assert b.opacity == 1.0  # fully shown for the first second
    b.tick(0.35)
    assert math.isclose(b.opacity, 0.5, abs_tol=1e-9)  # half way through the fade
    b.tick(0.25)
    assert b.opacity == 0.0 and not b.visible  # gone at BANNER_SECONDS
    assert BANNER_SECONDS == 1.5
    b.show("red's turn (P0)", 0)
    assert b.visible and b.text == "red's turn (P0)"


def _controller(players: int, bots: dict[int, Any]) -> GameController:
    config = GameConfig(BOARD, players, HouseRules())
    return GameController(config, bots, bot_delay=0.0)


def _flick_and_pass(c: GameController) -> None:
    """The active human flicks from its area 2 straight at the centre; an
    ability it earns is declined, so the turn passes."""
    seat = c.state.seat_of(c.state.active)
    ox, oy = BOARD.castles[seat].outward
    assert c.submit(SupplyFlick(2, Crenelation.HIGH, (ox * 700.0, oy * 700.0))), c.message
    c.finish_flick()
    legal = c.legal()
    if legal is not None and legal.pending is not None:
        assert c.submit(Decline()), c.message


def test_hot_seat_turns_the_view_and_shows_the_banner_for_the_next_human() -> None:
    c = _controller(2, {})
    hs = HotSeat(c)
    assert hs.rotate and hs.hot_seat
    hs.sync()
    assert hs.bottom == 0 and hs.banner.text == "red's turn (P0)"
    hs.tick(2.0)
    assert not hs.banner.visible
    _flick_and_pass(c)
    assert c.state.active == 1
    hs.sync()
    assert hs.bottom == 2  # P1's castle (seat 2, the top) is at the bottom
    assert hs.banner.visible and hs.banner.text == "yellow's turn (P1)"
    assert hs.toggle().startswith("view fixed") and hs.bottom == 0
    assert hs.toggle().startswith("view turns") and hs.bottom == 2


def test_a_bots_turn_keeps_the_last_humans_view_and_shows_no_banner() -> None:
    """Three players, P1 a bot: during its turn the view stays P0's and no
    banner shows; then P2's turn turns it to seat 2 with a banner."""
    c = _controller(3, {1: make_bot("random")})
    hs = HotSeat(c)
    hs.sync()
    hs.tick(2.0)
    _flick_and_pass(c)
    assert c.state.active == 1 and c.phase is Phase.BOT
    hs.sync()
    assert hs.bottom == 0 and not hs.banner.visible
    c.tick(1.0)  # the bot flicks
    assert c.phase is Phase.FLICKING
    hs.sync()
    assert hs.bottom == 0 and not hs.banner.visible
    c.finish_flick()
    while c.phase is Phase.BOT:  # the bot's ability, if it earned one
        c.tick(1.0)
        c.finish_flick()
    assert c.state.active == 2 and c.phase is Phase.INPUT
    hs.sync()
    assert hs.bottom == c.state.seat_of(2) == 2
    assert hs.banner.text == "yellow's turn (P2)" and hs.banner.visible


def test_rotation_defaults_on_only_with_two_or_more_humans() -> None:
    one = _controller(2, {1: make_bot("random")})
    assert not default_rotate(one)
    hs = HotSeat(one)
    hs.sync()
    assert hs.bottom == 0 and not hs.hot_seat and not hs.banner.visible  # no hot-seat
    assert default_rotate(_controller(4, {1: make_bot("random"), 3: make_bot("random")}))
    fixed = HotSeat(_controller(2, {}), rotate=False)
    fixed.human_seat = 2
    assert fixed.bottom == 0


# ------------------------------------------------------------ --skill


def test_skill_parsing() -> None:
    assert parse_skill("0") == 0.0 and parse_skill("1") == 1.0 and parse_skill(" 0.25") == 0.25
    for bad, why in (("1.5", "outside"), ("-0.1", "outside"), ("nan", "outside"), ("x", "number")):
        with pytest.raises(ValueError, match=rf"--skill: .*{why}.*\[0, 1\]"):
            parse_skill(bad)


@pytest.mark.parametrize("arg", ["2", "abc"])
def test_play_refuses_a_bad_skill_naming_the_option(arg: str) -> None:
    result = CliRunner().invoke(main, ["play", "--skill", arg, "--screenshot", "never.png"])
    assert result.exit_code == 2, result.output
    assert "--skill" in result.output and "[0, 1]" in result.output
    assert not Path("never.png").exists()


def test_play_help_gives_the_skill_range_and_the_rotation_default() -> None:
    out = CliRunner().invoke(main, ["play", "--help"], terminal_width=200).output
    assert "a number in [0, 1]" in out and "--rotate / --no-rotate" in out
    assert "on with two or more human players, off otherwise" in out
    # the figures quoted are the Hand's own
    lo, hi = Hand(0.0), Hand(1.0)
    for value in (lo.angle_sd, hi.angle_sd):
        assert f"{value:.2f} rad" in SKILL_HELP
    for value in (lo.speed_sd, hi.speed_sd):
        assert f"{value * 100:.0f} %" in SKILL_HELP


def test_the_skill_is_recorded_for_resume(tmp_path: Path) -> None:
    from warlords_sim.replay import load_replay

    config = GameConfig(BOARD, 2, HouseRules())
    rec, _ = open_recorder(tmp_path / "g.jsonl", config, 3, ("human", "aim"), skill=0.3)
    assert rec is not None
    rec.close()
    assert load_replay(tmp_path / "g.jsonl").header.skill == 0.3


# ------------------------------------------------------------ in the window


@pytest.fixture(scope="module")
def pyglet_mod(display: str) -> Any:  # noqa: F811
    import pyglet

    pyglet.options["shadow_window"] = False
    pyglet.options["vsync"] = False
    return pyglet


def _window(c: GameController, rotate: bool | None) -> Any:
    from warlords_sim.gui.app import PlayWindow

    w = PlayWindow(c, 1000, 700, rotate=rotate)
    w.set_location(0, 0)
    x_sync(w)  # moved and mapped before the pointer goes near it
    w.draw_frame()
    w.flip()
    x_sync(w)
    return w


def _xdo(w: Any) -> Callable[..., None]:
    def run(*args: str) -> None:
        subprocess.run(["xdotool", *args], check=True)
        x_sync(w)  # its pointer events handled

    return run


def _screen(w: Any, x: float, y: float) -> tuple[int, int]:
    """Board mm to X screen pixels (X runs downwards from the screen's top)."""
    wx, wy = w.get_location()
    px, py = w.to_px(x, y)
    return wx + round(px), wy + (w.height - round(py))


@needs_xdotool
def test_the_second_human_drags_as_the_first_did_and_flicks_at_the_centre(
    pyglet_mod: Any,
) -> None:
    """2 humans, rotation on: P0 (seat 0) presses its area-2 launch spot and
    pulls 90 px straight down the screen; then P1 (seat 2, the top castle)
    finds its own spot at the same place on screen, makes the same moves
    (while the banner is up: it blocks nothing) and its flick goes, in the
    board frame, from the top castle toward the board centre at the same speed."""
    c = _controller(2, {})
    w = _window(c, rotate=True)
    try:
        xdo = _xdo(w)
        flicks: list[tuple[tuple[int, int], tuple[float, float]]] = []
        for player, seat in ((0, 0), (1, 2)):
            w.draw_frame()  # the view follows the turn
            assert c.state.active == player and w.transform.turns == seat
            assert w.hotseat.banner.visible and w.banner.showing
            spot = BOARD.launch_spot(seat, 2, Crenelation.HIGH)
            x, y = _screen(w, spot.x, spot.y)
            xdo("mousemove", str(x), str(y))
            xdo("mousedown", "1")
            for k in range(1, 4):
                xdo("mousemove", str(x), str(y + 30 * k))  # down the screen
            xdo("mouseup", "1")
            assert c.phase is Phase.FLICKING, c.message
            action = c.launch.action if c.launch is not None else None
            assert isinstance(action, SupplyFlick) and action.area == 2
            flicks.append(((x, y), action.velocity))
            c.finish_flick()
            legal = c.legal()
            if legal is not None and legal.pending is not None:
                assert c.submit(Decline()), c.message
        (at0, v0), (at1, v1) = flicks
        assert abs(at0[0] - at1[0]) <= 1 and abs(at0[1] - at1[1]) <= 1  # same place on screen
        _assert_at_the_centre(0, *v0)
        _assert_at_the_centre(2, *v1)
        assert v1[1] < -500.0 and v0[1] > 500.0  # seat 2 flicks down the board, seat 0 up
        assert math.isclose(math.hypot(*v0), math.hypot(*v1), rel_tol=0.02)
    finally:
        w.close()


def test_r_turns_the_view_back_and_the_banner_goes(pyglet_mod: Any) -> None:
    """R fixes seat 0 at the bottom (and again turns to the player to
    move); the banner is drawn only while it shows; the panel names each
    bot and its skill."""
    from pyglet.window import key

    c = _controller(2, {1: make_bot("aim", 0.3)})
    c2 = _controller(2, {})
    _flick_and_pass(c2)  # P1 (seat 2) to move
    w = _window(c2, rotate=None)  # two humans: on
    try:
        assert w.transform.turns == 2 and w.banner.showing
        top = w.to_px(*BOARD.castles[0].courtyard.center)
        assert top[1] > w.origin[1]  # P0's castle is drawn at the top
        w.on_key_press(key.R, 0)
        w.draw_frame()
        assert w.transform.turns == 0 and "view fixed" in c2.message
        assert w.to_px(*BOARD.castles[0].courtyard.center)[1] < w.origin[1]
        w.on_key_press(key.R, 0)
        w.draw_frame()
        assert w.transform.turns == 2
        w.hotseat.tick(BANNER_SECONDS)
        w.draw_frame()
        assert not w.banner.showing
    finally:
        w.close()
    w = _window(c, rotate=None)
    try:
        assert not w.hotseat.rotate  # one human
        assert w.hud.bot_tags[1].label.text == "aim bot, skill 0.3"
        assert w.hud.bot_tags[0].label.text == "human, hand exact"  # no hands given
    finally:
        w.close()


def test_play_hands_rotate_to_the_window(
    display: str,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--rotate`` / ``--no-rotate`` reach the window as True / False, no
    option as None (the window's default: on with two or more humans), and
    the bots' skill reaches the recording."""
    from warlords_sim.gui import app
    from warlords_sim.replay import load_replay

    seen: list[bool | None] = []
    monkeypatch.setattr(app, "run", lambda controller, rotate=None, **_: seen.append(rotate))
    for k, extra in enumerate((["--rotate"], ["--no-rotate"], [])):
        out = tmp_path / f"game{k}.jsonl"
        args = ["play", "--bots", "1", "--skill", "0.4", "--record", str(out), *extra]
        res = CliRunner().invoke(main, args)
        assert res.exit_code == 0, res.output
        assert load_replay(out).header.skill == 0.4
    assert seen == [True, False, None]
