"""The die sliding off a ledge (physics/ledge.py) against its closed forms.

Saved case: the model before this one gave a die leaving a crenelation a
forward tumble of 3 g / (4 v) (the full weight taken at the edge
throughout the overhang), twice what the constrained motion gives; at
900 mm/s the die then landed 42 degrees over, balanced on its edge, and
flipped onto another face far more often than a real die or the 3D
reference does. The saved cases of issue 19 (model 2.5d-10) follow at the
end: the rounded die's exit, the edge it tips over, the clock.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from warlords_sim.board import Crenelation, load_board
from warlords_sim.physics import EventKind, Flick, LaunchKind, World, tumble
from warlords_sim.physics.ledge import slide_off_ledge
from warlords_sim.physics.world import TIMESTEP

G = 9810.0
A = 16.0


@pytest.mark.parametrize("speed", [1600.0, 2000.0])
def test_fast_frictionless_exit_tumble_is_three_tenths_g_over_v(speed: float) -> None:
    """Small angles, no friction: the constraint integrates in closed form to
    w = 0.3 g / v and tilt = (1/2 - atan(sqrt 6 / 2) / sqrt 6) g a / v^2."""
    ex = slide_off_ledge(speed, A, G, 0.0)
    assert ex.tumble == pytest.approx(0.3 * G / speed, rel=0.02)
    big_g = G * A / speed**2
    tilt = 0.5 * (0.5 - math.atan(math.sqrt(6.0) / 2.0) / math.sqrt(6.0)) * big_g
    assert ex.tilt == pytest.approx(tilt, rel=0.05)
    # it leaves when its trailing edge passes the ledge: centre a/2 past it
    assert ex.forward_mm == pytest.approx(A / 2.0, abs=0.3)


def test_friction_adds_forward_tumble() -> None:
    """Kinetic friction at the edge acts below the centre and tips the die
    further forward: about 0.39 g / v at mu = 0.3 (integrated numerically
    with the same model; not a closed form)."""
    dry = slide_off_ledge(1200.0, A, G, 0.0)
    wet = slide_off_ledge(1200.0, A, G, 0.3)
    assert wet.tumble > dry.tumble * 1.2
    assert wet.speed < 1200.0  # friction slows it


@pytest.mark.parametrize("speed", [150.0, 300.0, 900.0, 2000.0])
@pytest.mark.parametrize("mu", [0.0, 0.3])
def test_no_energy_is_created(speed: float, mu: float) -> None:
    """Kinetic plus potential energy at the exit never exceeds the start's."""
    ex = slide_off_ledge(speed, A, G, mu)
    e0 = 0.5 * speed**2
    e1 = 0.5 * (ex.speed**2 + ex.vz**2) + 0.5 * (A * A / 6.0) * ex.tumble**2 - G * ex.drop_mm
    assert e1 <= e0 * (1.0 + 1e-3)


def test_slower_dice_tumble_more() -> None:
    """Above a slow crawl the exit tilt and tumble fall as the speed rises."""
    exits = [slide_off_ledge(v, A, G, 0.3) for v in (400.0, 700.0, 1000.0, 1500.0, 2000.0)]
    tilts = [e.tilt for e in exits]
    assert tilts == sorted(tilts, reverse=True)


@pytest.mark.parametrize("bad", [0.0, -5.0, math.nan, math.inf])
def test_bad_speed_is_refused(bad: float) -> None:
    with pytest.raises(ValueError, match="speed"):
        slide_off_ledge(bad, A, G, 0.3)


# ------------------------------------------------ issue 19: the rounded die

RADIUS = 1.6
#: the standard die's moment of inertia about its centre per unit mass, mm^2
#: (a 16 mm cube rounded to 1.6 mm: physics.contact.rounded_cube_inertia)
I2 = 41.46


def test_a_rounded_die_leaves_the_ledge_where_its_flat_face_ends() -> None:
    """Saved case (model 2.5d-9, found comparing a 300 mm/s high launch with
    the reference step by step): the ledge took the die's edges sharp, so
    it stayed on the ledge until its sharp trailing bottom edge passed the
    ledge's edge, 37.7 ms after the flick, tilted 21.3 degrees. A rounded
    die's flat bottom ends ``radius`` short of its edges; past that the
    ledge's edge presses on the rounded edge, where sliding at u needs a
    pull of u^2 / radius: it leaves at once (the reference's die at 29.6
    ms, tilted 14.6 degrees). At the exit the trailing core edge lies
    ``radius`` from the ledge's edge, straight above it along the face."""
    sharp = slide_off_ledge(300.0, A, G, 0.3, i2=I2)
    ex = slide_off_ledge(300.0, A, G, 0.3, i2=I2, radius=RADIUS)
    assert ex.time < sharp.time - 5e-3
    assert ex.tilt < sharp.tilt - math.radians(5.0)
    # the trailing core edge, relative to the ledge's edge (s along, z up)
    c, s = math.cos(ex.tilt), math.sin(ex.tilt)
    hc = A / 2.0 - RADIUS
    cs = ex.forward_mm - hc * (c + s)
    cz = (A / 2.0 - ex.drop_mm) - hc * (c - s)
    assert math.hypot(cs, cz) == pytest.approx(RADIUS, abs=0.02)


@pytest.mark.parametrize("speed", [150.0, 300.0, 900.0, 2000.0])
@pytest.mark.parametrize("mu", [0.0, 0.3])
@pytest.mark.parametrize("tumble", [0.0, 20.0, -10.0])
def test_the_rounded_exit_creates_no_energy(speed: float, mu: float, tumble: float) -> None:
    """Kinetic plus potential energy at the rounded die's exit never exceeds
    the start's (the rounded edge's contact is followed with the same
    Coulomb friction as the flat face's)."""
    ex = slide_off_ledge(speed, A, G, mu, tumble=tumble, i2=I2, radius=RADIUS)
    e0 = 0.5 * speed**2 + 0.5 * I2 * tumble**2
    e1 = 0.5 * (ex.speed**2 + ex.vz**2) + 0.5 * I2 * ex.tumble**2 - G * ex.drop_mm
    assert e1 <= e0 * (1.0 + 1e-3)


def test_a_crenelation_launch_tips_about_the_walls_edge() -> None:
    """Saved case (model 2.5d-9): the die tipped over the line across the
    flick, not over the wall's edge it slides off. A flick 1.5 degrees off
    square to the wall turned the die about an axis 1.5 degrees from its
    edge, so its leading edge came down 0.04 mm out of level and the
    landing took one corner (a spin of 60 rad/s about the axis across the
    edge, and the die's centre still falling) where the reference's die
    lands on its edge and bounces. The die tips about the wall's edge (the
    board's x axis here): its x axis stays level in the air."""
    board = load_board("standard")
    spot = board.launch_spot(0, 2, Crenelation.HIGH)
    world = World(board)
    fl = Flick(1, (8.0, 300.0), launch=LaunchKind.HIGH, start=(spot.x, spot.y),
               height_mm=spot.height_mm)  # fmt: skip
    world.begin_flick(fl, face=1)
    for _ in range(12):  # 50 ms: off the ledge, not yet down
        world.step()
    r = world.orientation(1)
    assert r[2, 2] < math.cos(math.radians(20.0))  # tumbling forward
    # tipped about the flick's line, 1.5 degrees off the edge, the x axis
    # would dip sin(1.5 deg) sin(tilt) ~ 0.013; what is left is the yaw that
    # friction along the edge gives the die (model 2.5d-11), ~0.003 rad
    assert abs(r[2, 0]) < 0.002


def test_the_time_on_the_ledge_is_on_the_clock() -> None:
    """Saved case (model 2.5d-9): the flight started with the flick, leaving
    the time on the ledge (7.4 ms at 900 mm/s) out, so a high launch's first
    landing came at 83 ms where the reference's is at 91 ms. The first
    landing comes no sooner than the ledge's time plus the fall from where
    the die leaves it to the highest its centre can be when its lowest point
    touches (a corner straight down), and no later than the fall to a face
    flat on the table, plus the step that notes it."""
    board = load_board("standard")
    spot = board.launch_spot(0, 2, Crenelation.HIGH)
    world = World(board)
    res = world.flick(Flick(1, (0.0, 900.0), launch=LaunchKind.HIGH, start=(spot.x, spot.y),
                            height_mm=spot.height_mm), face=1)  # fmt: skip
    first = next(e for e in res.events if e.kind is EventKind.LANDING)
    ex = slide_off_ledge(900.0, A, G, board.wall_material.friction, i2=I2, radius=RADIUS)
    z0 = spot.height_mm + A / 2.0 - ex.drop_mm

    def fall(to: float) -> float:
        return (ex.vz + math.sqrt(ex.vz**2 + 2.0 * G * (z0 - to))) / G

    assert first.t >= ex.time + fall(math.sqrt(3.0) * A / 2.0)
    assert first.t <= ex.time + fall(A / 2.0) + 2.0 * TIMESTEP


def test_a_die_on_the_ledge_is_at_the_ledges_height() -> None:
    """While it slides off the ledge (the steps before its flight starts),
    the die stands on the ledge, not on the table below it, and its energy
    is what it leaves the ledge with: benchmarks/fuzz_flicks.py checks that
    nothing gains energy from one step after the launch on, and the
    drawing takes the die's height."""
    board = load_board("standard")
    spot = board.launch_spot(0, 2, Crenelation.HIGH)
    world = World(board)
    fl = Flick(1, (0.0, 300.0), launch=LaunchKind.HIGH, start=(spot.x, spot.y),
               height_mm=spot.height_mm)  # fmt: skip
    world.begin_flick(fl, face=1)
    world.step()
    assert world.height(1) == pytest.approx(spot.height_mm + A / 2.0)
    on_ledge = world.energy(1)
    for _ in range(10):  # 42 ms: it leaves the ledge at 29 ms
        world.step()
    assert world.height(1) < spot.height_mm + A / 2.0 - 5.0
    assert world.energy(1) <= on_ledge * (1.0 + 1e-9)


def test_a_spinning_die_turns_while_it_slides_off_the_ledge() -> None:
    """Saved case (model 2.5d-9, found comparing low-1-300-spin with the
    reference step by step): a die flicked at 300 mm/s with 20 rad/s of
    spin slides over the ledge for 29 ms, turning 0.6 rad about the
    vertical meanwhile (the reference's die left turned 0.7 rad, at 18.6
    rad/s); the ledge left the yaw out, so the die came down 0.6 rad
    short of it on another corner (first impact 2.5d-9 v (-136, 78, 261)
    mm/s, the reference's (154, 256, 259)). Its orientation leaving the
    ledge is its yaw turned by spin x time on the ledge, then tipped about
    the ledge's edge."""
    spin = 20.0
    off = tumble.ledge_launch(0.0, 300.0, spin, np.eye(3), A, G, 0.3, i2=I2, radius=RADIUS)
    assert off.time > 0.02
    ex = slide_off_ledge(300.0, A, G, 0.3, i2=I2, radius=RADIUS, spin=spin)
    assert 0.5 < ex.yaw < spin * off.time
    yaw, tilt = ex.yaw, math.acos(off.r[2, 2])
    # the body x axis after the yaw, tipped about the world x axis (the edge)
    expected = math.atan2(math.sin(yaw) * math.cos(tilt), math.cos(yaw))
    assert math.atan2(off.r[1, 0], off.r[0, 0]) == pytest.approx(expected, abs=1e-9)


def test_friction_on_the_ledge_brakes_the_yaw_and_the_slide_along_it() -> None:
    """Saved case (model 2.5d-10): the ledge had no friction along its edge
    and none against the yaw, so a die kept its spin and its speed along
    the edge as flicked. The reference's die (reference-6, the low
    crenelation, /work notes of stop 26), flicked square at 300 mm/s with
    20 rad/s of spin, leaves it yawing at 18.6 rad/s and drifting at 12
    mm/s along the edge (-12 along the board's x); flicked 10 degrees off square with no spin, it
    leaves yawing at -0.94 rad/s, its 52 mm/s along the edge down to 45.
    The 2.5D's line contact gives 18.9 rad/s and 9 mm/s, -0.56 rad/s and
    44 mm/s: the right signs and within 0.4 rad/s of the reference."""
    spun = slide_off_ledge(300.0, A, G, 0.3, i2=I2, radius=RADIUS, spin=20.0)
    assert 18.2 < spun.spin < 19.5
    assert 5.0 < spun.along < 15.0  # along e = z x n: -x for a flick along +y
    b = math.radians(10.0)
    off = slide_off_ledge(300.0 * math.cos(b), A, G, 0.3, i2=I2, radius=RADIUS,
                          along=-300.0 * math.sin(b))  # fmt: skip
    assert -1.0 < off.spin < -0.3
    assert -48.0 < off.along < -40.0
    square = slide_off_ledge(300.0, A, G, 0.3, i2=I2, radius=RADIUS)
    assert square.spin == 0.0 and square.along == 0.0 and square.yaw == 0.0
