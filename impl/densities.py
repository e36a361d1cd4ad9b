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
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy import special

from dpspec.validation import check_count, check_positive, check_rng

FloatArray = NDArray[np.float64]
MARGINALS = ("normal", "student-t")


@dataclass(frozen=True)
class SymmetricMarginal:
    """A symmetric unimodal density g on ℝ: ``normal`` (N(0, 1)) or ``student-t`` (t_ν)."""

    name: str = "normal"
    df: float = 1.0

    def __post_init__(self) -> None:
        if self.name not in MARGINALS:
            raise ValueError(f"name: expected one of {MARGINALS}, got {self.name!r}")
        check_positive(self.df, "df")

    def pdf(self, x: FloatArray) -> FloatArray:
        if self.name == "normal":
            return np.asarray(np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi))
        nu = self.df
        return np.asarray(self.peak() * (1.0 + x * x / nu) ** (-(nu + 1) / 2))

    def cdf(self, x: FloatArray) -> FloatArray:
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

    def level_radius(self, t: FloatArray) -> FloatArray:
        """x_t ≥ 0 with {g > t} = (−x_t, x_t) (0 when t ≥ g(0), +inf when t ≤ 0)."""
        t = np.asarray(t, dtype=np.float64)
        ratio = np.full(t.shape, np.inf)
        np.divide(self.peak(), t, out=ratio, where=t > 0)
        ratio = np.maximum(ratio, 1.0)
        if self.name == "normal":
            return np.asarray(np.sqrt(2.0 * np.log(ratio)))
        nu = self.df
        return np.asarray(np.sqrt(nu * (ratio ** (2.0 / (nu + 1)) - 1.0)))

    def sample(self, size: tuple[int, ...], rng: np.random.Generator) -> FloatArray:
        if self.name == "normal":
            return rng.standard_normal(size)
        return rng.standard_t(self.df, size)

    def abs_gap(self, a: FloatArray, b: FloatArray, t: FloatArray) -> FloatArray:
        """∫_a^b |g(x) − t| dx, elementwise, in closed form (a ≤ b finite, t ≥ 0)."""
        xt = self.level_radius(t)
        a2, b2 = np.maximum(a, -xt), np.minimum(b, xt)
        has = b2 > a2
        a2, b2 = np.where(has, a2, 0.0), np.where(has, b2, 0.0)
        above = np.where(has, (self.cdf(b2) - self.cdf(a2)) - t * (b2 - a2), 0.0)
        return np.asarray(t * (b - a) - (self.cdf(b) - self.cdf(a)) + 2.0 * above)


@dataclass(frozen=True)
class ProductDensity:
    """f(x) = Π_k g(x_k) on ℝ^d (d ∈ {1, 2}) with exact (d = 1) or quadrature (d = 2) L1."""

    marginal: SymmetricMarginal = SymmetricMarginal()
    d: int = 1

    def __post_init__(self) -> None:
        if self.d not in (1, 2):
            raise ValueError(f"d: the L1 formulas are for d ∈ {{1, 2}}, got {self.d!r}")

    def sample(self, n: int, rng: np.random.Generator) -> FloatArray:
        check_count(n, "n")
        check_rng(rng)
        return self.marginal.sample((n, self.d), rng)

    def pdf(self, X: FloatArray) -> FloatArray:
        X = np.asarray(X, dtype=np.float64).reshape(-1, self.d)
        return np.asarray(np.prod(self.marginal.pdf(X), axis=1))

    def l1_to_histogram(
        self, cells: NDArray[np.int64], side: float, values: FloatArray, nodes: int = 24
    ) -> tuple[float, float]:
        """(‖f − f̂‖₁, stated error) for f̂ = ``values[j]`` on the cube ``cells[j]``·side +
        [0, side)^d and 0 elsewhere. d = 1: error 0 (closed form); d = 2: the gap between
        Gauss–Legendre with ``nodes`` and ``nodes // 2`` points per cube."""
        cells = np.asarray(cells).reshape(-1, self.d)
        h = np.asarray(values, dtype=np.float64)
        if cells.shape[0] != h.shape[0]:
            raise ValueError("values: one value per cell expected")
        if np.any(h < 0) or not np.all(np.isfinite(h)):
            raise ValueError("values: must be finite and ≥ 0")
        lo = cells.astype(np.float64) * side
        hi = lo + side
        g = self.marginal
        mass = np.prod(g.cdf(hi) - g.cdf(lo), axis=1)
        outside = 1.0 - math.fsum(mass.tolist())
        if self.d == 1:
            gaps = g.abs_gap(lo[:, 0], hi[:, 0], h)
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
            ge = g.pdf(edge)
            level = np.full(h.shape, np.inf)
            np.divide(h, ge, out=level, where=ge > 0)
            radius = g.level_radius(level)
            kinks += [-radius, radius]
        cuts = np.sort(np.clip(np.column_stack([a1, *kinks, b1]), a1[:, None], b1[:, None]), axis=1)
        left, right = cuts[:, :-1], cuts[:, 1:]  # (cubes, 5) pieces, some of length 0
        half = (right - left) / 2
        x = left[..., None] + half[..., None] * (u + 1.0)  # (cubes, 5, nodes)
        gx = g.pdf(x)
        hh = np.broadcast_to(h[:, None, None], x.shape)
        level = np.zeros_like(gx)
        np.divide(hh, gx, out=level, where=gx > 0)
        ya = np.broadcast_to(a2[:, None, None], x.shape)
        yb = np.broadcast_to(b2[:, None, None], x.shape)
        inner = g.abs_gap(ya, yb, level)
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
