"""One-run auditing (Steinke, Nasr & Jagielski, "Privacy auditing with one (1) training run",
NeurIPS 2023, arXiv:2305.08846): an ε lower bound from a single fit.

The game: m canaries, canary i included in the training data iff S_i = 1, S_i i.i.d. fair
coins drawn by the auditor; the learner is fitted **once**; a score per canary is read off the
released model (higher = "looks included"); the auditor guesses "in" for the k₊ highest scores
and "out" for the k₋ lowest (r = k₊ + k₋ guesses, ties broken by an independent uniform
permutation) and counts the correct guesses W.

The bound: if the learner is ε-DP under adding/removing one record, W given the guesses is
stochastically dominated by Binomial(r, e^ε/(1 + e^ε)) (the paper's main theorem; the canaries
act as r uses of ε-randomized response). Hence every ε with
P[Bin(r, e^ε/(1 + e^ε)) ≥ W] < α is rejected, and

    ε_LB = logit(p_lo),   p_lo the one-sided Clopper–Pearson lower bound of W out of r,

holds with probability ≥ 1 − α = ``confidence``. For (ε, δ)-DP the p-value gains
2mδ·max_{1≤i≤W} P[W − i ≤ Bin(r, q) < W]/i (the paper's δ term) and ε_LB is found by bisection.

What is audited is **add/remove** privacy of one record (a canary is in or out). A learner
stated under substitution at ε is 2ε-DP under add/remove in general; PCL with a fixed grid is
exactly ε/2-DP under add/remove (one record moves a cube's margin 2Σy − |C| by 1 against noise
∝ e^{−ε|z|/2}), which makes it the test bed: a canary alone in its cube is guessed right with
probability exactly 1/(1 + e^{−ε/2}) = e^{ε/2}/(1 + e^{ε/2}) whether in or out, so W is
exactly Bin(r, ·) at the true ε and the bound is tight as m grows.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray
from scipy import stats

from dpspec.audit._domains import (
    ConfidenceArg,
    LabelledArg,
    SeedArg,
    _example_classifier,
    _example_scores,
)
from dpspec.audit._targets import MechanismError
from dpspec.audit.bounds import _cp_lower
from dpspec.validation import (
    DeltaArg,
    Function,
    Instance,
    Integer,
    Real,
    check_count,
    checked,
    example,
)

#: Largest number of canaries (the scores are held in memory, the guesses sorted).
MAX_CANARIES = 10**8

TrainAndScore = Callable[[NDArray[np.bool_], np.random.Generator], Any]


#: A number of canaries or guesses.
CanariesArg = Annotated[int, Integer(1, hi=MAX_CANARIES, clean=100)]
#: A number of right guesses.
CorrectArg = Annotated[int, Integer(0, hi=MAX_CANARIES, clean=30)]
#: A claimed ε ≥ 0 (0 is a claim an audit can refute).
ClaimedArg = Annotated[float, Real(0.0, clean=1.0)]


@checked
@example(__call__={"m": 100, "r": 50, "correct": 30})
def one_run_pvalue(
    m: CanariesArg, r: CanariesArg, correct: CorrectArg, epsilon: ClaimedArg, delta: DeltaArg = 0.0
) -> float:
    """P-value of ``correct`` right guesses out of ``r`` among ``m`` canaries under the
    hypothesis "(ε, δ)-DP under add/remove": P[Bin(r, q) ≥ W] + 2mδ·max_i P[W−i ≤ Bin < W]/i,
    q = e^ε/(1 + e^ε) (the δ term only when δ > 0)."""
    if correct > r or r > m:
        raise ValueError(f"correct: expected correct ≤ r ≤ m, got {correct}, {r}, {m}")
    return _one_run_pvalue(m, r, correct, epsilon, delta)


def _one_run_pvalue(m: int, r: int, correct: int, epsilon: float, delta: float) -> float:
    """The kernel of :func:`one_run_pvalue` (the bisection calls it on checked arguments)."""
    q = 1.0 / (1.0 + math.exp(-epsilon))
    tail = float(stats.binom.sf(correct - 1, r, q))
    if delta == 0 or correct == 0:
        return min(tail, 1.0)
    below = stats.binom.cdf(correct - 1, r, q)  # P[Bin < W]
    i = np.arange(1, correct + 1)
    window = below - stats.binom.cdf(correct - 1 - i, r, q)  # P[W − i ≤ Bin < W]
    return min(tail + 2 * m * delta * float(np.max(window / i)), 1.0)


@checked
@example(__call__={"correct": 30, "guesses": 50})
def one_run_epsilon_lower(
    correct: CorrectArg,
    guesses: CanariesArg,
    confidence: ConfidenceArg = 0.95,
    delta: DeltaArg = 0.0,
    canaries: Annotated[int, Integer(0, hi=MAX_CANARIES)] = 0,
) -> float:
    """ε_LB from W = ``correct`` of r = ``guesses``: logit of the Clopper–Pearson lower bound
    when δ = 0 (exact inversion of the binomial tail); with δ > 0, the largest ε whose p-value
    (:func:`one_run_pvalue`, m = ``canaries``) is below 1 − confidence, by bisection to 1e-9.
    −inf when no ε ≥ −∞ is rejected (W = 0)."""
    r, w = guesses, correct
    if w > r:
        raise ValueError(f"correct: expected an integer in [0, {r}], got {correct!r}")
    alpha = 1.0 - confidence
    if delta == 0:
        p_lo = float(_cp_lower(w, r, alpha))
        if p_lo <= 0:
            return -math.inf
        return math.inf if p_lo >= 1 else math.log(p_lo / (1 - p_lo))
    m = canaries
    if m < r:
        raise ValueError(f"canaries: at least the {r} guesses, got {m}")
    if _one_run_pvalue(m, r, w, 0.0, delta) >= alpha:
        return 0.0 if w > r / 2 else -math.inf  # nothing above 0 is rejected
    lo, hi = 0.0, 1.0
    while _one_run_pvalue(m, r, w, hi, delta) < alpha and hi < 700:
        lo, hi = hi, 2 * hi
    while hi - lo > 1e-9:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _one_run_pvalue(m, r, w, mid, delta) < alpha else (lo, mid)
    return lo


@dataclass
class OneRunResult:
    """One one-run audit: W of r guesses right among m canaries; ``epsilon_lower`` holds with
    probability ≥ ``confidence`` (add/remove ε); ``violation`` = it exceeds the claim. A
    negative ``epsilon_lower`` (fewer than half the guesses right at δ = 0) is kept as the
    bound computed: it says nothing about the claim (every ε ≥ 0 is above it), it is not an
    error."""

    __dpspec_declarative__ = "one one-run audit (a record the audit returns)"

    epsilon_claimed: float
    delta: float
    epsilon_lower: float
    confidence: float
    canaries: int
    guesses: int
    correct: int
    violation: bool
    _seconds: float = field(default=0.0, repr=False)

    @property
    def seconds(self) -> float:
        """The wall-clock time the audit took (not part of the result's value)."""
        return self._seconds

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["seconds"] = out.pop("_seconds")
        for key in ("epsilon_lower",):
            if math.isinf(out[key]):
                out[key] = "inf" if out[key] > 0 else "-inf"
        return out


#: ``guesses``: (k_in, k_out), or None for (m//2, m//2).
GuessesArg = Annotated[tuple[int, int] | None, Instance(types=(tuple, list), optional=True)]


@checked
@example(__call__={"train_and_score": _example_scores, "canaries": 100, "epsilon": 1.0})
def one_run_audit(
    train_and_score: Annotated[TrainAndScore, Function(clean=_example_scores)],
    canaries: CanariesArg,
    epsilon: ClaimedArg,
    delta: DeltaArg = 0.0,
    guesses: GuessesArg = None,
    confidence: ConfidenceArg = 0.95,
    seed: SeedArg = 0,
) -> OneRunResult:
    """Audit an (ε, δ) add/remove claim with one fit.

    ``train_and_score(included, rng)`` fits the learner once on the fixed data plus the
    canaries i with ``included[i]`` and returns one score per canary (length m, higher =
    "included"); it must not look at ``included`` otherwise. ``guesses`` = (k₊, k₋), default
    (m//2, m//2): guess "in" for the k₊ highest scores and "out" for the k₋ lowest.
    """
    start = time.perf_counter()
    m, eps = canaries, epsilon
    if guesses is None:
        k_in, k_out = m // 2, m // 2
    elif len(guesses) != 2:
        raise ValueError(f"guesses: expected a pair (k_in, k_out), got {guesses!r}")
    else:
        k_in = check_count(guesses[0], "guesses", minimum=0, maximum=m)
        k_out = check_count(guesses[1], "guesses", minimum=0, maximum=m)
    if k_in + k_out > m:
        raise ValueError(f"guesses: expected (k_in, k_out) ≥ 0 with sum ≤ {m}, got {guesses!r}")
    if k_in + k_out == 0:
        raise ValueError("guesses: at least one guess is needed")
    rng = np.random.default_rng(seed)
    included = rng.random(m) < 0.5
    try:
        raw = train_and_score(included.copy(), rng)
    except Exception as exc:
        raise MechanismError(f"train_and_score: raised {type(exc).__name__}: {exc}") from exc
    scores = np.asarray(raw)
    if scores.dtype.kind not in "biuf":
        raise ValueError(
            f"train_and_score: expected {m} real scores, got values of dtype {scores.dtype}"
        )
    scores = scores.astype(np.float64)
    if scores.shape != (m,) or not np.all(np.isfinite(scores)):
        raise ValueError(f"train_and_score: expected {m} finite scores, got shape {scores.shape}")
    # rank by score, ties in an order drawn independently of S: lexsort's last key is primary
    order = np.lexsort((rng.permutation(m), scores))
    right = int(included[order[m - k_in :]].sum()) + int((~included[order[:k_out]]).sum())
    r = k_in + k_out
    lcb = one_run_epsilon_lower(right, r, confidence, delta, m)
    return OneRunResult(
        eps,
        delta,
        lcb,
        confidence,
        m,
        r,
        right,
        lcb > eps,
        _seconds=time.perf_counter() - start,
    )


@checked
@example(__call__={"factory": _example_classifier, "epsilon": 1.0})
def learner_one_run(
    factory: Annotated[Callable[[int], Any], Function(clean=_example_classifier)],
    background: LabelledArg,
    canaries: LabelledArg,
    epsilon: ClaimedArg,
    delta: DeltaArg = 0.0,
    guesses: GuessesArg = None,
    confidence: ConfidenceArg = 0.95,
    seed: SeedArg = 0,
) -> OneRunResult:
    """One-run audit of a classifier: fit ``factory(seed)`` once on ``background`` (X, y) plus
    the included canaries (Xc, yc); the score of canary i is 1 when the model predicts its
    label yc_i at Xc_i, else 0 (membership read off the released hypothesis)."""
    Xb, yb = (np.asarray(v) for v in background)
    Xc, yc = (np.asarray(v) for v in canaries)
    if Xc.ndim != 2 or yc.shape != (Xc.shape[0],):
        raise ValueError("canaries: expected (Xc, yc) with Xc of shape (m, d) and yc of (m,)")

    def train_and_score(included: NDArray[np.bool_], rng: np.random.Generator) -> Any:
        X = np.concatenate([Xb, Xc[included]])
        y = np.concatenate([yb, yc[included]])
        model = factory(int(rng.integers(0, 2**62))).fit(X, y)
        return (np.asarray(model.predict(Xc)) == yc).astype(np.float64)

    return one_run_audit(train_and_score, Xc.shape[0], epsilon, delta, guesses, confidence, seed)
