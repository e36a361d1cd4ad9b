"""Learner-audit benchmarks: wall time of auditing PCL through its vectorised repeated fits and
through real fits, tightness of every learner-zoo entry, and one-run auditing by m.

Run: ``python benchmarks/bench_learner_audit.py [--json benchmarks/results/learner_audit.json]``.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from dpspec.audit import audit
from dpspec.audit.learner_zoo import learner_zoo
from dpspec.audit.learners import LearnerMechanism
from dpspec.audit.one_run import learner_one_run
from dpspec.learners.pcl import PrivateHistogramClassifier


def pcl_audit(fits: int) -> dict[str, Any]:
    """PCL at n = 10^4 (the zoo's canary pair), ``fits`` estimation fits per side plus the
    default selection (fits/5)."""
    entry = learner_zoo(n_pcl=10**4)["pcl"]
    start = time.perf_counter()
    r = audit(entry.mechanism, entry.pair, 1.0, samples=fits, seed=0)
    return {
        "n": 10**4,
        "fits_per_side": fits,
        "selection_per_side": r.selection_samples,
        "seconds": time.perf_counter() - start,
        "epsilon_lower": r.epsilon_lower,
        "true_epsilon": entry.true_epsilon,
    }


def real_fit_rate(fits: int) -> dict[str, Any]:
    """Fits per second through ``fit`` + ``predict`` (no vectorisation), same pair."""
    entry = learner_zoo(n_pcl=10**4)["pcl"]
    mech = entry.mechanism
    loop = LearnerMechanism(mech.factory, probe=mech.probe, vectorised=False)
    start = time.perf_counter()
    loop.sample(entry.pair[0], fits, np.random.default_rng(0))
    seconds = time.perf_counter() - start
    return {"fits": fits, "seconds": seconds, "fits_per_second": fits / seconds}


def zoo_table(scale: int) -> list[dict[str, Any]]:
    rows = []
    for name, entry in learner_zoo().items():
        vectorised = name in ("pcl", "pcl-idealised", "pcl-half-noise")
        n = 10**6 if vectorised else 2000 * scale
        start = time.perf_counter()
        r = audit(entry.mechanism, entry.pair, entry.epsilon, entry.delta, samples=n, seed=1)
        rows.append(
            {
                "name": name,
                "correct": entry.correct,
                "true_epsilon": entry.true_epsilon,
                "epsilon_lower": r.epsilon_lower,
                "flagged": r.violation,
                "fits_per_side": n,
                "seconds": time.perf_counter() - start,
            }
        )
    return rows


def one_run_table() -> list[dict[str, Any]]:
    """One-run audits of PCL at ε = 1 (add/remove ε = 1/2 exactly) by number of canaries."""
    rows = []
    grid = 800
    for m in (10**3, 10**4, 10**5, 3 * 10**5):
        rng = np.random.default_rng(m)
        Xb = rng.random((10**4, 2)) * np.array([0.5, 1.0])
        yb = rng.integers(0, 2, 10**4)
        cells = rng.choice((grid // 2) * grid, size=m, replace=False)
        Xc = np.stack([(grid // 2 + cells // grid + 0.5) / grid, (cells % grid + 0.5) / grid], 1)

        def make(seed: int) -> PrivateHistogramClassifier:
            return PrivateHistogramClassifier(1.0, cells_per_axis=grid, random_state=seed)

        r = learner_one_run(make, (Xb, yb), (Xc, np.ones(m, np.int64)), 0.5, seed=m)
        rows.append(
            {"canaries": m, "epsilon_lower": r.epsilon_lower, "true": 0.5, "seconds": r.seconds}
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--scale", type=int, default=1, help="real-fit audits × this")
    args = parser.parse_args()
    results = {
        "pcl_audit_1e5": pcl_audit(10**5),
        "pcl_audit_1e6": pcl_audit(10**6),
        "real_fits": real_fit_rate(2000),
        "zoo": zoo_table(args.scale),
        "one_run": one_run_table(),
    }
    print(json.dumps(results, indent=1))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
