"""What a copy of a game state costs, and how closely it follows the game.

Plays four-player aim-bot games on the standard board (game i with seed
i). Before every action it copies the state two ways, :meth:`GameState.copy`
(``copy.deepcopy`` of the physics world) and a copy from a
:class:`~warlords_sim.rules.snapshot.Snapshot` (pickled once, unpickled per
copy), times them in CPU seconds, gives the action to the game and to the
deepcopy too, and compares the two afterwards:

* CPU ms per copy: deepcopy; snapshot made once (pickling); copy from it;
* how many actions left the copy's world digest different from the game's
  (the copy does not reproduce pymunk's spatial index, so contacts can be
  solved in another order: tests/test_rules_snapshot.py), the largest die
  displacement (mm) those actions left, and whether any die ended in
  another place (board, courtyard, out).

Usage: python benchmarks/copies.py [--games 2]
Writes nothing; prints a Markdown table.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

import numpy as np

from warlords_sim.board import load_board
from warlords_sim.bots import make_bot, player_rngs
from warlords_sim.rules import Game, GameConfig
from warlords_sim.rules.snapshot import Snapshot


def _ms(f: object, n: int = 3) -> float:
    t = time.process_time()
    for _ in range(n):
        f()  # type: ignore[operator]
    return (time.process_time() - t) / n * 1e3


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=2, help="games (default 2)")
    a = ap.parse_args()
    if a.games < 1:
        ap.error("--games must be >= 1")
    board = load_board("standard")
    deep, pick, unpick, moved = [], [], [], []
    actions = differ = places = 0
    for seed in range(a.games):
        g = Game(GameConfig(board, players=4))
        bots = [make_bot("aim") for _ in range(4)]
        rngs = player_rngs(seed, 4)
        while not g.over:
            legal = g.legal_actions()
            action = bots[legal.player].choose(g.state, legal, rngs[legal.player])
            deep.append(_ms(g.state.copy))
            t = time.process_time()
            snap = Snapshot(g.state)
            pick.append((time.process_time() - t) * 1e3)
            unpick.append(_ms(snap.copy))
            c = Game.from_state(g.state.copy())
            g.apply(action)
            c.apply(action)
            actions += 1
            w1, w2 = g.state.physics, c.state.physics
            if w1.digest() == w2.digest():
                continue
            differ += 1
            m = 0.0
            for i in set(w1.dice) & set(w2.dice):
                p, q = w1.pose(i), w2.pose(i)
                m = max(m, math.hypot(p.x - q.x, p.y - q.y))
            moved.append(m)
            if [d.location for d in g.state.dice.values()] != [
                d.location for d in c.state.dice.values()
            ]:
                places += 1
    print(f"## copies of four-player aim games: {a.games} games, {actions} actions\n")
    print("| figure | value |\n|---|---|")
    print(f"| CPU ms per GameState.copy (median) | {statistics.median(deep):.2f} |")
    print(f"| CPU ms to make a Snapshot (median) | {statistics.median(pick):.2f} |")
    print(f"| CPU ms per copy from a Snapshot (median) | {statistics.median(unpick):.2f} |")
    print(f"| actions after which the copy's digest differed | {differ}/{actions} |")
    if moved:
        q = np.quantile(moved, [0.5, 0.9])
        print(
            f"| largest die displacement then, mm: median / p90 / max | "
            f"{q[0]:.3g} / {q[1]:.3g} / {max(moved):.3g} |"
        )
    print(f"| actions after which a die ended in another place | {places} |")


if __name__ == "__main__":
    main()
