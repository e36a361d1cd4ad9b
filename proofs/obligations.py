"""The registered obligations of dpspec (foundation: privacy core and basic mechanisms).

Later issues append their theorems here. Each entry's check is in ``proofs/checks.py``
(or ``proofs/errata.py``, ``proofs/lemma_checks.py``); its proof note in ``proofs/notes/``.
"""

from __future__ import annotations

from dpspec.proofs import checks, errata
from dpspec.proofs import checks_cli_hostile as cli_hostile
from dpspec.proofs import checks_conformance as conformance
from dpspec.proofs import checks_reports as reports
from dpspec.proofs.lemma_obligations import LEMMA_OBLIGATIONS
from dpspec.proofs.obligations_audit import AUDIT_OBLIGATIONS
from dpspec.proofs.obligations_compression import COMPRESSION_OBLIGATIONS
from dpspec.proofs.obligations_consistency import CONSISTENCY_OBLIGATIONS
from dpspec.proofs.obligations_hostile import HOSTILE_OBLIGATIONS
from dpspec.proofs.obligations_ldp import LDP_OBLIGATIONS
from dpspec.proofs.obligations_learners import LEARNER_OBLIGATIONS
from dpspec.proofs.obligations_pcde import PCDE_OBLIGATIONS
from dpspec.proofs.obligations_pcl2 import PCL2_OBLIGATIONS
from dpspec.proofs.registry import Method, Obligation, all_of

S000 = "000_dff3c4dc97cf0e21.txt"
S002 = "002_9f3104e4a0d86722.txt"

CORE: tuple[Obligation, ...] = (
    Obligation(
        id="dp.pure.event-equivalence",
        source=f"{S000}:L15 (Def 1.1); {S002}:L425 (privacy loss)",
        claim="for discrete outputs, ε-DP over all events ⇔ the pointwise likelihood-ratio bound",
        predicates=(
            "dpspec.spec.privacy.satisfies_pure_dp",
            "dpspec.spec.privacy.event_level_dp",
            "dpspec.spec.privacy.max_likelihood_ratio",
        ),
        impls=(),
        method=Method.PROPERTY,
        tests=(
            "tests/test_spec_privacy.py::test_pure_dp_agrees_with_event_level",
            "tests/test_verifiers.py::test_registry_checks_pass[dp.pure.event-equivalence]",
        ),
        check=checks.pure_dp_event_equivalence,
        note="notes/privacy-core.md",
    ),
    Obligation(
        id="dp.approx.hockey-stick",
        source=f"{S000}:L15 (Def 1.1)",
        claim="(ε,δ)-DP for one pair ⇔ the hockey-stick divergence H_{e^ε} ≤ δ both ways",
        predicates=(
            "dpspec.spec.privacy.hockey_stick",
            "dpspec.spec.privacy.satisfies_approx_dp",
            "dpspec.spec.privacy.event_level_dp",
        ),
        impls=(),
        method=Method.PROPERTY,
        tests=(
            "tests/test_spec_privacy.py::test_hockey_stick_is_sup_over_events",
            "tests/test_verifiers.py::test_registry_checks_pass[dp.approx.hockey-stick]",
        ),
        check=checks.hockey_stick_event_equivalence,
        note="notes/privacy-core.md",
    ),
    Obligation(
        id="dp.group-privacy",
        source=f"{S000}:L15 (Def 1.1, k-fold chaining)",
        claim="(ε,δ)-DP gives (kε, k e^{(k−1)ε} δ) for datasets k changes apart",
        predicates=(
            "dpspec.spec.privacy.group_privacy_parameters",
            "dpspec.spec.privacy.satisfies_group_privacy",
        ),
        impls=("dpspec.mechanisms.randomized_response.RandomizedResponse",),
        method=Method.PROPERTY,
        tests=(
            "tests/test_spec_privacy.py::test_group_privacy_chains",
            "tests/test_verifiers.py::test_registry_checks_pass[dp.group-privacy]",
        ),
        check=checks.group_privacy_chains,
        note="notes/privacy-core.md",
    ),
    Obligation(
        id="000.thm2.3.discrete-laplace",
        source=f"{S000}:L117-121 (Def 2.1, Def 2.2, Thm 2.3)",
        claim="integer query of sensitivity Δ plus discrete Laplace ∝ e^{−ε|z|/Δ} is ε-DP",
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=(
            "dpspec.mechanisms.discrete_laplace.DiscreteLaplaceMechanism",
            "dpspec.mechanisms.base.discrete_laplace_for",
            "dpspec.noise.DiscreteLaplaceNoise",
        ),
        method=Method.EXACT,
        tests=(
            "tests/test_verifiers.py::test_registry_checks_pass[000.thm2.3.discrete-laplace]",
            "tests/test_verifiers.py::test_discrete_laplace_mutant_is_caught",
        ),
        check=all_of(checks.discrete_laplace_exact, conformance.discrete_laplace_conformance),
        entry_points=("dpspec.mechanisms.discrete_laplace.DiscreteLaplaceMechanism.sample",),
        privacy=True,
        note="notes/mechanisms.md",
    ),
    Obligation(
        id="000.thm2.3.laplace-lattice",
        source=f"{S000}:L117-121 (Def 2.2, Thm 2.3)",
        claim="the float-safe Laplace mechanism (lattice snap + exact discrete noise) is ε-DP",
        predicates=(
            "dpspec.spec.privacy.satisfies_pure_dp_losses",
            "dpspec.spec.loss.discrete_laplace_log_ratio",
        ),
        impls=("dpspec.mechanisms.laplace.LaplaceMechanism",),
        method=Method.EXACT,
        tests=("tests/test_verifiers.py::test_registry_checks_pass[000.thm2.3.laplace-lattice]",),
        check=all_of(checks.laplace_lattice_exact, conformance.laplace_conformance),
        entry_points=("dpspec.mechanisms.laplace.LaplaceMechanism.sample",),
        privacy=True,
        note="notes/mechanisms.md",
    ),
    Obligation(
        id="impl.laplace.lattice-outputs",
        source=f"{S000}:L119 (Def 2.2); float safety (Mironov 2012)",
        claim="the exact Laplace path releases only multiples of γ; the idealised one does not",
        predicates=(),
        impls=("dpspec.mechanisms.laplace.LaplaceMechanism",),
        method=Method.PROPERTY,
        tests=("tests/test_verifiers.py::test_registry_checks_pass[impl.laplace.lattice-outputs]",),
        check=checks.laplace_outputs_on_lattice,
        note="notes/mechanisms.md",
    ),
    Obligation(
        id="002.L655.exponential",
        source=f"{S002}:L655 (exponential mechanism, corrected)",
        claim="P(a) ∝ exp(ε s(S,a)/(2Δ)) over a finite candidate set is ε-DP",
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=("dpspec.mechanisms.exponential.ExponentialMechanism",),
        method=Method.EXACT,
        tests=("tests/test_verifiers.py::test_registry_checks_pass[002.L655.exponential]",),
        check=all_of(checks.exponential_exact, conformance.exponential_conformance),
        entry_points=("dpspec.mechanisms.exponential.ExponentialMechanism.sample",),
        privacy=True,
        note="notes/mechanisms.md",
    ),
    Obligation(
        id="E-002-L655",
        source=f"{S002}:L655 (exponential mechanism, as printed)",
        claim="ERRATUM: weights exp(ε s) are not ε-DP — the exact verifier exhibits a pair",
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=("dpspec.mechanisms.exponential.ExponentialMechanism",),
        method=Method.EXACT,
        tests=("tests/test_verifiers.py::test_exponential_without_half_is_caught",),
        check=errata.exponential_without_half,
        note="notes/errata.md",
    ),
    Obligation(
        id="002.L429.randomized-response",
        source=f"{S002}:L429 (local DP; randomized response, Warner 1965)",
        claim="k-ary randomized response with keep-weight e^ε is ε-LDP",
        predicates=("dpspec.spec.privacy.satisfies_ldp", "dpspec.spec.privacy.satisfies_pure_dp"),
        impls=("dpspec.mechanisms.randomized_response.RandomizedResponse",),
        method=Method.EXACT,
        tests=("tests/test_verifiers.py::test_registry_checks_pass[002.L429.randomized-response]",),
        check=all_of(
            checks.randomized_response_exact, conformance.randomized_response_conformance
        ),
        entry_points=("dpspec.mechanisms.randomized_response.RandomizedResponse.randomise",),
        privacy=True,
        note="notes/mechanisms.md",
    ),
    Obligation(
        id="000.alg1.thm2.4.privacy",
        source=f"{S000}:L125-147 (Alg 1, Thm 2.4)",
        claim="the stability-based histogram is (ε,δ)-DP (exact δ on small instances)",
        predicates=("dpspec.spec.privacy.satisfies_approx_dp", "dpspec.spec.privacy.hockey_stick"),
        impls=(
            "dpspec.mechanisms.stability_histogram.StabilityHistogram",
            "dpspec.mechanisms.stability_histogram.discrete_threshold",
        ),
        method=Method.EXACT,
        tests=("tests/test_verifiers.py::test_registry_checks_pass[000.alg1.thm2.4.privacy]",),
        check=all_of(
            checks.stability_histogram_exact, conformance.stability_histogram_conformance
        ),
        entry_points=(
            "dpspec.mechanisms.stability_histogram.StabilityHistogram.sample",
            "dpspec.mechanisms.stability_histogram.StabilityHistogram.release_counts",
            "dpspec.mechanisms.stability_histogram.stability_histogram",
        ),
        privacy=True,
        note="notes/mechanisms.md",
    ),
    Obligation(
        id="000.alg1.zero-counts",
        source=f"{S000}:L125-147 (Alg 1; Thm 2.4: ĉ(x) = 0 when count is 0)",
        claim="Alg 1 never releases a cell absent from the data; every release is ≥ τ",
        predicates=(),
        impls=(
            "dpspec.mechanisms.stability_histogram.stability_histogram",
            "dpspec.mechanisms.stability_histogram.paper_threshold",
        ),
        method=Method.PROPERTY,
        tests=("tests/test_verifiers.py::test_registry_checks_pass[000.alg1.zero-counts]",),
        check=checks.stability_zero_counts,
        note="notes/mechanisms.md",
    ),
    Obligation(
        id="000.alg2.L206.noisy-majority",
        source=f"{S000}:L193-206 (Alg 2, Thm 3.1 proof)",
        claim="PCL's per-cell noisy majority bits (empty cells included) are ε-DP",
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=("dpspec.mechanisms.noisy_majority.NoisyMajorityVote",),
        method=Method.EXACT,
        tests=("tests/test_verifiers.py::test_registry_checks_pass[000.alg2.L206.noisy-majority]",),
        check=all_of(checks.noisy_majority_exact, conformance.noisy_majority_conformance),
        entry_points=("dpspec.mechanisms.noisy_majority.NoisyMajorityVote.sample",),
        privacy=True,
        note="notes/mechanisms.md",
    ),
    Obligation(
        id="impl.noise.exact-samplers",
        source="Canonne–Kamath–Steinke 2020, Alg 1-2 (float-safe noise for every seed mechanism)",
        claim="the integer-only samplers draw exactly their stated laws",
        predicates=(),
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
        method=Method.STATISTICAL,
        tests=("tests/test_verifiers.py::test_registry_checks_pass[impl.noise.exact-samplers]",),
        check=checks.exact_samplers_statistical,
        note="notes/mechanisms.md",
    ),
    Obligation(
        id="impl.bad-input",
        source="dpspec standard: bad input gets a ValueError naming the parameter",
        claim="ε ≤ 0/NaN/inf, δ ∉ [0,1), empty or non-finite data, bad shapes → named ValueError",
        predicates=(),
        impls=(
            "dpspec.validation.check_epsilon",
            "dpspec.validation.check_delta",
            "dpspec.validation.check_rng",
            "dpspec.validation.check_positive",
            "dpspec.validation.check_count",
            "dpspec.validation.check_base",
            "dpspec.validation.rational_at_most",
            "dpspec.validation.rational_at_least",
            "dpspec.validation.as_finite_array",
            "dpspec.validation.InputTypeError",
            "dpspec.mechanisms.base.epsilon_rational",
            "dpspec.contract.PrivacyLevel",
        ),
        method=Method.PROPERTY,
        tests=("tests/test_verifiers.py::test_registry_checks_pass[impl.bad-input]",),
        check=checks.bad_input_rejected,
        note="notes/mechanisms.md",
    ),
    Obligation(
        id="impl.privacy-reports",
        source=f"{S000}:L117-121 (Thm 2.3), L125-147 (Thm 2.4), L193-206 (Thm 3.1), "
        f"L249-262 (Thm 4.2), L349-371 (Thm 4.11), L466-476 (Thm A.6), L568-570 (Thm A.14); "
        f"{S002}:L655 (exponential mechanism)",
        claim="privacy / privacy_ report exactly the theorem's (ε, δ) for the caller's arguments",
        predicates=(),
        impls=(
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
            "dpspec.mechanisms.discrete_laplace.DiscreteLaplaceMechanism",
            "dpspec.mechanisms.laplace.LaplaceMechanism",
            "dpspec.mechanisms.exponential.ExponentialMechanism",
            "dpspec.mechanisms.randomized_response.RandomizedResponse",
            "dpspec.mechanisms.noisy_majority.NoisyMajorityVote",
            "dpspec.mechanisms.stability_histogram.StabilityHistogram",
        ),
        method=Method.PROPERTY,
        tests=("tests/test_verifiers.py::test_registry_checks_pass[impl.privacy-reports]",),
        check=reports.privacy_reports,
        note="notes/mechanisms.md",
    ),
    Obligation(
        id="impl.cli-exit-codes",
        source="dpspec standard: exit codes 0 holds, 1 violation, 2 usage error, 3 internal error",
        claim="hostile command lines get their exit code and one line on stderr, no traceback",
        predicates=(),
        impls=("dpspec.proofs.cli.main", "dpspec.proofs.cli_errors.check_writable"),
        method=Method.PROPERTY,
        tests=(
            "tests/test_verifiers.py::test_registry_checks_pass[impl.cli-exit-codes]",
            "tests/test_cli_hostile.py::test_usage_errors",
        ),
        check=cli_hostile.cli_hostile_argv,
        entry_points=("dpspec.proofs.cli.main",),
        note="notes/binding.md",
    ),
    Obligation(
        id="000.thm2.4.accuracy",
        source=f"{S000}:L145 (Thm 2.4, accuracy part)",
        claim="E|ĉ(x) − count(x)| ≤ O((1/ε)·min{log(1/δ), count(x)}) (constants unspecified)",
        predicates=(),
        impls=("dpspec.mechanisms.stability_histogram.StabilityHistogram",),
        method=Method.DOCUMENTED,
        tests=(),
        note="notes/mechanisms.md",
    ),
)

OBLIGATIONS: tuple[Obligation, ...] = (
    CORE
    + LEMMA_OBLIGATIONS
    + LEARNER_OBLIGATIONS
    + PCL2_OBLIGATIONS
    + PCDE_OBLIGATIONS
    + CONSISTENCY_OBLIGATIONS
    + COMPRESSION_OBLIGATIONS
    + LDP_OBLIGATIONS
    + AUDIT_OBLIGATIONS
    + HOSTILE_OBLIGATIONS
)
