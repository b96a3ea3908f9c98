"""A user-written bot playing a whole game through the policy interface.

Any object with a ``name`` and ``choose(state, legal, rng)`` is a policy.
This one, "straight shooter", always flicks straight ahead: from the supply
out of its middle front area, or a die on the board straight up the board
towards the castle opposite, with the speed the Coulomb slide distance
gives (v = sqrt(2 mu g d)). It declines every ability except the Scout.

Run:  python examples/custom_bot.py [SEED]
"""

from __future__ import annotations

import math
import sys

import numpy as np

from warlords_sim.board import Crenelation, load_board
from warlords_sim.bots import make_bot, play_game
from warlords_sim.rules import (
    Action,
    BoardFlick,
    Decline,
    GameConfig,
    GameState,
    Legal,
    PendingKind,
    SupplyFlick,
)


class StraightShooter:
    """Flicks straight out of its castle; a policy in a dozen lines."""

    name = "straight"

    def choose(self, state: GameState, legal: Legal, rng: np.random.Generator) -> Action:
        board = state.board
        ox, oy = board.castles[legal.seat].outward
        pending = legal.pending.kind if legal.pending is not None else None
        if pending not in (None, PendingKind.SCOUT, PendingKind.GENERAL):
            return Decline()
        if legal.board_dice:
            die = legal.board_dice[int(rng.integers(len(legal.board_dice)))]
            pose = state.dice[die].pose
            assert pose is not None
            # distance to the far side of the board along the outward direction
            half = board.half_size_mm - 60.0
            d = max(half - (pose.x * ox + pose.y * oy), 20.0)
            v = math.sqrt(2.0 * board.die.table_friction * board.gravity_mm_s2 * d)
            v = min(v, 2000.0)
            return BoardFlick(die, (ox * v, oy * v))
        if legal.supply_spots:
            v = float(rng.uniform(900.0, 1400.0))
            return SupplyFlick(2, Crenelation.LOW, (ox * v, oy * v), 0.0, 6)
        return Decline()


def main(seed: int = 0) -> int:
    config = GameConfig(load_board("standard"), players=2)
    record = play_game(config, [StraightShooter(), make_bot("aim")], seed=seed)
    state = record.state
    for r in state.history:
        print(f"round {r.round + 1}: damage {r.damage}, {r.flicks} flicks, ended by {r.ended_by}")
    print(f"totals {state.totals}; winner: player {state.winner} ({record.bots})")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 0))
