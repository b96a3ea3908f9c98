"""Statistics of a scenario's trials on one engine, and distances between
two engines' distributions. Pure functions over :class:`TrialOutcome`.

Quantiles are numpy's default (linear interpolation between order
statistics, "type 7" of Hyndman and Fan 1996). The total-variation distance
of two distributions p, q over the same outcomes is ``sum |p - q| / 2``
(0 for equal distributions, 1 for disjoint ones). A figure without data
(for instance the face distribution when every die left the board) is NaN.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from warlords_sim.fidelity.runner import TrialOutcome

__all__ = ["EngineStats", "Spread", "engine_stats", "spread", "tv_distance"]

K = TypeVar("K")


@dataclass(frozen=True)
class Spread:
    """Median and quartiles of a sample (NaN for an empty sample)."""

    median: float
    q1: float
    q3: float

    @property
    def iqr(self) -> float:
        """Interquartile range q3 - q1."""
        return self.q3 - self.q1


def spread(values: Sequence[float]) -> Spread:
    """:class:`Spread` of ``values`` (numpy's linear quantiles); NaNs for none."""
    if len(values) == 0:
        return Spread(math.nan, math.nan, math.nan)
    q1, med, q3 = np.percentile(np.asarray(values, dtype=float), [25.0, 50.0, 75.0])
    return Spread(float(med), float(q1), float(q3))


def tv_distance(p: Mapping[K, int], q: Mapping[K, int]) -> float:
    """Total-variation distance between two count tables (normalised to
    shares first): ``sum over outcomes |p - q| / 2``, in [0, 1].

    Returns NaN if either table is empty (sums to 0).

    Raises:
        ValueError: a negative count.
    """
    keys = set(p) | set(q)
    if any(v < 0 for v in (*p.values(), *q.values())):
        raise ValueError("counts must be >= 0")
    n_p, n_q = sum(p.values()), sum(q.values())
    if n_p == 0 or n_q == 0:
        return math.nan
    return 0.5 * sum(abs(p.get(k, 0) / n_p - q.get(k, 0) / n_q) for k in keys)


@dataclass(frozen=True)
class EngineStats:
    """One scenario's figures on one engine over its trials.

    Attributes:
        engine: engine name.
        trials: number of trials.
        along, across: travel from the launch point along and across the aim, mm.
        behind_share: share of trials ending behind the launch point (along < 0).
        landings_mean: mean LANDING events of the flicked die per flick.
        face_changed: share of dice still on the board whose face changed.
        faces: counts of faces 1-6 of dice still on the board.
        regions: counts by ``str(Region)`` (``"off_board"`` for exits), most first.
        settle_median_s: median simulated settle time, s.
        exit_share: share of trials whose die left the board.
    """

    engine: str
    trials: int
    along: Spread
    across: Spread
    behind_share: float
    landings_mean: float
    face_changed: float
    faces: tuple[int, int, int, int, int, int]
    regions: tuple[tuple[str, int], ...]
    settle_median_s: float
    exit_share: float

    def as_json(self) -> dict[str, object]:
        def num(v: float) -> float | None:
            return None if math.isnan(v) else v

        return {
            "engine": self.engine,
            "trials": self.trials,
            "along_median_mm": num(self.along.median),
            "along_q1_mm": num(self.along.q1),
            "along_q3_mm": num(self.along.q3),
            "along_iqr_mm": num(self.along.iqr),
            "across_median_mm": num(self.across.median),
            "across_q1_mm": num(self.across.q1),
            "across_q3_mm": num(self.across.q3),
            "across_iqr_mm": num(self.across.iqr),
            "behind_share": num(self.behind_share),
            "landings_per_flick": num(self.landings_mean),
            "p_face_changed": num(self.face_changed),
            "faces": {str(f): c for f, c in enumerate(self.faces, start=1)},
            "regions": dict(self.regions),
            "settle_median_s": num(self.settle_median_s),
            "exit_share": num(self.exit_share),
        }


def _mean(values: Sequence[float]) -> float:
    return float(np.mean(values)) if len(values) else math.nan


def engine_stats(engine: str, outcomes: Sequence[TrialOutcome]) -> EngineStats:
    """The :class:`EngineStats` of ``outcomes`` (one scenario, one engine).

    Travel uses the settled centre, or for a die that left the board the
    point where it left. Faces count only dice still on the board.
    """
    on_board = [o for o in outcomes if not o.exited]
    faces = Counter(o.face for o in on_board)
    regions = Counter(o.region for o in outcomes)
    return EngineStats(
        engine=engine,
        trials=len(outcomes),
        along=spread([o.along for o in outcomes]),
        across=spread([o.across for o in outcomes]),
        behind_share=_mean([1.0 if o.along < 0.0 else 0.0 for o in outcomes]),
        landings_mean=_mean([float(o.landings) for o in outcomes]),
        face_changed=_mean([1.0 if o.face != o.initial_face else 0.0 for o in on_board]),
        faces=(faces[1], faces[2], faces[3], faces[4], faces[5], faces[6]),
        regions=tuple(sorted(regions.items(), key=lambda kv: (-kv[1], kv[0]))),
        settle_median_s=float(np.median([o.settle_s for o in outcomes])) if outcomes else math.nan,
        exit_share=_mean([1.0 if o.exited else 0.0 for o in outcomes]),
    )
