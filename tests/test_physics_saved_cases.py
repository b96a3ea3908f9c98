"""Odd situations and saved physics bugs (issue 2: "Each physics bug found
becomes a saved case in tests/ whose docstring says what broke").

The first part checks odd but legal situations: a die flicked off the open
edge, side walls holding a die at full speed, a die resting against a wall
and then hit, a die dropped onto a wall top or another die. The second part
keeps the bugs found while hunting, one test each; the open ones are marked
``xfail(strict=True)`` so that the fix turns them into ordinary tests.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from warlords_sim.board import Board, Crenelation, load_board
from warlords_sim.physics import (
    MAX_FLICK_SPEED,
    EventKind,
    Flick,
    LaunchKind,
    RegionKind,
    World,
)

VMAX = MAX_FLICK_SPEED * (1.0 - 1e-6)


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board("standard")


def _inside_walls(board: Board, x: float, y: float) -> bool:
    return any(w.rect.contains(x, y) for c in board.castles for w in c.walls)


# --------------------------------------------------------- odd situations


def test_die_flicked_off_the_open_edge(board: Board) -> None:
    """A die flicked over the open edge leaves the board: it is listed in
    ``exited``, has no pose, the log ends its story with an EXIT beyond the
    edge (not over a wall), and the world no longer holds it."""
    w = World(board)
    w.add_die(1, 250.0, 200.0, face=4)
    w.add_die(2, 0.0, 150.0)
    res = w.flick(Flick(1, (1500.0, 0.0)))
    assert res.exited == (1,)
    assert res.pose is None
    assert 1 not in res.poses and 2 in res.poses
    exits = [e for e in res.events if e.kind is EventKind.EXIT]
    assert len(exits) == 1 and exits[0].die == 1
    assert exits[0].x > board.half_size_mm
    assert not exits[0].over_wall
    assert w.dice == (2,)


@pytest.mark.parametrize("corner", [(1, 1), (1, -1), (-1, 1), (-1, -1)])
def test_side_walls_keep_dice_on_the_board(board: Board, corner: tuple[int, int]) -> None:
    """With the side walls standing, seeded flicks at full speed towards the
    side walls (and into the corners between them) from the open board
    around each corner never leave the board and end within the walls."""
    sx, sy = corner
    rng = np.random.default_rng(100 + 10 * sx + sy)
    limit = board.half_size_mm - 6.0  # inner face of the 6 mm side walls
    for _ in range(60):
        w = World(board, side_walls=True)
        x, y = sx * rng.uniform(130.0, 280.0), sy * rng.uniform(130.0, 280.0)
        heading = math.atan2(sy, sx) + rng.uniform(-math.pi / 4.0, math.pi / 4.0)
        w.add_die(1, float(x), float(y), angle=float(rng.uniform(0.0, 1.5)))
        res = w.flick(
            Flick(
                1,
                (VMAX * math.cos(heading), VMAX * math.sin(heading)),
                spin=float(rng.normal(0.0, 20.0)),
            )
        )
        assert res.exited == (), (x, y, heading, res.events[-3:])
        pose = res.pose
        assert pose is not None
        assert max(abs(pose.x), abs(pose.y)) <= limit - board.die.size_mm / 2.0 + 1.0, pose


@pytest.mark.parametrize("speed", [600.0, 1000.0, 2000.0])
def test_side_wall_stops_a_rolling_die(board: Board, speed: float) -> None:
    """Saved case (found by the tunnelling fuzz): side walls standing, a die
    resting 1 mm from seat 1's side wall (x -300..-294) is struck towards
    it by another die. It must stay on the board.

    What broke: the struck die trips and ``_roll`` moves it a face (16 mm)
    towards the wall; the target square's centre (x = -301) is off the
    board, and the off-board test comes before the ``_blocked`` test, so the
    die is set down beyond the wall and leaves the board (EXIT with
    ``over_wall`` True) even at 600 mm/s. (3 of 5000 fuzzed flicks at the
    side walls.)"""
    w = World(board, side_walls=True)
    w.add_die(2, -285.0, -200.0)
    w.add_die(1, -245.0, -200.0)
    res = w.flick(Flick(1, (-speed, 0.0)))
    assert res.exited == ()
    assert all(abs(p.x) <= board.half_size_mm - 6.0 for p in res.poses.values())


def test_die_resting_against_a_wall_then_hit(board: Board) -> None:
    """A die resting against a castle's front wall, struck head-on at speeds
    up to the maximum, is never pushed into or through the wall, and does
    not end in the courtyard behind it."""
    wall = board.castles[0].walls[4].rect  # front wall between the gateways
    for speed in (300.0, 800.0, 1500.0, VMAX):
        w = World(board)
        w.add_die(2, 0.0, wall.y1 + 8.1)  # 0.1 mm from the wall's front face
        w.add_die(1, 0.0, -120.0)
        res = w.flick(Flick(1, (0.0, -speed)))
        for pose in res.poses.values():
            assert not _inside_walls(board, pose.x, pose.y), (speed, pose)
            assert pose.region.kind is not RegionKind.COURTYARD, (speed, pose)
            if pose.elevation_mm == 0.0 and abs(pose.x) < wall.x1:
                assert pose.y - board.die.size_mm / 2.0 > wall.y1 - 1.0, (speed, pose)


def test_die_dropped_on_a_wall_top_rests_there(board: Board) -> None:
    """A die let go (no speed) 5 mm above the top of a castle wall lands on
    the wall top and rests there, flat: elevation 40 mm, not cocked, same face."""
    wall = board.castles[0].walls[4]
    cx, cy = wall.rect.center
    w = World(board)
    res = w.flick(
        Flick(
            1, (0.0, 0.0), launch=LaunchKind.HIGH, start=(cx, cy), height_mm=wall.height_mm + 5.0
        ),
        face=2,
    )
    pose = res.pose
    assert pose is not None
    assert pose.elevation_mm == wall.height_mm
    assert (pose.x, pose.y) == (cx, cy)
    assert pose.face == 2
    assert not pose.cocked
    assert [e.other for e in res.events if e.kind is EventKind.LANDING][0] == "top"


def test_die_dropped_on_another_die_rests_on_it(board: Board) -> None:
    """A die let go just above another resting die comes to rest on top of it
    (elevation one die, 16 mm), read as cocked, with its face readable."""
    w = World(board)
    w.add_die(2, -150.0, 120.0, face=2)
    res = w.flick(
        Flick(1, (0.0, 0.0), launch=LaunchKind.LOW, start=(-152.0, 120.0), height_mm=20.0)
    )
    top = res.poses[1]
    assert top.elevation_mm == board.die.size_mm
    assert top.cocked
    assert 1 <= top.face <= 6
    assert res.poses[2].elevation_mm == 0.0


def test_head_on_collision_logged_once_per_die(board: Board) -> None:
    """Saved case (fixed): two dice colliding head-on at 1 m/s.

    What broke: the die-die begin callback ran once for each ordering of the
    pair, so each contact was logged twice for each die and each die tripped
    twice (rolling two faces per blow). Since issue 9 a blow at the centre
    height (a die of the same size) trips neither die at all."""
    w = World(board)
    w.add_die(1, -100.0, 150.0)
    w.add_die(2, -60.0, 150.0)
    res = w.flick(Flick(1, (1000.0, 0.0)))
    contacts = [e for e in res.events if e.kind is EventKind.CONTACT]
    t_hit = contacts[0].t
    at_hit = sorted((e.die, e.other) for e in contacts if e.t == t_hit)
    assert at_hit == [(1, "die:2"), (2, "die:1")]
    assert [e for e in res.events if e.kind is EventKind.TRIP] == []
    assert res.poses[1].face == res.poses[2].face == 1


# ------------------------------------------------------------ saved cases


def test_bounce_off_a_wall_top_falls_to_the_board(board: Board) -> None:
    """Saved case: a die launched at 150 mm/s from 60 mm above castle 0's
    middle front wall (y -226..-202) lands on the wall top and bounces back
    out over the moat. Every later LANDING on a "top" must be over the wall.
    (Launched as HIGH from 60 mm: no siege engine stands there, and a SIEGE
    flick needs one; the 2.5D world moves both launches alike.)

    What broke: the floor of the flight stays at the wall's 40 mm after the
    die has left the wall: it keeps landing "top" over the moat and the open
    board (y = -188 .. -139, up to 60 mm from the wall) for half a second,
    floating at 40 mm, until it is laid flat and only then falls."""
    w = World(board)
    res = w.flick(
        Flick(1, (0.0, -150.0), launch=LaunchKind.HIGH, start=(0.0, -206.0), height_mm=60.0)
    )
    tops = [e for e in res.events if e.kind is EventKind.LANDING and e.other == "top"]
    assert tops, "the die should land on the wall top first"
    half = board.die.size_mm / 2.0
    wall = board.castles[0].walls[4].rect
    for e in tops:
        assert wall.y0 - half <= e.y <= wall.y1 + half, f"landed on air at {e}"


def test_bounce_off_a_die_falls_to_the_board(board: Board) -> None:
    """Saved case: a die launched at 100 mm/s from 20 mm up, right above a
    resting die, lands on it and slides off. Every LANDING on a "top" must
    be over the die below (centres within half a diagonal plus half a die).

    What broke: as on a wall top, the flight's floor stays at 16 mm after the
    die has left the die below: it lands "top" on air 20 mm beside it."""
    w = World(board)
    w.add_die(2, -150.0, 120.0, face=2)
    res = w.flick(
        Flick(1, (100.0, 0.0), launch=LaunchKind.LOW, start=(-152.0, 120.0), height_mm=20.0)
    )
    reach = board.die.size_mm / 2.0 * (1.0 + math.sqrt(2.0))
    for e in res.events:
        if e.kind is EventKind.LANDING and e.other == "top":
            assert math.hypot(e.x + 150.0, e.y - 120.0) <= reach, f"landed on air at {e}"


def test_graze_over_a_pin_top_creates_no_energy(board: Board) -> None:
    """Saved case: a die flicked at 2 m/s from 25.5 mm up (its bottom just
    above the 25 mm pin top) towards a pin 30 mm away. Whatever the blow
    does, the die cannot rise higher than if all its kinetic energy went
    into height: z0 + v^2 / (2 g) plus its small launch tumble, 237 mm.

    What broke: ``_side_kick`` applies the full blow m (1 + e) v at the
    overlap of die and pin heights (here the bottom 0.5 mm of the die) as a
    torque, on top of pymunk's own full impulse; the die is set tumbling at
    ~300 rad/s (kinetic energy x2 seen in one kick) and the next landing
    throws it 305 mm high. (While trips launched dice into the air, the
    same kick flung table-flicked dice over castle walls: see
    ``test_physics_tunnelling.test_struck_bystander_stays_out_of_courtyards``.)"""
    pin = board.holes.index((-50.0, 100.0))
    g = board.gravity_mm_s2
    speed, h0 = 2000.0, 25.5
    w = World(board)
    w.add_pin(pin)
    w.begin_flick(Flick(1, (speed, 0.0), launch=LaunchKind.LOW, start=(-80.0, 100.0), height_mm=h0))
    top = 0.0
    while not w.settled:
        w.step()
        if 1 in w.dice:
            top = max(top, w.height(1))
    tumble = 0.5 * g / speed  # above the ledge model's ~0.39 g / v at launch
    bound = (
        h0
        + board.die.size_mm / 2.0
        + (speed**2 + board.die.size_mm**2 * tumble**2 / 6.0) / (2.0 * g)
    )
    assert top <= bound, f"rose to {top:.1f} mm, more than the {bound:.1f} mm its energy allows"


def test_landings_are_downward_impacts(board: Board) -> None:
    """Saved case: a die flicked at 300 mm/s outward from seat 0's middle
    high crenelation bounces and tumbles to rest. Every LANDING event is an
    impact from above: its speed, documented as "the normal impact speed",
    is positive.

    What broke: the event records minus the *centre's* vertical velocity;
    when a tumbling die strikes with a corner while its centre still rises,
    the LANDING is logged with a negative speed (-47.6 and -37.0 mm/s here;
    one or more in 334 of 400 random crenelation launches). The contact
    point's normal speed (v + omega x r)_z is what the impact used."""
    spot = board.launch_spot(0, 2, Crenelation.HIGH)
    w = World(board)
    res = w.flick(
        Flick(
            1,
            (0.0, 300.0),
            launch=LaunchKind.HIGH,
            start=(spot.x, spot.y),
            height_mm=spot.height_mm,
        )
    )
    landings = [e for e in res.events if e.kind is EventKind.LANDING]
    assert landings
    assert all(e.speed > 0.0 for e in landings), [round(e.speed, 1) for e in landings]


def test_the_900_launch_lands_its_rounded_die_with_stronges_impact(board: Board) -> None:
    """Saved case (issue 19, item 3): the first table impact of the 900
    mm/s high launch (``flick --from 0:2 --launch high --velocity 0,900``).

    What broke: the bounce took a sharp cube's corners as the contact (the
    mean of those falling, 10.34 mm below the centre) and Newton's
    restitution with fall-backs, so the die landed while its rounded edges
    (``die.edge_radius_mm``, 1.6 mm) were still 0.47 mm above the table,
    and left the impact turning at 35.4 rad/s. The reference engine's
    rounded die leaves its first impact at 6.1 rad/s. Now the flight lands
    the rounded die's lowest point (its edge cylinder, 9.89 mm below the
    centre) and the landing is ``contact.impact`` there, Stronge's
    energetic restitution with slip and reversal: 15.7 rad/s (the rest of
    the gap is the ledge exit's tilt, 21.4 against the reference's 23.4
    degrees). It creates no energy."""
    from warlords_sim.physics.contact import floor_contact, impact, rounded_cube_inertia
    from warlords_sim.rules.flick_setup import flick_start

    w = World(board)
    begin = flick_start(board, w, None, (0, 2), LaunchKind.HIGH, (0.0, 900.0))
    fl = Flick(1, (0.0, 900.0), 0.0, LaunchKind.HIGH, begin.start, begin.height_mm, 0.0)
    model = w._motion.landing
    seen: list[tuple[float, np.ndarray, np.ndarray, np.ndarray, object]] = []

    class Spy:
        def land(self, v: np.ndarray, omega: np.ndarray, r: np.ndarray, bounces: int) -> object:
            f = w._dice[1].flight  # None for a pivot coming down on a face
            out = model.land(v, omega, r, bounces)
            if f is not None:
                zc = f.height(min(w.time, f.t_hit) - f.t0)  # the centre where it hits
                seen.append((zc, v.copy(), omega.copy(), r.copy(), out))
            return out

    w._motion.landing = Spy()  # type: ignore[assignment]
    w.flick(fl, face=1)
    zc, v, omega, r, out = seen[0]
    die = board.die
    fc = floor_contact(r, die.size_mm, die.edge_radius_mm, v, omega)
    assert fc is not None
    # the rounded surface touches the table as the impact begins
    assert zc - fc.depth == pytest.approx(0.0, abs=0.01)
    inertia = rounded_cube_inertia(die.mass_g, die.size_mm, die.edge_radius_mm)
    want = impact(
        v,
        omega,
        fc.offset,
        die.mass_g,
        inertia,
        die.table_restitution,
        die.table_friction,
        die.table_static_friction,
        feature=fc.feature,
    )
    assert out.omega == pytest.approx(want.omega, rel=1e-12, abs=1e-9)  # type: ignore[attr-defined]
    assert out.v == pytest.approx(want.v, rel=1e-12, abs=1e-9)  # type: ignore[attr-defined]
    assert want.energy_after <= want.energy_before


def test_an_interrupt_inside_a_collision_callback_is_not_swallowed() -> None:
    """Saved case: a Ctrl-C that landed inside the contact callback during
    ``simulate --record``.

    What broke: pymunk's C callback printed "Exception ignored" and carried
    on, the callback's bookkeeping was skipped, the game went on with
    different physics and the recording no longer verified. The world now
    keeps the exception and raises it when the step returns."""
    board = load_board("standard")
    w = World(board)
    w.add_die(1, 0.0, -150.0)
    w.add_die(2, 0.0, -100.0)

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    w._collisions.on_begin = interrupted  # type: ignore[method-assign]
    w.begin_flick(Flick(1, (0.0, 900.0)))
    with pytest.raises(KeyboardInterrupt):
        for _ in range(400):
            w.step()


def test_a_die_landing_sunk_into_what_it_came_down_on_creates_no_energy(board: Board) -> None:
    """Saved case (benchmarks/fuzz_flicks.py, #3328 of 10,000 on model
    2.5d-8): a die launched from a low crenelation at 1755 mm/s, struck
    7.6 mm above its centre, tumbles at 311 rad/s and comes down past a die
    at rest, its centre over that die's corner.

    What broke: it met the resting die with its lowest corner 6 mm below
    that die's top, and landed on it (``Support.on_top``); the landing set
    its lowest point on the top, raising it 6 mm for nothing, and the dice
    gained 1.2 % of their energy (so did #6205, a high launch landing on a
    wall's top after a step's fall). The rise is now paid out of the motion
    the impact leaves: the dice's energy never exceeds what the launch gave
    them. Kept as the die let go (``World.drop``) in that flight's state
    4 steps after the launch (17 ms before it came down): from model
    2.5d-9 on (the rounded die's landings, flight and inertia) the flick
    itself takes another path. On the code before the fix the drop gains
    1.211 % too."""
    w = World(board)
    for seat in range(4):
        for hole in board.center_ring.pins_by_seat[seat]:
            w.add_pin(hole)
    w.add_die(1, -80.99244471102315, 144.01936443768733, 4, 0.8245968576819233)
    w.add_die(2, -86.26733412583425, 88.32385330889046, 2, 1.1236896267624048)
    rotation = np.array(
        [
            [-0.008762373721321517, 0.9994739341923697, -0.031226201767013836],
            [-0.8851114586631266, -0.022282753773515546, -0.4648453340924283],
            [-0.46529660062158235, 0.0235655204545803, 0.884841081604886],
        ]
    )
    w.drop(
        0,
        (-91.83062111727656, 172.73263595658995, 26.6375),
        (14.67891036985486, -1755.0980994546687, -163.5),
        rotation,
        (311.5951455593508, 2.606052171538873, 9.420100489166437),
    )
    w.step()
    e0 = sum(w.energy(i) for i in w.dice)
    worst = 0.0
    on_top = False
    while not w.settled:
        w.step()
        worst = max(worst, sum(w.energy(i) for i in w.dice) / e0 - 1.0)
        on_top = on_top or any(
            e.kind is EventKind.LANDING and e.die == 0 and e.other == "top" for e in w.events
        )
    assert on_top  # it did come down on the die
    assert worst <= 1e-9, f"the dice gained {worst:.3%} of their energy"


@pytest.mark.parametrize("walls", [True, False])
def test_a_die_flown_off_the_siege_engine_over_a_side_wall_exits_over_it(
    board: Board, walls: bool
) -> None:
    """Guards the EXIT event's ``over_wall`` (always False, a die flown over
    the side walls would be treated as one off the open edge; rulebook,
    Optional Wall Variants: "Dice that leave play over the walls are removed
    from play", which the rules read from the flag, rules/engine.py). A die
    shot from the siege engine's 60 mm top at 1500 mm/s towards seat 0's
    board edge, where a 30 mm side wall stands (x 110..300): it flies over
    it and leaves the board, an EXIT beyond the edge with ``over_wall``
    True; with no side walls the same shot leaves over the open edge,
    ``over_wall`` False."""
    wall = board.castles[0].side_walls[1]
    assert wall.height_mm < board.siege_engine.launch_height_mm
    x = 200.0
    assert wall.rect.x0 < x < wall.rect.x1
    w = World(board, side_walls=walls)
    w.add_die(1, x, -150.0)
    w.place_siege_engine(x, -200.0)
    start = (x, -200.0 - board.siege_engine.width_mm / 2.0 - 1.0)
    res = w.flick(
        Flick(
            1,
            (0.0, -1500.0),
            launch=LaunchKind.SIEGE,
            start=start,
            height_mm=board.siege_engine.launch_height_mm,
        )
    )
    exits = [e for e in res.events if e.kind is EventKind.EXIT]
    assert res.exited == (1,) and len(exits) == 1
    assert exits[0].y < -board.half_size_mm
    assert exits[0].over_wall is walls
