"""The auditor's parameter domains (declared once, read by ``checked`` and the sweep)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray

from dpspec.validation import (
    MAX_AUDIT_SAMPLES,
    Domain,
    InputTypeError,
    Integer,
    Real,
    as_finite_array,
)

#: largest number of draws per side of an audit
MAX_SAMPLES = MAX_AUDIT_SAMPLES
#: largest ``selection`` (selection draws per side are held in memory)
MAX_SELECTION = 10**7


@dataclass(frozen=True)
class _Numbers(Domain):
    """A finite number in [0, ``hi``] or a non-empty array of them (``integer``: whole
    numbers), as a float64 array."""

    hi: float = math.inf
    integer: bool = False
    clean: Any = None

    def convert(self, value: Any, name: str) -> NDArray[np.float64]:
        if isinstance(value, bool | np.bool_) or (
            isinstance(value, np.ndarray) and value.dtype == np.bool_
        ):
            raise TypeError(f"{name}: expected numbers, got a bool")
        arr = as_finite_array(value, name).astype(np.float64)
        if np.any(arr < 0) or np.any(arr > self.hi):
            raise ValueError(f"{name}: must be in [0, {self.hi:g}], got {value!r}")
        if self.integer and np.any(arr != np.floor(arr)):
            raise ValueError(f"{name}: must be whole numbers, got {value!r}")
        return arr

    def hostile(self) -> tuple[Any, ...]:
        out: list[Any] = [None, math.nan, math.inf, -1.0, [0.5, -1.0], "1", 1 + 0j, True, []]
        out += [1e300] if math.isfinite(self.hi) else []
        out += [0.5, [1.5]] if self.integer else []
        return tuple(out)

    @property
    def example(self) -> Any:
        return self.clean

    def describe(self) -> str:
        kind = "whole number" if self.integer else "number"
        return f"a {kind} in [0, {self.hi:g}] or an array of them"


#: Counts: a whole number of draws (at most MAX_SAMPLES) or an array of them.
CountsArg = Annotated[Any, _Numbers(hi=float(MAX_SAMPLES), integer=True, clean=5)]
#: Probabilities: a number in [0, 1] or an array of them.
ProbabilitiesArg = Annotated[Any, _Numbers(hi=1.0, clean=0.5)]
#: A one-sided error level α in (0, 1).
ErrorLevelArg = Annotated[float, Real(0.0, 1.0, lo_open=True, hi_open=True, clean=0.05)]
#: A confidence level in (0, 1).
ConfidenceArg = Annotated[float, Real(0.0, 1.0, lo_open=True, hi_open=True, clean=0.95)]
#: Draws per side of an audit.
DrawsArg = Annotated[int, Integer(1, hi=MAX_SAMPLES, clean=1000)]
#: A seed for numpy.random.default_rng.
SeedArg = Annotated[int, Integer(0, clean=0)]


def _example_laplace(data: Any, n: int, rng: np.random.Generator) -> NDArray[np.float64]:
    """``data`` + Lap(1), n draws: 1-DP on the pair (0.0, 1.0) (the audits' clean call)."""
    return float(data) + rng.laplace(0.0, 1.0, size=n)


def _example_noise(data: Any, n: int, rng: np.random.Generator) -> NDArray[np.float64]:
    """Lap(1) ignoring ``data``: 0-DP, so every claim ε ≥ 0 holds (the clean call of
    ``assert_dp``, whose failure on a false claim is its purpose, not a refusal)."""
    return rng.laplace(0.0, 1.0, size=n)


@dataclass(frozen=True)
class _Target(Domain):
    """What the auditor samples: a callable (``f(data, n, rng)``, ``f(data, rng)``,
    ``f(data)``) or an object with ``.sample(data, n, rng)``; which form it is, and whether its
    outputs can be audited, is judged by ``as_mechanism`` and the draws."""

    def convert(self, value: Any, name: str) -> Any:
        if callable(value) or callable(getattr(value, "sample", None)):
            return value
        raise InputTypeError(
            f"{name}: expected a callable or an object with .sample(data, n, rng), got "
            f"{type(value).__name__}"
        )

    def hostile(self) -> tuple[Any, ...]:
        return (None, 3, "x", [1], object())

    @property
    def example(self) -> Any:
        return _example_laplace

    def describe(self) -> str:
        return "a mechanism: a callable or an object with .sample"


@dataclass(frozen=True)
class _Datasets(Domain):
    """A neighbouring pair (D, D'): a tuple or list of two datasets (their contents are the
    mechanism's to judge)."""

    clean: Any = (0.0, 1.0)

    def convert(self, value: Any, name: str) -> Any:
        if not (isinstance(value, tuple | list) and len(value) == 2):
            raise ValueError(f"{name}: expected (D, D'), two neighbouring datasets, got {value!r}")
        return value

    def hostile(self) -> tuple[Any, ...]:
        return (*super().hostile(), 3, "ab", (1.0,), (1.0, 2.0, 3.0), object())

    @property
    def example(self) -> Any:
        return self.clean

    def describe(self) -> str:
        return "a pair (D, D')"


@dataclass(frozen=True)
class _Samples(Domain):
    """Estimation draws per side: an integer in [1, MAX_SAMPLES], or "auto" (sized from the
    claim)."""

    clean: Any = 2000

    def convert(self, value: Any, name: str) -> Any:
        if isinstance(value, str):
            if value != "auto":
                raise ValueError(f"{name}: expected an integer or 'auto', got {value!r}")
            return value
        return Integer(1, hi=MAX_SAMPLES).convert(value, name)

    def hostile(self) -> tuple[Any, ...]:
        return (None, 0, -1, MAX_SAMPLES + 1, 1.5, math.nan, True, "many", [10])

    @property
    def example(self) -> Any:
        return self.clean

    def describe(self) -> str:
        return f"an integer in [1, {MAX_SAMPLES}] or 'auto'"


#: A mechanism to audit.
MechanismArg = Annotated[Any, _Target()]
#: A neighbouring pair, or None (then a search finds one).
OptionalPairArg = Annotated[Any, _Datasets(optional=True)]
#: The claimed ε: a finite real ≥ 0 (0 is a claim an audit can refute); None only when absent.
ClaimArg = Annotated[float | None, Real(0.0, optional=True, clean=1.0)]
#: Estimation draws per side or "auto".
SamplesArg = Annotated[int | str, _Samples()]


@dataclass(frozen=True)
class _Pairs(Domain):
    """Candidate neighbouring pairs: a non-empty list or tuple of pairs (D, D'), as a list."""

    def convert(self, value: Any, name: str) -> list[Any]:
        if not isinstance(value, list | tuple):
            raise InputTypeError(f"{name}: expected a list of pairs, got {type(value).__name__}")
        if not value:
            raise ValueError(f"{name}: no neighbouring pair given")
        for pair in value:
            _Datasets().convert(pair, name)
        return list(value)

    def hostile(self) -> tuple[Any, ...]:
        return (None, [], 3, "ab", [(1.0,)], [(0.0, 1.0), 5], object())

    @property
    def example(self) -> Any:
        return [(0.0, 1.0), (0.0, 2.0)]

    def describe(self) -> str:
        return "a non-empty list of pairs (D, D')"


#: Candidate pairs.
PairsArg = Annotated[list[Any], _Pairs()]


def _example_scores(included: NDArray[np.bool_], rng: np.random.Generator) -> NDArray[np.float64]:
    """Scores of a one-run audit's clean call: membership plus Lap(1) noise per canary."""
    return included.astype(np.float64) + rng.laplace(0.0, 1.0, size=included.shape)


def _example_classifier(random_state: int) -> Any:
    """The learner of the learner audits' clean calls: PCL at ε = 1 on [0, 1]² (a factory
    ``seed -> estimator``, also callable as an estimator class with ``random_state=``)."""
    from dpspec.learners.pcl import PrivateHistogramClassifier

    return PrivateHistogramClassifier(1.0, cells_per_axis=2, random_state=random_state)


#: (X, y) of a clean learner call: four points of [0, 1]², two labels.
_EXAMPLE_XY = (
    np.array([[0.1, 0.1], [0.2, 0.8], [0.8, 0.2], [0.9, 0.9]]),
    np.array([0, 1, 0, 1]),
)

#: A learner's training set or canaries: (X, y).
LabelledArg = Annotated[Any, _Datasets(clean=_EXAMPLE_XY)]
