"""The rules the checks and the domains share, unchecked: the limits, the error of input that
cannot be read as numbers, and the conversions both are built on.

:mod:`dpspec.validation.domains` converts with these functions, and
:mod:`dpspec.validation.checks` publishes each as a checked entry point of the same name
without the underscore (``check_epsilon`` runs ``_check_epsilon`` once its own arguments are
checked): the domains need no check and the checks' parameters can be declared with domains,
so the modules form layers (this one imports neither). Each function here is the body of its
public check, for calls whose arguments are already the declared values (a domain passing its
parameter's name and its settings, a check calling another).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

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

#: The smallest 1 − q of a rational base the base samplers accept (they run O(1/(1 − q))
#: vectorised rounds) and the largest denominator (drawn with ``Generator.integers``).
MIN_ONE_MINUS_BASE = Fraction(1, 2**12)
MAX_BASE_DENOMINATOR = 2**62

_REAL_TYPES = (int, float, Fraction, np.integer, np.floating)
_FLOAT_MAX = float(np.finfo(np.float64).max)


class InputTypeError(ValueError, TypeError):
    """Input that cannot be read as numbers: a ValueError naming the parameter, and a
    TypeError as numpy's own conversion error is (so callers catching either see it)."""


def _exact_fraction(x: Any, name: str) -> Fraction:
    """The body of :func:`dpspec.validation.checks.exact_fraction`."""
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


def _check_rng(rng: Any, name: str = "rng") -> np.random.Generator:
    """The body of :func:`dpspec.validation.checks.check_rng`."""
    if not isinstance(rng, np.random.Generator):
        raise InputTypeError(f"{name}: expected a numpy.random.Generator, got {type(rng).__name__}")
    return rng


def _check_positive(x: Any, name: str, maximum: float | None = None) -> float:
    """The body of :func:`dpspec.validation.checks.check_positive`."""
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


def _check_epsilon(epsilon: Any, name: str = "epsilon") -> float:
    """The body of :func:`dpspec.validation.checks.check_epsilon`."""
    if type(epsilon) in (float, int) and 0 < epsilon <= MAX_EPSILON:
        return float(epsilon)  # the common cases, compared exactly (NaN fails the comparison)
    v = _check_positive(epsilon, name)
    if _exact_fraction(epsilon, name) > MAX_EPSILON:
        raise ValueError(
            f"{name}: must be <= {MAX_EPSILON} (e^{name} must be a finite float; one limit for "
            f"every mechanism and learner), got {epsilon!r}"
        )
    return v


def _check_delta(delta: Any, name: str = "delta", allow_zero: bool = True) -> float:
    """The body of :func:`dpspec.validation.checks.check_delta`."""
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


def _check_base(base: Any, name: str = "base") -> Fraction:
    """The body of :func:`dpspec.validation.checks.check_base`."""
    if isinstance(base, (bool, np.bool_)) or not isinstance(base, (int, Fraction, np.integer)):
        raise InputTypeError(f"{name}: expected a Fraction in (0, 1), got {base!r}")
    q = Fraction(int(base)) if isinstance(base, np.integer) else Fraction(base)
    if not 0 < q < 1:
        raise ValueError(f"{name}: must be in (0, 1), got {base!r}")
    return q


def _check_sampling_base(base: Any, name: str = "base") -> Fraction:
    """The body of :func:`dpspec.validation.checks.check_sampling_base`."""
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


def _as_finite_array(data: Any, name: str = "data", ndim: int | None = None) -> NDArray[Any]:
    """The body of :func:`dpspec.validation.checks.as_finite_array`."""
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


def _bounded_int_array(values: Any, name: str) -> NDArray[np.int64]:
    """The body of :func:`dpspec.validation.checks.bounded_int_array`."""
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


def _check_flag(value: Any, name: str) -> bool:
    """The body of :func:`dpspec.validation.checks.check_flag`."""
    if not isinstance(value, (bool, np.bool_)):
        raise InputTypeError(f"{name}: expected True or False, got {value!r}")
    return bool(value)
