"""Densities on ℝ^d with exact L1 distance to a histogram, for PCDE's consistency (Thm 4.3).

Seed 000 Thm 4.3 (``000_dff3c4dc97cf0e21.txt:L264``) says PCDE is L1-consistent for *every*
density on ℝ^d, so the tests use a light-tailed one (the standard normal) and a heavy-tailed
one (Student's t with ν degrees of freedom; ν = 1 is Cauchy, with no mean): products
f(x) = Π_k g(x_k) of a symmetric unimodal marginal g with density g, CDF G and level sets
{g > t} = (−x_t, x_t).

L1 distance to a histogram f̂ that equals h_j on the cube C_j (side r) and 0 elsewhere:

    ‖f − f̂‖₁ = (1 − Σ_j P_f(C_j)) + Σ_j ∫_{C_j} |f − h_j|.

* d = 1, closed form on [a, b): ∫|g − t| = t(b − a) − (G(b) − G(a)) + 2∫_{[a,b]∩(−x_t,x_t)} (g − t).
* d = 2: ∫_{a₁}^{b₁} g(x) · I(h/g(x)) dx with I(t) the 1-D closed form on [a₂, b₂) at level t;
  the outer integral is Gauss–Legendre on the pieces between the kinks of I (where the level
  set's edge crosses a y-edge of the cube), so each piece is smooth and the rule converges
  fast; :meth:`ProductDensity.l1_to_histogram` reports the difference between ``nodes`` and
  ``nodes/2`` points per piece as its stated error.

G is scipy's ``ndtr`` / ``stdtr`` (accurate to ~1e-15), so d = 1 is exact to float precision.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Annotated, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpspec.validation import (
    MEMORY_LIMIT,
    Checked,
    Choice,
    Domain,
    FeaturesArg,
    GeneratorArg,
    InputTypeError,
    Instance,
    Integer,
    Real,
    SizeArg,
    check_limit,
    example,
    require_within,
)

__all__ = ["DENSITIES", "MARGINALS", "ProductDensity", "SymmetricMarginal"]

FloatArray = NDArray[np.float64]
MARGINALS = ("normal", "student-t")


@dataclass(frozen=True)
class _Reals(Domain):
    """Finite real numbers of any shape: a scalar, an array (``empty``: possibly empty) —
    converted to a float64 array of the same shape (``integer``: int64, whole numbers only)."""

    empty: bool = False
    integer: bool = False
    nonnegative: bool = False
    ndim: tuple[int, ...] | None = None

    def convert(self, value: Any, name: str) -> NDArray[Any]:
        if value is None or isinstance(value, (str, bytes, bool, np.bool_)):
            raise InputTypeError(f"{name}: expected real numbers, got {value!r}")
        try:
            arr = np.asarray(value)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name}: cannot be read as an array ({exc})") from exc
        if arr.dtype.kind not in "iuf" and not (arr.size == 0 and self.empty):
            raise InputTypeError(f"{name}: expected real numbers, got dtype {arr.dtype}")
        if arr.size == 0 and not self.empty:
            raise ValueError(f"{name}: is empty")
        if self.ndim is not None and arr.ndim not in self.ndim:
            raise ValueError(f"{name}: expected {self.ndim} dimension(s), got shape {arr.shape}")
        out = arr.astype(np.float64)
        if not np.all(np.isfinite(out)):
            raise ValueError(f"{name}: contains NaN or infinite values")
        if self.nonnegative and np.any(out < 0):
            raise ValueError(f"{name}: must be >= 0")
        if self.integer:
            if np.any(out != np.rint(out)) or np.any(np.abs(out) > 2.0**52):
                raise ValueError(f"{name}: expected whole numbers of magnitude <= 2^52")
            return out.astype(np.int64)
        return out

    def refused(self) -> tuple[Any, ...]:
        out: list[Any] = [None, "x", True, float("nan"), [math.inf], np.array(["a"])]
        out += [np.array([1 + 1j]), {"a": 1}, object()]
        if not self.empty:
            out.append([])
        if self.integer:
            out.append(np.array([0.5]))
        if self.nonnegative:
            out.append(np.array([-1.0]))
        if self.ndim is not None and 0 not in self.ndim:
            out.append(0.5)
        return tuple(out)

    @property
    def example(self) -> Any:
        return np.array([0.0, 0.5, 1.5])

    def describe(self) -> str:
        return "finite real numbers (a scalar or an array)"


RealsArg = Annotated[ArrayLike, _Reals()]


@example(
    every={"x": np.array([-1.0, 0.0, 2.0]), "t": np.array([0.01, 0.1, 0.3])},
    abs_gap={"a": np.array([-1.0, 0.0]), "b": np.array([0.5, 2.0]), "t": np.array([0.1, 0.2])},
    draw={"size": 5},
)
@dataclass(frozen=True)
class SymmetricMarginal(Checked):
    """A symmetric unimodal density g on ℝ: ``normal`` (N(0, 1)) or ``student-t`` (t_ν,
    ν = ``df`` ∈ [0.1, 10⁶])."""

    name: Annotated[str, Choice(options=MARGINALS)] = "normal"
    df: Annotated[float, Real(lo=0.1, hi=1e6, clean=1.0)] = 1.0

    def pdf(self, x: RealsArg) -> FloatArray:
        """g(x), elementwise."""
        return self._pdf(np.asarray(x, dtype=np.float64))

    def _pdf(self, x: FloatArray) -> FloatArray:
        with np.errstate(over="ignore"):  # x² beyond the float range: the density is 0
            if self.name == "normal":
                return np.asarray(np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi))
            nu = self.df
            return np.asarray(self.peak() * (1.0 + x * x / nu) ** (-(nu + 1) / 2))

    def cdf(self, x: RealsArg) -> FloatArray:
        """G(x), elementwise (scipy's ``ndtr`` / ``stdtr``)."""
        return self._cdf(np.asarray(x, dtype=np.float64))

    def _cdf(self, x: FloatArray) -> FloatArray:
        from scipy import special

        if self.name == "normal":
            return np.asarray(special.ndtr(x))
        return np.asarray(special.stdtr(self.df, x))

    def peak(self) -> float:
        """g(0)."""
        if self.name == "normal":
            return 1.0 / math.sqrt(2 * math.pi)
        nu = self.df
        return math.exp(
            math.lgamma((nu + 1) / 2) - math.lgamma(nu / 2) - 0.5 * math.log(nu * math.pi)
        )

    def level_radius(self, t: Annotated[ArrayLike, _Reals(nonnegative=True)]) -> FloatArray:
        """x_t ≥ 0 with {g > t} = (−x_t, x_t) (0 when t ≥ g(0), +inf when t = 0)."""
        return self._level_radius(np.asarray(t, dtype=np.float64))

    def _level_radius(self, t: FloatArray) -> FloatArray:
        with np.errstate(over="ignore"):  # t → 0: the radius is +inf, as it must be
            ratio = np.full(t.shape, np.inf)
            np.divide(self.peak(), t, out=ratio, where=t > 0)
            ratio = np.maximum(ratio, 1.0)
            if self.name == "normal":
                return np.asarray(np.sqrt(2.0 * np.log(ratio)))
            nu = self.df
            return np.asarray(np.sqrt(nu * (ratio ** (2.0 / (nu + 1)) - 1.0)))

    def draw(self, size: SizeArg, rng: GeneratorArg) -> FloatArray:
        """``size`` i.i.d. draws of g (numpy's normal / Student-t samplers)."""
        if self.name == "normal":
            return rng.standard_normal(size)
        return rng.standard_t(self.df, size)

    def abs_gap(
        self, a: RealsArg, b: RealsArg, t: Annotated[ArrayLike, _Reals(nonnegative=True)]
    ) -> FloatArray:
        """∫_a^b |g(x) − t| dx, elementwise, in closed form (a ≤ b finite, t ≥ 0)."""
        try:
            a, b, t = np.broadcast_arrays(
                np.asarray(a, np.float64), np.asarray(b, np.float64), np.asarray(t, np.float64)
            )
        except ValueError as exc:
            raise ValueError(f"b: a, b and t must broadcast together ({exc})") from exc
        if np.any(b < a):
            raise ValueError("b: must be >= a elementwise")
        return self._abs_gap(a, b, t)

    def _abs_gap(self, a: FloatArray, b: FloatArray, t: FloatArray) -> FloatArray:
        from scipy import special

        xt = self._level_radius(t)
        a2, b2 = np.maximum(a, -xt), np.minimum(b, xt)
        has = b2 > a2
        a2, b2 = np.where(has, a2, 0.0), np.where(has, b2, 0.0)
        cdf = special.ndtr if self.name == "normal" else lambda v: special.stdtr(self.df, v)
        above = np.where(has, (cdf(b2) - cdf(a2)) - t * (b2 - a2), 0.0)
        return np.asarray(t * (b - a) - (cdf(b) - cdf(a)) + 2.0 * above)


#: Gauss–Legendre nodes per piece of the d = 2 L1 integral.
NodesArg = Annotated[int, Integer(lo=2, hi=1024, clean=24)]


@example(
    every={"X": np.array([[0.0], [1.5]])},
    l1_to_histogram={
        "cells": np.array([[-1], [0]]),
        "side": 0.5,
        "values": np.array([0.3, 0.35]),
    },
    draw={"size": 5},
)
@dataclass(frozen=True)
class ProductDensity(Checked):
    """f(x) = Π_k g(x_k) on ℝ^d (d ∈ {1, 2}) with exact (d = 1) or quadrature (d = 2) L1."""

    marginal: Annotated[SymmetricMarginal, Instance(types=(SymmetricMarginal,))] = field(
        default_factory=SymmetricMarginal
    )
    d: Annotated[int, Integer(lo=1, hi=2, clean=1)] = 1

    def draw(self, size: SizeArg, rng: GeneratorArg) -> FloatArray:
        """``size`` i.i.d. points of f, shape (size, d)."""
        check_limit(size * self.d, "size", "draws")
        return self.marginal.draw(size * self.d, rng).reshape(size, self.d)

    def pdf(self, X: FeaturesArg) -> FloatArray:
        """f(x) for each row of X."""
        arr = np.asarray(X, dtype=np.float64)
        if arr.shape[1] != self.d:
            raise ValueError(f"X: expected {self.d} features, got {arr.shape[1]}")
        return np.asarray(np.prod(self.marginal.pdf(arr), axis=1))

    def l1_to_histogram(
        self,
        cells: Annotated[ArrayLike, _Reals(empty=True, integer=True, ndim=(1, 2))],
        side: Annotated[float, Real(lo=2.0**-64, hi=2.0**64, clean=0.5)],
        values: Annotated[ArrayLike, _Reals(empty=True, nonnegative=True, ndim=(1,))],
        nodes: NodesArg = 24,
    ) -> tuple[float, float]:
        """(‖f − f̂‖₁, stated error) for f̂ = ``values[j]`` on the cube ``cells[j]``·side +
        [0, side)^d and 0 elsewhere. d = 1: error 0 (closed form); d = 2: the gap between
        Gauss–Legendre with ``nodes`` and ``nodes // 2`` points per cube."""
        grid = np.asarray(cells)
        if grid.shape[-1:] != (self.d,) and not (self.d == 1 and grid.ndim == 1):
            raise ValueError(
                f"cells: expected integer cubes of shape (k, {self.d}), got {grid.shape}"
            )
        cells = grid.reshape(-1, self.d)
        h = np.asarray(values, dtype=np.float64)
        if cells.shape[0] != h.shape[0]:
            raise ValueError("values: one value per cell expected")
        if self.d == 2:
            require_within(h.size * 5.0 * nodes * 8 * 8, MEMORY_LIMIT, "cells", "bytes")
        lo = cells.astype(np.float64) * side
        hi = lo + side
        g = self.marginal
        mass = np.prod(g._cdf(hi) - g._cdf(lo), axis=1)
        outside = 1.0 - math.fsum(mass.tolist())
        if self.d == 1:
            gaps = g._abs_gap(lo[:, 0], hi[:, 0], h)
            return outside + math.fsum(gaps.tolist()), 0.0
        fine = self._cube_gaps_2d(lo, hi, h, nodes)
        coarse = self._cube_gaps_2d(lo, hi, h, max(nodes // 2, 1))
        total = outside + math.fsum(fine.tolist())
        return total, abs(math.fsum(fine.tolist()) - math.fsum(coarse.tolist()))

    def _cube_gaps_2d(
        self, lo: FloatArray, hi: FloatArray, h: FloatArray, nodes: int
    ) -> FloatArray:
        """∫_{cube} |g(x)g(y) − h| per cube: Gauss–Legendre in x, closed form in y.

        The inner integral I(h/g(x)) has kinks where the level radius x_{h/g(x)} crosses the
        cube's y-edges, i.e. at x = ±x_{h/g(a₂)} and ±x_{h/g(b₂)}; the x-side is split there, so
        the rule integrates a smooth function on each of the (up to) five pieces.
        """
        g = self.marginal
        u, w = np.polynomial.legendre.leggauss(nodes)
        a1, b1, a2, b2 = lo[:, 0], hi[:, 0], lo[:, 1], hi[:, 1]
        kinks = []
        for edge in (a2, b2):
            ge = g._pdf(edge)
            level = np.full(h.shape, np.inf)
            np.divide(h, ge, out=level, where=ge > 0)
            radius = g._level_radius(level)
            kinks += [-radius, radius]
        cuts = np.sort(np.clip(np.column_stack([a1, *kinks, b1]), a1[:, None], b1[:, None]), axis=1)
        left, right = cuts[:, :-1], cuts[:, 1:]  # (cubes, 5) pieces, some of length 0
        half = (right - left) / 2
        x = left[..., None] + half[..., None] * (u + 1.0)  # (cubes, 5, nodes)
        gx = g._pdf(x)
        hh = np.broadcast_to(h[:, None, None], x.shape)
        level = np.zeros_like(gx)
        np.divide(hh, gx, out=level, where=gx > 0)
        ya = np.broadcast_to(a2[:, None, None], x.shape)
        yb = np.broadcast_to(b2[:, None, None], x.shape)
        inner = g._abs_gap(ya, yb, level)
        # where g(x) underflows to 0, |g(x)g(y) − h| = h across the whole y-side
        integrand = np.where(gx > 0, gx * inner, hh * (yb - ya))
        return np.asarray(np.sum(half * np.sum(w * integrand, axis=2), axis=1))


DENSITIES: dict[str, ProductDensity] = {
    "normal": ProductDensity(SymmetricMarginal("normal"), 1),
    "student-t": ProductDensity(SymmetricMarginal("student-t", 2.0), 1),
    "cauchy": ProductDensity(SymmetricMarginal("student-t", 1.0), 1),
    "normal-2d": ProductDensity(SymmetricMarginal("normal"), 2),
    "student-t-2d": ProductDensity(SymmetricMarginal("student-t", 2.0), 2),
}
