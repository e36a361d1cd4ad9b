"""Neighbouring pairs ``(d, d')`` under a :class:`~dpspec.spec.neighbours.Relation`, finite and
continuous.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from hypothesis.strategies import DrawFn, SearchStrategy

from dpspec.spec.neighbours import Relation
from dpspec.strategies.common import (
    DEFAULT_MAX_SIZE,
    DEFAULT_MIN_SIZE,
    FloatArray,
    R,
    check_bounds,
    check_records,
    check_relation,
    check_sizes,
)
from dpspec.strategies.datasets import continuous_datasets, finite_datasets, float_elements


def label_alternatives(domain: tuple[Any, ...]) -> dict[Any, tuple[Any, ...]]:
    """For each (x, y) record, the other records of ``domain`` with the same x."""
    for r in domain:
        if not (isinstance(r, tuple) and len(r) == 2):
            raise ValueError(f"domain: LABEL needs (x, y) records, got {r!r}")
    return {r: tuple(s for s in domain if s[0] == r[0] and s != r) for r in domain}


def alternatives(domain: tuple[Any, ...], relation: Relation) -> dict[Any, tuple[Any, ...]]:
    """For each record, the records that may replace it under a same-length relation."""
    if relation is Relation.LABEL:
        return label_alternatives(domain)
    return {r: tuple(s for s in domain if s != r) for r in domain}


def neighbouring_pairs(
    data: SearchStrategy[Sequence[R]] | Sequence[R],
    relation: Relation,
    domain: Sequence[R] | None = None,
    *,
    min_size: int | None = None,
    max_size: int | None = None,
) -> SearchStrategy[tuple[tuple[R, ...], tuple[R, ...]]]:
    """A dataset ``d`` and one neighbour ``d'`` of it under ``relation``, as ``(d, d')``.

    ``data`` is either the record domain (a sequence of distinct records; ``domain`` may then
    be omitted or must hold the same records) or a strategy for datasets, in which case
    ``domain`` is required: the records a neighbour may introduce.

    * ``ADD_REMOVE``: ``d'`` is ``d`` with one record removed or one record of ``domain``
      inserted, at any position; both occur.
    * ``SUBSTITUTE``: one position of ``d`` replaced by a different record of ``domain``.
    * ``LABEL``: records are ``(x, y)``; one position's record replaced by another record of
      ``domain`` with the same ``x`` (see :func:`labelled_domain`).
    * ``LOCAL``: two one-record datasets with different records.

    With a domain, both datasets have ``min_size``–``max_size`` records (defaults 0 and 8)
    and generation never rejects. With a strategy the sizes are the strategy's (``min_size``
    and ``max_size`` must not be given) and drawn datasets without any neighbour (empty for
    ``SUBSTITUTE``/``LABEL``, or no record with another label) are rejected.
    ``is_neighbour(d, d', relation)`` holds for every pair.
    """
    rel = check_relation(relation)
    if isinstance(data, SearchStrategy):
        if domain is None:
            raise ValueError("domain: required when data is a strategy")
        if min_size is not None or max_size is not None:
            raise ValueError("min_size: sizes come from the data strategy; do not pass them")
        records: tuple[R, ...] = check_records(domain, "domain")
        if not records:
            raise ValueError("domain: empty, no record to introduce")
        return _pairs_from_strategy(data, rel, records, alternatives(records, rel))
    records = check_records(data, "data")
    if domain is not None and set(check_records(domain, "domain")) != set(records):
        raise ValueError("domain: when data is a domain, omit domain or pass the same records")
    lo = DEFAULT_MIN_SIZE if min_size is None else min_size
    hi = DEFAULT_MAX_SIZE if max_size is None else max_size
    check_sizes(lo, hi)
    if not records:
        raise ValueError("data: empty domain, no dataset has a neighbour")
    if rel is Relation.ADD_REMOVE:
        if lo == hi:
            raise ValueError("max_size: ADD_REMOVE needs max_size > min_size")
        return _add_remove_pairs(records, lo, hi)
    if hi < 1:
        raise ValueError(f"max_size: {rel.name} needs datasets with >= 1 record")
    if rel is Relation.LOCAL and lo > 1:
        raise ValueError("min_size: LOCAL pairs are one-record datasets, need min_size <= 1")
    alts = alternatives(records, rel)
    flexible = tuple(r for r in records if alts[r])
    if not flexible:
        raise ValueError(f"data: no record has a {rel.name} alternative in the domain")
    if rel is Relation.LOCAL:
        lo = hi = 1
    return _same_length_pairs(records, flexible, alts, max(lo, 1), hi)


@st.composite
def _add_remove_pairs(
    draw: DrawFn, domain: tuple[R, ...], lo: int, hi: int
) -> tuple[tuple[R, ...], tuple[R, ...]]:
    d = draw(finite_datasets(domain, lo, hi))
    can_remove, can_add = len(d) > lo, len(d) < hi
    if can_remove and (not can_add or draw(st.booleans())):
        i = draw(st.integers(0, len(d) - 1))
        return d, d[:i] + d[i + 1 :]
    i = draw(st.integers(0, len(d)))
    new = draw(st.sampled_from(domain))
    return d, (*d[:i], new, *d[i:])


@st.composite
def _same_length_pairs(
    draw: DrawFn,
    domain: tuple[R, ...],
    flexible: tuple[R, ...],
    alts: dict[R, tuple[R, ...]],
    lo: int,
    hi: int,
) -> tuple[tuple[R, ...], tuple[R, ...]]:
    n = draw(st.integers(lo, hi))
    i = draw(st.integers(0, n - 1))
    before = draw(finite_datasets(domain, i, i))
    old = draw(st.sampled_from(flexible))
    after = draw(finite_datasets(domain, n - 1 - i, n - 1 - i))
    new = draw(st.sampled_from(alts[old]))
    return (*before, old, *after), (*before, new, *after)


@st.composite
def _pairs_from_strategy(
    draw: DrawFn,
    data: SearchStrategy[Sequence[R]],
    relation: Relation,
    domain: tuple[R, ...],
    alts: dict[R, tuple[R, ...]],
) -> tuple[tuple[R, ...], tuple[R, ...]]:
    d = tuple(draw(data))
    if relation is Relation.ADD_REMOVE:
        if len(d) > 0 and draw(st.booleans()):
            i = draw(st.integers(0, len(d) - 1))
            return d, d[:i] + d[i + 1 :]
        i = draw(st.integers(0, len(d)))
        return d, (*d[:i], draw(st.sampled_from(domain)), *d[i:])
    if relation is Relation.LOCAL:
        assume(len(d) == 1)
    options = [alts[r] if r in alts else _outside(r, domain, relation) for r in d]
    positions = [i for i, opts in enumerate(options) if opts]
    assume(len(positions) > 0)
    i = draw(st.sampled_from(positions))
    new = draw(st.sampled_from(options[i]))
    return d, (*d[:i], new, *d[i + 1 :])


def _outside(record: R, domain: tuple[R, ...], relation: Relation) -> tuple[R, ...]:
    """Replacements for a record of the data that is not in the domain."""
    if relation is Relation.SUBSTITUTE:
        return domain
    if not (isinstance(record, tuple) and len(record) == 2):
        raise ValueError(f"data: LABEL needs (x, y) records, got {record!r}")
    return tuple(s for s in domain if s[0] == record[0])  # type: ignore[index]


def continuous_neighbouring_pairs(
    min_value: float,
    max_value: float,
    relation: Relation = Relation.SUBSTITUTE,
    *,
    min_size: int = 1,
    max_size: int = 50,
    dim: int | None = None,
) -> SearchStrategy[tuple[FloatArray, FloatArray]]:
    """A continuous dataset and one neighbour of it, as ``(X, X')`` (see :func:`as_records`).

    ``X`` is drawn as by :func:`continuous_datasets`. ``SUBSTITUTE``: one row replaced by a
    fresh row that differs from it; ``ADD_REMOVE``: one row removed, or a fresh row inserted
    at any position (both occur). Both arrays have ``min_size``–``max_size`` rows and values
    in ``[min_value, max_value]``. ``LABEL`` is not defined for unlabelled arrays.
    """
    rel = check_relation(relation)
    check_sizes(min_size, max_size)
    check_bounds(min_value, max_value)
    if dim is not None and dim < 1:
        raise ValueError(f"dim: must be >= 1 or None, got {dim}")
    if rel is Relation.LABEL:
        raise ValueError("relation: LABEL needs labelled records, not a numeric array")
    if rel is Relation.SUBSTITUTE:
        if max_size < 1:
            raise ValueError("max_size: SUBSTITUTE needs datasets with >= 1 row")
        if min_value == max_value:
            raise ValueError("max_value: SUBSTITUTE needs two different values")
        return _continuous_substitute(min_value, max_value, max(min_size, 1), max_size, dim)
    if min_size == max_size:
        raise ValueError("max_size: ADD_REMOVE needs max_size > min_size")
    return _continuous_add_remove(min_value, max_value, min_size, max_size, dim)


def _rows(min_value: float, max_value: float, dim: int | None) -> SearchStrategy[Any]:
    """One fresh record: a float, or a ``(dim,)`` float array."""
    if dim is None:
        return float_elements(min_value, max_value)
    return hnp.arrays(np.float64, (dim,), elements=float_elements(min_value, max_value))


@st.composite
def _continuous_substitute(
    draw: DrawFn, min_value: float, max_value: float, lo: int, hi: int, dim: int | None
) -> tuple[FloatArray, FloatArray]:
    x = draw(continuous_datasets(min_value, max_value, lo, hi, dim))
    i = draw(st.integers(0, x.shape[0] - 1))
    old = x[i].copy()
    new = draw(_rows(min_value, max_value, dim).filter(lambda r: bool(np.any(r != old))))
    y = x.copy()
    y[i] = new
    return x, y


@st.composite
def _continuous_add_remove(
    draw: DrawFn, min_value: float, max_value: float, lo: int, hi: int, dim: int | None
) -> tuple[FloatArray, FloatArray]:
    x = draw(continuous_datasets(min_value, max_value, lo, hi, dim))
    n = x.shape[0]
    can_remove, can_add = n > lo, n < hi
    if can_remove and (not can_add or draw(st.booleans())):
        i = draw(st.integers(0, n - 1))
        return x, np.delete(x, i, axis=0)
    i = draw(st.integers(0, n))
    row = draw(_rows(min_value, max_value, dim))
    return x, np.insert(x, i, row, axis=0)
