"""Neighbouring relations on datasets (seed 000 Def 1.1, ``000_dff3c4dc97cf0e21.txt:L15``).

A dataset is a finite sequence of records. Three relations are used by the seeds:

* ``ADD_REMOVE``: one dataset is the other with exactly one record removed (anywhere);
* ``SUBSTITUTE``: same length, exactly one position differs (the seeds' default, Def 1.1);
* ``LABEL``: records are ``(x, y)`` pairs; same length, exactly one position differs and only
  in its label ``y``;
* ``LOCAL``: local DP (seed 003, ``003_5e2a1f46235ac29b.txt:L94``): the "dataset" is one user's
  record and any two records are neighbours (substitution on one-record datasets).

Datasets compared here are sequences, so neighbours are positional. Every mechanism in dpspec
is symmetric in its records (it depends on the multiset only), so enumeration works on
multisets in canonical (sorted) order: that covers every neighbouring pair up to reordering.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from enum import StrEnum
from itertools import combinations_with_replacement
from typing import TypeVar

R = TypeVar("R", bound=Hashable)


class Relation(StrEnum):
    """The neighbouring relations of the seeds."""

    ADD_REMOVE = "add-remove"
    SUBSTITUTE = "substitute"
    LABEL = "label"
    LOCAL = "local"


def _removes_one(longer: Sequence[R], shorter: Sequence[R]) -> bool:
    """True when ``shorter`` is ``longer`` with exactly one position deleted."""
    if len(longer) != len(shorter) + 1:
        return False
    i = 0
    while i < len(shorter) and longer[i] == shorter[i]:
        i += 1
    return all(longer[j + 1] == shorter[j] for j in range(i, len(shorter)))


def differing_positions(a: Sequence[R], b: Sequence[R]) -> list[int]:
    """Positions where two equal-length sequences differ.

    pre: len(a) == len(b)
    post: all(a[i] != b[i] for i in __return__)
    """
    return [i for i in range(len(a)) if a[i] != b[i]]


def _relation(relation: Relation) -> Relation:
    """The member for ``relation``; its string value (``"add-remove"``, ...) is accepted too."""
    try:
        return Relation(relation)
    except ValueError:
        raise ValueError(f"relation: unknown neighbouring relation {relation!r}") from None


def is_neighbour(a: Sequence[R], b: Sequence[R], relation: Relation) -> bool:
    """Whether ``a`` and ``b`` are neighbours under ``relation`` (symmetric, irreflexive)."""
    relation = _relation(relation)
    if relation is Relation.ADD_REMOVE:
        return _removes_one(a, b) or _removes_one(b, a)
    if relation is Relation.LOCAL:
        return len(a) == 1 == len(b) and a[0] != b[0]
    if len(a) != len(b):
        return False
    diff = differing_positions(a, b)
    if len(diff) != 1:
        return False
    if relation is Relation.SUBSTITUTE:
        return True
    ra, rb = a[diff[0]], b[diff[0]]
    if not (isinstance(ra, tuple) and isinstance(rb, tuple) and len(ra) == 2 == len(rb)):
        raise ValueError("relation: LABEL needs records that are (x, y) pairs")
    return bool(ra[0] == rb[0])


def _canonical(records: Sequence[R]) -> tuple[R, ...]:
    return tuple(sorted(records, key=repr))


def neighbours(
    data: Sequence[R], relation: Relation, domain: Sequence[R]
) -> Iterator[tuple[R, ...]]:
    """Every neighbour of ``data`` over the finite record ``domain``, as canonical multisets.

    For ``LABEL`` the domain is the set of (x, y) records; a label change keeps x and picks
    another y that occurs with x in the domain. Each neighbour is yielded once.
    """
    relation = _relation(relation)
    seen: set[tuple[R, ...]] = set()
    base = list(data)
    out: list[tuple[R, ...]] = []
    if relation is Relation.ADD_REMOVE:
        out.extend(_canonical(base[:i] + base[i + 1 :]) for i in range(len(base)))
        out.extend(_canonical([*base, r]) for r in domain)
    elif relation is Relation.LOCAL:
        out.extend((r,) for r in domain if len(base) == 1 and r != base[0])
    else:
        for i, old in enumerate(base):
            for new in domain:
                if new == old:
                    continue
                if relation is Relation.LABEL and not is_neighbour([old], [new], relation):
                    continue
                out.append(_canonical([*base[:i], new, *base[i + 1 :]]))
    for nb in out:
        if nb not in seen:
            seen.add(nb)
            yield nb


def datasets(domain: Sequence[R], max_size: int, min_size: int = 0) -> Iterator[tuple[R, ...]]:
    """All multisets over ``domain`` with ``min_size`` ≤ size ≤ ``max_size`` (canonical order)."""
    if min_size < 0 or max_size < min_size:
        raise ValueError("max_size: need 0 <= min_size <= max_size")
    if len(set(domain)) != len(domain):
        raise ValueError("domain: records must be distinct")
    for k in range(min_size, max_size + 1):
        for combo in combinations_with_replacement(sorted(domain, key=repr), k):
            yield tuple(combo)


def neighbouring_pairs(
    domain: Sequence[R], max_size: int, relation: Relation, min_size: int = 0
) -> Iterator[tuple[tuple[R, ...], tuple[R, ...]]]:
    """Every unordered neighbouring pair of multisets of size ≤ ``max_size``, each once.

    Both datasets of a pair have size in [min_size, max_size]. Privacy predicates are
    checked in both directions, so unordered pairs suffice.
    """
    for a in datasets(domain, max_size, min_size):
        for b in neighbours(a, relation, domain):
            if min_size <= len(b) <= max_size and repr(a) < repr(b):
                yield a, b
