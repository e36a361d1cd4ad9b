"""Releases as a *shape* and the numbers within it: keyed (dict) releases, variable-length
releases, tuples of mixed kinds, and numeric arrays holding NaN or ±inf.

Every output row is read as a fixed map of the output (so events on it are events on the
output): its **shape** — the paths of its leaves (dict keys, positions) with, for each leaf
that is not a moderate number, what it is (NaN, +inf, −inf, beyond ±1e30, a string, bytes,
a bool, None) — and its **numbers**: the moderate numeric leaves, in path order. Two families
audit them (:mod:`dpspec.audit._selection`): sets of shapes (keys present or absent, lengths,
NaN patterns, categories are events of their own) and, within each frequent shape, the
continuous families on its numbers (a threshold for one number, orthants, a direction and a
learned score for several) — so a release that leaks through the *values* of its finite
coordinates is audited on them, whatever pattern of NaN surrounds them.

A shape is a tuple of (path, kind) pairs, JSON-storable; dict keys are kept as their repr so
that keys of any hashable type order deterministically.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any, overload

import numpy as np
from numpy.typing import NDArray

from dpspec.validation import InputTypeError

#: outputs beyond this magnitude are kept out of the learned vector score (its features x²
#: must not overflow); events on them come from the representation family (see ``_patterns``)
_MODERATE = 1e30

#: outputs beyond this magnitude are not numbers an event can order: a class of their own
MODERATE = 1e30
#: largest number of leaves one structured output may have
MAX_LEAVES = 4096
#: largest nesting depth of one structured output
MAX_DEPTH = 16

Shape = tuple[Any, ...]


class StructuredOutputs:
    """n structured outputs read as shapes and numbers (see the module docstring).

    ``shapes`` are the distinct shapes in order of first appearance, ``index[i]`` the shape
    of row i (into ``shapes``), ``blocks[t]`` the numbers of the rows of shape t in row order
    (a matrix, one row per output) and ``position[i]`` the row of output i in its block;
    ``keys`` is the shape of each row, as a sequence. Rows that share a layout (dicts with
    one key set, sequences of one length, scalars) are read column by column
    (:func:`_read_columns`); any other batch one row at a time (:func:`flatten`). Both
    readings give the same shapes, index and numbers."""

    def __init__(self, rows: list[Any]) -> None:
        read = _read_columns(rows)
        self.shapes, self.index, self.blocks = _read_rows(rows) if read is None else read
        self.position = _positions(self.index, len(self.shapes))
        self._ids = {shape: t for t, shape in enumerate(self.shapes)}

    def __len__(self) -> int:
        return len(self.index)

    @property
    def keys(self) -> Sequence[Shape]:
        """The shape of each row (a read-only view: nothing is copied per row)."""
        return _RowShapes(self.shapes, self.index)

    def block_of(self, shape: Shape) -> int | None:
        """The index of ``shape`` in ``shapes``, or None when no row has it."""
        return self._ids.get(shape)


class _RowShapes(Sequence[Shape]):
    """The shape of each row of a :class:`StructuredOutputs`, read through its index."""

    def __init__(self, shapes: list[Shape], index: NDArray[np.intp]) -> None:
        self._shapes, self._index = shapes, index

    def __len__(self) -> int:
        return len(self._index)

    @overload
    def __getitem__(self, i: int) -> Shape: ...
    @overload
    def __getitem__(self, i: slice) -> list[Shape]: ...
    def __getitem__(self, i: int | slice) -> Shape | list[Shape]:
        if isinstance(i, slice):
            return [self._shapes[t] for t in self._index[i].tolist()]
        return self._shapes[int(self._index[i])]

    def __iter__(self) -> Iterator[Shape]:
        return (self._shapes[t] for t in self._index.tolist())


#: (distinct shapes in order of first appearance, the shape of each row, the numbers of the
#: rows of each shape)
Reading = tuple[list[Shape], NDArray[np.intp], list[NDArray[np.float64]]]


def _read_rows(rows: list[Any]) -> Reading:
    """The reading of any batch, one row at a time (:func:`flatten`)."""
    table: dict[Shape, int] = {}
    numbers: list[list[tuple[float, ...]]] = []
    index = np.empty(len(rows), dtype=np.intp)
    for i, row in enumerate(rows):
        shape, values = flatten(row)
        t = table.setdefault(shape, len(table))
        if t == len(numbers):
            numbers.append([])
        numbers[t].append(values)
        index[i] = t
    shapes = list(table)
    blocks = [
        np.asarray(v, dtype=np.float64).reshape(len(v), count_numbers(s))
        for s, v in zip(shapes, numbers, strict=True)
    ]
    return shapes, index, blocks


def _positions(index: NDArray[np.intp], count: int) -> NDArray[np.intp]:
    """The rank of each row among the rows of its shape (its row in its shape's block)."""
    position = np.empty(len(index), dtype=np.intp)
    if count <= 1:
        position[:] = np.arange(len(index))
        return position
    order = np.argsort(index, kind="stable")
    starts = np.concatenate([[0], np.cumsum(np.bincount(index, minlength=count))[:-1]])
    position[order] = np.arange(len(index)) - starts[index[order]]
    return position


def count_numbers(shape: Shape) -> int:
    """How many numbers a row of a structured ``shape`` holds."""
    return sum(1 for leaf in shape if len(leaf) == 2 and leaf[1] == "num")


def flatten(row: Any) -> tuple[Shape, tuple[float, ...]]:
    """(shape, numbers) of one output, or a TypeError naming ``mechanism`` for leaves that
    cannot be audited (objects other than numbers, strings, bytes, bools, None, dicts, lists,
    tuples and numpy arrays of those)."""
    flat = _flat_row(row)
    if flat is not None:
        return flat
    shape: list[tuple[Any, ...]] = []
    values: list[float] = []

    def walk(node: Any, path: tuple[Any, ...], depth: int) -> None:
        if len(shape) > MAX_LEAVES:
            raise InputTypeError(f"mechanism: an output with more than {MAX_LEAVES} leaves")
        if depth > MAX_DEPTH:
            raise InputTypeError(f"mechanism: an output nested deeper than {MAX_DEPTH} levels")
        if isinstance(node, dict):
            items = sorted(((repr(k), v) for k, v in node.items()), key=lambda kv: kv[0])
            shape.append((path, "dict", len(items)))
            for key, value in items:
                walk(value, (*path, key), depth + 1)
            return
        if isinstance(node, list | tuple) or (isinstance(node, np.ndarray) and node.ndim > 0):
            seq = node.tolist() if isinstance(node, np.ndarray) else node
            shape.append((path, "seq", len(seq)))
            for i, value in enumerate(seq):
                walk(value, (*path, i), depth + 1)
            return
        if isinstance(node, np.ndarray):
            node = node.item()
        kind = leaf_kind(node)
        if kind == "num":
            values.append(float(node))
        shape.append((path, kind))

    walk(row, (), 0)
    return tuple(shape), tuple(values)


def _kind_fast(value: Any) -> Any:
    """:func:`leaf_kind` with the common leaves (Python floats, ints and strings) first."""
    kind = type(value)
    if kind is float:
        return "num" if -MODERATE <= value <= MODERATE else leaf_kind(value)
    if kind is str:
        return ("str", value)
    if kind is int and -(2**62) < value < 2**62:
        return "num"
    return leaf_kind(value)


def _flat_row(row: Any) -> tuple[Shape, tuple[float, ...]] | None:
    """(shape, numbers) of a scalar, a flat tuple or list, or a flat dict (no nested
    containers) — the common rows, read without recursion; None for anything else. The same
    shape and numbers as the recursive walk."""
    kind = type(row)
    if kind is tuple or kind is list:
        if any(type(v) in (tuple, list, dict) or isinstance(v, np.ndarray) for v in row):
            return None
        kinds = [_kind_fast(v) for v in row]
        shape = (((), "seq", len(row)), *(((i,), k) for i, k in enumerate(kinds)))
        return shape, tuple(float(v) for v, k in zip(row, kinds, strict=True) if k == "num")
    if kind is dict:
        items = sorted(((repr(k), v) for k, v in row.items()), key=lambda kv: kv[0])
        if any(type(v) in (tuple, list, dict) or isinstance(v, np.ndarray) for _, v in items):
            return None
        kinds = [_kind_fast(v) for _, v in items]
        shape = (
            ((), "dict", len(items)),
            *(((key,), k) for (key, _), k in zip(items, kinds, strict=True)),
        )
        numbers = tuple(float(v) for (_, v), k in zip(items, kinds, strict=True) if k == "num")
        return shape, numbers
    if kind is float or kind is str or kind is int or row is None:
        k = _kind_fast(row)
        return (((), k),), ((float(row),) if k == "num" else ())
    return None


def leaf_kind(value: Any) -> Any:
    """ "num" for a moderate real number, else what the leaf is: "nan", "+inf", "-inf",
    ">1e30", "<-1e30", ("str", s), ("bytes", hex), ("bool", b), "none"; a TypeError naming
    ``mechanism`` for anything else."""
    if value is None:
        return "none"
    if isinstance(value, bool | np.bool_):
        return ("bool", bool(value))
    if isinstance(value, str):
        return ("str", value)
    if isinstance(value, bytes):
        return ("bytes", value.hex())
    if isinstance(value, int | np.integer) and not isinstance(value, bool):
        x = float(value) if abs(int(value)) < 2**1023 else math.inf if value > 0 else -math.inf
    elif isinstance(value, float | np.floating):
        x = float(value)
    elif isinstance(value, complex | np.complexfloating):
        raise InputTypeError(
            "mechanism: a complex leaf inside a structured output; release (real, imag)"
        )
    else:
        raise InputTypeError(
            f"mechanism: outputs holding {type(value).__name__} cannot be audited (supported: "
            "numbers, strings, bytes, bools, None, and dicts, lists and tuples of them)"
        )
    if math.isnan(x):
        return "nan"
    if x == math.inf:
        return "+inf"
    if x == -math.inf:
        return "-inf"
    if x > MODERATE:
        return ">1e30"
    if x < -MODERATE:
        return "<-1e30"
    return "num"


def structured_rows(values: Any) -> list[Any] | None:
    """The rows of a release that a fixed-shape array cannot hold faithfully — dicts, rows of
    different lengths, rows mixing numbers with strings, bytes, None or nested containers —
    or None when an array can (numbers, strings or bytes of one kind, one shape per row)."""
    if isinstance(values, np.ndarray) and values.dtype.kind != "O":
        return None
    rows = list(values) if isinstance(values, list | tuple | np.ndarray) else None
    if rows is None:
        return None
    if any(isinstance(r, dict) for r in rows):
        return rows
    sequences = [isinstance(r, list | tuple | np.ndarray) for r in rows]
    if any(sequences):
        if not all(sequences):
            return rows
        lengths = {len(r) for r in rows}
        if len(lengths) > 1:
            return rows
        kinds = _families_of(v for r in rows for v in r)
        return rows if len(kinds) > 1 or "other" in kinds else None
    kinds = _families_of(rows)
    return rows if len(kinds) > 1 and kinds != {"number", "bool"} else None


def _families_of(values: Any) -> set[str]:
    """``{_leaf_family(v) for v in values}``, read from one value of each type (a family
    depends on the value's type only)."""
    return {_leaf_family(v) for v in {type(v): v for v in values}.values()}


def _leaf_family(value: Any) -> str:
    if isinstance(value, bool | np.bool_):
        return "bool"
    if isinstance(value, int | float | np.integer | np.floating):
        return "number"
    if isinstance(value, str):
        return "str"
    if isinstance(value, bytes):
        return "bytes"
    return "other"


def _patterns(outputs: NDArray[Any]) -> NDArray[np.int8]:
    """Per coordinate: 0 moderate (finite, |x| <= 1e30), 1 NaN, 2 +inf, 3 −inf, 4 > 1e30,
    5 < −1e30 — the values a threshold or a learned score cannot order, as atoms."""
    x = np.asarray(outputs)
    p = np.zeros(x.shape, dtype=np.int8)
    if x.dtype.kind != "f":
        return p
    finite = np.isfinite(x)
    if finite.all() and not np.any(np.abs(x) > _MODERATE):  # every coordinate moderate
        return p
    p[np.isnan(x)] = 1
    p[x == np.inf] = 2
    p[x == -np.inf] = 3
    p[finite & (x > _MODERATE)] = 4
    p[finite & (x < -_MODERATE)] = 5
    return p


def shapes_of(outputs: Any) -> tuple[list[Any], NDArray[np.intp]]:
    """(the distinct shapes, the index of each row's shape): for structured outputs their
    shapes; for a float array the per-coordinate classes of each row (0 moderate, 1 NaN,
    2 +inf, 3 −inf, 4 > 1e30, 5 < −1e30, as a tuple)."""
    if isinstance(outputs, StructuredOutputs):
        return list(outputs.shapes), outputs.index
    codes = _patterns(outputs).reshape(len(outputs), -1)
    d = codes.shape[1]
    if d <= 24:  # one base-6 integer per row (6^24 < 2^63): a 1-D unique, not a row sort
        packed = codes.astype(np.int64) @ (6 ** np.arange(d, dtype=np.int64))
        keys, index = np.unique(packed, return_inverse=True)
        shapes = [tuple(int(k) // 6**j % 6 for j in range(d)) for k in keys.tolist()]
        return shapes, np.asarray(index).reshape(-1)
    distinct, index = np.unique(codes, axis=0, return_inverse=True)
    return [tuple(int(c) for c in row) for row in distinct], np.asarray(index).reshape(-1)


def numbers_within(outputs: Any, shape: Any, rows: NDArray[np.intp]) -> NDArray[np.float64]:
    """The numbers of the given rows, all of ``shape``, as a (len(rows), k) float matrix."""
    if isinstance(outputs, StructuredOutputs):
        t = outputs.block_of(shape)
        if not len(rows) or t is None:
            return np.zeros((0, count_numbers(shape)))
        return outputs.blocks[t][outputs.position[rows]]
    x = np.asarray(outputs, dtype=np.float64).reshape(len(outputs), -1)
    finite = np.asarray([j for j, code in enumerate(shape) if code == 0], dtype=np.intp)
    return x[np.ix_(rows, finite)] if len(rows) else np.zeros((0, len(finite)))


def numbers_in(shape: Any, outputs: Any) -> int:
    """How many numbers a row of ``shape`` holds (the dimension of the family within it)."""
    if isinstance(outputs, StructuredOutputs):
        return count_numbers(shape)
    return sum(1 for code in shape if code == 0)


# --- the column-wise reading -------------------------------------------------------------------

#: leaf types read column by column (any other leaf: the batch is read row by row)
_NUMERIC = frozenset({float, int, np.float64, np.float32, np.int64, np.int32})
_SCALARS = _NUMERIC | {str, bytes, bool, type(None), np.bool_}
#: the classes of a numeric leaf, by :func:`_classes` code
_CLASSES = ("num", "nan", "+inf", "-inf", ">1e30", "<-1e30")

#: a layout: the leading shape entries of a row and the paths of its leaves, and how to read
#: the column of each leaf from the rows of the layout
Layout = tuple[tuple[Any, ...], tuple[tuple[Any, ...], ...]]
#: one column read: the class code of each row, the kind of each code, the numbers (any value
#: where the leaf is not a number)
Column = tuple[NDArray[np.intp], list[Any], NDArray[np.float64]]


def _read_columns(rows: list[Any]) -> Reading | None:
    """The reading of a batch whose rows are dicts, flat sequences, 1-D numeric arrays or
    scalar leaves, one column (leaf path) at a time within each layout (dicts of one key
    set, sequences of one length, scalars): one pass of numpy per column for numeric leaves,
    instead of a Python walk per row. None when a row nests containers, holds a leaf of
    another type, or two keys of one dict print alike (then :func:`_read_rows` reads it)."""
    n = len(rows)
    if n == 0:
        return None
    try:
        return _read_groups(rows, _layout_groups(rows, quick=True))
    except _KeysDiffer:  # dicts of one size but not one key set
        return _read_groups(rows, _layout_groups(rows, quick=False))


class _KeysDiffer(Exception):
    """A dict row lacks a key of the first row (the quick grouping assumed one key set)."""


def _read_groups(
    rows: list[Any], groups: list[tuple[tuple[Any, ...], NDArray[np.intp]]] | None
) -> Reading | None:
    """The reading of ``rows`` grouped by layout (see :func:`_read_columns`)."""
    if groups is None:
        return None
    n = len(rows)
    table: dict[Shape, int] = {}
    first: list[int] = []
    index = np.empty(n, dtype=np.intp)
    parts = []
    for layout, members in groups:
        read = _read_layout(layout, [rows[i] for i in members] if len(groups) > 1 else rows)
        if read is None:
            return None
        local, firsts, shapes, values, numeric = read
        ids = np.empty(len(shapes), dtype=np.intp)
        for u, shape in enumerate(shapes):
            t = table.setdefault(shape, len(table))
            row = int(members[firsts[u]])
            if t == len(first):
                first.append(row)
            else:  # a shape two layouts share (a list and an array row of one length)
                first[t] = min(first[t], row)
            ids[u] = t
        index[members] = ids[local]
        parts.append((members, local, values, numeric))
    order = np.argsort(np.asarray(first), kind="stable")  # shapes by first appearance
    rank = np.empty(len(order), dtype=np.intp)
    rank[order] = np.arange(len(order))
    shapes_in_order: list[Shape] = [()] * len(order)
    for shape, t in table.items():
        shapes_in_order[int(rank[t])] = shape
    index = rank[index]
    position = _positions(index, len(order))
    counts = np.bincount(index, minlength=len(order))
    blocks = [
        np.zeros((int(c), count_numbers(s))) for c, s in zip(counts, shapes_in_order, strict=True)
    ]
    for members, local, values, numeric in parts:
        by_shape = np.argsort(local, kind="stable")
        ends = np.cumsum(np.bincount(local, minlength=len(numeric)))
        for u, cols in enumerate(numeric):
            rows_u = by_shape[(ends[u - 1] if u else 0) : ends[u]]
            where = members[rows_u]
            blocks[int(index[where[0]])][position[where]] = values[
                np.ix_(rows_u, np.asarray(cols, dtype=np.intp))
            ]
    return shapes_in_order, index, blocks


def _layout_of(row: Any) -> tuple[Any, ...] | None:
    kind = type(row)
    if kind is dict:
        return ("dict", frozenset(row))
    if kind is list or kind is tuple:
        return ("seq", len(row))
    if kind is np.ndarray:
        return ("array", row.shape, row.dtype.str) if row.ndim == 1 else None
    return ("leaf",) if kind in _SCALARS else None


def _layout_groups(
    rows: list[Any], quick: bool
) -> list[tuple[tuple[Any, ...], NDArray[np.intp]]] | None:
    """The rows grouped by layout, each group's rows in order; None for a row of no layout.
    ``quick``: dicts all of the first one's size are taken to share its keys (reading their
    columns raises :class:`_KeysDiffer` when one does not)."""
    every = np.arange(len(rows), dtype=np.intp)
    types = set(map(type, rows))
    if types == {dict}:
        if quick and len(set(map(len, rows))) == 1:
            return [(("dict", frozenset(rows[0])), every)]
    elif types <= _SCALARS:
        return [(("leaf",), every)]
    table: dict[Any, int] = {}
    gid = np.fromiter(
        (table.setdefault(_layout_of(r), len(table)) for r in rows), np.intp, len(rows)
    )
    if None in table:
        return None
    if len(table) == 1:
        return [(next(iter(table)), every)]
    return [(layout, np.flatnonzero(gid == g)) for layout, g in table.items()]


def _read_layout(
    layout: tuple[Any, ...], rows: list[Any]
) -> (
    tuple[NDArray[np.intp], NDArray[np.intp], list[Shape], NDArray[np.float64], list[list[int]]]
    | None
):
    """For rows of one layout: each row's local shape, the first row of each local shape, the
    local shapes (in order of first appearance), the (rows × leaves) numbers and, per local
    shape, the leaves holding numbers; None when a leaf cannot be read by column."""
    columns: list[Column | None]
    if layout[0] == "dict":
        items = sorted(((repr(k), k) for k in layout[1]), key=lambda kv: kv[0])
        if len({name for name, _ in items}) != len(items):
            return None  # two keys print alike: the row walk orders them by insertion
        head: tuple[Any, ...] = (((), "dict", len(items)),)
        paths: list[tuple[Any, ...]] = [(name,) for name, _ in items]
        try:
            columns = [_read_column([r[k] for r in rows]) for _, k in items]
        except KeyError as exc:
            raise _KeysDiffer from exc
    elif layout[0] == "seq":
        head, paths = (((), "seq", layout[1]),), [(i,) for i in range(layout[1])]
        columns = [_read_column([r[i] for r in rows]) for i in range(layout[1])]
    elif layout[0] == "array":
        stacked = np.stack(rows)
        head, paths = (((), "seq", layout[1][0]),), [(i,) for i in range(layout[1][0])]
        columns = [_read_column(stacked[:, i]) for i in range(layout[1][0])]
    else:
        head, paths, columns = (), [()], [_read_column(rows)]
    if any(c is None for c in columns):
        return None
    read = [c for c in columns if c is not None]
    values = np.zeros((len(rows), len(read)))
    for j, (_, _, v) in enumerate(read):
        values[:, j] = v
    local, firsts, combos = _combinations(
        [c for c, _, _ in read], [len(k) for _, k, _ in read], len(rows)
    )
    shapes: list[Shape] = []
    numeric: list[list[int]] = []
    for combo in combos:
        kinds = [read[j][1][code] for j, code in enumerate(combo)]
        shapes.append((*head, *((p, k) for p, k in zip(paths, kinds, strict=True))))
        numeric.append([j for j, k in enumerate(kinds) if k == "num"])
    return local, firsts, shapes, values, numeric


def _combinations(
    codes: list[NDArray[np.intp]], radices: list[int], n: int
) -> tuple[NDArray[np.intp], NDArray[np.intp], list[tuple[int, ...]]]:
    """Each row's combination of column codes, as (the id of each row's combination, the
    first row of each, the distinct combinations) — ids in order of first appearance."""
    if all(not c.any() for c in codes):
        return np.zeros(n, dtype=np.intp), np.zeros(1, dtype=np.intp), [tuple(0 for _ in codes)]
    matrix = np.stack(codes, axis=1)
    if math.prod(radices) < 2**62:
        weights = np.cumprod([1, *radices[:-1]]).astype(np.int64)
        _, first, inverse = np.unique(matrix @ weights, return_index=True, return_inverse=True)
    else:
        _, first, inverse = np.unique(matrix, axis=0, return_index=True, return_inverse=True)
    inverse = np.asarray(inverse).reshape(-1)
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(order), dtype=np.intp)
    rank[order] = np.arange(len(order))
    combos = [tuple(int(v) for v in matrix[first[u]]) for u in order]
    return rank[inverse].astype(np.intp), np.asarray(first[order], dtype=np.intp), combos


def _read_column(column: Any) -> Column | None:
    """The leaves of one path across rows: class codes and kinds as :func:`leaf_kind` gives
    them, and the numbers (``float(leaf)`` where the leaf is a moderate number); None for a
    leaf type outside ``_SCALARS``."""
    if isinstance(column, np.ndarray):
        if column.dtype.kind == "f":
            return _classes(column.astype(np.float64))
        if column.dtype.kind in "iu":
            return np.zeros(len(column), dtype=np.intp), ["num"], column.astype(np.float64)
        if column.dtype.kind == "b":
            nan = np.full(len(column), np.nan)
            return column.astype(np.intp), [("bool", False), ("bool", True)], nan
        column = column.tolist()
    types = set(map(type, column))
    if not types <= _SCALARS:
        return None
    if types <= _NUMERIC:
        try:
            x = np.asarray(column, dtype=np.float64)
        except (OverflowError, TypeError, ValueError):
            x = None
        ints = types & {int, np.int64, np.int32}
        if x is not None and not (ints and np.any(np.abs(x) >= 2.0**62)):
            return _classes(x)
    if types == {str}:  # categories: one kind per distinct string
        seen: dict[str, int] = {}
        codes = np.fromiter((seen.setdefault(v, len(seen)) for v in column), np.intp, len(column))
        return codes, [("str", v) for v in seen], np.full(len(column), math.nan)
    kinds = [_kind_fast(v) for v in column]
    table: dict[Any, int] = {}
    codes = np.fromiter((table.setdefault(k, len(table)) for k in kinds), np.intp, len(kinds))
    numbers = np.fromiter(
        (float(v) if k == "num" else math.nan for v, k in zip(column, kinds, strict=True)),
        np.float64,
        len(kinds),
    )
    return codes, list(table), numbers


def _classes(x: NDArray[np.float64]) -> Column:
    """Codes of float leaves: 0 moderate, 1 NaN, 2 +inf, 3 −inf, 4 > 1e30, 5 < −1e30."""
    codes = np.zeros(len(x), dtype=np.intp)
    if not np.all(np.abs(x) <= MODERATE):  # NaN fails the comparison too
        codes[np.isnan(x)] = 1
        codes[x == math.inf] = 2
        codes[x == -math.inf] = 3
        finite = np.isfinite(x)
        codes[finite & (x > MODERATE)] = 4
        codes[finite & (x < -MODERATE)] = 5
    return codes, list(_CLASSES), x
