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
:meth:`LocalRandomiser.pmf` states the exact law of one report (a :class:`ReportLaw`) from the
same signal function and noise objects :meth:`LocalRandomiser.randomise` draws with (the old
name ``report_law`` is a deprecated alias). :meth:`LocalRandomiser.sample` is the mechanism
view of one user: ``size`` independent reports of one record (x, y).

The server averages: ν̃(A_j) = (1/n)Σ_i Z_{i,j}, μ̃(A_j) = (1/n)Σ_i W_{i,j} (post-processing).
:meth:`LocalRandomiser.collect_in_law` draws those sums from their law without per-user noise:
on the default path a sum of n discrete Laplace variables of base q is NB(n, 1 − q) −
NB(n, 1 − q) (a discrete Laplace variable is a difference of two geometrics), on the idealised
path Gamma(n, b) − Gamma(n, b). This is the law of the default sampler's sums, but numpy's
negative-binomial and gamma samplers use floating point: an estimator fitted ``in-law``
labels its ``privacy_`` with ``exact_sampler`` False. numpy refuses NB(n, p) when
(1 − p)/p·(n + 10√n) exceeds about 9.2e18, so the sum is drawn as the sum of NB(b, p) over
blocks of b users (the same law).

Limits (one rule for both paths, declared in the parameters' domains): 2^−32 ≤ α ≤ 700 (the
lattice path's resolution 2^−32 as the floor), 2^−256 ≤ M ≤ 2^256 and the partition's h, R,
|offset| ≤ 2^256 (:data:`dpspec.ldp.partition.MAX_MAGNITUDE`): every noise scale is below
2^291, so reports and their sums are finite floats. One call draws at most
``LIMITS["draws"]`` report coordinates (users × cells × parts), refused before any work.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpspec.contract import PrivacyLevel
from dpspec.ldp.partition import MAX_MAGNITUDE, CubicPartition, MagnitudeArg
from dpspec.mechanisms.base import epsilon_rational
from dpspec.noise import (
    DiscreteLaplaceNoise,
    coarsen_up,
    discrete_laplace_pmf,
    discrete_laplace_sf,
    laplace_sf,
)
from dpspec.spec.ldp import prop1_bound
from dpspec.spec.neighbours import Relation
from dpspec.validation import (
    LIMITS,
    MAX_DENOMINATOR,
    MAX_EPSILON,
    MEMORY_LIMIT,
    Anything,
    Array,
    Checked,
    Choice,
    Domain,
    FeaturesArg,
    FlagArg,
    GeneratorArg,
    InputTypeError,
    Instance,
    Integer,
    Pair,
    Real,
    SizeArg,
    check_limit,
    checked,
    example,
    rational_at_least,
    require_within,
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
#: bytes of working memory per report coordinate drawn (the report in float64 plus the exact
#: sampler's integer working arrays)
BYTES_PER_COORDINATE = 32
#: noise scales σ accepted by :func:`privacy_level`: σ_W = 0 (W not released) or in
#: [2^−300, 2^512], σ_Z in [2^−300, 2^512] — every σ the calibration gives for α ≤ 700 and
#: M ≥ 2^−256 (σ_Z ≥ 2^−265) — so Prop 1's bound (≤ 2^{3/2}·2^556) stays a finite float
MIN_SIGMA = 2.0**-300
MAX_SIGMA = 2.0**512

#: The LDP level α (the constructor's ``epsilon``): 2^−32 ≤ α ≤ 700.
LocalEpsilonArg = Annotated[float, Real(lo=MIN_ALPHA, hi=MAX_EPSILON, clean=1.0)]
#: The truncation level M: 2^−256 ≤ M ≤ 2^256.
TruncationArg = MagnitudeArg
#: The responses y of the users (one per row of x), real numbers (truncated to [−M, M]).
ResponsesArg = Annotated[ArrayLike, Array(ndim=1)]
#: One user's record (x_1, …, x_d, y): d features then the response.
RecordArg = Annotated[ArrayLike, Array(ndim=1)]
#: Users per batch of reports.
BatchSizeArg = Annotated[int, Integer(lo=1, hi=LIMITS["draws"])]
#: A box [lo, hi] of lattice units for every report coordinate (the exact law's window).
WindowArg = Annotated[
    tuple[int, int] | None, Pair(optional=True, inner=Integer(lo=-(2**62) + 1, hi=2**62 - 1))
]
#: Noise standard deviations σ_W (0: W not released) and σ_Z of Prop 1.
SigmaWArg = Annotated[float, Real(lo=0.0, hi=MAX_SIGMA, clean=4.0)]
SigmaZArg = Annotated[float, Real(lo=MIN_SIGMA, hi=MAX_SIGMA, clean=4.0)]


@dataclass(frozen=True)
class _IntervalEnd(Domain):
    """An end of an interval: a real number or ±inf (never NaN, bool or a non-number)."""

    def convert(self, value: Any, name: str) -> float:
        real = (int, float, Fraction, np.integer, np.floating)
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, real):
            raise InputTypeError(f"{name}: expected a real number or ±inf, got {value!r}")
        try:
            v = float(value)
        except OverflowError as exc:
            raise ValueError(f"{name}: {value!r} is beyond the float range") from exc
        if math.isnan(v):
            raise ValueError(f"{name}: must not be NaN")
        return v

    def refused(self) -> tuple[Any, ...]:
        return (None, float("nan"), True, "1", [1.0], 1 + 0j, object(), 10**400)

    def equivalents(self, clean: Any) -> tuple[Any, ...]:
        return (np.float64(clean),) if isinstance(clean, float) else ()

    @property
    def example(self) -> Any:
        return 0.0

    def describe(self) -> str:
        return "a real number or ±inf"


IntervalEndArg = Annotated[float, _IntervalEnd()]


@checked
def noise_scales(
    epsilon: LocalEpsilonArg, truncation: TruncationArg, z_only: FlagArg = False
) -> tuple[float, float]:
    """(σ_W, σ_Z) for α-LDP (Prop 1, L251): (4√2/α, 4√2·M/α), or (0, 2√2·M/α) when only Z is
    released."""
    if z_only:
        return 0.0, 2 * math.sqrt(2) * truncation / epsilon
    return 4 * math.sqrt(2) / epsilon, 4 * math.sqrt(2) * truncation / epsilon


@checked
def privacy_level(sigma_w: SigmaWArg, sigma_z: SigmaZArg, truncation: TruncationArg) -> float:
    """Prop 1's bound on the log density ratio: 2^{3/2}/σ_W + 2^{3/2}M/σ_Z (σ_W = 0 means W is
    not released and contributes nothing): the spec predicate
    :func:`dpspec.spec.ldp.prop1_bound` on the checked scales."""
    if 0 < sigma_w < MIN_SIGMA:
        raise ValueError(f"sigma_w: must be 0 or in [2^-300, 2^512], got {sigma_w!r}")
    return prop1_bound(truncation, sigma_w, sigma_z)


def _lattice_scale(sensitivity: int, budget: Fraction) -> Fraction:
    """The discrete Laplace scale t ≥ sensitivity/budget the sampler uses as it is (rational
    with terms below 2^56: :func:`dpspec.noise.coarsen_up` leaves it unchanged)."""
    try:
        return coarsen_up(rational_at_least(Fraction(sensitivity) / budget, "scale"))
    except ValueError as exc:
        raise ValueError(f"epsilon: too small for the lattice sampler ({exc})") from exc


@example(__init__={"n": 2, "w_sum": np.array([2.0, 0.0]), "z_sum": np.array([1.0, -0.5])})
@dataclass(frozen=True)
class Reports(Checked):
    """Aggregated reports of n ≥ 1 users: Σ_i W_{i,·} and Σ_i Z_{i,·} over the N cells."""

    n: Annotated[int, Integer(lo=1, hi=2**62)]
    w_sum: Annotated[NDArray[np.float64], Array(ndim=1)]
    z_sum: Annotated[NDArray[np.float64], Array(ndim=1)]

    def __post_init__(self) -> None:
        super().__post_init__()
        if np.shape(self.w_sum) != np.shape(self.z_sum):
            raise ValueError(
                f"z_sum: expected one sum per cell ({np.shape(self.w_sum)[0]}), got "
                f"{np.shape(self.z_sum)[0]}"
            )

    def __add__(self, other: Reports) -> Reports:
        return Reports(
            self.n + other.n,
            np.asarray(self.w_sum) + np.asarray(other.w_sum),
            np.asarray(self.z_sum) + np.asarray(other.z_sum),
        )


def _centre(values: Any, exact: bool, name: str) -> tuple[Any, ...]:
    """A law's centre: a tuple of lattice integers (exact) or finite reals (idealised)."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise InputTypeError(f"{name}: expected a sequence of numbers, got {values!r}")
    out = tuple(values)
    for v in out:
        if isinstance(v, (bool, np.bool_)):
            raise InputTypeError(f"{name}: expected numbers, got {v!r}")
        if exact and not isinstance(v, (int, np.integer)):
            raise InputTypeError(f"{name}: the exact law's centres are lattice integers, got {v!r}")
        if not isinstance(v, (int, float, np.integer, np.floating)) or not math.isfinite(v):
            raise ValueError(f"{name}: expected finite numbers, got {v!r}")
    return out


def _scale(value: Any, exact: bool, name: str) -> Fraction | float:
    """A noise scale: a Fraction ≥ 0 (exact law) or a finite float ≥ 0 (idealised)."""
    if exact and isinstance(value, Fraction) and value >= 0:
        return value
    real = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_)
    )
    if not exact and real and math.isfinite(value) and value >= 0:
        return float(value)
    kind = "a Fraction" if exact else "a finite float"
    raise ValueError(f"{name}: expected {kind} >= 0, got {value!r}")


@example(
    __init__={
        "exact": True,
        "step_w": 2.0**-20,
        "step_z": 2.0**-20,
        "w_centre": (W_ONE, 0),
        "z_centre": (W_ONE, 0),
        "scale_w": Fraction(2**22),
        "scale_z": Fraction(2**22),
    },
    log_weight={"w_units": (W_ONE, 3), "z_units": (5, -7)},
    interval_probability={"part": "z", "j": 0, "lo": 0.5, "hi": math.inf},
)
@dataclass(frozen=True)
class ReportLaw(Checked):
    """The law of one user's report (W, Z): independent coordinates, W_j = step_w·(c_j + ζ_j),
    Z_j = step_z·(d_j + ε_j).

    ``exact`` (default path): c, d are lattice integers, ζ, ε discrete Laplace of rational
    scales ``scale_w``, ``scale_z`` (P(k) ∝ e^{−|k|/t}); idealised: step 1, c, d reals, ζ, ε
    continuous Laplace of scales σ/√2. ``w_centre`` is empty when only Z is released.
    """

    exact: FlagArg
    step_w: Annotated[float, Real(lo=0.0, lo_open=True, hi=1.0, clean=2.0**-20)]
    step_z: Annotated[float, Real(lo=0.0, lo_open=True, hi=MAX_MAGNITUDE, clean=2.0**-20)]
    w_centre: Annotated[tuple[Any, ...], Anything(why="checked by the law: lattice integers")]
    z_centre: Annotated[tuple[Any, ...], Anything(why="checked by the law: lattice integers")]
    scale_w: Annotated[Any, Anything(why="a Fraction (exact) or float (idealised), checked")]
    scale_z: Annotated[Any, Anything(why="a Fraction (exact) or float (idealised), checked")]

    def __post_init__(self) -> None:
        super().__post_init__()
        w = _centre(self.w_centre, self.exact, "w_centre")
        z = _centre(self.z_centre, self.exact, "z_centre")
        if not z or (w and len(w) != len(z)):
            raise ValueError(
                f"w_centre: expected no W part or one centre per cell ({len(z)}), got {len(w)}"
            )
        object.__setattr__(self, "w_centre", w)
        object.__setattr__(self, "z_centre", z)
        object.__setattr__(self, "scale_z", _scale(self.scale_z, self.exact, "scale_z"))
        object.__setattr__(self, "scale_w", _scale(self.scale_w, self.exact, "scale_w"))
        if self.scale_z == 0 or (w and self.scale_w == 0):
            raise ValueError("scale_z: the released parts need a positive noise scale")

    @property
    def coordinates(self) -> int:
        """The number of released report coordinates (2N, or N with Z only)."""
        return len(self.w_centre) + len(self.z_centre)

    def log_weight(
        self,
        w_units: Annotated[Any, Anything(why="lattice integers, checked against the centre")],
        z_units: Annotated[Any, Anything(why="lattice integers, checked against the centre")],
    ) -> Fraction:
        """log P(report) + (log of the normalisers, which depend on the scales only), exactly:
        −Σ_j |k^W_j − c_j|/t_W − Σ_j |k^Z_j − d_j|/t_Z for a report in lattice units."""
        if not self.exact:
            raise ValueError("w_units: log_weight is for the exact lattice law (exact=True)")
        total = Fraction(0)
        for name, units, centre, scale in (
            ("w_units", w_units, self.w_centre, self.scale_w),
            ("z_units", z_units, self.z_centre, self.scale_z),
        ):
            ks = _centre(units, True, name)
            if len(ks) != len(centre):
                raise ValueError(f"{name}: expected {len(centre)} lattice integers, got {len(ks)}")
            if centre:
                dist = sum(abs(int(k) - int(c)) for k, c in zip(ks, centre, strict=True))
                total -= Fraction(dist) / Fraction(scale)
        return total

    def interval_probability(
        self,
        part: Annotated[str, Choice(options=("w", "z"))],
        j: Annotated[int, Integer(lo=0)],
        lo: IntervalEndArg,
        hi: IntervalEndArg,
    ) -> float:
        """P(lo ≤ report_j < hi) for coordinate j of ``part`` ("w" or "z"); lo, hi may be ±inf."""
        centre = self.w_centre if part == "w" else self.z_centre
        if not centre:
            raise ValueError(f"part: {part} is not released")
        if j >= len(centre):
            raise ValueError(f"j: expected a cell in [0, {len(centre) - 1}], got {j}")
        if hi < lo:
            raise ValueError(f"hi: must be >= lo = {lo!r}, got {hi!r}")
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

    def _box(self, lo: int, hi: int) -> dict[tuple[int, ...], float]:
        """P(report = k) for every report k (lattice units, coordinates W_1..W_N, Z_1..Z_N) in
        the box [lo, hi]^coordinates: a product of discrete Laplace pmfs (exact path)."""
        marginals = []
        for centre, scale in ((self.w_centre, self.scale_w), (self.z_centre, self.scale_z)):
            q = math.exp(-1.0 / float(scale)) if centre else 0.0
            for c in centre:
                marginals.append([discrete_laplace_pmf(k - int(c), q) for k in range(lo, hi + 1)])
        out: dict[tuple[int, ...], float] = {}
        for index in itertools.product(range(hi - lo + 1), repeat=len(marginals)):
            p = 1.0
            for coordinate, i in enumerate(index):
                p *= float(marginals[coordinate][i])
            out[tuple(lo + i for i in index)] = p
        return out


_EXAMPLE_PARTITION = CubicPartition(1.0, 0.9, 1, -1.0)  # cells [−1, 0) and [0, 1)
_EXAMPLE_X = np.array([[-0.5], [0.5], [3.0]])
_EXAMPLE_Y = np.array([3.0, -0.37, 0.8])


@example(
    every={"x": _EXAMPLE_X, "y": _EXAMPLE_Y, "data": np.array([-0.5, 3.0])},
    __init__={"partition": _EXAMPLE_PARTITION, "epsilon": 1.0, "truncation": 1.0},
    sample={"size": 4},
    report_law={"x": np.array([-0.5]), "y": 3.0},
)
class LocalRandomiser(Checked):
    """The user-side mechanism of seed 003 over a public :class:`CubicPartition`.

    ``epsilon`` is the LDP level α asked, ``truncation`` the level M; ``z_only=True`` releases Z
    alone (the classifier). Default: exact lattice sampler (module docstring: proof);
    ``idealised=True``: the paper's continuous Laplace in floating point. ``privacy`` reports α;
    ``effective_epsilon`` the exact level (≤ α).

    Entry points: :meth:`randomise` (many users, the two-party API), :meth:`sample` (one user's
    record, ``size`` independent reports: the mechanism view), :meth:`collect` and
    :meth:`collect_in_law` (the sums the server needs), :meth:`pmf` (the exact law of a report).
    """

    def __init__(
        self,
        partition: Annotated[CubicPartition, Instance(types=(CubicPartition,))],
        epsilon: LocalEpsilonArg,
        truncation: TruncationArg,
        z_only: FlagArg = False,
        *,
        idealised: FlagArg = False,
    ) -> None:
        self.partition = partition
        self.epsilon = epsilon
        self.truncation = truncation
        self.z_only = z_only
        self.idealised = idealised
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
            epsilon_r = epsilon_rational(self.epsilon)
            budget = epsilon_r if self.z_only else epsilon_r / 2
            self.scale_z = _lattice_scale(2 * self.z_units_max, budget)
            self.noise_z = DiscreteLaplaceNoise(scale=self.scale_z)
            level = Fraction(2 * self.z_units_max) / self.scale_z
            if self.z_only:
                self.scale_w, self.noise_w, self.sigma_w = None, None, 0.0
            else:
                self.scale_w = _lattice_scale(2 * W_ONE, budget)
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

    @property
    def parts(self) -> int:
        """Report parts released per cell: 2 (W and Z), or 1 with Z only."""
        return 1 if self.z_only else 2

    def _require_draws(self, users: int, name: str) -> None:
        """Refuse, before any work, a call drawing more report coordinates than one call may."""
        coordinates = users * self.partition.n_cells * self.parts
        check_limit(coordinates, name, "draws")
        require_within(coordinates * BYTES_PER_COORDINATE, MEMORY_LIMIT, name, "bytes")

    def _signal(self, X: NDArray[np.float64], y: NDArray[Any]) -> tuple[NDArray[np.int64], Any]:
        """Each user's cell (−1 outside) and Z signal in report units: the truncated response
        [y]_M (L136), snapped to lattice units rint([y]_M/γ_Z) on the default path."""
        if X.shape[1] != self.partition.d:
            raise ValueError(f"x: expected {self.partition.d} features, got {X.shape[1]}")
        Y = np.asarray(y, dtype=np.float64)
        if Y.shape[0] != X.shape[0]:
            raise ValueError(f"y: expected {X.shape[0]} responses, got {Y.shape[0]}")
        truncated = np.clip(Y, -self.truncation, self.truncation)
        units = truncated if self.idealised else np.rint(truncated / self.step_z)
        return self.partition.cell_index(X), units

    def _record(self, data: NDArray[np.float64]) -> tuple[NDArray[np.float64], float]:
        """One user's record (x_1..x_d, y) as (x of shape (1, d), y)."""
        d = self.partition.d
        if data.shape[0] != d + 1:
            raise ValueError(
                f"data: one user's record (x_1, ..., x_{d}, y): expected {d + 1} numbers, got "
                f"{data.shape[0]}"
            )
        return data[None, :d].astype(np.float64), float(data[d])

    @property
    def _w_signal(self) -> float:
        """The W signal 1{x ∈ A_j} in report units."""
        return 1.0 if self.idealised else float(W_ONE)

    def _law(self, x: NDArray[np.float64], y: float) -> ReportLaw:
        cells, units = self._signal(x, np.array([y]))
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

    def pmf(self, data: RecordArg, window: WindowArg = None) -> Any:
        """The exact law of the report of one user with record ``data`` = (x_1..x_d, y), from
        the signal and the noise objects :meth:`randomise` uses.

        The support is infinite (a lattice of 2N coordinates, N with Z only), so without
        ``window`` the law is returned as a :class:`ReportLaw`: independent coordinates, each a
        discrete Laplace pmf (exact path) or a Laplace density (idealised) around the signal.
        With ``window`` = (lo, hi) (exact path only) it is the dict of the probabilities of the
        reports in the box [lo, hi]^coordinates in lattice units (report / step), at most
        ``LIMITS["outcomes"]`` of them.
        """
        x, y = self._record(np.asarray(data, dtype=np.float64))
        if window is not None:
            lo, hi = window
            if self.idealised:
                raise ValueError(
                    "window: the idealised report law is continuous (a density); call "
                    "pmf(data) for its ReportLaw"
                )
            count = float(hi - lo + 1) ** (self.partition.n_cells * self.parts)
            require_within(count, LIMITS["outcomes"], "window", "outcomes")
        law = self._law(x, y)
        return law if window is None else law._box(window[0], window[1])

    def report_law(
        self, x: Annotated[ArrayLike, Array(ndim=1)], y: Annotated[float, Real(clean=0.5)]
    ) -> ReportLaw:
        """Deprecated alias of :meth:`pmf` (the old signature: x and y apart)."""
        import warnings

        warnings.warn(
            "LocalRandomiser.report_law(x, y) is deprecated; use pmf(data) with data = (x, y)",
            DeprecationWarning,
            stacklevel=2,
        )
        law: ReportLaw = self.pmf(np.append(np.asarray(x, dtype=np.float64), y))
        return law

    report_law.__deprecated_alias_of__ = "pmf"  # type: ignore[attr-defined]

    def randomise(
        self, x: FeaturesArg, y: ResponsesArg, rng: GeneratorArg
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The reports (W, Z) of the users with inputs (x, y): two (n, N) arrays (W is all
        zeros with ``z_only``). This is what each user sends; memory is 2·n·N numbers, at most
        ``LIMITS["draws"]`` per call. On the default path every entry is an exact multiple of
        γ_W (W) or γ_Z (Z)."""
        X = np.asarray(x, dtype=np.float64)
        self._require_draws(X.shape[0], "x")
        return self._randomise(X, np.asarray(y, dtype=np.float64), rng)

    def _randomise(
        self, X: NDArray[np.float64], Y: NDArray[np.float64], rng: np.random.Generator
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        cells, units = self._signal(X, Y)
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

    def sample(self, data: RecordArg, size: SizeArg, rng: GeneratorArg) -> NDArray[np.float64]:
        """``size`` independent reports of one user with record ``data`` = (x_1..x_d, y): an
        array (size, 2N) of [W_1..W_N, Z_1..Z_N] (size, N of Z alone with ``z_only``), drawn
        by the same code as :meth:`randomise`."""
        x, y = self._record(np.asarray(data, dtype=np.float64))
        self._require_draws(size, "size")
        w, z = self._randomise(np.repeat(x, size, axis=0), np.full(size, y), rng)
        return z if self.z_only else np.hstack([w, z])

    def _batches(
        self, X: NDArray[np.float64], Y: NDArray[np.float64], rng: np.random.Generator, size: int
    ) -> Iterator[tuple[NDArray[np.float64], NDArray[np.float64]]]:
        """Every user's report, :meth:`randomise`'s code on at most ``size`` users at a time
        (and at most :data:`MAX_BATCH_NUMBERS` numbers per part: fewer users when N is large):
        the path :meth:`collect` (and so ``fit``) takes."""
        if Y.shape[0] != X.shape[0]:
            raise ValueError(f"y: expected {X.shape[0]} responses, got {Y.shape[0]}")
        size = max(1, min(size, MAX_BATCH_NUMBERS // self.partition.n_cells))
        for start in range(0, X.shape[0], size):
            yield self._randomise(X[start : start + size], Y[start : start + size], rng)

    def collect(
        self, x: FeaturesArg, y: ResponsesArg, rng: GeneratorArg, batch_size: BatchSizeArg = 4096
    ) -> Reports:
        """The sums of every user's report, drawn batch by batch (post-processing). Memory is
        O(min(batch_size·N, MAX_BATCH_NUMBERS) + N + n·d): 10⁶ users fit for any N."""
        X = np.asarray(x, dtype=np.float64)
        Y = np.asarray(y, dtype=np.float64)
        big_n = self.partition.n_cells
        w_total, z_total = np.zeros(big_n), np.zeros(big_n)
        for w, z in self._batches(X, Y, rng, batch_size):
            w_total += w.sum(axis=0)
            z_total += z.sum(axis=0)
        return Reports(X.shape[0], w_total, z_total)

    def _blocks(self, n: int, scale: Fraction) -> tuple[int, int, int]:
        """(block, blocks, rest): NB(n, p) is drawn as the sum of NB(block, p) over ``blocks``
        blocks and one NB(rest, p); the block is the largest numpy's sampler takes,
        odds·(b + 10√b) ≤ NB_LAMBDA_MAX (α ≥ 2^−32 gives b ≥ 1). Refused beyond
        ``LIMITS["draws"]`` draws."""
        p = -math.expm1(-1.0 / float(scale))  # 1 − q
        room = NB_LAMBDA_MAX * p / (1.0 - p)
        root = (math.sqrt(100.0 + 4.0 * room) - 10.0) / 2.0
        block = max(1, min(n, int(root * root)))
        blocks, rest = divmod(n, block)
        if blocks * self.partition.n_cells > LIMITS["draws"]:
            raise ValueError(
                f"epsilon: {self.epsilon!r} with simulate='in-law' and n={n} needs {blocks} "
                "negative-binomial blocks per cell (numpy's sampler limit), beyond "
                f"{LIMITS['draws']} draws; use a larger epsilon or simulate='users'"
            )
        return block, blocks, rest

    def collect_in_law(self, x: FeaturesArg, y: ResponsesArg, rng: GeneratorArg) -> Reports:
        """The same sums drawn from their law without per-user noise, O(n + N) time: each
        cell's noise total is NB(n, 1 − q) − NB(n, 1 − q) lattice units (q = e^{−1/t}; the sum
        of n discrete Laplace variables) on the default path, σ·(Gamma(n, 1/√2) −
        Gamma(n, 1/√2)) on the idealised one. numpy draws these with floating point (a
        simulation of the server's view; see the module docstring)."""
        X = np.asarray(x, dtype=np.float64)
        cells, units = self._signal(X, np.asarray(y, dtype=np.float64))
        n, big_n = cells.shape[0], self.partition.n_cells
        plans = {}
        if not self.idealised:  # the draws each total needs, refused before any draw
            for scale in (self.scale_w, self.scale_z):
                if scale is not None:
                    plans[scale] = self._blocks(n, scale)
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
            block, blocks, rest = plans[scale]
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


@checked
def aggregate(
    reports: Annotated[
        Reports,
        Instance(types=(Reports,), clean=Reports(2, np.array([2.0, 0.0]), np.array([1.0, -0.5]))),
    ],
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The server's estimates (ν̃(A_j), μ̃(A_j)) = (Σ Z, Σ W)/n over the N cells."""
    return np.asarray(reports.z_sum) / reports.n, np.asarray(reports.w_sum) / reports.n
