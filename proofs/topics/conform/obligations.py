"""The registered guarantees of this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY

#: the public surface of dpspec conform (dpspec.conform.__all__) and the modules of its entries
_CONFORM = (
    "dpspec.conform.core.conform",
    "dpspec.conform.core.plan",
    "dpspec.conform.core.Plan",
    "dpspec.conform.core.InstanceReport",
    "dpspec.conform.core.ConformResult",
    "dpspec.conform.core.ConformanceFailure",
    "dpspec.conform.catalogue.catalogue",
    "dpspec.conform.catalogue.algorithm",
    "dpspec.conform.catalogue.reference",
    "dpspec.conform.base.Param",
    "dpspec.conform.base.Instance",
    "dpspec.conform.base.Algorithm",
    "dpspec.conform.mechanisms",
    "dpspec.conform.gaussian",
    "dpspec.conform.learners",
    "dpspec.conform.adapters.TargetError",
    "dpspec.conform.adapters.Sampler",
    "dpspec.conform.adapters.as_sampler",
    "dpspec.conform.libraries.LibraryTarget",
    "dpspec.conform.pytest_plugin.pytest_configure",
)

#: the law test (the records Law and FitResult, the machinery) and the outcome tables
_GOF = ("dpspec.conform.gof", "dpspec.conform.laws")

OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="conform.exact-statistics",
        source="dpspec conform's law test (dpspec.conform.gof) and its budget (plan)",
        claim=(
            "the law test's critical counts are the exact binomial quantiles at alpha_each/2 per "
            "side, and alpha_each is exactly alpha over the run's law tests and audits"
        ),
        method=Method.EXACT,
        impls=("dpspec.conform.gof", "dpspec.conform.core.plan"),
        checks=("exact_statistics:statistics_are_exact",),
        tests=(
            "tests/test_conform_exact_statistics.py::"
            "test_critical_counts_are_the_exact_binomial_quantiles",
            "tests/test_conform_exact_statistics.py::test_alpha_is_split_over_law_tests_and_audits",
        ),
    ),
    Obligation(
        id="conform.own-implementations",
        source=f"{BAYES_CONSISTENCY}:L119-147 (Def 2.2, Alg 1); {BAYES_CONSISTENCY}:L193-208 "
        "(Alg 2); dpspec conform's catalogue",
        claim=(
            "dpspec's own implementation of every algorithm of the conform catalogue conforms "
            "to its exact law with computed power >= 0.99 against epsilon x 1.1, verified "
            "empirically; the same implementation at epsilon x 1.1 is reported as deviating"
        ),
        method=Method.STATISTICAL,
        predicates=(
            "dpspec.spec.privacy.max_likelihood_ratio",
            "dpspec.spec.privacy.hockey_stick",
        ),
        # the outcome tables each implementation must conform to (a wrong table is seen here)
        impls=(*_CONFORM, "dpspec.conform.laws"),
        checks=("own_implementations_conform",),
        tests=(
            "tests/test_conform.py::test_own_implementations_conform",
            "tests/test_conform.py::test_epsilon_variant_deviates",
        ),
        entry_points=(
            "dpspec.mechanisms.discrete_laplace.DiscreteLaplaceMechanism.sample",
            "dpspec.mechanisms.laplace.LaplaceMechanism.sample",
            "dpspec.mechanisms.exponential.ExponentialMechanism.sample",
            "dpspec.mechanisms.randomized_response.RandomizedResponse.randomise",
            "dpspec.mechanisms.stability_histogram.StabilityHistogram.sample",
            "dpspec.noise.bernoulli_exp_neg",
            "dpspec.noise.discrete_laplace",
            "dpspec.learners.pcl.PrivateHistogramClassifier.repeated_predictions",
        ),
        binding="differential: audit.learner-repeated-fits (repeated_predictions = fit + predict)",
        bug_controls=(
            BugControl(
                "dpspec.conform.mechanisms._DiscreteLaplace._instances",
                "q**factor",
                "q ** (factor**2)",
                "the laws of the resolution at ε × 1.21 and ε / 1.21 instead of ε × 1.1 and "
                "ε / 1.1 (the budget too small: power against ε × 1.1 overstated)",
            ),
        ),
    ),
    Obligation(
        id="conform.gof-guarantees",
        source="dpspec conform's law test (union bound over exact binomial events)",
        claim=(
            "the law test's false alarm stays within its level and its power against epsilon x "
            "1.1 reaches the computed 0.99, on multinomial counts from the exact laws"
        ),
        method=Method.STATISTICAL,
        impls=_GOF,
        checks=("gof_false_alarm_and_power",),
        tests=("tests/test_conform.py::test_power_bound_is_exact_for_one_event",),
        bug_controls=(
            BugControl(
                "dpspec.conform.gof._count_test",
                "k = len(events.names) if union else 1",
                "k = 1",
                "the union bound dropped: each of the K events tested at α instead of α/K",
            ),
        ),
    ),
    Obligation(
        id="conform.resolution",
        source="dpspec conform's resolution (the bracket: every pass states what it could see)",
        claim=(
            "resolution=r sizes every instance's budget for power >= 0.99 against the algorithm "
            "at epsilon x (1 + r) and epsilon / (1 + r), and states it: a discrete Laplace at "
            "scale x 1.05 (and / 1.05) is caught at >= 0.99 over seeds at resolution 0.05, "
            "the same bug 5% either way of every algorithm of the catalogue too"
        ),
        method=Method.STATISTICAL,
        impls=_CONFORM,
        checks=("resolution_is_resolved",),
        tests=(
            "tests/test_conform.py::test_resolution_sizes_the_budget_it_states",
            "tests/test_conform.py::test_resolution_beyond_the_limit_is_refused_with_the_estimate",
        ),
        entry_points=(
            "dpspec.mechanisms.discrete_laplace.DiscreteLaplaceMechanism.sample",
            "dpspec.conform.core.plan",
            "dpspec.conform.core.conform",
        ),
        bug_controls=(
            BugControl(
                "dpspec.conform.core.plan",
                "r = RESOLUTION if resolution is None else float(resolution)",
                "r = RESOLUTION",
                "the resolution asked for ignored (the budget of the default 10%)",
            ),
            BugControl(
                "dpspec.conform.core.plan",
                "factors = (1 + r, 1 / (1 + r))",
                "factors = (1 + 2 * r, 1 / (1 + 2 * r))",
                "the budget sized for twice the resolution it states",
            ),
        ),
    ),
)
