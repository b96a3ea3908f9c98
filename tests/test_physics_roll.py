"""A die rolling over its edges is motion over steps (issue 9, item 4).

Saved case: rolls (edge catches, the end of a bounce, a struck die) used to
turn the die a whole face and move it 16 mm in one step; the window drew a
jump. Now it turns about its bottom edge step by step, its centre rising
over the edge to rho + sqrt 2 (a / 2 - rho) (a / sqrt 2 for a sharp die;
the die's edges are rounded to rho = ``die.edge_radius_mm`` from model
2.5d-9 on), as the pivot's dynamics have it (physics/pivot.py; its energy:
tests/test_physics_pivot.py).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from warlords_sim.board import load_board
from warlords_sim.physics import Flick, World
from warlords_sim.physics.contact import Feature, floor_contact
from warlords_sim.physics.linalg3 import rotation_z
from warlords_sim.physics.sharp_impact import contact_point
from warlords_sim.physics.tumble import quarter_turn

BOARD = load_board("standard")
A = BOARD.die.size_mm
RHO = BOARD.die.edge_radius_mm
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
    # its centre rises over the rounded edge, then settles flat again
    assert max(heights) == pytest.approx(RHO + math.sqrt(2.0) * (A / 2.0 - RHO), abs=0.3)
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


@pytest.mark.parametrize("yaw", [0.3868082777510722, -0.7, 1.2])
def test_a_die_rolling_at_any_yaw_lands_flat_at_its_own_yaw(yaw: float) -> None:
    """Saved case (the fuzz of benchmarks/fuzz_flicks.py, #1751 of 2000 on
    model 2.5d-8: a die at yaw 0.387 rad struck 7.2 mm above its centre at
    326 mm/s along one of its body axes gained 1.44 % of its energy).

    What broke: ``tumble.quarter_turn`` rounded the entries of the quarter
    turn's rotation, exact only about the board's x and y axes; at any other
    yaw it turned the die about the board axis nearest to its edge, so the
    die came down on its next face tilted by the difference (22 degrees
    here), pivoted on from that tilt with the potential energy of a centre
    2.4 mm too high, and its yaw snapped to the board's axes. Rolled along a
    body axis, the die keeps its yaw (a quarter turn's multiple), lies
    flat, and its energy never rises above what the strike gave it."""
    w = World(BOARD)
    w.add_die(1, 0.0, -150.0, angle=yaw)
    u = (-math.sin(yaw), math.cos(yaw))  # along its body y axis
    w.begin_flick(Flick(1, (326.0 * u[0], 326.0 * u[1]), strike_mm=7.2))
    w.step()
    e0 = w.energy(1)
    worst = 0.0
    faces = set()
    while not w.settled:
        w.step()
        worst = max(worst, w.energy(1) / e0 - 1.0)
        faces.add(w.face(1))
    assert worst <= 1e-9, f"energy rose by {worst:.3%}"
    pose = w.pose(1)
    turned = math.remainder(pose.angle - yaw, math.pi / 2.0)
    assert abs(turned) < 1e-6, f"its yaw turned by {turned:.4f} rad"
    assert pose.face != 1  # it rolled over


@pytest.mark.parametrize("yaw", [0.0, 0.3868082777510722, math.pi / 2.0, 2.0, -1.1])
def test_a_die_rolled_onto_its_next_face_strikes_with_its_far_edge(yaw: float) -> None:
    """A die that pivoted a quarter turn on its bottom edge toward u comes
    down on its next face turning about that edge, now its trailing one:
    the far edge strikes the floor, the trailing edge's corners do not move.

    What broke: they move at a rounding error's speed (1e-14 mm/s, either
    sign), and ``impact.contact_point`` (now ``sharp_impact``; the rounded
    ``contact.floor_contact`` alike) counted any corner moving down at
    all, so the impact was taken at the far edge and one trailing corner
    (a sideways kick: a die struck straight ahead drifted 6.8 mm aside) or
    at the face's centre (no torque: it kept turning and tipped over a
    second face)."""
    ux, uy = math.cos(yaw), math.sin(yaw)
    r1 = quarter_turn(rotation_z(yaw), ux, uy)
    w = 27.5  # rad/s toward u, about z x u
    omega = np.array([-uy * w, ux * w, 0.0])
    v = np.array([ux * w * A / 2.0, uy * w * A / 2.0, -w * A / 2.0])  # about the trailing edge
    c = contact_point(r1, A, v, omega)  # the sharp cube's (models up to 2.5d-8)
    assert c is not None
    assert c == pytest.approx([ux * A / 2.0, uy * A / 2.0, -A / 2.0], abs=1e-9)
    # the rounded die's (2.5d-9 on), rolling on its trailing edge's cylinder:
    # its centre sinks at w (a/2 - rho), its core's trailing corners do not move
    h = A / 2.0 - RHO
    v = np.array([ux * w * A / 2.0, uy * w * A / 2.0, -w * h])
    fc = floor_contact(r1, A, RHO, v, omega)
    assert fc is not None and fc.feature is Feature.EDGE
    assert fc.offset == pytest.approx([ux * h, uy * h, -A / 2.0], abs=1e-9)
