"""A settled game state in full, as plain data: what the host sends a
client whose re-simulation of an action ended with another digest than
the host's (``state`` message), so that the client takes the host's game.

It is the rules' :class:`~warlords_sim.rules.game.GameState` field by
field (every field but ``config`` and ``physics``; dataclasses, enums and
frozensets as msgspec writes them) and the physics world's own
:meth:`~warlords_sim.physics.World.rest_state` (every die's place,
orientation, floor and cocked flag, bit for bit; pins, siege engine,
walls). No pickle crosses the network: a client decodes only these types.

Contract: a state is taken between actions only (every die at rest).
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

import msgspec

from warlords_sim.errors import WarlordsError
from warlords_sim.physics import World
from warlords_sim.rules.game import GameState

__all__ = ["StateError", "encode_state", "take_state"]

_SKIP = ("config", "physics")


class StateError(WarlordsError, ValueError):
    """A state message that does not describe a state of this game."""


def _fields() -> dict[str, Any]:
    hints = typing.get_type_hints(GameState)
    return {f.name: hints[f.name] for f in dataclasses.fields(GameState) if f.name not in _SKIP}


def encode_state(state: GameState) -> dict[str, Any]:
    """``state`` as plain data: ``{"rules": {...}, "world": {...}}``.

    Raises:
        WorldError: a die is still moving.
        TypeError: the physics is not the 2.5D world (the reference engine
            has no rest state to send).
    """
    world = state.physics
    if not isinstance(world, World):
        raise TypeError("only the 2.5D world's state can be sent")
    rules = {name: msgspec.to_builtins(getattr(state, name)) for name in _fields()}
    return {"rules": rules, "world": world.rest_state()}


def take_state(state: GameState, data: dict[str, Any]) -> None:
    """Make ``state`` (and its world) the state ``data`` describes.

    Raises:
        StateError: a field missing or of the wrong type (``state`` is then
            unchanged: every field is decoded before any is set).
    """
    from warlords_sim.physics import WorldError

    try:
        rules = data["rules"]
        values = {
            name: msgspec.convert(rules[name], kind, strict=False)
            for name, kind in _fields().items()
        }
    except (KeyError, TypeError, msgspec.ValidationError) as e:
        raise StateError(f"not a game state: {e}") from None
    world = state.physics
    if not isinstance(world, World):
        raise StateError("only the 2.5D world takes a state")
    try:
        world.take_rest_state(data["world"])
    except (KeyError, WorldError) as e:
        raise StateError(f"not a world state: {e}") from None
    for name, value in values.items():
        setattr(state, name, value)
