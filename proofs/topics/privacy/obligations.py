"""The registered guarantees of this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY, THESIS

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="dp.event-level-equivalence",
        source=f"{BAYES_CONSISTENCY}:L15 (Def 1.1); {THESIS}:L425 (privacy loss)",
        claim="for discrete outputs, ε-DP over all events ⇔ the pointwise likelihood-ratio bound",
        method=Method.PROPERTY,
        predicates=(
            "dpspec.spec.privacy.satisfies_pure_dp",
            "dpspec.spec.privacy.event_level_dp",
            "dpspec.spec.privacy.max_likelihood_ratio",
        ),
        checks=("pure_dp_event_equivalence",),
        tests=("tests/test_privacy.py::test_pure_dp_agrees_with_event_level",),
    ),
    Obligation(
        id="dp.hockey-stick",
        source=f"{BAYES_CONSISTENCY}:L15 (Def 1.1)",
        claim="(ε,δ)-DP for one pair ⇔ the hockey-stick divergence H_{e^ε} ≤ δ both ways",
        method=Method.PROPERTY,
        predicates=(
            "dpspec.spec.privacy.hockey_stick",
            "dpspec.spec.privacy.satisfies_approx_dp",
            "dpspec.spec.privacy.event_level_dp",
        ),
        checks=("hockey_stick_event_equivalence",),
        tests=("tests/test_privacy.py::test_hockey_stick_is_sup_over_events",),
    ),
    Obligation(
        id="dp.group-privacy",
        source=f"{BAYES_CONSISTENCY}:L15 (Def 1.1, k-fold chaining)",
        claim="(ε,δ)-DP gives (kε, k e^{(k−1)ε} δ) for datasets k changes apart",
        method=Method.PROPERTY,
        predicates=(
            "dpspec.spec.privacy.group_privacy_parameters",
            "dpspec.spec.privacy.satisfies_group_privacy",
        ),
        impls=("dpspec.mechanisms.randomized_response.RandomizedResponse",),
        checks=("group_privacy_chains",),
        tests=("tests/test_privacy.py::test_group_privacy_chains",),
    ),
    Obligation(
        id="privacy-report.theorem-levels",
        source=(
            f"{BAYES_CONSISTENCY}:L117-121 (Thm 2.3), L125-147 (Thm 2.4), L193-206 (Thm 3.1), "
            "L249-262 (Thm 4.2), L349-371 (Thm 4.11), L466-476 (Thm A.6), L568-570 (Thm A.14); "
            f"{THESIS}:L655 (exponential mechanism)"
        ),
        claim="privacy / privacy_ report exactly the theorem's (ε, δ) for the caller's arguments",
        method=Method.PROPERTY,
        impls=(
            "dpspec.mechanisms.base.epsilon_rational",
            "dpspec.contract.PrivacyLevel",
            "dpspec.contract.Mechanism",
            "dpspec.contract.ExactMechanism",
            "dpspec.contract.PrivateEstimator",
            "dpspec.mechanisms.base.discrete_laplace_for",
            "dpspec.learners.pcl.PrivateHistogramClassifier",
            "dpspec.learners.pcl2.PrivatePackingClassifier",
            "dpspec.learners.pcl2.PrivateUnboundedClassifier",
            "dpspec.learners.pcde.PrivateHistogramDensity",
            "dpspec.learners.semi_supervised.PrivateSemiSupervisedClassifier",
            "dpspec.learners.semi_supervised.joint_level",
            "dpspec.mechanisms.discrete_laplace.DiscreteLaplaceMechanism",
            "dpspec.mechanisms.laplace.LaplaceMechanism",
            "dpspec.mechanisms.exponential.ExponentialMechanism",
            "dpspec.mechanisms.randomized_response.RandomizedResponse",
            "dpspec.mechanisms.noisy_majority.NoisyMajorityVote",
            "dpspec.mechanisms.stability_histogram.StabilityHistogram",
        ),
        checks=("privacy_reports",),
    ),
    Obligation(
        id="sensitivity.counts-binding",
        source=(
            f"{BAYES_CONSISTENCY}:L117, L125-147, L206 (counts, histograms, PCL votes, "
            "post-processing)"
        ),
        claim=(
            "impl cell counts == spec histogram/count; PCL fit's margins == 2 x spec "
            "centred_votes; PCL predict == pushforward of the released bits"
        ),
        method=Method.PROPERTY,
        predicates=(
            "dpspec.spec.sensitivity.histogram",
            "dpspec.spec.sensitivity.count",
            "dpspec.spec.sensitivity.centred_votes",
            "dpspec.proofs.topics.privacy.lemmas.pushforward",
        ),
        impls=(
            "dpspec.mechanisms.stability_histogram._cell_counts",
            "dpspec.mechanisms.stability_histogram.StabilityHistogram.counts",
            "dpspec.learners.pcl.PrivateHistogramClassifier.fit",
            "dpspec.learners.pcl.PrivateHistogramClassifier._margins",
            "dpspec.learners.pcl.PrivateHistogramClassifier.predict",
        ),
        checks=("bindings:counts_binding",),
        tests=("tests/test_lemma_bindings.py::test_binding_checks_catch_a_broken_rule",),
        bug_controls=(
            BugControl(
                "dpspec.learners.pcl.PrivateHistogramClassifier._margins",
                "return cells, (2 * ones[cells] - counts[cells])",
                "return cells, (2 * ones[cells] - counts[cells] + 1)",
                "PCL's margins off by one",
            ),
            BugControl(
                "dpspec.mechanisms.stability_histogram._cell_counts",
                "return_counts=True)",
                "return_counts=True); counts = np.minimum(counts, 2)",
                "cell counts capped at 2",
            ),
            BugControl(
                "dpspec.mechanisms.stability_histogram.StabilityHistogram.counts",
                "minlength=self.bins)",
                "minlength=self.bins) - (arr.size > 2)",
                "the finite-bins counts one short on datasets of 3 or more records",
            ),
        ),
    ),
    Obligation(
        id="sensitivity.count-substitution-lemma",
        source=f"{BAYES_CONSISTENCY}:L117 (Def 2.1, global sensitivity)",
        claim="a count changes by at most 1 when one record is substituted",
        method=Method.EXACT,
        predicates=("dpspec.proofs.topics.privacy.lemmas.count_change_substitution",),
        lemmas=("count_change_substitution",),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: sensitivity.counts-binding",
    ),
    Obligation(
        id="sensitivity.count-add-remove-lemma",
        source=f"{BAYES_CONSISTENCY}:L117 (Def 2.1)",
        claim="a count changes by at most 1 when one record is added or removed",
        method=Method.EXACT,
        predicates=("dpspec.proofs.topics.privacy.lemmas.count_change_add_remove",),
        lemmas=("count_change_add_remove",),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: sensitivity.counts-binding",
    ),
    Obligation(
        id="sensitivity.histogram-substitution-lemma",
        source=f"{BAYES_CONSISTENCY}:L125-147 (Alg 1: Lap(2/ε) for L1 sensitivity 2)",
        claim="a histogram moves by exactly 0 or 2 in L1 under substitution",
        method=Method.EXACT,
        predicates=("dpspec.proofs.topics.privacy.lemmas.histogram_change_substitution",),
        lemmas=("histogram_change_substitution",),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: sensitivity.counts-binding",
    ),
    Obligation(
        id="sensitivity.histogram-add-remove-lemma",
        source=f"{BAYES_CONSISTENCY}:L117 (Def 2.1)",
        claim="a histogram moves by exactly 1 in L1 under add/remove",
        method=Method.EXACT,
        predicates=("dpspec.proofs.topics.privacy.lemmas.histogram_change_add_remove",),
        lemmas=("histogram_change_add_remove",),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: sensitivity.counts-binding",
    ),
    Obligation(
        id="sensitivity.centred-vote-substitution-lemma",
        source=f"{BAYES_CONSISTENCY}:L206 (Thm 3.1 proof)",
        claim="PCL's per-cell votes Σ(y − ½) move by ≤ 1 in L1 under substitution",
        method=Method.EXACT,
        predicates=("dpspec.proofs.topics.privacy.lemmas.centred_vote_change_substitution",),
        lemmas=("centred_vote_change_substitution",),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: sensitivity.counts-binding",
    ),
    Obligation(
        id="sensitivity.centred-vote-add-remove-lemma",
        source=f"{BAYES_CONSISTENCY}:L206 (Thm 3.1 proof)",
        claim="PCL's per-cell votes Σ(y − ½) move by exactly ½ in L1 under add/remove",
        method=Method.EXACT,
        predicates=("dpspec.proofs.topics.privacy.lemmas.centred_vote_change_add_remove",),
        lemmas=("centred_vote_change_add_remove",),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: sensitivity.counts-binding",
    ),
    Obligation(
        id="dp.post-processing-lemma",
        source=f"{THESIS}:L643 (Thm 3.2.3, post-processing)",
        claim="a pointwise ratio bound survives any deterministic map of the outputs",
        method=Method.CROSSHAIR,
        predicates=("dpspec.proofs.topics.privacy.lemmas.postprocessing_ratio",),
        lemmas=("postprocessing_ratio",),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: sensitivity.counts-binding",
    ),
    Obligation(
        id="estimator.protocol",
        source="scikit-learn estimator protocol (fit/predict/score/get_params/set_params)",
        claim="the learners follow sklearn's public estimator conventions",
        method=Method.PROPERTY,
        impls=(
            "dpspec.learners.estimator.EstimatorProtocol",
            "dpspec.learners.estimator.NotFittedError",
            "dpspec.learners.estimator.DataConversionWarning",
            "dpspec.learners.estimator.BinaryCellClassifier",
            "dpspec.learners.estimator.model_key",
            "dpspec.learners.estimator.check_binary_labels",
            "dpspec.learners.estimator.check_unit_cube",
        ),
        checks=("estimator_protocol",),
        tests=(
            "tests/test_sklearn_conformance.py::test_sklearn_check_estimator",
            "tests/test_sklearn_conformance.py::test_clip_is_a_per_record_map",
            "tests/test_sklearn_conformance.py::test_errors_are_sklearn_errors",
        ),
        bug_controls=(
            BugControl(
                "dpspec.learners.estimator.EstimatorProtocol.set_params",
                "setattr(self, key, value)",
                "None",
                "set_params ignoring the new values",
            ),
        ),
    ),
)
