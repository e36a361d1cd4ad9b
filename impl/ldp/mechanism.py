"""The local randomiser and the server's aggregation (seed 003, ``003_5e2a1f46235ac29b.txt``
eqs. 5–7 at L136–150, Prop 1 at L247–251).

User i holds (X_i, Y_i) and sends, for *every* public cell j ≤ N (not only its own),

    Z_{i,j} = [Y_i]_{−M}^{M} · 1{X_i ∈ A_j} + σ_Z ε_{i,j},   W_{i,j} = 1{X_i ∈ A_j} + σ_W ζ_{i,j},

ε, ζ i.i.d. unit-variance Laplace (density e^{−√2|x|}/√2, i.e. Laplace of scale 1/√2). Eq. (6)
prints 1{X_i ∈ A_{h,i}}: a typo for A_{h,j} (errata). Prop 1: the density ratio of a report
under two inputs is at most exp(2^{3/2}/σ_W + 2^{3/2}M/σ_Z), so σ_W = 4√2/α, σ_Z = 4√2·M/α give
α-LDP (each term α/2). Releasing Z only (the classifier), σ_Z = 2√2·M/α suffices.

The server averages: ν̃(A_j) = (1/n)Σ_i Z_{i,j}, μ̃(A_j) = (1/n)Σ_i W_{i,j} (post-processing).

Float note: the noise is numpy's continuous Laplace in floating point — the guarantee of Prop 1
assumes ideal reals (``privacy.exact_sampler`` is False). The report is a real vector; a
float-safe variant would snap to a lattice as dpspec's ``LaplaceMechanism`` does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.impl.ldp.partition import CubicPartition
from dpspec.impl.mechanisms.base import PrivacyLevel
from dpspec.impl.validation import as_finite_array, check_count, check_positive, check_rng
from dpspec.spec.ldp import prop1_bound

UNIT_LAPLACE_SCALE = 1.0 / math.sqrt(2.0)  # Laplace(b) has variance 2b²: b = 1/√2 ⇒ variance 1
#: cap on the (users × cells) numbers of one batch of W (or Z) reports: 2^21 floats = 16 MiB
MAX_BATCH_NUMBERS = 1 << 21


def noise_scales(alpha: float, truncation: float, z_only: bool = False) -> tuple[float, float]:
    """(σ_W, σ_Z) for α-LDP: (4√2/α, 4√2·M/α), or (0, 2√2·M/α) when only Z is released."""
    check_positive(alpha, "alpha")
    check_positive(truncation, "truncation")
    if z_only:
        return 0.0, 2 * math.sqrt(2) * truncation / alpha
    return 4 * math.sqrt(2) / alpha, 4 * math.sqrt(2) * truncation / alpha


def privacy_level(sigma_w: float, sigma_z: float, truncation: float) -> float:
    """Prop 1's bound on the log density ratio: 2^{3/2}/σ_W + 2^{3/2}M/σ_Z (σ_W = 0 means W is
    not released and contributes nothing). Delegates to the spec predicate
    :func:`dpspec.spec.ldp.prop1_bound` after validating the scales."""
    if not (math.isfinite(sigma_w) and sigma_w >= 0):
        raise ValueError(f"sigma_w: must be finite and >= 0, got {sigma_w!r}")
    check_positive(sigma_z, "sigma_z")
    check_positive(truncation, "truncation")
    return prop1_bound(truncation, sigma_w, sigma_z)


@dataclass(frozen=True)
class Reports:
    """Aggregated reports of n users: Σ_i W_{i,·} and Σ_i Z_{i,·} over the N cells."""

    n: int
    w_sum: NDArray[np.float64]
    z_sum: NDArray[np.float64]

    def __add__(self, other: Reports) -> Reports:
        return Reports(self.n + other.n, self.w_sum + other.w_sum, self.z_sum + other.z_sum)


class LocalRandomiser:
    """The user-side mechanism of seed 003 over a public :class:`CubicPartition`.

    ``alpha`` is the target LDP level, ``truncation`` the level M; ``z_only=True`` releases Z
    alone (the classifier). ``privacy`` reports α (``exact_sampler`` False: ideal reals).
    """

    def __init__(
        self, partition: CubicPartition, alpha: float, truncation: float, z_only: bool = False
    ) -> None:
        self.partition = partition
        self.alpha = check_positive(alpha, "alpha")
        if self.alpha > 700:
            raise ValueError(f"alpha: must be <= 700 (e^alpha overflows a float), got {alpha!r}")
        self.truncation = check_positive(truncation, "truncation")
        self.z_only = z_only
        self.sigma_w, self.sigma_z = noise_scales(alpha, truncation, z_only)
        level = privacy_level(self.sigma_w, self.sigma_z, self.truncation)
        self.privacy = PrivacyLevel(level, math.exp(level), 0, exact_sampler=False)

    def _inputs(self, x: Any, y: Any) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        X = as_finite_array(x, "x", ndim=2)
        Y = as_finite_array(y, "y", ndim=1).astype(np.float64)
        if Y.shape[0] != X.shape[0]:
            raise ValueError(f"y: expected {X.shape[0]} responses, got {Y.shape[0]}")
        return self.partition.cell_index(X), np.clip(Y, -self.truncation, self.truncation)

    def randomise(
        self, x: Any, y: Any, rng: np.random.Generator
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The reports (W, Z) of the users with inputs (x, y): two (n, N) arrays (W is all
        zeros with ``z_only``). This is what each user sends; memory is 2·n·N floats."""
        check_rng(rng)
        cells, yt = self._inputs(x, y)
        n, big_n = cells.shape[0], self.partition.n_cells
        inside = cells >= 0
        rows, own = np.flatnonzero(inside), cells[inside]
        # noise first, then the signal added in place: one (n, N) array per report part
        if self.z_only:
            w = np.zeros((n, big_n))
        else:
            w = rng.laplace(0.0, UNIT_LAPLACE_SCALE, size=(n, big_n))
            w *= self.sigma_w
            w[rows, own] += 1.0
        z = rng.laplace(0.0, UNIT_LAPLACE_SCALE, size=(n, big_n))
        z *= self.sigma_z
        z[rows, own] += yt[inside]
        return w, z

    def collect(self, x: Any, y: Any, rng: np.random.Generator, batch_size: int = 4096) -> Reports:
        """Run every user's randomiser, at most ``batch_size`` users at a time, keeping only the
        sums. A batch also holds at most :data:`MAX_BATCH_NUMBERS` reports per part (fewer
        users when N is large), so memory is O(min(batch_size·N, MAX_BATCH_NUMBERS) + N + n·d):
        10⁶ users fit for any N."""
        check_count(batch_size, "batch_size")
        X = as_finite_array(x, "x", ndim=2)
        Y = as_finite_array(y, "y", ndim=1)
        batch_size = max(1, min(batch_size, MAX_BATCH_NUMBERS // self.partition.n_cells))
        total = Reports(0, np.zeros(self.partition.n_cells), np.zeros(self.partition.n_cells))
        for start in range(0, X.shape[0], batch_size):
            w, z = self.randomise(X[start : start + batch_size], Y[start : start + batch_size], rng)
            total = total + Reports(w.shape[0], w.sum(axis=0), z.sum(axis=0))
        return total

    def collect_in_law(self, x: Any, y: Any, rng: np.random.Generator) -> Reports:
        """The same sums drawn from their exact joint law without per-user noise: the sum of
        n unit-variance Laplace variables is Gamma(n, 1/√2) − Gamma(n, 1/√2) (a Laplace
        variable is a difference of two exponentials), so each cell's noise total is drawn in
        O(1). Equal in distribution to :meth:`collect` (tested); O(n + N) time."""
        check_rng(rng)
        cells, yt = self._inputs(x, y)
        n, big_n = cells.shape[0], self.partition.n_cells
        inside = cells >= 0
        counts = np.bincount(cells[inside], minlength=big_n).astype(np.float64)
        sums = np.bincount(cells[inside], weights=yt[inside], minlength=big_n)

        def noise_total(sigma: float) -> NDArray[np.float64]:
            a = rng.gamma(n, UNIT_LAPLACE_SCALE, size=big_n)
            b = rng.gamma(n, UNIT_LAPLACE_SCALE, size=big_n)
            return np.asarray(sigma * (a - b))

        w_sum = np.zeros(big_n) if self.z_only else counts + noise_total(self.sigma_w)
        return Reports(n, w_sum, sums + noise_total(self.sigma_z))


def aggregate(reports: Reports) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The server's estimates (ν̃(A_j), μ̃(A_j)) = (Σ Z, Σ W)/n over the N cells."""
    if reports.n <= 0:
        raise ValueError("reports: no user has reported")
    return reports.z_sum / reports.n, reports.w_sum / reports.n
