"""``warlords-sim variants``: the house-rule lab (many bot games per variant)."""

from __future__ import annotations

import json
from typing import Any

import click

from warlords_sim.cli._common import (
    FiniteFloatRange,
    board_name_option,
    check_board_name,
    echo,
    fail,
)
from warlords_sim.cli._names import BOTS
from warlords_sim.cli._outputs import exists_message
from warlords_sim.cli._seats import SKILL_HELP, SKILL_METAVAR
from warlords_sim.cli._signals import Stop, signals_as_interrupt
from warlords_sim.errors import WarlordsError
from warlords_sim.extras import require_extra

__all__ = ["variants"]

_HELP = """Compare wall variants and house rules over many bot games: a table of
means and rates with 95% confidence intervals, each variant's difference
from the first with a significance test, and (with --out) games.csv,
summary.json and plots.

\b
Metrics: damage per game and per player; win rate per player (P0 starts
round 1) and of the first player, a shared win counting 1/k to each of its
k winners; dice eliminated off the board and over the side walls per
round; flicks per round and per game; rounds ended by the final-die rule;
siege-engine shots; how often wall variant 1 triggered (its side walls came
up for the final round because a player had no damage).

\b
--skills novice,club,expert (levels or numbers in [0, 1], in the order
given) plays every variant at every skill: --games games per (variant,
skill) cell; every metric is shown per variant and skill, each variant
tested against the first variant at the same skill, and with --out
DIR/skills.png plots each variant's effect on damage and eliminations
against skill. --skill S is the same as --skills S (give one of the two).
A number is shown and seeded exactly (0.3000001 is not 0.3; -0 is 0).
Variants x skills x --games is at most 10000000 games.

\b
--board NAME|PATH plays on a board of boards/ or a board TOML file (as
simulate --board); the workers get the file's text, and a folder resumed
with --out must use the same board (its SHA-256 is kept in experiment.json).

\b
Every game's seed derives from (--seed, variant, skill, game index); at
the default skill 0.7 from (--seed, variant, game index) alone, as before
--skills existed, so older --out folders resume. The numbers are identical
whatever the worker count or cluster. Games run in local
worker processes (all cores by default), or on dask.distributed with
--dask tcp://HOST:8786 (a running scheduler; its workers need warlords-sim
installed; tls://HOST:8786 with the certificates of the dask configuration,
see the README) or --dask local (a LocalCluster of --workers processes that
only this run can use: TLS with credentials made for it, no dashboard).

\b
--out DIR keeps DIR/games.csv (one row per game, appended as games
finish), DIR/summary.json, DIR/damage.png and DIR/eliminations.png (and
DIR/skills.png with several skills). Ctrl-C
or SIGTERM (kill, timeout, a job scheduler) stops cleanly: the games in
hand are finished, every finished game is kept, summary.json is written
from them, and the exit status is 130 (Ctrl-C) or 143 (SIGTERM); the same
command again resumes. If this process is killed outright (kill -9), its
worker processes notice and exit within a second. One run at a time uses
a DIR (it holds DIR/.lock): a second one fails at once, naming the first
one's pid. A DIR without
experiment.json that holds a summary.json or a plot is not written into
without --force (a DIR with one is this command's: its summary and plots are
drawn again from its games).

\b
Examples:
  warlords-sim variants --players 2 --games 300 --variants standard,wall2 --out lab/
  warlords-sim variants --variants standard,wall2 --skills novice,expert --out lab2/
  warlords-sim variants --skills 0.3,0.7 --board boards/standard.toml --games 50
  warlords-sim variants --rules mine.toml,theirs.toml --games 500 --dask local
"""


#: Longest --dask-timeout, seconds (an hour; dask's timeouts overflow near 1e300).
MAX_DASK_TIMEOUT = 3600.0


_Seconds = FiniteFloatRange


@click.command("variants", help=_HELP)
@click.option(
    "--players",
    type=click.IntRange(2, 4),
    default=4,
    show_default=True,
    help="Number of players (2: seats 0 and 2; 3: seats 0, 1, 2, rotating).",
)
@click.option("--games", type=click.IntRange(1, 10_000_000), default=100, show_default=True,
              help="Games per variant and skill (1..10000000).")  # fmt: skip
@click.option(
    "--variants",
    "variant_names",
    default=None,
    metavar="NAME[,NAME...]",
    help="Built-in wall variants: standard, wall1, wall2 "
    "(default: all three, unless --rules is given).",
)
@click.option(
    "--rules",
    "rules_files",
    default=None,
    metavar="FILE[,FILE...]",
    help="House-rules TOML files to compare (each a variant named after its file).",
)
@click.option(
    "--bots",
    default="aim",
    show_default=True,
    metavar="BOT[,BOT...]",
    help=f"One bot for every seat, or one per player ({', '.join(BOTS)}, any case; search is "
    "slow: about 16 s of CPU per 2-player game).",
)
@click.option(
    "--skill",
    "skill_text",
    default=None,
    metavar=SKILL_METAVAR,
    help=SKILL_HELP + " Default 0.7. The same as --skills with one skill.",
)
@click.option(
    "--skills",
    "skills_text",
    default=None,
    metavar="SKILL[,SKILL...]",
    help="Play every variant at each of these skills (levels or numbers, as --skill), "
    "e.g. novice,club,expert or 0.3,0.7.",
)
@board_name_option
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Experiment seed: same seed, same games.",
)
@click.option(
    "--workers",
    type=int,
    default=None,
    help="Local worker processes (default: all cores; 1: in this process).",
)
@click.option(
    "--dask",
    default=None,
    metavar="ADDRESS|local",
    help="Run the games on a dask.distributed scheduler, or on a LocalCluster.",
)
@click.option(
    "--dask-timeout",
    type=_Seconds(0.0, MAX_DASK_TIMEOUT, min_open=True),
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help=f"Seconds a --dask scheduler address gets to connect and answer (0 < t <= "
    f"{MAX_DASK_TIMEOUT:g}).",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default=None,
    metavar="DIR",
    help="Keep games.csv, summary.json and plots in DIR; run again to resume.",
)
@click.option("--json", "as_json", is_flag=True, help="Print summary.json instead of a table.")
@click.option(
    "--force",
    is_flag=True,
    help="With --out: write into a DIR whose summary.json or plots another command made.",
)
def variants(
    players: int,
    games: int,
    variant_names: str | None,
    rules_files: str | None,
    bots: str,
    skill_text: str | None,
    skills_text: str | None,
    board: str,
    seed: int,
    workers: int | None,
    dask: str | None,
    dask_timeout: float,
    out: str | None,
    as_json: bool,
    force: bool,
) -> None:
    require_extra("lab", "variants")

    from warlords_sim.experiments import (
        Experiment,
        ExperimentError,
        experiment_board,
        run_experiment,
        variants_from_options,
    )

    check_board_name(board)
    if out is not None:
        _check_out_dir(out, force)
    try:
        if workers is not None and workers < 1:
            raise ExperimentError(f"--workers: expected at least 1, got {workers}")
        if dask is not None and not dask.strip():
            raise ExperimentError("--dask: expected a scheduler address or 'local'")
        exp = Experiment(
            variants_from_options(variant_names, rules_files),
            players=players,
            games=games,
            bots=Experiment.parse_bots(bots, players),
            skills=_skills(skill_text, skills_text),
            seed=seed,
            board=experiment_board(board),
        )
        stop = Stop()
        try:
            with signals_as_interrupt() as stop:
                result = run_experiment(
                    exp, out, workers=workers, dask=dask, dask_timeout=dask_timeout, progress=True
                )
        except KeyboardInterrupt:  # before the games started, or while summarizing
            echo(f"interrupted by {stop.name} before the run could finish", err=True)
            raise click.exceptions.Exit(stop.exit_status) from None
    except WarlordsError as e:
        fail(e)
    except OSError as e:  # a file of --out that cannot be written
        where = f"--out {out}: " if out is not None and e.filename is not None else ""
        what = f"{e.filename}: cannot write it: " if e.filename else ""
        fail(f"{where}{what}{e.strerror or e}")

    _report(result, as_json)
    if result.interrupted:
        done = sum(v["games"] for v in result.summary["variants"])
        total = games * len(exp.variants) * len(exp.skills)
        where = f" in {result.files[0]}" if result.files else ""
        echo(
            f"interrupted by {stop.name}: {done} of {total} games finished and kept{where}"
            + ("; run the same command again to resume" if out else ""),
            err=True,
        )
        raise click.exceptions.Exit(stop.exit_status)


def _skills(skill_text: str | None, skills_text: str | None) -> tuple[Any, ...]:
    """The skills to compare, from ``--skill`` (one) or ``--skills`` (several).

    Raises:
        ExperimentError: both given, or ``--skill`` given several.
    """
    from warlords_sim.experiments import DEFAULT_SKILL, ExperimentError, parse_skills

    if skill_text is not None and skills_text is not None:
        raise ExperimentError("--skill and --skills: give one of the two (--skill S is --skills S)")
    if skills_text is not None:
        return parse_skills(skills_text, "--skills")
    if skill_text is not None:
        skills = parse_skills(skill_text, "--skill")
        if len(skills) > 1:
            raise ExperimentError(f"--skill: one skill, got {skill_text!r}; use --skills")
        return skills
    return (DEFAULT_SKILL,)


def _report(result: Any, as_json: bool) -> None:
    """The run's summary: a JSON object, or the table and the files written;
    first a note of games of an older label kept but not counted."""
    from rich.console import Console

    from warlords_sim.experiments.report import print_table

    if result.uncounted:  # only a folder's games.csv (files[0]) can hold them
        csv_path = result.files[0] if result.files else "games.csv"
        echo(
            f"note: {result.uncounted} games in {csv_path} have skill labels of an "
            "older warlords-sim (-0, or a number cut to 6 digits; labels and seeds are now "
            "exact): kept in the file, not counted",
            err=True,
        )
    if as_json:
        click.echo(json.dumps(result.summary, indent=2))
        return
    print_table(result.summary, Console())
    if result.files:
        echo("wrote " + ", ".join(str(f) for f in result.files))
    else:
        echo("(--out DIR keeps the games, summary.json and plots, and resumes)")


def _check_out_dir(out: str, force: bool) -> None:
    """``--out DIR``: a lab directory (it has experiment.json) is resumed, and
    its summary.json and plots are drawn again from its own games; in any
    other directory, a summary.json or plot already there is not replaced
    without ``force`` (a games.csv there is refused by the store, always)."""
    from pathlib import Path

    from warlords_sim.experiments.report import (
        DAMAGE_PNG,
        ELIMINATIONS_PNG,
        SKILLS_PNG,
        SUMMARY_JSON,
    )
    from warlords_sim.experiments.store import SETTINGS_JSON

    d = Path(out)
    if not out.strip():
        fail("--out: expected a folder for the games, got ''")
    if d.exists() and not d.is_dir():
        fail(f"--out {out}: exists and is not a folder")
    if not d.exists() and not d.parent.exists():
        fail(f"--out {out}: no such directory {str(d.parent)!r}")
    if force or not d.is_dir() or (d / SETTINGS_JSON).exists():
        return
    for name in (SUMMARY_JSON, DAMAGE_PNG, ELIMINATIONS_PNG, SKILLS_PNG):
        if (d / name).exists():
            fail(exists_message("--out", d / name) + f" (no {SETTINGS_JSON}: not a lab folder)")
