"""What an experiment plays: its variants, its settings, and one plain spec per game.

A worker (a local process or a dask worker) is handed a :class:`GameSpec`, a
plain dict of numbers, strings and the house rules as a dict, never a live
object, so the same game comes out wherever it runs. Every game's seed is
derived from (experiment seed, variant name, game index) with SHA-256
(:func:`game_seed`), never Python's ``hash()`` (salted per process): the
numbers are identical whatever the worker count or cluster.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

import msgspec

from warlords_sim.bots import BOTS
from warlords_sim.rules.errors import HouseRulesError
from warlords_sim.rules.house_rules import HouseRules, load_house_rules

__all__ = [
    "BUILTIN_VARIANTS",
    "Experiment",
    "ExperimentError",
    "GameSpec",
    "Variant",
    "builtin_variant",
    "check_resumable",
    "game_seed",
    "rules_from_dict",
    "variant_from_file",
    "variants_from_options",
]

#: The built-in variants: the rulebook's wall variants.
BUILTIN_VARIANTS = ("standard", "wall1", "wall2")
#: Most games per variant one experiment plays.
MAX_GAMES = 10_000_000


class ExperimentError(ValueError):
    """Settings that cannot make an experiment (the message says which and why)."""


class GameSpec(TypedDict):
    """Everything a worker needs to play one game (plain data)."""

    variant: str
    index: int
    seed: int
    players: int
    bots: list[str]
    skill: float
    rules: dict[str, Any]


def game_seed(seed: int, variant: str, index: int) -> int:
    """The seed of game ``index`` of ``variant``: the first 63 bits of
    SHA-256 of the three, stable across processes, machines and versions."""
    text = f"warlords-sim variants\0{seed}\0{variant}\0{index}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


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
        games: games per variant.
        bots: one bot name per player.
        skill: the bots' hand steadiness in [0, 1].
        seed: the experiment seed.

    Raises:
        ExperimentError: no variants or two with one name, players or games
            out of range, unknown bots or not one per player, skill outside [0, 1].
    """

    variants: tuple[Variant, ...]
    players: int = 4
    games: int = 100
    bots: tuple[str, ...] = ("aim", "aim", "aim", "aim")
    skill: float = 0.7
    seed: int = 0

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
                raise ExperimentError(
                    f"--bots: unknown bot {b!r}; expected one of {', '.join(BOTS)}"
                )
        if not 0.0 <= self.skill <= 1.0:
            raise ExperimentError(f"--skill: expected a number in [0, 1], got {self.skill}")
        for v in self.variants:
            if not 0 <= v.rules.first_player < self.players:
                what = v.source if v.source != "built-in" else f"variant {v.name!r}"
                raise ExperimentError(
                    f"{what}: house rule first_player = {v.rules.first_player} is "
                    f"not a player of a {self.players}-player game"
                )

    @staticmethod
    def parse_bots(text: str, players: int) -> tuple[str, ...]:
        """``"aim"`` (every seat) or ``"aim,random,..."`` (one per player)."""
        names = [b.strip() for b in text.split(",") if b.strip()]
        if len(names) == 1:
            names *= players
        return tuple(names)

    @property
    def names(self) -> list[str]:
        return [v.name for v in self.variants]

    def spec(self, variant: Variant, index: int) -> GameSpec:
        return GameSpec(
            variant=variant.name,
            index=index,
            seed=game_seed(self.seed, variant.name, index),
            players=self.players,
            bots=list(self.bots),
            skill=self.skill,
            rules=variant.rules_dict(),
        )

    def specs(self, skip: set[tuple[str, int]] | None = None) -> list[GameSpec]:
        """Every game's spec, interleaved (game 0 of each variant, then game 1,
        ...) so that a stopped run has every variant about equally far; games
        whose (variant, index) is in ``skip`` are left out."""
        skip = skip or set()
        return [
            self.spec(v, i)
            for i in range(self.games)
            for v in self.variants
            if (v.name, i) not in skip
        ]

    def settings(self) -> dict[str, Any]:
        """What makes a game's outcome (all but the number of games), as stored
        in ``DIR/experiment.json`` to check a resumed run against."""
        return {
            "format": "warlords-variants",
            "version": 1,
            "players": self.players,
            "bots": list(self.bots),
            "skill": self.skill,
            "seed": self.seed,
            "board": "standard",
            "variants": {v.name: v.rules_dict() for v in self.variants},
        }


def check_resumable(stored: dict[str, Any], current: dict[str, Any], where: str) -> dict[str, Any]:
    """Merge the settings stored with earlier games (``stored``) with this
    run's (``current``): they must agree on everything but the variants, and
    on the rules of every variant both name. Returns the merged settings.

    Raises:
        ExperimentError: naming the first setting that differs.
    """
    for key in ("format", "version", "players", "bots", "skill", "seed", "board"):
        if stored.get(key) != current.get(key):
            raise ExperimentError(
                f"{where} holds games played with {key} = {stored.get(key)!r}, not "
                f"{current.get(key)!r}; use another --out (or the same settings) to resume"
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
        ExperimentError, HouseRulesError: an unknown variant or a bad rules file.
    """

    def split(text: str) -> Sequence[str]:
        return [t.strip() for t in text.split(",") if t.strip()]

    out: list[Variant] = []
    if variants is None and rules is None:
        variants = ",".join(BUILTIN_VARIANTS)
    if variants is not None:
        names = split(variants)
        if not names:
            raise ExperimentError("--variants: expected comma-separated names, got nothing")
        out += [builtin_variant(n) for n in names]
    if rules is not None:
        paths = split(rules)
        if not paths:
            raise ExperimentError("--rules: expected comma-separated TOML files, got nothing")
        out += [variant_from_file(p) for p in paths]
    return tuple(out)
