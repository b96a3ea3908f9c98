"""The heads-up display: a side panel in window pixels, the end screens and
the labels placed on the board (seat names, front-area numbers)."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable
from typing import Any

import pyglet
from pyglet import shapes

from warlords_sim.bots.policy import Hand
from warlords_sim.bots.random_bot import RandomBot
from warlords_sim.bots.skill import skill_label
from warlords_sim.colours import SEAT_COLOUR_NAMES, SIDE_LABEL_TURN
from warlords_sim.gui.controller import GameController, Phase
from warlords_sim.gui.render import Colour, seat_rgb, shade
from warlords_sim.rules.scoring import winners_text

__all__ = [
    "COUNTS_HEADER",
    "PANEL_WIDTH",
    "GAME_OVER_HELP",
    "PLAY_HELP",
    "SCORED_LEGEND",
    "WALL_HOLE_LEGEND",
    "Hud",
    "bot_label",
]

#: Width of the side panel (px).
PANEL_WIDTH = 330
_FONT = 11
_INK = (40, 34, 28, 255)
_RED = (180, 30, 30, 255)
#: Characters a line of the end screen holds (its 420 px text width at 13 pt).
_END_SCREEN_CHARS = 46
#: The heading of the panel's dice table: the rulebook's places of a
#: player's dice ("in play": the supply and the board) and the damage so far.
COUNTS_HEADER = "    supply in play courtyard out damage"
#: Says what the frame drawn around a die means (see render.ScoreMarks).
SCORED_LEGEND = "dice framed in white count as damage"
#: Says what the square grey holes are (see render.BoardLayer).
WALL_HOLE_LEGEND = "grey squares: three-player wall holes, never for ring pins"
PLAY_HELP = (
    "Mouse: press a die or a launch spot, drag back, release.\n"
    "1-3 area, H/L crenelation, U: face up, Q/E or wheel: spin, W/X or shift+wheel: "
    "strike high or low, S: siege engine, D D: decline, G: aim guide, R: turn the view, "
    "Esc: cancel, F: fast-forward, M: sound, Space: continue.\n"
    "Log: wheel over the panel or PgUp/PgDn scroll it, End: the newest lines."
)
#: The help once the game is over: no flick to make, the log still scrolls.
GAME_OVER_HELP = (
    "Log: wheel over the panel or PgUp/PgDn scroll it, End: the newest lines.\n"
    "Esc or close the window to quit."
)
#: Lines one wheel notch scrolls the log by.
LOG_SCROLL_LINES = 3


def bot_label(policy: object) -> str:
    """What the panel says under a bot's row: "aim bot, skill 0.7" (or
    "aim bot, skill club") for a
    bot with a hand (:class:`~warlords_sim.bots.policy.Hand`), "random bot"
    for the random bot (its flicks are random: no skill), else nothing."""
    hand = getattr(policy, "hand", None)
    if isinstance(hand, Hand):
        return f"{getattr(policy, 'name', '?')} bot, skill {skill_label(hand.skill)}"
    if isinstance(policy, RandomBot):
        return "random bot"
    return ""


def _put(obj: Any, name: str, value: Any) -> bool:
    """``obj.name = value`` unless it already is; True if it changed."""
    if getattr(obj, name) == value:
        return False
    setattr(obj, name, value)
    return True


class _Text:
    """A label whose text is only re-laid out when it changes; ``changed``
    is set when its text, place or colour changes (the window clears it)."""

    def __init__(
        self,
        batch: Any,
        size: int = _FONT,
        bold: bool = False,
        width: int | None = None,
        mono: bool = False,
    ) -> None:
        kw: dict[str, Any] = {"multiline": True, "width": width} if width else {}
        if mono:
            kw["font_name"] = ["DejaVu Sans Mono", "Courier New", "monospace"]
        self.label = pyglet.text.Label(
            "",
            font_size=size,
            weight="bold" if bold else "normal",
            color=_INK,
            batch=batch,
            anchor_y="top",
            **kw,
        )
        self.changed = True

    def set(self, text: str, x: float, y: float, colour: tuple[int, int, int, int] = _INK) -> float:
        """Show ``text`` with its top left at (x, y); returns its height (px)."""
        lb = self.label
        if lb.text != text:
            lb.text = text
            self.changed = True
        if (lb.x, lb.y) != (x, y):
            lb.position = (x, y, 0)
            self.changed = True
        if tuple(lb.color) != colour:
            lb.color = colour
            self.changed = True
        return float(lb.content_height) if text else 0.0


class Hud:
    """Everything drawn in window pixels."""

    def __init__(self, controller: GameController) -> None:
        self.c = controller
        self.batch = pyglet.graphics.Batch()
        self.panel = shapes.Rectangle(0, 0, PANEL_WIDTH, 10, (247, 243, 234), batch=self.batch)
        self.edge = shapes.Rectangle(0, 0, 2, 10, (170, 150, 120), batch=self.batch)
        w = PANEL_WIDTH - 24
        self.title = _Text(self.batch, 15, bold=True)
        self.turn = _Text(self.batch, 12, bold=True, width=w)
        self.header = _Text(self.batch, 9, mono=True)
        self.rows = [
            _Text(self.batch, 9, bold=True, mono=True) for _ in range(self.c.config.players)
        ]
        #: Under each player's row: which bot and its skill (see
        #: :func:`bot_label`), or a human's hand ("human, hand club").
        self.bot_tags = [_Text(self.batch, 9) for _ in range(self.c.config.players)]
        self.swatches = [
            shapes.Rectangle(0, 0, 12, 12, (0, 0, 0), batch=self.batch)
            for _ in range(self.c.config.players)
        ]
        self.legend = _Text(self.batch, 9, width=w)
        self.prompt = _Text(self.batch, _FONT, bold=True, width=w)
        self.message = _Text(self.batch, _FONT, width=w)
        self.status = _Text(self.batch, 10, width=w)
        self.log = _Text(self.batch, 10, width=w)
        self.help = _Text(self.batch, 9, width=w)
        self.speed = _Text(self.batch, 12, bold=True)
        self.screen_batch = pyglet.graphics.Batch()
        self.screen_bg = shapes.Rectangle(
            0, 0, 10, 10, (255, 252, 245, 235), batch=self.screen_batch
        )
        self.screen_rim = shapes.Rectangle(0, 0, 10, 10, (90, 70, 40), batch=self.screen_batch)
        self.screen_bg.group = pyglet.graphics.Group(1)
        self.screen_rim.group = pyglet.graphics.Group(0)
        self.screen_text = pyglet.text.Label(
            "",
            font_size=13,
            multiline=True,
            width=420,
            color=_INK,
            anchor_y="center",
            batch=self.screen_batch,
            group=pyglet.graphics.Group(2),
        )
        self.labels_batch = pyglet.graphics.Batch()
        self.board_labels: list[tuple[float, float, Any]] = []
        #: castle seat -> its name label beside the board (with the damage)
        self.castle_labels: dict[int, Any] = {}
        #: The keys and mouse help at the bottom of the panel.
        self.help_text = PLAY_HELP
        #: The log line the panel shows last (its index + 1 in the
        #: controller's log); None: the newest, following the game.
        self.log_end: int | None = None
        #: The log line the panel shows first (its index in the controller's
        #: log) after a PgDn or at the oldest lines; None: placed by log_end.
        self.log_first: int | None = None
        #: Lines of the log the panel shows now: (first, end) indices.
        self.log_shown = (0, 0)
        self._log_key: object = None
        self._texts = [
            self.title,
            self.turn,
            self.header,
            *self.rows,
            *self.bot_tags,
            self.legend,
            self.prompt,
            self.message,
            self.status,
            self.log,
            self.help,
            self.speed,
        ]

    def place_board_labels(
        self,
        to_px: Callable[[float, float], tuple[float, float]],
        side: Callable[[int], int] | None = None,
    ) -> None:
        """Castle names (with this round's damage, see
        :meth:`update_castle_labels`) beside the castles and area numbers at
        the launch spots; ``side(seat)`` says on which side of the window a
        castle is drawn (0 bottom, 1 left, 2 top, 3 right; default: its
        seat), so each name runs along its side and reads upright."""
        for _, _, lb in self.board_labels:
            lb.delete()
        self.board_labels = []
        self.castle_labels = {}
        c = self.c
        b = c.config.board
        half = b.half_size_mm
        for seat in c.config.castle_seats():
            castle = b.castles[seat]
            ox, oy = castle.outward
            for area in castle.front_areas:
                mx = (area.high.x + area.low.x) / 2.0 + ox * 10.0
                my = (area.high.y + area.low.y) / 2.0 + oy * 10.0
                self._board_label(to_px, mx, my, str(area.area), 9, (60, 50, 36, 170), 0)
            d = half + 14.0
            # pyglet turns a label clockwise, in degrees
            rot = -math.degrees(SIDE_LABEL_TURN[seat if side is None else side(seat)])
            self._board_label(
                to_px, -ox * d, -oy * d, "", 11, (*shade(seat_rgb(seat), -0.3), 255), rot
            )
            self.castle_labels[seat] = self.board_labels[-1][2]
        self.update_castle_labels()

    def castle_text(self, seat: int) -> str:
        """A castle's label: its colour, its player and the damage in its
        courtyard this round ("red castle (P0): 12 damage this round"; the
        totals are in the panel and the end caption)."""
        c = self.c
        player = c.shown_state().player_at(seat)
        who = f" (P{player})" if player is not None else ""
        damage = c.castle_damage().get(seat, 0)
        return f"{SEAT_COLOUR_NAMES[seat]} castle{who}: {damage} damage this round"

    def update_castle_labels(self) -> bool:
        """Bring the castle labels' damage up to date; whether any changed."""
        changed = False
        for seat, lb in self.castle_labels.items():
            changed |= _put(lb, "text", self.castle_text(seat))
        return changed

    def _board_label(
        self,
        to_px: Callable[[float, float], tuple[float, float]],
        x: float,
        y: float,
        text: str,
        size: int,
        colour: Colour,
        rotation: float,
    ) -> None:
        px, py = to_px(x, y)
        lb = pyglet.text.Label(
            text,
            x=px,
            y=py,
            font_size=size,
            weight="bold",
            color=colour,
            anchor_x="center",
            anchor_y="center",
            batch=self.labels_batch,
        )
        lb.rotation = rotation
        self.board_labels.append((x, y, lb))

    def update(
        self,
        width: int,
        height: int,
        prompt: str,
        status: str,
        speed: tuple[float, float, str] | None,
    ) -> bool:
        """Lay out the side panel and the speed label for a window of
        ``width`` x ``height`` px; returns whether anything it draws changed
        (text, place, colour, visibility) since the last call."""
        c = self.c
        s = c.state
        x0 = width - PANEL_WIDTH
        changed = self.update_castle_labels()
        changed |= _put(self.panel, "position", (x0, 0))
        changed |= _put(self.panel, "height", height)
        changed |= _put(self.edge, "position", (x0, 0))
        changed |= _put(self.edge, "height", height)
        x = x0 + 14
        y: float = height - 14
        rnd = min(c.shown_state().round + 1, c.config.rounds)
        self.title.set(f"Warlords  round {rnd} of {c.config.rounds}", x, y)
        y -= 30
        if c.phase is Phase.GAME_OVER:
            turn = "game over"
            colour = _INK
        elif c.phase is Phase.ROUND_OVER:
            turn = "round over"
            colour = _INK
        else:
            turn = f"{c.player_name(s.active)} to play"
            colour = (*shade(seat_rgb(s.seat_of(s.active)), -0.35), 255)
        y -= self.turn.set(turn, x, y, colour) + 8
        y -= self.header.set(COUNTS_HEADER, x + 16, y) + 2
        dmg = c.damage_now()
        for p, row in enumerate(self.rows):
            sup, live, court, out = c.counts(p)
            swatch = self.swatches[p]
            changed |= _put(swatch, "position", (x, y - 13))
            col = seat_rgb(s.seat_of(p))
            if tuple(swatch.color[:3]) != col:
                swatch.color = col
                changed = True
            mark = ">" if p == s.active and c.phase is not Phase.GAME_OVER else " "
            text = f"{mark}P{p} {sup:>6} {live:>7} {court:>9} {out:>3} {dmg[p]:>6}"
            y -= row.set(text, x + 16, y) + 3
            tag = bot_label(c.bots[p]) if p in c.bots else f"human, {c.hand_label(p)}"
            y -= self.bot_tags[p].set(tag, x + 44, y + 1) + (3 if tag else 0)
        legend = SCORED_LEGEND
        if any(castle.wall_holes for castle in c.config.board.castles):
            legend += "\n" + WALL_HOLE_LEGEND
        y -= self.legend.set(legend, x + 16, y - 2) + 12
        y -= self.prompt.set(prompt, x, y) + 6
        if c.message:
            y -= self.message.set(c.message, x, y, _RED if c.message_is_refusal else _INK) + 6
        else:
            self.message.set("", x, y)
        y -= self.status.set(status, x, y) + 12
        help_ = self.help.label
        shown = self.help_text
        if c.phase is Phase.GAME_OVER and shown == PLAY_HELP:  # no flick keys left
            shown = GAME_OVER_HELP
        if help_.text != shown:  # laid out first: its height places it
            help_.text = shown
            self.help.changed = True
        self.help.set(shown, x, 12 + help_.content_height)
        self._lay_out_log(x, y, y - (12 + help_.content_height) - 10)
        if speed is not None:
            px, py, text = speed
            self.speed.set(text, px + 16, py + 26, _RED if "max" in text else _INK)
        changed |= _put(self.speed.label, "visible", speed is not None)
        for t in self._texts:
            changed |= t.changed
            t.changed = False
        return changed

    def _lay_out_log(self, x: float, top: float, room: float) -> None:
        """Show as many log lines as fit in ``room`` px below ``top``:
        from :attr:`log_first` on where that is set (a PgDn), else ending
        at :attr:`log_end` (the newest when None); a page that reaches the
        oldest line is filled from line 1, one that reaches the newest
        follows the game again. The heading says which lines show when not
        all do."""
        log = self.c.log
        n = len(log)
        key = (n, self.log_end, self.log_first, round(room), x, top)
        if key == self._log_key:
            return
        lb = self.log.label

        def fits(first: int, end: int) -> bool:
            lb.text = "Log\n" + "\n".join(log[first:end])
            return float(lb.content_height) <= room

        def most_from(first: int) -> int:
            """The end of the most lines from ``first`` that fit (one at least)."""
            lo, hi = first + 1, n
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if fits(first, mid):
                    lo = mid
                else:
                    hi = mid - 1
            return lo

        first = 0
        if self.log_first is not None and n:
            first = max(0, min(self.log_first, n - 1))
            end = most_from(first)
            if end >= n:  # the newest line shows: follow the game
                self.log_first = None
                self.log_end = None
            else:
                self.log_first = first
                self.log_end = None if end >= n else end
        if self.log_first is None:
            end = n if self.log_end is None else max(1, min(self.log_end, n))
            lo, hi = 0, end  # the fewest lines that fit: from hi; the most: search
            if not fits(0, end):
                while hi - lo > 1:  # fits(hi) holds (no line), fits(lo) does not
                    mid = (lo + hi) // 2
                    if fits(mid, end):
                        hi = mid
                    else:
                        lo = mid
                first = hi
            if first == 0 and end < n:  # at the oldest: a full panel from line 1
                end = most_from(0)
                self.log_first = 0 if end < n else None  # all of it fits: follow the game
                self.log_end = None if end >= n else end
        self._log_key = (n, self.log_end, self.log_first, round(room), x, top)
        self.log_shown = (first, end)
        head = "Log"
        if first > 0 or end < n:
            head = f"Log: lines {first + 1}-{end} of {n}" + ("" if end < n else " (PgUp: older)")
        self.log.set(head + "\n" + "\n".join(log[first:end]), x, top)
        self.log.changed = True

    @property
    def log_top(self) -> bool:
        """Scrolled to the oldest lines: the log shows a full panel from line 1."""
        return self.log_first == 0

    def scroll_log(self, lines: int) -> None:
        """Scroll the log back (``lines`` > 0: older lines) or forward,
        keeping the last line shown ``lines`` lines on; a scroll past the
        newest line follows the game again."""
        n = len(self.c.log)
        end = n if self.log_end is None else self.log_end
        self.log_first = None
        end = max(1, min(n, end - lines))
        self.log_end = None if end >= n else end

    def page_log(self, pages: int) -> None:
        """PgUp (``pages`` > 0) or PgDn: a panel's worth, one line shown on
        both pages: PgUp ends the new page at the old first line, PgDn
        starts it at the old last line (pages hold different numbers of
        lines where lines wrap, so each is anchored at the line kept)."""
        first, end = self.log_shown
        if pages > 0:
            self.log_first = None
            self.log_end = first + 1
        elif pages < 0 and (self.log_end is not None or self.log_first is not None):
            self.log_first = max(0, end - 1)

    def log_to_newest(self) -> None:
        """End: show the newest lines and follow the game again."""
        self.log_end = None
        self.log_first = None

    def end_screen(self, width: int, height: int) -> str | None:
        """The end-of-round or end-of-game text, placed mid-board (None: none)."""
        c = self.c
        s = c.state
        if c.phase is Phase.ROUND_OVER and c.round_record is not None:
            r = c.round_record
            lines = [f"Round {r.round + 1} of {c.config.rounds} is over"]
            why = "flick limit" if r.out_player is None else f"P{r.out_player} has no dice in play"
            lines.append(f"({why})")
            lines.append("")
            for p in range(c.config.players):
                name = SEAT_COLOUR_NAMES[r.seats[p]]
                lines.append(f"P{p} ({name}): damage {r.damage[p]}, total {s.totals[p]}")
            lines.append("")
            lines.append(
                "Space or click to continue" if not c._all_bots() else "next round shortly"
            )
        elif c.phase is Phase.GAME_OVER:
            lines = ["Game over", ""]
            for p in range(c.config.players):
                lines.append(f"P{p}: total damage {s.totals[p]}")
            lines.append("")
            final = s.history[-1].scored_on_opponents if s.history else [0] * len(s.totals)
            # the winner and the rule that decided it, wrapped to the screen
            lines.extend(textwrap.wrap(winners_text(s.totals, final), _END_SCREEN_CHARS))
            lines.append("Esc or close the window to quit")
        else:
            return None
        text = "\n".join(lines)
        bw = width - PANEL_WIDTH
        w, h = 460, 40 + 22 * len(lines)
        x, y = (bw - w) / 2, (height - h) / 2
        self.screen_rim.position = (x - 3, y - 3)
        self.screen_rim.width, self.screen_rim.height = w + 6, h + 6
        self.screen_bg.position = (x, y)
        self.screen_bg.width, self.screen_bg.height = w, h
        if self.screen_text.text != text:
            self.screen_text.text = text
        self.screen_text.position = (x + 20, y + h / 2, 0)
        return text

    def draw(self, end_screen: bool) -> None:
        self.labels_batch.draw()
        self.batch.draw()
        if end_screen:
            self.screen_batch.draw()
