"""Every privacy-stating object of the rectangles family against the caller's (ε, δ), over a
Hypothesis strategy of parameters with their boundary values, both values of ``idealised``."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any

import numpy as np

from dpspec.proofs.engine.exact import RTOL
from dpspec.proofs.engine.registry import (
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
)
from dpspec.proofs.engine.seeds import THESIS
from dpspec.proofs.topics.rectangles.checks import HotMedian, learner_data, learner_law
from dpspec.rectangles import (
    ExponentialMedian,
    PrivateRectangleClassifier,
    RandMarginsParameters,
    baseline_step,
    interior_point_sample_complexity,
)
from dpspec.rectangles.classifier import Accounting, per_call_level
from dpspec.rectangles.rand_margins import interior_point_baseline
from dpspec.spec.neighbours import Relation, neighbouring_pairs
from dpspec.spec.privacy import (
    Dist,
    max_likelihood_ratio,
    satisfies_approx_dp,
    satisfies_pure_dp,
)

#: The smallest per-call level (ε₀ ≥ 2^-10).
LEAST = 2**-10


class SplitClassifier(PrivateRectangleClassifier):
    """The learner with its budget split over d − 1 calls (one call unpaid)."""

    def _parameters(self, d: int) -> tuple[RandMarginsParameters, str, float]:
        params, used, reported = super()._parameters(d)
        eps0 = float(self.epsilon) / max(1, d - 1)
        return (
            RandMarginsParameters(
                params.grid_max, eps0, params.beta, params.tags, params.idealised
            ),
            used,
            reported,
        )


@dataclass
class Findings:
    """What the examples found: problems of the real objects, and what each control did."""

    examples: int = 0
    problems: list[str] = field(default_factory=list)
    caught: dict[str, int] = field(default_factory=dict)
    trials: dict[str, int] = field(default_factory=dict)
    worst_fraction: float = 0.0  # max ln(measured ratio)/ε over the examples

    def control(self, bug: str, flagged: bool) -> None:
        self.caught[bug] = self.caught.get(bug, 0) + int(flagged)
        self.trials[bug] = self.trials.get(bug, 0) + 1


def _pairs(d: int, grid_max: int) -> list[tuple[Any, Any]]:
    corners = tuple(product((0, grid_max), repeat=d))
    return list(neighbouring_pairs(corners, 2, Relation.ADD_REMOVE))


def _worst(law: Any, pairs: Sequence[tuple[Any, Any]]) -> float:
    return max(
        float(max(max_likelihood_ratio(law(a), law(b)), max_likelihood_ratio(law(b), law(a))))
        for a, b in pairs
    )


def _baseline_law(
    positives: Sequence[Any], d: int, grid_max: int, epsilon: float, delta: float, beta: float
) -> Dist:
    """The exact law of ``interior_point_baseline``: per axis the median at the per-axis level
    on the IP_A largest coordinates, independently (the product of the axes' ``pmf``)."""
    step = baseline_step(epsilon, delta, d)
    n = interior_point_sample_complexity(grid_max, step, beta)
    median = ExponentialMedian(step, grid_max=grid_max)
    axes = []
    for i in range(d):
        column = sorted(p[i] for p in positives)[-n:] if positives else []
        axes.append(median.pmf(np.array(column, dtype=np.int64)))
    law: dict[tuple[int, ...], float] = {}
    for corner in product(*(list(a.items()) for a in axes)):
        law[tuple(x for x, _ in corner)] = math.prod(float(p) for _, p in corner)
    return law


def _one(
    found: Findings,
    epsilon: float,
    delta: float,
    d: int,
    grid_max: int,
    beta: float,
    tags: int,
    idealised: bool,
) -> None:
    """One example: the learner, its parameters, its interior point and the baseline."""
    label = f"(ε={epsilon:g}, δ={delta:g}, d={d}, X={grid_max}, β={beta:g}, T={tags}, {idealised})"
    found.examples += 1
    clf = PrivateRectangleClassifier(epsilon, delta, grid_max, beta, tags, idealised=idealised)
    X, y = learner_data(((grid_max,) * d, (0,) * d), d, grid_max)
    fitted = clf.fit(X, y)
    level, params = fitted.privacy_, fitted.parameters_
    expected_call = epsilon / d
    report_ok = (
        level.epsilon <= epsilon * (1 + 1e-12)
        and level.delta == 0
        and level.exact_sampler == (not idealised)
        and level.relation is Relation.ADD_REMOVE
        and math.isclose(fitted.epsilon_call_, expected_call, rel_tol=1e-12)
        and params.privacy.epsilon <= params.epsilon * (1 + 1e-12)
        and math.isclose(params.run_privacy(d).epsilon, d * params.privacy.epsilon, rel_tol=1e-12)
    )
    if not report_ok:
        found.problems.append(f"{label}: reported {level}, ε₀ = {fitted.epsilon_call_}")
    pairs = _pairs(d, grid_max)
    ratio = _worst(learner_law(clf, d), pairs)
    found.worst_fraction = max(found.worst_fraction, math.log(ratio) / epsilon)
    if ratio > math.exp(epsilon) * (1 + RTOL):
        found.problems.append(f"{label}: fit's law has ratio {ratio:.6g} > e^ε")
    split = SplitClassifier(epsilon, delta, grid_max, beta, tags, idealised=idealised)
    if d > 1:
        try:
            bad = split.fit(X, y)
            flagged = not math.isclose(
                bad.epsilon_call_, expected_call, rel_tol=1e-12
            ) or bad.privacy_.epsilon > epsilon * (1 + 1e-12)
        except ValueError:  # its level is beyond every limit: refused, visibly
            flagged = True
        found.control("the budget split over d − 1 calls", flagged)
    baseline = {c: _baseline_law(c, d, grid_max, epsilon, delta, beta) for p in pairs for c in p}
    for a, b in pairs:
        holds = (
            satisfies_approx_dp(baseline[a], baseline[b], math.exp(epsilon), delta, RTOL)
            if delta > 0
            else satisfies_pure_dp(baseline[a], baseline[b], math.exp(epsilon), RTOL)
        )
        if not holds:
            found.problems.append(f"{label}: the baseline's law violates (ε, δ) on {a} vs {b}")
            break
    _median_example(found, epsilon / d, grid_max, idealised, label)


def _median_example(
    found: Findings, epsilon: float, grid_max: int, idealised: bool, label: str
) -> None:
    """The exponential median at the per-call level on the grid and on {0..1023}: its report
    and its worst ratio on the near-tight pairs {0^a, X^b} → one point moved (substitution)."""
    for grid in (grid_max, 1023):
        median = ExponentialMedian(epsilon, grid_max=grid, idealised=idealised)
        if median.privacy.epsilon > epsilon * (1 + 1e-12) or median.privacy.delta != 0:
            found.problems.append(f"{label}: ExponentialMedian reports {median.privacy}")
        pairs = list(neighbouring_pairs((0, grid), 2, Relation.SUBSTITUTE, min_size=1))

        def law(m: ExponentialMedian) -> Any:
            return lambda data: m.pmf(np.array(data, dtype=np.int64))

        limit = math.exp(epsilon) * (1 + RTOL)
        if _worst(law(median), pairs) > limit:
            found.problems.append(f"{label}: ExponentialMedian on {{0..{grid}}} exceeds e^ε")
        if 1.25 * epsilon <= 700:
            hot = HotMedian(grid, epsilon, 0.2, 1, idealised).interior_point()
            found.control("the interior point drawn for ε × 1.25", _worst(law(hot), pairs) > limit)


@Obligation(
    id="rectangles.privacy-report",
    source=f"{THESIS}:L1320-1336 (Algorithm 4, Thm 5.2.4); {THESIS}:L1223-1232 (baseline)",
    claim=(
        "over a Hypothesis strategy of (ε, δ, d, X, β, T, idealised) with boundary "
        "values, every privacy-stating object (the learner, RandMarginsParameters, the "
        "baseline, the exponential median) reports at most and keeps the caller's (ε, δ) "
        "exactly"
    ),
    method=Method.PROPERTY,
    predicates=(satisfies_pure_dp, satisfies_approx_dp),
    impls=(
        PrivateRectangleClassifier,
        per_call_level,
        Accounting,
        RandMarginsParameters,
        interior_point_baseline,
        baseline_step,
        ExponentialMedian,
    ),
    entry_points=(
        PrivateRectangleClassifier.fit,
        PrivateRectangleClassifier.release_law,
        baseline_step,
        RandMarginsParameters.run_privacy,
        ExponentialMedian.pmf,
    ),
    tests=("tests/test_rectangles.py::test_reproducers_of_issue_20",),
    privacy=True,
)
def privacy_parameters(config: VerifyConfig) -> CheckOutcome:
    """Over a Hypothesis strategy of (ε, δ, d, X, β, T, idealised) — boundary values (the least
    per-axis level d·2^-10, ε = 700, δ = 0 and δ → 1, β → 0 and β → 1/4, T = 1) and drawn
    non-integer ones — every privacy-stating object of the family against the caller's (ε, δ):
    ``PrivateRectangleClassifier`` (``privacy_`` ≤ the caller's ε with δ = 0, ``exact_sampler``
    = not idealised, ε₀ = ε/d by the closed form, and the exact law of ``fit`` on every
    add/remove pair of ≤ 2 positives of {0, X}^d within e^ε), ``RandMarginsParameters``
    (``privacy`` ≤ its ε, ``run_privacy(d)`` = d times it), ``interior_point_baseline`` (its
    exact law, the product of its axes' medians, (ε, δ)-DP) and ``ExponentialMedian`` (its
    report, and its worst substitution ratio on {0, X} and {0, 1023} within e^ε). Controls: the
    budget split over d − 1 calls; the interior point drawn for ε × 1.25 (caught on the
    examples where {0..1023} is large against e^ε)."""
    from hypothesis import HealthCheck, example, given, settings
    from hypothesis import strategies as st

    found = Findings()
    boundary_eps = st.sampled_from([2 * LEAST, 0.37, 1.0, 2.0, 7.5, 700.0])
    drawn_eps = st.floats(min_value=2 * LEAST, max_value=700.0, allow_nan=False)

    @settings(
        max_examples=80 if config.thorough else 16,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        st.one_of(boundary_eps, drawn_eps),
        st.sampled_from([0.0, 1e-12, 1e-6, 0.5, 1 - 2**-40]),
        st.sampled_from([1, 2]),
        st.sampled_from([1, 2]),
        st.sampled_from([1e-9, 0.05, 0.25 - 2**-40]),
        st.sampled_from([1, 2, 3]),
        st.booleans(),
    )
    @example(2.0, 0.0, 1, 1, 0.05, 1, False)
    @example(2.0, 1e-6, 2, 2, 0.24, 2, True)
    @example(2 * LEAST, 0.0, 2, 1, 0.25 - 2**-40, 3, False)
    @example(700.0, 1e-6, 2, 2, 1e-9, 1, True)
    def one(
        epsilon: float,
        delta: float,
        d: int,
        grid_max: int,
        beta: float,
        tags: int,
        idealised: bool,
    ) -> None:
        _one(found, epsilon, delta, d, grid_max, beta, tags, idealised)

    one()
    controls = [
        Control(bug, count > 0, f"flagged on {count} of {found.trials[bug]} cases")
        for bug, count in sorted(found.caught.items())
    ]
    ok = not found.problems and all(c.caught for c in controls)
    return CheckOutcome(
        ok,
        f"{found.examples} examples: problems {found.problems[:5] or 'none'}; worst ln ratio / ε "
        f"of fit's law {found.worst_fraction:.3g}; "
        + "; ".join(f"control {c.bug}: {c.measured}" for c in controls),
        {"examples": found.examples, "problems": found.problems},
        controls,
        [Slack("ε / ε measured (fit's law)", 1.0, found.worst_fraction)],
    )
