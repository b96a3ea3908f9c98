"""Hot-seat: which castle the view puts at the bottom, the board <-> window
transform that turns it there, and the banner saying whose turn it is.

Without pyglet. The window (:mod:`.app`) asks :class:`HotSeat` every frame
which seat is at the bottom and maps both its drawing and the mouse through
one :class:`ViewTransform`, so a drag down the screen from the bottom
castle is always a pull back from the board centre, whichever seat that is.

* With rotation on, the view turns by quarter turns so that the castle of
  the human player to move is at the bottom; during bots' turns (and dice
  moving, and the end-of-round screen) it stays as the last human's. With
  it off, seat 0 is at the bottom. ``play`` turns it on when two or more
  players are human (:func:`default_rotate`); ``R`` toggles it.
* In hot-seat (two or more humans) a banner ("yellow's turn (P2)") shows for
  :data:`BANNER_SECONDS` whenever the turn passes to a human player. It is
  only drawn: input goes on underneath it.

Seats: 0 bottom, 1 left, 2 top, 3 right of the board frame (x right, y up),
so turning the board ``seat`` quarter turns counter-clockwise brings
``seat``'s castle to the bottom of the window.
"""

from __future__ import annotations

from dataclasses import dataclass

from warlords_sim.colours import SEAT_COLOUR_NAMES
from warlords_sim.gui.controller import GameController, Phase

__all__ = [
    "BANNER_FADE",
    "BANNER_SECONDS",
    "Banner",
    "HotSeat",
    "ViewTransform",
    "default_rotate",
    "seat_turns",
    "turn_text",
]

#: How long the turn banner shows (s), fading out over its last
#: :data:`BANNER_FADE` s.
BANNER_SECONDS = 1.5
BANNER_FADE = 0.5

#: (cos, sin) of 0, 1, 2, 3 quarter turns counter-clockwise: exact, so a
#: board -> window -> board round trip loses nothing to the turn itself.
_QUARTERS = ((1, 0), (0, 1), (-1, 0), (0, -1))


def seat_turns(seat: int) -> int:
    """Quarter turns counter-clockwise (0..3) that bring ``seat``'s castle
    (0 bottom, 1 left, 2 top, 3 right) to the bottom of the window.

    Raises:
        ValueError: ``seat`` not in 0..3.
    """
    if seat not in (0, 1, 2, 3):
        raise ValueError(f"seat must be 0..3, got {seat!r}")
    return seat


@dataclass(frozen=True)
class ViewTransform:
    """Board millimetres <-> window pixels: turn by ``turns`` quarter turns
    counter-clockwise about the board centre, scale by ``scale`` px/mm,
    then move the board centre to ``origin`` (px).

    Raises:
        ValueError: ``scale`` not positive, ``turns`` not in 0..3.
    """

    scale: float
    origin: tuple[float, float]
    turns: int = 0

    def __post_init__(self) -> None:
        if not self.scale > 0.0:
            raise ValueError(f"ViewTransform.scale must be > 0 px/mm, got {self.scale!r}")
        if self.turns not in (0, 1, 2, 3):
            raise ValueError(f"ViewTransform.turns must be 0..3, got {self.turns!r}")

    def to_px(self, x: float, y: float) -> tuple[float, float]:
        """Board (x, y) mm to window pixels."""
        c, s = _QUARTERS[self.turns]
        k = self.scale
        return self.origin[0] + k * (c * x - s * y), self.origin[1] + k * (s * x + c * y)

    def to_mm(self, px: float, py: float) -> tuple[float, float]:
        """Window pixels to board (x, y) mm (the inverse of :meth:`to_px`)."""
        c, s = _QUARTERS[self.turns]
        u = (px - self.origin[0]) / self.scale
        v = (py - self.origin[1]) / self.scale
        return c * u + s * v, -s * u + c * v

    def matrix(self) -> tuple[float, ...]:
        """The same map as :meth:`to_px` as a 4x4 matrix, 16 values in
        column-major order (OpenGL's and ``pyglet.math.Mat4``'s), for the
        window's view."""
        c, s = _QUARTERS[self.turns]
        k = self.scale
        ox, oy = self.origin
        return (
            *(k * c, k * s, 0.0, 0.0),
            *(-k * s, k * c, 0.0, 0.0),
            *(0.0, 0.0, 1.0, 0.0),
            *(ox, oy, 0.0, 1.0),
        )

    def screen_side(self, seat: int) -> int:
        """Where ``seat``'s castle is drawn: 0 bottom, 1 left, 2 top, 3 right."""
        return (seat - self.turns) % 4


def turn_text(controller: GameController, player: int) -> str:
    """The banner's words: "yellow's turn (P2)"."""
    seat = controller.state.seat_of(player)
    return f"{SEAT_COLOUR_NAMES[seat]}'s turn (P{player})"


class Banner:
    """A short text that shows for :data:`BANNER_SECONDS` and fades out
    over the last :data:`BANNER_FADE` of them; time is fed in (:meth:`tick`)."""

    def __init__(self, seconds: float = BANNER_SECONDS, fade: float = BANNER_FADE) -> None:
        if not 0.0 < fade <= seconds:
            raise ValueError(f"Banner: need 0 < fade <= seconds, got {fade}, {seconds}")
        self.seconds = seconds
        self.fade = fade
        self.text = ""
        self.seat = 0
        self.age = seconds  # nothing showing

    def show(self, text: str, seat: int) -> None:
        """Show ``text`` (in ``seat``'s colour) from now."""
        self.text, self.seat, self.age = text, seat, 0.0

    def tick(self, dt: float) -> None:
        """``dt`` s of wall-clock time passed."""
        self.age = min(self.age + max(dt, 0.0), self.seconds)

    @property
    def opacity(self) -> float:
        """1 while fully shown, falling linearly to 0 over the fade, 0 after."""
        left = self.seconds - self.age
        return max(0.0, min(1.0, left / self.fade))

    @property
    def visible(self) -> bool:
        return self.opacity > 0.0


def default_rotate(controller: GameController) -> bool:
    """Rotation a player expects: on when two or more players are human."""
    return controller.config.players - len(controller.bots) >= 2


class HotSeat:
    """The bottom seat and the turn banner of one window.

    Args:
        controller: the game.
        rotate: turn the view to the human player to move (None:
            :func:`default_rotate`).
    """

    def __init__(self, controller: GameController, rotate: bool | None = None) -> None:
        self.c = controller
        self.rotate = default_rotate(controller) if rotate is None else rotate
        #: Two or more human players: the banner shows when the turn passes to one.
        self.hot_seat = controller.config.players - len(controller.bots) >= 2
        self.banner = Banner()
        humans = [p for p in range(controller.config.players) if p not in controller.bots]
        first = controller.state.active if controller.state.active in humans else None
        if first is None and humans:
            first = humans[0]
        #: The seat of the last human player to move (the first one's before any).
        self.human_seat: int | None = None if first is None else controller.state.seat_of(first)
        self._turn: tuple[int, int] | None = None

    @property
    def bottom(self) -> int:
        """The seat drawn at the bottom now."""
        if self.rotate and self.human_seat is not None:
            return self.human_seat
        return 0

    def sync(self) -> None:
        """Follow the game: on a human's turn the view belongs to that
        player; a turn passing (to anyone) and landing on a human shows the
        banner in hot-seat. Called before every frame."""
        c = self.c
        if c.phase not in (Phase.INPUT, Phase.BOT):
            return
        s = c.state
        turn = (s.round, s.active)
        if c.is_human_turn():
            self.human_seat = s.seat_of(s.active)
        if turn == self._turn:
            return
        self._turn = turn
        if self.hot_seat and c.is_human_turn():
            self.banner.show(turn_text(c, s.active), s.seat_of(s.active))

    def tick(self, dt: float) -> None:
        """``dt`` s of wall-clock time passed (the banner fades)."""
        self.banner.tick(dt)

    def toggle(self) -> str:
        """``R``: rotation on or off; returns what to tell the player."""
        self.rotate = not self.rotate
        if self.rotate:
            return "view turns to the player to move (R)"
        return f"view fixed, {SEAT_COLOUR_NAMES[0]} castle at the bottom (R)"
