"""Replays: record, load, verify, resume and branch games and flick sequences.

The file format (JSON Lines) is documented in ``docs/replay-format.md``::

    from warlords_sim.replay import Recorder, ReplayError, load_replay, rebuild

    rec = Recorder.create("game.jsonl", config, seed=7, bots=["aim", "human"])
    outcome = game.apply(action)
    rec.record(action, game, outcome)    # one line, flushed and fsync'd
    rec.finish(game)                     # the closing line

    rep = load_replay("game.jsonl")      # checked; a cut-off last line is dropped
    game = rebuild(rep).game             # the game after the valid prefix

Re-simulating (rebuild, verify, resume, branch, the window) refuses a replay
of another physics model version (:mod:`warlords_sim.replay.model`).
"""

from warlords_sim.replay.branch import branch, play_on, resume
from warlords_sim.replay.errors import ReplayError
from warlords_sim.replay.format import FORMAT, READS, VERSION, Header, PhysicsRef
from warlords_sim.replay.loader import Replay, load_replay, to_action
from warlords_sim.replay.model import (
    ModelMismatch,
    check_model,
    current_physics,
    verify_engines,
)
from warlords_sim.replay.rebuild import (
    DieDiff,
    Divergence,
    Rebuilt,
    ReplayDivergence,
    Replayer,
    rebuild,
)
from warlords_sim.replay.recorder import Recorder
from warlords_sim.replay.sandbox import SandboxFlick, apply_sandbox, sandbox_setup, sandbox_world
from warlords_sim.replay.verify import VerifyReport, verify

__all__ = [
    "FORMAT",
    "READS",
    "VERSION",
    "DieDiff",
    "Divergence",
    "Header",
    "ModelMismatch",
    "PhysicsRef",
    "Rebuilt",
    "Recorder",
    "Replay",
    "ReplayDivergence",
    "ReplayError",
    "Replayer",
    "SandboxFlick",
    "VerifyReport",
    "apply_sandbox",
    "branch",
    "check_model",
    "current_physics",
    "load_replay",
    "play_on",
    "rebuild",
    "resume",
    "sandbox_setup",
    "sandbox_world",
    "to_action",
    "verify",
    "verify_engines",
]
