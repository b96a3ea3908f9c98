"""The 3D reference engine (MuJoCo) proves itself: drop rebound, Coulomb
slide, rest, energy, timestep independence, the physics port through the
rules and the CLI (issue 9, items 1-2)."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import mujoco
import numpy as np
import pytest
from click.testing import CliRunner

from warlords_sim.board import Board, BoardError, Crenelation, load_board
from warlords_sim.bots import make_bot
from warlords_sim.cli import main
from warlords_sim.physics import World, WorldError
from warlords_sim.physics.orientation import face_up
from warlords_sim.physics.types import EventKind, Flick, FlickError, LaunchKind
from warlords_sim.reference import ReferenceWorld
from warlords_sim.reference.scene import build_scene
from warlords_sim.rules import GameConfig, HouseRules
from warlords_sim.rules.actions import BoardFlick, SiegeShot, SupplyFlick
from warlords_sim.rules.engine import Game
from warlords_sim.rules.physics_port import make_world

BOARD = load_board()
G = BOARD.gravity_mm_s2
MU = BOARD.die.table_friction
#: A lane clear of walls and holes (y = 150 mm), from x = -285 mm to +292 mm.
LANE = (-285.0, 150.0)
BOARD_FILE = Path(BOARD.path)


@pytest.fixture(scope="module")
def world() -> ReferenceWorld:
    return ReferenceWorld(BOARD)


def _empty(world: ReferenceWorld) -> ReferenceWorld:
    w = world.copy()
    for die in w.dice:
        w.remove_die(die)
    return w


def test_drop_rebounds_with_the_board_restitution(world: ReferenceWorld) -> None:
    """A die dropped face down in the real scene (not the calibration's)
    from 10-60 mm comes back with the board's table restitution (mean of the
    drops within 0.05; the drops cover several step phases)."""
    ratios = []
    for h in (10.0, 17.0, 25.0, 34.0, 45.0, 60.0):
        w = _empty(world)
        w.add_die(0, *LANE)
        w._dice[0] = replace(w._dice[0], z=w._dice[0].z + h)  # lift it
        trace: list[tuple[float, int]] = []

        def record(
            m: mujoco.MjModel, d: mujoco.MjData, trace: list[tuple[float, int]] = trace
        ) -> None:
            trace.append((float(d.qvel[2]), int(d.ncon)))

        w.flick(Flick(0, (0.0, 0.0)), on_step=record)
        v_in = v_out = None
        for (vz0, n0), (vz1, n1) in zip(trace, trace[1:], strict=False):
            if v_in is None and n1:
                v_in = vz0
            elif v_in is not None and n0 and not n1:
                v_out = vz1
                break
        assert v_in is not None and v_out is not None
        ratios.append(-v_out / v_in)
    assert abs(float(np.mean(ratios)) - BOARD.die.table_restitution) < 0.05, ratios


@pytest.mark.parametrize("speed", [300.0, 900.0])
def test_slide_distance_is_coulomb(world: ReferenceWorld, speed: float) -> None:
    """A die pushed along the table slides v^2 / (2 mu g) within 3 %, keeping its face."""
    w = _empty(world)
    w.add_die(0, *LANE, face=3)
    res = w.flick(Flick(0, (speed, 0.0)))
    assert res.pose is not None
    expected = speed * speed / (2.0 * MU * G)
    assert res.pose.x - LANE[0] == pytest.approx(expected, rel=0.03)
    assert res.pose.face == 3 and not res.pose.cocked


def _hold(w: ReferenceWorld, seconds: float) -> tuple[float, int]:
    """Simulate the world's dice untouched for ``seconds``; the largest
    horizontal displacement (mm) of a die centre and how many dice changed
    face. (Vertically a die laid exactly flat settles into the soft contact
    by its rest penetration, about 0.05 mm: see reference/calibrate.py.)"""
    built = build_scene(BOARD, w.castle_seats, w.side_walls, w.pins, None, w.dice, w.contact)
    m, d = built.model, mujoco.MjData(built.model)
    starts = {}
    for k, die in enumerate(built.dice):
        s = w._dice[die]
        a = built.qpos[k]
        d.qpos[a : a + 7] = [s.x / 1e3, s.y / 1e3, s.z / 1e3, *s.quat]
        starts[k] = (np.array([s.x, s.y, s.z]), w.face(die))
    mujoco.mj_step(m, d, nstep=int(round(seconds / m.opt.timestep)))
    worst, changed = 0.0, 0
    for k, (p0, f0) in starts.items():
        a = built.qpos[k]
        worst = max(worst, float(np.linalg.norm(d.qpos[a : a + 2] * 1e3 - p0[:2])))
        assert abs(d.qpos[a + 2] * 1e3 - p0[2]) < 0.1  # settled into the contact, no more
        r = np.zeros(9)
        mujoco.mju_quat2Mat(r, d.qpos[a + 3 : a + 7])
        changed += face_up(r.reshape(3, 3)) != f0
    return worst, changed


def test_a_die_at_rest_stays_at_rest(world: ReferenceWorld) -> None:
    """A die set down, and a die come to rest after a slide, stay put for
    5 s (less than 0.01 mm, same face)."""
    w = _empty(world)
    w.add_die(0, *LANE, face=2, angle=0.3)
    w.add_die(1, 0.0, -120.0, face=5)
    w.flick(Flick(1, (0.0, 600.0)))
    moved, changed = _hold(w, 5.0)
    assert moved < 0.01 and changed == 0


def _board_with(tmp_path: Path, field: str, old: str, new: str) -> Board:
    text = BOARD_FILE.read_text()
    assert f"{field} = {old}" in text
    path = tmp_path / f"{field}.toml"
    path.write_text(text.replace(f"{field} = {old}", f"{field} = {new}", 1))
    return load_board(path)


def test_energy_never_rises_between_contacts(tmp_path: Path) -> None:
    """A tumbling launch from a high crenelation: energy (kinetic plus
    potential) rises by no more than 1 % over any free flight, and no
    contact hands back more than 1 % of what the die had.

    On the standard board (restitution 0.5). At a restitution of 0.69-0.8
    the contact is so lightly damped (damping ratio 0.07-0.11) that corner
    impacts gain 3-12 % (docs/physics.md)."""
    w = ReferenceWorld(BOARD)
    spot = BOARD.launch_spot(0, 2, Crenelation.HIGH)
    flights: list[list[float]] = []
    airborne = False

    def energy(m: mujoco.MjModel, d: mujoco.MjData) -> None:
        nonlocal airborne
        mujoco.mj_energyPos(m, d)
        mujoco.mj_energyVel(m, d)
        e = float(d.energy[0] + d.energy[1])
        if d.ncon == 0:
            if not airborne:
                flights.append([])
            flights[-1].append(e)
        airborne = d.ncon == 0

    fl = Flick(0, (150.0, 900.0), 30.0, LaunchKind.HIGH, (spot.x, spot.y), spot.height_mm)
    w.flick(fl, face=1, on_step=energy)
    flights = [f for f in flights if len(f) >= 3]
    assert len(flights) >= 3  # it really tumbled and bounced
    for f in flights:
        assert max(f) <= 1.01 * f[0]
    for a, b in zip(flights, flights[1:], strict=False):
        assert b[0] <= 1.01 * a[-1]


def _launches(world: ReferenceWorld, n: int) -> np.ndarray:
    spot = BOARD.launch_spot(0, 2, Crenelation.HIGH)
    out = []
    for i in range(n):
        rng = np.random.default_rng(100 + i)
        speed = 900.0 * (1.0 + rng.normal(0.0, 0.05))
        heading = math.pi / 2 + rng.normal(0.0, 0.05)
        v = (speed * math.cos(heading), speed * math.sin(heading))
        w = _empty(world)
        res = w.flick(Flick(0, v, 0.0, LaunchKind.HIGH, (spot.x, spot.y), spot.height_mm), face=1)
        assert res.pose is not None
        out.append(res.pose.y - spot.y)
    return np.array(out)


def test_halving_the_timestep_changes_launches_only_within_noise(world: ReferenceWorld) -> None:
    """Noisy crenelation launches (0:2 high, 900 mm/s, 5 % noise) advance
    alike at the timestep and at half of it: the means differ by less than
    three standard errors."""
    fine = ReferenceWorld(BOARD, timestep=world.timestep / 2.0)
    a, b = _launches(world, 6), _launches(fine, 6)
    se = math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
    assert abs(a.mean() - b.mean()) < 3.0 * se + 5.0, (a, b)


def test_events_of_a_slide_into_a_pin_and_off_the_board(world: ReferenceWorld) -> None:
    """A slow slide lands nowhere; a die driven into a pin records the
    contact; a die driven off the open edge exits."""
    w = _empty(world)
    w.set_pins([0])  # ring hole 0 at (60, 0)
    w.add_die(0, 20.0, 0.0)
    res = w.flick(Flick(0, (600.0, 0.0)))
    kinds = [e.kind for e in res.events]
    assert EventKind.LANDING not in kinds
    assert any(e.kind is EventKind.CONTACT and e.other == "pin:0" for e in res.events)
    w.add_die(1, 270.0, 150.0)
    res = w.flick(Flick(1, (1000.0, 0.0)))
    assert res.exited == (1,) and 1 not in w.dice
    assert [e.kind for e in res.events if e.die == 1][-1] is EventKind.EXIT


def test_same_inputs_same_results(world: ReferenceWorld) -> None:
    """Same world, same flick: bitwise the same digest, also from a copy."""
    w = _empty(world)
    w.add_die(0, 0.0, -120.0)
    spot = BOARD.launch_spot(0, 1, Crenelation.LOW)
    fl = Flick(1, (40.0, 700.0), 5.0, LaunchKind.LOW, (spot.x, spot.y), spot.height_mm)
    c = w.copy()
    r1, r2 = w.flick(fl, face=4), c.flick(fl, face=4)
    assert r1.digest == r2.digest and r1.events == r2.events


def test_port_errors_mirror_the_2_5d_world(world: ReferenceWorld) -> None:
    w = _empty(world)
    w.add_die(0, 0.0, -120.0)
    with pytest.raises(WorldError, match="already in the world"):
        w.add_die(0, 0.0, 120.0)
    with pytest.raises(WorldError, match="overlap die 0"):
        w.add_die(1, 5.0, -120.0)
    with pytest.raises(WorldError, match="overlap a wall"):
        w.add_die(1, 0.0, -214.0)
    with pytest.raises(FlickError, match="no die 7"):
        w.flick(Flick(7, (100.0, 0.0)))
    with pytest.raises(FlickError, match="over the maximum"):
        w.flick(Flick(0, (3000.0, 0.0)))
    with pytest.raises(WorldError, match="no die 9"):
        w.pose(9)
    assert w.free_spot_near(0.0, -120.0, 40.0) != (0.0, -120.0)


def _cuboid_board(tmp_path: Path, sides: str) -> Board:
    text = BOARD_FILE.read_text().replace("# sides_mm = [16.0, 16.0, 16.0]", f"sides_mm = {sides}")
    path = tmp_path / "cuboid.toml"
    path.write_text(text)
    return load_board(path)


def test_cuboid_dice_run_on_the_reference_only(tmp_path: Path) -> None:
    board = _cuboid_board(tmp_path, "[16.0, 16.0, 10.0]")
    assert board.die.sides_mm == (16.0, 16.0, 10.0)
    with pytest.raises(WorldError, match="2.5D engine models cubic dice only"):
        World(board)
    w = ReferenceWorld(board)
    w.add_die(0, *LANE)
    assert w.height(0) == pytest.approx(5.0)
    with pytest.raises(BoardError, match="die.sides_mm"):
        _cuboid_board(tmp_path, "[16.0, -1.0, 10.0]")


def test_the_rules_play_a_few_turns_on_the_reference() -> None:
    """The rules engine runs on the reference through the physics port: the
    settled poses it keeps are the reference's."""
    config = GameConfig(BOARD, 2, HouseRules())
    game = Game(config, make_world(BOARD, "reference"))
    bot = make_bot("aim", 0.7)
    rng = np.random.default_rng(1)
    flicks = 0
    for _ in range(12):
        action = bot.choose(game.state, game.legal_actions(), rng)
        flicks += isinstance(action, SupplyFlick | BoardFlick | SiegeShot)
        game.apply(action)
        if flicks >= 3:
            break
    state = game.state
    assert flicks >= 3
    on_board = [d for d in state.dice.values() if d.pose is not None]
    assert on_board
    for d in on_board:
        assert d.pose == state.physics.pose(d.id)


def test_cli_flick_on_the_reference_gives_the_same_fields() -> None:
    runner = CliRunner()
    args = ["flick", "--at", "0,-120", "--velocity", "300,0", "--json"]
    ref = runner.invoke(main, [*args, "--engine", "reference"])
    base = runner.invoke(main, args)
    assert ref.exit_code == 0, ref.output
    a, b = json.loads(ref.output), json.loads(base.output)
    assert a.keys() == b.keys()
    assert a["face"] == 1 and a["x_mm"] == pytest.approx(b["x_mm"], abs=2.0)


@pytest.mark.parametrize(("ratio", "measured"), [(0.47, 0.916), (0.97, 0.385), (2.65, 0.006)])
def test_cuboid_tosses_land_square_face_up_as_measured(ratio: float, measured: float) -> None:
    """A small run of benchmarks/cuboids.py: steel cuboids y x y x x tossed
    from 300 mm land on a square face about as often as the published tosses
    (Mathematical Gazette 97, note 97.16, table 1): within 0.05 plus three
    binomial standard errors of 60 tosses."""
    from warlords_sim.reference.toss import TossSetup, square_face_share, toss

    y, x = 16.0, 16.0 * ratio
    setup = TossSetup((y, y, x), 0.5, 7.85e-3 * y * y * x, 0.5, 0.3)
    rng = np.random.default_rng([7, round(ratio * 100)])
    n = 60
    p = square_face_share([toss(setup, rng) for _ in range(n)])
    assert abs(p - measured) <= 0.05 + 3.0 * math.sqrt(measured * (1 - measured) / n)


def test_without_mujoco_the_cli_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    for name in [m for m in sys.modules if m.startswith("warlords_sim.reference")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "mujoco", None)  # import mujoco -> ImportError
    res = CliRunner().invoke(
        main, ["flick", "--at", "0,-120", "--velocity", "300,0", "--engine", "reference"]
    )
    assert res.exit_code == 2
    assert res.output.strip().splitlines() == [
        "warlords-sim: error: the reference engine needs the 'reference' extra "
        "(mujoco is not installed): pip install 'warlords-sim[reference]' "
        "(in a clone: pip install -e '.[reference]')"
    ]


def test_a_launch_at_an_open_spot_leaves_a_ledge_as_from_a_crenelation() -> None:
    """Saved case (issue 19, item 3: "make the engines take the same set-up").

    ``flick --at X,Y --launch high`` at a spot with no wall: the 2.5D world
    takes every crenelation launch off a ledge's edge, but the reference
    had nothing under the die, which fell 40 mm straight off: at 300 mm/s
    its first landing came 10 ms early at 886 mm/s, against 101 ms and
    798 mm/s for the same launch from seat 0's middle high crenelation.
    Now the reference sets a ledge there for the flick, and the two
    launches come down alike."""
    spot = BOARD.launch_spot(0, 2, Crenelation.HIGH)
    ox, oy = spot.outward
    firsts = []
    for start in ((spot.x, spot.y), (100.0, 0.0)):  # (100, 0): open table
        w = ReferenceWorld(BOARD)
        f = Flick(0, (ox * 300.0, oy * 300.0), 0.0, LaunchKind.HIGH, start, spot.height_mm)
        res = w.flick(f, face=1)
        e = next(e for e in res.events if e.kind is EventKind.LANDING)
        along = (e.x - start[0]) * ox + (e.y - start[1]) * oy
        firsts.append((e.t, along, e.speed))
    (t0, a0, s0), (t1, a1, s1) = firsts
    assert abs(t1 - t0) < 1e-3
    assert abs(a1 - a0) < 1.0
    assert abs(s1 - s0) < 20.0
