"""Unit tests of ``physics.impact``: the die's bounces (the world's
``RoundedLanding``, and ``physics.sharp_impact``, the sharp cube's Newton
bounce it replaced in model 2.5d-9, kept as a baseline) and the side-blow
decision as pure arithmetic (no pymunk).

Reference figures are those of design brief section 2: a rigid-body impact
with restitution <= 1 and Coulomb friction never creates energy; a sliding
die tips over a caught edge from ~1.05 sqrt(g a) (0.42 m/s for a = 16 mm),
and a blow on a die resting on something cannot catch its bottom edge.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from warlords_sim.board import load_board
from warlords_sim.physics import impact as imp
from warlords_sim.physics import sharp_impact as sharp
from warlords_sim.physics import tumble
from warlords_sim.physics.contact import Feature, floor_contact, rounded_cube_inertia
from warlords_sim.physics.orientation import (
    ROTATIONS,
    face_up,
    rotation_about,
    rotation_z,
    with_face_up,
)

_DIE = load_board("standard").die
A = _DIE.size_mm  # die edge, 16 mm
M = _DIE.mass_g  # die mass, g
G = 9810.0  # mm/s^2
E = _DIE.table_restitution  # table restitution of the standard board
MU = _DIE.table_friction  # kinetic friction
MU_S = _DIE.table_static_friction  # static friction

Vec = NDArray[np.float64]


def _energy(v: Vec, omega: Vec) -> float:
    """Kinetic energy (g mm^2 / s^2) of the sharp die (inertia m a^2 / 6 about any axis)."""
    return 0.5 * M * float(v @ v) + 0.5 * (M * A * A / 6.0) * float(omega @ omega)


def _rounded_energy(v: Vec, omega: Vec) -> float:
    """Kinetic energy (g mm^2 / s^2) of the rounded die (its inertia is the rounded cube's)."""
    i = rounded_cube_inertia(M, A, _DIE.edge_radius_mm)
    return 0.5 * M * float(v @ v) + 0.5 * i * float(omega @ omega)


# ---------------------------------------------------------------- flat drop


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("vz", [-100.0, -560.0, -1085.0])
def test_flat_drop_bounces_straight(face: int, vz: float) -> None:
    """A die falling flat, without spin, bounces straight up with vz' = e |vz|,
    no horizontal speed and no spin; the face up is unchanged."""
    r = with_face_up(face)
    v = np.array([0.0, 0.0, vz])
    omega = np.zeros(3)
    contact = sharp.contact_point(r, A, v, omega)
    assert contact is not None
    assert contact == pytest.approx([0.0, 0.0, -A / 2.0], abs=1e-9)  # the bottom face's centre
    v2, w2 = sharp.impact(v, omega, contact, M, A, E, MU, MU_S)
    assert v2 == pytest.approx([0.0, 0.0, E * abs(vz)], abs=1e-9)
    assert w2 == pytest.approx([0.0, 0.0, 0.0], abs=1e-12)
    assert face_up(r) == face


def test_flat_sliding_drop_keeps_direction() -> None:
    """A flat die landing while sliding loses horizontal speed to friction
    (at most mu_s (1 + e) |vz|, the static bound that decides sticking) but
    never reverses, and gains no spin about the vertical axis."""
    r = with_face_up(1)
    v = np.array([800.0, 0.0, -500.0])
    omega = np.zeros(3)
    contact = sharp.contact_point(r, A, v, omega)
    assert contact is not None
    v2, w2 = sharp.impact(v, omega, contact, M, A, E, MU, MU_S)
    assert v2[2] == pytest.approx(E * 500.0)
    assert 0.0 < v2[0] < 800.0
    assert 800.0 - v2[0] <= MU_S * (1.0 + E) * 500.0 + 1e-9
    assert w2[2] == pytest.approx(0.0, abs=1e-12)


def test_no_impact_when_separating() -> None:
    """A contact point already moving up gets no impulse."""
    v = np.array([100.0, 50.0, 30.0])
    omega = np.array([1.0, 2.0, 3.0])
    contact = np.array([0.0, 0.0, -A / 2.0])
    v2, w2 = sharp.impact(v, omega, contact, M, A, E, MU, MU_S)
    assert np.array_equal(v2, v)
    assert np.array_equal(w2, omega)


# ---------------------------------------------------------- energy (random)

_unit = st.tuples(st.floats(-1.0, 1.0), st.floats(-1.0, 1.0), st.floats(-1.0, 1.0)).filter(
    lambda u: math.hypot(*u) > 0.1
)


@st.composite
def _impacts(draw: st.DrawFn) -> tuple[Vec, Vec, Vec]:
    """(v, omega, orientation): any landing a flight can produce."""
    rot = ROTATIONS[draw(st.integers(0, 23))]
    axis = np.array(draw(_unit))
    axis /= np.linalg.norm(axis)
    turn = rotation_about(axis, draw(st.floats(0.0, math.pi)))
    r = turn @ rot
    speed = draw(st.sampled_from([30.0, 300.0, 2000.0]))
    vx, vy = draw(st.floats(-1.0, 1.0)) * speed, draw(st.floats(-1.0, 1.0)) * speed
    vz = -draw(st.floats(0.01, 1.0)) * speed
    spin = draw(st.sampled_from([0.0, 5.0, 60.0, 200.0]))
    omega = np.array([draw(st.floats(-1.0, 1.0)) * spin for _ in range(3)])
    return np.array([vx, vy, vz]), omega, r


def _check_no_energy_gain(v: Vec, omega: Vec, r: Vec, e: float, mu: float, mu_s: float) -> None:
    contact = sharp.contact_point(r, A, v, omega)
    if contact is None:  # no corner near the floor moves down: no impact
        return
    v2, w2 = sharp.impact(v, omega, contact, M, A, e, mu, mu_s)
    before, after = _energy(v, omega), _energy(v2, w2)
    assert after <= before * (1.0 + 1e-9) + 1e-9, (
        f"energy rose by {100.0 * (after / before - 1.0):.3f} % "
        f"(v={v.tolist()}, omega={omega.tolist()}, contact={contact.tolist()}, "
        f"v'={v2.tolist()}, omega'={w2.tolist()})"
    )


@settings(
    max_examples=1500,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.filter_too_much],
)
@given(_impacts())
def test_energy_never_increases_frictionless_or_plastic(case: tuple[Vec, Vec, Vec]) -> None:
    """Without friction (Newton restitution alone, up to e = 1), or with a
    perfectly plastic impact (e = 0) and the board's friction, an impact
    never adds kinetic energy."""
    v, omega, r = case
    _check_no_energy_gain(v, omega, r, E, 0.0, 0.0)
    _check_no_energy_gain(v, omega, r, 1.0, 0.0, 0.0)
    _check_no_energy_gain(v, omega, r, 0.0, MU, MU_S)


@settings(
    max_examples=3000,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.filter_too_much],
)
@given(_impacts())
def test_energy_never_increases(case: tuple[Vec, Vec, Vec]) -> None:
    """An impact with the board's coefficients (table restitution, kinetic
    and static friction of ``boards/standard.toml``) never adds kinetic
    energy, for any velocity, spin and orientation.

    What broke, first (fixed): in the slipping branch the friction impulse
    opposed the contact point's sliding *before* the impact for the whole
    impulse; when the normal impulse itself (off-centre, at a corner or an
    edge) reversed that sliding, friction kept pushing the same way (+12 %
    seen; ``test_energy_gain_saved_case``).

    What breaks now (open, since the table restitution went from 0.69 to
    0.8): the sticking branch ends the impact with zero tangential contact
    velocity and Newton's normal velocity -e vn. With an off-centre contact
    that target can hold more energy than the die brought in (Newton
    restitution is not energy-consistent with sticking friction); about 3 %
    of random landings gain energy, up to +18 %. See
    ``test_sticking_energy_gain_saved_case``.
    """
    v, omega, r = case
    _check_no_energy_gain(v, omega, r, E, MU, MU_S)


def test_energy_gain_saved_case() -> None:
    """Saved case (shrunk by hypothesis): a flat die, face 1 up, moving at
    937.5 mm/s along +x and falling at 750 mm/s, tumbling forward at
    125 rad/s about y, lands on its leading bottom edge (contact (8, 0, -8)).

    What broke (fixed; checked with the coefficients it was found with,
    e 0.69, mu 0.3, mu_s 0.5): the contact point slides backward at only 62.5 mm/s;
    the slipping impulse pushed forward with mu times the (large) normal
    impulse for the whole impact, overshot, and the die left at 1238 mm/s
    along +x with 4.6 % more kinetic energy than it came in with."""
    r = with_face_up(1)
    v = np.array([937.5, 0.0, -750.0])
    omega = np.array([0.0, 125.0, 0.0])
    assert sharp.contact_point(r, A, v, omega) == pytest.approx([A / 2.0, 0.0, -A / 2.0])
    _check_no_energy_gain(v, omega, r, 0.69, 0.3, 0.5)
    v2, _ = sharp.impact(v, omega, np.array([A / 2.0, 0.0, -A / 2.0]), M, A, 0.69, 0.3, 0.5)
    assert abs(v2[0]) <= abs(v[0])  # friction cannot speed the die up


def test_sticking_energy_gain_saved_case() -> None:
    """Saved case (shrunk by hypothesis, board coefficients e 0.8, mu 0.3,
    mu_s 0.5): a non-spinning die, tilted onto a corner-near edge (the
    orientation below), landing at 300 mm/s down and 225 mm/s sideways.

    What broke: the impact sticks (the tangential impulse needed is within
    mu_s times the normal one) and leaves the die with 3.9 % more kinetic
    energy than it came in with: Newton's restitution applied with a
    sticking contact at an off-centre point is not energy-consistent. A
    fix: Poisson/Stronge (energetic) restitution, or cap the result at the
    incoming energy (e.g. lower the effective e for that impact)."""
    approx_r = np.array(
        [
            [0.6020015, 0.795997, 0.06311079],
            [0.795997, -0.591994, -0.12622157],
            [-0.06311079, 0.12622157, -0.9899925],
        ]
    )
    u, _, vt = np.linalg.svd(approx_r)  # the nearest exact rotation
    r = u @ vt
    assert np.linalg.det(r) == pytest.approx(1.0)
    v = np.array([0.0, -225.0, -300.0])
    omega = np.zeros(3)
    _check_no_energy_gain(v, omega, r, 0.8, 0.3, 0.5)


# ------------------------------------------- the world's landing: rounded

_LANDING = imp.RoundedLanding(_DIE, G)
RHO = _DIE.edge_radius_mm  # 1.6 mm


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("vz", [-100.0, -560.0, -1085.0])
def test_rounded_flat_drop_bounces_straight(face: int, vz: float) -> None:
    """The world's landing: a die falling flat, without spin, lands on its
    bottom face (its centre A/2 below the die's) and bounces straight up
    at e |vz| (Stronge's e* is Newton's e for a centred face), without
    horizontal speed or spin; slower than REST_BOUNCE_SPEED it settles."""
    r = with_face_up(face)
    out = _LANDING.land(np.array([0.0, 0.0, vz]), np.zeros(3), r, 0)
    assert out.contact == pytest.approx([0.0, 0.0, -A / 2.0], abs=1e-9)
    assert out.v == pytest.approx([0.0, 0.0, E * abs(vz)], abs=1e-9)
    assert out.omega == pytest.approx([0.0, 0.0, 0.0], abs=1e-12)
    assert out.speed == pytest.approx(abs(vz))
    assert out.settles is (E * abs(vz) < imp.REST_BOUNCE_SPEED)


def test_rounded_landing_touches_on_the_rounded_corner() -> None:
    """A die coming down on a corner touches with its corner sphere: the
    contact lies RHO (sqrt 3 - 1) = 1.17 mm nearer the centre's height
    than a sharp cube's corner, at the centre's height less the core
    corner's depth and the radius (``contact.floor_contact``); the impact
    is taken there."""
    r = rotation_about((1.0, 1.0, 0.0) / np.sqrt(2.0), math.atan(math.sqrt(2.0)))
    v, omega = np.array([200.0, 0.0, -800.0]), np.array([0.0, 3.0, 0.0])
    out = _LANDING.land(v, omega, r, 0)
    sharp_contact = sharp.contact_point(r, A, v, omega)
    assert sharp_contact is not None
    fc = floor_contact(r, A, RHO, v, omega)
    assert fc is not None and fc.feature is Feature.CORNER
    assert out.contact == pytest.approx(fc.offset)
    assert -out.contact[2] == pytest.approx(math.sqrt(3.0) * (A / 2.0 - RHO) + RHO)
    assert out.contact[2] - sharp_contact[2] == pytest.approx(RHO * (math.sqrt(3.0) - 1.0))


def test_a_corner_impact_that_leaves_the_centre_falling_bounces_on() -> None:
    """Saved case (model 2.5d-9, found comparing a 300 mm/s high launch step
    by step with the reference): a die tumbling forward at 15.5 rad/s comes
    down on one corner of its leading edge; the impact leaves its centre
    still falling (here at 99 mm/s) while the corner springs up at 458 mm/s
    and the die turns at 77 rad/s onto its next corner: a new impact, as
    the reference's die strikes its next corner a fraction of a
    millisecond later and bounces 0.46 m/s high. 2.5d-9 ended the
    bouncing on the centre's vertical speed alone (below REST_BOUNCE_SPEED)
    and laid the die on an edge to pivot, projecting its spin about the
    horizontal axis across that edge away; 35 of 40 such launches then
    showed one face. The bouncing ends only when the point that struck and
    the centre both leave slower than REST_BOUNCE_SPEED."""
    r = rotation_about((-1.0, 0.0, 0.0), math.radians(20.0)) @ rotation_z(math.radians(1.0))
    v, omega = np.array([0.0, 272.0, -864.0]), np.array([-15.5, 0.0, 0.0])
    out = _LANDING.land(v, omega, r, 0)
    c = out.contact
    leave = out.v[2] + out.omega[0] * c[1] - out.omega[1] * c[0]
    assert floor_contact(r, A, RHO, v, omega).feature is Feature.CORNER  # type: ignore[union-attr]
    assert out.v[2] < 0.0  # the centre still falls
    assert leave > 5.0 * imp.REST_BOUNCE_SPEED  # the corner springs up
    assert np.linalg.norm(out.omega) > 70.0
    assert not out.settles


def test_rounded_landing_settles_after_max_bounces() -> None:
    """However fast it still rebounds, the MAX_BOUNCES-th landing ends the bouncing."""
    v = np.array([0.0, 0.0, -1000.0])
    assert not _LANDING.land(v, np.zeros(3), with_face_up(1), imp.MAX_BOUNCES - 1).settles
    assert _LANDING.land(v, np.zeros(3), with_face_up(1), imp.MAX_BOUNCES).settles


def test_rounded_landing_when_nothing_moves_down() -> None:
    """A die whose corners near the floor already move up gets no impulse
    (its contact is the lowest feature's)."""
    v, omega = np.array([100.0, 0.0, 30.0]), np.zeros(3)
    out = _LANDING.land(v, omega, with_face_up(2), 0)
    assert np.array_equal(out.v, v) and np.array_equal(out.omega, omega)
    assert out.speed == 0.0


@settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.filter_too_much],
)
@given(_impacts())
def test_rounded_landing_never_creates_energy(case: tuple[Vec, Vec, Vec]) -> None:
    """The world's landing with the board's coefficients never adds kinetic
    energy (the rounded die's inertia), for any velocity, spin and
    orientation: Stronge's restitution with friction is dissipative, where
    the sharp model's Newton restitution needed its tangential impulse
    shrunk (``test_sticking_energy_gain_saved_case``)."""
    v, omega, r = case
    out = _LANDING.land(v, omega, r, 0)
    before, after = _rounded_energy(v, omega), _rounded_energy(out.v, out.omega)
    assert after <= before * (1.0 + 1e-9) + 1e-9


# ------------------------------------------------------------- side blows


def test_side_blow_decisions() -> None:
    """The side-blow model's decisions: a grounded die trips only when the
    edge is caught below its centre (an obstacle lower than A/2 above its
    floor) and from the trip speed on; an airborne die is kicked by any
    closing blow, never by a parting one."""
    trip = tumble.trip_speed(A, G)
    blows = imp.EdgeCatchBlows(_DIE, trip)
    low = A / 2.0 - 1.0  # a lip below the centre
    assert blows.response(False, 0.0, trip, low) is imp.BlowResponse.TRIP
    assert blows.response(False, 0.0, trip * 0.999, low) is imp.BlowResponse.NONE
    assert blows.response(False, A, trip * 3.0, A + low) is imp.BlowResponse.TRIP
    assert blows.response(False, A, trip * 3.0, 2.0 * A) is imp.BlowResponse.NONE
    assert blows.response(True, 0.0, 1.0, 40.0) is imp.BlowResponse.KICK
    assert blows.response(True, 0.0, -1.0, 40.0) is imp.BlowResponse.NONE


@pytest.mark.parametrize("top", [A / 2.0, A, 25.0, 40.0])
def test_blow_at_or_above_the_centre_never_trips(top: float) -> None:
    """Saved case: every blow on a grounded die at 420 mm/s or more tipped it
    one face, a face-on blow from a castle wall, a pin or a die of the same
    size included (``flick --at 0,-120 --velocity 0,-800`` went 1 -> 4).
    Those act at or above the centre height and cannot tip it."""
    trip = tumble.trip_speed(A, G)
    blows = imp.EdgeCatchBlows(_DIE, trip)
    assert blows.response(False, 0.0, 2000.0, top) is imp.BlowResponse.NONE

    assert tumble.trip_spin(trip, A) == pytest.approx(3.0 * trip / (4.0 * A))


def test_blows_take_the_rounded_die_inertia() -> None:
    """The side-blow model's trip spin is the angular momentum m v a / 2
    about the caught edge over the rounded die's m (i2 + a^2 / 2), its
    inertia the one :func:`impact.die_inertia` gives (2.8 % below the sharp
    cube's m a^2 / 6, whose 3 v / (4 a) the old model took)."""
    blows = imp.EdgeCatchBlows(_DIE, tumble.trip_speed(A, G))
    i2 = imp.die_inertia(_DIE) / M
    assert i2 == pytest.approx(rounded_cube_inertia(M, A, _DIE.edge_radius_mm) / M)
    assert i2 < A * A / 6.0 * 0.975
    assert blows.trip_spin(500.0) == pytest.approx(500.0 * A / 2.0 / (i2 + A * A / 2.0))
    assert blows.trip_spin(500.0) > 3.0 * 500.0 / (4.0 * A)


def test_an_edge_landing_a_little_out_of_level_turns_the_die_a_little() -> None:
    """Saved case (model 2.5d-10, found comparing a 900 mm/s low launch
    with the reference impact by impact): its die comes down on its leading
    edge tilted 13.8 degrees, and the reference's, 0.002 rad out of level
    about the flick (its lower corner 0.026 mm below the other), leaves
    the impact turning at -8.8 rad/s about the flick. The 2.5D took two
    corners within 1e-3 of the die's size (0.016 mm) as an edge, any
    others as one corner: level it left 0 rad/s, 0.002 rad out of level
    -58.7 rad/s (and the centre still falling at 158 mm/s), a jump.
    Corners within the impact's compression (Hertz, 0.05 mm here) touch in
    the same impact: the turn about the flick grows with the tilt, with no
    jump, and reaches the one corner's as the tilt lifts the other corner
    out of the compression."""
    board = load_board("standard")
    land = imp.RoundedLanding(board.die, G)
    v = np.array([0.0, 889.0, -605.0])
    w = np.array([-3.89, 0.0, 0.0])
    tilt = math.asin(0.2386)
    turns = []
    for k in range(21):
        r = rotation_about((0.0, 1.0, 0.0), 0.00025 * k) @ rotation_about((-1.0, 0.0, 0.0), tilt)
        turns.append(float(land.land(v, w, r @ np.diag([1.0, -1.0, -1.0]), 0).omega[1]))
    steps = np.abs(np.diff(turns))
    assert turns[0] == pytest.approx(0.0, abs=1e-6)
    assert max(steps) < 12.0, f"the turn about the flick jumps by {max(steps):.1f} rad/s"
    assert abs(turns[-1]) > 50.0  # one corner's, 0.005 rad out of level


def test_the_compression_depth_is_hertzs() -> None:
    """Hertz's sphere on a half-space (Johnson 1985, 11.4): the depth grows
    as speed^(4/5) and mass^(2/5); a corner of the standard die at 600 mm/s
    presses in about 0.05 mm, lasting about 2.94 depth / speed = 0.25 ms,
    inside the 0.14-0.46 ms of docs/fidelity.md; no speed, no depth."""
    from warlords_sim.physics.contact import compression_depth

    board = load_board("standard")
    m, radius = board.die.mass_g, board.die.edge_radius_mm
    inertia = rounded_cube_inertia(m, board.die.size_mm, radius)
    corner = (6.4, 6.4, -8.0)
    d600 = compression_depth(m, inertia, corner, radius, 600.0)
    assert 0.03 < d600 < 0.07
    assert 0.14 < 2.94 * d600 / 600.0 * 1e3 < 0.46  # ms
    d1200 = compression_depth(m, inertia, corner, radius, 1200.0)
    assert d1200 / d600 == pytest.approx(2.0**0.8, rel=1e-9)
    assert compression_depth(m, inertia, corner, radius, 0.0) == 0.0
