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
from typing import Annotated

import numpy as np
from numpy.typing import NDArray

from dpspec.validation import (
    Checked,
    FeaturesArg,
    Integer,
    Real,
    SampleSizeArg,
    checked,
    exact_fraction,
    example,
)

#: refuse partitions with more cells than this (each user reports 2N numbers)
MAX_CELLS = 2_000_000
#: The one magnitude limit of the LDP estimators' real parameters (h, radius, |offset|,
#: bandwidth constant, truncation M, threshold c_n; M also from below): 2^256. Products and
#: squares of two such values, and the noise scales 4√2·M/α with α ≥ 2^−32, stay far inside
#: the float range, so no report, sum of reports or cube corner overflows.
MAX_MAGNITUDE = 2.0**256
#: cube indices k are integers of magnitude ≤ 2^52: exact as floats and in int64
MAX_INDEX = 2**52
#: largest dimension d of the partition (each cube is stored with its d integer coordinates)
MAX_DIMENSION = 4096

#: A positive real parameter of the partitioning estimates (h, R, the bandwidth constant, the
#: truncation level M, the threshold c_n): in [2^−256, 2^256] (:data:`MAX_MAGNITUDE`).
MagnitudeArg = Annotated[float, Real(lo=1 / MAX_MAGNITUDE, hi=MAX_MAGNITUDE, clean=1.0)]
#: The grid offset: |offset| ≤ 2^256.
OffsetArg = Annotated[float, Real(lo=-MAX_MAGNITUDE, hi=MAX_MAGNITUDE)]
#: The dimension d of the feature space.
DimensionArg = Annotated[int, Integer(lo=1, hi=MAX_DIMENSION, clean=1)]


def _check_magnitude(x: float, name: str) -> float:
    """A float computed from checked parameters (h_n, R_n, …) in [2^−256, 2^256], else a
    ValueError naming ``name``."""
    if not (math.isfinite(x) and 1 / MAX_MAGNITUDE <= x <= MAX_MAGNITUDE):
        raise ValueError(f"{name}: must be in [2^-256, 2^256], got {x!r}")
    return x


@example(__init__={"h": 0.5, "radius": 1.0}, cell_index={"X": np.array([[0.1], [-0.7], [3.0]])})
@dataclass(frozen=True)
class CubicPartition(Checked):
    """Cubes of side ``h`` meeting the ball of radius ``radius`` in ℝ^``d``."""

    h: MagnitudeArg
    radius: MagnitudeArg
    d: DimensionArg = 1
    offset: OffsetArg = 0.0
    _cells: NDArray[np.int64] = field(init=False, repr=False, compare=False)
    _keys: NDArray[np.int64] = field(init=False, repr=False, compare=False)
    _low: int = field(init=False, repr=False, compare=False)
    _width: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        super().__post_init__()  # the declared domains: h, radius, d, offset
        h = exact_fraction(self.h, "h")
        radius = exact_fraction(self.radius, "radius")
        offset = exact_fraction(self.offset, "offset")
        # exact cube indices of the ball's bounding box (rationals: no float overflow)
        low = math.floor((-radius - offset) / h) - 1
        high = math.ceil((radius - offset) / h) + 1
        if max(abs(low), abs(high)) > MAX_INDEX:
            raise ValueError(
                f"h: cube indices (|offset| + radius)/h up to {max(abs(low), abs(high))} exceed "
                f"2^52 (h={self.h!r}, radius={self.radius!r}, offset={self.offset!r}); raise h "
                "or lower radius / offset"
            )
        width = high - low + 1
        if width > MAX_CELLS + 4 or width**self.d >= 2**62:
            # the cubes along one axis through 0 all meet the ball: ≥ width − 4 cells
            raise ValueError(
                f"h: {width}^{self.d} candidate cubes (more than {MAX_CELLS} cells or an index "
                "space beyond 2^62); raise h or lower radius"
            )
        cells = self._cells_meeting_ball(low, width)
        if cells.shape[0] > MAX_CELLS:
            raise ValueError(
                f"h: {cells.shape[0]} cells exceed {MAX_CELLS}; raise h or lower radius"
            )
        keys = self._flat(cells, low, width)  # increasing: cells are in lexicographic order
        object.__setattr__(self, "_cells", cells)
        object.__setattr__(self, "_keys", keys)
        object.__setattr__(self, "_low", low)
        object.__setattr__(self, "_width", width)

    def _cells_meeting_ball(self, low: int, width: int) -> NDArray[np.int64]:
        """Integer coordinates k of the cubes meeting the closed ball, lexicographic, built
        axis by axis without the width^d candidate grid: the squared distance a_k from 0 to
        [offset + kh, offset + (k+1)h] falls then rises in k, so the k a prefix can take form
        one interval. Intervals are taken with a relative slack of 1e−9 (a superset) and the
        final test is ``Σ nearest² ≤ R²`` on the built cubes; every prefix extends to a cube
        (append the cube containing 0 on each later axis), so intermediate sizes are bounded
        by the final count."""
        axis = np.arange(low, low + width, dtype=np.int64)
        lo = self.offset + axis * self.h
        a = np.clip(0.0, lo, lo + self.h) ** 2
        m = int(np.argmin(a))
        left_rev, right = a[m::-1], a[m:]
        budget = self.radius**2 * (1 + 1e-9)
        index = np.zeros((1, 0), dtype=np.int64)
        partial = np.zeros(1)
        for _ in range(self.d):
            room = budget - partial
            first = m + 1 - np.searchsorted(left_rev, room, side="right")
            last = m - 1 + np.searchsorted(right, room, side="right")
            counts = last - first + 1
            total = int(counts.sum())
            if total > 2 * MAX_CELLS:
                raise ValueError(
                    f"h: more than {2 * MAX_CELLS} cubes meet the ball (limit {MAX_CELLS}); "
                    "raise h or lower radius"
                )
            parent = np.repeat(np.arange(partial.shape[0]), counts)
            step = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
            k = np.repeat(first, counts) + step
            index = np.concatenate([index[parent], k[:, None]], axis=1)
            partial = partial[parent] + a[k]
        grid = index + low
        lo_cube = self.offset + grid * self.h  # cube [lo, lo + h)^d; its nearest point to 0:
        nearest = np.clip(0.0, lo_cube, lo_cube + self.h)
        keep = np.sum(nearest**2, axis=1) <= self.radius**2
        return np.asarray(grid[keep], dtype=np.int64)

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

    def cell_index(self, X: FeaturesArg) -> NDArray[np.int64]:
        """j ∈ {0..N−1} of each row's cube, −1 for points in no listed cube."""
        arr = np.asarray(X, dtype=np.float64)
        if arr.shape[1] != self.d:
            raise ValueError(f"X: expected {self.d} features, got {arr.shape[1]}")
        # far points may overflow to ±inf here; they compare as outside, which they are
        with np.errstate(over="ignore"):
            scaled = np.floor((arr - self.offset) / self.h)
        width = self._width
        inside = np.all((scaled >= self._low) & (scaled < self._low + width), axis=1)
        out = np.full(arr.shape[0], -1, dtype=np.int64)
        coords = scaled[inside].astype(np.int64)  # |coords| ≤ 2^52 + 1: exact
        keys = self._flat(coords, self._low, width)
        pos = np.minimum(np.searchsorted(self._keys, keys), self._keys.shape[0] - 1)
        out[inside] = np.where(self._keys[pos] == keys, pos, -1)
        return out

    def cube_bounds(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """(lower, upper) corners of the N cubes, shape (N, d) each."""
        lo = self.offset + self._cells.astype(np.float64) * self.h
        return lo, lo + self.h


# The public schedules h_n, c_n, M_n, R_n take every sample size n of SampleSizeArg (n ≤ 2^62):
# n^{-1/(2(d+1))} and log n stay finite, positive floats.


@checked
def bandwidth(n: SampleSizeArg, d: DimensionArg, constant: MagnitudeArg = 1.0) -> float:
    """h_n = c'·n^{−1/(2(d+1))} (seed 003 eq. 11, ``L205``); ``constant`` is c'."""
    return float(constant * n ** (-1.0 / (2 * (d + 1))))


@checked
def threshold_constant(n: SampleSizeArg) -> float:
    """c_n = 1/√(log n) (eq. 11); for n ≤ 2 it is 1/√(log 3)."""
    return 1.0 / math.sqrt(math.log(max(n, 3)))


@checked
def truncation_level(n: SampleSizeArg) -> float:
    """M_n = max(1, √(log n)): M_n → ∞ and, with h_n and c_n of eq. (11),
    (log n)^3 max(1, M_n²/α²)/(n c_n² h_n^{2d}) = O((log n)^5 / n^{1/(d+1)}) → 0 for every
    fixed α — the fixed-α condition the paper gives at ``L259`` (its Theorem 2 as stated lets
    the privacy level grow with M_n; see the errata)."""
    return max(1.0, math.sqrt(math.log(n)))
