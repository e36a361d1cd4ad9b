"""Correlated samples for adaptive data analysis (thesis ch. 7, ``002_9f3104e4a0d86722.txt``).

* :func:`tight_example` — the finite analogue of μ_ψ (L2021–2026): x* uniform on {0..N−1}; each
  coordinate equals x* with probability ψ, else an independent uniform value. Lemma 7.1.3:
  ψ(μ_ψ) ≤ ψ. Its exact law is :func:`tight_example_law`.
* :class:`HomogeneousChain` — the undirected Markov chain μ(x) ∝ Π_i g(x_i, x_{i+1}) (Def 7.3.1,
  L2147) with one positive potential matrix g: exact law on small n (:meth:`law`), marginals by
  forward–backward messages (:meth:`marginals`), and vectorised sampling of many chains at once
  (:meth:`sample`, floating point: the chain is the data, not a privacy mechanism).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.validation import check_count, check_rng


def tight_example_law(values: int, n: int, psi: Fraction) -> dict[tuple[int, ...], Fraction]:
    """The exact law of :func:`tight_example` on {0..values−1}^n (Fractions)."""
    check_count(values, "values")
    check_count(n, "n")
    if not 0 <= psi <= 1:
        raise ValueError(f"psi: must be in [0, 1], got {psi}")
    out: dict[tuple[int, ...], Fraction] = {}
    for x in product(range(values), repeat=n):
        total = Fraction(0)
        for star in range(values):
            p = Fraction(1, values)
            for v in x:
                p *= psi * (v == star) + (1 - psi) * Fraction(1, values)
            total += p
        out[tuple(x)] = total
    return out


def tight_example(
    values: int, n: int, psi: float, size: int, rng: np.random.Generator
) -> NDArray[np.int64]:
    """``size`` samples (rows) of the tight example on {0..values−1}^n."""
    check_rng(rng)
    star = rng.integers(0, values, size=(size, 1))
    fresh = rng.integers(0, values, size=(size, n))
    return np.asarray(np.where(rng.random((size, n)) < psi, star, fresh), dtype=np.int64)


class HomogeneousChain:
    """μ(x) ∝ Π_{i<n−1} g(x_i, x_{i+1}) on {0..m−1}^n for a positive m×m potential ``g``."""

    def __init__(self, potential: Any, n: int) -> None:
        g = np.asarray(potential, dtype=np.float64)
        if g.ndim != 2 or g.shape[0] != g.shape[1] or not np.all(np.isfinite(g)) or g.min() <= 0:
            raise ValueError("potential: expected a square matrix of positive finite numbers")
        self.g = g
        self.n = check_count(n, "n", minimum=2)
        self.values = g.shape[0]

    def _backward(self) -> NDArray[np.float64]:
        """β_i(v) ∝ Σ over x_{i+1..} of the weights after position i, normalised per i."""
        beta = np.ones((self.n, self.values))
        for i in range(self.n - 2, -1, -1):
            b = self.g @ beta[i + 1]
            beta[i] = b / b.sum()
        return beta

    def marginals(self) -> NDArray[np.float64]:
        """μ_i(v) for every coordinate i (n × m)."""
        beta = self._backward()
        alpha = np.ones((self.n, self.values))
        for i in range(1, self.n):
            a = alpha[i - 1] @ self.g
            alpha[i] = a / a.sum()
        m = alpha * beta
        return np.asarray(m / m.sum(axis=1, keepdims=True), dtype=np.float64)

    def sample(self, size: int, rng: np.random.Generator) -> NDArray[np.int64]:
        """``size`` independent chains (rows), forward sampling with backward messages."""
        check_rng(rng)
        beta = self._backward()
        out = np.empty((size, self.n), dtype=np.int64)
        first = beta[0] / beta[0].sum()
        out[:, 0] = np.searchsorted(np.cumsum(first), rng.random(size), side="right")
        for i in range(1, self.n):
            w = self.g[out[:, i - 1]] * beta[i]
            cdf = np.cumsum(w / w.sum(axis=1, keepdims=True), axis=1)
            out[:, i] = np.minimum((cdf < rng.random((size, 1))).sum(axis=1), self.values - 1)
        return out

    def law(self) -> dict[tuple[int, ...], float]:
        """The exact law (floats) by enumeration (small m^n only)."""
        if self.values**self.n > 2**16:
            raise ValueError("n: the law is enumerated only for m^n <= 2^16")
        weights = {}
        for x in product(range(self.values), repeat=self.n):
            w = 1.0
            for i in range(self.n - 1):
                w *= float(self.g[x[i], x[i + 1]])
            weights[tuple(x)] = w
        total = sum(weights.values())
        return {x: w / total for x, w in weights.items()}
