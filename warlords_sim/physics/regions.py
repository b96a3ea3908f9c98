"""Regions of the board, decided from a die's whole footprint.

The rules name regions ("entirely within the center ring", "entirely inside
a courtyard", "entirely inside a castle gateway", "within a moat", off the
board); this module turns a settled die's footprint into one of them. Pure
geometry over :mod:`warlords_sim.board`; mm throughout.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from warlords_sim.board import Board
from warlords_sim.physics.types import Region, RegionKind

__all__ = ["classify", "footprint", "overlaps_moat"]

Point = tuple[float, float]


def footprint(x: float, y: float, angle: float, size: float) -> tuple[Point, ...]:
    """The four corners (mm) of a die's square footprint centred at (x, y),
    turned by ``angle`` rad, of edge ``size`` mm."""
    c, s = math.cos(angle), math.sin(angle)
    h = size / 2.0
    return tuple(
        (x + c * px - s * py, y + s * px + c * py)
        for px, py in ((-h, -h), (h, -h), (h, h), (-h, h))
    )


def classify(
    board: Board,
    x: float,
    y: float,
    angle: float,
    castle_seats: Sequence[int] = (0, 1, 2, 3),
) -> Region:
    """The region of a die resting at (x, y) mm, turned ``angle`` rad.

    Order of tests: off the board (centre beyond the edge, where a die
    tips off), entirely inside a courtyard, entirely inside a gateway,
    entirely within the centre ring, centre within a moat, else the board.
    Only castles at ``castle_seats`` count (three players leave one place
    walled off). There is no tolerance: a settled die never reaches into a
    wall (:class:`~warlords_sim.physics.world.World` moves a die at rest
    clear of what it touched), so a die resting against a courtyard's wall
    has its corners at the wall's face, inside the courtyard.
    """
    if not board.on_board(x, y):
        return Region(RegionKind.OFF_BOARD)
    corners = footprint(x, y, angle, board.die.size_mm)
    for seat in castle_seats:
        castle = board.castles[seat]
        if castle.courtyard.contains_all(corners):
            return Region(RegionKind.COURTYARD, seat)
        for gate in castle.gateways:
            if gate.contains_all(corners):
                return Region(RegionKind.GATEWAY, seat)
    if board.center_ring.contains_all(corners):
        return Region(RegionKind.CENTER_RING)
    for seat in castle_seats:
        if board.castles[seat].moat.contains(x, y):
            return Region(RegionKind.MOAT, seat)
    return Region(RegionKind.BOARD)


def overlaps_moat(
    board: Board, x: float, y: float, angle: float, castle_seats: Sequence[int] = (0, 1, 2, 3)
) -> bool:
    """True if any part of a die at (x, y) mm may lie within any castle's moat
    (a Spy may not be placed there; rulebook, Die Abilities). Conservative:
    tests the die's axis-aligned bounding box."""
    corners = footprint(x, y, angle, board.die.size_mm)
    xs = [c[0] for c in corners]
    ys = [c[1] for c in corners]
    for seat in castle_seats:
        moat = board.castles[seat].moat
        if moat.x0 < max(xs) and moat.x1 > min(xs) and moat.y0 < max(ys) and moat.y1 > min(ys):
            return True
    return False
