"""Impact sounds without a display: events to knocks, the impulse-to-volume
mapping, the rate limit and the waveforms (warlords_sim/gui/sound.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from warlords_sim.gui.sound import (
    FULL_SPEED,
    KIND_GAP_S,
    MIN_VOLUME,
    SAMPLE_RATE,
    WINDOW_MAX,
    WINDOW_S,
    ImpactSounds,
    Knock,
    Knocked,
    RateLimit,
    knock_of,
    knocks,
    volume_for,
    waveform,
)
from warlords_sim.physics.types import Event, EventKind


def _contact(other: str, speed: float, t: float = 0.0) -> Event:
    return Event(EventKind.CONTACT, t, 1, 0.0, 0.0, other, speed)


def test_volume_grows_with_the_impulse_and_is_capped() -> None:
    speeds = [50.0, 100.0, 400.0, 1000.0, 1900.0]
    vols = [volume_for(Knocked.WALL, v) for v in speeds]
    assert vols == sorted(vols) and len(set(vols)) == len(vols)
    # linear in the approach speed (impulse = (1 + e) m v against a fixed body)
    assert math.isclose(vols[3] / vols[1], 10.0)
    assert volume_for(Knocked.WALL, FULL_SPEED) == 1.0
    assert volume_for(Knocked.TABLE, 5 * FULL_SPEED) == 1.0


def test_two_dice_meeting_have_half_the_impulse_of_a_die_on_a_wall() -> None:
    # equal masses: reduced mass m/2; a wall, a pin, the table do not move
    for v in (300.0, 900.0):
        wall = volume_for(Knocked.WALL, v)
        assert math.isclose(volume_for(Knocked.DIE, v), wall / 2.0)
        assert volume_for(Knocked.PIN, v) == wall == volume_for(Knocked.TABLE, v)


def test_soft_separating_and_bad_speeds_are_silent() -> None:
    edge = MIN_VOLUME * FULL_SPEED
    assert volume_for(Knocked.WALL, edge * 0.99) == 0.0
    assert volume_for(Knocked.WALL, edge * 1.01) > 0.0
    assert volume_for(Knocked.DIE, edge * 1.5) == 0.0  # half the impulse: below the floor
    for bad in (0.0, -300.0, math.nan, math.inf):
        assert volume_for(Knocked.WALL, bad) == 0.0


def test_events_map_to_the_four_kinds() -> None:
    landing_table = Event(EventKind.LANDING, 0.1, 2, 0, 0, "table", 600.0)
    landing_top = Event(EventKind.LANDING, 0.1, 2, 0, 0, "top", 600.0)
    cases = {
        _contact("die:4", 600.0): Knocked.DIE,
        _contact("wall", 600.0): Knocked.WALL,
        _contact("siege_engine", 600.0): Knocked.WALL,
        _contact("pin:17", 600.0): Knocked.PIN,
        landing_table: Knocked.TABLE,
        landing_top: Knocked.WALL,
    }
    for event, kind in cases.items():
        k = knock_of(event)
        assert k is not None and k.kind is kind and k.t == event.t, event
        assert math.isclose(k.volume, volume_for(kind, 600.0))
    for kind in (EventKind.LAUNCH, EventKind.REST, EventKind.EXIT, EventKind.TRIP):
        assert knock_of(Event(kind, 0.0, 1, 0, 0, "table", 900.0)) is None
    assert knock_of(_contact("wall", -20.0)) is None  # began while separating
    assert len(knocks([_contact("wall", 500.0), _contact("wall", 1.0)])) == 1


def test_a_pile_up_in_one_frame_is_one_knock_of_each_kind_the_loudest() -> None:
    batch = [Knock(Knocked.DIE, 0.05 + 0.001 * i) for i in range(300)]
    batch += [Knock(Knocked.WALL, 0.2), Knock(Knocked.WALL, 0.6), Knock(Knocked.TABLE, 0.1)]
    out = RateLimit().admit(batch, now=10.0)
    assert sorted(k.kind.value for k in out) == ["die", "table", "wall"]
    assert [k.volume for k in out] == sorted((k.volume for k in out), reverse=True)
    assert {k.kind: k.volume for k in out}[Knocked.WALL] == 0.6
    assert math.isclose({k.kind: k.volume for k in out}[Knocked.DIE], 0.05 + 0.299)


def test_one_kind_waits_its_gap() -> None:
    lim = RateLimit()
    die = [Knock(Knocked.DIE, 0.5)]
    assert lim.admit(die, 0.0) == die
    assert lim.admit(die, KIND_GAP_S * 0.5) == []
    assert lim.admit([Knock(Knocked.WALL, 0.5)], KIND_GAP_S * 0.5) != []  # another kind may
    assert lim.admit(die, KIND_GAP_S * 1.01) == die


def test_a_long_pile_up_never_exceeds_the_window() -> None:
    """Every kind at every 60 Hz frame for 3 s: at most WINDOW_MAX knocks in
    any WINDOW_S seconds, and some all along."""
    lim = RateLimit()
    times: list[float] = []
    for frame in range(180):
        now = frame / 60.0
        batch = [Knock(kind, 0.5) for kind in Knocked for _ in range(20)]
        times += [now] * len(lim.admit(batch, now))
    assert 40 <= len(times) <= 3.0 / WINDOW_S * WINDOW_MAX + WINDOW_MAX
    arr = np.array(times)
    for t in arr:
        assert np.count_nonzero((arr >= t) & (arr < t + WINDOW_S)) <= WINDOW_MAX
    assert arr.max() >= 3.0 - WINDOW_S - 0.05  # not starved: knocking in the last window


def test_rate_limit_bounds_are_checked() -> None:
    with pytest.raises(ValueError, match="window > 0"):
        RateLimit(window=0.0)
    with pytest.raises(ValueError, match="most >= 1"):
        RateLimit(most=0)


def test_waveforms_are_short_decaying_and_tell_the_kinds_apart() -> None:
    centroids = {}
    for kind in Knocked:
        y = waveform(kind)
        assert 0.04 <= y.size / SAMPLE_RATE <= 0.1
        assert math.isclose(float(np.max(np.abs(y))), 0.9)
        q = y.size // 4
        assert np.sum(y[-q:] ** 2) < 0.01 * np.sum(y[:q] ** 2)  # a knock, not a tone
        assert abs(y[0]) < 0.05  # no click from a jump at the start
        spec = np.abs(np.fft.rfft(y))
        freqs = np.fft.rfftfreq(y.size, 1.0 / SAMPLE_RATE)
        centroids[kind] = float(np.sum(freqs * spec) / np.sum(spec))
    # two dice click highest, the table thuds lowest
    assert centroids[Knocked.DIE] > centroids[Knocked.PIN] > centroids[Knocked.WALL]
    assert centroids[Knocked.WALL] > centroids[Knocked.TABLE]


def test_the_log_is_followed_across_flicks_and_muting_skips() -> None:
    s = ImpactSounds()
    s.device = False  # never open pyglet here: no display in this test
    old = (_contact("wall", 800.0, 0.1),)
    s.skip(old)
    assert s.poll(old, 1.0) == []  # heard before the window opened
    log = [*old, _contact("pin:3", 800.0, 0.2)]
    assert [k.kind for k in s.poll(log, 2.0)] == [Knocked.PIN]
    assert s.poll(log, 3.0) == []  # nothing new
    new_flick = [_contact("die:2", 1500.0, 0.0)]  # the log starts again
    assert [k.kind for k in s.poll(new_flick, 4.0)] == [Knocked.DIE]
    s.toggle()
    assert s.muted
    log2 = [*new_flick, _contact("wall", 900.0, 0.3)]
    assert s.poll(log2, 5.0) == []
    s.toggle()
    assert s.poll(log2, 6.0) == []  # what was muted is not played late
    assert s.heard == 2
