"""PCDE — the private universally consistent histogram density estimator (seed 000 Alg 3).

``000_dff3c4dc97cf0e21.txt:L249–256``: partition ℝ^d into cubes of side r = n^{−1/(2d)} (a fixed
grid anchored at 0: cube id C(x) = ⌊x/r⌋ coordinate-wise), release the cube counts with the
stability-based histogram (Alg 1, L125–147) and return f̂(x) = ĉ(C(x))/(n r^d).

* Thm 4.2 (L260): (ε, δ)-DP — the histogram is (ε, δ)-DP, the rest is post-processing.
* Thm 4.3 (L264): universally consistent in L1, E ∫|f − f̂| → 0 for every density f on ℝ^d.
* Remark 4.1 (L258): f̂ must be made a density. Released counts are ≥ the threshold τ ≥ 1 > 0,
  so there is nothing negative to zero out; dpspec normalises by the released mass,

      f̂(x) = ĉ(C(x)) / (Σ_j ĉ_j · r^d),

  which integrates to 1 exactly (the sum runs over the released cubes). By the footnote of
  L258: if w = ‖f − f̃‖₁ for the unnormalised f̃ ≥ 0, then ‖f − f̂‖₁ ≤ w + |1 − ∫f̃| ≤ 2w.
  When no cube is released there is no density to return: ``fit`` raises a ValueError.

Privacy of the implementation:

* Default (``idealised=False``, **exact**): the stability histogram of
  :mod:`dpspec.mechanisms.stability_histogram` with integer discrete-Laplace noise
  (P(Z = z) ∝ e^{−ε|z|/2}) and its exact threshold τ (the smallest integer with
  (1 + e^ε)·P(Z ≥ τ) ≤ δ): (ε, δ)-DP under substitution with only integer arithmetic touching
  the randomness. :meth:`PrivateHistogramDensity.release_law` gives the exact law of the
  release on given data, from the very histogram object ``fit`` samples with.
* ``idealised=True``: the paper's continuous Lap(2/ε) with τ = (2/ε)ln(2/δ) + 1 (Alg 1, L137),
  drawn in floating point — **idealised** (assumes real arithmetic; ``privacy_.exact_sampler``
  is False).

The grid: r = n^{−1/(2d)} depends on n only, which substitution neighbours share, so the grid
is public; pass ``side`` for a grid fixed in advance (needed under add/remove). δ must decay
with n for the guarantee to mean anything: δ(n) ≪ 1/n, and Thm 1.7 (consistency of private
learners with (ε, δ)) asks δ(n) = ω(2^{−√n}) — e.g. δ = n^{−2}. Thm 4.3's bound
E∫|f_S − f̂_S| ≲ T^d log(1/δ)/(ε√n) + τ'/ε (eqs. 5–7) needs log(1/δ) = o(√n).

Cost: O(n d) to grid, O(n log n) for the distinct cubes (one np.unique over packed integer keys,
or over rows when the keys do not fit in 63 bits), memory O(n d + #occupied cubes); the fitted
model stores only the released cubes.
"""

from __future__ import annotations

import math
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray

from dpspec._rows import box, distinct_rows, packed
from dpspec.learners.estimator import (
    EstimatorProtocol,
    NotFittedError,
    OptionalLabelsArg,
    PointsArg,
    _dense,
    _model_key,
    _rows,
)
from dpspec.learners.pcl import DimensionArg
from dpspec.mechanisms.stability_histogram import HistogramDeltaArg, StabilityHistogram
from dpspec.validation import (
    LIMITS,
    EpsilonArg,
    FlagArg,
    GeneratorArg,
    Integer,
    RandomStateArg,
    Real,
    SampleSizeArg,
    SizeArg,
    as_finite_array,
    check_constructor_params,
    check_limit,
    checked,
    example,
)

#: Largest |x|/r for which ⌊x/r⌋ is computed exactly enough and fits an int64 comfortably.
_MAX_CELL_INDEX = 2.0**52


#: A cube side r > 0, or None (n^{−1/(2d)} from the sample size).
OptionalSideArg = Annotated[float | None, Real(0, 1e300, lo_open=True, optional=True)]
#: The cap of the lumped tail of released counts, or None (one above τ and every count).
OptionalCapArg = Annotated[int | None, Integer(1, hi=2**14, optional=True)]


@checked
def side_for(n: SampleSizeArg, d: DimensionArg) -> float:
    """r = n^{−1/(2d)}: the side of PCDE's cubes for n points in ℝ^d (Alg 3, L251)."""
    return _side_for(n, d)


def _side_for(n: int, d: int) -> float:
    return float(n ** (-1.0 / (2 * d)))


def _check_points(X: Any, name: str = "X", d: int | None = None) -> NDArray[np.float64]:
    """A dense, finite, 2-D float array of points in ℝ^d (1-D input is rejected, as sklearn)."""
    arr = as_finite_array(_dense(X, name), name, ndim=2)
    if arr.dtype != np.float64:
        arr = arr.astype(np.float64)
    if d is not None and arr.shape[1] != d:
        raise ValueError(f"{name}: expected {d} features, got {arr.shape[1]}")
    return arr


def _cube_ids(X: NDArray[np.float64], side: float, name: str = "X") -> NDArray[np.int64]:
    """Rows ⌊x/r⌋ ∈ ℤ^d: the cube [c·r, (c + 1)·r) of the grid anchored at 0 holding each x.

    Computed as ``floor(x / r)`` in floating point: a point within rounding of a face may land
    in the neighbouring cube (0.3 / 0.1 = 2.999…), but the map x ↦ cube is one fixed public
    function used by ``fit``, ``pdf`` and ``sample`` alike, so privacy and ∫f̂ = 1 are unaffected.
    """
    # checked before dividing: x/side must neither overflow nor leave the exact int64 range
    if X.size and float(np.max(np.abs(X))) >= _MAX_CELL_INDEX * side:
        raise ValueError(
            f"{name}: coordinates too large for cubes of side {side:.3g} (|x|/side must be < 2^52)"
        )
    scaled = np.floor(X / side)
    return scaled.astype(np.int64)


def _row_keys(rows: NDArray[np.int64]) -> NDArray[np.int64]:
    """Integer keys with key_a == key_b ⇔ row_a == row_b, ordered like the rows (lexicographic).

    Rows are packed as mixed-radix numbers over their bounding box when that fits in 62 bits
    (O(n d)); otherwise the keys are the ranks of the rows from ``np.unique(axis=0)``.
    """
    if rows.ndim != 2:
        raise ValueError(f"rows: expected a 2-D integer array, got shape {rows.shape}")
    if rows.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    found = box(rows)
    if found is not None:
        return packed(rows, *found)
    _, inverse = np.unique(rows, axis=0, return_inverse=True)
    return inverse.reshape(-1).astype(np.int64)


def _occupied_cubes(ids: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """(distinct cube rows in lexicographic order, their counts) — only occupied cubes."""
    return distinct_rows(ids)


def _match_rows(table: NDArray[np.int64], query: NDArray[np.int64]) -> NDArray[np.int64]:
    """For each query row, its index in ``table`` (rows distinct), or −1 when absent."""
    k = table.shape[0]
    if k == 0:
        return np.full(query.shape[0], -1, dtype=np.int64)
    keys = _row_keys(np.concatenate([table, query], axis=0))
    tk, qk = keys[:k], keys[k:]
    order = np.argsort(tk, kind="stable")
    pos = np.minimum(np.searchsorted(tk[order], qk), k - 1)
    found = tk[order][pos] == qk
    return np.where(found, order[pos], -1).astype(np.int64)


_X = np.array([[0.1], [0.2], [0.15], [0.12], [0.18], [0.9], [0.95], [0.11], [0.13], [0.14]])


@example(
    every={"X": _X},
    __init__={"epsilon": 2.0, "delta": 0.2, "side": 1.0, "random_state": 0},
    fit={},
    pdf={},
    score={},
    score_samples={},
    total_mass={},
    cube_probabilities={},
    make_histogram={},
    sample_points={"size": 4, "rng": np.random.default_rng(0)},
    release_law={},
)
class PrivateHistogramDensity(EstimatorProtocol):
    """PCDE (seed 000 Alg 3, L249–256): (ε, δ)-DP L1-consistent density estimator on ℝ^d.

    Parameters: ``epsilon`` (ε > 0), ``delta`` (δ ∈ (0, 1); must decay with n, see the module
    docstring), ``idealised`` (False: exact discrete noise, default; True: the paper's continuous
    noise, assumes ideal reals), ``side`` (None: r = n^{−1/(2d)}; a number fixes the grid in
    advance), ``random_state`` (None, int or numpy Generator: seeds the histogram noise).

    Fitted attributes: ``released_cells_`` (k, d) cube ids ⌊x/r⌋ of the released cubes,
    ``released_counts_`` (k,) their released counts ĉ_j > 0, ``density_values_`` (k,) the
    value of f̂ on each, ``side_``, ``threshold_``, ``delta_``, ``privacy_``, ``histogram_``.
    """

    _estimator_type = "density_estimator"

    def __init__(
        self,
        epsilon: EpsilonArg = 1.0,
        delta: HistogramDeltaArg = 1e-6,
        idealised: FlagArg = False,
        side: OptionalSideArg = None,
        random_state: RandomStateArg = None,
    ) -> None:
        self.epsilon = epsilon
        self.delta = delta
        self.idealised = idealised
        self.side = side
        self.random_state = random_state

    # -- the mechanism --------------------------------------------------------------------
    def make_histogram(self) -> StabilityHistogram:
        """The stability histogram (Alg 1) PCDE releases its cube counts with.

        ``fit`` samples with this object and :meth:`release_law` computes with it, so the exact
        privacy check sees the threshold and the noise law the estimator uses.
        """
        check_constructor_params(self)
        return self._histogram()

    def _histogram(self) -> StabilityHistogram:
        return StabilityHistogram(
            bins=None, epsilon=float(self.epsilon), delta=self.delta, idealised=self.idealised
        )

    def _side(self, n: int, d: int) -> float:
        side = _side_for(n, d) if self.side is None else float(self.side)
        volume = side**d
        if not (volume > 0.0 and np.isfinite(volume) and np.isfinite(1.0 / volume)):
            raise ValueError(
                f"side: side^d = {side!r}^{d} under- or overflows a float (the cube volume)"
            )
        return side

    def fit(self, X: PointsArg, y: OptionalLabelsArg = None) -> PrivateHistogramDensity:
        """Release the cube counts of X (y is ignored) and build the normalised f̂."""
        return self._fit(X, "X")

    def _fit(self, X: Any, name: str) -> PrivateHistogramDensity:
        """``fit`` with the data's parameter name for error messages (X, or X_unlabeled)."""
        X = _check_points(X, name)
        n, d = X.shape
        histogram = self.make_histogram()  # the object release_law computes with
        side = self._side(n, d)
        key = _model_key(self.random_state)
        cells, counts = _occupied_cubes(_cube_ids(X, side, name))
        released = histogram.release_counts(counts, np.random.default_rng(key))
        keep = released > 0  # zero counts stay zero; released counts are ≥ τ ≥ 1 > 0
        if not np.any(keep):
            # no private statistic in the message: the number of occupied cubes is withheld;
            # n is public under substitution (the grid side r = n^(-1/(2d)) is built from it)
            raise ValueError(
                f"{name}: no cube was released from {n} sample(s) — every noisy count fell "
                "below the threshold "
                f"τ = {float(histogram.threshold):.4g} set by epsilon={self.epsilon!r}, "
                f"delta={self.delta!r}; no density can be returned "
                "(use more data, a larger side, a larger epsilon or delta)"
            )
        self.histogram_ = histogram
        self.privacy_ = histogram.privacy
        self.threshold_ = histogram.threshold
        self.delta_ = float(self.delta)
        self.side_, self.n_features_in_ = side, d
        self.released_cells_ = cells[keep]
        self.released_counts_ = released[keep]
        mass = math.fsum(self.released_counts_.tolist())
        self.density_values_ = self.released_counts_ / (mass * side**d)
        return self

    def _check_fitted(self) -> None:
        if not hasattr(self, "released_cells_"):
            raise NotFittedError("self: this PrivateHistogramDensity is not fitted; call fit")

    # -- the density ------------------------------------------------------------------------
    def pdf(self, X: PointsArg) -> NDArray[np.float64]:
        """f̂(x) = ĉ(C(x))/(Σ_j ĉ_j r^d) for each row of X (0 outside the released cubes)."""
        self._check_fitted()
        self.check_n_features(X)
        X = _check_points(X, d=self.n_features_in_)
        idx = _match_rows(self.released_cells_, _cube_ids(X, self.side_))
        out = np.zeros(X.shape[0], dtype=np.float64)
        hit = idx >= 0
        out[hit] = self.density_values_[idx[hit]]
        return out

    def score_samples(self, X: PointsArg) -> NDArray[np.float64]:
        """log f̂(x) for each row of X (−inf outside the released cubes), as sklearn's
        ``KernelDensity.score_samples``."""
        density = self.pdf(X)
        out = np.full(density.shape, -np.inf)
        np.log(density, out=out, where=density > 0)
        return out

    def score(self, X: PointsArg, y: OptionalLabelsArg = None) -> float:
        """Σ_i log f̂(x_i), the log-likelihood of X under f̂ (−inf if a row has f̂ = 0)."""
        return float(np.sum(self.score_samples(X)))

    def total_mass(self) -> float:
        """∫ f̂ = Σ_j f̂_j · r^d over the released cubes (1 up to float rounding)."""
        self._check_fitted()
        volume = self.side_**self.n_features_in_
        return math.fsum((self.density_values_ * volume).tolist())

    def cube_probabilities(self) -> NDArray[np.float64]:
        """P_f̂(cube j) = ĉ_j / Σ ĉ for the released cubes (the law ``sample_points`` picks
        cubes by)."""
        self._check_fitted()
        return np.asarray(self.released_counts_ / self.released_counts_.sum())

    def sample_points(self, size: SizeArg, rng: GeneratorArg) -> NDArray[np.float64]:
        """``size`` i.i.d. points from f̂: a released cube with probability ∝ ĉ, then uniform in
        it (at most ``LIMITS["draws"]`` coordinates, refused before any work).

        Post-processing of the release (no privacy cost). A point whose coordinates round onto
        the far face of its cube (probability ~1e−16) is moved to the cube's centre, so every
        sample lies in a released cube under the grid's cube map.
        """
        self._check_fitted()
        check_limit(size * self.n_features_in_, "size", "draws")
        choice = rng.choice(self.released_cells_.shape[0], size=size, p=self.cube_probabilities())
        cells = self.released_cells_[choice]
        points = (cells + rng.random(cells.shape)) * self.side_
        stray = np.any(_cube_ids(points, self.side_) != cells, axis=1)
        if np.any(stray):
            points[stray] = (cells[stray] + 0.5) * self.side_
        return points

    def sample(self, n_samples: SizeArg = 1, random_state: RandomStateArg = None) -> Any:
        """Deprecated alias of :meth:`sample_points` (0.2's scikit-learn-style signature)."""
        import warnings

        warnings.warn(
            "PrivateHistogramDensity.sample(n_samples, random_state) is deprecated; use "
            "sample_points(size, rng)",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.sample_points(n_samples, np.random.default_rng(random_state))

    sample.__deprecated_alias_of__ = "sample_points"  # type: ignore[attr-defined]

    # -- exact law of the release (discrete path) -------------------------------------------
    def release_law(
        self, X: PointsArg, y: OptionalLabelsArg = None, cap: OptionalCapArg = None
    ) -> dict[tuple[Any, ...], float]:
        """Exact law of PCDE's release on X: outcome = sorted ((cube id), ĉ) of released cubes.

        Product over occupied cubes of :meth:`StabilityHistogram.cell_pmf` of
        :meth:`make_histogram` (released values ≥ ``cap`` lumped into ``TAIL``; exact for
        privacy comparisons when cap ≥ every count compared, see ``cell_pmf``). f̂ is a
        function of this release, so a privacy bound for it holds for f̂ (post-processing).
        Discrete path only; the grid must be public (``side`` set, or n fixed by the caller).
        At most ``LIMITS["outcomes"]`` outcomes, refused before they are listed.
        """
        histogram = self.make_histogram()
        if self.idealised:
            raise ValueError("idealised: the continuous release has no pmf")
        X = _rows(X)
        n, d = X.shape
        cells, counts = _occupied_cubes(_cube_ids(X, self._side(n, d)))
        top = max(int(histogram.threshold), int(counts.max())) + 1
        cap = top if cap is None else cap
        per_cube = cap - int(histogram.threshold) + 2  # 0, τ..cap−1, the tail
        if counts.size * math.log(per_cube) > math.log(LIMITS["outcomes"]):
            raise ValueError(
                f"X: the law of {counts.size} occupied cubes with {per_cube} released values "
                f"each has more than {LIMITS['outcomes']} outcomes "
                "(dpspec.validation.LIMITS['outcomes'])"
            )
        laws = [histogram.cell_pmf(int(c), cap) for c in counts]
        keys = [tuple(int(v) for v in row) for row in cells]
        out: dict[tuple[Any, ...], float] = {(): 1.0}
        for cell, law in zip(keys, laws, strict=True):
            nxt: dict[tuple[Any, ...], float] = {}
            for outcome, p in out.items():
                for value, pv in law.items():
                    grown = outcome if value == 0 else (*outcome, (cell, value))
                    nxt[grown] = nxt.get(grown, 0.0) + p * float(pv)
            out = nxt
        return out
