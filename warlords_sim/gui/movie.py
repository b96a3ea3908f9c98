"""Drawing a replay off-screen (``warlords-sim render``): frames for a GIF or
an MP4, or one PNG of the final state.

The board and the dice are drawn by the window's own layers
(:class:`~warlords_sim.gui.render.BoardLayer`,
:class:`~warlords_sim.gui.render.DiceLayer`, the seat labels of
:class:`~warlords_sim.gui.hud.Hud`) into an OpenGL framebuffer of an
invisible window, at twice the output size and scaled down (smooth edges).
A caption bar above the board says which action is shown and what it did,
wrapped to two lines (at the end: each player's total damage and colour).
Call :func:`prepare_offscreen` before anything imports ``pyglet.window``:
without a ``DISPLAY`` it selects pyglet's headless (EGL) mode.

The frames of actions ``first``..``last`` (see :func:`replay_frames`): one
of the state before ``first``; for each flick, one frame per ``1/fps`` s of
simulated time while it moves, the last one the settled state
(``ceil(steps * fps / 240)`` frames for a flick of ``steps`` physics steps
of 1/240 s); one frame for each other action (a choice). The settled
frame of each action is held for :data:`HOLD_S` more.
"""

from __future__ import annotations

import ctypes
import os
import sys
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from warlords_sim.colours import SEAT_COLOUR_NAMES
from warlords_sim.errors import WarlordsError

__all__ = [
    "HOLD_S",
    "SUPERSAMPLE",
    "Canvas",
    "Frame",
    "GifWriter",
    "Mp4Writer",
    "OffscreenError",
    "prepare_offscreen",
    "replay_frames",
]

#: Seconds each action's settled frame is held (on top of its 1/fps).
HOLD_S = 0.6
#: The drawing is made at this many times the output size, then scaled down.
SUPERSAMPLE = 2
#: The smallest share of the caption's type size a long caption is set in
#: (before it is cut): 0.6, three to four lines in the room of two.
_SMALLEST_TYPE = 0.6
#: Caption lines are this many type heights apart.
_LINE_SPACING = 1.3


class OffscreenError(WarlordsError, RuntimeError):
    """No OpenGL context for off-screen drawing (no display, no EGL)."""


def prepare_offscreen() -> str:
    """Choose how to draw off-screen, before ``pyglet.window`` is imported.

    Returns "x11" (a ``DISPLAY`` is set, or pyglet already has a window
    system loaded) or "headless" (pyglet's EGL mode).
    """
    import pyglet

    pyglet.options["shadow_window"] = False
    pyglet.options["vsync"] = False
    if "pyglet.window" in sys.modules:
        return "headless" if pyglet.options["headless"] else "x11"
    if os.environ.get("DISPLAY"):
        return "x11"
    pyglet.options["headless"] = True
    return "headless"


@dataclass(frozen=True)
class Frame:
    """One picture: RGB bytes, top row first, and how long it shows (s)."""

    width: int
    height: int
    rgb: bytes
    duration: float

    def image(self) -> Any:
        """As a Pillow image."""
        from PIL import Image

        return Image.frombytes("RGB", (self.width, self.height), self.rgb)


class Canvas:
    """An invisible window drawing a replay's board, dice and caption.

    Args:
        controller: the replay being played back.
        width: output width in pixels; the height is the board's (square)
            plus the caption bar.

    Raises:
        OffscreenError: no OpenGL context can be had.
    """

    def __init__(self, controller: Any, width: int) -> None:
        import pyglet
        from pyglet.image.buffer import Framebuffer
        from pyglet.math import Mat4

        from warlords_sim.gui.app import MARGIN_MM
        from warlords_sim.gui.hud import Hud
        from warlords_sim.gui.render import BoardLayer, DiceLayer, ScoreMarks

        self.c = controller
        self.out_w = width - width % 2  # even sizes (video encoders need them)
        width = self.out_w
        # the type of a bar of two lines, 30 px or 8.5 % of the width high;
        # the bar holds three such lines: the round and action, then the
        # action told over up to two lines (it used to be cut at one)
        type_px = max(30, round(width * 0.085)) * 0.30
        self.caption_h = round(type_px * (3 * _LINE_SPACING + 0.9))
        self.caption_h += self.caption_h % 2
        self.out_h = width + self.caption_h
        ss = SUPERSAMPLE
        self.w, self.h = width * ss, self.out_h * ss
        try:
            self.window = pyglet.window.Window(self.w, self.h, visible=False, caption="render")
        except Exception as e:  # noqa: BLE001 (any window-system failure means the same)
            raise OffscreenError(
                f"cannot open an off-screen OpenGL context ({type(e).__name__}: {e}); "
                "rendering needs a DISPLAY (e.g. run it under xvfb-run) or EGL "
                "(apt-get install libegl1 libgl1-mesa-dri)"
            ) from e
        self.window.switch_to()
        self.texture = pyglet.image.Texture.create(self.w, self.h)
        self.fbo = Framebuffer()
        self.fbo.attach_texture(self.texture)
        board = controller.config.board
        self.board_layer = BoardLayer(board)
        self.dice_layer = DiceLayer(board)
        self.marks = ScoreMarks(board)
        self.hud = Hud(controller)
        extent = board.size_mm + 2 * MARGIN_MM
        self.mm_scale = self.w / extent
        self.origin = (self.w / 2.0, self.w / 2.0)
        self.hud.place_board_labels(self._to_px)
        self._labels_round = controller.state.round
        self._projection = Mat4.orthogonal_projection(0, self.w, 0, self.h, -8192, 8192)
        self.caption_batch = pyglet.graphics.Batch()
        top = self.h - self.caption_h * ss
        self.bar = pyglet.shapes.Rectangle(
            0, top, self.w, self.caption_h * ss, (247, 243, 234), batch=self.caption_batch
        )
        self.rule = pyglet.shapes.Rectangle(
            0, top, self.w, ss, (170, 150, 120), batch=self.caption_batch
        )
        px = type_px * ss
        pt = px * 0.75  # points at 96 dpi
        pad = 8 * ss
        ink = (40, 34, 28, 255)
        first = self.h - px * 0.35
        self.line1 = pyglet.text.Label(
            "", x=pad, y=first, anchor_y="top", font_size=pt, weight="bold",
            color=ink, batch=self.caption_batch,
        )  # fmt: skip
        self.clock = pyglet.text.Label(
            "", x=self.w - pad, y=first, anchor_x="right", anchor_y="top",
            font_size=pt, color=ink, batch=self.caption_batch,
        )  # fmt: skip
        #: The action told, wrapped to the bar's width, two lines at most.
        self.line2 = pyglet.text.Label(
            "", x=pad, y=first - px * _LINE_SPACING, anchor_y="top", font_size=pt * 0.92,
            color=ink, batch=self.caption_batch, multiline=True, width=self.w - 2 * pad,
        )  # fmt: skip
        #: The type size of :attr:`line2` (points; smaller where a caption needs it).
        self.text_pt = pt * 0.92
        self.line2.text = "Ag\nAg"
        #: The height of two lines of :attr:`line2` (px, drawn size).
        self.text_room = float(self.line2.content_height)
        self.line2.text = ""
        #: The bottom of the caption bar (px from the drawing's bottom).
        self.bar_bottom = top

    def _to_px(self, x: float, y: float) -> tuple[float, float]:
        return self.origin[0] + x * self.mm_scale, self.origin[1] + y * self.mm_scale

    def _fit(self, label: Any, text: str, width: float) -> None:
        """Set ``text``, cut with an ellipsis to ``width`` pixels."""
        label.text = text
        while label.content_width > width and len(text) > 4:
            text = text[: max(4, int(len(text) * width / label.content_width) - 2)]
            label.text = text.rstrip() + "..."

    def _fit_lines(self, label: Any, text: str) -> None:
        """Set ``text`` wrapped to the label's width in the room of two
        lines (:attr:`text_room`): in a smaller type (down to
        :data:`_SMALLEST_TYPE` of the size, three or four lines in the room
        of two) where it does not fit whole, cut with an ellipsis only
        where that is not enough either."""
        label.text = text
        if label.font_size != self.text_pt:
            label.font_size = self.text_pt
        if label.content_height <= self.text_room:
            return
        for share in (0.85, 0.72, _SMALLEST_TYPE):
            label.font_size = self.text_pt * share
            if label.content_height <= self.text_room:
                return
        lo, hi = 0, len(text)  # text[:lo] + "..." fits, text[:hi] + "..." does not
        while hi - lo > 1:
            mid = (lo + hi) // 2
            label.text = text[:mid].rstrip() + "..."
            if label.content_height <= self.text_room:
                lo = mid
            else:
                hi = mid
        label.text = text[:lo].rstrip() + "..."

    def captions(self) -> tuple[str, str]:
        """The caption's two lines for the controller's state."""
        c = self.c
        from warlords_sim.gui.controller import Phase

        s = c.state
        rnd = min(c.shown_state().round + 1, c.config.rounds)
        head = f"Warlords  round {rnd} of {c.config.rounds}"
        if c.phase is Phase.FLICKING:
            head += f"  action {c.done + 1} of {c.total}"
        elif c.done:
            head += f"  action {c.done} of {c.total}"
        if c.phase is Phase.GAME_OVER or (c.game.over and c.phase is Phase.ROUND_OVER):
            wins = ", ".join(f"P{w}" for w in s.winners)
            # whose damage: each player with the colour of their castle in the last round
            seats = c.round_record.seats if c.round_record is not None else s.seats
            totals = ", ".join(
                f"P{p} ({SEAT_COLOUR_NAMES[seats[p]]}) {t}" for p, t in enumerate(s.totals)
            )
            win = f"win{'s' * (len(s.winners) == 1)}"
            text = f"game over: {wins} {win}; total damage taken {totals}"
            low = min(s.totals)
            tied = [p for p, t in enumerate(s.totals) if t == low]
            if len(tied) > 1:  # decided by the tie-break (RULES.md): name it
                final = s.history[-1].scored_on_opponents if s.history else [0] * len(s.totals)
                scores = ", ".join(f"P{p} {final[p]}" for p in tied)
                rule = "opponents' courtyards in the final round"
                text += (
                    f" (tie-break: most in {rule}, {scores})"
                    if len(s.winners) == 1
                    else f" (tied on the tie-break too, {rule}: {scores})"
                )
            return head, text
        # the action told from its re-simulated outcome, as the panel and the
        # log tell it (a flick ending a round: where it landed, then the end)
        text = c.headline()
        return head, text.split(": ", 1)[1] if ": " in text else text

    def draw(self, clock: str = "") -> Frame:
        """Draw the controller's state; the frame (duration 0)."""
        from pyglet import gl
        from pyglet.math import Mat4, Vec3

        from warlords_sim.gui.controller import Phase

        c = self.c
        win = self.window
        win.switch_to()
        if c.state.round != self._labels_round:
            self.hud.place_board_labels(self._to_px)
            self._labels_round = c.state.round
        self.fbo.bind()
        gl.glViewport(0, 0, self.w, self.h)
        win.projection = self._projection
        gl.glClearColor(0.95, 0.94, 0.91, 1.0)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT)
        win.view = Mat4.from_translation(
            Vec3(self.origin[0], self.origin[1], 0.0)
        ) @ Mat4.from_scale(Vec3(self.mm_scale, self.mm_scale, 1.0))
        s = c.state
        engine = c.world.siege_engine if c.phase is Phase.FLICKING else None
        side = c.round_record.side_walls if c.round_record is not None else s.side_walls
        self.board_layer.update(c.config.castle_seats(), side, c.world.pins, engine)
        self.board_layer.draw()
        dice = c.dice()
        self.marks.update(dice, c.scored_dice())
        self.marks.draw()
        self.dice_layer.update(dice)
        self.dice_layer.draw()
        win.view = Mat4()
        self.hud.update_castle_labels()
        self.hud.labels_batch.draw()
        head, text = self.captions()
        self.clock.text = clock
        self._fit(self.line1, head, self.w - self.clock.content_width - 24 * SUPERSAMPLE)
        self._fit_lines(self.line2, text)
        self.caption_batch.draw()
        buf = (ctypes.c_ubyte * (self.w * self.h * 4))()
        gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
        gl.glReadPixels(0, 0, self.w, self.h, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, buf)
        self.fbo.unbind()
        from PIL import Image

        img = Image.frombuffer("RGBA", (self.w, self.h), bytes(buf), "raw", "RGBA", 0, -1)
        img = img.convert("RGB").resize((self.out_w, self.out_h), Image.Resampling.LANCZOS)
        return Frame(self.out_w, self.out_h, img.tobytes(), 0.0)

    def close(self) -> None:
        self.fbo.delete()
        self.window.close()


def _with(frame: Frame, duration: float) -> Frame:
    return Frame(frame.width, frame.height, frame.rgb, duration)


def replay_frames(
    canvas: Canvas,
    first: int,
    last: int,
    fps: int,
    on_action: Callable[[int], None] | None = None,
) -> Iterator[Frame]:
    """The frames of actions ``first``..``last`` (1-based, inclusive) of the
    canvas's replay (see the module docstring). The controller must stand
    after action ``first - 1``; ``on_action(n)`` is called as action n settles.
    """
    from warlords_sim.gui.controller import Phase

    c = canvas.c
    dt = 1.0 / fps
    per_s = round(1.0 / c.world.timestep)  # physics steps a second (240 on the 2.5D)
    if c.phase is Phase.ROUND_OVER:
        c.proceed()
    yield _with(canvas.draw(), dt + HOLD_S)
    for n in range(first, last + 1):
        if c.phase is Phase.ROUND_OVER:
            c.proceed()
        if c.phase is not Phase.BOT or c.at_end:
            break
        c.act_now()
        if c.refused is not None:
            break
        k = 0
        while c.flicking:
            k += 1
            done = c.step_flick()
            if done or (k * fps) // per_s > ((k - 1) * fps) // per_s:
                clock = f"{k / per_s:.2f} s"
                yield _with(canvas.draw(clock), dt + (HOLD_S if done else 0.0))
        if k == 0:
            yield _with(canvas.draw(), dt + HOLD_S)
        if on_action is not None:
            on_action(n)


class GifWriter:
    """Collects frames (compressed in memory) and writes an animated GIF on
    :meth:`close`, every frame mapped to the first frame's palette."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = path
        self.frames: list[tuple[int, int, bytes, float]] = []

    def add(self, frame: Frame) -> None:
        self.frames.append((frame.width, frame.height, zlib.compress(frame.rgb, 1), frame.duration))

    def close(self) -> None:
        from PIL import Image

        def img(i: int) -> Any:
            w, h, data, _ = self.frames[i]
            return Image.frombytes("RGB", (w, h), zlib.decompress(data))

        first = img(0).quantize(colors=256, method=Image.Quantize.MEDIANCUT)
        rest = (
            img(i).quantize(palette=first, dither=Image.Dither.NONE)
            for i in range(1, len(self.frames))
        )
        first.save(
            self.path,
            format="GIF",
            save_all=True,
            append_images=rest,
            duration=[round(d * 1000) for *_, d in self.frames],
            loop=0,
        )


class Mp4Writer:
    """Streams frames to an H.264 MP4 (imageio with imageio-ffmpeg); a frame
    held longer than 1/fps is repeated."""

    def __init__(self, path: str | os.PathLike[str], fps: int) -> None:
        import imageio.v2 as iio
        import numpy as np

        self._np = np
        self.fps = fps
        self.count = 0
        self.writer = iio.get_writer(
            str(path), format="FFMPEG", mode="I", fps=fps, codec="libx264", quality=7,
            macro_block_size=2, pixelformat="yuv420p",
        )  # fmt: skip

    def add(self, frame: Frame) -> None:
        arr = self._np.frombuffer(frame.rgb, dtype=self._np.uint8).reshape(
            frame.height, frame.width, 3
        )
        for _ in range(max(1, round(frame.duration * self.fps))):
            self.writer.append_data(arr)
            self.count += 1

    def close(self) -> None:
        self.writer.close()
