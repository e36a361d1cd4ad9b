"""Registered obligations of PCDE (seed 000 Alg 3) and the private semi-supervised learner.

The lead appends :data:`PCDE_OBLIGATIONS` to the registry; the checks are in
``proofs/checks_pcde.py``, the proof note in ``proofs/notes/pcde.md``.
"""

from __future__ import annotations

from dpspec.proofs import checks_conformance as conformance
from dpspec.proofs import checks_fit_conformance as fit_conformance
from dpspec.proofs import checks_pcde, idealised
from dpspec.proofs.registry import Method, Obligation, all_of

S000 = "000_dff3c4dc97cf0e21.txt"
S002 = "002_9f3104e4a0d86722.txt"

_PCDE = "dpspec.learners.pcde"
_SSL = "dpspec.learners.semi_supervised"
_RUN = "tests/test_verifiers.py::test_registry_checks_pass"
NOTE = "notes/pcde.md"

PCDE_OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="000.alg3.thm4.2.pcde-privacy",
        source=f"{S000}:L249-262 (Alg 3, Thm 4.2); {S000}:L125-147 (Alg 1)",
        claim="PCDE's release (stability histogram of the cube counts) is (ε, δ)-DP",
        predicates=(
            "dpspec.spec.privacy.satisfies_approx_dp",
            "dpspec.spec.privacy.hockey_stick",
        ),
        impls=(
            f"{_PCDE}.PrivateHistogramDensity",
            f"{_PCDE}.cube_ids",
            f"{_PCDE}.occupied_cubes",
        ),
        method=Method.EXACT,
        tests=(
            f"{_RUN}[000.alg3.thm4.2.pcde-privacy]",
            "tests/test_pcde.py::test_exact_privacy_and_lowered_threshold",
        ),
        check=all_of(checks_pcde.pcde_exact_privacy, fit_conformance.pcde_fit_conformance),
        entry_points=(f"{_PCDE}.PrivateHistogramDensity.fit",),
        privacy=True,
        note=NOTE,
    ),
    Obligation(
        id="000.thm2.4.idealised-histogram",
        source=f"{S000}:L125-147 (Alg 1, Thm 2.4: continuous Laplace, ideal reals)",
        claim="the paper's histogram (Lap(2/ε), τ = (2/ε)ln(2/δ) + 1) that PCDE and PCL2b use "
        "with noise='laplace' is (ε, δ)-DP; its exact worst δ is δ/4",
        predicates=(
            "dpspec.proofs.idealised.verify_idealised_histogram",
            "dpspec.proofs.idealised.cell_hockey_stick",
            "dpspec.proofs.idealised.pair_hockey_stick",
        ),
        impls=(
            "dpspec.mechanisms.stability_histogram.StabilityHistogram",
            f"{_PCDE}.PrivateHistogramDensity",
            "dpspec.learners.pcl2.release_histogram",
        ),
        method=Method.EXACT,
        tests=(
            f"{_RUN}[000.thm2.4.idealised-histogram]",
            "tests/test_pcde.py::test_idealised_hockey_stick_matches_quadrature",
        ),
        check=all_of(
            idealised.idealised_histograms_private, conformance.idealised_histogram_conformance
        ),
        entry_points=(
            "dpspec.mechanisms.stability_histogram.StabilityHistogram.release_counts",
        ),
        privacy=True,
        note=NOTE,
    ),
    Obligation(
        id="000.rem4.1.pcde-density",
        source=f"{S000}:L258 (Remark 4.1 and its footnote, L268)",
        claim="f̂ is a density: ≥ 0, integrates to 1, sample() draws from it",
        predicates=(),
        impls=(f"{_PCDE}.PrivateHistogramDensity", f"{_PCDE}.match_rows"),
        method=Method.STATISTICAL,
        tests=(
            f"{_RUN}[000.rem4.1.pcde-density]",
            "tests/test_pcde.py::test_pdf_integrates_to_one",
            "tests/test_pcde.py::test_sample_lands_in_released_cubes",
        ),
        check=checks_pcde.pcde_is_density,
        note=NOTE,
    ),
    Obligation(
        id="000.thm4.3.pcde-consistency-heavy-tailed",
        source=f"{S000}:L264-319 (Thm 4.3: every density on R^d)",
        claim="E‖f − f̂‖₁ falls along an n-grid for Cauchy on ℝ and t₂ ⊗ t₂ on ℝ² (trend)",
        predicates=("dpspec.spec.consistency.welch_greater_pvalue",),
        impls=(
            f"{_PCDE}.PrivateHistogramDensity",
            "dpspec.densities.ProductDensity",
            "dpspec.densities.SymmetricMarginal",
        ),
        method=Method.STATISTICAL,
        tests=(
            f"{_RUN}[000.thm4.3.pcde-consistency-heavy-tailed]",
            "tests/test_pcde.py::test_heavy_tailed_densities",
        ),
        check=checks_pcde.pcde_consistency_heavy_tailed,
        note=NOTE,
    ),
    Obligation(
        id="impl.densities.exact-l1",
        source=f"{S000}:L264 (Thm 4.3's L1 distance, evaluated exactly for the tests)",
        claim="the L1 distance of a histogram to a product density is exact (d = 1) or "
        "quadrature with a stated error (d = 2), matching adaptive quadrature",
        predicates=(),
        impls=("dpspec.densities.ProductDensity", "dpspec.densities.SymmetricMarginal"),
        method=Method.PROPERTY,
        tests=(
            f"{_RUN}[impl.densities.exact-l1]",
            "tests/test_pcde.py::test_l1_closed_form_matches_quadrature",
            "tests/test_pcde.py::test_heavy_tailed_densities",
        ),
        check=checks_pcde.density_l1_formula,
        note=NOTE,
    ),
    Obligation(
        id="000.thm4.3.pcde-consistency",
        source=f"{S000}:L264-319 (Thm 4.3 and proof, eqs. 3-7)",
        claim="E‖f − f̂‖₁ falls along an n-grid for N(0, 1) (trend; the theorem is a limit)",
        predicates=(),
        impls=(f"{_PCDE}.PrivateHistogramDensity", f"{_PCDE}.side_for"),
        method=Method.STATISTICAL,
        tests=(
            f"{_RUN}[000.thm4.3.pcde-consistency]",
            "tests/test_pcde.py::test_l1_closed_form_matches_quadrature",
            "tests/test_pcde.py::test_consistency_trend_small",
        ),
        check=checks_pcde.pcde_consistency_trend,
        note=NOTE,
    ),
    Obligation(
        id="impl.pcde-grid-protocol",
        source=f"{S000}:L251-253 (Alg 3: r = n^(-1/(2d)), cubes of ℝ^d); sklearn protocol",
        claim="the grid is anchored at 0 with side n^(-1/(2d)); cube keys, lookups, counts "
        "and the estimator protocol are correct; bad input is rejected by name",
        predicates=(),
        impls=(
            f"{_PCDE}.side_for",
            f"{_PCDE}.check_points",
            f"{_PCDE}.cube_ids",
            f"{_PCDE}.row_keys",
            f"{_PCDE}.occupied_cubes",
            f"{_PCDE}.match_rows",
            f"{_PCDE}.PrivateHistogramDensity",
        ),
        method=Method.PROPERTY,
        tests=(
            f"{_RUN}[impl.pcde-grid-protocol]",
            "tests/test_pcde.py::test_bad_input_names_the_parameter",
            "tests/test_pcde.py::test_empty_release_is_an_error",
            "tests/test_pcde.py::test_params_round_trip_and_determinism",
            "tests/test_pcde.py::test_row_keys_fallback_agrees",
        ),
        check=checks_pcde.pcde_grid_and_protocol,
        note=NOTE,
    ),
    Obligation(
        id="000.sec4.1.dichotomies",
        source=f"{S000}:L349 (Thm 4.10: a semi-private learner over H restricted to Û)",
        claim="the candidates are exactly the dichotomies thresholds/intervals/rectangles "
        "induce on Û, and their mistake counts are right",
        predicates=(),
        impls=(f"{_SSL}.Dichotomies", f"{_SSL}.dichotomies"),
        method=Method.PROPERTY,
        tests=(
            f"{_RUN}[000.sec4.1.dichotomies]",
            "tests/test_semi_supervised.py::test_dichotomies_are_exact",
        ),
        check=checks_pcde.dichotomy_scores,
        note=NOTE,
    ),
    Obligation(
        id="000.thm4.11.label-privacy",
        source=f"{S000}:L349-371 (Thm 4.10, Thm 4.11 and proof); {S002}:L655 (exp. mechanism)",
        claim="for a fixed synthetic sample the selection is ε_label-DP in the labeled data",
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=(
            f"{_SSL}.PrivateSemiSupervisedClassifier",
            f"{_SSL}.exponential_choice",
            "dpspec.mechanisms.exponential.ExponentialMechanism",
        ),
        method=Method.EXACT,
        tests=(
            f"{_RUN}[000.thm4.11.label-privacy]",
            "tests/test_semi_supervised.py::test_label_privacy_exact",
            "tests/test_semi_supervised.py::test_exponential_choice_law",
        ),
        check=all_of(
            checks_pcde.semi_supervised_label_privacy,
            fit_conformance.semi_supervised_fit_conformance,
        ),
        entry_points=(f"{_SSL}.PrivateSemiSupervisedClassifier.fit",),
        privacy=True,
        note=NOTE,
    ),
    Obligation(
        id="000.thm4.11.semi-supervised-accuracy",
        source=f"{S000}:L355-371 (Thm 4.11 and proof)",
        claim="realizable thresholds: err ≤ 0.05 w.p. ≥ 0.9 at 10^5 unlabeled, 300 labeled",
        predicates=(),
        impls=(f"{_SSL}.PrivateSemiSupervisedClassifier",),
        method=Method.STATISTICAL,
        tests=(
            f"{_RUN}[000.thm4.11.semi-supervised-accuracy]",
            "tests/test_semi_supervised.py::test_learns_a_threshold",
            "tests/test_semi_supervised.py::test_learns_intervals_and_rectangles",
        ),
        check=checks_pcde.semi_supervised_accuracy,
        note=NOTE,
    ),
    Obligation(
        id="000.thm4.10.unlabeled-sample-size",
        source=f"{S000}:L349 (Thm 4.10, as printed); {S002}:L1683 (Thm 6.2.10)",
        claim="semi-private learning needs O((VC/α) log(1/(αβ))) unlabeled examples; seed 000 "
        "prints O((VC/(εα)) log(1/(αβ))) — a misstatement (ε does not belong there)",
        predicates=(),
        impls=(),
        method=Method.DOCUMENTED,
        tests=(),
        note=NOTE,
    ),
)
