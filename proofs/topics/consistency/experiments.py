"""``dpspec consistency``: excess risk of a learner along an n-grid, on a problem with known η.

Seed 000 Thm 3.2 (PCL, ``000_dff3c4dc97cf0e21.txt:L208``), Thm 4.3 (PCDE) and Thm A.12/A.15
(PCL2, PCL2b) are limits: E err(A_n) → L* (or E‖f − f̂_n‖₁ → 0). This runner fits a learner on
fresh samples for each n and repetition and reports the excess risk err − L*:

* **exact** when the learner's hypothesis is piecewise constant on a regular grid of [0,1]^d
  (``grid_labels()``) and the problem integrates η cube-wise (``grid_classifier_error``);
* otherwise **sampled** on ``test_size`` fresh points, with the binomial standard error folded
  into the reported interval.

Per n: mean excess risk, a 95% t-interval over repetitions, fit and predict seconds.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray
from tqdm import tqdm

from dpspec.proofs.engine.consistency_runs import (
    N_MAX,
    NO_RELEASE_L1,
    ConsistencyRow,
    check_grid,
    density_l1_distance,
    t_interval,
)


class ClassificationProblem(Protocol):
    """A distribution of (X, y) with known Bayes error (X ⊂ [0,1]^d for the grid learners)."""

    def sample(
        self, n: int, rng: np.random.Generator
    ) -> tuple[NDArray[np.float64], NDArray[np.int64]]: ...

    def bayes_error(self) -> float: ...


class Classifier(Protocol):
    def fit(self, X: Any, y: Any) -> Any: ...

    def predict(self, X: Any) -> NDArray[Any]: ...


LearnerFactory = Callable[[float, int, int], Classifier]  # (epsilon, n, seed) -> unfitted model


def _grid_error(problem: Any, model: Any) -> float | None:
    """Exact error when both sides support it, else None."""
    grid = getattr(model, "grid_labels", None)
    exact = getattr(problem, "grid_classifier_error", None)
    if grid is None or exact is None:
        return None
    try:
        labels = grid()
    except ValueError:
        return None
    return float(exact(labels))


def run_consistency(
    problem: ClassificationProblem,
    factory: LearnerFactory,
    ns: Sequence[int],
    epsilon: float,
    reps: int,
    seed: int,
    test_size: int = 200_000,
    progress: bool = True,
) -> list[ConsistencyRow]:
    """Fit ``reps`` models per n on fresh samples; excess risk exact when possible."""
    ns = check_grid(ns, reps, seed)
    if not isinstance(test_size, int | np.integer) or not 1 <= int(test_size) <= N_MAX:
        raise ValueError(f"test_size: must be an integer in [1, {N_MAX}], got {test_size!r}")
    bayes = problem.bayes_error()
    rng = np.random.default_rng(seed)
    rows: list[ConsistencyRow] = []
    bar = tqdm(total=len(ns) * reps, desc="consistency", disable=not progress)
    for n in ns:
        values: list[float] = []
        fit_t = pred_t = 0.0
        all_exact = True
        for r in range(reps):
            X, y = problem.sample(n, rng)
            model = factory(epsilon, n, seed * 1_000_003 + r)
            start = time.perf_counter()
            model.fit(X, y)
            fit_t += time.perf_counter() - start
            Xt, yt = problem.sample(test_size, rng)
            start = time.perf_counter()
            pred = model.predict(Xt)
            pred_t += time.perf_counter() - start
            err = _grid_error(problem, model)
            if err is None:
                all_exact = False
                err = float(np.mean(pred != yt))
            values.append(err - bayes)
            bar.update(1)
        lo, hi = t_interval(values)
        if not all_exact:  # widen by the sampling error of one test set (binomial, 95%)
            half = 1.96 * math.sqrt(0.25 / test_size)
            lo, hi = lo - half, hi + half
        rows.append(
            ConsistencyRow(
                n, float(np.mean(values)), (lo, hi), fit_t / reps, pred_t / reps, all_exact, values
            )
        )
    bar.close()
    return rows


class _DiffprivlibOnUnitCube:
    """A diffprivlib model with the public domain bounds [0,1]^d set at fit (data-independent)."""

    def __init__(self, name: str, epsilon: float, seed: int) -> None:
        try:
            from diffprivlib import models  # type: ignore[import-not-found,unused-ignore]
        except ImportError as exc:
            raise ValueError(
                f"learner: {name} needs diffprivlib (a benchmark-only extra; it requires "
                "scikit-learn<1.8, see shared notes/peers.md)"
            ) from exc
        self.models, self.name, self.epsilon, self.seed = models, name, epsilon, seed

    def fit(self, X: Any, y: Any) -> _DiffprivlibOnUnitCube:
        d = np.shape(X)[1]
        if self.name == "diffprivlib-gnb":
            self.model = self.models.GaussianNB(epsilon=self.epsilon, bounds=([0.0] * d, [1.0] * d))
        else:
            self.model = self.models.LogisticRegression(
                epsilon=self.epsilon, data_norm=math.sqrt(d), random_state=self.seed
            )
        self.model.fit(X, y)
        return self

    def predict(self, X: Any) -> NDArray[Any]:
        return np.asarray(self.model.predict(X))


def make_classifier(name: str, epsilon: float, n: int, seed: int) -> Classifier:
    """The learner called ``name`` at privacy level ε (fresh, unfitted)."""
    from dpspec.learners import (
        PrivateHistogramClassifier,
        PrivatePackingClassifier,
        PrivateUnboundedClassifier,
    )
    from dpspec.learners.histogram import HistogramRuleClassifier

    if name == "pcl":
        return PrivateHistogramClassifier(epsilon, random_state=seed)
    if name == "pcl2":
        return PrivatePackingClassifier(epsilon, random_state=seed)
    if name == "pcl2b":
        # δ must decay with n (Thm A.13: δ(n) = ω(2^{−n^{1/4}})); δ = n^{−2} ≪ 1/n
        return PrivateUnboundedClassifier(
            epsilon, delta=min(0.5, float(n) ** -2), random_state=seed
        )
    if name == "histogram":
        return HistogramRuleClassifier()
    if name in ("diffprivlib-gnb", "diffprivlib-logreg"):
        return _DiffprivlibOnUnitCube(name, epsilon, seed)
    raise ValueError(f"learner: unknown learner {name!r}; choose from {sorted(CLASSIFIERS)}")


CLASSIFIERS = ("pcl", "pcl2", "pcl2b", "histogram", "diffprivlib-gnb", "diffprivlib-logreg")


DENSITIES = ("pcde",)


def make_problem(name: str) -> ClassificationProblem:
    from dpspec.consistency import PROBLEMS

    if name not in PROBLEMS:
        raise ValueError(f"distribution: unknown {name!r}; choose from {sorted(PROBLEMS)}")
    return PROBLEMS[name]()


def run_density_consistency(
    ns: Sequence[int],
    epsilon: float,
    reps: int,
    seed: int,
    progress: bool = True,
    density: str = "normal",
) -> list[ConsistencyRow]:
    """PCDE on a density of :data:`dpspec.densities.DENSITIES` (N(0, 1) by default):
    exact L1 distance ‖f − f̂‖₁ per fit (closed form per cube in d = 1, Gauss–Legendre in one
    axis in d = 2); a fit that releases nothing counts as L1 = 2, the largest possible."""
    from dpspec.densities import DENSITIES
    from dpspec.learners import PrivateHistogramDensity

    ns = check_grid(ns, reps, seed)
    if density not in DENSITIES:
        raise ValueError(
            f"distribution: unknown density {density!r}; choose from {sorted(DENSITIES)}"
        )
    law = DENSITIES[density]
    rng = np.random.default_rng(seed)
    rows: list[ConsistencyRow] = []
    bar = tqdm(total=len(ns) * reps, desc="consistency", disable=not progress)
    for n in ns:
        values: list[float] = []
        fit_t = 0.0
        for r in range(reps):
            X = law.sample(n, rng)
            start = time.perf_counter()
            est = PrivateHistogramDensity(epsilon, delta=float(n) ** -2, random_state=seed + r)
            try:
                est.fit(X)
                fit_t += time.perf_counter() - start
                values.append(density_l1_distance(est, law))
            except ValueError as exc:
                if "no cube was released" not in str(exc):
                    raise
                fit_t += time.perf_counter() - start
                values.append(NO_RELEASE_L1)
            bar.update(1)
        lo, hi = t_interval(values)
        rows.append(
            ConsistencyRow(n, float(np.mean(values)), (lo, hi), fit_t / reps, 0.0, True, values)
        )
    bar.close()
    return rows
