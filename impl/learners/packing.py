"""Public, data-independent packings and their Voronoi cells (seed 000 App. A, PCL2 / PCL2b).

Definitions (``000_dff3c4dc97cf0e21.txt:L431–446``): for a metric space (𝒳, ρ) a set 𝒩 ⊂ 𝒳 is an
*r-cover* if every x ∈ 𝒳 has some x' ∈ 𝒩 with ρ(x, x') ≤ r (Def A.2), an *r-packing* if
ρ(x, x') ≥ r for all distinct x, x' ∈ 𝒩 (Def A.3), and a *maximal* r-packing if no point can be
added, i.e. every x ∈ 𝒳 ∖ 𝒩 has some x' ∈ 𝒩 with ρ(x, x') < r; a maximal r-packing is an
r-cover (Thm A.4). Algorithms 4 and 5 (L466–476, L554–564) partition 𝒳 into the Voronoi cells
of a maximal r-packing with r = n^{−1/(4d)}.

**The packing must be public.** Privacy of PCL2 / PCL2b (Thm A.6, Thm A.14) treats the
partition as a fixed function of the space (and of n, which substitution neighbours share):
centres computed from the sample would leak it. Nothing here can tell where an array came from,
so this is a documented precondition, not a check.

Two constructions:

(a) :class:`CubicLattice` — centres (i + ½)·s, i ∈ ℤ^d (the canonical packing of ℝ^d), or its
    restriction to [0,1]^d with s = 1/m (m^d centres). Facts, for the Euclidean metric:

    * it is an s-packing: distinct centres differ by a non-zero integer vector times s;
    * it is an (s√d/2)-cover, tight: the nearest centre of x is its cube's centre (below), at
      distance ≤ the half-diagonal s√d/2, attained at the cube corners ("deep holes");
    * so it is a *maximal* s-packing iff s√d/2 < s iff d ≤ 3 (at d = 4 a corner is at distance
      exactly s from every nearest centre and could be added to the packing; for d ≥ 5 further);
    * its Voronoi cells are its cubes [i s, (i+1) s)^d: Σ_j |x_j − c_j|^p is separable, so the
      nearest centre is found coordinate by coordinate (any ℓ_p, p < ∞), and the cell of x is
      ⌊x/s⌋ — O(n d) arithmetic, no distance computations. Points on a shared face go to the
      upper cube (floor), a fixed public tie-break; at x_j = 1 in [0,1]^d the last cube.

    Why the PCL2 proof survives a lattice that is not maximal (d ≥ 4): the proof uses
    maximality only through Thm A.4 (maximal ⇒ r-cover) inside Lemma A.8 (cell diameter) and
    through the packing bound in Lemma A.9 (at most (4θ/r)^d centres near a ball of radius θ).
    Consistency needs only the two conditions of Thm A.11 (L513): diam(V(x)) → 0 and
    Pr[N(x) ≤ k] → 0. An s-packing that is a C·s-cover with s ≍ r gives diam(V) ≤ 2C·s → 0 (the
    cell of p lies in the ball of radius C·s around p: every point is within C·s of *some*
    centre, hence of its nearest one), and Lemma A.9's counting still applies since the lattice
    is an s-packing with s ≥ r/2. For the lattice C = √d/2 and the cells are cubes of diameter
    s√d = O(r) → 0: both conditions hold for every d.

(b) :func:`greedy_maximal_packing` — for a user metric on a user-supplied **public** candidate
    set: scan the candidates in order, keep one when it is at distance ≥ r from every kept one.
    The result is an r-packing and is maximal *in the candidate set* (every discarded candidate
    is within < r of a kept one); if the candidates form an ε-cover of 𝒳 the result is an
    (r + ε)-cover of 𝒳, which is all the proof needs (argument above). :func:`nearest_centre`
    assigns points to the Voronoi cells (lowest centre index on ties, a fixed public rule).
    Both work in blocks so memory stays bounded by ``max_entries`` distances.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.spatial.distance import cdist

from dpspec.learners.estimator import PointsArg, _dense, _rows
from dpspec.learners.pcl import _cube_keys
from dpspec.validation import (
    MEMORY_LIMIT,
    Array,
    Checked,
    Domain,
    InputTypeError,
    Integer,
    Real,
    as_finite_array,
    checked,
    example,
    require_within,
)

#: A metric: a name scipy's ``cdist`` knows ("euclidean", "chebyshev", "cityblock", …) or a
#: vectorised callable ``metric(A, B)`` returning the (len(A), len(B)) matrix of distances.
Metric = str | Callable[[NDArray[np.float64], NDArray[np.float64]], NDArray[np.float64]]

#: The metrics of scipy's ``cdist`` that need no extra parameter and are metrics on ℝ^p.
METRIC_NAMES = ("euclidean", "chebyshev", "cityblock", "minkowski", "canberra", "braycurtis")


@dataclass(frozen=True)
class _MetricDomain(Domain):
    """One of :data:`METRIC_NAMES` or a callable ``metric(A, B)`` (whose output is checked
    where it is used: shape, finite, ≥ 0)."""

    def convert(self, value: Any, name: str) -> Any:
        if isinstance(value, str):
            if value not in METRIC_NAMES:
                raise ValueError(f"{name}: expected one of {list(METRIC_NAMES)} or a callable")
            return value
        if not callable(value):
            raise InputTypeError(
                f"{name}: expected a metric name or a callable, got {type(value).__name__}"
            )
        return value

    def hostile(self) -> tuple[Any, ...]:
        return (*super().hostile(), "bogus", "seuclidean", 3, float("nan"), [len])

    @property
    def example(self) -> Any:
        return None if self.optional else "euclidean"

    def describe(self) -> str:
        return f"one of {list(METRIC_NAMES)} or a callable metric(A, B)"


#: A metric of the user's space.
MetricArg = Annotated[Metric, _MetricDomain()]
#: A spacing or radius r > 0.
RadiusArg = Annotated[float, Real(0, 1e300, lo_open=True, clean=0.5)]
#: A dimension d ≥ 1.
DimArg = Annotated[int, Integer(1, hi=2**10, clean=2)]
#: Cells per axis of a unit-cube lattice.
CellsPerAxisArg = Annotated[int, Integer(1, hi=2**62, clean=2)]
#: Cells per axis of a unit-cube lattice, or None (the lattice of ℝ^d).
OptionalCellsPerAxisArg = Annotated[int | None, Integer(1, hi=2**62, optional=True)]
#: Integer cell coordinates, one row per cell.
CoordsArg = Annotated[ArrayLike, Array(ndim=2, kind="integer")]
#: Distances computed per block (memory: 8 bytes each).
MaxEntriesArg = Annotated[int, Integer(1, hi=2**26, clean=2**22)]
#: Candidates resolved together by :func:`greedy_maximal_packing`.
ChunkArg = Annotated[int, Integer(1, hi=2**14, clean=1024)]

#: Largest number of distances one call computes (rows × centres): ~7·10^10, about a minute of
#: ``cdist`` on one core; a larger request is refused before any work.
MAX_DISTANCES = 2**36

#: Distances computed per block: 2^22 float64 (32 MiB).
MAX_ENTRIES = 2**22

#: Integer cell coordinates are clipped to ±2^52: beyond that floats no longer separate cells
#: of side s (x/s loses its integer part), so the outermost cells become unbounded slabs — a
#: fixed, public partition all the same.
COORD_LIMIT = 2**52

_MAX_LISTED = 2**24


def _points(X: Any, name: str) -> NDArray[np.float64]:
    arr = as_finite_array(_dense(X, name), name, ndim=2)
    return arr if arr.dtype == np.float64 else arr.astype(np.float64)


@example(
    __init__={"spacing": 0.5, "dim": 2, "cells_per_axis": 2},
    cell_coords={"X": np.array([[0.0, 0.5], [0.75, 1.0]])},
    cell_index={"X": np.array([[0.0, 0.5], [0.75, 1.0]])},
    centres_of={"coords": np.array([[0, 1], [1, 1]])},
    centres={},
    unit_cube={"cells_per_axis": 3, "dim": 2},
)
@dataclass(frozen=True)
class CubicLattice(Checked):
    """The cubic lattice {(i + ½)·s : i ∈ ℤ^d} and its Voronoi cells, the cubes [i s, (i+1) s)^d.

    ``cells_per_axis`` = m restricts it to [0,1]^d with s = 1/m (build with :meth:`unit_cube`):
    m^d centres, cells that tile [0,1]^d exactly. Otherwise it covers ℝ^d, anchored at 0.
    Euclidean facts (module docstring): s-packing, (s√d/2)-cover, maximal iff d ≤ 3, cell
    diameter s√d.
    """

    spacing: RadiusArg
    dim: DimArg
    cells_per_axis: OptionalCellsPerAxisArg = None

    def __post_init__(self) -> None:
        super().__post_init__()
        m = self.cells_per_axis
        if m is not None:
            if not math.isclose(self.spacing * m, 1.0, rel_tol=1e-12):
                raise ValueError(f"spacing: a unit-cube lattice has spacing 1/{m}")
            if m**self.dim >= 2**62:
                raise ValueError(f"cells_per_axis: {m}^{self.dim} cells exceed 2^62")

    @classmethod
    def unit_cube(cls, cells_per_axis: CellsPerAxisArg, dim: DimArg) -> CubicLattice:
        """The lattice of [0,1]^d with m = ``cells_per_axis`` cells per axis (s = 1/m)."""
        return cls(1.0 / cells_per_axis, dim, cells_per_axis)

    @property
    def packing_radius(self) -> float:
        """s: distinct centres are at Euclidean distance ≥ s (Def A.3)."""
        return float(self.spacing)

    @property
    def covering_radius(self) -> float:
        """s√d/2: every point is within this distance of a centre (Def A.2), and no less."""
        return float(self.spacing) * math.sqrt(self.dim) / 2.0

    @property
    def cell_diameter(self) -> float:
        """s√d: the Euclidean diameter of a cell (a cube of side s)."""
        return float(self.spacing) * math.sqrt(self.dim)

    @property
    def is_maximal(self) -> bool:
        """Whether it is a maximal s-packing (Def A.3): s√d/2 < s, i.e. d ≤ 3."""
        return self.dim <= 3

    def _check(self, X: Any) -> NDArray[np.float64]:
        arr = _points(X, "X")
        if arr.shape[1] != self.dim:
            raise ValueError(f"X: expected {self.dim} features, got {arr.shape[1]}")
        if self.cells_per_axis is not None and (np.any(arr < 0.0) or np.any(arr > 1.0)):
            raise ValueError("X: points outside [0, 1]^d (this lattice covers the unit cube)")
        return arr

    def cell_coords(self, X: PointsArg) -> NDArray[np.int64]:
        """Integer coordinates i of the cell (cube) of each row: ⌊x/s⌋ (O(n d), no distances).

        Unit cube: min(⌊x·m⌋, m − 1) — the same cubes as PCL's ``cube_index``. ℝ^d: clipped to
        ±2^52 (``COORD_LIMIT``).
        """
        arr = self._check(X)
        if self.cells_per_axis is not None:
            m = self.cells_per_axis
            return np.minimum((arr * m).astype(np.int64), m - 1)
        with np.errstate(over="ignore"):  # |x|/s beyond 2^52 is clipped: the outer slabs
            scaled = np.clip(np.floor(arr / self.spacing), -COORD_LIMIT, COORD_LIMIT)
        return scaled.astype(np.int64)

    def cell_index(self, X: PointsArg) -> NDArray[np.int64]:
        """Flat index (row-major over the m^d cubes) of each row's cell; unit-cube lattice only."""
        if self.cells_per_axis is None:
            raise ValueError("cells_per_axis: flat indices need the unit-cube lattice")
        return _cube_keys(self._check(X), self.cells_per_axis)

    def centres_of(self, coords: CoordsArg) -> NDArray[np.float64]:
        """The centres (i + ½)·s of the cells with integer coordinates ``coords``."""
        arr = np.asarray(coords)
        if arr.shape[1] != self.dim:
            raise ValueError(f"coords: expected integer rows of {self.dim} coordinates")
        return (arr.astype(np.float64) + 0.5) * self.spacing

    def centres(self) -> NDArray[np.float64]:
        """All m^d centres of the unit-cube lattice, row-major (flat index order)."""
        if self.cells_per_axis is None:
            raise ValueError("cells_per_axis: the lattice of ℝ^d has infinitely many centres")
        m, d = self.cells_per_axis, self.dim
        if m**d > _MAX_LISTED:
            raise ValueError(f"cells_per_axis: {m}^{d} centres are too many to list")
        coords = np.indices((m,) * d).reshape(d, -1).T
        return (coords + 0.5) / m


_A = np.array([[0.0, 0.0], [1.0, 0.0], [0.3, 0.4]])


@example(__call__={"A": _A, "B": _A[:2]})
@checked
def pairwise_distances(
    A: PointsArg, B: PointsArg, metric: MetricArg = "euclidean"
) -> NDArray[np.float64]:
    """The (len(A), len(B)) matrix ρ(a_i, b_j) for a scipy metric name or a vectorised callable
    (at most ``MEMORY_LIMIT`` bytes of distances, refused before any work).

    A callable's output is checked: right shape, finite, ≥ 0.
    """
    A, B = _rows(A), _rows(B)
    if A.shape[1] != B.shape[1]:
        raise ValueError(f"B: expected {A.shape[1]} features, got {B.shape[1]}")
    require_within(8.0 * A.shape[0] * B.shape[0], MEMORY_LIMIT, "B", "bytes of distances")
    return _pairwise(A, B, metric)


def _pairwise(
    a: NDArray[np.float64], b: NDArray[np.float64], metric: Metric
) -> NDArray[np.float64]:
    """:func:`pairwise_distances` on checked float64 arrays of the same width."""
    if isinstance(metric, str):
        try:
            out = cdist(a, b, metric=metric)
        except ValueError as exc:
            raise ValueError(f"metric: {exc}") from exc
        return np.asarray(out, dtype=np.float64)
    if not callable(metric):
        raise ValueError(f"metric: expected a scipy metric name or a callable, got {metric!r}")
    out = np.asarray(metric(a, b), dtype=np.float64)
    if out.shape != (a.shape[0], b.shape[0]):
        raise ValueError(f"metric: must return shape {(a.shape[0], b.shape[0])}, got {out.shape}")
    if not np.all(np.isfinite(out)) or np.any(out < 0):
        raise ValueError("metric: returned negative, NaN or infinite distances")
    return out


@example(__call__={"X": _A, "centres": _A[:2]})
@checked
def nearest_centre(
    X: PointsArg,
    centres: PointsArg,
    metric: MetricArg = "euclidean",
    max_entries: MaxEntriesArg = MAX_ENTRIES,
) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Index of the nearest centre of each row of X (its Voronoi cell) and the distance to it.

    Ties go to the lowest centre index (a fixed public rule: the cells partition the space).
    Computed in blocks of at most ``max_entries`` distances (rows × centres, centres split too
    when there are more than ``max_entries`` of them): memory O(max_entries), work O(n k p),
    at most ``MAX_DISTANCES`` distances (refused before any work).
    """
    X, centres = _rows(X), _rows(centres)
    if centres.shape[1] != X.shape[1]:
        raise ValueError(f"X: expected {centres.shape[1]} features, got {X.shape[1]}")
    require_within(X.shape[0] * centres.shape[0], MAX_DISTANCES, "X", "distances (rows × centres)")
    return _nearest(X, centres, metric, max_entries)


def _nearest(
    x: NDArray[np.float64], c: NDArray[np.float64], metric: Metric, budget: int
) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """:func:`nearest_centre` on checked arguments."""
    n, k = x.shape[0], c.shape[0]
    col_step = min(k, budget)
    row_step = max(1, budget // col_step)
    index = np.zeros(n, dtype=np.int64)
    dist = np.full(n, np.inf)
    for r0 in range(0, n, row_step):
        rows = slice(r0, min(n, r0 + row_step))
        for c0 in range(0, k, col_step):
            block = _pairwise(x[rows], c[c0 : c0 + col_step], metric)
            j = np.argmin(block, axis=1)
            d = block[np.arange(block.shape[0]), j]
            better = d < dist[rows]  # strict: an earlier (lower-index) block keeps ties
            index[rows] = np.where(better, j + c0, index[rows])
            dist[rows] = np.where(better, d, dist[rows])
    return index, dist


@example(__call__={"candidates": _A, "r": 0.5})
@checked
def greedy_maximal_packing(
    candidates: PointsArg,
    r: RadiusArg,
    metric: MetricArg = "euclidean",
    chunk_size: ChunkArg = 1024,
    max_entries: MaxEntriesArg = MAX_ENTRIES,
) -> NDArray[np.float64]:
    """A maximal r-packing of a **public** candidate set, chosen greedily in the given order.

    ``candidates`` must not be derived from the sample the learner is trained on (a grid, a
    public reference set, a fixed net of the space): the partition is assumed data-independent
    by Thm A.6 / A.14, and this function cannot check where the points came from.

    Returns the kept candidates (in their original order) with: ρ(p, p') ≥ r for kept p ≠ p'
    (an r-packing, Def A.3), and every discarded candidate within < r of a kept one (maximal in
    the candidate set; hence an r-cover of it, Thm A.4). Greedy rule: keep a candidate iff it is
    at distance ≥ r from all earlier kept ones. Candidates are processed in chunks: a chunk is
    first filtered against the centres kept so far (blocked distances, see
    :func:`nearest_centre`), then resolved inside the chunk with its own distance matrix; one
    vectorised step per kept centre. Work O(N k p) for N candidates and k ≤ N centres: at most
    ``MAX_DISTANCES`` = N² distances, refused before any work.
    """
    candidates = _rows(candidates)
    require_within(candidates.shape[0] ** 2, MAX_DISTANCES, "candidates", "distances (candidates²)")
    return _greedy(candidates, r, metric, chunk_size, max_entries)


def _greedy(
    cand: NDArray[np.float64], radius: float, metric: Metric, step: int, max_entries: int
) -> NDArray[np.float64]:
    """:func:`greedy_maximal_packing` on checked arguments."""
    kept: list[NDArray[np.float64]] = []
    kept_count = 0
    for start in range(0, cand.shape[0], step):
        block = cand[start : start + step]
        alive = np.arange(block.shape[0])
        if kept_count:
            so_far = np.concatenate(kept)
            _, dist = _nearest(block, so_far, metric, max_entries)
            alive = alive[dist >= radius]
        if alive.size == 0:
            continue
        inner = _pairwise(block[alive], block[alive], metric)
        remaining = np.arange(alive.size)
        chosen: list[int] = []
        while remaining.size:
            i = int(remaining[0])
            chosen.append(i)
            rest = remaining[1:]
            remaining = rest[inner[i, rest] >= radius]
        kept.append(block[alive[chosen]])
        kept_count += len(chosen)
    return np.concatenate(kept) if kept else np.empty((0, cand.shape[1]))
