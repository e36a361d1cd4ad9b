"""The registered guarantees of this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY, THESIS

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="semi-supervised.dichotomies",
        source=(
            f"{BAYES_CONSISTENCY}:L349 (Thm 4.10: a semi-private learner over H restricted to Û)"
        ),
        claim=(
            "the candidates are exactly the dichotomies thresholds/intervals/rectangles induce on "
            "Û, and their mistake counts are right"
        ),
        method=Method.PROPERTY,
        impls=(
            "dpspec.learners.semi_supervised.Dichotomies",
            "dpspec.learners.semi_supervised.dichotomies",
        ),
        checks=("dichotomy_scores",),
        tests=("tests/test_semi_supervised.py::test_dichotomies_are_exact",),
    ),
    Obligation(
        id="semi-supervised.label-privacy",
        source=(
            f"{BAYES_CONSISTENCY}:L349-371 (Thm 4.10, Thm 4.11 and proof); {THESIS}:L655 (exp. "
            "mechanism)"
        ),
        claim="for a fixed synthetic sample the selection is ε_label-DP in the labeled data",
        method=Method.EXACT,
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=(
            "dpspec.learners.semi_supervised.PrivateSemiSupervisedClassifier",
            "dpspec.learners.semi_supervised.exponential_choice",
            "dpspec.mechanisms.exponential.ExponentialMechanism",
        ),
        checks=(
            "semi_supervised_label_privacy",
            "semi_supervised_fit_conformance",
        ),
        tests=(
            "tests/test_semi_supervised.py::test_label_privacy_exact",
            "tests/test_semi_supervised.py::test_exponential_choice_law",
        ),
        entry_points=("dpspec.learners.semi_supervised.PrivateSemiSupervisedClassifier.fit",),
        privacy=True,
    ),
    Obligation(
        id="semi-supervised.accuracy",
        source=f"{BAYES_CONSISTENCY}:L355-371 (Thm 4.11 and proof)",
        claim="realizable thresholds: err ≤ 0.05 w.p. ≥ 0.9 at 10^5 unlabeled, 300 labeled",
        method=Method.STATISTICAL,
        impls=("dpspec.learners.semi_supervised.PrivateSemiSupervisedClassifier",),
        checks=("semi_supervised_accuracy",),
        tests=(
            "tests/test_semi_supervised.py::test_learns_a_threshold",
            "tests/test_semi_supervised.py::test_learns_intervals_and_rectangles",
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
    ),
)
