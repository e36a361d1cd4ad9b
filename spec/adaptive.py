"""Adaptive data analysis with correlated samples (thesis ch. 7, ``002_9f3104e4a0d86722.txt``), as
exact predicates on finite product spaces.

A measure μ on Ω^n is a mapping from n-tuples to probabilities (``Fraction`` where the law is
rational). Line numbers refer to the thesis.

* Gibbs dependence (Def 1.3.1, L337–341): ψ(μ) = sup_x (1/n) Σ_i ‖μ_i(·) − μ_i(·|x^{−i})‖_TV, the
  sup over x in the support (:func:`gibbs_dependence`); ψ = 0 for product measures and
  ‖μ − ⊗μ_i‖_TV ≤ nψ (L343).
* Undirected Markov chains (Def 7.3.1–7.3.2, L2147–2159): μ(x) ∝ Π_i g_i(x_i, x_{i+1}) with
  g_i > 0 (:func:`markov_chain`), R = max g, r = min g and R̄ = (R² − r²)/(R² + r²)
  (:func:`r_bar`; L2159 prints R²r²/(R² + r²), which is not even invariant under scaling g).
* Skipping (Def 7.3.5, L2177): μ_{×t} is the law of (x_0, x_t, x_2t, …) (:func:`skip`).
* Statistical queries (L615–627): q(S) = mean of q over the coordinates of S, q(μ) = mean over i
  of E_μ q(x_i) (:func:`query_mean`, :func:`population_mean`); the concentration radius
  γ(q, μ, δ) of Def 7.2.2 (L2084–2086), the least γ with P(|q(S) − q(μ)| > γ) < δ
  (:func:`concentration_radius`, :func:`deviation_probability`).
* Kontorovich's contraction (Lemma 7.3.9, L2204) and the coefficients γ_i^t, c_i^t of the proof
  of Thm 7.3.6 (L2197–2203): :func:`kontorovich_distance`, :func:`conditional_law`,
  :func:`gamma_coefficient`, :func:`c_coefficient`.
* Lemma 7.1.1's mechanism on T samples (L1952): the exponential mechanism over (predicate,
  sample index) pairs with score h(S_t) − h(μ), :func:`exponential_predicate_law`.
* Laws written from their definitions, against which the implementation's laws are pinned:
  the clipped discrete-Laplace answer (:func:`clipped_count_law`), its continuous counterpart
  on unit bins (:func:`clipped_laplace_bins`), and Algorithm 10's output by enumeration of the
  released counts (:func:`argmax_release_law`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from itertools import product
from typing import Any, TypeVar

from dpspec.spec.laws import two_sided_pmf, two_sided_sf

V = TypeVar("V", bound=Hashable)
Num = Fraction
Measure = Mapping[tuple[V, ...], Num]


def total_variation(p: Mapping[V, Num], q: Mapping[V, Num]) -> Num:
    """½ Σ |p(v) − q(v)|."""
    total: Num = Fraction(0)
    for k in set(p) | set(q):
        total += abs(p.get(k, Fraction(0)) - q.get(k, Fraction(0)))
    return total / 2


def marginal(mu: Measure[V], i: int) -> dict[V, Num]:
    """μ_i: the law of coordinate i."""
    out: dict[V, Num] = {}
    for x, p in mu.items():
        out[x[i]] = out.get(x[i], 0) + p
    return out


def conditional(mu: Measure[V], i: int, x: tuple[V, ...]) -> dict[V, Num]:
    """μ_i(·|x^{−i}): the law of coordinate i given every other coordinate of x."""
    rows = {y[i]: p for y, p in mu.items() if y[:i] == x[:i] and y[i + 1 :] == x[i + 1 :]}
    total = sum(rows.values())
    return {v: p / total for v, p in rows.items()}


def gibbs_dependence(mu: Measure[V]) -> Num:
    """ψ(μ) = max over x in the support of the mean over i of ‖μ_i − μ_i(·|x^{−i})‖_TV."""
    support = [x for x, p in mu.items() if p > 0]
    n = len(support[0])
    marginals = [marginal(mu, i) for i in range(n)]
    return max(
        sum((total_variation(marginals[i], conditional(mu, i, x)) for i in range(n)), Fraction(0))
        / n
        for x in support
    )


def product_of_marginals(mu: Measure[V]) -> dict[tuple[V, ...], Num]:
    """⊗μ_i: the product of the marginal laws."""
    n = len(next(iter(mu)))
    marginals = [marginal(mu, i) for i in range(n)]
    out: dict[tuple[V, ...], Num] = {}
    for x in product(*(list(m) for m in marginals)):
        p: Num = Fraction(1)
        for i, v in enumerate(x):
            p = p * marginals[i][v]
        out[tuple(x)] = p
    return out


def markov_chain(
    potentials: Sequence[Mapping[tuple[V, V], Num]], values: Sequence[V]
) -> dict[tuple[V, ...], Num]:
    """μ(x) ∝ Π_i g_i(x_i, x_{i+1}) over values^n, n = len(potentials) + 1 (Def 7.3.1)."""
    n = len(potentials) + 1
    weights: dict[tuple[V, ...], Num] = {}
    for x in product(values, repeat=n):
        w: Num = Fraction(1)
        for i, g in enumerate(potentials):
            w = w * g[(x[i], x[i + 1])]
        weights[tuple(x)] = w
    total = sum(weights.values())
    return {x: w / total for x, w in weights.items()}


def r_bar(potentials: Sequence[Mapping[tuple[V, V], Num]], *, printed: bool = False) -> Num:
    """R̄ = (R² − r²)/(R² + r²) with R = max g, r = min g over every potential (L2169); with
    ``printed`` the L2159 form R²r²/(R² + r²)."""
    big = max(max(g.values()) for g in potentials)
    small = min(min(g.values()) for g in potentials)
    if printed:
        return big**2 * small**2 / (big**2 + small**2)
    return (big**2 - small**2) / (big**2 + small**2)


def skip(mu: Measure[V], t: int) -> dict[tuple[V, ...], Num]:
    """μ_{×t}: the law of (x_0, x_t, x_2t, …) (Def 7.3.5)."""
    out: dict[tuple[V, ...], Num] = {}
    for x, p in mu.items():
        key = x[::t]
        out[key] = out.get(key, 0) + p
    return out


def query_mean(q: Callable[[V], Num], sample: Sequence[V]) -> Num:
    """q(S): the mean of q over the coordinates of S."""
    return sum((q(v) for v in sample), Fraction(0)) / len(sample)


def population_mean(q: Callable[[V], Num], mu: Measure[V]) -> Num:
    """q(μ) = E_{S∼μ} q(S) = the mean over i of E_μ q(x_i) (L617)."""
    return sum((p * query_mean(q, x) for x, p in mu.items()), Fraction(0))


def deviation_probability(
    q: Callable[[V], Num], mu: Measure[V], gamma: Num, *, strict: bool = True
) -> Num:
    """P_{S∼μ}(|q(S) − q(μ)| > γ) (``strict``), or with ≥ (the form Lemma 7.2.6 and
    Thm 7.2.7 print, L2104 and L2125)."""
    return _tail(_deviations(q, mu), gamma, strict)


def _deviations(q: Callable[[V], Num], mu: Measure[V]) -> list[tuple[Num, Num]]:
    """(|q(S) − q(μ)|, μ(S)) for every S of μ."""
    mean = population_mean(q, mu)
    return [(abs(query_mean(q, x) - mean), p) for x, p in mu.items()]


def _tail(deviations: list[tuple[Num, Num]], gamma: Num, strict: bool) -> Num:
    """The mass of the deviations > γ (``strict``), or ≥ γ."""
    total: Num = Fraction(0)
    for d, p in deviations:
        if d > gamma or (not strict and d == gamma):
            total += p
    return total


def concentration_radius(q: Callable[[V], Num], mu: Measure[V], delta: Num) -> Num:
    """γ(q, μ, δ) (Def 7.2.2, L2084): the least γ ∈ [0, 1] with P(|q(S) − q(μ)| > γ) < δ, for
    δ ∈ (0, 1]. The tail is a right-continuous step function of γ, so the least γ is 0 or one
    of the deviation values |q(S) − q(μ)|."""
    if not 0 < delta <= 1:
        raise ValueError(f"delta: must be in (0, 1], got {delta}")
    deviations = _deviations(q, mu)
    candidates = sorted({Fraction(0)} | {d for d, _ in deviations})
    for gamma in candidates:
        if _tail(deviations, gamma, True) < delta:
            return gamma
    return candidates[-1]  # pragma: no cover - the largest deviation has tail 0 < δ


def kontorovich_distance(alpha: Sequence[Num], f: Sequence[Num], g: Sequence[Num]) -> Num:
    """½ Σ_i |α_i f_i/Σ_j α_j f_j − α_i g_i/Σ_j α_j g_j| (the left side of Lemma 7.3.9, L2204);
    the lemma bounds it by (R − r)/(R + r) for f, g ∈ [r, R]^n."""
    sf = sum((a * x for a, x in zip(alpha, f, strict=True)), Fraction(0))
    sg = sum((a * x for a, x in zip(alpha, g, strict=True)), Fraction(0))
    return (
        sum(
            (abs(a * x / sf - a * y / sg) for a, x, y in zip(alpha, f, g, strict=True)), Fraction(0)
        )
        / 2
    )


def conditional_law(
    mu: Measure[V], coords: Sequence[int], given: Mapping[int, V]
) -> dict[tuple[V, ...], Num]:
    """The law of (x_j)_{j ∈ coords} given x_i = v for every (i, v) in ``given`` (the other
    coordinates marginalised); ``given`` must have positive mass."""
    rows: dict[tuple[V, ...], Num] = {}
    for x, p in mu.items():
        if all(x[i] == v for i, v in given.items()):
            key = tuple(x[j] for j in coords)
            rows[key] = rows.get(key, Fraction(0)) + p
    total = sum(rows.values(), Fraction(0))
    if total == 0:
        raise ValueError(f"given: {dict(given)} has probability 0")
    return {k: v / total for k, v in rows.items()}


def _sup_over_conditions(mu: Measure[V], coords: Sequence[int], at: tuple[int, int]) -> Num:
    """sup over x_at, y_at of ‖law(coords | x_at) − law(coords | y_at)‖_TV."""
    values = sorted({v for x in mu for v in x}, key=repr)
    laws = [
        conditional_law(mu, coords, {at[0]: a, at[1]: b})
        for a in values
        for b in values
        if any(x[at[0]] == a and x[at[1]] == b and p > 0 for x, p in mu.items())
    ]
    return max(
        (total_variation(p, q) for i, p in enumerate(laws) for q in laws[i + 1 :]),
        default=Fraction(0),
    )


def gamma_coefficient(mu: Measure[V], i: int, t: int) -> Num:
    """γ_i^t (L2201): sup over (x_{i−t}, x_{i+t}), (y_{i−t}, y_{i+t}) of
    ‖μ_i(·|x_{i±t}) − μ_i(·|y_{i±t})‖_TV; needs t ≤ i ≤ n − 1 − t."""
    n = len(next(iter(mu)))
    if not (t >= 1 and t <= i <= n - 1 - t):
        raise ValueError(f"i: needs 1 <= t <= i <= n - 1 - t, got i = {i}, t = {t}, n = {n}")
    return _sup_over_conditions(mu, (i,), (i - t, i + t))


def c_coefficient(mu: Measure[V], i: int, t: int) -> Num:
    """c_i^t (L2199): sup over (x_{i−t}, x_{i+t}), (y_{i−t}, y_{i+t}) of the TV distance of the
    joint laws of (x_{i−t+1}, x_{i+t−1}) given them (for t = 1 the pair is x_i itself, so
    c_i^1 = γ_i^1); needs t ≤ i ≤ n − 1 − t."""
    n = len(next(iter(mu)))
    if not (t >= 1 and t <= i <= n - 1 - t):
        raise ValueError(f"i: needs 1 <= t <= i <= n - 1 - t, got i = {i}, t = {t}, n = {n}")
    inner = (i,) if t == 1 else (i - t + 1, i + t - 1)
    return _sup_over_conditions(mu, inner, (i - t, i + t))


def exponential_predicate_law(
    samples: Sequence[Sequence[int]], population: Sequence[Num], q: Num
) -> dict[tuple[tuple[int, ...], int], Num]:
    """Lemma 7.1.1's A′ on T samples S_1..S_T ∈ Ω^n (L1952; Algorithm 11's sampling step,
    L2366): (h, t) over all predicates h: Ω → {0, 1} and t ∈ [T], with probability
    ∝ q^{−n(h(S_t) − h(μ))}, q = e^{−ε/2} rational and h(μ) = Σ_v h(v) p̄(v). Exact: needs
    every n·h(μ) an integer (n·p̄(v) integers)."""
    n = len(samples[0])
    m = len(population)
    scaled = [n * p for p in population]
    if any(Fraction(v).denominator != 1 for v in scaled):
        raise ValueError("population: n·p(v) must be integers for an exact law")
    weights: dict[tuple[tuple[int, ...], int], Num] = {}
    for h in product((0, 1), repeat=m):
        prior = sum((int(c) for v, c in zip(h, scaled, strict=True) if v), 0)
        for t, s in enumerate(samples):
            count = sum(h[x] for x in s)
            weights[(h, t)] = Fraction(q) ** (prior - count)
    total = sum(weights.values(), Fraction(0))
    return {k: w / total for k, w in weights.items()}


def clipped_count_law(count: int, n: int, q: Fraction | float) -> dict[int, Any]:
    """The law of clip(count + Z, 0, n) for Z discrete Laplace, P(Z = z) = (1 − q)/(1 + q)·q^|z|
    (:func:`~dpspec.spec.laws.two_sided_pmf`, q a Fraction or a float): P(j) for 0 < j < n from
    the pmf, and the clipped tails P(0) = P(Z ≤ −count) = q^count/(1 + q),
    P(n) = P(Z ≥ n − count) = q^{n−count}/(1 + q) (:func:`~dpspec.spec.laws.two_sided_sf`;
    0 ≤ count ≤ n)."""
    if not 0 <= count <= n:
        raise ValueError(f"count: must be in [0, n], got {count}")
    out: dict[int, Any] = {j: two_sided_pmf(j - count, q) for j in range(1, n)}
    out[0] = two_sided_sf(count, q)  # P(Z ≤ −count) = P(Z ≥ count)
    out[n] = two_sided_sf(n - count, q) if n > 0 else 1
    if n == 0:  # pragma: no cover - n ≥ 1 in use
        out = {0: 1}
    return dict(sorted(out.items()))


def clipped_laplace_bins(count: int, n: int, scale: float) -> dict[int, float]:
    """The law of the unit bin of clip(count + L, 0, n) for L ~ Lap(scale) (floats): bin 0 is
    count + L ≤ 0, bin j (1 ≤ j ≤ n − 1) is j − 1 < count + L ≤ j, bin n is count + L > n − 1
    (the atom at n and the last unit interval). Each bin is P(a < L ≤ b) in the form without
    cancellation: ½e^{−a/s}(1 − e^{−(b−a)/s}) right of 0, ½e^{b/s}(1 − e^{−(b−a)/s}) left of 0,
    1 − ½e^{a/s} − ½e^{−b/s} across it."""

    def mass(a: float, b: float) -> float:  # P(a < L ≤ b), −∞ ≤ a < b ≤ ∞
        if a >= 0:
            return (
                0.5
                * math.exp(-a / scale)
                * (1.0 if b == math.inf else -math.expm1(-(b - a) / scale))
            )
        if b <= 0:
            return (
                0.5
                * math.exp(b / scale)
                * (1.0 if a == -math.inf else -math.expm1(-(b - a) / scale))
            )
        left = 0.0 if a == -math.inf else 0.5 * math.exp(a / scale)
        right = 0.0 if b == math.inf else 0.5 * math.exp(-b / scale)
        return 1.0 - left - right

    out = {0: mass(-math.inf, -count)}
    for j in range(1, n):
        out[j] = mass(j - 1 - count, j - count)
    if n >= 1:
        out[n] = mass(n - 1 - count, math.inf)
    return out


def argmax_release_law(
    counts: Sequence[int], q: Fraction, tau: int, cap: int
) -> tuple[dict[int, Fraction], Fraction]:
    """Algorithm 10's output law by enumeration (exact, truncated): every vector of released
    counts of the occupied cells — 0 when c + Z < τ, else the value v ∈ [τ, cap) — weighted by
    the product of the discrete Laplace probabilities (base q,
    :func:`~dpspec.spec.laws.two_sided_pmf` and :func:`~dpspec.spec.laws.two_sided_sf`); the
    output is −1 (h ≡ 0) when nothing is released, else the first cell of the largest released
    count. Vectors with a value ≥ cap are left out; their total mass is returned (an upper bound
    on every outcome's error)."""
    occupied = [(x, int(v)) for x, v in enumerate(counts) if v > 0]
    # each cell's weights as integers over the cell's common denominator: a vector's weight is
    # then an integer over the product of those denominators, the same for every vector, so
    # the sums are sums of integers (the same Fractions, without a gcd per vector)
    options: list[list[tuple[int, int]]] = []
    denominator = 1
    for _, cnt in occupied:
        cell = [(0, 1 - two_sided_sf(tau - cnt, q))]
        cell += [(v, two_sided_pmf(v - cnt, q)) for v in range(tau, cap)]
        den = math.lcm(*(w.denominator for _, w in cell))
        options.append([(v, w.numerator * (den // w.denominator)) for v, w in cell])
        denominator *= den
    sums = dict.fromkeys([-1, *range(len(counts))], 0)
    for combo in product(*options):
        p = 1
        for _, w in combo:
            p *= w
        values = [v for v, _ in combo]
        top = max(values, default=0)
        out = -1 if top == 0 else occupied[values.index(top)][0]
        sums[out] += p
    law = {out: Fraction(s, denominator) for out, s in sums.items()}
    return law, 1 - Fraction(sum(sums.values()), denominator)
