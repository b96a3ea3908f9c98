"""The table's restitution and the at-rest threshold, seen in the whole
:class:`~warlords_sim.physics.World` (issue 12: a mutation run found both
changeable unnoticed except by the example replays).

* A die let go flat, without speed or spin, from a height h falls, bounces
  straight up with e times its landing speed (:func:`impact`, a flat
  face on the table: design brief section 2) and so rises to e^2 h. Only
  ``impact()`` was tested with ``e`` given: a world applying the restitution
  twice (rising to e^4 h) passed every test.
* A die is at rest when its speed and spin fall below
  :data:`~warlords_sim.physics.world.REST_SPEED` and ``REST_SPIN``. On the
  standard table friction stops a die within a step of reaching those, so no
  slide shows them; on a slippery table (mu = 0.001) a slow die keeps going
  long enough that a threshold raised tenfold cuts a quarter off its
  Coulomb slide v^2 / (2 mu g) and 4 % off its spin-down w^2 / (2 alpha).
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from warlords_sim.board import BOARDS_DIR, Board, load_board
from warlords_sim.physics import TIMESTEP, EventKind, Flick, LaunchKind, World
from warlords_sim.physics.impact import die_inertia

STANDARD = BOARDS_DIR / "standard.toml"
#: Mean distance of a square contact patch from its centre, in edge
#: lengths: (sqrt 2 + ln(1 + sqrt 2)) / 6 (tests/test_physics_slide.py).
PATCH_ARM = (math.sqrt(2.0) + math.log(1.0 + math.sqrt(2.0))) / 6.0
#: An open spot of the standard board: no wall within 50 mm, no pin placed.
SPOT = (100.0, 150.0)


def _board(tmp_path: Path, **die: float) -> Board:
    """The standard board with the given ``[die]`` fields changed."""
    text = STANDARD.read_text(encoding="utf-8")
    for key, value in die.items():
        text, n = re.subn(rf"^{key} = \S+", f"{key} = {value!r}", text, count=1, flags=re.M)
        assert n == 1, key
    path = tmp_path / "board.toml"
    path.write_text(text, encoding="utf-8")
    return load_board(path)


# ------------------------------------------------------------------ rebound


@pytest.mark.parametrize("restitution", [None, 0.8])  # None: the standard's 0.5
@pytest.mark.parametrize("h", [20.0, 40.0])
def test_flat_drop_rebounds_to_e_squared_h(
    tmp_path: Path, restitution: float | None, h: float
) -> None:
    """A die let go flat from h mm (a crenelation launch at 0 mm/s: it falls
    straight, tumbling not at all) lands at sqrt(2 g h), leaves the table at
    e times that, and its bottom rises to e^2 h.

    Tolerance: the flight is solved in closed form, its landing time found
    by linear interpolation between sub-steps, which leaves the landing
    speed within 1e-4 of sqrt(2 g h) (3e-5 measured); the bounce then
    rises to e^2 v^2 / (2 g) of the speed v it landed at, seen at step ends
    only, so the highest sample lies at most g dt^2 / 8 (0.021 mm) below
    that. Restitution applied twice would rise to e^4 h (a quarter of
    e^2 h at e = 0.5)."""
    board = (
        load_board("standard")
        if restitution is None
        else _board(tmp_path, table_restitution=restitution)
    )
    e, g, half = board.die.table_restitution, board.gravity_mm_s2, board.die.size_mm / 2.0
    w = World(board)
    w.add_die(1, *SPOT, face=3)
    w.begin_flick(Flick(1, (0.0, 0.0), launch=LaunchKind.HIGH, start=SPOT, height_mm=h))
    bottoms = []
    while not w.settled:
        w.step()
        bottoms.append((w.time, w.height(1) - half))
    landings = [ev for ev in w.events if ev.kind is EventKind.LANDING]
    assert len(landings) >= 2
    v1 = landings[0].speed
    assert v1 == pytest.approx(math.sqrt(2.0 * g * h), rel=1e-4)
    assert landings[1].speed == pytest.approx(e * v1, rel=1e-4)
    # from the step of the first landing on (from model 2.5d-10 the bounce
    # flies on from the impact, so at that step's end it has risen already)
    apex = max(z for t, z in bottoms if t >= landings[0].t)
    rise = e * e * v1 * v1 / (2.0 * g)  # e^2 h, from the speed it landed at
    assert rise - g * TIMESTEP**2 / 8.0 - 1e-9 <= apex <= rise + 1e-9, (apex, rise, e * e * h)
    pose = w.pose(1)  # straight up and down: where it was let go, same face
    assert (pose.x, pose.y, pose.face, pose.angle) == (*SPOT, 3, 0.0)


# -------------------------------------------------------------- at rest


#: A slippery table's kinetic friction (waxed wood is about 0.05; this is
#: lower still, so that a slow die keeps sliding for a second).
SLIPPERY = 0.001


@pytest.mark.parametrize("speed", [10.0, 20.0])
def test_slow_slide_on_a_slippery_table_goes_its_whole_coulomb_distance(
    tmp_path: Path, speed: float
) -> None:
    """A die slid at 10-20 mm/s on a table of mu = 0.001 travels
    v^2 / (2 mu g) (5.1-20 mm) within 1 %: it is not declared at rest while
    it still visibly moves.

    Tolerance: a die slower than REST_SPEED (0.5 mm/s) is stopped, losing
    REST_SPEED^2 / (2 mu g) = 0.013 mm (0.25 % of the 10 mm/s slide); the
    last step's error is below mu g dt^2 (0.0002 mm). A threshold ten times
    higher loses 1.3 mm (25 %)."""
    board = _board(tmp_path, table_friction=SLIPPERY)
    w = World(board)
    w.add_die(1, *SPOT)
    res = w.flick(Flick(1, (speed, 0.0)))
    assert res.pose is not None and res.pose.y == SPOT[1]
    expect = speed * speed / (2.0 * SLIPPERY * board.gravity_mm_s2)
    assert res.pose.x - SPOT[0] == pytest.approx(expect, rel=0.01)


def test_slow_spin_on_a_slippery_table_turns_its_whole_coulomb_angle(tmp_path: Path) -> None:
    """A die set spinning at 0.5 rad/s in place on a table of mu = 0.001
    turns w^2 / (2 alpha) (0.086 rad), alpha = 0.3826 mu m g a / I the
    friction torque of its square patch over its moment (the rounded die's,
    ``impact.die_inertia``), within 1 %.

    Tolerance: a die spinning slower than REST_SPIN (0.01 rad/s) is
    stopped, losing REST_SPIN^2 / (2 alpha) = 3.5e-5 rad (0.04 %); the last
    step's error is below alpha dt^2 (2.5e-5 rad). A threshold ten times
    higher loses 3.6e-3 rad (4 %)."""
    board = _board(tmp_path, table_friction=SLIPPERY)
    spin = 0.5
    die = board.die
    alpha = PATCH_ARM * SLIPPERY * die.mass_g * board.gravity_mm_s2 * die.size_mm / die_inertia(die)
    w = World(board)
    w.add_die(1, *SPOT)
    res = w.flick(Flick(1, (0.0, 0.0), spin=spin))
    assert res.pose is not None and (res.pose.x, res.pose.y) == SPOT
    assert res.pose.angle == pytest.approx(spin * spin / (2.0 * alpha), rel=0.01)


def test_each_bounce_flies_on_from_its_impact() -> None:
    """Saved case (model 2.5d-9, found comparing launches with the reference
    step by step, issue 19): a bounce's flight started at the end of the
    step in which the die struck, in the state of the impact, so each bounce
    lost up to a step (4.2 ms) of fall and turn while pymunk carried the
    die on, and a die dropped flat from 52 mm struck a third time at 262.5
    ms where its free flights reach the table at 257.4 ms. Each landing is
    noted at the end of the step in which its free flight reaches the
    table: heights fall by e^2 a bounce, times by e."""
    board = load_board("standard")
    g, e = board.gravity_mm_s2, board.die.table_restitution
    world = World(board)
    h = 52.0
    world.drop(1, (0.0, 0.0, board.die.size_mm / 2.0 + h), (0.0, 0.0, 0.0), np.eye(3),
               (0.0, 0.0, 0.0))  # fmt: skip
    world.run_until_settled()
    lands = [ev.t for ev in world.events if ev.kind is EventKind.LANDING]
    hit, v = math.sqrt(2.0 * h / g), math.sqrt(2.0 * g * h)
    for t in lands[:4]:
        assert t - TIMESTEP - 1e-6 < hit <= t + 1e-6
        v *= e
        hit += 2.0 * v / g
