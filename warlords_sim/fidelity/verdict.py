"""Agreement of two engines on one scenario: one check per criterion.

The criteria and tolerances are those of issue 9 (item 3): medians of travel
along and across the aim within 15 % or 10 mm, whichever is larger; their
interquartile ranges within 30 % or 10 mm; the share ending behind the
launch point and P(face changed) within 0.10; the face and region
distributions within total-variation distance 0.15. Relative tolerances
are taken of the baseline, the second engine (the reference).

The reference's own uncertainty (issue 19, item 2): given the spread of
the baseline's faces over its unmeasured parameters
(:class:`~.uncertainty.ReferenceSpread`), the faces criterion's tolerance
is that spread when it is wider than 0.15, and P(face changed)'s is its
spread when wider than 0.10: an engine cannot be asked to agree with the
reference more closely than the reference agrees with itself.

A difference equal to its tolerance agrees (compared with a slack of
1e-9, so that 3 of 20 dice moved, a TV distance of 0.15 in exact
arithmetic, is not failed by rounding).

A figure that neither engine has (NaN on both sides, e.g. faces when every
die left the board) agrees; a figure only one engine has does not.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import Enum

from warlords_sim.fidelity.metrics import EngineStats, tv_distance
from warlords_sim.fidelity.uncertainty import ReferenceSpread

__all__ = ["ISSUE_9", "Check", "Criterion", "Tolerances", "compare"]

#: Rounding slack of every comparison.
_SLACK = 1e-9


class Criterion(Enum):
    """What two engines are compared on."""

    ALONG_MEDIAN = "along median"
    ALONG_IQR = "along IQR"
    ACROSS_MEDIAN = "across median"
    ACROSS_IQR = "across IQR"
    BEHIND = "behind share"
    FACE_CHANGED = "P(face changed)"
    FACES = "faces"
    REGIONS = "regions"


@dataclass(frozen=True)
class Tolerances:
    """Agreement tolerances (issue 9, item 3). Relative ones are fractions
    of the baseline's figure; absolute ones in mm or in shares."""

    median_rel: float = 0.15
    median_mm: float = 10.0
    iqr_rel: float = 0.30
    iqr_mm: float = 10.0
    share: float = 0.10
    tv: float = 0.15


#: The tolerances of issue 9, item 3.
ISSUE_9 = Tolerances()


@dataclass(frozen=True)
class Check:
    """One criterion's verdict: ``difference`` (|a - b|, or the TV distance
    for a distribution; NaN if neither engine has the figure) against
    ``tolerance``. ``spread`` is the baseline's spread over its unmeasured
    parameters for this criterion (None if not measured or not applicable);
    ``widened`` says the tolerance is that spread, wider than the fixed one."""

    criterion: Criterion
    difference: float
    tolerance: float
    passed: bool
    spread: float | None = None
    widened: bool = False

    def as_json(self) -> dict[str, object]:
        return {
            "criterion": self.criterion.value,
            "difference": None if math.isnan(self.difference) else self.difference,
            "tolerance": self.tolerance,
            "passed": self.passed,
            "reference_spread": self.spread,
            "tolerance_is_spread": self.widened,
        }


def _check(criterion: Criterion, a: float, b: float, tolerance: float) -> Check:
    """|a - b| <= tolerance; both NaN agree, one NaN does not."""
    if math.isnan(a) or math.isnan(b):
        both = math.isnan(a) and math.isnan(b)
        return Check(criterion, math.nan, tolerance, both)
    diff = abs(a - b)
    return Check(criterion, diff, tolerance, diff <= tolerance + _SLACK)


def _tv(criterion: Criterion, d: float, a_empty: bool, b_empty: bool, tol: float) -> Check:
    if a_empty or b_empty:
        return Check(criterion, math.nan, tol, a_empty and b_empty)
    return Check(criterion, d, tol, d <= tol + _SLACK)


def _with_spread(check: Check, fixed: float, spread: float | None) -> Check:
    """``check`` (made against ``fixed``) judged again against the spread
    when the spread is wider."""
    if spread is None or not spread > fixed:
        return replace(check, spread=spread)
    d = check.difference
    passed = check.passed if math.isnan(d) else d <= spread + _SLACK
    return replace(check, tolerance=spread, passed=passed, spread=spread, widened=True)


def compare(
    a: EngineStats,
    b: EngineStats,
    tol: Tolerances = ISSUE_9,
    spread: ReferenceSpread | None = None,
) -> tuple[Check, ...]:
    """Check engine ``a`` against the baseline ``b`` on every :class:`Criterion`,
    in the enum's order; with ``spread`` (the baseline's over its unmeasured
    parameters), the faces and P(face changed) tolerances are the spread
    where it is wider than ``tol.tv`` and ``tol.share``."""

    def rel(v: float, frac: float, floor: float) -> float:
        return floor if math.isnan(v) else max(frac * abs(v), floor)

    c = Criterion
    fa = dict(enumerate(a.faces, start=1))
    fb = dict(enumerate(b.faces, start=1))
    ra, rb = dict(a.regions), dict(b.regions)
    s_changed = None if spread is None else spread.face_changed
    s_faces = None if spread is None else spread.faces
    return (
        _check(c.ALONG_MEDIAN, a.along.median, b.along.median,
               rel(b.along.median, tol.median_rel, tol.median_mm)),
        _check(c.ALONG_IQR, a.along.iqr, b.along.iqr, rel(b.along.iqr, tol.iqr_rel, tol.iqr_mm)),
        _check(c.ACROSS_MEDIAN, a.across.median, b.across.median,
               rel(b.across.median, tol.median_rel, tol.median_mm)),
        _check(c.ACROSS_IQR, a.across.iqr, b.across.iqr,
               rel(b.across.iqr, tol.iqr_rel, tol.iqr_mm)),
        _check(c.BEHIND, a.behind_share, b.behind_share, tol.share),
        _with_spread(_check(c.FACE_CHANGED, a.face_changed, b.face_changed, tol.share),
                     tol.share, s_changed),
        _with_spread(_tv(c.FACES, tv_distance(fa, fb), not sum(a.faces), not sum(b.faces),
                         tol.tv), tol.tv, s_faces),
        _tv(c.REGIONS, tv_distance(ra, rb), not ra, not rb, tol.tv),
    )  # fmt: skip
