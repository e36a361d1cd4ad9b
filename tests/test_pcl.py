"""PCL (seed 000 Alg 2): exact privacy, one fixed function, sklearn conventions."""

from __future__ import annotations

import numpy as np
import pytest

from dpspec.learners import PrivateHistogramClassifier
from dpspec.learners.pcl import cells_per_axis_for, cube_index
from dpspec.proofs.topics.pcl.checks import verify_pcl
from dpspec.spec.neighbours import Relation


def test_exact_privacy_is_tight() -> None:
    """Worst ratio equals e^ε (substitution) and e^{ε/2} (add/remove on a fixed grid)."""
    sub = verify_pcl(1, 3, 4, 1.0)
    assert sub.holds and abs(float(sub.worst_ratio) - np.e) < 1e-9
    rem = verify_pcl(1, 3, 4, 1.0, relation=Relation.ADD_REMOVE, claimed_epsilon=0.5)
    assert rem.holds and abs(float(rem.worst_ratio) - np.exp(0.5)) < 1e-9
    assert not verify_pcl(1, 3, 3, 1.0, claimed_epsilon=0.95).holds


def test_predictions_are_one_function() -> None:
    rng = np.random.default_rng(11)
    X = rng.random((300, 2))
    y = (X[:, 0] > 0.5).astype(int)
    clf = PrivateHistogramClassifier(1.0, cells_per_axis=50, random_state=5).fit(X, y)
    Xt = rng.random((5000, 2))
    first = clf.predict(Xt)
    assert np.array_equal(first, clf.predict(Xt))
    assert np.array_equal(first[::-1], clf.predict(Xt[::-1]))
    other = PrivateHistogramClassifier(1.0, cells_per_axis=50, random_state=6).fit(X, y)
    assert not np.array_equal(first, other.predict(Xt))  # the noise really depends on the key
    assert clf.cells_.size <= 300


def test_grid_and_cube_index() -> None:
    assert cells_per_axis_for(10**6, 2) == 32
    assert cells_per_axis_for(16, 1) == 4
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.5, 0.25]])
    assert cube_index(X, 4).tolist() == [0, 15, 2 * 4 + 1]


def test_rejects_points_outside_unit_cube() -> None:
    with pytest.raises(ValueError, match=r"X: points outside \[0, 1\]\^d"):
        PrivateHistogramClassifier().fit(np.array([[0.5], [1.5]]), [0, 1])


def test_labels_are_mapped_back() -> None:
    rng = np.random.default_rng(2)
    X = rng.random((400, 1))
    y = np.where(X[:, 0] > 0.5, "spam", "ham")
    clf = PrivateHistogramClassifier(5.0, random_state=0).fit(X, y)
    assert set(clf.predict(X)) <= {"spam", "ham"}
    assert clf.score(X, y) > 0.8
