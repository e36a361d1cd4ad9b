"""PCL2 / PCL2b (seed 000 Alg 4, Alg 5) and their public packings."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from dpspec.learners.packing import (
    CubicLattice,
    greedy_maximal_packing,
    nearest_centre,
    pairwise_distances,
)
from dpspec.learners.pcl import PrivateHistogramClassifier
from dpspec.learners.pcl2 import (
    PrivatePackingClassifier,
    PrivateUnboundedClassifier,
    _cell_release_law,
    hypothesis_bits,
    lattice_cells_per_axis,
    packing_radius,
    release_histogram,
)
from dpspec.proofs.topics.pcl2 import packing as checks_packing

# --- the law of PCL2b's release -----------------------------------------------------------------


def test_pcl2b_release_law_is_a_product() -> None:
    """PCL2b's release_law is the product over the occupied cells of the two histograms'
    cell laws, a distribution; the cells it lists are the ones fit releases; the
    per-cell helper refuses label counts above the count; no module-level law remains
    public (``cell_release_law`` was the old name)."""
    import dpspec.learners.pcl2 as pcl2

    hist = release_histogram(1.0, 0.2)
    X = np.array([[0.5, 0.5]] * 4 + [[1.5, 0.5]] * 2)
    y = np.array([1, 1, 1, 0, 0, 1])
    clf = PrivateUnboundedClassifier(1.0, 0.2, radius=1.0)
    cap = int(hist.threshold) + 3
    law = clf.release_law(X, y, cap)
    assert math.isclose(sum(float(p) for p in law.values()), 1.0, rel_tol=1e-12)
    cell = _cell_release_law(hist, 4, 3, cap)
    c, o = hist.cell_pmf(4, cap), hist.cell_pmf(3, cap)
    assert all(cell[(a, b)] == c[a] * o[b] for a in c for b in o)
    for outcome in law:
        assert all(entry[0] in {(0, 0), (1, 0)} for entry in outcome)
    with pytest.raises(ValueError, match="ones"):
        _cell_release_law(hist, 2, 3, cap)
    with pytest.raises(ValueError, match="idealised"):
        PrivateUnboundedClassifier(idealised=True, radius=1.0).release_law(X, y)
    assert not hasattr(pcl2, "cell_release_law")


def test_packing_classifier_refuses_contradictory_arguments() -> None:
    """Cross-parameter checks the domains cannot make, named: radius only with candidates,
    cells_per_axis only on the lattice, candidates of X's dimension."""
    X = np.random.default_rng(0).random((20, 2))
    y = (X[:, 0] > 0.5).astype(int)
    with pytest.raises(ValueError, match="radius"):
        PrivatePackingClassifier(radius=0.1).fit(X, y)
    with pytest.raises(ValueError, match="cells_per_axis"):
        PrivatePackingClassifier(candidates=X[:5], cells_per_axis=3).fit(X, y)
    with pytest.raises(ValueError, match="candidates"):
        PrivatePackingClassifier(candidates=X[:5, :1]).fit(X, y)


# --- packings -----------------------------------------------------------------------------------


@given(
    d=st.integers(1, 4),
    m=st.integers(1, 6),
    probes=arrays(np.float64, (40, 4), elements=st.floats(0.0, 1.0)),
)
def test_lattice_is_packing_and_cover(d: int, m: int, probes: np.ndarray) -> None:
    lattice = CubicLattice.unit_cube(m, d)
    centres = lattice.centres()
    dist = pairwise_distances(centres, centres)
    np.fill_diagonal(dist, np.inf)
    assert m == 1 or dist.min() >= lattice.spacing * (1 - 1e-12)
    _, to_centre = nearest_centre(probes[:, :d], centres)
    assert to_centre.max() <= lattice.covering_radius * (1 + 1e-12)
    corner = np.zeros((1, d))
    _, deep = nearest_centre(corner, centres)
    assert math.isclose(deep[0], lattice.covering_radius, rel_tol=1e-12)
    assert lattice.is_maximal == (d <= 3) == (deep[0] < lattice.spacing)


@given(arrays(np.float64, (60, 3), elements=st.floats(-1e3, 1e3)))
def test_lattice_voronoi_cells_are_cubes(X: np.ndarray) -> None:
    """The nearest lattice point is the own cube's centre, for the unit cube and for ℝ^d."""
    unit = CubicLattice.unit_cube(4, 3)
    inside = (X - X.min()) / max(float(np.ptp(X)), 1.0)
    idx, _ = nearest_centre(inside, unit.centres())
    own = unit.cell_index(inside)
    # on a shared face both cubes are nearest: equal distances, so compare distances
    d_own = np.linalg.norm(inside - unit.centres()[own], axis=1)
    d_near = np.linalg.norm(inside - unit.centres()[idx], axis=1)
    assert np.allclose(d_own, d_near, rtol=0, atol=1e-12)
    free = CubicLattice(0.7, 3)
    coords = free.cell_coords(X)
    for off in np.indices((3, 3, 3)).reshape(3, -1).T - 1:
        other = np.linalg.norm(X - free.centres_of(coords + off), axis=1)
        assert np.all(np.linalg.norm(X - free.centres_of(coords), axis=1) <= other + 1e-9)


@given(
    cand=arrays(
        np.float64, st.tuples(st.integers(1, 120), st.integers(1, 3)), elements=st.floats(-5, 5)
    ),
    r=st.floats(0.05, 3.0),
    metric=st.sampled_from(["euclidean", "chebyshev", "cityblock"]),
    chunk=st.integers(1, 50),
)
def test_greedy_packing_is_maximal(cand: np.ndarray, r: float, metric: str, chunk: int) -> None:
    centres = greedy_maximal_packing(cand, r, metric, chunk_size=chunk)
    packing, maximal = checks_packing.packing_violations(cand, centres, r, metric)
    assert packing and maximal
    assert np.array_equal(centres, greedy_maximal_packing(cand, r, metric))
    # greedy order: the first candidate is always a centre, kept centres are candidates
    assert np.array_equal(centres[0], cand[0])
    assert all(np.any(np.all(cand == c, axis=1)) for c in centres)


def test_nearest_centre_blocks_and_ties() -> None:
    rng = np.random.default_rng(5)
    X, C = rng.random((333, 2)), rng.random((57, 2))
    full = nearest_centre(X, C)
    for budget in (1, 7, 56, 57, 1000):
        idx, dist = nearest_centre(X, C, max_entries=budget)
        assert np.array_equal(idx, full[0]) and np.array_equal(dist, full[1])
    ties = nearest_centre(np.array([[0.5]]), np.array([[0.0], [1.0], [0.0]]))
    assert ties[0].tolist() == [0]  # equidistant: the lowest index
    with pytest.raises(ValueError, match="metric"):
        nearest_centre(X, C, metric="no-such-metric")
    with pytest.raises(ValueError, match="metric"):
        nearest_centre(X, C, metric=lambda a, b: np.zeros((1, 1)))


def test_lemma_a8_last_line_counterexample() -> None:
    """Maximal ½-packing of [0,1]² (the lattice): one cell holds points √2·0.49 > ½ apart, so
    'ρ(a, b) ≤ r' (L476) is false; diam ≤ 2r (L462) holds."""
    lattice = CubicLattice.unit_cube(2, 2)
    assert lattice.is_maximal and lattice.covering_radius < lattice.spacing
    pts = np.array([[0.0, 0.0], [0.49, 0.49]])
    assert nearest_centre(pts, lattice.centres())[0].tolist() == [0, 0]
    assert float(np.linalg.norm(pts[0] - pts[1])) > lattice.spacing
    assert lattice.cell_diameter <= 2 * lattice.spacing


def test_radius_and_grid() -> None:
    assert packing_radius(10**4, 1) == pytest.approx(0.1)
    assert packing_radius(10**8, 2) == pytest.approx(0.1)
    assert lattice_cells_per_axis(10**8, 2) == 10
    assert lattice_cells_per_axis(10**6, 2) == 6
    assert lattice_cells_per_axis(1, 3) == 1


# --- the learners -------------------------------------------------------------------------------


def _problem(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Disc of radius 0.3 in [0,1]², 5% label noise (Bayes accuracy 0.95)."""
    X = rng.random((n, 2))
    y = (np.linalg.norm(X - 0.5, axis=1) < 0.3).astype(np.int64)
    return X, np.where(rng.random(n) < 0.05, 1 - y, y)


def test_both_learners_beat_080_at_1e5() -> None:
    rng = np.random.default_rng(2024)
    X, y = _problem(10**5, rng)
    Xt, yt = _problem(10**5, rng)
    grid = np.stack(np.meshgrid(*[np.linspace(0, 1, 41)] * 2, indexing="ij"), -1).reshape(-1, 2)
    models = [
        PrivatePackingClassifier(1.0, random_state=0),
        PrivatePackingClassifier(1.0, candidates=grid, random_state=0),
        PrivateUnboundedClassifier(1.0, 1e-6, random_state=0),
    ]
    for clf in models:
        assert clf.fit(X, y).score(Xt, yt) > 0.8, clf


def test_predictions_are_one_function() -> None:
    rng = np.random.default_rng(11)
    X, y = _problem(400, rng)
    Xt = rng.normal(0.5, 1.0, size=(3000, 2))
    grid = np.stack(np.meshgrid(*[np.linspace(0, 1, 30)] * 2, indexing="ij"), -1).reshape(-1, 2)
    packed = PrivatePackingClassifier(1.0, candidates=grid, radius=0.03, random_state=5).fit(X, y)
    unbounded = PrivateUnboundedClassifier(1.0, 0.01, radius=0.2, random_state=5).fit(X, y)
    for clf in (packed, unbounded):
        first = clf.predict(Xt)
        assert np.array_equal(first, clf.predict(Xt))
        assert np.array_equal(first[::-1], clf.predict(Xt[::-1]))
    other = PrivatePackingClassifier(1.0, candidates=grid, radius=0.03, random_state=6).fit(X, y)
    assert not np.array_equal(packed.predict(Xt), other.predict(Xt))  # the noise is keyed
    assert packed.histogram_.cells_.size <= 400 < packed.n_cells_ == 900


def test_lattice_mode_is_pcl_with_4d() -> None:
    """PCL2 on the unit cube = PCL on the m = ⌈n^{1/(4d)}⌉ grid, noise and all."""
    rng = np.random.default_rng(3)
    X, y = _problem(5000, rng)
    pcl2 = PrivatePackingClassifier(1.0, random_state=9).fit(X, y)
    assert pcl2.lattice_ is not None and pcl2.lattice_.cells_per_axis == 3
    pcl = PrivateHistogramClassifier(1.0, cells_per_axis=3, random_state=9).fit(X, y)
    Xt = rng.random((2000, 2))
    assert np.array_equal(pcl2.predict(Xt), pcl.predict(Xt))
    assert np.array_equal(pcl2.cell_of(Xt), pcl2.lattice_.cell_index(Xt))


def test_packing_mode_cells_and_law() -> None:
    cand = np.array([[0.0], [0.5], [1.0], [0.55]])
    clf = PrivatePackingClassifier(1.0, candidates=cand, radius=0.3, random_state=1)
    X = np.array([[0.1], [0.45], [0.9], [2.0]])  # any point of the space; no [0,1] domain
    clf.fit(X, [1, 0, 1, 1])
    assert clf.centres_ is not None and clf.centres_.ravel().tolist() == [0.0, 0.5, 1.0]
    assert clf.cell_of(X).tolist() == [0, 1, 2, 2]
    probs = clf.release_law(X, [1, 0, 1, 1])
    law = clf.histogram_.noise_law_
    assert law is not None
    assert probs == [law.sf(1 - m) for m in (1, -1, 2)]
    assert np.array_equal(clf.decision_cells(clf.centres_), clf.histogram_.cell_bits_)


def test_pcl2b_unreleased_cells_predict_zero() -> None:
    X = np.array([[0.5, 0.5]] * 40 + [[7.5, -3.2]] * 2)
    y = np.array([1] * 35 + [0] * 5 + [1, 1])
    clf = PrivateUnboundedClassifier(1.0, 1e-6, radius=1.0, random_state=0).fit(X, y)
    assert clf.cells_.tolist() == [[0, 0]]  # the 2-point cell is far below the threshold
    assert clf.predict(np.array([[0.1, 0.9], [7.5, -3.2], [1e300, -1e300]])).tolist() == [1, 0, 0]
    assert hypothesis_bits([0.0, 30.0, 30.0], [5.0, 16.0, 15.0]).tolist() == [False, True, False]
    assert clf.privacy_.delta == 2e-6 and clf.privacy_.epsilon == pytest.approx(2.0)
    assert clf.privacy_.ratio == pytest.approx(math.exp(2.0))


def test_random_state_determinism() -> None:
    rng = np.random.default_rng(8)
    X, y = _problem(3000, rng)
    Xt = rng.random((2000, 2))
    for make in (
        lambda s: PrivatePackingClassifier(0.5, cells_per_axis=20, random_state=s),
        lambda s: PrivateUnboundedClassifier(0.5, 1e-3, radius=0.1, random_state=s),
    ):
        a, b = make(4).fit(X, y), make(4).fit(X, y)
        assert np.array_equal(a.predict(Xt), b.predict(Xt))
        g1, g2 = np.random.default_rng(1), np.random.default_rng(1)
        assert np.array_equal(make(g1).fit(X, y).predict(Xt), make(g2).fit(X, y).predict(Xt))


def test_get_and_set_params() -> None:
    clf = PrivateUnboundedClassifier(0.5, 1e-4, random_state=3)
    params = clf.get_params()
    assert params == {
        "epsilon": 0.5,
        "delta": 1e-4,
        "idealised": False,
        "radius": None,
        "random_state": 3,
    }
    assert PrivateUnboundedClassifier(**params).get_params() == params
    clf.set_params(delta=1e-5, radius=0.5)
    assert clf.get_params()["delta"] == 1e-5 and clf.radius == 0.5
    packed = PrivatePackingClassifier(candidates=None, cells_per_axis=4)
    assert set(packed.get_params()) == {
        "epsilon",
        "idealised",
        "candidates",
        "metric",
        "radius",
        "cells_per_axis",
        "random_state",
        "clip",
    }
    with pytest.raises(ValueError, match="bogus"):
        packed.set_params(bogus=1)


_X = np.random.default_rng(0).random((50, 2))
_Y = (_X[:, 0] > 0.5).astype(int)


def test_bad_packing_arguments() -> None:
    """What the domains cannot refuse alone: a unit-cube lattice whose spacing is not 1/m,
    points outside its cube, listing the centres of the infinite lattice, predict before fit,
    a query of another dimension."""
    with pytest.raises(ValueError, match="spacing"):
        CubicLattice(0.3, 2, cells_per_axis=3)
    with pytest.raises(ValueError, match="X: points outside"):
        CubicLattice.unit_cube(3, 2).cell_coords(_X + 1)
    with pytest.raises(ValueError, match="cells_per_axis"):
        CubicLattice(0.5, 2).centres()
    with pytest.raises(ValueError, match="self"):
        PrivateUnboundedClassifier().predict(_X)
    with pytest.raises(ValueError, match="self"):
        PrivatePackingClassifier().predict(_X)
    with pytest.raises(ValueError, match="X: X has 1 features, but PrivateUnboundedClassifier"):
        PrivateUnboundedClassifier(radius=0.5).fit(_X, _Y).predict(_X[:, :1])
