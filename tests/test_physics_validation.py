"""Input validation of the physics world: bad flicks raise ``FlickError``
and bad world edits raise ``WorldError`` (both ``ValueError``), with a
message that names the problem, and leave the world unchanged."""

from __future__ import annotations

import math

import pytest

from warlords_sim.board import Board, Crenelation, load_board
from warlords_sim.physics import (
    MAX_FLICK_SPEED,
    Flick,
    FlickError,
    LaunchKind,
    World,
    WorldError,
)

NAN = float("nan")
INF = float("inf")


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board("standard")


@pytest.fixture
def world(board: Board) -> World:
    w = World(board)
    for hole in board.center_ring.pins_by_seat[0]:
        w.add_pin(hole)
    w.add_die(1, -150.0, 100.0, face=3)
    return w


def test_errors_are_value_errors() -> None:
    """Callers may catch either error as ``ValueError`` (python-chess style)."""
    assert issubclass(FlickError, ValueError)
    assert issubclass(WorldError, ValueError)


# ------------------------------------------------------------------ flicks


@pytest.mark.parametrize(
    "velocity",
    [(NAN, 0.0), (0.0, NAN), (INF, 0.0), (0.0, -INF), (NAN, NAN)],
)
def test_non_finite_velocity(world: World, velocity: tuple[float, float]) -> None:
    """NaN or infinite velocity components are refused with FlickError naming the velocity."""
    with pytest.raises(FlickError, match="velocity"):
        world.flick(Flick(1, velocity))


@pytest.mark.parametrize("spin", [NAN, INF, -INF])
def test_non_finite_spin(world: World, spin: float) -> None:
    """NaN or infinite spin is refused."""
    with pytest.raises(FlickError, match="spin"):
        world.flick(Flick(1, (100.0, 0.0), spin=spin))


@pytest.mark.parametrize(
    "velocity",
    [(MAX_FLICK_SPEED + 1.0, 0.0), (0.0, -MAX_FLICK_SPEED * 1.001), (1500.0, 1500.0)],
)
def test_speed_over_maximum(world: World, velocity: tuple[float, float]) -> None:
    """A speed over MAX_FLICK_SPEED is refused; the message names the maximum."""
    with pytest.raises(FlickError, match="maximum"):
        world.flick(Flick(1, velocity))


def test_speed_at_maximum_along_an_axis_is_accepted(world: World) -> None:
    """Exactly MAX_FLICK_SPEED is allowed (the limit is inclusive)."""
    world.flick(Flick(1, (MAX_FLICK_SPEED, 0.0)))


def test_speed_at_maximum_in_any_direction_is_accepted(board: Board) -> None:
    """A flick of MAX_FLICK_SPEED built from an angle (as bots and the GUI
    build flicks: speed * (cos a, sin a)) must be accepted.

    What broke (fixed): ``hypot(2000 cos a, 2000 sin a)`` is
    2000.0000000000002 for some angles and ``validate`` compared with ``>``
    exactly, so the flick was refused with "flick speed 2000.0 mm/s is over
    the maximum of 2000 mm/s".
    """
    refused = []
    for i in range(360):
        a = math.radians(i)
        w = World(board)
        w.add_die(1, 0.0, 0.0)
        flick = Flick(1, (MAX_FLICK_SPEED * math.cos(a), MAX_FLICK_SPEED * math.sin(a)))
        try:
            w.validate(flick)
        except FlickError:
            refused.append(i)
    assert refused == []


@pytest.mark.parametrize("start", [(301.0, 0.0), (0.0, -300.5), (400.0, 400.0)])
@pytest.mark.parametrize("launch", [LaunchKind.TABLE, LaunchKind.LOW, LaunchKind.HIGH])
def test_start_off_the_board(world: World, start: tuple[float, float], launch: LaunchKind) -> None:
    """A start point off the board is refused, whatever the launch kind."""
    height = 0.0 if launch is LaunchKind.TABLE else 20.0
    with pytest.raises(FlickError, match="off the board"):
        world.flick(Flick(1, (100.0, 0.0), launch=launch, start=start, height_mm=height))


@pytest.mark.parametrize("start", [(NAN, 0.0), (0.0, INF)])
def test_start_not_finite(world: World, start: tuple[float, float]) -> None:
    """A NaN or infinite start point is refused."""
    with pytest.raises(FlickError):
        world.flick(Flick(1, (100.0, 0.0), launch=LaunchKind.LOW, start=start, height_mm=20.0))


def test_unknown_die(world: World) -> None:
    """A TABLE flick of a die not in the world is refused, naming the die."""
    with pytest.raises(FlickError, match="99"):
        world.flick(Flick(99, (100.0, 0.0)))


@pytest.mark.parametrize("height", [-1.0, NAN, INF])
def test_bad_launch_height(world: World, board: Board, height: float) -> None:
    """A negative or non-finite launch height is refused."""
    spot = board.launch_spot(0, 2, Crenelation.HIGH)
    with pytest.raises(FlickError):
        world.flick(
            Flick(7, (0.0, 500.0), launch=LaunchKind.HIGH, start=(spot.x, spot.y), height_mm=height)
        )


def test_airborne_launch_needs_a_start(world: World) -> None:
    """LOW, HIGH and SIEGE flicks without a start point are refused."""
    for launch in (LaunchKind.LOW, LaunchKind.HIGH, LaunchKind.SIEGE):
        with pytest.raises(FlickError):
            world.flick(Flick(7, (0.0, 500.0), launch=launch, height_mm=20.0))


def test_refused_flick_leaves_world_unchanged(world: World) -> None:
    """Validation happens before anything moves: the digest, the dice and
    the event log are as before a refused flick."""
    before = world.digest()
    dice = world.dice
    for bad in (
        Flick(1, (NAN, 0.0)),
        Flick(1, (MAX_FLICK_SPEED * 2, 0.0)),
        Flick(99, (1.0, 0.0)),
        Flick(7, (0.0, 1.0), launch=LaunchKind.LOW, start=(500.0, 0.0), height_mm=20.0),
    ):
        with pytest.raises(FlickError):
            world.flick(bad)
    assert world.digest() == before
    assert world.dice == dice
    assert world.settled


# ------------------------------------------------------------- world edits


@pytest.mark.parametrize(
    "xy", [(301.0, 0.0), (0.0, -300.01), (-500.0, 500.0), (NAN, 0.0), (0.0, INF)]
)
def test_add_die_off_the_board(board: Board, xy: tuple[float, float]) -> None:
    """A die cannot be put off the board or at a non-finite place."""
    w = World(board)
    with pytest.raises(WorldError):
        w.add_die(1, *xy)
    assert w.dice == ()


def test_add_die_duplicate_id(world: World) -> None:
    """A die id already in the world is refused, and the first die stays put."""
    before = world.pose(1)
    with pytest.raises(WorldError, match="1"):
        world.add_die(1, 100.0, 100.0)
    assert world.pose(1) == before
    assert world.dice == (1,)


@pytest.mark.parametrize("face", [0, 7, -1])
def test_add_die_bad_face(board: Board, face: int) -> None:
    """Faces are 1..6."""
    w = World(board)
    with pytest.raises(ValueError):
        w.add_die(1, 0.0, 0.0, face=face)


def test_remove_pin_from_empty_hole(world: World, board: Board) -> None:
    """Pulling a pin from a hole without one is refused."""
    empty = next(h for h in range(len(board.holes)) if h not in world.pins)
    with pytest.raises(WorldError, match=str(empty)):
        world.remove_pin(empty)


def test_add_pin_twice_or_to_no_hole(world: World, board: Board) -> None:
    """A hole holds one pin; hole numbers outside the board are refused."""
    hole = world.pins[0]
    with pytest.raises(WorldError):
        world.add_pin(hole)
    with pytest.raises(WorldError):
        world.add_pin(len(board.holes))
    with pytest.raises(WorldError):
        world.add_pin(-1)


def test_remove_unknown_die(world: World) -> None:
    """Removing or moving a die not in the world is refused."""
    with pytest.raises(WorldError):
        world.remove_die(42)
    with pytest.raises(WorldError):
        world.move_die(42, 0.0, 0.0)


def test_move_die_off_the_board(world: World) -> None:
    """A die cannot be moved off the board; it stays where it was."""
    before = world.pose(1)
    with pytest.raises(WorldError):
        world.move_die(1, 0.0, 350.0)
    assert world.pose(1) == before
