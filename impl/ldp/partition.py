"""The public partition of Berrett–Györfi–Walk (seed 003, ``003_5e2a1f46235ac29b.txt:L81–96``).

Cubes A_{h,k} = offset + h·(k + [0, 1)^d), k ∈ ℤ^d, of side h (volume h^d). The paper leaves
the grid offset unspecified; dpspec uses ``offset`` = 0 by default (the origin is a corner), so
[0, 1]^d is tiled exactly when 1/h is an integer. The cells used are those meeting the closed
ball of radius R around 0 (A_{h,j} ∩ S_n ≠ ∅ exactly for j ≤ N_n), numbered in lexicographic
order of k. Everything here is public and data-independent: h, R, offset and the numbering
depend only on (n, d) and the user's constants, never on the data.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.impl.validation import as_finite_array, check_count, check_positive

#: refuse partitions with more cells than this (each user reports 2N numbers)
MAX_CELLS = 2_000_000


@dataclass(frozen=True)
class CubicPartition:
    """Cubes of side ``h`` meeting the ball of radius ``radius`` in ℝ^``d``."""

    h: float
    radius: float
    d: int = 1
    offset: float = 0.0
    _cells: NDArray[np.int64] = field(init=False, repr=False, compare=False)
    _lookup: NDArray[np.int64] = field(init=False, repr=False, compare=False)
    _low: int = field(init=False, repr=False, compare=False)
    _width: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_positive(self.h, "h")
        check_positive(self.radius, "radius")
        check_count(self.d, "d")
        if not math.isfinite(self.offset):
            raise ValueError(f"offset: must be finite, got {self.offset!r}")
        low = math.floor((-self.radius - self.offset) / self.h) - 1
        high = math.ceil((self.radius - self.offset) / self.h) + 1
        width = high - low + 1
        if width**self.d > 50 * MAX_CELLS:
            raise ValueError(f"h: {width}^{self.d} candidate cubes; raise h or lower radius")
        axis = np.arange(low, high + 1, dtype=np.int64)
        grid = np.stack(np.meshgrid(*([axis] * self.d), indexing="ij"), -1).reshape(-1, self.d)
        lo = self.offset + grid * self.h  # cube [lo, lo + h)^d; its nearest point to 0:
        nearest = np.clip(0.0, lo, lo + self.h)
        keep = np.sum(nearest**2, axis=1) <= self.radius**2
        cells = grid[keep]
        if cells.shape[0] > MAX_CELLS:
            raise ValueError(f"h: {cells.shape[0]} cells exceed {MAX_CELLS}")
        lookup = np.full(width**self.d, -1, dtype=np.int64)
        lookup[self._flat(cells, low, width)] = np.arange(cells.shape[0])
        object.__setattr__(self, "_cells", cells)
        object.__setattr__(self, "_lookup", lookup)
        object.__setattr__(self, "_low", low)
        object.__setattr__(self, "_width", width)

    def _flat(self, coords: NDArray[np.int64], low: int, width: int) -> NDArray[np.int64]:
        flat = np.zeros(coords.shape[0], dtype=np.int64)
        for j in range(self.d):
            flat = flat * width + (coords[:, j] - low)
        return flat

    @property
    def n_cells(self) -> int:
        """N: the number of cubes meeting the ball (each user reports 2N numbers)."""
        return int(self._cells.shape[0])

    @property
    def cells(self) -> NDArray[np.int64]:
        """Integer coordinates k of the N cubes, in their public order."""
        return self._cells.copy()

    def cell_index(self, X: Any) -> NDArray[np.int64]:
        """j ∈ {0..N−1} of each row's cube, −1 for points in no listed cube."""
        arr = as_finite_array(X, "X", ndim=2).astype(np.float64)
        if arr.shape[1] != self.d:
            raise ValueError(f"X: expected {self.d} features, got {arr.shape[1]}")
        coords = np.floor((arr - self.offset) / self.h).astype(np.int64)
        width = self._width
        inside = np.all((coords >= self._low) & (coords < self._low + width), axis=1)
        out = np.full(arr.shape[0], -1, dtype=np.int64)
        out[inside] = self._lookup[self._flat(coords[inside], self._low, width)]
        return out

    def cube_bounds(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """(lower, upper) corners of the N cubes, shape (N, d) each."""
        lo = self.offset + self._cells.astype(np.float64) * self.h
        return lo, lo + self.h


def bandwidth(n: int, d: int, constant: float = 1.0) -> float:
    """h_n = c'·n^{−1/(2(d+1))} (seed 003 eq. 11, ``L205``)."""
    return float(
        check_positive(constant, "constant") * check_count(n, "n") ** (-1.0 / (2 * (d + 1)))
    )


def threshold_constant(n: int) -> float:
    """c_n = 1/√(log n) (eq. 11); for n ≤ 2 it is 1/√(log 3)."""
    return 1.0 / math.sqrt(math.log(max(check_count(n, "n"), 3)))


def truncation_level(n: int) -> float:
    """M_n = max(1, √(log n)): M_n → ∞ and, with h_n and c_n of eq. (11),
    (log n)^3 max(1, M_n²/α²)/(n c_n² h_n^{2d}) = O((log n)^5 / n^{1/(d+1)}) → 0 for every
    fixed α — the fixed-α condition the paper gives at ``L259`` (its Theorem 2 as stated lets
    the privacy level grow with M_n; see the errata)."""
    return max(1.0, math.sqrt(math.log(max(check_count(n, "n"), 1))))
