"""Die abilities, the center ring and the siege engine (scripted physics)."""

from __future__ import annotations

import math

import pytest
from rules_helpers import (
    BOARD,
    COURTYARD,
    GATEWAY,
    MOAT,
    OPEN,
    OPEN2,
    RING,
    game,
    land,
    phys,
    place,
    supply_flick,
)

from warlords_sim.physics.types import LaunchKind
from warlords_sim.rules import (
    BoardFlick,
    Decline,
    PendingKind,
    RingPinMove,
    SapperPull,
    SiegeShot,
    SpyMove,
    SupplyFlick,
)
from warlords_sim.rules import errors as err
from warlords_sim.rules.scripted import FLICKED, Landing

V = (0.0, 600.0)


@pytest.mark.parametrize(
    ("face", "kind"),
    [
        (1, PendingKind.SCOUT),
        (2, None),
        (3, PendingKind.SPY),
        (4, PendingKind.SAPPER),
        (5, None),
        (6, PendingKind.GENERAL),
    ],
)
def test_ability_by_face(face: int, kind: PendingKind | None) -> None:
    """Die Abilities: 1 Scout, 2 and 5 none, 3 Spy, 4 Sapper, 6 General."""
    g = game(2)
    out = supply_flick(g, land(*OPEN, face))
    assert (out.pending.kind if out.pending else None) is kind
    assert g.state.active == (0 if kind else 1)
    if kind:
        g.apply(Decline())
        assert g.state.active == 1 and g.state.pending is None


def test_scout_flicks_the_same_die_a_second_time() -> None:
    """ "A die showing a 1 may be flicked a second time (Scout)"."""
    g = game(2)
    supply_flick(g, land(*OPEN, 1))
    with pytest.raises(err.WrongDieError):
        g.apply(SupplyFlick(2, __import__("warlords_sim.board").board.Crenelation.LOW, V))
    place(g, 1, *OPEN2, 2)
    with pytest.raises(err.WrongDieError, match="die 0"):
        g.apply(BoardFlick(1, V))
    phys(g).push(land(100.0, 100.0, 5))
    g.apply(BoardFlick(0, V))
    assert g.state.active == 1


def test_second_flick_earns_its_own_ability_by_default() -> None:
    """House rule second_flick_earns_ability (brief 4.2), default true."""
    g = game(2)
    supply_flick(g, land(*OPEN, 1))
    phys(g).push(land(100.0, 100.0, 4))
    out = g.apply(BoardFlick(0, V))
    assert out.pending is not None and out.pending.kind is PendingKind.SAPPER


def test_second_flick_earns_nothing_under_house_rule() -> None:
    g = game(2, second_flick_earns_ability=False)
    supply_flick(g, land(*OPEN, 1))
    phys(g).push(land(100.0, 100.0, 4))
    out = g.apply(BoardFlick(0, V))
    assert out.pending is None and g.state.active == 1


def test_spy_moves_anywhere_outside_the_ring_not_within_a_moat() -> None:
    """ "A die showing a 3 may be moved anywhere on the board outside of the
    center ring but not within any castle moat (Spy)"."""
    g = game(2)
    supply_flick(g, land(*OPEN, 3))
    for x, y, match in [
        (*RING, "center ring"),
        (*MOAT[2], "moat"),
        (0.0, 255.0, "castle"),
        (400.0, 0.0, "not on the board"),
    ]:
        with pytest.raises(err.SpyPlacementError, match=match):
            g.apply(SpyMove(0, x, y))
    with pytest.raises(err.WrongDieError):
        g.apply(SpyMove(1, 0.0, 150.0))
    g.apply(SpyMove(0, 40.0, 150.0))
    pose = g.state.dice[0].pose
    assert pose is not None and (pose.x, pose.y, pose.face) == (40.0, 150.0, 3)
    assert g.state.active == 1


@pytest.mark.parametrize("into_castle", [False, True])
def test_spy_may_not_reach_into_a_castle_in_part(into_castle: bool) -> None:
    """Saved case (issue 18): with ``spy_into_castle = false`` a Spy could be
    set down 15.5 of its 16 mm inside a courtyard, the last 0.5 mm in its
    gateway: the ban caught only a die entirely inside a courtyard or
    gateway. It is now read as the Spy's other bans are ("outside of the
    center ring", "not within any castle moat"): no part of the die inside a
    castle. With ``spy_into_castle = true`` the spot is allowed; the die is
    then in neither region entirely, so it stays on the board."""
    seat = 2
    castle = BOARD.castles[seat]
    gate = min(castle.gateways, key=lambda r: r.x0)
    assert gate.y1 == castle.courtyard.y0  # seat 2: the gateway below the courtyard
    half = BOARD.die.size_mm / 2.0
    x, y = gate.center[0], castle.courtyard.y0 + half - 0.5  # 15.5 mm in the courtyard
    g = game(2, spy_into_castle=into_castle)
    supply_flick(g, land(*OPEN, 3))
    if not into_castle:
        with pytest.raises(err.SpyPlacementError, match="castle, not even in part"):
            g.apply(SpyMove(0, x, y))
        assert g.state.dice[0].pose is not None
        assert (g.state.dice[0].pose.x, g.state.dice[0].pose.y) == OPEN  # not moved
        return
    out = g.apply(SpyMove(0, x, y))
    pose = g.state.dice[0].pose
    assert pose is not None and pose.region.kind.value == "board"
    assert out.placement is not None and out.placement.scored == ()


def test_spy_may_not_land_on_a_die() -> None:
    g = game(2)
    place(g, 6, 40.0, 150.0, 2)
    supply_flick(g, land(*OPEN, 3))
    with pytest.raises(err.SpyPlacementError, match="wall, pin or die"):
        g.apply(SpyMove(0, 45.0, 150.0))


def test_a_turned_spy_may_not_land_with_a_corner_on_a_die() -> None:
    """Saved case (bot games on model 2.5d-5): the Spy's spot was checked for
    a square of the die's size set square to the board, while the Spy is set
    down keeping its turn; a Spy turned 45 degrees put beside a die passed the
    check and came to rest up to 1.55 mm inside it (17 of 40 four-player
    games). The check now uses the Spy's own footprint at its own turn."""
    g = game(2)
    place(g, 6, 40.0, 150.0, 2)
    supply_flick(g, land(*OPEN, 3))
    phys(g).move_die(0, *OPEN, angle=math.pi / 4.0)  # the Spy lies turned 45 degrees
    g.state.dice[0].pose = phys(g).pose(0)
    # 17 mm from the die's centre: clear for a square set straight, not turned
    with pytest.raises(err.SpyPlacementError, match="a die"):
        g.apply(SpyMove(0, 57.0, 150.0))
    g.apply(SpyMove(0, 60.0, 150.0))  # 20 mm: a turned die's corner reaches 11.3 + 8
    pose = phys(g).pose(0)
    assert (pose.x, pose.y) == (60.0, 150.0)
    assert pose.angle == pytest.approx(math.pi / 4.0)


@pytest.mark.parametrize("where", ["courtyard", "gateway"])
def test_a_spy_set_in_a_castle_is_placed_as_a_landing_is(where: str) -> None:
    """Saved case (issue 12): with ``spy_into_castle = true`` a Spy set in a
    courtyard or gateway stayed "in play" on the board: the round did not end
    although it was the player's last die in play, and a gateway Spy stayed
    in the gateway until some later flick. A Spy's move now goes through the
    landing's bookkeeping: it counts in the courtyard (a gateway Spy moved to
    the back of it) and, being P0's last die in play, ends the round, whose
    damage counts it."""
    g = game(2, spy_into_castle=True, dice_per_player=1)
    supply_flick(g, land(*OPEN, 3))  # P0's only die: a Spy on the board
    seat = g.state.seats[1]  # P1's castle
    x, y = (COURTYARD if where == "courtyard" else GATEWAY)[seat]
    out = g.apply(SpyMove(0, x, y))
    record = out.round_ended
    assert record is not None and record.out_player == 0, out
    assert record.ended_by == "no_dice"
    assert (0, seat, 3) in record.courtyard
    assert record.damage[1] == 3
    assert out.placement is not None and out.placement.scored == (0,)
    if where == "gateway":
        assert out.placement.gateway_moves == (0,)


def test_sapper_pulls_any_pin() -> None:
    """ "A die showing a 4 allows the active player to pull and remove any pin from the board"."""
    g = game(2)
    supply_flick(g, land(*OPEN, 4))
    pins = phys(g).pins
    with pytest.raises(err.PinError):
        g.apply(SapperPull(40))
    g.apply(SapperPull(pins[0]))
    assert pins[0] not in phys(g).pins and g.state.pulled_pins == 1


def test_general_flicks_a_second_die_not_itself() -> None:
    """ "A die showing a 6 allows the current player to flick a second die ...
    The die showing the 6 can not be flicked a second time (General)"."""
    g = game(2)
    supply_flick(g, land(*OPEN, 6))
    with pytest.raises(err.WrongDieError, match="6"):
        g.apply(BoardFlick(0, V))
    out = supply_flick(g, land(*OPEN2, 2))
    assert out.pending is None and g.state.active == 1
    assert g.state.turn_dice == []


@pytest.mark.parametrize("chain", ["rulebook", "last_general_only"])
def test_a_chain_of_generals(chain: str) -> None:
    """Issue 12: die A lands 6 (General), the second die B lands 6 too. Under
    the rulebook's reading ("The die showing the 6 can not be flicked a
    second time") A may not be the third flick; house rule
    ``general_chain = "last_general_only"`` bars only B (the old behaviour)."""
    g = game(2, general_chain=chain)
    supply_flick(g, land(*OPEN, 6))  # A = die 0
    out = supply_flick(g, land(*OPEN2, 6))  # B = die 1, another General
    assert out.pending is not None and out.pending.die == 1
    legal = g.legal_actions()
    with pytest.raises(err.WrongDieError, match="6"):
        g.apply(BoardFlick(1, V))
    if chain == "rulebook":
        assert 0 not in legal.board_dice
        with pytest.raises(err.WrongDieError, match="6"):
            g.apply(BoardFlick(0, V))
    else:
        assert 0 in legal.board_dice
        phys(g).push(land(100.0, 40.0, 2))
        g.apply(BoardFlick(0, V))
        assert g.state.active == 1


def test_board_flick_without_face_change_earns_no_ability() -> None:
    """ "A die that is flicked from the board ... that does not change its face
    value is not allowed to use the special ability of its facing"."""
    g = game(2)
    place(g, 0, *OPEN, 4)
    phys(g).push(land(100.0, 40.0, 4))
    out = g.apply(BoardFlick(0, V))
    assert out.pending is None and g.state.active == 1
    g2 = game(2)
    place(g2, 0, *OPEN, 2)
    phys(g2).push(land(100.0, 40.0, 4))
    assert g2.apply(BoardFlick(0, V)).pending is not None


def test_supply_flick_keeping_its_face_still_earns() -> None:
    g = game(2)
    out = supply_flick(g, land(*OPEN, 3), face=3)
    assert out.pending is not None and out.pending.kind is PendingKind.SPY


def test_other_players_dice_changing_face_earn_nothing() -> None:
    """ "Dice of another player that are moved during a turn and change facing
    do not activate a new ability"."""
    g = game(2)
    place(g, 6, *OPEN2, 2)
    out = supply_flick(g, Landing({FLICKED: (*OPEN, 5), 6: (-100.0, 60.0, 6)}))
    assert out.pending is None and g.state.active == 1
    assert g.state.pending is None


def test_cocked_die_reads_the_upward_face_and_no_ability_option() -> None:
    """Brief 4.5: a cocked die reads as if its support were removed; house
    rule cocked_die = "no_ability" denies it an ability."""
    g = game(2)
    out = supply_flick(g, Landing({FLICKED: (*OPEN, 4)}, cocked=frozenset({0})))
    assert out.pending is not None
    g2 = game(2, cocked_die="no_ability")
    out = supply_flick(g2, Landing({FLICKED: (*OPEN, 4)}, cocked=frozenset({0})))
    assert out.pending is None


def test_center_ring_pin_move() -> None:
    """The Center Ring: a die landing entirely within it lets the player move any
    ring pin to any open hole; its face value is never relevant."""
    g = game(2)
    out = supply_flick(g, land(*RING, 4))  # a 4 in the ring is no Sapper
    assert out.pending is not None and out.pending.kind is PendingKind.RING
    legal = g.legal_actions()
    assert set(legal.ring_pins) == set(phys(g).pins)
    src = legal.ring_pins[0]
    with pytest.raises(err.PinError, match="not an open hole"):
        g.apply(RingPinMove(src, legal.ring_pins[1]))
    with pytest.raises(err.PinError, match="center-ring hole"):
        g.apply(RingPinMove(40, 41))
    g.apply(RingPinMove(src, 40))
    assert src not in phys(g).pins and 40 in phys(g).pins and g.state.active == 1


def test_ring_pin_may_not_go_under_a_die() -> None:
    """ "Dice may not be moved to place a pin": a hole under a die is not open."""
    g = game(2)
    hx, hy = BOARD.holes[40]
    place(g, 6, hx, hy, 2)
    supply_flick(g, land(*RING, 4))
    assert 40 not in g.legal_actions().open_holes
    with pytest.raises(err.PinError):
        g.apply(RingPinMove(g.legal_actions().ring_pins[0], 40))


def test_ring_needs_the_die_to_start_the_turn_outside() -> None:
    """ "The active die must have started the turn outside of the center ring"."""
    g = game(2)
    supply_flick(g, land(*RING, 2))
    g.apply(Decline())
    supply_flick(g, land(*OPEN2, 2))
    phys(g).push(land(5.0, 5.0, 5))
    out = g.apply(BoardFlick(0, V))
    assert out.pending is None and g.state.active == 1


def _doubles(g: object, face: int = 5) -> None:
    place(g, 0, *OPEN, face)  # type: ignore[arg-type]
    place(g, 1, 150.0, 60.0, face)  # type: ignore[arg-type]


def test_siege_engine_needs_doubles_outside_the_ring() -> None:
    """The Siege Engine: "If ... the player has doubles of any value on the board,
    one of those dice may be ... flicked from the top of the siege engine".
    "The face value of a die in the center ring is never relevant"."""
    g = game(2)
    place(g, 0, *OPEN, 5)
    place(g, 1, *RING, 5)
    assert g.legal_actions().siege_dice == ()
    with pytest.raises(err.NotDoublesError):
        g.apply(SiegeShot(0, V))
    g2 = game(2)
    place(g2, 6, *OPEN2, 5)  # another player's 5 is no pair either
    place(g2, 0, *OPEN, 5)
    assert g2.legal_actions().siege_dice == ()


def test_siege_shot_from_the_engine_placed_near_the_die() -> None:
    g = game(2)
    _doubles(g)
    assert g.legal_actions().siege_dice == (0, 1)
    phys(g).push(land(0.0, 255.0, 3))  # over the wall into seat 2's courtyard
    out = g.apply(SiegeShot(0, (0.0, 900.0)))
    f = phys(g).flicks[-1]
    assert f.launch is LaunchKind.SIEGE and f.height_mm == BOARD.siege_engine.launch_height_mm
    assert f.start is not None and f.start[1] > OPEN[1]  # launched off the engine, forward
    assert phys(g).engine is None  # taken away afterwards
    assert out.placement is not None and out.placement.scored == (0,)


def test_a_siege_shot_the_physics_would_refuse_is_refused_before_the_engine_is_placed() -> None:
    """Saved case (issue 21's hostile run): a siege shot spun at 1e6 rad/s
    passed the rules (spin checked for being finite only), the engine was
    placed, then the physics refused the flick and the engine stayed on the
    board: every later digest differed from the replay's. The rules now
    refuse a spin over the physics' limit, and nothing is placed."""
    from warlords_sim.rules.flick_setup import MAX_FLICK_SPIN

    g = game(2)
    _doubles(g)
    with pytest.raises(err.BadFlickError, match="spin .* over the maximum"):
        g.apply(SiegeShot(0, (0.0, 900.0), spin=MAX_FLICK_SPIN * 1.01))
    assert phys(g).siege_engine is None and g.state.flicks == 0
    phys(g).push(land(0.0, 255.0, 3))
    g.apply(SiegeShot(0, (0.0, 900.0), spin=MAX_FLICK_SPIN))  # at the limit: legal


def test_siege_shot_as_a_generals_second_flick() -> None:
    """ "This applies to an initial flick in a turn or to a second flick as
    allowed by a die showing a 1 or a 6"."""
    g = game(2)
    _doubles(g, 2)
    supply_flick(g, land(*OPEN2, 6))
    assert g.legal_actions().siege_dice == (0, 1)
    phys(g).push(land(100.0, 100.0, 5))
    g.apply(SiegeShot(1, (0.0, 800.0)))
    assert g.state.active == 1


def test_each_ability_has_the_rulebooks_name_and_face() -> None:
    """One owner for the abilities' names and faces (issue 22, item 2): the
    log, the decline prompt and the "cannot be used" reason all read
    these; the rulebook's "Die Abilities" gives 1 Scout, 3 Spy, 4 Sapper,
    6 General, none for 2 and 5."""
    from warlords_sim.rules.abilities import ABILITY_BY_FACE

    assert {f: k.title for f, k in ABILITY_BY_FACE.items()} == {
        1: "Scout",
        3: "Spy",
        4: "Sapper",
        6: "General",
    }
    assert PendingKind.RING.title == "center ring pin move"
    assert set(ABILITY_BY_FACE.values()) | {PendingKind.RING} == set(PendingKind)


@pytest.mark.parametrize("face", [1, 3, 4, 6])
def test_a_siege_shot_keeping_its_face_earns_no_ability(face: int) -> None:
    """Guards ``abilities.earned``'s "flicked from the board" (a shot from the
    siege engine counted as a flick from the supply, which earns whatever it
    shows). Rulebook, Die Abilities: "A die that is flicked from the board
    ... that does not change its face value is not allowed to use the
    special ability of its facing"; the Siege Engine: one of the doubles "on
    the board" is picked up and flicked from the engine's top, so a siege
    shot is such a flick. Landing on the face it showed: no ability and the
    turn passes; landing on another face that earns one: the ability."""
    g = game(2)
    _doubles(g, face)
    phys(g).push(land(100.0, 100.0, face))
    out = g.apply(SiegeShot(0, (0.0, 800.0)))
    assert phys(g).flicks[-1].launch is LaunchKind.SIEGE
    assert out.pending is None and g.state.active == 1
    g2 = game(2)
    _doubles(g2, 2)  # a pair of 2s, one shot onto ``face``
    phys(g2).push(land(100.0, 100.0, face))
    out2 = g2.apply(SiegeShot(0, (0.0, 800.0)))
    assert out2.pending is not None and out2.pending.die == 0
