"""Consistency guarantees as predicates: the plug-in bound and consistency *trends*.

* Seed 000 Thm 2.7 (``000_dff3c4dc97cf0e21.txt:L175``, proof App. B L600–620): for the plug-in
  rule ĥ(x) = 1[η̂(x) > ½], err(ĥ) − L* ≤ 2·E|η(X) − η̂(X)|. Exact identity behind it:
  err(ĥ) − L* = E[|2η(X) − 1|·1[ĥ(X) ≠ h*(X)]], and on {ĥ ≠ h*} we have |2η − 1| ≤ 2|η − η̂|.
* Universal consistency (Def 2.5, L163; Thm 3.2, 4.3, A.12, A.15) is a limit statement:
  E err(A_n) → L*. No finite experiment proves a limit, and the theorems give no rates, so the
  executable form is a *trend*: along an increasing n-grid the excess risk falls, decided by a
  stated test, and is below a stated tolerance at the largest n. Never a slope.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from scipy import stats


def plugin_bound_holds(
    error: float, bayes_error: float, mean_abs_eta_gap: float, tol: float = 0.0
) -> bool:
    """Thm 2.7: err(ĥ) − L* ≤ 2·E|η − η̂| (+ ``tol`` for floating-point sums)."""
    for name, v in (("error", error), ("bayes_error", bayes_error), ("gap", mean_abs_eta_gap)):
        if not math.isfinite(v) or v < -tol:
            raise ValueError(f"{name}: must be a finite number >= 0, got {v!r}")
    return error - bayes_error <= 2.0 * mean_abs_eta_gap + tol


@dataclass(frozen=True)
class TrendResult:
    """Outcome of :func:`consistency_trend`."""

    holds: bool
    decreasing: bool
    below_tolerance: bool
    pvalue: float
    means: tuple[float, ...]
    alpha: float
    tolerance: float


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs)


def welch_greater_pvalue(a: Sequence[float], b: Sequence[float]) -> float:
    """One-sided Welch t-test p-value for H1: mean(a) > mean(b) (Welch–Satterthwaite df)."""
    na, nb = len(a), len(b)
    ma, mb = _mean(a), _mean(b)
    va = sum((x - ma) ** 2 for x in a) / (na - 1)
    vb = sum((x - mb) ** 2 for x in b) / (nb - 1)
    se2 = va / na + vb / nb
    if se2 == 0.0:
        return 0.0 if ma > mb else 1.0
    t = (ma - mb) / math.sqrt(se2)
    df = se2**2 / ((va / na) ** 2 / (na - 1) + (vb / nb) ** 2 / (nb - 1))
    return float(stats.t.sf(t, df))


def consistency_trend(
    values_by_n: Sequence[Sequence[float]], alpha: float = 1e-3, tolerance: float = 0.05
) -> TrendResult:
    """Does the error fall along the n-grid and end below ``tolerance``?

    ``values_by_n[i]`` are the errors (excess risk or L1 distance) of independent repetitions
    at the i-th (increasing) sample size. The trend holds when

    1. a one-sided Welch t-test rejects "mean at the largest n ≥ mean at the smallest n" at
       level ``alpha`` (false alarm — declaring a decrease when there is none — at most
       ``alpha`` under the test's normal approximation), and
    2. the mean at the largest n is ≤ ``tolerance``.

    Identical values at both ends (no spread beyond rounding) count as decreasing only if the
    last mean is strictly smaller.
    """
    if len(values_by_n) < 2:
        raise ValueError("values_by_n: need at least two sample sizes")
    if any(len(v) < 2 for v in values_by_n):
        raise ValueError("values_by_n: need at least two repetitions per sample size")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha: must be in (0, 1), got {alpha!r}")
    first, last = list(values_by_n[0]), list(values_by_n[-1])
    means = tuple(_mean(v) for v in values_by_n)

    def flat(xs: Sequence[float]) -> bool:  # spread at floating-point rounding level
        return max(xs) - min(xs) <= 1e-12 * max(1.0, abs(_mean(xs)))

    if flat(first) and flat(last):
        pvalue = 0.0 if means[-1] < means[0] else 1.0
    else:
        pvalue = welch_greater_pvalue(first, last)
    decreasing = pvalue < alpha
    below = means[-1] <= tolerance
    return TrendResult(decreasing and below, decreasing, below, pvalue, means, alpha, tolerance)
