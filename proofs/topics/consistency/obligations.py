"""The registered guarantees of this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="plugin-rule.excess-risk-bound",
        source=f"{BAYES_CONSISTENCY}:L175 (Thm 2.7; proof App. B L600-620)",
        claim=("the plug-in rule 1[η̂ > ½] has err − L* ≤ 2·E|η − η̂| (exact, piecewise-constant η̂)"),
        method=Method.EXACT,
        predicates=("dpspec.spec.consistency.plugin_bound_holds",),
        impls=(
            "dpspec.consistency.TwoValuedProblem",
            "dpspec.consistency.Checkerboard",
            "dpspec.consistency.Circle",
            "dpspec.consistency.Threshold1D",
            "dpspec.consistency.interval_overlaps",
        ),
        checks=("plugin_bound_exact",),
        tests=("tests/test_consistency.py::test_plugin_bound",),
    ),
    Obligation(
        id="pcl.consistency",
        source=f"{BAYES_CONSISTENCY}:L208 (Thm 3.2), L163 (Def 2.5)",
        claim=(
            "PCL's excess risk falls along an n-grid (exact Jonckheere-Terpstra test over every "
            "(n, rep), alpha = 1e-3) and ends below 0.05 (a trend, not a rate)"
        ),
        method=Method.STATISTICAL,
        predicates=("dpspec.spec.consistency.consistency_trend",),
        impls=(
            "dpspec.learners.pcl.PrivateHistogramClassifier",
            "dpspec.learners.histogram.HistogramRuleClassifier",
        ),
        checks=("pcl_consistency_trend",),
        tests=("tests/test_consistency.py::test_cli_consistency_json_and_plot",),
    ),
    Obligation(
        id="pcl2.consistency",
        source=(
            f"{BAYES_CONSISTENCY}:L522 (Thm A.12, PCL2); {BAYES_CONSISTENCY}:L572-590 (Thm A.15, "
            f"PCL2b); {BAYES_CONSISTENCY}:L550 (Thm A.13: δ(n) = ω(2^(-n^(1/4))), here δ = n^(-2))"
        ),
        claim=(
            "PCL2's and PCL2b's excess risk fall from n = 10^3 to the largest n (exact rank test, "
            "alpha = 1e-3; PCL2b over every n) and end below 0.08 / 0.1 (trends, not rates)"
        ),
        method=Method.STATISTICAL,
        predicates=("dpspec.spec.consistency.consistency_trend",),
        impls=(
            "dpspec.learners.pcl2.PrivatePackingClassifier",
            "dpspec.learners.pcl2.PrivateUnboundedClassifier",
        ),
        checks=("pcl2_consistency_trend",),
        tests=("tests/test_consistency.py::test_cli_consistency_json_and_plot",),
    ),
    Obligation(
        id="distributions.exact-areas",
        source=f"{BAYES_CONSISTENCY}:L175 (Thm 2.7 needs exact E|η − η̂|)",
        claim="exact cube masses (checkerboard, disk, truncated Gaussian mixture) match sampling",
        method=Method.STATISTICAL,
        impls=(
            "dpspec.consistency.disk_lower_left_area",
            "dpspec.consistency.disk_rectangle_area",
            "dpspec.consistency.Circle",
            "dpspec.consistency.GaussianMixture",
        ),
        checks=("exact_areas_match_sampling",),
        tests=(
            "tests/test_consistency.py::test_disk_area_identities",
            "tests/test_consistency.py::test_gaussian_mixture_masses_and_bayes",
        ),
    ),
)
