"""Public Hypothesis strategies for differential-privacy property tests (``dpspec.strategies``).

Datasets follow :mod:`dpspec.spec.neighbours`: a dataset is a finite sequence of records (a
``tuple`` here, a ``numpy`` array for continuous data), and neighbours are positional under a
:class:`~dpspec.spec.neighbours.Relation`. Output distributions follow
:mod:`dpspec.spec.privacy`: a finite mapping ``outcome -> probability``.

* :func:`finite_datasets`, :func:`labelled_datasets`, :func:`continuous_datasets` draw datasets;
* :func:`neighbouring_pairs` and :func:`continuous_neighbouring_pairs` draw a dataset ``d`` and
  one of its neighbours ``d'``, returned as ``(d, d')``; ``is_neighbour(d, d', relation)``
  always holds (for arrays: on the rows, see :func:`as_records`);
* :func:`distributions` and :func:`distribution_pairs` draw finite distributions, exact
  (``Fraction`` probabilities summing to exactly 1) or ``float``.

The strategies are built constructively: the only rejections are a fresh continuous row that
happens to equal the row it replaces, and (for :func:`neighbouring_pairs` over a user strategy)
a drawn dataset that has no neighbour at all. They shrink towards small datasets and
point-mass-like distributions, and validate their arguments eagerly: a bad argument raises
``ValueError`` naming it when the strategy is created. ``Relation`` members or their string
values (``"add-remove"``, ``"substitute"``, ``"label"``) are accepted.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any, Literal, TypeVar, overload

import numpy as np
import numpy.typing as npt
from hypothesis import assume
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from hypothesis.strategies import DrawFn, SearchStrategy

from dpspec.spec.neighbours import Relation

__all__ = [
    "FloatArray",
    "as_records",
    "continuous_datasets",
    "continuous_neighbouring_pairs",
    "distribution_pairs",
    "distributions",
    "finite_datasets",
    "labelled_datasets",
    "labelled_domain",
    "neighbouring_pairs",
]

R = TypeVar("R", bound=Hashable)
X = TypeVar("X", bound=Hashable)
Y = TypeVar("Y", bound=Hashable)
Out = TypeVar("Out", bound=Hashable)

#: A continuous dataset: ``float64`` array of shape ``(n,)`` or ``(n, dim)``.
FloatArray = npt.NDArray[np.float64]

_DEFAULT_MIN_SIZE = 0
_DEFAULT_MAX_SIZE = 8


# --- argument checks ------------------------------------------------------------------------


def _check_sizes(min_size: int, max_size: int) -> None:
    if min_size < 0:
        raise ValueError(f"min_size: must be >= 0, got {min_size}")
    if max_size < min_size:
        raise ValueError(f"max_size: must be >= min_size = {min_size}, got {max_size}")


def _check_records(records: Sequence[Any], name: str) -> tuple[Any, ...]:
    out = tuple(records)
    if len(set(out)) != len(out):
        raise ValueError(f"{name}: records must be distinct")
    return out


def _check_bounds(min_value: float, max_value: float) -> None:
    if not (math.isfinite(min_value) and math.isfinite(max_value)):
        raise ValueError(f"min_value: bounds must be finite, got [{min_value}, {max_value}]")
    if max_value < min_value:
        raise ValueError(f"max_value: must be >= min_value = {min_value}, got {max_value}")


def _check_relation(relation: Relation | str) -> Relation:
    try:
        return Relation(relation)
    except ValueError:
        raise ValueError(f"relation: unknown neighbouring relation {relation!r}") from None


# --- datasets -------------------------------------------------------------------------------


def finite_datasets(
    domain: Sequence[R], min_size: int = _DEFAULT_MIN_SIZE, max_size: int = _DEFAULT_MAX_SIZE
) -> SearchStrategy[tuple[R, ...]]:
    """Tuples of ``min_size``–``max_size`` records drawn (with repetition) from ``domain``.

    ``domain`` is a finite sequence of distinct hashable records; it may be empty only when
    ``max_size == 0``. Shrinks towards short datasets of the first records of ``domain``.
    """
    _check_sizes(min_size, max_size)
    records: tuple[R, ...] = _check_records(domain, "domain")
    if not records:
        if min_size > 0:
            raise ValueError("domain: empty, so no dataset has min_size > 0 records")
        return st.just(())
    return st.lists(st.sampled_from(records), min_size=min_size, max_size=max_size).map(tuple)


@overload
def labelled_domain(domain_x: Sequence[X]) -> tuple[tuple[X, int], ...]: ...


@overload
def labelled_domain(domain_x: Sequence[X], labels: Sequence[Y]) -> tuple[tuple[X, Y], ...]: ...


def labelled_domain(domain_x: Sequence[Any], labels: Sequence[Any] = (0, 1)) -> tuple[Any, ...]:
    """Every record ``(x, y)`` with ``x`` in ``domain_x`` and ``y`` in ``labels``.

    The record domain to pass with :attr:`Relation.LABEL` to :func:`neighbouring_pairs` and to
    :func:`dpspec.spec.neighbours.neighbours`.
    """
    xs = _check_records(domain_x, "domain_x")
    ys = _check_records(labels, "labels")
    return tuple((x, y) for x in xs for y in ys)


@overload
def labelled_datasets(
    domain_x: Sequence[X], *, min_size: int = ..., max_size: int = ...
) -> SearchStrategy[tuple[tuple[X, int], ...]]: ...


@overload
def labelled_datasets(
    domain_x: Sequence[X], labels: Sequence[Y], min_size: int = ..., max_size: int = ...
) -> SearchStrategy[tuple[tuple[X, Y], ...]]: ...


def labelled_datasets(
    domain_x: Sequence[Any],
    labels: Sequence[Any] = (0, 1),
    min_size: int = _DEFAULT_MIN_SIZE,
    max_size: int = _DEFAULT_MAX_SIZE,
) -> SearchStrategy[tuple[Any, ...]]:
    """Tuples of labelled records ``(x, y)``, ``x`` from ``domain_x`` and ``y`` from ``labels``.

    Equivalent to ``finite_datasets(labelled_domain(domain_x, labels), min_size, max_size)``.
    """
    return finite_datasets(labelled_domain(domain_x, labels), min_size, max_size)


def continuous_datasets(
    min_value: float,
    max_value: float,
    min_size: int = 1,
    max_size: int = 50,
    dim: int | None = None,
) -> SearchStrategy[FloatArray]:
    """``float64`` arrays of finite values in ``[min_value, max_value]``.

    Shape ``(n,)`` when ``dim`` is ``None``, else ``(n, dim)``, with
    ``min_size <= n <= max_size``. No NaN and no infinities are drawn.
    """
    _check_sizes(min_size, max_size)
    _check_bounds(min_value, max_value)
    if dim is not None and dim < 1:
        raise ValueError(f"dim: must be >= 1 or None, got {dim}")
    rows = st.integers(min_size, max_size)
    shape: SearchStrategy[tuple[int, ...]]
    if dim is None:
        shape = rows.map(lambda n: (n,))
    else:
        d = dim
        shape = rows.map(lambda n: (n, d))
    return hnp.arrays(np.float64, shape, elements=_float_elements(min_value, max_value))


def _float_elements(min_value: float, max_value: float) -> SearchStrategy[float]:
    return st.floats(min_value, max_value, allow_nan=False, allow_infinity=False)


def as_records(data: FloatArray) -> tuple[Any, ...]:
    """The rows of a continuous dataset as hashable records (floats, or tuples of floats).

    ``is_neighbour(as_records(a), as_records(b), relation)`` is the neighbour relation on
    arrays; it compares values with ``==`` (so ``-0.0`` equals ``0.0``).
    """
    if data.ndim == 1:
        return tuple(float(v) for v in data)
    if data.ndim == 2:
        return tuple(tuple(float(v) for v in row) for row in data)
    raise ValueError(f"data: expected a 1-D or 2-D array, got shape {data.shape}")


# --- neighbouring pairs ---------------------------------------------------------------------


def _label_alternatives(domain: tuple[Any, ...]) -> dict[Any, tuple[Any, ...]]:
    """For each (x, y) record, the other records of ``domain`` with the same x."""
    for r in domain:
        if not (isinstance(r, tuple) and len(r) == 2):
            raise ValueError(f"domain: LABEL needs (x, y) records, got {r!r}")
    return {r: tuple(s for s in domain if s[0] == r[0] and s != r) for r in domain}


def _alternatives(domain: tuple[Any, ...], relation: Relation) -> dict[Any, tuple[Any, ...]]:
    """For each record, the records that may replace it under a same-length relation."""
    if relation is Relation.LABEL:
        return _label_alternatives(domain)
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
    rel = _check_relation(relation)
    if isinstance(data, SearchStrategy):
        if domain is None:
            raise ValueError("domain: required when data is a strategy")
        if min_size is not None or max_size is not None:
            raise ValueError("min_size: sizes come from the data strategy; do not pass them")
        records: tuple[R, ...] = _check_records(domain, "domain")
        if not records:
            raise ValueError("domain: empty, no record to introduce")
        return _pairs_from_strategy(data, rel, records, _alternatives(records, rel))
    records = _check_records(data, "data")
    if domain is not None and set(_check_records(domain, "domain")) != set(records):
        raise ValueError("domain: when data is a domain, omit domain or pass the same records")
    lo = _DEFAULT_MIN_SIZE if min_size is None else min_size
    hi = _DEFAULT_MAX_SIZE if max_size is None else max_size
    _check_sizes(lo, hi)
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
    alts = _alternatives(records, rel)
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
    rel = _check_relation(relation)
    _check_sizes(min_size, max_size)
    _check_bounds(min_value, max_value)
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
        return _float_elements(min_value, max_value)
    return hnp.arrays(np.float64, (dim,), elements=_float_elements(min_value, max_value))


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


# --- distributions --------------------------------------------------------------------------


def _weights(n: int, max_weight: int, allow_zero: bool) -> SearchStrategy[list[int]]:
    def positive_total(w: list[int]) -> list[int]:
        return w if sum(w) > 0 else [1, *w[1:]]

    low = 0 if allow_zero else 1
    return st.lists(st.integers(low, max_weight), min_size=n, max_size=n).map(positive_total)


@overload
def distributions(
    outcomes: Sequence[Out],
    exact: Literal[True] = True,
    *,
    max_weight: int = ...,
    allow_zero: bool = ...,
) -> SearchStrategy[dict[Out, Fraction]]: ...


@overload
def distributions(
    outcomes: Sequence[Out],
    exact: Literal[False],
    *,
    max_weight: int = ...,
    allow_zero: bool = ...,
) -> SearchStrategy[dict[Out, float]]: ...


@overload
def distributions(
    outcomes: Sequence[Out],
    exact: bool,
    *,
    max_weight: int = ...,
    allow_zero: bool = ...,
) -> SearchStrategy[dict[Out, Fraction]] | SearchStrategy[dict[Out, float]]: ...


def distributions(
    outcomes: Sequence[Out],
    exact: bool = True,
    *,
    max_weight: int = 16,
    allow_zero: bool = True,
) -> SearchStrategy[dict[Out, Fraction]] | SearchStrategy[dict[Out, float]]:
    """Random distributions on ``outcomes``: a dict with every outcome as a key.

    Probabilities are integer weights in ``[0, max_weight]`` (``[1, max_weight]`` when
    ``allow_zero`` is false) divided by their total, so each probability is a multiple of
    1/total. ``exact=True`` gives ``Fraction`` values summing to exactly 1; ``exact=False``
    gives the nearest ``float`` values (sum within a few ulps of 1). Zero probabilities occur
    when allowed, so two draws may have different supports. Shrinks towards a point mass on
    the first outcome.
    """
    outs: tuple[Out, ...] = _check_records(outcomes, "outcomes")
    if not outs:
        raise ValueError("outcomes: need at least one outcome")
    if max_weight < 1:
        raise ValueError(f"max_weight: must be >= 1, got {max_weight}")
    weights = _weights(len(outs), max_weight, allow_zero)

    def exact_law(w: list[int]) -> dict[Out, Fraction]:
        total = sum(w)
        return {o: Fraction(wi, total) for o, wi in zip(outs, w, strict=True)}

    def float_law(w: list[int]) -> dict[Out, float]:
        total = sum(w)
        return {o: wi / total for o, wi in zip(outs, w, strict=True)}

    return weights.map(exact_law) if exact else weights.map(float_law)


@overload
def distribution_pairs(
    outcomes: Sequence[Out],
    exact: Literal[True] = True,
    *,
    max_weight: int = ...,
    allow_zero: bool = ...,
) -> SearchStrategy[tuple[dict[Out, Fraction], dict[Out, Fraction]]]: ...


@overload
def distribution_pairs(
    outcomes: Sequence[Out],
    exact: Literal[False],
    *,
    max_weight: int = ...,
    allow_zero: bool = ...,
) -> SearchStrategy[tuple[dict[Out, float], dict[Out, float]]]: ...


@overload
def distribution_pairs(
    outcomes: Sequence[Out],
    exact: bool,
    *,
    max_weight: int = ...,
    allow_zero: bool = ...,
) -> (
    SearchStrategy[tuple[dict[Out, Fraction], dict[Out, Fraction]]]
    | SearchStrategy[tuple[dict[Out, float], dict[Out, float]]]
): ...


def distribution_pairs(
    outcomes: Sequence[Out],
    exact: bool = True,
    *,
    max_weight: int = 16,
    allow_zero: bool = True,
) -> (
    SearchStrategy[tuple[dict[Out, Fraction], dict[Out, Fraction]]]
    | SearchStrategy[tuple[dict[Out, float], dict[Out, float]]]
):
    """Two independent :func:`distributions` on the same ``outcomes``, as ``(p, q)``.

    With ``allow_zero`` (the default) some draws put zero mass where the other distribution
    does not — the support mismatch that makes pure DP fail for every finite ratio.
    """
    if exact:
        ex = distributions(outcomes, True, max_weight=max_weight, allow_zero=allow_zero)
        return st.tuples(ex, ex)
    fl = distributions(outcomes, False, max_weight=max_weight, allow_zero=allow_zero)
    return st.tuples(fl, fl)
