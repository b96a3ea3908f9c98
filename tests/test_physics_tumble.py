"""Unit tests of ``physics.tumble``: trips, rolls and the ledge tumble as
pure arithmetic (no pymunk).

Reference figures are those of design brief section 2: a sliding die tips
over a caught edge from ~1.05 sqrt(g a) (0.42 m/s for a = 16 mm); pure
rolling keeps 1/4 of the spin per face.
"""

from __future__ import annotations

import math

import pytest

from warlords_sim.board import load_board
from warlords_sim.physics import orientation, tumble

_DIE = load_board("standard").die
A = _DIE.size_mm  # die edge, 16 mm
G = 9810.0  # mm/s^2


# -------------------------------------------------------------- trip speed


def test_trip_speed_of_a_16mm_die() -> None:
    """trip_speed(16 mm, 9810 mm/s^2) is ~0.42 m/s, i.e. ~1.05 sqrt(g a)."""
    v = tumble.trip_speed(A, G)
    assert v == pytest.approx(420.0, rel=0.02)
    assert v == pytest.approx(1.05 * math.sqrt(G * A), rel=0.01)


def test_trip_speed_tips_exactly() -> None:
    """At the trip speed the pivot rate w = 3 v / (4 a) has exactly the energy
    to tip over the edge (tip_energy_ok switches there)."""
    v = tumble.trip_speed(A, G)
    w = 3.0 * v / (4.0 * A)
    assert tumble.tip_energy_ok(w * 1.0001, A, G)
    assert not tumble.tip_energy_ok(w * 0.9999, A, G)


# --------------------------------------------------------------- roll count


def test_ledge_launch_tips_forward_about_the_ledge() -> None:
    """A die flicked along +x off a ledge leaves it tilted nose-down about the
    ledge's edge (the y axis), tumbling forward about it, with its centre
    within a millimetre of the start point and the flick's yaw rate braked
    only a little by friction on the edge (9 ms on it)."""
    r = orientation.with_face_up(1)
    off = tumble.ledge_launch(900.0, 0.0, 5.0, r, A, G, 0.3)
    assert abs(off.dx) <= 1.0 and abs(off.dy) < 0.01
    assert off.omega[0] == 0.0 and off.omega[1] > 0.0 and 4.9 < off.omega[2] < 5.0
    # nose down: the body's +x face (2) now points a little downward
    assert off.r[2, 0] < 0.0
    assert off.vz <= 0.0 and 0.0 <= off.drop < 1.0
    assert off.vx == pytest.approx(900.0, rel=0.05)


def test_ledge_launch_slower_than_the_slowest_solved_creeps_off() -> None:
    """A die nudged at 1 mm/s still leaves the ledge (as at the slowest speed
    solved), tumbling toward the nudge; one let go at 0 mm/s falls straight."""
    r = orientation.with_face_up(1)
    off = tumble.ledge_launch(0.0, 1.0, 0.0, r, A, G, 0.3)
    assert off.omega[0] < 0.0  # tumbling toward +y: about -x
    still = tumble.ledge_launch(0.0, 0.0, 0.0, r, A, G, 0.3)
    assert still.omega[0] == still.omega[1] == 0.0 and (still.dx, still.dy) == (0.0, 0.0)
