"""``warlords-sim simulate``: a whole game with bots in every seat, headless."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

from warlords_sim.cli._common import board_name_option, fail, load_game_config
from warlords_sim.cli._names import BOTS_HELP, ENGINES
from warlords_sim.cli._outputs import check_output, recording
from warlords_sim.cli._seats import SKILL_HELP, SKILL_METAVAR, parse_skill
from warlords_sim.errors import WarlordsError

if TYPE_CHECKING:
    from warlords_sim.bots.skill import Skill
    from warlords_sim.rules import GameState, Outcome
    from warlords_sim.rules.physics_port import Physics

__all__ = ["simulate", "summary"]

_HELP = """Play a whole game of Warlords with bots in every seat and print a
per-round table (damage per player, flicks, dice eliminated, how the round
ended) and the winner (the lowest total damage).

\b
Players sit at seats 0 bottom, 1 left, 2 top, 3 right (two players: 0 and
2; three: 0, 1, 2, rotating each round, seat 3 walled). Bots: aim, random,
search (plans on copies of the game: about 16 s of CPU per 2-player game).

\b
Examples:
  warlords-sim simulate --players 3 --bots aim,random,aim --seed 7
  warlords-sim simulate --variant wall2 --json
  warlords-sim simulate --players 2 --seed 3 --record game.jsonl
  warlords-sim simulate --players 2 --engine reference

\b
--engine reference plays on the 3D MuJoCo reference (the 'reference'
extra): slow, seconds per round.
"""


def summary(
    state: GameState, seed: int, bots: list[str], skill: Skill, engine: str = "2.5d"
) -> dict[str, Any]:
    """The game as a JSON-ready object (``engine``: the physics it ran on;
    ``skill``: a number, or a level by its name)."""
    return {
        "seed": seed,
        "engine": engine,
        "players": state.players,
        "bots": bots,
        "skill": getattr(skill, "value", skill),
        "variant": state.config.house_rules.wall_variant,
        "board": state.board.name,
        "house_rules": state.config.house_rules.to_dict(),
        "rounds": [r.to_dict() for r in state.history],
        "totals": list(state.totals),
        "winner": state.winner,
        "winners": list(state.winners),
        "flicks": state.flicks,
    }


def _table(data: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from warlords_sim._text import printable
    from warlords_sim.rules.scoring import winners_text

    n = data["players"]
    board = escape(printable(str(data["board"]), newlines=False))  # a name from a file
    table = Table(
        title=f"Warlords: {n} players, {data['variant']}, board {board}, "
        f"seed {data['seed']} (bots {', '.join(data['bots'])}, skill {data['skill']}; "
        f"{data.get('engine', '2.5d')} physics)"
    )
    table.add_column("round", justify="right")
    table.add_column("first", justify="right")
    for p in range(n):
        table.add_column(f"P{p} dmg", justify="right")
    table.add_column("flicks", justify="right")
    table.add_column("off board " + " ".join(f"P{p}" for p in range(n)), justify="right")
    table.add_column("ended by", overflow="fold")
    for r in data["rounds"]:
        how = r["ended_by"] if r["out_player"] is None else f"P{r['out_player']} had no dice"
        table.add_row(
            str(r["round"]),
            f"P{r['first_player']}",
            *(str(d) for d in r["damage"]),
            str(r["flicks"]),
            " ".join(str(e) for e in r["eliminated"]),
            how + (", side walls up" if r["side_walls"] else ""),
        )
    table.add_section()
    table.add_row("total", "", *(str(t) for t in data["totals"]), str(data["flicks"]), "", "")
    # wide enough for four players even when piped (rich would use 80 columns)
    console = Console(width=max(Console().width, 110))
    console.print(table)
    final = data["rounds"][-1]["scored_on_opponents"]
    console.print(winners_text(data["totals"], final), markup=False, highlight=False)


@click.command("simulate", help=_HELP)
@click.option(
    "--players",
    type=click.IntRange(2, 4),
    default=4,
    show_default=True,
    help="Number of players (2: seats 0 and 2; 3: seats 0, 1, 2, rotating).",
)
@click.option(
    "--bots",
    default="aim",
    show_default=True,
    metavar="BOT[,BOT...]",
    help=f"One bot for every seat, or one per player, comma-separated. {BOTS_HELP}.",
)
@click.option(
    "--skill",
    "skill_text",
    default="0.7",
    show_default=True,
    metavar=SKILL_METAVAR,
    help=SKILL_HELP,
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Seed: same seed, same game.",
)
@click.option(
    "--variant",
    type=click.Choice(["standard", "wall1", "wall2"]),
    default=None,
    help="Wall variant (overrides the rules file; default standard).",
)
@click.option(
    "--rules",
    "rules_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="House rules TOML file (see RULES.md).",
)
@board_name_option
@click.option(
    "--engine",
    type=click.Choice(list(ENGINES)),
    default="2.5d",
    show_default=True,
    help="Physics engine: the 2.5D model or the 3D MuJoCo reference.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
@click.option(
    "--progress",
    is_flag=True,
    help="Show a progress bar on stderr, terminal or not (worth it with search bots: minutes "
    "for 4 players).",
)
@click.option("--record", metavar="PATH", help="Record the game as a replay (JSON Lines).")
@click.option("--force", is_flag=True, help="With --record: overwrite an existing file.")
def simulate(
    players: int,
    bots: str,
    skill_text: str,
    seed: int,
    variant: str | None,
    rules_file: str | None,
    board: str,
    engine: str,
    as_json: bool,
    progress: bool,
    record: str | None,
    force: bool,
) -> None:
    from warlords_sim.bots import make_bot, parse_bot_names, play_game
    from warlords_sim.physics import WorldError
    from warlords_sim.rules.physics_port import make_world

    try:
        skill = parse_skill(skill_text)
        config = load_game_config(board, rules_file, variant, players)
        names = list(parse_bot_names(bots, players))
        try:
            policies = [make_bot(n, skill) for n in names]
        except ValueError as e:
            raise ValueError(f"--bots/--skill: {e}") from e
    except (WarlordsError, ValueError, OSError) as e:
        fail(e)
    physics: Physics | None = None
    if engine != "2.5d":
        if record is not None:
            fail("--record records games of the 2.5d engine only (replays re-simulate on it)")
        try:
            physics = make_world(config.board, engine)
        except (ImportError, WorldError) as e:
            fail(e)
    rec = None
    if record is not None:
        from warlords_sim.replay import Recorder, ReplayError

        check_output(record, "--record", force)

        try:
            rec = Recorder.create(record, config, seed=seed, bots=names, skill=skill, force=force)
        except ReplayError as e:
            fail(e)

    def on_outcome(state: GameState, outcome: Outcome) -> None:
        if rec is not None:
            rec.record(outcome.action, state, outcome)

    with recording(rec):
        if progress:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn

            with Progress(
                TextColumn("round {task.completed}/{task.total}"),
                BarColumn(),
                TextColumn("{task.fields[flicks]} flicks"),
                # --progress draws the bar even when stderr is not a terminal
                console=Console(stderr=True, force_terminal=True),
                transient=True,
            ) as bar:
                task = bar.add_task("game", total=config.rounds, flicks=0)

                def tick(state: GameState, outcome: Outcome) -> None:
                    on_outcome(state, outcome)
                    bar.update(task, completed=len(state.history), flicks=state.flicks)

                game = play_game(config, policies, seed, physics=physics, on_outcome=tick)
        else:
            game = play_game(config, policies, seed, physics=physics, on_outcome=on_outcome)
        if rec is not None:
            rec.finish(game)
    data = summary(game.state, seed, names, skill, engine)
    if as_json:
        click.echo(json.dumps(data))
    else:
        _table(data)
