"""Damage, the first player of later rounds, and the winner.

Rulebook, End of a Round and Damage: "Any die that lands within a castle's
courtyard counts against that castle's owning player based on its face
value ... The total value of dice in the courtyard is considered damage to
the castle." Rounds and Setup: the first player of later rounds and both
tie-breaks.
"""

from __future__ import annotations

from warlords_sim.rules.game import GameState, Location

__all__ = [
    "courtyard_dice",
    "first_player_after",
    "round_damage",
    "scored_on_opponents",
    "winners",
    "winners_text",
]


def courtyard_dice(state: GameState) -> list[tuple[int, int, int]]:
    """(die, castle seat, face) of every die resting entirely inside a courtyard."""
    out = []
    for d in state.dice.values():
        if d.location is Location.COURTYARD and d.pose is not None:
            seat = d.pose.region.seat
            if seat is not None:
                out.append((d.id, seat, d.pose.face))
    return sorted(out)


def round_damage(state: GameState) -> list[int]:
    """Damage to each player's castle: the face sum of the dice in its
    courtyard (the owner's own dice included)."""
    dmg = [0] * state.players
    for _, seat, face in courtyard_dice(state):
        owner = state.player_at(seat)
        if owner is not None:
            dmg[owner] += face
    return dmg


def scored_on_opponents(state: GameState) -> list[int]:
    """Each player's face total of their own dice in opponents' courtyards
    (the final tie-break: "dice in opponent's towers for the current round")."""
    out = [0] * state.players
    for die, seat, face in courtyard_dice(state):
        owner = state.config.owner(die)
        if state.player_at(seat) != owner:
            out[owner] += face
    return out


def first_player_after(state: GameState, basis: list[int]) -> int:
    """The first player of the next round: the most damage (``basis``, per
    player); ties go to the tied player closest to the right of the lowest
    scoring player. "Right" of a seated player is the previous seat in turn
    order (play proceeds clockwise, to the left). If several players share
    the lowest score, the anchor is the first of them in turn order from this
    round's first player."""
    n = state.players
    order = sorted(range(n), key=lambda p: state.seats[p])  # clockwise turn order
    most = max(basis)
    tied = [p for p in range(n) if basis[p] == most]
    if len(tied) == 1:
        return tied[0]
    low = min(basis)
    start = order.index(state.first_player)
    clockwise = [order[(start + k) % n] for k in range(n)]
    anchor = next(p for p in clockwise if basis[p] == low)
    a = order.index(anchor)
    for k in range(1, n + 1):
        cand = order[(a - k) % n]
        if cand in tied:
            return cand
    return tied[0]  # pragma: no cover - the loop always finds one


def winners(totals: list[int], final_scored: list[int]) -> tuple[int, ...]:
    """The lowest total damage wins; a tie goes to the tied player with the
    highest total of dice in opponents' courtyards in the final round; a tie
    there too is shared."""
    low = min(totals)
    tied = [p for p, t in enumerate(totals) if t == low]
    if len(tied) == 1:
        return (tied[0],)
    best = max(final_scored[p] for p in tied)
    return tuple(p for p in tied if final_scored[p] == best)


def _names(players: list[int]) -> str:
    names = [f"P{p}" for p in players]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def winners_text(totals: list[int], final_scored: list[int]) -> str:
    """One line saying who won and which rule decided it (RULES.md, Winner
    and Final tie-break), for the command line and the window: the lowest
    total damage; among players tied on it, the highest total of dice in
    opponents' courtyards in the final round ("in opponent's towers for
    the current round"); tied there too, a shared win.

    Args:
        totals: total damage per player.
        final_scored: per player, the face total of their dice in
            opponents' courtyards at the end of the final round
            (:func:`scored_on_opponents`; ``RoundRecord.scored_on_opponents``).
    """
    won = winners(totals, final_scored)
    low = min(totals)
    tied = [p for p, t in enumerate(totals) if t == low]
    if len(tied) == 1:
        return f"Winner: P{won[0]} (lowest total damage {low})"
    tie = f"{_names(tied)} tied on {low} damage"
    scores = ", ".join(f"P{p} {final_scored[p]}" for p in tied)
    if len(won) == 1:
        return (
            f"Winner: P{won[0]} ({tie}; tie-break: most in opponents' courtyards "
            f"in the final round, {scores})"
        )
    return (
        f"Shared win: {_names(list(won))} ({tie}, and tied on the tie-break, "
        f"dice in opponents' courtyards in the final round: {scores})"
    )
