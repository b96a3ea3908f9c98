"""Running a whole experiment: resume, play the missing games, summarize, plot.

:func:`run_experiment` is what ``warlords-sim variants`` does::

    exp = Experiment(variants_from_options("standard,wall2", None), players=2, games=200,
                     bots=("aim", "aim"), skills=(SkillLevel.NOVICE, SkillLevel.EXPERT))
    result = run_experiment(exp, "out/", workers=2)
    result.summary["variants"][1]["offboard_per_round"]  # value, ci, diff, diff_ci, p

``summary["variants"]`` holds one entry per cell (variant, skill), skill by
skill in the order given, each variant's tests against the first variant at
the same skill.

The summary is always computed from the rows as stored in ``games.csv`` (read
back), so a run stopped with Ctrl-C and resumed gives exactly the summary of
an uninterrupted one. A run holds the folder's lock from before it reads the
folder until its plots are written (:func:`~.store.lock_folder`): a second
run into the same folder meanwhile fails at once.

The games' specs are made one at a time as workers become free
(:meth:`~.specs.Experiment.iter_specs`), never all at once.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from warlords_sim.experiments.report import write_summary
from warlords_sim.experiments.runner import DASK_TIMEOUT, connect_dask, run_games
from warlords_sim.experiments.specs import Experiment, ExperimentError
from warlords_sim.experiments.store import GameStore, lock_folder, read_rows
from warlords_sim.experiments.worker import Row

__all__ = ["ExperimentResult", "build_summary", "run_experiment"]


@dataclass
class ExperimentResult:
    """What a run produced.

    Attributes:
        summary: the summary (as in ``summary.json``).
        rows: every game of the experiment's variants, as stored.
        played: games played by this run (the others were resumed).
        interrupted: stopped by Ctrl-C before every game was played.
        files: files written (games.csv, summary.json, plots).
        uncounted: games of the experiment's variants in games.csv whose
            skill label is none of this run's: labelled by an older
            warlords-sim (``-0``, or a number cut to 6 significant digits,
            at the same skills: labels and seeds are now exact), kept in
            the file but not counted.
    """

    summary: dict[str, Any]
    rows: list[Row]
    played: int
    interrupted: bool
    files: list[Path] = field(default_factory=list)
    uncounted: int = 0


def build_summary(exp: Experiment, rows: list[Row], complete: bool) -> dict[str, Any]:
    """The JSON-ready summary of ``rows`` for ``exp``."""
    from warlords_sim.experiments.stats import CONFIDENCE, summarize  # scipy: not in workers

    cells = summarize(rows, exp.names, exp.players, exp.games, exp.skill_labels)
    by_name = {v.name: v for v in exp.variants}
    for entry in cells:
        v = by_name[entry["name"]]
        entry["source"] = v.source
        entry["wall_variant"] = v.rules.wall_variant
    return {
        "format": "warlords-variants-summary",
        "version": 2,
        "settings": {
            "players": exp.players,
            "games": exp.games,
            "bots": list(exp.bots),
            "skills": exp.skill_labels,
            "seed": exp.seed,
            "board": exp.board.name,
            "board_file": exp.board.file,
            "board_sha256": exp.board.sha256,
        },
        "confidence": CONFIDENCE,
        "reference": exp.names[0],
        "complete": complete,
        "variants": cells,
    }


def _progress(console: Console | None, total: int, done: int) -> Any:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console or Console(stderr=True),
        transient=False,
    )
    task = bar.add_task("games", total=total, completed=done, rate="")
    return bar, task


def run_experiment(
    exp: Experiment,
    out: str | Path | None = None,
    *,
    workers: int | None = None,
    dask: str | None = None,
    client: Any = None,
    dask_timeout: float = DASK_TIMEOUT,
    progress: bool = False,
    console: Console | None = None,
    plots: bool = True,
) -> ExperimentResult:
    """Play the experiment's missing games, then summarize (and, with ``out``,
    write ``summary.json`` and the plots). Ctrl-C stops it cleanly: the
    finished games are kept and the result says ``interrupted`` (no plots);
    ``summary.json`` is still written, from the games kept. (The command line
    turns SIGTERM into the same KeyboardInterrupt.)

    Args:
        exp: the experiment.
        out: the directory of games.csv, experiment.json, summary.json and the
            plots; running again with it resumes. None: games kept in memory.
        workers, dask, client: where games run (:func:`.runner.run_games`).
        dask_timeout: seconds a scheduler address gets to connect and answer.
        progress: show a progress bar with an ETA on ``console`` (default stderr).
        plots: write the PNG plots (with ``out``).

    Raises:
        ExperimentError: ``out`` holds games of other settings, or another
            run is using it; bad workers or dask address; games.csv,
            summary.json or a plot cannot be written (a full disk: the games
            finished are kept, and the same call again resumes).
        GameFailedError: a game raised (a bug).
        OSError: ``out`` cannot be created or written (its settings).
    """
    cluster = None
    own = dask is not None and client is None
    if dask is not None and client is None:  # connect first: a bad address fails at once
        client, cluster = connect_dask(dask, workers, dask_timeout)
    try:
        return _run(exp, out, workers, client, progress, console, plots)
    finally:
        if own:
            client.close()
            if cluster is not None:
                cluster.close()


def _run(
    exp: Experiment,
    out: str | Path | None,
    workers: int | None,
    client: Any,
    progress: bool,
    console: Console | None,
    plots: bool,
) -> ExperimentResult:
    with lock_folder(out) if out is not None else contextlib.nullcontext():
        return _run_locked(exp, out, workers, client, progress, console, plots)


def _run_locked(
    exp: Experiment,
    out: str | Path | None,
    workers: int | None,
    client: Any,
    progress: bool,
    console: Console | None,
    plots: bool,
) -> ExperimentResult:
    store = GameStore(out)
    files: list[Path] = []
    with store:
        done_rows = store.open(exp.settings())
        done = {(r["variant"], r["skill"], r["index"]) for r in done_rows}
        missing = exp.missing(done)
        specs = exp.iter_specs(done)
        total = exp.games * len(exp.variants) * len(exp.skills)
        played = 0
        interrupted = False
        bar, task = _progress(console, total, total - missing) if progress else (None, None)
        start = time.perf_counter()

        def on_row(row: Row) -> None:
            nonlocal played
            store.append(row)
            played += 1
            if bar is not None:
                rate = played / max(time.perf_counter() - start, 1e-9) * 60.0
                bar.update(task, advance=1, rate=f"{rate:.0f} games/min")

        try:
            if bar is not None:
                bar.start()
            run_games(specs, on_row, workers=workers, client=client)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            if bar is not None:
                bar.stop()
    csv_path = store.csv_path
    if csv_path is not None:  # the summary comes from the file, as a resumed run's does
        files.append(csv_path)
    names = set(exp.names)
    labels = set(exp.skill_labels)
    stored = read_rows(csv_path) if csv_path is not None else store.rows
    rows = [
        r
        for r in stored
        if r["variant"] in names and r["skill"] in labels and r["index"] < exp.games
    ]
    uncounted = sum(1 for r in stored if r["variant"] in names and r["skill"] not in labels)
    summary = build_summary(exp, rows, complete=not interrupted)
    if store.directory is not None:
        try:
            files.append(write_summary(summary, store.directory))
            if plots and not interrupted:
                from warlords_sim.experiments.plots import save_plots  # matplotlib: not in workers

                files += save_plots(summary, rows, store.directory)
        except OSError as e:
            raise ExperimentError(
                f"{e.filename or store.directory}: cannot write it: {e.strerror or e}; the "
                f"{len(rows)} games are kept in {csv_path}: free some space and run the same "
                "command again to write the summary and plots"
            ) from e
    return ExperimentResult(summary, rows, played, interrupted, files, uncounted)
