"""The pyglet window: layout, the frame loop, mouse and keys.

The board is drawn in millimetres through the window's view matrix (see
:mod:`.render`), turned so that the castle of the human player to move is at
the bottom when rotation is on (:mod:`.hotseat`; the mouse is mapped back
through the same transform); the side panel, the board's labels, the turn
banner and the end screens are drawn upright in pixels (:mod:`.hud`).
Each frame (:meth:`PlayWindow.frame`, :data:`FRAME_INTERVAL` apart) feeds the
elapsed wall-clock time to the controller, whose fixed timestep accumulator
steps the physics, then brings the layers up to date and redraws only if
something they draw changed (a die moved, the aim guide, a HUD text, the
end screen) or the window was resized or exposed; otherwise the frame on
screen stays, so an idle window costs almost nothing.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyglet
from pyglet.math import Mat4
from pyglet.window import key, mouse

from warlords_sim.gui.banner import BannerLayer
from warlords_sim.gui.controller import GameController, Phase
from warlords_sim.gui.guide import aim_guide, aim_spread
from warlords_sim.gui.hotseat import HotSeat, ViewTransform
from warlords_sim.gui.hud import LOG_SCROLL_LINES, PANEL_WIDTH, Hud
from warlords_sim.gui.input import GAIN, PROMPTS, Input
from warlords_sim.gui.render import BoardLayer, DiceLayer, Overlay, ScoreMarks, seat_rgb
from warlords_sim.gui.sound import ImpactSounds
from warlords_sim.rules.flick_setup import MAX_FLICK_SPEED, flick_direction, siege_start_point
from warlords_sim.rules.game import PendingKind

__all__ = ["FRAME_INTERVAL", "SPREAD_EDGE", "SPREAD_FILL", "PlayWindow", "key_name", "run"]

#: Board margin around the board (mm) for the seat labels.
MARGIN_MM = 30.0
#: Seconds between frames: at most 60 frames a second.
FRAME_INTERVAL = 1.0 / 60.0

#: The aim guide's cone of a hand's spread: its fill and its edges (RGBA).
SPREAD_FILL = (255, 170, 40, 70)
SPREAD_EDGE = (150, 80, 10, 200)

_KEYS = {"return": "enter", "num_enter": "enter", "backspace": "d"}


def key_name(symbol: int) -> str:
    """A pyglet key symbol as the name :meth:`Input.key` takes ("1", "h", "escape")."""
    name = key.symbol_string(symbol).lower()
    if name.startswith("num_") and name[4:].isdigit():
        name = name[4:]
    name = name.lstrip("_")
    return _KEYS.get(name, name)


class PlayWindow(pyglet.window.Window):  # type: ignore[misc]
    """The game window.

    Args:
        controller: the game flow.
        width, height: initial size in pixels (resizable).
        visible: show the window (False for off-screen screenshots).
        rotate: turn the view so the human player to move has their castle
            at the bottom (None: on when two or more players are human, see
            :class:`~warlords_sim.gui.hotseat.HotSeat`); ``R`` toggles it.
        mute: start without impact sounds (M turns them on; see :mod:`.sound`).
        clock: the wall clock each frame reads to advance the game (seconds;
            default ``time.perf_counter``). A test passes its own, so that
            what a frame shows does not depend on how busy the machine is.
    """

    def __init__(
        self,
        controller: GameController,
        width: int = 1200,
        height: int = 830,
        visible: bool = True,
        *,
        rotate: bool | None = False,
        mute: bool = False,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        super().__init__(
            width, height, caption=controller.caption(), resizable=True, visible=visible
        )
        self._clock = clock
        self.set_minimum_size(640, 480)
        pyglet.gl.glClearColor(0.95, 0.94, 0.91, 1.0)
        self.c = controller
        self.input = Input(controller)
        self._shift = False  # held: the wheel sets the strike height, not the spin
        board = controller.config.board
        self.board_layer = BoardLayer(board)
        self.dice_layer = DiceLayer(board)
        self.marks = ScoreMarks(board)
        self.overlay = Overlay()
        self.hud = Hud(controller)
        self.hotseat = HotSeat(controller, rotate)
        self.hotseat.sync()
        self.banner = BannerLayer()
        #: Impact sounds from the physics events (silent without a device).
        self.sound = ImpactSounds(muted=mute)
        self.sound.skip(controller.world.events)
        if not mute:
            self.sound.open()
        self.mm_scale = 1.0
        self.origin = (0.0, 0.0)
        #: Board mm <-> window px, turned to :attr:`HotSeat.bottom`.
        self.transform = ViewTransform(1.0, (0.0, 0.0))
        self.frame_ms: list[float] = []
        #: Frames drawn and shown by :meth:`frame` (the others were skipped).
        self.frames_drawn = 0
        self._last = self._clock()
        self._labels_round = -1
        self._stale = True  # the frame on screen must be redrawn (resize, expose)
        self._screen: object = None  # what the last frame's window-sized parts showed
        self._end_screen = False
        self._layout(self.width, self.height)

    # ------------------------------------------------------------ layout

    def _layout(self, width: int, height: int) -> None:
        b = self.c.config.board
        avail = max(width - PANEL_WIDTH, 100)
        extent = b.size_mm + 2 * MARGIN_MM
        self.mm_scale = min(avail, height) / extent
        self.origin = (avail / 2.0, height / 2.0)
        self.transform = ViewTransform(self.mm_scale, self.origin, self.hotseat.bottom)
        self.hud.place_board_labels(self.to_px, self.transform.screen_side)
        self._labels_round = self.c.state.round
        self._stale = True

    def to_px(self, x: float, y: float) -> tuple[float, float]:
        """Board mm to window pixels (through the view's turn)."""
        return self.transform.to_px(x, y)

    def to_mm(self, px: float, py: float) -> tuple[float, float]:
        """Window pixels to board mm (through the view's turn)."""
        return self.transform.to_mm(px, py)

    def toggle_rotation(self) -> None:
        """``R``: turn the view to the player to move, or back to seat 0
        at the bottom (a drag in progress is dropped: it was aimed on the
        old view)."""
        self.c.message = self.hotseat.toggle()
        if self.input.drag is not None:
            self.input.drag = None
            self.c.message += ": flick cancelled"
        self._sync_view()

    def _sync_view(self) -> None:
        """Follow the game's turn; lay the board out again if the seat at
        the bottom changed."""
        self.hotseat.sync()
        if self.hotseat.bottom != self.transform.turns:
            self._layout(self.width, self.height)

    def on_resize(self, width: int, height: int) -> None:
        super().on_resize(width, height)
        self._layout(width, height)

    def on_expose(self) -> None:
        self._stale = True

    def on_show(self) -> None:
        self._stale = True

    # ------------------------------------------------------------ frames

    def update(self, _dt: float = 0.0) -> None:
        """Feed the wall-clock time since the last update to the controller."""
        now = self._clock()
        dt, self._last = now - self._last, now
        self.c.tick(dt)
        self.hotseat.tick(dt)

    def start(self, interval: float = FRAME_INTERVAL) -> None:
        """Schedule :meth:`frame` on pyglet's clock every ``interval`` s
        (then run ``pyglet.app.run(None)``: pyglet itself redraws nothing)."""
        pyglet.clock.schedule_interval(self.frame, interval)

    def stop(self) -> None:
        """Unschedule :meth:`frame`."""
        pyglet.clock.unschedule(self.frame)

    def frame(self, dt: float = 0.0) -> bool:
        """One frame of the loop: advance the game by the wall-clock time
        since the last one, then redraw and show the window only if what it
        draws changed or the window was resized or exposed. Returns whether
        it drew."""
        self.update()
        if self.context is None:  # closed by a key in the update
            return False
        self.sound.poll(self.c.world.events, time.perf_counter())
        self.switch_to()
        if not (self._prepare() or self._stale):
            return False
        self._paint()
        self.flip()
        self._stale = False
        self.frames_drawn += 1
        self.c.frame_shown()
        return True

    def on_draw(self) -> None:
        self._prepare()
        self._paint()
        self._stale = True  # drawn outside frame(): frame() shows a fresh one

    def close(self) -> None:
        self.stop()
        self.sound.close()
        super().close()

    def _prepare(self) -> bool:
        """Bring every layer up to date with the game and the input; returns
        whether anything drawn changed (the frame on screen is otherwise
        exactly what a redraw would give)."""
        c = self.c
        s = c.state
        self.input.sync()
        self._sync_view()
        if s.round != self._labels_round:
            self._layout(self.width, self.height)
        engine = c.world.siege_engine if c.phase is Phase.FLICKING else None
        side = c.round_record.side_walls if c.round_record is not None else s.side_walls
        changed = self.board_layer.update(c.config.castle_seats(), side, c.world.pins, engine)
        dice = c.dice()
        # spin marks only while the dice move: the world's clock stops when a
        # flick settles, so a spin measured in its last step would stay drawn
        moving = c.phase is Phase.FLICKING and c.frozen is None
        changed |= self.dice_layer.update(dice, c.world.time if moving else None)
        changed |= self.marks.update(dice, c.scored_dice())
        changed |= self._build_overlay()
        end = self.hud.end_screen(self.width, self.height)
        changed |= self.hud.update(
            self.width, self.height, self._prompt(), self._status(), self._speed()
        )
        self._end_screen = end is not None
        half = c.config.board.half_size_mm * self.mm_scale
        changed |= self.banner.update(
            self.hotseat.banner, (self.origin[0], self.origin[1] + 0.35 * half)
        )
        screen = (self.width, self.height, self.transform, end)
        if screen != self._screen:
            self._screen = screen
            changed = True
        return changed

    def _paint(self) -> None:
        """Draw every layer as :meth:`_prepare` left it into the back buffer."""
        t0 = time.perf_counter()
        self.clear()
        self.view = Mat4(*self.transform.matrix())
        self.board_layer.draw()
        self.marks.draw()
        self.dice_layer.draw()
        self.overlay.draw()
        self.view = Mat4()
        self.hud.draw(self._end_screen)
        self.banner.draw()
        self.frame_ms.append((time.perf_counter() - t0) * 1000.0)
        if len(self.frame_ms) > 2000:
            del self.frame_ms[:1000]

    def _prompt(self) -> str:
        c = self.c
        s = c.state
        if c.phase is Phase.FLICKING:
            return "the dice are moving..." + ("  (x4)" if c.speed > 1 else "")
        if c.phase is Phase.BOT:
            if s.pending is not None:  # a bot's or a remote player's ability
                return (
                    f"{c.player_name(s.active)} has the {s.pending.kind.title}: to use or decline"
                )
            return f"{c.player_name(s.active)} is about to flick"
        if c.phase is Phase.ROUND_OVER:
            return "round over: Space or click to continue"
        if c.phase is Phase.GAME_OVER:
            if len(s.winners) == 1:
                return f"game over: P{s.winners[0]} wins"
            return "game over: shared win " + ", ".join(f"P{w}" for w in s.winners)
        legal = c.legal()
        assert legal is not None
        if legal.pending is not None:
            return PROMPTS[legal.pending.kind]
        extra = " (S: siege engine, you have doubles)" if legal.siege_dice else ""
        if legal.supply_spots and legal.board_dice:
            return (
                "Flick: drag back from a launch spot of your castle or from one of your dice"
                + extra
            )
        if legal.supply_spots:
            return "Flick: drag back from a launch spot of your castle" + extra
        return "Flick: drag back from one of your dice" + extra

    def _status(self) -> str:
        i = self.input
        how = "rolls forward" if i.strike > 0 else "slides, tips back" if i.strike < 0 else "slides"
        lines = [
            f"spin {i.spin:+.0f} rad/s (Q/E, wheel)",
            f"strike {i.strike:+.0f} mm from the centre (W/X, shift+wheel): {how}",
        ]
        if i.spot is not None:
            lines.append(f"supply spot: area {i.spot[0]}, {i.spot[1].value} crenelation")
        if self.c.is_human_turn():
            lines.append(f"supply die set down {i.supply_face()} up (U)")
        if i.siege:
            lines.append("siege engine mode (S to leave)")
        if self.c.speed > 1:
            lines.append("fast-forward x4 (F)")
        return "\n".join(lines)

    def _speed(self) -> tuple[float, float, str] | None:
        d = self.input.drag
        if d is None:
            return None
        px, py = self.to_px(*d.pointer)
        # the pointer may be outside the window while dragging (a full pull
        # from the bottom castle goes below the board): keep the label on the
        # board, off the castle labels drawn beside its edges
        half = self.c.config.board.half_size_mm * self.mm_scale
        ox, oy = self.origin
        px = min(max(px, ox - half - 12.0), ox + half - 200.0)  # text up to 180 px
        py = min(max(py, oy - half - 4.0), oy + half - 30.0)  # the label hangs below py + 26
        capped = " (max)" if d.pull_mm * GAIN >= MAX_FLICK_SPEED else ""
        return px, py, f"{d.speed:.0f} mm/s{capped}"

    def _build_overlay(self) -> bool:
        """Rebuild the overlay (highlights, ghosts, the aim arrow) if what it
        shows changed; returns whether it did."""
        c, i = self.c, self.input
        legal = c.legal() if c.phase is Phase.INPUT else None
        kind = legal.pending.kind if legal is not None and legal.pending is not None else None
        pointer = i.pointer if kind is PendingKind.SPY else None
        if pointer is not None:
            i.refresh_spy()  # the state may have changed under a still pointer
        drag = (i.drag.kind, i.drag.origin, i.drag.pointer, i.drag.die) if i.drag else None
        key_ = (
            c.phase,
            c.state.active,
            legal,
            i.spot,
            drag,
            i.siege,
            i.ring_from,
            pointer,
            i.spy_ok,
            i.guide,
        )
        ov = self.overlay
        if not ov.rebuild(key_):
            return False
        if legal is None:
            return True
        b = c.config.board
        size = b.die.size_mm
        colour = seat_rgb(c.state.seat_of(legal.player))
        views = {d.die: d for d in c.dice()}
        if kind is None or kind in (PendingKind.SCOUT, PendingKind.GENERAL):
            dice = legal.siege_dice if i.siege else legal.board_dice
            for die in dice:
                if die in views:
                    ov.ring(views[die].x, views[die].y, size * 0.85, (255, 255, 255, 200), 1.5)
            if (
                i.spot is not None
                and legal.supply_spots
                and (i.drag is None or i.drag.kind == "supply")
            ):
                ls = b.launch_spot(legal.seat, *i.spot)
                ov.ring(ls.x, ls.y, size * 0.9, (255, 255, 255, 230), 2.0)
                ov.square(ls.x, ls.y, size, 0.0, (*colour, 150))
        if kind is PendingKind.SPY and pointer is not None and legal.spy_die in views:
            ang = views[legal.spy_die].angle
            ov.square(*pointer, size, ang, (40, 190, 60, 170) if i.spy_ok else (220, 40, 40, 170))
        if kind is PendingKind.SAPPER:
            for h in legal.pins:
                ov.ring(*b.holes[h], b.pin.radius_mm + 3.0, (220, 40, 40, 230), 1.5)
        if kind is PendingKind.RING:
            if i.ring_from is None:
                for h in legal.ring_pins:
                    ov.ring(*b.holes[h], b.pin.radius_mm + 3.0, (240, 200, 0, 255), 1.8)
            else:
                ov.ring(*b.holes[i.ring_from], b.pin.radius_mm + 3.5, (240, 200, 0, 255), 2.5)
                for h in legal.open_holes:
                    ov.disc(*b.holes[h], b.pin.radius_mm * 0.8, (40, 190, 60, 200))
        if i.drag is not None:
            d = i.drag
            vx, vy = d.velocity()
            ox, oy = d.origin
            if d.kind == "siege" and d.die is not None and math.hypot(vx, vy) > 0:
                pose = c.state.dice[d.die].pose
                if pose is not None:
                    ex, ey = c.world.free_spot_near(
                        pose.x, pose.y, b.siege_engine.width_mm, exclude_die=d.die
                    )
                    ov.engine(b, (ex, ey))
                    ox, oy = siege_start_point(b, (ex, ey), flick_direction((vx, vy)))
                    ov.square(ox, oy, size, 0.0, (*colour, 170))
            if i.guide and math.hypot(vx, vy) > 0:
                self._draw_guide((ox, oy), (vx, vy), d.die)
            frac = min(math.hypot(vx, vy) / MAX_FLICK_SPEED, 1.0)
            col = (int(60 + 190 * frac), int(170 - 130 * frac), 40, 235)
            ov.arrow(ox, oy, ox + vx / GAIN, oy + vy / GAIN, col, 2.5)
            ov.arrow(d.pointer[0], d.pointer[1], d.press[0], d.press[1], (80, 80, 80, 90), 1.0)
        return True

    def _draw_guide(
        self, start: tuple[float, float], aim: tuple[float, float], flicked: int | None
    ) -> None:
        """The aim guide (see :mod:`.guide`): a dashed line from the die
        along the aim to where it first touches something, and a ghost of
        the die there; with a hand (``play --hand``), the cone of its
        direction spread (two sd either side, :func:`~.guide.aim_spread`)
        filled under it, edged with fine dashes."""
        c = self.c
        side = c.round_record.side_walls if c.round_record is not None else c.state.side_walls
        dice = [(v.x, v.y, v.angle) for v in c.dice() if v.die != flicked]
        b = c.config.board
        seats = c.config.castle_seats()
        hand = c.hand_of(c.state.active)
        if hand is not None:  # the cone where the hand may send the die (guide.aim_spread)
            edges = aim_spread(b, seats, side, c.world.pins, dice, start, aim, hand.angle_sd)
            if edges:
                self.overlay.fan(start[0], start[1], [(e.x, e.y) for e in edges], SPREAD_FILL)
                for e in (edges[0], edges[-1]):
                    self.overlay.dashed(start[0], start[1], e.x, e.y, SPREAD_EDGE, 1.0, 3.0)
        hit = aim_guide(b, seats, side, c.world.pins, dice, start, aim)
        ink = (45, 35, 25, 210)
        self.overlay.dashed(start[0], start[1], hit.x, hit.y, ink, 1.4)
        self.overlay.square(hit.x, hit.y, b.die.size_mm, 0.0, (255, 255, 255, 90))
        self.overlay.ring(hit.x, hit.y, b.die.size_mm / 2.0, ink, 1.4)

    # ------------------------------------------------------------ input

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        if button == mouse.LEFT:
            self.input.press(*self.to_mm(x, y))
        elif button == mouse.RIGHT:
            self.input.cancel()

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int, modifiers: int) -> None:
        self.input.drag_to(*self.to_mm(x, y))

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        if button == mouse.LEFT:
            self.input.release(*self.to_mm(x, y))  # inside the window or not

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.input.move(*self.to_mm(x, y))

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        if self.scroll_panel(x, scroll_y):
            return
        self.input.scroll(scroll_y, strike=self._shift)

    def scroll_panel(self, x: float, notches: float) -> bool:
        """The wheel over the side panel scrolls the log (up: older lines);
        returns whether the pointer was over the panel."""
        if x < self.width - PANEL_WIDTH:
            return False
        self.hud.scroll_log(round(notches * LOG_SCROLL_LINES))
        return True

    def log_key(self, name: str) -> bool:
        """PgUp, PgDn and End scroll the log; returns whether ``name`` was one."""
        if name == "pageup":
            self.hud.page_log(1)
        elif name == "pagedown":
            self.hud.page_log(-1)
        elif name == "end":
            self.hud.log_to_newest()
        else:
            return False
        return True

    def on_key_release(self, symbol: int, modifiers: int) -> Any:
        if symbol in (key.LSHIFT, key.RSHIFT):
            self._shift = False

    def on_key_press(self, symbol: int, modifiers: int) -> Any:
        if symbol in (key.LSHIFT, key.RSHIFT):
            self._shift = True
            return None
        name = key_name(symbol)
        if name == "escape" and self.c.phase is Phase.GAME_OVER:
            self.close()
        elif name == "r":
            self.toggle_rotation()
        elif name == "m":
            self.toggle_sound()
        elif not self.log_key(name):
            self.input.key(name)
        return pyglet.event.EVENT_HANDLED

    def toggle_sound(self) -> None:
        """M: impact sounds off or on, said in the panel."""
        muted = self.sound.toggle()
        text = "sound off (M)" if muted else "sound on (M)"
        if not muted and not self.sound.device:
            text += ": " + (self.sound.why or "no audio device")
        self.c.message = text

    # ------------------------------------------------------------ output

    def draw_frame(self) -> None:
        """Draw one frame into the back buffer (without showing it)."""
        self.switch_to()
        self.dispatch_events()
        self.on_draw()

    def save_png(self, path: str | Path) -> Path:
        """Draw a frame and save it as a PNG."""
        self.draw_frame()
        out = Path(path)
        buf = pyglet.image.get_buffer_manager().get_color_buffer()
        buf.get_image_data().save(str(out))  # type: ignore[no-untyped-call]
        return out


def run(
    controller: GameController,
    *,
    width: int = 1200,
    height: int = 830,
    guide: bool = True,
    rotate: bool | None = None,
    mute: bool = False,
) -> None:
    """Open the window and play until it is closed; ``guide`` False starts
    with the aim guide off (G turns it on); ``rotate`` turns the view to the
    human player to move (None: when two or more players are human; R
    toggles it); ``mute`` starts without impact sounds (M turns them on)."""
    window = PlayWindow(controller, width, height, rotate=rotate, mute=mute)
    window.input.guide = guide
    window.start()
    pyglet.app.run(None)


def screenshot_game(
    config: Any,
    bots: dict[int, Any],
    seed: int,
    path: Path,
    *,
    flicks: int = 9,
    rotate: bool | None = None,
    hands: dict[int, Any] | None = None,
) -> Path:
    """Play ``flicks`` flicks at once (each bot plays its own seats with its
    own generator; an aim bot stands in for the humans), then draw the game
    in progress (a human's slingshot drag, or a bot's flick in the air) and
    save it as a PNG; ``rotate`` as for :func:`run` (in hot-seat the turn
    banner shows, as it does when the turn has just passed); ``hands`` the
    human players' hands as ``play --hand`` gives them (the panel and the
    aim guide's cone show them; default exact)."""
    from warlords_sim.board import Crenelation
    from warlords_sim.bots import make_bot

    controller = GameController(config, bots, seed=seed, bot_delay=0.0, hands=hands)
    stand_in = make_bot("aim")

    class _EachSeat:
        """The seat's own bot, or the stand-in for a human's seat."""

        name = "each seat's bot"

        def choose(self, state: Any, legal: Any, rng: Any) -> Any:
            return bots.get(state.active, stand_in).choose(state, legal, rng)

    each = _EachSeat()
    controller.fast_forward(each, flicks)
    for _ in range(12):  # on to a human's flick, if any human plays
        legal = controller.legal()
        if controller.game.over or controller.phase is Phase.INPUT and legal and not legal.pending:
            break
        controller.fast_forward(each, controller.state.flicks + 1)
    window = PlayWindow(controller, visible=True, rotate=rotate, mute=True)
    try:
        c = controller
        legal = c.legal()
        if (
            c.phase is Phase.INPUT
            and legal is not None
            and legal.pending is None
            and legal.supply_spots
        ):
            inp = window.input
            inp.key("2")
            inp.key("h")
            ls = config.board.launch_spot(legal.seat, 2, Crenelation.HIGH)
            ox, oy = config.board.castles[legal.seat].outward
            inp.press(ls.x, ls.y)
            inp.drag_to(ls.x - ox * 57.0 + oy * 15.0, ls.y - oy * 57.0 - ox * 15.0)
        elif c.phase is Phase.BOT:
            c.tick(10.0)  # the bot acts at once
            for _ in range(40):  # up to 40 steps of 1/240 s: a launched die is in the air
                if c.launch is None or c.step_flick():
                    break
        return window.save_png(path)
    finally:
        window.close()
