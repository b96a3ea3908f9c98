"""``warlords-sim play``: the game in a pyglet window (pyglet loaded lazily)."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from warlords_sim.cli._common import echo, fail, load_game_config
from warlords_sim.cli._outputs import check_output, default_recording, recording, saving
from warlords_sim.cli._seats import game_options, parse_bots, parse_hands, refuse_with_resume
from warlords_sim.errors import WarlordsError

if TYPE_CHECKING:
    from warlords_sim.bots.skill import Skill

__all__ = ["play", "recording_path", "resume_command"]

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


@click.command("play", help=_HELP)
@click.pass_context
@game_options(
    bots_default="1",
    bots_metavar="P[,P...]|none|all",
    bots_help="Players a bot plays.",
    seed_help="Seeds the bots.",
    resume_help="Continue the game of a replay that ends without a result (after a crash), "
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
    from warlords_sim.bots import make_bot

    if resume_file is not None:
        refuse_with_resume(ctx, keep=("guide", "rotate", "mute"))  # the window's own options
        _resume(resume_file, guide, rotate, mute)
        return
    try:
        config = load_game_config(board, rules_file, variant, players)
        bot_players = parse_bots(bots_text, players)
        hands = parse_hands(hand_text, players, bot_players)
        policies = {p: make_bot(bot, skill) for p in bot_players}
    except (WarlordsError, ValueError, OSError) as e:
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
