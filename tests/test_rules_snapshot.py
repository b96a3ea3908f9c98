"""A :class:`Snapshot` copies a game state as :meth:`GameState.copy` does.

The search bot plays every candidate flick on a copy unpickled from one
snapshot, so a copy that drifted from the real game (a contact's cached
impulse lost, a float rounded) would make it plan on a different game from
the one it plays. These tests compare digests flick by flick against
:meth:`GameState.copy` and (a saved case, failing today) against the
original game.
"""

from __future__ import annotations

import numpy as np
import pytest
from rules_helpers import BOARD

from warlords_sim.bots import make_bot
from warlords_sim.rules import Game, GameConfig
from warlords_sim.rules.snapshot import Snapshot


def _game(actions: int, players: int = 2) -> tuple[Game, list[object]]:
    """A game on the real physics after ``actions`` aim-bot actions, and
    the bots' next actions (decided on the original) to replay on copies."""
    g = Game(GameConfig(BOARD, players=players))
    bots = [make_bot("aim") for _ in range(players)]
    rngs = [np.random.default_rng(40 + p) for p in range(players)]
    for _ in range(actions):
        legal = g.legal_actions()
        g.apply(bots[legal.player].choose(g.state, legal, rngs[legal.player]))
    return g, []


def _digest(g: Game) -> tuple[object, ...]:
    s = g.state
    return (
        s.physics.digest(),
        s.active,
        s.round,
        s.pending,
        tuple(s.totals),
        tuple((d.id, d.location, d.pose) for d in s.dice.values()),
    )


def _lockstep(copies: int, actions: int = 8, start: int = 12) -> list[Game]:
    """The four-player game ``start`` actions in (at rest, dice touching), the
    original first, then a :meth:`GameState.copy` and ``copies`` copies
    from one snapshot, all given the same ``actions`` next aim-bot actions."""
    g, _ = _game(start, players=4)
    snap = Snapshot(g.state)
    assert snap.pickled
    games = [g, Game.from_state(g.state.copy())]
    games += [Game.from_state(snap.copy()) for _ in range(copies)]
    bots = [make_bot("aim") for _ in range(4)]
    rng = np.random.default_rng(7)
    for _ in range(actions):
        legal = g.legal_actions()
        action = bots[legal.player].choose(g.state, legal, rng)
        for h in games:
            h.apply(action)
    return games


def test_snapshot_copies_continue_bitwise_like_state_copies() -> None:
    """Eight more aim-bot actions give the same digest, dice and scores on
    a :meth:`GameState.copy` and on two copies from one snapshot: the
    search bot plans on copies that behave exactly like the copies the
    rest of the code makes."""
    games = _lockstep(copies=2)
    first = _digest(games[1])
    assert all(_digest(h) == first for h in games[2:])


@pytest.mark.xfail(
    strict=True,
    reason="open bug: pymunk's contact order depends on its spatial index's history, "
    "which a copy does not reproduce",
)
def test_copies_continue_bitwise_like_the_original_game() -> None:
    """Saved case: a copy taken at rest must continue bit for bit like the
    game it was copied from.

    What broke: thirty-six actions in, one of the next eight parts the
    original from a copy on model 2.5d-11 (starts 12, 16, ..., 32
    continue alike there; on 2.5d-10 with the hands of issue 20, fifty-six
    in; on 2.5d-10 before the hands, forty in; twelve in, which parted on
    2.5d-9). On
    2.5d-9: twelve actions in, the third of the next eight (die 18
    flicked at 662 mm/s) parts the original from a copy,
    by up to 5 micrometres (on 2.5d-7 there too, a launch pushing a row of
    three dice; on 2.5d-8, which did not part there, forty actions in, the
    sixth of eight, by 0.1-0.2 micrometres). The copy has the same
    bodies, joints and cached contacts, but pymunk rebuilds its spatial
    index by inserting the shapes afresh, so in the step where die 21
    pushes die 20 into die 19 it meets the contacts (21, 20) and (20, 19)
    in the other order, and the solver's sweep (Gauss-Seidel) rounds
    differently. A second cause found on the way: pymunk 7.3 copies a
    joint's settings but not the impulse it accumulated (kept in an opaque
    C struct), so a die that just stopped keeps its stopping friction
    impulse as a warm start in the original but not in a copy.
    ``python benchmarks/copies.py --games 1`` (one four-player aim game, a
    copy before each of its 413 actions) measured: 129 actions ended with
    the copy's digest different from the game's, the largest die
    displacement 0.014 mm at the median (0.18 mm at p90, 2.8 mm at most),
    and never a die in another place (board, courtyard, out). Copies agree
    with each other (test above), so a planning bot is deterministic; what
    it plans on is the same game, mostly to hundredths of a millimetre."""
    games = _lockstep(copies=0, start=36)
    assert _digest(games[0]) == _digest(games[1])


def test_copies_are_independent_of_each_other_and_of_the_original() -> None:
    """A flick on one copy moves nothing in another copy or in the game,
    and a flick on the game after the snapshot does not reach new copies."""
    g, _ = _game(6)
    before = _digest(g)
    snap = Snapshot(g.state)
    a, b = Game.from_state(snap.copy()), Game.from_state(snap.copy())
    legal = a.legal_actions()
    a.apply(make_bot("aim").choose(a.state, legal, np.random.default_rng(1)))
    assert _digest(a) != before
    assert _digest(b) == before == _digest(g)
    g.apply(make_bot("aim").choose(g.state, g.legal_actions(), np.random.default_rng(2)))
    assert _digest(Game.from_state(snap.copy())) == before


def test_a_physics_that_cannot_be_pickled_is_copied_instead() -> None:
    """An engine holding something pickle refuses (here a lambda; the
    reference engine's compiled MuJoCo model in real use) still gives
    independent, identical copies, through :meth:`GameState.copy`."""
    g, _ = _game(4)
    g.state.physics.unpicklable = lambda: None  # type: ignore[attr-defined]
    snap = Snapshot(g.state)
    assert not snap.pickled
    c = snap.copy()
    assert c is not g.state and c.physics is not g.state.physics
    assert _digest(Game.from_state(c)) == _digest(g)


def test_a_physics_whose_pickling_raises_anything_is_copied_instead() -> None:
    """An object whose ``__reduce__`` raises ValueError (not a pickling
    error) also falls back to :meth:`GameState.copy` (it escaped before)."""

    class Stubborn:
        def __reduce__(self) -> tuple[object, ...]:
            raise ValueError("no")

        def __deepcopy__(self, memo: dict[int, object]) -> Stubborn:
            return self

    g, _ = _game(2)
    g.state.physics.stubborn = Stubborn()  # type: ignore[attr-defined]
    snap = Snapshot(g.state)
    assert not snap.pickled
    assert _digest(Game.from_state(snap.copy())) == _digest(g)


def test_a_snapshot_of_something_else_is_refused() -> None:
    with pytest.raises(TypeError, match="needs a GameState, got NoneType"):
        Snapshot(None)  # type: ignore[arg-type]
