"""α-LDP partitioning regression and classification (seed 003, ``003_5e2a1f46235ac29b.txt``).

Regression (L154):

    m̃_n(x) = ν̃(A_j)/μ̃(A_j) · 1{μ̃(A_j) ≥ c_n h_n^d} · 1{j ≤ N_n}   for x ∈ A_j

(0 elsewhere), from the users' reports of :class:`~dpspec.ldp.mechanism.LocalRandomiser`.
With σ = 0 and c_n = log n/(n h^d) it is the non-private truncated partitioning estimate
(:class:`PartitioningRegressor`, the baseline). Classification (L273–300): Y ∈ {−1, 1},
g_n(x) = sign(ν̃(A_j)) with sign(0) = −1, Z released alone (σ_Z = 2√2/α, M = 1).

Schedules (public, functions of n and d only): h_n = c'·n^{−1/(2(d+1))} and c_n = 1/√(log n)
(eq. 11), M_n = max(1, √(log n)) (fixed-α condition, L259), R_n = √d·max(1, √(log n)) so that
the ball S_n ↑ ℝ^d (Theorem 2) while N_n stays moderate. Each can be fixed by a parameter.

Both estimators follow scikit-learn's conventions (fit / predict / score / get_params /
set_params / random_state). ``fit`` runs the local randomiser on every row (``simulate="users"``,
in batches, keeping only sums) or draws the sums from their exact law (``"in-law"``, O(n + N),
for very large n); the two-party API is :meth:`LocalRandomiser.randomise` on the user side and
:func:`~dpspec.ldp.mechanism.aggregate` on the server side.

Notation: the seed's α is the constructor's ``epsilon`` (the contract of every dpspec estimator).

Privacy: every user's report is α-LDP (Prop 1, L247–251) for the α the caller passes. By
default the randomiser is exact (lattice reports, discrete Laplace noise: see
:mod:`dpspec.ldp.mechanism`); ``idealised=True`` uses the paper's continuous Laplace in
floating point (guarantee over ideal reals). The estimates are post-processing of the reports.
``privacy_`` states α; its ``exact_sampler`` is True only for the exact randomiser run user by
user (``simulate="users"``): the in-law simulation draws the sums' law with numpy's
floating-point samplers. The non-private :class:`PartitioningRegressor` has no privacy guarantee.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.contract import PrivacyLevel
from dpspec.ldp.mechanism import LocalRandomiser, Reports, aggregate, check_truncation
from dpspec.ldp.partition import (
    CubicPartition,
    bandwidth,
    check_magnitude,
    threshold_constant,
    truncation_level,
)
from dpspec.learners.estimator import EstimatorProtocol, NotFittedError, model_key
from dpspec.spec.neighbours import Relation
from dpspec.validation import as_finite_array, check_count, check_flag


def ball_radius(n: int, d: int) -> float:
    """R_n = √d·max(1, √(log n)): the public ball grows to ℝ^d (Theorem 2 needs S_n ↑ ℝ^d)."""
    return math.sqrt(d) * max(1.0, math.sqrt(math.log(max(check_count(n, "n"), 1))))


def _score_target(y: Any, n: int, numeric: bool = True) -> NDArray[Any]:
    """The true responses / labels of ``score``: one per row of X (a ValueError naming y)."""
    if numeric:
        target = as_finite_array(y, "y", ndim=1)
    else:
        if y is None:
            raise ValueError("y: expected labels, got None")
        target = np.asarray(y)
    if target.shape != (n,):
        raise ValueError(f"y: expected {n} values (one per row of X), got shape {target.shape}")
    return target


class _PartitionEstimator(EstimatorProtocol):
    """Shared machinery: the public partition for (n, d), the data checks, the cell lookup."""

    bandwidth_constant: float
    radius: float | None
    offset: float
    h: float | None

    def _check_fitted(self) -> None:
        if not hasattr(self, "partition_"):
            raise NotFittedError(f"self: this {type(self).__name__} is not fitted; call fit")

    def _check_options(self) -> None:
        """The options that select code paths, checked before any work (none here)."""

    def _data(self, X: Any, y: Any) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        self._check_options()
        arr = as_finite_array(X, "X", ndim=2).astype(np.float64)
        if y is None:
            raise ValueError("y: requires y to be passed, but the target y is None")
        target = as_finite_array(y, "y", ndim=1).astype(np.float64)
        if target.shape[0] != arr.shape[0]:
            raise ValueError(
                f"y: expected {arr.shape[0]} values (one per row of X), got {target.shape[0]}"
            )
        return arr, target

    def _partition(self, n: int, d: int) -> CubicPartition:
        h = bandwidth(n, d, self.bandwidth_constant) if self.h is None else self.h
        radius = ball_radius(n, d) if self.radius is None else self.radius
        try:
            return CubicPartition(check_magnitude(h, "h"), radius, d, self.offset)
        except ValueError as exc:
            if self.h is not None or not str(exc).startswith("h:"):
                raise
            raise ValueError(
                f"bandwidth_constant: {self.bandwidth_constant!r} gives h = {h!r}; {exc}"
            ) from exc

    def _cells(self, X: Any) -> NDArray[np.int64]:
        self._check_fitted()
        self.check_n_features(X)
        return self.partition_.cell_index(as_finite_array(X, "X", ndim=2))

    partition_: CubicPartition


class _PrivatePartitionEstimator(_PartitionEstimator):
    """The private estimators: users' reports from the local randomiser, ``privacy_``."""

    epsilon: float
    random_state: Any
    simulate: str
    batch_size: int
    idealised: bool

    def _check_options(self) -> None:
        if not isinstance(self.simulate, str) or self.simulate not in ("users", "in-law"):
            raise ValueError(f"simulate: expected 'users' or 'in-law', got {self.simulate!r}")
        check_flag(self.idealised, "idealised")
        if self.simulate == "users":
            check_count(self.batch_size, "batch_size")

    def _reports(
        self, randomiser: LocalRandomiser, X: NDArray[np.float64], y: NDArray[np.float64]
    ) -> Reports:
        rng = np.random.default_rng(model_key(self.random_state))
        if self.simulate == "users":
            reports = randomiser.collect(X, y, rng, check_count(self.batch_size, "batch_size"))
        elif self.simulate == "in-law":
            reports = randomiser.collect_in_law(X, y, rng)
        else:
            raise ValueError(f"simulate: expected 'users' or 'in-law', got {self.simulate!r}")
        level = randomiser.privacy
        exact = level.exact_sampler and self.simulate == "users"
        self.privacy_ = PrivacyLevel(
            level.epsilon, level.ratio, level.delta, exact_sampler=exact, relation=Relation.LOCAL
        )
        return reports

    def _randomiser(
        self, partition: CubicPartition, truncation: float, z_only: bool = False
    ) -> LocalRandomiser:
        self._check_options()
        return LocalRandomiser(
            partition, self.epsilon, truncation, z_only, idealised=self.idealised
        )

    privacy_: PrivacyLevel


class _PartitionRegression(_PartitionEstimator):
    """``predict`` (the cell's value, 0 outside the partition) and R² ``score``."""

    values_: NDArray[np.float64]
    _estimator_type = "regressor"

    def predict(self, X: Any) -> NDArray[np.float64]:
        cells = self._cells(X)
        out = np.zeros(cells.shape[0])
        inside = cells >= 0
        out[inside] = self.values_[cells[inside]]
        return out

    def score(self, X: Any, y: Any) -> float:
        """R² of the predictions (scikit-learn's regressor score)."""
        pred = self.predict(X)
        target = _score_target(y, pred.shape[0]).astype(np.float64)
        resid = float(np.sum((target - pred) ** 2))
        total = float(np.sum((target - target.mean()) ** 2))
        return 1.0 - resid / total if total > 0 else 0.0


class LDPPartitionRegressor(_PrivatePartitionEstimator, _PartitionRegression):
    """α-LDP partitioning regression estimate m̃_n (seed 003, L154; Theorems 2 and 3).

    Parameters: ``epsilon`` (the LDP level α), ``bandwidth_constant`` c' of h_n, ``h`` (fix the
    side instead), ``radius`` (fix R instead of R_n), ``offset`` (grid offset, default 0),
    ``truncation`` (fix M instead of M_n), ``threshold`` (fix c_n), ``simulate`` ("users" or
    "in-law"), ``batch_size``, ``random_state``, ``idealised`` (the paper's float Laplace
    instead of the exact lattice randomiser).

    Fitted: ``partition_``, ``randomiser_``, ``privacy_`` (α), ``nu_``, ``mu_`` (ν̃, μ̃ per
    cell), ``values_`` (m̃ per cell), ``n_features_in_``.
    """

    def __init__(
        self,
        epsilon: float = 1.0,
        bandwidth_constant: float = 1.0,
        h: float | None = None,
        radius: float | None = None,
        offset: float = 0.0,
        truncation: float | None = None,
        threshold: float | None = None,
        simulate: str = "users",
        batch_size: int = 4096,
        random_state: Any = None,
        idealised: bool = False,
    ) -> None:
        self.epsilon = epsilon
        self.bandwidth_constant = bandwidth_constant
        self.h = h
        self.radius = radius
        self.offset = offset
        self.truncation = truncation
        self.threshold = threshold
        self.simulate = simulate
        self.batch_size = batch_size
        self.random_state = random_state
        self.idealised = idealised

    def fit(self, X: Any, y: Any) -> LDPPartitionRegressor:
        X, target = self._data(X, y)
        n, d = X.shape
        partition = self._partition(n, d)
        m = check_truncation(truncation_level(n) if self.truncation is None else self.truncation)
        c = check_magnitude(
            threshold_constant(n) if self.threshold is None else self.threshold, "threshold"
        )
        randomiser = self._randomiser(partition, m)
        nu, mu = aggregate(self._reports(randomiser, X, target))
        keep = mu >= c * partition.h**d
        values = np.zeros_like(nu)
        np.divide(nu, mu, out=values, where=keep)
        self.partition_, self.randomiser_ = partition, randomiser
        self.nu_, self.mu_, self.values_ = nu, mu, values
        self.threshold_, self.truncation_ = c, m
        self.n_features_in_ = d
        return self


class PartitioningRegressor(_PartitionRegression):
    """The non-private truncated partitioning estimate m̌_n on the same partition (σ = 0,
    c_n = log n/(n h^d)): the baseline the private estimate is compared with. No privacy
    guarantee (no ``privacy_``). Parameters as :class:`LDPPartitionRegressor`'s partition and
    truncation ones."""

    def __init__(
        self,
        bandwidth_constant: float = 1.0,
        h: float | None = None,
        radius: float | None = None,
        offset: float = 0.0,
        truncation: float | None = None,
    ) -> None:
        self.bandwidth_constant = bandwidth_constant
        self.h = h
        self.radius = radius
        self.offset = offset
        self.truncation = truncation

    def fit(self, X: Any, y: Any) -> PartitioningRegressor:
        X, target = self._data(X, y)
        n, d = X.shape
        partition = self._partition(n, d)
        m = check_truncation(truncation_level(n) if self.truncation is None else self.truncation)
        cells = partition.cell_index(X)
        inside = cells >= 0
        counts = np.bincount(cells[inside], minlength=partition.n_cells) / n
        sums = (
            np.bincount(
                cells[inside], weights=np.clip(target[inside], -m, m), minlength=partition.n_cells
            )
            / n
        )
        keep = counts >= math.log(max(n, 3)) / n
        values = np.zeros_like(sums)
        np.divide(sums, counts, out=values, where=keep)
        self.partition_ = partition
        self.nu_, self.mu_, self.values_ = sums, counts, values
        self.threshold_, self.truncation_ = math.log(max(n, 3)) / (n * partition.h**d), m
        self.n_features_in_ = d
        return self


class LDPPartitionClassifier(_PrivatePartitionEstimator):
    """α-LDP partitioning classifier g_n(x) = sign(ν̃(A_j)) (seed 003, L273–300; Theorem 4).

    Labels: any two classes; ``classes_[1]`` is coded +1, ``classes_[0]`` −1, sign(0) = −1. Only
    Z is released (σ_Z = 2√2/α, M = 1). Parameters as :class:`LDPPartitionRegressor` (no
    truncation or threshold). Fitted: ``partition_``, ``randomiser_``, ``privacy_`` (α),
    ``nu_``, ``classes_``, ``n_features_in_``.
    """

    _estimator_type = "classifier"

    def __init__(
        self,
        epsilon: float = 1.0,
        bandwidth_constant: float = 1.0,
        h: float | None = None,
        radius: float | None = None,
        offset: float = 0.0,
        simulate: str = "users",
        batch_size: int = 4096,
        random_state: Any = None,
        idealised: bool = False,
    ) -> None:
        self.epsilon = epsilon
        self.bandwidth_constant = bandwidth_constant
        self.h = h
        self.radius = radius
        self.offset = offset
        self.simulate = simulate
        self.batch_size = batch_size
        self.random_state = random_state
        self.idealised = idealised

    def fit(self, X: Any, y: Any) -> LDPPartitionClassifier:
        from dpspec.learners.estimator import check_binary_labels

        self._check_options()
        arr = as_finite_array(X, "X", ndim=2).astype(np.float64)
        labels, self.classes_ = check_binary_labels(y, arr.shape[0])
        n, d = arr.shape
        partition = self._partition(n, d)
        randomiser = self._randomiser(partition, 1.0, z_only=True)
        signs = 2.0 * labels - 1.0
        nu, _ = aggregate(self._reports(randomiser, arr, np.asarray(signs, dtype=np.float64)))
        self.partition_, self.randomiser_, self.nu_ = partition, randomiser, nu
        self.n_features_in_ = d
        return self

    def decision_values(self, X: Any) -> NDArray[np.float64]:
        """ν̃ of each row's cell (0 outside the listed cells)."""
        cells = self._cells(X)
        out = np.zeros(cells.shape[0])
        inside = cells >= 0
        out[inside] = self.nu_[cells[inside]]
        return out

    def predict(self, X: Any) -> NDArray[Any]:
        positive = self.decision_values(X) > 0  # sign(0) = −1
        return np.asarray(self.classes_[positive.astype(np.int64)])

    def score(self, X: Any, y: Any) -> float:
        """Accuracy."""
        pred = self.predict(X)
        return float(np.mean(pred == _score_target(y, pred.shape[0], numeric=False)))
