"""Distinct integer rows by packed keys (``dpspec._rows``) and the conformance tally built on
them, against a count of the rows as Python tuples."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from dpspec._rows import box, distinct_rows, packed
from dpspec.proofs.engine.conformance import tabulate


def _reference(rows: np.ndarray) -> list[tuple[tuple[int, ...], int]]:
    return sorted(Counter(map(tuple, rows.tolist())).items())


@pytest.mark.parametrize("wide", [False, True])
def test_distinct_rows_are_the_counted_rows_in_lexicographic_order(wide: bool) -> None:
    rng = np.random.default_rng(11)
    for _ in range(300):
        n, d = int(rng.integers(2, 80)), int(rng.integers(1, 5))
        rows = rng.integers(-6, int(rng.integers(1, 12)), size=(n, d)).astype(np.int64)
        if wide and d > 1:
            rows[0, :2] = 2**61  # a box of more than 2^62 cells: compared as rows
            assert box(rows) is None
        got, counts = distinct_rows(rows)
        want = _reference(rows)
        assert [tuple(r) for r in got.tolist()] == [r for r, _ in want]
        assert counts.tolist() == [c for _, c in want]
    empty, none = distinct_rows(np.zeros((0, 3), dtype=np.int64))
    assert empty.shape == (0, 3) and none.size == 0


def test_packed_keys_order_like_the_rows() -> None:
    rng = np.random.default_rng(3)
    rows = rng.integers(-3, 4, size=(200, 3)).astype(np.int64)
    found = box(rows)
    assert found is not None
    keys = packed(rows, *found).tolist()
    by_key = sorted(range(len(keys)), key=lambda i: keys[i])
    by_row = sorted(range(len(keys)), key=lambda i: tuple(rows[i].tolist()))
    assert [tuple(rows[i].tolist()) for i in by_key] == [tuple(rows[i].tolist()) for i in by_row]


@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.uint8, np.uint32, np.float64, np.bool_])
def test_tabulate_counts_rows_of_any_dtype(dtype: type) -> None:
    rng = np.random.default_rng(5)
    rows = rng.integers(0, 3, size=(500, 2)).astype(dtype)
    table = tabulate(rows)
    assert table == dict(Counter(map(tuple, rows.tolist())))
    assert all(type(v) is type(rows[0, 0].item()) for key in table for v in key)
