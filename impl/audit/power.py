"""What an audit's budget can see: the exact power of its test on an event, and its resolution.

An audit estimates an event E on n draws per side and flags a violation of the claim ε₀ when
ε_LCB = ln((p₁⁻ − δ)/p₂⁺) > ε₀, with p₁⁻, p₂⁺ one-sided Clopper–Pearson bounds at ``level``
(:mod:`dpspec.audit.bounds`). For a mechanism with P(M(D) ∈ E) = p₁, P(M(D') ∈ E) = p₂ the
probability of that flag is

    power = Σ_{k₂} P(K₂ = k₂) · P(K₁ ≥ k₁*(k₂)),   K₁ ~ Bin(n, p₁), K₂ ~ Bin(n, p₂),

with k₁*(k₂) the smallest count whose lower bound exceeds t = δ + e^{ε₀}·p₂⁺(k₂):
p₁⁻(k) > t ⇔ P(Bin(n, t) ≥ k) < level (Clopper–Pearson's definition), so
k₁* = 1 + min{j : P(Bin(n, t) > j) ≤ level} (scipy's ``binom.isf``), raised by one where the
tail equals the level exactly; where the counts that matter are at most 8192, k₁* is read off
the lower bounds themselves (the first count whose bound exceeds t; a count below the range
is taken at the range's start, which can only lower the power). :func:`detection_power`
sums k₂ over ±7 standard deviations of its mean (in at most 512 cells, each counted at its
largest k₂ when the window is wider) and counts the mass outside as not detected, so the
value is a lower bound of the power (exact, short by ~1e-11, when the window holds at most
512 counts).

The **resolution** of an audit on its reported event: the smallest true ε at which a mechanism
with that event's p₂ and p₁ = min(1, e^ε p₂ + δ) is flagged with probability ≥ ``power``
(:func:`resolution`). An audit whose resolution is beyond the claim by more than the modest
margin (``RESOLVED_MARGIN``: ε × 1.25, or + 0.05 for small claims) could not have caught a
modest violation on what it estimated: its verdict is "inconclusive", not "consistent".

The **δ resolution** of an (ε, δ) audit: the least mass p₁ of a region the other side cannot
produce (p₂ = 0: a support shift, a truncation point, a leaked atom) that n draws flag with
probability ≥ ``power``: the flag needs K₁ ≥ k₁*, the first count whose lower bound exceeds
δ + e^{ε₀}·p₂⁺(0), and P(Bin(n, p₁) ≥ k₁*) = I_{p₁}(k₁*, n − k₁* + 1) is inverted exactly
(:func:`delta_resolution`). Black-box draws need n ≳ e^ε ln(1/level)/δ for it to reach δ: an
(ε, δ) claim is resolved when a leak of ``DELTA_MARGIN`` × δ is flagged (δ twice the claim),
else the verdict is "inconclusive" (replay, ``audit(replay=True)``, gives the upper side
instead).
"""

from __future__ import annotations

import functools
import math
from typing import Annotated

import numpy as np
from numpy.typing import NDArray
from scipy import optimize, special, stats

from dpspec.audit._domains import DrawsArg, ErrorLevelArg
from dpspec.audit.bounds import _cp_lower, _cp_upper, _LowerTables
from dpspec.validation import DeltaArg, Real, checked, example

#: a probability of an event
ProbabilityArg = Annotated[float, Real(0.0, 1.0, clean=0.3)]
#: a claimed ε ≥ 0
ClaimedArg = Annotated[float, Real(0.0, clean=0.5)]
Floats = NDArray[np.float64]

#: the detection probability a stated resolution guarantees
POWER = 0.9
#: a claim is resolved when the audit detects ε × RESOLVED_MARGIN (or ε + RESOLVED_FLOOR)
RESOLVED_MARGIN = 1.25
RESOLVED_FLOOR = 0.05
#: an (ε, δ) claim's δ is resolved when a leak of DELTA_MARGIN × δ is flagged
DELTA_MARGIN = 2.0
#: the k₂ window: standard deviations each side of n·p₂
WINDOW = 7.0


#: most k₂ cells summed (a wider window is cut into this many cells of equal width)
CELLS = 512


def _cells(n: int, p: float) -> tuple[Floats, Floats, Floats]:
    """The k₂ window ±WINDOW standard deviations around n·p, as cells [a, b]: one count each
    when the window holds at most CELLS, else CELLS cells of equal width; (a, b, P(a ≤ K₂ ≤ b))."""
    sd = math.sqrt(max(n * p * (1 - p), 1.0))
    lo = max(0, math.floor(n * p - WINDOW * sd) - 2)
    hi = min(n, math.ceil(n * p + WINDOW * sd) + 2)
    width = max(1, math.ceil((hi - lo + 1) / CELLS))
    starts = np.arange(lo, hi + 1, width, dtype=np.float64)
    ends = np.minimum(starts + width - 1, hi)
    if width == 1:
        return starts, ends, stats.binom.pmf(starts, n, p)
    mass = stats.binom.cdf(ends, n, p) - stats.binom.cdf(starts - 1, n, p)
    return starts, ends, np.maximum(mass, 0.0)


#: the Clopper–Pearson lower bounds the resolutions read, per (n, level): the resolutions of
#: one budget ask for the same counts again and again
_POWER_BOUNDS = _LowerTables(keep=8, largest=1 << 19)


def _thresholds(
    n: int, p2: float, level: float, delta: float, claim: float
) -> tuple[Floats, Floats, Floats]:
    """(k₂ cells' ends, their mass under D', k₁*): the counts of D' that matter, their law,
    and the smallest count of D flagged against the *largest* k₂ of each cell (k₁* grows with
    k₂, so a cell counted at its end never overstates the power); n + 1 where none is."""
    _, k2, weights = _cells(n, p2)
    upper = _POWER_BOUNDS.upper(k2, n, level)
    with np.errstate(divide="ignore"):  # e^claim·p₂⁺ capped at 2 (no count is flagged)
        t = delta + np.exp(np.minimum(claim + np.log(upper), math.log(2.0)))
    need = np.full(k2.shape, float(n + 1))
    ok = t < 1.0
    if not ok.any():
        return k2, weights, need
    lo_t, hi_t = float(t[ok].min()), float(t[ok].max())
    lo = max(1, math.floor(n * lo_t - 10 * math.sqrt(n * lo_t + 1) - 5))
    hi = min(n, math.ceil(n * hi_t + 10 * math.sqrt(n * hi_t + 1) + 5))
    if hi - lo <= 8192:  # the lower bounds themselves on the counts that matter
        counts = np.arange(lo, hi + 1, dtype=np.float64)
        lows = _POWER_BOUNDS.lower(counts, n, level)
        at = np.searchsorted(lows, t[ok], side="right")  # the first count flagged
        beyond = at >= counts.size
        found = counts[np.minimum(at, counts.size - 1)]
        # past the range: none flagged when the range reaches n, else from the binomial tail
        if beyond.any() and hi < n:
            j = stats.binom.isf(level, n, t[ok][beyond])
            found[beyond] = j + 1 + (stats.binom.sf(j, n, t[ok][beyond]) >= level)
        elif beyond.any():
            found[beyond] = n + 1
        need[ok] = found
        return k2, weights, need
    j = stats.binom.isf(level, n, t[ok])
    tie = stats.binom.sf(j, n, t[ok]) >= level  # the tail not yet below the level
    need[ok] = j + 1 + tie
    return k2, weights, need


def _power(n: int, p1: float, weights: Floats, need: Floats) -> float:
    """Σ P(K₂ = k₂) P(Bin(n, p₁) ≥ k₁*(k₂))."""
    k = np.minimum(need, n) - 1
    # scipy's bdtrc is exact and fast for n < 2^31; the distribution object beyond
    upper = special.bdtrc(k, n, p1) if n < 2**31 - 1 else stats.binom.sf(k, n, p1)
    tail = np.where(need > n, 0.0, upper)
    return float(np.sum(weights * tail))


@checked
@example(__call__={"n": 1000, "p1": 0.6, "p2": 0.2, "level": 0.025, "claim": 0.5})
def detection_power(
    n: DrawsArg,
    p1: ProbabilityArg,
    p2: ProbabilityArg,
    level: ErrorLevelArg,
    claim: ClaimedArg,
    delta: DeltaArg = 0.0,
) -> float:
    """P(ε_LCB > ``claim``) for an event with P(M(D) ∈ E) = ``p1``, P(M(D') ∈ E) = ``p2``, n
    draws per side, both Clopper–Pearson bounds at ``level`` (a lower bound of it; see the
    module docstring)."""
    _, weights, need = _thresholds(n, p2, level, delta, claim)
    return _power(n, p1, weights, need)


@checked
@example(__call__={"n": 1000, "p2": 0.2, "level": 0.025, "claim": 0.5})
def resolution(
    n: DrawsArg,
    p2: ProbabilityArg,
    level: ErrorLevelArg,
    claim: ClaimedArg,
    delta: DeltaArg = 0.0,
) -> float:
    """The smallest true ε (to 1e-3, rounded up) that an audit of n draws per side flags with
    probability ≥ ``POWER`` on an event of probability ``p2`` under D' (and
    p₁ = min(1, e^ε p₂ + δ) under D); ∞ when even p₁ = 1 is not flagged that often."""
    return _resolution(n, p2, level, claim, delta)


#: distinct (n, p₂, level, claim, δ, power) whose resolutions are kept: replicate audits of
#: one budget report the same few event counts, and each resolution costs a root search
_RESOLUTIONS_KEPT = 4096


@functools.lru_cache(maxsize=_RESOLUTIONS_KEPT)
def _resolution(
    n: int, p2: float, level: float, claim: float, delta: float, power: float = POWER
) -> float:
    """The kernel of :func:`resolution` (arguments already checked), at detection
    probability ``power`` (a pure function of its arguments: kept for the last
    ``_RESOLUTIONS_KEPT`` distinct ones)."""
    p2 = max(p2, 1.0 / n)
    _, weights, need = _thresholds(n, p2, level, delta, claim)
    if _power(n, 1.0, weights, need) < power:
        return math.inf
    top = math.log((1.0 - delta) / p2) if delta < 1.0 else 0.0

    def gap(eps: float) -> float:
        p1 = min(1.0, math.exp(min(eps, 700.0)) * p2 + delta)
        return _power(n, p1, weights, need) - power

    if gap(claim) >= 0:
        return claim
    if gap(top) < 0:
        return math.inf
    return float(optimize.brentq(gap, claim, top, xtol=1e-3)) + 1e-3


@functools.lru_cache(maxsize=_RESOLUTIONS_KEPT)
def _delta_resolution(
    n: int, level: float, claim: float, delta: float, power: float = POWER
) -> float:
    """The kernel of :func:`delta_resolution` (arguments already checked; kept, as
    :func:`_resolution`)."""
    t = delta + math.exp(min(claim, 700.0)) * float(_cp_upper(0, n, level))
    if t >= 1.0:
        return math.inf
    lo, hi = 1, n
    if float(_cp_lower(n, n, level)) <= t:
        return math.inf
    while lo < hi:  # the first count whose lower bound exceeds t (the bounds grow with k)
        mid = (lo + hi) // 2
        if float(_cp_lower(mid, n, level)) > t:
            hi = mid
        else:
            lo = mid + 1
    return float(special.betaincinv(lo, n - lo + 1, power))


@checked
@example(__call__={"n": 10**6, "level": 1e-3, "claim": 1.0, "delta": 1e-5})
def delta_resolution(
    n: DrawsArg, level: ErrorLevelArg, claim: ClaimedArg, delta: DeltaArg = 0.0
) -> float:
    """The least mass, under D, of a region D' cannot produce (p₂ = 0) that an audit of n
    draws per side flags against (``claim``, ``delta``) with probability ≥ ``POWER``, its
    bounds at ``level`` (module docstring); ∞ when no count is flagged."""
    return _delta_resolution(n, level, claim, delta)
