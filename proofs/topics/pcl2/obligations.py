"""The registered guarantees of this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY

_PCL2 = "dpspec.learners.pcl2.PrivatePackingClassifier"
_PCL2B = "dpspec.learners.pcl2.PrivateUnboundedClassifier"
_PCL = "dpspec.learners.pcl.PrivateHistogramClassifier"
_PACKING = "dpspec.learners.packing"

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="pcl2.privacy",
        source=f"{BAYES_CONSISTENCY}:L466-476 (Alg 4, Thm A.6)",
        claim=(
            "PCL2's hypothesis (one noisy bit per Voronoi cell of a public packing) is ε-DP for "
            "the caller's ε, exactly on tight instances, through the law fit draws"
        ),
        method=Method.EXACT,
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=(
            _PCL2,
            "dpspec.learners.pcl2.packing_radius",
            "dpspec.learners.pcl2.lattice_cells_per_axis",
        ),
        checks=("pcl2_privacy",),
        tests=("tests/test_pcl2.py::test_lattice_mode_is_pcl_with_4d",),
        entry_points=(f"{_PCL2}.fit", f"{_PCL2}.predict"),
        privacy=True,
        bug_controls=(
            BugControl(
                f"{_PCL2}._inner",
                "self.epsilon, self.idealised,",
                "1.25 * float(self.epsilon), self.idealised,",
                "PCL2's cell votes noised for ε × 1.25",
            ),
        ),
    ),
    Obligation(
        id="pcl2b.privacy",
        source=f"{BAYES_CONSISTENCY}:L554-564 (Alg 5); {BAYES_CONSISTENCY}:L568-570 (Thm A.14)",
        claim=(
            "PCL2b's release (two stability histograms over lattice cells) is (2ε, 2δ)-DP for "
            "the caller's per-histogram (ε, δ), exactly, through the law fit draws; tight in ε, "
            "and its δ pinned to the closed form of the threshold rule"
        ),
        method=Method.EXACT,
        predicates=(
            "dpspec.spec.privacy.satisfies_approx_dp",
            "dpspec.spec.privacy.hockey_stick",
        ),
        impls=(
            _PCL2B,
            "dpspec.learners.pcl2.release_histogram",
            "dpspec.learners.pcl2._cell_release_law",
            "dpspec.learners.pcl2.hypothesis_bits",
        ),
        checks=("pcl2b_privacy",),
        tests=("tests/test_pcl2.py::test_pcl2b_release_law_is_a_product",),
        entry_points=(f"{_PCL2B}.fit",),
        privacy=True,
        bug_controls=(
            BugControl(
                f"{_PCL2B}._histogram",
                "return release_histogram(self.epsilon, self.delta, self.idealised)",
                "return release_histogram(self.epsilon, 2 * self.delta, self.idealised)",
                "each histogram run at 2δ (the total 2δ given to each)",
            ),
            BugControl(
                f"{_PCL2B}._histogram",
                "return release_histogram(self.epsilon, self.delta, self.idealised)",
                "return release_histogram(1.25 * float(self.epsilon), self.delta, self.idealised)",
                "each histogram noised for ε × 1.25",
            ),
        ),
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
        impls=(f"{_PACKING}.CubicLattice",),
        checks=("packing:lattice_packing_facts",),
        tests=(
            "tests/test_pcl2.py::test_lattice_is_packing_and_cover",
            "tests/test_pcl2.py::test_lattice_voronoi_cells_are_cubes",
        ),
        bug_controls=(
            BugControl(
                f"{_PACKING}.CubicLattice.covering_radius",
                "return float(self.spacing) * math.sqrt(self.dim) / 2.0",
                "return float(self.spacing) * math.sqrt(self.dim) / 2.2",
                "the covering radius understated by 10% (s√d/2.2)",
            ),
            BugControl(
                f"{_PACKING}.CubicLattice.is_maximal",
                "return self.dim <= 3",
                "return self.dim <= 4",
                "maximal claimed up to d = 4 (one dimension too many)",
            ),
        ),
    ),
    Obligation(
        id="packing.greedy-maximal",
        source=(
            f"{BAYES_CONSISTENCY}:L435-439 (Def A.3, maximal packing); "
            f"{BAYES_CONSISTENCY}:L466-476 (Alg 4 step 3)"
        ),
        claim=(
            "greedy reduction of a public candidate set is an r-packing (distances ≥ r), "
            "maximal in that set (every candidate < r from a centre), ties at r included"
        ),
        method=Method.PROPERTY,
        impls=(
            f"{_PACKING}.greedy_maximal_packing",
            f"{_PACKING}.nearest_centre",
            f"{_PACKING}.pairwise_distances",
        ),
        checks=("packing:greedy_packing_facts",),
        tests=(
            "tests/test_pcl2.py::test_greedy_packing_is_maximal",
            "tests/test_pcl2.py::test_nearest_centre_blocks_and_ties",
        ),
        bug_controls=(
            BugControl(
                f"{_PACKING}._greedy",
                "remaining = rest[inner[i, rest] >= radius]",
                "remaining = rest[inner[i, rest] > radius]",
                "a candidate at distance exactly r from a kept one dropped (> for ≥)",
            ),
            BugControl(
                f"{_PACKING}._greedy",
                "alive = alive[dist >= radius]",
                "alive = alive[dist > radius]",
                "across chunks, a candidate at distance exactly r dropped (> for ≥)",
            ),
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
        impls=(f"{_PACKING}.CubicLattice", f"{_PACKING}.greedy_maximal_packing"),
        checks=("packing:lemma_a8_cell_diameter",),
        tests=("tests/test_pcl2.py::test_lemma_a8_last_line_counterexample",),
    ),
    Obligation(
        id="pcl2.fixed-function",
        source=f"{BAYES_CONSISTENCY}:L466-476 (Alg 4 step 6: one noise draw per cell, fixed)",
        claim="PCL2's output is one function: same x → same answer; empty cells carry noise",
        method=Method.STATISTICAL,
        impls=(_PCL2,),
        checks=("pcl2_fixed_function",),
        tests=("tests/test_pcl2.py::test_predictions_are_one_function",),
        bug_controls=(
            BugControl(
                f"{_PCL}.decision_cells",
                "bits[~found] = self._bits(empty, np.zeros(empty.size, dtype=np.int64))[inverse]",
                "bits[~found] = False",
                "empty cells predict 0 without noise (Alg 4 step 6 gives every cell noise)",
            ),
        ),
    ),
    Obligation(
        id="pcl2.score-is-predict",
        source=(
            f"{BAYES_CONSISTENCY}:L466-476 (Alg 4: h(x) from V(x)); {BAYES_CONSISTENCY}:L554-564 "
            "(Alg 5)"
        ),
        claim=(
            "the cell whose votes (counts) fit releases for a point is the cell predict reads "
            "there: lattice cubes, Voronoi ties to the lowest index, cubes of ℝ^d"
        ),
        method=Method.PROPERTY,
        impls=(_PCL2, _PCL2B),
        checks=("pcl2_score_is_predict",),
        tests=("tests/test_pcl2.py::test_packing_mode_cells_and_law",),
        bug_controls=(
            BugControl(
                f"{_PCL2B}.decision_cells",
                "query = _row_keys(self.lattice_.cell_coords(X))",
                "query = _row_keys(self.lattice_.cell_coords(np.nextafter(X, -np.inf)))",
                "PCL2b's predict reads cubes (k r, (k+1) r] while fit counts [k r, (k+1) r)",
            ),
            BugControl(
                f"{_PCL}.decision_cells",
                'flat = _cube_keys(X, self.m_, name="X", clip=self.clip)',
                'flat = _cube_keys(np.nextafter(X, 0), self.m_, name="X", clip=self.clip)',
                "PCL2's predict reads the lattice cube of the point below x",
            ),
        ),
    ),
)
