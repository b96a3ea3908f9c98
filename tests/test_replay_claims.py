"""``replay --verify`` checks every claim a file makes (issue 18, item 2).

What once broke: a result line with ``"totals": []`` and a forged
``"winners": [0]`` verified ("result verified: totals , winner P0", exit
0, ``--json`` ok true); hand-edited ``rounds[].damage``, action ``summary``
and ``dice`` lists passed too, and these are what ``render`` captions and
the window's panel show. A JSON object with a key given twice was read
last-wins. And the line of an action that ended a round (not the last) was
written after the next round was set up: its summary said "back to the
supply", its ``dice`` was empty and every die was ``gone``, although the die
had landed in a courtyard.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner
from rules_helpers import OPEN, OPEN2, game, place, supply_flick

from warlords_sim.board import Crenelation
from warlords_sim.cli import main
from warlords_sim.replay import ReplayError, branch, load_replay, verify
from warlords_sim.replay.claims import action_claims
from warlords_sim.replay.format import DieRec
from warlords_sim.replay.snapshot import diff, snapshot
from warlords_sim.rules import SupplyFlick
from warlords_sim.rules.scripted import FLICKED, Landing

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "replays"
GAME = EXAMPLES / "game-2p-standard.jsonl"
SANDBOX = EXAMPLES / "sandbox-flicks.jsonl"

Objs = list[dict[str, Any]]


def _objs(path: Path) -> Objs:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def _write(objs: Objs, path: Path) -> Path:
    path.write_text("".join(json.dumps(o) + "\n" for o in objs), encoding="utf-8")
    return path


def _round_end_index(objs: Objs) -> int:
    """The first action line (not the last) whose action ended a round."""
    return next(
        i
        for i, o in enumerate(objs[1:-2], start=1)
        if o["kind"] == "action" and "round 1 ends" in o["summary"]
    )


def _first_with_dice(objs: Objs) -> dict[str, Any]:
    return next(x for x in objs[1:] if x.get("dice"))


def _retype(d: dict[str, Any], key: str, kind: Callable[[Any], Any]) -> None:
    d[key] = kind(d[key])


def _set_die(o: dict[str, Any]) -> None:
    o["dice"][0][4] = 7 - o["dice"][0][4]


def _other_winner(o: Objs) -> list[int]:
    """A winner the recorded result does not name (whoever won the example)."""
    players = range(len(o[-1]["totals"]))
    return [next(p for p in players if p not in o[-1]["winners"])]


#: name -> (source, edit of the parsed lines, field named in the message)
FORGERIES: dict[str, tuple[Path, Callable[[Objs], None], str]] = {
    "winners": (GAME, lambda o: o[-1].update(winners=_other_winner(o)), "winners"),
    "empty totals": (GAME, lambda o: o[-1].update(totals=[]), "totals"),
    "totals and winners": (
        GAME, lambda o: o[-1].update(winners=_other_winner(o), totals=[]), "winners"
    ),
    "round damage": (GAME, lambda o: o[-1]["rounds"][0].update(damage=[0, 0]), "rounds"),
    "rounds dropped": (GAME, lambda o: o[-1].update(rounds=[]), "rounds"),
    "result digest null": (GAME, lambda o: o[-1].update(digest=None), "digest"),
    "summary": (GAME, lambda o: o[3].update(summary="P0 wins everything"), "summary"),
    "dice face": (GAME, lambda o: _set_die(_first_with_dice(o)), "dice"),
    "dice emptied": (GAME, lambda o: _first_with_dice(o).update(dice=[]), "dice"),
    "gone": (GAME, lambda o: o[_round_end_index(o) + 1].update(gone=[]), "gone"),
    # what once broke too: Python's == took these for the recorded values
    "flicks retyped 58.0": (GAME, lambda o: _retype(o[-1]["rounds"][0], "flicks", float), "rounds"),
    "out_player retyped": (GAME, lambda o: o[-1]["rounds"][0].update(side_walls=0), "rounds"),
    "sandbox summary": (SANDBOX, lambda o: o[2].update(summary="a hole in one"), "summary"),
    "sandbox winners": (SANDBOX, lambda o: o[-1].update(winners=[0]), "winners"),
}  # fmt: skip


@pytest.mark.parametrize("case", list(FORGERIES))
def test_a_forged_claim_fails_verify_naming_its_field(case: str, tmp_path: Path) -> None:
    src, edit, name = FORGERIES[case]
    objs = _objs(src)
    edit(objs)
    path = _write(objs, tmp_path / "forged.jsonl")
    res = CliRunner().invoke(main, ["replay", str(path), "--verify"])
    assert res.exit_code == 1, res.output
    assert f"field `{name}" in res.output, res.output
    res = CliRunner().invoke(main, ["replay", str(path), "--verify", "--json"])
    rep = json.loads(res.output.splitlines()[-1])
    assert rep["ok"] is False
    assert (rep["first_claim_differs"] or {}).get("field") == name or name in (
        rep["result_differs"] or ""
    )


def test_the_message_names_the_innermost_field_that_differs(tmp_path: Path) -> None:
    """A damage edited deep in the result's rounds, or a face in an
    action's dice, is named to the element, not as two cut-off dumps."""
    objs = _objs(GAME)
    objs[-1]["rounds"][1]["damage"][0] += 1
    first = _first_with_dice(objs)
    first["dice"][0][4] = 7 - first["dice"][0][4]
    res = CliRunner().invoke(main, ["replay", str(_write(objs, tmp_path / "f.jsonl")), "--verify"])
    assert "field `dice[0][4]`: recorded " in res.output, res.output
    objs = _objs(GAME)
    objs[-1]["rounds"][1]["damage"][0] += 1
    res = CliRunner().invoke(main, ["replay", str(_write(objs, tmp_path / "g.jsonl")), "--verify"])
    assert "field `rounds[1].damage[0]`: recorded " in res.output, res.output


def test_the_untouched_files_verify(tmp_path: Path) -> None:
    """The forgeries above fail for the edit, not for the rewriting."""
    for src in (GAME, SANDBOX):
        path = _write(_objs(src), tmp_path / src.name)
        assert verify(load_replay(path)).ok


@pytest.mark.parametrize(
    ("line", "key"),
    [(None, "velocity"), (0, "seed"), (-1, "totals")],
    ids=["velocity twice", "seed twice", "totals twice"],
)
def test_a_key_given_twice_is_refused(line: int | None, key: str, tmp_path: Path) -> None:
    lines = GAME.read_text(encoding="utf-8").splitlines()
    if line is None:  # the first flick (whatever the example's first actions are)
        line = next(i for i, t in enumerate(lines) if '"velocity"' in t and '"action"' in t)
    obj = json.loads(lines[line])
    holder = obj["action"] if key == "velocity" else obj
    text = json.dumps(obj)
    once = f'"{key}": {json.dumps(holder[key])}'
    assert once in text
    lines[line] = text.replace(once, f"{once}, {once}", 1)
    path = tmp_path / "twice.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ReplayError, match=f'key "{key}" given twice'):
        load_replay(path)
    res = CliRunner().invoke(main, ["replay", str(path), "--verify"])
    assert res.exit_code == 2 and len(res.stderr.strip().splitlines()) == 1


def test_a_round_ending_line_records_where_the_die_settled() -> None:
    """The line of the action that ended round 1 shows the dice as they
    settled (in the courtyard), not the next round's empty board."""
    objs = _objs(GAME)
    end = objs[_round_end_index(objs)]
    assert end["dice"], end
    assert "back to the supply" not in end["summary"]
    assert "courtyard" in end["summary"]
    nxt = objs[_round_end_index(objs) + 1]
    assert nxt["gone"], "the next line says the round's dice were cleared"


def test_a_branch_cut_at_a_round_end_verifies(tmp_path: Path) -> None:
    """A prefix ending at the action that ended round 1, branched and
    played on, writes lines that verify (its `dice`/`gone` continue from
    the settled state, as an unbroken recording's do)."""
    from warlords_sim.bots import make_bot

    rep = load_replay(GAME)
    until = _round_end_index(_objs(GAME))
    new = tmp_path / "branch.jsonl"
    bots = [make_bot("aim", 0.7), make_bot("aim", 0.7)]
    branch(rep, new, until, bots, ["aim", "aim"], skill=0.7)
    again = verify(load_replay(new))
    assert again.ok, again.mismatch or again.divergence or again.result


def test_an_action_line_lists_every_die_whose_place_changed() -> None:
    """Guards what an action line's ``dice`` holds (replay/snapshot.diff,
    written by the recorder): docs/replay-format.md, "dice whose settled place
    changed with this action", a place being ``[id, x, y, angle, face,
    region]``, and a die new on the board (from the supply) is one. A die
    knocked over where it lay (same x and y, another face) is listed, as is
    the flicked die that appeared; a die left alone is not; a die knocked
    off the board is in ``gone``. (A ``dice`` holding only the dice whose x or
    y changed, or only dice already on the board, verified and rendered
    wrong faces.)"""
    g = game(2)
    place(g, 6, *OPEN2, 2)  # player 1's dice
    place(g, 7, -150.0, 150.0, 3)
    place(g, 8, 150.0, 150.0, 4)
    before = snapshot(g)
    assert sorted(before) == [6, 7, 8]
    out = supply_flick(g, Landing({FLICKED: (*OPEN, 5), 6: (*OPEN2, 6), 8: None}))
    action = SupplyFlick(2, Crenelation.LOW, (0.0, 800.0), 0.0, 1)
    claims = action_claims(1, action, g, before, out)
    dice = {r.id: r for r in claims.dice}
    assert sorted(dice) == [0, 6], claims.dice
    assert (dice[0].x, dice[0].y, dice[0].face, dice[0].region) == (*OPEN, 5, "board")
    assert (dice[6].x, dice[6].y, dice[6].angle) == (before[6].x, before[6].y, before[6].angle)
    assert dice[6].face == 6
    assert claims.gone == (8,)


@pytest.mark.parametrize("field", ["x", "y", "angle", "face", "region"])
def test_a_place_differing_in_any_one_field_is_a_change(field: str) -> None:
    """Guards :func:`~warlords_sim.replay.snapshot.diff` field by field: each
    of a place's five values alone makes the die one "whose settled place
    changed" (docs/replay-format.md, the ``dice`` field)."""
    a = DieRec(3, 10.0, 20.0, 0.5, 2, "board")
    other = {"x": 11.0, "y": 21.0, "angle": 0.6, "face": 5, "region": "moat:0"}[field]
    b = msgspec.structs.replace(a, **{field: other})
    keep = DieRec(4, 1.0, 2.0, 0.0, 1, "board")
    changed, gone = diff({3: a, 4: keep}, {3: b, 4: keep})
    assert changed == [b] and gone == []
    assert diff({3: a, 4: keep}, {3: a, 4: keep}) == ([], [])
