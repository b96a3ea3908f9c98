"""The aim bot's path test (``Obstacles.blockers``) gives exactly the answer
of the plain point-to-segment distance it was written from, including for
points near the segment's box (where it skips work) and for a zero-length
segment; the bot's choices, and so the recorded example games, depend on it.
"""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from warlords_sim.board import load_board
from warlords_sim.bots.aim import Obstacles

BOARD = load_board("standard")
Point = tuple[float, float]


def _seg_dist(p: Point, a: Point, b: Point) -> float:
    """The aim bot's original distance of p from the segment a-b."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    n2 = dx * dx + dy * dy
    t = 0.0 if n2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / n2))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


coord = st.floats(-300.0, 300.0, allow_nan=False)
point = st.tuples(coord, coord)


@given(
    st.lists(point, max_size=12),
    st.lists(point, max_size=24),
    point,
    point,
    st.one_of(st.none(), st.integers(0, 23)),
)
def test_blockers_match_the_plain_distance(
    pins: list[Point], dice: list[Point], a: Point, b: Point, skip: int | None
) -> None:
    obs = Obstacles(list(enumerate(pins)), list(enumerate(dice)), BOARD)
    want = [h for h, p in enumerate(pins) if _seg_dist(p, a, b) < obs.pin_clear]
    want += [-1 - i for i, p in enumerate(dice) if i != skip and _seg_dist(p, a, b) < obs.die_clear]
    assert obs.blockers(a, b, skip) == want


def test_blockers_at_the_clearance_edge() -> None:
    """Points just inside and just outside the clearance, beside and beyond
    the segment's ends."""
    obs = Obstacles([], [], BOARD)
    c = obs.die_clear
    dice = [(0.0, c - 1e-9), (0.0, c + 1e-9), (100.0 + c - 1e-9, 0.0), (-c - 1e-9, 0.0)]
    obs = Obstacles([], list(enumerate(dice)), BOARD)
    assert obs.blockers((0.0, 0.0), (100.0, 0.0), None) == [-1, -3]
    assert obs.blockers((5.0, 5.0), (5.0, 5.0), None) == [-1, -2]  # zero length
