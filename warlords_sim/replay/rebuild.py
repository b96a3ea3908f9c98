"""Replaying a file's actions in a fresh game (or sandbox world), digest by digest.

:func:`rebuild` gives the game after a valid prefix (for resume and
branch); :class:`Replayer` steps one action at a time (verify uses it).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from warlords_sim.board import (
    BOARDS_DIR,
    Board,
    BoardError,
    board_from_bytes,
    known_boards,
    load_board,
    read_board_file,
)
from warlords_sim.bots.play import player_rngs
from warlords_sim.bots.policy import Hand, Policy
from warlords_sim.bots.skill import parse_hand
from warlords_sim.physics import FlickError, FlickResult, World, WorldError
from warlords_sim.replay.claims import (
    action_claims,
    first_difference,
    recorded_claims,
    where_differs,
)
from warlords_sim.replay.errors import ReplayError, clip
from warlords_sim.replay.format import ActionLine, DieRec, current_versions
from warlords_sim.replay.loader import Replay, aimed_action, to_action
from warlords_sim.replay.model import check_model, verify_engines
from warlords_sim.replay.paths import recorded_path
from warlords_sim.replay.sandbox import SandboxFlick, apply_sandbox, sandbox_world
from warlords_sim.replay.snapshot import Snapshot, snapshot
from warlords_sim.rules.engine import Game, Outcome
from warlords_sim.rules.errors import HouseRulesError, IllegalActionError
from warlords_sim.rules.game import GameConfig
from warlords_sim.rules.house_rules import HouseRules
from warlords_sim.rules.names import die_name, with_die_names
from warlords_sim.rules.physics_port import make_world

__all__ = [
    "ClaimMismatch",
    "DieDiff",
    "Divergence",
    "Rebuilt",
    "ReplayDivergence",
    "Replayer",
    "board_for",
    "config_for",
    "hand_of",
    "rebuild",
    "version_notes",
]


class ReplayDivergence(ReplayError):
    """A replayed action's settled state differs from the recorded digest."""

    def __init__(self, message: str, divergence: Divergence) -> None:
        super().__init__(message)
        self.divergence = divergence


@dataclass(frozen=True)
class DieDiff:
    """One die whose settled place differs: recorded vs replayed (None: not there)."""

    die: int
    recorded: DieRec | None
    replayed: DieRec | None
    #: the name the window gives the die ("red die 4"; "" in a sandbox)
    name: str = ""

    @property
    def distance_mm(self) -> float | None:
        a, b = self.recorded, self.replayed
        return None if a is None or b is None else math.hypot(b.x - a.x, b.y - a.y)

    @property
    def angle_rad(self) -> float | None:
        a, b = self.recorded, self.replayed
        if a is None or b is None:
            return None
        return math.remainder(b.angle - a.angle, 2 * math.pi)

    def describe(self) -> str:
        """One line for people: the file's id and the window's name of the
        die ("die 3 (red die 4)"), where it was and was replayed."""
        a, b = self.recorded, self.replayed
        die = f"die {self.die} ({self.name})" if self.name else f"die {self.die}"
        if a is None:
            assert b is not None
            return f"{die}: not on the board in the recording, replayed at {_place(b)}"
        if b is None:
            return f"{die}: recorded at {_place(a)}, replayed off the board"
        text = f"{die}: off by {self.distance_mm:.3g} mm, {self.angle_rad:.3g} rad"
        if a.face != b.face:
            text += f", face {a.face} -> {b.face}"
        if a.region != b.region:
            text += f", region {a.region} -> {b.region}"
        return text

    def as_json(self) -> dict[str, object]:
        def d(r: DieRec | None) -> dict[str, object] | None:
            if r is None:
                return None
            return {"x_mm": r.x, "y_mm": r.y, "angle_rad": r.angle, "face": r.face,
                    "region": r.region}  # fmt: skip

        return {
            "die": self.die,
            "name": self.name,
            "recorded": d(self.recorded),
            "replayed": d(self.replayed),
            "distance_mm": self.distance_mm,
            "angle_rad": self.angle_rad,
        }


def _place(r: DieRec) -> str:
    return f"({r.x:.1f}, {r.y:.1f}) mm face {r.face} {r.region}"


@dataclass(frozen=True)
class ClaimMismatch:
    """A line whose digest holds but another claim does not (a hand-edited
    or mis-recorded summary, ``dice``, ``gone``, player or index)."""

    index: int
    line: int
    field: str
    recorded: object
    replayed: object
    #: what gave the replayed value, where it is not the re-simulation
    #: (``"the hand re-delivering `aimed`"``)
    by: str = ""

    def describe(self) -> str:
        where, was, now = where_differs(self.recorded, self.replayed, self.field)
        by = f" by {self.by}" if self.by else ""
        return (
            f"line {self.line} (action {self.index}): field `{where}`: recorded "
            f"{clip(repr(_plain(was)))}, replayed{by} {clip(repr(_plain(now)))}"
        )

    def as_json(self) -> dict[str, object]:
        return {
            "index": self.index,
            "line": self.line,
            "field": self.field,
            "recorded": _plain(self.recorded),
            "replayed": _plain(self.replayed),
            "replayed_by": self.by or None,
        }


def _plain(value: object) -> object:
    """A claim as JSON shows it (dice records as lists)."""
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, DieRec):
        return [value.id, value.x, value.y, value.angle, value.face, value.region]
    return value


@dataclass(frozen=True)
class Divergence:
    """The first action whose replayed digest differs from the recorded one."""

    index: int
    line: int
    action: str
    summary: str
    recorded: str
    replayed: str
    dice: tuple[DieDiff, ...]
    #: :attr:`summary` (as recorded, the file's die ids) with the window's
    #: names of the dice (:func:`~warlords_sim.rules.names.with_die_names`)
    named_summary: str = ""

    def describe(self) -> str:
        summary = self.named_summary or self.summary
        # enough of each digest to show where they part (16 characters at least)
        shown = next(
            (
                i + 4
                for i, (a, b) in enumerate(zip(self.replayed, self.recorded, strict=False))
                if a != b
            ),
            max(len(self.replayed), len(self.recorded)),
        )
        shown = max(shown, 16)
        head = (
            f"action {self.index} (line {self.line}, {self.action}: {summary}) diverges: "
            f"digest {self.replayed[:shown]} replayed, {self.recorded[:shown]} recorded"
        )
        if not self.dice:
            return head + (
                "; every die's recorded place, angle, face and region agree: what differs is "
                "what the line does not record (a die's tilt, the pins, the walls), or the "
                "recorded digest itself was edited or mis-recorded"
            )
        return head + "; " + "; ".join(d.describe() for d in self.dice)

    def as_json(self) -> dict[str, object]:
        return {
            "index": self.index,
            "line": self.line,
            "action": self.action,
            "summary": self.summary,
            "recorded_digest": self.recorded,
            "replayed_digest": self.replayed,
            "dice": [d.as_json() for d in self.dice],
        }


def hand_of(recorded: float | str | None) -> Hand | None:
    """The hand a header's ``hands`` entry records: None for ``"exact"`` or
    null (no scatter), else the :class:`Hand` of that skill."""
    if recorded is None:
        return None
    spec = parse_hand(recorded) if isinstance(recorded, str) else recorded
    return None if spec is None else Hand(spec)


def version_notes(replay: Replay) -> list[str]:
    """How what recorded ``replay`` differs from what runs now, in the
    things its digests depend on (:mod:`warlords_sim.physics.numerics`):
    package, pymunk and Python versions, platform, the C maths library."""
    rec, now = replay.header.versions, current_versions()
    names = {"package": "warlords-sim", "pymunk": "pymunk", "python": "Python",
             "platform": "platform", "libm": "C maths library"}  # fmt: skip
    notes = []
    for k, name in names.items():
        was, here = getattr(rec, k), getattr(now, k)
        if was is None:  # format version 1 or 2: the maths library was not recorded
            notes.append(f"{name} not recorded (here {here})")
        elif was != here:
            notes.append(f"{name} {was} (here {here})")
    return notes


def board_for(
    replay: Replay, board: Board | None = None, force: bool = False
) -> tuple[Board, str | None]:
    """The board to replay on and a warning if its SHA-256 differs (with ``force``).

    Raises:
        ReplayError: the board cannot be loaded, or its SHA-256 differs and not ``force``.
    """
    ref = replay.header.board
    if board is None:
        board = _recorded_board(replay)
    if board.sha256 == ref.sha256:
        if board.name != ref.name:
            raise ReplayError(
                f"{replay.path}: line 1: field `board.name`: expected {board.name!r} (the name "
                f"in the board file of that SHA-256), got {clip(repr(ref.name))}"
            )
        return board, None
    msg = (
        f"{replay.path}: board {board.name!r} ({board.path}) has SHA-256 {board.sha256} "
        f"but the replay was recorded on SHA-256 {ref.sha256}"
    )
    if not force:
        raise ReplayError(msg + "; give --force to replay on this board anyway")
    return board, msg


def _recorded_board(replay: Replay) -> Board:
    """The board the header's ``board.file`` names: a board of ``boards/``,
    or a file (relative to the replay's folder, or an older replay's
    absolute path) whose bytes have the header's SHA-256. Another file is
    not parsed, so that no error echoes what it holds (a replay may name any
    readable file).

    Raises:
        ReplayError: the board cannot be found, read or loaded, or the file
            is not the one the replay was recorded on.
    """
    ref = replay.header.board
    where = f"{replay.path}: line 1: field `board.file`"
    give = f"give --board PATH (its SHA-256 must be {ref.sha256})"
    shipped = Path(ref.file).suffix == "" and "/" not in ref.file and "\\" not in ref.file
    try:
        if shipped:  # a name from boards/: never a file of the current folder
            path = BOARDS_DIR / f"{ref.file}.toml"
            if not path.is_file():
                raise BoardError(
                    f"unknown board {clip(repr(ref.file))}: not in {BOARDS_DIR} "
                    f"(known boards: {', '.join(known_boards()) or 'none'})"
                )
            return load_board(path)  # ours: its errors may quote it
        path = recorded_path(ref.file, replay.path)
        if not path.is_file():
            raise ReplayError(f"{where}: the replay's board file {clip(path)} is not there; {give}")
        _, raw = read_board_file(path)  # bounded; its errors hold no content
    except BoardError as e:
        raise ReplayError(f"{where}: cannot load the replay's board: {e}; {give}") from e
    if hashlib.sha256(raw).hexdigest() != ref.sha256:
        raise ReplayError(
            f"{where}: {clip(path)} is not the board the replay was recorded on (its "
            f"bytes have another SHA-256; not read further); {give}, or --board PATH "
            "--force to replay on another board"
        )
    try:
        return board_from_bytes(raw, path)  # the replay's author knows what it holds
    except BoardError as e:
        raise ReplayError(f"{where}: cannot load the replay's board: {e}; {give}") from e


def config_for(replay: Replay, board: Board) -> GameConfig:
    """The game a game replay's header describes."""
    h = replay.header
    where = f"{replay.path}: line 1"
    try:
        rules = (h.house_rules or HouseRules()).check(where, field_prefix="house_rules.")
    except HouseRulesError as e:  # names the file, the line and the field already
        raise ReplayError(str(e)) from e
    try:
        config = GameConfig(board, h.players, rules)
    except ValueError as e:
        raise ReplayError(f"{where}: {e}") from e
    seats = list(config.seats_for_round(0))
    if h.seats != seats:
        raise ReplayError(
            f"{where}: field `seats`: expected {seats} (the castles of a {h.players}-player "
            f"game's first round under its house rules), got {h.seats}"
        )
    return config


class Replayer:
    """Applies a replay's actions one by one to a fresh game or sandbox world.

    Args:
        replay: the loaded replay.
        board: the board (default: the header's, checked by SHA-256).
        force: replay even if the board's SHA-256 differs.
        policies: one per player (None for a human seat): each bot chooses
            before each of its player's recorded actions, so that its random
            generator stands where it stood when the game was recorded
            (needed to continue the game with bots); where a bot of the
            recorded name chooses otherwise than the file records (its code,
            its skill or the machine differ), :attr:`choices_differ` says so.

    Raises:
        ModelMismatch: the replay was made with another physics model or
            engine (:func:`~warlords_sim.replay.model.check_model`), checked
            before anything else.
        ReplayError: the board cannot be loaded or differs (unless ``force``).
    """

    def __init__(
        self,
        replay: Replay,
        *,
        board: Board | None = None,
        force: bool = False,
        policies: Sequence[Policy | None] | None = None,
    ) -> None:
        self.replay = replay
        # the sandbox world is the 2.5D World
        physics = check_model(replay, verify_engines(replay))
        self.board, self.board_warning = board_for(replay, board, force)
        h = replay.header
        self.game: Game | None = None
        self.world: World | None = None
        if h.mode == "game":
            self.game = Game(config_for(replay, self.board), make_world(self.board, physics.engine))
        else:
            assert h.sandbox is not None
            try:
                self.world = sandbox_world(self.board, h.sandbox)
            except (FlickError, WorldError) as e:
                raise ReplayError(f"{replay.path}: line 1: field `sandbox`: {e}") from e
        self.policies = list(policies) if policies is not None else None
        players = max(h.players, 1)
        seed = h.seed if h.seed is not None else 0
        self.rngs = player_rngs(seed, players)
        if self.policies is not None and len(self.policies) != h.players:
            got = len(self.policies)
            raise ReplayError(f"need {h.players} policies (one per player), got {got}")
        self.index = 0
        self.digests: list[str] = []
        self._recorded: Snapshot = {}
        #: the settled places after the last action, as its line was derived
        #: (what the next line's ``dice`` and ``gone`` are relative to)
        self.after: Snapshot = {}
        #: the first line (since the start) whose digest matched but another
        #: claim did not (summary, dice, gone, player, index)
        self.mismatch: ClaimMismatch | None = None
        self._seats: tuple[int, ...] = ()  # the round's seats before the action in hand
        #: actions (1-based) where a policy named as the recorded bot chose
        #: otherwise than the file records: from there a game continued with
        #: these policies is not the one the recording would have become
        self.choices_differ: list[int] = []

    @property
    def target(self) -> Game | World:
        t = self.game if self.game is not None else self.world
        assert t is not None
        return t

    def step(self) -> Divergence | None:
        """Apply the next action; the divergence if its digest differs.

        Raises:
            ReplayError: the rules (or the physics) refuse the action.
            IndexError: no action left.
        """
        line = self.replay.actions[self.index]
        lineno = self.index + 2
        action = to_action(line.action)
        where = f"{self.replay.path}: line {lineno}: action {line.index} ({action.kind})"
        outcome: Outcome | None = None
        result: FlickResult | None = None
        # the round's seats before the action: the window's names of its dice
        self._seats = tuple(self.game.state.seats) if self.game is not None else ()
        try:
            if isinstance(action, SandboxFlick):
                assert self.world is not None
                result = apply_sandbox(self.world, action)
            else:
                assert self.game is not None
                acting = self.game.state.active
                if line.player is not None and line.player != acting:
                    raise ReplayError(
                        f"{where}: field `player`: expected {acting} (whose turn it is), "
                        f"got {line.player}"
                    )
                if self.policies is not None and not self.game.over:
                    legal = self.game.legal_actions()
                    pol = self.policies[legal.player]
                    if pol is not None:
                        # the bot chooses again, drawing what it drew when the game was
                        # recorded; the recorded bot chooses the recorded action
                        chosen = pol.choose(self.game.state, legal, self.rngs[legal.player])
                        if pol.name == self.replay.header.bots[legal.player] and chosen != action:
                            self.choices_differ.append(self.index + 1)
                self._human_hand(line, acting)
                outcome = self.game.apply(action)
        except IllegalActionError as e:
            assert self.game is not None  # the rules judge only a game's actions
            told = with_die_names(str(e), self.game.config, self._seats)
            raise ReplayError(f"{where}: the rules refuse it: {told}") from e
        except (FlickError, WorldError) as e:
            raise ReplayError(f"{where}: the physics refuses it: {e}") from e
        self.index += 1
        claims = action_claims(
            self.index, action, self.target, self.after, outcome, result, line.player
        )
        self.after = claims.after
        digest = claims.digest
        self.digests.append(digest)
        for r in line.dice:
            self._recorded[r.id] = r
        for g in line.gone:
            self._recorded.pop(g, None)
        if digest != line.digest:
            return self._divergence(line, lineno, action.kind, digest)
        if self.mismatch is None:
            found = first_difference(recorded_claims(line), claims)
            if found is not None:
                self.mismatch = ClaimMismatch(line.index, lineno, *found)
        return None

    def _human_hand(self, line: ActionLine, player: int) -> None:
        """A human's flick through a hand (its line has ``aimed``): that hand
        scatters the aimed flick again with the player's generator, as the
        window's controller did (:meth:`Hand.deliver`), so the generator
        stands where it stood when the game was recorded (the recorded
        action, not this draw, is what is replayed)."""
        aimed = aimed_action(line)
        hands = self.replay.header.hands
        if aimed is None or hands is None or not 0 <= player < len(hands):
            return
        hand = hand_of(hands[player])
        if hand is None or self.game is None:
            return
        delivered = hand.deliver(aimed, self.rngs[player], self.game.state.board)
        recorded = to_action(line.action)
        if self.mismatch is None and delivered != recorded:
            self.mismatch = ClaimMismatch(
                line.index,
                self.index + 2,
                "action",
                recorded.to_dict(),
                delivered.to_dict(),
                "the hand re-delivering `aimed`",
            )

    def _divergence(self, line: ActionLine, lineno: int, kind: str, digest: str) -> Divergence:
        now = snapshot(self.target)
        game = self.game

        def name(die: int) -> str:
            if game is None:
                return ""  # a sandbox's dice have no owners
            try:
                return die_name(game.config, self._seats, die)
            except ValueError:
                return ""

        dice = tuple(
            DieDiff(i, self._recorded.get(i), now.get(i), name(i))
            for i in sorted(set(now) | set(self._recorded))
            if self._recorded.get(i) != now.get(i)
        )
        named = with_die_names(line.summary, game.config, self._seats) if game else ""
        return Divergence(line.index, lineno, kind, line.summary, line.digest, digest, dice, named)


@dataclass
class Rebuilt:
    """A game (or sandbox world) rebuilt from a replay's valid prefix."""

    replay: Replay
    replayer: Replayer
    index: int
    divergence: Divergence | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def game(self) -> Game:
        """The game (game replays)."""
        if self.replayer.game is None:
            raise ReplayError(f"{self.replay.path}: a sandbox replay has no game")
        return self.replayer.game

    @property
    def target(self) -> Game | World:
        return self.replayer.target

    @property
    def rngs(self) -> list[np.random.Generator]:
        return self.replayer.rngs

    @property
    def digests(self) -> list[str]:
        return self.replayer.digests


def rebuild(
    replay: Replay,
    until: int | None = None,
    *,
    policies: Sequence[Policy | None] | None = None,
    board: Board | None = None,
    force: bool = False,
) -> Rebuilt:
    """The game (or sandbox world) after actions 1..``until`` (default: all) of ``replay``.

    Every digest is checked; with ``policies`` the bots' generators are
    brought to where they stood (see :class:`Replayer`), so bots continue
    the game exactly as they would have.

    Raises:
        ModelMismatch: made with another physics model (nothing is simulated).
        ReplayError: ``until`` out of range, the board differs, an action is refused.
        ReplayDivergence: a digest differs (unless ``force``: then
            ``Rebuilt.divergence`` holds the first one).
        ReplayError: a line's other claims (summary, dice, gone, player)
            differ from the re-derived ones although its digest holds
            (unless ``force``: then a warning).
    """
    n = len(replay.actions)
    if until is None:
        until = n
    if not 0 <= until <= n:
        raise ReplayError(
            f"{replay.path}: --until {until} is out of range: the replay has {n} actions"
        )
    rp = Replayer(replay, board=board, force=force, policies=policies)
    out = Rebuilt(replay, rp, 0)
    if rp.board_warning:
        out.warnings.append(rp.board_warning)
    for _ in range(until):
        div = rp.step()
        if div is not None and out.divergence is None:
            if not force:
                raise ReplayDivergence(f"{replay.path}: {div.describe()}", div)
            out.divergence = div
    if rp.mismatch is not None:
        text = f"{replay.path}: {rp.mismatch.describe()}"
        if not force:
            raise ReplayError(text + "; its digests hold, so --force continues from it anyway")
        out.warnings.append(text)
    if rp.choices_differ:
        first, k = rp.choices_differ[0], len(rp.choices_differ)
        out.warnings.append(
            f"{replay.path}: from action {first} the bots choose otherwise than the file "
            f"records ({k} of their actions; their code, skill or this machine differ): the "
            "game goes on from where the file stands, not as the recording would have"
        )
    out.index = until
    return out
