"""The registered guarantees of this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import Kind, Method, Obligation
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY, THESIS

_SSL = "dpspec.learners.semi_supervised"
_LEARNER = f"{_SSL}.PrivateSemiSupervisedClassifier"

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="semi-supervised.dichotomies",
        source=(
            f"{BAYES_CONSISTENCY}:L349 (Thm 4.10: a semi-private learner over H restricted to Û)"
        ),
        claim=(
            "the candidates are exactly the dichotomies thresholds/intervals/rectangles induce on "
            "Û, and their mistake counts are right (ties on Û included)"
        ),
        method=Method.PROPERTY,
        impls=(f"{_SSL}.Dichotomies", f"{_SSL}.dichotomies"),
        checks=("dichotomy_scores",),
        tests=("tests/test_semi_supervised.py::test_dichotomies_are_exact",),
        bug_controls=(
            BugControl(
                f"{_SSL}._slots",
                'right = np.searchsorted(coords, values, side="right")',
                'right = np.searchsorted(coords, values, side="left")',
                "a point on a synthetic coordinate slotted between coordinates (ties lost)",
            ),
            BugControl(
                f"{_SSL}._dichotomies",
                "& (by_row[i, ll + 1] - by_row[i, k] > 0)  # a point on the left edge, inside",
                "& (by_row[i, ll + 1] - by_row[i, k] >= 0)  # a point on the left edge, inside",
                "a rectangle kept without a point on its left edge (duplicate dichotomies)",
            ),
        ),
    ),
    Obligation(
        id="semi-supervised.label-privacy",
        source=(
            f"{BAYES_CONSISTENCY}:L349-371 (Thm 4.10, Thm 4.11 and proof); {THESIS}:L655 (exp. "
            "mechanism)"
        ),
        claim=(
            "for a fixed synthetic sample the selection is ε_label-DP in the labeled data, for "
            "the caller's ε_label, through the law fit draws"
        ),
        method=Method.EXACT,
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=(
            _LEARNER,
            f"{_SSL}.exponential_choice",
            "dpspec.mechanisms.exponential.ExponentialMechanism",
        ),
        checks=("semi_supervised_label_privacy_fit",),
        tests=("tests/test_semi_supervised.py::test_exponential_choice_law",),
        entry_points=(f"{_LEARNER}.fit",),
        privacy=True,
        bug_controls=(
            BugControl(
                f"{_LEARNER}._selection",
                "return ExponentialMechanism(scores, 1, epsilon=self.label_epsilon)",
                "return ExponentialMechanism(scores, 1, epsilon=1.25 * self.label_epsilon)",
                "the selection (and its law) for ε_label × 1.25",
            ),
            BugControl(
                f"{_SSL}.exponential_choice",
                "denominator = eps.denominator * (2 if half else 1) * sensitivity",
                "denominator = eps.denominator * sensitivity",
                "fit's sampler drops the ½ of the weights (draws at 2ε_label)",
            ),
        ),
    ),
    Obligation(
        id="semi-supervised.accuracy",
        source=f"{BAYES_CONSISTENCY}:L355-371 (Thm 4.11 and proof)",
        claim="realizable thresholds: err ≤ 0.05 w.p. ≥ 0.9 at 10^5 unlabeled, 300 labeled",
        method=Method.STATISTICAL,
        impls=(_LEARNER,),
        checks=("semi_supervised_accuracy",),
        tests=("tests/test_semi_supervised.py::test_learns_intervals_and_rectangles",),
        kind=Kind.DEMONSTRATION,
        reason=(
            "Thm 4.11's sample sizes have unspecified constants, so the instance (300 labeled, "
            "10^5 unlabeled, err ≤ 0.05 w.p. 0.9) is ours, not the theorem's, and a failure-count "
            "test at it cannot see an error scale 2× larger (ε_label/2 in the sampler fails 2 "
            "of 30 fits); the selection it depends on is pinned exactly by "
            "semi-supervised.label-privacy (its law and fit's conformance to it) and its score "
            "by semi-supervised.score-is-predict"
        ),
        bug_controls=(
            BugControl(
                f"{_SSL}.Dichotomies._mistakes",
                "for label, sign in ((1, -1), (0, 1)):",
                "for label, sign in ((1, -1),):",
                "mistakes count only missed positives (every low threshold scores 0)",
            ),
        ),
    ),
    Obligation(
        id="semi-supervised.score-is-predict",
        source=f"{BAYES_CONSISTENCY}:L349 (Thm 4.10: score s(S, h) = −mistakes, then release h)",
        claim=(
            "the mistakes the selection scores for each candidate are the mistakes of the "
            "hypothesis predict applies when it is released (closed box ends), ties included"
        ),
        method=Method.PROPERTY,
        impls=(_LEARNER, f"{_SSL}.Dichotomies"),
        checks=("semi_supervised_score_is_predict",),
        tests=("tests/test_semi_supervised.py::test_dichotomies_are_exact",),
        bug_controls=(
            BugControl(
                f"{_LEARNER}.decision",
                "inside = np.all((pts >= self.lower_) & (pts <= self.upper_), axis=1)",
                "inside = np.all((pts > self.lower_) & (pts <= self.upper_), axis=1)",
                "predict with an open lower end where the score counts it closed",
            ),
        ),
    ),
    Obligation(
        id="semi-supervised.unlabeled-sample-size",
        source=f"{BAYES_CONSISTENCY}:L349 (Thm 4.10, as printed); {THESIS}:L1683 (Thm 6.2.10)",
        claim=(
            "semi-private learning needs O((VC/α) log(1/(αβ))) unlabeled examples; seed 000 "
            "prints O((VC/(εα)) log(1/(αβ))) — a misstatement (ε does not belong there)"
        ),
        method=Method.DOCUMENTED,
        reason=(
            "an O(·) sample size with unspecified constants: no finite instance decides it; the "
            "erratum records the corrected statement"
        ),
    ),
)
