"""Parameter domains of the adaptive-data-analysis family (declared beside the parameters by the
aliases of ``game``, ``measures`` and ``deviating``).

Each domain checks and converts one parameter the way :mod:`dpspec.validation.domains` does:
a value outside it is a ``ValueError`` / ``TypeError`` naming the parameter, before any work.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.validation import (
    LIMITS,
    Array,
    Domain,
    InputTypeError,
    as_finite_array,
    bounded_int_array,
    exact_fraction,
)

_NAN = float("nan")

#: Relative tolerance of a float probability vector's total (it must sum to 1).
SUM_TOLERANCE = 1e-9


def _is_real(v: Any) -> bool:
    return not isinstance(v, (bool, np.bool_)) and isinstance(
        v, (int, float, Fraction, np.integer, np.floating)
    )


@dataclass(frozen=True)
class _ProbabilityVector(Array):
    """A law on Ω = {0..m−1}: a non-empty 1-D array of finite reals ≥ 0 summing to 1 (within
    ``SUM_TOLERANCE``), as float64."""

    def convert(self, value: Any, name: str) -> NDArray[np.float64]:
        arr = as_finite_array(value, name, ndim=1)
        if arr.dtype == np.bool_:
            raise InputTypeError(f"{name}: expected probabilities, got booleans")
        p = arr.astype(np.float64)
        if np.any(p < 0):
            raise ValueError(f"{name}: probabilities must be >= 0, got {value!r:.80}")
        total = math.fsum(p.tolist())
        if abs(total - 1.0) > SUM_TOLERANCE:
            raise ValueError(f"{name}: probabilities must sum to 1, they sum to {total!r}")
        return p

    def hostile(self) -> tuple[Any, ...]:
        return (*super().hostile(), [-0.5, 1.5], [0.5, 0.6], [0.25] * 3, [True, False])

    def describe(self) -> str:
        return "a probability vector (a 1-D array of reals >= 0 summing to 1)"


@dataclass(frozen=True)
class _Counts(Array):
    """A histogram: a non-empty 1-D array of integers ≥ 0 with a positive total, as int64."""

    def convert(self, value: Any, name: str) -> NDArray[np.int64]:
        arr = as_finite_array(value, name, ndim=1)
        counts = bounded_int_array(arr, name)
        if np.any(counts < 0) or int(counts.sum()) < 1:
            raise ValueError(
                f"{name}: expected counts >= 0 with a positive total, got {value!r:.80}"
            )
        return counts

    def hostile(self) -> tuple[Any, ...]:
        return (*super().hostile(), [-1, 2], [0, 0], [1.5, 2])

    def describe(self) -> str:
        return "a histogram (a 1-D array of integer counts >= 0, not all 0)"


@dataclass(frozen=True)
class _BlockCounts(Array):
    """Histograms of k disjoint blocks: a 2-D array of integers ≥ 0 whose every row (block) has
    at least one record, as int64."""

    def convert(self, value: Any, name: str) -> NDArray[np.int64]:
        arr = as_finite_array(value, name, ndim=2)
        counts = bounded_int_array(arr, name)
        if np.any(counts < 0):
            raise ValueError(f"{name}: counts must be >= 0")
        if np.any(counts.sum(axis=1) < 1):
            raise ValueError(f"{name}: every block must hold at least one record")
        return counts

    def hostile(self) -> tuple[Any, ...]:
        return (*super().hostile(), [[-1, 2]], [[0, 0], [1, 1]], [[_NAN, 1, 1, 1]])

    def describe(self) -> str:
        return "block histograms (a 2-D array of integer counts >= 0, every row non-empty)"


@dataclass(frozen=True)
class _Potential(Array):
    """A potential g: Ω × Ω → (0, ∞): a square 2-D array of finite positive reals, as float64
    (at most ``LIMITS["cells"]`` entries)."""

    def convert(self, value: Any, name: str) -> NDArray[np.float64]:
        arr = as_finite_array(value, name, ndim=2)
        if arr.dtype == np.bool_:
            raise InputTypeError(f"{name}: expected positive reals, got booleans")
        g = arr.astype(np.float64)
        if g.shape[0] != g.shape[1]:
            raise ValueError(f"{name}: expected a square matrix, got shape {g.shape}")
        if g.size > LIMITS["cells"]:
            raise ValueError(f"{name}: at most {LIMITS['cells']} entries, got {g.size}")
        if np.any(g <= 0) or not np.all(np.isfinite(g)):
            raise ValueError(f"{name}: expected a square matrix of positive finite numbers")
        return g

    def hostile(self) -> tuple[Any, ...]:
        return (
            *super().hostile(),
            [[1.0, -1.0], [1.0, 1.0]],
            [[1.0, 2.0, 3.0]],
            [[0.0, 1.0], [1, 1]],
        )

    def describe(self) -> str:
        return "a square matrix of positive finite numbers"


@dataclass(frozen=True)
class _QueryMask(Domain):
    """A statistical query q: Ω → {0, 1} as a non-empty 1-D boolean mask (booleans, or the
    integers 0 and 1)."""

    def convert(self, value: Any, name: str) -> NDArray[np.bool_]:
        if value is None or isinstance(value, (str, bytes, Mapping)):
            raise InputTypeError(f"{name}: expected a 1-D boolean mask over Ω, got {value!r:.60}")
        try:
            arr = np.asarray(value)
        except Exception as exc:
            raise InputTypeError(f"{name}: cannot be read as a boolean mask ({exc})") from exc
        if arr.ndim != 1 or arr.size == 0:
            raise ValueError(
                f"{name}: expected a non-empty 1-D boolean mask, got shape {arr.shape}"
            )
        if arr.dtype == np.bool_:
            return arr
        if np.issubdtype(arr.dtype, np.integer) and np.all((arr == 0) | (arr == 1)):
            return arr.astype(np.bool_)
        raise ValueError(f"{name}: expected booleans (or 0/1), got dtype {arr.dtype}")

    def hostile(self) -> tuple[Any, ...]:
        return (*super().hostile(), [], [0.5, 1.0], [2, 0], [[True]], "ab", [_NAN], 3, {"a": 1})

    @property
    def example(self) -> Any:
        return None if self.optional else np.array([True, False, True, False])

    def describe(self) -> str:
        return "a 1-D boolean mask over Ω"


@dataclass(frozen=True)
class _Answers(Domain):
    """The answers given so far: a (possibly empty) 1-D sequence of finite reals, as a float64
    array (read in one vectorised pass: the game passes it every round)."""

    def convert(self, value: Any, name: str) -> NDArray[np.float64]:
        if isinstance(value, (str, bytes, Mapping)) or not isinstance(
            value, (Sequence, np.ndarray)
        ):
            raise InputTypeError(
                f"{name}: expected a sequence of reals, got {type(value).__name__}"
            )
        try:
            arr = np.asarray(value)
        except Exception as exc:
            raise InputTypeError(f"{name}: cannot be read as reals ({exc})") from exc
        if arr.size == 0:
            return np.zeros(0, dtype=np.float64)
        if arr.ndim != 1:
            raise ValueError(f"{name}: expected a 1-D sequence, got shape {arr.shape}")
        if arr.dtype == np.bool_ or not (
            np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)
        ):
            raise InputTypeError(f"{name}: expected real numbers, got dtype {arr.dtype}")
        out = arr.astype(np.float64)
        if not np.all(np.isfinite(out)):
            raise ValueError(f"{name}: contains NaN or infinite values")
        return out

    def hostile(self) -> tuple[Any, ...]:
        return (*super().hostile(), [_NAN], [float("inf")], "ab", [[0.5]], [True], 3.0, {"a": 1})

    @property
    def example(self) -> Any:
        return None if self.optional else []

    def describe(self) -> str:
        return "a sequence of real answers"


@dataclass(frozen=True)
class _Probability(Domain):
    """A probability ψ ∈ [0, 1] kept exact: a ``Fraction`` (floats and numpy reals converted
    without rounding)."""

    clean: Fraction = Fraction(1, 2)

    def convert(self, value: Any, name: str) -> Fraction:
        x = exact_fraction(value, name)
        if not 0 <= x <= 1:
            raise ValueError(f"{name}: must be in [0, 1], got {value!r}")
        return x

    def hostile(self) -> tuple[Any, ...]:
        return (*super().hostile(), -1, 2, -0.5, 1.5, _NAN, float("inf"), True, "0.5", 1 + 0j)

    def equivalents(self, clean: Any) -> tuple[Any, ...]:
        return (
            (float(clean), np.float64(clean), np.float32(clean)) if clean == Fraction(1, 2) else ()
        )

    @property
    def example(self) -> Any:
        return None if self.optional else self.clean

    def describe(self) -> str:
        return "a probability in [0, 1]"


@dataclass(frozen=True)
class _ExactLaw(Domain):
    """A law on Ω = {0..m−1} in exact arithmetic: a non-empty sequence of reals ≥ 0 (Fractions,
    or floats converted without rounding) whose exact sum is 1, as a list of Fractions."""

    clean: tuple[Fraction, ...] = (Fraction(1, 4), Fraction(1, 4), Fraction(1, 2))

    def convert(self, value: Any, name: str) -> list[Fraction]:
        if isinstance(value, np.ndarray):
            value = value.tolist()
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or not value:
            raise InputTypeError(f"{name}: expected a non-empty sequence of probabilities")
        p = [exact_fraction(v, f"{name}[{i}]") for i, v in enumerate(value)]
        if any(v < 0 for v in p) or sum(p) != 1:
            raise ValueError(
                f"{name}: expected values >= 0 summing exactly to 1, got {value!r:.80}"
            )
        return p

    def hostile(self) -> tuple[Any, ...]:
        return (
            *super().hostile(),
            [],
            [Fraction(1, 2), Fraction(1, 3)],
            [Fraction(-1, 2), Fraction(3, 2)],
            [_NAN, 1.0],
            "ab",
            3,
        )

    @property
    def example(self) -> Any:
        return None if self.optional else list(self.clean)

    def describe(self) -> str:
        return "a sequence of exact probabilities summing to 1"


@dataclass(frozen=True)
class _SampleLaw(Domain):
    """A law μ on Ω^n: a non-empty mapping from n-tuples of integers ≥ 0 (one n for all) to
    probabilities ≥ 0 summing to 1 (within ``SUM_TOLERANCE``); kept as given (Fractions stay
    exact). The values' range is the caller's cross-check."""

    def convert(self, value: Any, name: str) -> dict[tuple[int, ...], Any]:
        if not isinstance(value, Mapping) or not value:
            raise InputTypeError(
                f"{name}: expected a non-empty mapping from samples to probabilities"
            )
        out: dict[tuple[int, ...], Any] = {}
        length = None
        total = Fraction(0)
        for sample, p in value.items():
            if (
                not isinstance(sample, tuple)
                or not sample
                or not all(
                    isinstance(v, (int, np.integer))
                    and not isinstance(v, (bool, np.bool_))
                    and v >= 0
                    for v in sample
                )
            ):
                raise ValueError(f"{name}: keys must be non-empty tuples of integers >= 0")
            if length is None:
                length = len(sample)
            if len(sample) != length:
                raise ValueError(f"{name}: every sample must have the same length {length}")
            x = exact_fraction(p, f"{name}[{sample}]")
            if x < 0:
                raise ValueError(f"{name}: probabilities must be >= 0")
            total += x
            out[tuple(int(v) for v in sample)] = p
        if abs(total - 1) > SUM_TOLERANCE:
            raise ValueError(f"{name}: probabilities must sum to 1, they sum to {float(total)!r}")
        return out

    def hostile(self) -> tuple[Any, ...]:
        return (
            *super().hostile(),
            {},
            {(0,): 0.5},
            {(0,): _NAN},
            {(0,): 0.5, (1, 1): 0.5},
            {(-1,): 1.0},
            {"a": 1.0},
            [((0,), 1.0)],
            3,
        )

    @property
    def example(self) -> Any:
        return None if self.optional else {(0, 0): 0.25, (0, 1): 0.25, (1, 0): 0.25, (1, 1): 0.25}

    def describe(self) -> str:
        return "a law on samples (a mapping from equal-length tuples to probabilities)"


@dataclass(frozen=True)
class _Predicate(Domain):
    """A predicate h: Ω → {0, 1} as a non-empty tuple of 0/1 integers (h(v) for v ∈ Ω)."""

    def convert(self, value: Any, name: str) -> tuple[int, ...]:
        if isinstance(value, np.ndarray):
            value = value.tolist()
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or not value:
            raise InputTypeError(f"{name}: expected a non-empty sequence of 0/1 values")
        if not all(
            isinstance(v, (int, np.integer, bool, np.bool_)) and int(v) in (0, 1) for v in value
        ):
            raise ValueError(f"{name}: expected values 0 or 1, got {value!r:.60}")
        return tuple(int(v) for v in value)

    def hostile(self) -> tuple[Any, ...]:
        return (*super().hostile(), (), (0, 2), (0.5, 1), "01", 3, [_NAN])

    @property
    def example(self) -> Any:
        return None if self.optional else (1, 0, 1)

    def describe(self) -> str:
        return "a predicate (a tuple of 0/1 values over Ω)"
