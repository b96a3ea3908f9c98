"""The rules layer: Warlords' rules over settled physics results.

Reads :class:`~warlords_sim.physics.types.FlickResult` values (settled
poses, exits, events) and never touches pymunk itself. Entry points:
:class:`Game`, :class:`GameConfig`, the actions of :mod:`.actions`, the
house rules of :mod:`.house_rules`, and the errors of :mod:`.errors`.
"""

from warlords_sim.rules.actions import (
    Action,
    BoardFlick,
    Decline,
    RingPinMove,
    SapperPull,
    SiegeShot,
    SpyMove,
    SupplyFlick,
    action_from_dict,
)
from warlords_sim.rules.engine import Game, Outcome, apply
from warlords_sim.rules.errors import HouseRulesError, IllegalActionError
from warlords_sim.rules.game import (
    DieState,
    GameConfig,
    GameState,
    Location,
    Pending,
    PendingKind,
    RoundCounts,
    RoundRecord,
)
from warlords_sim.rules.house_rules import HouseRules, load_house_rules
from warlords_sim.rules.legal import Legal, legal_actions
from warlords_sim.rules.physics_port import Physics

__all__ = [
    "Action",
    "BoardFlick",
    "Decline",
    "DieState",
    "Game",
    "GameConfig",
    "GameState",
    "HouseRules",
    "HouseRulesError",
    "IllegalActionError",
    "Legal",
    "Location",
    "Outcome",
    "Pending",
    "PendingKind",
    "Physics",
    "RingPinMove",
    "RoundCounts",
    "RoundRecord",
    "SapperPull",
    "SiegeShot",
    "SpyMove",
    "SupplyFlick",
    "action_from_dict",
    "apply",
    "legal_actions",
    "load_house_rules",
]
