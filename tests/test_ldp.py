"""Seed 003: the local randomiser, Prop 1, the estimators and their exact errors."""

from __future__ import annotations

import json
import math
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpspec.cli import main
from dpspec.ldp.estimators import (
    LDPPartitionClassifier,
    LDPPartitionRegressor,
    PartitioningRegressor,
)
from dpspec.ldp.mechanism import LocalRandomiser, aggregate, noise_scales
from dpspec.ldp.partition import CubicPartition
from dpspec.ldp.problems import SineProblem
from dpspec.learners.estimator import NotFittedError
from dpspec.proofs.engine.crosshair import evaluate_contract
from dpspec.proofs.engine.sweep import least_cpu_seconds
from dpspec.proofs.topics.ldp import lemmas as lemmas_ldp
from dpspec.spec.ldp import prop1_bound, report_log_ratio, satisfies_prop1

floats = st.floats(-20, 20, allow_nan=False)


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 5).flatmap(
        lambda k: st.tuples(
            st.lists(floats, min_size=k, max_size=k),
            st.lists(floats, min_size=k, max_size=k),
            st.integers(-1, k - 1),
            st.integers(-1, k - 1),
        )
    ),
    st.floats(0.1, 5.0),
    st.floats(0.5, 4.0),
    st.floats(-1.0, 1.0),
    st.floats(-1.0, 1.0),
)
def test_prop1_on_random_reports(
    inst: tuple[list[float], list[float], int, int], epsilon: float, m: float, u: float, v: float
) -> None:
    w, z, cell, cell2 = inst
    sw, sz = noise_scales(epsilon, m)
    assert math.isclose(prop1_bound(m, sw, sz), epsilon, rel_tol=1e-12)
    ratio = report_log_ratio(w, z, cell, u * m, cell2, v * m, sw, sz)
    assert satisfies_prop1(ratio, m, sw, sz)
    assert satisfies_prop1(-ratio, m, sw, sz)  # and the other direction


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(-5, 5), min_size=1, max_size=3),
    st.integers(-1, 2),
    st.integers(-1, 2),
    st.integers(0, 4),
    st.integers(-4, 4),
    st.integers(-4, 4),
)
def test_lemmas_hold_on_examples(w: list[int], c1: int, c2: int, m: int, y: int, y2: int) -> None:
    c1, c2 = min(c1, len(w) - 1), min(c2, len(w) - 1)
    assert evaluate_contract(lemmas_ldp.onehot_sensitivity, tuple(w), c1, c2) is not False
    y, y2 = max(-m, min(m, y)), max(-m, min(m, y2))
    outcome = evaluate_contract(lemmas_ldp.response_sensitivity, tuple(w), c1, y, c2, y2, m)
    assert outcome is not False


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), min_size=1, max_size=2),
    st.integers(-1, 1),
    st.integers(-1, 1),
    st.integers(0, 4),
    st.integers(-4, 4),
    st.integers(-4, 4),
    st.integers(0, 4),
    st.integers(0, 4),
)
def test_log_ratio_core_on_examples(
    wz: list[tuple[int, int]], c1: int, c2: int, m: int, y: int, y2: int, a: int, b: int
) -> None:
    w, z = tuple(p[0] for p in wz), tuple(p[1] for p in wz)
    c1, c2 = min(c1, len(w) - 1), min(c2, len(w) - 1)
    y, y2 = max(-m, min(m, y)), max(-m, min(m, y2))
    args = (w, z, c1, y, c2, y2, m, a, b)
    assert evaluate_contract(lemmas_ldp.log_ratio_core, *args) is not False
    # the bound is attained at the witness: cells 0 vs 1, y = M vs y' = -M
    if len(w) == 2:
        witness = lemmas_ldp.log_ratio_core((1, 0), (m, 0), 0, m, 1, -m, m, a, b)
        assert witness == 2 * a + 2 * b * m


def test_two_party_api() -> None:
    """A user's report puts its indicator and truncated response in *its own* cell j (the
    typo A_{h,i} of eq. 6 would put them in cell i, the user's index); the server averages."""
    part = CubicPartition(0.25, 1.0, 1)
    rand = LocalRandomiser(part, epsilon=1.0, truncation=1.0, idealised=True)
    assert rand.privacy.epsilon == 1.0 and not rand.privacy.exact_sampler
    rand.sigma_w = rand.sigma_z = 1e-9  # silence the (float) noise to read the reports' signal
    rng = np.random.default_rng(0)
    x = np.array([[0.1], [0.6], [-0.9]])
    w, z = rand.randomise(x, np.array([0.5, 3.0, -0.2]), rng)
    cells = part.cell_index(x)
    assert w.shape == z.shape == (3, part.n_cells)
    for i, j in enumerate(cells):
        assert abs(w[i, j] - 1) < 1e-3 and np.sum(np.abs(np.delete(w[i], j))) < 1e-3
    assert abs(z[1, cells[1]] - 1.0) < 1e-3  # y = 3 truncated to M = 1
    reports = rand.collect(x, np.array([0.5, 3.0, -0.2]), rng)
    nu, mu = aggregate(reports)
    assert abs(mu.sum() - 1.0) < 1e-3 and abs(nu.sum() - (0.5 + 1.0 - 0.2) / 3) < 1e-3
    with pytest.raises(ValueError, match="epsilon"):
        LocalRandomiser(part, epsilon=1e6, truncation=1.0)
    with pytest.raises(ValueError, match="y"):
        rand.randomise(x, np.array([1.0]), rng)
    with pytest.raises(ValueError, match="epsilon"):
        LocalRandomiser(part, epsilon=0.0, truncation=1.0)


def test_reports_on_lattice() -> None:
    """The default randomiser is exact: reports are multiples of the public lattice steps, the
    stated law is centred on the snapped signal in the user's own cell, the exact level is at
    most the epsilon asked, and the mean report recovers the signal."""
    part = CubicPartition(0.25, 1.0, 1)
    rand = LocalRandomiser(part, epsilon=0.7, truncation=3.0)
    assert rand.privacy.epsilon == 0.7 and rand.privacy.exact_sampler
    assert rand.step_w == 2.0**-20 and rand.step_z == 2.0**-19  # floor(log2 3) = 1
    assert isinstance(rand.effective_epsilon, Fraction) and rand.effective_epsilon <= Fraction(0.7)
    rng = np.random.default_rng(4)
    x, y = np.full((4000, 1), 0.1), np.full(4000, 5.0)  # y beyond M = 3: truncated
    w, z = rand.randomise(x, y, rng)
    assert np.all(w / rand.step_w == np.rint(w / rand.step_w))
    assert np.all(z / rand.step_z == np.rint(z / rand.step_z))
    cell = int(part.cell_index(x[:1])[0])
    law = rand.pmf(np.array([0.1, 5.0]))
    assert law.w_centre[cell] == 2**20 and law.z_centre[cell] == 3 * 2**19
    assert sum(abs(c) for c in law.w_centre) == 2**20
    # sd of a mean of 4000 reports: sqrt(2) * b / 63 with b = 4M/epsilon = 17 for Z: < 0.4
    assert abs(z[:, cell].mean() - 3.0) < 2.0 and abs(w[:, cell].mean() - 1.0) < 1.0
    assert abs(np.delete(z, cell, axis=1).mean()) < 1.0
    with pytest.raises(ValueError, match="epsilon"):
        LocalRandomiser(part, epsilon=1e-12, truncation=1.0)
    with pytest.raises(ValueError, match="part"):
        law.interval_probability("v", 0, 0.0, 1.0)


def test_collect_in_batches() -> None:
    part = CubicPartition(0.5, 1.0, 2)
    rand = LocalRandomiser(part, 1.0, 1.0)
    rng = np.random.default_rng(1)
    X, y = rng.random((1000, 2)), rng.uniform(-1, 1, 1000)
    small, big = rand.collect(X, y, rng, batch_size=7), rand.collect(X, y, rng, batch_size=5000)
    assert small.n == big.n == 1000 and small.w_sum.shape == (part.n_cells,)
    in_law = rand.collect_in_law(X, y, rng)
    assert in_law.n == 1000 and in_law.z_sum.shape == (part.n_cells,)
    with pytest.raises(ValueError, match="n: must be an integer"):
        aggregate(type(in_law)(0, in_law.w_sum, in_law.z_sum))


def test_partition_is_public_and_covers_the_ball() -> None:
    part = CubicPartition(0.25, 1.0, 1)
    assert part.n_cells == 10  # cubes [−1.25, −1) … [1, 1.25) meet the closed ball [−1, 1]
    assert part.cell_index(np.array([[1.3], [0.0], [-1.0]])).tolist() == [-1, 5, 1]
    with pytest.raises(ValueError, match="h"):
        CubicPartition(0.0, 1.0, 1)
    with pytest.raises(ValueError, match="X"):
        part.cell_index(np.zeros((2, 2)))


def test_exact_errors_match_sampling() -> None:
    """Closed-form L2 error and excess risk against 10^6-point Monte Carlo (error < 5 SE)."""
    rng = np.random.default_rng(2)
    for d in (1, 2):
        problem, part = SineProblem(d), CubicPartition(0.13, 2.0, d)
        lo, hi = part.cube_bounds()
        vals = rng.normal(0, 0.3, part.n_cells)
        labels = rng.choice([-1, 1], part.n_cells)
        X = rng.random((10**6, d))
        idx, m = part.cell_index(X), problem.regression_function(X)
        sq = (m - vals[idx]) ** 2
        assert abs(problem.l2_error(lo, hi, vals) - sq.mean()) < 5 * sq.std() / 1e3
        loss = np.abs(2 * m) * (labels[idx] != np.where(m > 0, 1, -1))
        assert abs(problem.excess_risk(lo, hi, labels) - loss.mean()) < 5 * loss.std() / 1e3
    assert math.isclose(SineProblem(1).bayes_error(), 0.5 - 1 / math.pi)


def test_estimators_follow_sklearn_conventions() -> None:
    problem = SineProblem(1)
    rng = np.random.default_rng(3)
    X, y = problem.sample_regression(20_000, rng)
    reg = LDPPartitionRegressor(2.0, truncation=1.0, random_state=0)
    assert reg.get_params()["epsilon"] == 2.0 and reg.get_params()["idealised"] is False
    with pytest.raises(NotFittedError):
        reg.predict(X)
    reg.fit(X, y)
    assert reg.predict(X).shape == (20_000,) and reg.score(X, y) <= 1
    assert reg.privacy_.epsilon == 2.0 and reg.privacy_.exact_sampler
    ideal = LDPPartitionRegressor(2.0, truncation=1.0, random_state=0, idealised=True).fit(X, y)
    assert ideal.privacy_.epsilon == 2.0 and not ideal.privacy_.exact_sampler
    in_law = LDPPartitionRegressor(2.0, truncation=1.0, simulate="in-law", random_state=0)
    assert not in_law.fit(X, y).privacy_.exact_sampler  # numpy's float NB sampler
    base = PartitioningRegressor(truncation=1.0).fit(X, y)
    assert base.score(X, y) > 0.2  # the non-private estimate explains the signal
    Xc, labels = problem.sample_classification(20_000, rng)
    clf = LDPPartitionClassifier(2.0, random_state=0).fit(Xc, labels)
    assert set(np.unique(clf.predict(Xc))) <= {-1, 1} and 0 <= clf.score(Xc, labels) <= 1
    for kwargs, name in [
        ({"epsilon": -1.0}, "epsilon"),
        ({"simulate": "magic"}, "simulate"),
        ({"h": 0.0}, "h"),
        ({"idealised": "yes"}, "idealised"),
    ]:
        with pytest.raises(ValueError, match=name):
            LDPPartitionRegressor(**kwargs).fit(X, y)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="y"):
        LDPPartitionRegressor().fit(X, y[:-1])
    with pytest.raises(ValueError, match="features"):
        reg.predict(np.zeros((3, 2)))


def test_cli_consistency_ldp(tmp_path: Path) -> None:
    out = tmp_path / "ldp.json"
    code = main(
        [
            "consistency",
            "ldp-classifier",
            "--n",
            "1e3,1e5",
            "--reps",
            "8",
            "--tolerance",
            "0.05",
            "--no-progress",
            "--json",
            str(out),
        ]
    )
    payload = json.loads(out.read_text(encoding="utf-8"))
    assert payload["metric"] == "excess_risk" and len(payload["rows"]) == 2
    assert code == (0 if payload["trend"]["holds"] else 1)


_RNG = np.random.default_rng(3)
_X = _RNG.random((60, 1))
_Y = _RNG.uniform(-1, 1, 60)


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"offset": 1e300, "random_state": 0}, "offset"),
        ({"offset": -1e300}, "offset"),
        ({"offset": "a"}, "offset"),
        ({"offset": True}, "offset"),
        ({"epsilon": 1e-307, "simulate": "in-law", "idealised": True}, "epsilon"),
        ({"epsilon": 1e-307, "idealised": True}, "epsilon"),
        ({"epsilon": 1e-307}, "epsilon"),
        ({"epsilon": 701}, "epsilon"),
        ({"epsilon": 1 + 0j}, "epsilon"),
        ({"epsilon": "1"}, "epsilon"),
        ({"epsilon": True}, "epsilon"),
        ({"truncation": 1e306}, "truncation"),
        ({"truncation": 1e306, "idealised": True}, "truncation"),
        ({"truncation": 5e-324}, "truncation"),
        ({"h": 5e-324}, "h"),
        ({"h": 1e300}, "h"),
        ({"radius": 1e300}, "radius"),
        ({"radius": 2104.0, "h": 1e-3}, "radius"),
        ({"bandwidth_constant": 1e300}, "bandwidth_constant"),
        ({"bandwidth_constant": 1e-300}, "bandwidth_constant"),
        ({"threshold": 1e300}, "threshold"),
        ({"threshold": 0.0}, "threshold"),
        ({"batch_size": 0}, "batch_size"),
        ({"simulate": "bogus"}, "simulate"),
        ({"idealised": 1}, "idealised"),
    ],
)
def test_hostile_parameters_are_refused_by_name(params: dict[str, object], name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises((ValueError, TypeError), match=name):
            LDPPartitionRegressor(**params).fit(_X, _Y).predict(_X)  # type: ignore[arg-type]


@pytest.mark.parametrize("idealised", [False, True])
def test_far_points_and_limits_give_finite_results(idealised: bool) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        far = np.full((5, 1), 1e300)
        model = LDPPartitionRegressor(random_state=0, idealised=idealised).fit(far, _Y[:5])
        assert np.all(model.predict(far) == 0.0)  # no cube contains them: m̃ = 0 there
        assert np.all(model.predict(np.full((3, 1), -1.7e308)) == 0.0)
        big = LDPPartitionRegressor(
            truncation=2.0**256, epsilon=2.0**-32, random_state=0, idealised=idealised
        ).fit(_X, _Y)
        assert np.all(np.isfinite(big.predict(_X)))
        clf = LDPPartitionClassifier(random_state=0, idealised=idealised).fit(far, _Y[:5] > 0)
        assert clf.predict(far).shape == (5,)


def test_in_law_sums_in_blocks_have_the_law_of_n_users() -> None:
    """At α = 10^-9 and n = 10^5 numpy's negative binomial refuses NB(n, 1 − q) in one call;
    the sums are drawn in blocks. Their noise (in lattice units) is a sum of n discrete
    Laplace variables of scale t: mean 0, variance n·2q/(1 − q)^2. Fixed seed; over the 2000
    cells without data the empirical variance is within 15% (the estimate's relative sd is
    ≈ √(2/2000) ≈ 3.2%) and the mean within 5 standard errors. Checked to fail when the
    implementation draws one block per round only (variance b/n of the target) or adds the
    two negative-binomial totals instead of subtracting them (mean 2n·q/(1 − q))."""
    partition = CubicPartition(0.001, 1.0)
    randomiser = LocalRandomiser(partition, 1e-9, 1.0)
    n = 100_000
    x = np.full((n, 1), 0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        reports = randomiser.collect_in_law(x, np.zeros(n), np.random.default_rng(5))
    assert randomiser.scale_w is not None
    t = float(randomiser.scale_w)
    q = math.exp(-1 / t)
    var = n * 2 * q / (1 - q) ** 2
    block = (math.sqrt(100 + 4 * 9.0e18 * (1 - q) / q) - 10) / 2
    assert block**2 < n / 2  # more than two blocks are drawn
    empty = np.ones(partition.n_cells, dtype=bool)
    empty[partition.cell_index(np.array([[0.5]]))[0]] = False
    noise = reports.w_sum[empty] / randomiser.step_w
    assert abs(noise.mean()) < 5 * math.sqrt(var / noise.size)
    assert 0.85 < noise.var() / var < 1.15


def test_cli_tiny_epsilon_in_law() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for n in (1000, 100_000):
            X, y = SineProblem().sample_regression(n, np.random.default_rng(n))
            model = LDPPartitionRegressor(epsilon=1e-9, simulate="in-law", random_state=0)
            assert np.all(np.isfinite(model.fit(X, y).predict(X)))


def test_contract_regressions() -> None:
    """``idealised`` is the keyword before ``random_state`` and a
    real bool everywhere; the exact law is ``pmf`` (``report_law`` a deprecated alias);
    ``LocalRandomiser`` is a mechanism with ``sample(data, size, rng)``; float32 parameters
    give the same law; limits refuse before any work, naming the parameter."""
    import inspect

    from dpspec.contract import Mechanism

    for cls in (LDPPartitionRegressor, LDPPartitionClassifier):
        names = list(inspect.signature(cls).parameters)
        assert names.index("idealised") + 1 == names.index("random_state")
        with pytest.raises(TypeError, match="idealised"):
            cls(idealised="no").fit(_X, _Y)  # type: ignore[arg-type]
    part = CubicPartition(1.0, 0.9, 1, offset=-1.0)
    for flag in ("idealised", "z_only"):
        with pytest.raises(TypeError, match=flag):
            LocalRandomiser(part, 1.0, 1.0, **{flag: "no"})  # type: ignore[arg-type]
    rand = LocalRandomiser(part, 1.0, 1.0)
    assert isinstance(rand, Mechanism)
    out = rand.sample(data=np.array([-0.5, 0.3]), size=7, rng=np.random.default_rng(0))
    assert out.shape == (7, 2 * part.n_cells)
    with pytest.warns(DeprecationWarning):
        old = rand.report_law(np.array([-0.5]), 0.3)
    assert old == rand.pmf(np.array([-0.5, 0.3]))
    assert LocalRandomiser.report_law.__deprecated_alias_of__ == "pmf"  # type: ignore[attr-defined]
    assert LocalRandomiser(part, np.float32(0.5), np.float32(2.0)).pmf(
        np.array([0.5, 1.0])
    ) == LocalRandomiser(part, 0.5, 2.0).pmf(np.array([0.5, 1.0]))
    big = CubicPartition(1e-3, 1.0, 1)  # 2002 cells
    x_many, y_many = np.zeros((40_000, 1)), np.zeros(40_000)
    X_huge, y_huge = np.zeros((2_000_000, 1)), np.zeros(2_000_000)

    def refusals() -> None:
        with pytest.raises(ValueError, match=r"size: .*exceeds the limit"):
            rand.sample(np.array([0.5, 1.0]), 2**27, np.random.default_rng(0))
        with pytest.raises(ValueError, match=r"x: .*exceeds the limit"):
            LocalRandomiser(big, 1.0, 1.0).randomise(x_many, y_many, np.random.default_rng(0))
        with pytest.raises(ValueError, match="X: the request needs"):
            LDPPartitionRegressor(h=1e-3, random_state=0).fit(X_huge, y_huge)

    assert least_cpu_seconds(refusals, 1.0) < 1.0
    with pytest.raises(ValueError, match="window"):
        LocalRandomiser(part, 1.0, 1.0, idealised=True).pmf(np.array([0.5, 1.0]), (0, 3))
    box = LocalRandomiser(part, 1.0, 1.0, z_only=True).pmf(np.array([0.5, 0.0]), (-2, 2))
    assert len(box) == 25 and all(0 < p < 1 for p in box.values())


@pytest.mark.parametrize("idealised", [False, True])
@pytest.mark.parametrize("z_only", [False, True])
def test_randomiser_at_the_corners_of_its_domain(idealised: bool, z_only: bool) -> None:
    """Every corner of (epsilon, truncation)'s declared domain builds a randomiser whose exact
    level is at most epsilon (the idealised path once refused ε = 700 with M = 2^-256, naming
    sigma_z)."""
    part = CubicPartition(1.0, 0.9, 1, offset=-1.0)
    for epsilon in (2.0**-32, 700.0):
        for m in (2.0**-256, 2.0**256):
            rand = LocalRandomiser(part, epsilon, m, z_only, idealised=idealised)
            assert float(rand.effective_epsilon) <= epsilon * (1 + 1e-12)
            reports = rand.sample(np.array([0.5, m]), 3, np.random.default_rng(0))
            assert np.all(np.isfinite(reports))
