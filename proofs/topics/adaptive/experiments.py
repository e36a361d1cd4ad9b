"""The adaptive game on a Markov chain, shared by ``dpspec adaptive`` and the tests: the worst
statistical error of the aggregation attack against each mechanism, as k grows."""

from __future__ import annotations

from typing import Any

import numpy as np

from dpspec.adaptive import (
    AggregationAttack,
    ExactAnswers,
    HomogeneousChain,
    LaplaceAnswers,
    RoundingAnswers,
    SplitAnswers,
    play,
)

MECHANISMS = ("exact", "laplace", "rounding", "split")


def chain(values: int, n: int, seed: int) -> HomogeneousChain:
    """Ω = {0..values−1}, potentials uniform in [1, 1.1] (fixed by ``seed``)."""
    g = 1 + 0.1 * np.random.default_rng(seed).random((values, values))
    return HomogeneousChain(g, n)


def attack_errors(
    mechanism: str, values: int, n: int, k: int, epsilon: float, reps: int, seed: int
) -> dict[str, Any]:
    """Mean over ``reps`` chains of the final round's statistical error |a_k − q_k(μ)| (the
    overfitting query) and of the worst empirical error."""
    rng = np.random.default_rng(seed)
    mc = chain(values, n, seed)
    population = mc.marginals().mean(axis=0)
    finals, empirical = [], []
    for sample in mc.draw(reps, rng):
        if mechanism == "exact":
            mech: Any = ExactAnswers(n)
        elif mechanism == "laplace":
            mech = LaplaceAnswers(n, k, epsilon, 1e-6)
        elif mechanism == "rounding":
            mech = RoundingAnswers(n, 1 / (2 * values))
        else:
            blocks = np.array_split(sample, k)
            mech = SplitAnswers(np.array([np.bincount(b, minlength=values) for b in blocks]))
        t = play(mech, AggregationAttack(population), sample, population, k, rng)
        finals.append(t.statistical_error[-1])
        empirical.append(max(t.empirical_error))
    return {
        "mechanism": mechanism,
        "k": k,
        "final_statistical_error": float(np.mean(finals)),
        "worst_empirical_error": float(np.mean(empirical)),
    }
