"""Utility checks for seed 003: the estimate rule of L154 and L273–300 exactly on the fitted
estimators (their predict on cube edges included), consistency trends with a learner that has a
real modest defect as control, and the two theorems that are loose by nature (Lemma 1,
Theorem 3's explicit bound) as demonstrations.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import integrate, stats

from dpspec.ldp.estimators import (
    LDPPartitionClassifier,
    LDPPartitionRegressor,
    PartitioningRegressor,
    ball_radius,
)
from dpspec.ldp.mechanism import UNIT_LAPLACE_SCALE, noise_scales
from dpspec.ldp.partition import CubicPartition, bandwidth, threshold_constant, truncation_level
from dpspec.ldp.problems import SineProblem
from dpspec.proofs.engine.consistency_runs import ldp_error, run_ldp_consistency
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import (
    RECOMPUTED,
    STATED_BOUND,
    CheckOutcome,
    Control,
    Kind,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
)
from dpspec.proofs.engine.seeds import LDP_REGRESSION
from dpspec.spec.consistency import consistency_trend

SEED = 6200


def spec_cells(part: CubicPartition, X: NDArray[np.float64]) -> list[int]:
    """The cell of each row by the definition, in exact rational arithmetic: x ∈ A_k iff
    offset + h·k ≤ x < offset + h·(k + 1) coordinate-wise (L81–96; half-open cubes), and the
    cell's number its rank among the listed cubes (−1 when its cube is not listed)."""
    listed = {tuple(int(v) for v in k): j for j, k in enumerate(part.cells.tolist())}
    h, offset = Fraction(part.h), Fraction(part.offset)
    out = []
    for row in X.tolist():
        key = tuple(math.floor((Fraction(v) - offset) / h) for v in row)
        out.append(listed.get(key, -1))
    return out


def _edge_points(part: CubicPartition) -> NDArray[np.float64]:
    """Points on every cube's lower and upper edge, just inside and outside them, at the
    ball's rim and far outside (1-D partitions)."""
    lo, hi = part.cube_bounds()
    edges = np.unique(np.concatenate([lo[:, 0], hi[:, 0]]))
    points = np.concatenate(
        [edges, np.nextafter(edges, -np.inf), np.nextafter(edges, np.inf), [-50.0, 50.0]]
    )
    return points[:, None]


def _regression_values(nu: Any, mu: Any, threshold: float, volume: float) -> NDArray[np.float64]:
    """m̃ per cell by L154: ν̃/μ̃ where μ̃ ≥ c_n·h^d, 0 elsewhere."""
    values = np.zeros(np.shape(nu))
    keep = np.asarray(mu) >= threshold * volume
    np.divide(nu, mu, out=values, where=keep)
    return values


@Obligation(
    id="ldp.ldp-estimators.estimate-rule",
    source=(
        f"{LDP_REGRESSION}:L154 (the estimate); {LDP_REGRESSION}:L81-96 (the cubes); "
        f"{LDP_REGRESSION}:L273-300 (the classifier)"
    ),
    claim=(
        "values_ = nu/mu on the cells with mu >= c_n h^d (0 elsewhere), predict = the "
        "value of x's half-open cube (edges decided exactly), classifier = classes_[nu > "
        "0]"
    ),
    method=Method.EXACT,
    no_predicate=(
        f"{RECOMPUTED}: ν/μ above c_n h^d and each point's cell in rationals (L154, L273–300)"
    ),
    impls=(LDPPartitionRegressor, PartitioningRegressor, LDPPartitionClassifier, CubicPartition),
    tests=("tests/test_ldp.py::test_partition_is_public_and_covers_the_ball",),
    bug_controls=(
        BugControl(
            LDPPartitionRegressor.fit,
            "keep = mu >= c * partition.h**d",
            "keep = mu >= c",
            "mu~ compared with c_n instead of c_n h^d (L154)",
        ),
        BugControl(
            CubicPartition.cell_index,
            "scaled = np.floor((arr - self.offset) / self.h)",
            "scaled = np.ceil((arr - self.offset) / self.h) - 1",
            "cubes closed on the right: a point on an edge sent to the lower cube",
        ),
        BugControl(
            LDPPartitionClassifier.predict,
            "positive = self.decision_values(X) > 0",
            "positive = self.decision_values(X) >= 0",
            "the classifier with sign(0) = +1",
        ),
    ),
)
def estimate_rule(config: VerifyConfig) -> CheckOutcome:
    """The fitted estimates are the rule of the seed, exactly, on the code that runs: for
    ``LDPPartitionRegressor`` (both paths, users and in-law) and the non-private
    ``PartitioningRegressor``, ``values_`` = ν̃/μ̃ on the cells with μ̃ ≥ c_n h^d and 0 elsewhere
    (L154; the baseline with c_n = log n/(n h^d)); ``predict`` returns the value of the cell
    that contains x by the definition of the half-open cubes A_k = offset + h(k + [0, 1)),
    decided in rational arithmetic, on points placed on every cube edge, one float either side,
    at the ball's rim and outside (0 there); ``LDPPartitionClassifier.predict`` is
    ``classes_[1]`` exactly where ν̃ > 0 of x's cell (sign(0) = −1, L273–300). So the scores
    fit computes are the rule predict applies. Its controls are bug controls planted in the
    code (the registry entry): μ̃ compared with c_n alone, cubes closed on the right, and
    sign(0) = +1."""
    rng = np.random.default_rng(SEED)
    problem = SineProblem(1)
    X, y = problem.sample_regression(1000, rng)
    Xc, labels = problem.sample_classification(1000, rng)
    problems: list[str] = []
    fitted: list[Any] = [
        LDPPartitionRegressor(2.0, h=0.25, simulate=sim, idealised=ideal, random_state=3)
        for sim in ("users", "in-law")
        for ideal in (False, True)
    ]
    fitted.append(PartitioningRegressor(h=0.25))
    compared = 0
    for est in fitted:
        est.fit(X, y)
        part = est.partition_
        expected = _regression_values(est.nu_, est.mu_, est.threshold_, part.h**part.d)
        name = type(est).__name__
        if not np.array_equal(expected, est.values_):
            problems.append(f"{name}: values_ are not nu/mu above c_n h^d")
        points = _edge_points(part)
        cells = spec_cells(part, points)
        want = np.array([est.values_[c] if c >= 0 else 0.0 for c in cells])
        compared += points.shape[0]
        if not np.array_equal(est.predict(points), want):
            problems.append(f"{name}: predict is not the value of the cell of the definition")
    clf = LDPPartitionClassifier(2.0, h=0.25, random_state=4).fit(Xc, labels)
    points = _edge_points(clf.partition_)
    cells = spec_cells(clf.partition_, points)
    nu = np.array([clf.nu_[c] if c >= 0 else 0.0 for c in cells])
    want = np.where(nu > 0, clf.classes_[1], clf.classes_[0])
    if not np.array_equal(clf.predict(points), want):
        problems.append("LDPPartitionClassifier: predict is not classes_[nu > 0]")
    compared += points.shape[0]
    return CheckOutcome(
        not problems,
        f"{len(fitted)} regressors and a classifier: values_ and predict are L154 / L273-300 "
        f"on {compared} edge points; problems: {problems or 'none'}",
        {"problems": problems},
        slack=[Slack("predictions differing from the rule", 0.0, float(len(problems)))],
    )


def _fast_bandwidth(n: int, d: int) -> float:
    """The control's schedule bug: h = n^{−1/(d+1)}, the exponent of eq. (11) doubled."""
    return float(n ** (-1.0 / (d + 1)))


def _trend(
    kind: str, ns: list[int], reps: int, tolerance: float, config: VerifyConfig
) -> CheckOutcome:
    reps = 2 * reps if config.thorough else reps
    rows = run_ldp_consistency(kind, 1, ns, 1.0, reps, SEED + 10, progress=False)
    trend = consistency_trend([r.values for r in rows], 1e-3, tolerance)
    control_rows = run_ldp_consistency(
        kind, 1, ns, 1.0, reps, SEED + 20, progress=False, bandwidth=_fast_bandwidth
    )
    control = consistency_trend([r.values for r in control_rows], 1e-3, tolerance)
    return CheckOutcome(
        trend.holds and not control.holds,
        f"{kind} d=1, epsilon=1: exact error means {[round(m, 4) for m in trend.means]} at "
        f"n={ns} ({reps} fits each; Jonckheere-Terpstra exact p={trend.pvalue:.2g} at 1e-3, "
        f"final <= {tolerance}); control h = n^(-1/(d+1)) (the exponent doubled): means "
        f"{[round(m, 4) for m in control.means]}, trend holds: {control.holds}",
        {"means": list(trend.means), "control_means": list(control.means)},
        [
            Control(
                f"{kind} with the bandwidth exponent of eq. (11) doubled",
                not control.holds,
                f"means {[round(m, 4) for m in control.means]}, p = {control.pvalue:.2g}",
            )
        ],
        [Slack("final mean error", tolerance, trend.means[-1])],
    )


@Obligation(
    id="ldp.ldp-regression.consistency",
    source=(
        f"{LDP_REGRESSION}:L154 (estimator); {LDP_REGRESSION}:L166-175 (Thm 2); "
        f"{LDP_REGRESSION}:L253-261 (fixed epsilon)"
    ),
    claim=(
        "the exact L2 error of the epsilon-LDP estimate falls along n (exact rank test) "
        "and ends <= 0.15; with the bandwidth exponent doubled it does not"
    ),
    method=Method.STATISTICAL,
    predicates=(consistency_trend,),
    impls=(
        LDPPartitionRegressor,
        PartitioningRegressor,
        ball_radius,
        bandwidth,
        threshold_constant,
        truncation_level,
        SineProblem,
    ),
    tests=(
        "tests/test_ldp.py::test_exact_errors_match_sampling",
        "tests/test_ldp.py::test_estimators_follow_sklearn_conventions",
        "tests/test_ldp.py::test_cli_consistency_ldp",
    ),
)
def regression_trend(config: VerifyConfig) -> CheckOutcome:
    """Theorem 2 (strong universal consistency) as a trend: the exact L2 error of m̃_n on the
    sine problem (d = 1, ε = 1, M = 1 public) falls from n = 3·10^4 to 3·10^5 (exact rank test
    over 7 fits each, false alarm ≤ 1e-3 when the error does not depend on n;
    ``--thorough``: 14 fits) and ends ≤ 0.15. Control: the same estimator with a real modest
    defect — the bandwidth schedule h = n^{−1/(d+1)}, eq. (11)'s exponent doubled, so the noise
    per cell no longer shrinks — must not show it."""
    return _trend("ldp-regression", [3 * 10**4, 3 * 10**5], 7, 0.15, config)


@Obligation(
    id="ldp.ldp-classification.consistency",
    source=f"{LDP_REGRESSION}:L273-300 (classification, Thm 4)",
    claim=(
        "the exact excess risk of sign(nu~) (Z only, sigma_Z = 2 sqrt2/epsilon) falls "
        "along n and ends <= 0.01; with the bandwidth exponent doubled it does not"
    ),
    method=Method.STATISTICAL,
    predicates=(consistency_trend,),
    impls=(LDPPartitionClassifier,),
)
def classification_trend(config: VerifyConfig) -> CheckOutcome:
    """Theorem 4 as a trend: the exact excess risk of sign(ν̃) (d = 1, ε = 1) falls from 10^3
    to 10^5 (exact rank test over 16 fits each, false alarm ≤ 1e-3) and ends ≤ 0.01. Control:
    the classifier with the bandwidth exponent doubled (h = n^{−1/2}: the signal per cell and
    the noise shrink together) must not show it."""
    return _trend("ldp-classifier", [10**3, 10**4, 10**5], 16, 0.01, config)


def theorem3_terms(n: int, d: int, epsilon: float, bound_y: float) -> tuple[float, float]:
    """(privacy term, W term) of the explicit Theorem 3 bound assembled along its proof:
    2σ_Z²/(n c² h^{2d}) and 4L²(5σ_W² + 1)/(n c² h^{2d}), L a bound on |Y|."""
    sw, sz = noise_scales(epsilon, 1.0)
    h, c = bandwidth(n, d), threshold_constant(n)
    denom = n * c**2 * h ** (2 * d)
    return 2 * sz**2 / denom, 4 * bound_y**2 * (5 * sw**2 + 1) / denom


@Obligation(
    id="ldp.ldp-regression.rate-bound",
    source=f"{LDP_REGRESSION}:L191-205 (Thm 3 and eq. 11)",
    claim=(
        "mean exact L2 error <= 2 sigma_Z^2/(n c^2 h^2d) + 4 E(non-private error) + 4 "
        "L^2 (5 sigma_W^2 + 1)/(n c^2 h^2d)"
    ),
    method=Method.STATISTICAL,
    no_predicate=f"{STATED_BOUND}: the mean exact L2 error against Theorem 3's explicit bound",
    impls=(PartitioningRegressor,),
    kind=Kind.DEMONSTRATION,
    reason=(
        "Theorem 3's explicit bound exceeds the measured error about 100-fold "
        "(Rosenthal-type constants): no modest bug crosses it; the estimate rule is "
        "pinned exactly by ldp.ldp-estimators.estimate-rule"
    ),
)
def theorem3_bound(config: VerifyConfig) -> CheckOutcome:
    """Demonstration: Theorem 3's explicit form E∫(m − m̃)² ≤ 2σ_Z²/(n c²h^{2d}) +
    4E∫(m − m̌)² + 4L²(5σ_W² + 1)/(n c²h^{2d}) (L = 1 bounds |Y|) holds for the mean exact error
    over 3 fits at n ∈ {10^4, 10^5, 10^6} (d = 1, ε = 1), with the non-private m̌ error
    measured the same way. The bound exceeds the error about 100-fold or more (its constants
    come from Rosenthal-type moment bounds), so no modest bug can cross it; the
    estimate rule itself is pinned exactly by ``ldp.ldp-estimators.estimate-rule``."""
    rows = []
    holds = True
    ratio = math.inf
    for n in (10**4, 10**5, 10**6):
        problem = SineProblem(1)
        priv = [ldp_error("ldp-regression", problem, n, 1.0, SEED + 30 + r)[0] for r in range(3)]
        base = [ldp_error("partitioning", problem, n, 1.0, SEED + 40 + r)[0] for r in range(3)]
        t_priv, t_w = theorem3_terms(n, 1, 1.0, 1.0)
        bound = t_priv + 4 * float(np.mean(base)) + t_w
        holds &= float(np.mean(priv)) <= bound
        ratio = min(ratio, bound / float(np.mean(priv)))
        rows.append((n, round(float(np.mean(priv)), 4), round(bound, 2)))
    return CheckOutcome(
        holds,
        f"(n, mean private error, bound): {rows}; the bound exceeds the error at least "
        f"{ratio:.0f}-fold",
        {"rows": rows},
        slack=[Slack("mean L2 error bound", ratio, 1.0)],
    )


def laplace_mean_tail(n: int, eps: float) -> float:
    """P(|n^{−1}Σ ζ_i| ≥ ε) exactly (to quadrature accuracy 1e-14) for n unit-variance Laplace
    variables: the sum is G₁ − G₂ with G_k ~ Gamma(n, 1/√2), so
    P(S ≥ t) = ∫_0^∞ f_{G₂}(g)·P(G₁ ≥ t + g) dg; the law is symmetric."""
    t = n * eps
    gamma = stats.gamma(n, scale=UNIT_LAPLACE_SCALE)
    upper, _ = integrate.quad(
        lambda g: gamma.pdf(g) * gamma.sf(t + g), 0, np.inf, epsabs=1e-15, limit=200
    )
    return float(2 * upper)


@Obligation(
    id="ldp.laplace-mean-tail",
    source=f"{LDP_REGRESSION}:L310-324 (Lemma 1)",
    claim=(
        "P(|mean of n unit-variance Laplace| >= eps) <= 2 exp(-n eps^2/4), 0 < eps < 2, "
        "by exact quadrature"
    ),
    method=Method.EXACT,
    no_predicate=f"{STATED_BOUND}: exact tails by quadrature against 2 exp(−nε²/4)",
    kind=Kind.DEMONSTRATION,
    reason=(
        "a Chernoff bound, loose by a factor >= 2.3 on every instance (exact tails by "
        "quadrature): a bound understated 2x still holds; the law of the sums it bounds "
        "is pinned by ldp.in-law-simulation"
    ),
)
def lemma1_quadrature(config: VerifyConfig) -> CheckOutcome:
    """Demonstration: Lemma 1 (L310–324): P(|mean of n unit Laplace| ≥ ε) ≤ 2e^{−nε²/4} for
    0 < ε < 2, by exact quadrature on n ∈ {1, 2, 5, 10, 50, 200} × 10 values of ε
    (``--thorough``: n up to 1000, 19 values). A Chernoff bound: loose by a factor ≥ 2.3 on
    every instance, so a bound understated 2× still holds and cannot be caught here; the law of
    the sums it bounds is pinned by ``ldp.in-law-simulation`` (variance and shape, with an
    ε × 1.25 control). Erratum ldp.erratum.ldp-regression-lemma-1-strict: the proof writes this
    tail "=" the bound; the quadrature shows a strict gap everywhere. The too-strong
    2e^{−nε²} is violated somewhere."""
    ns = (1, 2, 5, 10, 50, 200, 1000) if config.thorough else (1, 2, 5, 10, 50, 200)
    worst_ratio, control_violated = 0.0, False
    for n in ns:
        for eps in np.linspace(0.1, 1.9, 19 if config.thorough else 10):
            exact = laplace_mean_tail(n, float(eps))
            bound = 2 * math.exp(-n * eps**2 / 4)
            worst_ratio = max(worst_ratio, exact / bound)
            control_violated |= exact > 2 * math.exp(-n * eps**2)
    ok = worst_ratio < 1 and control_violated
    return CheckOutcome(
        ok,
        f"max exact/bound = {worst_ratio:.4f} < 1: the bound holds with a relative gap of at "
        f"least {1 - worst_ratio:.1%} (so the printed '=' at L708 is a strict '<'); "
        f"2e^(-n eps^2) violated: {control_violated}",
        {"max_ratio": worst_ratio},
        slack=[Slack("P(|mean| >= eps)", 1.0, worst_ratio)],
    )
