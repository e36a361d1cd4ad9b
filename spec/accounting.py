"""The stated relations an accountant is checked against (:mod:`dpspec.accounting`), in
``Fraction`` arithmetic where the quantity is rational.

* **δ(ε) of a composition, directly**: the k-fold composition of a mechanism with worst pair
  (P, Q) releases k independent draws, so its pair is the product laws (P^k, Q^k), and
  δ(ε) = H_{e^ε}(P^k ‖ Q^k) = Σ_o (P^k(o) − e^ε Q^k(o))₊ (the hockey-stick divergence,
  :func:`dpspec.spec.privacy.hockey_stick`; seed 000 Def 1.1, ``000_dff3c4dc97cf0e21.txt:L15``,
  read on one pair). :func:`product_laws` enumerates the product laws (:class:`ProductLaws`),
  outcome tuple by outcome tuple; tuples whose probabilities agree under *both* laws are merged
  into one outcome of the summed probabilities, which changes no hockey-stick divergence
  (Σ (p − rq)₊ over equal terms is the positive part of their sum) and keeps the enumeration
  small.
  :func:`hockey_stick_enclosure` is H of such laws as an exact rational enclosure [lo, hi]:
  lo = hi for whole laws; when P is a law restricted to a window (a law of infinite support,
  the discrete Laplace), the terms of the tuples leaving the window lie in [0, P^k(o)], so
  hi = lo + 1 − P(window)^k. :func:`hockey_stick_enclosure_at` does the same at a real ε,
  whose ratio e^ε is irrational: with R_lo ≤ e^ε ≤ R_hi from
  :func:`dpspec.spec.laws.exp_neg_interval`, H(R_hi) ≤ δ(ε) ≤ H(R_lo); and
  :func:`unreached_mass` is the limit of δ(ε) as ε → ∞ (ε(δ) = ∞ beyond it).
* **Poisson subsampling at rate p**, the relations apart (:func:`poisson_subsampled`): remove,
  from the pair (P, Q) = (M(D), M(D′)), D′ = D minus x: ((1 − p)·Q + p·P, Q); add, from
  (P, Q) = (M(D), M(D′)), D′ = D plus x: (P, (1 − p)·P + p·Q) — the mixture identity of Poisson
  subsampling (Balle, Barthe & Gaboardi 2018; Zhu, Dong & Wang 2022).
* **Pure composition** (:func:`pure_composition`): k mechanisms each ε-DP (δ = 0) compose to
  kε at δ = 0 (basic composition; thesis Sec 3.2, ``002_9f3104e4a0d86722.txt:L645``: DP is
  preserved under composition), and no better for a pair whose likelihood ratio attains e^ε:
  its k-fold product attains e^{kε}. Stated in ratios, exactly: e^{kε} = (e^ε)^k.
* **The Gaussian mechanism's curve** (:func:`gaussian_delta`): with μ = Δ/σ, δ(ε) =
  Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (Balle & Wang 2018, Thm 8); k Gaussian mechanisms compose
  to μ = √(Σ μ_i²). Floating point (``math.erfc``), written here independently of the
  accountant's own closed form.
* :func:`interval_contains` and :func:`intervals_meet`: the comparisons of brackets.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from dpspec.spec.laws import exp_neg_interval
from dpspec.spec.privacy import hockey_stick

Law = Mapping[Any, Fraction]


@dataclass(frozen=True)
class ProductLaws:
    """The laws (P^k, Q^k) of k independent draws on the enumerated outcomes (tuples with equal
    probabilities under both laws merged), as integer numerators over one denominator:
    P^k(o) = ``p[o]``/``scale``, Q^k(o) = ``q[o]``/``scale``. ``copies`` is k."""

    p: dict[int, int]
    q: dict[int, int]
    scale: int
    copies: int

    @property
    def mass(self) -> Fraction:
        """P^k's mass on the enumerated outcomes (1 for whole laws; below 1 on a window)."""
        return Fraction(sum(self.p.values()), self.scale)

    def laws(self) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
        """(P^k, Q^k) as two dicts of Fractions."""
        return (
            {o: Fraction(v, self.scale) for o, v in self.p.items()},
            {o: Fraction(v, self.scale) for o, v in self.q.items()},
        )


def product_laws_upto(p: Law, q: Law, copies: int) -> list[ProductLaws]:
    """The product laws of j independent draws for j = 1..``copies``: every tuple of j outcomes
    (of the union of the supports) enumerated, tuples whose probabilities agree under both laws
    merged (the module docstring); exact, on integer numerators over one common denominator
    D^j (P(o) = a_o/D)."""
    if copies < 1:
        raise ValueError(f"copies: must be >= 1, got {copies}")
    outcomes = {*p, *q}
    values = [Fraction(p.get(o, 0)) for o in outcomes] + [Fraction(q.get(o, 0)) for o in outcomes]
    common = math.lcm(*(v.denominator for v in values))
    single = Counter(
        (int(Fraction(p.get(o, 0)) * common), int(Fraction(q.get(o, 0)) * common)) for o in outcomes
    )
    found = []
    product: Counter[tuple[int, int]] = Counter({(1, 1): 1})
    for j in range(1, copies + 1):
        step: Counter[tuple[int, int]] = Counter()
        for (a, b), n in product.items():
            for (c, d), m in single.items():
                step[(a * c, b * d)] += n * m
        product = step
        keys = list(product.items())
        found.append(
            ProductLaws(
                {i: n * a for i, ((a, _), n) in enumerate(keys)},
                {i: n * b for i, ((_, b), n) in enumerate(keys)},
                common**j,
                j,
            )
        )
    return found


def product_laws(p: Law, q: Law, copies: int) -> ProductLaws:
    """The product laws of k = ``copies`` independent draws (:func:`product_laws_upto`)."""
    return product_laws_upto(p, q, copies)[-1]


def hockey_stick_enclosure(laws: ProductLaws, ratio: Fraction) -> tuple[Fraction, Fraction]:
    """An exact enclosure [lo, hi] of H_ratio(P^k ‖ Q^k) from the enumerated product laws, P
    possibly restricted to a window (:attr:`ProductLaws.mass` below 1): lo =
    :func:`~dpspec.spec.privacy.hockey_stick` of what is enumerated (taken on the numerators
    and divided by the common denominator: H is positively homogeneous), hi = lo + the P-mass
    not enumerated (each missing term is in [0, P^k(o)])."""
    lo = Fraction(hockey_stick(laws.p, laws.q, ratio)) / laws.scale
    return lo, lo + (1 - laws.mass)


def product_hockey_stick(p: Law, q: Law, copies: int, ratio: Fraction) -> tuple[Fraction, Fraction]:
    """An exact enclosure of H_ratio(P^k ‖ Q^k) (:func:`hockey_stick_enclosure` of
    :func:`product_laws`)."""
    return hockey_stick_enclosure(product_laws(p, q, copies), ratio)


def exp_bounds(epsilon: Fraction, bits: int = 256) -> tuple[Fraction, Fraction]:
    """Rational R_lo ≤ e^ε ≤ R_hi, ε ≥ 0 (from the bounds on e^{−ε} of
    :func:`dpspec.spec.laws.exp_neg_interval`)."""
    return _exp_bounds(Fraction(epsilon), bits)


@lru_cache(maxsize=4096)
def _exp_bounds(epsilon: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    """:func:`exp_bounds`, kept for repeated ε (the function a check names stays the one it
    calls: a cache hit never hides the call)."""
    below = exp_neg_interval(epsilon, bits)
    return max(Fraction(1), 1 / below.hi), 1 / below.lo


def hockey_stick_enclosure_at(
    laws: ProductLaws, epsilon: Fraction, bits: int = 256
) -> tuple[Fraction, Fraction]:
    """An exact enclosure of δ(ε) = H_{e^ε}(P^k ‖ Q^k) at a real ε ≥ 0: [H(R_hi), H(R_lo)] with
    the window term of :func:`hockey_stick_enclosure`."""
    r_lo, r_hi = exp_bounds(Fraction(epsilon), bits)
    return hockey_stick_enclosure(laws, r_hi)[0], hockey_stick_enclosure(laws, r_lo)[1]


def unreached_mass(laws: ProductLaws) -> Fraction:
    """P^k's mass where Q^k has none: the limit of δ(ε) as ε → ∞ (so ε(δ) is finite iff it is
    ≤ δ)."""
    return Fraction(sum(v for o, v in laws.p.items() if not laws.q.get(o, 0)), laws.scale)


def poisson_subsampled(p: Law, q: Law, rate: Fraction, relation: str) -> tuple[Law, Law]:
    """The pair of a mechanism with pair (P, Q) run on a Poisson subsample at ``rate``:
    ``"remove"`` ((1 − p)·Q + p·P, Q), ``"add"`` (P, (1 − p)·P + p·Q)."""
    if not 0 < rate <= 1:
        raise ValueError(f"rate: must be in (0, 1], got {rate}")
    outcomes = {*p, *q}
    if relation == "remove":
        return {o: (1 - rate) * q.get(o, 0) + rate * p.get(o, 0) for o in outcomes}, q
    if relation == "add":
        return p, {o: (1 - rate) * p.get(o, 0) + rate * q.get(o, 0) for o in outcomes}
    raise ValueError(f"relation: expected 'add' or 'remove', got {relation!r}")


def pure_composition(ratio: Fraction, copies: int) -> Fraction:
    """kε, in ratios: e^{kε} = (e^ε)^k, the level at δ = 0 of k composed ε-DP mechanisms, and the
    largest likelihood ratio of k composed copies of a pair whose largest ratio is e^ε."""
    return Fraction(ratio) ** copies


def _normal_sf(x: float) -> float:
    """P(N(0, 1) > x) = erfc(x/√2)/2."""
    return 0.5 * math.erfc(x / math.sqrt(2.0))


def gaussian_delta(epsilon: float, mu: float) -> float:
    """δ(ε) of the Gaussian mechanism with μ = Δ/σ: Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2)."""
    if mu <= 0:
        return 0.0
    return _normal_sf(epsilon / mu - mu / 2) - math.exp(epsilon) * _normal_sf(epsilon / mu + mu / 2)


def interval_contains(lo: Any, hi: Any, x: Any) -> bool:
    """lo ≤ x ≤ hi."""
    return bool(lo <= x <= hi)


def intervals_meet(a: tuple[Any, Any], b: tuple[Any, Any]) -> bool:
    """Whether [a₀, a₁] and [b₀, b₁] share a point (both enclose one true value: they must)."""
    return bool(a[0] <= b[1] and b[0] <= a[1])


# Shuffled fixed batches of the Gaussian mechanism (dpspec.accounting.shuffling): the law of
# the max-of-batches statistic, the μ-composition's ε and a Poisson-subsampling upper bound,
# each written from the formula with math.erfc / math.lgamma (never scipy's log_ndtr, which the
# accountant uses).


def _log_normal_cdf(x: float) -> float:
    """ln Φ(x): ln of the survival function on the left, log1p(−Φ̄(x)) on the right."""
    return math.log(_normal_sf(-x)) if x < 0 else math.log1p(-_normal_sf(x))


def max_of_shifted_cdf(c: float, shift: float, sigma: float, batches: int) -> tuple[float, float]:
    """(F(c), 1 − F(c)) of M = max of T independent normals, one N(shift, σ²) and T − 1
    N(0, σ²): F(c) = Φ((c − shift)/σ)·Φ(c/σ)^{T−1}, both ends from ln F (for 1 − F in the upper
    tail, −expm1(ln F))."""
    log_f = _log_normal_cdf((c - shift) / sigma) + (batches - 1) * _log_normal_cdf(c / sigma)
    return math.exp(log_f), -math.expm1(log_f)


def max_of_shifted_density(c: float, shift: float, sigma: float, batches: int) -> float:
    """The density of that M at c: φ_a·Φ_b^{T−1} + (T − 1)·Φ_a·Φ_b^{T−2}·φ_b, with a =
    (c − shift)/σ, b = c/σ, φ the normal density divided by σ (terms taken in logs)."""
    a, b = (c - shift) / sigma, c / sigma
    log_phi_a = -a * a / 2 - math.log(sigma * math.sqrt(2 * math.pi))
    log_phi_b = -b * b / 2 - math.log(sigma * math.sqrt(2 * math.pi))
    first = math.exp(log_phi_a + (batches - 1) * _log_normal_cdf(b))
    if batches == 1:
        return first
    rest = _log_normal_cdf(a) + (batches - 2) * _log_normal_cdf(b) + log_phi_b
    return first + (batches - 1) * math.exp(rest)


def gaussian_epsilon(delta: float, mu: float) -> float:
    """The smallest ε ≥ 0 with :func:`gaussian_delta` ≤ δ, by bisection to 10^-13 (δ(ε) is
    decreasing in ε)."""
    if gaussian_delta(0.0, mu) <= delta:
        return 0.0
    lo, hi = 0.0, 1.0
    while gaussian_delta(hi, mu) > delta:
        lo, hi = hi, 2 * hi
    while hi - lo > 1e-13 * max(1.0, hi):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if gaussian_delta(mid, mu) <= delta else (mid, hi)
    return hi


def sampled_gaussian_rdp(rate: float, sigma: float, order: int) -> float:
    """The Rényi divergence of integer order α of the Poisson-subsampled Gaussian mechanism
    (sensitivity 1, noise σ, rate q): ln(A_α)/(α − 1) with A_α = Σ_k C(α, k)(1 − q)^{α−k} q^k
    e^{(k² − k)/(2σ²)} (Mironov, Talwar & Zhang 2019, "Rényi differential privacy of the
    sampled Gaussian mechanism", arXiv:1908.10530; it bounds both orders of the pair)."""
    terms = [
        math.lgamma(order + 1)
        - math.lgamma(k + 1)
        - math.lgamma(order - k + 1)
        + (order - k) * math.log1p(-rate)
        + k * math.log(rate)
        + (k * k - k) / (2 * sigma * sigma)
        for k in range(order + 1)
    ]
    top = max(terms)
    return (top + math.log(sum(math.exp(t - top) for t in terms))) / (order - 1)


def poisson_gaussian_epsilon_upper(
    rate: float, sigma: float, steps: int, delta: float, orders: range = range(2, 129)
) -> float:
    """An upper bound on ε(δ) of ``steps`` compositions of the Poisson-subsampled Gaussian:
    min over integer orders α of steps·RDP(α) + ln(1/δ)/(α − 1) (RDP composes additively;
    Mironov 2017, "Rényi differential privacy", CSF, the conversion to (ε, δ)), inflated by
    10^-9 relative for the floats' rounding."""
    best = min(
        steps * sampled_gaussian_rdp(rate, sigma, a) + math.log(1 / delta) / (a - 1) for a in orders
    )
    return best * (1 + 1e-9)


def laplace_pure_epsilon(copies: int, scale: Fraction) -> Fraction:
    """ε at δ = 0 of k Laplace mechanisms of scale b (sensitivity 1): the sum k·(1/b)."""
    return Fraction(copies) / Fraction(scale)


def subsampled_pure_epsilon(epsilon: float, rate: float) -> tuple[float, float]:
    """The pure level of one ε-DP step whose likelihood ratio attains e^{±ε}, Poisson sampled
    at rate q, in each direction: remove log(1 + q(e^ε − 1)), add −log(1 + q(e^{−ε} − 1))
    (the mixture's largest ratio)."""
    remove = math.log(1 + rate * (math.exp(epsilon) - 1))
    return remove, -math.log(1 + rate * (math.exp(-epsilon) - 1))
