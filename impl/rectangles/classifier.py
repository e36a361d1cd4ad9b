"""``PrivateRectangleClassifier``: RandMargins (thesis ch. 5, Algorithm 4, L1320) as a
scikit-learn-style learner for rectangles anchored at the origin on {0, …, X}^d.

The caller states the target (ε, δ) (add/remove neighbours, as the chapter's analysis, L1346).
Each of the d interior-point calls runs at ε₀ = ε/d (the **basic** accounting): with the noise
sizes data-independent, adding a record changes each D_i by at most a substitution (B_i and B'_i
differ by at most one point, hence so do their Δ smallest), so the d calls compose to (dε₀, 0).

**The theorem's accounting is not offered.** Thm 5.2.4 / Lemma 5.2.6 (L1328–1336) would allow
ε₀ = ε/(70 ln(1/δ₀)), δ₀ = δ/(d + 2), but its proof goes through Lemma 5.3.2 (false as stated,
``rectangles.erratum.thesis-lemma-5.3.2``) and Claim 5.3.1, which the thesis does not prove (L1360
cites an appendix it does not have) and which fails on samples too small to keep S̄ from running out
(``rectangles.erratum.thesis-claim-5.3.1-small-samples``). It would only be chosen for
d > 70 ln((d+2)/δ) axes anyway. ``accounting="theorem"`` is refused with that reason; ``"best"``
is the basic one.

``privacy_`` is the level under add/remove (the effective d·(−2 ln q) ≤ ε of the exact samplers,
or ε for ``idealised=True``); by group privacy it gives (2ε, 0) under substitution.
``predict(x)`` = 1 iff x_i ≤ p_i on every axis (classes_[1]). ``release_law(X, y)`` is the exact
law of ``fit``'s corner ``p_``.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from itertools import combinations_with_replacement, product
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray

from dpspec.learners.estimator import (
    BinaryCellClassifier,
    check_binary_labels,
    check_score_labels,
    model_key,
)
from dpspec.rectangles.interior_point import MIN_CALL_EPSILON, BetaArg, GridValues
from dpspec.rectangles.rand_margins import (
    MAX_AXES,
    MAX_REFINED_GRID,
    AxesArg,
    RandMarginsParameters,
    _conditional_law,
    _LawContext,
    rand_margins,
)
from dpspec.validation import (
    MEMORY_LIMIT,
    Choice,
    DeltaArg,
    EpsilonArg,
    FeaturesArg,
    FlagArg,
    Integer,
    LabelsArg,
    RandomStateArg,
    checked,
    example,
    optional,
    require_within,
)

#: Accepted names of the accounting ("best" is the basic one: the theorem's is withdrawn).
ACCOUNTINGS = ("basic", "best")

#: Why ``accounting="theorem"`` is refused.
THEOREM_WITHDRAWN = (
    "the theorem's accounting (Thm 5.2.4, 70ε₀ ln(1/δ₀)) is not offered: its proof rests on "
    "Lemma 5.3.2, false as stated (rectangles.erratum.thesis-lemma-5.3.2), and on Claim 5.3.1, "
    "unproved in the thesis and false for small samples "
    "(rectangles.erratum.thesis-claim-5.3.1-small-samples); use 'basic'"
)

#: Largest number of tag assignments :meth:`PrivateRectangleClassifier.release_law` mixes.
MAX_TAG_ASSIGNMENTS = 2**14

#: Bytes per coordinate ``fit`` holds at once (X, its int64 copy, the refined copy, masks).
FIT_BYTES_PER_COORDINATE = 32


@dataclass(frozen=True)
class Accounting(Choice):
    """The privacy accounting: "basic" (ε/d per call); "theorem" is refused with its reason."""

    def convert(self, value: Any, name: str) -> Any:
        if isinstance(value, str) and value == "theorem":
            raise ValueError(f"{name}: {THEOREM_WITHDRAWN}")
        return super().convert(value, name)


AccountingArg = Annotated[str, Accounting(options=ACCOUNTINGS)]
#: X ≥ 1 of the grid {0..X}^d.
GridMaxArg = Annotated[int, Integer(1, hi=MAX_REFINED_GRID - 1, clean=15)]
#: T: tags per record (1 = the printed rule).
TagsArg = Annotated[int, Integer(1, hi=MAX_REFINED_GRID // 2, clean=16)]


@checked
def per_call_level(
    epsilon: EpsilonArg, delta: DeltaArg, d: AxesArg, accounting: AccountingArg = "basic"
) -> tuple[float, str, float]:
    """(ε₀, accounting used, δ reported) for a target (ε, δ) on d axes: ε₀ = ε/d, δ = 0
    (δ is accepted for the caller's target and not spent)."""
    per_axis = float(epsilon) / d
    if per_axis < MIN_CALL_EPSILON:
        raise ValueError(
            f"epsilon: the per-axis level ε/d = {float(epsilon):g}/{d} = {per_axis:.3g} is "
            f"below the smallest interior-point call level {MIN_CALL_EPSILON:.3g}; "
            f"for d = {d} axes epsilon must be at least {d * MIN_CALL_EPSILON:.3g}"
        )
    return per_axis, "basic", 0.0


def _grid_points(X: NDArray[Any], grid_max: int) -> NDArray[np.int64]:
    """X as integer grid points in {0, …, X}^d (floats that are whole numbers pass)."""
    if not np.all(np.round(X) == X):
        raise ValueError(f"X: coordinates must be integers in [0, {grid_max}]")
    if X.min() < 0 or X.max() > grid_max:
        raise ValueError(f"X: coordinates must be integers in [0, {grid_max}]")
    return np.asarray(X, dtype=np.int64)


_EXAMPLE_X = np.array([[1, 2], [2, 3], [3, 1], [2, 2], [9, 9], [12, 3]], dtype=np.int64)
_EXAMPLE_Y = np.array([1, 1, 1, 1, 0, 0], dtype=np.int64)


@example(
    every={"X": _EXAMPLE_X},
    __init__={"epsilon": 2.0, "grid_max": 15, "random_state": 0},
    fit={"y": _EXAMPLE_Y},
    predict={},
    score={"y": _EXAMPLE_Y},
    decision_cells={},
    release_law={"y": _EXAMPLE_Y, "tags": np.zeros(6, dtype=np.int64)},
)
class PrivateRectangleClassifier(BinaryCellClassifier):
    """RandMargins: (ε, 0)-DP learner of origin-anchored rectangles on {0, …, X}^d.

    Parameters: ``epsilon`` (target, add/remove; ε/d per interior-point call), ``delta``
    (accepted, not spent: the basic accounting is pure), ``grid_max`` (X), ``beta`` (failure
    probability per interior-point call, < 1/4), ``tags`` (T: the tie fix; 1 = the printed
    rule), ``accounting`` ("basic"; "best" is the same), ``idealised`` (continuous Laplace size
    noise and the float exponential median), ``random_state``.

    Fitted: ``p_`` (the rectangle's corner), ``thresholds_`` (refined q), ``epsilon_call_``,
    ``accounting_``, ``parameters_`` (:class:`RandMarginsParameters`), ``classes_``,
    ``privacy_``.
    """

    _fitted_attribute = "p_"

    def __init__(
        self,
        epsilon: EpsilonArg = 1.0,
        delta: DeltaArg = 1e-6,
        grid_max: GridMaxArg = 1023,
        beta: BetaArg = 0.05,
        tags: TagsArg = 16,
        accounting: AccountingArg = "basic",
        idealised: FlagArg = False,
        random_state: RandomStateArg = None,
    ) -> None:
        self.epsilon = epsilon
        self.delta = delta
        self.grid_max = grid_max
        self.beta = beta
        self.tags = tags
        self.accounting = accounting
        self.idealised = idealised
        self.random_state = random_state

    def _parameters(self, d: int) -> tuple[RandMarginsParameters, str, float]:
        """The per-call parameters for d axes, the accounting used and the δ it reports."""
        eps0, used, reported = per_call_level(self.epsilon, self.delta, d, self.accounting)
        params = RandMarginsParameters(self.grid_max, eps0, self.beta, self.tags, self.idealised)
        return params, used, reported

    def _positives(self, X: NDArray[Any], y: Any) -> tuple[NDArray[np.int64], NDArray[Any]]:
        """The positive examples (classes_[1]) as grid points, the labels and the classes."""
        if X.shape[1] > MAX_AXES:
            raise ValueError(f"X: at most {MAX_AXES} axes (one interior-point call each)")
        require_within(
            X.size * FIT_BYTES_PER_COORDINATE, MEMORY_LIMIT, "X", "bytes (fit's working copies)"
        )
        points = _grid_points(X, self.grid_max)
        labels, classes = check_binary_labels(y, points.shape[0])
        return points[labels == 1], classes

    def fit(self, X: FeaturesArg, y: LabelsArg) -> PrivateRectangleClassifier:
        """Run RandMargins on the positive examples."""
        positives, classes = self._positives(np.asarray(X), y)
        d = positives.shape[1]
        params, used, _ = self._parameters(d)
        rng = np.random.default_rng(model_key(self.random_state))
        q = rand_margins(positives, params, rng)
        self.thresholds_, self.p_ = q, q // params.tags
        self.parameters_, self.epsilon_call_, self.accounting_ = params, params.epsilon, used
        self.classes_, self.n_features_in_ = classes, d
        self.privacy_ = params.run_privacy(d)
        return self

    def release_law(
        self,
        X: FeaturesArg,
        y: LabelsArg,
        tags: Annotated[NDArray[np.int64] | None, optional(GridValues())] = None,
    ) -> dict[tuple[int, ...], float]:
        """The exact law of ``p_`` after ``fit(X, y)``: P(p_ = p) for every corner p.

        ``tags=None``: the law of ``fit`` itself, a mixture over the uniform tags it draws for
        the positives — grouped by the multiset of tags each distinct point gets (multinomial
        weights), at most ``MAX_TAG_ASSIGNMENTS`` groups. ``tags`` (one per row of X; the
        negatives' are unused): the law given those tags. Each conditional law enumerates every
        size-noise value and interior-point answer axis by axis (floats: the size law is
        irrational). For tiny grids and datasets."""
        features = np.asarray(X)
        positives, _ = self._positives(features, y)
        params, _, _ = self._parameters(positives.shape[1])
        if tags is not None:
            rows = features.shape[0]
            if tags.shape[0] != rows:
                raise ValueError(f"tags: one per row of X, got {tags.shape[0]} for {rows}")
            labels, _ = check_binary_labels(y, rows)
            chosen = tags[labels == 1]
            if chosen.size and int(chosen.max()) >= params.tags:
                raise ValueError(f"tags: must be in [0, {params.tags - 1}]")
            return _conditional_law(positives, params, chosen)
        return _mixture_law(positives, params)

    def decision_cells(self, X: FeaturesArg) -> NDArray[np.bool_]:
        """h_p(x) ∈ {0, 1} for each row: every coordinate at most p_ (closed ends)."""
        self._check_fitted()
        points = _grid_points(np.asarray(X), int(self.grid_max))
        return np.asarray(np.all(points <= self.p_, axis=1), dtype=np.bool_)

    def predict(self, X: FeaturesArg) -> NDArray[Any]:
        """classes_[h_p(x)] for each row of X."""
        self._check_fitted()
        self.check_n_features(X)
        return np.asarray(self.classes_[self.decision_cells(X).astype(np.int64)])

    def score(self, X: FeaturesArg, y: LabelsArg) -> float:
        """Accuracy on (X, y)."""
        predicted = self.predict(X)
        return float(np.mean(predicted == check_score_labels(y, predicted.shape[0])))


def _mixture_law(
    positives: NDArray[np.int64], params: RandMarginsParameters
) -> dict[tuple[int, ...], float]:
    """Σ over tag assignments of P(assignment)·law(p | tags): records at the same point are
    exchangeable, so each distinct point's copies get a multiset of tags (weight: multinomial
    over T^c)."""
    t = params.tags
    if t == 1 or positives.shape[0] == 0:
        return _conditional_law(positives, params, None)
    groups = Counter(tuple(row) for row in positives.tolist())
    assignments = math.prod(math.comb(t + c - 1, c) for c in groups.values())
    require_within(assignments, MAX_TAG_ASSIGNMENTS, "X", "tag assignments to mix")
    points = np.array([p for p, c in groups.items() for _ in range(c)], dtype=np.int64)
    choices = [
        [(ms, _multinomial(ms) / t**c) for ms in combinations_with_replacement(range(t), c)]
        for c in groups.values()
    ]
    law: dict[tuple[int, ...], float] = {}
    context = _LawContext(params)
    for combo in product(*choices):
        weight = math.prod(w for _, w in combo)
        tags = np.array([tag for ms, _ in combo for tag in ms], dtype=np.int64)
        for corner, p in _conditional_law(points, params, tags, context).items():
            law[corner] = law.get(corner, 0.0) + weight * p
    return law


def _multinomial(tags: tuple[int, ...]) -> int:
    """The number of orderings of a multiset of tags."""
    out = math.factorial(len(tags))
    for c in Counter(tags).values():
        out //= math.factorial(c)
    return out
