"""The flick set-up: the one owner of what a flick starts from.

Every caller that sets up a flick -- the rules engine (:mod:`.flicks`,
:mod:`.legal`), the ``flick`` command (:mod:`warlords_sim.cli.flick_trials`),
sandbox replays (:mod:`warlords_sim.replay.sandbox`), the fidelity
scenarios, the window and the plots -- takes these facts from here, or
from the lower layer this module names as their owner:

* **Seats in play**: :func:`~warlords_sim.board.castle_seats_for` (players
  and house rule ``three_player_walled_seat``); ``GameConfig.castle_seats``
  delegates to it. It lives in the board layer so that ``board --json`` and
  the plots need no physics; re-exported here.
* **Speed limit**: :data:`MAX_FLICK_SPEED` (mm/s) and :data:`MAX_FLICK_SPIN`
  (rad/s) with the one check :func:`speed_problem`, owned by
  :mod:`warlords_sim.physics.checks` (the physics refuses a flick over
  them; the limit is a property of the model: no tunnelling); re-exported.
* **Launch spots**: ``Board.launch_spot`` (the board file), with the launch
  kind of a crenelation :func:`launch_kind_of` / :func:`crenelation_of`.
* **Siege launch**: :func:`siege_reach` (engine centre to die start, mm)
  and :func:`siege_start_point`.
* **Centre-ring pins**: :func:`~warlords_sim.board.default_pins` (sorted:
  a game's rounds) and :func:`~warlords_sim.board.seat_pins` (seat order:
  the ``flick`` command's world and sandbox replays; the add order enters
  the digests), both in the board layer; :func:`standard_world` builds the
  ``flick`` command's world.
* **A flick's start** from the ``flick`` command's inputs: :func:`flick_start`.

Units mm, mm/s, rad/s; board frame. Errors: :class:`FlickSetupError`
(a ``ValueError``) with a one-line reason.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from warlords_sim.board import Board, BoardError, Crenelation, castle_seats_for, seat_pins
from warlords_sim.errors import WarlordsError
from warlords_sim.physics.checks import MAX_FLICK_SPEED, MAX_FLICK_SPIN, speed_problem
from warlords_sim.physics.ledge import LEDGE_GAP_MM
from warlords_sim.physics.types import LaunchKind, WorldError
from warlords_sim.rules.physics_port import Physics, make_world

__all__ = [
    "MAX_FLICK_SPEED",
    "MAX_FLICK_SPIN",
    "FlickSetupError",
    "FlickStart",
    "castle_seats_for",
    "crenelation_of",
    "flick_direction",
    "flick_start",
    "launch_kind_of",
    "seat_pins",
    "siege_reach",
    "siege_start_point",
    "speed_problem",
    "standard_world",
]


class FlickSetupError(WarlordsError, ValueError):
    """A flick that cannot be set up (an unknown launch spot, a start off
    the board, no room for the siege engine); the message says why in one
    line. ``field``: the input at fault (``"at"`` for the start point), or
    None, so that a command line can name its option."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class FlickStart:
    """Where a flick starts.

    Attributes:
        start: the die's centre at launch, mm.
        height_mm: the height of its bottom face there, mm (0 on the table).
        siege_engine: the siege engine's centre, mm (placed in the world),
            or None unless a siege launch.
    """

    start: tuple[float, float]
    height_mm: float
    siege_engine: tuple[float, float] | None = None


def launch_kind_of(crenelation: Crenelation) -> LaunchKind:
    """The physics launch kind of a flick from ``crenelation``."""
    return LaunchKind.HIGH if crenelation is Crenelation.HIGH else LaunchKind.LOW


def crenelation_of(launch: LaunchKind) -> Crenelation:
    """The crenelation a LOW or HIGH launch starts from (HIGH for any other kind)."""
    return Crenelation.LOW if launch is LaunchKind.LOW else Crenelation.HIGH


def siege_reach(board: Board) -> float:
    """From the siege engine's centre to the die's start, mm: half the
    engine's width, half the die and the ledge gap
    (:data:`~warlords_sim.physics.ledge.LEDGE_GAP_MM`): the die starts just
    off the engine's edge in the flick direction."""
    return board.siege_engine.width_mm / 2.0 + board.die.size_mm / 2.0 + LEDGE_GAP_MM


def flick_direction(velocity: tuple[float, float]) -> tuple[float, float]:
    """The unit vector of ``velocity`` (mm/s); +y for a zero velocity."""
    speed = math.hypot(*velocity)
    return (velocity[0] / speed, velocity[1] / speed) if speed > 0 else (0.0, 1.0)


def siege_start_point(
    board: Board, engine: tuple[float, float], direction: tuple[float, float]
) -> tuple[float, float]:
    """Where a die flicked off the siege engine at ``engine`` (centre, mm)
    along the unit vector ``direction`` starts, mm (:func:`siege_reach`
    along it). The caller checks it is on the board."""
    reach = siege_reach(board)
    return engine[0] + direction[0] * reach, engine[1] + direction[1] * reach


def standard_world(board: Board, engine: str = "2.5d") -> Physics:
    """The ``flick`` command's set-up on ``engine`` (one of ``ENGINES``): all
    four castles, every seat's three centre-ring pins added in seat order
    (:func:`~warlords_sim.board.seat_pins`; the order enters the digests).

    Raises:
        ValueError: an unknown engine.
        ImportError: the reference engine without MuJoCo installed.
        WorldError: a board the engine cannot simulate.
    """
    return make_world(board, engine, pins=seat_pins(board))


def flick_start(
    board: Board,
    world: Physics,
    at: tuple[float, float] | None,
    seat_area: tuple[int, int] | None,
    launch: LaunchKind,
    velocity: tuple[float, float],
) -> FlickStart:
    """Where a flick of the ``flick`` command starts: from ``seat_area``
    (seat 0..3, front area 1..3) at the LOW or HIGH crenelation, or at
    ``at`` (mm) on the table, at a crenelation's height, or off the siege
    engine placed (in ``world``) as close to ``at`` as it fits.

    Raises:
        FlickSetupError: an unknown seat or area, ``at`` off the board, no
            room for the siege engine, or a siege start off the board.
    """
    if seat_area is not None:
        seat, area = seat_area
        try:
            spot = board.launch_spot(seat, area, crenelation_of(launch))
        except BoardError as e:
            raise FlickSetupError(str(e).split(": ", 1)[-1]) from None
        return FlickStart((spot.x, spot.y), spot.height_mm)
    if at is None:
        raise FlickSetupError("a flick starts at a point or from a seat's front area: give one")
    x, y = at
    if not board.on_board(x, y):
        h = board.half_size_mm
        raise FlickSetupError(f"{x:g},{y:g} is off the board (|x|, |y| <= {h:g} mm)", "at")
    if launch is LaunchKind.TABLE:
        return FlickStart((x, y), 0.0)
    if launch is LaunchKind.SIEGE:
        try:
            ex, ey = world.free_spot_near(x, y, board.siege_engine.width_mm)
        except WorldError as e:
            raise FlickSetupError(str(e)) from None
        world.place_siege_engine(ex, ey)
        sx, sy = siege_start_point(board, (ex, ey), flick_direction(velocity))
        if not board.on_board(sx, sy):
            raise FlickSetupError(
                f"the siege engine at ({ex:.1f}, {ey:.1f}) launches off the board"
            )
        return FlickStart((sx, sy), board.siege_engine.launch_height_mm, (ex, ey))
    height = board.low_crenelation_mm if launch is LaunchKind.LOW else board.high_crenelation_mm
    return FlickStart((x, y), height)
