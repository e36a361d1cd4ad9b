"""The exact discrete laws of dpspec as threshold tables, and their samplers.

Every law here has outcome probabilities built from one factor Q (a :class:`Ratio`: a rational
base q, or e^{−1/scale} for a rational scale), so all its thresholds c_k are sums and quotients
of powers of Q, bounded rigorously by :mod:`dpspec.noise._reals`:

* :class:`GeometricLaw` — P(G = g) = (1 − Q)Q^g, outcomes 0..K−1 and "G ≥ K":
  c_g = 1 − Q^{g+1}. G ≥ K continues as K + G' with G' of the same law (memoryless);
* :class:`TruncatedGeometricLaw` — P(R = r) ∝ Q^r on {0..B−1}: c_r = (1 − Q^{r+1})/(1 − Q^B);
* :class:`TwoSidedLaw` — the block J = ⌊Z/B⌋ of the two-sided law P(Z = z) ∝ Q^{|z|}
  (B = 1: Z itself), blocks −K..K and the two tails: with R = Q^B,
  P(J ≤ j) = Q·R^{|j|−1}/(1 + Q) for j < 0 and 1 − R^{j+1}/(1 + Q) for j ≥ 0. Given J = j ≥ 0,
  Z = jB + r with r ∝ Q^r on {0..B−1}; given j < 0, Z = jB + B − 1 − r with the same r (so
  |Z| = (|j| − 1)B + 1 + r); past ±K, |J| − K − 1 is geometric with factor R (memoryless);
* :class:`LevelsLaw` — a categorical law over levels of weight count_i·Q^{gap_i} (the
  exponential mechanism, randomized response, the exponential median): c_k = Σ_{i≤k} w_i/Σ w.

A law of scale up to ``direct_scale`` gets a table of its values; a larger one is split into
blocks of B = 2^m values (block scale ≤ ``block_scale``), one table for the block and one for
the position inside it — Z = JB + R with J and R independent, exactly (the weights factor as
Q^{jB}·Q^r). :class:`TablePolicy` holds these sizes; the exactness never depends on them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache

import numpy as np
from numpy.typing import NDArray

from dpspec.noise._reals import GUARD, Bounds, Ratio, div, mul, rescale
from dpspec.noise._tables import (
    TABLE_BITS,
    WORD,
    ThresholdTable,
    first_floor,
    locate_fresh,
    locate_lazily,
    sample_words,
    threshold_floor,
)

#: Largest |value| a two-sided or geometric draw may reach before the sampler refuses to wrap
#: int64 around (reached with probability below e^{−2^40} at the largest scales accepted).
VALUE_BOUND = 2**62


@dataclass(frozen=True)
class TablePolicy:
    """Table sizes: laws of scale ≤ ``direct_scale`` are tabulated value by value; larger
    ones in blocks of B = 2^m ≤ ``max_block`` values whose block scale is ≤ ``block_scale``;
    a table covers all but e^{−tail_nats} of the mass on each side (the rest by recursion),
    with at most ``max_half`` entries per side."""

    direct_scale: float = 512.0
    block_scale: float = 16.0
    tail_nats: float = 14.0
    max_block: int = 2**16
    max_half: int = 2**13


DEFAULT_POLICY = TablePolicy()


def _one(bits: int) -> Bounds:
    return 1 << bits, 1 << bits


def _complement(a: Bounds, bits: int) -> Bounds:
    """Bounds on 1 − x."""
    one = 1 << bits
    return one - a[1], one - a[0]


class GeometricLaw:
    """P(G = g) = (1 − Q)Q^g: thresholds c_g = 1 − Q^{g+1} for g < K (outcome K: G ≥ K)."""

    def __init__(self, q: Ratio, count: int) -> None:
        self.q, self._count = q, count

    @property
    def count(self) -> int:
        return self._count

    def bounds(self, k: int, bits: int) -> Bounds:
        work = bits + GUARD
        return rescale(_complement(self.q.to(k + 1).bounds(work), work), work, bits)

    def all_bounds(self, bits: int) -> list[Bounds]:
        work = bits + GUARD + self._count.bit_length()
        q = self.q.bounds(work)
        p, out = q, []
        for _ in range(self._count):
            out.append(rescale(_complement(p, work), work, bits))
            p = mul(p, q, work)
        return out

    def exact(self, k: int) -> Fraction | None:
        q = self.q.exact()
        return None if q is None else 1 - q ** (k + 1)


class TruncatedGeometricLaw:
    """P(R = r) ∝ Q^r on {0..B−1}: c_r = (1 − Q^{r+1})/(1 − Q^B), r = 0..B−2."""

    def __init__(self, q: Ratio, block: int) -> None:
        self.q, self.block = q, block

    @property
    def count(self) -> int:
        return self.block - 1

    def bounds(self, k: int, bits: int) -> Bounds:
        work = bits + GUARD
        top = _complement(self.q.to(k + 1).bounds(work), work)
        total = _complement(self.q.to(self.block).bounds(work), work)
        return rescale(div(top, total, work), work, bits)

    def all_bounds(self, bits: int) -> list[Bounds]:
        work = bits + GUARD + self.block.bit_length()
        q = self.q.bounds(work)
        total = _complement(self.q.to(self.block).bounds(work), work)
        p, out = q, []
        for _ in range(self.count):
            out.append(rescale(div(_complement(p, work), total, work), work, bits))
            p = mul(p, q, work)
        return out

    def exact(self, k: int) -> Fraction | None:
        q = self.q.exact()
        return None if q is None else (1 - q ** (k + 1)) / (1 - q**self.block)


class TwoSidedLaw:
    """The block J of the two-sided law (module docstring): outcome 0 = J < −K, outcome i =
    block i − K − 1 for i = 1..2K+1, outcome 2K+2 = J > K; threshold i = P(J ≤ i − K − 1)."""

    def __init__(self, q: Ratio, block: int, half: int) -> None:
        self.q, self.block, self.half = q, block, half
        self.r = q.to(block)

    @property
    def count(self) -> int:
        return 2 * self.half + 2

    def _parts(self, work: int) -> tuple[Bounds, Bounds]:
        """Bounds on Q/(1 + Q) and 1/(1 + Q)."""
        q = self.q.bounds(work)
        one = 1 << work
        plus = (one + q[0], one + q[1])
        return div(q, plus, work), div(_one(work), plus, work)

    def bounds(self, k: int, bits: int) -> Bounds:
        work = bits + GUARD
        left, right = self._parts(work)
        j = k - self.half - 1
        if j < 0:
            return rescale(
                mul(left, self.r.to(-j - 1).bounds(work) if j < -1 else _one(work), work),
                work,
                bits,
            )
        tail = mul(right, self.r.to(j + 1).bounds(work), work)
        return rescale(_complement(tail, work), work, bits)

    def all_bounds(self, bits: int) -> list[Bounds]:
        work = bits + GUARD + self.half.bit_length() + 1
        left, right = self._parts(work)
        r = self.r.bounds(work)
        powers = [_one(work)]
        for _ in range(self.half + 1):
            powers.append(mul(powers[-1], r, work))
        out = [
            rescale(mul(left, powers[self.half - i], work), work, bits)
            for i in range(self.half + 1)
        ]
        out += [
            rescale(_complement(mul(right, powers[j + 1], work), work), work, bits)
            for j in range(self.half + 1)
        ]
        return out

    def exact(self, k: int) -> Fraction | None:
        q = self.q.exact()
        if q is None:
            return None
        r, j = q**self.block, k - self.half - 1
        return q * r ** (-j - 1) / (1 + q) if j < 0 else 1 - r ** (j + 1) / (1 + q)


class LevelsLaw:
    """Levels i = 0..L−1 of weight w_i = counts_i·Q^{gaps_i} (gaps increasing): thresholds
    c_k = Σ_{i≤k} w_i / Σ_i w_i, k = 0..L−2."""

    def __init__(self, q: Ratio, gaps: Sequence[int], counts: Sequence[int]) -> None:
        if len(gaps) != len(counts) or not gaps:
            raise ValueError("gaps: one count per level, at least one level")
        self.q, self.gaps, self.counts = q, list(gaps), list(counts)

    @property
    def count(self) -> int:
        return len(self.gaps) - 1

    def _weights(self, work: int) -> list[Bounds]:
        """Bounds on every w_i at precision ``work``: Q^{gap} by steps Q^{Δgap} (each step's
        factor bounded once per distinct Δ)."""
        steps: dict[int, Bounds] = {}
        power: Bounds = _one(work) if self.gaps[0] == 0 else self.q.to(self.gaps[0]).bounds(work)
        out = []
        previous = self.gaps[0]
        for gap, count in zip(self.gaps, self.counts, strict=True):
            if gap != previous:
                delta = gap - previous
                if delta not in steps:
                    steps[delta] = self.q.to(delta).bounds(work)
                power = mul(power, steps[delta], work)
                previous = gap
            out.append((power[0] * count, power[1] * count))
        return out

    def all_bounds(self, bits: int) -> list[Bounds]:
        work = bits + GUARD + 2 * len(self.gaps).bit_length()
        weights = self._weights(work)
        total = (sum(w[0] for w in weights), sum(w[1] for w in weights))
        out, lo, hi = [], 0, 0
        for w in weights[:-1]:
            lo, hi = lo + w[0], hi + w[1]
            # c = S/(S + T) with S the head and T the rest: increasing in S, decreasing in T
            rest = (total[0] - hi, total[1] - lo)
            out.append(rescale(_ratio_of_parts((lo, hi), rest, work), work, bits))
        return out

    def bounds(self, k: int, bits: int) -> Bounds:
        work = bits + GUARD + 2 * len(self.gaps).bit_length()
        weights = [
            (c * p[0], c * p[1])
            for c, p in (
                (c, self.q.to(g).bounds(work) if g else _one(work))
                for g, c in zip(self.gaps, self.counts, strict=True)
            )
        ]
        head = (sum(w[0] for w in weights[: k + 1]), sum(w[1] for w in weights[: k + 1]))
        rest = (sum(w[0] for w in weights[k + 1 :]), sum(w[1] for w in weights[k + 1 :]))
        return rescale(_ratio_of_parts(head, rest, work), work, bits)

    def exact(self, k: int) -> Fraction | None:
        q = self.q.exact()
        if q is None or max(self.gaps) > 2**14:
            return None
        w = [c * q**g for g, c in zip(self.gaps, self.counts, strict=True)]
        return sum(w[: k + 1], Fraction(0)) / sum(w, Fraction(0))


class ResidualLaw:
    """What is left of P(R = r) = Q^r(1 − Q)/(1 − Q^B) on {0..B−1} after a uniform part of
    mass u = M/2^64: P'(r) = (P(r) − u/B)/(1 − u) ≥ 0, thresholds
    c'_r = (c_r − (r + 1)u/B)/(1 − u) with c_r = (1 − Q^{r+1})/(1 − Q^B), r = 0..B−2."""

    def __init__(self, q: Ratio, block: int, uniform: int) -> None:
        self.q, self.block, self.uniform = q, block, uniform
        self.inner = TruncatedGeometricLaw(q, block)

    @property
    def count(self) -> int:
        return self.block - 1

    def _shift(self, c: Bounds, r: int, work: int) -> Bounds:
        # (c − (r + 1)·M/(B·2^64)) / (1 − M/2^64) with M/B an integer
        step = ((r + 1) * (self.uniform // self.block)) << (work - 64)
        keep = (1 << work) - (self.uniform << (work - 64))
        return div((max(c[0] - step, 0), max(c[1] - step, 0)), (keep, keep), work)

    def bounds(self, k: int, bits: int) -> Bounds:
        work = bits + GUARD
        return rescale(self._shift(self.inner.bounds(k, work), k, work), work, bits)

    def all_bounds(self, bits: int) -> list[Bounds]:
        """All thresholds in one loop without a division: with D = (1 − Q^B)(1 − u) and
        u/B = m/2^64 (m = M/B, an integer),

            2^bits·c'_r = (1 − Q^{r+1})·(2^bits/D) − (r + 1)·2^bits·m/(2^64 − M),

        a product by a constant and a multiple of a constant. Both constants are bounded once
        (outward, from bounds on 1 − Q^B), Q^{r+1} step by step as in
        :meth:`TruncatedGeometricLaw.all_bounds`, and each side rounded outward, so every pair
        encloses 2^bits·c'_r (clamped at 0, like :meth:`bounds`)."""
        inner = bits + GUARD + self.block.bit_length()  # the powers' precision
        total = inner + GUARD  # the fraction bits of the products below
        one = 1 << inner
        q0, q1 = self.q.bounds(inner)
        power = self.q.to(self.block).bounds(inner)
        low_total, high_total = one - power[1], one - power[0]  # 2^inner·(1 − Q^B)
        per_value = self.uniform // self.block  # m
        keep = (1 << 64) - self.uniform  # 2^64·(1 − u)
        # 2^(bits + GUARD)/D = 2^(bits + GUARD + inner + 64)/(2^inner(1 − Q^B)·2^64(1 − u))
        scaled = 1 << (bits + GUARD + inner + 64)
        a_lo = scaled // (high_total * keep)
        a_hi = -(-scaled // (low_total * keep))
        # 2^(bits + total)·m/(2^64 − M), the step of the subtracted term
        shift = per_value << (bits + total)
        c_lo, c_hi = shift // keep, -(-shift // keep)
        step_lo = step_hi = 0
        p0, p1, out = q0, q1, []
        for _ in range(self.count):
            step_lo += c_lo
            step_hi += c_hi
            lo = ((one - p1) * a_lo - step_hi) >> total
            hi = -((step_lo - (one - p0) * a_hi) >> total)
            out.append((lo if lo > 0 else 0, hi if hi > 0 else 0))
            p0, p1 = (p0 * q0) >> inner, -((-(p1 * q1)) >> inner)
        return out

    def exact(self, k: int) -> Fraction | None:
        c = self.inner.exact(k)
        if c is None:
            return None
        u = Fraction(self.uniform, 2**64)
        return (c - (k + 1) * u / self.block) / (1 - u)


class WithinBlockSampler:
    """Exact draws of P(R = r) ∝ Q^r on {0..B−1} when the law is nearly uniform: with
    probability u = M/2^64 (one word below M, an exact dyadic comparison) R is a uniform
    integer below B, else R follows :class:`ResidualLaw`. M is B·(⌊2^64·P(B−1)⌋ − 1) from a
    rigorous lower bound of the smallest probability P(B − 1), so u/B < min_r P(r)."""

    def __init__(self, q: Ratio, block: int) -> None:
        self.q, self.block = q, block
        work = 128 + GUARD
        inner = TruncatedGeometricLaw(q, block)
        smallest = _complement(inner.bounds(block - 2, work), work)  # P(B − 1) = 1 − c_{B−2}
        per_value = max((smallest[0] >> (work - 64)) - 1, 0)
        self.uniform = per_value * block  # M
        self.threshold = np.uint64(self.uniform)

    @cached_property
    def residual(self) -> ThresholdTable:
        """The table of :class:`ResidualLaw`, built when a draw first falls outside the
        uniform part (a few percent of the draws: a call drawing a handful of values often
        never needs its 2^16 thresholds)."""
        q, block = self.q, self.block
        return ThresholdTable.build(ResidualLaw(q, block, self.uniform))

    def sample(
        self, size: int, rng: np.random.Generator, reversed_: NDArray[np.bool_] | None = None
    ) -> NDArray[np.int64]:
        """``size`` positions; where ``reversed_`` is True, B − 1 − R instead of R (the uniform
        part is symmetric, so only the residual draws are turned round)."""
        w = sample_words(rng, size)
        r = np.asarray(rng.integers(0, self.block, size=size), dtype=np.int64)
        rest = np.flatnonzero(np.asarray(w >= self.threshold))
        if rest.size:
            drawn = np.asarray(locate_fresh(self.residual, rest.size, rng), dtype=np.int64)
            if reversed_ is not None:
                drawn = np.where(reversed_[rest], self.block - 1 - drawn, drawn)
            r[rest] = drawn
        return r


def _ratio_of_parts(head: Bounds, rest: Bounds, work: int) -> Bounds:
    """Bounds on S/(S + T) from bounds on S > 0 and T ≥ 0 (all at precision ``work``)."""
    lo = (head[0] << work) // (head[0] + rest[1]) if head[0] + rest[1] > 0 else 0
    hi = -((-(head[1] << work)) // (head[1] + rest[0])) if head[1] + rest[0] > 0 else 1 << work
    return lo, min(hi, 1 << work)


# --- samplers -----------------------------------------------------------------------------


def _block_size(scale: float, policy: TablePolicy) -> int:
    """1 for a scale ≤ direct_scale, else the power of two putting the block scale in
    (block_scale/2, block_scale], at most max_block."""
    if scale <= policy.direct_scale:
        return 1
    m = math.ceil(math.log2(scale / policy.block_scale))
    return int(min(2 ** max(m, 1), policy.max_block))


def _half(scale: float, policy: TablePolicy) -> int:
    return int(min(max(1, math.ceil(scale * policy.tail_nats)), policy.max_half))


class GeometricSampler:
    """Exact draws of P(G = g) = (1 − Q)Q^g (see the module docstring)."""

    def __init__(self, q: Ratio, policy: TablePolicy = DEFAULT_POLICY) -> None:
        self.q, self.policy = q, policy
        self.block = _block_size(q.scale, policy)
        if self.block == 1:
            self.size = _half(q.scale, policy)
            self.table = ThresholdTable.build(GeometricLaw(q, self.size))
        else:
            self.outer = geometric_sampler(q.to(self.block), policy)
            self.within = WithinBlockSampler(q, self.block)

    def sample(self, size: int, rng: np.random.Generator) -> NDArray[np.int64]:
        if self.block > 1:
            a = self.outer.sample(size, rng)
            if a.size and int(a.max()) > VALUE_BOUND // self.block:
                raise ValueError("scale: a geometric draw exceeded 2^62; refusing to wrap")
            return a * self.block + self.within.sample(size, rng)
        g = np.asarray(locate_fresh(self.table, size, rng), dtype=np.int64)
        beyond = np.flatnonzero(g == self.size)
        if beyond.size:  # G ≥ K: K + a fresh draw of the same law (memoryless)
            g[beyond] += self.sample(beyond.size, rng)
        return g


class TwoSidedSampler:
    """Exact draws of P(Z = z) = (1 − Q)/(1 + Q)·Q^{|z|} (see the module docstring)."""

    def __init__(self, q: Ratio, policy: TablePolicy = DEFAULT_POLICY) -> None:
        self.q, self.policy = q, policy
        self.block = _block_size(q.scale, policy)
        r = q.to(self.block)
        self.half = _half(r.scale, policy)
        self.table = ThresholdTable.build(TwoSidedLaw(q, self.block, self.half))
        self.tail = geometric_sampler(r, policy)
        self.within = WithinBlockSampler(q, self.block) if self.block > 1 else None

    def sample(self, size: int, rng: np.random.Generator) -> NDArray[np.int64]:
        k = np.asarray(locate_fresh(self.table, size, rng), dtype=np.int64)
        beyond = np.flatnonzero((k - 1).view(np.uint64) > 2 * self.half)  # k = 0 or 2K + 2
        j = k
        j -= self.half + 1  # the block index, in place
        if beyond.size:  # |J| > K: |J| = K + 1 + a block geometric (memoryless)
            extra = self.tail.sample(beyond.size, rng)
            if int(extra.max()) > VALUE_BOUND // (2 * self.block):
                raise ValueError("scale: a noise draw exceeded 2^62; refusing to wrap")
            j[beyond] += np.sign(j[beyond]) * extra
        if self.within is None:
            return j
        # position in the block: R for j ≥ 0, B − 1 − R for j < 0 (|Z| grows away from 0)
        r = self.within.sample(size, rng, reversed_=j < 0)
        j *= self.block
        j += r
        return j


@lru_cache(maxsize=64)
def geometric_sampler(q: Ratio, policy: TablePolicy = DEFAULT_POLICY) -> GeometricSampler:
    """The (cached) geometric sampler of factor Q."""
    return GeometricSampler(q, policy)


@lru_cache(maxsize=64)
def two_sided_sampler(q: Ratio, policy: TablePolicy = DEFAULT_POLICY) -> TwoSidedSampler:
    """The (cached) two-sided geometric (discrete Laplace) sampler of factor Q."""
    return TwoSidedSampler(q, policy)


class SingleThreshold:
    """The one threshold c = Q of Bernoulli(Q): U < Q is True (outcome 0)."""

    def __init__(self, q: Ratio) -> None:
        self.q = q

    @property
    def count(self) -> int:
        return 1

    def bounds(self, k: int, bits: int) -> Bounds:
        return self.q.bounds(bits)

    def all_bounds(self, bits: int) -> list[Bounds]:
        return [self.q.bounds(bits)]

    def exact(self, k: int) -> Fraction | None:
        return self.q.exact()


#: A rate γ ≥ 45 has e^{−γ} < 2^{−64} (e^45 > 2^64): Bernoulli(e^{−γ})'s floor is 0, inexact.
NEGLIGIBLE_RATE = 45


@lru_cache(maxsize=1 << 16)
def bernoulli_floor(q: Ratio) -> tuple[int, bool]:
    """(F, exact) of Bernoulli(Q)'s one threshold: F = ⌊2^64·Q⌋ and whether 2^64·Q = F, as
    a table's entry (:func:`~dpspec.noise._tables.first_floor`) without its guide — one
    comparison decides a draw (cached per Q). e^{−γ} is irrational for a rational γ > 0, so a
    tiny one has floor 0 and is inexact."""
    if q.exp and q.power * q.num >= NEGLIGIBLE_RATE * q.den:
        return 0, False
    law = SingleThreshold(q)
    return first_floor(law, 0, law.bounds(0, TABLE_BITS))


class LevelSampler:
    """Exact draws of a level i with P(i) ∝ counts_i·Q^{gaps_i} (a :class:`LevelsLaw`)."""

    def __init__(self, q: Ratio, gaps: Sequence[int], counts: Sequence[int]) -> None:
        self.law = LevelsLaw(q, gaps, counts)
        self.table = ThresholdTable.build(self.law)

    def sample(self, size: int, rng: np.random.Generator) -> NDArray[np.intp]:
        return locate_fresh(self.table, size, rng)


class CumulativeLevels:
    """A :class:`LevelsLaw` for many levels and few draws (the exponential median): bounds on
    the cumulative weights are formed once — O(L) integer operations while Q^{gap} is above
    2^(16 − work), the remaining weights only bounded by [0, count·Q^{gap}] of the first of
    them, in one numpy pass — and each
    floor ⌊2^64 c_k⌋ is read off them when a draw needs it (:func:`locate_lazily`)."""

    def __init__(self, q: Ratio, gaps: Sequence[int], counts: Sequence[int]) -> None:
        self.levels = LevelsLaw(q, gaps, counts)
        self.q, self.gaps, self.counts = q, list(gaps), list(counts)
        n = len(self.gaps)
        self.work = 128 + GUARD + 2 * n.bit_length() + max(self.counts).bit_length()
        work = self.work
        power: Bounds = _one(work) if self.gaps[0] == 0 else q.to(self.gaps[0]).bounds(work)
        steps: dict[int, Bounds] = {}
        lo_sum, hi_sum = 0, 0
        self._lo: list[int] = []
        self._hi: list[int] = []
        previous = self.gaps[0]
        for i, (gap, count) in enumerate(zip(self.gaps, self.counts, strict=True)):
            if gap != previous:
                delta = gap - previous
                if delta not in steps:
                    steps[delta] = q.to(delta).bounds(work)
                power = mul(power, steps[delta], work)
                previous = gap
            if power[1] <= 1 << 16:  # Q^gap ≤ 2^(16 − work) here and beyond (gaps increase)
                self._tail_from = i
                break
            lo_sum, hi_sum = lo_sum + power[0] * count, hi_sum + power[1] * count
            self._lo.append(lo_sum)
            self._hi.append(hi_sum)
        else:
            self._tail_from = n
        self._tail_unit = power[1]  # every later weight lies in [0, count·tail_unit]
        tail_counts = np.asarray(self.counts[self._tail_from :], dtype=np.int64)
        self._tail_cum = np.cumsum(tail_counts)
        tail_total = int(self._tail_cum[-1]) * self._tail_unit if tail_counts.size else 0
        self._total = (lo_sum, hi_sum + tail_total)
        self._floors: dict[int, tuple[int, bool]] = {}

    @property
    def count(self) -> int:
        return len(self.gaps) - 1

    def _head(self, k: int) -> Bounds:
        """Bounds at precision ``work`` on Σ_{i≤k} w_i."""
        if k < self._tail_from:
            return self._lo[k], self._hi[k]
        extra = int(self._tail_cum[k - self._tail_from]) * self._tail_unit
        top = self._hi[-1] if self._hi else 0
        return (self._lo[-1] if self._lo else 0), top + extra

    def floor(self, k: int) -> tuple[int, bool]:
        """(⌊2^64 c_k⌋, whether 2^64 c_k is an integer), exact; cached."""
        if k in self._floors:
            return self._floors[k]
        head = self._head(k)
        rest = (self._total[0] - head[0], self._total[1] - head[1])  # Σ_{i>k} w_i
        b = _ratio_of_parts(head, rest, self.work)
        found = None
        lo64, hi64 = b[0] >> (self.work - 64), b[1] >> (self.work - 64)
        if lo64 == hi64 and b[0] != b[1]:
            found = lo64, False
        elif hi64 >= WORD and lo64 >= WORD - 1:
            found = WORD - 1, False  # c < 1: the later levels have positive weight
        if found is None:
            found = threshold_floor(self, k, 1)
        self._floors[k] = found
        return found

    def bounds(self, k: int, bits: int) -> Bounds:
        return self.levels.bounds(k, bits)

    def all_bounds(self, bits: int) -> list[Bounds]:
        return self.levels.all_bounds(bits)

    def exact(self, k: int) -> Fraction | None:
        return self.levels.exact(k)

    def sample(self, size: int, rng: np.random.Generator) -> NDArray[np.intp]:
        """``size`` levels, exactly."""
        return locate_lazily(self, sample_words(rng, size), rng)
