"""Settled places of dice, digests and human summaries of actions."""

from __future__ import annotations

from warlords_sim.bots.play import GameRecord
from warlords_sim.physics import FlickResult, World
from warlords_sim.replay.format import DieRec
from warlords_sim.replay.sandbox import SandboxFlick
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
from warlords_sim.rules.engine import Game, Outcome
from warlords_sim.rules.game import GameState, Location

__all__ = ["Snapshot", "as_state", "digest_of", "snapshot", "summarize", "diff"]

#: die id -> its settled place
Snapshot = dict[int, DieRec]

Target = Game | GameState | GameRecord | World


def as_state(target: Target) -> GameState | World:
    """The :class:`GameState` (or sandbox :class:`World`) behind ``target``."""
    if isinstance(target, Game | GameRecord):
        return target.state
    return target


def digest_of(target: Target) -> str:
    """SHA-256 hex of the settled physics state (the physics port's
    ``digest``: ``World.digest`` on the 2.5D)."""
    st = as_state(target)
    world = st if isinstance(st, World) else st.physics
    return world.digest()


def snapshot(target: Target) -> Snapshot:
    """Every die on the board or in a courtyard, with its settled place."""
    st = as_state(target)
    if isinstance(st, World):
        out: Snapshot = {}
        for i in st.dice:
            p = st.pose(i)
            out[i] = DieRec(i, p.x, p.y, p.angle, p.face, str(p.region))
        return out
    return {
        d.id: DieRec(d.id, d.pose.x, d.pose.y, d.pose.angle, d.pose.face, str(d.pose.region))
        for d in st.dice.values()
        if d.pose is not None and d.location in (Location.BOARD, Location.COURTYARD)
    }


def diff(before: Snapshot, after: Snapshot) -> tuple[list[DieRec], list[int]]:
    """Dice whose place changed (or that appeared) and dice no longer there."""
    changed = [r for i, r in sorted(after.items()) if before.get(i) != r]
    gone = sorted(i for i in before if i not in after)
    return changed, gone


def _where(st: GameState, die: int) -> str:
    d = st.dice.get(die)
    if d is None:
        return "?"
    if d.location is Location.ELIMINATED:
        return "eliminated"
    if d.location is Location.SUPPLY:
        return "back to the supply"
    assert d.pose is not None
    return f"face {d.pose.face} at {d.pose.region}" + (" (cocked)" if d.pose.cocked else "")


def summarize(
    action: Action | SandboxFlick,
    player: int | None,
    target: Target,
    outcome: Outcome | None = None,
    result: FlickResult | None = None,
) -> str:
    """A short line for people: who did what, faces, regions, damage."""
    st = as_state(target)
    if isinstance(st, World) or isinstance(action, SandboxFlick):
        assert isinstance(action, SandboxFlick)
        w = st if isinstance(st, World) else None
        text = f"die {action.die} {action.launch.value} flick"
        if w is not None and action.die in w.dice:
            p = w.pose(action.die)
            text += f": face {p.face} at {p.region} ({p.x:.1f}, {p.y:.1f}) mm"
        else:
            text += ": off the board"
        return text
    who = f"P{player}" if player is not None else "?"
    parts: list[str] = []
    if isinstance(action, SupplyFlick | BoardFlick | SiegeShot):
        name = {SupplyFlick: "supply flick", BoardFlick: "board flick", SiegeShot: "siege shot"}[
            type(action)
        ]
        die = None
        if outcome is not None and outcome.result is not None:
            die = outcome.result.flick.die
        elif isinstance(action, BoardFlick | SiegeShot):
            die = action.die
        if isinstance(action, SupplyFlick):
            name += f" area {action.area} {action.crenelation.value}"
        where = f": die {die} {_where(st, die)}" if die is not None else ""
        parts.append(f"{who} {name}{where}")
        if outcome is not None and outcome.placement is not None:
            others = [e for e in outcome.placement.eliminated if e != die]
            if others:
                parts.append("eliminates " + ", ".join(str(e) for e in others))
        if outcome is not None and outcome.pending is not None:
            parts.append(f"earns {outcome.pending.kind.value}")
    elif isinstance(action, SpyMove):
        parts.append(f"{who} spy: die {action.die} to ({action.x:.1f}, {action.y:.1f}) mm")
    elif isinstance(action, SapperPull):
        parts.append(f"{who} sapper pulls the pin of hole {action.hole}")
    elif isinstance(action, RingPinMove):
        parts.append(f"{who} moves a ring pin from hole {action.from_hole} to {action.to_hole}")
    elif isinstance(action, Decline):
        parts.append(f"{who} declines")
    if outcome is not None and outcome.round_ended is not None:
        r = outcome.round_ended
        how = r.ended_by if r.out_player is None else f"P{r.out_player} out"
        parts.append(
            f"round {r.round + 1} ends ({how}), damage " + " ".join(str(d) for d in r.damage)
        )
    if st.over and (outcome is None or outcome.game_over):
        parts.append(
            "game over, totals "
            + " ".join(str(t) for t in st.totals)
            + ", winner "
            + (" ".join(f"P{w}" for w in st.winners) or "-")
        )
    return "; ".join(parts)
