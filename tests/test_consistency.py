"""Distributions with exact areas, the plug-in bound, the trend predicate, the CLI."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from dpspec.cli import main
from dpspec.consistency import (
    Checkerboard,
    Circle,
    GaussianMixture,
    Threshold1D,
    _disk_rectangle_area,
    _interval_overlaps,
)
from dpspec.proofs.engine.sweep import least_cpu_seconds
from dpspec.spec.consistency import (
    consistency_trend,
    jonckheere_decreasing,
    jonckheere_null_counts,
    plugin_bound_holds,
    q_binomial,
    welch_greater_pvalue,
)


def test_disk_area_identities() -> None:
    r = 0.3
    assert math.isclose(float(_disk_rectangle_area(-1.0, 1.0, -1.0, 1.0, r)), math.pi * r * r)
    # a quarter disk
    assert math.isclose(float(_disk_rectangle_area(0.0, 1.0, 0.0, 1.0, r)), math.pi * r * r / 4)
    # half disk cut at y = 0 and a thin strip through the middle (closed form: 2∫√(r²−u²))
    assert math.isclose(float(_disk_rectangle_area(-1.0, 1.0, -1.0, 0.0, r)), math.pi * r * r / 2)
    strip = float(_disk_rectangle_area(-0.1, 0.1, -1.0, 1.0, r))
    expect = 2 * (0.1 * math.sqrt(r * r - 0.01) + r * r * math.asin(0.1 / r))
    assert math.isclose(strip, expect, rel_tol=1e-12)
    c = Circle(0.25, (0.4, 0.6), 0.1)
    for m in (1, 2, 7, 40):
        assert math.isclose(float(c.region_area(m).sum()), c.disk_area(), rel_tol=1e-12)


def test_checkerboard_and_threshold_grids() -> None:
    cb = Checkerboard(4, 0.1)
    assert cb.excess_risk(cb.bayes_labels(8)) == pytest.approx(0.0, abs=1e-15)
    assert cb.excess_risk(1 - cb.bayes_labels(4)) == pytest.approx(0.8)
    assert float(cb.region_area(3).sum()) == pytest.approx(0.5)
    th = Threshold1D(0.37, 0.2)
    assert th.region_area(4).tolist() == pytest.approx([0.0, 0.13, 0.25, 0.25])
    assert _interval_overlaps(np.array([0.0, 0.5, 1.0]), np.array([0.0, 1.0])).tolist() == [
        [0.5],
        [0.5],
    ]


def test_sample_matches_eta() -> None:
    rng = np.random.default_rng(3)
    c = Circle()
    X, y = c.draw(200_000, rng)
    eta = c.eta(X)
    # E[y − η(X)] = 0; z-test at α = 1e-6 (|z| < 4.9)
    z = (y - eta).mean() / math.sqrt(eta.var() / y.size + 0.09 / y.size)
    assert abs(z) < 4.9


def test_plugin_bound() -> None:
    """Thm 2.7 holds for plug-in rules; the flipped rule (not plug-in) can violate it."""
    rng = np.random.default_rng(4)
    cb = Checkerboard(4, 0.1)
    violated = False
    for m in (1, 3, 4, 8):
        for _ in range(20):
            eta_hat = rng.random((m, m))
            gap = cb.mean_abs_eta_gap(eta_hat)
            plug = (eta_hat > 0.5).astype(int)
            assert plugin_bound_holds(cb.grid_classifier_error(plug), 0.1, gap, 1e-12)
            violated |= not plugin_bound_holds(cb.grid_classifier_error(1 - plug), 0.1, gap)
    assert violated
    # tight case: η̂ = η exactly gives gap 0 and the Bayes grid rule error L*
    assert cb.mean_abs_eta_gap(cb.bayes_labels(4) * 0.8 + 0.1) == pytest.approx(0.0, abs=1e-15)


def test_trend_predicate() -> None:
    falling = [[0.3, 0.31, 0.29], [0.1, 0.12, 0.11], [0.02, 0.03, 0.025]]
    res = consistency_trend(falling, 1e-3, 0.05)
    assert res.holds and res.statistic == res.max_statistic == 27
    assert res.pvalue == pytest.approx(1 / 1680)  # 3!^3/9!: the only arrangement with S = 27
    flat = [[0.2, 0.21, 0.19], [0.2, 0.2, 0.21], [0.2, 0.19, 0.21]]
    assert not consistency_trend(flat, 1e-3, 0.05).decreasing
    rising = [list(reversed(v)) for v in reversed(falling)]
    assert consistency_trend(rising, 0.999, 1.0).pvalue == 1.0
    high = [[0.5, 0.51, 0.49], [0.4, 0.41, 0.39], [0.3, 0.31, 0.29]]
    res = consistency_trend(high, 1e-3, 0.05)
    assert res.decreasing and not res.below_tolerance and not res.holds
    assert welch_greater_pvalue([1.0, 1.0], [0.0, 0.0]) == 0.0
    with pytest.raises(ValueError, match="values_by_n"):
        consistency_trend([[0.1, 0.2]])
    with pytest.raises(ValueError, match="values_by_n"):
        consistency_trend([[0.1, 0.2], []])
    with pytest.raises(ValueError, match="values_by_n"):
        consistency_trend([[0.1, math.nan], [0.1]])
    with pytest.raises(ValueError, match="alpha"):
        consistency_trend(falling, 0.0)
    with pytest.raises(ValueError, match="alpha"):
        consistency_trend(falling, math.nan)
    with pytest.raises(ValueError, match="tolerance"):
        consistency_trend(falling, 1e-3, -1.0)
    with pytest.raises(ValueError, match="values_by_n"):  # refused up front, not minutes later
        consistency_trend([[0.1] * 2000, [0.0] * 2000], 1e-3, 1.0)


def _brute_force_counts(sizes: list[int]) -> Counter[int]:
    """S over every distinct arrangement of the group labels (values = positions 0..N-1)."""
    labels = [g for g, n in enumerate(sizes) for _ in range(n)]
    out: Counter[int] = Counter()
    for arrangement in set(itertools.permutations(labels)):
        groups: list[list[float]] = [[] for _ in sizes]
        for value, g in enumerate(arrangement):
            groups[g].append(float(value))
        out[jonckheere_decreasing(groups)[0]] += 1
    return out


@pytest.mark.parametrize("sizes", [[1, 1], [2, 2], [2, 1, 2], [3, 2, 2], [2, 2, 2, 2], [1, 4]])
def test_jonckheere_null_law_matches_enumeration(sizes: list[int]) -> None:
    """The q-multinomial coefficients equal the counts of S over all label arrangements
    (computed independently, by enumeration)."""
    counts = jonckheere_null_counts(sizes)
    brute = _brute_force_counts(sizes)
    assert {s: c for s, c in enumerate(counts) if c} == dict(brute)
    assert sum(counts) == math.factorial(sum(sizes)) // math.prod(math.factorial(n) for n in sizes)
    assert q_binomial(5, 2) == [1, 1, 2, 2, 2, 1, 1]


@pytest.mark.parametrize("sizes", [[2, 2, 2], [3, 3, 3], [2, 3, 2, 1]])
def test_jonckheere_false_alarm_exact(sizes: list[int]) -> None:
    """Under exchangeability every arrangement is equally likely: the share of arrangements
    with p < alpha is <= alpha for every alpha (exact size, no approximation)."""
    labels = [g for g, n in enumerate(sizes) for _ in range(n)]
    pvalues = []
    for arrangement in set(itertools.permutations(labels)):
        groups: list[list[float]] = [[] for _ in sizes]
        for value, g in enumerate(arrangement):
            groups[g].append(float(value))
        pvalues.append(jonckheere_decreasing(groups)[2])
    total = len(pvalues)
    for alpha in [*sorted(set(pvalues)), 1e-3, 0.01, 0.05]:
        assert sum(p < alpha for p in pvalues) / total <= alpha + 1e-15
        assert sum(p <= alpha for p in pvalues) / total <= alpha + 1e-15


def test_jonckheere_ties_are_conservative() -> None:
    """Ties count 0: S with ties is <= S for every tie-breaking, so p is never smaller."""
    rng = np.random.default_rng(8)
    for _ in range(50):
        groups = [list(rng.integers(0, 4, 3).astype(float)) for _ in range(3)]
        _, _, p_tied = jonckheere_decreasing(groups)
        broken = [[v + 1e-6 * rng.random() for v in g] for g in groups]
        assert p_tied >= jonckheere_decreasing(broken)[2]


def test_trend_power_at_three_reps() -> None:
    """The curve of ``dpspec consistency pcl --distribution circle --n 1e3,1e4,1e5,1e6
    --reps 3`` (seed 0, exact excess risks) is recognised: every value at a larger n is
    smaller, p = 3!^4/12! = 2.7e-6 < 1e-3 (Welch on the end points alone gave 0.0013).
    Synthetic curve 0.7·n^(-1/3) with lognormal(0.3) noise, 4 sizes × 3 reps: recognised in
    >= 99% of 2000 seeded draws; the same draws with the n labels shuffled (no trend) are
    flagged in <= 0.5% (exact size 9.3e-4)."""
    example = [
        [0.0743, 0.0743, 0.0653],
        [0.0329, 0.0329, 0.0317],
        [0.0191, 0.0191, 0.0191],
        [0.0134, 0.0134, 0.0134],
    ]
    res = consistency_trend(example, 1e-3, 0.05)
    assert res.holds and res.pvalue == pytest.approx(6**4 / math.factorial(12))
    rng = np.random.default_rng(2026)
    ns = np.array([1e3, 1e4, 1e5, 1e6])
    hits = false_alarms = 0
    trials = 2000
    for _ in range(trials):
        v = 0.7 * ns[:, None] ** (-1 / 3) * np.exp(rng.normal(0.0, 0.3, (4, 3)))
        hits += consistency_trend(v.tolist(), 1e-3, 1.0).decreasing
        shuffled = rng.permutation(v.ravel()).reshape(4, 3)
        false_alarms += consistency_trend(shuffled.tolist(), 1e-3, 1.0).decreasing
    assert hits >= 0.99 * trials
    assert false_alarms <= 0.005 * trials


def test_runner_arguments() -> None:
    """The runners refuse bad grids before any fit, naming the argument."""
    from dpspec.proofs.engine.consistency_runs import run_ldp_consistency
    from dpspec.proofs.topics.consistency.experiments import (
        make_classifier,
        make_problem,
        run_consistency,
        run_density_consistency,
    )

    problem = make_problem("circle")

    def factory(e: float, n: int, s: int) -> Any:
        return make_classifier("pcl", e, n, s)

    for ns, reps, seed, name in [
        ([0], 2, 0, "n"),
        ([10**30], 2, 0, "n"),
        ([1.5], 2, 0, "n"),
        ([True], 2, 0, "n"),
        ([], 2, 0, "n"),
        ([100], 0, 0, "reps"),
        ([100], 10**6, 0, "reps"),
        ([100], 2, -1, "seed"),
    ]:
        with pytest.raises(ValueError, match=name):
            run_consistency(problem, factory, ns, 1.0, reps, seed, progress=False)
        with pytest.raises(ValueError, match=name):
            run_density_consistency(ns, 1.0, reps, seed, progress=False)
        with pytest.raises(ValueError, match=name):
            run_ldp_consistency("ldp-regression", 1, ns, 1.0, reps, seed, progress=False)
    with pytest.raises(ValueError, match="test_size"):
        run_consistency(problem, factory, [100], 1.0, 2, 0, test_size=0, progress=False)


def test_bad_problem_parameters() -> None:
    with pytest.raises(ValueError, match="noise"):
        Checkerboard(4, 0.6)
    with pytest.raises(ValueError, match="center"):
        Circle(0.4, (0.2, 0.5))
    with pytest.raises(ValueError, match="radius"):
        Circle(0.6)
    with pytest.raises(ValueError, match="labels"):
        Checkerboard().grid_classifier_error(np.zeros((3, 4)))


def test_cli_consistency_json_and_plot(tmp_path: Path) -> None:
    out, png = tmp_path / "c.json", tmp_path / "c.png"
    code = main(
        [
            "consistency",
            "pcl",
            "--distribution",
            "checkerboard",
            "--n",
            "1000,10000,100000",
            "--reps",
            "3",
            "--seed",
            "0",
            "--tolerance",
            "0.1",
            "--json",
            str(out),
            "--plot",
            str(png),
            "--no-progress",
        ]
    )
    assert code == 0
    payload = json.loads(out.read_text())
    rows = payload["rows"]
    assert [r["n"] for r in rows] == [1000, 10000, 100000]
    assert set(rows[0]) >= {"n", "excess_risk", "excess_risk_ci", "fit_seconds", "predict_seconds"}
    assert rows[2]["excess_risk"] < rows[0]["excess_risk"] and all(r["exact"] for r in rows)
    assert payload["trend"]["holds"] and payload["trend"]["pvalue"] == pytest.approx(1 / 1680)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["consistency", "nope", "--n", "100", "--no-progress"]) == 2


def test_gaussian_mixture_masses_and_bayes() -> None:
    """Masses sum to 1; the Bayes error by quadrature of min(w₀φ₀, w₁φ₁) equals the CDF-mass
    error of the grid rule whose cells contain the boundary x = ½ (two independent computations
    of L*); sampling agrees with the cube masses (z-test, α = 1e-6)."""
    g = GaussianMixture(means=((0.3,), (0.7,)), sigma=0.2)
    p0, p1 = g.cube_masses(50)
    assert float(p0.sum() + p1.sum()) == pytest.approx(1.0, abs=1e-12)
    # equal weights and σ: the Bayes boundary is x = 0.5, which the 50-cube grid contains
    grid = (p1 > p0).astype(int)
    assert g.grid_classifier_error(grid) == pytest.approx(g.bayes_error(), abs=1e-9)
    rng = np.random.default_rng(9)
    X, y = g.draw(200_000, rng)
    assert X.min() >= 0 and X.max() <= 1
    frac_class1 = float(p1.sum())
    z = (y.mean() - frac_class1) / math.sqrt(frac_class1 * (1 - frac_class1) / y.size)
    assert abs(z) < 4.9
    with pytest.raises(ValueError, match="sigma"):
        GaussianMixture(sigma=-1.0)
    with pytest.raises(ValueError, match="weights"):
        GaussianMixture(weights=(0.5, 0.6))


def test_problems_contract_regressions() -> None:
    """The problems draw with ``draw(size, rng)`` (they are no
    mechanisms), refuse grids beyond their limits before any work, and keep η well defined
    far from both Gaussian means."""
    with pytest.raises(ValueError, match="m: the request needs"):
        Circle().region_area(2**13)
    labels = np.zeros((2**13, 2**13), dtype=np.int8)

    def refusal() -> None:
        with pytest.raises(ValueError, match="labels: the request needs"):
            Checkerboard().grid_classifier_error(labels)

    assert least_cpu_seconds(refusal, 1.0) < 1.0
    assert getattr(Circle.sample, "__deprecated_alias_of__", None) == "draw"  # until 0.4
    assert np.all(np.isfinite(GaussianMixture().eta(np.array([[1.4e16, -1.4e16]]))))
    g = GaussianMixture(sigma=0.01)
    eta = g.eta(np.array([[0.0, 1.0], [1.0, 0.0]]))  # far from both means: no 0/0
    assert np.all(np.isfinite(eta))
    with pytest.raises(ValueError, match="means"):
        GaussianMixture(means=((2.0, 2.0), (0.5, 0.5)))
    with pytest.raises(ValueError, match="size"):
        Threshold1D().draw(0, np.random.default_rng(0))


def test_cli_options_are_refused_before_work() -> None:
    """Every ``consistency`` option has a declared domain: out of it, exit 2 before any fit."""
    for argv in (
        ["consistency", "pcl", "--epsilon", "2e-10"],
        ["consistency", "pcl", "--epsilon", "1e-300"],
        ["consistency", "pcl", "--seed", "-1"],
        ["consistency", "pcl", "--plot", "x.txt"],
        ["consistency", "pcl", "--d", "2"],
        ["consistency", "ldp-regression", "--d", "4"],
        ["consistency", "pcl", "--test-size", "0"],
        ["consistency", "pcl", "--tolerance", "-1"],
        ["consistency", "pcl", "--n", "1e3,1e2"],
        ["consistency", "pcl", "--n", "1e3,1e4", "--reps", "1"],
        ["consistency", "pcl", "--json", "/dev/null/x.json"],
    ):
        assert main([*argv, "--no-progress"]) == 2, argv
