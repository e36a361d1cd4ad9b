"""Thesis ch. 7: Gibbs dependence, Markov chains, the tight example, the game, errata."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from dpspec.adaptive import (
    AggregationAttack,
    ExactAnswers,
    HomogeneousChain,
    LaplaceAnswers,
    RoundingAnswers,
    play,
    tight_example,
)
from dpspec.proofs.engine.registry import VerifyConfig
from dpspec.proofs.topics.adaptive import checks
from dpspec.spec import adaptive as ad

CONFIG = VerifyConfig()


def test_gibbs_dependence() -> None:
    # two perfectly correlated bits: ψ = 1/2 (each conditional is a point mass vs a fair coin)
    mu = {(0, 0): Fraction(1, 2), (1, 1): Fraction(1, 2)}
    assert ad.gibbs_dependence(mu) == Fraction(1, 2)
    assert ad.total_variation(mu, ad.product_of_marginals(mu)) == Fraction(1, 2)
    assert checks.gibbs_properties(CONFIG).passed


def test_markov_chains() -> None:
    mu = ad.markov_chain(checks.COUNTER, (0, 1))
    assert sum(mu.values()) == 1 and len(mu) == 16
    assert ad.gibbs_dependence(mu) == Fraction(13, 40)
    assert ad.gibbs_dependence(ad.skip(mu, 2)) == Fraction(1, 8)
    assert ad.r_bar(checks.COUNTER) == Fraction(4, 5)
    chain = HomogeneousChain([[3.0, 1.0], [1.0, 3.0]], 4)
    law = chain.law()
    assert all(abs(law[x] - float(p)) < 1e-12 for x, p in mu.items())
    marg = chain.marginals()
    assert np.allclose(marg, [[float(ad.marginal(mu, i)[v]) for v in (0, 1)] for i in range(4)])
    draws = chain.sample(20_000, np.random.default_rng(0))
    assert (
        abs(float(np.mean(np.all(draws == draws[:, :1], axis=1))) - float(mu[(0,) * 4] * 2)) < 0.02
    )
    for check in (checks.lemma_733, checks.thm_736, checks.r_bar_printed):
        assert check(CONFIG).passed


def test_tight_example() -> None:
    x = tight_example(5, 200, 1.0, 3, np.random.default_rng(1))
    assert np.all(x == x[:, :1])
    assert checks.tight_example_check(CONFIG).passed


def test_game() -> None:
    rng = np.random.default_rng(2)
    population = np.full(4, 0.25)
    sample = rng.integers(0, 4, size=400)
    t = play(ExactAnswers(400), AggregationAttack(population), sample, population, 5)
    hist = np.bincount(sample, minlength=4) / 400
    assert t.empirical_error == [0.0] * 5
    assert t.statistical_error[-1] == pytest.approx(0.5 * np.abs(hist - 0.25).sum())
    r = play(RoundingAnswers(400, 0.05), AggregationAttack(population), sample, population, 5)
    assert max(r.empirical_error) <= 0.05 + 1e-12
    lap = LaplaceAnswers(400, 5, 1.0, 1e-6, rng)
    assert 0 < lap.epsilon_step < 1.0
    assert all(
        0 <= a <= 1 for a in play(lap, AggregationAttack(population), sample, population, 5).answers
    )
    assert checks.rounding_compression(CONFIG).passed
    with pytest.raises(ValueError, match="potential"):
        HomogeneousChain([[1.0, -1.0], [1.0, 1.0]], 3)
    with pytest.raises(ValueError, match="alpha"):
        RoundingAnswers(10, 0.0)


def test_errata() -> None:
    assert checks.lemma_715_chernoff(CONFIG).passed


def test_command() -> None:
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-m", "dpspec.proofs.cli", "adaptive", "--n", "300", "--reps", "3"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "laplace" in run.stdout and "exact" in run.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "dpspec.proofs.cli", "adaptive", "--k", "3"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and "--k" in bad.stderr


def test_deviating_algorithm() -> None:
    import math

    import numpy as np
    import pytest

    from dpspec.adaptive import DeviatingAlgorithm, minimum_sample_size, predicate_mechanism_gap
    from dpspec.adaptive.deviating import NOTHING, TAIL

    alg = DeviatingAlgorithm(3, base=Fraction(1, 2), delta=Fraction(1, 8))
    law = alg.law((0, 0, 0, 1), 20)
    assert sum(law.values()) == 1 and law[TAIL] >= 0
    # τ = 5 with q = 1/2: nothing is released unless a noisy count reaches 5
    tau = int(alg.histogram.threshold)
    assert tau == 5
    tail = Fraction(1, 2) ** (tau - 3) / Fraction(3, 2)  # P(3 + Z ≥ τ)
    assert law[NOTHING] == (1 - tail) * (1 - Fraction(1, 2) ** (tau - 1) / Fraction(3, 2))
    runs = alg.sample((0, 0, 0, 1), 20_000, np.random.default_rng(0))
    assert set(np.unique(runs).tolist()) <= {NOTHING, 0, 1}
    assert abs(float(np.mean(runs == 0)) - float(law[0])) < 0.02
    assert alg.run((2, 2, 2, 2), np.random.default_rng(1)) in (None, 2)
    assert minimum_sample_size(0.5, 1.0, 1e-3, 0.1) == math.ceil(4 * (1 + 2 * math.log(1e4)))
    with pytest.raises(ValueError, match="psi"):
        minimum_sample_size(1.5, 1.0, 1e-3, 0.1)
    product = {x: Fraction(1, 81) for x in __import__("itertools").product(range(3), repeat=4)}
    gap, bound = predicate_mechanism_gap(product, 3, 1.0)
    assert 0 < gap < bound == math.expm1(1.0)
    assert checks.algorithm10_privacy(CONFIG).passed


def test_predicate_mechanism() -> None:
    """Lemma 7.1.1's A′ in Fractions, against values computed by hand."""
    from itertools import product

    from dpspec.adaptive import PredicateMechanism, minimum_sample_size

    # q = 1/2, p̄ = (1/4, 1/4, 1/2), n = 4, S = (0, 0, 0, 0): weight of h is
    # 2^{4h(0) − (h(0) + h(1) + 2h(2))}: 8, 1, 4, 2, 1, 1/2, 1/4, 1/8, total 135/8
    mech = PredicateMechanism(
        3, 4, Fraction(1, 2), [Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)]
    )
    law = mech.law((0, 0, 0, 0))
    assert law[(1, 0, 0)] == Fraction(64, 135) and law[(0, 1, 1)] == Fraction(1, 135)
    assert sum(law.values()) == 1
    # two values, n = 2, μ uniform on {0,1}²: S = (0,0) gives weights 2^{h0 − h1} and
    # E[score] = (2·½ − ½·½)/(9/2) = 1/6; (1,1) likewise; (0,1), (1,0) give uniform h, score 0
    two = PredicateMechanism(2, 2, Fraction(1, 2), [Fraction(1, 2), Fraction(1, 2)])
    uniform = {x: Fraction(1, 4) for x in product((0, 1), repeat=2)}
    assert two.gap(uniform) == Fraction(1, 12)
    with pytest.raises(ValueError, match="base"):
        PredicateMechanism(2, 2, Fraction(3, 2), [Fraction(1, 2), Fraction(1, 2)])
    with pytest.raises(TypeError, match="base"):
        PredicateMechanism(2, 2, 0.5, [Fraction(1, 2), Fraction(1, 2)])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="population"):
        PredicateMechanism(2, 2, Fraction(1, 2), [Fraction(1, 2), Fraction(1, 3)])
    with pytest.raises(ValueError, match="data"):
        two.law((0, 2))
    with pytest.raises(ValueError, match="law"):
        two.gap({(0, 0): Fraction(1)})  # average marginal (1, 0) ≠ (1/2, 1/2)
    with pytest.raises(TypeError, match="beta"):
        minimum_sample_size(0.5, 1.0, 1e-3, "0.1")  # type: ignore[arg-type]
    outcome = checks.lemma_711(CONFIG)
    assert outcome.passed, outcome.detail
    assert Fraction(outcome.numbers["argmax_gap"]) > Fraction(441, 400) - 1
    assert outcome.numbers["float_agreement"] < 1e-9
