"""Hypothesis classes on [0, 1] and their covers (seed 004, L164–194; Figs. 1–3, L842–889).

Every hypothesis is a closed box [lower, upper] on the line, h(x) = 1 iff lower ≤ x ≤ upper:

* a **threshold** h_w(x) = 1[x ≥ w] (Def 4, L192) is [w, +∞]; h_{+∞} labels everything 0;
* an **interval** h_{a,b}(x) = 1[a ≤ x ≤ b] is [a, b]; the empty hypothesis is [+∞, −∞].

Under the uniform reference 𝒰 on [0, 1], ρ_𝒰(h_s, h_t) = |s − t| for thresholds and
ρ_𝒰(h_{a,b}, h_{c,d}) = λ([a, b] △ [c, d]) for intervals.

The **public covers** of A1/A1r (Fig. 1 step 2) depend on the grid size J only, never on the data,
and J is a power of two so every grid point is a dyadic rational, exact in floating point:

* thresholds: G_J = {(2j − 1)/(2J) : j = 1..J} — a strict 1/(2J)-packing (neighbours are 1/J
  apart) and a 1/(2J)-cover (every w ∈ [0, 1] is within 1/(2J) of a midpoint);
* intervals: I_J = {[i/J, j/J] : 0 ≤ i < j ≤ J} ∪ {∅} — a 1/J-cover (round both ends to the grid;
  an interval shorter than 1/J is within its length of ∅) whose distinct members are ≥ 1/J apart
  (a strict r-packing for every r < 1/J).

The **empirical cover** of A2 (Fig. 3 step 1) is built from the sample's x's (which is why A2 is
only label private): thresholds at distinct sample values, thinned so that at most ⌊mε/4⌋ sample
points lie between a dropped value and the kept one below it — an (ε/4)-cover of (H, ρ_X).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from dpspec.validation import check_count

#: Hypothesis classes of the cover learners and the doubling dimension d_𝒰 of (H, ρ_𝒰) used
#: in the sample-size equation (Fig. 1 step 1): thresholds 1, intervals 2.
CLASS_DIMENSION = {"threshold": 1, "interval": 2}
#: Largest grid for intervals: J(J + 1)/2 + 1 candidates must fit in memory.
MAX_INTERVAL_GRID = 2**11


@dataclass(frozen=True)
class Boxes:
    """K candidate hypotheses as closed boxes [lower_k, upper_k] on the line."""

    lower: NDArray[np.float64]
    upper: NDArray[np.float64]

    @property
    def size(self) -> int:
        return int(self.lower.shape[0])

    def mistakes(self, x: NDArray[np.float64], y: NDArray[np.int64]) -> NDArray[np.int64]:
        """#{i : h_k(x_i) ≠ y_i} for every candidate k, in O((n + K) log n): the mistakes are
        P − (positives inside) + (negatives inside), each count a difference of two binary
        searches in the sorted x's of one label."""
        out = np.full(self.size, int(np.sum(y == 1)), dtype=np.int64)
        for label, sign in ((1, -1), (0, 1)):
            xs = np.sort(x[y == label])
            inside = np.searchsorted(xs, self.upper, side="right") - np.searchsorted(
                xs, self.lower, side="left"
            )
            out += sign * np.maximum(inside, 0)  # an empty box counts nothing
        return np.asarray(out, dtype=np.int64)

    def predict(self, k: int, x: NDArray[np.float64]) -> NDArray[np.int64]:
        """h_k(x) ∈ {0, 1} for each x."""
        inside = (x >= self.lower[k]) & (x <= self.upper[k])
        return np.asarray(inside, dtype=np.int64)


def threshold_grid(size: int) -> Boxes:
    """The public threshold cover G_J, J = ``size`` (a power of two)."""
    size = _power_of_two(size)
    w = (2 * np.arange(1, size + 1) - 1) / (2 * size)
    return Boxes(w.astype(np.float64), np.full(size, np.inf))


def interval_grid(size: int) -> Boxes:
    """The public interval cover I_J, J = ``size`` (a power of two, ≤ 2^11)."""
    size = _power_of_two(size)
    if size > MAX_INTERVAL_GRID:
        raise ValueError(f"size: interval grids up to J = {MAX_INTERVAL_GRID}, got {size}")
    i, j = np.triu_indices(size + 1, k=1)
    lower = np.append(i / size, np.inf)
    upper = np.append(j / size, -np.inf)
    return Boxes(lower.astype(np.float64), upper.astype(np.float64))


def empirical_threshold_cover(x: NDArray[np.float64], radius: float) -> Boxes:
    """A2's cover of (thresholds, ρ_X) at ``radius`` (ε/4), built from the sample x.

    With u_1 < … < u_r the distinct values and c_j = #{x < u_j}, u_j is kept when
    ⌊c_j/k⌋ > ⌊c_{j−1}/k⌋, k = ⌊m·radius⌋ + 1 (u_1 always; +∞ always): a dropped u_j has the
    same bucket as the last kept u_l < u_j, so #{x ∈ [u_l, u_j)} = c_j − c_l ≤ k − 1 ≤ m·radius,
    i.e. ρ_X(h_{u_j}, h_{u_l}) ≤ radius; every threshold acts on X as some h_{u_j} or h_{+∞}.
    """
    xs = np.sort(np.asarray(x, dtype=np.float64).reshape(-1))
    values = np.unique(xs)
    below = np.searchsorted(xs, values, side="left")
    k = int(np.floor(xs.size * radius)) + 1
    bucket = below // k
    keep = np.ones(values.size, dtype=bool)
    keep[1:] = bucket[1:] > bucket[:-1]
    lower = np.append(values[keep], np.inf)
    return Boxes(lower.astype(np.float64), np.full(lower.size, np.inf))


def _power_of_two(size: int) -> int:
    size = check_count(size, "size")
    if size & (size - 1):
        raise ValueError(f"size: the grid size must be a power of two, got {size}")
    return size
