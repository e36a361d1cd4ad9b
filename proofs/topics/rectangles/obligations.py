"""The registered guarantees of thesis ch. 5 (rectangles; see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Kind, Method, Obligation
from dpspec.proofs.engine.seeds import THESIS

_RM = "dpspec.rectangles.rand_margins"
_IP = "dpspec.rectangles.interior_point"
_CLF = "dpspec.rectangles.classifier.PrivateRectangleClassifier"
_SPEC = "dpspec.spec.rectangles"
_TESTS = "tests/test_rectangles.py"

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="interior-point.exponential-median",
        source=f"{THESIS}:L1221 (Def 5.1.1); {THESIS}:L655 (exponential mechanism)",
        claim=(
            "the exponential median fails w.p. ≤ β on every multiset of m ≥ IP_A points and is "
            "ε-DP (add/remove, substitution) at a near-tight instance, exact and idealised; its "
            "pmf is the pseudocode's law and sample follows it"
        ),
        method=Method.EXACT,
        predicates=(
            "dpspec.spec.privacy.satisfies_pure_dp",
            f"{_SPEC}.is_interior_point",
            f"{_SPEC}.exponential_median_law",
            f"{_SPEC}.median_score",
        ),
        impls=(
            f"{_IP}.ExponentialMedian",
            f"{_IP}.GridValues",
            f"{_IP}.median_scores",
            f"{_IP}.median_base",
            f"{_IP}.interior_point_sample_complexity",
        ),
        checks=("interior_point_exact",),
        tests=(f"{_TESTS}::test_exponential_median",),
        entry_points=(f"{_IP}.ExponentialMedian.sample", f"{_IP}.ExponentialMedian.pmf"),
        privacy=True,
    ),
    Obligation(
        id="rand-margins.exact-law",
        source=f"{THESIS}:L1320-1326 (Algorithm 4)",
        claim=(
            "the exact law of fit's corner (release_law, given the tags and mixed over them) "
            "equals Algorithm 4's law written path by path from the pseudocode, exact and "
            "idealised, tags 1, 2 and 16"
        ),
        method=Method.EXACT,
        predicates=(
            f"{_SPEC}.rand_margins_law",
            f"{_SPEC}.discrete_laplace_size_law",
            f"{_SPEC}.laplace_size_law",
        ),
        impls=(
            f"{_RM}.RandMarginsParameters",
            f"{_RM}.PointArray",
            f"{_RM}.release_law",
            f"{_RM}.size_law",
            _CLF,
        ),
        checks=("exact_law",),
        tests=(f"{_TESTS}::test_release_law",),
        entry_points=(f"{_CLF}.release_law",),
    ),
    Obligation(
        id="rand-margins.privacy",
        source=f"{THESIS}:L1320-1326 (Algorithm 4); {THESIS}:L1336 (Lemma 5.2.6)",
        claim=(
            "fit's law is within the caller's e^ε under add/remove at a tight instance (d = 1, "
            "ε₀ = ε, worst ratio within 2% of e^ε), exact and idealised; privacy_ ≤ ε"
        ),
        method=Method.EXACT,
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=(_CLF, f"{_RM}.rand_margins", f"{_RM}.noisy_sizes", f"{_RM}.clamp_size"),
        checks=("rand_margins_privacy",),
        tests=(f"{_TESTS}::test_rand_margins_privacy",),
        entry_points=(f"{_CLF}.release_law", f"{_CLF}.fit"),
        privacy=True,
    ),
    Obligation(
        id="rand-margins.composition",
        source=f"{THESIS}:L1320-1326 (Algorithm 4); {THESIS}:L1336 (Lemma 5.2.6)",
        claim=(
            "over d = 2 axes fit's law is within the basic accounting e^ε (ε₀ = ε/d) under "
            "add/remove and e^{2ε} under substitution, with its exact δ(ε) curve"
        ),
        method=Method.EXACT,
        predicates=(
            "dpspec.spec.privacy.satisfies_pure_dp",
            "dpspec.spec.privacy.hockey_stick",
        ),
        impls=(_CLF, f"{_RM}.RandMarginsParameters"),
        checks=("rand_margins_composition",),
        tests=(f"{_TESTS}::test_rand_margins_privacy",),
        entry_points=(f"{_CLF}.release_law",),
        privacy=True,
        kind=Kind.DEMONSTRATION,
        reason=(
            "composition over d calls is not attained on a grid small enough to enumerate: the "
            "added record changes the margin on both axes only on outcomes of small "
            "probability (measured ln ratio ≈ 3.1 against dε₀ = 8); the single call is tight in "
            "rand-margins.privacy and the law is pinned by rand-margins.exact-law"
        ),
    ),
    Obligation(
        id="rand-margins.default-fit",
        source=f"{THESIS}:L1320-1326 (Algorithm 4); {THESIS}:L1324-1326 (ties)",
        claim=(
            "the default fit path (tags = 16) exactly: its law's worst ratio and δ(ε) against "
            "the caller's (ε, 0) on tiny grids, exact and idealised, and fit follows that law"
        ),
        method=Method.EXACT,
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=(_CLF, f"{_RM}.rand_margins", f"{_RM}.rand_margins_trace", f"{_RM}.refined_points"),
        checks=("default_fit",),
        tests=(f"{_TESTS}::test_rand_margins_privacy",),
        entry_points=(f"{_CLF}.fit", f"{_CLF}.release_law", f"{_RM}.rand_margins"),
        privacy=True,
    ),
    Obligation(
        id="rectangles.privacy-report",
        source=f"{THESIS}:L1320-1336 (Algorithm 4, Thm 5.2.4); {THESIS}:L1223-1232 (baseline)",
        claim=(
            "over a Hypothesis strategy of (ε, δ, d, X, β, T, idealised) with boundary values, "
            "every privacy-stating object (the learner, RandMarginsParameters, the baseline, the "
            "exponential median) reports at most and keeps the caller's (ε, δ) exactly"
        ),
        method=Method.PROPERTY,
        predicates=(
            "dpspec.spec.privacy.satisfies_pure_dp",
            "dpspec.spec.privacy.satisfies_approx_dp",
        ),
        impls=(
            _CLF,
            "dpspec.rectangles.classifier.per_call_level",
            "dpspec.rectangles.classifier.Accounting",
            f"{_RM}.RandMarginsParameters",
            f"{_RM}.interior_point_baseline",
            f"{_RM}.baseline_step",
            f"{_IP}.ExponentialMedian",
        ),
        checks=("parameters:privacy_parameters",),
        tests=(f"{_TESTS}::test_reproducers_of_issue_20",),
        entry_points=(
            f"{_CLF}.fit",
            f"{_CLF}.release_law",
            f"{_RM}.baseline_step",
            f"{_RM}.RandMarginsParameters.run_privacy",
            f"{_IP}.ExponentialMedian.pmf",
        ),
        privacy=True,
    ),
    Obligation(
        id="rand-margins.no-domino",
        source=f"{THESIS}:L1346-1372 (proof of Lemma 5.2.6); {THESIS}:L1240-1286 (failed attempts)",
        claim=(
            "the privacy loss of a path is the sum over I_in (x' ∈ B'_i) of per-call terms ≤ ε₀: "
            "outside I_in D'_i = D_i and S̄' = S̄ ∪ {x'} until x' leaves (no domino effect)"
        ),
        method=Method.EXACT,
        impls=(f"{_RM}.margin_set", f"{_RM}.clamp_size", f"{_IP}.ExponentialMedian"),
        checks=("structure:no_domino",),
        tests=(f"{_TESTS}::test_no_domino",),
    ),
    Obligation(
        id="rand-margins.claim-5.3.1",
        source=f"{THESIS}:L1360-1364 (Claim 5.3.1); {THESIS}:L1476 (sample size)",
        claim=(
            "P(|I_in| > 35 ln(1/δ)) ≤ δ at d = 80 with μ ≪ n = 6dΔ ln(1/β) (every B_i a proper "
            "subset), x' at the origin and the far corner (Clopper–Pearson at 1e-6)"
        ),
        method=Method.STATISTICAL,
        impls=(f"{_RM}.rand_margins_trace", f"{_RM}.RandMarginsParameters"),
        checks=("structure:claim_531",),
        tests=(f"{_TESTS}::test_claim_531",),
    ),
    Obligation(
        id="erratum.thesis-claim-5.3.1-small-samples",
        source=f"{THESIS}:L1360-1364 (Claim 5.3.1)",
        claim=(
            "without the lemma's sample size the claim fails: n = 50 < μ, x' at the origin sits "
            "in every D_i and survives, |I_in| > 35 ln(1/δ) in most runs"
        ),
        method=Method.STATISTICAL,
        impls=(f"{_RM}.rand_margins_trace",),
        checks=("structure:claim_531_small_samples",),
        tests=(f"{_TESTS}::test_claim_531",),
    ),
    Obligation(
        id="erratum.thesis-L1326-ties",
        source=f"{THESIS}:L1324-1326 (removal y[i] ≥ p_i)",
        claim=(
            "with all positives at (5, 9) the printed rule misses them w.p. ≈ 9/16 (exact); the "
            "tag refinement fixes it when n ≫ μ"
        ),
        predicates=(f"{_SPEC}.in_rectangle",),
        method=Method.STATISTICAL,
        impls=(_CLF, f"{_RM}.rand_margins"),
        checks=("utility:tie_utility",),
        tests=(f"{_TESTS}::test_ties",),
    ),
    Obligation(
        id="rand-margins.utility",
        source=(
            f"{THESIS}:L1340 (Lemma 5.2.7); {THESIS}:L1476-1478 (its proof); "
            f"{THESIS}:L1328 (Thm 5.2.4)"
        ),
        claim=(
            "Lemma 5.2.7's explicit chain: P(k_i > 6Δ ln(1/β)) ≤ β and P(#positives outside h_p "
            "> 6dΔ ln(1/β)) ≤ 2dβ, exactly from the law and on R fits of the default path"
        ),
        method=Method.EXACT,
        predicates=(f"{_SPEC}.discrete_laplace_size_law",),
        impls=(_CLF, f"{_RM}.RandMarginsParameters"),
        checks=("utility:pac_utility",),
        entry_points=(f"{_CLF}.fit", f"{_CLF}.predict", f"{_CLF}.release_law"),
        tests=(f"{_TESTS}::test_classifier",),
    ),
    Obligation(
        id="rand-margins.baseline-comparison",
        source=f"{THESIS}:L1223-1232 (baseline); {THESIS}:L1328 (Thm 5.2.4)",
        claim=(
            "asserted: at d = 3, n = 60,000 the baseline's exact error is below RandMargins', and "
            "by the closed forms its per-axis margin is smaller at every d ≤ 1024 (the crossover "
            "with the theorem's accounting is beyond 10^6 axes)"
        ),
        method=Method.STATISTICAL,
        predicates=(f"{_SPEC}.rectangle_error",),
        impls=(f"{_RM}.interior_point_baseline", f"{_RM}.nonprivate_rectangle", _CLF),
        checks=("utility:baseline_comparison",),
        tests=(f"{_TESTS}::test_classifier",),
        kind=Kind.DEMONSTRATION,
        reason=(
            "the gap is more than an order of magnitude (per-axis margins 15–90×), so no modest "
            "bug of either learner reverses the asserted order; it is a measured comparison"
        ),
    ),
    Obligation(
        id="rectangles.sample-complexity",
        source=f"{THESIS}:L259 (Thm 1.2.2); {THESIS}:L1332 (Remark 5.2.5); {THESIS}:L1476",
        claim=(
            "the implementation's sample size ⌈6dΔ ln(1/β)⌉ equals its closed form and grows as "
            "d² log|X| — Thm 1.2.2's Õ(d (log*|X|)^1.5) is not attained (measured exponents)"
        ),
        method=Method.EXACT,
        impls=(f"{_RM}.RandMarginsParameters",),
        checks=("utility:sample_complexity",),
        tests=(f"{_TESTS}::test_classifier",),
    ),
    Obligation(
        id="rectangles.predict-boundary",
        source=f"{THESIS}:L1199 (Def 5.0.1); {THESIS}:L1205-1213 (non-private learner)",
        claim=(
            "the scores the checks count (rectangle_error, in_rectangle, the non-private corner) "
            "are the rule predict applies, closed ends included, on every grid point"
        ),
        method=Method.PROPERTY,
        predicates=(f"{_SPEC}.in_rectangle", f"{_SPEC}.rectangle_error"),
        impls=(_CLF, f"{_RM}.nonprivate_rectangle"),
        checks=("utility:predict_boundary",),
        tests=(f"{_TESTS}::test_classifier",),
    ),
    Obligation(
        id="advanced-composition.exact-rr",
        source=f"{THESIS}:L645-647 (Thm 3.2.4)",
        claim=(
            "advanced composition holds against the exact k-fold composition of ε-randomized "
            "response (the worst case), within 1.4× of its exact ε', and per_step_epsilon "
            "inverts it"
        ),
        method=Method.EXACT,
        predicates=(
            "dpspec.spec.composition.advanced_composition",
            "dpspec.spec.composition.advanced_composition_simple",
            "dpspec.spec.composition.per_step_epsilon",
            "dpspec.spec.composition.randomized_response_composition_delta",
        ),
        checks=("background:advanced_composition",),
        tests=(f"{_TESTS}::test_composition",),
    ),
    Obligation(
        id="erratum.thesis-L647-advanced-composition",
        source=f"{THESIS}:L645-647 (Thm 3.2.4, as printed)",
        claim=(
            "garbled text, not a false statement: the 's' in ε√(sk ln(1/δ')) is a symbol lost "
            "in the extraction (and the hypotheses 0 < δ', ε ≤ 1 are printed twice); the "
            "formula must be ε√(2k ln(1/δ')) + 2kε² (ε ≤ 1), which advanced-composition.exact-rr "
            "checks"
        ),
        method=Method.DOCUMENTED,
        reason=(
            "nothing to execute: the printed formula has a symbol missing; the reconstructed "
            "one runs in advanced-composition.exact-rr"
        ),
    ),
    Obligation(
        id="erratum.thesis-L420-renyi",
        source=f"{THESIS}:L417-427 (Def 2.2.1, RDP conversion)",
        claim="the Rényi divergence needs 1/(α − 1): the printed 1/(1 − α) is negative for α > 1",
        method=Method.EXACT,
        predicates=("dpspec.spec.composition.renyi_divergence",),
        checks=("background:renyi_printed",),
        tests=(f"{_TESTS}::test_composition",),
    ),
    Obligation(
        id="erratum.thesis-lemma-5.3.2",
        source=f"{THESIS}:L1368-1372 (Lemma 5.3.2)",
        claim=(
            "(0.6, 0.4) vs (0.4, 0.6) are (0.1, 0.158)-indistinguishable yet have no good event"
        ),
        method=Method.EXACT,
        predicates=(f"{_SPEC}.good_event_exists", "dpspec.spec.privacy.satisfies_approx_dp"),
        checks=("background:lemma_532",),
        tests=(f"{_TESTS}::test_errata",),
    ),
    Obligation(
        id="rectangles.proof-gaps",
        source=(
            f"{THESIS}:L1350 (i*); {THESIS}:L1328-1336 (Thm 5.2.4, Lemma 5.2.6); "
            f"{THESIS}:L1476-1478 (proof of Lemma 5.2.7)"
        ),
        claim=(
            "documented: i* is defined with '>' while removal uses '≥' (the case i = i*, "
            "x' ∉ B'_i is uncovered and harmless); the utility proof's union bounds need 2dβ; "
            "the theorem's accounting (70ε₀ ln(1/δ₀)) is not offered by the learner: its proof "
            "rests on Lemma 5.3.2 (erratum.thesis-lemma-5.3.2) and on Claim 5.3.1, unproved in "
            "the thesis and false for small samples (erratum.thesis-claim-5.3.1-small-samples), "
            "and it would only be chosen beyond d ≈ 70 ln(d/δ) axes, where nothing can be "
            "enumerated"
        ),
        method=Method.DOCUMENTED,
        reason=(
            "proof steps with no finite instance: the uncovered case i = i* has no effect on "
            "any output, and the withdrawn accounting is chosen only for d ≳ 1400 axes"
        ),
    ),
    Obligation(
        id="interior-point.law-enumerated",
        source=f"{THESIS}:L1221 (Def 5.1.1); {THESIS}:L655 (exponential mechanism)",
        claim=(
            "ExponentialMedian.sample draws P(x) ∝ q^{top − score(x)} exactly on every dataset of "
            "≤ 3 points of {0..4}: its law derived from its code (truncated mass < 2^-64)"
        ),
        method=Method.EXACT,
        impls=(
            f"{_IP}.ExponentialMedian",
            "dpspec.noise._laws.CumulativeLevels",
            "dpspec.noise._tables.locate_lazily",
            "dpspec.noise._tables.LazyFloors",
        ),
        checks=("enumeration:interior_point_law",),
        entry_points=(f"{_IP}.ExponentialMedian.sample",),
    ),
    Obligation(
        id="rand-margins.size-noise-law-enumerated",
        source=f"{THESIS}:L1320-1326 (Algorithm 4: k_i = ⌈μ + Lap(2Δ)⌉, discrete here)",
        claim=(
            "noisy_sizes draws k = ⌈μ⌉ + Z with Z discrete Laplace of scale 2Δ exactly: its law "
            "derived from its code for Δ = 1 (and 2, 3 with --thorough)"
        ),
        method=Method.EXACT,
        impls=(f"{_RM}.noisy_sizes", f"{_RM}.RandMarginsParameters"),
        checks=("enumeration:size_noise_law",),
        entry_points=(f"{_RM}.noisy_sizes",),
    ),
)
