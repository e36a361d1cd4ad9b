"""Thesis ch. 7: behaviour of the adaptive-data-analysis family and the regressions found in review
(each reproducer is refused by name, before any work, or answered correctly). The registered
checks themselves run in ``tests/test_verifiers.py``."""

from __future__ import annotations

import math
import resource
import subprocess
import sys
import warnings
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from dpspec.adaptive import (
    NOTHING,
    AggregationAttack,
    DeviatingAlgorithm,
    ExactAnswers,
    HomogeneousChain,
    LaplaceAnswers,
    PredicateMechanism,
    RandomAnalyst,
    RoundingAnswers,
    SplitAnswers,
    minimum_sample_size,
    play,
    predicate_mechanism_gap,
    tight_example,
    tight_example_law,
)
from dpspec.proofs.engine.sweep import least_cpu_seconds
from dpspec.spec import adaptive as ad
from dpspec.spec.composition import advanced_composition, per_step_epsilon

RNG = np.random.default_rng
POPULATION = np.full(4, 0.25)
SAMPLE = np.array([0, 1, 1, 2, 3, 0, 2, 0])


def _refused(call, name: str, budget: float = 0.1) -> None:  # type: ignore[no-untyped-def]
    """``call`` raises a ValueError/TypeError naming ``name`` within ``budget`` CPU seconds."""

    def refusal() -> None:
        with pytest.raises((ValueError, TypeError), match=name):
            call()

    assert least_cpu_seconds(refusal, budget) < budget


# ---------------------------------------------------------------------------------------------
# dependence measures


def test_gibbs_dependence() -> None:
    # two perfectly correlated bits: ψ = 1/2 (each conditional is a point mass vs a fair coin)
    mu = {(0, 0): Fraction(1, 2), (1, 1): Fraction(1, 2)}
    assert ad.gibbs_dependence(mu) == Fraction(1, 2)
    assert ad.total_variation(mu, ad.product_of_marginals(mu)) == Fraction(1, 2)
    # a product law has ψ = 0
    prod = {x: Fraction(1, 4) for x in product((0, 1), repeat=2)}
    assert ad.gibbs_dependence(prod) == 0


def test_markov_chains() -> None:
    g = [{(a, b): Fraction(3 if a == b else 1) for a in (0, 1) for b in (0, 1)}] * 3
    mu = ad.markov_chain(g, (0, 1))
    assert sum(mu.values()) == 1 and len(mu) == 16
    assert ad.gibbs_dependence(mu) == Fraction(13, 40)
    assert ad.gibbs_dependence(ad.skip(mu, 2)) == Fraction(1, 8)
    assert ad.r_bar(g) == Fraction(4, 5)
    chain = HomogeneousChain([[3.0, 1.0], [1.0, 3.0]], 4)
    law = chain.pmf()
    assert all(abs(law[x] - float(p)) < 1e-12 for x, p in mu.items())
    assert chain.pmf(window=((0, 0, 0, 0), (0, 0, 1, 1))) == {
        x: p for x, p in law.items() if x <= (0, 0, 1, 1)
    }
    marg = chain.marginals()
    assert np.allclose(marg, [[float(ad.marginal(mu, i)[v]) for v in (0, 1)] for i in range(4)])
    draws = chain.draw(20_000, RNG(0))
    together = float(np.mean(np.all(draws == draws[:, :1], axis=1)))
    assert abs(together - float(mu[(0,) * 4] * 2)) < 0.02
    with pytest.warns(DeprecationWarning):
        assert chain.law() == law
    # Lemma 7.3.9 is attained: f = (R, r), g = (r, R)
    assert ad.kontorovich_distance([1, 1], [3, 1], [1, 3]) == Fraction(1, 2)


def test_tight_example() -> None:
    x = tight_example(5, 200, 1.0, 3, RNG(1))
    assert np.all(x == x[:, :1])
    law = tight_example_law(2, 2, Fraction(1, 2))
    # x* uniform on {0, 1}; each coordinate copies it w.p. ½: P(00) = ½(¾·¾) + ½(¼·¼) = 5/16
    assert law[(0, 0)] == Fraction(5, 16) and sum(law.values()) == 1
    assert tight_example_law(2, 2, 0.5) == law  # a float ψ is converted exactly


# ---------------------------------------------------------------------------------------------
# the game


def test_game() -> None:
    rng = RNG(2)
    sample = rng.integers(0, 4, size=400)
    t = play(ExactAnswers(400), AggregationAttack(POPULATION), sample, POPULATION, 5, rng)
    hist = np.bincount(sample, minlength=4) / 400
    assert t.empirical_error == [0.0] * 5
    assert t.statistical_error[-1] == pytest.approx(0.5 * np.abs(hist - 0.25).sum())
    r = play(RoundingAnswers(400, 0.05), AggregationAttack(POPULATION), sample, POPULATION, 5, rng)
    assert max(r.empirical_error) <= 0.05 + 1e-12
    # a list population gives the same game as the array
    same = play(ExactAnswers(400), AggregationAttack([0.25] * 4), sample, [0.25] * 4, 5, rng)
    assert same.answers == t.answers
    blocks = np.array([np.bincount(b, minlength=4) for b in np.array_split(sample, 5)])
    s = play(SplitAnswers(blocks), RandomAnalyst(4, RNG(3)), sample, POPULATION, 5, rng)
    assert len(s.answers) == 5 and all(0 <= a <= 1 for a in s.answers)


def test_laplace_answers() -> None:
    few = LaplaceAnswers(100, 3, 1.0, 1e-6)
    # basic composition binds for 3 rounds: ε₀ = 1/3 and the report is (1, 0)
    assert few.epsilon_step == pytest.approx(1 / 3)
    assert few.privacy.epsilon == pytest.approx(1.0) and few.privacy.delta == 0
    many = LaplaceAnswers(100, 400, 1.0, 1e-6)
    assert many.epsilon_step > 1 / 400  # advanced composition allows more per answer
    eps = many.privacy.epsilon
    assert eps == advanced_composition(many.epsilon_step, 0.0, 400, 1e-6)[0] <= 1.0
    assert many.privacy.delta == 1e-6 and many.privacy.exact_sampler
    assert not LaplaceAnswers(100, 3, 1.0, 1e-6, idealised=True).privacy.exact_sampler
    law = few.answer_pmf(np.array([50, 50]), np.array([False, True]))
    assert math.isclose(sum(law.values()), 1.0) and set(law) == {j / 100 for j in range(101)}
    # error_bound: k·P(|Z| > αn) ≤ β, and not one grid step lower
    alpha = few.error_bound(0.1)
    q = math.exp(-1 / float(few.scale))
    t = round(alpha * 100)
    assert 3 * 2 * q ** (t + 1) / (1 + q) <= 0.1 < 3 * 2 * q**t / (1 + q)
    with pytest.raises(ValueError, match="round_"):  # the budget covers 3 answers
        few.answer(np.array([50, 50]), np.array([False, True]), 3, RNG(0))


# ---------------------------------------------------------------------------------------------
# Algorithm 10 and Lemma 7.1.1's mechanism


def test_deviating_algorithm() -> None:
    alg = DeviatingAlgorithm(3, base=Fraction(1, 2), delta=Fraction(1, 8))
    law = alg.pmf(np.array([0, 0, 0, 1]))
    assert sum(law.values()) == 1 and all(isinstance(p, Fraction) for p in law.values())
    # τ = 5 with q = 1/2: nothing is released unless a noisy count reaches 5
    tau = int(alg.histogram.threshold)
    assert tau == 5
    tail = Fraction(1, 2) ** (tau - 3) / Fraction(3, 2)  # P(3 + Z ≥ τ)
    assert law[NOTHING] == (1 - tail) * (1 - Fraction(1, 2) ** (tau - 1) / Fraction(3, 2))
    runs = alg.sample(np.array([0, 0, 0, 1]), 20_000, RNG(0))
    assert set(np.unique(runs).tolist()) <= {NOTHING, 0, 1}
    assert abs(float(np.mean(runs == 0)) - float(law[0])) < 0.02
    assert alg.run(np.array([2, 2, 2, 2]), RNG(1)) in (None, 2)
    assert alg.pmf(np.array([0, 0, 0, 1]), window=(0, 1)) == {0: law[0], 1: law[1]}
    with pytest.warns(DeprecationWarning):
        assert alg.law(np.array([0, 0, 0, 1]), 20) == law
    ideal = DeviatingAlgorithm(3, 1.0, 0.05, idealised=True)
    assert not ideal.privacy.exact_sampler
    assert math.isclose(sum(ideal.pmf(np.array([0] * 8 + [1])).values()), 1.0, rel_tol=1e-9)
    expected = 4 * (1 + 2 * (math.log(10) + math.log(1e3) + math.log(1 + math.e)))
    assert minimum_sample_size(0.5, 1.0, 1e-3, 0.1) == math.ceil(expected)


def test_predicate_mechanism() -> None:
    """Lemma 7.1.1's A′ in Fractions, against values computed by hand."""
    # q = 1/2, p̄ = (1/4, 1/4, 1/2), n = 4, S = (0, 0, 0, 0): weight of h is
    # 2^{4h(0) − (h(0) + h(1) + 2h(2))}: 8, 1, 4, 2, 1, 1/2, 1/4, 1/8, total 135/8
    p = [Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)]
    mech = PredicateMechanism(3, 4, p, base=Fraction(1, 2))
    law = mech.pmf(np.array([0, 0, 0, 0]))
    assert law[(1, 0, 0)] == Fraction(64, 135) and law[(0, 1, 1)] == Fraction(1, 135)
    assert sum(law.values()) == 1
    # two values, n = 2, μ uniform on {0,1}²: S = (0,0) gives weights 2^{h0 − h1} and
    # E[score] = (2·½ − ½·½)/(9/2) = 1/6; (1,1) likewise; (0,1), (1,0) give uniform h, score 0
    two = PredicateMechanism(2, 2, [Fraction(1, 2), Fraction(1, 2)], base=Fraction(1, 2))
    uniform = {x: Fraction(1, 4) for x in product((0, 1), repeat=2)}
    assert two.gap(uniform) == Fraction(1, 12)
    draws = mech.sample(np.array([0, 0, 0, 0]), 20_000, RNG(4))
    assert draws.shape == (20_000, 3)
    assert abs(float(np.mean(np.all(draws == (1, 0, 0), axis=1))) - 64 / 135) < 0.02
    exact = PredicateMechanism(3, 4, p, 1.0)
    assert exact.privacy.epsilon <= 1.0 and exact.base >= Fraction(math.exp(-0.5))
    ideal = PredicateMechanism(3, 4, p, 1.0, idealised=True)
    assert not ideal.privacy.exact_sampler
    gap, bound = predicate_mechanism_gap(uniform, 2, 1.0)
    assert 0 < gap < bound == math.expm1(1.0)
    with pytest.raises(ValueError, match="population"):
        PredicateMechanism(2, 2, [Fraction(1, 2), Fraction(1, 3)], base=Fraction(1, 2))
    with pytest.raises(ValueError, match="data"):
        two.pmf(np.array([0, 2]))
    with pytest.raises(ValueError, match="law"):
        two.gap({(0, 0): Fraction(1)})  # average marginal (1, 0) ≠ (1/2, 1/2)
    with pytest.warns(DeprecationWarning):
        assert mech.law(np.array([0, 0, 0, 0])) == law


def test_errata() -> None:
    # Lemma 7.2.6 / Thm 7.2.7 print "≥ γ": one fair bit has γ = ½ and P(≥ ½) = 1
    mu = {(0,): Fraction(1, 2), (1,): Fraction(1, 2)}
    q = lambda v: Fraction(v)  # noqa: E731
    assert ad.concentration_radius(q, mu, Fraction(1, 10)) == Fraction(1, 2)
    assert ad.deviation_probability(q, mu, Fraction(1, 2), strict=False) == 1
    assert ad.deviation_probability(q, mu, Fraction(1, 2)) == 0
    # Remark 7.2.5's "=" is only "≤": 8 fair bits at δ = 1/4 have γ = 1/4 < √(ln 8/16)
    bits = {x: Fraction(1, 256) for x in product((0, 1), repeat=8)}
    assert ad.concentration_radius(q, bits, Fraction(1, 4)) == Fraction(1, 4)
    assert math.sqrt(math.log(8) / 16) > 0.36


# ---------------------------------------------------------------------------------------------
# the reported reproducers


def test_game_refuses_a_sample_of_another_size() -> None:
    mech = LaplaceAnswers(8, 3, 1.0, 1e-6)
    big = RNG(0).integers(0, 4, 1000)  # answering it clipped every answer to 1.0
    _refused(
        lambda: play(mech, AggregationAttack(POPULATION), big, POPULATION, 3, RNG(0)), "counts"
    )


@pytest.mark.parametrize("n", [-1, 0])
def test_exact_answers_refuses_a_bad_size(n: int) -> None:
    _refused(lambda: ExactAnswers(n), "n")


@pytest.mark.parametrize(
    "population", [[np.nan, 0.5, 0.25, 0.25], [0.5, 0.5, 0.5, 0.5], [0.3, 0.3, 0.3, 0.3]]
)
def test_population_must_be_a_law(population: list[float]) -> None:
    _refused(lambda: AggregationAttack(population), "population")
    _refused(
        lambda: play(ExactAnswers(8), AggregationAttack(POPULATION), SAMPLE, population, 3, RNG(0)),
        "population",
    )


@pytest.mark.parametrize("blocks", [[[np.nan, 1, 1, 1]], [], [[0, 0, 0, 0], [1, 1, 1, 1]]])
def test_split_answers_refuses_bad_blocks(blocks: list[list[float]]) -> None:
    _refused(lambda: SplitAnswers(blocks), "block_counts")


def test_split_answers_refuses_blocks_of_another_width() -> None:
    split = SplitAnswers([[1, 1, 1], [1, 1, 1]])
    _refused(
        lambda: play(split, AggregationAttack(POPULATION), SAMPLE, POPULATION, 2, RNG(0)), "query"
    )


def test_an_analyst_returning_none_is_refused() -> None:
    class Silent:
        def query(self, answers: np.ndarray) -> None:
            return None

    _refused(lambda: play(ExactAnswers(8), Silent(), SAMPLE, POPULATION, 2, RNG(0)), "analyst")  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", [np.float32, np.float16])
def test_per_step_epsilon_terminates_on_narrow_floats(kind: type) -> None:

    def narrow() -> None:
        assert per_step_epsilon(kind(1), 6, 1e-6) == per_step_epsilon(1.0, 6, 1e-6)
        mech = LaplaceAnswers(8, 6, kind(1.0), 1e-6)
        assert mech.privacy == LaplaceAnswers(8, 6, 1.0, 1e-6).privacy

    assert least_cpu_seconds(narrow, 1.0) < 1.0


def test_laplace_answers_refuses_a_generator_as_idealised() -> None:
    _refused(lambda: LaplaceAnswers(8, 6, 1.0, 1e-6, RNG(0)), "idealised")  # 0.2's signature


def test_tight_example_law_refuses_a_huge_enumeration() -> None:
    _refused(lambda: tight_example_law(40, 40, 0.5), "n")


@pytest.mark.parametrize("psi", [float("nan"), -1, 2, "0.5"])
def test_tight_example_refuses_a_bad_psi(psi: object) -> None:
    _refused(lambda: tight_example(3, 3, psi, 5, RNG(0)), "psi")  # type: ignore[arg-type]
    _refused(lambda: tight_example_law(3, 3, psi), "psi")  # type: ignore[arg-type]


@pytest.mark.parametrize("size", [1e10, 10**10, 2**26])
def test_samplers_refuse_sizes_they_cannot_finish(size: object) -> None:
    _refused(lambda: tight_example(3, 3, 0.5, size, RNG(0)), "size")  # type: ignore[arg-type]
    chain = HomogeneousChain([[2.0, 1.0], [1.0, 2.0]], 3)
    _refused(lambda: chain.draw(size, RNG(0)), "size")  # type: ignore[arg-type]


@pytest.mark.parametrize("values", [30, 25])
def test_predicate_mechanism_gap_refuses_huge_predicate_classes(values: int) -> None:
    _refused(lambda: predicate_mechanism_gap({(0, 1): 1.0}, values, 1.0), "values")


def test_predicate_mechanism_gap_refuses_an_empty_law() -> None:
    _refused(lambda: predicate_mechanism_gap({}, 2, 1.0), "law")


def test_minimum_sample_size_with_tiny_beta_delta() -> None:
    n = minimum_sample_size(0.5, 1, 1e-300, 1e-300)  # βδ underflows; the logs do not
    assert n == math.ceil(4 * (1 + 2 * (2 * 300 * math.log(10) + math.log(1 + math.e))))
    _refused(lambda: minimum_sample_size(1e-300, 1e-9, 1e-300, 1e-300), "psi")


def test_play_refuses_values_outside_the_population() -> None:
    bad = np.array([0, 1, 4])
    _refused(
        lambda: play(ExactAnswers(3), AggregationAttack(POPULATION), bad, POPULATION, 2, RNG(0)),
        "sample",
    )


def test_play_refuses_an_empty_sample() -> None:
    _refused(
        lambda: play(
            ExactAnswers(1), AggregationAttack(POPULATION), np.array([], int), POPULATION, 2, RNG(0)
        ),
        "sample",
    )


def test_random_analyst_needs_a_generator() -> None:
    _refused(lambda: RandomAnalyst(4, None), "rng")  # type: ignore[arg-type]


def test_laplace_answers_refuses_too_many_rounds() -> None:
    _refused(lambda: LaplaceAnswers(8, 10**30, 1.0, 1e-6), "k")


@pytest.mark.parametrize("flag", ["no", "False", 0, 1])
def test_idealised_must_be_a_bool(flag: object) -> None:
    _refused(lambda: DeviatingAlgorithm(4, 1.0, 1e-6, idealised=flag), "idealised")  # type: ignore[arg-type]
    _refused(lambda: LaplaceAnswers(8, 3, 1.0, 1e-6, flag), "idealised")  # type: ignore[arg-type]
    _refused(
        lambda: PredicateMechanism(2, 2, [0.5, 0.5], 1.0, idealised=flag),  # type: ignore[arg-type]
        "idealised",
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["--epsilon", "2e-10"],
        ["--seed", "-1"],
        ["--values", "64", "--k", "10000", "--n", "1e6", "--reps", "1000"],
        ["--k", "3"],
    ],
)
def test_command_refuses_before_work(argv: list[str]) -> None:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(
        [sys.executable, "-m", "dpspec.cli", "adaptive", *argv],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2, run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    assert cpu < 30  # refused at parse time, not after the game (CPU seconds, not wall clock)


def test_command() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "dpspec.cli", "adaptive", "--n", "300", "--reps", "3"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "laplace" in run.stdout and "exact" in run.stdout


def test_no_warning_on_clean_calls() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        play(
            LaplaceAnswers(8, 3, 1.0, 1e-6),
            AggregationAttack(POPULATION),
            SAMPLE,
            POPULATION,
            3,
            RNG(0),
        )


def _argmax_law_by_vectors(
    counts: list[int], q: Fraction, tau: int, cap: int
) -> tuple[dict[int, Fraction], Fraction]:
    """Algorithm 10's truncated output law written from its definition, one ``Fraction``
    product per vector of released counts (the reference the integer sums must equal)."""

    def pmf(z: int) -> Fraction:
        return (1 - q) / (1 + q) * q ** abs(z)

    def below(k: int) -> Fraction:  # P(Z < k), summed over the support it covers
        lowest = -80
        return sum((pmf(z) for z in range(lowest, k)), Fraction(0)) + q ** (1 - lowest) / (1 + q)

    occupied = [(x, v) for x, v in enumerate(counts) if v > 0]
    cells = [
        [(0, below(tau - v))] + [(w, pmf(w - v)) for w in range(tau, cap)] for _, v in occupied
    ]
    law = dict.fromkeys([-1, *range(len(counts))], Fraction(0))
    for combo in product(*cells):
        weight = math.prod((w for _, w in combo), start=Fraction(1))
        values = [v for v, _ in combo]
        top = max(values, default=0)
        law[-1 if top == 0 else occupied[values.index(top)][0]] += weight
    return law, 1 - sum(law.values(), Fraction(0))


@pytest.mark.parametrize("q", [Fraction(1, 2), Fraction(2, 5), Fraction(3, 4)])
@pytest.mark.parametrize("tau", [-1, 0, 2, 3])
def test_argmax_release_law_equals_the_vector_by_vector_sum(q: Fraction, tau: int) -> None:
    for counts in ([0, 0, 0], [1, 0, 0], [2, 1, 0], [1, 1, 1], [3, 0, 2]):
        law, left_out = ad.argmax_release_law(counts, q, tau, tau + 5)
        want, want_left_out = _argmax_law_by_vectors(counts, q, tau, tau + 5)
        assert law == want and list(law) == list(want)
        assert left_out == want_left_out
