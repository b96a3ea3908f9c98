"""Replay speed: verifying a recorded game against simulating it in the first place.

For whole 4-player games of ``aim`` bots: the time to simulate (bots
choosing, physics, rules), to simulate while recording (every line
fsync'd), and to verify the recording (load, re-simulate every action,
compare digests). Prints verify speed in actions per second and the ratio
verify / simulate.

Run:  python benchmarks/replay.py [--games N]
Goal: verify / simulate <= 1.1.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from warlords_sim.board import load_board
from warlords_sim.bots import launch_table_warmup, make_bot, play_game
from warlords_sim.replay import Recorder, load_replay, verify
from warlords_sim.rules import GameConfig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    board = load_board("standard")
    config = GameConfig(board, 4)
    launch_table_warmup(board)  # the aim bot's one-off launch measurements
    sim, rec_t, ver, actions = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(args.games):
            bots = [make_bot("aim") for _ in range(4)]
            t = time.perf_counter()
            play_game(config, bots, seed=seed)
            sim.append(time.perf_counter() - t)

            path = Path(tmp) / f"game{seed}.jsonl"
            bots = [make_bot("aim") for _ in range(4)]
            t = time.perf_counter()
            with Recorder.create(path, config, seed=seed, bots=["aim"] * 4) as rec:
                game = play_game(
                    config,
                    bots,
                    seed=seed,
                    on_outcome=lambda s, o: rec.record(o.action, s, o),
                )
                rec.finish(game)
            rec_t.append(time.perf_counter() - t)

            t = time.perf_counter()
            report = verify(load_replay(path))
            ver.append(time.perf_counter() - t)
            assert report.ok, report.divergence
            actions.append(report.checked)
    total_actions = sum(actions)
    print(
        f"simulate: median {statistics.median(sim):.2f} s a game; "
        f"simulate + record: {statistics.median(rec_t):.2f} s; "
        f"verify: {statistics.median(ver):.2f} s "
        f"(median {statistics.median(actions):.0f} actions; {args.games} games)"
    )
    print(
        f"verify speed: {total_actions / sum(ver):.0f} actions/s; "
        f"verify / simulate: {sum(ver) / sum(sim):.2f} (goal <= 1.1); "
        f"record / simulate: {sum(rec_t) / sum(sim):.2f}"
    )


if __name__ == "__main__":
    main()
