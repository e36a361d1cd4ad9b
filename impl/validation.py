"""Argument checks shared by every public function: bad input gets a ValueError naming it."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

#: Largest denominator used when a float privacy parameter is turned into a rational.
MAX_DENOMINATOR = 2**32


def check_rng(rng: Any, name: str = "rng") -> np.random.Generator:
    """Randomness only through a passed-in numpy Generator (no global seeding)."""
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"{name}: expected a numpy.random.Generator, got {type(rng).__name__}")
    return rng


def check_positive(x: Any, name: str) -> float:
    """A finite number > 0 (rejects NaN, inf, bool, non-numbers)."""
    if isinstance(x, bool) or not isinstance(x, (int, float, Fraction, np.integer, np.floating)):
        raise ValueError(f"{name}: expected a positive number, got {x!r}")
    v = float(x)
    if not math.isfinite(v) or v <= 0:
        raise ValueError(f"{name}: must be finite and > 0, got {x!r}")
    return v


def check_epsilon(epsilon: Any, name: str = "epsilon") -> float:
    """ε > 0 and finite."""
    return check_positive(epsilon, name)


def check_delta(delta: Any, name: str = "delta", allow_zero: bool = True) -> float:
    """δ ∈ [0, 1) (or (0, 1) when ``allow_zero`` is False)."""
    if isinstance(delta, bool) or not isinstance(
        delta, (int, float, Fraction, np.integer, np.floating)
    ):
        raise ValueError(f"{name}: expected a number in [0, 1), got {delta!r}")
    v = float(delta)
    if not math.isfinite(v) or v < 0 or v >= 1 or (v == 0 and not allow_zero):
        interval = "[0, 1)" if allow_zero else "(0, 1)"
        raise ValueError(f"{name}: must be in {interval}, got {delta!r}")
    return v


def check_count(n: Any, name: str = "n", minimum: int = 1) -> int:
    """An integer ≥ ``minimum``."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or int(n) < minimum:
        raise ValueError(f"{name}: expected an integer >= {minimum}, got {n!r}")
    return int(n)


def check_base(base: Any, name: str = "base") -> Fraction:
    """A rational noise base q ∈ (0, 1) (the factor e^{-ε/Δ} of a geometric pmf)."""
    if isinstance(base, bool) or not isinstance(base, (int, Fraction)):
        raise ValueError(f"{name}: expected a Fraction in (0, 1), got {base!r}")
    q = Fraction(base)
    if not 0 < q < 1:
        raise ValueError(f"{name}: must be in (0, 1), got {base!r}")
    return q


def _exact(x: float | Fraction, name: str) -> Fraction:
    check_positive(x, name)
    return x if isinstance(x, Fraction) else Fraction(x)


def rational_at_most(x: float | Fraction, name: str) -> Fraction:
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


def rational_at_least(x: float | Fraction, name: str) -> Fraction:
    """The smallest rational ≥ x with denominator ≤ 2^32 (x > 0)."""
    v = _exact(x, name)
    if v.denominator <= MAX_DENOMINATOR:
        return v
    return Fraction(math.ceil(v * MAX_DENOMINATOR), MAX_DENOMINATOR)


class InputTypeError(ValueError, TypeError):
    """Input that cannot be read as numbers: a ValueError naming the parameter, and a
    TypeError as numpy's own conversion error is (so callers catching either see it)."""


def as_finite_array(data: Any, name: str = "data", ndim: int | None = None) -> NDArray[Any]:
    """A non-empty numeric array with no NaN/inf, optionally of a given number of dims.

    Object arrays holding numbers are converted to float64 (as scikit-learn does); complex
    numbers are rejected. Error messages name the parameter and, for the shapes scikit-learn
    checks, use its wording ("0 feature(s) …", "Reshape your data").
    """
    try:
        arr = np.asarray(data)
    except Exception as exc:  # pragma: no cover - numpy raises many types here
        raise ValueError(f"{name}: cannot be read as an array ({exc})") from exc
    if np.issubdtype(arr.dtype, np.complexfloating):
        raise ValueError(f"{name}: Complex data not supported")
    if arr.dtype == object:
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise InputTypeError(f"{name}: expected numbers, got dtype object ({exc})") from exc
    if not (np.issubdtype(arr.dtype, np.number) or np.issubdtype(arr.dtype, np.bool_)):
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
    if np.issubdtype(arr.dtype, np.floating) and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name}: contains NaN or infinite values")
    return arr
