"""``warlords-sim fidelity --tosses FILE.npz``: an engine against measured
cube tosses (:mod:`warlords_sim.fidelity.tosses`).

Every toss's state in the air is estimated before anything is simulated,
so a bad file or a toss too short to fit ends the command at once with one
line naming the file and the key (exit 2); then each toss is simulated,
its JSON line printed as it is done (``--json``), or the table printed at
the end.
"""

from __future__ import annotations

import json
import sys
import time

import click

from warlords_sim.cli._common import fail
from warlords_sim.errors import WarlordsError
from warlords_sim.extras import require_extra

__all__ = ["run_tosses"]


def run_tosses(
    path: str,
    engine: str,
    material_name: str,
    length_scale: float,
    as_json: bool,
    trajectory: bool,
    progress: bool | None,
) -> None:
    """Run the tosses of ``path`` on ``engine`` (see the module docstring)."""
    if engine == "reference":
        require_extra("reference", "fidelity --tosses --engine reference")
    from warlords_sim.fidelity.materials import material
    from warlords_sim.fidelity.toss_engines import make_engine
    from warlords_sim.fidelity.toss_file import load_tosses
    from warlords_sim.fidelity.tosses import check_tosses, outcome_json, run_toss, summarize

    try:
        tosses = load_tosses(path)
        prepared = check_tosses(tosses, length_scale)
        mat = material(material_name)
    except WarlordsError as e:
        fail(e)
    try:
        eng = make_engine(engine, tosses.side_m * 1e3, mat)
    except ValueError as e:  # CalibrationError is one
        fail(f"--material {material_name}: {e}")
    show = sys.stderr.isatty() if progress is None else progress
    outcomes = []
    cpu0 = time.process_time()

    def one(p: object) -> None:
        o = run_toss(p, eng, tosses.side_m)  # type: ignore[arg-type]
        outcomes.append(o)
        if as_json:
            click.echo(json.dumps(outcome_json(o, engine, trajectory), allow_nan=False))

    if show:
        from rich.console import Console
        from rich.progress import Progress

        with Progress(console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task(f"tosses on {engine}", total=len(prepared))
            for p in prepared:
                one(p)
                bar.advance(task)
    else:
        for p in prepared:
            one(p)
    cpu = time.process_time() - cpu0
    if as_json:
        return
    from rich.console import Console

    from warlords_sim.fidelity.toss_table import rich_table

    s = summarize(outcomes)
    title = (
        f"{len(prepared)} tosses of {path} on {engine}, material {material_name}, "
        f"lengths x {length_scale:g}; {cpu:.1f} s CPU"
    )
    Console(width=max(Console().width, 140)).print(rich_table([(engine, s)], title))
    if s.judged == 0:
        click.echo("no toss's record reaches rest: nothing to judge (see --json for predictions)")
