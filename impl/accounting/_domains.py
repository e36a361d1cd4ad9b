"""The exact accountant's parameter domains (declared once, read by ``checked`` and the sweep).

Every quantity the accountant computes with stays exact: probabilities, likelihood ratios and
subsampling rates are ``int`` or ``Fraction`` (a float is refused, not rounded: 0.2 is not 1/5
in binary); a privacy level ε, a target δ and a bracket width may be given as floats too and
are converted to the rational a float denotes, exactly.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from dpspec.validation import MAX_EPSILON, Domain, InputTypeError, exact_fraction

_NAN = float("nan")
_INF = float("inf")

#: Values of the wrong kind for any number parameter (each must be refused).
_NOT_A_NUMBER: tuple[Any, ...] = ("1", b"1", [1], (1,), {"a": 1}, 1 + 0j, object())


def exact_rational(value: Any, name: str) -> Fraction:
    """An ``int`` or ``Fraction`` (a numpy integer too) as a Fraction; a float, a bool or
    anything else is refused naming ``name`` (exact quantities are given exactly)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_):
        return Fraction(int(value))
    raise InputTypeError(
        f"{name}: expected an exact number (an int or a Fraction), got {type(value).__name__} "
        f"{value!r:.40}"
    )


@dataclass(frozen=True)
class ExactProbability(Domain):
    """A probability in [0, 1] (``positive``: in (0, 1]), given exactly: int or Fraction."""

    positive: bool = False
    clean: Fraction = Fraction(1, 2)

    def convert(self, value: Any, name: str) -> Fraction:
        x = exact_rational(value, name)
        if not (0 < x <= 1 if self.positive else 0 <= x <= 1):
            interval = "(0, 1]" if self.positive else "[0, 1]"
            raise ValueError(f"{name}: must be in {interval}, got {value!r}")
        return x

    def hostile(self) -> tuple[Any, ...]:
        out: list[Any] = [*super().hostile(), -1, 2, Fraction(-1, 2), Fraction(3, 2), 0.5, _NAN]
        out += [_INF, True, *_NOT_A_NUMBER]
        return (*out, Fraction(0)) if self.positive else tuple(out)

    def equivalents(self, clean: Any) -> tuple[Any, ...]:
        return (np.int64(clean),) if Fraction(clean).denominator == 1 else ()

    @property
    def example(self) -> Any:
        return None if self.optional else self.clean

    def describe(self) -> str:
        return (
            f"an exact probability (int or Fraction) in {'(0, 1]' if self.positive else '[0, 1]'}"
        )


@dataclass(frozen=True)
class ExactRatio(Domain):
    """A likelihood ratio e^ε ≥ 1 given exactly (int or Fraction), at most ``hi``."""

    hi: int = 2**64
    clean: Fraction = Fraction(2)

    def convert(self, value: Any, name: str) -> Fraction:
        x = exact_rational(value, name)
        if not 1 <= x <= self.hi:
            raise ValueError(f"{name}: must be a ratio e^epsilon in [1, 2^64], got {value!r}")
        return x

    def hostile(self) -> tuple[Any, ...]:
        out: list[Any] = [*super().hostile(), 0, Fraction(1, 2), -2, self.hi + 1, 2.0, _NAN]
        return (*out, _INF, True, *_NOT_A_NUMBER)

    def equivalents(self, clean: Any) -> tuple[Any, ...]:
        x = Fraction(clean)
        return (int(x), np.int64(int(x))) if x.denominator == 1 else ()

    @property
    def example(self) -> Any:
        return None if self.optional else self.clean

    def describe(self) -> str:
        return "an exact ratio e^epsilon (int or Fraction) in [1, 2^64]"


@dataclass(frozen=True)
class ExactReal(Domain):
    """A finite real in [``lo``, ``hi``] (``lo_open`` / ``hi_open``: that end excluded) kept
    exact: a float, an int, a ``Fraction`` or a numpy scalar becomes the ``Fraction`` it denotes
    (a float's binary value, exactly)."""

    lo: Fraction = Fraction(0)
    hi: Fraction = Fraction(MAX_EPSILON)
    lo_open: bool = False
    hi_open: bool = False
    clean: Fraction = Fraction(1, 2)

    def convert(self, value: Any, name: str) -> Fraction:
        x = exact_fraction(value, name)  # refuses bool, str, complex, NaN, ±inf
        low = x <= self.lo if self.lo_open else x < self.lo
        high = x >= self.hi if self.hi_open else x > self.hi
        if low or high:
            raise ValueError(f"{name}: must be in {self.interval()}, got {value!r}")
        return x

    def interval(self) -> str:
        left, right = "(" if self.lo_open else "[", ")" if self.hi_open else "]"
        return f"{left}{self.lo}, {self.hi}{right}"

    def hostile(self) -> tuple[Any, ...]:
        out: list[Any] = [*super().hostile(), _NAN, _INF, -_INF, True, *_NOT_A_NUMBER]
        out += [float(self.lo) - 1, float(self.hi) * 2 + 1, 1e300]
        out += [self.lo] if self.lo_open else []
        return (*out, self.hi) if self.hi_open else tuple(out)

    def equivalents(self, clean: Any) -> tuple[Any, ...]:
        x = Fraction(clean)
        out: list[Any] = []
        if float(x) == x:
            out += [float(x), np.float64(x)]
            if float(np.float32(float(x))) == x:
                out.append(np.float32(float(x)))
        if x.denominator == 1:
            out += [int(x), np.int64(int(x))]
        return tuple(out)

    @property
    def example(self) -> Any:
        return None if self.optional else self.clean

    def describe(self) -> str:
        return f"a real in {self.interval()} (kept exact)"


def _hashable(outcome: Any) -> bool:
    try:
        hash(outcome)
    except TypeError:
        return False
    return isinstance(outcome, Hashable)


@dataclass(frozen=True)
class FiniteLaw(Domain):
    """A finite output law: a non-empty mapping from hashable outcomes to exact probabilities
    (int or Fraction, ≥ 0) summing exactly to 1; as a dict of Fractions."""

    clean: tuple[tuple[Any, Fraction], ...] = ((0, Fraction(2, 3)), (1, Fraction(1, 3)))

    def convert(self, value: Any, name: str) -> dict[Any, Fraction]:
        if not isinstance(value, Mapping) or not value:
            raise InputTypeError(f"{name}: expected a non-empty mapping outcome -> probability")
        out: dict[Any, Fraction] = {}
        for outcome, p in value.items():
            if not _hashable(outcome):
                raise InputTypeError(f"{name}: outcome {outcome!r:.40} is not hashable")
            x = exact_rational(p, f"{name}[{outcome!r:.20}]")
            if x < 0:
                raise ValueError(f"{name}: probability of {outcome!r:.20} is {x}, not >= 0")
            out[outcome] = x
        total = sum(out.values(), Fraction(0))
        if total != 1:
            raise ValueError(f"{name}: probabilities sum to {total}, not exactly 1")
        return out

    def hostile(self) -> tuple[Any, ...]:
        return (
            *super().hostile(),
            {},
            {0: Fraction(1, 2)},
            {0: Fraction(-1, 2), 1: Fraction(3, 2)},
            {0: 0.5, 1: 0.5},
            {0: "1"},
            {0: True},
            "ab",
            [Fraction(1)],
            3,
        )

    @property
    def example(self) -> Any:
        return None if self.optional else dict(self.clean)

    def describe(self) -> str:
        return "a finite law: outcome -> exact probability, summing to 1"


@dataclass(frozen=True)
class Atoms(Domain):
    """The finite atoms of a privacy loss distribution: a sequence of pairs (ratio, mass) with
    ratios P(o)/Q(o) exact and > 0, strictly increasing, and masses exact in (0, 1]; as a
    tuple of pairs of Fractions (may be empty: all the mass at ∞)."""

    clean: tuple[tuple[Fraction, Fraction], ...] = (
        (Fraction(1, 2), Fraction(1, 3)),
        (Fraction(2), Fraction(2, 3)),
    )

    def convert(self, value: Any, name: str) -> tuple[tuple[Fraction, Fraction], ...]:
        if isinstance(value, str | bytes) or not isinstance(value, Sequence):
            raise InputTypeError(f"{name}: expected a sequence of (ratio, mass) pairs")
        out: list[tuple[Fraction, Fraction]] = []
        for i, pair in enumerate(value):
            if not isinstance(pair, Sequence) or isinstance(pair, str | bytes) or len(pair) != 2:
                raise InputTypeError(
                    f"{name}[{i}]: expected a pair (ratio, mass), got {pair!r:.40}"
                )
            ratio = exact_rational(pair[0], f"{name}[{i}]")
            mass = exact_rational(pair[1], f"{name}[{i}]")
            if ratio <= 0 or not 0 < mass <= 1:
                raise ValueError(
                    f"{name}[{i}]: a ratio > 0 and a mass in (0, 1], got ({ratio}, {mass})"
                )
            if out and ratio <= out[-1][0]:
                raise ValueError(f"{name}[{i}]: ratios must be strictly increasing")
            out.append((ratio, mass))
        return tuple(out)

    def hostile(self) -> tuple[Any, ...]:
        one = Fraction(1)
        return (
            *super().hostile(),
            "ab",
            3,
            [(one,)],
            [(0, one)],
            [(one, 0)],
            [(one, Fraction(3, 2))],
            [(2, Fraction(1, 2)), (one, Fraction(1, 2))],
            [(1.0, one)],
            [(_NAN, one)],
        )

    @property
    def example(self) -> Any:
        return None if self.optional else self.clean

    def describe(self) -> str:
        return "a sequence of (ratio, mass) pairs, ratios increasing"


#: The smallest bracket width an ε(δ) search accepts (each halving costs one exact δ).
MIN_WIDTH = Fraction(1, 2**64)

#: How a bracket width is declared: a real in [2^-64, 1], kept exact.
WIDTH_DOMAIN = ExactReal(lo=MIN_WIDTH, hi=Fraction(1), clean=Fraction(1, 2**20))

#: How a privacy level ε is declared: a real in [0, MAX_EPSILON], kept exact.
LEVEL_DOMAIN = ExactReal(lo=Fraction(0), hi=Fraction(MAX_EPSILON), clean=Fraction(1, 2))

#: How a target δ is declared: a real in [0, 1), kept exact.
TARGET_DOMAIN = ExactReal(lo=Fraction(0), hi=Fraction(1), hi_open=True, clean=Fraction(1, 10**3))
