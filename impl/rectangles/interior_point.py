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

**Sampling without big integers.** The score is constant on runs of the grid: on each distinct
data value and on each open gap between consecutive ones (:func:`score_runs`), and 0 outside
[min D, max D]. The grid points of equal score form a *level* of weight count·q^{top − score};
a level is drawn by inverting its exact CDF against a lazily drawn uniform (the cumulative
weights bounded once with integer arithmetic, the floors ⌊2^64 c_k⌋ read off them only for the
≈ log2(levels) thresholds a binary search visits: :class:`~dpspec.noise.laws.CumulativeLevels`),
then a point uniformly among the level's runs. O(m log m + levels) per call whatever the grid.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.contract import PrivacyLevel
from dpspec.mechanisms.exponential import ExponentialMechanism
from dpspec.noise.laws import CumulativeLevels
from dpspec.noise.reals import Ratio
from dpspec.spec.neighbours import Relation
from dpspec.validation import (
    LIMITS,
    MIN_ONE_MINUS_BASE,
    check_count,
    check_epsilon,
    check_positive,
    check_rng,
)

#: Largest grid {0, …, X}.
MAX_GRID = 2**24
#: Most data points ``sample`` accepts (one sort of the data: about a second per 10^7 points).
MAX_POINTS = 2**25


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


def score_runs(values: NDArray[np.int64]) -> tuple[NDArray[np.int64], ...]:
    """The interval [min D, max D] in runs of equal score: (starts, lengths, scores).

    With u_1 < … < u_r the distinct data values and C_j = #{z ≤ u_j} (m = C_r): the point u_j
    scores min(C_j, m − C_{j−1}) and the open gap (u_j, u_{j+1}) scores min(C_j, m − C_j).
    """
    u, c = np.unique(values, return_counts=True)
    cum = np.cumsum(c)
    m = int(cum[-1])
    point_score = np.minimum(cum, m - (cum - c))
    gap_start, gap_length = u[:-1] + 1, u[1:] - u[:-1] - 1
    gap_score = np.minimum(cum[:-1], m - cum[:-1])
    has_gap = gap_length > 0
    starts = np.concatenate([u, gap_start[has_gap]])
    lengths = np.concatenate([np.ones(u.size, dtype=np.int64), gap_length[has_gap]])
    scores = np.concatenate([point_score, gap_score[has_gap]])
    return starts.astype(np.int64), lengths.astype(np.int64), scores.astype(np.int64)


class RunIndex:
    """Runs of equal gap (``starts``, ``lengths``, ``gaps``): the ``offset``-th grid point of the
    runs of one gap, the runs taken in increasing ``start`` order."""

    def __init__(
        self, starts: NDArray[np.int64], lengths: NDArray[np.int64], gaps: NDArray[np.int64]
    ) -> None:
        self.starts, self.lengths, self.gaps = starts, lengths, gaps

    def points_by_scan(
        self, gaps: NDArray[np.int64], offsets: NDArray[np.int64]
    ) -> NDArray[np.int64]:
        """One pass over the runs per answer (few answers)."""
        out = np.empty(gaps.size, dtype=np.int64)
        for j, (gap, offset) in enumerate(zip(gaps.tolist(), offsets.tolist(), strict=True)):
            runs = np.flatnonzero(self.gaps == gap)
            runs = runs[np.argsort(self.starts[runs], kind="stable")]
            ends = np.cumsum(self.lengths[runs])
            r = int(np.searchsorted(ends, offset, side="right"))
            before = int(ends[r - 1]) if r else 0
            out[j] = int(self.starts[runs[r]]) + offset - before
        return out

    def points_sorted(
        self, gaps: NDArray[np.int64], offsets: NDArray[np.int64]
    ) -> NDArray[np.int64]:
        """The runs sorted once by (gap, start), every answer by a search (many answers)."""
        order = np.lexsort((self.starts, self.gaps))
        sorted_gaps = self.gaps[order]
        ends = np.cumsum(self.lengths[order])
        first = np.searchsorted(sorted_gaps, gaps, side="left")  # the gap's first run
        before_gap = np.where(first > 0, np.take(ends, first - 1), 0)
        target = before_gap + offsets
        r = np.searchsorted(ends, target, side="right")
        before_run = np.where(r > 0, np.take(ends, r - 1), 0)
        return np.asarray(np.take(self.starts[order], r) + target - before_run, dtype=np.int64)


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
        self.epsilon = epsilon
        self.base = median_base(eps)
        if 1 - self.base < MIN_ONE_MINUS_BASE:
            raise ValueError(
                f"epsilon: at least about 4.9e-4 per interior-point call (the base q ≥ e^(-ε/2) "
                f"must keep 1 - q ≥ 2^-12), got {epsilon!r}"
            )
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
        """``size`` independent interior-point answers on ``data``, exactly from :meth:`pmf`
        (module docstring: a level of equal score by exact inversion, then a uniform point of
        it). Refuses more than ``MAX_POINTS`` data points or ``LIMITS["draws"]`` answers."""
        check_rng(rng)
        size = check_count(size, "size", minimum=0, maximum=LIMITS["draws"])
        values = self._data(data)
        if values.size > MAX_POINTS:
            raise ValueError(
                f"data: {values.size} points exceed the limit of {MAX_POINTS} (one sort of the "
                f"data: about {values.size / 1e7:.0f} s); use fewer points"
            )
        if values.size == 0:  # every score is 0: uniform on the grid
            return np.asarray(rng.integers(0, self.grid_max + 1, size=size), dtype=np.int64)
        starts, lengths, scores = score_runs(values)
        lo, hi = int(values.min()), int(values.max())
        outside = [(0, lo), (hi + 1, self.grid_max - hi)]  # score 0 below and above
        for start, length in outside:
            if length > 0:
                starts = np.append(starts, start)
                lengths = np.append(lengths, length)
                scores = np.append(scores, 0)
        gaps = int(scores.max()) - scores
        weight = np.bincount(gaps, weights=lengths.astype(np.float64))  # ≤ 2^24: exact
        levels = np.flatnonzero(weight > 0)
        counts = weight[levels].astype(np.int64)
        law = CumulativeLevels(
            Ratio(self.base.numerator, self.base.denominator, exp=False),
            levels.tolist(),
            counts.tolist(),
        )
        chosen = law.sample(size, rng)
        inside = np.asarray(rng.integers(0, np.take(counts, chosen)), dtype=np.int64)
        runs = RunIndex(starts, lengths, gaps)
        if size <= 16:
            return runs.points_by_scan(levels[chosen], inside)
        return runs.points_sorted(levels[chosen], inside)

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
