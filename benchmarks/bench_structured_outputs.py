"""dpspec's own time on dict outputs, per 10^6 draws (the target's time subtracted).

A vectorised target returns n dicts {"count", "sum", "mean"} per call. Two measurements:

* **reading + events**: the work the estimation does on every block — reading the n outputs
  as shapes and numbers and evaluating the audit's K events on them — done the previous way
  (one :func:`~dpspec.audit._structured.flatten` walk per row, then, per event, a Python
  pass over the rows' shapes and a list of their numbers) and the current way
  (:class:`~dpspec.audit._structured.StructuredOutputs`: one numpy pass per key);
* **whole audit**: ``audit(target, samples=10^6)`` with the current code, wall time minus the
  time spent inside the target, per 10^6 draws (selection, estimation and the freshness probe
  all count as draws).

Run: ``python benchmarks/bench_structured_outputs.py`` (about 30 s on one core).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from dpspec.audit import audit
from dpspec.audit._events import Event
from dpspec.audit._structured import StructuredOutputs, flatten


def target(d: float, n: int, rng: np.random.Generator) -> list[dict[str, float]]:
    """A keyed release: a noisy count, a noisy sum and their ratio."""
    count = 100.0 + d + rng.laplace(0.0, 1.0, n)
    total = 50.0 + rng.laplace(0.0, 1.0, n)
    rows = zip(count.tolist(), total.tolist(), (total / count).tolist(), strict=True)
    return [{"count": c, "sum": s, "mean": m} for c, s, m in rows]


def previous_block(rows: list[Any], events: list[Event]) -> list[int]:
    """The previous per-block work: a row walk, then per event a pass over the row shapes
    (the shape index) and a list of the numbers of the event's shape."""
    keys, numbers = [], []
    for row in rows:
        shape, values = flatten(row)
        keys.append(shape)
        numbers.append(values)
    hits = []
    for event in events:
        table: dict[Any, int] = {}
        index = np.fromiter((table.setdefault(k, len(table)) for k in keys), np.intp, len(keys))
        if event.kind == "shape":
            member = np.array([s in set(event.values) for s in table], dtype=np.bool_)
            hits.append(int(np.count_nonzero(member[index])))
            continue
        wanted = event.values[0]
        rows_t = np.flatnonzero(index == list(table).index(wanted))
        k = sum(1 for leaf in wanted if len(leaf) == 2 and leaf[1] == "num")
        x = np.asarray([numbers[i] for i in rows_t], dtype=np.float64).reshape(-1, k)
        assert event.inner is not None
        hits.append(int(np.count_nonzero(event.inner.contains(x[:, 0] if k == 1 else x))))
    return hits


def current_block(rows: list[Any], events: list[Event]) -> list[int]:
    outputs = StructuredOutputs(rows)
    return [int(np.count_nonzero(event.contains(outputs))) for event in events]


def per_million(seconds: float, draws: int) -> float:
    return seconds / draws * 1e6


def main() -> None:
    calls: list[tuple[int, float]] = []

    def timed(d: float, n: int, rng: np.random.Generator) -> list[dict[str, float]]:
        start = time.perf_counter()
        out = target(d, n, rng)
        calls.append((n, time.perf_counter() - start))
        return out

    start = time.perf_counter()
    result = audit(timed, (0.0, 1.0), 1.0, samples=10**6, seed=1)
    wall = time.perf_counter() - start
    draws = sum(n for n, _ in calls)
    inside = sum(t for _, t in calls)
    events = [e.event for e in result.events]
    print(f"audit: {draws} draws, wall {wall:.1f} s, in the target {inside:.1f} s")
    print(f"  reported event: {result.event}  (K = {len(events)} events)")
    whole = per_million(wall - inside, draws)

    n = 200_000
    rows = target(0.0, n, np.random.default_rng(2))
    start = time.perf_counter()
    before_hits = previous_block(rows, events)
    before = per_million(time.perf_counter() - start, n)
    start = time.perf_counter()
    after_hits = current_block(rows, events)
    after = per_million(time.perf_counter() - start, n)
    assert before_hits == after_hits, (before_hits, after_hits)

    print("dpspec's own time per 10^6 draws of dict outputs:")
    print(f"  reading + {len(events)} events   before {before:6.2f} s   after {after:6.2f} s")
    print(
        f"  whole audit            before ~{whole - after + before:5.2f} s   after {whole:6.2f} s"
        "   (before: the current audit with the previous reading's time)"
    )


if __name__ == "__main__":
    main()
