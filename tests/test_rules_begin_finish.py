"""The rules' split flick (``Game.begin``, the caller stepping the physics,
``Game.finish``), which the window uses to animate flicks, gives exactly what
``Game.apply`` gives: same outcomes, same world digests, same game."""

from __future__ import annotations

import numpy as np

from warlords_sim.board import load_board
from warlords_sim.bots import make_bot
from warlords_sim.physics.world import World
from warlords_sim.rules import GameConfig, HouseRules
from warlords_sim.rules.engine import Game, Launch, Outcome


def _stepped(game: Game, action: object) -> Outcome:
    begun = game.begin(action)  # type: ignore[arg-type]
    if isinstance(begun, Outcome):
        return begun
    assert isinstance(begun, Launch)
    world = game.state.physics
    assert isinstance(world, World)
    t0 = world.time
    initial = world.begin_flick(begun.flick, begun.face)
    steps = 0
    while True:
        world.step()
        steps += 1
        if world.settled:
            break
    return game.finish(begun, world.result(begun.flick, initial, steps, world.time - t0))


def test_begin_step_finish_matches_apply() -> None:
    config = GameConfig(load_board("standard"), 2, HouseRules(rounds=1))
    a, b = Game(config), Game(config)
    bots = [make_bot("aim"), make_bot("random")]
    rng_a = np.random.default_rng(5)
    rng_b = np.random.default_rng(5)
    n = 0
    while not a.over and n < 40:
        p = a.state.active
        act = bots[p].choose(a.state, a.legal_actions(), rng_a)
        act_b = bots[p].choose(b.state, b.legal_actions(), rng_b)
        assert act == act_b
        oa, ob = a.apply(act), _stepped(b, act)
        assert oa == ob
        assert isinstance(a.state.physics, World) and isinstance(b.state.physics, World)
        assert a.state.physics.digest() == b.state.physics.digest()
        n += 1
    assert a.state.totals == b.state.totals and a.over == b.over
