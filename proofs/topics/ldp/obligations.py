"""The registered guarantees of this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import Kind, Method, Obligation
from dpspec.proofs.engine.seeds import LDP_REGRESSION

_RANDOMISER = "dpspec.ldp.mechanism.LocalRandomiser"

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
        impls=(f"{_RANDOMISER}.pmf", "dpspec.ldp.mechanism.ReportLaw"),
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
            "caller passed between any two inputs, attained up to 1e-5, for epsilon and M drawn "
            "by Hypothesis (their limits included) and both values of idealised"
        ),
        method=Method.EXACT,
        predicates=(
            "dpspec.spec.ldp.onehot_change",
            "dpspec.spec.ldp.response_change",
            "dpspec.spec.ldp.report_log_ratio",
            "dpspec.spec.ldp.satisfies_prop1",
        ),
        impls=(
            _RANDOMISER,
            "dpspec.ldp.mechanism.ReportLaw",
            "dpspec.ldp.mechanism.noise_scales",
            "dpspec.ldp.partition.CubicPartition",
        ),
        checks=("prop1_exact",),
        tests=("tests/test_ldp.py::test_prop1_on_random_reports",),
        entry_points=(f"{_RANDOMISER}.pmf",),
        privacy=True,
        binding="exact: ldp-randomiser.exact-law (pmf is the law randomise draws)",
    ),
    Obligation(
        id="ldp-randomiser.exact-law",
        source=f"{LDP_REGRESSION}:L136-150 (eqs. 5-7: the reports)",
        claim=(
            "randomise, sample and collect, driven with every noise vector of a box on every "
            "input of a tiny domain, return exactly step*(centre + noise) of pmf's law, and "
            "draw from the law's noise objects (exact and idealised, W+Z and Z only)"
        ),
        method=Method.EXACT,
        impls=(_RANDOMISER, "dpspec.ldp.mechanism.Reports"),
        checks=("exact_law",),
        tests=("tests/test_ldp.py::test_reports_on_lattice",),
        bug_controls=(
            BugControl(
                f"{_RANDOMISER}.__init__",
                "self.noise_z = DiscreteLaplaceNoise(scale=self.scale_z)",
                "self.noise_z = DiscreteLaplaceNoise(scale=self.scale_z * Fraction(4, 5))",
                "the Z noise drawn for epsilon x 1.25 (pmf states epsilon)",
            ),
            BugControl(
                f"{_RANDOMISER}._randomise",
                "w_units[rows, own] += W_ONE",
                "w_units[rows, own] += 2 * W_ONE",
                "the sampler adding the W indicator twice (pmf unchanged)",
            ),
        ),
        entry_points=(
            f"{_RANDOMISER}.randomise",
            f"{_RANDOMISER}.sample",
            f"{_RANDOMISER}.collect",
            f"{_RANDOMISER}.pmf",
        ),
        privacy=True,
    ),
    Obligation(
        id="ldp-randomiser.law",
        source=(
            f"{LDP_REGRESSION}:L136-150 (eqs. 5-7: the reports); {LDP_REGRESSION}:L247-251 (Prop 1)"
        ),
        claim=(
            "randomise, sample and the batched path of collect/fit (exact and idealised, W+Z "
            "and Z only) draw from pmf's law (chi-square at alpha = 1e-6; the randomiser built "
            "for epsilon x 1.25 is rejected)"
        ),
        method=Method.STATISTICAL,
        impls=(_RANDOMISER, "dpspec.ldp.mechanism.ReportLaw"),
        checks=("sampling:randomiser_conformance",),
        tests=("tests/test_ldp.py::test_reports_on_lattice",),
        entry_points=(f"{_RANDOMISER}.randomise", f"{_RANDOMISER}.sample"),
        privacy=True,
    ),
    Obligation(
        id="ldp-randomiser.reported-level",
        source=f"{LDP_REGRESSION}:L247-251 (Prop 1: the level alpha = epsilon)",
        claim=(
            "privacy (randomiser) and privacy_ (fitted estimators) state exactly the epsilon "
            "asked, Prop 1's level at the paper's calibration; the exact lattice level is in "
            "[epsilon(1 - 1e-5), epsilon]"
        ),
        method=Method.EXACT,
        predicates=("dpspec.spec.ldp.prop1_bound",),
        impls=(
            _RANDOMISER,
            "dpspec.ldp.mechanism.noise_scales",
            "dpspec.ldp.mechanism.privacy_level",
        ),
        checks=("reported_level",),
        tests=("tests/test_ldp.py::test_estimators_follow_sklearn_conventions",),
        entry_points=(
            f"{_RANDOMISER}.__init__",
            "dpspec.ldp.estimators.LDPPartitionRegressor.fit",
            "dpspec.ldp.estimators.LDPPartitionClassifier.fit",
        ),
        privacy=True,
    ),
    Obligation(
        id="ldp-estimators.privacy",
        source=f"{LDP_REGRESSION}:L247-251 (Prop 1); {LDP_REGRESSION}:L154 (the estimate)",
        claim=(
            "LDPPartitionRegressor and LDPPartitionClassifier, for epsilon drawn by Hypothesis "
            "and both values of idealised (users and in-law), release the reports of a "
            "randomiser built from the caller's epsilon, whose exact level is <= epsilon"
        ),
        method=Method.EXACT,
        impls=(
            "dpspec.ldp.estimators.LDPPartitionRegressor",
            "dpspec.ldp.estimators.LDPPartitionClassifier",
            "dpspec.ldp.mechanism.aggregate",
        ),
        checks=("estimators_privacy",),
        tests=("tests/test_ldp.py::test_estimators_follow_sklearn_conventions",),
        bug_controls=(
            BugControl(
                "dpspec.ldp.estimators._PrivatePartitionEstimator._randomiser",
                'partition, params["epsilon"], truncation',
                'partition, min(700.0, 1.25 * params["epsilon"]), truncation',
                "the estimators randomising for epsilon x 1.25",
            ),
        ),
        entry_points=(
            "dpspec.ldp.estimators.LDPPartitionRegressor.fit",
            "dpspec.ldp.estimators.LDPPartitionClassifier.fit",
            f"{_RANDOMISER}.collect",
            f"{_RANDOMISER}.collect_in_law",
        ),
        privacy=True,
    ),
    Obligation(
        id="ldp-randomiser.onehot-lemma",
        source=f"{LDP_REGRESSION}:L640-656 (proof of Prop 1: one-hot vector, L1 sensitivity 2)",
        claim="sum_j (|w_j - e'_j| - |w_j - e_j|) <= 2 for one-hot (or zero) cells, attained",
        method=Method.CROSSHAIR,
        lemmas=("onehot_sensitivity",),
        checks=("lemma_tightness",),
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
        claim="sum_j (|z_j - y' e'_j| - |z_j - y e_j|) <= 2M for |y|, |y'| <= M, attained",
        method=Method.CROSSHAIR,
        lemmas=("response_sensitivity",),
        checks=("lemma_tightness",),
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
            "density ratio summed over all 2N coordinates is <= Prop 1's level, attained"
        ),
        method=Method.CROSSHAIR,
        lemmas=("log_ratio_core",),
        checks=("lemma_tightness",),
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
            "the witness event's probabilities have ratio e^epsilon (exact lattice law, about "
            "1/16 and e^-epsilon/16); sample matches; the auditor finds eps close to epsilon and "
            "flags the randomiser built for epsilon x 1.25"
        ),
        method=Method.STATISTICAL,
        predicates=("dpspec.audit.bounds._epsilon_lower",),
        impls=(_RANDOMISER,),
        checks=("sampling:witness_audit",),
        tests=("tests/test_ldp.py::test_two_party_api",),
        entry_points=(f"{_RANDOMISER}.sample",),
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
        checks=("utility:lemma1_quadrature",),
        kind=Kind.DEMONSTRATION,
        reason=(
            "a Chernoff bound, loose by a factor >= 2.3 on every instance (exact tails by "
            "quadrature): a bound understated 2x still holds; the law of the sums it bounds is "
            "pinned by ldp.in-law-simulation"
        ),
    ),
    Obligation(
        id="ldp.in-law-simulation",
        source=f"{LDP_REGRESSION}:L136-150 (eqs. 5-7: the aggregated reports)",
        claim=(
            "drawing each cell's noise total as NB(n, 1-q) - NB(n, 1-q) lattice units (exact "
            "path) or sigma (Gamma(n,1/sqrt2) - Gamma(n,1/sqrt2)) (idealised) has the law of the "
            "sums of n users' reports (KS) and their exact variance; epsilon x 1.25 is rejected"
        ),
        method=Method.STATISTICAL,
        impls=("dpspec.ldp.mechanism.Reports", "dpspec.ldp.mechanism.aggregate"),
        checks=("sampling:in_law_equivalence",),
        tests=("tests/test_ldp.py::test_collect_in_batches",),
        entry_points=(f"{_RANDOMISER}.collect_in_law", f"{_RANDOMISER}.collect"),
        privacy=True,
    ),
    Obligation(
        id="ldp-estimators.estimate-rule",
        source=(
            f"{LDP_REGRESSION}:L154 (the estimate); {LDP_REGRESSION}:L81-96 (the cubes); "
            f"{LDP_REGRESSION}:L273-300 (the classifier)"
        ),
        claim=(
            "values_ = nu/mu on the cells with mu >= c_n h^d (0 elsewhere), predict = the value "
            "of x's half-open cube (edges decided exactly), classifier = classes_[nu > 0]"
        ),
        method=Method.EXACT,
        impls=(
            "dpspec.ldp.estimators.LDPPartitionRegressor",
            "dpspec.ldp.estimators.PartitioningRegressor",
            "dpspec.ldp.estimators.LDPPartitionClassifier",
            "dpspec.ldp.partition.CubicPartition",
        ),
        checks=("utility:estimate_rule",),
        tests=("tests/test_ldp.py::test_partition_is_public_and_covers_the_ball",),
        bug_controls=(
            BugControl(
                "dpspec.ldp.estimators.LDPPartitionRegressor.fit",
                "keep = mu >= c * partition.h**d",
                "keep = mu >= c",
                "mu~ compared with c_n instead of c_n h^d (L154)",
            ),
            BugControl(
                "dpspec.ldp.partition.CubicPartition.cell_index",
                "scaled = np.floor((arr - self.offset) / self.h)",
                "scaled = np.ceil((arr - self.offset) / self.h) - 1",
                "cubes closed on the right: a point on an edge sent to the lower cube",
            ),
            BugControl(
                "dpspec.ldp.estimators.LDPPartitionClassifier.predict",
                "positive = self.decision_values(X) > 0",
                "positive = self.decision_values(X) >= 0",
                "the classifier with sign(0) = +1",
            ),
        ),
    ),
    Obligation(
        id="ldp-regression.consistency",
        source=(
            f"{LDP_REGRESSION}:L154 (estimator); {LDP_REGRESSION}:L166-175 (Thm 2); "
            f"{LDP_REGRESSION}:L253-261 (fixed epsilon)"
        ),
        claim=(
            "the exact L2 error of the epsilon-LDP estimate falls along n (exact rank test) and "
            "ends <= 0.15; with the bandwidth exponent doubled it does not"
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
        checks=("utility:regression_trend",),
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
            "and ends <= 0.01; with the bandwidth exponent doubled it does not"
        ),
        method=Method.STATISTICAL,
        predicates=("dpspec.spec.consistency.consistency_trend",),
        impls=("dpspec.ldp.estimators.LDPPartitionClassifier",),
        checks=("utility:classification_trend",),
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
        checks=("utility:theorem3_bound",),
        kind=Kind.DEMONSTRATION,
        reason=(
            "Theorem 3's explicit bound exceeds the measured error about 100-fold (Rosenthal-"
            "type constants): no modest bug crosses it; the estimate rule is pinned exactly by "
            "ldp-estimators.estimate-rule"
        ),
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
