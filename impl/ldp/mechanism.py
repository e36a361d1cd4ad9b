"""The local randomiser and the server's aggregation (seed 003, ``003_5e2a1f46235ac29b.txt``
eqs. 5–7 at L136–150, Prop 1 at L247–251, its proof at L640–656).

User i holds (X_i, Y_i) and sends, for *every* public cell j ≤ N (not only its own),

    Z_{i,j} = [Y_i]_{−M}^{M} · 1{X_i ∈ A_j} + σ_Z ε_{i,j},   W_{i,j} = 1{X_i ∈ A_j} + σ_W ζ_{i,j},

ε, ζ i.i.d. unit-variance Laplace (density e^{−√2|x|}/√2, i.e. Laplace of scale 1/√2). Eq. (6)
prints 1{X_i ∈ A_{h,i}}: a typo for A_{h,j} (errata). Prop 1: the density ratio of a report
under two inputs is at most exp(2^{3/2}/σ_W + 2^{3/2}M/σ_Z), so σ_W = 4√2/α, σ_Z = 4√2·M/α give
α-LDP (each term α/2). Releasing Z only (the classifier), σ_Z = 2√2·M/α suffices.

Two numeric paths, chosen by ``idealised`` (the switch dpspec's mechanisms share):

* default, **exact** (float-safe). Every coordinate lives on a public lattice: W on γ_W ℤ with
  γ_W = 2^−20, Z on γ_Z ℤ with γ_Z = 2^(⌊log₂ M⌋ − 20) (functions of M only). The signal is
  snapped: 1{x ∈ A_j} is 2^20 lattice units exactly, the truncated response [y]_M becomes
  u = rint([y]_M/γ_Z), |u| ≤ K := ⌈M/γ_Z⌉. Independent exact discrete Laplace noise
  (P(k) ∝ e^{−|k|/t}, :mod:`dpspec.noise`, integers only) is added in lattice units and the
  report is (lattice integer)·γ, an exact float. **Proof** (the lattice form of L640–656): the law
  of a report given (x, y) is the product over j of discrete Laplace pmfs centred at the signal,
  so for any report k the log ratio under (x, y) vs (x', y') is
  Σ_j (|k^W_j − c'_j| − |k^W_j − c_j|)/t_W + Σ_j (|k^Z_j − d'_j| − |k^Z_j − d_j|)/t_Z
  ≤ ‖c − c'‖₁/t_W + ‖d − d'‖₁/t_Z (triangle inequality), with ‖c − c'‖₁ ≤ 2·2^20 (one-hot
  vectors: the W sum is ≤ 2 at L650) and ‖d − d'‖₁ ≤ |u| + |u'| ≤ 2K (the Z sum is ≤ 2M at
  L646 and L650; here snapping included). With α_r ≤ α the largest rational of denominator
  ≤ 2^32 and scales t_W ≥ 2^21/(α_r/2), t_Z ≥ 2K/(α_r/2) (rounded up), the level is
  ≤ α_r ≤ α: never weaker than asked, and it is attained at the report k = c, d (x ∈ A_0,
  y = M vs x' ∈ A_1, y' = −M, M a multiple of γ_Z).
  The float output is an injective image of the integers (|k| < 2^53, γ a power of 2): the
  guarantee holds for what is released. In real units the noise scales are t·γ ≥ 4/α and
  4M/α, Prop 1's σ/√2. Z only: t_Z ≥ 2K/α_r.
* ``idealised=True``: numpy's continuous Laplace in floating point with Prop 1's σ's — the
  paper's mechanism; its proof assumes ideal reals (``privacy.exact_sampler`` False).

``privacy`` reports the α the caller asked (the theorem's level); ``effective_epsilon`` is the
exact level of the lattice law (a ``Fraction`` ≤ α) or Prop 1's bound for the idealised path.
:meth:`LocalRandomiser.report_law` states the exact law of one report from the same signal
function and noise objects :meth:`LocalRandomiser.randomise` draws with.

The server averages: ν̃(A_j) = (1/n)Σ_i Z_{i,j}, μ̃(A_j) = (1/n)Σ_i W_{i,j} (post-processing).
:meth:`LocalRandomiser.collect_in_law` draws those sums from their law without per-user noise:
on the default path a sum of n discrete Laplace variables of base q is NB(n, 1 − q) −
NB(n, 1 − q) (a discrete Laplace variable is a difference of two geometrics), on the idealised
path Gamma(n, b) − Gamma(n, b). This is the law of the default sampler's sums, but numpy's
negative-binomial and gamma samplers use floating point: an estimator fitted ``in-law``
labels its ``privacy_`` with ``exact_sampler`` False. numpy refuses NB(n, p) when
(1 − p)/p·(n + 10√n) exceeds about 9.2e18, so the sum is drawn as the sum of NB(b, p) over
blocks of b users (the same law).

Limits (one rule for both paths): 2^−32 ≤ α ≤ 700 (``check_epsilon``'s bound under the name
``epsilon``, and the lattice path's resolution 2^−32 as the floor), 2^−256 ≤ M ≤ 2^256 and the
partition's h, R, |offset| ≤ 2^256 (:data:`dpspec.ldp.partition.MAX_MAGNITUDE`): every
noise scale is below 2^291, so reports and their sums are finite floats.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.contract import PrivacyLevel
from dpspec.ldp.partition import MAX_MAGNITUDE, CubicPartition, check_magnitude
from dpspec.mechanisms.base import epsilon_rational
from dpspec.noise import (
    DiscreteLaplaceNoise,
    coarsen_up,
    discrete_laplace_sf,
    laplace_sf,
)
from dpspec.spec.ldp import prop1_bound
from dpspec.spec.neighbours import Relation
from dpspec.validation import (
    LIMITS,
    MAX_DENOMINATOR,
    InputTypeError,
    as_finite_array,
    check_count,
    check_epsilon,
    check_positive,
    check_rng,
    exact_fraction,
    rational_at_least,
)

UNIT_LAPLACE_SCALE = 1.0 / math.sqrt(2.0)  # Laplace(b) has variance 2b²: b = 1/√2 ⇒ variance 1
#: cap on the (users × cells) numbers of one batch of W (or Z) reports: 2^19 numbers (4 MiB of
#: float64 per part; the exact sampler's working arrays are a few times that)
MAX_BATCH_NUMBERS = 1 << 19
#: lattice resolution: γ_W = 2^−LATTICE_BITS, γ_Z = 2^(⌊log₂ M⌋ − LATTICE_BITS)
LATTICE_BITS = 20
#: lattice units of the W signal 1{x ∈ A_j} on the default path
W_ONE = 1 << LATTICE_BITS
#: smallest α accepted on both paths: the lattice path rounds α down to a rational of
#: denominator ≤ 2^32 (``dpspec.validation.MAX_DENOMINATOR``), and the same floor keeps
#: the idealised path's scales 4√2·M/α (M ≤ 2^256) and their sums finite
MIN_ALPHA = 1.0 / MAX_DENOMINATOR
#: smallest truncation level M: γ_Z = 2^(⌊log₂ M⌋ − 20) stays a normal float
MIN_TRUNCATION = 1.0 / MAX_MAGNITUDE
#: numpy's negative-binomial sampler refuses (1 − p)/p·(n + 10√n) above about 9.2e18 (its
#: Poisson limit); the in-law sums are drawn in blocks of users that stay below this
NB_LAMBDA_MAX = 9.0e18


def check_local_epsilon(epsilon: Any) -> float:
    """2^−32 ≤ α ≤ 700: ``check_epsilon``'s rule (e^α a finite float) under the name ``epsilon``,
    and the lattice path's resolution 2^−32 as the floor on both paths."""
    value = check_epsilon(epsilon, "epsilon")
    if exact_fraction(epsilon, "epsilon") < Fraction(1, MAX_DENOMINATOR):
        raise ValueError(
            f"epsilon: {epsilon!r} is too small for the lattice sampler (must be >= 2^-32; the "
            "same floor applies to idealised=True)"
        )
    return value


def check_truncation(truncation: Any) -> float:
    """2^−256 ≤ M ≤ 2^256 (``dpspec.ldp.partition.MAX_MAGNITUDE``)."""
    value = check_magnitude(truncation, "truncation")
    if value < MIN_TRUNCATION:
        raise ValueError(f"truncation: must be >= 2^-256, got {truncation!r}")
    return value


def noise_scales(epsilon: float, truncation: float, z_only: bool = False) -> tuple[float, float]:
    """(σ_W, σ_Z) for α-LDP: (4√2/α, 4√2·M/α), or (0, 2√2·M/α) when only Z is released."""
    epsilon = check_local_epsilon(epsilon)
    truncation = check_truncation(truncation)
    if z_only:
        return 0.0, 2 * math.sqrt(2) * truncation / epsilon
    return 4 * math.sqrt(2) / epsilon, 4 * math.sqrt(2) * truncation / epsilon


def privacy_level(sigma_w: float, sigma_z: float, truncation: float) -> float:
    """Prop 1's bound on the log density ratio: 2^{3/2}/σ_W + 2^{3/2}M/σ_Z (σ_W = 0 means W is
    not released and contributes nothing). Delegates to the spec predicate
    :func:`dpspec.spec.ldp.prop1_bound` after validating the scales."""
    if not (math.isfinite(sigma_w) and sigma_w >= 0):
        raise ValueError(f"sigma_w: must be finite and >= 0, got {sigma_w!r}")
    check_positive(sigma_z, "sigma_z")
    check_positive(truncation, "truncation")
    return prop1_bound(truncation, sigma_w, sigma_z)


def lattice_scale(sensitivity: int, budget: Fraction) -> Fraction:
    """The discrete Laplace scale t ≥ sensitivity/budget the sampler uses as it is (rational
    with terms below 2^56: :func:`dpspec.noise.coarsen_up` leaves it unchanged)."""
    try:
        return coarsen_up(rational_at_least(Fraction(sensitivity) / budget, "scale"))
    except ValueError as exc:
        raise ValueError(f"epsilon: too small for the lattice sampler ({exc})") from exc


@dataclass(frozen=True)
class Reports:
    """Aggregated reports of n users: Σ_i W_{i,·} and Σ_i Z_{i,·} over the N cells."""

    n: int
    w_sum: NDArray[np.float64]
    z_sum: NDArray[np.float64]

    def __add__(self, other: Reports) -> Reports:
        return Reports(self.n + other.n, self.w_sum + other.w_sum, self.z_sum + other.z_sum)


@dataclass(frozen=True)
class ReportLaw:
    """The law of one user's report (W, Z): independent coordinates, W_j = step_w·(c_j + ζ_j),
    Z_j = step_z·(d_j + ε_j).

    ``exact`` (default path): c, d are lattice integers, ζ, ε discrete Laplace of rational
    scales ``scale_w``, ``scale_z`` (P(k) ∝ e^{−|k|/t}); idealised: step 1, c, d reals, ζ, ε
    continuous Laplace of scales σ/√2. ``w_centre`` is empty when only Z is released.
    """

    exact: bool
    step_w: float
    step_z: float
    w_centre: tuple[Any, ...]
    z_centre: tuple[Any, ...]
    scale_w: Fraction | float
    scale_z: Fraction | float

    def log_weight(self, w_units: Any, z_units: Any) -> Fraction:
        """log P(report) + (log of the normalisers, which depend on the scales only), exactly:
        −Σ_j |k^W_j − c_j|/t_W − Σ_j |k^Z_j − d_j|/t_Z for a report in lattice units."""
        if not self.exact:
            raise ValueError("self: log_weight is for the exact lattice law")
        total = Fraction(0)
        for units, centre, scale in (
            (w_units, self.w_centre, self.scale_w),
            (z_units, self.z_centre, self.scale_z),
        ):
            if centre:
                dist = sum(abs(int(k) - int(c)) for k, c in zip(units, centre, strict=True))
                total -= Fraction(dist) / Fraction(scale)
        return total

    def interval_probability(self, part: str, j: int, lo: float, hi: float) -> float:
        """P(lo ≤ report_j < hi) for coordinate j of ``part`` ("w" or "z"); lo, hi may be ±inf."""
        if part not in ("w", "z"):
            raise ValueError(f"part: expected 'w' or 'z', got {part!r}")
        centre = self.w_centre if part == "w" else self.z_centre
        if not centre:
            raise ValueError(f"part: {part} is not released")
        step = self.step_w if part == "w" else self.step_z
        scale = self.scale_w if part == "w" else self.scale_z
        if self.exact:
            q = math.exp(-1.0 / float(scale))

            def at_least(t: float) -> float:  # P(step·(c + K) ≥ t)
                if t == -math.inf:
                    return 1.0
                if t == math.inf:
                    return 0.0
                return float(discrete_laplace_sf(math.ceil(t / step) - int(centre[j]), q))

            return at_least(lo) - at_least(hi)

        def above(t: float) -> float:  # P(c + L > t) = P(c + L ≥ t) (continuous)
            if t == -math.inf:
                return 1.0
            if t == math.inf:
                return 0.0
            return laplace_sf(t - float(centre[j]), float(scale))

        return above(lo) - above(hi)


class LocalRandomiser:
    """The user-side mechanism of seed 003 over a public :class:`CubicPartition`.

    ``epsilon`` is the LDP level α asked, ``truncation`` the level M; ``z_only=True`` releases Z
    alone (the classifier). Default: exact lattice sampler (module docstring: proof);
    ``idealised=True``: the paper's continuous Laplace in floating point. ``privacy`` reports α;
    ``effective_epsilon`` the exact level (≤ α).
    """

    def __init__(
        self,
        partition: CubicPartition,
        epsilon: float,
        truncation: float,
        z_only: bool = False,
        *,
        idealised: bool = False,
    ) -> None:
        if not isinstance(partition, CubicPartition):
            raise InputTypeError(
                f"partition: expected a CubicPartition, got {type(partition).__name__}"
            )
        for flag, value in (("z_only", z_only), ("idealised", idealised)):
            if not isinstance(value, (bool, np.bool_)):
                raise InputTypeError(f"{flag}: expected a bool, got {value!r}")
        self.partition = partition
        self.epsilon = check_local_epsilon(epsilon)
        self.truncation = check_truncation(truncation)
        self.z_only = bool(z_only)
        self.idealised = bool(idealised)
        self.step_w = 2.0**-LATTICE_BITS
        self.step_z = 2.0 ** (math.floor(math.log2(self.truncation)) - LATTICE_BITS)
        self.z_units_max = math.ceil(Fraction(self.truncation) / Fraction(self.step_z))
        self.effective_epsilon: Fraction | float
        if self.idealised:
            self.sigma_w, self.sigma_z = noise_scales(self.epsilon, self.truncation, self.z_only)
            self.effective_epsilon = privacy_level(self.sigma_w, self.sigma_z, self.truncation)
            self.scale_w: Fraction | None = None
            self.scale_z: Fraction | None = None
            self.noise_w: DiscreteLaplaceNoise | None = None
            self.noise_z: DiscreteLaplaceNoise | None = None
        else:
            try:
                epsilon_r = epsilon_rational(self.epsilon)
            except ValueError as exc:
                raise ValueError(
                    f"epsilon: {epsilon!r} is too small for the lattice sampler"
                ) from exc
            budget = epsilon_r if self.z_only else epsilon_r / 2
            self.scale_z = lattice_scale(2 * self.z_units_max, budget)
            self.noise_z = DiscreteLaplaceNoise(scale=self.scale_z)
            level = Fraction(2 * self.z_units_max) / self.scale_z
            if self.z_only:
                self.scale_w, self.noise_w, self.sigma_w = None, None, 0.0
            else:
                self.scale_w = lattice_scale(2 * W_ONE, budget)
                self.noise_w = DiscreteLaplaceNoise(scale=self.scale_w)
                level += Fraction(2 * W_ONE) / self.scale_w
                self.sigma_w = math.sqrt(2) * float(self.scale_w) * self.step_w
            self.sigma_z = math.sqrt(2) * float(self.scale_z) * self.step_z
            self.effective_epsilon = level
        self.privacy = PrivacyLevel(
            self.epsilon,
            math.exp(self.epsilon),
            0,
            exact_sampler=not self.idealised,
            relation=Relation.LOCAL,
        )

    def _signal(self, x: Any, y: Any) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
        """Each user's cell (−1 outside) and Z signal in report units: the truncated response
        [y]_M (L136), snapped to lattice units rint([y]_M/γ_Z) on the default path."""
        X = as_finite_array(x, "x", ndim=2)
        Y = as_finite_array(y, "y", ndim=1).astype(np.float64)
        if Y.shape[0] != X.shape[0]:
            raise ValueError(f"y: expected {X.shape[0]} responses, got {Y.shape[0]}")
        truncated = np.clip(Y, -self.truncation, self.truncation)
        units = truncated if self.idealised else np.rint(truncated / self.step_z)
        return self.partition.cell_index(X), units

    @property
    def _w_signal(self) -> float:
        """The W signal 1{x ∈ A_j} in report units."""
        return 1.0 if self.idealised else float(W_ONE)

    def report_law(self, x: Any, y: float) -> ReportLaw:
        """The exact law of the report of one user with input (x, y) (``x`` of length d), from
        the signal and the noise objects :meth:`randomise` uses."""
        cells, units = self._signal(np.reshape(np.asarray(x, dtype=np.float64), (1, -1)), [y])
        big_n, cell = self.partition.n_cells, int(cells[0])
        kind: Any = float if self.idealised else int
        z_centre = [kind(0)] * big_n
        w_centre = [kind(0)] * big_n
        if cell >= 0:
            z_centre[cell] = kind(units[0])
            w_centre[cell] = kind(self._w_signal)
        if self.idealised:
            return ReportLaw(
                False,
                1.0,
                1.0,
                () if self.z_only else tuple(w_centre),
                tuple(z_centre),
                self.sigma_w * UNIT_LAPLACE_SCALE,
                self.sigma_z * UNIT_LAPLACE_SCALE,
            )
        assert self.scale_z is not None
        return ReportLaw(
            True,
            self.step_w,
            self.step_z,
            () if self.z_only else tuple(w_centre),
            tuple(z_centre),
            Fraction(0) if self.scale_w is None else self.scale_w,
            self.scale_z,
        )

    def randomise(
        self, x: Any, y: Any, rng: np.random.Generator
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The reports (W, Z) of the users with inputs (x, y): two (n, N) arrays (W is all
        zeros with ``z_only``). This is what each user sends; memory is 2·n·N numbers. On the
        default path every entry is an exact multiple of γ_W (W) or γ_Z (Z)."""
        check_rng(rng)
        cells, units = self._signal(x, y)
        n, big_n = cells.shape[0], self.partition.n_cells
        inside = cells >= 0
        rows, own = np.flatnonzero(inside), cells[inside]
        if self.idealised:
            # noise first, then the signal added in place: one (n, N) array per report part
            if self.z_only:
                w = np.zeros((n, big_n))
            else:
                w = rng.laplace(0.0, UNIT_LAPLACE_SCALE, size=(n, big_n))
                w *= self.sigma_w
                w[rows, own] += 1.0
            z = rng.laplace(0.0, UNIT_LAPLACE_SCALE, size=(n, big_n))
            z *= self.sigma_z
            z[rows, own] += units[inside]
            return w, z
        assert self.noise_z is not None
        if self.noise_w is None:
            w_out = np.zeros((n, big_n))
        else:
            w_units = self.noise_w.sample(n * big_n, rng).reshape(n, big_n)
            w_units[rows, own] += W_ONE
            w_out = w_units.astype(np.float64) * self.step_w
        z_units = self.noise_z.sample(n * big_n, rng).reshape(n, big_n)
        z_units[rows, own] += units[inside].astype(np.int64)
        return w_out, z_units.astype(np.float64) * self.step_z

    def batches(
        self, x: Any, y: Any, rng: np.random.Generator, batch_size: int = 4096
    ) -> Iterator[tuple[NDArray[np.float64], NDArray[np.float64]]]:
        """Every user's report, :meth:`randomise` on at most ``batch_size`` users at a time (and
        at most :data:`MAX_BATCH_NUMBERS` numbers per part: fewer users when N is large)."""
        check_count(batch_size, "batch_size")
        X = as_finite_array(x, "x", ndim=2)
        Y = as_finite_array(y, "y", ndim=1)
        batch_size = max(1, min(batch_size, MAX_BATCH_NUMBERS // self.partition.n_cells))
        for start in range(0, X.shape[0], batch_size):
            yield self.randomise(X[start : start + batch_size], Y[start : start + batch_size], rng)

    def collect(self, x: Any, y: Any, rng: np.random.Generator, batch_size: int = 4096) -> Reports:
        """The sums of every user's report over :meth:`batches` (post-processing). Memory is
        O(min(batch_size·N, MAX_BATCH_NUMBERS) + N + n·d): 10⁶ users fit for any N."""
        big_n = self.partition.n_cells
        total = Reports(0, np.zeros(big_n), np.zeros(big_n))
        for w, z in self.batches(x, y, rng, batch_size):
            total = total + Reports(w.shape[0], w.sum(axis=0), z.sum(axis=0))
        return total

    def collect_in_law(self, x: Any, y: Any, rng: np.random.Generator) -> Reports:
        """The same sums drawn from their law without per-user noise, O(n + N) time: each
        cell's noise total is NB(n, 1 − q) − NB(n, 1 − q) lattice units (q = e^{−1/t}; the sum
        of n discrete Laplace variables) on the default path, σ·(Gamma(n, 1/√2) −
        Gamma(n, 1/√2)) on the idealised one. numpy draws these with floating point (a
        simulation of the server's view; see the module docstring)."""
        check_rng(rng)
        cells, units = self._signal(x, y)
        n, big_n = cells.shape[0], self.partition.n_cells
        inside = cells >= 0
        counts = np.bincount(cells[inside], minlength=big_n).astype(np.float64)
        sums = np.bincount(cells[inside], weights=units[inside], minlength=big_n)
        if self.idealised:

            def gamma_total(sigma: float) -> NDArray[np.float64]:
                a = rng.gamma(n, UNIT_LAPLACE_SCALE, size=big_n)
                b = rng.gamma(n, UNIT_LAPLACE_SCALE, size=big_n)
                return np.asarray(sigma * (a - b))

            w_sum = np.zeros(big_n) if self.z_only else counts + gamma_total(self.sigma_w)
            return Reports(n, w_sum, sums + gamma_total(self.sigma_z))

        def lattice_total(scale: Fraction) -> NDArray[np.float64]:
            p = -math.expm1(-1.0 / float(scale))  # 1 − q
            # NB(n, p) is the sum of NB(b, p) over blocks of b users: b is the largest block
            # numpy's sampler takes, odds·(b + 10√b) ≤ NB_LAMBDA_MAX (α ≥ 2^−32 gives b ≥ 1)
            room = NB_LAMBDA_MAX * p / (1.0 - p)
            root = (math.sqrt(100.0 + 4.0 * room) - 10.0) / 2.0
            block = max(1, min(n, int(root * root)))
            blocks, rest = divmod(n, block)
            if blocks * big_n > LIMITS["draws"]:
                raise ValueError(
                    f"epsilon: {self.epsilon!r} with simulate='in-law' and n={n} needs {blocks} "
                    "negative-binomial blocks per cell (numpy's sampler limit), beyond "
                    f"{LIMITS['draws']} draws; use a larger epsilon or simulate='users'"
                )
            rows = max(1, (1 << 20) // big_n)  # blocks drawn per round: ≤ 2^20 numbers
            total = np.zeros(big_n)
            for sign in (1.0, -1.0):
                if rest:
                    total += sign * rng.negative_binomial(rest, p, size=big_n)
                for start in range(0, blocks, rows):
                    count = min(rows, blocks - start)
                    draws = rng.negative_binomial(block, p, size=(count, big_n))
                    total += sign * draws.sum(axis=0, dtype=np.float64)
            return total

        assert self.scale_z is not None
        w_sum = (
            np.zeros(big_n)
            if self.scale_w is None
            else (counts * W_ONE + lattice_total(self.scale_w)) * self.step_w
        )
        z_sum = (sums + lattice_total(self.scale_z)) * self.step_z
        return Reports(n, w_sum, z_sum)


def aggregate(reports: Reports) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The server's estimates (ν̃(A_j), μ̃(A_j)) = (Σ Z, Σ W)/n over the N cells."""
    if reports.n <= 0:
        raise ValueError("reports: no user has reported")
    return reports.z_sum / reports.n, reports.w_sum / reports.n
