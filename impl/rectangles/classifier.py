"""``PrivateRectangleClassifier``: RandMargins (thesis ch. 5, Algorithm 4, L1320) as a
scikit-learn-style learner for rectangles anchored at the origin on {0, …, X}^d.

The caller states the target (ε, δ) (add/remove neighbours, as the chapter's analysis, L1346);
the learner picks the per-call level ε₀ of the interior-point algorithm by one of two accountings
(``accounting``):

* ``"basic"`` — pure (ε, 0): each of the d calls of A is (ε₀, 0)-DP and, with the noise sizes
  data-independent, adding a record changes each D_i by at most one point (B_i and B'_i differ by
  at most one point, hence so do their Δ smallest), so d calls compose to (dε₀, 0): ε₀ = ε/d;
* ``"theorem"`` — Thm 5.2.4 / Lemma 5.2.6 (L1328–1336) with the proof's explicit constants:
  (70 ε₀ ln(1/δ₀), (d + 2) δ₀)-DP for δ₀ < e^{−2}: δ₀ = δ/(d + 2), ε₀ = ε/(70 ln(1/δ₀));
* ``"best"`` (default) — the accounting with the larger ε₀ (better utility), reported.

``privacy_`` is the target level under add/remove; by group privacy it gives (2ε, (1 + e^ε)δ)
under substitution. ``predict(x)`` = 1 iff x_i ≤ p_i on every axis (classes_[1]).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.contract import PrivacyLevel
from dpspec.learners.estimator import BinaryCellClassifier, check_binary_labels, model_key
from dpspec.rectangles.interior_point import check_beta
from dpspec.rectangles.rand_margins import RandMarginsParameters, rand_margins
from dpspec.spec.neighbours import Relation
from dpspec.validation import (
    as_finite_array,
    check_count,
    check_delta,
    check_epsilon,
    check_flag,
)

ACCOUNTINGS = ("best", "basic", "theorem")
#: The constant of Lemma 5.2.6's proof (ε̃ = 70 ε ln(1/δ)).
THEOREM_CONSTANT = 70


def per_call_level(
    epsilon: float, delta: float, d: int, accounting: str
) -> tuple[float, str, float]:
    """(ε₀, accounting used, δ reported) for a target (ε, δ) on d axes."""
    basic = epsilon / d
    delta0 = delta / (d + 2)
    theorem = (
        epsilon / (THEOREM_CONSTANT * math.log(1 / delta0)) if 0 < delta0 < math.exp(-2) else 0.0
    )
    if accounting == "basic" or (accounting == "best" and basic >= theorem):
        return basic, "basic", 0.0
    if theorem == 0.0:
        raise ValueError("delta: the theorem's accounting needs 0 < delta/(d + 2) < e^-2")
    return theorem, "theorem", delta


def check_grid_points(X: Any, grid_max: int, name: str = "X") -> NDArray[np.int64]:
    """A 2-D array of integer grid points in {0, …, X}^d (floats that are whole numbers pass)."""
    arr = as_finite_array(X, name, ndim=2)
    if not np.all(arr == np.round(arr)):
        raise ValueError(f"{name}: coordinates must be integers in [0, {grid_max}]")
    points = arr.astype(np.int64)
    if points.min() < 0 or points.max() > grid_max:
        raise ValueError(f"{name}: coordinates must be integers in [0, {grid_max}]")
    return points


class PrivateRectangleClassifier(BinaryCellClassifier):
    """RandMargins: (ε, δ)-DP learner of origin-anchored rectangles on {0, …, X}^d.

    Parameters: ``epsilon``, ``delta`` (target, add/remove), ``grid_max`` (X), ``beta``
    (failure probability per interior-point call, < 1/4), ``tags`` (T: the tie fix; 1 = the
    printed rule), ``accounting`` ("best" | "basic" | "theorem"), ``idealised`` (continuous
    Laplace size noise in floating point), ``random_state``.

    Fitted: ``p_`` (the rectangle's corner), ``thresholds_`` (refined q), ``epsilon_call_``,
    ``accounting_``, ``parameters_`` (:class:`RandMarginsParameters`), ``classes_``,
    ``privacy_``.
    """

    _fitted_attribute = "p_"

    def __init__(
        self,
        epsilon: float = 1.0,
        delta: float = 1e-6,
        grid_max: int = 1023,
        beta: float = 0.05,
        tags: int = 16,
        accounting: str = "best",
        idealised: bool = False,
        random_state: Any = None,
    ) -> None:
        self.epsilon = epsilon
        self.delta = delta
        self.grid_max = grid_max
        self.beta = beta
        self.tags = tags
        self.accounting = accounting
        self.idealised = idealised
        self.random_state = random_state

    def parameters(self, d: int) -> tuple[RandMarginsParameters, str, float]:
        """The per-call parameters for d axes, the accounting used and the δ it reports."""
        if self.accounting not in ACCOUNTINGS:
            raise ValueError(f"accounting: expected one of {ACCOUNTINGS}, got {self.accounting!r}")
        eps = check_epsilon(self.epsilon)
        delta = check_delta(self.delta)
        eps0, used, reported = per_call_level(eps, delta, d, self.accounting)
        params = RandMarginsParameters(
            check_count(self.grid_max, "grid_max"),
            eps0,
            check_beta(self.beta),
            check_count(self.tags, "tags"),
            check_flag(self.idealised, "idealised"),
        )
        return params, used, reported

    def positives(self, X: Any, y: Any) -> tuple[NDArray[np.int64], Any]:
        """The positive examples (classes_[1]) as grid points, and the classes."""
        points = check_grid_points(X, check_count(self.grid_max, "grid_max"))
        labels, classes = check_binary_labels(y, points.shape[0])
        return points[labels == 1], classes

    def fit(self, X: Any, y: Any) -> PrivateRectangleClassifier:
        """Run RandMargins on the positive examples."""
        positives, classes = self.positives(X, y)
        d = positives.shape[1]
        params, used, reported = self.parameters(d)
        rng = np.random.default_rng(model_key(self.random_state))
        q = rand_margins(positives, params, rng)
        self.thresholds_, self.p_ = q, q // params.tags
        self.parameters_, self.epsilon_call_, self.accounting_ = params, params.epsilon, used
        self.classes_, self.n_features_in_ = classes, d
        self.privacy_ = PrivacyLevel(
            epsilon=float(self.epsilon),
            ratio=math.exp(float(self.epsilon)),
            delta=reported,
            exact_sampler=not params.idealised,
            relation=Relation.ADD_REMOVE,
        )
        return self

    def decision_cells(self, X: Any) -> NDArray[np.bool_]:
        """h_p(x) ∈ {0, 1} for each row: every coordinate at most p_."""
        self._check_fitted()
        points = check_grid_points(X, int(self.grid_max))
        return np.asarray(np.all(points <= self.p_, axis=1), dtype=np.bool_)
