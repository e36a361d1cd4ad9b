"""The registered guarantees of this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import LDP_REGRESSION

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="ldp-randomiser.lemma-binding",
        source=f"{LDP_REGRESSION}:L247-251 (Prop 1); L640-656 (proof)",
        claim=(
            "the log-weight difference of two exact report laws of LocalRandomiser equals the "
            "lemma functions' sums over the noise scales; the signal is in the lemmas' domain"
        ),
        method=Method.PROPERTY,
        predicates=(
            "dpspec.proofs.topics.ldp.lemmas.onehot_sensitivity",
            "dpspec.proofs.topics.ldp.lemmas.response_sensitivity",
            "dpspec.proofs.topics.ldp.lemmas.log_ratio_core",
        ),
        impls=("dpspec.ldp.mechanism.LocalRandomiser.report_law",),
        checks=("bindings:ldp_binding",),
        tests=("tests/test_lemma_bindings.py::test_binding_checks_catch_a_broken_rule",),
    ),
    Obligation(
        id="ldp-randomiser.privacy",
        source=(
            f"{LDP_REGRESSION}:L247-251 (Prop 1); {LDP_REGRESSION}:L136-150 (eqs. 5-7); "
            f"{LDP_REGRESSION}:L640-656 (proof)"
        ),
        claim=(
            "the law of a report (exact lattice randomiser: a product of discrete Laplace pmfs; "
            "idealised: Prop 1's Laplace densities) has log likelihood ratio <= the epsilon the "
            "caller passed between any two inputs, attained; the lattice rounding never weakens it"
        ),
        method=Method.EXACT,
        predicates=(
            "dpspec.spec.ldp.onehot_change",
            "dpspec.spec.ldp.response_change",
            "dpspec.spec.ldp.report_log_ratio",
            "dpspec.spec.ldp.satisfies_prop1",
        ),
        impls=(
            "dpspec.ldp.mechanism.LocalRandomiser",
            "dpspec.ldp.mechanism.ReportLaw",
            "dpspec.ldp.mechanism.lattice_scale",
            "dpspec.ldp.mechanism.noise_scales",
            "dpspec.ldp.partition.CubicPartition",
        ),
        checks=("prop1_exact",),
        tests=("tests/test_ldp.py::test_prop1_on_random_reports",),
        entry_points=(
            "dpspec.ldp.mechanism.LocalRandomiser.report_law",
            "dpspec.ldp.mechanism.LocalRandomiser.randomise",
        ),
        privacy=True,
        binding="conformance: ldp-randomiser.law (report_law is the law randomise draws)",
    ),
    Obligation(
        id="ldp-randomiser.law",
        source=(
            f"{LDP_REGRESSION}:L136-150 (eqs. 5-7: the reports); {LDP_REGRESSION}:L247-251 (Prop 1)"
        ),
        claim=(
            "randomise, the batched path of collect/fit (exact and idealised, W+Z and Z only) "
            "draw from report_law (chi-square at α = 1e-6; the 2ε randomiser is rejected); "
            "fit releases exactly the aggregate of the caller's randomiser"
        ),
        method=Method.STATISTICAL,
        impls=(
            "dpspec.ldp.mechanism.LocalRandomiser",
            "dpspec.ldp.mechanism.ReportLaw",
            "dpspec.ldp.mechanism.aggregate",
            "dpspec.ldp.estimators.LDPPartitionRegressor",
            "dpspec.ldp.estimators.LDPPartitionClassifier",
        ),
        checks=("randomiser_conformance",),
        tests=("tests/test_ldp.py::test_reports_on_lattice",),
        entry_points=(
            "dpspec.ldp.mechanism.LocalRandomiser.randomise",
            "dpspec.ldp.mechanism.LocalRandomiser.batches",
            "dpspec.ldp.mechanism.LocalRandomiser.collect",
            "dpspec.ldp.mechanism.LocalRandomiser.collect_in_law",
            "dpspec.ldp.estimators.LDPPartitionRegressor.fit",
            "dpspec.ldp.estimators.LDPPartitionClassifier.fit",
        ),
        privacy=True,
    ),
    Obligation(
        id="ldp-randomiser.reported-level",
        source=f"{LDP_REGRESSION}:L247-251 (Prop 1: the level α = epsilon)",
        claim=(
            "privacy (randomiser) and privacy_ (fitted estimators) state exactly the ε asked, "
            "Prop 1's level at the paper's calibration; the exact lattice level is <= epsilon"
        ),
        method=Method.EXACT,
        predicates=("dpspec.spec.ldp.prop1_bound",),
        impls=(
            "dpspec.ldp.mechanism.LocalRandomiser",
            "dpspec.ldp.mechanism.noise_scales",
            "dpspec.ldp.mechanism.privacy_level",
        ),
        checks=("reported_level",),
        tests=("tests/test_ldp.py::test_estimators_follow_sklearn_conventions",),
        entry_points=(
            "dpspec.ldp.mechanism.LocalRandomiser.__init__",
            "dpspec.ldp.estimators.LDPPartitionRegressor.fit",
            "dpspec.ldp.estimators.LDPPartitionClassifier.fit",
        ),
        privacy=True,
    ),
    Obligation(
        id="ldp-randomiser.onehot-lemma",
        source=f"{LDP_REGRESSION}:L640-656 (proof of Prop 1: one-hot vector, L1 sensitivity 2)",
        claim="sum_j (|w_j - e'_j| - |w_j - e_j|) <= 2 for one-hot (or zero) cell vectors",
        method=Method.CROSSHAIR,
        lemmas=("onehot_sensitivity",),
        predicates=(
            "dpspec.spec.ldp.onehot_change",
            "dpspec.proofs.topics.ldp.lemmas.onehot_sensitivity",
        ),
        tests=("tests/test_ldp.py::test_lemmas_hold_on_examples",),
        binding="differential: ldp-randomiser.lemma-binding",
    ),
    Obligation(
        id="ldp-randomiser.response-lemma",
        source=(
            f"{LDP_REGRESSION}:L640-656 (proof of Prop 1: truncated responses, L1 sensitivity 2M)"
        ),
        claim="sum_j (|z_j - y' e'_j| - |z_j - y e_j|) <= 2M for |y|, |y'| <= M",
        method=Method.CROSSHAIR,
        lemmas=("response_sensitivity",),
        predicates=(
            "dpspec.spec.ldp.response_change",
            "dpspec.proofs.topics.ldp.lemmas.response_sensitivity",
        ),
        tests=("tests/test_ldp.py::test_lemmas_hold_on_examples",),
        binding="differential: ldp-randomiser.lemma-binding",
    ),
    Obligation(
        id="ldp-randomiser.log-ratio-lemma",
        source=(
            f"{LDP_REGRESSION}:L247-251 (Prop 1); {LDP_REGRESSION}:L640-656 (proof: sum over "
            "coordinates)"
        ),
        claim=(
            "a * sum_W + b * sum_Z <= 2a + 2bM (a = sqrt2/sigma_W, b = sqrt2/sigma_Z): the log "
            "density ratio summed over all 2N coordinates is <= Prop 1's level"
        ),
        method=Method.CROSSHAIR,
        lemmas=("log_ratio_core",),
        predicates=(
            "dpspec.spec.ldp.onehot_change",
            "dpspec.spec.ldp.response_change",
            "dpspec.proofs.topics.ldp.lemmas.log_ratio_core",
        ),
        tests=("tests/test_ldp.py::test_log_ratio_core_on_examples",),
        binding="differential: ldp-randomiser.lemma-binding",
    ),
    Obligation(
        id="ldp-randomiser.tight-witness",
        source=f"{LDP_REGRESSION}:L247-251 (Prop 1; the witness is derived in the digest)",
        claim=(
            "the witness event's probabilities have ratio e^ε (exact lattice law, about 1/16 "
            "and e^-ε/16); randomise matches; the auditor finds eps close to ε and flags "
            "the randomiser built at 2ε"
        ),
        method=Method.STATISTICAL,
        predicates=("dpspec.audit.core.epsilon_lower",),
        impls=("dpspec.ldp.mechanism.LocalRandomiser",),
        checks=("witness_audit",),
        tests=("tests/test_ldp.py::test_two_party_api",),
        entry_points=("dpspec.ldp.mechanism.LocalRandomiser.randomise",),
        privacy=True,
    ),
    Obligation(
        id="ldp.laplace-mean-tail",
        source=f"{LDP_REGRESSION}:L310-324 (Lemma 1)",
        claim=(
            "P(|mean of n unit-variance Laplace| >= eps) <= 2 exp(-n eps^2/4), 0 < eps < 2, by "
            "exact quadrature"
        ),
        method=Method.EXACT,
        checks=("lemma1_quadrature",),
    ),
    Obligation(
        id="ldp.in-law-simulation",
        source=f"{LDP_REGRESSION}:L136-150 (eqs. 5-7: the aggregated reports)",
        claim=(
            "drawing each cell's noise total as NB(n, 1-q) - NB(n, 1-q) lattice units (exact "
            "path) or sigma (Gamma(n,1/sqrt2) - Gamma(n,1/sqrt2)) (idealised) has the law of the "
            "sums of n users' reports"
        ),
        method=Method.STATISTICAL,
        impls=(
            "dpspec.ldp.mechanism.Reports",
            "dpspec.ldp.mechanism.aggregate",
        ),
        checks=("in_law_equivalence",),
        tests=("tests/test_ldp.py::test_collect_in_batches",),
        entry_points=(
            "dpspec.ldp.mechanism.LocalRandomiser.collect_in_law",
            "dpspec.ldp.mechanism.LocalRandomiser.collect",
        ),
        privacy=True,
    ),
    Obligation(
        id="ldp-regression.consistency",
        source=(
            f"{LDP_REGRESSION}:L154 (estimator); {LDP_REGRESSION}:L166-175 (Thm 2); "
            f"{LDP_REGRESSION}:L253-261 (fixed epsilon)"
        ),
        claim=(
            "the exact L2 error of the ε-LDP estimate falls along n and ends <= 0.1 (a trend; "
            "the theorem is a limit)"
        ),
        method=Method.STATISTICAL,
        predicates=("dpspec.spec.consistency.consistency_trend",),
        impls=(
            "dpspec.ldp.estimators.LDPPartitionRegressor",
            "dpspec.ldp.estimators.PartitioningRegressor",
            "dpspec.ldp.estimators.ball_radius",
            "dpspec.ldp.partition.bandwidth",
            "dpspec.ldp.partition.threshold_constant",
            "dpspec.ldp.partition.truncation_level",
            "dpspec.ldp.problems.SineProblem",
        ),
        checks=("regression_trend",),
        tests=(
            "tests/test_ldp.py::test_exact_errors_match_sampling",
            "tests/test_ldp.py::test_estimators_follow_sklearn_conventions",
            "tests/test_ldp.py::test_cli_consistency_ldp",
        ),
    ),
    Obligation(
        id="ldp-classification.consistency",
        source=f"{LDP_REGRESSION}:L273-300 (classification, Thm 4)",
        claim=(
            "the exact excess risk of sign(nu~) (Z only, sigma_Z = 2 sqrt2/epsilon) falls along n "
            "and ends <= 0.01"
        ),
        method=Method.STATISTICAL,
        predicates=("dpspec.spec.consistency.consistency_trend",),
        impls=("dpspec.ldp.estimators.LDPPartitionClassifier",),
        checks=("classification_trend",),
    ),
    Obligation(
        id="ldp-regression.rate-bound",
        source=f"{LDP_REGRESSION}:L191-205 (Thm 3 and eq. 11)",
        claim=(
            "mean exact L2 error <= 2 sigma_Z^2/(n c^2 h^2d) + 4 E(non-private error) + 4 L^2 (5 "
            "sigma_W^2 + 1)/(n c^2 h^2d)"
        ),
        method=Method.STATISTICAL,
        impls=("dpspec.ldp.estimators.PartitioningRegressor",),
        checks=("theorem3_bound",),
    ),
    Obligation(
        id="erratum.ldp-regression-thm2-fixed-alpha",
        source=f"{LDP_REGRESSION}:L166-175 (Thm 2) vs {LDP_REGRESSION}:L253-261",
        claim=(
            "with sigma fixed and M_n -> infinity the privacy level grows (printed Thm 2); "
            "dpspec's schedule keeps epsilon fixed"
        ),
        method=Method.EXACT,
        predicates=("dpspec.spec.ldp.prop1_bound",),
        impls=("dpspec.ldp.partition.truncation_level",),
        checks=("fixed_alpha_gap",),
    ),
    Obligation(
        id="erratum.ldp-regression-L94-L142-typos",
        source=(
            f"{LDP_REGRESSION}:L94 (x_(h,i) for x_(h,j)); {LDP_REGRESSION}:L142 (A_(h,i) for "
            "A_(h,j))"
        ),
        claim="index typos in the binned data and in eq. (6); the code uses the cell index j",
        method=Method.DOCUMENTED,
    ),
)
