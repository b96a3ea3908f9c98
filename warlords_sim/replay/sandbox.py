"""Sandbox replays: a sequence of flicks in one physics world, no rules.

A :class:`SandboxFlick` is a :class:`~warlords_sim.physics.Flick` plus what
the world needs before it: the face up at launch, where to put a die not
yet on the board (table flicks) and where the siege engine stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from warlords_sim.board import Board, seat_pins
from warlords_sim.physics import Flick, FlickResult, LaunchKind, World
from warlords_sim.replay.format import SandboxSetup
from warlords_sim.rules.physics_port import make_world

__all__ = ["SandboxFlick", "apply_sandbox", "sandbox_setup", "sandbox_world"]

Vec = tuple[float, float]


def _vec(v: Any) -> Vec | None:
    return None if v is None else (float(v[0]), float(v[1]))


@dataclass(frozen=True)
class SandboxFlick:
    """One flick of a sandbox sequence.

    Attributes:
        die, velocity (mm/s), spin (rad/s), launch, start (mm), height_mm:
            the :class:`~warlords_sim.physics.Flick`.
        face: face up at launch (None: as the die lies).
        add_at: (x, y) mm where a die not yet in the world is put (with
            ``face`` up, default 1) before a table flick.
        siege_engine: centre (mm) of the siege engine during and after the
            flick (None: no engine); placed, moved or removed before it.
    """

    kind: ClassVar[str] = "flick"
    die: int
    velocity: Vec
    spin: float = 0.0
    launch: LaunchKind = LaunchKind.TABLE
    start: Vec | None = None
    height_mm: float = 0.0
    face: int | None = None
    add_at: Vec | None = None
    siege_engine: Vec | None = None
    strike_mm: float = 0.0

    def to_flick(self) -> Flick:
        return Flick(
            self.die,
            self.velocity,
            self.spin,
            self.launch,
            self.start,
            self.height_mm,
            self.strike_mm,
        )

    def to_dict(self) -> dict[str, Any]:
        def lst(v: Vec | None) -> list[float] | None:
            return None if v is None else [v[0], v[1]]

        return {
            "type": self.kind,
            "die": self.die,
            "velocity": [self.velocity[0], self.velocity[1]],
            "spin": self.spin,
            "launch": self.launch.value,
            "start": lst(self.start),
            "height_mm": self.height_mm,
            "face": self.face,
            "add_at": lst(self.add_at),
            "siege_engine": lst(self.siege_engine),
            **({"strike_mm": self.strike_mm} if self.strike_mm != 0.0 else {}),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SandboxFlick:
        v = _vec(d["velocity"])
        assert v is not None
        face = d.get("face")
        return cls(
            int(d["die"]),
            v,
            float(d.get("spin", 0.0)),
            LaunchKind(d.get("launch", "table")),
            _vec(d.get("start")),
            float(d.get("height_mm", 0.0)),
            None if face is None else int(face),
            _vec(d.get("add_at")),
            _vec(d.get("siege_engine")),
            float(d.get("strike_mm", 0.0)),
        )


def sandbox_setup(
    board: Board, castle_seats: Sequence[int] = (0, 1, 2, 3), side_walls: bool = False
) -> SandboxSetup:
    """The ``flick`` command's set-up: every seat's three center-ring pins in
    seat order (:func:`~warlords_sim.board.seat_pins`, the order
    :func:`~warlords_sim.rules.flick_setup.standard_world` adds them: it
    enters the digests)."""
    pins = list(seat_pins(board))
    return SandboxSetup(castle_seats=list(castle_seats), side_walls=side_walls, pins=pins)


def sandbox_world(board: Board, setup: SandboxSetup) -> World:
    """A fresh 2.5D world as ``setup`` describes it (the physics port's
    :func:`~warlords_sim.rules.physics_port.make_world`)."""
    world = make_world(board, "2.5d", setup.castle_seats, setup.side_walls, setup.pins)
    if not isinstance(world, World):  # make_world's 2.5D is the World
        raise TypeError(f"the 2.5D engine made a {type(world).__name__}")
    return world


def apply_sandbox(world: World, action: SandboxFlick) -> FlickResult:
    """Play ``action`` in ``world`` until everything settles.

    Raises:
        FlickError, WorldError: the physics refuses the flick.
    """
    if world.siege_engine != action.siege_engine:
        if action.siege_engine is None:
            world.remove_siege_engine()
        else:
            world.place_siege_engine(*action.siege_engine)
    if action.add_at is not None and action.die not in world.dice:
        face = action.face if action.face is not None else 1
        world.add_die(action.die, action.add_at[0], action.add_at[1], face)
    return world.flick(action.to_flick(), face=action.face)
