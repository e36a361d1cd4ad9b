"""Shared machinery of the consistency runs (``dpspec consistency`` and the trend checks).

Seed 000 Thm 3.2 / 4.3 / A.12 / A.15 and seed 003 Thms 2–4 are limits: the error of a learner
fitted on n points goes to its optimum as n grows. The runs fit on fresh samples for each n of a
grid and report one :class:`ConsistencyRow` per n (mean, 95% t-interval over repetitions, fit
and predict seconds); the families' topics decide trends from them.

* rows, intervals and the grid's validation (:func:`check_grid`), and the plot;
* the density metric ‖f − f̂‖₁ of PCDE (:func:`l1_distance`, :data:`NO_RELEASE_L1`);
* the runs of seed 003's locally private partitioning estimates (:func:`run_ldp_consistency`):
  fits on fresh samples of the sine problem (:class:`~dpspec.ldp.problems.SineProblem`, a = ½)
  with the **exact** L2 error ∫(m − m̃)² dμ (``ldp-regression``, ``partitioning``: the
  non-private baseline) or the exact excess classification risk (``ldp-classifier``) — cube-wise
  closed forms, no test sample. Responses are bounded (|Y| ≤ 1), so the public truncation level
  is M = 1.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats
from tqdm import tqdm

from dpspec.densities import ProductDensity
from dpspec.ldp.estimators import (
    LDPPartitionClassifier,
    LDPPartitionRegressor,
    PartitioningRegressor,
)
from dpspec.ldp.problems import SineProblem
from dpspec.learners.pcde import PrivateHistogramDensity


@dataclass
class ConsistencyRow:
    n: int
    excess_risk: float
    excess_risk_ci: tuple[float, float]
    fit_seconds: float
    predict_seconds: float
    exact: bool
    values: list[float]

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "excess_risk": self.excess_risk,
            "excess_risk_ci": list(self.excess_risk_ci),
            "fit_seconds": self.fit_seconds,
            "predict_seconds": self.predict_seconds,
            "exact": self.exact,
            "values": self.values,
        }


def t_interval(values: Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """Two-sided t confidence interval for the mean (degenerate for one value)."""
    arr = np.asarray(values, dtype=np.float64)
    mean = float(arr.mean())
    if arr.size < 2:
        return mean, mean
    half = float(stats.t.ppf(0.5 + level / 2, arr.size - 1) * arr.std(ddof=1) / math.sqrt(arr.size))
    return mean - half, mean + half


#: largest sample size per fit and repetitions per size accepted by the runners
N_MAX = 10**7


REPS_MAX = 1000


def check_grid(ns: Sequence[int], reps: int, seed: int) -> list[int]:
    """The runners' shared arguments: sizes are integers in [1, N_MAX] (bool is not one),
    ``reps`` in [1, REPS_MAX], ``seed`` an integer >= 0. Raises ValueError naming them."""

    def integer(v: object) -> bool:
        return isinstance(v, int | np.integer) and not isinstance(v, bool)

    sizes = list(ns)
    if not sizes or not all(integer(n) and 1 <= int(n) <= N_MAX for n in sizes):
        raise ValueError(f"n: need integer sample sizes in [1, {N_MAX}], got {sizes}")
    if not integer(reps) or not 1 <= int(reps) <= REPS_MAX:
        raise ValueError(f"reps: must be an integer in [1, {REPS_MAX}], got {reps!r}")
    if not integer(seed) or int(seed) < 0:
        raise ValueError(f"seed: must be an integer >= 0, got {seed!r}")
    return [int(n) for n in sizes]


def plot_rows(rows: Sequence[ConsistencyRow], title: str, path: str) -> None:
    """Excess risk against n (log x) with the 95% intervals, as a PNG."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ValueError("plot: matplotlib is needed (pip install 'dpspec[plot]')") from exc
    ns = [r.n for r in rows]
    mean = [r.excess_risk for r in rows]
    lo = [r.excess_risk - r.excess_risk_ci[0] for r in rows]
    hi = [r.excess_risk_ci[1] - r.excess_risk for r in rows]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.errorbar(ns, mean, yerr=[lo, hi], marker="o", capsize=4)
    ax.set_xscale("log")
    ax.set_xlabel("n")
    ax.set_ylabel("excess risk  err − L*")
    ax.set_title(title)
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def density_l1_distance(est: PrivateHistogramDensity, density: ProductDensity) -> float:
    """‖f − f̂‖₁ for a fitted PCDE f̂ and a :class:`~dpspec.densities.ProductDensity` f
    (closed form per cube for d = 1; Gauss–Legendre in one axis for d = 2, whose stated
    error must stay below 1e-6 or this raises)."""
    if est.n_features_in_ != density.d:
        raise ValueError(f"est: fitted on d={est.n_features_in_}, density has d={density.d}")
    value, error = density.l1_to_histogram(est.released_cells_, est.side_, est.density_values_)
    if error > 1e-6:
        raise ValueError(f"density: quadrature error {error:.2g} above 1e-6")
    return value


#: L1 charged when nothing is released: f̂ does not exist, so the estimate counts as the
#: farthest any density can be from f (‖f − g‖₁ ≤ 2).
NO_RELEASE_L1 = 2.0


LDP_KINDS = ("ldp-regression", "ldp-classifier", "partitioning")


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
        raise ValueError(f"kind: expected one of {LDP_KINDS}, got {kind!r}")
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
    if kind not in LDP_KINDS:
        raise ValueError(f"kind: expected one of {LDP_KINDS}, got {kind!r}")
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
