"""Continue a replay headless with bots: resume a file that ends without a
result, or branch a new file from any action ("what if")."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from pathlib import Path

import msgspec

from warlords_sim._files import exists_message
from warlords_sim.board import Board
from warlords_sim.bots.policy import Policy
from warlords_sim.bots.skill import SkillLevel
from warlords_sim.replay.errors import ReplayError
from warlords_sim.replay.format import BranchOf
from warlords_sim.replay.loader import Replay, load_replay
from warlords_sim.replay.paths import recorded_name
from warlords_sim.replay.rebuild import Rebuilt, rebuild
from warlords_sim.replay.recorder import Recorder
from warlords_sim.rules.engine import Game
from warlords_sim.rules.errors import IllegalActionError
from warlords_sim.rules.game import GameState

__all__ = ["branch", "play_on", "resume"]


def play_on(
    rebuilt: Rebuilt,
    policies: Sequence[Policy],
    recorder: Recorder,
    max_actions: int = 100_000,
) -> GameState:
    """Play ``rebuilt``'s game to the end with ``policies`` (one per player),
    recording every action, then the result.

    Raises:
        IllegalActionError: a policy chose an illegal action (names the bot).
        RuntimeError: the game did not end within ``max_actions``.
    """
    game: Game = rebuilt.game
    rngs = rebuilt.rngs
    for _ in range(max_actions):
        if game.over:
            break
        legal = game.legal_actions()
        p = legal.player
        action = policies[p].choose(game.state, legal, rngs[p])
        try:
            outcome = game.apply(action)
        except IllegalActionError as e:
            raise type(e)(f"bot {policies[p].name!r} (player {p}): {e}") from e
        recorder.record(action, game, outcome)
    else:
        raise RuntimeError(f"the game did not end within {max_actions} actions")
    recorder.finish(game)
    return game.state


def resume(
    path: str | os.PathLike[str],
    policies: Sequence[Policy],
    *,
    board: Board | None = None,
    force: bool = False,
) -> GameState:
    """Continue the game of ``path`` (which ends without a result, e.g. after
    a crash) with ``policies`` and append to the file.

    A last line cut off in the middle is removed; the bots' generators are
    brought to where they stood, so a game of bots ends as it would have.

    Raises:
        ReplayError: a bad file, a finished game, a divergence (unless ``force``).
    """
    replay = load_replay(path)
    if replay.result is not None:
        raise ReplayError(f"{replay.path}: the game is finished (it has a result line)")
    rebuilt = rebuild(replay, policies=policies, board=board, force=force)
    with Recorder.append(replay, rebuilt.game, rebuilt.replayer.after) as rec:
        return play_on(rebuilt, policies, rec)


def branch(
    replay: Replay,
    new_path: str | os.PathLike[str],
    until: int,
    policies: Sequence[Policy] | None,
    bots: Sequence[str],
    *,
    skill: float | str | SkillLevel | None = None,
    board: Board | None = None,
    force: bool = False,
    overwrite: bool = False,
) -> Rebuilt:
    """Write actions 1..``until`` of ``replay`` to ``new_path`` and continue
    from there with ``policies`` (headless); without policies the new file
    stops after action ``until`` (to be continued in the window).

    Nothing is written unless the prefix replays (legal, digests equal,
    or ``force``).

    The new file keeps the recording's ``hands`` and each line's ``aimed``
    while its seats keep their players (no ``policies``); with bots in every
    seat it has neither (a bot's line has no ``aimed``), and the prefix is
    rebuilt as the new file says, so resuming the new file brings every
    generator to where the branch left it.

    Raises:
        ReplayError: see :func:`rebuild`; ``new_path`` exists (unless ``overwrite``).
    """
    if Path(new_path).exists() and not overwrite:
        raise ReplayError(exists_message("", new_path))
    replay = _as_branched(replay, bots)
    rebuilt = rebuild(replay, until, policies=policies, board=board, force=force)
    h = replay.header
    target = rebuilt.target
    config = rebuilt.game.config if h.mode == "game" else rebuilt.replayer.board
    rec = Recorder.create(
        new_path,
        config,
        seed=h.seed,
        bots=list(bots) if h.mode == "game" else [],
        mode=h.mode,
        force=overwrite,
        skill=skill,
        sandbox=h.sandbox,
        branch_of=BranchOf(file=recorded_name(replay.path, new_path), until=until),
        engine=h.physics.engine if h.physics is not None else "2.5d",
        hands=h.hands,
    )
    try:
        with rec:
            for line, digest in zip(replay.actions[:until], rebuilt.digests, strict=True):
                rec.copy_line(line, digest)
            rec.sync(target, rebuilt.replayer.after)
            if h.mode == "game" and rebuilt.game.over:
                rec.finish(target)
            elif policies is not None and h.mode == "game":
                play_on(rebuilt, policies, rec)
            rec.place()  # a forced branch replaces NEW only now, complete
    except KeyboardInterrupt as e:  # say where the resumable prefix is
        if Path(rec.path).exists():
            kept = f" ({rec.target_note()})" if rec.pending else ""
            e.add_note(f"the recording so far is in {rec.path}{kept}")
        raise
    return rebuilt


def _as_branched(replay: Replay, bots: Sequence[str]) -> Replay:
    """``replay`` as a branch played by ``bots`` records it: a seat that a
    bot takes over has no hand in the header and no ``aimed`` on its lines
    (the rebuilt generators are then those a resume of the branch rebuilds)."""
    h = replay.header
    if h.hands is None or h.mode != "game":
        return replay
    hands = [hand if name == "human" else None for name, hand in zip(bots, h.hands, strict=True)]
    if hands == h.hands:
        return replay
    bot_seats = {p for p, hand in enumerate(hands) if hand is None}
    actions = [
        msgspec.structs.replace(line, aimed=None) if line.player in bot_seats else line
        for line in replay.actions
    ]
    header = msgspec.structs.replace(h, hands=None if all(x is None for x in hands) else hands)
    return dataclasses.replace(replay, header=header, actions=actions)
