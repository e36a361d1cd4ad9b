"""The threshold tables of the exact samplers: exact floors, the vectorised lookup against an
independent count, ties decided one word further down, the block and level samplers.

No statistical test here: every assertion is exact (Fractions or integer comparisons).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpspec import noise
from dpspec.noise._laws import (
    CumulativeLevels,
    GeometricLaw,
    LevelsLaw,
    TwoSidedLaw,
    TwoSidedSampler,
    WithinBlockSampler,
)
from dpspec.noise._reals import Ratio, exp_neg_bounds, floor_at
from dpspec.noise._tables import WORD, ThresholdTable, locate_lazily
from dpspec.spec.laws import exp_neg_interval, ipow

U64 = np.uint64


class Words(np.random.Generator):
    """A generator that hands out given 64-bit words (the refinement words of a tie)."""

    def __init__(self, words: list[int]) -> None:
        super().__init__(np.random.PCG64(0))
        self.words = list(words)

    def integers(self, low: Any, high: Any = None, size: Any = None, **kwargs: Any) -> Any:
        assert high == WORD and size == 1
        return np.array([self.words.pop(0)], dtype=U64)


def exact_floor(c: Fraction) -> tuple[int, bool]:
    scaled = c * WORD
    return math.floor(scaled), scaled.denominator == 1


@settings(max_examples=40, deadline=None)
@given(
    num=st.integers(min_value=1, max_value=97),
    den=st.integers(min_value=2, max_value=100),
    count=st.integers(min_value=1, max_value=40),
)
def test_rational_tables_hold_the_exact_floors(num: int, den: int, count: int) -> None:
    """For a rational base every floor and exactness flag equals ⌊2^64 c_k⌋ in Fractions."""
    if num >= den:
        num, den = den - 1, den
    q = Ratio(num, den, exp=False)
    for law in (GeometricLaw(q, count), TwoSidedLaw(q, 1, count), TwoSidedLaw(q, 3, count)):
        table = ThresholdTable.build(law)
        for k in range(law.count):
            value = law.exact(k)
            assert value is not None
            assert (int(table.floors[k]), bool(table.exact[k])) == exact_floor(value), (law, k)


def test_dyadic_thresholds_are_exact_and_never_refined() -> None:
    """q = 1/2: c_g = 1 − 2^-(g+1) is dyadic, so a word equal to its floor is decided."""
    table = ThresholdTable.build(GeometricLaw(Ratio(1, 2, exp=False), 20))
    assert table.exact.all()
    w = table.floors.copy()  # each word equal to a floor: c_k ≤ U, counted, no refinement
    k = table.locate(w, Words([]))
    assert k.tolist() == list(range(1, 21))


def test_vectorised_lookup_equals_an_independent_count() -> None:
    """Words at every floor ± 1, every bucket start, 0 and 2^64 − 1, and random ones: the
    lookup returns #{k : F_k ≤ w} wherever w is not a tie (searchsorted, independently)."""
    q = Ratio(1, 7, exp=True)  # scale 7: a table of ≈ 200 thresholds
    table = ThresholdTable.build(TwoSidedLaw(q, 1, 98))
    floors = [int(f) for f in table.floors]
    g = 64 - int(table.shift)
    words = {0, WORD - 1}
    for f in floors:
        words |= {max(f - 1, 0), min(f + 1, WORD - 1)}
    words |= {b << int(table.shift) for b in range(1 << g)}
    rng = np.random.default_rng(3)
    words |= set(rng.integers(0, WORD, size=5000, dtype=U64).tolist())
    w = np.array(sorted(words - set(floors)), dtype=U64)
    got = table.locate(w, Words([]))
    assert got.tolist() == np.searchsorted(table.floors, w, side="right").tolist()


def test_ties_are_decided_by_the_next_words() -> None:
    """A first word equal to an inexact floor F_k: c_k ≤ U iff the next word exceeds (or
    equals, then one further) the next 64 bits of c_k — checked against exact bounds."""
    q = Ratio(1, 3, exp=True)
    table = ThresholdTable.build(GeometricLaw(q, 30))
    for k in (0, 5, 17):
        f = int(table.floors[k])
        bits = 256
        lo, hi = table.law.bounds(k, bits)
        digit = floor_at((lo, hi), bits, 128)
        assert digit is not None
        second = digit[0] - (f << 64)  # the next 64 binary digits of c_k
        w = np.array([f], dtype=U64)
        assert table.locate(w, Words([second + 1]))[0] == k + 1  # U above c_k
        assert table.locate(w, Words([second - 1]))[0] == k  # U below c_k


def test_exp_neg_bounds_enclose_and_tighten() -> None:
    for n, d in ((0, 1), (1, 3), (7, 2), (100, 3), (2**31, 2**32)):
        lo, hi = exp_neg_bounds(n, d, 96)
        assert lo <= hi <= lo + 8
        assert abs(lo / 2**96 - math.exp(-n / d)) <= 2**-90
    assert exp_neg_bounds(10**6, 1, 64) == (0, 1)


def test_block_sampler_maps_blocks_and_positions() -> None:
    """Block path: every draw is jB + r or jB + B − 1 − r; the within-block mixture's uniform
    part is below B·min P(r) (rigorously), so the residual weights are positive."""
    q = Ratio(1, 5000, exp=True)
    sampler = TwoSidedSampler(q)
    assert sampler.block > 1 and isinstance(sampler.within, WithinBlockSampler)
    within = sampler.within
    e = exp_neg_interval(Fraction(1, 5000), 256)  # e^{-1/5000}, independently of dpspec.noise
    smallest = ipow(e, within.block - 1) * (1 - e) / (1 - ipow(e, within.block))
    assert Fraction(within.uniform, WORD) < within.block * smallest.lo
    z = sampler.sample(20000, np.random.default_rng(1))
    assert z.dtype == np.int64 and abs(float(np.median(z))) < 200


def test_levels_and_lazy_levels_agree_floor_by_floor() -> None:
    """The lazily computed floors of CumulativeLevels equal the table's, and binary search
    returns the table's outcome for random words."""
    q = Ratio(3, 5, exp=False)
    gaps, counts = [0, 1, 2, 5, 9, 40, 41], [1, 2, 1, 3, 1, 7, 2]
    table = ThresholdTable.build(LevelsLaw(q, gaps, counts))
    lazy = CumulativeLevels(q, gaps, counts)
    assert [lazy.floor(k)[0] for k in range(lazy.count)] == [int(f) for f in table.floors]
    w = np.random.default_rng(2).integers(0, WORD, size=3000, dtype=U64)
    assert locate_lazily(lazy, w, Words([])).tolist() == table.locate(w, Words([])).tolist()


def test_one_level_is_always_drawn() -> None:
    """A single level has no threshold: its index is 0 for every word (a bug found by the
    enumeration of the exponential median)."""
    lazy = CumulativeLevels(Ratio(1, 2, exp=False), [0], [5])
    w = np.array([0, 2**63, WORD - 1], dtype=U64)
    assert locate_lazily(lazy, w, Words([])).tolist() == [0, 0, 0]


def test_many_distinct_exponents_take_the_series() -> None:
    """More than MAX_THRESHOLD_TABLES distinct exponents: the alternating series; the mean of
    Bernoulli(e^{-a/d}) over a = 0..N−1 is exactly Σ e^{-a/d}/N in law (a loose check of the
    wiring; the series' law is enumerated by the registry)."""
    n = noise.MAX_THRESHOLD_TABLES + 1
    a = np.repeat(np.arange(n, dtype=np.int64), 40)
    out = noise.bernoulli_exp_neg(a, n, np.random.default_rng(4))
    expected = float(np.mean(np.exp(-np.arange(n) / n)))
    assert abs(float(out.mean()) - expected) < 0.01  # sd ≈ 0.0011: 9 sd


def test_categorical_levels_validate_their_inputs() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match=r"^gaps:"):
        noise.categorical_exp_levels([1, 0], [1, 1], 1, 2, 3, rng)
    with pytest.raises(ValueError, match=r"^counts:"):
        noise.categorical_exp_levels([0, 1], [1, 0], 1, 2, 3, rng)
    with pytest.raises(ValueError, match=r"^num:"):
        noise.categorical_exp_levels([0, 1], [1, 1], 0, 2, 3, rng)
    assert noise.categorical_exp_levels([0], [3], 1, 2, 4, rng).tolist() == [0, 0, 0, 0]


def test_median_runs_by_scan_and_sorted_agree() -> None:
    """The two ways ExponentialMedian maps (level, offset) to a grid point — a scan for few
    answers, one sort for many — agree on every (gap, offset) of random data."""
    from dpspec.rectangles.interior_point import _RunIndex as RunIndex
    from dpspec.rectangles.interior_point import _score_runs as score_runs

    rng = np.random.default_rng(7)
    for _ in range(20):
        values = rng.integers(0, 60, size=int(rng.integers(1, 25)))
        starts, lengths, scores = score_runs(values)
        gaps = int(scores.max()) - scores
        index = RunIndex(starts, lengths, gaps)
        pairs = [
            (g, o) for g in np.unique(gaps).tolist() for o in range(int(lengths[gaps == g].sum()))
        ]
        g = np.array([p[0] for p in pairs], dtype=np.int64)
        o = np.array([p[1] for p in pairs], dtype=np.int64)
        by_scan, by_sort = index.points_by_scan(g, o), index.points_sorted(g, o)
        assert by_scan.tolist() == by_sort.tolist()
        assert sorted(by_scan.tolist()) == sorted(set(by_scan.tolist()))  # each point once


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 60 * 7), st.sampled_from([1, 2, 3, 7, 10, 2**32]))
def test_bernoulli_floor_is_the_table_entry(n: int, d: int) -> None:
    """The floor the Bernoulli sampler compares with (shortcut for γ ≥ 45 included) is the
    entry a one-threshold table stores, and ⌊2^64 e^{−γ}⌋ from an independent interval."""
    from dpspec.noise._laws import SingleThreshold, bernoulli_floor

    q = Ratio(n, d, exp=True)
    table = ThresholdTable.build(SingleThreshold(q))
    assert bernoulli_floor(q) == (int(table.floors[0]), bool(table.exact[0]))
    c = exp_neg_interval(Fraction(n, d), 200)
    assert math.floor(c.lo * 2**64) == math.floor(c.hi * 2**64) == bernoulli_floor(q)[0]


def test_bernoulli_floor_around_64_ln_2() -> None:
    """e^{−γ}·2^64 falls below 1 at γ = 64·ln 2 ≈ 44.3614: floor 1 just below, 0 above."""
    from dpspec.noise._laws import NEGLIGIBLE_RATE, bernoulli_floor

    assert math.exp(-NEGLIGIBLE_RATE) * 2**64 < 1
    assert bernoulli_floor(Ratio(44, 1, exp=True)) == (1, False)
    assert bernoulli_floor(Ratio(4436, 100, exp=True)) == (1, False)
    assert bernoulli_floor(Ratio(4437, 100, exp=True)) == (0, False)
    assert bernoulli_floor(Ratio(45, 1, exp=True)) == (0, False)


@pytest.mark.parametrize(
    ("q", "block"),
    [
        (Ratio(1, 1, exp=True), 2),
        (Ratio(1, 7, exp=True), 4),
        (Ratio(2, 3, exp=True), 8),
        (Ratio(1, 3000, exp=True), 1024),
        (Ratio(1, 3 * 2**16, exp=True), 2**16),
        (Ratio(999, 1000, exp=False), 64),
    ],
)
def test_residual_bounds_enclose_the_thresholds(q: Ratio, block: int) -> None:
    """The division-free residual bounds of the table enclose every threshold they are read
    for: at three precisions they meet the per-threshold bounds (the composed steps of
    ``bounds``, 64 bits finer), contain the exact value where it is rational, and are at most
    2 units wide."""
    from dpspec.noise._laws import ResidualLaw, WithinBlockSampler

    law = ResidualLaw(q, block, WithinBlockSampler(q, block).uniform)
    for bits in (64, 128, 200):
        fast = law.all_bounds(bits)
        assert len(fast) == law.count
        for k in sorted({*range(0, law.count, max(1, law.count // 40)), law.count - 1}):
            lo, hi = fast[k]
            fine = law.bounds(k, bits + 64)
            assert lo << 64 <= fine[1] and fine[0] <= hi << 64, (bits, k)
            assert 0 <= hi - lo <= 2, (bits, k)
            exact = law.exact(k)
            if exact is not None:
                assert lo <= exact * 2**bits <= hi, (bits, k)


class _GivenFloors:
    """A law whose thresholds are given floors, exact at 2^-64 (for the table's own checks)."""

    def __init__(self, floors: list[int]) -> None:
        self.floors = floors

    @property
    def count(self) -> int:
        return len(self.floors)

    def bounds(self, k: int, bits: int) -> tuple[int, int]:
        return self.floors[k] << (bits - 64), self.floors[k] << (bits - 64)

    def all_bounds(self, bits: int) -> list[tuple[int, int]]:
        return [self.bounds(k, bits) for k in range(self.count)]

    def exact(self, k: int) -> Fraction | None:
        return Fraction(self.floors[k], 2**64)


@pytest.mark.parametrize("floors", [[5, 3], [-1], [2**64], [0, 2**64]])
def test_a_table_refuses_thresholds_out_of_order_or_outside_the_unit_interval(
    floors: list[int],
) -> None:
    from dpspec.noise._tables import ThresholdTable

    with pytest.raises(ValueError, match="non-decreasing and inside"):
        ThresholdTable.build(_GivenFloors(floors))
    ThresholdTable.build(_GivenFloors(sorted(f for f in floors if 0 <= f < 2**64)))
