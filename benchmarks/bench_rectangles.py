"""Thesis ch. 5 at scale: the exponential median on 10^6 distinct points and RandMargins
(``PrivateRectangleClassifier.fit``) at n = 10^6, d = 10, ε = 0.005.

Run: ``python benchmarks/bench_rectangles.py [--repeats 5] [--json PATH]``, then
``python benchmarks/readme_tables.py`` (README's table is written from the JSON). Each case is
timed ``--repeats`` times in interleaved rounds; the best time and the spread (slowest/fastest)
are reported, with peak memory of one run.
"""

from __future__ import annotations

import argparse
import json
import time
import tracemalloc
from collections.abc import Callable

import numpy as np
from readme_tables import machine

from dpspec.rectangles import ExponentialMedian, PrivateRectangleClassifier

COMMAND = (
    "python benchmarks/bench_rectangles.py --repeats 5 --json benchmarks/results/rectangles.json"
)


def cases(seed: int) -> dict[str, Callable[[], object]]:
    rng = np.random.default_rng(seed)
    points = rng.choice(2**24, size=10**6, replace=False)
    n, d = 10**6, 10
    X = rng.integers(0, 1024, size=(n, d))
    y = np.all(rng.integers(700, 1024, size=d) >= X, axis=1).astype(np.int64)
    wide = rng.integers(0, 2**18, size=(n, d))
    y_wide = np.all(rng.integers(180_000, 2**18, size=d) >= wide, axis=1).astype(np.int64)
    out: dict[str, Callable[[], object]] = {}
    for eps in (1.0, 0.1, 2**-10):
        median = ExponentialMedian(eps, grid_max=2**24 - 1)
        out[f"ExponentialMedian.sample, 10^6 distinct points on 2^24, ε = {eps:g}"] = (
            lambda m=median: m.sample(points, 1, rng)
        )
    out["PrivateRectangleClassifier.fit n=10^6 d=10 ε=0.005 grid 1024 (tags 16)"] = lambda: (
        PrivateRectangleClassifier(epsilon=0.005, random_state=0).fit(X, y)
    )
    out["PrivateRectangleClassifier.fit n=10^6 d=10 ε=0.005 grid 2^18 (tags 16)"] = lambda: (
        PrivateRectangleClassifier(epsilon=0.005, grid_max=2**18 - 1, random_state=0).fit(
            wide, y_wide
        )
    )
    return out


def measure(repeats: int, seed: int) -> list[dict[str, object]]:
    table = cases(seed)
    peaks = {}
    for name, fn in table.items():
        tracemalloc.start()
        fn()
        peaks[name] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    times: dict[str, list[float]] = {name: [] for name in table}
    for _ in range(repeats):
        for name, fn in table.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return [
        {
            "case": name,
            "seconds": min(times[name]),
            "spread": max(times[name]) / min(times[name]),
            "peak_MiB": peaks[name] / 2**20,
        }
        for name in table
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    rows = measure(args.repeats, args.seed)
    for r in rows:
        print(f"{float(r['seconds']):7.2f} s  spread {float(r['spread']):.2f}  {r['case']}")  # type: ignore[arg-type]
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(
                {
                    "repeats": args.repeats,
                    "machine": machine(),
                    "command": COMMAND,
                    "rows": rows,
                },
                f,
                indent=2,
            )


if __name__ == "__main__":
    main()
