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

import numpy as np
from numpy.typing import NDArray

from dpspec.validation import check_count, check_rng

TWO_PI = 2 * math.pi


def _int_sin(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.asarray((np.cos(TWO_PI * a) - np.cos(TWO_PI * b)) / TWO_PI)


def _abs_sin_antiderivative(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """G(x) = ∫_0^x |sin 2πt| dt for x ≥ 0: k/π + (1 − cos 2π(x − k/2))/(2π), k = ⌊2x⌋."""
    k = np.floor(2 * x)
    return np.asarray(k / math.pi + (1 - np.cos(TWO_PI * (x - k / 2))) / TWO_PI)


def _int_abs_sin(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.asarray(_abs_sin_antiderivative(b) - _abs_sin_antiderivative(a))


@dataclass(frozen=True)
class SineProblem:
    """m(x) = amplitude·Π sin(2πx_k) on [0,1]^d (d ∈ {1, 2, 3})."""

    d: int = 1
    amplitude: float = 0.5

    def __post_init__(self) -> None:
        if self.d not in (1, 2, 3):
            raise ValueError(f"d: expected 1, 2 or 3, got {self.d!r}")
        if not 0 < self.amplitude <= 0.5:
            raise ValueError(f"amplitude: must be in (0, 0.5], got {self.amplitude!r}")

    def regression_function(self, X: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.asarray(self.amplitude * np.prod(np.sin(TWO_PI * X), axis=1))

    def sample_regression(
        self, n: int, rng: np.random.Generator
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        check_count(n, "n")
        check_rng(rng)
        X = rng.random((n, self.d))
        return X, self.regression_function(X) + rng.uniform(-0.5, 0.5, n)

    def sample_classification(
        self, n: int, rng: np.random.Generator
    ) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
        X, y = self.sample_regression(n, rng)
        return X, np.where(y > 0, 1, -1).astype(np.int64)

    def variance(self) -> float:
        """∫ m² dμ = a²·2^{−d} (the L2 error of the estimate m̃ ≡ 0)."""
        return self.amplitude**2 * 0.5**self.d

    def _clip(
        self, lo: NDArray[np.float64], hi: NDArray[np.float64]
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        return np.clip(lo, 0.0, 1.0), np.clip(hi, 0.0, 1.0)

    def l2_error(
        self, lo: NDArray[np.float64], hi: NDArray[np.float64], values: NDArray[np.float64]
    ) -> float:
        """∫_{[0,1]^d} (m − m̃)² for m̃ = values[j] on [lo_j, hi_j) (cells disjoint; 0 where no
        cell covers): ∫m² − 2Σ_j c_j∫_j m + Σ_j c_j² |cell_j ∩ [0,1]^d|."""
        a, b = self._clip(np.asarray(lo, np.float64), np.asarray(hi, np.float64))
        amp = self.amplitude
        int_m = amp * np.prod(_int_sin(a, b), axis=1)
        vol = np.prod(b - a, axis=1)
        c = np.asarray(values, np.float64)
        return float(self.variance() - 2 * np.sum(c * int_m) + np.sum(c**2 * vol))

    def excess_risk(
        self, lo: NDArray[np.float64], hi: NDArray[np.float64], labels: NDArray[np.int64]
    ) -> float:
        """∫ |2η − 1|·1{g ≠ g*} dμ for g = labels[j] ∈ {−1, 1} on cell j and −1 elsewhere.
        With |2η − 1| = 2|m|, 2|m|·1{g ≠ sign m} = |m| − g·m, so the excess risk is
        Σ_j ∫_j (|m| − g_j m) in closed form; uncovered parts of [0,1]^d count with g = −1."""
        a, b = self._clip(np.asarray(lo, np.float64), np.asarray(hi, np.float64))
        amp = self.amplitude
        int_abs = amp * np.prod(_int_abs_sin(a, b), axis=1)
        int_m = amp * np.prod(_int_sin(a, b), axis=1)
        g = np.asarray(labels, np.float64)
        covered = float(np.sum(int_abs - g * int_m))
        # [0,1]^d outside the cells: g = −1 there; ∫(|m| + m) over the rest
        total_abs = amp * (2 / math.pi) ** self.d
        rest = (total_abs - float(np.sum(int_abs))) + (0.0 - float(np.sum(int_m)))
        return covered + rest

    def bayes_error(self) -> float:
        """L* = ∫ min(η, 1 − η) dμ = ½ − ∫|m| dμ = ½ − a(2/π)^d."""
        return 0.5 - self.amplitude * (2 / math.pi) ** self.d
