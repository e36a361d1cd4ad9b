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
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from dpspec.spec.laws import two_sided_pmf, two_sided_sf


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


# --- Algorithm 4's output law, from the pseudocode (the reference the implementation's law is
# --- compared with; written path by path, nothing shared with ``dpspec.rectangles``)


def median_score(data: Sequence[int], x: int) -> int:
    """q(D, x) = min(#{z ∈ D : z ≤ x}, #{z ∈ D : z ≥ x})."""
    return min(sum(1 for z in data if z <= x), sum(1 for z in data if z >= x))


def exponential_median_law(data: Sequence[int], size: int, base: Fraction | float) -> list[Any]:
    """P(A(D) = x), x = 0..size−1, for P(x) ∝ base^{max q − q(D, x)} (base = e^{−ε/2}, or the
    rational q ≥ e^{−ε/2} of an exact sampler); uniform when D is empty."""
    if not data:
        return [Fraction(1, size) if isinstance(base, Fraction) else 1.0 / size] * size
    scores = [median_score(data, x) for x in range(size)]
    top = max(scores)
    weights = [base ** (top - s) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


def discrete_laplace_size_law(available: int, center: int, base: float) -> list[float]:
    """P(clamp(center + Z, 0, available) = j), j = 0..available, Z discrete Laplace with
    P(Z = z) = (1 − b)/(1 + b)·b^{|z|} (:func:`~dpspec.spec.laws.two_sided_pmf`): the interior
    values by the pmf, each end by the tail sum in closed form
    (:func:`~dpspec.spec.laws.two_sided_sf`)."""
    inner = [two_sided_pmf(j - center, base) for j in range(available + 1)]
    if available == 0:
        return [1.0]
    inner[0] = 1 - two_sided_sf(1 - center, base)  # P(center + Z ≤ 0)
    inner[available] = two_sided_sf(available - center, base)  # P(center + Z ≥ available)
    return inner


def laplace_size_law(available: int, mu: float, scale: float) -> list[float]:
    """P(clamp(⌈μ + w⌉, 0, available) = j), w ~ Lap(scale): differences of the Laplace CDF at
    j − μ (⌈μ + w⌉ = j ⇔ j − 1 < μ + w ≤ j)."""

    def cdf(t: float) -> float:
        return 0.5 * math.exp(t / scale) if t < 0 else 1 - 0.5 * math.exp(-t / scale)

    if available == 0:
        return [1.0]
    law = [cdf(j - mu) - cdf(j - 1 - mu) for j in range(available + 1)]
    law[0] = cdf(-mu)
    law[available] = 1 - cdf(available - 1 - mu)
    return law


def rand_margins_law(
    points: Sequence[Sequence[int]],
    tags: Sequence[int],
    axes: int,
    tag_count: int,
    margin: int,
    size_law: Callable[[int], Sequence[float]],
    median_base: Fraction | float,
    grid_max: int,
) -> dict[tuple[int, ...], float]:
    """P(p = p*) of Algorithm 4 (L1320–1326) on the records ``points`` (``axes`` coordinates
    each) with per-record tags
    (refined coordinate y[i]·T + t), by enumerating every path: on each axis every clamped
    size k (``size_law(|S̄|)``), B = the k records of largest refined coordinate, D = the
    ``margin`` smallest of B, every answer q of the exponential median on D over the refined
    grid, and the removal of the records with refined coordinate ≥ q; p_i = ⌊q/T⌋."""
    refined = [[y * tag_count + t for y in row] for row, t in zip(points, tags, strict=True)]
    size = (grid_max + 1) * tag_count
    d = axes
    out: dict[tuple[int, ...], float] = {}

    def visit(axis: int, alive: list[int], prefix: tuple[int, ...], weight: float) -> None:
        if axis == d:
            out[prefix] = out.get(prefix, 0.0) + weight
            return
        column = sorted(refined[r][axis] for r in alive)
        for k, pk in enumerate(size_law(len(alive))):
            if pk == 0:
                continue
            chosen = column[len(column) - k :] if k else []
            law = exponential_median_law(chosen[:margin], size, median_base)
            for q, pq in enumerate(law):
                if pq:
                    rest = [r for r in alive if refined[r][axis] < q]
                    visit(axis + 1, rest, (*prefix, q // tag_count), weight * pk * float(pq))

    visit(0, list(range(len(points))), (), 1.0)
    return out
