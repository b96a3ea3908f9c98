"""The reference scene: the board, its walls, pins, siege engine and dice as
a MuJoCo model.

Contract
--------
* Built from the board data and the world's Python-side state (which
  castles and side walls stand, the pins, the engine, the dice): nothing
  here is remembered between builds; :class:`~warlords_sim.reference.world.ReferenceWorld`
  rebuilds the model whenever that topology changes (between flicks, when
  everything is at rest).
* Units: the interface is mm, g, s, rad in the board frame (origin at the
  centre, x right, y up, z up from the board surface); inside MuJoCo
  everything is SI (m, kg), where MuJoCo's default tolerances are meant.
* Bodies: the table is a plane at z = 0 (a die whose centre leaves the
  board square is taken out of the simulation by the world, so the plane's
  infinite extent never matters); castle walls, the three-player wall, the
  side walls and the siege engine are boxes of their heights; pins are
  vertical cylinders; each die is a free body whose geom is a convex mesh of
  a box with rounded edges (:func:`~warlords_sim.reference.shapes.rounded_box_vertices`).
  The low crenelation of each front area is a notch ``crenelation_width_mm``
  wide cut into the front wall behind it down to ``low_crenelation_mm``.
* Materials: MuJoCo has one (kinetic) friction coefficient per contact;
  the die on the table uses ``die.table_friction`` (kinetic, so
  ``table_static_friction`` has no counterpart here), the die on walls and
  the engine ``wall_material.friction``, on pins ``pin.friction``, die on
  die ``die.die_friction``. Static geoms have priority 1, so a die touching
  one takes that geom's friction and solref; die on die (equal priority)
  takes the dice's own. Damping ratios come from
  :mod:`~warlords_sim.reference.calibrate`; the time constant, solimp and
  solver options from the calibration's
  :class:`~warlords_sim.reference.solver.Solver`. Contacts are condim 3 (sliding
  friction; a face's resistance to spinning comes from its several contact
  points).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import mujoco
import numpy as np

from warlords_sim.board import Board, Rect, Wall, notch_wall
from warlords_sim.physics.footprint import standing_walls
from warlords_sim.reference.calibrate import ContactDamping
from warlords_sim.reference.shapes import rounded_box_vertices

__all__ = ["Built", "build_scene", "static_walls"]

_MM = 1e-3
_G = 1e-3


@dataclass(frozen=True)
class Built:
    """A compiled scene.

    Attributes:
        model: the MuJoCo model (SI units).
        labels: what each geom id stands for: ``"table"``, ``"wall"``,
            ``"pin:<hole>"``, ``"siege_engine"`` or ``"die:<id>"``.
        geom_die: per geom id, the index into ``dice`` of its die, or -1.
        dice: the die ids, in body order.
        qpos: per die (same order), the address of its free joint in qpos.
        qvel: per die, the address of its free joint in qvel.
        geoms: per die, its geom id.
    """

    model: mujoco.MjModel
    labels: tuple[str, ...]
    geom_die: np.ndarray
    dice: tuple[int, ...]
    qpos: tuple[int, ...]
    qvel: tuple[int, ...]
    geoms: tuple[int, ...]


def _split(wall: Wall, cuts: list[tuple[float, float]], axis: int, low: float) -> list[Wall]:
    """``wall`` cut along ``axis`` (0: x, 1: y) at the intervals ``cuts``:
    full-height pieces between them, pieces ``low`` mm high inside them."""
    r = wall.rect
    lo, hi = (r.x0, r.x1) if axis == 0 else (r.y0, r.y1)
    out: list[Wall] = []
    edges: list[tuple[float, float, float]] = []
    pos = lo
    for a, b in sorted(cuts):
        if a > pos:
            edges.append((pos, a, wall.height_mm))
        edges.append((a, b, low))
        pos = b
    if pos < hi:
        edges.append((pos, hi, wall.height_mm))
    for a, b, h in edges:
        rect = Rect(a, r.y0, b, r.y1) if axis == 0 else Rect(r.x0, a, r.x1, b)
        out.append(Wall(rect, h))
    return out


def static_walls(board: Board, castle_seats: Sequence[int], side_walls: bool) -> list[Wall]:
    """Every wall standing (:func:`~warlords_sim.board.standing_walls`,
    the 2.5D world's), with the castle walls' low-crenelation notches cut out."""
    size = board.die.size_mm
    half = board.crenelation_width_mm / 2.0
    pieces: dict[int, list[Wall]] = {}  # id of a notched castle wall -> its pieces
    for castle in board.castles:
        if castle.seat not in castle_seats:
            continue
        cuts: dict[int, list[tuple[float, float]]] = {}
        for area in castle.front_areas:
            spot = area.low
            wall = notch_wall(castle, spot, size)
            if wall is None:
                continue
            c = spot.x if spot.outward[0] == 0.0 else spot.y
            cuts.setdefault(castle.walls.index(wall), []).append((c - half, c + half))
        axis = 0 if castle.outward[0] == 0.0 else 1
        for i, spans in cuts.items():
            wall = castle.walls[i]
            pieces[id(wall)] = _split(wall, spans, axis, board.low_crenelation_mm)
    walls: list[Wall] = []
    for _, wall in standing_walls(board, castle_seats, side_walls):
        walls.extend(pieces.get(id(wall), [wall]))
    return walls


@dataclass(frozen=True)
class LaunchLedge:
    """A block standing in for the wall or engine top a crenelation or
    siege launch leaves from, where the board has none there (a launch
    ``--at`` an open spot): the 2.5D world takes every such launch off a
    ledge's edge (:func:`~warlords_sim.physics.ledge.slide_off_ledge`), so
    the reference is given the same ledge. A square block of the die's
    side and of height ``height_mm``, centred at (``x_mm``, ``y_mm``) (mm)
    and turned about the vertical so that one side, the ledge's front
    edge, lies across the flick's unit direction (``ux``, ``uy``)."""

    x_mm: float
    y_mm: float
    height_mm: float
    ux: float
    uy: float

    @property
    def quat_wxyz(self) -> list[float]:
        """The yaw of the direction as a unit quaternion (half-angle
        formulas: square roots only, the same bits on every CPU)."""
        c = math.sqrt(max(0.0, (1.0 + self.ux) / 2.0))
        s = math.sqrt(max(0.0, (1.0 - self.ux) / 2.0))
        return [c, 0.0, 0.0, s if self.uy >= 0.0 else -s]


def _box(body: mujoco.MjsBody, rect: Rect, height: float, name: str) -> mujoco.MjsGeom:
    cx, cy = rect.center
    return body.add_geom(
        name=name,
        type=mujoco.mjtGeom.mjGEOM_BOX,
        size=[rect.width / 2.0 * _MM, rect.height / 2.0 * _MM, height / 2.0 * _MM],
        pos=[cx * _MM, cy * _MM, height / 2.0 * _MM],
    )


def build_scene(
    board: Board,
    castle_seats: Sequence[int],
    side_walls: bool,
    pins: Iterable[int],
    engine: tuple[float, float] | None,
    dice: Sequence[int],
    damping: ContactDamping,
    ledge: LaunchLedge | None = None,
) -> Built:
    """Compile the scene (see the module docstring). Dice start at the
    origin; the caller sets their poses in ``MjData.qpos``. ``ledge``: a
    launch ledge to add (:class:`LaunchLedge`), labelled ``"ledge"``."""
    spec = mujoco.MjSpec()
    spec.modelname = "warlords_reference"
    spec.option.timestep = damping.timestep
    spec.option.gravity = [0.0, 0.0, -board.gravity_mm_s2 * _MM]
    spec.option.cone = mujoco.mjtCone.mjCONE_ELLIPTIC
    damping.solver.apply(spec)
    tc = damping.time_constant
    die = board.die
    mesh = spec.add_mesh()
    mesh.name = "die"
    mesh.uservert = (rounded_box_vertices(die.sides_mm, die.edge_radius_mm) * _MM).ravel().tolist()
    wb = spec.worldbody
    labels: list[tuple[str, str]] = []  # (geom name, label)

    table = wb.add_geom(
        name="table", type=mujoco.mjtGeom.mjGEOM_PLANE, size=[board.half_size_mm * _MM] * 2 + [0.01]
    )
    table.friction = [die.table_friction, 0.0, 0.0]
    table.solref = [tc, damping.table]
    table.priority = 1
    labels.append(("table", "table"))
    wall_mat = board.wall_material
    for i, wall in enumerate(static_walls(board, castle_seats, side_walls)):
        g = _box(wb, wall.rect, wall.height_mm, f"wall{i}")
        g.friction = [wall_mat.friction, 0.0, 0.0]
        g.solref = [tc, damping.wall]
        g.priority = 1
        labels.append((f"wall{i}", "wall"))
    pin = board.pin
    for hole in sorted(pins):
        x, y = board.holes[hole]
        g = wb.add_geom(
            name=f"pin{hole}",
            type=mujoco.mjtGeom.mjGEOM_CYLINDER,
            size=[pin.radius_mm * _MM, pin.height_mm / 2.0 * _MM, 0.0],
            pos=[x * _MM, y * _MM, pin.height_mm / 2.0 * _MM],
        )
        g.friction = [pin.material.friction, 0.0, 0.0]
        g.solref = [tc, damping.pin]
        g.priority = 1
        labels.append((f"pin{hole}", f"pin:{hole}"))
    if engine is not None:
        w = board.siege_engine.width_mm / 2.0
        ex, ey = engine
        g = _box(
            wb, Rect(ex - w, ey - w, ex + w, ey + w), board.siege_engine.launch_height_mm, "engine"
        )
        g.friction = [wall_mat.friction, 0.0, 0.0]
        g.solref = [tc, damping.wall]
        g.priority = 1
        labels.append(("engine", "siege_engine"))
    if ledge is not None:
        half = board.die.size_mm / 2.0
        g = wb.add_geom(
            name="ledge",
            type=mujoco.mjtGeom.mjGEOM_BOX,
            size=[half * _MM, half * _MM, ledge.height_mm / 2.0 * _MM],
            pos=[ledge.x_mm * _MM, ledge.y_mm * _MM, ledge.height_mm / 2.0 * _MM],
            quat=ledge.quat_wxyz,
        )
        g.friction = [wall_mat.friction, 0.0, 0.0]
        g.solref = [tc, damping.wall]
        g.priority = 1
        labels.append(("ledge", "ledge"))
    for i in dice:
        body = wb.add_body(name=f"die{i}")
        body.add_freejoint()
        g = body.add_geom(
            name=f"die{i}", type=mujoco.mjtGeom.mjGEOM_MESH, meshname="die", mass=die.mass_g * _G
        )
        g.friction = [die.die_friction, 0.0, 0.0]
        g.solref = [tc, damping.die]
        labels.append((f"die{i}", f"die:{i}"))
    for g in spec.geoms:
        g.solimp = list(damping.solver.solimp)
    model = spec.compile()
    names = [""] * model.ngeom
    for name, label in labels:
        names[model.geom(name).id] = label
    geom_die = np.full(model.ngeom, -1, dtype=np.int64)
    qpos, qvel, geoms = [], [], []
    for k, i in enumerate(dice):
        body = model.body(f"die{i}")
        jnt = int(model.body_jntadr[body.id])
        qpos.append(int(model.jnt_qposadr[jnt]))
        qvel.append(int(model.jnt_dofadr[jnt]))
        gid = int(model.geom(f"die{i}").id)
        geoms.append(gid)
        geom_die[gid] = k
    return Built(
        model=model,
        labels=tuple(names),
        geom_die=geom_die,
        dice=tuple(dice),
        qpos=tuple(qpos),
        qvel=tuple(qvel),
        geoms=tuple(geoms),
    )
