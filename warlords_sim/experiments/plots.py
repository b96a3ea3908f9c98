"""Plots of an experiment (matplotlib Agg canvas, no pyplot, no window).

``damage.png``: the distribution of the damage dealt in a game per variant
(box plot with every game as a dot, the mean and its 95% CI), and the mean
damage per player. ``eliminations.png``: dice eliminated off the board and
over the side walls per round, per variant, with 95% CIs.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from warlords_sim.experiments.report import DAMAGE_PNG, ELIMINATIONS_PNG
from warlords_sim.experiments.worker import Row

__all__ = ["DAMAGE_PNG", "ELIMINATIONS_PNG", "damage_figure", "eliminations_figure", "save_plots"]

_COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3")


def _err(metric: dict[str, Any]) -> tuple[float, float]:
    v = metric["value"] or 0.0
    lo, hi = metric["ci"]
    return (v - lo if lo is not None else 0.0, hi - v if hi is not None else 0.0)


def _title(summary: dict[str, Any]) -> str:
    s = summary["settings"]
    games = ", ".join(f"{v['name']} {v['games']}" for v in summary["variants"])
    return (
        f"{s['players']} players, bots {','.join(s['bots'])} (skill {s['skill']}); games: {games}"
    )


def damage_figure(summary: dict[str, Any], rows: Sequence[Row]) -> Figure:
    """Damage per game per variant, and mean damage per player, with 95% CIs."""
    variants = summary["variants"]
    names = [v["name"] for v in variants]
    fig = Figure(figsize=(11.0, 4.8), layout="constrained")
    FigureCanvasAgg(fig)
    ax, ax2 = fig.subplots(1, 2, width_ratios=(3, 2))
    data = [[float(r["damage"]) for r in rows if r["variant"] == n] for n in names]
    pos = np.arange(len(names))
    ax.boxplot(
        [d if d else [np.nan] for d in data],
        positions=pos,
        widths=0.5,
        showfliers=False,
        medianprops={"color": "black"},
    )
    rng = np.random.default_rng(0)  # jitter of the dots only
    for i, d in enumerate(data):
        x = i + rng.uniform(-0.18, 0.18, len(d))
        ax.scatter(x, d, s=9, alpha=0.5, color=_COLOURS[i % len(_COLOURS)], linewidths=0)
        m = variants[i]["mean_damage"]
        if m["value"] is not None:
            lo, hi = _err(m)
            ax.errorbar(
                i + 0.32, m["value"], yerr=[[lo], [hi]], fmt="D", color="black", capsize=4, ms=5
            )
    ax.set_xticks(pos, names)
    ax.set_ylabel("damage dealt in a game (sum over players)")
    ax.set_title("Damage per game (box: quartiles; ◆: mean, 95% CI)", fontsize=10)
    players = int(summary["settings"]["players"])
    width = 0.8 / max(len(names), 1)
    for i, v in enumerate(variants):
        ms = v["damage_by_seat"]
        vals = [m["value"] or 0.0 for m in ms]
        errs = np.array([_err(m) for m in ms]).T
        ax2.bar(
            np.arange(players) + (i - (len(names) - 1) / 2) * width,
            vals,
            width,
            yerr=errs,
            capsize=3,
            label=v["name"],
            color=_COLOURS[i % len(_COLOURS)],
        )
    ax2.set_xticks(np.arange(players), [f"P{p}" for p in range(players)])
    ax2.set_ylabel("mean damage against the player's castle")
    ax2.set_title("Damage per player (P0 starts round 1), 95% CI", fontsize=10)
    ax2.legend(fontsize=8)
    fig.suptitle(_title(summary), fontsize=10)
    return fig


def eliminations_figure(summary: dict[str, Any]) -> Figure:
    """Dice eliminated per round (off the board, and of those over the side
    walls) per variant, with 95% CIs."""
    variants = summary["variants"]
    names = [v["name"] for v in variants]
    fig = Figure(figsize=(7.5, 4.6), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    pos = np.arange(len(names))
    for j, (key, label, hatch) in enumerate(
        (
            ("offboard_per_round", "eliminated (off the board or over a wall)", ""),
            (
                "wall_exits_per_round",
                "left over the side walls (removed, or returned if unlanded)",
                "//",
            ),
        )
    ):
        vals = [v[key]["value"] or 0.0 for v in variants]
        errs = np.array([_err(v[key]) for v in variants]).T
        ax.bar(
            pos + (j - 0.5) * 0.38,
            vals,
            0.38,
            yerr=errs,
            capsize=4,
            label=label,
            color=[_COLOURS[i % len(_COLOURS)] for i in range(len(names))],
            hatch=hatch,
            edgecolor="black",
            alpha=1.0 if j == 0 else 0.55,
        )
        for x, v, m, up in zip(pos, vals, variants, errs[1], strict=True):
            p = m[key].get("p")
            if p is not None and p < 0.05:
                ax.annotate(
                    "*", (x + (j - 0.5) * 0.38, v + up), ha="center", va="bottom", fontsize=14
                )
    ax.set_xticks(pos, names)
    ax.set_ylabel("dice per round")
    ax.set_title(
        "Dice eliminated per round, 95% CI (* differs from "
        f"{names[0] if names else '-'} at p < 0.05)",
        fontsize=10,
    )
    ax.legend(fontsize=8)
    fig.suptitle(_title(summary), fontsize=9)
    return fig


def save_plots(summary: dict[str, Any], rows: Sequence[Row], directory: Path) -> list[Path]:
    """Write ``damage.png`` and ``eliminations.png`` into ``directory``."""
    out = []
    for name, fig in (
        (DAMAGE_PNG, damage_figure(summary, rows)),
        (ELIMINATIONS_PNG, eliminations_figure(summary)),
    ):
        path = directory / name
        fig.savefig(path, dpi=110)
        out.append(path)
    return out
