"""Bernoulli(exp(−γ)) for many different γ at once, by the alternating series (no tables).

Canonne, Kamath and Steinke, "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020),
Algorithm 1, vectorised: for γ = r/d ≤ 1 draw A_k ~ Bernoulli(γ/k), k = 1, 2, …, until the
first failure K; P(K > j) = γ^j/j!, so P(K odd) = Σ_j (−γ)^j/j! = e^{−γ}. A_k is one uniform
integer below k that is 0 and one below d that is below r (probability (1/k)(r/d)). For γ > 1,
e^{−γ} = (e^{−1})^{⌊γ⌋}·e^{−(γ − ⌊γ⌋)}: ⌊γ⌋ trials at γ = 1 and one at the fractional part,
stopping at the first failure. Every step draws only for the entries still undecided.

The threshold tables of :mod:`dpspec.noise._laws` are the fast path; this one serves arrays
with too many distinct exponents to tabulate, one table per exponent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

Int64Array = NDArray[np.int64]
BoolArray = NDArray[np.bool_]


@dataclass(frozen=True)
class ExpNegExponents:
    """Rational exponents γ_i = whole_i + excess_i + rest_i/d, split so every array is int64.

    ``whole`` is capped at 2^62; the part above the cap, ``excess`` (Python ints, ``None``
    when all are 0), matters only after 2^62 consecutive Bernoulli(e^{−1}) successes and is
    then consumed exactly, one trial at a time. 0 ≤ rest < d ≤ 2^62.
    """

    whole: Int64Array
    rest: Int64Array
    d: int
    excess: NDArray[Any] | None = None

    def take(self, index: NDArray[np.int64]) -> ExpNegExponents:
        """The exponents at the given positions (1-D result)."""
        excess = None if self.excess is None else self.excess[index]
        return ExpNegExponents(self.whole[index], self.rest[index], self.d, excess)


def bernoulli_at_most_one(r: Int64Array, d: int, rng: np.random.Generator) -> BoolArray:
    """Bernoulli(exp(−r/d)) for 0 ≤ r ≤ d, one step of the series at a time.

    K = the first k with A_k = 0; the output is K odd. At step k every entry still going draws
    A_k; those that fail stop at K = k.
    """
    n = r.shape[0]
    first_failure = np.empty(n, dtype=np.int64)
    active = np.arange(n)
    k = 1
    while active.size:
        success = (rng.integers(0, k, size=active.size) == 0) & (
            rng.integers(0, d, size=active.size) < r[active]
        )
        first_failure[active[~success]] = k
        active = active[success]
        k += 1
    return np.asarray(first_failure % 2 == 1)


def bernoulli_exp_neg_series(e: ExpNegExponents, rng: np.random.Generator) -> BoolArray:
    """Independent Bernoulli(exp(−γ_i)) for split exponents, by the series."""
    whole, rest, d = e.whole, e.rest, e.d
    out = np.ones(whole.shape[0], dtype=np.bool_)
    remaining = whole.copy()
    active = np.flatnonzero(remaining > 0)
    ones = np.ones(whole.shape[0], dtype=np.int64)
    while active.size:  # ⌊γ⌋ factors Bernoulli(e^{−1}): stop an entry at its first failure
        ok = bernoulli_at_most_one(ones[: active.size], 1, rng)
        out[active[~ok]] = False
        remaining[active] -= 1
        active = active[ok & (remaining[active] > 0)]
    if e.excess is not None:  # survived 2^62 factors already (probability e^{-2^62})
        for i in np.flatnonzero(out & np.asarray(e.excess > 0, dtype=np.bool_)).tolist():
            left = int(e.excess[i])
            while left > 0:
                if not bool(bernoulli_at_most_one(ones[:1], 1, rng)[0]):
                    out[i] = False
                    break
                left -= 1
    todo = np.flatnonzero(out & (rest > 0))
    if todo.size:
        out[todo] = bernoulli_at_most_one(rest[todo], d, rng)
    return out
