"""Per-cell noisy majority vote: the release of PCL.

Seed 000 Alg 2, ``000_dff3c4dc97cf0e21.txt:L193–206``.

Records are (cell, y) with y ∈ {0, 1}. For every cell C of a public finite partition — empty
cells included — release the bit h_C = 1[Σ_{i∈C} y_i + w_C > |C|/2], w_C ~ Lap(1/ε)
independent. Equivalently 1[v_C + w_C > 0] with the centred vote v_C = Σ_{i∈C}(y_i − ½): the
vector (v_C)_C has L1 sensitivity 1 under substitution (½ under add/remove), so the bits are
ε-DP by the Laplace mechanism and post-processing (L206).

Default (**exact**): with m_C = 2v_C = 2Σy − |C| (an integer, L1 sensitivity 2) and Z_C exact
discrete Laplace with P(Z = z) ∝ q^{|z|}, q = e^{−ε/2}: h_C = 1[m_C + Z_C > 0]. Ties
(m_C + Z_C = 0) give 0, a fixed post-processing rule. ``idealised=True`` is the paper's
continuous Lap(1/ε) in floating point.

The output law is a product of Bernoullis with P(h_C = 1) = P(Z ≥ 1 − m_C) (a discrete
Laplace survival value) or P(Lap(1/ε) > −m_C/2): exact verification enumerates it.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Annotated

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpspec.contract import PrivacyLevel, restrict
from dpspec.mechanisms.base import discrete_laplace_for
from dpspec.noise import laplace_sf
from dpspec.spec.privacy import bernoulli_product
from dpspec.validation import (
    Anything,
    Array,
    Checked,
    FlagArg,
    GeneratorArg,
    Integer,
    OptionalBaseArg,
    OptionalEpsilonArg,
    Pair,
    SizeArg,
    check_limit,
    example,
)

#: Records (cell, label): an integer array of rows (cell id, 0 or 1).
RecordsArg = Annotated[ArrayLike, Array(ndim=2, kind="integer")]
#: An inclusive range of bit vectors, in lexicographic order.
BitWindowArg = Annotated[
    tuple[tuple[int, ...], tuple[int, ...]] | None,
    Pair(Anything(why="bit vectors, compared lexicographically"), optional=True),
]


@example(
    every={"data": np.array([[0, 1], [2, 0], [2, 1]])},
    __init__={"cells": 3, "epsilon": 1.0},
    sample={"size": 4},
)
class NoisyMajorityVote(Checked):
    """The per-cell noisy majority bits over ``cells`` public cells (PCL's release)."""

    def __init__(
        self,
        cells: Annotated[int, Integer(1, limit="cells")],
        epsilon: OptionalEpsilonArg = None,
        *,
        base: OptionalBaseArg = None,
        idealised: FlagArg = False,
    ) -> None:
        self.cells = cells
        self.idealised = idealised
        if idealised:
            if epsilon is None or base is not None:
                raise ValueError("epsilon: the idealised (paper) version takes epsilon")
            eps = float(epsilon)
            self.scale = 1.0 / eps
            self.privacy = PrivacyLevel(eps, math.exp(eps), 0, exact_sampler=False)
        else:
            self.noise, self.privacy = discrete_laplace_for(Fraction(2), epsilon, base)

    def margins(self, data: RecordsArg) -> NDArray[np.int64]:
        """m_C = 2·Σ_{i∈C} y_i − |C| for every cell (exact integers)."""
        arr = np.asarray(data)
        if arr.shape[1] != 2:
            raise ValueError("data: expected an integer array of (cell, label) rows")
        if arr[:, 0].min() < 0 or arr[:, 0].max() >= self.cells:  # checked before any cast
            raise ValueError(f"data: cell ids must be in [0, {self.cells})")
        if not np.all((arr[:, 1] == 0) | (arr[:, 1] == 1)):
            raise ValueError("data: labels must be 0 or 1")
        cell, y = arr[:, 0].astype(np.int64), arr[:, 1].astype(np.int64)
        return np.bincount(cell, weights=2 * y - 1, minlength=self.cells).astype(np.int64)

    def sample(self, data: RecordsArg, size: SizeArg, rng: GeneratorArg) -> NDArray[np.bool_]:
        """``size`` independent releases of all the cells' bits, shape (size, cells)."""
        n = size
        check_limit(n * self.cells, "size", "draws")
        m = self.margins(data)
        if self.idealised:
            w = rng.laplace(0.0, self.scale, size=(n, self.cells))
            return np.asarray(m[None, :] / 2.0 + w > 0)
        z = self.noise.sample(n * self.cells, rng).reshape(n, self.cells)
        return np.asarray(m[None, :] + z > 0)

    def one_probabilities(self, data: RecordsArg) -> list[Fraction | float]:
        """P(h_C = 1) for every cell: exact Fractions with a rational base."""
        m = self.margins(data)
        if self.idealised:
            return [laplace_sf(-int(mc) / 2.0, self.scale) for mc in m]
        return [self.noise.sf(1 - int(mc)) for mc in m]

    def pmf(
        self, data: RecordsArg, window: BitWindowArg = None
    ) -> dict[tuple[int, ...], Fraction | float]:
        """Exact law of the bit vector (2^cells outcomes; for small verification instances),
        restricted to the vectors in ``window`` (lexicographic, inclusive; None: all)."""
        if self.cells > 16:
            raise ValueError("cells: pmf enumerates 2^cells outcomes; at most 16 cells")
        return restrict(bernoulli_product(self.one_probabilities(data)), window)
