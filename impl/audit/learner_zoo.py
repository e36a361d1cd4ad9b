"""The learner zoo: our private learners and learners with real privacy bugs, each with the
canary pair it is audited on, its claim and its true ε on that pair where it is known.

Correct:

* ``pcl`` — PCL (seed 000 Alg 2) at ε = 1, n = 10^4 points on [0, 0.85]², one canary alone
  in the corner cube whose label flips (substitution). The released bit at the canary is
  1[m + Z > 0] with m = ±1 and P(Z = z) ∝ q^{|z|}, q = e^{−ε/2}: P(Z ≥ 0)/P(Z ≥ 2) = q^{−2}, so
  the true ε of the pair is exactly ε — the audit can be tight.
* ``pcl-idealised`` — the same with the paper's Lap(1/ε): (1 − e^{−ε/2}/2)/(e^{−ε/2}/2) =
  2e^{ε/2} − 1, true ε = ln(2√e − 1) = 0.8317 at ε = 1.
* ``pcde`` — PCDE (seed 000 Alg 3) at (1, 10^-3) in 1-D, four cubes of ≈ 100 points; one
  record moves between the two probed cubes; the release is the pair of released counts:
  each moves by one under noise ∝ e^{−ε|z|/2}, true ε = ε (the threshold at τ ≈ 17 is
  1e-15-far from counts of 100).
* ``a1`` — Chaudhuri–Hsu A1 (seed 004 Fig. 1), α = 1, substitution pair; released: the
  chosen threshold. Exactly α-private (``chaudhuri-hsu`` topic), true ε ≤ 1.
* ``a2-label`` — A2 (Fig. 3) on a label pair (same x's): α-label private, true ε ≤ 1.

Broken (each a one-line bug a library could ship):

* ``pcl-half-noise`` — PCL calibrated to sensitivity 1 instead of 2 (the margin 2Σy − |C|
  moves by 2 when a label flips): q = e^{−ε}, true ε = 2ε = 2.
* ``pcl-last-label`` — a PCL subclass whose ``predict`` returns the last training label (the
  canary, whose label flips): deterministic, true ε = ∞. It inherits PCL's vectorised shortcut,
  which does not leak; the auditor runs its own ``fit`` + ``predict`` (a subclass never takes
  the shortcut), on a 500-point version of the pcl pair.
* ``pcl-data-range`` — PCL after dividing X by its own maximum (a "normalise the features"
  step inside ``fit``): the partition depends on the data. Moving the canary from 1.0 to 0.5
  moves the cube boundaries, so the probed margin goes from +20 to −21: true ε = 11.47
  (:func:`data_range_epsilon`).
* ``pcde-2eps`` — PCDE whose histogram is built at 2ε: true ε = 2.
* ``a2-as-private`` — A2 claimed fully α-private under substitution: its cover is built from
  the x's, so the replaced x can be released outright (ratio ∞, ``chaudhuri-hsu`` topic).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray

from dpspec.audit.learners import LearnerMechanism
from dpspec.contract import PrivacyLevel
from dpspec.cover_learners import LabelPrivateCoverClassifier, PrivateCoverClassifier
from dpspec.learners.estimator import check_unit_cube
from dpspec.learners.pcde import PrivateHistogramDensity
from dpspec.learners.pcl import PrivateHistogramClassifier
from dpspec.mechanisms.base import discrete_laplace_for
from dpspec.mechanisms.stability_histogram import StabilityHistogram
from dpspec.noise import DiscreteLaplaceNoise
from dpspec.validation import (
    EpsilonArg,
    FeaturesArg,
    Instance,
    Integer,
    LabelsArg,
    check_epsilon,
    checked,
    example,
)

__all__ = [
    "DataRangeHistogramClassifier",
    "DoubledEpsilonDensity",
    "HalvedNoiseHistogramClassifier",
    "LastLabelHistogramClassifier",
    "LearnerEntry",
    "data_range_epsilon",
    "learner_zoo",
    "released_counts_at",
]

#: Seed of the zoo's background datasets (fixed: the pairs are public test fixtures).
DATA_SEED = 20261125


@dataclass(frozen=True)
class LearnerEntry:
    """A learner target, the pair it is audited on, its claim and its true ε on that pair
    (None where only a bound is known: ``why`` says which)."""

    __dpspec_declarative__ = "a record of the learner zoo (what learner_zoo() returns)"

    name: str
    mechanism: LearnerMechanism
    pair: tuple[Any, Any]
    epsilon: float
    delta: float
    true_epsilon: float | None
    correct: bool
    why: str
    #: fits per side its verdict needs at confidence 0.95 (vectorised entries: cheap draws)
    samples: int = 600


class HalvedNoiseHistogramClassifier(PrivateHistogramClassifier):
    """PCL with its noise calibrated to sensitivity 1 (the bug: a label flip moves the margin
    2Σy − |C| by 2): half the noise, true ε = 2ε."""

    __dpspec_fixture__ = "PCL's noise calibrated to sensitivity 1 instead of 2"

    def _noise_law(self) -> tuple[DiscreteLaplaceNoise | None, PrivacyLevel]:
        law, level = discrete_laplace_for(Fraction(1), check_epsilon(self.epsilon), None)
        return law, level


class LastLabelHistogramClassifier(PrivateHistogramClassifier):
    """PCL whose ``predict`` returns the label of the last training record (the bug: a
    "cached" answer that is the data itself). Its ``repeated_predictions`` is PCL's, which does
    not leak: an auditor that sampled the parent's shortcut instead of this class's own
    ``predict`` would call it private."""

    __dpspec_fixture__ = "predict returns the last training label (the data itself)"

    def fit(self, X: FeaturesArg, y: LabelsArg) -> LastLabelHistogramClassifier:
        super().fit(X, y)
        self.last_label_ = np.asarray(y)[-1]
        return self

    def predict(self, X: FeaturesArg) -> NDArray[Any]:
        rows = np.asarray(X).shape[0]
        return np.full(rows, self.last_label_)


class DataRangeHistogramClassifier(PrivateHistogramClassifier):
    """PCL fitted after dividing every feature by its maximum over the training data (the bug:
    the partition moves with the data, so one record changes every cube's contents). ``fit``
    and ``predict`` rescale; PCL's other releases (its vectorised shortcut included) read the
    rescaled grid unscaled, and the auditor runs this class's own ``fit`` + ``predict``."""

    __dpspec_fixture__ = "the partition is scaled by the data's own maximum"

    def fit(self, X: FeaturesArg, y: LabelsArg) -> DataRangeHistogramClassifier:
        X = check_unit_cube(X)
        self.scale_ = np.maximum(X.max(axis=0), 1e-12)
        super().fit(np.minimum(X / self.scale_, 1.0), y)
        return self

    def predict(self, X: FeaturesArg) -> NDArray[Any]:
        X = check_unit_cube(X)
        return super().predict(np.minimum(X / self.scale_, 1.0))


class DoubledEpsilonDensity(PrivateHistogramDensity):
    """PCDE whose stability histogram is built at 2ε (the bug: ε counted per cube instead of
    for the pair of cubes a substitution touches): true ε = 2ε."""

    __dpspec_fixture__ = "the stability histogram is built at 2ε"

    def make_histogram(self) -> StabilityHistogram:
        eps = 2 * check_epsilon(self.epsilon)
        return StabilityHistogram(bins=None, epsilon=eps, delta=self.delta)


def _example_density() -> PrivateHistogramDensity:
    """A PCDE fitted on 200 points of [0, 1] (the example of :func:`released_counts_at`)."""
    X = np.random.default_rng(DATA_SEED).random((200, 1))
    return PrivateHistogramDensity(1.0, 1e-3, side=0.25, random_state=0).fit(X)


@example(__call__={"model": _example_density(), "probe": np.array([[0.125], [0.375]])})
@checked
def released_counts_at(
    model: Annotated[PrivateHistogramDensity, Instance(types=(PrivateHistogramDensity,))],
    probe: FeaturesArg,
) -> Any:
    """PCDE's released counts of the cubes holding the probe points (0 if not released)."""
    if not hasattr(model, "side_"):
        raise ValueError("model: not fitted (call fit first)")
    probe = np.asarray(probe, dtype=np.float64)
    if probe.shape[1] != model.released_cells_.shape[1]:
        raise ValueError(
            f"probe: expected {model.released_cells_.shape[1]} columns, got {probe.shape[1]}"
        )
    cells = np.floor(probe / model.side_).astype(np.int64)
    out = np.zeros(len(probe), dtype=np.int64)
    for i, cell in enumerate(cells):
        match = np.all(model.released_cells_ == cell, axis=1)
        if match.any():
            out[i] = int(model.released_counts_[np.argmax(match)])
    return out


def _pcl_pair(n: int) -> tuple[Any, Any, NDArray[np.float64]]:
    """n − 1 background points on [0, 0.85]² (labels from x₁), the canary at (0.97, 0.97)
    alone in the corner cube of the default grid (m = ⌈n^{1/4}⌉ ≥ 7 cubes per axis), label 1
    in D and 0 in D'."""
    rng = np.random.default_rng(DATA_SEED)
    X = rng.random((n - 1, 2)) * 0.85
    y = (rng.random(n - 1) < X[:, 0]).astype(np.int64)
    canary = np.array([[0.97, 0.97]])
    Xc = np.vstack([X, canary])
    return (Xc, np.append(y, 1)), (Xc, np.append(y, 0)), canary


def _range_pair() -> tuple[Any, Any, NDArray[np.float64]]:
    """1-D: 30 label-0 points on [0.1, 0.4), 40 label-1 on [0.6, 0.63), 20 label-0 on
    [0.635, 0.695), one label-0 at 0.7; the canary (label 1) at 1.0 (D) or 0.5 (D'). The probe
    0.66 lies in cube [0.6, 0.7) under D (margin 2·40 − 60 = +20) and, once D' is divided by
    its maximum 0.7, in the last cube, original [0.63, 0.7] (margin −21)."""
    rng = np.random.default_rng(DATA_SEED)
    X = np.concatenate(
        [0.1 + 0.3 * rng.random(30), 0.6 + 0.03 * rng.random(40), 0.635 + 0.06 * rng.random(20)]
    )
    X = np.append(X, 0.7)
    y = np.concatenate([np.zeros(30, np.int64), np.ones(40, np.int64), np.zeros(21, np.int64)])
    D = (np.append(X, 1.0)[:, None], np.append(y, 1))
    D2 = (np.append(X, 0.5)[:, None], np.append(y, 1))
    return D, D2, np.array([[0.66]])


@checked
def data_range_epsilon(epsilon: EpsilonArg = 1.0) -> float:
    """True ε of ``pcl-data-range`` on its pair: the released bit is 1 w.p. P(Z ≥ −19) under
    D and P(Z ≥ 22) under D' (P(Z ≥ k) = q^k/(1 + q) for k ≥ 1, q = e^{−ε/2}); the larger
    of the two log-ratios (event 1, event 0)."""
    eps = float(epsilon)
    lead = math.log1p(math.exp(-eps / 2))  # ln(1 + q)
    log20, log22 = -10 * eps - lead, -11 * eps - lead  # ln P(Z ≤ −20), ln P(Z ≥ 22)
    return max(
        math.log1p(-math.exp(log20)) - log22, math.log1p(-math.exp(log22)) - log20
    )  # in logs: finite for every ε


def _pcde_pair() -> tuple[Any, Any, NDArray[np.float64]]:
    """1-D, cubes of side 1/4: 100 points in each of the four cubes; one record of cube 0
    moves to cube 1. Probes: the centres of cubes 0 and 1."""
    rng = np.random.default_rng(DATA_SEED)
    X = (np.repeat(np.arange(4), 100) + rng.uniform(0.05, 0.95, 400)) / 4
    X2 = X.copy()
    X2[0] = 0.375  # the first record (cube 0) moves to cube 1
    return X[:, None], X2[:, None], np.array([[0.125], [0.375]])


class _Estimator:
    """A learner target's factory ``seed -> estimator(*args, **params, random_state=seed)``
    (two built from the same arguments compare equal through them)."""

    def __init__(self, estimator: type, *args: Any, **params: Any) -> None:
        self.estimator = estimator
        self.args = args
        self.params = params

    def __call__(self, seed: int) -> Any:
        return self.estimator(*self.args, **self.params, random_state=seed)


class _CountsAt:
    """The release ``model -> released_counts_at(model, probe)``."""

    def __init__(self, probe: NDArray[np.float64]) -> None:
        self.probe = probe

    def __call__(self, model: Any) -> Any:
        return released_counts_at(model, self.probe)


def _threshold(model: Any) -> float:
    """The threshold the cover learners release (their whole output)."""
    return float(model.lower_)


@checked
def learner_zoo(n_pcl: Annotated[int, Integer(50, 10**6)] = 10**4) -> dict[str, LearnerEntry]:
    """Every learner target by name (built fresh). ``n_pcl``: PCL's dataset size (≥ 50)."""
    e: dict[str, LearnerEntry] = {}

    def add(
        name: str,
        mech: LearnerMechanism,
        pair: Any,
        eps: float,
        true: float | None,
        correct: bool,
        why: str,
        delta: float = 0.0,
        samples: int = 600,
    ) -> None:
        e[name] = LearnerEntry(name, mech, pair, eps, delta, true, correct, why, samples)

    D, D2, canary = _pcl_pair(n_pcl)

    pcl = _Estimator(PrivateHistogramClassifier, 1.0)
    pcl_idealised = _Estimator(PrivateHistogramClassifier, 1.0, idealised=True)
    pcl_half = _Estimator(HalvedNoiseHistogramClassifier, 1.0)

    add(
        "pcl",
        LearnerMechanism(pcl, probe=canary, name="pcl"),
        (D, D2),
        1.0,
        1.0,
        True,
        "PCL, lone canary's label flips: P(Z≥0)/P(Z≥2) = e^ε exactly",
        samples=100000,  # vectorised: the tightness target (≥ 0.95 of ε)
    )
    add(
        "pcl-idealised",
        LearnerMechanism(pcl_idealised, probe=canary, name="pcl-idealised"),
        (D, D2),
        1.0,
        math.log(2 * math.exp(0.5) - 1),
        True,
        "PCL with Lap(1/ε): ratio 2e^{ε/2} − 1",
        samples=100000,  # vectorised
    )
    add(
        "pcl-half-noise",
        LearnerMechanism(pcl_half, probe=canary, name="pcl-half-noise"),
        (D, D2),
        1.0,
        2.0,
        False,
        "PCL calibrated to sensitivity 1, not 2: q^{-2} = e^{2ε}",
        samples=100000,  # vectorised
    )
    S, S2, corner = _pcl_pair(500)

    pcl_last_label = _Estimator(LastLabelHistogramClassifier, 1.0)

    add(
        "pcl-last-label",
        LearnerMechanism(pcl_last_label, probe=corner, name="pcl-last-label"),
        (S, S2),
        1.0,
        math.inf,
        False,
        "PCL subclass whose predict returns the last training label (the canary's): audited "
        "through its own fit + predict, not PCL's shortcut",
        samples=200,  # deterministic leak: 200 fits reach ε_LCB > 3
    )
    R, R2, at = _range_pair()

    pcl_range = _Estimator(DataRangeHistogramClassifier, 1.0, cells_per_axis=10)

    add(
        "pcl-data-range",
        LearnerMechanism(pcl_range, probe=at, name="pcl-data-range"),
        (R, R2),
        1.0,
        data_range_epsilon(),
        False,
        "partition scaled by the data's maximum: the probed margin moves from +20 to −21",
        samples=300,  # true ε 11.5
    )
    P, P2, cubes = _pcde_pair()

    pcde = _Estimator(PrivateHistogramDensity, 1.0, 1e-3, side=0.25)
    pcde_2eps = _Estimator(DoubledEpsilonDensity, 1.0, 1e-3, side=0.25)

    counts = _CountsAt(cubes)

    add(
        "pcde",
        LearnerMechanism(pcde, counts, name="pcde"),
        (P, P2),
        1.0,
        1.0,
        True,
        "PCDE's two released counts move by one each: e^{ε/2}·e^{ε/2}",
        delta=1e-3,
        samples=500,  # correct: fewer fits only lower the bound
    )
    add(
        "pcde-2eps",
        LearnerMechanism(pcde_2eps, counts, name="pcde-2eps"),
        (P, P2),
        1.0,
        2.0,
        False,
        "PCDE's histogram at 2ε: true ε = 2",
        delta=1e-3,
        samples=1000,  # true ε 2 against (1, 1e-3), a 2-D atom law
    )
    sub = (
        (np.array([[0.1], [0.8]]), np.array([0, 1])),
        (np.array([[0.45], [0.8]]), np.array([0, 1])),
    )
    label = (
        (np.array([[0.1], [0.45], [0.8]]), np.array([0, 0, 1])),
        (np.array([[0.1], [0.45], [0.8]]), np.array([0, 1, 1])),
    )

    a1 = _Estimator(PrivateCoverClassifier, epsilon=1.0, accuracy=0.1)
    a2 = _Estimator(LabelPrivateCoverClassifier, 1.0, 0.1)

    add(
        "a1",
        LearnerMechanism(a1, _threshold, name="a1"),
        sub,
        1.0,
        None,
        True,
        "A1 over a public grid: α-private (Thm 7), exact ratio ≤ e on this pair",
        samples=400,  # correct
    )
    add(
        "a2-label",
        LearnerMechanism(a2, _threshold, name="a2-label"),
        label,
        1.0,
        None,
        True,
        "A2 on a label pair: α-label private (Thm 26)",
        samples=400,  # correct
    )
    add(
        "a2-as-private",
        LearnerMechanism(a2, _threshold, name="a2-as-private"),
        sub,
        1.0,
        math.inf,
        False,
        "A2's cover is built from the x's: the replaced x is released",
        samples=400,  # support shift
    )
    return e
