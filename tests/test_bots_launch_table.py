"""The aim bot's launch tables: the disk cache and the binary-search lookup.

A table read back from the cache must be the one the physics measures (or
the bot's choices would depend on the cache); a corrupt, stale or foreign
cache file must be ignored and the table measured again; an unwritable cache
must not stop the bot. The lookup must give exactly the linear scan's answer
(``min(rows, key=|distance - d|)``, ties to the first row).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from warlords_sim.board import Board, load_board
from warlords_sim.bots import launch
from warlords_sim.bots.launch import LaunchTable, launch_table, measure_launch_table
from warlords_sim.physics.types import LaunchKind

BOARD = load_board("standard")


@pytest.fixture(scope="module")
def measured() -> LaunchTable:
    """The LOW table of the standard board, measured on the physics."""
    return measure_launch_table(BOARD, BOARD.low_crenelation_mm, LaunchKind.LOW)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache directory and an empty in-memory cache."""
    monkeypatch.setenv(launch.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setattr(launch, "_MEMORY", {})
    return tmp_path / "cache"


def _count_measurements(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    calls: list[float] = []
    real = launch.measure_launch_table

    def counting(board: Board, height_mm: float, kind: LaunchKind) -> LaunchTable:
        calls.append(height_mm)
        return real(board, height_mm, kind)

    monkeypatch.setattr(launch, "measure_launch_table", counting)
    return calls


def _low() -> LaunchTable:
    return launch_table(BOARD, BOARD.low_crenelation_mm, LaunchKind.LOW)


def test_measured_table_is_plausible(measured: LaunchTable) -> None:
    assert len(measured.rows) >= 30  # most of the 37 launches stay on the board
    speeds = [s for s, _ in measured.rows]
    assert speeds == sorted(speeds) and set(speeds) <= set(launch.SPEEDS)
    assert measured.reach > 100.0  # fast launches go far
    assert measured.rows[0][1] < measured.reach / 3  # a 150 mm/s launch does not


def test_saved_then_loaded_bit_identical(
    cache: Path, measured: LaunchTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _count_measurements(monkeypatch)
    first = _low()
    assert calls == [BOARD.low_crenelation_mm]
    assert first.rows == measured.rows
    files = list(cache.glob("launch-*.json"))
    assert len(files) == 1
    # a new process: nothing in memory, the file is read, nothing measured
    monkeypatch.setattr(launch, "_MEMORY", {})
    again = _low()
    assert calls == [BOARD.low_crenelation_mm]
    assert again.rows == measured.rows  # exact floats


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"{not json",
        b'{"key": "0", "rows": [[150.0, 1.0]]}',  # made for another key
        b'{"key": "KEY", "rows": [[150.0, "far"]]}',  # wrong type
        b'{"key": "KEY", "rows": [[151.0, 1.0]]}',  # a speed never measured
        b'{"key": "KEY", "rows": [[200.0, 1.0], [150.0, 2.0]]}',  # out of order
        b'{"key": "KEY", "rows": [[150.0, 1.0]], "extra": 1}',  # unknown field
    ],
)
def test_corrupt_or_stale_file_is_ignored_and_rebuilt(
    cache: Path, measured: LaunchTable, monkeypatch: pytest.MonkeyPatch, content: bytes
) -> None:
    key = launch._key(BOARD, BOARD.low_crenelation_mm, LaunchKind.LOW)
    cache.mkdir(parents=True)
    path = cache / f"launch-{key[:32]}.json"
    path.write_bytes(content.replace(b"KEY", key.encode()))
    calls = _count_measurements(monkeypatch)
    table = _low()
    assert calls == [BOARD.low_crenelation_mm]
    assert table.rows == measured.rows
    saved = msgspec.json.decode(path.read_bytes())  # rewritten, valid
    assert saved["key"] == key and len(saved["rows"]) == len(measured.rows)


def test_key_covers_model_version_and_board(monkeypatch: pytest.MonkeyPatch) -> None:
    h = BOARD.low_crenelation_mm
    key = launch._key(BOARD, h, LaunchKind.LOW)
    assert launch._key(BOARD, h, LaunchKind.HIGH) != key
    assert launch._key(BOARD, h + 1.0, LaunchKind.LOW) != key
    other = dataclasses.replace(BOARD, sha256="0" * 64)
    assert launch._key(other, h, LaunchKind.LOW) != key
    monkeypatch.setattr(launch, "MODEL_VERSION", "2.5d-next")
    assert launch._key(BOARD, h, LaunchKind.LOW) != key


def test_unwritable_cache_still_gives_the_table(
    tmp_path: Path, measured: LaunchTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv(launch.CACHE_ENV, str(blocker / "cache"))
    monkeypatch.setattr(launch, "_MEMORY", {})
    assert _low().rows == measured.rows


def _scan(rows: tuple[tuple[float, float], ...], distance: float) -> tuple[float, float]:
    """The linear scan the aim bot used before the binary search."""
    speed = min(rows, key=lambda row: abs(row[1] - distance))[0]
    return speed, abs(min(abs(r[1] - distance) for r in rows))


def test_nearest_ties_go_to_the_slowest_speed() -> None:
    table = LaunchTable(((100.0, 50.0), (150.0, 10.0), (200.0, 30.0), (250.0, 10.0)))
    assert table.nearest(20.0) == (150.0, 10.0)  # 10 and 30 both 10 away: first row
    assert table.nearest(40.0) == (100.0, 10.0)  # 50 (first row) and 30 both 10 away
    assert table.nearest(10.0) == (150.0, 0.0)  # a repeated distance: its first row
    assert table.nearest(-5.0) == (150.0, 15.0)
    assert table.nearest(1e9) == (100.0, 1e9 - 50.0)
    assert table.reach == 50.0
    with pytest.raises(ValueError, match="empty launch table"):
        LaunchTable(()).nearest(1.0)


distances = st.one_of(
    st.sampled_from([0.0, 10.0, 10.000000000000002, 20.0, 30.0, -5.0]),
    st.floats(-100.0, 1000.0, allow_nan=False),
)


@given(st.lists(distances, min_size=1, max_size=40), distances)
def test_nearest_matches_the_linear_scan(ds: list[float], x: float) -> None:
    rows = tuple((150.0 + 50.0 * i, d) for i, d in enumerate(ds))
    assert LaunchTable(rows).nearest(x) == _scan(rows, x)


def test_nearest_matches_the_scan_on_the_real_table(measured: LaunchTable) -> None:
    for x in [float(d) for d in range(-20, 900, 7)] + [d for _, d in measured.rows]:
        assert measured.nearest(x) == _scan(measured.rows, x)
