"""The auditor's parameter domains (declared once, read by ``checked`` and the sweep)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray

from dpspec.validation import Domain, Integer, Real, as_finite_array

#: largest number of draws per side of an audit
MAX_SAMPLES = 10**10


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
AlphaArg = Annotated[float, Real(0.0, 1.0, lo_open=True, hi_open=True, clean=0.05)]
#: A confidence level in (0, 1).
ConfidenceArg = Annotated[float, Real(0.0, 1.0, lo_open=True, hi_open=True, clean=0.95)]
#: Draws per side of an audit.
DrawsArg = Annotated[int, Integer(1, hi=MAX_SAMPLES, clean=1000)]
#: A seed for numpy.random.default_rng.
SeedArg = Annotated[int, Integer(0, clean=0)]
