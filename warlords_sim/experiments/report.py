"""Showing an experiment's summary: the rich table and ``summary.json``."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

__all__ = [
    "DAMAGE_PNG",
    "ELIMINATIONS_PNG",
    "SUMMARY_JSON",
    "format_table",
    "print_table",
    "write_summary",
]

SUMMARY_JSON = "summary.json"
#: The plots an experiment with a directory writes (by :mod:`.plots`).
DAMAGE_PNG = "damage.png"
ELIMINATIONS_PNG = "eliminations.png"
ALPHA = 0.05  # a difference with p below this is marked with *

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


def format_table(summary: dict[str, Any]) -> Table:
    """The summary as a rich table: one row per metric, one column per variant."""
    s = summary["settings"]
    variants: list[dict[str, Any]] = summary["variants"]
    ref = variants[0]["name"] if variants else "-"
    table = Table(
        title=(
            f"House rules: {s['players']} players, bots {','.join(s['bots'])} "
            f"(skill {s['skill']}), seed {s['seed']}"
        ),
        caption=(
            f"mean or rate [95% CI]; Δ: difference from {ref} (Welch t-test for means, "
            f"Fisher exact for rates), * p < {ALPHA}; P0 starts round 1"
        ),
        show_lines=True,
    )
    table.add_column("metric")
    for v in variants:
        table.add_column(v["name"], justify="right")
    table.add_row("games", *(str(v["games"]) for v in variants))
    players = int(s["players"])
    for key, label, kind in _ROWS:
        pct = kind.endswith("rate")
        if kind.startswith("seat"):
            for p in range(players):
                table.add_row(
                    label.format(p=p),
                    *(_cell(v[key][p], pct, i == 0) for i, v in enumerate(variants)),
                )
        else:
            if key == "wall1_trigger_rate" and all(v.get(key) is None for v in variants):
                continue
            table.add_row(label, *(_cell(v.get(key), pct, i == 0) for i, v in enumerate(variants)))
    return table


def print_table(summary: dict[str, Any], console: Console | None = None) -> None:
    (console or Console()).print(format_table(summary))


def write_summary(summary: dict[str, Any], directory: Path) -> Path:
    """Write ``DIR/summary.json`` (atomically: a temporary file, then renamed)."""
    path = directory / SUMMARY_JSON
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path
