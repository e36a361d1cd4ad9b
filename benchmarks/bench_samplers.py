"""Throughput of dpspec's exact samplers against numpy's float Laplace, in one run.

Run: ``python benchmarks/bench_samplers.py [--n 1000000] [--repeats 9] [--json PATH]``, then
``python benchmarks/readme_tables.py`` (README's table is written from the JSON). Every case
draws ``n`` values; the cases are timed in interleaved rounds (each round times every case once,
in a shuffled order), so the baseline and the candidates see the same machine load. Reported per
case: the best rate over the rounds (samples/s), its ratio to the best rate of numpy's float
Laplace, and the spread of the rounds (slowest/fastest time). Tables are built before timing
(they are cached per law).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Callable
from fractions import Fraction

import numpy as np
from readme_tables import machine

from dpspec import noise
from dpspec.mechanisms import ExponentialMechanism, LaplaceMechanism, RandomizedResponse

BASELINE = "numpy laplace (float, not exact)"
COMMAND = "python benchmarks/bench_samplers.py --repeats 11 --json benchmarks/results/samplers.json"


def cases(n: int, rng: np.random.Generator) -> dict[str, Callable[[], object]]:
    eps01 = 1 / Fraction(429496729, 4294967296)  # scale 1/ε for ε = 0.1 as dpspec rounds it
    lattice = LaplaceMechanism(lambda d: float(d.sum()), 1.0, 0.5)
    data = np.array([0.25, 0.5])
    wide = ExponentialMechanism(lambda d: np.arange(2**16) % 977, 1, epsilon=0.5)
    many = np.arange(2**16, dtype=np.int64) * 3
    rr = RandomizedResponse(2, 1.0)
    zeros = np.zeros(n, dtype=np.int64)
    ones = np.ones(n, dtype=np.int64)
    return {
        BASELINE: lambda: rng.laplace(0, 2.0, n),
        "numpy geometric difference (float, not exact)": lambda: (
            rng.geometric(1 - np.exp(-0.5), n) - rng.geometric(1 - np.exp(-0.5), n)
        ),
        "discrete_laplace scale=1": lambda: noise.discrete_laplace(Fraction(1), n, rng),
        "discrete_laplace scale=10": lambda: noise.discrete_laplace(Fraction(10), n, rng),
        "discrete_laplace ε=0.1 (scale 2^32/429496729)": lambda: noise.discrete_laplace(
            eps01, n, rng
        ),
        "discrete_laplace scale=10^4": lambda: noise.discrete_laplace(Fraction(10**4), n, rng),
        "discrete_laplace_base q=1/2": lambda: noise.discrete_laplace_base(Fraction(1, 2), n, rng),
        "geometric q=9/10": lambda: noise.geometric(Fraction(9, 10), n, rng),
        "LaplaceMechanism lattice ε=0.5 (scale ≈ 2^21)": lambda: lattice.sample(data, n, rng),
        "bernoulli_exp_neg(1/3)": lambda: noise.bernoulli_exp_neg(ones, 3, rng),
        "categorical_exp_neg 2^16 outcomes": lambda: noise.categorical_exp_neg(many, 7, n, rng),
        "ExponentialMechanism 2^16 candidates ε=0.5": lambda: wide.sample(zeros[:1], n, rng),
        "RandomizedResponse k=2 ε=1": lambda: rr.randomise(zeros, rng),
    }


def measure(n: int, repeats: int, seed: int) -> list[dict[str, object]]:
    rng = np.random.default_rng(seed)
    table = cases(n, rng)
    for fn in table.values():  # build and cache every table before timing
        fn()
    times: dict[str, list[float]] = {name: [] for name in table}
    order = list(table)
    shuffle = random.Random(seed)
    for _ in range(repeats):
        shuffle.shuffle(order)
        for name in order:
            start = time.perf_counter()
            table[name]()
            times[name].append(time.perf_counter() - start)
    base = n / min(times[BASELINE])
    rows: list[dict[str, object]] = []
    for name in table:
        best, worst = min(times[name]), max(times[name])
        rows.append(
            {
                "sampler": name,
                "samples_per_second": n / best,
                "ratio_to_numpy_laplace": (n / best) / base,
                "spread": worst / best,
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10**6)
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    rows = measure(args.n, args.repeats, args.seed)
    where = machine()  # the README's table (benchmarks/readme_tables.py) names it
    for r in rows:
        rate = float(r["samples_per_second"])  # type: ignore[arg-type]
        ratio = float(r["ratio_to_numpy_laplace"])  # type: ignore[arg-type]
        spread = float(r["spread"])  # type: ignore[arg-type]
        print(f"{rate / 1e6:8.1f} M/s  {ratio:5.2f}×  spread {spread:.2f}  {r['sampler']}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(
                {
                    "n": args.n,
                    "repeats": args.repeats,
                    "machine": where,
                    "load_average": list(os.getloadavg()),
                    "command": COMMAND,
                    "rows": rows,
                },
                fh,
                indent=2,
            )


if __name__ == "__main__":
    main()
