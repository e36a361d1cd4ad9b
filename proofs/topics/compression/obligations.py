"""The registered guarantees of this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import THESIS

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="quantiles.lemma-binding",
        source=f"{THESIS}:L693-703 (weighted median and quantiles); {THESIS}:L953-972 (rho)",
        claim=(
            "the code that runs equals the lemma functions: weighted_quantiles / weighted_median "
            "(MedBoost's quantiles) and the vote of reconstruct (the scheme's rho, the upper "
            "median of its hypotheses)"
        ),
        method=Method.PROPERTY,
        predicates=(
            "dpspec.proofs.topics.compression.lemmas.quantile_lower_order",
            "dpspec.proofs.topics.compression.lemmas.quantile_upper_order",
            "dpspec.proofs.topics.compression.lemmas._median3",
        ),
        impls=(
            "dpspec.compression.boosting.weighted_quantiles",
            "dpspec.compression.boosting.weighted_median",
            "dpspec.compression.schemes.reconstruct",
        ),
        checks=("bindings:quantiles_binding",),
        tests=("tests/test_lemma_bindings.py::test_binding_checks_catch_a_broken_rule",),
        bug_controls=(
            BugControl(
                "dpspec.compression.schemes._median_of",
                "return np.asarray(weighted_median(values, np.ones(len(hypotheses))))",
                "return -np.asarray(weighted_median(-values, np.ones(len(hypotheses))))",
                "rho voting with the lower median (the thesis's median is the upper one)",
            ),
            BugControl(
                "dpspec.compression.boosting.weighted_quantiles",
                "plus_ok = above < limit",
                "plus_ok = above <= limit",
                "Q+ with a non-strict share (<= where L693-703 has <)",
            ),
        ),
    ),
    Obligation(
        id="quantiles.order-lemma",
        source=f"{THESIS}:L693-703 (weighted median and quantiles)",
        claim=(
            "Q-_gamma <= Median <= Q+_gamma, each one of the values: the lemmas' contracts on "
            "every input of their finite domain (exhaustive enumeration)"
        ),
        method=Method.EXACT,
        lemmas=("quantile_lower_order", "quantile_upper_order"),
        checks=("quantile_order_control",),
        predicates=(
            "dpspec.spec.compression.quantile_plus",
            "dpspec.spec.compression.quantile_minus",
            "dpspec.spec.compression.weighted_median",
            "dpspec.proofs.topics.compression.lemmas.quantile_lower_order",
            "dpspec.proofs.topics.compression.lemmas.quantile_upper_order",
        ),
        tests=("tests/test_compression.py::test_quantile_definitions",),
        binding="differential: quantiles.lemma-binding",
    ),
    Obligation(
        id="quantiles.median-lipschitz-lemma",
        source=f"{THESIS}:L693-703; {THESIS}:L1001 (median 1-Lipschitz in the sup norm)",
        claim=(
            "|Med(a) - Med(b)| <= ||a - b||_inf for three values, attained: the three case "
            "lemmas on every input of their finite domain (exhaustive enumeration)"
        ),
        method=Method.EXACT,
        lemmas=(
            "median_lipschitz_d_mid",
            "median_lipschitz_e_mid",
            "median_lipschitz_f_mid",
        ),
        checks=("median_lipschitz_control",),
        predicates=(
            "dpspec.proofs.topics.compression.lemmas.median_lipschitz_d_mid",
            "dpspec.proofs.topics.compression.lemmas.median_lipschitz_e_mid",
            "dpspec.proofs.topics.compression.lemmas.median_lipschitz_f_mid",
        ),
        tests=("tests/test_compression.py::test_quantile_definitions",),
        binding="differential: quantiles.lemma-binding",
    ),
    Obligation(
        id="quantiles.vectorised",
        source=f"{THESIS}:L693-703",
        claim=(
            "the vectorised quantiles equal the definitions; order, monotonicity in gamma, "
            "1-Lipschitz median"
        ),
        method=Method.PROPERTY,
        predicates=("dpspec.spec.compression.quantile_plus",),
        impls=(
            "dpspec.compression.boosting.weighted_quantiles",
            "dpspec.compression.boosting.weighted_median",
        ),
        checks=("quantiles",),
    ),
    Obligation(
        id="medboost.invariants",
        source=(
            f"{THESIS}:L687 (Alg 2); {THESIS}:L707-721 (Lemma 4.1.1, Cor 4.1.2); {THESIS}:L759-763 "
            "(per-round factor)"
        ),
        claim=(
            "P_t distributions, alpha_t > 0, error of h_t under P_(t+1) = (1-gamma)/2, factor < "
            "e^(-gamma^2/4), Kegl's bound, zero violations at T >= (4/gamma^2) ln m"
        ),
        method=Method.PROPERTY,
        impls=(
            "dpspec.compression.boosting.medboost",
            "dpspec.compression.boosting.BoostResult",
            "dpspec.compression.boosting.WeakLearner",
            "dpspec.compression.boosting.CompressionFailure",
        ),
        checks=("medboost_invariants",),
        tests=("tests/test_compression.py::test_bad_input",),
        bug_controls=(
            BugControl(
                "dpspec.compression.boosting.medboost",
                "alpha = 0.5 * math.log((1 - gamma) * (1 - err) / ((1 + gamma) * err))",
                "alpha = 0.5 * math.log((1 - err) / err)",
                "AdaBoost's alpha: the factor (1 - gamma)/(1 + gamma) dropped",
            ),
        ),
    ),
    Obligation(
        id="compression.schemes",
        source=(
            f"{THESIS}:L936-938 (Alg 3, Sparsify); {THESIS}:L953-972 (the scheme); "
            f"{THESIS}:L1205-1213 (2d-point rectangles); {THESIS}:L553-565 (definitions)"
        ),
        claim=(
            "kappa(S) is a sub-multiset of S, rho reproduces every label (binary) or is within "
            "eta (real-valued), size bounded independently of m; one point too few breaks it"
        ),
        method=Method.PROPERTY,
        predicates=(
            "dpspec.spec.compression.is_submultiset",
            "dpspec.spec.compression.size_within",
            "dpspec.spec.compression.reconstructs_exactly",
            "dpspec.spec.compression.uniformly_approximates",
        ),
        impls=(
            "dpspec.compression.boosting.sparsify",
            "dpspec.compression.boosting.SparsifyResult",
            "dpspec.compression.schemes.compress",
            "dpspec.compression.schemes.reconstruct",
            "dpspec.compression.schemes.CompressedSample",
            "dpspec.compression.schemes.rectangle_baseline",
            "dpspec.compression.schemes.random_realizable_sample",
            "dpspec.compression.schemes.bv_target",
            "dpspec.compression.learners.RectangleLearner",
        ),
        checks=("schemes",),
        tests=(
            "tests/test_compression.py::test_schemes_reconstruct",
            "tests/test_compression.py::test_cli_compress",
        ),
    ),
    Obligation(
        id="compression.learner-rules",
        source=(
            f"{THESIS}:L889-897 (deterministic proper ERM); {THESIS}:L530-537 (thresholds, "
            f"intervals); {THESIS}:L1030-1050 (BV)"
        ),
        claim=(
            "each weak learner's hypothesis predicts exactly the rule its ERM scored (closed "
            "ends; ties, repeated points and points on the ends included) with 0 empirical "
            "mistakes on realizable samples"
        ),
        method=Method.PROPERTY,
        predicates=(
            "dpspec.spec.compression.threshold_rule",
            "dpspec.spec.compression.interval_rule",
            "dpspec.spec.compression.box_rule",
            "dpspec.spec.compression.step_rule",
            "dpspec.spec.compression.empirical_mistakes",
        ),
        impls=(
            "dpspec.compression.learners.ThresholdLearner",
            "dpspec.compression.learners.IntervalLearner",
            "dpspec.compression.learners.RectangleLearner",
            "dpspec.compression.learners.StepLearner",
        ),
        checks=("learner_rules",),
        tests=("tests/test_compression.py::test_learners_are_closed_at_their_ends",),
        bug_controls=(
            BugControl(
                "dpspec.compression.learners._Threshold.__call__",
                "(_scalar(q) >= self.t)",
                "(_scalar(q) > self.t)",
                "thresholds predicting 1[x > t] where the ERM scored 1[x >= t]",
            ),
            BugControl(
                "dpspec.compression.learners._Interval.__call__",
                "(x <= self.b)",
                "(x < self.b)",
                "intervals open at their right end",
            ),
        ),
    ),
    Obligation(
        id="compression.proper-learners",
        source=f"{THESIS}:L889-897 (deterministic proper ERM); {THESIS}:L1030-1050 (BV)",
        claim="the step learner stays in BV(v), the interpolation keeps the Lipschitz constant",
        method=Method.PROPERTY,
        impls=(
            "dpspec.compression.learners.StepLearner",
            "dpspec.compression.learners.LinearLearner",
        ),
        checks=("lipschitz_learner_is_proper",),
    ),
    Obligation(
        id="compression.bv-dual-witness",
        source=f"{THESIS}:L1061-1100 (Lemma 4.2.5, Thm 4.2.3, Lemma 4.2.7)",
        claim=(
            "floor(log2(v/t)) functions on a Gray-code grid dual-shatter at margin t within "
            "BV(v); the corrected Lemma 4.2.5 bounds k <= 2 log2(v/t)"
        ),
        method=Method.EXACT,
        checks=("witnesses:gray_code_witness",),
    ),
    Obligation(
        id="erratum.thesis-lemma-4.1.3",
        source=f"{THESIS}:L725-735 (Lemma 4.1.3)",
        claim=(
            "Lemma 4.1.3 as printed is false (gamma = 1/10, x = 3/5); the corrected right side "
            "(1/2+gamma)^(1+gamma)(1/2-gamma)^(1-gamma) holds, attained at x = 1/2 + gamma"
        ),
        method=Method.EXACT,
        checks=("witnesses:lemma_413",),
    ),
    Obligation(
        id="erratum.thesis-lemma-4.2.5",
        source=f"{THESIS}:L1061-1066 (Lemma 4.2.5)",
        claim="V(M) >= 2^n/n fails at n = 1 (brute force); (2^n - 1)/n holds for n <= 3",
        method=Method.EXACT,
        checks=("witnesses:lemma_425",),
    ),
    Obligation(
        id="erratum.thesis-L962-binary-margin",
        source=f"{THESIS}:L956-962 (proof of Thm 1.1.1)",
        claim="the binary margin is gamma/2 (= 1/16), not the printed 1/8: exact example",
        method=Method.EXACT,
        predicates=("dpspec.spec.compression.quantile_plus",),
        checks=("witnesses:binary_margin",),
    ),
    Obligation(
        id="compression.lipschitz-dual-witness",
        source=f"{THESIS}:L1181-1190 (Lemma 4.2.10: onto code, values 1/2 +- t, McShane)",
        claim=(
            "floor(log2 M(X, 2t/L)) L-Lipschitz functions dual-shatter at margin t; 2^n <= the "
            "packing number"
        ),
        method=Method.EXACT,
        checks=("witnesses:lipschitz_dual_witness",),
    ),
    Obligation(
        id="compression.chernoff-per-point",
        source=f"{THESIS}:L1001-1003 (eq. 4.6, per-point Chernoff bound in Sparsify)",
        claim="P(>= n/2 of n draws wrong) <= 2 exp(-n gamma^2/2), exact binomial tails",
        method=Method.EXACT,
        checks=("witnesses:chernoff_per_point",),
    ),
)
