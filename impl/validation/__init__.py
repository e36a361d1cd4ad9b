"""Argument checks shared by every public function: bad input gets a ValueError / TypeError
naming the parameter.

* :mod:`~dpspec.validation.checks` — the checks themselves (ε, δ, counts, arrays, limits);
* :mod:`~dpspec.validation.domains` — parameter domains, declared once in each public
  parameter's annotation (``epsilon: EpsilonArg``);
* :mod:`~dpspec.validation.checked` — their enforcement by construction (:class:`Checked`,
  :func:`checked`) and the clean calls (:class:`Example`) the hostile-input sweep starts from.

The annotated types below are the domains most parameters share; a family declares its own
beside its parameters the same way (``Annotated[float, Real(0, 0.5, lo_open=True)]``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any

import numpy as np
from numpy.typing import ArrayLike

from dpspec.validation.checked import (
    CHECKED_MARK,
    EXAMPLE_ATTRIBUTE,
    Checked,
    Example,
    Unresolved,
    check_constructor_params,
    checked,
    constructor_domains,
    example,
    parameter_domains,
)
from dpspec.validation.checks import (
    INT_BOUND,
    LIMITS,
    MAX_AUDIT_SAMPLES,
    MAX_BASE_DENOMINATOR,
    MAX_DENOMINATOR,
    MAX_EPSILON,
    MEMORY_LIMIT,
    MIN_ONE_MINUS_BASE,
    InputTypeError,
    as_finite_array,
    bounded_int_array,
    check_base,
    check_confidence,
    check_count,
    check_delta,
    check_epsilon,
    check_flag,
    check_limit,
    check_positive,
    check_real,
    check_rng,
    check_sampling_base,
    check_seed,
    exact_fraction,
    integer_output,
    rational_at_least,
    rational_at_most,
    require_within,
)
from dpspec.validation.domains import (
    MAX_SEED,
    NO_EXAMPLE,
    Anything,
    Array,
    Base,
    Choice,
    Delta,
    Domain,
    Epsilon,
    Flag,
    Function,
    Instance,
    Integer,
    NoExample,
    Pair,
    RandomGenerator,
    RandomState,
    Real,
    domain_of,
    optional,
    sequence_of,
)

#: ε ∈ (0, 700] (rounded down to a rational by the exact samplers).
EpsilonArg = Annotated[float | Fraction, Epsilon()]
#: ε, or None when another parameter (a rational ``base``) gives the noise.
OptionalEpsilonArg = Annotated[float | Fraction | None, Epsilon(optional=True)]
#: δ ∈ [0, 1).
DeltaArg = Annotated[float, Delta()]
#: δ ∈ (0, 1).
PositiveDeltaArg = Annotated[float, Delta(positive=True)]
#: ``idealised``: True for the paper's continuous-noise version, False (default) for exact.
FlagArg = Annotated[bool, Flag()]
#: A cap on the wall-clock seconds a run's own draws may take (> 0), or None: no cap.
MaxSecondsArg = Annotated[float | None, Real(0.0, lo_open=True, optional=True)]
#: A sample size n ≥ 1: the records of a sample, at most 2^62 (:data:`INT_BOUND`: n and the
#: sum of two counts of a sample stay in int64). The one sample-size domain of the package; an
#: entry that cannot finish a larger n (an exact enumeration, float arithmetic, an array of n
#: draws) keeps its work limit as a named constant beside it and refuses a larger n before any
#: work, with a ValueError naming the parameter and the limit.
SampleSizeArg = Annotated[int, Integer(1, hi=INT_BOUND, clean=100)]
#: The caller's randomness.
GeneratorArg = Annotated[np.random.Generator, RandomGenerator()]
#: scikit-learn's ``random_state``.
RandomStateArg = Annotated[int | np.random.Generator | None, RandomState()]
#: A rational noise base q = e^{−ε/Δ}, or None when ε gives the noise.
OptionalBaseArg = Annotated[Any, Base(optional=True)]
#: Independent runs one call returns (≤ ``LIMITS["draws"]``).
SizeArg = Annotated[int, Integer(1, limit="draws")]
#: The name a message gives a checked value (a parameter's name).
NameArg = Annotated[str, Instance(types=(str,), clean="epsilon")]
#: A positive integer (≥ 1).
CountArg = Annotated[int, Integer(1)]
#: A dataset: a non-empty array of finite numbers.
DataArg = Annotated[ArrayLike, Array()]
#: Features: a non-empty 2-D array of finite reals.
FeaturesArg = Annotated[ArrayLike, Array(ndim=2)]
#: Labels: a non-empty 1-D array (numbers or strings; the learner checks its classes).
LabelsArg = Annotated[ArrayLike, Array(ndim=1, kind="label")]

__all__ = [
    "CHECKED_MARK",
    "EXAMPLE_ATTRIBUTE",
    "INT_BOUND",
    "LIMITS",
    "MAX_AUDIT_SAMPLES",
    "MAX_BASE_DENOMINATOR",
    "MAX_DENOMINATOR",
    "MAX_EPSILON",
    "MAX_SEED",
    "MEMORY_LIMIT",
    "MIN_ONE_MINUS_BASE",
    "NO_EXAMPLE",
    "Anything",
    "Array",
    "Base",
    "Checked",
    "Choice",
    "CountArg",
    "DataArg",
    "Delta",
    "DeltaArg",
    "Domain",
    "Epsilon",
    "EpsilonArg",
    "Example",
    "FeaturesArg",
    "Flag",
    "FlagArg",
    "Function",
    "GeneratorArg",
    "InputTypeError",
    "Instance",
    "Integer",
    "LabelsArg",
    "MaxSecondsArg",
    "NameArg",
    "NoExample",
    "OptionalBaseArg",
    "OptionalEpsilonArg",
    "Pair",
    "PositiveDeltaArg",
    "RandomGenerator",
    "RandomState",
    "RandomStateArg",
    "Real",
    "SampleSizeArg",
    "SizeArg",
    "Unresolved",
    "as_finite_array",
    "bounded_int_array",
    "check_base",
    "check_confidence",
    "check_constructor_params",
    "check_count",
    "check_delta",
    "check_epsilon",
    "check_flag",
    "check_limit",
    "check_positive",
    "check_real",
    "check_rng",
    "check_sampling_base",
    "check_seed",
    "checked",
    "constructor_domains",
    "domain_of",
    "exact_fraction",
    "example",
    "integer_output",
    "optional",
    "parameter_domains",
    "rational_at_least",
    "rational_at_most",
    "require_within",
    "sequence_of",
]
