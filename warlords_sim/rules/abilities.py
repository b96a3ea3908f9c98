"""Die abilities and the center ring: which one a flick earns, and using it.

Rulebook, Die Abilities: "Dice landing on the board (outside the center
ring) are able to be used based on their face value": 1 Scout (flick it a
second time), 2 and 5 none, 3 Spy (move it anywhere outside the center ring,
not within a moat), 4 Sapper (pull and remove any pin), 6 General (flick a
second die, not the 6 itself). "A die that is flicked from the board ...
that does not change its face value is not allowed to use the special
ability of its facing. Dice of another player that are moved during a turn
and change facing do not activate a new ability" (only the flicked die earns).

The Center Ring: "If the active die lands entirely within the center ring
... the player may remove any peg from the center and add it to any open
hole on the board. The active die must have started the turn outside of the
center ring ... The face value of dice landing within the center ring of
pegs is never relevant."
"""

from __future__ import annotations

from warlords_sim.physics.types import FlickResult, LaunchKind, RegionKind
from warlords_sim.rules.game import GameState, Location, Pending, PendingKind
from warlords_sim.rules.legal import open_holes

__all__ = ["ABILITY_BY_FACE", "earned", "pull_pin", "move_ring_pin", "move_spy"]

#: The face that earns each die ability (rulebook, "Die abilities"); 2 and 5 earn none.
ABILITY_BY_FACE = {
    1: PendingKind.SCOUT,
    3: PendingKind.SPY,
    4: PendingKind.SAPPER,
    6: PendingKind.GENERAL,
}


def earned(state: GameState, result: FlickResult) -> Pending | None:
    """The ability (or ring pin move) the flicked die earns, if any and if usable."""
    die = result.flick.die
    d = state.dice[die]
    pose = d.pose
    if d.location is not Location.BOARD or pose is None:
        return None
    if pose.region.kind is RegionKind.CENTER_RING:
        if die in state.ring_at_turn_start:
            return None
        ring = set(state.board.center_ring.hole_indices)
        if not any(h in ring for h in state.physics.pins) or not open_holes(state):
            return None
        return Pending(PendingKind.RING, die)
    hr = state.config.house_rules
    if state.second_flick and not hr.second_flick_earns_ability:
        return None
    from_board = result.flick.launch in (LaunchKind.TABLE, LaunchKind.SIEGE)
    if from_board and pose.face == result.initial_face:
        return None
    if pose.cocked and hr.cocked_die == "no_ability":
        return None
    kind = ABILITY_BY_FACE.get(pose.face)
    if kind is PendingKind.SAPPER and not state.physics.pins:
        return None
    if kind is PendingKind.GENERAL:
        others = [i for i in state.in_play(state.active) if i != die]
        if not others:
            return None
    return Pending(kind, die) if kind is not None else None


def move_spy(state: GameState, die: int, x: float, y: float) -> None:
    """Move the Spy (checked) to (x, y), same face and turn."""
    state.physics.move_die(die, x, y)
    state.dice[die].pose = state.physics.pose(die)


def pull_pin(state: GameState, hole: int) -> None:
    """The Sapper pulls the pin in ``hole``; it is out until the round ends."""
    state.physics.remove_pin(hole)
    state.pulled_pins += 1


def move_ring_pin(state: GameState, from_hole: int, to_hole: int) -> None:
    """Move a center-ring pin to an open hole."""
    state.physics.remove_pin(from_hole)
    state.physics.add_pin(to_hole)
