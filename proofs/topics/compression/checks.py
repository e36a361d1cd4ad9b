"""Checks for seed 002 ch. 4 (compression by boosting): quantiles, MedBoost's invariants and
bounds, the schemes, the dual-dimension witness and the three errata. Each has a control.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import numpy as np

from dpspec.compression.boosting import medboost, weighted_median, weighted_quantiles
from dpspec.compression.learners import LEARNERS, LinearLearner, StepLearner
from dpspec.compression.schemes import (
    BINARY,
    bv_target,
    compress,
    random_realizable_sample,
    reconstruct,
    rectangle_baseline,
)
from dpspec.proofs.engine.registry import CheckOutcome, VerifyConfig
from dpspec.spec.compression import (
    is_submultiset,
    quantile_minus,
    quantile_plus,
    reconstructs_exactly,
    size_within,
    uniformly_approximates,
)

SEED = 7000


GAMMAS = (Fraction(0), Fraction(1, 8), Fraction(1, 4), Fraction(3, 8))


def quantiles(config: VerifyConfig) -> CheckOutcome:
    """The vectorised quantiles equal the spec's definitions on random weighted instances with
    ties (T ≤ 7, integer values and weights, γ ∈ {0, ⅛, ¼, ⅜}); Q⁻_γ ≤ Median ≤ Q⁺_γ; Q⁺ is
    non-decreasing and Q⁻ non-increasing in γ; the median is 1-Lipschitz in ‖·‖∞ (same
    weights). Control: a 'lower median' (≤ instead of < in the definition) disagrees."""
    rng = np.random.default_rng(SEED)
    trials = 3000 if config.thorough else 800
    mismatches, order, mono, lip, control = 0, 0, 0, 0, 0
    for _ in range(trials):
        t = int(rng.integers(1, 8))
        vals = rng.integers(-3, 4, size=t)
        w = rng.integers(0, 4, size=t)
        if w.sum() == 0:
            w[0] = 1
        prev: tuple[Any, Any] | None = None
        for g in GAMMAS:
            lo, hi = weighted_quantiles(vals[:, None].astype(float), w.astype(float), float(g))
            s_lo = quantile_minus(vals.tolist(), w.tolist(), g)
            s_hi = quantile_plus(vals.tolist(), w.tolist(), g)
            mismatches += (lo[0], hi[0]) != (s_lo, s_hi)
            med = quantile_plus(vals.tolist(), w.tolist(), 0)
            order += not s_lo <= med <= s_hi
            if prev is not None:
                mono += not (s_hi >= prev[1] and s_lo <= prev[0])
            prev = (s_lo, s_hi)
        shift = rng.integers(-2, 3, size=t)
        a = weighted_median(vals[:, None].astype(float), w.astype(float))[0]
        b = weighted_median((vals + shift)[:, None].astype(float), w.astype(float))[0]
        lip += abs(a - b) > np.max(np.abs(shift)) + 1e-12
        lower = min(
            y
            for y in vals.tolist()
            if sum(wt for wt, yt in zip(w.tolist(), vals.tolist(), strict=True) if y < yt) * 2
            <= w.sum()
        )
        control += lower != quantile_plus(vals.tolist(), w.tolist(), 0)
    ok = mismatches == order == mono == lip == 0 and control > 0
    return CheckOutcome(
        ok,
        f"{trials} instances x 4 gammas: mismatches {mismatches}, order violations {order}, "
        f"monotonicity violations {mono}, Lipschitz violations {lip}; lower-median control "
        f"differs on {control} instances",
        {"control": control},
    )


def medboost_invariants(config: VerifyConfig) -> CheckOutcome:
    """MedBoost on BV(1) step targets (η = 0.05, γ = ⅛, sub-samples of 6, T = ⌈(4/γ²) ln m⌉):
    each P_t is a distribution, α_t > 0, h_t's weighted error under P_{t+1} is exactly
    (1 − γ)/2, the per-round factor e^{γα}Σ P e^{−αθ} < e^{−γ²/4}, Kégl's bound (Lemma 4.1.1)
    holds and with T ≥ (4/γ²) ln m no point violates the η/2 quantile bound (Cor 4.1.2).
    Control: AdaBoost's α (without (1 − γ)/(1 + γ)) leaves the error under P_{t+1} at ½."""
    rng = np.random.default_rng(SEED + 1)
    gamma, eta = 0.125, 0.05
    problems = 3 if config.thorough else 2
    worst: dict[str, float] = {"dist": 0.0, "err_gap": 0.0, "factor": 0.0, "kegl": -1.0}
    violations, rounds, alpha_ok, control_gap = 0, 0, True, 0.0
    for _ in range(problems):
        m = 300
        x, y = bv_target(m, rng)
        t_max = math.ceil(4 / gamma**2 * math.log(m))
        res = medboost(x, y, StepLearner(), t_max, gamma, eta, 6, rng)
        finite = [k for k, a in enumerate(res.trace_alphas) if math.isfinite(a)]
        rounds += len(finite)
        for k in finite:
            a, p, th = res.trace_alphas[k], res.distributions[k], res.thetas[k]
            alpha_ok &= a > 0
            worst["dist"] = max(worst["dist"], abs(p.sum() - 1), float(-p.min()))
            nxt = p * np.exp(-a * th)
            nxt /= nxt.sum()
            worst["err_gap"] = max(worst["err_gap"], abs(nxt[th < 0].sum() - (1 - gamma) / 2))
            factor = math.exp(gamma * a) * float(np.sum(p * np.exp(-a * th)))
            worst["factor"] = max(worst["factor"], factor / math.exp(-(gamma**2) / 4))
            err = float(p[th < 0].sum())
            ada = 0.5 * math.log((1 - err) / err)
            ada_next = p * np.exp(-ada * th)
            control_gap = max(control_gap, abs(ada_next[th < 0].sum() / ada_next.sum() - 0.5))
        lo, hi = weighted_quantiles(res.all_predictions(x), res.alphas, gamma / 2)
        bad = np.maximum(np.abs(hi - y), np.abs(lo - y)) > eta / 2
        violations += int(bad.sum())
        worst["kegl"] = max(worst["kegl"], float(bad.mean()) - res.kegl_bound())
    ok = (
        alpha_ok
        and worst["dist"] < 1e-9
        and worst["err_gap"] < 1e-9
        and worst["factor"] < 1
        and worst["kegl"] <= 1e-12
        and violations == 0
        and rounds > 0
        and control_gap < 1e-9
    )
    return CheckOutcome(
        ok,
        f"{rounds} finite rounds: max |ΣP − 1| {worst['dist']:.1e}, max |err under P_(t+1) − "
        f"(1−γ)/2| {worst['err_gap']:.1e}, max factor/e^(−γ²/4) {worst['factor']:.4f} (< 1), "
        f"Kégl LHS − RHS ≤ {worst['kegl']:.3g}; Cor 4.1.2 violations {violations}; AdaBoost α "
        f"control: error under P_(t+1) is ½ (gap {control_gap:.1e}), not (1−γ)/2",
        {"rounds": rounds, "violations": violations},
    )


def schemes(config: VerifyConfig) -> CheckOutcome:
    """For every class and m ∈ {300, 3000}: κ(S) ⊆ S, ρ(κ(S)) reproduces every label exactly
    (binary) or within η = 0.1 (BV, Lipschitz), and stored points + side bits stay below the
    same m-free bound n·m̃·(1 + ⌈log₂(n·m̃)⌉) (n = 64, m̃ = 8); the 2d-point rectangle baseline
    keeps ≤ 4 points and is exact. Control: with the stored labels flipped the reconstruction
    must fail."""
    rng = np.random.default_rng(SEED + 2)
    bound = 64 * 8 * (1 + math.ceil(math.log2(64 * 8)))
    rows: dict[str, list[int]] = {}
    ok, control_failed = True, True
    for cls in LEARNERS:
        for m in (300, 3000):
            x, y = random_realizable_sample(cls, m, rng)
            c = compress(cls, x, y, rng, gamma=0.25)
            kept = c.stored.tolist()
            pred = reconstruct(c, x[c.stored], y[c.stored])(x)
            exact = reconstructs_exactly(pred.tolist(), y.tolist())
            good = (
                exact if cls in BINARY else uniformly_approximates(pred.tolist(), y.tolist(), 0.1)
            )
            ok &= good and is_submultiset(kept, list(range(m)))
            ok &= size_within(c.stored_points, c.side_bits, bound)
            rows.setdefault(cls, []).append(c.size)
            if cls in BINARY:
                flipped = reconstruct(c, x[c.stored], 1 - y[c.stored])(x)
                control_failed &= not reconstructs_exactly(flipped.tolist(), y.tolist())
        if cls == "rectangles":
            x, y = random_realizable_sample(cls, 2000, rng)
            keep = rectangle_baseline(x, y)
            box = LEARNERS["rectangles"]().fit(x[keep], y[keep])(x)
            ok &= keep.size <= 4 and reconstructs_exactly(box.tolist(), y.tolist())
    return CheckOutcome(
        ok and control_failed,
        f"sizes (stored + bits) at m = 300, 3000 per class: {rows} (bound {bound}); all "
        f"reconstructions exact / within eta: {ok}; flipped-label control fails: "
        f"{control_failed}",
        {"sizes": rows},
    )


def lemma_413(config: VerifyConfig) -> CheckOutcome:
    """Erratum ``erratum.thesis-lemma-4.1.3``:
    Lemma 4.1.3 prints x^{1+γ}(1−x)^{1−γ} ≤ (½+γ)^{1−γ}(½−γ)^{1+γ}; at
    γ = 1/10, x = 3/5 the left side is 0.2499 > 0.2305. Exactly: both sides to the 10th power
    are rationals and LHS¹⁰/RHS¹⁰ = (3/2)² = 9/4. Corrected (the proof's own last line):
    ≤ (½+γ)^{1+γ}(½−γ)^{1−γ} for x ≥ ½ + γ — checked exactly (powers q = denominator of γ) on
    γ ∈ {1/10, 1/8, 1/5, 1/4, 1/3} and a grid of rational x."""
    g, x = Fraction(1, 10), Fraction(3, 5)
    lhs = x**11 * (1 - x) ** 9
    printed = (Fraction(1, 2) + g) ** 9 * (Fraction(1, 2) - g) ** 11
    printed_false = lhs > printed and lhs / printed == Fraction(9, 4)
    corrected_ok = True
    for gam in (Fraction(1, 10), Fraction(1, 8), Fraction(1, 5), Fraction(1, 4), Fraction(1, 3)):
        q = gam.denominator
        e1, e2 = q + gam.numerator, q - gam.numerator  # q(1 ± γ)
        right = (Fraction(1, 2) + gam) ** e1 * (Fraction(1, 2) - gam) ** e2
        for k in range(0, 40):
            xv = Fraction(1, 2) + gam + (Fraction(1, 2) - gam) * Fraction(k, 40)
            corrected_ok &= xv**e1 * (1 - xv) ** e2 <= right
    return CheckOutcome(
        printed_false and corrected_ok,
        f"printed: LHS = {float(lhs) ** 0.1:.4f} > RHS = {float(printed) ** 0.1:.4f} at gamma = "
        f"1/10, x = 3/5 (exact ratio of 10th powers {lhs / printed}); corrected holds on "
        f"5 gammas x 40 x: {corrected_ok}",
        {"printed_false": printed_false, "corrected": corrected_ok},
    )


def _min_changes(n: int) -> int:
    """min over all orderings of the 2^n rows {0,1}^n of V(M) = max_i #changes in column i."""
    rows = list(itertools.product((0, 1), repeat=n))
    best = math.inf
    for perm in itertools.permutations(rows[1:]):
        order = np.array([rows[0], *perm])  # V is invariant under reversal; fix the first row
        best = min(best, int(np.max(np.sum(order[1:] != order[:-1], axis=0))))
    return int(best)


def lemma_425(config: VerifyConfig) -> CheckOutcome:
    """Erratum ``erratum.thesis-lemma-4.2.5``:
    Lemma 4.2.5 prints V(M) ≥ 2^n/n for a 2^n × n matrix with every
    row of {0,1}^n. Brute force over all row orders (n ≤ 3; up to 7! orders): min V = 1, 2, 3
    for n = 1, 2, 3, so n = 1 breaks 2^n/n = 2; the proof's (2^n − 1)/n holds for all three."""
    mins = {n: _min_changes(n) for n in (1, 2, 3)}
    printed = {n: mins[n] >= 2**n / n for n in mins}
    corrected = {n: mins[n] >= (2**n - 1) / n for n in mins}
    ok = not printed[1] and all(corrected.values())
    return CheckOutcome(
        ok,
        f"min V(M) over row orders: {mins}; printed 2^n/n holds: {printed}; corrected "
        f"(2^n − 1)/n holds: {corrected}",
        {"min_V": mins},
    )


def binary_margin(config: VerifyConfig) -> CheckOutcome:
    """Erratum ``erratum.thesis-L962-binary-margin``:
    with γ = 1/8 the proof claims |½ − Σα'h(x_i)| ≥ 1/8, but Cor 4.1.2
    only gives the γ/2 quantiles. Exact counterexample: values (1, 0) with normalised weights
    (145/256, 111/256) and label 1 — Q⁺_{1/16} = Q⁻_{1/16} = 1 (Cor 4.1.2's conclusion) yet the
    margin is 17/256 < 1/8; it is > γ/2 = 1/16, the corrected claim."""
    w = [Fraction(145, 256), Fraction(111, 256)]
    vals = [1, 0]
    g2 = Fraction(1, 16)
    quantiles_right = quantile_plus(vals, w, g2) == 1 and quantile_minus(vals, w, g2) == 1
    margin = w[0] - Fraction(1, 2)
    ok = quantiles_right and margin < Fraction(1, 8) and margin > g2
    return CheckOutcome(
        ok,
        f"Q± at gamma/2 equal the label: {quantiles_right}; margin {margin} = {float(margin):.4f}"
        f" < 1/8 (printed claim fails) and > 1/16 (corrected holds)",
        {"margin": str(margin)},
    )


def gray_code_witness(config: VerifyConfig) -> CheckOutcome:
    """Dual fat-shattering of BV(v) (Lemma 4.2.7): n = ⌊log₂(v/t)⌋ functions ±t on the grid
    j/2^n, rows ordered by the reflected Gray code, realise all 2^n sign patterns with margin t
    and each has variation ≤ v; the upper side from Lemma 4.2.5 (corrected) — any k functions
    realising all patterns need variation ≥ 2t(2^k − 1)/k — allows k ≤ 2 log₂(v/t) on these
    instances. Control: the binary (non-Gray) row order needs variation > v at the same n."""
    ok, rows = True, []
    control = False
    for v, t in ((1.0, 0.25), (1.0, 0.1), (2.0, 0.05), (4.0, 0.01)):
        n = math.floor(math.log2(v / t))
        gray = [i ^ (i >> 1) for i in range(2**n)]
        bits = np.array([[(g >> (n - 1 - c)) & 1 for c in range(n)] for g in gray])
        values = t * (2 * bits - 1)  # row = grid point j/2^n, column = function
        variation = np.sum(np.abs(np.diff(values, axis=0)), axis=0)
        patterns = {tuple(r) for r in bits.tolist()}
        ok &= bool(np.all(variation <= v + 1e-12)) and len(patterns) == 2**n
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
    )


def lipschitz_learner_is_proper(config: VerifyConfig) -> CheckOutcome:
    """The real-valued weak learners are proper: on samples of a BV(1) step target the step
    learner's hypothesis has variation ≤ 1, on an L-Lipschitz target the interpolation is
    L-Lipschitz (grid of 10⁴ points). Control: a target with slope 2 gives slope > 1."""
    rng = np.random.default_rng(SEED + 3)
    grid = np.linspace(0, 1, 10_001)
    ok = True
    for _ in range(20):
        x = rng.random(30)
        step = StepLearner().fit(x, (x > 0.4) * 0.6 + (x > 0.7) * 0.4)(grid)
        ok &= float(np.sum(np.abs(np.diff(step)))) <= 1 + 1e-12
        lin = LinearLearner().fit(x, 0.9 * np.sin(x))(grid)
        ok &= float(np.max(np.abs(np.diff(lin)) / np.diff(grid))) <= 0.9 + 1e-9
    steep = LinearLearner().fit(np.array([0.0, 1.0]), np.array([0.0, 2.0]))(grid)
    control = float(np.max(np.abs(np.diff(steep)) / np.diff(grid))) > 1
    return CheckOutcome(ok and control, f"proper on 20 samples each: {ok}; control: {control}")


def lipschitz_dual_witness(config: VerifyConfig) -> CheckOutcome:
    """Dual fat-shattering of L-Lipschitz functions on [0, 1] (Lemma 4.2.10, corrected: the
    code must be onto and the values ½ ± t): on a 2t/L-packing p_1..p_N (N = M([0,1], 2t/L)),
    an onto code j ↦ b(j) ∈ {0,1}^n with n = ⌊log₂ N⌋ and f_i(p_j) = ½ + t(2b(j)_i − 1),
    extended by McShane's formula, gives n functions that are L-Lipschitz on a 10⁴ grid and
    realise all 2^n patterns at margin t; 2^n ≤ N is the packing upper bound. Control: the
    same code on a packing of spacing t/L (half) is not L-Lipschitz."""
    grid = np.linspace(0, 1, 10_001)
    ok, rows, control = True, [], True
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
            ok &= bool(np.allclose(on_points, vals))  # interpolates: margin t at every point
            rows.append((lip, t, big_n, n, round(slope, 6)))
    return CheckOutcome(
        ok and control,
        f"(L, t, packing size N, n, max slope): {rows}; half-spacing control breaks it: {control}",
        {"rows": rows},
    )


def chernoff_per_point(config: VerifyConfig) -> CheckOutcome:
    """Sparsify's per-point bound (4.6, L1001–1003), safe form: if each drawn hypothesis is
    wrong at a point with probability ≤ ½ − γ/2, P(at least n/2 of n draws wrong) ≤
    2·exp(−nγ²/2) — exact binomial tails for n ≤ 400, γ ∈ {1/8, 1/4, 3/8}. Control: the
    bound without the ½ in the exponent, 2·exp(−nγ²), fails somewhere."""
    from scipy import stats

    worst, control = 0.0, False
    for gamma in (0.125, 0.25, 0.375):
        for n in range(1, 401):
            tail = float(stats.binom.sf(math.ceil(n / 2) - 1, n, 0.5 - gamma / 2))
            worst = max(worst, tail / (2 * math.exp(-n * gamma**2 / 2)))
            control |= tail > 2 * math.exp(-n * gamma**2)
    return CheckOutcome(
        worst <= 1 and control,
        f"max exact tail / bound = {worst:.4f} (<= 1); tighter bound violated: {control}",
        {"max_ratio": worst},
    )
