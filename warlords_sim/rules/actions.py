"""Actions: frozen value objects, one per thing a player can do.

Each action has ``to_dict()`` and ``from_dict()`` that round-trip exactly
(floats stay floats; JSON keeps them bit-exact), for replays. Velocities are
``(vx, vy)`` in mm/s in the board frame, spins in rad/s counter-clockwise.

* :class:`SupplyFlick` - a die from the supply, from one of the seat's front
  three areas (1..3) at a high or low crenelation, held with ``face`` up.
* :class:`BoardFlick` - one of the player's dice on the board (also a Scout's
  re-flick and a General's second die).
* :class:`SiegeShot` - one of a pair of the player's dice on the board,
  flicked from the top of the siege engine.
* :class:`SpyMove` - the Spy (a die showing 3) moved to (x, y).
* :class:`SapperPull` - the Sapper (a 4) pulls the pin in ``hole``.
* :class:`RingPinMove` - a die entirely within the center ring: a ring pin
  moves from ``from_hole`` to the open ``to_hole``.
* :class:`Decline` - decline the pending optional ability.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Self

from warlords_sim.board import Crenelation

__all__ = [
    "Action",
    "BoardFlick",
    "Decline",
    "RingPinMove",
    "SapperPull",
    "SiegeShot",
    "SpyMove",
    "SupplyFlick",
    "action_from_dict",
]


def _vec(v: Any, what: str) -> tuple[float, float]:
    if not (isinstance(v, list | tuple) and len(v) == 2):
        raise ValueError(f"{what}: expected [vx, vy], got {v!r}")
    return (float(v[0]), float(v[1]))


def _int(d: dict[str, Any], key: str) -> int:
    v = d.get(key)
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"action field {key!r}: expected an integer, got {v!r}")
    return v


def _float(d: dict[str, Any], key: str, default: float | None = None) -> float:
    v = d.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise ValueError(f"action field {key!r}: expected a number, got {v!r}")
    return float(v)


@dataclass(frozen=True)
class SupplyFlick:
    """Flick a die from the supply at front ``area`` (1..3) and ``crenelation``,
    with ``face`` up, struck ``strike_mm`` mm above its centre (physics/strike.py)."""

    kind: ClassVar[str] = "supply_flick"
    area: int
    crenelation: Crenelation
    velocity: tuple[float, float]
    spin: float = 0.0
    face: int = 1
    strike_mm: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "type": self.kind,
            "area": self.area,
            "crenelation": self.crenelation.value,
            "velocity": [self.velocity[0], self.velocity[1]],
            "spin": self.spin,
            "face": self.face,
        }
        if self.strike_mm != 0.0:
            d["strike_mm"] = self.strike_mm
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SupplyFlick:
        return cls(
            _int(d, "area"),
            Crenelation(d.get("crenelation")),
            _vec(d.get("velocity"), "velocity"),
            _float(d, "spin", 0.0),
            _int(d, "face"),
            _float(d, "strike_mm", 0.0),
        )


@dataclass(frozen=True)
class _DieFlick:
    """A flick of one die already on the board: its id, velocity (mm/s), spin
    (rad/s) and where the finger strikes (mm above the die's centre)."""

    kind: ClassVar[str]
    die: int
    velocity: tuple[float, float]
    spin: float = 0.0
    strike_mm: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "type": self.kind,
            "die": self.die,
            "velocity": [self.velocity[0], self.velocity[1]],
            "spin": self.spin,
        }
        if self.strike_mm != 0.0:
            d["strike_mm"] = self.strike_mm
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Self:
        return cls(
            _int(d, "die"),
            _vec(d.get("velocity"), "velocity"),
            _float(d, "spin", 0.0),
            _float(d, "strike_mm", 0.0),
        )


@dataclass(frozen=True)
class BoardFlick(_DieFlick):
    """Flick the player's die ``die`` from where it rests on the board."""

    kind: ClassVar[str] = "board_flick"


@dataclass(frozen=True)
class SiegeShot(_DieFlick):
    """Pick up ``die`` (one of a pair) and flick it from the siege engine."""

    kind: ClassVar[str] = "siege_shot"


@dataclass(frozen=True)
class SpyMove:
    """Move the Spy ``die`` to (x, y) mm, same face up and turn."""

    kind: ClassVar[str] = "spy_move"
    die: int
    x: float
    y: float

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "die": self.die, "x": self.x, "y": self.y}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SpyMove:
        return cls(_int(d, "die"), _float(d, "x"), _float(d, "y"))


@dataclass(frozen=True)
class SapperPull:
    """Pull and remove the pin in ``hole`` (an index into ``board.holes``)."""

    kind: ClassVar[str] = "sapper_pull"
    hole: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "hole": self.hole}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SapperPull:
        return cls(_int(d, "hole"))


@dataclass(frozen=True)
class RingPinMove:
    """Move the center-ring pin in ``from_hole`` to the open ``to_hole``."""

    kind: ClassVar[str] = "ring_pin_move"
    from_hole: int
    to_hole: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "from_hole": self.from_hole, "to_hole": self.to_hole}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RingPinMove:
        return cls(_int(d, "from_hole"), _int(d, "to_hole"))


@dataclass(frozen=True)
class Decline:
    """Decline the pending optional ability; the turn ends."""

    kind: ClassVar[str] = "decline"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Decline:
        return cls()


Action = SupplyFlick | BoardFlick | SiegeShot | SpyMove | SapperPull | RingPinMove | Decline

_KINDS: dict[str, Any] = {
    c.kind: c
    for c in (SupplyFlick, BoardFlick, SiegeShot, SpyMove, SapperPull, RingPinMove, Decline)
}


def action_from_dict(d: dict[str, Any]) -> Action:
    """The action a ``to_dict()`` output describes.

    Raises:
        ValueError: unknown ``type`` or a missing or mistyped field.
    """
    cls = _KINDS.get(str(d.get("type")))
    if cls is None:
        raise ValueError(f"unknown action type {d.get('type')!r}; expected one of {sorted(_KINDS)}")
    action: Action = cls.from_dict(d)
    return action
