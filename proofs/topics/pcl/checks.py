"""Checks of PCL (seed 000, Alg 2, Thm 3.1): exact privacy of the released bits through the
real ``fit``/``predict``, and the fixed hypothesis of the counter-keyed noise.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import stats

from dpspec.learners.pcl import PrivateHistogramClassifier, cells_per_axis_for
from dpspec.proofs.engine.cells import cell_bits, checkerboard_sample, verify_cell_classifier
from dpspec.proofs.engine.conformance import conformance, draws, outcome
from dpspec.proofs.engine.exact import ExactReport
from dpspec.proofs.engine.registry import CheckOutcome, VerifyConfig
from dpspec.proofs.engine.stats import ALPHA
from dpspec.spec.neighbours import Relation
from dpspec.spec.privacy import (
    bernoulli_product,
)

#: Relative slack of float-law comparisons (probabilities carry ~1e-15 relative error).


def verify_pcl(
    d: int = 1,
    cells_per_axis: int = 3,
    max_size: int = 4,
    epsilon: float = 1.0,
    idealised: bool = False,
    relation: Relation = Relation.SUBSTITUTE,
    claimed_epsilon: float | None = None,
) -> ExactReport:
    """PCL (seed 000 Alg 2) on a small grid (cube centres as representatives)."""
    from itertools import product as iproduct

    from dpspec.learners.pcl import PrivateHistogramClassifier

    clf = PrivateHistogramClassifier(epsilon, idealised=idealised, cells_per_axis=cells_per_axis)
    centres = [
        tuple((i + 0.5) / cells_per_axis for i in idx)
        for idx in iproduct(range(cells_per_axis), repeat=d)
    ]
    return verify_cell_classifier(
        f"PCL d={d}, {cells_per_axis**d} cubes ({'idealised' if idealised else 'exact'})",
        clf,
        centres,
        max_size,
        epsilon,
        relation,
        claimed_epsilon,
    )


SEED = 3000


def pcl_exact_privacy(config: VerifyConfig) -> CheckOutcome:
    """Thm 3.1 exactly on small grids (d=1: 3 cubes, d=2: 4 cubes), both noise paths, with a
    control claiming 0.9ε that must be caught; add/remove on a fixed grid gives e^{ε/2}."""
    size = 5 if config.thorough else 4
    reports = [
        verify_pcl(1, 3, size + 1, 1.0),
        verify_pcl(2, 2, size, 1.0),
        verify_pcl(1, 3, size, 0.5, idealised=True),
        verify_pcl(1, 3, size, 1.0, relation=Relation.ADD_REMOVE, claimed_epsilon=0.5),
    ]
    control = verify_pcl(1, 3, size, 1.0, claimed_epsilon=0.9)
    ok = all(r.holds for r in reports) and not control.holds
    return CheckOutcome(
        ok,
        "; ".join(r.summary() for r in reports) + f"; control: {control.summary()}",
        {"pairs": sum(r.pairs for r in reports), "control_caught": not control.holds},
    )


def pcl_fixed_function(config: VerifyConfig) -> CheckOutcome:
    """The hypothesis is one function: repeated and split predictions agree; empty cubes carry
    noise (their 1-rate matches P(Z ≥ 1), binomial test at α = 1e-6, and a noiseless rule would
    fail it); memory holds only non-empty cubes."""
    rng = np.random.default_rng(SEED)
    X, y = checkerboard_sample(2000, rng)
    clf = PrivateHistogramClassifier(1.0, cells_per_axis=400, random_state=7).fit(X, y)
    Xt = rng.random((20000, 2))
    a, b = clf.predict(Xt), clf.predict(Xt)
    split = np.concatenate([clf.predict(Xt[:777]), clf.predict(Xt[777:])])
    same = bool(np.array_equal(a, b) and np.array_equal(a, split))
    refit = PrivateHistogramClassifier(1.0, cells_per_axis=400, random_state=7).fit(X, y)
    same_model = bool(np.array_equal(refit.predict(Xt), a))
    # cubes of a 400x400 grid with no data: 1-rate must be P(Z >= 1) = q/(1+q), q = e^{-1/2}
    empty = rng.random((5000, 2)) * 0.3 + 0.7  # region where few training points fall
    cells = np.unique(np.minimum((empty * 400).astype(np.int64), 399) @ np.array([400, 1]))
    cells = np.setdiff1d(cells, clf.cells_)
    centres = np.stack([(cells // 400 + 0.5) / 400, (cells % 400 + 0.5) / 400], axis=1)
    ones = int(clf.decision_cells(centres).sum())
    assert clf.noise_law_ is not None
    p = float(clf.noise_law_.sf(1))
    pv = stats.binomtest(ones, cells.size, p).pvalue
    pv_noiseless = stats.binomtest(0, cells.size, p).pvalue  # a rule without noise says 0
    memory_ok = clf.cells_.size <= min(2000, 400**2)
    ok = same and same_model and pv > ALPHA and pv_noiseless < ALPHA and memory_ok
    return CheckOutcome(
        ok,
        f"repeat/split/refit agree: {same and same_model}; empty cubes 1-rate "
        f"{ones}/{cells.size} vs p={p:.4f} (p-value {pv:.3g}); noiseless rule rejected: "
        f"{pv_noiseless < ALPHA}; stored cubes {clf.cells_.size} of {400**2}",
        {"empty_cubes": int(cells.size), "pvalue": pv, "stored_cubes": int(clf.cells_.size)},
    )


def pcl_fit_conformance(config: VerifyConfig) -> CheckOutcome:
    """PCL ``fit`` + ``predict``: the joint law of the 3 cubes' bits (one empty cube
    included) against ∏ Bernoulli(``release_law``), ε = 1 discrete and idealised; control:
    ``fit`` at ε = 2."""
    X = np.array([[0.1], [0.2], [0.15], [0.5], [0.45], [0.55], [0.6], [0.4]])
    y = np.array([1, 1, 0, 0, 0, 1, 0, 0])
    centres = (np.arange(4) + 0.5)[:, None] / 4
    reps = draws(config, 400)
    reports = []
    for idealised in (False, True):

        def make(eps: float, seed: int, idealised: bool = idealised) -> PrivateHistogramClassifier:
            return PrivateHistogramClassifier(
                eps, idealised=idealised, cells_per_axis=4, random_state=seed
            )

        def law(eps: float, idealised: bool = idealised) -> dict[Any, Any]:
            return bernoulli_product(
                PrivateHistogramClassifier(eps, idealised=idealised, cells_per_axis=4).release_law(
                    X, y
                )
            )

        at = cell_bits(make, X, y, centres)
        reports.append(
            conformance(
                f"PCL fit ({'idealised' if idealised else 'exact'}), 4 cubes",
                law(1.0),
                at(1.0, 0),
                at(2.0, 10**6),
                law(2.0),
                reps,
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
        return bernoulli_product(fixed.release_law(X9, y9))

    at = cell_bits(make_default, X9, y9, centres9)
    reports.append(
        conformance(
            f"PCL fit, default grid ({m} cubes for n = 9)",
            law_default(1.0),
            at(1.0, 0),
            at(2.0, 10**6),
            law_default(2.0),
            reps,
        )
    )
    # two cubes in different noise blocks (cubes 0 and 1024 of 2048; keyed_noise draws per
    # block of 1024): their bits must be independent, not one stream reused
    X2 = np.array([[0.0001], [0.5001], [0.5003]])  # margins −1 (cube 0), −2 (cube 1024)
    y2 = np.array([0, 0, 0])
    far = np.array([0, 1024, 1025])
    centres2 = ((far + 0.5) / 2048)[:, None]

    def make_far(eps: float, seed: int) -> PrivateHistogramClassifier:
        return PrivateHistogramClassifier(eps, cells_per_axis=2048, random_state=seed)

    def law_far(eps: float) -> dict[Any, Any]:
        probs = make_far(eps, 0).release_law(X2, y2)
        return bernoulli_product([probs[int(c)] for c in far])

    at = cell_bits(make_far, X2, y2, centres2)
    reports.append(
        conformance(
            "PCL fit, cubes 0, 1024, 1025 of 2048 (two noise blocks)",
            law_far(1.0),
            at(1.0, 0),
            at(2.0, 10**6),
            law_far(2.0),
            reps,
        )
    )
    return outcome(reports)
