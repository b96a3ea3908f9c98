"""Where the finger strikes (issue 9, item 7): physics/strike.py's closed
forms, the flick's strike height in both engines and on the command line."""

from __future__ import annotations

import math

import pytest
from click.testing import CliRunner

from warlords_sim.board import load_board
from warlords_sim.cli import main
from warlords_sim.physics import Flick, FlickError, World
from warlords_sim.physics.strike import free_strike, strike_on_surface
from warlords_sim.rules.physics_port import make_world

A = 16.0
BOARD = load_board("standard")


def test_a_blow_at_the_centre_only_pushes() -> None:
    hit = strike_on_surface(900.0, 0.0, A, 0.3, 0.5)
    assert (hit.forward, hit.up, hit.pitch) == (900.0, 0.0, 0.0)


def test_a_blow_at_the_top_pivots_the_die_about_its_leading_edge() -> None:
    """At the top edge (strike a/2) the leading edge sticks: angular momentum
    m v a about the edge over 2 m a^2 / 3 gives w = 3 v / (2 a), and the
    centre moves on the circle about the edge (forward and up at w a / 2)."""
    hit = strike_on_surface(600.0, A / 2.0, A, 0.3, 0.5)
    assert hit.pitch == pytest.approx(3.0 * 600.0 / (2.0 * A))
    assert hit.forward == pytest.approx(hit.pitch * A / 2.0)
    assert hit.up == pytest.approx(hit.pitch * A / 2.0)


@pytest.mark.parametrize("strike", [-8.0, -4.0, -0.5, 0.5, 2.0, 4.0, 8.0])
def test_the_pressed_edge_takes_energy_never_gives_it(strike: float) -> None:
    """The plastic edge contact can only remove energy from what the same
    blow gives a free die: (1/2) m v^2 (1 + 6 h^2 / a^2)."""
    v = 1000.0
    hit = strike_on_surface(v, strike, A, 0.3, 0.5)
    e = 0.5 * (hit.forward**2 + hit.up**2) + 0.5 * (A * A / 6.0) * hit.pitch**2
    assert e <= 0.5 * v * v * (1.0 + 6.0 * strike**2 / A**2) * (1.0 + 1e-12)
    assert math.copysign(1.0, hit.pitch) == math.copysign(1.0, strike)  # high: nose down


def test_small_offsets_turn_the_die_a_little() -> None:
    """No jump at the centre: the pitch goes to zero with the offset."""
    assert abs(strike_on_surface(900.0, 1e-3, A, 0.3, 0.5).pitch) < 0.05
    assert abs(strike_on_surface(900.0, -1e-3, A, 0.3, 0.5).pitch) < 0.05


def test_free_strike_is_the_angular_impulse_over_the_moment() -> None:
    assert free_strike(500.0, 4.0, A).pitch == pytest.approx(6.0 * 500.0 * 4.0 / A**2)


@pytest.mark.parametrize("bad", [8.01, -9.0, math.nan, math.inf])
def test_a_strike_outside_the_die_is_refused_by_both_engines(bad: float) -> None:
    for engine in ("2.5d", "reference"):
        world = make_world(BOARD, engine)
        world.add_die(1, 0.0, -150.0)
        with pytest.raises(FlickError, match="strike height"):
            world.flick(Flick(1, (0.0, 300.0), strike_mm=bad))


@pytest.mark.parametrize("engine", ["2.5d", "reference"])
def test_a_high_strike_rolls_the_die_forward(engine: str) -> None:
    """Struck at its top edge at 300 mm/s toward +y, a die with 1 up rolls
    forward over its leading edge: its back face (4) comes up. Struck at
    the centre it slides without changing its face."""
    for strike, face in ((8.0, 4), (0.0, 1)):
        world = make_world(BOARD, engine)
        world.add_die(1, 0.0, -150.0)
        pose = world.flick(Flick(1, (0.0, 300.0), strike_mm=strike)).pose
        assert pose is not None and pose.face == face, (engine, strike, pose)


@pytest.mark.parametrize("engine", ["2.5d", "reference"])
def test_a_low_strike_at_600_tips_the_die_back(engine: str) -> None:
    """Struck at its bottom edge at 600 mm/s toward +y, the die turns nose up
    over its trailing edge: its front face (3) comes up, in both engines."""
    world = make_world(BOARD, engine)
    world.add_die(1, 0.0, -150.0)
    pose = world.flick(Flick(1, (0.0, 600.0), strike_mm=-8.0)).pose
    assert pose is not None and pose.face == 3, (engine, pose)


def test_flick_command_takes_a_strike() -> None:
    res = CliRunner().invoke(
        main, ["flick", "--at", "0,-150", "--velocity", "0,300", "--strike", "8", "--json"]
    )
    assert res.exit_code == 0, res.output
    assert '"face": 4' in res.output
    bad = CliRunner().invoke(
        main, ["flick", "--at", "0,-150", "--velocity", "0,300", "--strike", "12"]
    )
    assert bad.exit_code == 2 and "strike height must be within the die" in bad.output


def test_the_2_5d_world_keeps_a_centre_strike_bitwise() -> None:
    """strike_mm = 0 is the flick as it was before the field existed."""
    a, b = World(BOARD), World(BOARD)
    for w in (a, b):
        w.add_die(1, 0.0, -150.0)
    ra = a.flick(Flick(1, (100.0, 700.0)))
    rb = b.flick(Flick(1, (100.0, 700.0), strike_mm=0.0))
    assert ra.digest == rb.digest


# ----------------------------------------------------- rules, replays, window


def test_a_struck_flick_reaches_the_physics_through_the_rules() -> None:
    """In a real game a strike outside the die is refused with one line, and
    the rules hand the strike height to the physics flick."""
    from warlords_sim.board import Crenelation
    from warlords_sim.rules import GameConfig, HouseRules
    from warlords_sim.rules.actions import BoardFlick, SupplyFlick
    from warlords_sim.rules.engine import Game
    from warlords_sim.rules.errors import IllegalActionError
    from warlords_sim.rules.flicks import physics_flick

    game = Game(GameConfig(BOARD, 2, HouseRules()))
    with pytest.raises(IllegalActionError, match="strike"):
        game.apply(SupplyFlick(2, Crenelation.HIGH, (0.0, 600.0), strike_mm=9.0))
    flick, _ = physics_flick(
        game.state, SupplyFlick(2, Crenelation.HIGH, (0.0, 600.0), 0.0, 1, 5.5)
    )
    assert flick.strike_mm == 5.5
    flick, _ = physics_flick(game.state, BoardFlick(3, (0.0, 300.0), 0.0, -8.0))
    assert flick.strike_mm == -8.0
    assert BoardFlick(0, (0.0, 300.0), 0.0, 8.0).to_dict()["strike_mm"] == 8.0
    assert "strike_mm" not in BoardFlick(0, (0.0, 300.0)).to_dict()  # old lines unchanged


def test_a_struck_sandbox_flick_records_and_verifies(tmp_path: object) -> None:
    from pathlib import Path

    out = Path(str(tmp_path)) / "s.jsonl"
    res = CliRunner().invoke(
        main,
        ["flick", "--at", "0,-150", "--velocity", "0,300", "--strike", "8", "--record", str(out)],
    )
    assert res.exit_code == 0, res.output
    assert '"strike_mm":8.0' in out.read_text()
    ver = CliRunner().invoke(main, ["replay", str(out), "--verify"])
    assert ver.exit_code == 0 and "all digests match" in ver.output
