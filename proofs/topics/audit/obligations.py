"""The registered guarantees of this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import THESIS

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="audit.user-event-both-orders",
        source="auditing.md (an event test bounds both ratios: DP holds for D, D' in either order)",
        claim=(
            "a user's event is tested in both orders at alpha/4 each: a leak only in the order "
            "D' -> D is a violation; a correct release with the same event is not"
        ),
        method=Method.STATISTICAL,
        impls=("dpspec.audit.loop.audit",),
        checks=("event_checks:user_event_both_orders",),
        tests=("tests/test_audit_events_named.py::test_a_user_event_is_tested_in_both_orders",),
        bug_controls=(
            BugControl(
                "dpspec.audit.loop.audit",
                "[] if event is None else [(event, False), (event, True)]",
                "[] if event is None else [(event, False)]",
                "a user's event read in one order only (D -> D')",
            ),
        ),
    ),
    Obligation(
        id="audit.lemma-binding",
        source="auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds)",
        claim="epsilon_lower <= ln r exactly when the lemma's certificate holds",
        method=Method.PROPERTY,
        predicates=(
            "dpspec.proofs.topics.audit.lemmas.lower_bound_sound",
            "dpspec.proofs.topics.audit.lemmas.lower_bound_sound_reversed",
        ),
        impls=("dpspec.audit.bounds.epsilon_lower",),
        checks=("bindings:audit_binding",),
        tests=("tests/test_lemma_bindings.py::test_binding_checks_catch_a_broken_rule",),
    ),
    Obligation(
        id="audit.lower-bound-lemma",
        source="auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds)",
        claim=(
            "if p1 <= e^eps p2 + delta and the confidence bounds hold, ln((p1_lo - delta)/p2_hi) "
            "<= eps (both directions)"
        ),
        method=Method.CROSSHAIR,
        lemmas=(
            "lower_bound_sound",
            "lower_bound_sound_reversed",
        ),
        checks=("lemma_controls:false_lemma_refuted",),
        predicates=(
            "dpspec.spec.audit.event_within",
            "dpspec.spec.audit.bound_certified",
            "dpspec.proofs.topics.audit.lemmas.lower_bound_sound",
            "dpspec.proofs.topics.audit.lemmas.lower_bound_sound_reversed",
        ),
        impls=("dpspec.audit.bounds.epsilon_lower",),
        tests=(
            "tests/test_audit.py::test_lower_bound_lemma_holds_on_examples",
            "tests/test_audit.py::test_false_audit_lemma_has_a_counterexample",
        ),
        binding="differential: audit.lemma-binding",
    ),
    Obligation(
        id="audit.clopper-pearson-coverage",
        source=(
            "auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds); Clopper and Pearson "
            "1934"
        ),
        claim=(
            "the one-sided CP bounds cover p with probability >= 1 - alpha, exactly (binomial law "
            "enumerated); the Wald bound does not"
        ),
        method=Method.EXACT,
        predicates=(
            "dpspec.spec.audit.lower_bound_coverage",
            "dpspec.spec.audit.binomial_pmf",
        ),
        impls=(
            "dpspec.audit.bounds.cp_lower",
            "dpspec.audit.bounds.cp_upper",
        ),
        checks=("cp_coverage",),
        tests=("tests/test_audit.py::test_cp_bounds",),
    ),
    Obligation(
        id="audit.soundness",
        source="auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds)",
        claim=(
            "all 2K confidence bounds of the K events an audit estimates hold together with "
            "probability >= confidence: over 1000 audits with two events each, on a target "
            "where this is nearly attained, the rate of a missed bound is consistent with "
            "<= 0.2 at confidence 0.8, and an auditor with the confidence halved or alpha not "
            "split over the events is rejected"
        ),
        method=Method.STATISTICAL,
        predicates=("dpspec.spec.audit.misses_acceptable",),
        impls=(
            "dpspec.audit.loop.audit",
            "dpspec.audit.core.audit",
            "dpspec.audit.loop.AuditResult",
            "dpspec.audit.loop.event_level",
            "dpspec.audit.loop.AuditCoverageWarning",
            "dpspec.audit.loop._event_bounds",
            "dpspec.audit.loop.EventBound",
            "dpspec.audit._targets.describe_sampling",
            "dpspec.audit._selection._best_events",
            "dpspec.audit._events.Event",
            "dpspec.audit._targets.Mechanism",
            "dpspec.audit._targets.CallableMechanism",
            "dpspec.audit._targets.as_mechanism",
        ),
        checks=("soundness_checks:soundness",),
        tests=(
            "tests/test_audit.py::test_audit_result_json_and_validation",
            "tests/test_audit.py::test_callable_shapes",
            "tests/test_audit_kinds.py::test_any_callable_is_a_target",
            "tests/test_audit_kinds.py::test_refused_callables_say_what_was_found",
        ),
    ),
    Obligation(
        id="audit.zoo-power",
        source=(
            "auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds); StatDP and DP-Sniper "
            f"benchmark mechanisms; {THESIS}:L655 (exponential mechanism without the 1/2)"
        ),
        claim=(
            "every broken zoo mechanism (>= 12) is flagged at 10^6 draws per side and no correct "
            "one is; Laplace 0.5 gives eps_LCB >= 0.48"
        ),
        method=Method.STATISTICAL,
        impls=(
            "dpspec.audit.loop.audit_pairs",
            "dpspec.audit._events.float_keys",
            "dpspec.audit.loop.screen_bound",
            "dpspec.audit.zoo.zoo",
            "dpspec.audit.zoo.ZooEntry",
            "dpspec.audit.zoo.FunctionMechanism",
            "dpspec.audit.zoo.laplace_sampler",
            "dpspec.audit.zoo.gaussian_sampler",
            "dpspec.audit.zoo.truncated_geometric_sampler",
            "dpspec.audit.zoo.noisy_max_sampler",
            "dpspec.audit.zoo.svt_sampler",
            "dpspec.audit.zoo.rare_leak_sampler",
            "dpspec.audit.zoo.data_threshold_sampler",
            "dpspec.audit.zoo.gaussian_epsilon",
            "dpspec.audit.zoo.svt_no_threshold_noise_epsilon",
            "dpspec.audit.zoo_kinds.kinds",
            "dpspec.audit.zoo_kinds.laplace_with_defaults",
            "dpspec.audit.zoo_kinds.laplace_wrong_default",
            "dpspec.audit.zoo_kinds.CallableRelease",
            "dpspec.audit.zoo_kinds.global_laplace",
            "dpspec.audit.zoo_kinds.global_laplace_half_noise",
            "dpspec.audit.zoo_kinds.clipped_sum",
            "dpspec.audit.zoo_kinds.unclipped_sum",
            "dpspec.audit.zoo_kinds.resampled_bounded_laplace",
            "dpspec.audit.zoo_kinds.resampled_bounded_epsilon",
            "dpspec.audit.zoo_kinds.one_coordinate_released",
            "dpspec.audit.zoo_kinds.group_by_counts",
            "dpspec.audit.zoo_kinds.noisy_records",
            "dpspec.audit.zoo_kinds.labelled_release",
            "dpspec.audit._targets.as_structured",
            "dpspec.audit._structured.structured_rows",
            "dpspec.audit._structured.leaf_kind",
        ),
        checks=("zoo_power",),
        tests=(
            "tests/test_audit.py::test_zoo_true_epsilons",
            "tests/test_audit.py::test_audit_pairs_picks_the_revealing_pair",
            "tests/test_audit.py::test_cli_audit",
            "tests/test_audit.py::test_float_attack",
        ),
    ),
    Obligation(
        id="audit.assert-dp",
        source=(
            "auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds); Google DP libraries' "
            "9-vote statistical tests"
        ),
        claim=(
            "assert_dp's stated false alarm (3.3e-5 for 9 votes at 0.05) equals the exact "
            "false alarm of the vote rule the code applies; it rejects 1.2x the claimed epsilon"
        ),
        method=Method.STATISTICAL,
        impls=(
            "dpspec.audit.ci.assert_dp",
            "dpspec.audit.ci.vote",
            "dpspec.audit.ci.VoteResult",
            "dpspec.audit.ci.DPViolation",
            "dpspec.audit.ci.majority_false_alarm",
            "dpspec.audit.ci._vote_seeds",
            "dpspec.audit.pytest_plugin.assert_dp_fixture",
        ),
        checks=("assert_dp_validity",),
        tests=(
            "tests/test_audit.py::test_assert_dp_fixture",
            "tests/test_audit_kinds.py::test_assert_dp_takes_audit_options_and_carries_results",
        ),
    ),
    Obligation(
        id="audit.resume",
        source="auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds)",
        claim=(
            "an interrupted audit resumed from its checkpoint reproduces the uninterrupted "
            "counts; a foreign checkpoint is refused"
        ),
        method=Method.PROPERTY,
        impls=(
            "dpspec.audit.loop.audit",
            "dpspec.audit._checkpoint.Progress",
            "dpspec.audit._checkpoint.AuditIdentity",
            "dpspec.audit._identity.fingerprint",
            "dpspec.audit._identity.qualified_name",
        ),
        checks=("checkpoint_checks:resume_exact",),
        tests=(
            "tests/test_audit_checkpoint.py::test_a_finished_checkpoint_does_not_answer_for_another_target",
            "tests/test_audit_checkpoint.py::test_an_interrupted_checkpoint_refuses_another_target",
            "tests/test_audit_checkpoint.py::test_learner_factories_are_told_apart",
            "tests/test_audit_checkpoint.py::test_keyed_checkpoints_refuse_edits",
            "tests/test_audit_checkpoint.py::test_cli_checkpoint_of_another_target",
        ),
    ),
    Obligation(
        id="audit.pair-search",
        source=(
            "auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds); StatDP input patterns "
            "(Ding et al. 2018); Hypothesis targeted search"
        ),
        claim=(
            "StatDP's patterns and a hypothesis.target search find a violating pair for noisy-max "
            "v1b and SVT Alg 4, and none for their correct versions"
        ),
        method=Method.STATISTICAL,
        impls=(
            "dpspec.audit._search.statdp_patterns",
            "dpspec.audit._search.query_vector_pairs",
            "dpspec.audit._search.hypothesis_search",
            "dpspec.audit._search.SearchResult",
        ),
        checks=("pair_search",),
        tests=("tests/test_audit.py::test_statdp_patterns",),
    ),
    Obligation(
        id="audit.library-targets",
        source=(
            "auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds); OpenDP, PyDP, "
            "diffprivlib public APIs"
        ),
        claim=(
            "user callables and library mechanisms load as audit targets calibrated to the claim; "
            "honest claims pass, halved claims are flagged"
        ),
        method=Method.STATISTICAL,
        impls=(
            "dpspec.audit.libraries.load_target",
            "dpspec.audit.libraries._LibraryMechanism",
            "dpspec.audit.libraries._gaussian_sigma",
        ),
        checks=("library_targets",),
        tests=(
            "tests/test_audit_libraries.py::test_user_callables",
            "tests/test_audit_libraries.py::test_bad_targets",
            "tests/test_audit_libraries.py::test_gaussian_calibration",
            "tests/test_audit_libraries.py::test_opendp_follows_its_claimed_law",
            "tests/test_audit_libraries.py::test_pydp_follows_its_claimed_law",
            "tests/test_audit_libraries.py::test_diffprivlib_target",
        ),
    ),
    Obligation(
        id="audit.hostile-input",
        source=(
            "auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds); hostile-input review "
            "of the auditor"
        ),
        claim=(
            "the auditor refuses unrepresentable releases and hostile arguments with an error "
            "naming them (before any draw), flags NaN/complex/vector-NaN leaks, never judges "
            "continuous outputs by atoms only, validates checkpoints, gives the same counts for "
            "any jobs, and its CLI exits 2 (usage) or 3 (internal), never 1, on such input"
        ),
        method=Method.PROPERTY,
        predicates=("dpspec.spec.audit.checkpoint_counts_valid",),
        impls=(
            "dpspec.audit.loop.audit",
            "dpspec.audit._events.Event",
            "dpspec.audit._targets.MechanismError",
            "dpspec.validation.check_confidence",
            "dpspec.validation.check_seed",
            "dpspec.audit.loop._check_samples",
            "dpspec.audit.loop.default_selection",
            "dpspec.audit.bounds.max_epsilon_lower",
            "dpspec.audit.ci.vote",
            "dpspec.audit.libraries.load_target",
        ),
        checks=("hostile_checks:hostile_inputs",),
        tests=(
            "tests/test_audit.py::test_nan_is_an_event_of_its_own",
            "tests/test_audit.py::test_complex_outputs_are_audited_as_pairs",
            "tests/test_audit.py::test_unrepresentable_outputs_are_refused",
            "tests/test_audit.py::test_small_selection_is_not_judged_by_atoms",
            "tests/test_audit.py::test_selection_follows_samples",
            "tests/test_audit.py::test_arguments_are_checked_by_name",
            "tests/test_audit.py::test_assert_dp_arguments",
            "tests/test_audit.py::test_jobs_do_not_change_the_counts",
            "tests/test_audit_checkpoint.py::test_tampered_checkpoints_are_refused",
            "tests/test_audit_checkpoint.py::test_corrupted_checkpoints_are_refused",
            "tests/test_audit_checkpoint.py::test_unwritable_checkpoint_is_refused_before_drawing",
            "tests/test_audit.py::test_cli_exit_codes",
            "tests/test_audit.py::test_cli_help_documents_exit_codes",
            "tests/test_audit_checkpoint.py::test_checkpoint_counts_predicate",
            "tests/test_audit.py::test_unrefutable_claims_are_refused",
        ),
        entry_points=(
            "dpspec.audit.loop.audit",
            "dpspec.audit.ci.assert_dp",
            "dpspec.cli.main",
        ),
    ),
    Obligation(
        id="audit.learner-targets",
        source=(
            "auditing.md (learner audits: fit on D and D', compare the release); seed 000 Alg 2-3 "
            "(PCL, PCDE); seed 004 Fig. 1 and 3 (A1, A2)"
        ),
        claim=(
            "learners audited through the path the auditor chooses: a real fit + release per "
            "draw, except for estimators of exactly a class whose repeated_predictions is "
            "conformance-bound to fit (PCL; subclasses and wrappers run their own fit); broken "
            "learners (half noise, a data-dependent partition, a subclass whose predict leaks a "
            "label, PCDE at 2 eps, A2 used as fully private) are flagged, correct ones are not, "
            "and PCL's eps_LCB reaches >= 0.95 of its exact eps"
        ),
        method=Method.STATISTICAL,
        impls=(
            "dpspec.audit.learners.LearnerMechanism",
            "dpspec.audit.learners._shortcut_of",
            "dpspec.audit.learner_zoo.LastLabelHistogramClassifier",
            "dpspec.audit.learner_zoo.learner_zoo",
            "dpspec.audit.learner_zoo.LearnerEntry",
            "dpspec.audit.learner_zoo.HalvedNoiseHistogramClassifier",
            "dpspec.audit.learner_zoo.DataRangeHistogramClassifier",
            "dpspec.audit.learner_zoo.DoubledEpsilonDensity",
            "dpspec.audit.learner_zoo.released_counts_at",
            "dpspec.audit.learner_zoo.data_range_epsilon",
            "dpspec.audit.libraries.load_factory",
            "dpspec.audit.libraries._model_canary_pair",
            "dpspec.audit.libraries._diffprivlib_model",
            "dpspec.audit.learners._legacy_random_state",
        ),
        checks=("learner_checks:learner_zoo_power",),
        tests=(
            "tests/test_audit_learners.py::test_learner_mechanism_releases",
            "tests/test_audit_learners.py::test_learner_mechanism_arguments",
            "tests/test_audit_checkpoint.py::test_a_subclass_is_audited_through_its_own_predict",
            "tests/test_audit_checkpoint.py::test_wrappers_and_replaced_methods_take_the_real_path",
            "tests/test_audit_checkpoint.py::test_cli_real_fits_switch",
            "tests/test_audit_learners.py::test_cli_learner_usage_errors",
            "tests/test_audit_learners.py::test_cli_class_target_is_built_at_the_claim",
            "tests/test_audit_learners.py::test_learner_zoo_true_epsilons",
            "tests/test_audit_learners.py::test_cli_audits_learners",
        ),
        entry_points=(
            "dpspec.learners.pcl.PrivateHistogramClassifier.repeated_predictions",
            "dpspec.learners.pcde.PrivateHistogramDensity.fit",
        ),
    ),
    Obligation(
        id="audit.learner-soundness",
        source="auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds); seed 000 Alg 2",
        claim=(
            "learner audits' confidence bounds hold together with probability >= confidence: "
            "over 1000 audits of PCL (its exact law, through the shortcut the auditor samples) "
            "the rate of a missed bound is consistent with <= 0.2 at confidence 0.8, and the "
            "confidence halved is rejected"
        ),
        method=Method.STATISTICAL,
        predicates=("dpspec.spec.audit.misses_acceptable",),
        impls=("dpspec.audit.learners.LearnerMechanism",),
        checks=("soundness_checks:learner_soundness",),
    ),
    Obligation(
        id="audit.learner-repeated-fits",
        source="seed 000 Alg 2 (PCL, L193-200); auditing.md (vectorised learner audits)",
        claim=(
            "PCL's repeated_predictions (what the learner auditor samples) draws from the exact "
            "law of fit(X, y).predict(probe), probes in one cube sharing its noise"
        ),
        method=Method.STATISTICAL,
        impls=("dpspec.learners.pcl.PrivateHistogramClassifier.repeated_predictions",),
        checks=("learner_checks:repeated_predictions_conformance",),
        tests=("tests/test_audit_learners.py::test_repeated_predictions_match_fit",),
        binding="differential: pcl.privacy",
    ),
    Obligation(
        id="audit.one-run",
        source=(
            "Steinke, Nasr and Jagielski 2023 (arXiv:2305.08846), privacy auditing with one "
            "training run: W <= Bin(r, e^eps/(1+e^eps)); seed 000 Alg 2 (PCL) as the test bed"
        ),
        claim=(
            "one-run audits where the binomial bound is attained have a false-alarm rate "
            "consistent with <= 0.2 at confidence 0.8 over 1000 runs (the confidence halved is "
            "rejected), flag PCL with half its noise, and reach >= 0.85 of PCL's add/remove eps "
            "at m = 10^4"
        ),
        method=Method.STATISTICAL,
        predicates=("dpspec.spec.audit.false_alarm_rate_acceptable",),
        impls=(
            "dpspec.audit.one_run.one_run_audit",
            "dpspec.audit.one_run.learner_one_run",
            "dpspec.audit.one_run.one_run_epsilon_lower",
            "dpspec.audit.one_run.one_run_pvalue",
            "dpspec.audit.one_run.OneRunResult",
        ),
        checks=("learner_checks:one_run",),
        tests=(
            "tests/test_audit_learners.py::test_one_run_bound_inverts_the_binomial_tail",
            "tests/test_audit_learners.py::test_one_run_arguments",
            "tests/test_audit_learners.py::test_one_run_scores_are_read_from_the_model",
        ),
        entry_points=("dpspec.learners.pcl.PrivateHistogramClassifier.fit",),
    ),
    Obligation(
        id="audit.rare-events-and-vectors",
        source=(
            "auditing.md (event families; rare leaks lost in selection; vector releases); "
            "Bonferroni over the families estimated"
        ),
        claim=(
            "a leak of probability 1e-4 (and 1e-5, 1e-6 with --thorough) in a Laplace release "
            "is flagged at 50/p draws per side (the body event alone is not), leak-free and "
            "(eps, 2p)-claimed controls are "
            "not; Laplace 0.1 keeps eps_LCB >= 0.09 at 10^6; 2-D unequal-scale Laplace and a "
            "3-bin substitution histogram reach >= 0.95 of their true eps"
        ),
        method=Method.STATISTICAL,
        impls=(
            "dpspec.audit.zoo.vector_laplace_sampler",
            "dpspec.audit.loop.audit",
            "dpspec.audit._events.Event",
        ),
        checks=("event_checks:rare_events", "event_checks:vector_tightness"),
        tests=(
            "tests/test_audit.py::test_rare_atoms_are_a_family_of_their_own",
            "tests/test_audit.py::test_orthant_events",
        ),
    ),
    Obligation(
        id="audit.learner-pair-search",
        source=(
            "auditing.md (neighbour search); StatDP-style patterns for learners (isolated "
            "records, extreme canaries, cell boundaries); Hypothesis targeted search"
        ),
        claim=(
            "from a background dataset alone, canary patterns and a hypothesis.target search "
            "find a violating pair for PCL with half its noise and none for PCL"
        ),
        method=Method.STATISTICAL,
        impls=(
            "dpspec.audit._learner_search.canary_pairs",
            "dpspec.audit._learner_search.canary_pair_strategy",
            "dpspec.audit._learner_search.isolated_records",
        ),
        checks=("learner_checks:learner_pair_search",),
        tests=("tests/test_audit_learners.py::test_canary_pairs",),
    ),
    Obligation(
        id="audit.new-events-soundness",
        source=(
            "auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds); the union bound "
            "over events and over searched pairs (Bonferroni)"
        ),
        claim=(
            "the bounds of events within a NaN pattern, of direction events and of the "
            "finalists of a pair search miss their exact probabilities no more often than "
            "their levels allow; the confidence halved, alpha not split over the events and "
            "the finalists bounded at the full alpha are rejected"
        ),
        method=Method.STATISTICAL,
        predicates=("dpspec.spec.audit.misses_acceptable",),
        impls=(
            "dpspec.audit.pair_search.Search",
            "dpspec.audit.pair_search._search_and_audit",
            "dpspec.audit.pair_search._screen_pairs",
            "dpspec.audit._structured.StructuredOutputs",
            "dpspec.audit._structured.flatten",
            "dpspec.audit._structured.shapes_of",
            "dpspec.audit._structured.numbers_within",
            "dpspec.audit._structured.numbers_in",
            "dpspec.audit.pair_search._private_hypothesis_home",
            "dpspec.audit._selection._within_families",
            "dpspec.audit._selection._direction_candidates",
        ),
        checks=("soundness_checks:new_families_soundness",),
        tests=(
            "tests/test_audit_kinds.py::test_search_finds_the_edge_and_states_its_budget",
            "tests/test_audit_kinds.py::test_nan_coordinates_are_audited_within_their_pattern",
            "tests/test_audit_kinds.py::test_keyed_and_variable_length_releases",
            "tests/test_audit_kinds.py::test_a_family_that_cannot_run_is_said",
        ),
    ),
    Obligation(
        id="audit.vector-power",
        source=(
            "auditing.md (vector releases, approximate DP); Balle and Wang 2018 (the exact "
            "epsilon(delta) of the Gaussian mechanism)"
        ),
        claim=(
            "a Gaussian release with sigma for (2, 1e-3) claimed (1, 1e-3) is flagged at >= "
            "0.8 of its true epsilon in 3 dimensions (>= 0.95 in 3, 16 and 64 dimensions at "
            "samples='auto' with --thorough); a 64-bin histogram with add-remove noise under "
            "substitution at >= 0.95 of its true epsilon"
        ),
        method=Method.STATISTICAL,
        impls=(
            "dpspec.audit._selection._screened_box_candidates",
            "dpspec.audit.loop._auto_samples",
            "dpspec.audit.zoo_kinds.gaussian_vector",
            "dpspec.audit.zoo_kinds.gaussian_sigma",
            "dpspec.audit.zoo_kinds.laplace_vector",
        ),
        checks=("event_checks:vector_power",),
        tests=("tests/test_audit_kinds.py::test_auto_samples_are_sized_from_the_claim",),
    ),
    Obligation(
        id="audit.replay-laplace",
        source="auditing.md (replay auditing: the target's own draws, coupled by a shift)",
        claim=(
            "the Laplace mechanism written x + rng.laplace(0, b, n) and rng.laplace(x, b, n) "
            "replays to eps_upper = eps to 1e-9, exact; three queries to 3 eps; audit(replay="
            "True) says consistent, and noise for eps x 1.25 is a violation"
        ),
        method=Method.PROPERTY,
        predicates=("dpspec.spec.audit.bracket_verdict",),
        impls=(
            "dpspec.audit.replay",
            "dpspec.audit._recording",
            "dpspec.audit._privacy_loss",
        ),
        entry_points=("dpspec.audit.replay.replay", "dpspec.audit.loop.audit"),
        checks=("replay_checks:replay_laplace",),
        bug_controls=(
            BugControl(
                "dpspec.audit._privacy_loss.pure_epsilon",
                "return abs(shift)",
                "return abs(shift) / 2",
                "the Laplace draw's pure eps halved (a bound 2x too small)",
            ),
            BugControl(
                "dpspec.audit._privacy_loss.epsilon_of",
                "for f, t in shifts.items() for x in t), 0.0)",
                "for f, t in shifts.items() for x in t), 0.0) / 3",
                "pure composition divided by the number of queries (an average, not the sum)",
            ),
        ),
        tests=("tests/test_replay.py::test_laplace_both_ways",),
    ),
    Obligation(
        id="audit.replay-gaussian",
        source=(
            "auditing.md (replay auditing); Balle & Wang 2018, Thm 8 (the Gaussian mechanism's "
            "exact privacy curve)"
        ),
        claim=(
            "a 3-dimensional Gaussian with the classic sigma replays to eps_upper = the closed-"
            "form eps(delta) to 1e-3 in < 1 s: at (8, 1e-3) 8.18, a violation; at (4, 1e-5) "
            "3.51, consistent; the analytic sigma at (4, 1e-5) to eps_upper = 4, consistent; "
            "Laplace at delta = 1e-3 is bracketed by the loss distribution around "
            "eps + 2 ln(1 - delta) within 2e-3"
        ),
        method=Method.PROPERTY,
        predicates=("dpspec.spec.audit.bracket_verdict",),
        impls=(
            "dpspec.audit._privacy_loss.epsilon_of",
            "dpspec.audit._privacy_loss.gaussian_epsilon",
        ),
        entry_points=("dpspec.audit.loop.audit",),
        checks=("replay_checks:replay_gaussian",),
        bug_controls=(
            BugControl(
                "dpspec.audit._privacy_loss.epsilon_of",
                'mu = float(np.linalg.norm(shifts["gaussian"]))',
                'mu = float(np.abs(shifts["gaussian"]).max())',
                "mu from the largest coordinate's shift, not the L2 norm of all of them",
            ),
            BugControl(
                "dpspec.audit._privacy_loss.family_grid",
                "values = top if pessimistic else bottom",
                "values = bottom if pessimistic else top",
                "the pessimistic and optimistic cell ends swapped",
            ),
        ),
        tests=("tests/test_replay.py::test_gaussian_closed_forms",),
    ),
    Obligation(
        id="audit.replay-uncoupled",
        source="auditing.md (replay auditing: what a shift cannot couple)",
        claim=(
            "an exact total beside a noisy histogram, a data-dependent scale, a data-dependent "
            "draw count and a Generator of the target's own are each reported with their site "
            "and get no upper bound; a fixed internal seed is a deterministic release, eps = inf"
        ),
        method=Method.PROPERTY,
        predicates=("dpspec.spec.audit.bracket_verdict",),
        impls=("dpspec.audit.replay.ReplayResult", "dpspec.audit.replay.ReplayCall"),
        entry_points=("dpspec.audit.replay.replay", "dpspec.audit.loop.audit"),
        checks=("replay_checks:replay_uncoupled",),
        bug_controls=(
            BugControl(
                "dpspec.audit.replay._holds",
                "return not _differ(out_d, out)",
                "return True",
                "a shift accepted without replaying it",
            ),
            BugControl(
                "dpspec.audit._recording.RecordingGenerator._location",
                "if not np.array_equal(old.scale, scale_b.ravel()):",
                "if not np.allclose(old.scale, scale_b.ravel(), rtol=0.1):",
                "scales compared to 10% only",
            ),
        ),
        tests=("tests/test_replay.py::test_uncoupled_targets_are_named",),
    ),
    Obligation(
        id="audit.replay-gumbel",
        source="auditing.md (replay auditing); McSherry & Talwar 2007 (report-noisy-max with "
        "Gumbel noise is the exponential mechanism)",
        claim=(
            "report-noisy-max with Gumbel noise replays to a finite eps_upper >= the exact "
            "eps(delta) of its output law at delta > 0, never an exact (violation) claim; at "
            "delta = 0 the bracket is inconclusive"
        ),
        method=Method.PROPERTY,
        predicates=("dpspec.spec.audit.bracket_verdict",),
        impls=("dpspec.audit._privacy_loss.family_grid", "dpspec.audit._privacy_loss.compose"),
        entry_points=("dpspec.audit.replay.replay", "dpspec.audit.loop.audit"),
        checks=("replay_checks:replay_gumbel",),
        bug_controls=(
            BugControl(
                "dpspec.audit.replay._tracked_shift",
                "parts.append((a.sign * (ca - cb) + (a.loc - b.loc)) / a.scale)",
                "parts.append((a.sign * (cb - ca) + (a.loc - b.loc)) / a.scale)",
                "the shift read from the additions with its sign flipped",
            ),
            BugControl(
                "dpspec.audit.replay._determines",
                "return int(np.linalg.matrix_rank(jac, tol=1e-6)) == moved.size",
                "return True",
                "every coupled release taken as exact (an upper bound reported as the value)",
            ),
        ),
        tests=("tests/test_replay.py::test_gumbel_max_is_sound",),
    ),
    Obligation(
        id="audit.resolution-power",
        source="auditing.md (the power of the Clopper-Pearson event test, exact binomial sums)",
        claim=(
            "a mechanism exactly at an audit's stated resolution is flagged with probability "
            ">= 0.9 (200 audits, exact binomial test at 1e-6); a correct mechanism whose claim "
            "is beyond the budget's resolution is inconclusive, never consistent"
        ),
        method=Method.STATISTICAL,
        predicates=("dpspec.spec.audit.claim_resolved",),
        impls=("dpspec.audit.power", "dpspec.audit.ci.vote_power", "dpspec.audit.ci.VoteResult"),
        entry_points=("dpspec.audit.loop.audit", "dpspec.audit.power.resolution"),
        checks=("replay_checks:resolution_power",),
        bug_controls=(
            BugControl(
                "dpspec.audit.power._resolution",
                "return _power(n, p1, weights, need) - power",
                "return _power(n, p1, weights, need) - power / 1.8",
                "the resolution solved at power 0.5 instead of 0.9",
            ),
        ),
        tests=("tests/test_replay.py::test_detection_power_is_the_exact_sum",),
    ),
    Obligation(
        id="audit.delta-resolution",
        source="auditing.md (δ on a region the other side cannot produce; exact binomial sums)",
        claim=(
            "an (eps, delta) audit states its delta resolution and it holds (a leak of that "
            "mass on an outcome the neighbour never produces is flagged with probability >= "
            "0.9); the region beyond the other side's support is among its events (a Laplace "
            "truncated so that it leaks 10x the claimed delta is a violation at 10^6 draws); "
            "an unresolved delta is inconclusive, never consistent"
        ),
        method=Method.STATISTICAL,
        predicates=("dpspec.spec.audit.delta_resolved",),
        impls=("dpspec.audit.power", "dpspec.audit._selection"),
        entry_points=("dpspec.audit.loop.audit", "dpspec.audit.power.delta_resolution"),
        checks=("replay_checks:delta_resolution_holds",),
        bug_controls=(
            BugControl(
                "dpspec.audit.power._delta_resolution",
                "return float(special.betaincinv(lo, n - lo + 1, power))",
                "return float(special.betaincinv(lo, n - lo + 1, power / 1.8))",
                "the delta resolution solved at power 0.5 instead of 0.9",
            ),
            BugControl(
                "dpspec.audit._selection._families",
                "if delta > 0:",
                "if delta < 0:",
                "the events beyond the other side's range left out",
            ),
            BugControl(
                "dpspec.audit.loop._bracket",
                "and delta_resolved(result.delta, result.delta_resolution, DELTA_MARGIN)",
                "or delta_resolved(result.delta, result.delta_resolution, DELTA_MARGIN)",
                "an unresolved delta passed as consistent",
            ),
        ),
        tests=(
            "tests/test_replay.py::test_truncated_laplace_leak_is_never_consistent",
            "tests/test_replay.py::test_readme_power_statements_are_what_the_code_says",
        ),
    ),
    Obligation(
        id="audit.fresh-draws",
        source="auditing.md (a release that ignores the given Generator is deterministic)",
        claim=(
            "a target that ignores the Generator it is given (a fixed internal seed) is a "
            "violation at epsilon = inf even when its draws fit the right law on each side; "
            "correct targets are never called deterministic"
        ),
        method=Method.PROPERTY,
        impls=("dpspec.audit._freshness",),
        entry_points=("dpspec.audit.loop.audit",),
        checks=("replay_checks:fresh_draws",),
        bug_controls=(
            BugControl(
                "dpspec.audit._freshness.probe",
                "sides.append((first, first == second, _collisions(first) <= MAX_COLLISION))",
                "sides.append((first, False, _collisions(first) <= MAX_COLLISION))",
                "the probe never compares the two Generators' releases",
            ),
            BugControl(
                "dpspec.audit.loop.audit",
                "if fresh.deterministic and not result.violation:",
                "if fresh.deterministic and result.violation:",
                "the probe's finding ignored by the verdict",
            ),
        ),
        tests=(
            "tests/test_trust.py::test_a_target_with_a_fixed_internal_seed_is_not_private",
            "tests/test_trust.py::test_conform_and_its_fixture_refuse_a_fixed_internal_seed",
        ),
    ),
)
