"""The registered guarantees of this topic (see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Method, Obligation
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY

_CONFORM = (
    "dpspec.conform.core.conform",
    "dpspec.conform.core.plan",
    "dpspec.conform.core.Plan",
    "dpspec.conform.core.InstanceReport",
    "dpspec.conform.core.ConformResult",
    "dpspec.conform.core.compare_pmf",
    "dpspec.conform.core.empirical_power",
    "dpspec.conform.catalogue.Param",
    "dpspec.conform.catalogue.Instance",
    "dpspec.conform.catalogue.Algorithm",
    "dpspec.conform.catalogue.DiscreteLaplace",
    "dpspec.conform.catalogue.LatticeLaplace",
    "dpspec.conform.catalogue.BernoulliExp",
    "dpspec.conform.catalogue.Exponential",
    "dpspec.conform.catalogue.ReportNoisyMax",
    "dpspec.conform.catalogue.KaryRandomizedResponse",
    "dpspec.conform.catalogue.Histogram",
    "dpspec.conform.catalogue.catalogue",
    "dpspec.conform.catalogue.algorithm",
    "dpspec.conform.learners.PCL",
    "dpspec.conform.learners.cell_centres",
    "dpspec.conform.learners.consistency",
    "dpspec.conform.laws.tail_half_width",
    "dpspec.conform.laws.integer_law",
    "dpspec.conform.laws.categorical_law",
    "dpspec.conform.laws.bernoulli_law",
    "dpspec.conform.laws.product_law",
    "dpspec.conform.laws.noisy_max_law",
    "dpspec.conform.laws.shifted",
    "dpspec.conform.laws.truncated",
    "dpspec.conform.adapters.TargetError",
    "dpspec.conform.adapters.Sampler",
    "dpspec.conform.adapters.as_sampler",
    "dpspec.conform.adapters.learner_factory",
    "dpspec.conform.adapters.load",
    "dpspec.conform.libraries.LibraryTarget",
    "dpspec.conform.libraries.version",
    "dpspec.conform.libraries.library_target",
    "dpspec.conform.libraries.is_library",
    "dpspec.conform.pytest_plugin.ConformanceFailure",
    "dpspec.conform.pytest_plugin.pytest_configure",
    "dpspec.conform.pytest_plugin.dpspec_conforms_fixture",
)

_GOF = (
    "dpspec.conform.gof.Law",
    "dpspec.conform.gof.Events",
    "dpspec.conform.gof.event_family",
    "dpspec.conform.gof.critical_counts",
    "dpspec.conform.gof.power_bound",
    "dpspec.conform.gof.draws_for_power",
    "dpspec.conform.gof.FitResult",
    "dpspec.conform.gof.counts_of",
    "dpspec.conform.gof.count_test",
    "dpspec.conform.gof.fit_test",
)

OBLIGATIONS: tuple[Obligation, ...] = (
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
        impls=_CONFORM,
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
        binding="differential: learner-audit.conformance (repeated_predictions = fit + predict)",
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
    ),
)
