"""Registered obligations of the private learners of seed 000 (issue: PCL, PCDE, PCL2, …)."""

from __future__ import annotations

from dpspec.proofs import checks_fit_conformance as fit_conformance
from dpspec.proofs import checks_learners
from dpspec.proofs.registry import Method, Obligation, all_of

S000 = "000_dff3c4dc97cf0e21.txt"

_PCL = "dpspec.learners.pcl"

LEARNER_OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="000.alg2.thm3.1.pcl-privacy",
        source=f"{S000}:L193-206 (Alg 2, Thm 3.1)",
        claim="PCL's hypothesis (one noisy bit per cube, empty cubes included) is ε-DP",
        predicates=("dpspec.spec.privacy.satisfies_pure_dp",),
        impls=(
            f"{_PCL}.PrivateHistogramClassifier",
            f"{_PCL}.cube_index",
            f"{_PCL}.cells_per_axis_for",
            "dpspec.learners.keyed_noise.keyed_values",
            "dpspec.learners.keyed_noise.block_generator",
        ),
        method=Method.EXACT,
        tests=(
            "tests/test_verifiers.py::test_registry_checks_pass[000.alg2.thm3.1.pcl-privacy]",
            "tests/test_pcl.py::test_exact_privacy_is_tight",
        ),
        check=all_of(checks_learners.pcl_exact_privacy, fit_conformance.pcl_fit_conformance),
        entry_points=(
            f"{_PCL}.PrivateHistogramClassifier.fit",
            f"{_PCL}.PrivateHistogramClassifier.predict",
        ),
        privacy=True,
        note="notes/learners.md",
    ),
    Obligation(
        id="000.alg2.pcl-fixed-function",
        source=f"{S000}:L193-200 (Alg 2: one noise draw per cube, fixed)",
        claim="PCL's output is one function: same x → same answer; empty cubes carry noise",
        predicates=(),
        impls=(
            f"{_PCL}.PrivateHistogramClassifier",
            "dpspec.learners.keyed_noise.keyed_values",
            "dpspec.learners.keyed_noise.block_generator",
        ),
        method=Method.STATISTICAL,
        tests=(
            "tests/test_verifiers.py::test_registry_checks_pass[000.alg2.pcl-fixed-function]",
            "tests/test_pcl.py::test_predictions_are_one_function",
        ),
        check=checks_learners.pcl_fixed_function,
        note="notes/learners.md",
    ),
    Obligation(
        id="impl.estimator-protocol",
        source="scikit-learn estimator protocol (fit/predict/score/get_params/set_params)",
        claim="the learners follow sklearn's public estimator conventions",
        predicates=(),
        impls=(
            "dpspec.learners.estimator.EstimatorProtocol",
            "dpspec.learners.estimator.NotFittedError",
            "dpspec.learners.estimator.DataConversionWarning",
            "dpspec.learners.estimator.BinaryCellClassifier",
            "dpspec.learners.estimator.model_key",
            "dpspec.learners.estimator.check_binary_labels",
            "dpspec.learners.estimator.check_unit_cube",
        ),
        method=Method.PROPERTY,
        tests=(
            "tests/test_sklearn_conformance.py::test_sklearn_check_estimator",
            "tests/test_sklearn_conformance.py::test_clip_is_a_per_record_map",
            "tests/test_sklearn_conformance.py::test_errors_are_sklearn_errors",
        ),
        check=checks_learners.estimator_protocol,
        note="notes/learners.md",
    ),
)
