"""Is the ``search`` bot stronger than ``aim``? Two-player games, same skill.

Plays N two-player games on a board (default ``standard``, 200 games, skill
0.7): ``search`` against ``aim``, the seats alternating (game i: search is
player 0 when i is even, player 1 when odd, so the first player's advantage
cancels), game i with seed i. Prints:

* search's win rate with its 95 % Wilson score interval; a shared win
  (equal damage and equal final-round scoring) counts 1/2 (1/k to each of
  k winners, as in the lab), and the interval is the Wilson formula with
  that fractional count;
* the mean damage each bot dealt per game (its dice's faces in the other's
  courtyard, summed over rounds: ``RoundRecord.scored_on_opponents``);
* each bot's decision time, CPU seconds (``time.process_time``) per
  ``choose`` call: median, 95th percentile and maximum; and the most flicks
  one search decision simulated.

The launch tables are loaded (or measured) before any game, so no
decision pays for them.

Usage: python benchmarks/bots.py [--games 200] [--skill 0.7] [--board standard]
       [--jobs 1] [--candidates N --samples M]
Issue 13 target: a win rate above 60 %, decisions under 0.5 s.
Writes nothing; prints a Markdown summary (and one line per game with -v).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import time
from dataclasses import dataclass

import numpy as np

from warlords_sim.board import load_board
from warlords_sim.bots import Policy, make_bot, parse_skill, play_game
from warlords_sim.bots.launch import launch_table_warmup
from warlords_sim.bots.search import DEFAULT_CANDIDATES, DEFAULT_SAMPLES, SearchBot
from warlords_sim.rules import Action, GameConfig, GameState, Legal


class _Timed:
    """Wraps a policy and keeps the CPU time of each decision."""

    def __init__(self, bot: Policy) -> None:
        self.bot = bot
        self.name = bot.name
        self.times: list[float] = []
        self.sims: list[int] = []

    def choose(self, state: GameState, legal: Legal, rng: np.random.Generator) -> Action:
        t = time.process_time()
        action = self.bot.choose(state, legal, rng)
        self.times.append(time.process_time() - t)
        self.sims.append(int(getattr(self.bot, "last_simulations", 0)))
        return action


@dataclass(frozen=True)
class _Result:
    seed: int
    search_player: int
    winners: tuple[int, ...]
    dealt: tuple[int, int]  # (search, aim)
    totals: tuple[int, int]  # damage taken (search, aim)
    search_times: list[float]
    aim_times: list[float]
    search_sims: list[int]
    cpu: float


def _game(args: tuple[int, str, str, int, int]) -> _Result:
    seed, board_name, skill_text, candidates, samples = args
    skill = parse_skill(skill_text)
    config = GameConfig(load_board(board_name), players=2)
    launch_table_warmup(config.board)
    search = _Timed(SearchBot(skill, candidates, samples))
    aim = _Timed(make_bot("aim", skill))
    me = seed % 2
    policies: list[Policy] = [search, aim] if me == 0 else [aim, search]
    t = time.process_time()
    rec = play_game(config, policies, seed=seed)
    cpu = time.process_time() - t
    st = rec.state
    them = 1 - me
    scored = [sum(r.scored_on_opponents[p] for r in st.history) for p in (me, them)]
    return _Result(
        seed,
        me,
        st.winners,
        (scored[0], scored[1]),
        (st.totals[me], st.totals[them]),
        search.times,
        aim.times,
        search.sims,
        cpu,
    )


def _share(r: _Result) -> float:
    """Search's share of the win: 1/k if it is one of k winners, else 0."""
    return 1.0 / len(r.winners) if r.search_player in r.winners else 0.0


def _wilson(k: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval (Wilson 1927) of k successes in n trials,
    at 95 % by default; k may be fractional (shared wins)."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def _q(xs: list[float], q: float) -> float:
    return float(np.quantile(xs, q)) if xs else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games (default 200)")
    ap.add_argument("--skill", default="0.7", help="both bots' skill (default 0.7)")
    ap.add_argument("--board", default="standard", help="board name or path")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--candidates", type=int, default=DEFAULT_CANDIDATES)
    ap.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per game")
    a = ap.parse_args()
    if a.games < 1 or not 1 <= a.jobs <= 64:
        ap.error("--games must be >= 1 and --jobs in 1..64")
    try:  # every setting checked here, before a worker starts
        skill = parse_skill(a.skill)
        board = load_board(a.board)
        SearchBot(skill, a.candidates, a.samples)
    except ValueError as e:  # BoardError is a ValueError
        ap.error(str(e))
    launch_table_warmup(board)  # on disk now: workers load it
    tasks = [(i, a.board, a.skill, a.candidates, a.samples) for i in range(a.games)]
    wall = time.perf_counter()
    results: list[_Result] = []
    if a.jobs == 1:
        it = map(_game, tasks)
        for r in it:
            results.append(r)
            if a.verbose:
                _line(r)
    else:
        with multiprocessing.Pool(a.jobs) as pool:
            for r in pool.imap(_game, tasks):
                results.append(r)
                if a.verbose:
                    _line(r)
    wall = time.perf_counter() - wall
    n = len(results)
    wins = sum(_share(r) for r in results)
    shared = sum(1 for r in results if len(r.winners) > 1)
    low, high = _wilson(wins, n)
    first = [r for r in results if r.search_player == 0]
    second = [r for r in results if r.search_player == 1]
    st = [t for r in results for t in r.search_times]
    at = [t for r in results for t in r.aim_times]
    print(
        f"## search vs aim: {n} two-player games, board {a.board}, skill {a.skill}, "
        f"budget {a.candidates} x {a.samples}\n"
    )
    print("| figure | value |\n|---|---|")
    print(f"| search wins | {wins:g}/{n} = {wins / n:.1%} (95 % Wilson {low:.1%} - {high:.1%}) |")
    print(f"| shared wins (1/2 each) | {shared} |")
    for label, rs in (("search first", first), ("search second", second)):
        w = sum(_share(r) for r in rs)
        print(f"| wins when {label} | {w:g}/{len(rs)} |")
    print(f"| mean damage dealt by search | {statistics.mean(r.dealt[0] for r in results):.1f} |")
    print(f"| mean damage dealt by aim | {statistics.mean(r.dealt[1] for r in results):.1f} |")
    print(
        f"| mean damage taken search / aim | {statistics.mean(r.totals[0] for r in results):.1f}"
        f" / {statistics.mean(r.totals[1] for r in results):.1f} |"
    )
    print(
        f"| search decision CPU s median / p95 / max | {_q(st, 0.5):.3f} / {_q(st, 0.95):.3f}"
        f" / {max(st):.3f} ({len(st)} decisions) |"
    )
    print(f"| aim decision CPU s median / p95 | {_q(at, 0.5):.4f} / {_q(at, 0.95):.4f} |")
    print(
        f"| most simulations in one decision | {max(s for r in results for s in r.search_sims)} |"
    )
    print(f"| CPU s per game (mean) | {statistics.mean(r.cpu for r in results):.1f} |")
    print(f"| wall time | {wall:.0f} s with {a.jobs} job(s) |")


def _line(r: _Result) -> None:
    print(
        f"game {r.seed}: search player {r.search_player}, winners {r.winners}, "
        f"dealt {r.dealt}, taken {r.totals}, cpu {r.cpu:.1f} s, search decision median "
        f"{_q(r.search_times, 0.5):.3f} s p95 {_q(r.search_times, 0.95):.3f} s "
        f"max {max(r.search_times):.3f} s",
        flush=True,
    )


if __name__ == "__main__":
    main()
