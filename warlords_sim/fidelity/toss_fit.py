"""Fitting a material to measured tosses: a grid of materials, each run on
every toss, then chosen and judged by K-fold cross-validation
(benchmarks/tosses.py drives it; docs/fidelity.md gives the figures).

Contract
--------
* A :class:`PointResult` holds one grid point's per-toss figures (from
  :func:`point_result`); everything here is selection arithmetic over
  those arrays (numpy, no simulation, no state).
* The loss of a toss is its rest pose error: the resting centre's error in
  side lengths plus the rest orientation's error angle in quarter turns
  (:func:`toss_loss`). Rolling over one edge moves a cube's centre one
  side and turns it a quarter turn, so the two weigh alike; a wrong face
  costs at least one.
* :func:`cross_validate`: the tosses are split into K folds at random
  (seeded); for each fold the grid point of least mean loss on the other
  folds (or, with ``criterion="faces"``, of the most faces right there) is
  chosen and judged on the fold. The held-out figures pool the
  folds' judged tosses. :func:`profile` and :func:`bootstrap` describe the
  fit's uncertainty: the least in-sample loss at each value of one
  parameter, and the chosen point over resamples of the tosses.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from warlords_sim.fidelity.tosses import TossOutcome, wilson

__all__ = [
    "CRITERIA",
    "CVFold",
    "CVResult",
    "PointResult",
    "bootstrap",
    "cross_validate",
    "kfolds",
    "point_result",
    "profile",
    "toss_loss",
]

Array = NDArray[np.float64]


@dataclass(frozen=True)
class PointResult:
    """One grid point's figures, per toss (all tosses judged: the record
    reaches rest).

    Attributes:
        params: the material's parameters that differ from the base.
        agree: 1 where the simulated rest face is the measured one (n,).
        rest_err: resting centre error, side lengths (n,).
        rest_angle: rest orientation error, rad (n,).
        traj_pos: mean centre error during contact, side lengths (n,).
        traj_angle: mean orientation error during contact, rad (n,).
        baseline: 1 where the face up before contact is the measured rest face (n,).
        cpu_s: CPU seconds the runs took.
    """

    params: dict[str, float]
    agree: Array
    rest_err: Array
    rest_angle: Array
    traj_pos: Array
    traj_angle: Array
    baseline: Array
    cpu_s: float


def point_result(
    params: dict[str, float], outcomes: Sequence[TossOutcome], cpu_s: float
) -> PointResult:
    """The :class:`PointResult` of ``outcomes``.

    Raises:
        ValueError: a toss whose record does not reach rest or has no contact.
    """
    if any(o.measured_face is None or o.traj_pos_error is None for o in outcomes):
        raise ValueError("every toss of a fit must reach rest in its record, after a contact")

    def col(f: str) -> Array:
        return np.array([float(getattr(o, f)) for o in outcomes])

    return PointResult(
        params=dict(params),
        agree=np.array([1.0 if o.agrees else 0.0 for o in outcomes]),
        rest_err=col("rest_error"),
        rest_angle=col("rest_angle_error"),
        traj_pos=col("traj_pos_error"),
        traj_angle=col("traj_angle_error"),
        baseline=np.array([1.0 if o.start_face == o.measured_face else 0.0 for o in outcomes]),
        cpu_s=cpu_s,
    )


def toss_loss(r: PointResult) -> Array:
    """Per-toss loss: rest error in sides plus rest angle in quarter turns."""
    return np.asarray(r.rest_err + r.rest_angle / (math.pi / 2.0))


def kfolds(n: int, k: int, seed: int) -> list[NDArray[np.int64]]:
    """``k`` disjoint index arrays covering 0..n-1, shuffled by ``seed``.

    Raises:
        ValueError: k < 2 or k > n.
    """
    if not 2 <= k <= n:
        raise ValueError(f"K-fold needs 2 <= k <= n, got k={k}, n={n}")
    order = np.random.default_rng(seed).permutation(n)
    return [np.sort(a) for a in np.array_split(order, k)]


#: What a fit chooses by: the least mean loss (the default), or the most
#: tosses resting on the measured face (ties: the least mean loss).
CRITERIA = ("loss", "faces")


def _best(results: Sequence[PointResult], idx: NDArray[np.int64], criterion: str = "loss") -> int:
    if criterion not in CRITERIA:
        raise ValueError(f"unknown criterion {criterion!r}; expected one of {', '.join(CRITERIA)}")
    losses = [float(np.mean(toss_loss(r)[idx])) for r in results]
    if criterion == "loss":
        return int(np.argmin(losses))
    agree = [int(np.sum(r.agree[idx])) for r in results]
    return min(range(len(results)), key=lambda i: (-agree[i], losses[i]))


@dataclass(frozen=True)
class CVFold:
    """One fold: the chosen grid point (index) and its held-out figures."""

    chosen: int
    n: int
    agree: int
    rest_err_median: float
    train_loss: float
    test_loss: float


@dataclass(frozen=True)
class CVResult:
    """K-fold cross-validation of a grid.

    Attributes:
        folds: per fold. held_out_agree, held_out_n: pooled over the folds'
            held-out tosses (each judged with its fold's choice), with
            ``agree_ci`` its 95 % Wilson interval. rest_err_median,
            traj_pos, traj_angle_deg: the pooled held-out rest error median
            (sides), trajectory errors (sides, degrees). loss: the pooled
            held-out mean loss. baseline: the baseline's share on the same tosses.
    """

    folds: tuple[CVFold, ...]
    held_out_agree: int
    held_out_n: int
    agree_ci: tuple[float, float]
    rest_err_median: float
    rest_err_q1: float
    rest_err_q3: float
    traj_pos: float
    traj_angle_deg: float
    loss: float
    baseline: float

    @property
    def agreement(self) -> float:
        return self.held_out_agree / self.held_out_n


def cross_validate(
    results: Sequence[PointResult], k: int = 5, seed: int = 0, criterion: str = "loss"
) -> CVResult:
    """K-fold cross-validation of choosing among ``results`` by
    ``criterion`` (:data:`CRITERIA`: mean loss, or faces first).

    Raises:
        ValueError: no results, results of different lengths, a bad k or criterion.
    """
    if not results:
        raise ValueError("no grid points to cross-validate")
    n = results[0].agree.size
    if any(r.agree.size != n for r in results):
        raise ValueError("grid points judged on different tosses")
    folds = []
    agree = np.empty(n)
    err = np.empty(n)
    tp = np.empty(n)
    ta = np.empty(n)
    loss = np.empty(n)
    everyone = np.arange(n)
    for test in kfolds(n, k, seed):
        train = np.setdiff1d(everyone, test)
        c = _best(results, train, criterion)
        r = results[c]
        agree[test], err[test] = r.agree[test], r.rest_err[test]
        tp[test], ta[test] = r.traj_pos[test], r.traj_angle[test]
        loss[test] = toss_loss(r)[test]
        folds.append(
            CVFold(
                chosen=c,
                n=int(test.size),
                agree=int(np.sum(r.agree[test])),
                rest_err_median=float(np.median(r.rest_err[test])),
                train_loss=float(np.mean(toss_loss(r)[train])),
                test_loss=float(np.mean(toss_loss(r)[test])),
            )
        )
    total = int(np.sum(agree))
    q1, med, q3 = (float(v) for v in np.percentile(err, [25, 50, 75]))
    return CVResult(
        folds=tuple(folds),
        held_out_agree=total,
        held_out_n=n,
        agree_ci=wilson(total, n),
        rest_err_median=med,
        rest_err_q1=q1,
        rest_err_q3=q3,
        traj_pos=float(np.mean(tp)),
        traj_angle_deg=math.degrees(float(np.mean(ta))),
        loss=float(np.mean(loss)),
        baseline=float(np.mean(results[0].baseline)),
    )


def profile(results: Sequence[PointResult], param: str) -> list[tuple[float, int, float]]:
    """For each value of ``param`` on the grid: (value, the index of the
    point of least in-sample mean loss among those with that value, that
    loss), by rising value. Points without ``param`` are left out."""
    by: dict[float, list[int]] = {}
    for i, r in enumerate(results):
        if param in r.params:
            by.setdefault(r.params[param], []).append(i)
    out = []
    for v in sorted(by):
        losses = [(float(np.mean(toss_loss(results[i]))), i) for i in by[v]]
        best_loss, best = min(losses)
        out.append((v, best, best_loss))
    return out


def bootstrap(
    results: Sequence[PointResult], draws: int, seed: int, criterion: str = "loss"
) -> NDArray[np.int64]:
    """The grid point chosen by ``criterion`` (:data:`CRITERIA`) for each
    of ``draws`` resamples of the tosses with replacement (seeded)."""
    if criterion not in CRITERIA:
        raise ValueError(f"unknown criterion {criterion!r}; expected one of {', '.join(CRITERIA)}")
    rng = np.random.default_rng(seed)
    n = results[0].agree.size
    losses = np.stack([toss_loss(r) for r in results])  # points x tosses
    agree = np.stack([r.agree for r in results])
    out = np.empty(draws, dtype=np.int64)
    for b in range(draws):
        idx = rng.integers(0, n, n)
        mean_loss = losses[:, idx].mean(axis=1)
        if criterion == "loss":
            out[b] = int(np.argmin(mean_loss))
        else:
            right = agree[:, idx].sum(axis=1)
            out[b] = int(np.lexsort((mean_loss, -right))[0])
    return out
