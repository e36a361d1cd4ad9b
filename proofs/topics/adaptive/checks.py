"""Checks of thesis ch. 7 on dependence: Gibbs dependence exactly, Markov chains (Lemma 7.3.3,
Lemmas 7.3.9–7.3.11, the corrected Thm 7.3.6 with its counterexample and Cor 7.3.7's skip
length), the tight example (Lemma 7.1.3) and the Chernoff erratum of Lemma 7.1.5.

Every check pins what it computes against values derived by hand or by an independent
computation, runs on an instance where its bound is nearly attained, and reports the plausible
bugs (controls) it rejects and its slack (claim against measured).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np
from scipy import stats

from dpspec.adaptive import tight_example, tight_example_law
from dpspec.proofs.engine.conformance import conformance, conformance_rng, power_against
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import (
    ERRATUM,
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
)
from dpspec.proofs.engine.seeds import THESIS
from dpspec.spec import adaptive as ad
from dpspec.spec.adaptive import (
    c_coefficient,
    conditional_law,
    gamma_coefficient,
    gibbs_dependence,
    kontorovich_distance,
    markov_chain,
    product_of_marginals,
    r_bar,
    skip,
    total_variation,
)

SEED = 7007

Law = dict[tuple[int, ...], Fraction]
Potentials = list[dict[tuple[int, int], Fraction]]


def _random_measure(rng: np.random.Generator, values: int, n: int) -> Law:
    w = {x: int(rng.integers(1, 12)) for x in product(range(values), repeat=n)}
    total = sum(w.values())
    return {x: Fraction(v, total) for x, v in w.items()}


def _random_product(rng: np.random.Generator, values: int, n: int) -> Law:
    margins = []
    for _ in range(n):
        w = [int(v) for v in rng.integers(1, 9, size=values)]
        margins.append([Fraction(v, sum(w)) for v in w])
    out = {}
    for x in product(range(values), repeat=n):
        p = Fraction(1)
        for i, v in enumerate(x):
            p *= margins[i][v]
        out[x] = p
    return out


def _random_chain(rng: np.random.Generator, values: int, n: int, top: int = 3) -> Potentials:
    """n − 1 rational potentials with entries in [1, top]."""
    return [
        {
            (a, b): Fraction(int(rng.integers(4, 4 * top + 1)), 4)
            for a in range(values)
            for b in range(values)
        }
        for _ in range(n - 1)
    ]


def _diagonal_chain(values: int, n: int, big: int) -> Potentials:
    """g(a, b) = ``big`` if a = b else 1 on every edge: the chains where ψ comes nearest R̄."""
    g = {(a, b): Fraction(big if a == b else 1) for a in range(values) for b in range(values)}
    return [g] * (n - 1)


#: The counterexample to Thm 7.3.6 (notes): n = 4, Ω = {0, 1}, g(a, b) = 3 if a = b else 1.
COUNTER = _diagonal_chain(2, 4, 3)


# ---------------------------------------------------------------------------------------------
# Gibbs dependence (Def 1.3.1)


def _tv(p: dict[Any, Fraction], q: dict[Any, Fraction], half: bool = True) -> Fraction:
    total = sum(
        (abs(p.get(k, Fraction(0)) - q.get(k, Fraction(0))) for k in set(p) | set(q)), Fraction(0)
    )
    return total / 2 if half else total


def _psi_variant(mu: Law, bug: str) -> Fraction:
    """ψ(μ) computed with one plausible bug (a control of :func:`gibbs_properties`)."""
    support = [x for x, p in mu.items() if p > 0]
    n = len(support[0])
    marginals = [ad.marginal(mu, i) for i in range(n)]

    def term(x: tuple[int, ...], i: int) -> Fraction:
        own = bug == "conditions on x_i too"
        cond = {x[i]: Fraction(1)} if own else ad.conditional(mu, i, x)
        return _tv(marginals[i], cond, half=bug != "TV without the 1/2")

    if bug == "max over i, not the mean":
        per_x = [max(term(x, i) for i in range(n)) for x in support]
    else:
        per_x = [sum((term(x, i) for i in range(n)), Fraction(0)) / n for x in support]
    if bug == "mean over the support, not the sup":
        return sum(per_x, Fraction(0)) / len(per_x)
    return max(per_x)


def _pinned_cases() -> list[tuple[str, Law, Fraction]]:
    """Measures whose ψ is known in closed form (derived by hand, not by the code):

    * two perfectly correlated bits: each conditional is a point mass, the marginal a fair coin:
      ψ = 1/2;
    * the binary symmetric chain of two coordinates, g = a on the diagonal, b off it: the
      conditional puts a/(a + b) on the other coordinate's value, the marginal 1/2:
      ψ = (a − b)/(2(a + b));
    * the Thm 7.3.6 counterexample (n = 4, g = 3/1): endpoints 1/4, interior 2/5 at x = 0000,
      ψ = (2·1/4 + 2·2/5)/4 = 13/40 (the digest's derivation).
    """
    bits: Law = {(0, 0): Fraction(1, 2), (1, 1): Fraction(1, 2)}
    cases: list[tuple[str, Law, Fraction]] = [("correlated bits", bits, Fraction(1, 2))]
    for a, b in ((2, 1), (3, 1), (7, 2), (10, 9)):
        g = [{(x, y): Fraction(a if x == y else b) for x in (0, 1) for y in (0, 1)}]
        cases.append((f"2-chain {a}/{b}", ad.markov_chain(g, (0, 1)), Fraction(a - b, 2 * (a + b))))
    cases.append(("Thm 7.3.6 chain", ad.markov_chain(COUNTER, (0, 1)), Fraction(13, 40)))
    return cases


@Obligation(
    id="adaptive.gibbs-dependence.properties",
    source=f"{THESIS}:L337-343 (Def 1.3.1)",
    claim=(
        "ψ on closed forms (1/2, (a−b)/(2(a+b)), 13/40), ψ(product) = 0, 0 ≤ ψ ≤ 1 and "
        "‖μ − ⊗μ_i‖_TV ≤ nψ, exactly; four buggy ψ rejected"
    ),
    method=Method.EXACT,
    predicates=(gibbs_dependence, total_variation, product_of_marginals),
    tests=("tests/test_adaptive.py::test_gibbs_dependence",),
    bug_controls=(
        BugControl(
            total_variation,
            "return total / 2",
            "return total",
            "total variation without its ½",
        ),
    ),
)
def gibbs_properties(config: VerifyConfig) -> CheckOutcome:
    """Def 1.3.1 (L337–343), exactly in Fractions:

    * ψ on measures with a closed form (:func:`_pinned_cases`) equals it;
    * ψ(product) = 0 on random product measures on {0,1,2}³;
    * 0 ≤ ψ ≤ 1, ‖μ − ⊗μ_i‖_TV ≤ nψ, and ψ > 0 for every non-product, on random measures on
      {0,1}³ and {0,1,2}³ (Claim 7.4.1's converse).

    Controls — ψ with one plausible bug each (the sup replaced by the mean over the support,
    the mean over coordinates by the max, the TV distance without its ½, the conditional also
    given x_i): each must fail one of these predicates. Slack: the smallest nψ/TV seen."""
    rng = np.random.default_rng(SEED)
    trials = 40 if config.thorough else 20
    products = [_random_product(rng, 3, 3) for _ in range(trials)]
    randoms = [_random_measure(rng, 2 if t % 2 else 3, 3) for t in range(trials)]
    pinned = _pinned_cases()

    def verdict(psi: Callable[[Law], Fraction]) -> tuple[list[str], tuple[Fraction, Fraction]]:
        problems = [
            f"{name}: ψ = {psi(mu)} ≠ {want}" for name, mu, want in pinned if psi(mu) != want
        ]
        problems += ["a product with ψ ≠ 0"] if any(psi(mu) != 0 for mu in products) else []
        tightest = (Fraction(10**9), Fraction(1))  # (nψ, TV) with the smallest ratio
        for t, mu in enumerate(randoms):
            value = psi(mu)
            tv = ad.total_variation(mu, ad.product_of_marginals(mu))
            if not (0 < value <= 1 and tv <= 3 * value):
                problems.append(f"random measure {t}: ψ = {float(value):.4f}, TV = {float(tv):.4f}")
            elif tv > 0 and 3 * value / tv < tightest[0] / tightest[1]:
                tightest = (3 * value, tv)
        return problems, tightest

    problems, tightest = verdict(ad.gibbs_dependence)
    bugs = (
        "mean over the support, not the sup",
        "max over i, not the mean",
        "TV without the 1/2",
        "conditions on x_i too",
    )
    controls = []
    for bug in bugs:

        def buggy(mu: Law, bug: str = bug) -> Fraction:
            return _psi_variant(mu, bug)

        found, _ = verdict(buggy)
        controls.append(Control(f"ψ with {bug}", bool(found), found[0] if found else "passed"))
    ok = not problems and all(c.caught for c in controls)
    return CheckOutcome(
        ok,
        f"ψ pinned on {len(pinned)} closed forms (1/2, (a−b)/(2(a+b)), 13/40); ψ(product) = 0 on "
        f"{trials}; 0 < ψ ≤ 1 and TV ≤ nψ on {trials} random measures (tightest nψ/TV = "
        f"{float(tightest[0] / tightest[1]):.3f}); problems: {problems[:3] or 'none'}; "
        f"controls caught {sum(c.caught for c in controls)}/{len(controls)}",
        {"tightest_ratio": float(tightest[0] / tightest[1]), "problems": problems},
        controls,
        [Slack("‖μ − ⊗μ_i‖_TV ≤ nψ", float(tightest[0]), float(tightest[1]))],
    )


# ---------------------------------------------------------------------------------------------
# Markov chains: Lemma 7.3.3, Lemmas 7.3.9–7.3.11, Thm 7.3.6 (corrected) and Cor 7.3.7


@Obligation(
    id="adaptive.markov-chain.lemma-7.3.3",
    source=f"{THESIS}:L2147-2169 (Def 7.3.1-7.3.2, Lemma 7.3.3)",
    claim="ψ(μ) ≤ R̄ = (R² − r²)/(R² + r²) for undirected Markov chains, exactly (ψ/R̄ = 0.73)",
    method=Method.EXACT,
    predicates=(markov_chain, r_bar, gibbs_dependence),
    tests=("tests/test_adaptive.py::test_markov_chains",),
    bug_controls=(
        BugControl(
            r_bar,
            "return (big**2 - small**2) / (big**2 + small**2)",
            "return (big - small) / (big + small)",
            "R̄ without the squares (Lemma 7.3.9's one-factor form)",
        ),
    ),
)
def lemma_733(config: VerifyConfig) -> CheckOutcome:
    """Lemma 7.3.3 (L2167–2169): ψ(μ) ≤ R̄ = (R² − r²)/(R² + r²), exactly, on random chains
    (Ω = {0, 1}, n = 5; Ω = {0, 1, 2}, n = 3; potentials in [1, 3]) and on the diagonal chains
    g = R·1{a = b} + 1{a ≠ b} (Ω up to 4 values, R up to 100), where ψ/R̄ reaches 0.73 (Ω = 4,
    R = 100, n = 3). R̄ is pinned on the Thm 7.3.6 chain: (9 − 1)/(9 + 1) = 4/5.

    Control: the bound understated 2× (R̄/2, a proof step dropping a factor) must be exceeded
    on the tight chain; a product chain (constant potentials) has R̄ = ψ = 0."""
    rng = np.random.default_rng(SEED + 2)
    trials = 40 if config.thorough else 16
    ok, worst = True, Fraction(0)
    for t in range(trials):
        values, n = (2, 5) if t % 2 else (3, 3)
        g = _random_chain(rng, values, n)
        psi = ad.gibbs_dependence(ad.markov_chain(g, tuple(range(values))))
        ok &= psi <= ad.r_bar(g)
        worst = max(worst, psi / ad.r_bar(g))
    tight: tuple[Fraction, Fraction] = (Fraction(0), Fraction(1))
    for values, big in ((2, 100), (3, 10), (4, 100)):
        g = _diagonal_chain(values, 3, big)
        psi = ad.gibbs_dependence(ad.markov_chain(g, tuple(range(values))))
        ok &= psi <= ad.r_bar(g)
        if psi / ad.r_bar(g) > tight[0] / tight[1]:
            tight = (psi, ad.r_bar(g))
    pinned = ad.r_bar(COUNTER) == Fraction(4, 5)
    flat = [{(a, b): Fraction(2) for a in (0, 1) for b in (0, 1)}] * 3
    product_zero = ad.r_bar(flat) == 0 == ad.gibbs_dependence(ad.markov_chain(flat, (0, 1)))
    psi_t, rbar_t = tight
    halved = psi_t > rbar_t / 2
    return CheckOutcome(
        ok and pinned and product_zero and halved,
        f"ψ ≤ R̄ on {trials} random chains (largest ψ/R̄ {float(worst):.3f}) and 3 diagonal chains; "
        f"tightest ψ = {float(psi_t):.4f} vs R̄ = {float(rbar_t):.4f}; R̄(g = 3/1) = 4/5: {pinned}; "
        f"product: R̄ = ψ = 0: {product_zero}",
        {"tight_psi": float(psi_t), "tight_r_bar": float(rbar_t)},
        [
            Control(
                "R̄ understated 2× (R̄/2)",
                halved,
                f"ψ = {float(psi_t):.4f} > R̄/2 = {float(rbar_t / 2):.4f}",
            )
        ],
        [Slack("ψ ≤ R̄", float(rbar_t), float(psi_t))],
    )


@Obligation(
    id="adaptive.markov-chain.lemmas-7.3.9-7.3.11",
    source=f"{THESIS}:L2204-2345 (Lemmas 7.3.9, 7.3.10, 7.3.11; Thm 7.3.6 proof)",
    claim=(
        "Kontorovich's ½Σ|αf/Σαf − αg/Σαg| ≤ (R−r)/(R+r) (attained), γ_i^t ≤ Π c_i^j "
        "(attained) and c_i^t ≤ max_j c_j^1, exactly on small chains"
    ),
    method=Method.EXACT,
    predicates=(kontorovich_distance, gamma_coefficient, c_coefficient, conditional_law),
    tests=("tests/test_adaptive.py::test_markov_chains",),
    bug_controls=(
        BugControl(
            kontorovich_distance,
            "        / 2\n",
            "        / 4\n",
            "Kontorovich's distance halved",
        ),
    ),
)
def markov_lemmas(config: VerifyConfig) -> CheckOutcome:
    """Lemmas 7.3.9–7.3.11 (L2204–2345), exactly on small chains.

    * Lemma 7.3.9 (Kontorovich): ½Σ|α_i f_i/Σαf − α_i g_i/Σαg| ≤ (R − r)/(R + r) for f, g ∈
      [r, R]^n, α ≥ 0: on random rational vectors (n ≤ 4) and on α = (1, 1), f = (R, r),
      g = (r, R), where it is attained (equality: the bound is exact).
    * Lemma 7.3.10: γ_i^t ≤ Π_{j ≤ t} c_i^j (L2199–2203 define γ_i^t, c_i^t), for t = 1, 2
      on chains of length 5 (i = 2) and t = 3 on length 7 (i = 3), binary, random potentials in
      [1, 3] and the diagonal chains; equality holds on the g = 3/1 chain (8/17 = 4/5 · 10/17).
    * Lemma 7.3.11: for every t, i there is j with c_i^t ≤ c_j^1, i.e. c_i^t ≤ max_j c_j^1.
    * The broken step of Thm 7.3.6 (L2256, "max_l c_l^1 = ψ(μ)"): on the g = 3/1 chain
      max c^1 = 4/5 ≠ ψ = 13/40 (pinned).

    Controls: each bound understated 2× must be exceeded on its tightest instance."""
    rng = np.random.default_rng(SEED + 5)
    trials = 24 if config.thorough else 8
    problems: list[str] = []
    ratios: dict[str, Fraction] = {
        "7.3.9": Fraction(0),
        "7.3.10": Fraction(0),
        "7.3.11": Fraction(0),
    }
    for _ in range(4 * trials):
        size = int(rng.integers(1, 5))
        lo, hi = Fraction(int(rng.integers(1, 4))), Fraction(int(rng.integers(4, 9)))
        alpha = [Fraction(int(rng.integers(0, 5))) for _ in range(size)]
        if not any(alpha):
            alpha[0] = Fraction(1)
        fv = [lo + (hi - lo) * Fraction(int(rng.integers(0, 5)), 4) for _ in range(size)]
        gv = [lo + (hi - lo) * Fraction(int(rng.integers(0, 5)), 4) for _ in range(size)]
        bound = (hi - lo) / (hi + lo)
        d = ad.kontorovich_distance(alpha, fv, gv)
        if d > bound:
            problems.append(f"7.3.9: {d} > {bound}")
        ratios["7.3.9"] = max(ratios["7.3.9"], d / bound)
    for big, small in ((3, 1), (7, 2), (100, 1)):
        attained = ad.kontorovich_distance(
            [Fraction(1), Fraction(1)],
            [Fraction(big), Fraction(small)],
            [Fraction(small), Fraction(big)],
        )
        ratios["7.3.9"] = max(ratios["7.3.9"], attained / Fraction(big - small, big + small))
    chains: list[Potentials] = [_random_chain(rng, 2, 5) for _ in range(trials)]
    chains += [_diagonal_chain(2, 5, 3), _diagonal_chain(2, 5, 10), _diagonal_chain(3, 5, 10)]
    if config.thorough:
        chains += [_diagonal_chain(2, 7, 3), _random_chain(rng, 2, 7)]
    for g in chains:
        values = tuple(range(len({a for a, _ in g[0]})))
        mu = ad.markov_chain(g, values)
        n = len(g) + 1
        c1 = {j: ad.c_coefficient(mu, j, 1) for j in range(1, n - 1)}
        for t in range(1, (n - 1) // 2 + 1):
            i = n // 2
            gamma = ad.gamma_coefficient(mu, i, t)
            prod = Fraction(1)
            for j in range(1, t + 1):
                prod *= ad.c_coefficient(mu, i, j)
            if gamma > prod:
                problems.append(f"7.3.10: γ_{i}^{t} = {gamma} > {prod}")
            if t >= 2 and prod:
                ratios["7.3.10"] = max(ratios["7.3.10"], gamma / prod)
            ct = ad.c_coefficient(mu, i, t)
            if ct > max(c1.values()):
                problems.append(f"7.3.11: c_{i}^{t} = {ct} > max c^1 = {max(c1.values())}")
            if t >= 2:
                ratios["7.3.11"] = max(ratios["7.3.11"], ct / max(c1.values()))
    counter = ad.markov_chain(COUNTER, (0, 1))
    c_counter = max(ad.c_coefficient(counter, j, 1) for j in (1, 2))
    broken_step = c_counter == Fraction(4, 5) and ad.gibbs_dependence(counter) == Fraction(13, 40)
    controls = [
        Control(
            f"Lemma {name} bound understated 2×",
            ratio > Fraction(1, 2),
            f"largest ratio {float(ratio):.4f}",
        )
        for name, ratio in ratios.items()
    ]
    ok = not problems and broken_step and all(c.caught for c in controls)
    return CheckOutcome(
        ok,
        f"Lemma 7.3.9 on {4 * trials} random vectors + 3 attained cases; Lemmas 7.3.10–7.3.11 on "
        f"{len(chains)} chains; largest ratios (measured/bound) "
        + ", ".join(f"{k}: {float(v):.4f}" for k, v in ratios.items())
        + f"; max c^1 = {c_counter} ≠ ψ = 13/40 (the step L2256 equates them): {broken_step}; "
        f"problems: {problems[:3] or 'none'}",
        {k: float(v) for k, v in ratios.items()},
        controls,
        [Slack(f"Lemma {k}", 1.0, float(v)) for k, v in ratios.items()],
    )


@Obligation(
    id="adaptive.erratum.thesis-thm-7.3.6",
    source=f"{THESIS}:L2177-2189 (Def 7.3.5, Thm 7.3.6, Cor 7.3.7); {THESIS}:L2256 (proof)",
    claim=(
        "ψ(μ_{×t}) ≤ ψ(μ)^t is false (n = 4, g = 3 on the diagonal, t = 2: 1/8 > "
        "169/1600); ψ(μ_{×t}) ≤ R̄^t holds; Cor 7.3.7's t = ⌈ln(1/α)/ln(1/R̄)⌉ gives "
        "ψ(μ_{×t}) ≤ α"
    ),
    method=Method.EXACT,
    predicates=(skip, gibbs_dependence, r_bar),
    tests=("tests/test_adaptive.py::test_markov_chains",),
    bug_controls=(
        BugControl(
            skip,
            "key = x[::t]",
            "key = x[: len(x) // t]",
            "μ_{×t} as the first n/t coordinates",
        ),
    ),
)
def thm_736(config: VerifyConfig) -> CheckOutcome:
    """Erratum (L2181–2183): Thm 7.3.6 claims ψ(μ_{×t}) ≤ ψ(μ)^t. On the chain n = 4,
    g(a, b) = 3 if a = b else 1, t = 2: ψ(μ) = 13/40 and ψ(μ_{×2}) = 1/8 > (13/40)² = 169/1600
    (both derived by hand in the digest: P(x₂ = x₀ | x₀) = 10/16). The corrected statement
    ψ(μ_{×t}) ≤ R̄^t (what the proof supports) holds on it, on random chains (n = 5, t = 2, 4),
    and on the diagonal chain Ω = 4, R = 100, n = 3, where ψ(μ_{×2})/R̄² = 0.69. Cor 7.3.7's skip
    length: t = ⌈ln(1/α)/ln(1/R̄)⌉ gives ψ(μ_{×t}) ≤ α, for α ∈ {1/2, 1/5, 1/20} on the random
    chains (n = 5).

    Controls: μ_{×t} taken as the first n/t coordinates (x[:n/t], a plausible misreading of
    Def 7.3.5) moves ψ(μ_{×2}) off 1/8; the corrected bound understated 2× (R̄^t/2) is exceeded
    on the tight chain."""
    mu = ad.markov_chain(COUNTER, (0, 1))
    psi, skipped = ad.gibbs_dependence(mu), ad.gibbs_dependence(ad.skip(mu, 2))
    pinned = psi == Fraction(13, 40) and skipped == Fraction(1, 8) and skipped > psi**2
    corrected_here = skipped <= ad.r_bar(COUNTER) ** 2
    rng = np.random.default_rng(SEED + 1)
    trials = 60 if config.thorough else 20
    printed_fails, corrected_ok, skip_ok = 0, True, True
    for t in range(trials):
        g = _random_chain(rng, 2, 5)
        chain = ad.markov_chain(g, (0, 1))
        step = 2 if t % 2 else 4
        value = ad.gibbs_dependence(ad.skip(chain, step))
        corrected_ok &= value <= ad.r_bar(g) ** step
        printed_fails += value > ad.gibbs_dependence(chain) ** step
        for alpha in (Fraction(1, 2), Fraction(1, 5), Fraction(1, 20)):
            length = math.ceil(math.log(1 / alpha) / math.log(1 / ad.r_bar(g)))
            if length < 5:
                skip_ok &= ad.gibbs_dependence(ad.skip(chain, length)) <= alpha
    tight_g = _diagonal_chain(4, 3, 100)
    tight = ad.gibbs_dependence(ad.skip(ad.markov_chain(tight_g, (0, 1, 2, 3)), 2))
    bound = ad.r_bar(tight_g) ** 2
    corrected_ok &= tight <= bound
    first_half: Law = {}
    for x, p in mu.items():
        first_half[x[:2]] = first_half.get(x[:2], Fraction(0)) + p
    misread = ad.gibbs_dependence(first_half)
    controls = [
        Control(
            "μ_{×t} as the first n/t coordinates",
            misread != Fraction(1, 8),
            f"ψ = {misread} instead of 1/8",
        ),
        Control(
            "R̄^t understated 2×",
            tight > bound / 2,
            f"ψ(μ×2) = {float(tight):.4f} > R̄²/2 = {float(bound / 2):.4f}",
        ),
    ]
    ok = pinned and corrected_here and corrected_ok and skip_ok and printed_fails > 0
    ok = ok and all(c.caught for c in controls)
    return CheckOutcome(
        ok,
        f"counterexample: ψ(μ) = {psi}, ψ(μ×2) = {skipped} > ψ(μ)² = {psi**2}: {pinned}; "
        f"corrected ψ(μ×t) ≤ R̄^t on it, on {trials} random chains and on the tight chain "
        f"({float(tight):.4f} ≤ {float(bound):.4f}): {corrected_here and corrected_ok}; printed "
        f"form fails on {printed_fails}/{trials}; Cor 7.3.7's skip length gives ψ(μ×t) ≤ α: "
        f"{skip_ok}",
        {"psi": str(psi), "psi_skip": str(skipped), "tight_ratio": float(tight / bound)},
        controls,
        [Slack("ψ(μ×t) ≤ R̄^t", float(bound), float(tight))],
    )


@Obligation(
    id="adaptive.erratum.thesis-L2159-r-bar",
    source=f"{THESIS}:L2159 (Def 7.3.2); {THESIS}:L2169",
    claim="R̄ printed as R²r²/(R² + r²) is not scale invariant and falls below ψ",
    method=Method.EXACT,
    predicates=(r_bar,),
    tests=("tests/test_adaptive.py::test_markov_chains",),
)
def r_bar_printed(config: VerifyConfig) -> CheckOutcome:
    """Erratum (L2159): R̄ printed as R²r²/(R² + r²) is not scale invariant — scaling every
    potential by c leaves μ unchanged but multiplies it by c²; with the potentials of the Thm 7.3.6
    counterexample divided by 10, the printed R̄ = 0.0009/0.1 = 9/1000 < ψ(μ) = 13/40 (Lemma 7.3.3
    would fail); the L2169 form (R² − r²)/(R² + r²) = 4/5 (hand-derived) is unchanged.

    Control: the printed formula used as R̄ (the bug a reader copying L2159 makes) falls below
    ψ, so Lemma 7.3.3 rejects it."""
    scaled = [{k: v / 10 for k, v in g.items()} for g in COUNTER]
    psi = ad.gibbs_dependence(ad.markov_chain(scaled, (0, 1)))
    printed, correct = ad.r_bar(scaled, printed=True), ad.r_bar(scaled)
    ok = printed == Fraction(9, 1000) and psi == Fraction(13, 40) and correct == Fraction(4, 5)
    return CheckOutcome(
        ok and printed < psi <= correct,
        f"ψ = {psi}; printed R̄ = {printed} (< ψ: {printed < psi}); corrected R̄ = {correct}, "
        f"scale invariant: {correct == ad.r_bar(COUNTER)}",
        {"printed": str(printed), "psi": str(psi)},
        [Control("R̄ as printed at L2159", printed < psi, f"{float(printed)} < ψ = {float(psi)}")],
        [Slack("ψ ≤ R̄", float(correct), float(psi))],
    )


# ---------------------------------------------------------------------------------------------
# The tight example (Lemma 7.1.3) and Lemma 7.1.5's Chernoff step


def _tight_law_by_definition(values: int, n: int, psi: Fraction) -> Law:
    """μ_ψ from its generative definition (L2021–2026): x* uniform, then each coordinate is x*
    with probability ψ, else uniform — summed over x* term by term (independent of the grouped
    formula of :func:`dpspec.adaptive.tight_example_law`)."""
    out: Law = {}
    for x in product(range(values), repeat=n):
        total = Fraction(0)
        for star in range(values):
            p = Fraction(1, values)
            for v in x:
                p *= psi * (v == star) + (1 - psi) * Fraction(1, values)
            total += p
        out[tuple(x)] = total
    return out


@Obligation(
    id="adaptive.tight-example.lemma-7.1.3",
    source=f"{THESIS}:L2021-2044 (μ_ψ, Lemma 7.1.3)",
    claim=(
        "ψ(μ_ψ) ≤ ψ on the finite tight example, exactly (ψ(μ_ψ)/ψ = 0.66); the law "
        "equals its definition; the sampler follows the law"
    ),
    method=Method.EXACT,
    predicates=(gibbs_dependence,),
    impls=(tight_example, tight_example_law),
    tests=("tests/test_adaptive.py::test_tight_example",),
    bug_controls=(
        BugControl(
            tight_example,
            "rng.random((size, n)) < psi",
            "rng.random((size, n)) < 2 * psi",
            "the sampler copies x* with probability 2ψ",
        ),
        BugControl(
            tight_example_law,
            "a, b = psi + (1 - psi) / size, (1 - psi) / size",
            "a, b = psi + (1 - psi) / size, (1 - psi) / (size + 1)",
            "the law's fresh values over N + 1 values",
        ),
    ),
)
def tight_example_check(config: VerifyConfig) -> CheckOutcome:
    """Lemma 7.1.3 (L2028–2044), exactly: the finite μ_ψ on {0,1,2}³ has ψ(μ_ψ) ≤ ψ for
    ψ ∈ {1/10, 1/3, 1/2, 9/10}; :func:`tight_example_law` equals the law written from the
    definition (every x*, term by term); :func:`tight_example` (the sampler) follows the law
    (chi-square at 1e-6 over 27 outcomes, 20,000 draws).

    Controls: the law built with the copy probability 2ψ (the mutant of the sampler) breaks
    ψ(μ) ≤ ψ at ψ = 1/3; the bound understated 2× (ψ/2) is exceeded at ψ = 9/10 (ψ(μ_ψ) = 0.598);
    the sampler at 2ψ is rejected by the conformance test (power stated)."""
    rows, ok, tightest = [], True, Fraction(0)
    for psi in (Fraction(1, 10), Fraction(1, 3), Fraction(1, 2), Fraction(9, 10)):
        law = tight_example_law(3, 3, psi)
        ok &= law == _tight_law_by_definition(3, 3, psi)
        value = ad.gibbs_dependence(law)
        ok &= value <= psi
        tightest = max(tightest, value / psi)
        rows.append(f"ψ={psi}: ψ(μ_ψ) = {float(value):.4f}")
    doubled_psi = ad.gibbs_dependence(tight_example_law(3, 3, Fraction(2, 3)))
    law_f = {k: float(v) for k, v in tight_example_law(3, 3, Fraction(1, 3)).items()}
    doubled = {k: float(v) for k, v in tight_example_law(3, 3, Fraction(2, 3)).items()}
    rng = conformance_rng(700)
    draws = 80_000 if config.thorough else 20_000

    def sample(psi: float) -> Callable[[int], list[tuple[int, ...]]]:
        return lambda m: [tuple(r) for r in tight_example(3, 3, psi, m, rng).tolist()]

    report = conformance("tight_example", law_f, sample(1 / 3), sample(2 / 3), doubled, draws)
    report.power = power_against(law_f, doubled, draws)
    report.control_bug = "copy probability 2ψ"
    controls = [
        Control(
            "μ_ψ built with copy probability 2ψ (ψ = 1/3)",
            doubled_psi > Fraction(1, 3),
            f"ψ(μ) = {float(doubled_psi):.4f} > 1/3",
        ),
        Control(
            "Lemma 7.1.3's bound understated 2× (ψ/2)",
            tightest > Fraction(1, 2),
            f"largest ψ(μ_ψ)/ψ = {float(tightest):.4f}",
        ),
        report.control,
    ]
    ok = ok and report.conforms and all(c.caught for c in controls)
    return CheckOutcome(
        ok,
        "; ".join(rows) + f"; law = definition: {ok}; {report.summary()}",
        {"tightest": float(tightest), "pvalue": report.pvalue, "power": report.power},
        controls,
        [Slack("ψ(μ_ψ) ≤ ψ", 1.0, float(tightest))],
    )


def _binomial_below_half(n: int, psi: float) -> float:
    """P(Bin(n, ψ) < nψ/2), by scipy's binomial CDF."""
    return float(stats.binom.cdf(math.ceil(n * psi / 2) - 1, n, psi))


@Obligation(
    id="adaptive.erratum.thesis-lemma-7.1.5-chernoff",
    source=f"{THESIS}:L2056-2076 (Lemma 7.1.5; L2067 Chernoff step)",
    claim="P(Bin(n, ψ) < nψ/2) ≤ e^{−nψ/8}, not e^{−n/8} (n = 194, ψ = 0.2: 9.6e-5 > 2.9e-11)",
    method=Method.EXACT,
    no_predicate=(
        f"{ERRATUM}: the exact binomial tail P(Bin(n, ψ) < nψ/2) against the printed e^(−n/8) and "
        "the corrected e^(−nψ/8)"
    ),
    tests=("tests/test_adaptive.py::test_errata",),
)
def lemma_715_chernoff(config: VerifyConfig) -> CheckOutcome:
    """Erratum (L2067): the Chernoff step of Lemma 7.1.5 bounds P(Bin(n, ψ) < nψ/2) by e^{−n/8};
    the multiplicative Chernoff bound gives e^{−nψ/8}. At n = 194, ψ = 0.2 the exact probability
    9.6e-5 exceeds e^{−n/8} = 2.9e-11 and respects e^{−nψ/8} = 7.8e-3; the corrected bound holds on
    a grid of (n, ψ) from nψ = 0.05 (nearly attained there: P = 0.95 vs 0.994) to nψ = 1800.

    Control: the exponent nψ/4 (the deviation δ = ½ entered as δ/2 instead of δ²/2, a slip
    that looks like a tightening) is violated on the grid's large-nψ points."""
    n, psi = 194, 0.2
    exact = _binomial_below_half(n, psi)
    printed, corrected = math.exp(-n / 8), math.exp(-n * psi / 8)
    grid = [(m, p) for m in (1, 2, 5, 20, 50, 194, 500, 2000) for p in (0.05, 0.1, 0.2, 0.5, 0.9)]
    tail = {(m, p): _binomial_below_half(m, p) for m, p in grid}
    grid_ok = all(tail[(m, p)] <= math.exp(-m * p / 8) for m, p in grid)
    tightest = max(tail[(m, p)] / math.exp(-m * p / 8) for m, p in grid)
    quarter = [(m, p) for m, p in grid if tail[(m, p)] > math.exp(-m * p / 4)]
    ok = exact > printed and exact <= corrected and grid_ok and bool(quarter)
    return CheckOutcome(
        ok,
        f"P(Bin(194, 0.2) < 19.4) = {exact:.3g} > e^(-n/8) = {printed:.3g}; ≤ e^(-nψ/8) = "
        f"{corrected:.3g}; corrected bound on {len(grid)} grid points: {grid_ok} (tightest "
        f"P/bound {tightest:.3f})",
        {"exact": exact, "tightest": tightest},
        [
            Control("the printed exponent n/8", exact > printed, f"{exact:.3g} > {printed:.3g}"),
            Control("the exponent nψ/4", bool(quarter), f"violated at (n, ψ) = {quarter[:2]}"),
        ],
        [Slack("P(Bin < nψ/2) ≤ e^{−nψ/8}", 1.0, tightest)],
    )
