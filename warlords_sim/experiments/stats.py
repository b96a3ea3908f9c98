"""Statistics of an experiment's games: means and rates with 95% confidence
intervals, and each variant's difference from the first variant at the same
skill, with a significance test and the difference's own 95% interval.

* A mean over games (damage per game, dice off the board per round, ...):
  Student t interval; the difference from the first variant is tested with
  Welch's t-test (``p``) and, since these counts are skewed and often zero,
  also with the Mann-Whitney U test (``p_mannwhitney``); ``diff_ci`` is
  Welch's interval of the difference (Welch-Satterthwaite degrees of freedom).
* A rate (rounds ended by the final-die rule, shared wins, wall variant 1
  triggering): Wilson score interval; the difference is tested with Fisher's
  exact test on the 2x2 table; ``diff_ci`` is Newcombe's hybrid score
  interval (Newcombe 1998, Statistics in Medicine 17:873-890, method 10),
  built from the two Wilson intervals.
* A win rate (per seat, and of the first player) counts a shared win 1/k to
  each of its k winners: it is the mean over games of the player's win
  share (0, 1/k or 1), so the shares of a game add up to 1. Its interval is
  Wilson's on the sum of the shares (a fractional count). That is valid, and
  why: a share X lies in [0, 1], so X^2 <= X and Var X <= mu (1 - mu), with
  equality only for whole wins; Wilson's score interval assumes the binomial
  variance mu (1 - mu) / n, an upper bound of the true one, so with shared
  wins it is conservative (at least the nominal coverage in the normal
  approximation it rests on, and a little wider than need be), and unlike a
  t interval on the shares it stays in [0, 1] and keeps its coverage near
  0 % and 100 % and for few games, where a t interval is too narrow. Shared
  wins are rare (0.3 % of the games of the README's run), so the interval is
  close to exact. The test against the first variant is Fisher's exact test
  while every share of both samples is whole (no shared win touched the
  player); otherwise Welch's t-test on the per-game shares (Fisher's needs
  whole counts; the shares are bounded, so the t-test's normal
  approximation holds at the lab's hundreds of games). ``test`` names the
  test used.

Everything is computed from the rows sorted by (variant, skill, game index),
so the same games give the same numbers to the last bit, whatever order
they finished in or however many runs it took.
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
    "compare_shares",
    "mean_ci",
    "newcombe",
    "summarize",
    "welch_ci",
    "wilson",
    "win_shares",
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


def wilson(k: float, n: int) -> tuple[float | None, float | None, float | None]:
    """Rate ``k/n`` and its 95% Wilson score interval (None if n = 0); ``k``
    may be fractional (a sum of win shares, see the module docstring).

    The closed form of Wilson (1927), J. Amer. Statist. Assoc. 22:209-212;
    for a whole ``k`` it equals scipy's
    ``binomtest(k, n).proportion_ci(method="wilson")`` (tests check it).

    Raises:
        ValueError: ``k`` outside [0, n].
    """
    if n == 0:
        return None, None, None
    if not 0.0 <= k <= n:
        raise ValueError(f"wilson: expected 0 <= k <= n = {n}, got k = {k}")
    z = float(sps.norm.ppf(0.5 + CONFIDENCE / 2))
    p = k / n
    z2n = z * z / n
    centre = (p + z2n / 2.0) / (1.0 + z2n)
    half = z * math.sqrt(p * (1.0 - p) / n + z2n / (4.0 * n)) / (1.0 + z2n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def newcombe(k_ref: float, n_ref: int, k: float, n: int) -> list[float | None]:
    """95% interval of ``k/n - k_ref/n_ref`` by Newcombe's hybrid score
    method from the two Wilson intervals (Newcombe 1998, method 10); [None,
    None] if a sample is empty."""
    a, la, ua = wilson(k, n)
    b, lb, ub = wilson(k_ref, n_ref)
    if a is None or b is None or la is None or ua is None or lb is None or ub is None:
        return [None, None]
    d = a - b
    return [d - math.hypot(a - la, ub - b), d + math.hypot(ua - a, b - lb)]


def welch_ci(ref: Sequence[float], other: Sequence[float]) -> list[float | None]:
    """95% interval of ``mean(other) - mean(ref)`` by Welch's method
    (Welch-Satterthwaite degrees of freedom); [None, None] if a sample has
    fewer than 2 values; the point itself if both samples are constant."""
    if len(ref) < 2 or len(other) < 2:
        return [None, None]
    a = np.asarray(ref, dtype=float)
    b = np.asarray(other, dtype=float)
    d = float(b.mean() - a.mean())
    va, vb = float(a.var(ddof=1)) / len(a), float(b.var(ddof=1)) / len(b)
    se2 = va + vb
    if se2 == 0.0:
        return [d, d]
    df = se2**2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    half = float(sps.t.ppf(0.5 + CONFIDENCE / 2, df)) * math.sqrt(se2)
    return [d - half, d + half]


def compare_means(ref: Sequence[float], other: Sequence[float]) -> Metric:
    """``other`` minus ``ref``: difference of means, Welch's t-test p-value and
    the Mann-Whitney U two-sided p-value (None when a sample is too small)."""
    if len(ref) < 2 or len(other) < 2:
        return {"diff": None, "diff_ci": [None, None], "p": None, "p_mannwhitney": None,
                "test": "welch"}  # fmt: skip
    a = np.asarray(ref, dtype=float)
    b = np.asarray(other, dtype=float)
    diff = float(b.mean() - a.mean())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p = float(sps.ttest_ind(b, a, equal_var=False).pvalue)
        if not math.isfinite(p):  # both samples constant
            p = 1.0 if diff == 0 else 0.0
        pu = float(sps.mannwhitneyu(b, a, alternative="two-sided").pvalue)
    return {
        "diff": diff,
        "diff_ci": welch_ci(ref, other),
        "p": p,
        "p_mannwhitney": _num(pu),
        "test": "welch",
    }


def compare_rates(k_ref: int, n_ref: int, k: int, n: int) -> Metric:
    """Rate ``k/n`` minus ``k_ref/n_ref``, its Newcombe interval and Fisher's
    exact two-sided p-value."""
    if n_ref == 0 or n == 0:
        return {"diff": None, "diff_ci": [None, None], "p": None, "test": "fisher"}
    p = float(sps.fisher_exact([[k, n - k], [k_ref, n_ref - k_ref]]).pvalue)
    return {
        "diff": k / n - k_ref / n_ref,
        "diff_ci": newcombe(k_ref, n_ref, k, n),
        "p": min(1.0, p),
        "test": "fisher",
    }


def compare_shares(ref: Sequence[float], other: Sequence[float]) -> Metric:
    """Mean win share of ``other`` minus that of ``ref`` (each a share in
    [0, 1] per game), its Newcombe interval, and the p-value of Fisher's
    exact test if every share is 0 or 1, else of Welch's t-test on the
    shares (``test`` says which; see the module docstring)."""
    if not ref or not other:
        return {"diff": None, "diff_ci": [None, None], "p": None, "test": "fisher"}
    if all(x in (0.0, 1.0) for x in (*ref, *other)):
        return compare_rates(round(sum(ref)), len(ref), round(sum(other)), len(other))
    out = compare_means(ref, other)
    return {
        "diff": out["diff"],
        "diff_ci": newcombe(sum(ref), len(ref), sum(other), len(other)),
        "p": out["p"],
        "test": "welch",
    }


def win_shares(winners: Sequence[int], player: int) -> float:
    """``player``'s share of a game won by ``winners``: 1/k if it is one of
    the k winners (a shared win counts 1/k to each), else 0."""
    return 1.0 / len(winners) if player in winners else 0.0


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


def _share_metric(values: list[float], ref: list[float] | None) -> Metric:
    total = float(sum(values))
    r, lo, hi = wilson(total, len(values))
    out: Metric = {"value": r, "ci": [lo, hi], "count": total, "n": len(values)}
    if ref is not None:
        out.update(compare_shares(ref, values))
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
        self.seat_wins = [[win_shares(w, p) for w in winners] for p in range(players)]
        self.first_wins = [
            win_shares(w, int(r["first_player"])) for r, w in zip(rows, winners, strict=True)
        ]
        self.rates: dict[str, tuple[int, int]] = {
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
    skills: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """Per cell (variant, skill), every metric with its 95% CI and, for
    every variant but the first, the difference from the first variant at
    the same skill, its 95% CI and p-value. Cells come skill by skill (in
    ``skills`` order), each in ``variants`` order. Only rows of ``variants``
    and ``skills`` (their labels; None: every row, one skill) and with
    index < ``games`` if given count.

    Each cell: ``name, skill, games, rounds`` and metrics ``mean_damage,
    damage_by_seat[p], win_rate_by_seat[p], first_player_win_rate,
    shared_win_rate, offboard_per_round, wall_exits_per_round,
    flicks_per_game, flicks_per_round, final_die_round_rate,
    siege_shots_per_game, wall1_trigger_rate`` (None unless the variant
    plays wall variant 1). A metric is ``{"value", "ci": [lo, hi], "n"}`` (a
    rate also ``"count"``, fractional for win rates: a shared win counts 1/k
    to each of its k winners) plus ``"diff", "diff_ci", "p", "test"``
    against the first variant.
    """
    keys: list[str | None] = list(skills) if skills is not None else [None]
    cells: dict[tuple[str, str | None], list[Row]] = {(v, k): [] for k in keys for v in variants}
    for r in rows:
        cell = (r["variant"], r["skill"] if skills is not None else None)
        if cell in cells and (games is None or int(r["index"]) < games):
            cells[cell].append(r)
    samples = {
        cell: _Samples(sorted(rs, key=lambda r: int(r["index"])), players)
        for cell, rs in cells.items()
    }
    out: list[dict[str, Any]] = []
    for k in keys:
        ref = samples[(variants[0], k)] if variants else None
        for i, v in enumerate(variants):
            s = samples[(v, k)]
            base = ref if i > 0 else None
            entry: dict[str, Any] = {"name": v, "skill": k, "games": s.games, "rounds": s.rounds}
            for key, values in s.means.items():
                entry[key] = _mean_metric(values, base.means[key] if base else None)
            entry["damage_by_seat"] = [
                _mean_metric(s.seat_damage[p], base.seat_damage[p] if base else None)
                for p in range(players)
            ]
            entry["win_rate_by_seat"] = [
                _share_metric(s.seat_wins[p], base.seat_wins[p] if base else None)
                for p in range(players)
            ]
            entry["first_player_win_rate"] = _share_metric(
                s.first_wins, base.first_wins if base else None
            )
            for key, (c, n) in s.rates.items():
                entry[key] = _rate_metric(c, n, base.rates[key] if base else None)
            entry["wall1_trigger_rate"] = _rate_metric(*s.wall1, None) if s.wall1 else None
            out.append(entry)
    return out
