"""CrossHair lemmas of the basic mechanisms: the Laplace and discrete Laplace privacy loss
(:mod:`dpspec.spec.mechanisms`), the stability histogram's release rule, and the exponential
mechanism's score sensitivity, log-weights and normaliser. Each registry entry names the
differential obligation of ``bindings.py`` that ties the lemma to the code that runs; the
method is in ``proofs/notes/lemmas.md``.
"""

from __future__ import annotations

from fractions import Fraction

# The *_bound functions appear only in the docstring contracts, which are evaluated in this
# module's namespace (by CrossHair and by evaluate_contract): hence the noqa.
from dpspec.proofs.engine.finite import over, tuples
from dpspec.spec.mechanisms import (
    discrete_laplace_exponent,
    discrete_laplace_exponent_bound,  # noqa: F401
    laplace_log_ratio,
    laplace_log_ratio_bound,  # noqa: F401
    laplace_log_ratio_vector,
    laplace_log_ratio_vector_bound,  # noqa: F401
)
from dpspec.spec.sensitivity import (
    mistakes,
)


def laplace_loss_bound(y: int, a: int, a_prime: int, b: int) -> Fraction:
    """``|(|y − a'| − |y − a|)/b| ≤ |a − a'|/b``, with equality at ``y = a``.

    The privacy loss ``ln p_a(y)/p_{a'}(y)`` of ``a + Lap(b)`` (:func:`laplace_log_ratio`) is
    bounded by the centre distance over the scale, in both directions; with
    ``|a − a'| ≤ GS`` and ``b = GS/ε`` that is ε (Thm 2.3, ``000_dff3c4dc97cf0e21.txt:L121``).
    The bound is attained at ``y = a``, so it cannot be improved. ``b`` is bounded only because
    ``Fraction`` normalisation branches on Euclid's remainders; the division-free core holds on
    all of ℤ (:func:`discrete_laplace_ratio_bound`).

    pre: 1 <= b <= 4
    post: abs(__return__) <= laplace_log_ratio_bound(a, a_prime, b)
    post: y != a or __return__ == laplace_log_ratio_bound(a, a_prime, b)
    """
    return laplace_log_ratio(y, a, a_prime, b)


def laplace_loss_bound_half_integers(y2: int, a2: int, a_prime2: int) -> Fraction:
    """The Laplace loss bound on ``Fraction`` centres: ``y = y2/2``, ``a = a2/2``, ``a' = a'2/2``,
    scale ``b = 1``.

    PCL's centres are half-integers (``v(S)_C = Σ(yᵢ − ½)``, ``000_dff3c4dc97cf0e21.txt:L206``).
    This runs the ``Fraction`` branch of :func:`laplace_log_ratio` symbolically (the integer
    lemma :func:`laplace_loss_bound` only reaches its ``int`` branch):
    ``|(|y − a'| − |y − a|)/b| ≤ |a − a'|/b``. Other scales: dividing by ``b > 0`` keeps the
    inequality, and :func:`laplace_loss_bound_half_integers_scale2` runs the division.

    post: abs(__return__) <= laplace_log_ratio_bound(Fraction(a2) / 2, Fraction(a_prime2) / 2, 1)
    """
    return laplace_log_ratio(Fraction(y2) / 2, Fraction(a2) / 2, Fraction(a_prime2) / 2, 1)


def laplace_loss_bound_half_integers_scale2(a2: int, a_prime2: int) -> Fraction:
    """The same at scale ``b = 2`` (a ``Fraction`` divided by a scale that does not divide it),
    at the output ``y = 0`` w.l.o.g.: the loss depends on ``y − a`` and ``y − a'`` only, so
    shifting ``y, a, a'`` by the half-integer ``−y`` changes nothing.

    post: abs(__return__) <= laplace_log_ratio_bound(Fraction(a2) / 2, Fraction(a_prime2) / 2, 2)
    """
    return laplace_log_ratio(Fraction(0), Fraction(a2) / 2, Fraction(a_prime2) / 2, 2)


def laplace_loss_vector_bound(
    y: tuple[int, ...], a: tuple[int, ...], a_prime: tuple[int, ...], b: int
) -> Fraction:
    """``|Σⱼ(|yⱼ − a'ⱼ| − |yⱼ − aⱼ|)/b| ≤ ‖a − a'‖₁/b`` for i.i.d. Lap(b) coordinates.

    The densities multiply, the losses add, and each coordinate is bounded as in
    :func:`laplace_loss_bound`; summing gives the L1 sensitivity over the scale — the reason
    Def 2.1 (``000_dff3c4dc97cf0e21.txt:L117``) uses the L1 norm.

    pre: len(y) == len(a) == len(a_prime) <= 3
    pre: 1 <= b <= 2
    post: abs(__return__) <= laplace_log_ratio_vector_bound(a, a_prime, b)
    """
    return laplace_log_ratio_vector(y, a, a_prime, b)


def discrete_laplace_ratio_bound(y: int, a: int, a_prime: int) -> int:
    """``| |y − a'| − |y − a| | ≤ |a − a'|`` for all integers: the discrete Laplace ratio.

    For pmf ``p_a(y) ∝ β^{−|y−a|}`` on ℤ the ratio is ``p_a(y)/p_{a'}(y) = β^k`` with
    ``k = |y − a'| − |y − a|`` (:func:`discrete_laplace_exponent`), so ``|k| ≤ |a − a'| ≤ Δ``
    and ``β = e^{ε/Δ}`` give ratio ≤ e^ε in both directions. No bound on the inputs: this is
    the triangle inequality on ℤ, checked over all integers.

    post: abs(__return__) <= discrete_laplace_exponent_bound(a, a_prime)
    """
    return discrete_laplace_exponent(y, a, a_prime)


def stability_release(count: int, noise: int, threshold: int) -> int:
    """One cell of Alg 1 with its noise draw injected: ``ĉ = 0`` if count = 0, else
    ``count + noise`` thresholded at τ (``000_dff3c4dc97cf0e21.txt:L132-L140``).

    Thm 2.4's support property (``000_dff3c4dc97cf0e21.txt:L147``): a zero count is never
    touched, so it is released as 0, and anything released is at least τ. That is why the
    only way S and S' can be told apart with certainty is a cell with count 1 on one side and
    0 on the other, whose release needs ``1 + Lap(2/ε) ≥ τ`` — probability
    ``½·exp(−(τ − 1)ε/2) = δ/4`` for ``τ = (2/ε)ln(2/δ) + 1``. ``noise`` and ``threshold``
    are integers w.l.o.g.: the contract only compares them, and scaling all three arguments by
    a common denominator preserves every comparison and ``count = 0``.

    pre: count >= 0
    post: count != 0 or __return__ == 0
    post: __return__ == 0 or __return__ >= threshold
    post: __return__ in (0, count + noise)
    """
    return release_rule(count, noise, threshold)


def release_rule(count: int, noise: int, threshold: int) -> int:
    """Alg 1's rule for one cell, without a contract (the lemmas above and below call it, so
    CrossHair explores it instead of assuming a callee's contract)."""
    if count == 0:
        return 0
    noisy = count + noise
    if noisy < threshold:
        return 0
    return noisy


def stability_histogram_release(
    counts: tuple[int, ...], noise: tuple[int, ...], threshold: int
) -> tuple[int, ...]:
    """Alg 1 on a whole histogram (one noise draw per cell): the support property per cell.

    Every cell whose count is 0 is released as 0 — the released support is a subset of the
    true support, however the noise falls — and every released value is at least τ
    (``000_dff3c4dc97cf0e21.txt:L125-L147``).

    pre: len(counts) == len(noise) <= 3
    pre: all(c >= 0 for c in counts)
    post: all(r == 0 for c, r in zip(counts, __return__) if c == 0)
    post: all(r == 0 or r >= threshold for r in __return__)
    """
    return tuple(release_rule(c, w, threshold) for c, w in zip(counts, noise, strict=True))


@over(
    candidate=tuples((0, 1), 3, 3),
    records=tuples(tuple((x, y) for x in range(3) for y in (0, 1)), 3, 1),
    new_x=range(3),
    new_y=range(2),
)
def em_score_change_substitution(
    candidate: tuple[int, int, int],
    records: tuple[tuple[int, int], ...],
    new_x: int,
    new_y: int,
) -> int:
    """The score ``f(S, h) = −err_S(h)`` moves by at most 1 under substitution, for every h.

    ``err_S(h) = Σᵢ 1[h(xᵢ) ≠ yᵢ]`` (:func:`mistakes`); substituting record i changes only
    its own term, so ``|f(S, h) − f(S', h)| ≤ 1``: score sensitivity Δ = 1 for the
    dichotomy-selection step of the semi-private learner (``000_dff3c4dc97cf0e21.txt:L349``).
    The candidate is any of the 2³ dichotomies of a 3-point domain {0, 1, 2}; the substituted
    record is the first one w.l.o.g. (``err`` is a sum over the records).

    pre: all(0 <= h <= 1 for h in candidate)
    pre: 1 <= len(records) <= 3
    pre: all(0 <= x < 3 and 0 <= y <= 1 for x, y in records)
    pre: 0 <= new_x < 3
    pre: 0 <= new_y <= 1
    post: abs(__return__) <= 1
    """
    neighbour = ((new_x, new_y), *records[1:])
    return (-mistakes(records, candidate)) - (-mistakes(neighbour, candidate))


def em_log_weight_difference(
    score: int, score_prime: int, delta: int, eps_num: int, eps_den: int
) -> Fraction:
    """``ε(s − s')/(2Δ) ≤ ε/2`` whenever ``|s − s'| ≤ Δ``: the weight step of the EM proof.

    The exponential mechanism picks a with probability ``w_S(a)/Z(S)``,
    ``w_S(a) = exp(ε f(S, a)/(2Δ))``. The log-weight difference ``ln w_S(a)/w_{S'}(a)`` is the
    returned value, at most ε/2; the normaliser step (:func:`em_normaliser_ratio`) bounds
    ``Z(S')/Z(S)`` by ``max_b w_{S'}(b)/w_S(b) ≤ e^{ε/2}``, so the probability ratio is at most
    ``e^{ε/2}·e^{ε/2} = e^ε``. Without the ½ (as printed, ``002_9f3104e4a0d86722.txt:L655``)
    the two factors give e^{2ε} — ``mechanisms.erratum.thesis-L655-exponential-half``.
    ``ε = eps_num/eps_den``.

    pre: 1 <= delta <= 3
    pre: abs(score - score_prime) <= delta
    pre: 1 <= eps_num <= 4
    pre: 1 <= eps_den <= 2
    post: __return__ <= Fraction(eps_num, eps_den) / 2
    """
    eps = Fraction(eps_num, eps_den)
    return eps * (score - score_prime) / (2 * delta)


def em_normaliser_ratio(
    weights: tuple[int, ...], weights_prime: tuple[int, ...], r_num: int, r_den: int
) -> tuple[int, int]:
    """If ``w'(b) ≤ r·w(b)`` for every candidate b then ``Z' = Σ_b w'(b) ≤ r·Σ_b w(b) = r·Z``.

    The normaliser step of the exponential mechanism: the sum of pointwise-dominated
    non-negative weights is dominated by the same factor (``r = r_num/r_den``, stated
    cross-multiplied; weights are integers over a common denominator, so this covers every
    non-negative rational weight vector). Returns ``(Z, Z')``.

    pre: len(weights) == len(weights_prime) <= 4
    pre: all(w >= 0 for w in weights)
    pre: r_num >= 0 and r_den >= 1
    pre: all(r_den * wp <= r_num * w for w, wp in zip(weights, weights_prime))
    post: r_den * __return__[1] <= r_num * __return__[0]
    """
    return sum(weights), sum(weights_prime)
