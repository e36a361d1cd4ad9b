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
  of E_μ q(x_i) (:func:`query_mean`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from itertools import product
from typing import TypeVar

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
