"""Consistency guarantees as predicates: the plug-in bound and consistency *trends*.

* Seed 000 Thm 2.7 (``000_dff3c4dc97cf0e21.txt:L175``, proof App. B L600–620): for the plug-in
  rule ĥ(x) = 1[η̂(x) > ½], err(ĥ) − L* ≤ 2·E|η(X) − η̂(X)|. Exact identity behind it:
  err(ĥ) − L* = E[|2η(X) − 1|·1[ĥ(X) ≠ h*(X)]], and on {ĥ ≠ h*} we have |2η − 1| ≤ 2|η − η̂|.
* Universal consistency (Def 2.5, L163; Thm 3.2, 4.3, A.12, A.15) is a limit statement:
  E err(A_n) → L*. No finite experiment proves a limit, and the theorems give no rates, so the
  executable form is a *trend*: along an increasing n-grid the excess risk falls, decided by a
  stated test over every (n, repetition) value, and is below a stated tolerance at the largest
  n. Never a slope.

The trend test is Jonckheere–Terpstra's rank test for ordered alternatives, one-sided
(decreasing), with its **exact** null distribution: with groups of sizes n_1..n_k (the
repetitions at each n, in increasing n) and no ties, the statistic

    S = #{(a, b): a in group i, b in group j, i < j, a > b}

is the number of inversions of a uniformly random arrangement of the group labels when the
N = Σ n_i values are exchangeable (no trend), and its generating function is the q-multinomial
coefficient Π_j [n_1 + … + n_j choose n_j]_q. The p-value P₀(S ≥ s) is computed from those
integer coefficients exactly (Python ints). Ties count as no evidence (0 instead of ½), which
makes S stochastically smaller than the tie-broken statistic, so the test stays conservative
with ties. False alarm: P(p ≤ α) ≤ α for every α whenever the N values are exchangeable.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from scipy import stats

#: largest (number of values) × (largest S) for which the exact null law is computed; beyond
#: it the caller is refused (the cost is about this many integer operations).
JT_WORK_LIMIT = 4 * 10**7


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
    #: Jonckheere–Terpstra statistic S (pairs across sizes where the larger n has the smaller
    #: value) and its largest possible value Σ_{i<j} n_i n_j
    statistic: int = 0
    max_statistic: int = 0
    test: str = "Jonckheere-Terpstra exact one-sided (decreasing)"


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


def _times_one_minus_q_power(poly: list[int], a: int) -> list[int]:
    """poly(q)·(1 − q^a), coefficients lowest degree first."""
    out = [*poly, *([0] * a)]
    for d in range(len(poly)):
        out[d + a] -= poly[d]
    return out


def _over_one_minus_q_power(poly: list[int], b: int) -> list[int]:
    """poly(q)/(1 − q^b) when the division is exact (coefficients lowest degree first)."""
    out = list(poly)
    for d in range(b, len(out)):
        out[d] += out[d - b]
    # the quotient has degree len(poly) − 1 − b; its top b coefficients of ``out`` must vanish
    if any(out[len(out) - b :]):
        raise ArithmeticError("q-binomial: division by 1 - q^b is not exact")
    return out[: len(out) - b]


def q_binomial(total: int, r: int) -> list[int]:
    """Coefficients of the Gaussian binomial [total choose r]_q = Π_{i=1..r} (1 − q^{total−r+i})
    / (1 − q^i): c_s = the number of r-subsets of {1..total} whose Mann–Whitney count is s
    (exact integers; each partial product is itself a Gaussian binomial, so every division is
    exact)."""
    if not 0 <= r <= total:
        raise ValueError(f"r: must be in [0, {total}], got {r}")
    poly = [1]
    for i in range(1, r + 1):
        poly = _over_one_minus_q_power(_times_one_minus_q_power(poly, total - r + i), i)
    return poly


def jonckheere_null_counts(sizes: Sequence[int]) -> list[int]:
    """c_s = number of arrangements of the group labels (sizes n_1..n_k) with S = s, i.e. the
    coefficients of Π_j [n_1 + … + n_j choose n_j]_q; they sum to N!/(n_1!…n_k!)."""
    if any(int(n) < 1 for n in sizes):
        raise ValueError(f"sizes: every group needs >= 1 value, got {list(sizes)}")
    counts = [1]
    seen = 0
    for n in sizes:  # multiply by [seen + n choose n]_q one factor (1 − q^a)/(1 − q^i) at a time
        seen += int(n)
        for i in range(1, int(n) + 1):
            counts = _over_one_minus_q_power(_times_one_minus_q_power(counts, seen - n + i), i)
    return counts


def jonckheere_decreasing(values_by_n: Sequence[Sequence[float]]) -> tuple[int, int, float]:
    """(S, S_max, exact one-sided p-value P₀(S' ≥ S)) of Jonckheere–Terpstra's test for a
    decrease along the groups (module docstring). S counts strict decreases only."""
    groups = [[float(v) for v in g] for g in values_by_n]
    sizes = [len(g) for g in groups]
    n_total = sum(sizes)
    s_max = (n_total * n_total - sum(n * n for n in sizes)) // 2
    if n_total * max(s_max, 1) > JT_WORK_LIMIT:
        raise ValueError(
            f"values_by_n: {n_total} values across {len(sizes)} sizes exceed the exact "
            f"Jonckheere-Terpstra limit (values x pairs <= {JT_WORK_LIMIT:.0e}); use fewer "
            "repetitions"
        )
    s = 0
    for j in range(1, len(groups)):
        earlier = sorted(v for g in groups[:j] for v in g)
        for b in groups[j]:  # earlier values strictly greater than b
            lo, hi = 0, len(earlier)
            while lo < hi:
                mid = (lo + hi) // 2
                if earlier[mid] <= b:
                    lo = mid + 1
                else:
                    hi = mid
            s += len(earlier) - lo
    counts = jonckheere_null_counts(sizes)
    tail = sum(counts[s:])
    return s, s_max, float(Fraction(tail, sum(counts)))


def consistency_trend(
    values_by_n: Sequence[Sequence[float]], alpha: float = 1e-3, tolerance: float = 0.05
) -> TrendResult:
    """Does the error fall along the n-grid and end below ``tolerance``?

    ``values_by_n[i]`` are the errors (excess risk or L1 distance) of independent repetitions
    at the i-th (increasing) sample size. The trend holds when

    1. Jonckheere–Terpstra's exact one-sided test over **every** (n, repetition) value
       rejects "no trend" in favour of "decreasing in n" at level ``alpha``: p < ``alpha``.
       False alarm (declaring a decrease when the values are exchangeable, e.g. the error does
       not depend on n) at most ``alpha``, exactly, whatever the error's distribution; and
    2. the mean at the largest n is ≤ ``tolerance``.

    The smallest attainable p-value is n_1!…n_k!/N! (all values in decreasing order): 1/90 for
    three sizes × two repetitions, 2.7e-6 for four sizes × three.
    """
    if len(values_by_n) < 2:
        raise ValueError("values_by_n: need at least two sample sizes")
    if any(len(v) < 1 for v in values_by_n):
        raise ValueError("values_by_n: need at least one repetition per sample size")
    if any(not math.isfinite(float(x)) for v in values_by_n for x in v):
        raise ValueError("values_by_n: every value must be finite")
    if not (isinstance(alpha, int | float) and 0 < alpha < 1):
        raise ValueError(f"alpha: must be in (0, 1), got {alpha!r}")
    if not (isinstance(tolerance, int | float) and math.isfinite(tolerance) and tolerance >= 0):
        raise ValueError(f"tolerance: must be a finite number >= 0, got {tolerance!r}")
    means = tuple(_mean([float(x) for x in v]) for v in values_by_n)
    s, s_max, pvalue = jonckheere_decreasing(values_by_n)
    decreasing = pvalue < alpha
    below = means[-1] <= tolerance
    return TrendResult(
        decreasing and below, decreasing, below, pvalue, means, alpha, tolerance, s, s_max
    )
