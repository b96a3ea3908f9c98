"""One impact of the reference's die on a bare plane, measured: the state
just before its first contact and just after that contact ends.

Contract
--------
* The die and its contact with the table are the reference world's: a
  rounded box (:func:`~warlords_sim.reference.shapes.rounded_box_vertices`),
  time constant :data:`~warlords_sim.reference.calibrate.TIME_CONSTANT`,
  :data:`~warlords_sim.reference.calibrate.SOLIMP`, the damping ratio that
  :func:`~warlords_sim.reference.calibrate.damping_ratio` calibrates for the
  restitution by face-down drops under ``calibration_gravity``, one kinetic
  friction coefficient, elliptic cone, condim 3. Gravity during the impact
  is ``gravity`` (default 0: a rigid impact model has none, so the two
  compare directly).
* :meth:`ImpactProbe.run` places the die at an orientation with its lowest
  point ``gap_mm`` above the plane, moving and spinning as given, steps
  until its first contact and on until no contact is left, and returns the
  state before and after and which core corners touched.
* Units mm, g, s, rad at the interface (world frame, z up; orientations are
  3x3 with the body axes as columns); SI inside MuJoCo. Imports mujoco: a
  measuring tool for benchmarks and tests, not on the way to any settled
  state.
"""

from __future__ import annotations

from dataclasses import dataclass

import mujoco
import numpy as np
from numpy.typing import NDArray

from warlords_sim.physics.linalg3 import matvec
from warlords_sim.reference.calibrate import SOLIMP, TIME_CONSTANT, damping_ratio, die_spec
from warlords_sim.reference.shapes import lowest_offset

__all__ = ["DieState", "ImpactProbe", "ProbeResult"]

_MM = 1e-3
_G = 1e-3


@dataclass(frozen=True)
class DieState:
    """The die's orientation (3x3), centre height (mm), centre velocity
    (mm/s, 3) and angular velocity (rad/s, 3, world), at ``time`` s."""

    r: NDArray[np.float64]
    z: float
    v: NDArray[np.float64]
    omega: NDArray[np.float64]
    time: float


@dataclass(frozen=True)
class ProbeResult:
    """An impact measured by :meth:`ImpactProbe.run`.

    Attributes:
        before: the state at the last step before the first contact.
        after: the state at the first step with no contact left (or at
            ``max_time`` if the die never left the plane).
        separated: whether the contact ended within ``max_time``.
        corners: the core corners (indices as in
            :class:`~warlords_sim.physics.contact.FloorContact`) that touched.
        steps: the steps in contact.
    """

    before: DieState
    after: DieState
    separated: bool
    corners: tuple[int, ...]
    steps: int


class ImpactProbe:
    """A compiled plane-and-die scene for single impacts (reuse it).

    Args:
        sides: the die's sides (mm). radius: edge radius (mm). mass_g: g.
        restitution: the face-down drop restitution the contact is calibrated to.
        friction: kinetic friction coefficient die-plane.
        timestep: s. gravity: mm/s^2 during the impact.
        calibration_gravity: mm/s^2 of the calibration drops (the reference's).

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
        timestep: float = 2e-4,
        gravity: float = 0.0,
        calibration_gravity: float = 9810.0,
    ) -> None:
        dr = damping_ratio(
            "table", restitution, timestep, sides, radius, mass_g, 3.0, calibration_gravity
        )
        spec = die_spec(sides, radius, timestep, gravity)
        plane = spec.worldbody.add_geom(type=mujoco.mjtGeom.mjGEOM_PLANE, size=[1.0, 1.0, 0.01])
        plane.priority = 1
        plane.friction = [friction, 0.0, 0.0]
        plane.solref = [TIME_CONSTANT, dr]
        body = spec.worldbody.add_body()
        body.add_freejoint()
        die = body.add_geom(type=mujoco.mjtGeom.mjGEOM_MESH, meshname="die", mass=mass_g * _G)
        die.friction = [friction, 0.0, 0.0]
        for g in (plane, die):
            g.solimp = list(SOLIMP)
        self.model = spec.compile()
        self.data = mujoco.MjData(self.model)
        self.damping_ratio = dr
        self.sides = sides
        self.radius = radius

    @property
    def inertia(self) -> NDArray[np.float64]:
        """The die body's principal moments of inertia (g mm^2), as MuJoCo
        computed them from the mesh."""
        return np.array(self.model.body_inertia[1]) / (_G * _MM * _MM)

    def _state(self) -> DieState:
        d = self.data
        r = np.array(d.xmat[1]).reshape(3, 3)
        return DieState(
            r,
            float(d.xpos[1][2]) / _MM,
            np.array(d.qvel[0:3]) / _MM,
            matvec(r, d.qvel[3:6]),
            float(d.time),
        )

    def run(
        self,
        r: NDArray[np.float64],
        v: NDArray[np.float64] | tuple[float, float, float],
        omega: NDArray[np.float64] | tuple[float, float, float],
        gap_mm: float = 0.02,
        max_time: float = 0.05,
    ) -> ProbeResult:
        """Drop the die turned by ``r`` moving at ``v`` (mm/s, world) and
        spinning at ``omega`` (rad/s, world) onto the plane from ``gap_mm``.

        Raises:
            ValueError: the die would not reach the plane within ``max_time``.
        """
        m, d = self.model, self.data
        mujoco.mj_resetData(m, d)
        q = np.zeros(4)
        mujoco.mju_mat2Quat(q, np.asarray(r, dtype=np.float64).ravel())
        z = lowest_offset(np.asarray(r, dtype=np.float64), self.sides, self.radius) + gap_mm
        d.qpos[0:3] = [0.0, 0.0, z * _MM]
        d.qpos[3:7] = q
        d.qvel[0:3] = np.asarray(v, dtype=np.float64) * _MM
        d.qvel[3:6] = matvec(np.asarray(r, dtype=np.float64).T, omega)
        mujoco.mj_forward(m, d)
        limit = int(max_time / m.opt.timestep)
        before = self._state()
        for _ in range(limit):
            mujoco.mj_step(m, d)
            if d.ncon:
                break
            before = self._state()
        else:
            raise ValueError("ImpactProbe.run: the die did not reach the plane within max_time")
        corners: set[int] = set()
        steps = 0
        separated = False
        while steps < limit:
            if not d.ncon:
                separated = True
                break
            steps += 1
            rot = np.array(d.xmat[1]).reshape(3, 3)
            centre = np.array(d.xpos[1])
            for i in range(d.ncon):
                body = matvec(rot.T, np.array(d.contact[i].pos) - centre)
                corners.add(sum(1 << k for k in range(3) if body[k] > 0.0))
            mujoco.mj_step(m, d)
        return ProbeResult(before, self._state(), separated, tuple(sorted(corners)), steps)
