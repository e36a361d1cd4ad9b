"""Throughput of dpspec's exact samplers against numpy's float samplers (one core).

Run: ``python benchmarks/bench_samplers.py [--n 1000000] [--json out.json]``. Reports the best
of 3 runs in samples per second. The exact samplers use only uniform integers from the
generator; numpy's ``laplace``/``geometric`` use floating point (not float-safe).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from dpspec import noise
from dpspec.mechanisms import LaplaceMechanism, RandomizedResponse


def best_rate(fn: Callable[[], object], n: int, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return n / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10**6)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    n = args.n
    rng = np.random.default_rng(0)
    eps01 = 1 / Fraction(429496729, 4294967296)  # ε = 0.1 as dpspec rounds it
    lap = LaplaceMechanism(lambda d: float(d.sum()), 1.0, 0.5)
    data = np.array([0.25, 0.5])
    cases: dict[str, Callable[[], object]] = {
        "numpy laplace (float, idealised)": lambda: rng.laplace(0, 2.0, n),
        "numpy discrete laplace (float geometric difference)": lambda: (
            rng.geometric(1 - np.exp(-0.5), n) - rng.geometric(1 - np.exp(-0.5), n)
        ),
        "exact discrete_laplace scale=1": lambda: noise.discrete_laplace(Fraction(1), n, rng),
        "exact discrete_laplace scale=10": lambda: noise.discrete_laplace(Fraction(10), n, rng),
        "exact discrete_laplace eps=0.1 (scale 2^32/429496729)": lambda: noise.discrete_laplace(
            eps01, n, rng
        ),
        "exact discrete_laplace_base q=1/2": lambda: noise.discrete_laplace_base(
            Fraction(1, 2), n, rng
        ),
        "exact bernoulli_exp_neg(1/3)": lambda: noise.bernoulli_exp_neg(
            np.ones(n, dtype=np.int64), 3, rng
        ),
        "exact LaplaceMechanism (lattice) eps=0.5": lambda: lap.sample(data, n, rng),
        "exact RandomizedResponse k=2 eps=1": lambda: RandomizedResponse(2, 1.0).randomise(
            np.zeros(n, dtype=np.int64), rng
        ),
    }
    rows = []
    for name, fn in cases.items():
        rate = best_rate(fn, n)
        rows.append({"sampler": name, "samples_per_second": rate})
        print(f"{rate / 1e6:8.2f} M/s  {name}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"n": n, "rows": rows}, fh, indent=2)


if __name__ == "__main__":
    main()
