"""Support: what a die stands on above the table, and when it falls off.

A die can come to rest on a castle wall, the siege engine or another die;
it stays up while its centre is over that support and falls when it is
not (pushed off, or the die beneath moved away). A falling die whose lowest
point drops below an obstacle's top while its centre is over that obstacle
lands on top of it.

Contract
--------
* Reads the pymunk space (point queries) and the height bands of
  :mod:`~warlords_sim.physics.flight`; changes nothing. The world asks, and
  applies the answers (a landing on top, a fall).
* Units mm, s; board frame; heights above the board surface.
* A die resting on something lower than a castle wall (a die, the siege
  engine is as tall as a wall or taller) rests cocked: its face is read as
  if the support were removed (design brief section 2, cocked dice).
"""

from __future__ import annotations

import numpy as np
import pymunk
from numpy.typing import NDArray

from warlords_sim.board import Board
from warlords_sim.physics.flight import HeightBands

__all__ = ["Support"]


class Support:
    """Support queries on one world's space.

    Args:
        space: the world's pymunk space.
        bands: its height bands.
        board: the board (for the castle wall height).
    """

    def __init__(self, space: pymunk.Space, bands: HeightBands, board: Board) -> None:
        self.space = space
        self.bands = bands
        self.board = board

    def under(
        self,
        shape: pymunk.Shape,
        pos: pymunk.Vec2d,
        old_mask: int,
        new_mask: int,
        vz: float,
    ) -> float | None:
        """Height (mm) of what a flying die lands on top of, or None.

        The die's shape ``shape``, centred at ``pos``, is about to change its collision mask from
        ``old_mask`` to ``new_mask`` (its lowest point dropped below the tops
        of the categories gained), moving at vertical speed ``vz`` mm/s. If it
        is falling and its centre is over an obstacle of a gained category,
        it lands on the tallest such obstacle."""
        gained = new_mask & ~old_mask if old_mask != -1 else 0
        if not gained:
            return None
        if vz > 0.0:
            return None  # rising
        best: float | None = None
        for h, bit in self.bands.levels:
            if not gained & bit:
                continue
            for hit in self.space.point_query(
                pos,
                0.0,
                pymunk.ShapeFilter(mask=bit, categories=pymunk.ShapeFilter.ALL_CATEGORIES()),
            ):
                if hit.shape is shape:
                    continue
                if best is None or h > best:
                    best = h
        return best

    def on_top(self, other: pymunk.Shape, pos: pymunk.Vec2d, zc: float, vz: float) -> float | None:
        """Height (mm) of the top of ``other`` that a flying die meeting it
        has come down onto, or None if it met its side.

        pymunk has just found the die (centre ``pos``, centre height ``zc``
        mm, vertical speed ``vz`` mm/s) touching ``other``, an obstacle of
        one height band (a wall, a pin, the siege engine, a die on the
        table). If the die is falling and its centre is over ``other`` and
        above its top, the die has come down onto that top, as in
        :meth:`under`: its lowest point dropped below the top while its
        footprint already reached over it, and pymunk's step then moved its
        centre over it before finding the contact (it moves bodies before
        it looks for contacts). Taken as a blow from the side, the contact
        would be pymunk's push out of an overlap up to a die's half width
        deep, while the die, low enough to hit the obstacle, sits over it."""
        if vz > 0.0:
            return None  # rising
        top = self.bands.height_of(other.filter.categories)
        if top is None or zc <= top:
            return None
        return top if other.point_query(pos).distance <= 0.0 else None

    def holds(self, shape: pymunk.Shape, pos: pymunk.Vec2d, floor: float) -> bool:
        """Is the centre ``pos`` of the die of ``shape`` over something
        ``floor`` mm tall?"""
        bit = self.bands.bit_at(floor)
        for hit in self.space.point_query(
            pos,
            0.0,
            pymunk.ShapeFilter(mask=bit, categories=pymunk.ShapeFilter.ALL_CATEGORIES()),
        ):
            if hit.shape is not shape:
                return True
        return False

    def rests_cocked(self, floor: float) -> bool:
        """Does a die lying flat on a surface ``floor`` mm high rest cocked
        (on top of something lower than the castle walls: another die)?"""
        return floor > 0.0 and floor < self.board.castles[0].walls[0].height_mm - 1e-9

    @staticmethod
    def fall(floor: float, size: float) -> tuple[float, float, NDArray[np.float64]]:
        """A die of edge ``size`` mm that lost its support ``floor`` mm high
        falls from rest: its centre height (mm), vertical speed (mm/s) and
        angular velocity (rad/s, world) at the start of the fall."""
        return floor + size / 2.0, 0.0, np.zeros(3)
