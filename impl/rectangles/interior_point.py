"""The interior point problem and an (ε, 0)-DP solver for it (thesis ch. 5, Def 5.1.1 L1221).

An algorithm solves the interior point problem on the grid {0, …, X} with failure probability β
and sample complexity n if for every multiset D of m ≥ n grid points
P(min D ≤ A(D) ≤ max D) ≥ 1 − β.

:class:`ExponentialMedian` is the exponential mechanism over the grid with the score
q(D, x) = min(#{z ∈ D : z ≤ x}, #{z ∈ D : z ≥ x}) (sensitivity 1 under add/remove and under
substitution): P(x) ∝ exp(ε·q(D, x)/2), uniform when D is empty. Outside [min D, max D] the score
is 0 while the median scores ⌈m/2⌉, so P(fail) ≤ (X + 1)·e^{−εm/4}: the sample complexity is
IP_A = ⌈(4/ε) ln((X + 1)/β)⌉ (:func:`interior_point_sample_complexity`; the notes' concrete A —
the thesis cites an O(log*) algorithm it does not describe, Remark 5.2.5 L1332). The weights use
a rational base q ≥ e^{−ε/2} (:func:`median_base`), so the exact law —
:class:`~dpspec.mechanisms.ExponentialMechanism`'s ``pmf`` with that base — is in Fractions and
``sample`` draws from it exactly.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from fractions import Fraction
from itertools import accumulate
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.contract import PrivacyLevel
from dpspec.mechanisms.exponential import ExponentialMechanism
from dpspec.spec.neighbours import Relation
from dpspec.validation import check_count, check_epsilon, check_positive, check_rng

#: Largest grid {0, …, X} (scores are computed for every grid point).
MAX_GRID = 2**24


def median_scores(values: NDArray[np.int64], size: int) -> NDArray[np.int64]:
    """q(D, x) for x = 0..size−1: min(#{z ≤ x}, #{z ≥ x}) by one bincount and two cumsums."""
    counts = np.bincount(np.asarray(values, dtype=np.int64), minlength=size)[:size]
    at_most = np.cumsum(counts)
    at_least = at_most[-1] - at_most + counts if size else at_most
    return np.asarray(np.minimum(at_most, at_least), dtype=np.int64)


def median_base(epsilon: float) -> Fraction:
    """A rational q ≥ e^{−ε/2} (denominator 2^24): the weights q^{gap} make the mechanism
    (−2 ln q)-DP with −2 ln q ≤ ε, and every probability rational."""
    scale = 2**24
    q = Fraction(math.ceil(math.exp(-epsilon / 2) * scale) + 1, scale)
    return min(q, Fraction(scale - 1, scale))


def uniform_below(bound: int, rng: np.random.Generator) -> int:
    """A uniform integer in [0, bound) for any Python int bound ≥ 1 (62-bit chunks, rejection)."""
    bits = max(1, (bound - 1).bit_length())
    chunks = -(-bits // 62)
    while True:
        value = 0
        for part in rng.integers(0, 2**62, size=chunks).tolist():
            value = (value << 62) | int(part)
        value >>= chunks * 62 - bits
        if value < bound:
            return value


def _outside_point(k: int, lo: int, hi: int) -> int:
    """The k-th grid point outside [lo, hi] (0..lo−1, then hi+1..)."""
    return k if k < lo else hi + 1 + (k - lo)


def interior_point_sample_complexity(grid_max: int, epsilon: float, beta: float) -> int:
    """IP_A = ⌈(4/ε) ln((X + 1)/β)⌉: the exponential median fails w.p. ≤ β on m ≥ IP_A points."""
    return math.ceil(4 / epsilon * math.log((grid_max + 1) / beta))


class ExponentialMedian:
    """The exponential-mechanism median on {0, …, X} at level ε (see the module docstring).

    Data: a 1-D array of grid points (integers in [0, X]). ``sample(data, size, rng)``,
    ``pmf(data)``, ``failure_probability(data)``; ``privacy`` = (ε, 0) under add/remove (and
    substitution: the score moves by ≤ 1 either way).
    """

    def __init__(self, grid_max: int, epsilon: float | Fraction) -> None:
        self.grid_max = check_count(grid_max, "grid_max", minimum=0, maximum=MAX_GRID - 1)
        eps = check_epsilon(epsilon)
        if eps < 2**-10:
            raise ValueError(f"epsilon: at least 2^-10 per interior-point call, got {epsilon!r}")
        self.epsilon = epsilon
        self.base = median_base(eps)
        size = self.grid_max + 1
        self.mechanism = ExponentialMechanism(lambda d: median_scores(d, size), 1, base=self.base)
        level = self.mechanism.privacy
        self.privacy = PrivacyLevel(
            epsilon=level.epsilon,
            ratio=level.ratio,
            delta=0,
            exact_sampler=True,
            relation=Relation.ADD_REMOVE,
        )

    def _data(self, data: Any) -> NDArray[np.int64]:
        arr = np.asarray(data)
        if arr.ndim != 1 or (arr.size and not np.issubdtype(arr.dtype, np.integer)):
            raise ValueError("data: expected a 1-D array of integer grid points")
        values = arr.astype(np.int64)
        if values.size and (values.min() < 0 or values.max() > self.grid_max):
            raise ValueError(f"data: grid points must be in [0, {self.grid_max}]")
        return values

    def sample(self, data: Any, size: int, rng: np.random.Generator) -> NDArray[np.int64]:
        """``size`` independent interior-point answers on ``data``, exactly from :meth:`pmf`.

        The weights base^{gap} are rational and take at most ⌈m/2⌉ + 1 distinct gaps (every grid
        point outside [min D, max D] has score 0), so a level is drawn with probability
        count·base^gap / Σ by one uniform big integer, then a point uniformly within the level:
        O(m + span) per call however large the grid.
        """
        check_rng(rng)
        size = check_count(size, "size", minimum=0)
        values = self._data(data)
        if values.size == 0:  # every score is 0: uniform on the grid
            return rng.integers(0, self.grid_max + 1, size=size)
        lo, hi = int(values.min()), int(values.max())
        gaps = median_scores(values - lo, hi - lo + 1)
        top = int(gaps.max())
        gaps = top - gaps
        outside = self.grid_max + 1 - (hi - lo + 1)
        levels, counts = np.unique(gaps, return_counts=True)
        num, den = self.base.numerator, self.base.denominator
        weights = [
            (int(c) + (outside if int(g) == top else 0)) * num ** int(g) * den ** (top - int(g))
            for g, c in zip(levels.tolist(), counts.tolist(), strict=True)
        ]
        if top not in set(levels.tolist()) and outside:
            levels = np.append(levels, top)
            weights.append(outside * num**top)
        cumulative = list(accumulate(weights))
        out = np.empty(size, dtype=np.int64)
        for j in range(size):
            u = uniform_below(cumulative[-1], rng)
            level = int(levels[bisect_right(cumulative, u)])
            inside = np.flatnonzero(gaps == level) + lo
            extra = outside if level == top else 0
            k = uniform_below(inside.size + extra, rng)
            out[j] = int(inside[k]) if k < inside.size else _outside_point(k - inside.size, lo, hi)
        return out

    def pmf(self, data: Any, window: tuple[int, int] | None = None) -> dict[int, Fraction | float]:
        """Exact P(A(D) = x) for x in the grid (uniform when D is empty)."""
        values = self._data(data)
        if values.size == 0:
            lo, hi = window if window is not None else (0, self.grid_max)
            share = Fraction(1, self.grid_max + 1)
            return {x: share for x in range(max(lo, 0), min(hi, self.grid_max) + 1)}
        return self.mechanism.pmf(values, window)

    def failure_probability(self, data: Any) -> float:
        """P(A(D) ∉ [min D, max D]) exactly from the pmf (1 when D is empty)."""
        values = self._data(data)
        if values.size == 0:
            return 1.0
        lo, hi = int(values.min()), int(values.max())
        return float(sum(p for x, p in self.pmf(values).items() if not lo <= x <= hi))


def check_beta(beta: Any) -> float:
    """β ∈ (0, 1/4) (Algorithm 4's input condition, L1322)."""
    value = check_positive(beta, "beta", maximum=0.25)
    if value >= 0.25:
        raise ValueError(f"beta: must be < 1/4 (Algorithm 4), got {beta!r}")
    return value
