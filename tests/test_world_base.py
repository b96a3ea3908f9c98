"""The three worlds behind the rules' physics port refuse the same requests
with the same error and line: the 2.5D world, the 3D reference (skipped
without the ``reference`` extra) and the rules' scripted physics, all built
on :class:`warlords_sim.physics.world_base.WorldBase` (issue 22).

Before, the scripted fake raised ``ValueError`` (or ``KeyError``) with lines
of its own, or took the request: a seat 7, a die off the board, a siege
engine across a wall.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Callable

import pytest

from warlords_sim.board import load_board
from warlords_sim.physics.types import WorldError
from warlords_sim.physics.world import World
from warlords_sim.physics.world_base import WorldBase
from warlords_sim.rules.physics_port import Physics
from warlords_sim.rules.scripted import ScriptedPhysics

BOARD = load_board()
_NO_MUJOCO = importlib.util.find_spec("mujoco") is None


def _reference(*args: object, **kwargs: object) -> Physics:
    from warlords_sim.reference import ReferenceWorld

    return ReferenceWorld(*args, **kwargs)  # type: ignore[arg-type]


WORLDS = [
    pytest.param(World, id="2.5d"),
    pytest.param(
        _reference,
        id="reference",
        marks=pytest.mark.skipif(_NO_MUJOCO, reason="needs the reference extra"),
    ),
    pytest.param(ScriptedPhysics, id="scripted"),
]
FREE = (-150.0, 100.0)

#: request -> (what it does to a world with a pin in hole 0 and die 1 at FREE, the message)
REQUESTS: dict[str, tuple[Callable[[Physics], object], str]] = {
    "no such hole": (lambda w: w.add_pin(10_000), "no hole 10000"),
    "a pin twice": (lambda w: w.add_pin(0), "hole 0 already holds a pin"),
    "no pin to pull": (lambda w: w.remove_pin(1), "hole 1 holds no pin"),
    "pins twice": (lambda w: w.set_pins([2, 2]), "pins need distinct holes"),
    "a seat 7": (lambda w: w.set_walls([0, 7], False), "castle seats must be distinct"),
    "a taken id": (lambda w: w.add_die(1, 0.0, 0.0), "die 1 is already in the world"),
    "a bad id": (lambda w: w.add_die(-1, 0.0, 0.0), "a die id must be|out of range"),
    "off the board": (lambda w: w.add_die(2, 9999.0, 0.0), r"die position \(9999, 0\) mm is off"),
    "a NaN angle": (lambda w: w.add_die(2, 0.0, 0.0, angle=math.nan), "die angle must be"),
    "no such die": (lambda w: w.move_die(5, 0.0, 0.0), "no die 5 in the world"),
    "remove no die": (lambda w: w.remove_die(5), "no die 5 in the world"),
    "move off": (lambda w: w.move_die(1, 0.0, -9999.0), "is off the board"),
    "engine on a wall": (lambda w: w.place_siege_engine(0.0, -200.0), "would overlap a wall"),
    "spot at NaN": (lambda w: w.free_spot_near(math.nan, 0.0, 30.0), "needs a finite point"),
    "spot of no width": (lambda w: w.free_spot_near(0.0, 0.0, 0.0), "needs a positive width"),
}


@pytest.mark.parametrize("make", WORLDS)
@pytest.mark.parametrize("request_name", sorted(REQUESTS))
def test_every_world_refuses_alike(make: Callable[..., Physics], request_name: str) -> None:
    w = make(BOARD)
    assert isinstance(w, WorldBase)
    w.add_pin(0)
    w.add_die(1, *FREE)
    do, message = REQUESTS[request_name]
    with pytest.raises(WorldError, match=message):
        do(w)
    assert w.dice == (1,) and w.pins == (0,)


@pytest.mark.parametrize("make", WORLDS)
def test_every_world_keeps_its_bookkeeping_alike(make: Callable[..., Physics]) -> None:
    w = make(BOARD, castle_seats=(2, 0, 1))
    assert w.castle_seats == (0, 1, 2)  # type: ignore[attr-defined]
    w.set_pins([5, 3])
    assert w.pins == (3, 5)
    w.add_die(4, *FREE)
    w.add_die(2, FREE[0] + 40.0, FREE[1])
    assert w.dice == (2, 4)
    w.place_siege_engine(FREE[0], FREE[1] - 60.0)
    assert w.siege_engine == (FREE[0], FREE[1] - 60.0)  # type: ignore[attr-defined]
    w.remove_siege_engine()
    assert w.siege_engine is None  # type: ignore[attr-defined]
    w.remove_die(4)
    w.remove_pin(3)
    assert w.dice == (2,) and w.pins == (5,)


def test_every_world_has_the_ports_digest_and_it_sees_the_cocked_flag() -> None:
    """The digest is in the physics port (issue 22, item 3): the replay's
    snapshot asks any world for it (it fell back to "0" * 64 for a world
    without one: the scripted fake). A copy digests alike; a die moved, a
    pin pulled or a die cocked changes it."""
    board = load_board("standard")
    w = ScriptedPhysics(board, [])
    w.add_die(0, 10.0, 20.0, 3, 0.5)
    w.add_pin(0)
    d = w.digest()
    assert len(d) == 64 and d == w.copy().digest() and d != "0" * 64
    cocked = w.copy()
    cocked._dice[0].cocked = True
    moved = w.copy()
    moved.move_die(0, 10.0, 21.0)
    pulled = w.copy()
    pulled.remove_pin(0)
    assert len({d, cocked.digest(), moved.digest(), pulled.digest()}) == 4
    assert isinstance(World(board).digest(), str)
