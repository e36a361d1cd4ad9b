"""User events tested in both orders, events that name the leaking coordinate, and the
column-wise reading of structured outputs (the same shapes and numbers as the row walk)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from dpspec.audit import Event, audit
from dpspec.audit._selection import _best_events, _direction_candidates
from dpspec.audit._structured import (
    StructuredOutputs,
    _read_columns,
    _read_rows,
    flatten,
    numbers_within,
    shapes_of,
)

# --- a user event: both orders ------------------------------------------------------------------


def laplace(d: float, n: int, rng: np.random.Generator) -> Any:
    return d + rng.laplace(0.0, 1.0, n)


def leaks_on_d_prime(d: float, n: int, rng: np.random.Generator) -> Any:
    """Laplace on D = 0; on D' = 1, 10 with probability 0.3: {x ≥ 5} has probability
    e⁻⁵/2 ≈ 0.0034 under D and ≈ 0.3 under D', a leak only in the order D' → D."""
    out = rng.laplace(0.0, 1.0, n)
    if d == 1.0:
        out[rng.random(n) < 0.3] = 10.0
    return out


def test_a_user_event_is_tested_in_both_orders() -> None:
    """Before: only P[M(D) ∈ E] ≤ e^ε P[M(D') ∈ E] + δ was tested; this leak was missed."""
    r = audit(leaks_on_d_prime, (0.0, 1.0), 1.0, samples=20_000, seed=3, event=Event("ge", lo=5.0))
    assert r.violation and r.direction == "D' -> D" and r.selection_samples == 0
    assert [e.direction for e in r.events] == ["D -> D'", "D' -> D"]
    assert all(e.level == pytest.approx(0.05 / 4) for e in r.events)  # α/(2K), K = 2
    assert r.events[0].epsilon_lower < 0 < 1.0 < r.events[1].epsilon_lower


def test_a_user_event_on_the_reference_mechanism_passes() -> None:
    for lo in (-1.0, 0.5, 2.0):
        r = audit(laplace, (0.0, 1.0), 1.0, samples=50_000, seed=4, event=Event("ge", lo=lo))
        assert not r.violation, (lo, r.epsilon_lower)
        assert r.epsilon_lower <= 1.0


def test_the_docstring_example_runs() -> None:
    f = laplace
    r = audit(f, (0.0, 1.0), 1.0, samples=10**5, event=Event("ge", lo=0.5))
    assert not r.violation and len(r.events) == 2 and r.event == "output >= 0.5"


# --- events naming the coordinate ---------------------------------------------------------------


def exact_coordinate_3(d: list[float], n: int, rng: np.random.Generator) -> Any:
    """Five Laplace coordinates; on D' the fourth is released without noise."""
    x = np.asarray(d, dtype=np.float64) + rng.laplace(0.0, 1.0, (n, 5))
    if d[0] == 1.0:
        x[:, 3] = d[3]
    return x


def test_a_leak_in_one_coordinate_is_named_by_it() -> None:
    pair = ([0.0] * 5, [1.0, 0.0, 0.0, 0.5, 0.0])
    r = audit(exact_coordinate_3, pair, 1.0, samples=50_000, seed=1)
    assert r.violation and r.event.startswith("x[3] "), r.event
    assert "w·x" not in r.event


def test_a_noiseless_coordinate_gives_a_threshold_in_its_units() -> None:
    """Before: w = Δμ/max(σ², 1e-300) put 1e300 on the noiseless coordinate and the event read
    ``direction w·x >= 1.0975e+302``."""
    rng = np.random.default_rng(0)
    a, b = rng.laplace(size=(2000, 5)), rng.laplace(size=(2000, 5))
    a[:, 3], b[:, 3] = 220.0, 0.5
    cands = _direction_candidates(a, b)
    assert cands is not None
    k1, k2, _, _, build = cands
    event = build(int(np.argmax(k1 - k2)))
    assert [j for j, w in enumerate(event.weights[1:6]) if w] == [3]
    text = event.describe()
    assert text == "x[3] > 0.5"  # the cut just above D''s only value
    chosen = _best_events(a, b, 0.0, 0.05)
    assert all("e+" not in e.describe() for e, _, _ in chosen), [e.describe() for e, *_ in chosen]


def dict_leaking_in_b(d: float, n: int, rng: np.random.Generator) -> Any:
    a = rng.laplace(0.0, 1.0, n)
    b = d + (rng.laplace(0.0, 1.0, n) if d == 0.0 else np.zeros(n))
    return [{"a": x, "b": y} for x, y in zip(a.tolist(), b.tolist(), strict=True)]


def test_a_dict_leak_is_named_by_its_key() -> None:
    r = audit(dict_leaking_in_b, (0.0, 1.0), 1.0, samples=20_000, seed=1)
    assert r.violation and "x['b']" in r.event, r.event
    assert r.event.startswith("output of shape {'a': num, 'b': num} with ")


def test_descriptions() -> None:
    assert Event("box", (-math.inf, math.inf, 0.5, math.inf)).describe() == "x[1] >= 0.5"
    both = Event("box", (-math.inf, 0.0, 1.0, math.inf)).describe()
    assert both == "x[0] < 0 and x[1] >= 1"
    flipped = Event("ge", lo=-1.0, weights=(0.0, 0.0, -0.5, 0.0, 0.0))
    assert flipped.describe() == "x[1] <= 2"
    two = Event("le", hi=1.0, weights=(0.0, 0.5, -0.25, 0.0, 0.0))
    assert two.describe() == "0.5·x[0] - 0.25·x[1] <= 1"
    many = Event("ge", lo=1.0, weights=(0.0, *[1.0] * 8, *[0.0] * 8))
    assert many.describe().startswith("w·x >= 1 (w on 8 coordinates")
    assert Event("ge", lo=1.0, weights=(0.0, 1.0, 1.0, 1.0)).describe() == "score >= 1"
    assert Event("ge", lo=math.nextafter(2.0, 3.0)).describe() == "output > 2"
    assert Event("le", hi=math.nextafter(2.0, 1.0)).describe() == "output < 2"
    assert Event("ge", lo=1 / 3).describe() == "output >= 0.333333"
    shape, _ = flatten({"n": 3, "tags": ["x", None], "ok": True, "v": math.nan})
    within = Event("within", (shape,), inner=Event("ge", lo=2.0))
    assert within.describe() == (
        "output of shape {'n': num, 'ok': True, 'tags': ['x', None], 'v': nan} with x['n'] >= 2"
    )
    assert Event("shape", (shape,)).describe().startswith("output shape in {{'n': num,")
    pattern = Event("within", ((1, 0, 0),), inner=Event("box", (-math.inf, 1.0, 2.0, math.inf)))
    assert pattern.describe() == "output of shape (1, 0, 0) with x[1] < 1 and x[2] >= 2"


# --- structured outputs: the column-wise reading equals the row walk ----------------------------


def _leaf(rng: np.random.Generator) -> Any:
    u = rng.random()
    choices: list[Any] = [
        math.nan,
        math.inf,
        -math.inf,
        1e31,
        -1e31,
        None,
        True,
        b"\x01",
        2**70,
        10**400,
        np.float64(0.25),
        np.float32(0.1),
        np.int64(7),
        np.bool_(False),
        "s" + str(int(rng.integers(3))),
        int(rng.integers(-5, 5)),
    ]
    return float(rng.normal()) if u < 0.5 else choices[int(rng.integers(len(choices)))]


def _batch(form: int, n: int, rng: np.random.Generator) -> list[Any]:
    if form == 0:  # dicts of one key set
        return [{"a": _leaf(rng), "b": _leaf(rng)} for _ in range(n)]
    if form == 1:  # dicts of varying key sets, keys of several types
        keys: list[Any] = ["a", "b", 1, 2.5, ("t", 1)]
        return [
            {keys[int(k)]: _leaf(rng) for k in rng.choice(5, int(rng.integers(0, 4)), False)}
            for _ in range(n)
        ]
    if form == 2:  # ragged lists and tuples
        return [
            (list if rng.random() < 0.5 else tuple)(_leaf(rng) for _ in range(rng.integers(0, 4)))
            for _ in range(n)
        ]
    if form == 3:  # scalar leaves of mixed kinds
        return [_leaf(rng) for _ in range(n)]
    if form == 4:  # 1-D arrays of several dtypes beside lists of one length
        return [
            rng.normal(size=2)
            if u < 0.3
            else np.arange(2)
            if u < 0.5
            else np.array([True, False])
            if u < 0.6
            else [float(v) for v in rng.normal(size=2)]
            for u in rng.random(n)
        ]
    # nested containers, None rows and arrays inside dicts: read row by row
    return [
        {"a": {"x": _leaf(rng)}, "b": [_leaf(rng), np.zeros(1)]}
        if rng.random() < 0.3
        else None
        if rng.random() < 0.1
        else {"a": _leaf(rng), "b": _leaf(rng)}
        for _ in range(n)
    ]


def _row_reading(rows: list[Any]) -> tuple[list[Any], list[int], list[tuple[float, ...]]]:
    """The reading one row at a time, as before: shapes by first appearance, numbers per row."""
    table: dict[Any, int] = {}
    index, numbers = [], []
    for row in rows:
        shape, values = flatten(row)
        index.append(table.setdefault(shape, len(table)))
        numbers.append(values)
    return list(table), index, numbers


@pytest.mark.parametrize("form", range(6))
def test_column_reading_equals_the_row_walk(form: int) -> None:
    rng = np.random.default_rng(form)
    for _ in range(40):
        rows = _batch(form, int(rng.integers(1, 80)), rng)
        outputs = StructuredOutputs(rows)
        shapes, index, numbers = _row_reading(rows)
        got_shapes, got_index = shapes_of(outputs)
        assert got_shapes == shapes and got_index.tolist() == index
        assert list(outputs.keys) == [shapes[t] for t in index] and len(outputs) == len(rows)
        for t, shape in enumerate(shapes):
            rows_t = np.flatnonzero(np.asarray(index) == t)
            want = np.asarray([numbers[i] for i in rows_t], dtype=np.float64)
            got = numbers_within(outputs, shape, rows_t)
            assert np.array_equal(got, want.reshape(got.shape)), shape
            assert got.shape == (len(rows_t), sum(1 for leaf in shape if leaf[1:] == ("num",)))
        rows_only = _read_rows(rows)
        assert rows_only[0] == shapes and rows_only[1].tolist() == index


def test_common_batches_are_read_by_column() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(100, 2)).tolist()
    assert _read_columns([{"a": a, "b": b} for a, b in x]) is not None
    assert _read_columns([{"a": a, "b": b} if a > 0 else {"a": a} for a, b in x]) is not None
    assert _read_columns([[a] * (1 + i % 3) for i, (a, _) in enumerate(x)]) is not None
    assert _read_columns([{"a": {"b": a}} for a, _ in x]) is None  # nested: the row walk
    keyed = StructuredOutputs([{"b": b, "a": a, "c": "k"} for a, b in x])
    assert keyed.shapes == [
        (((), "dict", 3), (("'a'",), "num"), (("'b'",), "num"), (("'c'",), ("str", "k")))
    ]
    assert np.array_equal(keyed.blocks[0], np.asarray(x))
