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
from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special

from dpspec._deprecation import renamed
from dpspec.validation import (
    LIMITS,
    MEMORY_LIMIT,
    Anything,
    Array,
    Checked,
    FeaturesArg,
    GeneratorArg,
    Integer,
    Real,
    SizeArg,
    check_limit,
    example,
    require_within,
)

__all__ = ["PROBLEMS", "Checkerboard", "Circle", "GaussianMixture", "Threshold1D"]

FloatArray = NDArray[np.float64]

#: Label noise ν: η ∈ {ν, 1 − ν}.
NoiseArg = Annotated[float, Real(lo=0.0, hi=0.5, hi_open=True, clean=0.1)]
#: Cubes per axis m of the regular grid of [0,1]^d.
GridArg = Annotated[int, Integer(lo=1, hi=2**13, clean=4)]
#: bytes per grid cube of the exact-area computations (a dozen float64 work arrays)
BYTES_PER_CUBE = 96


@dataclass(frozen=True)
class _GridValues(Array):
    """Per-cube values of a grid (labels or η̂): an array of finite numbers whose size is
    refused, before it is converted, beyond the cells and memory limits."""

    def convert(self, value: Any, name: str) -> Any:
        if isinstance(value, np.ndarray):
            require_within(float(value.size), LIMITS["cells"], name, "grid cubes")
            require_within(float(value.size) * BYTES_PER_CUBE, MEMORY_LIMIT, name, "bytes")
        return super().convert(value, name)


#: Per-cube labels (0/1) or values of a grid classifier / estimate, shape (m,)*d.
GridValuesArg = Annotated[ArrayLike, _GridValues()]


def _require_grid(m: int, d: int, name: str) -> None:
    """Refuse, before any work, a grid of m^d cubes beyond the cells / memory limits."""
    require_within(float(m) ** d, LIMITS["cells"], name, "grid cubes")
    require_within(float(m) ** d * BYTES_PER_CUBE, MEMORY_LIMIT, name, "bytes")


def _edges(m: int) -> FloatArray:
    return np.linspace(0.0, 1.0, m + 1)


def _interval_overlaps(a: FloatArray, b: FloatArray) -> FloatArray:
    """|[a_i, a_{i+1}] ∩ [b_j, b_{j+1}]| for two partitions given by their edges."""
    lo = np.maximum(a[:-1, None], b[None, :-1])
    hi = np.minimum(a[1:, None], b[None, 1:])
    return np.asarray(np.clip(hi - lo, 0.0, None))


class _TwoValuedProblem(Checked):
    """Base: X ~ U[0,1]^d, η = 1 − ν on B, ν off B. Subclasses give d, B and its cube areas
    (``_region``, ``_area``); the public methods check their arguments."""

    d: int
    noise: float

    def _region(self, X: FloatArray) -> NDArray[np.bool_]:
        raise NotImplementedError

    def _area(self, m: int) -> FloatArray:
        raise NotImplementedError

    def _features(self, X: Any) -> FloatArray:
        arr = np.asarray(X, dtype=np.float64)
        if arr.shape[1] != self.d:
            raise ValueError(f"X: expected {self.d} features, got {arr.shape[1]}")
        return arr

    def in_region(self, X: FeaturesArg) -> NDArray[np.bool_]:
        """Whether each row of X lies in B."""
        return self._region(self._features(X))

    def region_area(self, m: GridArg) -> FloatArray:
        """|C ∩ B| for every cube C of the m-per-axis grid, shape (m,)*d."""
        _require_grid(m, self.d, "m")
        return self._area(m)

    sample = renamed("draw", "sample")

    def draw(self, size: SizeArg, rng: GeneratorArg) -> tuple[FloatArray, NDArray[np.int64]]:
        """``size`` i.i.d. pairs: X uniform, Y = 1[x ∈ B] flipped with probability ν."""
        check_limit(size * (self.d + 1), "size", "draws")
        X = rng.random((size, self.d))
        flip = rng.random(size) < self.noise
        y = (self._region(X) ^ flip).astype(np.int64)
        return X, y

    def eta(self, X: FeaturesArg) -> FloatArray:
        """η(x) = P(Y = 1 | X = x): 1 − ν on B, ν elsewhere."""
        return np.where(self._region(self._features(X)), 1.0 - self.noise, self.noise)

    def bayes_error(self) -> float:
        """L* = ν (the Bayes classifier is 1[x ∈ B])."""
        return self.noise

    def _cube_volume(self, m: int) -> float:
        return float(m) ** (-self.d)

    def _grid(self, values: Any, name: str) -> tuple[FloatArray, int]:
        arr = np.asarray(values, dtype=np.float64)
        m = arr.shape[0]
        if arr.ndim != self.d or any(s != m for s in arr.shape):
            raise ValueError(f"{name}: expected shape (m,)*{self.d}, got {arr.shape}")
        _require_grid(m, self.d, name)
        return arr, m

    def _labels(self, labels: Any) -> tuple[NDArray[np.int64], int]:
        arr, m = self._grid(labels, "labels")
        if not np.all((arr == 0) | (arr == 1)):
            raise ValueError("labels: must be 0/1")
        return arr.astype(np.int64), m

    def grid_classifier_error(self, labels: GridValuesArg) -> float:
        """Exact error of the classifier that predicts labels[C] on cube C (m per axis)."""
        lab, m = self._labels(labels)
        vol = self._cube_volume(m)
        eta_mass = self.noise * vol + (1.0 - 2.0 * self.noise) * self._area(m)
        # predict 1 on C: error mass ∫_C (1 − η); predict 0: ∫_C η
        err = np.where(lab == 1, vol - eta_mass, eta_mass)
        return float(err.sum())

    def excess_risk(self, labels: GridValuesArg) -> float:
        """err − L* of the grid classifier ``labels``, exactly."""
        return self.grid_classifier_error(labels) - self.bayes_error()

    def mean_abs_eta_gap(self, eta_hat: GridValuesArg) -> float:
        """E|η(X) − η̂(X)| for η̂ constant on the cubes of the grid (shape (m,)*d), exactly."""
        arr, m = self._grid(eta_hat, "eta_hat")
        if not np.all((arr >= 0) & (arr <= 1)):
            raise ValueError("eta_hat: values must be in [0, 1]")
        area_b = self._area(m)
        vol = self._cube_volume(m)
        gap = np.abs(1.0 - self.noise - arr) * area_b + np.abs(self.noise - arr) * (vol - area_b)
        return float(gap.sum())

    def bayes_labels(self, m: GridArg) -> NDArray[np.int64]:
        """The grid classifier closest to Bayes: 1 on cubes where B covers more than half."""
        return (self.region_area(m) > 0.5 * self._cube_volume(m)).astype(np.int64)


_GRID_EVERY: dict[str, Any] = {"X": np.array([[0.1, 0.2], [0.6, 0.5], [0.9, 0.95]]), "m": 4}
_GRID_CALLS: dict[str, dict[str, Any]] = {
    "grid_classifier_error": {"labels": np.eye(4, dtype=np.int64)},
    "excess_risk": {"labels": np.eye(4, dtype=np.int64)},
    "mean_abs_eta_gap": {"eta_hat": np.full((4, 4), 0.3)},
    "draw": {"size": 5},
}


@example(every=_GRID_EVERY, **_GRID_CALLS)
@dataclass
class Checkerboard(_TwoValuedProblem):
    """k×k checkerboard on [0,1]²: B = squares with ⌊k x₁⌋ + ⌊k x₂⌋ even."""

    k: Annotated[int, Integer(lo=1, hi=2**13, clean=4)] = 4
    noise: NoiseArg = 0.1

    def __post_init__(self) -> None:
        super().__post_init__()
        self.d = 2

    def _region(self, X: FloatArray) -> NDArray[np.bool_]:
        idx = np.minimum(np.floor(X * self.k), self.k - 1)
        return np.asarray((idx[:, 0] + idx[:, 1]) % 2 == 0)

    def _area(self, m: int) -> FloatArray:
        require_within(float(m) * self.k * 8 * 4, MEMORY_LIMIT, "k", "bytes")
        o = _interval_overlaps(_edges(m), _edges(self.k))  # (m, k)
        black = (np.add.outer(np.arange(self.k), np.arange(self.k)) % 2 == 0).astype(np.float64)
        return np.asarray(o @ black @ o.T)


@example(
    every={"X": np.array([[0.1], [0.37], [0.9]]), "m": 4},
    grid_classifier_error={"labels": np.array([0, 1, 1, 1])},
    excess_risk={"labels": np.array([0, 1, 1, 1])},
    mean_abs_eta_gap={"eta_hat": np.full(4, 0.3)},
    draw={"size": 5},
)
@dataclass
class Threshold1D(_TwoValuedProblem):
    """X ~ U[0,1], B = (t, 1]."""

    t: Annotated[float, Real(lo=0.0, hi=1.0, clean=0.37)] = 0.37
    noise: NoiseArg = 0.2

    def __post_init__(self) -> None:
        super().__post_init__()
        self.d = 1

    def _region(self, X: FloatArray) -> NDArray[np.bool_]:
        return np.asarray(X[:, 0] > self.t)

    def _area(self, m: int) -> FloatArray:
        e = _edges(m)
        return np.asarray(np.clip(e[1:] - np.maximum(e[:-1], self.t), 0.0, None))


def _antiderivative(u: FloatArray, r: float) -> FloatArray:
    """∫_0^u √(r² − s²) ds for |u| ≤ r."""
    u = np.clip(u, -r, r)
    return np.asarray(
        0.5 * (u * np.sqrt(np.maximum(r * r - u * u, 0.0)) + r * r * np.arcsin(u / r))
    )


def _disk_lower_left_area(x: FloatArray, y: FloatArray, r: float) -> FloatArray:
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


def _disk_rectangle_area(
    x0: FloatArray, x1: FloatArray, y0: FloatArray, y1: FloatArray, r: float
) -> FloatArray:
    """|disk(0, r) ∩ [x0, x1] × [y0, y1]| by inclusion–exclusion of ``_disk_lower_left_area``."""
    return np.asarray(
        _disk_lower_left_area(x1, y1, r)
        - _disk_lower_left_area(x0, y1, r)
        - _disk_lower_left_area(x1, y0, r)
        + _disk_lower_left_area(x0, y0, r)
    )


def _pair_of_reals(value: Any, name: str, lo: float, hi: float) -> tuple[float, float]:
    """Two finite reals in [lo, hi] (a point of the plane), else a ValueError naming ``name``."""
    arr = np.asarray(value) if isinstance(value, (tuple, list, np.ndarray)) else None
    if arr is None or arr.shape != (2,) or arr.dtype.kind not in "iuf":
        raise ValueError(f"{name}: expected two real numbers, got {value!r}")
    x, y = (float(v) for v in arr)
    if not all(math.isfinite(v) and lo <= v <= hi for v in (x, y)):
        raise ValueError(f"{name}: expected two numbers in [{lo:g}, {hi:g}], got {value!r}")
    return x, y


@example(every=_GRID_EVERY, **_GRID_CALLS)
@dataclass
class Circle(_TwoValuedProblem):
    """B = disk of ``radius`` around ``center`` inside [0,1]²."""

    radius: Annotated[float, Real(lo=0.0, lo_open=True, hi=0.5, clean=0.3)] = 0.3
    center: Annotated[tuple[float, float], Anything(why="a point of [0, 1]^2, checked")] = (
        0.5,
        0.5,
    )
    noise: NoiseArg = 0.1

    def __post_init__(self) -> None:
        super().__post_init__()
        self.center = _pair_of_reals(self.center, "center", 0.0, 1.0)
        cx, cy = self.center
        r = self.radius
        if min(cx - r, cy - r) < 0 or max(cx + r, cy + r) > 1:
            raise ValueError("center: the disk must lie inside [0, 1]^2")
        self.d = 2

    def _region(self, X: FloatArray) -> NDArray[np.bool_]:
        cx, cy = self.center
        return np.asarray((X[:, 0] - cx) ** 2 + (X[:, 1] - cy) ** 2 <= self.radius**2)

    def _area(self, m: int) -> FloatArray:
        cx, cy = self.center
        e = _edges(m)
        gx0, gy0 = np.meshgrid(e[:-1] - cx, e[:-1] - cy, indexing="ij")
        gx1, gy1 = np.meshgrid(e[1:] - cx, e[1:] - cy, indexing="ij")
        return _disk_rectangle_area(gx0, gx1, gy0, gy1, self.radius)

    def disk_area(self) -> float:
        """πR²."""
        return math.pi * self.radius**2


def _two_weights(value: Any) -> tuple[float, float]:
    arr = np.asarray(value) if isinstance(value, (tuple, list, np.ndarray)) else None
    if arr is None or arr.shape != (2,) or arr.dtype.kind not in "iuf":
        raise ValueError(f"weights: two positive weights summing to 1, got {value!r}")
    w0, w1 = (float(v) for v in arr)
    if not (w0 > 0 and w1 > 0 and math.isclose(w0 + w1, 1.0)):
        raise ValueError(f"weights: two positive weights summing to 1, got {value!r}")
    return w0, w1


#: Rejection rounds of :meth:`GaussianMixture.draw` (each accepts, in expectation, 1.1 times
#: the points still missing; the mass of [0,1]^d is ≥ 1e-3 by the parameters' domains, so the
#: cap is never reached except with a probability far below 2^-64)
MAX_REJECTION_ROUNDS = 64


@example(
    every={"X": np.array([[0.1, 0.2], [0.6, 0.5], [0.9, 0.95]]), "m": 4},
    grid_classifier_error={"labels": np.eye(4, dtype=np.int64)},
    draw={"size": 5},
)
@dataclass
class GaussianMixture(Checked):
    """Two isotropic Gaussian classes restricted to [0,1]^d (d = 1 or 2): Y = component.

    Density p(x) ∝ w₀φ₀(x) + w₁φ₁(x) on [0,1]^d, η(x) = w₁φ₁/(w₀φ₀ + w₁φ₁) (Bayes' formula).
    Cube masses are exact products of normal CDF differences (``scipy.special.ndtr``), so the
    error of a grid classifier is exact: Σ_C [label_C = 1 ? w₀P₀(C) : w₁P₁(C)] / Z with
    Z = Σ_j w_j P_j([0,1]^d). The Bayes error ∫ min(w₀φ₀, w₁φ₁)/Z has no closed form on the
    truncated domain: it is computed by adaptive quadrature (``scipy.integrate``) to an
    absolute tolerance of 1e-10, stated in ``bayes_tolerance``. Means lie in [0,1]^d and
    σ ∈ [0.01, 1], so every class keeps a mass ≥ 1e-3 of [0,1]^d.
    """

    means: Annotated[Any, Anything(why="two points of [0, 1]^d, d in {1, 2}, checked")] = (
        (0.35, 0.35),
        (0.65, 0.65),
    )
    sigma: Annotated[float, Real(lo=0.01, hi=1.0, clean=0.15)] = 0.15
    weights: Annotated[Any, Anything(why="two positive weights summing to 1, checked")] = (
        0.5,
        0.5,
    )
    bayes_tolerance: Annotated[float, Real(lo=1e-14, hi=1e-2, clean=1e-10)] = 1e-10

    def __post_init__(self) -> None:
        super().__post_init__()
        try:
            m0, m1 = (np.asarray(m, dtype=np.float64) for m in self.means)
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"means: two points of the same dimension, got {self.means!r}"
            ) from exc
        if m0.shape != m1.shape or m0.ndim != 1 or m0.size not in (1, 2):
            raise ValueError("means: two points of the same dimension d ∈ {1, 2}")
        if not (np.all((m0 >= 0) & (m0 <= 1)) and np.all((m1 >= 0) & (m1 <= 1))):
            raise ValueError(f"means: must lie in [0, 1]^d, got {self.means!r}")
        w0, w1 = _two_weights(self.weights)
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

    def _log_parts(self, X: FloatArray) -> FloatArray:
        """log(w_j φ_j(x)) for j = 0, 1, shape (n, 2)."""
        sq = ((X[:, None, :] - self._m[None, :, :]) ** 2).sum(axis=2)
        log_norm = -0.5 * self.d * math.log(2 * math.pi * self.sigma**2)
        return np.asarray(np.log(self._w)[None, :] + log_norm - sq / (2 * self.sigma**2))

    def _density_parts(self, X: FloatArray) -> FloatArray:
        """w_j φ_j(x) for j = 0, 1, shape (n, 2)."""
        return np.asarray(np.exp(self._log_parts(X)))

    def eta(self, X: FeaturesArg) -> FloatArray:
        """η(x) = w₁φ₁/(w₀φ₀ + w₁φ₁), the logistic of the log-density difference (no 0/0 and no
        overflow far from both means)."""
        arr = np.asarray(X, dtype=np.float64)
        if arr.shape[1] != self.d:
            raise ValueError(f"X: expected {self.d} features, got {arr.shape[1]}")
        logs = self._log_parts(arr)
        return np.asarray(special.expit(logs[:, 1] - logs[:, 0]))  # no overflow far out

    sample = renamed("draw", "sample")

    def draw(self, size: SizeArg, rng: GeneratorArg) -> tuple[FloatArray, NDArray[np.int64]]:
        """``size`` pairs by rejection: draw (Y, X) from the mixture, keep X ∈ [0,1]^d
        (vectorised; at most :data:`MAX_REJECTION_ROUNDS` rounds)."""
        want = int(size / self._z * 1.1) + 64
        check_limit(want * (self.d + 1), "size", "draws")
        xs: list[FloatArray] = []
        ys: list[NDArray[np.int64]] = []
        have = 0
        for _ in range(MAX_REJECTION_ROUNDS):
            m = int((size - have) / self._z * 1.1) + 64
            y = (rng.random(m) < self._w[1]).astype(np.int64)
            X = self._m[y] + self.sigma * rng.standard_normal((m, self.d))
            keep = np.all((X >= 0.0) & (X <= 1.0), axis=1)
            xs.append(X[keep])
            ys.append(y[keep])
            have += int(keep.sum())
            if have >= size:
                return np.concatenate(xs)[:size], np.concatenate(ys)[:size]
        raise RuntimeError(f"size: {MAX_REJECTION_ROUNDS} rejection rounds drew {have} < {size}")

    def cube_masses(self, m: GridArg) -> tuple[FloatArray, FloatArray]:
        """(w₀P₀(C)/Z, w₁P₁(C)/Z) for every cube of the m-per-axis grid, shape (m,)*d each."""
        _require_grid(m, self.d, "m")
        e = _edges(m)
        grids_lo = np.stack(np.meshgrid(*([e[:-1]] * self.d), indexing="ij"), axis=-1)
        grids_hi = np.stack(np.meshgrid(*([e[1:]] * self.d), indexing="ij"), axis=-1)
        return (
            np.asarray(self._w[0] * self._box_mass(0, grids_lo, grids_hi) / self._z),
            np.asarray(self._w[1] * self._box_mass(1, grids_lo, grids_hi) / self._z),
        )

    def grid_classifier_error(self, labels: GridValuesArg) -> float:
        """Exact error of the classifier that predicts labels[C] on cube C (m per axis)."""
        arr = np.asarray(labels)
        m = arr.shape[0]
        if arr.ndim != self.d or any(s != m for s in arr.shape):
            raise ValueError(f"labels: expected shape (m,)*{self.d}, got {arr.shape}")
        if not np.all((arr == 0) | (arr == 1)):
            raise ValueError("labels: must be 0/1")
        _require_grid(m, self.d, "labels")
        p0, p1 = self.cube_masses(m)
        return float(np.where(arr == 1, p0, p1).sum())

    def bayes_error(self) -> float:
        """∫_{[0,1]^d} min(w₀φ₀, w₁φ₁) / Z by adaptive quadrature (computed once, cached)."""
        cached: float | None = getattr(self, "_bayes", None)
        if cached is None:
            cached = self._bayes = self._integrate_bayes()
        return cached

    def _integrate_bayes(self) -> float:
        """∫ min(w₀φ₀, w₁φ₁) over [0,1]^d. With equal σ the log ratio log(w₁φ₁/w₀φ₀) = a·x + c
        is affine, so min is w₀φ₀ on the half-space a·x + c ≥ 0 and w₁φ₁ on the rest; φ_j is a
        product over coordinates, so the last coordinate's integral over [0, 1] ∩ half-space
        is a difference of normal CDFs (closed form) and d = 2 needs one adaptive quadrature
        (the kinks where the boundary leaves the square given as break points)."""
        from scipy import integrate
        from scipy.special import ndtr

        s, m, w = self.sigma, self._m, self._w
        a = (m[1] - m[0]) / s**2
        c = math.log(w[1] / w[0]) + float(np.sum(m[0] ** 2 - m[1] ** 2)) / (2 * s**2)

        def mass(j: int, k: int, lo: float, hi: float) -> float:
            """P(N(m_jk, σ²) ∈ [lo, hi] ∩ [0, 1])."""
            lo, hi = max(lo, 0.0), min(hi, 1.0)
            if hi <= lo:
                return 0.0
            return float(ndtr((hi - m[j, k]) / s) - ndtr((lo - m[j, k]) / s))

        def last(offset: float) -> float:
            """∫ over the last coordinate y ∈ [0, 1] of min(w₀φ₀, w₁φ₁)'s y-factors, where the
            log ratio is a_last·y + offset: w₀φ₀ where it is ≥ 0, w₁φ₁ elsewhere."""
            k, slope = self.d - 1, float(a[-1])
            if slope == 0.0:
                j = 0 if offset >= 0 else 1
                return float(w[j]) * mass(j, k, 0.0, 1.0) if self.d == 1 else mass(j, k, 0.0, 1.0)
            cut = -offset / slope
            upper, lower = (0, 1) if slope > 0 else (1, 0)  # class on y ≥ cut, on y < cut
            if self.d == 1:
                return float(w[upper]) * mass(upper, k, cut, 1.0) + float(w[lower]) * mass(
                    lower, k, 0.0, cut
                )
            raise AssertionError  # d = 2 goes through the outer integral

        if self.d == 1:
            return last(c) / self._z
        a1, a2 = float(a[0]), float(a[1])

        def inner(x: float, j: int, lo: float, hi: float) -> float:
            phi = math.exp(-((x - m[j, 0]) ** 2) / (2 * s * s)) / (s * math.sqrt(2 * math.pi))
            return float(w[j]) * phi * mass(j, 1, lo, hi)

        def integrand(x: float) -> float:
            offset = a1 * x + c
            if a2 == 0.0:
                j = 0 if offset >= 0 else 1
                return inner(x, j, 0.0, 1.0)
            cut = -offset / a2
            upper, lower = (0, 1) if a2 > 0 else (1, 0)
            return inner(x, upper, cut, 1.0) + inner(x, lower, -math.inf, cut)

        kinks = [] if a1 == 0.0 else [(-c - a2 * y) / a1 for y in (0.0, 1.0)]
        breaks = sorted(b for b in kinks if 0.0 < b < 1.0)
        tol = self.bayes_tolerance
        val, _ = integrate.quad(
            integrand, 0.0, 1.0, epsabs=tol, epsrel=tol, limit=200, points=breaks or None
        )
        return float(val) / self._z


PROBLEMS: dict[str, type[_TwoValuedProblem] | type[GaussianMixture]] = {
    "checkerboard": Checkerboard,
    "threshold": Threshold1D,
    "circle": Circle,
    "gaussian-mixture": GaussianMixture,
}
