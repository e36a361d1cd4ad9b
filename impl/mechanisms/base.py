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
    Anything,
    Base,
    DataArg,
    Function,
    GeneratorArg,
    Instance,
    Integer,
    NameArg,
    OptionalBaseArg,
    OptionalEpsilonArg,
    Real,
    SizeArg,
    check_epsilon,
    checked,
    example,
    rational_at_least,
    rational_at_most,
)

_RECORDS = np.array([0, 1, 1, 2, 0])


@example(__call__={"data": _RECORDS})
@checked
def count_nonzero(data: DataArg) -> int:
    """The number of non-zero records: a counting query of sensitivity 1 under substitution
    and add/remove (the clean query of the mechanisms' examples)."""
    return int(np.count_nonzero(data))


@example(__call__={"data": _RECORDS})
@checked
def mean_value(data: DataArg) -> float:
    """The mean of the records: sensitivity 1/n on [0, 1]-valued records of a fixed size n."""
    return float(np.mean(np.asarray(data, dtype=np.float64)))


@example(__call__={"data": _RECORDS})
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


@checked
def float_discrete_laplace(
    q: Annotated[float, Real(0, 1, lo_open=True, hi_open=True)], size: SizeArg, rng: GeneratorArg
) -> NDArray[np.int64]:
    """The idealised sampler of discrete Laplace noise P(z) ∝ q^|z|: the difference of two
    numpy geometric variables of success probability 1 − q, drawn in floating point (its law
    is exact only in ideal real arithmetic)."""
    p = 1.0 - float(q)
    return np.asarray(rng.geometric(p, size) - rng.geometric(p, size), dtype=np.int64)


@example(__call__={"sensitivity": Fraction(2), "epsilon": 1.0, "base": None})
@checked
def discrete_laplace_for(
    sensitivity: Annotated[Fraction, Instance(types=(Fraction,))],
    epsilon: OptionalEpsilonArg,
    base: OptionalBaseArg,
) -> tuple[DiscreteLaplaceNoise, PrivacyLevel]:
    """Discrete Laplace noise calibrated to an integer-lattice sensitivity.

    Either ``epsilon`` (scale = Δ/ε with ε rounded down to a rational, so the noise is at
    least what ε asks for) or ``base`` = q = e^{−ε/Δ} (exact rational probabilities; then
    e^ε = q^{−Δ} and Δ must be an integer).
    """
    if (epsilon is None) == (base is None):
        raise ValueError("epsilon: give exactly one of epsilon or base")
    if sensitivity <= 0:
        raise ValueError(f"sensitivity: must be > 0, got {sensitivity}")
    if base is not None:
        q = base
        if sensitivity.denominator != 1:
            raise ValueError(f"sensitivity: must be an integer with a base, got {sensitivity}")
        d = int(sensitivity)
        check_base_loss(q, d)
        level = PrivacyLevel(
            epsilon=d * math.log(1 / q), ratio=q ** (-d), delta=0, exact_sampler=True
        )
        return DiscreteLaplaceNoise(base=q), level
    assert epsilon is not None
    eps = rational_at_most(epsilon, "epsilon")
    scale = rational_at_least(sensitivity / eps, "scale")
    eff = float(sensitivity / scale)
    level = PrivacyLevel(epsilon=eff, ratio=math.exp(eff), delta=0, exact_sampler=True)
    return DiscreteLaplaceNoise(scale=scale), level


@checked
def epsilon_rational(
    epsilon: Annotated[Any, Anything(why="checked here, under the given name", clean=1.0)],
    name: NameArg = "epsilon",
) -> Fraction:
    """ε as the largest rational ≤ ε with denominator ≤ 2^32 (checked > 0, finite, ≤ 700)."""
    check_epsilon(epsilon, name)
    return rational_at_most(epsilon, name)


@example(__call__={"q": Fraction(1, 2), "exponent": 2})
@checked
def check_base_loss(
    q: Annotated[Fraction, Base(sampling=False)], exponent: Annotated[int, Integer(1)]
) -> None:
    """The privacy loss ε = exponent·ln(1/q) of a rational base is ≤ 700 (``MAX_EPSILON``)
    and the exact ratio q^(−exponent) is computable (exponent ≤ ``LIMITS["exponent"]``)."""
    if exponent > LIMITS["exponent"]:
        raise ValueError(
            f"sensitivity: at most {LIMITS['exponent']} with a rational base (the exponent of "
            f"the exact ratio base^-exponent), got exponent {exponent}"
        )
    loss = exponent * math.log(1 / q)
    if loss > MAX_EPSILON:
        raise ValueError(
            f"base: the privacy loss sensitivity·ln(1/base) = {loss:.4g} exceeds epsilon's "
            f"limit {MAX_EPSILON}"
        )
