"""Deterministic proper ERM weak learners for MedBoost (seed 002 ch. 4, L793–897, L1030–1181).

Each ``fit(x, y)`` is a pure function of its (sub-)sample and returns a hypothesis *in the
class* that is consistent with it (realizable data): the compression scheme stores the
sub-sample and reruns the same learner to rebuild the hypothesis.

Binary (labels 0/1): thresholds 1[x ≥ t] on ℝ (t = the least positive point), intervals
1[a ≤ x ≤ b] (the hull of the positive points), axis-aligned rectangles (their bounding box).
Real-valued on [0, 1]: BV(v) — the left-continuous step function through the sorted points
(its variation is that of the points, ≤ v when the target is in BV(v)); L-Lipschitz — the
piecewise-linear interpolation (Lipschitz constant ≤ L when the target's is), constant beyond
the end points.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

Hypothesis = Callable[[NDArray[Any]], NDArray[np.float64]]


def _scalar(x: NDArray[Any]) -> NDArray[np.float64]:
    arr = np.asarray(x, dtype=np.float64)
    return arr[:, 0] if arr.ndim == 2 else arr


class ThresholdLearner:
    """Thresholds x ↦ 1[x ≥ t]: t = the least positive point (+∞ if none)."""

    dimension = 1

    def fit(self, x: NDArray[Any], y: NDArray[Any]) -> Hypothesis:
        xs, ys = _scalar(x), np.asarray(y)
        t = float(xs[ys == 1].min()) if np.any(ys == 1) else np.inf
        return lambda q: (_scalar(q) >= t).astype(np.float64)


class IntervalLearner:
    """Intervals x ↦ 1[a ≤ x ≤ b]: the hull of the positive points (empty if none)."""

    dimension = 2

    def fit(self, x: NDArray[Any], y: NDArray[Any]) -> Hypothesis:
        xs, ys = _scalar(x), np.asarray(y)
        pos = xs[ys == 1]
        a, b = (float(pos.min()), float(pos.max())) if pos.size else (np.inf, -np.inf)
        return lambda q: ((_scalar(q) >= a) & (_scalar(q) <= b)).astype(np.float64)


class RectangleLearner:
    """Axis-aligned rectangles: the bounding box of the positive points (empty if none)."""

    def fit(self, x: NDArray[Any], y: NDArray[Any]) -> Hypothesis:
        xs, ys = np.asarray(x, dtype=np.float64), np.asarray(y)
        pos = xs[ys == 1]
        if pos.size == 0:
            return lambda q: np.zeros(len(q))
        lo, hi = pos.min(axis=0), pos.max(axis=0)
        return lambda q: np.all((q >= lo) & (q <= hi), axis=1).astype(np.float64)


class StepLearner:
    """BV(v) on [0, 1]: f(q) = y of the last sample point ≤ q (the first point's y before)."""

    def fit(self, x: NDArray[Any], y: NDArray[Any]) -> Hypothesis:
        xs = _scalar(x)
        order = np.argsort(xs, kind="stable")
        sx, sy = xs[order], np.asarray(y, dtype=np.float64)[order]

        def h(q: NDArray[Any]) -> NDArray[np.float64]:
            pos = np.searchsorted(sx, _scalar(q), side="right") - 1
            return np.asarray(sy[np.clip(pos, 0, len(sy) - 1)])

        return h


class LinearLearner:
    """L-Lipschitz on [0, 1]: piecewise-linear interpolation of the sample points."""

    def fit(self, x: NDArray[Any], y: NDArray[Any]) -> Hypothesis:
        xs = _scalar(x)
        order = np.argsort(xs, kind="stable")
        sx, sy = xs[order], np.asarray(y, dtype=np.float64)[order]
        return lambda q: np.interp(_scalar(q), sx, sy)


LEARNERS: dict[str, Any] = {
    "thresholds": ThresholdLearner,
    "intervals": IntervalLearner,
    "rectangles": RectangleLearner,
    "bv": StepLearner,
    "lipschitz": LinearLearner,
}
