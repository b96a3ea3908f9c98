"""Playing a whole game with one policy per player."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from warlords_sim.bots.policy import Policy
from warlords_sim.rules.engine import Game, Outcome
from warlords_sim.rules.errors import IllegalActionError
from warlords_sim.rules.game import GameConfig, GameState
from warlords_sim.rules.physics_port import Physics

__all__ = ["GameRecord", "play_game", "player_rngs"]


def player_rngs(seed: int, players: int) -> list[np.random.Generator]:
    """One generator per player, spawned from the game's ``seed``
    (``SeedSequence(seed).spawn(players)``): player p draws only from the
    p-th. The one way a game's generators are seeded: bot games
    (:func:`play_game`), the window (``gui.controller``) and the replay's
    rebuild (``replay.rebuild``) all call it, so a recorded game re-draws
    the same bot choices and hand noise when it is replayed or continued.

    Args:
        seed: the game's seed (an int >= 0, as ``SeedSequence`` takes).
        players: how many generators, >= 1.

    Raises:
        ValueError: ``players`` below 1, or a negative ``seed`` (numpy's).
    """
    if players < 1:
        raise ValueError(f"need at least one player's generator, got players={players}")
    return [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(players)]


@dataclass
class GameRecord:
    """A finished game: its final state, the actions taken (as dicts) and the seed."""

    seed: int
    bots: tuple[str, ...]
    state: GameState
    actions: list[dict[str, object]]

    @property
    def flicks(self) -> int:
        return self.state.flicks


def play_game(
    config: GameConfig,
    policies: Sequence[Policy],
    seed: int = 0,
    physics: Physics | None = None,
    on_outcome: Callable[[GameState, Outcome], None] | None = None,
    max_actions: int = 100_000,
) -> GameRecord:
    """Play a whole game: ``policies[p]`` plays player p, each with its own
    Generator spawned from ``seed`` (:func:`player_rngs`: same seed, same game).

    Raises:
        ValueError: not one policy per player.
        IllegalActionError: a policy chose an illegal action (names the policy).
        RuntimeError: the game did not end within ``max_actions``.
    """
    if len(policies) != config.players:
        raise ValueError(f"need {config.players} policies (one per player), got {len(policies)}")
    rngs = player_rngs(seed, config.players)
    game = Game(config, physics)
    actions: list[dict[str, object]] = []
    for _ in range(max_actions):
        if game.over:
            break
        state = game.state
        legal = game.legal_actions()
        p = legal.player
        action = policies[p].choose(state, legal, rngs[p])
        try:
            outcome = game.apply(action)
        except IllegalActionError as e:
            raise type(e)(f"bot {policies[p].name!r} (player {p}): {e}") from e
        actions.append(action.to_dict())
        if on_outcome is not None:
            on_outcome(game.state, outcome)
    else:
        raise RuntimeError(f"the game did not end within {max_actions} actions")
    return GameRecord(seed, tuple(pol.name for pol in policies), game.state, actions)
