"""The memo of free places (rules/places.py) never serves a stale answer.

A bot and the rules ask for the same siege-engine or Spy place on the same
state; the second ask is answered from a memo keyed by the physics digest.
Any change of the world (a die added, moved or removed, a pin pulled) must
lead to a fresh search, whose answer is the physics' own.
"""

from __future__ import annotations

import pytest

from warlords_sim.board import load_board
from warlords_sim.physics.world import World
from warlords_sim.rules import Game, GameConfig
from warlords_sim.rules.places import free_spot_near

BOARD = load_board("standard")
WIDTH = BOARD.siege_engine.width_mm


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, float]]:
    calls: list[tuple[float, float]] = []
    real = World.free_spot_near

    def counting(
        self: World, x: float, y: float, width: float, exclude_die: int | None = None
    ) -> tuple[float, float]:
        calls.append((x, y))
        return real(self, x, y, width, exclude_die)

    monkeypatch.setattr(World, "free_spot_near", counting)
    return calls


def test_repeat_served_from_memo_and_changes_searched(searches: list[tuple[float, float]]) -> None:
    state = Game(GameConfig(BOARD, 4)).state
    world = state.physics
    assert isinstance(world, World)
    world.add_die(90, 150.0, -60.0)
    first = free_spot_near(state, 150.0, -60.0, WIDTH)
    assert first != (150.0, -60.0)  # the die is in the way
    assert free_spot_near(state, 150.0, -60.0, WIDTH) == first
    assert len(searches) == 1  # the repeat was not searched
    # the die itself does not count: another key, searched
    assert free_spot_near(state, 150.0, -60.0, WIDTH, exclude_die=90) == (150.0, -60.0)
    assert len(searches) == 2
    world.move_die(90, 100.0, -60.0)  # the world changed: searched afresh
    moved = free_spot_near(state, 150.0, -60.0, WIDTH)
    assert len(searches) == 3
    assert moved == World.free_spot_near(world, 150.0, -60.0, WIDTH)
    world.remove_die(90)
    assert free_spot_near(state, 150.0, -60.0, WIDTH) == (150.0, -60.0)
    assert len(searches) == 5  # (the direct call above counted too)
