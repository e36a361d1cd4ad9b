"""Private consistent semi-supervised learning (seed 000 Sec 4.1, L321–371; Thm 4.11 L355).

Given a labeled sample S ∈ (X × {0, 1})^m and an unlabeled sample U ∈ X^n (disjoint: each
person's record is in one of them):

1. run PCDE (Alg 3, :mod:`dpspec.learners.pcde`) on U with (ε, δ): a density f̂;
2. draw n_semi synthetic points Û ~ f̂^{n_semi} (post-processing of f̂);
3. run a *semi-private* learner (Thm 4.10, L349; private w.r.t. S only) on (S, Û): build the
   finite set H|Û of dichotomies the class induces on Û and pick one with the **exponential
   mechanism**, score s(S, h) = −#{(x, y) ∈ S : h(x) ≠ y}, sensitivity 1 (substituting one
   labeled record changes every candidate's mistakes by at most 1), privacy ε_label
   (Kasiviswanathan et al.'s generic learner restricted to H|Û).

The output is one fixed hypothesis of the class with boundaries at synthetic points:

* ``"threshold"`` (ℝ): h(x) = 1[x ≥ t], t ∈ Û ∪ {+∞} — |Û| + 1 dichotomies, VC 1;
* ``"interval"`` (ℝ): h(x) = 1[a ≤ x ≤ b], a ≤ b ∈ Û, or the empty interval — O(|Û|²), VC 2;
* ``"rectangle"`` (ℝ²): h(x) = 1[x ∈ [a₁, b₁] × [a₂, b₂]]: every nonempty dichotomy is the
  set of points of Û inside its own bounding box, so the candidates are the boxes spanned by
  Û's coordinates that are the bounding box of the points they contain (one per dichotomy),
  plus the empty box — O(|Û|⁴), VC 4. To keep this polynomial and in memory, ``n_synthetic`` is
  limited to :data:`MAX_SYNTHETIC`: 64 for rectangles (the bounding-box test runs over the
  64⁴ ≈ 1.7·10⁷ index quadruples; ~1.3·10⁵ dichotomies remain for 64 points in general
  position), 2000 for intervals (≤ 2,001,001 dichotomies); thresholds are not limited.

Privacy (composition stated explicitly; L371 only says "by composition and post-processing").
Neighbouring inputs (S, U) ~ (S', U') differ in one record of S or one record of U
(substitution; S and U are disjoint datasets):

* a record of U changes: PCDE is (ε, δ)-DP (Thm 4.2) and everything after it — Û, the
  exponential mechanism on the unchanged S — is post-processing of f̂: (ε, δ);
* a record of S changes: f̂ and Û do not depend on S; for every fixed Û the exponential
  mechanism is ε_label-DP, so averaging over Û it is ε_label-DP: (ε_label, 0).

Parallel composition over the disjoint parts: (max(ε, ε_label), δ)-DP for the pair (S, U).
If one individual may contribute to both S and U, sequential composition gives
(ε + ε_label, δ). The learner is proper (it outputs a member of the class).

Utility (Thm 4.11's proof, L359–371): if TV(f, f̂) ≤ β/n_semi then Û is β-close to a true
unlabeled sample and the semi-private guarantee transfers with 2β; the labeled sample
complexity O((VC/(ε_label α)) log(1/(αβ))) does not depend on the distribution, the unlabeled
one does (through PCDE's L1 rate for f).

Sampling is exact: :func:`exponential_choice` draws from P(i) ∝ exp(−γ_i), γ_i rational, with
integer-only Bernoulli(exp(−γ)) trials (batched rejection), the law of
:class:`~dpspec.mechanisms.exponential.ExponentialMechanism`'s ``pmf``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Annotated, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpspec.contract import PrivacyLevel
from dpspec.learners.estimator import (
    EstimatorProtocol,
    LabelsArg,
    NotFittedError,
    OptionalPointsArg,
    PointsArg,
    _binary_labels,
    _model_key,
    _rows,
    _score_labels,
)
from dpspec.learners.pcde import OptionalSideArg, PrivateHistogramDensity, _check_points
from dpspec.mechanisms.base import epsilon_rational
from dpspec.mechanisms.exponential import ExponentialMechanism
from dpspec.mechanisms.stability_histogram import HistogramDeltaArg
from dpspec.noise import bernoulli_exp_neg_exponents, exp_neg_exponents
from dpspec.spec.neighbours import Relation
from dpspec.validation import (
    INT_BOUND,
    LIMITS,
    Array,
    Checked,
    Choice,
    EpsilonArg,
    FlagArg,
    GeneratorArg,
    Instance,
    Integer,
    RandomStateArg,
    SizeArg,
    check_constructor_params,
    checked,
    example,
)

#: Dimension of the points each hypothesis class lives on.
CLASS_DIMENSION = {"threshold": 1, "interval": 1, "rectangle": 2}
#: Largest synthetic sample per class (None: no limit; the threshold class has |Û| + 1 members).
MAX_SYNTHETIC: dict[str, int | None] = {
    "threshold": LIMITS["synthetic"],
    "interval": 2000,
    "rectangle": 64,
}
#: Most proposals per round of :func:`exponential_choice` (at least 16 per candidate are made,
#: so a round accepts one with probability ≥ 1 − (1 − 1/K)^{16K} ≥ 1 − e^{−16}).
_BATCH = 4096

#: Integer scores of the candidates (|s| < 2^62), at most ``LIMITS["draws"]`` of them.
ScoresArg = Annotated[ArrayLike, Array(ndim=1, kind="integer", clean=np.array([0, -1, -3]))]
#: An integer sensitivity Δ ≥ 1 of the scores.
SensitivityArg = Annotated[int, Integer(1, hi=2**62, clean=1)]
#: A hypothesis class on ℝ ("threshold", "interval") or ℝ² ("rectangle").
HypothesisClassArg = Annotated[str, Choice(("threshold", "interval", "rectangle"))]
#: How many synthetic points the learner draws from PCDE's density.
SyntheticSizeArg = Annotated[int, Integer(1, limit="synthetic", clean=20)]
#: A privacy report.
LevelArg = Annotated[
    PrivacyLevel,
    Instance(types=(PrivacyLevel,), clean=PrivacyLevel(1.0, 2.718281828459045, 0, True)),
]


@example(__call__={"size": 3})
@checked
def exponential_choice(
    scores: ScoresArg,
    epsilon: EpsilonArg,
    size: SizeArg,
    rng: GeneratorArg,
    *,
    sensitivity: SensitivityArg = 1,
    half: FlagArg = True,
) -> NDArray[np.int64]:
    """``size`` independent indices with P(i) ∝ exp(ε·s_i/(cΔ)), c = 2 (``half``) or 1, exactly.

    ε is rounded down to a rational as :class:`ExponentialMechanism` does, so γ_i =
    ε(max s − s_i)/(cΔ) = a_i/D with integers a_i, D. Proposals i ~ uniform are accepted with
    probability exp(−γ_i) by the exact integer-only :func:`bernoulli_exp_neg`; the accepted
    proposals of an i.i.d. stream of trials are i.i.d. with law ∝ exp(−γ_i). Trials run in
    vectorised batches (≥ 16 proposals per candidate, the best one accepted with probability 1),
    so a large candidate set with concentrated weights costs O(K/Σe^{−γ}) trials without a
    Python loop per trial. At most ``LIMITS["draws"]`` candidates.
    """
    s = np.asarray(scores, dtype=np.int64)  # |s| < 2^62 (the domain): the gaps fit in int64
    if s.size > LIMITS["draws"]:
        raise ValueError(f"scores: {s.size} candidates exceed {LIMITS['draws']} (LIMITS['draws'])")
    eps = epsilon_rational(epsilon)
    gap = (s.max() - s).astype(np.int64)
    numerator = eps.numerator
    denominator = eps.denominator * (2 if half else 1) * sensitivity
    if denominator > INT_BOUND:  # rounded down (more private), as ExponentialMechanism does
        rate = Fraction(numerator * 2**61 // denominator, 2**61)
        if rate == 0:
            raise ValueError("sensitivity: epsilon/(2·sensitivity) is below 2^-61")
        numerator, denominator = rate.numerator, rate.denominator
    exponents = exp_neg_exponents(gap, numerator, denominator)  # overflow-safe split
    out = np.empty(0, dtype=np.int64)
    while out.size < size:
        batch = max(min(_BATCH, 16 * s.size), 2 * (size - out.size))
        proposal = rng.integers(0, s.size, size=batch)
        accepted = proposal[bernoulli_exp_neg_exponents(exponents.take(proposal), rng)]
        out = np.concatenate([out, accepted[: size - out.size]])
    return out


def _slots(coords: NDArray[np.float64], values: NDArray[np.float64]) -> NDArray[np.int64]:
    """Slot of each value among sorted distinct ``coords`` u_0 < … < u_{m−1}: 2i + 1 when
    v = u_i, 2i when u_{i−1} < v < u_i (0 below u_0, 2m above u_{m−1})."""
    left = np.searchsorted(coords, values, side="left")
    right = np.searchsorted(coords, values, side="right")
    return (left + right).astype(np.int64)


#: The sorted distinct coordinates of the synthetic sample on each axis.
CoordsArg = Annotated[
    tuple[NDArray[np.float64], ...], Instance(types=(tuple,), clean=(np.array([0.5, 1.5]),))
]
#: Slot ranges of the candidates, one row per candidate, one column per axis.
SlotsArg = Annotated[NDArray[np.int64], Array(ndim=2, kind="integer")]
#: The index of one candidate.
CandidateArg = Annotated[int, Integer(0, hi=2**62, clean=0)]
#: Points of the candidates' space (rows; a 1-D array of points of ℝ is accepted).
AnyPointsArg = Annotated[ArrayLike, Array()]
#: 0/1 labels.
BitsArg = Annotated[ArrayLike, Array(kind="integer")]


@dataclass(frozen=True)
class Dichotomies(Checked):
    """The hypotheses of a class restricted to a synthetic sample Û, one per dichotomy.

    Candidate i is the box ∏_a [lower_ia, upper_ia] (inclusive; a threshold has upper = +∞,
    the empty hypothesis has lower = +∞). In slot coordinates of the sorted distinct synthetic
    coordinates u^a of each axis (see ``_slots``) it covers the slot ranges
    [slot_lo_ia, slot_hi_ia) — which is how :meth:`mistakes` counts errors of all candidates
    at once with prefix sums (O(L d + K·2^d + ∏(2m_a + 1)) for L labeled points).
    """

    kind: HypothesisClassArg
    coords: CoordsArg
    slot_lo: SlotsArg
    slot_hi: SlotsArg

    def __post_init__(self) -> None:
        super().__post_init__()
        d = CLASS_DIMENSION[self.kind]
        if len(self.coords) != d:
            raise ValueError(f"coords: a {self.kind} class has {d} axes, got {len(self.coords)}")
        for a, u in enumerate(self.coords):
            arr = np.asarray(u)
            if arr.ndim != 1 or arr.size == 0 or not np.all(np.isfinite(arr)):
                raise ValueError(f"coords: axis {a} must be a non-empty 1-D array of reals")
            if np.any(np.diff(arr) <= 0):
                raise ValueError(f"coords: axis {a} must be sorted and distinct")
        if self.slot_lo.shape != self.slot_hi.shape or self.slot_lo.shape[1:] != (d,):
            raise ValueError(f"slot_hi: expected (K, {d}) slot ranges like slot_lo")
        tops = np.array([2 * np.asarray(u).size + 1 for u in self.coords])
        for name, slots in (("slot_lo", self.slot_lo), ("slot_hi", self.slot_hi)):
            if np.any(slots < 0) or np.any(slots > tops):
                raise ValueError(f"{name}: slots must be in [0, 2m + 1] per axis")

    @property
    def size(self) -> int:
        """K, the number of candidates."""
        return int(self.slot_lo.shape[0])

    @property
    def dimension(self) -> int:
        return len(self.coords)

    def bounds(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """(lower, upper), each (K, d): the boxes of all candidates as closed intervals."""
        lower = np.empty(self.slot_lo.shape, dtype=np.float64)
        upper = np.empty(self.slot_lo.shape, dtype=np.float64)
        for a, u in enumerate(self.coords):
            lo, hi = self.slot_lo[:, a], self.slot_hi[:, a]
            empty = hi <= lo
            top = 2 * u.size + 1  # a range reaching the last slot has no upper bound
            lower[:, a] = np.where(empty, np.inf, u[np.clip((lo - 1) // 2, 0, u.size - 1)])
            upper[:, a] = np.where(
                empty, -np.inf, np.where(hi >= top, np.inf, u[np.clip(hi // 2 - 1, 0, u.size - 1)])
            )
        return lower, upper

    def predict(self, index: CandidateArg, X: AnyPointsArg) -> NDArray[np.int64]:
        """h_index(x) ∈ {0, 1} for each row of X (the box test on the bounds)."""
        if index >= self.size:
            raise ValueError(f"index: candidate {index} out of range for {self.size} candidates")
        lower, upper = self.bounds()
        pts = np.asarray(X, dtype=np.float64).reshape(-1, self.dimension)
        inside = np.all((pts >= lower[index]) & (pts <= upper[index]), axis=1)
        return np.asarray(inside, dtype=np.int64)

    def mistakes(self, X: AnyPointsArg, y: BitsArg) -> NDArray[np.int64]:
        """#{(x, y) : h_i(x) ≠ y} for every candidate i (K,), by d-dimensional prefix sums."""
        X = np.asarray(X, dtype=np.float64).reshape(-1, self.dimension)
        y = np.asarray(y).astype(np.int64).reshape(-1)
        if y.shape[0] != X.shape[0] or not np.all((y == 0) | (y == 1)):
            raise ValueError(f"y: expected {X.shape[0]} labels in {{0, 1}}")
        return self._mistakes(X, y)

    def _mistakes(self, X: NDArray[np.float64], y: NDArray[np.int64]) -> NDArray[np.int64]:
        shape = tuple(2 * u.size + 1 for u in self.coords)
        flat = np.ravel_multi_index(
            tuple(_slots(u, X[:, a]) for a, u in enumerate(self.coords)), shape
        )
        hi = np.maximum(self.slot_hi, self.slot_lo)  # empty ranges (hi ≤ lo) count nothing
        inside = np.zeros(self.size, dtype=np.int64)
        for label, sign in ((1, -1), (0, 1)):  # mistakes = P − (positives in) + (negatives in)
            hist = np.bincount(flat[y == label], minlength=int(np.prod(shape))).reshape(shape)
            cum = np.pad(hist, [(1, 0)] * len(shape))  # cum[s] = Σ_{t < s} hist[t], per axis
            for a in range(len(shape)):
                cum = np.cumsum(cum, axis=a)
            for corner in product((0, 1), repeat=len(shape)):  # inclusion–exclusion over 2^d
                idx = tuple(hi[:, a] if c else self.slot_lo[:, a] for a, c in enumerate(corner))
                parity = (-1) ** (len(shape) - sum(corner))
                inside += sign * parity * cum[idx]
        return np.asarray(int(np.sum(y == 1)) + inside, dtype=np.int64)


def _sorted_coords(points: NDArray[np.float64]) -> tuple[list[NDArray[np.float64]], list[Any]]:
    coords, ranks = [], []
    for a in range(points.shape[1]):
        u, r = np.unique(points[:, a], return_inverse=True)
        coords.append(u.astype(np.float64))
        ranks.append(r.reshape(-1))
    return coords, ranks


_SYNTHETIC = np.array([[0.5], [1.5], [2.5]])


@example(__call__={"kind": "interval", "synthetic": _SYNTHETIC})
@checked
def dichotomies(kind: HypothesisClassArg, synthetic: PointsArg) -> Dichotomies:
    """H|Û for ``kind`` ∈ {"threshold", "interval", "rectangle"} on the synthetic points Û (at
    most ``MAX_SYNTHETIC[kind]`` of them, refused before any work)."""
    return _dichotomies(kind, synthetic)


def _dichotomies(kind: str, synthetic: Any) -> Dichotomies:
    points = _check_points(synthetic, "synthetic", d=CLASS_DIMENSION[kind])
    limit = MAX_SYNTHETIC[kind]
    if limit is not None and points.shape[0] > limit:
        raise ValueError(
            f"n_synthetic: at most {limit} synthetic points for {kind}s "
            f"(O(m^{2 if kind == 'interval' else 4}) candidates), got {points.shape[0]}"
        )
    coords, ranks = _sorted_coords(points)
    m = coords[0].size
    if kind == "threshold":
        lo = np.append(2 * np.arange(m) + 1, 2 * m + 1)  # t = u_i, and t = +∞ (all zero)
        hi = np.full(m + 1, 2 * m + 1)
        return Dichotomies(kind, tuple(coords), lo[:, None], hi[:, None])
    if kind == "interval":
        i, j = np.triu_indices(m)
        lo = np.append(2 * i + 1, 0)  # [u_i, u_j], and the empty interval
        hi = np.append(2 * j + 2, 0)
        return Dichotomies(kind, tuple(coords), lo[:, None], hi[:, None])
    # rectangles: box [u_i, u_j] × [v_k, v_l] kept iff it is the bounding box of its points
    mx, my = coords[0].size, coords[1].size
    grid = np.zeros((mx, my), dtype=np.int64)
    np.add.at(grid, (ranks[0], ranks[1]), 1)
    by_row = np.pad(np.cumsum(grid, axis=1), [(0, 0), (1, 0)])  # by_row[i, l] = Σ_{k<l} grid
    by_col = np.pad(np.cumsum(grid, axis=0), [(1, 0), (0, 0)])  # by_col[j, k] = Σ_{i<j} grid
    i = np.arange(mx)[:, None, None, None]
    j = np.arange(mx)[None, :, None, None]
    k = np.arange(my)[None, None, :, None]
    ll = np.arange(my)[None, None, None, :]
    keep = (
        (i <= j)
        & (k <= ll)
        & (by_row[i, ll + 1] - by_row[i, k] > 0)  # a point on the left edge, inside
        & (by_row[j, ll + 1] - by_row[j, k] > 0)  # right edge
        & (by_col[j + 1, k] - by_col[i, k] > 0)  # bottom edge
        & (by_col[j + 1, ll] - by_col[i, ll] > 0)  # top edge
    )
    ii, jj, kk, lq = np.nonzero(keep)
    lo = np.stack([np.append(2 * ii + 1, 0), np.append(2 * kk + 1, 0)], axis=1)
    hi = np.stack([np.append(2 * jj + 2, 0), np.append(2 * lq + 2, 0)], axis=1)
    return Dichotomies(kind, tuple(coords), lo.astype(np.int64), hi.astype(np.int64))


@checked
def joint_level(unlabeled: LevelArg, labeled: LevelArg) -> PrivacyLevel:
    """The level of a release whose neighbours change one record of *either* of two samples,
    when a change in the first moves only a release at level ``unlabeled`` and a change in the
    second only a release at level ``labeled`` (the rest being post-processing): the worse of
    the two, per neighbouring pair."""
    return PrivacyLevel(
        epsilon=max(unlabeled.epsilon, labeled.epsilon),
        ratio=max(unlabeled.ratio, labeled.ratio),
        delta=max(unlabeled.delta, labeled.delta),
        exact_sampler=unlabeled.exact_sampler and labeled.exact_sampler,
        relation=Relation.SUBSTITUTE,
    )


_XL = np.array([[-1.0], [-0.5], [0.2], [0.6], [1.1], [1.4]])
_YL = np.array([0, 0, 1, 1, 1, 1])
_XU = np.repeat([[-0.5], [0.5], [1.5]], [30, 40, 30], axis=0)


@example(
    __init__={"epsilon": 2.0, "delta": 0.1, "n_synthetic": 6, "side": 1.0, "random_state": 0},
    fit={"X_labeled": _XL, "y": _YL, "X_unlabeled": _XU},
    predict={"X": _XL},
    decision={"X": _XL},
    score={"X": _XL, "y": _YL},
    candidates={"synthetic": _SYNTHETIC},
    selection_mechanism={"candidates": _dichotomies("threshold", _SYNTHETIC)},
    release_law={"X_labeled": _XL, "y": _YL, "synthetic": _SYNTHETIC},
)
class PrivateSemiSupervisedClassifier(EstimatorProtocol):
    """Private CSSL of seed 000 Sec 4.1 (Thm 4.11): PCDE on the unlabeled sample, a synthetic
    sample from it, the exponential mechanism over the dichotomies on the synthetic sample.

    Parameters: ``epsilon``/``delta`` (PCDE on the unlabeled data), ``label_epsilon`` (the
    exponential mechanism on the labeled data), and keyword-only ``hypothesis_class``
    ("threshold" | "interval" on ℝ, "rectangle" on ℝ²), ``n_synthetic`` (n_semi, at most
    ``MAX_SYNTHETIC[hypothesis_class]``), ``side`` (PCDE's cube side), ``idealised`` (PCDE's
    continuous noise) and ``random_state`` (None, int or Generator; seeds PCDE, the synthetic
    draw and the selection independently).

    ``fit(X_labeled, y, X_unlabeled)`` — note the third argument: the unlabeled sample is
    required (this is not sklearn's ``fit(X, y)`` with y = −1 marking unlabeled rows).
    Fitted: ``density_`` (the PCDE model), ``synthetic_`` (Û), ``candidates_``
    (:class:`Dichotomies`), ``choice_`` (index of the chosen candidate), ``lower_``/``upper_``
    (its box), ``classes_``, ``privacy_``.

    Privacy: neighbours substitute one record of either sample (one labeled example, or one
    unlabeled point). Changing an unlabeled point moves only PCDE's release ((ε, δ)-DP, Thm 4.2)
    and the rest is post-processing; changing a labeled example moves only the exponential
    mechanism's choice given Û (ε_label-DP, Thm 4.11). So ``privacy_`` is
    (max(ε, ε_label), δ): :func:`joint_level` of the two parts (``density_.privacy_`` is PCDE's).
    """

    _estimator_type = "classifier"

    def __init__(
        self,
        epsilon: EpsilonArg = 1.0,
        delta: HistogramDeltaArg = 1e-6,
        label_epsilon: EpsilonArg = 1.0,
        *,
        hypothesis_class: HypothesisClassArg = "threshold",
        n_synthetic: SyntheticSizeArg = 200,
        side: OptionalSideArg = None,
        idealised: FlagArg = False,
        random_state: RandomStateArg = None,
    ) -> None:
        self.epsilon = epsilon
        self.delta = delta
        self.label_epsilon = label_epsilon
        self.hypothesis_class = hypothesis_class
        self.n_synthetic = n_synthetic
        self.side = side
        self.idealised = idealised
        self.random_state = random_state

    def candidates(self, synthetic: PointsArg) -> Dichotomies:
        """H|Û: the class's dichotomies on the synthetic sample (label-independent)."""
        check_constructor_params(self)
        return dichotomies(self.hypothesis_class, synthetic)

    def selection_mechanism(self, candidates: DichotomiesArg) -> ExponentialMechanism:
        """The exponential mechanism over ``candidates``: score −mistakes, Δ = 1, ε_label.

        Its data are labeled records (x_1, …, x_d, y); ``fit`` draws from its law with
        :func:`exponential_choice` and :meth:`release_law` returns its exact ``pmf``.
        """
        check_constructor_params(self)
        return self._selection(candidates)

    def _selection(self, candidates: Dichotomies) -> ExponentialMechanism:
        epsilon_rational(self.label_epsilon, "label_epsilon")  # refused under its own name
        d = candidates.dimension

        def scores(records: NDArray[Any]) -> NDArray[np.int64]:
            data = np.asarray(records, dtype=np.float64).reshape(-1, d + 1)
            return -candidates._mistakes(data[:, :d], data[:, d].astype(np.int64))

        return ExponentialMechanism(scores, 1, epsilon=self.label_epsilon)

    def _labeled(self, X_labeled: Any, y: Any) -> tuple[NDArray[np.float64], Any, Any]:
        d = CLASS_DIMENSION[self.hypothesis_class]
        X = _check_points(X_labeled, "X_labeled", d=d)
        positive, classes = _binary_labels(y, X.shape[0], "X_labeled", stacklevel=5)
        return X, positive.astype(np.int64), classes

    def release_law(
        self, X_labeled: PointsArg, y: LabelsArg, synthetic: PointsArg
    ) -> dict[int, float]:
        """Exact law of the chosen candidate index for a fixed synthetic sample Û (the label
        release; Û itself is PCDE's, whose law is ``PrivateHistogramDensity.release_law``)."""
        check_constructor_params(self)
        X, labels, _ = self._labeled(X_labeled, y)
        cands = _dichotomies(self.hypothesis_class, synthetic)
        mech = self._selection(cands)
        return {i: float(p) for i, p in mech.pmf(np.column_stack([X, labels])).items()}

    def fit(
        self, X_labeled: PointsArg, y: LabelsArg, X_unlabeled: OptionalPointsArg = None
    ) -> PrivateSemiSupervisedClassifier:
        """Learn from the labeled (X_labeled, y) and the unlabeled X_unlabeled (required)."""
        if X_unlabeled is None:
            raise ValueError(
                "X_unlabeled: the unlabeled sample is required (fit(X_labeled, y, X_unlabeled))"
            )
        X, labels, classes = self._labeled(X_labeled, y)
        d = X.shape[1]
        X_unlabeled = _rows(X_unlabeled)
        if X_unlabeled.shape[1] != d:
            raise ValueError(f"X_unlabeled: expected {d} features, got {X_unlabeled.shape[1]}")
        n_syn = self.n_synthetic
        epsilon_rational(self.label_epsilon, "label_epsilon")  # refused before PCDE runs
        limit = MAX_SYNTHETIC[self.hypothesis_class]
        if limit is not None and n_syn > limit:
            raise ValueError(
                f"n_synthetic: at most {limit} for {self.hypothesis_class}s, got {n_syn}"
            )
        pcde_seed, synth_seed, select_seed = np.random.SeedSequence(
            _model_key(self.random_state)
        ).spawn(3)
        density = PrivateHistogramDensity(
            self.epsilon,
            self.delta,
            idealised=self.idealised,
            side=self.side,
            random_state=np.random.default_rng(pcde_seed),
        )._fit(X_unlabeled, "X_unlabeled")
        synthetic = density.sample_points(n_syn, np.random.default_rng(synth_seed))
        cands = _dichotomies(self.hypothesis_class, synthetic)
        mech = self._selection(cands)
        scores = mech.score_vector(np.column_stack([X, labels]))
        choice = int(
            exponential_choice(
                scores,
                self.label_epsilon,
                1,
                np.random.default_rng(select_seed),
                sensitivity=mech.sensitivity,
                half=mech.half,
            )[0]
        )
        lower, upper = cands.bounds()
        self.density_, self.synthetic_, self.candidates_ = density, synthetic, cands
        self.choice_, self.lower_, self.upper_ = choice, lower[choice], upper[choice]
        self.classes_, self.n_features_in_ = classes, d
        self.privacy_ = joint_level(density.privacy_, mech.privacy)
        return self

    def _check_fitted(self) -> None:
        if not hasattr(self, "choice_"):
            raise NotFittedError(
                "self: this PrivateSemiSupervisedClassifier is not fitted; call fit"
            )

    def decision(self, X: PointsArg) -> NDArray[np.int64]:
        """h(x) ∈ {0, 1}: 1 inside the chosen box [lower_, upper_] (both ends closed, as the
        mistakes the selection scores count them; a fixed function of x)."""
        self._check_fitted()
        pts = _check_points(X, d=self.n_features_in_)
        inside = np.all((pts >= self.lower_) & (pts <= self.upper_), axis=1)
        return np.asarray(inside, dtype=np.int64)

    def predict(self, X: PointsArg) -> NDArray[Any]:
        """The class label of each row of X (classes_[1] inside the chosen box)."""
        bits = self.decision(X)
        return np.asarray(self.classes_[bits])

    def score(self, X: PointsArg, y: LabelsArg) -> float:
        """Accuracy on (X, y)."""
        predicted = self.predict(X)
        return float(np.mean(predicted == _score_labels(y, predicted.shape[0])))


#: The dichotomies of a synthetic sample.
DichotomiesArg = Annotated[
    Dichotomies, Instance(types=(Dichotomies,), clean=_dichotomies("threshold", _SYNTHETIC))
]

example(
    __init__={
        "kind": "interval",
        "coords": _dichotomies("interval", _SYNTHETIC).coords,
        "slot_lo": _dichotomies("interval", _SYNTHETIC).slot_lo,
        "slot_hi": _dichotomies("interval", _SYNTHETIC).slot_hi,
    },
    bounds={},
    predict={"index": 1, "X": _SYNTHETIC},
    mistakes={"X": _SYNTHETIC, "y": np.array([0, 1, 1])},
)(Dichotomies)
