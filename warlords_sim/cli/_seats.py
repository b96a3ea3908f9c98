"""Who plays which seat, and with what hand: the options ``play`` and
``host`` share (``--players --bots --bot --skill --hand --variant --rules
--board --seed --record --resume``), their parsers, and the check that
``--resume`` is given alone. ``simulate``, ``replay``, ``variants`` and
``join`` take ``--skill`` from here.

Imports only click at load time (the bots when a hand is parsed), so that
``--help`` starts at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from warlords_sim.cli._common import board_name_option, fail
from warlords_sim.cli._names import BOTS, BOTS_HELP

if TYPE_CHECKING:
    from warlords_sim.bots.skill import HandSpec, Skill

__all__ = [
    "HAND_HELP",
    "HAND_METAVAR",
    "SKILL_HELP",
    "SKILL_METAVAR",
    "game_options",
    "given_with_resume",
    "parse_bots",
    "parse_hands",
    "parse_skill",
    "refuse_with_resume",
    "shown",
    "skill_option",
]

F = TypeVar("F", bound=Callable[..., Any])

#: ``--skill``'s help: the figures of :class:`warlords_sim.bots.Hand` for the
#: ends of the range and of the levels of :mod:`warlords_sim.bots.skill`
#: (copied so that ``--help`` loads no numpy; tests/test_bots_skill.py checks them).
SKILL_HELP = (
    "How steady the bots' hand is, a number in [0, 1]: 0 the shakiest (aim off by "
    "0.13 rad and speed by 22 %, one sd), 1 the steadiest (0.01 rad, 2 %); or a level "
    "set from motor-control and sports measurements: novice (speed off by 12.6 %, "
    "direction by 4 deg), club (6.3 %, 2 deg), expert (3.2 %, 1 deg)."
)
#: ``--skill``'s metavar.
SKILL_METAVAR = "0..1|novice|club|expert"
#: ``--hand``'s metavar and help (the figures of :mod:`warlords_sim.bots.skill`,
#: copied so that ``--help`` loads no numpy; tests/test_gui_hand.py checks them).
HAND_METAVAR = "HAND|P=HAND[,P=HAND...]"
HAND_HELP = (
    "How steady the human players' hand is: every flick you drag is scattered as "
    "the bots' are, in speed, direction and where the finger meets the die (its "
    "height, and its offset sideways, which spins it). HAND is novice (speed off "
    "by 12.6 %, direction by 4 deg, strike by 3.2 mm, one sd), club (6.3 %, 2 deg, "
    "1.6 mm), expert (3.2 %, 1 deg, 0.8 mm), a number in [0, 1] as --skill takes, "
    "or exact (the flick exactly as dragged). One HAND for every human player, or "
    "P=HAND per player (numbered as --bots numbers them, e.g. 0=expert,2=novice; "
    "a player not named gets club)."
)
_HAND_EXPECTED = (
    "exact, novice, club, expert or a number in [0, 1] (1: steadiest), for every human "
    "player, or P=HAND per player (e.g. 0=expert,2=novice)"
)


def parse_bots(text: str, players: int) -> list[int]:
    """Players played by bots, from "1,3", "none" or "all".

    Raises:
        ValueError: not a player number of this game.
    """
    t = text.strip().lower()
    if t in ("", "none"):
        return []
    if t == "all":
        return list(range(players))
    out = []
    for part in t.split(","):
        try:
            p = int(part)
        except ValueError:
            raise ValueError(
                f"--bots: {part!r} is not a player number (0..{players - 1})"
            ) from None
        if not 0 <= p < players:
            raise ValueError(f"--bots: no player {p} in a {players}-player game (0..{players - 1})")
        out.append(p)
    return sorted(set(out))


def parse_hands(text: str, players: int, bots: list[int] | None = None) -> dict[int, HandSpec]:
    """Each human player's hand from ``--hand``: one hand for every human
    ("club", "exact", "0.8"), or ``P=HAND`` entries per player, comma
    separated, with at most one bare hand among them for the players not
    named (default club). ``bots`` are the players a bot plays (no hand).

    Returns:
        player -> hand (None: exact) for every human player.

    Raises:
        ValueError: a hand that is none of exact, a level, a number in
            [0, 1]; a player not in the game, a bot's, or named twice (one
            line naming ``--hand`` and the accepted values).
    """
    from warlords_sim.bots.skill import SkillLevel, parse_hand

    bot_set = set(bots or [])
    default: HandSpec = SkillLevel.CLUB
    named: dict[int, HandSpec] = {}
    bare = 0

    def hand(value: str) -> HandSpec:
        try:
            return parse_hand(value)
        except ValueError:
            raise ValueError(
                f"--hand: {shown(value.strip())} is not a hand; expected {_HAND_EXPECTED}"
            ) from None

    parts = [part.strip() for part in text.split(",")]
    if not text.strip() or any(not part for part in parts):
        raise ValueError(f"--hand: {shown(text)} has an empty entry; expected {_HAND_EXPECTED}")
    for part in parts:
        if "=" not in part:
            bare += 1
            if bare > 1:
                raise ValueError(
                    f"--hand: {shown(text)} gives more than one hand for every player; "
                    f"expected {_HAND_EXPECTED}"
                )
            default = hand(part)
            continue
        who, _, value = part.partition("=")
        try:
            p = int(who)
        except ValueError:
            raise ValueError(
                f"--hand: {shown(who.strip())} is not a player number (0..{players - 1}); "
                f"expected {_HAND_EXPECTED}"
            ) from None
        if not 0 <= p < players:
            raise ValueError(
                f"--hand: no player {p} in a {players}-player game (0..{players - 1}); "
                f"expected {_HAND_EXPECTED}"
            )
        if p in bot_set:
            raise ValueError(
                f"--hand: player {p} is a bot (--bots): its hand is --skill; "
                f"expected {_HAND_EXPECTED}"
            )
        if p in named:
            raise ValueError(f"--hand: player {p} is given twice; expected {_HAND_EXPECTED}")
        named[p] = hand(value)
    return {p: named.get(p, default) for p in range(players) if p not in bot_set}


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for an error line, a long one cut as the rules'
    loader cuts it: ``'abc...' (100000 characters)``, the quote kept."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[: limit - 3] + '...'!r} ({len(text)} characters)"


def parse_skill(text: str) -> Skill:
    """The bots' skill from ``--skill``: a number in [0, 1] or a level name
    (:func:`warlords_sim.bots.parse_skill`).

    Raises:
        ValueError: neither (one line naming ``--skill`` and the choices).
    """
    from warlords_sim.bots.skill import parse_skill as parse

    try:
        return parse(text)
    except ValueError as e:
        raise ValueError(f"--skill: {e}") from None


def skill_option(ctx: click.Context, param: click.Parameter, value: str) -> Skill:
    try:
        return parse_skill(value)
    except ValueError as e:
        raise click.BadParameter(str(e).removeprefix("--skill: "), ctx, param) from None


def game_options(*, bots_default: str, bots_metavar: str, bots_help: str, seed_help: str,
                 resume_help: str) -> Callable[[F], F]:  # fmt: skip
    """The options that set a new game up, as ``play`` and ``host`` declare
    them (in ``--help``'s order): ``--players --bots --bot --skill --hand
    --variant --rules --board --seed --record --resume``; the command's
    parameters are ``players, bots_text, bot, skill, hand_text, variant,
    rules_file, board, seed, record, resume_file``."""
    options = [
        click.option(
            "--players",
            type=click.IntRange(2, 4),
            default=2,
            show_default=True,
            help="Number of players (2: seats 0 and 2; 3: seats 0, 1, 2, rotating).",
        ),
        click.option(
            "--bots",
            "bots_text",
            default=bots_default,
            show_default=True,
            metavar=bots_metavar,
            help=bots_help,
        ),
        click.option(
            "--bot",
            type=click.Choice(list(BOTS), case_sensitive=False),
            default="aim",
            show_default=True,
            help=f"The bot that plays the --bots seats. {BOTS_HELP}.",
        ),
        click.option(
            "--skill",
            default="0.7",
            show_default=True,
            metavar=SKILL_METAVAR,
            callback=skill_option,
            help=SKILL_HELP,
        ),
        click.option(
            "--hand",
            "hand_text",
            default="club",
            show_default=True,
            metavar=HAND_METAVAR,
            help=HAND_HELP,
        ),
        click.option(
            "--variant",
            type=click.Choice(["standard", "wall1", "wall2"]),
            default=None,
            help="Wall variant (overrides the rules file; default standard).",
        ),
        click.option(
            "--rules",
            "rules_file",
            type=click.Path(dir_okay=False),
            default=None,
            help="House rules TOML.",
        ),
        board_name_option,
        click.option(
            "--seed", type=click.IntRange(min=0), default=0, show_default=True, help=seed_help
        ),
        click.option(
            "--record",
            type=click.Path(dir_okay=False),
            default=None,
            help="Replay file to write [default: a new file in the user's data directory, "
            "printed].",
        ),
        click.option(
            "--resume",
            "resume_file",
            type=click.Path(dir_okay=False),
            default=None,
            metavar="FILE",
            help=resume_help,
        ),
    ]

    def apply(f: F) -> F:
        for option in reversed(options):
            f = option(f)
        return f

    return apply


def given_with_resume(ctx: click.Context, keep: Iterable[str] = ()) -> list[str]:
    """The options given on the command line (not left at their default)
    besides ``--resume`` and ``keep`` (parameter names), as ``--name``."""
    skip = {"resume_file", *keep}
    return [
        "--" + name.replace("_text", "").replace("_file", "").replace("_", "-")
        for name in ctx.params
        if name not in skip
        and ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
    ]


def refuse_with_resume(ctx: click.Context, keep: Iterable[str] = ()) -> None:
    """Exit with one line if options that set a game up are given with
    ``--resume`` (the file has them); ``keep`` (parameter names) may be."""
    given = given_with_resume(ctx, keep)
    if given:
        fail(f"--resume takes the game from FILE: drop {', '.join(given)}")
