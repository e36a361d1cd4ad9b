"""Rigorous bounds on the real numbers the exact samplers compare their draws with.

A real x ≥ 0 is handled through integer *bounds at precision b*: integers (lo, hi) with
lo ≤ 2^b·x ≤ hi. Every operation rounds outward (lower bounds down, upper bounds up), so the
bounds stay rigorous however many operations are chained; raising b makes them as tight as
needed. Only integer arithmetic is used.

* :func:`exp_neg_bounds` — e^{−n/d} for integers n ≥ 0, d ≥ 1: e^{−⌊x⌋} by binary powering of
  e^{−1}, times e^{−f} for the fractional part f < 1 between two consecutive partial sums of
  the alternating series Σ (−f)^k/k! (its terms decrease, so consecutive partial sums enclose
  the value), computed as exact rationals.
* :class:`Ratio` — the per-unit factor Q of a geometric law: a rational q (a ``base``) or
  e^{−num/den} (a rational scale), raised to an integer power; ``bounds(b)`` and powers.
* :func:`mul`, :func:`div`, :func:`floor_at` — outward-rounded products, quotients, and the
  exact floor ⌊2^k·x⌋ read off bounds when they determine it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

Bounds = tuple[int, int]

#: Guard bits carried by every composite computation before rounding to the precision asked.
GUARD = 32


def mul(a: Bounds, b: Bounds, bits: int) -> Bounds:
    """Bounds at ``bits`` on x·y from bounds at ``bits`` on x ≥ 0 and y ≥ 0."""
    return (a[0] * b[0]) >> bits, -((-(a[1] * b[1])) >> bits)


def div(a: Bounds, b: Bounds, bits: int) -> Bounds:
    """Bounds at ``bits`` on x/y from bounds at ``bits`` on x ≥ 0 and y > 0 (b[0] > 0)."""
    if b[0] <= 0:
        raise ZeroDivisionError("div: the divisor's lower bound is not positive")
    return (a[0] << bits) // b[1], -((-(a[1] << bits)) // b[0])


def rescale(a: Bounds, bits: int, to: int) -> Bounds:
    """Bounds at precision ``bits`` re-expressed at precision ``to`` ≤ ``bits`` (outward)."""
    drop = bits - to
    return a[0] >> drop, -((-a[1]) >> drop)


def power(a: Bounds, m: int, bits: int) -> Bounds:
    """Bounds on x^m (x ≥ 0, m ≥ 0) by binary powering, outward at every step."""
    result: Bounds = (1 << bits, 1 << bits)
    base = a
    while m:
        if m & 1:
            result = mul(result, base, bits)
        m >>= 1
        if m:
            base = mul(base, base, bits)
    return result


def floor_at(a: Bounds, bits: int, k: int) -> tuple[int, bool] | None:
    """(⌊2^k·x⌋, whether 2^k·x is an integer) from bounds at precision ``bits`` ≥ k, or None
    when the bounds straddle an integer boundary (more precision is needed)."""
    drop = bits - k
    lo, hi = a[0] >> drop, a[1] >> drop
    if lo != hi:
        return None
    return lo, a[0] == a[1] and a[0] & ((1 << drop) - 1) == 0


@lru_cache(maxsize=64)
def _e_inverse(bits: int) -> Bounds:
    """Bounds on 2^bits·e^{−1}: Σ_{k ≤ n} (−1)^k/k! for consecutive n enclose it."""
    total, term, k = Fraction(1), Fraction(1), 0
    while True:
        k += 1
        term /= k
        after = total - term if k % 2 else total + term
        if term * 2**bits < 1:
            lo, hi = min(total, after), max(total, after)
            return math.floor(lo * 2**bits), math.ceil(hi * 2**bits)
        total = after


def _exp_neg_fraction(f: int, d: int, bits: int) -> Bounds:
    """Bounds on 2^bits·e^{−f/d} for 0 ≤ f < d: consecutive partial sums of the alternating
    series enclose it (its terms y^k/k! decrease for y = f/d < 1)."""
    if f == 0:
        return 1 << bits, 1 << bits
    y = Fraction(f, d)
    total, term, k = Fraction(1), Fraction(1), 0
    while True:
        k += 1
        term = term * y / k
        after = total - term if k % 2 else total + term
        if term * 2**bits < 1:
            lo, hi = min(total, after), max(total, after)
            return math.floor(lo * 2**bits), math.ceil(hi * 2**bits)
        total = after


@lru_cache(maxsize=4096)
def exp_neg_bounds(n: int, d: int, bits: int) -> Bounds:
    """Bounds at precision ``bits`` on e^{−n/d} (n ≥ 0, d ≥ 1), width a few units."""
    if n < 0 or d < 1:
        raise ValueError("exp_neg_bounds: need n >= 0 and d >= 1")
    whole, f = divmod(n, d)
    if whole > bits:  # e^{−whole} < 2^{−bits}: the value lies in [0, 2^{−bits}]
        return 0, 1
    work = bits + GUARD + 2 * whole.bit_length()
    unit = power(_e_inverse(work), whole, work)
    frac = _exp_neg_fraction(f, d, work)
    return rescale(mul(unit, frac, work), work, bits)


@dataclass(frozen=True)
class Ratio:
    """The factor Q of a geometric law: (num/den)^power when ``exp`` is False (a rational
    base), e^{−power·num/den} when it is True (a rational rate, scale den/(power·num)).

    0 < Q < 1 always (num ≥ 1; for a base num < den).
    """

    num: int
    den: int
    exp: bool
    power: int = 1

    def __post_init__(self) -> None:
        if self.num < 1 or self.den < 1 or self.power < 1:
            raise ValueError("Ratio: num, den and power must be >= 1")
        if not self.exp and self.num >= self.den:
            raise ValueError("Ratio: a rational base must be < 1")

    def to(self, m: int) -> Ratio:
        """Q^m."""
        return Ratio(self.num, self.den, self.exp, self.power * m)

    def bounds(self, bits: int) -> Bounds:
        """Bounds at precision ``bits`` on Q."""
        return ratio_bounds(self, bits)

    @property
    def scale(self) -> float:
        """−1/ln Q: the law's scale (P(G ≥ g) = Q^g = e^{−g/scale})."""
        if self.exp:
            return self.den / (self.power * self.num)
        return -1.0 / (self.power * math.log(self.num / self.den))

    def exact(self) -> Fraction | None:
        """Q as a Fraction when it is rational and not huge (else None)."""
        if self.exp or self.power * max(self.num, self.den).bit_length() > 1 << 16:
            return None
        return Fraction(self.num, self.den) ** self.power


@lru_cache(maxsize=1024)
def ratio_bounds(q: Ratio, bits: int) -> Bounds:
    if q.exp:
        return exp_neg_bounds(q.power * q.num, q.den, bits)
    work = bits + GUARD + 2 * q.power.bit_length()
    one = ((q.num << work) // q.den, -((-(q.num << work)) // q.den))
    return rescale(power(one, q.power, work), work, bits)
