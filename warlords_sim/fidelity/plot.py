"""Pictures of the fidelity suite: for one scenario, both engines' landing
clouds on the board (zoomed to where the dice went) and their faces.

matplotlib through the Agg canvas (no pyplot, no window); the board is drawn
by :func:`warlords_sim.plotting.draw_board`, to scale in mm, board frame.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from warlords_sim.board import Board
from warlords_sim.fidelity.suite import FidelityReport, ScenarioReport
from warlords_sim.physics.types import DiePose, Region, RegionKind
from warlords_sim.plotting import draw_board

__all__ = ["ENGINE_COLOURS", "plot_paths", "plot_title", "scenario_plot"]

#: Colours of the first engine and of the baseline.
ENGINE_COLOURS = ("#1f5fbf", "#d9480f")


def plot_paths(report_or_names: FidelityReport | list[str], folder: str | Path) -> list[Path]:
    """The PNG each scenario is written to: ``FOLDER/NAME.png``."""
    names = (
        [s.scenario.name for s in report_or_names.scenarios]
        if isinstance(report_or_names, FidelityReport)
        else report_or_names
    )
    return [Path(folder) / f"{n}.png" for n in names]


def plot_title(sr: ScenarioReport, labels: tuple[str, str]) -> str:
    """The picture's title: the scenario, the engines, the verdict and how
    many criteria agree ("disagree: 3 of 8 criteria agree"; it said
    "disagree (3/8 criteria)", which reads as 3 disagreeing), then the
    scenario's description on a second line."""
    verdict = "agree" if sr.passed else "disagree"
    n_pass = sum(c.passed for c in sr.checks)
    return (
        f"{sr.scenario.name}: {labels[0]} vs {labels[1]}: {verdict}: "
        f"{n_pass} of {len(sr.checks)} criteria agree\n{sr.scenario.description}"
    )


def scenario_plot(board: Board, sr: ScenarioReport, engines: tuple[str, str], path: Path) -> Path:
    """Write one scenario's picture to ``path`` (PNG; overwritten: the
    caller decides whether it may be).

    Left: the board around the launch point and both engines' resting
    points (dice that left the board at the point where they left), the
    launch point as a star and the aim as an arrow. Right: the faces 1-6 of
    the dice left on the board, per engine.

    Raises:
        OSError: the file cannot be written.
    """
    sc = sr.scenario
    start, _ = sc.launch_point(board)
    fig = Figure(figsize=(12.0, 6.0))
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.05, 0.08, 0.5, 0.8))
    ax_f = fig.add_axes((0.64, 0.12, 0.33, 0.72))
    resting = [
        (DiePose(d.die, d.x, d.y, d.angle, d.face, 0, Region(RegionKind.BOARD)), 2) for d in sc.dice
    ]
    draw_board(
        ax,
        board,
        castle_seats=sc.castle_seats,
        side_walls=sc.side_walls,
        pins=sc.pins,
        dice=resting,
        siege_engine=sc.siege_engine,
        labels=False,
    )
    pts = [np.array([[o.x, o.y] for o in out]).reshape(-1, 2) for out in sr.outcomes]
    labels = engines if engines[0] != engines[1] else (f"{engines[0]} (1)", f"{engines[1]} (2)")
    for xy, colour, label, marker in zip(pts, ENGINE_COLOURS, labels, ("o", "x"), strict=True):
        ax.scatter(
            xy[:, 0], xy[:, 1], s=18, c=colour, marker=marker, alpha=0.7, linewidths=1.0,
            label=f"{label} (n = {len(xy)})", zorder=30,
        )  # fmt: skip
    ax.scatter([start[0]], [start[1]], marker="*", s=160, c="black", zorder=31, label="launch")
    aim = sc.flick.aim
    ax.annotate(
        "",
        xy=(start[0] + 30.0 * aim[0], start[1] + 30.0 * aim[1]),
        xytext=start,
        arrowprops={"arrowstyle": "->", "color": "black", "lw": 1.5},
        zorder=31,
    )
    every = np.vstack([*pts, np.array([start])])
    lo, hi = every.min(axis=0) - 40.0, every.max(axis=0) + 40.0
    centre, half = (lo + hi) / 2.0, float(max(hi - lo)) / 2.0
    edge = board.half_size_mm + 20.0
    ax.set_xlim(max(centre[0] - half, -edge), min(centre[0] + half, edge))
    ax.set_ylim(max(centre[1] - half, -edge), min(centre[1] + half, edge))
    ax.legend(loc="upper right", fontsize=8, framealpha=0.9)
    ax.set_title(
        "where the flicked die came to rest (mm); resting dice drawn before the flick",
        fontsize=9,
    )

    width = 0.38
    for k, (st, colour, label) in enumerate(zip(sr.stats, ENGINE_COLOURS, labels, strict=True)):
        x = np.arange(1, 7) + (k - 0.5) * width
        ax_f.bar(x, st.faces, width=width, color=colour, alpha=0.8, label=label)
    ax_f.set_xticks(range(1, 7))
    ax_f.set_xlabel(f"face up (launched with {sc.flick.face} up)")
    ax_f.set_ylabel("dice on the board")
    ax_f.legend(fontsize=8)
    fig.suptitle(plot_title(sr, labels), fontsize=11)
    fig.savefig(path, format="png", dpi=100)
    return path
