"""The registered guarantees of thesis ch. 7 (adaptive data analysis; see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import THESIS

_AD = "dpspec.spec.adaptive"
_GAME = "dpspec.adaptive.game"
_MEAS = "dpspec.adaptive.measures"
_TESTS = "tests/test_adaptive.py"

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="gibbs-dependence.properties",
        source=f"{THESIS}:L337-343 (Def 1.3.1)",
        claim="ψ(product) = 0, 0 ≤ ψ ≤ 1 and ‖μ − ⊗μ_i‖_TV ≤ nψ, exactly; non-product ⇒ ψ > 0",
        method=Method.EXACT,
        predicates=(
            f"{_AD}.gibbs_dependence",
            f"{_AD}.total_variation",
            f"{_AD}.product_of_marginals",
        ),
        checks=("gibbs_properties",),
        tests=(f"{_TESTS}::test_gibbs_dependence",),
    ),
    Obligation(
        id="markov-chain.lemma-7.3.3",
        source=f"{THESIS}:L2147-2169 (Def 7.3.1-7.3.2, Lemma 7.3.3)",
        claim="ψ(μ) ≤ R̄ = (R² − r²)/(R² + r²) for undirected Markov chains, exactly",
        method=Method.EXACT,
        predicates=(f"{_AD}.markov_chain", f"{_AD}.r_bar", f"{_AD}.gibbs_dependence"),
        checks=("lemma_733",),
        tests=(f"{_TESTS}::test_markov_chains",),
    ),
    Obligation(
        id="erratum.thesis-thm-7.3.6",
        source=f"{THESIS}:L2177-2183 (Def 7.3.5, Thm 7.3.6); {THESIS}:L2256 (proof)",
        claim=(
            "ψ(μ_{×t}) ≤ ψ(μ)^t is false (n = 4, g = 3 on the diagonal, t = 2: 1/8 > 169/1600); "
            "ψ(μ_{×t}) ≤ R̄^t holds"
        ),
        method=Method.EXACT,
        predicates=(f"{_AD}.skip", f"{_AD}.gibbs_dependence", f"{_AD}.r_bar"),
        checks=("thm_736",),
        tests=(f"{_TESTS}::test_markov_chains",),
    ),
    Obligation(
        id="erratum.thesis-L2159-r-bar",
        source=f"{THESIS}:L2159 (Def 7.3.2); {THESIS}:L2169",
        claim="R̄ printed as R²r²/(R² + r²) is not scale invariant and falls below ψ",
        method=Method.EXACT,
        predicates=(f"{_AD}.r_bar",),
        checks=("r_bar_printed",),
        tests=(f"{_TESTS}::test_markov_chains",),
    ),
    Obligation(
        id="tight-example.lemma-7.1.3",
        source=f"{THESIS}:L2021-2044 (μ_ψ, Lemma 7.1.3)",
        claim="ψ(μ_ψ) ≤ ψ on the finite tight example, exactly; the sampler follows the law",
        method=Method.EXACT,
        predicates=(f"{_AD}.gibbs_dependence",),
        impls=(f"{_MEAS}.tight_example", f"{_MEAS}.tight_example_law"),
        checks=("tight_example_check",),
        tests=(f"{_TESTS}::test_tight_example",),
    ),
    Obligation(
        id="erratum.thesis-lemma-7.1.5-chernoff",
        source=f"{THESIS}:L2056-2076 (Lemma 7.1.5; L2067 Chernoff step)",
        claim="P(Bin(n, ψ) < nψ/2) ≤ e^{−nψ/8}, not e^{−n/8} (n = 194, ψ = 0.2: 9.6e-5 > 2.9e-11)",
        method=Method.EXACT,
        checks=("lemma_715_chernoff",),
        tests=(f"{_TESTS}::test_errata",),
    ),
    Obligation(
        id="adaptive-game.rounding-compression",
        source=f"{THESIS}:L2082-2131 (Def 7.2.1, Lemma 7.2.6, Thm 7.2.7-7.2.8)",
        claim=(
            "the rounding mechanism is α-accurate and compresses transcripts to k log₂⌈1/(2α)⌉ "
            "bits; P(∃i |q_i(S) − q_i(μ)| > γ) ≤ δ|Q_A|, exactly on {0,1}^8"
        ),
        method=Method.EXACT,
        predicates=(f"{_AD}.markov_chain", f"{_AD}.marginal"),
        impls=(
            f"{_GAME}.RoundingAnswers",
            f"{_GAME}.ExactAnswers",
            f"{_GAME}.AggregationAttack",
            f"{_GAME}.play",
            f"{_GAME}.Transcript",
        ),
        checks=("rounding_compression",),
        tests=(f"{_TESTS}::test_game",),
    ),
    Obligation(
        id="adaptive-game.transfer",
        source=f"{THESIS}:L345 (Thm 1.3.2); {THESIS}:L1997 (Thm 7.1.2); {THESIS}:L2403-2407",
        claim=(
            "DP + empirical accuracy ⇒ statistical accuracy α + cε + 2ψ: the proof establishes "
            "3ε + ψ per step, not the constant 10 (≈ 15 re-derived); a meaningful statistical "
            "instance needs n ≈ 10^6; dpspec adaptive shows the game (not asserted)"
        ),
        method=Method.DOCUMENTED,
        impls=(
            f"{_GAME}.LaplaceAnswers",
            f"{_GAME}.SplitAnswers",
            f"{_GAME}.RandomAnalyst",
            f"{_GAME}.Mechanism",
            f"{_GAME}.Analyst",
            f"{_MEAS}.HomogeneousChain",
        ),
    ),
    Obligation(
        id="adaptive.existential",
        source=f"{THESIS}:L347-355 (Cor 1.3.4, Thm 1.3.5); {THESIS}:L2135 (Thm 7.2.9)",
        claim=(
            "Cor 1.3.4, 7.3.4, 7.3.7 (Õ bounds), Thm 7.2.9 (inefficient) and Thm 7.1.4's O(·): "
            "existential, documented only"
        ),
        method=Method.DOCUMENTED,
    ),
    Obligation(
        id="algorithm-10.privacy",
        source=f"{THESIS}:L2052-2058 (Algorithm 10, Lemma 7.1.5: (ε, δ)-DP)",
        claim=(
            "Algorithm 10 (stability histogram, then the released cell with the largest count) "
            "is (ε, δ)-DP under substitution for the caller's (ε, δ), exactly on all pairs of "
            "4 records over 3 cells (Fractions, q = 1/2; and the float default ε = 1); the "
            "threshold without the factor 1 + e^ε violates δ"
        ),
        method=Method.EXACT,
        privacy=True,
        predicates=("dpspec.spec.privacy.satisfies_approx_dp",),
        impls=(
            "dpspec.adaptive.deviating.DeviatingAlgorithm",
            "dpspec.adaptive.deviating.DeviatingAlgorithm.law",
        ),
        checks=("algorithm10_privacy",),
        tests=(f"{_TESTS}::test_deviating_algorithm",),
        entry_points=("dpspec.adaptive.deviating.DeviatingAlgorithm.sample",),
        binding="differential: algorithm-10.privacy (conformance of sample against law)",
    ),
    Obligation(
        id="algorithm-10.deviation",
        source=f"{THESIS}:L2052-2076 (Algorithm 10, Lemma 7.1.5 with exp(−nψ/8))",
        claim=(
            "on μ_ψ with n = ⌈(2/ψ)(1 + (2/ε) ln(1/(βδ)))⌉, h(S) − h(μ) ≥ ψ/2 with probability "
            "≥ 1 − β − e^{−nψ/8} (Clopper-Pearson at 1e-6); i.i.d. control does not deviate"
        ),
        method=Method.STATISTICAL,
        impls=(
            "dpspec.adaptive.deviating.minimum_sample_size",
            "dpspec.adaptive.deviating.DeviatingAlgorithm.run",
        ),
        checks=("algorithm10_deviation",),
        tests=(f"{_TESTS}::test_deviating_algorithm",),
    ),
    Obligation(
        id="lemma-7.1.1.exact",
        source=f"{THESIS}:L1952-1981 (Lemma 7.1.1)",
        claim=(
            "|E[h(μ) − h(S)]| ≤ e^ε − 1 + ψ(μ) for the exponential mechanism over all "
            "predicates of Ω = 3 values, n = 4 (its ε-DP decided too), on a product law and the "
            "tight example, in Fractions; the non-private argmax exceeds the bound"
        ),
        method=Method.EXACT,
        privacy=True,
        predicates=(f"{_AD}.gibbs_dependence", "dpspec.spec.privacy.satisfies_pure_dp"),
        impls=(
            "dpspec.adaptive.deviating.PredicateMechanism",
            "dpspec.adaptive.deviating.predicate_mechanism_gap",
        ),
        checks=("lemma_711",),
        tests=(f"{_TESTS}::test_predicate_mechanism",),
        entry_points=(
            "dpspec.adaptive.deviating.PredicateMechanism.law",
            "dpspec.adaptive.deviating.PredicateMechanism.gap",
        ),
    ),
)
