"""Conformance of the learners: what ``fit`` releases follows the law the exact checks decide.

The exact privacy obligations of PCL, PCL2, PCL2b, PCDE and the semi-supervised learner
enumerate ``one_probabilities`` / ``cell_release_law`` / ``release_law`` / ``selection_law``.
Here the real ``fit`` (and ``predict``/``decision_cells`` where the release is a hypothesis) runs
R times with independent ``random_state`` on one small instance, and the joint outcome is tested
against that law (chi-square, α = 1e-6, :mod:`dpspec.proofs.conformance`); the control runs the
same ``fit`` at 2ε and must be rejected. A joint law over cells also tests independence, so a
noise draw reused across cells fails here.

For the semi-supervised learner the law of the choice depends on the synthetic sample that
``fit`` draws first, so the test is conditional: each fit's choice c is mapped to the randomised
probability integral transform u = F(c − 1) + V·p(c) under that fit's exact selection law
(V uniform, independent), which is exactly Uniform(0, 1) under H0; the u's are tested for
uniformity on 20 equiprobable bins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.learners import (
    PrivateHistogramClassifier,
    PrivateHistogramDensity,
    PrivatePackingClassifier,
    PrivateSemiSupervisedClassifier,
    PrivateUnboundedClassifier,
)
from dpspec.learners.pcl import cells_per_axis_for
from dpspec.learners.pcl2 import cell_release_law, release_histogram
from dpspec.mechanisms.stability_histogram import TAIL
from dpspec.proofs.conformance import ConformanceReport, conformance, outcome
from dpspec.proofs.registry import CheckOutcome, VerifyConfig
from dpspec.spec.privacy import bernoulli_product

SEED = 5000


def _fits(config: VerifyConfig, base: int) -> int:
    return 3 * base if config.thorough else base


# --- PCL and PCL2: the bit vector of the hypothesis ---------------------------------------------


def _cell_bits(
    make: Callable[[float, int], Any], X: Any, y: Any, centres: Any
) -> Callable[[float, int], Callable[[int], NDArray[np.int64]]]:
    def at(epsilon: float, offset: int) -> Callable[[int], NDArray[np.int64]]:
        def draw(reps: int) -> NDArray[np.int64]:
            return np.array(
                [
                    make(epsilon, offset + r).fit(X, y).predict(centres)
                    for r in range(reps)
                ],
                dtype=np.int64,
            )

        return draw

    return at


def pcl_fit_conformance(config: VerifyConfig) -> CheckOutcome:
    """PCL ``fit`` + ``predict``: the joint law of the 3 cubes' bits (one empty cube
    included) against ∏ Bernoulli(``one_probabilities``), ε = 1 discrete and idealised; control:
    ``fit`` at ε = 2."""
    X = np.array([[0.1], [0.2], [0.15], [0.5], [0.45], [0.55], [0.6], [0.4]])
    y = np.array([1, 1, 0, 0, 0, 1, 0, 0])
    centres = (np.arange(4) + 0.5)[:, None] / 4
    reps = _fits(config, 800)
    reports = []
    for noise in ("discrete", "laplace"):

        def make(eps: float, seed: int, noise: str = noise) -> PrivateHistogramClassifier:
            return PrivateHistogramClassifier(eps, noise=noise, cells_per_axis=4, random_state=seed)

        def law(eps: float, noise: str = noise) -> dict[Any, Any]:
            return bernoulli_product(
                PrivateHistogramClassifier(eps, noise=noise, cells_per_axis=4).one_probabilities(
                    X, y
                )
            )

        at = _cell_bits(make, X, y, centres)
        reports.append(
            conformance(
                f"PCL fit ({noise}), 4 cubes", law(1.0), at(1.0, 0), at(2.0, 10**6), law(2.0), reps
            )
        )
    # the default grid m = ⌈n^{1/(2d)}⌉ is a function of n alone: 9 points give 3 cubes, whatever
    # the labels (a grid that moved with the data would put other margins under these centres)
    X9 = np.array([[0.05], [0.1], [0.2], [0.25], [0.4], [0.5], [0.6], [0.7], [0.9]])
    y9 = np.array([1, 1, 1, 0, 1, 1, 0, 1, 1])
    m = cells_per_axis_for(9, 1)
    centres9 = (np.arange(m) + 0.5)[:, None] / m

    def make_default(eps: float, seed: int) -> PrivateHistogramClassifier:
        return PrivateHistogramClassifier(eps, random_state=seed)

    def law_default(eps: float) -> dict[Any, Any]:
        fixed = PrivateHistogramClassifier(eps, cells_per_axis=m)
        return bernoulli_product(fixed.one_probabilities(X9, y9))

    at = _cell_bits(make_default, X9, y9, centres9)
    reports.append(
        conformance(
            f"PCL fit, default grid ({m} cubes for n = 9)",
            law_default(1.0),
            at(1.0, 0),
            at(2.0, 10**6),
            law_default(2.0),
            reps // 2,
        )
    )
    # two cubes in different noise blocks (cubes 0 and 1024 of 2048; keyed_noise draws per
    # block of 1024): their bits must be independent, not one stream reused
    X2 = np.array([[0.3], [0.3], [0.7]])
    y2 = np.array([1, 0, 1])
    far = np.array([0, 1024, 1025])
    centres2 = ((far + 0.5) / 2048)[:, None]

    def make_far(eps: float, seed: int) -> PrivateHistogramClassifier:
        return PrivateHistogramClassifier(eps, cells_per_axis=2048, random_state=seed)

    def law_far(eps: float) -> dict[Any, Any]:
        probs = make_far(eps, 0).one_probabilities(X2, y2)
        return bernoulli_product([probs[int(c)] for c in far])

    at = _cell_bits(make_far, X2, y2, centres2)
    reports.append(
        conformance(
            "PCL fit, cubes 0, 1024, 1025 of 2048 (two noise blocks)",
            law_far(1.0),
            at(1.0, 0),
            at(2.0, 10**6),
            law_far(2.0),
            reps // 3,
        )
    )
    return outcome(reports)


def pcl2_fit_conformance(config: VerifyConfig) -> CheckOutcome:
    """PCL2 ``fit`` + ``predict`` on a public 3-cell lattice of [0,1]: the joint law of
    the cells' bits against ∏ Bernoulli(``one_probabilities``); control: ``fit`` at ε = 2."""
    X = np.array([[0.1], [0.2], [0.15], [0.5], [0.45], [0.55], [0.6]])
    y = np.array([1, 1, 0, 0, 0, 1, 0])
    centres = (np.arange(3) + 0.5)[:, None] / 3
    reps = _fits(config, 600)

    def make(eps: float, seed: int) -> PrivatePackingClassifier:
        return PrivatePackingClassifier(eps, cells_per_axis=3, random_state=seed)

    def law(eps: float) -> dict[Any, Any]:
        return bernoulli_product(make(eps, 0).one_probabilities(X, y))

    at = _cell_bits(make, X, y, centres)
    return outcome(
        [conformance("PCL2 fit, 3 cells", law(1.0), at(1.0, 0), at(2.0, 10**6), law(2.0), reps)]
    )


# --- PCL2b: the two histograms' releases of one cell -------------------------------------------


def pcl2b_fit_conformance(config: VerifyConfig) -> CheckOutcome:
    """PCL2b ``fit``: one cell with 18 points, 15 labelled 1 (ε = 1, δ = 1e-3): the joint
    (ĉ, ŷ) it releases against :func:`cell_release_law` of the histogram it runs twice;
    control: ``fit`` at ε = 2."""
    X = np.full((18, 1), 0.5)
    y = np.array([1] * 15 + [0] * 3)
    reps = _fits(config, 600)
    cap = int(release_histogram(1.0, 1e-3).threshold) + 6

    def code(v: float) -> Any:
        return TAIL if v >= cap else int(v)

    def at(eps: float, offset: int) -> Callable[[int], list[Any]]:
        def draw(k: int) -> list[Any]:
            out = []
            for r in range(k):
                clf = PrivateUnboundedClassifier(
                    eps, 1e-3, radius=1.0, random_state=offset + r
                ).fit(X, y)
                c_hat = float(clf.counts_[0]) if clf.counts_.size else 0.0
                y_hat = float(clf.ones_[0]) if clf.ones_.size else 0.0
                out.append((code(c_hat), code(y_hat)))
            return out

        return draw

    def law(eps: float) -> dict[Any, Any]:
        hist = release_histogram(eps, 1e-3)
        return dict(cell_release_law(hist, 18, 15, max(cap, int(hist.threshold))))

    reports = [
        conformance("PCL2b fit, one cell", law(1.0), at(1.0, 0), at(2.0, 10**6), law(2.0), reps)
    ]
    # the default cell side r = n^{−1/(4d)} is a function of n alone: 40 points at 0.39 and 1.5
    # fall in cells 0 and 3 (r ≈ 0.398); a side that moved with the labels would move them
    X40 = np.repeat([[0.39], [1.5]], 20, axis=0)
    y40 = np.array([1] * 15 + [0] * 5 + [1] * 4 + [0] * 16)

    def at_default(eps: float, offset: int) -> Callable[[int], list[Any]]:
        def draw(k: int) -> list[Any]:
            out = []
            for r in range(k):
                clf = PrivateUnboundedClassifier(eps, 1e-3, random_state=offset + r).fit(X40, y40)
                out.append(
                    tuple(
                        (tuple(int(v) for v in cell), code(float(c)), code(float(o)))
                        for cell, c, o in zip(clf.cells_, clf.counts_, clf.ones_, strict=True)
                    )
                )
            return out

        return draw

    def law_default(eps: float) -> dict[Any, Any]:
        clf = PrivateUnboundedClassifier(eps, 1e-3)
        coords, counts, ones = clf.cell_statistics(X40, y40)
        hist = release_histogram(eps, 1e-3)
        out: dict[Any, Any] = {(): 1.0}
        for cell, c, o in zip(coords, counts.tolist(), ones.tolist(), strict=True):
            key = tuple(int(v) for v in cell)
            cell_law = cell_release_law(hist, c, o, max(cap, int(hist.threshold)))
            out = {
                (*k, (key, a, b)) if (a, b) != (0, 0) else k: p * float(pb)
                for k, p in out.items()
                for (a, b), pb in cell_law.items()
            }
        return out

    reports.append(
        conformance(
            "PCL2b fit, default cell side (n = 40)",
            law_default(1.0),
            at_default(1.0, 0),
            at_default(2.0, 10**6),
            law_default(2.0),
            reps,
        )
    )
    return outcome(reports)


# --- PCDE: the released cube counts --------------------------------------------------------------


def pcde_fit_conformance(config: VerifyConfig) -> CheckOutcome:
    """PCDE ``fit`` on 53 points in 3 cubes (counts 5, 8, 40 around τ): the joint release
    (released cubes and their counts) against ``release_law``; control: ``fit`` at ε = 2."""
    X = np.repeat([[-0.5], [0.5], [1.5]], [5, 8, 40], axis=0)
    reps = _fits(config, 800)
    cap = 41

    def at(eps: float, offset: int) -> Callable[[int], list[Any]]:
        def draw(k: int) -> list[Any]:
            out = []
            for r in range(k):
                est = PrivateHistogramDensity(eps, 0.1, side=1.0, random_state=offset + r).fit(X)
                out.append(
                    tuple(
                        (tuple(int(v) for v in cell), TAIL if c >= cap else int(c))
                        for cell, c in zip(est.released_cells_, est.released_counts_, strict=True)
                    )
                )
            return out

        return draw

    def law(eps: float) -> dict[Any, Any]:
        return dict(PrivateHistogramDensity(eps, 0.1, side=1.0).release_law(X, cap=cap))

    return outcome(
        [conformance("PCDE fit, 3 cubes", law(1.0), at(1.0, 0), at(2.0, 10**6), law(2.0), reps)]
    )


# --- semi-supervised: the selection inside fit (conditional on the synthetic sample) -----------


def pit_values(
    laws: list[dict[int, float]], choices: list[int], rng: np.random.Generator
) -> NDArray[np.float64]:
    """u = F(c − 1) + V·p(c) for each (law, choice): Uniform(0, 1) exactly when c ~ law."""
    out = np.empty(len(choices))
    for i, (law, c) in enumerate(zip(laws, choices, strict=True)):
        below = sum(p for k, p in law.items() if k < c)
        out[i] = below + rng.random() * law.get(c, 0.0)
    return out


def semi_supervised_fit_conformance(config: VerifyConfig) -> CheckOutcome:
    """``PrivateSemiSupervisedClassifier.fit``: the candidate it chooses, given the synthetic
    sample it drew, follows ``selection_law`` (randomised PIT → 20 equiprobable bins, chi-square
    at α = 1e-6); control: ``fit`` with ε_label = 2 against the ε_label = 1 law."""
    rng = np.random.default_rng(SEED)
    X = rng.standard_normal((40, 1))
    y = (np.abs(X[:, 0]) < 0.6).astype(np.int64)
    U = rng.standard_normal((400, 1))
    reps = _fits(config, 500)
    bins = 20
    uniform = {b: 1.0 / bins for b in range(bins)}

    def at(label_eps: float, offset: int) -> Callable[[int], NDArray[np.int64]]:
        def draw(k: int) -> NDArray[np.int64]:
            laws, choices = [], []
            for r in range(k):
                clf = PrivateSemiSupervisedClassifier(
                    "interval", 1.0, 0.05, label_epsilon=label_eps, n_synthetic=8,
                    random_state=offset + r,
                ).fit(X, y, U)
                reference = PrivateSemiSupervisedClassifier("interval", label_epsilon=1.0)
                laws.append(reference.selection_law(X, y, clf.synthetic_))
                choices.append(int(clf.choice_))
            u = pit_values(laws, choices, np.random.default_rng([SEED, offset]))
            return np.minimum((u * bins).astype(np.int64), bins - 1)

        return draw

    report: ConformanceReport = conformance(
        "semi-supervised fit: selection given the synthetic sample (PIT)",
        uniform,
        at(1.0, 0),
        at(2.0, 10**6),
        uniform,
        reps,
    )
    report.power = float("nan")  # the alternative's PIT law is not closed-form; shown by control
    return outcome([report])
