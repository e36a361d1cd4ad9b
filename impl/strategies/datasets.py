"""Datasets: finite (over a record domain), labelled, continuous (numpy arrays)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, overload

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from hypothesis.strategies import SearchStrategy

from dpspec.strategies.common import (
    DEFAULT_MAX_SIZE,
    DEFAULT_MIN_SIZE,
    FloatArray,
    R,
    X,
    Y,
    check_bounds,
    check_records,
    check_sizes,
)


def finite_datasets(
    domain: Sequence[R], min_size: int = DEFAULT_MIN_SIZE, max_size: int = DEFAULT_MAX_SIZE
) -> SearchStrategy[tuple[R, ...]]:
    """Tuples of ``min_size``–``max_size`` records drawn (with repetition) from ``domain``.

    ``domain`` is a finite sequence of distinct hashable records; it may be empty only when
    ``max_size == 0``. Shrinks towards short datasets of the first records of ``domain``.
    """
    check_sizes(min_size, max_size)
    records: tuple[R, ...] = check_records(domain, "domain")
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
    xs = check_records(domain_x, "domain_x")
    ys = check_records(labels, "labels")
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
    min_size: int = DEFAULT_MIN_SIZE,
    max_size: int = DEFAULT_MAX_SIZE,
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
    check_sizes(min_size, max_size)
    check_bounds(min_value, max_value)
    if dim is not None and dim < 1:
        raise ValueError(f"dim: must be >= 1 or None, got {dim}")
    rows = st.integers(min_size, max_size)
    shape: SearchStrategy[tuple[int, ...]]
    if dim is None:
        shape = rows.map(lambda n: (n,))
    else:
        d = dim
        shape = rows.map(lambda n: (n, d))
    return hnp.arrays(np.float64, shape, elements=float_elements(min_value, max_value))


def float_elements(min_value: float, max_value: float) -> SearchStrategy[float]:
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
