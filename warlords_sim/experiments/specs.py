"""What an experiment plays: its variants, skills and board, its settings,
and one plain spec per game.

An experiment is a grid of cells, one per (variant, skill); every cell plays
``games`` games. A worker (a local process or a dask worker) is handed a
:class:`GameSpec`, a plain dict of numbers, strings, the house rules as a
dict and the board file's text, never a live object, so the same game comes
out wherever it runs, even on a machine that does not have the board file.
Every game's seed is derived from (experiment seed, variant name, skill,
game index) with SHA-256 (:func:`game_seed`), never Python's ``hash()``
(salted per process): the numbers are identical whatever the worker count
or cluster. The default skill (:data:`DEFAULT_SKILL`, 0.7) leaves the skill
out of the hash, so its games keep the seeds they had before the lab could
vary the skill, and lab folders made then still resume.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict

import msgspec

from warlords_sim.board import (
    BOARDS_DIR,
    BoardError,
    board_from_bytes,
    read_board_file,
)
from warlords_sim.bots.names import BOTS, parse_bot_names
from warlords_sim.bots.skill import Skill, SkillLevel, as_skill, parse_skill, skill_label
from warlords_sim.errors import WarlordsError
from warlords_sim.rules.errors import HouseRulesError
from warlords_sim.rules.house_rules import HouseRules, load_house_rules

__all__ = [
    "BUILTIN_VARIANTS",
    "DEFAULT_SKILL",
    "Experiment",
    "ExperimentBoard",
    "ExperimentError",
    "GameSpec",
    "Variant",
    "builtin_variant",
    "check_resumable",
    "experiment_board",
    "game_seed",
    "parse_skills",
    "rules_from_dict",
    "variant_from_file",
    "variants_from_options",
]

#: The built-in variants: the rulebook's wall variants.
BUILTIN_VARIANTS = ("standard", "wall1", "wall2")
#: Most games per cell (variant, skill), and most games of the whole grid
#: (variants x skills x games): every game is a row kept in memory for the
#: summary, and 10 million games are weeks of CPU already (0.2 s a 2-player game).
MAX_GAMES = 10_000_000
#: The skill of an experiment given none (``--skill``'s default): its games
#: keep the seeds of the lab before skills (settings version 1).
DEFAULT_SKILL: Skill = 0.7
#: Version of ``experiment.json`` (1: one skill, the standard board only,
#: games.csv without a skill column; still resumed, see :func:`check_resumable`).
SETTINGS_VERSION = 2


class ExperimentError(WarlordsError, ValueError):
    """Settings that cannot make an experiment (the message says which and why)."""


class GameSpec(TypedDict):
    """Everything a worker needs to play one game (plain data)."""

    variant: str
    index: int
    seed: int
    players: int
    bots: list[str]
    skill: float | str  # a number in [0, 1] or a level's name
    rules: dict[str, Any]
    board: dict[str, str]  # ExperimentBoard.to_spec(): name, file, sha256, toml


def game_seed(seed: int, variant: str, index: int, skill: str | None = None) -> int:
    """The seed of game ``index`` of ``variant`` at ``skill``: the first 63
    bits of SHA-256 of them, stable across processes, machines and versions.

    Args:
        skill: the skill's label (:func:`~warlords_sim.bots.skill_label`:
            ``"novice"``, ``"0.3"``). None, or the default skill's label
            ``"0.7"``, leaves it out: the seed of (seed, variant, index), as
            before experiments had skills, so old lab folders still resume.
    """
    text = f"warlords-sim variants\0{seed}\0{variant}\0{index}"
    if skill is not None and skill != skill_label(DEFAULT_SKILL):
        text += f"\0skill\0{skill}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def parse_skills(text: str, option: str = "--skills") -> tuple[Skill, ...]:
    """``"novice,club,expert"`` or ``"0.3,0.7"`` (levels and numbers may mix)
    as skills, in the order given.

    Raises:
        ExperimentError: nothing given, an item that is neither a level nor a
            number in [0, 1] (naming ``option`` and the choices).
    """
    items = [t.strip() for t in text.split(",")]
    if not any(items):
        raise ExperimentError(f"{option}: expected comma-separated skills, got {text!r}")
    out: list[Skill] = []
    for item in items:
        if not item:
            raise ExperimentError(f"{option}: an empty item in {text!r}")
        try:
            out.append(parse_skill(item))
        except ValueError as e:
            raise ExperimentError(f"{option}: {e}") from None
    return tuple(out)


def _skill_json(skill: Skill) -> float | str:
    """A skill as experiment.json and a game spec hold it: a level by its
    name, a number as it is."""
    return skill.value if isinstance(skill, SkillLevel) else skill


@dataclass(frozen=True)
class ExperimentBoard:
    """The board an experiment plays on, as data a worker can rebuild it from.

    Attributes:
        name: the board's own name (its file's ``name`` field).
        file: what ``--board`` named: a shipped board's name or a path.
        sha256: SHA-256 of the file's bytes (as :attr:`Board.sha256`).
        toml: the file's text: workers build the board from it, not from
            the path (a dask worker may not have the file, or another one).
    """

    name: str
    file: str
    sha256: str
    toml: str

    def to_spec(self) -> dict[str, str]:
        return {"name": self.name, "file": self.file, "sha256": self.sha256, "toml": self.toml}


def experiment_board(name_or_path: str | Path = "standard") -> ExperimentBoard:
    """The board ``--board`` names (a board of ``boards/`` or a TOML file),
    read once and validated as :func:`warlords_sim.board.load_board` does.

    Raises:
        BoardError: unknown name, unreadable or invalid file (naming the
            file, the field and what was expected).
    """
    path, raw = read_board_file(name_or_path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BoardError(f"{path}: not valid TOML: {e}") from None
    board = board_from_bytes(raw, path)
    shipped = path.parent.resolve() == Path(BOARDS_DIR).resolve() and str(name_or_path) == path.stem
    return ExperimentBoard(board.name, path.stem if shipped else str(path), board.sha256, text)


def rules_from_dict(data: dict[str, Any], where: str = "house rules") -> HouseRules:
    """House rules from their dict form (:meth:`HouseRules.to_dict`).

    Raises:
        HouseRulesError: a field is unknown, mistyped or out of range.
    """
    try:
        return msgspec.convert(data, HouseRules).check(where)
    except msgspec.ValidationError as e:
        raise HouseRulesError(f"{where}: {e}") from e


@dataclass(frozen=True)
class Variant:
    """One arm of the comparison: a name and the house rules it plays."""

    name: str
    rules: HouseRules
    source: str = "built-in"  # or the path of the house-rules file

    def rules_dict(self) -> dict[str, Any]:
        return dict(self.rules.to_dict())


def builtin_variant(name: str) -> Variant:
    """``standard``, ``wall1`` or ``wall2``: default house rules with that wall variant.

    Raises:
        ExperimentError: not a built-in variant.
    """
    if name not in BUILTIN_VARIANTS:
        raise ExperimentError(
            f"--variants: unknown variant {name!r}; expected some of {', '.join(BUILTIN_VARIANTS)}"
        )
    return Variant(name, HouseRules(wall_variant=name))  # type: ignore[arg-type]


def variant_from_file(path: str | Path) -> Variant:
    """A house-rules TOML file as a variant named after the file (``A.toml``: ``A``).

    Raises:
        HouseRulesError: the file cannot be read or is not valid house rules.
    """
    p = Path(path)
    return Variant(p.stem, load_house_rules(p), str(p))


@dataclass(frozen=True)
class Experiment:
    """The settings of an experiment (validated on construction).

    Attributes:
        variants: the arms compared; the first is the reference.
        players: 2, 3 or 4.
        games: games per variant and skill (per cell).
        bots: one bot name per player.
        skills: the bots' hands, each a number in [0, 1] or a
            :class:`~warlords_sim.bots.SkillLevel` (or its name); every
            variant plays at every skill, every bot at the cell's skill.
        seed: the experiment seed.
        board: the board every game is played on (default: the shipped standard).

    Raises:
        ExperimentError: no variants or two with one name, players or games
            out of range, more than :data:`MAX_GAMES` games in the whole
            grid, unknown bots or not one per player, no skills, a skill not
            a level nor a number in [0, 1], one skill given twice.
    """

    variants: tuple[Variant, ...]
    players: int = 4
    games: int = 100
    bots: tuple[str, ...] = ("aim", "aim", "aim", "aim")
    skills: tuple[Skill, ...] = (DEFAULT_SKILL,)
    seed: int = 0
    board: ExperimentBoard = field(default_factory=experiment_board)

    def __post_init__(self) -> None:
        if not self.variants:
            raise ExperimentError("no variants to compare: give --variants and/or --rules")
        names = [v.name for v in self.variants]
        for n in names:
            if names.count(n) > 1:
                raise ExperimentError(
                    f"two variants are named {n!r}; variants from --rules are named after "
                    "their files, so rename one"
                )
        if not 2 <= self.players <= 4:
            raise ExperimentError(f"--players: expected 2, 3 or 4, got {self.players}")
        if not 1 <= self.games <= MAX_GAMES:
            raise ExperimentError(f"--games: expected 1..{MAX_GAMES}, got {self.games}")
        if len(self.bots) != self.players:
            raise ExperimentError(
                f"--bots: expected 1 or {self.players} comma-separated names, got {len(self.bots)}"
            )
        for b in self.bots:
            if b not in BOTS:
                raise ExperimentError(f"--bots: unknown bot {b!r} (known: {', '.join(BOTS)})")
        if not self.skills:
            raise ExperimentError("--skills: expected at least one skill")
        checked: list[Skill] = []
        for sk in self.skills:
            try:
                checked.append(as_skill(sk))
            except ValueError as e:
                raise ExperimentError(f"--skills: {e}") from None
        object.__setattr__(self, "skills", tuple(checked))  # names become levels
        labels = self.skill_labels
        for label in labels:
            if labels.count(label) > 1:
                raise ExperimentError(f"--skills: {label} is given twice")
        total = self.games * len(self.variants) * len(self.skills)
        if total > MAX_GAMES:
            raise ExperimentError(
                f"--games {self.games} x {len(self.variants)} variants x {len(self.skills)} "
                f"skills is {total} games; expected at most {MAX_GAMES} in one experiment "
                "(fewer --games, variants or skills)"
            )
        for v in self.variants:
            if not 0 <= v.rules.first_player < self.players:
                what = v.source if v.source != "built-in" else f"variant {v.name!r}"
                raise ExperimentError(
                    f"{what}: house rule first_player = {v.rules.first_player} is "
                    f"not a player of a {self.players}-player game"
                )

    @staticmethod
    def parse_bots(text: str, players: int) -> tuple[str, ...]:
        """``"aim"`` (every seat) or ``"aim,random,..."`` (one per player),
        as :func:`~warlords_sim.bots.parse_bot_names` reads them.

        Raises:
            ExperimentError: an empty item, an unknown bot, not 1 or
                ``players`` names.
        """
        try:
            return parse_bot_names(text, players)
        except ValueError as e:
            raise ExperimentError(str(e)) from None

    @property
    def names(self) -> list[str]:
        return [v.name for v in self.variants]

    @property
    def skill_labels(self) -> list[str]:
        """The skills as games.csv and the table show them (``"novice"``, ``"0.7"``)."""
        return [skill_label(s) for s in self.skills]

    def spec(self, variant: Variant, index: int, skill: Skill = DEFAULT_SKILL) -> GameSpec:
        return GameSpec(
            variant=variant.name,
            index=index,
            seed=game_seed(self.seed, variant.name, index, skill_label(skill)),
            players=self.players,
            bots=list(self.bots),
            skill=_skill_json(skill),
            rules=variant.rules_dict(),
            board=self.board.to_spec(),
        )

    def specs(self, skip: set[tuple[str, str, int]] | None = None) -> list[GameSpec]:
        """Every game's spec, interleaved (game 0 of each cell, then game 1,
        ...) so that a stopped run has every cell about equally far; games
        whose (variant, skill label, index) is in ``skip`` are left out.
        A list: :meth:`iter_specs` makes them one at a time."""
        return list(self.iter_specs(skip))

    def iter_specs(self, skip: set[tuple[str, str, int]] | None = None) -> Iterator[GameSpec]:
        """:meth:`specs` one at a time, each made when it is asked for (a
        spec is about 1 kB: a large experiment's are never all in memory)."""
        skip = skip or set()
        cells = list(zip(self.skills, self.skill_labels, strict=True))
        for i in range(self.games):
            for sk, label in cells:
                for v in self.variants:
                    if (v.name, label, i) not in skip:
                        yield self.spec(v, i, sk)

    def missing(self, done: set[tuple[str, str, int]]) -> int:
        """How many games of the grid are not in ``done`` (keys (variant,
        skill label, index); keys of other cells or beyond ``games`` do not count)."""
        names = set(self.names)
        labels = set(self.skill_labels)
        have = sum(1 for n, k, i in done if n in names and k in labels and 0 <= i < self.games)
        return self.games * len(self.variants) * len(self.skills) - have

    def settings(self) -> dict[str, Any]:
        """What makes a game's outcome (all but the number of games), as stored
        in ``DIR/experiment.json`` to check a resumed run against."""
        return {
            "format": "warlords-variants",
            "version": SETTINGS_VERSION,
            "players": self.players,
            "bots": list(self.bots),
            "skills": [_skill_json(s) for s in self.skills],
            "seed": self.seed,
            "board": self.board.name,
            "board_file": self.board.file,
            "board_sha256": self.board.sha256,
            "variants": {v.name: v.rules_dict() for v in self.variants},
        }


def _labels(skills: object, limit: int = 120) -> str:
    """Skills as experiment.json holds them, for a message (whatever the file holds)."""

    def one(s: object) -> str:
        if isinstance(s, str):
            return s
        if isinstance(s, int | float) and not isinstance(s, bool):
            return skill_label(s)
        return repr(s)

    text = ",".join(one(s) for s in skills[:20]) if isinstance(skills, list) else repr(skills)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _upgrade(stored: dict[str, Any], current: dict[str, Any], where: str) -> dict[str, Any]:
    """Version-1 settings (one ``skill``, always the shipped standard board)
    in the shape of this version's.

    Raises:
        ExperimentError: a version-1 folder of another skill than the
            default: its seeds left the skill out, as this version's do for
            the default skill only, so its games cannot be continued.
    """
    if stored.get("version") != 1:
        return stored
    skill = stored.get("skill")
    if skill != DEFAULT_SKILL:
        raise ExperimentError(
            f"{where} holds games of an older warlords-sim (skill = {_labels([skill])}) whose "
            "game seeds left the skill out, as this version's do for the default skill "
            f"{skill_label(DEFAULT_SKILL)} only; use another --out"
        )
    up = {k: v for k, v in stored.items() if k != "skill"}
    up["version"] = SETTINGS_VERSION
    up["skills"] = [skill]
    shipped = experiment_board("standard").sha256
    if stored.get("board") == "standard" and current.get("board_sha256") == shipped:
        up["board_sha256"] = shipped  # version 1 played on the shipped board only
    return up


def check_resumable(stored: dict[str, Any], current: dict[str, Any], where: str) -> dict[str, Any]:
    """Merge the settings stored with earlier games (``stored``) with this
    run's (``current``): they must agree on everything but the variants and
    the board file's path (the same board, moved, plays the same games), and
    on the rules of every variant both name. Settings of version 1 (the lab
    before skills and boards) are upgraded first. Returns the merged settings.

    Raises:
        ExperimentError: naming the first setting that differs (the skills,
            the board and its SHA-256 with their own messages).
    """
    stored = _upgrade(stored, current, where)
    for key in ("format", "version", "players", "bots", "seed"):
        if stored.get(key) != current.get(key):
            raise ExperimentError(
                f"{where} holds games played with {key} = {stored.get(key)!r}, not "
                f"{current.get(key)!r}; use another --out (or the same settings) to resume"
            )
    if stored.get("skills") != current.get("skills"):
        raise ExperimentError(
            f"{where} holds games played at skills {_labels(stored.get('skills'))}, not "
            f"{_labels(current.get('skills'))}; a folder's games are of one set of skills: "
            "use another --out (or the same --skills) to resume"
        )
    if stored.get("board") != current.get("board"):
        raise ExperimentError(
            f"{where} holds games played on board {_labels([stored.get('board')])!r}, not "
            f"{current.get('board')!r}; use another --out (or the same --board) to resume"
        )
    if stored.get("board_sha256") is None and current.get("board_sha256") is not None:
        raise ExperimentError(
            f"{where} holds games of an older warlords-sim, which did not record its board's "
            f"SHA-256: they were played on the board {current.get('board')!r} shipped then, "
            f"and this board file ({current.get('board_file')}, SHA-256 "
            f"{str(current.get('board_sha256'))[:12]}...) is not the shipped one; "
            "use another --out (or --board standard, unedited) to resume"
        )
    if stored.get("board_sha256") != current.get("board_sha256"):
        raise ExperimentError(
            f"{where} holds games played on another version of board {current.get('board')!r} "
            f"(SHA-256 {str(stored.get('board_sha256'))[:12]}..., this file's "
            f"{str(current.get('board_sha256'))[:12]}...: {current.get('board_file')}); "
            "use another --out (or the board file those games used) to resume"
        )
    old = stored.get("variants")
    if not isinstance(old, dict):
        raise ExperimentError(f"{where}: field `variants`: expected a table of house rules")
    for name, rules in current["variants"].items():
        if name in old and old[name] != rules:
            raise ExperimentError(
                f"{where} holds games of variant {name!r} with other house rules; "
                "use another --out or rename the rules file"
            )
    merged = dict(current)
    merged["variants"] = {**old, **current["variants"]}
    return merged


def variants_from_options(variants: str | None, rules: str | None) -> tuple[Variant, ...]:
    """The variants named by ``--variants`` and ``--rules`` (both comma-separated);
    with neither, the three built-in wall variants.

    Raises:
        ExperimentError, HouseRulesError: nothing or an empty item given, an
            unknown variant or a bad rules file.
    """

    def split(text: str, option: str, what: str) -> Sequence[str]:
        items = [t.strip() for t in text.split(",")]
        if not any(items):
            raise ExperimentError(f"{option}: expected comma-separated {what}, got nothing")
        if not all(items):  # "standard," is not "standard" (as --bots and --skills)
            raise ExperimentError(f"{option}: an empty item in {text!r}")
        return items

    out: list[Variant] = []
    if variants is None and rules is None:
        variants = ",".join(BUILTIN_VARIANTS)
    if variants is not None:
        out += [builtin_variant(n) for n in split(variants, "--variants", "names")]
    if rules is not None:
        out += [variant_from_file(p) for p in split(rules, "--rules", "TOML files")]
    return tuple(out)
