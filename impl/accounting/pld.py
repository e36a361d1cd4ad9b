"""Privacy loss of shifted location-family noise, composed: the upper side of a replay audit.

A replay couples the noise of D' to the noise of D by a shift (z' = z + t, in units of each
draw's scale) so that both release the same value. The release is then a post-processing of
the noise, and the pair's privacy curve is at most that of the shifted noise itself: for each
direction, the privacy loss random variable L = Σ_i [log p_i(Z_i) − log p_i(Z_i + t_i)], Z_i ~ p_i
independent, and δ(ε) = E[(1 − e^{ε − L})₊] (Balle, Barthe & Gaboardi 2018; the privacy loss
distribution of Sommer, Meiser & Mohammadi 2019).

What is computed, by the shifts' families:

* **pure** (δ = 0): ε = Σ_i sup_z |log p(z) − log p(z + t_i)|: |t| for Laplace and logistic,
  ∞ for Gaussian and Gumbel unless t = 0 (their log-density ratio is unbounded);
* **Gaussian only**: exact μ-composition, μ = ‖t‖₂, δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2)
  (Balle & Wang 2018, Thm 8), ε(δ) by root finding to 1e-12;
* **otherwise**: a discretised privacy loss distribution, once *pessimistic* (every loss value
  rounded up to the grid, mass beyond the grid's top counted at +∞) and once *optimistic*
  (rounded down, mass below the grid's floor dropped). Composition is convolution on the grid;
  the true ε(δ) lies between the two results. Each family is log-concave, so the loss is
  monotone in z and its supremum and infimum over a cell are at the cell's ends.

Floating point: the cells' masses come from scipy's cdf/sf (relative error ~1e-15); the FFT
convolution adds an absolute error ≤ 1e-12 per entry, added to the pessimistic δ.

This is the package's one engine for composing privacy losses on a grid (the replay auditor,
:mod:`dpspec.audit.replay`, calls it; it was ``dpspec.audit._privacy_loss`` before 0.3). The
exact counterpart for finite output laws, in ``Fraction`` arithmetic, is
:mod:`dpspec.accounting.exact`. Every public function checks its declared arguments
(:func:`~dpspec.validation.checked`): a family outside :data:`FAMILIES`' values, a NaN shift or
a δ outside [0, 1) is refused naming the parameter.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray
from scipy import optimize, special, stats

from dpspec.validation import (
    Array,
    Checked,
    Choice,
    Delta,
    Domain,
    FlagArg,
    InputTypeError,
    Integer,
    Real,
    as_finite_array,
    checked,
    example,
)

#: the location families a replay couples by a shift, by numpy Generator method
FAMILIES: dict[str, str] = {
    "laplace": "laplace",
    "normal": "gaussian",
    "standard_normal": "gaussian",
    "gumbel": "gumbel",
    "logistic": "logistic",
}

#: the standardised laws (loc 0, scale 1) of the families, as numpy draws them
_LAWS = {
    "laplace": stats.laplace,
    "gaussian": stats.norm,
    "gumbel": stats.gumbel_r,
    "logistic": stats.logistic,
}

#: A location family, by the name the engine uses (a value of :data:`FAMILIES`).
FamilyArg = Annotated[str, Choice(options=("laplace", "gaussian", "gumbel", "logistic"))]
#: A shift t of a standardised draw, in units of its scale (any finite real).
ShiftArg = Annotated[float, Real()]
#: μ = ‖t‖₂ of a Gaussian composition (≥ 0).
MuArg = Annotated[float, Real(0.0, clean=1.0)]
#: A privacy level ε at which a curve is read (a finite real; ε < 0 is allowed by the formula).
LevelArg = Annotated[float, Real(clean=1.0)]
#: A target δ ∈ [0, 1).
TargetDeltaArg = Annotated[float, Delta()]
#: An absolute error (≥ 0) added to a pessimistic δ.
ErrorArg = Annotated[float, Real(0.0, clean=0.0)]

#: grid width of the discretised loss (nats)
GRID = 1e-3
#: losses beyond ±LOSS_CAP are truncated (pessimistic: to +∞ above, to −cap below)
LOSS_CAP = 64.0
#: absolute error bound of one FFT convolution entry, added to the pessimistic δ
FFT_ERROR = 1e-12
#: the tail mass beyond the outermost cells of a family's discretisation (each side)
TAIL = 1e-40


@example(__call__={"family": "laplace", "z": np.array([-1.0, 0.0, 2.5])})
@checked
def logpdf(
    family: FamilyArg, z: Annotated[NDArray[np.float64], Array(empty=True)]
) -> NDArray[np.float64]:
    """log p(z) of the standardised ``family``."""
    if family == "laplace":
        return -np.abs(z) - math.log(2.0)
    if family == "gaussian":
        return -0.5 * z * z - 0.5 * math.log(2 * math.pi)
    if family == "gumbel":
        return -z - np.exp(-z)
    if family == "logistic":
        return -z - 2.0 * np.logaddexp(0.0, -z)
    raise ValueError(f"family: unknown {family!r}")


@example(__call__={"family": "laplace", "shift": 0.5})
@checked
def pure_epsilon(family: FamilyArg, shift: ShiftArg) -> float:
    """sup_z |log p(z) − log p(z + t)| of the standardised ``family`` shifted by ``shift``."""
    if shift == 0:
        return 0.0
    if family in ("laplace", "logistic"):
        return abs(shift)
    return math.inf


@checked
def gaussian_delta(epsilon: LevelArg, mu: MuArg) -> float:
    """δ(ε) of the Gaussian mechanism with μ = sensitivity/σ (Balle & Wang 2018, Thm 8),
    the e^ε Φ(·) term taken in logs."""
    if mu == 0:
        return 0.0
    a = -epsilon / mu + mu / 2
    b = -epsilon / mu - mu / 2
    return float(special.ndtr(a) - math.exp(epsilon + float(special.log_ndtr(b))))


@example(__call__={"delta": 1e-5, "mu": 1.0})
@checked
def gaussian_epsilon(delta: TargetDeltaArg, mu: MuArg) -> float:
    """The smallest ε ≥ 0 with δ(ε) ≤ ``delta`` for the Gaussian mechanism with μ, to 1e-12
    (0 when μ = 0; ∞ when δ = 0 and μ > 0)."""
    if mu == 0:
        return 0.0
    if delta <= 0:
        return math.inf
    if gaussian_delta(0.0, mu) <= delta:
        return 0.0
    top = 1.0
    while gaussian_delta(top, mu) > delta:
        top *= 2
    return float(optimize.brentq(lambda e: gaussian_delta(e, mu) - delta, 0.0, top, xtol=1e-12))


@example(__init__={"offset": -2, "mass": np.array([0.25, 0.5, 0.25]), "infinite": 0.0})
@dataclass(frozen=True)
class LossGrid(Checked):
    """A discretised privacy loss distribution: P(L = (offset + k)·GRID) = ``mass[k]``, and
    ``infinite`` = P(L = +∞)."""

    offset: Annotated[int, Integer(-(2**62), hi=2**62, clean=0)]
    mass: Annotated[NDArray[np.float64], Array(ndim=1)]
    infinite: Annotated[float, Real(0.0, clean=0.0)]

    def delta(self, epsilon: LevelArg, error: ErrorArg = 0.0) -> float:
        """E[(1 − e^{ε − L})₊] + P(L = ∞) (+ ``error``)."""
        losses = (self.offset + np.arange(self.mass.size)) * GRID
        above = losses > epsilon
        terms = self.mass[above] * -np.expm1(epsilon - losses[above])
        return float(terms.sum()) + self.infinite + error

    def epsilon(self, delta: TargetDeltaArg, error: ErrorArg = 0.0) -> float:
        """The smallest ε ≥ 0 with :meth:`delta` ≤ ``delta`` (to GRID/1000), ∞ when none."""
        if self.infinite + error > delta:
            return math.inf
        if self.delta(0.0, error) <= delta:
            return 0.0
        lo, hi = 0.0, (self.offset + self.mass.size) * GRID
        while hi - lo > GRID / 1000:
            mid = (lo + hi) / 2
            if self.delta(mid, error) <= delta:
                hi = mid
            else:
                lo = mid
        return hi


@dataclass(frozen=True)
class _Grids(Domain):
    """A non-empty list or tuple of :class:`LossGrid` (what :func:`compose` convolves)."""

    def convert(self, value: Any, name: str) -> list[LossGrid]:
        if not isinstance(value, list | tuple) or not value:
            raise InputTypeError(
                f"{name}: expected a non-empty list of LossGrid, got {value!r:.60}"
            )
        for i, g in enumerate(value):
            if not isinstance(g, LossGrid):
                raise InputTypeError(f"{name}[{i}]: expected a LossGrid, got {type(g).__name__}")
        return list(value)

    def hostile(self) -> tuple[Any, ...]:
        return (*super().hostile(), [], (), [1.0], "grids", 3, [LossGrid(0, np.ones(1), 0.0), 2])

    def describe(self) -> str:
        return "a non-empty list of LossGrid"


@dataclass(frozen=True)
class _Shifts(Domain):
    """The shifts of the draws by family: a non-empty mapping from a family name (a value of
    :data:`FAMILIES`) to an array of finite reals (any shape, read flat; empty allowed)."""

    def convert(self, value: Any, name: str) -> dict[str, NDArray[np.float64]]:
        if not isinstance(value, dict) or not value:
            raise InputTypeError(f"{name}: expected a non-empty dict family -> shifts")
        out: dict[str, NDArray[np.float64]] = {}
        for family, t in value.items():
            if not isinstance(family, str) or family not in _LAWS:
                raise ValueError(f"{name}: unknown family {family!r} (one of {sorted(_LAWS)})")
            arr = np.asarray(t) if not isinstance(t, str | bytes | dict) else None
            if arr is not None and arr.size == 0:
                out[family] = np.zeros(0)
                continue
            out[family] = as_finite_array(t, f"{name}[{family!r}]").astype(np.float64)
        return out

    def hostile(self) -> tuple[Any, ...]:
        return (
            *super().hostile(),
            {},
            {"bogus": [1.0]},
            {"laplace": [math.nan]},
            {"laplace": ["a"]},
            {1: [1.0]},
            "laplace",
            [1.0],
        )

    def describe(self) -> str:
        return "a dict from family names to arrays of finite shifts"


def _cells(family: str, shift: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Cell ends z_0 < … < z_m covering all but TAIL of each side of the standardised
    ``family``, and their masses (differences of the cdf left of the median, of the sf right
    of it, for relative precision in both tails). The loss is monotone, so its variation over
    each of 4096 coarse cells is the difference at the ends; a coarse cell is cut into enough
    equal pieces that each moves the loss by about GRID/4 on average."""
    law = _LAWS[family]
    lo, hi = float(law.ppf(TAIL)), float(law.isf(TAIL))
    coarse = np.linspace(lo, hi, 4097)
    loss = logpdf(family, coarse) - logpdf(family, coarse + shift)
    pieces = np.maximum(1, np.ceil(4 * np.abs(np.diff(loss)) / GRID)).astype(np.int64)
    if int(pieces.sum()) > 4_000_000:
        pieces = np.maximum(1, pieces * 4_000_000 // int(pieces.sum()))
    which = np.repeat(np.arange(pieces.size), pieces)
    starts = np.cumsum(pieces) - pieces
    step = np.arange(which.size) - starts[which]
    width = np.diff(coarse)
    ends = np.append(coarse[which] + width[which] * step / pieces[which], hi)
    median = float(law.median())
    left = ends <= median
    cdf = np.where(left, law.cdf(np.where(left, ends, median)), 0.5)
    sf = np.where(left, 0.5, law.sf(np.where(left, median, ends)))
    # F(z) = cdf(z) left of the median, 1 − sf(z) right of it; a cell's mass is ΔF, taken
    # within one tail as a difference of that tail's function
    masses = np.where(left[1:], cdf[1:] - cdf[:-1], sf[:-1] - sf[1:])
    straddle = left[:-1] & ~left[1:]
    masses[straddle] = (0.5 - cdf[:-1][straddle]) + (0.5 - sf[1:][straddle])
    return ends, np.maximum(masses, 0.0)


@example(__call__={"family": "laplace", "shift": 0.5, "pessimistic": True})
@checked
def family_grid(family: FamilyArg, shift: ShiftArg, pessimistic: FlagArg) -> LossGrid:
    """The loss L = log p(Z) − log p(Z + ``shift``), Z ~ standardised ``family``, on the grid:
    rounded up (``pessimistic``) or down; the two TAIL masses beyond the cells at +∞ and at
    the cap (pessimistic) or dropped (optimistic)."""
    if shift == 0:
        return LossGrid(0, np.ones(1), 0.0)
    ends, masses = _cells(family, shift)
    losses = logpdf(family, ends) - logpdf(family, ends + shift)
    top = np.maximum(losses[1:], losses[:-1])
    bottom = np.minimum(losses[1:], losses[:-1])
    values = top if pessimistic else bottom
    infinite = 2 * TAIL if pessimistic else 0.0
    return _to_grid(values, masses, infinite, pessimistic)


def _to_grid(
    values: NDArray[np.float64], masses: NDArray[np.float64], infinite: float, pessimistic: bool
) -> LossGrid:
    """Loss values with masses put on the grid (up or down), truncated at ±LOSS_CAP."""
    cap = round(LOSS_CAP / GRID)
    scaled = values / GRID
    index = np.ceil(scaled - 1e-9) if pessimistic else np.floor(scaled + 1e-9)
    index = np.nan_to_num(index, nan=cap + 1, posinf=cap + 1, neginf=-cap - 1)
    if pessimistic:
        infinite += float(masses[index > cap].sum())
        keep = index <= cap
        idx = np.maximum(index[keep], -cap).astype(np.int64)
    else:
        keep = index >= -cap
        idx = np.minimum(index[keep], cap).astype(np.int64)
    low = int(idx.min()) if idx.size else 0
    mass = (
        np.bincount(idx - low, weights=masses[keep]).astype(np.float64) if idx.size else np.zeros(1)
    )
    return LossGrid(low, mass, infinite)


@example(__call__={"mu": 0.5, "pessimistic": True})
@checked
def gaussian_grid(mu: MuArg, pessimistic: FlagArg) -> LossGrid:
    """The Gaussian loss L ~ N(μ²/2, μ²) on the grid (cells of width GRID in loss space,
    masses from the normal cdf/sf)."""
    if mu == 0:
        return LossGrid(0, np.ones(1), 0.0)
    mean, sd = mu * mu / 2, mu
    lo = max(mean - 40 * sd, -LOSS_CAP)
    hi = min(mean + 40 * sd, LOSS_CAP)
    ends = np.arange(math.floor(lo / GRID), math.ceil(hi / GRID) + 1) * GRID
    z = (ends - mean) / sd
    masses = np.where(
        z[1:] <= 0,
        special.ndtr(z[1:]) - special.ndtr(z[:-1]),
        special.ndtr(-z[:-1]) - special.ndtr(-z[1:]),
    )
    masses = np.maximum(masses, 0.0)
    values = np.asarray(ends[1:] if pessimistic else ends[:-1], dtype=np.float64)
    above = float(special.ndtr(-(ends[-1] - mean) / sd))
    below = float(special.ndtr((ends[0] - mean) / sd))
    grid = _to_grid(values, masses, above if pessimistic else 0.0, pessimistic)
    if pessimistic:  # the mass below the grid's floor, rounded up to its first cell
        grid.mass[0] += below
    else:
        grid.mass[-1] += above
    return grid


@example(
    __call__={
        "grids": [LossGrid(-1, np.array([0.5, 0.5]), 0.0), LossGrid(0, np.array([1.0]), 0.0)],
        "pessimistic": True,
    }
)
@checked
def compose(grids: Annotated[Iterable[LossGrid], _Grids()], pessimistic: FlagArg) -> LossGrid:
    """The grid of the sum of independent losses: convolution, truncated at ±LOSS_CAP after
    each step (pessimistically: above the cap to +∞, below to −cap; optimistically: above to
    the cap, below dropped)."""
    from scipy.signal import fftconvolve

    cap = round(LOSS_CAP / GRID)
    out = LossGrid(0, np.ones(1), 0.0)
    for g in grids:
        small = min(out.mass.size, g.mass.size) < 64
        mass = np.convolve(out.mass, g.mass) if small else fftconvolve(out.mass, g.mass)
        mass = np.maximum(mass, 0.0)
        offset = out.offset + g.offset
        finite = 1.0 - out.infinite
        infinite = out.infinite + g.infinite * finite
        idx = offset + np.arange(mass.size)
        if pessimistic:
            infinite += float(mass[idx > cap].sum())
            low_mass = float(mass[idx < -cap].sum())
            keep = (idx <= cap) & (idx >= -cap)
        else:
            high_mass = float(mass[idx > cap].sum())
            keep = (idx <= cap) & (idx >= -cap)
        kept = mass[keep]
        new_offset = int(idx[keep][0]) if kept.size else 0
        if kept.size == 0:
            kept = np.zeros(1)
        if pessimistic and low_mass:
            kept[0] += low_mass
        if not pessimistic and high_mass:
            kept[-1] += high_mass
        out = LossGrid(new_offset, kept, infinite)
    return out


@dataclass(frozen=True)
class Curve:
    """ε(δ) of a composition of shifted draws: ``upper`` (pessimistic), ``lower``
    (optimistic; equal to ``upper`` where the result is closed-form), both maximised over the
    two directions, and how it was computed."""

    __dpspec_declarative__ = "the curve epsilon_of returns (a record)"

    upper: float
    lower: float
    method: str


@example(__call__={"shifts": {"laplace": np.array([0.5, -0.25])}, "delta": 1e-5})
@checked
def epsilon_of(
    shifts: Annotated[dict[str, NDArray[np.float64]], _Shifts()], delta: TargetDeltaArg
) -> Curve:
    """ε(δ) of independent standardised draws of each family shifted by ``shifts[family]``
    (both directions: +t and −t)."""
    shifts = {f: np.asarray(t, dtype=np.float64).ravel() for f, t in shifts.items()}
    shifts = {f: t[t != 0] for f, t in shifts.items()}
    shifts = {f: t for f, t in shifts.items() if t.size}
    if not shifts:
        return Curve(0.0, 0.0, "no shifted draw: the pair's releases are equal in law")
    pure = sum((pure_epsilon(f, float(x)) for f, t in shifts.items() for x in t), 0.0)
    if delta == 0:
        return Curve(pure, pure, "pure: the sum of each draw's sup |log-density ratio|")
    if set(shifts) == {"gaussian"}:
        mu = float(np.linalg.norm(shifts["gaussian"]))
        eps = gaussian_epsilon(delta, mu)
        return Curve(
            min(eps + 1e-9, pure), min(eps, pure), f"Gaussian mu-composition, mu = {mu:.6g}"
        )
    uppers: list[float] = []
    lowers: list[float] = []
    for sign in (1.0, -1.0):
        for pessimistic, out in ((True, uppers), (False, lowers)):
            grids = _grids(shifts, sign, pessimistic)
            total = compose(grids, pessimistic)
            error = FFT_ERROR * len(grids) if pessimistic else 0.0
            out.append(total.epsilon(delta, error) if pessimistic else total.epsilon(delta))
    upper = min(max(uppers), pure)
    lower = min(max(lowers), upper)
    return Curve(
        upper,
        lower,
        f"privacy loss distribution, grid {GRID} nats, pessimistic and optimistic rounding",
    )


def _grids(
    shifts: dict[str, NDArray[np.float64]], sign: float, pessimistic: bool
) -> list[LossGrid]:
    """One grid per distinct (family, shift), composed with itself as often as it occurs
    (by repeated squaring); the Gaussian draws as one μ."""
    grids: list[LossGrid] = []
    for family, t in shifts.items():
        if family == "gaussian":
            grids.append(gaussian_grid(float(np.linalg.norm(t)), pessimistic))
            continue
        values, counts = np.unique(np.round(sign * t, 12), return_counts=True)
        for value, count in zip(values.tolist(), counts.tolist(), strict=True):
            base = family_grid(family, float(value), pessimistic)
            grids.extend(_power(base, int(count), pessimistic))
    return grids


def _power(grid: LossGrid, count: int, pessimistic: bool) -> list[LossGrid]:
    """``grid`` composed ``count`` times, as a short list of grids to convolve."""
    out: list[LossGrid] = []
    square = grid
    while count:
        if count & 1:
            out.append(square)
        count >>= 1
        if count:
            square = compose([square, square], pessimistic)
    return out


#: The constant c of the normwise error bound of a floating-point FFT of length N,
#: ‖fl(F x) − F x‖₂ ≤ c·log₂N·u·‖F x‖₂ (u the unit roundoff; Higham 2002, "Accuracy and
#: Stability of Numerical Algorithms", the chapter on the FFT: c ≈ 4√2 + the twiddles' error
#: for radix 2; 8 is taken for pocketfft's mixed radices, an assumption stated, not proven).
FFT_CONSTANT = 8.0
#: The largest circular length :func:`power_fft` accepts (about 0.5 GiB of working arrays).
MAX_FFT = 2**25
#: The unit roundoff of float64.
UNIT = 2.0**-53

#: A non-negative mass vector (finite reals).
MassArg = Annotated[NDArray[np.float64], Array(ndim=1)]
#: How many copies are composed.
CopiesArg = Annotated[int, Integer(1, hi=2**40, clean=3)]
#: A circular length.
SizeArg = Annotated[int, Integer(1, hi=MAX_FFT, clean=8)]


def _binary_power(z: NDArray[np.complex128], k: int) -> NDArray[np.complex128]:
    """z^k entrywise by square-and-multiply (at most 2·log₂k complex products)."""
    result: NDArray[np.complex128] | None = None
    base = z.copy()
    while k:
        if k & 1:
            result = base.copy() if result is None else result * base
        k >>= 1
        if k:
            base *= base
    assert result is not None
    return result


def _full_square_norm(half: NDArray[np.float64], n: int) -> float:
    """Σ_j |Z_j|² over the full spectrum of length ``n`` from the moduli of its rfft half
    (every entry but the first, and the last when n is even, stands for two)."""
    total = 2 * float(np.dot(half, half)) - float(half[0]) ** 2
    if n % 2 == 0:
        total -= float(half[-1]) ** 2
    return max(total, 0.0)


@example(__call__={"mass": np.array([0.25, 0.5, 0.25]), "copies": 3, "size": 8})
@checked
def power_fft(mass: MassArg, copies: CopiesArg, size: SizeArg) -> tuple[NDArray[np.float64], float]:
    """The ``copies``-fold circular self-convolution of ``mass`` (entry i at i mod ``size``) by
    ONE FFT power — y = F⁻¹((F x)^k) — and a bound on its floating-point error ‖ỹ − y‖₁.

    The bound (Koskela, Jälkö & Honkela 2020, "Computing tight differential privacy guarantees
    using FFT", AISTATS, arXiv:1906.03049, compose by one power; the error model is the normwise
    FFT bound of :data:`FFT_CONSTANT`, γ = c·log₂N·u): with X = F x, ‖X̃ − X‖₂ ≤ γ‖X‖₂ =
    γ√N‖x‖₂ =: e, every |X_j| ≤ s = ‖x‖₁, so |X̃_j^k − X_j^k| ≤ k(s + e)^{k−1}|X̃_j − X_j|; the
    power, by square-and-multiply, has relative error at most ρ = (1 + μ)^{k−1} − 1 per entry
    (μ = √2·γ₂ per complex product; a chain of products for z^k compounds at most k − 1 of
    them, by induction on the chain); the inverse FFT adds γ‖Ỹ‖₂/√N in ℓ2. The ℓ1 norm is at
    most √N times the ℓ2 norm, and ‖F⁻¹Z‖₂ = ‖Z‖₂/√N, so ‖ỹ − y‖₁ ≤ k(s + e)^{k−1}e +
    ‖pow error‖₂ + γ‖Ỹ‖₂ (returned, with a factor 1 + 10^-6 for the bound's own rounding).
    Entries below 0 (float noise) are set to 0, which moves no entry away from its exact value.
    ``copies`` × log₂N must stay below 2^40 (checked by the domains)."""
    from scipy import fft

    if np.any(mass < 0):
        raise ValueError("mass: entries must be >= 0")
    n = size
    if mass.size <= n:
        folded = np.zeros(n)
        folded[: mass.size] = mass
    else:
        folded = np.bincount(np.arange(mass.size) % n, weights=mass, minlength=n).astype(np.float64)
    if copies == 1:  # no transform: the entries themselves (a fold adds ≤ n·u of the sum)
        return folded, (0.0 if mass.size <= n else n * UNIT * float(folded.sum()))
    gamma = FFT_CONSTANT * max(1.0, math.log2(n)) * UNIT
    spectrum = fft.rfft(folded)
    total = float(folded.sum()) * (1 + 2 * n * UNIT)
    e = gamma * math.sqrt(n) * float(np.linalg.norm(folded))
    power = _binary_power(spectrum, copies)
    del spectrum
    # each complex product has relative error ≤ μ = √2·γ₂; a multiplication chain for z^k
    # compounds at most k − 1 of them: relative error ≤ (1 + μ)^{k−1} − 1 =: ρ
    mu = math.sqrt(2) * 2 * UNIT / (1 - 2 * UNIT)
    rho = math.expm1((copies - 1) * math.log1p(mu))
    norm = math.sqrt(_full_square_norm(np.abs(power), n))
    pow_err = rho / (1 - rho) * norm + math.sqrt(n) * 1e-300  # + what underflow can lose
    inverse = gamma * norm
    y = fft.irfft(power, n)
    grow = math.exp((copies - 1) * math.log1p(e / total)) if total > 0 else 1.0
    first = copies * total ** (copies - 1) * grow * e if total > 0 else 0.0
    error = (first + pow_err + inverse) * (1 + 1e-6)
    return np.maximum(y, 0.0), error


__all__ = [
    "FAMILIES",
    "FFT_CONSTANT",
    "FFT_ERROR",
    "GRID",
    "LOSS_CAP",
    "MAX_FFT",
    "TAIL",
    "Curve",
    "LossGrid",
    "compose",
    "epsilon_of",
    "family_grid",
    "gaussian_delta",
    "gaussian_epsilon",
    "gaussian_grid",
    "logpdf",
    "power_fft",
    "pure_epsilon",
]
