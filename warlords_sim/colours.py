"""The seats' colours, shared by the window and the plots.

Plain data with no imports, so that the window (pyglet) does not load the
plotting module (matplotlib) for a colour name; :mod:`warlords_sim.plotting`
re-exports both names.
"""

from __future__ import annotations

__all__ = ["SEAT_COLOURS", "SEAT_COLOUR_NAMES"]

#: One clear colour per seat (hex RGB), indexed by seat: 0 bottom, 1 left, 2 top, 3 right.
#: The courtyards are filled with exactly these; the GUI uses them for dice and labels.
SEAT_COLOURS: tuple[str, str, str, str] = ("#d1362f", "#2b6cc4", "#e8b215", "#2e9a48")
#: Names of :data:`SEAT_COLOURS`, for messages ("red to play").
SEAT_COLOUR_NAMES: tuple[str, str, str, str] = ("red", "blue", "yellow", "green")
