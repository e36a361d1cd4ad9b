"""Exact checks for seed 002 ch. 4 that need no sampling: the dual-dimension witnesses of
BV(v) and L-Lipschitz classes, Sparsify's per-point Chernoff step, and the three errata. Each
reports a control (a construction slip, or the bound moved past its tight point) and its
slack.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np

from dpspec.proofs.engine.registry import (
    ERRATUM,
    STATED_BOUND,
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
)
from dpspec.proofs.engine.seeds import THESIS
from dpspec.spec.compression import quantile_minus, quantile_plus


@Obligation(
    id="compression.erratum.thesis-lemma-4.1.3",
    source=f"{THESIS}:L725-735 (Lemma 4.1.3)",
    claim=(
        "Lemma 4.1.3 as printed is false (gamma = 1/10, x = 3/5); the corrected right "
        "side (1/2+gamma)^(1+gamma)(1/2-gamma)^(1-gamma) holds, attained at x = 1/2 + "
        "gamma"
    ),
    method=Method.EXACT,
    no_predicate=f"{ERRATUM}: both sides of Lemma 4.1.3 in exact rationals (10th powers)",
)
def lemma_413(config: VerifyConfig) -> CheckOutcome:
    """Erratum ``compression.erratum.thesis-lemma-4.1.3``:
    Lemma 4.1.3 prints x^{1+γ}(1−x)^{1−γ} ≤ (½+γ)^{1−γ}(½−γ)^{1+γ}; at
    γ = 1/10, x = 3/5 the left side is 0.2499 > 0.2305. Exactly: both sides to the 10th power
    are rationals and LHS¹⁰/RHS¹⁰ = (3/2)² = 9/4. Corrected (the proof's own last line):
    ≤ (½+γ)^{1+γ}(½−γ)^{1−γ} for x ≥ ½ + γ — checked exactly (powers q = denominator of γ) on
    γ ∈ {1/10, 1/8, 1/5, 1/4, 1/3} and a grid of rational x. The corrected bound is attained
    at x = ½ + γ (slack 1), so it cannot be lowered: control — the corrected right side
    understated by 1% — is refuted there."""
    g, x = Fraction(1, 10), Fraction(3, 5)
    lhs = x**11 * (1 - x) ** 9
    printed = (Fraction(1, 2) + g) ** 9 * (Fraction(1, 2) - g) ** 11
    printed_false = lhs > printed and lhs / printed == Fraction(9, 4)
    corrected_ok = True
    tightest = math.inf
    control = False
    for gam in (Fraction(1, 10), Fraction(1, 8), Fraction(1, 5), Fraction(1, 4), Fraction(1, 3)):
        q = gam.denominator
        e1, e2 = q + gam.numerator, q - gam.numerator  # q(1 ± γ)
        right = (Fraction(1, 2) + gam) ** e1 * (Fraction(1, 2) - gam) ** e2
        for k in range(0, 40):
            xv = Fraction(1, 2) + gam + (Fraction(1, 2) - gam) * Fraction(k, 40)
            left = xv**e1 * (1 - xv) ** e2
            corrected_ok &= left <= right
            tightest = min(tightest, float(right / left))
            control |= left > right * Fraction(99, 100)
    return CheckOutcome(
        printed_false and corrected_ok and control,
        f"printed: LHS = {float(lhs) ** 0.1:.4f} > RHS = {float(printed) ** 0.1:.4f} at gamma = "
        f"1/10, x = 3/5 (exact ratio of 10th powers {lhs / printed}); corrected holds on "
        f"5 gammas x 40 x: {corrected_ok}",
        {"printed_false": printed_false, "corrected": corrected_ok},
        [
            Control(
                "the corrected right side understated by 1%", control, "refuted at x = 1/2 + gamma"
            )
        ],
        [Slack("corrected right side (10th powers)", 1.0, 1.0 / tightest)],
    )


def _min_changes(n: int) -> int:
    """min over all orderings of the 2^n rows {0,1}^n of V(M) = max_i #changes in column i."""
    rows = list(itertools.product((0, 1), repeat=n))
    best = math.inf
    for perm in itertools.permutations(rows[1:]):
        order = np.array([rows[0], *perm])  # V is invariant under reversal; fix the first row
        best = min(best, int(np.max(np.sum(order[1:] != order[:-1], axis=0))))
    return int(best)


@Obligation(
    id="compression.erratum.thesis-lemma-4.2.5",
    source=f"{THESIS}:L1061-1066 (Lemma 4.2.5)",
    claim="V(M) >= 2^n/n fails at n = 1 (brute force); (2^n - 1)/n holds for n <= 3",
    method=Method.EXACT,
    no_predicate=(
        f"{ERRATUM}: min V(M) by brute force over row orders against 2^n/n and (2^n − 1)/n"
    ),
)
def lemma_425(config: VerifyConfig) -> CheckOutcome:
    """Erratum ``compression.erratum.thesis-lemma-4.2.5``:
    Lemma 4.2.5 prints V(M) ≥ 2^n/n for a 2^n × n matrix with every
    row of {0,1}^n. Brute force over all row orders (n ≤ 3; up to 7! orders): min V = 1, 2, 3
    for n = 1, 2, 3, so n = 1 breaks 2^n/n = 2; the proof's (2^n − 1)/n holds for all three."""
    mins = {n: _min_changes(n) for n in (1, 2, 3)}
    printed = {n: mins[n] >= 2**n / n for n in mins}
    corrected = {n: mins[n] >= (2**n - 1) / n for n in mins}
    doubled = {n: mins[n] >= 2 * (2**n - 1) / n for n in mins}
    caught = not all(doubled.values())
    tightest = min(mins[n] / ((2**n - 1) / n) for n in mins)
    ok = not printed[1] and all(corrected.values()) and caught
    return CheckOutcome(
        ok,
        f"min V(M) over row orders: {mins}; printed 2^n/n holds: {printed}; corrected "
        f"(2^n − 1)/n holds: {corrected}",
        {"min_V": mins},
        [Control("the corrected bound (2^n - 1)/n overstated 2x", caught, f"{doubled}")],
        [Slack("V(M) lower bound", 1.0, 1.0 / tightest)],
    )


@Obligation(
    id="compression.erratum.thesis-L962-binary-margin",
    source=f"{THESIS}:L956-962 (proof of Thm 1.1.1)",
    claim="the binary margin is gamma/2 (= 1/16), not the printed 1/8: exact example",
    method=Method.EXACT,
    predicates=(quantile_plus,),
)
def binary_margin(config: VerifyConfig) -> CheckOutcome:
    """Erratum ``compression.erratum.thesis-L962-binary-margin``:
    with γ = 1/8 the proof claims |½ − Σα'h(x_i)| ≥ 1/8, but Cor 4.1.2
    only gives the γ/2 quantiles. Exact counterexample: values (1, 0) with normalised weights
    (145/256, 111/256) and label 1 — Q⁺_{1/16} = Q⁻_{1/16} = 1 (Cor 4.1.2's conclusion) yet the
    margin is 17/256 < 1/8; it is > γ/2 = 1/16, the corrected claim, by 1/256 (slack 17/16).
    Control: the corrected claim overstated to (9/8)·γ/2 = 18/256 is refuted."""
    w = [Fraction(145, 256), Fraction(111, 256)]
    vals = [1, 0]
    g2 = Fraction(1, 16)
    quantiles_right = quantile_plus(vals, w, g2) == 1 and quantile_minus(vals, w, g2) == 1
    margin = w[0] - Fraction(1, 2)
    caught = not margin > g2 * Fraction(9, 8)
    ok = quantiles_right and margin < Fraction(1, 8) and margin > g2 and caught
    return CheckOutcome(
        ok,
        f"Q± at gamma/2 equal the label: {quantiles_right}; margin {margin} = {float(margin):.4f}"
        f" < 1/8 (printed claim fails) and > 1/16 (corrected holds)",
        {"margin": str(margin)},
        [Control("the corrected margin overstated to (9/8) gamma/2", caught, f"margin {margin}")],
        [Slack("margin (gamma/2 = 1/16)", float(margin), float(g2))],
    )


@Obligation(
    id="compression.bv-dual-witness",
    source=f"{THESIS}:L1061-1100 (Lemma 4.2.5, Thm 4.2.3, Lemma 4.2.7)",
    claim=(
        "floor(log2(v/t)) functions on a Gray-code grid dual-shatter at margin t within "
        "BV(v); the corrected Lemma 4.2.5 bounds k <= 2 log2(v/t)"
    ),
    method=Method.EXACT,
    no_predicate=(
        f"{STATED_BOUND}: the Gray-code functions' variation and sign patterns, counted exactly"
    ),
)
def gray_code_witness(config: VerifyConfig) -> CheckOutcome:
    """Dual fat-shattering of BV(v) (Lemma 4.2.7): n = ⌊log₂(v/t)⌋ functions ±t on the grid
    j/2^n, rows ordered by the reflected Gray code, realise all 2^n sign patterns with margin t
    and each has variation ≤ v; the upper side from Lemma 4.2.5 (corrected) — any k functions
    realising all patterns need variation ≥ 2t(2^k − 1)/k — allows k ≤ 2 log₂(v/t) on these
    instances. Control: the binary (non-Gray) row order — the plausible slip of listing the
    grid points in counting order — needs variation > v at the same n."""
    ok, rows = True, []
    control = False
    worst = 0.0
    for v, t in ((1.0, 0.25), (1.0, 0.1), (2.0, 0.05), (4.0, 0.01)):
        n = math.floor(math.log2(v / t))
        gray = [i ^ (i >> 1) for i in range(2**n)]
        bits = np.array([[(g >> (n - 1 - c)) & 1 for c in range(n)] for g in gray])
        values = t * (2 * bits - 1)  # row = grid point j/2^n, column = function
        variation = np.sum(np.abs(np.diff(values, axis=0)), axis=0)
        patterns = {tuple(r) for r in bits.tolist()}
        ok &= bool(np.all(variation <= v + 1e-12)) and len(patterns) == 2**n
        worst = max(worst, float(variation.max()) / v)
        k_max = max(k for k in range(1, 60) if 2 * t * (2**k - 1) / k <= v)
        ok &= n <= k_max <= 2 * math.log2(v / t)
        plain = np.array([[(i >> (n - 1 - c)) & 1 for c in range(n)] for i in range(2**n)])
        control |= bool(np.max(np.sum(np.abs(np.diff(t * (2 * plain - 1), axis=0)), axis=0)) > v)
        rows.append((v, t, n, float(variation.max()), k_max))
    return CheckOutcome(
        ok and control,
        f"(v, t, n, max variation, upper bound on k): {rows}; binary-order control exceeds v: "
        f"{control}",
        {"rows": rows},
        [Control("grid points listed in binary (not Gray) order", control)],
        [Slack("variation / v", 1.0, worst)],
    )


@Obligation(
    id="compression.lipschitz-dual-witness",
    source=f"{THESIS}:L1181-1190 (Lemma 4.2.10: onto code, values 1/2 +- t, McShane)",
    claim=(
        "floor(log2 M(X, 2t/L)) L-Lipschitz functions dual-shatter at margin t; 2^n <= "
        "the packing number"
    ),
    method=Method.EXACT,
    no_predicate=f"{STATED_BOUND}: the McShane extensions' slope and sign patterns on a 10^4 grid",
)
def lipschitz_dual_witness(config: VerifyConfig) -> CheckOutcome:
    """Dual fat-shattering of L-Lipschitz functions on [0, 1] (Lemma 4.2.10, corrected: the
    code must be onto and the values ½ ± t): on a 2t/L-packing p_1..p_N (N = M([0,1], 2t/L)),
    an onto code j ↦ b(j) ∈ {0,1}^n with n = ⌊log₂ N⌋ and f_i(p_j) = ½ + t(2b(j)_i − 1),
    extended by McShane's formula, gives n functions that are L-Lipschitz on a 10⁴ grid and
    realise all 2^n patterns at margin t; 2^n ≤ N is the packing upper bound; the slope L is
    attained. Control: the same code on a packing of spacing t/L (half) cannot be interpolated
    within L."""
    grid = np.linspace(0, 1, 10_001)
    ok, rows, control = True, [], True
    worst = 0.0
    for lip, t in ((1.0, 0.1), (2.0, 0.05), (5.0, 0.02)):
        for spacing, is_control in ((2 * t / lip, False), (t / lip, True)):
            pts = np.arange(0.0, 1.0 + 1e-12, spacing)
            big_n = pts.size
            n = math.floor(math.log2(big_n))
            codes = np.array(
                [[(j % 2**n >> (n - 1 - i)) & 1 for i in range(n)] for j in range(big_n)]
            )  # onto: j mod 2^n covers every pattern
            vals = 0.5 + t * (2 * codes - 1)  # N × n
            ext = np.min(
                vals[None, :, :] + lip * np.abs(grid[:, None, None] - pts[None, :, None]), axis=1
            )  # McShane: grid × n
            slope = float(np.max(np.abs(np.diff(ext, axis=0)) / np.diff(grid)[:, None]))
            on_points = np.min(
                vals[None, :, :] + lip * np.abs(pts[:, None, None] - pts[None, :, None]), axis=1
            )
            if is_control:
                control &= not np.allclose(on_points, vals)  # the extension cannot interpolate
                continue
            patterns = {tuple(r) for r in codes.tolist()}
            ok &= slope <= lip + 1e-9 and len(patterns) == 2**n and 2**n <= big_n
            worst = max(worst, slope / lip)
            ok &= bool(np.allclose(on_points, vals))  # interpolates: margin t at every point
            rows.append((lip, t, big_n, n, round(slope, 6)))
    return CheckOutcome(
        ok and control,
        f"(L, t, packing size N, n, max slope): {rows}; half-spacing control breaks it: {control}",
        {"rows": rows},
        [Control("the code on a packing of half the spacing (t/L)", control)],
        [Slack("slope / L", 1.0, worst)],
    )


@Obligation(
    id="compression.chernoff-per-point",
    source=f"{THESIS}:L1001-1003 (eq. 4.6, per-point Chernoff bound in Sparsify)",
    claim="P(>= n/2 of n draws wrong) <= 2 exp(-n gamma^2/2), exact binomial tails",
    method=Method.EXACT,
    no_predicate=f"{STATED_BOUND}: exact binomial tails against 2 exp(−nγ²/2)",
)
def chernoff_per_point(config: VerifyConfig) -> CheckOutcome:
    """Sparsify's per-point bound (4.6, L1001–1003), safe form: if each drawn hypothesis is
    wrong at a point with probability ≤ ½ − γ/2, P(at least n/2 of n draws wrong) ≤
    2·exp(−nγ²/2) — exact binomial tails for n ≤ 400, γ ∈ {1/8, 1/4, 3/8}. Control: the
    bound understated — without the ½ in the exponent, 2·exp(−nγ²) — fails somewhere (the
    bound is loose by at least 2.8× as a factor, so a factor-2 understatement would still
    hold; the exponent is where it is tight)."""
    from scipy import stats

    worst, control = 0.0, False
    for gamma in (0.125, 0.25, 0.375):
        n = np.arange(1, 401)
        tail = stats.binom.sf(np.ceil(n / 2) - 1, n, 0.5 - gamma / 2)
        worst = max(worst, float(np.max(tail / (2 * np.exp(-n * gamma**2 / 2)))))
        control |= bool(np.any(tail > 2 * np.exp(-n * gamma**2)))
    return CheckOutcome(
        worst <= 1 and control,
        f"max exact tail / bound = {worst:.4f} (<= 1); tighter bound violated: {control}",
        {"max_ratio": worst},
        [Control("the Chernoff bound with its exponent doubled (2 exp(-n gamma^2))", control)],
        [Slack("P(>= n/2 of n draws wrong)", 1.0, worst)],
    )
