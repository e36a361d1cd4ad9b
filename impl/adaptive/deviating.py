"""Algorithm 10, the deviating private algorithm (thesis ch. 7, ``002_9f3104e4a0d86722.txt``
L2052–2054), and the exponential mechanism over predicates of Lemma 7.1.1 (L1952).

Algorithm 10: release the stability histogram L of S (Algorithm 5 = seed 000 Alg 1, the
project's :class:`~dpspec.mechanisms.stability_histogram.StabilityHistogram`); if L = ∅ return
h ≡ 0, else pick x ∈ L — the released cell with the largest released count, ties to the
smallest cell (any choice from L is post-processing) — and return h = 1{· = x}. It is (ε, δ)-DP
under substitution (Lemma 7.1.5; the histogram's level, post-processing). Its point: under a
law μ whose marginals put no mass on single points (the tight example μ_ψ as N → ∞), h(μ) ≈ 0
while h(S) ≥ ψ/2 with high probability, so DP alone does not give statistical accuracy when the
sample is dependent. The explicit sample size behind L2056's O(·) is
:func:`minimum_sample_size`.

Lemma 7.1.1's mechanism: the exponential mechanism over all 2^|Ω| predicates h: Ω → {0, 1}
with score h(S) − h(μ) (sensitivity 1/n under substitution) and weights exp((εn/2)·score):
:func:`predicate_mechanism_gap` in floating point, :class:`PredicateMechanism` in Fractions (a
rational base q = e^{−ε/2}; the data-independent factor q^{n·h(μ)} is rounded to a rational
when n·h(μ) is not an integer, which leaves the mechanism exactly ε-DP).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.mechanisms.stability_histogram import StabilityHistogram
from dpspec.validation import (
    check_base,
    check_count,
    check_epsilon,
    check_rng,
    exact_fraction,
)

#: The output "h ≡ 0" (L = ∅) in the arrays of :meth:`DeviatingAlgorithm.sample`.
NOTHING = -1
#: The lumped outcome "some released count reached the cap" of :meth:`DeviatingAlgorithm.law`.
TAIL = "tail"


def minimum_sample_size(psi: float, epsilon: float, delta: float, beta: float) -> int:
    """n ≥ ⌈(2/ψ)(1 + (2/ε) ln(1/(βδ)))⌉: the explicit form of Lemma 7.1.5's n (L2056) with
    Algorithm 5 — a value x* repeated ≈ nψ times clears the threshold with probability
    ≥ 1 − β."""
    for name, v in (("psi", psi), ("delta", delta), ("beta", beta)):
        if not 0 < exact_fraction(v, name) < 1:  # TypeError for non-reals, ValueError for NaN
            raise ValueError(f"{name}: must be in (0, 1), got {v!r}")
    eps = check_epsilon(epsilon)
    psi, delta, beta = float(psi), float(delta), float(beta)
    return math.ceil((2 / psi) * (1 + (2 / eps) * math.log(1 / (beta * delta))))


class DeviatingAlgorithm:
    """Algorithm 10 over the cells {0..bins−1} (records are cell ids), built on the stability
    histogram at (``epsilon``, ``delta``) — exact discrete noise by default, ``base`` = e^{−ε/2}
    rational for exact laws, ``idealised`` for the paper's continuous noise."""

    def __init__(
        self,
        bins: int,
        epsilon: float | None = None,
        delta: float | Fraction = 1e-6,
        *,
        base: Fraction | None = None,
        idealised: bool = False,
    ) -> None:
        self.histogram = StabilityHistogram(bins, epsilon, delta, base=base, idealised=idealised)
        self.privacy = self.histogram.privacy

    def sample(self, data: Any, n: int, rng: np.random.Generator) -> NDArray[np.int64]:
        """``n`` independent runs on the sample ``data``: the chosen cell x of each (h =
        1{· = x}), or :data:`NOTHING` when no cell was released (h ≡ 0)."""
        check_rng(rng)
        released = self.histogram.sample(data, check_count(n, "n"), rng)
        choice = np.argmax(released, axis=1).astype(np.int64)  # first of the largest counts
        return np.where(released.max(axis=1) > 0, choice, NOTHING)

    def run(self, data: Any, rng: np.random.Generator) -> int | None:
        """One run: the cell x with h = 1{· = x}, or None for h ≡ 0."""
        x = int(self.sample(data, 1, rng)[0])
        return None if x == NOTHING else x

    def law(self, data: Any, cap: int) -> dict[Any, Fraction | float]:
        """Exact law of :meth:`sample`'s output (discrete noise): P(x) = Σ_v P(ĉ_x = v)
        Π_{y<x} P(ĉ_y < v) Π_{y>x} P(ĉ_y ≤ v) over released values v ∈ [τ, cap), and
        P(NOTHING) = Π_y P(ĉ_y = 0); the remaining mass — some released count ≥ cap — is the
        outcome :data:`TAIL` (exact, computed as 1 minus the rest)."""
        counts = self.histogram.counts(data)
        cap = check_count(cap, "cap", minimum=0)
        laws = [self.histogram.cell_pmf(int(c), cap) for c in counts]

        def below(law: Mapping[Any, Any], v: int, inclusive: bool) -> Any:
            return sum(p for k, p in law.items() if k != TAIL and (k <= v if inclusive else k < v))

        out: dict[Any, Fraction | float] = {}
        nothing: Fraction | float = 1
        for law in laws:
            nothing *= law.get(0, 0)
        out[NOTHING] = nothing
        tau = int(self.histogram.threshold)
        for x, law in enumerate(laws):
            total: Fraction | float = 0
            for v in range(tau, cap):
                p = law.get(v, 0)
                if not p:
                    continue
                for y, other in enumerate(laws):
                    if y != x:
                        p *= below(other, v, inclusive=y > x)
                total += p
            out[x] = total
        out[TAIL] = 1 - sum(out.values())
        return out


def predicate_mechanism_gap(
    law: Mapping[tuple[int, ...], Any], values: int, epsilon: float
) -> tuple[float, float]:
    """Lemma 7.1.1 on an enumerated sample law μ on {0..values−1}^n: (E[h(S) − h(μ)], ψ-free
    part e^ε − 1), for A′ the exponential mechanism over all predicates h with score
    h(S) − h(μ), h(S) = (1/n)Σ h(x_i), h(μ) = (1/n)Σ_i E_μ[h(x_i)], weights exp((εn/2)·score).
    Enumerated in floating point (2^values predicates × |supp μ| samples)."""
    eps = check_epsilon(epsilon)
    samples = list(law)
    n = len(samples[0])
    preds = np.array(list(product((0, 1), repeat=values)), dtype=np.float64)  # (H, values)
    X = np.array(samples, dtype=np.int64)  # (m, n)
    probs = np.array([float(law[s]) for s in samples])
    h_sample = preds[:, X].mean(axis=2).T  # (m, H): h(S)
    h_mu = (probs[:, None] * h_sample).sum(axis=0)  # (H,): h(μ) = E h(S) (linearity)
    score = h_sample - h_mu[None, :]
    logits = (eps * n / 2) * score
    weights = np.exp(logits - logits.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    gap = float((probs[:, None] * weights * score).sum())
    return gap, math.expm1(eps)


class PredicateMechanism:
    """Lemma 7.1.1's A′ (``002_9f3104e4a0d86722.txt`` L1952) with T = 1, in exact arithmetic:
    on a sample S ∈ {0..values−1}^n it outputs the predicate h: Ω → {0, 1} (a 0/1 tuple over
    Ω, all 2^values of them) with probability ∝ (1/q)^{n·(h(S) − h(μ))}, q = ``base`` =
    e^{−ε/2} rational — the exponential mechanism with score h(S) − h(μ) and weights
    exp((εn/2)·score) (notes, checkable item 4). h(μ) = Σ_v h(v) p̄(v) with p̄ = ``population``,
    the average marginal (1/n) Σ_i μ_i (L617).

    n·h(S) is the integer count of S in h; the factor q^{n·h(μ)} does not depend on S, so
    rounding it to a rational (done only when n·h(μ) is not an integer; relative error ≤ 2^−52)
    changes the mechanism's prior, not its privacy: under substitution n·h(S) moves by at most 1
    for every h, so each weight and the normaliser move by a factor ≤ 1/q and the output law by
    ≤ q^{−2} = e^ε (ε-DP, δ = 0).
    """

    def __init__(self, values: int, n: int, base: Fraction, population: Sequence[Any]) -> None:
        self.values = check_count(values, "values", maximum=10)
        self.n = check_count(n, "n", maximum=64)
        self.base = check_base(base)
        p = [exact_fraction(v, "population") for v in population]
        if len(p) != self.values or any(v < 0 for v in p) or sum(p) != 1:
            raise ValueError(
                f"population: expected {self.values} non-negative values summing to 1, "
                f"got {population!r}"
            )
        self.population = p
        self.predicates: list[tuple[int, ...]] = list(product((0, 1), repeat=self.values))
        self.prior: dict[tuple[int, ...], Fraction] = {}
        for h in self.predicates:
            exponent = self.n * self.mean(h)  # n·h(μ)
            if exponent.denominator == 1:
                self.prior[h] = self.base ** int(exponent)
            else:
                self.prior[h] = Fraction(float(self.base) ** float(exponent))

    def mean(self, h: tuple[int, ...]) -> Fraction:
        """h(μ) = Σ_v h(v) p̄(v)."""
        return sum((w for v, w in zip(h, self.population, strict=True) if v), Fraction(0))

    def _counts(self, data: Any) -> list[int]:
        sample = list(data)
        if len(sample) != self.n or not all(
            isinstance(x, int | np.integer) and 0 <= x < self.values for x in sample
        ):
            raise ValueError(
                f"data: expected {self.n} integer values in [0, {self.values}), got {data!r}"
            )
        return [sum(1 for x in sample if x == v) for v in range(self.values)]

    def law(self, data: Any) -> dict[tuple[int, ...], Fraction]:
        """Exact output law on the sample ``data``: P(h) ∝ q^{−n·h(S)} · q^{n·h(μ)}."""
        counts = self._counts(data)
        weights = {
            h: self.prior[h] / self.base ** sum(c for v, c in zip(h, counts, strict=True) if v)
            for h in self.predicates
        }
        total = sum(weights.values(), Fraction(0))
        return {h: w / total for h, w in weights.items()}

    def gap(self, law: Mapping[tuple[int, ...], Any]) -> Fraction:
        """E_{S∼μ, h∼A′(S)}[h(S) − h(μ)] exactly, for the sample law ``law`` (a map from
        n-tuples to probabilities) whose average marginal is ``population``."""
        probs = {sample: exact_fraction(p, "law") for sample, p in law.items()}
        average = [Fraction(0)] * self.values
        for sample, p in probs.items():
            for v, c in enumerate(self._counts(sample)):
                average[v] += p * c / self.n
        if sum(probs.values()) != 1 or average != self.population:
            raise ValueError("law: not a probability law with this mechanism's population")
        total = Fraction(0)
        for sample, p in probs.items():
            out = self.law(sample)
            inner = sum(
                (
                    q * (Fraction(sum(h[x] for x in sample), self.n) - self.mean(h))
                    for h, q in out.items()
                ),
                Fraction(0),
            )
            total += p * inner
        return total
