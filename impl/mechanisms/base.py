"""The ε-or-base parametrisation of discrete Laplace noise shared by the mechanisms."""

from __future__ import annotations

import math
from fractions import Fraction

from dpspec.contract import PrivacyLevel
from dpspec.noise import DiscreteLaplaceNoise
from dpspec.validation import (
    LIMITS,
    MAX_EPSILON,
    check_epsilon,
    check_sampling_base,
    rational_at_least,
    rational_at_most,
)


def discrete_laplace_for(
    sensitivity: Fraction, epsilon: float | Fraction | None, base: Fraction | None
) -> tuple[DiscreteLaplaceNoise, PrivacyLevel]:
    """Discrete Laplace noise calibrated to an integer-lattice sensitivity.

    Either ``epsilon`` (scale = Δ/ε with ε rounded down to a rational, so the noise is at
    least what ε asks for) or ``base`` = q = e^{−ε/Δ} (exact rational probabilities; then
    e^ε = q^{−Δ} and Δ must be an integer).
    """
    if (epsilon is None) == (base is None):
        raise ValueError("epsilon: give exactly one of epsilon or base")
    if base is not None:
        q = check_sampling_base(base)
        if sensitivity.denominator != 1:
            raise ValueError(f"sensitivity: must be an integer with a base, got {sensitivity}")
        d = int(sensitivity)
        check_base_loss(q, d)
        level = PrivacyLevel(
            epsilon=d * math.log(1 / q), ratio=q ** (-d), delta=0, exact_sampler=True
        )
        return DiscreteLaplaceNoise(base=q), level
    assert epsilon is not None
    check_epsilon(epsilon)
    eps = rational_at_most(epsilon, "epsilon")
    scale = rational_at_least(sensitivity / eps, "scale")
    eff = float(sensitivity / scale)
    level = PrivacyLevel(epsilon=eff, ratio=math.exp(eff), delta=0, exact_sampler=True)
    return DiscreteLaplaceNoise(scale=scale), level


def epsilon_rational(epsilon: float | Fraction, name: str = "epsilon") -> Fraction:
    """ε as the largest rational ≤ ε with denominator ≤ 2^32 (checked > 0, finite, ≤ 700)."""
    check_epsilon(epsilon, name)
    return rational_at_most(epsilon, name)


def check_base_loss(q: Fraction, exponent: int) -> None:
    """The privacy loss ε = exponent·ln(1/q) of a rational base is ≤ 700 (``MAX_EPSILON``)
    and the exact ratio q^(−exponent) is computable (exponent ≤ ``LIMITS["exponent"]``)."""
    if exponent > LIMITS["exponent"]:
        raise ValueError(
            f"sensitivity: at most {LIMITS['exponent']} with a rational base "
            f"(the exact ratio base^-sensitivity), got {exponent}"
        )
    loss = exponent * math.log(1 / q)
    if loss > MAX_EPSILON:
        raise ValueError(
            f"base: the privacy loss sensitivity·ln(1/base) = {loss:.4g} exceeds epsilon's "
            f"limit {MAX_EPSILON}"
        )
