"""The ``warlords-sim`` command line (console script ``warlords_sim.cli:main``).

Each subcommand lives in its own module and is registered here by name
only: its module is imported when the command runs (or shows its help), so
``warlords-sim --help`` imports click and nothing of the simulator, and a
subcommand imports only what it uses (tests/test_import_hygiene.py).
Expected input errors end with one line on stderr and exit status 2 (see
:mod:`warlords_sim.cli._common`).
"""

from __future__ import annotations

import importlib
import sys
import warnings
from typing import Any

import click

from warlords_sim import __version__
from warlords_sim._text import FileWarning, printable
from warlords_sim.cli._common import PROG, expected_errors, fail

__all__ = ["COMMANDS", "main"]

#: Subcommand name -> (module under warlords_sim.cli, the click command's
#: name in it, the first paragraph of its help as one line). The summary is
#: what ``warlords-sim --help`` lists, whole, without importing the module;
#: a test checks it against the command's own help.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "board": ("board_cmd", "board", "Show, draw or dump a board file."),
    "fidelity": (
        "fidelity_cmd",
        "fidelity",
        "Compare two physics engines on the fidelity scenarios: N noisy trials of each "
        "scenario on both, the same seeds and so the same noisy flicks, and a table of the "
        "figures side by side with PASS/FAIL.",
    ),
    "flick": (
        "flick_cmd",
        "flick",
        "Flick one die on the board (all center-ring pins set up) and report where it rests "
        "and which face is up.",
    ),
    "host": (
        "host_cmd",
        "host",
        "Host a game of Warlords for players on other machines (or other windows).",
    ),
    "join": (
        "join_cmd",
        "join",
        "Join a game that 'warlords-sim host' serves: play your seat in the window, or watch.",
    ),
    "play": (
        "play_cmd",
        "play",
        "Play Warlords in a window: 2 to 4 players, hot-seat humans and bots.",
    ),
    "render": (
        "render_cmd",
        "render",
        "Draw a replay (see docs/replay-format.md) off-screen with the play window's "
        "renderer and write an animation (.gif, .mp4) or a picture of the final state (.png).",
    ),
    "replay": (
        "replay_cmd",
        "replay",
        "Watch a replay (a recorded game or flick sequence, JSON Lines; see "
        "docs/replay-format.md) in the window, verify it, or branch a new game from any of "
        "its actions.",
    ),
    "simulate": (
        "simulate_cmd",
        "simulate",
        "Play a whole game of Warlords with bots in every seat and print a per-round table "
        "(damage per player, flicks, dice eliminated, how the round ended) and the winner "
        "(the lowest total damage).",
    ),
    "variants": (
        "variants_cmd",
        "variants",
        "Compare wall variants and house rules over many bot games: a table of means and "
        "rates with 95% confidence intervals, each variant's difference from the first with "
        "a significance test, and (with --out) games.csv, summary.json and plots.",
    ),
}

_HELP = f"""Physics simulator for the tabletop dice-flicking game Warlords.

\b
Dice are simulated in "2.5D" on pymunk: sliding with Coulomb friction,
airborne launches from the crenelations and the siege engine, bounces,
edge catches and tumbles that decide the face up. The board is data
(boards/NAME.toml), validated on load.

\b
Units everywhere: millimetres (mm), grams (g), seconds (s), radians (rad);
velocities in mm/s.
Frame: origin at the board centre, x right, y up, seen from above.
Seats, in turn order: 0 bottom, 1 left, 2 top, 3 right.

\b
Examples:
  {PROG} board --png board.png      draw the standard board
  {PROG} board --json               its geometry as JSON
  {PROG} COMMAND --help             help on one command

Expected errors print one line, "{PROG}: error: ...", and exit with status 2.
"""


class _Main(click.Group):
    """The top-level group: loads a subcommand's module only when it is used,
    and turns expected input errors of any subcommand into one line on stderr
    and exit status 2."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, attr, _ = COMMANDS[cmd_name]
            cmd = getattr(importlib.import_module(f"warlords_sim.cli.{module}"), attr)
            if not isinstance(cmd, click.Command):
                raise TypeError(f"warlords_sim.cli.{module}.{attr} is not a click command")
            self.add_command(cmd, cmd_name)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of ``--help``: each command with the whole of its
        :data:`COMMANDS` summary (the first paragraph of its own help),
        wrapped, without importing every command. (click's listing cuts a
        summary to the line's width with "...": "Compare two physics
        engines on the fidelity scenarios: N...".)"""
        names = self.list_commands(ctx)
        if not names:
            return
        rows = []
        for name in names:
            if name in COMMANDS:
                rows.append((name, COMMANDS[name][2]))
            else:  # added by hand, not listed in COMMANDS
                rows.append((name, self.commands[name].get_short_help_str(1_000)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        # Ctrl-C and SIGTERM stop every subcommand in plain Python, never
        # inside a pymunk callback (warlords_sim.stop); a command without
        # a clean-up of its own ends with one line and 128 + the signal
        from warlords_sim.cli._signals import Stop, signals_as_interrupt

        stop = Stop()
        try:
            with signals_as_interrupt() as stop:
                return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo(f"{PROG}: interrupted by {stop.name}", err=True)
            raise click.exceptions.Exit(stop.exit_status) from None
        except Exception as e:
            if isinstance(e, expected_errors()):
                fail(e)
            raise

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command; a usage error (an unknown option, a value out of
        range) prints one line and exits 2, like every other input error;
        a :class:`~warlords_sim._text.FileWarning` (a bad cache file ignored)
        prints one line ``warlords-sim: warning: ...``."""
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            return self._main(*args, **kwargs)

    def _main(self, *args: Any, **kwargs: Any) -> Any:
        if kwargs.get("standalone_mode", True) is False:
            return super().main(*args, **kwargs)
        kwargs["standalone_mode"] = False
        try:
            rv = super().main(*args, **kwargs)
        except click.exceptions.NoArgsIsHelpError as e:
            click.echo(e.ctx.get_help() if e.ctx is not None else e.format_message())
            sys.exit(0)
        except click.UsageError as e:
            sub = e.ctx.command_path.removeprefix(PROG).strip() if e.ctx is not None else ""
            where = f"{sub}: " if sub else ""
            hint = f" (see '{e.ctx.command_path} --help')" if e.ctx is not None else ""
            text = " ".join(printable(e.format_message()).split())
            click.echo(f"{PROG}: error: {where}{text}{hint}", err=True)
            sys.exit(e.exit_code)
        except click.ClickException as e:
            text = " ".join(printable(e.format_message()).split())
            click.echo(f"{PROG}: error: {text}", err=True)
            sys.exit(e.exit_code)
        except click.exceptions.Exit as e:
            sys.exit(e.exit_code)
        except click.Abort:
            click.echo(f"{PROG}: aborted", err=True)
            sys.exit(130)
        sys.exit(rv if isinstance(rv, int) else 0)


_default_showwarning = warnings.showwarning


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: Any = None,
    line: str | None = None,
) -> None:
    if issubclass(category, FileWarning):
        text = " ".join(printable(str(message)).split())
        click.echo(f"{PROG}: warning: {text}", err=True)
    else:
        _default_showwarning(message, category, filename, lineno, file, line)


@click.group(
    name=PROG,
    cls=_Main,
    help=_HELP,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, "--version", "-V", prog_name=PROG)
def main() -> None:
    pass
