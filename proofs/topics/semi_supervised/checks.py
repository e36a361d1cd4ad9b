"""Checks of the semi-supervised learner (seed 000, Sec 4.1): label privacy through the real
``fit``, the dichotomies, accuracy.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import product
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray
from scipy import stats

from dpspec.learners.semi_supervised import (
    Dichotomies,
    PrivateSemiSupervisedClassifier,
    dichotomies,
    exponential_choice,
)
from dpspec.mechanisms.exponential import ExponentialMechanism
from dpspec.proofs.engine.conformance import (
    ConformanceReport,
    conformance,
    draws,
    outcome,
    power_against,
)
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.exact import (
    RTOL,
    Dataset,
    ExactReport,
    control_of,
    reports_until_failure,
    slack_of,
    verify_pairs,
)
from dpspec.proofs.engine.registry import (
    DIFFERENTIAL,
    RECOMPUTED,
    STATED_BOUND,
    CheckOutcome,
    Kind,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
)
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY
from dpspec.proofs.engine.stats import ALPHA
from dpspec.spec.neighbours import Relation, neighbouring_pairs
from dpspec.spec.privacy import Dist, satisfies_pure_dp

SEED = 4100

#: Synthetic samples over which the conformance test's power against 2ε_label is averaged.
POWER_SAMPLES = 100

#: Points of the unit interval, or of [0,1]^d as tuples.
Points = Sequence[float] | Sequence[tuple[float, ...]]


class PrintedWeightsLearner(PrivateSemiSupervisedClassifier):
    """Negative control: the selection weights exp(ε·s) without the ½ (as printed at
    ``002_9f3104e4a0d86722.txt:L655``), still declared ε_label-DP."""

    def _selection(self, candidates: Dichotomies) -> ExponentialMechanism:
        mech = super()._selection(candidates)
        return ExponentialMechanism(mech.scores, 1, epsilon=self.label_epsilon, half=False)


def verify_label_selection(
    kind: str,
    synthetic: Points,
    xs: Points,
    max_size: int,
    label_epsilon: float = 1.0,
    *,
    printed: bool = False,
    claimed_epsilon: float | None = None,
) -> ExactReport:
    """ε_label-DP of the selection for a fixed synthetic sample Û: all substitution pairs of
    labeled multisets over {(x, y) : x ∈ xs, y ∈ {0, 1}}; the law of each is the learner's own
    :meth:`~PrivateSemiSupervisedClassifier.release_law` (floats, slack :data:`RTOL`), against
    e^{claimed_epsilon} (default: ``label_epsilon``)."""
    cls = PrintedWeightsLearner if printed else PrivateSemiSupervisedClassifier
    learner = cls(label_epsilon=label_epsilon, hypothesis_class=kind)
    d = 2 if kind == "rectangle" else 1
    U = np.array(synthetic, dtype=np.float64).reshape(-1, d)
    domain = tuple((x, y) for x in xs for y in (0, 1))

    def law(data: Dataset) -> Dist:
        recs = cast(tuple[tuple[Any, int], ...], data)
        X = np.array([r[0] for r in recs], dtype=np.float64).reshape(-1, d)
        y = np.array([r[1] for r in recs], dtype=np.int64)
        return learner.release_law(X, y, U)

    claim = label_epsilon if claimed_epsilon is None else claimed_epsilon
    return verify_pairs(
        f"semi-supervised selection ({kind}, {'printed' if printed else 'with 1/2'}, "
        f"ε_label={label_epsilon:g}, |H|U|={learner.candidates(U).size})",
        law,
        neighbouring_pairs(domain, max_size, Relation.SUBSTITUTE, min_size=1),
        math.exp(claim),  # the caller's ε_label (Thm 4.11)
        rtol=RTOL,
    )


def semi_supervised_label_privacy(config: VerifyConfig) -> CheckOutcome:
    """Thm 4.10/4.11, labeled part: for fixed synthetic samples, the selection over the
    dichotomies is ε_label-DP under substitution of one labeled record — thresholds and
    intervals on Û = {0.5, 1.5, 2.5}, x ∈ {0, 1, 2, 3}; rectangles on 3 synthetic points,
    x ∈ 2 points. The threshold instance is near its claim (worst ratio e^{0.93 ε}), so the
    learner with ε_label × 1.25 is caught against the caller's ε_label, as are the weights
    without the ½ (the thesis's printed form, L655). Under a bug control the check ends at
    the first report that fails and skips those controls."""
    size = 4 if config.thorough else 3
    line = (0.5, 1.5, 2.5)
    xs = (0.0, 1.0, 2.0, 3.0)
    boxes = ((0.0, 0.0), (1.0, 2.0), (2.0, 1.0))
    reports = reports_until_failure(
        config,
        lambda: verify_label_selection("threshold", line, xs, size + 1),
        lambda: verify_label_selection("interval", line, xs, size),
        lambda: verify_label_selection("rectangle", boxes, ((0.5, 0.5), (1.0, 2.0)), size),
    )
    if config.under_control:  # every report held (a failing one ended the check above)
        return CheckOutcome(True, "under a bug control: every report holds")
    controls = reports_until_failure(
        config,
        lambda: verify_label_selection("threshold", line, xs, size + 1, 1.25, claimed_epsilon=1.0),
        lambda: verify_label_selection("threshold", line, xs[:3], size, printed=True),
        controls=True,
    )
    ok = all(r.holds for r in reports) and not any(c.holds for c in controls)
    return CheckOutcome(
        ok,
        "; ".join(r.summary() for r in reports)
        + "; controls: "
        + "; ".join(c.summary() for c in controls),
        {
            "pairs": sum(r.pairs for r in reports),
            "worst_ratios": [float(r.worst_ratio) for r in reports],
            "claimed_ratio": math.e,
            "control_worst_ratios": [float(c.worst_ratio) for c in controls],
        },
        [
            control_of(controls[0], "the selection with ε_label × 1.25, claim ε_label"),
            control_of(controls[1], "the selection weights without the ½ (L655 as printed)"),
        ],
        [slack_of(r) for r in reports],
    )


def threshold_error(clf: PrivateSemiSupervisedClassifier, t0: float) -> float:
    """err_P(h) for x ~ N(0, 1), target 1[x ≥ t0], h the learned threshold: |Φ(t) − Φ(t0)|."""
    t = float(clf.lower_[0])
    return float(abs(stats.norm.cdf(t) - stats.norm.cdf(t0)))


@Obligation(
    id="semi-supervised.accuracy",
    source=f"{BAYES_CONSISTENCY}:L355-371 (Thm 4.11 and proof)",
    claim="realizable thresholds: err ≤ 0.05 w.p. ≥ 0.9 at 10^5 unlabeled, 300 labeled",
    method=Method.STATISTICAL,
    no_predicate=f"{STATED_BOUND}: the failures (err > 0.05) against Bin(R, 0.1) at 1e-6",
    impls=(PrivateSemiSupervisedClassifier,),
    tests=("tests/test_semi_supervised.py::test_learns_intervals_and_rectangles",),
    kind=Kind.DEMONSTRATION,
    reason=(
        "Thm 4.11's sample sizes have unspecified constants, so the instance (300 "
        "labeled, 10^5 unlabeled, err ≤ 0.05 w.p. 0.9) is ours, not the theorem's, and "
        "a failure-count test at it cannot see an error scale 2× larger (ε_label/2 in "
        "the sampler fails 2 of 30 fits); the selection it depends on is pinned exactly "
        "by semi-supervised.label-privacy (its law and fit's conformance to it) and its "
        "score by semi-supervised.score-is-predict"
    ),
    bug_controls=(
        BugControl(
            "dpspec.learners.semi_supervised.Dichotomies._mistakes",
            "for label, sign in ((1, -1), (0, 1)):",
            "for label, sign in ((1, -1),):",
            "mistakes count only missed positives (every low threshold scores 0)",
        ),
    ),
)
def semi_supervised_accuracy(config: VerifyConfig) -> CheckOutcome:
    """Thm 4.11 at moderate n (a demonstration: the theorem's sample sizes have unspecified
    constants, so the instance is ours): thresholds, x ~ N(0, 1), target 1[x ≥ 0.3], 10^5
    unlabeled (ε = 1, δ = 1e-6), 300 labeled (ε_label = 1), 500 synthetic. Claim: err ≤ 0.05
    with probability ≥ 0.9; over R fits it is rejected when P(Bin(R, 0.1) ≥ #failures) < α =
    1e-6 (fixed seeds). Slack: 0.05 against the measured 90% quantile of the error."""
    reps = 60 if config.thorough else 30
    rng = np.random.default_rng(SEED + 30)
    errs = []
    for r in range(reps):
        U = rng.standard_normal((100_000, 1))
        X = rng.standard_normal((300, 1))
        y = (X[:, 0] >= 0.3).astype(np.int64)
        learner = PrivateSemiSupervisedClassifier(
            1.0, 1e-6, 1.0, hypothesis_class="threshold", n_synthetic=500, random_state=r
        )
        errs.append(threshold_error(learner.fit(X, y, U), 0.3))
    failures = int(np.sum(np.array(errs) > 0.05))
    p = float(stats.binom.sf(failures - 1, reps, 0.1))
    q90 = float(np.quantile(errs, 0.9))
    return CheckOutcome(
        p > ALPHA,
        f"{reps} fits: max error {max(errs):.4f}, 90% quantile {q90:.4f}, failures (err > 0.05) "
        f"{failures} (p {p:.3g}, α = {ALPHA:g})",
        {"errors": errs, "pvalue": p, "failures": failures},
        slack=[Slack("90% quantile of the error (claim ≤ 0.05)", 0.05, q90)],
    )


@Obligation(
    id="semi-supervised.dichotomies",
    source=f"{BAYES_CONSISTENCY}:L349 (Thm 4.10: a semi-private learner over H restricted to Û)",
    claim=(
        "the candidates are exactly the dichotomies thresholds/intervals/rectangles "
        "induce on Û, and their mistake counts are right (ties on Û included)"
    ),
    method=Method.PROPERTY,
    no_predicate=f"{RECOMPUTED}: mistakes and candidate sets by brute force over all boxes",
    impls=(Dichotomies, dichotomies),
    tests=("tests/test_semi_supervised.py::test_dichotomies_are_exact",),
    bug_controls=(
        BugControl(
            "dpspec.learners.semi_supervised._slots",
            'right = np.searchsorted(coords, values, side="right")',
            'right = np.searchsorted(coords, values, side="left")',
            "a point on a synthetic coordinate slotted between coordinates (ties lost)",
        ),
        BugControl(
            "dpspec.learners.semi_supervised._dichotomies",
            "& (by_row[i, ll + 1] - by_row[i, k] > 0)  # a point on the left edge, inside",
            "& (by_row[i, ll + 1] - by_row[i, k] >= 0)  # a point on the left edge, inside",
            "a rectangle kept without a point on its left edge (duplicate dichotomies)",
        ),
    ),
)
def dichotomy_scores(config: VerifyConfig) -> CheckOutcome:
    """The prefix-sum mistakes of :class:`Dichotomies` equal brute-force mistakes of each
    candidate's box, and the candidates are exactly the distinct dichotomies the class induces
    on Û (brute force over all boxes with boundaries at synthetic coordinates, ties included);
    control: a candidate set missing one dichotomy must be told apart."""
    rng = np.random.default_rng(SEED + 50)
    problems: list[str] = []
    trials = 12 if config.thorough else 6
    for t in range(trials):
        for kind, d, m in (("threshold", 1, 12), ("interval", 1, 12), ("rectangle", 2, 8)):
            U = rng.random((m, d))
            if t % 2:
                U = np.round(U * 4) / 4  # ties
            D = dichotomies(kind, U)
            X = np.vstack([rng.random((40, d)), U[:4]])
            y = np.asarray(rng.integers(0, 2, size=(X.shape[0],)), dtype=np.int64)
            brute = np.array([np.sum(D.predict(i, X) != y) for i in range(D.size)])
            if not np.array_equal(D.mistakes(X, y), brute):
                problems.append(f"{kind} t={t}: mistakes")
            patterns = {tuple(D.predict(i, U).tolist()) for i in range(D.size)}
            if len(patterns) != D.size or patterns != _all_patterns(kind, U):
                problems.append(f"{kind} t={t}: not the dichotomy set")
    U = rng.random((8, 2))
    D = dichotomies("rectangle", U)
    short = {tuple(D.predict(i, U).tolist()) for i in range(1, D.size)}
    sees_a_missing_one = short != _all_patterns("rectangle", U)
    ok = not problems and sees_a_missing_one
    return CheckOutcome(
        ok,
        f"{trials} trials × 3 classes (ties on every other trial): problems: {problems}; a "
        f"candidate set missing one dichotomy is told apart: {sees_a_missing_one}",
        {"problems": problems},
        slack=[Slack("mismatched candidates (claim 0)", 0.0, float(len(problems)))],
    )


def _all_patterns(kind: str, U: NDArray[np.float64]) -> set[tuple[int, ...]]:
    """Brute force: every dichotomy of ``kind`` on U (boxes with coordinate boundaries)."""
    axes = [np.unique(U[:, a]) for a in range(U.shape[1])]
    out = {tuple([0] * U.shape[0])}
    if kind == "threshold":
        for t in axes[0]:
            out.add(tuple((U[:, 0] >= t).astype(int).tolist()))
        return out
    spans = [[(lo, hi) for lo in u for hi in u if lo <= hi] for u in axes]
    for box in product(*spans):
        inside = np.ones(U.shape[0], dtype=bool)
        for a, (lo, hi) in enumerate(box):
            inside &= (lo <= U[:, a]) & (U[:, a] <= hi)
        out.add(tuple(inside.astype(int).tolist()))
    return out


def pit_values(
    laws: list[dict[int, float]], choices: list[int], rng: np.random.Generator
) -> NDArray[np.float64]:
    """u = F(c⁻) + V·p(c) for each (law, choice), the outcomes ordered by decreasing probability
    (ties by key): Uniform(0, 1) exactly when c ~ law, whatever the (law-determined) order. The
    order makes a sharper law (e.g. the same mechanism at 2ε) push u towards 0, so the test's
    power against it does not depend on how the outcomes happen to be numbered."""
    out = np.empty(len(choices))
    for i, (law, c) in enumerate(zip(laws, choices, strict=True)):
        rank = sorted(law, key=lambda k: (-law[k], k))
        before = rank[: rank.index(c)] if c in law else rank
        below = sum(law[k] for k in before)
        out[i] = below + rng.random() * law.get(c, 0.0)
    return out


def pit_bin_law(
    law: dict[int, float], alternative: dict[int, float], bins: int
) -> NDArray[np.float64]:
    """The law of the PIT bin of :func:`pit_values` (built on ``law``) when the choice follows
    ``alternative``: each outcome's interval [F(c⁻), F(c⁻) + p(c)) split over the bins."""
    rank = sorted(law, key=lambda k: (-law[k], k))
    out = np.zeros(bins)
    below = 0.0
    for c in rank:
        p, q = law[c], alternative.get(c, 0.0)
        if p > 0:
            lo, hi = below, below + p
            edges = np.linspace(0.0, 1.0, bins + 1)
            overlap = np.clip(np.minimum(hi, edges[1:]) - np.maximum(lo, edges[:-1]), 0.0, None)
            out += q * overlap / p
        below += p
    return out


@Obligation(
    id="semi-supervised.label-privacy",
    source=(
        f"{BAYES_CONSISTENCY}:L349-371 (Thm 4.10, Thm 4.11 and proof); "
        "002_9f3104e4a0d86722.txt:L655 (exp. mechanism)"
    ),
    claim=(
        "for a fixed synthetic sample the selection is ε_label-DP in the labeled data, "
        "for the caller's ε_label, through the law fit draws"
    ),
    method=Method.EXACT,
    predicates=(satisfies_pure_dp,),
    impls=(PrivateSemiSupervisedClassifier, exponential_choice, ExponentialMechanism),
    entry_points=(PrivateSemiSupervisedClassifier.fit,),
    tests=("tests/test_semi_supervised.py::test_exponential_choice_law",),
    privacy=True,
    bug_controls=(
        BugControl(
            "dpspec.learners.semi_supervised.PrivateSemiSupervisedClassifier._selection",
            "return ExponentialMechanism(scores, 1, epsilon=self.label_epsilon)",
            "return ExponentialMechanism(scores, 1, epsilon=1.25 * self.label_epsilon)",
            "the selection (and its law) for ε_label × 1.25",
        ),
        BugControl(
            exponential_choice,
            "denominator = eps.denominator * (2 if half else 1) * sensitivity",
            "denominator = eps.denominator * sensitivity",
            "fit's sampler drops the ½ of the weights (draws at 2ε_label)",
        ),
    ),
    before=(semi_supervised_label_privacy,),
)
def semi_supervised_fit_conformance(config: VerifyConfig) -> CheckOutcome:
    """``PrivateSemiSupervisedClassifier.fit``: the candidate it chooses, given the synthetic
    sample it drew, follows ``release_law`` (randomised PIT with the candidates ordered by
    decreasing probability → 5 equiprobable bins, chi-square at α = 1e-6); control: ``fit`` with
    ε_label = 2 against the ε_label = 1 law. The powers against 2ε_label and ε_label × 1.25
    are computed given the synthetic samples the ε_label = 1 run drew (the first 100): the
    mean over them of the PIT-bin law under the other selection. Under a bug control only
    ``fit`` at ε_label = 1 is drawn and no power is computed (only the verdict counts)."""
    rng = np.random.default_rng(SEED)
    X = rng.standard_normal((40, 1))
    y = (np.abs(X[:, 0]) < 0.6).astype(np.int64)
    U = rng.standard_normal((400, 1))
    reps = draws(config, 300)
    bins = 5
    uniform = {b: 1.0 / bins for b in range(bins)}
    alternative = np.zeros(bins)
    modest = np.zeros(bins)
    reference = PrivateSemiSupervisedClassifier(label_epsilon=1.0, hypothesis_class="interval")
    doubled = PrivateSemiSupervisedClassifier(label_epsilon=2.0, hypothesis_class="interval")
    scaled = PrivateSemiSupervisedClassifier(label_epsilon=1.25, hypothesis_class="interval")

    def at(label_eps: float, offset: int) -> Callable[[int], NDArray[np.int64]]:
        def draw(k: int) -> NDArray[np.int64]:
            laws, choices = [], []
            for r in range(k):
                clf = PrivateSemiSupervisedClassifier(
                    1.0,
                    0.05,
                    label_epsilon=label_eps,
                    hypothesis_class="interval",
                    n_synthetic=8,
                    random_state=offset + r,
                ).fit(X, y, U)
                law = reference.release_law(X, y, clf.synthetic_)
                laws.append(law)
                choices.append(int(clf.choice_))
                if label_eps == 1.0 and r < POWER_SAMPLES and not config.under_control:
                    alt = doubled.release_law(X, y, clf.synthetic_)
                    alternative[:] += pit_bin_law(law, alt, bins) / POWER_SAMPLES
                    mid = scaled.release_law(X, y, clf.synthetic_)
                    modest[:] += pit_bin_law(law, mid, bins) / POWER_SAMPLES
            u = pit_values(laws, choices, np.random.default_rng([SEED, offset]))
            return np.minimum((u * bins).astype(np.int64), bins - 1)

        return draw

    report: ConformanceReport = conformance(
        "semi-supervised fit: selection given the synthetic sample (PIT)",
        uniform,
        at(1.0, 0),
        at(2.0, 10**6),
        uniform,
        reps,
        config=config,
    )
    if config.under_control:
        return outcome([report])
    report.power = power_against(uniform, dict(enumerate(alternative.tolist())), reps)
    result = outcome([report])
    power = power_against(uniform, dict(enumerate(modest.tolist())), reps)
    result.numbers["power_at_1.25_epsilon"] = power
    result.detail += f"; power against fit at ε_label × 1.25: {power:.2f}"
    return result


#: Thm 4.10/4.11, labeled part, through ``fit``: the exact law, then ``fit``'s conformance.


# --- the score is the predict rule ------------------------------------------


@Obligation(
    id="semi-supervised.score-is-predict",
    source=f"{BAYES_CONSISTENCY}:L349 (Thm 4.10: score s(S, h) = −mistakes, then release h)",
    claim=(
        "the mistakes the selection scores for each candidate are the mistakes of the "
        "hypothesis predict applies when it is released (closed box ends), ties included"
    ),
    method=Method.PROPERTY,
    no_predicate=f"{DIFFERENTIAL}: the selection's scored mistakes against the released predict's",
    impls=(PrivateSemiSupervisedClassifier, Dichotomies),
    tests=("tests/test_semi_supervised.py::test_dichotomies_are_exact",),
    bug_controls=(
        BugControl(
            PrivateSemiSupervisedClassifier.decision,
            "inside = np.all((pts >= self.lower_) & (pts <= self.upper_), axis=1)",
            "inside = np.all((pts > self.lower_) & (pts <= self.upper_), axis=1)",
            "predict with an open lower end where the score counts it closed",
        ),
    ),
)
def semi_supervised_score_is_predict(config: VerifyConfig) -> CheckOutcome:
    """The mistakes the selection scores for each candidate (prefix sums over
    the slots of the synthetic coordinates, closed boxes) are the mistakes of the hypothesis
    ``predict`` applies once that candidate is released (``lower_ ≤ x ≤ upper_``), on
    Hypothesis samples whose labeled points sit on the synthetic coordinates (ties) and between
    them, for thresholds, intervals and rectangles; and ``fit`` releases the box of the
    candidate it drew. Its bug control makes ``predict``'s lower end open."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    problems: list[str] = []
    samples = 0
    X0 = np.repeat([[-0.5], [0.5], [1.5]], [30, 40, 30], axis=0)
    fitted = PrivateSemiSupervisedClassifier(2.0, 0.1, n_synthetic=6, side=1.0, random_state=0).fit(
        np.array([[0.2], [0.8]]), np.array([0, 1]), X0
    )
    if not (
        np.array_equal(fitted.lower_, fitted.candidates_.bounds()[0][fitted.choice_])
        and np.array_equal(fitted.upper_, fitted.candidates_.bounds()[1][fitted.choice_])
    ):
        problems.append("fit released another box than the candidate it drew")

    @st.composite
    def cases(draw: Any) -> tuple[str, NDArray[np.float64], NDArray[np.float64], Any]:
        kind = draw(st.sampled_from(["threshold", "interval", "rectangle"]))
        d = 2 if kind == "rectangle" else 1
        grid = [0.0, 0.25, 0.5, 0.75, 1.0]
        U = np.array(
            draw(st.lists(st.tuples(*[st.sampled_from(grid)] * d), min_size=1, max_size=5))
        )
        points = [*grid, 0.1, 0.6, 1.2, -0.3]
        rows = draw(
            st.lists(
                st.tuples(*[st.sampled_from(points)] * d, st.integers(0, 1)),
                min_size=2,
                max_size=10,
            )
        )
        X = np.array([r[:d] for r in rows], dtype=np.float64)
        y = np.array([r[d] for r in rows], dtype=np.int64)
        if y.min() == y.max():
            y[0] = 1 - y[0]
        return kind, U.astype(np.float64), X, y

    @settings(
        max_examples=90 if config.thorough else 30,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(cases())
    def sample(case: tuple[str, NDArray[np.float64], NDArray[np.float64], Any]) -> None:
        nonlocal samples
        kind, U, X, y = case
        samples += 1
        clf = PrivateSemiSupervisedClassifier(hypothesis_class=kind)
        cands = clf.candidates(U)
        scored = cands.mistakes(X, y)
        lower, upper = cands.bounds()
        for i in range(cands.size):  # release candidate i as fit releases its choice
            clf.choice_, clf.lower_, clf.upper_ = i, lower[i], upper[i]
            clf.classes_, clf.n_features_in_ = np.array([0, 1]), X.shape[1]
            applied = int(np.sum(clf.predict(X) != y))
            if applied != int(scored[i]):
                problems.append(f"{kind}: candidate {i} scored {scored[i]}, predict errs {applied}")
                return

    sample()
    return CheckOutcome(
        not problems,
        f"{samples} samples with labeled points on the synthetic coordinates: "
        f"{'every candidate scores the mistakes predict makes' if not problems else problems[:3]}",
        {"samples": samples, "problems": problems[:10]},
        [],
        [Slack("mismatched candidates (claim 0)", 0.0, float(len(problems)))],
    )
