"""Checks of the DP definitions (event-level vs pointwise, hockey stick, group privacy), of
the privacy reports against the theorems, and of the estimator protocol.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from itertools import chain, combinations
from typing import Any

import numpy as np

from dpspec.contract import PrivacyLevel
from dpspec.learners import (
    PrivateHistogramDensity,
    PrivatePackingClassifier,
    PrivateSemiSupervisedClassifier,
    PrivateUnboundedClassifier,
)
from dpspec.learners.pcl import PrivateHistogramClassifier
from dpspec.mechanisms import (
    DiscreteLaplaceMechanism,
    ExponentialMechanism,
    LaplaceMechanism,
    NoisyMajorityVote,
    RandomizedResponse,
    StabilityHistogram,
)
from dpspec.proofs.engine.cells import checkerboard_sample
from dpspec.proofs.engine.registry import CheckOutcome, VerifyConfig
from dpspec.spec import privacy

SEED = 20261122


def _random_fraction_dist(rng: np.random.Generator, k: int, zeros: bool) -> dict[int, Fraction]:
    w = rng.integers(0 if zeros else 1, 6, size=k)
    if w.sum() == 0:
        w[0] = 1
    total = int(w.sum())
    return {i: Fraction(int(x), total) for i, x in enumerate(w)}


def _events(k: int) -> list[tuple[int, ...]]:
    return list(chain.from_iterable(combinations(range(k), j) for j in range(1, k + 1)))


def pure_dp_event_equivalence(config: VerifyConfig) -> CheckOutcome:
    """max over events of P(F)/Q(F) equals max over outcomes; pointwise ⇔ event-level."""
    rng = np.random.default_rng(SEED)
    trials = 600 if config.thorough else 200
    disagreements = 0
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
    return CheckOutcome(
        disagreements == 0,
        f"{trials} random exact distribution pairs, {disagreements} disagreements",
        {"trials": trials, "disagreements": disagreements},
    )


def hockey_stick_event_equivalence(config: VerifyConfig) -> CheckOutcome:
    """H_{e^ε}(P‖Q) equals the sup over events of P(F) − e^ε Q(F); (ε,δ) forms agree."""
    rng = np.random.default_rng(SEED + 1)
    trials = 600 if config.thorough else 200
    bad = 0
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
        if privacy.satisfies_approx_dp(p, q, ratio, delta) != privacy.event_level_dp(
            p, q, ratio, delta
        ):
            bad += 1
    return CheckOutcome(bad == 0, f"{trials} random pairs, {bad} disagreements", {"trials": trials})


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
    return CheckOutcome(ok and tight, f"k=2 bound holds: {ok}; k=1 bound fails: {tight}", {})


#: ε is rounded down to a rational with denominator ≤ 2^32 (``epsilon_rational``) and scales up;
#: the effective ε may sit this far (relative) below the ε asked, never above.
ROUNDING = 2.0**-28


def _level_ok(
    level: PrivacyLevel,
    epsilon: float,
    delta: float | Fraction,
    exact: bool,
    ratio: Fraction | None = None,
) -> str | None:
    """None when ``level`` is the theorem's level, else what is wrong."""
    if ratio is not None and level.ratio != ratio:
        return f"ratio {level.ratio} != {ratio}"
    if not epsilon * (1 - ROUNDING) - 1e-12 <= level.epsilon <= epsilon * (1 + 1e-12):
        return f"epsilon {level.epsilon} vs theorem {epsilon}"
    if not math.isclose(float(level.ratio), math.exp(level.epsilon), rel_tol=1e-9):
        return f"ratio {float(level.ratio)} != e^epsilon {math.exp(level.epsilon)}"
    if level.delta != delta and not math.isclose(float(level.delta), float(delta), rel_tol=1e-12):
        return f"delta {level.delta} vs theorem {delta}"
    if level.exact_sampler != exact:
        return f"exact_sampler {level.exact_sampler} vs {exact}"
    return None


def _count(d: Any) -> int:
    return int(np.sum(np.asarray(d) == 1))


def _cases() -> list[tuple[str, Callable[[], PrivacyLevel], float, Any, bool, Fraction | None]]:
    """(name, report, theorem ε, theorem δ, exact sampler, exact ratio or None)."""
    rng = np.random.default_rng(0)
    X = rng.random((60, 2))
    y = (X[:, 0] > 0.5).astype(np.int64)
    X1 = rng.standard_normal((4000, 1))
    half = Fraction(1, 2)
    ln2 = math.log(2)
    scores = lambda d: np.array([0, -1, -2], dtype=np.int64)  # noqa: E731 - a fixed score
    cases: list[tuple[str, Callable[[], PrivacyLevel], float, Any, bool, Fraction | None]] = [
        (
            "discrete Laplace ε=0.7",
            lambda: DiscreteLaplaceMechanism(_count, 1, 0.7).privacy,
            0.7,
            0,
            True,
            None,
        ),
        (
            "discrete Laplace base 1/2 Δ=2",
            lambda: DiscreteLaplaceMechanism(_count, 2, base=half).privacy,
            2 * ln2,
            0,
            True,
            Fraction(4),
        ),
        (
            "Laplace lattice ε=0.3",
            lambda: LaplaceMechanism(_count, 1.0, 0.3).privacy,
            0.3,
            0,
            True,
            None,
        ),
        (
            "Laplace idealised ε=0.3",
            lambda: LaplaceMechanism(_count, 1.0, 0.3, idealised=True).privacy,
            0.3,
            0,
            False,
            None,
        ),
        (
            "exponential ε=0.4",
            lambda: ExponentialMechanism(scores, 1, 0.4).privacy,
            0.4,
            0,
            True,
            None,
        ),
        (
            "exponential base 1/2",
            lambda: ExponentialMechanism(scores, 1, base=half).privacy,
            2 * ln2,
            0,
            True,
            Fraction(4),
        ),
        (
            "exponential base 1/2 Δ=2",
            lambda: ExponentialMechanism(scores, 2, base=half).privacy,
            4 * ln2,
            0,
            True,
            Fraction(16),
        ),
        (
            "randomized response ε=1.1",
            lambda: RandomizedResponse(3, 1.1).privacy,
            1.1,
            0,
            True,
            None,
        ),
        (
            "randomized response ratio 3",
            lambda: RandomizedResponse(3, base=Fraction(1, 3)).privacy,
            math.log(3),
            0,
            True,
            Fraction(3),
        ),
        ("noisy majority ε=0.8", lambda: NoisyMajorityVote(4, 0.8).privacy, 0.8, 0, True, None),
        (
            "noisy majority base 1/2",
            lambda: NoisyMajorityVote(4, base=half).privacy,
            2 * ln2,
            0,
            True,
            Fraction(4),
        ),
        (
            "stability histogram ε=0.9 δ=1e-4",
            lambda: StabilityHistogram(3, 0.9, 1e-4).privacy,
            0.9,
            1e-4,
            True,
            None,
        ),
        (
            "stability histogram base 1/2",
            lambda: StabilityHistogram(3, base=half, delta=Fraction(1, 50)).privacy,
            2 * ln2,
            Fraction(1, 50),
            True,
            Fraction(4),
        ),
        (
            "PCL ε=0.6",
            lambda: PrivateHistogramClassifier(0.6, random_state=0).fit(X, y).privacy_,
            0.6,
            0,
            True,
            None,
        ),
        (
            "PCL laplace ε=0.6",
            lambda: (
                PrivateHistogramClassifier(0.6, idealised=True, random_state=0).fit(X, y).privacy_
            ),
            0.6,
            0,
            False,
            None,
        ),
        (
            "PCL2 ε=0.6",
            lambda: PrivatePackingClassifier(0.6, random_state=0).fit(X, y).privacy_,
            0.6,
            0,
            True,
            None,
        ),
        (
            "PCL2b ε=0.5 δ=1e-3",
            lambda: PrivateUnboundedClassifier(0.5, 1e-3, random_state=0).fit(X, y).privacy_,
            1.0,
            2e-3,
            True,
            None,
        ),
        (
            "PCDE ε=0.5 δ=1e-3",
            lambda: PrivateHistogramDensity(0.5, 1e-3, random_state=0).fit(X1).privacy_,
            0.5,
            1e-3,
            True,
            None,
        ),
    ]
    labels = (X1[:30, 0] > 0).astype(np.int64)

    def semi_supervised(label_epsilon: float) -> PrivacyLevel:
        return (
            PrivateSemiSupervisedClassifier(
                "threshold", 0.5, 1e-3, label_epsilon=label_epsilon, random_state=0
            )
            .fit(X1[:30], labels, X1)
            .privacy_
        )

    for label_epsilon, which in ((0.7, "the label level"), (0.3, "PCDE's level")):
        cases.append(
            (
                f"semi-supervised ε=0.5 δ=1e-3, ε_label={label_epsilon} (max = {which})",
                partial(semi_supervised, label_epsilon),
                max(0.5, label_epsilon),
                1e-3,
                True,
                None,
            )
        )
    return cases


def privacy_reports(config: VerifyConfig) -> CheckOutcome:
    """Every mechanism's ``privacy`` and learner's ``privacy_`` equals its theorem's level for
    the caller's arguments (20 constructions); control: a level with ε halved is refused."""
    wrong: dict[str, str] = {}
    cases = _cases()
    for name, report, eps, delta, exact, ratio in cases:
        problem = _level_ok(report(), eps, delta, exact, ratio)
        if problem is not None:
            wrong[name] = problem
    halved = PrivacyLevel(0.35, math.exp(0.35), 0, True)
    control_caught = _level_ok(halved, 0.7, 0, True) is not None
    return CheckOutcome(
        not wrong and control_caught,
        f"{len(cases) - len(wrong)}/{len(cases)} reports equal the theorem's level"
        + (f"; wrong: {wrong}" if wrong else "")
        + f"; control (ε halved) refused: {control_caught}",
        {"cases": len(cases), "wrong": wrong, "control_caught": control_caught},
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
