"""Classification problems with known η and exact cube-wise integrals, for consistency checks.

Every problem here has X uniform on [0,1]^d and a two-valued regression function
η(x) = P(Y = 1 | X = x) ∈ {ν, 1 − ν} (label noise ν < ½) that equals 1 − ν on a region B and ν
elsewhere. Then the Bayes classifier is 1[x ∈ B], L* = ν, and for any cube C

    ∫_C η = ν|C| + (1 − 2ν)|C ∩ B|,

so the error of any classifier that is constant on the cubes of a regular grid is a finite sum
of exact areas (``grid_classifier_error``): the excess risk is computed, not sampled. The same
areas give E|η − η̂| for a piecewise-constant η̂ exactly (``mean_abs_eta_gap``), which is what
the plug-in bound of seed 000 Thm 2.7 (``000_dff3c4dc97cf0e21.txt:L175``) compares against.

Areas: checkerboard and threshold by interval overlaps; the disk by the closed form of the
area of a disk ∩ axis-aligned rectangle (antiderivative of √(R² − u²)), all vectorised.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.validation import check_count, check_rng

FloatArray = NDArray[np.float64]


def _check_noise(noise: float) -> float:
    if not isinstance(noise, (int, float)) or not 0 <= noise < 0.5:
        raise ValueError(f"noise: label noise must be in [0, 0.5), got {noise!r}")
    return float(noise)


def _edges(m: int) -> FloatArray:
    return np.linspace(0.0, 1.0, m + 1)


def interval_overlaps(a: FloatArray, b: FloatArray) -> FloatArray:
    """|[a_i, a_{i+1}] ∩ [b_j, b_{j+1}]| for two partitions given by their edges."""
    lo = np.maximum(a[:-1, None], b[None, :-1])
    hi = np.minimum(a[1:, None], b[None, 1:])
    return np.asarray(np.clip(hi - lo, 0.0, None))


class TwoValuedProblem(ABC):
    """Base: X ~ U[0,1]^d, η = 1 − ν on B, ν off B. Subclasses give d, B and its cube areas."""

    d: int
    noise: float

    @abstractmethod
    def in_region(self, X: FloatArray) -> NDArray[np.bool_]:
        """Whether each row of X lies in B."""

    @abstractmethod
    def region_area(self, m: int) -> FloatArray:
        """|C ∩ B| for every cube C of the m-per-axis grid, shape (m,)*d."""

    def sample(self, n: int, rng: np.random.Generator) -> tuple[FloatArray, NDArray[np.int64]]:
        """n i.i.d. pairs: X uniform, Y = 1[x ∈ B] flipped with probability ν."""
        check_rng(rng)
        n = check_count(n, "n")
        X = rng.random((n, self.d))
        flip = rng.random(n) < self.noise
        y = (self.in_region(X) ^ flip).astype(np.int64)
        return X, y

    def eta(self, X: Any) -> FloatArray:
        X = np.asarray(X, dtype=np.float64).reshape(-1, self.d)
        return np.where(self.in_region(X), 1.0 - self.noise, self.noise)

    def bayes_error(self) -> float:
        return self.noise

    def _cube_volume(self, m: int) -> float:
        return float(m) ** (-self.d)

    def _labels(self, labels: Any) -> tuple[NDArray[np.int64], int]:
        arr = np.asarray(labels)
        m = arr.shape[0] if arr.ndim else 0
        if arr.ndim != self.d or any(s != m for s in arr.shape) or m < 1:
            raise ValueError(f"labels: expected shape (m,)*{self.d}, got {arr.shape}")
        if not np.all((arr == 0) | (arr == 1)):
            raise ValueError("labels: must be 0/1")
        return arr.astype(np.int64), m

    def grid_classifier_error(self, labels: Any) -> float:
        """Exact error of the classifier that predicts labels[C] on cube C (m per axis)."""
        lab, m = self._labels(labels)
        vol = self._cube_volume(m)
        eta_mass = self.noise * vol + (1.0 - 2.0 * self.noise) * self.region_area(m)
        # predict 1 on C: error mass ∫_C (1 − η); predict 0: ∫_C η
        err = np.where(lab == 1, vol - eta_mass, eta_mass)
        return float(err.sum())

    def excess_risk(self, labels: Any) -> float:
        return self.grid_classifier_error(labels) - self.bayes_error()

    def mean_abs_eta_gap(self, eta_hat: Any) -> float:
        """E|η(X) − η̂(X)| for η̂ constant on the cubes of the grid (shape (m,)*d), exactly."""
        arr = np.asarray(eta_hat, dtype=np.float64)
        m = arr.shape[0] if arr.ndim else 0
        if arr.ndim != self.d or any(s != m for s in arr.shape) or m < 1:
            raise ValueError(f"eta_hat: expected shape (m,)*{self.d}, got {arr.shape}")
        if not np.all((arr >= 0) & (arr <= 1)):
            raise ValueError("eta_hat: values must be in [0, 1]")
        area_b = self.region_area(m)
        vol = self._cube_volume(m)
        gap = np.abs(1.0 - self.noise - arr) * area_b + np.abs(self.noise - arr) * (vol - area_b)
        return float(gap.sum())

    def bayes_labels(self, m: int) -> NDArray[np.int64]:
        """The grid classifier closest to Bayes: 1 on cubes where B covers more than half."""
        return (self.region_area(m) > 0.5 * self._cube_volume(m)).astype(np.int64)


@dataclass
class Checkerboard(TwoValuedProblem):
    """k×k checkerboard on [0,1]²: B = squares with ⌊k x₁⌋ + ⌊k x₂⌋ even."""

    k: int = 4
    noise: float = 0.1

    def __post_init__(self) -> None:
        self.k = check_count(self.k, "k")
        self.noise = _check_noise(self.noise)
        self.d = 2

    def in_region(self, X: FloatArray) -> NDArray[np.bool_]:
        idx = np.minimum(np.floor(X * self.k), self.k - 1)
        return np.asarray((idx[:, 0] + idx[:, 1]) % 2 == 0)

    def region_area(self, m: int) -> FloatArray:
        o = interval_overlaps(_edges(m), _edges(self.k))  # (m, k)
        black = (np.add.outer(np.arange(self.k), np.arange(self.k)) % 2 == 0).astype(np.float64)
        return np.asarray(o @ black @ o.T)


@dataclass
class Threshold1D(TwoValuedProblem):
    """X ~ U[0,1], B = (t, 1]."""

    t: float = 0.37
    noise: float = 0.2

    def __post_init__(self) -> None:
        if not isinstance(self.t, (int, float)) or not 0 <= self.t <= 1:
            raise ValueError(f"t: threshold must be in [0, 1], got {self.t!r}")
        self.noise = _check_noise(self.noise)
        self.d = 1

    def in_region(self, X: FloatArray) -> NDArray[np.bool_]:
        return np.asarray(X[:, 0] > self.t)

    def region_area(self, m: int) -> FloatArray:
        e = _edges(m)
        return np.asarray(np.clip(e[1:] - np.maximum(e[:-1], self.t), 0.0, None))


def _antiderivative(u: FloatArray, r: float) -> FloatArray:
    """∫_0^u √(r² − s²) ds for |u| ≤ r."""
    u = np.clip(u, -r, r)
    return np.asarray(
        0.5 * (u * np.sqrt(np.maximum(r * r - u * u, 0.0)) + r * r * np.arcsin(u / r))
    )


def disk_lower_left_area(x: FloatArray, y: FloatArray, r: float) -> FloatArray:
    """G(x, y) = |disk(0, r) ∩ (−∞, x] × (−∞, y]|, vectorised, closed form.

    A vertical slice at u has height 2h(u), h = √(r² − u²), and its part below y has length
    clip(min(y, h) + h, 0, 2h): 2h where h ≤ y, y + h where |y| < h, 0 where y ≤ −h. With
    s = √(r² − y²) the three regimes are |u| > s and |u| ≤ s (y ≥ 0), or |u| ≤ s only (y < 0).
    """
    x = np.clip(np.asarray(x, dtype=np.float64), -r, r)
    y = np.asarray(y, dtype=np.float64)
    yc = np.clip(y, -r, r)
    s = np.sqrt(np.maximum(r * r - yc * yc, 0.0))

    def whole(a: FloatArray, b: FloatArray) -> FloatArray:  # ∫_a^b 2h for a ≤ b
        b = np.maximum(a, b)
        return 2.0 * (_antiderivative(b, r) - _antiderivative(a, r))

    def partial(a: FloatArray, b: FloatArray) -> FloatArray:  # ∫_a^b (y + h)
        b = np.maximum(a, b)
        return yc * (b - a) + _antiderivative(b, r) - _antiderivative(a, r)

    lower = np.full_like(x, -r)
    upper_y = yc >= 0
    # y >= 0: [-r, -s) full slices, [-s, s] partial, (s, r] full; all clipped at x
    left = whole(lower, np.minimum(x, -s))
    middle = partial(-s, np.minimum(x, s))
    right = whole(s, x)
    nonneg = left + np.where(x > -s, middle, 0.0) + np.where(x > s, right, 0.0)
    # y < 0: only |u| < s contributes, with length y + h
    neg = np.where(x > -s, partial(-s, np.minimum(x, s)), 0.0)
    return np.asarray(np.where(upper_y, nonneg, neg))


def disk_rectangle_area(
    x0: FloatArray, x1: FloatArray, y0: FloatArray, y1: FloatArray, r: float
) -> FloatArray:
    """|disk(0, r) ∩ [x0, x1] × [y0, y1]| by inclusion–exclusion of ``disk_lower_left_area``."""
    return np.asarray(
        disk_lower_left_area(x1, y1, r)
        - disk_lower_left_area(x0, y1, r)
        - disk_lower_left_area(x1, y0, r)
        + disk_lower_left_area(x0, y0, r)
    )


@dataclass
class Circle(TwoValuedProblem):
    """B = disk of ``radius`` around ``center`` inside [0,1]²."""

    radius: float = 0.3
    center: tuple[float, float] = (0.5, 0.5)
    noise: float = 0.1

    def __post_init__(self) -> None:
        cx, cy = self.center
        r = self.radius
        if not isinstance(r, (int, float)) or r <= 0:
            raise ValueError(f"radius: must be > 0, got {r!r}")
        if min(cx - r, cy - r) < 0 or max(cx + r, cy + r) > 1:
            raise ValueError("center: the disk must lie inside [0, 1]^2")
        self.noise = _check_noise(self.noise)
        self.d = 2

    def in_region(self, X: FloatArray) -> NDArray[np.bool_]:
        cx, cy = self.center
        return np.asarray((X[:, 0] - cx) ** 2 + (X[:, 1] - cy) ** 2 <= self.radius**2)

    def region_area(self, m: int) -> FloatArray:
        cx, cy = self.center
        e = _edges(m)
        gx0, gy0 = np.meshgrid(e[:-1] - cx, e[:-1] - cy, indexing="ij")
        gx1, gy1 = np.meshgrid(e[1:] - cx, e[1:] - cy, indexing="ij")
        return disk_rectangle_area(gx0, gx1, gy0, gy1, self.radius)

    def disk_area(self) -> float:
        return math.pi * self.radius**2


@dataclass
class GaussianMixture:
    """Two isotropic Gaussian classes restricted to [0,1]^d (d = 1 or 2): Y = component.

    Density p(x) ∝ w₀φ₀(x) + w₁φ₁(x) on [0,1]^d, η(x) = w₁φ₁/(w₀φ₀ + w₁φ₁) (Bayes' formula).
    Cube masses are exact products of normal CDF differences (``scipy.special.ndtr``), so the
    error of a grid classifier is exact: Σ_C [label_C = 1 ? w₀P₀(C) : w₁P₁(C)] / Z with
    Z = Σ_j w_j P_j([0,1]^d). The Bayes error ∫ min(w₀φ₀, w₁φ₁)/Z has no closed form on the
    truncated domain: it is computed by adaptive quadrature (``scipy.integrate``) to an
    absolute tolerance of 1e-10, stated in ``bayes_tolerance``.
    """

    means: tuple[tuple[float, ...], tuple[float, ...]] = ((0.35, 0.35), (0.65, 0.65))
    sigma: float = 0.15
    weights: tuple[float, float] = (0.5, 0.5)
    bayes_tolerance: float = 1e-10

    def __post_init__(self) -> None:
        m0, m1 = (np.asarray(m, dtype=np.float64) for m in self.means)
        if m0.shape != m1.shape or m0.ndim != 1 or m0.size not in (1, 2):
            raise ValueError("means: two points of the same dimension d ∈ {1, 2}")
        if not np.all(np.isfinite(m0)) or not np.all(np.isfinite(m1)):
            raise ValueError("means: must be finite")
        if not isinstance(self.sigma, (int, float)) or not 0 < self.sigma < math.inf:
            raise ValueError(f"sigma: must be finite and > 0, got {self.sigma!r}")
        w0, w1 = self.weights
        if w0 <= 0 or w1 <= 0 or not math.isclose(w0 + w1, 1.0):
            raise ValueError(f"weights: two positive weights summing to 1, got {self.weights}")
        self._m = np.stack([m0, m1])
        self._w = np.array([w0, w1], dtype=np.float64)
        self.d = int(m0.size)
        self._z = float(sum(self._w[j] * self._box_mass(j, 0.0, 1.0) for j in (0, 1)))

    def _box_mass(self, j: int, lo: Any, hi: Any) -> Any:
        """P_j(∏_k [lo_k, hi_k]) for arrays of boxes (last axis = coordinate)."""
        from scipy.special import ndtr

        lo = np.asarray(lo, dtype=np.float64)
        hi = np.asarray(hi, dtype=np.float64)
        mu = self._m[j]
        return np.prod(ndtr((hi - mu) / self.sigma) - ndtr((lo - mu) / self.sigma), axis=-1)

    def _density_parts(self, X: FloatArray) -> FloatArray:
        """w_j φ_j(x) for j = 0, 1, shape (n, 2)."""
        sq = ((X[:, None, :] - self._m[None, :, :]) ** 2).sum(axis=2)
        norm = (2 * math.pi * self.sigma**2) ** (-self.d / 2)
        return np.asarray(self._w[None, :] * norm * np.exp(-sq / (2 * self.sigma**2)))

    def eta(self, X: Any) -> FloatArray:
        parts = self._density_parts(np.asarray(X, dtype=np.float64).reshape(-1, self.d))
        return np.asarray(parts[:, 1] / parts.sum(axis=1))

    def sample(self, n: int, rng: np.random.Generator) -> tuple[FloatArray, NDArray[np.int64]]:
        """n pairs by rejection: draw (Y, X) from the mixture, keep X ∈ [0,1]^d (vectorised)."""
        check_rng(rng)
        n = check_count(n, "n")
        xs: list[FloatArray] = []
        ys: list[NDArray[np.int64]] = []
        have = 0
        while have < n:
            m = int((n - have) / max(self._z, 1e-3) * 1.1) + 64
            y = (rng.random(m) < self._w[1]).astype(np.int64)
            X = self._m[y] + self.sigma * rng.standard_normal((m, self.d))
            keep = np.all((X >= 0.0) & (X <= 1.0), axis=1)
            xs.append(X[keep])
            ys.append(y[keep])
            have += int(keep.sum())
        return np.concatenate(xs)[:n], np.concatenate(ys)[:n]

    def cube_masses(self, m: int) -> tuple[FloatArray, FloatArray]:
        """(w₀P₀(C)/Z, w₁P₁(C)/Z) for every cube of the m-per-axis grid, shape (m,)*d each."""
        e = _edges(check_count(m, "m"))
        grids_lo = np.stack(np.meshgrid(*([e[:-1]] * self.d), indexing="ij"), axis=-1)
        grids_hi = np.stack(np.meshgrid(*([e[1:]] * self.d), indexing="ij"), axis=-1)
        return (
            np.asarray(self._w[0] * self._box_mass(0, grids_lo, grids_hi) / self._z),
            np.asarray(self._w[1] * self._box_mass(1, grids_lo, grids_hi) / self._z),
        )

    def grid_classifier_error(self, labels: Any) -> float:
        arr = np.asarray(labels)
        m = arr.shape[0] if arr.ndim else 0
        if arr.ndim != self.d or any(s != m for s in arr.shape) or m < 1:
            raise ValueError(f"labels: expected shape (m,)*{self.d}, got {arr.shape}")
        if not np.all((arr == 0) | (arr == 1)):
            raise ValueError("labels: must be 0/1")
        p0, p1 = self.cube_masses(m)
        return float(np.where(arr == 1, p0, p1).sum())

    def bayes_error(self) -> float:
        """∫_{[0,1]^d} min(w₀φ₀, w₁φ₁) / Z by adaptive quadrature (computed once, cached)."""
        cached: float | None = getattr(self, "_bayes", None)
        if cached is None:
            cached = self._bayes = self._integrate_bayes()
        return cached

    def _integrate_bayes(self) -> float:
        from scipy import integrate

        def low(*x: float) -> float:
            parts = self._density_parts(np.array([x], dtype=np.float64))[0]
            return float(parts.min())

        tol = self.bayes_tolerance
        if self.d == 1:
            val, _ = integrate.quad(low, 0.0, 1.0, epsabs=tol, epsrel=tol, limit=200)
        else:
            val, _ = integrate.dblquad(
                lambda y, x: low(x, y), 0.0, 1.0, 0.0, 1.0, epsabs=tol, epsrel=tol
            )
        return float(val) / self._z


PROBLEMS: dict[str, type[TwoValuedProblem] | type[GaussianMixture]] = {
    "checkerboard": Checkerboard,
    "threshold": Threshold1D,
    "circle": Circle,
    "gaussian-mixture": GaussianMixture,
}
