"""The registered guarantees of this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="pcl.privacy",
        source=f"{BAYES_CONSISTENCY}:L193-206 (Alg 2, Thm 3.1)",
        claim="PCL's hypothesis (one noisy bit per cube, empty cubes included) is ε-DP",
        method=Method.EXACT,
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=(
            "dpspec.learners.pcl.PrivateHistogramClassifier",
            "dpspec.learners.pcl.cube_index",
            "dpspec.learners.pcl.cube_keys",
            "dpspec.learners.pcl.cells_per_axis_for",
            "dpspec.learners.keyed_noise.keyed_values",
            "dpspec.learners.keyed_noise.block_generator",
        ),
        checks=(
            "pcl_exact_privacy",
            "pcl_fit_conformance",
        ),
        tests=("tests/test_pcl.py::test_exact_privacy_is_tight",),
        entry_points=(
            "dpspec.learners.pcl.PrivateHistogramClassifier.fit",
            "dpspec.learners.pcl.PrivateHistogramClassifier.predict",
        ),
        privacy=True,
    ),
    Obligation(
        id="pcl.fixed-function",
        source=f"{BAYES_CONSISTENCY}:L193-200 (Alg 2: one noise draw per cube, fixed)",
        claim="PCL's output is one function: same x → same answer; empty cubes carry noise",
        method=Method.STATISTICAL,
        impls=(
            "dpspec.learners.pcl.PrivateHistogramClassifier",
            "dpspec.learners.keyed_noise.keyed_values",
            "dpspec.learners.keyed_noise.block_generator",
        ),
        checks=("pcl_fixed_function",),
        tests=("tests/test_pcl.py::test_predictions_are_one_function",),
    ),
)
