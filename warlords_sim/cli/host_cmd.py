"""``warlords-sim host``: serve one game to players on other machines."""

from __future__ import annotations

import asyncio
import contextlib
import shlex
import socket
from typing import Any

import click

from warlords_sim.cli._common import echo, fail, load_game_config
from warlords_sim.cli._outputs import check_output
from warlords_sim.cli._seats import game_options, parse_bots, parse_hands, refuse_with_resume
from warlords_sim.cli.play_cmd import recording_path
from warlords_sim.errors import WarlordsError

__all__ = ["host"]

#: The port ``host`` listens on unless told (the WebSocket convention's 8765).
DEFAULT_PORT = 8765

_HELP = """Host a game of Warlords for players on other machines (or other windows).

\b
The host owns the game: it checks every action with the rules, simulates
it, applies each human seat's hand, plays the --bots seats and records the
replay, as play does. At start it prints one line per human seat with the
command that joins it:
  P1 (seat 2, yellow): warlords-sim join ws://127.0.0.1:8765 --token TOKEN
Give each player their line; a token is that seat's key (a random one per
seat and per run). Anyone who joins without a token watches. It listens on
127.0.0.1 (this machine only) unless --bind says otherwise: --bind 0.0.0.0
takes players from the network (the tokens are the only lock, and the
connection is not encrypted: play among friends).

\b
Nothing is lost: every action is on disk before the players see it. A
player who drops joins again with the same line and gets the game where it
stands. If the host is stopped or killed, 'warlords-sim host --resume FILE'
(new tokens are printed) or 'warlords-sim play --resume FILE' (hot-seat)
continues the game. When no human player is connected for --wait seconds
the game stops, recorded.

\b
Examples:
  warlords-sim host                          two humans, P0 and P1
  warlords-sim host --players 4 --bots 2,3   two humans and two aim bots
  warlords-sim host --bind 0.0.0.0 --port 9000 --variant wall1
  warlords-sim host --resume PATH/warlords-20260101-120000.jsonl
"""


@click.command("host", help=_HELP)
@click.pass_context
@game_options(
    bots_default="none",
    bots_metavar="P[,P...]|none",
    bots_help="Players the host's bots play (the rest join).",
    seed_help="Seeds the bots and the hands.",
    resume_help="Continue the game of a replay that ends without a result "
    "(a host stopped or killed), appending to it; players, bots, rules and seed "
    "are the file's.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=DEFAULT_PORT,
    show_default=True,
    help="Port to listen on (0: any free one, printed).",
)
@click.option(
    "--bind",
    default="127.0.0.1",
    show_default=True,
    metavar="ADDRESS",
    help="Address to listen on (0.0.0.0: every network of this machine).",
)
@click.option(
    "--wait",
    type=click.FloatRange(min=1.0),
    default=600.0,
    show_default=True,
    help="Seconds the game waits with no human player connected before it stops "
    "(recorded; resume it with --resume).",
)
@click.option(
    "--bot-delay",
    type=click.FloatRange(0.0, 10.0),
    default=0.6,
    show_default=True,
    help="Seconds the host's bots wait before each action, so that people can follow them.",
)
@click.option("--force", is_flag=True, help="Overwrite an existing --record file.")
def host(  # fmt: skip
    ctx: click.Context,
    players: int,
    bots_text: str,
    bot: str,
    skill: Any,
    hand_text: str,
    variant: str | None,
    rules_file: str | None,
    board: str,
    seed: int,
    port: int,
    bind: str,
    record: str | None,
    resume_file: str | None,
    wait: float,
    bot_delay: float,
    force: bool,
) -> None:
    said: list[str] = []  # lines said once the host listens
    if resume_file is not None:
        refuse_with_resume(ctx, keep=("port", "bind", "wait", "bot_delay"))
        controller = _resumed(resume_file)
    else:
        controller = _new_game(players, bots_text, bot, skill, hand_text, variant, rules_file,
                               board, seed, record, force, said)  # fmt: skip
    _serve(controller, bind, port, wait, bot_delay, said)


def _resumed(resume_file: str) -> Any:
    """The host's controller of the game ``resume_file`` records (``--resume``)."""
    from warlords_sim.gui.playback import resume_game
    from warlords_sim.net.host import HostController
    from warlords_sim.replay import ReplayError

    try:
        built, line = resume_game(resume_file, controller=HostController)
    except (ReplayError, OSError) as e:
        fail(e)
    if len(built.bots) == built.config.players:
        if built.recorder is not None:
            built.recorder.close()
        fail(f"{resume_file}: every player of this game is a bot: nobody would join; "
             f"continue it with 'warlords-sim play --resume {resume_file}' (to watch) or "
             "'warlords-sim replay FILE --branch NEW --bots ...' (headless)")  # fmt: skip
    echo(line)
    return built


def _new_game(players: int, bots_text: str, bot: str, skill: Any, hand_text: str,
              variant: str | None, rules_file: str | None, board: str, seed: int,
              record: str | None, force: bool, said: list[str]) -> Any:  # fmt: skip
    """The host's controller of a new game from the options, its recorder
    open (its "recording the game to" line appended to ``said``)."""
    from warlords_sim.bots import make_bot
    from warlords_sim.gui.controller import open_recorder
    from warlords_sim.net.host import HostController

    try:
        config = load_game_config(board, rules_file, variant, players)
        bot_players = parse_bots(bots_text, players)
        if len(bot_players) == players:
            raise ValueError("--bots: every player is a bot; watch bots with "
                             "'warlords-sim play --bots all' or simulate")  # fmt: skip
        hands = parse_hands(hand_text, players, bot_players)
        policies = {p: make_bot(bot, skill) for p in bot_players}
    except (WarlordsError, ValueError, OSError) as e:
        fail(e)
    if record is not None:
        check_output(record, "--record", force)
    names = tuple(policies[p].name if p in policies else "human" for p in range(players))
    try:
        recorder, line = open_recorder(
            recording_path(record), config, seed, names, skill=skill, force=force,
            hands=hands,
        )  # fmt: skip
    except (OSError, ValueError) as e:
        fail(e)
    said.append(line)  # once it listens: a host that cannot listen records nothing
    return HostController(config, policies, seed=seed, recorder=recorder, hands=hands)


def _serve(controller: Any, bind: str, port: int, wait: float, bot_delay: float,
           said: list[str]) -> None:  # fmt: skip
    """Serve the game until it ends or stops (a signal: goodbyes first, then
    exit 128 + the signal), then say where it is recorded."""
    import signal

    from warlords_sim.colours import SEAT_COLOUR_NAMES
    from warlords_sim.net.host import Host, new_tokens

    tokens = new_tokens(controller.config.players, controller.bots)
    server = Host(controller, tokens, wait=wait, bot_delay=bot_delay, say=echo)

    def ready(bound: int) -> None:
        for text in said:
            echo(text)
        where = _shown_host(bind)
        for p, token in tokens.items():
            seat = controller.state.seat_of(p)
            echo(f"P{p} (seat {seat}, {SEAT_COLOUR_NAMES[seat]}): warlords-sim join "
                 f"ws://{where}:{bound} --token {token}")  # fmt: skip
        echo(f"watch: warlords-sim join ws://{where}:{bound}   (Ctrl+C stops the host)")

    got: list[int] = []  # the signals that stopped the host

    def on_signal(sig: int) -> None:
        loop = asyncio.get_running_loop()
        if got:  # a second one: the default action (Ctrl+C again quits at once)
            for s in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(s)
            return
        got.append(sig)
        server.stop(f"stopped ({signal.Signals(sig).name})")  # goodbyes sent, then out

    async def run() -> str:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):  # not on Windows
                loop.add_signal_handler(sig, on_signal, sig)
        return await server.serve(bind, port, ready)

    rec = controller.recorder
    try:
        why = asyncio.run(run())
    except KeyboardInterrupt:  # where the loop could not take the signal itself
        why = "stopped (SIGINT)"
        got.append(signal.SIGINT)
    except OSError as e:
        if rec is not None:
            rec.discard()  # the file this run created, header only
        import errno

        hint = "try another --port" if e.errno == errno.EADDRINUSE else (
            "check --bind: an address of this machine, or 0.0.0.0 for all")  # fmt: skip
        fail(f"cannot listen on {bind}:{port}: {e.strerror or e} ({hint})")
    s = server.stats
    echo(f"{why}; sent {s.sent_bytes} bytes in {s.sent_messages} messages, "
         f"received {s.received_bytes} bytes")  # fmt: skip
    if rec is not None:
        _say_where(controller, rec, bool(got))
    if got:
        raise click.exceptions.Exit(128 + got[0])


def _say_where(controller: Any, rec: Any, stopped: bool) -> None:
    """Where the game is recorded and how to go on with it: a game stopped
    before its first action leaves no file (as play); a --force recording
    replaces its target when the host ends by itself, and stays beside it
    (the target unchanged, said) when the host is interrupted."""
    from warlords_sim.cli.play_cmd import resume_command
    from warlords_sim.replay import ReplayError

    if rec.discard():
        echo("nothing was recorded (no action was played)")
        return
    note = ""
    if rec.pending and not stopped:
        try:
            rec.place()
        except ReplayError as e:
            note = f" ({e})"
    elif rec.pending:
        note = f" ({rec.target_note('--record')})"
    if controller.game.over:
        echo(f"the game is recorded in {rec.path}{note}")
        return
    path = shlex.quote(str(rec.path))
    echo(f"the game is not finished; it is recorded in {rec.path}{note}. To go on with it, "
         f"run:\n  warlords-sim host --resume {path}   (new join lines are printed; "
         f"the port is --port's, {DEFAULT_PORT} unless given)\n  or hot-seat: "
         f"{resume_command(rec.path)}")  # fmt: skip


def _shown_host(bind: str) -> str:
    """The address the join lines name: the bound one, or this machine's
    name when bound to every network."""
    if bind in ("0.0.0.0", "::", ""):
        return socket.gethostname()
    return f"[{bind}]" if ":" in bind else bind
