"""Loading a replay: every line checked, every problem explained in one line.

A last line cut off in the middle (a crash while writing it) is not an
error: the replay keeps the valid prefix and says so (``truncated`` and a
warning), so the game can be resumed. Any other bad line raises
:class:`ReplayError` naming the file, the line, the field and what was
expected.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import enum
import json
import math
import os
import re
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import msgspec

from warlords_sim._files import (
    MAX_INT_DIGITS,
    FileProblem,
    find_long_number,
    parse_json,
    read_user_file,
)
from warlords_sim._msgspec import field_problem, where_and_what
from warlords_sim.bots import BOTS, SKILL_LEVELS
from warlords_sim.bots.skill import EXACT, HAND_CHOICES
from warlords_sim.physics import MODEL_VERSION
from warlords_sim.replay.errors import ReplayError, clip
from warlords_sim.replay.format import (
    FORMAT,
    GAME_ACTIONS,
    READS,
    ActionLine,
    ActionRec,
    BoardFlickRec,
    Header,
    ResultLine,
    SandboxFlickRec,
    SiegeShotRec,
    SupplyFlickRec,
)
from warlords_sim.replay.sandbox import SandboxFlick
from warlords_sim.rules.actions import (
    Action,
    BoardFlick,
    SiegeShot,
    SupplyFlick,
    action_from_dict,
)
from warlords_sim.rules.errors import HouseRulesError
from warlords_sim.rules.physics_port import ENGINES

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_LINE_BYTES",
    "Replay",
    "load_replay",
    "parse_replay",
    "to_action",
]

#: A replay larger than this is refused (the largest example, a 4-player
#: game, is 241 kB).
MAX_FILE_BYTES = 64 << 20
#: A line longer than this is refused before it is parsed (the longest of the
#: examples is 1.8 kB; a result line of 100 rounds of 4 players with 20 dice
#: each about 130 kB), so that no line can cost more than its bytes' worth.
MAX_LINE_BYTES = 1 << 20


@dataclass
class Replay:
    """A loaded replay.

    Attributes:
        path: the file.
        header: the header line.
        actions: the action lines, in order (action i is ``actions[i - 1]``,
            on line i + 1 of the file).
        result: the closing line, or None (a game still going, or cut off).
        truncated: the last line was cut off in the middle (and dropped).
        warnings: one-line notes for people (the cut-off line).
        valid_bytes: length in bytes of the valid prefix of the file.
        needs_newline: the valid prefix ends without a newline.
    """

    path: Path
    header: Header
    actions: list[ActionLine]
    result: ResultLine | None = None
    truncated: bool = False
    warnings: list[str] = field(default_factory=list)
    valid_bytes: int = 0
    needs_newline: bool = False

    @property
    def mode(self) -> str:
        return self.header.mode

    def action(self, index: int) -> Action | SandboxFlick:
        """Action ``index`` (1-based) as a rules action (or a sandbox flick)."""
        return to_action(self.actions[index - 1].action)


def to_action(rec: ActionRec) -> Action | SandboxFlick:
    """The rules action (or :class:`SandboxFlick`) an action record describes."""
    d = msgspec.to_builtins(rec)
    if isinstance(rec, SandboxFlickRec):
        return SandboxFlick.from_dict(d)
    return action_from_dict(d)


def aimed_action(line: ActionLine) -> Action | None:
    """The flick of ``line`` as it was aimed, before the hand scattered it
    (its ``aimed`` field; format version 4 on), or None where the line has
    none (a bot's flick, an exact hand's, any other action, older files)."""
    if line.aimed is None:
        return None
    action = to_action(line.action)
    if not isinstance(action, SupplyFlick | BoardFlick | SiegeShot):
        return None
    a = line.aimed
    return dataclasses.replace(
        action, velocity=(a.velocity[0], a.velocity[1]), spin=a.spin, strike_mm=a.strike_mm
    )


def _nonfinite(obj: Any, where: str = "") -> str | None:
    """Path of the first NaN or infinite number in ``obj``, if any."""
    if isinstance(obj, float):
        return None if math.isfinite(obj) else where
    if isinstance(obj, dict):
        for k, v in obj.items():
            bad = _nonfinite(v, f"{where}.{k}" if where else str(k))
            if bad is not None:
                return bad
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            bad = _nonfinite(v, f"{where}[{i}]")
            if bad is not None:
                return bad
    return None


def _get(obj: Any, path: str) -> Any:
    cur = obj
    for part in path.replace("[", ".[").split("."):
        if not part:
            continue
        cur = cur[int(part[1:-1])] if part.startswith("[") else cur[part]
    return cur


def enum_choices(where: str, root: Any = Header) -> tuple[str, ...]:
    """The accepted values of the enum field at ``where`` (a dotted path
    from the header, as msgspec names it: ``house_rules.wall_variant``,
    ``sandbox.castles[0].x``), quoted; empty where the field is no enum.
    One place for every enum field of a replay's header."""
    kind: Any = root
    for part in re.sub(r"\[\d+\]", "", where).split("."):
        try:
            kind = typing.get_type_hints(_plain_type(kind), include_extras=False)[part]
        except (KeyError, TypeError, NameError):
            return ()
    kind = _plain_type(kind)
    if typing.get_origin(kind) is Literal:
        return tuple(repr(a) for a in typing.get_args(kind))
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return tuple(repr(m.value) for m in kind)
    return ()


def _plain_type(kind: Any) -> Any:
    """``kind`` without ``Annotated``, ``| None`` and list wrappers."""
    while True:
        origin = typing.get_origin(kind)
        if origin is typing.Annotated or origin in (list, tuple, collections.abc.Sequence):
            kind = typing.get_args(kind)[0]
        elif origin in (typing.Union, types.UnionType):
            rest = [a for a in typing.get_args(kind) if a is not type(None)]
            if len(rest) != 1:
                return kind
            kind = rest[0]
        else:
            return kind


def _explain(msg: str, obj: Any = None) -> str:
    """msgspec's message as ``field `a.b`: expected ..., got ...`` (for a
    broken bound, such as ``expected int >= 0``, the value ``obj`` holds there)."""
    problem = field_problem(msg)
    if problem is not None:
        return f"{problem[1]} `{problem[0]}`"
    where, msg = where_and_what(msg)
    if msg.startswith("Invalid value") and where.endswith("type"):
        return f"field `{where}`: unknown action type {clip(msg.split(' ', 2)[2])}"
    if msg.startswith("Invalid enum value") and where:
        choices = enum_choices(where)
        if choices:
            got = clip(msg.split(" ", 3)[3], 40)
            return f"field `{where}`: expected one of {', '.join(choices)}, got {got}"
    text = msg.replace("`", "")
    text = text[0].lower() + text[1:] if text else text
    # msgspec quotes a bad value whole ("Invalid enum value 'xxx...'"): cut it
    text = re.sub(r"'[^']{40,}'", lambda m: clip(m.group(0)), text)
    if where and ", got" not in text and text.startswith("expected"):
        try:
            value = _get(obj, where)
        except (KeyError, IndexError, TypeError, ValueError):
            pass
        else:
            shown = f"{len(value)} items" if isinstance(value, list) else repr(value)
            text += f", got {clip(shown)}"
    return f"field `{where}`: {text}" if where else text


def load_replay(path: str | os.PathLike[str]) -> Replay:
    """Read and check a replay file.

    Raises:
        ReplayError: unreadable file, not a regular file or over
            :data:`MAX_FILE_BYTES`, a line nested too deeply, an integer of
            over 100 digits, a line that is not JSON (other than a
            last line cut off), a wrong format name, an unknown version, a
            missing or mistyped field, a NaN or infinite number, lines out of
            order; the message names the file, line and field.

    A replay of another physics model version (or of none: format version 1)
    loads: its lines can be read and shown. Re-simulating it is refused by
    :func:`warlords_sim.replay.model.check_model`.
    """
    p = Path(path)
    data = read_user_file(p, MAX_FILE_BYTES, "replay (at most 64 MB)", ReplayError, "the replay")
    return parse_replay(data, p)


def parse_replay(data: bytes, path: str | os.PathLike[str]) -> Replay:
    """A replay from its bytes (what :func:`load_replay` reads), checked as
    a file is; ``path`` names it in messages (a network client names the
    host's address). A replay over :data:`MAX_FILE_BYTES` is refused.

    Raises:
        ReplayError: as :func:`load_replay` (the message names ``path``).
    """
    p = Path(path)
    raw_lines, ends_with_newline = _split_lines(data, p)
    lines = _Lines()
    warnings: list[str] = []
    truncated = False
    offset = 0
    valid_bytes = 0
    needs_newline = False
    n = len(raw_lines)
    for i, raw in enumerate(raw_lines):
        last_unterminated = i == n - 1 and not ends_with_newline
        where = f"{p}: line {i + 1}"
        err = _errors_at(where)
        try:
            obj = _line_json(raw, err)
        except _NotJson as e:
            if last_unterminated:
                warnings.append(_cut_off_warning(lines, where, err))
                truncated = True
                break
            raise err(f"not JSON ({e.reason}); expected one JSON object a line") from None
        lines.add(_line_object(obj, err), err, where)
        offset += len(raw) + (0 if last_unterminated else 1)
        valid_bytes = offset
        needs_newline = last_unterminated
    assert lines.header is not None
    return Replay(
        p,
        lines.header,
        lines.actions,
        lines.result,
        truncated,
        warnings,
        valid_bytes,
        needs_newline,
    )


def _split_lines(data: bytes, p: Path) -> tuple[list[bytes], bool]:
    """The lines of a replay's bytes, without their newlines, and whether the
    last one ended with a newline.

    Raises:
        ReplayError: over :data:`MAX_FILE_BYTES`, or empty.
    """
    if len(data) > MAX_FILE_BYTES:
        raise ReplayError(f"{p}: the replay is over {MAX_FILE_BYTES >> 20} MB")
    if not data:
        raise ReplayError(f"{p}: empty file: expected a header line")
    raw_lines = data.split(b"\n")
    ends_with_newline = raw_lines[-1] == b""
    if ends_with_newline:
        raw_lines.pop()
    return raw_lines, ends_with_newline


def _errors_at(where: str) -> Callable[[str], ReplayError]:
    """A maker of the :class:`ReplayError` of one line: ``where`` (the file
    and the line) and the message."""

    def err(msg: str) -> ReplayError:
        return ReplayError(f"{where}: {msg}")

    return err


class _NotJson(Exception):
    """A line that is not UTF-8 JSON (its ``reason``): an error, unless it is
    a last line cut off in the middle."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _line_json(raw: bytes, err: Callable[[str], ReplayError]) -> Any:
    """One line's bytes parsed as JSON (any value).

    Raises:
        ReplayError: a line over :data:`MAX_LINE_BYTES`, or one that
            :func:`~warlords_sim._files.parse_json` refuses (nested too
            deeply, an over-long number).
        _NotJson: not UTF-8, or not JSON.
    """
    if len(raw) > MAX_LINE_BYTES:
        raise err(
            f"a line of {len(raw)} bytes: expected at most {MAX_LINE_BYTES} (a game's "
            "longest, its result line, is some kB)"
        )
    try:
        return parse_json(raw.decode("utf-8"))
    except FileProblem as e:
        raise err(str(e)) from None
    except UnicodeDecodeError:
        raise _NotJson("not UTF-8") from None
    except json.JSONDecodeError as e:
        raise _NotJson(e.msg) from None


def _cut_off_warning(lines: _Lines, where: str, err: Callable[[str], ReplayError]) -> str:
    """The warning for a last line cut off in the middle (it is dropped).

    Raises:
        ReplayError: the cut-off line is the header: nothing to keep.
    """
    if lines.header is None:
        raise err("the header line is cut off: nothing to keep") from None
    return (
        f"{where}: the last line is cut off (a crash while writing it?); "
        f"kept the first {len(lines.actions)} actions"
    )


def _line_object(obj: Any, err: Callable[[str], ReplayError]) -> dict[str, Any]:
    """A line's JSON value, checked to be an object of finite numbers, none
    of over :data:`~warlords_sim._files.MAX_INT_DIGITS` digits.

    Raises:
        ReplayError: naming the field at fault.
    """
    if not isinstance(obj, dict):
        raise err(f"expected a JSON object, got {type(obj).__name__}")
    long = find_long_number(obj)
    if long is not None:
        raise err(f"field `{long}`: expected a number of at most {MAX_INT_DIGITS} digits")
    bad = _nonfinite(obj)
    if bad is not None:
        try:
            got = _get(obj, bad)
        except (KeyError, IndexError, TypeError, ValueError):  # a key with a dot in it
            got = "NaN or infinity"
        raise err(f"field `{bad}`: expected a finite number, got {got}")
    return obj


@dataclass
class _Lines:
    """The lines of a replay read so far: the header, the actions and the
    result (the last line there may be)."""

    header: Header | None = None
    actions: list[ActionLine] = field(default_factory=list)
    result: ResultLine | None = None

    def add(self, obj: dict[str, Any], err: Callable[[str], ReplayError], where: str) -> None:
        """Check the next line's object ``obj`` and keep it.

        Raises:
            ReplayError: a first line that is not a header, a line after the
                result, an unknown kind, or a line its kind's checks refuse
                (msgspec's message explained).
        """
        kind = obj.get("kind")
        try:
            if self.header is None:
                self.header = _header_line(obj, err, where)
            elif self.result is not None:
                raise err("a line after the result line; expected the file to end")
            elif kind == "action":
                line = msgspec.convert(obj, ActionLine)
                _check_action(line, self.header, len(self.actions) + 1, err)
                self.actions.append(line)
            elif kind == "result":
                self.result = _result_line(obj, len(self.actions), err)
            else:
                raise err(f'field `kind`: expected "action" or "result", got {clip(repr(kind))}')
        except msgspec.ValidationError as e:
            raise err(_explain(str(e), obj)) from None


def _header_line(obj: dict[str, Any], err: Callable[[str], ReplayError], where: str) -> Header:
    """The first line: a header of this format, of a version this package
    reads, its fields checked.

    Raises:
        ReplayError: not a header, another format, an unknown version, or a
            field refused (the physics, skill and hands fields first, then
            :func:`_check_header`).
        msgspec.ValidationError: a missing or mistyped field.
    """
    kind = obj.get("kind")
    if kind != "header":
        raise err(f'field `kind`: expected "header" on the first line, got {clip(repr(kind))}')
    if obj.get("format") != FORMAT:
        raise err(
            f"field `format`: expected {FORMAT!r} (not a Warlords replay?), "
            f"got {clip(repr(obj.get('format')))}"
        )
    version = obj.get("version")
    if version not in READS or isinstance(version, bool):
        raise err(
            f"field `version`: unknown version {clip(repr(version))}; "
            f"this warlords-sim reads versions {', '.join(map(str, READS))}"
        )
    _check_physics_field(obj, version, err)
    _check_skill_field(obj, err)
    _check_hands_field(obj, err)
    header = msgspec.convert(obj, Header)
    _check_header(header, obj, err, where)
    return header


def _result_line(
    obj: dict[str, Any], n_actions: int, err: Callable[[str], ReplayError]
) -> ResultLine:
    """The result line, which counts the ``n_actions`` action lines before it.

    Raises:
        ReplayError: a count that disagrees.
        msgspec.ValidationError: a missing or mistyped field.
    """
    result = msgspec.convert(obj, ResultLine)
    if result.actions != n_actions:
        raise err(f"field `actions`: expected {n_actions} (the action lines), got {result.actions}")
    return result


def _check_physics_field(obj: dict[str, Any], version: object, err: Any) -> None:
    """The header's ``physics`` is an object (format version 2 on), before
    msgspec's "expected object | null": null is refused too (as missing)."""
    if "physics" not in obj or version == 1:
        return
    value = obj["physics"]
    if not isinstance(value, dict):
        got = "null" if value is None else f"{type(value).__name__} {clip(repr(value))}"
        raise err(
            f"field `physics`: expected an object naming the physics engine and model "
            f'version, e.g. {{"engine": "2.5d", "model": "{MODEL_VERSION}"}}, got {got}'
        )


def _check_skill_field(obj: dict[str, Any], err: Any) -> None:
    """The header's ``skill``: null, a number in [0, 1] or a level's name,
    before msgspec's message (which names the types, not the choices); a
    ``-0.0`` (written before skills were normalized) is read as 0.0."""
    value = obj.get("skill")
    if value is None or value in SKILL_LEVELS:
        return
    if isinstance(value, int | float) and not isinstance(value, bool) and 0.0 <= value <= 1.0:
        if value == 0.0:
            obj["skill"] = 0.0 if isinstance(value, float) else value
        return
    raise err(
        f"field `skill`: expected float in [0, 1], a level name ({', '.join(SKILL_LEVELS)}) "
        f"or null, got {clip(repr(value))}"
    )


def _check_hands_field(obj: dict[str, Any], err: Any) -> None:
    """The header's ``hands`` (format version 4 on): null, or a list of
    hands, each a number in [0, 1], a level's name, ``"exact"`` or null,
    checked before msgspec's message (which names the types, not the
    choices)."""
    value = obj.get("hands")
    if value is None:
        return
    if not isinstance(value, list):
        raise err(
            f"field `hands`: expected a list of one hand per player or null, "
            f"got {clip(repr(value))}"
        )
    for p, hand in enumerate(value):
        if hand is None or hand in HAND_CHOICES:
            continue
        if isinstance(hand, int | float) and not isinstance(hand, bool) and 0.0 <= hand <= 1.0:
            continue
        raise err(
            f"field `hands[{p}]`: expected a number in [0, 1], a hand's name "
            f"({', '.join(HAND_CHOICES)}) or null, got {clip(repr(hand))}"
        )


def _check_header(h: Header, obj: dict[str, Any], err: Any, where: str) -> None:
    if h.physics is None and h.version >= 2:
        raise err(
            f"missing field `physics` (format version {h.version} records the physics engine "
            f'and model version, e.g. {{"engine": "2.5d", "model": "{MODEL_VERSION}"}})'
        )
    if h.physics is not None:
        if h.version < 2:
            raise err(f"field `physics`: not part of format version {h.version} (expected 2 on)")
        if h.physics.engine not in ENGINES:
            raise err(
                f"field `physics.engine`: expected one of {', '.join(map(repr, ENGINES))}, "
                f"got {clip(repr(h.physics.engine))}"
            )
        if not h.physics.model.strip():
            raise err(
                f"field `physics.model`: expected a model version, e.g. {MODEL_VERSION!r}, got ''"
            )
    if h.versions.libm is not None and h.version < 3:
        raise err(f"field `versions.libm`: not part of format version {h.version} (expected 3 on)")
    if h.versions.libm is None and h.version >= 3:
        raise err(
            f"missing field `versions.libm` (format version {h.version} records the C maths "
            'library and its probe, e.g. "glibc 2.36, probe d5dc7acfa7a2")'
        )
    if h.hands is not None and h.version < 4:
        raise err(f"field `hands`: not part of format version {h.version} (expected 4 on)")
    if h.mode == "game":
        if not 2 <= h.players <= 4:
            raise err(f"field `players`: expected 2, 3 or 4, got {h.players}")
        if len(h.seats) != h.players or len(set(h.seats)) != h.players:
            raise err(
                f"field `seats`: expected {h.players} different seats 0..3, one per player "
                f"(their castles in round 1), got {h.seats}"
            )
        if len(h.bots) != h.players:
            raise err(
                f"field `bots`: expected one name per player ({h.players}), got {clip(h.bots)}"
            )
        known = (*BOTS, "human")
        for p, name in enumerate(h.bots):
            if name not in known:
                raise err(
                    f"field `bots[{p}]`: expected a bot name or 'human' "
                    f"({', '.join(map(repr, known))}), got {clip(repr(name))}"
                )
        _check_hands(h, err)
        if h.seed is None:
            head = "missing field `seed`" if "seed" not in obj else "field `seed`"
            raise err(
                f"{head}: expected the game's seed, an integer >= 0 (the bots draw from it; "
                f"a game replay records it){'' if 'seed' not in obj else ', got null'}"
            )
        if h.house_rules is None:
            raise err("missing field `house_rules` (a game replay needs its house rules)")
        try:
            h.house_rules.check(where, field_prefix="house_rules.")
        except HouseRulesError as e:
            raise ReplayError(str(e)) from None
    else:
        if h.hands:
            raise err(f"field `hands`: expected null in a sandbox replay, got {clip(h.hands)}")
        for name, value in (("players", h.players), ("seats", h.seats), ("bots", h.bots)):
            if value:
                raise err(
                    f"field `{name}`: expected {0 if name == 'players' else []} in a sandbox "
                    f"replay (it has no players), got {clip(value)}"
                )
        if h.sandbox is None:
            raise err("missing field `sandbox` (a sandbox replay needs its set-up)")
        seats = h.sandbox.castle_seats
        if len(set(seats)) != len(seats):
            raise err(f"field `sandbox.castle_seats`: expected different seats 0..3, got {seats}")


def _check_hands(h: Header, err: Any) -> None:
    """A game header's ``hands``: one per player, a hand for each human
    player and null for each bot's (its hand is ``skill``)."""
    if h.hands is None:
        return
    if len(h.hands) != h.players:
        raise err(f"field `hands`: expected one hand per player ({h.players}), got {clip(h.hands)}")
    for p, (name, hand) in enumerate(zip(h.bots, h.hands, strict=True)):
        if name == "human" and hand is None:
            raise err(
                f"field `hands[{p}]`: expected the human player's hand "
                f"({', '.join(HAND_CHOICES)} or a number in [0, 1]), got null"
            )
        if name != "human" and hand is not None:
            raise err(
                f"field `hands[{p}]`: expected null for a bot's seat (a bot's hand is "
                f"`skill`), got {clip(repr(hand))}"
            )


def _check_action(line: ActionLine, header: Header, expected: int, err: Any) -> None:
    if line.index != expected:
        raise err(f"field `index`: expected {expected} (actions in order), got {line.index}")
    if header.mode == "game" and not (
        line.player is not None and 0 <= line.player < header.players
    ):
        got = "null" if line.player is None else clip(line.player)
        raise err(
            f"field `player`: expected the player who acted, 0..{header.players - 1}, "
            f"in a game replay, got {got}"
        )
    if header.mode == "sandbox" and line.player is not None:
        raise err(f"field `player`: expected null in a sandbox replay, got {clip(line.player)}")
    is_flick = isinstance(line.action, SandboxFlickRec)
    if header.mode == "game" and is_flick:
        raise err(
            f"field `action.type`: expected a game action ({', '.join(GAME_ACTIONS)}) "
            "in a game replay, got 'flick'"
        )
    if header.mode == "sandbox" and not is_flick:
        raise err("field `action.type`: expected 'flick' in a sandbox replay")
    if line.aimed is not None:
        if header.version < 4:
            raise err(f"field `aimed`: not part of format version {header.version} (expected 4 on)")
        if not isinstance(line.action, SupplyFlickRec | BoardFlickRec | SiegeShotRec):
            raise err(
                "field `aimed`: expected only beside a flick (supply_flick, board_flick, "
                f"siege_shot), got one beside {line.action.__struct_config__.tag!r}"
            )
    if header.mode == "game":
        _check_aimed(line, header, err)
    _check_dice_lists(line, header, expected, err)


def _check_aimed(line: ActionLine, header: Header, err: Any) -> None:
    """``aimed`` agrees with the header's ``hands``: a flick by a human
    whose hand scatters (not ``exact``) has it, and no other line does (a
    bot's flick, an exact hand's: there the action is the flick as aimed).
    Without this a resume re-draws the hands from other lines and
    desyncs without a word."""
    p = line.player
    assert p is not None  # checked before: a game line names its player
    flick = isinstance(line.action, SupplyFlickRec | BoardFlickRec | SiegeShotRec)
    bot = header.bots[p] if p < len(header.bots) else "human"
    hand = header.hands[p] if header.hands is not None and p < len(header.hands) else None
    if line.aimed is None:
        if flick and bot == "human" and hand not in (None, EXACT):
            raise err(
                f"missing field `aimed`: player {p}'s hand ({hand}, `hands[{p}]`) scatters "
                "each flick, so its line records the flick as aimed beside the action"
            )
        return
    if bot != "human":
        raise err(
            f"field `aimed`: expected none on a bot's line (player {p} is {clip(repr(bot))}; "
            "a bot's flick is recorded as its hand delivered it)"
        )
    if header.hands is None:
        raise err(
            "field `aimed`: expected none: the header has no `hands` (every human "
            "flicks exact, the action as aimed)"
        )
    if hand in (None, EXACT):
        raise err(
            f"field `aimed`: expected none: player {p}'s hand is exact (`hands[{p}]`), "
            "the action is the flick as aimed"
        )


def _check_dice_lists(line: ActionLine, header: Header, index: int, err: Any) -> None:
    """``dice`` and ``gone`` name each die at most once, and no more dice
    than the game has (players x dice_per_player, ids from 0) or, in a
    sandbox, than its flicks so far can have added (one a flick)."""
    if header.mode == "game" and header.house_rules is not None:
        count = header.players * header.house_rules.dice_per_player
        most, what = count, f"the game's {count} dice, ids 0..{count - 1}"
    else:
        count, most, what = -1, index, f"the dice {index} flicks can have put on the board"
    for name, ids in (("dice", [d.id for d in line.dice]), ("gone", line.gone)):
        if len(ids) > most:
            raise err(f"field `{name}`: expected at most {most} dice ({what}), got {len(ids)}")
        bad = next((i for i in ids if i < 0 or 0 <= count <= i), None)
        if bad is not None:
            raise err(f"field `{name}`: expected die ids of {what}, got {bad}")
        seen: set[int] = set()
        for i in ids:
            if i in seen:
                raise err(f"field `{name}`: expected each die once, got die {i} twice")
            seen.add(i)
