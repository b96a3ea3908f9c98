"""Many independent copies of one game state, made cheaply.

A planning bot plays dozens of candidate flicks from the same position, each
on its own copy of the :class:`~warlords_sim.rules.game.GameState`.
:meth:`GameState.copy` deep-copies the physics world object by object (a
pymunk space with its bodies, shapes, constraints and cached contacts). A
:class:`Snapshot` pickles the state once and unpickles it for every copy,
which rebuilds the same objects from one byte string. In four-player games
on the development machine a copy from a snapshot cost 2.5 ms of CPU at the
median against 9.6 ms for :meth:`GameState.copy` (``python
benchmarks/copies.py``). The board and the game config are immutable and
shared, never pickled.

A copy continues exactly as a :meth:`GameState.copy` does: pickling goes
through the same ``__getstate__``/``__setstate__`` of every object as
``copy.deepcopy`` does, floats keep all their bits, and pymunk restores the
cached contacts (arbiters) with the space (tests/test_rules_snapshot.py
checks digests flick by flick). Neither kind of copy follows the *original*
bit for bit once three dice touch at once: pymunk rebuilds its spatial index
in a copy, and may then meet the contacts in another order. The copy plays
the same game, apart by hundredths of a millimetre at the median and a few
millimetres at most, never with a die in another place (the figures are
printed by ``benchmarks/copies.py``).

A physics engine that cannot be pickled falls back to
:meth:`GameState.copy` for each copy (both shipped engines pickle: the
reference engine's snapshot carries its compiled MuJoCo model, about
100 kB).
"""

from __future__ import annotations

import io
import pickle
from typing import Any

from warlords_sim.rules.game import GameConfig, GameState

__all__ = ["Snapshot"]


class _Pickler(pickle.Pickler):
    """Pickles everything but the shared immutable board and config."""

    def __init__(self, file: io.BytesIO, config: GameConfig) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._shared = {id(config): "config", id(config.board): "board"}

    def persistent_id(self, obj: Any) -> str | None:
        return self._shared.get(id(obj))


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, config: GameConfig) -> None:
        super().__init__(file)
        self._shared: dict[str, object] = {"config": config, "board": config.board}

    def persistent_load(self, pid: Any) -> object:
        return self._shared[str(pid)]


class Snapshot:
    """A game state frozen once, to be copied many times.

    Args:
        state: the state to freeze; later changes to it do not reach the
            snapshot.

    Raises:
        TypeError: ``state`` is not a :class:`GameState`.
    """

    def __init__(self, state: GameState) -> None:
        if not isinstance(state, GameState):
            raise TypeError(f"Snapshot needs a GameState, got {type(state).__name__}")
        self.config = state.config
        self._blob: bytes | None = None
        self._state: GameState | None = None
        buf = io.BytesIO()
        try:
            _Pickler(buf, state.config).dump(state)
        except Exception:  # noqa: BLE001 - whatever an object's __reduce__ raises
            self._state = state.copy()
        else:
            self._blob = buf.getvalue()

    @property
    def pickled(self) -> bool:
        """Copies are unpickled (False: the physics engine cannot be
        pickled, and each copy is a :meth:`GameState.copy`)."""
        return self._blob is not None

    def copy(self) -> GameState:
        """An independent copy of the frozen state."""
        if self._blob is None:
            if self._state is None:  # pragma: no cover - __init__ sets one
                raise RuntimeError("snapshot holds nothing")
            return self._state.copy()
        state = _Unpickler(io.BytesIO(self._blob), self.config).load()
        if not isinstance(state, GameState):  # pragma: no cover - our own blob
            raise TypeError(f"snapshot held a {type(state).__name__}, not a GameState")
        return state
