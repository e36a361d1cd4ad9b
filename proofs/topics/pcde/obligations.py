"""The registered guarantees of this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="pcde.privacy",
        source=(
            f"{BAYES_CONSISTENCY}:L249-262 (Alg 3, Thm 4.2); {BAYES_CONSISTENCY}:L125-147 (Alg 1)"
        ),
        claim="PCDE's release (stability histogram of the cube counts) is (ε, δ)-DP",
        method=Method.EXACT,
        predicates=(
            "dpspec.spec.privacy.satisfies_approx_dp",
            "dpspec.spec.privacy.hockey_stick",
        ),
        impls=(
            "dpspec.learners.pcde.PrivateHistogramDensity",
            "dpspec.learners.pcde._cube_ids",
            "dpspec.learners.pcde._occupied_cubes",
        ),
        checks=(
            "pcde_exact_privacy",
            "pcde_fit_conformance",
        ),
        tests=("tests/test_pcde.py::test_exact_privacy_and_lowered_threshold",),
        entry_points=("dpspec.learners.pcde.PrivateHistogramDensity.fit",),
        privacy=True,
    ),
    Obligation(
        id="pcde.idealised-histogram-privacy",
        source=f"{BAYES_CONSISTENCY}:L125-147 (Alg 1, Thm 2.4: continuous Laplace, ideal reals)",
        claim=(
            "the paper's histogram (Lap(2/ε), τ = (2/ε)ln(2/δ) + 1) that PCDE and PCL2b use with "
            "noise='laplace' is (ε, δ)-DP; its exact worst δ is δ/4"
        ),
        method=Method.EXACT,
        predicates=(
            "dpspec.proofs.topics.pcde.idealised.verify_idealised_histogram",
            "dpspec.proofs.topics.pcde.idealised.cell_hockey_stick",
            "dpspec.proofs.topics.pcde.idealised.pair_hockey_stick",
        ),
        impls=(
            "dpspec.mechanisms.stability_histogram.StabilityHistogram",
            "dpspec.learners.pcde.PrivateHistogramDensity",
            "dpspec.learners.pcl2.release_histogram",
        ),
        checks=(
            "idealised:idealised_histograms_private",
            "idealised_histogram_conformance",
        ),
        tests=("tests/test_pcde.py::test_idealised_hockey_stick_matches_quadrature",),
        entry_points=("dpspec.mechanisms.stability_histogram.StabilityHistogram.release_counts",),
        privacy=True,
    ),
    Obligation(
        id="pcde.density",
        source=f"{BAYES_CONSISTENCY}:L258 (Remark 4.1 and its footnote, L268)",
        claim="f̂ is a density: ≥ 0, integrates to 1, sample() draws from it",
        method=Method.STATISTICAL,
        impls=(
            "dpspec.learners.pcde.PrivateHistogramDensity",
            "dpspec.learners.pcde._match_rows",
        ),
        checks=("pcde_is_density",),
        tests=(
            "tests/test_pcde.py::test_pdf_integrates_to_one",
            "tests/test_pcde.py::test_sample_lands_in_released_cubes",
        ),
    ),
    Obligation(
        id="pcde.consistency-heavy-tailed",
        source=f"{BAYES_CONSISTENCY}:L264-319 (Thm 4.3: every density on R^d)",
        claim="E‖f − f̂‖₁ falls along an n-grid for Cauchy on ℝ and t₂ ⊗ t₂ on ℝ² (trend)",
        method=Method.STATISTICAL,
        predicates=("dpspec.spec.consistency.welch_greater_pvalue",),
        impls=(
            "dpspec.learners.pcde.PrivateHistogramDensity",
            "dpspec.densities.ProductDensity",
            "dpspec.densities.SymmetricMarginal",
        ),
        checks=("pcde_consistency_heavy_tailed",),
        tests=("tests/test_pcde.py::test_heavy_tailed_densities",),
    ),
    Obligation(
        id="densities.exact-l1",
        source=f"{BAYES_CONSISTENCY}:L264 (Thm 4.3's L1 distance, evaluated exactly for the tests)",
        claim=(
            "the L1 distance of a histogram to a product density is exact (d = 1) or quadrature "
            "with a stated error (d = 2), matching adaptive quadrature"
        ),
        method=Method.PROPERTY,
        impls=(
            "dpspec.densities.ProductDensity",
            "dpspec.densities.SymmetricMarginal",
        ),
        checks=("density_l1_formula",),
        tests=(
            "tests/test_pcde.py::test_l1_closed_form_matches_quadrature",
            "tests/test_pcde.py::test_heavy_tailed_densities",
        ),
    ),
    Obligation(
        id="pcde.consistency",
        source=f"{BAYES_CONSISTENCY}:L264-319 (Thm 4.3 and proof, eqs. 3-7)",
        claim="E‖f − f̂‖₁ falls along an n-grid for N(0, 1) (trend; the theorem is a limit)",
        method=Method.STATISTICAL,
        impls=(
            "dpspec.learners.pcde.PrivateHistogramDensity",
            "dpspec.learners.pcde.side_for",
        ),
        checks=("pcde_consistency_trend",),
        tests=(
            "tests/test_pcde.py::test_l1_closed_form_matches_quadrature",
            "tests/test_pcde.py::test_consistency_trend_small",
        ),
    ),
    Obligation(
        id="pcde.grid-protocol",
        source=(
            f"{BAYES_CONSISTENCY}:L251-253 (Alg 3: r = n^(-1/(2d)), cubes of ℝ^d); sklearn protocol"
        ),
        claim=(
            "the grid is anchored at 0 with side n^(-1/(2d)); cube keys, lookups, counts and the "
            "estimator protocol are correct; bad input is rejected by name"
        ),
        method=Method.PROPERTY,
        impls=(
            "dpspec.learners.pcde.side_for",
            "dpspec.learners.pcde._check_points",
            "dpspec.learners.pcde._cube_ids",
            "dpspec.learners.pcde._row_keys",
            "dpspec.learners.pcde._occupied_cubes",
            "dpspec.learners.pcde._match_rows",
            "dpspec.learners.pcde.PrivateHistogramDensity",
        ),
        checks=("pcde_grid_and_protocol",),
        tests=(
            "tests/test_pcde.py::test_bad_input_names_the_parameter",
            "tests/test_pcde.py::test_empty_release_is_an_error",
            "tests/test_pcde.py::test_params_round_trip_and_determinism",
            "tests/test_pcde.py::test_row_keys_fallback_agrees",
        ),
    ),
)
