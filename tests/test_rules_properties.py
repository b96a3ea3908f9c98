"""Property tests over random legal action sequences (random-landing fake physics).

Invariants after every action: every die is in exactly one of supply, board,
courtyard, eliminated, and the physics holds exactly the board and courtyard
dice at the poses the state records; pins are conserved; a round's damage is
the face sum of its courtyard dice; the round ends exactly when a player has
no dice in play (or the flick limit is reached).
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_helpers import BOARD

from warlords_sim.bots import RandomBot
from warlords_sim.physics.types import RegionKind
from warlords_sim.rules import Game, GameConfig, GameState, HouseRules, Location
from warlords_sim.rules.actions import SupplyFlick
from warlords_sim.rules.scripted import RandomPhysics


def _check_places(s: GameState) -> None:
    phys = s.physics
    in_world = set(phys.dice)
    for d in s.dice.values():
        assert d.location in Location
        if d.location in (Location.BOARD, Location.COURTYARD):
            assert d.id in in_world and d.pose == phys.pose(d.id)
            kind = d.pose.region.kind
            assert (kind is RegionKind.COURTYARD) == (d.location is Location.COURTYARD)
            assert kind not in (RegionKind.GATEWAY, RegionKind.OFF_BOARD)
        else:
            assert d.id not in in_world and d.pose is None
    assert in_world == {
        d.id for d in s.dice.values() if d.location in (Location.BOARD, Location.COURTYARD)
    }
    assert len(s.dice) == s.players * s.config.dice_per_player


def _pins_total(s: GameState) -> int:
    return len(s.physics.pins) + s.pulled_pins


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    dice=st.integers(1, 6),
    in_play=st.booleans(),
)
def test_random_games_keep_the_invariants(
    seed: int, players: int, dice: int, in_play: bool
) -> None:
    rules = HouseRules(
        dice_per_player=dice, courtyard_dice_in_play=in_play, max_flicks_per_round=60
    )
    config = GameConfig(BOARD, players, rules)
    rng = np.random.default_rng(seed)
    game = Game(config, RandomPhysics(BOARD, rng, config.castle_seats()))
    bot = RandomBot()
    pins0 = 3 * players
    for _ in range(600):
        if game.over:
            break
        s = game.state
        legal = game.legal_actions()
        action = bot.choose(s, legal, rng)
        # what the checks below need of the state before the action: each
        # player's supply (a copy of the whole state, whose fake physics is
        # deep-copied with its board, took 80% of the test's time)
        supplies_before = [set(s.supply(p)) for p in range(players)]
        out = game.apply(action)
        s = game.state
        assert _pins_total(s) == pins0
        if out.round_ended is None and not out.game_over:
            _check_places(s)
            for p in range(players):  # nobody is out while the round goes on
                assert s.in_play(p), p
        if out.result is not None:
            # who has dice in play right after the flick, from the physics alone
            placement = out.placement
            assert placement is not None
            res = out.result
            empty = []
            for p in range(players):
                supply = supplies_before[p] - {res.flick.die} | {
                    i for i in placement.returned if config.owner(i) == p
                }
                kinds = (RegionKind.COURTYARD, RegionKind.GATEWAY)
                board = {
                    i
                    for i, pose in res.poses.items()
                    if config.owner(i) == p and (in_play or pose.region.kind not in kinds)
                }
                if not supply and not board:
                    empty.append(p)
            rec = out.round_ended
            if empty:
                assert rec is not None and rec.ended_by == "no_dice" and rec.out_player in empty
            else:
                assert rec is None or rec.ended_by == "flick_limit"
        if out.round_ended is not None:
            rec = out.round_ended
            dmg = [0] * players
            for _die, seat, face in rec.courtyard:
                dmg[rec.seats.index(seat)] += face
            assert rec.damage == dmg
            assert sum(rec.scored_on_opponents) <= sum(rec.damage)
    assert game.over
    s = game.state
    assert len(s.history) == config.rounds
    assert s.totals == [sum(r.damage[p] for r in s.history) for p in range(players)]
    low = min(s.totals)
    assert all(s.totals[w] == low for w in s.winners)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_copy_is_independent(seed: int) -> None:
    from warlords_sim.board import Crenelation

    config = GameConfig(BOARD, 2)
    game = Game(config, RandomPhysics(BOARD, np.random.default_rng(seed), (0, 2)))
    twin = game.copy()
    game.apply(SupplyFlick(2, Crenelation.LOW, (0.0, 500.0)))
    assert twin.state.flicks == 0 and all(
        d.location is Location.SUPPLY for d in twin.state.dice.values()
    )
    assert twin.state.physics.dice == ()
