"""What the window, the replay panel and rendered captions say about the
game, in the rulebook's terms and with the names players see on the board.

No pyglet. A die is named by :func:`die_name` only ("red die 3": the colour
its owner's castle is drawn in this round, and its number among that
player's dice, 1..6; :mod:`warlords_sim.rules.names`, which the command
line's messages share); pins and holes are never named by number. Every
sentence about an action is built from the rules' own
:class:`~warlords_sim.rules.engine.Outcome` (its placement, ability, round
record), so the panel cannot say something the log does not.

* :class:`Before` - what the rules knew before an action (the round's seats,
  each die's place, the dice in the center ring at the turn's start, a
  pending ability); an action is described against it.
* :func:`narrate` - the log lines and the one-line headline of an action.
* :func:`no_ability_reason` - why a settled flick earned no ability.
* :func:`straddle_text` - the reading of a die left across the line between
  a gateway and its courtyard, for the panel's hint.
* :func:`player_text` - a rules message (a refusal) with dice, players and
  holes renamed for players.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from warlords_sim.colours import SEAT_COLOUR_NAMES
from warlords_sim.physics.types import LaunchKind, Region, RegionKind
from warlords_sim.rules.abilities import ABILITY_BY_FACE
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
from warlords_sim.rules.engine import Outcome
from warlords_sim.rules.game import GameConfig, GameState, Location, PendingKind, RoundRecord
from warlords_sim.rules.names import die_name
from warlords_sim.rules.resolve import straddled_castle

__all__ = [
    "ABILITY_TEXT",
    "Before",
    "Told",
    "die_name",
    "narrate",
    "no_ability_reason",
    "place_text",
    "player_text",
    "round_end_text",
    "straddle_text",
]

#: What each ability lets the player do, for the log ("P0 earned: ...").
ABILITY_TEXT = {
    PendingKind.SCOUT: "Scout (flick the 1 again)",
    PendingKind.SPY: "Spy (move the 3)",
    PendingKind.SAPPER: "Sapper (pull a pin)",
    PendingKind.GENERAL: "General (flick a second die)",
    PendingKind.RING: "center ring (move a ring pin)",
}


def place_text(region: Region) -> str:
    """Where a settled die lies, in the rulebook's words ("in the yellow courtyard")."""
    colour = SEAT_COLOUR_NAMES[region.seat] if region.seat is not None else ""
    return {
        RegionKind.BOARD: "on the board",
        RegionKind.OFF_BOARD: "off the board",
        RegionKind.CENTER_RING: "in the center ring",
        RegionKind.COURTYARD: f"in the {colour} courtyard",
        RegionKind.GATEWAY: f"in the {colour} gateway",
        RegionKind.MOAT: f"in the {colour} moat",
    }[region.kind]


@dataclass(frozen=True)
class Before:
    """What the rules knew just before an action: the round's seats, each
    die's place, the dice in the center ring when the turn began, the
    ability pending (if any). Taken with :meth:`of` before the action."""

    config: GameConfig
    seats: tuple[int, ...]
    round: int
    places: dict[int, Location]
    ring_at_turn_start: frozenset[int]
    pending: PendingKind | None

    @classmethod
    def of(cls, state: GameState) -> Before:
        return cls(
            state.config,
            tuple(state.seats),
            state.round,
            {i: d.location for i, d in state.dice.items()},
            state.ring_at_turn_start,
            state.pending.kind if state.pending is not None else None,
        )

    def die(self, die: int) -> str:
        """:func:`die_name` in this round."""
        return die_name(self.config, self.seats, die)

    def dice(self, dice: tuple[int, ...] | list[int]) -> str:
        return ", ".join(self.die(d) for d in dice)


@dataclass(frozen=True)
class Told:
    """An action described: the log's lines and a one-line headline."""

    lines: tuple[str, ...]
    headline: str


def round_end_text(record: RoundRecord, rounds: int) -> str:
    """ "round 1 of 2 over (P0 has no dice in play): damage P0 15, P1 26"."""
    out = record.out_player
    why = "flick limit" if out is None else f"P{out} has no dice in play"
    dmg = ", ".join(f"P{p} {d}" for p, d in enumerate(record.damage))
    return f"round {record.round + 1} of {rounds} over ({why}): damage {dmg}"


def no_ability_reason(before: Before, outcome: Outcome) -> str | None:
    """Why the flick of ``outcome`` earned no ability, from the rules'
    result of it (the die's place after the flick, its face before and
    after, how it was launched); None if it earned one or the round ended
    (nothing is earned then), or the action was not a flick.

    The reasons follow the order the rules test them in
    (:func:`warlords_sim.rules.abilities.earned`)."""
    res, pl = outcome.result, outcome.placement
    if res is None or pl is None or outcome.pending is not None or outcome.round_ended is not None:
        return None
    die = res.flick.die
    hr = before.config.house_rules
    if die in pl.returned:
        return "the die went back to the supply"
    if die in pl.eliminated or die not in res.poses:
        return "the die left the board"
    if die in pl.scored:
        return "it landed in a courtyard"
    pose = res.poses[die]
    if pose.region.kind is RegionKind.CENTER_RING:
        if die in before.ring_at_turn_start:
            return "it started the turn in the center ring"
        return "landed in the center ring, but no ring pin can be moved to an open hole"
    if before.pending is not None and not hr.second_flick_earns_ability:
        return "a second flick earns no ability (house rules)"
    if res.flick.launch in (LaunchKind.TABLE, LaunchKind.SIEGE) and pose.face == res.initial_face:
        return f"face unchanged ({pose.face})"
    if pose.cocked and hr.cocked_die == "no_ability":
        return "the die is cocked (house rules)"
    if pose.face not in ABILITY_BY_FACE:
        return f"a {pose.face} has no ability"
    if pose.face == 4:
        return "no pin left to pull"
    if pose.face == 6:
        return "no other die in play for the General"
    return f"the {ABILITY_BY_FACE[pose.face].title} cannot be used now"


def _flick_kind(action: Action) -> str:
    if isinstance(action, SupplyFlick):
        return f"supply flick from area {action.area} {action.crenelation.value}"
    return "siege shot" if isinstance(action, SiegeShot) else "board flick"


def narrate(before: Before, outcome: Outcome, rounds: int) -> Told:
    """The log lines and headline of the action of ``outcome`` (taken with
    ``before`` just before it). A flick's landing is told first, then what
    it did to other dice, the ability, and the end of the round."""
    who = f"P{outcome.player}"
    action = outcome.action
    res, pl = outcome.result, outcome.placement
    lines: list[str] = []
    head: list[str] = []
    if res is not None and pl is not None:
        die = res.flick.die
        name = before.die(die)
        if die in pl.returned:
            where = "left the board and went back to the supply"
        elif die in pl.eliminated or die not in res.poses:
            where = "left the board"
        else:
            pose = res.poses[die]
            across = straddled_castle(before.config, pose)
            if across is not None:
                where = f"landed {pose.face} {_across_text(across)}"
            else:
                where = f"landed {pose.face} {place_text(pose.region)}"
            if pose.cocked:
                where += " (cocked)"
            if die in pl.gateway_moves:
                where += ", moved to the back of the courtyard"
            elif die in pl.straddling:
                where += ": in neither, it scores nothing"
        speed = math.hypot(*res.flick.velocity)
        if isinstance(action, SiegeShot):
            lines.append(f"{who} shot {name} from the siege engine at {speed:.0f} mm/s: {where}")
        else:
            lines.append(f"{who} flicked {name} at {speed:.0f} mm/s: {where}")
        head.append(f"{who} {_flick_kind(action)}: {name} {where}")
        for label, dice in (
            ("knocked off the board", [d for d in pl.eliminated if d != die]),
            ("back to the supply", [d for d in pl.returned if d != die]),
            ("moved from a gateway to the back of the courtyard",
             [d for d in pl.gateway_moves if d != die]),
            ("pushed into a courtyard",
             [d for d in pl.scored if d != die and before.places.get(d) is not Location.COURTYARD]),
        ):  # fmt: skip
            if dice:
                lines.append(f"{label}: {before.dice(dice)}")
                head.append(f"{label}: {before.dice(dice)}")
        if outcome.pending is not None:
            lines.append(f"{who} earned: {ABILITY_TEXT[outcome.pending.kind]}")
            head.append(f"earns the {outcome.pending.kind.title}")
        else:
            why = no_ability_reason(before, outcome)
            if why is not None:
                lines.append(f"no ability: {why}")
                head.append(f"no ability: {why}")
    else:
        text = _choice_text(before, who, action)
        lines.append(text)
        head.append(text)
    if outcome.round_ended is not None:
        end = round_end_text(outcome.round_ended, rounds)
        lines.append(end)
        head.append(end)
    return Told(tuple(lines), "; ".join(head))


def _across_text(seat: int) -> str:
    colour = SEAT_COLOUR_NAMES[seat]
    return f"across the line between the {colour} gateway and courtyard"


def straddle_text(before: Before, outcome: Outcome, told: set[int] | None = None) -> str | None:
    """The hint the panel shows when the action of ``outcome`` left a die
    across the line between a castle's gateway and its courtyard (dice in
    ``told`` left out: already said this round): how the rules read it (house
    rule ``gateway_straddle``) and the other reading; None if no die did.
    The dice said are added to ``told``."""
    pl, res = outcome.placement, outcome.result
    if pl is None:
        return None
    done = told if told is not None else set()
    moved = (
        [d for d in pl.gateway_moves if straddled_castle(before.config, res.poses[d]) is not None]
        if res is not None
        else []
    )
    stays = [d for d in pl.straddling if d not in done]
    done.update(stays)
    if moved:
        return (
            f"{before.dice(moved)}: across the line between a gateway and its courtyard, "
            'moved to the back of the courtyard by house rule gateway_straddle = "to_courtyard" '
            "(read literally, the rulebook scores it nothing: it must be entirely inside)"
        )
    if stays:
        return (
            f"{before.dice(stays)}: across the line between a gateway and its courtyard. "
            'The rulebook read literally: "entirely inside with no portion sticking out of a '
            'gateway", so it scores nothing and stays; house rule gateway_straddle = '
            '"to_courtyard" would move it to the back of the courtyard'
        )
    return None


def _choice_text(before: Before, who: str, action: Action) -> str:
    if isinstance(action, Decline):
        what = before.pending.title if before.pending is not None else "ability"
        return f"{who} declined the {what}"
    if isinstance(action, SpyMove):
        spy = before.die(action.die)
        return f"{who} moved the Spy ({spy}) to ({action.x:.0f}, {action.y:.0f}) mm"
    if isinstance(action, SapperPull):
        return f"{who}'s Sapper pulled a pin"
    if isinstance(action, RingPinMove):
        return f"{who} moved a center-ring pin to an open hole"
    if isinstance(action, BoardFlick | SupplyFlick | SiegeShot):  # a flick without its result
        return f"{who} {_flick_kind(action)}"
    return f"{who}: {action.kind}"


_DIE = re.compile(r"\bdie (\d+)\b")
_PLAYER = re.compile(r"\bplayer (\d+)\b")
_HOLE = re.compile(r"\b[Hh]ole \d+\b")


def player_text(state: GameState, message: str) -> str:
    """``message`` (a rules refusal, e.g. "die 9 belongs to player 1 ...")
    with dice named as on the board (:func:`die_name`), players as "P1" and
    hole numbers dropped ("that hole")."""
    config, seats = state.config, tuple(state.seats)

    def die(m: re.Match[str]) -> str:
        try:
            return die_name(config, seats, int(m.group(1)))
        except ValueError:  # no die of this game has that id: say the id
            return m.group(0)

    text = _DIE.sub(die, message)
    text = _PLAYER.sub(lambda m: f"P{m.group(1)}", text)
    return _HOLE.sub(lambda m: "That hole" if m.group(0)[0] == "H" else "that hole", text)
