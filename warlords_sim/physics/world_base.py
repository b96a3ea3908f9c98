"""What every world behind the rules' physics port shares: the dice's
bookkeeping, the pins, the siege engine's place, the walls in force, and
the checks of their inputs.

Three worlds satisfy :class:`~warlords_sim.rules.physics_port.Physics`:
the 2.5D :class:`~warlords_sim.physics.world.World` (pymunk), the 3D
:class:`~warlords_sim.reference.world.ReferenceWorld` (MuJoCo) and the
rules' :class:`~warlords_sim.rules.scripted.ScriptedPhysics` (a script of
landings). :class:`WorldBase` is their common part, so that the same
request is refused by each with the same :class:`WorldError` and the same
line (:mod:`~warlords_sim.physics.checks`); each world keeps its dice
(``_dice``, any record per id), its pins (``_pins``, a collection of
holes) and the engine's centre (``_engine_xy``) and does the rest in the
hooks a subclass overrides (``_walls_changed``, ``_put_pin``,
``_take_pin``, ``_replace_pins``, ``_put_engine``, ``_take_engine``,
``_take_die``, ``_clear_test``).

Contract
--------
* Errors: :class:`~warlords_sim.physics.types.WorldError` for an
  impossible request (an unknown die, a taken id, a place off the board or
  overlapping, a bad hole or seat), :class:`~warlords_sim.physics.types.FlickError`
  for a bad flick (:meth:`WorldBase.validate`).
* Units mm, rad; board frame.
* No pymunk, no MuJoCo: plain Python on the board and the physics value
  modules, so the reference (its own tier) and the rules (which may import
  the physics but never pymunk directly) can both build on it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, MutableMapping, Sequence
from typing import Generic, TypeVar

from warlords_sim.board import Board
from warlords_sim.physics.checks import (
    check_castle_seats,
    check_new_pin,
    check_pin_holes,
    check_point,
    check_siege_place,
    die_id_problem,
    nearest_free,
    validate_flick,
)
from warlords_sim.physics.footprint import Polygon, what_overlaps
from warlords_sim.physics.types import Flick, WorldError

__all__ = ["WorldBase", "check_spot_request"]

D = TypeVar("D")


def check_spot_request(x: float, y: float, width: float) -> None:
    """The inputs of ``free_spot_near``.

    Raises:
        WorldError: the point not finite, or the width not a positive number.
    """
    if not (math.isfinite(x) and math.isfinite(y)):
        raise WorldError(f"free_spot_near needs a finite point, got ({x}, {y})")
    if not (math.isfinite(width) and width > 0.0):
        raise WorldError(f"free_spot_near needs a positive width in mm, got {width}")


class WorldBase(Generic[D]):
    """The shared part of a physics world (see the module docstring).

    Args:
        board: the validated board.
        castle_seats: seats whose castles stand.
        side_walls: whether the optional side walls stand.

    Raises:
        WorldError: a seat not in 0..3, or a seat given twice.
    """

    _dice: MutableMapping[int, D]
    _pins: Collection[int]
    _engine_xy: tuple[float, float] | None

    def __init__(self, board: Board, castle_seats: Sequence[int], side_walls: bool) -> None:
        self.board = board
        self.castle_seats = check_castle_seats(board, castle_seats)
        self.side_walls = side_walls

    # -------------------------------------------------------------- walls

    def set_walls(self, castle_seats: Sequence[int], side_walls: bool) -> None:
        """Change which castles stand and whether the side walls stand.

        Raises:
            WorldError: a seat not in 0..3, or a seat given twice.
        """
        seats = check_castle_seats(self.board, castle_seats)
        self.castle_seats = seats
        self.side_walls = side_walls
        self._walls_changed()

    def _walls_changed(self) -> None:
        """Hook: the walls in force changed."""

    # --------------------------------------------------------------- pins

    @property
    def pins(self) -> tuple[int, ...]:
        """Hole indices (into ``board.holes``) holding a pin, sorted."""
        return tuple(sorted(self._pins))

    def add_pin(self, hole: int) -> None:
        """Put a pin in hole ``hole``.

        Raises:
            WorldError: no such hole, or the hole already holds a pin.
        """
        check_new_pin(self.board, hole, self._pins)
        self._put_pin(hole)

    def remove_pin(self, hole: int) -> None:
        """Pull the pin out of hole ``hole``.

        Raises:
            WorldError: the hole holds no pin.
        """
        if hole not in self._pins:
            raise WorldError(f"hole {hole} holds no pin")
        self._take_pin(hole)

    def set_pins(self, holes: Iterable[int]) -> None:
        """Replace all pins by pins in ``holes`` (in that order).

        Raises:
            WorldError: a hole out of range or given twice (nothing changed).
        """
        self._replace_pins(check_pin_holes(self.board, holes))

    def _put_pin(self, hole: int) -> None:
        raise NotImplementedError

    def _take_pin(self, hole: int) -> None:
        raise NotImplementedError

    def _replace_pins(self, holes: list[int]) -> None:
        raise NotImplementedError

    # ------------------------------------------------------- siege engine

    @property
    def siege_engine(self) -> tuple[float, float] | None:
        """Centre (mm) of the placed siege engine, or None."""
        return self._engine_xy

    def place_siege_engine(self, x: float, y: float) -> None:
        """Place the siege engine (a square block) centred at (x, y) mm.

        Raises:
            WorldError: the place is not finite, the engine would stick out
                of the board, or it would overlap a wall or a pin (the
                message names which; find a place with :meth:`free_spot_near`).
                Dice are not checked: the rules place it where the die shot
                from it lay.
        """
        # walls and pins only: the rules place it where the shot die lies
        # (picked up for the shot); the old place is not in the way
        check_siege_place(self.board, x, y, self.castle_seats, self.side_walls, self._pins)
        self._put_engine(x, y)

    def remove_siege_engine(self) -> None:
        """Take the siege engine off the board (no-op if not placed)."""
        self._take_engine()

    def _put_engine(self, x: float, y: float) -> None:
        raise NotImplementedError

    def _take_engine(self) -> None:
        raise NotImplementedError

    def free_spot_near(
        self, x: float, y: float, width: float, exclude_die: int | None = None
    ) -> tuple[float, float]:
        """The free place nearest to (x, y) for a ``width`` mm square (the siege engine).

        Free: on the board, touching no wall, pin or die (moats do not
        count; rulebook, The Siege Engine; die ``exclude_die`` does not
        count), to within 0.5 mm
        (:func:`~warlords_sim.physics.checks.nearest_free`; what touches
        is the world's to say, :meth:`_clear_test`).

        Raises:
            WorldError: the point is not finite, the width not positive, or
                no free place within the board.
        """
        check_spot_request(x, y, width)
        half = self.board.half_size_mm - width / 2.0
        clear = self._clear_test(width, exclude_die)

        def free(px: float, py: float) -> bool:
            if abs(px) > half or abs(py) > half:
                return False
            return clear(px, py)

        return nearest_free(x, y, self.board.size_mm, free)

    def _clear_test(self, width: float, exclude_die: int | None) -> Callable[[float, float], bool]:
        """Hook: whether a ``width`` mm square centred at a point (within
        the board) touches nothing but die ``exclude_die``."""
        raise NotImplementedError

    # --------------------------------------------------------------- dice

    @property
    def dice(self) -> tuple[int, ...]:
        """Ids of the dice in the world, sorted."""
        return tuple(sorted(self._dice))

    def remove_die(self, die: int) -> None:
        """Take die ``die`` out of the world.

        Raises:
            WorldError: no such die.
        """
        self._get(die)
        self._take_die(die)

    def _take_die(self, die: int) -> None:
        raise NotImplementedError

    def _get(self, die: int) -> D:
        """Die ``die``'s record.

        Raises:
            WorldError: no such die.
        """
        d = self._dice.get(die)
        if d is None:
            raise WorldError(f"no die {die} in the world")
        return d

    def _check_point(self, x: float, y: float, what: str) -> None:
        """Raises WorldError: (x, y) not finite or off the board."""
        check_point(self.board, x, y, what)

    def _check_new_die(self, die: int, x: float, y: float, angle: float) -> None:
        """A die can be added with id ``die`` at (x, y) mm turned ``angle`` rad
        (what it would overlap is the world's to say).

        Raises:
            WorldError: an id not an integer 0..2**31-1, the id taken, the
                place off the board or not finite, the angle not finite.
        """
        problem = die_id_problem(die)
        if problem is not None:
            raise WorldError(problem)
        if die in self._dice:
            raise WorldError(f"die {die} is already in the world")
        self._check_point(x, y, "die position")
        if not math.isfinite(angle):
            raise WorldError(f"die angle must be a finite number of radians, got {angle}")

    def _check_move(self, die: int, x: float, y: float, angle: float | None) -> D:
        """Die ``die``'s record, if it can be set down at (x, y) mm turned
        ``angle`` rad (None: as it is).

        Raises:
            WorldError: no such die, a place off the board or not finite,
                an angle not finite.
        """
        d = self._get(die)
        self._check_point(x, y, "die position")
        if angle is not None and not math.isfinite(angle):
            raise WorldError(f"die angle must be a finite number of radians, got {angle}")
        return d

    def _overlapped(self, poly: Polygon, feet: Mapping[int, Polygon]) -> str | None:
        """What the footprint ``poly`` overlaps among the walls in force,
        the pins, the engine and the dice's footprints ``feet``
        (:func:`~warlords_sim.physics.footprint.what_overlaps`), or None."""
        return what_overlaps(
            poly,
            self.board,
            self.castle_seats,
            self.side_walls,
            self._pins,
            self._engine_xy,
            feet,
        )

    # ------------------------------------------------------------- flicks

    def validate(self, flick: Flick) -> None:
        """Check a flick's inputs (:func:`~warlords_sim.physics.checks.validate_flick`).

        Raises:
            FlickError: see there.
        """
        validate_flick(flick, self.board, flick.die in self._dice, self._engine_xy is not None)
