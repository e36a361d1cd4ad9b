"""RandMargins (thesis ch. 5): fit time and peak memory at d = 10, n = 10^6 on {0..1023}^d.

Run: ``python benchmarks/bench_rectangles.py [--n 1000000] [--d 10] [--json out.json]``. Per axis
one sort of the alive refined coordinates (O(n log n)) and one exact exponential-median draw
(O(Δ + span) by score levels, whatever the grid size); memory O(n d).
"""

from __future__ import annotations

import argparse
import json
import time
import tracemalloc

import numpy as np

from dpspec.rectangles import PrivateRectangleClassifier


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10**6)
    parser.add_argument("--d", type=int, default=10)
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    X = rng.integers(0, 1024, size=(args.n, args.d))
    target = rng.integers(700, 1024, size=args.d)
    y = np.all(target >= X, axis=1).astype(np.int64)
    rows = []
    for tags in (1, 16):
        clf = PrivateRectangleClassifier(epsilon=1.0, tags=tags, random_state=0)
        clf.fit(X[:1000], y[:1000])  # warm-up
        tracemalloc.start()
        start = time.perf_counter()
        clf.fit(X, y)
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        rows.append(
            {
                "n": args.n,
                "d": args.d,
                "tags": tags,
                "positives": int(y.sum()),
                "seconds": round(seconds, 3),
                "peak_MiB": round(peak / 2**20, 1),
                "input_MiB": round(X.nbytes / 2**20, 1),
                "accuracy": round(clf.score(X[:100_000], y[:100_000]), 4),
            }
        )
        print(rows[-1])
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
