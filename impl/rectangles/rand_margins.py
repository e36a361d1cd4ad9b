"""RandMargins (thesis ch. 5, Algorithm 4, ``002_9f3104e4a0d86722.txt:L1320-1326``): privately
learning rectangles anchored at the origin on the grid {0, …, X}^d (Def 5.0.1, L1199).

h_p(x) = 1 iff x_i ≤ p_i for every axis i. Given the positive examples S (negatives carry no
information about the one-sided class and are dropped record by record), with an (ε, 0)-DP
interior-point algorithm A of sample complexity Δ = IP_A (:class:`ExponentialMedian`) and
μ = 4Δ ln(1/β):

    S̄ ← S
    for i = 1..d:
        k_i = clamp(⌈μ + w_i⌉, 0, |S̄|),  w_i ~ Lap(2Δ)        (data-independent noise)
        B_i = the k_i points of S̄ with the largest i-th coordinate
        D_i = the Δ smallest (i-th coordinate) of B_i (all of B_i if fewer)
        p_i = A(i-th projections of D_i)
        S̄ ← S̄ ∖ {y ∈ S̄ : y[i] ≥ p_i}

**Exact by default.** w_i is discrete Laplace noise of scale 2Δ on ℤ (so k_i = ⌈μ⌉ + w_i; the
privacy argument only uses the ratio e^{1/(2Δ)} of neighbouring noise values), A is sampled
exactly; ``idealised=True`` draws the thesis's continuous Laplace w_i in floating point and the
textbook float exponential median.

**Ties** (the notes' fix). Under the printed rule, points sharing a coordinate leave together:
all mass at (5, 9) makes p₁ = 5 remove every point, and p₂ = A(∅) is uniform — every positive is
misclassified w.p. 9/(X + 1). With ``tags = T > 1`` every record gets an independent uniform tag
t ∈ {0, …, T−1} and each axis is ordered by the refined coordinate y[i]·T + t: A runs on the
refined grid {0, …, (X + 1)T − 1}, removal is by the refined threshold q_i, and p_i = ⌊q_i/T⌋.
For every fixed tag assignment this is the printed algorithm on distinct-ish coordinates, so it is
private with the same parameters (a mixture over data-independent randomness); ``tags=1`` is the
printed rule.

**Privacy.** Adding a record x' changes each D_i by at most a substitution (B_i and B'_i differ
by at most one point, hence so do their Δ smallest), so the d calls compose to (dε, 0) under
add/remove (:meth:`RandMarginsParameters.run_privacy`). The thesis's sharper (ε̃, δ̃) of
Thm 5.2.4 is not offered (``dpspec.rectangles.classifier``).

The exact output law is :meth:`dpspec.rectangles.PrivateRectangleClassifier.release_law` (the
module-level ``release_law`` and ``size_law`` of 0.2 are deprecated aliases).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray

from dpspec.contract import PrivacyLevel
from dpspec.noise import discrete_laplace
from dpspec.rectangles.interior_point import (
    MIN_CALL_EPSILON,
    BetaArg,
    ExponentialMedian,
    GridValues,
    GridValuesArg,
    interior_point_sample_complexity,
)
from dpspec.spec.composition import per_step_epsilon
from dpspec.spec.laws import two_sided_cdf
from dpspec.spec.neighbours import Relation
from dpspec.validation import (
    MAX_EPSILON,
    Checked,
    DeltaArg,
    Domain,
    EpsilonArg,
    FlagArg,
    GeneratorArg,
    InputTypeError,
    Instance,
    Integer,
    Real,
    bounded_int_array,
    checked,
    example,
    optional,
)

#: Largest refined grid (X + 1)·T (A scores every refined grid point).
MAX_REFINED_GRID = 2**22

#: Largest number of axes d (one interior-point call each).
MAX_AXES = 2**16


@dataclass(frozen=True)
class PointArray(Domain):
    """A 2-D array of non-negative integer grid points, one row per record (no rows is allowed:
    a dataset without positives). The grid's bound is checked by the caller."""

    def convert(self, value: Any, name: str) -> NDArray[np.int64]:
        if value is None or isinstance(value, (str, bytes, dict)) or np.isscalar(value):
            raise InputTypeError(f"{name}: expected a 2-D array of grid points, got {value!r}")
        arr = np.asarray(value)
        if arr.ndim != 2 or arr.shape[1] == 0:
            raise ValueError(f"{name}: expected a 2-D array (records × axes), got {arr.shape}")
        if arr.size and (arr.dtype == object or not np.issubdtype(arr.dtype, np.integer)):
            raise InputTypeError(f"{name}: expected integer grid points, got dtype {arr.dtype}")
        points = bounded_int_array(arr.astype(np.int64) if arr.size == 0 else arr, name)
        if points.size and int(points.min()) < 0:
            raise ValueError(f"{name}: grid points must be non-negative")
        return points

    def hostile(self) -> tuple[Any, ...]:
        return (
            *super().hostile(),
            np.zeros(3, dtype=np.int64),
            np.zeros((2, 2, 2), dtype=np.int64),
            np.zeros((2, 0), dtype=np.int64),
            np.array([[0.5, 1.0]]),
            np.array([[np.nan, 1.0]]),
            np.array([["a", "b"]]),
            np.array([[1 + 1j, 0]]),
            np.array([[-1, 0]]),
            "points",
            3,
        )

    @property
    def example(self) -> Any:
        return np.array([[1, 2], [2, 3], [3, 1], [2, 2]], dtype=np.int64)

    def describe(self) -> str:
        return "a 2-D array of non-negative integer grid points"


#: The positive examples as grid points, one row per record.
PointsArg = Annotated[NDArray[np.int64], PointArray()]
#: X ≥ 1: the grid {0, …, X}^d.
GridArg = Annotated[int, Integer(1, hi=MAX_REFINED_GRID - 1, clean=7)]
#: The per-call ε₀ of the interior-point algorithm (≥ 2^-10).
CallEpsilonArg = Annotated[float, Real(MIN_CALL_EPSILON, MAX_EPSILON, clean=1.0)]
#: T: tags per record (1 = the printed rule).
TagsArg = Annotated[int, Integer(1, hi=MAX_REFINED_GRID // 2, clean=1)]
#: d: the number of axes.
AxesArg = Annotated[int, Integer(1, hi=MAX_AXES, clean=2)]


@example(__init__={"grid_max": 7, "epsilon": 1.0, "beta": 0.05}, run_privacy={"d": 2})
@dataclass(frozen=True)
class RandMarginsParameters(Checked):
    """The public parameters of one run: grid {0..X}, the per-call ε of A, β < 1/4, tags T,
    idealised.

    ``privacy``: the level of one interior-point call (what ``epsilon`` asks for; the exact
    sampler's effective −2 ln q ≤ ε); :meth:`run_privacy` (d): the (dε, 0) of a run on d axes.
    """

    grid_max: GridArg
    epsilon: CallEpsilonArg
    beta: BetaArg
    tags: TagsArg = 1
    idealised: FlagArg = False

    def __post_init__(self) -> None:
        super().__post_init__()
        if (self.grid_max + 1) * self.tags > MAX_REFINED_GRID:
            raise ValueError(
                f"tags: (X + 1)·tags must be at most {MAX_REFINED_GRID}, got "
                f"{(self.grid_max + 1) * self.tags}"
            )

    @property
    def refined_max(self) -> int:
        """The largest refined coordinate (X + 1)T − 1."""
        return (self.grid_max + 1) * self.tags - 1

    @cached_property
    def sample_complexity(self) -> int:
        """Δ = IP_A on the refined grid."""
        return interior_point_sample_complexity(self.refined_max, self.epsilon, self.beta)

    @property
    def mu(self) -> float:
        """μ = 4Δ ln(1/β)."""
        return 4 * self.sample_complexity * math.log(1 / self.beta)

    @property
    def privacy(self) -> PrivacyLevel:
        """The level of each interior-point call (add/remove; substitution too)."""
        return self.interior_point().privacy

    def run_privacy(self, d: AxesArg) -> PrivacyLevel:
        """(dε, 0) under add/remove for a run on d axes: each D_i changes by at most a
        substitution when a record is added, and the d calls compose (basic composition)."""
        call = self.privacy
        if d * call.epsilon > MAX_EPSILON:
            raise ValueError(
                f"d: the run's level d·ε = {d}·{call.epsilon:.4g} exceeds {MAX_EPSILON} (the limit "
                "of every level: e^ε must be a finite float)"
            )
        ratio = call.ratio**d if isinstance(call.ratio, Fraction) else math.exp(d * call.epsilon)
        return PrivacyLevel(
            epsilon=d * call.epsilon,
            ratio=ratio,
            delta=0,
            exact_sampler=not self.idealised,
            relation=Relation.ADD_REMOVE,
        )

    def sample_size(self, d: AxesArg) -> int:
        """⌈6dΔ ln(1/β)⌉ = ⌈1.5·d·μ⌉ positives: the sample size of the proof of Lemma 5.2.7
        (L1476) at which, w.p. ≥ 1 − dβ, every k_i ≤ 6Δ ln(1/β) and S̄ is never exhausted."""
        return math.ceil(6 * d * self.sample_complexity * math.log(1 / self.beta))

    def interior_point(self) -> ExponentialMedian:
        """A: the exponential median on the refined grid at the per-call ε."""
        return self._median

    @cached_property
    def _median(self) -> ExponentialMedian:
        return ExponentialMedian(self.epsilon, grid_max=self.refined_max, idealised=self.idealised)

    def noise_base(self) -> float:
        """q = e^{−1/(2Δ)}: the base of the discrete Laplace noise of scale 2Δ."""
        return math.exp(-1 / (2 * self.sample_complexity))

    def size_pmf(self, available: Annotated[int, Integer(0, hi=2**26, clean=5)]) -> list[float]:
        """P(k_i = j) for j = 0..available: the law of :func:`clamp_size` of
        :func:`noisy_sizes` (closed forms: the discrete Laplace tails q^t/(1 + q) of
        :func:`dpspec.spec.laws.two_sided_cdf`, or the Laplace CDF for ``idealised``)."""
        return _size_pmf(self, available)


def _size_pmf(params: RandMarginsParameters, available: int) -> list[float]:
    """P(clamp(⌈μ + w⌉, 0, available) = j), j = 0..available (see
    :meth:`RandMarginsParameters.size_pmf`)."""
    if params.idealised:
        scale, mu = 2.0 * params.sample_complexity, params.mu

        def at_most(j: int) -> float:  # P(⌈μ + w⌉ ≤ j) = P(w ≤ j − μ)
            t = j - mu
            return 0.5 * math.exp(t / scale) if t < 0 else 1 - 0.5 * math.exp(-t / scale)

    else:
        c, q = math.ceil(params.mu), params.noise_base()

        def at_most(j: int) -> float:  # P(c + Z ≤ j) = P(Z ≤ j − c)
            return two_sided_cdf(j - c, q)

    cdf = [at_most(j) for j in range(available + 1)]
    law = [cdf[0]] + [cdf[j] - cdf[j - 1] for j in range(1, available + 1)]
    law[available] += 1 - cdf[available]
    return law


@checked
def clamp_size(
    raw: Annotated[int, Integer(-(2**62) + 1, clean=3)],
    available: Annotated[int, Integer(0, clean=5)],
) -> int:
    """k_i = raw clamped to [0, |S̄|] (B_i cannot hold more points than S̄ has)."""
    return min(max(raw, 0), available)


ParamsArg = Annotated[
    RandMarginsParameters,
    Instance(types=(RandMarginsParameters,), clean=RandMarginsParameters(7, 1.0, 0.05)),
]


@checked
def noisy_sizes(params: ParamsArg, d: AxesArg, rng: GeneratorArg) -> list[int]:
    """⌈μ + w_i⌉ for i = 1..d (before clamping): ⌈μ⌉ + discrete Laplace(2Δ), or the idealised
    ⌈μ + Lap(2Δ)⌉ in floating point."""
    if params.idealised:
        w = rng.laplace(0.0, 2.0 * params.sample_complexity, size=d)
        return [int(v) for v in np.ceil(params.mu + w)]
    z = discrete_laplace(Fraction(2 * params.sample_complexity), d, rng)
    return [math.ceil(params.mu) + int(v) for v in z]


@example(
    __call__={
        "points": np.array([[1, 2], [2, 3]], dtype=np.int64),
        "tags": np.array([0, 1], dtype=np.int64),
        "t": 2,
    }
)
@checked
def refined_points(
    points: PointsArg,
    tags: GridValuesArg,
    t: Annotated[int, Integer(1, clean=1)],
) -> NDArray[np.int64]:
    """y[i]·T + tag for every record and axis (one tag per record, in [0, T))."""
    if tags.shape[0] != points.shape[0]:
        raise ValueError(f"tags: one per record, got {tags.shape[0]} for {points.shape[0]}")
    if tags.size and int(tags.max()) >= t:
        raise ValueError(f"tags: must be in [0, {t - 1}]")
    return np.asarray(points * t + tags[:, None], dtype=np.int64)


@checked
def margin_set(
    values: GridValuesArg,
    k: Annotated[int, Integer(0, clean=3)],
    size: Annotated[int, Integer(1, clean=2)],
) -> NDArray[np.int64]:
    """D_i: the ``size`` smallest of the k largest ``values`` (sorted; k ≤ len(values))."""
    if k > values.size:
        raise ValueError(f"k: at most the {values.size} values, got {k}")
    ordered = np.sort(values)
    top = ordered[ordered.size - k :] if k else ordered[:0]
    return top[:size]


def _check_tags(points: NDArray[np.int64], params: RandMarginsParameters, tags: Any) -> None:
    """Given tags: one per record, each in [0, T)."""
    if tags is None:
        return
    if tags.shape[0] != points.shape[0]:
        raise ValueError(f"tags: one per record, got {tags.shape[0]} for {points.shape[0]}")
    if tags.size and int(tags.max()) >= params.tags:
        raise ValueError(f"tags: must be in [0, {params.tags - 1}]")


def _check_grid(points: NDArray[np.int64], grid_max: int, name: str) -> None:
    if points.size and int(points.max()) > grid_max:
        raise ValueError(f"{name}: coordinates must be in [0, {grid_max}]")


#: Per-record tags (a 1-D integer array, one per row, in [0, T)), or None to draw them.
OptionalTagsArg = Annotated[NDArray[np.int64] | None, optional(GridValues())]

_EXAMPLE_POINTS = np.array([[1, 2], [2, 3], [3, 1], [2, 2]], dtype=np.int64)


@example(__call__={"points": _EXAMPLE_POINTS})
@checked
def rand_margins(
    points: PointsArg,
    params: ParamsArg,
    rng: GeneratorArg,
    tags: OptionalTagsArg = None,
) -> NDArray[np.int64]:
    """One run of Algorithm 4 on the positive points (n, d): the refined thresholds q (d,)
    (p = q // T). ``tags``: one per record (drawn uniformly from {0..T−1} when None)."""
    return rand_margins_trace(points, params, rng, tags)[0]


@example(__call__={"points": _EXAMPLE_POINTS})
@checked
def rand_margins_trace(
    points: PointsArg,
    params: ParamsArg,
    rng: GeneratorArg,
    tags: OptionalTagsArg = None,
    watch: Annotated[int, Integer(0, clean=0)] = 0,
    *,
    remove: FlagArg = True,
) -> tuple[NDArray[np.int64], int]:
    """:func:`rand_margins` and |I_in|, the number of iterations whose B_i holds the record
    ``watch`` (Claim 5.3.1, L1364). ``remove=False`` skips the removal step (a broken variant
    for the claim's negative control)."""
    _check_grid(points, params.grid_max, "points")
    _check_tags(points, params, tags)
    if points.shape[0] and watch >= points.shape[0]:
        raise ValueError(f"watch: a record index below {points.shape[0]}, got {watch}")
    n, d = points.shape
    t = params.tags
    drawn = np.asarray(tags if tags is not None else rng.integers(0, t, size=n), dtype=np.int64)
    z = refined_points(points, drawn, t)
    median = params.interior_point()
    sizes = noisy_sizes(params, d, rng)
    alive = np.ones(n, dtype=bool)
    q = np.empty(d, dtype=np.int64)
    inside = 0
    for i in range(d):
        index = np.flatnonzero(alive)
        column = z[index, i]
        k = clamp_size(sizes[i], column.size)
        if n and alive[watch] and k:
            # the record is in B_i when fewer than k alive values exceed it (ties: by position)
            mine = z[watch, i]
            above = int(np.sum(column > mine)) + int(np.sum(column[index > watch] == mine))
            inside += above < k
        q[i] = int(median.sample(margin_set(column, k, params.sample_complexity), 1, rng)[0])
        if remove:
            alive &= ~(z[:, i] >= q[i])
    return q, inside


# --- the exact law ------------------------------------------------------------------------------


def _conditional_law(
    points: NDArray[np.int64],
    params: RandMarginsParameters,
    tags: NDArray[np.int64] | None = None,
    context: _LawContext | None = None,
) -> dict[tuple[int, ...], float]:
    """The exact law of p = q // T of :func:`rand_margins` given the per-record ``tags`` (zeros
    when None), by axis: the state after an axis is the set of alive records, so the law of
    (p_i, next state) sums A's law over the k_i and groups the refined thresholds q by the
    alive records below them — O(d · states · (n + grid)) work, not one branch per path. The
    law of the clamped k_i is ``params.size_pmf``; ``context`` shares A's laws between calls."""
    n, d = points.shape
    t = params.tags
    z = points * t + (np.zeros(n, np.int64) if tags is None else tags)[:, None]
    laws = context if context is not None else _LawContext(params)
    grid = np.arange(params.refined_max + 1)
    cell = (grid // t) * (n + 1)  # the group key of a threshold: (its p, its rank)
    states: dict[bytes, dict[tuple[int, ...], float]] = {np.ones(n, bool).tobytes(): {(): 1.0}}
    for i in range(d):
        following: dict[bytes, dict[tuple[int, ...], float]] = {}
        axis = z[:, i]
        for key, prefixes in states.items():
            alive = np.frombuffer(key, dtype=bool)
            column = np.sort(axis[alive])
            mass = np.zeros(grid.size)
            for k, pk in enumerate(laws.sizes(column.size)):
                if pk > 0:
                    top = column[column.size - k :] if k else column[:0]
                    mass += pk * laws.median(top[: laws.margin])
            ranks = np.searchsorted(column, grid, side="left")
            # the keys are non-decreasing in q (p and the rank both are): a group is a run
            keys = cell + ranks
            starts = np.empty(keys.size, dtype=bool)
            starts[0] = True
            np.not_equal(keys[1:], keys[:-1], out=starts[1:])
            first = np.flatnonzero(starts)
            which = np.cumsum(starts) - 1
            totals = np.bincount(which, weights=mass, minlength=first.size)
            # the records alive after the axis are those with q > z: a set fixed by the rank
            # of q among the alive z's, so one key per rank
            after: dict[int, bytes] = {}
            weights = list(prefixes.values())
            extended: dict[int, list[tuple[int, ...]]] = {}  # p_i ↦ the prefixes extended by it
            for g, rank, m in zip(
                first.tolist(), ranks[first].tolist(), totals.tolist(), strict=True
            ):
                if m <= 0:
                    continue
                p_i = g // t
                nxt = after.get(rank)
                if nxt is None:
                    nxt = after[rank] = (alive & (axis < g)).tobytes()
                outs = extended.get(p_i)
                if outs is None:
                    outs = extended[p_i] = [(*prefix, p_i) for prefix in prefixes]
                target = following.setdefault(nxt, {})
                get = target.get
                for out, w in zip(outs, weights, strict=True):
                    target[out] = get(out, 0.0) + w * m
        states = following
    law: dict[tuple[int, ...], float] = {}
    for prefixes in states.values():
        for out, w in prefixes.items():
            law[out] = law.get(out, 0.0) + w
    return law


class _LawContext:
    """What the exact law of one parameter set reuses: A's law on the refined grid as a float
    array, memoised by the multiset D, and the law of the clamped size, by |S̄|."""

    def __init__(self, params: RandMarginsParameters) -> None:
        self.params = params
        self.interior = params.interior_point()
        self.size = params.refined_max + 1
        self.margin = params.sample_complexity
        self.laws: dict[bytes, NDArray[np.float64]] = {}
        self.size_laws: dict[int, list[float]] = {}

    def median(self, data: NDArray[np.int64]) -> NDArray[np.float64]:
        key = data.tobytes()
        found = self.laws.get(key)
        if found is None:
            found = _median_law(self.interior, data, self.size)
            self.laws[key] = found
        return found

    def sizes(self, available: int) -> list[float]:
        found = self.size_laws.get(available)
        if found is None:
            found = self.params.size_pmf(available)
            self.size_laws[available] = found
        return found


def _median_law(median: ExponentialMedian, data: NDArray[np.int64], size: int) -> Any:
    """A's law on {0..size−1} as floats: base^{gap}/Z (the exact law rounded once per level),
    or exp(−ε·gap/2)/Z for the idealised median; uniform on ∅."""
    if data.size == 0:
        return np.full(size, 1.0 / size)
    lo, hi = int(data[0]), int(data[-1])  # data is sorted
    counts = np.bincount(data - lo, minlength=hi - lo + 1)
    at_most = np.cumsum(counts)
    scores = np.zeros(size, dtype=np.int64)
    scores[lo : hi + 1] = np.minimum(at_most, at_most[-1] - at_most + counts)
    gap = scores.max() - scores
    if median.idealised:
        weights = np.exp(-median.epsilon / 2 * gap)
    else:
        weights = np.exp(gap * math.log(float(median.base)))
    return np.asarray(weights / weights.sum(), dtype=np.float64)


# --- the baseline and the non-private learner ---------------------------------------------------


@example(__call__={"points": _EXAMPLE_POINTS, "grid_max": 7, "epsilon": 1.0, "delta": 1e-6})
@checked
def interior_point_baseline(
    points: PointsArg,
    grid_max: GridArg,
    epsilon: EpsilonArg,
    delta: DeltaArg,
    beta: BetaArg,
    rng: GeneratorArg,
) -> NDArray[np.int64]:
    """The baseline of §5.1 (L1223–1232), one-sided: per axis, A on the n = IP_A largest
    projections of the positives (n public). The d calls are composed to the caller's (ε, δ):
    each call runs at the larger of ε/d (basic composition, pure) and the per-step level of
    advanced composition over d calls (δ > 0; ``spec.composition.per_step_epsilon``)."""
    _check_grid(points, grid_max, "points")
    d = points.shape[1]
    step = baseline_step(epsilon, delta, d)
    n = interior_point_sample_complexity(grid_max, step, beta)
    median = ExponentialMedian(step, grid_max=grid_max)
    out = np.empty(d, dtype=np.int64)
    for i in range(d):
        column = np.sort(points[:, i])
        out[i] = int(
            median.sample(column[column.size - n :] if n < column.size else column, 1, rng)[0]
        )
    return out


@checked
def baseline_step(epsilon: EpsilonArg, delta: DeltaArg, d: AxesArg) -> float:
    """The per-axis ε of the baseline: max(ε/d, the advanced-composition step for (ε, δ) over
    d calls) — refused below the interior point's smallest call level 2^-10."""
    target = float(epsilon)
    step = target / d
    if delta > 0:
        step = max(step, per_step_epsilon(target, d, delta))
    if step < MIN_CALL_EPSILON:
        raise ValueError(
            f"epsilon: the baseline's per-axis level for (ε, δ) = ({target:g}, {delta:g}) over "
            f"d = {d} axes is {step:.3g}, below the smallest interior-point call level 2^-10"
        )
    return step


@example(__call__={"points": _EXAMPLE_POINTS})
@checked
def nonprivate_rectangle(points: PointsArg) -> NDArray[np.int64]:
    """The tightest anchored rectangle: per axis the largest positive coordinate (L1205–1213);
    −1 (empty) on an axis when there are no positives."""
    if points.shape[0] == 0:
        return np.full(points.shape[1], -1, dtype=np.int64)
    return np.asarray(points.max(axis=0), dtype=np.int64)


# --- deprecated names of 0.2 --------------------------------------------------------------------


@example(__call__={"points": _EXAMPLE_POINTS})
@checked
def release_law(
    points: PointsArg, params: ParamsArg, tags: OptionalTagsArg = None
) -> dict[tuple[int, ...], float]:
    """Deprecated: the law given the tags, ``PrivateRectangleClassifier.release_law``."""
    warnings.warn(
        "dpspec.rectangles.release_law is deprecated; use "
        "PrivateRectangleClassifier.release_law(X, y, tags=...)",
        DeprecationWarning,
        stacklevel=2,
    )
    _check_grid(points, params.grid_max, "points")
    _check_tags(points, params, tags)
    return _conditional_law(points, params, tags)


@checked
def size_law(
    params: ParamsArg, available: Annotated[int, Integer(0, hi=2**26, clean=5)]
) -> list[float]:
    """Deprecated: ``RandMarginsParameters.size_pmf(available)``."""
    warnings.warn(
        "dpspec.rectangles.size_law is deprecated; use RandMarginsParameters.size_pmf",
        DeprecationWarning,
        stacklevel=2,
    )
    return _size_pmf(params, available)


release_law.__deprecated_alias_of__ = "release_law"  # type: ignore[attr-defined]
size_law.__deprecated_alias_of__ = "release_law"  # type: ignore[attr-defined]
