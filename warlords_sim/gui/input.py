"""Mouse and keys turned into actions, without pyglet.

Positions are board millimetres (the window converts pixels). A flick is a
slingshot: press on a die (or a launch spot of your castle), drag back and
release; the velocity is ``(press point - pointer) * GAIN``, capped at the
maximum flick speed. The drag goes on outside the window (the window
system keeps sending the pointer while the button is held) and a release
there flicks; Escape or the right button cancels. Spin and strike are set
only on a human's turn and go back to zero when the turn passes. ``U``
turns the face a player's supply dice are set down with (1 up at first,
as the rules' ``SupplyFlick`` default; the aim bot sets its 6 up); each
player keeps their own choice for their later supply flicks, and so their
own launch spot (1-3, H/L or a press on a spot): in hot-seat the next
player starts from theirs, never from the last player's. ``D``
declines a pending ability only when pressed twice (Esc keeps it).
Every refusal leaves the rules' reason in ``controller.message``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from warlords_sim.board import Crenelation
from warlords_sim.gui.controller import GameController, Phase
from warlords_sim.rules.actions import (
    Action,
    BoardFlick,
    Decline,
    RingPinMove,
    SapperPull,
    SiegeShot,
    SpyMove,
    SupplyFlick,
)
from warlords_sim.rules.errors import IllegalActionError
from warlords_sim.rules.flick_setup import MAX_FLICK_SPEED
from warlords_sim.rules.game import PendingKind
from warlords_sim.rules.legal import Legal, check, check_spy_spot

__all__ = [
    "FULL_PULL_MM",
    "GAIN",
    "MIN_DRAG_MM",
    "SPIN_STEP",
    "STRIKE_STEP",
    "Drag",
    "Input",
    "PROMPTS",
]

#: The drag (mm on the board) that gives the maximum flick speed: short
#: enough to fit inside the window from the bottom castle's launch spots
#: (107 mm from the board's edge plus the window's 30 mm margin, a press
#: up to 9 mm off the spot: 128 mm at the least). It used to be 200 mm, so
#: a full-speed pull ended about 60 px below an 830 px window, out of reach
#: on a screen no taller.
FULL_PULL_MM = 120.0
#: Flick speed per mm of drag (1/s).
GAIN = MAX_FLICK_SPEED / FULL_PULL_MM
#: A shorter drag flicks nothing.
MIN_DRAG_MM = 3.0
#: Spin change per Q/E key or wheel notch (rad/s), and its limit.
SPIN_STEP = 10.0
MAX_SPIN = 60.0
#: Change of the strike height per W/X key or shift+wheel notch, mm: where
#: the finger strikes the die, above (+) or below (-) its centre
#: (physics/strike.py); high it rolls forward as it goes, low it slides.
STRIKE_STEP = 2.0

PROMPTS = {
    PendingKind.SCOUT: "Scout: flick the same die again (drag it), or D D to decline",
    PendingKind.GENERAL: "General: flick a second die (not the 6), or D D to decline",
    PendingKind.SPY: "Spy: click where to move the 3 (green: allowed), or D D to decline",
    PendingKind.SAPPER: "Sapper: click a pin to pull it, or D D to decline",
    PendingKind.RING: "Center ring: click a ring pin, then an open hole; or D D to decline",
}


@dataclass
class Drag:
    """A slingshot in progress: what is flicked, from where, the pointer now."""

    kind: str  # "supply", "board" or "siege"
    origin: tuple[float, float]  # where the die starts (mm)
    press: tuple[float, float]
    pointer: tuple[float, float]
    die: int | None = None
    spot: tuple[int, Crenelation] | None = None

    def velocity(self) -> tuple[float, float]:
        vx = (self.press[0] - self.pointer[0]) * GAIN
        vy = (self.press[1] - self.pointer[1]) * GAIN
        speed = math.hypot(vx, vy)
        if speed > MAX_FLICK_SPEED:
            k = MAX_FLICK_SPEED / speed
            vx, vy = vx * k, vy * k
        return vx, vy

    @property
    def speed(self) -> float:
        return math.hypot(*self.velocity())

    @property
    def pull_mm(self) -> float:
        return math.hypot(self.press[0] - self.pointer[0], self.press[1] - self.pointer[1])


class Input:
    """The human player's pointer and keys."""

    def __init__(self, controller: GameController) -> None:
        self.c = controller
        #: The supply launch spot the player to move chose (area, crenelation).
        self.spot: tuple[int, Crenelation] | None = None
        #: Each human player's last chosen launch spot, kept while others play.
        self.spots: dict[int, tuple[int, Crenelation]] = dict(controller.launch_spots)
        self.drag: Drag | None = None
        self.siege = False  # siege engine mode (S)
        self.spin = 0.0
        self.strike = 0.0
        self.ring_from: int | None = None
        self.pointer: tuple[float, float] | None = None
        self.spy_ok = False
        #: Draw the aim guide while dragging (G toggles it; ``play --no-guide``).
        self.guide = True
        #: The face up each human player sets their supply dice down with (U).
        self.faces: dict[int, int] = {}
        #: D was pressed once: a second D declines the pending ability.
        self.declining = False
        self._turn: int | None = None  # the human player whose turn the settings belong to

    def sync(self) -> None:
        """Forget the spin, strike, siege mode, a drag and an unconfirmed
        decline when the turn passes (to a bot, to the dice moving, or to
        another human in hot-seat), and bring the launch spot of the player
        now to move (kept per player): what one player set never carries
        into another's flick. Called before every input and every frame."""
        c = self.c
        who = c.state.active if c.is_human_turn() else None
        if who != self._turn:
            if self._turn is not None and self.spot is not None:
                self.spots[self._turn] = self.spot
            self.spot = self.spots.get(who) if who is not None else None
            self._turn = who
            self.spin = 0.0
            self.strike = 0.0
            self.siege = False
            self.drag = None
            self.ring_from = None
            self.declining = False

    # ------------------------------------------------------------ helpers

    def _refuse(self, action: Action) -> bool:
        """True (and the reason in the message) if the rules refuse ``action`` now."""
        try:
            check(self.c.state, action)
        except IllegalActionError as e:
            self.c.refuse(str(e))
            return True
        return False

    def _die_at(
        self, x: float, y: float, only: tuple[int, ...] | None = None
    ) -> tuple[int, float] | None:
        """(die, distance mm) of the die nearest (x, y) within 0.8 of its
        edge, among ``only`` if given."""
        size = self.c.config.board.die.size_mm
        best, dist = None, size * 0.8
        for d in self.c.dice():
            if only is not None and d.die not in only:
                continue
            r = math.hypot(d.x - x, d.y - y)
            if r < dist:
                best, dist = d.die, r
        return None if best is None else (best, dist)

    def _hole_at(self, x: float, y: float, holes: tuple[int, ...] | list[int]) -> int | None:
        b = self.c.config.board
        best, dist = None, b.pin.radius_mm + 6.0
        for h in holes:
            hx, hy = b.holes[h]
            r = math.hypot(hx - x, hy - y)
            if r < dist:
                best, dist = h, r
        return best

    def _spot_at(self, x: float, y: float) -> tuple[int, tuple[int, Crenelation], float] | None:
        """(seat, (area, crenelation), distance mm) of the launch spot under
        the pointer (within 9 mm of it)."""
        b = self.c.config.board
        for seat in self.c.config.castle_seats():
            for area in b.castles[seat].front_areas:
                for cren in (Crenelation.HIGH, Crenelation.LOW):
                    s = area.spot(cren)
                    r = math.hypot(s.x - x, s.y - y)
                    if r < 9.0:
                        return seat, (area.area, cren), r
        return None

    def supply_face(self) -> int:
        """The face up the player to move sets a supply die down with (1..6)."""
        return self.faces.get(self.c.state.active, 1)

    def pending_kind(self) -> PendingKind | None:
        legal = self.c.legal()
        if legal is None or legal.pending is None:
            return None
        return legal.pending.kind

    # ------------------------------------------------------------ pointer

    def move(self, x: float, y: float) -> None:
        self.pointer = (x, y)
        self.refresh_spy()

    def refresh_spy(self) -> None:
        """Whether the Spy's ghost at the pointer is on a legal spot; called
        on every pointer move and every frame, so the colour is right even
        before the pointer first moves after the flick."""
        self.spy_ok = False
        if self.pointer is None:
            return
        if self.pending_kind() is PendingKind.SPY and self.c.is_human_turn():
            legal = self.c.legal()
            assert legal is not None and legal.spy_die is not None
            x, y = self.pointer
            try:
                check_spy_spot(self.c.state, legal.spy_die, x, y)
                self.spy_ok = True
            except IllegalActionError:
                self.spy_ok = False

    def press(self, x: float, y: float) -> None:
        """A left press at (x, y) mm."""
        self.sync()
        self.pointer = (x, y)
        c = self.c
        if self.declining:
            self.declining = False
            c.message = "the ability is kept"
        if c.phase is Phase.ROUND_OVER:
            c.proceed()
            return
        if not c.is_human_turn():
            if c.phase is not Phase.GAME_OVER:
                c.refuse(c.wait_reason())
            return
        legal = c.legal()
        assert legal is not None
        kind = self.pending_kind()
        if kind is PendingKind.SPY:
            assert legal.spy_die is not None
            c.submit(SpyMove(legal.spy_die, x, y))
            return
        if kind is PendingKind.SAPPER:
            hole = self._hole_at(x, y, legal.pins)
            if hole is None:
                c.message = "click on a pin to pull it (or D to decline)"
            else:
                c.submit(SapperPull(hole))
            return
        if kind is PendingKind.RING:
            self._ring_click(x, y)
            return
        self._start_drag(x, y)

    def _ring_click(self, x: float, y: float) -> None:
        c = self.c
        legal = c.legal()
        assert legal is not None
        if self.ring_from is None:
            hole = self._hole_at(x, y, legal.ring_pins)
            if hole is None:
                c.message = "click a pin in the center ring first (or D to decline)"
            else:
                self.ring_from = hole
                c.message = "ring pin chosen: click an open hole for it"
            return
        hole = self._hole_at(x, y, range(len(c.config.board.holes)))  # type: ignore[arg-type]
        if hole is None:
            c.message = "click an open hole (Esc: choose another ring pin)"
            return
        if hole in legal.ring_pins:
            self.ring_from = hole
            c.message = "ring pin chosen: click an open hole for it"
            return
        if c.submit(RingPinMove(self.ring_from, hole)):
            self.ring_from = None

    def _start_drag(self, x: float, y: float) -> None:
        c = self.c
        state = c.state
        legal = c.legal()
        assert legal is not None
        spot = self._spot_at(x, y)
        die_at = self._die_at(x, y)
        if spot is not None and spot[0] == state.seat_of(state.active):
            # a press on your own launch spot picks the spot unless one of
            # your own dice you may flick lies nearer the press
            mine = self._die_at(x, y, legal.siege_dice if self.siege else legal.board_dice)
            die_at = mine if mine is not None and mine[1] < spot[2] else None
        die = die_at[0] if die_at is not None else None
        if die is not None:
            cls = SiegeShot if self.siege else BoardFlick
            if self._refuse(cls(die, (1.0, 0.0))):
                return
            d = next(v for v in c.dice() if v.die == die)
            kind = "siege" if self.siege else "board"
            self.drag = Drag(kind, (d.x, d.y), (x, y), (x, y), die=die)
            c.message = ""
            return
        if spot is not None:
            seat, (area, cren), _ = spot
            if seat != state.seat_of(state.active):
                c.refuse("that is another castle: flick from your own front areas")
                return
            if self._refuse(SupplyFlick(area, cren, (1.0, 0.0))):
                return
            self.spot = (area, cren)
            ls = c.config.board.launch_spot(seat, area, cren)
            self.drag = Drag("supply", (ls.x, ls.y), (x, y), (x, y), spot=(area, cren))
            c.message = ""
            return
        if self.spot is not None and legal.supply_spots:
            area, cren = self.spot
            ls = c.config.board.launch_spot(legal.seat, area, cren)
            if math.hypot(ls.x - x, ls.y - y) < 14.0:
                self.drag = Drag("supply", (ls.x, ls.y), (x, y), (x, y), spot=self.spot)
                return
        c.message = self._hint()

    def _hint(self) -> str:
        legal = self.c.legal()
        if legal is None:
            return ""
        if self.siege:
            return "siege engine: press on one of your doubles and drag back (S: leave)"
        parts = []
        if legal.supply_spots:
            parts.append("press a launch spot of your castle (or 1-3, H/L) and drag back")
        if legal.board_dice:
            parts.append("press one of your dice on the board and drag back")
        return "; or ".join(parts) or "nothing to flick: D to decline"

    def drag_to(self, x: float, y: float) -> None:
        """The pointer moved with the button held, to (x, y) mm: anywhere,
        also outside the window."""
        self.pointer = (x, y)
        if self.drag is not None:
            self.drag.pointer = (x, y)

    def release(self, x: float, y: float) -> None:
        """Left button up at (x, y) mm, inside the window or outside it:
        the drag flicks either way (Esc or the right button cancel)."""
        self.sync()
        drag = self.drag
        if drag is None:
            return
        self.drag = None
        drag.pointer = (x, y)
        if drag.pull_mm < MIN_DRAG_MM:
            self.c.message = "drag back further to flick (nothing was flicked)"
            return
        v = drag.velocity()
        spin, strike = self.spin, self.strike
        action: Action
        if drag.kind == "supply":
            assert drag.spot is not None
            action = SupplyFlick(drag.spot[0], drag.spot[1], v, spin, self.supply_face(), strike)
        elif drag.kind == "siege":
            assert drag.die is not None
            action = SiegeShot(drag.die, v, spin, strike)
        else:
            assert drag.die is not None
            action = BoardFlick(drag.die, v, spin, strike)
        if self.c.submit(action):
            self.spin = 0.0
            self.strike = 0.0
            self.siege = False

    def cancel(self) -> None:
        """Esc or the right button: drop the drag, the unconfirmed decline
        or the chosen ring pin (in that order)."""
        if self.drag is not None:
            self.drag = None
            self.c.message = "flick cancelled"
        elif self.declining:
            self.declining = False
            self.c.message = "the ability is kept"
        elif self.ring_from is not None:
            self.ring_from = None
            self.c.message = "choose a ring pin"

    # ------------------------------------------------------------ keys

    def key(self, name: str) -> None:
        """A key by name: 1 2 3 h l s d q e w x u g f space enter escape."""
        self.sync()
        c = self.c
        if name == "escape":
            self.cancel()
            return
        if name in ("space", "enter") and c.phase is Phase.ROUND_OVER:
            c.proceed()
            return
        if name == "f":
            c.speed = 1.0 if c.speed > 1.0 else 4.0
            return
        if name == "g":
            self.guide = not self.guide
            c.message = "aim guide " + ("on" if self.guide else "off") + " (G)"
            return
        if not c.is_human_turn():
            if name in ("q", "e", "w", "x") and c.phase is not Phase.GAME_OVER:
                c.refuse("wait for your turn to set the spin and the strike")
            elif name == "u" and c.phase is not Phase.GAME_OVER:
                c.refuse("wait for your turn to choose the face of your supply dice")
            return
        if name != "d" and self.declining:
            self.declining = False
            c.message = "the ability is kept"
        if name in ("q", "e"):
            step = SPIN_STEP if name == "q" else -SPIN_STEP
            self.spin = max(-MAX_SPIN, min(MAX_SPIN, self.spin + step))
            return
        if name in ("w", "x"):
            self.nudge_strike(1.0 if name == "w" else -1.0)
            return
        if name == "u":
            face = self.supply_face() % 6 + 1
            self.faces[c.state.active] = face
            c.message = f"your supply dice go down with the {face} up (U: the next face)"
            return
        legal = c.legal()
        assert legal is not None
        if name == "d":
            self._decline(legal)
            return
        if name == "s":
            if self.siege:
                self.siege = False
                c.message = ""
            elif legal.siege_dice:
                self.siege = True
                c.message = "siege engine: press one of your doubles and drag back"
            else:
                c.message = (
                    "the siege engine needs doubles: two of your dice on the board "
                    "(outside the center ring) showing the same face"
                )
            return
        if name in ("1", "2", "3", "h", "l"):
            if not legal.supply_spots:
                self._refuse(SupplyFlick(1, Crenelation.HIGH, (1.0, 0.0)))
                if not c.message:
                    c.message = "no supply flick now"
                return
            area, cren = self.spot or (2, Crenelation.HIGH)
            if name in "123":
                area = int(name)
            else:
                cren = Crenelation.HIGH if name == "h" else Crenelation.LOW
            self.spot = (area, cren)
            c.message = f"area {area}, {cren.value} crenelation: press the die there and drag back"

    def _decline(self, legal: Legal) -> None:
        """D: the first press asks, the second declines (Esc keeps the ability)."""
        c = self.c
        if legal.pending is None or not legal.can_decline:
            c.submit(Decline())  # refused, with the rules' reason
            return
        if not self.declining:
            self.declining = True
            name = legal.pending.kind.title
            c.refuse(f"decline the {name}? D again to decline it, Esc to keep it")
            return
        self.declining = False
        c.submit(Decline())
        self.ring_from = None

    def scroll(self, notches: float, strike: bool = False) -> None:
        """The wheel: spin, or with ``strike`` (shift held) the strike height;
        ignored when it is not a human's turn."""
        self.sync()
        if not self.c.is_human_turn():
            return
        if strike:
            self.nudge_strike(notches)
            return
        self.spin = max(-MAX_SPIN, min(MAX_SPIN, self.spin + SPIN_STEP * notches))

    def nudge_strike(self, steps: float) -> None:
        """Move the strike height by ``steps`` of :data:`STRIKE_STEP` mm,
        within the die (``DieSpec.strike_limit_mm`` either side of its centre)."""
        half = self.c.config.board.die.strike_limit_mm
        self.strike = max(-half, min(half, self.strike + STRIKE_STEP * steps))
