"""Sample compression (seed 002 ch. 3–4, ``002_9f3104e4a0d86722.txt:L553–565, L693–703``) as
predicates, and the weighted median / quantiles exactly as the thesis defines them.

For values y_1..y_T with weights α ≥ 0 (Σα > 0) and γ ∈ [0, ½):

    Median = min{y_j : Σ_t α_t 1[y_j < y_t]/Σα < ½}                 (the *upper* median)
    Q⁺_γ  = min{y_j : Σ_t α_t 1[y_j < y_t]/Σα < ½ − γ}
    Q⁻_γ  = max{y_j : Σ_t α_t 1[y_j > y_t]/Σα < ½ − γ}

(γ = ½ empties the sets.) Pure Python on ints/Fractions: the CrossHair layer proves the order
Q⁻_γ ≤ Median ≤ Q⁺_γ on these very functions. A compression scheme (κ, ρ) of size k keeps
κ(S) ⊆ S as a multiset plus side bits, stored points + bits ≤ k, and ρ(κ(S)) reproduces every
label (binary) or is within ε of every label (uniformly ε-approximate).
"""

from __future__ import annotations

import math
import numbers
from collections import Counter
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any

Number = int | Fraction


def _is_number(v: Any) -> bool:
    """A real number (int, Fraction, float, numpy scalar) that is finite; bool is not one."""
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        return False
    return isinstance(v, numbers.Rational) or math.isfinite(float(v))


def _check(values: Sequence[Any], weights: Sequence[Any], gamma: Any) -> Any:
    for name, seq in (("values", values), ("weights", weights)):
        if not hasattr(seq, "__len__") or not hasattr(seq, "__iter__"):
            raise TypeError(f"{name}: expected a sequence of numbers, got {type(seq).__name__}")
    if len(values) == 0 or len(values) != len(weights):
        raise ValueError(
            f"weights: one weight per value and at least one value, got {len(weights)} weights "
            f"for {len(values)} values"
        )
    if not all(_is_number(v) for v in values):
        raise ValueError("values: must be ints, Fractions or finite floats")
    if not all(_is_number(w) for w in weights):
        raise ValueError("weights: must be ints, Fractions or finite floats")
    if any(w < 0 for w in weights) or sum(weights) <= 0:
        raise ValueError("weights: must be >= 0 with a positive sum")
    if not _is_number(gamma) or not 0 <= gamma < Fraction(1, 2):
        raise ValueError(f"gamma: must be in [0, 1/2), got {gamma!r}")
    return sum(weights)


def _share_below(mass: Any, total: Any, gamma: Any) -> bool:
    """mass/total < ½ − γ, cross-multiplied (γ = p/q): 2q·mass < (q − 2p)·total."""
    p, q = (gamma.numerator, gamma.denominator) if isinstance(gamma, Fraction) else (gamma, 1)
    return bool(2 * q * mass < (q - 2 * p) * total)


def quantile_plus(values: Sequence[Any], weights: Sequence[Any], gamma: Any = 0) -> Any:
    """Q⁺_γ: the least value whose strictly-larger weight share is < ½ − γ."""
    total = _check(values, weights, gamma)
    best: Any = None
    for yj in values:
        above = sum(w for w, yt in zip(weights, values, strict=True) if yj < yt)
        if _share_below(above, total, gamma) and (best is None or yj < best):
            best = yj
    return best


def quantile_minus(values: Sequence[Any], weights: Sequence[Any], gamma: Any = 0) -> Any:
    """Q⁻_γ: the greatest value whose strictly-smaller weight share is < ½ − γ."""
    total = _check(values, weights, gamma)
    best: Any = None
    for yj in values:
        below = sum(w for w, yt in zip(weights, values, strict=True) if yj > yt)
        if _share_below(below, total, gamma) and (best is None or yj > best):
            best = yj
    return best


def weighted_median(values: Sequence[Any], weights: Sequence[Any]) -> Any:
    """Median(y; α) = Q⁺_0 (the upper median: Median(0, 1; 1, 1) = 1)."""
    return quantile_plus(values, weights, 0)


def is_submultiset(kept: Sequence[Hashable], sample: Sequence[Hashable]) -> bool:
    """κ(S) ⊆ S as multisets (a point may be kept at most as often as it occurs)."""
    have = Counter(sample)
    return all(have[item] >= count for item, count in Counter(kept).items())


def size_within(stored_points: int, side_bits: int, k: int) -> bool:
    """Stored points + side bits ≤ k."""
    return stored_points >= 0 and side_bits >= 0 and stored_points + side_bits <= k


def reconstructs_exactly(predictions: Sequence[Any], labels: Sequence[Any]) -> bool:
    """ρ(κ(S))(x_i) = y_i at every sample point."""
    return len(predictions) == len(labels) and all(
        p == y for p, y in zip(predictions, labels, strict=True)
    )


def uniformly_approximates(predictions: Sequence[Any], targets: Sequence[Any], eps: Any) -> bool:
    """max_i |ρ(κ(S))(x_i) − y_i| ≤ ε (uniformly ε-approximate reconstruction)."""
    return len(predictions) == len(targets) and all(
        abs(p - y) <= eps for p, y in zip(predictions, targets, strict=True)
    )


# ---------------------------------------------------------------------------------------------
# The rules of the weak learners' hypotheses (seed 002 ch. 4, L530–1181): closed ends


def threshold_rule(t: Any, x: Any) -> int:
    """1[x ≥ t]: the threshold hypothesis, closed at t (t = +∞: always 0)."""
    return int(x >= t)


def interval_rule(a: Any, b: Any, x: Any) -> int:
    """1[a ≤ x ≤ b]: the interval hypothesis, both ends closed (a > b: the empty interval)."""
    return int(a <= x <= b)


def box_rule(lo: Sequence[Any] | None, hi: Sequence[Any] | None, x: Sequence[Any]) -> int:
    """1[lo ≤ x ≤ hi coordinate-wise]: the closed axis-aligned box (``lo`` None: empty)."""
    if lo is None or hi is None:
        return 0
    return int(all(a <= v <= b for a, v, b in zip(lo, x, hi, strict=True)))


def step_rule(points: Sequence[Any], values: Sequence[Any], q: Any) -> Any:
    """The right-continuous step function through (points, values) sorted by point: the value
    of the last point ≤ q, the first value before the first point."""
    order = sorted(range(len(points)), key=lambda i: (points[i], i))
    out = values[order[0]]
    for i in order:
        if points[i] <= q:
            out = values[i]
    return out


def empirical_mistakes(predictions: Sequence[Any], labels: Sequence[Any]) -> int:
    """The score an ERM minimises: the number of sample points whose label the hypothesis
    gets wrong."""
    return sum(p != y for p, y in zip(predictions, labels, strict=True))
