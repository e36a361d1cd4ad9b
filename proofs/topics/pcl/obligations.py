"""The registered guarantees of this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY

_PCL = "dpspec.learners.pcl.PrivateHistogramClassifier"

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="pcl.privacy",
        source=f"{BAYES_CONSISTENCY}:L193-206 (Alg 2, Thm 3.1)",
        claim=(
            "PCL's hypothesis (one noisy bit per cube, empty cubes included) is ε-DP for the "
            "caller's ε, exactly on tight instances, through the law fit draws"
        ),
        method=Method.EXACT,
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=(
            _PCL,
            "dpspec.learners.pcl.cube_index",
            "dpspec.learners.pcl._cube_keys",
            "dpspec.learners.pcl.cells_per_axis_for",
            "dpspec.learners._keyed_noise.keyed_values",
            "dpspec.learners._keyed_noise.block_generator",
        ),
        checks=("pcl_privacy",),
        tests=("tests/test_pcl.py::test_noise_law_is_cached_per_epsilon",),
        entry_points=(f"{_PCL}.fit", f"{_PCL}.predict"),
        privacy=True,
        bug_controls=(
            BugControl(
                "dpspec.learners.pcl._exact_noise",
                "discrete_laplace_for(Fraction(2), epsilon, None)",
                "discrete_laplace_for(Fraction(1), epsilon, None)",
                "noise calibrated to sensitivity 1 for margins of sensitivity 2 (one unit low)",
            ),
            BugControl(
                f"{_PCL}._noise_law",
                "eps = float(self.epsilon)",
                "eps = 1.25 * float(self.epsilon)",
                "fit and its law drawing noise for ε × 1.25",
            ),
            BugControl(
                f"{_PCL}._decide",
                "return np.asarray(margins + noise > 0)",
                "return np.asarray(margins + noise >= 0)",
                "h = 1[m_C + Z_C ≥ 0] in fit (a tie goes to 1; the law says > 0)",
            ),
        ),
    ),
    Obligation(
        id="pcl.fixed-function",
        source=f"{BAYES_CONSISTENCY}:L193-200 (Alg 2: one noise draw per cube, fixed)",
        claim="PCL's output is one function: same x → same answer; empty cubes carry noise",
        method=Method.STATISTICAL,
        impls=(
            _PCL,
            "dpspec.learners._keyed_noise.keyed_values",
            "dpspec.learners._keyed_noise.block_generator",
        ),
        checks=("pcl_fixed_function",),
        tests=("tests/test_pcl.py::test_predictions_are_one_function",),
        bug_controls=(
            BugControl(
                f"{_PCL}.decision_cells",
                "bits[~found] = self._bits(empty, np.zeros(empty.size, dtype=np.int64))[inverse]",
                "bits[~found] = False",
                "empty cubes predict 0 without noise (Alg 2 gives every cube noise)",
            ),
            BugControl(
                "dpspec.learners._keyed_noise.keyed_values",
                "out[mask] = values[cells[mask] % BLOCK]",
                "out[mask] = values[np.arange(stop - start) % BLOCK]",
                "a cube's noise indexed by its rank in the query, not by the cube",
            ),
        ),
    ),
    Obligation(
        id="pcl.score-is-predict",
        source=f"{BAYES_CONSISTENCY}:L193-200 (Alg 2: h(x) from the votes of C(x))",
        claim=(
            "the cube whose votes fit counts for a point is the cube whose bit predict reads "
            "there (half-open cubes, the last closed), on points on and next to cube edges"
        ),
        method=Method.PROPERTY,
        impls=(_PCL, "dpspec.learners.pcl._cube_keys"),
        checks=("pcl_score_is_predict",),
        tests=("tests/test_pcl.py::test_cube_keys_match_the_definition",),
        bug_controls=(
            BugControl(
                f"{_PCL}.predict",
                "return np.asarray(self.dense_classes_[_cube_keys(X, self.m_,",
                "return np.asarray(self.dense_classes_[_cube_keys(np.nextafter(X, 0), self.m_,",
                "predict (table path) reads the cube of the point below x: cubes (k/m, (k+1)/m]",
            ),
            BugControl(
                f"{_PCL}.decision_cells",
                'flat = _cube_keys(X, self.m_, name="X", clip=self.clip)',
                'flat = _cube_keys(np.nextafter(X, 0), self.m_, name="X", clip=self.clip)',
                "predict (lookup path) reads the cube of the point below x: cubes (k/m, (k+1)/m]",
            ),
        ),
    ),
    Obligation(
        id="pcl.label-encoding-public",
        source=f"{BAYES_CONSISTENCY}:L193-208 (Alg 2: binary labels y in {{0, 1}})",
        claim=(
            "the label encoding every cell classifier fits with does not depend on which labels "
            "the sample shows: labels in {0, 1} are always the classes (0, 1), so a neighbour "
            "that flips one label of an all-ones sample keeps classes_"
        ),
        method=Method.EXACT,
        predicates=("dpspec.learners.estimator.check_binary_labels",),
        impls=("dpspec.learners.estimator",),
        entry_points=(
            "dpspec.learners.pcl.PrivateHistogramClassifier.fit",
            "dpspec.learners.estimator.check_binary_labels",
        ),
        checks=("label_encoding_is_public",),
        bug_controls=(
            BugControl(
                "dpspec.learners.estimator._encoded_labels",
                "if classes[0] in (0, 1):",
                "if classes[0] == 0:",
                "a sample of ones encoded as classes (1, 1): predict releases 1 everywhere",
            ),
        ),
        tests=("tests/test_trust.py::test_a_subclass_of_a_dpspec_learner_is_audited_and_flagged",),
    ),
)
