"""The parts of the bug zoo every zoo module builds on: the sampler type and its builders'
record, a zoo entry, the scale domain, and the exact ε of the Gaussian mechanism (Balle–Wang
2018) that the zoo's true-ε column uses."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray
from scipy import special

from dpspec.validation import PositiveDeltaArg, Real, checked

__all__ = ["Sampler", "ScaleArg", "ZooEntry", "gaussian_epsilon"]

Sampler = Callable[[Any, int, np.random.Generator], NDArray[Any]]

#: A noise scale (b of Lap(b), σ of N(0, σ²)): a positive real.
ScaleArg = Annotated[float, Real(0.0, lo_open=True)]


class _Sampler:
    """A vectorised sampler ``run(data, n, rng)`` built by one of the builders below; ``kind``
    and ``params`` name it (two builds from the same arguments compare equal through them)."""

    def __init__(
        self, kind: str, params: dict[str, Any], run: Callable[[Any, int, np.random.Generator], Any]
    ) -> None:
        self.kind = kind
        self.params = params
        self._run = run

    def __call__(self, data: Any, n: int, rng: np.random.Generator) -> Any:
        return self._run(data, n, rng)

    def __repr__(self) -> str:
        return f"{self.kind}({', '.join(f'{k}={v!r}' for k, v in self.params.items())})"


@dataclass(frozen=True)
class ZooEntry:
    """A mechanism, the pair it is audited on, its claim and its true ε on that pair."""

    __dpspec_declarative__ = "a record of the bug zoo (what zoo() returns)"

    name: str
    mechanism: Any
    pair: tuple[Any, Any] | None  # None: the audit searches for one (``options`` has search)
    epsilon: float
    delta: float
    true_epsilon: float
    correct: bool
    why: str
    options: tuple[tuple[str, Any], ...] = ()  # extra audit() arguments, e.g. float_bits
    #: draws per side its verdict needs (a leak of probability p: ≈ 30/p; 5·10^4 decides most)
    samples: int = 5 * 10**4

    def audit_options(self) -> dict[str, Any]:
        return dict(self.options)


@checked
def gaussian_epsilon(
    sigma: ScaleArg, delta: PositiveDeltaArg, sensitivity: ScaleArg = 1.0
) -> float:
    """Exact ε of the Gaussian mechanism at δ (Balle–Wang 2018): the smallest ε with
    Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ) ≤ δ (bisection to 1e-12; e^ε Φ(·) as
    exp(ε + ln Φ(·)), finite for every ε)."""

    def excess(eps: float) -> float:
        a, b = sensitivity / (2 * sigma), eps * sigma / sensitivity
        tail = math.exp(eps + float(special.log_ndtr(-a - b)))
        return float(special.ndtr(a - b)) - tail - delta

    lo, hi = 0.0, 1.0
    while excess(hi) > 0:
        hi *= 2
    while hi - lo > 1e-12:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if excess(mid) > 0 else (lo, mid)
    return hi
