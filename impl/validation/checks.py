"""Argument checks shared by every public function: bad input gets a ValueError naming it."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.validation.checked import _body_of, checked, example


def _generator(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


#: Largest denominator used when a float privacy parameter is turned into a rational.
MAX_DENOMINATOR = 2**32

#: Largest ε any mechanism or learner accepts. e^ε must be a finite float (e^709.78 overflows)
#: and the exact samplers' integer exponents ε·(gap) must stay representable; beyond ~700 a
#: guarantee says nothing anyway (the likelihood ratio e^700 ≈ 10^304). One rule everywhere.
MAX_EPSILON = 700

#: Bound on the integers the exact samplers add or compare (query values, scores, noise):
#: two of them sum to less than 2^63, so int64 arithmetic cannot wrap.
INT_BOUND = 2**62

#: Upper limits on the work one argument can ask for: a larger request is refused up front with
#: a ValueError naming the argument and the limit (memory and time stay bounded).
#:
#: * ``draws``: values one ``sample`` / ``randomise`` call returns (runs × values per run);
#: * ``outcomes``: outcomes an exact law (``pmf``) lists;
#: * ``cells``: cells of a dense public partition released bit by bit (NoisyMajorityVote,
#:   StabilityHistogram bins);
#: * ``exponent``: |k| in an exact rational power q^k of a law with a rational base;
#: * ``synthetic``: synthetic points the semi-supervised learner draws;
#: * ``categories``: outputs of k-ary randomized response.
LIMITS: dict[str, int] = {
    "draws": 2**27,
    "outcomes": 2**16,
    "cells": 2**26,
    "exponent": 2**14,
    "synthetic": 2**20,
    "categories": 2**12,
}

#: The largest number of draws per side an audit may take (``dpspec.audit`` and the ``dpspec
#: audit`` command; declared here so that the command line reads it without importing the
#: auditor).
MAX_AUDIT_SAMPLES = 10**10

#: The smallest 1 − q of a rational base the base samplers accept (they run O(1/(1 − q))
#: vectorised rounds) and the largest denominator (drawn with ``Generator.integers``).
MIN_ONE_MINUS_BASE = Fraction(1, 2**12)
MAX_BASE_DENOMINATOR = 2**62

_REAL_TYPES = (int, float, Fraction, np.integer, np.floating)
_FLOAT_MAX = float(np.finfo(np.float64).max)


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
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, _REAL_TYPES):
        raise InputTypeError(f"{name}: expected a real number, got {type(x).__name__} {x!r}")
    if isinstance(x, Fraction):
        return x
    if isinstance(x, (int, np.integer)):
        return Fraction(int(x))
    if not np.isfinite(x):
        raise ValueError(f"{name}: must be finite, got {x!r}")
    num, den = x.as_integer_ratio()
    return Fraction(int(num), int(den))


@example(__call__={"rng": _generator(0)})
@checked
def check_rng(rng: Checkable, name: NameArg = "rng") -> np.random.Generator:
    """Randomness only through a passed-in numpy Generator (no global seeding)."""
    if not isinstance(rng, np.random.Generator):
        raise InputTypeError(f"{name}: expected a numpy.random.Generator, got {type(rng).__name__}")
    return rng


@example(__call__={"x": 2.0, "name": "x"})
@checked
def check_positive(x: Checkable, name: NameArg, maximum: OptionalBoundArg = None) -> float:
    """A finite number > 0 (and ≤ ``maximum``); rejects NaN, inf, bool, non-numbers.

    numpy real scalars are accepted; wrong types raise a TypeError (and ValueError) naming
    ``name``. The value is returned as the nearest float.
    """
    if type(x) in (float, int) and 0 < x <= (_FLOAT_MAX if maximum is None else maximum):
        return float(x)  # the common cases, compared exactly (NaN fails the comparison)
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, _REAL_TYPES):
        raise InputTypeError(f"{name}: expected a positive number, got {x!r}")
    try:
        v = _exact_fraction(x, name)
    except ValueError as exc:
        raise ValueError(f"{name}: must be finite and > 0, got {x!r}") from exc
    if v <= 0:
        raise ValueError(f"{name}: must be finite and > 0, got {x!r}")
    top = Fraction(maximum) if maximum is not None else Fraction(np.finfo(np.float64).max)
    if v > top:
        if maximum is None:
            raise ValueError(f"{name}: must be finite and > 0, got {x!r}")
        raise ValueError(f"{name}: must be <= {maximum}, got {x!r}")
    return float(v)


@example(__call__={"epsilon": 1.0})
@checked
def check_epsilon(epsilon: Checkable, name: NameArg = "epsilon") -> float:
    """0 < ε ≤ ``MAX_EPSILON`` (= 700), finite; numpy real scalars accepted."""
    if type(epsilon) in (float, int) and 0 < epsilon <= MAX_EPSILON:
        return float(epsilon)  # the common cases, compared exactly (NaN fails the comparison)
    v = _check_positive(epsilon, name)
    if _exact_fraction(epsilon, name) > MAX_EPSILON:
        raise ValueError(
            f"{name}: must be <= {MAX_EPSILON} (e^{name} must be a finite float; one limit for "
            f"every mechanism and learner), got {epsilon!r}"
        )
    return v


@example(__call__={"delta": 1e-6})
@checked
def check_delta(delta: Checkable, name: NameArg = "delta", allow_zero: FlagArg = True) -> float:
    """δ ∈ [0, 1) (or (0, 1) when ``allow_zero`` is False)."""
    if type(delta) is float and (delta >= 0.0 if allow_zero else delta > 0.0) and delta < 1.0:
        return delta  # the common case, decided exactly in floats (NaN fails the comparison)
    interval = "[0, 1)" if allow_zero else "(0, 1)"
    if isinstance(delta, (bool, np.bool_)) or not isinstance(delta, _REAL_TYPES):
        raise InputTypeError(f"{name}: expected a number in {interval}, got {delta!r}")
    try:
        exact = _exact_fraction(delta, name)
    except ValueError as exc:
        raise ValueError(f"{name}: must be in {interval}, got {delta!r}") from exc
    v = float(exact)
    if exact < 0 or exact >= 1 or v >= 1 or (v == 0 and not allow_zero):
        raise ValueError(f"{name}: must be in {interval}, got {delta!r}")
    return v


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
    if isinstance(base, (bool, np.bool_)) or not isinstance(base, (int, Fraction, np.integer)):
        raise InputTypeError(f"{name}: expected a Fraction in (0, 1), got {base!r}")
    q = Fraction(int(base)) if isinstance(base, np.integer) else Fraction(base)
    if not 0 < q < 1:
        raise ValueError(f"{name}: must be in (0, 1), got {base!r}")
    return q


@example(__call__={"base": Fraction(1, 2)})
@checked
def check_sampling_base(base: Checkable, name: NameArg = "base") -> Fraction:
    """A rational base the exact base samplers can draw with in bounded time and int64:
    denominator ≤ 2^62 and 1 − q ≥ 2^−12 (``MIN_ONE_MINUS_BASE``)."""
    q = _check_base(base, name)
    if q.denominator > MAX_BASE_DENOMINATOR:
        raise ValueError(
            f"{name}: denominator {q.denominator} exceeds 2^62 (the exact sampler draws "
            "uniform integers below it); use a simpler fraction or epsilon"
        )
    if 1 - q < MIN_ONE_MINUS_BASE:
        raise ValueError(
            f"{name}: 1 - base must be >= 2^-12 for the base sampler (O(1/(1 - base)) rounds), "
            f"got 1 - base = {float(1 - q):.3g}; use epsilon for such small privacy losses"
        )
    return q


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


class InputTypeError(ValueError, TypeError):
    """Input that cannot be read as numbers: a ValueError naming the parameter, and a
    TypeError as numpy's own conversion error is (so callers catching either see it)."""


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
    if data is None:
        raise InputTypeError(f"{name}: expected an array of numbers, got None")
    try:
        arr = np.asarray(data)
    except Exception as exc:  # pragma: no cover - numpy raises many types here
        raise ValueError(f"{name}: cannot be read as an array ({exc})") from exc
    # dtype kinds: complex "c"; object "O"; numbers and bools "biuf" (numpy's timedelta64,
    # which np.issubdtype counts as an integer, is not a number here)
    if arr.dtype.kind == "c":
        raise InputTypeError(f"{name}: Complex data not supported")
    if arr.dtype.kind == "O":
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError, OverflowError) as exc:
            raise InputTypeError(f"{name}: expected numbers, got dtype object ({exc})") from exc
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{name}: expected numbers, got dtype {arr.dtype}")
    if ndim == 2 and arr.ndim == 1:
        raise ValueError(
            f"{name}: expected 2 dimension(s), got shape {arr.shape}. Reshape your data either "
            "using array.reshape(-1, 1) if it has a single feature or array.reshape(1, -1) if it "
            "contains a single sample."
        )
    if arr.size == 0:
        if arr.ndim == 2 and arr.shape[0] > 0:
            raise ValueError(
                f"{name}: 0 feature(s) (shape={arr.shape}) while a minimum of 1 is required."
            )
        if arr.ndim == 2:
            raise ValueError(
                f"{name}: is empty: 0 sample(s) (shape={arr.shape}) while a minimum of 1 is "
                "required."
            )
        raise ValueError(f"{name}: is empty")
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name}: expected {ndim} dimension(s), got shape {arr.shape}")
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        raise ValueError(f"{name}: contains NaN or infinite values")
    return arr


@example(__call__={"values": [1, 2], "name": "values"})
@checked
def bounded_int_array(values: Checkable, name: NameArg) -> NDArray[np.int64]:
    """Integers with |v| < 2^62 (``INT_BOUND``) as int64: sums and differences of two of them
    cannot wrap. Python ints beyond int64 and uint64 values are range-checked before any cast.
    """
    arr = np.asarray(values)
    if arr.dtype == object:
        flat = arr.ravel().tolist()
        if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in flat):
            raise ValueError(f"{name}: expected integers, got dtype object")
        if any(abs(int(v)) >= INT_BOUND for v in flat):
            raise ValueError(f"{name}: integer values must be in (-2^62, 2^62)")
        return np.array([int(v) for v in flat], dtype=np.int64).reshape(arr.shape)
    if arr.dtype.kind not in "iu":  # signed or unsigned integers (not timedelta64)
        raise ValueError(f"{name}: expected integers, got dtype {arr.dtype}")
    if arr.size and (int(arr.max()) >= INT_BOUND or int(arr.min()) <= -INT_BOUND):
        raise ValueError(f"{name}: integer values must be in (-2^62, 2^62)")
    return arr.astype(np.int64)


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
    if not isinstance(value, (bool, np.bool_)):
        raise InputTypeError(f"{name}: expected True or False, got {value!r}")
    return bool(value)


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


# The validators' bodies, for the validation machinery's own calls (the validators calling one
# another, the domains passing their parameter's name and their settings): those arguments are
# already the declared values, so the checked entry points would only check them again.
_as_finite_array: Callable[..., NDArray[Any]] = _body_of(as_finite_array)
_bounded_int_array: Callable[..., NDArray[np.int64]] = _body_of(bounded_int_array)
_check_base: Callable[..., Fraction] = _body_of(check_base)
_check_delta: Callable[..., float] = _body_of(check_delta)
_check_epsilon: Callable[..., float] = _body_of(check_epsilon)
_check_flag: Callable[..., bool] = _body_of(check_flag)
_check_positive: Callable[..., float] = _body_of(check_positive)
_check_rng: Callable[..., np.random.Generator] = _body_of(check_rng)
_check_sampling_base: Callable[..., Fraction] = _body_of(check_sampling_base)
_exact_fraction: Callable[..., Fraction] = _body_of(exact_fraction)

# The parameters of the checks themselves (resolved when a check is first called: the domains
# are built on these checks, so they are imported last).
from typing import Annotated  # noqa: E402

from dpspec.validation.domains import Anything, Choice, Flag, Instance, Integer, Real  # noqa: E402

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
