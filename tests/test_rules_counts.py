"""The round tallies kept for statistics (``RoundCounts``, read by
``warlords-sim variants``): siege shots, exits over the side walls, rounds
ended by the final-die rule. No rule reads them."""

from __future__ import annotations

from rules_helpers import COURTYARD, OFF, OPEN, OPEN2, game, land, phys, place, supply_flick

from warlords_sim.rules import BoardFlick, Game, Outcome, SiegeShot
from warlords_sim.rules.scripted import FLICKED, Landing


def _board_flick(g: Game, die: int, landing: Landing) -> Outcome:
    phys(g).push(landing)
    return g.apply(BoardFlick(die, (0.0, 300.0)))


def test_siege_shots_are_counted_and_reset_each_round() -> None:
    g = game(2, dice_per_player=2)
    place(g, 0, *OPEN, 5)
    place(g, 1, 150.0, 60.0, 5)
    phys(g).push(land(100.0, 100.0, 2))
    g.apply(SiegeShot(0, (0.0, 800.0)))  # P0, doubles of 5
    assert g.state.counts.siege_shots == 1
    copy = g.state.copy()
    assert copy.counts == g.state.counts and copy.counts is not g.state.counts
    supply_flick(g, land(*OPEN2, 2))  # P1's die 2
    _board_flick(g, 1, land(150.0, 30.0, 2))  # P0
    supply_flick(g, land(-100.0, 60.0, 2))  # P1's die 3, its last
    out = _board_flick(g, 0, Landing({FLICKED: (100.0, 90.0, 2), 2: None, 3: None}))
    rec = out.round_ended  # P0 knocked both of P1's dice off
    assert rec is not None and rec.out_player == 1
    assert rec.counts.siege_shots == 1 and rec.counts.final_die_end
    assert rec.to_dict()["siege_shots"] == 1 and rec.to_dict()["final_die_end"] is True
    assert g.state.counts.siege_shots == 0 and not g.state.counts.final_die_end
    assert g.state.copy().history[0].counts == rec.counts


def test_final_die_rule_end_is_told_apart_from_other_ends() -> None:
    g = game(2, dice_per_player=1)
    supply_flick(g, land(*OPEN, 2))
    out = supply_flick(g, Landing({FLICKED: (*OPEN2, 2), 0: None}))  # P1 knocks P0's last die off
    assert out.round_ended is not None and out.round_ended.counts.final_die_end
    g2 = game(2, dice_per_player=1)
    supply_flick(g2, land(*OPEN, 2))
    # P1's only die goes into a courtyard: P1 is out, but not by the final-die rule
    out = supply_flick(g2, land(*COURTYARD[0], 4))
    rec = out.round_ended
    assert rec is not None and rec.out_player == 1 and not rec.counts.final_die_end


def test_wall_exits_are_counted_removed_or_returned() -> None:
    g = game(2, wall_variant="wall2")
    supply_flick(g, Landing({FLICKED: None}, over_wall=True))  # removed
    supply_flick(g, Landing({FLICKED: None}, over_wall=True, landed=False))  # returned
    supply_flick(g, OFF)  # P0: off the board, not over a wall
    assert g.state.counts.wall_exits == 2
    g2 = game(2)  # no side walls: an exit is never over a wall
    supply_flick(g2, Landing({FLICKED: None}, over_wall=True))
    assert g2.state.counts.wall_exits == 0


def test_a_flick_at_the_maximum_speed_in_any_direction_is_legal() -> None:
    """A bot's hand caps the speed at the maximum, then turns it into a vector:
    the vector's length may round a hair over 2000 mm/s (a bot game once died
    with "flick speed 2000.0 mm/s is over the maximum of 2000 mm/s")."""
    import math

    from warlords_sim.board import Crenelation
    from warlords_sim.rules import SupplyFlick
    from warlords_sim.rules.legal import MAX_FLICK_SPEED, is_legal

    a = next(
        a
        for a in (i * 0.001 for i in range(1, 2000))
        if math.hypot(MAX_FLICK_SPEED * math.cos(a), MAX_FLICK_SPEED * math.sin(a))
        > MAX_FLICK_SPEED
    )
    v = (MAX_FLICK_SPEED * math.cos(a), MAX_FLICK_SPEED * math.sin(a))
    g = game(2)
    assert is_legal(g.state, SupplyFlick(2, Crenelation.LOW, v))
    assert not is_legal(g.state, SupplyFlick(2, Crenelation.LOW, (0.0, MAX_FLICK_SPEED + 0.01)))
