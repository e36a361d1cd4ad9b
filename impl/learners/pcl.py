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
from functools import lru_cache
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray

from dpspec.contract import PrivacyLevel
from dpspec.learners._keyed_noise import block_size, keyed_values
from dpspec.learners.estimator import (
    BinaryCellClassifier,
    LabelsArg,
    UnitCubeArg,
    _binary_labels,
    _model_key,
    _rows,
    _unit_cube_array,
    _unit_values,
)
from dpspec.mechanisms.base import discrete_laplace_for
from dpspec.noise import DiscreteLaplaceNoise, laplace_sf
from dpspec.validation import (
    LIMITS,
    EpsilonArg,
    FlagArg,
    GeneratorArg,
    Integer,
    RandomStateArg,
    SampleSizeArg,
    check_constructor_params,
    check_limit,
    checked,
    example,
)

_MAX_CELLS = 2**62
#: Use a dense bincount over all cubes in ``fit`` when there are at most this many per point.
_DENSE_FACTOR = 4

#: A dimension d (≥ 1).
DimensionArg = Annotated[int, Integer(1, hi=2**10, clean=2)]
#: Cubes per axis m (≥ 1; m^d < 2^62 is checked where d is known).
CellsPerAxisArg = Annotated[int, Integer(1, hi=2**62, clean=4)]
#: Cubes per axis fixed in advance, or None (⌈n^{1/(2d)}⌉ from the sample size).
OptionalCellsPerAxisArg = Annotated[int | None, Integer(1, hi=2**62, optional=True)]
#: Independent fits drawn at once by :meth:`PrivateHistogramClassifier.repeated_predictions`.
RepetitionsArg = Annotated[int, Integer(1, limit="draws", clean=5)]


@checked
def cells_per_axis_for(n: SampleSizeArg, d: DimensionArg) -> int:
    """m = ⌈n^{1/(2d)}⌉: cubes of side 1/m ≤ r = n^{−1/(2d)} (Alg 2, L195)."""
    return _cells_per_axis_for(n, d)


def _cells_per_axis_for(n: int, d: int) -> int:
    return max(1, math.ceil(math.pow(n, 1.0 / (2 * d)) - 1e-12))


_CUBE_POINTS = np.array([[0.0, 0.25], [0.5, 0.999], [1.0, 1.0]])


@example(__call__={"X": _CUBE_POINTS})
@checked
def cube_index(X: UnitCubeArg, m: CellsPerAxisArg) -> NDArray[np.int64]:
    """Flat index of the cube of side 1/m containing each row of X ⊂ [0,1]^d (x = 1 → last):
    Σ_j min(⌊x_j·m⌋, m − 1)·m^{d−1−j} (Horner over the d axes); the cubes are
    [j/m, (j + 1)/m) on each axis, the last one closed. Coordinates outside [0, 1] are refused
    naming X."""
    return _cube_keys(_rows(X), m, name="X")


#: Bytes of one block of rows in :func:`cube_keys` (the block and its scratch stay in cache).
_BLOCK_BYTES = 2**18


def _cube_keys(
    X: NDArray[np.float64],
    m: int,
    lead: NDArray[Any] | None = None,
    name: str | None = None,
    clip: bool = False,
) -> NDArray[np.int64]:
    """lead_i·m^d + cube_index(X, m)_i for every row i (lead None: 0), read once.

    With ``name``, each block of rows is first checked as ``check_unit_cube`` checks X
    (coordinates in [0, 1], the same errors naming ``name``; ``clip`` clips instead), so the
    data are validated and indexed in one pass. With a 0/1 ``lead`` (the labels) the keys
    count the two classes of every cube in one ``bincount`` of length 2·m^d.

    The rows are processed in blocks of ``_BLOCK_BYTES``: the scaled coordinates
    t = min(x·m, m − 1) are truncated (= ⌊x·m⌋ capped at m − 1, as x ≥ 0) and combined by one
    matrix-vector product with the weights (m^{d−1}, …, m, 1), plus lead·m^d: exact in float64
    while 2·m^d ≤ 2^53 (every partial sum is an integer below 2^53); larger grids use int64
    Horner.
    """
    n, d = X.shape
    if m**d >= _MAX_CELLS:
        raise ValueError(f"cells_per_axis: {m}^{d} cubes exceed 2^62")
    keys = np.empty(n, dtype=np.int64)
    rows = max(1, min(n, _BLOCK_BYTES // (8 * d)))
    in_float = 2 * m**d <= 2**53
    scaled = np.empty((rows, d))  # contiguous scratch: strided ufunc outputs lose SIMD
    summed = np.empty(rows)
    weights = np.array([float(m**k) for k in range(d - 1, -1, -1)])
    for start in range(0, n, rows):
        block = X[start : start + rows]
        k = block.shape[0]
        if name is not None:
            block = _unit_values(block, name, clip, whole=X)
        out = keys[start : start + k]
        if in_float:
            s, f = scaled[:k], summed[:k]
            np.multiply(block, m, out=s)
            np.minimum(s, m - 1, out=s)
            np.trunc(s, out=s)
            np.matmul(s, weights, out=f)
            if lead is not None:
                f += lead[start : start + k] * float(m**d)
            out[...] = f
        else:  # exact integer Horner (m − 1 may not be a float here)
            coords = np.minimum((block * m).astype(np.int64), m - 1)
            out[...] = 0 if lead is None else lead[start : start + k]
            for j in range(d):
                out *= m
                out += coords[:, j]
    return keys


@lru_cache(maxsize=256)
def _exact_noise(epsilon: float) -> tuple[DiscreteLaplaceNoise, PrivacyLevel]:
    """PCL's exact noise for ε (ε rounded down to a rational, scale 2/ε on the integer margins
    of sensitivity 2) and the level it gives; one rounding per ε (``fit`` and ``release_law``
    of every model at that ε share it; the law is a frozen value)."""
    return discrete_laplace_for(Fraction(2), epsilon, None)


_X = np.array([[0.1, 0.2], [0.3, 0.1], [0.7, 0.8], [0.9, 0.6], [0.5, 0.5], [0.2, 0.9]])
_Y = np.array([0, 0, 1, 1, 1, 0])


@example(
    every={"X": _X, "y": _Y},
    __init__={"epsilon": 1.0, "cells_per_axis": 3, "random_state": 0},
    fit={},
    predict={},
    decision_cells={},
    score={},
    grid_labels={},
    release_law={},
    repeated_predictions={"probe": _X[:3], "repetitions": 4},
)
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
        epsilon: EpsilonArg = 1.0,
        idealised: FlagArg = False,
        cells_per_axis: OptionalCellsPerAxisArg = None,
        random_state: RandomStateArg = None,
        clip: FlagArg = False,
    ) -> None:
        self.epsilon = epsilon
        self.idealised = idealised
        self.cells_per_axis = cells_per_axis
        self.random_state = random_state
        self.clip = clip

    # -- the noise of one cube, a fixed function of (key, cube) -------------------------------
    def _noise_law(self) -> tuple[DiscreteLaplaceNoise | None, PrivacyLevel]:
        """(exact noise law or None when idealised, the level for the caller's ε); the
        parameters were checked by ``fit`` (or by the public method that calls this)."""
        eps = float(self.epsilon)  # a Fraction ε as the float it denotes (as since 0.1)
        if self.idealised:
            return None, PrivacyLevel(eps, math.exp(eps), 0, exact_sampler=False)
        return _exact_noise(eps)

    def _laplace_scale(self) -> float:
        """The scale 1/ε of the idealised path's Lap(1/ε) (Alg 2, L197)."""
        return 1.0 / float(self.epsilon)

    def _block(self) -> int:
        """Noise block size, fixed in ``fit`` from the grid size and the number of non-empty
        cubes (the law of every cube's noise is the same for any block size)."""
        return int(self.block_)

    def _noise(self, size: int, g: np.random.Generator) -> NDArray[Any]:
        """``size`` i.i.d. draws of one cube's noise: Z (exact) or w ~ Lap(1/ε) (idealised)."""
        if self.noise_law_ is not None:
            return self.noise_law_.sample(size, g)
        return g.laplace(0.0, self._laplace_scale(), size)

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
        self, X: NDArray[np.float64], labels: NDArray[np.bool_]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """(non-empty cubes, their margins m_C = 2Σy − |C|) on the grid of ``fit`` (``m_``), for
        X of :func:`unit_cube_array` (its values are checked here, in the same pass as the
        cube index) and labels y ∈ {0, 1} (``labels`` = y == 1)."""
        total = self.m_**self.n_features_in_
        if total <= _DENSE_FACTOR * X.shape[0]:  # dense counting is O(n + m^d) = O(n) here
            # key y·m^d + cube: one bincount gives (#{y = 0}, #{y = 1}) of every cube
            keys = _cube_keys(X, self.m_, lead=labels, name="X", clip=self.clip)
            per_key = np.bincount(keys, minlength=2 * total)
            zeros, ones = per_key[:total], per_key[total:]
            cells = np.flatnonzero(zeros + ones).astype(np.int64)
            return cells, ones[cells] - zeros[cells]
        flat = _cube_keys(X, self.m_, name="X", clip=self.clip)
        cells, inverse = np.unique(flat, return_inverse=True)
        return cells, np.bincount(inverse, weights=2 * labels - 1).astype(np.int64)

    def _setup(self, X: Any, y: Any) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
        """(X as a float64 array, labels as y == classes_[1]); sets the noise law, ``privacy_``
        and the grid as ``fit`` does. X's coordinates are checked by ``_margins``."""
        X = _unit_cube_array(X)
        labels, self.classes_ = _binary_labels(y, X.shape[0], "X", stacklevel=5)
        n, d = X.shape
        self.noise_law_, self.privacy_ = self._noise_law()
        self.m_ = _cells_per_axis_for(n, d) if self.cells_per_axis is None else self.cells_per_axis
        if self.m_**d >= _MAX_CELLS:
            raise ValueError(f"cells_per_axis: {self.m_}^{d} cubes exceed 2^62")
        self.n_features_in_ = d
        return X, labels

    def fit(self, X: UnitCubeArg, y: LabelsArg) -> PrivateHistogramClassifier:
        """Release one noisy bit per cube: h_C = 1[2Σ_{C} y − |C| + Z_C > 0] (Alg 2)."""
        X, labels = self._setup(X, y)
        n = X.shape[0]
        self.key_ = _model_key(self.random_state)
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
            self.dense_classes_: NDArray[Any] | None = self.classes_[self.dense_bits_.astype(int)]
        else:
            self.dense_bits_ = self.dense_classes_ = None
            self.cell_bits_ = self._bits(cells, margins)
        return self

    def predict(self, X: UnitCubeArg) -> NDArray[Any]:
        """classes_[h(x)] for each row of X; with the table of every cube (``dense_bits_``) one
        gather from the class of each cube (same values as mapping ``decision_cells``)."""
        self._check_fitted()
        self.check_n_features(X)
        if self.dense_classes_ is None:
            return super().predict(X)
        X = _unit_cube_array(X, d=self.n_features_in_)
        return np.asarray(self.dense_classes_[_cube_keys(X, self.m_, name="X", clip=self.clip)])

    def repeated_predictions(
        self,
        X: UnitCubeArg,
        y: LabelsArg,
        probe: UnitCubeArg,
        repetitions: RepetitionsArg,
        rng: GeneratorArg,
    ) -> NDArray[np.bool_]:
        """Row r: ``fit(X, y).predict(probe)`` of the r-th of ``repetitions`` independent fits
        (fresh noise each), drawn in one vectorised pass: the margins are counted once by the
        code of ``fit``, then each repetition draws one noise value per distinct probed cube
        from the law of ``fit`` and applies its rule (``_decide``). Same law as the loop of
        fits (bound to ``fit`` + ``predict`` by the conformance check of the obligation
        ``audit.learner-repeated-fits``), ~10^3× faster; this is what the learner auditor
        samples. Sets the fitted grid attributes, not a model. At most ``LIMITS["draws"]``
        draws (repetitions × probe rows), refused before any work.
        """
        check_constructor_params(self)
        check_limit(repetitions * int(_rows(probe).shape[0]), "repetitions", "draws")
        X, labels = self._setup(X, y)
        P = _unit_cube_array(probe, "probe", d=self.n_features_in_)
        cells, margins = self._margins(X, labels)
        probed, where = np.unique(
            _cube_keys(P, self.m_, name="probe", clip=self.clip), return_inverse=True
        )
        pos = np.minimum(np.searchsorted(cells, probed), max(cells.size - 1, 0))
        hit = cells[pos] == probed if cells.size else np.zeros(probed.size, bool)
        probed_margins = np.where(hit, margins[pos] if cells.size else 0, 0)
        noise = self._noise(repetitions * probed.size, rng).reshape(repetitions, probed.size)
        return self._decide(probed_margins[None, :], noise)[:, where.ravel()]

    def decision_cells(self, X: UnitCubeArg) -> NDArray[np.bool_]:
        """The released bit h(x) ∈ {0, 1} for each row of X."""
        self._check_fitted()
        self.check_n_features(X)
        X = _unit_cube_array(X, d=self.n_features_in_)
        flat = _cube_keys(X, self.m_, name="X", clip=self.clip)
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
        """The released bit of every cube, shape (m,)*d (for exact error; at most 2^24 cubes)."""
        self._check_fitted()
        total = self.m_**self.n_features_in_
        if total > 2**24:
            raise ValueError(
                f"cells_per_axis: {self.m_}^{self.n_features_in_} cubes are too many to list "
                "(at most 2^24)"
            )
        centres = (
            np.indices((self.m_,) * self.n_features_in_).reshape(self.n_features_in_, -1).T + 0.5
        ) / self.m_
        return (
            self.decision_cells(centres).astype(np.int64).reshape((self.m_,) * self.n_features_in_)
        )

    def release_law(self, X: UnitCubeArg, y: LabelsArg) -> list[Fraction | float]:
        """Exact P(h_C = 1) for every cube given the data (the released hypothesis's law is their
        product); ``clip`` maps X as ``fit`` does. Needs ``cells_per_axis`` (a grid fixed in
        advance) and lists at most ``LIMITS["outcomes"]`` cubes, refused before any work.

        The law does not depend on the model key: this is what the exact privacy verifier
        enumerates on small grids (P(Z ≥ 1 − m_C), or P(Lap(1/ε) > −m_C/2) when idealised).
        """
        settings = check_constructor_params(self)
        m = settings["cells_per_axis"]
        if m is None:
            raise ValueError("cells_per_axis: the exact law needs a fixed grid")
        X = _rows(X)
        d = X.shape[1]
        if m**d > LIMITS["outcomes"]:
            raise ValueError(
                f"cells_per_axis: the law of {m}^{d} cubes is listed cube by cube; at most "
                f"{LIMITS['outcomes']} cubes (dpspec.validation.LIMITS['outcomes'])"
            )
        X = _unit_values(X, "X", self.clip)
        labels, _ = _binary_labels(y, X.shape[0], "X", stacklevel=5)
        law, _ = self._noise_law()
        total = m**d
        flat = _cube_keys(X, m)
        margins = np.bincount(flat, weights=2 * labels - 1, minlength=total).astype(np.int64)
        if law is not None:
            return [law.sf(1 - int(mc)) for mc in margins]
        scale = self._laplace_scale()
        return [laplace_sf(-int(mc) / 2.0, scale) for mc in margins]
