"""Statistics of an experiment's games: means and rates with 95% confidence
intervals, and each variant's difference from the first with a significance test.

* A mean over games (damage per game, dice off the board per round, ...):
  Student t interval; the difference from the first variant is tested with
  Welch's t-test (``p``) and, since these counts are skewed and often zero,
  also with the Mann-Whitney U test (``p_mannwhitney``).
* A rate (wins, rounds ended by the final-die rule, wall variant 1
  triggering): Wilson score interval; the difference is tested with Fisher's
  exact test on the 2x2 table.

Everything is computed from the rows sorted by (variant, game index), so the
same games give the same numbers to the last bit, whatever order they
finished in or however many runs it took.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import stats as sps

from warlords_sim.experiments.worker import Row

__all__ = [
    "CONFIDENCE",
    "compare_means",
    "compare_rates",
    "mean_ci",
    "summarize",
    "wilson",
]

CONFIDENCE = 0.95

Metric = dict[str, Any]


def _num(x: float) -> float | None:
    return None if x is None or not math.isfinite(x) else float(x)


def mean_ci(values: Sequence[float]) -> tuple[float | None, float | None, float | None]:
    """Mean and its 95% Student t confidence interval (None if undefined).

    Every metric here is a count, damage or rate that cannot be negative, so
    the interval is clipped at 0 when all values are >= 0 (the t interval of
    a skewed count can otherwise reach below zero)."""
    n = len(values)
    if n == 0:
        return None, None, None
    a = np.asarray(values, dtype=float)
    m = float(a.mean())
    if n < 2:
        return m, None, None
    half = float(sps.t.ppf(0.5 + CONFIDENCE / 2, n - 1)) * float(a.std(ddof=1)) / math.sqrt(n)
    lo = m - half
    if float(a.min()) >= 0.0:
        lo = max(lo, 0.0)
    return m, lo, m + half


def wilson(k: int, n: int) -> tuple[float | None, float | None, float | None]:
    """Rate ``k/n`` and its 95% Wilson score interval (None if n = 0):
    scipy's ``binomtest(k, n).proportion_ci(method="wilson")`` (Wilson 1927)."""
    if n == 0:
        return None, None, None
    ci = sps.binomtest(k, n).proportion_ci(confidence_level=CONFIDENCE, method="wilson")
    return k / n, float(ci.low), float(ci.high)


def compare_means(ref: Sequence[float], other: Sequence[float]) -> Metric:
    """``other`` minus ``ref``: difference of means, Welch's t-test p-value and
    the Mann-Whitney U two-sided p-value (None when a sample is too small)."""
    if len(ref) < 2 or len(other) < 2:
        return {"diff": None, "p": None, "p_mannwhitney": None, "test": "welch"}
    a = np.asarray(ref, dtype=float)
    b = np.asarray(other, dtype=float)
    diff = float(b.mean() - a.mean())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p = float(sps.ttest_ind(b, a, equal_var=False).pvalue)
        if not math.isfinite(p):  # both samples constant
            p = 1.0 if diff == 0 else 0.0
        pu = float(sps.mannwhitneyu(b, a, alternative="two-sided").pvalue)
    return {"diff": diff, "p": p, "p_mannwhitney": _num(pu), "test": "welch"}


def compare_rates(k_ref: int, n_ref: int, k: int, n: int) -> Metric:
    """Rate ``k/n`` minus ``k_ref/n_ref`` and Fisher's exact two-sided p-value."""
    if n_ref == 0 or n == 0:
        return {"diff": None, "p": None, "test": "fisher"}
    p = float(sps.fisher_exact([[k, n - k], [k_ref, n_ref - k_ref]]).pvalue)
    return {"diff": k / n - k_ref / n_ref, "p": min(1.0, p), "test": "fisher"}


def _mean_metric(values: list[float], ref: list[float] | None) -> Metric:
    m, lo, hi = mean_ci(values)
    out: Metric = {"value": m, "ci": [lo, hi], "n": len(values)}
    if ref is not None:
        out.update(compare_means(ref, values))
    return out


def _rate_metric(k: int, n: int, ref: tuple[int, int] | None) -> Metric:
    r, lo, hi = wilson(k, n)
    out: Metric = {"value": r, "ci": [lo, hi], "count": k, "n": n}
    if ref is not None:
        out.update(compare_rates(ref[0], ref[1], k, n))
    return out


def _winners(row: Row) -> list[int]:
    return [int(w) for w in str(row["winners"]).split()]


class _Samples:
    """Per-game values of one variant."""

    def __init__(self, rows: list[Row], players: int) -> None:
        self.rows = rows
        self.games = len(rows)
        self.rounds = sum(int(r["rounds"]) for r in rows)
        per_round = [max(int(r["rounds"]), 1) for r in rows]
        self.means: dict[str, list[float]] = {
            "mean_damage": [float(r["damage"]) for r in rows],
            "offboard_per_round": [r["offboard"] / k for r, k in zip(rows, per_round, strict=True)],
            "wall_exits_per_round": [
                r["wall_exits"] / k for r, k in zip(rows, per_round, strict=True)
            ],
            "flicks_per_game": [float(r["flicks"]) for r in rows],
            "flicks_per_round": [r["flicks"] / k for r, k in zip(rows, per_round, strict=True)],
            "siege_shots_per_game": [float(r["siege_shots"]) for r in rows],
        }
        self.seat_damage = [
            [float(r[f"damage_p{p}"]) for r in rows if r[f"damage_p{p}"] is not None]
            for p in range(players)
        ]
        winners = [_winners(r) for r in rows]
        self.seat_wins = [(sum(p in w for w in winners), self.games) for p in range(players)]
        self.rates: dict[str, tuple[int, int]] = {
            "first_player_win_rate": (
                sum(int(r["first_player"]) in w for r, w in zip(rows, winners, strict=True)),
                self.games,
            ),
            "shared_win_rate": (sum(len(w) > 1 for w in winners), self.games),
            "final_die_round_rate": (sum(int(r["final_die_rounds"]) for r in rows), self.rounds),
        }
        wall1 = bool(rows) and all(r["wall_variant"] == "wall1" for r in rows)
        self.wall1: tuple[int, int] | None = (
            (sum(int(r["wall1_triggered"]) for r in rows), self.games) if wall1 else None
        )


def summarize(
    rows: Sequence[Row],
    variants: Sequence[str],
    players: int,
    games: int | None = None,
) -> list[dict[str, Any]]:
    """Per variant (in ``variants`` order, the first the reference), every
    metric with its 95% CI and, from the second variant on, the difference
    from the first and its p-value. Only rows of ``variants`` (and with
    index < ``games`` if given) count.

    Each variant: ``name, games, rounds`` and metrics ``mean_damage,
    damage_by_seat[p], win_rate_by_seat[p], first_player_win_rate,
    shared_win_rate, offboard_per_round, wall_exits_per_round,
    flicks_per_game, flicks_per_round, final_die_round_rate,
    siege_shots_per_game, wall1_trigger_rate`` (None unless the variant
    plays wall variant 1). A metric is ``{"value", "ci": [lo, hi], "n"}`` (a
    rate also ``"count"``) plus ``"diff", "p", "test"`` against the first.
    """
    by_variant: dict[str, list[Row]] = {v: [] for v in variants}
    for r in rows:
        if r["variant"] in by_variant and (games is None or int(r["index"]) < games):
            by_variant[r["variant"]].append(r)
    samples = {
        v: _Samples(sorted(rs, key=lambda r: int(r["index"])), players)
        for v, rs in by_variant.items()
    }
    ref = samples[variants[0]] if variants else None
    out: list[dict[str, Any]] = []
    for i, v in enumerate(variants):
        s = samples[v]
        base = ref if i > 0 else None
        entry: dict[str, Any] = {"name": v, "games": s.games, "rounds": s.rounds}
        for key, values in s.means.items():
            entry[key] = _mean_metric(values, base.means[key] if base else None)
        entry["damage_by_seat"] = [
            _mean_metric(s.seat_damage[p], base.seat_damage[p] if base else None)
            for p in range(players)
        ]
        entry["win_rate_by_seat"] = [
            _rate_metric(*s.seat_wins[p], base.seat_wins[p] if base else None)
            for p in range(players)
        ]
        for key, (k, n) in s.rates.items():
            entry[key] = _rate_metric(k, n, base.rates[key] if base else None)
        entry["wall1_trigger_rate"] = _rate_metric(*s.wall1, None) if s.wall1 else None
        out.append(entry)
    return out
