"""Proposition 1 of seed 003 (``003_5e2a1f46235ac29b.txt:L247–251``) as executable predicates.

A user with (x, y) reports W_j = 1{x ∈ A_j} + σ_W ζ_j and Z_j = [y]_M·1{x ∈ A_j} + σ_Z ε_j for
j = 1..N, with unit-variance Laplace noise (density e^{−√2|t|}/√2). The log density ratio of a
report (w, z) under (x, y) versus (x', y') is

    (√2/σ_W)·Σ_j (|w_j − e'_j| − |w_j − e_j|) + (√2/σ_Z)·Σ_j (|z_j − y'e'_j| − |z_j − y e_j|),

e, e' the one-hot cell vectors (all zero for a point outside the listed cells). The two sums
are the piecewise-linear core: the first is ≤ ‖e − e'‖₁ ≤ 2, the second ≤ ‖ye − y'e'‖₁ ≤ 2M
(triangle inequality), hence the bound 2^{3/2}/σ_W + 2^{3/2}M/σ_Z of Prop 1. The integer
forms (:func:`onehot_change`, :func:`response_change`) are what the CrossHair layer proves; the
float form (:func:`report_log_ratio`) is what the exact check evaluates.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, cast

Number = int | Fraction


def onehot(n_cells: int, cell: int) -> tuple[int, ...]:
    """e: 1 at ``cell`` (0-based), zeros elsewhere; all zeros when ``cell`` is −1 (outside)."""
    return tuple(1 if j == cell else 0 for j in range(n_cells))


def onehot_change(w: Sequence[Number], cell: int, cell_prime: int) -> Number:
    """Σ_j (|w_j − e'_j| − |w_j − e_j|) for the one-hot vectors of ``cell`` and ``cell_prime``."""
    total: Any = 0  # int arithmetic stays int (CrossHair), Fractions stay exact
    for j, wj in enumerate(w):
        a, b = int(j == cell), int(j == cell_prime)
        v: Any = wj
        total += abs(v - b) - abs(v - a)
    return cast(Number, total)


def response_change(
    z: Sequence[Number], cell: int, y: Number, cell_prime: int, y_prime: Number
) -> Number:
    """Σ_j (|z_j − y'e'_j| − |z_j − y e_j|) (y, y' already truncated to [−M, M])."""
    total: Any = 0
    hi: Any = y_prime
    lo: Any = y
    for j, zj in enumerate(z):
        a, b = int(j == cell), int(j == cell_prime)
        v: Any = zj
        total += abs(v - hi * b) - abs(v - lo * a)
    return cast(Number, total)


def prop1_bound(truncation: float, sigma_w: float, sigma_z: float) -> float:
    """2^{3/2}/σ_W + 2^{3/2}M/σ_Z (σ_W = 0 means W is not released: no W term)."""
    w_term = 0.0 if sigma_w == 0 else 2**1.5 / sigma_w
    return w_term + 2**1.5 * truncation / sigma_z


def report_log_ratio(
    w: Sequence[float],
    z: Sequence[float],
    cell: int,
    y: float,
    cell_prime: int,
    y_prime: float,
    sigma_w: float,
    sigma_z: float,
) -> float:
    """log q(w, z | x, y) − log q(w, z | x', y') in closed form (W omitted when σ_W = 0)."""
    w_part = (
        0.0
        if sigma_w == 0
        else math.sqrt(2)
        / sigma_w
        * float(onehot_change([Fraction(v) for v in w], cell, cell_prime))
    )
    z_part = (
        math.sqrt(2)
        / sigma_z
        * float(
            response_change(
                [Fraction(v) for v in z], cell, Fraction(y), cell_prime, Fraction(y_prime)
            )
        )
    )
    return w_part + z_part


def satisfies_prop1(
    log_ratio: float, truncation: float, sigma_w: float, sigma_z: float, rtol: float = 1e-12
) -> bool:
    """The Prop 1 predicate: a log density ratio within the bound (relative slack ``rtol`` for
    float rounding)."""
    return log_ratio <= prop1_bound(truncation, sigma_w, sigma_z) * (1 + rtol)
