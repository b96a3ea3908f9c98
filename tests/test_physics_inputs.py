"""Inputs both engines refuse alike: die ids, flick values that are not
numbers, a strike outside a cuboid die, a siege engine on a wall or a pin, a
siege flick with no engine (saved cases of a break-it pass on issue 9).

Each test runs on the 2.5D world and on the 3D reference (skipped without
the ``reference`` extra), through the physics port the rules use.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from warlords_sim.board import Board, load_board
from warlords_sim.physics import WorldError
from warlords_sim.physics.types import MAX_DIE_ID, Flick, FlickError, LaunchKind
from warlords_sim.rules.physics_port import Physics, make_world

BOARD = load_board()
_NO_MUJOCO = importlib.util.find_spec("mujoco") is None
ENGINES = [
    "2.5d",
    pytest.param(
        "reference", marks=pytest.mark.skipif(_NO_MUJOCO, reason="needs the reference extra")
    ),
]
#: a spot on the open board, clear of every pin
FREE = (-150.0, 100.0)


def _world(engine: str, board: Board = BOARD) -> Physics:
    w = make_world(board, engine)
    for hole in board.center_ring.pins_by_seat[0]:
        w.add_pin(hole)
    return w


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("die", [-1, MAX_DIE_ID + 1, 10**23, 99999999999999999999999])
def test_die_ids_outside_0_to_2_31_are_refused(engine: str, die: int) -> None:
    """``add_die`` refuses an id outside 0..2**31-1 with a WorldError naming
    it, and a flick of such an id is a FlickError naming it.

    What broke: -1 and 10**23 were accepted by add_die; a flick of 10**23
    crashed the settled-state digest (struct.error, a RuntimeError in the
    fidelity runner) on both engines."""
    w = _world(engine)
    with pytest.raises(WorldError, match=str(die)):
        w.add_die(die, *FREE)
    assert w.dice == ()
    with pytest.raises(FlickError, match=str(die)):
        w.flick(Flick(die, (0.0, 300.0), launch=LaunchKind.HIGH, start=(-9.5, -193.0),
                      height_mm=40.0))  # fmt: skip
    w.add_die(MAX_DIE_ID, *FREE)
    assert w.dice == (MAX_DIE_ID,)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"strike_mm": "3"}, "strike_mm"),
        ({"strike_mm": True}, "strike_mm"),
        ({"strike_mm": None}, "strike_mm"),
        ({"spin": "1"}, "spin"),
        ({"spin": False}, "spin"),
        ({"height_mm": True}, "height_mm"),
        ({"velocity": ("1", 2.0)}, "velocity"),
        ({"velocity": (1.0, 2.0, 3.0)}, "velocity"),
        ({"velocity": (True, 2.0)}, "velocity"),
        ({"start": "ab"}, "start"),
        ({"die": 1.0}, "die"),
        ({"die": True}, "die"),
    ],
)
def test_a_flick_of_non_numbers_is_a_flick_error_naming_the_field(
    kwargs: dict[str, object], field: str
) -> None:
    """What broke: ``strike_mm="3"`` gave a bare TypeError deep in the
    checks and ``strike_mm=True`` was taken as 1 mm."""
    args: dict[str, object] = {"die": 0, "velocity": (0.0, 300.0), **kwargs}
    with pytest.raises(FlickError, match=f"flick {field}"):
        Flick(**args)  # type: ignore[arg-type]


def test_flick_numbers_are_stored_as_floats() -> None:
    f = Flick(0, [1, 2], 3, LaunchKind.HIGH, [4, 5], 40, 2)  # type: ignore[arg-type]
    assert (f.velocity, f.spin, f.start, f.height_mm, f.strike_mm) == (
        (1.0, 2.0), 3.0, (4.0, 5.0), 40.0, 2.0,
    )  # fmt: skip
    assert all(type(v) is float for v in (*f.velocity, f.spin, f.height_mm, f.strike_mm))


@pytest.mark.parametrize("engine", ENGINES)
def test_a_siege_flick_needs_a_siege_engine(engine: str) -> None:
    """What broke: a SIEGE flick with no engine placed was simulated (the
    die fell 60 mm from thin air)."""
    w = _world(engine)
    h = BOARD.siege_engine.launch_height_mm
    siege = Flick(3, (0.0, 300.0), launch=LaunchKind.SIEGE, start=(-150.0, 130.5), height_mm=h)
    with pytest.raises(FlickError, match="no siege engine is placed"):
        w.flick(siege)
    assert w.dice == ()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("at", "blocker"),
    [
        ((0.0, -200.0), "a wall of castle 0"),  # across the front wall
        ((0.0, -60.0), "the pin in hole 9"),  # on seat 0's ring pin
        ((-200.0, 0.0), "a wall of castle 1"),
    ],
)
def test_the_siege_engine_is_not_placed_on_a_wall_or_a_pin(
    engine: str, at: tuple[float, float], blocker: str
) -> None:
    """``place_siege_engine`` refuses a place overlapping a wall or a pin,
    naming it, and keeps the engine where it stood.

    What broke: both engines put it anywhere on the board, across a wall or
    over a pin."""
    w = _world(engine)
    w.place_siege_engine(*FREE)
    with pytest.raises(WorldError, match=f"would overlap {blocker}"):
        w.place_siege_engine(*at)
    assert w.siege_engine == FREE  # type: ignore[attr-defined]
    w.place_siege_engine(FREE[0] + 100.0, FREE[1])  # a free place: moved there
    assert w.siege_engine == (FREE[0] + 100.0, FREE[1])  # type: ignore[attr-defined]


@pytest.mark.skipif(_NO_MUJOCO, reason="needs the reference extra")
def test_the_strike_limit_of_a_cuboid_is_half_its_height(tmp_path: Path) -> None:
    """On a 16 x 16 x 10 mm die the finger strikes within 5 mm of the
    centre (half the body z side), not within size_mm / 2 = 8 mm.

    What broke: the limit was size_mm / 2 for every die: 7 mm passed, a
    blow above the top face of a 10 mm high die."""
    text = Path(BOARD.path).read_text()
    path = tmp_path / "cuboid.toml"
    path.write_text(
        text.replace("# sides_mm = [16.0, 16.0, 16.0]", "sides_mm = [16.0, 16.0, 10.0]")
    )
    w = make_world(load_board(path), "reference")
    w.add_die(0, *FREE)
    with pytest.raises(FlickError, match=r"-5\.\.5 mm .*die.sides_mm\[2\].*got 7"):
        w.flick(Flick(0, (0.0, 300.0), strike_mm=7.0))
    assert w.pose(0).x == FREE[0]


def test_a_spin_at_the_limit_is_allowed_and_beyond_it_refused() -> None:
    """Guards the flick check's spin bound (``abs(spin) > MAX_FLICK_SPIN``;
    a ``>=`` refused a flick spun at exactly the documented limit, 200
    rad/s, which the hand and the bots may deliver): either sign at the
    limit passes, the next float beyond it is refused naming the maximum."""
    import math

    from warlords_sim.physics.checks import MAX_FLICK_SPIN, validate_flick

    assert MAX_FLICK_SPIN == 200.0
    for sign in (1.0, -1.0):
        validate_flick(Flick(0, (0.0, 300.0), spin=sign * MAX_FLICK_SPIN), BOARD, True, False)
        beyond = sign * math.nextafter(MAX_FLICK_SPIN, math.inf)
        with pytest.raises(FlickError, match="over the maximum of 200 rad/s"):
            validate_flick(Flick(0, (0.0, 300.0), spin=beyond), BOARD, True, False)
