"""``warlords-sim fidelity``: the 2.5D model against the 3D reference on the
fidelity scenarios, a pass/fail table (see :mod:`warlords_sim.fidelity`);
with ``--tosses FILE.npz``, one engine against measured cube tosses
(:mod:`warlords_sim.cli.fidelity_tosses`).

It is a report: disagreeing scenarios still exit 0; bad input (an unknown
scenario or engine, a bad scenario file, a plot that would overwrite a
file) exits 2 with one line.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from warlords_sim.cli._common import FiniteFloatRange, board_option, echo, fail
from warlords_sim.cli._names import DEFAULT_SCENARIOS, ENGINES
from warlords_sim.cli._outputs import exists_message, saving
from warlords_sim.errors import WarlordsError
from warlords_sim.extras import require_extra

if TYPE_CHECKING:
    from warlords_sim.board import Board
    from warlords_sim.fidelity import FidelityReport

__all__ = ["fidelity"]

_HELP = f"""Compare two physics engines on the fidelity scenarios: N noisy
trials of each scenario on both, the same seeds and so the same noisy
flicks, and a table of the figures side by side with PASS/FAIL.

\b
Figures per scenario and engine: median and IQR of the travel from the
launch point along and across the aim (mm), the share ending behind the
launch point, landings per flick, P(face changed), the faces, the regions,
the settle time and the exits. The first engine of --engines is judged
against the second, the baseline: medians within 15 % or 10 mm (the
larger), IQRs within 30 % or 10 mm, behind share and P(face changed)
within 0.10, faces and regions within total-variation distance 0.15.

\b
When the baseline is the reference, its own uncertainty is measured too
(--spread, the default then): the same trials again on the reference with
the die's edge radius at 0.8 and 2.4 mm and the die-on-wood restitution at
0.45 and 0.6 (one at a time; nobody measured them). The largest change of
its faces (TV) and of P(face changed) is reported beside each scenario and
is the tolerance of those two criteria when wider than 0.15 and 0.10. It
costs four more reference runs; --no-spread skips it.

\b
Trial i draws its hand noise from seed SEED+i (speed times 1 + N(0, s),
heading turned by N(0, s) rad, s the scenario's noise), as
'warlords-sim flick --seed SEED+i --noise s' does. The exit status is 0
whether or not the engines agree (it is a report); 2 on bad input.
Engines: {", ".join(ENGINES)}.

\b
With --tosses FILE.npz (measured tosses of a cube in the format of the
ContactNets fit set, ../shared/data/cube-tosses/README.md), the engine of
--engine takes each toss from its state in the air, fitted to the free
flight before the first contact (a ballistic centre, a constant spin),
onto the table, with the cube and table contact of --material. --json
prints one object a toss as it is done: toss, rest_pos_m and
rest_quat_wxyz in the file's frame, the faces, the errors, the state, the
impacts and the trajectory at the file's times. Without it, a table: the
share of tosses resting on the measured face (the same body axis up) with
its 95 % Wilson interval, the rest position error in side lengths, the
trajectory error during contact and the baseline "the face up before
contact stays up", over the tosses whose record reaches rest. The file's
lengths are multiplied by --length-scale first (1.021: the ContactNets
lengths read 2 % short, so that their free flight falls at 9.81 m/s^2).

\b
Examples:
  warlords-sim fidelity --list
  warlords-sim fidelity --trials 50
  warlords-sim fidelity --scenarios high-2-900,slide-pin-300 --trials 20 --plot out/
  warlords-sim fidelity --engines 2.5d,2.5d --trials 5 --json
  warlords-sim fidelity --tosses fit.npz --engine reference
  warlords-sim fidelity --tosses fit.npz --engine 2.5d --json > tosses.jsonl
"""

#: Options of the scenario comparison that --tosses does not take.
_SCENARIO_ONLY = (
    "names",
    "trials",
    "seed",
    "engines",
    "plot",
    "force",
    "scenario_file",
    "list_",
    "board",
    "spread",
)
#: Options of --tosses that the scenario comparison does not take.
_TOSS_ONLY = ("engine", "material", "length_scale", "trajectory")


def run_fidelity(*args: Any, **kwargs: Any) -> FidelityReport:
    """:func:`warlords_sim.fidelity.run_fidelity`, imported when first called
    (so that ``fidelity --help`` loads no physics)."""
    from warlords_sim.fidelity import run_fidelity as run

    return run(*args, **kwargs)


def _engines(text: str) -> tuple[str, str]:
    names = tuple(n.strip() for n in text.split(","))
    if len(names) != 2 or any(n not in ENGINES for n in names):
        fail(
            f"--engines: expected two of {', '.join(ENGINES)} separated by a comma "
            f"(the second is the baseline), got {text!r}"
        )
    return names[0], names[1]


def _plot_targets(plot: str, names: list[str], force: bool) -> list[Path]:
    """The PNGs ``--plot DIR`` will write, checked before any trial runs:
    DIR is a folder that exists or can be created and is writable, no
    target is a folder, and none exists unless ``force``. Creates DIR."""
    from warlords_sim.fidelity.plot import plot_paths

    if not plot.strip():
        fail("--plot: expected a folder to write the PNGs to, got ''")
    folder = Path(plot)
    if folder.exists() and not folder.is_dir():
        fail(f"--plot: {plot} is not a folder")
    if not folder.exists() and not folder.parent.exists():
        fail(f"--plot {plot}: no such directory {str(folder.parent)!r}")
    try:
        folder.mkdir(exist_ok=True)
    except OSError as e:
        fail(f"--plot: cannot create the folder {plot}: {e.strerror or e}")
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        fail(f"--plot: cannot write into the folder {plot}: {e.strerror or e}")
    paths = plot_paths(names, folder)
    for p in paths:
        if p.is_dir():
            fail(f"--plot: {p} is a folder; it is where the PNG of scenario {p.stem!r} goes")
    taken = [str(p) for p in paths if p.exists()]
    if taken and not force:
        more = f" (and {len(taken) - 1} more)" if len(taken) > 1 else ""
        fail(exists_message("--plot", taken[0] + more))
    return paths


#: Most trials per scenario and engine (as ``flick --trials``).
MAX_TRIALS = 1_000_000


@click.command("fidelity", help=_HELP)
@click.option(
    "--scenarios",
    "names",
    metavar="NAMES",
    default="all",
    show_default=True,
    help="Comma-separated scenario names (see --list), or all.",
)
@click.option(
    "--trials",
    default=20,
    show_default=True,
    type=click.IntRange(1, MAX_TRIALS),
    help=f"Noisy trials per scenario and engine (1..{MAX_TRIALS}).",
)
@click.option(
    "--seed", default=0, show_default=True, type=click.IntRange(min=0), help="Seed of trial 0."
)
@click.option(
    "--engines",
    default="2.5d,reference",
    show_default=True,
    metavar="A,BASELINE",
    help="The engine judged and the baseline.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Every figure as one JSON object (with --tosses: one a toss, a line each).",
)
@click.option("--plot", metavar="DIR", help="Write one PNG per scenario (DIR/NAME.png).")
@click.option("--force", is_flag=True, help="With --plot: overwrite existing PNGs.")
@click.option(
    "--scenario-file",
    metavar="PATH",
    default=str(DEFAULT_SCENARIOS),
    show_default="the shipped scenarios.toml",
    help="Scenario file (TOML).",
)
@click.option(
    "--spread/--no-spread",
    default=None,
    help="Measure the reference baseline's spread over its unmeasured parameters "
    "[default: when the baseline is the reference].",
)
@click.option("--list", "list_", is_flag=True, help="List the scenarios and exit.")
@board_option
@click.option(
    "--tosses",
    metavar="FILE.npz",
    help="Judge one engine (--engine) on measured cube tosses instead.",
)
@click.option(
    "--engine",
    type=click.Choice(ENGINES),
    default="reference",
    show_default=True,
    help="With --tosses: the engine.",
)
@click.option(
    "--material",
    default="contactnets-acrylic",
    show_default=True,
    help="With --tosses: the named cube and table contact (fidelity/materials.toml).",
)
@click.option(
    "--length-scale",
    type=FiniteFloatRange(0.5, 2.0),
    default=1.021,
    show_default=True,
    help="With --tosses: multiply the file's lengths by this.",
)
@click.option(
    "--trajectory/--no-trajectory",
    default=True,
    show_default=True,
    help="With --tosses --json: include the simulated trajectory.",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress bar on stderr, terminal or not [default: on a terminal].",
)
def fidelity(
    names: str,
    trials: int,
    seed: int,
    engines: str,
    as_json: bool,
    plot: str | None,
    force: bool,
    scenario_file: str,
    list_: bool,
    board: Board,
    tosses: str | None,
    engine: str,
    material: str,
    length_scale: float,
    trajectory: bool,
    progress: bool | None,
    spread: bool | None,
) -> None:
    ctx = click.get_current_context()

    def given(names: tuple[str, ...]) -> list[str]:
        """The options among ``names`` (parameter names) given on the command line."""
        return [
            p.opts[0]
            for p in ctx.command.params
            if p.name in names
            and ctx.get_parameter_source(p.name) is not click.core.ParameterSource.DEFAULT
        ]

    if tosses is not None:
        clash = given(_SCENARIO_ONLY)
        if clash:
            fail(f"--tosses: {', '.join(clash)} belong to the scenario comparison, not --tosses")
        from warlords_sim.cli.fidelity_tosses import run_tosses

        run_tosses(tosses, engine, material, length_scale, as_json, trajectory, progress)
        return
    clash = given(_TOSS_ONLY)
    if clash:
        fail(f"{', '.join(clash)}: only with --tosses FILE.npz")
    from warlords_sim.fidelity import ScenarioError, load_scenarios, select
    from warlords_sim.fidelity.scenarios import check_strikes
    from warlords_sim.fidelity.uncertainty import VARIANTS

    try:
        scenarios = select(load_scenarios(scenario_file, board), names)
        check_strikes(scenario_file, scenarios, board)
    except ScenarioError as e:
        fail(e)
    if list_:
        if as_json:
            rows = [{"name": s.name, "description": s.description} for s in scenarios]
            click.echo(json.dumps(rows))
            return
        for s in scenarios:
            echo(f"{s.name:24s} {s.description}")
        return
    engs = _engines(engines)
    if "reference" in engs:
        require_extra("reference", f"fidelity --engines {','.join(engs)}")
    if plot is not None:
        require_extra("render", "fidelity --plot")
    if spread and engs[1] != "reference":
        fail(f"--spread: the baseline is {engs[1]}; the spread is the reference baseline's")
    variants = VARIANTS if engs[1] == "reference" and spread is not False else ()
    paths = _plot_targets(plot, [s.name for s in scenarios], force) if plot is not None else []
    show = sys.stderr.isatty() if progress is None else progress
    try:
        if show:
            from rich.console import Console
            from rich.progress import Progress

            # shown on a terminal, or anywhere with --progress
            with Progress(console=Console(stderr=True, force_terminal=True), transient=True) as bar:
                runs = 2 + len(variants)
                task = bar.add_task("fidelity", total=len(scenarios) * runs * trials)
                report = run_fidelity(
                    board,
                    scenarios,
                    trials,
                    seed,
                    engs,
                    variants=variants,
                    on_trial=lambda: bar.advance(task),
                )
        else:
            report = run_fidelity(board, scenarios, trials, seed, engs, variants=variants)
    except WarlordsError as e:
        fail(e)
    except ImportError as e:
        fail(f"engine 'reference' is not available: {e}")
    if as_json:
        click.echo(json.dumps(report.as_json(), allow_nan=False))
    else:
        from rich.console import Console

        from warlords_sim.fidelity.table import rich_table

        Console(width=max(Console().width, 140)).print(rich_table(report))
    if plot is not None:
        from warlords_sim.fidelity.plot import scenario_plot

        for sr, path in zip(report.scenarios, paths, strict=True):
            with saving(path, "--plot", force) as tmp:
                scenario_plot(board, sr, report.engines, tmp)
        if not as_json:
            echo(f"wrote {len(paths)} PNG{'' if len(paths) == 1 else 's'} to {plot}")
