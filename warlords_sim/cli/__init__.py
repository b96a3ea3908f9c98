"""The ``warlords-sim`` command line (console script ``warlords_sim.cli:main``).

Each subcommand lives in its own module and is registered here. Expected
input errors end with one line on stderr and exit status 2 (see
:mod:`warlords_sim.cli._common`).
"""

from __future__ import annotations

import sys
from typing import Any

import click

from warlords_sim import __version__
from warlords_sim.cli._common import EXPECTED_ERRORS, PROG, fail

__all__ = ["main"]

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
    """The top-level group: turns expected input errors of any subcommand into
    one line on stderr and exit status 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except EXPECTED_ERRORS as e:
            fail(e)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command; a usage error (an unknown option, a value out of
        range) prints one line and exits 2, like every other input error."""
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
            click.echo(
                f"{PROG}: error: {where}{' '.join(e.format_message().split())}{hint}", err=True
            )
            sys.exit(e.exit_code)
        except click.ClickException as e:
            click.echo(f"{PROG}: error: {' '.join(e.format_message().split())}", err=True)
            sys.exit(e.exit_code)
        except click.exceptions.Exit as e:
            sys.exit(e.exit_code)
        except click.Abort:
            click.echo(f"{PROG}: aborted", err=True)
            sys.exit(130)
        sys.exit(rv if isinstance(rv, int) else 0)


@click.group(
    name=PROG,
    cls=_Main,
    help=_HELP,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(__version__, "--version", "-V", prog_name=PROG)
def main() -> None:
    pass


def _register() -> None:
    from warlords_sim.cli.board_cmd import board
    from warlords_sim.cli.fidelity_cmd import fidelity
    from warlords_sim.cli.flick_cmd import flick
    from warlords_sim.cli.play_cmd import play
    from warlords_sim.cli.render_cmd import render
    from warlords_sim.cli.replay_cmd import replay
    from warlords_sim.cli.simulate_cmd import simulate
    from warlords_sim.cli.variants_cmd import variants

    main.add_command(board)
    main.add_command(fidelity)
    main.add_command(flick)
    main.add_command(play)
    main.add_command(render)
    main.add_command(replay)
    main.add_command(simulate)
    main.add_command(variants)


_register()
