"""The Laplace mechanism (seed 000 Def 2.2, Thm 2.3, ``000_dff3c4dc97cf0e21.txt:L119–121``).

M(S) = f(S) + (Lap(Δ/ε), …) for a query f: data → ℝ^k of L1 global sensitivity Δ (Def 2.1,
L117). Privacy: the log density ratio at y is Σ_j (|y_j − a'_j| − |y_j − a_j|)/b ≤ ‖a − a'‖₁/b
≤ Δ/b = ε (lemma ``laplace_loss_bound`` of the CrossHair layer).

Two numeric paths:

* default, **exact** (float-safe): snap f(S) to the lattice γℤ with γ = 2^k chosen from Δ only
  (public), add exact discrete Laplace noise on the lattice and scale back. Snapping moves each
  value by ≤ γ/2, so the lattice values of neighbours differ by ≤ Δ/γ + 1 per coordinate in
  L1 (Δ/γ + k over k coordinates): the noise scale is calibrated to that lattice sensitivity
  and the guarantee holds for the floating-point outputs actually released (they are exact
  multiples of γ). Same idea as OpenDP's integer-lattice Laplace.
* ``idealised=True``: ``numpy`` continuous Laplace noise added in floating point. Its proof
  assumes ideal reals; the set of floats it can output depends on f(S) (Mironov 2012), so
  the guarantee is not exact. Kept for comparison with the papers and for attacks.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Annotated

import numpy as np
from numpy.typing import NDArray

from dpspec.contract import PrivacyLevel
from dpspec.mechanisms.base import (
    RealQueryArg,
    discrete_laplace_for,
    epsilon_rational,
    mean_value,
)
from dpspec.noise import laplace_sf
from dpspec.validation import (
    Checked,
    DataArg,
    EpsilonArg,
    FlagArg,
    GeneratorArg,
    Integer,
    Real,
    SizeArg,
    as_finite_array,
    check_limit,
    example,
    rational_at_least,
)

#: Lattice spacing relative to the sensitivity: γ = 2^(⌊log2 Δ⌋ − LATTICE_BITS).
LATTICE_BITS = 20
#: Sensitivities accepted: γ stays a normal float (≥ 2^-1020) and Δ/ε stays finite.
MIN_SENSITIVITY = 2.0**-1000
MAX_SENSITIVITY = 2.0**900
#: Largest |f(S)| released (the noisy sum stays finite in float64).
MAX_QUERY = 2.0**1000

#: The declared L1 sensitivity Δ of the query: a real in [2^-1000, 2^900].
SensitivityArg = Annotated[float, Real(MIN_SENSITIVITY, MAX_SENSITIVITY, clean=1.0)]
#: Coordinates of the query's value.
DimensionArg = Annotated[int, Integer(1, limit="draws", clean=1)]
#: A threshold t of P(M(S) > t) (±inf allowed: the probability is then 0 or 1).
ThresholdArg = Annotated[float, Real(clean=0.5, infinite=True)]


@example(
    every={"data": np.array([0.0, 1.0, 1.0, 0.0, 1.0])},
    __init__={"query": mean_value, "sensitivity": 0.2, "epsilon": 1.0},
    sample={"size": 5},
    sf={"t": 0.5},
)
class LaplaceMechanism(Checked):
    """f(S) + Laplace noise of scale Δ/ε per coordinate; exact lattice sampler by default."""

    def __init__(
        self,
        query: RealQueryArg,
        sensitivity: SensitivityArg,
        epsilon: EpsilonArg,
        *,
        dimension: DimensionArg = 1,
        idealised: FlagArg = False,
    ) -> None:
        self.query = query
        self.sensitivity = sensitivity
        self.epsilon = float(epsilon_rational(epsilon))
        self.dimension = dimension
        self.idealised = idealised
        self.granularity = 2.0 ** (math.floor(math.log2(self.sensitivity)) - LATTICE_BITS)
        if idealised:
            self.scale = self.sensitivity / self.epsilon
            self.privacy = PrivacyLevel(
                epsilon=self.epsilon, ratio=math.exp(self.epsilon), delta=0, exact_sampler=False
            )
        else:
            lattice_sensitivity = (
                rational_at_least(self.sensitivity, "sensitivity") / Fraction(self.granularity)
                + self.dimension
            )
            self.noise, self.privacy = discrete_laplace_for(
                lattice_sensitivity, epsilon_rational(epsilon), None
            )
            assert self.noise.scale is not None
            self.scale = float(self.noise.scale) * self.granularity

    def value(self, data: DataArg) -> NDArray[np.float64]:
        """The query value f(S) as a 1-D float array of length ``dimension``."""
        arr = as_finite_array(data, "data")
        raw = self.query(arr)
        try:
            v = np.atleast_1d(np.asarray(raw, dtype=np.float64))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"query: must return real numbers, got {raw!r:.60}") from exc
        if v.shape != (self.dimension,):
            raise ValueError(f"query: expected {self.dimension} value(s), got shape {v.shape}")
        if not np.all(np.isfinite(v)):
            raise ValueError("query: returned NaN or infinite values")
        if np.any(np.abs(v) > MAX_QUERY):
            raise ValueError("query: |f(S)| must be <= 2^1000 (the noisy output must stay finite)")
        return v

    def lattice_value(self, data: DataArg) -> NDArray[np.int64]:
        """f(S) snapped to the nearest multiple of γ, in units of γ (exact: γ is a power of 2)."""
        v = self.value(data)
        top = float(np.max(np.abs(v)))
        if top >= 2.0**52 * self.granularity:
            raise ValueError(
                f"query: |f(S)| = {top:.4g} is too large for the lattice of spacing "
                f"γ = {self.granularity:.4g} set by sensitivity={self.sensitivity!r} "
                f"(|f(S)| must be < 2^52·γ = {2.0**52 * self.granularity:.4g}, about "
                "2^32·sensitivity)"
            )
        return np.rint(v / self.granularity).astype(np.int64)

    def sample(self, data: DataArg, size: SizeArg, rng: GeneratorArg) -> NDArray[np.float64]:
        """``size`` independent outputs: shape (size,) when dimension is 1, else
        (size, dimension)."""
        n, k = size, self.dimension
        check_limit(n * k, "size", "draws")  # size × dimension values
        if self.idealised:
            out = self.value(data)[None, :] + rng.laplace(0.0, self.scale, size=(n, k))
        else:
            lattice = self.lattice_value(data)[None, :] + self.noise.sample(n * k, rng).reshape(
                n, k
            )
            out = lattice.astype(np.float64) * self.granularity
        return out[:, 0] if k == 1 else out

    def sf(self, data: DataArg, t: ThresholdArg) -> float:
        """P(M(S) > t) for a scalar query (idealised continuous path; the lattice path is
        the discrete Laplace survival function at the lattice point above t)."""
        if self.dimension != 1:
            raise ValueError("dimension: sf is for scalar queries")
        if math.isinf(t):
            return 0.0 if t > 0 else 1.0
        if self.idealised:
            return laplace_sf(t - float(self.value(data)[0]), self.scale)
        units = max(-(2.0**62), min(t / self.granularity, 2.0**62))  # beyond: sf is 0 or 1
        k = math.floor(units) + 1 - int(self.lattice_value(data)[0])
        return float(self.noise.sf(k))
