"""Bots: policies that play any seat.

``make_bot("aim", skill=0.7)`` or ``make_bot("random")``; any object with
``name`` and ``choose(state, legal, rng)`` (:class:`Policy`) plays too.
:func:`play_game` runs a whole game.
"""

from warlords_sim.bots.aim import AimBot, launch_table_warmup
from warlords_sim.bots.play import GameRecord, play_game
from warlords_sim.bots.policy import Hand, Policy
from warlords_sim.bots.random_bot import RandomBot

__all__ = [
    "BOTS",
    "AimBot",
    "GameRecord",
    "Hand",
    "Policy",
    "RandomBot",
    "launch_table_warmup",
    "make_bot",
    "play_game",
]

#: Names of the built-in bots.
BOTS = ("aim", "random")


def make_bot(name: str, skill: float = 0.7) -> Policy:
    """A built-in bot by name.

    Raises:
        ValueError: unknown name, or skill outside [0, 1].
    """
    if name == "aim":
        return AimBot(skill)
    if name == "random":
        Hand(skill)  # validates the skill even if unused
        return RandomBot()
    raise ValueError(f"unknown bot {name!r}; expected one of {', '.join(BOTS)}")
