"""``warlords-sim play``: the game in a pyglet window (pyglet loaded lazily)."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from warlords_sim.cli._common import board_name_option, echo, fail, load_game_config
from warlords_sim.cli._names import BOTS, BOTS_HELP
from warlords_sim.cli._outputs import check_output, default_recording, recording, saving

if TYPE_CHECKING:
    from warlords_sim.bots.skill import HandSpec, Skill

__all__ = [
    "HAND_HELP",
    "HAND_METAVAR",
    "SKILL_HELP",
    "SKILL_METAVAR",
    "parse_bots",
    "parse_hands",
    "parse_skill",
    "play",
    "recording_path",
    "resume_command",
]

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

_HELP = """Play Warlords in a window: 2 to 4 players, hot-seat humans and bots.

\b
Flick: press on one of your dice (or a launch spot of your castle: the
triangle by a merlon is the high crenelation, the hollow square by a notch
the low), drag back like a slingshot and release. The arrow shows direction and power (capped at
2000 mm/s); the dashed aim guide runs to the first wall, pin, die or edge
in the way (G or --no-guide: off). The drag goes on outside the window and a
release there flicks; Esc or the right button cancels. Keys: 1-3 front area,
H/L crenelation, U face up of your supply dice, Q/E or the wheel spin, W/X or
shift+wheel strike high or low, S siege engine (with doubles), D D decline an
ability (Esc keeps it), G aim guide, R turn the view, F fast-forward, M sound
off/on (--mute: start without), Space continue after a round. The log keeps
the whole game: the wheel over the panel or PgUp/PgDn scroll it, End shows
the newest lines again.

\b
Players are numbered 0.. in turn order; P0 sits at the bottom. --bots lists
the players a bot plays ("none": everyone is human) and --skill how steady
their hand is; --hand sets the human players' hand (default club: your
flicks scatter as a club player's do; exact: as dragged), and the aim
guide's cone shows its spread. With two or more human players (hot-seat) the view turns so
the player to move has their castle at the bottom and a banner says whose
turn it is; --rotate/--no-rotate (or R in the window) sets the turning for
any game. Every game is recorded to a replay file, by default
recordings/warlords-YYYYmmdd-HHMMSS.jsonl in the user's data directory
($WARLORDS_SIM_DATA_DIR overrides it; the path is printed at start), never
in the current directory; --resume FILE continues a game whose file ends
without a result (a crash), appending to it. An existing --record or
--screenshot file is never replaced without --force.

\b
Examples:
  warlords-sim play                          you (P0) against an aim bot
  warlords-sim play --players 4 --bots 1,2,3 --variant wall1
  warlords-sim play --players 3 --bots none  three humans, hot-seat
  warlords-sim play --bot search --skill expert  you against the planning bot
  warlords-sim play --bots 0,1 --screenshot play.png
  warlords-sim play --resume PATH/warlords-20260101-120000.jsonl  (the path printed)
"""


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
                f"--hand: {_shown(value.strip())} is not a hand; expected {_HAND_EXPECTED}"
            ) from None

    parts = [part.strip() for part in text.split(",")]
    if not text.strip() or any(not part for part in parts):
        raise ValueError(f"--hand: {_shown(text)} has an empty entry; expected {_HAND_EXPECTED}")
    for part in parts:
        if "=" not in part:
            bare += 1
            if bare > 1:
                raise ValueError(
                    f"--hand: {_shown(text)} gives more than one hand for every player; "
                    f"expected {_HAND_EXPECTED}"
                )
            default = hand(part)
            continue
        who, _, value = part.partition("=")
        try:
            p = int(who)
        except ValueError:
            raise ValueError(
                f"--hand: {_shown(who.strip())} is not a player number (0..{players - 1}); "
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


def _shown(text: str, limit: int = 40) -> str:
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


def _skill_option(ctx: click.Context, param: click.Parameter, value: str) -> Skill:
    try:
        return parse_skill(value)
    except ValueError as e:
        raise click.BadParameter(str(e).removeprefix("--skill: "), ctx, param) from None


@click.command("play", help=_HELP)
@click.pass_context
@click.option(
    "--players",
    type=click.IntRange(2, 4),
    default=2,
    show_default=True,
    help="Number of players (2: seats 0 and 2; 3: seats 0, 1, 2, rotating).",
)
@click.option(
    "--bots",
    "bots_text",
    default="1",
    show_default=True,
    metavar="P[,P...]|none|all",
    help="Players a bot plays.",
)
@click.option(
    "--bot",
    type=click.Choice(list(BOTS), case_sensitive=False),
    default="aim",
    show_default=True,
    help=f"The bot that plays the --bots seats. {BOTS_HELP}.",
)
@click.option(
    "--skill",
    default="0.7",
    show_default=True,
    metavar=SKILL_METAVAR,
    callback=_skill_option,
    help=SKILL_HELP,
)
@click.option(
    "--hand",
    "hand_text",
    default="club",
    show_default=True,
    metavar=HAND_METAVAR,
    help=HAND_HELP,
)
@click.option(
    "--variant",
    type=click.Choice(["standard", "wall1", "wall2"]),
    default=None,
    help="Wall variant (overrides the rules file; default standard).",
)
@click.option(
    "--rules", "rules_file", type=click.Path(dir_okay=False), default=None, help="House rules TOML."
)
@board_name_option
@click.option(
    "--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Seeds the bots."
)
@click.option(
    "--record",
    type=click.Path(dir_okay=False),
    default=None,
    help="Replay file to write [default: a new file in the user's data directory, printed].",
)
@click.option(
    "--resume",
    "resume_file",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Continue the game of a replay that ends without a result (after a crash), "
    "appending to it; the players, bots, rules and seed are the file's.",
)
@click.option(
    "--guide/--no-guide",
    default=True,
    show_default=True,
    help="Start with the aim guide on or off (G toggles it in the window).",
)
@click.option(
    "--rotate/--no-rotate",
    default=None,
    help="Turn the view so the human player to move has their castle at the bottom "
    "(R toggles it in the window). [default: on with two or more human players, "
    "off otherwise]",
)
@click.option(
    "--mute",
    is_flag=True,
    default=False,
    help="Start without the impact sounds (M turns them on in the window).",
)
@click.option(
    "--screenshot",
    type=click.Path(dir_okay=False),
    default=None,
    help="Render a game in progress to this PNG and exit (nothing is recorded).",
)
@click.option("--force", is_flag=True, help="Overwrite an existing --record or --screenshot file.")
def play(
    ctx: click.Context,
    players: int,
    bots_text: str,
    bot: str,
    skill: Skill,
    hand_text: str,
    variant: str | None,
    rules_file: str | None,
    board: str,
    seed: int,
    record: str | None,
    resume_file: str | None,
    screenshot: str | None,
    guide: bool,
    rotate: bool | None,
    mute: bool,
    force: bool,
) -> None:
    from warlords_sim.board import BoardError
    from warlords_sim.bots import make_bot
    from warlords_sim.rules import HouseRulesError

    if resume_file is not None:
        given = [
            "--" + name.replace("_text", "").replace("_file", "").replace("_", "-")
            for name in ctx.params
            if name not in ("resume_file", "guide", "rotate", "mute")  # the window's own options
            and ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
        ]
        if given:
            fail(f"--resume takes the game from FILE: drop {', '.join(given)}")
        _resume(resume_file, guide, rotate, mute)
        return
    try:
        config = load_game_config(board, rules_file, variant, players)
        bot_players = parse_bots(bots_text, players)
        hands = parse_hands(hand_text, players, bot_players)
        policies = {p: make_bot(bot, skill) for p in bot_players}
    except (BoardError, HouseRulesError, ValueError, OSError) as e:
        fail(e)

    if screenshot is not None:
        shot = check_output(screenshot, "--screenshot", force, (".png",))
    elif record is not None:
        check_output(record, "--record", force)
    if screenshot is None and sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
        fail(
            "no DISPLAY to open the window on: run it on a desktop, under "
            "xvfb-run, or play headless with 'warlords-sim simulate'"
        )

    from warlords_sim.gui import prepare_window

    prepare_window()  # before the window modules load pyglet.window
    from warlords_sim.gui.app import run, screenshot_game
    from warlords_sim.gui.controller import GameController, open_recorder

    if screenshot is not None:
        with saving(shot, "--screenshot", force) as tmp:
            screenshot_game(config, policies, seed, tmp, rotate=rotate, hands=hands)
        echo(f"wrote {shot}")
        return
    names = tuple(policies[p].name if p in policies else "human" for p in range(players))
    try:
        rec_path = recording_path(record)
        recorder, line = open_recorder(
            rec_path, config, seed, names, skill=skill, force=force, hands=hands
        )
    except (OSError, ValueError) as e:
        fail(e)
    echo(line)
    controller = GameController(config, policies, seed=seed, recorder=recorder, hands=hands)
    try:
        with recording(recorder):  # a failure before the first flick removes the new file
            run(controller, guide=guide, rotate=rotate, mute=mute)
            if recorder is not None and recorder.pending:  # --force: replace the old file now
                recorder.place()
        _say_how_to_resume(controller)
    except Exception as e:
        # pyglet's "no display" and "no GL config" errors live in
        # platform modules: recognise them by name
        if type(e).__name__ in ("NoSuchDisplayException", "NoSuchConfigException"):
            fail(f"cannot open the window: {e} (is DISPLAY set?)")
        raise


def recording_path(record: str | None) -> Path:
    """The replay file ``play`` records to: ``--record``'s path, or a new
    file in the user's data directory (:func:`default_recording`; the
    folder is created).

    Raises:
        OSError: the data directory cannot be created.
    """
    return Path(record) if record is not None else default_recording()


def _resume(path: str, guide: bool = True, rotate: bool | None = None, mute: bool = False) -> None:
    """``play --resume FILE``: continue a crashed game in the window."""
    from warlords_sim.replay import ReplayError, check_model, load_replay

    try:  # a replay of another physics model is refused before anything else
        check_model(load_replay(path), ("2.5d",))
    except ReplayError as e:
        fail(e)
    if sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
        fail(
            "no DISPLAY to open the window on: run it on a desktop, under "
            "xvfb-run, or play headless with 'warlords-sim simulate'"
        )

    from warlords_sim.gui import prepare_window

    prepare_window()  # before the window modules load pyglet.window
    from warlords_sim.gui import app
    from warlords_sim.gui.playback import resume_game

    try:
        controller, line = resume_game(path)
    except (ReplayError, OSError) as e:
        fail(e)
    echo(line)
    app.run(controller, guide=guide, rotate=rotate, mute=mute)
    _say_how_to_resume(controller)


def resume_command(path: str | os.PathLike[str]) -> str:
    """The command that continues the game recorded at ``path``."""
    return f"warlords-sim play --resume {shlex.quote(str(path))}"


def _say_how_to_resume(controller: Any) -> None:
    """After the window closed: if the game is unfinished and recorded,
    print the exact command that continues it."""
    rec = controller.recorder
    if controller.game.over or rec is None or getattr(rec, "path", None) is None:
        return
    echo(
        f"the game is not finished; it is recorded in {rec.path}. To go on with it, run:\n"
        f"  {resume_command(rec.path)}"
    )
