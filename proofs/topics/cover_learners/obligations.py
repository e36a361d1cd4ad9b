"""The registered guarantees of seed 004 (Chaudhuri–Hsu; see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import Kind, Method, Obligation
from dpspec.proofs.engine.seeds import CHAUDHURI_HSU as CH

_PKG = "dpspec.cover_learners"
_A1 = f"{_PKG}.learners.PrivateCoverClassifier"
_A2 = f"{_PKG}.learners.LabelPrivateCoverClassifier"
_SELECT = "dpspec.learners.semi_supervised.exponential_choice"
_EM = "dpspec.mechanisms.exponential.ExponentialMechanism"
_TESTS = "tests/test_cover_learners.py"
_SC = "dpspec.spec.cover_learners"
_HYP = f"{_PKG}.hypotheses"
_GRIDS = (f"{_HYP}.threshold_grid", f"{_HYP}.interval_grid", f"{_HYP}.Boxes")
_FAMILY = f"{_PKG}.lower_bound.sample_threshold_family"
_DP = ("dpspec.spec.privacy.satisfies_pure_dp",)
_LEARNERS = f"{_PKG}.learners"
#: The selection step drawn for ε × 1.25 (fit and release_law, both paths).
_OVERSPEND = BugControl(
    f"{_LEARNERS}._CoverExponentialClassifier._selection_epsilon",
    'return float(s["epsilon"])',
    'return 1.25 * float(s["epsilon"])',
    "the selection step calibrated for ε × 1.25",
)

#: Why the end-to-end utility checks cannot discriminate (the certificates are loose by nature).
_UTILITY_REASON = (
    "the certificate is a union bound over G with Hoeffding at ε/4 and Lemma 18 at ε/4 "
    "(exponents mε²/8, αmε/8): wherever it is below 1 it exceeds the exact failure probability "
    "by e^{Θ(αmε)} (measured 4e-47, 0, 1e-167 against 0.08, 0.11, 0.03), so a certificate "
    "understated several times still passes; the companion *.selection-step checks the step "
    "the learner is responsible for where it is nearly attained"
)
_LOWER_REASON = (
    "a lower bound holds for every private learner and these learners meet it with a wide "
    "margin, so a modest privacy bug leaves it true"
)

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="a1.privacy",
        source=f"{CH}:L842-857 (Fig. 1, A1); {CH}:L139-141 (Def 3); {CH}:L256-258 (Thm 7)",
        claim=(
            "A1 (exponential mechanism over a public cover, weights exp(-α m err/2)) is α-private "
            "under substitution of one example, for the ε = α the caller passed, exact and "
            "idealised, over ε ∈ [2^-32, 700]"
        ),
        method=Method.EXACT,
        predicates=_DP,
        impls=(_A1, *_GRIDS, _SELECT, _EM),
        checks=("a1_privacy",),
        tests=(f"{_TESTS}::test_a1_privacy_by_hand", f"{_TESTS}::test_fit_draws_from_release_law"),
        entry_points=(f"{_A1}.fit", f"{_A1}.release_law"),
        privacy=True,
    ),
    Obligation(
        id="a1r.privacy",
        source=f"{CH}:L861-876 (Fig. 2, A1r); {CH}:L139-141 (Def 3)",
        claim="A1r (the realizable sample-size equation, same mechanism) is α-private",
        method=Method.EXACT,
        predicates=_DP,
        impls=(_A1, *_GRIDS, _SELECT, _EM),
        checks=("a1r_privacy",),
        tests=(f"{_TESTS}::test_a1_privacy_by_hand",),
        entry_points=(f"{_A1}.fit", f"{_A1}.release_law"),
        privacy=True,
    ),
    Obligation(
        id="a2.label-privacy",
        source=f"{CH}:L880-889 (Fig. 3, A2); {CH}:L135-137 (Def 2); {CH}:L796-798 (Thm 26)",
        claim=(
            "A2 (cover of (H, ρ_X) from the sample's x's) is α-label private for the caller's "
            "ε, exact and idealised"
        ),
        method=Method.EXACT,
        predicates=_DP,
        impls=(_A2, f"{_HYP}.empirical_threshold_cover", f"{_HYP}.Boxes", _SELECT, _EM),
        checks=("a2_label_privacy",),
        tests=(f"{_TESTS}::test_a2_is_not_private_under_substitution",),
        entry_points=(f"{_A2}.fit", f"{_A2}.release_law"),
        privacy=True,
    ),
    Obligation(
        id="a2.not-private",
        source=f"{CH}:L880-889 (Fig. 3, A2); {CH}:L139-141 (Def 3)",
        claim=(
            "A2 is not α-private under Def 3 (its cover depends on the x's): the exact law has "
            "ratio ∞ on a substitution pair and the auditor flags fit used as fully private"
        ),
        method=Method.EXACT,
        predicates=_DP,
        impls=(_A2, "dpspec.audit.audit"),
        checks=("a2_not_private",),
        tests=(f"{_TESTS}::test_a2_is_not_private_under_substitution",),
        entry_points=(f"{_A2}.fit",),
        privacy=True,
    ),
    Obligation(
        id="cover-learners.privacy-report",
        source=f"{CH}:L256-258 (Thm 7); {CH}:L796-798 (Thm 26)",
        claim=(
            "privacy_ states (α, 0) under substitution for A1/A1r and under label change for "
            "A2, for the caller's ε (the rational ε' ≤ ε the exact sampler draws with), "
            "exact_sampler False exactly when idealised"
        ),
        method=Method.PROPERTY,
        impls=(_A1, _A2),
        checks=("privacy_report",),
        bug_controls=(
            BugControl(
                f"{_LEARNERS}._CoverExponentialClassifier.fit",
                "level = PrivacyLevel(eps, math.exp(eps), 0, False, self.relation)",
                "level = PrivacyLevel(eps, math.exp(eps), 0, True, self.relation)",
                "the idealised learner reporting an exact sampler",
            ),
        ),
        tests=(f"{_TESTS}::test_privacy_report",),
    ),
    Obligation(
        id="label-privacy.implied-by-privacy",
        source=f"{CH}:L135-149 (Def 2, Def 3)",
        claim=(
            "every label-change pair is a substitution pair, so α-privacy implies α-label "
            "privacy (A1 checked under both relations)"
        ),
        method=Method.EXACT,
        predicates=("dpspec.spec.neighbours.is_neighbour",),
        impls=(_A1,),
        checks=("label_privacy_implied",),
        tests=(f"{_TESTS}::test_label_pairs_are_substitution_pairs",),
    ),
    Obligation(
        id="a1.group-privacy",
        source=f"{CH}:L611-623 (Lemma 22)",
        claim="A1's laws on datasets 2 substitutions apart are within e^{2α}",
        method=Method.EXACT,
        predicates=("dpspec.spec.privacy.satisfies_group_privacy",),
        impls=(_A1,),
        checks=("group_privacy",),
        tests=(f"{_TESTS}::test_a1_privacy_by_hand",),
        entry_points=(f"{_A1}.release_law",),
    ),
    Obligation(
        id="smoothness.lemma-19",
        source=f"{CH}:L244-250 (Def 6); {CH}:L500-510 (Lemma 19); {CH}:L294-300 (Example 1)",
        claim=(
            "κ* = max D(x)/U(x) is the least smoothness constant on finite domains and "
            "ρ_D ≤ κ ρ_U (Lemma 19); D_z's κ = ½ + 3/(4η)"
        ),
        method=Method.EXACT,
        predicates=(f"{_SC}.smoothness", f"{_SC}.is_smooth", f"{_SC}.distances_dominated"),
        checks=("geometry:smoothness_lemma19",),
        tests=(f"{_TESTS}::test_smoothness",),
    ),
    Obligation(
        id="smoothness.examples-2-3",
        source=(
            f"{CH}:L320-336 (Examples 2-3); {CH}:L571-587 (Lemma 20); {CH}:L589-605 (Lemma 21)"
        ),
        claim=(
            "the sphere's band (Example 2) and its complement (Example 3) are κ-smooth w.r.t. "
            "the uniform law with κ ≥ κ* = 1/𝒰(W), 1/(1 − 𝒰(W)) as Lemmas 20 and 21 state"
        ),
        method=Method.PROPERTY,
        checks=("geometry:examples_2_3",),
        tests=(f"{_TESTS}::test_sphere_band_masses",),
    ),
    Obligation(
        id="cover.grids",
        source=f"{CH}:L164-168 (covers, strict packings); {CH}:L842-857 (Fig. 1 step 2)",
        claim=(
            "A1's public threshold grid is a strict 1/(2J)-packing and 1/(2J)-cover; the interval "
            "grid a 1/J-cover; greedy maximal packings are covers; A2's cover is an ε/4-cover of "
            "ρ_X"
        ),
        method=Method.EXACT,
        predicates=(f"{_SC}.is_cover", f"{_SC}.is_packing", f"{_SC}.greedy_packing"),
        impls=(
            *_GRIDS,
            f"{_HYP}.empirical_threshold_cover",
            f"{_PKG}.learners.grid_size",
            f"{_PKG}.learners.kappa_hat",
        ),
        checks=("geometry:cover_grids",),
        bug_controls=(
            BugControl(
                f"{_HYP}.threshold_grid",
                "w = (2 * np.arange(1, size + 1) - 1) / (2 * size)",
                "w = np.arange(1, size + 1) / size",
                "the threshold grid at j/J (cover radius 1/J)",
            ),
        ),
        tests=(f"{_TESTS}::test_covers",),
    ),
    Obligation(
        id="cover-learners.score-is-predict",
        source=f"{CH}:L842-889 (Figs. 1-3: err(g, S)); {CH}:L180 (empirical error)",
        claim=(
            "the mistakes each learner scores are the rule its predict applies (closed ends of "
            "thresholds and intervals), on points placed on the candidates' ends, and fit "
            "releases the candidate it scored"
        ),
        method=Method.PROPERTY,
        impls=(_A1, _A2, f"{_HYP}.Boxes"),
        checks=("utility:score_is_predict",),
        bug_controls=(
            BugControl(
                f"{_HYP}.Boxes.mistakes",
                'xs, self.lower, side="left"',
                'xs, self.lower, side="right"',
                "mistakes counted with an open lower end while predict is closed",
            ),
        ),
        tests=(f"{_TESTS}::test_boxes_on_their_ends",),
    ),
    Obligation(
        id="erratum.chaudhuri-hsu-lemma-14",
        source=f"{CH}:L437-440 (Lemma 14)",
        claim=(
            "a packing of a ball of radius r has ≤ (4r/ε)^d members only for ε ≤ 4r; beyond, "
            "the bound is < 1"
        ),
        method=Method.EXACT,
        predicates=(f"{_SC}.packing_size_bound",),
        checks=("geometry:lemma14_erratum",),
        tests=(f"{_TESTS}::test_covers",),
    ),
    Obligation(
        id="erratum.chaudhuri-hsu-lemma-15",
        source=f"{CH}:L441-447 (Lemma 15)",
        claim=(
            "Lemma 15 holds for ddim_r ≥ d (its proof's direction), exactly on finite metric "
            "spaces; as printed (ddim_r ≤ d) it fails on Z = {0, 1}"
        ),
        method=Method.EXACT,
        predicates=(f"{_SC}.doubling_count", f"{_SC}.lemma15_conclusion"),
        checks=("geometry:lemma15",),
        tests=(f"{_TESTS}::test_doubling_dimension",),
    ),
    Obligation(
        id="metric.vc-lemmas-16-17",
        source=f"{CH}:L451-469 (Lemmas 16-17)",
        claim=(
            "VC uniform convergence of thresholds and of their disagreement regions: the "
            "relative deviation bounds hold with ε_m as printed (failure rate ≤ δ)"
        ),
        method=Method.STATISTICAL,
        checks=("geometry:vc_lemmas",),
        tests=(f"{_TESTS}::test_doubling_dimension",),
        kind=Kind.DEMONSTRATION,
        reason=(
            "Vapnik's constants are loose by design (ε_m ≈ 8× the (1 − δ)-quantile measured); "
            "no dpspec code relies on these lemmas (the certificates use Hoeffding and DKW)"
        ),
    ),
    Obligation(
        id="linear-separators.lemma-25",
        source=f"{CH}:L761-790 (Lemma 25); {CH}:L381-383 (Section 5.2)",
        claim=(
            "for small r, B_D(h_u, r) of linear separators on S^{n-1} holds an (r/2)-packing "
            "of ≥ 2^{n-2} members (exhibited at r = 1/10, n = 3..6)"
        ),
        method=Method.PROPERTY,
        checks=("geometry:lemma25",),
        tests=(f"{_TESTS}::test_doubling_dimension",),
        kind=Kind.DEMONSTRATION,
        reason=(
            "an existence claim shown by a packing found greedily, 2-5x larger than 2^{n-2}: "
            "no implementation of dpspec is involved"
        ),
    ),
    Obligation(
        id="erratum.chaudhuri-hsu-lemma-25",
        source=f"{CH}:L767 (Lemma 25); {CH}:L777 (its proof)",
        claim=(
            "Lemma 25 'for any r > 0' fails for r ≥ 2 (a packing of one member); the proof's "
            "cap ratio 2^{-(n-1)} is 1/2 at n = 3, r = 1"
        ),
        method=Method.EXACT,
        checks=("errata_checks:lemma25_large_r",),
        tests=(f"{_TESTS}::test_doubling_dimension",),
    ),
    Obligation(
        id="threshold-lower-bound.packing-inequality",
        source=f"{CH}:L196-228 (Thm 5 and proof, Eq. (1)-(2))",
        claim=(
            "on Thm 5's family, q_z + e^{-αm} Σ_{z'≠z} q_{z'} ≤ 1 for A1's exact law (a necessary "
            "condition of α-privacy, met with room: A1 at 8α meets it too); ERM violates it"
        ),
        method=Method.EXACT,
        predicates=(f"{_SC}.satisfies_packing_inequality", f"{_SC}.threshold_family"),
        impls=(_A1, _FAMILY),
        checks=("lower_bounds:packing_inequality",),
        tests=(f"{_TESTS}::test_packing_inequality",),
        kind=Kind.DEMONSTRATION,
        reason=(
            "the inequality is loose at Thm 5's instance (Σ q_z = 0.87 against e^{αm} = 7.39; "
            "A1 at 8α gives 4.5): it cannot see a modest privacy bug; the discriminating "
            "companion is threshold-lower-bound.a1-level"
        ),
    ),
    Obligation(
        id="threshold-lower-bound.failure",
        source=f"{CH}:L196-205 (Thm 5)",
        claim=(
            "A1 (α = 1/2) errs by ≥ 1/5 w.p. ≥ 1/2 on every P_z for m ≤ M = 4 (exact error "
            "formula); ERM does not"
        ),
        method=Method.EXACT,
        predicates=(f"{_SC}.threshold_family_error",),
        impls=(_A1, _FAMILY),
        checks=("lower_bounds:lower_bound_failure",),
        tests=(f"{_TESTS}::test_lower_bound_family",),
        kind=Kind.DEMONSTRATION,
        reason=_LOWER_REASON + " (A1 errs w.p. 0.97); companion: threshold-lower-bound.a1-level",
    ),
    Obligation(
        id="threshold-lower-bound.a1-level",
        source=f"{CH}:L196-228 (Thm 5); {CH}:L842-857 (Fig. 1)",
        claim=(
            "at Thm 5's parameters (α = 1/2, |G| = 128, m = 4) A1's release_law is the "
            "exponential mechanism written out, and it is α-private on tight pairs"
        ),
        method=Method.EXACT,
        predicates=_DP,
        impls=(_A1, _FAMILY),
        checks=("lower_bounds:a1_level_at_thm5",),
        bug_controls=(_OVERSPEND,),
        tests=(f"{_TESTS}::test_lower_bound_family",),
        entry_points=(f"{_A1}.release_law",),
        privacy=True,
    ),
    Obligation(
        id="a1.utility",
        source=f"{CH}:L264-274 (Thm 8); {CH}:L512-535 (proof)",
        claim=(
            "excess error ≤ ε except with probability ≤ δ_cert = 2|G|e^{-mε²/8} + |G|e^{-αmε/8} "
            "(exact per-sample failure probability, Hoeffding at 1e-6)"
        ),
        method=Method.STATISTICAL,
        impls=(_A1, f"{_PKG}.learners.a1_certificate"),
        checks=("utility:a1_utility",),
        tests=(f"{_TESTS}::test_certificates_by_hand",),
        kind=Kind.DEMONSTRATION,
        reason=_UTILITY_REASON,
    ),
    Obligation(
        id="a1r.utility",
        source=f"{CH}:L278-290 (Thm 9); {CH}:L540-567 (proof, corrected)",
        claim="realizable: excess ≤ ε except w.p. ≤ |G|e^{-mε/400} + δ/4 + |G|e^{-3αmε/40}",
        method=Method.STATISTICAL,
        impls=(_A1, f"{_PKG}.learners.a1r_certificate"),
        checks=("utility:a1r_utility",),
        tests=(f"{_TESTS}::test_certificates_by_hand",),
        kind=Kind.DEMONSTRATION,
        reason=_UTILITY_REASON,
    ),
    Obligation(
        id="a2.utility",
        source=f"{CH}:L804-812 (Thm 27)",
        claim="thresholds: excess ≤ ε except w.p. ≤ 4e^{-mε²/32} + |G|e^{-αmε/8}",
        method=Method.STATISTICAL,
        impls=(_A2, f"{_PKG}.learners.a2_certificate"),
        checks=("utility:a2_utility",),
        tests=(f"{_TESTS}::test_certificates_by_hand",),
        kind=Kind.DEMONSTRATION,
        reason=_UTILITY_REASON,
    ),
    Obligation(
        id="a1.selection-step",
        source=f"{CH}:L527-535 (proof of Thm 8); {CH}:L481-497 (Lemma 18)",
        claim=(
            "A1's exact release law meets P(err(h,S) > err(g0,S) + ε/4 | S) ≤ |G|e^{-αmε/8} "
            "within 1.2× where all but one candidate err just beyond; certificate_ is the "
            "proof's formula"
        ),
        method=Method.EXACT,
        predicates=(f"{_SC}.exponential_tail_holds",),
        impls=(_A1, f"{_PKG}.learners.a1_certificate"),
        checks=("utility:a1_selection_step",),
        bug_controls=(
            BugControl(
                f"{_LEARNERS}.a1_certificate",
                "return 2 * size * math.exp(",
                "return size * math.exp(",
                "A1's certificate without the 2 of the two-sided Hoeffding bound",
            ),
        ),
        tests=(f"{_TESTS}::test_certificates_by_hand",),
    ),
    Obligation(
        id="a1r.selection-step",
        source=f"{CH}:L565-567 (proof of Thm 9, exponent corrected)",
        claim=(
            "A1r's exact release law meets P(err(h,S) > err(g0,S) + 3ε/20) ≤ |G|e^{-3αmε/40} "
            "within 1.2× at a tie sample; certificate_ is the corrected formula"
        ),
        method=Method.EXACT,
        predicates=(f"{_SC}.exponential_tail_holds",),
        impls=(_A1, f"{_PKG}.learners.a1r_certificate"),
        checks=("utility:a1r_selection_step",),
        bug_controls=(
            BugControl(
                f"{_LEARNERS}.a1r_certificate",
                "math.exp(-3 * epsilon * m * accuracy / 40)",
                "math.exp(-3 * m * accuracy / 20)",
                "A1r's certificate with L565's printed exponent",
            ),
        ),
        tests=(f"{_TESTS}::test_certificates_by_hand",),
    ),
    Obligation(
        id="a2.selection-step",
        source=f"{CH}:L826-832 (proof of Thm 27, E')",
        claim=(
            "A2's exact release law meets P(err(h,S) > err(g0,S) + ε/4) ≤ |G|e^{-αmε/8} within "
            "1.2× at a tie sample; certificate_ is its formula"
        ),
        method=Method.EXACT,
        predicates=(f"{_SC}.exponential_tail_holds",),
        impls=(_A2, f"{_PKG}.learners.a2_certificate"),
        checks=("utility:a2_selection_step",),
        tests=(f"{_TESTS}::test_certificates_by_hand",),
    ),
    Obligation(
        id="lemma-11.exact-instance",
        source=f"{CH}:L358-365 (Lemma 11, corrected); {CH}:L670-690 (proof)",
        claim=(
            "m = 12, |P| = 66, s = 1/12, α = 0.3: the α-label private exponential mechanism "
            "misses every h ∈ P w.p. > 1/2; ERM (computed) does not"
        ),
        method=Method.EXACT,
        predicates=(f"{_SC}.lemma11_condition", f"{_SC}.lemma11_conclusion"),
        impls=(_EM,),
        checks=("lower_bounds:lemma11",),
        tests=(f"{_TESTS}::test_lemma11",),
        kind=Kind.DEMONSTRATION,
        reason=_LOWER_REASON + " (miss 0.998); companion: label-lower-bounds.mechanism-level",
    ),
    Obligation(
        id="chaudhuri-hsu.thm-12",
        source=f"{CH}:L369-377 (Thm 12); {CH}:L654-664 (proof)",
        claim=(
            "8 points, H = point indicators, ε = 1/16 (ddim_{4ε} = 3), α = 0.1: for m ≤ 6 the "
            "α-label private exponential mechanism has P(ρ_D(h_A, h*) > ε) ≥ 1/2, exactly over "
            "X ~ D^m; ERM does not"
        ),
        method=Method.EXACT,
        predicates=(f"{_SC}.thm12_condition", f"{_SC}.doubling_count"),
        impls=(_EM,),
        checks=("lower_bounds:thm12",),
        tests=(f"{_TESTS}::test_lemma11",),
        kind=Kind.DEMONSTRATION,
        reason=_LOWER_REASON + " (0.87 ≥ 1/2); companion: label-lower-bounds.mechanism-level",
    ),
    Obligation(
        id="label-lower-bounds.mechanism-level",
        source=f"{CH}:L358-377 (Lemma 11, Thm 12)",
        claim=(
            "the exponential mechanism of the Lemma 11 and Thm 12 instances equals its closed "
            "form (weight classes; sample counts) to 1e-9"
        ),
        method=Method.EXACT,
        impls=(_EM,),
        checks=("lower_bounds:mechanism_level",),
        tests=(f"{_TESTS}::test_lemma11",),
    ),
    Obligation(
        id="erratum.chaudhuri-hsu-lemma-11",
        source=f"{CH}:L365 (Lemma 11, as printed)",
        claim="Lemma 11's printed conclusion '≤ 1/2' fails on the exact instance; '> 1/2' holds",
        method=Method.EXACT,
        predicates=(f"{_SC}.lemma11_conclusion",),
        checks=("errata_checks:lemma11_printed",),
        tests=(f"{_TESTS}::test_lemma11",),
    ),
    Obligation(
        id="erratum.chaudhuri-hsu-thm-9-exponent",
        source=f"{CH}:L565 (proof of Thm 9)",
        claim=(
            "the final step needs |G|e^{-3αmε/40} (Lemma 18 with a_g = α m err/2), not the "
            "printed |G|e^{-3εm/20}: A1r's exact tail exceeds the printed bound"
        ),
        method=Method.EXACT,
        predicates=(f"{_SC}.exponential_tail_holds",),
        impls=(_A1,),
        checks=("errata_checks:thm9_exponent",),
        tests=(f"{_TESTS}::test_errata",),
    ),
    Obligation(
        id="erratum.chaudhuri-hsu-L557",
        source=f"{CH}:L555-561 (proof of Thm 9, Eq. (9))",
        claim=(
            "the Chernoff form at L557 fails when err(g0)·m is small; Eq. (9) holds for "
            "m ≥ (3/ε) ln(4/δ)"
        ),
        method=Method.EXACT,
        checks=("errata_checks:chernoff_l557",),
        tests=(f"{_TESTS}::test_errata",),
    ),
    Obligation(
        id="erratum.chaudhuri-hsu-lemma-18",
        source=f"{CH}:L481-497 (Lemma 18)",
        claim=(
            "Lemma 18.1 as printed (a_i ≤ t ⇒ P(j = i) ≥ e^{-(t-a_i0)}) fails on a = (0, 0); "
            "the proof's a_i ≥ t ⇒ P(j = i) ≤ e^{-(t-a_i0)} and 18.2 hold"
        ),
        method=Method.EXACT,
        predicates=(f"{_SC}.exponential_tail_holds",),
        checks=("errata_checks:lemma18_part1",),
        tests=(f"{_TESTS}::test_errata",),
    ),
    Obligation(
        id="erratum.chaudhuri-hsu-L226",
        source=f"{CH}:L226-228 (proof of Thm 5)",
        claim=(
            "|Z∖{z}| ≥ 1/η − 3 (printed −2 is false when 1/η ∉ ℤ) and 'since m ≥ M' must read "
            "m ≤ M; the contradiction holds with both corrections"
        ),
        method=Method.EXACT,
        predicates=(f"{_SC}.threshold_family",),
        checks=("errata_checks:thm5_counting",),
        tests=(f"{_TESTS}::test_errata",),
    ),
    Obligation(
        id="erratum.chaudhuri-hsu-lemmas-20-21",
        source=f"{CH}:L581 (Lemma 20's proof); {CH}:L599 (Lemma 21's proof)",
        claim=(
            "the band masses are printed as equalities; they are bounds (n = 3, γ = 1/2: 𝒰(W) = "
            "1/2, printed 1 − 2e^{-3/8} < 0 and 1/4)"
        ),
        method=Method.EXACT,
        checks=("errata_checks:lemmas_20_21_printed",),
        tests=(f"{_TESTS}::test_sphere_band_masses",),
    ),
    Obligation(
        id="erratum.chaudhuri-hsu-garbles",
        source=f"{CH}:L55; {CH}:L463; {CH}:L524; {CH}:L547; {CH}:L551; {CH}:L676-682",
        claim=(
            "OCR/typesetting garbles with nothing to execute: L55 '1/ε^α' means 1/(εα); L463 "
            "'of size m = V/2' means of size m; L524 'err(h) = err(h, S) − ε/4' means ≤ (both "
            "directions); L547 'G1 = {g : err(g) ≤ ε}' means > ε (the Chernoff step needs "
            "err(g) > ε); L551 δ/4^{|G1|} means δ/(4|G1|); L676/L682 drop α (the factor is "
            "e^{-8αsm}, the bound log(|P|/2 − 1)/(8αs)) — the statement L361 keeps α and is "
            "what lemma-11 checks"
        ),
        method=Method.DOCUMENTED,
    ),
    Obligation(
        id="chaudhuri-hsu.label-lower-bound",
        source=f"{CH}:L346-352 (Thm 10); {CH}:L684-759 (proof)",
        claim=(
            "Thm 10 (Ω(d/(αε)) for α-label private learners): documented — its constant c is "
            "existential and its proof runs through Lemma 24, whose constant C is too, so no "
            "finite instance satisfies its hypotheses without values the paper does not give; "
            "its executable parts run as lemma-11.exact-instance and chaudhuri-hsu.thm-12"
        ),
        method=Method.DOCUMENTED,
    ),
    Obligation(
        id="chaudhuri-hsu.lemmas-23-24",
        source=f"{CH}:L635-652 (Lemma 23); {CH}:L688-729 (Lemma 24)",
        claim=(
            "Lemmas 23-24: documented — both hold 'for a constant C > 1' that the paper does "
            "not give (m ≥ (CV/r) log(C/r)); Lemma 23 is Lemma 17 at ε_m = r/2, r/3 (its "
            "inequalities run in metric.vc-lemmas-16-17) and Lemma 24 is Lemma 11 (run in "
            "lemma-11.exact-instance) averaged over X under Lemma 23's event"
        ),
        method=Method.DOCUMENTED,
    ),
)
