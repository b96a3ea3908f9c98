"""Dice pressed together at rest: how the 2.5D world ends the overlaps pymunk leaves.

pymunk's contacts are soft: dice that come to rest touching may still be
pressed 0.1-0.3 mm into each other (its collision slop and bias). The world
relaxes such overlaps when a die comes to rest (``overlap.relax_at_rest``,
model 2.5d-6), and turns or moves a die (``overlap.clear_overlap``) only
where that fails. This script plays ``--games`` 4-player games of ``aim``
bots (seeds 0..N-1) and prints, counted by wrapping those two functions:

- relaxations, and how many ended in a jam (dice pressed between walls);
- dice turned (> 1 degree) or moved (> 0.5 mm) by ``clear_overlap``, split
  by where it was called from (laying a bounced die flat, or at rest);
- after every flick, the deepest overlap of two dice at rest, and of a die
  into a wall, pin or the siege engine (from the poses and the board data,
  ``physics.footprint``), as the rules see them.

Run:  python benchmarks/overlap.py [--games N]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter

from warlords_sim.board import load_board
from warlords_sim.bots import make_bot, play_game
from warlords_sim.physics import overlap
from warlords_sim.physics.bodies import DieBody, WorldState
from warlords_sim.physics.footprint import polygons_depth, rect_polygon, square, standing_walls
from warlords_sim.physics.types import Flick, FlickResult
from warlords_sim.physics.world import World
from warlords_sim.rules import GameConfig

counts: Counter[str] = Counter()
deepest = {"die-die": 0.0, "die-wall": 0.0}


_relax_at_rest = overlap.relax_at_rest
_clear_overlap = overlap.clear_overlap


def counting_relax(ws: WorldState, d: DieBody) -> None:
    """``overlap.relax_at_rest``, counted."""
    counts["relaxations"] += 1
    _relax_at_rest(ws, d)


def counting_clear(ws: WorldState, d: DieBody) -> None:
    """``overlap.clear_overlap``, counting the dice it turns or moves."""
    caller = sys._getframe(1).f_code.co_name
    x0, y0 = d.body.position
    a0 = d.body.angle
    _clear_overlap(ws, d)
    x1, y1 = d.body.position
    counts[f"fallback from {caller}"] += 1
    if abs(d.body.angle - a0) > math.radians(1.0):
        counts[f"turned > 1 deg from {caller}"] += 1
    if math.hypot(x1 - x0, y1 - y0) > 0.5:
        counts[f"moved > 0.5 mm from {caller}"] += 1


class Probe(World):  # noqa: D101
    """The real world, measuring overlaps after each flick (the relaxations
    are counted by :func:`counting_relax` and :func:`counting_clear`, put in
    :mod:`warlords_sim.physics.overlap`'s place by :func:`main`)."""

    def flick(self, flick: Flick, face: int | None = None, max_time: float = 60.0) -> FlickResult:
        res = super().flick(flick, face, max_time)
        counts["flicks"] += 1
        size = self.board.die.size_mm
        walls = [
            rect_polygon(w.rect.x0, w.rect.y0, w.rect.x1, w.rect.y1)
            for _, w in standing_walls(self.board, self.castle_seats, self.side_walls)
        ]
        poses = [self.pose(i) for i in self.dice]
        feet = [square(p.x, p.y, p.angle, size) for p in poses]
        for i, (p, foot) in enumerate(zip(poses, feet, strict=True)):
            if p.elevation_mm == 0.0:
                for w in walls:
                    deepest["die-wall"] = max(deepest["die-wall"], polygons_depth(foot, w))
            for q, other in zip(poses[i + 1 :], feet[i + 1 :], strict=True):
                if q.elevation_mm == p.elevation_mm:
                    deepest["die-die"] = max(deepest["die-die"], polygons_depth(foot, other))
        return res


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    config = GameConfig(load_board("standard"), 4)
    overlap.relax_at_rest = counting_relax  # type: ignore[assignment]
    overlap.clear_overlap = counting_clear  # type: ignore[assignment]
    t = time.process_time()
    for seed in range(args.games):
        play_game(
            config, [make_bot("aim") for _ in range(4)], seed=seed, physics=Probe(config.board)
        )
    cpu = time.process_time() - t
    print(f"{args.games} four-player aim-bot games, {counts['flicks']} flicks, {cpu:.1f} s CPU")
    for key in sorted(counts):
        if key != "flicks":
            print(f"  {key}: {counts[key]}")
    print(f"  deepest overlap after a flick, two dice at rest: {deepest['die-die']:.4f} mm")
    print(f"  deepest overlap after a flick, a die into a wall: {deepest['die-wall']:.2e} mm")


if __name__ == "__main__":
    main()
