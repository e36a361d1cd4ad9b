"""Global sensitivity of dataset queries (seed 000 Def 2.1, ``000_dff3c4dc97cf0e21.txt:L117``).

For a query ``f`` mapping datasets to vectors in ℝᵏ and a neighbouring relation ~,

    GS(f) = max_{S ~ S'} ‖f(S) − f(S')‖₁.

The Laplace mechanism (Def 2.2, Thm 2.3, ``000_dff3c4dc97cf0e21.txt:L119-L121``) adds i.i.d.
Lap(GS(f)/ε) noise to every coordinate and is ε-DP; the privacy-loss side of that theorem lives
in :mod:`dpspec.spec.mechanisms`.

Everything here is exact: records and query values are ``int`` or ``Fraction``, never floats,
so a computed sensitivity is the true maximum over the enumerated pairs. The pairs come from
:func:`dpspec.spec.neighbours.neighbouring_pairs`, which enumerates every neighbouring pair of
multisets up to a size bound; over that finite family :func:`global_sensitivity` is the exact
maximum, and a value above the claimed bound is a genuine counterexample to the claim.

The queries of the seeds:

* :func:`count` — ``|{i : φ(xᵢ)}|``: GS = 1 under substitution and under add/remove;
* :func:`histogram` — the vector of bin counts: GS = 2 under substitution (one record leaves a
  bin and enters another), 1 under add/remove (one bin changes by one);
* :func:`centred_votes` — PCL's per-cell vote ``Σ_{i∈C} (yᵢ − ½)`` (Alg 2, seed 000
  ``000_dff3c4dc97cf0e21.txt:L193-L206``): GS = 1 under substitution (a label flip moves one
  cell by 1; a move between cells moves two cells by ½ each) and ½ under add/remove;
* :func:`mistakes` — ``err_S(h)``, the score of the exponential mechanism's dichotomy selection
  (seed 000 Thm 4.10, ``000_dff3c4dc97cf0e21.txt:L349``): GS = 1 under substitution, per h.

The queries are written without data-dependent branches (indicator sums instead of ``if``) so
that CrossHair (the lemmas of ``dpspec.proofs.topics.*.lemmas``) explores few paths; the
values are the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import TypeAlias, TypeVar

D = TypeVar("D")
R = TypeVar("R")

Number: TypeAlias = int | Fraction
"""An exact scalar: ``int`` (``bool`` included) or ``Fraction``."""

QueryValue: TypeAlias = int | Fraction | Sequence[int | Fraction]
"""What a query returns: a scalar (treated as a vector of length 1) or a vector of scalars."""


def abs_difference(x: Number, y: Number) -> Number:
    """``|x − y|`` exactly: an ``int`` when both are ``int``, else a ``Fraction``."""
    if isinstance(x, int) and isinstance(y, int):
        return abs(x - y)
    return abs(Fraction(x) - Fraction(y))


def l1_distance(u: Sequence[Number], v: Sequence[Number]) -> Number:
    """The L1 distance ``‖u − v‖₁ = Σⱼ |uⱼ − vⱼ|`` of two equal-length exact vectors.

    The norm of Def 2.1 (``000_dff3c4dc97cf0e21.txt:L117``). Raises ``ValueError`` when the
    lengths differ: a query must have the same output dimension on neighbouring datasets.
    """
    if len(u) != len(v):
        raise ValueError(f"u, v: lengths differ ({len(u)} != {len(v)})")
    total: Number = 0
    for x, y in zip(u, v, strict=True):
        total += abs_difference(x, y)
    return total


def count(data: Iterable[R], predicate: Callable[[R], bool]) -> int:
    """The counting query ``c_φ(S) = |{i : φ(xᵢ)}| = Σᵢ 1[φ(xᵢ)]``.

    ``c_φ(S)`` depends on ``S`` only through the bit vector ``(φ(xᵢ))ᵢ``: substituting one
    record flips at most one bit and adding/removing one record adds/removes one bit, so
    ``|c_φ(S) − c_φ(S')| ≤ 1`` under both relations (seed 000 Alg 1 counts,
    ``000_dff3c4dc97cf0e21.txt:L125``).
    """
    # Summed as booleans (no ``if``): one symbolic path per length in the lemmas.
    return sum(predicate(record) for record in data)


def histogram(data: Sequence[int], bins: int) -> tuple[int, ...]:
    """The histogram ``h(S)ⱼ = |{i : xᵢ = j}|`` for ``j = 0, …, bins − 1``.

    Records are bin indices (the bins are a fixed public partition, as in seed 000 Alg 1,
    ``000_dff3c4dc97cf0e21.txt:L125-L147``, and SampCert's histogram). ``Σⱼ h(S)ⱼ = |S|``.
    Substitution moves one record from bin j to bin j' (L1 change 2 when j ≠ j', else 0);
    add/remove changes one bin by one (L1 change 1).

    Raises ``ValueError`` when ``bins < 1`` or a record is not in ``range(bins)``.
    """
    if bins < 1:
        raise ValueError(f"bins: need at least one bin, got {bins}")
    for record in data:
        if not 0 <= record < bins:
            raise ValueError(f"data: record {record} is not a bin index in [0, {bins})")
    # Σᵢ 1[xᵢ = j] summed as booleans: no data-dependent branch, so symbolic execution
    # (its lemmas) explores one path per dataset length instead of one per content.
    return tuple(sum(record == j for record in data) for j in range(bins))


def centred_votes(records: Sequence[tuple[int, int]], cells: int) -> tuple[Fraction, ...]:
    """PCL's centred per-cell vote ``v(S)_C = Σ_{(c, y) ∈ S, c = C} (y − ½)``.

    Records are ``(cell, label)`` pairs with ``cell ∈ range(cells)`` and ``label ∈ {0, 1}``.
    PCL (seed 000 Alg 2, ``000_dff3c4dc97cf0e21.txt:L193-L200``) predicts 1 on cell C iff
    ``Σ_{i∈C} yᵢ + Lap(1/ε) > |C|/2``, i.e. iff ``v(S)_C + w_C > 0``
    (``000_dff3c4dc97cf0e21.txt:L206``). With ``n_C`` records of which ``k_C`` have label 1,
    ``v(S)_C = k_C − n_C/2 = (2k_C − n_C)/2``.

    Sensitivity: a label flip inside a cell changes that cell by 1; moving a record between
    cells changes two cells by ½ each (total 1); adding/removing a record changes one cell by
    ½. So ``GS = 1`` under substitution and ``½`` under add/remove.

    Raises ``ValueError`` when ``cells < 1``, a cell index is out of range, or a label is not
    0 or 1.
    """
    if cells < 1:
        raise ValueError(f"cells: need at least one cell, got {cells}")
    for cell, label in records:
        if not 0 <= cell < cells:
            raise ValueError(f"records: cell {cell} is not in [0, {cells})")
        if not 0 <= label <= 1:
            raise ValueError(f"records: label {label} is not 0 or 1")
    # 2·v(S)_C = Σᵢ 1[cᵢ = C]·(2yᵢ − 1), branch-free as in histogram(); halved as
    # Fraction(m) / 2 so the denominator is decided by one parity test (cheap for CrossHair).
    return tuple(
        Fraction(sum((cell == c) * (2 * label - 1) for cell, label in records)) / 2
        for c in range(cells)
    )


def mistakes(records: Sequence[tuple[int, int]], candidate: Sequence[int]) -> int:
    """The number of mistakes ``err_S(h) = Σᵢ 1[h(xᵢ) ≠ yᵢ]`` of a candidate labelling ``h``.

    Records are ``(x, y)`` with ``x`` an index into the finite domain ``range(len(candidate))``
    and ``candidate[x]`` the label ``h(x)``: a candidate is a dichotomy of the domain, as in the
    semi-private learner of seed 000 Thm 4.10 (``000_dff3c4dc97cf0e21.txt:L349``) that picks a
    dichotomy with the exponential mechanism scored by ``f(S, h) = −err_S(h)``
    (``002_9f3104e4a0d86722.txt:L655``). One substituted record changes one term, so
    ``|err_S(h) − err_{S'}(h)| ≤ 1`` for every ``h``: score sensitivity Δ = 1.

    Raises ``ValueError`` when a record's ``x`` is not an index of ``candidate``.
    """
    k = len(candidate)
    for x, _ in records:
        if not 0 <= x < k:
            raise ValueError(f"records: x = {x} is not a domain index in [0, {k})")
    # Σᵢ Σⱼ 1[xᵢ = j]·1[h(j) ≠ yᵢ], branch-free as in histogram().
    return sum((x == j) * (h != y) for x, y in records for j, h in enumerate(candidate))


def _as_vector(value: QueryValue) -> Sequence[Number]:
    if isinstance(value, (int, Fraction)):
        return (value,)
    return value


def global_sensitivity(f: Callable[[D], QueryValue], pairs: Iterable[tuple[D, D]]) -> Number:
    """``max_{(S, S') ∈ pairs} ‖f(S) − f(S')‖₁`` (Def 2.1, ``000_dff3c4dc97cf0e21.txt:L117``).

    ``f`` returns a vector (a sequence of ``int``/``Fraction``) or a scalar, which is treated
    as a vector of length 1. Over the finite family ``pairs`` — e.g.
    ``neighbouring_pairs(domain, max_size, relation)`` — this is the exact maximum; 0 when
    ``pairs`` is empty. Raises ``ValueError`` when f's output length differs on a pair.
    """
    worst: Number = 0
    for a, b in pairs:
        worst = max(worst, l1_distance(_as_vector(f(a)), _as_vector(f(b))))
    return worst


def sensitivity_counterexample(
    f: Callable[[D], QueryValue], pairs: Iterable[tuple[D, D]], bound: Number
) -> tuple[D, D, Number] | None:
    """The first pair with ``‖f(S) − f(S')‖₁ > bound`` as ``(S, S', distance)``, else ``None``."""
    for a, b in pairs:
        distance = l1_distance(_as_vector(f(a)), _as_vector(f(b)))
        if distance > bound:
            return a, b, distance
    return None


def satisfies_sensitivity(
    f: Callable[[D], QueryValue], pairs: Iterable[tuple[D, D]], bound: Number
) -> bool:
    """Whether ``‖f(S) − f(S')‖₁ ≤ bound`` for every pair, i.e. ``GS(f) ≤ bound`` on ``pairs``.

    Stops at the first violating pair (see :func:`sensitivity_counterexample` to get it).
    """
    return sensitivity_counterexample(f, pairs, bound) is None
