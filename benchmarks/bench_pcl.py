"""PCL fit + predict against a bare numpy bincount histogram rule on the same data.

Run: ``python benchmarks/bench_pcl.py [--n 1000000] [--d 2] [--repeats 3] [--json out.json]``.
Both rules use the same grid (m = ⌈n^{1/(2d)}⌉ cubes per axis), the same training sample and the
same n test points; the best of ``repeats`` runs is reported, with peak memory of the PCL model.
"""

from __future__ import annotations

import argparse
import json
import time
import tracemalloc

import numpy as np
from numpy.typing import NDArray

from dpspec.learners import PrivateHistogramClassifier
from dpspec.learners.pcl import cells_per_axis_for


def histogram_rule(
    X: NDArray[np.float64], y: NDArray[np.int64], Xt: NDArray[np.float64], m: int
) -> NDArray[np.bool_]:
    """The non-private histogram rule: majority label per cube (ties → 0), bincount-based."""
    d = X.shape[1]
    weights = m ** np.arange(d - 1, -1, -1)
    cells = np.minimum((X * m).astype(np.int64), m - 1) @ weights
    counts = np.bincount(cells, minlength=m**d)
    ones = np.bincount(cells, weights=y, minlength=m**d)
    labels = 2 * ones > counts
    return np.asarray(labels[np.minimum((Xt * m).astype(np.int64), m - 1) @ weights])


def checkerboard(
    n: int, d: int, rng: np.random.Generator
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    X = rng.random((n, d))
    black = np.floor(X * 4).sum(axis=1) % 2 == 0
    y = np.where(rng.random(n) < 0.9, black, ~black).astype(np.int64)
    return X, y


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10**6)
    parser.add_argument("--d", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    X, y = checkerboard(args.n, args.d, rng)
    Xt = rng.random((args.n, args.d))
    m = cells_per_axis_for(args.n, args.d)
    t_hist = t_pcl = float("inf")
    for r in range(args.repeats):
        start = time.perf_counter()
        histogram_rule(X, y, Xt, m)
        t_hist = min(t_hist, time.perf_counter() - start)
        start = time.perf_counter()
        PrivateHistogramClassifier(1.0, random_state=r).fit(X, y).predict(Xt)
        t_pcl = min(t_pcl, time.perf_counter() - start)
    tracemalloc.start()
    model = PrivateHistogramClassifier(1.0, random_state=0).fit(X, y)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    row = {
        "n": args.n,
        "d": args.d,
        "cells_per_axis": m,
        "stored_cubes": int(model.cells_.size),
        "histogram_seconds": t_hist,
        "pcl_seconds": t_pcl,
        "ratio": t_pcl / t_hist,
        "pcl_fit_peak_mib": peak / 2**20,
    }
    print(json.dumps(row, indent=2))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(row, fh, indent=2)


if __name__ == "__main__":
    main()
