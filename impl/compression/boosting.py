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
from typing import Annotated, Any, Protocol, runtime_checkable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpspec.compression.learners import ThresholdLearner, _Threshold
from dpspec.validation import (
    Anything,
    Array,
    Checked,
    GeneratorArg,
    Instance,
    Integer,
    Real,
    checked,
    example,
    require_within,
)

#: most boosting rounds T (each costs O(m) work and a hypothesis reference)
MAX_ROUNDS = 10**5
#: largest weak-learner sub-sample m̃ and Sparsify size n (stored points ≤ n·m̃)
MAX_SUBSAMPLE = 10**5
MAX_SPARSIFY = 10**5
#: largest retry budgets (weak-learner draws per round, Sparsify trials)
MAX_RETRIES = 10**6
#: most (rounds × sample points) one MedBoost run may touch, and most (distinct drawn
#: hypotheses × sample points) one Sparsify trial counts: each unit is a few vectorised
#: operations, so a run at the limit takes minutes, not hours
MAX_POINT_ROUNDS = 2**31

#: γ, the weak learners' edge: a real in (0, ½).
GammaArg = Annotated[float, Real(lo=0.0, hi=0.5, lo_open=True, hi_open=True, clean=0.125)]
#: γ of a weighted quantile: a real in [0, ½) (γ = 0: the median).
QuantileGammaArg = Annotated[float, Real(lo=0.0, hi=0.5, hi_open=True, clean=0.0)]
#: η, the accuracy of the weak hypotheses (η/2) and of Sparsify's vote (η): a real > 0.
EtaArg = Annotated[float, Real(lo=0.0, lo_open=True, hi=2.0**64, clean=0.5)]
#: Boosting rounds T.
RoundsArg = Annotated[int, Integer(lo=1, hi=MAX_ROUNDS, clean=20)]
#: The weak learner's sub-sample size m̃.
SubsampleArg = Annotated[int, Integer(lo=1, hi=MAX_SUBSAMPLE, clean=8)]
#: Sparsify's number of hypotheses n.
SparsifyArg = Annotated[int, Integer(lo=1, hi=MAX_SPARSIFY, clean=64)]
#: A retry budget (weak-learner draws per round, Sparsify trials).
RetriesArg = Annotated[int, Integer(lo=1, hi=MAX_RETRIES)]
#: Sample points: scalars (shape (m,)) or points of ℝ^d (shape (m, d)).
PointsArg = Annotated[ArrayLike, Array()]
#: Labels or real-valued targets, one per point.
TargetsArg = Annotated[ArrayLike, Array(ndim=1)]


def _check_rows(x: NDArray[Any], y: NDArray[Any]) -> None:
    if x.ndim not in (1, 2):
        raise ValueError(f"x: expected points of shape (m,) or (m, d), got {x.shape}")
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"y: expected {x.shape[0]} labels (one per point of x), got {len(y)}")


class CompressionFailure(ValueError):
    """A bounded loop (weak-learner retries, Sparsify trials) ran out of its budget."""


@checked
@example(__call__={"values": np.array([[0.0], [1.0], [2.0]]), "weights": np.ones(3)})
def weighted_quantiles(
    values: Annotated[ArrayLike, Array()],
    weights: Annotated[ArrayLike, Array(ndim=1)],
    gamma: QuantileGammaArg = 0.0,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """(Q⁻_γ, Q⁺_γ) of every column of ``values`` (T × m) with weights α (T), exactly as
    ``dpspec.spec.compression`` defines them (the upper median is Q⁺_0), vectorised:
    sort each column, the weight strictly above value v is the total minus the cumulative
    weight up to the last copy of v."""
    w = np.asarray(weights, dtype=np.float64)
    if np.any(w < 0) or not np.any(w > 0):
        raise ValueError("weights: must be >= 0 with a positive sum")
    # only weight shares matter: scale by a power of two (exact in floating point) so that the
    # largest weight is in [1/2, 1) and Σw stays finite even for weights near 1e308
    w = np.ldexp(w, -int(np.frexp(w.max())[1]))
    v = np.asarray(values, dtype=np.float64)
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


@checked
@example(__call__={"values": np.array([[0.0], [1.0]]), "weights": np.ones(2)})
def weighted_median(
    values: Annotated[ArrayLike, Array()], weights: Annotated[ArrayLike, Array(ndim=1)]
) -> NDArray[Any]:
    """The upper weighted median Q⁺_0 of every column (the median ρ of the compression schemes
    takes, with unit weights)."""
    return weighted_quantiles(values, weights, 0.0)[1]


@runtime_checkable
class WeakLearner(Protocol):
    """A deterministic proper ERM: ``learn(x, y)`` returns a hypothesis ``h(x) -> values``."""

    def learn(self, x: Any, y: Any) -> Any: ...


def _copies(
    h: Any,
    sub: NDArray[np.int64],
    t_max: int,
    distributions: list[NDArray[np.float64]],
    thetas: list[NDArray[np.float64]],
    tries: int,
    gamma: float,
    eta: float,
    trace: NDArray[np.float64],
) -> BoostResult:
    """Alg 2 line 8: after a zero-mistake round, T copies of that h_t with weights 1."""
    return BoostResult(
        [h] * t_max,
        np.ones(t_max),
        distributions,
        [sub] * t_max,
        thetas,
        tries,
        gamma,
        eta,
        trace,
        np.zeros(t_max, dtype=np.int64),
    )


@example(
    __init__={
        "hypotheses": [_Threshold(0.5)],
        "alphas": np.array([0.5]),
        "distributions": [np.full(2, 0.5)],
        "subsamples": [np.array([0, 1])],
        "thetas": [np.array([1.0, -1.0])],
        "tries": 1,
        "gamma": 0.125,
        "eta": 0.5,
    },
    all_predictions={"x": np.array([0.1, 0.9])},
    copies={"t_max": 3},
)
@dataclass
class BoostResult(Checked):
    """MedBoost's return values and trace: hypotheses, weights α, the distributions P_t, the
    sub-sample indices each h_t was trained on, θ^{(t)}, and the retries used."""

    hypotheses: Annotated[list[Any], Anything(why="the weak learner's hypotheses (callables)")]
    alphas: Annotated[NDArray[np.float64], Array(ndim=1)]
    distributions: Annotated[list[Any], Anything(why="MedBoost's P_t, one per finite round")]
    subsamples: Annotated[list[Any], Anything(why="the sub-sample indices of each h_t")]
    thetas: Annotated[list[Any], Anything(why="θ^(t) = ±1 per point, one per finite round")]
    tries: Annotated[int, Integer(lo=0, hi=2**62)]
    gamma: GammaArg
    eta: EtaArg
    #: α_t of every executed round (∞ for a zero-mistake round), aligned with distributions
    trace_alphas: Annotated[Any, Anything(why="α_t of every round, ∞ allowed")] = field(
        repr=False, default_factory=lambda: np.zeros(0)
    )

    #: ``which[t]`` indexes the distinct hypothesis behind h_t (copies share one)
    which: Annotated[Any, Anything(why="indices into the distinct hypotheses")] = field(
        repr=False, default_factory=lambda: np.zeros(0, np.int64)
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        alphas = np.asarray(self.alphas, dtype=np.float64)
        if len(self.hypotheses) != alphas.size or len(self.subsamples) != alphas.size:
            raise ValueError(
                f"alphas: one weight per hypothesis and sub-sample, got {alphas.size} weights, "
                f"{len(self.hypotheses)} hypotheses, {len(self.subsamples)} sub-samples"
            )
        if np.any(alphas < 0) or not np.any(alphas > 0):
            raise ValueError("alphas: must be >= 0 with a positive sum")
        self.trace_alphas = np.asarray(self.trace_alphas, dtype=np.float64)
        if self.trace_alphas.size == 0:
            self.trace_alphas = alphas
        self.which = np.asarray(self.which, dtype=np.int64)
        if self.which.size == 0:
            self.which = np.arange(len(self.hypotheses), dtype=np.int64)

    def all_predictions(self, x: PointsArg) -> NDArray[np.float64]:
        """The T × m matrix h_t(x_i), each distinct hypothesis evaluated once (O(T·m) memory,
        at most 1 GiB: for checks on small samples; boosting itself keeps only O(m))."""
        xs = np.asarray(x)
        rows: dict[int, NDArray[np.float64]] = {}
        require_within(
            float(len(self.which)) * len(xs) * 8, 2**30, "x", "bytes (T x m predictions)"
        )
        for t, r in enumerate(self.which.tolist()):
            if r not in rows:
                rows[r] = np.asarray(self.hypotheses[t](xs), dtype=np.float64)
        return np.stack([rows[r] for r in self.which.tolist()])

    def copies(self, t_max: RoundsArg) -> BoostResult:
        """Alg 2 line 8: after a zero-mistake round, T copies of the last h_t with weights 1."""
        return _copies(
            self.hypotheses[-1],
            self.subsamples[-1],
            t_max,
            self.distributions,
            self.thetas,
            self.tries,
            self.gamma,
            self.eta,
            np.asarray(self.trace_alphas, dtype=np.float64),
        )

    def kegl_bound(self) -> float:
        """Π_t e^{γα_t} Σ_i P_t(i) e^{−α_t θ_i^{(t)}} (Lemma 4.1.1's right-hand side)."""
        out = 1.0
        for a, p, th in zip(self.trace_alphas, self.distributions, self.thetas, strict=True):
            if math.isinf(a):
                return 0.0
            out *= math.exp(self.gamma * a) * float(np.sum(p * np.exp(-a * th)))
        return out


_EXAMPLE_X = np.array([0.1, 0.4, 0.6, 0.9])
_EXAMPLE_Y = np.array([0.0, 0.0, 1.0, 1.0])
_EXAMPLE_BOOST = BoostResult(
    [_Threshold(0.5)] * 2,
    np.array([0.4, 0.4]),
    [np.full(4, 0.25)] * 2,
    [np.array([1, 2])] * 2,
    [np.ones(4)] * 2,
    2,
    0.125,
    0.5,
)


@checked
@example(
    __call__={
        "x": _EXAMPLE_X,
        "y": _EXAMPLE_Y,
        "learner": ThresholdLearner(),
        "rounds": 5,
        "gamma": 0.125,
        "eta": 0.5,
        "subsample": 4,
    }
)
def medboost(
    x: PointsArg,
    y: TargetsArg,
    learner: Annotated[WeakLearner, Instance(types=(WeakLearner,))],
    rounds: RoundsArg,
    gamma: GammaArg,
    eta: EtaArg,
    subsample: SubsampleArg,
    rng: GeneratorArg,
    max_tries: RetriesArg = 200,
) -> BoostResult:
    """Kégl's MedBoost (Alg 2, L687) with weak hypotheses trained on ``subsample`` indices
    drawn from P_t (the generic weak learner of Thm 1.1.4, L197–203). At most
    :data:`MAX_POINT_ROUNDS` rounds × points, refused before any round."""
    xs, y = np.asarray(x), np.asarray(y, dtype=np.float64)
    _check_rows(xs, y)
    m = len(y)
    require_within(
        float(rounds) * m, MAX_POINT_ROUNDS, "rounds", "point-rounds (rounds x sample points)"
    )
    p = np.full(m, 1.0 / m)
    hyps: list[Any] = []
    alphas: list[float] = []
    dists: list[NDArray[np.float64]] = []
    subs: list[NDArray[np.int64]] = []
    thetas: list[NDArray[np.float64]] = []
    tries = 0
    for _ in range(rounds):
        for _attempt in range(max_tries):
            tries += 1
            idx = rng.choice(m, size=subsample, p=p)
            h = learner.learn(xs[idx], y[idx])
            pred = np.asarray(h(xs), dtype=np.float64)
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
            trace = np.array([*alphas, math.inf])
            return _copies(h, idx, rounds, [*dists, p], [*thetas, theta], tries, gamma, eta, trace)
        alpha = 0.5 * math.log((1 - gamma) * (1 - err) / ((1 + gamma) * err))
        hyps.append(h)
        alphas.append(alpha)
        dists.append(p)
        subs.append(idx)
        thetas.append(theta)
        p = p * np.exp(-alpha * theta)
        p = p / p.sum()
    return BoostResult(hyps, np.array(alphas), dists, subs, thetas, tries, gamma, eta)


@example(__init__={"chosen": np.array([0, 1, 1]), "trials": 1})
@dataclass
class SparsifyResult(Checked):
    """The n chosen hypotheses (indices into the boosting result) and the trials used."""

    chosen: Annotated[NDArray[np.int64], Array(ndim=1, kind="integer")]
    trials: Annotated[int, Integer(lo=1, hi=MAX_RETRIES)]


@checked
@example(__call__={"boost": _EXAMPLE_BOOST, "x": _EXAMPLE_X, "y": _EXAMPLE_Y, "n": 3, "eta": 0.5})
def sparsify(
    boost: Annotated[BoostResult, Instance(types=(BoostResult,))],
    x: PointsArg,
    y: TargetsArg,
    n: SparsifyArg,
    eta: EtaArg,
    rng: GeneratorArg,
    max_trials: RetriesArg = 100,
) -> SparsifyResult:
    """Sparsify (Alg 3, L936–938): draw J_1..J_n ~ Cat(α/Σα) until every sample point has
    fewer than n/2 drawn hypotheses with |f(x_i) − y_i| > η (binary: f(x_i) ≠ y_i). Each
    trial counts, per point, over the distinct drawn hypotheses (at most min(n, T) rows of m
    points: refused before any trial beyond :data:`MAX_POINT_ROUNDS`)."""
    xs, y = np.asarray(x), np.asarray(y, dtype=np.float64)
    _check_rows(xs, y)
    distinct = int(np.unique(boost.which).size)
    require_within(
        float(min(n, distinct)) * len(y),
        MAX_POINT_ROUNDS,
        "n",
        "counts per trial (distinct drawn hypotheses x sample points)",
    )
    weights = np.asarray(boost.alphas, dtype=np.float64)
    probs = weights / weights.sum()
    far: dict[int, NDArray[np.bool_]] = {}  # distinct hypothesis → 1[|h(x_i) − y_i| > η]
    first: dict[int, int] = {}  # distinct hypothesis → one round t that holds it
    for t, r in enumerate(boost.which.tolist()):
        first.setdefault(r, t)
    for trial in range(1, max_trials + 1):
        chosen = rng.choice(len(probs), size=n, p=probs)
        rows, multiplicity = np.unique(boost.which[chosen], return_counts=True)
        count = np.zeros(len(y), dtype=np.int64)
        for row, k in zip(rows.tolist(), multiplicity.tolist(), strict=True):
            if row not in far:
                far[row] = np.abs(np.asarray(boost.hypotheses[first[row]](xs)) - y) > eta
            count += k * far[row]
        if np.max(count) < n / 2:
            return SparsifyResult(chosen.astype(np.int64), trial)
    raise CompressionFailure(f"max_trials: Sparsify found no good {n}-subset in {max_trials}")
