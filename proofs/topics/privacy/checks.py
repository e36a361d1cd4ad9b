"""Checks of the DP definitions (event-level vs pointwise, hockey stick, group privacy), of
the privacy reports against the theorems, and of the estimator protocol.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import chain, combinations
from typing import Any

import numpy as np

from dpspec.contract import ExactMechanism, Mechanism, PrivacyLevel, PrivateEstimator
from dpspec.learners.estimator import (
    BinaryCellClassifier,
    DataConversionWarning,
    EstimatorProtocol,
    NotFittedError,
    check_binary_label_mask,
    check_binary_labels,
    check_unit_cube,
    check_unit_values,
    model_key,
    unit_cube_array,
)
from dpspec.learners.pcde import PrivateHistogramDensity
from dpspec.learners.pcl import PrivateHistogramClassifier
from dpspec.learners.pcl2 import PrivatePackingClassifier, PrivateUnboundedClassifier
from dpspec.learners.semi_supervised import PrivateSemiSupervisedClassifier, joint_level
from dpspec.mechanisms import (
    RandomizedResponse,
)
from dpspec.mechanisms.base import discrete_laplace_for, epsilon_rational
from dpspec.mechanisms.discrete_laplace import DiscreteLaplaceMechanism
from dpspec.mechanisms.exponential import ExponentialMechanism
from dpspec.mechanisms.laplace import LaplaceMechanism
from dpspec.mechanisms.noisy_majority import NoisyMajorityVote
from dpspec.mechanisms.stability_histogram import StabilityHistogram
from dpspec.proofs.engine.cells import checkerboard_sample
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import (
    CONTRACT,
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
)
from dpspec.proofs.engine.reports import ROUNDING, ReportCase, level_problem, report_cases
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY
from dpspec.spec import privacy
from dpspec.spec.privacy import (
    event_level_dp,
    group_privacy_parameters,
    hockey_stick,
    max_likelihood_ratio,
    satisfies_approx_dp,
    satisfies_group_privacy,
    satisfies_pure_dp,
)

SEED = 20261122


def _random_fraction_dist(rng: np.random.Generator, k: int, zeros: bool) -> dict[int, Fraction]:
    w = rng.integers(0 if zeros else 1, 6, size=k)
    if w.sum() == 0:
        w[0] = 1
    total = int(w.sum())
    return {i: Fraction(int(x), total) for i, x in enumerate(w)}


def _events(k: int) -> list[tuple[int, ...]]:
    return list(chain.from_iterable(combinations(range(k), j) for j in range(1, k + 1)))


def ratio_ignoring_null_outcomes(p: privacy.Dist, q: privacy.Dist) -> Fraction | float:
    """A plausible bug of a likelihood-ratio predicate (the control): the ratio taken only
    where Q > 0, so an outcome only P can produce — an infinite ratio — goes unseen."""
    ratios = [Fraction(p.get(o, 0)) / Fraction(q[o]) for o in q if q[o] > 0]
    return max(ratios, default=0)


@Obligation(
    id="privacy.dp.event-level-equivalence",
    source=f"{BAYES_CONSISTENCY}:L15 (Def 1.1); 002_9f3104e4a0d86722.txt:L425 (privacy loss)",
    claim="for discrete outputs, ε-DP over all events ⇔ the pointwise likelihood-ratio bound",
    method=Method.PROPERTY,
    predicates=(satisfies_pure_dp, event_level_dp, max_likelihood_ratio),
    tests=("tests/test_privacy.py::test_pure_dp_agrees_with_event_level",),
)
def pure_dp_event_equivalence(config: VerifyConfig) -> CheckOutcome:
    """max over events of P(F)/Q(F) equals max over outcomes; pointwise ⇔ event-level;
    control: the ratio taken only where Q > 0 disagrees with the event-level ratio."""
    rng = np.random.default_rng(SEED)
    trials = 600 if config.thorough else 200
    disagreements = 0
    control_disagreements = 0
    for _ in range(trials):
        k = int(rng.integers(1, 6))
        p = _random_fraction_dist(rng, k, zeros=True)
        q = _random_fraction_dist(rng, k, zeros=True)
        ratio = Fraction(int(rng.integers(2, 40)), 10) + 1
        by_event = max(
            (
                sum((p[o] for o in ev), Fraction(0)) / sum((q[o] for o in ev), Fraction(0))
                if sum((q[o] for o in ev), Fraction(0)) > 0
                else (math.inf if sum((p[o] for o in ev), Fraction(0)) > 0 else 0)
                for ev in _events(k)
            ),
            default=0,
        )
        if by_event != privacy.max_likelihood_ratio(p, q):
            disagreements += 1
        if privacy.satisfies_pure_dp(p, q, ratio) != privacy.event_level_dp(p, q, ratio, 0):
            disagreements += 1
        control_disagreements += by_event != ratio_ignoring_null_outcomes(p, q)
    caught = control_disagreements > 0
    return CheckOutcome(
        disagreements == 0 and caught,
        f"{trials} random exact distribution pairs, {disagreements} disagreements; control "
        f"(ratio only where Q > 0): {control_disagreements} disagreements",
        {"trials": trials, "disagreements": disagreements},
        [
            Control(
                "the likelihood ratio taken only where Q > 0",
                caught,
                f"{control_disagreements} of {trials} pairs disagree",
            )
        ],
    )


def hockey_stick_without_positive_part(p: privacy.Dist, q: privacy.Dist, ratio: Fraction) -> Any:
    """A plausible bug of the hockey-stick divergence (the control): the positive part taken
    of the whole sum instead of each outcome's term."""
    keys = set(p) | set(q)
    return max(Fraction(0), sum((p.get(o, 0) - ratio * q.get(o, 0) for o in keys), Fraction(0)))


@Obligation(
    id="privacy.dp.hockey-stick",
    source=f"{BAYES_CONSISTENCY}:L15 (Def 1.1)",
    claim="(ε,δ)-DP for one pair ⇔ the hockey-stick divergence H_{e^ε} ≤ δ both ways",
    method=Method.PROPERTY,
    predicates=(hockey_stick, satisfies_approx_dp, event_level_dp),
    tests=("tests/test_privacy.py::test_hockey_stick_is_sup_over_events",),
)
def hockey_stick_event_equivalence(config: VerifyConfig) -> CheckOutcome:
    """H_{e^ε}(P‖Q) equals the sup over events of P(F) − e^ε Q(F); (ε,δ) forms agree."""
    rng = np.random.default_rng(SEED + 1)
    trials = 600 if config.thorough else 200
    bad = 0
    control_bad = 0
    for _ in range(trials):
        k = int(rng.integers(1, 6))
        p = _random_fraction_dist(rng, k, zeros=True)
        q = _random_fraction_dist(rng, k, zeros=True)
        ratio = Fraction(int(rng.integers(0, 30)), 10) + 1
        delta = Fraction(int(rng.integers(0, 10)), 20)
        sup = max(
            [Fraction(0)]
            + [
                sum((p[o] for o in ev), Fraction(0)) - ratio * sum((q[o] for o in ev), Fraction(0))
                for ev in _events(k)
            ]
        )
        if sup != privacy.hockey_stick(p, q, ratio):
            bad += 1
        control_bad += sup != hockey_stick_without_positive_part(p, q, ratio)
        if privacy.satisfies_approx_dp(p, q, ratio, delta) != privacy.event_level_dp(
            p, q, ratio, delta
        ):
            bad += 1
    caught = control_bad > 0
    return CheckOutcome(
        bad == 0 and caught,
        f"{trials} random pairs, {bad} disagreements; control (positive part of the whole sum): "
        f"{control_bad} disagreements",
        {"trials": trials},
        [
            Control(
                "the positive part of the whole sum, not of each term",
                caught,
                f"{control_bad} of {trials} pairs disagree",
            )
        ],
    )


@Obligation(
    id="privacy.dp.group-privacy",
    source=f"{BAYES_CONSISTENCY}:L15 (Def 1.1, k-fold chaining)",
    claim="(ε,δ)-DP gives (kε, k e^{(k−1)ε} δ) for datasets k changes apart",
    method=Method.PROPERTY,
    predicates=(group_privacy_parameters, satisfies_group_privacy),
    impls=(RandomizedResponse,),
    tests=("tests/test_privacy.py::test_group_privacy_chains",),
)
def group_privacy_chains(config: VerifyConfig) -> CheckOutcome:
    """Three datasets S0 ~ S1 ~ S2 of randomized response on counts: the pair (S0, S2) meets
    the k = 2 group parameters, and fails the k = 1 parameters (the group bound is needed)."""
    ok = True
    tight = False
    for ratio in (Fraction(2), Fraction(3), Fraction(11, 10)):
        mech = RandomizedResponse(2, base=1 / ratio)

        def law(ones: int, m: int = 2, mech: RandomizedResponse = mech) -> privacy.Dist:
            # number of reported ones among m users, ``ones`` of whom hold a 1: exact convolution
            dist: dict[int, Fraction] = {0: Fraction(1)}
            for bit in [1] * ones + [0] * (m - ones):
                p1 = Fraction(mech.local_pmf(bit)[1])
                nxt: dict[int, Fraction] = {}
                for v, pv in dist.items():
                    nxt[v + 1] = nxt.get(v + 1, Fraction(0)) + pv * p1
                    nxt[v] = nxt.get(v, Fraction(0)) + pv * (1 - p1)
                dist = nxt
            return dist

        p0, p2 = law(0), law(2)
        ok &= privacy.satisfies_group_privacy(p0, p2, ratio, 0, 2)
        tight |= not privacy.satisfies_pure_dp(p0, p2, ratio)
    return CheckOutcome(
        ok and tight,
        f"k=2 bound holds: {ok}; k=1 bound fails: {tight}",
        {},
        [Control("group parameters for k − 1 (one ε too few)", tight, "the pair exceeds e^ε")],
    )


@Obligation(
    id="privacy.privacy-report.theorem-levels",
    source=(
        f"{BAYES_CONSISTENCY}:L117-121 (Thm 2.3), L125-147 (Thm 2.4), L193-206 (Thm "
        "3.1), L249-262 (Thm 4.2), L349-371 (Thm 4.11), L466-476 (Thm A.6), L568-570 "
        "(Thm A.14); 002_9f3104e4a0d86722.txt:L655 (exponential mechanism)"
    ),
    claim="privacy / privacy_ report exactly the theorem's (ε, δ) for the caller's arguments",
    method=Method.PROPERTY,
    no_predicate=(
        "the theorems' (ε, δ) written out per case in each topic's reports.py (for the LDP "
        "cases by spec.ldp.prop1_bound, evaluated when the cases are built, not during the "
        "check); the levels' privacy is decided against the spec by the privacy obligations"
    ),
    impls=(
        epsilon_rational,
        PrivacyLevel,
        Mechanism,
        ExactMechanism,
        PrivateEstimator,
        discrete_laplace_for,
        PrivateHistogramClassifier,
        PrivatePackingClassifier,
        PrivateUnboundedClassifier,
        PrivateHistogramDensity,
        PrivateSemiSupervisedClassifier,
        joint_level,
        DiscreteLaplaceMechanism,
        LaplaceMechanism,
        ExponentialMechanism,
        RandomizedResponse,
        NoisyMajorityVote,
        StabilityHistogram,
    ),
)
def privacy_reports(config: VerifyConfig) -> CheckOutcome:
    """Every report case the topics declare (``reports.py``): the object's ``privacy`` /
    ``privacy_`` equals its theorem's level for the caller's arguments; controls: a level whose
    ε is reported 1.25 times too small, and one whose δ is reported half too small, are
    refused."""
    cases = report_cases()
    wrong = {}
    for case in cases:
        problem = level_problem(case.build(), case)
        if problem is not None:
            wrong[case.name] = problem
    right = PrivacyLevel(0.7, math.exp(0.7), 1e-4, True)
    claim = ReportCase("a correct report", PrivacyLevel, False, lambda: right, 0.7, 1e-4)
    low_eps = PrivacyLevel(0.7 / 1.25, math.exp(0.7 / 1.25), 1e-4, True)
    low_delta = PrivacyLevel(0.7, math.exp(0.7), 0.5e-4, True)
    controls = [
        Control("the correct report refused", level_problem(right, claim) is None),
        Control("ε reported 1.25 times too small", level_problem(low_eps, claim) is not None),
        Control("δ reported half too small", level_problem(low_delta, claim) is not None),
    ]
    return CheckOutcome(
        not wrong and all(c.caught for c in controls),
        f"{len(cases) - len(wrong)}/{len(cases)} reports (from the topics' reports.py) equal "
        "the theorem's level" + (f"; wrong: {wrong}" if wrong else ""),
        {"cases": len(cases), "wrong": wrong},
        controls,
        [Slack("relative ε rounding of the reports", ROUNDING, ROUNDING)],
    )


@Obligation(
    id="privacy.estimator.protocol",
    source="scikit-learn estimator protocol (fit/predict/score/get_params/set_params)",
    claim="the learners follow sklearn's public estimator conventions",
    method=Method.PROPERTY,
    no_predicate=f"{CONTRACT}: scikit-learn's estimator conventions, refusals naming the parameter",
    impls=(
        EstimatorProtocol,
        NotFittedError,
        DataConversionWarning,
        BinaryCellClassifier,
        model_key,
        check_binary_labels,
        check_binary_label_mask,
        check_unit_cube,
        unit_cube_array,
        check_unit_values,
    ),
    tests=(
        "tests/test_sklearn_conformance.py::test_sklearn_check_estimator",
        "tests/test_sklearn_conformance.py::test_clip_is_a_per_record_map",
        "tests/test_sklearn_conformance.py::test_errors_are_sklearn_errors",
    ),
    bug_controls=(
        BugControl(
            EstimatorProtocol.set_params,
            "setattr(self, key, value)",
            "None",
            "set_params ignoring the new values",
        ),
    ),
)
def estimator_protocol(config: VerifyConfig) -> CheckOutcome:
    """get_params/set_params round-trip, clone-by-params gives the same model, fit returns
    self, bad input is rejected with named ValueErrors (sklearn's check_estimator is run by
    the test suite when scikit-learn is installed)."""
    rng = np.random.default_rng(SEED + 2)
    X, y = checkerboard_sample(500, rng)
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
        ({"idealised": "gaussian"}, X, y, "idealised"),
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
