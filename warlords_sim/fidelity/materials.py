"""Named materials of a cube on a table, for ``fidelity --tosses``.

Contract
--------
* :data:`MATERIALS_FILE` (``materials.toml`` beside this module) holds the
  named materials, each a :class:`CubeMaterial`: the cube's mass and
  moment of inertia and its contact with the table (restitution, sliding
  friction, edge radius, the reference contact's time constant, torsional
  and rolling friction, timestep), each value with its source in the file.
  The game's die keeps its own sourced parameters in the board file; these
  describe a measured cube (``contactnets-acrylic``: the ContactNets cube,
  fitted by ``benchmarks/tosses.py``, docs/fidelity.md).
* :func:`load_materials` validates the file (msgspec); a bad file or an
  unknown name raises :class:`MaterialError` naming the file and field.
* Units mm, g, s.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import msgspec

from warlords_sim._files import FileProblem, parse_toml, read_regular
from warlords_sim.errors import WarlordsError

__all__ = ["MATERIALS_FILE", "CubeMaterial", "MaterialError", "load_materials", "material"]

#: The shipped materials.
MATERIALS_FILE = Path(__file__).parent / "materials.toml"
_MAX_BYTES = 1_000_000


class MaterialError(WarlordsError, ValueError):
    """A materials file or a material name that cannot be used."""


@dataclass(frozen=True)
class CubeMaterial:
    """A cube and its contact with a table (mm, g, s).

    Attributes:
        name, description: the material's name and what it is.
        mass_g: the cube's mass. inertia_g_mm2: its moment of inertia about
            every axis through the centre (g mm^2).
        restitution: face-down drop restitution on the table.
        friction: sliding friction coefficient (kinetic; the 2.5D model
            also takes it as the static one).
        edge_radius_mm: rounded edges and corners (the reference only).
        time_constant_s: the reference contact's solref[0].
        torsional_mm, rolling_mm: the reference contact's torsional and
            rolling friction (0: none).
        timestep_s: the reference's physics step.
    """

    name: str
    description: str
    mass_g: float
    inertia_g_mm2: float
    restitution: float
    friction: float
    edge_radius_mm: float
    time_constant_s: float = 0.002
    torsional_mm: float = 0.0
    rolling_mm: float = 0.0
    timestep_s: float = 2e-4
    edge_friction: float | None = None

    def with_(self, **changes: float) -> CubeMaterial:
        """A copy with some parameters changed (a fit's grid point)."""
        return replace(self, **changes)  # type: ignore[arg-type]


class _Entry(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    description: str
    mass_g: float
    inertia_g_mm2: float
    restitution: float
    friction: float
    edge_radius_mm: float
    time_constant_s: float = 0.002
    torsional_mm: float = 0.0
    rolling_mm: float = 0.0
    timestep_s: float = 2e-4
    edge_friction: float | None = None


class _File(msgspec.Struct, forbid_unknown_fields=True):
    format: str
    version: int
    material: list[_Entry]


def _check(path: str, i: int, e: _Entry) -> CubeMaterial:
    where = f"{path}: material[{i}] ({e.name})"
    positive = ("mass_g", "inertia_g_mm2", "edge_radius_mm", "time_constant_s", "timestep_s")
    for f in positive:
        if not getattr(e, f) > 0.0:
            raise MaterialError(f"{where}: {f}: expected a positive number, got {getattr(e, f)}")
    if not 0.0 <= e.restitution <= 1.0:
        raise MaterialError(f"{where}: restitution: expected 0..1, got {e.restitution}")
    for f in ("friction", "torsional_mm", "rolling_mm"):
        if not getattr(e, f) >= 0.0:
            raise MaterialError(f"{where}: {f}: expected a number >= 0, got {getattr(e, f)}")
    return CubeMaterial(**msgspec.structs.asdict(e))


def load_materials(path: str | Path = MATERIALS_FILE) -> dict[str, CubeMaterial]:
    """The named materials of ``path``, by name.

    Raises:
        MaterialError: unreadable, not TOML, a field missing or of the
            wrong type or range, a name given twice.
    """
    where = str(path)
    try:
        data = parse_toml(read_regular(Path(path), _MAX_BYTES, "materials file (TOML)"))
        raw = msgspec.convert(data, _File)
    except (FileProblem, OSError, ValueError, msgspec.ValidationError) as e:
        raise MaterialError(f"{where}: {e}") from None
    if raw.format != "warlords-materials" or raw.version != 1:
        raise MaterialError(f"{where}: format/version: expected 'warlords-materials' version 1")
    out: dict[str, CubeMaterial] = {}
    for i, entry in enumerate(raw.material):
        if entry.name in out:
            raise MaterialError(f"{where}: material[{i}].name: {entry.name!r} given twice")
        out[entry.name] = _check(where, i, entry)
    return out


def material(name: str, path: str | Path = MATERIALS_FILE) -> CubeMaterial:
    """The material ``name`` of ``path``.

    Raises:
        MaterialError: see :func:`load_materials`; or no such name.
    """
    known = load_materials(path)
    if name not in known:
        raise MaterialError(
            f"--material: unknown material {name!r}; expected one of {', '.join(sorted(known))}"
        )
    return known[name]
