"""Recording a replay as play goes: each line appended, flushed and fsync'd.

::

    rec = Recorder.create("game.jsonl", config, seed=7, bots=["aim", "human"])
    outcome = game.apply(action)
    rec.record(action, game, outcome)   # after the action settles
    ...
    rec.finish(game)                    # the closing line with the result

A crash or a killed process loses at most the action in flight: every line
is on disk (``os.fsync``) before the next action starts.

With ``force`` an existing file is not truncated: the lines go to a hidden
temporary sibling (``.NAME.XXXX.partial.jsonl``, :attr:`Recorder.path`)
that replaces the target (:attr:`Recorder.target`, ``os.replace``) only
when the recording ends (:meth:`Recorder.finish` or :meth:`Recorder.place`).
A failed or interrupted run leaves the old file as it was and its own
resumable prefix in the temporary file; two forced runs at once each write
their own, and the target ends up one whole recording. A run that fails
before its first action removes the file it created (``with`` block or
:meth:`Recorder.discard`).

A recorder holds an exclusive lock on its file (:func:`fcntl.flock`, where
the system has it) while it is open, so that a second process cannot
append to a game that is still being recorded (two hosts resuming one
file once wrote the same action index twice and made it unreadable):
:meth:`Recorder.append` refuses a file another recorder holds, and one
that changed after it was read.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import shlex
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, TYPE_CHECKING, Any

import msgspec

from warlords_sim._files import exists_message, temp_sibling
from warlords_sim.board import BOARDS_DIR, Board
from warlords_sim.bots.skill import EXACT, HandSpec, SkillLevel, SkillName, as_skill
from warlords_sim.physics import FlickResult, World
from warlords_sim.replay.claims import action_claims, result_claims
from warlords_sim.replay.errors import ReplayError
from warlords_sim.replay.format import (
    FORMAT,
    VERSION,
    ActionLine,
    BoardRef,
    BranchOf,
    HandRec,
    Header,
    ResultLine,
    SandboxSetup,
    current_versions,
)
from warlords_sim.replay.model import current_physics
from warlords_sim.replay.paths import recorded_name
from warlords_sim.replay.sandbox import SandboxFlick, sandbox_setup
from warlords_sim.replay.snapshot import (
    Snapshot,
    Target,
    as_state,
    snapshot,
)
from warlords_sim.rules.actions import Action, BoardFlick, SiegeShot, SupplyFlick
from warlords_sim.rules.engine import Outcome
from warlords_sim.rules.game import GameConfig

if TYPE_CHECKING:
    from warlords_sim.replay.loader import Replay

__all__ = ["Recorder", "make_header"]


def _dumps(obj: Any) -> bytes:
    try:
        return (json.dumps(obj, allow_nan=False, separators=(",", ":")) + "\n").encode()
    except ValueError as e:
        raise ReplayError(f"cannot record a non-finite number: {e}") from e


def _board_file(board: Board, replay: str | os.PathLike[str] | None) -> str:
    """The header's ``board.file``: the name of a board of ``boards/``, else
    the file as the replay at ``replay`` names it (:func:`.paths.recorded_name`:
    relative to the replay's folder, or the file's name; ``./`` before a
    name without a suffix, which would read as a board of ``boards/``). No
    local path goes into a file that is shared."""
    p = Path(board.path)
    try:
        if p.resolve().parent == BOARDS_DIR.resolve():
            return p.stem
    except OSError:
        pass
    name = recorded_name(p, replay) if replay is not None else p.name
    return f"./{name}" if "/" not in name and Path(name).suffix == "" else name


def make_header(
    config: GameConfig | Board,
    *,
    seed: int | None,
    bots: Sequence[str],
    mode: str = "game",
    skill: float | str | SkillLevel | None = None,
    sandbox: SandboxSetup | None = None,
    branch_of: BranchOf | None = None,
    engine: str = "2.5d",
    path: str | os.PathLike[str] | None = None,
    hands: Sequence[HandSpec | str] | None = None,
) -> Header:
    """The header of a new replay of ``config`` (a :class:`Board` for a sandbox),
    played on physics ``engine`` (its model version is recorded with it), to
    be written to ``path`` (a board file is named relative to its folder;
    None: by the file's name alone).

    ``skill`` is recorded as given: a number as that number, a level by its
    name (``"club"``). ``hands`` gives each human player's hand in the
    window (a skill, or None or ``"exact"`` for no scatter; a bot's entry is
    ignored and recorded as null); None records no ``hands`` (every human
    flick exact, as before format version 4).

    Raises:
        ReplayError: a mode that does not fit ``config``, not one bot name per
            player, an unknown or unavailable engine, a skill outside [0, 1]
            or an unknown level, not one hand per player.
    """
    if mode not in ("game", "sandbox"):
        raise ReplayError(f"replay mode must be 'game' or 'sandbox', got {mode!r}")
    if isinstance(config, Board):
        if mode != "sandbox":
            raise ReplayError("a replay of a bare board must be a sandbox (mode='sandbox')")
        board = config
        players, seats, rules = 0, [], None
        setup = sandbox if sandbox is not None else sandbox_setup(board)
    else:
        if mode != "game":
            raise ReplayError("a sandbox replay takes a Board, not a GameConfig")
        board = config.board
        players, seats, rules = config.players, list(config.seats_for_round(0)), config.house_rules
        setup = None
        if len(bots) != players:
            raise ReplayError(f"need one bot name per player ({players}), got {list(bots)}")
    now = _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()
    return Header(
        format=FORMAT,
        version=VERSION,
        versions=current_versions(),
        physics=current_physics(engine),
        created=now,
        mode="sandbox" if mode == "sandbox" else "game",
        board=BoardRef(name=board.name, file=_board_file(board, path), sha256=board.sha256),
        players=players,
        seats=seats,
        bots=list(bots),
        skill=_recorded_skill(skill),
        hands=_recorded_hands(hands, bots, players),
        seed=seed,
        house_rules=rules,
        sandbox=setup,
        branch_of=branch_of,
    )


def _recorded_hands(
    hands: Sequence[HandSpec | str] | None, bots: Sequence[str], players: int
) -> list[HandRec] | None:
    """The header's ``hands``: per player, a human's hand by its label
    (``"exact"``, ``"club"``, ``0.7``), null for a bot's seat."""
    if hands is None:
        return None
    if len(hands) != players:
        raise ReplayError(f"need one hand per player ({players}), got {list(hands)}")
    out: list[HandRec] = []
    for name, hand in zip(bots, hands, strict=True):
        if name != "human":
            out.append(None)
        elif hand is None or hand == EXACT:
            out.append("exact")
        else:
            out.append(_recorded_skill(hand))
    return out


def _recorded_skill(skill: float | str | SkillLevel | None) -> float | SkillName | None:
    """The header's ``skill``: a number as given, a level by its name."""
    if skill is None:
        return None
    try:
        s = as_skill(skill)
    except ValueError as e:
        raise ReplayError(str(e)) from None
    return s.value if isinstance(s, SkillLevel) else s


class Recorder:
    """Appends a replay's lines to a file (see the module docstring).

    Use :meth:`create` for a new file and :meth:`append` to continue one
    that ends without a result.
    """

    def __init__(
        self,
        path: Path,
        fh: IO[bytes],
        header: Header,
        next_index: int = 1,
        last: Snapshot | None = None,
        next_player: int | None = None,
    ) -> None:
        self.path = path
        #: where the recording ends up (``path`` unless a forced one is pending)
        self.target = path
        #: the file was created by this recorder (not an append)
        self.created = False
        self.header = header
        self._fh = fh
        self._index = next_index
        self._last: Snapshot = dict(last or {})
        self._next_player = next_player
        self._finished = False
        #: The last line written, as its JSON object (None before the
        #: first): what a network host sends its clients once it is on disk.
        self.last_line: dict[str, Any] | None = None

    # ---------------------------------------------------------------- open

    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        config: GameConfig | Board,
        *,
        seed: int | None,
        bots: Sequence[str],
        mode: str = "game",
        force: bool = False,
        skill: float | str | SkillLevel | None = None,
        sandbox: SandboxSetup | None = None,
        branch_of: BranchOf | None = None,
        engine: str = "2.5d",
        hands: Sequence[HandSpec | str] | None = None,
    ) -> Recorder:
        """Start a new replay at ``path`` and write its header line.

        Args:
            config: the game (a :class:`Board` for ``mode="sandbox"``).
            seed: the game's seed (None if not seeded).
            bots: one name per player ("aim", "random", "human", ...); empty for a sandbox.
            force: replace an existing file when the recording ends (until
                then it is written to a hidden temporary sibling; without
                ``force`` an existing file is never touched).
            skill: the bots' skill, if any: a number in [0, 1] or a level
                (recorded by its name).
            sandbox: the sandbox world's set-up (default: the ``flick`` command's).
            engine: the physics engine the game runs on (``"2.5d"`` or
                ``"reference"``); the header records it with its model version.
            hands: each player's hand in the window (see :func:`make_header`).

        Raises:
            ReplayError: ``path`` exists (and not ``force``) or cannot be
                written; an unknown or unavailable engine.
        """
        header = make_header(
            config,
            seed=seed,
            bots=bots,
            mode=mode,
            skill=skill,
            sandbox=sandbox,
            branch_of=branch_of,
            engine=engine,
            path=path,
            hands=hands,
        )
        p = Path(path)
        target = p
        try:
            if force:
                p = temp_sibling(target)
                fh = open(p, "wb", buffering=0)  # noqa: SIM115 (kept open while recording)
            else:
                fh = open(p, "xb", buffering=0)  # noqa: SIM115 (kept open while recording)
        except FileExistsError:
            raise ReplayError(exists_message("", p)) from None
        except OSError as e:
            raise ReplayError(f"{target}: cannot write the replay: {e.strerror or e}") from e
        _lock(fh, target)
        first = None if isinstance(config, Board) else config.house_rules.first_player
        rec = cls(p, fh, header, next_player=first)
        rec.target = target
        rec.created = True
        try:
            rec._write(msgspec.to_builtins(header))
        except BaseException:
            rec.discard()
            raise
        return rec

    @classmethod
    def append(cls, replay: Replay, target: Target, after: Snapshot | None = None) -> Recorder:
        """Continue ``replay``'s file after its valid prefix (a resume).

        ``target`` is the game (or sandbox world) rebuilt from that prefix
        (:func:`warlords_sim.replay.rebuild`) and ``after`` the settled
        places its last line was derived from (``Rebuilt.replayer.after``;
        default: ``target``'s, which differ when that line ended a round). A
        line cut off by a crash is removed first; nothing else in the file
        changes.

        Raises:
            ReplayError: the replay already has a result, or the file cannot be written.
        """
        if replay.result is not None:
            raise ReplayError(f"{replay.path}: the replay is finished (it has a result line)")
        p = replay.path
        try:
            fh = open(p, "r+b", buffering=0)  # noqa: SIM115 (kept open while recording)
        except OSError as e:
            raise ReplayError(f"{p}: cannot append to the replay: {e.strerror or e}") from e
        try:
            _lock(fh, p)
            _unchanged_since_read(fh, replay)
        except BaseException:
            fh.close()
            raise
        try:
            fh.truncate(replay.valid_bytes)
            fh.seek(replay.valid_bytes)
            if replay.needs_newline:
                fh.write(b"\n")
        except OSError as e:
            raise ReplayError(f"{p}: cannot append to the replay: {e.strerror or e}") from e
        st = as_state(target)
        nxt = None if isinstance(st, World) else st.active
        last = snapshot(target) if after is None else after
        return cls(p, fh, replay.header, len(replay.actions) + 1, last, nxt)

    # -------------------------------------------------------------- writing

    def _write(self, obj: Any) -> None:
        """Append one line whole and make it durable (fsync), or, on an error
        (a full disk), cut the file back to its last whole line and raise.

        The file is unbuffered: nothing of a failed line is left in a buffer
        for a later close to write, so the lines before it stay a valid,
        resumable replay.
        """
        data = memoryview(_dumps(obj))
        fh = self._fh
        start = fh.seek(0, os.SEEK_END)
        try:
            while data:
                data = data[fh.write(data) or 0 :]
            os.fsync(fh.fileno())
        except OSError as e:
            with contextlib.suppress(OSError):
                fh.truncate(start)
            raise ReplayError(self._cannot_write(e)) from e
        self.last_line = obj

    def _cannot_write(self, e: OSError) -> str:
        """The one line of a failed write: the file, why, and what is kept
        (the actions before, and how to go on from them)."""
        why = f"{self.path}: cannot write the replay: {e.strerror or e}"
        n = self.actions
        if n == 0 and self.created:
            return f"{why} (nothing was recorded)"
        kept = f"{why}; the {n} actions recorded before are kept"
        if self.pending:
            kept += f" there ({self.target_note()})"
        how = self.how_to_continue()
        if how is None:
            return kept
        return f"{kept}: free some space, then continue the game with: {how}"

    def how_to_continue(self) -> str | None:
        """The commands that continue this recording's game from where its
        file ends (None for a sandbox), e.g. ``warlords-sim play --resume
        g.jsonl (or headless: warlords-sim replay g.jsonl --branch NEW
        --bots aim,aim)``."""
        if self.header.mode != "game":
            return None
        path = shlex.quote(str(self.path))
        how = f"warlords-sim play --resume {path}"
        if "human" not in self.header.bots:
            bots = ",".join(self.header.bots)
            how += f" (or headless: warlords-sim replay {path} --branch NEW --bots {bots})"
        return how

    @property
    def actions(self) -> int:
        """Actions written so far."""
        return self._index - 1

    def record(
        self,
        action: Action | SandboxFlick,
        game: Target,
        outcome: Outcome | None = None,
        result: FlickResult | None = None,
        aimed: Action | None = None,
    ) -> None:
        """Append the line of ``action``, which has just settled in ``game``.

        Args:
            action: the action applied (a :class:`SandboxFlick` in a sandbox):
                for a flick through a hand, what the hand delivered.
            game: the game after the action (Game, GameState or sandbox World).
            outcome: what the engine returned (required in a game: the line
                records :meth:`Outcome.settled` and summarizes the outcome).
            result: a sandbox flick's result (optional).
            aimed: the flick as aimed before the hand scattered it, recorded
                beside the action as ``aimed`` (its velocity, spin and
                strike height; not in a file of format version 3 or older,
                which has no such field).
        """
        if self._finished:
            raise ReplayError(f"{self.path}: the replay is finished")
        if outcome is None and not isinstance(as_state(game), World):
            raise ReplayError(
                f"{self.path}: a game action needs its outcome (what Game.apply returned): "
                "the line records the state it settled in and its summary"
            )
        claims = action_claims(
            self._index, action, game, self._last, outcome, result, self._next_player
        )
        self._last = claims.after
        line = claims.as_line(action.to_dict())
        if isinstance(aimed, SupplyFlick | BoardFlick | SiegeShot) and self.header.version >= 4:
            line["aimed"] = {
                "velocity": [aimed.velocity[0], aimed.velocity[1]],
                "spin": aimed.spin,
                "strike_mm": aimed.strike_mm,
            }
        self._write(line)
        self._index += 1
        st = as_state(game)
        if not isinstance(st, World):
            self._next_player = st.active

    def copy_line(self, line: ActionLine, digest: str | None = None) -> None:
        """Append an already recorded action line (renumbered; optionally a new digest)."""
        obj = msgspec.to_builtins(line)
        obj["index"] = self._index
        if digest is not None:
            obj["digest"] = digest
        self._write(obj)
        self._index += 1

    def sync(self, game: Target, after: Snapshot | None = None) -> None:
        """Take ``game`` as the state after the last line (after
        :meth:`copy_line`), and ``after`` as the places that line was derived
        from (default: ``game``'s; see :meth:`append`)."""
        self._last = snapshot(game) if after is None else after
        st = as_state(game)
        if not isinstance(st, World):
            self._next_player = st.active

    def finish(self, result: Target | None = None) -> ResultLine:
        """Write the closing line (the game's result, or the sandbox's end) and close."""
        obj: dict[str, Any] = {"kind": "result", **result_claims(self.actions, result)}
        self._write(obj)
        self._finished = True
        self.place()
        return msgspec.convert(obj, ResultLine)

    @property
    def pending(self) -> bool:
        """A forced recording not yet moved to :attr:`target`."""
        return self.path != self.target

    def target_note(self, option: str = "") -> str:
        """What a pending recording left at :attr:`target` (``option``, such
        as ``"--record"``, before its name): "--record g.jsonl is unchanged"
        where a file was there before, "nothing was written to --record
        g.jsonl" where none was (the recording so far is in :attr:`path`)."""
        name = f"{option} {self.target}" if option else str(self.target)
        if self.target.exists():
            return f"{name} is unchanged"
        return f"nothing was written to {name}"

    def place(self) -> Path:
        """Close the file and, for a forced recording, move it to
        :attr:`target` (replacing the old file); returns where it now is.

        Raises:
            ReplayError: the move fails (the recording stays at :attr:`path`).
        """
        self.close()
        if self.pending:
            try:
                os.replace(self.path, self.target)
            except OSError as e:
                raise ReplayError(
                    f"{self.target}: cannot replace it with the recording {self.path}: "
                    f"{e.strerror or e}"
                ) from e
            self.path = self.target
        return self.path

    def close(self) -> None:
        """Close the file (without a result: the replay stays resumable at
        :attr:`path`, which for a forced recording is still the temporary file)."""
        if not self._fh.closed:
            self._fh.close()

    def discard(self) -> bool:
        """Close, and remove the file if this recorder created it and no
        action was recorded (a run that failed before it began); returns
        whether it was removed. Otherwise the prefix stays at :attr:`path`."""
        self.close()
        if self.created and self.actions == 0 and not self._finished:
            Path(self.path).unlink(missing_ok=True)
            return True
        return False

    def __enter__(self) -> Recorder:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """A normal exit: :meth:`place` (a forced recording replaces the old
        file). On an exception: :meth:`discard` (the file is removed if no
        action was recorded, else the prefix stays at :attr:`path`)."""
        if exc_type is not None:
            self.discard()
        else:
            self.place()


def _lock(fh: IO[bytes], path: Path) -> None:
    """Hold an exclusive lock on the open replay ``fh`` until it is closed
    (nothing where the system has no :func:`fcntl.flock`).

    Raises:
        ReplayError: another process holds it (it is recording this game).
    """
    try:
        import fcntl
    except ImportError:
        return
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise ReplayError(
            f"{path}: another warlords-sim is recording this game now (a host or a "
            "play still running it): stop that one first, or join its game"
        ) from None
    except OSError:
        return  # a file system without locks: nothing to hold


def _unchanged_since_read(fh: IO[bytes], replay: Replay) -> None:
    """Raise if the file under ``fh`` (locked) is not the one ``replay`` was
    read from: more lines were written since, by a recorder that has ended."""
    from warlords_sim.replay.loader import load_replay

    again = load_replay(replay.path)
    if (again.valid_bytes, len(again.actions)) != (replay.valid_bytes, len(replay.actions)):
        raise ReplayError(
            f"{replay.path}: the replay changed while it was being read (another "
            f"warlords-sim wrote {len(again.actions) - len(replay.actions)} more actions "
            "to it): run the command again to go on from where it stands now"
        )
