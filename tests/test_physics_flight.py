"""Unit tests of ``physics.flight``: the ballistic flight solve as pure
arithmetic (no pymunk). A drop from height h takes sqrt(2 h / g).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from warlords_sim.board import load_board
from warlords_sim.physics import flight
from warlords_sim.physics.orientation import ROTATIONS, with_face_up

_DIE = load_board("standard").die
A = _DIE.size_mm  # die edge, 16 mm
G = 9810.0  # mm/s^2
DT = 1.0 / 240.0


# ------------------------------------------------------------------ flight


@pytest.mark.parametrize("h", [5.0, 20.0, 40.0, 60.0])
@pytest.mark.parametrize("face", [1, 4])
def test_flat_drop_time_matches_free_fall(h: float, face: int) -> None:
    """A flat, non-spinning die whose bottom is h mm up lands after sqrt(2 h / g)."""
    r = with_face_up(face)
    fl = flight.solve_flight(h + A / 2.0, 0.0, r, np.zeros(3), 0.0, A, G, DT)
    t = math.sqrt(2.0 * h / G)
    assert fl.t_hit == pytest.approx(t, abs=1e-5)
    # the lowest point at each step end is the bottom face: h - g t^2 / 2
    n = fl.low_at_steps.size
    assert n == math.ceil(t / DT - 1e-9)
    times = np.arange(1, n + 1) * DT
    assert fl.low_at_steps == pytest.approx(h - 0.5 * G * times * times, abs=1e-9)


def test_thrown_up_flight_time() -> None:
    """With an upward speed, the landing time is the positive root of
    h + vz t - g t^2 / 2 = 0 onto a raised floor."""
    h, vz, floor = 30.0, 400.0, 10.0
    r = with_face_up(1)
    fl = flight.solve_flight(h + A / 2.0, vz, r, np.zeros(3), floor, A, G, DT)
    d = h - floor
    t = (vz + math.sqrt(vz * vz + 2.0 * G * d)) / G
    assert fl.t_hit == pytest.approx(t, abs=1e-5)


def test_spinning_die_lands_earlier_than_flat() -> None:
    """A tumbling die brings a corner below its flat bottom, so it cannot land
    later than the same die falling flat."""
    r = with_face_up(1)
    flat = flight.solve_flight(48.0, 0.0, r, np.zeros(3), 0.0, A, G, DT)
    spin = flight.solve_flight(48.0, 0.0, r, np.array([30.0, 0.0, 0.0]), 0.0, A, G, DT)
    assert spin.t_hit <= flat.t_hit


def test_orientation_at_is_a_rotation() -> None:
    """orientation_at keeps a proper rotation; zero spin keeps the orientation."""
    r0 = ROTATIONS[7]
    assert np.array_equal(flight.orientation_at(r0, np.zeros(3), 0.3), r0)
    r = flight.orientation_at(r0, np.array([12.0, -3.0, 40.0]), 0.37)
    assert r @ r.T == pytest.approx(np.eye(3), abs=1e-12)
    assert np.linalg.det(r) == pytest.approx(1.0)
    # a quarter turn about world x takes face 1 (up) to pointing along -y
    q = flight.orientation_at(with_face_up(1), np.array([math.pi / 2.0, 0.0, 0.0]), 1.0)
    assert q @ np.array([0.0, 0.0, 1.0]) == pytest.approx([0.0, -1.0, 0.0], abs=1e-12)
