"""Checks of the adaptive game (thesis ch. 7, L317–321, L615–627, L2082–2131, L345, L1997):
the Laplace answers' privacy and empirical accuracy, the concentration radii of Def 7.2.2, the
rounding mechanism's compression (Thm 7.2.8) with Lemma 7.2.6 / Thm 7.2.7, the erratum of
their "≥", and the transfer theorem (Thm 1.3.2 / 7.1.2) as a statistical demonstration.

The answer mechanisms are run through their real entry point (``answer``, by ``play``); the
exact laws the checks decide on are bound to it by conformance tests and pinned against the
laws written from their definitions in :mod:`dpspec.spec.adaptive`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
from scipy import stats

from dpspec.adaptive import (
    AggregationAttack,
    ExactAnswers,
    HomogeneousChain,
    LaplaceAnswers,
    RandomAnalyst,
    play,
    tight_example,
)
from dpspec.adaptive.game import AnswerMechanism, Transcript
from dpspec.proofs.engine.conformance import conformance, conformance_rng
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.exact import RTOL, ExactReport, verify_pairs
from dpspec.proofs.engine.registry import (
    STATED_BOUND,
    CheckOutcome,
    Control,
    Kind,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
)
from dpspec.proofs.engine.seeds import THESIS
from dpspec.proofs.engine.stats import ALPHA, binomial_pvalue
from dpspec.spec import adaptive as ad
from dpspec.spec.adaptive import clipped_count_law, clipped_laplace_bins
from dpspec.spec.composition import advanced_composition, per_step_epsilon
from dpspec.spec.neighbours import Relation
from dpspec.spec.privacy import satisfies_approx_dp

SEED = 7107

Law = dict[Any, Any]


def _cp_upper(k: int, n: int, alpha: float) -> float:
    """One-sided Clopper–Pearson upper bound on a binomial proportion at level 1 − α."""
    return 1.0 if k >= n else float(stats.beta.ppf(1 - alpha, k + 1, n - k))


def _cp_lower(k: int, n: int, alpha: float) -> float:
    return 0.0 if k <= 0 else float(stats.beta.ppf(alpha, k, n - k + 1))


def _mask(value: int) -> np.ndarray:
    """The query {value} over Ω = {0, 1}."""
    return np.array([value == 0, value == 1])


def _counts(ones: int, n: int) -> np.ndarray:
    return np.array([n - ones, ones], dtype=np.int64)


# ---------------------------------------------------------------------------------------------
# LaplaceAnswers: privacy of the whole transcript against the caller's (ε, δ)


def _answer_law(mech: LaplaceAnswers, ones: int, n: int) -> Callable[[int], Law]:
    """The law of one answer's bin to the query {v} on a sample over Ω = {0, 1} with ``ones``
    ones: exact path — ``answer_pmf`` (bound to ``answer`` by conformance), keyed by j = n·a;
    idealised — the unit bins of the continuous answer (:func:`dpspec.spec.adaptive.
    clipped_laplace_bins`)."""

    def law(v: int) -> Law:
        if mech.idealised:
            return ad.clipped_laplace_bins(ones if v == 1 else n - ones, n, float(mech.scale))
        pmf = mech.answer_pmf(_counts(ones, n), _mask(v))
        return {round(a * n): p for a, p in pmf.items()}

    return law


def transcript_law(mech: LaplaceAnswers, n: int, k: int, ones: int) -> Law:
    """The exact law of the k-round transcript (answer bins) on a sample over Ω = {0, 1} with
    ``ones`` ones, for the deterministic adaptive analyst that asks {1} first and then {1} if
    the last answer's bin exceeds ⌊n/2⌋, else {0} (it reads answers only through their bins,
    so the binned transcript is a post-processing of the real one)."""
    law_of = _answer_law(mech, ones, n)
    cache = {v: law_of(v) for v in (0, 1)}
    out: Law = {(): 1.0}
    for i in range(k):
        step: Law = {}
        for history, p in out.items():
            v = 1 if i == 0 or history[-1] > n // 2 else 0
            for j, pj in cache[v].items():
                step[(*history, j)] = step.get((*history, j), 0.0) + p * pj
        out = step
    return out


def _privacy_case(
    mech: LaplaceAnswers, n: int, k: int, epsilon: float, delta: float | Fraction
) -> ExactReport:
    laws: dict[Any, Law] = {(c,): transcript_law(mech, n, k, c) for c in range(n + 1)}
    pairs = [((c,), (c + 1,)) for c in range(n)]
    return verify_pairs(
        "LaplaceAnswers transcript",
        lambda d: laws[d],
        pairs,
        math.exp(epsilon),
        delta,
        Relation.SUBSTITUTE,
        rtol=RTOL,
    )


def _theorem_level(epsilon: float, k: int, delta: float, step: float) -> tuple[float, float, bool]:
    """The level k answers at per-answer ε₀ = ``step`` have by the composition theorem the
    mechanism should use (basic when ε/k ≥ the advanced per-step level), recomputed here."""
    basic = epsilon / k >= per_step_epsilon(epsilon, k, delta)
    if basic:
        return k * step, 0.0, True
    return advanced_composition(step, 0.0, k, delta)[0], delta, False


def _conformance_of_answer(idealised: bool, draws: int) -> Any:
    """``answer`` (the entry point ``play`` calls) against the law the privacy check uses, on
    n = 3, one count, k = 2, ε = 1; control: the same entry point at 2ε."""
    n, ones = 3, 1
    mech = LaplaceAnswers(n, 2, 1.0, 1e-6, idealised)
    fast = LaplaceAnswers(n, 2, 2.0, 1e-6, idealised)
    rng = conformance_rng(7100 + idealised)

    def bins(m: LaplaceAnswers) -> Callable[[int], list[int]]:
        def draw(size: int) -> list[int]:
            out = []
            for _ in range(size):
                a = m.answer(_counts(ones, n), _mask(1), 0, rng)
                out.append(min(max(math.ceil(a * n), 0), n) if idealised else round(a * n))
            return out

        return draw

    law = _answer_law(mech, ones, n)(1)
    control_law = _answer_law(fast, ones, n)(1)
    report = conformance(
        f"LaplaceAnswers.answer ({'idealised' if idealised else 'exact'})",
        law,
        bins(mech),
        bins(fast),
        control_law,
        draws,
    )
    return report


@Obligation(
    id="adaptive.laplace-answers.privacy",
    source=f"{THESIS}:L345 (Thm 1.3.2's mechanism); {THESIS}:L647 (advanced composition)",
    claim=(
        "LaplaceAnswers is (ε, δ)-DP over the whole k-round game for the caller's (ε, "
        "δ), both idealised values, Hypothesis over (n, k, ε, δ); report = composition "
        "theorem's level; attained where basic composition binds (ε × 1.25 caught)"
    ),
    method=Method.EXACT,
    predicates=(
        satisfies_approx_dp,
        clipped_count_law,
        clipped_laplace_bins,
        per_step_epsilon,
        advanced_composition,
    ),
    impls=(LaplaceAnswers, AnswerMechanism),
    entry_points=(LaplaceAnswers.answer, LaplaceAnswers.answer_pmf),
    tests=("tests/test_adaptive.py::test_laplace_answers",),
    privacy=True,
    binding=(
        "differential: adaptive.laplace-answers.privacy (conformance of answer against its law)"
    ),
)
def laplace_privacy(config: VerifyConfig) -> CheckOutcome:
    """:class:`LaplaceAnswers` is (ε, δ)-DP for the caller's (ε, δ) over the whole game: the
    exact law of the k-round transcript (an adaptive analyst, Ω = {0, 1}, samples of n ≤ 3)
    is compared on every substitution pair, for both values of ``idealised``, over a Hypothesis
    strategy (derandomised, 30 examples; 120 with ``--thorough``) of ε (boundary values 2^-10
    … 40, and non-integer ratios ε/k), δ (1e-12 … 0.9), k ≤ 4 and n ≤ 3. Its report is checked
    separately: ε' ≤ ε, δ' ≤ δ, equal to the composition theorem's level recomputed here, the
    transcript within it, and ``exact_sampler`` = not idealised.

    The per-answer law (``answer_pmf``) equals the clipped discrete Laplace law written from its
    definition, and ``answer`` follows it (conformance, 4000 draws per path, 2ε control).

    Where basic composition binds (few rounds) the claim is attained (worst ratio e^ε), so:
    controls — noise drawn for ε × 1.25, and the budget split over k − 1 answers (a composition
    count off by one) — must violate the caller's level (exact path and idealised)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    examples = 120 if config.thorough else 30
    problems: list[str] = []
    tightest = {"basic": math.inf, "advanced": math.inf}
    pairs_at = {"basic": (1.0, 1.0), "advanced": (1.0, 1.0)}  # (claim, measured) at the tightest
    ran = [0]
    epsilons = st.one_of(
        st.sampled_from([2.0**-10, 0.1, 0.5, 1.0, 1 / 3, 2.5, 40.0]),
        st.floats(1e-3, 8.0),
    )
    deltas = st.one_of(st.sampled_from([1e-12, 1e-6, 0.05, 0.3, 0.9]), st.floats(1e-9, 0.9))

    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.integers(1, 3), st.integers(1, 4), epsilons, deltas, st.booleans())
    def case(n: int, k: int, epsilon: float, delta: float, idealised: bool) -> None:
        ran[0] += 1
        mech = LaplaceAnswers(n, k, epsilon, delta, idealised)
        report = _privacy_case(mech, n, k, epsilon, delta)
        level = mech.privacy
        want_eps, want_delta, basic = _theorem_level(epsilon, k, delta, float(1 / mech.scale))
        label = f"n={n} k={k} ε={epsilon:.4g} δ={delta:.3g} idealised={idealised}"
        if not report.holds:
            problems.append(f"{label}: {report.summary()}")
        if not (level.epsilon <= epsilon * (1 + 1e-12) and level.delta <= delta):
            problems.append(f"{label}: reported {level} beyond the caller's level")
        if not (math.isclose(level.epsilon, want_eps, rel_tol=1e-12) and level.delta == want_delta):
            problems.append(
                f"{label}: reported ({level.epsilon}, {level.delta}) ≠ theorem's "
                f"({want_eps}, {want_delta})"
            )
        if level.exact_sampler == idealised:
            problems.append(f"{label}: exact_sampler = {level.exact_sampler}")
        own = _privacy_case(mech, n, k, level.epsilon, max(level.delta, 0.0))
        if not own.holds:
            problems.append(f"{label}: the transcript exceeds the reported level")
        worst = math.log(max(float(report.worst_ratio), 1.0))
        if basic and worst > 0:
            if epsilon / worst < tightest["basic"]:
                tightest["basic"], pairs_at["basic"] = epsilon / worst, (epsilon, worst)
        elif not basic and float(report.worst_delta) > 0:
            measured = float(report.worst_delta)
            if delta / measured < tightest["advanced"]:
                tightest["advanced"], pairs_at["advanced"] = delta / measured, (delta, measured)

    case()
    controls = []
    for idealised in (False, True):
        n, k, eps, delta = 2, 2, 1.0, 1e-6
        hot = LaplaceAnswers(n, k, eps * 1.25, delta, idealised)
        bad = _privacy_case(hot, n, k, eps, delta)
        controls.append(
            Control(
                f"noise drawn for ε × 1.25 ({'idealised' if idealised else 'exact'})",
                not bad.holds,
                bad.summary(),
            )
        )
        split = LaplaceAnswers(n, 3, eps, delta, idealised)
        split.scale = Fraction(2) / Fraction(eps)  # ε/(k − 1) per answer for k = 3 answers
        bad = _privacy_case(split, n, 3, eps, delta)
        controls.append(
            Control(
                f"budget split over k − 1 answers ({'idealised' if idealised else 'exact'})",
                not bad.holds,
                bad.summary(),
            )
        )
    pins = []
    for scale in (Fraction(1, 2), Fraction(3), Fraction(7, 3)):
        mech = LaplaceAnswers(3, 1, float(1 / scale), 1e-6)
        q = math.exp(-1 / float(mech.scale))
        for ones in range(4):
            got = mech.answer_pmf(_counts(ones, 3), _mask(1))
            want = ad.clipped_count_law(ones, 3, q)
            pins.append(max(abs(got[j / 3] - want[j]) for j in range(4)))
    pinned = max(pins) < 1e-12
    draws = 16_000 if config.thorough else 4000
    reports = [_conformance_of_answer(False, draws), _conformance_of_answer(True, draws)]
    controls += [r.control for r in reports]
    ok = not problems and pinned and all(r.conforms for r in reports)
    ok = ok and all(c.caught for c in controls)
    slack = [Slack("ε (basic composition binds)", *pairs_at["basic"])]
    if math.isfinite(tightest["advanced"]):
        slack.append(Slack("δ (advanced composition binds)", *pairs_at["advanced"]))
    return CheckOutcome(
        ok,
        f"{ran[0]} Hypothesis cases (n ≤ 3, k ≤ 4, both idealised): transcript within the "
        f"caller's (ε, δ) and within the reported level, report = theorem's level: "
        f"{'all' if not problems else problems[:3]}; tightest ε/ε_measured (basic) "
        f"{tightest['basic']:.6f}, δ/δ_measured (advanced) {tightest['advanced']:.3g}; answer_pmf "
        f"= clipped discrete Laplace (|Δ| ≤ {max(pins):.1e}); "
        + "; ".join(r.summary() for r in reports)
        + f"; controls caught {sum(c.caught for c in controls)}/{len(controls)}",
        {"examples": ran[0], "problems": problems, "tightest": tightest},
        controls,
        slack,
    )


# ---------------------------------------------------------------------------------------------
# LaplaceAnswers: empirical accuracy (Def 3.1.14)


class _FixedQuery:
    """The analyst that asks {1} every round (counts stay in the middle: no clipping)."""

    def query(self, answers: np.ndarray) -> np.ndarray:
        return _mask(1)


def _failure_probability(
    mech: LaplaceAnswers, n: int, ones: int, alpha: float, union: bool = False
) -> float:
    """P(max_i |a_i − q_i(S)| > α) over k answers to the fixed query {1} (count ``ones``),
    exactly: each round fails with the same probability (independent noise) — from
    ``answer_pmf`` (exact path) or the closed-form Laplace tail (idealised; no clipping
    within α·n of the count)."""
    if mech.idealised:
        assert alpha * n < min(ones, n - ones)
        one = math.exp(-alpha * n / float(mech.scale))
    else:
        pmf = mech.answer_pmf(_counts(ones, n), _mask(1))
        one = math.fsum(p for a, p in pmf.items() if abs(a - ones / n) > alpha + 1e-12)
    if union:
        return mech.k * one
    return -math.expm1(mech.k * math.log1p(-one)) if one < 1 else 1.0


@Obligation(
    id="adaptive.laplace-answers.accuracy",
    source=f"{THESIS}:L617 (Def 3.1.14); {THESIS}:L345 (Thm 1.3.2)",
    claim=(
        "error_bound(β) = α with P(max_i |a_i − q_i(S)| > α) ≤ β over k answers, exactly "
        "(nearly attained: β/P = 1.004), both idealised; the game fails at the exact rate"
    ),
    method=Method.EXACT,
    no_predicate=(
        f"{STATED_BOUND}: the exact failure probability (answer_pmf, the Laplace tail) against β"
    ),
    impls=(LaplaceAnswers, Transcript),
    entry_points=(LaplaceAnswers.error_bound, play),
    tests=("tests/test_adaptive.py::test_laplace_answers",),
    bug_controls=(
        BugControl(
            LaplaceAnswers.error_bound,
            "return t / self.n",
            "return max(t - 1, 0) / self.n",
            "error_bound one grid step below the union bound's α",
        ),
    ),
)
def laplace_accuracy(config: VerifyConfig) -> CheckOutcome:
    """Def 3.1.14 (L617): :meth:`LaplaceAnswers.error_bound` gives α with P(max_i |a_i − q_i(S)|
    > α) ≤ β over the k answers — the union bound over k independent noises, nearly attained
    (1 − (1 − β/k)^k ≈ β). Exact, on n = 1000 records (count 500), for (ε, δ, k, β) ∈ a grid
    (basic and advanced composition, both ``idealised``): the failure probability is ≤ β at α,
    and one grid step below α the union bound k·P(|Z| > αn) exceeds β (α is the least the
    union bound certifies: exact path).
    The real game (``play`` with a fixed query, 1000 games of k = 2) fails at the exact rate
    (two-sided binomial test at 1e-6).

    Controls: α understated 2×; noise of scale × 1.25 (the per-answer ε₀ / 1.25) — both must
    exceed β."""
    n, ones = 1000, 500
    grid = [(1.0, 1e-6, 2, 0.1), (0.5, 1e-6, 3, 0.05), (2.0, 0.05, 40, 0.2), (1.0, 1e-3, 8, 0.01)]
    rows, ok, tightest, caught = [], True, math.inf, {"half": True, "scale": True}
    at = (1.0, 1.0)
    for eps, delta, k, beta in grid:
        for idealised in (False, True):
            mech = LaplaceAnswers(n, k, eps, delta, idealised)
            alpha = mech.error_bound(beta)
            p = _failure_probability(mech, n, ones, alpha)
            below = (
                _failure_probability(mech, n, ones, alpha - 1 / n, union=True)
                if not idealised
                else math.inf
            )
            ok &= p <= beta and (idealised or below > beta)
            if beta / p < tightest:
                tightest, at = beta / p, (beta, p)
            caught["half"] &= _failure_probability(mech, n, ones, alpha / 2) > beta
            wide = LaplaceAnswers(n, k, eps, delta, idealised)
            wide.scale = mech.scale * Fraction(5, 4)
            caught["scale"] &= _failure_probability(wide, n, ones, alpha) > beta
            rows.append(
                f"ε={eps} k={k} β={beta}{' ideal' if idealised else ''}: α={alpha:.4f}, P={p:.4g}"
            )
    mech = LaplaceAnswers(n, 2, 1.0, 1e-6)
    alpha = mech.error_bound(0.2)
    exact = _failure_probability(mech, n, ones, alpha)
    rng = np.random.default_rng(SEED)
    games = 4000 if config.thorough else 1000
    population = np.array([0.5, 0.5])
    sample = np.repeat([0, 1], [n - ones, ones])
    fails = sum(
        max(play(mech, _FixedQuery(), sample, population, 2, rng).empirical_error) > alpha + 1e-12
        for _ in range(games)
    )
    pvalue = binomial_pvalue(fails, games, exact)
    ok &= pvalue >= ALPHA
    controls = [
        Control("α understated 2×", caught["half"], "P(max error > α/2) > β on every grid row"),
        Control(
            "noise of scale × 1.25 (ε₀/1.25)",
            caught["scale"],
            "P(max error > α) > β on every grid row",
        ),
    ]
    return CheckOutcome(
        ok and all(c.caught for c in controls),
        "; ".join(rows) + f"; play: {fails}/{games} games fail vs exact {exact:.4f} "
        f"(p = {pvalue:.3g})",
        {"tightest": tightest, "games": games, "fails": fails, "exact": exact},
        controls,
        [Slack("P(max_i |a_i − q_i(S)| > α) ≤ β", *at)],
    )


# ---------------------------------------------------------------------------------------------
# The transfer theorem (Thm 1.3.2 / Thm 7.1.2): a statistical demonstration


def _gaps(transcript: Any, counts: np.ndarray, population: np.ndarray, n: int) -> list[float]:
    """|q_i(S) − q_i(μ)| of every query of a transcript."""
    return [
        abs(float(counts[q].sum()) / n - float(population[q].sum())) for q in transcript.queries
    ]


@Obligation(
    id="adaptive.adaptive-game.transfer",
    source=f"{THESIS}:L345 (Thm 1.3.2); {THESIS}:L1997 (Thm 7.1.2); {THESIS}:L2403-2407",
    claim=(
        "Thm 1.3.2: P(max_i |q_i(μ) − a_i| > α + 10ε + 2ψ) ≤ β + δ/ε (every run, k = 2); "
        "Thm 7.1.2: P(max_i |h_i(μ) − h_i(S)| ≥ 10ε + 2ψ) ≤ δ/ε for the aggregation "
        "attack at n = 4600, k = 8001 (--thorough); Clopper–Pearson at 1e-6"
    ),
    method=Method.STATISTICAL,
    no_predicate=(
        f"{STATED_BOUND}: the games' failure rates (Clopper–Pearson) against β + δ/ε and δ/ε"
    ),
    impls=(LaplaceAnswers, RandomAnalyst, AggregationAttack, HomogeneousChain),
    tests=("tests/test_adaptive.py::test_game",),
    kind=Kind.DEMONSTRATION,
    reason=(
        "10ε + 2ψ is loose by nature: DP answers overfit by ≈ 0.01 against 0.52, so "
        "only an infinite leak (exact answers) reaches it; the mechanism is pinned by "
        "adaptive.laplace-answers.privacy and adaptive.laplace-answers.accuracy"
    ),
)
def transfer(config: VerifyConfig) -> CheckOutcome:
    """Thm 1.3.2 (L345) and Thm 7.1.2 (L1997), statistically, with the constant 10 as printed
    (the proof reaches 3ε + ψ per step, L2403–2407; a re-derivation suggests ≈ 15: a loose
    constant makes the statement easier to satisfy, so the printed one is checked).

    * Thm 1.3.2 (every run): the homogeneous chain on Ω = 16 values, potentials uniform in
      [1, 1.1] (ψ ≤ R̄ ≈ 0.095 by Lemma 7.3.3, checked), n = 1200, k = 2 rounds of a random
      analyst against :class:`LaplaceAnswers` (ε = 0.05, δ = 0.012 < ε/4; n ≥ ln(2kε/δ)/ε² =
      1126), (α, β)-empirically accurate with α = ``error_bound(β)``, β = 0.1: P(max_i
      |q_i(μ) − a_i| > α + 10ε + 2R̄) ≤ β + δ/ε, from 80 games (Clopper–Pearson upper bound at
      1e-6; 320 with ``--thorough``).
    * Thm 7.1.2 (``--thorough``): the aggregation attack (k = m + 1 = 8001 rounds) on the
      tight example μ_ψ over m = 8000 values, ψ = 0.01 (ψ(μ_ψ) ≤ ψ, Lemma 7.1.3), n = 4600 ≥
      ln(2kε/δ)/ε² = 4444 with ε = 0.05, δ = 0.012, against idealised Laplace answers:
      P(max_i |h_i(μ) − h_i(S)| ≥ 10ε + 2ψ) ≤ δ/ε from 52 games; the same attack with exact
      answers overfits by 0.56 ≥ 0.52 (the threshold is reachable).

    "log" in n ≥ log(2kε/δ)/ε² is the natural logarithm: it is the exponential mechanism's
    (2/(εn))·ln(2Tk) of the proof (L2396), with T = ε/δ.

    A demonstration: the DP answers overfit by ≈ 0.01, far below 10ε; no modest bug of the
    mechanism crosses the theorem's threshold (its discriminating companions are
    ``adaptive.laplace-answers.privacy`` and ``adaptive.laplace-answers.accuracy``)."""
    rows, ok = [], True
    eps, delta, beta = 0.05, 0.012, 0.1
    m, n, k = 16, 1200, 2
    g = 1 + 0.1 * np.random.default_rng(SEED + 6).random((m, m))
    r_bar = (g.max() ** 2 - g.min() ** 2) / (g.max() ** 2 + g.min() ** 2)
    chain = HomogeneousChain(g, n)
    population = chain.marginals().mean(axis=0)
    assert n >= math.log(2 * k * eps / delta) / eps**2
    mech = LaplaceAnswers(n, k, eps, delta)
    alpha = mech.error_bound(beta)
    threshold = alpha + 10 * eps + 2 * r_bar
    games = 320 if config.thorough else 80
    rng = np.random.default_rng(SEED + 7)
    failures, worst = 0, 0.0
    for sample in chain.draw(games, rng):
        t = play(mech, RandomAnalyst(m, rng), sample, population, k, rng)
        worst = max(worst, max(t.statistical_error))
        failures += max(t.statistical_error) > threshold
    upper = _cp_upper(failures, games, ALPHA)
    claim = beta + delta / eps
    ok &= upper <= claim
    rows.append(
        f"Thm 1.3.2 (R̄ = {r_bar:.4f}): {failures}/{games} games with max |q(μ) − a| > "
        f"α + 10ε + 2R̄ = {threshold:.3f} (worst {worst:.3f}); CP upper {upper:.3f} ≤ "
        f"β + δ/ε = {claim:.3f}"
    )
    numbers: dict[str, Any] = {"thm_1_3_2": {"failures": failures, "games": games, "worst": worst}}
    controls: list[Control] = []
    slack = [Slack("Thm 1.3.2 threshold", threshold, worst)]
    if config.thorough:
        values, n2, psi = 8000, 4600, 0.01
        k2 = values + 1
        assert n2 >= math.log(2 * k2 * eps / delta) / eps**2
        population2 = np.full(values, 1 / values)
        bound = 10 * eps + 2 * psi
        dp = LaplaceAnswers(n2, k2, eps, delta, idealised=True)
        games2, hits, worst2 = 52, 0, 0.0
        for sample in tight_example(values, n2, psi, games2, rng):
            counts = np.bincount(sample, minlength=values)
            t = play(dp, AggregationAttack(population2), sample, population2, k2, rng)
            gap = max(_gaps(t, counts, population2, n2))
            worst2 = max(worst2, gap)
            hits += gap >= bound
        upper2 = _cp_upper(hits, games2, ALPHA)
        sample = tight_example(values, n2, psi, 1, rng)[0]
        counts = np.bincount(sample, minlength=values)
        exact = play(ExactAnswers(n2), AggregationAttack(population2), sample, population2, k2, rng)
        exact_gap = max(_gaps(exact, counts, population2, n2))
        ok &= upper2 <= delta / eps
        rows.append(
            f"Thm 7.1.2: {hits}/{games2} games with max |h(μ) − h(S)| ≥ 10ε + 2ψ = {bound:.2f} "
            f"(worst {worst2:.4f}); CP upper {upper2:.3f} ≤ δ/ε = {delta / eps:.2f}; exact "
            f"answers: {exact_gap:.3f}"
        )
        controls.append(
            Control(
                "answers without noise (ExactAnswers)",
                exact_gap >= bound,
                f"overfits by {exact_gap:.3f} ≥ {bound:.2f}",
            )
        )
        slack.append(Slack("Thm 7.1.2 threshold 10ε + 2ψ", bound, worst2))
        numbers["thm_7_1_2"] = {"hits": hits, "games": games2, "worst": worst2, "exact": exact_gap}
    else:
        rows.append("Thm 7.1.2 at n = 4600, k = 8001: under --thorough")
    return CheckOutcome(ok, "; ".join(rows), numbers, controls, slack)
