"""MedBoost and Sparsify (seed 002 ch. 4, ``002_9f3104e4a0d86722.txt``: Alg 2 at L687, Alg 3 at
L936–938), with vectorised weighted quantiles (L693–703).

MedBoost, read consistently (the printed t = 0..T and P_0 over {1..n} are index slips):

    P_1 = uniform on [m]
    for t = 1..T:
        repeat h_t = WeakLearner(sub-sample of m̃ indices drawn from P_t)
        until Σ_i P_t(i)·1[|h_t(x_i) − y_i| > η/2] ≤ ½ − γ          (bounded: ``max_tries``)
        θ_i = 1 − 2·1[|h_t(x_i) − y_i| > η/2]
        α_t = ½ ln((1 − γ)·Σ P_t 1[θ = 1] / ((1 + γ)·Σ P_t 1[θ = −1]))
        if no weighted mistake (α_t = ∞): return T copies of h_t with weights 1
        P_{t+1}(i) ∝ P_t(i)·exp(−α_t θ_i)

Sparsify draws n indices from Cat(α/Σα) until every sample point has fewer than n/2 of the
drawn hypotheses more than η away from its label (η is passed explicitly: the printed
signature omits it), with a bounded number of trials.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from dpspec.validation import as_finite_array, check_count, check_positive, check_rng

#: most boosting rounds T (each costs O(m) work and a hypothesis reference)
MAX_ROUNDS = 10**5
#: largest weak-learner sub-sample m̃ and Sparsify size n (stored points ≤ n·m̃)
MAX_SUBSAMPLE = 10**5
MAX_SPARSIFY = 10**5
#: largest retry budgets (weak-learner draws per round, Sparsify trials)
MAX_RETRIES = 10**6


def check_gamma(gamma: Any, name: str = "gamma", allow_zero: bool = False) -> float:
    """γ: a real number in (0, ½) (in [0, ½) with ``allow_zero``), not a bool or a string."""
    if isinstance(gamma, bool) or not isinstance(
        gamma, (int, float, Fraction, np.integer, np.floating)
    ):
        raise TypeError(f"{name}: expected a number in (0, 1/2), got {gamma!r}")
    v = float(gamma)
    ok = math.isfinite(v) and (v >= 0 if allow_zero else v > 0) and v < 0.5
    if not ok:
        interval = "[0, 1/2)" if allow_zero else "(0, 1/2)"
        raise ValueError(f"{name}: must be in {interval}, got {gamma!r}")
    return v


def check_bounded_count(n: Any, name: str, maximum: int, minimum: int = 1) -> int:
    """An integer in [minimum, maximum]; the upper limit bounds the work one argument causes."""
    v = check_count(n, name, minimum)
    if v > maximum:
        raise ValueError(f"{name}: at most {maximum} (a work limit), got {n!r}")
    return v


class CompressionFailure(ValueError):
    """A bounded loop (weak-learner retries, Sparsify trials) ran out of its budget."""


def weighted_quantiles(
    values: NDArray[np.float64], weights: NDArray[np.float64], gamma: float
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """(Q⁻_γ, Q⁺_γ) of every column of ``values`` (T × m) with weights α (T), exactly as
    ``dpspec.spec.compression`` defines them (the upper median is Q⁺_0), vectorised:
    sort each column, the weight strictly above value v is the total minus the cumulative
    weight up to the last copy of v."""
    gamma = check_gamma(gamma, allow_zero=True)
    w = as_finite_array(weights, "weights", ndim=1).astype(np.float64)
    if np.any(w < 0) or not np.any(w > 0):
        raise ValueError("weights: must be >= 0 with a positive sum")
    # only weight shares matter: scale by a power of two (exact in floating point) so that the
    # largest weight is in [1/2, 1) and Σw stays finite even for weights near 1e308
    w = np.ldexp(w, -int(np.frexp(w.max())[1]))
    v = as_finite_array(values, "values").astype(np.float64)
    if v.ndim not in (1, 2):
        raise ValueError(f"values: expected shape (T,) or (T, m), got {v.shape}")
    if v.shape[0] != w.size:
        raise ValueError(
            f"weights: expected {v.shape[0]} weights (one per row of values), got {w.size}"
        )
    order = np.argsort(v, axis=0, kind="stable")
    sv = np.take_along_axis(v, order, axis=0)
    sw = w[order]
    total = w.sum()
    cum = np.cumsum(sw, axis=0)
    # weight ≤ v at each sorted position: cumulative weight at the last index with the same value
    t_len = sv.shape[0]
    last = np.empty_like(cum)
    last[-1] = cum[-1]
    for k in range(t_len - 2, -1, -1):  # T is small (boosting rounds); columns vectorised
        same = sv[k] == sv[k + 1]
        last[k] = np.where(same, last[k + 1], cum[k])
    first_below = np.empty_like(cum)  # weight strictly below v
    first_below[0] = 0.0
    for k in range(1, t_len):
        same = sv[k] == sv[k - 1]
        first_below[k] = np.where(same, first_below[k - 1], cum[k - 1])
    limit = (0.5 - gamma) * total
    above = total - last
    plus_ok = above < limit
    minus_ok = first_below < limit
    big = np.where(plus_ok, sv, np.inf).min(axis=0)
    small = np.where(minus_ok, sv, -np.inf).max(axis=0)
    return small, big


def weighted_median(values: NDArray[np.float64], weights: NDArray[np.float64]) -> NDArray[Any]:
    """The upper weighted median Q⁺_0 of every column."""
    return weighted_quantiles(values, weights, 0.0)[1]


class WeakLearner(Protocol):
    """A deterministic proper ERM: ``fit(x, y)`` returns a hypothesis ``h(x) -> values``."""

    def fit(self, x: NDArray[Any], y: NDArray[Any]) -> Any: ...


@dataclass
class BoostResult:
    """MedBoost's return values and trace: hypotheses, weights α, the distributions P_t, the
    sub-sample indices each h_t was trained on, θ^{(t)}, and the retries used."""

    hypotheses: list[Any]
    alphas: NDArray[np.float64]
    distributions: list[NDArray[np.float64]]
    subsamples: list[NDArray[np.int64]]
    thetas: list[NDArray[np.float64]]
    tries: int
    gamma: float
    eta: float
    #: α_t of every executed round (∞ for a zero-mistake round), aligned with distributions
    trace_alphas: NDArray[np.float64] = field(repr=False, default_factory=lambda: np.zeros(0))

    #: ``which[t]`` indexes the distinct hypothesis behind h_t (copies share one)
    which: NDArray[np.int64] = field(repr=False, default_factory=lambda: np.zeros(0, np.int64))

    def __post_init__(self) -> None:
        if self.trace_alphas.size == 0:
            self.trace_alphas = np.asarray(self.alphas, dtype=np.float64)
        if self.which.size == 0:
            self.which = np.arange(len(self.hypotheses), dtype=np.int64)

    def all_predictions(self, x: NDArray[Any]) -> NDArray[np.float64]:
        """The T × m matrix h_t(x_i), each distinct hypothesis evaluated once (O(T·m) memory:
        for checks on small samples; boosting itself keeps only O(m))."""
        rows: dict[int, NDArray[np.float64]] = {}
        for t, r in enumerate(self.which.tolist()):
            if r not in rows:
                rows[r] = np.asarray(self.hypotheses[t](x), dtype=np.float64)
        return np.stack([rows[r] for r in self.which.tolist()])

    def copies(self, t_max: int) -> BoostResult:
        """Alg 2 line 8: after a zero-mistake round, T copies of that h_t with weights 1."""
        h, sub = self.hypotheses[-1], self.subsamples[-1]
        return BoostResult(
            [h] * t_max,
            np.ones(t_max),
            self.distributions,
            [sub] * t_max,
            self.thetas,
            self.tries,
            self.gamma,
            self.eta,
            np.asarray(self.alphas, dtype=np.float64),
            np.zeros(t_max, dtype=np.int64),
        )

    def kegl_bound(self) -> float:
        """Π_t e^{γα_t} Σ_i P_t(i) e^{−α_t θ_i^{(t)}} (Lemma 4.1.1's right-hand side)."""
        out = 1.0
        for a, p, th in zip(self.trace_alphas, self.distributions, self.thetas, strict=True):
            if math.isinf(a):
                return 0.0
            out *= math.exp(self.gamma * a) * float(np.sum(p * np.exp(-a * th)))
        return out


def medboost(
    x: NDArray[Any],
    y: NDArray[np.float64],
    learner: WeakLearner,
    rounds: int,
    gamma: float,
    eta: float,
    subsample: int,
    rng: np.random.Generator,
    max_tries: int = 200,
) -> BoostResult:
    """Kégl's MedBoost (Alg 2, L687) with weak hypotheses trained on ``subsample`` indices
    drawn from P_t (the generic weak learner of Thm 1.1.4, L197–203)."""
    check_rng(rng)
    t_max = check_bounded_count(rounds, "rounds", MAX_ROUNDS)
    gamma = check_gamma(gamma)
    eta = check_positive(eta, "eta")
    subsample = check_bounded_count(subsample, "subsample", MAX_SUBSAMPLE)
    max_tries = check_bounded_count(max_tries, "max_tries", MAX_RETRIES)
    y = as_finite_array(y, "y", ndim=1).astype(np.float64)
    m = len(y)
    if len(x) != m:
        raise ValueError(f"y: expected {len(x)} labels (one per point of x), got {m}")
    p = np.full(m, 1.0 / m)
    hyps: list[Any] = []
    alphas: list[float] = []
    dists: list[NDArray[np.float64]] = []
    subs: list[NDArray[np.int64]] = []
    thetas: list[NDArray[np.float64]] = []
    tries = 0
    for _ in range(t_max):
        for _attempt in range(max_tries):
            tries += 1
            idx = rng.choice(m, size=subsample, p=p)
            h = learner.fit(x[idx], y[idx])
            pred = np.asarray(h(x), dtype=np.float64)
            miss = np.abs(pred - y) > eta / 2
            err = float(np.sum(p[miss]))
            if err <= 0.5 - gamma:
                break
        else:
            raise CompressionFailure(
                f"max_tries: no ({eta / 2}, {gamma})-weak hypothesis in {max_tries} draws "
                "(labels not realizable by the class, or gamma too large)"
            )
        theta: NDArray[np.float64] = np.where(miss, -1.0, 1.0)
        if err == 0.0:  # α_t = ∞: T copies of h_t with weights 1
            return BoostResult(
                [*hyps, h],
                np.array([*alphas, math.inf]),
                [*dists, p],
                [*subs, idx],
                [*thetas, theta],
                tries,
                gamma,
                eta,
            ).copies(t_max)
        alpha = 0.5 * math.log((1 - gamma) * (1 - err) / ((1 + gamma) * err))
        hyps.append(h)
        alphas.append(alpha)
        dists.append(p)
        subs.append(idx)
        thetas.append(theta)
        p = p * np.exp(-alpha * theta)
        p = p / p.sum()
    return BoostResult(hyps, np.array(alphas), dists, subs, thetas, tries, gamma, eta)


@dataclass
class SparsifyResult:
    """The n chosen hypotheses (indices into the boosting result) and the trials used."""

    chosen: NDArray[np.int64]
    trials: int


def sparsify(
    boost: BoostResult,
    x: NDArray[Any],
    y: NDArray[np.float64],
    n: int,
    eta: float,
    rng: np.random.Generator,
    max_trials: int = 100,
) -> SparsifyResult:
    """Sparsify (Alg 3, L936–938): draw J_1..J_n ~ Cat(α/Σα) until every sample point has
    fewer than n/2 drawn hypotheses with |f(x_i) − y_i| > η (binary: f(x_i) ≠ y_i)."""
    check_rng(rng)
    n = check_bounded_count(n, "n", MAX_SPARSIFY)
    eta = check_positive(eta, "eta")
    max_trials = check_bounded_count(max_trials, "max_trials", MAX_RETRIES)
    y = as_finite_array(y, "y", ndim=1).astype(np.float64)
    if len(x) != len(y):
        raise ValueError(f"y: expected {len(x)} labels (one per point of x), got {len(y)}")
    weights = np.asarray(boost.alphas, dtype=np.float64)
    probs = weights / weights.sum()
    far: dict[int, NDArray[np.bool_]] = {}  # distinct hypothesis → 1[|h(x_i) − y_i| > η]
    for trial in range(1, max_trials + 1):
        chosen = rng.choice(len(probs), size=n, p=probs)
        count = np.zeros(len(y), dtype=np.int64)
        for t in chosen.tolist():
            row = int(boost.which[t])
            if row not in far:
                far[row] = np.abs(np.asarray(boost.hypotheses[t](x)) - y) > eta
            count += far[row]
        if np.max(count) < n / 2:
            return SparsifyResult(chosen.astype(np.int64), trial)
    raise CompressionFailure(f"max_trials: Sparsify found no good {n}-subset in {max_trials}")
