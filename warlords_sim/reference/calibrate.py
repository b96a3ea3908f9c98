"""Contact calibration of the reference engine: the damping ratio that makes
a face-down drop rebound with a given coefficient of restitution.

Contract
--------
* MuJoCo's soft contact is a damped spring set by ``solref = (timeconst,
  dampratio)``: it pulls a penetration back with stiffness
  1 / (dmax timeconst dampratio)^2 and damping 2 / (dmax timeconst) (MuJoCo
  documentation, "Solver parameters"), so for a fixed time constant the
  damping ratio alone sets how much of the approach speed comes back.
* The time constant is the solver's (:data:`TIME_CONSTANT`, 0.25 ms, in
  :class:`~warlords_sim.reference.solver.Solver`). For each kind of
  contact (die on the table, on a wall, on a pin, on a die) this module finds
  the damping ratio by bisection over short drop simulations: the board's
  die, face down, meets a fixed target of that kind at 400-1000 mm/s, at
  eight speeds and step phases (a contact lasts only a few steps, so one
  drop's rebound depends on where in a step it begins); the mean rebound
  ratio v_out / v_in must equal the restitution.
* The damping ratio is searched in [timestep / (dmax timeconst), 2]: below
  that the contact oscillates faster than one radian a step and the discrete
  contact is no longer accurate (at a tenth of the time constant that
  bounds the reachable restitution near 0.7). A restitution beyond what that range gives is an
  error naming the board field, never a silently different contact.
* Results are cached per (kind, restitution, timestep, die and pin
  geometry, solver settings) for the process. Imports mujoco; units mm/g/s
  at the interface, SI inside MuJoCo.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import mujoco
import numpy as np

from warlords_sim.board import Board
from warlords_sim.errors import WarlordsError
from warlords_sim.reference.shapes import rounded_box_vertices
from warlords_sim.reference.solver import DMAX, SOLVER, Solver

__all__ = [
    "DMAX",
    "TIME_CONSTANT",
    "CalibrationError",
    "ContactDamping",
    "calibrate_board",
    "damping_ratio",
    "die_spec",
    "drop_model",
    "drop_rebound",
    "set_dampratio",
]

#: Contact time constant, s (solref[0] of every contact): the solver's.
TIME_CONSTANT = SOLVER.time_constant
#: solimp of every contact (the solver's): impedance rising from 0 at first
#: touch to MuJoCo's default dmax over a width of 0.1 mm per ms of the time
#: constant (0.025 mm at 0.25 ms). The shape was chosen with the earlier 2 ms
#: contact and a width of 0.2 mm (measured with MuJoCo 4.0.0, a 16 mm box,
#: 0.2 ms; scratch runs recorded in docs/physics.md) and is kept as the
#: contact stiffens (penetrations scale with the time constant):
#:
#: * the same impedance at every depth (dmin = dmax): a box sliding at
#:   0.9 m/s rocks off its contacts and is airborne 75 % of its steps, and a
#:   die set over a ledge's edge hops off it at once (exit tumble 0.1 rad/s
#:   where the rigid closed form 0.3 g / v gives 3.3 at 900 mm/s);
#: * from 0 over 1 mm: it sinks 0.17 mm at rest, and the exit tumble over a
#:   frictionless ledge is 1.34x the closed form at 900 mm/s;
#: * from 0 over 0.2 mm (this): 0.05 mm at rest, airborne 8 % of a 0.9 m/s
#:   slide, exit tumble 1.04x (300 mm/s) and 1.16x (900 mm/s) the closed form;
#: * from 0 over 0.05 mm: hops again (13 %) and a 300 mm/s die hops off a
#:   ledge with friction.
SOLIMP = SOLVER.solimp
#: Approach speeds (mm/s) of the calibration drops.
DROP_SPEEDS = tuple(float(v) for v in np.linspace(400.0, 1000.0, 8))
#: Kinds of contact calibrated, with the board field their restitution comes from.
KINDS = {
    "table": "die.table_restitution",
    "wall": "wall_material.restitution",
    "pin": "pin.restitution",
    "die": "die.die_restitution",
}
_BISECTIONS = 14
_MM = 1e-3
_G = 1e-3


class CalibrationError(WarlordsError, ValueError):
    """A restitution the reference contact cannot give at this timestep."""


@dataclass(frozen=True)
class ContactDamping:
    """Calibrated damping ratios (solref[1]) of each contact kind, with the
    time constant (s), timestep (s) and solver settings they hold for."""

    table: float
    wall: float
    pin: float
    die: float
    time_constant: float
    timestep: float
    solver: Solver = SOLVER


def die_spec(
    sides: tuple[float, float, float],
    radius: float,
    timestep: float,
    gravity: float,
    solver: Solver = SOLVER,
) -> mujoco.MjSpec:
    """A MuJoCo model spec with the reference's options (``timestep`` s,
    gravity mm/s^2 down, elliptic friction cones, the options of
    ``solver``: :meth:`~warlords_sim.reference.solver.Solver.apply`) and the die's mesh, named
    ``"die"``: a box of ``sides`` mm rounded to ``radius`` mm
    (:func:`~warlords_sim.reference.shapes.rounded_box_vertices`, which
    raises ValueError for bad sizes). The calibration drops and the cuboid
    tosses build their scenes on it."""
    spec = mujoco.MjSpec()
    spec.option.timestep = timestep
    spec.option.gravity = [0.0, 0.0, -gravity * _MM]
    spec.option.cone = mujoco.mjtCone.mjCONE_ELLIPTIC
    solver.apply(spec)
    mesh = spec.add_mesh()
    mesh.name = "die"
    mesh.uservert = (rounded_box_vertices(sides, radius) * _MM).ravel().tolist()
    return spec


def drop_model(
    kind: str,
    sides: tuple[float, float, float],
    radius: float,
    mass_g: float,
    pin_radius: float,
    gravity: float,
    timestep: float,
    solver: Solver,
) -> tuple[mujoco.MjModel, int]:
    """A die (``sides`` and edge ``radius`` mm, ``mass_g`` g) above a fixed
    target of ``kind`` (a pin of ``pin_radius`` mm for "pin") whose top is at
    z = 0, at ``timestep`` s with ``solver``'s options; returns the model and
    the target geom's id (set its damping with :func:`set_dampratio`).

    Raises:
        ValueError: an unknown kind, or bad sizes.
    """
    spec = die_spec(sides, radius, timestep, gravity, solver)
    wb = spec.worldbody
    if kind == "table":
        target = wb.add_geom(type=mujoco.mjtGeom.mjGEOM_PLANE, size=[1.0, 1.0, 0.01])
    elif kind == "wall":
        target = wb.add_geom(
            type=mujoco.mjtGeom.mjGEOM_BOX, size=[0.05, 0.05, 0.02], pos=[0.0, 0.0, -0.02]
        )
    elif kind == "pin":  # a pin lying along x: the die meets its curved side
        r = pin_radius * _MM
        half = math.sqrt(0.5)
        target = wb.add_geom(
            type=mujoco.mjtGeom.mjGEOM_CYLINDER,
            size=[r, 0.05, 0.0],
            pos=[0.0, 0.0, -r],
            quat=[half, 0.0, half, 0.0],
        )
    elif kind == "die":
        target = wb.add_geom(
            type=mujoco.mjtGeom.mjGEOM_MESH, meshname="die", pos=[0.0, 0.0, -sides[2] / 2 * _MM]
        )
    else:
        raise ValueError(f"unknown contact kind {kind!r}; expected one of {', '.join(KINDS)}")
    target.name = "target"
    target.priority = 0 if kind == "die" else 1
    target.friction = [0.3, 0.0, 0.0]
    body = wb.add_body(pos=[0.0, 0.0, 0.05])
    body.add_freejoint()
    die = body.add_geom(type=mujoco.mjtGeom.mjGEOM_MESH, meshname="die", mass=mass_g * _G)
    die.name = "die"
    die.friction = [0.3, 0.0, 0.0]
    for g in (target, die):
        g.solimp = list(solver.solimp)
    model = spec.compile()
    return model, int(model.geom("target").id)


def drop_rebound(
    model: mujoco.MjModel, sides: tuple[float, float, float], speeds: tuple[float, ...]
) -> float:
    """Mean rebound ratio (v_out / v_in of the centre) of face-down drops of
    the die of ``model`` (built by :func:`drop_model`) at ``speeds`` mm/s,
    the k-th of n starting k/n of a step's travel higher (phases spread)."""
    data = mujoco.MjData(model)
    dt = model.opt.timestep
    ratios = []
    n = len(speeds)
    for k, v in enumerate(speeds):
        mujoco.mj_resetData(model, data)
        gap = (0.2 + v * dt * k / n) * _MM
        data.qpos[:3] = [0.0, 0.0, sides[2] / 2.0 * _MM + gap]
        data.qpos[3:7] = [1.0, 0.0, 0.0, 0.0]
        data.qvel[2] = -v * _MM
        touched = False
        v_in = -v * _MM
        for _ in range(int(0.05 / dt)):
            before = float(data.qvel[2])
            mujoco.mj_step(model, data)
            if data.ncon and not touched:
                touched, v_in = True, before
            elif touched and not data.ncon:
                ratios.append(-float(data.qvel[2]) / v_in)
                break
        else:
            ratios.append(0.0)  # still in contact after 50 ms: no rebound
    return float(np.mean(ratios))


def set_dampratio(
    model: mujoco.MjModel, geom: int, kind: str, dr: float, time_constant: float
) -> None:
    """Give the contact of a :func:`drop_model` the solref (``time_constant`` s,
    damping ratio ``dr``)."""
    model.geom_solref[:, 0] = time_constant
    if kind == "die":  # both dice carry it (equal priority: solref mixed)
        model.geom_solref[:, 1] = dr
    else:
        model.geom_solref[geom, 1] = dr


@functools.lru_cache(maxsize=64)
def damping_ratio(
    kind: str,
    restitution: float,
    timestep: float,
    sides: tuple[float, float, float] = (16.0, 16.0, 16.0),
    radius: float = 1.6,
    mass_g: float = 4.6,
    pin_radius: float = 3.0,
    gravity: float = 9810.0,
    solver: Solver = SOLVER,
) -> float:
    """The damping ratio (solref[1], time constant ``solver.time_constant``) at
    which the die dropped face down on a ``kind`` target ("table", "wall",
    "pin", "die") rebounds with ``restitution`` at ``timestep`` s. Die sides
    and edge radius in mm, mass in g, pin radius in mm, gravity in mm/s^2;
    the contact and solver options of ``solver``.

    Raises:
        CalibrationError: ``restitution`` is above what the accurate range of
            damping ratios gives (the message says the most it can be).
        ValueError: unknown kind, or a restitution outside [0, 1].
    """
    if kind not in KINDS:
        raise ValueError(f"unknown contact kind {kind!r}; expected one of {', '.join(KINDS)}")
    if not 0.0 <= restitution <= 1.0:
        raise ValueError(f"restitution must be in [0, 1], got {restitution}")
    tc = solver.time_constant
    model, geom = drop_model(kind, sides, radius, mass_g, pin_radius, gravity, timestep, solver)
    lo = timestep / (DMAX * tc)
    hi = 2.0

    def rebound(dr: float) -> float:
        set_dampratio(model, geom, kind, dr, tc)
        return drop_rebound(model, sides, DROP_SPEEDS)

    top = rebound(lo)
    if restitution > top:
        raise CalibrationError(
            f"{KINDS[kind]} = {restitution:g} is more than the reference contact can give at "
            f"timestep {timestep * 1e3:g} ms with time constant {tc * 1e3:g} ms "
            f"(at most {top:.2f}: a stiffer contact needs a shorter timestep)"
        )
    if restitution <= rebound(hi):
        return hi
    for _ in range(_BISECTIONS):
        mid = 0.5 * (lo + hi)
        if rebound(mid) > restitution:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def calibrate_board(board: Board, timestep: float, solver: Solver = SOLVER) -> ContactDamping:
    """The damping ratios of every contact kind for ``board`` at ``timestep`` s
    with ``solver``'s contact and options.

    Raises:
        CalibrationError: a board restitution the contact cannot give (names the field).
    """
    die = board.die
    geo = (
        die.sides_mm,
        die.edge_radius_mm,
        die.mass_g,
        board.pin.radius_mm,
        board.gravity_mm_s2,
        solver,
    )
    return ContactDamping(
        table=damping_ratio("table", die.table_restitution, timestep, *geo),
        wall=damping_ratio("wall", board.wall_material.restitution, timestep, *geo),
        pin=damping_ratio("pin", board.pin.material.restitution, timestep, *geo),
        die=damping_ratio("die", die.die_restitution, timestep, *geo),
        time_constant=solver.time_constant,
        timestep=timestep,
        solver=solver,
    )
