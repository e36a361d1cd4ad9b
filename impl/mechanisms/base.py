"""The ε-or-base parametrisation of discrete Laplace noise shared by the mechanisms."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray

from dpspec.contract import PrivacyLevel
from dpspec.noise import DiscreteLaplaceNoise
from dpspec.validation import (
    LIMITS,
    MAX_EPSILON,
    DataArg,
    Function,
    check_epsilon,
    check_sampling_base,
    checked,
    rational_at_least,
    rational_at_most,
)


@checked
def count_nonzero(data: DataArg) -> int:
    """The number of non-zero records: a counting query of sensitivity 1 under substitution
    and add/remove (the clean query of the mechanisms' examples)."""
    return int(np.count_nonzero(data))


@checked
def mean_value(data: DataArg) -> float:
    """The mean of the records: sensitivity 1/n on [0, 1]-valued records of a fixed size n."""
    return float(np.mean(np.asarray(data, dtype=np.float64)))


@checked
def counts_by_value(data: DataArg) -> NDArray[np.int64]:
    """How many records equal 0, 1, 2 (integer scores of three candidates, sensitivity 1)."""
    arr = np.asarray(data)
    return np.array([int(np.count_nonzero(arr == v)) for v in (0, 1, 2)], dtype=np.int64)


#: A query of the data: the caller's function of the data array (its output is checked where
#: it is used: an int or 1-D int array for the discrete mechanisms).
IntegerQueryArg = Annotated[Callable[[NDArray[Any]], Any], Function(clean=count_nonzero)]
#: A real-valued query of the data.
RealQueryArg = Annotated[Callable[[NDArray[Any]], Any], Function(clean=mean_value)]
#: Integer scores of the candidates on the data.
ScoresArg = Annotated[Callable[[NDArray[Any]], Any], Function(clean=counts_by_value)]


def float_discrete_laplace(
    q: Fraction | float, size: int, rng: np.random.Generator
) -> NDArray[np.int64]:
    """The idealised sampler of discrete Laplace noise P(z) ∝ q^|z|: the difference of two
    numpy geometric variables of success probability 1 − q, drawn in floating point (its law
    is exact only in ideal real arithmetic)."""
    p = 1.0 - float(q)
    return np.asarray(rng.geometric(p, size) - rng.geometric(p, size), dtype=np.int64)


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
