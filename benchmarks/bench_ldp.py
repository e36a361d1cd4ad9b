"""Seed 003 benchmark: exact L2 error of the α-LDP partitioning estimate against the non-private
one along n (d = 1, 2), and the time / peak memory of fitting with every user's randomiser.

Run: ``python benchmarks/bench_ldp.py [--max-n 10000000] [--reps 3] [--json F] [--plot F.png]
[--timing 1:1000000,2:100000] [--skip-errors]``. Errors are exact (closed form per cube,
`impl/ldp/problems.py`); the error fits use the in-law simulation. The timing section runs every
user's randomiser (``simulate="users"``; ball of radius √d around the support [0, 1]^d) for each
``d:n`` of ``--timing``, with the default exact lattice sampler and with ``idealised=True``
(numpy float Laplace); memory = tracemalloc peak of the fit, numpy included, and the process
peak RSS, measured before the error runs; wall and process CPU seconds (the machine may be
shared).
"""

from __future__ import annotations

import argparse
import itertools
import json
import resource
import time
import tracemalloc
from typing import Any

import numpy as np

from dpspec.ldp.estimators import LDPPartitionRegressor
from dpspec.ldp.problems import SineProblem
from dpspec.proofs.engine.consistency_runs import run_ldp_consistency


def errors(max_n: int, reps: int) -> list[dict[str, Any]]:
    rows = []
    ns = [n for n in (10**3, 10**4, 10**5, 10**6, 10**7) if n <= max_n]
    for d in (1, 2):
        for kind in ("ldp-regression", "partitioning"):
            for r in run_ldp_consistency(kind, d, ns, 1.0, reps, 0, progress=False):
                rows.append(
                    {
                        "d": d,
                        "kind": kind,
                        "n": r.n,
                        "l2_error": r.excess_risk,
                        "ci": list(r.excess_risk_ci),
                        "fit_seconds": r.fit_seconds,
                    }
                )
                print(
                    f"d={d} {kind:15s} n={r.n:>9}  L2 {r.excess_risk:.5f}  "
                    f"fit {r.fit_seconds:.2f}s",
                    flush=True,
                )
    return rows


def users_timing(plan: list[tuple[int, int]]) -> list[dict[str, Any]]:
    out = []
    for (d, n), idealised in itertools.product(plan, (False, True)):
        problem = SineProblem(d)
        X, y = problem.sample_regression(n, np.random.default_rng(1))
        est = LDPPartitionRegressor(
            1.0,
            radius=d**0.5,
            truncation=1.0,
            simulate="users",
            random_state=0,
            idealised=idealised,
        )
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        tracemalloc.start()
        start, cpu = time.perf_counter(), time.process_time()
        est.fit(X, y)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        fit_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        lo, hi = est.partition_.cube_bounds()
        out.append(
            {
                "d": d,
                "n": n,
                "sampler": "idealised float Laplace" if idealised else "exact lattice",
                "cells": est.partition_.n_cells,
                "cpu_seconds": cpu,
                "draws_per_cpu_second": 2 * est.partition_.n_cells * n / cpu,
                "seconds": seconds,
                "reports_per_user": 2 * est.partition_.n_cells,
                "peak_rss_mb": peak / 1024,
                "rss_growth_mb": (peak - before) / 1024,
                "fit_traced_peak_mb": fit_peak / 2**20,
                "data_mb": (X.nbytes + y.nbytes) / 2**20,
                "l2_error": problem.l2_error(lo, hi, est.values_),
            }
        )
        print(
            f"users' randomisers ({'idealised' if idealised else 'exact'}) d={d} n={n}: "
            f"{est.partition_.n_cells} cells, "
            f"{seconds:.1f}s wall, {cpu:.1f}s CPU, fit peak {fit_peak / 2**20:.0f} MB (traced), "
            f"process peak RSS {peak / 1024:.0f} MB",
            flush=True,
        )
    return out


def plot(rows: list[dict[str, Any]], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for d in (1, 2):
        for kind, style in (("ldp-regression", "-o"), ("partitioning", "--s")):
            pts = [(r["n"], r["l2_error"]) for r in rows if r["d"] == d and r["kind"] == kind]
            ax.plot(*zip(*pts, strict=True), style, label=f"{kind}, d={d}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n")
    ax.set_ylabel("exact L2 error")
    ax.set_title("epsilon = 1 LDP partitioning vs non-private (sine problem)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-n", type=int, default=10**7)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--json", default="benchmarks/results/ldp.json")
    parser.add_argument("--plot", default="benchmarks/results/ldp.png")
    parser.add_argument("--timing", default="1:1000000,2:100000", help="d:n pairs to time")
    parser.add_argument("--skip-errors", action="store_true", help="timing only")
    args = parser.parse_args()
    plan = [(int(a), int(float(b))) for a, b in (p.split(":") for p in args.timing.split(","))]
    timing = users_timing(plan)  # first, so the process peak RSS is the timing run's
    if args.skip_errors:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"users_timing": timing}, fh, indent=2)
        return
    rows = errors(args.max_n, args.reps)
    with open(args.json, "w", encoding="utf-8") as fh:
        json.dump({"errors": rows, "users_timing": timing}, fh, indent=2)
    plot(rows, args.plot)


if __name__ == "__main__":
    main()
