"""The reference engine's numerical settings (issue 19, item 2): one
:class:`~warlords_sim.reference.solver.Solver` decides the contact's
softness and MuJoCo's options for the calibration and the board's scene
alike, and the shipped timestep keeps the ratio to the time constant at
which the launch faces were measured to have converged (docs/fidelity.md).
Fails on the code before it: there was no solver module, and the scene
could not be given another contact."""

from __future__ import annotations

import pytest

mujoco = pytest.importorskip("mujoco")

from warlords_sim.board import load_board  # noqa: E402
from warlords_sim.reference import SOLVER, TIMESTEP, ReferenceWorld, Solver  # noqa: E402
from warlords_sim.reference.calibrate import calibrate_board  # noqa: E402
from warlords_sim.reference.scene import build_scene  # noqa: E402

BOARD = load_board()


def test_the_shipped_timestep_is_a_tenth_of_the_contact_time_constant() -> None:
    """The convergence study found the faces converged from a tenth of the
    time constant on; MuJoCo's refsafe would silently soften a time
    constant below twice the timestep."""
    assert pytest.approx(SOLVER.time_constant / 10.0) == TIMESTEP
    assert SOLVER.time_constant >= 2.0 * TIMESTEP


def test_the_scene_and_the_calibration_use_the_solver_given() -> None:
    s = Solver(time_constant=5e-4, solimp_width_mm=0.05, integrator="implicitfast", impratio=3.0)
    world = ReferenceWorld(BOARD, timestep=5e-5, solver=s)
    assert world.contact.solver == s and world.contact.time_constant == 5e-4
    built = build_scene(BOARD, (0, 1, 2, 3), False, [0], None, [0], world.contact)
    m = built.model
    assert m.opt.timestep == 5e-5
    assert m.opt.integrator == mujoco.mjtIntegrator.mjINT_IMPLICITFAST
    assert m.opt.impratio == 3.0
    assert set(m.geom_solref[:, 0]) == {5e-4}
    assert list(m.geom_solimp[:, 2]) == pytest.approx([5e-5] * m.ngeom)
    # another contact, another calibration (the damping ratios differ)
    other = calibrate_board(BOARD, 5e-5, Solver(time_constant=5e-4, solimp_width_mm=0.2))
    assert other.table != world.contact.table


def test_bad_solver_settings_are_one_line() -> None:
    for kwargs, needle in (
        ({"time_constant": 0.0}, "time_constant"),
        ({"solimp_width_mm": -1.0}, "solimp_width_mm"),
        ({"integrator": "verlet"}, "integrator must be one of euler, implicitfast, rk4"),
        ({"iterations": 0}, "iterations"),
    ):
        with pytest.raises(ValueError, match=needle) as e:
            Solver(**kwargs)  # type: ignore[arg-type]
        assert "\n" not in str(e.value)
    assert Solver().label() == "default"
    assert Solver(impratio=10.0).label() == "impratio 10"
