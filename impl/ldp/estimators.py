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

Limits, refused before any work: the partition has at most
:data:`~dpspec.ldp.partition.MAX_CELLS` cells; ``simulate="users"`` draws at most
:data:`MAX_USER_COORDINATES` report coordinates (n users × N cells × parts) per fit (beyond it,
``simulate="in-law"`` draws the same sums' law in O(n + N)).
"""

from __future__ import annotations

import math
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray

from dpspec.contract import PrivacyLevel
from dpspec.ldp.mechanism import (
    BatchSizeArg,
    LocalEpsilonArg,
    LocalRandomiser,
    Reports,
    ResponsesArg,
    aggregate,
)
from dpspec.ldp.partition import (
    MAX_MAGNITUDE,
    CubicPartition,
    DimensionArg,
    MagnitudeArg,
    OffsetArg,
    _check_magnitude,
    bandwidth,
    threshold_constant,
    truncation_level,
)
from dpspec.learners.estimator import (
    EstimatorProtocol,
    NotFittedError,
    check_binary_labels,
    model_key,
)
from dpspec.spec.neighbours import Relation
from dpspec.validation import (
    Choice,
    FeaturesArg,
    FlagArg,
    LabelsArg,
    RandomStateArg,
    Real,
    SampleSizeArg,
    check_constructor_params,
    checked,
    example,
    require_within,
)

#: Most report coordinates (users × cells × parts) one ``fit`` with ``simulate="users"`` draws
#: (about a few minutes of the exact sampler); ``simulate="in-law"`` has no such cost.
MAX_USER_COORDINATES = 2**32

#: h, R, M or c_n fixed by the caller, or None for the public schedule.
OptionalMagnitudeArg = Annotated[
    float | None, Real(lo=1 / MAX_MAGNITUDE, hi=MAX_MAGNITUDE, optional=True)
]
#: How fit draws the users' reports: one randomiser per user, or the sums' law.
SimulateArg = Annotated[str, Choice(options=("users", "in-law"))]


@checked
def ball_radius(n: SampleSizeArg, d: DimensionArg) -> float:
    """R_n = √d·max(1, √(log n)): the public ball grows to ℝ^d (Theorem 2 needs S_n ↑ ℝ^d)."""
    return math.sqrt(d) * max(1.0, math.sqrt(math.log(n)))


def _score_target(y: Any, n: int) -> NDArray[Any]:
    """The true responses / labels of ``score``: one per row of X (a ValueError naming y)."""
    target = np.asarray(y)
    if target.shape != (n,):
        raise ValueError(f"y: expected {n} values (one per row of X), got shape {target.shape}")
    return target


class _PartitionEstimator(EstimatorProtocol):
    """Shared machinery: the public partition for (n, d), the data checks, the cell lookup."""

    partition_: CubicPartition

    def _params(self) -> dict[str, Any]:
        """The constructor's parameters, checked and converted (``fit`` checked them first)."""
        return check_constructor_params(self)

    def _check_fitted(self) -> None:
        if not hasattr(self, "partition_"):
            raise NotFittedError(f"self: this {type(self).__name__} is not fitted; call fit")

    def _data(self, X: Any, y: Any) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        arr = np.asarray(X, dtype=np.float64)
        target = np.asarray(y, dtype=np.float64)
        if target.shape[0] != arr.shape[0]:
            raise ValueError(
                f"y: expected {arr.shape[0]} values (one per row of X), got {target.shape[0]}"
            )
        return arr, target

    def _partition(self, params: dict[str, Any], n: int, d: int) -> CubicPartition:
        h = bandwidth(n, d, params["bandwidth_constant"]) if params["h"] is None else params["h"]
        radius = ball_radius(n, d) if params["radius"] is None else params["radius"]
        try:
            return CubicPartition(_check_magnitude(h, "h"), radius, d, params["offset"])
        except ValueError as exc:
            if params["h"] is not None or not str(exc).startswith("h:"):
                raise
            raise ValueError(
                f"bandwidth_constant: {params['bandwidth_constant']!r} gives h = {h!r}; {exc}"
            ) from exc

    def _cells(self, X: Any) -> NDArray[np.int64]:
        self._check_fitted()
        self.check_n_features(X)
        return self.partition_.cell_index(X)


class _PrivatePartitionEstimator(_PartitionEstimator):
    """The private estimators: users' reports from the local randomiser, ``privacy_``."""

    privacy_: PrivacyLevel

    def _randomiser(
        self,
        params: dict[str, Any],
        partition: CubicPartition,
        n: int,
        truncation: float,
        z_only: bool = False,
    ) -> LocalRandomiser:
        """The caller's randomiser (ε, M, the public partition), with the work of
        ``simulate="users"`` refused before any draw when beyond :data:`MAX_USER_COORDINATES`."""
        randomiser = LocalRandomiser(
            partition, params["epsilon"], truncation, z_only, idealised=params["idealised"]
        )
        if params["simulate"] == "users":
            require_within(
                float(n) * partition.n_cells * randomiser.parts,
                MAX_USER_COORDINATES,
                "X",
                "report coordinates (users x cells x parts; simulate='in-law' draws the sums' "
                "law instead)",
            )
        return randomiser

    def _reports(
        self,
        params: dict[str, Any],
        randomiser: LocalRandomiser,
        X: NDArray[np.float64],
        y: NDArray[np.float64],
    ) -> Reports:
        rng = np.random.default_rng(model_key(params["random_state"]))
        if params["simulate"] == "users":
            reports = randomiser.collect(X, y, rng, params["batch_size"])
        else:
            reports = randomiser.collect_in_law(X, y, rng)
        level = randomiser.privacy
        exact = level.exact_sampler and params["simulate"] == "users"
        self.privacy_ = PrivacyLevel(
            level.epsilon, level.ratio, level.delta, exact_sampler=exact, relation=Relation.LOCAL
        )
        return reports


class _PartitionRegression(_PartitionEstimator):
    """``predict`` (the cell's value, 0 outside the partition) and R² ``score``."""

    values_: NDArray[np.float64]
    _estimator_type = "regressor"

    def predict(self, X: FeaturesArg) -> NDArray[np.float64]:
        """m̃(x): the value of x's cell (0 outside the listed cells)."""
        cells = self._cells(X)
        out = np.zeros(cells.shape[0])
        inside = cells >= 0
        out[inside] = self.values_[cells[inside]]
        return out

    def score(self, X: FeaturesArg, y: ResponsesArg) -> float:
        """R² of the predictions (scikit-learn's regressor score)."""
        pred = self.predict(X)
        target = _score_target(y, pred.shape[0]).astype(np.float64)
        resid = float(np.sum((target - pred) ** 2))
        total = float(np.sum((target - target.mean()) ** 2))
        return 1.0 - resid / total if total > 0 else 0.0


_EXAMPLE_X = np.array([[0.1], [0.35], [0.6], [0.85], [0.2], [0.7]])
_EXAMPLE_Y = np.array([0.5, -0.2, 0.3, 0.9, -0.4, 0.0])
_EXAMPLE_LABELS = np.array([1, -1, 1, 1, -1, -1])


@example(
    every={"X": _EXAMPLE_X, "y": _EXAMPLE_Y},
    __init__={"h": 0.5, "random_state": 0},
    fit={},
    predict={},
    score={},
)
class LDPPartitionRegressor(_PrivatePartitionEstimator, _PartitionRegression):
    """α-LDP partitioning regression estimate m̃_n (seed 003, L154; Theorems 2 and 3).

    Parameters: ``epsilon`` (the LDP level α), ``bandwidth_constant`` c' of h_n, ``h`` (fix the
    side instead), ``radius`` (fix R instead of R_n), ``offset`` (grid offset, default 0),
    ``truncation`` (fix M instead of M_n), ``threshold`` (fix c_n), ``simulate`` ("users" or
    "in-law"), ``batch_size``, ``idealised`` (the paper's float Laplace instead of the exact
    lattice randomiser), ``random_state``.

    Fitted: ``partition_``, ``randomiser_``, ``privacy_`` (α), ``nu_``, ``mu_`` (ν̃, μ̃ per
    cell), ``values_`` (m̃ per cell), ``n_features_in_``.
    """

    def __init__(
        self,
        epsilon: LocalEpsilonArg = 1.0,
        bandwidth_constant: MagnitudeArg = 1.0,
        h: OptionalMagnitudeArg = None,
        radius: OptionalMagnitudeArg = None,
        offset: OffsetArg = 0.0,
        truncation: OptionalMagnitudeArg = None,
        threshold: OptionalMagnitudeArg = None,
        simulate: SimulateArg = "users",
        batch_size: BatchSizeArg = 4096,
        idealised: FlagArg = False,
        random_state: RandomStateArg = None,
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
        self.idealised = idealised
        self.random_state = random_state

    def fit(self, X: FeaturesArg, y: ResponsesArg) -> LDPPartitionRegressor:
        """The users' reports of (X, y) through the caller's randomiser, aggregated:
        m̃ = ν̃/μ̃ on the cells with μ̃ ≥ c_n h^d, 0 elsewhere."""
        params = self._params()
        X, target = self._data(X, y)
        n, d = X.shape
        partition = self._partition(params, n, d)
        m = truncation_level(n) if params["truncation"] is None else params["truncation"]
        c = threshold_constant(n) if params["threshold"] is None else params["threshold"]
        randomiser = self._randomiser(params, partition, n, m)
        nu, mu = aggregate(self._reports(params, randomiser, X, target))
        keep = mu >= c * partition.h**d
        values = np.zeros_like(nu)
        np.divide(nu, mu, out=values, where=keep)
        self.partition_, self.randomiser_ = partition, randomiser
        self.nu_, self.mu_, self.values_ = nu, mu, values
        self.threshold_, self.truncation_ = c, m
        self.n_features_in_ = d
        return self


@example(
    every={"X": _EXAMPLE_X, "y": _EXAMPLE_Y},
    __init__={"h": 0.5},
    fit={},
    predict={},
    score={},
)
class PartitioningRegressor(_PartitionRegression):
    """The non-private truncated partitioning estimate m̌_n on the same partition (σ = 0,
    c_n = log n/(n h^d)): the baseline the private estimate is compared with. No privacy
    guarantee (no ``privacy_``). Parameters as :class:`LDPPartitionRegressor`'s partition and
    truncation ones."""

    def __init__(
        self,
        bandwidth_constant: MagnitudeArg = 1.0,
        h: OptionalMagnitudeArg = None,
        radius: OptionalMagnitudeArg = None,
        offset: OffsetArg = 0.0,
        truncation: OptionalMagnitudeArg = None,
    ) -> None:
        self.bandwidth_constant = bandwidth_constant
        self.h = h
        self.radius = radius
        self.offset = offset
        self.truncation = truncation

    def fit(self, X: FeaturesArg, y: ResponsesArg) -> PartitioningRegressor:
        """m̌ = (Σ [y]_M)/(count) on the cells with at least log n points, 0 elsewhere."""
        params = self._params()
        X, target = self._data(X, y)
        n, d = X.shape
        partition = self._partition(params, n, d)
        m = truncation_level(n) if params["truncation"] is None else params["truncation"]
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


@example(
    every={"X": _EXAMPLE_X, "y": _EXAMPLE_LABELS},
    __init__={"h": 0.5, "random_state": 0},
    fit={},
    predict={},
    decision_values={},
    score={},
)
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
        epsilon: LocalEpsilonArg = 1.0,
        bandwidth_constant: MagnitudeArg = 1.0,
        h: OptionalMagnitudeArg = None,
        radius: OptionalMagnitudeArg = None,
        offset: OffsetArg = 0.0,
        simulate: SimulateArg = "users",
        batch_size: BatchSizeArg = 4096,
        idealised: FlagArg = False,
        random_state: RandomStateArg = None,
    ) -> None:
        self.epsilon = epsilon
        self.bandwidth_constant = bandwidth_constant
        self.h = h
        self.radius = radius
        self.offset = offset
        self.simulate = simulate
        self.batch_size = batch_size
        self.idealised = idealised
        self.random_state = random_state

    def fit(self, X: FeaturesArg, y: LabelsArg) -> LDPPartitionClassifier:
        """The users' Z reports of (X, ±1 labels) through the caller's Z-only randomiser."""
        params = self._params()
        arr = np.asarray(X, dtype=np.float64)
        labels, self.classes_ = check_binary_labels(y, arr.shape[0])
        n, d = arr.shape
        partition = self._partition(params, n, d)
        randomiser = self._randomiser(params, partition, n, 1.0, z_only=True)
        signs = 2.0 * labels - 1.0
        nu, _ = aggregate(
            self._reports(params, randomiser, arr, np.asarray(signs, dtype=np.float64))
        )
        self.partition_, self.randomiser_, self.nu_ = partition, randomiser, nu
        self.n_features_in_ = d
        return self

    def decision_values(self, X: FeaturesArg) -> NDArray[np.float64]:
        """ν̃ of each row's cell (0 outside the listed cells)."""
        cells = self._cells(X)
        out = np.zeros(cells.shape[0])
        inside = cells >= 0
        out[inside] = self.nu_[cells[inside]]
        return out

    def predict(self, X: FeaturesArg) -> NDArray[Any]:
        """g(x) = ``classes_[1]`` where ν̃ > 0, ``classes_[0]`` elsewhere (sign(0) = −1)."""
        positive = self.decision_values(X) > 0  # sign(0) = −1
        return np.asarray(self.classes_[positive.astype(np.int64)])

    def score(self, X: FeaturesArg, y: LabelsArg) -> float:
        """Accuracy."""
        pred = self.predict(X)
        return float(np.mean(pred == _score_target(y, pred.shape[0])))
