"""Checks of the statements of seed 004 that are false as printed (``errata.py``).

Each exhibits the printed statement failing on an exact instance — the printed statement is
the control the check catches — and the corrected statement holding, where possible on an
instance where the correction is nearly attained (a second control: the correction made a
little stronger fails there).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from dpspec.cover_learners import PrivateCoverClassifier
from dpspec.proofs.engine.registry import (
    ERRATUM,
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
)
from dpspec.proofs.engine.seeds import CHAUDHURI_HSU
from dpspec.proofs.topics.cover_learners.common import SEED
from dpspec.proofs.topics.cover_learners.geometry import band_mass
from dpspec.proofs.topics.cover_learners.lower_bounds import LEMMA11_ALPHA, lemma11_misses
from dpspec.proofs.topics.cover_learners.utility import tie_sample
from dpspec.spec import cover_learners as sc
from dpspec.spec.cover_learners import exponential_tail_holds, lemma11_conclusion, threshold_family


@Obligation(
    id="cover-learners.erratum.chaudhuri-hsu-lemma-11",
    source=f"{CHAUDHURI_HSU}:L365 (Lemma 11, as printed)",
    claim="Lemma 11's printed conclusion '≤ 1/2' fails on the exact instance; '> 1/2' holds",
    method=Method.EXACT,
    predicates=(lemma11_conclusion,),
    tests=("tests/test_cover_learners.py::test_lemma11",),
)
def lemma11_printed(config: VerifyConfig) -> CheckOutcome:
    """Lemma 11 as printed (L365: "≤ 1/2") is false: on the exact instance the α-label private
    exponential mechanism misses every h ∈ P with probability > 1/2, so no Q with
    |Q| ≥ |P|/2 and miss ≤ 1/2 exists; the corrected "> 1/2" holds. Control: on ERM's misses
    (computed) the two forms swap — the check tells them apart."""
    miss, erm, _ = lemma11_misses(LEMMA11_ALPHA)
    printed = sc.lemma11_conclusion(miss, printed=True)
    corrected = sc.lemma11_conclusion(miss)
    swapped = sc.lemma11_conclusion(erm, printed=True) and not sc.lemma11_conclusion(erm)
    return CheckOutcome(
        not printed and corrected and swapped,
        f"miss ∈ [{min(miss):.4f}, {max(miss):.4f}]: printed (≤ 1/2 for ≥ 33) holds: {printed}; "
        f"corrected (> 1/2 for ≥ 33) holds: {corrected}; on ERM the forms swap: {swapped}",
        {"miss": min(miss)},
        [
            Control("Lemma 11 as printed (≤ 1/2)", not printed),
            Control("a learner for which the printed form holds (ERM) is told apart", swapped),
        ],
        [Slack("miss probability against 1/2", min(miss), 0.5)],
    )


@Obligation(
    id="cover-learners.erratum.chaudhuri-hsu-thm-9-exponent",
    source=f"{CHAUDHURI_HSU}:L565 (proof of Thm 9)",
    claim=(
        "the final step needs |G|e^{-3αmε/40} (Lemma 18 with a_g = α m err/2), not the "
        "printed |G|e^{-3εm/20}: A1r's exact tail exceeds the printed bound"
    ),
    method=Method.EXACT,
    predicates=(exponential_tail_holds,),
    impls=(PrivateCoverClassifier,),
    tests=("tests/test_cover_learners.py::test_errata",),
)
def thm9_exponent(config: VerifyConfig) -> CheckOutcome:
    """Erratum (L565): Thm 9's final step bounds P(err(h, S) > err(g₀, S) + 3ε/20) by
    |G|e^{−3ε|S|/20}; Lemma 18 with a_g = α|S|err(g, S)/2 gives |G|e^{−3α|S|ε/40}. On A1r's
    exact ``release_law``: (i) a random realizable sample (m = 2000, ε = 0.1): at α = 0.01 the
    tail (≈ 0.7) exceeds the printed bound (≈ 10^-12) and respects the corrected one; (ii) the
    tie sample of ``a1r_selection_step`` (α = 1, ε = 0.2, m = 333, all candidates but one
    10 mistakes behind): the printed bound fails again, the corrected one is within 1.2× of the
    tail, so halving it fails."""
    rng = np.random.default_rng(SEED + 8)
    rows = []
    m, eps = 2000, 0.1
    X = rng.random((m, 1))
    y = (X[:, 0] >= 0.37).astype(np.int64)
    samples = [(0.01, eps, X, y), (1.0, eps, X, y)]
    tie = PrivateCoverClassifier(1.0, 0.2, 0.05, realizable=True)
    t = 3 * 0.2 / 20
    Xt, yt = tie_sample(tie, math.floor(333 * t) + 1, 333)
    samples.append((1.0, 0.2, Xt, yt))
    for alpha, accuracy, Xs, ys in samples:
        learner = PrivateCoverClassifier(alpha, accuracy, 0.05, realizable=True)
        size = Xs.shape[0]
        cands = learner.candidates(Xs)
        mistakes = cands.mistakes(Xs[:, 0], ys)
        law = learner.release_law(Xs, ys)
        best = int(mistakes.min())
        tail = sum(p for k, p in law.items() if mistakes[k] > best + 3 * accuracy * size / 20)
        printed = cands.size * math.exp(-3 * accuracy * size / 20)
        corrected = cands.size * math.exp(-3 * alpha * size * accuracy / 40)
        a = [alpha * float(v) / 2 for v in mistakes]
        lemma = sc.exponential_tail_holds(
            a, int(np.argmin(mistakes)), alpha * size * 3 * accuracy / 40
        )
        rows.append((alpha, size, tail, printed, corrected, lemma))
    low, high, tied = rows
    printed_caught = low[2] > low[3] and tied[2] > tied[3]
    corrected_holds = all(r[2] <= r[4] and r[5] for r in rows)
    halved_caught = tied[2] > tied[4] / 2
    return CheckOutcome(
        printed_caught and corrected_holds and high[2] <= high[3] and halved_caught,
        "; ".join(
            f"α={a}, m={s}: tail {t:.3g}, printed bound {p:.3g}, corrected bound {c:.3g}, "
            f"Lemma 18: {lm}"
            for a, s, t, p, c, lm in rows
        ),
        {"rows": [list(r) for r in rows]},
        [
            Control("the printed exponent 3ε|S|/20 (α and ½ dropped)", printed_caught),
            Control("the corrected bound halved, on the tie sample", halved_caught),
        ],
        [Slack("corrected bound against the tail (tie sample)", tied[4], tied[2])],
    )


@Obligation(
    id="cover-learners.erratum.chaudhuri-hsu-lemma-18",
    source=f"{CHAUDHURI_HSU}:L481-497 (Lemma 18)",
    claim=(
        "Lemma 18.1 as printed (a_i ≤ t ⇒ P(j = i) ≥ e^{-(t-a_i0)}) fails on a = (0, 0); "
        "the proof's a_i ≥ t ⇒ P(j = i) ≤ e^{-(t-a_i0)} and 18.2 hold"
    ),
    method=Method.EXACT,
    predicates=(exponential_tail_holds,),
    tests=("tests/test_cover_learners.py::test_errata",),
)
def lemma18_part1(config: VerifyConfig) -> CheckOutcome:
    """Erratum (L484): Lemma 18.1 prints "a_i ≤ t ⇒ P(j = i) ≥ e^{−(t − a_{i₀})}"; its proof
    (L490) shows a_i ≥ t ⇒ P(j = i) ≤ e^{−(t − a_{i₀})}. Printed form fails on a = (0, 0),
    i = i₀ = 0, t = 0 (P = 1/2 < 1); the corrected form and 18.2 hold on random weight vectors
    and are nearly attained on a = (0, t), i₀ = 0, i = 1 (P = e^{−t}/(1 + e^{−t})): halving the
    corrected bound fails there."""
    rng = np.random.default_rng(SEED + 9)
    printed_fails = math.exp(-(0 - 0)) > 0.5
    corrected = True
    for _ in range(200):
        a = rng.exponential(2.0, size=int(rng.integers(2, 12)))
        p = np.exp(-(a - a.min()))
        p /= p.sum()
        i0, t = int(rng.integers(a.size)), float(rng.uniform(0, 6))
        corrected &= bool(np.all(p[a >= t] <= np.exp(-(t - a[i0])) * (1 + 1e-9)))
        corrected &= sc.exponential_tail_holds(a.tolist(), i0, t)
    t = 8.0
    attained = math.exp(-t) / (1 + math.exp(-t))
    halved_caught = attained > math.exp(-t) / 2
    return CheckOutcome(
        printed_fails and corrected and halved_caught,
        f"printed 18.1 fails on a = (0, 0): {printed_fails}; corrected 18.1 and 18.2 on 200 "
        f"random vectors: {corrected}; a = (0, 8): P = {attained:.4g} against e^(−8) = "
        f"{math.exp(-t):.4g}",
        {"attained": attained},
        [
            Control("Lemma 18.1 as printed (a_i ≤ t, ≥)", printed_fails),
            Control("the corrected bound halved", halved_caught),
        ],
        [Slack("e^{−(t − a_i0)} against P(j = i) at a = (0, 8)", math.exp(-t), attained)],
    )


@Obligation(
    id="cover-learners.erratum.chaudhuri-hsu-L226",
    source=f"{CHAUDHURI_HSU}:L226-228 (proof of Thm 5)",
    claim=(
        "|Z∖{z}| ≥ 1/η − 3 (printed −2 is false when 1/η ∉ ℤ) and 'since m ≥ M' must "
        "read m ≤ M; the contradiction holds with both corrections"
    ),
    method=Method.EXACT,
    predicates=(threshold_family,),
    tests=("tests/test_cover_learners.py::test_errata",),
)
def thm5_counting(config: VerifyConfig) -> CheckOutcome:
    """Errata in Thm 5's proof, exactly (η from ``threshold_family``): L226 — |Z ∖ {z}| =
    ⌊1/η⌋ − 2 is ≥ 1/η − 3 but **not** ≥ 1/η − 2 (printed) when 1/η ∉ ℤ, and the contradiction
    e^{−αm}(1/η − 3)/2 > 1/2 still holds for m ≤ M; L228 — "since m ≥ M" must read m ≤ M: for
    m = M + ⌈2/α⌉ + 1 the bound drops below 1/2. Controls: the printed −2 and "m ≥ M"; −2.5 (the
    correction tightened by ½) fails too, so −3 is where the count sits."""
    rows = []
    ok = True
    tightened = False
    for alpha, horizon in ((Fraction(1, 2), 4), (Fraction(1, 10), 10), (Fraction(1), 3)):
        eta, zs = sc.threshold_family(alpha, horizon)
        others = len(zs) - 1
        printed = others >= 1 / eta - 2
        corrected = others >= 1 / eta - 3
        tightened |= not others >= 1 / eta - Fraction(5, 2)
        holds = all(
            math.exp(-float(alpha) * m) * float(1 / eta - 3) / 2 > 0.5
            for m in range(1, horizon + 1)
        )
        far = horizon + math.ceil(2 / alpha) + 1  # e^{αm} > 7 e^{αM} ≥ 1/η − 3
        beyond = math.exp(-float(alpha) * far) * float(1 / eta - 3) / 2 > 0.5
        ok &= (not printed) and corrected and holds and not beyond
        rows.append(f"α={alpha}, M={horizon}: |Z∖z| = {others}, 1/η = {float(1 / eta):.3f}")
    return CheckOutcome(
        ok and tightened,
        "; ".join(rows) + f" -> printed −2 fails, −3 holds, m ≤ M: {ok}; −2.5 fails: {tightened}",
        {},
        [
            Control("|Z ∖ {z}| ≥ 1/η − 2 as printed; 'since m ≥ M'", ok),
            Control("the corrected count tightened to 1/η − 5/2", tightened),
        ],
        [Slack("|Z ∖ {z}| against 1/η − 3 (α = 1/2, M = 4)", 1.0, 1.0)],
    )


@Obligation(
    id="cover-learners.erratum.chaudhuri-hsu-L557",
    source=f"{CHAUDHURI_HSU}:L555-561 (proof of Thm 9, Eq. (9))",
    claim=(
        "the Chernoff form at L557 fails when err(g0)·m is small; Eq. (9) holds for m ≥ "
        "(3/ε) ln(4/δ)"
    ),
    method=Method.EXACT,
    no_predicate=f"{ERRATUM}: exact binomial tails against L557's form and Eq. (9)",
    tests=("tests/test_cover_learners.py::test_errata",),
)
def chernoff_l557(config: VerifyConfig) -> CheckOutcome:
    """Erratum (L557, proof of Thm 9): "with probability at least 1 − δ/4, err(g₀, S) ≤
    err(g) + √(3 err(g) ln(4/δ)/|S|)" — a multiplicative Chernoff bound used beyond its range
    (deviations larger than the mean): with m = 100, err(g₀) = 10^-4, δ = 10^-3 the right side is
    < 1/100, so it fails whenever S holds one mistake, which has probability
    1 − (1 − 10^-4)^100 ≈ 0.00995 > δ/4 = 2.5·10^-4 (exact in rationals). What the proof uses,
    Eq. (9) — P(err(g₀, S) > 3ε/4) ≤ δ/4 for err(g₀) ≤ ε/4 and m ≥ (3/ε) ln(4/δ) — holds: exact
    binomial tails at the worst err(g₀) = ε/4 over a grid of (ε, δ) and m (A1r's certificate
    takes its δ/4 only then). Control: Eq. (9) with m ≥ (1/ε) ln(4/δ) fails."""
    from scipy import stats

    miss = 1 - (1 - Fraction(1, 10**4)) ** 100
    printed_fails = miss > Fraction(1, 4 * 10**3) and (
        1e-4 + math.sqrt(3e-4 * math.log(4e3) / 100) < 0.01
    )
    worst, weakened = 0.0, False
    for eps in (0.5, 0.3, 0.2, 0.1, 0.05, 0.02, 0.01):
        for delta in (0.5, 0.2, 0.1, 0.05, 1e-2, 1e-3, 1e-4, 1e-6, 1e-9):
            start = math.ceil(3 * math.log(4 / delta) / eps)
            for m in range(start, start + 40, 3):
                tail = float(stats.binom.sf(math.floor(3 * m * eps / 4), m, eps / 4))
                worst = max(worst, tail / (delta / 4))
            short = math.ceil(math.log(4 / delta) / eps)
            weakened |= float(stats.binom.sf(math.floor(3 * short * eps / 4), short, eps / 4)) > (
                delta / 4
            )
    return CheckOutcome(
        printed_fails and worst <= 1 and weakened,
        f"printed form at m = 100, err = 1e-4, δ = 1e-3: P(fails) = {float(miss):.4g} > δ/4 "
        f"= 2.5e-4: {printed_fails}; Eq. (9): largest tail / (δ/4) = {worst:.3f} ≤ 1; control "
        f"(m ≥ (1/ε) ln(4/δ)) fails: {weakened}",
        {"worst": worst},
        [
            Control("L557's Chernoff form as printed", printed_fails),
            Control("Eq. (9) with its sample-size condition weakened 3×", weakened),
        ],
        [Slack("δ/4 against the largest exact tail (in units of δ/4)", 1.0, worst)],
    )


@Obligation(
    id="cover-learners.erratum.chaudhuri-hsu-lemmas-20-21",
    source=f"{CHAUDHURI_HSU}:L581 (Lemma 20's proof); {CHAUDHURI_HSU}:L599 (Lemma 21's proof)",
    claim=(
        "the band masses are printed as equalities; they are bounds (n = 3, γ = 1/2: "
        "𝒰(W) = 1/2, printed 1 − 2e^{-3/8} < 0 and 1/4)"
    ),
    method=Method.EXACT,
    no_predicate=f"{ERRATUM}: the band mass at n = 3 (exactly γ) against the printed equalities",
    tests=("tests/test_cover_learners.py::test_sphere_band_masses",),
)
def lemmas_20_21_printed(config: VerifyConfig) -> CheckOutcome:
    """Errata (L581, L599): Lemma 20's proof states 𝒰(W) = 1 − 2e^{−nγ²/2} and Lemma 21's
    𝒰(S^{n−1} ∖ W) = ((1 − γ)/2)^{(n−1)/2} as equalities (citing Ball 1997); both are only
    bounds (≥). At n = 3, u·x is uniform on [−1, 1], so 𝒰(W) = γ: at γ = 1/2, 𝒰(W) = 1/2 while
    the first 'equality' gives 1 − 2e^{−3/8} < 0 (not a probability) and the second gives 1/4
    for a mass of 1/2. The lemmas' κ, read as upper bounds, hold (``examples_2_3``)."""
    gamma = 0.5
    exact = band_mass(3, gamma)
    first = 1 - 2 * math.exp(-3 * gamma**2 / 2)
    second = ((1 - gamma) / 2) ** 1
    printed_fail = abs(exact - 0.5) < 1e-12 and first < 0 and abs((1 - exact) - second) > 0.2
    bounds_hold = exact >= first and (1 - exact) >= second
    return CheckOutcome(
        printed_fail and bounds_hold,
        f"n = 3, γ = 1/2: 𝒰(W) = {exact:.6f}; printed 1 − 2e^(−nγ²/2) = {first:.4f}; "
        f"𝒰(outside) = {1 - exact:.4f}, printed ((1 − γ)/2)^((n−1)/2) = {second}; as lower "
        f"bounds both hold: {bounds_hold}",
        {"band_mass": exact},
        [Control("the two masses read as equalities (L581, L599)", printed_fail)],
        [Slack("𝒰(outside W) against Lemma 21's lower bound (n = 3)", 1 - exact, second)],
    )


@Obligation(
    id="cover-learners.erratum.chaudhuri-hsu-lemma-25",
    source=f"{CHAUDHURI_HSU}:L767 (Lemma 25); {CHAUDHURI_HSU}:L777 (its proof)",
    claim=(
        "Lemma 25 'for any r > 0' fails for r ≥ 2 (a packing of one member); the proof's "
        "cap ratio 2^{-(n-1)} is 1/2 at n = 3, r = 1"
    ),
    method=Method.EXACT,
    no_predicate=f"{ERRATUM}: ρ_D ≤ 1 on 500 separators and the cap ratio at n = 3",
    tests=("tests/test_cover_learners.py::test_doubling_dimension",),
)
def lemma25_large_r(config: VerifyConfig) -> CheckOutcome:
    """Erratum (L767, "for any r > 0"): Lemma 25 is false for large r. ρ_D(h_v, h_w) =
    ∠(v, w)/π ≤ 1, so for r ≥ 2 the ball B_D(h_u, r) is all of H and an (r/2)-packing needs
    pairs more than 1 apart: it has one member, < 2^{n−2} for n ≥ 3 (checked on 500 random
    separators: no pair exceeds 1). The proof's "p = 2^{−(n−1)}" (L777), the ratio of the caps
    of angular radius πr/2 and πr, holds only as r → 0: at n = 3 (cap area ∝ 1 − cos θ) and
    r = 1 it is 1/2, not 1/4. The lemma is exhibited at r = 1/10 (``lemma25``)."""
    rng = np.random.default_rng(SEED + 14)
    v = rng.standard_normal((500, 3))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    rho = np.arccos(np.clip(v @ v.T, -1, 1)) / math.pi
    packing_of_two = bool((rho > 1).any())
    cap_ratio = (1 - math.cos(math.pi / 2)) / (1 - math.cos(math.pi))
    ok = not packing_of_two and abs(cap_ratio - 0.5) < 1e-12
    return CheckOutcome(
        ok,
        f"r = 2, n = 3: largest ρ_D among 500 separators {rho.max():.4f} ≤ 1, so the largest "
        f"(r/2)-packing has 1 < 2^(n−2) = 2 members; cap ratio at n = 3, r = 1: {cap_ratio} "
        f"(printed 2^(−(n−1)) = 0.25)",
        {"cap_ratio": cap_ratio},
        [Control("Lemma 25 for every r > 0 (r = 2, n = 3)", not packing_of_two)],
        [Slack("cap ratio against the proof's 2^{−(n−1)} (n = 3, r = 1)", cap_ratio, 0.25)],
    )
