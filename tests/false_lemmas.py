"""Deliberately FALSE lemmas: the negative control of ``dpspec prove``.

``tests/test_lemmas.py`` runs the prover on this file (by path) and requires a
``counterexample`` for every condition here; a prover that "confirms" these is broken. Each is
a plausible mistake from the field, next to the true statement in a
``dpspec.proofs.topics.<family>.lemmas`` module.
Not collected by pytest (no ``test_`` prefix).
"""

from __future__ import annotations

from fractions import Fraction

from dpspec.spec.sensitivity import Number, histogram, l1_distance


def histogram_sensitivity_one_under_substitution(
    data: tuple[int, ...], bins: int, i: int, new: int
) -> Number:
    """FALSE: "the histogram has L1 sensitivity 1" under substitution (it is 2: one record
    leaves a bin and enters another; 1 is the add/remove value).

    pre: 1 <= bins <= 3
    pre: len(data) <= 3
    pre: all(0 <= r < bins for r in data)
    pre: 0 <= new < bins
    pre: 0 <= i < len(data)
    post: __return__ <= 1
    """
    neighbour = (*data[:i], new, *data[i + 1 :])
    return l1_distance(histogram(data, bins), histogram(neighbour, bins))


def em_log_weight_without_half(score: int, score_prime: int, delta: int) -> Fraction:
    """FALSE: the printed exponential mechanism (``002_9f3104e4a0d86722.txt:L655``) weights
    ``exp(ε f/Δ)`` and still claims a weight step of ε/2 (in units of ε): (s − s')/Δ ≤ ½.

    pre: 1 <= delta <= 3
    pre: abs(score - score_prime) <= delta
    post: __return__ <= Fraction(1, 2)
    """
    return Fraction(score - score_prime) / delta
