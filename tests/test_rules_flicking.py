"""Flicking, contact, leaving the board, gateways (scripted physics golden playthroughs)."""

from __future__ import annotations

import math

import pytest
from rules_helpers import (
    BOARD,
    COURTYARD,
    GATEWAY,
    OFF,
    OPEN,
    OPEN2,
    game,
    land,
    phys,
    place,
    supply_flick,
)

from warlords_sim.board import Crenelation
from warlords_sim.physics.types import LaunchKind
from warlords_sim.rules import BoardFlick, Decline, Location, SupplyFlick
from warlords_sim.rules import errors as err
from warlords_sim.rules.legal import is_legal
from warlords_sim.rules.resolve import straddled_castle
from warlords_sim.rules.scoring import round_damage
from warlords_sim.rules.scripted import FLICKED, Landing


def test_one_flick_per_turn_then_play_passes_clockwise() -> None:
    """Flicking: "During a player's turn, he/she may flick one of their own dice"."""
    g = game(4)
    assert g.state.active == 0
    out = supply_flick(g, land(*OPEN, 2))
    assert out.pending is None
    assert g.state.active == 1  # seat 1 is next clockwise
    supply_flick(g, land(*OPEN2, 5))
    assert g.state.active == 2


def test_supply_flick_starts_at_the_front_area_crenelation() -> None:
    """Flicking: "Dice flicked from the original supply must be flicked from the
    front three areas of the castle from either a high or low crenelation"."""
    g = game(2)
    phys(g).push(land(*OPEN, 2))
    g.apply(SupplyFlick(3, Crenelation.HIGH, (0.0, 700.0), 0.0, 4))
    f = phys(g).flicks[-1]
    spot = g.config.board.launch_spot(0, 3, Crenelation.HIGH)
    assert f.launch is LaunchKind.HIGH and f.start == (spot.x, spot.y)
    assert f.height_mm == spot.height_mm
    assert f.die == 0  # the lowest die of the supply


@pytest.mark.parametrize(
    ("action", "error", "match"),
    [
        (SupplyFlick(4, Crenelation.LOW, (0.0, 500.0)), err.BadLaunchError, "front three areas"),
        (SupplyFlick(2, Crenelation.LOW, (0.0, 500.0), 0.0, 7), err.BadLaunchError, "face"),
        (SupplyFlick(2, Crenelation.LOW, (0.0, 0.0)), err.BadFlickError, "cannot be pushed"),
        (SupplyFlick(2, Crenelation.LOW, (0.0, 2500.0)), err.BadFlickError, "maximum"),
        (SupplyFlick(2, Crenelation.LOW, (float("nan"), 1.0)), err.BadFlickError, "finite"),
        (SupplyFlick(2, Crenelation.LOW, (0.0, 500.0), 1e6), err.BadFlickError, "spin .* maximum"),
        (BoardFlick(0, (0.0, 500.0)), err.DieNotInPlayError, "not on the board"),
        (BoardFlick(7, (0.0, 500.0)), err.NotYourDieError, "belong"),
        (Decline(), err.CannotDeclineError, "nothing to decline"),
    ],
)
def test_illegal_flicks_raise_specific_errors(action: object, error: type, match: str) -> None:
    g = game(2)
    before = g.state.copy()
    with pytest.raises(error, match=match):
        g.apply(action)  # type: ignore[arg-type]
    assert issubclass(error, ValueError)
    assert g.state.active == before.active and g.state.flicks == 0


def test_never_flick_another_players_die() -> None:
    """Flicking: "Players can never flick dice belonging to other players"."""
    g = game(2)
    place(g, 6, *OPEN, 2)
    with pytest.raises(err.NotYourDieError):
        g.apply(BoardFlick(6, (0.0, 300.0)))


def test_contacted_die_stays_where_moved_or_is_eliminated_if_knocked_off() -> None:
    """Flicking: "that die remains in the location to which it was moved (or is
    removed from play if knocked off the board)"."""
    g = game(2)
    place(g, 6, *OPEN, 2)
    place(g, 7, *OPEN2, 2)
    out = supply_flick(g, Landing({FLICKED: (100.0, 0.0, 5), 6: (120.0, 40.0, 4), 7: None}))
    s = g.state
    assert s.dice[6].location is Location.BOARD and s.dice[6].pose is not None
    assert (s.dice[6].pose.x, s.dice[6].pose.y) == (120.0, 40.0)
    assert s.dice[7].location is Location.ELIMINATED and 7 not in phys(g).dice
    assert out.placement is not None and out.placement.eliminated == (7,)
    assert s.eliminated == [0, 1]
    assert out.pending is None  # the other player's die now shows 4: no Sapper for anyone


def test_die_leaving_the_board_is_eliminated_for_the_round() -> None:
    """Dice Leaving the Board: "Any die that leaves the board for any reason is
    eliminated from play for the round"."""
    g = game(2)
    supply_flick(g, OFF)
    assert g.state.dice[0].location is Location.ELIMINATED
    assert g.state.eliminated == [1, 0]
    assert len(g.state.supply(0)) == 5


def test_gateway_die_moves_to_the_back_of_the_courtyard_keeping_its_face() -> None:
    """End of a Round and Damage: "Any die that is entirely inside a castle
    gateway is moved to the back of the courtyard without changing its face value"."""
    g = game(2)
    out = supply_flick(g, land(*GATEWAY[2], 5))
    d = g.state.dice[0]
    assert d.location is Location.COURTYARD
    assert d.pose is not None and d.pose.face == 5
    assert d.pose.region.kind.value == "courtyard" and d.pose.region.seat == 2
    assert out.placement is not None and out.placement.gateway_moves == (0,)
    # two gateway dice do not pile up
    supply_flick(g, land(*GATEWAY[0], 3))
    supply_flick(g, land(*GATEWAY[2], 6))
    a, b = g.state.dice[0].pose, g.state.dice[1].pose
    assert a is not None and b is not None
    assert max(abs(a.x - b.x), abs(a.y - b.y)) >= 16.0


def test_courtyard_dice_are_not_in_play_by_default() -> None:
    """House rule courtyard_dice_in_play (brief 4.1), default false: a scored
    die cannot be flicked."""
    g = game(2)
    supply_flick(g, land(*COURTYARD[2], 4))
    supply_flick(g, land(*OPEN2, 2))
    with pytest.raises(err.DieNotInPlayError, match="courtyard"):
        g.apply(BoardFlick(0, (0.0, -300.0)))


def test_courtyard_dice_in_play_option() -> None:
    g = game(2, courtyard_dice_in_play=True)
    supply_flick(g, land(*COURTYARD[2], 4))
    supply_flick(g, land(*OPEN2, 2))
    assert 0 in g.legal_actions().board_dice
    phys(g).push(land(*OPEN, 2))
    g.apply(BoardFlick(0, (0.0, -300.0)))
    assert g.state.dice[0].location is Location.BOARD


#: A die's centre 1.5 mm short of the top castle's (seat 2) courtyard, in
#: front of its first gateway: the die lies partly in the gateway, partly in
#: the courtyard (the gateway lies below that courtyard, toward the centre).
ACROSS = (
    BOARD.castles[2].gateways[0].center[0],
    BOARD.castles[2].courtyard.y0 + BOARD.die.size_mm / 2.0 - 1.5,
)


def test_a_die_across_the_gateway_line_stays_and_scores_nothing_by_default() -> None:
    """ "The die must be entirely inside with no portion sticking out of a
    gateway"; only a die "entirely inside a castle gateway is moved to the
    back of the courtyard". Read literally (house rule gateway_straddle,
    default "stays"), a die across the line is in neither: it stays where
    it lies, on the board, scoring nothing, and the placement says it lies
    across the line (the window states the reading)."""
    g = game(2)
    assert g.config.house_rules.gateway_straddle == "stays"
    out = supply_flick(g, land(*ACROSS, 5))
    d = g.state.dice[0]
    assert d.location is Location.BOARD and d.pose is not None
    assert (d.pose.x, d.pose.y, d.pose.face) == (*ACROSS, 5)
    assert out.placement is not None
    assert out.placement.straddling == (0,) and out.placement.gateway_moves == ()
    assert straddled_castle(g.config, d.pose) == 2
    assert round_damage(g.state) == [0, 0]


def test_a_die_across_the_gateway_line_goes_to_the_courtyard_under_the_house_rule() -> None:
    """House rule gateway_straddle = "to_courtyard": a die across the line,
    inside the gateway and the courtyard together, is moved to the back of
    the courtyard as a gateway die is, its face unchanged, and counts there."""
    g = game(2, gateway_straddle="to_courtyard")
    out = supply_flick(g, land(*ACROSS, 5))
    d = g.state.dice[0]
    assert d.location is Location.COURTYARD and d.pose is not None and d.pose.face == 5
    assert d.pose.region.kind.value == "courtyard" and d.pose.region.seat == 2
    assert out.placement is not None
    assert out.placement.gateway_moves == (0,) and out.placement.straddling == ()
    assert round_damage(g.state) == [0, 5]  # seat 2 is P1's castle


def test_only_a_die_inside_the_gateway_and_courtyard_together_lies_across() -> None:
    """Neither reading touches a die entirely in the courtyard or gateway, one
    reaching out of the castle into its moat, or one on the open board."""
    from warlords_sim.physics.regions import classify
    from warlords_sim.physics.types import DiePose

    config = game(2).config
    size = BOARD.die.size_mm
    gate = BOARD.castles[2].gateways[0]

    def pose(x: float, y: float) -> DiePose:
        region = classify(BOARD, x, y, 0.0, config.castle_seats())
        return DiePose(0, x, y, 0.0, 1, 0, region)

    assert straddled_castle(config, pose(*ACROSS)) == 2
    assert straddled_castle(config, pose(*COURTYARD[2])) is None
    assert straddled_castle(config, pose(*GATEWAY[2])) is None
    assert straddled_castle(config, pose(gate.center[0], gate.y0 + size / 2.0 - 2.0)) is None
    assert straddled_castle(config, pose(*OPEN)) is None


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_a_strike_exactly_at_the_limit_is_legal(sign: float) -> None:
    """Guards the strike bound of ``rules/legal.py`` (``abs(strike_mm) <=
    half``; a ``<`` refused a flick struck at the very top or bottom of the
    die's trailing face). "A flick requires that a die travels on its own
    after leaving a player's finger": the finger may strike anywhere on the
    trailing face, edges included (``DieSpec.strike_limit_mm``, half the
    die's height); one float beyond it is refused, for a supply flick and a
    flick from the board alike."""
    g = game(2)
    half = BOARD.die.strike_limit_mm
    assert half == BOARD.die.sides_mm[2] / 2.0
    beyond = math.nextafter(half, math.inf)
    at = SupplyFlick(2, Crenelation.HIGH, (0.0, 800.0), 0.0, 1, strike_mm=sign * half)
    over = SupplyFlick(2, Crenelation.HIGH, (0.0, 800.0), 0.0, 1, strike_mm=sign * beyond)
    assert is_legal(g.state, at)
    assert not is_legal(g.state, over)
    with pytest.raises(err.BadFlickError, match="strikes within the die"):
        g.apply(over)
    place(g, 0, *OPEN, 2)
    assert is_legal(g.state, BoardFlick(0, (0.0, 600.0), strike_mm=sign * half))
    assert not is_legal(g.state, BoardFlick(0, (0.0, 600.0), strike_mm=sign * beyond))
