"""The physics layer: a pymunk world of the board and 2.5D dice.

Public API: :class:`World`, the value objects of :mod:`.types`, and the
constants :data:`TIMESTEP` and :data:`MAX_FLICK_SPEED`. Never imports pyglet
or the rules.
"""

from warlords_sim.physics.types import (
    DiePose,
    Event,
    EventKind,
    Flick,
    FlickError,
    FlickResult,
    LaunchKind,
    Region,
    RegionKind,
)
from warlords_sim.physics.world import MAX_FLICK_SPEED, MAX_FLICK_SPIN, TIMESTEP, World, WorldError

__all__ = [
    "MAX_FLICK_SPEED",
    "MAX_FLICK_SPIN",
    "TIMESTEP",
    "DiePose",
    "Event",
    "EventKind",
    "Flick",
    "FlickError",
    "FlickResult",
    "LaunchKind",
    "Region",
    "RegionKind",
    "World",
    "WorldError",
]
