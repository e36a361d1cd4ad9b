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
from typing import Annotated, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpspec.compression.boosting import (
    MAX_POINT_ROUNDS,
    MAX_ROUNDS,
    EtaArg,
    GammaArg,
    PointsArg,
    SparsifyArg,
    SubsampleArg,
    TargetsArg,
    medboost,
    sparsify,
    weighted_median,
)
from dpspec.compression.learners import LEARNERS
from dpspec.validation import (
    Array,
    Checked,
    Choice,
    GeneratorArg,
    Instance,
    Integer,
    SampleSizeArg,
    checked,
    example,
    optional,
    require_within,
)

BINARY = ("thresholds", "intervals", "rectangles")
REAL = ("bv", "lipschitz")

#: The largest sample m the generators :func:`random_realizable_sample` and :func:`bv_target`
#: draw (O(m·d) memory): a larger m (a sample size :data:`~dpspec.validation.SampleSizeArg`
#: allows) is refused before any work, naming ``m`` and this limit.
MAX_SAMPLE = 10**7

#: classes whose points are scalars (x of shape (m,) or (m, 1)); rectangles take (m, d)
SCALAR = ("thresholds", "intervals", "bv", "lipschitz")

#: The hypothesis class of a scheme.
ClassArg = Annotated[str, Choice(options=tuple(LEARNERS))]
#: A count of work done (rounds, draws, trials, bits).
WorkArg = Annotated[int, Integer(lo=0, hi=2**62)]


@example(
    __init__={
        "cls": "thresholds",
        "stored": np.array([3, 7]),
        "groups": np.array([[0, 1], [1, 1], [0, 0]]),
        "side_bits": 6,
        "rounds": 2,
        "weak_draws": 2,
        "trials": 1,
    }
)
@dataclass
class CompressedSample(Checked):
    """κ(S): stored distinct indices into S, the n groups (positions into ``stored``), the side
    bits they cost, and the work it took (boosting rounds, weak-learner draws, Sparsify
    trials)."""

    cls: ClassArg
    stored: Annotated[NDArray[np.int64], Array(ndim=1, kind="integer")]
    groups: Annotated[NDArray[np.int64], Array(ndim=2, kind="integer")]
    side_bits: WorkArg
    rounds: WorkArg
    weak_draws: WorkArg
    trials: WorkArg

    def __post_init__(self) -> None:
        super().__post_init__()
        stored, groups = np.asarray(self.stored), np.asarray(self.groups)
        if np.any(stored < 0) or np.unique(stored).size != stored.size:
            raise ValueError("stored: expected distinct indices >= 0 into the sample")
        if groups.min() < 0 or groups.max() >= stored.size:
            raise ValueError(f"groups: must index the {stored.size} stored points")

    @property
    def stored_points(self) -> int:
        return int(np.asarray(self.stored).size)

    @property
    def size(self) -> int:
        return self.stored_points + self.side_bits


def _check_sample(cls: str, x: Any, y: Any) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    xs = np.asarray(x, dtype=np.float64)
    if cls in SCALAR:
        if xs.ndim == 2 and xs.shape[1] == 1:
            xs = xs[:, 0]
        if xs.ndim != 1:
            raise ValueError(f"x: {cls} take scalar points, shape (m,) or (m, 1); got {xs.shape}")
    elif xs.ndim != 2:
        raise ValueError(f"x: {cls} take points of R^d, shape (m, d); got {xs.shape}")
    ys = np.asarray(y, dtype=np.float64)
    if xs.shape[0] != ys.shape[0]:
        raise ValueError(f"y: expected {xs.shape[0]} labels, got {ys.shape[0]}")
    if cls in BINARY and not np.all(np.isin(ys, (0.0, 1.0))):
        raise ValueError("y: binary classes take labels in {0, 1}")
    return xs, ys


def _realizable(cls: str, x: NDArray[np.float64], y: NDArray[np.float64]) -> bool:
    """Binary classes: the learner's hypothesis on all of S must be consistent with S."""
    if cls not in BINARY:
        return True
    h = LEARNERS[cls]().learn(x, y)
    return bool(np.all(h(x) == y))


_EXAMPLE_X = np.linspace(0.05, 0.95, 10)
_EXAMPLE_Y = (_EXAMPLE_X >= 0.5).astype(np.float64)


@checked
@example(
    __call__={
        "hypothesis_class": "thresholds",
        "x": _EXAMPLE_X,
        "y": _EXAMPLE_Y,
        "n": 8,
        "rounds": 4,
    }
)
def compress(
    hypothesis_class: ClassArg,
    x: PointsArg,
    y: TargetsArg,
    rng: GeneratorArg,
    gamma: GammaArg = 0.125,
    eta: Annotated[float | None, optional(EtaArg.__metadata__[0])] = None,
    n: SparsifyArg = 64,
    subsample: SubsampleArg = 8,
    rounds: Annotated[int | None, Integer(lo=1, hi=MAX_ROUNDS, optional=True)] = None,
) -> CompressedSample:
    """κ(S) for the class ``hypothesis_class`` (thresholds, intervals, rectangles; bv,
    lipschitz).

    ``rounds`` defaults to T = ⌈(4/γ²) ln m⌉ (Cor 4.1.2); ``eta`` is ½ for binary classes (a
    wrong label) and the target accuracy for real-valued ones (default 0.1). Raises
    :class:`CompressionFailure` (a ValueError) when a bounded loop runs out; ValueError names the
    parameter for bad input (γ outside (0, ½), η ≤ 0, non-realizable labels, empty S). The work
    is bounded before any round: T·m ≤ ``MAX_POINT_ROUNDS``."""
    cls = hypothesis_class
    xs, ys = _check_sample(cls, x, y)
    m = ys.size
    eta_v = (0.5 if cls in BINARY else 0.1) if eta is None else eta
    if cls in BINARY and not eta_v < 1:  # labels are 0/1: |f − y| > η must mean "wrong label"
        raise ValueError(f"eta: binary classes need eta in (0, 1) (default 1/2), got {eta!r}")
    if rounds is None:
        t_need = 4 * math.log(max(m, 2)) / gamma / gamma  # inf, not 1/0, for a tiny gamma
        if t_need > MAX_ROUNDS:
            raise ValueError(
                f"gamma: {gamma!r} needs T = ceil(4/gamma^2 ln m) = {t_need:.3g} boosting rounds "
                f"at m = {m}, more than the limit {MAX_ROUNDS} (rounds); use a larger gamma"
            )
        t_max = math.ceil(t_need)
        require_within(
            float(t_max) * m,
            MAX_POINT_ROUNDS,
            "gamma",
            f"point-rounds (T = {t_max} rounds x m = {m} points)",
        )
    else:
        t_max = rounds
    if not _realizable(cls, xs, ys):
        raise ValueError(f"y: the labels are not realizable by {cls}")
    # MedBoost's weak hypotheses must be (η/2, γ)-weak; Sparsify then keeps |f − y| ≤ η
    boost = medboost(xs, ys, LEARNERS[cls](), t_max, gamma, eta_v, subsample, rng)
    sparse = sparsify(boost, xs, ys, n, eta_v, rng)
    chosen = np.asarray(sparse.chosen)
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


def _median_of(hypotheses: list[Any], q: NDArray[np.float64]) -> NDArray[np.float64]:
    """ρ's vote at the points q: the upper median (Q⁺_0 with unit weights, L693–703) of the
    hypotheses' values, by the same vectorised :func:`weighted_median` MedBoost's quantiles
    use."""
    values = np.stack([h(q) for h in hypotheses])
    return np.asarray(weighted_median(values, np.ones(len(hypotheses))))


_EXAMPLE_COMPRESSED = CompressedSample(
    "thresholds", np.array([3, 7]), np.array([[0, 1], [1, 1], [0, 0]]), 6, 2, 2, 1
)


@checked
@example(
    __call__={
        "compressed": _EXAMPLE_COMPRESSED,
        "x_stored": np.array([0.35, 0.75]),
        "y_stored": np.array([0.0, 1.0]),
    }
)
def reconstruct(
    compressed: Annotated[CompressedSample, Instance(types=(CompressedSample,))],
    x_stored: PointsArg,
    y_stored: TargetsArg,
) -> Any:
    """ρ: the median of the n hypotheses rebuilt from the stored groups. ``x_stored``,
    ``y_stored`` are the stored points (in the order of ``compressed.stored``); the result maps
    points to the upper median of the n hypotheses' values there."""
    k = compressed.stored_points
    xs, ys = _check_sample(compressed.cls, x_stored, y_stored)
    if ys.size != k:
        raise ValueError(
            f"x_stored: expected the {k} stored points (in the order of compressed.stored), "
            f"got {ys.size}"
        )
    groups = np.asarray(compressed.groups)
    learner = LEARNERS[compressed.cls]()
    hyps = [learner.learn(xs[g], ys[g]) for g in groups]

    def predict(q: Any) -> NDArray[np.float64]:
        return _median_of(hyps, np.asarray(q, dtype=np.float64))

    return predict


@checked
@example(__call__={"x": np.array([[0.2, 0.3], [0.5, 0.1], [0.9, 0.9]]), "y": np.array([1, 1, 0])})
def rectangle_baseline(x: Annotated[ArrayLike, Array(ndim=2)], y: TargetsArg) -> NDArray[np.int64]:
    """The 2d-point scheme for rectangles: indices of the positive points with the least and
    the greatest value of each coordinate (≤ 2d points; empty when there is no positive)."""
    xs, ys = np.asarray(x, dtype=np.float64), np.asarray(y)
    if ys.shape[0] != xs.shape[0]:
        raise ValueError(f"y: expected {xs.shape[0]} labels, got {ys.shape[0]}")
    pos = np.flatnonzero(ys == 1)
    if pos.size == 0:
        return np.zeros(0, dtype=np.int64)
    keep = {int(pos[np.argmin(xs[pos, j])]) for j in range(xs.shape[1])}
    keep |= {int(pos[np.argmax(xs[pos, j])]) for j in range(xs.shape[1])}
    return np.array(sorted(keep), dtype=np.int64)


def _drawable(m: int) -> None:
    """Refuse, before any draw, a sample beyond :data:`MAX_SAMPLE` (naming ``m`` and it)."""
    if m > MAX_SAMPLE:
        raise ValueError(
            f"m: must be an integer [1, {MAX_SAMPLE}] (MAX_SAMPLE: the largest sample the "
            f"generators draw, O(m·d) memory), got {m!r}"
        )


@checked
def bv_target(
    m: SampleSizeArg, rng: GeneratorArg
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """A BV(1) target: a step function with three jumps at random places (variation 0.9), on
    m uniform points of [0, 1]; m ≤ :data:`MAX_SAMPLE`."""
    _drawable(m)
    x = rng.random(m)
    cuts = np.sort(rng.random(3))
    return x, 0.2 + 0.3 * (x > cuts[0]) - 0.4 * (x > cuts[1]) + 0.2 * (x > cuts[2])


@checked
def random_realizable_sample(
    hypothesis_class: ClassArg, m: SampleSizeArg, rng: GeneratorArg
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """m points of [0,1]^d and the labels of a random target of ``hypothesis_class``
    (realizable); m ≤ :data:`MAX_SAMPLE`."""
    _drawable(m)
    cls = hypothesis_class
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
