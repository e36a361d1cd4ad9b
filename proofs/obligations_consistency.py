"""Registered obligations for the consistency side of seed 000 (Thm 2.7, Thm 3.2 trend)."""

from __future__ import annotations

from dpspec.proofs import checks_consistency
from dpspec.proofs.registry import Method, Obligation

S000 = "000_dff3c4dc97cf0e21.txt"
_RUN = "tests/test_verifiers.py::test_registry_checks_pass"
_D = "dpspec.distributions"

CONSISTENCY_OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="000.thm2.7.plugin-bound",
        source=f"{S000}:L175 (Thm 2.7; proof App. B L600-620)",
        claim="the plug-in rule 1[η̂ > ½] has err − L* ≤ 2·E|η − η̂| (exact, piecewise-constant η̂)",
        predicates=("dpspec.spec.consistency.plugin_bound_holds",),
        impls=(
            f"{_D}.TwoValuedProblem",
            f"{_D}.Checkerboard",
            f"{_D}.Circle",
            f"{_D}.Threshold1D",
            f"{_D}.interval_overlaps",
        ),
        method=Method.EXACT,
        tests=(f"{_RUN}[000.thm2.7.plugin-bound]", "tests/test_consistency.py::test_plugin_bound"),
        check=checks_consistency.plugin_bound_exact,
        note="notes/consistency.md",
    ),
    Obligation(
        id="000.thm3.2.pcl-consistency",
        source=f"{S000}:L208 (Thm 3.2), L163 (Def 2.5)",
        claim="PCL's excess risk falls along an n-grid (exact Jonckheere-Terpstra test over "
        "every (n, rep), alpha = 1e-3) and ends below 0.05 (a trend, not a rate)",
        predicates=("dpspec.spec.consistency.consistency_trend",),
        impls=(
            "dpspec.learners.pcl.PrivateHistogramClassifier",
            "dpspec.learners.histogram.HistogramRuleClassifier",
        ),
        method=Method.STATISTICAL,
        tests=(
            f"{_RUN}[000.thm3.2.pcl-consistency]",
            "tests/test_consistency.py::test_cli_consistency_json_and_plot",
        ),
        check=checks_consistency.pcl_consistency_trend,
        note="notes/consistency.md",
    ),
    Obligation(
        id="000.thmA.12.A.15.pcl2-consistency",
        source=f"{S000}:L522 (Thm A.12, PCL2); {S000}:L572-590 (Thm A.15, PCL2b); "
        f"{S000}:L550 (Thm A.13: δ(n) = ω(2^(-n^(1/4))), here δ = n^(-2))",
        claim="PCL2's and PCL2b's excess risk fall from n = 10^3 to the largest n (exact "
        "rank test, alpha = 1e-3; PCL2b over every n) and end below 0.08 / 0.1 (trends, not "
        "rates)",
        predicates=("dpspec.spec.consistency.consistency_trend",),
        impls=(
            "dpspec.learners.pcl2.PrivatePackingClassifier",
            "dpspec.learners.pcl2.PrivateUnboundedClassifier",
        ),
        method=Method.STATISTICAL,
        tests=(
            f"{_RUN}[000.thmA.12.A.15.pcl2-consistency]",
            "tests/test_consistency.py::test_cli_consistency_json_and_plot",
        ),
        check=checks_consistency.pcl2_consistency_trend,
        note="notes/consistency.md",
    ),
    Obligation(
        id="impl.distributions.exact-areas",
        source=f"{S000}:L175 (Thm 2.7 needs exact E|η − η̂|)",
        claim="exact cube masses (checkerboard, disk, truncated Gaussian mixture) match sampling",
        predicates=(),
        impls=(
            f"{_D}.disk_lower_left_area",
            f"{_D}.disk_rectangle_area",
            f"{_D}.Circle",
            f"{_D}.GaussianMixture",
        ),
        method=Method.STATISTICAL,
        tests=(
            f"{_RUN}[impl.distributions.exact-areas]",
            "tests/test_consistency.py::test_disk_area_identities",
            "tests/test_consistency.py::test_gaussian_mixture_masses_and_bayes",
        ),
        check=checks_consistency.exact_areas_match_sampling,
        note="notes/consistency.md",
    ),
)
