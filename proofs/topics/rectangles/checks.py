"""Checks of thesis ch. 5: the exponential-median interior point algorithm, RandMargins'
privacy through its exact law and its sampler, the no-domino decomposition, Claim 5.3.1, utility
with the tie fix, advanced composition, and the chapter's errata.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from itertools import pairwise, product
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.audit.core import cp_lower, cp_upper
from dpspec.mechanisms.exponential import ExponentialMechanism
from dpspec.proofs.engine.conformance import conformance, conformance_rng, outcome, power_against
from dpspec.proofs.engine.exact import RTOL, Dataset, verify_pairs
from dpspec.proofs.engine.registry import CheckOutcome, VerifyConfig
from dpspec.proofs.engine.stats import ALPHA
from dpspec.rectangles import (
    ExponentialMedian,
    PrivateRectangleClassifier,
    RandMarginsParameters,
    interior_point_baseline,
    interior_point_sample_complexity,
    median_scores,
    nonprivate_rectangle,
    rand_margins,
    release_law,
)
from dpspec.rectangles.rand_margins import clamp_size, noisy_sizes, rand_margins_trace, size_law
from dpspec.spec import composition as comp
from dpspec.spec import rectangles as rect
from dpspec.spec.neighbours import Relation, datasets, neighbouring_pairs
from dpspec.spec.privacy import Dist, hockey_stick, max_likelihood_ratio

SEED = 5005


# --- the interior point algorithm -------------------------------------------------------------


def interior_point_exact(config: VerifyConfig) -> CheckOutcome:
    """Def 5.1.1 and the exponential median, exactly (Fractions): on {0..3} with ε = 2, β = 1/4,
    IP_A = ⌈(4/ε) ln((X+1)/β)⌉ = 6; every multiset of 6 (and 7) points has failure probability
    ≤ β and ≤ (X+1)e^{−εm/4}; the law is ε-DP under add/remove and substitution (all pairs of
    size ≤ 4); ``sample`` follows ``pmf`` (chi-square at 1e-6, 2ε control). Control: weights
    q^{2·gap} (the ½ dropped) violate ε."""
    grid, eps, beta = 3, 2.0, 0.25
    median = ExponentialMedian(grid, eps)
    need = interior_point_sample_complexity(grid, eps, beta)
    worst = Fraction(0)
    for m in (need, need + 1):
        for data in datasets(tuple(range(grid + 1)), m, m):
            answers = median.pmf(np.array(data))
            fail = sum(
                (Fraction(p) for x, p in answers.items() if not rect.is_interior_point(data, x)),
                Fraction(0),
            )
            worst = max(worst, fail)
    bound_ok = worst <= beta and float(worst) <= (grid + 1) * math.exp(-eps * need / 4)
    domain = tuple(range(grid + 1))

    def law(m: ExponentialMechanism) -> Callable[[Dataset], Dist]:
        return lambda d: m.pmf(np.array(d, dtype=np.int64))

    reports = [
        verify_pairs(
            f"exponential median ({rel.value})",
            law(median.mechanism),
            neighbouring_pairs(domain, 4, rel, min_size=1),
            math.exp(eps),
            relation=rel,
        )
        for rel in (Relation.ADD_REMOVE, Relation.SUBSTITUTE)
    ]
    doubled = ExponentialMechanism(lambda d: 2 * median_scores(d, grid + 1), 1, base=median.base)
    control = verify_pairs(
        "control: weights q^(2 gap)",
        law(doubled),
        neighbouring_pairs(domain, 4, Relation.SUBSTITUTE, min_size=1),
        math.exp(eps),
        relation=Relation.SUBSTITUTE,
    )
    sample_data = np.array([0, 1, 1, 3])
    pmf = median.pmf(sample_data)
    rng = conformance_rng(500)
    conf = conformance(
        "ExponentialMedian.sample",
        pmf,
        lambda n: median.sample(sample_data, n, rng),
        lambda n: ExponentialMedian(grid, 2 * eps).sample(sample_data, n, rng),
        ExponentialMedian(grid, 2 * eps).pmf(sample_data),
        2000,
    )
    conf.power = power_against(pmf, ExponentialMedian(grid, 2 * eps).pmf(sample_data), 2000)
    conf_outcome = outcome([conf])
    ok = bound_ok and all(r.holds for r in reports) and not control.holds and conf_outcome.passed
    return CheckOutcome(
        ok,
        f"IP_A = {need}: worst failure {float(worst):.4g} ≤ β = {beta}: {bound_ok}; "
        + "; ".join(r.summary() for r in reports)
        + f"; {control.summary()}; {conf_outcome.detail}",
        {"worst_failure": float(worst), "ip": need},
    )


# --- RandMargins: exact privacy -----------------------------------------------------------------

#: Tiny instance where the size noise matters: grid {0, 1}^2, per-call ε₀ = 4, β = 0.24
#: (Δ = 2, μ ≈ 11.4, noise scale 4), datasets of 10..12 points.
TINY = RandMarginsParameters(1, 4.0, 0.24, tags=1)
TINY_DOMAIN = tuple(product(range(2), repeat=2))


def _law(params: RandMarginsParameters) -> Callable[[Dataset], Dist]:
    """``release_law`` on a dataset of grid points (memoised: the checks share it)."""
    cache: dict[Dataset, Dist] = {}

    def law(data: Dataset) -> Dist:
        if data not in cache:
            cache[data] = release_law(np.array(data, dtype=np.int64).reshape(-1, 2), params)
        return cache[data]

    return law


def _pairs(low: int, high: int, relation: Relation) -> list[tuple[Dataset, Dataset]]:
    return list(neighbouring_pairs(TINY_DOMAIN, high, relation, min_size=low))


def rand_margins_privacy(config: VerifyConfig) -> CheckOutcome:
    """Lemma 5.2.6 on a tiny grid, exactly: the law of p (``release_law``: every size-noise
    value and every interior-point answer) on all add/remove pairs of 10..12 points over {0,1}²
    (ε₀ = 4 per call): pure (dε₀, 0)-DP as the learner's basic accounting claims, and within the
    theorem's (70ε₀ ln(1/δ₀), (d+2)δ₀); under substitution within e^{2dε₀} (group privacy).
    ``rand_margins`` (the sampler ``fit`` runs) follows the law (chi-square at 1e-6; control at
    2ε₀). The exact δ(ε) curve is reported next to basic composition (dε₀, 0) and the theorem's
    ε̃ = 70ε₀ ln(1/δ₀) (at d = 2 the theorem is far weaker: δ₀ < e^{−2} forces ε̃ > 140ε₀).
    Sharper: with ρ₁ the exact worst ratio of one interior-point call between neighbouring
    D's (add/remove or substitution, |D| ≤ 12), the law is within ρ₁^d — the loss of the calls
    with x' ∈ B'_i composed (``no_domino`` shows the others cost nothing). Control: RandMargins
    with a non-private interior point (max D) violates ρ₁^d."""
    low, high = (9, 12) if config.thorough else (10, 11)
    d, eps0 = 2, TINY.epsilon
    law_of = _law(TINY)
    basic = verify_pairs(
        "RandMargins, add/remove, claim (dε₀, 0)",
        law_of,
        _pairs(low, high, Relation.ADD_REMOVE),
        math.exp(d * eps0),
        relation=Relation.ADD_REMOVE,
        rtol=RTOL,
    )
    delta0 = 0.1
    theorem = verify_pairs(
        "RandMargins, add/remove, Thm 5.2.4's (70ε₀ ln(1/δ₀), (d+2)δ₀)",
        law_of,
        _pairs(low, high, Relation.ADD_REMOVE),
        math.exp(min(700.0, 70 * eps0 * math.log(1 / delta0))),
        (d + 2) * delta0,
        relation=Relation.ADD_REMOVE,
        rtol=RTOL,
    )
    substitution = verify_pairs(
        "RandMargins, substitution, e^(2dε₀)",
        law_of,
        _pairs(high, high, Relation.SUBSTITUTE),
        math.exp(2 * d * eps0),
        relation=Relation.SUBSTITUTE,
        rtol=RTOL,
    )
    per_call = per_call_ratio(TINY, high)
    composed = verify_pairs(
        "RandMargins, add/remove, per-call level composed (ρ₁^d)",
        law_of,
        _pairs(low, high, Relation.ADD_REMOVE),
        per_call**d,
        relation=Relation.ADD_REMOVE,
        rtol=RTOL,
    )
    control = verify_pairs(
        "control: a non-private interior point (max D)",
        _law(_LEAKY),
        _pairs(high - 1, high, Relation.ADD_REMOVE),
        per_call**d,
        relation=Relation.ADD_REMOVE,
        rtol=RTOL,
    )
    data = np.array([[0, 0]] * 2 + [[1, 0]] * 5 + [[0, 1]] * 4 + [[1, 1]] * 5, dtype=np.int64)
    law = release_law(data, TINY)
    twice = release_law(data, RandMarginsParameters(1, 2 * eps0, 0.24, tags=1))
    rng = conformance_rng(501)
    reps = 2000 if not config.thorough else 8000
    conf = conformance(
        "rand_margins (the sampler of fit)",
        law,
        lambda n: [tuple(rand_margins(data, TINY, rng).tolist()) for _ in range(n)],
        lambda n: [
            tuple(rand_margins(data, RandMarginsParameters(1, 2 * eps0, 0.24), rng).tolist())
            for _ in range(n)
        ],
        twice,
        reps,
    )
    conf.power = power_against(law, twice, reps)
    available = 14
    sizes_law = dict(enumerate(size_law(TINY, available)))
    other = RandMarginsParameters(1, 2 * eps0, 0.24, tags=1)
    sizes_conf = conformance(
        "noisy_sizes clamped (the k_i of rand_margins)",
        sizes_law,
        lambda n: [clamp_size(k, available) for k in noisy_sizes(TINY, n, rng)],
        lambda n: [clamp_size(k, available) for k in noisy_sizes(other, n, rng)],
        dict(enumerate(size_law(other, available))),
        20_000,
    )
    sizes_conf.power = power_against(sizes_law, dict(enumerate(size_law(other, available))), 20_000)
    conf_out = outcome([conf, sizes_conf])
    reports = [basic, composed, theorem, substitution]
    curve = exact_curve(law_of, _pairs(low, high, Relation.ADD_REMOVE))
    decreasing = all(x[1] >= y[1] - 1e-15 for x, y in pairwise(curve))
    ok = all(r.holds for r in reports) and not control.holds and conf_out.passed and decreasing
    return CheckOutcome(
        ok,
        "; ".join(r.summary() for r in reports)
        + "; exact δ(ε): "
        + ", ".join(f"ε={e:g}: {d:.3g}" for e, d in curve)
        + f"; {control.summary()}; {conf_out.detail}",
        {
            "curve": curve,
            "worst_ratio_add_remove": float(basic.worst_ratio),
            "basic_claim": math.exp(d * eps0),
            "worst_ratio_substitution": float(substitution.worst_ratio),
            "pairs": basic.pairs,
        },
    )


def per_call_ratio(params: RandMarginsParameters, size: int) -> float:
    """ρ₁: the exact worst likelihood ratio of the interior point algorithm between multisets
    of ≤ ``size`` refined grid points one addition/removal or substitution apart."""
    median = params.interior_point()
    domain = tuple(range(params.refined_max + 1))
    laws: dict[Dataset, Dist] = {}
    worst = 1.0
    for relation in (Relation.ADD_REMOVE, Relation.SUBSTITUTE):
        for a, b in neighbouring_pairs(domain, size, relation):
            for x in (a, b):
                if x not in laws:
                    laws[x] = median.pmf(np.array(x, dtype=np.int64))
            ratio = max(
                max_likelihood_ratio(laws[a], laws[b]), max_likelihood_ratio(laws[b], laws[a])
            )
            worst = max(worst, float(ratio))
    return worst


class _MaxMedian(ExponentialMedian):
    """A non-private "interior point": max D (0 when D is empty), claiming ε₀."""

    def pmf(self, data: Any, window: tuple[int, int] | None = None) -> dict[int, Fraction | float]:
        values = np.asarray(data, dtype=np.int64)
        return {int(values.max()) if values.size else 0: Fraction(1)}


class _LeakyParameters(RandMarginsParameters):
    def interior_point(self) -> ExponentialMedian:
        return _MaxMedian(self.refined_max, self.epsilon)


_LEAKY = _LeakyParameters(TINY.grid_max, TINY.epsilon, TINY.beta, TINY.tags)


def exact_curve(
    law: Callable[[Dataset], Dist], pairs: list[tuple[Dataset, Dataset]]
) -> list[tuple[float, float]]:
    """δ(ε) = the largest hockey-stick divergence (both directions) over ``pairs``, for ε on a
    grid: the exact (ε, δ) curve of the instance."""
    curve = []
    for eps in (0.0, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0):
        ratio = math.exp(eps)
        delta = max(
            max(hockey_stick(law(a), law(b), ratio), hockey_stick(law(b), law(a), ratio))
            for a, b in pairs
        )
        curve.append((eps, float(delta)))
    return curve


# --- no domino effect ---------------------------------------------------------------------------

Path = tuple[list[tuple[int, ...]], list[frozenset[int]], list[bool]]


def _top(points: NDArray[np.int64], alive: list[int], axis: int, k: int) -> list[int]:
    """The k alive records with the largest coordinate on ``axis`` (ties: larger index first)."""
    order = sorted(alive, key=lambda r: (int(points[r, axis]), r))
    return order[len(order) - k :] if k else []


def margins_path(
    points: NDArray[np.int64], sizes: tuple[int, ...], qs: tuple[int, ...], watch: int
) -> Path:
    """RandMargins (Δ = 2) along fixed raw sizes and interior points: D_i, S̄_i, watch ∈ B_i."""
    alive = list(range(points.shape[0]))
    ds, alives, member = [], [], []
    for i, q in enumerate(qs):
        chosen = _top(points, alive, i, min(max(sizes[i], 0), len(alive)))
        ds.append(tuple(sorted(int(points[r, i]) for r in chosen)[:2]))
        alives.append(frozenset(alive))
        member.append(watch in chosen)
        alive = [r for r in alive if points[r, i] < q]
    return ds, alives, member


def failed_attempt_path(
    points: NDArray[np.int64], sizes: tuple[int, ...], qs: tuple[int, ...], watch: int
) -> Path:
    """Failed attempt #1 (L1240–1260), one-sided: B_i = the sizes[0] largest, S̄ loses B_i."""
    alive = list(range(points.shape[0]))
    ds, alives, member = [], [], []
    for i, _ in enumerate(qs):
        chosen = _top(points, alive, i, min(sizes[0], len(alive)))
        ds.append(tuple(sorted(int(points[r, i]) for r in chosen)))
        alives.append(frozenset(alive))
        member.append(watch in chosen)
        alive = [r for r in alive if r not in chosen]
    return ds, alives, member


def decomposition_violations(
    run: Callable[[NDArray[np.int64], tuple[int, ...], tuple[int, ...], int], Path],
    S: NDArray[np.int64],
    xp: NDArray[np.int64],
    sizes: tuple[int, ...],
    qs: tuple[int, ...],
) -> int:
    """Iterations where x' ∉ B'_i but D'_i ≠ D_i, or S̄' ≠ S̄ ∪ {x'} (x' alive) / ≠ S̄ (removed)."""
    Sp = np.vstack([S, xp])
    new = S.shape[0]
    d0, a0, _ = run(S, sizes, qs, new)
    d1, a1, m1 = run(Sp, sizes, qs, new)
    bad = 0
    for i in range(len(qs)):
        bad += (not m1[i]) and d0[i] != d1[i]
        bad += a1[i] - {new} != a0[i]
    return bad


def no_domino(config: VerifyConfig) -> CheckOutcome:
    """Lemma 5.2.6's decomposition (L1346–1360) as an exact property: for S' = S ∪ {x'} and
    every path of raw sizes and interior points, an iteration with x' ∉ B'_i has D'_i = D_i, and
    S̄' = S̄ ∪ {x'} while x' is alive, S̄' = S̄ after — the privacy loss sits on I_in only.
    Checked on every path of the L1286-style instance (d = 2, grid {0..2}: many (0,0), 3×(2,0),
    3×(0,2), x' = (1,1)) and of random tiny instances. Control: failed attempt #1 (delete the
    fixed-size candidate set) violates it on the L1286 instance — the domino effect."""
    base = np.array([[0, 0]] * 6 + [[2, 0]] * 3 + [[0, 2]] * 3, dtype=np.int64)
    instances = [(base, np.array([1, 1]))]
    rng = np.random.default_rng(SEED)
    for _ in range(20 if config.thorough else 6):
        n = int(rng.integers(4, 9))
        instances.append((rng.integers(0, 3, size=(n, 2)), rng.integers(0, 3, size=2)))
    violations, paths = 0, 0
    for S, xp in instances:
        for sizes in product(range(S.shape[0] + 3), repeat=2):
            for qs in product(range(3), repeat=2):
                paths += 1
                violations += decomposition_violations(margins_path, S, xp, sizes, qs)
    domino = sum(
        decomposition_violations(failed_attempt_path, base, np.array([1, 1]), (size, size), (0, 0))
        > 0
        for size in range(1, 8)
    )
    ok = violations == 0 and domino > 0
    return CheckOutcome(
        ok,
        f"RandMargins: {paths} paths on {len(instances)} instances, decomposition violations "
        f"{violations}; control failed attempt #1 on the L1286 instance: domino for {domino}/7 "
        "candidate-set sizes",
    )


# --- Claim 5.3.1, utility and ties --------------------------------------------------------------


def claim_531(config: VerifyConfig) -> CheckOutcome:
    """Claim 5.3.1 (L1360–1364) by Monte Carlo at d = 80: P(|I_in| > 35 ln(1/δ)) ≤ δ with
    δ = e^{−2} (threshold 70 < d), for the record x' = the coordinate-wise median point added to
    300 uniform points on {0..63}^80 (ε₀ = 1, β = 0.05): the Clopper–Pearson lower bound of the
    exceedance frequency over R runs must not exceed δ (false alarm ≤ 1e-6). Control: the same
    code with the removal step skipped keeps x' in B_i on most axes and is rejected."""
    d, n, grid = 80, 300, 63
    params = RandMarginsParameters(grid, 1.0, 0.05, tags=1)
    delta = math.exp(-2)
    threshold = 35 * math.log(1 / delta)
    rng = np.random.default_rng(SEED + 1)
    runs = 200 if config.thorough else 60
    counts, control = [], []
    for _ in range(runs):
        S = rng.integers(0, grid + 1, size=(n, d))
        x = np.full((1, d), grid // 2)
        Sp = np.vstack([S, x])
        counts.append(rand_margins_trace(Sp, params, rng, watch=n)[1])
        control.append(rand_margins_trace(Sp, params, rng, watch=n, remove=False)[1])
    exceed = sum(c > threshold for c in counts)
    exceed_control = sum(c > threshold for c in control)
    low = float(cp_lower(exceed, runs, ALPHA))
    low_control = float(cp_lower(exceed_control, runs, ALPHA))
    ok = low <= delta and low_control > delta
    return CheckOutcome(
        ok,
        f"d = {d}: |I_in| max {max(counts)}, mean {np.mean(counts):.2f} vs threshold "
        f"{threshold:.1f}; exceedances {exceed}/{runs} (CP lower {low:.3g} ≤ δ = {delta:.3g}); "
        f"control (no removal): |I_in| mean {np.mean(control):.1f}, exceedances "
        f"{exceed_control}/{runs}, rejected: {low_control > delta}",
        {"counts": counts, "control_counts": control},
    )


def tie_utility(config: VerifyConfig) -> CheckOutcome:
    """Ties (the notes' erratum): all positives at (5, 9) on {0..15}² (ε₀ = 1, β = 0.05). Under
    the printed rule (tags = 1) the first threshold removes every point and p₂ = A(∅) is uniform,
    so the rectangle misses every positive with probability ≈ 9/16 — exactly from
    ``release_law`` (40 points) and by ``fit`` (4000 points, R fits); with the tie fix
    (T = 16 tags) ``fit`` misses with a frequency whose Clopper–Pearson upper bound is below the
    printed rule's lower bound (each at 1e-6)."""
    printed = RandMarginsParameters(15, 1.0, 0.05, tags=1)
    exact = sum(
        p
        for corner, p in release_law(np.full((40, 2), [5, 9], dtype=np.int64), printed).items()
        if not rect.in_rectangle(corner, (5, 9))
    )
    X = np.vstack([np.full((4000, 2), [5, 9]), [[15, 15]]])
    y = np.r_[np.ones(4000, dtype=np.int64), 0]
    runs = 240 if config.thorough else 60

    def misses(tags: int) -> int:
        return sum(
            not rect.in_rectangle(
                PrivateRectangleClassifier(
                    2.0, 1e-6, 15, 0.05, tags=tags, accounting="basic", random_state=r
                )
                .fit(X, y)
                .p_.tolist(),
                (5, 9),
            )
            for r in range(runs)
        )

    fixed, plain = misses(16), misses(1)
    upper = float(cp_upper(fixed, runs, ALPHA))
    lower = float(cp_lower(plain, runs, ALPHA))
    ok = exact > 0.5 and upper < lower
    return CheckOutcome(
        ok,
        f"printed rule: exact P(miss) = {exact:.4f} (9/16 = 0.5625), fit misses {plain}/{runs} "
        f"(CP lower {lower:.3f}); tie fix T = 16: fit misses {fixed}/{runs} (CP upper "
        f"{upper:.3f} < {lower:.3f})",
        {"exact_printed": exact, "fixed_misses": fixed, "printed_misses": plain},
    )


def pac_utility(config: VerifyConfig) -> CheckOutcome:
    """PAC utility (Lemma 5.2.7, Thm 5.2.4) of ``PrivateRectangleClassifier.fit`` against the
    baseline and the non-private learner: d = 3, X = 255, target p* = (200, 150, 220),
    x ~ Unif{0..X}^3, n = 60,000, ε = 3 (basic accounting, ε₀ = 1). The error is exact (mass of
    the symmetric difference); claim: error ≤ α = 0.05 with probability ≥ 1 − β' (β' = 4dβ = 0.6
    for the unions of Lemma 5.2.7, β = 0.05 per call) — tested by Clopper–Pearson at 1e-6 over R
    fits. Control: the printed tie rule on a dataset whose positives share coordinates fails."""
    d, grid, n = 3, 255, 60_000
    target = (200, 150, 220)
    rng = np.random.default_rng(SEED + 3)
    runs = 40 if config.thorough else 12
    errors, base_errors, np_errors = [], [], []
    for r in range(runs):
        X = rng.integers(0, grid + 1, size=(n, d))
        y = np.all(np.array(target) >= X, axis=1).astype(np.int64)
        clf = PrivateRectangleClassifier(
            3.0, 1e-6, grid, 0.05, tags=16, accounting="basic", random_state=r
        ).fit(X, y)
        errors.append(float(rect.rectangle_error(target, clf.p_.tolist(), grid)))
        step = comp.per_step_epsilon(3.0, d, 1e-6)  # (3, 1e-6) by advanced composition
        base = interior_point_baseline(X[y == 1], grid, step, 0.05, rng)
        base_errors.append(float(rect.rectangle_error(target, base.tolist(), grid)))
        np_errors.append(
            float(rect.rectangle_error(target, nonprivate_rectangle(X[y == 1]).tolist(), grid))
        )
    bad = sum(e > 0.05 for e in errors)
    low = float(cp_lower(bad, runs, ALPHA))
    ties = np.vstack([np.full((6000, 2), [5, 9]), [[15, 15]]]).astype(np.int64)
    tie_errors = [
        float(
            rect.rectangle_error(
                (5, 9),
                PrivateRectangleClassifier(
                    2.0, 1e-6, 15, 0.05, tags=1, accounting="basic", random_state=r
                )
                .fit(ties, np.r_[np.ones(6000, int), 0])
                .p_.tolist(),
                15,
            )
        )
        for r in range(16)
    ]
    tie_bad = sum(e > 0.05 for e in tie_errors)
    ok = low <= 4 * d * 0.05 and tie_bad >= 2
    return CheckOutcome(
        ok,
        f"RandMargins: mean error {np.mean(errors):.4f}, > α in {bad}/{runs} (CP lower {low:.3g} "
        f"≤ β' = {4 * d * 0.05:.2g}); baseline (advanced composition per axis): mean "
        f"{np.mean(base_errors):.4f}; non-private: {np.mean(np_errors):.5f}; control (printed tie "
        f"rule, all positives at (5, 9)): error > α in {tie_bad}/16",
        {"errors": errors, "baseline": base_errors, "nonprivate": np_errors},
    )


# --- composition and the background errata -------------------------------------------------------

#: (ε, k, δ') instances of the composition checks.
COMPOSITIONS = ((0.05, 100, 1e-10), (0.1, 50, 1e-6), (0.01, 1000, 1e-8), (0.5, 10, 1e-5))


def advanced_composition(config: VerifyConfig) -> CheckOutcome:
    """Advanced composition (Dwork–Rothblum–Vadhan; thesis Thm 3.2.4, L645–647) in its correct
    form: the k-fold composition of ε-randomized response — the worst case among pure ε-DP
    mechanisms (Kairouz–Oh–Viswanath) — has exact δ(ε') ≤ δ' at ε' = ε√(2k ln(1/δ')) +
    kε(e^ε − 1), and the simple form ε√(2k ln 1/δ') + 2kε² (ε ≤ 1) is larger; ``per_step_epsilon``
    inverts it. Control: basic composition's kε halved is refuted by the exact δ."""
    rows, ok = [], True
    for eps, k, dp in COMPOSITIONS:
        target = comp.advanced_composition(eps, 0.0, k, dp)[0]
        delta = comp.randomized_response_composition_delta(eps, k, target)
        simple = comp.advanced_composition_simple(eps, k, dp)
        step = comp.per_step_epsilon(target, k, dp)
        ok &= (
            delta <= dp
            and simple >= target
            and comp.advanced_composition(step, 0, k, dp)[0] <= target
        )
        rows.append(f"(ε={eps}, k={k}, δ'={dp:g}): ε' = {target:.4g}, exact δ = {delta:.3g}")
    half = comp.randomized_response_composition_delta(0.5, 10, 0.5 * 10 / 2)
    control = half > 1e-5
    return CheckOutcome(
        ok and control, "; ".join(rows) + f"; control kε/2: δ = {half:.3g} > 1e-5: {control}"
    )


def advanced_composition_printed(config: VerifyConfig) -> CheckOutcome:
    """Erratum (L647): the thesis prints ε' = ε√(sk ln(1/δ')) + 2kε²; read literally with s = 1
    it is false — for ε = 0.01, k = 1000, δ' = 1e-8 the exact δ of k-fold ε-randomized response at
    the printed ε' is 5.2e-8 > δ'; with the factor 2 (the correct form) it holds."""
    eps, k, dp = 0.01, 1000, 1e-8
    printed = eps * math.sqrt(k * math.log(1 / dp)) + 2 * k * eps**2
    correct = comp.advanced_composition_simple(eps, k, dp)
    at_printed = comp.randomized_response_composition_delta(eps, k, printed)
    at_correct = comp.randomized_response_composition_delta(eps, k, correct)
    return CheckOutcome(
        at_printed > dp and at_correct <= dp,
        f"printed (s = 1) ε' = {printed:.4g}: exact δ = {at_printed:.3g} > {dp:g}; correct "
        f"ε' = {correct:.4g}: exact δ = {at_correct:.3g}",
    )


def renyi_printed(config: VerifyConfig) -> CheckOutcome:
    """Erratum (L420, L427): the Rényi divergence is (1/(α − 1)) ln Σ p^α q^{1−α}; the printed
    1/(1 − α) makes it negative for α > 1 (P = (0.6, 0.4), Q = (0.4, 0.6), α = 2: −0.154), and the
    RDP → DP conversion ε + ln(1/δ)/(1 − α) would lower ε. The correct form is ≥ 0, and 0 iff
    P = Q."""
    p, q = [0.6, 0.4], [0.4, 0.6]
    correct = comp.renyi_divergence(p, q, 2.0)
    printed = comp.renyi_divergence(p, q, 2.0, printed=True)
    same = comp.renyi_divergence(p, p, 3.0)
    ok = correct > 0 > printed and abs(same) < 1e-12
    return CheckOutcome(
        ok, f"D_2 correct {correct:.4f}, printed {printed:.4f}; D_3(P‖P) = {same:.2g}"
    )


def lemma_532(config: VerifyConfig) -> CheckOutcome:
    """Erratum (L1368–1372, Lemma 5.3.2 as stated): P = (0.6, 0.4), Q = (0.4, 0.6) are
    (0.1, 0.158)-indistinguishable (``satisfies_approx_dp``), yet |ln P/Q| = 0.405 > 0.1 at both
    points, so no event G with P(G), Q(G) > 1 − δ has loss ≤ ε (``good_event_exists``). Control:
    pairs that are (0.1, 0)-indistinguishable do have G (the whole space)."""
    from dpspec.spec.privacy import satisfies_approx_dp

    p, q = {0: 0.6, 1: 0.4}, {0: 0.4, 1: 0.6}
    indist = satisfies_approx_dp(p, q, math.exp(0.1), 0.158)
    no_event = not rect.good_event_exists([0.6, 0.4], [0.4, 0.6], 0.1, 0.158)
    control = rect.good_event_exists([0.51, 0.49], [0.49, 0.51], 0.1, 0.158)
    return CheckOutcome(
        indist and no_event and control,
        f"(0.1, 0.158)-indistinguishable: {indist}; no good event: {no_event}; control "
        f"(0.51, 0.49) vs (0.49, 0.51) has one: {control}",
    )


def privacy_report(config: VerifyConfig) -> CheckOutcome:
    """``privacy_`` is the caller's target (ε, δ) under add/remove (δ reported 0 with the basic
    accounting), the per-call level follows the accounting (basic ε/d; theorem
    ε/(70 ln((d+2)/δ))), and ``best`` picks the larger (the mutants ``rect.report-*`` are the
    bugs this must catch)."""
    rng = np.random.default_rng(SEED + 4)
    X = rng.integers(0, 16, size=(200, 3))
    y = (X.max(axis=1) < 12).astype(np.int64)
    problems = []
    for acc in ("basic", "theorem", "best"):
        clf = PrivateRectangleClassifier(2.0, 1e-3, 15, 0.05, accounting=acc, random_state=0).fit(
            X, y
        )
        p = clf.privacy_
        basic, theorem = 2.0 / 3, 2.0 / (70 * math.log(5 / 1e-3))
        expect = {"basic": basic, "theorem": theorem, "best": max(basic, theorem)}[acc]
        if not (
            math.isclose(clf.epsilon_call_, expect)
            and p.epsilon == 2.0
            and p.relation is Relation.ADD_REMOVE
        ):
            problems.append(f"{acc}: {clf.epsilon_call_} vs {expect}, {p}")
        if p.delta != (0.0 if clf.accounting_ == "basic" else 1e-3):
            problems.append(f"{acc}: {clf.accounting_} accounting reports δ = {p.delta}")
    return CheckOutcome(not problems, f"problems: {problems or 'none'}")
