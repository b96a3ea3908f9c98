"""The physics layer: a pymunk world of the board and 2.5D dice.

Public API: :class:`World`, the value objects of :mod:`.types`, and the
constants :data:`TIMESTEP`, :data:`MAX_FLICK_SPEED` and :data:`MODEL_VERSION`
(the model's version, recorded in replays; bump it whenever what is
simulated changes, see :mod:`.version`). Never imports pyglet
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
from warlords_sim.physics.version import MODEL_VERSION
from warlords_sim.physics.world import MAX_FLICK_SPEED, MAX_FLICK_SPIN, TIMESTEP, World, WorldError

__all__ = [
    "MAX_FLICK_SPEED",
    "MAX_FLICK_SPIN",
    "MODEL_VERSION",
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
