"""The bot interface: a :class:`Policy` chooses one legal action.

A policy is any object with ``name`` and ``choose(state, legal, rng)``. It
reads the :class:`~warlords_sim.rules.game.GameState` (it may copy it and
try flicks on the copy), picks from :class:`~warlords_sim.rules.legal.Legal`
and draws any randomness from the seeded ``rng`` it is given, never from a
global generator. :class:`Hand` adds a player's hand noise to a flick: a
bot's (the bots call :meth:`Hand.deliver` on the flick they aim) and a
person's in the window (the controller calls the same method on the flick
they drag), one code path.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from warlords_sim.board import Board
from warlords_sim.bots.skill import HandNoise, Skill, SkillLevel, as_skill, skill_noise
from warlords_sim.physics.checks import MAX_FLICK_SPIN
from warlords_sim.physics.impact import die_inertia
from warlords_sim.rules.actions import Action, BoardFlick, SiegeShot, SupplyFlick
from warlords_sim.rules.game import GameState
from warlords_sim.rules.legal import MAX_FLICK_SPEED, Legal

__all__ = ["HAND_DRAWS", "MIN_HAND_SPEED", "FlickAction", "Hand", "Policy", "Stroke", "is_flick"]

#: A flick a hand delivers: from the supply, from the board, or a siege shot.
FlickAction = SupplyFlick | BoardFlick | SiegeShot

#: Standard normals a hand draws per flick: direction, speed, strike height,
#: sideways offset (in this order, always all four).
HAND_DRAWS = 4
#: Slowest speed a hand delivers, mm/s (a slower flick is kept at it).
MIN_HAND_SPEED = 20.0


def is_flick(action: object) -> bool:
    """Whether a hand delivers ``action`` (a supply flick, board flick or siege shot)."""
    return isinstance(action, SupplyFlick | BoardFlick | SiegeShot)


@dataclass(frozen=True)
class Stroke:
    """What a hand delivered: the velocity (mm/s), the spin (rad/s,
    counter-clockwise), the strike height above the die's centre (mm) and
    the sideways offset of the blow from the centre (mm, positive to the
    left seen along the flick) that gave part of that spin."""

    velocity: tuple[float, float]
    spin: float
    strike_mm: float
    offset_mm: float


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

    ========  ===========================  ============  ===============
    level     speed sd at 500 / 1500 mm/s  direction sd  strike height,
                                                         offset sd
    ========  ===========================  ============  ===============
    expert    16 / 47 mm/s (cv 3.2 %)      1 deg         0.8 mm
    club      32 / 95 mm/s (cv 6.3 %)      2 deg         1.6 mm
    novice    63 / 190 mm/s (cv 12.6 %)    4 deg         3.2 mm
    ========  ===========================  ============  ===============

    Where the finger meets the die is scattered too (:meth:`stroke`): its
    height above the centre, and its offset sideways, which spins the die.

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
        delivers, speed and direction only. Draws two normals from ``rng``:
        the direction's, then the speed's."""
        a = direction + float(rng.normal(0.0, self.angle_sd))
        s = speed * (1.0 + float(rng.normal(0.0, self.speed_sd)))
        s = min(max(s, MIN_HAND_SPEED), MAX_FLICK_SPEED)
        return (s * math.cos(a), s * math.sin(a))

    def stroke(
        self,
        velocity: tuple[float, float],
        spin: float,
        strike_mm: float,
        z: Sequence[float],
        board: Board,
    ) -> Stroke:
        """What this hand delivers when it aims ``velocity`` (mm/s) with
        ``spin`` (rad/s) at ``strike_mm`` above the die's centre, for the
        standard normals ``z`` (direction, speed, strike height, offset):

        * direction off by ``z[0]`` times :attr:`angle_sd`, speed by the
          factor ``1 + z[1]`` :attr:`speed_sd` (kept in [20,
          MAX_FLICK_SPEED] mm/s);
        * the strike ``z[2]`` times the strike sd higher (kept within the
          die, ``board.die.strike_limit_mm``);
        * the blow ``z[3]`` times the offset sd to the left of the centre,
          which adds a spin of ``-v d / i2`` (``i2`` the die's inertia per
          unit mass, :func:`~warlords_sim.physics.impact.die_inertia`); the
          spin is kept within the flick limit (200 rad/s).

        Pure: the same inputs give the same stroke.

        Raises:
            ValueError: ``z`` is not four numbers.
        """
        if len(z) != HAND_DRAWS:
            raise ValueError(f"a hand takes {HAND_DRAWS} standard normals, got {len(z)}")
        noise = self.noise
        speed = math.hypot(velocity[0], velocity[1])
        direction = math.atan2(velocity[1], velocity[0])
        a = direction + float(z[0]) * self.angle_sd
        v = speed * (1.0 + float(z[1]) * self.speed_sd)
        v = min(max(v, MIN_HAND_SPEED), MAX_FLICK_SPEED)
        half = board.die.strike_limit_mm
        strike = min(max(strike_mm + float(z[2]) * noise.strike_sd_mm, -half), half)
        offset = float(z[3]) * noise.offset_sd_mm
        die = board.die
        turn = -v * offset / (die_inertia(die) / die.mass_g)
        new_spin = min(max(spin + turn, -MAX_FLICK_SPIN), MAX_FLICK_SPIN)
        return Stroke((v * math.cos(a), v * math.sin(a)), new_spin, strike, offset)

    def draw(self, rng: np.random.Generator) -> tuple[float, ...]:
        """The :data:`HAND_DRAWS` standard normals of one flick from ``rng``."""
        return tuple(float(rng.normal(0.0, 1.0)) for _ in range(HAND_DRAWS))

    def deliver_z(self, action: Action, z: Sequence[float], board: Board) -> Action:
        """``action`` as this hand delivers it for the standard normals ``z``
        (:meth:`stroke`): a flick with its velocity, spin and strike height
        scattered; any other action as it is."""
        if not isinstance(action, SupplyFlick | BoardFlick | SiegeShot):
            return action
        st = self.stroke(action.velocity, action.spin, action.strike_mm, z, board)
        return dataclasses.replace(
            action, velocity=st.velocity, spin=st.spin, strike_mm=st.strike_mm
        )

    def deliver(self, action: Action, rng: np.random.Generator, board: Board) -> Action:
        """``action`` as this hand delivers it: a flick (supply, board or
        siege) aimed as given, scattered with :data:`HAND_DRAWS` standard
        normals drawn from ``rng`` (:meth:`stroke`); any other action as it
        is, with nothing drawn. Bots and the window's human players both
        flick through here."""
        if not isinstance(action, SupplyFlick | BoardFlick | SiegeShot):
            return action
        return self.deliver_z(action, self.draw(rng), board)
