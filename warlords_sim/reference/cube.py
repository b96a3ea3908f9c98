"""A cube tossed onto a table in MuJoCo, from a given state in the air: the
reference engine's side of ``fidelity --tosses`` (measured tosses of a real
cube, :mod:`warlords_sim.fidelity.tosses`).

Contract
--------
* :class:`CubeTable` compiles one scene (a plane and one free cube of
  :class:`CubeSpec`, with the contact of :class:`TableContact`) and
  :meth:`CubeTable.run` simulates it from a :class:`CubeState` until the
  cube rests, returning the pose at the requested times, the rest pose and
  the impacts (:class:`CubeRun`). No state is kept between runs.
* The cube: a box of the given side with edges and corners rounded to
  ``edge_radius_mm`` (the convex hull of
  :func:`~warlords_sim.reference.shapes.rounded_box_vertices`), the given
  mass and the given moment of inertia about every axis (the body's
  inertia is set, not computed from the mesh: the real cube need not be
  uniform).
* The contact, as the board's reference contact
  (:mod:`~warlords_sim.reference.calibrate`): MuJoCo's soft contact with
  time constant ``time_constant_s`` (solref[0]) and the damping ratio at
  which the cube dropped face down rebounds with ``restitution``
  (:func:`~warlords_sim.reference.calibrate.damping_ratio`, found by
  bisection over drops at 0.4-1 m/s), the impedance of
  :data:`~warlords_sim.reference.calibrate.SOLIMP`, elliptic friction cones,
  sliding friction ``friction``; with ``torsional_mm`` > 0 also torsional
  friction (condim 4: a torque up to torsional x normal force against
  spinning about the normal) and with ``rolling_mm`` > 0 rolling friction
  (condim 6: the same against turning about the tangent axes), MuJoCo's
  coefficients, lengths.
* Units mm, g, s, rad at the interface (world frame, z up, the table at
  z = 0); SI inside MuJoCo.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import mujoco
import numpy as np
from numpy.typing import NDArray

from warlords_sim.physics.linalg3 import dot3, matvec, norm3
from warlords_sim.reference.calibrate import SOLIMP, damping_ratio, die_spec

__all__ = ["CubeRun", "CubeSpec", "CubeState", "CubeTable", "Impact", "TableContact"]

Array = NDArray[np.float64]

_MM = 1e-3
_G = 1e-3
#: The cube is at rest once its centre is slower than this (mm/s) and it
#: turns slower than REST_SPIN (rad/s) for REST_FOR s.
REST_SPEED = 5.0
REST_SPIN = 0.1
REST_FOR = 0.1
#: A contact that begins at least this long (s) after the last one ended is
#: a new impact (contacts are looked at every CHUNK steps).
IMPACT_GAP = 0.002
#: Steps taken between looks at the cube (its friction, contacts, rest):
#: 1 ms at the default 0.2 ms timestep.
CHUNK = 5
#: With an edge friction: the cube lies on a face when its most vertical
#: body axis is within this angle (rad) of the vertical; else it touches on
#: an edge or a corner.
FACE_TILT = 0.035


@dataclass(frozen=True)
class CubeSpec:
    """A cube: ``side_mm`` (mm), ``mass_g`` (g) and ``inertia_g_mm2``, its
    moment of inertia (g mm^2) about every axis through its centre."""

    side_mm: float
    mass_g: float
    inertia_g_mm2: float


@dataclass(frozen=True)
class TableContact:
    """The cube's contact with the table (see the module docstring).

    Attributes:
        restitution: face-down drop restitution, 0..1.
        friction: sliding (kinetic) friction coefficient.
        edge_radius_mm: radius of the rounded edges and corners, mm (> 0).
        time_constant_s: solref[0], s.
        torsional_mm: torsional friction coefficient, mm (0: none).
        rolling_mm: rolling friction coefficient, mm (0: none).
        timestep_s: the physics step, s.
    """

    restitution: float
    friction: float
    edge_radius_mm: float = 1.0
    time_constant_s: float = 0.002
    torsional_mm: float = 0.0
    rolling_mm: float = 0.0
    timestep_s: float = 2e-4
    edge_friction: float | None = None


@dataclass(frozen=True)
class CubeState:
    """A cube's state: centre ``pos`` (mm, 3), velocity ``vel`` (mm/s, 3),
    orientation ``quat`` (w, x, y, z; body to world) and angular velocity
    ``omega`` (rad/s, world, 3)."""

    pos: Array
    vel: Array
    quat: Array
    omega: Array


@dataclass(frozen=True)
class Impact:
    """A contact with the table beginning at ``t`` s, its first contact
    point closing at ``speed`` mm/s."""

    t: float
    speed: float


@dataclass(frozen=True)
class CubeRun:
    """A simulated toss.

    Attributes:
        times: the requested sample times (s after the start).
        pos: centre at each (n x 3, mm). quat: orientation at each (n x 4).
        rest_pos: centre at rest (3, mm). rest_quat: orientation at rest (4).
        settle_s: when it came to rest, s after the start.
        at_rest: False if it still moved at ``max_time`` (then the rest
            pose is where it was).
        impacts: the contacts' beginnings, in time order.
    """

    times: Array
    pos: Array
    quat: Array
    rest_pos: Array
    rest_quat: Array
    settle_s: float
    at_rest: bool
    impacts: tuple[Impact, ...]


class CubeTable:
    """A compiled scene of one cube on a table (reuse it for many runs).

    Args:
        cube: the cube. contact: the table contact.
        gravity: mm/s^2.

    Raises:
        CalibrationError: a restitution out of reach at this timestep and
            time constant.
        ValueError: an edge radius outside (0, side / 2], a restitution
            outside [0, 1], or a non-positive friction, timestep or time
            constant.
    """

    def __init__(self, cube: CubeSpec, contact: TableContact, gravity: float = 9810.0) -> None:
        if not contact.friction >= 0.0 or not contact.timestep_s > 0.0:
            raise ValueError(
                f"friction must be >= 0 and the timestep > 0, got {contact.friction}, "
                f"{contact.timestep_s}"
            )
        if contact.torsional_mm < 0.0 or contact.rolling_mm < 0.0:
            raise ValueError("torsional and rolling friction must be >= 0")
        sides = (cube.side_mm,) * 3
        self.cube = cube
        self.contact = contact
        self.damping_ratio = damping_ratio(
            "table",
            contact.restitution,
            contact.timestep_s,
            sides,
            contact.edge_radius_mm,
            cube.mass_g,
            3.0,
            gravity,
            contact.time_constant_s,
        )
        spec = die_spec(sides, contact.edge_radius_mm, contact.timestep_s, gravity)
        plane = spec.worldbody.add_geom(type=mujoco.mjtGeom.mjGEOM_PLANE, size=[10.0, 10.0, 0.01])
        plane.priority = 1
        body = spec.worldbody.add_body()
        body.add_freejoint()
        body.mass = cube.mass_g * _G
        body.inertia = [cube.inertia_g_mm2 * _G * _MM * _MM] * 3
        body.explicitinertial = True
        geom = body.add_geom(type=mujoco.mjtGeom.mjGEOM_MESH, meshname="die")
        condim = 6 if contact.rolling_mm > 0.0 else 4 if contact.torsional_mm > 0.0 else 3
        for g in (plane, geom):
            g.friction = [contact.friction, contact.torsional_mm * _MM, contact.rolling_mm * _MM]
            g.condim = condim
            g.solref = [contact.time_constant_s, self.damping_ratio]
            g.solimp = list(SOLIMP)
        self.model = spec.compile()
        self.data = mujoco.MjData(self.model)
        self._geoms = (0, 1)

    def run(self, start: CubeState, times: Array, max_time: float = 10.0) -> CubeRun:
        """Simulate from ``start`` until the cube rests (or ``max_time`` s).

        Args:
            start: the state at time 0 (clear of the table).
            times: sample times (s, >= 0, rising); each sample is the state
                after the step nearest to it.
            max_time: simulated seconds before giving up.
        """
        m, d = self.model, self.data
        mujoco.mj_resetData(m, d)
        d.qpos[:3] = np.asarray(start.pos) * _MM
        q = np.asarray(start.quat, dtype=np.float64)
        d.qpos[3:7] = q / math.sqrt(dot3(q[:3], q[:3]) + float(q[3]) * float(q[3]))
        d.qvel[:3] = np.asarray(start.vel) * _MM
        rot = np.zeros(9)
        mujoco.mju_quat2Mat(rot, d.qpos[3:7])
        d.qvel[3:6] = matvec(rot.reshape(3, 3).T, start.omega)  # body frame
        mujoco.mj_forward(m, d)
        dt = m.opt.timestep
        times = np.asarray(times, dtype=np.float64)
        pos = np.empty((times.size, 3))
        quat = np.empty((times.size, 4))
        k = 0
        impacts: list[Impact] = []
        last_contact = -1.0
        quiet = 0.0
        steps = 0
        max_steps = int(round(max_time / dt))
        at_rest = False
        edge_mu = self.contact.edge_friction
        face_mu = self.contact.friction
        switch = edge_mu is not None and edge_mu != face_mu
        cos_tilt = math.cos(FACE_TILT)
        m.geom_friction[:, 0] = face_mu
        while True:
            t = steps * dt
            while k < times.size and times[k] <= t + 0.5 * dt:
                pos[k] = d.qpos[:3] / _MM
                quat[k] = d.qpos[3:7]
                k += 1
            if k >= times.size and at_rest:
                break
            if steps >= max_steps:
                break
            if switch:
                mu = face_mu if float(np.max(np.abs(d.xmat[1, 6:9]))) > cos_tilt else edge_mu
                if mu != m.geom_friction[0, 0]:
                    m.geom_friction[:, 0] = mu
            # up to CHUNK steps at once, never past the next sample
            n = CHUNK
            if k < times.size:
                n = min(n, max(1, int(round(times[k] / dt)) - steps))
            n = min(n, max_steps - steps)
            mujoco.mj_step(m, d, nstep=n)
            steps += n
            if d.ncon:
                if last_contact < 0.0 or steps * dt - last_contact > IMPACT_GAP:
                    impacts.append(Impact(steps * dt, self._closing_speed()))
                last_contact = steps * dt
            if not at_rest:
                lin = norm3(d.qvel[:3]) / _MM
                ang = norm3(d.qvel[3:6])
                quiet = quiet + n * dt if lin < REST_SPEED and ang < REST_SPIN else 0.0
                if quiet >= REST_FOR:
                    at_rest = True
                    rest_pos = d.qpos[:3] / _MM
                    rest_quat = d.qpos[3:7].copy()
                    settle = steps * dt
        if not at_rest:
            rest_pos, rest_quat, settle = d.qpos[:3] / _MM, d.qpos[3:7].copy(), steps * dt
        while k < times.size:  # past max_time: the last pose
            pos[k], quat[k] = d.qpos[:3] / _MM, d.qpos[3:7]
            k += 1
        return CubeRun(
            times=times,
            pos=pos,
            quat=quat,
            rest_pos=np.asarray(rest_pos, dtype=np.float64),
            rest_quat=np.asarray(rest_quat, dtype=np.float64),
            settle_s=float(settle),
            at_rest=at_rest,
            impacts=tuple(impacts),
        )

    def _closing_speed(self) -> float:
        """Normal closing speed (mm/s) of the first contact point now."""
        d = self.data
        c = d.contact[0]
        arm = np.asarray(c.pos) - d.qpos[:3]
        rot = np.zeros(9)
        mujoco.mju_quat2Mat(rot, d.qpos[3:7])
        omega = matvec(rot.reshape(3, 3), d.qvel[3:6])
        v = d.qvel[:3] + np.cross(omega, arm)
        return float(max(-v[2], 0.0)) / _MM
