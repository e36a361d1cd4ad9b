"""Time and width of dpspec's certified accountant (:func:`dpspec.accounting.epsilon_interval`)
on the catalogue's compositions, one core.

Run: ``python benchmarks/bench_accountant.py [--repeats 3] [--json PATH]``. Each case is timed
``repeats`` times (CPU seconds of this process, and wall seconds); reported per case: the best
CPU and wall times, the certified bracket [lo, hi] and its relative width (hi − lo)/hi, and
whether the target (relative width ≤ 10^-3 in ≤ 1 s) was met. The target case is 10^4
compositions of the Poisson-subsampled Gaussian, σ = 1, q = 0.01, δ = 10^-5.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from readme_tables import machine

from dpspec.accounting import Composition, epsilon_interval

COMMAND = (
    "python benchmarks/bench_accountant.py --repeats 3 --json benchmarks/results/accountant.json"
)
#: (name, composition, δ, accuracy)
CASES = (
    (
        "target: gaussian σ=1 poisson q=0.01, 10^4 steps",
        Composition("gaussian", 1.0, "poisson", 0.01, 10_000, "add_remove"),
        1e-5,
        1e-3,
    ),
    (
        "gaussian σ=1 poisson q=0.01, 10^4 steps, accuracy 10^-2",
        Composition("gaussian", 1.0, "poisson", 0.01, 10_000, "add_remove"),
        1e-5,
        1e-2,
    ),
    (
        "gaussian σ=1 poisson q=0.01, 10^3 steps",
        Composition("gaussian", 1.0, "poisson", 0.01, 1_000, "add_remove"),
        1e-5,
        1e-3,
    ),
    (
        "gaussian σ=0.8 without replacement γ=0.01 (substitution), 10^3 steps",
        Composition("gaussian", 0.8, "without_replacement", 0.01, 1_000, "substitution"),
        1e-5,
        1e-3,
    ),
    (
        "laplace b=2 poisson q=0.05, 10^3 steps",
        Composition("laplace", 2.0, "poisson", 0.05, 1_000, "add_remove"),
        1e-5,
        1e-3,
    ),
    (
        "gaussian σ=2 unsampled, 10^4 steps (closed form)",
        Composition("gaussian", 2.0, "none", 1.0, 10_000, "add_remove"),
        1e-5,
        1e-3,
    ),
)


def run(repeats: int) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for name, composition, delta, accuracy in CASES:
        cpu, wall = [], []
        found = None
        for _ in range(repeats):
            c0, w0 = time.process_time(), time.perf_counter()
            found = epsilon_interval(composition, delta, accuracy=accuracy)
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
        assert found is not None
        lo, hi = float(found.lo), float(found.hi)
        width = (hi - lo) / hi
        rows.append(
            {
                "case": name,
                "delta": delta,
                "accuracy": accuracy,
                "lo": lo,
                "hi": hi,
                "relative_width": width,
                "cpu_seconds": min(cpu),
                "wall_seconds": min(wall),
                "met": bool(width <= 1e-3 and min(cpu) <= 1.0),
            }
        )
        print(f"{name}: [{lo:.6f}, {hi:.6f}] width {width:.2e}, {min(cpu):.2f} s CPU")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    rows = run(args.repeats)
    out = {
        "command": COMMAND,
        "machine": machine(),
        "load_average": os.getloadavg(),
        "target": "relative width <= 1e-3 in <= 1 s CPU (one core)",
        "rows": rows,
    }
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
