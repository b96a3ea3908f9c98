"""How a seat is shown, shared by the window and the plots: its colour,
its colour's name and the turn of a label that runs along its side.

Plain data importing nothing but math, so that the window (pyglet) does not load the
plotting module (matplotlib) for a colour name; :mod:`warlords_sim.plotting`
re-exports both names.
"""

from __future__ import annotations

import math

__all__ = ["SEAT_COLOURS", "SEAT_COLOUR_NAMES", "SIDE_LABEL_TURN"]

#: One clear colour per seat (hex RGB), indexed by seat: 0 bottom, 1 left, 2 top, 3 right.
#: The courtyards are filled with exactly these; the GUI uses them for dice and labels.
SEAT_COLOURS: tuple[str, str, str, str] = ("#d1362f", "#2b6cc4", "#e8b215", "#2e9a48")
#: Names of :data:`SEAT_COLOURS`, for messages ("red to play").
SEAT_COLOUR_NAMES: tuple[str, str, str, str] = ("red", "blue", "yellow", "green")

#: The turn (radians, counter-clockwise) of a label that runs along a side of
#: the board and reads upright from the middle, by side (0 bottom, 1 left, 2
#: top, 3 right): the left one reads upwards, the right one downwards.
SIDE_LABEL_TURN: tuple[float, float, float, float] = (0.0, math.pi / 2, 0.0, -math.pi / 2)
