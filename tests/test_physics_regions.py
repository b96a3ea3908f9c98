"""Region classification of a settled die (``physics.regions``).

The rulebook's regions ("entirely within the center ring", "entirely
inside a courtyard", "entirely inside a castle gateway", "within a moat",
off the board) are decided from the die's whole footprint (design brief,
section 2). These tests pin each region kind for every seat, the
whole-footprint rule at each boundary, and the order in which the regions
are tested. Pure geometry: no pymunk stepping, except one check that
``World.pose`` reports the same region.
"""

from __future__ import annotations

import math

import pytest

from warlords_sim.board import Board, load_board, rotate_to_seat
from warlords_sim.physics import Region, RegionKind, World
from warlords_sim.physics.regions import classify, footprint, overlaps_moat

SEATS = (0, 1, 2, 3)
HALF = 8.0  # half the 16 mm die


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board("standard")


def _at(board: Board, seat: int, x: float, y: float, angle: float = 0.0) -> Region:
    """Classify a die given in seat 0's frame, turned to ``seat``'s place.

    A square turned by a multiple of 90 degrees keeps its footprint, so the
    same angle serves every seat."""
    bx, by = rotate_to_seat(x, y, seat)
    return classify(board, bx, by, angle)


# --------------------------------------------------------------- footprint


def test_footprint_axis_aligned_corners() -> None:
    """An unturned die's footprint is the 16 mm square around its centre."""
    corners = footprint(10.0, -20.0, 0.0, 16.0)
    assert sorted(corners) == sorted([(2.0, -28.0), (18.0, -28.0), (18.0, -12.0), (2.0, -12.0)])


def test_footprint_turned_45_degrees_reaches_half_diagonal() -> None:
    """Turned by 45 degrees, the corners lie on the axes at the half diagonal."""
    corners = footprint(0.0, 0.0, math.pi / 4.0, 16.0)
    radii = [math.hypot(x, y) for x, y in corners]
    assert radii == pytest.approx([8.0 * math.sqrt(2.0)] * 4)
    xs = sorted(round(x, 9) for x, _ in corners)
    assert xs[0] == pytest.approx(-8.0 * math.sqrt(2.0))
    assert xs[-1] == pytest.approx(8.0 * math.sqrt(2.0))


# --------------------------------------------------------------- each kind


@pytest.mark.parametrize("seat", SEATS)
def test_courtyard_interior(board: Board, seat: int) -> None:
    """A die in the middle of a courtyard is in that seat's courtyard."""
    assert _at(board, seat, 0.0, -255.0) == Region(RegionKind.COURTYARD, seat)
    # in a corner of the courtyard, still wholly inside
    assert _at(board, seat, -100.0 + HALF, -284.0 + HALF) == Region(RegionKind.COURTYARD, seat)


@pytest.mark.parametrize("seat", SEATS)
def test_gateway_interior(board: Board, seat: int) -> None:
    """A die wholly inside either gateway is in that seat's gateway, also when turned."""
    for gx in (-40.0, 40.0):
        assert _at(board, seat, gx, -214.0) == Region(RegionKind.GATEWAY, seat)
        # 45 degrees: the half diagonal (11.3 mm) still fits the 30 x 24 mm gateway
        assert _at(board, seat, gx, -214.0, math.pi / 4.0) == Region(RegionKind.GATEWAY, seat)


@pytest.mark.parametrize("seat", SEATS)
def test_moat_by_centre(board: Board, seat: int) -> None:
    """A die whose centre lies in the moat is "within the moat"."""
    assert _at(board, seat, 0.0, -187.0) == Region(RegionKind.MOAT, seat)
    assert _at(board, seat, -105.0, -180.0) == Region(RegionKind.MOAT, seat)


def test_center_ring_interior(board: Board) -> None:
    """A die at the board centre, or turned anywhere well inside, is in the ring."""
    assert classify(board, 0.0, 0.0, 0.0) == Region(RegionKind.CENTER_RING)
    assert classify(board, 20.0, -30.0, 0.7) == Region(RegionKind.CENTER_RING)


def test_open_board(board: Board) -> None:
    """Open board between castles and ring is plain board."""
    for x, y in ((150.0, 150.0), (-150.0, 0.0), (0.0, 120.0), (-250.0, -250.0)):
        assert classify(board, x, y, 0.3) == Region(RegionKind.BOARD), (x, y)


def test_off_board(board: Board) -> None:
    """A centre beyond the edge is off the board; on the edge line it is not."""
    assert classify(board, 300.5, 0.0, 0.0) == Region(RegionKind.OFF_BOARD)
    assert classify(board, 0.0, -310.0, 0.0) == Region(RegionKind.OFF_BOARD)
    assert classify(board, 250.0, 301.0, 0.0) == Region(RegionKind.OFF_BOARD)
    assert classify(board, 300.0, 250.0, 0.0).kind is not RegionKind.OFF_BOARD


# ------------------------------------------------------ whole-footprint rule


@pytest.mark.parametrize("seat", SEATS)
def test_die_straddling_courtyard_line_is_not_in_courtyard(board: Board, seat: int) -> None:
    """Half in the gateway, half in the courtyard (centre on the courtyard's
    front line y = -226): neither courtyard nor gateway."""
    region = _at(board, seat, -40.0, -226.0)
    assert region.kind not in (RegionKind.COURTYARD, RegionKind.GATEWAY)
    # a hair further in, but one corner still out: not in the courtyard
    assert _at(board, seat, -40.0, -226.0 - HALF + 0.01).kind is not RegionKind.COURTYARD
    # wholly in: in the courtyard
    assert _at(board, seat, -40.0, -226.0 - HALF - 0.01) == Region(RegionKind.COURTYARD, seat)


@pytest.mark.parametrize("seat", SEATS)
def test_die_half_in_gateway_is_not_in_gateway(board: Board, seat: int) -> None:
    """Half in a gateway, half in the moat: in the moat (by its centre), not the gateway."""
    assert _at(board, seat, -40.0, -202.0) == Region(RegionKind.MOAT, seat)
    # one corner out of the gateway's front
    assert _at(board, seat, -40.0, -202.0 - HALF + 0.01).kind is not RegionKind.GATEWAY
    # sideways: x range of the gateway is -55..-25, walls either side; no
    # tolerance for a corner in a wall (a settled die never is: the world
    # moves it clear), touching the wall's face is inside
    assert _at(board, seat, -55.0 + HALF - 0.01, -214.0).kind is not RegionKind.GATEWAY
    assert _at(board, seat, -55.0 + HALF, -214.0) == Region(RegionKind.GATEWAY, seat)
    assert _at(board, seat, -55.0 + HALF + 0.01, -214.0) == Region(RegionKind.GATEWAY, seat)


@pytest.mark.parametrize("seat", SEATS)
def test_turned_die_corner_decides(board: Board, seat: int) -> None:
    """A die that fits the courtyard square-on but pokes a corner out when
    turned 45 degrees is not in the courtyard."""
    x, y = 0.0, -226.0 - HALF - 1.0  # 1 mm inside the front line when unturned
    assert _at(board, seat, x, y, 0.0) == Region(RegionKind.COURTYARD, seat)
    assert _at(board, seat, x, y, math.pi / 4.0).kind is not RegionKind.COURTYARD


def test_center_ring_whole_footprint(board: Board) -> None:
    """A die must lie wholly within the inner radius (57 mm): a corner beyond is not in."""
    r_in = board.center_ring.inner_radius_mm
    # unturned die on the +y axis: farthest corners at (+-8, y + 8)
    y_fit = math.sqrt(r_in**2 - HALF**2) - HALF
    assert classify(board, 0.0, y_fit - 0.01, 0.0) == Region(RegionKind.CENTER_RING)
    assert classify(board, 0.0, y_fit + 0.01, 0.0) == Region(RegionKind.BOARD)
    # turned 45 degrees, one corner points outward along the axis
    y45 = r_in - HALF * math.sqrt(2.0)
    assert classify(board, 0.0, y45 - 0.01, math.pi / 4.0) == Region(RegionKind.CENTER_RING)
    assert classify(board, 0.0, y45 + 0.01, math.pi / 4.0) == Region(RegionKind.BOARD)


# ------------------------------------------------------------------- seats


def test_only_standing_castles_count(board: Board) -> None:
    """With three players the closed seat's courtyard, gateways and moat are plain board."""
    cx, cy = rotate_to_seat(0.0, -255.0, 3)
    gx, gy = rotate_to_seat(-40.0, -214.0, 3)
    mx, my = rotate_to_seat(0.0, -187.0, 3)
    seats = (0, 1, 2)
    assert classify(board, cx, cy, 0.0, seats) == Region(RegionKind.BOARD)
    assert classify(board, gx, gy, 0.0, seats) == Region(RegionKind.BOARD)
    assert classify(board, mx, my, 0.0, seats) == Region(RegionKind.BOARD)
    assert classify(board, cx, cy, 0.0) == Region(RegionKind.COURTYARD, 3)


def test_regions_of_different_seats_do_not_mix(board: Board) -> None:
    """Each seat's courtyard centre is classified with that seat's number only."""
    for seat in SEATS:
        x, y = board.castles[seat].courtyard.center
        assert classify(board, x, y, 0.0) == Region(RegionKind.COURTYARD, seat)


def test_overlaps_moat(board: Board) -> None:
    """``overlaps_moat`` is true as soon as any part of the die reaches a moat."""
    assert overlaps_moat(board, 0.0, -187.0, 0.0)
    assert overlaps_moat(board, 0.0, -172.0 + HALF - 0.5, 0.0)  # front edge dips in
    assert not overlaps_moat(board, 0.0, -172.0 + HALF + 0.5, 0.0)
    assert not overlaps_moat(board, 0.0, 0.0, 0.0)


# ----------------------------------------------------------- region values


@pytest.mark.parametrize(
    "region",
    [
        Region(RegionKind.BOARD),
        Region(RegionKind.OFF_BOARD),
        Region(RegionKind.CENTER_RING),
        *(
            Region(k, s)
            for k in (RegionKind.COURTYARD, RegionKind.GATEWAY, RegionKind.MOAT)
            for s in SEATS
        ),
    ],
)
def test_region_text_round_trip(region: Region) -> None:
    """``Region.parse(str(r)) == r`` for every region the CLI may print."""
    assert Region.parse(str(region)) == region


def test_region_parse_rejects_unknown() -> None:
    """An unknown region name is a ValueError."""
    with pytest.raises(ValueError):
        Region.parse("castle:0")


def test_world_pose_reports_classified_region(board: Board) -> None:
    """``World.pose`` gives the same region as ``classify`` for dice at rest."""
    w = World(board)
    places = {
        1: (0.0, -255.0),
        2: (-40.0, -214.0),
        3: (0.0, -187.0),
        4: (0.0, 0.0),
        5: (150.0, 150.0),
    }
    for die, (x, y) in places.items():
        w.add_die(die, x, y)
    for die, (x, y) in places.items():
        assert w.pose(die).region == classify(board, x, y, 0.0), die
    assert w.pose(1).region == Region(RegionKind.COURTYARD, 0)
    assert w.pose(2).region == Region(RegionKind.GATEWAY, 0)
