"""The exponential mechanism (McSherry–Talwar 2007), with and without the ½.

Correct form: P(a) ∝ exp(ε·s(S, a)/(2Δ)) for a finite candidate set and a score with
per-candidate sensitivity Δ: both the numerator and the normaliser move by at most e^{ε/2},
so the ratio is ≤ e^ε (lemma ``exponential_log_weight_shift`` of the CrossHair layer).

The thesis prints the weights as exp(ε·s(S, a)) (``002_9f3104e4a0d86722.txt:L655``, with
Δ = 1 implicit) and calls that ε-DP: false, it is only 2ε-DP in general. ``half=False``
builds the printed mechanism so that the exact verifier can exhibit the violation (errata
registry, ``mechanisms.erratum.thesis-L655-exponential-half``).

Sampling is **exact**: candidate i is drawn with P(i) ∝ exp(−γ_i), γ_i = ε(max s − s_i)/(cΔ)
rational, by integer-only rejection (``categorical_exp_neg``), or with a rational base
q = e^{−ε/(cΔ)} by ``categorical_base``; c = 2 (correct) or 1 (as printed).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray

from dpspec.contract import PrivacyLevel, restrict
from dpspec.mechanisms.base import ScoresArg, check_base_loss, counts_by_value, epsilon_rational
from dpspec.noise import categorical_base, categorical_exp_gap, categorical_exp_neg
from dpspec.validation import (
    INT_BOUND,
    LIMITS,
    Checked,
    DataArg,
    FlagArg,
    GeneratorArg,
    Integer,
    OptionalBaseArg,
    OptionalEpsilonArg,
    Pair,
    SizeArg,
    as_finite_array,
    example,
    integer_output,
)


@example(
    every={"data": np.array([0, 1, 1, 2, 2, 2])},
    __init__={"scores": counts_by_value, "epsilon": 1.0},
    sample={"size": 5},
)
class ExponentialMechanism(Checked):
    """Pick one of K candidates with P(i) ∝ exp(ε·s_i/(2Δ)) (``half=True``, the correct form).

    ``scores(data)`` returns the K integer scores s(S, a_1..a_K); ``sensitivity`` Δ bounds
    |s(S, a) − s(S', a)| for neighbours, per candidate. ``idealised=True`` draws the candidate
    with floating-point weights (``Generator.choice``), which assumes ideal reals.
    """

    def __init__(
        self,
        scores: ScoresArg,
        sensitivity: Annotated[int, Integer(1)] = 1,
        epsilon: OptionalEpsilonArg = None,
        *,
        base: OptionalBaseArg = None,
        half: FlagArg = True,
        idealised: FlagArg = False,
    ) -> None:
        self.scores = scores
        self.sensitivity = sensitivity
        self.half = half
        self.idealised = idealised
        c = 2 if half else 1
        if (epsilon is None) == (base is None):
            raise ValueError("epsilon: give exactly one of epsilon or base")
        self._base: Fraction | None = None
        self._eps: Fraction | None = None
        self._num, self._den = 0, 1
        if base is not None:
            self._base = base
            check_base_loss(self._base, c * self.sensitivity)
            ratio = self._base ** (-c * self.sensitivity)
            self.privacy = PrivacyLevel(
                epsilon=math.log(ratio), ratio=ratio, delta=0, exact_sampler=not idealised
            )
        else:
            assert epsilon is not None
            self._eps = epsilon_rational(epsilon)
            # γ_i = gap_i·num/den with num/den = ε/(cΔ); den is drawn from, so it must stay
            # ≤ 2^62: beyond, the rate is rounded *down* (less concentrated, more private).
            num, den = self._eps.numerator, self._eps.denominator * c * self.sensitivity
            if den > INT_BOUND:
                rate = Fraction(num * 2**61 // den, 2**61)
                if rate == 0:
                    raise ValueError(
                        "sensitivity: epsilon/(2·sensitivity) is below 2^-61; rescale the scores"
                    )
                num, den = rate.numerator, rate.denominator
            self._num, self._den = num, den
            e = float(Fraction(num * c * self.sensitivity, den))
            self.privacy = PrivacyLevel(
                epsilon=e, ratio=math.exp(e), delta=0, exact_sampler=not idealised
            )
        self._c = c

    def score_vector(self, data: DataArg) -> NDArray[np.int64]:
        """The integer scores of all candidates on ``data`` (|s| < 2^62: gaps fit in int64)."""
        s = self.scores(as_finite_array(data, "data"))
        return integer_output(s, "scores", "a non-empty 1-D integer array")

    def sample(self, data: DataArg, size: SizeArg, rng: GeneratorArg) -> NDArray[np.int64]:
        """``size`` independent choices (candidate indices)."""
        n = size
        s = self.score_vector(data)
        if self.idealised:
            law = self.pmf(data)
            p = np.array([float(law[i]) for i in range(s.size)])
            return np.asarray(rng.choice(s.size, size=n, p=p / p.sum()), dtype=np.int64)
        if self._base is not None:
            return categorical_base(s.max() - s, self._base, n, rng)
        gap = s.max() - s  # < 2^63: scores are within ±2^62
        if int(gap.max()) * self._num < INT_BOUND:
            a, d = self._exponents(s)
            return categorical_exp_neg(a, d, n, rng)
        return categorical_exp_gap(gap, self._num, self._den, n, rng)

    def _exponents(self, s: NDArray[np.int64]) -> tuple[NDArray[Any], int]:
        """(a, d) with γ_i = a_i/d = ε(max s − s_i)/(cΔ) (int64 when it fits, else Python
        ints in an object array)."""
        gap = s.max() - s
        if int(gap.max()) * self._num < INT_BOUND:
            return gap * self._num, self._den
        return gap.astype(object) * self._num, self._den

    def pmf(
        self,
        data: DataArg,
        window: Annotated[tuple[int, int] | None, Pair(Integer(0), optional=True)] = None,
    ) -> dict[int, Fraction | float]:
        """Exact P(i) (Fractions with a rational base, floats otherwise), for the candidates
        i in ``window`` (inclusive; None: all)."""
        s = self.score_vector(data)
        gap = [int(g) for g in s.max() - s]
        if self._base is not None:
            if max(gap) > LIMITS["exponent"]:
                raise ValueError(
                    f"scores: score gaps up to {LIMITS['exponent']} for exact rational "
                    f"probabilities with a base, got {max(gap)}"
                )
            w: list[Fraction | float] = [self._base**g for g in gap]
        else:
            # γ = g·num/den as a Python-int ratio (no overflow); e^{-γ} is 0.0 beyond γ = 1000
            w = [
                math.exp(-(g * self._num) / self._den) if g * self._num <= 1000 * self._den else 0.0
                for g in gap
            ]
        total = sum(w)
        return restrict({i: wi / total for i, wi in enumerate(w)}, window)
