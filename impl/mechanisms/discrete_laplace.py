"""Discrete Laplace (two-sided geometric) mechanism on integer-valued queries.

Seed 000 Def 2.2 / Thm 2.3 (``000_dff3c4dc97cf0e21.txt:L119–121``) state the Laplace mechanism
with Lap(GS/ε); on integer queries its exact discrete analogue adds Z with
P(Z = z) ∝ exp(−ε|z|/Δ). For integer values a, a' with |a − a'| ≤ Δ the ratio of output
probabilities is exp(ε(|y − a'| − |y − a|)/Δ) ≤ e^ε (the lemma ``discrete_laplace_ratio`` of
the CrossHair layer). **Exact**: the sampler uses integers only (``dpspec.noise``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray

from dpspec.contract import PrivacyLevel
from dpspec.mechanisms.base import (
    IntegerQueryArg,
    count_nonzero,
    discrete_laplace_for,
    float_discrete_laplace,
)
from dpspec.validation import (
    LIMITS,
    Checked,
    DataArg,
    FlagArg,
    GeneratorArg,
    Integer,
    OptionalBaseArg,
    OptionalEpsilonArg,
    Pair,
    SizeArg,
    as_finite_array,
    check_limit,
    example,
    integer_output,
)

#: An integer L1 sensitivity Δ ≥ 1 (≤ 2^14 for exact rational powers of a base).
SensitivityArg = Annotated[int, Integer(1, hi=LIMITS["exponent"])]
#: An inclusive window (lo, hi) of integer outcomes.
WindowArg = Annotated[tuple[int, int] | None, Pair(optional=True, inner=Integer(-(2**62) + 1))]

#: Outcome label of the lumped lower / upper tails in :meth:`DiscreteLaplaceMechanism.pmf`.
BELOW = "below"
ABOVE = "above"


@example(
    every={"data": np.array([0, 1, 1, 0, 1])},
    __init__={"query": count_nonzero, "epsilon": 1.0},
    sample={"size": 5},
    pmf={"window": (0, 6)},
)
class DiscreteLaplaceMechanism(Checked):
    """M(S) = f(S) + Z, Z i.i.d. discrete Laplace per coordinate, for integer-valued f.

    Parameters: ``query`` maps the data array to an int or 1-D int array; ``sensitivity`` is
    its declared L1 global sensitivity Δ (an integer); ``epsilon`` or ``base`` = e^{−ε/Δ};
    ``idealised=True`` draws the same law in floating point (a difference of two numpy
    geometric variables), which assumes ideal reals.
    """

    def __init__(
        self,
        query: IntegerQueryArg,
        sensitivity: SensitivityArg = 1,
        epsilon: OptionalEpsilonArg = None,
        *,
        base: OptionalBaseArg = None,
        idealised: FlagArg = False,
    ) -> None:
        self.query = query
        self.sensitivity = sensitivity
        self.idealised = idealised
        self.noise, level = discrete_laplace_for(Fraction(sensitivity), epsilon, base)
        self.privacy = (
            PrivacyLevel(level.epsilon, level.ratio, level.delta, exact_sampler=False)
            if idealised
            else level
        )

    def value(self, data: DataArg) -> NDArray[np.int64]:
        """The exact query value f(S) as a 1-D int64 array, each |f| < 2^62 (so that f + Z,
        with the sampler's |Z| < 2^62, cannot wrap around int64)."""
        arr = as_finite_array(data, "data")
        raw = np.atleast_1d(np.asarray(self.query(arr)))
        return integer_output(raw, "query", "an int or a 1-D int array")

    def sample(self, data: DataArg, size: SizeArg, rng: GeneratorArg) -> NDArray[np.int64]:
        """``size`` independent outputs, shape (size,) for a scalar query, (size, k) for a
        vector."""
        a = self.value(data)
        check_limit(size * a.size, "size", "draws")
        if self.idealised:
            noise = float_discrete_laplace(float(self.noise.q), size * a.size, rng)
        else:
            noise = self.noise.sample(size * a.size, rng)
        out = a[None, :] + noise.reshape(size, a.size)
        return out[:, 0] if a.size == 1 else out

    def pmf(self, data: DataArg, window: WindowArg = None) -> dict[Any, Fraction | float]:
        """Exact output distribution of a scalar query, outcomes lo..hi plus two lumped tails.

        The support is infinite, so ``window`` = (lo, hi) is required. Lumping is exact for
        privacy checks when [lo, hi] contains f(S) for every dataset compared: below lo (above
        hi) the likelihood ratio of two such datasets is constant.
        """
        if window is None:
            raise ValueError("window: required (lo, hi): the output support is infinite")
        lo, hi = window
        check_limit(hi - lo + 1, "window", "outcomes")
        a = self.value(data)
        if a.size != 1:
            raise ValueError("query: pmf is for scalar queries")
        c = int(a[0])
        if (
            isinstance(self.noise.q, Fraction)
            and max(abs(lo - c), abs(hi + 1 - c)) > LIMITS["exponent"]
        ):
            raise ValueError(
                f"window: its ends must be within {LIMITS['exponent']} of the query value {c} "
                "for exact rational probabilities"
            )
        out: dict[Any, Fraction | float] = {y: self.noise.pmf(y - c) for y in range(lo, hi + 1)}
        out[BELOW] = 1 - self.noise.sf(lo - c)  # P(c + Z < lo)
        out[ABOVE] = self.noise.sf(hi + 1 - c)  # P(c + Z > hi)
        return out
