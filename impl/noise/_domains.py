"""The domains of the samplers' parameters (:mod:`dpspec.noise`): exact rationals and integer
arrays, checked once by :func:`~dpspec.validation.checked` before a sampler's body runs (the
bodies then draw without checking again)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from dpspec.validation import INT_BOUND, Domain, InputTypeError, check_base, rational_at_least

_NAN = float("nan")


@dataclass(frozen=True)
class IntegerArray(Domain):
    """Integers as an int64 array with ``ndims`` dimensions, entries in [``lo``, 2^63).

    ``signed``: negative entries accepted too when every entry is in (−2^62, 2^62) (row-wise
    differences of categorical weights cannot then overflow); ``empty``: a size-0 array is
    accepted; ``increasing``: strictly increasing entries (distinct levels). Floats and bools
    are refused, never truncated.
    """

    lo: int = 0
    ndims: tuple[int, ...] = (1,)
    empty: bool = True
    signed: bool = False
    increasing: bool = False
    clean: Any = None

    def convert(self, value: Any, name: str) -> Any:
        if value is None or isinstance(value, str | bytes | dict):
            raise InputTypeError(f"{name}: expected an integer array, got {value!r}")
        try:
            arr = np.asarray(value)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name}: cannot be read as an integer array ({exc})") from exc
        if arr.ndim not in self.ndims:
            dims = " or ".join(f"{d}-D" for d in self.ndims)
            raise ValueError(f"{name}: expected a {dims} integer array, got shape {arr.shape}")
        if arr.size == 0:
            if not self.empty:
                raise ValueError(f"{name}: expected a non-empty integer array")
            return np.zeros(arr.shape, dtype=np.int64)
        if not np.issubdtype(arr.dtype, np.integer):
            raise InputTypeError(f"{name}: expected integers, got dtype {arr.dtype}")
        top, bottom = int(arr.max()), int(arr.min())
        if self.signed and bottom < 0:
            if top >= INT_BOUND or bottom <= -INT_BOUND:
                raise ValueError(f"{name}: entries must be in [0, 2^63) or in (-2^62, 2^62)")
        elif bottom < self.lo or top >= 2**63:
            raise ValueError(f"{name}: entries must be integers in [{self.lo}, 2^63)")
        out = arr.astype(np.int64, copy=False)
        if self.increasing and out.size > 1 and not bool(np.all(out[1:] > out[:-1])):
            raise ValueError(f"{name}: expected distinct increasing integers")
        return out

    def hostile(self) -> tuple[Any, ...]:
        out: list[Any] = [*super().hostile(), "a", [_NAN], [1.5], np.array([True]), {"a": 1}]
        out += [[2**64], np.zeros((2, 2, 2), dtype=np.int64), 3.0]
        if not self.signed:  # a signed array takes negative entries
            out += [[self.lo - 1], [-1]]
        if not self.empty:
            out.append([])
        if self.increasing:
            out.append([self.lo + 1, self.lo])
        return tuple(out)

    @property
    def example(self) -> Any:
        return self.clean

    def describe(self) -> str:
        dims = " or ".join(f"{d}-D" for d in self.ndims)
        return f"a {dims} array of integers in [{self.lo}, 2^63)"


@dataclass(frozen=True)
class Rational(Domain):
    """A rational number kept exact in [0, ``hi``] (``positive``: > 0).

    ``round_up``: any real > 0 (float, int, Fraction, numpy scalar), rounded up to the smallest
    rational with denominator ≤ 2^32 (:func:`~dpspec.validation.rational_at_least`: a larger
    scale is more noise); otherwise an int or ``Fraction`` only, with denominator at most
    ``max_denominator`` (None: any).
    """

    positive: bool = True
    hi: Fraction | None = None
    round_up: bool = False
    max_denominator: int | None = None
    clean: Fraction = Fraction(1, 2)

    def convert(self, value: Any, name: str) -> Fraction:
        if self.round_up:
            return rational_at_least(value, name)
        if isinstance(value, bool | np.bool_) or not isinstance(value, int | Fraction | np.integer):
            raise InputTypeError(f"{name}: expected a Fraction, got {type(value).__name__}")
        x = Fraction(int(value)) if isinstance(value, np.integer) else Fraction(value)
        if x < 0 or (self.positive and x == 0) or (self.hi is not None and x > self.hi):
            raise ValueError(f"{name}: must be in {self.interval()}, got {value!r}")
        if self.max_denominator is not None and x.denominator > self.max_denominator:
            raise ValueError(f"{name}: denominator exceeds {self.max_denominator}, got {x}")
        return x

    def interval(self) -> str:
        left = "(0" if self.positive else "[0"
        return f"{left}, {'inf)' if self.hi is None else f'{self.hi}]'}"

    def hostile(self) -> tuple[Any, ...]:
        out: list[Any] = [*super().hostile(), Fraction(-1, 2), -1, True, "1/2", _NAN]
        out += [float("inf"), [Fraction(1, 2)]]
        if self.positive:
            out.append(Fraction(0))
        if self.hi is not None:
            out.append(self.hi + 1)
        if not self.round_up:
            out.append(0.5)
        if self.max_denominator is not None:
            out.append(Fraction(1, self.max_denominator + 1))
        return tuple(out)

    @property
    def example(self) -> Any:
        return self.clean

    def describe(self) -> str:
        kind = "a real" if self.round_up else "a Fraction"
        return f"{kind} in {self.interval()}"


@dataclass(frozen=True)
class Factor(Domain):
    """The per-unit factor q of a discrete Laplace law: a ``Fraction`` in (0, 1) (exact
    probabilities) or a float in [0, 1) (e^{−1/scale}, which underflows to 0.0 for tiny scales)."""

    def convert(self, value: Any, name: str) -> Fraction | float:
        if type(value) is Fraction and 0 < value < 1:  # the common case, without a call
            return value
        if isinstance(value, float | np.floating) and not isinstance(value, bool):
            if not 0.0 <= float(value) < 1.0:
                raise ValueError(f"{name}: must be in [0, 1), got {value!r}")
            return float(value)
        return check_base(value, name)

    def hostile(self) -> tuple[Any, ...]:
        out: list[Any] = [*super().hostile(), _NAN, 1.0, -0.5, float("inf"), Fraction(1)]
        return (*out, Fraction(3, 2), True, "1/2", [0.5])

    @property
    def example(self) -> Any:
        return Fraction(1, 2)

    def describe(self) -> str:
        return "a Fraction in (0, 1) or a float in [0, 1)"
