"""Checks for the private learners of seed 000 (PCL, …), run by ``dpspec verify``."""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import stats

from dpspec.learners.pcl import PrivateHistogramClassifier
from dpspec.proofs.registry import CheckOutcome, VerifyConfig
from dpspec.proofs.stats import ALPHA
from dpspec.proofs.verifiers import verify_pcl
from dpspec.spec.neighbours import Relation

SEED = 3000


def pcl_exact_privacy(config: VerifyConfig) -> CheckOutcome:
    """Thm 3.1 exactly on small grids (d=1: 3 cubes, d=2: 4 cubes), both noise paths, with a
    control claiming 0.9ε that must be caught; add/remove on a fixed grid gives e^{ε/2}."""
    size = 5 if config.thorough else 4
    reports = [
        verify_pcl(1, 3, size + 1, 1.0),
        verify_pcl(2, 2, size, 1.0),
        verify_pcl(1, 3, size, 0.5, noise="laplace"),
        verify_pcl(1, 3, size, 1.0, relation=Relation.ADD_REMOVE, claimed_epsilon=0.5),
    ]
    control = verify_pcl(1, 3, size, 1.0, claimed_epsilon=0.9)
    ok = all(r.holds for r in reports) and not control.holds
    return CheckOutcome(
        ok,
        "; ".join(r.summary() for r in reports) + f"; control: {control.summary()}",
        {"pairs": sum(r.pairs for r in reports), "control_caught": not control.holds},
    )


def _checkerboard(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    X = rng.random((n, 2))
    black = (np.floor(X[:, 0] * 4) + np.floor(X[:, 1] * 4)) % 2 == 0
    y = np.where(rng.random(n) < 0.9, black, ~black).astype(np.int64)
    return X, y


def pcl_fixed_function(config: VerifyConfig) -> CheckOutcome:
    """The hypothesis is one function: repeated and split predictions agree; empty cubes carry
    noise (their 1-rate matches P(Z ≥ 1), binomial test at α = 1e-6, and a noiseless rule would
    fail it); memory holds only non-empty cubes."""
    rng = np.random.default_rng(SEED)
    X, y = _checkerboard(2000, rng)
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


def estimator_protocol(config: VerifyConfig) -> CheckOutcome:
    """get_params/set_params round-trip, clone-by-params gives the same model, fit returns
    self, bad input is rejected with named ValueErrors (sklearn's check_estimator is run by
    the test suite when scikit-learn is installed)."""
    rng = np.random.default_rng(SEED + 2)
    X, y = _checkerboard(500, rng)
    clf = PrivateHistogramClassifier(0.5, random_state=3)
    params = clf.get_params()
    clone = PrivateHistogramClassifier(**params)
    same = np.array_equal(clf.fit(X, y).predict(X), clone.fit(X, y).predict(X))
    clf.set_params(epsilon=2.0)
    set_ok = clf.get_params()["epsilon"] == 2.0
    problems = []
    cases: list[tuple[dict[str, Any], np.ndarray, np.ndarray, str]] = [
        ({}, X + 1.0, y, "X"),
        ({}, X, y[:-1], "y"),
        ({"epsilon": -1.0}, X, y, "epsilon"),
        ({"noise": "gaussian"}, X, y, "noise"),
        ({"random_state": "seed"}, X, y, "random_state"),
        ({}, X, np.arange(500) % 3, "y"),
    ]
    for kwargs, bad_X, bad_y, name in cases:
        try:
            PrivateHistogramClassifier(**kwargs).fit(bad_X, bad_y)
            problems.append(f"{name}: accepted")
        except ValueError as exc:
            if name not in str(exc):
                problems.append(f"{name}: {exc}")
    try:
        PrivateHistogramClassifier().predict(X)
        problems.append("predict before fit accepted")
    except ValueError:
        pass
    ok = bool(same and set_ok and not problems)
    return CheckOutcome(ok, f"clone agrees: {same}; set_params: {set_ok}; problems: {problems}")
