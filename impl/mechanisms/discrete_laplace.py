"""Discrete Laplace (two-sided geometric) mechanism on integer-valued queries.

Seed 000 Def 2.2 / Thm 2.3 (``000_dff3c4dc97cf0e21.txt:L119–121``) state the Laplace mechanism
with Lap(GS/ε); on integer queries its exact discrete analogue adds Z with
P(Z = z) ∝ exp(−ε|z|/Δ). For integer values a, a' with |a − a'| ≤ Δ the ratio of output
probabilities is exp(ε(|y − a'| − |y − a|)/Δ) ≤ e^ε (the lemma ``discrete_laplace_ratio`` of
the CrossHair layer). **Exact**: the sampler uses integers only (``dpspec.noise``).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.mechanisms.base import discrete_laplace_for
from dpspec.noise import _integer
from dpspec.validation import (
    LIMITS,
    as_finite_array,
    check_count,
    check_limit,
    check_rng,
    integer_output,
)

Query = Callable[[NDArray[Any]], Any]

#: Outcome label of the lumped lower / upper tails in :meth:`DiscreteLaplaceMechanism.pmf`.
BELOW = "below"
ABOVE = "above"


class DiscreteLaplaceMechanism:
    """M(S) = f(S) + Z, Z i.i.d. discrete Laplace per coordinate, for integer-valued f.

    Parameters: ``query`` maps the data array to an int or 1-D int array; ``sensitivity`` is
    its declared L1 global sensitivity Δ (an integer); ``epsilon`` or ``base`` = e^{−ε/Δ}.
    """

    def __init__(
        self,
        query: Query,
        sensitivity: int = 1,
        epsilon: float | Fraction | None = None,
        *,
        base: Fraction | None = None,
    ) -> None:
        if not callable(query):
            raise ValueError("query: must be callable")
        self.query = query
        self.sensitivity = check_count(sensitivity, "sensitivity")
        self.noise, self.privacy = discrete_laplace_for(Fraction(self.sensitivity), epsilon, base)

    def value(self, data: Any) -> NDArray[np.int64]:
        """The exact query value f(S) as a 1-D int64 array, each |f| < 2^62 (so that f + Z,
        with the sampler's |Z| < 2^62, cannot wrap around int64)."""
        arr = as_finite_array(data, "data")
        raw = np.atleast_1d(np.asarray(self.query(arr)))
        return integer_output(raw, "query", "an int or a 1-D int array")

    def sample(self, data: Any, n: int, rng: np.random.Generator) -> NDArray[np.int64]:
        """``n`` independent outputs, shape (n,) for a scalar query, (n, k) for a vector."""
        check_rng(rng)
        n = check_count(n, "n")
        a = self.value(data)
        check_limit(n * a.size, "n", "draws")
        out = a[None, :] + self.noise.sample(n * a.size, rng).reshape(n, a.size)
        return out[:, 0] if a.size == 1 else out

    def pmf(self, data: Any, window: tuple[int, int] | None = None) -> dict[Any, Fraction | float]:
        """Exact output distribution of a scalar query, outcomes lo..hi plus two lumped tails.

        The support is infinite, so ``window`` = (lo, hi) is required. Lumping is exact for
        privacy checks when [lo, hi] contains f(S) for every dataset compared: below lo (above
        hi) the likelihood ratio of two such datasets is constant.
        """
        if window is None:
            raise ValueError("window: required (lo, hi): the output support is infinite")
        if not isinstance(window, (tuple, list)) or len(window) != 2:
            raise ValueError(f"window: expected a pair (lo, hi) of integers, got {window!r}")
        try:
            lo, hi = _integer(window[0], "window"), _integer(window[1], "window")
        except ValueError as exc:
            raise ValueError(f"window: expected integers (lo, hi), got {window!r}") from exc
        if lo > hi:
            raise ValueError(f"window: lo {lo} > hi {hi}")
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
