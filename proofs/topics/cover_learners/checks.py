"""Privacy checks of seed 004 (Chaudhuri–Hsu): A1/A1r (α-private, Def 3, Thm 7) and A2 (α-label
private, Def 2, Thm 26) through their release laws and their real ``fit``, for the caller's ε,
both values of ``idealised``, over a Hypothesis strategy of parameters; the privacy report;
label privacy implied by privacy; group privacy (Lemma 22); A2 not private under Def 3.

Every privacy check reports its control — the same learner with its selection step calibrated
for ε × 1.25 (:func:`~dpspec.proofs.topics.cover_learners.common.overspent`) — and its slack
(the claimed ε against the worst ln ratio found). Instances are chosen where the mechanism comes
near its level: the tight pairs of :func:`tight_pairs` change the label of the one example that
only a single candidate classifies positive, in a sample where that candidate is unlikely.

The other checks of the topic live in ``utility.py`` (Thms 8, 9, 27 and the score/predict
agreement), ``lower_bounds.py`` (Thm 5, Lemma 11, Thm 12), ``geometry.py`` (covers, smoothness,
Examples 1–3, Lemmas 14–17, 19–21, 25) and ``errata_checks.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import combinations
from typing import Any

import numpy as np

from dpspec.audit import audit
from dpspec.cover_learners import LabelPrivateCoverClassifier, PrivateCoverClassifier
from dpspec.cover_learners.hypotheses import (
    Boxes,
    empirical_threshold_cover,
    interval_grid,
    threshold_grid,
)
from dpspec.learners.semi_supervised import exponential_choice
from dpspec.mechanisms.exponential import ExponentialMechanism
from dpspec.proofs.engine.conformance import (
    ConformanceReport,
    conformance,
    conformance_rng,
    draws,
    power_against,
)
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.exact import Dataset, ExactReport, control_of, slack_of, verify_pairs
from dpspec.proofs.engine.registry import (
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
)
from dpspec.proofs.engine.seeds import CHAUDHURI_HSU
from dpspec.proofs.topics.cover_learners.common import (
    DOMAIN,
    LAW_RTOL,
    OVERSPEND,
    SEED,
    Learner,
    arrays,
    learner_law,
    overspend_is_visible,
    overspent,
    verify_learner,
)
from dpspec.spec.neighbours import Relation, datasets, is_neighbour, neighbouring_pairs
from dpspec.spec.privacy import max_likelihood_ratio, satisfies_group_privacy, satisfies_pure_dp
from dpspec.validation import rational_at_most

Make = Callable[..., Learner]

# ---------------------------------------------------------------------------------------------
# Tight pairs: where the exponential mechanism comes near its level


def tight_pairs(learner: Learner, epsilon: float) -> list[tuple[Dataset, Dataset]]:
    """Neighbouring datasets (a label change, hence also a substitution) on which the learner's
    worst ln ratio approaches ε: m examples at distinct x, all labelled 0, against the same with
    the smallest x relabelled 1, where the smallest x is the lowest threshold of the learner's
    grid (A1, thresholds: only that candidate gains), 0 (A1, intervals: only the intervals
    [0, j/J] gain; the other examples sit at 1/J) or the smallest sample value (A2: only the
    threshold at it gains). Under the first dataset the gaining candidates carry little mass,
    so the normaliser falls by almost e^{−ε/2} while their weight rises by e^{ε/2}. m = 8, or
    2 above ε = 50 (the float law of larger samples underflows there)."""
    m = 8 if epsilon <= 50 else 2
    xs = [0.3 + 0.6 * i / m for i in range(m)]
    if isinstance(learner, PrivateCoverClassifier):
        X, _ = arrays(tuple((x, 0) for x in xs))
        grid = learner.candidates(X)
        if learner.hypothesis_class == "interval":
            # 0 and, m − 1 times, the first grid end 1/J: the intervals [0, j/J] that gain
            # hold every point, so they are the least likely under the first dataset
            xs = [0.0] + [float(grid.upper[0])] * (m - 1)
        else:
            xs[0] = float(grid.lower[0])
    S = tuple((x, 0) for x in xs)
    return [(S, ((xs[0], 1), *S[1:]))]


def privacy_at(
    make: Make, epsilon: float, accuracy: float, idealised: bool, relation: Relation, size: int
) -> tuple[ExactReport, ExactReport, ExactReport | None]:
    """The exact check of one parameter point: every ``relation`` pair of datasets of size
    ≤ ``size`` over :data:`DOMAIN` and the tight pairs (claimed: the caller's ε); and the
    control — the learner calibrated for ε × 1.25 — on the tight pairs (on the idealised path
    where the exact sampler's rounding or its ε ≤ 700 hides the bug; None when neither shows
    it)."""
    learner = make(epsilon, accuracy, idealised=idealised)
    every = verify_learner(learner, relation, size, f"{'float' if idealised else 'exact'} pairs")
    tight = verify_pairs(
        "tight pairs",
        learner_law(learner),
        tight_pairs(learner, epsilon),
        math.exp(epsilon),
        relation=relation,
        rtol=LAW_RTOL,
    )
    path = idealised if overspend_is_visible(epsilon, idealised) else True
    control = None
    if overspend_is_visible(epsilon, path):
        bugged = overspent(make(epsilon, accuracy, idealised=path))
        control = verify_pairs(
            f"control: {type(learner).__name__} drawn for ε × {OVERSPEND}",
            learner_law(bugged),
            tight_pairs(bugged, epsilon),
            math.exp(epsilon),
            relation=relation,
            rtol=LAW_RTOL,
        )
    return every, tight, control


def _sweep(make: Make, relation: Relation, accuracies: list[float], config: VerifyConfig) -> Any:
    """``privacy_at`` over a Hypothesis strategy of (ε, accuracy): the boundaries of ε's domain
    (2^-32, 700), non-integer values between (derandomized, so verdicts reproduce), accuracies
    giving grids that are not powers of two apart from 1/accuracy, and both values of
    ``idealised``. Returns (reports, controls, points)."""
    from hypothesis import HealthCheck, example, given, settings
    from hypothesis import strategies as st

    found: list[tuple[float, float, bool, ExactReport, ExactReport, ExactReport | None]] = []

    @settings(
        max_examples=6 if config.thorough else 2,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        st.floats(min_value=2**-32, max_value=700.0, allow_nan=False),
        st.sampled_from(accuracies),
    )
    @example(2**-32, accuracies[0])
    @example(700.0, accuracies[-1])
    @example(1 / 3, accuracies[0])
    @example(2.5, accuracies[-1])
    def point(epsilon: float, accuracy: float) -> None:
        for idealised in (False, True):
            every, tight, control = privacy_at(make, epsilon, accuracy, idealised, relation, 2)
            found.append((epsilon, accuracy, idealised, every, tight, control))

    point()
    return found


def _sweep_outcome(name: str, found: Any) -> tuple[bool, str, list[Control], list[Slack]]:
    """Every point holds on all pairs and on the tight pairs; every control shows the bug."""
    bad = [
        f"ε={e:.4g}, acc={a:g}, idealised={i}"
        for e, a, i, every, tight, _ in found
        if not (every.holds and tight.holds)
    ]
    controls = [(e, a, i, c) for e, a, i, _, _, c in found if c is not None]
    missed = [f"ε={e:.4g}" for e, _, _, c in controls if c.holds]
    ratios = [_ln(tight.worst_ratio) / e for e, _, _, _, tight, _ in found if e >= 1e-6]
    detail = (
        f"{name}: {len(found)} parameter points (ε from 2^-32 to 700, both idealised): "
        f"{'all hold' if not bad else f'VIOLATED at {bad}'}; tight pairs reach "
        f"{min(ratios):.3f}–{max(ratios):.3f} of ε; control ε × {OVERSPEND} caught at "
        f"{len(controls) - len(missed)}/{len(controls)} points"
    )
    worst = max(found, key=lambda f: _ln(f[4].worst_ratio) / f[0])
    control_list = [
        Control(
            f"{name} drawn for ε × {OVERSPEND} (Hypothesis points)",
            bool(controls) and not missed,
            f"caught at {len(controls) - len(missed)}/{len(controls)} points",
        )
    ]
    slack = [
        Slack(f"ε at the tightest point (ε = {worst[0]:.4g})", worst[0], _ln(worst[4].worst_ratio))
    ]
    return not bad and bool(controls) and not missed, detail, control_list, slack


def _ln(ratio: Any) -> float:
    r = float(ratio)
    return math.inf if math.isinf(r) else math.log(r) if r > 0 else -math.inf


# ---------------------------------------------------------------------------------------------
# fit conforms to release_law


def fit_conformance(
    make: Make, tag: int, idealised: bool, config: VerifyConfig
) -> ConformanceReport:
    """``fit`` of ``make(α, random_state=seed)`` on a fixed 8-example dataset: the chosen index
    follows ``release_law`` (chi-square, α = 1e-6); control: ``fit`` at 2α."""
    rng = conformance_rng(tag)
    X = rng.random((8, 1))
    y = (X[:, 0] > 0.5).astype(np.int64) ^ (rng.random(8) < 0.3)
    reps = draws(config, 600)
    law = make(1.0, idealised=idealised).release_law(X, y)
    doubled = make(2.0, idealised=idealised).release_law(X, y)

    def at(alpha: float, offset: int) -> Callable[[int], list[int]]:
        return lambda n: [
            make(alpha, idealised=idealised, random_state=offset + r).fit(X, y).choice_
            for r in range(n)
        ]

    report = conformance(
        f"{type(make(1.0)).__name__}.fit ({'idealised' if idealised else 'exact'})",
        law,
        at(1.0, 0),
        at(2.0, 10**6),
        doubled,
        reps,
    )
    report.power = power_against(law, doubled, reps)
    return report


def _privacy_check(
    goods: list[ExactReport],
    controls: list[tuple[ExactReport, str]],
    make: Make,
    tag: int,
    sweep: tuple[bool, str, list[Control], list[Slack]],
    config: VerifyConfig,
) -> CheckOutcome:
    fits = [fit_conformance(make, tag, idealised, config) for idealised in (False, True)]
    swept, sweep_detail, sweep_controls, sweep_slack = sweep
    ok = (
        all(r.holds for r in goods)
        and not any(c.holds for c, _ in controls)
        and all(f.holds for f in fits)
        and swept
    )
    return CheckOutcome(
        ok,
        "; ".join(r.summary() for r in goods)
        + "; controls: "
        + "; ".join(c.summary() for c, _ in controls)
        + "; "
        + "; ".join(f.summary() for f in fits)
        + f"; {sweep_detail}",
        {
            "pairs": sum(r.pairs for r in goods),
            "worst_ratios": [float(r.worst_ratio) for r in goods],
            "conformance_p": [f.pvalue for f in fits],
        },
        [control_of(c, bug) for c, bug in controls] + [f.control for f in fits] + sweep_controls,
        [slack_of(r) for r in goods] + sweep_slack,
    )


def _a1_make(**fixed: Any) -> Make:
    def make(epsilon: float, accuracy: float = 0.5, **kw: Any) -> Learner:
        return PrivateCoverClassifier(epsilon, accuracy, **fixed, **kw)

    return make


def _a2_make(epsilon: float, accuracy: float = 0.1, **kw: Any) -> Learner:
    return LabelPrivateCoverClassifier(epsilon, accuracy, **kw)


def _fixed(make: Make, accuracy: float, relation: Relation, size: int, name: str) -> list[Any]:
    """The fixed instance at ε = 1 on all pairs of size ≤ ``size`` (≤ 2 for the idealised
    float law) and on the tight pairs, and its ×1.25 control on the tight pairs."""
    reports: list[ExactReport] = []
    controls: list[tuple[ExactReport, str]] = []
    for idealised in (False, True):
        largest = min(size, 2) if idealised else size  # the float law: the small instance
        every, tight, control = privacy_at(make, 1.0, accuracy, idealised, relation, largest)
        label = f"{name} ({'idealised' if idealised else 'exact'})"
        every.name, tight.name = f"{label}, |S| ≤ {largest}", f"{label}, tight pairs"
        reports += [every, tight]
        if control is not None:
            controls.append((control, f"{label}: selection calibrated for ε × {OVERSPEND}"))
    return [reports, controls]


#: The code A1 and A1r run: the learner, its public grids and boxes, the exponential choice.
_A1_CODE = (
    PrivateCoverClassifier,
    threshold_grid,
    interval_grid,
    Boxes,
    exponential_choice,
    ExponentialMechanism,
)


@Obligation(
    id="cover-learners.a1.privacy",
    source=(
        f"{CHAUDHURI_HSU}:L842-857 (Fig. 1, A1); {CHAUDHURI_HSU}:L139-141 (Def 3); "
        f"{CHAUDHURI_HSU}:L256-258 (Thm 7)"
    ),
    claim=(
        "A1 (exponential mechanism over a public cover, weights exp(-α m err/2)) is "
        "α-private under substitution of one example, for the ε = α the caller passed, "
        "exact and idealised, over ε ∈ [2^-32, 700]"
    ),
    method=Method.EXACT,
    predicates=(satisfies_pure_dp,),
    impls=_A1_CODE,
    entry_points=(
        "dpspec.cover_learners.learners.PrivateCoverClassifier.fit",
        "dpspec.cover_learners.learners.PrivateCoverClassifier.release_law",
    ),
    tests=(
        "tests/test_cover_learners.py::test_a1_privacy_by_hand",
        "tests/test_cover_learners.py::test_fit_draws_from_release_law",
    ),
    privacy=True,
)
def a1_privacy(config: VerifyConfig) -> CheckOutcome:
    """Thm 7 (α-privacy of A1, Def 3) for the caller's ε, through ``release_law`` and the real
    ``fit``: at ε = 1 every substitution pair of datasets of size ≤ 3 over :data:`DOMAIN`
    (thresholds, |G| = 32; 4 with ``--thorough``) and ≤ 2 for intervals (|G| = 137), plus the
    tight pairs, both values of ``idealised``; over a Hypothesis strategy of ε ∈ [2^-32, 700]
    and accuracies; ``fit`` conforms to ``release_law`` (exact and idealised). Controls: the
    same learner drawn for ε × 1.25 (caught on the tight pairs), ``fit`` drawn at 2ε."""
    size = 4 if config.thorough else 3
    thresholds = _a1_make(hypothesis_class="threshold")
    intervals = _a1_make(hypothesis_class="interval")
    goods, controls = _fixed(thresholds, 0.1, Relation.SUBSTITUTE, size, "A1 thresholds")
    more, more_controls = _fixed(intervals, 0.25, Relation.SUBSTITUTE, 2, "A1 intervals")
    found = _sweep(thresholds, Relation.SUBSTITUTE, [0.1, 1 / 7], config)
    found += _sweep(intervals, Relation.SUBSTITUTE, [0.25], config)
    return _privacy_check(
        goods + more,
        controls + more_controls,
        _a1_make(hypothesis_class="threshold"),
        400,
        _sweep_outcome("A1", found),
        config,
    )


@Obligation(
    id="cover-learners.a1r.privacy",
    source=f"{CHAUDHURI_HSU}:L861-876 (Fig. 2, A1r); {CHAUDHURI_HSU}:L139-141 (Def 3)",
    claim="A1r (the realizable sample-size equation, same mechanism) is α-private",
    method=Method.EXACT,
    predicates=(satisfies_pure_dp,),
    impls=_A1_CODE,
    entry_points=(
        "dpspec.cover_learners.learners.PrivateCoverClassifier.fit",
        "dpspec.cover_learners.learners.PrivateCoverClassifier.release_law",
    ),
    tests=("tests/test_cover_learners.py::test_a1_privacy_by_hand",),
    privacy=True,
)
def a1r_privacy(config: VerifyConfig) -> CheckOutcome:
    """Thm 7 for A1r (Fig. 2: the realizable κ̂, the same mechanism): as ``a1_privacy`` on
    thresholds (κ̂ and so G depend on the public m only)."""
    size = 4 if config.thorough else 3
    make = _a1_make(hypothesis_class="threshold", realizable=True)
    goods, controls = _fixed(make, 0.1, Relation.SUBSTITUTE, size, "A1r thresholds")
    found = _sweep(make, Relation.SUBSTITUTE, [0.1, 1 / 7], config)
    return _privacy_check(goods, controls, make, 401, _sweep_outcome("A1r", found), config)


@Obligation(
    id="cover-learners.a2.label-privacy",
    source=(
        f"{CHAUDHURI_HSU}:L880-889 (Fig. 3, A2); {CHAUDHURI_HSU}:L135-137 (Def 2); "
        f"{CHAUDHURI_HSU}:L796-798 (Thm 26)"
    ),
    claim=(
        "A2 (cover of (H, ρ_X) from the sample's x's) is α-label private for the "
        "caller's ε, exact and idealised"
    ),
    method=Method.EXACT,
    predicates=(satisfies_pure_dp,),
    impls=(
        LabelPrivateCoverClassifier,
        empirical_threshold_cover,
        Boxes,
        exponential_choice,
        ExponentialMechanism,
    ),
    entry_points=(
        "dpspec.cover_learners.learners.LabelPrivateCoverClassifier.fit",
        "dpspec.cover_learners.learners.LabelPrivateCoverClassifier.release_law",
    ),
    tests=("tests/test_cover_learners.py::test_a2_is_not_private_under_substitution",),
    privacy=True,
)
def a2_label_privacy(config: VerifyConfig) -> CheckOutcome:
    """Thm 26: A2 is α-label private (Def 2) for the caller's ε: every label-change pair of
    datasets of size ≤ 3 over :data:`DOMAIN` (4 with ``--thorough``) and the tight pairs, both
    values of ``idealised``, over the Hypothesis strategy of ε; ``fit`` conforms to
    ``release_law``. Controls: ε × 1.25 on the tight pairs; ``fit`` at 2ε."""
    size = 4 if config.thorough else 3
    goods, controls = _fixed(_a2_make, 0.1, Relation.LABEL, size, "A2")
    found = _sweep(_a2_make, Relation.LABEL, [0.1, 0.3], config)
    return _privacy_check(goods, controls, _a2_make, 402, _sweep_outcome("A2", found), config)


@Obligation(
    id="cover-learners.a2.not-private",
    source=f"{CHAUDHURI_HSU}:L880-889 (Fig. 3, A2); {CHAUDHURI_HSU}:L139-141 (Def 3)",
    claim=(
        "A2 is not α-private under Def 3 (its cover depends on the x's): the exact law "
        "has ratio ∞ on a substitution pair and the auditor flags fit used as fully "
        "private"
    ),
    method=Method.EXACT,
    predicates=(satisfies_pure_dp,),
    impls=(LabelPrivateCoverClassifier, audit),
    entry_points=("dpspec.cover_learners.learners.LabelPrivateCoverClassifier.fit",),
    tests=("tests/test_cover_learners.py::test_a2_is_not_private_under_substitution",),
    privacy=True,
)
def a2_not_private(config: VerifyConfig) -> CheckOutcome:
    """A2 is **not** α-private under Def 3 (its cover is built from the x's): on substitution
    pairs the exact law violates α-DP (the released threshold can be the replaced x itself:
    ratio ∞), and the statistical auditor, run on ``fit`` as a mechanism on that pair, flags the
    α = 1 claim (ε_LCB > 1 at 95 % confidence). Control: A2 with its cover made public — A1 on
    the same pair — is private, and neither the exact check nor the auditor calls it otherwise."""
    learner = LabelPrivateCoverClassifier(1.0, 0.1)
    exact = verify_learner(learner, Relation.SUBSTITUTE, 2, "A2 under substitution")
    public = verify_learner(PrivateCoverClassifier(1.0, 0.1), Relation.SUBSTITUTE, 2, "A1")
    records = (((0.1, 0), (0.8, 1)), ((0.45, 0), (0.8, 1)))
    pair = (arrays(records[0]), arrays(records[1]))
    from dpspec.audit import audit
    from dpspec.audit.learners import LearnerMechanism

    def threshold(model: Learner) -> float:
        return float(model.lower_)

    def a2(seed: int) -> LabelPrivateCoverClassifier:
        return LabelPrivateCoverClassifier(1.0, 0.1, random_state=seed)

    def a1(seed: int) -> PrivateCoverClassifier:
        return PrivateCoverClassifier(1.0, 0.1, random_state=seed)

    samples = 2000 if config.thorough else 300
    flagged = audit(
        LearnerMechanism(a2, threshold), pair, 1.0, samples=samples, seed=SEED, selection=150
    )
    control = audit(
        LearnerMechanism(a1, threshold), pair, 1.0, samples=samples, seed=SEED, selection=150
    )
    control_cleared = public.holds and not control.violation
    ok = not exact.holds and flagged.violation and control_cleared
    return CheckOutcome(
        ok,
        f"{exact.summary()}; auditor on A2.fit: ε_LCB = {flagged.epsilon_lower:.3g} "
        f"(flagged: {flagged.violation}); control (the cover made public: A1): "
        f"{public.summary()}; auditor on A1.fit: ε_LCB = {control.epsilon_lower:.3g} "
        f"(flagged: {control.violation})",
        {
            "exact_worst_ratio": float(exact.worst_ratio),
            "audit_epsilon_lower": flagged.epsilon_lower,
            "control_epsilon_lower": control.epsilon_lower,
        },
        [
            Control(
                "A2 with a public (data-independent) cover, i.e. A1: a private learner the "
                "check must not call non-private",
                control_cleared,
                f"exact worst ratio {float(public.worst_ratio):.4g} ≤ e; ε_LCB "
                f"{control.epsilon_lower:.3g}",
            )
        ],
        [Slack("ε (auditor's lower bound against the claim)", 1.0, flagged.epsilon_lower)],
    )


@Obligation(
    id="cover-learners.privacy-report",
    source=f"{CHAUDHURI_HSU}:L256-258 (Thm 7); {CHAUDHURI_HSU}:L796-798 (Thm 26)",
    claim=(
        "privacy_ states (α, 0) under substitution for A1/A1r and under label change for "
        "A2, for the caller's ε (the rational ε' ≤ ε the exact sampler draws with), "
        "exact_sampler False exactly when idealised"
    ),
    method=Method.PROPERTY,
    no_predicate=(
        "privacy_ against the level Thm 7 and Thm 26 state, written out in the check (the "
        "level's privacy is decided against the spec by the topic's privacy obligations)"
    ),
    impls=(PrivateCoverClassifier, LabelPrivateCoverClassifier),
    tests=("tests/test_cover_learners.py::test_privacy_report",),
    bug_controls=(
        BugControl(
            "dpspec.cover_learners.learners._CoverExponentialClassifier.fit",
            "level = PrivacyLevel(eps, math.exp(eps), 0, False, self.relation)",
            "level = PrivacyLevel(eps, math.exp(eps), 0, True, self.relation)",
            "the idealised learner reporting an exact sampler",
        ),
    ),
)
def privacy_report(config: VerifyConfig) -> CheckOutcome:
    """``privacy_`` states the theorems' levels for the caller's ε: (α, 0) under substitution
    for A1/A1r (Thm 7), (α, 0) under label change for A2 (Thm 26) — exactly the caller's ε with
    ``idealised=True`` (``exact_sampler=False``), the rational ε' ≤ ε the exact sampler draws
    with otherwise (``exact_sampler=True``, ε − ε' < 2^-32) — over ε at the domain's ends and
    between. Controls: A2 reporting a substitution guarantee; the idealised learner reporting
    an exact sampler; a report of the level ε × 1.25 the overspent learner draws with."""
    rng = np.random.default_rng(SEED)
    X = rng.random((50, 1))
    y = (X[:, 0] > 0.3).astype(np.int64)
    problems = []
    points = 0

    def expected(learner: Learner, epsilon: float, idealised: bool) -> tuple[Any, ...]:
        eps = epsilon if idealised else float(rational_at_most(epsilon, "epsilon"))
        return (eps, 0, not idealised, learner.relation)

    def reported(learner: Learner) -> tuple[Any, ...]:
        p = learner.fit(X, y).privacy_
        return (p.epsilon, p.delta, p.exact_sampler, p.relation)

    for epsilon in (2**-32, 0.25, 1 / 3, 3.0, 700.0):
        for idealised in (False, True):
            for learner in (
                PrivateCoverClassifier(epsilon, idealised=idealised, random_state=1),
                PrivateCoverClassifier(
                    epsilon, hypothesis_class="interval", idealised=idealised, random_state=1
                ),
                PrivateCoverClassifier(
                    epsilon, realizable=True, idealised=idealised, random_state=1
                ),
                LabelPrivateCoverClassifier(epsilon, idealised=idealised, random_state=1),
            ):
                points += 1
                if reported(learner) != expected(learner, epsilon, idealised):
                    problems.append(f"{type(learner).__name__}(ε={epsilon}, {idealised})")
    caught = []
    a2 = LabelPrivateCoverClassifier(1.0, random_state=1)
    caught.append(reported(a2)[3] is not Relation.SUBSTITUTE)
    ideal = PrivateCoverClassifier(1.0, idealised=True, random_state=1)
    caught.append(reported(ideal)[2] is False)
    bugged = overspent(PrivateCoverClassifier(1.0, idealised=True, random_state=1))
    caught.append(reported(bugged)[0] != 1.0)
    return CheckOutcome(
        not problems and all(caught),
        f"{points} fitted learners (4 kinds × 5 ε × idealised): problems: "
        f"{problems or 'none'}; controls told apart: {caught}",
        {"points": points},
        [
            Control("A2 reporting a substitution (fully private) guarantee", caught[0]),
            Control("the idealised learner reporting an exact sampler", caught[1]),
            Control(f"a learner drawing for ε × {OVERSPEND} reports that level", caught[2]),
        ],
        [Slack("reported ε against the caller's (1 = exact)", 1.0, 1.0)],
    )


@Obligation(
    id="cover-learners.label-privacy.implied-by-privacy",
    source=f"{CHAUDHURI_HSU}:L135-149 (Def 2, Def 3)",
    claim=(
        "every label-change pair is a substitution pair, so α-privacy implies α-label "
        "privacy (A1 checked under both relations)"
    ),
    method=Method.EXACT,
    predicates=(is_neighbour,),
    impls=(PrivateCoverClassifier,),
    tests=("tests/test_cover_learners.py::test_label_pairs_are_substitution_pairs",),
)
def label_privacy_implied(config: VerifyConfig) -> CheckOutcome:
    """α-privacy ⇒ α-label privacy (L149): every label-change pair (Def 2) of datasets of size
    ≤ 4 over :data:`DOMAIN` is a substitution pair (Def 3), so a learner α-private under
    substitution is α-label private — checked on A1 under LABEL too (all pairs of size ≤ 3 and
    the tight pairs). Controls: A1 drawn for ε × 1.25 under LABEL (tight pairs); add/remove
    pairs are not substitution pairs (the containment test can fail)."""
    label = list(neighbouring_pairs(DOMAIN, 4, Relation.LABEL, min_size=1))
    contained = all(is_neighbour(a, b, Relation.SUBSTITUTE) for a, b in label)
    add_remove = list(neighbouring_pairs(DOMAIN, 3, Relation.ADD_REMOVE, min_size=1))
    refused = not all(is_neighbour(a, b, Relation.SUBSTITUTE) for a, b in add_remove)
    every, tight, bugged = privacy_at(
        _a1_make(hypothesis_class="threshold"), 1.0, 0.1, False, Relation.LABEL, 3
    )
    assert bugged is not None
    ok = contained and refused and every.holds and tight.holds and not bugged.holds
    return CheckOutcome(
        ok,
        f"{len(label)} label pairs, all substitution pairs: {contained}; A1 under LABEL: "
        f"{every.summary()}; {tight.summary()}; control: {bugged.summary()}; add/remove pairs "
        f"refused as substitution pairs: {refused}",
        {"label_pairs": len(label)},
        [
            control_of(bugged, f"A1 drawn for ε × {OVERSPEND}, under label change"),
            Control("add/remove pairs taken for substitution pairs", refused),
        ],
        [slack_of(tight)],
    )


@Obligation(
    id="cover-learners.a1.group-privacy",
    source=f"{CHAUDHURI_HSU}:L611-623 (Lemma 22)",
    claim="A1's laws on datasets 2 substitutions apart are within e^{2α}",
    method=Method.EXACT,
    predicates=(satisfies_group_privacy,),
    impls=(PrivateCoverClassifier,),
    entry_points=("dpspec.cover_learners.learners.PrivateCoverClassifier.release_law",),
    tests=("tests/test_cover_learners.py::test_a1_privacy_by_hand",),
)
def group_privacy(config: VerifyConfig) -> CheckOutcome:
    """Lemma 22 (L611–623) on A1: datasets k = 2 substitutions apart (size 2, 3 with
    ``--thorough``, over :data:`DOMAIN`; and the tight pair with two labels changed) have laws
    within e^{2α}, α = 1; control: A1 drawn for α × 1.25 violates it."""
    pairs = []
    for size in (2, 3) if config.thorough else (2,):
        data = list(datasets(DOMAIN, size, size))
        for a, b in combinations(data, 2):
            common = sum(min(a.count(r), b.count(r)) for r in set(a))
            if size - common == 2:
                pairs.append((a, b))
    learner = PrivateCoverClassifier(1.0, 0.1)
    grid = learner.grid(8)
    xs = [float(grid.lower[0]), float(grid.lower[1])] + [0.4 + 0.1 * i for i in range(6)]
    S = tuple((x, 0) for x in xs)
    pairs.append((S, ((xs[0], 1), (xs[1], 1), *S[2:])))

    def check(candidate: Learner) -> tuple[bool, float]:
        law = learner_law(candidate)
        worst, ok = 0.0, True
        for a, b in pairs:
            pa, pb = law(a), law(b)
            ok &= satisfies_group_privacy(pa, pb, math.e, 0, 2, rtol=LAW_RTOL)
            worst = max(
                worst, float(max_likelihood_ratio(pa, pb)), float(max_likelihood_ratio(pb, pa))
            )
        return ok, worst

    good, worst = check(learner)
    bad, bad_worst = check(overspent(learner))
    return CheckOutcome(
        good and not bad,
        f"{len(pairs)} pairs 2 substitutions apart: worst ratio {worst:.4g} vs e^2 = "
        f"{math.e**2:.4g} -> {'holds' if good else 'VIOLATED'}; control (α × {OVERSPEND}): "
        f"worst {bad_worst:.4g}, caught: {not bad}",
        {"pairs": len(pairs), "worst_ratio": worst},
        [Control(f"A1 drawn for α × {OVERSPEND}", not bad, f"worst ratio {bad_worst:.4g}")],
        [Slack("ε of the group (2α)", 2.0, math.log(worst))],
    )
