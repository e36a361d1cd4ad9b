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
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.learners.estimator import EstimatorProtocol, NotFittedError, model_key
from dpspec.mechanisms.stability_histogram import StabilityHistogram
from dpspec.validation import (
    as_finite_array,
    check_count,
    check_delta,
    check_epsilon,
    check_flag,
    check_limit,
    check_positive,
)

#: Largest |x|/r for which ⌊x/r⌋ is computed exactly enough and fits an int64 comfortably.
_MAX_CELL_INDEX = 2.0**52
#: Packed row keys must stay below this (int64 headroom).
_MAX_PACKED = 2**62


def side_for(n: int, d: int) -> float:
    """r = n^{−1/(2d)}: the side of PCDE's cubes for n points in ℝ^d (Alg 3, L251)."""
    n = check_count(n, "n")
    d = check_count(d, "d")
    return float(n ** (-1.0 / (2 * d)))


def check_points(X: Any, name: str = "X", d: int | None = None) -> NDArray[np.float64]:
    """A dense, finite, 2-D float array of points in ℝ^d (1-D input is rejected, as sklearn)."""
    if hasattr(X, "toarray") or hasattr(X, "tocsr"):
        raise ValueError(f"{name}: sparse input is not supported; pass a dense array")
    arr = as_finite_array(X, name, ndim=2).astype(np.float64)
    if d is not None and arr.shape[1] != d:
        raise ValueError(f"{name}: expected {d} features, got {arr.shape[1]}")
    return arr


def cube_ids(X: NDArray[np.float64], side: float, name: str = "X") -> NDArray[np.int64]:
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


def row_keys(rows: NDArray[np.int64]) -> NDArray[np.int64]:
    """Integer keys with key_a == key_b ⇔ row_a == row_b, ordered like the rows (lexicographic).

    Rows are packed as mixed-radix numbers over their bounding box when that fits in 62 bits
    (O(n d)); otherwise the keys are the ranks of the rows from ``np.unique(axis=0)``.
    """
    if rows.ndim != 2:
        raise ValueError(f"rows: expected a 2-D integer array, got shape {rows.shape}")
    if rows.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    lo = rows.min(axis=0)
    span = rows.max(axis=0) - lo + 1
    total = 1
    for s in span.tolist():
        total *= int(s)
    if total < _MAX_PACKED:
        keys = np.zeros(rows.shape[0], dtype=np.int64)
        for j in range(rows.shape[1]):  # Horner over the d axes: O(n d), vectorised
            keys = keys * span[j] + (rows[:, j] - lo[j])
        return keys
    _, inverse = np.unique(rows, axis=0, return_inverse=True)
    return inverse.reshape(-1).astype(np.int64)


def occupied_cubes(ids: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """(distinct cube rows in lexicographic order, their counts) — only occupied cubes."""
    keys = row_keys(ids)
    _, first, counts = np.unique(keys, return_index=True, return_counts=True)
    return ids[first], counts.astype(np.int64)


def match_rows(table: NDArray[np.int64], query: NDArray[np.int64]) -> NDArray[np.int64]:
    """For each query row, its index in ``table`` (rows distinct), or −1 when absent."""
    k = table.shape[0]
    if k == 0:
        return np.full(query.shape[0], -1, dtype=np.int64)
    keys = row_keys(np.concatenate([table, query], axis=0))
    tk, qk = keys[:k], keys[k:]
    order = np.argsort(tk, kind="stable")
    pos = np.minimum(np.searchsorted(tk[order], qk), k - 1)
    found = tk[order][pos] == qk
    return np.where(found, order[pos], -1).astype(np.int64)


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
        epsilon: float = 1.0,
        delta: float = 1e-6,
        idealised: bool = False,
        side: float | None = None,
        random_state: Any = None,
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
        idealised = check_flag(self.idealised, "idealised")
        eps = check_epsilon(self.epsilon)
        check_delta(self.delta, allow_zero=False)
        return StabilityHistogram(bins=None, epsilon=eps, delta=self.delta, idealised=idealised)

    def _side(self, n: int, d: int) -> float:
        side = side_for(n, d) if self.side is None else check_positive(self.side, "side")
        volume = side**d
        if not (volume > 0.0 and np.isfinite(volume) and np.isfinite(1.0 / volume)):
            raise ValueError(
                f"side: side^d = {side!r}^{d} under- or overflows a float (the cube volume)"
            )
        return side

    def fit(self, X: Any, y: Any = None) -> PrivateHistogramDensity:
        """Release the cube counts of X (y is ignored) and build the normalised f̂."""
        return self._fit(X, "X")

    def _fit(self, X: Any, name: str) -> PrivateHistogramDensity:
        """``fit`` with the data's parameter name for error messages (X, or X_unlabeled)."""
        X = check_points(X, name)
        n, d = X.shape
        histogram = self.make_histogram()
        side = self._side(n, d)
        key = model_key(self.random_state)
        cells, counts = occupied_cubes(cube_ids(X, side, name))
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
    def pdf(self, X: Any) -> NDArray[np.float64]:
        """f̂(x) = ĉ(C(x))/(Σ_j ĉ_j r^d) for each row of X (0 outside the released cubes)."""
        self._check_fitted()
        self.check_n_features(X)
        X = check_points(X, d=self.n_features_in_)
        idx = match_rows(self.released_cells_, cube_ids(X, self.side_))
        out = np.zeros(X.shape[0], dtype=np.float64)
        hit = idx >= 0
        out[hit] = self.density_values_[idx[hit]]
        return out

    def score_samples(self, X: Any) -> NDArray[np.float64]:
        """log f̂(x) for each row of X (−inf outside the released cubes), as sklearn's
        ``KernelDensity.score_samples``."""
        density = self.pdf(X)
        out = np.full(density.shape, -np.inf)
        np.log(density, out=out, where=density > 0)
        return out

    def score(self, X: Any, y: Any = None) -> float:
        """Σ_i log f̂(x_i), the log-likelihood of X under f̂ (−inf if a row has f̂ = 0)."""
        return float(np.sum(self.score_samples(X)))

    def total_mass(self) -> float:
        """∫ f̂ = Σ_j f̂_j · r^d over the released cubes (1 up to float rounding)."""
        self._check_fitted()
        volume = self.side_**self.n_features_in_
        return math.fsum((self.density_values_ * volume).tolist())

    def cube_probabilities(self) -> NDArray[np.float64]:
        """P_f̂(cube j) = ĉ_j / Σ ĉ for the released cubes (the law ``sample`` picks cubes by)."""
        self._check_fitted()
        return np.asarray(self.released_counts_ / self.released_counts_.sum())

    def sample(self, n_samples: int = 1, random_state: Any = None) -> NDArray[np.float64]:
        """``n_samples`` i.i.d. points from f̂ (scikit-learn's density ``sample``): a released
        cube with probability ∝ ĉ, then uniform in it; ``random_state`` None, an int or a numpy
        Generator (used as is).

        Post-processing of the release (no privacy cost). A point whose coordinates round onto
        the far face of its cube (probability ~1e−16) is moved to the cube's centre, so every
        sample lies in a released cube under :func:`cube_ids`.
        """
        self._check_fitted()
        rng = (
            random_state
            if isinstance(random_state, np.random.Generator)
            else np.random.default_rng(model_key(random_state))
        )
        n = check_count(n_samples, "n_samples")
        check_limit(n * self.n_features_in_, "n_samples", "draws")
        choice = rng.choice(self.released_cells_.shape[0], size=n, p=self.cube_probabilities())
        cells = self.released_cells_[choice]
        points = (cells + rng.random(cells.shape)) * self.side_
        stray = np.any(cube_ids(points, self.side_) != cells, axis=1)
        if np.any(stray):
            points[stray] = (cells[stray] + 0.5) * self.side_
        return points

    # -- exact law of the release (discrete path) -------------------------------------------
    def release_law(self, X: Any, cap: int | None = None) -> dict[tuple[Any, ...], float]:
        """Exact law of PCDE's release on X: outcome = sorted ((cube id), ĉ) of released cubes.

        Product over occupied cubes of :meth:`StabilityHistogram.cell_pmf` of
        :meth:`make_histogram` (released values ≥ ``cap`` lumped into ``TAIL``; exact for
        privacy comparisons when cap ≥ every count compared, see ``cell_pmf``). f̂ is a
        function of this release, so a privacy bound for it holds for f̂ (post-processing).
        Discrete path only; the grid must be public (``side`` set, or n fixed by the caller).
        """
        X = check_points(X)
        n, d = X.shape
        histogram = self.make_histogram()
        cells, counts = occupied_cubes(cube_ids(X, self._side(n, d)))
        top = max(int(histogram.threshold), int(counts.max())) + 1
        cap = top if cap is None else check_count(cap, "cap")
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
