"""The pymunk shapes of a 2.5D world: the walls, pins and siege engine as
static shapes, a die as a body with its shape and its friction joints, and
the probes that ask pymunk what a square would meet.

Contract
--------
* Builds shapes and sets their material (elasticity, friction), collision
  type and collision filter, in one place: a static obstacle's material
  is the board's, divided by the die's share (pymunk multiplies the two
  shapes' values; a die's elasticity and friction are the square roots of
  the die-on-die values, so that two dice meet with those). Only
  :func:`add_die_parts` adds to the space (body, shape, pivot, gear, in
  that order); the world adds the static shapes. The order bodies and
  shapes enter the space is part of the simulation (pymunk meets contacts
  in that order).
* Units mm, g, s, rad; board frame. No state of its own; imports pymunk
  and the board and physics value layers (:mod:`~warlords_sim.physics.flight`
  for the height bands), never the world.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pymunk

from warlords_sim.board import Board, Material, Wall
from warlords_sim.physics.flight import DIE_BIT, HeightBands
from warlords_sim.physics.types import WorldError

__all__ = [
    "DIE_TYPE",
    "ENGINE_TYPE",
    "PIN_TYPE",
    "WALL_TYPE",
    "DieParts",
    "Materials",
    "add_die_parts",
    "band_bit",
    "engine_shape",
    "pin_shape",
    "probe_square",
    "wall_shape",
]

#: pymunk collision types: a die, a wall, a pin, the siege engine.
DIE_TYPE = 1
WALL_TYPE = 2
PIN_TYPE = 3
ENGINE_TYPE = 4


@dataclass(frozen=True)
class Materials:
    """A die's share of the contact coefficients: pymunk multiplies the
    elasticities (and the frictions) of the two shapes that meet, so a die
    carries the square roots of the die-on-die restitution and friction,
    and an obstacle its material's value divided by those."""

    sqrt_e_die: float
    sqrt_mu_die: float

    @classmethod
    def of_board(cls, board: Board) -> Materials:
        die = board.die
        return cls(math.sqrt(die.die_restitution), math.sqrt(die.die_friction))


def band_bit(bands: HeightBands, height: float) -> int:
    """The collision category of an obstacle ``height`` mm tall.

    Raises:
        WorldError: no band holds that height.
    """
    bit = bands.bit_for(height)
    if bit is None:
        raise WorldError(f"no collision band for height {height} mm")
    return bit


def _static(
    shape: pymunk.Shape, material: Material, materials: Materials, ctype: int, bit: int
) -> pymunk.Shape:
    shape.elasticity = material.restitution / materials.sqrt_e_die
    shape.friction = material.friction / materials.sqrt_mu_die
    shape.collision_type = ctype
    shape.filter = pymunk.ShapeFilter(categories=bit, mask=pymunk.ShapeFilter.ALL_MASKS())
    return shape


def wall_shape(
    static_body: pymunk.Body, board: Board, bands: HeightBands, materials: Materials, wall: Wall
) -> pymunk.Poly:
    """A wall as a box on the static body (not added to the space)."""
    r = wall.rect
    verts = [(r.x0, r.y0), (r.x1, r.y0), (r.x1, r.y1), (r.x0, r.y1)]
    shape = pymunk.Poly(static_body, verts)
    bit = band_bit(bands, wall.height_mm)
    _static(shape, board.wall_material, materials, WALL_TYPE, bit)
    return shape


def pin_shape(
    static_body: pymunk.Body, board: Board, bands: HeightBands, materials: Materials, hole: int
) -> pymunk.Circle:
    """The pin of hole ``hole`` as a circle on the static body (not added)."""
    x, y = board.holes[hole]
    pin = board.pin
    shape = pymunk.Circle(static_body, pin.radius_mm, (x, y))
    _static(shape, pin.material, materials, PIN_TYPE, band_bit(bands, pin.height_mm))
    return shape


def engine_shape(
    static_body: pymunk.Body,
    board: Board,
    bands: HeightBands,
    materials: Materials,
    x: float,
    y: float,
) -> pymunk.Poly:
    """The siege engine centred at (x, y) mm as a box on the static body
    (not added); walls' material."""
    w = board.siege_engine.width_mm / 2.0
    shape = pymunk.Poly(
        static_body, [(x - w, y - w), (x + w, y - w), (x + w, y + w), (x - w, y + w)]
    )
    bit = band_bit(bands, board.siege_engine.launch_height_mm)
    _static(shape, board.wall_material, materials, ENGINE_TYPE, bit)
    return shape


@dataclass(frozen=True)
class DieParts:
    """A die's pymunk parts: its body, its square and the two joints to the
    static body that give it Coulomb table friction (``max_bias = 0``;
    their ``max_force`` is set as it lands, 0 in the air)."""

    body: pymunk.Body
    shape: pymunk.Poly
    pivot: pymunk.PivotJoint
    gear: pymunk.GearJoint


def add_die_parts(
    space: pymunk.Space,
    board: Board,
    bands: HeightBands,
    materials: Materials,
    i2: float,
    x: float,
    y: float,
    angle: float,
) -> DieParts:
    """Make a die's body (mass ``board.die.mass_g``, moment ``mass * i2``)
    at (x, y) mm turned ``angle`` rad, its square, pivot and gear joints,
    and add them to ``space`` (body, shape, pivot, gear, in that order)."""
    spec = board.die
    a = spec.size_mm
    body = pymunk.Body(spec.mass_g, spec.mass_g * i2)
    body.position = (x, y)
    body.angle = angle
    h = a / 2.0
    shape = pymunk.Poly(body, [(-h, -h), (h, -h), (h, h), (-h, h)])
    shape.elasticity = materials.sqrt_e_die
    shape.friction = materials.sqrt_mu_die
    shape.collision_type = DIE_TYPE
    shape.filter = pymunk.ShapeFilter(categories=DIE_BIT, mask=bands.all_mask)
    pivot = pymunk.PivotJoint(space.static_body, body, (0.0, 0.0), (0.0, 0.0))
    pivot.max_bias = 0.0
    gear = pymunk.GearJoint(space.static_body, body, 0.0, 1.0)
    gear.max_bias = 0.0
    space.add(body, shape, pivot, gear)
    return DieParts(body, shape, pivot, gear)


def probe_square(
    bands: HeightBands,
    half: float,
    position: tuple[float, float] | pymunk.Vec2d = (0.0, 0.0),
    angle: float = 0.0,
) -> pymunk.Poly:
    """A square of half-width ``half`` mm on a kinematic body of its own at
    ``position``, turned ``angle``, meeting every obstacle and die (for
    ``shape_query`` and ``bb_query``; never added to a space). Move it by
    its ``body.position`` and ``cache_bb()``."""
    probe = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
    probe.position = position
    probe.angle = angle
    box = pymunk.Poly(probe, [(-half, -half), (half, -half), (half, half), (-half, half)])
    box.filter = pymunk.ShapeFilter(categories=bands.all_mask, mask=pymunk.ShapeFilter.ALL_MASKS())
    return box
