"""Exact sampling from a finite law with rational probabilities (inversion with lazy digits).

For outcome probabilities p_1..p_K (Fractions summing to 1) with cumulative sums F_j, the
outcome is the first j with U < F_j for U uniform on [0, 1). U is read in base B = 2^62 one
digit at a time (``Generator.integers``, an exact uniform sampler): after the first digit d,
U ∈ [d/B, (d + 1)/B), and the outcome is decided unless some F_j lies strictly inside that
interval — which has probability < K/B per draw. Undecided draws read further digits; each
further digit leaves a draw undecided with probability < K/B again, so after ``MAX_DIGITS``
digits (probability < (K/B)^MAX_DIGITS ≤ 2^-900 for K ≤ 2^12) the sampler stops with a named
error instead of looping.

No floating point touches the randomness: the output law is exactly (p_j).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

#: The base of one uniform digit (``Generator.integers`` draws exactly below it).
DIGIT = 2**62
#: Digits read at most per draw (see the module docstring for the probability of needing more).
MAX_DIGITS = 18


def _sample_rational(
    probabilities: list[Fraction], size: int, rng: np.random.Generator
) -> NDArray[np.int64]:
    """``size`` independent indices j with P(j) = ``probabilities[j]`` (exact Fractions ≥ 0
    summing to 1; at most 2^12 of them)."""
    if not probabilities or sum(probabilities) != 1 or any(p < 0 for p in probabilities):
        raise ValueError("probabilities: expected Fractions >= 0 summing to 1")
    cumulative: list[Fraction] = []
    running = Fraction(0)
    for p in probabilities:
        running += p
        cumulative.append(running)
    # first digit: floor(F_j·B) as int64 thresholds (F_j ≤ 1, so ≤ B = 2^62 < 2^63)
    floors = np.array([(f.numerator * DIGIT) // f.denominator for f in cumulative], dtype=np.int64)
    exact = np.array([(f.numerator * DIGIT) % f.denominator == 0 for f in cumulative])
    digit = rng.integers(0, DIGIT, size=size)
    # outcome j: the first F_j > U. With U ∈ [d/B, (d+1)/B): F_j·B ≥ d + 1 decides j; an F_j
    # with floor(F_j·B) = d and F_j·B ∉ ℤ lies inside the interval (undecided)
    first_above = np.searchsorted(floors, digit, side="right")  # first j with floor > d
    first_equal = np.searchsorted(floors, digit, side="left")  # first j with floor ≥ d
    out = first_above.astype(np.int64)
    undecided = np.flatnonzero(first_equal < first_above)
    for index in undecided.tolist():
        j = int(first_equal[index])
        if bool(exact[j]) and j + 1 == int(first_above[index]) and floors[j] == digit[index]:
            # F_j·B = d exactly: U ≥ F_j, the outcome is the next one above d
            out[index] = int(first_above[index])
            continue
        out[index] = _refine(cumulative, int(digit[index]), rng)
    return np.minimum(out, len(probabilities) - 1)


def _refine(cumulative: list[Fraction], first: int, rng: np.random.Generator) -> int:
    """The outcome of one draw whose first digit ``first`` left it undecided."""
    low = Fraction(first, DIGIT)
    width = Fraction(1, DIGIT)
    for _ in range(MAX_DIGITS):
        j = next(i for i, f in enumerate(cumulative) if f > low)
        if cumulative[j] >= low + width:
            return j
        width /= DIGIT
        low += int(rng.integers(0, DIGIT)) * width
    raise RuntimeError(
        f"sample_rational: a draw stayed undecided after {MAX_DIGITS} digits of 62 bits "
        "(probability below 2^-900)"
    )
