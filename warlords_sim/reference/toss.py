"""Dice tossed onto a bare hard surface, as the published cuboid-dice
experiments did: the same die model and contact calibration as the
reference world, without a board.

Contract
--------
* :func:`toss` drops one die (a box ``sides`` mm with edges rounded to
  ``radius`` mm) from ``height_mm`` with a uniformly random orientation, a
  random spin and a little horizontal speed, all drawn from the caller's
  seeded Generator, onto an unbounded plane; it returns the face up once
  the die rests (faces as in :mod:`warlords_sim.physics.orientation`: the
  body z axis carries faces 1 and 6, so for a cuboid ``(y, y, x)`` those
  are its two square y x y faces).
* Contact: the solver's time constant and solimp (default the
  reference's, :data:`~warlords_sim.reference.solver.SOLVER`), damping ratio from
  :func:`~warlords_sim.reference.calibrate.damping_ratio` for the given
  restitution, one kinetic friction coefficient, elliptic friction cone,
  the timestep given. Units mm, g, s at the interface; SI inside MuJoCo.
"""

from __future__ import annotations

import math

import mujoco
import numpy as np

from warlords_sim.physics.linalg3 import dot3, matvec, norm3
from warlords_sim.physics.orientation import face_up
from warlords_sim.reference.calibrate import damping_ratio, die_spec
from warlords_sim.reference.solver import SOLVER, TIMESTEP, Solver

__all__ = ["TossSetup", "toss"]

_MM = 1e-3


class TossSetup:
    """A compiled toss scene for one die shape and material (reuse it for
    many tosses).

    Args:
        sides: the die's side lengths along its body x, y, z (mm).
        radius: edge radius (mm).
        mass_g: mass (g).
        restitution: face-down drop restitution on the surface.
        friction: kinetic friction coefficient die-surface.
        timestep: physics step (s; default the reference's).
        gravity: mm/s^2.
        solver: contact softness and solver options (default the reference's).

    Raises:
        CalibrationError: a restitution out of reach at this timestep.
    """

    def __init__(
        self,
        sides: tuple[float, float, float],
        radius: float,
        mass_g: float,
        restitution: float,
        friction: float,
        timestep: float = TIMESTEP,
        gravity: float = 9810.0,
        solver: Solver = SOLVER,
    ) -> None:
        dr = damping_ratio(
            "table", restitution, timestep, sides, radius, mass_g, 3.0, gravity, solver
        )
        spec = die_spec(sides, radius, timestep, gravity, solver)
        plane = spec.worldbody.add_geom(type=mujoco.mjtGeom.mjGEOM_PLANE, size=[1.0, 1.0, 0.01])
        plane.priority = 1
        plane.friction = [friction, 0.0, 0.0]
        plane.solref = [solver.time_constant, dr]
        body = spec.worldbody.add_body()
        body.add_freejoint()
        die = body.add_geom(type=mujoco.mjtGeom.mjGEOM_MESH, meshname="die", mass=mass_g * 1e-3)
        for g in (plane, die):
            g.solimp = list(solver.solimp)
        self.model = spec.compile()
        self.data = mujoco.MjData(self.model)
        self.damping_ratio = dr


def toss(
    setup: TossSetup,
    rng: np.random.Generator,
    height_mm: float = 300.0,
    max_spin: float = 20.0,
    horizontal_sd: float = 200.0,
    max_time: float = 20.0,
) -> int:
    """Toss the die of ``setup`` once; the face up at rest (1..6).

    The centre starts ``height_mm`` above the surface at rest vertically,
    turned by a uniformly random rotation, spinning at a uniform 0..``max_spin``
    rad/s about a uniformly random axis, moving sideways at normal(0,
    ``horizontal_sd``) mm/s in x and y.

    Raises:
        RuntimeError: still moving after ``max_time`` simulated seconds.
    """
    m, d = setup.model, setup.data
    mujoco.mj_resetData(m, d)
    q = rng.normal(size=4)
    q /= math.sqrt(dot3(q[:3], q[:3]) + float(q[3]) * float(q[3]))
    axis = rng.normal(size=3)
    axis /= norm3(axis)
    d.qpos[:3] = [0.0, 0.0, height_mm * _MM]
    d.qpos[3:7] = q
    d.qvel[0:2] = rng.normal(0.0, horizontal_sd, size=2) * _MM
    rot = np.zeros(9)
    mujoco.mju_quat2Mat(rot, q)
    omega_world = axis * rng.uniform(0.0, max_spin)
    d.qvel[3:6] = matvec(rot.reshape(3, 3).T, omega_world)  # body-frame angular velocity
    chunk = max(1, int(round(0.01 / m.opt.timestep)))
    quiet = 0.0
    t = 0.0
    while t < max_time:
        mujoco.mj_step(m, d, nstep=chunk)
        t += chunk * m.opt.timestep
        lin = norm3(d.qvel[:3]) / _MM
        ang = norm3(d.qvel[3:6])
        quiet = quiet + chunk * m.opt.timestep if lin < 5.0 and ang < 0.5 else 0.0
        if quiet >= 0.1:
            r = np.zeros(9)
            mujoco.mju_quat2Mat(r, d.qpos[3:7])
            return face_up(r.reshape(3, 3))
    raise RuntimeError(f"a tossed die still moving after {max_time} s")


def square_face_share(faces: list[int]) -> float:
    """Share of tosses showing face 1 or 6 (the body-z faces)."""
    return sum(f in (1, 6) for f in faces) / len(faces) if faces else math.nan
