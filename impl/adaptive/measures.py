"""Correlated samples for adaptive data analysis (thesis ch. 7, ``002_9f3104e4a0d86722.txt``).

* :func:`tight_example` — the finite analogue of μ_ψ (L2021–2026): x* uniform on {0..N−1}; each
  coordinate equals x* with probability ψ, else an independent uniform value. Lemma 7.1.3:
  ψ(μ_ψ) ≤ ψ. Its exact law is :func:`tight_example_law`.
* :class:`HomogeneousChain` — the undirected Markov chain μ(x) ∝ Π_i g(x_i, x_{i+1}) (Def 7.3.1,
  L2147) with one positive potential matrix g: exact law on small n (:meth:`pmf`), marginals by
  forward–backward messages (:meth:`marginals`), and vectorised draws of many chains at once
  (:meth:`draw`, floating point: the chain is the data, not a privacy mechanism).
"""

from __future__ import annotations

import warnings
from fractions import Fraction
from itertools import product
from typing import Annotated, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpspec._deprecation import renamed
from dpspec.adaptive._domains import _Potential, _Probability
from dpspec.contract import restrict
from dpspec.validation import (
    LIMITS,
    MEMORY_LIMIT,
    Anything,
    Checked,
    GeneratorArg,
    Integer,
    Pair,
    Real,
    SizeArg,
    checked,
    example,
    require_within,
)

#: |Ω| of a tight example (values are drawn with ``Generator.integers``).
DomainSizeArg = Annotated[int, Integer(1, hi=2**62, clean=3)]
#: Coordinates n of a sample.
CoordinatesArg = Annotated[int, Integer(1, limit="draws", clean=3)]
#: The copy probability ψ of the tight example, exactly.
ExactPsiArg = Annotated[Fraction, _Probability()]
#: The copy probability ψ of the tight example's sampler.
PsiArg = Annotated[float, Real(0, 1, clean=0.5)]
#: A positive potential matrix g (Def 7.3.1).
PotentialArg = Annotated[ArrayLike, _Potential(ndim=2, clean=np.array([[3.0, 1.0], [1.0, 3.0]]))]
#: The length n ≥ 2 of a chain.
ChainLengthArg = Annotated[int, Integer(2, limit="draws", clean=4)]
#: An inclusive window (lo, hi) of outcomes (tuples, compared lexicographically).
OutcomeWindowArg = Annotated[
    tuple[Any, Any] | None, Pair(optional=True, inner=Anything(why="an outcome tuple"))
]


def _outcomes_within(values: int, n: int, name: str) -> int:
    """values^n, refused (naming ``name``) beyond ``LIMITS["outcomes"]`` before it is
    computed: the loop multiplies at most log2(limit) + 1 factors ≥ 2."""
    limit = LIMITS["outcomes"]
    total = 1
    for _ in range(n if values > 1 else 0):
        total *= values
        if total > limit:
            raise ValueError(
                f"{name}: the law lists {values}^{n} outcomes; the limit is {limit} "
                "(dpspec.validation.LIMITS['outcomes'])"
            )
    return total


@checked
def tight_example_law(
    values: DomainSizeArg, n: CoordinatesArg, psi: ExactPsiArg
) -> dict[tuple[int, ...], Fraction]:
    """The exact law of :func:`tight_example` on {0..values−1}^n (Fractions):
    μ(x) = (1/N) Σ_{x*} Π_i (ψ·1{x_i = x*} + (1 − ψ)/N), which groups by the count c_v of each
    value v in x: (1/N)[Σ_{v ∈ x} a^{c_v} b^{n − c_v} + (N − d) b^n] with a = ψ + (1 − ψ)/N,
    b = (1 − ψ)/N and d distinct values in x. At most ``LIMITS["outcomes"]`` outcomes."""
    _outcomes_within(values, n, "n")
    size = Fraction(values)
    a, b = psi + (1 - psi) / size, (1 - psi) / size
    out: dict[tuple[int, ...], Fraction] = {}
    for x in product(range(values), repeat=n):
        counts: dict[int, int] = {}
        for v in x:
            counts[v] = counts.get(v, 0) + 1
        total = sum((a**c * b ** (n - c) for c in counts.values()), Fraction(0))
        total += (values - len(counts)) * b**n
        out[tuple(x)] = total / size
    return out


@checked
def tight_example(
    values: DomainSizeArg, n: CoordinatesArg, psi: PsiArg, size: SizeArg, rng: GeneratorArg
) -> NDArray[np.int64]:
    """``size`` samples (rows) of the tight example on {0..values−1}^n: at most
    ``LIMITS["draws"]`` coordinates in all (three arrays of size × n are built)."""
    require_within(size * n, LIMITS["draws"], "size", "coordinates (size·n)")
    star = rng.integers(0, values, size=(size, 1))
    fresh = rng.integers(0, values, size=(size, n))
    return np.asarray(np.where(rng.random((size, n)) < psi, star, fresh), dtype=np.int64)


@example(draw={"size": 5}, pmf={"window": None})
class HomogeneousChain(Checked):
    """μ(x) ∝ Π_{i<n−1} g(x_i, x_{i+1}) on {0..m−1}^n for a positive m×m potential ``g``."""

    def __init__(self, potential: PotentialArg, n: ChainLengthArg) -> None:
        self.g: NDArray[np.float64] = potential  # type: ignore[assignment]
        self.n = n
        self.values = self.g.shape[0]

    def _backward(self) -> NDArray[np.float64]:
        """β_i(v) ∝ Σ over x_{i+1..} of the weights after position i, normalised per i."""
        beta = np.ones((self.n, self.values))
        for i in range(self.n - 2, -1, -1):
            b = self.g @ beta[i + 1]
            beta[i] = b / b.sum()
        return beta

    def marginals(self) -> NDArray[np.float64]:
        """μ_i(v) for every coordinate i (n × m)."""
        require_within(8.0 * self.n * self.values * 3, MEMORY_LIMIT, "n", "bytes")
        beta = self._backward()
        alpha = np.ones((self.n, self.values))
        for i in range(1, self.n):
            a = alpha[i - 1] @ self.g
            alpha[i] = a / a.sum()
        m = alpha * beta
        return np.asarray(m / m.sum(axis=1, keepdims=True), dtype=np.float64)

    sample = renamed("draw", "sample")

    def draw(self, size: SizeArg, rng: GeneratorArg) -> NDArray[np.int64]:
        """``size`` independent chains (rows), forward sampling with backward messages: at
        most ``LIMITS["draws"]`` coordinates (size·n) and ``MEMORY_LIMIT`` bytes of work
        arrays (size·m floats per step)."""
        require_within(size * self.n, LIMITS["draws"], "size", "coordinates (size·n)")
        require_within(24.0 * size * self.values, MEMORY_LIMIT, "size", "bytes")
        beta = self._backward()
        out = np.empty((size, self.n), dtype=np.int64)
        first = beta[0] / beta[0].sum()
        out[:, 0] = np.minimum(
            np.searchsorted(np.cumsum(first), rng.random(size), side="right"), self.values - 1
        )
        for i in range(1, self.n):
            w = self.g[out[:, i - 1]] * beta[i]
            cdf = np.cumsum(w / w.sum(axis=1, keepdims=True), axis=1)
            out[:, i] = np.minimum((cdf < rng.random((size, 1))).sum(axis=1), self.values - 1)
        return out

    def pmf(self, window: OutcomeWindowArg = None) -> dict[tuple[int, ...], float]:
        """The exact law (floats) by enumeration, restricted to the outcomes in ``window``
        (inclusive, lexicographic; None: all): at most ``LIMITS["outcomes"]`` outcomes m^n."""
        _outcomes_within(self.values, self.n, "n")
        weights = {}
        for x in product(range(self.values), repeat=self.n):
            w = 1.0
            for i in range(self.n - 1):
                w *= float(self.g[x[i], x[i + 1]])
            weights[tuple(x)] = w
        total = sum(weights.values())
        return restrict({x: w / total for x, w in weights.items()}, window)

    def law(self) -> dict[tuple[int, ...], float]:
        """Deprecated alias of :meth:`pmf` (the exact law of every outcome)."""
        warnings.warn(
            "HomogeneousChain.law is deprecated; use pmf", DeprecationWarning, stacklevel=2
        )
        return self.pmf()

    law.__deprecated_alias_of__ = "pmf"  # type: ignore[attr-defined]
