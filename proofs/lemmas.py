"""The CrossHair lemma layer: the combinatorial and piecewise-linear core of each privacy proof.

Every function here is deterministic pure Python on ``int``/``Fraction`` with a PEP 316 contract
in its docstring (``pre:`` lines restrict the inputs, each ``post:`` line is one *condition*
about ``__return__``). ``dpspec prove`` (:mod:`dpspec.proofs.prove`) runs CrossHair on every
condition with a CPU budget (20 s by default), and a condition is *confirmed* when CrossHair
explores every execution path without finding a counterexample — over the stated bounded
inputs that is a proof, not a test. Each condition needs at most a fifth of the budget
(``proofs/notes/lemmas.md``): where a statement was too costly it is split into cases or
reduced w.l.o.g. (the substituted record is the first one, because the quantities are sums
over the records; ``tests/test_lemmas.py`` checks each reduction on concrete inputs).

What binds a lemma to the implementation: every lemma's registry entry names a differential
obligation (``proofs/lemma_bindings.py``) that runs the implementation's own code and requires
equality with the lemma's function on the lemma's domain.

Why the bounds. Path exploration must terminate: datasets are short tuples (≤ 2–8 records) of
small bin / cell / domain indices, which is where the combinatorics lives — the argument "one
record changes, so one term of the sum changes" does not depend on the length, and the
length-independent statement is what the docstrings give. ``Fraction`` normalisation runs
Euclid's algorithm, which branches on every remainder, so divisions by a symbolic integer are
bounded (``1 ≤ b ≤ 4``, ε with numerator ≤ 4 and denominator ≤ 2); the division-free core of
the same statement is checked for *all* integers (:func:`discrete_laplace_ratio_bound`), and
dividing both sides by b > 0 keeps an inequality. Every rational instance of a piecewise-linear
lemma is an integer instance after multiplying all its arguments by their common denominator
(the statements are positively homogeneous), though possibly with a larger b than CrossHair
covers; ``tests/test_lemmas.py`` runs the Laplace statements on arbitrary ``Fraction`` inputs.

What the lemmas call. They evaluate the real spec functions (:mod:`dpspec.spec.sensitivity`,
:mod:`dpspec.spec.loss`), so a confirmed condition is a statement about the code the verifiers
use, not about a copy. Neighbours are built positionally (``data[:i] + (new,) + data[i+1:]``
for substitution, ``data[:i] + data[i+1:]`` for add/remove) as in
:mod:`dpspec.spec.neighbours`; add/remove is symmetric in |·|, so one direction suffices.

No floats (CrossHair models them as reals), no ``exp``/``log``: probability ratios are stated
in exponent form, e.g. "log-weight difference ≤ ε/2" instead of "weight ratio ≤ e^{ε/2}".
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from typing import TypeVar

# The *_bound functions appear only in the docstring contracts, which are evaluated in this
# module's namespace (by CrossHair and by evaluate_contract): hence the noqa.
from dpspec.spec.loss import (
    discrete_laplace_exponent,
    discrete_laplace_exponent_bound,  # noqa: F401
    laplace_log_ratio,
    laplace_log_ratio_bound,  # noqa: F401
    laplace_log_ratio_vector,
    laplace_log_ratio_vector_bound,  # noqa: F401
)
from dpspec.spec.sensitivity import (
    Number,
    centred_votes,
    count,
    histogram,
    l1_distance,
    mistakes,
)

Out = TypeVar("Out", bound=Hashable)
Img = TypeVar("Img", bound=Hashable)


def _holds(bit: bool) -> bool:
    return bit


# --------------------------------------------------------------------------------------------
# Counting queries (Def 2.1, 000_dff3c4dc97cf0e21.txt:L117)
# --------------------------------------------------------------------------------------------


def count_change_substitution(bits: tuple[bool, ...], i: int, new: bool) -> int:
    """A counting query moves by at most 1 when one record is substituted.

    ``c_φ(S) = Σᵢ φ(xᵢ)`` depends on S only through the bits ``bᵢ = φ(xᵢ)``, so quantifying
    over all bit vectors covers every predicate φ. Substituting record i replaces ``bᵢ`` by the
    bit of the new record: ``|c_φ(S) − c_φ(S')| = |bᵢ − b'ᵢ| ≤ 1`` (GS = 1, seed 000 Alg 1
    counts, ``000_dff3c4dc97cf0e21.txt:L125-L138``).

    pre: len(bits) <= 8
    pre: 0 <= i < len(bits)
    post: abs(__return__) <= 1
    """
    neighbour = (*bits[:i], new, *bits[i + 1 :])
    return count(bits, _holds) - count(neighbour, _holds)


def count_change_add_remove(bits: tuple[bool, ...], i: int) -> int:
    """A counting query moves by at most 1 when one record is removed (or added).

    Removing record i drops exactly the term ``bᵢ``: ``|c_φ(S) − c_φ(S ∖ {xᵢ})| = bᵢ ≤ 1``.
    Adding a record is the same pair read the other way.

    pre: len(bits) <= 8
    pre: 0 <= i < len(bits)
    post: abs(__return__) <= 1
    """
    neighbour = bits[:i] + bits[i + 1 :]
    return count(bits, _holds) - count(neighbour, _holds)


# --------------------------------------------------------------------------------------------
# Histograms (Alg 1 counts, 000_dff3c4dc97cf0e21.txt:L125-L147)
# --------------------------------------------------------------------------------------------


def histogram_change_substitution(
    data: tuple[int, ...], bins: int, i: int, new: int
) -> Number:
    """``‖h(S) − h(S')‖₁ ≤ 2`` under substitution: one record leaves one bin, enters another.

    ``h(S)ⱼ = Σᵢ 1[xᵢ = j]``; replacing ``xᵢ = j`` by ``j'`` changes bin j by −1 and bin j' by
    +1 (nothing when j = j'), so the L1 change is exactly 0 or 2.

    pre: 1 <= bins <= 4
    pre: len(data) <= 4
    pre: all(0 <= r < bins for r in data)
    pre: 0 <= new < bins
    pre: 0 <= i < len(data)
    post: __return__ <= 2
    post: __return__ in (0, 2)
    """
    neighbour = (*data[:i], new, *data[i + 1 :])
    return l1_distance(histogram(data, bins), histogram(neighbour, bins))


def histogram_change_add_remove(data: tuple[int, ...], bins: int, i: int) -> Number:
    """``‖h(S) − h(S ∖ {xᵢ})‖₁ = 1``: removing one record lowers exactly one bin by one.

    pre: 1 <= bins <= 4
    pre: len(data) <= 4
    pre: all(0 <= r < bins for r in data)
    pre: 0 <= i < len(data)
    post: __return__ <= 1
    post: __return__ == 1
    """
    neighbour = data[:i] + data[i + 1 :]
    return l1_distance(histogram(data, bins), histogram(neighbour, bins))


# --------------------------------------------------------------------------------------------
# PCL's centred votes (Alg 2, 000_dff3c4dc97cf0e21.txt:L193-L206)
# --------------------------------------------------------------------------------------------


def centred_vote_change_substitution(
    records: tuple[tuple[int, int], ...], cells: int, new_cell: int, new_label: int
) -> Number:
    """``‖v(S) − v(S')‖₁ ≤ 1`` for PCL's per-cell vote ``v(S)_C = Σ_{i∈C}(yᵢ − ½)``.

    This is the "single calculation with global sensitivity 1" of the proof of Thm 3.1
    (``000_dff3c4dc97cf0e21.txt:L206``). Substituting ``(c, y)`` by ``(c', y')``: if c = c'
    the cell moves by ``|y − y'| ≤ 1``; if c ≠ c' cell c loses ``y − ½`` and cell c' gains
    ``y' − ½``, each of absolute value ½, total 1. The substituted record is the first one
    w.l.o.g.: ``v`` is a sum over the records, so reordering them changes nothing.

    pre: 1 <= cells <= 2
    pre: 1 <= len(records) <= 2
    pre: all(0 <= c < cells and 0 <= y <= 1 for c, y in records)
    pre: 0 <= new_cell < cells
    pre: 0 <= new_label <= 1
    post: __return__ <= 1
    """
    neighbour = ((new_cell, new_label), *records[1:])
    return l1_distance(centred_votes(records, cells), centred_votes(neighbour, cells))


def centred_vote_change_add_remove(records: tuple[tuple[int, int], ...], cells: int) -> Number:
    """``‖v(S) − v(S ∖ {(c₁, y₁)})‖₁ = ½``: one cell loses ``y₁ − ½ = ±½``.

    So under add/remove the vote vector has sensitivity ½ and Lap(1/ε) noise is even
    (ε/2)-DP (``000_dff3c4dc97cf0e21.txt:L206``). The removed record is the first one w.l.o.g.
    (``v`` is a sum over the records).

    pre: 1 <= cells <= 2
    pre: 1 <= len(records) <= 2
    pre: all(0 <= c < cells and 0 <= y <= 1 for c, y in records)
    post: __return__ == Fraction(1, 2)
    """
    return l1_distance(centred_votes(records, cells), centred_votes(records[1:], cells))


# --------------------------------------------------------------------------------------------
# Laplace privacy loss (Def 2.2, Thm 2.3, 000_dff3c4dc97cf0e21.txt:L119-L121)
# --------------------------------------------------------------------------------------------


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


# --------------------------------------------------------------------------------------------
# Stability-based histogram (Alg 1, Thm 2.4, 000_dff3c4dc97cf0e21.txt:L125-L147)
# --------------------------------------------------------------------------------------------


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
    return tuple(stability_release(c, w, threshold) for c, w in zip(counts, noise, strict=True))


# --------------------------------------------------------------------------------------------
# Exponential mechanism (002_9f3104e4a0d86722.txt:L655; erratum E-002-L655)
# --------------------------------------------------------------------------------------------


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
    the two factors give e^{2ε} — erratum E-002-L655. ``ε = eps_num/eps_den``.

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


# --------------------------------------------------------------------------------------------
# Post-processing (000_dff3c4dc97cf0e21.txt:L206, L262)
# --------------------------------------------------------------------------------------------


def pushforward(dist: Mapping[Out, Number], g: Callable[[Out], Img]) -> dict[Img, Number]:
    """The law of ``g(X)`` for ``X ~ dist``: ``(g#p)(z) = Σ_{o : g(o) = z} p(o)``."""
    out: dict[Img, Number] = {}
    for outcome, mass in dist.items():
        image = g(outcome)
        out[image] = out.get(image, 0) + mass
    return out


def postprocessing_ratio(
    p: tuple[int, int, int],
    q: tuple[int, int, int],
    g: tuple[int, int, int],
    r_num: int,
    r_den: int,
) -> bool:
    """Post-processing keeps a pointwise likelihood-ratio bound (seed 000 L206, L262, L371).

    For finite distributions p, q on outcomes {0, 1, 2} with ``p(o) ≤ r·q(o)`` for every o
    and any deterministic map g: {0, 1, 2} → {0, 1, 2} (given as its table), the pushforwards
    satisfy ``(g#p)(z) = Σ_{g(o)=z} p(o) ≤ r·Σ_{g(o)=z} q(o) = r·(g#q)(z)`` for every image z.
    For discrete outputs pointwise ratio ≤ e^ε is ε-DP, so g∘M is ε-DP whenever M is
    (``000_dff3c4dc97cf0e21.txt:L206``: "the final output is merely a post-processing").
    Masses are integers over a common denominator, ``r = r_num/r_den``; the inequalities are
    compared on the two integer dicts. Returns whether the bound holds on all images.

    pre: all(x >= 0 for x in p) and all(x >= 0 for x in q)
    pre: all(0 <= z < 3 for z in g)
    pre: r_num >= 0 and r_den >= 1
    pre: all(r_den * po <= r_num * qo for po, qo in zip(p, q))
    post: __return__
    """
    p_dist: dict[int, Number] = {o: p[o] for o in range(3)}
    q_dist: dict[int, Number] = {o: q[o] for o in range(3)}
    image_p = pushforward(p_dist, g.__getitem__)
    image_q = pushforward(q_dist, g.__getitem__)
    return all(r_den * image_p[z] <= r_num * image_q[z] for z in image_p)
