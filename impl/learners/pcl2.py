"""PCL2 and PCL2b — private partition learners over public packings (seed 000 App. A).

**PCL2** (Alg 4, ``000_dff3c4dc97cf0e21.txt:L466–476``; Thm A.6 ε-DP for bounded 𝒳, L452;
Thm A.12 universally consistent): r = n^{−1/(4d)} (note 4d, where PCL has 2d), 𝒩 a maximal
r-packing of 𝒳, V(x) the Voronoi cell of x, and

    h(x) = 1[ Σ_{x_i ∈ V(x)} y_i + Lap(1/ε) > |V(x)|/2 ],   one noise draw per cell, fixed.

This is PCL's per-cell noisy majority over another public partition, so
:class:`PrivatePackingClassifier` *is* PCL (:class:`~dpspec.learners.pcl.
PrivateHistogramClassifier`) run on the cell ids: the same exact discrete noise (default) or
idealised ``idealised=True``, the same counter-keyed noise (every cell has noise, empty cells
too; memory O(non-empty cells); one fixed function), the same exact ``release_law``.
Privacy (Thm A.6, "straightforward", L458): the vector of centred votes Σ_{i∈V}(y_i − ½) has L1
sensitivity 1 under substitution, whatever the (public) partition.

**PCL2b** (Alg 5, L554–564; Thm A.14 (2ε, 2δ)-DP, L568; Thm A.13 needs δ(n) = ω(2^{−n^{1/4}}),
L550 — any fixed δ qualifies): unbounded 𝒳 ⊂ ℝ^d, cells = cubes of side r anchored at 0 (the
Voronoi cells of the cubic lattice, :class:`~dpspec.learners.packing.CubicLattice`), two
stability histograms (Alg 1): ĉ_j ≈ |{i : x_i ∈ V_j}| and ŷ_j ≈ |{i : y_i = 1, x_i ∈ V_j}|;
ŷ(x) = min(ŷ_j, ĉ_j) and h(x) = 1[ŷ(x) > ĉ(x)/2]. A cell whose released count is 0 predicts 0
(η̂ = 0 when ĉ = 0, L579). Only occupied cells are touched: the partition is infinite.

Privacy of PCL2b: each histogram is (ε, δ)-DP — the ŷ histogram sees S¹ = {x_i : y_i = 1}, which
a substitution changes by a substitution, an addition or a removal; the stability histogram is
(ε, δ)-DP under all three (an addition/removal moves one count by 1: ratio e^{ε/2}, and at most
one cell appears). Basic composition of the two releases on the same data gives (2ε, 2δ); the
hypothesis is post-processing. ``epsilon`` and ``delta`` are the per-histogram parameters;
``privacy_`` states the total (2ε, 2δ). The exact law of the release is
:meth:`PrivateUnboundedClassifier.release_law`: a product over the occupied cells of the law of
(ĉ_j, ŷ_j), itself a product (the two histograms' noises are independent given the data).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Annotated, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpspec.contract import PrivacyLevel
from dpspec.learners.estimator import (
    BinaryCellClassifier,
    LabelsArg,
    OptionalPointsArg,
    PointsArg,
    _binary_labels,
    _model_key,
    _rows,
)
from dpspec.learners.packing import (
    CubicLattice,
    MetricArg,
    greedy_maximal_packing,
    nearest_centre,
)
from dpspec.learners.pcl import (
    DimensionArg,
    OptionalCellsPerAxisArg,
    PrivateHistogramClassifier,
    _cells_per_axis_for,
)
from dpspec.mechanisms.stability_histogram import HistogramDeltaArg, StabilityHistogram
from dpspec.validation import (
    LIMITS,
    MAX_EPSILON,
    Array,
    EpsilonArg,
    FlagArg,
    Integer,
    OptionalBaseArg,
    OptionalEpsilonArg,
    RandomStateArg,
    Real,
    SampleSizeArg,
    as_finite_array,
    check_constructor_params,
    checked,
    example,
)

#: Cell ids of a Voronoi partition are encoded as the 1-D points (j + ½)/k for PCL; exact for
#: k well below 2^52 (the float error of (j + ½)/k · k is far below ½).
_MAX_CENTRES = 2**40

#: A radius r > 0, or None (n^{−1/(4d)} from the sample size).
OptionalRadiusArg = Annotated[float | None, Real(0, 1e300, lo_open=True, optional=True)]
#: Released counts of cells (ĉ or ŷ): a 1-D array of reals ≥ 0.
ReleasedArg = Annotated[ArrayLike, Array(ndim=1, clean=np.array([0.0, 9.0, 12.0]))]
#: The cap of a lumped tail of released values (every count compared must be ≤ it).
OptionalCapArg = Annotated[int | None, Integer(1, hi=2**14, optional=True)]


@checked
def packing_radius(n: SampleSizeArg, d: DimensionArg) -> float:
    """r = n^{−1/(4d)} (Alg 4 L468, Alg 5 L556)."""
    return float(math.pow(n, -1.0 / (4 * d)))


@checked
def lattice_cells_per_axis(n: SampleSizeArg, d: DimensionArg) -> int:
    """m = ⌈n^{1/(4d)}⌉ = ⌈1/r⌉: the unit-cube lattice of spacing 1/m ∈ (r/2, r] (tiles [0,1]^d).

    Same rounding as PCL's grid with 2d replaced by 4d (``cells_per_axis_for(n, 2d)``).
    """
    return _cells_per_axis_for(n, 2 * d)


def _points(X: Any, name: str = "X") -> NDArray[np.float64]:
    arr = as_finite_array(X, name, ndim=2)
    return arr if arr.dtype == np.float64 else arr.astype(np.float64)


def _encode(cells: NDArray[np.int64], k: int) -> NDArray[np.float64]:
    """Cell j of k as the point (j + ½)/k of [0,1]: PCL's cube of side 1/k that contains it is j."""
    return ((cells.astype(np.float64) + 0.5) / k)[:, None]


_X = np.array([[0.1, 0.2], [0.3, 0.1], [0.7, 0.8], [0.9, 0.6], [0.5, 0.5], [0.2, 0.9]])
_Y = np.array([0, 0, 1, 1, 1, 0])


@example(
    every={"X": _X, "y": _Y},
    __init__={"epsilon": 1.0, "cells_per_axis": 2, "random_state": 0},
    fit={},
    predict={},
    decision_cells={},
    score={},
    grid_labels={},
    cell_of={},
    release_law={},
)
class PrivatePackingClassifier(BinaryCellClassifier):
    """PCL2 (seed 000 Alg 4): ε-DP partition rule over the Voronoi cells of a public packing.

    Parameters:

    * ``epsilon`` (ε > 0); ``idealised``: False (exact discrete noise, default) or True (the
      paper's Lap(1/ε), assumes ideal reals) — as PCL.
    * ``candidates`` None: 𝒳 = [0,1]^d with the canonical cubic lattice of m = ⌈n^{1/(4d)}⌉
      cells per axis (spacing 1/m ∈ (r/2, r]; an r/2-packing and (r√d/2)-cover — the O(r)-cover
      argument of :mod:`~dpspec.learners.packing` keeps Thm A.12); cell assignment O(n d).
      ``cells_per_axis`` fixes m in advance (needed for add/remove neighbours, whose n differ).
    * ``candidates`` an array (N, p): a **public** candidate set of the user's space — never
      the training sample or anything computed from it (this cannot be checked). In ``fit``
      the centres are ``greedy_maximal_packing(candidates, r, metric)`` with r = ``radius`` or
      n^{−1/(4p)} (pass ``radius`` when the doubling dimension differs from p, or to fix the
      partition in advance); cells are the Voronoi cells under ``metric`` (a scipy name or a
      vectorised callable, :func:`~dpspec.learners.packing.pairwise_distances`).
      A pre-built r-packing passed with ``radius=r`` is kept unchanged.
    * ``random_state``: None, int or numpy Generator (keys the counter-based noise).
    * ``clip``: on the unit-cube lattice, clip each coordinate into [0, 1] instead of
      rejecting points outside (a fixed per-record map: the privacy guarantee is unchanged).

    Fitted: ``histogram_`` (the PCL over the cell ids that holds the released bits),
    ``lattice_`` or ``centres_``, ``radius_`` (spacing or greedy radius), ``n_cells_``,
    ``privacy_`` (ε-DP, substitution), ``classes_``, ``n_features_in_``.
    """

    _fitted_attribute = "histogram_"

    def __init__(
        self,
        epsilon: EpsilonArg = 1.0,
        idealised: FlagArg = False,
        candidates: OptionalPointsArg = None,
        metric: MetricArg = "euclidean",
        radius: OptionalRadiusArg = None,
        cells_per_axis: OptionalCellsPerAxisArg = None,
        random_state: RandomStateArg = None,
        clip: FlagArg = False,
    ) -> None:
        self.epsilon = epsilon
        self.idealised = idealised
        self.candidates = candidates
        self.metric = metric
        self.radius = radius
        self.cells_per_axis = cells_per_axis
        self.random_state = random_state
        self.clip = clip

    # -- the public partition ------------------------------------------------------------------
    def _partition(
        self, n: int, d: int
    ) -> tuple[CubicLattice | None, NDArray[np.float64] | None, float, int]:
        """(lattice, centres, r, number of cells) for a sample of n points in d features."""
        if self.candidates is None:
            if self.radius is not None:
                raise ValueError("radius: only with candidates; the lattice takes cells_per_axis")
            m = (
                _cells_per_axis_for(n, 2 * d)
                if self.cells_per_axis is None
                else self.cells_per_axis
            )
            if m**d >= 2**62:
                raise ValueError(f"cells_per_axis: {m}^{d} cells exceed 2^62")
            lattice = CubicLattice.unit_cube(m, d)
            return lattice, None, lattice.spacing, m**d
        if self.cells_per_axis is not None:
            raise ValueError("cells_per_axis: only for the unit-cube lattice (candidates is set)")
        cand = _points(self.candidates, "candidates")
        if cand.shape[1] != d:
            raise ValueError(f"candidates: expected {d} features like X, got {cand.shape[1]}")
        r = float(math.pow(n, -1.0 / (4 * d))) if self.radius is None else float(self.radius)
        centres = greedy_maximal_packing(cand, r, self.metric)
        if centres.shape[0] >= _MAX_CENTRES:
            raise ValueError("candidates: too many centres (at most 2^40)")
        return None, centres, r, centres.shape[0]

    def _inner(self, k_or_m: int) -> PrivateHistogramClassifier:
        return PrivateHistogramClassifier(
            self.epsilon, self.idealised, cells_per_axis=k_or_m, random_state=self.random_state
        )

    def _cell_points(
        self,
        X: NDArray[np.float64],
        lattice: CubicLattice | None,
        centres: NDArray[np.float64] | None,
    ) -> NDArray[np.float64]:
        """X itself on the unit-cube lattice (PCL's cubes are its cells), else the encoded ids."""
        if lattice is not None:
            if self.clip:
                return np.clip(X, 0.0, 1.0)
            lattice.cell_coords(X)  # validates the domain [0,1]^d with a named error
            return X
        assert centres is not None
        cells, _ = nearest_centre(X, centres, self.metric)
        return _encode(cells, centres.shape[0])

    def fit(self, X: PointsArg, y: LabelsArg) -> PrivatePackingClassifier:
        """PCL's noisy majority over the cells of the public partition (Alg 4)."""
        X = _rows(X)
        n, d = X.shape
        _binary_labels(y, n, "X", stacklevel=5)
        lattice, centres, r, cells = self._partition(n, d)
        inner_m = lattice.cells_per_axis if lattice is not None else cells
        assert inner_m is not None
        inner = self._inner(inner_m).fit(self._cell_points(X, lattice, centres), y)
        self.histogram_ = inner
        self.lattice_, self.centres_ = lattice, centres
        self.radius_, self.n_cells_ = r, cells
        self.privacy_: PrivacyLevel = inner.privacy_
        self.classes_ = inner.classes_
        self.n_features_in_ = d
        return self

    def decision_cells(self, X: PointsArg) -> NDArray[np.bool_]:
        """The released bit h(x) ∈ {0, 1} of each row's cell (the same on every call)."""
        self._check_fitted()
        self.check_n_features(X)
        points = self._cell_points(_rows(X), self.lattice_, self.centres_)
        return self.histogram_.decision_cells(points)

    def grid_labels(self) -> NDArray[np.int64]:
        """Every lattice cell's bit, shape (m,)*d (unit-cube lattice only; for exact error)."""
        self._check_fitted()
        if self.lattice_ is None:
            raise ValueError("candidates: a user packing has no regular grid of labels")
        return self.histogram_.grid_labels()

    def cell_of(self, X: PointsArg) -> NDArray[np.int64]:
        """The cell id of each row: flat lattice index, or index into ``centres_``."""
        self._check_fitted()
        self.check_n_features(X)
        X = _rows(X)
        if self.lattice_ is not None:
            return self.lattice_.cell_index(np.clip(X, 0.0, 1.0) if self.clip else X)
        assert self.centres_ is not None
        return nearest_centre(X, self.centres_, self.metric)[0]

    def release_law(self, X: PointsArg, y: LabelsArg) -> list[Fraction | float]:
        """Exact P(h_V = 1) for every cell V of the partition the data (X, y) gets.

        The hypothesis law is their product, independent of the model key (what the exact
        verifier enumerates). Cells are ordered as ``cell_of`` numbers them.
        """
        check_constructor_params(self)
        X = _rows(X)
        labels, _ = _binary_labels(y, X.shape[0], "X", stacklevel=5)
        lattice, centres, _, cells = self._partition(*X.shape)
        inner_m = lattice.cells_per_axis if lattice is not None else cells
        assert inner_m is not None
        return self._inner(inner_m).release_law(self._cell_points(X, lattice, centres), labels)


# --- PCL2b ------------------------------------------------------------------------------------


@example(__call__={"epsilon": 1.0})
@checked
def release_histogram(
    epsilon: OptionalEpsilonArg = None,
    delta: HistogramDeltaArg = 1e-6,
    idealised: FlagArg = False,
    *,
    base: OptionalBaseArg = None,
) -> StabilityHistogram:
    """The (ε, δ) stability histogram (Alg 1) PCL2b runs twice, over unbounded cell ids.

    Exact (default): ``epsilon`` or a rational ``base`` = e^{−ε/2} (exact rational laws for the
    verifier); ``idealised=True``: the paper's Lap(2/ε) and threshold, assuming ideal reals.
    """
    if not idealised:
        return StabilityHistogram(None, epsilon, delta, base=base)
    if base is not None:
        raise ValueError("base: the idealised (paper) histogram takes epsilon")
    return StabilityHistogram(None, epsilon, delta, idealised=True)


def _cell_release_law(
    hist: StabilityHistogram, count: int, ones: int, cap: int
) -> dict[tuple[Any, Any], Fraction | float]:
    """Exact law of one cell's release (ĉ_j, ŷ_j) with count c_j and c¹_j label-1 points.

    The two histograms draw independent noise, so the law is the product of the two
    ``cell_pmf`` laws (values 0, τ..cap−1 and the lumped tail ≥ cap; lumping is exact for
    privacy checks when cap ≥ every count compared, see ``StabilityHistogram.cell_pmf``).
    """
    if not 0 <= ones <= count:
        raise ValueError(f"ones: must be in [0, count={count}], got {ones}")
    law_c = hist.cell_pmf(count, cap)
    law_y = hist.cell_pmf(ones, cap)
    return {(a, b): pa * pb for a, pa in law_c.items() for b, pb in law_y.items()}


@example(__call__={"counts": np.array([0.0, 9.0, 12.0]), "ones": np.array([0.0, 5.0, 7.0])})
@checked
def hypothesis_bits(counts: ReleasedArg, ones: ReleasedArg) -> NDArray[np.bool_]:
    """h = 1[min(ŷ, ĉ) > ĉ/2] per cell (Alg 5 L562–563); ĉ = 0 gives 0 (L579)."""
    counts, ones = _rows(counts), _rows(ones)
    if counts.shape != ones.shape:
        raise ValueError(f"ones: {ones.shape[0]} released counts for {counts.shape[0]} cells")
    return _hypothesis_bits(counts, ones)


def _hypothesis_bits(counts: NDArray[Any], ones: NDArray[Any]) -> NDArray[np.bool_]:
    c = np.asarray(counts, dtype=np.float64)
    o = np.asarray(ones, dtype=np.float64)
    return np.asarray(np.minimum(o, c) > c / 2.0)


def _row_keys(coords: NDArray[np.int64]) -> NDArray[Any]:
    """Each integer row as one opaque sortable key (bytes of the row): sort, unique, search."""
    rows = np.ascontiguousarray(coords, dtype=np.int64)
    return rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).ravel()


_XB = np.array([[0.1, 0.2], [0.15, 0.3], [0.12, 0.25], [0.7, 0.8], [0.72, 0.81], [0.9, 0.6]])
_YB = np.array([1, 1, 1, 0, 0, 1])


@example(
    every={"X": _XB, "y": _YB},
    __init__={"epsilon": 1.0, "delta": 0.2, "radius": 0.5, "random_state": 0},
    fit={},
    predict={},
    decision_cells={},
    score={},
    cell_statistics={},
    release_law={},
)
class PrivateUnboundedClassifier(BinaryCellClassifier):
    """PCL2b (seed 000 Alg 5): (2ε, 2δ)-DP partition rule on unbounded 𝒳 ⊂ ℝ^d.

    Parameters: ``epsilon``, ``delta`` — of **each** of the two stability histograms (δ ∈ (0, 1));
    the whole learner is (2ε, 2δ)-DP (Thm A.14), stated in ``privacy_``. ``idealised``: False
    (exact, default) or True (the paper's continuous noise). ``radius``: cube side r (None:
    n^{−1/(4d)}; fix it for add/remove neighbours). ``random_state``: None, int or numpy Generator.

    Cells are the cubes [i r, (i+1) r)^d, i ∈ ℤ^d (Voronoi cells of the cubic lattice anchored at
    0, an r-packing and (r√d/2)-cover). Only occupied cells are touched (O(n log n) for the sort).
    Fitted: ``cells_`` (integer coordinates of every cell with ĉ > 0 or ŷ > 0, i.e. the whole
    release), ``counts_`` (ĉ), ``ones_`` (ŷ), ``cell_bits_`` (h), ``threshold_`` (τ),
    ``radius_``, ``lattice_``, ``privacy_``, ``classes_``, ``n_features_in_``. All other cells
    predict 0. The noise is drawn once in ``fit``: the model is one fixed function.
    """

    _fitted_attribute = "cells_"

    def __init__(
        self,
        epsilon: EpsilonArg = 1.0,
        delta: HistogramDeltaArg = 1e-6,
        idealised: FlagArg = False,
        radius: OptionalRadiusArg = None,
        random_state: RandomStateArg = None,
    ) -> None:
        self.epsilon = epsilon
        self.delta = delta
        self.idealised = idealised
        self.radius = radius
        self.random_state = random_state

    def _histogram(self) -> StabilityHistogram:
        if 2 * float(self.epsilon) > MAX_EPSILON:  # the whole learner is (2ε, 2δ)-DP
            raise ValueError(
                f"epsilon: the total 2·epsilon of the two releases must be <= {MAX_EPSILON}, "
                f"got epsilon={self.epsilon!r}"
            )
        return release_histogram(self.epsilon, self.delta, self.idealised)

    def _lattice(self, n: int, d: int) -> CubicLattice:
        r = float(math.pow(n, -1.0 / (4 * d))) if self.radius is None else float(self.radius)
        return CubicLattice(r, d)

    def cell_statistics(
        self, X: PointsArg, y: LabelsArg
    ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
        """(coordinates of the occupied cells, their counts c_j, their label-1 counts c¹_j).

        Exact, not private (the input of the two histograms); cells in sorted key order.
        """
        check_constructor_params(self)
        X = _rows(X)
        labels, _ = _binary_labels(y, X.shape[0], "X", stacklevel=5)
        coords, counts, ones, _ = self._statistics(X, labels, self._lattice(*X.shape))
        return coords, counts, ones

    @staticmethod
    def _statistics(
        X: NDArray[np.float64], labels: NDArray[np.bool_], lattice: CubicLattice
    ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[Any]]:
        coords = lattice.cell_coords(X)
        keys, first, inverse, counts = np.unique(
            _row_keys(coords), return_index=True, return_inverse=True, return_counts=True
        )
        ones = np.bincount(inverse.ravel(), weights=labels, minlength=keys.size)
        return coords[first], counts.astype(np.int64), ones.astype(np.int64), keys

    def release_law(
        self, X: PointsArg, y: LabelsArg, cap: OptionalCapArg = None
    ) -> dict[tuple[Any, ...], Fraction | float]:
        """Exact law of the release ``fit`` draws (discrete path): the outcome is the sorted
        tuple of (cell coordinates, ĉ, ŷ) over the occupied cells with (ĉ, ŷ) ≠ (0, 0) — a
        product over the occupied cells of the law of (ĉ_j, ŷ_j), itself the product of the
        two histograms' ``cell_pmf`` (independent noises). Released values ≥ ``cap`` are the
        lumped outcome ``TAIL`` (None: one above the largest count and τ; exact for privacy
        comparisons when cap ≥ every count compared). At most ``LIMITS["outcomes"]``
        outcomes, refused before they are listed. The hypothesis is a function of the release.
        """
        check_constructor_params(self)
        if self.idealised:
            raise ValueError("idealised: the continuous release has no pmf")
        X = _rows(X)
        labels, _ = _binary_labels(y, X.shape[0], "X", stacklevel=5)
        hist = self._histogram()
        coords, counts, ones, _ = self._statistics(X, labels, self._lattice(*X.shape))
        top = max(int(hist.threshold), int(counts.max())) + 1
        cap = top if cap is None else cap
        per_cell = cap - int(hist.threshold) + 2  # 0, τ..cap−1, the tail
        outcomes = 1
        for o in ones.tolist():
            outcomes *= per_cell * (per_cell if o > 0 else 1)
            if outcomes > LIMITS["outcomes"]:
                raise ValueError(
                    f"X: the law of {counts.size} occupied cells has more than "
                    f"{LIMITS['outcomes']} outcomes (dpspec.validation.LIMITS['outcomes'])"
                )
        out: dict[tuple[Any, ...], Fraction | float] = {(): 1}
        for cell, c, o in zip(coords, counts.tolist(), ones.tolist(), strict=True):
            key = tuple(int(v) for v in cell)
            law = _cell_release_law(hist, c, o, cap)
            out = {
                (*k, (key, a, b)) if (a, b) != (0, 0) else k: p * pb
                for k, p in out.items()
                for (a, b), pb in law.items()
            }
        return out

    def fit(self, X: PointsArg, y: LabelsArg) -> PrivateUnboundedClassifier:
        """Release the two stability histograms (counts, label-1 counts) of the occupied cells
        and the bit h = 1[min(ŷ, ĉ) > ĉ/2] of every released cell (Alg 5)."""
        X = _rows(X)
        labels, self.classes_ = _binary_labels(y, X.shape[0], "X", stacklevel=5)
        hist = self._histogram()
        lattice = self._lattice(*X.shape)
        coords, counts, ones, keys = self._statistics(X, labels, lattice)
        rng = np.random.default_rng(_model_key(self.random_state))
        c_hat = hist.release_counts(counts, rng)  # independent noise for the two releases
        y_hat = hist.release_counts(ones, rng)
        keep = (c_hat > 0) | (y_hat > 0)
        self.cells_ = coords[keep]
        self._keys_ = keys[keep]  # sorted: np.unique sorts, masking keeps the order
        self.counts_, self.ones_ = c_hat[keep], y_hat[keep]
        self.cell_bits_ = _hypothesis_bits(self.counts_, self.ones_)
        self.threshold_ = hist.threshold
        self.lattice_, self.radius_ = lattice, lattice.spacing
        level = hist.privacy
        self.privacy_ = PrivacyLevel(
            epsilon=2 * level.epsilon,
            ratio=level.ratio**2,
            delta=2 * level.delta,
            exact_sampler=level.exact_sampler,
        )
        self.n_features_in_ = X.shape[1]
        return self

    def decision_cells(self, X: PointsArg) -> NDArray[np.bool_]:
        """h(x) for each row: the bit of its cell if released, else 0."""
        self._check_fitted()
        self.check_n_features(X)
        query = _row_keys(self.lattice_.cell_coords(X))
        out = np.zeros(query.size, dtype=np.bool_)
        if self._keys_.size == 0:
            return out
        pos = np.minimum(np.searchsorted(self._keys_, query), self._keys_.size - 1)
        found = self._keys_[pos] == query
        out[found] = self.cell_bits_[pos[found]]
        return out
