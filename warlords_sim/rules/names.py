"""The names people read for dice, one naming for the window, its log, the
rendered captions and the command line's messages.

A die is numbered from 0 in the replay file and the rules (its id,
``player * dice_per_player + i``); people see it as "red die 4": the
colour its owner's castle is drawn in this round and its number among that
player's dice, 1..dice_per_player (so id 3 of a 2-player game is P0's, and
red in round one, "red die 4"). The file keeps its ids (replays stay
loadable, their summaries as recorded); a message about a file names both,
"die 3 (red die 4)" (:func:`file_die_name`, :func:`with_die_names`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from warlords_sim.colours import SEAT_COLOUR_NAMES
from warlords_sim.rules.game import GameConfig

__all__ = ["die_name", "file_die_name", "with_die_names"]


def die_name(config: GameConfig, seats: Sequence[int], die: int) -> str:
    """The name players see for ``die`` (an id, from 0): the colour its
    owner's castle is drawn in (``seats``: each player's seat this round,
    0..3) and its number among that player's dice, e.g. ``"red die 3"``.

    Raises:
        ValueError: ``die`` is not a die of the game.
    """
    n = config.dice_per_player
    owner = config.owner(die)
    if not 0 <= owner < min(config.players, len(seats)) or die < 0:
        raise ValueError(f"die {die} is not a die of this {config.players}-player game")
    return f"{SEAT_COLOUR_NAMES[seats[owner]]} die {die - owner * n + 1}"


def file_die_name(config: GameConfig, seats: Sequence[int], die: int) -> str:
    """``"die 3 (red die 4)"``: the id a replay file gives ``die`` and the
    name the window gives it; ``"die 3"`` if the game has no such die."""
    try:
        return f"die {die} ({die_name(config, seats, die)})"
    except ValueError:
        return f"die {die}"


_DIE = re.compile(r"\bdie (\d+)\b(?! \()")
_ELIMINATES = re.compile(r"\beliminates (\d+(?:, \d+)*)")
_COLOURED = tuple(f"{c} " for c in SEAT_COLOUR_NAMES)


def with_die_names(text: str, config: GameConfig, seats: Sequence[int]) -> str:
    """``text`` (a recorded summary, a rules message quoting a file's die
    ids: "P1 board flick: die 3 face 4 at board; eliminates 7, 8") with
    each die id that is not already a window name followed by that name:
    "die 3 (red die 4) ...; eliminates 7 (yellow die 2), 8 (yellow die 3)"."""

    def one(m: re.Match[str]) -> str:
        if text[: m.start()].endswith(_COLOURED):  # "red die 4": a window name
            return m.group(0)
        return file_die_name(config, seats, int(m.group(1)))

    def many(m: re.Match[str]) -> str:
        ids = [int(i) for i in m.group(1).split(", ")]
        return "eliminates " + ", ".join(file_die_name(config, seats, i)[4:] for i in ids)

    return _ELIMINATES.sub(many, _DIE.sub(one, text))
