"""Errors of the rules layer.

Every illegal action raises a subclass of :class:`IllegalActionError`
(itself a :class:`ValueError`) whose message says why, in the rulebook's
terms. A bad house-rules file raises :class:`HouseRulesError`, whose message
names the file, the field and what was expected.
"""

from __future__ import annotations

from warlords_sim.errors import WarlordsError

__all__ = [
    "BadFlickError",
    "BadLaunchError",
    "CannotDeclineError",
    "DieNotInPlayError",
    "EmptySupplyError",
    "GameOverError",
    "HouseRulesError",
    "IllegalActionError",
    "NotDoublesError",
    "NotYourDieError",
    "PinError",
    "SpyPlacementError",
    "WrongDieError",
    "WrongPhaseError",
]


class IllegalActionError(WarlordsError, ValueError):
    """An action the rules do not allow now; the message says why."""


class GameOverError(IllegalActionError):
    """The game is over: no action is legal."""


class WrongPhaseError(IllegalActionError):
    """The action does not fit the turn's phase (e.g. a Spy move with no Spy
    pending, or a new flick while an ability waits to be used or declined)."""


class NotYourDieError(IllegalActionError):
    """Players can never flick (or move) dice belonging to other players."""


class DieNotInPlayError(IllegalActionError):
    """The die is not on the board (it is in the supply, a courtyard, or eliminated)."""


class EmptySupplyError(IllegalActionError):
    """A supply flick with no die left in the player's supply."""


class BadLaunchError(IllegalActionError):
    """A supply flick from a place other than the front three areas at a high
    or low crenelation, or with a face not 1..6."""


class BadFlickError(IllegalActionError):
    """A flick whose velocity is not finite, zero (dice cannot be pushed) or
    over the maximum flick speed."""


class NotDoublesError(IllegalActionError):
    """A siege-engine shot of a die that is not one of a pair of the active
    player's dice on the board outside the center ring."""


class WrongDieError(IllegalActionError):
    """A Scout re-flick of another die than the Scout, or a General's second
    flick of the General itself."""


class SpyPlacementError(IllegalActionError):
    """A Spy placed off the board, in the center ring, within a moat, in a
    castle, or on top of a wall, pin or die."""


class PinError(IllegalActionError):
    """A pin action on an empty hole, onto an occupied or covered hole, or
    from outside the center ring."""


class CannotDeclineError(IllegalActionError):
    """Declining when no optional ability is pending (a turn's flick is not optional)."""


class HouseRulesError(WarlordsError, ValueError):
    """A house-rules file is missing, unreadable or invalid; the message names
    the file, the field and what was expected."""
