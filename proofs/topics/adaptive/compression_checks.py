"""Checks of Section 7.2 (thesis ch. 7, L2082–2131): the concentration radii of Def 7.2.2 against
an independent computation and the chain sampler, the rounding mechanism's compression
(Thm 7.2.8) with Lemma 7.2.6 / Thm 7.2.7 in their corrected strict form, and the errata of
their "≥" and of Remark 7.2.5's "=". Every game runs through ``play``."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np
from scipy import stats

from dpspec.adaptive import (
    ExactAnswers,
    HomogeneousChain,
    RoundingAnswers,
    SplitAnswers,
    play,
)
from dpspec.adaptive.game import Analyst, Transcript
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import (
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
    stop_if_failed,
)
from dpspec.proofs.engine.seeds import THESIS
from dpspec.proofs.engine.stats import ALPHA, binomial_pvalue
from dpspec.spec import adaptive as ad
from dpspec.spec.adaptive import (
    concentration_radius,
    deviation_probability,
    markov_chain,
    population_mean,
)

SEED = 7107


class _FixedQuery:
    """The analyst that asks {1} every round (over Ω = {0, 1})."""

    def query(self, answers: np.ndarray) -> np.ndarray:
        return np.array([False, True])


# ---------------------------------------------------------------------------------------------
# Concentration radii (Def 7.2.2)


def _chain_law(big: int, n: int) -> dict[tuple[int, ...], Fraction]:
    """The binary chain on {0,1}^n with g = ``big`` on the diagonal, 1 off it."""
    g = [{(a, b): Fraction(big if a == b else 1) for a in (0, 1) for b in (0, 1)}] * (n - 1)
    return ad.markov_chain(g, (0, 1))


def _binomial_radius(n: int, p: float, delta: float) -> Fraction:
    """γ for q(S) = Bin(n, p)/n (a product law), from scipy's binomial law: the least
    deviation value d = |j/n − p| with P(|X/n − p| > d) < δ (independent of the enumeration)."""
    pmf = stats.binom.pmf(np.arange(n + 1), n, p)
    devs = sorted({abs(Fraction(j, n) - Fraction(p)) for j in range(n + 1)} | {Fraction(0)})
    for d in devs:
        tail = sum(float(pmf[j]) for j in range(n + 1) if abs(Fraction(j, n) - Fraction(p)) > d)
        if tail < delta - 1e-12:
            return d
    return devs[-1]


def _singleton_query(value: int) -> Callable[[int], Fraction]:
    """q(v) = 1{v = value}."""
    return lambda v: Fraction(int(v == value))


@Obligation(
    id="adaptive.adaptive-game.concentration-radii",
    source=f"{THESIS}:L2084-2086 (Def 7.2.2); {THESIS}:L2098 (Remark 7.2.5)",
    claim=(
        "γ(q, μ, δ) covers (P(dev > γ) < δ) and is least, exactly; equals the binomial "
        "radius on a product law; the chain sampler's tails agree; Hoeffding's radius "
        "under-covers a dependent chain"
    ),
    method=Method.EXACT,
    predicates=(concentration_radius, deviation_probability, population_mean),
    impls=(HomogeneousChain,),
    entry_points=(HomogeneousChain.draw,),
    tests=("tests/test_adaptive.py::test_game",),
)
def concentration_radii(config: VerifyConfig) -> CheckOutcome:
    """Def 7.2.2 (L2084–2086): γ(q, μ, δ) = the least γ with P(|q(S) − q(μ)| > γ) < δ,
    computed exactly by :func:`dpspec.spec.adaptive.concentration_radius` for the queries {1}
    and {0} on n = 8 coordinates and δ ∈ {1/10, 1/20, 1/4}, and checked three ways:

    * coverage and minimality, exactly: P(dev > γ) < δ ≤ P(dev > γ⁻), γ⁻ the next deviation
      value below γ;
    * against an independent computation: on the i.i.d. fair-bit law (a product measure, g
      constant) γ equals the radius from scipy's Bin(8, ½);
    * empirically, on the dependent chain (g = 4 on the diagonal): 20,000 samples drawn by
      :meth:`HomogeneousChain.draw` exceed γ and γ⁻ at the rates the enumeration gives (two-sided
      binomial tests at 1e-6), binding the exact tails to the sampler.

    Controls: the radius one deviation step too small (coverage fails); the radius defined with
    ≥ (not the least: differs from the binomial radius); Hoeffding's i.i.d. radius √(ln(2/δ)/2n)
    (Remark 7.2.5) on the dependent chain, which under-covers (P(dev > γ_H) = 0.21 > δ = 0.1)."""
    n = 8
    chain = _chain_law(4, n)
    iid = _chain_law(1, n)
    rows, problems = [], []
    caught = {"step": True, "geq": False, "hoeffding": False}
    tightest, at = math.inf, (1.0, 1.0)
    for delta in (Fraction(1, 10), Fraction(1, 20), Fraction(1, 4)):
        for value in (0, 1):
            q = _singleton_query(value)
            for name, mu in (("chain", chain), ("iid", iid)):
                gamma = ad.concentration_radius(q, mu, delta)
                mean = ad.population_mean(q, mu)
                devs = sorted({abs(ad.query_mean(q, x) - mean) for x in mu} | {Fraction(0)})
                below = [d for d in devs if d < gamma]
                tail = ad.deviation_probability(q, mu, gamma)
                if not tail < delta:
                    problems.append(f"{name} q={{{value}}} δ={delta}: P(dev > γ) = {tail}")
                if below:
                    step = ad.deviation_probability(q, mu, below[-1])
                    if not step >= delta:
                        problems.append(f"{name}: γ not least (P(dev > γ⁻) = {step})")
                    caught["step"] &= step >= delta
                    if float(delta / step) < tightest:
                        tightest, at = float(delta / step), (float(delta), float(step))
                if name == "iid":
                    binom = _binomial_radius(n, 0.5, float(delta))
                    if binom != gamma:
                        problems.append(f"iid δ={delta}: γ = {gamma} ≠ binomial {binom}")
                    geq = next(
                        d for d in devs if ad.deviation_probability(q, mu, d, strict=False) < delta
                    )
                    caught["geq"] |= geq != binom
                else:
                    hoeffding = Fraction(math.sqrt(math.log(2 / float(delta)) / (2 * n)))
                    caught["hoeffding"] |= ad.deviation_probability(q, mu, hoeffding) > delta
                    rows.append(f"δ={delta} q={{{value}}}: γ = {gamma}")
    g = np.array([[4.0, 1.0], [1.0, 4.0]])
    draws = 80_000 if config.thorough else 20_000
    samples = HomogeneousChain(g, n).draw(draws, np.random.default_rng(SEED + 3))
    fraction = samples.mean(axis=1)
    q1 = lambda v: Fraction(v)  # noqa: E731
    mean1 = float(ad.population_mean(q1, chain))
    pvalues = []
    for delta in (Fraction(1, 10), Fraction(1, 4)):
        gamma = ad.concentration_radius(q1, chain, delta)
        for d in (gamma, gamma - Fraction(1, n)):
            exact = float(ad.deviation_probability(q1, chain, d))
            hits = int(np.sum(np.abs(fraction - mean1) > float(d) + 1e-12))
            pvalues.append(binomial_pvalue(hits, draws, exact))
    empirical = min(pvalues) >= ALPHA
    controls = [
        Control(
            "radius one deviation step too small", caught["step"], "P(dev > γ⁻) ≥ δ on every case"
        ),
        Control(
            "radius defined with ≥ (not the least)",
            caught["geq"],
            "differs from the binomial radius",
        ),
        Control(
            "Hoeffding's i.i.d. radius on the dependent chain",
            caught["hoeffding"],
            "P(dev > √(ln(2/δ)/2n)) > δ",
        ),
    ]
    ok = not problems and empirical and all(c.caught for c in controls)
    return CheckOutcome(
        ok,
        "; ".join(rows) + f"; coverage, minimality, binomial equality: "
        f"{problems[:3] or 'all'}; empirical tails vs exact (min p = {min(pvalues):.3g})",
        {"problems": problems, "pvalues": pvalues},
        controls,
        [Slack("δ ≤ P(dev > γ⁻) (γ is least)", *at)],
    )


# ---------------------------------------------------------------------------------------------
# Rounding compression (Def 7.2.1, Thm 7.2.8) with Lemma 7.2.6 / Thm 7.2.7 (corrected)


class _SwitchAnalyst:
    """Asks {0}, then {1} if the first answer is below ½, else {2} (over Ω = {0, 1, 2})."""

    def query(self, answers: np.ndarray) -> np.ndarray:
        if len(answers) == 0:
            return np.array([True, False, False])
        return np.array([False, answers[0] < 0.5, answers[0] >= 0.5])


@Obligation(
    id="adaptive.adaptive-game.rounding-compression",
    source=f"{THESIS}:L2082-2131 (Def 7.2.1, Lemma 7.2.6, Thm 7.2.7-7.2.8)",
    claim=(
        "rounding answers compress transcripts to exactly 2^b = ⌈1/(2α)⌉^k values and "
        "err by exactly α (both attained); Lemma 7.2.6 / Thm 7.2.7 with '>' hold, "
        "exactly on {0,1,2}^6; the split baseline answers on its blocks"
    ),
    method=Method.EXACT,
    predicates=(markov_chain, concentration_radius),
    impls=(
        RoundingAnswers,
        SplitAnswers,
        Analyst,
        Transcript,
        play,
        "dpspec.adaptive._domains._QueryMask",
    ),
    entry_points=(play, RoundingAnswers.answer, SplitAnswers.answer),
    tests=("tests/test_adaptive.py::test_game",),
    bug_controls=(
        BugControl(
            "dpspec.adaptive.game.RoundingAnswers.__init__",
            "self.cells = math.ceil(1 / (2 * alpha))",
            "self.cells = int(1 / (2 * alpha))",
            "⌊1/(2α)⌋ cells instead of ⌈1/(2α)⌉ (one cell short when 1/(2α) is no integer)",
        ),
    ),
)
def rounding_compression(config: VerifyConfig) -> CheckOutcome:
    """Thm 7.2.8 and Lemma 7.2.6 / Thm 7.2.7 (L2082–2131), exactly on every S ∈ {0,1,2}^6 under
    a 3-valued chain (g = 2 on the diagonal, 1 off it), the rounding mechanism at α = 1/4
    (2 cells) — and at α = 0.3, where 1/(2α) is not an integer, so ⌈1/(2α)⌉ and ⌊1/(2α)⌋
    differ — and an adaptive analyst ({0}, then {1} or {2} by the first answer), k = 2, all
    through ``play``:

    * compression is attained: the transcripts take exactly 2^b = 4 values, b = k log₂⌈1/(2α)⌉
      (Def 7.2.1's H_A is tight);
    * accuracy is attained: the worst |a − q(S)| is exactly α;
    * Lemma 7.2.6 with Def 7.2.2's strict ">" (see ``adaptive.erratum.thesis-lemma-7.2.6-strict``):
      P(∃i |q_i(S) − q_i(μ)| > γ(q_i, μ, δ)) ≤ δ|Q_A| ≤ δk2^b, δ = 1/10, exact radii; and
      Thm 7.2.7: P(∃i |a_i − q_i(μ)| > α + γ_i) ≤ β + δk2^b with β = 0 — union bounds, loose
      by nature (their slack is reported).

    The sample-splitting baseline (:class:`SplitAnswers`, blocks = the first and last three
    records) is played on the same samples: round i's answer is q_i(block_i) exactly.

    Controls (real bugs of the mechanism): cells of width α (⌈1/α⌉ cells) — more transcripts
    than 2^b; answers at the cell's upper end (2j + 2)α — error 2α; cells of width 4α — error
    up to 3α; the split baseline answering every round on block 0. Under a bug control the
    check ends at the first part that fails (compression and accuracy, the union bounds, the
    split baseline) and the controls are not run."""
    n, k, alpha, delta = 6, 2, 0.25, Fraction(1, 10)
    g = [{(a, b): Fraction(2 if a == b else 1) for a in range(3) for b in range(3)}] * (n - 1)
    mu = ad.markov_chain(g, (0, 1, 2))
    population = np.array(
        [float(sum(ad.marginal(mu, i)[v] for i in range(n)) / n) for v in range(3)]
    )
    rng = np.random.default_rng(SEED + 4)

    class Wide(RoundingAnswers):
        def answer(self, counts, query, round_, rng):  # type: ignore[no-untyped-def]
            value = float(counts[np.asarray(query, dtype=bool)].sum()) / self.n
            j = min(int(value / self.alpha), math.ceil(1 / self.alpha) - 1)
            return (2 * j + 1) * self.alpha / 2

    class Upper(RoundingAnswers):
        def answer(self, counts, query, round_, rng):  # type: ignore[no-untyped-def]
            a = super().answer(counts, query, round_, rng)
            return min(a + self.alpha, 1.0)

    class Coarse(RoundingAnswers):
        def answer(self, counts, query, round_, rng):  # type: ignore[no-untyped-def]
            value = float(counts[np.asarray(query, dtype=bool)].sum()) / self.n
            j = min(int(value / (4 * self.alpha)), self.cells - 1)
            return (2 * j + 1) * self.alpha

    def run(
        mech: RoundingAnswers,
    ) -> tuple[set[tuple[float, ...]], float, dict[tuple[int, ...], Any]]:
        transcripts, worst, played = set(), 0.0, {}
        for x in mu:
            t = play(mech, _SwitchAnalyst(), np.array(x), population, k, rng)
            transcripts.add(tuple(t.answers))
            worst = max(worst, *t.empirical_error)
            played[x] = (t.queries, t.answers)
        return transcripts, worst, played

    transcripts, worst, played = run(RoundingAnswers(n, alpha))
    # and at α = 0.3, where 1/(2α) = 5/3 is not an integer: ⌈·⌉ = 2 cells, ⌊·⌋ would give 1
    odd_alpha = 0.3
    odd_transcripts, odd_worst, _ = run(RoundingAnswers(n, odd_alpha))
    odd_bound = math.ceil(1 / (2 * odd_alpha)) ** k  # this analyst reaches 3 of the 4
    odd = len(odd_transcripts) <= odd_bound and math.isclose(odd_worst, odd_alpha)
    odd = odd and odd_worst <= odd_alpha * (1 + 1e-12)
    cells = math.ceil(1 / (2 * alpha))
    bound = cells**k
    compressed = len(transcripts) == bound
    accurate = math.isclose(worst, alpha) and worst <= alpha
    stop_if_failed(
        config,
        compressed and accurate and odd,
        f"{len(transcripts)} transcripts (2^b = {bound}), worst error {worst}, at α = 0.3: "
        f"{len(odd_transcripts)} transcripts, worst error {odd_worst}",
    )
    queries = {tuple(bool(v) for v in q) for qs, _ in played.values() for q in qs}

    def as_query(mask: tuple[bool, ...]) -> Callable[[int], Fraction]:
        return lambda v: Fraction(int(mask[v]))

    radii = {m: ad.concentration_radius(as_query(m), mu, delta) for m in queries}
    means = {m: ad.population_mean(as_query(m), mu) for m in queries}
    bad_q, bad_a = Fraction(0), Fraction(0)
    for x, p in mu.items():
        qs, answers = played[x]
        masks = [tuple(bool(v) for v in q) for q in qs]
        dev = [abs(ad.query_mean(as_query(m), x) - means[m]) for m in masks]
        if any(d > radii[m] for d, m in zip(dev, masks, strict=True)):
            bad_q += p
        if any(
            abs(Fraction(a) - means[m]) > Fraction(alpha) + radii[m]
            for a, m in zip(answers, masks, strict=True)
        ):
            bad_a += p
    lemma = bad_q <= delta * len(queries) <= delta * k * bound
    theorem = bad_a <= delta * k * bound
    stop_if_failed(
        config, lemma and theorem, f"Lemma 7.2.6 {float(bad_q)}, Thm 7.2.7 {float(bad_a)}"
    )

    class Reused(SplitAnswers):
        def answer(self, counts, query, round_, rng):  # type: ignore[no-untyped-def]
            return super().answer(counts, query, 0, rng)

    def split_mismatches(cls: type[SplitAnswers]) -> int:
        wrong = 0
        for x in mu:
            blocks = [x[: n // 2], x[n // 2 :]]
            block_counts = np.array([np.bincount(b, minlength=3) for b in blocks])
            t = play(cls(block_counts), _SwitchAnalyst(), np.array(x), population, k, rng)
            for i, (q, a) in enumerate(zip(t.queries, t.answers, strict=True)):
                wrong += a != sum(int(q[v]) for v in blocks[i]) / len(blocks[i])
        return wrong

    split_ok = split_mismatches(SplitAnswers) == 0
    if config.under_control:  # every part held up to here (a failing one ended the check)
        stop_if_failed(config, split_ok, "split answers ≠ q_i(block_i)")
        return CheckOutcome(True, "under a bug control: every part holds")
    reused = split_mismatches(Reused)
    wide, _, _ = run(Wide(n, alpha))
    _, upper_worst, _ = run(Upper(n, alpha))
    _, coarse_worst, _ = run(Coarse(n, alpha))
    controls = [
        Control("cells of width α", len(wide) > bound, f"{len(wide)} transcripts > 2^b = {bound}"),
        Control(
            "answers at the cell's upper end", upper_worst > alpha, f"error {upper_worst:.3f} > α"
        ),
        Control("cells of width 4α", coarse_worst > alpha, f"error {coarse_worst:.3f} > α"),
        Control("split baseline answering on block 0", reused > 0, f"{reused} answers off"),
    ]
    ok = compressed and accurate and lemma and theorem and split_ok and odd
    ok = ok and all(c.caught for c in controls)
    return CheckOutcome(
        ok,
        f"{len(mu)} samples: {len(transcripts)} transcripts = 2^b = {bound}: {compressed}; worst "
        f"error {worst} = α: {accurate}; |Q_A| = {len(queries)}; Lemma 7.2.6: "
        f"P(∃i dev > γ) = {float(bad_q):.4f} ≤ δ|Q_A| = {float(delta * len(queries)):.2f} ≤ "
        f"δk2^b = {float(delta * k * bound):.1f}; Thm 7.2.7: P(∃i |a − q(μ)| > α + γ) = "
        f"{float(bad_a):.4f} ≤ {float(delta * k * bound):.1f}; split answers = q_i(block_i): "
        f"{split_ok}; at α = 0.3: {len(odd_transcripts)} transcripts ≤ ⌈1/(2α)⌉^k = "
        f"{odd_bound}, worst error {odd_worst:.3f} = α: {odd}",
        {"transcripts": len(transcripts), "worst_error": worst, "lemma": float(bad_q)},
        controls,
        [
            Slack("|H_A| ≤ 2^b", bound, len(transcripts)),
            Slack("max |a − q(S)| ≤ α", alpha, worst),
            Slack("Lemma 7.2.6 (union bound)", float(delta * len(queries)), float(bad_q)),
        ],
    )


@Obligation(
    id="adaptive.erratum.thesis-lemma-7.2.6-strict",
    source=f"{THESIS}:L2084 (Def 7.2.2); {THESIS}:L2102-2127 (Lemma 7.2.6, Thm 7.2.7)",
    claim=(
        "Lemma 7.2.6 and Thm 7.2.7 print '≥ γ' where Def 7.2.2 only bounds P(> γ): one "
        "fair bit gives γ = ½ and P(|q(S) − q(μ)| ≥ ½) = 1 > δ; with '>' both hold"
    ),
    method=Method.EXACT,
    predicates=(concentration_radius, deviation_probability),
    impls=(ExactAnswers,),
    tests=("tests/test_adaptive.py::test_errata",),
)
def lemma_726_strict(config: VerifyConfig) -> CheckOutcome:
    """Erratum (L2102–2127): Lemma 7.2.6 and Thm 7.2.7 bound P(∃i |q_i(S) − q_i(μ)| ≥ γ) with
    "≥", but Def 7.2.2's radius only guarantees P(|q(S) − q(μ)| > γ) < δ. One fair bit (Ω =
    {0, 1}, n = 1, q(x) = x, q(μ) = ½): every sample deviates by exactly ½, so γ(q, μ, δ) = ½
    for every δ ∈ (0, 1].

    * Lemma 7.2.6 as printed, with a constant mechanism (b = 0 bits, k = 1):
      P(|q(S) − q(μ)| ≥ ½) = 1 > δ·k·2^b = δ;
    * Thm 7.2.7 as printed, with exact answers ((0, 0)-empirically accurate, 2 transcripts:
      b = 1): P(|a − q(μ)| ≥ 0 + γ) = 1 > β + δk2^b = 2δ for δ < ½;
    * with ">" both hold: the probabilities are 0.

    Exact in Fractions for δ ∈ {1/1000, 1/10, 1/3}; the exact-answer transcripts are played."""
    mu: dict[tuple[int, ...], Fraction] = {(0,): Fraction(1, 2), (1,): Fraction(1, 2)}
    q = _singleton_query(1)
    rows, ok = [], True
    refuted_lemma = refuted_theorem = True
    for delta in (Fraction(1, 1000), Fraction(1, 10), Fraction(1, 3)):
        gamma = ad.concentration_radius(q, mu, delta)
        printed = ad.deviation_probability(q, mu, gamma, strict=False)
        corrected = ad.deviation_probability(q, mu, gamma)
        transcripts = {
            tuple(
                play(
                    ExactAnswers(1),
                    _FixedQuery(),
                    np.array(x),
                    np.array([0.5, 0.5]),
                    1,
                    np.random.default_rng(0),
                ).answers
            )
            for x in mu
        }
        b = math.log2(len(transcripts))
        ok &= gamma == Fraction(1, 2) and corrected == 0 and b == 1
        refuted_lemma &= printed > delta * 1 * 2**0
        refuted_theorem &= printed > 0 + delta * 1 * 2**b
        rows.append(f"δ={delta}: γ = {gamma}, P(≥ γ) = {printed}, P(> γ) = {corrected}")
    controls = [
        Control("Lemma 7.2.6 as printed (≥)", refuted_lemma, "P(≥ γ) = 1 > δ"),
        Control("Thm 7.2.7 as printed (≥)", refuted_theorem, "P(|a − q(μ)| ≥ γ) = 1 > 2δ"),
    ]
    return CheckOutcome(
        ok and refuted_lemma and refuted_theorem,
        "; ".join(rows),
        {},
        controls,
        [Slack("P(|q(S) − q(μ)| > γ) < δ", 1 / 1000, 0.0)],
    )


@Obligation(
    id="adaptive.erratum.thesis-remark-7.2.5-hoeffding",
    source=f"{THESIS}:L2098 (Remark 7.2.5)",
    claim=(
        "γ(q, μ, δ) = √(ln(2/δ)/2n) for product measures is only an upper bound "
        "(Hoeffding): 8 fair bits, δ = 1/4 give γ = 1/4 < 0.3605"
    ),
    method=Method.EXACT,
    predicates=(concentration_radius, deviation_probability),
    tests=("tests/test_adaptive.py::test_errata",),
)
def remark_725_hoeffding(config: VerifyConfig) -> CheckOutcome:
    """Erratum (L2098): Remark 7.2.5 states γ(q, μ, δ) = √(ln(2/δ)/(2n)) for a statistical
    query and a product measure; Hoeffding's inequality gives only γ ≤ √(ln(2/δ)/(2n)). On n
    i.i.d. fair bits and q(x) = x the exact radius is a multiple of 1/n: n = 8, δ = 1/4 gives
    γ = 1/4 < √(ln 8/16) = 0.3605 (pinned: P(|X/8 − ½| > 1/4) = 18/256 < 1/4 ≤
    P(|X/8 − ½| > 1/8) = 74/256). The inequality holds on a grid n ∈ {4, 6, 8}, δ ∈ {1/2, 1/4,
    1/10, 1/100} of product laws (exact enumeration of the i.i.d. law).

    Control: the radius read as the equality (the printed remark) differs from the exact one on
    every grid point where the grid of deviations is coarser than the formula."""
    rows, ok, equal_everywhere = [], True, True
    tightest, at = math.inf, (1.0, 1.0)
    for n in (4, 6, 8):
        mu = {x: Fraction(1, 2**n) for x in product((0, 1), repeat=n)}
        q = _singleton_query(1)
        for delta in (Fraction(1, 2), Fraction(1, 4), Fraction(1, 10), Fraction(1, 100)):
            gamma = ad.concentration_radius(q, mu, delta)
            hoeffding = math.sqrt(math.log(2 / float(delta)) / (2 * n))
            ok &= float(gamma) <= hoeffding
            equal_everywhere &= math.isclose(float(gamma), hoeffding)
            if gamma > 0 and hoeffding / float(gamma) < tightest:
                tightest, at = hoeffding / float(gamma), (hoeffding, float(gamma))
            if n == 8 and delta == Fraction(1, 4):
                pinned = gamma == Fraction(1, 4) and ad.deviation_probability(
                    q, mu, Fraction(1, 4)
                ) == Fraction(18, 256)
                ok &= pinned
                rows.append(f"n = 8, δ = 1/4: γ = {gamma} < {hoeffding:.4f} (pinned: {pinned})")
    return CheckOutcome(
        ok and not equal_everywhere,
        "; ".join(rows) + f"; γ ≤ √(ln(2/δ)/2n) on 12 product laws (n = 4, 6, 8): {ok}",
        {},
        [
            Control(
                "Remark 7.2.5 read as an equality",
                not equal_everywhere,
                "the exact radius differs from the formula",
            )
        ],
        [Slack("γ ≤ √(ln(2/δ)/2n)", *at)],
    )
