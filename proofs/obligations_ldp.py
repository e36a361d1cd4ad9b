"""Registered obligations of seed 003 (Berrett, Györfi, Walk: locally private partitioning
regression and classification). Checks: ``proofs/checks_ldp.py``; lemmas:
``proofs/lemmas_ldp.py``; note: ``proofs/notes/ldp.md``.
"""

from __future__ import annotations

from dpspec.proofs import checks_ldp
from dpspec.proofs.lemma_obligations import crosshair_check
from dpspec.proofs.registry import Method, Obligation

S003 = "003_5e2a1f46235ac29b.txt"
_RUN = "tests/test_verifiers.py::test_registry_checks_pass"
_MECH = "dpspec.ldp.mechanism"
_PART = "dpspec.ldp.partition"
_EST = "dpspec.ldp.estimators"
NOTE = "notes/ldp.md"

LDP_OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="003.prop1.ldp",
        source=f"{S003}:L247-251 (Prop 1); {S003}:L136-150 (eqs. 5-7); {S003}:L640-656 (proof)",
        claim="the law of a report (exact lattice randomiser: a product of discrete Laplace "
        "pmfs; idealised: Prop 1's Laplace densities) has log likelihood ratio <= the alpha the "
        "caller passed between any two inputs, attained; the lattice rounding never weakens it",
        predicates=(
            "dpspec.spec.ldp.onehot_change",
            "dpspec.spec.ldp.response_change",
            "dpspec.spec.ldp.report_log_ratio",
            "dpspec.spec.ldp.satisfies_prop1",
        ),
        impls=(
            f"{_MECH}.LocalRandomiser",
            f"{_MECH}.ReportLaw",
            f"{_MECH}.lattice_scale",
            f"{_MECH}.noise_scales",
            f"{_PART}.CubicPartition",
        ),
        method=Method.EXACT,
        tests=(f"{_RUN}[003.prop1.ldp]", "tests/test_ldp.py::test_prop1_on_random_reports"),
        check=checks_ldp.prop1_exact,
        note=NOTE,
        entry_points=(f"{_MECH}.LocalRandomiser.report_law", f"{_MECH}.LocalRandomiser.randomise"),
        privacy=True,
        binding="conformance: 003.prop1.randomise-law (report_law is the law randomise draws)",
    ),
    Obligation(
        id="003.prop1.randomise-law",
        source=f"{S003}:L136-150 (eqs. 5-7: the reports); {S003}:L247-251 (Prop 1)",
        claim="randomise, the batched path of collect/fit (exact and idealised, W+Z and Z "
        "only) draw from report_law (chi-square, alpha = 1e-6; the 2 alpha randomiser is "
        "rejected); fit releases exactly the aggregate of the caller's randomiser",
        predicates=(),
        impls=(
            f"{_MECH}.LocalRandomiser",
            f"{_MECH}.ReportLaw",
            f"{_MECH}.aggregate",
            f"{_EST}.LDPPartitionRegressor",
            f"{_EST}.LDPPartitionClassifier",
        ),
        method=Method.STATISTICAL,
        tests=(f"{_RUN}[003.prop1.randomise-law]", "tests/test_ldp.py::test_reports_on_lattice"),
        check=checks_ldp.randomiser_conformance,
        note=NOTE,
        entry_points=(
            f"{_MECH}.LocalRandomiser.randomise",
            f"{_MECH}.LocalRandomiser.batches",
            f"{_MECH}.LocalRandomiser.collect",
            f"{_MECH}.LocalRandomiser.collect_in_law",
            f"{_EST}.LDPPartitionRegressor.fit",
            f"{_EST}.LDPPartitionClassifier.fit",
        ),
        privacy=True,
    ),
    Obligation(
        id="003.prop1.reported-level",
        source=f"{S003}:L247-251 (Prop 1: the level alpha)",
        claim="privacy (randomiser) and privacy_ (fitted estimators) state exactly the alpha "
        "asked, Prop 1's level at the paper's calibration; the exact lattice level is <= alpha",
        predicates=("dpspec.spec.ldp.prop1_bound",),
        impls=(f"{_MECH}.LocalRandomiser", f"{_MECH}.noise_scales", f"{_MECH}.privacy_level"),
        method=Method.EXACT,
        tests=(
            f"{_RUN}[003.prop1.reported-level]",
            "tests/test_ldp.py::test_estimators_follow_sklearn_conventions",
        ),
        check=checks_ldp.reported_level,
        note=NOTE,
        entry_points=(
            f"{_MECH}.LocalRandomiser.__init__",
            f"{_EST}.LDPPartitionRegressor.fit",
            f"{_EST}.LDPPartitionClassifier.fit",
        ),
        privacy=True,
    ),
    Obligation(
        id="003.prop1.onehot-core",
        source=f"{S003}:L640-656 (proof of Prop 1: one-hot vector, L1 sensitivity 2)",
        claim="sum_j (|w_j - e'_j| - |w_j - e_j|) <= 2 for one-hot (or zero) cell vectors",
        predicates=(
            "dpspec.spec.ldp.onehot_change",
            "dpspec.proofs.lemmas_ldp.onehot_sensitivity",
        ),
        impls=(),
        method=Method.CROSSHAIR,
        tests=("tests/test_ldp.py::test_lemmas_hold_on_examples",),
        check=crosshair_check("onehot_sensitivity", module="dpspec.proofs.lemmas_ldp"),
        note=NOTE,
        binding="differential: lemma.binding.ldp",
    ),
    Obligation(
        id="003.prop1.response-core",
        source=f"{S003}:L640-656 (proof of Prop 1: truncated responses, L1 sensitivity 2M)",
        claim="sum_j (|z_j - y' e'_j| - |z_j - y e_j|) <= 2M for |y|, |y'| <= M",
        predicates=(
            "dpspec.spec.ldp.response_change",
            "dpspec.proofs.lemmas_ldp.response_sensitivity",
        ),
        impls=(),
        method=Method.CROSSHAIR,
        tests=("tests/test_ldp.py::test_lemmas_hold_on_examples",),
        check=crosshair_check("response_sensitivity", module="dpspec.proofs.lemmas_ldp"),
        note=NOTE,
        binding="differential: lemma.binding.ldp",
    ),
    Obligation(
        id="003.prop1.log-ratio-core",
        source=f"{S003}:L247-251 (Prop 1); {S003}:L640-656 (proof: sum over coordinates)",
        claim="a * sum_W + b * sum_Z <= 2a + 2bM (a = sqrt2/sigma_W, b = sqrt2/sigma_Z): the "
        "log density ratio summed over all 2N coordinates is <= Prop 1's level",
        predicates=(
            "dpspec.spec.ldp.onehot_change",
            "dpspec.spec.ldp.response_change",
            "dpspec.proofs.lemmas_ldp.log_ratio_core",
        ),
        impls=(),
        method=Method.CROSSHAIR,
        tests=("tests/test_ldp.py::test_log_ratio_core_on_examples",),
        check=crosshair_check("log_ratio_core", module="dpspec.proofs.lemmas_ldp"),
        note=NOTE,
        binding="differential: lemma.binding.ldp",
    ),
    Obligation(
        id="003.prop1.tight-witness",
        source=f"{S003}:L247-251 (Prop 1; the witness is derived in the digest)",
        claim="the witness event's probabilities have ratio e^alpha (exact lattice law, "
        "about 1/16 and e^-alpha/16); randomise matches; the auditor finds eps close to alpha "
        "and flags the randomiser built at 2 alpha",
        predicates=("dpspec.audit.core.epsilon_lower",),
        impls=(f"{_MECH}.LocalRandomiser",),
        method=Method.STATISTICAL,
        tests=(f"{_RUN}[003.prop1.tight-witness]", "tests/test_ldp.py::test_two_party_api"),
        check=checks_ldp.witness_audit,
        note=NOTE,
        entry_points=(f"{_MECH}.LocalRandomiser.randomise",),
        privacy=True,
    ),
    Obligation(
        id="003.lemma1.laplace-mean-tail",
        source=f"{S003}:L310-324 (Lemma 1)",
        claim="P(|mean of n unit-variance Laplace| >= eps) <= 2 exp(-n eps^2/4), 0 < eps < 2, "
        "by exact quadrature",
        predicates=(),
        impls=(),
        method=Method.EXACT,
        tests=(f"{_RUN}[003.lemma1.laplace-mean-tail]",),
        check=checks_ldp.lemma1_quadrature,
        note=NOTE,
    ),
    Obligation(
        id="003.in-law-simulation",
        source=f"{S003}:L136-150 (eqs. 5-7: the aggregated reports)",
        claim="drawing each cell's noise total as NB(n, 1-q) - NB(n, 1-q) lattice units "
        "(exact path) or sigma (Gamma(n,1/sqrt2) - Gamma(n,1/sqrt2)) (idealised) has the law "
        "of the sums of n users' reports",
        predicates=(),
        impls=(f"{_MECH}.Reports", f"{_MECH}.aggregate"),
        method=Method.STATISTICAL,
        tests=(f"{_RUN}[003.in-law-simulation]", "tests/test_ldp.py::test_collect_in_batches"),
        check=checks_ldp.in_law_equivalence,
        note=NOTE,
        entry_points=(
            f"{_MECH}.LocalRandomiser.collect_in_law",
            f"{_MECH}.LocalRandomiser.collect",
        ),
        privacy=True,
    ),
    Obligation(
        id="003.thm2.regression-consistency",
        source=f"{S003}:L154 (estimator); {S003}:L166-175 (Thm 2); {S003}:L253-261 (fixed alpha)",
        claim="the exact L2 error of the alpha-LDP estimate falls along n and ends <= 0.1 "
        "(a trend; the theorem is a limit)",
        predicates=("dpspec.spec.consistency.consistency_trend",),
        impls=(
            f"{_EST}.LDPPartitionRegressor",
            f"{_EST}.PartitioningRegressor",
            f"{_EST}.ball_radius",
            f"{_PART}.bandwidth",
            f"{_PART}.threshold_constant",
            f"{_PART}.truncation_level",
            "dpspec.ldp.problems.SineProblem",
        ),
        method=Method.STATISTICAL,
        tests=(
            f"{_RUN}[003.thm2.regression-consistency]",
            "tests/test_ldp.py::test_exact_errors_match_sampling",
            "tests/test_ldp.py::test_estimators_follow_sklearn_conventions",
            "tests/test_ldp.py::test_cli_consistency_ldp",
        ),
        check=checks_ldp.regression_trend,
        note=NOTE,
    ),
    Obligation(
        id="003.thm4.classification-consistency",
        source=f"{S003}:L273-300 (classification, Thm 4)",
        claim="the exact excess risk of sign(nu~) (Z only, sigma_Z = 2 sqrt2/alpha) falls "
        "along n and ends <= 0.01",
        predicates=("dpspec.spec.consistency.consistency_trend",),
        impls=(f"{_EST}.LDPPartitionClassifier",),
        method=Method.STATISTICAL,
        tests=(f"{_RUN}[003.thm4.classification-consistency]",),
        check=checks_ldp.classification_trend,
        note=NOTE,
    ),
    Obligation(
        id="003.thm3.explicit-bound",
        source=f"{S003}:L191-205 (Thm 3 and eq. 11)",
        claim="mean exact L2 error <= 2 sigma_Z^2/(n c^2 h^2d) + 4 E(non-private error) + "
        "4 L^2 (5 sigma_W^2 + 1)/(n c^2 h^2d)",
        predicates=(),
        impls=(f"{_EST}.PartitioningRegressor",),
        method=Method.STATISTICAL,
        tests=(f"{_RUN}[003.thm3.explicit-bound]",),
        check=checks_ldp.theorem3_bound,
        note=NOTE,
    ),
    Obligation(
        id="E-003-thm2-fixed-alpha",
        source=f"{S003}:L166-175 (Thm 2) vs {S003}:L253-261",
        claim="with sigma fixed and M_n -> infinity the privacy level grows (printed Thm 2); "
        "dpspec's schedule keeps alpha fixed",
        predicates=("dpspec.spec.ldp.prop1_bound",),
        impls=(f"{_PART}.truncation_level",),
        method=Method.EXACT,
        tests=(f"{_RUN}[E-003-thm2-fixed-alpha]",),
        check=checks_ldp.fixed_alpha_gap,
        note=NOTE,
    ),
    Obligation(
        id="E-003-typos",
        source=f"{S003}:L94 (x_(h,i) for x_(h,j)); {S003}:L142 (A_(h,i) for A_(h,j))",
        claim="index typos in the binned data and in eq. (6); the code uses the cell index j",
        predicates=(),
        impls=(),
        method=Method.DOCUMENTED,
        tests=(),
        note=NOTE,
    ),
)
