"""PCL (seed 000 Alg 2): one fixed function, the grid, the cube index, the contract's
regressions. The privacy, conformance and cube-rule checks are registered
obligations (``pcl.*``), run by ``tests/test_verifiers.py``."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import dpspec
import dpspec.learners
from dpspec.learners import PrivateHistogramClassifier
from dpspec.learners.pcl import _cube_keys, _exact_noise, cells_per_axis_for, cube_index
from dpspec.proofs.engine.registry import obligations
from dpspec.proofs.engine.sweep import least_cpu_seconds


def test_noise_law_is_cached_per_epsilon() -> None:
    """ε is rounded to a rational once per value: every fit at that ε (and its release_law)
    shares one noise law, the same object; a Fraction ε gives the law of the float it
    denotes (the output is the same bit for bit as before the cache)."""
    X = np.random.default_rng(0).random((30, 1))
    y = (X[:, 0] > 0.5).astype(int)
    a = PrivateHistogramClassifier(0.7, random_state=0).fit(X, y)
    b = PrivateHistogramClassifier(0.7, random_state=1).fit(X, y)
    assert a.noise_law_ is b.noise_law_ is _exact_noise(0.7)[0]
    c = PrivateHistogramClassifier(Fraction(7, 10), random_state=0).fit(X, y)
    assert c.noise_law_ is a.noise_law_ and np.array_equal(c.cell_bits_, a.cell_bits_)


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
        assert _cube_keys(X, m, lead=lead, name="X").tolist() == with_lead


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


# --- regressions found in review ------------------------------------------------------------------


@pytest.mark.parametrize("value", ["no", "False", 0, 1, None])
def test_idealised_is_a_real_bool(value: object) -> None:
    """``idealised='no'`` is truthy: it must be refused naming idealised, never used as True."""
    X = np.random.default_rng(1).random((20, 1))
    y = (X[:, 0] > 0.5).astype(int)
    for learner in (
        dpspec.learners.PrivateHistogramClassifier(idealised=value),  # type: ignore[arg-type]
        dpspec.learners.PrivatePackingClassifier(idealised=value),  # type: ignore[arg-type]
        dpspec.learners.PrivateUnboundedClassifier(idealised=value),  # type: ignore[arg-type]
    ):
        with pytest.raises(TypeError, match="idealised"):
            learner.fit(X, y)
    with pytest.raises(TypeError, match="idealised"):
        dpspec.learners.PrivateHistogramDensity(idealised=value).fit(X)  # type: ignore[arg-type]


def test_requests_beyond_the_limits_are_refused_before_work() -> None:
    """A request that cannot finish is refused at once, naming the parameter and the limit."""
    X = np.random.default_rng(2).random((50, 2))
    y = (X[:, 0] > 0.5).astype(int)
    clf = PrivateHistogramClassifier(cells_per_axis=300)

    def refusals() -> None:
        with pytest.raises(ValueError, match="cells_per_axis: the law of 300\\^2 cubes"):
            clf.release_law(X, y)
        with pytest.raises(ValueError, match="repetitions"):
            clf.repeated_predictions(X, y, X, 2**27, np.random.default_rng(0))
        with pytest.raises(ValueError, match="candidates"):
            dpspec.learners.greedy_maximal_packing(np.zeros((2**19, 1)), 0.5)
        with pytest.raises(ValueError, match="X"):
            dpspec.learners.nearest_centre(np.zeros((2**19, 1)), np.zeros((2**18, 1)))

    assert least_cpu_seconds(refusals, 0.5) < 0.5


def test_histogram_rule_is_a_root_export() -> None:
    """Every learner of the family is exported from dpspec (the non-private baseline too)."""
    for name in dpspec.learners.__all__:
        obj = getattr(dpspec.learners, name)
        concrete = isinstance(obj, type) and not getattr(obj, "__abstractmethods__", None)
        if concrete and hasattr(obj, "fit") and name != "EstimatorProtocol":
            assert name in dpspec.__all__, name


def test_ids_cited_in_the_learners_resolve() -> None:
    """Every backticked obligation id in the docstrings of ``dpspec.learners`` names a
    registered obligation (``learner-audit.conformance`` was dangling)."""
    ids = {ob.id for ob in obligations()}
    folder = Path(dpspec.learners.__file__).parent
    pattern = re.compile(r"``([a-z][a-z0-9-]*\.[a-z0-9.-]+)``")
    cited = {m for f in folder.glob("*.py") for m in pattern.findall(f.read_text("utf-8"))}
    subjects = {ob.id.split(".")[0] for ob in obligations()}
    cited = {c for c in cited if c.split(".")[0] in subjects}
    assert cited and cited <= ids, cited - ids
