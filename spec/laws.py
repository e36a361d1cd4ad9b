"""The stated laws the exact checks compare the code's laws with, written from the public
parameters only, exactly: rational intervals (arithmetic rounding outward) where a probability
is irrational, e.g. q = e^{−1/scale} to within 2^-200.

* :class:`Interval`, :func:`ipow`, :func:`exp_neg_interval` — the exact arithmetic;
* the discrete Laplace (two-sided geometric) law, stated once: :func:`two_sided_pmf`
  P(Z = z) = (1 − q)/(1 + q)·q^{|z|}, :func:`two_sided_sf` P(Z ≥ k) and :func:`two_sided_cdf`
  P(Z ≤ t), at an exact rational q (every probability a ``Fraction``), an :class:`Interval`
  (rounded outward) or a float (the same expression in floating point);
* the laws: :func:`geometric_spec` (P(G = g) = (1 − q)q^g), :func:`two_sided_spec` (the
  discrete Laplace, :func:`two_sided_pmf` as a :data:`SpecLaw`), :func:`block_spec` and
  :func:`truncated_geometric_spec` (the parts of the block sampler), :func:`categorical_spec`
  (P(i) ∝ w_i), :func:`bernoulli_spec`, :func:`randomized_response_spec` (r/(r + k − 1)).

Each is a function from an outcome to its probability (an :class:`Interval` or a
``Fraction``): a :data:`SpecLaw`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, overload


@dataclass(frozen=True)
class Interval:
    """A closed rational interval [lo, hi] (arithmetic rounds outward, exactly)."""

    lo: Fraction
    hi: Fraction

    @staticmethod
    def point(x: Fraction | int) -> Interval:
        return Interval(Fraction(x), Fraction(x))

    def __add__(self, other: Interval | Fraction | int) -> Interval:
        o = as_interval(other)
        return Interval(self.lo + o.lo, self.hi + o.hi)

    __radd__ = __add__

    def __sub__(self, other: Interval | Fraction | int) -> Interval:
        o = as_interval(other)
        return Interval(self.lo - o.hi, self.hi - o.lo)

    def __rsub__(self, other: Interval | Fraction | int) -> Interval:
        return as_interval(other) - self

    def __mul__(self, other: Interval | Fraction | int) -> Interval:
        o = as_interval(other)
        products = (self.lo * o.lo, self.lo * o.hi, self.hi * o.lo, self.hi * o.hi)
        return Interval(min(products), max(products))

    __rmul__ = __mul__

    def __truediv__(self, other: Interval | Fraction | int) -> Interval:
        o = as_interval(other)
        if o.lo <= 0 <= o.hi:
            raise ZeroDivisionError("interval division by an interval holding 0")
        return self * Interval(1 / o.hi, 1 / o.lo)

    def __rtruediv__(self, other: Interval | Fraction | int) -> Interval:
        return as_interval(other) / self

    def __pow__(self, k: int) -> Interval:
        if self.lo < 0:
            raise ValueError("powers of intervals with negative values are not needed here")
        return Interval(self.lo**k, self.hi**k)

    @property
    def width(self) -> Fraction:
        return self.hi - self.lo

    def rounded(self, bits: int = 256) -> Interval:
        """The smallest interval with endpoints on the grid 2^-bits holding this one (keeps
        the Fractions small through long products)."""
        return Interval(_round_down(self.lo, bits), _round_up(self.hi, bits))


def ipow(x: Interval, k: int, bits: int = 256) -> Interval:
    """x^k for x ≥ 0 by repeated squaring, rounded outward to 2^-bits at every step."""
    result, base = Interval.point(1), x.rounded(bits)
    while k:
        if k & 1:
            result = (result * base).rounded(bits)
        k >>= 1
        if k:
            base = (base * base).rounded(bits)
    return result


def as_interval(x: Interval | Fraction | int) -> Interval:
    """``x`` as an interval (a number as the point interval)."""
    return x if isinstance(x, Interval) else Interval.point(x)


def exp_neg_interval(x: Fraction | int, bits: int = 200) -> Interval:
    """An interval of width ≤ 2^-bits·(small factor) holding e^{−x}, x ≥ 0 rational.

    e^{−x} = (e^{−y})^{2^j} with y = x/2^j ≤ 1/2; e^{−y} lies between consecutive partial sums
    of its alternating Taylor series (terms decrease for y ≤ 1), summed until a term is below
    2^-(bits + 2j + 8); squaring j times keeps it an enclosure.
    """
    x = Fraction(x)
    if x < 0:
        raise ValueError("x: must be >= 0")
    if x == 0:
        return Interval.point(1)
    j = max(0, math.ceil(math.log2(float(x))) + 1)
    y = x / 2**j
    tol = Fraction(1, 2 ** (bits + 2 * j + 8))
    term, total, k = Fraction(1), Fraction(1), 0
    while True:
        k += 1
        term = term * y / k
        nxt = total - term if k % 2 else total + term
        if term < tol:
            lo, hi = min(total, nxt), max(total, nxt)
            break
        total = nxt
    lo = _round_down(lo, bits + 2 * j + 8)
    hi = _round_up(hi, bits + 2 * j + 8)
    for _ in range(j):
        lo, hi = _round_down(lo * lo, bits + 2 * j + 8), _round_up(hi * hi, bits + 2 * j + 8)
    return Interval(lo, hi)


def _round_down(x: Fraction, bits: int) -> Fraction:
    return Fraction(math.floor(x * 2**bits), 2**bits)


def _round_up(x: Fraction, bits: int) -> Fraction:
    return Fraction(math.ceil(x * 2**bits), 2**bits)


SpecLaw = Callable[[Any], Interval | Fraction]
"""A stated law: outcome ↦ its exact probability (an enclosing interval where irrational)."""


def factor(scale: Fraction) -> Interval:
    """q = e^{−1/scale} as an interval."""
    return exp_neg_interval(1 / scale)


def geometric_spec(q: Interval | Fraction) -> SpecLaw:
    """P(G = g) = (1 − q) q^g, g ≥ 0."""
    qi = q if isinstance(q, Interval) else Interval.point(q)
    return lambda g: (1 - qi) * ipow(qi, int(g)) if int(g) >= 0 else Fraction(0)


def _power(q: Any, k: int) -> Any:
    """q^k for k ≥ 0: exact for a Fraction, ``**`` for a float, :func:`ipow` for an interval."""
    return ipow(q, k) if isinstance(q, Interval) else q**k


@overload
def two_sided_pmf(z: int, q: Fraction) -> Fraction: ...
@overload
def two_sided_pmf(z: int, q: float) -> float: ...
@overload
def two_sided_pmf(z: int, q: Interval) -> Interval: ...
def two_sided_pmf(z: int, q: Any) -> Any:
    """P(Z = z) = (1 − q)/(1 + q)·q^{|z|}, z ∈ ℤ, 0 < q < 1: the discrete Laplace (two-sided
    geometric) law, the exact discrete analogue on integer queries of the Laplace noise of seed
    000 Def 2.2 / Thm 2.3 (``000_dff3c4dc97cf0e21.txt:L119–121``), q = e^{−ε/Δ}. A ``Fraction``
    q gives the exact rational probability; an :class:`Interval` an enclosure (powers rounded
    outward, :func:`ipow`); a float the same expression in floating point."""
    return (1 - q) / (1 + q) * _power(q, abs(z))


@overload
def two_sided_sf(k: int, q: Fraction) -> Fraction: ...
@overload
def two_sided_sf(k: int, q: float) -> float: ...
@overload
def two_sided_sf(k: int, q: Interval) -> Interval: ...
def two_sided_sf(k: int, q: Any) -> Any:
    """P(Z ≥ k) = q^k/(1 + q) for k ≥ 0 and 1 − q^{1−k}/(1 + q) for k < 0, for the law of
    :func:`two_sided_pmf` (seed 000 Def 2.2 / Thm 2.3, ``000_dff3c4dc97cf0e21.txt:L119–121``,
    discrete analogue): the geometric tail Σ_{z ≥ k} summed in closed form."""
    if k >= 0:
        return _power(q, k) / (1 + q)
    return 1 - _power(q, 1 - k) / (1 + q)


@overload
def two_sided_cdf(t: int, q: Fraction) -> Fraction: ...
@overload
def two_sided_cdf(t: int, q: float) -> float: ...
@overload
def two_sided_cdf(t: int, q: Interval) -> Interval: ...
def two_sided_cdf(t: int, q: Any) -> Any:
    """P(Z ≤ t) = q^{−t}/(1 + q) for t < 0 and 1 − q^{t+1}/(1 + q) for t ≥ 0, for the law of
    :func:`two_sided_pmf` (seed 000 Def 2.2 / Thm 2.3, ``000_dff3c4dc97cf0e21.txt:L119–121``,
    discrete analogue); by symmetry P(Z ≤ t) = P(Z ≥ −t) = :func:`two_sided_sf` (−t), whose
    t = 0 term this form writes as 1 − q/(1 + q)."""
    if t < 0:
        return _power(q, -t) / (1 + q)
    return 1 - _power(q, t + 1) / (1 + q)


def two_sided_spec(q: Interval | Fraction, shift: int = 0) -> SpecLaw:
    """P(Z = z) = (1 − q)/(1 + q) q^{|z − shift|} on the integers (:func:`two_sided_pmf` at
    z − shift, as an interval)."""
    qi = q if isinstance(q, Interval) else Interval.point(q)
    return lambda z: two_sided_pmf(int(z) - shift, qi)


def block_spec(q: Interval, block: int, half: int) -> SpecLaw:
    """The block outcome k of the two-sided table (k = 0: J < −K; k = 2K+2: J > K; else
    J = k − K − 1), R = q^B: P(J = j) = (1 − R)R^j/(1 + q) for j ≥ 0, q(1 − R)R^{|j|−1}/(1 + q)
    for j < 0; P(J > K) = R^{K+1}/(1 + q), P(J < −K) = q R^K/(1 + q)."""
    r = ipow(q, block)

    def law(k: Any) -> Interval:
        j = int(k) - half - 1
        if j > half:
            return ipow(r, half + 1) / (1 + q)
        if j < -half:
            return q * ipow(r, half) / (1 + q)
        if j >= 0:
            return (1 - r) * ipow(r, j) / (1 + q)
        return q * (1 - r) * ipow(r, -j - 1) / (1 + q)

    return law


def truncated_geometric_spec(q: Interval, block: int) -> SpecLaw:
    """P(R = r) = q^r (1 − q)/(1 − q^B) on {0..B−1}."""
    total = 1 - ipow(q, block)
    return lambda r: (ipow(q, int(r)) * (1 - q) / total) if 0 <= int(r) < block else Fraction(0)


def categorical_spec(weights: Sequence[Interval | Fraction]) -> SpecLaw:
    """P(i) = w_i / Σ w."""
    ws = [w if isinstance(w, Interval) else Interval.point(w) for w in weights]
    total = Interval.point(0)
    for w in ws:
        total = total + w
    return lambda i: ws[int(i)] / total if 0 <= int(i) < len(ws) else Fraction(0)


def bernoulli_spec(p: Interval) -> SpecLaw:
    return lambda b: p if b else 1 - p


def randomized_response_spec(ratio: Interval | Fraction, k: int, x: int) -> SpecLaw:
    """P(y | x) = r/(r + k − 1) for y = x, 1/(r + k − 1) otherwise (r = e^ε)."""
    r = ratio if isinstance(ratio, Interval) else Interval.point(ratio)
    return lambda y: (r if y == x else Interval.point(1)) / (r + (k - 1))
