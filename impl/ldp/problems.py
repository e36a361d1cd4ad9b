"""A regression / classification problem with exact errors for piecewise-constant estimates.

X ~ U[0,1]^d, m(x) = a·Π_k sin(2πx_k) (a ≤ ½), and

* regression: Y = m(X) + U, U ~ U(−½, ½) (|Y| ≤ 1, so truncation at M ≥ 1 is inactive);
* classification: Y = sign(m(X) + U) ∈ {−1, 1} (sign(0) = −1), so η(x) = P(Y = 1 | x) = ½ + m(x)
  and the Bayes rule is sign(m(x)).

For an estimate constant (= c_j) on cubes [lo_j, hi_j), the L2 error ∫(m − m̃)² dμ and the
excess risk ∫_{g ≠ g*} |2η − 1| dμ = Σ_j ∫_{cube_j ∩ [0,1]^d} (|m| − g_j m) are sums of products
of one-dimensional integrals of sin, sin² and |sin| in closed form — exact, not sampled. The
same value is the illustrative setting of the seed-003 digest (a = ½, d = 1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpspec.validation import (
    Array,
    Checked,
    FeaturesArg,
    GeneratorArg,
    Integer,
    Real,
    SizeArg,
    check_limit,
    example,
)

#: Cube corners (lower or upper), one row per cube: shape (N, d).
CornersArg = Annotated[ArrayLike, Array(ndim=2)]

TWO_PI = 2 * math.pi


def _int_sin(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.asarray((np.cos(TWO_PI * a) - np.cos(TWO_PI * b)) / TWO_PI)


def _abs_sin_antiderivative(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """G(x) = ∫_0^x |sin 2πt| dt for x ≥ 0: k/π + (1 − cos 2π(x − k/2))/(2π), k = ⌊2x⌋."""
    k = np.floor(2 * x)
    return np.asarray(k / math.pi + (1 - np.cos(TWO_PI * (x - k / 2))) / TWO_PI)


def _int_abs_sin(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.asarray(_abs_sin_antiderivative(b) - _abs_sin_antiderivative(a))


_LO = np.array([[0.0], [0.25], [0.5], [0.75]])


@example(
    every={"lo": _LO, "hi": _LO + 0.25},
    regression_function={"X": np.array([[0.1], [0.6]])},
    sample_regression={"size": 5},
    sample_classification={"size": 5},
    l2_error={"values": np.array([0.3, 0.3, -0.3, -0.3])},
    excess_risk={"labels": np.array([1, 1, -1, -1])},
)
@dataclass(frozen=True)
class SineProblem(Checked):
    """m(x) = amplitude·Π sin(2πx_k) on [0,1]^d (d ∈ {1, 2, 3})."""

    d: Annotated[int, Integer(lo=1, hi=3)] = 1
    amplitude: Annotated[float, Real(lo=0.0, lo_open=True, hi=0.5)] = 0.5

    def _features(self, X: NDArray[np.float64], name: str = "X") -> NDArray[np.float64]:
        if X.shape[1] != self.d:
            raise ValueError(f"{name}: expected {self.d} features, got {X.shape[1]}")
        return X

    def regression_function(self, X: FeaturesArg) -> NDArray[np.float64]:
        """m(x) for each row of X."""
        arr = self._features(np.asarray(X, dtype=np.float64))
        return np.asarray(self.amplitude * np.prod(np.sin(TWO_PI * arr), axis=1))

    def sample_regression(
        self, size: SizeArg, rng: GeneratorArg
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """``size`` i.i.d. pairs (X, Y = m(X) + U), X ~ U[0,1]^d, U ~ U(−½, ½)."""
        check_limit(size * (self.d + 1), "size", "draws")
        X = rng.random((size, self.d))
        return X, self.regression_function(X) + rng.uniform(-0.5, 0.5, size)

    def sample_classification(
        self, size: SizeArg, rng: GeneratorArg
    ) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
        """``size`` i.i.d. pairs (X, Y = sign(m(X) + U)) ∈ [0,1]^d × {−1, 1}."""
        X, y = self.sample_regression(size, rng)
        return X, np.where(y > 0, 1, -1).astype(np.int64)

    def variance(self) -> float:
        """∫ m² dμ = a²·2^{−d} (the L2 error of the estimate m̃ ≡ 0)."""
        return self.amplitude**2 * 0.5**self.d

    def _cells(
        self, lo: ArrayLike, hi: ArrayLike, per_cell: ArrayLike, name: str
    ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
        """Cubes [lo_j, hi_j) clipped to [0,1]^d, and one value per cube (``name``)."""
        a, b = np.asarray(lo, np.float64), np.asarray(hi, np.float64)
        a, b = self._features(a, "lo"), self._features(b, "hi")
        if a.shape != b.shape or np.any(b < a):
            raise ValueError(f"hi: expected upper corners >= lo, shape {a.shape}, got {b.shape}")
        c = np.asarray(per_cell, np.float64)
        if c.shape != (a.shape[0],):
            raise ValueError(f"{name}: expected one value per cube ({a.shape[0]}), got {c.shape}")
        return np.clip(a, 0.0, 1.0), np.clip(b, 0.0, 1.0), c

    def l2_error(
        self, lo: CornersArg, hi: CornersArg, values: Annotated[ArrayLike, Array(ndim=1)]
    ) -> float:
        """∫_{[0,1]^d} (m − m̃)² for m̃ = values[j] on [lo_j, hi_j) (cells disjoint; 0 where no
        cell covers): ∫m² − 2Σ_j c_j∫_j m + Σ_j c_j² |cell_j ∩ [0,1]^d|."""
        a, b, c = self._cells(lo, hi, values, "values")
        amp = self.amplitude
        int_m = amp * np.prod(_int_sin(a, b), axis=1)
        vol = np.prod(b - a, axis=1)
        return float(self.variance() - 2 * np.sum(c * int_m) + np.sum(c**2 * vol))

    def excess_risk(
        self, lo: CornersArg, hi: CornersArg, labels: Annotated[ArrayLike, Array(ndim=1)]
    ) -> float:
        """∫ |2η − 1|·1{g ≠ g*} dμ for g = labels[j] ∈ {−1, 1} on cell j and −1 elsewhere.
        With |2η − 1| = 2|m|, 2|m|·1{g ≠ sign m} = |m| − g·m, so the excess risk is
        Σ_j ∫_j (|m| − g_j m) in closed form; uncovered parts of [0,1]^d count with g = −1."""
        a, b, g = self._cells(lo, hi, labels, "labels")
        if not np.all(np.isin(g, (-1.0, 1.0))):
            raise ValueError("labels: expected -1 or 1 per cube")
        amp = self.amplitude
        int_abs = amp * np.prod(_int_abs_sin(a, b), axis=1)
        int_m = amp * np.prod(_int_sin(a, b), axis=1)
        covered = float(np.sum(int_abs - g * int_m))
        # [0,1]^d outside the cells: g = −1 there; ∫(|m| + m) over the rest
        total_abs = amp * (2 / math.pi) ** self.d
        rest = (total_abs - float(np.sum(int_abs))) + (0.0 - float(np.sum(int_m)))
        return covered + rest

    def bayes_error(self) -> float:
        """L* = ∫ min(η, 1 − η) dμ = ½ − ∫|m| dμ = ½ − a(2/π)^d."""
        return 0.5 - self.amplitude * (2 / math.pi) ** self.d
