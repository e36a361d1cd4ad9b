"""Rectangles anchored at the origin and the interior point problem (thesis ch. 5,
``002_9f3104e4a0d86722.txt``), as predicates on integers.

* h_p(x) = 1 iff x_i ≤ p_i for every axis (Def 5.0.1, L1199): :func:`in_rectangle`.
* A value a is an interior point of a non-empty multiset D when min D ≤ a ≤ max D (Def 5.1.1,
  L1221): :func:`is_interior_point`.
* The error of h_p against the target h_{p*} under the uniform law on {0..X}^d is the mass of the
  symmetric difference, |R*| + |R| − 2|R* ∩ R| over (X + 1)^d (:func:`rectangle_error`).
* Lemma 5.3.2 (L1368–1372) asks for a "good event" G with P(G), Q(G) > 1 − δ on which the privacy
  loss is within ε: :func:`good_event_exists` decides it for finite laws (false for
  P = (0.6, 0.4), Q = (0.4, 0.6), which are (0.1, 0.158)-indistinguishable).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction


def in_rectangle(p: Sequence[int], x: Sequence[int]) -> bool:
    """h_p(x): every coordinate of x is at most the corner's."""
    return all(xi <= pi for xi, pi in zip(x, p, strict=True))


def is_interior_point(data: Sequence[int], a: int) -> bool:
    """min D ≤ a ≤ max D (False for an empty D: no interior point exists)."""
    return bool(data) and min(data) <= a <= max(data)


def rectangle_error(target: Sequence[int], learned: Sequence[int], grid_max: int) -> Fraction:
    """P_{x ~ Unif{0..X}^d}(h_target(x) ≠ h_learned(x)), exactly."""

    def volume(corner: Sequence[int]) -> int:
        out = 1
        for c in corner:
            out *= max(0, min(c, grid_max) + 1)
        return out

    both = volume([min(a, b) for a, b in zip(target, learned, strict=True)])
    return Fraction(volume(target) + volume(learned) - 2 * both, (grid_max + 1) ** len(target))


def good_event_exists(p: Sequence[float], q: Sequence[float], epsilon: float, delta: float) -> bool:
    """Whether some event G has P(G) > 1 − δ, Q(G) > 1 − δ and |ln p(x)/q(x)| ≤ ε on G (the
    largest candidate G is the set of outcomes whose loss is within ε)."""
    good = [
        i
        for i, (a, b) in enumerate(zip(p, q, strict=True))
        if a > 0 and b > 0 and abs(math.log(a / b)) <= epsilon
    ]
    return sum(p[i] for i in good) > 1 - delta and sum(q[i] for i in good) > 1 - delta
