"""Integer rows as single ``int64`` keys, and the distinct rows of an array with their counts.

A 2-D integer array whose bounding box has fewer than 2^62 cells packs each row as its
mixed-radix number in the box (Horner over the columns, O(n·d), vectorised); the keys order
like the rows (lexicographically). The distinct rows then come from an unstable sort of the
keys and are decoded from their digits, where ``np.unique(rows, axis=0)`` sorts byte strings
and ``np.unique(keys, return_index=True)`` needs a stable argsort (both much slower).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

#: Boxes with at least this many cells are not packed (their keys would not fit in int64).
MAX_PACKED = 2**62


def box(rows: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]] | None:
    """(lowest corner, side lengths) of the bounding box of the (non-empty, 2-D) ``rows``
    when its cells can be numbered below :data:`MAX_PACKED`, else None."""
    lo = rows.min(axis=0)
    span = rows.max(axis=0) - lo + 1
    cells = 1
    for s in span.tolist():
        cells *= int(s)
    return (lo, span) if cells < MAX_PACKED else None


def packed(
    rows: NDArray[np.int64], lo: NDArray[np.int64], span: NDArray[np.int64]
) -> NDArray[np.int64]:
    """Each row's number in the box (``lo``, ``span``): Σ_j (row_j − lo_j)·Π_{i>j} span_i."""
    keys = np.zeros(rows.shape[0], dtype=np.int64)
    for j in range(rows.shape[1]):
        keys = keys * span[j] + (rows[:, j] - lo[j])
    return keys


def distinct_rows(rows: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """(the distinct rows of the 2-D integer array ``rows`` in lexicographic order, how often
    each occurs)."""
    if rows.shape[0] == 0:
        return rows.copy(), np.zeros(0, dtype=np.int64)
    found = box(rows)
    if found is None:  # too wide to pack: rows compared as rows
        out, counts = np.unique(rows, axis=0, return_counts=True)
        return out, counts.astype(np.int64)
    lo, span = found
    keys, counts = np.unique(packed(rows, lo, span), return_counts=True)
    out = np.empty((keys.size, rows.shape[1]), dtype=np.int64)
    rest = keys
    for j in range(rows.shape[1] - 1, -1, -1):
        rest, digit = np.divmod(rest, span[j])
        out[:, j] = digit + lo[j]
    return out, counts.astype(np.int64)
