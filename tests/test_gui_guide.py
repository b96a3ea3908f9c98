"""The aim guide's geometry (warlords_sim.gui.guide): rays toward walls,
pins, dice and the board edge of the standard board end where hand
geometry from the board file says they must."""

from __future__ import annotations

import math

import pytest

from warlords_sim.board import Rect, load_board
from warlords_sim.gui.guide import HitKind, aim_guide, cast, ray_circle, ray_rounded_box

BOARD = load_board("standard")
HALF = BOARD.die.size_mm / 2.0  # 8 mm


def test_ray_toward_a_castle_wall_stops_half_a_die_short_of_it() -> None:
    """From (0, -150) straight down: castle 0's middle front wall spans
    x -25..25 with its top at y = -202, so the die's centre stops at -194,
    44 mm on."""
    hit = aim_guide(BOARD, (0, 1, 2, 3), False, (), (), (0.0, -150.0), (0.0, -1.0))
    assert hit.kind is HitKind.WALL
    assert math.isclose(hit.distance, 44.0, abs_tol=1e-9)
    assert math.isclose(hit.y, -194.0, abs_tol=1e-9) and hit.x == 0.0


def test_ray_toward_an_empty_corner_ends_at_the_board_edge() -> None:
    """From the centre toward the top right corner, nothing in the way
    without pins (the castles stand at the middles of the edges, 110 mm
    either side): the 600 mm board is left at its corner, 300*sqrt2 on;
    to the right, castle 3's front wall (x = 202) stops it at 194."""
    hit = aim_guide(BOARD, (0, 1, 2, 3), False, (), (), (0.0, 0.0), (1000.0, 1000.0))
    assert hit.kind is HitKind.EDGE and math.isclose(hit.distance, 300.0 * math.sqrt(2.0))
    assert math.isclose(hit.x, 300.0) and math.isclose(hit.y, 300.0)
    right = aim_guide(BOARD, (0, 1, 2, 3), False, (), (), (0.0, 0.0), (1000.0, 0.0))
    assert right.kind is HitKind.WALL and math.isclose(right.distance, 194.0)


def test_side_walls_and_three_player_walls_are_in_the_way_when_standing() -> None:
    """Seat 0's right side wall (x 110..300, y -300..-294): a die at
    (200, -250) going down stops at y = -294 + 8; without side walls it
    leaves the board at -300. With 3 players (seat 2 closed) its
    three-player wall (y 161..169) stops a die going up the middle."""
    down = (0.0, -1.0)
    walled = aim_guide(BOARD, (0, 1, 2, 3), True, (), (), (200.0, -250.0), down)
    assert walled.kind is HitKind.WALL and math.isclose(walled.y, -286.0)
    open_ = aim_guide(BOARD, (0, 1, 2, 3), False, (), (), (200.0, -250.0), down)
    assert open_.kind is HitKind.EDGE and math.isclose(open_.y, -300.0)
    three = aim_guide(BOARD, (0, 1, 3), False, (), (), (0.0, 100.0), (0.0, 1.0))
    wall = BOARD.castles[2].three_player_wall.rect
    assert three.kind is HitKind.WALL and math.isclose(three.y, wall.y0 - HALF)


def test_pin_stops_the_die_at_radius_plus_half_an_edge() -> None:
    """A pin in a hole straight ahead: the centre stops pin radius (3 mm)
    + 8 mm before the hole's centre."""
    hole = 20  # any hole off the center ring
    hx, hy = BOARD.holes[hole]
    start = (hx - 100.0, hy)
    hit = aim_guide(BOARD, (0, 1, 2, 3), False, (hole,), (), start, (1.0, 0.0))
    assert hit.kind is HitKind.PIN
    assert math.isclose(hit.distance, 100.0 - BOARD.pin.radius_mm - HALF, abs_tol=1e-9)
    # a pin off the line by more than the radii is missed
    miss = aim_guide(BOARD, (0, 1, 2, 3), False, (hole,), (), (hx - 100.0, hy + 12.0), (1.0, 0.0))
    assert miss.kind is not HitKind.PIN


def test_die_square_and_turned() -> None:
    """Another die 100 mm ahead: square to the aim its face is 8 mm from its
    centre (stop at 100 - 16); turned 45 deg its corner (8*sqrt2 mm) points
    back along the ray and the moving disc touches that corner."""
    square = cast(
        (0.0, 0.0), (1.0, 0.0), half_board=300, radius=HALF, dice=[(100.0, 0.0, 0.0)], die_half=HALF
    )
    assert square.kind is HitKind.DIE and math.isclose(square.distance, 84.0)
    turned = cast(
        (0.0, 0.0),
        (1.0, 0.0),
        half_board=300,
        radius=HALF,
        dice=[(100.0, 0.0, math.pi / 4)],
        die_half=HALF,
    )
    assert math.isclose(turned.distance, 100.0 - HALF * math.sqrt(2.0) - HALF)


def test_rounded_corner_and_misses() -> None:
    """A wall's corner grown by the disc is round: a ray passing 5 mm beside
    the corner line (x = 10 + 5) touches the quarter circle of radius 8 at
    the height where the circle is 5 mm off: sqrt(64 - 25) below the wall."""
    wall = Rect(-10.0, 50.0, 10.0, 60.0)
    hit = cast((15.0, 0.0), (0.0, 1.0), half_board=300, radius=8.0, walls=[wall])
    assert hit.kind is HitKind.WALL
    assert math.isclose(hit.y, 50.0 - math.sqrt(64.0 - 25.0))
    passes = cast((19.0, 0.0), (0.0, 1.0), half_board=300, radius=8.0, walls=[wall])
    assert passes.kind is HitKind.EDGE
    behind = cast((0.0, 100.0), (0.0, 1.0), half_board=300, radius=8.0, walls=[wall])
    assert behind.kind is HitKind.EDGE  # the wall lies behind the start
    # a start touching an obstacle skips it (the ray can only leave)
    assert ray_circle((0.0, 0.0), (1.0, 0.0), (1.0, 0.0), 2.0) is None
    assert ray_rounded_box((0.0, 0.0), (1.0, 0.0), (9.0, 0.0), 2.0, 2.0, 0.0, 8.0) is None


def test_zero_aim_is_refused() -> None:
    with pytest.raises(ValueError, match="non-zero"):
        cast((0.0, 0.0), (0.0, 0.0), half_board=300, radius=8.0)


def test_a_novices_cone_is_cast_densely_and_as_against_everything() -> None:
    """The hand's cone was 9 rays, filled as triangles between their ends:
    over a novice's 16 deg, neighbours 2 deg apart ended 25 mm apart at
    700 mm, and where one stopped at a pin and the next ran on, the fill
    cut a sliver across. Rays are now at most 0.5 deg apart, and leaving
    out what lies outside the cone's wedge changes no ray's end. Failed
    before: 9 rays."""
    import math

    from warlords_sim.bots.skill import SkillLevel
    from warlords_sim.gui.guide import aim_guide, aim_spread

    b = load_board("standard")
    sd = math.radians(SkillLevel.NOVICE.noise.direction_sd_deg)
    pins = list(range(0, len(b.holes), 3))[:12]
    far = [(x * 40.0 - 200.0, y * 40.0 + 250.0, 0.3) for x in range(6) for y in range(2)]
    dice = [(30.0, 150.0, 0.3), *far]  # one die in the cone, the rest beside it
    start, aim = (0.0, -150.0), (0.1, 1.0)
    cone = aim_spread(b, (0, 2), False, pins, dice, start, aim, sd)
    n = len(cone)
    assert 4.0 * sd / (n - 1) <= math.radians(0.5) + 1e-12, n
    base = math.atan2(aim[1], aim[0])
    for k, hit in enumerate(cone):
        a = base - 2.0 * sd + 4.0 * sd * k / (n - 1)
        full = aim_guide(b, (0, 2), False, pins, dice, start, (math.cos(a), math.sin(a)))
        assert (hit.x, hit.y) == pytest.approx((full.x, full.y), abs=1e-9), k
    assert len({h.kind for h in cone}) > 1  # the wedge holds obstacles of more than one kind
