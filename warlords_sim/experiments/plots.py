"""Plots of an experiment (matplotlib Agg canvas, no pyplot, no window).

``damage.png``: the distribution of the damage dealt in a game per cell
(variant, and skill if there are several: box plot with every game as a dot,
the mean and its 95% CI), and the mean damage per player.
``eliminations.png``: dice eliminated off the board and over the side walls
per round, per cell, with 95% CIs. ``skills.png`` (more than one skill and
more than one variant): each variant's effect, its difference from the first
variant at the same skill with the difference's 95% CI, on damage per game
and on dice eliminated per round, against skill.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from warlords_sim.experiments.report import DAMAGE_PNG, ELIMINATIONS_PNG, SKILLS_PNG
from warlords_sim.experiments.worker import Row

__all__ = [
    "DAMAGE_PNG",
    "ELIMINATIONS_PNG",
    "SKILLS_PNG",
    "damage_figure",
    "eliminations_figure",
    "save_plots",
    "skills_figure",
]

_COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3")


def _err(metric: dict[str, Any]) -> tuple[float, float]:
    v = metric["value"] or 0.0
    lo, hi = metric["ci"]
    return (v - lo if lo is not None else 0.0, hi - v if hi is not None else 0.0)


def _skills(summary: dict[str, Any]) -> list[str]:
    return [str(k) for k in dict.fromkeys(c.get("skill") for c in summary["variants"])]


def _label(cell: dict[str, Any], many: bool) -> str:
    """A cell's name on an axis: the variant, and its skill below it if several."""
    return f"{cell['name']}\n{cell.get('skill')}" if many else str(cell["name"])


def _title(summary: dict[str, Any]) -> str:
    s = summary["settings"]
    skills = [str(k) for k in s.get("skills") or []]
    counts = {c["games"] for c in summary["variants"]}
    games = (
        f"{counts.pop()} games per {'cell' if len(skills) > 1 else 'variant'}"
        if len(counts) == 1
        else "games: " + ", ".join(f"{_label(c, False)} {c['games']}" for c in summary["variants"])
    )
    board = s.get("board", "standard")
    return (
        f"{s['players']} players, bots {','.join(s['bots'])} "
        f"({'skill' if len(skills) == 1 else 'skills'} {', '.join(skills)})"
        + (f", board {board}" if board != "standard" else "")
        + f"; {games}"
    )


def damage_figure(summary: dict[str, Any], rows: Sequence[Row]) -> Figure:
    """Damage per game per cell, and mean damage per player, with 95% CIs."""
    variants = summary["variants"]
    many = len(_skills(summary)) > 1
    names = [_label(v, many) for v in variants]
    fig = Figure(figsize=(11.0 + (1.5 if many else 0.0), 4.8), layout="constrained")
    FigureCanvasAgg(fig)
    ax, ax2 = fig.subplots(1, 2, width_ratios=(3, 2))
    data = [
        [
            float(r["damage"])
            for r in rows
            if r["variant"] == v["name"] and (not many or r["skill"] == v.get("skill"))
        ]
        for v in variants
    ]
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
            label=names[i].replace("\n", " "),
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
    walls) per cell, with 95% CIs."""
    variants = summary["variants"]
    many = len(_skills(summary)) > 1
    names = [_label(v, many) for v in variants]
    fig = Figure(figsize=(7.5 + (0.6 * len(names) if many else 0.0), 4.6), layout="constrained")
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
    ref = variants[0]["name"] if variants else "-"
    ax.set_title(
        f"Dice eliminated per round, 95% CI (* differs from {ref}"
        + (" at the same skill" if many else "")
        + " at p < 0.05)",
        fontsize=10,
    )
    ax.legend(fontsize=8)
    fig.suptitle(_title(summary), fontsize=9)
    return fig


#: The effects skills.png shows: (metric, panel title, y label).
_EFFECTS = (
    ("mean_damage", "Damage per game", "difference in damage per game"),
    (
        "offboard_per_round",
        "Dice eliminated per round",
        "difference in dice eliminated per round",
    ),
)


def skills_figure(summary: dict[str, Any]) -> Figure:
    """Each variant's effect against skill: its difference from the first
    variant at the same skill (``diff``) with the difference's 95% CI
    (``diff_ci``, Welch) as error bars, on damage per game and on dice
    eliminated per round; the x axis is the skills in the order given,
    labelled by name; a difference with p < 0.05 (Welch) is marked *."""
    cells = summary["variants"]
    skills = _skills(summary)
    names = list(dict.fromkeys(c["name"] for c in cells))
    by = {(c["name"], str(c.get("skill"))): c for c in cells}
    others = names[1:]
    fig = Figure(figsize=(11.0, 4.6), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, 2)
    x = np.arange(len(skills))
    step = 0.5 / max(len(others), 1)
    for ax, (key, title, ylabel) in zip(axes, _EFFECTS, strict=True):
        ax.axhline(0.0, color="black", linewidth=0.8)
        for j, name in enumerate(others):
            xs, ys, lo, hi, stars = [], [], [], [], []
            for i, k in enumerate(skills):
                m = by.get((name, k), {}).get(key) or {}
                d = m.get("diff")
                ci = m.get("diff_ci") or [None, None]
                if d is None or ci[0] is None or ci[1] is None:
                    continue
                xs.append(i + (j - (len(others) - 1) / 2) * step)
                ys.append(d)
                lo.append(d - ci[0])
                hi.append(ci[1] - d)
                p = m.get("p")
                stars.append(p is not None and p < 0.05)
            colour = _COLOURS[(j + 1) % len(_COLOURS)]
            ax.errorbar(
                xs, ys, yerr=[lo, hi], fmt="o-", capsize=5, ms=7, color=colour,
                label=f"{name} − {names[0]}",
            )  # fmt: skip
            for xi, yi, up, star in zip(xs, ys, hi, stars, strict=True):
                if star:
                    ax.annotate("*", (xi, yi + up), ha="center", va="bottom", fontsize=14)
        ax.set_xticks(x, skills)
        ax.set_xlim(-0.5, len(skills) - 0.5)
        ax.set_xlabel("skill")
        ax.set_ylabel(ylabel)
        ax.set_title(
            f"{title}\n(difference from {names[0]} at the same skill, 95% CI)", fontsize=10
        )
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=9)
    fig.suptitle(_title(summary) + "   (* p < 0.05, Welch)", fontsize=10)
    return fig


def save_plots(summary: dict[str, Any], rows: Sequence[Row], directory: Path) -> list[Path]:
    """Write ``damage.png``, ``eliminations.png`` and, with more than one
    skill and more than one variant, ``skills.png`` into ``directory``."""
    figures = [
        (DAMAGE_PNG, damage_figure(summary, rows)),
        (ELIMINATIONS_PNG, eliminations_figure(summary)),
    ]
    if len(_skills(summary)) > 1 and len({c["name"] for c in summary["variants"]}) > 1:
        figures.append((SKILLS_PNG, skills_figure(summary)))
    out = []
    for name, fig in figures:
        path = directory / name
        fig.savefig(path, dpi=110)
        out.append(path)
    return out
