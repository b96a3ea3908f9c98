"""``warlords-sim flick``: flick one die on the board, once or in noisy trials.

A stable contract (tests and users rely on it): see ``warlords-sim flick
--help``. Units mm, mm/s, rad/s; frame origin at the board centre, x right,
y up. The trials themselves are in :mod:`warlords_sim.cli.flick_trials`,
imported when the command runs so that ``flick --help`` loads no physics;
``TrialResult``, ``run_trials`` and ``setup_world`` are still importable
from here.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from warlords_sim.cli._common import board_option, echo, fail
from warlords_sim.cli._names import ENGINES, LAUNCH_KINDS, MAX_FLICK_SPEED
from warlords_sim.cli._names import MAX_FLICK_SPIN as HELP_MAX_FLICK_SPIN
from warlords_sim.cli._outputs import check_output, recording, same_file, saving
from warlords_sim.errors import WarlordsError
from warlords_sim.extras import require_extra

if TYPE_CHECKING:
    from warlords_sim.board import Board
    from warlords_sim.cli.flick_trials import TrialResult, run_trials, setup_world
    from warlords_sim.physics import LaunchKind
    from warlords_sim.replay import Recorder

__all__ = ["TrialResult", "flick", "run_trials", "setup_world"]

#: Most trials one command runs.
MAX_TRIALS = 1_000_000


def __getattr__(name: str) -> Any:
    """``TrialResult``, ``run_trials`` and ``setup_world``, loaded on first use."""
    if name in ("TrialResult", "run_trials", "setup_world"):
        from warlords_sim.cli import flick_trials

        return getattr(flick_trials, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _pair(text: str, what: str) -> tuple[float, float]:
    parts = text.split(",")
    if len(parts) != 2:
        fail(f"{what} must be two numbers 'A,B', got {text!r}")
    try:
        a, b = float(parts[0]), float(parts[1])
    except ValueError:
        fail(f"{what} must be two numbers 'A,B', got {text!r}")
    if not (math.isfinite(a) and math.isfinite(b)):
        fail(f"{what} must be finite numbers, got {text!r}")
    return a, b


_HELP = f"""Flick one die on the board (all center-ring pins set up) and report
where it rests and which face is up.

\b
Frame: origin at the board centre, x right, y up, millimetres. Velocity in
mm/s, spin in rad/s counter-clockwise. Seats, in turn order: 0 bottom,
1 left, 2 top, 3 right. The maximum flick speed is {MAX_FLICK_SPEED:.0f} mm/s.

\b
Start with exactly one of:
  --at X,Y          the die rests at (X, Y) (table), or is launched there
                    at a crenelation height (low/high), or from the siege
                    engine placed as close to (X, Y) as it fits (siege)
  --from SEAT:AREA  the die starts on SEAT's front area 1-3 (left to right
                    as that seat sees it), at the crenelation --launch
                    low|high (default high)

\b
With --trials N --noise S, trial i (0, 1, ..., N-1) draws its hand noise
from seed SEED+i (--seed, default 0): the speed is multiplied by
(1 + normal(0, S)) and the direction turned by normal(0, S) rad. Without
--noise every trial is the same flick. An existing --plot or --record file
is never replaced without --force.
The maximum spin is {HELP_MAX_FLICK_SPIN:.0f} rad/s.

\b
Examples:
  warlords-sim flick --at 0,-120 --velocity 600,0
  warlords-sim flick --from 0:2 --velocity 0,900 --trials 3000 --noise 0.05
  warlords-sim flick --from 0:2 --velocity 0,900 --trials 500 --noise 0.05 --plot land.png
  warlords-sim flick --at 0,-120 --velocity 600,0 --record shot.jsonl
  warlords-sim flick --from 0:2 --velocity 0,900 --engine reference
  warlords-sim flick --at 0,-150 --velocity 0,300 --strike 8     (rolls forward)

\b
--engine reference runs the 3D rigid-body reference (MuJoCo; the
'reference' extra) instead of the 2.5D model: the same options, seeds,
noisy inputs and JSON fields; about 0.03 s of CPU a flick with the ring
pins only, 0.4 s with 24 dice about (benchmarks/launch_report.py,
benchmarks/flick.py).
"""


@click.command("flick", help=_HELP)
@click.option("--at", "at", metavar="X,Y", help="Start point, mm.")
@click.option("--from", "from_", metavar="SEAT:AREA", help="Start at a seat's front area.")
@click.option("--velocity", required=True, metavar="VX,VY", help="Flick velocity, mm/s.")
@click.option("--spin", default=0.0, show_default=True, type=float, help="Yaw rate, rad/s (ccw).")
@click.option(
    "--strike",
    default=0.0,
    show_default=True,
    type=float,
    help="Where the finger strikes, mm above the die's centre, within half its height "
    "(-8..8 for a 16 mm die; a cuboid: half of die.sides_mm[2]): "
    "high it rolls forward as it goes, low it slides (or tips back).",
)
@click.option(
    "--launch",
    type=click.Choice(list(LAUNCH_KINDS)),
    default=None,
    help="Launch kind [default: table with --at, high with --from].",
)
@click.option("--face", default=1, show_default=True, type=int, help="Face up at launch, 1-6.")
@board_option
@click.option(
    "--seed", default=0, show_default=True, type=click.IntRange(min=0), help="Seed of trial 0."
)
@click.option(
    "--trials",
    default=1,
    show_default=True,
    type=click.IntRange(1, MAX_TRIALS),
    help="Number of trials.",
)
@click.option(
    "--noise",
    default=0.0,
    show_default=True,
    type=float,
    help="Hand noise S in [0, 1] (see above).",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object a line per trial.")
@click.option("--plot", metavar="OUT.png", help="Landing heatmap and face histogram (PNG).")
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress bar on stderr, terminal or not [default: on a terminal, for 20 trials or more].",
)
@click.option(
    "--engine",
    type=click.Choice(list(ENGINES)),
    default="2.5d",
    show_default=True,
    help="Physics engine: the 2.5D model or the 3D MuJoCo reference.",
)
@click.option("--record", metavar="PATH", help="Record the flick as a sandbox replay.")
@click.option("--force", is_flag=True, help="Overwrite an existing --plot or --record file.")
def flick(
    at: str | None,
    from_: str | None,
    velocity: str,
    spin: float,
    strike: float,
    launch: str | None,
    face: int,
    board: Board,
    seed: int,
    trials: int,
    noise: float,
    as_json: bool,
    plot: str | None,
    progress: bool | None,
    engine: str,
    record: str | None,
    force: bool,
) -> None:
    from warlords_sim.cli.flick_trials import record_flick, summary

    if plot is not None:
        require_extra("render", "flick --plot")
    if (at is None) == (from_ is None):
        fail("give exactly one of --at X,Y or --from SEAT:AREA")
    v = _flick_velocity(velocity, spin, face, noise)
    at_xy, seat_area, kind = _start(at, from_, launch)
    opts = _FlickOptions(
        board=board,
        at=at,
        from_=from_,
        velocity_text=velocity,
        velocity=v,
        at_xy=at_xy,
        seat_area=seat_area,
        launch=kind,
        spin=spin,
        strike=strike,
        face=face,
        seed=seed,
        trials=trials,
        noise=noise,
        as_json=as_json,
        plot=plot,
        progress=progress,
        engine=engine,
        record=record,
        force=force,
    )
    _check_outputs(opts)
    rec = _open_recorder(opts)
    with recording(rec):  # a failure before the flick removes the new file
        results = _run(opts)
        if rec is not None:
            record_flick(rec, board, at_xy, seat_area, kind, results[0], spin, face, strike)
    if not as_json:  # --json lines went out as the trials finished
        echo(summary(results, _label(opts)))
    if plot is not None:
        _write_plot(opts, plot, results)


@dataclass(frozen=True)
class _FlickOptions:
    """The options of one ``flick`` command, checked (units mm, mm/s, rad/s).

    Attributes:
        board: the board.
        at, from_, velocity_text: ``--at``, ``--from`` and ``--velocity`` as
            given (the summary quotes them).
        velocity: the flick velocity, mm/s.
        at_xy: the ``--at`` start point, mm, or None.
        seat_area: the ``--from`` (seat, front area), or None.
        launch: the launch kind (``--launch`` or its default for the start).
        spin, strike, face, seed, trials, noise, as_json, plot, progress,
        engine, record, force: the options of those names.
    """

    board: Board
    at: str | None
    from_: str | None
    velocity_text: str
    velocity: tuple[float, float]
    at_xy: tuple[float, float] | None
    seat_area: tuple[int, int] | None
    launch: LaunchKind
    spin: float
    strike: float
    face: int
    seed: int
    trials: int
    noise: float
    as_json: bool
    plot: str | None
    progress: bool | None
    engine: str
    record: str | None
    force: bool


def _flick_velocity(velocity: str, spin: float, face: int, noise: float) -> tuple[float, float]:
    """``--velocity`` as (vx, vy) mm/s, checked with ``--spin`` (rad/s),
    ``--face`` and ``--noise``: finite, in range, under the maxima.

    Raises:
        click.exceptions.Exit: (after the one-line error) the first value
            out of range, in the order velocity, spin, face, noise, spin's
            maximum, speed's.
    """
    from warlords_sim.rules.flick_setup import MAX_FLICK_SPIN, speed_problem

    v = _pair(velocity, "--velocity")
    if not math.isfinite(spin):
        fail(f"--spin must be a finite number, got {spin}")
    if face not in range(1, 7):
        fail(f"--face must be 1-6, got {face}")
    if not (math.isfinite(noise) and 0.0 <= noise <= 1.0):
        fail(f"--noise must be a number in [0, 1], got {noise}")
    if abs(spin) > MAX_FLICK_SPIN:
        fail(f"--spin {spin:.10g} rad/s is over the maximum of {MAX_FLICK_SPIN:.0f} rad/s")
    problem = speed_problem(math.hypot(*v))
    if problem is not None:
        fail(f"--velocity: {problem}")
    return v


def _start(
    at: str | None, from_: str | None, launch: str | None
) -> tuple[tuple[float, float] | None, tuple[int, int] | None, LaunchKind]:
    """The start of the flick, ``(at_xy, seat_area, launch kind)``: ``--at X,Y``
    (mm; launch default table) or ``--from SEAT:AREA`` (a crenelation, default
    high), exactly one of which is given.

    Raises:
        click.exceptions.Exit: (after the one-line error) a malformed start,
            an unknown seat or front area, or ``--from`` with a launch that
            is not a crenelation.
    """
    from warlords_sim.physics import LaunchKind

    if from_ is not None:
        seat_s, _, area_s = from_.partition(":")
        try:
            seat_area = (int(seat_s), int(area_s))
        except ValueError:
            fail(f"--from must be SEAT:AREA with integers, e.g. 0:2, got {from_!r}")
        if seat_area[0] not in range(4):
            fail(f"--from: unknown seat {seat_area[0]}; seats are 0 bottom, 1 left, 2 top, 3 right")
        if seat_area[1] not in (1, 2, 3):
            fail(f"--from: unknown front area {seat_area[1]}; areas are 1, 2, 3")
        kind = LaunchKind(launch or "high")
        if kind not in (LaunchKind.LOW, LaunchKind.HIGH):
            fail(f"--from starts at a crenelation: --launch must be low or high, not {kind.value}")
        return None, seat_area, kind
    assert at is not None  # exactly one of --at and --from, checked first
    return _pair(at, "--at"), None, LaunchKind(launch or "table")


def _check_outputs(opts: _FlickOptions) -> None:
    """``--plot`` and ``--record`` before anything runs: new files (or
    ``--force``), a PNG plot, two different files, and a record of one
    flick of the 2.5d engine.

    Raises:
        click.exceptions.Exit: (after the one-line error) the first problem.
    """
    plot, record = opts.plot, opts.record
    if plot is not None:
        check_output(plot, "--plot", opts.force, (".png",))
    if record is not None:
        check_output(record, "--record", opts.force)
    if record is not None and plot is not None and same_file(record, plot):
        fail(f"--record {record} and --plot {plot} name the same file: give two files")
    if record is not None and opts.trials != 1:
        fail(f"--record records one flick: drop --trials {opts.trials}")
    if record is not None and opts.engine != "2.5d":
        fail("--record records flicks of the 2.5d engine only (replays re-simulate on it)")


def _open_recorder(opts: _FlickOptions) -> Recorder | None:
    """The sandbox replay ``--record`` names, created before any flick, or
    None without ``--record``.

    Raises:
        click.exceptions.Exit: (after the one-line error) it cannot be created.
    """
    if opts.record is None:
        return None
    from warlords_sim.cli.flick_trials import open_sandbox_recorder
    from warlords_sim.replay import ReplayError

    try:
        return open_sandbox_recorder(opts.record, opts.board, opts.force)
    except ReplayError as e:
        fail(e)


def _run(opts: _FlickOptions) -> list[TrialResult]:
    """Run the trials (:func:`~warlords_sim.cli.flick_trials.run_trials`),
    printing each one's JSON line as it finishes with ``--json``, and a
    progress bar on stderr as ``--progress`` says (default: on a terminal,
    for 20 trials or more).

    Raises:
        click.exceptions.Exit: (after the one-line error) the flick cannot be
            set up (a bad ``--at`` named so) or an engine's extra is missing.
    """
    from warlords_sim.cli.flick_trials import run_trials
    from warlords_sim.rules.flick_setup import FlickSetupError

    progress = opts.progress
    try:
        return run_trials(
            opts.board,
            at=opts.at_xy,
            seat_area=opts.seat_area,
            velocity=opts.velocity,
            spin=opts.spin,
            strike=opts.strike,
            launch=opts.launch,
            face=opts.face,
            seed=opts.seed,
            trials=opts.trials,
            noise=opts.noise,
            progress=(opts.trials >= 20 and sys.stderr.isatty()) if progress is None else progress,
            on_result=(lambda r: click.echo(json.dumps(r.as_json()))) if opts.as_json else None,
            engine=opts.engine,
        )
    except (WarlordsError, ImportError) as e:
        fail(f"--at {e}" if isinstance(e, FlickSetupError) and e.field == "at" else e)


def _label(opts: _FlickOptions) -> str:
    """The summary's first line: the command as given, the options away from
    their defaults only."""
    where = f"--from {opts.from_}" if opts.from_ else f"--at {opts.at}"
    extra = "".join(
        f" {name} {value}"
        for name, value, default in (
            ("--engine", opts.engine, "2.5d"),
            ("--spin", opts.spin, 0.0),
            ("--strike", opts.strike, 0.0),
            ("--face", opts.face, 1),
            ("--seed", opts.seed, 0),
            ("--trials", opts.trials, 1),
            ("--noise", opts.noise, 0.0),
        )
        if value != default
    )
    return f"flick {where} --velocity {opts.velocity_text} --launch {opts.launch.value}{extra}"


def _write_plot(opts: _FlickOptions, plot: str, results: list[TrialResult]) -> None:
    """``--plot``: the landing points and faces of ``results`` as a PNG at
    ``plot`` (written whole through a temporary file), and ``wrote PLOT``
    unless ``--json``.

    Raises:
        click.exceptions.Exit: (after the one-line error) it cannot be written.
    """
    from warlords_sim.plotting import landing_plot

    with saving(plot, "--plot", opts.force) as tmp:
        landing_plot(
            opts.board,
            [(r.x_mm, r.y_mm) for r in results],
            [r.face for r in results],
            tmp,
        )
    if not opts.as_json:
        echo(f"wrote {plot}")
