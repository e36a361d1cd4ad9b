"""Sample compression schemes built on Sparsify (seed 002 ch. 4, L953–972; Moran–Yehudayoff).

κ(S): run MedBoost with sub-sampled weak learners, Sparsify to n hypotheses, and keep the
sub-samples those n hypotheses were trained on: the distinct stored points D ⊆ S and, as side
information, which stored points form each of the n groups (n·m̃·⌈log₂|D|⌉ bits). ρ: rerun the
deterministic learner on every group and predict the (upper) median of the n hypotheses.

Sizes depend on n, m̃ (constants of the scheme), never on m. Binary classes: Sparsify's test
|f(x_i) − y_i| > η with η = ½ means "wrong label", so fewer than n/2 wrong hypotheses at every
point make the median exact. Real-valued classes: uniformly η-approximate.

Baseline: the 2d-point scheme for axis-aligned rectangles (L1205–1213): keep, per coordinate,
a positive point with the least and one with the greatest value; ρ = their bounding box.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.compression.boosting import (
    MAX_ROUNDS,
    MAX_SPARSIFY,
    MAX_SUBSAMPLE,
    check_bounded_count,
    check_gamma,
    medboost,
    sparsify,
)
from dpspec.compression.learners import LEARNERS
from dpspec.validation import as_finite_array, check_positive, check_rng

BINARY = ("thresholds", "intervals", "rectangles")
REAL = ("bv", "lipschitz")


@dataclass
class CompressedSample:
    """κ(S): stored distinct indices into S, the n groups (positions into ``stored``), the side
    bits they cost, and the work it took (boosting rounds, weak-learner draws, Sparsify
    trials)."""

    cls: str
    stored: NDArray[np.int64]
    groups: NDArray[np.int64]
    side_bits: int
    rounds: int
    weak_draws: int
    trials: int

    @property
    def stored_points(self) -> int:
        return int(self.stored.size)

    @property
    def size(self) -> int:
        return self.stored_points + self.side_bits


#: largest sample drawn by :func:`random_realizable_sample` (O(m·d) memory)
MAX_SAMPLE = 10**7

#: classes whose points are scalars (x of shape (m,) or (m, 1)); rectangles take (m, d)
SCALAR = ("thresholds", "intervals", "bv", "lipschitz")


def _check_sample(cls: str, x: Any, y: Any) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    if not isinstance(cls, str) or cls not in LEARNERS:
        raise ValueError(f"cls: expected one of {sorted(LEARNERS)}, got {cls!r}")
    xs = as_finite_array(x, "x", ndim=None).astype(np.float64)
    if cls in SCALAR:
        if xs.ndim == 2 and xs.shape[1] == 1:
            xs = xs[:, 0]
        if xs.ndim != 1:
            raise ValueError(f"x: {cls} take scalar points, shape (m,) or (m, 1); got {xs.shape}")
    elif xs.ndim != 2:
        raise ValueError(f"x: {cls} take points of R^d, shape (m, d); got {xs.shape}")
    ys = as_finite_array(y, "y", ndim=1).astype(np.float64)
    if xs.shape[0] != ys.shape[0]:
        raise ValueError(f"y: expected {xs.shape[0]} labels, got {ys.shape[0]}")
    if cls in BINARY and not np.all(np.isin(ys, (0.0, 1.0))):
        raise ValueError("y: binary classes take labels in {0, 1}")
    return xs, ys


def _realizable(cls: str, x: NDArray[np.float64], y: NDArray[np.float64]) -> bool:
    """Binary classes: the learner's hypothesis on all of S must be consistent with S."""
    if cls not in BINARY:
        return True
    h = LEARNERS[cls]().fit(x, y)
    return bool(np.all(h(x) == y))


def compress(
    cls: str,
    x: Any,
    y: Any,
    rng: np.random.Generator,
    gamma: float = 0.125,
    eta: float | None = None,
    n: int = 64,
    subsample: int = 8,
    rounds: int | None = None,
) -> CompressedSample:
    """κ(S) for the class ``cls`` (thresholds, intervals, rectangles; bv, lipschitz).

    ``rounds`` defaults to T = ⌈(4/γ²) ln m⌉ (Cor 4.1.2); ``eta`` is ½ for binary classes (a
    wrong label) and the target accuracy for real-valued ones (default 0.1). Raises
    :class:`CompressionFailure` (a ValueError) when a bounded loop runs out; ValueError names the
    parameter for bad input (γ outside (0, ½), η ≤ 0, non-realizable labels, empty S)."""
    check_rng(rng)
    xs, ys = _check_sample(cls, x, y)
    m = ys.size
    gamma = check_gamma(gamma)
    eta_v = (0.5 if cls in BINARY else 0.1) if eta is None else check_positive(eta, "eta")
    if cls in BINARY and not eta_v < 1:  # labels are 0/1: |f − y| > η must mean "wrong label"
        raise ValueError(f"eta: binary classes need eta in (0, 1) (default 1/2), got {eta!r}")
    subsample = check_bounded_count(subsample, "subsample", MAX_SUBSAMPLE)
    n = check_bounded_count(n, "n", MAX_SPARSIFY)
    if rounds is None:
        t_need = 4 / gamma**2 * math.log(max(m, 2))
        if t_need > MAX_ROUNDS:
            raise ValueError(
                f"gamma: {gamma!r} needs T = ceil(4/gamma^2 ln m) = {t_need:.3g} boosting rounds "
                f"at m = {m}, more than the limit {MAX_ROUNDS} (rounds); use a larger gamma"
            )
        t_max = math.ceil(t_need)
    else:
        t_max = check_bounded_count(rounds, "rounds", MAX_ROUNDS)
    if not _realizable(cls, xs, ys):
        raise ValueError(f"y: the labels are not realizable by {cls}")
    # MedBoost's weak hypotheses must be (η/2, γ)-weak; Sparsify then keeps |f − y| ≤ η
    boost = medboost(xs, ys, LEARNERS[cls](), t_max, gamma, eta_v, subsample, rng)
    sparse = sparsify(boost, xs, ys, n, eta_v, rng)
    chosen = sparse.chosen
    subs = np.stack([boost.subsamples[j] for j in chosen])  # n × m̃ indices into S
    stored, positions = np.unique(subs, return_inverse=True)
    bits = int(subs.size * max(1, math.ceil(math.log2(max(stored.size, 2)))))
    return CompressedSample(
        cls,
        stored.astype(np.int64),
        positions.reshape(subs.shape).astype(np.int64),
        bits,
        len(boost.alphas),
        boost.tries,
        sparse.trials,
    )


def reconstruct(compressed: CompressedSample, x_stored: Any, y_stored: Any) -> Any:
    """ρ: the median of the n hypotheses rebuilt from the stored groups. ``x_stored``,
    ``y_stored`` are the stored points (in the order of ``compressed.stored``)."""
    if not isinstance(compressed, CompressedSample):
        raise TypeError(f"compressed: expected a CompressedSample, got {type(compressed).__name__}")
    k = compressed.stored_points
    xs, ys = _check_sample(compressed.cls, x_stored, y_stored)
    if ys.size != k:
        raise ValueError(
            f"x_stored: expected the {k} stored points (in the order of compressed.stored), "
            f"got {ys.size}"
        )
    groups = np.asarray(compressed.groups)
    if groups.ndim != 2 or groups.size == 0 or groups.min() < 0 or groups.max() >= k:
        raise ValueError(f"compressed: groups must index the {k} stored points")
    learner = LEARNERS[compressed.cls]()
    hyps = [learner.fit(xs[g], ys[g]) for g in groups]

    def predict(q: Any) -> NDArray[np.float64]:
        values = np.stack([h(np.asarray(q, dtype=np.float64)) for h in hyps])
        return np.asarray(np.sort(values, axis=0)[len(hyps) // 2])  # upper median of n values

    return predict


def rectangle_baseline(x: Any, y: Any) -> NDArray[np.int64]:
    """The 2d-point scheme for rectangles: indices of the positive points with the least and
    the greatest value of each coordinate (≤ 2d points; empty when there is no positive)."""
    xs = as_finite_array(x, "x", ndim=2).astype(np.float64)
    ys = as_finite_array(y, "y", ndim=1)
    if ys.shape[0] != xs.shape[0]:
        raise ValueError(f"y: expected {xs.shape[0]} labels, got {ys.shape[0]}")
    pos = np.flatnonzero(ys == 1)
    if pos.size == 0:
        return np.zeros(0, dtype=np.int64)
    keep = {int(pos[np.argmin(xs[pos, j])]) for j in range(xs.shape[1])}
    keep |= {int(pos[np.argmax(xs[pos, j])]) for j in range(xs.shape[1])}
    return np.array(sorted(keep), dtype=np.int64)


def bv_target(m: int, rng: np.random.Generator) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """A BV(1) target: a step function with three jumps at random places (variation 0.9)."""
    x = rng.random(m)
    cuts = np.sort(rng.random(3))
    return x, 0.2 + 0.3 * (x > cuts[0]) - 0.4 * (x > cuts[1]) + 0.2 * (x > cuts[2])


def random_realizable_sample(
    cls: str, m: int, rng: np.random.Generator
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """m points of [0,1]^d and the labels of a random target of ``cls`` (realizable);
    m ≤ :data:`MAX_SAMPLE`."""
    if not isinstance(cls, str) or cls not in LEARNERS:
        raise ValueError(f"cls: expected one of {sorted(LEARNERS)}, got {cls!r}")
    m = check_bounded_count(m, "m", MAX_SAMPLE)
    check_rng(rng)
    if cls == "rectangles":
        x = rng.random((m, 2))
        lo, hi = np.sort(rng.random((2, 2)), axis=0)
        return x, np.all((x >= lo) & (x <= hi), axis=1).astype(float)
    x = rng.random(m)
    if cls == "thresholds":
        return x, (x >= rng.random()).astype(float)
    if cls == "intervals":
        a, b = np.sort(rng.random(2))
        return x, ((x >= a) & (x <= b)).astype(float)
    if cls == "bv":
        return bv_target(m, rng)
    return x, 0.4 * np.sin(2 * x + rng.random())  # 0.8-Lipschitz
