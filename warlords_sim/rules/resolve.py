"""After a flick settles: where every die now is.

* Dice Leaving the Board: "Any die that leaves the board for any reason is
  eliminated from play for the round." With side walls: "No dice can leave
  the play area without first making contact with the board. Dice that
  leave play over the walls are removed from play." A die flicked from the
  supply (a crenelation) that leaves over a wall before it ever touched
  down returns to the supply (house rule ``unlanded_wall_exit``); a die
  flicked from the board, or shot from the siege engine, was on the board
  before the flick and is removed from play (RULES.md).
* "The active player's final die may not leave the board to end a round. If
  it leaves the board it is returned to the active player's castle."
* End of a Round and Damage: "Any die that is entirely inside a castle
  gateway is moved to the back of the courtyard without changing its face."
  A die across the line between a gateway and its courtyard (inside the two
  together, neither alone) stays, scoring nothing; under house rule
  ``gateway_straddle = "to_courtyard"`` it is moved as a gateway die is.
"""

from __future__ import annotations

from dataclasses import dataclass

from warlords_sim.physics.regions import footprint
from warlords_sim.physics.types import DiePose, EventKind, FlickResult, LaunchKind, RegionKind
from warlords_sim.rules.game import GameConfig, GameState, Location

__all__ = ["Placement", "place_after_move", "place_dice", "straddled_castle"]


@dataclass(frozen=True)
class Placement:
    """What a flick did to the dice's places."""

    eliminated: tuple[int, ...]
    returned: tuple[int, ...]  # to the supply (active final die; unlanded wall exit)
    gateway_moves: tuple[int, ...]  # moved from a gateway to the back of a courtyard
    scored: tuple[int, ...]  # now in a courtyard
    #: left across the line between a gateway and its courtyard, scoring
    #: nothing (house rule ``gateway_straddle = "stays"``)
    straddling: tuple[int, ...] = ()


#: Launches of a die that is on the board before its flick: it has made
#: contact with the board already (a siege shot's die is picked up from it).
_FROM_THE_BOARD = (LaunchKind.TABLE, LaunchKind.SIEGE)


def _touched_board_before_exit(result: FlickResult, die: int) -> bool:
    """Had the flicked ``die`` made contact with the board before it left
    it ("No dice can leave the play area without first making contact with
    the board")? A die flicked from the board or shot from the siege engine
    had (it lay on the board); a die from the supply only if it landed
    (a LANDING event of it before its EXIT).

    It used to look for the LANDING first and return "not landed" at the
    EXIT, so that its rule for dice from the board was never reached: a die
    flicked from the board over a wall went back to the supply."""
    if result.flick.launch in _FROM_THE_BOARD:
        return True
    for e in result.events:
        if e.die == die and e.kind is EventKind.LANDING:
            return True
        if e.die == die and e.kind is EventKind.EXIT:
            return False
    return False


def _to_back_of_courtyard(state: GameState, die: int, seat: int) -> DiePose:
    """Move a gateway die to a free place at the back of ``seat``'s courtyard."""
    b = state.board
    castle = b.castles[seat]
    phys = state.physics
    bx, by = castle.back_of_courtyard
    size = b.die.size_mm
    x, y = phys.free_spot_near(bx, by, size + 1.0, exclude_die=die)
    if not castle.courtyard.contains(x, y, size * 0.75):
        c = castle.courtyard
        cands = [
            (c.x0 + size * (0.75 + 1.1 * i), c.y0 + size * (0.75 + 1.1 * j))
            for i in range(int(c.width / (1.1 * size)))
            for j in range(int(c.height / (1.1 * size)))
        ]
        cands.sort(key=lambda p: (p[0] - bx) ** 2 + (p[1] - by) ** 2)
        for cx, cy in cands:
            if c.contains(cx, cy, size * 0.75) and phys.free_spot_near(cx, cy, size, die) == (
                cx,
                cy,
            ):
                x, y = cx, cy
                break
    phys.move_die(die, x, y, 0.0)
    return phys.pose(die)


def straddled_castle(config: GameConfig, pose: DiePose) -> int | None:
    """The seat of the castle whose gateway and courtyard together hold a die
    resting at ``pose`` entirely, neither of them alone (each corner of its
    footprint in the courtyard or in one of the castle's gateways, some in
    each); None if there is none. A settled die never reaches into a wall
    (see :func:`~warlords_sim.physics.regions.classify`), so its corners
    inside the two mean the die is."""
    if pose.region.kind in (RegionKind.COURTYARD, RegionKind.GATEWAY, RegionKind.OFF_BOARD):
        return None
    b = config.board
    corners = footprint(pose.x, pose.y, pose.angle, b.die.size_mm)
    for seat in config.castle_seats():
        castle = b.castles[seat]
        in_yard = [castle.courtyard.contains(x, y) for x, y in corners]
        in_gate = [any(g.contains(x, y) for g in castle.gateways) for x, y in corners]
        if (
            any(in_yard)
            and any(in_gate)
            and all(a or g for a, g in zip(in_yard, in_gate, strict=True))
        ):
            return seat
    return None


def _place(
    state: GameState,
    die: int,
    pose: DiePose,
    gate: list[int],
    eliminated: list[int],
    straddling: list[int],
) -> None:
    """Where ``die``, at rest at ``pose``, now is: a courtyard, the board, or
    off it; a die entirely inside a gateway is moved to the back of its
    courtyard first (noted in ``gate``), and so is one across the line
    between a gateway and its courtyard under house rule ``gateway_straddle
    = "to_courtyard"`` (else it stays, noted in ``straddling``)."""
    d = state.dice[die]
    across = straddled_castle(state.config, pose)
    if across is not None and state.config.house_rules.gateway_straddle == "to_courtyard":
        pose = _to_back_of_courtyard(state, die, across)
        gate.append(die)
    elif across is not None:
        straddling.append(die)
    if pose.region.kind is RegionKind.GATEWAY and pose.region.seat is not None:
        pose = _to_back_of_courtyard(state, die, pose.region.seat)
        gate.append(die)
    d.pose = pose
    if pose.region.kind is RegionKind.COURTYARD:
        d.location = Location.COURTYARD
    elif pose.region.kind is RegionKind.OFF_BOARD:
        state.physics.remove_die(die)
        d.pose = None
        d.location = Location.ELIMINATED
        eliminated.append(die)
    else:
        d.location = Location.BOARD


def place_after_move(state: GameState) -> Placement:
    """Update every die's place after dice were moved by an ability (a Spy
    set down, a pin pulled or moved: what stood on or leaned against it has
    settled), with the same bookkeeping as a flick's landing: a Spy set in a
    courtyard counts there and is no longer in play, one set in a gateway is
    moved to the back of the courtyard."""
    gate: list[int] = []
    eliminated: list[int] = []
    across: list[int] = []
    phys = state.physics
    for die in sorted(phys.dice):
        if state.dice[die].location in (Location.BOARD, Location.COURTYARD):
            _place(state, die, phys.pose(die), gate, eliminated, across)
    for i in eliminated:
        state.eliminated[state.config.owner(i)] += 1
    scored = tuple(sorted(i for i in phys.dice if state.dice[i].location is Location.COURTYARD))
    return Placement(tuple(eliminated), (), tuple(gate), scored, tuple(across))


def place_dice(state: GameState, result: FlickResult) -> Placement:
    """Update every die's place from ``result`` (and the physics)."""
    hr = state.config.house_rules
    flicked = result.flick.die
    eliminated: list[int] = []
    returned: list[int] = []
    gate: list[int] = []
    across: list[int] = []
    for die in result.exited:
        d = state.dice[die]
        d.pose = None
        if (
            die == flicked
            and state.side_walls
            and hr.unlanded_wall_exit == "return"
            and not _touched_board_before_exit(result, die)
        ):
            d.location = Location.SUPPLY
            returned.append(die)
        else:
            d.location = Location.ELIMINATED
            eliminated.append(die)
    for die, pose in result.poses.items():
        _place(state, die, pose, gate, eliminated, across)
    # the active player's final die returns to the castle instead of ending the round
    active = state.active
    own_out = [i for i in eliminated if state.config.owner(i) == active]
    if own_out and hr.active_final_die == "returns" and not state.in_play(active):
        back = flicked if flicked in own_out else own_out[-1]
        state.dice[back].location = Location.SUPPLY
        eliminated.remove(back)
        returned.append(back)
    for i in eliminated:
        state.eliminated[state.config.owner(i)] += 1
    scored = tuple(sorted(i for i in result.poses if state.dice[i].location is Location.COURTYARD))
    return Placement(tuple(eliminated), tuple(returned), tuple(gate), scored, tuple(across))
