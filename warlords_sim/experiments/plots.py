"""Plots of an experiment (matplotlib Agg canvas, no pyplot, no window).

``damage.png``: the distribution of the damage dealt in a game per cell
(variant, and skill if there are several: box plot with every game as a dot,
the mean and its 95% CI), and the mean damage per player.
``eliminations.png``: dice eliminated off the board and over the side walls
per round, per cell, with 95% CIs. ``skills.png`` (more than one skill and
more than one variant): each variant's effect, its difference from the first
variant at the same skill with the difference's 95% CI, on damage per game
and on dice eliminated per round, against skill.

Any number of cells or skills stays readable: when the x labels would not
fit side by side (:func:`_crowded`, an estimate from the labels' lengths)
they are turned upright and the figure grows with their number (a panel
pair stacked instead of side by side), and a long title is wrapped to the
figure's width, its list of skills shortened. A cell of one game has no 95%
interval: its value is drawn without an error bar (a hollow marker on
skills.png), and the figure says so in words rather than showing blank
panels or bars that look exact.
"""

from __future__ import annotations

import math
import os
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from warlords_sim._files import partial_file
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
#: Tick label size, points (upright labels when crowded: a little smaller).
_TICK_PT = 10.0
_CROWDED_TICK_PT = 8.0
#: Width of an average character of the default font (DejaVu Sans), in ems,
#: and the gap wanted between two labels, inches: for :func:`_crowded`.
_CHAR_EM = 0.62
_GAP_IN = 0.12
#: Inches per x position when labels stand upright (a label's height and a gap).
_UPRIGHT_STEP_IN = 0.24
#: Skills named in a title; more are shortened to the first ones and the last.
_TITLE_SKILLS = 6
#: The games a 95% interval needs in a cell (a t interval: 2).
_CI_GAMES = 2


def _err(metric: dict[str, Any]) -> tuple[float, float]:
    """The error bar of a metric: (down, up); nan where it has no interval
    (nothing is drawn, rather than a bar of zero length that looks exact)."""
    v = metric["value"] or 0.0
    lo, hi = metric["ci"]
    return (v - lo if lo is not None else math.nan, hi - v if hi is not None else math.nan)


def _skills(summary: dict[str, Any]) -> list[str]:
    return [str(k) for k in dict.fromkeys(c.get("skill") for c in summary["variants"])]


def _label(cell: dict[str, Any], many: bool, sep: str = "\n") -> str:
    """A cell's name on an axis: the variant, and its skill below it if several."""
    return f"{cell['name']}{sep}{cell.get('skill')}" if many else str(cell["name"])


def _crowded(labels: Sequence[str], axis_in: float, points: float = _TICK_PT) -> bool:
    """Whether ``labels``, side by side, would overlap on an axis
    ``axis_in`` inches long (estimated from their longest line)."""
    if not labels:
        return False
    widest = max(len(line) for text in labels for line in text.split("\n"))
    return len(labels) * (widest * _CHAR_EM * points / 72.0 + _GAP_IN) > axis_in


def _upright_width(n: int, margin_in: float) -> float:
    """Inches a figure needs for ``n`` upright labels on one axis."""
    return n * _UPRIGHT_STEP_IN + margin_in


def _set_xticks(ax: Any, pos: Any, labels: Sequence[str], crowded: bool) -> None:
    if crowded:
        ax.set_xticks(
            pos, [t.replace("\n", " ") for t in labels], rotation=90, fontsize=_CROWDED_TICK_PT
        )
    else:
        ax.set_xticks(pos, labels)


def _skills_text(skills: Sequence[str]) -> str:
    if len(skills) <= _TITLE_SKILLS:
        return ", ".join(skills)
    head = ", ".join(skills[: _TITLE_SKILLS - 1])
    return f"{head}, ..., {skills[-1]}: {len(skills)} skills"


def _title(summary: dict[str, Any], width_in: float = 11.0, points: float = 10.0) -> str:
    """The figure's title, wrapped to a figure ``width_in`` inches wide."""
    s = summary["settings"]
    skills = [str(k) for k in s.get("skills") or []]
    counts = {c["games"] for c in summary["variants"]}
    one = counts.pop() if len(counts) == 1 else None
    games = (
        f"{one} game{'' if one == 1 else 's'} per {'cell' if len(skills) > 1 else 'variant'}"
        if one is not None
        else "games per cell: "
        + ", ".join(f"{_label(c, len(skills) > 1, ' ')} {c['games']}" for c in summary["variants"])
    )
    board = s.get("board", "standard")
    text = (
        f"{s['players']} players, bots {','.join(s['bots'])} "
        f"({'skill' if len(skills) == 1 else 'skills'} {_skills_text(skills)})"
        + (f", board {board}" if board != "standard" else "")
        + f"; {games}"
    )
    chars = max(40, int(width_in * 0.92 * 72.0 / (points * _CHAR_EM)))
    return textwrap.fill(text, chars, max_lines=4, placeholder=" ...")


def _few_games_note(summary: dict[str, Any]) -> str | None:
    """What the figure says when a cell has too few games for an interval."""
    few = sorted({int(c["games"]) for c in summary["variants"] if c["games"] < _CI_GAMES})
    if not few:
        return None
    n = " or ".join(str(k) for k in few)
    return (
        f"no 95% CI: a cell of {n} game{'s' if few != [1] else ''} has none "
        f"(at least {_CI_GAMES} games per cell are needed; give more --games)"
    )


def _note(fig: Figure, text: str, width_in: float) -> None:
    """A note under the figure's panels (laid out with them: it covers nothing)."""
    chars = max(40, int(width_in * 0.92 * 72.0 / (9.0 * _CHAR_EM)))
    fig.supxlabel(textwrap.fill(text, chars), fontsize=9, color="#8b0000")


def damage_figure(summary: dict[str, Any], rows: Sequence[Row]) -> Figure:
    """Damage per game per cell, and mean damage per player, with 95% CIs.

    Few cells: the two panels side by side, one bar colour per cell. Many
    (their labels would overlap): the panels stacked, the figure as wide as
    the cells need, and the players' bars grouped by cell, one colour per
    player."""
    variants = summary["variants"]
    many = len(_skills(summary)) > 1
    names = [_label(v, many) for v in variants]
    players = int(summary["settings"]["players"])
    crowded = _crowded(names, 6.0 + (0.9 if many else 0.0))
    if crowded:
        width = max(11.0, _upright_width(len(names), 1.6))
        fig = Figure(figsize=(width, 9.6), layout="constrained")
        ax, ax2 = fig.subplots(2, 1)
    else:
        width = 11.0 + (1.5 if many else 0.0)
        fig = Figure(figsize=(width, 4.8), layout="constrained")
        ax, ax2 = fig.subplots(1, 2, width_ratios=(3, 2))
    FigureCanvasAgg(fig)
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
    _set_xticks(ax, pos, names, crowded)
    ax.set_xlim(-0.6, len(names) - 0.4)
    ax.set_ylabel("damage dealt in a game (sum over players)")
    ax.set_title("Damage per game (box: quartiles; ◆: mean, 95% CI)", fontsize=10)
    if crowded:  # x: the cells, a bar per player in each
        width_bar = 0.8 / players
        for p in range(players):
            ms = [v["damage_by_seat"][p] for v in variants]
            ax2.bar(
                pos + (p - (players - 1) / 2) * width_bar,
                [m["value"] or 0.0 for m in ms],
                width_bar,
                yerr=np.array([_err(m) for m in ms]).T,
                capsize=2,
                label=f"P{p}",
                color=_COLOURS[p % len(_COLOURS)],
            )
        _set_xticks(ax2, pos, names, crowded)
        ax2.set_xlim(-0.6, len(names) - 0.4)
        ax2.legend(fontsize=8, ncols=players)
    else:  # x: the players, a bar per cell at each
        width_bar = 0.8 / max(len(names), 1)
        for i, v in enumerate(variants):
            ms = v["damage_by_seat"]
            ax2.bar(
                np.arange(players) + (i - (len(names) - 1) / 2) * width_bar,
                [m["value"] or 0.0 for m in ms],
                width_bar,
                yerr=np.array([_err(m) for m in ms]).T,
                capsize=3,
                label=names[i].replace("\n", " "),
                color=_COLOURS[i % len(_COLOURS)],
            )
        ax2.set_xticks(np.arange(players), [f"P{p}" for p in range(players)])
        ax2.legend(fontsize=8)
    ax2.set_ylabel("mean damage against the player's castle")
    ax2.set_title("Damage per player (P0 starts round 1), 95% CI", fontsize=10)
    note = _few_games_note(summary)
    if note is not None:
        _note(fig, note, width)
    fig.suptitle(_title(summary, width), fontsize=10)
    return fig


def eliminations_figure(summary: dict[str, Any]) -> Figure:
    """Dice eliminated per round (off the board, and of those over the side
    walls) per cell, with 95% CIs."""
    variants = summary["variants"]
    many = len(_skills(summary)) > 1
    names = [_label(v, many) for v in variants]
    crowded = _crowded(names, 6.6)
    width = (
        max(7.5, _upright_width(len(names), 1.6))
        if crowded
        else 7.5 + (0.6 * len(names) if many else 0.0)
    )
    fig = Figure(figsize=(width, 5.6 if crowded else 4.6), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    pos = np.arange(len(names))
    top = 0.0  # highest bar or error bar drawn
    for j, (key, label, hatch) in enumerate(
        (
            ("offboard_per_round", "eliminated (off the board or over a wall)", ""),
            (
                "wall_exits_per_round",
                "left over the side walls (removed; a supply die that never landed returns)",
                "//",
            ),
        )
    ):
        vals = [v[key]["value"] or 0.0 for v in variants]
        errs = np.array([_err(v[key]) for v in variants]).T
        ups = np.nan_to_num(errs[1], nan=0.0) if len(vals) else np.zeros(0)
        top = max([top, *(float(v + u) for v, u in zip(vals, ups, strict=True))])
        ax.bar(
            pos + (j - 0.5) * 0.38,
            vals,
            0.38,
            yerr=errs,
            capsize=2 if crowded else 4,
            label=label,
            color=[_COLOURS[i % len(_COLOURS)] for i in range(len(names))],
            hatch=hatch,
            edgecolor="black",
            alpha=1.0 if j == 0 else 0.55,
        )
        for x, v, m, up in zip(pos, vals, variants, errs[1], strict=True):
            p = m[key].get("p")
            if p is not None and p < 0.05:
                top = v + (up if math.isfinite(up) else 0.0)
                ax.annotate("*", (x + (j - 0.5) * 0.38, top), ha="center", va="bottom", fontsize=14)
    _set_xticks(ax, pos, names, crowded)
    ax.set_xlim(-0.6, len(names) - 0.4)
    # counts: the axis starts at 0 (matplotlib centred all-zero bars on an
    # axis from -0.04 to 0.04), leaves room above the bars for the legend
    # and the significance marks, and with nothing eliminated says so
    if top > 0.0:
        ax.set_ylim(0.0, 1.3 * top)
    else:
        ax.set_ylim(0.0, 1.0)
        ax.text(
            0.5,
            0.5,
            "no die left the board in these games",
            transform=ax.transAxes,
            ha="center",
            va="center",
            fontsize=10,
            color="#555555",
        )
    ax.set_ylabel("dice per round")
    ref = variants[0]["name"] if variants else "-"
    ax.set_title(
        f"Dice eliminated per round, 95% CI (* differs from {ref}"
        + (" at the same skill" if many else "")
        + " at p < 0.05)",
        fontsize=10,
    )
    ax.legend(fontsize=8)
    note = _few_games_note(summary)
    if note is not None:
        _note(fig, note, width)
    fig.suptitle(_title(summary, width, 9.0), fontsize=9)
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


def _difference(ref: dict[str, Any] | None, cell: dict[str, Any] | None, key: str) -> float | None:
    """``cell``'s value of ``key`` less ``ref``'s (None if either has none)."""
    a = ((cell or {}).get(key) or {}).get("value")
    b = ((ref or {}).get(key) or {}).get("value")
    return None if a is None or b is None else float(a) - float(b)


def skills_figure(summary: dict[str, Any]) -> Figure:
    """Each variant's effect against skill: its difference from the first
    variant at the same skill (``diff``) with the difference's 95% CI
    (``diff_ci``, Welch) as error bars, on damage per game and on dice
    eliminated per round; the x axis is the skills in the order given,
    labelled by name; a difference with p < 0.05 (Welch) is marked *. A
    difference without an interval (a cell of one game, or no spread in
    either cell) is a hollow marker, and the panel says why. Many skills:
    upright labels, the two panels stacked, the figure as wide as the
    skills need."""
    cells = summary["variants"]
    skills = _skills(summary)
    names = list(dict.fromkeys(c["name"] for c in cells))
    by = {(c["name"], str(c.get("skill"))): c for c in cells}
    others = names[1:]
    crowded = _crowded(skills, 4.4)
    if crowded:
        width = max(11.0, _upright_width(len(skills), 1.8))
        fig = Figure(figsize=(width, 8.8), layout="constrained")
        axes = fig.subplots(2, 1)
    else:
        width = 11.0
        fig = Figure(figsize=(width, 4.6), layout="constrained")
        axes = fig.subplots(1, 2)
    FigureCanvasAgg(fig)
    x = np.arange(len(skills))
    step = 0.5 / max(len(others), 1)
    few = _few_games_note(summary)
    missing = 0
    for ax, (key, title, ylabel) in zip(axes, _EFFECTS, strict=True):
        ax.axhline(0.0, color="black", linewidth=0.8)
        bare = 0
        for j, name in enumerate(others):
            xs, ys, lo, hi, stars = [], [], [], [], []
            for i, k in enumerate(skills):
                m = by.get((name, k), {}).get(key) or {}
                d = m.get("diff")
                if d is None:  # too few games for a test: the point estimate alone
                    d = _difference(by.get((names[0], k)), by.get((name, k)), key)
                if d is None:
                    continue
                ci = m.get("diff_ci") or [None, None]
                xs.append(i + (j - (len(others) - 1) / 2) * step)
                ys.append(d)
                if ci[0] is None or ci[1] is None:  # no interval: no bar, a hollow marker
                    lo.append(math.nan)
                    hi.append(math.nan)
                else:
                    lo.append(d - ci[0])
                    hi.append(ci[1] - d)
                p = m.get("p")
                stars.append(p is not None and p < 0.05)
            colour = _COLOURS[(j + 1) % len(_COLOURS)]
            ax.errorbar(
                xs, ys, yerr=[lo, hi], fmt="o-", capsize=5, ms=7, color=colour,
                label=f"{name} − {names[0]}",
            )  # fmt: skip
            hollow = [(xi, yi) for xi, yi, h in zip(xs, ys, hi, strict=True) if math.isnan(h)]
            bare += len(hollow)
            if hollow:
                hx, hy = zip(*hollow, strict=True)
                ax.plot(hx, hy, "o", ms=7, color=colour, mfc="white", zorder=3)
            for xi, yi, up, star in zip(xs, ys, hi, stars, strict=True):
                if star:
                    top = yi + (up if math.isfinite(up) else 0.0)
                    ax.annotate("*", (xi, top), ha="center", va="bottom", fontsize=14)
        _set_xticks(ax, x, skills, crowded)
        ax.set_xlim(-0.5, len(skills) - 0.5)
        ax.set_xlabel("skill")
        ax.set_ylabel(ylabel)
        ax.set_title(
            f"{title}\n(difference from {names[0]} at the same skill, 95% CI)", fontsize=10
        )
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=9)
        missing += bare
    if few is not None:
        _note(fig, few + "; hollow markers: the difference of the means alone", width)
    elif missing:
        _note(fig, "hollow markers: no 95% CI (too few games in a cell)", width)
    title = _title(summary, width) + "   (* p < 0.05, Welch)"
    fig.suptitle(title, fontsize=10)
    return fig


def save_plots(summary: dict[str, Any], rows: Sequence[Row], directory: Path) -> list[Path]:
    """Write ``damage.png``, ``eliminations.png`` and, with more than one
    skill and more than one variant, ``skills.png`` into ``directory``, each
    whole (a temporary file of a unique name, then renamed).

    Raises:
        OSError: the folder cannot be written (its ``filename`` the plot).
    """
    figures = [
        (DAMAGE_PNG, damage_figure(summary, rows)),
        (ELIMINATIONS_PNG, eliminations_figure(summary)),
    ]
    if len(_skills(summary)) > 1 and len({c["name"] for c in summary["variants"]}) > 1:
        figures.append((SKILLS_PNG, skills_figure(summary)))
    out = []
    for name, fig in figures:
        path = directory / name
        try:
            with partial_file(path) as tmp:
                fig.savefig(tmp, dpi=110, format="png")
                os.replace(tmp, path)
        except OSError as e:
            raise OSError(e.errno, e.strerror or str(e), str(path)) from e
        out.append(path)
    return out
