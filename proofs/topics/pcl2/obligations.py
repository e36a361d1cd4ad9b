"""The registered guarantees of this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="pcl2.privacy",
        source=f"{BAYES_CONSISTENCY}:L466-476 (Alg 4, Thm A.6)",
        claim="PCL2's hypothesis (one noisy bit per Voronoi cell of a public packing) is ε-DP",
        method=Method.EXACT,
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=(
            "dpspec.learners.pcl2.PrivatePackingClassifier",
            "dpspec.learners.pcl2.packing_radius",
            "dpspec.learners.pcl2.lattice_cells_per_axis",
        ),
        checks=(
            "pcl2_exact_privacy",
            "pcl2_fit_conformance",
        ),
        tests=("tests/test_pcl2.py::test_pcl2_exact_privacy_is_tight",),
        entry_points=(
            "dpspec.learners.pcl2.PrivatePackingClassifier.fit",
            "dpspec.learners.pcl2.PrivatePackingClassifier.predict",
        ),
        privacy=True,
    ),
    Obligation(
        id="pcl2b.privacy",
        source=f"{BAYES_CONSISTENCY}:L554-564 (Alg 5); {BAYES_CONSISTENCY}:L568-570 (Thm A.14)",
        claim="PCL2b's release (two stability histograms over lattice cells) is (2ε, 2δ)-DP",
        method=Method.EXACT,
        predicates=(
            "dpspec.spec.privacy.satisfies_approx_dp",
            "dpspec.spec.privacy.hockey_stick",
        ),
        impls=(
            "dpspec.learners.pcl2.PrivateUnboundedClassifier",
            "dpspec.learners.pcl2.release_histogram",
            "dpspec.learners.pcl2._cell_release_law",
            "dpspec.learners.pcl2.hypothesis_bits",
        ),
        checks=(
            "pcl2b_exact_privacy",
            "pcl2b_fit_conformance",
        ),
        tests=("tests/test_pcl2.py::test_pcl2b_exact_delta_below_claim",),
        entry_points=("dpspec.learners.pcl2.PrivateUnboundedClassifier.fit",),
        privacy=True,
    ),
    Obligation(
        id="packing.lattice",
        source=(
            f"{BAYES_CONSISTENCY}:L431-446 (Defs A.2-A.3, Thm A.4); {BAYES_CONSISTENCY}:L513 (Thm "
            "A.11)"
        ),
        claim=(
            "the cubic lattice of spacing s is an s-packing and an (s√d/2)-cover, maximal iff d ≤ "
            "3, and its Voronoi cells are its cubes"
        ),
        method=Method.PROPERTY,
        impls=("dpspec.learners.packing.CubicLattice",),
        checks=("lattice_packing_facts",),
        tests=(
            "tests/test_pcl2.py::test_lattice_is_packing_and_cover",
            "tests/test_pcl2.py::test_lattice_voronoi_cells_are_cubes",
        ),
    ),
    Obligation(
        id="packing.greedy-maximal",
        source=(
            f"{BAYES_CONSISTENCY}:L435-439 (Def A.3, maximal packing); "
            f"{BAYES_CONSISTENCY}:L466-476 (Alg 4 step 3)"
        ),
        claim="greedy reduction of a public candidate set is an r-packing, maximal in that set",
        method=Method.PROPERTY,
        impls=(
            "dpspec.learners.packing.greedy_maximal_packing",
            "dpspec.learners.packing.nearest_centre",
            "dpspec.learners.packing.pairwise_distances",
        ),
        checks=("greedy_packing_facts",),
        tests=(
            "tests/test_pcl2.py::test_greedy_packing_is_maximal",
            "tests/test_pcl2.py::test_nearest_centre_blocks_and_ties",
        ),
    ),
    Obligation(
        id="packing.cell-diameter",
        source=f"{BAYES_CONSISTENCY}:L462-476 (Lemma A.8 and its proof)",
        claim=(
            "Voronoi cells of a maximal r-packing have diameter ≤ 2r (the proof's last line '≤ r' "
            "is false: a d = 2 lattice counterexample)"
        ),
        method=Method.PROPERTY,
        impls=(
            "dpspec.learners.packing.CubicLattice",
            "dpspec.learners.packing.greedy_maximal_packing",
        ),
        checks=("lemma_a8_cell_diameter",),
        tests=("tests/test_pcl2.py::test_lemma_a8_last_line_counterexample",),
    ),
    Obligation(
        id="pcl2.fixed-function",
        source=f"{BAYES_CONSISTENCY}:L466-476 (Alg 4 step 6: one noise draw per cell, fixed)",
        claim="PCL2's output is one function: same x → same answer; empty cells carry noise",
        method=Method.STATISTICAL,
        impls=("dpspec.learners.pcl2.PrivatePackingClassifier",),
        checks=("pcl2_fixed_function",),
        tests=("tests/test_pcl2.py::test_predictions_are_one_function",),
    ),
)
