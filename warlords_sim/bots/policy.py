"""The bot interface: a :class:`Policy` chooses one legal action.

A policy is any object with ``name`` and ``choose(state, legal, rng)``. It
reads the :class:`~warlords_sim.rules.game.GameState` (it may copy it and
try flicks on the copy), picks from :class:`~warlords_sim.rules.legal.Legal`
and draws any randomness from the seeded ``rng`` it is given, never from a
global generator. :class:`Hand` adds a player's hand noise to a flick.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from warlords_sim.rules.actions import Action
from warlords_sim.rules.game import GameState
from warlords_sim.rules.legal import MAX_FLICK_SPEED, Legal

__all__ = ["Hand", "Policy"]


class Policy(Protocol):
    """A player: picks an action from the legal choices."""

    name: str

    def choose(self, state: GameState, legal: Legal, rng: np.random.Generator) -> Action:
        """Return a legal action for ``legal.player`` (state must not be changed)."""
        ...


@dataclass(frozen=True)
class Hand:
    """Hand noise set by ``skill`` in [0, 1] (1: a steady hand).

    The direction wobbles by a normal angle of sd ``0.01 + 0.12 (1 - skill)``
    rad and the speed by a relative normal of sd ``0.02 + 0.20 (1 - skill)``;
    speeds are kept in (0, MAX_FLICK_SPEED].

    Raises:
        ValueError: skill outside [0, 1].
    """

    skill: float = 0.7

    def __post_init__(self) -> None:
        if not 0.0 <= self.skill <= 1.0:
            raise ValueError(f"skill must be in [0, 1], got {self.skill}")

    @property
    def angle_sd(self) -> float:
        return 0.01 + 0.12 * (1.0 - self.skill)

    @property
    def speed_sd(self) -> float:
        return 0.02 + 0.20 * (1.0 - self.skill)

    def flick(
        self, direction: float, speed: float, rng: np.random.Generator
    ) -> tuple[float, float]:
        """The velocity (mm/s) a hand aiming ``direction`` rad at ``speed`` mm/s delivers."""
        a = direction + float(rng.normal(0.0, self.angle_sd))
        s = speed * (1.0 + float(rng.normal(0.0, self.speed_sd)))
        s = min(max(s, 20.0), MAX_FLICK_SPEED)
        return (s * math.cos(a), s * math.sin(a))
