"""Replay format 4's ``hands`` and ``aimed`` (issue 20, item 1): checked on
load with one line naming the field, and kept out of older versions (a
version-3 file with them is refused; version-3 files still load). Fails
on the code before: it read versions 1-3 only and knew neither field."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from warlords_sim.board import Crenelation, load_board
from warlords_sim.bots import make_bot
from warlords_sim.bots.skill import SkillLevel
from warlords_sim.gui.controller import GameController, open_recorder
from warlords_sim.gui.input import GAIN, Input
from warlords_sim.replay import ReplayError, load_replay, verify
from warlords_sim.replay.loader import aimed_action
from warlords_sim.rules import GameConfig, HouseRules

BOARD = load_board("standard")
CONFIG = GameConfig(BOARD, 2, HouseRules())
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "replays" / "game-2p-standard.jsonl"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """A version-4 game: the human (club hand) flicks once from area 1's
    high spot; the file's lines as JSON objects."""
    path = tmp_path_factory.mktemp("hands") / "g.jsonl"
    rec, _ = open_recorder(path, CONFIG, 3, ("human", "aim"), hands={0: SkillLevel.CLUB})
    c = GameController(CONFIG, {1: make_bot("aim")}, seed=3, recorder=rec, hands={0: "club"})
    assert c.hand_label(0) == "hand club"
    spot = BOARD.launch_spot(0, 1, Crenelation.HIGH)
    inp = Input(c)
    inp.press(spot.x, spot.y)
    inp.release(spot.x - 3.0, spot.y - 60.0)
    c.finish_flick()
    rec.close()
    return [json.loads(x) for x in path.read_text().splitlines()]


def _write(tmp_path: Path, objs: list[dict[str, Any]]) -> Path:
    p = tmp_path / "edited.jsonl"
    p.write_text("".join(json.dumps(o) + "\n" for o in objs))
    return p


def test_the_recorded_line_gives_the_drag_back(
    recorded: list[dict[str, Any]], tmp_path: Path
) -> None:
    rep = load_replay(_write(tmp_path, recorded))
    assert rep.header.hands == ["club", None]
    aimed = aimed_action(rep.actions[0])
    assert aimed is not None and aimed.velocity == (3.0 * GAIN, 60.0 * GAIN)
    assert verify(rep).ok  # the hand re-delivers `aimed` to the recorded action


def test_verify_re_delivers_aimed_and_names_the_line_that_differs(
    recorded: list[dict[str, Any]], tmp_path: Path
) -> None:
    """An ``aimed`` the hand does not deliver as the line's action (an
    edited drag) is reported, naming the line; the digests still hold (the
    recorded action is replayed). Failed before: verify passed it."""
    objs = json.loads(json.dumps(recorded))
    objs[1]["aimed"]["velocity"][0] += 5.0
    report = verify(load_replay(_write(tmp_path, objs)))
    assert report.divergence is None and report.mismatch is not None
    text = report.mismatch.describe()
    assert text.startswith("line 2 (action 1): field `action.velocity[0]`: recorded "), text
    assert "replayed by the hand re-delivering `aimed`" in text


EDITS: dict[str, tuple[Callable[[list[dict[str, Any]]], object], str]] = {
    "hands in format 3": (
        lambda o: (o[0].update(version=3), o[1].pop("aimed")),
        "line 1: field `hands`: not part of format version 3 (expected 4 on)",
    ),
    "aimed in format 3": (
        lambda o: (o[0].update(version=3), o[0].pop("hands")),
        "line 2: field `aimed`: not part of format version 3 (expected 4 on)",
    ),
    "unknown hand": (
        lambda o: o[0].update(hands=["steady", None]),
        "line 1: field `hands[0]`: expected a number in [0, 1], a hand's name (exact, novice, "
        "club, expert) or null, got 'steady'",
    ),
    "a bot's hand": (
        lambda o: o[0].update(hands=["club", "club"]),
        "line 1: field `hands[1]`: expected null for a bot's seat",
    ),
    "a human without": (
        lambda o: o[0].update(hands=[None, None]),
        "line 1: field `hands[0]`: expected the human player's hand",
    ),
    "one hand for two": (
        lambda o: o[0].update(hands=["club"]),
        "line 1: field `hands`: expected one hand per player (2)",
    ),
    "aimed beside a decline": (
        lambda o: o[1].update(action={"type": "decline"}),
        "line 2: field `aimed`: expected only beside a flick",
    ),
    "a scattering hand's flick without aimed": (
        lambda o: o[1].pop("aimed"),
        "line 2: missing field `aimed`: player 0's hand (club, `hands[0]`) scatters",
    ),
    "aimed on a bot's line": (
        lambda o: o[1].update(player=1),
        "line 2: field `aimed`: expected none on a bot's line (player 1 is 'aim'",
    ),
    "aimed with no hands": (
        lambda o: o[0].pop("hands"),
        "line 2: field `aimed`: expected none: the header has no `hands`",
    ),
    "aimed beside an exact hand": (
        lambda o: o[0].update(hands=["exact", None]),
        "line 2: field `aimed`: expected none: player 0's hand is exact (`hands[0]`)",
    ),
    "aimed not a velocity": (
        lambda o: o[1]["aimed"].update(velocity=[1.0]),
        "line 2: field `aimed.velocity`",
    ),
}


@pytest.mark.parametrize("case", list(EDITS))
def test_bad_hands_and_aimed_fail_in_one_line(
    case: str, recorded: list[dict[str, Any]], tmp_path: Path
) -> None:
    edit, message = EDITS[case]
    objs = json.loads(json.dumps(recorded))
    edit(objs)
    with pytest.raises(ReplayError) as e:
        load_replay(_write(tmp_path, objs))
    assert message in str(e.value), str(e.value)
    assert "\n" not in str(e.value)


def test_version_3_files_still_load_with_no_hands(tmp_path: Path) -> None:
    """A file written before hands existed (the example as format 3: its
    header without ``hands``) loads, with no hands and no aimed flicks."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["version"] = 3
    header.pop("hands", None)
    old = tmp_path / "v3.jsonl"
    old.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    rep = load_replay(old)
    assert rep.header.version == 3 and rep.header.hands is None
    assert all(line.aimed is None for line in rep.actions)


def test_hands_are_given_by_their_labels() -> None:
    """The header names each human's hand as --hand does, a number as given."""
    from warlords_sim.replay.recorder import make_header

    h = make_header(CONFIG, seed=1, bots=["human", "aim"], hands=[0.8, SkillLevel.EXPERT])
    assert h.hands == [0.8, None]
    h = make_header(CONFIG, seed=1, bots=["human", "human"], hands=[None, "novice"])
    assert h.hands == ["exact", "novice"]
    with pytest.raises(ReplayError, match="one hand per player"):
        make_header(CONFIG, seed=1, bots=["human", "aim"], hands=[None])


def _state(rep: Any, player: int) -> object:
    """Player ``player``'s generator after rebuilding ``rep`` as a resume does."""
    from warlords_sim.replay import rebuild

    return rebuild(rep, policies=[None, make_bot("aim")]).rngs[player].bit_generator.state


def test_a_branch_keeps_the_hands_and_resumes_as_the_cut_file(
    recorded: list[dict[str, Any]], tmp_path: Path
) -> None:
    """``replay FILE --until N --branch NEW`` keeps ``hands``, so resuming
    NEW re-draws the human's hand as resuming FILE cut at N does. Failed
    before: the branch wrote no ``hands``, and its resume played the human
    exact with another generator."""
    from warlords_sim.replay import branch

    source = load_replay(_write(tmp_path, recorded))  # one action, no result: a cut file
    new = tmp_path / "branch.jsonl"
    branch(source, new, 1, None, list(source.header.bots))
    got = load_replay(new)
    assert got.header.hands == ["club", None]
    assert got.actions[0].aimed == source.actions[0].aimed
    assert _state(got, 0) == _state(source, 0)


def test_a_branch_played_on_by_bots_has_no_hands_and_verifies(
    recorded: list[dict[str, Any]], tmp_path: Path
) -> None:
    """With bots in every seat the branch records no hand and no ``aimed``
    (a bot's line has none), and it verifies."""
    from warlords_sim.replay import branch

    source = load_replay(_write(tmp_path, recorded))
    new = tmp_path / "bots.jsonl"
    branch(source, new, 1, [make_bot("random"), make_bot("random")], ["random", "random"])
    got = load_replay(new)
    assert got.header.hands is None and got.result is not None
    assert all(line.aimed is None for line in got.actions)
    assert verify(got).ok


def _header_enums() -> list[tuple[str, tuple[object, ...]]]:
    """Every enum (Literal) field of a game header and its house rules."""
    import typing

    from warlords_sim.replay.format import Header

    found = []
    for prefix, cls in (("", Header), ("house_rules.", HouseRules)):
        for name, kind in typing.get_type_hints(cls).items():
            # a one-value Literal (a format's name, a version) is a constant
            if typing.get_origin(kind) is typing.Literal and len(typing.get_args(kind)) > 1:
                found.append((prefix + name, typing.get_args(kind)))
    return found


@pytest.mark.parametrize(("field", "choices"), _header_enums(), ids=lambda x: str(x))
def test_a_bad_enum_value_in_a_header_lists_the_accepted_ones(
    field: str, choices: tuple[object, ...], recorded: list[dict[str, Any]], tmp_path: Path
) -> None:
    """``house_rules.wall_variant: "moves"`` names 'standard', 'wall1',
    'wall2'. Failed before: ``invalid enum value 'moves'``, no choices."""
    objs = json.loads(json.dumps(recorded))
    target = objs[0]
    *path, last = field.split(".")
    for part in path:
        target = target[part]
    target[last] = "moves"
    with pytest.raises(ReplayError) as e:
        load_replay(_write(tmp_path, objs))
    text = str(e.value)
    assert f"line 1: field `{field}`: expected one of " in text, text
    assert all(repr(c) in text for c in choices), text
    assert text.endswith("got 'moves'"), text
