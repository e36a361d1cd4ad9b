"""Compression by boosting (seed 002 ch. 4): stored size and time along m.

Run: ``python benchmarks/bench_compression.py [--max-m 1000000] [--json F]``. For thresholds and
BV(1) targets, compress a random realizable sample of size m (γ = ¼, n = 64, m̃ = 8) and report
stored points, side bits, boosting rounds actually run before a zero-mistake round or T,
Sparsify trials, seconds, and seconds / (m log m).
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np

from dpspec.compression.schemes import compress, random_realizable_sample, reconstruct


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-m", type=int, default=10**6)
    parser.add_argument("--json", default="benchmarks/results/compression.json")
    args = parser.parse_args()
    rows = []
    for cls in ("thresholds", "bv"):
        for m in (10**3, 10**4, 10**5, 10**6):
            if m > args.max_m:
                continue
            rng = np.random.default_rng(m)
            x, y = random_realizable_sample(cls, m, rng)
            start = time.perf_counter()
            c = compress(cls, x, y, rng, gamma=0.25)
            seconds = time.perf_counter() - start
            err = float(np.max(np.abs(reconstruct(c, x[c.stored], y[c.stored])(x) - y)))
            rows.append(
                {
                    "class": cls,
                    "m": m,
                    "stored_points": c.stored_points,
                    "side_bits": c.side_bits,
                    "rounds_T": c.rounds,
                    "weak_learner_draws": c.weak_draws,
                    "sparsify_trials": c.trials,
                    "seconds": seconds,
                    "seconds_per_m_log_m": seconds / (m * math.log(m)),
                    "reconstruction_error": err,
                }
            )
            print(
                f"{cls:10s} m={m:>8}  stored {c.stored_points:4d}  bits {c.side_bits:5d}  "
                f"draws {c.weak_draws:5d}  trials {c.trials}  {seconds:7.2f}s  "
                f"s/(m ln m) {seconds / (m * math.log(m)):.2e}  err {err:.3g}",
                flush=True,
            )
    with open(args.json, "w", encoding="utf-8") as fh:
        json.dump(rows, fh, indent=2)


if __name__ == "__main__":
    main()
