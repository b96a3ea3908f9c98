"""Shared pieces of the command line: one-line errors and the ``--board`` option.

An expected input error (a bad board file, an impossible flick, a file that
cannot be written) prints exactly one line, ``warlords-sim: error: ...``, to
stderr and exits with status 2. Anything else is a bug and keeps its
traceback.

Imports only click at load time (the board and the rules when first used),
so that every subcommand's ``--help`` starts at once.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from warlords_sim._text import printable
from warlords_sim.errors import WarlordsError

if TYPE_CHECKING:
    from warlords_sim.board import Board
    from warlords_sim.rules import GameConfig

__all__ = [
    "FiniteFloatRange",
    "EXIT_USAGE",
    "PROG",
    "BOARD_HELP",
    "board_name_option",
    "board_option",
    "check_board_name",
    "echo",
    "expected_errors",
    "fail",
    "load_board_or_fail",
    "load_game_config",
]

PROG = "warlords-sim"
#: Exit status of an expected input error (the same as click's usage errors).
EXIT_USAGE = 2
F = TypeVar("F", bound=Callable[..., Any])


def expected_errors() -> tuple[type[Exception], ...]:
    """The exceptions that mean "the input is wrong", not "the program is
    wrong": :class:`~warlords_sim.errors.WarlordsError` (every error of the
    package's that says so) and OSError."""
    return (WarlordsError, OSError)


def echo(message: object, err: bool = False) -> None:
    """Print ``message`` (:func:`click.echo`) with every terminal control
    character written as an escape (:func:`warlords_sim._text.printable`):
    what a command prints often quotes a file (a key, a summary, a
    description), and a shared file must not drive the terminal."""
    click.echo(printable(str(message)), err=err)


def fail(msg: object) -> NoReturn:
    """Print ``warlords-sim: error: MSG`` (one line, control characters
    escaped as by :func:`echo`) to stderr and exit with status 2."""
    text = " ".join(printable(str(msg)).split())  # one line, whatever the message holds
    click.echo(f"{PROG}: error: {text}", err=True)
    raise click.exceptions.Exit(EXIT_USAGE)


def check_board_name(value: str, option: str = "--board") -> None:
    """An empty board name or path ends the command: ``OPTION: empty; expected ...``
    (a path ``""`` would be the current folder)."""
    if not value.strip():
        from warlords_sim.board import known_boards

        fail(
            f"{option}: empty; expected a board name ({', '.join(known_boards())}) "
            "or a path to a board .toml file"
        )


def load_board_or_fail(name_or_path: str, option: str = "--board") -> Board:
    """:func:`warlords_sim.board.load_board`, turning a BoardError into
    :func:`fail` (an empty ``name_or_path`` named as ``option``)."""
    from warlords_sim.board import BoardError, load_board

    check_board_name(name_or_path, option)
    try:
        return load_board(name_or_path)
    except BoardError as e:
        fail(e)


def _board_callback(ctx: click.Context, param: click.Parameter, value: str) -> Board:
    return load_board_or_fail(value)


#: The help of every ``--board NAME|PATH`` option.
BOARD_HELP = "Board: a name from boards/ or a path to a board .toml file."


def _board(callback: Any = None) -> Callable[[F], F]:
    """The ``--board NAME|PATH`` option (default ``standard``), passed as
    ``board`` through ``callback`` if one is given."""
    return click.option(
        "--board",
        "board",
        metavar="NAME|PATH",
        default="standard",
        show_default=True,
        callback=callback,
        help=BOARD_HELP,
    )


def board_option(f: F) -> F:
    """Click option ``--board NAME|PATH`` (default ``standard``) passing a loaded
    :class:`~warlords_sim.board.Board` as the ``board`` parameter; a bad board
    ends the program with a one-line error (exit 2)."""
    return _board(_board_callback)(f)


def board_name_option(f: F) -> F:
    """Click option ``--board NAME|PATH`` (default ``standard``) passing the
    name or path as given, as the ``board`` parameter, for a command that
    loads the board itself (with the game's other settings)."""
    return _board()(f)


def load_game_config(
    board: str, rules_file: str | None, variant: str | None, players: int
) -> GameConfig:
    """The game the ``--board``, ``--rules``, ``--variant`` and ``--players``
    options describe (``--variant`` overrides the rules file's wall variant).

    Raises:
        BoardError, HouseRulesError, ValueError, OSError: a bad option or file
            (the callers turn them into one-line errors).
    """
    from warlords_sim.board import load_board
    from warlords_sim.rules import GameConfig, HouseRules, HouseRulesError, load_house_rules

    check_board_name(board)
    the_board = load_board(board)
    rules = load_house_rules(rules_file) if rules_file else HouseRules()
    if variant is not None:
        rules = rules.replace(wall_variant=variant)
    try:
        return GameConfig(the_board, players, rules)
    except ValueError as e:  # the rules do not fit the game (first_player, say)
        if rules_file:
            raise HouseRulesError(f"{rules_file}: {e} (--players {players})") from e
        raise


class FiniteFloatRange(click.FloatRange):
    """A float range that also refuses NaN (every comparison with NaN is
    false, so click's own range lets it through)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        rv = super().convert(value, param, ctx)
        if isinstance(rv, float) and math.isnan(rv):
            self.fail(f"{value!r} is not in the range {self._describe_range()}.", param, ctx)
        return rv
