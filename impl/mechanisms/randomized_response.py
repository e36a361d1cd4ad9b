"""Randomized response, binary and k-ary (Warner 1965; the local randomiser of LDP).

On input x ∈ {0, …, k−1} report x with probability e^ε/(e^ε + k − 1) and each other value
with probability 1/(e^ε + k − 1). Any two inputs have likelihood ratio ≤ e^ε at every output,
so it is ε-LDP, and applied to every record it is ε-DP under substitution. **Exact**: keep x
or not from the exact two-level law of ``categorical_exp_levels`` (x with weight 1 against the
k − 1 others of weight e^{−ε} each) and a uniform other; or with a rational ``base`` = e^{−ε}
(every mechanism's rational parameter: the noise base, here the weight of a changed answer)
by a uniform integer draw.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.contract import PrivacyLevel, restrict
from dpspec.mechanisms.base import epsilon_rational
from dpspec.noise import categorical_exp_levels
from dpspec.spec.neighbours import Relation
from dpspec.validation import (
    INT_BOUND,
    LIMITS,
    MAX_EPSILON,
    as_finite_array,
    check_count,
    check_limit,
    check_rng,
)


class RandomizedResponse:
    """k-ary randomized response with ``epsilon`` or an exact rational ``base`` = e^{−ε} < 1
    (a changed answer has weight ``base`` against 1 for the true one)."""

    def __init__(
        self, k: int = 2, epsilon: float | Fraction | None = None, *, base: Fraction | None = None
    ) -> None:
        self.k = check_count(k, "k", minimum=2, maximum=LIMITS["categories"])
        if (epsilon is None) == (base is None):
            raise ValueError("epsilon: give exactly one of epsilon or base")
        self._eps: Fraction | None = None
        self._ratio: Fraction | None = None
        if base is not None:
            if isinstance(base, bool) or not isinstance(base, (int, Fraction)) or not 0 < base < 1:
                raise ValueError(f"base: must be a rational in (0, 1), got {base!r}")
            self._ratio = 1 / Fraction(base)
            if self._ratio.numerator + (self.k - 1) * self._ratio.denominator > INT_BOUND:
                raise ValueError(
                    "base: denominator + (k - 1)·numerator must be <= 2^62 (the sampler draws "
                    f"uniform integers below it), got {base!r}"
                )
            if math.log(self._ratio) > MAX_EPSILON:
                raise ValueError(f"base: ln(1/base) must be <= {MAX_EPSILON}, got {base!r}")
            self.privacy = PrivacyLevel(
                epsilon=math.log(self._ratio),
                ratio=self._ratio,
                delta=0,
                exact_sampler=True,
                relation=Relation.LOCAL,
            )
        else:
            assert epsilon is not None
            self._eps = epsilon_rational(epsilon)
            e = float(self._eps)
            self.privacy = PrivacyLevel(
                epsilon=e, ratio=math.exp(e), delta=0, exact_sampler=True, relation=Relation.LOCAL
            )

    def _check_values(self, x: Any, name: str) -> NDArray[np.int64]:
        arr = as_finite_array(x, name)
        if not np.issubdtype(arr.dtype, np.integer) and not np.all(arr == np.round(arr)):
            raise ValueError(f"{name}: values must be integers in [0, {self.k})")
        if arr.min() < 0 or arr.max() >= self.k:  # before the cast: 1e300 must not wrap
            raise ValueError(f"{name}: values must be in [0, {self.k})")
        return arr.astype(np.int64)

    def randomise(self, x: Any, rng: np.random.Generator) -> NDArray[np.int64]:
        """Each user's report: one independent randomisation per entry of ``x`` (any shape)."""
        check_rng(rng)
        ints = self._check_values(x, "x")
        flat = ints.ravel()
        m = flat.size
        check_limit(m, "x", "draws")
        if self._ratio is not None:
            r = self._ratio
            total = r.numerator + (self.k - 1) * r.denominator
            u = rng.integers(0, total, size=m)
            keep = u < r.numerator
            other = (flat + 1 + rng.integers(0, self.k - 1, size=m)) % self.k
            out = np.where(keep, flat, other)
        else:
            assert self._eps is not None
            # weight of y is exp(−ε·1[y ≠ x]): level 0 (y = x, weight 1) against level 1
            # (the k − 1 others, weight e^{−ε} each), then a uniform other
            eps = self._eps
            level = categorical_exp_levels(
                [0, 1], [1, self.k - 1], eps.numerator, eps.denominator, m, rng
            )
            other = (flat + 1 + rng.integers(0, self.k - 1, size=m)) % self.k
            out = np.where(level == 0, flat, other)
        return out.reshape(ints.shape)

    def sample(self, data: Any, n: int, rng: np.random.Generator) -> NDArray[np.int64]:
        """``n`` independent randomisations of the whole dataset: shape (n, len(data))."""
        n = check_count(n, "n")
        ints = self._check_values(data, "data").ravel()
        check_limit(n * ints.size, "n", "draws")
        return self.randomise(np.broadcast_to(ints, (n, ints.size)), rng)

    def pmf(
        self, data: Any, window: tuple[Any, Any] | None = None
    ) -> dict[tuple[int, ...], Fraction | float]:
        """Exact law of ``randomise(data)``: the product of the records' local laws, over the
        k^len(data) report vectors (``window``: an inclusive range of vectors in lexicographic
        order; None: all)."""
        ints = self._check_values(data, "data").ravel()
        check_limit(self.k**ints.size, "data", "outcomes")
        laws = [self.local_pmf(int(x)) for x in ints]
        out: dict[tuple[int, ...], Fraction | float] = {(): Fraction(1)}
        for law in laws:
            out = {(*v, y): p * q for v, p in out.items() for y, q in law.items()}
        return restrict(out, None if window is None else (tuple(window[0]), tuple(window[1])))

    def local_pmf(self, x: int) -> dict[int, Fraction | float]:
        """Output distribution of the local randomiser on input x (exact with ``base``)."""
        self._check_values([x], "x")
        r: Fraction | float = self._ratio if self._ratio is not None else self.privacy.ratio
        denom = r + self.k - 1
        return {y: (r / denom if y == x else 1 / denom) for y in range(self.k)}

    def local_distributions(self) -> dict[int, dict[int, Fraction | float]]:
        """The randomiser as a table input → output distribution (for ε-LDP predicates)."""
        return {x: self.local_pmf(x) for x in range(self.k)}
