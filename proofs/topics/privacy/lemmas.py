"""CrossHair lemmas of the core notions: sensitivity of counts, histograms and PCL's centred
votes under substitution and add/remove, and post-processing.

Each function is pure Python on ints/Fractions with a PEP 316 contract; those over finite
domains (``@over``) are settled by exact enumeration of every input, the others by CrossHair's
exhaustive symbolic search (``dpspec prove``); the lemmas evaluate the real
:mod:`dpspec.spec.sensitivity` functions, and ``bindings.counts_binding`` ties those to the
implementation's counting code. The method
(contracts, why the bounds, w.l.o.g. reductions, CPU budget) is in ``proofs/notes/lemmas.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction  # noqa: F401 - used by the docstring contracts
from typing import TypeVar

from dpspec.proofs.engine.finite import over, tuples
from dpspec.spec.sensitivity import (
    Number,
    centred_votes,
    count,
    histogram,
    l1_distance,
)

#: Records (cell, label) of the centred-vote lemmas: cells 0..2, labels 0/1.
_RECORDS = tuple((c, y) for c in range(3) for y in (0, 1))

Out = TypeVar("Out", bound=Hashable)


Img = TypeVar("Img", bound=Hashable)


def _holds(bit: bool) -> bool:
    return bit


@over(bits=tuples((False, True), 10), i=range(10), new=(False, True))
def count_change_substitution(bits: tuple[bool, ...], i: int, new: bool) -> int:
    """A counting query moves by at most 1 when one record is substituted.

    ``c_φ(S) = Σᵢ φ(xᵢ)`` depends on S only through the bits ``bᵢ = φ(xᵢ)``, so quantifying
    over all bit vectors covers every predicate φ. Substituting record i replaces ``bᵢ`` by the
    bit of the new record: ``|c_φ(S) − c_φ(S')| = |bᵢ − b'ᵢ| ≤ 1`` (GS = 1, seed 000 Alg 1
    counts, ``000_dff3c4dc97cf0e21.txt:L125-L138``).

    pre: len(bits) <= 10
    pre: 0 <= i < len(bits)
    post: abs(__return__) <= 1
    """
    neighbour = (*bits[:i], new, *bits[i + 1 :])
    return count(bits, _holds) - count(neighbour, _holds)


@over(bits=tuples((False, True), 10), i=range(10))
def count_change_add_remove(bits: tuple[bool, ...], i: int) -> int:
    """A counting query moves by at most 1 when one record is removed (or added).

    Removing record i drops exactly the term ``bᵢ``: ``|c_φ(S) − c_φ(S ∖ {xᵢ})| = bᵢ ≤ 1``.
    Adding a record is the same pair read the other way.

    pre: len(bits) <= 10
    pre: 0 <= i < len(bits)
    post: abs(__return__) <= 1
    """
    neighbour = bits[:i] + bits[i + 1 :]
    return count(bits, _holds) - count(neighbour, _holds)


@over(data=tuples(range(4), 5), bins=range(1, 5), i=range(5), new=range(4))
def histogram_change_substitution(data: tuple[int, ...], bins: int, i: int, new: int) -> Number:
    """``‖h(S) − h(S')‖₁ ≤ 2`` under substitution: one record leaves one bin, enters another.

    ``h(S)ⱼ = Σᵢ 1[xᵢ = j]``; replacing ``xᵢ = j`` by ``j'`` changes bin j by −1 and bin j' by
    +1 (nothing when j = j'), so the L1 change is exactly 0 or 2.

    pre: 1 <= bins <= 4
    pre: len(data) <= 5
    pre: all(0 <= r < bins for r in data)
    pre: 0 <= new < bins
    pre: 0 <= i < len(data)
    post: __return__ <= 2
    post: __return__ in (0, 2)
    """
    neighbour = (*data[:i], new, *data[i + 1 :])
    return l1_distance(histogram(data, bins), histogram(neighbour, bins))


@over(data=tuples(range(4), 5), bins=range(1, 5), i=range(5))
def histogram_change_add_remove(data: tuple[int, ...], bins: int, i: int) -> Number:
    """``‖h(S) − h(S ∖ {xᵢ})‖₁ = 1``: removing one record lowers exactly one bin by one.

    pre: 1 <= bins <= 4
    pre: len(data) <= 5
    pre: all(0 <= r < bins for r in data)
    pre: 0 <= i < len(data)
    post: __return__ <= 1
    post: __return__ == 1
    """
    neighbour = data[:i] + data[i + 1 :]
    return l1_distance(histogram(data, bins), histogram(neighbour, bins))


@over(records=tuples(_RECORDS, 4, 1), cells=range(1, 4), new_cell=range(3), new_label=range(2))
def centred_vote_change_substitution(
    records: tuple[tuple[int, int], ...], cells: int, new_cell: int, new_label: int
) -> Number:
    """``‖v(S) − v(S')‖₁ ≤ 1`` for PCL's per-cell vote ``v(S)_C = Σ_{i∈C}(yᵢ − ½)``.

    This is the "single calculation with global sensitivity 1" of the proof of Thm 3.1
    (``000_dff3c4dc97cf0e21.txt:L206``). Substituting ``(c, y)`` by ``(c', y')``: if c = c'
    the cell moves by ``|y − y'| ≤ 1``; if c ≠ c' cell c loses ``y − ½`` and cell c' gains
    ``y' − ½``, each of absolute value ½, total 1. The substituted record is the first one
    w.l.o.g.: ``v`` is a sum over the records, so reordering them changes nothing.

    pre: 1 <= cells <= 3
    pre: 1 <= len(records) <= 4
    pre: all(0 <= c < cells and 0 <= y <= 1 for c, y in records)
    pre: 0 <= new_cell < cells
    pre: 0 <= new_label <= 1
    post: __return__ <= 1
    """
    neighbour = ((new_cell, new_label), *records[1:])
    return l1_distance(centred_votes(records, cells), centred_votes(neighbour, cells))


@over(records=tuples(_RECORDS, 4, 1), cells=range(1, 4))
def centred_vote_change_add_remove(records: tuple[tuple[int, int], ...], cells: int) -> Number:
    """``‖v(S) − v(S ∖ {(c₁, y₁)})‖₁ = ½``: one cell loses ``y₁ − ½ = ±½``.

    So under add/remove the vote vector has sensitivity ½ and Lap(1/ε) noise is even
    (ε/2)-DP (``000_dff3c4dc97cf0e21.txt:L206``). The removed record is the first one w.l.o.g.
    (``v`` is a sum over the records).

    pre: 1 <= cells <= 3
    pre: 1 <= len(records) <= 4
    pre: all(0 <= c < cells and 0 <= y <= 1 for c, y in records)
    post: __return__ == Fraction(1, 2)
    """
    return l1_distance(centred_votes(records, cells), centred_votes(records[1:], cells))


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
