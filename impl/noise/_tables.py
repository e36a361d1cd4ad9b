"""Inverse-CDF tables on 64-bit words, exact by refinement.

A discrete law with outcomes 0, 1, …, K is given by its thresholds 0 < c_0 ≤ … ≤ c_{K−1} < 1
(c_k = P(outcome ≤ k)). With U uniform on [0, 1), the outcome #{k : c_k ≤ U} has exactly this
law. U is drawn lazily, 64 bits at a time: U = (w + V)/2^64 with w the first word and V ∈ [0, 1)
the rest. With F_k = ⌊2^64 c_k⌋ (exact integers, computed from rigorous bounds):

* F_k < w ⇒ c_k < (F_k + 1)/2^64 ≤ U: counted;  F_k > w ⇒ c_k ≥ F_k/2^64 > U: not counted;
* F_k = w: counted if 2^64 c_k = F_k exactly; otherwise undecided — c_k ≤ U iff
  2^64 c_k − F_k ≤ V, the same question one word further down, asked with the next 64 binary
  digits of c_k (:func:`count_at_or_below`).

So the outcome is #{k : F_k ≤ w}, corrected on the draws that equal an inexact F_k (probability
≤ K·2^-64 each): the law is exactly the stated one, not an approximation of it. The count is
found with a *guide table* on the top g bits of w (the number of F_k at or below the start of
each of the 2^g buckets, 2^g ≥ 2K) and one comparison F_k ≤ w; the few words past a
threshold inside their bucket are placed by a search.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from dpspec.noise._reals import Bounds, floor_at

WORD = 1 << 64
U64 = np.uint64
#: Words one decision may draw: the last is reached with probability ≤ K·2^(−64·(levels − 1)).
MAX_LEVELS = 32
#: Largest guide table: 2^18 buckets.
MAX_GUIDE_BITS = 18


class CdfLaw(Protocol):
    """The thresholds of a law: ``count`` = K, rigorous bounds on 2^bits·c_k one at a time
    (any precision) and all at once (one precision, iteratively), and c_k exactly when it is
    rational (None otherwise)."""

    @property
    def count(self) -> int: ...

    def bounds(self, k: int, bits: int) -> Bounds: ...

    def all_bounds(self, bits: int) -> list[Bounds]: ...

    def exact(self, k: int) -> Fraction | None: ...


def threshold_floor(law: CdfLaw, k: int, level: int) -> tuple[int, bool]:
    """(⌊2^{64·level}·c_k⌋, whether 2^{64·level}·c_k is an integer), exactly: the bounds are
    refined until they determine the floor; a rational c_k the bounds cannot separate from an
    integer is decided with Fractions."""
    target = 64 * level
    bits = target + 64
    while bits <= 64 * (MAX_LEVELS + 4):
        b = law.bounds(k, bits)
        found = floor_at(b, bits, target)
        if found is not None:
            return found
        top = 1 << target
        if b[1] >> (bits - target) >= top and b[0] >> (bits - target) >= top - 1:
            return top - 1, False  # c < 1 (every law's last outcome has positive mass)
        bits *= 2
    value = law.exact(k)
    if value is None:
        raise RuntimeError(f"threshold {k}: its bounds do not determine ⌊2^{target}·c⌋")
    scaled = value * 2**target
    return math.floor(scaled), scaled.denominator == 1


#: Precision (bits) of the bounds a table's floors are first read from.
TABLE_BITS = 128


def first_floor(law: CdfLaw, k: int, b: Bounds) -> tuple[int, bool]:
    """(F_k, whether 2^64·c_k = F_k) from bounds ``b`` on 2^TABLE_BITS·c_k, refined by
    :func:`threshold_floor` when they do not determine the floor."""
    found = floor_at(b, TABLE_BITS, 64)
    if found is None and b[1] >> 64 >= WORD and b[0] >> 64 >= WORD - 1:
        found = WORD - 1, False  # c < 1: its floor is 2^64 − 1 (inexact is safe)
    if found is None:
        found = threshold_floor(law, k, 1)
    return found


def count_at_or_below(
    law: CdfLaw, group: Sequence[int], prefix: int, rng: np.random.Generator, level: int = 2
) -> int:
    """#{k ∈ group : c_k ≤ U} given that the first level − 1 words of U and of every c_k in
    ``group`` agree (they equal ``prefix``, the floor of 2^{64(level−1)}·c_k), each c_k not
    yet decided: draws the next words of U and compares them with the next digits of the c_k.
    """
    counted = 0
    group = list(group)
    while group:
        if level > MAX_LEVELS:
            raise RuntimeError(
                f"undecided after {MAX_LEVELS} words (probability below 2^-{64 * (level - 2)})"
            )
        digits, exact = [], []
        for k in group:
            floor, is_exact = threshold_floor(law, k, level)
            digits.append(floor - (prefix << 64))
            exact.append(is_exact)
        d = np.array(digits, dtype=U64)
        w = rng.integers(0, WORD, size=1, dtype=U64)
        below = np.asarray(d < w)
        tied = np.asarray(d == w)
        counted += int(np.count_nonzero(below))
        counted += sum(1 for i in np.flatnonzero(tied).tolist() if exact[i])
        nxt = [(group[i], digits[i]) for i in np.flatnonzero(tied).tolist() if not exact[i]]
        group = [k for k, _ in nxt]
        prefix = (prefix << 64) + (nxt[0][1] if nxt else 0)
        level += 1
    return counted


@dataclass(eq=False)
class ThresholdTable:
    """The exact floors F_k = ⌊2^64 c_k⌋ of a :class:`CdfLaw` with its guide table."""

    law: CdfLaw
    floors: NDArray[np.uint64]  # F_0 ≤ … ≤ F_{K−1}
    exact: NDArray[np.bool_]  # 2^64 c_k = F_k
    below: NDArray[np.uint64]  # F_k − 1 (read only where F_k ≥ 1), then 2^64 − 1
    guide: NDArray[np.intp]  # guide[b] = #{k : F_k ≤ b·2^shift}
    shift: np.uint64
    start_ties: bool  # some F_k equals a bucket start (then every word is checked for ties)

    @classmethod
    def build(cls, law: CdfLaw) -> ThresholdTable:
        count = law.count
        floors, exact = [], []
        drop = TABLE_BITS - 64
        rest = (1 << drop) - 1
        for k, (lo, hi) in enumerate(law.all_bounds(TABLE_BITS)):
            floor = lo >> drop
            if floor == hi >> drop:  # the common case of first_floor (floor_at), inlined
                is_exact = lo == hi and not lo & rest
            else:
                floor, is_exact = first_floor(law, k, (lo, hi))
            floors.append(floor)
            exact.append(is_exact)
        inside = not floors or (min(floors) >= 0 and max(floors) < WORD)
        table = np.array(floors if inside else [], dtype=U64)
        if not inside or np.any(table[1:] < table[:-1]):
            raise ValueError("law: thresholds must be non-decreasing and inside [0, 1)")
        # 2^g ≥ 2K buckets (≥ 8K for large tables, whose lookups are costlier past a bucket)
        g = min(MAX_GUIDE_BITS, max(1, (count + 1).bit_length() + (1 if count < 1024 else 3)))
        shift = 64 - g
        starts = np.arange(1 << g, dtype=U64) << U64(shift)
        guide = np.searchsorted(table, starts, side="right").astype(np.intp)
        below = np.append(table - U64(1), U64(WORD - 1))  # F_k = 0 wraps: never read
        # a bucket start equal to some F_k: the F just at or below each start (guide − 1)
        hit = guide > 0
        start_ties = bool(np.any(table[guide[hit] - 1] == starts[hit]))
        return cls(
            law, table, np.array(exact, dtype=np.bool_), below, guide, U64(shift), start_ties
        )

    @property
    def count(self) -> int:
        return int(self.floors.size)

    def locate(self, w: NDArray[np.uint64], rng: np.random.Generator) -> NDArray[np.intp]:
        """The outcome #{k : c_k ≤ U} for each first word w of U (further words from ``rng``
        on the draws whose first word equals an inexact F_k)."""
        k = self.guide[(w >> self.shift).view(np.intp)]  # < 2^18: a view, no copy
        idx = (self.below[k] < w).nonzero()[0]  # F_k ≤ w: past the bucket's start
        if idx.size:
            k[idx] = np.searchsorted(self.floors, w[idx], side="right")
        # a tie w = F_{k−1}: among the words not past their bucket's start (F_{k−1} ≤ start ≤ w)
        # only when w is a bucket start equal to some F (start_ties); else among the others
        ties = (
            (self.floors[k - 1] == w).nonzero()[0]
            if self.start_ties
            else idx[self.floors[k[idx] - 1] == w[idx]]
        )
        for i in ties.tolist():
            k[i] = self.refine(int(k[i]), rng)
        return k

    def refine(self, count: int, rng: np.random.Generator) -> int:
        """The outcome for a first word w equal to F_{count−1}: the thresholds with that floor
        that are inexact are decided one word further down."""
        value = int(self.floors[count - 1])
        first = int(np.searchsorted(self.floors, U64(value), side="left"))
        undecided = [j for j in range(first, count) if not self.exact[j]]
        return count - len(undecided) + count_at_or_below(self.law, undecided, value, rng)


def sample_words(rng: np.random.Generator, size: int) -> NDArray[np.uint64]:
    """``size`` uniform 64-bit words (the first words of the uniforms U)."""
    words: NDArray[np.uint64] = rng.integers(0, WORD, size=size, dtype=U64)
    return words


def locate_fresh(table: ThresholdTable, size: int, rng: np.random.Generator) -> NDArray[np.intp]:
    """``size`` independent outcomes of the table's law."""
    return table.locate(sample_words(rng, size), rng)


class LazyFloors(Protocol):
    """A law whose floors F_k = ⌊2^64 c_k⌋ are computed when asked (``floor(k)`` → (F_k,
    exact)), for laws with many thresholds and few draws."""

    @property
    def count(self) -> int: ...

    def floor(self, k: int) -> tuple[int, bool]: ...

    def bounds(self, k: int, bits: int) -> Bounds: ...

    def all_bounds(self, bits: int) -> list[Bounds]: ...

    def exact(self, k: int) -> Fraction | None: ...


def locate_lazily(
    law: LazyFloors, w: NDArray[np.uint64], rng: np.random.Generator
) -> NDArray[np.intp]:
    """#{k : c_k ≤ U} for each first word w by binary search over the floors (each computed
    once, when a search first needs it), with the same refinement of ties as a table."""
    n = int(w.shape[0])
    lo = np.zeros(n, dtype=np.intp)
    hi = np.full(n, law.count, dtype=np.intp)
    active = np.flatnonzero(lo < hi)
    while active.size:  # at most ⌈log2(K + 1)⌉ rounds
        mid = (lo[active] + hi[active]) // 2
        f = np.array([law.floor(m)[0] for m in mid.tolist()], dtype=U64)
        le = np.asarray(f <= w[active])  # F_mid ≤ w: the count is above mid
        lo[active[le]] = mid[le] + 1
        hi[active[~le]] = mid[~le]
        active = active[lo[active] < hi[active]]
    counted = np.flatnonzero(lo > 0)
    previous = np.array([law.floor(int(c) - 1)[0] for c in lo[counted].tolist()], dtype=U64)
    for i in counted[np.asarray(previous == w[counted])].tolist():
        count = int(lo[i])
        value = law.floor(count - 1)[0]
        first = count - 1
        while first > 0 and law.floor(first - 1)[0] == value:
            first -= 1
        undecided = [j for j in range(first, count) if not law.floor(j)[1]]
        lo[i] = count - len(undecided) + count_at_or_below(law, undecided, value, rng)
    return lo
