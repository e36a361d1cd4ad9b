"""Shuffled fixed batches of the Gaussian mechanism: a certified interval [ε_lo, ε_hi].

**The mechanism.** DP-SGD as usually implemented: each epoch shuffles the n records once and
cuts the permutation into T = n/b fixed batches (each record in exactly one batch per epoch);
step t releases the sum of batch t's clipped contributions (each of norm ≤ 1) plus N(0, σ² I)
noise (σ the noise multiplier); E epochs use independent permutations, and a step may depend
on every earlier release (adaptivity). Accountants often treat it as Poisson subsampling at
q = 1/T; its true ε can be several times that value (Chua, Ghazi, Kamath, Kumar, Manurangsi,
Sinha & Zhang 2024, "How private are DP-SGD implementations?", ICML, arXiv:2403.17673; and
"Scalable DP-SGD: shuffling vs. Poisson subsampling", NeurIPS 2024, arXiv:2411.04205).

**The relations** (``relation``). With n fixed, a neighbour replaces one record; the
permutation is of n *slots* and independent of the data, so the replacing record takes the
replaced one's slot (a valid coupling: both datasets see the same law of permutations).

* ``"zero-out"``: the record x is replaced by one contributing 0 (the add/remove relation as a
  fixed-size shuffler sees it — removing x leaves its slot empty in the same permutation; the
  relation of Chua et al. 2024). The two releases differ in one step per epoch, by a vector of
  norm ≤ 1: sensitivity Δ = 1.
* ``"substitution"``: x is replaced by any record x′; in the shared slot the step's sums differ
  by x − x′, of norm ≤ 2: Δ = 2 (the two records never land in different batches under the
  slot coupling, so no step sees a difference of two records).

**Upper bound.** Conditioned on the permutations, the run is an adaptive composition of T·E
Gaussian mechanisms of which E (the differing record's steps) have sensitivity ≤ Δ and the others
release identical laws given the past: μ-GDP with μ = Δ·√E/σ (Dong, Roth & Su 2022, "Gaussian
differential privacy", JRSS B, arXiv:1905.02383: composition of Gaussian mechanisms). The
permutation is independent of the data, so the released law is a mixture over permutations of
pairs each bounded by that curve, and the hockey-stick divergence is jointly convex: δ(ε) ≤
Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (Balle & Wang 2018, Thm 8). ε_hi is the closed form's root
(:func:`dpspec.accounting.pld.gaussian_epsilon`), moved up until the closed form at ε_hi, plus
its float error bound, is ≤ δ (:data:`REL_ERROR`): certified up to the float bound assumed.

**Lower bound.** The hockey-stick divergence of any post-processing of a valid pair is ≤ the
true δ(ε). The pair (one coordinate per step, contributions in [−1, 1]): every other record
contributes −1, the differing record +1 in D, and 0 (zero-out) or −1 (substitution) in D′. Per
epoch, shifted by the other records' sum, the step of the differing record's batch i carries a
and the others 0 under D, b and 0 under D′: P = (1/T) Σ_i N(a·e_i, σ² I_T), Q = (1/T) Σ_i
N(b·e_i, σ² I_T) with (a, b) = (2, 1) for zero-out and (2, 0) for substitution (:data:`SHIFTS`)
— the batch with the empty slot (or the differing record) sums differently, so the max locates
it; with (a, b) = (1, 0) (the others contributing 0, the batch hidden) the bound is several
times smaller at σ ≥ 1 (7–8× at σ = 1, T = 100). Post-processed by M = max_i x_i per epoch,
whose laws are closed form: P(M ≤ c) = Φ((c − a)/σ)·Φ(c/σ)^{T−1}, and the same with b for Q. M
is discretised into :data:`CELLS` + 2 cells (another post-processing): (−∞, c₀], :data:`CELLS`
equal cells on [c₀, c_K] = [LOW·σ, a + HIGH·σ], and (c_K, ∞). For each cell the masses are
bracketed [p_lo, p_hi], [q_lo, q_hi] (:func:`max_cells`; every float error bounded, below). E
epochs are E independent copies of the cell pair (the permutations are independent; the pair's
releases do not depend on the past, so no adaptivity is needed for a lower bound), composed on
the optimistic side of the package's grid engine (:func:`dpspec.accounting.pld.compose`): the
cell becomes the loss ln(p_lo/q_hi) rounded down to the grid with sub-probability mass p_lo.
Then Σ (p_lo − e^ε q_hi)₊ over the product cells is ≤ Σ (p − e^ε q)₊, every product's p_lo ≤ p
and q_hi ≥ q, and rounding a loss down, capping it, or dropping mass lowers it further:
δ_lower(ε) ≤ H_{e^ε}(P_M^E ‖ Q_M^E) ≤ δ(ε). Both directions ((P, Q) and (Q, P)) are lower
bounds; the larger is taken. ε_lo(δ) is the largest ε (bisection to :data:`RESOLUTION`) with
δ_lower(ε) > δ, hence < the true ε(δ); 0 when none.

**Floating point** (what is assumed, what is bounded). scipy's ``log_ndtr``, ``exp``, ``expm1``
and ``log`` are assumed accurate to a relative :data:`REL_ERROR` = 10^-12 (their documented
accuracy is about 10^-15; the margin is 1000×) — floats cannot decide this, it is the one
assumption. Each cdf value F = e^{−λ}, λ = −ln Φ((c − s)/σ) − (T − 1) ln Φ(c/σ) ≥ 0, is
bracketed by λ(1 ± 2·REL_ERROR) and the exp and expm1 of the ends widened by 1 ± 2·REL_ERROR; a
cell's mass is bracketed by the differences of the bracketed cdf values and of the survival
values (the tighter of the two: the survival side keeps relative precision in the upper tail),
each difference moved one ulp outward (``nextafter``: the subtraction's rounding is ≤ half an
ulp). The grid engine's convolutions (scipy's ``fftconvolve``, or a direct ``np.convolve`` for
short grids) are bounded in total mass: an FFT of length N has a normwise error ‖ŷ − y‖₂ ≤
log₂N·η·‖y‖₂ with η a small multiple of the unit roundoff (Higham 2002, "Accuracy and Stability
of Numerical Algorithms", 2nd ed., SIAM, the chapter on the FFT; η taken as :data:`FFT_ETA` =
10^-13, over 400× the unit roundoff, covering the twiddle factors and mixed radices); a
convolution of two sub-probability vectors takes three transforms, so ‖ĉ − c‖₂ ≤ 3(log₂N + 1)η
and ‖ĉ − c‖₁ ≤ 3(log₂N + 1)η·√N; a direct convolution errs by at most N·2^-52 in total; the
clipping of negative entries adds no more than the error. The sum over every convolution is
subtracted from δ_lower (it can only move δ by that much, the weights (1 − e^{ε−L})₊ being ≤ 1),
and δ_lower's own sum is scaled by 1 − 10^-10 and lowered by 10^-13 (the grid's float losses and
the sum's rounding).

**Cost.** Building the cells is a few milliseconds; each epoch is one convolution per direction
of at most 2·LOSS_CAP/GRID + 1 = 128001 entries with the epoch's grid (~20 ms at full size).
A request whose convolution lengths (Σ_k N_k over the E − 1 convolutions, bounded before any
work with the largest grid, 128001 entries) exceed :data:`MAX_ENTRIES` is refused, stating
both. ε_lo is at most the grid's cap, LOSS_CAP = 64 nats (a loss beyond it is counted at it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated

import numpy as np
from numpy.typing import NDArray
from scipy import special

from dpspec.accounting import pld
from dpspec.accounting.exact import Bracket
from dpspec.validation import Choice, Delta, Integer, Real, checked, example, require_within

#: The assumed relative error of scipy's log_ndtr / ndtr and of numpy's exp, expm1, log.
REL_ERROR = 1e-12
#: Equal cells of M between the two outer cells.
CELLS = 2800
#: The ends of the equal cells, in units of σ: [LOW·σ, a + HIGH·σ].
LOW, HIGH = -4.0, 10.0
#: The resolution of the ε_lo bisection.
RESOLUTION = 1e-6
#: The normwise relative error of one FFT, per level of its log₂N levels (module docstring).
FFT_ETA = 1e-13
#: The most grid entries a request may convolve (2^27: 525 epochs of full grids, ~25 CPU-s).
MAX_ENTRIES = 2**27
#: The relations, with the shifts (a, b) of the differing record's contribution.
SHIFTS = {"zero-out": (2.0, 1.0), "substitution": (2.0, 0.0)}

#: The noise multiplier σ.
NoiseArg = Annotated[float, Real(0.05, hi=1000.0, clean=1.0)]
#: The batches per epoch T = n/b.
BatchesArg = Annotated[int, Integer(1, hi=10**9, clean=100)]
#: The epochs E.
EpochsArg = Annotated[int, Integer(1, hi=10**6, clean=2)]
#: A target δ ∈ (0, 1).
TargetArg = Annotated[float, Delta(positive=True)]
#: A privacy level ε ≥ 0.
LevelArg = Annotated[float, Real(0.0, hi=pld.LOSS_CAP, clean=1.0)]
#: The neighbouring relation (module docstring).
RelationArg = Annotated[str, Choice(options=("zero-out", "substitution"))]

_U = 2.0**-52


@dataclass(frozen=True)
class MaxCells:
    """The cells of M = max_i x_i for one epoch: ``edges`` c₀ < … < c_K (cells (−∞, c₀],
    (c_j, c_{j+1}], (c_K, ∞), K + 2 in all) and certified brackets of their masses under P
    (``p_lo`` ≤ P(cell) ≤ ``p_hi``) and Q (``q_lo``, ``q_hi``)."""

    __dpspec_declarative__ = "the certified cell masses max_cells returns (a record)"

    edges: NDArray[np.float64]
    p_lo: NDArray[np.float64]
    p_hi: NDArray[np.float64]
    q_lo: NDArray[np.float64]
    q_hi: NDArray[np.float64]


def _cdf_bounds(
    edges: NDArray[np.float64], shift: float, noise: float, batches: int
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Brackets of F(c) = Φ((c − shift)/σ)·Φ(c/σ)^{T−1} and of 1 − F(c) at ``edges``:
    (F_lo, F_hi, S_lo, S_hi), from λ = −ln F (module docstring)."""
    lam = -special.log_ndtr((edges - shift) / noise) - (batches - 1) * special.log_ndtr(
        edges / noise
    )
    lam = np.maximum(lam, 0.0)
    lam_lo, lam_hi = lam * (1 - 2 * REL_ERROR), lam * (1 + 2 * REL_ERROR)
    f_lo = np.exp(-lam_hi) * (1 - 2 * REL_ERROR)
    f_hi = np.minimum(np.exp(-lam_lo) * (1 + 2 * REL_ERROR), 1.0)
    s_lo = -np.expm1(-lam_lo) * (1 - 2 * REL_ERROR)
    s_hi = np.minimum(-np.expm1(-lam_hi) * (1 + 2 * REL_ERROR), 1.0)
    return f_lo, f_hi, s_lo, s_hi


def _masses(
    edges: NDArray[np.float64], shift: float, noise: float, batches: int
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Brackets (lo, hi) of the law of M (P's with shift 1, Q's with shift b) on the K + 2
    cells: each inner cell the tighter of the cdf and the survival differences."""
    f_lo, f_hi, s_lo, s_hi = _cdf_bounds(edges, shift, noise, batches)
    down, up = -np.inf, np.inf
    inner_lo = np.maximum(
        np.nextafter(f_lo[1:] - f_hi[:-1], down), np.nextafter(s_lo[:-1] - s_hi[1:], down)
    )
    inner_hi = np.minimum(
        np.nextafter(f_hi[1:] - f_lo[:-1], up), np.nextafter(s_hi[:-1] - s_lo[1:], up)
    )
    lo = np.concatenate(([f_lo[0]], inner_lo, [s_lo[-1]]))
    hi = np.concatenate(([f_hi[0]], inner_hi, [s_hi[-1]]))
    return np.maximum(lo, 0.0), np.minimum(hi, 1.0)


@example(__call__={"noise": 1.0, "batches": 10})
@checked
def max_cells(noise: NoiseArg, batches: BatchesArg, relation: RelationArg = "zero-out") -> MaxCells:
    """The certified cell masses of M = max_i x_i under the pair P, Q of one epoch (the module
    docstring): the differing record's batch, uniformly one of ``batches``, shifted by a under
    P and by b under Q (:data:`SHIFTS` of ``relation``), noise σ = ``noise``."""
    a, b = SHIFTS[relation]
    edges = np.linspace(LOW * noise, a + HIGH * noise, CELLS + 1)
    p_lo, p_hi = _masses(edges, a, noise, batches)
    q_lo, q_hi = _masses(edges, b, noise, batches)
    return MaxCells(edges, p_lo, p_hi, q_lo, q_hi)


def _grid(mass: NDArray[np.float64], other: NDArray[np.float64]) -> pld.LossGrid:
    """The optimistic grid of the cells' losses ln(mass/other) (mass a lower, other an upper
    bound), each rounded down, with sub-probability masses ``mass``; losses above the cap at
    the cap, cells without mass dropped."""
    cap = round(pld.LOSS_CAP / pld.GRID)
    keep = mass > 0
    loss = np.log(mass[keep]) - np.log(other[keep])
    # one part in 10^6 of a grid step below: covers the logs' errors (|loss| < 200)
    index = np.floor(loss / pld.GRID - 1e-6)
    index = np.minimum(index, cap)
    inside = index >= -cap
    idx = index[inside].astype(np.int64)
    low = int(idx.min())
    weights = np.bincount(idx - low, weights=mass[keep][inside]).astype(np.float64)
    return pld.LossGrid(low, weights, 0.0)


def _convolved_entries(size: int, epochs: int) -> list[int]:
    """Upper bounds on the lengths N_k of the E − 1 convolutions' results (before truncation):
    the running grid after k − 1 epochs has at most min((k − 1)(n − 1) + 1, 2·cap + 1)
    entries, convolved with the epoch's n."""
    top = 2 * round(pld.LOSS_CAP / pld.GRID) + 1
    return [min((k - 1) * (size - 1) + 1, top) + size - 1 for k in range(2, epochs + 1)]


def _convolution_error(size: int, epochs: int) -> float:
    """A bound on the total mass (L1) error of composing E copies of an ``size``-entry grid:
    per convolution of length N, the FFT's 3·(log₂N + 1)·FFT_ETA·√N (module docstring) plus
    a direct convolution's N·2^-52 (whichever path the engine takes)."""
    return sum(
        3 * (math.log2(n) + 1) * FFT_ETA * math.sqrt(n) + n * _U
        for n in _convolved_entries(size, epochs)
    )


@dataclass(frozen=True)
class _Lower:
    """δ_lower(ε) of one direction: the composed optimistic grid and its float error."""

    grid: pld.LossGrid
    error: float

    def delta(self, epsilon: float) -> float:
        return max(0.0, self.grid.delta(epsilon) * (1 - 1e-10) - 1e-13 - self.error)


def _lower_bounds(noise: float, batches: int, epochs: int, relation: str) -> list[_Lower]:
    """Both directions' composed lower grids (refused before the composition when too big)."""
    top = 2 * round(pld.LOSS_CAP / pld.GRID) + 1
    work = (epochs - 1) * (2 * top - 1)  # Σ_k N_k at the largest grid, in closed form
    require_within(work, MAX_ENTRIES, "epochs", "grid entries to convolve")
    cells = max_cells(noise, batches, relation)
    out = []
    for mass, other in ((cells.p_lo, cells.q_hi), (cells.q_lo, cells.p_hi)):
        grid = _grid(mass, other)
        composed = pld.compose([grid] * epochs, False)
        out.append(_Lower(composed, _convolution_error(grid.mass.size, epochs)))
    return out


def _mu(noise: float, epochs: int, relation: str) -> float:
    """μ = Δ·√E/σ rounded up (Δ = a − b: 1 for zero-out, 2 for substitution)."""
    a, b = SHIFTS[relation]
    return (a - b) * math.sqrt(epochs) / noise * (1 + 2.0**-50)


def _closed_error(epsilon: float, mu: float) -> float:
    """A bound on the float error of :func:`dpspec.accounting.pld.gaussian_delta` at (ε, μ):
    2·REL_ERROR·Φ(−ε/μ + μ/2) (both terms ≤ that Φ)."""
    return 2 * REL_ERROR * float(special.ndtr(-epsilon / mu + mu / 2)) + 1e-300


def _upper_epsilon(delta: float, mu: float) -> float:
    """ε_hi: the closed form's root moved up until δ(ε_hi) + its error ≤ δ."""
    eps = pld.gaussian_epsilon(delta, mu)
    step = 1e-11 * (1 + eps)
    for _ in range(200):
        hi = eps + step
        if pld.gaussian_delta(hi, mu) + _closed_error(hi, mu) <= delta:
            return hi
        step *= 2
    raise ArithmeticError(f"delta: no certified upper epsilon near {eps!r} (floats cannot decide)")


@example(__call__={"noise": 1.0, "batches": 10, "epochs": 2, "delta": 1e-5})
@checked
def shuffled_gaussian_epsilon(
    noise: NoiseArg,
    batches: BatchesArg,
    epochs: EpochsArg,
    delta: TargetArg,
    relation: RelationArg = "zero-out",
) -> Bracket:
    """A certified bracket [ε_lo, ε_hi] of ε(δ) of ``epochs`` epochs of shuffled fixed batches
    (``batches`` per epoch) of the Gaussian mechanism with noise multiplier ``noise``, under
    ``relation`` (the module docstring: ε_lo from the max-of-batches pair of Chua et al. 2024,
    ε_hi from the μ-composition with μ = Δ·√E/σ)."""
    hi = _upper_epsilon(delta, _mu(noise, epochs, relation))
    lowers = _lower_bounds(noise, batches, epochs, relation)

    def above(eps: float) -> bool:
        return max(low.delta(eps) for low in lowers) > delta

    lo = 0.0
    if above(0.0):
        top = max((low.grid.offset + low.grid.mass.size) * pld.GRID for low in lowers)
        while top - lo > RESOLUTION:
            mid = (lo + top) / 2
            lo, top = (mid, top) if above(mid) else (lo, mid)
    return Bracket(Fraction(lo), Fraction(hi))


@example(__call__={"noise": 1.0, "batches": 10, "epochs": 2, "epsilon": 1.0})
@checked
def shuffled_gaussian_delta(
    noise: NoiseArg,
    batches: BatchesArg,
    epochs: EpochsArg,
    epsilon: LevelArg,
    relation: RelationArg = "zero-out",
) -> Bracket:
    """A certified bracket [δ_lo, δ_hi] of δ(ε) of the shuffled Gaussian mechanism (as
    :func:`shuffled_gaussian_epsilon`): δ_lo the larger direction's δ_lower(ε), δ_hi the
    μ-composition's closed form plus its float error bound."""
    mu = _mu(noise, epochs, relation)
    hi = min(1.0, pld.gaussian_delta(epsilon, mu) + _closed_error(epsilon, mu))
    lo = max(low.delta(epsilon) for low in _lower_bounds(noise, batches, epochs, relation))
    return Bracket(Fraction(lo), Fraction(hi))


__all__ = [
    "CELLS",
    "MAX_ENTRIES",
    "REL_ERROR",
    "RESOLUTION",
    "SHIFTS",
    "MaxCells",
    "max_cells",
    "shuffled_gaussian_delta",
    "shuffled_gaussian_epsilon",
]
