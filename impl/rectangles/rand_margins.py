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
exactly; ``idealised=True`` draws the thesis's continuous Laplace w_i in floating point.

**Ties** (the notes' fix). Under the printed rule, points sharing a coordinate leave together:
all mass at (5, 9) makes p₁ = 5 remove every point, and p₂ = A(∅) is uniform — every positive is
misclassified w.p. 9/(X + 1). With ``tags = T > 1`` every record gets an independent uniform tag
t ∈ {0, …, T−1} and each axis is ordered by the refined coordinate y[i]·T + t: A runs on the
refined grid {0, …, (X + 1)T − 1}, removal is by the refined threshold q_i, and p_i = ⌊q_i/T⌋.
For every fixed tag assignment this is the printed algorithm on distinct-ish coordinates, so it is
private with the same parameters (a mixture over data-independent randomness); ``tags=1`` is the
printed rule.

The output law for fixed tags is :func:`release_law` (enumeration of the (k, q) tree with the
exact law of each k_i and A's pmf); ``rand_margins`` draws from it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from dpspec.noise import discrete_laplace, discrete_laplace_sf
from dpspec.rectangles.interior_point import (
    ExponentialMedian,
    check_beta,
    interior_point_sample_complexity,
)
from dpspec.validation import check_count, check_epsilon, check_rng

#: Largest refined grid (X + 1)·T (A scores every refined grid point).
MAX_REFINED_GRID = 2**22


@dataclass(frozen=True)
class RandMarginsParameters:
    """The public parameters of one run: grid {0..X}, per-call ε of A, β, tags T, idealised."""

    grid_max: int
    epsilon: float
    beta: float
    tags: int = 1
    idealised: bool = False

    def __post_init__(self) -> None:
        check_count(self.grid_max, "grid_max")
        check_epsilon(self.epsilon)
        check_beta(self.beta)
        check_count(self.tags, "tags")
        if (self.grid_max + 1) * self.tags > MAX_REFINED_GRID:
            raise ValueError(
                f"tags: (X + 1)·tags must be at most {MAX_REFINED_GRID}, got "
                f"{(self.grid_max + 1) * self.tags}"
            )

    @property
    def refined_max(self) -> int:
        """The largest refined coordinate (X + 1)T − 1."""
        return (self.grid_max + 1) * self.tags - 1

    @property
    def sample_complexity(self) -> int:
        """Δ = IP_A on the refined grid."""
        return interior_point_sample_complexity(self.refined_max, self.epsilon, self.beta)

    @property
    def mu(self) -> float:
        """μ = 4Δ ln(1/β)."""
        return 4 * self.sample_complexity * math.log(1 / self.beta)

    def interior_point(self) -> ExponentialMedian:
        return ExponentialMedian(self.refined_max, self.epsilon)

    def noise_base(self) -> float:
        """q = e^{−1/(2Δ)}: the base of the discrete Laplace noise of scale 2Δ."""
        return math.exp(-1 / (2 * self.sample_complexity))


def clamp_size(raw: int, available: int) -> int:
    """k_i = raw clamped to [0, |S̄|] (B_i cannot hold more points than S̄ has)."""
    return min(max(raw, 0), available)


def noisy_sizes(params: RandMarginsParameters, d: int, rng: np.random.Generator) -> list[int]:
    """⌈μ + w_i⌉ for i = 1..d (before clamping): ⌈μ⌉ + discrete Laplace(2Δ), or the idealised
    ⌈μ + Lap(2Δ)⌉ in floating point."""
    if params.idealised:
        w = rng.laplace(0.0, 2.0 * params.sample_complexity, size=d)
        return [int(v) for v in np.ceil(params.mu + w)]
    z = discrete_laplace(Fraction(2 * params.sample_complexity), d, rng)
    return [math.ceil(params.mu) + int(v) for v in z]


def size_law(params: RandMarginsParameters, available: int) -> list[float]:
    """P(k_i = j) for j = 0..available: the law of :func:`clamp_size` of :func:`noisy_sizes`."""
    if params.idealised:
        scale = 2.0 * params.sample_complexity

        def cdf(t: float) -> float:  # P(w ≤ t)
            return 0.5 * math.exp(t / scale) if t < 0 else 1 - 0.5 * math.exp(-t / scale)

        # P(⌈μ + w⌉ ≤ j) = P(w ≤ j − μ)
        at_most = [cdf(j - params.mu) for j in range(available + 1)]
    else:
        c, q = math.ceil(params.mu), params.noise_base()
        at_most = [1 - float(discrete_laplace_sf(j - c + 1, q)) for j in range(available + 1)]
    law = [at_most[0]] + [at_most[j] - at_most[j - 1] for j in range(1, available + 1)]
    law[available] += 1 - at_most[available]
    return law


def refined_points(points: NDArray[np.int64], tags: NDArray[np.int64], t: int) -> NDArray[np.int64]:
    """y[i]·T + tag for every record and axis."""
    return np.asarray(points * t + tags[:, None], dtype=np.int64)


def margin_set(values: NDArray[np.int64], k: int, size: int) -> NDArray[np.int64]:
    """D_i: the ``size`` smallest of the k largest ``values`` (sorted)."""
    ordered = np.sort(values)
    top = ordered[ordered.size - k :] if k else ordered[:0]
    return top[:size]


def rand_margins(
    points: NDArray[np.int64],
    params: RandMarginsParameters,
    rng: np.random.Generator,
    tags: NDArray[np.int64] | None = None,
) -> NDArray[np.int64]:
    """One run of Algorithm 4 on the positive points (n, d): the refined thresholds q (d,)
    (p = q // T). ``tags``: one per record (drawn uniformly from {0..T−1} when None)."""
    return rand_margins_trace(points, params, rng, tags)[0]


def rand_margins_trace(
    points: NDArray[np.int64],
    params: RandMarginsParameters,
    rng: np.random.Generator,
    tags: NDArray[np.int64] | None = None,
    watch: int = 0,
    *,
    remove: bool = True,
) -> tuple[NDArray[np.int64], int]:
    """:func:`rand_margins` and |I_in|, the number of iterations whose B_i holds the record
    ``watch`` (Claim 5.3.1, L1364). ``remove=False`` skips the removal step (a broken variant
    for the claim's negative control)."""
    check_rng(rng)
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


def release_law(
    points: NDArray[np.int64], params: RandMarginsParameters, tags: NDArray[np.int64] | None = None
) -> dict[tuple[int, ...], float]:
    """Exact law of p = q // T of :func:`rand_margins` for fixed ``tags`` (zeros when None):
    the (k, q) tree, each k_i with :func:`size_law`, each q_i with A's pmf (tiny grids only)."""
    n, d = points.shape
    t = params.tags
    z = refined_points(points, np.zeros(n, np.int64) if tags is None else tags, t)
    median = params.interior_point()
    out: dict[tuple[int, ...], float] = {}
    laws: dict[tuple[int, ...], dict[int, Fraction | float]] = {}

    def visit(i: int, alive: NDArray[np.bool_], prefix: tuple[int, ...], weight: float) -> None:
        if i == d:
            key = tuple(v // t for v in prefix)
            out[key] = out.get(key, 0.0) + weight
            return
        column = z[alive, i]
        for k, pk in enumerate(size_law(params, column.size)):
            if pk == 0:
                continue
            margin = margin_set(column, k, params.sample_complexity)
            key = tuple(margin.tolist())
            if key not in laws:
                laws[key] = median.pmf(margin)
            for qi, pq in laws[key].items():
                if pq:
                    visit(i + 1, alive & ~(z[:, i] >= qi), (*prefix, qi), weight * pk * float(pq))

    visit(0, np.ones(n, dtype=bool), (), 1.0)
    return out


def interior_point_baseline(
    points: NDArray[np.int64],
    grid_max: int,
    epsilon_step: float,
    beta: float,
    rng: np.random.Generator,
) -> NDArray[np.int64]:
    """The baseline of §5.1 (L1223–1232), one-sided: per axis, A on the n = IP_A largest
    projections of the positives (n public), each call (ε_step, 0)-DP; the d calls compose."""
    n = interior_point_sample_complexity(grid_max, epsilon_step, beta)
    median = ExponentialMedian(grid_max, epsilon_step)
    d = points.shape[1]
    out = np.empty(d, dtype=np.int64)
    for i in range(d):
        column = np.sort(points[:, i])
        out[i] = int(
            median.sample(column[column.size - n :] if n < column.size else column, 1, rng)[0]
        )
    return out


def nonprivate_rectangle(points: NDArray[np.int64]) -> NDArray[np.int64]:
    """The tightest anchored rectangle: per axis the largest positive coordinate (L1205–1213);
    −1 (empty) on an axis when there are no positives."""
    if points.shape[0] == 0:
        return np.full(points.shape[1], -1, dtype=np.int64)
    return np.asarray(points.max(axis=0), dtype=np.int64)
