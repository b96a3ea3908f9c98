"""Median wall time of whole 4-player games of ``aim`` bots and of ``random`` bots.

Run:  python benchmarks/game.py [--games N]
Goal: under 2 s a game on the development machine.
"""

from __future__ import annotations

import argparse
import statistics
import time

from warlords_sim.board import load_board
from warlords_sim.bots import launch_table_warmup, make_bot, play_game
from warlords_sim.rules import GameConfig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    board = load_board("standard")
    config = GameConfig(board, 4)
    launch_table_warmup(board)  # the aim bot's one-off launch measurements
    for bot in ("aim", "random"):
        times, flicks = [], []
        for seed in range(args.games):
            t = time.perf_counter()
            rec = play_game(config, [make_bot(bot) for _ in range(4)], seed=seed)
            times.append(time.perf_counter() - t)
            flicks.append(rec.flicks)
        print(
            f"{bot:>6}: median {statistics.median(times):.2f} s a game "
            f"(min {min(times):.2f}, max {max(times):.2f}; median {statistics.median(flicks):.0f} "
            f"flicks; {args.games} games)"
        )


if __name__ == "__main__":
    main()
