"""The registered guarantees of seed 004 (Chaudhuri–Hsu; see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import CHAUDHURI_HSU as CH

_A1 = "dpspec.cover_learners.learners.PrivateCoverClassifier"
_A2 = "dpspec.cover_learners.learners.LabelPrivateCoverClassifier"
_SELECT = "dpspec.learners.semi_supervised.exponential_choice"
_EM = "dpspec.mechanisms.exponential.ExponentialMechanism"
_TESTS = "tests/test_cover_learners.py"
_SC = "dpspec.spec.cover_learners"
_HYP = "dpspec.cover_learners.hypotheses"
_GRIDS = (f"{_HYP}.threshold_grid", f"{_HYP}.interval_grid", f"{_HYP}.Boxes")

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="a1.privacy",
        source=f"{CH}:L842-857 (Fig. 1, A1); {CH}:L139-141 (Def 3); {CH}:L256-258 (Thm 7)",
        claim=(
            "A1 (exponential mechanism over a public cover, weights exp(-α m err/2)) is α-private "
            "under substitution of one example, for the α the caller passed"
        ),
        method=Method.EXACT,
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=(_A1, *_GRIDS, _SELECT, _EM),
        checks=("a1_privacy",),
        tests=(f"{_TESTS}::test_a1_privacy_exact", f"{_TESTS}::test_fit_draws_from_release_law"),
        entry_points=(f"{_A1}.fit",),
        privacy=True,
    ),
    Obligation(
        id="a1r.privacy",
        source=f"{CH}:L861-876 (Fig. 2, A1r); {CH}:L139-141 (Def 3)",
        claim="A1r (the realizable sample-size equation, same mechanism) is α-private",
        method=Method.EXACT,
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=(_A1, *_GRIDS, _SELECT, _EM),
        checks=("a1r_privacy",),
        tests=(f"{_TESTS}::test_a1_privacy_exact",),
        entry_points=(f"{_A1}.fit",),
        privacy=True,
    ),
    Obligation(
        id="a2.label-privacy",
        source=f"{CH}:L880-889 (Fig. 3, A2); {CH}:L135-137 (Def 2); {CH}:L796-798 (Thm 26)",
        claim="A2 (cover of (H, ρ_X) from the sample's x's) is α-label private",
        method=Method.EXACT,
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=(_A2, f"{_HYP}.empirical_threshold_cover", f"{_HYP}.Boxes", _SELECT, _EM),
        checks=("a2_label_privacy",),
        tests=(f"{_TESTS}::test_a2_label_privacy_exact",),
        entry_points=(f"{_A2}.fit",),
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
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=(_A2, "dpspec.audit.core.audit"),
        checks=("a2_not_private",),
        tests=(f"{_TESTS}::test_a2_is_not_private_under_substitution",),
        entry_points=(f"{_A2}.fit",),
        privacy=True,
    ),
    Obligation(
        id="cover-learners.privacy-report",
        source=f"{CH}:L256-258 (Thm 7); {CH}:L796-798 (Thm 26)",
        claim=(
            "privacy_ states (α, 0) under substitution for A1/A1r and (α, 0) under label change "
            "for A2, for the caller's α"
        ),
        method=Method.PROPERTY,
        impls=(_A1, _A2),
        checks=("privacy_report",),
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
        id="smoothness.lemma-19",
        source=f"{CH}:L244-250 (Def 6); {CH}:L500-510 (Lemma 19); {CH}:L294-300 (Example 1)",
        claim=(
            "κ* = max D(x)/U(x) is the least smoothness constant on finite domains and "
            "ρ_D ≤ κ ρ_U (Lemma 19); D_z's κ = ½ + 3/(4η)"
        ),
        method=Method.EXACT,
        predicates=(f"{_SC}.smoothness", f"{_SC}.is_smooth", f"{_SC}.distances_dominated"),
        checks=("smoothness_lemma19",),
        tests=(f"{_TESTS}::test_smoothness",),
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
            "dpspec.cover_learners.learners.grid_size",
            "dpspec.cover_learners.learners.kappa_hat",
        ),
        checks=("cover_grids",),
        tests=(f"{_TESTS}::test_covers",),
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
        checks=("lemma14_erratum",),
        tests=(f"{_TESTS}::test_covers",),
    ),
    Obligation(
        id="a1.group-privacy",
        source=f"{CH}:L611-623 (Lemma 22)",
        claim="A1's laws on datasets 2 substitutions apart are within e^{2α}",
        method=Method.EXACT,
        predicates=("dpspec.spec.privacy.satisfies_group_privacy",),
        impls=(_A1,),
        checks=("group_privacy",),
        tests=(f"{_TESTS}::test_group_privacy",),
        entry_points=(f"{_A1}.release_law",),
    ),
    Obligation(
        id="threshold-lower-bound.packing-inequality",
        source=f"{CH}:L196-228 (Thm 5 and proof, Eq. (1)-(2))",
        claim=(
            "on Thm 5's family, q_z + e^{-αm} Σ_{z'≠z} q_{z'} ≤ 1 for A1's exact law; ERM "
            "violates it"
        ),
        method=Method.EXACT,
        predicates=(f"{_SC}.satisfies_packing_inequality", f"{_SC}.threshold_family"),
        impls=(_A1, "dpspec.cover_learners.lower_bound.sample_threshold_family"),
        checks=("packing_inequality",),
        tests=(f"{_TESTS}::test_packing_inequality",),
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
        impls=(_A1, "dpspec.cover_learners.lower_bound.sample_threshold_family"),
        checks=("lower_bound_failure",),
        tests=(f"{_TESTS}::test_lower_bound_failure",),
    ),
    Obligation(
        id="a1.utility",
        source=f"{CH}:L264-274 (Thm 8); {CH}:L512-535 (proof)",
        claim=(
            "excess error ≤ ε except with probability ≤ δ_cert = 2|G|e^{-mε²/8} + |G|e^{-αmε/8} "
            "(exact per-sample failure probability, Hoeffding at 1e-6)"
        ),
        method=Method.STATISTICAL,
        impls=(_A1, "dpspec.cover_learners.learners.a1_certificate"),
        checks=("a1_utility",),
        tests=(f"{_TESTS}::test_utility_against_certificate",),
    ),
    Obligation(
        id="a1r.utility",
        source=f"{CH}:L278-290 (Thm 9); {CH}:L540-567 (proof, corrected)",
        claim="realizable: excess ≤ ε except w.p. ≤ |G|e^{-mε/400} + δ/4 + |G|e^{-3αmε/40}",
        method=Method.STATISTICAL,
        impls=(_A1, "dpspec.cover_learners.learners.a1r_certificate"),
        checks=("a1r_utility",),
        tests=(f"{_TESTS}::test_utility_against_certificate",),
    ),
    Obligation(
        id="a2.utility",
        source=f"{CH}:L804-812 (Thm 27)",
        claim="thresholds: excess ≤ ε except w.p. ≤ 4e^{-mε²/32} + |G|e^{-αmε/8}",
        method=Method.STATISTICAL,
        impls=(_A2, "dpspec.cover_learners.learners.a2_certificate"),
        checks=("a2_utility",),
        tests=(f"{_TESTS}::test_utility_against_certificate",),
    ),
    Obligation(
        id="lemma-11.exact-instance",
        source=f"{CH}:L358-365 (Lemma 11, corrected); {CH}:L670-690 (proof)",
        claim=(
            "m = 12, |P| = 66, s = 1/12, α = 0.3: the α-label private exponential mechanism "
            "misses every h ∈ P w.p. > 1/2; ERM does not"
        ),
        method=Method.EXACT,
        predicates=(f"{_SC}.lemma11_condition", f"{_SC}.lemma11_conclusion"),
        impls=(_EM,),
        checks=("lemma11",),
        tests=(f"{_TESTS}::test_lemma11",),
    ),
    Obligation(
        id="erratum.chaudhuri-hsu-lemma-11",
        source=f"{CH}:L365 (Lemma 11, as printed)",
        claim="Lemma 11's printed conclusion '≤ 1/2' fails on the exact instance; '> 1/2' holds",
        method=Method.EXACT,
        predicates=(f"{_SC}.lemma11_conclusion",),
        checks=("lemma11_printed",),
        tests=(f"{_TESTS}::test_lemma11",),
    ),
    Obligation(
        id="erratum.chaudhuri-hsu-thm-9-exponent",
        source=f"{CH}:L565 (proof of Thm 9)",
        claim=(
            "the final step needs |G|e^{-3αmε/40} (Lemma 18 with a_g = α m err/2), not the "
            "printed |G|e^{-3εm/20}: A1r's exact tail at α = 0.01 exceeds the printed bound"
        ),
        method=Method.EXACT,
        predicates=(f"{_SC}.exponential_tail_holds",),
        impls=(_A1,),
        checks=("thm9_exponent",),
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
        checks=("lemma18_part1",),
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
        checks=("thm5_counting",),
        tests=(f"{_TESTS}::test_errata",),
    ),
    Obligation(
        id="erratum.chaudhuri-hsu-garbles",
        source=f"{CH}:L55; {CH}:L524; {CH}:L551; {CH}:L676-682",
        claim=(
            "OCR/typesetting garbles with nothing to execute: L55 '1/ε^α' means 1/(εα); L524 "
            "'err(h) = err(h, S) − ε/4' means ≤ (both directions); L551 δ/4^{|G1|} means "
            "δ/(4|G1|); L676/L682 drop α (the factor is e^{-8αsm}, the bound "
            "log(|P|/2 − 1)/(8αs)) — the statement L361 keeps α and is what lemma-11 checks"
        ),
        method=Method.DOCUMENTED,
    ),
    Obligation(
        id="chaudhuri-hsu.label-lower-bound",
        source=f"{CH}:L346-352 (Thm 10); {CH}:L369-377 (Thm 12)",
        claim=(
            "label-privacy lower bounds with unspecified constants (existential): their "
            "executable core is Lemma 11 (lemma-11.exact-instance)"
        ),
        method=Method.DOCUMENTED,
    ),
)
