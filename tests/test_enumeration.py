"""The enumerating generator: exact laws of toy samplers whose laws are known by hand, the
uses it follows (comparisons, shifts, table lookups, pinned values), the uses it refuses,
truncation, and the comparison with a stated law."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from dpspec import noise
from dpspec.proofs.engine.enumeration import EnumerationError, enumerate_law
from dpspec.proofs.engine.law_checks import compare_law
from dpspec.spec.laws import Interval, exp_neg_interval

WORD = 2**64


def test_a_comparison_with_a_64_bit_threshold_costs_two_runs() -> None:
    """u < T on a 64-bit word: P = T/2^64 exactly, from two classes."""
    t = 12345678901234567890

    def program(rng: np.random.Generator) -> bool:
        u = rng.integers(0, WORD, size=1, dtype=np.uint64)
        return bool((u < np.uint64(t))[0])

    law = enumerate_law(program)
    assert law.probabilities == {True: Fraction(t, WORD), False: 1 - Fraction(t, WORD)}
    assert law.truncated == 0 and law.runs <= 3


def test_table_lookup_after_a_shift_and_searchsorted_are_exact() -> None:
    """A guide-table lookup on the top 3 bits, then a comparison; and searchsorted: both give
    the law of the interval the word falls in."""
    edges = np.array([3, 100, 2**62, 2**63 + 5], dtype=np.uint64)

    def by_search(rng: np.random.Generator) -> int:
        u = rng.integers(0, WORD, size=1, dtype=np.uint64)
        return int(np.searchsorted(edges, u, side="right")[0])

    def by_guide(rng: np.random.Generator) -> int:
        u = rng.integers(0, WORD, size=1, dtype=np.uint64)
        top = np.take(np.arange(8) * 10, u >> np.uint64(61))
        return int(top[0]) + int((u >= np.uint64(2**63 + 5))[0])

    law = enumerate_law(by_search)
    widths = np.diff([0, *edges.tolist(), WORD]).tolist()
    assert law.probabilities == {k: Fraction(w, WORD) for k, w in enumerate(widths)}
    guide = enumerate_law(by_guide)
    assert guide.probabilities[40] == Fraction(5, WORD)
    assert guide.probabilities[41] == Fraction(2**61 - 5, WORD)
    assert sum(guide.probabilities.values()) == 1


def test_small_draws_used_by_value_are_pinned() -> None:
    """Arithmetic on a draw of range 6 splits it into its 6 values: the sum of two dice."""

    def dice(rng: np.random.Generator) -> int:
        return int(rng.integers(1, 7) + rng.integers(1, 7))

    law = enumerate_law(dice)
    assert law.probabilities == {s: Fraction(6 - abs(s - 7), 36) for s in range(2, 13)}


def test_loops_are_truncated_and_the_mass_is_reported() -> None:
    """A fair-coin geometric: every outcome exact, the cut mass exactly the rest."""

    def flips(rng: np.random.Generator) -> int:
        n = 0
        while rng.integers(0, 2) == 1:
            n += 1
        return n

    law = enumerate_law(flips, min_weight=Fraction(1, 2**20))  # no new draw below 2^-20
    assert law.probabilities == {g: Fraction(1, 2 ** (g + 1)) for g in range(21)}
    assert law.truncated == Fraction(1, 2**21) and law.total == 1


def test_uses_it_cannot_follow_are_refused() -> None:
    """Generator methods other than integers, raw bits, and large draws used by value."""
    with pytest.raises(EnumerationError, match="random"):
        enumerate_law(lambda rng: rng.random())
    with pytest.raises(EnumerationError, match="bit_generator"):
        enumerate_law(lambda rng: int(rng.bit_generator.random_raw()))
    with pytest.raises(EnumerationError, match="used by value"):
        enumerate_law(lambda rng: int(rng.integers(0, 2**40) % 3))
    with pytest.raises(EnumerationError, match="used by value"):
        enumerate_law(lambda rng: int(np.arange(2**20)[rng.integers(0, 2**20, size=1)][0]))
    small = enumerate_law(lambda rng: int(np.arange(5)[rng.integers(0, 5, size=1)][0]))
    assert small.probabilities == {i: Fraction(1, 5) for i in range(5)}  # pinned: 5 values


def test_a_sampler_that_is_not_a_function_of_its_draws_is_refused() -> None:
    state = {"calls": 0}

    def drifting(rng: np.random.Generator) -> int:
        state["calls"] += 1
        return int(rng.integers(0, 2 + state["calls"] % 2) == 0)

    with pytest.raises(EnumerationError, match="not a function of its draws"):
        enumerate_law(drifting)


def test_enumerated_geometric_law_is_exact() -> None:
    """noise.geometric at size 1: (1 − q)q^g for every g listed, and the comparison with a
    law off by 1/1000 says DIFFERENT."""
    q = Fraction(2, 5)
    law = enumerate_law(lambda rng: int(noise.geometric(q, 1, rng)[0]))
    good = compare_law("geometric", law, lambda g: (1 - q) * q ** int(g))  # type: ignore[call-overload]
    assert good.holds and law.truncated < Fraction(1, 2**40)
    off = q + Fraction(1, 1000)
    bad = compare_law("geometric", law, lambda g: (1 - off) * off ** int(g))  # type: ignore[call-overload]
    assert not bad.holds and bad.difference > Fraction(1, 2000)


def test_exp_neg_interval_encloses_and_is_narrow() -> None:
    for x in (Fraction(0), Fraction(1, 3), Fraction(1), Fraction(7, 2), Fraction(100)):
        iv = exp_neg_interval(x, 120)
        assert iv.lo <= iv.hi and iv.width < Fraction(1, 2**110)
        assert abs(float(iv.lo) - math.exp(-float(x))) <= 1e-15 * math.exp(-float(x)) + 2**-110
    # e^{-1} lies between consecutive partial sums of Σ(-1)^k/k!
    e1 = exp_neg_interval(Fraction(1), 64)
    partial = sum(Fraction((-1) ** k, math.factorial(k)) for k in range(30))
    assert e1.lo <= partial + Fraction(1, 10**30) and partial - Fraction(1, 10**30) <= e1.hi


def test_interval_arithmetic_rounds_outward() -> None:
    a, b = Interval(Fraction(1), Fraction(2)), Interval(Fraction(-1), Fraction(3))
    assert a * b == Interval(Fraction(-2), Fraction(6))
    assert (a - b) == Interval(Fraction(-2), Fraction(3))
    assert (1 / a) == Interval(Fraction(1, 2), Fraction(1))
    with pytest.raises(ZeroDivisionError):
        a / b
