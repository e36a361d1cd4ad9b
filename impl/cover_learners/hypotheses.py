"""Hypothesis classes on [0, 1] and their covers (seed 004, L164–194; Figs. 1–3, L842–889).

Every hypothesis is a closed box [lower, upper] on the line, h(x) = 1 iff lower ≤ x ≤ upper:

* a **threshold** h_w(x) = 1[x ≥ w] (Def 4, L192) is [w, +∞]; h_{+∞} labels everything 0;
* an **interval** h_{a,b}(x) = 1[a ≤ x ≤ b] is [a, b]; the empty hypothesis is [+∞, −∞].

Both ends are closed, in :meth:`Boxes.predict` and in the mistake counts :meth:`Boxes.mistakes`
the learners score (the obligation ``cover-learners.score-is-predict`` checks that the two are
the same rule on points placed on the ends).

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
from typing import Annotated, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpspec.validation import (
    Array,
    Checked,
    InputTypeError,
    Integer,
    Real,
    checked,
    example,
)

#: Hypothesis classes of the cover learners and the doubling dimension d_𝒰 of (H, ρ_𝒰) used
#: in the sample-size equation (Fig. 1 step 1): thresholds 1, intervals 2.
CLASS_DIMENSION = {"threshold": 1, "interval": 2}
#: Largest threshold grid: J ≤ 2^22 points (a fit holds ~64 bytes per candidate: 256 MiB).
MAX_THRESHOLD_GRID = 2**22
#: Largest interval grid: J ≤ 2^11 points per axis, J(J + 1)/2 + 1 ≈ 2.1·10^6 candidates.
MAX_INTERVAL_GRID = 2**11
#: Bytes a fit holds per candidate (ends, counts, binary-search results).
BYTES_PER_CANDIDATE = 64


@dataclass(frozen=True)
class _BoxEnds(Array):
    """A non-empty 1-D array of box ends: finite reals or ±∞ (an open-ended threshold, the empty
    box), never NaN; converted to float64."""

    ndim: int | None = 1

    def convert(self, value: Any, name: str) -> NDArray[np.float64]:
        if value is None or isinstance(value, (str, bytes, dict)):
            raise InputTypeError(f"{name}: expected a 1-D array of box ends, got {value!r}")
        try:
            arr = np.asarray(value)
        except (TypeError, ValueError) as exc:
            raise InputTypeError(f"{name}: cannot be read as an array ({exc})") from exc
        if arr.dtype.kind not in "iuf":
            raise InputTypeError(f"{name}: expected real numbers, got dtype {arr.dtype}")
        if arr.ndim != 1 or arr.size == 0:
            raise ValueError(f"{name}: expected a non-empty 1-D array, got shape {arr.shape}")
        out = arr.astype(np.float64)
        if np.isnan(out).any():
            raise ValueError(f"{name}: contains NaN")
        return out

    def describe(self) -> str:
        return "a non-empty 1-D array of reals or ±inf (box ends)"


#: The lower (or upper) ends of K boxes.
EndsArg = Annotated[NDArray[np.float64], _BoxEnds()]
#: Points on the line: a non-empty 1-D array of finite reals.
PointsArg = Annotated[ArrayLike, Array(ndim=1)]
#: 0/1 labels of the points.
BitsArg = Annotated[ArrayLike, Array(ndim=1, kind="integer")]
#: The index of one candidate.
IndexArg = Annotated[int, Integer(lo=0, hi=2**62)]
#: The size J of a public threshold grid (a power of two).
ThresholdGridArg = Annotated[int, Integer(lo=1, hi=MAX_THRESHOLD_GRID, clean=4)]
#: The size J of a public interval grid (a power of two).
IntervalGridArg = Annotated[int, Integer(lo=1, hi=MAX_INTERVAL_GRID, clean=4)]
#: The radius of an empirical cover in ρ_X (a fraction of the sample), in [0, 1].
RadiusArg = Annotated[float, Real(lo=0.0, hi=1.0, clean=0.05)]

_POINTS = np.array([0.1, 0.25, 0.5, 0.75, 0.9])


@example(
    __init__={"lower": np.array([0.25, 0.5, np.inf]), "upper": np.array([np.inf, 0.75, -np.inf])},
    mistakes={"x": _POINTS, "y": np.array([0, 1, 1, 1, 1])},
    predict={"k": 1, "x": _POINTS},
)
@dataclass(frozen=True)
class Boxes(Checked):
    """K candidate hypotheses as closed boxes [lower_k, upper_k] on the line (an empty box when
    lower_k > upper_k)."""

    lower: EndsArg
    upper: EndsArg

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.lower.shape != self.upper.shape:
            raise ValueError(
                f"upper: {self.upper.shape[0]} ends for {self.lower.shape[0]} lower ends"
            )

    @property
    def size(self) -> int:
        return int(self.lower.shape[0])

    def mistakes(self, x: PointsArg, y: BitsArg) -> NDArray[np.int64]:
        """#{i : h_k(x_i) ≠ y_i} for every candidate k, in O((n + K) log n): the mistakes are
        P − (positives inside) + (negatives inside), each count a difference of two binary
        searches in the sorted x's of one label (closed ends: x ≥ lower counts from the left
        of equal values, x ≤ upper up to the right of them)."""
        points, labels = _labelled(x, y)
        out = np.full(self.size, int(np.sum(labels == 1)), dtype=np.int64)
        for label, sign in ((1, -1), (0, 1)):
            xs = np.sort(points[labels == label])
            inside = np.searchsorted(xs, self.upper, side="right") - np.searchsorted(
                xs, self.lower, side="left"
            )
            out += sign * np.maximum(inside, 0)  # an empty box counts nothing
        return np.asarray(out, dtype=np.int64)

    def predict(self, k: IndexArg, x: PointsArg) -> NDArray[np.int64]:
        """h_k(x) ∈ {0, 1} for each x: lower_k ≤ x ≤ upper_k."""
        if k >= self.size:
            raise ValueError(f"k: candidate index {k} is out of range for {self.size} boxes")
        points = np.asarray(x, dtype=np.float64)
        inside = (points >= self.lower[k]) & (points <= self.upper[k])
        return np.asarray(inside, dtype=np.int64)


def _labelled(x: Any, y: Any) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    points = np.asarray(x, dtype=np.float64)
    labels = np.asarray(y, dtype=np.int64)
    if labels.shape != points.shape:
        raise ValueError(f"y: {labels.shape[0]} labels for {points.shape[0]} points")
    if not np.all((labels == 0) | (labels == 1)):
        raise ValueError("y: labels must be 0 or 1")
    return points, labels


@checked
def threshold_grid(size: ThresholdGridArg) -> Boxes:
    """The public threshold cover G_J, J = ``size`` (a power of two, ≤ 2^22)."""
    _power_of_two(size)
    w = (2 * np.arange(1, size + 1) - 1) / (2 * size)
    return Boxes(w.astype(np.float64), np.full(size, np.inf))


@checked
def interval_grid(size: IntervalGridArg) -> Boxes:
    """The public interval cover I_J, J = ``size`` (a power of two, ≤ 2^11)."""
    _power_of_two(size)
    i, j = np.triu_indices(size + 1, k=1)
    lower = np.append(i / size, np.inf)
    upper = np.append(j / size, -np.inf)
    return Boxes(lower.astype(np.float64), upper.astype(np.float64))


@example(__call__={"x": np.array([0.2, 0.2, 0.5, 0.9])})
@checked
def empirical_threshold_cover(x: PointsArg, radius: RadiusArg) -> Boxes:
    """A2's cover of (thresholds, ρ_X) at ``radius`` (ε/4), built from the sample x.

    With u_1 < … < u_r the distinct values and c_j = #{x < u_j}, u_j is kept when
    ⌊c_j/k⌋ > ⌊c_{j−1}/k⌋, k = ⌊m·radius⌋ + 1 (u_1 always; +∞ always): a dropped u_j has the
    same bucket as the last kept u_l < u_j, so #{x ∈ [u_l, u_j)} = c_j − c_l ≤ k − 1 ≤ m·radius,
    i.e. ρ_X(h_{u_j}, h_{u_l}) ≤ radius; every threshold acts on X as some h_{u_j} or h_{+∞}.
    """
    xs = np.sort(np.asarray(x, dtype=np.float64))
    values = np.unique(xs)
    below = np.searchsorted(xs, values, side="left")
    k = int(np.floor(xs.size * radius)) + 1
    bucket = below // k
    keep = np.ones(values.size, dtype=bool)
    keep[1:] = bucket[1:] > bucket[:-1]
    lower = np.append(values[keep], np.inf)
    return Boxes(lower.astype(np.float64), np.full(lower.size, np.inf))


def _power_of_two(size: int) -> None:
    if size & (size - 1):
        raise ValueError(f"size: the grid size must be a power of two, got {size}")
