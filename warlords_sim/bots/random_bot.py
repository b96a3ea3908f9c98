"""The ``random`` bot: any legal action, uniformly by kind, random flicks."""

from __future__ import annotations

import math

import numpy as np

from warlords_sim.rules.actions import (
    Action,
    BoardFlick,
    Decline,
    RingPinMove,
    SapperPull,
    SiegeShot,
    SpyMove,
    SupplyFlick,
)
from warlords_sim.rules.errors import IllegalActionError
from warlords_sim.rules.game import GameState
from warlords_sim.rules.legal import MAX_FLICK_SPEED, Legal, check_spy_spot, is_legal

__all__ = ["RandomBot"]


class RandomBot:
    """Picks a kind of legal action at random, then its details at random.

    Supply flicks go within 80 degrees of straight out of the castle; board
    flicks in any direction; speeds uniform in [150, MAX_FLICK_SPEED] mm/s.
    """

    name = "random"

    @staticmethod
    def _strike(state: GameState, rng: np.random.Generator) -> float:
        """Where the finger strikes: anywhere on the die's face, uniform
        from its bottom to its top edge (mm from the centre)."""
        half = state.board.die.strike_limit_mm
        return float(rng.uniform(-half, half))

    def _velocity(
        self, rng: np.random.Generator, base: float, spread: float
    ) -> tuple[float, float]:
        a = base + float(rng.uniform(-spread, spread))
        s = float(rng.uniform(150.0, MAX_FLICK_SPEED))
        return (s * math.cos(a), s * math.sin(a))

    def choose(self, state: GameState, legal: Legal, rng: np.random.Generator) -> Action:
        for _ in range(20):
            action = self._draw(state, legal, rng)
            if is_legal(state, action):
                return action
        return Decline() if legal.can_decline else action

    def _draw(self, state: GameState, legal: Legal, rng: np.random.Generator) -> Action:
        options: list[str] = []
        if legal.supply_spots:
            options.append("supply")
        if legal.board_dice:
            options.append("board")
        if legal.siege_dice:
            options.append("siege")
        if legal.spy_die is not None:
            options.append("spy")
        if legal.pins:
            options.append("sapper")
        if legal.ring_pins and legal.open_holes:
            options.append("ring")
        if legal.can_decline:
            options.append("decline")
        kind = options[int(rng.integers(len(options)))]
        spin = float(rng.normal(0.0, 5.0))
        if kind == "supply":
            area, cren = legal.supply_spots[int(rng.integers(len(legal.supply_spots)))]
            ox, oy = state.board.castles[legal.seat].outward
            v = self._velocity(rng, math.atan2(oy, ox), math.radians(80))
            face = int(rng.integers(1, 7))
            return SupplyFlick(area, cren, v, spin, face, self._strike(state, rng))
        if kind == "board":
            die = legal.board_dice[int(rng.integers(len(legal.board_dice)))]
            v = self._velocity(rng, 0.0, math.pi)
            return BoardFlick(die, v, spin, self._strike(state, rng))
        if kind == "siege":
            die = legal.siege_dice[int(rng.integers(len(legal.siege_dice)))]
            v = self._velocity(rng, 0.0, math.pi)
            return SiegeShot(die, v, spin, self._strike(state, rng))
        if kind == "spy" and legal.spy_die is not None:
            h = state.board.half_size_mm - 10.0
            for _ in range(30):
                x, y = float(rng.uniform(-h, h)), float(rng.uniform(-h, h))
                try:
                    check_spy_spot(state, legal.spy_die, x, y)
                except IllegalActionError:
                    continue
                return SpyMove(legal.spy_die, x, y)
            return Decline()
        if kind == "sapper":
            return SapperPull(legal.pins[int(rng.integers(len(legal.pins)))])
        if kind == "ring":
            src = legal.ring_pins[int(rng.integers(len(legal.ring_pins)))]
            dst = legal.open_holes[int(rng.integers(len(legal.open_holes)))]
            return RingPinMove(src, dst)
        return Decline()
