"""Registered obligations of the statistical auditor (``dpspec.audit``, issue: auditing).

The auditor is not from a seed paper; its sources are the auditing literature digested in
``shared/notes/auditing.md`` (DP-Sniper, StatDP, Google's DP test suites), cited below as
``auditing.md``. Checks: ``proofs/checks_audit.py``; lemmas: ``proofs/lemmas_audit.py``;
proof note: ``proofs/notes/audit.md``.
"""

from __future__ import annotations

from dpspec.proofs import checks_audit
from dpspec.proofs.lemma_obligations import crosshair_check
from dpspec.proofs.registry import Method, Obligation

_RUN = "tests/test_verifiers.py::test_registry_checks_pass"
_CORE = "dpspec.audit.core"
_ZOO = "dpspec.audit.zoo"
_CI = "dpspec.audit.ci"
NOTE = "notes/audit.md"
SRC = "auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds)"

AUDIT_OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="audit.lower-bound-sound",
        source=SRC,
        claim="if p1 <= e^eps p2 + delta and the confidence bounds hold, "
        "ln((p1_lo - delta)/p2_hi) <= eps (both directions)",
        predicates=(
            "dpspec.spec.audit.event_within",
            "dpspec.spec.audit.bound_certified",
            "dpspec.proofs.lemmas_audit.lower_bound_sound",
            "dpspec.proofs.lemmas_audit.lower_bound_sound_reversed",
        ),
        impls=(f"{_CORE}.epsilon_lower",),
        method=Method.CROSSHAIR,
        tests=(
            "tests/test_audit.py::test_lower_bound_lemma_holds_on_examples",
            "tests/test_audit.py::test_false_audit_lemma_has_a_counterexample",
        ),
        check=crosshair_check(
            ("lower_bound_sound", "lower_bound_sound_reversed"), module="dpspec.proofs.lemmas_audit"
        ),
        note=NOTE,
        binding="differential: lemma.binding.audit",
    ),
    Obligation(
        id="audit.clopper-pearson-coverage",
        source=f"{SRC}; Clopper and Pearson 1934",
        claim="the one-sided CP bounds cover p with probability >= 1 - alpha, exactly "
        "(binomial law enumerated); the Wald bound does not",
        predicates=("dpspec.spec.audit.lower_bound_coverage", "dpspec.spec.audit.binomial_pmf"),
        impls=(f"{_CORE}.cp_lower", f"{_CORE}.cp_upper"),
        method=Method.EXACT,
        tests=(f"{_RUN}[audit.clopper-pearson-coverage]", "tests/test_audit.py::test_cp_bounds"),
        check=checks_audit.cp_coverage,
        note=NOTE,
    ),
    Obligation(
        id="audit.soundness",
        source=SRC,
        claim="over >= 200 independent audits of correct mechanisms the violation rate is "
        "consistent with <= 1 - confidence",
        predicates=(
            "dpspec.spec.audit.false_alarm_rate_acceptable",
            "dpspec.spec.audit.binomial_upper_tail",
        ),
        impls=(
            f"{_CORE}.audit",
            f"{_CORE}.AuditResult",
            f"{_CORE}.Event",
            f"{_CORE}.Mechanism",
            f"{_CORE}.CallableMechanism",
            f"{_CORE}.as_mechanism",
        ),
        method=Method.STATISTICAL,
        tests=(
            f"{_RUN}[audit.soundness]",
            "tests/test_audit.py::test_audit_result_json_and_validation",
            "tests/test_audit.py::test_callable_shapes",
        ),
        check=checks_audit.soundness,
        note=NOTE,
    ),
    Obligation(
        id="audit.zoo-power",
        source=f"{SRC}; StatDP and DP-Sniper benchmark mechanisms; "
        "002_9f3104e4a0d86722.txt:L655 (exponential mechanism without the 1/2)",
        claim="every broken zoo mechanism (>= 12) is flagged at 10^6 draws per side and no "
        "correct one is; Laplace 0.5 gives eps_LCB >= 0.48",
        predicates=(),
        impls=(
            f"{_CORE}.audit_pairs",
            f"{_CORE}.float_keys",
            f"{_CORE}.screen_bound",
            f"{_ZOO}.zoo",
            f"{_ZOO}.ZooEntry",
            f"{_ZOO}.FunctionMechanism",
            f"{_ZOO}.laplace_sampler",
            f"{_ZOO}.gaussian_sampler",
            f"{_ZOO}.truncated_geometric_sampler",
            f"{_ZOO}.noisy_max_sampler",
            f"{_ZOO}.svt_sampler",
            f"{_ZOO}.rare_leak_sampler",
            f"{_ZOO}.data_threshold_sampler",
            f"{_ZOO}.gaussian_epsilon",
            f"{_ZOO}.svt_no_threshold_noise_epsilon",
        ),
        method=Method.STATISTICAL,
        tests=(
            f"{_RUN}[audit.zoo-power]",
            "tests/test_audit.py::test_zoo_true_epsilons",
            "tests/test_audit.py::test_audit_pairs_picks_the_revealing_pair",
            "tests/test_audit.py::test_cli_audit",
            "tests/test_audit.py::test_float_attack",
        ),
        check=checks_audit.zoo_power,
        note=NOTE,
    ),
    Obligation(
        id="audit.assert-dp",
        source=f"{SRC}; Google DP libraries' 9-vote statistical tests",
        claim="assert_dp's majority vote has false alarm <= 3.3e-5 and rejects 1.2x the "
        "claimed epsilon",
        predicates=(),
        impls=(
            f"{_CI}.assert_dp",
            f"{_CI}.vote",
            f"{_CI}.VoteResult",
            f"{_CI}.DPViolation",
            f"{_CI}.majority_false_alarm",
            "dpspec.audit.pytest_plugin.assert_dp_fixture",
        ),
        method=Method.STATISTICAL,
        tests=(f"{_RUN}[audit.assert-dp]", "tests/test_audit.py::test_assert_dp_fixture"),
        check=checks_audit.assert_dp_validity,
        note=NOTE,
    ),
    Obligation(
        id="audit.resume",
        source=SRC,
        claim="an interrupted audit resumed from its checkpoint reproduces the uninterrupted "
        "counts; a foreign checkpoint is refused",
        predicates=(),
        impls=(f"{_CORE}.audit",),
        method=Method.PROPERTY,
        tests=(f"{_RUN}[audit.resume]",),
        check=checks_audit.resume_exact,
        note=NOTE,
    ),
    Obligation(
        id="audit.pair-search",
        source=f"{SRC}; StatDP input patterns (Ding et al. 2018); Hypothesis targeted search",
        claim="StatDP's patterns and a hypothesis.target search find a violating pair for "
        "noisy-max v1b and SVT Alg 4, and none for their correct versions",
        predicates=(),
        impls=(
            "dpspec.audit.search.statdp_patterns",
            "dpspec.audit.search.query_vector_pairs",
            "dpspec.audit.search.hypothesis_search",
            "dpspec.audit.search.SearchResult",
        ),
        method=Method.STATISTICAL,
        tests=(f"{_RUN}[audit.pair-search]", "tests/test_audit.py::test_statdp_patterns"),
        check=checks_audit.pair_search,
        note=NOTE,
    ),
    Obligation(
        id="audit.library-targets",
        source=f"{SRC}; OpenDP, PyDP, diffprivlib public APIs",
        claim="user callables and library mechanisms load as audit targets calibrated to the "
        "claim; honest claims pass, halved claims are flagged",
        predicates=(),
        impls=(
            "dpspec.audit.libraries.load_target",
            "dpspec.audit.libraries.LibraryMechanism",
            "dpspec.audit.libraries.gaussian_sigma",
        ),
        method=Method.STATISTICAL,
        tests=(
            f"{_RUN}[audit.library-targets]",
            "tests/test_audit_libraries.py::test_user_callables",
            "tests/test_audit_libraries.py::test_bad_targets",
            "tests/test_audit_libraries.py::test_gaussian_calibration",
            "tests/test_audit_libraries.py::test_opendp_follows_its_claimed_law",
            "tests/test_audit_libraries.py::test_pydp_follows_its_claimed_law",
            "tests/test_audit_libraries.py::test_diffprivlib_target",
        ),
        check=checks_audit.library_targets,
        note=NOTE,
    ),
    Obligation(
        id="audit.hostile-input",
        source=f"{SRC}; hostile-input review of the auditor",
        claim="the auditor refuses unrepresentable releases and hostile arguments with an "
        "error naming them (before any draw), flags NaN/complex/vector-NaN leaks, never judges "
        "continuous outputs by atoms only, validates checkpoints, gives the same counts for "
        "any jobs, and its CLI exits 2 (usage) or 3 (internal), never 1, on such input",
        predicates=("dpspec.spec.audit.checkpoint_counts_valid",),
        impls=(
            f"{_CORE}.audit",
            f"{_CORE}.Event",
            f"{_CORE}.MechanismError",
            f"{_CORE}.check_confidence",
            f"{_CORE}.check_seed",
            f"{_CORE}.check_samples",
            f"{_CORE}.default_selection",
            f"{_CORE}.max_epsilon_lower",
            f"{_CI}.vote",
            "dpspec.audit.libraries.load_target",
        ),
        method=Method.PROPERTY,
        tests=(
            f"{_RUN}[audit.hostile-input]",
            "tests/test_audit.py::test_nan_is_an_event_of_its_own",
            "tests/test_audit.py::test_complex_outputs_are_audited_as_pairs",
            "tests/test_audit.py::test_unrepresentable_outputs_are_refused",
            "tests/test_audit.py::test_small_selection_is_not_judged_by_atoms",
            "tests/test_audit.py::test_selection_follows_samples",
            "tests/test_audit.py::test_arguments_are_checked_by_name",
            "tests/test_audit.py::test_assert_dp_arguments",
            "tests/test_audit.py::test_jobs_do_not_change_the_counts",
            "tests/test_audit.py::test_tampered_checkpoints_are_refused",
            "tests/test_audit.py::test_corrupted_checkpoints_are_refused",
            "tests/test_audit.py::test_unwritable_checkpoint_is_refused_before_drawing",
            "tests/test_audit.py::test_cli_exit_codes",
            "tests/test_audit.py::test_cli_help_documents_exit_codes",
            "tests/test_audit.py::test_checkpoint_counts_predicate",
            "tests/test_audit.py::test_unrefutable_claims_are_refused",
        ),
        check=checks_audit.hostile_inputs,
        note=NOTE,
        entry_points=(
            f"{_CORE}.audit",
            f"{_CI}.assert_dp",
            "dpspec.proofs.cli.main",
        ),
        privacy=False,
    ),
)
