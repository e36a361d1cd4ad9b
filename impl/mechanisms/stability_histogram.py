"""Stability-based histogram (seed 000 Alg 1, ``000_dff3c4dc97cf0e21.txt:L125–147``; Bun et al.).

For every cell x with count_S(x) > 0: ĉ(x) = count_S(x) + noise, and ĉ(x) = 0 when it falls
below a threshold τ. Cells with count 0 are never touched (they stay 0): the domain may be
infinite (cells of ℝ^d) and only the occupied cells cost anything.

Paper version (``idealised=True``): noise Lap(2/ε), τ = (2/ε)·ln(2/δ) + 1 (Thm 2.4:
(ε, δ)-DP under substitution), continuous Laplace in floating point: assumes ideal reals.

Default (**exact**, float-safe): integer noise Z ~ discrete Laplace with P(Z = z) ∝ q^{|z|}, q =
e^{−ε/2}, and the smallest integer τ ≥ 1 with (1 + e^ε)·P(Z ≥ τ) ≤ δ, where P(Z ≥ τ) = q^τ/(1 + q).
Proof: let M̃ add noise to every cell occupied in S or S'. M̃ is the discrete Laplace mechanism on a
vector of L1 sensitivity 2 followed by thresholding, so it is ε-DP. M(S) differs from M̃(S) only
when a cell empty in S (but occupied in S') is released by M̃, which has probability ≤ P(Z ≥ τ) =:
p₀ (one such cell under substitution). Hence P(M(S) ∈ F) ≤ P(M̃(S) ∈ F) + p₀ ≤ e^ε P(M̃(S') ∈ F) +
p₀ ≤ e^ε P(M(S') ∈ F) + (1 + e^ε) p₀. The exact verifier computes the true δ on small instances
(``proofs/topics/mechanisms/verifiers.py``).
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product
from typing import Annotated, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpspec.contract import PrivacyLevel
from dpspec.mechanisms.base import discrete_laplace_for
from dpspec.noise import DiscreteLaplaceNoise, laplace_sf
from dpspec.validation import (
    INT_BOUND,
    LIMITS,
    Anything,
    Array,
    Checked,
    Delta,
    EpsilonArg,
    FlagArg,
    GeneratorArg,
    Instance,
    Integer,
    OptionalBaseArg,
    OptionalEpsilonArg,
    Pair,
    SizeArg,
    as_finite_array,
    check_limit,
    checked,
    example,
)

#: Smallest δ accepted (the threshold search works with float logarithms of δ).
MIN_DELTA = 1e-300

#: δ ∈ [1e-300, 1), kept exact when given as an int or Fraction.
HistogramDeltaArg = Annotated[Any, Delta(positive=True, least=MIN_DELTA, exact=True)]
#: Cell ids of the records: a 1-D integer array.
CellIdsArg = Annotated[ArrayLike, Array(ndim=1, kind="integer", clean=np.array([0, 1, 1, 2]))]
#: Counts of cells (non-negative integers, checked by the caller's cell set).
CountsArg = Annotated[
    ArrayLike, Array(ndim=1, kind="integer", clean=np.array([0, 3, 1]), empty=True)
]
#: A cell count (|count| < 2^62).
CountArg = Annotated[int, Integer(-INT_BOUND + 1, hi=INT_BOUND - 1, clean=3)]

#: Outcome label of the lumped upper tail of a released cell in :meth:`StabilityHistogram.pmf`.
TAIL = "tail"

#: Relative slack when the threshold is found with floats (ε path); far below the factor
#: e^{ε/2} between consecutive thresholds, so the bound still holds with float rounding.
_FLOAT_SAFETY = 1e-9


@example(
    __call__={
        "noise": DiscreteLaplaceNoise(base=Fraction(1, 2)),
        "ratio": Fraction(4),
        "delta": 1e-6,
    }
)
@checked
def discrete_threshold(
    noise: Annotated[DiscreteLaplaceNoise, Instance(types=(DiscreteLaplaceNoise,))],
    ratio: Annotated[Fraction | float, Anything(why="e^ε of the noise, as the noise reports it")],
    delta: HistogramDeltaArg,
) -> int:
    """Smallest integer τ ≥ 1 with (1 + e^ε) · P(Z ≥ τ) ≤ δ (exact with a rational base)."""
    target = delta if isinstance(noise.q, Fraction) else float(delta) * (1 - _FLOAT_SAFETY)
    q = float(noise.q)
    log_target = math.log(float(delta)) + math.log1p(-_FLOAT_SAFETY)  # no underflow to 0
    log_guess = (log_target + math.log1p(q) - math.log1p(float(ratio))) / math.log(q)
    guess = max(1, math.floor(log_guess))
    if isinstance(noise.q, Fraction) and guess > LIMITS["exponent"]:
        raise ValueError(
            f"delta: the exact threshold τ ≈ {guess} for this base exceeds "
            f"{LIMITS['exponent']} (exact rational powers); use epsilon or a larger delta"
        )
    tau = max(1, guess - 2)
    while tau > 1 and (1 + ratio) * noise.sf(tau - 1) <= target:  # the smallest such τ
        tau -= 1
    while (1 + ratio) * noise.sf(tau) > target:
        tau += 1
    return tau


@checked
def paper_threshold(epsilon: EpsilonArg, delta: HistogramDeltaArg) -> float:
    """τ = (2/ε)·ln(2/δ) + 1 of Alg 1 (L137)."""
    return 2.0 / epsilon * math.log(2.0 / float(delta)) + 1.0


def _cell_counts(cells: Any) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    arr = as_finite_array(cells, "cells", ndim=1)
    if not np.issubdtype(arr.dtype, np.integer):
        raise ValueError("cells: expected integer cell ids")
    ids, counts = np.unique(arr.astype(np.int64), return_counts=True)
    return ids, counts.astype(np.int64)


@checked
def stability_histogram(
    cells: CellIdsArg,
    epsilon: EpsilonArg,
    delta: HistogramDeltaArg,
    rng: GeneratorArg,
    *,
    idealised: FlagArg = False,
) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """One run of Alg 1 on integer cell ids: (released cell ids, their released counts).

    Only occupied cells are visited (O(n log n) for the sort, memory O(#occupied)).
    """
    mech = StabilityHistogram(bins=None, epsilon=epsilon, delta=delta, idealised=idealised)
    ids, counts = _cell_counts(cells)
    released = mech.release_counts(counts, rng)
    keep = released > 0
    return ids[keep], released[keep]


@example(
    every={"data": np.array([0, 1, 1, 2, 2, 2])},
    __init__={"bins": 4, "epsilon": 1.0, "delta": 1e-3},
    sample={"size": 3},
    pmf={"window": (0, 20)},
    cell_pmf={"count": 3, "cap": 20},
)
class StabilityHistogram(Checked):
    """Alg 1 over a finite public set of ``bins`` cells (records are cell ids 0..bins−1).

    ``bins=None`` is allowed for :func:`stability_histogram` on unbounded cell ids.
    ``base`` = e^{−ε/2} (rational) instead of ``epsilon`` gives exact rational probabilities.
    """

    def __init__(
        self,
        bins: Annotated[int | None, Integer(1, limit="cells", optional=True)],
        epsilon: OptionalEpsilonArg = None,
        delta: HistogramDeltaArg = 1e-6,
        *,
        base: OptionalBaseArg = None,
        idealised: FlagArg = False,
    ) -> None:
        self.bins = bins
        self.delta = delta
        self.idealised = idealised
        if idealised:
            if epsilon is None or base is not None:
                raise ValueError("epsilon: the idealised (paper) version takes epsilon")
            eps = float(epsilon)
            self.scale = 2.0 / eps
            self.threshold: float | int = paper_threshold(eps, float(delta))
            self.privacy = PrivacyLevel(
                epsilon=eps, ratio=math.exp(eps), delta=delta, exact_sampler=False
            )
        else:
            self.noise, level = discrete_laplace_for(Fraction(2), epsilon, base)
            self.threshold = discrete_threshold(self.noise, level.ratio, delta)
            self.privacy = PrivacyLevel(
                epsilon=level.epsilon, ratio=level.ratio, delta=delta, exact_sampler=True
            )

    def release_counts(self, counts: CountsArg, rng: GeneratorArg) -> NDArray[np.float64]:
        """Noisy, thresholded counts for an array of counts (zeros stay zero, no noise drawn)."""
        counts = np.asarray(counts)
        out = np.zeros(counts.shape, dtype=np.float64)
        occupied = np.flatnonzero(counts > 0)
        if occupied.size == 0:
            return out
        c = counts[occupied]
        if self.idealised:
            noisy = c + rng.laplace(0.0, self.scale, size=c.size)
        else:
            noisy = (c + self.noise.sample(c.size, rng)).astype(np.float64)
        out[occupied] = np.where(noisy >= self.threshold, noisy, 0.0)
        return out

    def counts(self, data: CellIdsArg) -> NDArray[np.int64]:
        """Exact cell counts of ``data`` over the ``bins`` cells."""
        if self.bins is None:
            raise ValueError("bins: this histogram has no finite cell set")
        arr = as_finite_array(data, "data", ndim=1)
        if not np.issubdtype(arr.dtype, np.integer) or arr.min() < 0 or arr.max() >= self.bins:
            raise ValueError(f"data: expected integer cell ids in [0, {self.bins})")
        return np.bincount(arr.astype(np.int64), minlength=self.bins).astype(np.int64)

    def sample(self, data: CellIdsArg, size: SizeArg, rng: GeneratorArg) -> NDArray[np.float64]:
        """``size`` independent releases, shape (size, bins); unreleased cells are 0."""
        c = self.counts(data)
        check_limit(size * c.size, "size", "draws")
        flat = self.release_counts(np.tile(c, size), rng)
        return flat.reshape(size, c.size)

    def release_probability(self, count: CountArg) -> Fraction | float:
        """P(a cell with this count is released): 0 for count 0, else P(count + noise ≥ τ)."""
        if count <= 0:
            return 0
        if self.idealised:
            return laplace_sf(float(self.threshold) - count, self.scale)
        return self.noise.sf(int(self.threshold) - count)

    def cell_pmf(
        self, count: CountArg, cap: Annotated[int, Integer(0, clean=20)]
    ) -> dict[Any, Fraction | float]:
        """Exact law of one cell's release (discrete path): 0, τ..cap−1, and the tail ≥ cap.

        Lumping {≥ cap} is exact for privacy checks when cap ≥ every count compared: there
        the ratio q^{|v−c|}/q^{|v−c'|} = q^{c'−c} does not depend on v.
        """
        if self.idealised:
            raise ValueError(
                "idealised: the continuous release has no pmf; use release_probability"
            )
        tau = int(self.threshold)
        if cap < max(tau, count):
            raise ValueError(f"cap: must be >= max(threshold {tau}, count {count})")
        check_limit(cap - tau + 2, "cap", "outcomes")
        if isinstance(self.noise.q, Fraction) and cap + abs(count) > LIMITS["exponent"]:
            raise ValueError(
                f"cap: cap + count must be <= {LIMITS['exponent']} for exact rational "
                f"probabilities, got cap={cap}, count={count}"
            )
        if count <= 0:
            return {0: Fraction(1) if isinstance(self.noise.q, Fraction) else 1.0}
        out: dict[Any, Fraction | float] = {0: 1 - self.noise.sf(tau - count)}
        for v in range(tau, cap):
            out[v] = self.noise.pmf(v - count)
        out[TAIL] = self.noise.sf(cap - count)
        return out

    def pmf(
        self,
        data: CellIdsArg,
        window: Annotated[tuple[int, int] | None, Pair(Integer(0), optional=True)] = None,
    ) -> dict[tuple[Any, ...], Fraction | float]:
        """Exact law of the whole release over the ``bins`` cells (product of cell laws).

        ``window`` = (0, hi): each cell's released values up to hi are listed, larger ones are
        the lumped outcome ``TAIL`` (:meth:`cell_pmf` with cap = hi + 1; exact for privacy
        comparisons when hi ≥ every count compared, so compare laws with one window). None:
        hi = max(τ, largest count).
        """
        if self.bins is not None and self.bins > 16:
            raise ValueError("bins: pmf enumerates the product over the bins; at most 16 bins")
        counts = self.counts(data)
        if window is None:
            cap = max(int(self.threshold), int(counts.max(initial=0))) + 1
        else:
            if window[0] != 0:
                raise ValueError(f"window: expected (0, hi) with hi an integer, got {window!r}")
            cap = window[1] + 1
            need = max(int(self.threshold), int(counts.max(initial=0)))
            if cap < need:
                raise ValueError(
                    f"window: hi must be >= {need - 1} (the threshold {int(self.threshold)} "
                    f"and every count), got {window!r}"
                )
        laws = [self.cell_pmf(int(c), cap) for c in counts]
        size = 1
        for law in laws:
            size *= len(law)
        check_limit(size, "window", "outcomes")
        out: dict[tuple[Any, ...], Fraction | float] = {}
        for combo in product(*(law.items() for law in laws)):
            p: Fraction | float = 1
            for _, pv in combo:
                p *= pv
            out[tuple(o for o, _ in combo)] = p
        return out
