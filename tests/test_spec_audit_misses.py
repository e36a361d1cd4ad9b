"""``dpspec.spec.audit.misses_acceptable``: the Poisson-binomial tail test the audit's
soundness obligations decide with, against scipy's binomial tail (equal levels) and an exact
rational recursion (unequal levels)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from scipy import stats

from dpspec.spec.audit import misses_acceptable


def _exact_tail(levels: list[Fraction], at_least: int) -> Fraction:
    dist = [Fraction(1)] + [Fraction(0)] * len(levels)
    for t, p in enumerate(levels):
        for j in range(t + 1, 0, -1):
            dist[j] = dist[j] * (1 - p) + dist[j - 1] * p
        dist[0] *= 1 - p
    return sum(dist[at_least:], Fraction(0))


@pytest.mark.parametrize(("n", "p"), [(200, 0.05), (1000, 0.01), (50, 0.3)])
def test_equal_levels_are_the_binomial_test(n: int, p: float) -> None:
    alpha = 1e-6
    for k in range(0, n + 1, max(1, n // 100)):
        tail = float(stats.binom.sf(k - 1, n, p))
        if abs(tail - alpha) < 1e-9:
            continue  # within float rounding of the cut
        assert misses_acceptable(k, [p] * n, alpha) == (tail >= alpha), k


def test_unequal_levels_against_exact_rationals() -> None:
    levels = [Fraction(1, d) for d in (3, 5, 7, 11, 13, 17, 19, 23, 29, 31)] * 3
    for k in range(len(levels) + 1):
        for alpha in (Fraction(1, 10), Fraction(1, 1000), Fraction(1, 10**6)):
            exact = _exact_tail(levels, k)
            if abs(exact - alpha) < Fraction(1, 10**12):
                continue
            got = misses_acceptable(k, [float(p) for p in levels], float(alpha))
            assert got == (exact >= alpha), (k, alpha)


def test_refuses_what_is_no_count_or_level() -> None:
    with pytest.raises(ValueError, match="missed"):
        misses_acceptable(-1, [0.1], 1e-6)
    with pytest.raises(ValueError, match="levels"):
        misses_acceptable(1, [1.5], 1e-6)
