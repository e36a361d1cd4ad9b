"""Consistency runs for the LDP partitioning estimates of seed 003 (Theorems 2, 3 and 4).

``run_ldp_consistency(kind, d, ns, epsilon, reps, seed)`` fits on fresh samples of the sine
problem (:class:`~dpspec.ldp.problems.SineProblem`, a = ½) for each n and reports the
**exact** L2 error ∫(m − m̃)² dμ (``ldp-regression``, ``partitioning``: the non-private
baseline) or the exact excess classification risk (``ldp-classifier``) — cube-wise closed forms,
no test sample. Responses are bounded (|Y| ≤ 1), so the public truncation level is M = 1.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np
from tqdm import tqdm

from dpspec.ldp.estimators import (
    LDPPartitionClassifier,
    LDPPartitionRegressor,
    PartitioningRegressor,
)
from dpspec.ldp.problems import SineProblem
from dpspec.proofs.topics.consistency.experiments import ConsistencyRow, check_grid, t_interval

KINDS = ("ldp-regression", "ldp-classifier", "partitioning")


def ldp_error(
    kind: str, problem: SineProblem, n: int, epsilon: float, seed: int, shuffle: bool = False
) -> tuple[float, float]:
    """(exact error, fit seconds) of one fit of ``kind`` on n fresh draws (``shuffle``: the
    responses are permuted first — a control with no signal left)."""
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    if kind == "ldp-classifier":
        X, labels = problem.sample_classification(n, rng)
        if shuffle:
            labels = rng.permutation(labels)
        clf = LDPPartitionClassifier(
            epsilon, radius=problem.d**0.5, simulate="in-law", random_state=seed
        ).fit(X, labels)
        seconds = time.perf_counter() - start
        lo, hi = clf.partition_.cube_bounds()
        g = np.where(clf.nu_ > 0, 1, -1)  # classes_ = (−1, 1): +1 where ν̃ > 0, sign(0) = −1
        return problem.excess_risk(lo, hi, g), seconds
    X, y = problem.sample_regression(n, rng)
    if shuffle:
        y = rng.permutation(y)
    if kind == "ldp-regression":
        est: LDPPartitionRegressor | PartitioningRegressor = LDPPartitionRegressor(
            epsilon, radius=problem.d**0.5, truncation=1.0, simulate="in-law", random_state=seed
        )
    elif kind == "partitioning":
        est = PartitioningRegressor(radius=problem.d**0.5, truncation=1.0)
    else:
        raise ValueError(f"kind: expected one of {KINDS}, got {kind!r}")
    est.fit(X, y)
    seconds = time.perf_counter() - start
    lo, hi = est.partition_.cube_bounds()
    return problem.l2_error(lo, hi, est.values_), seconds


def run_ldp_consistency(
    kind: str,
    d: int,
    ns: Sequence[int],
    epsilon: float,
    reps: int,
    seed: int,
    progress: bool = True,
    shuffle: bool = False,
) -> list[ConsistencyRow]:
    """Exact error (mean, 95% t-interval over ``reps`` fits) and fit time for each n."""
    if kind not in KINDS:
        raise ValueError(f"kind: expected one of {KINDS}, got {kind!r}")
    ns = check_grid(ns, reps, seed)
    problem = SineProblem(d)
    rows = []
    bar = tqdm(total=len(ns) * reps, desc=kind, disable=not progress)
    for i, n in enumerate(ns):
        values, seconds = [], []
        for r in range(reps):
            err, sec = ldp_error(kind, problem, n, epsilon, seed + 1000 * i + r, shuffle)
            values.append(err)
            seconds.append(sec)
            bar.update(1)
        lo, hi = t_interval(values)
        rows.append(
            ConsistencyRow(
                n, float(np.mean(values)), (lo, hi), float(np.mean(seconds)), 0.0, True, values
            )
        )
    bar.close()
    return rows
