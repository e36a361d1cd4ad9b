"""The adaptive game (thesis ch. 7, Algorithm 1 rebuilt from ``002_9f3104e4a0d86722.txt``
L317–321, L615–627) with statistical queries q: Ω → {0, 1} on a sample S ∈ Ω^n.

A query is a boolean mask over Ω = {0..m−1}; q(S) = Σ_v hist_S(v)·q(v)/n (so every answer is a
function of the histogram of S, and n·q(S) is an integer count). In each round the analyst picks
q_i from the past answers and the mechanism answers a_i. Mechanisms (each answers samples of one
declared size n and refuses a sample of another size):

* :class:`ExactAnswers` — a_i = q_i(S) (not private: the control);
* :class:`LaplaceAnswers` — a_i = clip((n q_i(S) + Z)/n, 0, 1), Z discrete Laplace of scale 1/ε₀
  on the count (sensitivity 1 under substitution), exact; ε₀ is the largest per-answer level
  whose k-fold composition — basic (kε₀) or advanced (Dwork–Rothblum–Vadhan), whichever allows
  more — stays within the caller's (ε, δ) (Thm 1.3.2's mechanism, reconstructed);
  ``idealised=True`` adds continuous Laplace noise Lap(1/ε₀) instead (the paper's version);
* :class:`RoundingAnswers` — midpoint rounding on a grid of width 2α (Thm 7.2.8's compression:
  at most ⌈1/(2α)⌉ values per answer), error ≤ α;
* :class:`SplitAnswers` — round i answered exactly on the i-th of k disjoint blocks of S (the
  baseline).

Only :class:`LaplaceAnswers` states a privacy level; the other three answer deterministically
and are not differentially private for any ε.

Analysts: :class:`AggregationAttack` asks the singletons {v} (learning hist_S) and then the query
{v : a_v > p(v)} that overfits S — error TV(hist_S/n, p) against exact answers;
:class:`RandomAnalyst` asks random subsets.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Protocol, runtime_checkable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from dpspec.adaptive._domains import (
    _Answers,
    _BlockCounts,
    _Counts,
    _ProbabilityVector,
    _QueryMask,
)
from dpspec.contract import PrivacyLevel
from dpspec.noise import coarsen_up, discrete_laplace, discrete_laplace_pmf, discrete_laplace_sf
from dpspec.spec.composition import advanced_composition, per_step_epsilon
from dpspec.validation import (
    LIMITS,
    Anything,
    Array,
    Checked,
    EpsilonArg,
    FlagArg,
    GeneratorArg,
    Instance,
    Integer,
    PositiveDeltaArg,
    Real,
    SampleSizeArg,
    checked,
    example,
    rational_at_least,
    require_within,
)

#: Rounds one game (or one mechanism) runs at most.
MAX_ROUNDS = 2**20
#: The largest noise scale 1/ε₀ the exact discrete Laplace sampler draws with.
MAX_SCALE = 2**36
#: The largest number n of records a mechanism answers samples of (n is public: the substitution
#: relation keeps it): the answers n·q(S)/n and the noisy counts are floats, exact for integers up
#: to 2^53; a larger n (a sample size :data:`~dpspec.validation.SampleSizeArg` allows) is refused
#: before any work, naming ``n`` and this limit.
MAX_FLOAT_SAMPLE_SIZE = 2**53

#: Rounds of a game (the number of answers a mechanism is built for).
RoundsArg = Annotated[int, Integer(1, hi=MAX_ROUNDS, clean=3)]
#: The index i of the current round (0-based).
RoundArg = Annotated[int, Integer(0, hi=MAX_ROUNDS - 1, clean=0)]
#: The histogram of the sample, hist_S(v) for v ∈ Ω.
CountsArg = Annotated[ArrayLike, _Counts(ndim=1, kind="integer", clean=np.array([3, 2, 2, 1]))]
#: A statistical query q: Ω → {0, 1}.
QueryArg = Annotated[ArrayLike, _QueryMask()]
#: The answers so far.
AnswersArg = Annotated[NDArray[np.float64] | Sequence[float], _Answers()]
#: The midpoint grid's half-width α ∈ (0, ½].
HalfWidthArg = Annotated[float, Real(0, 0.5, lo_open=True, clean=0.125)]
#: The mean marginal p(v) = (1/n) Σ_i μ_i(v) of the population.
PopulationArg = Annotated[
    ArrayLike, _ProbabilityVector(ndim=1, clean=np.array([0.25, 0.25, 0.25, 0.25]))
]
#: Histograms of the k disjoint blocks of the sample.
BlockCountsArg = Annotated[
    ArrayLike, _BlockCounts(ndim=2, kind="integer", clean=np.array([[2, 1, 1, 0], [1, 1, 1, 1]]))
]
#: |Ω| for an analyst drawing random subsets.
ValuesArg = Annotated[int, Integer(1, limit="cells", clean=4)]
#: The sample S as values in Ω = {0..m−1}.
SampleArg = Annotated[
    ArrayLike, Array(ndim=1, kind="integer", clean=np.array([0, 1, 1, 2, 3, 0, 2, 0]))
]


def _float_exact(n: int) -> int:
    """``n``, refused (naming it and the limit) beyond :data:`MAX_FLOAT_SAMPLE_SIZE`."""
    if n > MAX_FLOAT_SAMPLE_SIZE:
        raise ValueError(
            f"n: must be an integer [1, {MAX_FLOAT_SAMPLE_SIZE}] (MAX_FLOAT_SAMPLE_SIZE: the "
            f"answers are floats, exact for counts up to 2^53), got {n!r}"
        )
    return n


def _count(counts: NDArray[np.int64], query: NDArray[np.bool_], n: int) -> int:
    """n·q(S) for a histogram of a sample of the declared size n."""
    if query.shape != counts.shape:
        raise ValueError(
            f"query: a mask over {counts.size} values expected, got {query.size} entries"
        )
    total = int(counts.sum())
    if total != n:
        raise ValueError(
            f"counts: the sample has {total} records; this mechanism answers samples of n = {n}"
        )
    return int(counts[query].sum())


@runtime_checkable
class AnswerMechanism(Protocol):
    """A mechanism of the game: the answer to round ``round_``'s query on the histogram of S."""

    def answer(
        self,
        counts: NDArray[np.int64],
        query: NDArray[np.bool_],
        round_: int,
        rng: np.random.Generator,
    ) -> float: ...


@runtime_checkable
class Analyst(Protocol):
    """An analyst of the game: the next query from the answers so far."""

    def query(self, answers: NDArray[np.float64]) -> NDArray[np.bool_]: ...


@example(__init__={"n": 8})
class ExactAnswers(Checked):
    """a = q(S) (no noise: the non-private control)."""

    def __init__(self, n: SampleSizeArg) -> None:
        self.n = _float_exact(n)

    def answer(
        self, counts: CountsArg, query: QueryArg, round_: RoundArg, rng: GeneratorArg
    ) -> float:
        """q(S) = n·q(S)/n."""
        return _count(counts, query, self.n) / self.n  # type: ignore[arg-type]


def _float_at_most(x: Fraction) -> float:
    """The largest float ≤ x (float(x) rounds to nearest, which may be above)."""
    f = float(x)
    return math.nextafter(f, -math.inf) if Fraction(f) > x else f


def _composition_plan(
    epsilon: float | Fraction, k: int, delta: float
) -> tuple[Fraction, float, float]:
    """(scale 1/ε₀ of the per-answer noise, composed ε', composed δ') for k answers within the
    caller's (ε, δ): ε₀ is the larger of the basic level ε/k (then (ε', δ') = (kε₀, 0)) and the
    advanced level of :func:`~dpspec.spec.composition.per_step_epsilon` (then ε' =
    ε₀√(2k ln(1/δ)) + kε₀(e^{ε₀} − 1), δ' = δ). The scale is rounded *up* to the sampler's
    rational grid, so the per-answer level 1/scale never exceeds ε₀."""
    basic = Fraction(epsilon) / k
    advanced = Fraction(per_step_epsilon(_float_at_most(Fraction(epsilon)), k, delta))
    use_basic = basic >= advanced
    step = basic if use_basic else advanced
    if step * MAX_SCALE < 1:
        raise ValueError(
            f"epsilon: the per-answer level ε₀ = {float(step):.3g} for k = {k} rounds is below "
            "2^-36 (the exact sampler's largest noise scale); use a larger epsilon or fewer rounds"
        )
    scale = coarsen_up(rational_at_least(1 / step, "epsilon"))
    step = 1 / scale
    if use_basic:
        return scale, _float_at_most(k * step), 0.0
    return scale, advanced_composition(float(step), 0.0, k, delta)[0], float(delta)


@example(
    __init__={"n": 8, "k": 3, "epsilon": 1.0, "delta": 1e-6},
    answer={
        "counts": np.array([3, 2, 2, 1]),
        "query": np.array([True, False, True, False]),
        "round_": 0,
    },
    answer_pmf={"counts": np.array([3, 2, 2, 1]), "query": np.array([True, False, True, False])},
)
class LaplaceAnswers(Checked):
    """Discrete Laplace noise on the count n·q(S), per-answer ε₀ from the k-fold composition
    (basic or advanced, whichever allows more) within the caller's (ε, δ); the answer is
    clipped to [0, 1]. ``idealised=True``: continuous Laplace noise of the same scale, drawn in
    floating point (the paper's version; its report says ``exact_sampler=False``).

    ``privacy`` is the level of the k answers together (the whole game's transcript, by
    post-processing every analyst's choices), for substitution of one record."""

    def __init__(
        self,
        n: SampleSizeArg,
        k: RoundsArg,
        epsilon: EpsilonArg,
        delta: PositiveDeltaArg,
        idealised: FlagArg = False,
    ) -> None:
        self.n, self.k, self.idealised = _float_exact(n), k, idealised
        self.scale, composed_epsilon, composed_delta = _composition_plan(epsilon, k, delta)
        #: the per-answer level ε₀ = 1/scale (exact rational)
        self.epsilon_step = float(1 / self.scale)
        self.privacy = PrivacyLevel(
            epsilon=composed_epsilon,
            ratio=math.exp(composed_epsilon),
            delta=composed_delta,
            exact_sampler=not idealised,
        )

    def answer(
        self, counts: CountsArg, query: QueryArg, round_: RoundArg, rng: GeneratorArg
    ) -> float:
        """clip((n·q(S) + Z)/n, 0, 1); round ``round_`` < k (the budget covers k answers)."""
        count = _count(counts, query, self.n)  # type: ignore[arg-type]
        if round_ >= self.k:
            raise ValueError(
                f"round_: this mechanism was built for k = {self.k} answers (its privacy budget "
                f"is spent), got round {round_}"
            )
        if self.idealised:
            noisy: float = count + float(rng.laplace(0.0, float(self.scale)))
        else:
            noisy = count + int(discrete_laplace(self.scale, 1, rng)[0])
        return min(max(noisy / self.n, 0.0), 1.0)

    def answer_pmf(self, counts: CountsArg, query: QueryArg) -> dict[float, float]:
        """The exact law of one answer (exact path): P(a = j/n) for j = 0..n, from the discrete
        Laplace law P(Z = z) = (1 − q)/(1 + q)·q^|z|, q = e^{−ε₀}, with the clipped tails on
        0 and 1 (floats: q is irrational)."""
        if self.idealised:
            raise ValueError(
                "idealised: the continuous answer has no pmf (its law has a density between "
                "the atoms at 0 and 1)"
            )
        require_within(self.n + 1, LIMITS["outcomes"], "counts", "outcomes")
        c = _count(counts, query, self.n)  # type: ignore[arg-type]
        q = math.exp(-1 / float(self.scale))
        law = {j / self.n: float(discrete_laplace_pmf(j - c, q)) for j in range(1, self.n)}
        law[0.0] = float(discrete_laplace_sf(c, q))  # P(c + Z ≤ 0) = P(Z ≥ c)
        law[1.0] = float(discrete_laplace_sf(self.n - c, q))  # P(c + Z ≥ n)
        return dict(sorted(law.items()))

    def error_bound(self, beta: Annotated[float, Real(0, 1, lo_open=True, hi_open=True)]) -> float:
        """The smallest α on the answers' grid with P(max_i |a_i − q_i(S)| > α) ≤ β over the k
        answers (Def 3.1.14, by the union bound: k·P(|Z| > αn) ≤ β; clipping only shrinks an
        error). Exact path: P(|Z| > t) = 2q^{t+1}/(1 + q) for integers t ≥ 0; idealised:
        P(|L| > t) = e^{−t/scale}, α = scale·ln(k/β)/n (the digest's ln(k/β)/(nε₀))."""
        scale = float(self.scale)
        if self.idealised:
            return max(0.0, scale * math.log(self.k / beta)) / self.n
        q = math.exp(-1 / scale)
        # the smallest integer t ≥ 0 with k·2q^{t+1}/(1 + q) ≤ β: the closed form, then the
        # neighbours it may miss by float rounding
        guess = math.ceil(math.log(beta * (1 + q) / (2 * self.k)) / math.log(q)) - 1
        for t in range(max(0, guess - 2), max(0, guess - 2) + 5):
            if self.k * 2 * q ** (t + 1) / (1 + q) <= beta:
                return t / self.n
        raise ArithmeticError(f"beta: no error bound found near t = {guess}")


@example(__init__={"n": 8})
class RoundingAnswers(Checked):
    """Midpoint of the 2α-grid cell holding q(S): j = min(⌊q/(2α)⌋, m − 1), a = (2j + 1)α with
    m = ⌈1/(2α)⌉ cells (deterministic: no privacy level; it compresses each answer to one of
    m values)."""

    def __init__(self, n: SampleSizeArg, alpha: HalfWidthArg) -> None:
        self.n = _float_exact(n)
        self.alpha = alpha
        self.cells = math.ceil(1 / (2 * alpha))

    def answer(
        self, counts: CountsArg, query: QueryArg, round_: RoundArg, rng: GeneratorArg
    ) -> float:
        """(2j + 1)α for the cell j of q(S)."""
        value = _count(counts, query, self.n) / self.n  # type: ignore[arg-type]
        j = min(int(value / (2 * self.alpha)), self.cells - 1)
        return (2 * j + 1) * self.alpha


class SplitAnswers(Checked):
    """Round i is answered exactly on block i of k disjoint blocks (``block_counts``: the
    histograms of the blocks, which partition the sample the game is played on)."""

    def __init__(self, block_counts: BlockCountsArg) -> None:
        self.blocks: NDArray[np.int64] = block_counts  # type: ignore[assignment]

    def answer(
        self, counts: CountsArg, query: QueryArg, round_: RoundArg, rng: GeneratorArg
    ) -> float:
        """q(block_i) on block i = ``round_``."""
        k, width = self.blocks.shape
        if round_ >= k:
            raise ValueError(f"round_: only {k} blocks, so at most {k} rounds; got {round_}")
        if query.shape != (width,):  # type: ignore[union-attr]
            raise ValueError(f"query: a mask over {width} values expected, got {query.shape}")  # type: ignore[union-attr]
        if not np.array_equal(self.blocks.sum(axis=0), counts):
            raise ValueError("counts: the blocks do not partition this sample")
        block = self.blocks[round_]
        return float(block[query].sum()) / int(block.sum())


@example(__init__={"population": np.array([0.25, 0.25, 0.25, 0.25])}, query={"answers": []})
class AggregationAttack(Checked):
    """Singletons {v} for v ∈ Ω, then {v : a_v > p(v)} (``population``: p(v) = mean_i μ_i(v))
    in every later round."""

    def __init__(self, population: PopulationArg) -> None:
        self.p: NDArray[np.float64] = population  # type: ignore[assignment]

    def query(self, answers: AnswersArg) -> NDArray[np.bool_]:
        """The next query given the answers so far."""
        m = self.p.size
        if len(answers) < m:
            mask = np.zeros(m, dtype=bool)
            mask[len(answers)] = True
            return mask
        return np.asarray(np.asarray(answers)[:m] > self.p)


class RandomAnalyst(Checked):
    """Independent uniformly random subsets of Ω = {0..values−1} (its own randomness)."""

    def __init__(self, values: ValuesArg, rng: GeneratorArg) -> None:
        self.values, self._rng = values, rng

    def query(self, answers: AnswersArg) -> NDArray[np.bool_]:
        """A fresh random subset."""
        return np.asarray(self._rng.random(self.values) < 0.5)


@dataclass
class Transcript(Checked):
    """Queries, answers, and each answer's empirical error |a_i − q_i(S)| and statistical error
    |a_i − q_i(μ)|."""

    queries: Annotated[list[NDArray[np.bool_]], Anything(why="filled by play")] = field(
        default_factory=list
    )
    answers: Annotated[list[float], Anything(why="filled by play")] = field(default_factory=list)
    empirical_error: Annotated[list[float], Anything(why="filled by play")] = field(
        default_factory=list
    )
    statistical_error: Annotated[list[float], Anything(why="filled by play")] = field(
        default_factory=list
    )


MechanismArg = Annotated[AnswerMechanism, Instance(types=(AnswerMechanism,))]
AnalystArg = Annotated[Analyst, Instance(types=(Analyst,))]


@example(
    __call__={
        "mechanism": ExactAnswers(8),
        "analyst": AggregationAttack(np.array([0.25, 0.25, 0.25, 0.25])),
        "sample": np.array([0, 1, 1, 2, 3, 0, 2, 0]),
        "population": np.array([0.25, 0.25, 0.25, 0.25]),
        "k": 5,
        "rng": np.random.default_rng(0),
    }
)
@checked
def play(
    mechanism: MechanismArg,
    analyst: AnalystArg,
    sample: SampleArg,
    population: PopulationArg,
    k: RoundsArg,
    rng: GeneratorArg,
) -> Transcript:
    """Game(M, k, A, S): k rounds; q(μ) = Σ_v p(v) q(v) with p the mean marginal. The
    mechanism draws its randomness from ``rng``. At most ``LIMITS["cells"]`` query entries
    (k·|Ω|) per game."""
    p = np.asarray(population, dtype=np.float64)  # checked: a probability vector
    s = np.asarray(sample, dtype=np.int64)  # checked: a non-empty 1-D integer array
    values = p.size
    require_within(k * values, LIMITS["cells"], "k", "query entries (k·|Ω|)")
    if int(s.min()) < 0 or int(s.max()) >= values:
        raise ValueError(f"sample: values must be in [0, {values}) (Ω of the population)")
    counts = np.bincount(s, minlength=values)
    n = int(counts.sum())
    out = Transcript()
    mask_domain = _QueryMask()
    answers = np.empty(k, dtype=np.float64)  # the answers so far: answers[:i] (a view)
    for i in range(k):
        q = mask_domain.check(analyst.query(answers[:i]), "analyst")
        if q.size != values:
            raise ValueError(f"analyst: returned a mask over {q.size} values, |Ω| = {values}")
        a = mechanism.answer(counts, q, i, rng)
        real = isinstance(a, (float, int, np.floating, np.integer))
        if isinstance(a, (bool, np.bool_)) or not real or not 0 <= float(a) <= 1:
            raise ValueError(f"mechanism: answers must be reals in [0, 1], got {a!r:.40}")
        answers[i] = float(a)
        out.queries.append(q)
        out.empirical_error.append(abs(float(a) - float(counts[q].sum()) / n))
        out.statistical_error.append(abs(float(a) - float(p[q].sum())))
    out.answers = answers.tolist()
    return out
