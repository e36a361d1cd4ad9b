"""Deterministic proper ERM weak learners for MedBoost (seed 002 ch. 4, L793–897, L1030–1181).

Each ``learn(x, y)`` is a pure function of its (sub-)sample and returns a hypothesis *in the
class* that is consistent with it (realizable data): the compression scheme stores the
sub-sample and reruns the same learner to rebuild the hypothesis.

Binary (labels 0/1): thresholds 1[x ≥ t] on ℝ (t = the least positive point), intervals
1[a ≤ x ≤ b] (the hull of the positive points), axis-aligned rectangles (their bounding box).
Real-valued on [0, 1]: BV(v) — the right-continuous step function through the sorted points
(its variation is that of the points, ≤ v when the target is in BV(v)); L-Lipschitz — the
piecewise-linear interpolation (Lipschitz constant ≤ L when the target's is), constant beyond
the end points.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpspec._deprecation import renamed
from dpspec.validation import Array, Checked, example

Hypothesis = Callable[[NDArray[Any]], NDArray[np.float64]]

#: A (sub-)sample's points: scalars (m,) or (m, 1) for the 1-D classes, (m, d) for rectangles.
SamplePointsArg = Annotated[ArrayLike, Array()]
#: Its labels (0/1) or real-valued targets, one per point.
SampleTargetsArg = Annotated[ArrayLike, Array(ndim=1)]

_X = np.array([0.2, 0.5, 0.5, 0.9])
_Y01 = np.array([0.0, 1.0, 1.0, 0.0])


def _scalar(x: NDArray[Any]) -> NDArray[np.float64]:
    arr = np.asarray(x, dtype=np.float64)
    return arr[:, 0] if arr.ndim == 2 else arr


def _sample(x: Any, y: Any, scalar: bool = True) -> tuple[NDArray[np.float64], NDArray[Any]]:
    """The sub-sample as arrays: scalar points (shape (m,) or (m, 1)) or points of ℝ^d."""
    xs = np.asarray(x, dtype=np.float64)
    if scalar:
        if xs.ndim == 2 and xs.shape[1] == 1:
            xs = xs[:, 0]
        if xs.ndim != 1:
            raise ValueError(f"x: expected scalar points, shape (m,) or (m, 1); got {xs.shape}")
    elif xs.ndim != 2:
        raise ValueError(f"x: expected points of R^d, shape (m, d); got {xs.shape}")
    ys = np.asarray(y)
    if ys.shape[0] != xs.shape[0]:
        raise ValueError(f"y: expected {xs.shape[0]} labels, got {ys.shape[0]}")
    return xs, ys


@dataclass(frozen=True)
class _Threshold:
    """x ↦ 1[x ≥ t] (closed at t; t = +∞: the all-zero hypothesis)."""

    t: float

    def __call__(self, q: Any) -> NDArray[np.float64]:
        return (_scalar(q) >= self.t).astype(np.float64)


@dataclass(frozen=True)
class _Interval:
    """x ↦ 1[a ≤ x ≤ b] (both ends closed; a > b: the empty interval)."""

    a: float
    b: float

    def __call__(self, q: Any) -> NDArray[np.float64]:
        x = _scalar(q)
        return ((x >= self.a) & (x <= self.b)).astype(np.float64)


@dataclass(frozen=True, eq=False)
class _Box:
    """x ↦ 1[lo ≤ x ≤ hi coordinate-wise] (a closed box; ``lo`` None: the empty box)."""

    lo: NDArray[np.float64] | None
    hi: NDArray[np.float64] | None

    def __call__(self, q: Any) -> NDArray[np.float64]:
        x = np.asarray(q, dtype=np.float64)
        if self.lo is None or self.hi is None:
            return np.zeros(len(x))
        inside = np.all((x >= self.lo) & (x <= self.hi), axis=1)
        return np.asarray(inside, dtype=np.float64)

    def _key(self) -> tuple[bytes, bytes] | None:
        if self.lo is None or self.hi is None:
            return None
        return self.lo.tobytes(), self.hi.tobytes()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Box) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


@dataclass(frozen=True, eq=False)
class _Through:
    """The function through the sorted points (sx, sy): a right-continuous step function
    (f(q) = sy of the last sx ≤ q, the first sy before) or the piecewise-linear interpolation
    (constant beyond the end points)."""

    sx: NDArray[np.float64]
    sy: NDArray[np.float64]
    linear: bool

    def __call__(self, q: Any) -> NDArray[np.float64]:
        x = _scalar(q)
        if self.linear:
            return np.asarray(np.interp(x, self.sx, self.sy))
        pos = np.searchsorted(self.sx, x, side="right") - 1
        return np.asarray(self.sy[np.clip(pos, 0, len(self.sy) - 1)])

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _Through)
            and self.linear == other.linear
            and np.array_equal(self.sx, other.sx)
            and np.array_equal(self.sy, other.sy)
        )

    def __hash__(self) -> int:
        return hash((self.sx.tobytes(), self.sy.tobytes(), self.linear))


def _through(x: Any, y: Any, linear: bool) -> _Through:
    xs, ys = _sample(x, y)
    order = np.argsort(xs, kind="stable")
    return _Through(xs[order], np.asarray(ys, dtype=np.float64)[order], linear)


@example(learn={"x": _X, "y": np.array([0.0, 1.0, 1.0, 1.0])})
class ThresholdLearner(Checked):
    """Thresholds x ↦ 1[x ≥ t] (closed at t): t = the least positive point (+∞ if none), so
    the hypothesis is consistent with every sample labelled by a threshold."""

    dimension = 1

    fit = renamed("learn", "fit")

    def learn(self, x: SamplePointsArg, y: SampleTargetsArg) -> Hypothesis:
        """The consistent threshold hypothesis of the sample (x, y)."""
        xs, ys = _sample(x, y)
        return _Threshold(float(xs[ys == 1].min()) if np.any(ys == 1) else math.inf)


@example(learn={"x": _X, "y": _Y01})
class IntervalLearner(Checked):
    """Intervals x ↦ 1[a ≤ x ≤ b] (both ends closed): the hull of the positive points (empty
    if none)."""

    dimension = 2

    fit = renamed("learn", "fit")

    def learn(self, x: SamplePointsArg, y: SampleTargetsArg) -> Hypothesis:
        """The smallest interval containing the positive points."""
        xs, ys = _sample(x, y)
        pos = xs[ys == 1]
        if pos.size == 0:
            return _Interval(math.inf, -math.inf)
        return _Interval(float(pos.min()), float(pos.max()))


@example(learn={"x": np.array([[0.1, 0.2], [0.5, 0.5], [0.9, 0.1]]), "y": np.array([0, 1, 0])})
class RectangleLearner(Checked):
    """Axis-aligned rectangles (closed boxes): the bounding box of the positive points (empty
    if none)."""

    fit = renamed("learn", "fit")

    def learn(self, x: SamplePointsArg, y: SampleTargetsArg) -> Hypothesis:
        """The smallest closed box containing the positive points."""
        xs, ys = _sample(x, y, scalar=False)
        pos = xs[ys == 1]
        if pos.size == 0:
            return _Box(None, None)
        return _Box(pos.min(axis=0), pos.max(axis=0))


@example(learn={"x": _X, "y": np.array([0.1, 0.4, 0.4, -0.2])})
class StepLearner(Checked):
    """BV(v) on [0, 1]: f(q) = y of the last sample point ≤ q (the first point's y before)."""

    fit = renamed("learn", "fit")

    def learn(self, x: SamplePointsArg, y: SampleTargetsArg) -> Hypothesis:
        """The right-continuous step function through the sorted sample points."""
        return _through(x, y, linear=False)


@example(learn={"x": _X, "y": np.array([0.1, 0.4, 0.4, -0.2])})
class LinearLearner(Checked):
    """L-Lipschitz on [0, 1]: piecewise-linear interpolation of the sample points."""

    fit = renamed("learn", "fit")

    def learn(self, x: SamplePointsArg, y: SampleTargetsArg) -> Hypothesis:
        """The piecewise-linear interpolation, constant beyond the end points."""
        return _through(x, y, linear=True)


LEARNERS: dict[str, Any] = {
    "thresholds": ThresholdLearner,
    "intervals": IntervalLearner,
    "rectangles": RectangleLearner,
    "bv": StepLearner,
    "lipschitz": LinearLearner,
}
