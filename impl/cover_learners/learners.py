"""Chaudhuri–Hsu's learners (seed 004): A1 (Fig. 1, L842–857), A1r (Fig. 2, L861–876), A2
(Fig. 3, L880–889), as scikit-learn-style classifiers on [0, 1].

All three pick h from a finite candidate set G with the exponential mechanism

    p_g ∝ exp(−α·|S|·err(g, S)/2) = exp(−α·mistakes(g, S)/2),

score −mistakes with sensitivity 1 (one example changed moves every count by ≤ 1), drawn
exactly by :func:`dpspec.learners.semi_supervised.exponential_choice` from the law
:class:`dpspec.mechanisms.ExponentialMechanism` states (``release_law``).

* **A1** (agnostic) and **A1r** (``realizable=True``): G is a public grid of the class, an
  ε₀-cover of (H, ρ_𝒰) for the uniform reference 𝒰, ε₀ = ε/(4κ̂), where κ̂ solves the sample-size
  equation (Fig. 1 step 1; Fig. 2 step 1 with the realizable f)
  m = C (1/(αε) + 1/ε²)(d log(κ̂/ε) + log(1/δ)) — capped by the public ``kappa_max`` and at
  least 1. G depends on m, α, ε, δ only: **α-private** under Def 3 (L139, replace one example;
  m is public), Thm 7 (L258). The paper's constant C is unspecified; ``constant`` defaults to
  56 (Hoeffding with the /8 of the proof, ε ≤ ½), and the learner reports an explicit
  certificate ``certificate_`` = δ_cert computed from the actual |G| instead of trusting C:
  A1: 2|G|e^{−mε²/8} + |G|e^{−αmε/8} (uniform convergence over G at ε/4, Lemma 18 at ε/4);
  A1r: |G|e^{−mε/400} + δ/4 + |G|e^{−3αmε/40} (Thm 9's proof, L545–566, with the final
  step's exponent corrected: Lemma 18 with a_g = α|S|err(g, S)/2 and t = α|S|·(3ε/20)/2).
  If D is κ-smooth w.r.t. 𝒰 with κ ≤ κ̂, the excess error is ≤ ε with probability
  ≥ 1 − δ_cert (Thm 8, L264; Thm 9, L278).
* **A2** (``LabelPrivateCoverClassifier``): G is an (ε/4)-cover of (H, ρ_X) built from the
  sample's x's — α-**label** private (Def 2, L135; Thm 26, L796): label neighbours keep the x's,
  hence G. It is **not** α-private under Def 3: replacing one x moves G's support (the released
  threshold can be the new x itself), an unbounded privacy loss. Certificate (thresholds):
  4e^{−mε²/32} + |G|e^{−αmε/8} (DKW on the two one-sided label CDFs at ε/8 each, Lemma 18).

Labels: any two classes (sklearn's convention); the paper's ±1 are classes_[0]/classes_[1].
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.contract import PrivacyLevel
from dpspec.cover_learners.hypotheses import (
    CLASS_DIMENSION,
    MAX_INTERVAL_GRID,
    Boxes,
    empirical_threshold_cover,
    interval_grid,
    threshold_grid,
)
from dpspec.learners.estimator import (
    BinaryCellClassifier,
    check_binary_labels,
    check_unit_cube,
    model_key,
)
from dpspec.learners.semi_supervised import exponential_choice
from dpspec.mechanisms.exponential import ExponentialMechanism
from dpspec.spec.neighbours import Relation
from dpspec.validation import check_delta, check_epsilon, check_flag, check_positive


def kappa_hat(
    m: int,
    alpha: float,
    accuracy: float,
    confidence: float,
    dimension: int,
    *,
    constant: float = 56.0,
    kappa_max: float = 64.0,
    realizable: bool = False,
) -> float:
    """κ̂ solving m = C·f·(d log(κ̂/ε) + log(1/δ)), f = 1/(αε) + 1/ε² (Fig. 1) or 1/(αε)
    (Fig. 2), clipped to [1, κ_max]: log κ̂ = log ε + (m/(C f) − log(1/δ))/d."""
    f = 1 / (alpha * accuracy) + (0.0 if realizable else 1 / accuracy**2)
    exponent = math.log(accuracy) + (m / (constant * f) - math.log(1 / confidence)) / dimension
    if exponent >= math.log(kappa_max):
        return kappa_max
    return max(1.0, math.exp(exponent))


def grid_size(kappa: float, accuracy: float, hypothesis_class: str) -> int:
    """J, the least power of two with cover radius ≤ ε₀ = ε/(4κ̂): 1/(2J) for thresholds,
    1/J for intervals."""
    per_unit = (2 if hypothesis_class == "threshold" else 4) * kappa / accuracy
    return 1 << max(0, math.ceil(math.log2(per_unit)))


def a1_certificate(size: int, m: int, alpha: float, accuracy: float) -> float:
    """δ_cert of A1: 2|G|e^{−mε²/8} + |G|e^{−αmε/8}."""
    return 2 * size * math.exp(-m * accuracy**2 / 8) + size * math.exp(-alpha * m * accuracy / 8)


def a1r_certificate(size: int, m: int, alpha: float, accuracy: float, confidence: float) -> float:
    """δ_cert of A1r: |G|e^{−mε/400} + δ/4 + |G|e^{−3αmε/40} (Thm 9 corrected)."""
    return (
        size * math.exp(-m * accuracy / 400)
        + confidence / 4
        + size * math.exp(-3 * alpha * m * accuracy / 40)
    )


def a2_certificate(size: int, m: int, alpha: float, accuracy: float) -> float:
    """δ_cert of A2 on thresholds: 4e^{−mε²/32} + |G|e^{−αmε/8}."""
    return 4 * math.exp(-m * accuracy**2 / 32) + size * math.exp(-alpha * m * accuracy / 8)


class _CoverExponentialClassifier(BinaryCellClassifier):
    """The exponential mechanism over a candidate set (shared by A1, A1r and A2)."""

    _fitted_attribute = "choice_"
    relation = Relation.SUBSTITUTE
    epsilon: float
    accuracy: float
    confidence: float
    hypothesis_class: str
    random_state: Any

    def candidates(self, X: NDArray[np.float64], m: int) -> Boxes:
        raise NotImplementedError

    def selection_mechanism(self, candidates: Boxes) -> ExponentialMechanism:
        """The exponential mechanism over ``candidates`` on records (x, y): score −mistakes,
        Δ = 1, ε = α (the caller's ``epsilon``)."""

        def scores(records: NDArray[Any]) -> NDArray[np.int64]:
            data = np.asarray(records, dtype=np.float64).reshape(-1, 2)
            return -candidates.mistakes(data[:, 0], data[:, 1].astype(np.int64))

        return ExponentialMechanism(scores, 1, epsilon=self.epsilon)

    def _data(self, X: Any, y: Any) -> tuple[NDArray[np.float64], NDArray[np.int64], Any]:
        if self.hypothesis_class not in CLASS_DIMENSION:
            raise ValueError(
                f"hypothesis_class: expected one of {sorted(CLASS_DIMENSION)}, "
                f"got {self.hypothesis_class!r}"
            )
        check_epsilon(self.epsilon)
        check_positive(self.accuracy, "accuracy", maximum=1.0)
        check_delta(self.confidence, "confidence", allow_zero=False)
        x = check_unit_cube(X, "X", d=1)[:, 0]
        labels, classes = check_binary_labels(y, x.size)
        return x, labels, classes

    def release_law(self, X: Any, y: Any) -> dict[int, float]:
        """Exact law of the index of the released candidate (``fit`` draws ``choice_`` from it)."""
        x, labels, _ = self._data(X, y)
        mech = self.selection_mechanism(self.candidates(x, x.size))
        return {int(k): float(p) for k, p in mech.pmf(np.column_stack([x, labels])).items()}

    def fit(self, X: Any, y: Any) -> _CoverExponentialClassifier:
        """Draw h ∈ G with p_g ∝ exp(−α·mistakes(g)/2), exactly."""
        x, labels, classes = self._data(X, y)
        cands = self.candidates(x, x.size)
        mech = self.selection_mechanism(cands)
        scores = mech.score_vector(np.column_stack([x, labels]))
        rng = np.random.default_rng(model_key(self.random_state))
        choice = int(exponential_choice(scores, self.epsilon, 1, rng, half=mech.half)[0])
        self.candidates_, self.choice_ = cands, choice
        self.lower_, self.upper_ = float(cands.lower[choice]), float(cands.upper[choice])
        self.classes_, self.n_features_in_ = classes, 1
        self.certificate_ = self._certificate(cands.size, x.size)
        self.privacy_ = PrivacyLevel(
            epsilon=mech.privacy.epsilon,
            ratio=mech.privacy.ratio,
            delta=0,
            exact_sampler=True,
            relation=self.relation,
        )
        return self

    def _certificate(self, size: int, m: int) -> float:
        raise NotImplementedError

    def decision_cells(self, X: Any) -> NDArray[np.bool_]:
        """h(x) ∈ {0, 1} for each row of X: lower_ ≤ x ≤ upper_."""
        self._check_fitted()
        x = check_unit_cube(X, "X", d=1)[:, 0]
        return np.asarray((x >= self.lower_) & (x <= self.upper_), dtype=np.bool_)


class PrivateCoverClassifier(_CoverExponentialClassifier):
    """A1 (Fig. 1, L842) or, with ``realizable=True``, A1r (Fig. 2, L861): α-private (Def 3).

    Parameters: ``hypothesis_class`` ("threshold" | "interval" on [0, 1]), ``epsilon`` (the
    paper's α, privacy), ``accuracy`` and ``confidence`` (the paper's ε, δ), ``realizable``,
    ``kappa_max`` (public cap on κ̂; the cover has ≈ 2κ̂/ε thresholds or (4κ̂/ε)²/2 intervals),
    ``constant`` (C of the sample-size equation), ``random_state``.

    Fitted: ``kappa_`` (κ̂), ``candidates_`` (the public grid G), ``choice_``, ``lower_``/
    ``upper_`` (the chosen box), ``certificate_`` (δ_cert: P(excess error > accuracy) ≤ it when
    D is κ̂-smooth w.r.t. uniform), ``classes_``, ``privacy_`` (α, 0) under substitution.
    """

    def __init__(
        self,
        hypothesis_class: str = "threshold",
        epsilon: float = 1.0,
        accuracy: float = 0.1,
        confidence: float = 0.05,
        realizable: bool = False,
        kappa_max: float = 64.0,
        constant: float = 56.0,
        random_state: Any = None,
    ) -> None:
        self.hypothesis_class = hypothesis_class
        self.epsilon = epsilon
        self.accuracy = accuracy
        self.confidence = confidence
        self.realizable = realizable
        self.kappa_max = kappa_max
        self.constant = constant
        self.random_state = random_state

    def candidates(self, X: NDArray[np.float64], m: int) -> Boxes:
        """The public grid for sample size m (X is not read: G is data-independent)."""
        size = grid_size(self.kappa(m), float(self.accuracy), self.hypothesis_class)
        if self.hypothesis_class == "threshold":
            return threshold_grid(size)
        if size > MAX_INTERVAL_GRID:
            raise ValueError(
                f"accuracy: the interval grid would need J = {size} > {MAX_INTERVAL_GRID} points "
                f"per axis even at κ̂ = 1; use accuracy >= {4 / MAX_INTERVAL_GRID}"
            )
        return interval_grid(size)

    def fit(self, X: Any, y: Any) -> PrivateCoverClassifier:
        """Draw h from the public grid with p_g ∝ exp(−α·mistakes(g)/2), exactly; ``kappa_`` is
        κ̂ for the sample size."""
        super().fit(X, y)
        self.kappa_ = self.kappa(int(np.asarray(X).shape[0]))
        return self

    def kappa(self, m: int) -> float:
        """κ̂ for sample size m (Fig. 1/Fig. 2 step 1, clipped to [1, kappa_max]); for intervals
        also to MAX_INTERVAL_GRID·ε/4, so the grid has at most 2^11 points per axis (a public
        cap: it depends on the parameters only)."""
        cap = check_positive(self.kappa_max, "kappa_max")
        if self.hypothesis_class == "interval":
            cap = max(1.0, min(cap, MAX_INTERVAL_GRID * float(self.accuracy) / 4))
        return kappa_hat(
            m,
            float(self.epsilon),
            float(self.accuracy),
            float(self.confidence),
            CLASS_DIMENSION[self.hypothesis_class],
            constant=check_positive(self.constant, "constant"),
            kappa_max=cap,
            realizable=check_flag(self.realizable, "realizable"),
        )

    def _certificate(self, size: int, m: int) -> float:
        a, e = float(self.epsilon), float(self.accuracy)
        if self.realizable:
            return a1r_certificate(size, m, a, e, float(self.confidence))
        return a1_certificate(size, m, a, e)


class LabelPrivateCoverClassifier(_CoverExponentialClassifier):
    """A2 (Fig. 3, L880): thresholds on [0, 1], G an (ε/4)-cover of (H, ρ_X) from the sample's
    x's; α-label private (Def 2, Thm 26) — **not** α-private under Def 3.

    Parameters: ``epsilon`` (α), ``accuracy`` (ε), ``confidence`` (δ), ``random_state``.
    ``privacy_`` is (α, 0) under :attr:`Relation.LABEL`.
    """

    relation = Relation.LABEL

    def __init__(
        self,
        epsilon: float = 1.0,
        accuracy: float = 0.1,
        confidence: float = 0.05,
        random_state: Any = None,
    ) -> None:
        self.hypothesis_class = "threshold"
        self.epsilon = epsilon
        self.accuracy = accuracy
        self.confidence = confidence
        self.random_state = random_state

    @classmethod
    def _param_names(cls) -> list[str]:
        return ["epsilon", "accuracy", "confidence", "random_state"]

    def candidates(self, X: NDArray[np.float64], m: int) -> Boxes:
        """The (ε/4)-cover of (thresholds, ρ_X) built from the x's (label-independent)."""
        return empirical_threshold_cover(X, float(self.accuracy) / 4)

    def _certificate(self, size: int, m: int) -> float:
        return a2_certificate(size, m, float(self.epsilon), float(self.accuracy))
