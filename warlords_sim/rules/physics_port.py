"""The physics the rules engine calls, as a protocol.

:class:`warlords_sim.physics.World` satisfies it; tests use the scripted
fakes of :mod:`warlords_sim.rules.scripted`. The rules read only what this
returns (settled poses, exits, events) and never touch pymunk.
:class:`SteppedPhysics` adds what the window needs to animate a flick step
by step (only the 2.5D ``World`` has it); the window reads the physics
through these two protocols only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

from warlords_sim.board import Board
from warlords_sim.physics.types import DiePose, Event, Flick, FlickResult

__all__ = ["ENGINES", "Physics", "SteppedPhysics", "make_world"]

#: The physics engines a game or a flick can run on: ``"2.5d"``, the pymunk
#: model of :mod:`warlords_sim.physics` (the default, fast), and
#: ``"reference"``, the 3D rigid-body reference on MuJoCo of
#: :mod:`warlords_sim.reference` (slow; needs the ``reference`` extra).
ENGINES: tuple[str, ...] = ("2.5d", "reference")


class Physics(Protocol):
    """What the engine needs from a physics world (see ``World``'s docstrings)."""

    @property
    def pins(self) -> tuple[int, ...]: ...

    @property
    def dice(self) -> tuple[int, ...]: ...

    def set_walls(self, castle_seats: Sequence[int], side_walls: bool) -> None: ...

    def set_pins(self, holes: Iterable[int]) -> None: ...

    def add_pin(self, hole: int) -> None: ...

    def add_die(self, die: int, x: float, y: float, face: int = 1, angle: float = 0.0) -> None: ...

    def remove_pin(self, hole: int) -> None: ...

    def remove_die(self, die: int) -> None: ...

    def move_die(self, die: int, x: float, y: float, angle: float | None = None) -> None: ...

    def pose(self, die: int) -> DiePose: ...

    def free_spot_near(
        self, x: float, y: float, width: float, exclude_die: int | None = None
    ) -> tuple[float, float]: ...

    def place_siege_engine(self, x: float, y: float) -> None: ...

    def remove_siege_engine(self) -> None: ...

    def flick(
        self, flick: Flick, face: int | None = None, max_time: float = 60.0
    ) -> FlickResult: ...

    def copy(self) -> Physics: ...

    def digest(self) -> str:
        """SHA-256 hex of the settled state (the replay's digest: dice,
        pins, siege engine; each engine's byte layout is its own)."""
        ...


@runtime_checkable
class SteppedPhysics(Physics, Protocol):
    """A physics a window can step frame by frame (the 2.5D ``World``; see
    its docstrings): a flick begun, stepped one fixed timestep at a time
    until settled, then packaged as the same :class:`FlickResult` that
    ``flick`` returns; the event log as it grows (sounds), the clock and
    its timestep (s), the height of a die in flight and the siege engine (drawing)."""

    @property
    def time(self) -> float: ...

    @property
    def timestep(self) -> float: ...

    @property
    def events(self) -> tuple[Event, ...]: ...

    @property
    def settled(self) -> bool: ...

    @property
    def siege_engine(self) -> tuple[float, float] | None: ...

    def height(self, die: int) -> float: ...

    def begin_flick(self, flick: Flick, face: int | None = None) -> int: ...

    def step(self) -> None: ...

    def run_until_settled(self, max_time: float = 60.0) -> int: ...

    def result(
        self, flick: Flick, initial_face: int, steps: int, settle_s: float
    ) -> FlickResult: ...


def make_world(
    board: Board,
    engine: str = "2.5d",
    castle_seats: Sequence[int] = (0, 1, 2, 3),
    side_walls: bool = False,
    pins: Iterable[int] = (),
) -> Physics:
    """A physics world of ``board`` on ``engine`` (one of :data:`ENGINES`),
    with ``pins`` added in their order (the order enters the digests). The
    one place a world is set up: a game's, the ``flick`` sandbox's
    (:func:`~warlords_sim.rules.flick_setup.standard_world`) and a sandbox
    replay's (``replay.sandbox.sandbox_world``).

    Raises:
        ValueError: an engine name not in :data:`ENGINES`.
        ImportError: ``"reference"`` without the ``reference`` extra
            (``pip install 'warlords-sim[reference]'``).
        WorldError: a board the engine cannot simulate (a cuboid die on
            ``"2.5d"``; a restitution out of the reference contact's reach).
    """
    world: Physics
    if engine == "2.5d":
        from warlords_sim.physics.world import World

        world = World(board, castle_seats, side_walls)
    elif engine == "reference":
        from warlords_sim.reference import ReferenceWorld

        world = ReferenceWorld(board, castle_seats, side_walls)
    else:
        raise ValueError(f"unknown physics engine {engine!r}; expected one of {', '.join(ENGINES)}")
    for hole in pins:
        world.add_pin(hole)
    return world
