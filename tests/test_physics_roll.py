"""A die rolling over its edges is motion over steps (issue 9, item 4).

Saved case: rolls (edge catches, the end of a bounce, a struck die) used to
turn the die a whole face and move it 16 mm in one step; the window drew a
jump. Now it turns about its bottom edge step by step, its centre rising to
a / sqrt 2 over the edge, as the pivot's dynamics have it
(physics/pivot.py; its energy: tests/test_physics_pivot.py).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from warlords_sim.board import load_board
from warlords_sim.physics import Flick, World

BOARD = load_board("standard")
A = BOARD.die.size_mm
G = BOARD.gravity_mm_s2


def _track(strike: float, speed: float) -> list[tuple[float, float, float, np.ndarray]]:
    """(x, y, height, orientation) of a die struck toward +y, every step."""
    w = World(BOARD)
    w.add_die(1, 0.0, -150.0)
    w.begin_flick(Flick(1, (0.0, speed), strike_mm=strike))
    out = []
    while not w.settled:
        w.step()
        pose_xy = w._dice[1].body.position
        out.append((float(pose_xy[0]), float(pose_xy[1]), w.height(1), w.orientation(1)))
    return out


def test_a_struck_die_rolls_over_its_edge_step_by_step() -> None:
    track = _track(8.0, 300.0)
    heights = [h for _, _, h, _ in track]
    # its centre rises over the edge to a / sqrt 2, then settles flat again
    assert max(heights) == pytest.approx(A / math.sqrt(2.0), abs=0.3)
    assert heights[-1] == pytest.approx(A / 2.0)
    rising = [h for h in heights if h > A / 2.0 + 1e-9]
    assert len(rising) >= 5  # many steps, not one
    for (x0, y0, _, r0), (x1, y1, _, r1) in zip(track, track[1:], strict=False):
        assert math.hypot(x1 - x0, y1 - y0) < 3.0  # no 16 mm jump
        turn = math.acos(max(-1.0, min(1.0, (np.trace(r1 @ r0.T) - 1.0) / 2.0)))
        assert turn < 0.3  # no quarter turn in one step
    # 1 up, rolled toward +y: the back face (4) comes up
    assert track[-1][3][2, 1] == pytest.approx(-1.0)  # body -y (face 4) points up


def test_too_little_turn_does_not_roll() -> None:
    """Below the tipping rate a pivoting die falls back: the face stays."""
    w = World(BOARD)
    w.add_die(1, 0.0, -150.0)
    res = w.flick(Flick(1, (0.0, 150.0), strike_mm=4.0))
    assert res.pose is not None and res.pose.face == 1
