"""Drawing the board and the dice with pyglet shapes, in board millimetres.

Shapes live in board coordinates (mm, origin at the centre, x right, y up);
the window's view matrix scales them to pixels, so a resize only changes
that matrix and the board stays to scale. The seat colours are
:mod:`warlords_sim.colours`, as in the plots of :mod:`warlords_sim.plotting`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import pyglet
from pyglet import shapes

from warlords_sim.board import Board, Rect, Wall, standing_walls
from warlords_sim.colours import SEAT_COLOURS
from warlords_sim.gui.castles import crenelation_shapes
from warlords_sim.gui.controller import DieView

__all__ = [
    "RGB",
    "SCORED_RGB",
    "BoardLayer",
    "Colour",
    "DiceLayer",
    "Overlay",
    "ScoreMarks",
    "rgb",
    "shade",
    "wall_rects",
]

RGB = tuple[int, int, int]
#: A pyglet colour: RGB or RGBA, 0..255.
Colour = tuple[int, int, int, int] | tuple[int, int, int]

_BOARD_FILL = "#ecdcb8"
_BOARD_EDGE = "#8a6a3a"
_MOAT_FILL = "#8fcbec"
_HOLE_FILL = "#c9b48a"
_HOLE_EDGE = "#6b5532"
_PIN_FILL = "#2b2b2b"
_SIDE_WALL = "#5b3b1c"
_THREE_PLAYER_WALL = "#6e6e6e"
#: The holes the three-player wall stands in (square, grey: see WALL_HOLE_LEGEND).
_WALL_HOLE_FILL = "#909090"
_WALL_HOLE_EDGE = "#3c3c3c"
_SIEGE_FILL = "#9c7b4a"
_TEXT = "#3b3024"

#: Pip positions of each face in units of the half die edge.
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.0, 0.0),),
    2: ((-0.5, -0.5), (0.5, 0.5)),
    3: ((-0.5, -0.5), (0.0, 0.0), (0.5, 0.5)),
    4: ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)),
    5: ((-0.5, -0.5), (0.5, -0.5), (0.0, 0.0), (-0.5, 0.5), (0.5, 0.5)),
    6: ((-0.5, -0.5), (-0.5, 0.0), (-0.5, 0.5), (0.5, -0.5), (0.5, 0.0), (0.5, 0.5)),
}


def rgb(hex_colour: str) -> RGB:
    h = hex_colour.lstrip("#")
    return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))


def shade(colour: RGB | str, factor: float) -> RGB:
    """Mix with black (factor < 0) or white (factor > 0)."""
    c = rgb(colour) if isinstance(colour, str) else colour
    if factor < 0:
        k = 1.0 + factor
        return (int(c[0] * k), int(c[1] * k), int(c[2] * k))
    return tuple(int(v + (255 - v) * factor) for v in c)  # type: ignore[return-value]


def seat_rgb(seat: int) -> RGB:
    return rgb(SEAT_COLOURS[seat])


def _wall_colour(board: Board, wall: Wall) -> RGB:
    """A castle wall in its seat's colour, darkened; the three-player wall
    grey; a side wall (and an edge gap wall) brown."""
    for castle in board.castles:
        if wall in castle.walls:
            return shade(seat_rgb(castle.seat), -0.45)
        if wall == castle.three_player_wall:
            return rgb(_THREE_PLAYER_WALL)
    return rgb(_SIDE_WALL)


def wall_rects(
    board: Board, castle_seats: Iterable[int], side_walls: bool
) -> list[tuple[Rect, RGB]]:
    """The walls the window draws, each with its colour: exactly the walls
    that stand in the physics (:func:`~warlords_sim.board.standing_walls`),
    in its order. Needs no display. Before issue 22 the window drew the
    side walls but not the edge gap walls, so with two players and side
    walls it left out two walls the dice bounced off."""
    return [
        (w.rect, _wall_colour(board, w)) for _, w in standing_walls(board, castle_seats, side_walls)
    ]


def _rect(r: Rect, colour: RGB, batch: Any, group: Any = None) -> Any:
    return shapes.Rectangle(r.x0, r.y0, r.width, r.height, colour, batch=batch, group=group)


class BoardLayer:
    """The board's fixed parts (rebuilt when the walls change) and its pins."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.batch = pyglet.graphics.Batch()
        self.pin_batch = pyglet.graphics.Batch()
        self._shapes: list[Any] = []
        self._pins: list[Any] = []
        self._key: object = None
        self._pin_key: object = None

    def update(
        self,
        castle_seats: Sequence[int],
        side_walls: bool,
        pins: Iterable[int],
        engine: tuple[float, float] | None,
    ) -> bool:
        """Rebuild what changed; returns whether anything did."""
        changed = False
        key = (tuple(castle_seats), side_walls)
        if key != self._key:
            self._key = key
            self._build(tuple(castle_seats), side_walls)
            changed = True
        pin_key = (tuple(sorted(pins)), engine)
        if pin_key != self._pin_key:
            self._pin_key = pin_key
            self._build_pins(pin_key[0], engine)
            changed = True
        return changed

    def _build(self, seats: tuple[int, ...], side_walls: bool) -> None:
        b = self.board
        bt = self.batch
        out: list[Any] = []
        half = b.half_size_mm
        bg = pyglet.graphics.Group(order=0)
        fg = pyglet.graphics.Group(order=1)
        top = pyglet.graphics.Group(order=2)
        crenel = pyglet.graphics.Group(order=3)  # over the walls
        marks = pyglet.graphics.Group(order=4)
        edge = rgb(_BOARD_EDGE)
        full = b.size_mm + 6
        for x, y, w, h in (  # a 3 mm frame as four strips: no full-board overdraw
            (-half - 3, -half - 3, full, 3.0),
            (-half - 3, half, full, 3.0),
            (-half - 3, -half, 3.0, b.size_mm),
            (half, -half, 3.0, b.size_mm),
        ):
            out.append(shapes.Rectangle(x, y, w, h, edge, batch=bt, group=bg))
        out.append(
            shapes.Rectangle(
                -half, -half, b.size_mm, b.size_mm, rgb(_BOARD_FILL), batch=bt, group=bg
            )
        )
        ring = b.center_ring
        out.append(
            shapes.Circle(0, 0, ring.radius_mm + 1.0, 96, rgb(_BOARD_EDGE), batch=bt, group=bg)
        )
        out.append(
            shapes.Circle(0, 0, ring.radius_mm, 96, shade(_BOARD_FILL, -0.06), batch=bt, group=fg)
        )
        for seat in seats:
            castle = b.castles[seat]
            colour = seat_rgb(seat)
            out.append(_rect(castle.moat, rgb(_MOAT_FILL), bt, bg))
            out.append(_rect(castle.courtyard, colour, bt, fg))
            for gate in castle.gateways:
                out.append(_rect(gate, shade(colour, 0.55), bt, fg))
            out.extend(crenelation_shapes(b, castle, shade(colour, -0.45), bt, (crenel, marks)))
        out.extend(_rect(r, colour, bt, top) for r, colour in wall_rects(b, seats, side_walls))
        r = b.pin.radius_mm
        for x, y in b.holes:
            out.append(shapes.Circle(x, y, r + 0.6, 16, rgb(_HOLE_EDGE), batch=bt, group=fg))
            out.append(shapes.Circle(x, y, r, 16, rgb(_HOLE_FILL), batch=bt, group=top))
        # the three-player wall's holes are never a ring pin's: square and
        # grey like the wall they hold, apart from the round field holes
        for x, y in (h for c in b.castles for h in c.wall_holes):
            for side, ink, group in (
                (2 * r + 1.6, _WALL_HOLE_EDGE, fg),
                (2 * r, _WALL_HOLE_FILL, top),
            ):
                out.append(
                    shapes.Rectangle(
                        x - side / 2, y - side / 2, side, side, rgb(ink), batch=bt, group=group
                    )
                )
        self._shapes = out

    def _build_pins(self, pins: tuple[int, ...], engine: tuple[float, float] | None) -> None:
        b = self.board
        out: list[Any] = []
        r = b.pin.radius_mm * 1.2
        for h in pins:
            x, y = b.holes[h]
            out.append(shapes.Circle(x + 0.8, y - 0.8, r, 16, (0, 0, 0, 70), batch=self.pin_batch))
            out.append(shapes.Circle(x, y, r, 16, rgb(_PIN_FILL), batch=self.pin_batch))
            out.append(
                shapes.Circle(
                    x - r * 0.3, y + r * 0.3, r * 0.35, 8, (110, 110, 110), batch=self.pin_batch
                )
            )
        if engine is not None:
            out.extend(engine_shapes(b, engine, self.pin_batch))
        self._pins = out

    def draw(self) -> None:
        self.batch.draw()
        self.pin_batch.draw()


def engine_shapes(b: Board, at: tuple[float, float], batch: Any, alpha: int = 255) -> list[Any]:
    """The siege engine's square footprint with a cross, at ``at`` (mm)."""
    w = b.siege_engine.width_mm
    x, y = at
    fill = (*rgb(_SIEGE_FILL), alpha)
    dark = (*shade(_SIEGE_FILL, -0.5), alpha)
    return [
        shapes.Rectangle(x - w / 2 + 2, y - w / 2 - 2, w, w, (0, 0, 0, alpha // 3), batch=batch),
        shapes.Rectangle(x - w / 2, y - w / 2, w, w, dark, batch=batch),
        shapes.Rectangle(x - w / 2 + 1.5, y - w / 2 + 1.5, w - 3, w - 3, fill, batch=batch),
        shapes.Line(x - w / 2, y - w / 2, x + w / 2, y + w / 2, 1.5, dark, batch=batch),
        shapes.Line(x - w / 2, y + w / 2, x + w / 2, y - w / 2, 1.5, dark, batch=batch),
    ]


#: A die turning faster than this (rad/s, about one turn in 2 s) shows its
#: spin mark.
SPIN_SHOWN = 3.0
#: Spin (rad/s) at which the mark is fully opaque.
SPIN_FULL = 40.0
#: The spin mark's arcs (degrees): a thin tail, then a thick head ending at
#: the die's current heading, on the side it turns to.
_SPIN_TAIL_DEG = 80.0
_SPIN_HEAD_DEG = 28.0


class _DieSprite:
    """One die: shadow, dark rim, face in the owner's colour, six pips, and
    while it turns a spin mark: an arc round it, thin behind and thick
    ahead, in the sense it turns, more opaque the faster it spins."""

    def __init__(self, size: float, batch: Any, groups: tuple[Any, Any, Any]) -> None:
        self.size = size
        g0, g1, g2 = groups
        self.shadow = shapes.Rectangle(0, 0, size, size, (0, 0, 0, 80), batch=batch, group=g0)
        self.rim = shapes.Rectangle(0, 0, size, size, (20, 20, 20), batch=batch, group=g1)
        self.face = shapes.Rectangle(0, 0, size, size, (255, 255, 255), batch=batch, group=g1)
        self.pips = [
            shapes.Circle(0, 0, 1.0, 8, (0, 0, 0), batch=batch, group=g2) for _ in range(6)
        ]
        # the spin mark's arcs are made when the die first spins, then only
        # moved, turned and (un)coloured, never hidden: an arc's shape is
        # recomputed in Python on any other change (showing it too)
        self._arc_place = (size * 0.82, batch, g0)
        self.head: Any = None
        self.tail: Any = None
        #: Whether the spin mark shows.
        self.marked = False
        #: Spin (rad/s, counter-clockwise positive) as last measured.
        self.spin = 0.0
        self._t: float | None = None
        self._angle = 0.0
        self._last: object = None
        self._look: object = None
        self._deg: float | None = None
        self._face = 0

    def set_visible(self, visible: bool) -> None:
        for s in (self.shadow, self.rim, self.face, *self.pips):
            s.visible = visible
        if not visible:
            self._last = None
            self._t = None
            self.spin = 0.0
            self._unmark()
        else:
            self._face = 0

    def _unmark(self) -> bool:
        """Hide the spin mark (transparent); returns whether it showed."""
        if not self.marked:
            return False
        self.marked = False
        self.head.color = self.tail.color = (0, 0, 0, 0)
        return True

    def _make_arcs(self) -> None:
        r, batch, group = self._arc_place
        self.head, self.tail = (
            shapes.Arc(
                0, 0, r, n, span, 0.0, thickness=w, color=(0, 0, 0, 0), batch=batch, group=group
            )
            for n, span, w in ((3, _SPIN_HEAD_DEG, 2.4), (6, _SPIN_TAIL_DEG, 1.1))
        )

    def _spin_mark(self, d: DieView, t: float | None) -> bool:
        """Measure the spin from the angle turned since the last time ``t``
        (s of simulated time) and place the mark; returns whether it changed."""
        if t is None:
            self._t = None
            return self._unmark()
        if self._t is None or t < self._t:
            self._t, self._angle = t, d.angle
            return False
        dt = t - self._t
        if dt <= 0.0:
            return False
        self.spin = (d.angle - self._angle) / dt
        self._t, self._angle = t, d.angle
        shown = abs(self.spin) >= SPIN_SHOWN
        if not shown:
            return self._unmark()
        heading = math.degrees(d.angle) + 45.0  # a corner of the square
        ccw = self.spin > 0.0
        # an arc from start s counter-clockwise: rotation is clockwise degrees
        head0 = heading - _SPIN_HEAD_DEG if ccw else heading
        tail0 = head0 - _SPIN_TAIL_DEG if ccw else heading + _SPIN_HEAD_DEG
        a = 110 + 20 * round(7 * min(1.0, abs(self.spin) / SPIN_FULL))  # 8 steps
        colour = (25, 25, 25, a)
        if self.head is None:
            self._make_arcs()
        self.marked = True
        for arc, start in ((self.head, head0), (self.tail, tail0)):
            arc.position = (d.x, d.y)
            arc.rotation = -start
            if arc.color != colour:
                arc.color = colour
        return True

    def update(self, d: DieView, alpha: int = 255, t: float | None = None) -> bool:
        """Place the die as ``d`` shows it at simulated time ``t`` (s; None:
        no spin mark); False if nothing drawn changed."""
        spun = self._spin_mark(d, t)
        key = (d.seat, d.x, d.y, d.angle, d.face, d.height, d.cocked, alpha)
        if key == self._last:
            return spun
        if self._last is None:
            self.set_visible(True)
        self._last = key
        base = self.size
        lift = max(0.0, d.height - base / 2.0)
        size = base * (1.0 + min(lift / 120.0, 0.8))
        deg = -math.degrees(d.angle)
        look = (d.seat, alpha, size, min(int(lift), 60))
        if look != self._look:  # sizes and colours change only when lifted or recoloured
            self._look = look
            colour = seat_rgb(d.seat)
            shadow = base * (1.0 + min(lift / 300.0, 0.3))
            for rect, sz, col in (
                (self.shadow, shadow, (0, 0, 0, max(30, 90 - int(lift)))),
                (self.rim, size, (*shade(colour, -0.55), alpha)),
                (self.face, size * 0.86, (*colour, alpha)),
            ):
                rect.width = sz
                rect.height = sz
                rect.anchor_position = (sz / 2.0, sz / 2.0)
                rect.color = col
            lum = 0.2126 * colour[0] + 0.7152 * colour[1] + 0.0722 * colour[2]
            pip = (17, 17, 17, alpha) if lum > 140 else (255, 255, 255, alpha)
            for circle in self.pips:
                circle.radius = size * 0.085
                circle.color = pip
        off = lift * 0.45 + 0.8
        self.shadow.position = (d.x + off, d.y - off)
        self.rim.position = (d.x, d.y)
        self.face.position = (d.x, d.y)
        if deg != self._deg:
            self._deg = deg
            self.shadow.rotation = deg
            self.rim.rotation = deg
            self.face.rotation = deg
        c, s = math.cos(d.angle), math.sin(d.angle)
        h = size / 2.0 * 0.86 * 1.05
        spots = PIPS.get(d.face, ())
        if d.face != self._face:
            self._face = d.face
            for i, circle in enumerate(self.pips):
                circle.visible = i < len(spots)
        for (sx, sy), circle in zip(spots, self.pips, strict=False):
            px, py = sx * h, sy * h
            circle.position = (d.x + c * px - s * py, d.y + s * px + c * py)
        return True


class DiceLayer:
    """A pool of die sprites drawn from :class:`DieView` records; dice higher
    up are drawn later (on top)."""

    def __init__(self, board: Board) -> None:
        self.size = board.die.size_mm
        self.batch = pyglet.graphics.Batch()
        self._low = (pyglet.graphics.Group(0), pyglet.graphics.Group(1), pyglet.graphics.Group(2))
        self._high = (pyglet.graphics.Group(3), pyglet.graphics.Group(4), pyglet.graphics.Group(5))
        self._sprites: dict[tuple[int, bool], _DieSprite] = {}

    def update(self, dice: Iterable[DieView], t: float | None = None) -> bool:
        """Show exactly ``dice`` at simulated time ``t`` (s; the spin marks
        measure the turn between two times; None: no spin marks); returns
        whether any sprite moved, changed, appeared or went."""
        changed = False
        seen: set[tuple[int, bool]] = set()
        for d in dice:
            up = d.height > self.size * 0.75
            key = (d.die, up)
            sprite = self._sprites.get(key)
            if sprite is None:
                sprite = _DieSprite(self.size, self.batch, self._high if up else self._low)
                self._sprites[key] = sprite
            changed |= sprite.update(d, t=t)
            seen.add(key)
        for key, sprite in self._sprites.items():
            if key not in seen and sprite._last is not None:
                sprite.set_visible(False)
                changed = True
        return changed

    def draw(self) -> None:
        self.batch.draw()


#: The frame around a die that counts as damage: a white band with a dark
#: rim (seen on every courtyard colour), and their widths (mm).
SCORED_RGB: RGB = (255, 255, 255)
SCORED_RIM_RGB: RGB = (25, 25, 25)
SCORED_FRAME_MM = 1.6
SCORED_RIM_MM = 0.7


class ScoreMarks:
    """A frame around each die that counts as damage (in a courtyard by
    the rules' own test: the caller passes those dice); any other die,
    however close to a courtyard, has none."""

    def __init__(self, board: Board) -> None:
        self.size = board.die.size_mm
        self.batch = pyglet.graphics.Batch()
        self.items: list[Any] = []
        self._key: object = None

    def update(self, dice: Iterable[DieView], scored: set[int]) -> bool:
        """Frame exactly the dice of ``dice`` whose ids are in ``scored``;
        returns whether the marks changed."""
        marked = tuple((d.x, d.y, d.angle) for d in dice if d.die in scored)
        if marked == self._key:
            return False
        self._key = marked
        for item in self.items:
            item.delete()
        side = self.size * 1.5
        rim = side + 2.0 * SCORED_RIM_MM
        self.items = []
        for x, y, angle in marked:
            for sd, width, colour in (
                (rim, SCORED_FRAME_MM + 2.0 * SCORED_RIM_MM, SCORED_RIM_RGB),
                (side, SCORED_FRAME_MM, SCORED_RGB),
            ):
                box = shapes.Box(x, y, sd, sd, width, (*colour, 255), batch=self.batch)
                box.anchor_position = (sd / 2.0, sd / 2.0)
                box.rotation = -math.degrees(angle)
                self.items.append(box)
        return True

    def draw(self) -> None:
        self.batch.draw()


class Overlay:
    """Things rebuilt as the player acts: highlights, ghosts, the arrow."""

    def __init__(self) -> None:
        self.batch = pyglet.graphics.Batch()
        self.items: list[Any] = []
        self._key: object = None

    def rebuild(self, key: object) -> bool:
        """True if the overlay must be rebuilt for ``key`` (and clears it)."""
        if key == self._key:
            return False
        self._key = key
        for s in self.items:
            s.delete()
        self.items = []
        return True

    def ring(self, x: float, y: float, r: float, colour: Colour, width: float = 1.5) -> None:
        self.items.append(shapes.Arc(x, y, r, 24, thickness=width, color=colour, batch=self.batch))

    def disc(self, x: float, y: float, r: float, colour: Colour) -> None:
        self.items.append(shapes.Circle(x, y, r, 20, colour, batch=self.batch))

    def square(self, x: float, y: float, size: float, angle: float, colour: Colour) -> None:
        rect = shapes.Rectangle(x, y, size, size, colour, batch=self.batch)
        rect.anchor_position = (size / 2.0, size / 2.0)
        rect.rotation = -math.degrees(angle)
        self.items.append(rect)

    def arrow(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        colour: Colour,
        width: float = 2.5,
    ) -> None:
        length = math.hypot(x1 - x0, y1 - y0)
        if length < 1e-6:
            return
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        head = min(10.0, length * 0.5)
        bx, by = x1 - ux * head, y1 - uy * head
        self.items.append(shapes.Line(x0, y0, bx, by, width, colour, batch=self.batch))
        px, py = -uy * head * 0.55, ux * head * 0.55
        self.items.append(
            shapes.Triangle(x1, y1, bx + px, by + py, bx - px, by - py, colour, batch=self.batch)
        )

    def dashed(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        colour: Colour,
        width: float = 1.2,
        dash: float = 6.0,
    ) -> None:
        """A dashed line (dashes and gaps ``dash`` mm long)."""
        length = math.hypot(x1 - x0, y1 - y0)
        if length < 1e-6:
            return
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        t = 0.0
        while t < length:
            e = min(t + dash, length)
            self.items.append(
                shapes.Line(
                    x0 + ux * t,
                    y0 + uy * t,
                    x0 + ux * e,
                    y0 + uy * e,
                    width,
                    colour,
                    batch=self.batch,
                )
            )
            t += 2.0 * dash

    def fan(self, x0: float, y0: float, points: list[tuple[float, float]], colour: Colour) -> None:
        """A filled fan from (x0, y0) through ``points`` in turn (a cone)."""
        for (ax, ay), (bx, by) in zip(points, points[1:], strict=False):
            self.items.append(shapes.Triangle(x0, y0, ax, ay, bx, by, colour, batch=self.batch))

    def engine(self, b: Board, at: tuple[float, float], alpha: int = 170) -> None:
        self.items.extend(engine_shapes(b, at, self.batch, alpha))

    def draw(self) -> None:
        self.batch.draw()
