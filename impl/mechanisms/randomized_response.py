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
from typing import Annotated, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpspec.contract import PrivacyLevel, restrict
from dpspec.mechanisms.base import epsilon_rational
from dpspec.noise import categorical_exp_levels
from dpspec.spec.neighbours import Relation
from dpspec.validation import (
    INT_BOUND,
    MAX_EPSILON,
    Anything,
    Array,
    Base,
    Checked,
    FlagArg,
    GeneratorArg,
    Integer,
    OptionalEpsilonArg,
    Pair,
    SizeArg,
    as_finite_array,
    check_limit,
    example,
)

#: Answers of the users: integers in [0, k) (any shape).
AnswersArg = Annotated[ArrayLike, Array(clean=np.array([0, 1, 1]))]


@example(
    every={"data": np.array([0, 1, 1]), "x": np.array([0, 1, 1, 0])},
    __init__={"k": 2, "epsilon": 1.0},
    sample={"size": 3},
    local_pmf={"x": 1},
)
class RandomizedResponse(Checked):
    """k-ary randomized response with ``epsilon`` or an exact rational ``base`` = e^{−ε} < 1
    (a changed answer has weight ``base`` against 1 for the true one); ``idealised=True``
    keeps the true answer with a floating-point coin of probability e^ε/(e^ε + k − 1)."""

    def __init__(
        self,
        k: Annotated[int, Integer(2, limit="categories")] = 2,
        epsilon: OptionalEpsilonArg = None,
        *,
        base: Annotated[Any, Base(sampling=False, optional=True)] = None,
        idealised: FlagArg = False,
    ) -> None:
        self.k = k
        self.idealised = idealised
        if (epsilon is None) == (base is None):
            raise ValueError("epsilon: give exactly one of epsilon or base")
        self._eps: Fraction | None = None
        self._ratio: Fraction | None = None
        if base is not None:
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
                exact_sampler=not idealised,
                relation=Relation.LOCAL,
            )
        else:
            assert epsilon is not None
            self._eps = epsilon_rational(epsilon)
            e = float(self._eps)
            self.privacy = PrivacyLevel(
                epsilon=e,
                ratio=math.exp(e),
                delta=0,
                exact_sampler=not idealised,
                relation=Relation.LOCAL,
            )

    def _check_values(self, x: Any, name: str) -> NDArray[np.int64]:
        arr = as_finite_array(x, name)
        if not np.issubdtype(arr.dtype, np.integer) and not np.all(arr == np.round(arr)):
            raise ValueError(f"{name}: values must be integers in [0, {self.k})")
        if arr.min() < 0 or arr.max() >= self.k:  # before the cast: 1e300 must not wrap
            raise ValueError(f"{name}: values must be in [0, {self.k})")
        return arr.astype(np.int64)

    def randomise(self, x: AnswersArg, rng: GeneratorArg) -> NDArray[np.int64]:
        """Each user's report: one independent randomisation per entry of ``x`` (any shape)."""
        ints = self._check_values(x, "x")
        flat = ints.ravel()
        m = flat.size
        check_limit(m, "x", "draws")
        if self.idealised:
            ratio = float(self.privacy.ratio)
            keep = rng.random(m) < ratio / (ratio + self.k - 1)
        elif self._ratio is not None:
            r = self._ratio
            total = r.numerator + (self.k - 1) * r.denominator
            u = rng.integers(0, total, size=m)
            keep = u < r.numerator
        else:
            assert self._eps is not None
            # weight of y is exp(−ε·1[y ≠ x]): level 0 (y = x, weight 1) against level 1
            # (the k − 1 others, weight e^{−ε} each), then a uniform other
            eps = self._eps
            level = categorical_exp_levels(
                [0, 1], [1, self.k - 1], eps.numerator, eps.denominator, m, rng
            )
            keep = level == 0
        other = (flat + 1 + rng.integers(0, self.k - 1, size=m)) % self.k
        out = np.where(keep, flat, other)
        return out.reshape(ints.shape)

    def sample(self, data: AnswersArg, size: SizeArg, rng: GeneratorArg) -> NDArray[np.int64]:
        """``size`` independent randomisations of the whole dataset: shape (size, len(data))."""
        ints = self._check_values(data, "data").ravel()
        check_limit(size * ints.size, "size", "draws")
        return self.randomise(np.broadcast_to(ints, (size, ints.size)), rng)

    def pmf(
        self,
        data: AnswersArg,
        window: Annotated[
            tuple[Any, Any] | None, Pair(Anything(why="report vectors"), optional=True)
        ] = None,
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
        if window is None:
            return out
        try:
            ends = (tuple(window[0]), tuple(window[1]))
        except TypeError as exc:
            raise ValueError(f"window: expected two report vectors, got {window!r}") from exc
        return restrict(out, ends)

    def local_pmf(self, x: Annotated[int, Integer(0, clean=1)]) -> dict[int, Fraction | float]:
        """Output distribution of the local randomiser on input x (exact with ``base``)."""
        self._check_values([x], "x")
        r: Fraction | float = self._ratio if self._ratio is not None else self.privacy.ratio
        denom = r + self.k - 1
        return {y: (r / denom if y == x else 1 / denom) for y in range(self.k)}

    def local_distributions(self) -> dict[int, dict[int, Fraction | float]]:
        """The randomiser as a table input → output distribution (for ε-LDP predicates)."""
        return {x: self.local_pmf(x) for x in range(self.k)}
