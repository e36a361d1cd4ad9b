"""Argument checks shared by every public function: bad input gets a ValueError naming it.

Each check is a checked entry point (its own parameters declared with the domains of
:mod:`dpspec.validation.domains`); the checks the domains convert with run their bodies from
:mod:`dpspec.validation._rules`, where the limits and :class:`InputTypeError` are declared too
(and importable from here).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray

from dpspec.validation._rules import (
    _REAL_TYPES,
    _as_finite_array,
    _bounded_int_array,
    _check_base,
    _check_delta,
    _check_epsilon,
    _check_flag,
    _check_positive,
    _check_rng,
    _check_sampling_base,
    _exact_fraction,
)
from dpspec.validation._rules import INT_BOUND as INT_BOUND
from dpspec.validation._rules import LIMITS as LIMITS
from dpspec.validation._rules import MAX_BASE_DENOMINATOR as MAX_BASE_DENOMINATOR
from dpspec.validation._rules import MAX_EPSILON as MAX_EPSILON
from dpspec.validation._rules import MIN_ONE_MINUS_BASE as MIN_ONE_MINUS_BASE
from dpspec.validation._rules import InputTypeError as InputTypeError
from dpspec.validation.checked import checked, example
from dpspec.validation.domains import Anything, Choice, Flag, Instance, Integer, Real


def _generator(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


#: Largest denominator used when a float privacy parameter is turned into a rational.
MAX_DENOMINATOR = 2**32

#: The largest number of draws per side an audit may take (``dpspec.audit`` and the ``dpspec
#: audit`` command; declared here so that the command line reads it without importing the
#: auditor).
MAX_AUDIT_SAMPLES = 10**10

# The parameters of the checks themselves (read when a check is first called).
#: The value a check judges: anything (the check's own refusal names it).
Checkable = Annotated[Any, Anything(why="the value this check judges", clean=1)]
#: The name a refusal gives the value (a parameter's name).
NameArg = Annotated[str, Instance(types=(str,), clean="x")]
#: Text a message includes.
TextArg = Annotated[str, Instance(types=(str,), clean="an integer")]
#: A kind of limit of ``LIMITS``.
LimitKindArg = Annotated[str, Choice(tuple(LIMITS))]
#: A bound of a check, or None.
OptionalBoundArg = Annotated[float | None, Real(0, lo_open=True, optional=True)]
#: The least integer a count may be.
MinimumArg = Annotated[int, Integer(-INT_BOUND + 1, clean=1)]
#: The largest integer a count may be, or None.
OptionalMaximumArg = Annotated[int | None, Integer(-INT_BOUND + 1, optional=True)]
#: A required number of dimensions, or None.
OptionalNdimArg = Annotated[int | None, Integer(1, hi=32, optional=True)]
#: A switch.
FlagArg = Annotated[bool, Flag()]
#: An amount (bytes, points, …): a non-negative real, possibly infinite.
AmountArg = Annotated[float, Real(0, clean=1.0, infinite=True)]


@example(__call__={"value": 3, "name": "size", "kind": "draws"})
@checked
def check_limit(value: Checkable, name: NameArg, kind: LimitKindArg) -> int:
    """``value`` ≤ ``LIMITS[kind]``, else a ValueError naming ``name`` and the limit."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InputTypeError(f"{name}: expected an integer count, got {value!r}")
    limit = LIMITS[kind]
    if value > limit:
        raise ValueError(
            f"{name}: {value} exceeds the limit of {limit} {kind} per call "
            "(dpspec.validation.LIMITS); split the request"
        )
    return int(value)


@example(__call__={"x": 0.5, "name": "x"})
@checked
def exact_fraction(x: Checkable, name: NameArg) -> Fraction:
    """The exact rational value of a finite real number: int, float, Fraction or a numpy real
    scalar (float16/32/64, longdouble, integers — converted without rounding).

    bool, complex, str and other types: a TypeError (and ValueError) naming ``name``;
    NaN and ±inf: a ValueError.
    """
    return _exact_fraction(x, name)


@example(__call__={"rng": _generator(0)})
@checked
def check_rng(rng: Checkable, name: NameArg = "rng") -> np.random.Generator:
    """Randomness only through a passed-in numpy Generator (no global seeding)."""
    return _check_rng(rng, name)


@example(__call__={"x": 2.0, "name": "x"})
@checked
def check_positive(x: Checkable, name: NameArg, maximum: OptionalBoundArg = None) -> float:
    """A finite number > 0 (and ≤ ``maximum``); rejects NaN, inf, bool, non-numbers.

    numpy real scalars are accepted; wrong types raise a TypeError (and ValueError) naming
    ``name``. The value is returned as the nearest float.
    """
    return _check_positive(x, name, maximum)


@example(__call__={"epsilon": 1.0})
@checked
def check_epsilon(epsilon: Checkable, name: NameArg = "epsilon") -> float:
    """0 < ε ≤ ``MAX_EPSILON`` (= 700), finite; numpy real scalars accepted."""
    return _check_epsilon(epsilon, name)


@example(__call__={"delta": 1e-6})
@checked
def check_delta(delta: Checkable, name: NameArg = "delta", allow_zero: FlagArg = True) -> float:
    """δ ∈ [0, 1) (or (0, 1) when ``allow_zero`` is False)."""
    return _check_delta(delta, name, allow_zero)


@example(__call__={"n": 3})
@checked
def check_count(
    n: Checkable, name: NameArg = "n", minimum: MinimumArg = 1, maximum: OptionalMaximumArg = None
) -> int:
    """An integer ≥ ``minimum`` (and ≤ ``maximum``)."""
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
        raise InputTypeError(f"{name}: expected an integer >= {minimum}, got {n!r}")
    if int(n) < minimum:
        raise ValueError(f"{name}: expected an integer >= {minimum}, got {n!r}")
    if maximum is not None and int(n) > maximum:
        raise ValueError(f"{name}: expected an integer <= {maximum}, got {n!r}")
    return int(n)


@example(__call__={"base": Fraction(1, 2)})
@checked
def check_base(base: Checkable, name: NameArg = "base") -> Fraction:
    """A rational noise base q ∈ (0, 1) (the factor e^{-ε/Δ} of a geometric pmf)."""
    return _check_base(base, name)


@example(__call__={"base": Fraction(1, 2)})
@checked
def check_sampling_base(base: Checkable, name: NameArg = "base") -> Fraction:
    """A rational base the exact base samplers can draw with in bounded time and int64:
    denominator ≤ 2^62 and 1 − q ≥ 2^−12 (``MIN_ONE_MINUS_BASE``)."""
    return _check_sampling_base(base, name)


def _exact(x: Any, name: str) -> Fraction:
    _check_positive(x, name)
    return _exact_fraction(x, name)


@example(__call__={"x": 0.5, "name": "x"})
@checked
def rational_at_most(x: Checkable, name: NameArg) -> Fraction:
    """The largest rational ≤ x with denominator ≤ 2^32 (x > 0).

    Privacy parameters are rounded *down* (ε) so that the guarantee given is never weaker
    than the one asked for; sensitivities are rounded up with :func:`rational_at_least`.
    """
    v = _exact(x, name)
    if v.denominator <= MAX_DENOMINATOR:
        return v
    r = Fraction(math.floor(v * MAX_DENOMINATOR), MAX_DENOMINATOR)
    if r <= 0:
        raise ValueError(f"{name}: {x!r} is too small to represent (< 2^-32)")
    return r


@example(__call__={"x": 0.5, "name": "x"})
@checked
def rational_at_least(x: Checkable, name: NameArg) -> Fraction:
    """The smallest rational ≥ x with denominator ≤ 2^32 (x > 0)."""
    v = _exact(x, name)
    if v.denominator <= MAX_DENOMINATOR:
        return v
    return Fraction(math.ceil(v * MAX_DENOMINATOR), MAX_DENOMINATOR)


@example(__call__={"data": [1.0, 2.0]})
@checked
def as_finite_array(
    data: Checkable, name: NameArg = "data", ndim: OptionalNdimArg = None
) -> NDArray[Any]:
    """A non-empty numeric array with no NaN/inf, optionally of a given number of dims.

    Object arrays holding numbers are converted to float64 (as scikit-learn does); complex
    numbers are rejected. Error messages name the parameter and, for the shapes scikit-learn
    checks, use its wording ("0 feature(s) …", "Reshape your data").
    """
    return _as_finite_array(data, name, ndim)


@example(__call__={"values": [1, 2], "name": "values"})
@checked
def bounded_int_array(values: Checkable, name: NameArg) -> NDArray[np.int64]:
    """Integers with |v| < 2^62 (``INT_BOUND``) as int64: sums and differences of two of them
    cannot wrap. Python ints beyond int64 and uint64 values are range-checked before any cast.
    """
    return _bounded_int_array(values, name)


@example(__call__={"x": 0.5, "name": "x"})
@checked
def check_real(x: Checkable, name: NameArg) -> float:
    """A real number (not NaN) as a float; ±inf allowed; numpy real scalars accepted."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, _REAL_TYPES):
        raise InputTypeError(f"{name}: expected a real number, got {x!r}")
    if isinstance(x, Fraction):
        return (
            float(x) if abs(x) < Fraction(np.finfo(np.float64).max) else math.copysign(math.inf, x)
        )
    if isinstance(x, (int, np.integer)):
        return float(x) if abs(int(x)) < 2**1000 else math.copysign(math.inf, int(x))
    v = float(x)
    if math.isnan(v):
        raise ValueError(f"{name}: must not be NaN")
    return v


@example(__call__={"value": True, "name": "idealised"})
@checked
def check_flag(value: Checkable, name: NameArg) -> bool:
    """A switch such as ``idealised``: a bool (numpy bool accepted), else a TypeError naming it."""
    return _check_flag(value, name)


@example(__call__={"values": [1, 2], "name": "query", "expected": "integers"})
@checked
def integer_output(values: Checkable, name: NameArg, expected: TextArg) -> NDArray[np.int64]:
    """A user function's output (a query's value, a score vector) as a non-empty 1-D int64
    array with |v| < 2^62, else a ValueError naming the function's role ``name``."""
    arr = np.asarray(values)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name}: must return {expected}, got {arr.dtype} of shape {arr.shape}")
    try:
        return _bounded_int_array(arr, name)
    except ValueError as exc:
        raise ValueError(f"{name}: must return {expected} ({exc})") from exc


@example(__call__={"confidence": 0.95})
@checked
def check_confidence(confidence: Checkable, name: NameArg = "confidence") -> float:
    """A confidence level strictly between 0 and 1 (numpy real scalars accepted; not bool,
    str or NaN), as a float."""
    if isinstance(confidence, (bool, np.bool_)) or not isinstance(confidence, _REAL_TYPES):
        raise InputTypeError(f"{name}: expected a number in (0, 1), got {confidence!r}")
    try:
        exact = _exact_fraction(confidence, name)
    except ValueError as exc:
        raise ValueError(f"{name}: must be in (0, 1), got {confidence!r}") from exc
    value = float(exact)
    if not 0 < exact < 1 or not 0 < value < 1:
        raise ValueError(f"{name}: must be in (0, 1), got {confidence!r}")
    return value


@example(__call__={"seed": 0})
@checked
def check_seed(seed: Checkable, name: NameArg = "seed") -> int:
    """A seed for ``numpy.random.default_rng``: an integer ≥ 0 (numpy integers accepted; not
    bool, float or str)."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise InputTypeError(f"{name}: expected a non-negative integer, got {seed!r}")
    if int(seed) < 0:
        raise ValueError(f"{name}: must be >= 0, got {seed!r}")
    return int(seed)


#: Largest memory one call may ask for (bytes): a request estimated beyond it is refused before
#: any work, naming the parameter, the estimate and the limit.
MEMORY_LIMIT = 4 * 2**30


@example(__call__={"estimate": 1.0, "limit": 2.0, "name": "size", "what": "bytes"})
@checked
def require_within(estimate: AmountArg, limit: AmountArg, name: NameArg, what: TextArg) -> None:
    """Refuse, before any work, a request whose ``estimate`` exceeds ``limit``: a ValueError
    naming ``name`` that states both (``what`` says what is counted, e.g. "grid points")."""
    if not estimate <= limit:
        raise ValueError(
            f"{name}: the request needs {_amount(estimate, what)}; the limit is "
            f"{_amount(limit, what)}"
        )


def _amount(x: float, what: str) -> str:
    if what == "bytes":
        for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
            if x >= size:
                return f"~{x / size:.3g} {unit}"
        return f"{x:.0f} bytes"
    return f"~{x:.3g} {what}" if x >= 1e6 else f"{x:.0f} {what}"
