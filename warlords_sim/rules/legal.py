"""Which actions are legal now, and why an action is not.

:func:`legal_actions` describes the choices (which dice, which launch spots,
which pending ability); velocities are continuous, so flicks are described
by the die or spot, not enumerated. :func:`check` raises the specific
:class:`~warlords_sim.rules.errors.IllegalActionError` for an illegal action.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from warlords_sim.board import Crenelation
from warlords_sim.physics.footprint import (
    Polygon,
    polygons_overlap,
    rect_polygon,
    square,
    what_overlaps,
)
from warlords_sim.physics.regions import classify, footprint, overlaps_moat
from warlords_sim.physics.types import RegionKind
from warlords_sim.rules import errors as err
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
from warlords_sim.rules.flick_setup import MAX_FLICK_SPEED, MAX_FLICK_SPIN, speed_problem
from warlords_sim.rules.game import GameState, Location, Pending, PendingKind

__all__ = [
    "MAX_FLICK_SPEED",
    "Legal",
    "SiegeStart",
    "check",
    "check_spy_spot",
    "check_start",
    "doubles",
    "is_legal",
    "legal_actions",
    "open_holes",
]

_ON_BOARD = (RegionKind.BOARD, RegionKind.MOAT)


@dataclass(frozen=True)
class Legal:
    """The legal choices of the active player now.

    Attributes:
        player, seat: who acts, and from which castle.
        pending: the ability waiting to be used or declined (None: a turn's flick).
        supply_spots: (area, crenelation) pairs a supply flick may start from
            (empty if the supply is empty or no supply flick is allowed now).
        board_dice: own dice that may be flicked from the board.
        siege_dice: own dice that may be flicked from the siege engine.
        spy_die: the Spy to move, if a Spy is pending.
        pins: holes whose pin a Sapper may pull.
        ring_pins, open_holes: a center-ring pin move's sources and targets.
        can_decline: whether :class:`Decline` is legal.
    """

    player: int
    seat: int
    pending: Pending | None
    supply_spots: tuple[tuple[int, Crenelation], ...]
    board_dice: tuple[int, ...]
    siege_dice: tuple[int, ...]
    spy_die: int | None
    pins: tuple[int, ...]
    ring_pins: tuple[int, ...]
    open_holes: tuple[int, ...]
    can_decline: bool

    @property
    def can_flick(self) -> bool:
        return bool(self.supply_spots or self.board_dice or self.siege_dice)


def doubles(state: GameState, player: int) -> list[int]:
    """``player``'s dice that form doubles: two or more of their dice on the
    board, outside the center ring, showing the same face (rulebook, The
    Siege Engine; house rule ``siege_doubles``)."""
    hr = state.config.house_rules
    where = [Location.BOARD]
    if hr.siege_doubles == "any_own_in_play" and hr.courtyard_dice_in_play:
        where.append(Location.COURTYARD)
    by_face: dict[int, list[int]] = {}
    for d in state.dice_of(player, *where):
        if d.pose is None or d.pose.region.kind is RegionKind.CENTER_RING:
            continue
        by_face.setdefault(d.pose.face, []).append(d.id)
    return sorted(i for ids in by_face.values() if len(ids) >= 2 for i in ids)


def flickable(state: GameState, player: int) -> list[int]:
    """``player``'s dice that may be flicked from where they rest."""
    where = [Location.BOARD]
    if state.config.house_rules.courtyard_dice_in_play:
        where.append(Location.COURTYARD)
    return [d.id for d in state.dice_of(player, *where)]


def hole_covered(state: GameState, hole: int) -> bool:
    """True if a die rests over ``hole`` (dice may not be moved to place a pin)."""
    hx, hy = state.board.holes[hole]
    reach = state.board.pin.radius_mm + state.board.die.size_mm / 2.0
    for d in state.dice.values():
        p = d.pose
        if p is None or d.location is Location.SUPPLY or d.location is Location.ELIMINATED:
            continue
        # distance from the hole to the die's square, in the die's frame
        c, s = math.cos(-p.angle), math.sin(-p.angle)
        dx, dy = hx - p.x, hy - p.y
        lx, ly = abs(c * dx - s * dy), abs(s * dx + c * dy)
        if (
            max(lx, ly) < reach
            and math.hypot(
                max(lx - state.board.die.size_mm / 2.0, 0.0),
                max(ly - state.board.die.size_mm / 2.0, 0.0),
            )
            < state.board.pin.radius_mm
        ):
            return True
    return False


def open_holes(state: GameState) -> list[int]:
    """Holes without a pin and not covered by a die."""
    pins = set(state.physics.pins)
    return [
        h for h in range(len(state.board.holes)) if h not in pins and not hole_covered(state, h)
    ]


def legal_actions(state: GameState) -> Legal:
    """The legal choices now (see :class:`Legal`).

    Raises:
        GameOverError: the game is over.
    """
    if state.over:
        raise err.GameOverError("the game is over")
    p = state.active
    seat = state.seat_of(p)
    pend = state.pending
    spots: tuple[tuple[int, Crenelation], ...] = ()
    all_spots = tuple((a, c) for a in range(1, 4) for c in (Crenelation.HIGH, Crenelation.LOW))
    board_dice: list[int] = []
    siege: list[int] = []
    spy: int | None = None
    pins: tuple[int, ...] = ()
    ring: tuple[int, ...] = ()
    holes: tuple[int, ...] = ()
    if pend is None or pend.kind is PendingKind.GENERAL:
        if state.supply(p):
            spots = all_spots
        board_dice = flickable(state, p)
        siege = doubles(state, p)
        if pend is not None:
            barred = generals_flicked(state)
            board_dice = [i for i in board_dice if i not in barred]
            siege = [i for i in siege if i not in barred]
    elif pend.kind is PendingKind.SCOUT:
        board_dice = [pend.die] if pend.die in flickable(state, p) else []
        siege = [pend.die] if pend.die in doubles(state, p) else []
    elif pend.kind is PendingKind.SPY:
        spy = pend.die
    elif pend.kind is PendingKind.SAPPER:
        pins = state.physics.pins
    elif pend.kind is PendingKind.RING:
        ring_holes = set(state.board.center_ring.hole_indices)
        ring = tuple(h for h in state.physics.pins if h in ring_holes)
        holes = tuple(open_holes(state))
    return Legal(
        player=p,
        seat=seat,
        pending=pend,
        supply_spots=spots,
        board_dice=tuple(board_dice),
        siege_dice=tuple(siege),
        spy_die=spy,
        pins=pins,
        ring_pins=ring,
        open_holes=holes,
        can_decline=pend is not None,
    )


def _check_velocity(v: tuple[float, float], spin: float) -> None:
    if not all(math.isfinite(x) for x in (*v, spin)):
        raise err.BadFlickError(f"flick velocity and spin must be finite, got {v}, {spin}")
    speed = math.hypot(*v)
    if speed <= 0.0:
        raise err.BadFlickError("a flick must move the die (dice cannot be pushed): speed is 0")
    problem = speed_problem(speed)
    if problem is not None:
        raise err.BadFlickError(problem)
    if abs(spin) > MAX_FLICK_SPIN:  # the physics' own limit, refused before anything moves
        raise err.BadFlickError(
            f"flick spin {spin:.10g} rad/s is over the maximum of {MAX_FLICK_SPIN:.0f} rad/s"
        )


def _check_own_die(state: GameState, die: int) -> None:
    d = state.dice.get(die)
    if d is None:
        raise err.DieNotInPlayError(f"there is no die {die}")
    if d.owner != state.active:
        raise err.NotYourDieError(
            f"die {die} belongs to player {d.owner}; players can never flick dice "
            f"belonging to other players"
        )


def generals_flicked(state: GameState) -> set[int]:
    """Dice a pending General's second flick may not use: "The die showing
    the 6 can not be flicked a second time" (rulebook, Die Abilities). Under
    house rule ``general_chain = "rulebook"`` every die flicked this turn
    that shows a 6; under ``"last_general_only"`` the pending General only."""
    pend = state.pending
    barred = {pend.die} if pend is not None else set()
    if state.config.house_rules.general_chain == "rulebook":
        for i in state.turn_dice:
            pose = state.dice[i].pose
            if pose is not None and pose.face == 6:
                barred.add(i)
    return barred


def check_spy_spot(state: GameState, die: int, x: float, y: float) -> None:
    """Raise :class:`SpyPlacementError` unless the Spy may be put at (x, y)."""
    b = state.board
    d = state.dice[die]
    angle = d.pose.angle if d.pose is not None else 0.0
    half = b.half_size_mm - b.die.size_mm / 2.0
    if not (math.isfinite(x) and math.isfinite(y)) or abs(x) > half or abs(y) > half:
        raise err.SpyPlacementError(f"({x:g}, {y:g}) mm is not on the board")
    region = classify(b, x, y, angle, state.config.castle_seats())
    corners = footprint(x, y, angle, b.die.size_mm)
    if region.kind is RegionKind.CENTER_RING or any(
        math.hypot(cx, cy) < b.center_ring.radius_mm for cx, cy in corners
    ):
        raise err.SpyPlacementError("a Spy may be moved anywhere outside of the center ring")
    if region.kind is RegionKind.MOAT or overlaps_moat(b, x, y, angle, state.config.castle_seats()):
        raise err.SpyPlacementError("a Spy may not be moved within any castle moat")
    if not state.config.house_rules.spy_into_castle and _reaches_into_castle(state, x, y, angle):
        raise err.SpyPlacementError(
            "a Spy may not be moved into a castle, not even in part "
            "(house rule spy_into_castle = false)"
        )
    phys = state.physics
    size = b.die.size_mm
    others: dict[int, Polygon] = {}
    for i in phys.dice:
        p = phys.pose(i)
        if i != die and p.elevation_mm < size:  # a die standing on a wall top is above it
            others[i] = square(p.x, p.y, p.angle, size)
    blocker = what_overlaps(
        square(x, y, angle, size),  # the Spy keeps its turn (Physics.move_die)
        b,
        state.config.castle_seats(),
        state.side_walls,
        phys.pins,
        None,  # the siege engine stands only during its shot (rules.flicks.run_flick)
        others,
    )
    if blocker is not None:
        raise err.SpyPlacementError(
            f"({x:g}, {y:g}) mm is on top of a wall, pin or die ({_spot_name(blocker)})"
        )


def _reaches_into_castle(state: GameState, x: float, y: float, angle: float) -> bool:
    """Would a die set down at (x, y) mm, turned ``angle`` rad, have any part
    of its footprint inside a standing castle's courtyard or gateway?

    ``spy_into_castle = false`` reads "anywhere on the board" as outside the
    castles, and "into a castle" as the rulebook reads the Spy's other bans
    ("outside of the center ring", "not within any castle moat"): any part
    of the die. It used to refuse only a die entirely inside (the region a
    die scores in), so a Spy could be set down 15.5 of its 16 mm inside a
    courtyard, straddling its gateway (RULES.md)."""
    b = state.board
    poly = square(x, y, angle, b.die.size_mm)
    for seat in state.config.castle_seats():
        castle = b.castles[seat]
        for r in (castle.courtyard, *castle.gateways):
            if polygons_overlap(poly, rect_polygon(r.x0, r.y0, r.x1, r.y1)):
                return True
    return False


def _spot_name(blocker: str) -> str:
    """A blocker named for players: no die or hole numbers."""
    if blocker.startswith("die "):
        return "a die"
    if blocker.startswith("the pin"):
        return "a pin"
    return blocker


def is_legal(state: GameState, action: Action) -> bool:
    """True if :func:`check` accepts ``action``."""
    try:
        check(state, action)
    except err.IllegalActionError:
        return False
    return True


def check(state: GameState, action: Action) -> None:
    """Raise the specific :class:`IllegalActionError` if ``action`` is not legal now."""
    check_start(state, action)


SiegeStart = tuple[tuple[float, float], tuple[float, float]]


def check_start(state: GameState, action: Action) -> SiegeStart | None:
    """:func:`check`; for a legal siege shot also return the (engine centre,
    die start) it computed on the way (:func:`~warlords_sim.rules.flicks.siege_start`),
    so that the caller need not search for the engine's place again; else None.

    Raises:
        IllegalActionError: as :func:`check`.
    """
    legal = legal_actions(state)
    if isinstance(action, Decline):
        _check_decline(legal)
        return None
    if isinstance(action, SupplyFlick):
        _check_supply_flick(state, legal, action)
        return None
    if isinstance(action, BoardFlick | SiegeShot):
        return _check_die_flick(state, legal, action)
    if isinstance(action, SpyMove):
        _check_spy_move(state, legal, action)
        return None
    if isinstance(action, SapperPull):
        _check_sapper_pull(legal, action)
        return None
    if isinstance(action, RingPinMove):
        _check_ring_pin_move(legal, action)
        return None
    raise err.IllegalActionError(f"not an action: {action!r}")


def _pending_kind(legal: Legal) -> PendingKind | None:
    """The kind of the ability pending, or None for a turn's flick."""
    return legal.pending.kind if legal.pending is not None else None


def _check_decline(legal: Legal) -> None:
    """A :class:`Decline` needs a pending ability to decline.

    Raises:
        CannotDeclineError: nothing is pending.
    """
    if not legal.can_decline:
        raise err.CannotDeclineError(
            "nothing to decline: a turn's flick is not optional while you have dice in play"
        )


def _check_flick(
    state: GameState, legal: Legal, action: SupplyFlick | BoardFlick | SiegeShot
) -> None:
    """What every flick needs: no ability pending other than a Scout's or a
    General's second flick, a velocity (mm/s) and spin (rad/s) in range, and a
    finger strike within the die's strike limit (mm from its centre).

    Raises:
        WrongPhaseError, BadFlickError: in that order.
    """
    kind = _pending_kind(legal)
    if kind not in (None, PendingKind.SCOUT, PendingKind.GENERAL):
        raise err.WrongPhaseError(
            f"a {kind.value if kind else ''} ability is pending: use or decline it"
        )
    _check_velocity(action.velocity, action.spin)
    half = state.board.die.strike_limit_mm
    if not (math.isfinite(action.strike_mm) and abs(action.strike_mm) <= half):
        raise err.BadFlickError(
            f"the finger strikes within the die, -{half:g}..{half:g} mm from its centre, "
            f"got strike_mm {action.strike_mm}"
        )


def _check_supply_flick(state: GameState, legal: Legal, action: SupplyFlick) -> None:
    """A flick of a new die from the supply: :func:`_check_flick`, no Scout
    pending, front area 1..3, a crenelation, face 1..6 and a die in the supply.

    Raises:
        WrongPhaseError, BadFlickError, WrongDieError, BadLaunchError,
        EmptySupplyError: in that order.
    """
    _check_flick(state, legal, action)
    if _pending_kind(legal) is PendingKind.SCOUT:
        raise err.WrongDieError("a Scout's second flick is of the Scout itself, not a new die")
    if not 1 <= action.area <= 3:
        raise err.BadLaunchError(
            f"dice from the supply are flicked from the front three areas (1..3), got {action.area}"
        )
    if not isinstance(action.crenelation, Crenelation):
        raise err.BadLaunchError("dice from the supply are flicked from a high or low crenelation")
    if not 1 <= action.face <= 6:
        raise err.BadLaunchError(f"a die's face is 1..6, got {action.face}")
    if not state.supply(state.active):
        raise err.EmptySupplyError(f"player {state.active} has no die left in the supply")


def _check_die_flick(
    state: GameState, legal: Legal, action: BoardFlick | SiegeShot
) -> SiegeStart | None:
    """A flick of one's own die on the board, or a siege shot of it:
    :func:`_check_flick`, the Scout's die for a Scout's second flick, not a
    die barred from a General's (:func:`generals_flicked`), a die on the
    board; a siege shot needs one of a pair (doubles) and a place for the
    engine.

    Returns:
        For a siege shot the (engine centre, die start) in mm
        (:func:`~warlords_sim.rules.flicks.siege_start`), else None.

    Raises:
        WrongPhaseError, BadFlickError, DieNotInPlayError, NotYourDieError,
        WrongDieError, NotDoublesError: in that order; ``siege_start``'s
        BadFlickError last (the die's start off the board).
    """
    _check_flick(state, legal, action)
    pend = legal.pending
    kind = _pending_kind(legal)
    _check_own_die(state, action.die)
    if pend is not None and kind is PendingKind.SCOUT and action.die != pend.die:
        raise err.WrongDieError(f"the Scout's second flick must be of die {pend.die}")
    if pend is not None and kind is PendingKind.GENERAL and action.die in generals_flicked(state):
        raise err.WrongDieError("the die showing the 6 can not be flicked a second time")
    if action.die not in flickable(state, state.active):
        loc = state.dice[action.die].location.value
        raise err.DieNotInPlayError(f"die {action.die} is not on the board (it is {loc})")
    if not isinstance(action, SiegeShot):
        return None
    if action.die not in legal.siege_dice:
        raise err.NotDoublesError(
            f"die {action.die} is not one of a pair of your dice on the board outside "
            f"the center ring; the siege engine needs doubles"
        )
    from warlords_sim.rules.flicks import siege_start

    return siege_start(state, action.die, action.velocity)


def _check_spy_move(state: GameState, legal: Legal, action: SpyMove) -> None:
    """Moving the pending Spy (the die that earned it) to a spot it may take
    (:func:`check_spy_spot`).

    Raises:
        WrongPhaseError, WrongDieError, SpyPlacementError: in that order.
    """
    pend = legal.pending
    if _pending_kind(legal) is not PendingKind.SPY or pend is None:
        raise err.WrongPhaseError("no Spy (a die showing 3) is pending")
    if action.die != pend.die:
        raise err.WrongDieError(f"the Spy is die {pend.die}, not die {action.die}")
    check_spy_spot(state, action.die, action.x, action.y)


def _check_sapper_pull(legal: Legal, action: SapperPull) -> None:
    """A pending Sapper pulling a pin that stands.

    Raises:
        WrongPhaseError, PinError: in that order.
    """
    if _pending_kind(legal) is not PendingKind.SAPPER:
        raise err.WrongPhaseError("no Sapper (a die showing 4) is pending")
    if action.hole not in legal.pins:
        raise err.PinError(f"hole {action.hole} holds no pin to pull")


def _check_ring_pin_move(legal: Legal, action: RingPinMove) -> None:
    """A pending ring move: a centre-ring pin to another, open, hole.

    Raises:
        WrongPhaseError, PinError: in that order.
    """
    if _pending_kind(legal) is not PendingKind.RING:
        raise err.WrongPhaseError("no die landed entirely within the center ring this flick")
    if action.from_hole not in legal.ring_pins:
        raise err.PinError(f"hole {action.from_hole} is not a center-ring hole holding a pin")
    if action.to_hole == action.from_hole or action.to_hole not in legal.open_holes:
        raise err.PinError(
            f"hole {action.to_hole} is not an open hole (it holds a pin, is under a die, "
            f"or does not exist); dice may not be moved to place a pin"
        )
