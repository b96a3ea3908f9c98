"""Limits of a flick and the checks both engines apply to a flick's inputs.

Pure, no pymunk: the 2.5D world and the reference engine call
:func:`validate_flick` so that the same inputs are refused by both with the
same message.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Sequence

from warlords_sim.board import Board
from warlords_sim.physics.footprint import square, what_overlaps
from warlords_sim.physics.types import (
    MAX_DIE_ID,
    Flick,
    FlickError,
    LaunchKind,
    WorldError,
    die_id_problem,
)

__all__ = [
    "MAX_DIE_ID",
    "MAX_FLICK_SPEED",
    "MAX_FLICK_SPIN",
    "die_id_problem",
    "speed_problem",
    "validate_flick",
]

#: Largest flick speed accepted, mm/s (see physics/world.py for why: no
#: tunnelling through a pin or a wall between two steps).
MAX_FLICK_SPEED = 2000.0
#: Largest flick spin accepted, rad/s (about 30 turns a second; a finger
#: gives far less, and a faster die would turn more than 45 degrees a step).
MAX_FLICK_SPIN = 200.0


def speed_problem(speed: float) -> str | None:
    """Why a flick at ``speed`` (mm/s, >= 0) is refused, or None if it is not:
    over :data:`MAX_FLICK_SPEED`. The one check of the speed limit: the
    physics, the rules' legality check, the ``flick`` command and the
    fidelity scenarios all call it (a unit vector times the maximum rounds
    up by an ulp, so the limit allows a relative 1e-12)."""
    if speed > MAX_FLICK_SPEED * (1.0 + 1e-12):
        return f"flick speed {speed:.10g} mm/s is over the maximum of {MAX_FLICK_SPEED:.0f} mm/s"
    return None


def validate_flick(
    flick: Flick, board: Board, die_in_world: bool, siege_engine_placed: bool
) -> None:
    """Check a flick's inputs.

    Args:
        flick: the flick. board: the board it is flicked on.
        die_in_world: whether ``flick.die`` is in the world now.
        siege_engine_placed: whether the siege engine stands on the board
            (a SIEGE flick leaves its top).

    Raises:
        FlickError: a die id out of 0..:data:`MAX_DIE_ID`, a NaN or
            infinite number, a speed over :data:`MAX_FLICK_SPEED`, a spin
            over :data:`MAX_FLICK_SPIN`, a strike height outside the die
            (``DieSpec.strike_limit_mm``), a start off the board, a TABLE flick of
            a die not in the world, a height below zero, a launch from a
            height without a start point, a SIEGE flick with no siege
            engine placed.
    """
    problem = die_id_problem(flick.die)
    if problem is not None:
        raise FlickError(f"flick die: {problem}")
    vx, vy = flick.velocity
    for name, v in (
        ("velocity x", vx),
        ("velocity y", vy),
        ("spin", flick.spin),
        ("strike height", flick.strike_mm),
    ):
        if not math.isfinite(v):
            raise FlickError(f"flick {name} must be a finite number, got {v}")
    problem = speed_problem(flick.speed)
    if problem is not None:
        raise FlickError(problem)
    if abs(flick.spin) > MAX_FLICK_SPIN:
        raise FlickError(
            f"flick spin {flick.spin:.10g} rad/s is over the maximum of {MAX_FLICK_SPIN:.0f} rad/s"
        )
    half = board.die.strike_limit_mm
    if abs(flick.strike_mm) > half:
        raise FlickError(
            f"flick strike height must be within the die, -{half:g}..{half:g} mm from its "
            f"centre (half its height, die.sides_mm[2]), got {flick.strike_mm:g}"
        )
    if not math.isfinite(flick.height_mm) or flick.height_mm < 0:
        raise FlickError(f"launch height must be >= 0 mm, got {flick.height_mm}")
    if flick.start is not None:
        sx, sy = flick.start
        if not (math.isfinite(sx) and math.isfinite(sy)):
            raise FlickError(f"flick start must be finite numbers, got {flick.start}")
        if not board.on_board(sx, sy):
            h = board.half_size_mm
            raise FlickError(
                f"flick start ({sx:g}, {sy:g}) mm is off the board (|x|, |y| <= {h:g} mm)"
            )
    if flick.launch is LaunchKind.TABLE and not die_in_world:
        raise FlickError(f"no die {flick.die} on the board to flick")
    if flick.launch is not LaunchKind.TABLE and flick.start is None:
        raise FlickError(f"a {flick.launch.value} flick needs a start point")
    if flick.launch is LaunchKind.SIEGE and not siege_engine_placed:
        raise FlickError(
            "a siege flick leaves the top of the siege engine, but no siege engine is placed "
            "(place_siege_engine first)"
        )


# -------------------------------------------------- the port's other inputs
# (both engines call these, so the same request is refused with the same line)


def check_point(board: Board, x: float, y: float, what: str) -> None:
    """A place on the board.

    Raises:
        WorldError: ``x`` or ``y`` not finite, or the point off the board.
    """
    if not (math.isfinite(x) and math.isfinite(y)):
        raise WorldError(f"{what} must be finite numbers, got ({x}, {y})")
    if not board.on_board(x, y):
        h = board.half_size_mm
        raise WorldError(f"{what} ({x:g}, {y:g}) mm is off the board (|x|, |y| <= {h:g} mm)")


def check_castle_seats(board: Board, castle_seats: Sequence[int]) -> tuple[int, ...]:
    """The castle seats, sorted.

    Raises:
        WorldError: a seat not in 0..3, or a seat given twice.
    """
    seats = tuple(sorted(castle_seats))
    if len(set(seats)) != len(seats) or any(not 0 <= k < len(board.castles) for k in seats):
        raise WorldError(f"castle seats must be distinct seats 0..3, got {list(castle_seats)}")
    return seats


def check_new_pin(board: Board, hole: int, pins: Collection[int]) -> None:
    """A pin can go in hole ``hole``.

    Raises:
        WorldError: no such hole, or the hole already holds a pin.
    """
    if not 0 <= hole < len(board.holes):
        raise WorldError(f"no hole {hole}; holes are 0..{len(board.holes) - 1}")
    if hole in pins:
        raise WorldError(f"hole {hole} already holds a pin")


def check_pin_holes(board: Board, holes: Iterable[int]) -> list[int]:
    """Holes for a whole new set of pins, as a list.

    Raises:
        WorldError: a hole out of range or given twice.
    """
    wanted = list(holes)
    if len(set(wanted)) != len(wanted) or any(not 0 <= h < len(board.holes) for h in wanted):
        raise WorldError(f"pins need distinct holes 0..{len(board.holes) - 1}, got {wanted}")
    return wanted


def check_siege_place(
    board: Board,
    x: float,
    y: float,
    castle_seats: Sequence[int],
    side_walls: bool,
    pins: Iterable[int],
) -> None:
    """The siege engine can stand centred at (x, y) mm: on the board, clear of
    every standing wall and pin (dice are not checked: the rules place it
    where the die shot from it lay).

    Raises:
        WorldError: not finite, sticking out of the board, or over a wall or
            pin (the message names which).
    """
    check_point(board, x, y, "siege engine position")
    width = board.siege_engine.width_mm
    half = board.half_size_mm - width / 2.0
    if abs(x) > half or abs(y) > half:
        raise WorldError(f"a siege engine at ({x:g}, {y:g}) mm would stick out of the board")
    blocker = what_overlaps(square(x, y, 0.0, width), board, castle_seats, side_walls, pins)
    if blocker is not None:
        raise WorldError(f"a siege engine at ({x:g}, {y:g}) mm would overlap {blocker}")


def nearest_free(
    x: float, y: float, reach_mm: float, free: Callable[[float, float], bool]
) -> tuple[float, float]:
    """The place nearest to (x, y) mm where ``free(px, py)`` holds, to within
    about 0.25 mm (both engines' ``free_spot_near``; the rulebook's siege
    engine "must be placed as closely as possible to the die's original
    position").

    Rings :data:`_COARSE_MM` apart (points as far apart along each ring) out
    to ``reach_mm`` find the first ring holding free places, at radius R.
    Along the direction of each of them the edge of the free region is then
    found by bisection between R - :data:`_COARSE_MM` and R, to
    :data:`_FINE_MM`; the nearest is the answer. A free pocket that no
    coarse point reaches (under 2 mm across) can be missed.

    Raises:
        WorldError: no free place within reach.
    """
    if free(x, y):
        return (x, y)
    for k in range(1, int(reach_mm / _COARSE_MM) + 1):
        outer = k * _COARSE_MM
        n = max(8, math.ceil(2.0 * math.pi * outer / _COARSE_MM))
        best: tuple[float, float, float] | None = None  # (radius, x, y)
        for i in range(n):
            c, s = math.cos(2.0 * math.pi * i / n), math.sin(2.0 * math.pi * i / n)
            if not free(x + outer * c, y + outer * s):
                continue
            lo, hi = outer - _COARSE_MM, outer  # blocked (taken), free
            while hi - lo > _FINE_MM:
                mid = (lo + hi) / 2.0
                if free(x + mid * c, y + mid * s):
                    hi = mid
                else:
                    lo = mid
            if best is None or hi < best[0]:
                best = (hi, x + hi * c, y + hi * s)
        if best is not None:
            return (best[1], best[2])
    raise WorldError("no free place on the board for the siege engine")


#: Spacing (mm) of the rings of :func:`nearest_free` and of the points
#: along them.
_COARSE_MM = 2.0
#: How close (mm) the bisection along a direction gets to the free region's edge.
_FINE_MM = 0.25
