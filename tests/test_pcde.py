"""PCDE (seed 000 Alg 3): exact privacy, a true density, consistency trend, sklearn conventions."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import integrate, stats

from dpspec.densities import DENSITIES, ProductDensity, SymmetricMarginal
from dpspec.learners.pcde import (
    PrivateHistogramDensity,
    _cube_ids,
    _match_rows,
    _occupied_cubes,
    _row_keys,
    side_for,
)
from dpspec.proofs.topics.pcde import consistency
from dpspec.proofs.topics.pcde.idealised import (
    CellLaw,
    cell_hockey_stick,
    pair_hockey_stick,
    verify_idealised_histogram,
)

RNG_SEED = 77


def _normal_fit(n: int, d: int, seed: int = 0) -> PrivateHistogramDensity:
    rng = np.random.default_rng(seed)
    return PrivateHistogramDensity(1.0, 1e-6, random_state=seed).fit(rng.standard_normal((n, d)))


def test_release_law_is_a_distribution() -> None:
    est = PrivateHistogramDensity(1.0, 0.1, side=1.0)
    law = est.release_law(np.array([[0.5], [0.5], [1.5], [-3.2]] + [[2.5]] * 9))
    assert math.isclose(sum(law.values()), 1.0, rel_tol=1e-12)
    assert all(p >= 0 for p in law.values())
    with pytest.raises(ValueError, match="idealised"):
        PrivateHistogramDensity(idealised=True, side=1.0).release_law(np.array([[0.5]]))


def test_pdf_integrates_to_one() -> None:
    est = _normal_fit(50_000, 1)
    assert abs(est.total_mass() - 1.0) < 1e-12
    lo = float(est.released_cells_.min()) * est.side_ - 1
    hi = float(est.released_cells_.max() + 1) * est.side_ + 1
    breaks = np.unique(est.released_cells_[:, 0]) * est.side_
    grid = np.union1d(np.concatenate([breaks, breaks + est.side_]), [lo, hi])
    pieces = [
        integrate.quad(lambda x: float(est.pdf(np.array([[x]]))[0]), a, b)[0]
        for a, b in itertools.pairwise(grid)
    ]
    assert math.isclose(math.fsum(pieces), 1.0, rel_tol=1e-9)
    assert np.all(est.pdf(np.linspace(-50, 50, 10_001)[:, None]) >= 0)
    two = _normal_fit(100_000, 2, seed=1)
    assert abs(two.total_mass() - 1.0) < 1e-12
    assert (
        abs(float(np.sum(two.pdf((two.released_cells_ + 0.5) * two.side_))) * two.side_**2 - 1)
        < 1e-9
    )


def test_sample_lands_in_released_cubes() -> None:
    est = _normal_fit(100_000, 2, seed=3)
    draws = est.sample_points(50_000, np.random.default_rng(RNG_SEED))
    assert draws.shape == (50_000, 2)
    assert np.all(_match_rows(est.released_cells_, _cube_ids(draws, est.side_)) >= 0)
    assert np.all(est.pdf(draws) > 0)


def test_l1_closed_form_matches_quadrature() -> None:
    est = _normal_fit(20_000, 1, seed=4)
    closed = consistency.l1_to_standard_normal(est)
    breaks = np.unique(np.concatenate([est.released_cells_[:, 0], est.released_cells_[:, 0] + 1]))
    edges = np.concatenate([[-12.0], breaks * est.side_, [12.0]])
    total = 0.0
    for a, b in itertools.pairwise(edges):
        h = float(est.pdf(np.array([[(a + b) / 2]]))[0])
        total += integrate.quad(lambda x, h=h: abs(stats.norm.pdf(x) - h), a, b)[0]
    assert math.isclose(closed, total, abs_tol=1e-8)


def test_consistency_trend_small() -> None:
    def pcde(X: np.ndarray, k: int) -> PrivateHistogramDensity:
        return PrivateHistogramDensity(1.0, 1e-6, random_state=k).fit(X)

    l1, pvals = consistency.l1_trend(pcde, (10**4, 10**5, 10**6), 4, RNG_SEED, alpha=1e-3)
    means = [float(np.mean(v)) for v in l1]
    assert means[0] > means[1] > means[2] and means[2] < 0.15
    assert all(p < 1e-3 for p in pvals)


def test_bad_input_names_the_parameter() -> None:
    """What the body refuses beyond the declared domains (those are swept by the contract):
    1-D X, coordinates too large for the cubes, predict before fit, a query of another
    dimension, the law of more outcomes than the limit."""
    X = np.random.default_rng(0).standard_normal((100, 2))
    with pytest.raises(ValueError, match="X"):
        PrivateHistogramDensity().fit(X[:, 0])
    with pytest.raises(ValueError, match="X"):
        PrivateHistogramDensity().fit(np.array([[1e300, 0.0]] * 5))
    with pytest.raises(ValueError, match="not fitted"):
        PrivateHistogramDensity().pdf(X)
    est = _normal_fit(100_000, 2)
    with pytest.raises(ValueError, match="X: X has 1 features, but PrivateHistogramDensity"):
        est.pdf(X[:, :1])
    with pytest.raises(TypeError, match="rng"):
        est.sample_points(5, "0")
    with pytest.raises(ValueError, match="size"):
        est.sample_points(0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="outcomes"):
        PrivateHistogramDensity(1.0, 0.1, side=0.01).release_law(X)


def test_empty_release_is_an_error() -> None:
    X = np.random.default_rng(0).standard_normal((50, 1))
    with pytest.raises(ValueError, match=r"no cube was released.*epsilon=1.0, delta=1e-06"):
        PrivateHistogramDensity(1.0, 1e-6, random_state=0).fit(X)


def test_params_round_trip_and_determinism() -> None:
    est = PrivateHistogramDensity(0.5, 1e-7, idealised=True, side=0.25, random_state=9)
    params = est.get_params()
    assert params == {
        "epsilon": 0.5,
        "delta": 1e-7,
        "idealised": True,
        "side": 0.25,
        "random_state": 9,
    }
    X = np.random.default_rng(1).standard_normal((20_000, 1))
    a = est.fit(X)
    b = PrivateHistogramDensity(**params).fit(X)
    assert np.array_equal(a.released_counts_, b.released_counts_)
    assert np.array_equal(a.released_cells_, b.released_cells_)
    assert a.privacy_.exact_sampler is False  # the paper's continuous noise is idealised
    est.set_params(epsilon=2.0, idealised=False)
    assert est.get_params()["epsilon"] == 2.0
    assert est.fit(X).privacy_.exact_sampler is True
    with pytest.raises(ValueError, match="bogus"):
        est.set_params(bogus=1)
    assert "PrivateHistogramDensity(epsilon=2.0" in repr(est)
    other = PrivateHistogramDensity(0.5, 1e-7, idealised=True, side=0.25, random_state=10)
    assert not np.array_equal(other.fit(X).released_counts_, a.released_counts_)


def test_row_keys_fallback_agrees() -> None:
    rng = np.random.default_rng(5)
    rows = rng.integers(-(2**40), 2**40, size=(500, 3)).astype(np.int64)
    rows[250:] = rows[:250]
    keys = _row_keys(rows)
    assert np.array_equal(keys[:250], keys[250:])
    assert np.unique(keys).size == np.unique(rows, axis=0).shape[0]
    _, counts = _occupied_cubes(rows)
    assert counts.sum() == 500 and np.all(counts == 2)


def test_grid() -> None:
    assert math.isclose(side_for(10**6, 2), 10**-1.5)
    assert _cube_ids(np.array([[-1e-9, 0.35]]), 0.1).tolist() == [[-1, 3]]


def test_heavy_tailed_densities() -> None:
    """The Student-t marginal is the t law (pdf integrates to 1, CDF is scipy's), its level
    sets are exact, an empty histogram is at L1 distance exactly 1, bad input is named."""
    t2 = DENSITIES["student-t"].marginal
    assert math.isclose(
        integrate.quad(lambda x: float(t2.pdf(np.array(x))), -np.inf, np.inf)[0], 1.0, abs_tol=1e-9
    )
    xs = np.linspace(-5, 5, 11)
    np.testing.assert_allclose(t2.pdf(xs), stats.t.pdf(xs, 2.0), rtol=1e-12)
    np.testing.assert_allclose(t2.cdf(xs), stats.t.cdf(xs, 2.0), rtol=1e-12)
    levels = np.array([0.01, 0.1, 0.3])
    np.testing.assert_allclose(t2.pdf(t2.level_radius(levels)), levels, rtol=1e-12)
    for density in DENSITIES.values():
        empty = np.zeros((0, density.d), dtype=np.int64)
        assert density.l1_to_histogram(empty, 0.5, np.zeros(0)) == (1.0, 0.0)
    with pytest.raises(ValueError, match="d"):
        ProductDensity(SymmetricMarginal(), 3)
    with pytest.raises(ValueError, match="df"):
        SymmetricMarginal("student-t", 0.0)
    with pytest.raises(ValueError, match="name"):
        SymmetricMarginal("laplace")
    with pytest.raises(ValueError, match="values"):
        DENSITIES["cauchy"].l1_to_histogram(np.zeros((1, 1), np.int64), 1.0, np.array([-1.0]))


def test_idealised_hockey_stick_matches_quadrature() -> None:
    """The closed forms of proofs/topics/pcde/idealised.py against brute-force quadrature of (p −
    γq)_+ over the mixed (atom + density) laws, one and two cells, both directions."""
    s, tau = 2.0, 5.3
    for c, cp in [(3, 4), (4, 3), (1, 0), (0, 1), (7, 6), (6, 7), (5, 5)]:
        for gamma in (0.3, 1.0, math.e, 7.0):
            p, q = CellLaw(c, s, tau), CellLaw(cp, s, tau)
            brute = (
                max(p.atom() - gamma * q.atom(), 0.0)
                + integrate.quad(
                    lambda v, p=p, q=q, g=gamma: max(p.density(v) - g * q.density(v), 0.0),
                    tau,
                    200,
                    limit=500,
                    points=[c, cp],
                    epsabs=1e-14,
                )[0]
            )
            assert math.isclose(cell_hockey_stick(gamma, p, q), brute, abs_tol=1e-10)
    g = math.e
    for a, b in [(1, 0), (6, 5), (8, 0)]:
        here = (CellLaw(a, s, tau), CellLaw(b, s, tau))
        moved = (CellLaw(a - 1, s, tau), CellLaw(b + 1, s, tau))
        for (pa, pb), (qa, qb) in ((here, moved), (moved, here)):

            def mixed(x: float, y: float, pa=pa, pb=pb, qa=qa, qb=qb) -> float:
                return max(pa.density(x) * pb.density(y) - g * qa.density(x) * qb.density(y), 0)

            brute = max(pa.atom() * pb.atom() - g * qa.atom() * qb.atom(), 0.0)
            for pp, qq, pw, qw in ((pb, qb, pa.atom(), qa.atom()), (pa, qa, pb.atom(), qb.atom())):
                brute += integrate.quad(
                    lambda v, pp=pp, qq=qq, pw=pw, qw=qw: max(
                        pw * pp.density(v) - g * qw * qq.density(v), 0.0
                    ),
                    tau,
                    100,
                    limit=500,
                    epsabs=1e-14,
                )[0]
            brute += integrate.dblquad(lambda y, x: mixed(x, y), tau, 60, tau, 60, epsabs=1e-12)[0]
            assert math.isclose(pair_hockey_stick(g, pa, pb, qa, qb), brute, abs_tol=1e-9)
    with pytest.raises(ValueError, match="histogram"):
        verify_idealised_histogram(PrivateHistogramDensity(1.0, 0.1).make_histogram())


def test_sample_points_replaces_sklearn_style_sample() -> None:
    """The fitted density draws with ``sample_points(size, rng)`` (the contract keeps
    ``sample(data, size, rng)`` for mechanisms); 0.2's ``sample(n_samples, random_state)``
    forwards to it with a DeprecationWarning; the draw is reproducible from the rng."""
    est = _normal_fit(20_000, 1)
    with pytest.warns(DeprecationWarning, match="sample_points"):
        old = est.sample(10, 4)
    assert np.array_equal(old, est.sample_points(10, np.random.default_rng(4)))
    a = est.sample_points(10, np.random.default_rng(4))
    b = est.sample_points(10, np.random.default_rng(4))
    assert np.array_equal(a, b) and a.shape == (10, 1)
