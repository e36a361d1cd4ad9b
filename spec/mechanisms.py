"""Privacy loss of additive noise as exact piecewise-linear functions.

The Laplace mechanism (seed 000 Def 2.2, Thm 2.3, ``000_dff3c4dc97cf0e21.txt:L119-L121``)
releases ``f(S) + Lap(b)`` with density ``p_a(y) = exp(−|y − a|/b) / (2b)`` around ``a = f(S)``.
Its privacy loss at output ``y`` between centres ``a = f(S)`` and ``a' = f(S')`` is

    L(y) = ln p_a(y)/p_{a'}(y) = (|y − a'| − |y − a|) / b,

the normalising constants cancel. By the triangle inequality ``|y − a'| ≤ |y − a| + |a − a'|``,

    −|a − a'|/b ≤ L(y) ≤ |a − a'|/b,

with equality on the right for every ``y`` on the far side of ``a`` (e.g. ``y = a``). So with
``b = GS/ε`` the loss is at most ``ε`` everywhere: pointwise density ratio ≤ e^ε, which is
ε-DP. For k i.i.d. coordinates the densities multiply and the losses add:
``L(y) = Σⱼ (|yⱼ − a'ⱼ| − |yⱼ − aⱼ|)/b ≤ ‖a − a'‖₁/b``.

The discrete (geometric) analogue on ℤ has pmf ``p_a(y) ∝ β^{−|y − a|}`` for a base ``β > 1``
(``β = e^{1/t}`` for the discrete Laplace of scale t); the normaliser ``Σ_{y∈ℤ} β^{−|y−a|}``
does not depend on ``a`` (translation invariance of ℤ), so ``p_a(y)/p_{a'}(y) = β^{k}`` with the
integer exponent ``k = |y − a'| − |y − a|``, and ``|k| ≤ |a − a'|``.

All functions are exact on ``int``/``Fraction`` (no ``exp``/``log``): the loss is returned in
log space, the discrete ratio as its integer exponent. These are the functions the CrossHair
lemmas of ``dpspec.proofs.topics.*.lemmas`` reason about.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from dpspec.spec.sensitivity import Number, abs_difference, l1_distance


def _positive_scale(b: Number) -> Fraction:
    if b <= 0:
        raise ValueError(f"b: the noise scale must be positive, got {b}")
    return Fraction(b)


def laplace_log_ratio(y: Number, a: Number, a_prime: Number, b: Number) -> Fraction:
    """``ln p_a(y)/p_{a'}(y) = (|y − a'| − |y − a|)/b`` for Laplace noise of scale ``b > 0``.

    ``p_a`` is the density of ``a + Lap(b)``; seed 000 ``000_dff3c4dc97cf0e21.txt:L119-L121``.
    Raises ``ValueError`` when ``b ≤ 0``.
    """
    scale = _positive_scale(b)
    return (abs_difference(y, a_prime) - abs_difference(y, a)) / scale


def laplace_log_ratio_bound(a: Number, a_prime: Number, b: Number) -> Fraction:
    """``|a − a'|/b``: the maximum over ``y`` of :func:`laplace_log_ratio` (attained at y = a).

    With ``|a − a'| ≤ GS`` and ``b = GS/ε`` this is at most ε (Thm 2.3,
    ``000_dff3c4dc97cf0e21.txt:L121``). Raises ``ValueError`` when ``b ≤ 0``.
    """
    scale = _positive_scale(b)
    return abs_difference(a, a_prime) / scale


def laplace_log_ratio_vector(
    y: Sequence[Number], a: Sequence[Number], a_prime: Sequence[Number], b: Number
) -> Fraction:
    """``Σⱼ (|yⱼ − a'ⱼ| − |yⱼ − aⱼ|)/b``: the loss of i.i.d. ``Lap(b)`` noise on each coordinate.

    The product density of ``a + Lap(b)^k`` has log ratio equal to the sum of the coordinate
    losses. Raises ``ValueError`` when the lengths differ or ``b ≤ 0``.
    """
    if not len(y) == len(a) == len(a_prime):
        raise ValueError(f"y, a, a_prime: lengths differ ({len(y)}, {len(a)}, {len(a_prime)})")
    scale = _positive_scale(b)
    total: Number = 0
    for yj, aj, apj in zip(y, a, a_prime, strict=True):
        total += abs_difference(yj, apj) - abs_difference(yj, aj)
    return total / scale


def laplace_log_ratio_vector_bound(
    a: Sequence[Number], a_prime: Sequence[Number], b: Number
) -> Fraction:
    """``‖a − a'‖₁/b``: the maximum of :func:`laplace_log_ratio_vector` over ``y`` (at y = a).

    With ``‖f(S) − f(S')‖₁ ≤ GS`` (Def 2.1, ``000_dff3c4dc97cf0e21.txt:L117``) and
    ``b = GS/ε`` this is at most ε. Raises ``ValueError`` when lengths differ or ``b ≤ 0``.
    """
    scale = _positive_scale(b)
    return l1_distance(a, a_prime) / scale


def discrete_laplace_exponent(y: int, a: int, a_prime: int) -> int:
    """``k = |y − a'| − |y − a|`` with ``p_a(y)/p_{a'}(y) = β^k`` for pmf ``p_a(y) ∝ β^{−|y−a|}``.

    The discrete Laplace (two-sided geometric) mechanism on ℤ; its normaliser is the same for
    every centre, so the pmf ratio is exactly ``β^k``. The privacy loss is ``k · ln β``.
    """
    return abs(y - a_prime) - abs(y - a)


def discrete_laplace_exponent_bound(a: int, a_prime: int) -> int:
    """``|a − a'|``: the maximum over ``y ∈ ℤ`` of :func:`discrete_laplace_exponent` (at y = a).

    With ``β = e^{ε/Δ}`` and ``|a − a'| ≤ Δ`` the pmf ratio is at most ``e^ε``.
    """
    return abs(a - a_prime)


def discrete_laplace_log_ratio(y: int, a: int, a_prime: int, t: Number) -> Fraction:
    """``ln p_a(y)/p_{a'}(y) = (|y − a'| − |y − a|)/t`` for pmf ``p_a(y) ∝ exp(−|y − a|/t)``.

    The discrete Laplace of scale ``t > 0`` (base ``β = e^{1/t}``); bounded by ``|a − a'|/t``.
    Raises ``ValueError`` when ``t ≤ 0``.
    """
    return discrete_laplace_exponent(y, a, a_prime) / _positive_scale(t)
