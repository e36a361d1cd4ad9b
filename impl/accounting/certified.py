"""Certified δ(ε) and ε(δ) of k identical steps: one step's loss on a grid, k copies by one FFT
power (:func:`dpspec.accounting.pld.power_fft`), every error bounded and added on the safe side.

**One step** (:class:`Step`, one direction (P, Q) of a relation): cells of the privacy loss
L = log P/Q under P, cell i of P-mass ``masses[i]`` with its loss in [``lower[i]``,
``upper[i]``] (for a loss monotone in the output the range of a cell is given by its ends), the
atom P(L = ∞) (``infinite``), and a truncated mass (``tail``, finite losses not represented:
put at +∞ on the upper side, dropped on the lower side). A finite law's loss distribution is a
step too (:func:`distribution_step`: each atom a cell of width the float error of log r), so the
exact engine (:mod:`dpspec.accounting.exact`) can check this one on every finite case.

**Discretisation**, mean-preserving (Gopi, Lee & Wutschitz 2021, "Numerical composition of
differential privacy", NeurIPS, arXiv:2106.02848): on the upper side each cell's value is
v = ``upper`` + ρ (ρ bounds the float error of the loss and of the rounding arithmetic), and its
mass is split between the grid points ⌊v/h⌋h and ⌈v/h⌉h so that the mean is v; on the lower side
v = ``lower`` − ρ. Couple each step's L_i with V_i (the cell's value: V_i ≥ L_i upper, ≤ lower)
and with its rounding Ỹ_i: R_i = Ỹ_i − V_i has mean 0 given V_i and range h, so by Hoeffding's
inequality P(Σ R_i ≤ −t) ≤ η for t = h·√(k·ln(1/η)/2). With f_ε(ℓ) = (1 − e^{ε−ℓ})₊ increasing
in ℓ and ≤ 1, δ(ε) = E_P[f_ε(L)] (Balle, Barthe & Gaboardi 2018; Sommer, Meiser & Mohammadi
2019) gives

* upper: δ(ε) ≤ 1 − (1 − P(∞) − tail)^k + Ẽ_up[f_{ε−t}(Ỹ)] + η,
* lower: δ(ε) ≥ 1 − (1 − P(∞))^k + Ẽ_lo[f_{ε+t}(Ỹ)] − η,

where Ẽ is the k-fold composition of the finite cells' grid (a sub-probability), computed by
one FFT power on a circle of N points. Errors added to the upper and subtracted from the lower:

* **masses**: ‖x̃ − x‖₁ ≤ ζ for the float masses (``mass_error`` and the rounding's products),
  so the k-fold compositions differ by at most kζ(1 + ζ)^{k−1} in ℓ1;
* **wrap-around**: the window [a, b) of the circle is chosen by Chernoff bounds of the composed
  grid loss, P(S ≥ b) ≤ e^{−λb}M(λ)^k and P(S < a) ≤ e^{λa}M(−λ)^k with M the grid's moment
  generating function (on the grid, in logs), minimised over λ ∈ {2^(i/2) : |i| ≤ 8}; the
  mass that can wrap is at most the two bounds, each ≤ :data:`WRAP`;
* **the FFT**: :func:`~dpspec.accounting.pld.power_fft`'s ℓ1 bound;
* **reading**: δ on the grid is S₁(j) − e^ε S₂(j) with suffix sums S₁ = Σ_{ℓ_i > ε} ỹ_i and
  S₂ = Σ_{ℓ_i > ε} ỹ_i e^{−ℓ_i}, sums of non-negative terms accumulated from the top (relative
  error ≤ (n + 64)·u each); a relative 2(n + 64)u of S₁ is added (subtracted).

η is free (each η gives a valid bound): several are tried and the best end kept.

**What floats cannot decide**: the FFT's error rests on the normwise error model of
:data:`~dpspec.accounting.pld.FFT_CONSTANT` (a stated assumption about pocketfft, tested
against exact compositions, not proven); an ε(δ) whose bracket would need δ resolved below the
error terms above is returned as wide as they make it (∞ when they exceed δ).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray
from scipy import fft, special

from dpspec.accounting.exact import Bracket, DistributionArg
from dpspec.accounting.pld import UNIT, power_fft
from dpspec.validation import (
    Array,
    Checked,
    Delta,
    Domain,
    InputTypeError,
    Instance,
    Integer,
    Real,
    checked,
    example,
    require_within,
)

#: Each tail of the composed grid loss left outside the circle's window is at most this mass.
WRAP = 1e-18
#: The η tried in a Hoeffding shift, as fractions of the target δ (ε(δ)) or absolute (δ(ε)).
ETA_FRACTIONS = (1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-8)
ETAS = (1e-6, 1e-8, 1e-10, 1e-12, 1e-14, 1e-16)
#: The smallest η used (the reading keeps every loss a shift of this η can reach).
TINY_ETA = 1e-300
#: Losses of a finite law's atom beyond ±CAP are truncated (tail) or raised to −CAP.
CAP = 64.0
#: Losses above this are read with weight 1 on the upper side and dropped on the lower side
#: (e^{−ℓ} would underflow); ε itself is at most 700.
EXP_CAP = 700.0

#: A grid step h (nats).
GridArg = Annotated[float, Real(1e-9, 1.0, clean=1e-3)]
#: The number of identical steps composed.
CopiesArg = Annotated[int, Integer(1, hi=2**30, clean=3)]
#: A target δ ∈ (0, 1).
TargetArg = Annotated[float, Delta(positive=True, least=1e-200)]
#: A privacy level ε ≥ 0.
LevelArg = Annotated[float, Real(0.0, 700.0, clean=0.5)]
#: A loss cap.
CapArg = Annotated[float, Real(1.0, 700.0, clean=CAP)]


@example(
    __init__={
        "lower": np.array([-0.5, 0.5]),
        "upper": np.array([-0.5, 0.5]),
        "masses": np.array([0.5, 0.5]),
    }
)
@dataclass(frozen=True)
class Step(Checked):
    """One step's loss in one direction: cell i has P-mass ``masses[i]`` and its loss in
    [``lower[i]``, ``upper[i]``]; ``infinite`` = P(L = ∞); ``tail`` the truncated mass (module
    docstring); ``mass_error`` bounds Σ|float − true| of the masses; ``value_error`` bounds the
    float error of every ``lower`` and ``upper``."""

    lower: Annotated[NDArray[np.float64], Array(ndim=1)]
    upper: Annotated[NDArray[np.float64], Array(ndim=1)]
    masses: Annotated[NDArray[np.float64], Array(ndim=1)]
    infinite: Annotated[float, Real(0.0, 1.0, clean=0.0)] = 0.0
    tail: Annotated[float, Real(0.0, 1.0, clean=0.0)] = 0.0
    mass_error: Annotated[float, Real(0.0, 1.0, clean=0.0)] = 0.0
    value_error: Annotated[float, Real(0.0, 1.0, clean=0.0)] = 0.0

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.lower.size == self.upper.size == self.masses.size:
            raise ValueError("lower, upper, masses: must have the same length")
        if np.any(self.lower > self.upper) or np.any(self.masses < 0):
            raise ValueError("lower, upper, masses: need lower <= upper and masses >= 0")


@example(__call__={"cap": CAP})
@checked
def distribution_step(pld: DistributionArg, cap: CapArg = CAP) -> Step:
    """A finite law's loss distribution as a :class:`Step`: atom (r, m) a cell at log r ± the
    float error of the log (log of numerator minus log of denominator, each within u of its
    value), of mass float(m) (within u/2 of it); losses above ``cap`` truncated (``tail``), below
    −``cap`` raised to −``cap`` (the upper side only raises them; the lower side keeps them)."""
    ratios = [r for r, _ in pld.atoms]
    logs = np.array([math.log(r.numerator) - math.log(r.denominator) for r in ratios])
    sizes = np.array([abs(math.log(r.numerator)) + abs(math.log(r.denominator)) for r in ratios])
    masses = np.array([float(m) for _, m in pld.atoms])
    err = float(4 * UNIT * (sizes.max(initial=0.0) + 1))
    above = logs > cap
    tail = float(masses[above].sum()) * (1 + 4 * UNIT * max(1, int(above.sum())))
    keep = ~above
    lower, upper = logs[keep] - err, np.maximum(logs[keep] + err, -cap)
    mass_error = UNIT * (1 + masses.size) * float(masses.sum())
    infinite = min(1.0, float(pld.infinite) * (1 + UNIT))
    return Step(lower, upper, masses[keep], infinite, min(1.0, tail), mass_error, err)


def _rounded(step: Step, grid: float, upper: bool) -> tuple[int, NDArray[np.float64], float]:
    """The side's grid: (offset, masses at (offset + i)·grid, bound on their ℓ1 float error)."""
    values = step.upper if upper else step.lower
    rho = step.value_error + 4 * UNIT * (float(np.abs(values).max(initial=0.0)) + grid)
    v = values + rho if upper else values - rho
    scaled = v / grid
    index = np.floor(scaled)
    frac = np.clip(scaled - index, 0.0, 1.0)
    offset = int(index.min()) if index.size else 0
    idx = (index - offset).astype(np.int64)
    length = int(idx.max()) + 2 if idx.size else 1
    mass = np.bincount(idx, step.masses * (1 - frac), length).astype(np.float64)
    mass += np.bincount(idx + 1, step.masses * frac, length)
    crowd = int(np.bincount(idx).max()) if idx.size else 0
    error = step.mass_error + (2 * crowd + 8) * UNIT * float(step.masses.sum())
    return offset, mass, error


def _log_mgf(losses: NDArray[np.float64], mass: NDArray[np.float64], lam: float) -> float:
    """An upper bound on log Σ_i x_i e^{λℓ_i} (the sum in logs, a float margin of 10^-12
    relative)."""
    value = float(special.logsumexp(lam * losses, b=mass))
    return value + 1e-12 * (1 + abs(value))


def _window(mass: NDArray[np.float64], offset: int, grid: float, copies: int) -> tuple[int, int]:
    """Grid indices [lo, hi] outside which the composed grid loss has mass ≤ :data:`WRAP` per
    side (Chernoff bounds, the module docstring; never beyond the composed support)."""
    keep = np.flatnonzero(mass > 0)
    losses = ((offset + keep) * grid).astype(np.float64)
    weights = mass[keep]
    top, bottom = math.inf, -math.inf
    for lam in 2.0 ** (np.arange(-8, 9) / 2):
        up = (copies * _log_mgf(losses, weights, float(lam)) - math.log(WRAP)) / lam
        down = (math.log(WRAP) - copies * _log_mgf(losses, weights, -float(lam))) / lam
        top, bottom = min(top, up), max(bottom, down)
    top = min(top, copies * (offset + mass.size) * grid)
    bottom = max(bottom, copies * offset * grid)
    return math.floor(bottom / grid) - 1, math.ceil(top / grid) + 1


@dataclass(frozen=True)
class Side:
    """One side (upper or lower) of a composed direction: suffix sums of the composed grid from
    loss ``start``·h on (S₁, S₂ of the module docstring), P(some step at ∞) ``infinite``, and
    ``extra`` (the mass, wrap-around and FFT error terms); ``rel`` the reading's relative
    error. (A record :func:`compose_step` returns.)"""

    __dpspec_declarative__ = "one side of a composed loss (a record compose_step returns)"

    start: int
    grid: float
    copies: int
    s1: NDArray[np.float64]
    s2: NDArray[np.float64]
    infinite: float
    extra: float
    rel: float

    def shift(self, eta: float) -> float:
        """Hoeffding's t = h·√(k·ln(1/η)/2)."""
        return self.grid * math.sqrt(self.copies * math.log(1 / eta) / 2) * (1 + 1e-12)

    def grid_delta(self, eps: float) -> float:
        """Σ_{ℓ_i > ε} ỹ_i (1 − e^{ε − ℓ_i}) on the grid (ε ≥ the first loss kept)."""
        j = min(max(0, math.floor(eps / self.grid) - self.start + 1), self.s1.size - 1)
        while j > 0 and (self.start + j - 1) * self.grid > eps:
            j -= 1
        while j < self.s1.size - 1 and (self.start + j) * self.grid <= eps:
            j += 1
        if eps > EXP_CAP or self.s2[j] == 0:  # e^ε S₂ dropped: an overestimate (see _side)
            return float(self.s1[j])
        return max(0.0, float(self.s1[j] - math.exp(eps) * self.s2[j]))

    def crossing(self, target: float) -> float:
        """The smallest ε' ≥ the first loss kept with :meth:`grid_delta` ≤ ``target`` (> 0)
        computed (grid bisection, then the exact solution on one cell, checked)."""
        first = (self.start - 1) * self.grid
        if self.grid_delta(first) <= target:
            return first
        lo, hi = 0, self.s1.size - 1  # grid_delta(ℓ_lo) > target ≥ grid_delta(ℓ_hi)
        if self.grid_delta(self.start * self.grid) > target:
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if self.grid_delta((self.start + mid) * self.grid) > target:
                    lo = mid
                else:
                    hi = mid
            left, j = (self.start + lo) * self.grid, hi
        else:
            left, j = first, 0
        right = (self.start + j) * self.grid
        inside = (self.s1[j] - target) / self.s2[j] if self.s2[j] > 0 else 0.0
        eps = min(max(math.log(inside), left), right) if inside > 0 else left
        for step in (0.0, 1e-15, 1e-12, 1e-9):
            trial = min(eps + step * (1 + abs(eps)), right)
            if self.grid_delta(trial) <= target:
                return trial
        return right

    def upper_delta(self, eps: float, eta: float) -> float:
        """δ(ε) ≤ this (the upper side's bound at η)."""
        value = self.grid_delta(eps - self.shift(eta)) * (1 + self.rel)
        return min(1.0, self.infinite + value + self.extra + eta)

    def lower_delta(self, eps: float, eta: float) -> float:
        """δ(ε) ≥ this (the lower side's bound at η)."""
        value = self.grid_delta(eps + self.shift(eta)) * (1 - self.rel)
        return max(0.0, self.infinite + value - self.extra - eta)

    def upper_epsilon(self, delta: float, eta: float) -> float:
        """An ε with δ(ε) ≤ ``delta`` certified (∞ when the error terms exceed ``delta``)."""
        target = (delta - self.infinite - self.extra - eta) / (1 + self.rel)
        if target <= 0:
            return math.inf
        eps = max(0.0, self.crossing(target) + self.shift(eta))
        return eps if eps == 0 else math.nextafter(eps, math.inf)

    def lower_epsilon(self, delta: float, eta: float) -> float:
        """An ε with δ(ε) > ``delta`` certified (so ε(δ) > it), or 0."""
        if self.lower_delta(0.0, eta) <= delta:
            return 0.0
        if self.infinite - self.extra - eta > delta:
            return math.inf
        target = (delta + self.extra + eta - self.infinite) / (1 - self.rel)
        eps = self.crossing(target) - self.shift(eta)
        for step in (1e-15, 1e-12, 1e-9, 1e-6):
            trial = eps - step * (1 + abs(eps))
            if trial <= 0:
                return 0.0
            if self.lower_delta(trial, eta) > delta:
                return trial
        return 0.0


def _any(mass: float, copies: int) -> float:
    """1 − (1 − mass)^k."""
    return 1.0 if mass >= 1 else float(-math.expm1(copies * math.log1p(-mass)))


#: The most circle points a side may use (refused before the FFT, stating the estimate).
MAX_POINTS = 2**22


@dataclass(frozen=True)
class ComposedLoss:
    """One direction composed: its ``upper`` and ``lower`` sides, read as certified brackets.
    (A record :func:`compose_step` returns.)"""

    __dpspec_declarative__ = "a composed direction (a record compose_step returns)"

    upper: Side
    lower: Side

    def delta_bracket(self, epsilon: float) -> Bracket:
        """A certified [lo, hi] ∋ δ(ε) (η from :data:`ETAS`, the best end of each)."""
        hi = min(self.upper.upper_delta(epsilon, e) for e in ETAS)
        lo = max(self.lower.lower_delta(epsilon, e) for e in ETAS)
        return Bracket(min(lo, hi), hi)

    def epsilon_bracket(self, delta: float) -> Bracket:
        """A certified [lo, hi] ∋ ε(δ) (η from :data:`ETA_FRACTIONS` × δ)."""
        etas = [max(f * delta, TINY_ETA) for f in ETA_FRACTIONS]
        hi = min(self.upper.upper_epsilon(delta, e) for e in etas)
        lo = max(self.lower.lower_epsilon(delta, e) for e in etas)
        return Bracket(min(lo, hi), hi)


#: A two-cell step (losses ±1/2, masses 1/2; not a pair of laws, a grid to compose).
_EXAMPLE_STEP = Step(np.array([-0.5, 0.5]), np.array([-0.5, 0.5]), np.array([0.5, 0.5]))


#: A :class:`Step`.
StepArg = Annotated[Step, Instance(types=(Step,), clean=_EXAMPLE_STEP)]


@example(__call__={"copies": 3, "grid": 1e-3})
@checked
def circle_points(step: StepArg, copies: CopiesArg, grid: GridArg) -> int:
    """The circle length the upper side of ``step`` × ``copies`` needs at ``grid`` (its Chernoff
    window, before any FFT): what :data:`MAX_POINTS` is compared with."""
    offset, mass, _ = _rounded(step, grid, True)
    lo, hi = _window(mass, offset, grid, copies)
    return int(fft.next_fast_len(hi - lo + 1, real=True))


def _side(step: Step, copies: int, grid: float, upper: bool) -> Side:
    """One side of ``step`` composed ``copies`` times (the module docstring)."""
    offset, mass, zeta = _rounded(step, grid, upper)
    lo, hi = _window(mass, offset, grid, copies)
    size = int(fft.next_fast_len(hi - lo + 1, real=True))
    require_within(size, MAX_POINTS, "grid", "grid points")
    circle, fft_error = power_fft(mass, copies, size)
    shift = (lo - copies * offset) % size
    window = np.roll(circle, -shift)
    reach = math.sqrt(copies * math.log(1 / TINY_ETA) / 2) * grid
    first = max(0, math.ceil((-reach - 1.0) / grid) - lo)
    kept = window[first:]
    start = lo + first
    losses = (start + np.arange(kept.size)) * grid
    if not upper:  # beyond EXP_CAP e^{−ℓ} underflows and δ would be read high: dropped
        kept = np.where(losses > EXP_CAP, 0.0, kept)
    with np.errstate(over="ignore"):
        s1 = np.cumsum(kept[::-1])[::-1]
        s2 = np.cumsum((kept * np.exp(-losses))[::-1])[::-1]
    s1 = np.append(s1, 0.0)
    s2 = np.append(s2, 0.0)
    total = float(mass.sum())
    masses = copies * zeta * math.exp((copies - 1) * math.log1p(zeta)) * max(1.0, total) ** copies
    extra = (masses + 2 * WRAP + fft_error) * (1 + 1e-9) + 1e-300
    rel = 2 * (kept.size + 64 + float(np.abs(losses).max(initial=0.0))) * UNIT
    top = step.infinite + step.tail if upper else step.infinite
    infinite = _any(top, copies) * (1 + 1e-12) if upper else _any(top, copies) * (1 - 1e-12)
    return Side(start, grid, copies, s1, s2, min(1.0, infinite), extra, rel)


@example(__call__={"copies": 3, "grid": 1e-3})
@checked
def compose_step(step: StepArg, copies: CopiesArg, grid: GridArg) -> ComposedLoss:
    """``step`` composed ``copies`` times on a grid of step ``grid``, both sides (the module
    docstring); refused before the FFT when a side's circle would exceed :data:`MAX_POINTS`."""
    return ComposedLoss(_side(step, copies, grid, True), _side(step, copies, grid, False))


@dataclass(frozen=True)
class _Steps(Domain):
    """A non-empty tuple or list of :class:`Step` (the directions of a relation)."""

    def convert(self, value: Any, name: str) -> tuple[Step, ...]:
        if not isinstance(value, tuple | list) or not value:
            raise InputTypeError(f"{name}: expected a non-empty tuple of Step")
        for i, s in enumerate(value):
            if not isinstance(s, Step):
                raise InputTypeError(f"{name}[{i}]: expected a Step, got {type(s).__name__}")
        return tuple(value)

    def hostile(self) -> tuple[Any, ...]:
        return (*super().hostile(), (), [], 3, "steps", (1,))

    @property
    def example(self) -> Any:
        return None if self.optional else (_EXAMPLE_STEP,)

    def describe(self) -> str:
        return "a non-empty tuple of Step"


#: Steps of the relation's directions.
StepsArg = Annotated[tuple[Step, ...], _Steps()]


@dataclass(frozen=True)
class GridCurve:
    """The composed directions of a relation (a record :func:`grid_curve` returns): δ(ε) and
    ε(δ) are the maxima over them, so their brackets are the maxima of the ends."""

    __dpspec_declarative__ = "the composed directions (a record grid_curve returns)"

    directions: tuple[ComposedLoss, ...]

    def epsilon_bracket(self, delta: float) -> Bracket:
        """A certified bracket of max over the directions of ε(δ)."""
        found = [d.epsilon_bracket(delta) for d in self.directions]
        return Bracket(max(b.lo for b in found), max(b.hi for b in found))

    def delta_bracket(self, epsilon: float) -> Bracket:
        """A certified bracket of max over the directions of δ(ε)."""
        found = [d.delta_bracket(epsilon) for d in self.directions]
        return Bracket(max(b.lo for b in found), max(b.hi for b in found))


@example(__call__={"copies": 3, "grid": 1e-3})
@checked
def grid_curve(steps: StepsArg, copies: CopiesArg, grid: GridArg) -> GridCurve:
    """Each direction of ``steps`` composed ``copies`` times on a grid of step ``grid``."""
    return GridCurve(tuple(compose_step(s, copies, grid) for s in steps))


__all__ = [
    "CAP",
    "ETAS",
    "ETA_FRACTIONS",
    "MAX_POINTS",
    "WRAP",
    "ComposedLoss",
    "GridCurve",
    "Side",
    "Step",
    "circle_points",
    "compose_step",
    "distribution_step",
    "grid_curve",
]
