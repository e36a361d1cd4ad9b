"""PCL fit + predict against the bare numpy histogram rule with float Laplace noise.

Run: ``python benchmarks/bench_pcl.py [--n 1000000] [--d 2 5] [--repeats 25] [--out DIR]``
(``--out benchmarks/results`` writes ``pcl_n1e6_d2.json`` …, the files the README table is
generated from by ``benchmarks/readme_tables.py``).

The baseline is what one writes in numpy for seed 000 Alg 2 (``000_dff3c4dc97cf0e21.txt:L193``)
without validation or exact noise: cube of each point min(⌊x·m⌋, m − 1) on m = ⌈n^{1/(2d)}⌉ cubes
per axis, two ``np.bincount`` (points, positive labels), the margin 2Σy − |C| of every cube plus
float ``rng.laplace(0, 2/ε)`` (sensitivity 2), the sign per cube, and predict by cube lookup.
It is timed twice: with the one-line cube index (``plain``) and with the index computed a block
of rows at a time (``blocked``, as PCL computes it; the faster bare rule, so the ratio to it is
the cost of what PCL adds). PCL runs its public entry points ``fit(X, y).predict(Xt)`` on the
same data (exact discrete noise, input validation, labels mapped back to the classes).

The machine is shared: both are timed in one process, interleaved (order alternating per
repeat), after one warm-up each; the best of ``repeats`` is the figure, and the spread is
reported as the per-repeat ratio (min, median, max) and the load average at the start.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from readme_tables import machine

from dpspec.learners import PrivateHistogramClassifier
from dpspec.learners.pcl import cells_per_axis_for

EPSILON = 1.0


def plain_cells(X: NDArray[np.float64], m: int) -> NDArray[np.int64]:
    """Σ_j min(⌊x_j·m⌋, m − 1)·m^{d−1−j}, the one-line numpy way."""
    weights = m ** np.arange(X.shape[1] - 1, -1, -1)
    return np.asarray(np.minimum((X * m).astype(np.int64), m - 1) @ weights)


def blocked_cells(X: NDArray[np.float64], m: int) -> NDArray[np.int64]:
    """The same cube index a block of rows at a time (temporaries stay in cache; float
    arithmetic, exact for m^d < 2^53)."""
    n, d = X.shape
    weights = (m ** np.arange(d - 1, -1, -1)).astype(np.float64)
    cells = np.empty(n, dtype=np.int64)
    rows = 2**15 // d
    for start in range(0, n, rows):
        t = X[start : start + rows] * m
        np.minimum(t, m - 1, out=t)
        np.trunc(t, out=t)
        cells[start : start + rows] = t @ weights
    return cells


def histogram_rule(
    X: NDArray[np.float64],
    y: NDArray[np.int64],
    Xt: NDArray[np.float64],
    m: int,
    rng: np.random.Generator,
    cells_of: Callable[[NDArray[np.float64], int], NDArray[np.int64]] = plain_cells,
) -> NDArray[np.bool_]:
    """The bare rule: noisy majority per cube (float Lap(2/ε) on 2Σy − |C|), cube lookup."""
    total = m ** X.shape[1]
    cells = cells_of(X, m)
    counts = np.bincount(cells, minlength=total)
    ones = np.bincount(cells, weights=y, minlength=total)
    labels = 2 * ones - counts + rng.laplace(0.0, 2.0 / EPSILON, total) > 0
    return np.asarray(labels[cells_of(Xt, m)])


def checkerboard(
    n: int, d: int, rng: np.random.Generator
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """X uniform on [0,1]^d, y the 4-per-axis checkerboard colour with 10% label noise."""
    X = rng.random((n, d))
    black = np.floor(X * 4).sum(axis=1) % 2 == 0
    y = np.where(rng.random(n) < 0.9, black, ~black).astype(np.int64)
    return X, y


def seconds(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def measure(n: int, d: int, repeats: int, command: str) -> dict[str, Any]:
    rng = np.random.default_rng(0)
    X, y = checkerboard(n, d, rng)
    Xt = rng.random((n, d))
    m = cells_per_axis_for(n, d)

    runs: dict[str, Callable[[], object]] = {
        "plain": lambda: histogram_rule(X, y, Xt, m, rng),
        "blocked": lambda: histogram_rule(X, y, Xt, m, rng, blocked_cells),
        "pcl": lambda: PrivateHistogramClassifier(EPSILON, random_state=0).fit(X, y).predict(Xt),
    }
    for run in runs.values():  # warm-up: first-touch page faults and imports are not the cost
        run()
    load = os.getloadavg()[0]
    times: dict[str, list[float]] = {name: [] for name in runs}
    for r in range(repeats):
        order = list(runs) if r % 2 == 0 else list(reversed(runs))
        for name in order:
            times[name].append(seconds(runs[name]))
    spread = {
        base: [p / b for p, b in zip(times["pcl"], times[base], strict=True)]
        for base in ("plain", "blocked")
    }
    tracemalloc.start()
    model = PrivateHistogramClassifier(EPSILON, random_state=0).fit(X, y)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {
        "benchmark": "pcl",
        "command": command,
        "n": n,
        "d": d,
        "epsilon": EPSILON,
        "cells_per_axis": m,
        "stored_cubes": int(model.cells_.size),
        "repeats": repeats,
        "histogram_seconds": min(times["plain"]),
        "histogram_blocked_seconds": min(times["blocked"]),
        "pcl_seconds": min(times["pcl"]),
        "ratio": min(times["pcl"]) / min(times["plain"]),
        "ratio_blocked": min(times["pcl"]) / min(times["blocked"]),
        **{
            f"pair_ratio{'' if base == 'plain' else '_blocked'}_{stat.__name__}": stat(values)
            for base, values in spread.items()
            for stat in (min, statistics.median, max)
        },
        "seconds_all": times,
        "load_average_at_start": load,
        "pcl_fit_peak_mib": peak / 2**20,
        "machine": machine(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10**6)
    parser.add_argument("--d", type=int, nargs="+", default=[2, 5])
    parser.add_argument("--repeats", type=int, default=25)
    parser.add_argument("--out", default=None, help="directory for pcl_n<n>_d<d>.json")
    args = parser.parse_args()
    command = (
        f"python benchmarks/bench_pcl.py --n {args.n} --d {' '.join(map(str, args.d))} "
        f"--repeats {args.repeats} --out benchmarks/results"
    )
    for d in args.d:
        row = measure(args.n, d, args.repeats, command)
        print(
            f"n={args.n} d={d}: bare rule {row['histogram_seconds'] * 1e3:.1f} ms (blocked "
            f"{row['histogram_blocked_seconds'] * 1e3:.1f} ms), PCL "
            f"{row['pcl_seconds'] * 1e3:.1f} ms; ratio {row['ratio']:.2f} (per repeat "
            f"{row['pair_ratio_min']:.2f}..{row['pair_ratio_max']:.2f}), to blocked "
            f"{row['ratio_blocked']:.2f} ({row['pair_ratio_blocked_min']:.2f}.."
            f"{row['pair_ratio_blocked_max']:.2f}); load {row['load_average_at_start']:.1f}"
        )
        if args.out:
            n_tag = (
                f"1e{round(np.log10(args.n))}"
                if 10 ** round(np.log10(args.n)) == args.n
                else args.n
            )
            path = Path(args.out) / f"pcl_n{n_tag}_d{d}.json"
            path.write_text(json.dumps(row, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
