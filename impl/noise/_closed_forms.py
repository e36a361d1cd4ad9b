"""Closed forms of the discrete Laplace law (what the exact verifiers and the mechanisms'
``pmf``/``sf`` use): P(Z = z) = (1 − q)/(1 + q)·q^{|z|} and its survival function, exact in
Fractions with a rational q — the law stated in :mod:`dpspec.spec.laws`
(:func:`~dpspec.spec.laws.two_sided_pmf`, :func:`~dpspec.spec.laws.two_sided_sf`), called here
with the exponent checked; and the continuous Laplace survival function (floats)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from dpspec.spec.laws import two_sided_pmf, two_sided_sf
from dpspec.validation import INT_BOUND, LIMITS

Real = Fraction | float


def _bounded_exponent(base: Real, k: int, name: str) -> int:
    """k itself, checked: an exact rational base needs |k| ≤ LIMITS["exponent"] (q^k has
    O(|k|·bits) digits); a float base saturates at ±2^62 (q^k is 0.0 long before)."""
    if isinstance(base, Fraction):
        if abs(k) > LIMITS["exponent"]:
            raise ValueError(
                f"{name}: |{name}| = {abs(k)} exceeds {LIMITS['exponent']} for an exact "
                "rational base (q^k would have millions of digits); use a window nearer "
                "the value"
            )
        return k
    return max(-INT_BOUND, min(k, INT_BOUND))


def _integer(k: Any, name: str) -> int:
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
        raise ValueError(f"{name}: expected an integer, got {k!r}")
    return int(k)


def discrete_laplace_pmf(z: int, base: Real) -> Real:
    """P(Z = z) = (1 − q)/(1 + q) · q^{|z|} (:func:`dpspec.spec.laws.two_sided_pmf`)."""
    z = _bounded_exponent(base, _integer(z, "z"), "z")
    return two_sided_pmf(z, base)


def discrete_laplace_sf(k: int, base: Real) -> Real:
    """P(Z ≥ k) = q^k/(1 + q) for k ≥ 0, and 1 − q^{1−k}/(1 + q) for k ≤ 0
    (:func:`dpspec.spec.laws.two_sided_sf`)."""
    k = _bounded_exponent(base, _integer(k, "k"), "k")
    return two_sided_sf(k, base)


def laplace_sf(t: float, scale: float) -> float:
    """P(L > t) for L ~ Lap(scale): ½ e^{−t/b} for t ≥ 0, 1 − ½ e^{t/b} otherwise (floats)."""
    if math.isnan(t):
        raise ValueError("t: must not be NaN")
    if t >= 0:
        return 0.5 * math.exp(-t / scale)
    return 1.0 - 0.5 * math.exp(t / scale)
