"""``warlords-sim join``: play a seat of a hosted game, or watch it."""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from warlords_sim.cli._common import echo, fail
from warlords_sim.cli._names import BOTS, BOTS_HELP
from warlords_sim.cli._seats import SKILL_HELP, SKILL_METAVAR, skill_option

__all__ = ["join"]

_HELP = """Join a game that 'warlords-sim host' serves: play your seat in the window, or watch.

\b
URL and TOKEN are from the line the host printed for your seat. The
window is play's: the same controls, aim guide and log (see 'warlords-sim
play --help'), turned so your castle is at the bottom. Your flicks go to
the host, which scatters them by your seat's hand and sends them back;
every flick is simulated on this machine as it happens and checked against
the host's result (the host's state is taken, and said, if they differ).
Without --token you watch. With --bot a bot plays the seat without a
window (to fill a seat, or in tests); --headless watches without one.
If the connection drops, run the same command again: the game is where
it stands.

\b
Examples:
  warlords-sim join ws://127.0.0.1:8765 --token TOKEN
  warlords-sim join ws://192.168.1.20:8765           watch
  warlords-sim join ws://127.0.0.1:8765 --token TOKEN --bot aim
"""


@click.command("join", help=_HELP)
@click.argument("url")
@click.option("--token", default=None, help="Your seat's token (none: watch).")
@click.option(
    "--bot",
    type=click.Choice(list(BOTS), case_sensitive=False),
    default=None,
    help=f"A bot plays the seat, headless. {BOTS_HELP}.",
)
@click.option(
    "--skill",
    default="0.7",
    show_default=True,
    metavar=SKILL_METAVAR,
    callback=skill_option,
    help=f"The --bot's hand. {SKILL_HELP}",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Seeds the --bot's choices.",
)
@click.option(
    "--bot-delay",
    type=click.FloatRange(0.0, 10.0),
    default=0.6,
    show_default=True,
    help="Seconds the --bot waits before each action, so that people can follow it.",
)
@click.option(
    "--headless", is_flag=True, help="No window: print each action's summary (implied by --bot)."
)
@click.option(
    "--guide/--no-guide",
    default=True,
    show_default=True,
    help="Start with the aim guide on or off (G toggles it).",
)
@click.option(
    "--rotate/--no-rotate",
    default=None,
    help="Turn the view so your castle is at the bottom (R toggles it). "
    "[default: on when you play a seat]",
)
@click.option("--mute", is_flag=True, help="Start without the impact sounds (M turns them on).")
def join(  # fmt: skip
    url: str,
    token: str | None,
    bot: str | None,
    skill: Any,
    seed: int,
    bot_delay: float,
    headless: bool,
    guide: bool,
    rotate: bool | None,
    mute: bool,
) -> None:
    if not url.startswith(("ws://", "wss://")):
        fail(f"URL: {url!r} is not a WebSocket address; expected ws://HOST:PORT as the "
             "host printed it")  # fmt: skip
    if token is not None:
        import re

        from warlords_sim.net.protocol import TOKEN_PATTERN

        if re.fullmatch(TOKEN_PATTERN, token) is None:
            fail(f"--token: {token[:40]!r} is not a seat's token (letters, digits, - and _, "
                 "as the host printed it after --token)")  # fmt: skip
    if bot is not None and token is None:
        fail("--bot plays a seat: give the seat's --token")
    if headless and token is not None and bot is None:
        fail("--headless with --token would hold the seat and play nothing: add --bot NAME "
             "to play it headless, or drop --token to watch")  # fmt: skip
    window = bot is None and not headless
    if window and sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
        fail("no DISPLAY to open the window on: run it on a desktop, under xvfb-run, "
             "or watch headless with --headless")  # fmt: skip
    from warlords_sim.net.client import JoinError
    from warlords_sim.net.client import join as connect

    try:
        c = connect(url, token)
    except JoinError as e:
        fail(e)
    who = "watching" if c.me is None else f"playing P{c.me}"
    echo(f"joined {url}: {who}, the game after action {c.index}")
    from warlords_sim.cli._signals import Stop, signals_as_interrupt

    stop, stopped = Stop(), False
    try:
        with signals_as_interrupt() as stop:
            why = _play(c, window, bot, skill, seed, bot_delay, guide, rotate, mute)
    except KeyboardInterrupt:
        why, stopped = f"left ({stop.name})", True
    finally:
        left = c.closed is None  # this side ended it (a signal, the window closed)
        if left:
            c.link.close()
    _goodbye(c, why)
    if left and not c.game.over:
        again = f"warlords-sim join {url}" + (f" --token {token}" if token else "")
        echo(f"to join again: {again}")
    if stopped:
        raise click.exceptions.Exit(stop.exit_status)
    if not (c.game.over or left):  # the host went away mid-game (said above how to come back)
        raise click.exceptions.Exit(1)


def _play(c: Any, window: bool, bot: str | None, skill: Any, seed: int, bot_delay: float,
          guide: bool, rotate: bool | None, mute: bool) -> str:  # fmt: skip
    """Play (or watch) the seat in the window or headless; returns why it ended."""
    if not window:
        import numpy as np

        from warlords_sim.bots import make_bot
        from warlords_sim.net.client import play_headless

        policy = make_bot(bot, skill) if bot is not None else None
        return play_headless(c, policy, np.random.default_rng(seed), say=echo, delay=bot_delay)
    from warlords_sim.gui import prepare_window

    prepare_window()
    from warlords_sim.gui.app import run

    run(c, guide=guide, rotate=(c.me is not None) if rotate is None else rotate, mute=mute)
    return c.closed or "the window was closed"


def _goodbye(c: Any, why: str) -> None:
    from warlords_sim.replay.snapshot import digest_of

    if c.game.over:
        winners = ", ".join(f"P{w}" for w in c.state.winners)
        echo(f"game over: {winners} {'wins' if len(c.state.winners) == 1 else 'share the win'}; "
             f"totals {list(c.state.totals)}; final digest {digest_of(c.game)}")  # fmt: skip
    echo(f"{why}; {len(c.diverged)} actions differed from the host's "
         f"(received {c.link.received_bytes} bytes, sent {c.link.sent_bytes})")  # fmt: skip
