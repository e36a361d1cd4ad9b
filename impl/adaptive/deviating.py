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
:class:`PredicateMechanism` in Fractions (a rational base q ≥ e^{−ε/2}; the data-independent
factor q^{n·h(μ)} is rounded to a rational when n·h(μ) is not an integer, which leaves the
mechanism exactly ε-DP), its idealised float version and :func:`predicate_mechanism_gap`.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from fractions import Fraction
from itertools import product
from typing import Annotated, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpspec.adaptive._domains import _ExactLaw, _Predicate, _SampleLaw
from dpspec.adaptive._exact import _sample_rational
from dpspec.contract import PrivacyLevel, restrict
from dpspec.mechanisms.stability_histogram import MIN_DELTA, StabilityHistogram
from dpspec.noise import laplace_sf
from dpspec.validation import (
    LIMITS,
    Array,
    Checked,
    Delta,
    EpsilonArg,
    FlagArg,
    GeneratorArg,
    Integer,
    OptionalBaseArg,
    OptionalEpsilonArg,
    Pair,
    PositiveDeltaArg,
    Real,
    SampleSizeArg,
    SizeArg,
    check_base,
    checked,
    example,
    require_within,
)

#: The output "h ≡ 0" (L = ∅) in the arrays of :meth:`DeviatingAlgorithm.sample` and the keys of
#: :meth:`DeviatingAlgorithm.pmf`.
NOTHING = -1
#: The largest sample size n of Lemma 7.1.1's exact mechanism (:class:`PredicateMechanism`):
#: its samples are enumerated as n-tuples and its weights are exact rational powers q^{n·h(S)},
#: so a larger n (a sample size :data:`~dpspec.validation.SampleSizeArg` allows) is refused
#: before any work, naming ``n`` and this limit.
MAX_ENUMERATED_SAMPLE_SIZE = 64

#: A probability in (0, 1) (ψ, β).
OpenProbabilityArg = Annotated[float, Real(0, 1, lo_open=True, hi_open=True, clean=0.5)]
#: The cells {0..bins−1} of the histogram.
BinsArg = Annotated[int, Integer(1, limit="cells", clean=3)]
#: δ of the histogram (a Fraction stays exact).
HistogramDeltaArg = Annotated[Any, Delta(positive=True, least=MIN_DELTA, exact=True)]
#: A sample of cell ids.
CellsArg = Annotated[ArrayLike, Array(ndim=1, kind="integer", clean=np.array([0, 0, 1, 2]))]
#: An inclusive window (lo, hi) of outcomes (NOTHING = −1, cells 0..bins−1).
CellWindowArg = Annotated[tuple[int, int] | None, Pair(optional=True, inner=Integer(lo=-1))]
#: A released-value cap of the deprecated :meth:`DeviatingAlgorithm.law`.
CapArg = Annotated[int | None, Integer(optional=True, lo=0)]
#: |Ω| of Lemma 7.1.1's predicate class (2^|Ω| predicates).
PredicateValuesArg = Annotated[int, Integer(1, hi=10, clean=3)]
#: |Ω| of the float gap (2^|Ω| predicates).
GapValuesArg = Annotated[int, Integer(1, hi=24, clean=2)]
#: The average marginal p̄ = (1/n) Σ_i μ_i, exactly.
ExactPopulationArg = Annotated[list[Fraction], _ExactLaw()]
#: A law μ on Ω^n (samples as tuples).
SampleLawArg = Annotated[Mapping[tuple[int, ...], Any], _SampleLaw()]
#: A predicate h: Ω → {0, 1}.
PredicateArg = Annotated[tuple[int, ...], _Predicate()]
#: A sample S ∈ Ω^n (values in {0..|Ω|−1}).
PredicateSampleArg = Annotated[
    ArrayLike, Array(ndim=1, kind="integer", clean=np.array([0, 0, 1, 2]))
]


@checked
def minimum_sample_size(
    psi: OpenProbabilityArg,
    epsilon: EpsilonArg,
    delta: PositiveDeltaArg,
    beta: OpenProbabilityArg,
) -> int:
    """n = ⌈(2/ψ)(1 + (2/ε)(ln(1/β) + ln(1/δ) + ln(1 + e^ε)))⌉: the explicit form of Lemma
    7.1.5's n (L2056, stated there as O((1/ψε) log(1/βδ))) with Algorithm 5's histogram. A
    value of frequency ψ appears c ≥ nψ/2 times (Chernoff), and c clears the threshold with
    probability ≥ 1 − β: τ ≤ 1 + (2/ε) ln((1 + e^ε)/δ) (the least τ with
    (1 + e^ε)P(Z ≥ τ) ≤ δ, P(Z ≥ t) ≤ e^{−εt/2}) and P(Z ≤ −t) ≤ e^{−εt/2} ≤ β for
    t ≥ (2/ε) ln(1/β). (The ln(1 + e^ε) term was missing before: at ε = 4, δ = 0.05 the
    shorter n fell short of 1 − β.) Logarithms are taken separately, so βδ below the float
    range does not underflow; refused (naming ``psi``) when n would exceed 2^62."""
    threshold_log = -math.log(delta) + epsilon + math.log1p(math.exp(-epsilon))
    value = (2 / psi) * (1 + (2 / epsilon) * (-math.log(beta) + threshold_log))
    if not value <= 2**62:
        raise ValueError(f"psi: the sample size ~{value:.3g} exceeds 2^62")
    return math.ceil(value)


def _polynomial(roots: list[Any]) -> list[Any]:
    """Coefficients e_j of Π_y (1 − a_y u) = Σ_j e_j u^j (exact for Fractions)."""
    coefficients: list[Any] = [1]
    for a in roots:
        shifted = [0, *coefficients]
        coefficients = [c - a * s for c, s in zip([*coefficients, 0], shifted, strict=True)]
    return coefficients


@example(
    every={"data": np.array([0, 0, 1, 2])},
    __init__={"bins": 3, "epsilon": 1.0, "delta": 0.05},
    sample={"size": 5},
    run={},
    pmf={"window": None},
    law={"cap": None},
)
class DeviatingAlgorithm(Checked):
    """Algorithm 10 over the cells {0..bins−1} (records are cell ids), built on the stability
    histogram at the caller's (``epsilon``, ``delta``) — exact discrete noise by default,
    ``base`` = e^{−ε/2} rational for exact rational laws, ``idealised`` for the paper's
    continuous Laplace noise (its report says ``exact_sampler=False``)."""

    def __init__(
        self,
        bins: BinsArg,
        epsilon: OptionalEpsilonArg = None,
        delta: HistogramDeltaArg = 1e-6,
        *,
        base: OptionalBaseArg = None,
        idealised: FlagArg = False,
    ) -> None:
        self.bins = bins
        self.idealised = idealised
        self.histogram = StabilityHistogram(bins, epsilon, delta, base=base, idealised=idealised)
        self.privacy: PrivacyLevel = self.histogram.privacy

    def sample(self, data: CellsArg, size: SizeArg, rng: GeneratorArg) -> NDArray[np.int64]:
        """``size`` independent runs on the sample ``data``: the chosen cell x of each (h =
        1{· = x}), or :data:`NOTHING` when no cell was released (h ≡ 0). At most
        ``LIMITS["draws"]`` released cells (size·bins)."""
        require_within(size * self.bins, LIMITS["draws"], "size", "released cells (size·bins)")
        released = self.histogram.sample(data, size, rng)
        choice = np.argmax(released, axis=1).astype(np.int64)  # first of the largest counts
        return np.where(released.max(axis=1) > 0, choice, NOTHING)

    def run(self, data: CellsArg, rng: GeneratorArg) -> int | None:
        """One run: the cell x with h = 1{· = x}, or None for h ≡ 0."""
        x = int(self.sample(data, 1, rng)[0])
        return None if x == NOTHING else x

    def pmf(self, data: CellsArg, window: CellWindowArg = None) -> dict[int, Any]:
        """The exact law of :meth:`sample`'s output: P(NOTHING) = Π_y P(ĉ_y = 0) and
        P(x) = Σ_{v ≥ τ} P(ĉ_x = v) Π_{y<x} P(ĉ_y < v) Π_{y>x} P(ĉ_y ≤ v) over the occupied
        cells. Above every count the summand is q^v times a polynomial in u = q^v, so the
        infinite tail is a finite sum of geometric series: exact Fractions with a rational
        ``base``, floats with ``epsilon``; for ``idealised`` (continuous noise, ties of
        probability 0) the integral ∫_τ^∞ f_x Π_{y≠x} F_y by adaptive quadrature. Outcomes in
        ``window`` (inclusive; None: NOTHING and every cell)."""
        require_within(self.bins + 1, LIMITS["outcomes"], "data", "outcomes (bins + 1)")
        counts = self.histogram.counts(data)
        cells = [int(x) for x in np.flatnonzero(counts)]
        occupied = len(cells)
        require_within(occupied**3, 2**24, "data", "occupied cells cubed (the law's terms)")
        if self.idealised:
            law = self._continuous_law(counts, cells)
        else:
            law = self._discrete_law(counts, cells)
        return restrict(law, window)

    def _discrete_law(self, counts: NDArray[np.int64], cells: list[int]) -> dict[int, Any]:
        noise = self.histogram.noise
        q = noise.q
        tau = int(self.histogram.threshold)
        top = max(tau, int(counts.max()))
        exact = isinstance(q, Fraction)
        if exact and top > LIMITS["exponent"]:
            raise ValueError(
                f"data: counts up to {LIMITS['exponent']} for exact rational probabilities "
                f"with a base, got {top}"
            )
        require_within(len(cells) ** 2 * (top - tau + 1), 2**24, "data", "terms of the law")
        one: Any = Fraction(1) if exact else 1.0
        out: dict[int, Any] = {NOTHING: one}
        for y in cells:
            out[NOTHING] *= 1 - noise.sf(tau - int(counts[y]))
        for x in range(self.bins):
            out[x] = 0 * one
        for x in cells:
            total = 0 * one
            for v in range(tau, top):  # released values below the largest count (or τ)
                p = noise.pmf(v - int(counts[x]))
                for y in cells:
                    if y != x:
                        p *= 1 - noise.sf(v - int(counts[y]) + (1 if y > x else 0))
                total += p
            # v ≥ top: P(ĉ_x = v) = (1 − q)/(1 + q)·q^{v − c_x}; the other factors are
            # 1 − a_y q^v with a_y = q^{−c_y + [y > x]}/(1 + q): Σ_j e_j q^{(j+1)v} summed
            roots = [
                q ** (-int(counts[y]) + (1 if y > x else 0)) / (1 + q) for y in cells if y != x
            ]
            for j, e in enumerate(_polynomial(roots)):
                total += (
                    (1 - q)
                    / (1 + q)
                    * e
                    * q ** ((j + 1) * top - int(counts[x]))
                    / (1 - q ** (j + 1))
                )
            out[x] = total
        return out

    def _continuous_law(self, counts: NDArray[np.int64], cells: list[int]) -> dict[int, float]:
        from scipy import integrate

        scale = float(self.histogram.scale)
        tau = float(self.histogram.threshold)

        def cdf(t: float) -> float:  # P(L ≤ t)
            return 1.0 - laplace_sf(t, scale)

        out: dict[int, float] = {NOTHING: 1.0}
        for y in cells:
            out[NOTHING] *= cdf(tau - float(counts[y]))
        for x in range(self.bins):
            out[x] = 0.0
        for x in cells:
            others = [float(counts[y]) for y in cells if y != x]

            def density(
                v: float, cx: float = float(counts[x]), rest: list[float] = others
            ) -> float:
                f = math.exp(-abs(v - cx) / scale) / (2 * scale)
                for c in rest:
                    f *= cdf(v - c)
                return f

            knots = sorted({tau, *(float(c) for c in counts[cells] if c > tau)})
            total = 0.0
            for lo, hi in zip(knots, [*knots[1:], math.inf], strict=True):
                value, _ = integrate.quad(density, lo, hi, epsabs=1e-15, epsrel=1e-12, limit=200)
                total += value
            out[x] = total
        return out

    def law(self, data: CellsArg, cap: CapArg = None) -> dict[int, Any]:
        """Deprecated alias of :meth:`pmf` (the exact law needs no cap any more)."""
        warnings.warn(
            "DeviatingAlgorithm.law is deprecated; use pmf", DeprecationWarning, stacklevel=2
        )
        return self.pmf(data)

    law.__deprecated_alias_of__ = "pmf"  # type: ignore[attr-defined]


@checked
def predicate_mechanism_gap(
    law: SampleLawArg, values: GapValuesArg, epsilon: EpsilonArg
) -> tuple[float, float]:
    """Lemma 7.1.1 on an enumerated sample law μ on {0..values−1}^n: (E[h(S) − h(μ)], ψ-free
    part e^ε − 1), for A′ the exponential mechanism over all predicates h with score
    h(S) − h(μ), h(S) = (1/n)Σ h(x_i), h(μ) = (1/n)Σ_i E_μ[h(x_i)], weights exp((εn/2)·score),
    in floating point (the idealised :class:`PredicateMechanism`). At most 2^24 entries
    (2^values predicates × samples)."""
    samples = list(law)
    n = len(samples[0])
    if max(max(s) for s in samples) >= values:
        raise ValueError(f"law: sample values must be in [0, {values})")
    require_within(2**values * len(samples), 2**24, "values", "entries (2^values × samples)")
    preds = np.array(list(product((0, 1), repeat=values)), dtype=np.float64)  # (H, values)
    X = np.array(samples, dtype=np.int64)  # (m, n)
    probs = np.array([float(law[s]) for s in samples])
    h_sample = preds[:, X].mean(axis=2).T  # (m, H): h(S)
    h_mu = (probs[:, None] * h_sample).sum(axis=0)  # (H,): h(μ) = E h(S) (linearity)
    score = h_sample - h_mu[None, :]
    logits = (float(epsilon) * n / 2) * score
    weights = np.exp(logits - logits.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    gap = float((probs[:, None] * weights * score).sum())
    return gap, math.expm1(float(epsilon))


def _rational_base_at_least(epsilon: float) -> Fraction:
    """A rational q ∈ (0, 1) with q ≥ e^{−ε/2} (so −2 ln q ≤ ε): e^{−ε/2} rounded up one ulp
    past the float result, exact as a dyadic Fraction."""
    q = Fraction(math.nextafter(math.exp(-epsilon / 2), 1.0))
    if not 0 < q < 1:
        raise ValueError(f"epsilon: e^(-epsilon/2) rounds to 1 for epsilon = {epsilon!r}")
    return q


@example(
    every={"data": np.array([0, 0, 1, 2])},
    __init__={
        "values": 3,
        "n": 4,
        "population": [Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)],
        "base": Fraction(1, 2),
    },
    sample={"size": 5},
    pmf={"window": None},
    law={},
    gap={"law": {(0, 1, 2, 2): Fraction(1, 2), (2, 2, 0, 1): Fraction(1, 2)}},
)
class PredicateMechanism(Checked):
    """Lemma 7.1.1's A′ (``002_9f3104e4a0d86722.txt`` L1952) with T = 1: on a sample
    S ∈ {0..values−1}^n it outputs a predicate h: Ω → {0, 1} (a 0/1 tuple over Ω, all 2^values
    of them) with probability ∝ (1/q)^{n·(h(S) − h(μ))}, q = e^{−ε/2} — the exponential
    mechanism with score h(S) − h(μ) and weights exp((εn/2)·score) (notes, checkable item 4).
    h(μ) = Σ_v h(v) p̄(v) with p̄ = ``population``, the average marginal (1/n) Σ_i μ_i (L617).

    Exact by default: q = ``base`` (rational), or the rational q ≥ e^{−ε/2} nearest above it
    for ``epsilon`` (so the level is ≤ ε); every probability is a Fraction and :meth:`sample`
    draws exactly from it. ``idealised=True``: the float weights exp((εn/2)·score) of the
    notes. n·h(S) is the integer count of S in h; the factor q^{n·h(μ)} does not depend on S,
    so rounding it to a rational (done only when n·h(μ) is not an integer; relative error
    ≤ 2^−52) changes the mechanism's prior, not its privacy: under substitution n·h(S) moves by
    at most 1 for every h, so each weight and the normaliser move by a factor ≤ 1/q and the
    output law by ≤ q^{−2} = e^ε (ε-DP, δ = 0).
    """

    def __init__(
        self,
        values: PredicateValuesArg,
        n: SampleSizeArg,
        population: ExactPopulationArg,
        epsilon: OptionalEpsilonArg = None,
        *,
        base: OptionalBaseArg = None,
        idealised: FlagArg = False,
    ) -> None:
        if n > MAX_ENUMERATED_SAMPLE_SIZE:  # refused before any work
            raise ValueError(
                f"n: must be an integer [1, {MAX_ENUMERATED_SAMPLE_SIZE}] "
                "(MAX_ENUMERATED_SAMPLE_SIZE: the exact mechanism enumerates its samples), "
                f"got {n!r}"
            )
        if (epsilon is None) == (base is None):
            raise ValueError("epsilon: give exactly one of epsilon or base")
        if idealised and epsilon is None:
            raise ValueError("epsilon: the idealised (float) version takes epsilon")
        if len(population) != values:
            raise ValueError(f"population: expected {values} probabilities, got {len(population)}")
        self.values, self.n, self.idealised = values, n, idealised
        self.population = population
        self.predicates: list[tuple[int, ...]] = list(product((0, 1), repeat=values))
        if idealised:
            assert epsilon is not None
            self.epsilon = float(epsilon)
            self.base = Fraction(math.exp(-self.epsilon / 2))
            self.privacy = PrivacyLevel(self.epsilon, math.exp(self.epsilon), 0, False)
            return
        if base is not None:
            self.base = check_base(base)
        else:
            assert epsilon is not None
            self.base = _rational_base_at_least(float(epsilon))
        level = -2 * math.log(self.base)
        self.epsilon = level if epsilon is None else min(float(epsilon), level)
        self.privacy = PrivacyLevel(self.epsilon, self.base**-2, 0, exact_sampler=True)
        self.prior: dict[tuple[int, ...], Fraction] = {}
        for h in self.predicates:
            exponent = self.n * self.mean(h)  # n·h(μ)
            if exponent.denominator == 1:
                self.prior[h] = self.base ** int(exponent)
            else:
                self.prior[h] = Fraction(float(self.base) ** float(exponent))

    def mean(self, h: PredicateArg) -> Fraction:
        """h(μ) = Σ_v h(v) p̄(v)."""
        if len(h) != self.values:
            raise ValueError(f"h: expected {self.values} values, got {len(h)}")
        return sum((w for v, w in zip(h, self.population, strict=True) if v), Fraction(0))

    def _counts(self, data: Any, name: str = "data") -> list[int]:
        sample = np.asarray(data).reshape(-1).tolist() if isinstance(data, np.ndarray) else data
        if len(sample) != self.n or not all(
            isinstance(x, (int, np.integer))
            and not isinstance(x, (bool, np.bool_))
            and 0 <= x < self.values
            for x in sample
        ):
            raise ValueError(
                f"{name}: expected {self.n} integer values in [0, {self.values}), got {data!r:.80}"
            )
        return [sum(1 for x in sample if x == v) for v in range(self.values)]

    def pmf(
        self,
        data: PredicateSampleArg,
        window: Annotated[Any, Pair(optional=True, inner=_Predicate())] = None,
    ) -> dict[tuple[int, ...], Any]:
        """The exact output law on the sample ``data``: P(h) ∝ q^{−n·h(S)} · q^{n·h(μ)}
        (Fractions; floats for ``idealised``), restricted to the predicates in ``window``
        (inclusive, lexicographic; None: all 2^values)."""
        return restrict(self._law(self._counts(data)), window)

    def _law(self, counts: list[int]) -> dict[tuple[int, ...], Any]:
        if self.idealised:
            scores = {
                h: sum(c for v, c in zip(h, counts, strict=True) if v)
                - self.n * float(self.mean(h))
                for h in self.predicates
            }
            top = max(scores.values())
            w = {h: math.exp(self.epsilon / 2 * (s - top)) for h, s in scores.items()}
            total_f = math.fsum(w.values())
            return {h: v / total_f for h, v in w.items()}
        weights = {
            h: self.prior[h] / self.base ** sum(c for v, c in zip(h, counts, strict=True) if v)
            for h in self.predicates
        }
        total = sum(weights.values(), Fraction(0))
        return {h: w / total for h, w in weights.items()}

    def sample(
        self, data: PredicateSampleArg, size: SizeArg, rng: GeneratorArg
    ) -> NDArray[np.int64]:
        """``size`` independent outputs, one predicate per row (shape (size, values)): exact
        inversion of the Fraction law (``dpspec.adaptive._exact``); for ``idealised`` the float
        law by ``Generator.random``."""
        require_within(size * self.values, LIMITS["draws"], "size", "entries (size·values)")
        law = self.pmf(data)
        table = np.array(self.predicates, dtype=np.int64)
        if self.idealised:
            cdf = np.cumsum([law[h] for h in self.predicates])
            index = np.minimum(np.searchsorted(cdf, rng.random(size), side="right"), len(cdf) - 1)
        else:
            index = _sample_rational([law[h] for h in self.predicates], size, rng)
        return table[index]

    def law(self, data: PredicateSampleArg) -> dict[tuple[int, ...], Any]:
        """Deprecated alias of :meth:`pmf`."""
        warnings.warn(
            "PredicateMechanism.law is deprecated; use pmf", DeprecationWarning, stacklevel=2
        )
        return self.pmf(data)

    law.__deprecated_alias_of__ = "pmf"  # type: ignore[attr-defined]

    def gap(self, law: SampleLawArg) -> Fraction:
        """E_{S∼μ, h∼A′(S)}[h(S) − h(μ)] exactly, for the sample law ``law`` (a map from
        n-tuples to probabilities) whose average marginal is ``population`` (exact path)."""
        if self.idealised:
            raise ValueError("idealised: the exact gap needs the exact mechanism")
        require_within(len(law) * 2**self.values, 2**20, "law", "terms (samples × predicates)")
        probs = {s: Fraction(p) for s, p in law.items()}
        average = [Fraction(0)] * self.values
        for s, p in probs.items():
            for v, c in enumerate(self._counts(s, "law")):
                average[v] += p * c / self.n
        if sum(probs.values()) != 1 or average != self.population:
            raise ValueError("law: not a probability law with this mechanism's population")
        total = Fraction(0)
        for s, p in probs.items():
            out = self._law(self._counts(s, "law"))
            inner = sum(
                (
                    w * (Fraction(sum(h[x] for x in s), self.n) - self.mean(h))
                    for h, w in out.items()
                ),
                Fraction(0),
            )
            total += p * inner
        return total
