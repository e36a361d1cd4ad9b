"""CrossHair layer of seed 003's Prop 1: the two sensitivity facts behind the LDP bound.

Integers stand for the report coordinates (the statements are positively homogeneous in
(w, z, y, y', M), so scaling rationals to a common denominator loses nothing); vectors have at
most 3 cells and cells are −1 (outside) or 0..2 so that path exploration terminates. The
length-independent argument — only the two cells x and x' fall in differ, each contributes at
most its own change — is what the docstrings state.
"""

from __future__ import annotations

from dpspec.spec.ldp import onehot_change, response_change


def onehot_sensitivity(w: tuple[int, ...], cell: int, cell_prime: int) -> int:
    """The W part of the log ratio is at most 2 (times √2/σ_W): ‖e − e'‖₁ ≤ 2.

    pre: 1 <= len(w) <= 3
    pre: -1 <= cell < len(w)
    pre: -1 <= cell_prime < len(w)
    post: __return__ <= 2
    """
    return int(onehot_change(w, cell, cell_prime))


def response_sensitivity(
    z: tuple[int, ...], cell: int, y: int, cell_prime: int, y_prime: int, m: int
) -> int:
    """The Z part is at most 2M (times √2/σ_Z) for truncated responses |y|, |y'| ≤ M.

    pre: 1 <= len(z) <= 3
    pre: -1 <= cell < len(z)
    pre: -1 <= cell_prime < len(z)
    pre: 0 <= m
    pre: -m <= y <= m
    pre: -m <= y_prime <= m
    post: __return__ <= 2 * m
    """
    return int(response_change(z, cell, y, cell_prime, y_prime))


def log_ratio_core(
    w: tuple[int, ...],
    z: tuple[int, ...],
    cell: int,
    y: int,
    cell_prime: int,
    y_prime: int,
    m: int,
    a: int,
    b: int,
) -> int:
    """The whole log ratio, summed over coordinates: a·Σ_W + b·Σ_Z ≤ 2a + 2bM, where
    a = √2/σ_W and b = √2/σ_Z (non-negative integers here: the statement is homogeneous in
    (a, b)). With σ_W = 4√2/α and σ_Z = 4√2M/α the right side is α/2 + α/2 = α (Prop 1).

    pre: 1 <= len(w) <= 2
    pre: len(z) == len(w)
    pre: -1 <= cell < len(w)
    pre: -1 <= cell_prime < len(w)
    pre: 0 <= m
    pre: -m <= y <= m
    pre: -m <= y_prime <= m
    pre: 0 <= a <= 4
    pre: 0 <= b <= 4
    post: __return__ <= 2 * a + 2 * b * m
    """
    return a * int(onehot_change(w, cell, cell_prime)) + b * int(
        response_change(z, cell, y, cell_prime, y_prime)
    )
