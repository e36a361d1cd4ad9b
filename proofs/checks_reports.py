"""What the objects say about themselves: ``privacy`` / ``privacy_`` equal the theorem's level.

The exact privacy checks decide against the (ε, δ) the caller passed; this check is the other
half: the :class:`~dpspec.contract.PrivacyLevel` a mechanism or fitted learner
reports is the level its theorem states for those arguments — e^ε exactly q^{−k} for a rational
base q (k = Δ for additive noise, 2 for histograms and margins, 2Δ for the corrected exponential
mechanism), ε at most a few 2^−32 roundings below the ε asked (never above),
δ as asked (2δ for PCL2b, Thm A.14), and ``exact_sampler`` True exactly on the float-safe paths.
A report that claims more privacy than the theorem gives (a smaller ε or δ), or less, fails.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from dpspec.contract import PrivacyLevel
from dpspec.learners import (
    PrivateHistogramClassifier,
    PrivateHistogramDensity,
    PrivatePackingClassifier,
    PrivateSemiSupervisedClassifier,
    PrivateUnboundedClassifier,
)
from dpspec.mechanisms import (
    DiscreteLaplaceMechanism,
    ExponentialMechanism,
    LaplaceMechanism,
    NoisyMajorityVote,
    RandomizedResponse,
    StabilityHistogram,
)
from dpspec.proofs.registry import CheckOutcome, VerifyConfig

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
    scores = (lambda d: np.array([0, -1, -2], dtype=np.int64))  # noqa: E731 - a fixed score
    cases: list[tuple[str, Callable[[], PrivacyLevel], float, Any, bool, Fraction | None]] = [
        ("discrete Laplace ε=0.7", lambda: DiscreteLaplaceMechanism(_count, 1, 0.7).privacy,
         0.7, 0, True, None),
        ("discrete Laplace base 1/2 Δ=2", lambda: DiscreteLaplaceMechanism(
            _count, 2, base=half).privacy, 2 * ln2, 0, True, Fraction(4)),
        ("Laplace lattice ε=0.3", lambda: LaplaceMechanism(_count, 1.0, 0.3).privacy,
         0.3, 0, True, None),
        ("Laplace idealised ε=0.3", lambda: LaplaceMechanism(
            _count, 1.0, 0.3, idealised=True).privacy, 0.3, 0, False, None),
        ("exponential ε=0.4", lambda: ExponentialMechanism(scores, 1, 0.4).privacy,
         0.4, 0, True, None),
        ("exponential base 1/2", lambda: ExponentialMechanism(scores, 1, base=half).privacy,
         2 * ln2, 0, True, Fraction(4)),
        ("exponential base 1/2 Δ=2", lambda: ExponentialMechanism(
            scores, 2, base=half).privacy, 4 * ln2, 0, True, Fraction(16)),
        ("randomized response ε=1.1", lambda: RandomizedResponse(3, 1.1).privacy,
         1.1, 0, True, None),
        ("randomized response ratio 3", lambda: RandomizedResponse(
            3, ratio=Fraction(3)).privacy, math.log(3), 0, True, Fraction(3)),
        ("noisy majority ε=0.8", lambda: NoisyMajorityVote(4, 0.8).privacy, 0.8, 0, True, None),
        ("noisy majority base 1/2", lambda: NoisyMajorityVote(4, base=half).privacy,
         2 * ln2, 0, True, Fraction(4)),
        ("stability histogram ε=0.9 δ=1e-4", lambda: StabilityHistogram(
            3, 0.9, 1e-4).privacy, 0.9, 1e-4, True, None),
        ("stability histogram base 1/2", lambda: StabilityHistogram(
            3, base=half, delta=Fraction(1, 50)).privacy, 2 * ln2, Fraction(1, 50), True,
         Fraction(4)),
        ("PCL ε=0.6", lambda: PrivateHistogramClassifier(0.6, random_state=0).fit(X, y).privacy_,
         0.6, 0, True, None),
        ("PCL laplace ε=0.6", lambda: PrivateHistogramClassifier(
            0.6, noise="laplace", random_state=0).fit(X, y).privacy_, 0.6, 0, False, None),
        ("PCL2 ε=0.6", lambda: PrivatePackingClassifier(0.6, random_state=0).fit(X, y).privacy_,
         0.6, 0, True, None),
        ("PCL2b ε=0.5 δ=1e-3", lambda: PrivateUnboundedClassifier(
            0.5, 1e-3, random_state=0).fit(X, y).privacy_, 1.0, 2e-3, True, None),
        ("PCDE ε=0.5 δ=1e-3", lambda: PrivateHistogramDensity(
            0.5, 1e-3, random_state=0).fit(X1).privacy_, 0.5, 1e-3, True, None),
        ("semi-supervised unlabeled ε=0.5 δ=1e-3", lambda: PrivateSemiSupervisedClassifier(
            "threshold", 0.5, 1e-3, label_epsilon=0.7, random_state=0).fit(
                X1[:30], (X1[:30, 0] > 0).astype(np.int64), X1).unlabeled_privacy_,
         0.5, 1e-3, True, None),
        ("semi-supervised label ε=0.7", lambda: PrivateSemiSupervisedClassifier(
            "threshold", 0.5, 1e-3, label_epsilon=0.7, random_state=0).fit(
                X1[:30], (X1[:30, 0] > 0).astype(np.int64), X1).label_privacy_,
         0.7, 0, True, None),
    ]
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
