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
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.validation import InputTypeError

#: outputs beyond this magnitude are not numbers an event can order: a class of their own
MODERATE = 1e30
#: largest number of leaves one structured output may have
MAX_LEAVES = 4096
#: largest nesting depth of one structured output
MAX_DEPTH = 16

Shape = tuple[Any, ...]


class StructuredOutputs:
    """n structured outputs read as shapes and numbers (see the module docstring); ``keys``
    is the shape of each row, ``numbers`` its moderate numeric leaves."""

    def __init__(self, rows: list[Any]) -> None:
        self.keys: list[Shape] = []
        self.numbers: list[tuple[float, ...]] = []
        for row in rows:
            shape, values = flatten(row)
            self.keys.append(shape)
            self.numbers.append(values)

    def __len__(self) -> int:
        return len(self.keys)


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
        x = float(value) if abs(int(value)) < 2**1023 else math.copysign(math.inf, int(value))
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


def shapes_of(outputs: Any) -> tuple[list[Any], NDArray[np.intp]]:
    """(the distinct shapes, the index of each row's shape): for structured outputs their
    shapes; for a float array the per-coordinate classes of each row (0 moderate, 1 NaN,
    2 +inf, 3 −inf, 4 > 1e30, 5 < −1e30, as a tuple)."""
    if isinstance(outputs, StructuredOutputs):
        table: dict[Any, int] = {}
        index = np.fromiter(
            (table.setdefault(k, len(table)) for k in outputs.keys),
            dtype=np.intp,
            count=len(outputs),
        )
        return list(table), index
    from dpspec.audit._targets import _patterns

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
        k = sum(1 for leaf in shape if len(leaf) == 2 and leaf[1] == "num")
        if not len(rows):
            return np.zeros((0, k))
        return np.asarray([outputs.numbers[i] for i in rows], dtype=np.float64).reshape(-1, k)
    x = np.asarray(outputs, dtype=np.float64).reshape(len(outputs), -1)
    finite = np.asarray([j for j, code in enumerate(shape) if code == 0], dtype=np.intp)
    return x[np.ix_(rows, finite)] if len(rows) else np.zeros((0, len(finite)))


def numbers_in(shape: Any, outputs: Any) -> int:
    """How many numbers a row of ``shape`` holds (the dimension of the family within it)."""
    if isinstance(outputs, StructuredOutputs):
        return sum(1 for leaf in shape if len(leaf) == 2 and leaf[1] == "num")
    return sum(1 for code in shape if code == 0)
