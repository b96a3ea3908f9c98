"""The figures of ``fidelity --tosses`` as a table (rich for the terminal,
Markdown rows for docs/fidelity.md). Shares in [0, 1] with their 95 %
Wilson interval; errors in side lengths and degrees.
"""

from __future__ import annotations

import math

from rich.table import Table

from warlords_sim.fidelity.tosses import TossSummary

__all__ = ["markdown_rows", "rich_table", "summary_cells"]

HEADERS = (
    "engine",
    "judged",
    "face agreement (95 % CI)",
    "rest error, sides: median (q1-q3)",
    "trajectory error in contact: sides, deg",
    "baseline: face before contact kept (95 % CI)",
)


def _share(k: int, n: int, ci: tuple[float, float]) -> str:
    if n == 0:
        return "-"
    return f"{k / n:.3f} ({ci[0]:.3f}-{ci[1]:.3f})"


def _num(v: float, digits: int = 3) -> str:
    return "-" if math.isnan(v) else f"{v:.{digits}f}"


def summary_cells(engine: str, s: TossSummary) -> tuple[str, ...]:
    """The cells of one engine's row (see :data:`HEADERS`)."""
    return (
        engine,
        f"{s.judged} of {s.tosses}",
        _share(s.agree, s.judged, s.agree_ci),
        f"{_num(s.rest_error_median)} ({_num(s.rest_error_q1)}-{_num(s.rest_error_q3)})",
        f"{_num(s.traj_pos_error)}, {_num(s.traj_angle_error, 1)}",
        _share(s.baseline, s.judged, s.baseline_ci),
    )


def rich_table(rows: list[tuple[str, TossSummary]], title: str) -> Table:
    """A rich table of (engine, summary) rows."""
    table = Table(title=title)
    for h in HEADERS:
        table.add_column(h, justify="left" if h == "engine" else "right")
    for engine, s in rows:
        table.add_row(*summary_cells(engine, s))
    return table


def markdown_rows(rows: list[tuple[str, TossSummary]]) -> list[str]:
    """The same as Markdown table lines (header, rule, one line a row)."""
    out = ["| " + " | ".join(HEADERS) + " |", "|" + "---|" * len(HEADERS)]
    for engine, s in rows:
        out.append("| " + " | ".join(summary_cells(engine, s)) + " |")
    return out
