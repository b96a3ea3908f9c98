"""Replays: recording, loading, verify, resume and branch, bad files (issue 5)."""

from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from warlords_sim.board import Crenelation, load_board
from warlords_sim.bots import make_bot, player_rngs
from warlords_sim.cli import main
from warlords_sim.replay import (
    Recorder,
    ReplayError,
    load_replay,
    rebuild,
    resume,
    to_action,
    verify,
)
from warlords_sim.rules import BoardFlick, GameConfig, SupplyFlick

SEED = 3
PLAYERS = 2


def run(*args: object) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 2-player game of aim bots recorded by ``simulate --record``."""
    path = tmp_path_factory.mktemp("replay") / "game.jsonl"
    res = run("simulate", "--players", PLAYERS, "--seed", SEED, "--json", "--record", path)
    assert res.exit_code == 0, res.output
    return path


@pytest.fixture
def game_file(recorded: Path, tmp_path: Path) -> Path:
    """A private copy of the recorded game."""
    return Path(shutil.copy(recorded, tmp_path / "game.jsonl"))


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def write_lines(path: Path, objs: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(o) + "\n" for o in objs))


# ------------------------------------------------------------- round trip


def test_recorded_game_loads_and_verifies(recorded: Path) -> None:
    rep = load_replay(recorded)
    assert rep.header.mode == "game" and rep.header.players == PLAYERS
    assert rep.header.seed == SEED and rep.header.bots == ["aim", "aim"]
    assert rep.result is not None and not rep.truncated
    assert [a.index for a in rep.actions] == list(range(1, len(rep.actions) + 1))
    assert all(a.summary for a in rep.actions)
    res = run("replay", recorded, "--verify")
    assert res.exit_code == 0, res.output
    assert "digests match" in res.output
    report = json.loads(run("replay", recorded, "--verify", "--json").output)
    assert report["ok"] and report["checked"] == len(rep.actions)


def test_recorded_result_matches_simulate(recorded: Path, tmp_path: Path) -> None:
    res = run("simulate", "--players", PLAYERS, "--seed", SEED, "--json")
    data = json.loads(res.output)
    result = lines(recorded)[-1]
    assert result["kind"] == "result"
    assert result["totals"] == data["totals"] and result["winners"] == data["winners"]


def test_resume_a_cut_copy_ends_as_the_uncut_game(game_file: Path) -> None:
    original = game_file.read_bytes()
    raw = original.split(b"\n")
    k = len(raw) // 2
    game_file.write_bytes(b"\n".join(raw[:k]) + b"\n" + raw[k][: len(raw[k]) // 2])
    rep = load_replay(game_file)
    assert rep.truncated and rep.result is None and len(rep.actions) == k - 1
    assert "cut off" in rep.warnings[0]
    state = resume(game_file, [make_bot("aim") for _ in range(PLAYERS)])
    assert game_file.read_bytes() == original  # same actions, digests and result
    final = load_replay(game_file).result
    assert final is not None and final.totals == state.totals


def test_branch_keeps_the_first_n_digests(game_file: Path, tmp_path: Path) -> None:
    n = 25
    new = tmp_path / "whatif.jsonl"
    res = run("replay", game_file, "--until", n, "--branch", new, "--bots", "random")
    assert res.exit_code == 0, res.output
    old, branched = load_replay(game_file), load_replay(new)
    assert [a.digest for a in branched.actions[:n]] == [a.digest for a in old.actions[:n]]
    assert branched.header.branch_of is not None and branched.header.branch_of.until == n
    assert branched.header.bots == ["random", "random"] and branched.result is not None
    assert run("replay", new, "--verify").exit_code == 0
    # the same bots from the same seed play the same game again
    same = tmp_path / "same.jsonl"
    assert run("replay", game_file, "--until", n, "--branch", same, "--bots", "aim").exit_code == 0
    assert [a.digest for a in load_replay(same).actions] == [a.digest for a in old.actions]


def test_branch_without_bots_writes_the_prefix(game_file: Path, tmp_path: Path) -> None:
    new = tmp_path / "prefix.jsonl"
    assert run("replay", game_file, "--until", 10, "--branch", new).exit_code == 0
    rep = load_replay(new)
    assert len(rep.actions) == 10 and rep.result is None
    assert rebuild(rep).game.state.flicks <= 10


def test_branch_options_that_would_be_ignored_are_refused(game_file: Path, tmp_path: Path) -> None:
    """``--skill`` without ``--bots`` rewrote the branch's header skill though
    the recording's bots stayed; ``--verify`` accepted ``--bots`` and
    ``--skill`` and ignored them; a branch without ``--bots`` dropped the
    recording's skill from its header (``play --resume`` then played 0.7)."""
    objs = lines(game_file)
    objs[0]["skill"] = "expert"
    write_lines(game_file, objs)
    new = tmp_path / "b.jsonl"
    for args, message in (
        (["--until", 5, "--branch", new, "--skill", "novice"], "--skill needs --bots"),
        (["--verify", "--bots", "aim"], "--bots has no effect with --verify"),
        (["--verify", "--skill", "club"], "--skill has no effect with --verify"),
        (["--until", 5, "--branch", new, "--json"], "--json needs --verify"),
        (["--until", 5, "--branch", new, "--bots", "aim,"], "--bots: an empty item in 'aim,'"),
    ):
        res = run("replay", game_file, *args)
        err = res.stderr.strip().splitlines()
        assert res.exit_code == 2 and len(err) == 1 and message in err[0], (args, res.stderr)
        assert not new.exists()
    assert run("replay", game_file, "--until", 5, "--branch", new).exit_code == 0
    assert load_replay(new).header.skill == "expert"  # the recording's bots, and their skill
    other = tmp_path / "c.jsonl"
    res = run("replay", game_file, "--until", 5, "--branch", other, "--bots", "RANDOM",
              "--skill", "novice")  # fmt: skip
    assert res.exit_code == 0, res.output
    branched = load_replay(other).header
    assert branched.bots == ["random", "random"] and branched.skill == "novice"


def test_rebuild_gives_the_state_after_the_prefix(game_file: Path) -> None:
    rep = load_replay(game_file)
    rb = rebuild(rep, 40)
    assert rb.index == 40 and rb.digests == [a.digest for a in rep.actions[:40]]
    assert rb.game.state.physics.digest() == rep.actions[39].digest  # type: ignore[attr-defined]


def test_recorder_never_overwrites(game_file: Path) -> None:
    before = game_file.read_bytes()
    config = GameConfig(load_board("standard"), 2)
    with pytest.raises(ReplayError, match="exists"):
        Recorder.create(game_file, config, seed=0, bots=["aim", "aim"])
    res = run("simulate", "--players", 2, "--record", game_file)
    assert res.exit_code == 2 and "exists" in res.stderr
    assert game_file.read_bytes() == before
    with Recorder.create(game_file, config, seed=0, bots=["aim", "aim"], force=True) as rec:
        assert rec.actions == 0
    assert load_replay(game_file).actions == []


# ------------------------------------------------------------- divergence


def test_a_changed_velocity_names_the_diverging_action_and_dice(game_file: Path) -> None:
    objs = lines(game_file)
    k = next(
        i for i, o in enumerate(objs) if i > 10 and o.get("action", {}).get("type") == "board_flick"
    )
    v = objs[k]["action"]["velocity"]
    objs[k]["action"]["velocity"] = [v[0] * 1.02, v[1] * 1.02]
    write_lines(game_file, objs)
    res = run("replay", game_file, "--verify")
    assert res.exit_code == 1, res.output
    assert f"action {k} (line {k + 1}" in res.output and "diverges" in res.output
    assert "off by" in res.output and " mm" in res.output
    report = json.loads(run("replay", game_file, "--verify", "--json").output)
    div = report["first_divergence"]
    assert not report["ok"] and div["index"] == k
    assert any(d["distance_mm"] for d in div["dice"])


_FILE_ID = re.compile(r"(?<!red )(?<!blue )(?<!yellow )(?<!green )\bdie (\d+)\b")
_NAMED = re.compile(r"\bdie (\d+) \((red|blue|yellow|green) die (\d)\)")


def test_verify_names_each_die_by_its_id_and_the_windows_name(game_file: Path) -> None:
    """The replay file numbers dice from 0 ("die 3") where the window says
    "red die 4". The file keeps its ids (and its summaries as recorded);
    what ``replay --verify`` prints names both, "die 3 (red die 4)", for
    the dice that differ and in the recorded summary it quotes, and a
    refused action's message does too."""
    from warlords_sim.rules.names import die_name

    objs = lines(game_file)
    k = next(
        i for i, o in enumerate(objs) if i > 10 and o.get("action", {}).get("type") == "board_flick"
    )
    v = objs[k]["action"]["velocity"]
    objs[k]["action"]["velocity"] = [v[0] * 1.02, v[1] * 1.02]
    write_lines(game_file, objs)
    res = run("replay", game_file, "--verify")
    assert res.exit_code == 1, res.output
    said = res.output.split("diverges", 1)
    assert _FILE_ID.search(said[0]) and _FILE_ID.search(said[1])  # the summary and the dice
    ids = _FILE_ID.findall(res.output)
    named = _NAMED.findall(res.output)
    assert ids and len(named) == len(ids), res.output  # every die id has its name beside it
    config = GameConfig(load_board("standard"), PLAYERS)
    seats = rebuild(load_replay(game_file), k - 1).game.state.seats
    for die, colour, number in named:
        assert die_name(config, seats, int(die)) == f"{colour} die {number}"
    report = json.loads(run("replay", game_file, "--verify", "--json").output)
    div = report["first_divergence"]
    assert div["summary"] == objs[k]["summary"]  # the recorded summary, as the file has it
    assert all(d["name"] == die_name(config, seats, d["die"]) for d in div["dice"])
    objs = lines(game_file)
    act = objs[1]["action"]
    objs[1]["action"] = {"type": "board_flick", "die": 7, "velocity": act["velocity"], "spin": 0}
    write_lines(game_file, objs)
    res = run("replay", game_file, "--verify")
    assert res.exit_code == 2
    assert "die 7 (yellow die 2)" in res.stderr, res.stderr


def test_a_changed_digest_diverges(game_file: Path) -> None:
    objs = lines(game_file)
    objs[5]["digest"] = "0" * 64
    write_lines(game_file, objs)
    res = run("replay", game_file, "--verify")
    assert res.exit_code == 1 and "action 5 (line 6" in res.output


def test_other_versions_are_named_up_front(game_file: Path) -> None:
    objs = lines(game_file)
    objs[0]["versions"]["pymunk"] = "6.0.0"
    objs[0]["versions"]["platform"] = "win32-AMD64"
    write_lines(game_file, objs)
    res = run("replay", game_file, "--verify")
    assert res.exit_code == 0
    first = res.output.splitlines()[0]
    assert first.startswith("note:") and "pymunk 6.0.0" in first and "win32-AMD64" in first


def test_a_board_of_another_sha256_is_an_error_unless_forced(game_file: Path) -> None:
    objs = lines(game_file)
    objs[0]["board"]["sha256"] = "ab" * 32
    write_lines(game_file, objs)
    res = run("replay", game_file, "--verify")
    assert res.exit_code == 2
    assert "ab" * 32 in res.stderr and load_board("standard").sha256 in res.stderr
    assert run("replay", game_file, "--verify", "--force").exit_code == 0


# -------------------------------------------------------------- bad files


def _not_json(objs: list[dict[str, Any]]) -> str:
    text = "".join(json.dumps(o) + "\n" for o in objs)
    return text.replace('"kind": "action"', '"kind": action', 1)


def _edit(fn: Any) -> Any:
    def make(objs: list[dict[str, Any]]) -> str:
        fn(objs)
        return "".join(json.dumps(o) + "\n" for o in objs)

    return make


def _first_flick(objs: list[dict[str, Any]]) -> dict[str, Any]:
    return next(o["action"] for o in objs if "velocity" in o.get("action", {}))


def _refused(objs: list[dict[str, Any]]) -> None:
    # a flick of a die of the other player: "Players can never flick ... dice belonging to others"
    act = objs[1]["action"]
    objs[1]["action"] = {"type": "board_flick", "die": 99, "velocity": act["velocity"], "spin": 0}


def _wrong_player(objs: list[dict[str, Any]]) -> None:
    # the second action was taken by someone else than the file says
    # (an edit that left every digest as it was went unnoticed before)
    line = objs[2]
    line["player"] = 1 - line["player"]


def _cut(objs: list[dict[str, Any]]) -> str:
    text = "".join(json.dumps(o) + "\n" for o in objs[:8])
    return text + json.dumps(objs[8])[:30]


BAD = {
    "not JSON": (_not_json, "line 2: not JSON"),
    "wrong format": (
        _edit(lambda o: o[0].update(format="warlords-replays")),
        "line 1: field `format`: expected 'warlords-replay'",
    ),
    "unknown version": (
        _edit(lambda o: o[0].update(version=5)),
        "line 1: field `version`: unknown version 5",
    ),
    "missing field": (
        _edit(lambda o: o[3].pop("digest")),
        "line 4: missing field `digest`",
    ),
    "missing action field": (
        _edit(lambda o: _first_flick(o).pop("velocity")),
        "missing field `action.velocity`",
    ),
    "NaN velocity": (
        _edit(lambda o: _first_flick(o).update(velocity=[math.nan, 1.0])),
        "field `action.velocity[0]`: expected a finite number, got nan",
    ),
    "infinite velocity": (
        _edit(lambda o: _first_flick(o).update(velocity=[1.0, math.inf])),
        "field `action.velocity[1]`: expected a finite number, got inf",
    ),
    "refused action": (_edit(_refused), "line 2: action 1 (board_flick): the rules refuse it"),
    # (which kind of action the second one is depends on the bots' game)
    "wrong player": (_edit(_wrong_player), ("line 3: action 2 (", "): field `player`: expected")),
    "cut line": (_cut, "line 9: the last line is cut off (a crash while writing it?); kept"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_files_fail_in_one_line_and_write_nothing(
    case: str, game_file: Path, tmp_path: Path
) -> None:
    make, expected = BAD[case]
    game_file.write_text(make(lines(game_file)))
    new = tmp_path / "new.jsonl"
    before = sorted(tmp_path.iterdir())
    for args in (["--verify"], ["--until", "5", "--branch", new, "--bots", "aim"]):
        res = run("replay", game_file, *args)
        if case == "cut line" and "--branch" in args:
            assert res.exit_code == 0, res.output  # the valid prefix is kept and usable
            assert len(load_replay(new).actions) > 5
            new.unlink()
            continue
        assert res.exit_code == 2, (case, res.output)
        assert len(res.stderr.strip().splitlines()) == 1, res.stderr
        parts = (expected,) if isinstance(expected, str) else expected
        assert all(part in res.stderr for part in parts), res.stderr
        assert str(game_file) in res.stderr
    assert sorted(tmp_path.iterdir()) == before


def test_an_unknown_action_type_and_a_line_after_the_result(game_file: Path) -> None:
    good = lines(game_file)
    objs = lines(game_file)
    objs[2]["action"]["type"] = "teleport"
    write_lines(game_file, objs)
    with pytest.raises(ReplayError, match="line 3: field `action.type`: unknown action type"):
        load_replay(game_file)
    write_lines(game_file, [*good, good[1]])
    with pytest.raises(ReplayError, match=f"line {len(good) + 1}: a line after the result"):
        load_replay(game_file)


# ------------------------------------------------------- floats and flick


@settings(max_examples=200, deadline=None)
@given(
    st.floats(allow_nan=False, allow_infinity=False),
    st.floats(allow_nan=False, allow_infinity=False),
    st.floats(allow_nan=False, allow_infinity=False),
)
def test_action_floats_round_trip_bit_exact(vx: float, vy: float, spin: float) -> None:
    from warlords_sim.replay.format import ActionLine

    for action in (
        SupplyFlick(2, Crenelation.LOW, (vx, vy), spin, 4),
        BoardFlick(3, (vx, vy), spin),
    ):
        line = {
            "kind": "action", "index": 1, "player": 0, "action": action.to_dict(),
            "digest": "0" * 64, "summary": "",
        }  # fmt: skip
        import msgspec

        back = to_action(msgspec.convert(json.loads(json.dumps(line)), ActionLine).action)
        assert back == action
        assert [math.copysign(1.0, v) for v in back.velocity] == [
            math.copysign(1.0, v) for v in action.velocity
        ]


def test_flick_record_is_a_sandbox_replay(tmp_path: Path) -> None:
    path = tmp_path / "shot.jsonl"
    res = run("flick", "--from", "0:2", "--velocity", "30,900", "--json", "--record", path)
    assert res.exit_code == 0, res.output
    rep = load_replay(path)
    assert rep.header.mode == "sandbox" and len(rep.actions) == 1 and rep.result is not None
    assert rep.actions[0].digest == json.loads(res.output)["digest"]
    assert verify(rep).ok
    again = run("flick", "--at", "0,-120", "--velocity", "600,0", "--record", path)
    assert again.exit_code == 2 and "exists" in again.stderr
    trials = run("flick", "--at", "0,-120", "--velocity", "600,0", "--trials", 3, "--record",
                 tmp_path / "t.jsonl")  # fmt: skip
    assert trials.exit_code == 2 and "--record records one flick" in trials.stderr
    assert not (tmp_path / "t.jsonl").exists()


def test_recording_a_game_driven_by_hand_then_resuming(tmp_path: Path) -> None:
    """The window's way: apply actions to a Game, record each with its
    outcome, stop without a result, then continue the file with bots. A game
    action recorded without its outcome is refused (its settled state and
    summary come from it)."""
    from warlords_sim.rules import Game

    config = GameConfig(load_board("standard"), 2)
    path = tmp_path / "hand.jsonl"
    bots = [make_bot("random"), make_bot("random")]
    rngs = player_rngs(11, 2)
    game = Game(config)
    with Recorder.create(path, config, seed=11, bots=["random", "human"]) as rec:
        for _ in range(30):
            legal = game.legal_actions()
            action = bots[legal.player].choose(game.state, legal, rngs[legal.player])
            player = legal.player
            outcome = game.apply(action)
            if not rec.actions:
                with pytest.raises(ReplayError, match="needs its outcome"):
                    rec.record(action, game)
            rec.record(action, game, outcome)
            assert lines(path)[-1]["player"] == player
    rep = load_replay(path)
    assert len(rep.actions) == 30 and rep.result is None and not rep.truncated
    assert verify(rep).ok
    state = resume(path, bots)
    final = load_replay(path)
    assert state.over and final.result is not None and final.result.totals == state.totals
    assert verify(final).ok


EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "replays"


@pytest.mark.parametrize("delta", [-1, 1, -5])
def test_a_result_line_counting_other_than_the_action_lines_is_refused(
    tmp_path: Path, delta: int
) -> None:
    """Guards the loader's ``result.actions != len(actions)`` (a ``>`` let a
    result line claiming fewer actions than the file holds load). The format
    (docs/replay-format.md): the result line's ``actions`` is the number of
    action lines. One more, one fewer or none at all is refused, naming the
    line; the example file as written loads."""
    objs = lines(EXAMPLES / "sandbox-flicks.jsonl")
    n = sum(o["kind"] == "action" for o in objs)
    assert objs[-1]["kind"] == "result" and n == 5
    path = tmp_path / "flicks.jsonl"
    write_lines(path, objs)
    assert load_replay(path).result is not None
    objs[-1]["actions"] = n + delta
    write_lines(path, objs)
    with pytest.raises(ReplayError) as info:
        load_replay(path)
    msg = str(info.value)
    assert f"line {len(objs)}: field `actions`: expected {n}" in msg, msg
    assert f"got {n + delta}" in msg
