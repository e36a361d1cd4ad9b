"""PCL — the private universally consistent histogram classifier (seed 000 Alg 2).

``000_dff3c4dc97cf0e21.txt:L193–200``: partition [0,1]^d into cubes of side r = n^{−1/(2d)};
for every cube C draw w_C ~ Lap(1/ε) once and output the hypothesis

    h(x) = 1[ Σ_{x_i ∈ C(x)} y_i + w_{C(x)} > |C(x)|/2 ].

Thm 3.1 (L204): ε-DP (substitution neighbours; the per-cube centred votes Σ(y − ½) have L1
sensitivity 1, L206). Thm 3.2 (L208): universally consistent.

Implementation notes:

* Cubes of side 1/m with m = ⌈n^{1/(2d)}⌉ (side ≤ r, so the cubes tile [0,1]^d exactly; the
  consistency conditions r → 0 and n r^d → ∞ still hold). The grid depends on n, which
  substitution neighbours share; pass ``cells_per_axis`` for a grid fixed in advance.
* **Every** cube has noise, empty ones too, and the hypothesis is one fixed function: cube c's
  noise is a deterministic function of (model key, c) drawn by a counter-based generator
  (``keyed_noise``), so memory is O(#non-empty cubes) and predicting x twice gives one answer.
* Default noise is exact (float-safe): h_C = 1[m_C + Z_C > 0] with m_C = 2Σy − |C| and Z_C
  discrete Laplace with P(Z = z) ∝ e^{−ε|z|/2} — the L1 sensitivity of (m_C) is 2, so this is
  ε-DP exactly (``NoisyMajorityVote``). ``idealised=True`` is the paper's continuous
  Lap(1/ε), idealised (assumes real arithmetic).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.contract import PrivacyLevel
from dpspec.learners.estimator import (
    BinaryCellClassifier,
    check_binary_labels,
    check_unit_cube,
    model_key,
)
from dpspec.learners.keyed_noise import block_size, keyed_values
from dpspec.mechanisms.base import discrete_laplace_for
from dpspec.noise import DiscreteLaplaceNoise, laplace_sf
from dpspec.validation import check_count, check_epsilon, check_flag

_MAX_CELLS = 2**62
#: Use a dense bincount over all cubes in ``fit`` when there are at most this many per point.
_DENSE_FACTOR = 4


def cells_per_axis_for(n: int, d: int) -> int:
    """m = ⌈n^{1/(2d)}⌉: cubes of side 1/m ≤ r = n^{−1/(2d)} (Alg 2, L195)."""
    return max(1, math.ceil(math.pow(n, 1.0 / (2 * d)) - 1e-12))


def cube_index(X: NDArray[np.float64], m: int) -> NDArray[np.int64]:
    """Flat index of the cube of side 1/m containing each row of X ⊂ [0,1]^d (x = 1 → last)."""
    d = X.shape[1]
    if m**d >= _MAX_CELLS:
        raise ValueError(f"cells_per_axis: {m}^{d} cubes exceed 2^62")
    coords = np.minimum((X * m).astype(np.int64), m - 1)
    flat = np.zeros(X.shape[0], dtype=np.int64)
    for j in range(d):  # Horner over the d axes: O(n d) vectorised
        flat = flat * m + coords[:, j]
    return flat


class PrivateHistogramClassifier(BinaryCellClassifier):
    """PCL (seed 000 Alg 2): ε-DP universally consistent histogram-rule classifier on [0,1]^d.

    Parameters: ``epsilon`` (ε > 0), ``idealised`` (False: exact discrete noise, default; True:
    the paper's continuous noise, assumes ideal reals), ``cells_per_axis`` (None: ⌈n^{1/(2d)}⌉),
    ``random_state`` (None, int or numpy Generator: keys the counter-based noise), ``clip``
    (False: points outside [0,1]^d are rejected; True: each coordinate is clipped into [0, 1],
    a fixed per-record map that leaves the privacy guarantee unchanged).
    """

    _fitted_attribute = "cells_"

    def __init__(
        self,
        epsilon: float = 1.0,
        idealised: bool = False,
        cells_per_axis: int | None = None,
        random_state: Any = None,
        clip: bool = False,
    ) -> None:
        self.epsilon = epsilon
        self.idealised = idealised
        self.cells_per_axis = cells_per_axis
        self.random_state = random_state
        self.clip = clip

    # -- the noise of one cube, a fixed function of (key, cube) -------------------------------
    def _noise_law(self) -> tuple[DiscreteLaplaceNoise | None, PrivacyLevel]:
        eps = check_epsilon(self.epsilon)
        if check_flag(self.idealised, "idealised"):
            return None, PrivacyLevel(eps, math.exp(eps), 0, exact_sampler=False)
        law, level = discrete_laplace_for(Fraction(2), eps, None)
        return law, level

    def _block(self) -> int:
        """Noise block size, fixed in ``fit`` from the grid size and the number of non-empty
        cubes (the law of every cube's noise is the same for any block size)."""
        return int(self.block_)

    def _noise(self, size: int, g: np.random.Generator) -> NDArray[Any]:
        """``size`` i.i.d. draws of one cube's noise: Z (exact) or w ~ Lap(1/ε) (idealised)."""
        if self.noise_law_ is not None:
            return self.noise_law_.sample(size, g)
        return g.laplace(0.0, 1.0 / float(self.epsilon), size)

    def _decide(self, margins: NDArray[np.int64], noise: NDArray[Any]) -> NDArray[np.bool_]:
        """h_C = 1[m_C + Z_C > 0] (exact) or 1[m_C/2 + w_C > 0] (idealised; Σy + w > |C|/2)."""
        if self.noise_law_ is not None:
            return np.asarray(margins + noise > 0)
        return np.asarray(margins / 2.0 + noise > 0)

    def _bits(self, cells: NDArray[np.int64], margins: NDArray[np.int64]) -> NDArray[np.bool_]:
        """h_C for the given cubes with margins m_C = 2Σy − |C| (0 for empty cubes)."""
        z = keyed_values(self.key_, cells, self._noise, self._block())
        return self._decide(margins, z)

    def _margins(
        self, X: NDArray[np.float64], labels: NDArray[Any]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """(non-empty cubes, their margins m_C = 2Σy − |C|) on the grid of ``fit`` (``m_``)."""
        flat = cube_index(X, self.m_)
        total = self.m_**self.n_features_in_
        if total <= _DENSE_FACTOR * X.shape[0]:  # dense counting is O(n + m^d) = O(n) here
            counts = np.bincount(flat, minlength=total)
            ones = np.bincount(flat, weights=labels, minlength=total)
            cells = np.flatnonzero(counts).astype(np.int64)
            return cells, (2 * ones[cells] - counts[cells]).astype(np.int64)
        cells, inverse = np.unique(flat, return_inverse=True)
        return cells, np.bincount(inverse, weights=2 * labels - 1).astype(np.int64)

    def _setup(self, X: Any, y: Any) -> tuple[NDArray[np.float64], NDArray[Any]]:
        """Checked (X, labels); sets the noise law, ``privacy_`` and the grid as ``fit`` does."""
        X = check_unit_cube(X, clip=self.clip)
        labels, self.classes_ = check_binary_labels(y, X.shape[0])
        n, d = X.shape
        self.noise_law_, self.privacy_ = self._noise_law()
        self.m_ = (
            cells_per_axis_for(n, d)
            if self.cells_per_axis is None
            else check_count(self.cells_per_axis, "cells_per_axis")
        )
        self.n_features_in_ = d
        return X, labels

    def fit(self, X: Any, y: Any) -> PrivateHistogramClassifier:
        X, labels = self._setup(X, y)
        n = X.shape[0]
        self.key_ = model_key(self.random_state)
        cells, margins = self._margins(X, labels)
        total = self.m_**self.n_features_in_
        self.cells_ = cells
        self.block_ = block_size(total, n)  # n: public, as the grid itself
        if total <= _DENSE_FACTOR * max(cells.size, 1) and total <= 2**24:
            # Few empty cubes: a table of every cube's bit is O(#non-empty) memory and makes
            # predict a single gather. Same bits as on demand: noise is a function of (key, c).
            dense_margins = np.zeros(total, dtype=np.int64)
            dense_margins[cells] = margins
            self.dense_bits_: NDArray[np.bool_] | None = self._bits(
                np.arange(total, dtype=np.int64), dense_margins
            )
            self.cell_bits_ = self.dense_bits_[cells]
        else:
            self.dense_bits_ = None
            self.cell_bits_ = self._bits(cells, margins)
        return self

    def repeated_predictions(
        self, X: Any, y: Any, probe: Any, repetitions: int, rng: np.random.Generator
    ) -> NDArray[np.bool_]:
        """Row r: ``fit(X, y).predict(probe)`` of the r-th of ``repetitions`` independent fits
        (fresh noise each), drawn in one vectorised pass: the margins are counted once by the
        code of ``fit``, then each repetition draws one noise value per distinct probed cube
        from the law of ``fit`` and applies its rule (``_decide``). Same law as the loop of
        fits (bound by the conformance check ``audit.learner-repeated-fits``), ~10^3× faster;
        this is what the learner auditor samples. Sets the fitted grid attributes, not a model.
        """
        X, labels = self._setup(X, y)
        reps = check_count(repetitions, "repetitions")
        if not isinstance(rng, np.random.Generator):
            raise TypeError(f"rng: expected a numpy Generator, got {rng!r}")
        P = check_unit_cube(probe, d=self.n_features_in_, clip=self.clip, name="probe")
        cells, margins = self._margins(X, labels)
        probed, where = np.unique(cube_index(P, self.m_), return_inverse=True)
        pos = np.minimum(np.searchsorted(cells, probed), max(cells.size - 1, 0))
        hit = cells[pos] == probed if cells.size else np.zeros(probed.size, bool)
        probed_margins = np.where(hit, margins[pos] if cells.size else 0, 0)
        noise = self._noise(reps * probed.size, rng).reshape(reps, probed.size)
        return self._decide(probed_margins[None, :], noise)[:, where.ravel()]

    def decision_cells(self, X: Any) -> NDArray[np.bool_]:
        """The released bit h(x) ∈ {0, 1} for each row of X."""
        self._check_fitted()
        self.check_n_features(X)
        X = check_unit_cube(X, d=self.n_features_in_, clip=self.clip)
        flat = cube_index(X, self.m_)
        if self.dense_bits_ is not None:
            return np.asarray(self.dense_bits_[flat])
        pos = np.searchsorted(self.cells_, flat)
        pos = np.minimum(pos, max(self.cells_.size - 1, 0))
        found = self.cells_[pos] == flat if self.cells_.size else np.zeros(flat.size, bool)
        bits = np.empty(flat.size, dtype=np.bool_)
        bits[found] = self.cell_bits_[pos[found]]
        if not np.all(found):  # empty cubes: h = 1[Z_C > 0], same fixed noise every call
            empty, inverse = np.unique(flat[~found], return_inverse=True)
            bits[~found] = self._bits(empty, np.zeros(empty.size, dtype=np.int64))[inverse]
        return bits

    def grid_labels(self) -> NDArray[np.int64]:
        """The released bit of every cube, shape (m,)*d (for exact error; small grids only)."""
        self._check_fitted()
        total = self.m_**self.n_features_in_
        if total > 2**24:
            raise ValueError("cells_per_axis: grid too large to list every cube")
        centres = (
            np.indices((self.m_,) * self.n_features_in_).reshape(self.n_features_in_, -1).T + 0.5
        ) / self.m_
        return (
            self.decision_cells(centres).astype(np.int64).reshape((self.m_,) * self.n_features_in_)
        )

    def release_law(self, X: Any, y: Any) -> list[Fraction | float]:
        """Exact P(h_C = 1) for every cube given the data (the released hypothesis's law is their
        product); ``clip`` maps X as ``fit`` does.

        The law does not depend on the model key: this is what the exact privacy verifier
        enumerates on small grids (P(Z ≥ 1 − m_C), or P(Lap(1/ε) > −m_C/2) when idealised).
        """
        X = check_unit_cube(X, clip=self.clip)
        labels, _ = check_binary_labels(y, X.shape[0])
        law, _ = self._noise_law()
        m = check_count(self.cells_per_axis, "cells_per_axis") if self.cells_per_axis else None
        if m is None:
            raise ValueError("cells_per_axis: the exact law needs a fixed grid")
        total = m ** X.shape[1]
        flat = cube_index(X, m)
        margins = np.bincount(flat, weights=2 * labels - 1, minlength=total).astype(np.int64)
        if law is not None:
            return [law.sf(1 - int(mc)) for mc in margins]
        return [laplace_sf(-int(mc) / 2.0, 1.0 / float(self.epsilon)) for mc in margins]
