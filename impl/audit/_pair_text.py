"""A neighbouring pair (D, D') in one readable line: small datasets as written, large ones by
their shapes and the records where D and D' differ (the neighbouring relation's one record), never
a numpy repr cut in the middle of a row."""

from __future__ import annotations

from typing import Any

import numpy as np

#: A side printed as written when its text is at most this long.
WRITTEN_LIMIT = 120
#: At most this many differing records are named.
DIFFERENCES_SHOWN = 3


def _compact(value: Any) -> str:
    """``value`` as one line: arrays with every element (numpy's summary off) and no line breaks."""
    if isinstance(value, np.ndarray):
        return np.array2string(value, separator=", ", threshold=value.size + 1).replace("\n", "")
    if isinstance(value, np.generic):
        return repr(value.item())
    if isinstance(value, tuple | list):
        inner = ", ".join(_compact(v) for v in value)
        return f"({inner})" if isinstance(value, tuple) else f"[{inner}]"
    return " ".join(repr(value).split())


def _shape(value: Any) -> str:
    """The structure of a side: ``X 40×2, y 40`` for (X, y) arrays, a length otherwise."""
    if isinstance(value, tuple | list) and value and all(hasattr(v, "shape") for v in value):
        return ", ".join("×".join(map(str, np.shape(v))) or "scalar" for v in value)
    if hasattr(value, "shape"):
        return "×".join(map(str, np.shape(value))) or "scalar"
    if isinstance(value, tuple | list):
        return f"{len(value)} records"
    return type(value).__name__


def _rows(value: Any) -> list[Any]:
    """The records of a side: rows of an array, rows of (X, y, ...) zipped, or list items."""
    if isinstance(value, tuple | list) and value and all(hasattr(v, "shape") for v in value):
        columns = [np.asarray(v) for v in value]
        n = min(len(c) for c in columns)
        return [tuple(c[i] for c in columns) for i in range(n)]
    if isinstance(value, np.ndarray) and value.ndim >= 1:
        return list(value)
    if isinstance(value, tuple | list):
        return list(value)
    return [value]


def _same(a: Any, b: Any) -> bool:
    """Equal records: component by component for (x, y) records, element-wise for arrays."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(u, v) for u, v in zip(a, b, strict=True))
    try:
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    except (ValueError, TypeError):
        return a is b


def _differences(d: Any, d_prime: Any) -> str:
    """Where D' differs from D, record by record: substituted positions, then an added or
    removed tail (add/remove neighbours)."""
    rows, rows_prime = _rows(d), _rows(d_prime)
    common = min(len(rows), len(rows_prime))
    changed = [i for i in range(common) if not _same(rows[i], rows_prime[i])]
    parts = [
        f"record {i}: {_compact(rows[i])} -> {_compact(rows_prime[i])}"
        for i in changed[:DIFFERENCES_SHOWN]
    ]
    if len(changed) > DIFFERENCES_SHOWN:
        parts.append(f"and {len(changed) - DIFFERENCES_SHOWN} more records")
    if len(rows_prime) > common:
        parts.append(f"D' adds {len(rows_prime) - common} (first: {_compact(rows_prime[common])})")
    if len(rows) > common:
        parts.append(f"D' removes {len(rows) - common} (first: {_compact(rows[common])})")
    return "; ".join(parts) if parts else "no record differs"


def describe_pair(pair: tuple[Any, Any]) -> str:
    """``D = …, D' = …`` when both sides are short, else their shapes and the records where they
    differ (``record i: r -> r'``, ``D' adds k``, ``D' removes k``)."""
    d, d_prime = pair
    first, second = _compact(d), _compact(d_prime)
    if len(first) <= WRITTEN_LIMIT and len(second) <= WRITTEN_LIMIT:
        return f"D = {first}, D' = {second}"
    return f"D: {_shape(d)}, D': {_shape(d_prime)}; {_differences(d, d_prime)}"
