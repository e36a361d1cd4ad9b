"""Chaudhuri–Hsu's learners (seed 004): A1 (Fig. 1, L842–857), A1r (Fig. 2, L861–876), A2
(Fig. 3, L880–889), as scikit-learn-style classifiers on [0, 1].

The paper writes α for privacy and ε, δ for accuracy and confidence; here privacy is
``epsilon`` (the paper's α) as in every dpspec learner, and the paper's ε, δ are ``accuracy``
and ``confidence``.

All three pick h from a finite candidate set G with the exponential mechanism

    p_g ∝ exp(−α·|S|·err(g, S)/2) = exp(−α·mistakes(g, S)/2),

score −mistakes with sensitivity 1 (one example changed moves every count by ≤ 1). By default it
is drawn exactly (:func:`dpspec.learners.semi_supervised.exponential_choice`: integer-only
Bernoulli(e^{−γ}) trials, α rounded down to a rational) from the law
:class:`dpspec.mechanisms.ExponentialMechanism` states (``release_law``); ``idealised=True``
draws the paper's law with floating-point weights and a uniform float (its report says
``exact_sampler=False``).

* **A1** (agnostic) and **A1r** (``realizable=True``): G is a public grid of the class, an
  ε₀-cover of (H, ρ_𝒰) for the uniform reference 𝒰, ε₀ = ε/(4κ̂), where κ̂ solves the sample-size
  equation (Fig. 1 step 1; Fig. 2 step 1 with the realizable f)
  m = C (1/(αε) + 1/ε²)(d log(κ̂/ε) + log(1/δ)) — capped by the public ``kappa_max`` and at
  least 1. G depends on m, α, ε, δ only: **α-private** under Def 3 (L139, replace one example;
  m is public), Thm 7 (L258). The paper's constant C is unspecified; ``constant`` defaults to
  56 (Hoeffding with the /8 of the proof, ε ≤ ½), and the learner reports an explicit
  certificate ``certificate_`` = min(1, δ_cert), δ_cert computed from the actual |G| instead of
  trusting C:
  A1: 2|G|e^{−mε²/8} + |G|e^{−αmε/8} (uniform convergence over G at ε/4, Lemma 18 at ε/4);
  A1r: |G|e^{−mε/400} + δ/4 + |G|e^{−3αmε/40} (Thm 9's proof, L545–566, with the final
  step's exponent corrected: Lemma 18 with a_g = α|S|err(g, S)/2 and t = α|S|·(3ε/20)/2;
  the δ/4 of Eq. (9) needs m ≥ (3/ε) ln(4/δ), L559 — below it the term is 1).
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
from fractions import Fraction
from functools import cache
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray

from dpspec.contract import PrivacyLevel
from dpspec.cover_learners.hypotheses import (
    BYTES_PER_CANDIDATE,
    CLASS_DIMENSION,
    MAX_INTERVAL_GRID,
    MAX_THRESHOLD_GRID,
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
from dpspec.validation import (
    LIMITS,
    MEMORY_LIMIT,
    Choice,
    Domain,
    EpsilonArg,
    FeaturesArg,
    FlagArg,
    Integer,
    LabelsArg,
    RandomStateArg,
    Real,
    SampleSizeArg,
    checked,
    constructor_domains,
    example,
    require_within,
)

#: The paper's accuracy ε ∈ (0, 1] (the excess error allowed).
AccuracyArg = Annotated[float, Real(lo=0.0, hi=1.0, lo_open=True, clean=0.1)]
#: The paper's confidence δ ∈ (0, 1) (the failure probability allowed).
ConfidenceArg = Annotated[float, Real(lo=0.0, hi=1.0, lo_open=True, hi_open=True, clean=0.05)]
#: A hypothesis class of the line.
HypothesisClassArg = Annotated[str, Choice(options=tuple(CLASS_DIMENSION))]
#: A number of candidates |G|.
CandidateCountArg = Annotated[int, Integer(lo=1, hi=2**62)]
#: The doubling dimension d_𝒰 of (H, ρ_𝒰).
DimensionArg = Annotated[int, Integer(lo=1, hi=64, clean=1)]
#: A smoothness constant κ ≥ 1 (Def 6, L244).
KappaArg = Annotated[float, Real(lo=1.0, hi=1e12, clean=1.0)]
#: The public cap κ_max ≥ 1 on κ̂.
KappaMaxArg = Annotated[float, Real(lo=1.0, hi=1e12, clean=64.0)]
#: The constant C > 0 of the sample-size equation (4).
ConstantArg = Annotated[float, Real(lo=0.0, hi=1e12, lo_open=True, clean=56.0)]
#: A switch of the realizable equation (5).
RealizableArg = FlagArg

#: Candidates whose exact law ``release_law`` lists at most (``LIMITS["outcomes"]``).
MAX_LAW_CANDIDATES = LIMITS["outcomes"]


@checked
def kappa_hat(
    m: SampleSizeArg,
    epsilon: EpsilonArg,
    accuracy: AccuracyArg,
    confidence: ConfidenceArg,
    dimension: DimensionArg,
    *,
    constant: ConstantArg = 56.0,
    kappa_max: KappaMaxArg = 64.0,
    realizable: RealizableArg = False,
) -> float:
    """κ̂ solving m = C·f·(d log(κ̂/ε) + log(1/δ)), f = 1/(αε) + 1/ε² (Fig. 1) or 1/(αε)
    (Fig. 2), α = ``epsilon``, ε = ``accuracy``, δ = ``confidence``, clipped to [1, κ_max]:
    log κ̂ = log ε + (m/(C f) − log(1/δ))/d, with 1/f = αε²/(α + ε) (Fig. 1) or αε (Fig. 2)
    (no overflow or division by zero for any accuracy in (0, 1])."""
    rate = (
        epsilon * accuracy if realizable else accuracy * (epsilon * accuracy) / (epsilon + accuracy)
    )
    exponent = math.log(accuracy) + (m * rate / constant + math.log(confidence)) / dimension
    if exponent >= math.log(kappa_max):
        return kappa_max
    return max(1.0, math.exp(exponent))


@checked
def grid_size(kappa: KappaArg, accuracy: AccuracyArg, hypothesis_class: HypothesisClassArg) -> int:
    """J, the least power of two with cover radius ≤ ε₀ = ε/(4κ̂): 1/(2J) for thresholds
    (J ≥ 2κ̂/ε), 1/J for intervals (J ≥ 4κ̂/ε) — computed exactly (floats are rationals), and
    refused, before any grid is built, beyond 2^22 (thresholds) or 2^11 (intervals) points."""
    per_unit = Fraction(2 if hypothesis_class == "threshold" else 4) * Fraction(kappa)
    per_unit /= Fraction(accuracy)
    least = -(-per_unit.numerator // per_unit.denominator)  # ⌈per_unit⌉: 2^k ≥ it iff ≥ ⌈⌉
    bits = max(0, (least - 1).bit_length())
    top = MAX_THRESHOLD_GRID if hypothesis_class == "threshold" else MAX_INTERVAL_GRID
    if bits > top.bit_length() - 1:
        per_axis = "points" if hypothesis_class == "threshold" else "points per axis"
        raise ValueError(
            f"accuracy: the {hypothesis_class} grid of radius ε/(4κ̂) at accuracy {accuracy:g} "
            f"and κ̂ = {kappa:g} needs J = 2^{bits} {per_axis}; the limit is J = "
            f"2^{top.bit_length() - 1} (use accuracy >= "
            f"{float(per_unit * Fraction(accuracy) / top):.3g} or a smaller kappa_max)"
        )
    return 1 << bits


def _grid_bytes(hypothesis_class: str, size: int) -> int:
    count = size if hypothesis_class == "threshold" else size * (size + 1) // 2 + 1
    return BYTES_PER_CANDIDATE * count


@checked
def a1_certificate(
    size: CandidateCountArg, m: SampleSizeArg, epsilon: EpsilonArg, accuracy: AccuracyArg
) -> float:
    """δ_cert of A1: 2|G|e^{−mε²/8} + |G|e^{−αmε/8} (α = ``epsilon``, ε = ``accuracy``)."""
    return 2 * size * math.exp(-m * accuracy**2 / 8) + size * math.exp(-epsilon * m * accuracy / 8)


@checked
def a1r_certificate(
    size: CandidateCountArg,
    m: SampleSizeArg,
    epsilon: EpsilonArg,
    accuracy: AccuracyArg,
    confidence: ConfidenceArg,
) -> float:
    """δ_cert of A1r: |G|e^{−mε/400} + δ/4 + |G|e^{−3αmε/40} (Thm 9, final exponent
    corrected); the δ/4 of Eq. (9) holds when m ≥ (3/ε) ln(4/δ) (L559), else the term is 1."""
    middle = confidence / 4 if m * accuracy >= 3 * math.log(4 / confidence) else 1.0
    return (
        size * math.exp(-m * accuracy / 400)
        + middle
        + size * math.exp(-3 * epsilon * m * accuracy / 40)
    )


@checked
def a2_certificate(
    size: CandidateCountArg, m: SampleSizeArg, epsilon: EpsilonArg, accuracy: AccuracyArg
) -> float:
    """δ_cert of A2 on thresholds: 4e^{−mε²/32} + |G|e^{−αmε/8}."""
    return 4 * math.exp(-m * accuracy**2 / 32) + size * math.exp(-epsilon * m * accuracy / 8)


def _float_release_law(scores: NDArray[np.int64], epsilon: float) -> NDArray[np.float64]:
    """The idealised law p_g ∝ exp(ε·s_g/2) in floating point (weights relative to the best
    score, so the largest is 1 and none overflows)."""
    gap = (scores.max() - scores).astype(np.float64)
    weights = np.exp(-(epsilon / 2) * gap)
    return np.asarray(weights / weights.sum(), dtype=np.float64)


def _float_choice(scores: NDArray[np.int64], epsilon: float, rng: np.random.Generator) -> int:
    """One index drawn from :func:`_float_release_law` by inverting its cumulative sum at a
    uniform float (the paper's sampler in ideal real arithmetic)."""
    cumulative = np.cumsum(_float_release_law(scores, epsilon))
    index = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
    return min(index, scores.size - 1)


@cache
def _constructor_domains(cls: type) -> dict[str, Any]:
    return constructor_domains(cls)


class _CoverExponentialClassifier(BinaryCellClassifier):
    """The exponential mechanism over a candidate set (shared by A1, A1r and A2)."""

    _fitted_attribute = "choice_"
    relation = Relation.SUBSTITUTE
    epsilon: float | Fraction
    accuracy: float
    confidence: float
    idealised: bool
    random_state: Any

    def _settings(self) -> dict[str, Any]:
        """The constructor parameters, checked against their declared domains and converted
        (``check_constructor_params`` with the class's domains read once)."""
        return {
            name: domain.check(getattr(self, name), name) if isinstance(domain, Domain) else None
            for name, domain in _constructor_domains(type(self)).items()
        }

    def candidates(self, X: FeaturesArg) -> Boxes:
        """The candidate set G that ``fit`` selects from on X."""
        return self._candidates(self._settings(), X)

    def _candidates(self, s: dict[str, Any], X: Any) -> Boxes:
        raise NotImplementedError

    def _selection_epsilon(self, s: dict[str, Any]) -> float:
        """The ε the selection step is calibrated for: the caller's ``epsilon`` (α)."""
        return float(s["epsilon"])

    def _selection_mechanism(self, candidates: Boxes, epsilon: float) -> ExponentialMechanism:
        """The exponential mechanism over ``candidates`` on records (x, y): score −mistakes,
        Δ = 1, ε = α (the caller's ``epsilon``)."""

        def scores(records: NDArray[Any]) -> NDArray[np.int64]:
            data = np.asarray(records, dtype=np.float64).reshape(-1, 2)
            return -candidates.mistakes(data[:, 0], data[:, 1].astype(np.int64))

        return ExponentialMechanism(scores, 1, epsilon=epsilon)

    def _data(self, X: Any, y: Any) -> tuple[NDArray[np.float64], NDArray[np.int64], Any]:
        x = check_unit_cube(X, "X", d=1)[:, 0]
        labels, classes = check_binary_labels(y, x.size)
        return x, labels, classes

    def release_law(self, X: FeaturesArg, y: LabelsArg) -> dict[int, float]:
        """Exact law of the index of the released candidate (``fit`` draws ``choice_`` from
        it): the exponential mechanism at the rational α ≤ ``epsilon`` the exact sampler uses,
        or, with ``idealised=True``, the float law at ``epsilon``. Lists at most 2^16
        candidates (``LIMITS["outcomes"]``)."""
        settings = self._settings()
        x, labels, _ = self._data(X, y)
        cands = self._candidates(settings, X)
        require_within(cands.size, MAX_LAW_CANDIDATES, "accuracy", "candidates in the law")
        eps = self._selection_epsilon(settings)
        if settings["idealised"]:
            p = _float_release_law(-cands.mistakes(x, labels), eps)
            return {int(k): float(v) for k, v in enumerate(p)}
        mech = self._selection_mechanism(cands, eps)
        return {int(k): float(p) for k, p in mech.pmf(np.column_stack([x, labels])).items()}

    def fit(self, X: FeaturesArg, y: LabelsArg) -> _CoverExponentialClassifier:
        """Draw h ∈ G with p_g ∝ exp(−α·mistakes(g)/2): exactly, or in floating point with
        ``idealised=True``."""
        settings = self._settings()
        x, labels, classes = self._data(X, y)
        cands = self._candidates(settings, X)
        rng = np.random.default_rng(model_key(settings["random_state"]))
        eps = self._selection_epsilon(settings)
        if settings["idealised"]:
            choice = _float_choice(-cands.mistakes(x, labels), eps, rng)
            level = PrivacyLevel(eps, math.exp(eps), 0, False, self.relation)
        else:
            mech = self._selection_mechanism(cands, eps)
            scores = mech.score_vector(np.column_stack([x, labels]))
            choice = int(exponential_choice(scores, eps, 1, rng, half=mech.half)[0])
            level = PrivacyLevel(mech.privacy.epsilon, mech.privacy.ratio, 0, True, self.relation)
        self.candidates_, self.choice_ = cands, choice
        self.lower_, self.upper_ = float(cands.lower[choice]), float(cands.upper[choice])
        self.classes_, self.n_features_in_ = classes, 1
        self.certificate_ = min(1.0, self._certificate(settings, cands.size, x.size))
        self.privacy_ = level
        self._after_fit(settings, x.size)
        return self

    def _after_fit(self, s: dict[str, Any], m: int) -> None:
        """Fitted attributes a learner adds (A1: ``kappa_``)."""

    def _certificate(self, s: dict[str, Any], size: int, m: int) -> float:
        raise NotImplementedError

    def decision_cells(self, X: FeaturesArg) -> NDArray[np.bool_]:
        """h(x) ∈ {0, 1} for each row of X: lower_ ≤ x ≤ upper_ (both ends closed)."""
        self._check_fitted()
        x = check_unit_cube(X, "X", d=1)[:, 0]
        return np.asarray((x >= self.lower_) & (x <= self.upper_), dtype=np.bool_)

    def predict(self, X: FeaturesArg) -> NDArray[Any]:
        """The class of each row of X under the released hypothesis."""
        return super().predict(X)

    def score(self, X: FeaturesArg, y: LabelsArg) -> float:
        """Accuracy on (X, y)."""
        return super().score(X, y)


_X = np.array([[0.05], [0.2], [0.35], [0.5], [0.65], [0.8], [0.95], [0.4]])
_Y = np.array([0, 0, 0, 1, 1, 1, 1, 1])


@example(
    every={"X": _X, "y": _Y},
    __init__={"epsilon": 1.0, "accuracy": 0.25, "random_state": 0},
    fit={},
    predict={},
    score={},
    decision_cells={},
    release_law={},
    candidates={},
    kappa={"m": 8},
    grid={"m": 8},
)
class PrivateCoverClassifier(_CoverExponentialClassifier):
    """A1 (Fig. 1, L842) or, with ``realizable=True``, A1r (Fig. 2, L861): α-private (Def 3).

    Parameters: ``epsilon`` (the paper's α, privacy), ``accuracy`` and ``confidence`` (the
    paper's ε, δ), ``hypothesis_class`` ("threshold" | "interval" on [0, 1]), ``realizable``,
    ``kappa_max`` (public cap on κ̂; the cover has ≈ 2κ̂/ε thresholds or (4κ̂/ε)²/2 intervals),
    ``constant`` (C of the sample-size equation), ``idealised`` (float sampler),
    ``random_state``.

    Fitted: ``kappa_`` (κ̂), ``candidates_`` (the public grid G), ``choice_``, ``lower_``/
    ``upper_`` (the chosen box), ``certificate_`` (δ_cert: P(excess error > accuracy) ≤ it when
    D is κ̂-smooth w.r.t. uniform; a probability, so min(1, δ_cert): 1.0 says the theorem
    guarantees nothing at this m — the formula's own value is ``a1_certificate`` etc.),
    ``classes_``, ``privacy_`` (α, 0) under substitution.
    """

    def __init__(
        self,
        epsilon: EpsilonArg = 1.0,
        accuracy: AccuracyArg = 0.1,
        confidence: ConfidenceArg = 0.05,
        *,
        hypothesis_class: HypothesisClassArg = "threshold",
        realizable: RealizableArg = False,
        kappa_max: KappaMaxArg = 64.0,
        constant: ConstantArg = 56.0,
        idealised: FlagArg = False,
        random_state: RandomStateArg = None,
    ) -> None:
        self.epsilon = epsilon
        self.accuracy = accuracy
        self.confidence = confidence
        self.hypothesis_class = hypothesis_class
        self.realizable = realizable
        self.kappa_max = kappa_max
        self.constant = constant
        self.idealised = idealised
        self.random_state = random_state

    def _candidates(self, s: dict[str, Any], X: Any) -> Boxes:
        """The public grid for the sample size m = len(X) (X is not read otherwise: G is
        data-independent)."""
        return self._grid(s, int(np.asarray(X).shape[0]))

    def grid(self, m: SampleSizeArg) -> Boxes:
        """The public grid G for sample size m (refused, before it is built, beyond 2^22
        thresholds or 2^11 interval ends per axis, or 4 GiB)."""
        return self._grid(self._settings(), m)

    def _grid(self, s: dict[str, Any], m: int) -> Boxes:
        return self._grid_at(s, self._kappa(s, m))

    def _grid_at(self, s: dict[str, Any], kappa: float) -> Boxes:
        size = grid_size(kappa, s["accuracy"], s["hypothesis_class"])
        require_within(_grid_bytes(s["hypothesis_class"], size), MEMORY_LIMIT, "accuracy", "bytes")
        if s["hypothesis_class"] == "threshold":
            return threshold_grid(size)
        return interval_grid(size)

    def _after_fit(self, s: dict[str, Any], m: int) -> None:
        self.kappa_ = self._kappa(s, m)

    def kappa(self, m: SampleSizeArg) -> float:
        """κ̂ for sample size m (Fig. 1/Fig. 2 step 1, clipped to [1, kappa_max]), also clipped
        so that the grid stays within its limit (J ≤ 2^22 thresholds, 2^11 interval ends) — a
        public cap: it depends on the parameters only."""
        return self._kappa(self._settings(), m)

    def _kappa(self, s: dict[str, Any], m: int) -> float:
        per_unit = 2 if s["hypothesis_class"] == "threshold" else 4
        top = MAX_THRESHOLD_GRID if s["hypothesis_class"] == "threshold" else MAX_INTERVAL_GRID
        cap = max(1.0, min(s["kappa_max"], top * s["accuracy"] / per_unit))
        return kappa_hat(
            m,
            s["epsilon"],
            s["accuracy"],
            s["confidence"],
            CLASS_DIMENSION[s["hypothesis_class"]],
            constant=s["constant"],
            kappa_max=cap,
            realizable=s["realizable"],
        )

    def _certificate(self, s: dict[str, Any], size: int, m: int) -> float:
        if s["realizable"]:
            return a1r_certificate(size, m, s["epsilon"], s["accuracy"], s["confidence"])
        return a1_certificate(size, m, s["epsilon"], s["accuracy"])


@example(
    every={"X": _X, "y": _Y},
    __init__={"epsilon": 1.0, "accuracy": 0.25, "random_state": 0},
    fit={},
    predict={},
    score={},
    decision_cells={},
    release_law={},
    candidates={},
)
class LabelPrivateCoverClassifier(_CoverExponentialClassifier):
    """A2 (Fig. 3, L880): thresholds on [0, 1], G an (ε/4)-cover of (H, ρ_X) from the sample's
    x's; α-label private (Def 2, Thm 26) — **not** α-private under Def 3.

    Parameters: ``epsilon`` (α), ``accuracy`` (ε), ``confidence`` (δ), ``idealised``,
    ``random_state``. ``privacy_`` is (α, 0) under :attr:`Relation.LABEL`.
    """

    relation = Relation.LABEL

    def __init__(
        self,
        epsilon: EpsilonArg = 1.0,
        accuracy: AccuracyArg = 0.1,
        confidence: ConfidenceArg = 0.05,
        *,
        idealised: FlagArg = False,
        random_state: RandomStateArg = None,
    ) -> None:
        self.epsilon = epsilon
        self.accuracy = accuracy
        self.confidence = confidence
        self.idealised = idealised
        self.random_state = random_state

    @property
    def hypothesis_class(self) -> str:
        """A2 learns thresholds."""
        return "threshold"

    def _candidates(self, s: dict[str, Any], X: Any) -> Boxes:
        """The (ε/4)-cover of (thresholds, ρ_X) built from the x's (label-independent)."""
        x = check_unit_cube(X, "X", d=1)[:, 0]
        return empirical_threshold_cover(x, s["accuracy"] / 4)

    def _certificate(self, s: dict[str, Any], size: int, m: int) -> float:
        return a2_certificate(size, m, s["epsilon"], s["accuracy"])
