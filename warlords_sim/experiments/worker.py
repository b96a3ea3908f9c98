"""Playing one game from its spec and reducing it to one plain row.

:func:`play` is what a worker runs (a local process, the main process, or a
dask worker: it is picklable by reference and needs only this package
installed). A row holds integers and strings only, so writing it to CSV and
reading it back changes nothing and the statistics of a resumed experiment
equal those of an uninterrupted one.
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any

from warlords_sim.board import Board, board_from_bytes
from warlords_sim.bots import as_skill, make_bot, play_game, skill_label
from warlords_sim.experiments.specs import GameSpec, rules_from_dict
from warlords_sim.rules.game import GameConfig, GameState

__all__ = ["COLUMNS", "MAX_PLAYERS", "Row", "game_row", "play"]

#: A game's row: column name -> int, str, or None (a seat not in the game).
Row = dict[str, Any]

MAX_PLAYERS = 4

#: The columns of ``games.csv``, in order. Per game: ``skill`` the bots' skill
#: as shown (a level's name or a number, :func:`~warlords_sim.bots.skill_label`);
#: ``damage`` is the sum of
#: every player's damage; ``winners`` the winning players separated by spaces
#: (several on a shared win); ``offboard`` dice eliminated (off the board or over
#: the side walls, summed over the rounds); ``wall_exits`` dice that left over the
#: side walls; ``final_die_rounds`` rounds ended by the final-die rule (a
#: non-active player's last die knocked off); ``siege_shots`` flicks from the
#: siege engine; ``side_wall_rounds`` rounds played with side walls;
#: ``wall1_triggered`` 1 if wall variant 1's walls came up.
COLUMNS: tuple[str, ...] = (
    "variant",
    "skill",
    "index",
    "seed",
    "players",
    "wall_variant",
    "rounds",
    "first_player",
    "winners",
    "damage",
    *(f"damage_p{p}" for p in range(MAX_PLAYERS)),
    "offboard",
    "wall_exits",
    "flicks",
    "final_die_rounds",
    "siege_shots",
    "side_wall_rounds",
    "wall1_triggered",
)


@functools.lru_cache(maxsize=4)
def _board_of(file: str, sha256: str, toml: str) -> Board:
    raw = toml.encode("utf-8")
    if hashlib.sha256(raw).hexdigest() != sha256:
        raise ValueError(f"board {file}: the spec's text does not have the SHA-256 {sha256}")
    return board_from_bytes(raw, file)


def _board(spec: GameSpec) -> Board:
    """The spec's board, built from the file's text it carries (cached: a
    worker plays many games on one board)."""
    b = spec["board"]
    return _board_of(b["file"], b["sha256"], b["toml"])


def game_row(spec: GameSpec, state: GameState) -> Row:
    """The row of a finished game."""
    rules = state.config.house_rules
    history = state.history
    n = state.players
    wall1 = rules.wall_variant == "wall1"
    row: Row = {
        "variant": spec["variant"],
        "skill": skill_label(as_skill(spec["skill"])),
        "index": spec["index"],
        "seed": spec["seed"],
        "players": n,
        "wall_variant": rules.wall_variant,
        "rounds": len(history),
        "first_player": history[0].first_player if history else rules.first_player,
        "winners": " ".join(str(w) for w in state.winners),
        "damage": sum(state.totals),
        **{f"damage_p{p}": (state.totals[p] if p < n else None) for p in range(MAX_PLAYERS)},
        "offboard": sum(sum(r.eliminated) for r in history),
        "wall_exits": sum(r.counts.wall_exits for r in history),
        "flicks": state.flicks,
        "final_die_rounds": sum(1 for r in history if r.counts.final_die_end),
        "siege_shots": sum(r.counts.siege_shots for r in history),
        "side_wall_rounds": sum(1 for r in history if r.side_walls),
        "wall1_triggered": int(wall1 and any(r.side_walls for r in history)),
    }
    return row


def play(spec: GameSpec) -> Row:
    """Play the game ``spec`` describes (on the board whose text it carries)
    and return its row.

    Raises:
        HouseRulesError, BoardError, ValueError: the spec is not a valid game.
    """
    rules = rules_from_dict(spec["rules"], f"variant {spec['variant']!r}")
    config = GameConfig(_board(spec), spec["players"], rules)
    policies = [make_bot(name, spec["skill"]) for name in spec["bots"]]
    record = play_game(config, policies, spec["seed"])
    return game_row(spec, record.state)
