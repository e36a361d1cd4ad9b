"""The registered guarantees of this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY, THESIS

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="discrete-laplace.privacy",
        source=f"{BAYES_CONSISTENCY}:L117-121 (Def 2.1, Def 2.2, Thm 2.3)",
        claim="integer query of sensitivity Δ plus discrete Laplace ∝ e^{−ε|z|/Δ} is ε-DP",
        method=Method.EXACT,
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=(
            "dpspec.mechanisms.discrete_laplace.DiscreteLaplaceMechanism",
            "dpspec.mechanisms.base.float_discrete_laplace",
            "dpspec.mechanisms.base.count_nonzero",
            "dpspec.mechanisms.base.mean_value",
            "dpspec.mechanisms.base.counts_by_value",
            "dpspec.mechanisms.base.discrete_laplace_for",
            "dpspec.noise.DiscreteLaplaceNoise",
        ),
        checks=(
            "discrete_laplace_exact",
            "conformance:discrete_laplace_conformance",
        ),
        tests=("tests/test_verifiers.py::test_discrete_laplace_mutant_is_caught",),
        entry_points=("dpspec.mechanisms.discrete_laplace.DiscreteLaplaceMechanism.sample",),
        privacy=True,
    ),
    Obligation(
        id="laplace.privacy",
        source=f"{BAYES_CONSISTENCY}:L117-121 (Def 2.2, Thm 2.3)",
        claim="the float-safe Laplace mechanism (lattice snap + exact discrete noise) is ε-DP",
        method=Method.EXACT,
        predicates=(
            "dpspec.spec.privacy.satisfies_pure_dp_losses",
            "dpspec.spec.mechanisms.discrete_laplace_log_ratio",
        ),
        impls=("dpspec.mechanisms.laplace.LaplaceMechanism",),
        checks=(
            "laplace_lattice_exact",
            "conformance:laplace_conformance",
        ),
        entry_points=("dpspec.mechanisms.laplace.LaplaceMechanism.sample",),
        privacy=True,
    ),
    Obligation(
        id="laplace.lattice-outputs",
        source=f"{BAYES_CONSISTENCY}:L119 (Def 2.2); float safety (Mironov 2012)",
        claim="the exact Laplace path releases only multiples of γ; the idealised one does not",
        method=Method.PROPERTY,
        impls=("dpspec.mechanisms.laplace.LaplaceMechanism",),
        checks=("laplace_outputs_on_lattice",),
        bug_controls=(
            BugControl(
                "dpspec.mechanisms.laplace.LaplaceMechanism.sample",
                "if self.idealised:",
                "if True:",
                "the exact path drawing float Laplace noise (off the lattice)",
            ),
        ),
    ),
    Obligation(
        id="exponential.privacy",
        source=f"{THESIS}:L655 (exponential mechanism, corrected)",
        claim="P(a) ∝ exp(ε s(S,a)/(2Δ)) over a finite candidate set is ε-DP",
        method=Method.EXACT,
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=("dpspec.mechanisms.exponential.ExponentialMechanism",),
        checks=(
            "exponential_exact",
            "conformance:exponential_conformance",
        ),
        entry_points=("dpspec.mechanisms.exponential.ExponentialMechanism.sample",),
        privacy=True,
    ),
    Obligation(
        id="erratum.thesis-L655-exponential-half",
        source=f"{THESIS}:L655 (exponential mechanism, as printed)",
        claim="ERRATUM: weights exp(ε s) are not ε-DP — the exact verifier exhibits a pair",
        method=Method.EXACT,
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=("dpspec.mechanisms.exponential.ExponentialMechanism",),
        checks=("exponential_without_half",),
        tests=("tests/test_verifiers.py::test_exponential_without_half_is_caught",),
    ),
    Obligation(
        id="randomized-response.privacy",
        source=f"{THESIS}:L429 (local DP; randomized response, Warner 1965)",
        claim="k-ary randomized response with keep-weight e^ε is ε-LDP",
        method=Method.EXACT,
        predicates=(
            "dpspec.spec.privacy.satisfies_ldp",
            "dpspec.spec.privacy.satisfies_pure_dp",
        ),
        impls=("dpspec.mechanisms.randomized_response.RandomizedResponse",),
        checks=(
            "randomized_response_exact",
            "conformance:randomized_response_conformance",
        ),
        entry_points=("dpspec.mechanisms.randomized_response.RandomizedResponse.randomise",),
        privacy=True,
    ),
    Obligation(
        id="stability-histogram.privacy",
        source=f"{BAYES_CONSISTENCY}:L125-147 (Alg 1, Thm 2.4)",
        claim="the stability-based histogram is (ε,δ)-DP (exact δ on small instances)",
        method=Method.EXACT,
        predicates=(
            "dpspec.spec.privacy.satisfies_approx_dp",
            "dpspec.spec.privacy.hockey_stick",
        ),
        impls=(
            "dpspec.mechanisms.stability_histogram.StabilityHistogram",
            "dpspec.mechanisms.stability_histogram.discrete_threshold",
        ),
        checks=(
            "stability_histogram_exact",
            "conformance:stability_histogram_conformance",
        ),
        entry_points=(
            "dpspec.mechanisms.stability_histogram.StabilityHistogram.sample",
            "dpspec.mechanisms.stability_histogram.StabilityHistogram.release_counts",
            "dpspec.mechanisms.stability_histogram.stability_histogram",
        ),
        privacy=True,
    ),
    Obligation(
        id="stability-histogram.zero-counts",
        source=f"{BAYES_CONSISTENCY}:L125-147 (Alg 1; Thm 2.4: ĉ(x) = 0 when count is 0)",
        claim="Alg 1 never releases a cell absent from the data; every release is ≥ τ",
        method=Method.PROPERTY,
        impls=(
            "dpspec.mechanisms.stability_histogram.stability_histogram",
            "dpspec.mechanisms.stability_histogram.paper_threshold",
        ),
        checks=("stability_zero_counts",),
        bug_controls=(
            BugControl(
                "dpspec.mechanisms.stability_histogram.StabilityHistogram.release_counts",
                "np.where(noisy >= self.threshold, noisy, 0.0)",
                "np.where(noisy >= self.threshold - 1, noisy, 0.0)",
                "values one below the threshold released",
            ),
        ),
    ),
    Obligation(
        id="noisy-majority.privacy",
        source=f"{BAYES_CONSISTENCY}:L193-206 (Alg 2, Thm 3.1 proof)",
        claim="PCL's per-cell noisy majority bits (empty cells included) are ε-DP",
        method=Method.EXACT,
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=("dpspec.mechanisms.noisy_majority.NoisyMajorityVote",),
        checks=(
            "noisy_majority_exact",
            "conformance:noisy_majority_conformance",
        ),
        entry_points=("dpspec.mechanisms.noisy_majority.NoisyMajorityVote.sample",),
        privacy=True,
    ),
    Obligation(
        id="noise.exact-samplers",
        source="Canonne–Kamath–Steinke 2020, Alg 1-2 (float-safe noise for every seed mechanism)",
        claim="the integer-only samplers draw exactly their stated laws",
        method=Method.STATISTICAL,
        impls=(
            "dpspec.noise.bernoulli_exp_neg",
            "dpspec.noise.discrete_laplace",
            "dpspec.noise.coarsen_up",
            "dpspec.noise.bernoulli_rational",
            "dpspec.noise.bernoulli_power",
            "dpspec.noise.geometric",
            "dpspec.noise.discrete_laplace_base",
            "dpspec.noise.categorical_exp_neg",
            "dpspec.noise.categorical_base",
            "dpspec.noise.discrete_laplace_pmf",
            "dpspec.noise.discrete_laplace_sf",
            "dpspec.noise.laplace_sf",
        ),
        checks=("exact_samplers_statistical",),
    ),
    Obligation(
        id="stability-histogram.accuracy",
        source=f"{BAYES_CONSISTENCY}:L145 (Thm 2.4, accuracy part)",
        claim="E|ĉ(x) − count(x)| ≤ O((1/ε)·min{log(1/δ), count(x)}) (constants unspecified)",
        method=Method.DOCUMENTED,
        impls=("dpspec.mechanisms.stability_histogram.StabilityHistogram",),
    ),
    Obligation(
        id="stability-histogram.lemma-binding",
        source=f"{BAYES_CONSISTENCY}:L132-140 (Alg 1 release rule)",
        claim=(
            "StabilityHistogram.release_counts (exact, float-eps and idealised paths, noise "
            "injected) equals the lemma's stability_release cell by cell"
        ),
        method=Method.PROPERTY,
        predicates=(
            "dpspec.proofs.topics.mechanisms.lemmas.stability_release",
            "dpspec.proofs.topics.mechanisms.lemmas.stability_histogram_release",
        ),
        impls=("dpspec.mechanisms.stability_histogram.StabilityHistogram.release_counts",),
        checks=("bindings:stability_release_binding",),
        tests=("tests/test_lemma_bindings.py::test_binding_checks_catch_a_broken_rule",),
        bug_controls=(
            BugControl(
                "dpspec.mechanisms.stability_histogram.StabilityHistogram.release_counts",
                "noisy >= self.threshold",
                "noisy > self.threshold",
                "a count equal to the threshold dropped (> for >=)",
            ),
            BugControl(
                "dpspec.mechanisms.stability_histogram.StabilityHistogram.release_counts",
                "noisy >= self.threshold",
                "noisy >= self.threshold - 1",
                "the threshold off by one",
            ),
        ),
    ),
    Obligation(
        id="discrete-laplace.lemma-binding",
        source=f"{BAYES_CONSISTENCY}:L119-121 (Laplace / discrete Laplace privacy loss)",
        claim=(
            "the pmf ratio of DiscreteLaplaceNoise is q^-k with k the lemma functions' values "
            "(scalar, half-integer, scale 2, vector)"
        ),
        method=Method.PROPERTY,
        predicates=(
            "dpspec.proofs.topics.mechanisms.lemmas.discrete_laplace_ratio_bound",
            "dpspec.proofs.topics.mechanisms.lemmas.laplace_loss_bound",
            "dpspec.proofs.topics.mechanisms.lemmas.laplace_loss_bound_half_integers",
            "dpspec.proofs.topics.mechanisms.lemmas.laplace_loss_bound_half_integers_scale2",
            "dpspec.proofs.topics.mechanisms.lemmas.laplace_loss_vector_bound",
        ),
        impls=("dpspec.noise.DiscreteLaplaceNoise.pmf",),
        checks=("bindings:discrete_laplace_binding",),
        tests=("tests/test_lemma_bindings.py::test_binding_checks_catch_a_broken_rule",),
        bug_controls=(
            BugControl(
                "dpspec.noise._closed_forms.discrete_laplace_pmf",
                "base ** abs(z)",
                "base ** abs(2 * z)",
                "the pmf at twice the distance (the law of noise for 2ε)",
            ),
        ),
    ),
    Obligation(
        id="exponential.lemma-binding",
        source=(
            f"{THESIS}:L655 (corrected exponential mechanism); {BAYES_CONSISTENCY}:L349 (score = "
            "-mistakes)"
        ),
        claim=(
            "ExponentialMechanism exponents == lemma log-weight difference, pmf == w/Z with the "
            "lemma's normaliser, Dichotomies.mistakes == spec mistakes"
        ),
        method=Method.PROPERTY,
        predicates=(
            "dpspec.proofs.topics.mechanisms.lemmas.em_log_weight_difference",
            "dpspec.proofs.topics.mechanisms.lemmas.em_normaliser_ratio",
            "dpspec.spec.sensitivity.mistakes",
        ),
        impls=(
            "dpspec.mechanisms.exponential.ExponentialMechanism.pmf",
            "dpspec.learners.semi_supervised.Dichotomies.mistakes",
        ),
        checks=("bindings:exponential_binding",),
        tests=("tests/test_lemma_bindings.py::test_binding_checks_catch_a_broken_rule",),
        bug_controls=(
            BugControl(
                "dpspec.mechanisms.exponential.ExponentialMechanism.__init__",
                "c = 2 if half else 1",
                "c = 1",
                "the weights without the ½ whatever half says",
            ),
        ),
    ),
    Obligation(
        id="laplace.loss-lemma",
        source=f"{BAYES_CONSISTENCY}:L119-121 (Def 2.2, Thm 2.3)",
        claim="(|y − a'| − |y − a|)/b ≤ |a − a'|/b, attained at y = a",
        method=Method.CROSSHAIR,
        predicates=("dpspec.proofs.topics.mechanisms.lemmas.laplace_loss_bound",),
        lemmas=("laplace_loss_bound",),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: discrete-laplace.lemma-binding",
    ),
    Obligation(
        id="laplace.loss-lemma-half-integers",
        source=f"{BAYES_CONSISTENCY}:L206 (PCL thresholds at half-integers)",
        claim="the Laplace loss bound on half-integer arguments (Fraction path), scales 1 and 2",
        method=Method.CROSSHAIR,
        predicates=(
            "dpspec.proofs.topics.mechanisms.lemmas.laplace_loss_bound_half_integers",
            "dpspec.proofs.topics.mechanisms.lemmas.laplace_loss_bound_half_integers_scale2",
        ),
        lemmas=(
            "laplace_loss_bound_half_integers",
            "laplace_loss_bound_half_integers_scale2",
        ),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: discrete-laplace.lemma-binding",
    ),
    Obligation(
        id="laplace.loss-lemma-vector",
        source=f"{BAYES_CONSISTENCY}:L119-121 (Def 2.2: i.i.d. noise per coordinate)",
        claim="Σ_j (|y_j − a'_j| − |y_j − a_j|)/b ≤ ‖a − a'‖₁/b",
        method=Method.CROSSHAIR,
        predicates=("dpspec.proofs.topics.mechanisms.lemmas.laplace_loss_vector_bound",),
        lemmas=("laplace_loss_vector_bound",),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: discrete-laplace.lemma-binding",
    ),
    Obligation(
        id="discrete-laplace.ratio-lemma",
        source=f"{BAYES_CONSISTENCY}:L119-121 (Thm 2.3, discrete analogue)",
        claim="|y − a'| − |y − a| ≤ |a − a'| for all integers (division-free core)",
        method=Method.CROSSHAIR,
        predicates=("dpspec.proofs.topics.mechanisms.lemmas.discrete_laplace_ratio_bound",),
        lemmas=("discrete_laplace_ratio_bound",),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: discrete-laplace.lemma-binding",
    ),
    Obligation(
        id="stability-histogram.zero-never-released-lemma",
        source=f"{BAYES_CONSISTENCY}:L125-147 (Alg 1, Thm 2.4)",
        claim="a zero count is never released; a release is ≥ τ and equals count + noise",
        method=Method.CROSSHAIR,
        predicates=("dpspec.proofs.topics.mechanisms.lemmas.stability_release",),
        lemmas=("stability_release",),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: stability-histogram.lemma-binding",
    ),
    Obligation(
        id="stability-histogram.support-lemma",
        source=f"{BAYES_CONSISTENCY}:L125-147 (Alg 1)",
        claim="the released histogram's support is inside the data's support",
        method=Method.CROSSHAIR,
        predicates=("dpspec.proofs.topics.mechanisms.lemmas.stability_histogram_release",),
        lemmas=("stability_histogram_release",),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: stability-histogram.lemma-binding",
    ),
    Obligation(
        id="exponential.score-sensitivity-lemma",
        source=f"{THESIS}:L655 (exponential mechanism; score = −mistakes)",
        claim="the −mistakes score of every candidate moves by ≤ 1 under substitution",
        method=Method.EXACT,
        predicates=("dpspec.proofs.topics.mechanisms.lemmas.em_score_change_substitution",),
        lemmas=("em_score_change_substitution",),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: exponential.lemma-binding",
    ),
    Obligation(
        id="exponential.log-weight-lemma",
        source=f"{THESIS}:L655 (corrected: weights exp(ε s/(2Δ)))",
        claim="ε(s − s')/(2Δ) ≤ ε/2 when |s − s'| ≤ Δ",
        method=Method.CROSSHAIR,
        predicates=("dpspec.proofs.topics.mechanisms.lemmas.em_log_weight_difference",),
        lemmas=("em_log_weight_difference",),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: exponential.lemma-binding",
    ),
    Obligation(
        id="exponential.normaliser-lemma",
        source=f"{THESIS}:L655 (corrected)",
        claim="normalisers satisfy Σw' ≤ r·Σw when every weight moves by ≤ r",
        method=Method.CROSSHAIR,
        predicates=("dpspec.proofs.topics.mechanisms.lemmas.em_normaliser_ratio",),
        lemmas=("em_normaliser_ratio",),
        tests=("tests/test_lemmas.py::test_lemma_holds_on_examples",),
        binding="differential: exponential.lemma-binding",
    ),
    Obligation(
        id="noise.discrete-laplace-law-enumerated",
        source="the two-sided geometric (discrete Laplace) and geometric laws; issue 21 item 7",
        claim=(
            "discrete_laplace(scale), discrete_laplace_base(q) and geometric(q) at size 1 have "
            "exactly the laws ∝ q^{|z|} and (1 − q)q^g: derived from their code by enumerating "
            "every draw sequence, within a truncated mass below 2^-64 (one ulp of a table); the "
            "block samplers of large scales (two-sided and geometric) part by part, and "
            "composed; every line of every sampler's sample method these laws reach is run"
        ),
        method=Method.EXACT,
        impls=(
            "dpspec.noise.discrete_laplace",
            "dpspec.noise.discrete_laplace_base",
            "dpspec.noise.geometric",
            "dpspec.noise.coarsen_up",
            "dpspec.noise._laws.TwoSidedSampler",
            "dpspec.noise._laws.GeometricSampler",
            "dpspec.noise._laws.TwoSidedLaw",
            "dpspec.noise._laws.GeometricLaw",
            "dpspec.noise._laws.TruncatedGeometricLaw",
            "dpspec.noise._laws.ResidualLaw",
            "dpspec.noise._laws.WithinBlockSampler",
            "dpspec.noise._laws.TablePolicy",
            "dpspec.noise._laws.two_sided_sampler",
            "dpspec.noise._laws.geometric_sampler",
            "dpspec.noise._tables.ThresholdTable",
            "dpspec.noise._tables.CdfLaw",
            "dpspec.noise._tables.threshold_floor",
            "dpspec.noise._tables.count_at_or_below",
            "dpspec.noise._tables.sample_words",
            "dpspec.noise._tables.locate_fresh",
            "dpspec.noise._reals.Ratio",
            "dpspec.noise._reals.exp_neg_bounds",
            "dpspec.noise._reals.ratio_bounds",
            "dpspec.noise._reals.mul",
            "dpspec.noise._reals.div",
            "dpspec.noise._reals.rescale",
            "dpspec.noise._reals.power",
            "dpspec.noise._reals.floor_at",
        ),
        checks=("enumeration:discrete_laplace_law",),
        tests=("tests/test_enumeration.py::test_enumerated_geometric_law_is_exact",),
        entry_points=(
            "dpspec.noise.discrete_laplace",
            "dpspec.noise.discrete_laplace_base",
            "dpspec.noise.geometric",
        ),
    ),
    Obligation(
        id="noise.bernoulli-exp-law-enumerated",
        source="Canonne–Kamath–Steinke 2020, Alg 1 (Bernoulli(exp(−γ))); issue 21 item 7",
        claim=(
            "bernoulli_exp_neg(a, d) at size 1 is exactly Bernoulli(e^{−a/d}) (γ = 0, < 1, 1, "
            "> 1, tiny; a 2^32 denominator), and so is the alternating series of the many-exponent "
            "path: derived from their code, within 2^-64"
        ),
        method=Method.EXACT,
        impls=(
            "dpspec.noise.bernoulli_exp_neg",
            "dpspec.noise.bernoulli_exp_neg_exponents",
            "dpspec.noise.exp_neg_exponents",
            "dpspec.noise._series.ExpNegExponents",
            "dpspec.noise._series.bernoulli_exp_neg_series",
            "dpspec.noise._series.bernoulli_at_most_one",
            "dpspec.noise._laws.SingleThreshold",
            "dpspec.noise._laws.bernoulli_floor",
        ),
        checks=("enumeration:bernoulli_exp_law",),
        entry_points=("dpspec.noise.bernoulli_exp_neg",),
    ),
    Obligation(
        id="noise.categorical-law-enumerated",
        source="the exponential mechanism's sampler (P(i) ∝ e^{−a_i/d}); issue 21 item 7",
        claim=(
            "categorical_exp_neg, categorical_exp_gap, categorical_base and "
            "categorical_exp_levels at size 1 draw exactly P(i) = w_i/Σw (tied weights included): "
            "derived from their code, within 2^-64"
        ),
        method=Method.EXACT,
        impls=(
            "dpspec.noise.categorical_exp_neg",
            "dpspec.noise.categorical_exp_gap",
            "dpspec.noise.categorical_base",
            "dpspec.noise.categorical_exp_levels",
            "dpspec.noise._laws.LevelsLaw",
            "dpspec.noise._laws.LevelSampler",
        ),
        checks=("enumeration:categorical_law",),
        entry_points=("dpspec.noise.categorical_exp_neg", "dpspec.noise.categorical_base"),
    ),
    Obligation(
        id="noise.tables-exact",
        source="the threshold tables of the exact samplers; issue 24 item 1",
        claim=(
            "every floor and exactness flag of the tables the samplers build for the benchmark "
            "scales (1, 10, 1/ε(0.1), 10^4, the lattice Laplace's ≈ 2^21, bases 1/2 and 9/10, "
            "Bernoulli(e^{−1/3}), 2^16 exponential-mechanism candidates) equals ⌊2^64 c_k⌋ of the "
            "stated law, recomputed independently to 2^-256: zero difference"
        ),
        method=Method.EXACT,
        impls=("dpspec.noise._laws.TwoSidedSampler", "dpspec.noise._tables.ThresholdTable"),
        checks=("exact_tables:tables_exact",),
    ),
    Obligation(
        id="exponential.law-enumerated",
        source=f"{THESIS}:L655 (exponential mechanism, corrected)",
        claim=(
            "ExponentialMechanism.sample draws P(a) ∝ e^{ε s_a/(2Δ)} (and ∝ q^{−s_a} with a base) "
            "exactly on every dataset of a tiny domain: its law derived from its code"
        ),
        method=Method.EXACT,
        impls=(
            "dpspec.mechanisms.exponential.ExponentialMechanism",
            "dpspec.mechanisms.base.check_base_loss",
        ),
        checks=("enumeration:exponential_law",),
        entry_points=("dpspec.mechanisms.exponential.ExponentialMechanism.sample",),
    ),
    Obligation(
        id="randomized-response.law-enumerated",
        source=f"{THESIS}:L429 (local DP; randomized response, Warner 1965)",
        claim=(
            "randomise draws y = x w.p. e^ε/(e^ε + k − 1), each other y w.p. 1/(e^ε + k − 1), "
            "exactly, with ε and with a rational base: its law derived from its code on every input"
        ),
        method=Method.EXACT,
        impls=("dpspec.mechanisms.randomized_response.RandomizedResponse",),
        checks=("enumeration:randomized_response_law",),
        entry_points=("dpspec.mechanisms.randomized_response.RandomizedResponse.randomise",),
    ),
    Obligation(
        id="discrete-laplace.law-enumerated",
        source=f"{BAYES_CONSISTENCY}:L117-121 (Def 2.2, Thm 2.3; discrete analogue)",
        claim=(
            "DiscreteLaplaceMechanism.sample releases f(S) + Z with P(Z = z) ∝ q^{|z|} exactly "
            "(base and ε) on every dataset of a tiny domain: its law derived from its code"
        ),
        method=Method.EXACT,
        impls=(
            "dpspec.mechanisms.discrete_laplace.DiscreteLaplaceMechanism",
            "dpspec.noise._closed_forms.discrete_laplace_pmf",
            "dpspec.noise._closed_forms.discrete_laplace_sf",
        ),
        checks=("enumeration:discrete_laplace_mechanism_law",),
        entry_points=("dpspec.mechanisms.discrete_laplace.DiscreteLaplaceMechanism.sample",),
    ),
    Obligation(
        id="stability-histogram.law-enumerated",
        source=f"{BAYES_CONSISTENCY}:L125-147 (Alg 1)",
        claim=(
            "StabilityHistogram.sample releases each occupied cell as count + Z when ≥ τ, else "
            "0, and empty cells as 0, exactly (base and ε; τ checked against its closed form): "
            "its law derived from its code on every dataset of a tiny domain"
        ),
        method=Method.EXACT,
        impls=("dpspec.mechanisms.stability_histogram.StabilityHistogram",),
        checks=("enumeration:stability_histogram_law",),
        entry_points=("dpspec.mechanisms.stability_histogram.StabilityHistogram.sample",),
    ),
    Obligation(
        id="laplace.law-bound",
        source=f"{BAYES_CONSISTENCY}:L117-121 (Def 2.2, Thm 2.3; the lattice path)",
        claim=(
            "LaplaceMechanism.sample (default, lattice) releases γ·(⌊f(S)/γ⌉ + Z) with Z exactly "
            "the draws of discrete_laplace at its lattice scale (value by value, same generator), "
            "whose law is enumerated and whose table at that scale is recomputed exactly"
        ),
        method=Method.PROPERTY,
        impls=("dpspec.mechanisms.laplace.LaplaceMechanism",),
        checks=("enumeration:laplace_binding",),
        entry_points=("dpspec.mechanisms.laplace.LaplaceMechanism.sample",),
        binding="differential: noise.discrete-laplace-law-enumerated",
    ),
)
