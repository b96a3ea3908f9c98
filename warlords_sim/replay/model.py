"""Which physics a replay was made with, and whether this build may re-simulate it.

A replay's digests are reproducible only by the physics model that made
them. The header's ``physics`` field (format version 2) names the engine
(``"2.5d"`` or ``"reference"``) and its model version
(:data:`warlords_sim.physics.MODEL_VERSION`, or ``MODEL_VERSION`` of
:mod:`warlords_sim.reference`, imported only when a header names that
engine). Everything that re-simulates a replay (verify, rebuild, resume,
branch, watching and rendering in the window) calls :func:`check_model`
first and refuses, in one line naming both versions, a replay of another
model version or of none (format version 1, before replays recorded it).

Loading (:func:`warlords_sim.replay.load_replay`) does not re-simulate and
accepts any model version: the recorded lines (header, summaries, settled
dice, result) can still be read and shown.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from warlords_sim.replay.errors import ReplayError, clip
from warlords_sim.replay.format import PhysicsRef
from warlords_sim.replay.loader import Replay
from warlords_sim.rules.physics_port import ENGINES

__all__ = ["ModelMismatch", "check_model", "current_physics", "verify_engines"]


class ModelMismatch(ReplayError):
    """A replay made with another physics model (or engine) than this build
    can re-simulate; the one-line message names both."""


def current_physics(engine: str = "2.5d") -> PhysicsRef:
    """This build's engine ``engine`` and its model version.

    Raises:
        ReplayError: an engine not in :data:`~warlords_sim.rules.physics_port.ENGINES`,
            or ``"reference"`` when its package cannot be imported or names no
            ``MODEL_VERSION``.
    """
    if engine == "2.5d":
        from warlords_sim.physics import MODEL_VERSION

        return PhysicsRef(engine=engine, model=MODEL_VERSION)
    if engine == "reference":
        try:
            ref = importlib.import_module("warlords_sim.reference")
        except ImportError as e:  # mujoco missing: the `reference` extra
            raise ReplayError(f"engine 'reference' is not available: {e}") from e
        model = getattr(ref, "MODEL_VERSION", None)
        if not isinstance(model, str):
            raise ReplayError(
                "engine 'reference' is not available: warlords_sim.reference has no MODEL_VERSION"
            )
        return PhysicsRef(engine=engine, model=model)
    raise ReplayError(f"unknown physics engine {engine!r}; expected one of {', '.join(ENGINES)}")


def verify_engines(replay: Replay) -> tuple[str, ...]:
    """The engines ``replay --verify`` (and rebuild, resume, branch) can
    re-simulate ``replay`` on: any of :data:`ENGINES` for a game, the 2.5D
    engine only for a sandbox replay (its world is the 2.5D ``World``)."""
    return ENGINES if replay.mode == "game" else ("2.5d",)


def _verify_would_run(replay: Replay) -> bool:
    """Whether ``warlords-sim replay FILE --verify`` would re-simulate it:
    its engine is one verify runs for its mode and this build has its model."""
    rec = replay.header.physics
    if rec is None or rec.engine not in verify_engines(replay):
        return False
    try:
        return current_physics(rec.engine).model == rec.model
    except ReplayError:
        return False


def check_model(replay: Replay, engines: Sequence[str] = ENGINES) -> PhysicsRef:
    """The physics to re-simulate ``replay`` on, if this build has its model.

    Args:
        replay: a loaded replay.
        engines: the engines the caller can re-simulate on (the window: only ``"2.5d"``).

    Returns:
        The header's ``physics`` (engine and model version), equal to this build's.

    Raises:
        ModelMismatch: the header names no model (format version 1), an engine
            not in ``engines`` or one this build cannot run, or another model
            version. One line, naming the file, line 1, the field, the
            recorded version and this build's.
    """
    h = replay.header
    where = f"{replay.path}: line 1"
    rec = h.physics
    package = clip(h.versions.package)
    if rec is None:
        now = current_physics("2.5d")
        raise ModelMismatch(
            f"{where}: no field `physics`: made before replays recorded their physics model "
            f"(format version {h.version}, warlords-sim {package}); this build has "
            f"model {now.model} (engine {now.engine}), so it is not re-simulated: "
            "its digests could not match; re-record it"
        )
    engine, model = clip(repr(rec.engine)), clip(rec.model)
    if rec.engine not in engines:
        only = ", ".join(repr(e) for e in engines)
        head = f"{where}: field `physics.engine`: made on engine {engine} (model {model}); "
        if rec.engine in ENGINES and rec.engine not in verify_engines(replay):
            raise ModelMismatch(
                f"{head}a {replay.mode} replay is re-simulated on "
                f"{', '.join(repr(e) for e in verify_engines(replay))} only, by every "
                "command, so it cannot be checked or watched; re-record it on that engine"
            )
        if _verify_would_run(replay):
            then = f"check it headless with 'warlords-sim replay {replay.path} --verify'"
        else:
            then = _why_not(replay)
        raise ModelMismatch(f"{head}this re-simulates on {only} only; {then}")
    try:
        now = current_physics(rec.engine)
    except ReplayError as e:
        raise ModelMismatch(
            f"{where}: field `physics.engine`: made on engine {engine} (model {model}), but {e}"
        ) from e
    if rec.model != now.model:
        raise ModelMismatch(
            f"{where}: field `physics.model`: made with physics model {model} "
            f"(engine {clip(rec.engine)}); this build has {now.model}, so it is not "
            f"re-simulated: its digests could not match; use the build that made it "
            f"(warlords-sim {package}) or re-record it"
        )
    return rec


def _why_not(replay: Replay) -> str:
    """Why no command of this build re-simulates ``replay`` (its engine is
    one ``--verify`` runs for its mode, but this build's model differs or
    the engine is missing)."""
    rec = replay.header.physics
    assert rec is not None
    try:
        now = current_physics(rec.engine)
    except ReplayError as e:
        return str(e)
    return (
        f"this build's {rec.engine} model is {now.model}, not {clip(rec.model)}, so no "
        f"command re-simulates it; use the build that made it "
        f"(warlords-sim {clip(replay.header.versions.package)}) or re-record it"
    )
