"""warlords_sim: a physics simulator for the tabletop dexterity game Warlords.

Units everywhere: millimetres, grams, seconds, radians. See docs/architecture.md.
Importing the package loads no GUI code (pyglet is imported only by
``warlords_sim.gui``).
"""

__version__ = "0.1.0"
