"""Registered obligations of PCL2 / PCL2b and their public packings (seed 000 App. A)."""

from __future__ import annotations

from dpspec.proofs import checks_fit_conformance as fit_conformance
from dpspec.proofs import checks_pcl2
from dpspec.proofs.registry import Method, Obligation, all_of

S000 = "000_dff3c4dc97cf0e21.txt"

_PCL2 = "dpspec.learners.pcl2"
_PACK = "dpspec.learners.packing"
_RUN = "tests/test_verifiers.py::test_registry_checks_pass"
_NOTE = "notes/pcl2.md"

PCL2_OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="000.alg4.thmA.6.pcl2-privacy",
        source=f"{S000}:L466-476 (Alg 4, Thm A.6)",
        claim="PCL2's hypothesis (one noisy bit per Voronoi cell of a public packing) is ε-DP",
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=(
            f"{_PCL2}.PrivatePackingClassifier",
            f"{_PCL2}.packing_radius",
            f"{_PCL2}.lattice_cells_per_axis",
        ),
        method=Method.EXACT,
        tests=(
            f"{_RUN}[000.alg4.thmA.6.pcl2-privacy]",
            "tests/test_pcl2.py::test_pcl2_exact_privacy_is_tight",
        ),
        check=all_of(checks_pcl2.pcl2_exact_privacy, fit_conformance.pcl2_fit_conformance),
        entry_points=(
            f"{_PCL2}.PrivatePackingClassifier.fit",
            f"{_PCL2}.PrivatePackingClassifier.predict",
        ),
        privacy=True,
        note=_NOTE,
    ),
    Obligation(
        id="000.alg5.thmA.14.pcl2b-privacy",
        source=f"{S000}:L554-564 (Alg 5); {S000}:L568-570 (Thm A.14)",
        claim="PCL2b's release (two stability histograms over lattice cells) is (2ε, 2δ)-DP",
        predicates=("dpspec.spec.privacy.satisfies_approx_dp", "dpspec.spec.privacy.hockey_stick"),
        impls=(
            f"{_PCL2}.PrivateUnboundedClassifier",
            f"{_PCL2}.release_histogram",
            f"{_PCL2}.cell_release_law",
            f"{_PCL2}.hypothesis_bits",
        ),
        method=Method.EXACT,
        tests=(
            f"{_RUN}[000.alg5.thmA.14.pcl2b-privacy]",
            "tests/test_pcl2.py::test_pcl2b_exact_delta_below_claim",
        ),
        check=all_of(checks_pcl2.pcl2b_exact_privacy, fit_conformance.pcl2b_fit_conformance),
        entry_points=(f"{_PCL2}.PrivateUnboundedClassifier.fit",),
        privacy=True,
        note=_NOTE,
    ),
    Obligation(
        id="000.defA.3.lattice-packing",
        source=f"{S000}:L431-446 (Defs A.2-A.3, Thm A.4); {S000}:L513 (Thm A.11)",
        claim="the cubic lattice of spacing s is an s-packing and an (s√d/2)-cover, maximal iff "
        "d ≤ 3, and its Voronoi cells are its cubes",
        predicates=(),
        impls=(f"{_PACK}.CubicLattice",),
        method=Method.PROPERTY,
        tests=(
            f"{_RUN}[000.defA.3.lattice-packing]",
            "tests/test_pcl2.py::test_lattice_is_packing_and_cover",
            "tests/test_pcl2.py::test_lattice_voronoi_cells_are_cubes",
        ),
        check=checks_pcl2.lattice_packing_facts,
        note=_NOTE,
    ),
    Obligation(
        id="000.defA.3.greedy-maximal-packing",
        source=f"{S000}:L435-439 (Def A.3, maximal packing); {S000}:L466-476 (Alg 4 step 3)",
        claim="greedy reduction of a public candidate set is an r-packing, maximal in that set",
        predicates=(),
        impls=(
            f"{_PACK}.greedy_maximal_packing",
            f"{_PACK}.nearest_centre",
            f"{_PACK}.pairwise_distances",
        ),
        method=Method.PROPERTY,
        tests=(
            f"{_RUN}[000.defA.3.greedy-maximal-packing]",
            "tests/test_pcl2.py::test_greedy_packing_is_maximal",
            "tests/test_pcl2.py::test_nearest_centre_blocks_and_ties",
        ),
        check=checks_pcl2.greedy_packing_facts,
        note=_NOTE,
    ),
    Obligation(
        id="000.lemA.8.cell-diameter",
        source=f"{S000}:L462-476 (Lemma A.8 and its proof)",
        claim="Voronoi cells of a maximal r-packing have diameter ≤ 2r (the proof's last line "
        "'≤ r' is false: a d = 2 lattice counterexample)",
        predicates=(),
        impls=(f"{_PACK}.CubicLattice", f"{_PACK}.greedy_maximal_packing"),
        method=Method.PROPERTY,
        tests=(
            f"{_RUN}[000.lemA.8.cell-diameter]",
            "tests/test_pcl2.py::test_lemma_a8_last_line_counterexample",
        ),
        check=checks_pcl2.lemma_a8_cell_diameter,
        note=_NOTE,
    ),
    Obligation(
        id="000.alg4.pcl2-fixed-function",
        source=f"{S000}:L466-476 (Alg 4 step 6: one noise draw per cell, fixed)",
        claim="PCL2's output is one function: same x → same answer; empty cells carry noise",
        predicates=(),
        impls=(f"{_PCL2}.PrivatePackingClassifier",),
        method=Method.STATISTICAL,
        tests=(
            f"{_RUN}[000.alg4.pcl2-fixed-function]",
            "tests/test_pcl2.py::test_predictions_are_one_function",
        ),
        check=checks_pcl2.pcl2_fixed_function,
        note=_NOTE,
    ),
)
