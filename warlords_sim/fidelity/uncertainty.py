"""The reference engine's own uncertainty: how far its faces move over the
plausible ranges of the die's parameters nobody has measured (issue 19, item 2).

Contract
--------
* A :class:`Variant` moves one parameter of the board to one end of its
  plausible range; :func:`variant_board` applies it (a new frozen
  :class:`~warlords_sim.board.Board`; the reference engine calibrates its
  contact damping for the new restitution as for any board). The shipped
  :data:`VARIANTS` move, one at a time:

  - the die's edge radius to 0.8 and 2.4 mm (:data:`EDGE_RADIUS_RANGE_MM`).
    No measured radius of a standard 16 mm d6 was found. Casino ("precision")
    dice are made with "all edges and corners perfectly square" (the craps
    dice specification quoted by Midwest Game Supply,
    https://www.midwestgamesupply.com/products/dice/dice-specifications/),
    a radius near 0; ordinary game dice have rounded corners but no
    published figure; parametric models of such a die round a 16 mm cube
    to 2 mm (DWay17/3D-Objects, ``spielwuerfel.scad``) or a 20 mm one to
    1.5 mm (1.2 mm at 16 mm). The range is half to one and a half times the
    board's 1.6 mm (a tenth of the side), covering those models with
    margin; a razor-edged casino die is outside it.
  - the die-on-wood restitution (the table, the walls and the pins
    together) to 0.45 and 0.6 (:data:`RESTITUTION_RANGE`): generic wood on
    wood ~0.5, a wooden ball dropped on a hard floor 0.6 as the upper bound
    (engineering tables; Physics Factbook; design brief, section 2).

* :func:`reference_spread` is pure: for one scenario, the reference's
  figures at the board's parameters against each variant's (the same noisy
  trials, so the same seeds): the spread of the faces is the largest
  total-variation distance between the two face distributions, the spread
  of P(face changed) the largest absolute difference. With a chaotic
  scenario these include the trials' sampling noise at the run's trial
  count, as the verdict's own differences do. A figure only one side has
  (every die of the other left the board) spreads by 1; one neither has, by 0.
* The verdict (:mod:`.verdict`) takes the spread as the tolerance of its
  criterion when it is wider than the fixed one (faces TV 0.15, P(face
  changed) 0.10).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

from warlords_sim.board import Board
from warlords_sim.fidelity.metrics import EngineStats, tv_distance

__all__ = [
    "EDGE_RADIUS_RANGE_MM",
    "RESTITUTION_RANGE",
    "VARIANTS",
    "ReferenceSpread",
    "Variant",
    "VariantFigures",
    "reference_spread",
    "variant_board",
]

#: Plausible edge radius of a standard 16 mm d6, mm (see the module docstring).
EDGE_RADIUS_RANGE_MM = (0.8, 2.4)
#: Plausible restitution of the die on the wooden board, walls and pins.
RESTITUTION_RANGE = (0.45, 0.6)


@dataclass(frozen=True)
class Variant:
    """One unmeasured parameter at one end of its range: ``parameter`` is
    ``"edge_radius_mm"`` or ``"restitution"`` (die on wood), ``value`` its
    value (mm or a coefficient)."""

    parameter: str
    value: float

    def __post_init__(self) -> None:
        if self.parameter not in ("edge_radius_mm", "restitution"):
            raise ValueError(
                f"variant parameter must be edge_radius_mm or restitution, got {self.parameter!r}"
            )
        if not (math.isfinite(self.value) and self.value > 0.0):
            raise ValueError(
                f"variant {self.parameter} must be a positive number, got {self.value}"
            )

    @property
    def name(self) -> str:
        """Short label: ``"r 0.8 mm"``, ``"e 0.45"``."""
        if self.parameter == "edge_radius_mm":
            return f"r {self.value:g} mm"
        return f"e {self.value:g}"


#: The variants run for every scenario (one parameter at a time).
VARIANTS = (
    Variant("edge_radius_mm", EDGE_RADIUS_RANGE_MM[0]),
    Variant("edge_radius_mm", EDGE_RADIUS_RANGE_MM[1]),
    Variant("restitution", RESTITUTION_RANGE[0]),
    Variant("restitution", RESTITUTION_RANGE[1]),
)


def variant_board(board: Board, variant: Variant) -> Board:
    """``board`` with ``variant`` applied: the die's edge radius, or the
    restitution of the die on the table, the walls and the pins.

    Raises:
        ValueError: a radius of half the die's smallest side or more, or a
            restitution above 1.
    """
    die = board.die
    if variant.parameter == "edge_radius_mm":
        if variant.value >= min(die.sides_mm) / 2.0:
            raise ValueError(
                f"variant edge radius {variant.value:g} mm must be less than half the die's "
                f"smallest side ({min(die.sides_mm) / 2.0:g} mm)"
            )
        return replace(board, die=replace(die, edge_radius_mm=variant.value))
    if variant.value > 1.0:
        raise ValueError(f"variant restitution must be at most 1, got {variant.value:g}")
    e = variant.value
    return replace(
        board,
        die=replace(die, table_restitution=e),
        wall_material=replace(board.wall_material, restitution=e),
        pin=replace(board.pin, material=replace(board.pin.material, restitution=e)),
    )


@dataclass(frozen=True)
class VariantFigures:
    """One variant's figures against the reference at the board's
    parameters: the TV distance of the faces and the absolute difference in
    P(face changed), with the variant's face counts (faces 1-6)."""

    name: str
    faces_tv: float
    face_changed: float
    faces: tuple[int, int, int, int, int, int]


@dataclass(frozen=True)
class ReferenceSpread:
    """The reference's spread over its unmeasured parameters for one
    scenario (see the module docstring)."""

    variants: tuple[VariantFigures, ...]

    @property
    def faces(self) -> float:
        """Largest TV distance of the faces (0 with no variants)."""
        return max((v.faces_tv for v in self.variants), default=0.0)

    @property
    def face_changed(self) -> float:
        """Largest difference in P(face changed) (0 with no variants)."""
        return max((v.face_changed for v in self.variants), default=0.0)

    def as_json(self) -> dict[str, object]:
        return {
            "faces_tv": self.faces,
            "p_face_changed": self.face_changed,
            "variants": [
                {
                    "name": v.name,
                    "faces_tv": v.faces_tv,
                    "p_face_changed": v.face_changed,
                    "faces": {str(f): c for f, c in enumerate(v.faces, start=1)},
                }
                for v in self.variants
            ],
        }


def _gap(a: float, b: float) -> float:
    """|a - b|; 0 if neither has the figure, 1 if only one has it."""
    if math.isnan(a) or math.isnan(b):
        return 0.0 if math.isnan(a) and math.isnan(b) else 1.0
    return abs(a - b)


def reference_spread(nominal: EngineStats, variants: Mapping[str, EngineStats]) -> ReferenceSpread:
    """The spread of ``nominal`` (the reference at the board's parameters)
    over ``variants`` (name -> the reference's figures with that variant,
    same trials), in the mapping's order."""
    out = []
    p = dict(enumerate(nominal.faces, start=1))
    for name, st in variants.items():
        if not sum(nominal.faces) or not sum(st.faces):  # every die of one side left
            tv = 0.0 if not sum(nominal.faces) and not sum(st.faces) else 1.0
        else:
            tv = tv_distance(p, dict(enumerate(st.faces, start=1)))
        out.append(VariantFigures(name, tv, _gap(nominal.face_changed, st.face_changed), st.faces))
    return ReferenceSpread(tuple(out))
