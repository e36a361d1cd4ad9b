"""PCL (seed 000 Alg 2): exact privacy, one fixed function, sklearn conventions."""

from __future__ import annotations

import numpy as np
import pytest

from dpspec.learners import PrivateHistogramClassifier
from dpspec.learners.pcl import cells_per_axis_for, cube_index, cube_keys
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


@pytest.mark.parametrize(("d", "m"), [(1, 7), (2, 32), (5, 4), (3, 2**17), (1, 2**60)])
def test_cube_keys_match_the_definition(d: int, m: int) -> None:
    """The blocked index (float matrix-vector product; int64 Horner past 2^53 cubes) equals
    lead·m^d + Σ_j min(⌊x_j·m⌋, m − 1)·m^{d−1−j} in Python integers, across block boundaries
    (40 000 rows) and at the faces x = 0 and x = 1."""
    rng = np.random.default_rng(d * 1000 + m % 997)
    X = rng.random((40_000, d))
    X[rng.random(X.shape) < 0.01] = 1.0
    X[rng.random(X.shape) < 0.01] = 0.0
    X[:7] = np.nextafter(np.arange(1, 8)[:, None] / 8, 0)  # just below cube boundaries
    lead = rng.random(40_000) < 0.5
    expected = [
        sum(min(int(x * m), m - 1) * m ** (d - 1 - j) for j, x in enumerate(row.tolist()))
        for row in X
    ]
    assert cube_index(X, m).tolist() == expected
    if 2 * m**d < 2**62:
        with_lead = [int(b) * m**d + e for b, e in zip(lead.tolist(), expected, strict=True)]
        assert cube_keys(X, m, lead=lead, name="X").tolist() == with_lead


def test_blockwise_checks_raise_what_the_whole_array_check_raises() -> None:
    """fit checks X block by block: a point outside early and a NaN late is the NaN error
    (as one check of the whole array says); clip=True fits the clipped data's model."""
    rng = np.random.default_rng(3)
    X = rng.random((50_000, 2))
    y = (X[:, 0] > 0.5).astype(int)
    bad = X.copy()
    bad[10, 0], bad[-1, 1] = 1.5, np.nan
    with pytest.raises(ValueError, match="X: contains NaN or infinite values"):
        PrivateHistogramClassifier().fit(bad, y)
    bad[-1, 1] = 0.5
    with pytest.raises(ValueError, match=r"X: points outside \[0, 1\]\^d"):
        PrivateHistogramClassifier().fit(bad, y)
    wide = X * 1.4 - 0.2
    clipped = PrivateHistogramClassifier(random_state=1, clip=True).fit(wide, y)
    plain = PrivateHistogramClassifier(random_state=1).fit(np.clip(wide, 0, 1), y)
    assert np.array_equal(clipped.cell_bits_, plain.cell_bits_)
    assert np.array_equal(clipped.predict(wide), plain.predict(np.clip(wide, 0, 1)))


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
