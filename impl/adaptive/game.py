"""The adaptive game (thesis ch. 7, Algorithm 1 rebuilt from L317–321, L615–627) with
statistical queries q: Ω → {0, 1} on a sample S ∈ Ω^n.

A query is a boolean mask over Ω = {0..m−1}; q(S) = Σ_v hist_S(v)·q(v)/n (so every answer is a
function of the histogram of S, and n·q(S) is an integer count). In each round the analyst picks
q_i from the past answers and the mechanism answers a_i. Mechanisms:

* :class:`ExactAnswers` — a_i = q_i(S) (not private: the control);
* :class:`LaplaceAnswers` — a_i = clip((n q_i(S) + Z)/n, 0, 1), Z discrete Laplace of scale 1/ε₀
  on the count (sensitivity 1 under substitution), exact; ε₀ chosen so that k answers compose to
  the caller's (ε, δ) by advanced composition (Thm 1.3.2's mechanism, reconstructed);
* :class:`RoundingAnswers` — midpoint rounding on a grid of width 2α (Thm 7.2.8's compression:
  at most ⌈1/(2α)⌉ values per answer), error ≤ α;
* :class:`SplitAnswers` — round i answered on the i-th of k disjoint blocks of S (the baseline).

Analysts: :class:`AggregationAttack` asks the singletons {v} (learning hist_S) and then the query
{v : a_v > p(v)} that overfits S — error TV(hist_S/n, p) against exact answers;
:class:`RandomAnalyst` asks random subsets.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from dpspec.noise import discrete_laplace
from dpspec.spec.composition import per_step_epsilon
from dpspec.validation import check_count, check_delta, check_epsilon, check_positive, check_rng


class Mechanism(Protocol):
    def answer(self, counts: NDArray[np.int64], query: NDArray[np.bool_], round_: int) -> float: ...


class Analyst(Protocol):
    def query(self, answers: list[float]) -> NDArray[np.bool_]: ...


class ExactAnswers:
    """a = q(S)."""

    def __init__(self, counts_total: int) -> None:
        self.n = counts_total

    def answer(self, counts: NDArray[np.int64], query: NDArray[np.bool_], round_: int) -> float:
        return float(counts[query].sum()) / self.n


class LaplaceAnswers:
    """Discrete Laplace on the count, per-answer ε₀ from advanced composition over k rounds."""

    def __init__(
        self, n: int, k: int, epsilon: float, delta: float, rng: np.random.Generator
    ) -> None:
        self.n, self.k = check_count(n, "n"), check_count(k, "k")
        check_epsilon(epsilon)
        delta = check_delta(delta, allow_zero=False)
        self.epsilon_step = per_step_epsilon(epsilon, k, delta)
        self.scale = Fraction(1) / Fraction(self.epsilon_step)
        self.rng = check_rng(rng)

    def answer(self, counts: NDArray[np.int64], query: NDArray[np.bool_], round_: int) -> float:
        noisy = int(counts[query].sum()) + int(discrete_laplace(self.scale, 1, self.rng)[0])
        return min(max(noisy / self.n, 0.0), 1.0)


class RoundingAnswers:
    """Midpoint of the 2α-grid cell holding q(S): j = min(⌊q/(2α)⌋, m − 1), a = (2j + 1)α."""

    def __init__(self, n: int, alpha: float) -> None:
        self.n = check_count(n, "n")
        self.alpha = check_positive(alpha, "alpha", maximum=0.5)
        self.cells = math.ceil(1 / (2 * self.alpha))

    def answer(self, counts: NDArray[np.int64], query: NDArray[np.bool_], round_: int) -> float:
        value = float(counts[query].sum()) / self.n
        j = min(int(value / (2 * self.alpha)), self.cells - 1)
        return (2 * j + 1) * self.alpha


class SplitAnswers:
    """Round i is answered exactly on block i of k disjoint blocks (``block_counts``)."""

    def __init__(self, block_counts: NDArray[np.int64]) -> None:
        self.blocks = np.asarray(block_counts, dtype=np.int64)

    def answer(self, counts: NDArray[np.int64], query: NDArray[np.bool_], round_: int) -> float:
        block = self.blocks[round_ % self.blocks.shape[0]]
        return float(block[query].sum()) / max(1, int(block.sum()))


class AggregationAttack:
    """Singletons {v} for v ∈ Ω, then {v : a_v > p(v)} (``population``: p(v) = mean_i μ_i(v))."""

    def __init__(self, population: NDArray[np.float64]) -> None:
        self.p = np.asarray(population, dtype=np.float64)

    def query(self, answers: list[float]) -> NDArray[np.bool_]:
        m = self.p.size
        if len(answers) < m:
            mask = np.zeros(m, dtype=bool)
            mask[len(answers)] = True
            return mask
        return np.asarray(np.array(answers[:m]) > self.p)


class RandomAnalyst:
    """Independent uniformly random subsets of Ω."""

    def __init__(self, values: int, rng: np.random.Generator) -> None:
        self.values, self.rng = values, rng

    def query(self, answers: list[float]) -> NDArray[np.bool_]:
        return np.asarray(self.rng.random(self.values) < 0.5)


@dataclass
class Transcript:
    """Queries, answers, and each answer's empirical and statistical error."""

    queries: list[NDArray[np.bool_]] = field(default_factory=list)
    answers: list[float] = field(default_factory=list)
    empirical_error: list[float] = field(default_factory=list)
    statistical_error: list[float] = field(default_factory=list)


def play(
    mechanism: Mechanism,
    analyst: Analyst,
    sample: NDArray[np.int64],
    population: NDArray[np.float64],
    k: int,
) -> Transcript:
    """Game(M, k, A, S): k rounds; q(μ) = Σ_v p(v) q(v) with p the mean marginal."""
    values = population.size
    counts = np.bincount(np.asarray(sample).reshape(-1), minlength=values)
    n = int(counts.sum())
    out = Transcript()
    for i in range(check_count(k, "k")):
        q = analyst.query(out.answers)
        a = mechanism.answer(counts, q, i)
        out.queries.append(q)
        out.answers.append(a)
        out.empirical_error.append(abs(a - float(counts[q].sum()) / n))
        out.statistical_error.append(abs(a - float(population[q].sum())))
    return out
