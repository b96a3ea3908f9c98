"""The settled-state digests of both engines and the 2.5D world's rest state
as plain data: their byte layouts, part of the replay contract.

A replay records the digest of the settled state after every action
(docs/replay-format.md); a re-simulation that hashes one byte otherwise
no longer verifies any recorded game. The layouts here must therefore
never change without a new model version (:mod:`~warlords_sim.physics.version`).

Contract
--------
* SHA-256, hex. Every number is packed little-endian (``struct`` ``<``):
  ids as int64 (``q``), coordinates, angles and heights as the exact
  float64 bits (``d``), flags as one byte (``?``).
* The 2.5D world (:func:`world_digest`): for each die in id order
  ``<qddd`` (id, x mm, y mm, yaw rad), its orientation in its yaw frame as
  nine ``<f8`` in C order, ``<d?`` (floor mm, cocked); then the
  :func:`_tail`.
* The reference (:func:`reference_digest`): the bytes ``b"reference"``,
  then per die in id order ``<q3d4d?`` (id, centre x, y, z mm, the
  orientation quaternion w, x, y, z, resting on a die); then the tail.
* The tail, shared: the pin holes sorted (``<Nq``), the siege engine's
  centre (``<dd``) if it is placed, then ``<?Mq`` (side walls, the castle
  seats sorted).
* The rest state (:func:`rest_state`, :func:`parse_rest_state`): what the
  2.5D digest hashes, as JSON-ready data; JSON keeps every float's bits.
* Pure: numpy only to lay out the orientation bytes; no pymunk, no world.
  Units mm, rad.
"""

from __future__ import annotations

import hashlib
import math
import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from warlords_sim.physics.types import WorldError

__all__ = [
    "DieRecord",
    "ReferenceRecord",
    "RestState",
    "parse_rest_state",
    "reference_digest",
    "rest_state",
    "world_digest",
]


@dataclass(frozen=True)
class DieRecord:
    """What the 2.5D digest keeps of a die at rest: its id, centre (mm),
    yaw (rad), orientation in its yaw frame (3x3), floor (mm) and cocked flag."""

    die: int
    x: float
    y: float
    angle: float
    r_rel: NDArray[np.float64]
    floor: float
    cocked: bool


@dataclass(frozen=True)
class ReferenceRecord:
    """What the reference's digest keeps of a die: id, centre (mm),
    orientation quaternion (w, x, y, z) and whether it rests on a die."""

    die: int
    x: float
    y: float
    z: float
    quat: tuple[float, float, float, float]
    on_die: bool


def _tail(
    h: Any,
    pins: Iterable[int],
    engine: tuple[float, float] | None,
    side_walls: bool,
    castle_seats: Sequence[int],
) -> None:
    holes = sorted(pins)
    h.update(struct.pack(f"<{len(holes)}q", *holes))
    if engine is not None:
        h.update(struct.pack("<dd", *engine))
    h.update(struct.pack(f"<?{len(castle_seats)}q", side_walls, *castle_seats))


def world_digest(
    dice: Iterable[DieRecord],
    pins: Iterable[int],
    engine: tuple[float, float] | None,
    side_walls: bool,
    castle_seats: Sequence[int],
) -> str:
    """The 2.5D world's digest (the layout above). ``dice`` in id order;
    ``castle_seats`` sorted."""
    h = hashlib.sha256()
    for d in dice:
        h.update(struct.pack("<qddd", d.die, d.x, d.y, d.angle))
        # (the nine float64s in C order, little-endian: struct.pack("<9d", ...)'s bytes)
        h.update(np.ascontiguousarray(d.r_rel, dtype="<f8").reshape(9).tobytes())
        h.update(struct.pack("<d?", d.floor, d.cocked))
    _tail(h, pins, engine, side_walls, castle_seats)
    return h.hexdigest()


def reference_digest(
    dice: Iterable[ReferenceRecord],
    pins: Iterable[int],
    engine: tuple[float, float] | None,
    side_walls: bool,
    castle_seats: Sequence[int],
) -> str:
    """The reference world's digest (the layout above). ``dice`` in id
    order; ``castle_seats`` sorted."""
    h = hashlib.sha256(b"reference")
    for s in dice:
        h.update(struct.pack("<q3d4d?", s.die, s.x, s.y, s.z, *s.quat, s.on_die))
    _tail(h, pins, engine, side_walls, castle_seats)
    return h.hexdigest()


@dataclass(frozen=True)
class RestState:
    """A settled 2.5D world as :func:`parse_rest_state` reads it: the dice
    by id, the pins in the order they were put in, the engine's centre (mm)
    or None, the castle seats and whether the side walls stand."""

    dice: Mapping[int, DieRecord]
    pins: list[int]
    engine: tuple[float, float] | None
    castle_seats: list[int]
    side_walls: bool


def rest_state(
    dice: Iterable[DieRecord],
    pins: Iterable[int],
    engine: tuple[float, float] | None,
    castle_seats: Sequence[int],
    side_walls: bool,
) -> dict[str, Any]:
    """The settled world as plain data: ``dice``: per die ``[id, x, y,
    angle, r_rel (nine floats, C order), floor, cocked]`` (mm, rad, mm);
    ``pins``: hole indices as given (the order they were put in);
    ``engine``: the siege engine's place (mm) or None; ``castle_seats`` and
    ``side_walls``: the walls in force."""
    out = []
    for d in dice:
        r = [float(v) for v in np.asarray(d.r_rel, dtype=np.float64).reshape(9)]
        out.append([d.die, float(d.x), float(d.y), float(d.angle), r, d.floor, d.cocked])
    return {
        "dice": out,
        "pins": list(pins),
        "engine": None if engine is None else list(engine),
        "castle_seats": list(castle_seats),
        "side_walls": side_walls,
    }


def parse_rest_state(state: Mapping[str, Any]) -> RestState:
    """Read what :func:`rest_state` gives; every die's numbers finite and its
    orientation a rotation (R R^T = I within 1e-9, in plain floats: no BLAS
    on the state path). Places on the board are the world's to check.

    Raises:
        WorldError: a field missing or of the wrong type, a number not
            finite, an orientation that is not a rotation.
    """
    try:
        dice = {int(e[0]): e for e in state["dice"]}
        pins = [int(h) for h in state["pins"]]
        engine = state["engine"]
        seats = [int(v) for v in state["castle_seats"]]
        side = bool(state["side_walls"])
        parsed = {
            i: DieRecord(i, float(e[1]), float(e[2]), float(e[3]),
                np.array([float(v) for v in e[4]], dtype=np.float64).reshape(3, 3),
                float(e[5]), bool(e[6]))
            for i, e in dice.items()
        }  # fmt: skip
        place = None if engine is None else (float(engine[0]), float(engine[1]))
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise WorldError(f"not a world's rest state: {e}") from None
    return RestState(parsed, pins, place, seats, side)


def check_rest_die(d: DieRecord) -> None:
    """A die of a rest state: finite numbers, a rotation.

    Raises:
        WorldError: a number that is not finite, or an orientation that is
            not a rotation.
    """
    i = d.die
    if not (math.isfinite(d.angle) and math.isfinite(d.floor) and np.isfinite(d.r_rel).all()):
        raise WorldError(f"die {i}: a number that is not finite")
    rows = d.r_rel.tolist()  # R R^T = I, in plain floats (no BLAS on the state path)
    gram = [[sum(a * b for a, b in zip(u, v, strict=True)) for v in rows] for u in rows]
    if any(abs(gram[i][j] - (i == j)) > 1e-9 for i in range(3) for j in range(3)):
        raise WorldError(f"die {i}: its orientation is not a rotation")
