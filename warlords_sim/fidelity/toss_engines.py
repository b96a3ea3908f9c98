"""The two engines, each taking a cube from a state in the air onto a
table: the 2.5D model's die (:meth:`warlords_sim.physics.World.drop`) and
the MuJoCo reference (:class:`warlords_sim.reference.cube.CubeTable`).

Contract
--------
* :func:`make_engine` returns a :class:`TossEngine` for ``"2.5d"`` or
  ``"reference"`` and a :class:`~warlords_sim.fidelity.materials.CubeMaterial`;
  :meth:`TossEngine.run` takes a :class:`Start` (mm, mm/s, rad/s, world
  frame, the table at z = 0) and sample times (s after the start) and
  returns an :class:`EngineRun` (mm). Both engines start from the same
  numbers and are read the same way.
* The 2.5D die: the board's die model unchanged, on a board whose die is
  the cube (its side and mass, the material's restitution and friction as
  the table's, kinetic and static) and which has nothing on it (no castle,
  pin or wall; 5 m across). What it cannot take it leaves out, and the
  report says so: its inertia is the uniform cube's m a^2 / 6 (the
  material's is not used), its edges are sharp, and the reference's
  contact softness and torsional or rolling friction have no counterpart.
* The reference imports mujoco: only made for ``"reference"``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

import numpy as np
from numpy.typing import NDArray

from warlords_sim.board import Board, load_board
from warlords_sim.fidelity.materials import CubeMaterial
from warlords_sim.fidelity.rotations import mat_quat, qmat

if TYPE_CHECKING:
    from warlords_sim.physics import World

__all__ = ["ENGINES", "EngineRun", "Start", "TossEngine", "cube_board", "make_engine"]

Array = NDArray[np.float64]

#: Engines a toss runs on.
ENGINES = ("2.5d", "reference")
#: Most simulated seconds from the start to rest.
MAX_TIME = 10.0
#: Side of the empty board the 2.5D die is tossed onto, mm.
TABLE_SIZE_MM = 5000.0


@dataclass(frozen=True)
class Start:
    """A cube in the air: centre ``pos`` (mm, 3, the table at z = 0),
    velocity ``vel`` (mm/s, 3), orientation ``quat`` (w, x, y, z) and
    angular velocity ``omega`` (rad/s, world, 3)."""

    pos: Array
    vel: Array
    quat: Array
    omega: Array


@dataclass(frozen=True)
class EngineRun:
    """A simulated toss (mm, s after the start).

    Attributes:
        times: the sample times. pos: centre at each (n x 3). quat: orientation at each (n x 4).
        rest_pos: centre at rest (3). rest_quat: orientation at rest (4).
        settle_s: when it came to rest. at_rest: False if still moving at the limit.
        impacts: (t s, closing speed mm/s) of each impact on the table.
    """

    times: Array
    pos: Array
    quat: Array
    rest_pos: Array
    rest_quat: Array
    settle_s: float
    at_rest: bool
    impacts: tuple[tuple[float, float], ...]


class TossEngine(Protocol):
    """An engine that tosses the cube."""

    name: str

    def run(self, start: Start, times: Array) -> EngineRun:
        """Simulate from ``start`` until rest, sampled at ``times`` (s after the start)."""
        ...


def cube_board(side_mm: float, material: CubeMaterial) -> Board:
    """The standard board with its die made the cube (``side_mm``, the
    material's mass, restitution and friction on the table) and 5 m across;
    the 2.5D world is built on it with no castle standing."""
    base = load_board("standard")
    die = replace(
        base.die,
        size_mm=side_mm,
        sides_mm=(side_mm, side_mm, side_mm),
        mass_g=material.mass_g,
        table_friction=material.friction,
        table_static_friction=material.friction,
        table_restitution=material.restitution,
        edge_radius_mm=material.edge_radius_mm,
    )
    return replace(
        base,
        name=f"table for {material.name}",
        description="an empty table for tossed cubes (fidelity --tosses)",
        path=f"<table for {material.name}>",
        size_mm=TABLE_SIZE_MM,
        die=die,
    )


class _PlanarEngine:
    """The 2.5D model's die (see the module docstring)."""

    name = "2.5d"

    def __init__(self, side_mm: float, material: CubeMaterial) -> None:
        from warlords_sim.physics import TIMESTEP

        self.board = cube_board(side_mm, material)
        self.dt = TIMESTEP

    def run(self, start: Start, times: Array) -> EngineRun:
        from warlords_sim.physics import World
        from warlords_sim.physics.types import EventKind

        world = World(self.board, castle_seats=())
        r0 = qmat(start.quat)
        world.drop(
            0,
            (float(start.pos[0]), float(start.pos[1]), float(start.pos[2])),
            (float(start.vel[0]), float(start.vel[1]), float(start.vel[2])),
            r0,
            (float(start.omega[0]), float(start.omega[1]), float(start.omega[2])),
        )
        times = np.asarray(times, dtype=np.float64)
        pos = np.empty((times.size, 3))
        quat = np.empty((times.size, 4))
        k = 0
        max_steps = int(MAX_TIME / self.dt)
        steps = 0
        p_now = np.asarray(start.pos, dtype=np.float64)
        q_now = np.asarray(start.quat, dtype=np.float64)
        while True:
            if k < times.size and times[k] <= world.time + 0.5 * self.dt:
                if steps:  # read the die only when a sample is due
                    p_now, q_now = _pose_of(world)
                while k < times.size and times[k] <= world.time + 0.5 * self.dt:
                    pos[k], quat[k] = p_now, q_now
                    k += 1
            if (world.settled and k >= times.size) or steps >= max_steps:
                break
            world.step()
            steps += 1
        p_now, q_now = _pose_of(world)
        while k < times.size:
            pos[k], quat[k] = p_now, q_now
            k += 1
        impacts = tuple(
            (float(e.t), float(e.speed)) for e in world.events if e.kind is EventKind.LANDING
        )
        rests = [e.t for e in world.events if e.kind is EventKind.REST]
        return EngineRun(
            times=times,
            pos=pos,
            quat=quat,
            rest_pos=p_now,
            rest_quat=q_now,
            settle_s=float(rests[-1]) if rests else float(world.time),
            at_rest=world.settled,
            impacts=impacts,
        )


def _pose_of(world: World) -> tuple[Array, Array]:
    """Centre (mm) and orientation of die 0 of ``world`` now."""
    p = world.pose(0)
    x, y = p.x, p.y
    return np.array([x, y, world.height(0)]), mat_quat(world.orientation(0))


class _ReferenceEngine:
    """The MuJoCo cube (:mod:`warlords_sim.reference.cube`)."""

    name = "reference"

    def __init__(self, side_mm: float, material: CubeMaterial, gravity: float) -> None:
        from warlords_sim.reference.cube import CubeSpec, CubeTable, TableContact

        self.table = CubeTable(
            CubeSpec(side_mm, material.mass_g, material.inertia_g_mm2),
            TableContact(
                restitution=material.restitution,
                friction=material.friction,
                edge_radius_mm=material.edge_radius_mm,
                time_constant_s=material.time_constant_s,
                torsional_mm=material.torsional_mm,
                rolling_mm=material.rolling_mm,
                timestep_s=material.timestep_s,
                edge_friction=material.edge_friction,
            ),
            gravity,
        )

    def run(self, start: Start, times: Array) -> EngineRun:
        from warlords_sim.reference.cube import CubeState

        state = CubeState(start.pos, start.vel, start.quat, start.omega)
        r = self.table.run(state, times, MAX_TIME)
        return EngineRun(
            times=r.times,
            pos=r.pos,
            quat=r.quat,
            rest_pos=r.rest_pos,
            rest_quat=r.rest_quat,
            settle_s=r.settle_s,
            at_rest=r.at_rest,
            impacts=tuple((i.t, i.speed) for i in r.impacts),
        )


def make_engine(
    name: str, side_mm: float, material: CubeMaterial, gravity: float = 9810.0
) -> TossEngine:
    """The engine ``name`` (one of :data:`ENGINES`) for a cube of
    ``side_mm`` of ``material``, gravity in mm/s^2.

    Raises:
        ValueError: an unknown engine.
        CalibrationError: (reference) a restitution the contact cannot give.
        MissingExtraError: (reference) MuJoCo is not installed.
    """
    if name == "2.5d":
        if gravity != 9810.0:
            raise ValueError("the 2.5D engine takes its gravity from the board (9810 mm/s^2)")
        return _PlanarEngine(side_mm, material)
    if name == "reference":
        return _ReferenceEngine(side_mm, material, gravity)
    raise ValueError(f"unknown engine {name!r}; expected one of {', '.join(ENGINES)}")
