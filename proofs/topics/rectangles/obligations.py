"""The registered guarantees of thesis ch. 5 (rectangles; see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import THESIS

_RM = "dpspec.rectangles.rand_margins"
_IP = "dpspec.rectangles.interior_point"
_CLF = "dpspec.rectangles.classifier.PrivateRectangleClassifier"
_TESTS = "tests/test_rectangles.py"

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="interior-point.exponential-median",
        source=f"{THESIS}:L1221 (Def 5.1.1); {THESIS}:L655 (exponential mechanism)",
        claim=(
            "the exponential median is ε-DP (add/remove and substitution) and fails w.p. ≤ β on "
            "every multiset of m ≥ IP_A = ⌈(4/ε) ln((X+1)/β)⌉ points"
        ),
        method=Method.EXACT,
        predicates=(
            "dpspec.spec.privacy.satisfies_pure_dp",
            "dpspec.spec.rectangles.is_interior_point",
        ),
        impls=(
            f"{_IP}.ExponentialMedian",
            f"{_IP}.median_scores",
            f"{_IP}.median_base",
            f"{_IP}.interior_point_sample_complexity",
            f"{_IP}.score_runs",
            f"{_IP}.check_beta",
        ),
        checks=("interior_point_exact",),
        tests=(f"{_TESTS}::test_exponential_median",),
        entry_points=(f"{_IP}.ExponentialMedian.sample",),
        privacy=True,
    ),
    Obligation(
        id="rand-margins.privacy",
        source=f"{THESIS}:L1320-1326 (Algorithm 4); {THESIS}:L1336 (Lemma 5.2.6)",
        claim=(
            "RandMargins' exact law on a tiny grid is within the basic accounting (dε₀, 0), the "
            "per-call level composed, Thm 5.2.4's (ε̃, δ̃), and e^{2dε₀} under substitution, with "
            "its exact (ε, δ) curve; the sampler fit runs follows it"
        ),
        method=Method.EXACT,
        predicates=(
            "dpspec.spec.privacy.satisfies_pure_dp",
            "dpspec.spec.privacy.satisfies_approx_dp",
        ),
        impls=(
            f"{_RM}.rand_margins",
            f"{_RM}.rand_margins_trace",
            f"{_RM}.release_law",
            f"{_RM}.size_law",
            f"{_RM}.noisy_sizes",
            f"{_RM}.clamp_size",
            f"{_RM}.margin_set",
            f"{_RM}.refined_points",
            f"{_RM}.RandMarginsParameters",
        ),
        checks=("rand_margins_privacy",),
        tests=(f"{_TESTS}::test_rand_margins_privacy",),
        entry_points=(f"{_RM}.rand_margins",),
        privacy=True,
    ),
    Obligation(
        id="rand-margins.no-domino",
        source=f"{THESIS}:L1346-1360 (proof of Lemma 5.2.6); {THESIS}:L1240-1286 (failed attempts)",
        claim=(
            "iterations with x' ∉ B'_i see the same D_i and S̄' = S̄ ∪ {x'} until x' is removed "
            "(no domino effect); failed attempt #1 violates it"
        ),
        method=Method.EXACT,
        impls=(f"{_RM}.margin_set", f"{_RM}.clamp_size"),
        checks=("no_domino",),
        tests=(f"{_TESTS}::test_no_domino",),
    ),
    Obligation(
        id="rand-margins.claim-5.3.1",
        source=f"{THESIS}:L1360-1364 (Claim 5.3.1)",
        claim="P(|I_in| > 35 ln(1/δ)) ≤ δ at d = 80 (Monte Carlo, Clopper–Pearson at 1e-6)",
        method=Method.STATISTICAL,
        impls=(f"{_RM}.rand_margins_trace",),
        checks=("claim_531",),
        tests=(f"{_TESTS}::test_claim_531",),
    ),
    Obligation(
        id="erratum.thesis-L1326-ties",
        source=f"{THESIS}:L1324-1326 (removal y[i] ≥ p_i)",
        claim=(
            "with all positives at (5, 9) the printed rule misses them w.p. ≈ 9/16 (exact); the "
            "tag refinement fixes it"
        ),
        predicates=("dpspec.spec.rectangles.in_rectangle",),
        method=Method.STATISTICAL,
        impls=(f"{_RM}.release_law", _CLF),
        checks=("tie_utility",),
        tests=(f"{_TESTS}::test_ties",),
    ),
    Obligation(
        id="rand-margins.utility",
        source=(
            f"{THESIS}:L1340 (Lemma 5.2.7); {THESIS}:L1328 (Thm 5.2.4); "
            f"{THESIS}:L1223-1232 (baseline)"
        ),
        claim=(
            "PAC: exact error ≤ α w.p. ≥ 1 − 4dβ at d = 3, n = 60,000 (Clopper–Pearson), next to "
            "the baseline and the non-private learner"
        ),
        method=Method.STATISTICAL,
        predicates=("dpspec.spec.rectangles.rectangle_error",),
        impls=(
            _CLF,
            f"{_RM}.interior_point_baseline",
            f"{_RM}.nonprivate_rectangle",
            "dpspec.rectangles.classifier.check_grid_points",
        ),
        checks=("pac_utility",),
        tests=(f"{_TESTS}::test_classifier",),
    ),
    Obligation(
        id="rectangles.privacy-report",
        source=f"{THESIS}:L1328-1336 (Thm 5.2.4, Lemma 5.2.6)",
        claim=(
            "privacy_ is the caller's (ε, δ) under add/remove; the per-call level follows the "
            "accounting"
        ),
        method=Method.PROPERTY,
        impls=(_CLF, "dpspec.rectangles.classifier.per_call_level"),
        checks=("privacy_report",),
        tests=(f"{_TESTS}::test_classifier",),
    ),
    Obligation(
        id="advanced-composition.exact-rr",
        source=f"{THESIS}:L645-647 (Thm 3.2.4)",
        claim=(
            "advanced composition holds against the exact k-fold composition of ε-randomized "
            "response (the worst case), and per_step_epsilon inverts it"
        ),
        method=Method.EXACT,
        predicates=(
            "dpspec.spec.composition.advanced_composition",
            "dpspec.spec.composition.advanced_composition_simple",
            "dpspec.spec.composition.per_step_epsilon",
            "dpspec.spec.composition.randomized_response_composition_delta",
        ),
        checks=("advanced_composition",),
        tests=(f"{_TESTS}::test_composition",),
    ),
    Obligation(
        id="erratum.thesis-L647-advanced-composition",
        source=f"{THESIS}:L645-647 (Thm 3.2.4, as printed)",
        claim="ε√(sk ln(1/δ')) + 2kε² with s = 1 is refuted by the exact composition; s = 2 holds",
        method=Method.EXACT,
        predicates=("dpspec.spec.composition.randomized_response_composition_delta",),
        checks=("advanced_composition_printed",),
        tests=(f"{_TESTS}::test_composition",),
    ),
    Obligation(
        id="erratum.thesis-L420-renyi",
        source=f"{THESIS}:L417-427 (Def 2.2.1, RDP conversion)",
        claim="the Rényi divergence needs 1/(α − 1): the printed 1/(1 − α) is negative for α > 1",
        method=Method.EXACT,
        predicates=("dpspec.spec.composition.renyi_divergence",),
        checks=("renyi_printed",),
        tests=(f"{_TESTS}::test_composition",),
    ),
    Obligation(
        id="erratum.thesis-lemma-5.3.2",
        source=f"{THESIS}:L1368-1372 (Lemma 5.3.2)",
        claim=(
            "(0.6, 0.4) vs (0.4, 0.6) are (0.1, 0.158)-indistinguishable yet have no good event"
        ),
        method=Method.EXACT,
        predicates=(
            "dpspec.spec.rectangles.good_event_exists",
            "dpspec.spec.privacy.satisfies_approx_dp",
        ),
        checks=("lemma_532",),
        tests=(f"{_TESTS}::test_errata",),
    ),
    Obligation(
        id="rectangles.proof-gaps",
        source=f"{THESIS}:L1350 (i*); {THESIS}:L1476-1478 (proof of Lemma 5.2.7)",
        claim=(
            "documented: i* is defined with '>' while removal uses '≥' (the case i = i*, "
            "x' ∉ B'_i is uncovered and harmless); the utility proof's union bounds need "
            "β' = β/(4d) per call"
        ),
        method=Method.DOCUMENTED,
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
            f"{_IP}.score_runs",
            f"{_IP}.RunIndex",
            "dpspec.noise.laws.CumulativeLevels",
            "dpspec.noise.tables.locate_lazily",
            "dpspec.noise.tables.LazyFloors",
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
