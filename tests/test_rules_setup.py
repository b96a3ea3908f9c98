"""Setup, rounds, actions' round trip and house-rules files (scripted physics)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rules_helpers import BOARD, game, phys

from warlords_sim.board import Crenelation
from warlords_sim.rules import (
    BoardFlick,
    Decline,
    GameConfig,
    HouseRules,
    HouseRulesError,
    Location,
    RingPinMove,
    SapperPull,
    SiegeShot,
    SpyMove,
    SupplyFlick,
    action_from_dict,
    load_house_rules,
)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_three_pins_per_player_across_their_castle_and_six_dice(players: int) -> None:
    """Rounds and Setup: "three pins should be placed in the center ring per
    player in the holes directly across from their home castle"; six dice each."""
    g = game(players)
    s = g.state
    expected = sorted(h for seat in s.seats for h in BOARD.center_ring.pins_by_seat[seat])
    assert list(phys(g).pins) == expected
    assert len(phys(g).pins) == 3 * players
    for p in range(players):
        assert len(s.supply(p)) == 6
    assert all(d.location is Location.SUPPLY for d in s.dice.values())
    assert g.config.rounds == players  # one round per player


def test_seats() -> None:
    assert GameConfig(BOARD, 2).seats_for_round(0) == (0, 2)
    assert GameConfig(BOARD, 4).seats_for_round(1) == (0, 1, 2, 3)
    c3 = GameConfig(BOARD, 3)
    assert c3.castle_seats() == (0, 1, 2)
    assert [c3.seats_for_round(r) for r in range(3)] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]


def test_config_errors() -> None:
    with pytest.raises(ValueError, match="players must be 2, 3 or 4"):
        GameConfig(BOARD, 5)
    with pytest.raises(ValueError, match="first_player"):
        GameConfig(BOARD, 2, HouseRules(first_player=3))


floats = st.floats(allow_nan=False, allow_infinity=False, width=64)
vel = st.tuples(floats, floats)
actions = st.one_of(
    st.builds(
        SupplyFlick,
        st.integers(1, 3),
        st.sampled_from(list(Crenelation)),
        vel,
        floats,
        st.integers(1, 6),
        st.floats(-8.0, 8.0),
    ),
    st.builds(BoardFlick, st.integers(0, 23), vel, floats, st.floats(-8.0, 8.0)),
    st.builds(SiegeShot, st.integers(0, 23), vel, floats, st.floats(-8.0, 8.0)),
    st.builds(SpyMove, st.integers(0, 23), floats, floats),
    st.builds(SapperPull, st.integers(0, 63)),
    st.builds(RingPinMove, st.integers(0, 63), st.integers(0, 63)),
    st.just(Decline()),
)


@given(actions)
def test_action_dict_round_trip(action: object) -> None:
    import json

    d = action.to_dict()  # type: ignore[attr-defined]
    assert action_from_dict(json.loads(json.dumps(d))) == action


def test_action_from_dict_errors() -> None:
    with pytest.raises(ValueError, match="unknown action type"):
        action_from_dict({"type": "push"})
    with pytest.raises(ValueError, match="'die'"):
        action_from_dict({"type": "board_flick", "velocity": [1, 2]})


def test_house_rules_defaults_and_file(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    hr = HouseRules()
    assert hr.wall_variant == "standard" and hr.courtyard_dice_in_play is False
    assert hr.second_flick_earns_ability is True and hr.rounds == 0
    f = tmp_path / "h.toml"
    f.write_text('format = "warlords-house-rules"\nwall_variant = "wall1"\nrounds = 2\n')
    got = load_house_rules(f)
    assert got.wall_variant == "wall1" and got.rounds == 2


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ('rounds = "x"', r"h.toml: field `rounds`: expected int, got str"),
        ("colour = 1", r"unknown field `colour`: expected one of"),
        ('wall_variant = "wall3"', r"field `wall_variant`: expected one of standard, wall1, wall2"),
        ("dice_per_player = 0", r"field `dice_per_player`: expected an integer 1..20"),
        ("rounds = ", r"h.toml: not valid TOML"),
    ],
)
def test_house_rules_errors_name_file_field_expected(
    tmp_path: object, text: str, match: str
) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    f = tmp_path / "h.toml"
    f.write_text(text)
    with pytest.raises(HouseRulesError, match=match):
        load_house_rules(f)


def test_house_rules_missing_file(tmp_path: object) -> None:
    with pytest.raises(HouseRulesError, match="cannot read house rules"):
        load_house_rules(f"{tmp_path}/none.toml")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ring_pins_near_or_far_side(players: int) -> None:
    """ "three pins ... in the holes directly across from their home castle":
    the near-side reading (default) fills the arc facing each castle, the
    far-side reading (house rule ``ring_pins``) the arc facing the opposite
    seat. Two or four players: the same holes; three: different ones."""
    ring = BOARD.center_ring.pins_by_seat
    near = game(players)
    far = game(players, ring_pins="far_side")
    seats = near.config.castle_seats()
    assert set(phys(near).pins) == {h for s in seats for h in ring[s]}
    assert set(phys(far).pins) == {h for s in seats for h in ring[(s + 2) % 4]}
    assert (set(phys(near).pins) == set(phys(far).pins)) is (players != 3)
