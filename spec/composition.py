"""Composition of differentially private mechanisms (thesis Sec 3.2, ``002_9f3104e4a0d86722.txt``).

* Basic composition: k mechanisms, each (ε, δ)-DP, run on the same data (adaptively chosen)
  are (kε, kδ)-DP.
* Advanced composition (Dwork–Rothblum–Vadhan 2010): for every δ' ∈ (0, 1) they are
  (ε', kδ + δ')-DP with ε' = ε·√(2k·ln(1/δ')) + k·ε·(e^ε − 1); for ε ≤ 1 this is at most
  ε·√(2k·ln(1/δ')) + 2kε² (e^ε − 1 ≤ 2ε on [0, 1]). The thesis prints the square root as
  √(sk…) (``002_9f3104e4a0d86722.txt:L647``): the factor is 2k.

These are real-valued bounds (they involve e^ε, ln, √), evaluated in floating point and rounded
*up* by one ulp so a computed ε' is never below the true bound; :func:`per_step_epsilon`
rounds *down*, so a per-step level it returns never overshoots the target.
"""

from __future__ import annotations

import math


def _check(epsilon: float, k: int, delta_prime: float | None = None) -> None:
    if not (isinstance(k, int) and not isinstance(k, bool)) or k < 1:
        raise ValueError(f"k: a positive number of compositions, got {k!r}")
    if not (math.isfinite(epsilon) and epsilon >= 0):
        raise ValueError(f"epsilon: must be finite and >= 0, got {epsilon!r}")
    if delta_prime is not None and not 0 < delta_prime < 1:
        raise ValueError(f"delta_prime: must be in (0, 1), got {delta_prime!r}")


def advanced_composition(
    epsilon: float, delta: float, k: int, delta_prime: float
) -> tuple[float, float]:
    """(ε', kδ + δ') with ε' = ε√(2k ln(1/δ')) + kε(e^ε − 1) (Dwork–Rothblum–Vadhan)."""
    _check(epsilon, k, delta_prime)
    eps = epsilon * math.sqrt(2 * k * math.log(1 / delta_prime)) + k * epsilon * math.expm1(epsilon)
    return math.nextafter(eps, math.inf), min(1.0, k * delta + delta_prime)


def advanced_composition_simple(epsilon: float, k: int, delta_prime: float) -> float:
    """ε√(2k ln(1/δ')) + 2kε², an upper bound on the advanced ε' valid for ε ≤ 1."""
    _check(epsilon, k, delta_prime)
    if epsilon > 1:
        raise ValueError(f"epsilon: the simple form needs epsilon <= 1, got {epsilon!r}")
    eps = epsilon * math.sqrt(2 * k * math.log(1 / delta_prime)) + 2 * k * epsilon**2
    return math.nextafter(eps, math.inf)


def per_step_epsilon(target: float, k: int, delta_prime: float) -> float:
    """The largest ε₀ (up to 2^-40 relative) whose k-fold advanced composition has ε' ≤ target.

    ε' is increasing in ε₀, so bisection on [0, target] finds it; the result is the lower end of
    the final bracket, so ``advanced_composition(result, ·, k, delta_prime)[0] <= target``.
    """
    _check(target, k, delta_prime)
    if target == 0:
        return 0.0
    lo, hi = 0.0, target
    while hi - lo > target * 2.0**-40:
        mid = (lo + hi) / 2
        if advanced_composition(mid, 0.0, k, delta_prime)[0] <= target:
            lo = mid
        else:
            hi = mid
    return lo


def randomized_response_composition_delta(epsilon: float, k: int, target: float) -> float:
    """The exact δ(ε') of the k-fold composition of ε-randomized response — the worst case for
    k pure ε-DP mechanisms (Kairouz–Oh–Viswanath 2015): with p = e^ε/(1 + e^ε) and l the number
    of flipped answers, δ = Σ_l C(k, l) max(0, p^{k−l}(1−p)^l − e^{ε'} p^l (1−p)^{k−l})
    (log-space terms, floats)."""
    _check(epsilon, k)
    log_p = epsilon - math.log1p(math.exp(epsilon))
    log_q = -math.log1p(math.exp(epsilon))
    total = 0.0
    for flipped in range(k + 1):
        log_c = math.lgamma(k + 1) - math.lgamma(flipped + 1) - math.lgamma(k - flipped + 1)
        a = log_c + (k - flipped) * log_p + flipped * log_q
        b = log_c + flipped * log_p + (k - flipped) * log_q + target
        if a > b:
            total += math.exp(a) * -math.expm1(b - a)
    return total


def renyi_divergence(
    p: list[float], q: list[float], order: float, *, printed: bool = False
) -> float:
    """D_α(P ‖ Q) = (1/(α − 1)) ln Σ p_i^α q_i^{1−α} (α > 1); ``printed`` uses the thesis's
    1/(1 − α) (``002_9f3104e4a0d86722.txt:L420``), which makes the divergence negative."""
    if order <= 1:
        raise ValueError(f"order: must be > 1, got {order!r}")
    total = sum(pi**order * qi ** (1 - order) for pi, qi in zip(p, q, strict=True) if pi > 0)
    return math.log(total) / ((1 - order) if printed else (order - 1))
