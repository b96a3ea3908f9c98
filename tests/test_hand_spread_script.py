"""``benchmarks/hand_spread.py``'s command line: a bad ``--png`` or
``--trials`` is refused in one line before anything is computed, and the
drag is aimed with the window's gain (issue 20, item 1's picture). Failed
before: any --png name was taken, --trials 1 ran (a spread of one), an
existing file was refused only after the window opened, and the aim used
the old gain 10."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "hand_spread.py"


@pytest.fixture(scope="module")
def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hand_spread", SCRIPT)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["hand_spread"] = mod
    spec.loader.exec_module(mod)
    return mod


def _never(*_: Any) -> Any:
    raise AssertionError("computed before the arguments were checked")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--png", "{tmp}/spread.jpg"], "expected a file name ending in .png"),
        (["--png", "{tmp}/no/such/folder/spread.png"], "no folder"),
        (["--png", "{tmp}/old.png"], "the file exists; give --force"),
    ],
)
def test_a_bad_png_is_refused_before_computing(
    script: ModuleType,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    words: str,
) -> None:
    (tmp_path / "old.png").write_bytes(b"keep me")
    monkeypatch.setattr(script, "drag_mm", _never)
    monkeypatch.setattr(script, "flick", _never)
    assert script.main([a.format(tmp=tmp_path) for a in args]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1, err
    assert (tmp_path / "old.png").read_bytes() == b"keep me"


@pytest.mark.parametrize("value", ["1", "0", "-3", "many"])
def test_trials_below_two_are_refused(script: ModuleType, value: str) -> None:
    with pytest.raises(SystemExit) as e:
        script.main(["--trials", value])
    assert e.value.code == 2


def test_without_a_display_it_says_to_use_xvfb(
    script: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.setattr(script.sys, "platform", "linux")
    monkeypatch.setattr(script, "drag_mm", _never)
    assert script.main([]) == 2
    err = capsys.readouterr().err.strip()
    assert "xvfb-run -a" in err and len(err.splitlines()) == 1, err


def test_the_script_aims_with_the_windows_gain() -> None:
    """No hard-coded gain: the aim is what the window's input code makes."""
    text = SCRIPT.read_text()
    assert "* 10.0" not in text
