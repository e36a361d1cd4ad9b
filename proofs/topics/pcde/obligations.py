"""The registered guarantees of this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY

_PCDE = "dpspec.learners.pcde.PrivateHistogramDensity"
_SIDE = BugControl(
    "dpspec.learners.pcde._side_for",
    "return float(n ** (-1.0 / (2 * d)))",
    "return float(n ** (-1.0 / d))",
    "cubes of side n^(-1/d): n·r^d = 1, Thm 4.3's condition n·r^d → ∞ fails",
)

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="pcde.privacy",
        source=(
            f"{BAYES_CONSISTENCY}:L249-262 (Alg 3, Thm 4.2); {BAYES_CONSISTENCY}:L125-147 (Alg 1)"
        ),
        claim=(
            "PCDE's release (stability histogram of the cube counts) is (ε, δ)-DP for the "
            "caller's (ε, δ), exactly, through the law fit draws; tight in ε, δ pinned to the "
            "threshold rule's closed form"
        ),
        method=Method.EXACT,
        predicates=(
            "dpspec.spec.privacy.satisfies_approx_dp",
            "dpspec.spec.privacy.hockey_stick",
        ),
        impls=(_PCDE, "dpspec.learners.pcde._cube_ids", "dpspec.learners.pcde._occupied_cubes"),
        checks=("pcde_privacy",),
        tests=("tests/test_pcde.py::test_release_law_is_a_distribution",),
        entry_points=(f"{_PCDE}.fit",),
        privacy=True,
        bug_controls=(
            BugControl(
                f"{_PCDE}._histogram",
                "bins=None, epsilon=float(self.epsilon), delta=self.delta,",
                "bins=None, epsilon=1.25 * float(self.epsilon), delta=self.delta,",
                "the histogram noised for ε × 1.25",
            ),
            BugControl(
                f"{_PCDE}._histogram",
                "bins=None, epsilon=float(self.epsilon), delta=self.delta,",
                "bins=None, epsilon=float(self.epsilon), delta=2 * self.delta,",
                "the histogram run at 2δ",
            ),
        ),
    ),
    Obligation(
        id="pcde.idealised-histogram-privacy",
        source=f"{BAYES_CONSISTENCY}:L125-147 (Alg 1, Thm 2.4: continuous Laplace, ideal reals)",
        claim=(
            "the paper's histogram (Lap(2/ε), τ = (2/ε)ln(2/δ) + 1) that PCDE and PCL2b use with "
            "idealised=True is (ε, δ)-DP; its exact worst δ is δ/4"
        ),
        method=Method.EXACT,
        predicates=(
            "dpspec.proofs.topics.pcde.idealised.verify_idealised_histogram",
            "dpspec.proofs.topics.pcde.idealised.cell_hockey_stick",
            "dpspec.proofs.topics.pcde.idealised.pair_hockey_stick",
        ),
        impls=(
            "dpspec.mechanisms.stability_histogram.StabilityHistogram",
            _PCDE,
            "dpspec.learners.pcl2.release_histogram",
        ),
        checks=("idealised:idealised_privacy",),
        tests=("tests/test_pcde.py::test_idealised_hockey_stick_matches_quadrature",),
        entry_points=("dpspec.mechanisms.stability_histogram.StabilityHistogram.release_counts",),
        privacy=True,
        bug_controls=(
            BugControl(
                f"{_PCDE}._histogram",
                "bins=None, epsilon=float(self.epsilon), delta=self.delta,",
                "bins=None, epsilon=float(self.epsilon), delta=2 * self.delta,",
                "PCDE's idealised histogram run at 2δ",
            ),
        ),
    ),
    Obligation(
        id="pcde.density",
        source=f"{BAYES_CONSISTENCY}:L258 (Remark 4.1 and its footnote, L268)",
        claim="f̂ is a density: ≥ 0, integrates to 1, sample_points draws from it",
        method=Method.STATISTICAL,
        impls=(_PCDE, "dpspec.learners.pcde._match_rows"),
        checks=("pcde_is_density",),
        tests=("tests/test_pcde.py::test_sample_lands_in_released_cubes",),
        bug_controls=(
            BugControl(
                f"{_PCDE}._fit",
                "self.density_values_ = self.released_counts_ / (mass * side**d)",
                "self.density_values_ = self.released_counts_ / (mass * side)",
                "f̂ normalised by the side r instead of the cube volume r^d",
            ),
            BugControl(
                f"{_PCDE}.sample_points",
                "size=size, p=self.cube_probabilities())",
                "size=size)",
                "sample_points picks released cubes uniformly, not ∝ ĉ",
            ),
        ),
    ),
    Obligation(
        id="pcde.consistency-heavy-tailed",
        source=f"{BAYES_CONSISTENCY}:L264-319 (Thm 4.3: every density on R^d)",
        claim="E‖f − f̂‖₁ falls along an n-grid for Cauchy on ℝ and t₂ ⊗ t₂ on ℝ² (trend)",
        method=Method.STATISTICAL,
        predicates=("dpspec.spec.consistency.welch_greater_pvalue",),
        impls=(_PCDE, "dpspec.densities.ProductDensity", "dpspec.densities.SymmetricMarginal"),
        checks=("consistency:pcde_consistency_heavy_tailed",),
        tests=("tests/test_pcde.py::test_heavy_tailed_densities",),
        bug_controls=(_SIDE,),
    ),
    Obligation(
        id="densities.exact-l1",
        source=f"{BAYES_CONSISTENCY}:L264 (Thm 4.3's L1 distance, evaluated exactly for the tests)",
        claim=(
            "the L1 distance of a histogram to a product density is exact (d = 1) or quadrature "
            "with a stated error (d = 2), matching adaptive quadrature"
        ),
        method=Method.PROPERTY,
        impls=("dpspec.densities.ProductDensity", "dpspec.densities.SymmetricMarginal"),
        checks=("consistency:density_l1_formula",),
        tests=("tests/test_pcde.py::test_l1_closed_form_matches_quadrature",),
        bug_controls=(
            BugControl(
                "dpspec.densities.SymmetricMarginal._abs_gap",
                "- (cdf(b) - cdf(a)) + 2.0 * above)",
                "- (cdf(b) - cdf(a)) + 1.0 * above)",
                "the level-set term of ∫|g − t| counted once, not twice",
            ),
        ),
    ),
    Obligation(
        id="pcde.consistency",
        source=f"{BAYES_CONSISTENCY}:L264-319 (Thm 4.3 and proof, eqs. 3-7)",
        claim="E‖f − f̂‖₁ falls along an n-grid for N(0, 1) (trend; the theorem is a limit)",
        method=Method.STATISTICAL,
        impls=(_PCDE, "dpspec.learners.pcde.side_for"),
        checks=("consistency:pcde_consistency_trend",),
        tests=("tests/test_pcde.py::test_consistency_trend_small",),
        bug_controls=(_SIDE,),
    ),
    Obligation(
        id="pcde.grid-protocol",
        source=(
            f"{BAYES_CONSISTENCY}:L251-253 (Alg 3: r = n^(-1/(2d)), cubes of ℝ^d); sklearn protocol"
        ),
        claim=(
            "the grid is anchored at 0 with side n^(-1/(2d)); cube keys, lookups, counts and the "
            "estimator protocol are correct"
        ),
        method=Method.PROPERTY,
        impls=(
            "dpspec.learners.pcde.side_for",
            "dpspec.learners.pcde._check_points",
            "dpspec.learners.pcde._cube_ids",
            "dpspec.learners.pcde._row_keys",
            "dpspec.learners.pcde._occupied_cubes",
            "dpspec.learners.pcde._match_rows",
            "dpspec.learners.estimator.check_score_labels",
            _PCDE,
        ),
        checks=("pcde_grid_and_protocol",),
        tests=("tests/test_pcde.py::test_row_keys_fallback_agrees",),
        bug_controls=(
            BugControl(
                "dpspec.learners.pcde._cube_ids",
                "scaled = np.floor(X / side)",
                "scaled = np.trunc(X / side)",
                "cubes of negative coordinates truncated toward 0 (the grid not anchored at 0)",
            ),
            BugControl(
                "dpspec.learners.pcde._match_rows",
                "pos = np.minimum(np.searchsorted(tk[order], qk), k - 1)",
                "pos = np.minimum(np.searchsorted(tk[order], qk, side='right'), k - 1)",
                "a row looked up one place to the right",
            ),
        ),
    ),
    Obligation(
        id="pcde.score-is-pdf",
        source=f"{BAYES_CONSISTENCY}:L249-256 (Alg 3: f̂(x) = ĉ(C(x))/(n r^d))",
        claim=(
            "the cube whose count fit releases for a point is the cube pdf reads there "
            "(cubes [k r, (k+1) r) anchored at 0), on points on and next to cube faces"
        ),
        method=Method.PROPERTY,
        impls=(_PCDE, "dpspec.learners.pcde._cube_ids"),
        checks=("pcde_score_is_pdf",),
        tests=("tests/test_pcde.py::test_pdf_integrates_to_one",),
        bug_controls=(
            BugControl(
                f"{_PCDE}.pdf",
                "idx = _match_rows(self.released_cells_, _cube_ids(X, self.side_))",
                "idx = _match_rows(self.released_cells_, _cube_ids(np.nextafter(X, -np.inf), "
                "self.side_))",
                "pdf reads cubes (k r, (k+1) r] while fit counts [k r, (k+1) r)",
            ),
        ),
    ),
)
