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
from warlords_sim.physics import Flick, LaunchKind, World
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


def _siege_corner_case() -> tuple[World, Flick]:
    """Fuzz case #5388 of benchmarks/fuzz_flicks.py (seed 0, 10,000 flicks,
    model 2.5d-10): the siege engine at (-182.0, -94.0), a die struck 6 mm
    below its centre at 651 mm/s off the engine's corner, two dice ahead."""
    w = World(BOARD)
    for seat in range(4):
        for hole in BOARD.center_ring.pins_by_seat[seat]:
            w.add_pin(hole)
    w.place_siege_engine(-181.98426861835068, -94.04951192261754)
    w.add_die(1, -122.87957606272943, -21.544348121281498, 1)
    w.add_die(2, -74.08395569934476, -1.0977241009215186, 6)
    fl = Flick(0, (459.850703793625, 460.64601961686196), 8.403077119116524, LaunchKind.SIEGE,
               (-161.84914481311446, -73.87956424425678), 60.0,
               strike_mm=-5.955778296962739)  # fmt: skip
    return w, fl


def test_a_pivot_begun_after_a_step_is_stepped_once_a_step() -> None:
    """Saved case (fuzz #5388, model 2.5d-10: the dice gained 29.3 % of
    their energy). A die that came down on the engine's top after a step
    began to pivot there, and the same pass advanced the pivot as if the
    step had moved it: its clock ran a step ahead of the world's, and its
    body was sent two steps' way in the next (947 mm/s where the pivot
    moved it at about 470). Then a change of 6e-14 mm/s in pymunk's
    velocity (rounding) ended the pivot as if the die had run into
    something, and it slid off the engine at the doubled velocity. Now the
    first step of a pivot sends the body no faster than the pivot's own
    motion over that step, and no energy is gained."""
    w, fl = _siege_corner_case()
    w.begin_flick(fl, face=1)
    w.step()
    e0 = sum(w.energy(i) for i in w.dice)
    pivoted = False
    worst = 0.0
    while not w.settled:
        w.step()
        worst = max(worst, sum(w.energy(i) for i in w.dice) / e0 - 1.0)
        ro = w._dice[0].roll if 0 in w._dice else None
        if ro is not None and not pivoted:
            pivoted = True
            # the body is sent from where it is to where one pivot step takes it
            x, y = w._dice[0].body.position
            nx, ny = w._motion.roll_target(ro, ro.next)
            sx, sy = w._motion.roll_target(ro, ro.state)
            step = math.hypot(nx - sx, ny - sy)
            ahead = math.hypot(nx - x, ny - y)
            assert ahead <= step + 1e-9, f"sent {ahead:.2f} mm where the pivot moves {step:.2f}"
    assert pivoted
    assert worst <= 1e-3, f"energy rose by {worst:.3%}"
