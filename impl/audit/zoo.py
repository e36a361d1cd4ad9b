"""The bug zoo: correct and broken mechanisms with their true ε, for auditing the auditor.

Every entry is vectorised (``sample(data, n, rng)``), comes with the neighbouring pair it is
audited on and the (ε, δ) it *claims*, and states its true ε on that pair (closed form, exact
pmf, or ∞ for support shifts) with the reason. The cases follow the StatDP / DP-Sniper
benchmarks (``../shared/notes/auditing.md``) plus the seeds' own erratum (the exponential
mechanism printed without its ½, ``002_9f3104e4a0d86722.txt:L655``).

Query-vector mechanisms take the vector of query answers q ∈ ℝ^m as their ``data`` (each
query has sensitivity 1, as in the benchmarks); the pairs are StatDP's input patterns.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray

from dpspec.audit.zoo_base import Sampler, ScaleArg, ZooEntry, _Sampler, gaussian_epsilon
from dpspec.audit.zoo_kinds import kinds
from dpspec.mechanisms.discrete_laplace import DiscreteLaplaceMechanism
from dpspec.mechanisms.exponential import ExponentialMechanism
from dpspec.mechanisms.laplace import LaplaceMechanism
from dpspec.mechanisms.randomized_response import RandomizedResponse
from dpspec.validation import (
    Anything,
    Array,
    Checked,
    Choice,
    CountArg,
    EpsilonArg,
    Function,
    GeneratorArg,
    Integer,
    NameArg,
    Real,
    SizeArg,
    checked,
    example,
)

__all__ = [
    "FunctionMechanism",
    "ZooEntry",
    "data_threshold_sampler",
    "gaussian_epsilon",
    "gaussian_sampler",
    "laplace_sampler",
    "noisy_max_sampler",
    "rare_leak_sampler",
    "svt_no_threshold_noise_epsilon",
    "svt_sampler",
    "truncated_geometric_sampler",
    "vector_laplace_sampler",
    "zoo",
]

#: A query vector of the zoo's samplers (each query of sensitivity 1).
QueriesArg = Annotated[Any, Array(ndim=1)]


def _example_draws(data: Any, n: int, rng: np.random.Generator) -> NDArray[np.float64]:
    """The example sampler of :class:`FunctionMechanism`: q + Lap(1) for a real q."""
    q: float = Real().check(data, "data")
    out: NDArray[np.float64] = q + rng.laplace(0.0, 1.0, n)
    return out


@example(__init__={"name": "laplace", "fn": _example_draws}, sample={"data": 0.0})
class FunctionMechanism(Checked):
    """An audit target from a vectorised function ``fn(data, n, rng)`` and a name; its privacy
    is what the audit measures (the zoo wraps correct and broken samplers alike)."""

    __dpspec_fixture__ = "wraps the zoo's samplers, broken ones included: no privacy of its own"

    def __init__(self, name: NameArg, fn: Annotated[Sampler, Function()]) -> None:
        self.name = name
        self.fn = fn

    def sample(
        self,
        data: Annotated[Any, Anything(why="the sampler's input, read by the sampler")],
        size: SizeArg,
        rng: GeneratorArg,
    ) -> NDArray[Any]:
        return np.asarray(self.fn(data, size, rng))

    def __repr__(self) -> str:
        return f"FunctionMechanism({self.name!r})"


# --- samplers (vectorised over n runs) ---------------------------------------------------------


def _q(data: Any) -> NDArray[np.float64]:
    return np.atleast_1d(np.asarray(data, dtype=np.float64))


@checked
def laplace_sampler(scale: ScaleArg) -> Sampler:
    """q + Lap(scale) per coordinate."""

    def run(data: Any, n: int, rng: np.random.Generator) -> NDArray[np.float64]:
        q = _q(data)
        out = q + rng.laplace(0.0, scale, size=(n, q.size))
        return out[:, 0] if q.size == 1 else out

    return _Sampler("laplace_sampler", {"scale": scale}, run)


@checked
def gaussian_sampler(sigma: ScaleArg) -> Sampler:
    """q + N(0, σ²) on the first query."""

    def run(data: Any, n: int, rng: np.random.Generator) -> NDArray[np.float64]:
        return float(_q(data)[0]) + rng.normal(0.0, sigma, size=n)

    return _Sampler("gaussian_sampler", {"sigma": sigma}, run)


@example(__call__={"scales": (1.0, 4.0)})
@checked
def vector_laplace_sampler(scales: Annotated[Any, Array(ndim=1)]) -> Sampler:
    """q + (Lap(s_1), …, Lap(s_d)): a vector release with unequal coordinate scales; on a pair
    q, q' its true ε is Σ_j |q_j − q'_j|/s_j (attained on the orthant beyond both means)."""
    if not np.all(np.asarray(scales) > 0):
        raise ValueError(f"scales: every scale must be positive, got {scales!r}")
    scales = tuple(float(s) for s in np.asarray(scales))

    def run(data: Any, n: int, rng: np.random.Generator) -> NDArray[np.float64]:
        q = _q(data)
        if q.size != len(scales):
            raise ValueError(f"data: expected {len(scales)} coordinates, got {q.size}")
        out: NDArray[np.float64] = q + rng.laplace(0.0, 1.0, size=(n, q.size)) * np.asarray(scales)
        return out

    return _Sampler("vector_laplace_sampler", {"scales": scales}, run)


@checked
def noisy_max_sampler(
    noise: Annotated[str, Choice(options=("laplace", "exponential"))],
    scale: ScaleArg,
    returns: Annotated[str, Choice(options=("index", "value"))],
) -> Sampler:
    """Report-noisy-max over the query vector: ``noise`` "laplace" or "exponential" with the
    given scale; ``returns`` "index" (correct) or "value" (the StatDP bug)."""

    def run(data: Any, n: int, rng: np.random.Generator) -> NDArray[Any]:
        q = _q(data)
        if noise == "laplace":
            z = rng.laplace(0.0, scale, size=(n, q.size))
        else:
            z = rng.exponential(scale, size=(n, q.size))
        noisy = q + z
        return np.asarray(noisy.argmax(axis=1) if returns == "index" else noisy.max(axis=1))

    return _Sampler("noisy_max_sampler", {"noise": noise, "scale": scale, "returns": returns}, run)


@checked
def svt_sampler(
    rho_scale: Annotated[float, Real(0.0)], nu_scale: ScaleArg, c: CountArg = 1
) -> Sampler:
    """Sparse vector (threshold 0, cutoff c): answers ⊤ (1) while q_i + ν_i ≥ T + ρ, ⊥ (0)
    otherwise, and −1 for queries after the c-th ⊤ (stopped). Lyu et al. Alg 1 is
    ρ ~ Lap(2/ε), ν ~ Lap(4c/ε); Alg 4 (buggy) is ρ ~ Lap(4/ε), ν ~ Lap(4/(3ε));
    ``rho_scale = 0`` drops the threshold noise."""

    def run(data: Any, n: int, rng: np.random.Generator) -> NDArray[np.int64]:
        q = _q(data)
        rho = rng.laplace(0.0, rho_scale, size=(n, 1)) if rho_scale > 0 else np.zeros((n, 1))
        above = (q + rng.laplace(0.0, nu_scale, size=(n, q.size))) >= rho
        tops = np.cumsum(above, axis=1)
        out = above.astype(np.int64)
        stopped = np.concatenate([np.zeros((n, 1), bool), tops[:, :-1] >= c], axis=1)
        out[stopped] = -1
        return out

    return _Sampler("svt_sampler", {"rho_scale": rho_scale, "nu_scale": nu_scale, "c": c}, run)


@checked
def rare_leak_sampler(scale: ScaleArg, leak: Annotated[float, Real(0.0, 1.0)]) -> Sampler:
    """q + Lap(scale), except that with probability ``leak`` the raw q is returned."""

    def run(data: Any, n: int, rng: np.random.Generator) -> NDArray[np.float64]:
        q = float(_q(data)[0])
        out = q + rng.laplace(0.0, scale, size=n)
        out[rng.random(n) < leak] = q
        return out

    return _Sampler("rare_leak_sampler", {"scale": scale, "leak": leak}, run)


@checked
def data_threshold_sampler(epsilon: EpsilonArg) -> Sampler:
    """A label-private learner used as if fully private: the exponential mechanism (score
    −mistakes, weights e^{εs/2}) over thresholds *at the records' own x values*. Labels are
    protected; the candidate set reveals the x's (support shift under a change of one x)."""

    def run(data: Any, n: int, rng: np.random.Generator) -> NDArray[np.float64]:
        recs = np.asarray(data, dtype=np.float64).reshape(-1, 2)
        x, y = recs[:, 0], recs[:, 1]
        cands = np.sort(x)
        mistakes = np.array([np.sum((x >= t) != (y == 1)) for t in cands])
        logits = -float(epsilon) * mistakes / 2.0
        p = np.exp(logits - logits.max())
        return cands[rng.choice(cands.size, size=n, p=p / p.sum())]

    return _Sampler("data_threshold_sampler", {"epsilon": epsilon}, run)


def _rr_sampler(epsilon: float) -> Sampler:
    mech = RandomizedResponse(2, epsilon=epsilon)
    return lambda data, n, rng: mech.sample([data], n, rng)[:, 0]


def _int_sum(data: Any) -> int:
    return int(np.sum(data))


@checked
def truncated_geometric_sampler(
    epsilon: EpsilonArg, top: Annotated[int, Integer(0, limit="draws")]
) -> Sampler:
    """The count plus two-sided geometric noise (P(z) ∝ e^{−ε|z|}), clamped to {0..top}."""

    def run(data: Any, n: int, rng: np.random.Generator) -> NDArray[np.int64]:
        p = -math.expm1(-float(epsilon))
        z = rng.geometric(p, n) - rng.geometric(p, n)
        return np.asarray(np.clip(int(data) + z, 0, top), dtype=np.int64)

    return _Sampler("truncated_geometric_sampler", {"epsilon": epsilon, "top": top}, run)


def _sum(data: Any) -> float:
    return float(np.sum(data))


@example(__call__={"q": (1.0, 0.0, 1.0), "q2": (0.0, 1.0, 1.0), "nu_scale": 8.0, "c": 2})
@checked
def svt_no_threshold_noise_epsilon(
    q: QueriesArg, q2: QueriesArg, nu_scale: ScaleArg, c: CountArg
) -> float:
    """Exact max log-ratio of :func:`svt_sampler` with ρ = 0 on the pair (q, q2): queries are
    then independent, so the law of the output sequence is enumerated over all 2^m
    above/below patterns (m ≤ 16)."""
    a, b = _q(q), _q(q2)
    m = a.size
    if m > 16:
        raise ValueError("q: at most 16 queries for the exact enumeration")
    if b.size != m:
        raise ValueError(f"q2: expected {m} queries (as many as q), got {b.size}")

    def up(v: NDArray[np.float64]) -> NDArray[np.float64]:  # P(v + Lap(s) ≥ 0)
        return np.where(v >= 0, 1 - 0.5 * np.exp(-v / nu_scale), 0.5 * np.exp(v / nu_scale))

    pa, pb = up(a), up(b)
    laws: list[dict[tuple[int, ...], float]] = [{}, {}]
    for bits in range(2**m):
        above = [(bits >> i) & 1 for i in range(m)]
        out, tops = [], 0
        for i in range(m):
            out.append(-1 if tops >= c else above[i])
            tops += above[i] if tops < c else 0
        for law, p in zip(laws, (pa, pb), strict=True):
            prob = math.prod(p[i] if above[i] else 1 - p[i] for i in range(m))
            law[tuple(out)] = law.get(tuple(out), 0.0) + prob
    return max(abs(math.log(laws[0][k] / laws[1][k])) for k in laws[0] if laws[0][k] and laws[1][k])


# --- true ε ------------------------------------------------------------------------------------


def _em_no_half() -> tuple[ExponentialMechanism, tuple[Any, Any], float, float]:
    """The printed exponential mechanism (no ½), base e^{−ε} = 1/2, thresholds on {0..3} by
    −mistakes: claimed ε = ln 2, true ratio 25/7 on the pair the exact verifier found."""

    def mistakes(records: NDArray[Any]) -> NDArray[np.int64]:
        recs = np.asarray(records, dtype=np.int64).reshape(-1, 2)
        t = np.arange(4)[:, None]
        wrong = (recs[:, 0][None, :] >= t) != (recs[:, 1][None, :] == 1)
        return np.asarray(-np.sum(wrong, axis=1), dtype=np.int64)

    mech = ExponentialMechanism(mistakes, 1, base=Fraction(1, 2), half=False)
    a = np.array([[0, 0], [0, 0], [0, 0]])
    b = np.array([[0, 0], [0, 0], [0, 1]])
    pa, pb = mech.pmf(a), mech.pmf(b)
    true = max(math.log(float(pa[i]) / float(pb[i])) if float(pb[i]) else math.inf for i in pa)
    true = max(true, max(math.log(float(pb[i]) / float(pa[i])) for i in pa))
    return mech, (a, b), math.log(2.0), true


@checked
def zoo() -> dict[str, ZooEntry]:
    """Every zoo entry by name (built fresh: mechanisms hold no state between calls)."""
    e: dict[str, ZooEntry] = {}

    def add(
        name: str,
        fn: Any,
        pair: tuple[Any, Any],
        eps: float,
        true: float,
        why: str,
        delta: float = 0.0,
        samples: int = 5 * 10**4,
        **options: Any,
    ) -> None:
        mech = FunctionMechanism(name, fn) if callable(fn) else fn
        correct = true <= eps * (1 + 1e-9)
        e[name] = ZooEntry(
            name, mech, pair, eps, delta, true, correct, why, tuple(options.items()), samples
        )

    ones5, zeros5 = (1, 1, 1, 1, 1), (0, 0, 0, 0, 0)
    svt_d, svt_d2 = (1,) * 5 + (0,) * 5, (0,) * 5 + (1,) * 5
    # correct mechanisms
    add(
        "laplace",
        LaplaceMechanism(_sum, 1.0, 0.5, idealised=True),
        ((0.0,), (1.0,)),
        0.5,
        0.5,
        "Lap(Δ/ε) on a sensitivity-1 sum: log-ratio ≤ |a − a'|/b = ε",
        samples=10**6,  # the tightness target: ε_LCB ≥ 0.48
    )
    add(
        "laplace-lattice",
        LaplaceMechanism(_sum, 1.0, 0.5),
        ((0.0,), (1.0,)),
        0.5,
        0.5,
        "dpspec's float-safe lattice Laplace (exact discrete noise)",
    )
    add(
        "randomized-response",
        _rr_sampler(1.0),
        (0, 1),
        1.0,
        1.0,
        "keep w.p. e^ε/(1 + e^ε): ratio exactly e^ε",
    )
    add(
        "discrete-laplace",
        DiscreteLaplaceMechanism(_int_sum, 1, 0.5),
        ((0,), (1,)),
        0.5,
        0.5,
        "exact discrete Laplace (P(z) ∝ e^{−ε|z|}) on an integer sum: ratio ≤ e^ε, attained",
    )
    add(
        "truncated-geometric",
        truncated_geometric_sampler(0.5, 5),
        (2, 3),
        0.5,
        0.5,
        "two-sided geometric clamped to {0..5} (Ghosh et al.): clamping is post-processing",
    )
    add(
        "noisy-max-v1a",
        noisy_max_sampler("laplace", 2 / 0.7, "index"),
        (zeros5, ones5),
        0.7,
        0.7,
        "report-noisy-max with Lap(2/ε), returns the index (Dwork–Roth 3.9)",
    )
    add(
        "noisy-max-v2a",
        noisy_max_sampler("exponential", 2 / 0.7, "index"),
        (zeros5, ones5),
        0.7,
        0.7,
        "report-noisy-max with Exp(2/ε) noise, returns the index",
    )
    add(
        "svt",
        svt_sampler(2 / 0.5, 4 / 0.5),
        (svt_d, svt_d2),
        0.5,
        0.5,
        "sparse vector, Lyu et al. Alg 1, c = 1",
    )
    add(
        "histogram",
        laplace_sampler(1 / 0.7),
        ((1, 0, 0, 0, 0), (2, 0, 0, 0, 0)),
        0.7,
        0.7,
        "histogram (add/remove: one bin moves by 1) with Lap(1/ε) per bin",
    )
    add(
        "gaussian",
        gaussian_sampler(4.845),
        (0.0, 1.0),
        1.0,
        gaussian_epsilon(4.845, 1e-5),
        "σ = 4.845 = √(2 ln(1.25/δ))/ε (classic calibration): exact ε at δ = 1e-5 is 0.751",
        delta=1e-5,
    )
    add(
        "rare-leak-approx",
        rare_leak_sampler(2.0, 1e-3),
        (0.0, 1.0),
        0.5,
        0.5,
        "Lap(1/ε) but w.p. 1e-3 the raw value: (ε, 1e-3)-DP holds",
        delta=1e-3,
    )
    add(
        "laplace-lattice-float-attack",
        LaplaceMechanism(_sum, 1.0, 0.5),
        ((0.0,), (1.0,)),
        0.5,
        0.5,
        "the lattice Laplace audited as a float program (events on float bits): "
        "outputs are multiples of 2^-k, so the representation carries no extra information",
        float_bits=True,
    )
    # broken mechanisms
    add(
        "naive-float-laplace",
        laplace_sampler(10.0),
        (0.0, 1.0),
        0.1,
        math.inf,
        "textbook floating-point Laplace (numpy), audited as a float program: which float64 "
        "values q + Lap(b) can take depends on q (Mironov 2012), visible in the low mantissa "
        "bits; some outputs are impossible for the neighbour",
        float_bits=True,
    )
    add(
        "noisy-max-v1b",
        noisy_max_sampler("laplace", 2 / 0.7, "value"),
        (zeros5, ones5),
        0.7,
        2.5 * 0.7,
        "returns the noisy max *value* with Lap(2/ε): the max of 5 shifted "
        "Laplaces has density ∝ e^{5v/b} as v → −∞, so the log-ratio tends to 5/b = 2.5ε",
    )
    add(
        "noisy-max-v2b",
        noisy_max_sampler("exponential", 2 / 0.7, "value"),
        (zeros5, ones5),
        0.7,
        math.inf,
        "returns the max value with Exp(2/ε) noise: values < 1 are impossible "
        "under q = 1 (support shift), p₁ = (1 − e^{−ε/2})^5 = 2.25e-3",
        samples=10**6,  # no floor on p₂: the bound grows like ln N (target ≥ 5.5 at 10^6)
    )
    add(
        "svt-lyu-alg4",
        svt_sampler(4 / 0.5, 4 / (3 * 0.5)),
        (svt_d, svt_d2),
        0.5,
        0.875,
        "Lyu et al. Alg 4 (iSVT3): ρ ~ Lap(4/ε), ν ~ Lap(4/(3ε)): only (1 + 6c)/4·ε = 1.75ε",
    )
    add(
        "svt-no-threshold-noise",
        svt_sampler(0.0, 4 / 0.5, c=5),
        (svt_d, svt_d2),
        0.5,
        svt_no_threshold_noise_epsilon(svt_d, svt_d2, 4 / 0.5, 5),
        "SVT with no noise on the threshold and cutoff c = 5 (the analysis needs ρ): every "
        "answer costs ε/4 and ten answers are released (exact ε by enumeration)",
        samples=3 * 10**5,  # a 1024-pattern output: the atoms need the draws
    )
    add(
        "histogram-eps-0.2",
        laplace_sampler(0.2),
        ((1, 0, 0, 0, 0), (2, 0, 0, 0, 0)),
        0.2,
        5.0,
        "noise scale ε instead of 1/ε: true ε = 1/ε = 5",
    )
    add(
        "histogram-eps-0.7",
        laplace_sampler(0.7),
        ((1, 0, 0, 0, 0), (2, 0, 0, 0, 0)),
        0.7,
        1 / 0.7,
        "noise scale ε instead of 1/ε: true ε = 1/0.7 = 1.43",
    )
    add(
        "laplace-wrong-sensitivity",
        laplace_sampler(1 / 0.5),
        (0.0, 2.0),
        0.5,
        1.0,
        "Lap(1/ε) for a sum of values in [−1, 1] (sensitivity 2): true ε = 2ε",
    )
    add(
        "randomized-response-overclaimed",
        _rr_sampler(1.0),
        (0, 1),
        0.5,
        1.0,
        "keeps the bit w.p. e/(1 + e) but claims ε = 0.5",
    )
    add(
        "gaussian-small-sigma",
        gaussian_sampler(1.0),
        (0.0, 1.0),
        1.0,
        gaussian_epsilon(1.0, 1e-5),
        "σ = 1 claimed as (1, 1e-5)-DP: exact ε at δ = 1e-5 is 4.38",
        delta=1e-5,
    )
    add(
        "laplace-2d-unequal",
        vector_laplace_sampler((1.0, 4.0)),
        ((0.0, 0.0), (1.0, 1.0)),
        1.25,
        1.25,
        "q + (Lap(1), Lap(4)) on q − q' = (1, 1): ε = 1/1 + 1/4",
    )
    add(
        "histogram-substitution",
        vector_laplace_sampler((2.0, 2.0, 2.0)),
        ((5.0, 3.0, 2.0), (4.0, 4.0, 2.0)),
        1.0,
        1.0,
        "3-bin histogram, one record moves bin 1 → bin 2 (L1 distance 2), Lap(2/ε) per bin",
    )
    add(
        "histogram-substitution-half-noise",
        vector_laplace_sampler((1.0, 1.0, 1.0)),
        ((5.0, 3.0, 2.0), (4.0, 4.0, 2.0)),
        1.0,
        2.0,
        "the same histogram with Lap(1/ε): add/remove calibration used under substitution",
    )
    add(
        "rare-leak-1e-4",
        rare_leak_sampler(1.0, 1e-4),
        (0.0, 1.0),
        1.0,
        math.inf,
        "Lap(1/ε) but the raw value w.p. 1e-4: an atom q' never produces (decided at 3·10^5 "
        "draws, 30/p)",
        samples=3 * 10**5,
    )
    add(
        "rare-leak-pure",
        rare_leak_sampler(2.0, 1e-3),
        (0.0, 1.0),
        0.5,
        math.inf,
        "the raw value w.p. 1e-3: an atom at q that q' never produces (pure ε = ∞)",
    )
    mech, pair, claimed, true = _em_no_half()
    add(
        "exponential-no-half",
        mech,
        pair,
        claimed,
        true,
        "the thesis's exponential mechanism without the ½ (002 L655): ratio 25/7 > 2 = e^ε",
    )
    recs = ((0.2, 0), (0.5, 1), (0.8, 1))
    moved = ((0.3, 0), (0.5, 1), (0.8, 1))
    add(
        "label-private-as-private",
        data_threshold_sampler(1.0),
        (recs, moved),
        1.0,
        math.inf,
        "label-DP learner (thresholds at the data's x values) audited on a change of one x: "
        "the output 0.2 is impossible for the neighbour (support shift)",
    )
    for entry in kinds():
        e[entry.name] = entry
    return e
