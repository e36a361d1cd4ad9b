"""Registered obligations for hostile input to the mechanisms, noise samplers and learners."""

from __future__ import annotations

from dpspec.proofs import checks_hostile
from dpspec.proofs.registry import Method, Obligation

_RUN = "tests/test_verifiers.py::test_registry_checks_pass"
_NOTE = "notes/mechanisms.md"

HOSTILE_OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        id="impl.hostile-input",
        source="dpspec standard: bad input gets a ValueError/TypeError naming the parameter",
        claim="every public constructor and fit/predict/sample/randomise/pmf/sf/pdf/score of the "
        "mechanisms and learners, given one hostile argument (NaN, inf, huge, tiny, negative, "
        "zero, wrong type/shape, object, complex, numpy scalar), refuses it naming the argument "
        "or returns a clean-input result; no other exception, no warning, bounded time",
        predicates=(),
        impls=(
            "dpspec.validation.check_limit",
            "dpspec.validation.exact_fraction",
            "dpspec.validation.check_sampling_base",
            "dpspec.validation.check_real",
            "dpspec.learners.estimator.check_score_labels",
            "dpspec.learners.keyed_noise.block_size",
            "dpspec.mechanisms.base.check_base_loss",
            "dpspec.ldp.mechanism.check_alpha",
            "dpspec.ldp.mechanism.check_truncation",
            "dpspec.ldp.partition.check_magnitude",
        ),
        method=Method.PROPERTY,
        tests=(
            f"{_RUN}[impl.hostile-input]",
            "tests/test_hostile.py::test_hostile_input_obligation",
            "tests/test_hostile.py::test_harness_flags_broken_targets",
        ),
        check=checks_hostile.hostile_inputs,
        note=_NOTE,
        entry_points=checks_hostile.ENTRY_POINTS,
    ),
    Obligation(
        id="impl.exact-integer-bounds",
        source="dpspec standard: exact samplers use integer arithmetic that cannot wrap",
        claim="the exact samplers' and laws' integer arithmetic is overflow-safe: exponents split "
        "exactly into int64 parts, |f|, |Z| < 2^62, larger values refused naming the argument",
        predicates=(),
        impls=(
            "dpspec.noise.ExpNegExponents",
            "dpspec.noise.exp_neg_exponents",
            "dpspec.noise.bernoulli_exp_neg_exponents",
            "dpspec.noise.categorical_exp_gap",
            "dpspec.validation.bounded_int_array",
        ),
        method=Method.PROPERTY,
        tests=(
            f"{_RUN}[impl.exact-integer-bounds]",
            "tests/test_hostile.py::test_integer_bounds_obligation",
        ),
        check=checks_hostile.exact_integer_bounds,
        note=_NOTE,
        entry_points=(
            "dpspec.mechanisms.discrete_laplace.DiscreteLaplaceMechanism.sample",
            "dpspec.mechanisms.exponential.ExponentialMechanism.sample",
            "dpspec.mechanisms.exponential.ExponentialMechanism.pmf",
        ),
    ),
)
