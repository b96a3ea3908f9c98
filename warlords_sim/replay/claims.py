"""What each replay line claims, derived from the game: one owner for the
recorder (which writes the claims) and for verify (which re-derives every
one and names the first that differs).

Contract
--------
* :func:`action_claims` gives every field of an action line but ``action``
  (the input itself): ``index``, ``player``, ``digest``, ``summary``,
  ``dice`` and ``gone``, from the state the action left
  (:meth:`~warlords_sim.rules.engine.Outcome.settled`: an action that ends
  a round is recorded as it settled, before the next round was set up).
* :func:`result_claims` gives every field of the closing line.
* :func:`first_difference` compares recorded against re-derived claims
  field by field, in the order a line is written, and says which differs.

Nothing here simulates; it reads a settled game or sandbox world.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from warlords_sim.physics import FlickResult, World
from warlords_sim.replay.format import ActionLine, DieRec, ResultLine
from warlords_sim.replay.sandbox import SandboxFlick
from warlords_sim.replay.snapshot import (
    Snapshot,
    Target,
    as_state,
    diff,
    digest_of,
    snapshot,
    summarize,
)
from warlords_sim.rules.actions import Action
from warlords_sim.rules.engine import Outcome

__all__ = [
    "ActionClaims",
    "action_claims",
    "first_difference",
    "recorded_claims",
    "recorded_result",
    "result_claims",
    "where_differs",
]


@dataclass(frozen=True)
class ActionClaims:
    """The fields of one action line besides the action (see the module docstring).

    Attributes:
        index: 1-based action number. player: who acted (None in a sandbox).
        digest: SHA-256 hex of the settled state. summary: the line for people.
        dice: dice whose settled place changed since the previous line
            (``[id, x, y, angle, face, region]``, mm and rad). gone: dice no
            longer on the board or in a courtyard.
        after: the snapshot the next line is diffed against.
    """

    index: int
    player: int | None
    digest: str
    summary: str
    dice: tuple[DieRec, ...]
    gone: tuple[int, ...]
    after: Snapshot

    def as_line(self, action: dict[str, Any]) -> dict[str, Any]:
        """The JSON object of the line, with ``action`` (its ``to_dict()``)."""
        return {
            "kind": "action",
            "index": self.index,
            "player": self.player,
            "action": action,
            "digest": self.digest,
            "summary": self.summary,
            "dice": [[d.id, d.x, d.y, d.angle, d.face, d.region] for d in self.dice],
            "gone": list(self.gone),
        }


def action_claims(
    index: int,
    action: Action | SandboxFlick,
    target: Target,
    before: Snapshot,
    outcome: Outcome | None = None,
    result: FlickResult | None = None,
    player: int | None = None,
) -> ActionClaims:
    """The claims of action ``index`` that has just settled in ``target``.

    Args:
        index: its 1-based number. action: the action applied.
        target: the game (or sandbox world) after it.
        before: the snapshot after the previous line (empty at the start).
        outcome: what the rules engine returned (a game); its
            :meth:`~Outcome.settled` state is the one recorded.
        result: a sandbox flick's physics result (for the summary).
        player: who acted, when there is no ``outcome`` (ignored in a sandbox).
    """
    st = as_state(target)
    settled: Target = target
    if outcome is not None and not isinstance(st, World):
        settled = outcome.settled(st)
        player = outcome.player
    if isinstance(st, World):
        player = None
    now = snapshot(settled)
    changed, gone = diff(before, now)
    return ActionClaims(
        index=index,
        player=player,
        digest=digest_of(settled),
        summary=summarize(action, player, settled, outcome, result),
        dice=tuple(changed),
        gone=tuple(gone),
        after=now,
    )


def recorded_claims(line: ActionLine) -> dict[str, object]:
    """The claims a recorded action line makes, field by field."""
    return {
        "index": line.index,
        "player": line.player,
        "digest": line.digest,
        "summary": line.summary,
        "dice": tuple(line.dice),
        "gone": tuple(line.gone),
    }


def _derived(claims: ActionClaims) -> dict[str, object]:
    return {
        "index": claims.index,
        "player": claims.player,
        "digest": claims.digest,
        "summary": claims.summary,
        "dice": claims.dice,
        "gone": claims.gone,
    }


def result_claims(actions: int, target: Target | None) -> dict[str, Any]:
    """The closing line's fields: the action count, the final digest and,
    for a game, winners, totals and every round's record
    (``RoundRecord.to_dict``); ``target`` None: a sandbox ended without a
    final state (digest null)."""
    obj: dict[str, Any] = {"actions": actions, "digest": None}
    if target is None:
        return obj
    obj["digest"] = digest_of(target)
    st = as_state(target)
    if not isinstance(st, World):
        obj["winners"] = list(st.winners)
        obj["totals"] = list(st.totals)
        # as JSON has them (tuples become lists), so that they compare with a file's
        obj["rounds"] = json.loads(json.dumps([r.to_dict() for r in st.history]))
    return obj


def recorded_result(line: ResultLine) -> dict[str, Any]:
    """The claims a recorded closing line makes (as :func:`result_claims` gives them)."""
    return {
        "actions": line.actions,
        "digest": line.digest,
        "winners": list(line.winners),
        "totals": list(line.totals),
        "rounds": list(line.rounds),
    }


def where_differs(recorded: Any, derived: Any, path: str) -> tuple[str, Any, Any]:
    """The innermost place where two claim values differ: a list's first
    differing element, a dict's first differing key, recursively, e.g.
    ``("rounds[1].damage[0]", 41, 42)`` or ``("dice[0][4]", 3, 6)``."""
    if isinstance(recorded, tuple):
        recorded = list(recorded)
    if isinstance(derived, tuple):
        derived = list(derived)
    if isinstance(recorded, DieRec):
        recorded = [recorded.id, recorded.x, recorded.y, recorded.angle, recorded.face,
                    recorded.region]  # fmt: skip
    if isinstance(derived, DieRec):
        derived = [derived.id, derived.x, derived.y, derived.angle, derived.face, derived.region]
    if isinstance(recorded, dict) and isinstance(derived, dict):
        for key in list(recorded) + [k for k in derived if k not in recorded]:
            if _differs(recorded.get(key), derived.get(key)):
                return where_differs(recorded.get(key), derived.get(key), f"{path}.{key}")
    if isinstance(recorded, list) and isinstance(derived, list):
        for i, (a, b) in enumerate(zip(recorded, derived, strict=False)):
            if _differs(a, b):
                return where_differs(a, b, f"{path}[{i}]")
        if len(recorded) != len(derived):
            return f"{path} (length)", len(recorded), len(derived)
    return path, recorded, derived


def first_difference(
    recorded: dict[str, Any], derived: dict[str, Any] | ActionClaims
) -> tuple[str, Any, Any] | None:
    """The first field (in the order of ``recorded``) whose recorded value
    differs from the re-derived one: ``(field, recorded, re-derived)``;
    None when every claim holds. A field missing from ``derived`` counts as
    its empty value (a sandbox's result has no winners, totals or rounds)."""
    got = _derived(derived) if isinstance(derived, ActionClaims) else derived
    for key, value in recorded.items():
        empty: Any = [] if isinstance(value, list) else None
        again = got.get(key, empty)
        if isinstance(value, list) and isinstance(again, list | tuple):
            again = list(again)
        if _differs(value, again):
            # as JSON writes them: 58.0 is not 58, true is not 1 (Python's ==
            # takes them as equal, and a retyped round record verified)
            return key, value, again
    return None


def _differs(a: Any, b: Any) -> bool:
    """Whether two claim values differ as JSON writes them."""
    return bool(a != b) or _as_json(a) != _as_json(b)


def _as_json(value: Any) -> str:
    """``value`` as canonical JSON (dice records as their lists)."""
    return json.dumps(value, sort_keys=True, default=_die_list)


def _die_list(value: Any) -> Any:
    if isinstance(value, DieRec):
        return [value.id, value.x, value.y, value.angle, value.face, value.region]
    raise TypeError(f"not a claim value: {type(value).__name__}")
