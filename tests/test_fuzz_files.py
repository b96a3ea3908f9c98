"""Mutation fuzz of the three input file kinds through the command line (issue 12, fault 3).

A board file (``warlords-sim board FILE``), a house-rules file
(``warlords-sim simulate --rules FILE``, stopped once the game is set up)
and a replay (``warlords-sim replay FILE --verify``) are damaged at random
by hypothesis: a value anywhere in the file replaced by a hostile one (a
negative seed, 10**9 ring holes, 1e308 mm, NaN, a wrong type, a long
string), a field or a list item deleted or repeated, an unknown field
added, or the bytes cut off or garbled. Every case must end in success or
in exit status 2 with exactly one line on stderr (``warlords-sim: error:``
naming the file), never a traceback; ``replay --verify`` may also end in
status 1, its verdict that an action diverges (a changed velocity does). A
case that runs longer than ``CASE_SECONDS`` fails (a hang), and the memory
the process may take is capped while the fuzz runs (a file must not make it
allocate without bound: ``holes = 1000000000`` once took 23 GB).

What broke before: ``holes = 1000000000`` ate all memory, ``holes = 100000``
and ``size_mm = 1e308`` loaded, a launch spot inside the courtyard loaded;
``"seed": -5`` gave a traceback; ``"seats": [0, 7]``, ``"skill": 7``,
``"bots": ["aim", "nobot"]``, a missing seed and ``"player": null`` verified
with exit 0; ``board.file: "no-such-board"`` loaded the standard board;
errors printed the file and line twice. The named cases are in
``test_damaged_files_named_in_issue_12``.

Hypothesis is derandomized (the same cases in every run, so CI is
repeatable) and keeps no example database.
"""

from __future__ import annotations

import copy
import json
import math
import re
import resource
import signal
import tempfile
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import warlords_sim.bots
from warlords_sim.board import BOARDS_DIR
from warlords_sim.cli import main

STANDARD = BOARDS_DIR / "standard.toml"
EXAMPLES = Path(__file__).parent.parent / "examples" / "replays"
#: A case running longer than this (CPU or wall seconds) counts as a hang.
CASE_SECONDS = 20.0
#: Memory the process may take on top of what it holds when the fuzz starts.
EXTRA_MEMORY = 2 << 30

FUZZ = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

Path_ = list[str | int]

# Hostile values: signs, zero, huge and tiny numbers, non-finite floats,
# wrong types, names that are not there, a long string.
HOSTILE: list[Any] = [
    0, 1, -1, -5, 3, 7, 2**31, 2**63, 10**9, 10**30,
    0.0, -0.0, 1e-300, 0.5, 1.5, -600.0, 1e9, 1e308, -1e308,
    math.nan, math.inf, -math.inf,
    True, False, "", "x", "standard", "no-such-board", "nobot", "human", "a" * 5000,
    [], [0], [0, 7], [[0.0, 0.0]], [-1e308, 1e308], {}, {"x": 1},
]  # fmt: skip


class _Accepted(Exception):
    """The house rules got through every check and into a game (the game is not played)."""


class _Hang(Exception):
    pass


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    def on_alarm(signum: int, frame: object) -> None:
        raise _Hang(f"a case ran longer than {seconds} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture(scope="module", autouse=True)
def _memory_cap() -> Iterator[None]:
    """Cap the address space while the fuzz runs (restored after)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    status = Path("/proc/self/status").read_text()
    vm = re.search(r"VmSize:\s+(\d+) kB", status)
    if vm is None:  # not Linux: sizes stay bounded by the mutations anyway
        yield
        return
    cap = int(vm.group(1)) * 1024 + EXTRA_MEMORY
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


# --------------------------------------------------------------------------
# mutations of a parsed file (dicts, lists, scalars)
# --------------------------------------------------------------------------


def _paths(node: Any, here: Path_ | None = None) -> list[Path_]:
    """Every place in the tree (containers and leaves), the root excluded."""
    here = here or []
    out: list[Path_] = []
    items: list[tuple[str | int, Any]] = []
    if isinstance(node, dict):
        items = list(node.items())
    elif isinstance(node, list):
        items = list(enumerate(node))
    for key, child in items:
        out.append([*here, key])
        out.extend(_paths(child, [*here, key]))
    return out


def _at(node: Any, path: Path_) -> Any:
    for key in path:
        node = node[key]
    return node


@st.composite
def _mutated(draw: st.DrawFn, data: Any, allow_null: bool) -> Any:
    """``data`` (a deep copy) with one to three places damaged."""
    data = json.loads(json.dumps(data))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(data)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent, key = _at(data, path[:-1]), path[-1]
        old = parent[key]
        op = draw(st.sampled_from(["replace", "replace", "near", "delete", "repeat", "unknown"]))
        if op == "replace":
            value = draw(st.sampled_from([*HOSTILE, *([None] if allow_null else [])]))
            if value is None and not allow_null:
                continue
            parent[key] = copy.deepcopy(value)  # HOSTILE's lists stay as they are
        elif op == "near" and isinstance(old, (int, float)) and not isinstance(old, bool):
            scale = draw(st.sampled_from([-1, 0, 2, 10, 1000, 10**6, 10**12]))
            parent[key] = old * scale + draw(st.sampled_from([0, 1, -1]))
        elif op == "delete":
            del parent[key]
        elif op == "repeat" and isinstance(parent, list):
            parent.insert(key, old)  # type: ignore[arg-type]
        elif op == "unknown" and isinstance(old, dict):
            old[draw(st.sampled_from(["colour", "holes_mm", "extra"]))] = 1
        else:
            parent[key] = copy.deepcopy(draw(st.sampled_from(HOSTILE)))
    return data


@st.composite
def _garbled(draw: st.DrawFn, text: bytes) -> bytes:
    """``text`` cut off, with a byte changed, or a stretch removed (one case in four)."""
    if not text or draw(st.integers(0, 3)):
        return text
    i = draw(st.integers(0, len(text) - 1))
    op = draw(st.sampled_from(["cut", "byte", "remove"]))
    if op == "cut":
        return text[:i]
    if op == "byte":
        return text[:i] + bytes([draw(st.integers(0, 255))]) + text[i + 1 :]
    return text[:i] + text[i + draw(st.integers(1, 200)) :]


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        return ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    assert isinstance(v, dict)
    return "{" + ", ".join(f"{json.dumps(k)} = {_toml_value(x)}" for k, x in v.items()) + "}"


def _toml(data: dict[str, Any]) -> bytes:
    """TOML for ``data``: one top-level key a line, tables written inline."""
    return "".join(f"{json.dumps(k)} = {_toml_value(v)}\n" for k, v in data.items()).encode()


# --------------------------------------------------------------------------
# the check every case must pass
# --------------------------------------------------------------------------


def _run(args: list[str]) -> Result:
    with _time_limit(CASE_SECONDS):
        return CliRunner().invoke(main, args)


def _check(result: Result, path: Path, allowed: Callable[[Result], bool] = lambda r: False) -> str:
    """Success, exit 2 with one line naming ``path``, or what ``allowed`` accepts;
    returns which."""
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        if isinstance(exc, _Accepted):
            return "accepted"
        raise AssertionError(f"uncaught {type(exc).__name__}: {exc}") from exc
    if result.exit_code == 0:
        return "accepted"
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert len(lines) == 1, result.stderr
        assert lines[0].startswith("warlords-sim: error: "), lines[0]
        assert str(path) in lines[0], lines[0]
        assert len(lines[0]) < 2000, lines[0][:300]
        assert lines[0].count(f"{path}:") == 1, lines[0]  # the file named once
        return "refused"
    assert allowed(result), (result.exit_code, result.stdout, result.stderr)
    return "verdict"


# --------------------------------------------------------------------------
# the three file kinds
# --------------------------------------------------------------------------

BOARD_DATA: dict[str, Any] = tomllib.loads(STANDARD.read_text(encoding="utf-8"))
RULES_DATA: dict[str, Any] = {
    "format": "warlords-house-rules",
    "version": 1,
    "wall_variant": "wall1",
    "rounds": 2,
    "dice_per_player": 6,
    "first_player": 1,
    "siege_doubles": "own_on_board",
    "three_player_walled_seat": 3,
    "max_flicks_per_round": 400,
}


def _game_lines() -> list[dict[str, Any]]:
    """The header and first three actions of the 2-player example (an unfinished game)."""
    text = (EXAMPLES / "game-2p-standard.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()[:4]]


def _sandbox_lines() -> list[dict[str, Any]]:
    text = (EXAMPLES / "sandbox-flicks.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


GAME_LINES = _game_lines()
SANDBOX_LINES = _sandbox_lines()


def _jsonl(lines: list[Any]) -> bytes:
    return "".join(json.dumps(x) + "\n" for x in lines).encode()


def _refuse_to_play(*args: object, **kwargs: object) -> None:
    raise _Accepted


@pytest.fixture
def stop_before_playing(monkeypatch: pytest.MonkeyPatch) -> None:
    """``simulate`` stops once the game is set up: the house rules passed."""
    monkeypatch.setattr(warlords_sim.bots, "play_game", _refuse_to_play)


def test_unmutated_files_pass(stop_before_playing: None) -> None:
    """The fuzz's writers make files the loaders accept: damage is what fails."""
    with tempfile.TemporaryDirectory() as tmp:
        board, rules = Path(tmp) / "b.toml", Path(tmp) / "r.toml"
        board.write_bytes(_toml(BOARD_DATA))
        rules.write_bytes(_toml(RULES_DATA))
        assert _check(_run(["board", str(board)]), board) == "accepted"
        args = ["simulate", "--players", "2", "--rules", str(rules)]
        assert _check(_run(args), rules) == "accepted"
        for name, lines in (("g.jsonl", GAME_LINES), ("s.jsonl", SANDBOX_LINES)):
            path = Path(tmp) / name
            path.write_bytes(_jsonl(lines))
            result = _run(["replay", str(path), "--verify"])
            assert _check(result, path) == "accepted", result.output


@settings(FUZZ, max_examples=200)
@given(st.data())
def test_fuzz_board_file(data: st.DataObject) -> None:
    text = _toml(data.draw(_mutated(BOARD_DATA, allow_null=False)))
    text = data.draw(_garbled(text))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "board.toml"
        path.write_bytes(text)
        event(_check(_run(["board", str(path)]), path))


@settings(FUZZ, max_examples=100)
@given(st.data(), st.sampled_from([2, 3, 4]))
def test_fuzz_house_rules_file(data: st.DataObject, players: int) -> None:
    text = _toml(data.draw(_mutated(RULES_DATA, allow_null=False)))
    text = data.draw(_garbled(text))
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as mp:
        mp.setattr(warlords_sim.bots, "play_game", _refuse_to_play)
        path = Path(tmp) / "rules.toml"
        path.write_bytes(text)
        args = ["simulate", "--players", str(players), "--rules", str(path)]
        event(_check(_run(args), path))


def _diverges(result: Result) -> bool:
    """``replay --verify``'s verdict that an action or the result differs (exit 1)."""
    return (
        result.exit_code == 1
        and result.exception is not None
        and any(
            w in result.stdout for w in ("diverges", "result differs", "edited or mis-recorded")
        )
    )


@settings(FUZZ, max_examples=200)
@given(st.data(), st.booleans())
def test_fuzz_replay_file(data: st.DataObject, sandbox: bool) -> None:
    lines = SANDBOX_LINES if sandbox else GAME_LINES
    text = _jsonl(data.draw(_mutated(lines, allow_null=True)))
    text = data.draw(_garbled(text))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.jsonl"
        path.write_bytes(text)
        event(_check(_run(["replay", str(path), "--verify"]), path, _diverges))


# --------------------------------------------------------------------------
# the damaged files issue 12 names, each refused in one line naming the field
# --------------------------------------------------------------------------


def _board_with(section: str, key: str, value: str) -> bytes:
    """The standard board file with ``key = value`` in ``[section]`` (text edited)."""
    text = STANDARD.read_text(encoding="utf-8")
    start = text.index(f"[{section}]")
    m = re.compile(rf"^(\s*){re.escape(key)}\s*=.*$", re.M).search(text, start)
    assert m is not None
    return (text[: m.start()] + f"{m.group(1)}{key} = {value}" + text[m.end() :]).encode()


def _game_with(header: dict[str, Any] | None = None, action: dict[str, Any] | None = None) -> bytes:
    """The short game replay with header fields (``None``: deleted) or action 1's fields set."""
    lines = copy.deepcopy(GAME_LINES)
    for key, value in (header or {}).items():
        if value is None:
            del lines[0][key]
        else:
            lines[0][key] = value
    lines[1].update(action or {})
    return _jsonl(lines)


_BOARD = dict(GAME_LINES[0]["board"])
_RULES = dict(GAME_LINES[0]["house_rules"])

#: case -> (file name, its bytes, the command's arguments after the file, the
#: text the error line must hold after the file name)
NAMED: dict[str, tuple[str, bytes, list[str], str]] = {
    "ring holes 10**9": (
        "b.toml", _board_with("center_ring", "holes", "1000000000"), [],
        "field `center_ring.holes`: expected a multiple of 4 in 4..400",
    ),
    "ring holes 100000": (
        "b.toml", _board_with("center_ring", "holes", "100000"), [],
        "field `center_ring.holes`: expected a multiple of 4 in 4..400",
    ),
    "ring holes overlapping pins": (
        "b.toml", _board_with("center_ring", "holes", "64"), [],
        "field `center_ring.holes`: expected at most 62 holes on a 60 mm ring",
    ),
    "board size 1e308": (
        "b.toml", _board_with("board", "size_mm", "1e308"), [],
        "field `board.size_mm`: expected a board side in [100, 5000] mm",
    ),
    "launch spot in the courtyard": (
        "b.toml",
        STANDARD.read_bytes().replace(b"high = [-92.0, -193.0]", b"high = [0.0, -255.0]"),
        [],
        "field `castle.front_areas[0].high`: expected a launch spot outside the castle",
    ),
    "seed -5": ("g.jsonl", _game_with({"seed": -5}), [], "line 1: field `seed`: expected int >= 0"),
    "seats [0, 7]": (
        "g.jsonl", _game_with({"seats": [0, 7]}), [], "line 1: field `seats[1]`: expected int <= 3"
    ),
    "seats [0]": (
        "g.jsonl", _game_with({"seats": [0]}), [], "line 1: field `seats`: expected 2 different"
    ),
    "seats [2, 0]": (
        "g.jsonl", _game_with({"seats": [2, 0]}), [], "line 1: field `seats`: expected [0, 2]"
    ),
    "skill 7": ("g.jsonl", _game_with({"skill": 7}), [], "line 1: field `skill`: expected float"),
    "bot nobot": (
        "g.jsonl", _game_with({"bots": ["aim", "nobot"]}), [],
        "line 1: field `bots[1]`: expected a bot name or 'human'",
    ),
    "no seed": ("g.jsonl", _game_with({"seed": None}), [], "line 1: missing field `seed`"),
    "player null": (
        "g.jsonl", _game_with(action={"player": None}), [], "line 2: field `player`: expected"
    ),
    "no such board": (
        "g.jsonl", _game_with({"board": {**_BOARD, "file": "no-such-board"}}), [],
        "line 1: field `board.file`: cannot load the replay's board: unknown board 'no-such-board'",
    ),
    "house rules in a replay": (
        "g.jsonl", _game_with({"house_rules": {**_RULES, "rounds": 1000}}), [],
        "line 1: field `house_rules.rounds`: expected an integer 0..100",
    ),
    "house rules file, first player": (
        "r.toml", b"first_player = 3\n", ["--players", "2"], "house rule first_player = 3"
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(NAMED))
def test_damaged_files_named_in_issue_12(tmp_path: Path, case: str) -> None:
    """Each is refused with exit 2 and one line: the file once, then the line
    (a replay) and the field. Before: memory exhausted, accepted, a traceback,
    another board loaded, or the file and line printed twice."""
    name, text, extra, expected = NAMED[case]
    path = tmp_path / name
    path.write_bytes(text)
    if name.endswith(".toml") and name.startswith("b"):
        args = ["board", str(path)]
    elif name.endswith(".toml"):
        args = ["simulate", "--rules", str(path), *extra]
    else:
        args = ["replay", str(path), "--verify"]
    result = _run(args)
    assert _check(result, path) == "refused", result.output
    assert f"{path}: {expected}" in result.stderr, result.stderr
