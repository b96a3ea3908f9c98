"""Showing an experiment's summary: the rich table and ``summary.json``.

The table has one column per variant and one row per metric; with several
skills, each metric has one row per skill (the ``skill`` column), so a
variant's effect at each skill reads down one column and wall variant 1's
trigger rate at each skill is one row.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from warlords_sim._files import replace_text

__all__ = [
    "CAPTION",
    "DAMAGE_PNG",
    "ELIMINATIONS_PNG",
    "SKILLS_PNG",
    "SUMMARY_JSON",
    "format_table",
    "print_table",
    "write_summary",
]

SUMMARY_JSON = "summary.json"
#: The plots an experiment with a directory writes (by :mod:`.plots`).
DAMAGE_PNG = "damage.png"
ELIMINATIONS_PNG = "eliminations.png"
#: Written with more than one skill: each variant's effect against skill.
SKILLS_PNG = "skills.png"
ALPHA = 0.05  # a difference with p below this is marked with *

#: The table's caption (``{ref}``: the reference variant).
CAPTION = (
    "mean or rate [95% CI]; Δ: difference from {ref} at the same skill (Welch t-test "
    "for means, Fisher exact for rates, Welch on win shares if a win was shared), "
    f"* p < {ALPHA}; P0 starts round 1; a shared win counts 1/k to each of its k "
    "winners; wall 1 triggered: games whose final round had side walls because a "
    "player had no damage (wall variant 1)"
)

# (key, label, kind): kind "mean", "rate" (shown in percent) or "seat_mean"/"seat_rate"
_ROWS: tuple[tuple[str, str, str], ...] = (
    ("mean_damage", "damage / game", "mean"),
    ("damage_by_seat", "damage P{p}", "seat_mean"),
    ("win_rate_by_seat", "wins P{p}", "seat_rate"),
    ("first_player_win_rate", "first player wins", "rate"),
    ("shared_win_rate", "shared wins", "rate"),
    ("offboard_per_round", "dice off board / round", "mean"),
    ("wall_exits_per_round", "over walls / round", "mean"),
    ("flicks_per_game", "flicks / game", "mean"),
    ("flicks_per_round", "flicks / round", "mean"),
    ("final_die_round_rate", "final-die round ends", "rate"),
    ("siege_shots_per_game", "siege shots / game", "mean"),
    ("wall1_trigger_rate", "wall 1 triggered", "rate"),
)


def _fmt(x: float | None, pct: bool = False, signed: bool = False) -> str:
    if x is None or not math.isfinite(x):
        return "-"
    if pct:
        x *= 100.0
    a = abs(x)
    digits = 1 if pct or a >= 10 else (2 if a >= 1 else 3)
    return f"{x:+.{digits}f}" if signed else f"{x:.{digits}f}"


def _p(p: float | None) -> str:
    if p is None:
        return "p -"
    return "p<0.001" if p < 0.001 else f"p={p:.3f}"


def _cell(m: dict[str, Any] | None, pct: bool, reference: bool) -> str:
    """Three lines: the value, its 95% CI, and (not for the reference) the
    difference from the reference with its p-value."""
    if m is None or m.get("value") is None:
        return "-"
    lo, hi = m["ci"]
    lines = [_fmt(m["value"], pct) + ("%" if pct else "")]
    if lo is not None and hi is not None:
        lines.append(f"[{_fmt(lo, pct)}, {_fmt(hi, pct)}]")
    if not reference and m.get("diff") is not None:
        star = "*" if m.get("p") is not None and m["p"] < ALPHA else ""
        lines.append(
            f"Δ{_fmt(m['diff'], pct, signed=True)}{'pp' if pct else ''} {_p(m['p'])}{star}"
        )
    return "\n".join(lines)


def _skills_text(settings: dict[str, Any]) -> str:
    skills = [str(k) for k in settings.get("skills") or []]
    return ("skill " if len(skills) == 1 else "skills ") + ", ".join(skills)


def format_table(summary: dict[str, Any]) -> Table:
    """The summary as a rich table: one row per metric (and skill), one
    column per variant."""
    s = summary["settings"]
    cells: list[dict[str, Any]] = summary["variants"]
    names = list(dict.fromkeys(c["name"] for c in cells))
    skills = list(dict.fromkeys(c.get("skill") for c in cells))
    by = {(c["name"], c.get("skill")): c for c in cells}
    ref = names[0] if names else "-"
    board = s.get("board", "standard")
    table = Table(
        title=(
            f"House rules: {s['players']} players, bots {','.join(s['bots'])} "
            f"({_skills_text(s)}), seed {s['seed']}"
            + (f", board {board}" if board != "standard" else "")
        ),
        caption=CAPTION.format(ref=ref),
    )
    many = len(skills) > 1
    table.show_lines = not many  # with skills: a line between metrics only
    table.add_column("metric")
    if many:
        table.add_column("skill")
    for n in names:
        table.add_column(n, justify="right")

    def add(label: str, pick: Any, pct: bool, skip_empty: bool = False) -> None:
        for j, k in enumerate(skills):
            row = [pick(by[(n, k)]) if (n, k) in by else None for n in names]
            if skip_empty and all(m is None for m in row):
                continue
            texts = [_cell(m, pct, i == 0) for i, m in enumerate(row)]
            head = [label if j == 0 or not many else "", *([str(k)] if many else [])]
            table.add_row(*head, *texts, end_section=j == len(skills) - 1)

    for j, k in enumerate(skills):
        head = ["games" if j == 0 else "", *([str(k)] if many else [])]
        table.add_row(
            *head,
            *(str(by[(n, k)]["games"]) if (n, k) in by else "-" for n in names),
            end_section=j == len(skills) - 1,
        )
    players = int(s["players"])
    for key, label, kind in _ROWS:
        pct = kind.endswith("rate")
        if kind.startswith("seat"):
            for p in range(players):
                add(label.format(p=p), lambda c, key=key, p=p: c[key][p], pct)
        elif key == "wall1_trigger_rate":
            add(label, lambda c: c.get("wall1_trigger_rate"), pct, skip_empty=True)
        else:
            add(label, lambda c, key=key: c.get(key), pct)
    return table


def print_table(summary: dict[str, Any], console: Console | None = None) -> None:
    (console or Console()).print(format_table(summary))


def write_summary(summary: dict[str, Any], directory: Path) -> Path:
    """Write ``DIR/summary.json`` whole (:func:`warlords_sim._files.replace_text`:
    a temporary file of a unique name, then renamed)."""
    path = directory / SUMMARY_JSON
    replace_text(path, json.dumps(summary, indent=2) + "\n")
    return path
