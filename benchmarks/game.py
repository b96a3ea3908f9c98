"""CPU time of whole 4-player games of ``aim`` bots and of ``random`` bots.

For each bot kind, ``--games`` games (seeds 0..N-1) are played in this one
process on the standard board. Prints, per kind, the median CPU time
(``time.process_time``) a game, not counting interpreter start-up, and its
split by layer: the bots choosing (``Policy.choose``), the physics resolving
flicks (``World.flick``, the siege engine placed by the rules included in
"rules"), and the rules and everything else (legal actions, checks, scoring,
bookkeeping). The aim bot's launch tables are loaded (or measured and saved
to the user cache) once before the games and timed on their own line.

With ``--profile N`` one extra aim-bot game (seed 0) runs under cProfile and
its N most expensive functions (own time) are printed.

Run:  python benchmarks/game.py [--games N] [--profile N]
Goal (issue 10, target 3): a 4-player aim-bot game < 0.3 s CPU.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time
from dataclasses import dataclass

import numpy as np

from warlords_sim.board import Board, load_board
from warlords_sim.bots import Policy, launch_table_warmup, make_bot, play_game
from warlords_sim.physics.types import Flick, FlickResult
from warlords_sim.physics.world import World
from warlords_sim.rules import GameConfig
from warlords_sim.rules.actions import Action
from warlords_sim.rules.game import GameState
from warlords_sim.rules.legal import Legal

GOAL_S = 0.3


@dataclass
class Clock:
    """CPU seconds spent in the bots and in the physics of one game."""

    bots: float = 0.0
    physics: float = 0.0


class TimedBot:
    """A policy that adds the CPU time of its ``choose`` to a :class:`Clock`."""

    def __init__(self, policy: Policy, clock: Clock) -> None:
        self.policy, self.clock, self.name = policy, clock, policy.name

    def choose(self, state: GameState, legal: Legal, rng: np.random.Generator) -> Action:
        t = time.process_time()
        try:
            return self.policy.choose(state, legal, rng)
        finally:
            self.clock.bots += time.process_time() - t


class TimedWorld(World):
    """The real world, adding the CPU time of each resolved flick to a :class:`Clock`."""

    clock: Clock

    def flick(self, flick: Flick, face: int | None = None, max_time: float = 60.0) -> FlickResult:
        t = time.process_time()
        try:
            return super().flick(flick, face, max_time)
        finally:
            self.clock.physics += time.process_time() - t


def timed_game(config: GameConfig, bot: str, seed: int) -> tuple[float, Clock, int]:
    """(CPU s, split, flicks) of one game of four ``bot`` bots."""
    clock = Clock()
    world = TimedWorld(config.board)
    world.clock = clock
    bots = [TimedBot(make_bot(bot), clock) for _ in range(4)]
    t = time.process_time()
    rec = play_game(config, bots, seed=seed, physics=world)
    return time.process_time() - t, clock, rec.flicks


def profile_game(config: GameConfig, top: int) -> None:
    prof = cProfile.Profile()
    prof.enable()
    play_game(config, [make_bot("aim") for _ in range(4)], seed=0)
    prof.disable()
    print(f"\ncProfile of one aim-bot game (seed 0), top {top} by own time:")
    pstats.Stats(prof).sort_stats("tottime").print_stats(top)


def warm(board: Board) -> float:
    t = time.process_time()
    launch_table_warmup(board)
    return time.process_time() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--profile", type=int, default=0, metavar="N")
    args = parser.parse_args()
    board = load_board("standard")
    config = GameConfig(board, 4)
    print(f"launch tables (disk cache or measured): {warm(board) * 1000:.0f} ms CPU, once")
    for bot in ("aim", "random"):
        rows = [timed_game(config, bot, seed) for seed in range(args.games)]
        cpu = [r[0] for r in rows]
        total = sum(cpu)
        bots = sum(r[1].bots for r in rows) / total
        phys = sum(r[1].physics for r in rows) / total
        med = statistics.median(cpu)
        goal = f"; goal < {GOAL_S} s: {med / GOAL_S:.2f}x the goal" if bot == "aim" else ""
        print(
            f"{bot:>6}: median {med:.3f} s CPU a game (min {min(cpu):.3f}, max {max(cpu):.3f}; "
            f"median {statistics.median(r[2] for r in rows):.0f} flicks, "
            f"{1000 * total / sum(r[2] for r in rows):.2f} ms a flick; {args.games} games{goal})"
        )
        print(
            f"{'':>6}  split: bots {bots:.0%}, physics {phys:.0%}, "
            f"rules and the rest {1 - bots - phys:.0%}"
        )
    if args.profile:
        profile_game(config, args.profile)


if __name__ == "__main__":
    main()
