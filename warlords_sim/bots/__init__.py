"""Bots: policies that play any seat.

``make_bot("aim", skill=0.7)``, ``make_bot("aim", skill="club")`` or
``make_bot("random")``, ``make_bot("search")`` (plans on copies of the
game, :mod:`warlords_sim.bots.search`); any object with ``name`` and
``choose(state, legal, rng)`` (:class:`Policy`) plays too. :func:`play_game`
runs a whole game. A skill is a number in [0, 1] or a named level
(:class:`SkillLevel`: novice, club, expert; :mod:`warlords_sim.bots.skill`
documents their numbers and sources).
"""

from warlords_sim.bots.aim import AimBot, launch_table_warmup
from warlords_sim.bots.names import BOTS, parse_bot_names
from warlords_sim.bots.play import GameRecord, play_game, player_rngs
from warlords_sim.bots.policy import Hand, Policy
from warlords_sim.bots.random_bot import RandomBot
from warlords_sim.bots.search import SearchBot
from warlords_sim.bots.skill import (
    SKILL_LEVELS,
    HandNoise,
    Skill,
    SkillLevel,
    as_skill,
    parse_skill,
    skill_label,
    skill_noise,
)

__all__ = [
    "BOTS",
    "SKILL_LEVELS",
    "AimBot",
    "GameRecord",
    "Hand",
    "HandNoise",
    "Policy",
    "RandomBot",
    "SearchBot",
    "Skill",
    "SkillLevel",
    "as_skill",
    "launch_table_warmup",
    "make_bot",
    "parse_bot_names",
    "parse_skill",
    "play_game",
    "player_rngs",
    "skill_label",
    "skill_noise",
]


def make_bot(name: str, skill: float | str | SkillLevel = 0.7) -> Policy:
    """A built-in bot by name, with the hand of ``skill`` (a number in [0, 1],
    a :class:`SkillLevel` or a level's name). The random bot flicks at
    random whatever the skill (it is still checked).

    Raises:
        ValueError: unknown name, skill outside [0, 1] or an unknown level.
    """
    s = as_skill(skill)
    if name == "aim":
        return AimBot(s)
    if name == "random":
        return RandomBot()
    if name == "search":
        return SearchBot(s)
    raise ValueError(f"unknown bot {name!r}; expected one of {', '.join(BOTS)}")
