"""Seed 004 learners: fit time and peak memory of A1 (thresholds, intervals), A1r and A2 at large n.

Run: ``python benchmarks/bench_cover_learners.py [--n 1000000] [--json out.json]``. A fit sorts
the sample once per label (O(n log n)), counts mistakes of every candidate with two binary
searches (O(|G| log n)) and draws the choice exactly (O(|G|) per round); memory O(n + |G|).
"""

from __future__ import annotations

import argparse
import json
import time
import tracemalloc
from typing import Any

import numpy as np

from dpspec.cover_learners import LabelPrivateCoverClassifier, PrivateCoverClassifier


def run(n: int, seed: int = 0) -> list[dict[str, Any]]:
    rng = np.random.default_rng(seed)
    X = rng.random((n, 1))
    y = (X[:, 0] >= 0.37).astype(np.int64) ^ (rng.random(n) < 0.1)
    learners = {
        "A1 thresholds": PrivateCoverClassifier(1.0, 0.05, random_state=0),
        "A1 intervals": PrivateCoverClassifier(
            1.0, 0.1, hypothesis_class="interval", random_state=0
        ),
        "A1r thresholds": PrivateCoverClassifier(1.0, 0.05, realizable=True, random_state=0),
        "A2 thresholds": LabelPrivateCoverClassifier(1.0, 0.05, random_state=0),
    }
    rows = []
    for name, learner in learners.items():
        learner.fit(X[:1000], y[:1000])  # warm-up (imports, caches)
        tracemalloc.start()
        start = time.perf_counter()
        learner.fit(X, y)
        seconds = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        rows.append(
            {
                "learner": name,
                "n": n,
                "candidates": learner.candidates_.size,
                "seconds": round(seconds, 3),
                "peak_MiB": round(peak / 2**20, 1),
                "input_MiB": round((X.nbytes + y.nbytes) / 2**20, 1),
                "accuracy": round(learner.score(X[:100_000], y[:100_000]), 4),
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10**6)
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    rows = run(args.n)
    for r in rows:
        print(
            f"{r['learner']:>15}: n={r['n']}, |G|={r['candidates']}, {r['seconds']} s, "
            f"peak {r['peak_MiB']} MiB (input {r['input_MiB']} MiB), accuracy {r['accuracy']}"
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
