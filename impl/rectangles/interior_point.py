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
a rational base q ≥ e^{−ε/2} (:func:`median_base`), so the exact law (``pmf``) is in Fractions and
``sample`` draws from it exactly; ``idealised=True`` is the textbook version, weights
exp(ε·q/2) in floating point.

**Sampling without big integers.** The score is constant on runs of the grid: on each distinct
data value and on each open gap between consecutive ones (:func:`_score_runs`), and 0 outside
[min D, max D]. The grid points of equal score form a *level* of weight count·q^{top − score};
a level is drawn by inverting its exact CDF against a lazily drawn uniform (the cumulative
weights bounded once with integer arithmetic, the floors ⌊2^64 c_k⌋ read off them only for the
≈ log2(levels) thresholds a binary search visits: :class:`~dpspec.noise._laws.CumulativeLevels`),
then a point uniformly among the level's runs. O(m log m + levels) per call whatever the grid.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray

from dpspec.contract import PrivacyLevel
from dpspec.mechanisms.exponential import ExponentialMechanism
from dpspec.noise.machinery import CumulativeLevels, Ratio
from dpspec.spec.neighbours import Relation
from dpspec.validation import (
    MAX_EPSILON,
    MIN_ONE_MINUS_BASE,
    Checked,
    Domain,
    EpsilonArg,
    FlagArg,
    GeneratorArg,
    InputTypeError,
    Integer,
    Pair,
    Real,
    SizeArg,
    bounded_int_array,
    check_limit,
    checked,
    example,
)

#: Largest grid {0, …, X} (scores are computed for every grid point of [min D, max D]).
MAX_GRID = 2**24

#: Smallest ε of one interior-point call: the rational base q ≥ e^{−ε/2} must keep
#: 1 − q ≥ 2^-12, what the exact level sampler accepts (``dpspec.validation``).
MIN_CALL_EPSILON = 5e-4

#: Most data points ``sample`` accepts (one sort of the data: about a second per 10^7 points).
MAX_POINTS = 2**25

#: Largest top score gap an exact pmf takes: its Fractions have ≈ 25·gap bits and one is
#: made per score level (≤ gap + 1 of them).
MAX_EXACT_GAP = 2**11


@dataclass(frozen=True)
class GridValues(Domain):
    """A 1-D array of integer grid points, possibly empty (the interior-point algorithm answers
    uniformly on ∅). The grid's bound is the instance's: checked by the method."""

    def convert(self, value: Any, name: str) -> NDArray[np.int64]:
        if value is None or isinstance(value, (str, bytes, dict)) or np.isscalar(value):
            raise InputTypeError(f"{name}: expected a 1-D array of grid points, got {value!r}")
        arr = np.asarray(value)
        if arr.ndim != 1:
            raise ValueError(f"{name}: expected a 1-D array of grid points, got shape {arr.shape}")
        if arr.size == 0:
            return np.zeros(0, dtype=np.int64)
        if arr.dtype == object or not np.issubdtype(arr.dtype, np.integer):
            raise InputTypeError(f"{name}: expected integer grid points, got dtype {arr.dtype}")
        values = bounded_int_array(arr, name)
        if int(values.min()) < 0:
            raise ValueError(f"{name}: grid points must be non-negative, got {int(values.min())}")
        return values

    def hostile(self) -> tuple[Any, ...]:
        return (
            *super().hostile(),
            [0.5, 1.0],
            np.array([np.nan]),
            np.zeros((2, 2), dtype=np.int64),
            np.array(["a"]),
            np.array([1 + 1j]),
            np.array([True, False]),
            np.array([-1]),
            np.array([2**62]),
            "data",
            3,
            {"a": 1},
        )

    @property
    def example(self) -> Any:
        return np.array([1, 2, 2, 3], dtype=np.int64)

    def describe(self) -> str:
        return "a 1-D array of integer grid points (possibly empty)"


#: The data of one interior-point call: grid points (a multiset, possibly empty).
GridValuesArg = Annotated[NDArray[np.int64], GridValues()]
#: X: the grid {0, …, X}.
GridMaxArg = Annotated[int, Integer(0, hi=MAX_GRID - 1, clean=7)]
#: The ε of one interior-point call (at least 5e-4, see ``MIN_CALL_EPSILON``).
CallEpsilonArg = Annotated[float, Real(MIN_CALL_EPSILON, MAX_EPSILON, clean=1.0)]
#: A failure probability β ∈ (0, 1).
FailureArg = Annotated[float, Real(0, 1, lo_open=True, hi_open=True, clean=0.05)]
#: Algorithm 4's β ∈ (0, 1/4) (L1322).
BetaArg = Annotated[float, Real(0, 0.25, lo_open=True, hi_open=True, clean=0.05)]
#: An inclusive window (lo, hi) of grid points.
WindowArg = Annotated[
    tuple[int, int] | None, Pair(optional=True, inner=Integer(-(2**62) + 1), clean=(0, 7))
]
#: The number of grid points of one score array.
ScoreSizeArg = Annotated[int, Integer(1, hi=MAX_GRID, clean=5)]


@checked
def median_scores(values: GridValuesArg, size: ScoreSizeArg) -> NDArray[np.int64]:
    """q(D, x) for x = 0..size−1: min(#{z ≤ x}, #{z ≥ x}) by one bincount and two cumsums
    (every value must lie in [0, size))."""
    if values.size and (int(values.min()) < 0 or int(values.max()) >= size):
        raise ValueError(f"values: grid points must be in [0, {size - 1}]")
    counts = np.bincount(values, minlength=size)[:size]
    at_most = np.cumsum(counts)
    at_least = at_most[-1] - at_most + counts
    return np.asarray(np.minimum(at_most, at_least), dtype=np.int64)


@checked
def median_base(epsilon: EpsilonArg) -> Fraction:
    """A rational q ≥ e^{−ε/2} (denominator 2^24): the weights q^{gap} make the mechanism
    (−2 ln q)-DP with −2 ln q ≤ ε, and every probability rational."""
    scale = 2**24
    q = Fraction(math.ceil(math.exp(-epsilon / 2) * scale) + 1, scale)
    return min(q, Fraction(scale - 1, scale))


def _score_runs(values: NDArray[np.int64]) -> tuple[NDArray[np.int64], ...]:
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


class _RunIndex:
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


@checked
def interior_point_sample_complexity(
    grid_max: GridMaxArg, epsilon: EpsilonArg, beta: FailureArg
) -> int:
    """IP_A = ⌈(4/ε) ln((X + 1)/β)⌉: the exponential median fails w.p. ≤ β on m ≥ IP_A points."""
    value = 4 / epsilon * math.log((grid_max + 1) / beta)
    if not math.isfinite(value):
        raise ValueError(f"epsilon: {epsilon!r} is too small: (4/ε) ln((X + 1)/β) overflows")
    return math.ceil(value)


@dataclass(frozen=True)
class _Levels:
    """The score levels of D: gap(x) = top − q(D, x) on [lo, hi]; ``outside`` grid points
    (all of the grid outside [min D, max D]) have gap ``top``."""

    lo: int
    hi: int
    gaps: NDArray[np.int64]
    top: int
    outside: int


@example(
    every={"data": np.array([1, 2, 2, 3], dtype=np.int64)},
    __init__={"epsilon": 1.0, "grid_max": 7},
    sample={"size": 5},
    pmf={"window": (0, 7)},
)
class ExponentialMedian(Checked):
    """The exponential-mechanism median on {0, …, X} at level ε (see the module docstring).

    ``ExponentialMedian(epsilon, grid_max=X, idealised=False)``. Data: a 1-D array of grid
    points (integers in [0, X], possibly empty). ``sample(data, size, rng)``, ``pmf(data,
    window=None)``, ``failure_probability(data)``; ``privacy`` = (ε, 0) under add/remove (and
    substitution: the score moves by ≤ 1 either way) — the effective −2 ln q ≤ ε of the rational
    base, or ε itself for ``idealised=True`` (weights exp(ε·q/2) in floating point,
    ``exact_sampler=False``).
    """

    def __init__(
        self, epsilon: CallEpsilonArg, *, grid_max: GridMaxArg, idealised: FlagArg = False
    ) -> None:
        self.grid_max = grid_max
        self.epsilon = epsilon
        self.idealised = idealised
        self.base = median_base(epsilon)
        if 1 - self.base < MIN_ONE_MINUS_BASE:
            raise ValueError(
                f"epsilon: at least about 4.9e-4 per interior-point call (the base q ≥ e^(-ε/2) "
                f"must keep 1 - q ≥ 2^-12), got {epsilon!r}"
            )
        size = self.grid_max + 1
        self.mechanism = ExponentialMechanism(lambda d: median_scores(d, size), 1, base=self.base)
        if idealised:
            self.privacy = PrivacyLevel(
                epsilon=epsilon,
                ratio=math.exp(epsilon),
                delta=0,
                exact_sampler=False,
                relation=Relation.ADD_REMOVE,
            )
        else:
            level = self.mechanism.privacy
            self.privacy = PrivacyLevel(
                epsilon=level.epsilon,
                ratio=level.ratio,
                delta=0,
                exact_sampler=True,
                relation=Relation.ADD_REMOVE,
            )

    def _data(self, data: NDArray[np.int64]) -> NDArray[np.int64]:
        if data.size and (int(data.min()) < 0 or int(data.max()) > self.grid_max):
            raise ValueError(f"data: grid points must be in [0, {self.grid_max}]")
        return data

    def _levels(self, values: NDArray[np.int64]) -> _Levels:
        lo, hi = int(values.min()), int(values.max())
        scores = median_scores(values - lo, hi - lo + 1)
        top = int(scores.max())
        return _Levels(lo, hi, top - scores, top, self.grid_max + 1 - (hi - lo + 1))

    def sample(self, data: GridValuesArg, size: SizeArg, rng: GeneratorArg) -> NDArray[np.int64]:
        """``size`` independent interior-point answers on ``data``, exactly from :meth:`pmf`
        (module docstring: a level of equal score by exact inversion, then a uniform point of
        it). Refuses more than ``MAX_POINTS`` data points."""
        values = self._data(data)
        if self.idealised:
            return self._sample_float(values, size, rng)
        if values.size > MAX_POINTS:
            raise ValueError(
                f"data: {values.size} points exceed the limit of {MAX_POINTS} (one sort of the "
                f"data: about {values.size / 1e7:.0f} s); use fewer points"
            )
        if values.size == 0:  # every score is 0: uniform on the grid
            return np.asarray(rng.integers(0, self.grid_max + 1, size=size), dtype=np.int64)
        starts, lengths, scores = _score_runs(values)
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
        runs = _RunIndex(starts, lengths, gaps)
        if size <= 16:
            return runs.points_by_scan(levels[chosen], inside)
        return runs.points_sorted(levels[chosen], inside)

    def _sample_float(
        self, values: NDArray[np.int64], size: int, rng: np.random.Generator
    ) -> NDArray[np.int64]:
        """The idealised sampler: weights exp(ε·(q − max q)/2) in floating point, one
        categorical draw over [min D, max D] and the outside block, then a uniform outside
        point (vectorised; exact only in ideal real arithmetic)."""
        if values.size == 0:
            return rng.integers(0, self.grid_max + 1, size=size)
        lv = self._levels(values)
        weights = np.append(np.exp(-self.epsilon / 2 * lv.gaps), 0.0)
        weights[-1] = lv.outside * math.exp(-self.epsilon / 2 * lv.top)
        index = rng.choice(weights.size, size=size, p=weights / weights.sum())
        out = np.asarray(index + lv.lo, dtype=np.int64)
        far = index == weights.size - 1
        k = rng.integers(0, max(lv.outside, 1), size=int(far.sum()))
        out[far] = np.where(k < lv.lo, k, lv.hi + 1 + (k - lv.lo))
        return out

    def pmf(self, data: GridValuesArg, window: WindowArg = None) -> dict[int, Fraction | float]:
        """P(A(D) = x) for the grid points x in ``window`` (inclusive; None: the whole grid):
        Fractions (exact, the rational base), or floats for ``idealised=True``; uniform when D
        is empty. At most ``LIMITS["outcomes"]`` points are listed."""
        values = self._data(data)
        lo_w, hi_w = (0, self.grid_max) if window is None else window
        lo_w, hi_w = max(lo_w, 0), min(hi_w, self.grid_max)
        check_limit(max(hi_w - lo_w + 1, 0), "window", "outcomes")
        if values.size == 0:
            share = 1.0 / (self.grid_max + 1) if self.idealised else Fraction(1, self.grid_max + 1)
            return {x: share for x in range(lo_w, hi_w + 1)}
        by_gap = self._level_probabilities(values)
        lv = self._levels(values)
        return {
            x: by_gap[int(lv.gaps[x - lv.lo]) if lv.lo <= x <= lv.hi else lv.top]
            for x in range(lo_w, hi_w + 1)
        }

    def _level_probabilities(self, values: NDArray[np.int64]) -> dict[int, Fraction | float]:
        """P(x) for a grid point x of gap g, by gap: base^g / Z with Z = Σ_x base^{gap(x)}."""
        lv = self._levels(values)
        gaps, counts = np.unique(lv.gaps, return_counts=True)
        count = dict(zip(gaps.tolist(), counts.tolist(), strict=True))
        count[lv.top] = count.get(lv.top, 0) + lv.outside
        if self.idealised:
            half = self.epsilon / 2
            total_f = sum(c * math.exp(-half * g) for g, c in count.items())
            return {g: math.exp(-half * g) / total_f for g in count}
        if lv.top > MAX_EXACT_GAP:
            raise ValueError(
                f"data: the exact pmf takes score gaps up to {MAX_EXACT_GAP} (its Fractions have "
                f"≈ 25 bits per unit of gap), got {lv.top} (|D| = {values.size})"
            )
        up, down = self.base.as_integer_ratio()
        weight = {g: up**g * down ** (lv.top - g) for g in count}
        total = sum(count[g] * weight[g] for g in count)
        return {g: Fraction(weight[g], total) for g in count}

    def failure_probability(self, data: GridValuesArg) -> float:
        """P(A(D) ∉ [min D, max D]) from the level probabilities (1 when D is empty)."""
        values = self._data(data)
        if values.size == 0:
            return 1.0
        lv = self._levels(values)
        return float(self._level_probabilities(values)[lv.top] * lv.outside)
