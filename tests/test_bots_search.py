"""The ``search`` bot (issue 13 item 1): deterministic, within its budget,
legal in every phase, and its score prefers what wins games.

The phase test plays search against random over :class:`RandomPhysics`
(landings at random: off the board, in courtyards, gateways and the center
ring), which reaches every pending ability far more often than real flicks
do; the determinism and budget tests run on the real 2.5D physics.
"""

from __future__ import annotations

import numpy as np
import pytest
from rules_helpers import BOARD, COURTYARD, OPEN, place

from warlords_sim.bots import RandomBot, SearchBot, make_bot, play_game
from warlords_sim.bots.policy import HAND_DRAWS
from warlords_sim.bots.search import Weights, evaluate
from warlords_sim.rules import Game, GameConfig, GameState, PendingKind
from warlords_sim.rules.legal import is_legal
from warlords_sim.rules.scripted import RandomPhysics


def _mid_game(flicks: int = 6) -> Game:
    """A two-player game on the real physics after ``flicks`` aim-bot
    actions, and any pending ability they left played out by the aim bot
    too, so that a flick is due (on model 2.5d-9 the sixth action leaves a
    Sapper pending, whose only search candidate is to decline)."""
    g = Game(GameConfig(BOARD, players=2))
    aim = make_bot("aim")
    rng = np.random.default_rng(5)
    for _ in range(flicks):
        g.apply(aim.choose(g.state, g.legal_actions(), rng))
    while g.legal_actions().pending is not None:
        g.apply(aim.choose(g.state, g.legal_actions(), rng))
    assert g.legal_actions().can_flick
    return g


def _snapshot(state: GameState) -> tuple[object, ...]:
    return (
        state.active,
        state.pending,
        state.round_flicks,
        tuple((d.id, d.location, d.pose) for d in state.dice.values()),
        state.physics.pins,
    )


def test_same_seed_same_choice_and_the_state_is_left_alone() -> None:
    """Two fresh bots given the same state and seed choose the same action
    (every draw comes from the rng given); a different seed changes the
    hand noise; the state the bot planned on is unchanged."""
    g = _mid_game()
    before = _snapshot(g.state)
    legal = g.legal_actions()
    a = SearchBot(0.7, 4, 2).choose(g.state, legal, np.random.default_rng(11))
    b = SearchBot(0.7, 4, 2).choose(g.state, legal, np.random.default_rng(11))
    c = SearchBot(0.7, 4, 2).choose(g.state, legal, np.random.default_rng(12))
    assert a == b
    assert a != c
    assert _snapshot(g.state) == before
    assert is_legal(g.state, a)


@pytest.mark.parametrize(("candidates", "samples"), [(3, 2), (5, 3), (8, 4)])
def test_a_decision_simulates_within_its_budget(candidates: int, samples: int) -> None:
    """``last_simulations`` never exceeds candidates x samples and uses at
    least half of it when there is a choice to make (the bot does simulate:
    a bot that never looked ahead would report 0)."""
    g = _mid_game()
    bot = SearchBot(0.7, candidates, samples)
    legal = g.legal_actions()
    assert len(bot.candidates(g.state, legal)) > candidates  # a real choice to cut down
    bot.choose(g.state, legal, np.random.default_rng(0))
    assert bot.budget == candidates * samples
    assert bot.budget // 2 <= bot.last_simulations <= bot.budget


def test_a_forced_choice_is_not_simulated() -> None:
    """With one candidate there is nothing to compare: no flick is simulated."""
    g = _mid_game()
    bot = SearchBot(0.7, 1, 5)
    bot.choose(g.state, g.legal_actions(), np.random.default_rng(0))
    assert bot.last_simulations == 0


def test_successive_halving_plays_the_winner_most() -> None:
    """Successive halving: the candidate ranked first was played at least as
    often as any other, and more often than those dropped in the first
    round; every play counts against the budget."""
    g = _mid_game()
    bot = SearchBot(0.7, 8, 4)
    legal = g.legal_actions()
    shortlist = bot.shortlist(bot.candidates(g.state, legal))
    plays: dict[int, int] = {}
    real_play = bot._play

    def counting(snap, c, z, me, rnd):  # type: ignore[no-untyped-def]
        plays[id(c)] = plays.get(id(c), 0) + 1
        return real_play(snap, c, z, me, rnd)

    bot._play = counting  # type: ignore[method-assign]
    noise = np.random.default_rng(3).standard_normal((bot.budget, HAND_DRAWS))
    ranked = bot.rank(g.state, shortlist, noise)
    assert sorted(map(id, ranked)) == sorted(map(id, shortlist))
    counts = [plays.get(id(c), 0) for c in ranked]
    assert counts[0] == max(counts)
    assert counts[0] > min(counts) >= 1
    assert sum(counts) == bot.last_simulations <= bot.budget


@pytest.mark.parametrize(
    ("candidates", "samples", "match"),
    [
        (0, 3, "candidates must be in 1..100"),
        (16, -1, "samples must be in 1..100"),
        (10**9, 1, "candidates must be in 1..100"),
        (2.5, 3, "candidates must be a whole number"),
        (float("nan"), 3, "candidates must be a whole number"),
        (16, float("inf"), "samples must be a whole number"),
        ("16", 3, "candidates must be a whole number"),
        (None, 3, "candidates must be a whole number"),
        (True, 3, "candidates must be a whole number"),
    ],
)
def test_bad_budget_is_refused(candidates: object, samples: object, match: str) -> None:
    """A budget that is not a whole number in range is refused when the bot
    is made, not deep inside its first decision (a break-it review found
    slices of floats and a 134 GiB noise array)."""
    with pytest.raises(ValueError, match=match):
        SearchBot(0.7, candidates, samples)  # type: ignore[arg-type]


def test_a_numpy_integer_budget_is_taken() -> None:
    assert SearchBot(0.7, np.int64(4), np.int32(2)).budget == 8


@pytest.mark.parametrize(
    ("field", "value", "match"),
    [
        ("threat_mm", 0.0, "threat_mm must be above 0"),
        ("damage", float("nan"), "damage must be a finite number"),
        ("die", float("inf"), "die must be a finite number"),
    ],
)
def test_bad_weights_are_refused(field: str, value: float, match: str) -> None:
    """``threat_mm = 0`` divided by zero in the first decision; a NaN weight
    made every score NaN."""
    with pytest.raises(ValueError, match=match):
        Weights(**{field: value})  # type: ignore[arg-type]


def test_a_legal_action_in_every_phase() -> None:
    """Search (small budget) against random over random landings: every
    action it returns is legal (play_game raises if not), and between them
    the games reach a plain turn, a second flick (Scout or General) and the
    Spy, Sapper and ring-pin decisions."""
    seen: set[PendingKind | None] = set()

    class Watch:
        name = "search"

        def __init__(self) -> None:
            self.bot = SearchBot(0.7, 3, 2)

        def choose(self, state, legal, rng):  # type: ignore[no-untyped-def]
            seen.add(legal.pending.kind if legal.pending is not None else None)
            action = self.bot.choose(state, legal, rng)
            assert self.bot.last_simulations <= self.bot.budget
            return action

    config = GameConfig(BOARD, players=2)
    for seed in range(6):
        physics = RandomPhysics(BOARD, np.random.default_rng(seed), config.castle_seats())
        rec = play_game(config, [Watch(), RandomBot()], seed=seed, physics=physics)
        assert rec.state.over
    assert None in seen
    assert {PendingKind.SPY, PendingKind.SAPPER, PendingKind.RING} <= seen
    assert seen & {PendingKind.SCOUT, PendingKind.GENERAL}


def test_the_score_prefers_damage_dealt_and_dice_kept() -> None:
    """:func:`evaluate`: player 0's die in player 1's courtyard (seat 2)
    scores its face for player 0 and against player 1; a die of player 0
    on the open board counts as a die in play like one in the supply."""
    g = Game(GameConfig(BOARD, players=2), RandomPhysics(BOARD, np.random.default_rng(0), (0, 2)))
    w = Weights()
    base0 = evaluate(g.state, 0, w, 0)
    place(g, 0, *COURTYARD[2], 5)
    assert evaluate(g.state, 0, w, 0) == pytest.approx(base0 + 5.0 * w.damage - w.die)
    assert evaluate(g.state, 1, w, 0) < evaluate(g.state, 0, w, 0)
    h = Game(GameConfig(BOARD, players=2), RandomPhysics(BOARD, np.random.default_rng(0), (0, 2)))
    place(h, 0, *OPEN, 2)
    assert evaluate(h.state, 0, w, 0) == pytest.approx(
        base0 + w.threat * _exp_threat(h.state), rel=1e-9
    )


def _exp_threat(state: GameState) -> float:
    import math

    from warlords_sim.bots.aim import castle_targets

    d = state.dice[0].pose
    assert d is not None
    near = min(math.hypot(d.x - t.score[0], d.y - t.score[1]) for t in castle_targets(state, 0))
    return math.exp(-near / Weights().threat_mm)
