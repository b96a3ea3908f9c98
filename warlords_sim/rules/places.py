"""Free places for the siege engine and the Spy, searched once per state.

A bot tests a siege shot or a Spy's spot, then the rules check the same
action and carry it out: each asks the physics for the free place nearest a
point (``Physics.free_spot_near``, a ring search of about 2-5 ms CPU) with the
same arguments on the same, unchanged state. :func:`free_spot_near` answers
the repeats from a small memo keyed by the physics state's ``digest()``
(every die's id, position, angle, orientation and floor, the pins, the walls
in force and the siege engine: everything the search reads), the board's
``sha256`` and the arguments. The answer is the search's own, so nothing
simulated changes; a physics without ``digest()`` is searched every time.
"""

from __future__ import annotations

from warlords_sim.rules.game import GameState

__all__ = ["free_spot_near"]

_MEMO: dict[tuple[object, ...], tuple[float, float]] = {}
_MEMO_SIZE = 64


def free_spot_near(
    state: GameState, x: float, y: float, width: float, exclude_die: int | None = None
) -> tuple[float, float]:
    """``state.physics.free_spot_near(x, y, width, exclude_die)``, memoized.

    Raises:
        WorldError: as the physics' ``free_spot_near`` (never memoized).
    """
    phys = state.physics
    digest = getattr(phys, "digest", None)
    if not callable(digest):
        return phys.free_spot_near(x, y, width, exclude_die=exclude_die)
    key = (state.board.sha256, digest(), x, y, width, exclude_die)
    spot = _MEMO.get(key)
    if spot is None:
        spot = phys.free_spot_near(x, y, width, exclude_die=exclude_die)
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        _MEMO[key] = spot
    return spot
