"""Confidence bounds and the ε lower bound they certify.

One-sided Clopper–Pearson bounds for a binomial count (exact: P(p ≥ cp_lower) ≥ 1 − α), the
Wilson score bound used only to rank candidate events, and ε_LCB = ln((p₁⁻ − δ)/p₂⁺): if M is
(ε, δ)-DP on the pair and both bounds hold, ε_LCB ≤ ε (the CrossHair lemma
``dpspec.proofs.topics.audit.lemmas.lower_bound_sound``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import special


def cp_lower(k: Any, n: Any, alpha: float) -> NDArray[np.float64]:
    """One-sided Clopper–Pearson lower bound: P(p ≥ bound) ≥ 1 − alpha (0 when k = 0)."""
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    out = np.zeros(np.broadcast(k, n).shape)
    pos = np.broadcast_to(k > 0, out.shape)
    kk, nn = np.broadcast_to(k, out.shape), np.broadcast_to(n, out.shape)
    out[pos] = special.betaincinv(kk[pos], nn[pos] - kk[pos] + 1, alpha)
    return out


def cp_upper(k: Any, n: Any, alpha: float) -> NDArray[np.float64]:
    """One-sided Clopper–Pearson upper bound: P(p ≤ bound) ≥ 1 − alpha (1 when k = n)."""
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    return 1.0 - cp_lower(n - k, n, alpha)


#: candidates whose exact Clopper–Pearson bound is computed after the Wilson ranking
_EXACT_TOP = 64


def _wilson(k: Any, n: int, alpha: float, lower: bool) -> NDArray[np.float64]:
    """One-sided Wilson score bound (a fast proxy used only to rank candidate events)."""
    z = float(special.ndtri(1 - alpha))
    p = np.asarray(k, dtype=np.float64) / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return np.clip(centre - half if lower else centre + half, 0.0, 1.0)


def epsilon_lower(p1_lo: Any, p2_hi: Any, delta: float) -> NDArray[np.float64]:
    """ln((p₁⁻ − δ)/p₂⁺), −inf when p₁⁻ ≤ δ (no evidence)."""
    num = np.asarray(p1_lo, dtype=np.float64) - delta
    den = np.asarray(p2_hi, dtype=np.float64)
    out = np.full(np.broadcast(num, den).shape, -np.inf)
    ok = np.broadcast_to((num > 0) & (den > 0), out.shape)
    np.log(np.broadcast_to(num, out.shape), out=out, where=ok)
    out[ok] -= np.log(np.broadcast_to(den, out.shape)[ok])
    return out


def _plug_in(p1: float, p2: float, delta: float) -> float:
    """ln((p₁ − δ)/p₂) from point estimates: +inf when p₂ = 0 < p₁ − δ, −inf when p₁ ≤ δ."""
    if p1 - delta <= 0:
        return -math.inf
    return math.inf if p2 == 0 else math.log((p1 - delta) / p2)


def max_epsilon_lower(samples: int, confidence: float, delta: float = 0.0) -> float:
    """The largest ε_LCB an audit with ``samples`` draws per side can report: every draw on
    one side in the event, none on the other (p₁⁻ = (α/2)^{1/N}, p₂⁺ = 1 − (α/2)^{1/N})."""
    alpha = 1.0 - confidence
    return float(
        epsilon_lower(cp_lower(samples, samples, alpha / 2), cp_upper(0, samples, alpha / 2), delta)
    )
