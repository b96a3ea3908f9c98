"""Scripted stand-ins for the physics, to test the rules alone.

:class:`ScriptedPhysics` satisfies :class:`~warlords_sim.rules.physics_port.Physics`
without pymunk: each flick pops the next :class:`Landing` of its script and
puts the dice where it says (regions are decided by the same geometry the
real world uses). :class:`RandomPhysics` makes up a random landing when the
script is empty (for property tests over random action sequences).

Example (a golden playthrough step)::

    phys = ScriptedPhysics(board, [Landing({FLICKED: (0.0, 0.0, 4)})])
"""

from __future__ import annotations

import copy
import hashlib
import math
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from warlords_sim.board import Board, Rect
from warlords_sim.physics.footprint import standing_walls
from warlords_sim.physics.regions import classify
from warlords_sim.physics.types import (
    DiePose,
    Event,
    EventKind,
    Flick,
    FlickResult,
    LaunchKind,
    RegionKind,
    WorldError,
)
from warlords_sim.physics.world_base import WorldBase, check_spot_request

__all__ = ["FLICKED", "Landing", "RandomPhysics", "ScriptedPhysics"]

#: Key of :attr:`Landing.moves` meaning "the die that was flicked".
FLICKED = -1


@dataclass(frozen=True)
class Landing:
    """The settled outcome of one scripted flick.

    Attributes:
        moves: die id (or :data:`FLICKED`) -> ``(x, y, face)`` where it comes
            to rest, or ``None`` if it leaves the board. Dice not named stay
            put (the flicked die then rests at its start).
        over_wall: exits happen over the side walls.
        landed: the flicked die touched the board before leaving it.
        cocked: ids of dice resting cocked.
    """

    moves: Mapping[int, tuple[float, float, int] | None]
    over_wall: bool = False
    landed: bool = True
    cocked: frozenset[int] = field(default_factory=frozenset)


@dataclass
class _Die:
    x: float
    y: float
    angle: float
    face: int
    cocked: bool = False


class ScriptedPhysics(WorldBase[_Die]):
    """A fake world: dice, pins, walls and a script of landings (mm, board frame).

    The dice's bookkeeping, the pins, the siege engine and the checks of
    their inputs are the worlds' own (:class:`~warlords_sim.physics.world_base.WorldBase`):
    a request the 2.5D world refuses with a
    :class:`~warlords_sim.physics.types.WorldError` is refused here with the
    same error. A die is added without looking at what it would overlap
    (a script puts dice where it likes), and flicks are not checked.
    """

    def __init__(
        self,
        board: Board,
        script: Iterable[Landing] = (),
        castle_seats: Sequence[int] = (0, 1, 2, 3),
        side_walls: bool = False,
    ) -> None:
        super().__init__(board, castle_seats, side_walls)
        self.script: deque[Landing] = deque(script)
        self._dice: dict[int, _Die] = {}
        self._pins: set[int] = set()
        self._engine_xy: tuple[float, float] | None = None
        self.flicks: list[Flick] = []

    # ----------------------------------------------------------- protocol

    @property
    def engine(self) -> tuple[float, float] | None:
        """Centre (mm) of the placed siege engine, or None (:attr:`siege_engine`)."""
        return self._engine_xy

    def push(self, *landings: Landing) -> None:
        """Append landings to the script."""
        self.script.extend(landings)

    def _put_pin(self, hole: int) -> None:
        self._pins.add(hole)

    def _take_pin(self, hole: int) -> None:
        self._pins.remove(hole)

    def _replace_pins(self, holes: list[int]) -> None:
        self._pins = set(holes)

    def _put_engine(self, x: float, y: float) -> None:
        self._engine_xy = (x, y)

    def _take_engine(self) -> None:
        self._engine_xy = None

    def add_die(self, die: int, x: float, y: float, face: int = 1, angle: float = 0.0) -> None:
        """Put die ``die`` at (x, y) mm with ``face`` up, turned ``angle`` rad.

        Raises:
            WorldError: a bad or taken id, a place off the board, an angle
                not finite (what it overlaps is not looked at).
        """
        self._check_new_die(die, x, y, angle)
        self._dice[die] = _Die(x, y, angle, face)

    def _take_die(self, die: int) -> None:
        del self._dice[die]

    def move_die(self, die: int, x: float, y: float, angle: float | None = None) -> None:
        """Set die ``die`` down at (x, y) mm, not cocked.

        Raises:
            WorldError: no such die, a place off the board, an angle not finite.
        """
        d = self._check_move(die, x, y, angle)
        d.x, d.y, d.cocked = x, y, False
        if angle is not None:
            d.angle = angle

    def pose(self, die: int) -> DiePose:
        """Die ``die``'s pose (WorldError: no such die)."""
        d = self._get(die)
        region = classify(self.board, d.x, d.y, d.angle, self.castle_seats)
        return DiePose(die, d.x, d.y, d.angle, d.face, 0, region, d.cocked)

    def copy(self) -> ScriptedPhysics:
        return copy.deepcopy(self)

    def digest(self) -> str:
        """SHA-256 hex of the fake's state: each die's place, yaw (rad), face
        and cocked flag (``float.hex``, exact), the pins and the engine."""
        parts = [f"d{i}:{d.x.hex()},{d.y.hex()},{d.angle.hex()},{d.face},{int(d.cocked)}"
                 for i, d in sorted(self._dice.items())]  # fmt: skip
        parts.append("p" + ",".join(str(h) for h in sorted(self._pins)))
        e = self._engine_xy
        parts.append("e" if e is None else f"e{e[0].hex()},{e[1].hex()}")
        return hashlib.sha256(";".join(parts).encode()).hexdigest()

    def _walls(self) -> list[Rect]:
        return [w.rect for _, w in standing_walls(self.board, self.castle_seats, self.side_walls)]

    def _free(self, x: float, y: float, width: float, exclude: int | None) -> bool:
        h = width / 2.0
        if abs(x) > self.board.half_size_mm - h or abs(y) > self.board.half_size_mm - h:
            return False
        for r in self._walls():
            if r.x0 < x + h and r.x1 > x - h and r.y0 < y + h and r.y1 > y - h:
                return False
        pr = self.board.pin.radius_mm
        for hole in self._pins:
            px, py = self.board.holes[hole]
            if abs(px - x) < h + pr and abs(py - y) < h + pr:
                return False
        reach = h + self.board.die.size_mm * math.sqrt(0.5)
        for i, d in self._dice.items():
            if i != exclude and abs(d.x - x) < reach and abs(d.y - y) < reach:
                return False
        if self._engine_xy is not None:
            ew = self.board.siege_engine.width_mm / 2.0
            ex, ey = self._engine_xy
            if abs(ex - x) < h + ew and abs(ey - y) < h + ew:
                return False
        return True

    def free_spot_near(
        self, x: float, y: float, width: float, exclude_die: int | None = None
    ) -> tuple[float, float]:
        """The free place nearest (x, y) for a ``width`` mm square, by a
        search of its own (not the worlds' :func:`~warlords_sim.physics.checks.nearest_free`:
        rings 2 mm apart, no bisection, bounding squares for dice; the
        golden tests' siege engines stand where it puts them).

        Raises:
            WorldError: the point not finite, the width not positive, or no
                free place on the board.
        """
        check_spot_request(x, y, width)
        if self._free(x, y, width, exclude_die):
            return (x, y)
        for ring in range(1, int(self.board.size_mm / 2.0) + 1):
            radius = ring * 2.0
            n = max(8, int(math.pi * radius))
            for i in range(n):
                a = 2.0 * math.pi * i / n
                px, py = x + radius * math.cos(a), y + radius * math.sin(a)
                if self._free(px, py, width, exclude_die):
                    return (px, py)
        raise WorldError("no free place on the board")

    # -------------------------------------------------------------- flick

    def next_landing(self, flick: Flick) -> Landing:
        """The landing for ``flick``: the next of the script."""
        if not self.script:
            raise RuntimeError(f"scripted physics: no landing left for flick of die {flick.die}")
        return self.script.popleft()

    def flick(self, flick: Flick, face: int | None = None, max_time: float = 60.0) -> FlickResult:
        self.flicks.append(flick)
        if flick.die not in self._dice:
            sx, sy = flick.start if flick.start is not None else (0.0, 0.0)
            self.add_die(flick.die, sx, sy, face if face is not None else 1)
        d = self._dice[flick.die]
        if face is not None:
            d.face = face
        if flick.start is not None:
            d.x, d.y = flick.start
        initial = d.face
        landing = self.next_landing(flick)
        events = [
            Event(EventKind.LAUNCH, 0.0, flick.die, d.x, d.y, flick.launch.value, 0.0, initial)
        ]
        if landing.landed and flick.launch is not LaunchKind.TABLE:
            events.append(Event(EventKind.LANDING, 0.01, flick.die, d.x, d.y, "table"))
        exited: list[int] = []
        touched: set[int] = set()
        for key, target in landing.moves.items():
            die = flick.die if key == FLICKED else key
            if die != flick.die:
                touched.add(die)
                events.append(Event(EventKind.CONTACT, 0.02, flick.die, d.x, d.y, f"die:{die}"))
            if target is None:
                o = self._dice.pop(die)
                events.append(
                    Event(
                        EventKind.EXIT,
                        0.03,
                        die,
                        o.x,
                        o.y,
                        over_wall=self.side_walls and landing.over_wall,
                    )
                )
                exited.append(die)
            else:
                o = self._dice[die]
                o.x, o.y, o.face = target
                o.cocked = die in landing.cocked
        poses = {i: self.pose(i) for i in sorted(self._dice)}
        return FlickResult(
            flick=flick,
            poses=poses,
            exited=tuple(exited),
            events=tuple(events),
            steps=0,
            settle_s=0.0,
            digest="",
            initial_face=initial,
            touched=frozenset(touched),
        )


class RandomPhysics(ScriptedPhysics):
    """A fake whose flicks land at random (from a seeded Generator) once the
    script is empty: off the board, in a courtyard or a gateway, in the
    center ring or anywhere on the board, sometimes knocking another die."""

    def __init__(
        self, board: Board, rng: np.random.Generator, castle_seats: Sequence[int] = (0, 1, 2, 3)
    ) -> None:
        super().__init__(board, (), castle_seats)
        self.rng = rng

    def _spot(self) -> tuple[float, float, int] | None:
        rng = self.rng
        u = float(rng.random())
        face = int(rng.integers(1, 7))
        b = self.board
        seat = int(rng.choice(self.castle_seats))
        if u < 0.15:
            return None
        if u < 0.3:
            c = b.castles[seat].courtyard
            return (
                float(rng.uniform(c.x0 + 9, c.x1 - 9)),
                float(rng.uniform(c.y0 + 9, c.y1 - 9)),
                face,
            )
        if u < 0.35:
            gx, gy = b.castles[seat].gateways[int(rng.integers(0, 2))].center
            return (gx, gy, face)
        if u < 0.45:
            return (float(rng.uniform(-20, 20)), float(rng.uniform(-20, 20)), face)
        h = b.half_size_mm - 10.0
        while True:
            x, y = float(rng.uniform(-h, h)), float(rng.uniform(-h, h))
            if classify(b, x, y, 0.0, self.castle_seats).kind in (
                RegionKind.BOARD,
                RegionKind.MOAT,
            ):
                return (x, y, face)

    def next_landing(self, flick: Flick) -> Landing:
        if self.script:
            return self.script.popleft()
        moves: dict[int, tuple[float, float, int] | None] = {FLICKED: self._spot()}
        others = [i for i in self._dice if i != flick.die]
        if others and self.rng.random() < 0.3:
            moves[int(self.rng.choice(others))] = self._spot()
        return Landing(
            moves, over_wall=bool(self.rng.random() < 0.5), landed=bool(self.rng.random() < 0.9)
        )
