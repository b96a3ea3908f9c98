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

from warlords_sim.bots.skill import HandNoise, Skill, SkillLevel, as_skill, skill_noise
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
    """A player's hand noise, set by ``skill``: a number in [0, 1] (1: a
    steady hand) or a :class:`~warlords_sim.bots.skill.SkillLevel`
    (``novice``, ``club``, ``expert``; a level's name is taken too).

    The direction wobbles by a normal angle of sd :attr:`angle_sd` rad and
    the speed by a relative normal of sd :attr:`speed_sd` (so the spread in
    mm/s grows with the speed); speeds are kept in [20, MAX_FLICK_SPEED] mm/s.
    For a number ``s`` these are ``0.01 + 0.12 (1 - s)`` rad and
    ``0.02 + 0.20 (1 - s)``, the bots' original noise; for a level, its
    documented numbers (:mod:`warlords_sim.bots.skill`, with their sources):

    ========  ===============================  ============
    level     speed sd at 500 / 1500 mm/s      direction sd
    ========  ===============================  ============
    expert    16 / 47 mm/s (cv 3.2 %)          1 deg
    club      32 / 95 mm/s (cv 6.3 %)          2 deg
    novice    63 / 190 mm/s (cv 12.6 %)        4 deg
    ========  ===============================  ============

    Raises:
        ValueError: skill outside [0, 1], or an unknown level name.
    """

    skill: Skill = 0.7

    def __post_init__(self) -> None:
        object.__setattr__(self, "skill", as_skill(self.skill))

    @property
    def noise(self) -> HandNoise:
        """The size of this hand's errors (speed cv, direction sd)."""
        return skill_noise(self.skill)

    @property
    def angle_sd(self) -> float:
        """sd of the direction, rad."""
        if isinstance(self.skill, SkillLevel):
            return self.skill.noise.direction_sd
        return 0.01 + 0.12 * (1.0 - self.skill)

    @property
    def speed_sd(self) -> float:
        """sd of the speed over the aimed speed (its coefficient of variation)."""
        if isinstance(self.skill, SkillLevel):
            return self.skill.noise.speed_cv
        return 0.02 + 0.20 * (1.0 - self.skill)

    def flick(
        self, direction: float, speed: float, rng: np.random.Generator
    ) -> tuple[float, float]:
        """The velocity (mm/s) a hand aiming ``direction`` rad at ``speed`` mm/s
        delivers. Draws two normals from ``rng``: the direction's, then the speed's."""
        a = direction + float(rng.normal(0.0, self.angle_sd))
        s = speed * (1.0 + float(rng.normal(0.0, self.speed_sd)))
        s = min(max(s, 20.0), MAX_FLICK_SPEED)
        return (s * math.cos(a), s * math.sin(a))
