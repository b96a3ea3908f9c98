"""Hostile files and options a break-it tester found (issue 12, after the fuzz).

Each case is refused by the command line with exit status 2 and one line
naming the file or option and what was expected. What broke before:

- TOML nested 600 deep (``x = [[[...]]]``) gave a RecursionError traceback
  from tomllib in every TOML reader (board, ``--rules``, ``fidelity
  --scenario-file``, ``--board``).
- a dotted key of 100 000 parts made tomllib take time and memory quadratic
  in the parts (20 000 parts took 1.6 GB).
- a replay line nested 5000 deep (or 100 000 ``[``) gave a RecursionError
  from json in ``replay``, ``render``, ``play --resume`` and a lab folder's
  experiment.json; a 100 000-digit seed gave a ValueError (Python's limit on
  converting long integers).
- ``/dev/zero`` as house rules, scenario file or replay was read until
  memory ran out, a FIFO hung forever, ``board /dev/zero`` said "not found".
- ``variants --dask-timeout 1e300`` gave an OverflowError, ``nan`` passed;
  ``fidelity --trials`` had no upper bound; a scenario striking 50 mm above
  a 16 mm die failed at run time with a RuntimeError.
- ``variants --out ''`` wrote into the current folder, ``--out`` and
  ``fidelity --plot`` created missing parent folders, ``variants --out
  /proc`` printed an errno without the option, ``--games 1000000000`` said
  "expected at least 1".
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from warlords_sim.cli import main
from warlords_sim.fidelity import DEFAULT_SCENARIOS

EXAMPLES = Path(__file__).parent.parent / "examples" / "replays"
GAME = EXAMPLES / "game-2p-standard.jsonl"

NESTED_TOML = b"x = " + b"[" * 600 + b"]" * 600 + b"\n"
DOTTED_TOML = b"a" + b".a" * 100_000 + b" = 1\n"
DEEP_OBJECT = b'{"a":' * 5000 + b"1" + b"}" * 5000 + b"\n"
DEEP_LIST = b"[" * 100_000 + b"\n"


def _long_seed() -> bytes:
    lines = GAME.read_bytes().split(b"\n")
    header = json.loads(lines[0])
    text = json.dumps(header).replace(f'"seed": {header["seed"]}', '"seed": ' + "9" * 100_000)
    assert text != json.dumps(header)
    return b"\n".join([text.encode(), *lines[1:]])


def _refused(args: list[str], *needles: str) -> str:
    result = CliRunner().invoke(main, args)
    exc = result.exception
    assert exc is None or isinstance(exc, SystemExit), repr(exc)
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("warlords-sim: error: "), lines[0]
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


TOML_NESTED = "not valid TOML: nested too deeply"
TOML_DOTTED = "not valid TOML: line 1: a dotted key of more than 64 parts"
JSON_NESTED = "line 1: not JSON (nested too deeply)"

#: case -> (file bytes, arguments with FILE for the file, text the error holds after "FILE: ")
FILES: dict[str, tuple[bytes, list[str], str]] = {
    "board nested": (NESTED_TOML, ["board", "FILE"], TOML_NESTED),
    "rules nested": (NESTED_TOML, ["simulate", "--rules", "FILE"], TOML_NESTED),
    "scenarios nested": (NESTED_TOML, ["fidelity", "--scenario-file", "FILE"], TOML_NESTED),
    "play --board nested": (NESTED_TOML, ["play", "--board", "FILE"], TOML_NESTED),
    "board dotted": (DOTTED_TOML, ["board", "FILE"], TOML_DOTTED),
    "rules dotted": (b"a" + b".a" * 64 + b" = 1\n", ["simulate", "--rules", "FILE"], TOML_DOTTED),
    "scenarios dotted table": (
        b"[a" + b".a" * 64 + b"]\n", ["fidelity", "--scenario-file", "FILE"], TOML_DOTTED
    ),
    "replay deep object": (DEEP_OBJECT, ["replay", "FILE", "--verify"], JSON_NESTED),
    "replay deep list": (DEEP_LIST, ["replay", "FILE", "--verify"], JSON_NESTED),
    "render deep": (DEEP_OBJECT, ["render", "FILE", "--out", "OUT.gif"], JSON_NESTED),
    "resume deep": (DEEP_LIST, ["play", "--resume", "FILE"], JSON_NESTED),
    "seed of 100000 digits": (
        _long_seed(), ["replay", "FILE", "--verify"],
        "line 1: field `seed`: expected a number of at most 100 digits",
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(FILES))
def test_hostile_files_are_refused_in_one_line(tmp_path: Path, case: str) -> None:
    text, args, expected = FILES[case]
    path = tmp_path / ("f.jsonl" if "replay" in args or "--resume" in args else "f.toml")
    if "render" in args:
        path = tmp_path / "f.jsonl"
    path.write_bytes(text)
    args = [str(path) if a == "FILE" else str(tmp_path / a) if a == "OUT.gif" else a for a in args]
    _refused(args, f"{path}: {expected}")
    assert not (tmp_path / "OUT.gif").exists()


def test_dotted_keys_are_refused_before_tomllib_sees_them() -> None:
    """The pre-check is linear: 100 000 parts are refused at once, 64 pass."""
    import time

    from warlords_sim._files import FileProblem, parse_toml

    start = time.process_time()
    with pytest.raises(FileProblem, match="dotted key"):
        parse_toml(DOTTED_TOML)
    assert time.process_time() - start < 1.0
    assert parse_toml(b"a" + b".a" * 63 + b" = 1\n")["a"]["a"]["a"]
    # a long dotted text in a value is no key
    assert parse_toml(b'x = "' + b"a." * 1000 + b'"\n')["x"].count(".") == 1000


def test_a_lab_folders_settings_nested_too_deeply(tmp_path: Path) -> None:
    (tmp_path / "experiment.json").write_bytes(DEEP_LIST)
    sj = tmp_path / "experiment.json"
    _refused(
        ["variants", "--out", str(tmp_path), "--games", "1", "--workers", "1"],
        f"{sj}: not JSON (nested too deeply)",
    )
    sj.write_bytes(b'{"seed": ' + b"9" * 5000 + b"}")
    _refused(
        ["variants", "--out", str(tmp_path), "--games", "1", "--workers", "1"],
        f"{sj}: field `seed`: expected a number of at most 100 digits",
    )


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--rules", "FILE"],
        ["fidelity", "--scenario-file", "FILE"],
        ["replay", "FILE", "--verify"],
        ["render", "FILE", "--out", "OUT.gif"],
        ["board", "FILE"],
        ["play", "--board", "FILE"],
    ],
)
def test_devices_and_fifos_are_not_read(tmp_path: Path, args: list[str]) -> None:
    """/dev/zero was read until memory ran out, a FIFO hung for ever."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo)):
        argv = [path if a == "FILE" else str(tmp_path / a) if a == "OUT.gif" else a for a in args]
        _refused(argv, f"{path}: not a regular file, expected a")


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["variants", "--dask-timeout", "1e300"], ["--dask-timeout", "0.0<x<=3600.0"]),
        (["variants", "--dask-timeout", "nan"], ["--dask-timeout", "0.0<x<=3600.0"]),
        (["variants", "--dask-timeout", "inf"], ["--dask-timeout", "0.0<x<=3600.0"]),
        (["fidelity", "--trials", "1000001"], ["--trials", "1<=x<=1000000"]),
        (["variants", "--games", "1000000000"], ["--games", "1<=x<=10000000"]),
        (["variants", "--out", "", "--games", "1"], ["--out: expected a folder"]),
        (["variants", "--out", "/nonexistent/x"], ["--out /nonexistent/x: no such directory"]),
        (["fidelity", "--plot", "/nonexistent/x"], ["--plot /nonexistent/x: no such directory"]),
    ],
)
def test_options_out_of_range_are_refused(args: list[str], needles: list[str]) -> None:
    _refused(args, *needles)
    assert not Path("/nonexistent").exists()


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="no /proc")
def test_an_out_folder_that_cannot_be_written_names_the_option() -> None:
    _refused(["variants", "--out", "/proc", "--games", "1", "--workers", "1"], "--out /proc: ")


def test_a_strike_above_the_die_is_refused_on_load(tmp_path: Path) -> None:
    """strike_mm = 50 on a 16 mm die loaded, then failed at run time."""
    text = DEFAULT_SCENARIOS.read_text(encoding="utf-8")
    old = "velocity = [0.0, 300.0] }"
    assert old in text
    path = tmp_path / "s.toml"
    path.write_text(text.replace(old, "velocity = [0.0, 300.0], strike_mm = 50.0 }", 1))
    _refused(
        ["fidelity", "--scenario-file", str(path), "--trials", "1"],
        f"{path}: scenario 'high-2-300', field flick.strike_mm: expected a height within "
        "the board's die, -8..8 mm",
    )


def test_a_non_finite_number_under_a_dotted_key_is_one_line(tmp_path: Path) -> None:
    """Found by the lead after the break-it review: a NaN under a key with a
    dot in it (``"a.b": NaN``) made the field lookup for the message raise
    KeyError (a traceback)."""
    lines = GAME.read_bytes().split(b"\n")
    header = lines[0].rstrip()
    bad = tmp_path / "nan.jsonl"
    bad.write_bytes(b"\n".join([header[:-1] + b', "a.b": NaN}', *lines[1:]]))
    _refused(["replay", str(bad), "--verify"], "field `a.b`", "finite")
