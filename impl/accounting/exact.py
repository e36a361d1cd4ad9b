"""Exact privacy loss distributions of finite output laws, composed and read in ``Fraction``s.

For an ordered pair (P, Q) of output laws (a mechanism's worst-case neighbouring pair), the
*privacy loss distribution* is the law, under P, of the likelihood ratio r(o) = P(o)/Q(o): a
finite set of atoms (r, P(r)) with r a ``Fraction`` > 0, and the atom r = ∞ of the outcomes
Q does not reach (P(∞) = P{o : Q(o) = 0 < P(o)}). Outcomes P does not reach carry no P-mass;
their Q-mass is what the finite atoms leave, 1 − Σ_r P(r)/r (:attr:`LossDistribution.q_only`),
so the distribution determines the pair up to a sufficient statistic — in particular the
distribution of (Q, P) (:meth:`LossDistribution.reversed`).

* **Composition** of independent pairs (P₁, Q₁), (P₂, Q₂): ratios multiply and masses multiply,
  atoms with equal ratios merged — exactly (Fractions, never floats); the ∞ atom is
  P(any part at ∞) = 1 − (1 − P₁(∞))(1 − P₂(∞)). A composition that would form more than
  ``limit`` products of atoms (default :data:`MAX_PRODUCTS`, about a second of Fraction
  arithmetic) is refused before any work, stating the estimate and the limit: n₁·n₂ for two
  distributions; for k copies of an n-atom one, composed one copy at a time,
  Σ_{j=1}^{k−1} C(n + j − 1, j)·n (the j-fold composition has at most C(n + j − 1, j) distinct
  ratios, the multisets of j atoms).
* **δ(ε)** = sup_F P(F) − e^ε Q(F) = Σ_o (P(o) − e^ε Q(o))₊ = Σ_r P(r)·(1 − e^ε/r)₊ + P(∞) (the
  hockey-stick divergence H_{e^ε}(P ‖ Q)): exact at a rational ratio e^ε
  (:meth:`LossDistribution.delta_at_ratio`); at a real ε the ratio is irrational and
  :meth:`~LossDistribution.delta_at` returns a certified :class:`Bracket` [δ_lo, δ_hi]: with
  e^ε ∈ [R_lo, R_hi] from the rational bounds of :func:`dpspec.spec.laws.exp_neg_interval`
  (``bits`` of them), δ is decreasing in the ratio, so δ_lo = δ(R_hi) ≤ δ(ε) ≤ δ(R_lo) = δ_hi,
  both exact; the width is at most R_hi − R_lo ≤ e^ε·2^{−bits}·(small factor), since
  Σ_r P(r)/r ≤ 1.
* **ε(δ)** = the smallest ε ≥ 0 with δ(ε) ≤ δ: ∞ when P(∞) > δ, 0 when δ(0) ≤ δ; otherwise
  bisection on rational ε from [0, ⌈log₂ r_max⌉ + 1] (δ there is P(∞) ≤ δ), keeping the
  invariant certified at every step: δ(ε_lo) > δ (the lower end of the bracket at ε_lo above
  δ, or ε_lo = 0) and δ(ε_hi) ≤ δ (the upper end at ε_hi below); so ε_lo < ε(δ) ≤ ε_hi, until
  ε_hi − ε_lo ≤ ``width``. A midpoint the bounds cannot decide gets 4× the bits, then is moved
  by an eighth of the bracket; a bracket still undecided is returned as it is (certified, wider
  than asked).

One pair gives one direction. A mechanism's curve is the maximum over both directions of its
relation, kept apart through composition: :class:`PrivacyCurve` holds the distribution of
(P, Q) (``forward``; for add/remove, (M(D), M(D′)) with D′ = D minus one record: *remove*) and
of the other direction (``backward``: *add*); k-fold composition composes each with its own
kind, and δ(ε) = max(δ_forward(ε), δ_backward(ε)), ε(δ) = max(ε_forward(δ), ε_backward(δ)).
The mechanisms' pairs (randomized response, the discrete Laplace count, Poisson subsampling)
are in :mod:`dpspec.accounting.pairs`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Annotated, Any

from dpspec.accounting._domains import (
    LEVEL_DOMAIN,
    TARGET_DOMAIN,
    WIDTH_DOMAIN,
    Atoms,
    ExactProbability,
    ExactRatio,
    FiniteLaw,
)
from dpspec.spec.laws import exp_neg_interval
from dpspec.validation import (
    Checked,
    Domain,
    InputTypeError,
    Integer,
    checked,
    example,
    require_within,
)

#: The most products of atoms a composition forms unless ``limit`` says otherwise (each a pair
#: of Fraction products: 2^18 take about a second).
MAX_PRODUCTS = 2**18
#: The largest ``limit`` a caller may set.
LIMIT_CAP = 2**24
#: Bits of the rational bounds on e^ε (:func:`dpspec.spec.laws.exp_neg_interval`).
EXP_BITS = 128
#: The default width of an ε(δ) bracket.
EPSILON_WIDTH = Fraction(1, 2**20)

#: A finite output law: outcome -> exact probability.
LawArg = Annotated[Mapping[Any, Fraction], FiniteLaw()]
#: ε ≥ 0 (at most MAX_EPSILON): a float, an int or a Fraction, converted exactly to a Fraction.
LevelArg = Annotated[float | Fraction, LEVEL_DOMAIN]
#: A target δ ∈ [0, 1), converted exactly to a Fraction.
TargetArg = Annotated[float | Fraction, TARGET_DOMAIN]
#: The width at which an ε(δ) bisection stops, in [2^-64, 1], converted exactly to a Fraction.
WidthArg = Annotated[float | Fraction, WIDTH_DOMAIN]
#: An exact ratio e^ε ∈ [1, 2^64]: an int or a Fraction.
RatioArg = Annotated[int | Fraction, ExactRatio()]
#: Bits of the exp bounds.
BitsArg = Annotated[int, Integer(16, hi=4096, clean=EXP_BITS)]
#: The number of copies composed.
CopiesArg = Annotated[int, Integer(1, hi=2**32, clean=2)]
#: The most products of atoms a composition may form.
LimitArg = Annotated[int, Integer(1, hi=LIMIT_CAP, clean=MAX_PRODUCTS)]


@dataclass(frozen=True)
class Bracket:
    """A certified enclosure lo ≤ x ≤ hi of a real x, as ``Fraction``s (``lo == hi``: x is
    known exactly); an ε(δ) with no finite value is ``lo = hi = math.inf``."""

    __dpspec_declarative__ = "a certified interval (a record the accountant returns)"

    lo: Fraction | float
    hi: Fraction | float

    @property
    def exact(self) -> bool:
        return self.lo == self.hi

    @property
    def width(self) -> Fraction | float:
        return 0 if self.exact else self.hi - self.lo


@checked
def exp_bounds(epsilon: LevelArg, bits: BitsArg = EXP_BITS) -> tuple[Fraction, Fraction]:
    """Rational R_lo ≤ e^ε ≤ R_hi for ε ≥ 0 (1/e^{−ε} from the bounds of
    :func:`dpspec.spec.laws.exp_neg_interval`; exactly 1 at ε = 0)."""
    return _exp_bounds(Fraction(epsilon), bits)


@lru_cache(maxsize=4096)
def _exp_bounds(epsilon: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    """:func:`exp_bounds` without the checks, kept for repeated ε (a bisection's midpoints)."""
    below = exp_neg_interval(epsilon, bits)
    return max(Fraction(1), 1 / below.hi), 1 / below.lo


def _merged(pairs: Iterable[tuple[Fraction, Fraction]]) -> tuple[tuple[Fraction, Fraction], ...]:
    """(ratio, mass) pairs with equal ratios merged (masses added), sorted by ratio; the pairs
    are taken in decreasing order of ratio (each merged atom keeps its first ratio)."""
    merged: dict[Any, tuple[Fraction, Fraction]] = {}
    for ratio, mass in sorted(pairs, reverse=True):
        key = ratio
        first, total = merged.get(key, (ratio, Fraction(0)))
        merged[key] = (first, total + mass)
    return tuple(sorted(merged.values()))


def _delta(
    atoms: tuple[tuple[Fraction, Fraction], ...], infinite: Fraction, ratio: Fraction
) -> Fraction:
    """Σ_r P(r)·(1 − ratio/r)₊ + P(∞): the hockey-stick divergence at e^ε = ``ratio``."""
    total = Fraction(0)
    for r, mass in reversed(atoms):
        if r <= ratio:
            break
        total += mass * (1 - ratio / r)
    return total + infinite


def _power_products(n: int, copies: int, limit: int) -> int:
    """Σ_{j=1}^{k−1} C(n + j − 1, j)·n, the products k copies of an n-atom distribution form
    composed one copy at a time; the sum is stopped (and returned) once it exceeds ``limit``."""
    total, count = 0, 1  # count = C(n + j − 1, j), from j = 0
    for j in range(1, copies):
        count = count * (n + j - 1) // j
        total += count * n
        if total > limit:
            break
    return total


def _log2_above(x: Fraction) -> int:
    """An integer ≥ log₂ x for x ≥ 1 (from the bit lengths)."""
    return max(0, x.numerator.bit_length() - x.denominator.bit_length() + 1)


@dataclass(frozen=True)
class _DistributionDomain(Domain):
    """A :class:`LossDistribution` (what the accountant composes)."""

    def convert(self, value: Any, name: str) -> LossDistribution:
        if not isinstance(value, LossDistribution):
            raise InputTypeError(f"{name}: expected a LossDistribution, got {type(value).__name__}")
        return value

    def hostile(self) -> tuple[Any, ...]:
        return (*super().hostile(), 3, "pld", {Fraction(2): Fraction(1)}, [(2, 1)])

    @property
    def example(self) -> Any:
        return None if self.optional else LossDistribution(_EXAMPLE_ATOMS)

    def describe(self) -> str:
        return "a LossDistribution"


#: The atoms of the loss distribution of randomized response on 2 values with e^ε = 2.
_EXAMPLE_ATOMS = ((Fraction(1, 2), Fraction(1, 3)), (Fraction(2), Fraction(2, 3)))

#: Randomized response on 2 values with e^ε = 2: the laws on inputs 0 and 1.
_EXAMPLE_P = {0: Fraction(2, 3), 1: Fraction(1, 3)}
_EXAMPLE_Q = {0: Fraction(1, 3), 1: Fraction(2, 3)}

#: A privacy loss distribution.
DistributionArg = Annotated["LossDistribution", _DistributionDomain()]


@example(__init__={"atoms": _EXAMPLE_ATOMS, "infinite": Fraction(0)})
@dataclass(frozen=True)
class LossDistribution(Checked):
    """The privacy loss distribution of an ordered pair (P, Q): ``atoms`` (ratio r = P(o)/Q(o),
    P(r)) with distinct increasing ratios, and ``infinite`` = P(r = ∞). The masses and
    ``infinite`` sum to 1, and the Q-masses Σ P(r)/r to at most 1 (checked at construction).
    Build one from two laws with :func:`loss_distribution`."""

    atoms: Annotated[tuple[tuple[Fraction, Fraction], ...], Atoms()]
    infinite: Annotated[Fraction, ExactProbability(clean=Fraction(0))] = Fraction(0)

    def __post_init__(self) -> None:
        super().__post_init__()
        total = sum((m for _, m in self.atoms), Fraction(0)) + self.infinite
        if total != 1:
            raise ValueError(f"atoms, infinite: the P-masses sum to {total}, not exactly 1")
        if self.q_only < 0:
            raise ValueError(
                f"atoms: the Q-masses P(r)/r sum to {1 - self.q_only} > 1 (not a pair of laws)"
            )

    @property
    def q_only(self) -> Fraction:
        """Q's mass where P has none: 1 − Σ_r P(r)/r."""
        return 1 - sum((m / r for r, m in self.atoms), Fraction(0))

    @property
    def support(self) -> int:
        """The number of atoms, ∞ included."""
        return len(self.atoms) + (self.infinite > 0)

    def reversed(self) -> LossDistribution:
        """The distribution of the pair (Q, P): atoms (1/r, P(r)/r), ∞ at Q's mass where P has
        none (:attr:`q_only`)."""
        flipped = tuple((1 / r, m / r) for r, m in reversed(self.atoms))
        return LossDistribution(flipped, self.q_only)

    def compose(self, other: DistributionArg, limit: LimitArg = MAX_PRODUCTS) -> LossDistribution:
        """The distribution of the pair (P₁ × P₂, Q₁ × Q₂): ratios and masses multiplied, equal
        ratios merged; refused before any work when the n₁·n₂ products exceed ``limit``."""
        require_within(len(self.atoms) * len(other.atoms), limit, "limit", "products of atoms")
        return _composed(self, other)

    def power(self, copies: CopiesArg, limit: LimitArg = MAX_PRODUCTS) -> LossDistribution:
        """``copies`` independent copies composed one at a time; refused before any work when
        the products this forms (module docstring) exceed ``limit``, naming ``copies``."""
        products = _power_products(len(self.atoms), copies, limit)
        require_within(products, limit, "copies", "products of atoms")
        result = self
        for _ in range(copies - 1):
            result = _composed(result, self)
        return result

    def delta_at_ratio(self, ratio: RatioArg) -> Fraction:
        """δ at e^ε = ``ratio`` exactly: Σ_r P(r)·(1 − ratio/r)₊ + P(∞)."""
        return _delta(self.atoms, self.infinite, Fraction(ratio))

    def delta_at(self, epsilon: LevelArg, bits: BitsArg = EXP_BITS) -> Bracket:
        """A certified bracket of δ(ε): δ at the upper and at the lower bound of e^ε."""
        lo_ratio, hi_ratio = _exp_bounds(Fraction(epsilon), bits)
        lower = _delta(self.atoms, self.infinite, hi_ratio)  # δ decreases in the ratio
        upper = _delta(self.atoms, self.infinite, lo_ratio)
        return Bracket(lower, upper)

    def epsilon_at(
        self, delta: TargetArg, width: WidthArg = EPSILON_WIDTH, bits: BitsArg = EXP_BITS
    ) -> Bracket:
        """A certified bracket (ε_lo, ε_hi] of the smallest ε ≥ 0 with δ(ε) ≤ ``delta``, of
        width ≤ ``width`` (module docstring); [∞, ∞] when P(∞) > δ, [0, 0] when δ(0) ≤ δ."""
        delta, width = Fraction(delta), Fraction(width)
        if self.infinite > delta:
            return Bracket(math.inf, math.inf)
        if _delta(self.atoms, self.infinite, Fraction(1)) <= delta:
            return Bracket(Fraction(0), Fraction(0))
        lo, hi = Fraction(0), Fraction(_log2_above(self.atoms[-1][0]))
        while hi - lo > width:
            side = _side(self, (lo, hi), delta, bits)
            if side is None:
                break
            mid, below = side
            lo, hi = (lo, mid) if below else (mid, hi)
        return Bracket(lo, hi)


def _composed(a: LossDistribution, b: LossDistribution) -> LossDistribution:
    """The composition of two distributions (the work of :meth:`LossDistribution.compose`)."""
    products = ((r1 * r2, m1 * m2) for r1, m1 in a.atoms for r2, m2 in b.atoms)
    infinite = 1 - (1 - a.infinite) * (1 - b.infinite)
    return LossDistribution(_merged(products), infinite)


def _side(
    pld: LossDistribution, bracket: tuple[Fraction, Fraction], delta: Fraction, bits: int
) -> tuple[Fraction, bool] | None:
    """A point ε inside the bracket and whether δ(ε) ≤ δ there (True) or > δ (False), both
    certified; None when no try decides (the midpoint at ``bits`` and 4× the bits, then a point
    an eighth of the bracket away)."""
    lo, hi = bracket
    for mid, b in (
        ((lo + hi) / 2, bits),
        ((lo + hi) / 2, 4 * bits),
        ((3 * lo + 5 * hi) / 8, 4 * bits),
    ):
        lo_ratio, hi_ratio = _exp_bounds(mid, b)
        if _delta(pld.atoms, pld.infinite, lo_ratio) <= delta:
            return mid, True
        if _delta(pld.atoms, pld.infinite, hi_ratio) > delta:
            return mid, False
    return None


@example(__call__={"p": _EXAMPLE_P, "q": _EXAMPLE_Q})
@checked
def loss_distribution(p: LawArg, q: LawArg) -> LossDistribution:
    """The privacy loss distribution of (P, Q) from the two laws: each outcome with P(o) > 0 an
    atom (P(o)/Q(o), P(o)), merged by equal ratio, or part of ∞ when Q(o) = 0."""
    finite: list[tuple[Fraction, Fraction]] = []
    infinite = Fraction(0)
    for outcome, mass in p.items():
        if mass == 0:
            continue
        other = q.get(outcome, Fraction(0))
        if other == 0:
            infinite += mass
        else:
            finite.append((mass / other, mass))
    return LossDistribution(_merged(finite), infinite)


@dataclass(frozen=True)
class _CurveDomain(Domain):
    """A :class:`PrivacyCurve`."""

    def convert(self, value: Any, name: str) -> PrivacyCurve:
        if not isinstance(value, PrivacyCurve):
            raise InputTypeError(f"{name}: expected a PrivacyCurve, got {type(value).__name__}")
        return value

    def hostile(self) -> tuple[Any, ...]:
        return (*super().hostile(), 3, "curve", (1, 2))

    @property
    def example(self) -> Any:
        pld = LossDistribution(_EXAMPLE_ATOMS)
        return None if self.optional else PrivacyCurve(pld, pld.reversed())

    def describe(self) -> str:
        return "a PrivacyCurve"


#: A privacy curve.
CurveArg = Annotated["PrivacyCurve", _CurveDomain()]


@example(
    __init__={
        "forward": LossDistribution(_EXAMPLE_ATOMS),
        "backward": LossDistribution(_EXAMPLE_ATOMS),
    }
)
@dataclass(frozen=True)
class PrivacyCurve(Checked):
    """The privacy curve of a mechanism: ``forward`` the loss distribution of its worst pair in
    one direction of the relation (P, Q) (add/remove: *remove*, (M(D), M(D′)) with D′ = D minus
    one record), ``backward`` in the other (*add*; for one pair, the distribution of (Q, P)).
    δ(ε) and ε(δ) are the maxima over the two directions; composition keeps them apart."""

    forward: DistributionArg
    backward: DistributionArg

    def compose(self, other: CurveArg, limit: LimitArg = MAX_PRODUCTS) -> PrivacyCurve:
        """Both directions composed with their own kind."""
        return PrivacyCurve(
            self.forward.compose(other.forward, limit), self.backward.compose(other.backward, limit)
        )

    def power(self, copies: CopiesArg, limit: LimitArg = MAX_PRODUCTS) -> PrivacyCurve:
        """``copies`` copies composed, each direction with its own kind."""
        return PrivacyCurve(self.forward.power(copies, limit), self.backward.power(copies, limit))

    def delta_at_ratio(self, ratio: RatioArg) -> Fraction:
        """max of both directions' exact δ at e^ε = ``ratio``."""
        return max(self.forward.delta_at_ratio(ratio), self.backward.delta_at_ratio(ratio))

    def delta_at(self, epsilon: LevelArg, bits: BitsArg = EXP_BITS) -> Bracket:
        """A certified bracket of max(δ_forward(ε), δ_backward(ε)) (the maximum of the ends)."""
        a, b = self.forward.delta_at(epsilon, bits), self.backward.delta_at(epsilon, bits)
        return Bracket(max(a.lo, b.lo), max(a.hi, b.hi))

    def epsilon_at(
        self, delta: TargetArg, width: WidthArg = EPSILON_WIDTH, bits: BitsArg = EXP_BITS
    ) -> Bracket:
        """A certified bracket of max(ε_forward(δ), ε_backward(δ)) (the maximum of the ends: the
        smallest ε at which both directions' δ are ≤ ``delta``)."""
        a = self.forward.epsilon_at(delta, width, bits)
        b = self.backward.epsilon_at(delta, width, bits)
        return Bracket(max(a.lo, b.lo), max(a.hi, b.hi))


@example(__call__={"p": _EXAMPLE_P, "q": _EXAMPLE_Q})
@checked
def privacy_curve(p: LawArg, q: LawArg) -> PrivacyCurve:
    """The curve of the pair (P, Q) in both orders: forward (P, Q), backward (Q, P), each from
    the laws (:func:`loss_distribution`)."""
    return PrivacyCurve(loss_distribution(p, q), loss_distribution(q, p))


__all__ = [
    "EPSILON_WIDTH",
    "EXP_BITS",
    "LIMIT_CAP",
    "MAX_PRODUCTS",
    "Bracket",
    "LossDistribution",
    "PrivacyCurve",
    "exp_bounds",
    "loss_distribution",
    "privacy_curve",
]
