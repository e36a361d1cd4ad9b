"""Checks of PCDE (seed 000, Alg 3): exact privacy through the real ``fit``, the density,
its L1 consistency, the idealised histograms.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray
from scipy import stats

from dpspec.densities import DENSITIES, ProductDensity, SymmetricMarginal
from dpspec.learners.pcde import (
    PrivateHistogramDensity,
    check_points,
    cube_ids,
    match_rows,
    occupied_cubes,
    row_keys,
    side_for,
)
from dpspec.learners.semi_supervised import (
    dichotomies,
)
from dpspec.mechanisms.stability_histogram import TAIL, StabilityHistogram
from dpspec.noise import laplace_sf
from dpspec.proofs.engine.conformance import Law, conformance, conformance_rng, draws, outcome
from dpspec.proofs.engine.consistency_runs import NO_RELEASE_L1, density_l1_distance
from dpspec.proofs.engine.exact import RTOL, Dataset, ExactReport, verify_pairs
from dpspec.proofs.engine.registry import CheckOutcome, VerifyConfig
from dpspec.proofs.engine.stats import ALPHA, chisquare_gof
from dpspec.spec.consistency import welch_greater_pvalue
from dpspec.spec.neighbours import Relation, neighbouring_pairs
from dpspec.spec.privacy import Dist

SEED = 4000


#: Relative slack of float comparisons in the exact checks (probabilities carry ~1e-15 error).


Points = Sequence[float] | Sequence[tuple[float, ...]]


class LoweredThresholdDensity(PrivateHistogramDensity):
    """Negative control: PCDE whose histogram threshold is ``lowered`` below the exact one."""

    lowered = 2

    def make_histogram(self) -> StabilityHistogram:
        histogram = super().make_histogram()
        histogram.threshold = int(histogram.threshold) - self.lowered
        return histogram


def verify_pcde(
    points: Points,
    max_size: int,
    epsilon: float,
    delta: float,
    *,
    lowered: int = 0,
    side: float = 1.0,
) -> ExactReport:
    """(ε, δ)-DP of PCDE's release over all substitution pairs of multisets of ``points``.

    The law of each dataset is :meth:`PrivateHistogramDensity.release_law` (f̂ is a function of
    the release, so the bound carries over by post-processing) with one common ``cap`` ≥ every
    count (required for the lumped tail to be exact across the pair). ``lowered`` > 0 uses
    :class:`LoweredThresholdDensity` (a control that must be caught). Worst δ is compared with
    relative slack :data:`RTOL`. ``details["one_cell_delta"]`` = P(Z ≥ τ − 1), the probability
    that a cube holding a single point is released — the event that makes δ necessary.
    """
    if lowered:
        est: PrivateHistogramDensity = LoweredThresholdDensity(epsilon, delta, side=side)
        cast(LoweredThresholdDensity, est).lowered = lowered
    else:
        est = PrivateHistogramDensity(epsilon, delta, side=side)
    histogram = est.make_histogram()
    tau = int(histogram.threshold)
    cap = max(tau, max_size) + 1
    domain = tuple(points)
    d = 1 if not isinstance(domain[0], tuple) else len(domain[0])

    def law(data: Dataset) -> Dist:
        return est.release_law(np.array(data, dtype=np.float64).reshape(-1, d), cap=cap)

    report = verify_pairs(
        f"PCDE d={d}, {len(domain)} cubes, eps={epsilon}, delta={delta}, tau={tau}"
        + (f" (lowered by {lowered})" if lowered else ""),
        law,
        neighbouring_pairs(domain, max_size, Relation.SUBSTITUTE, min_size=1),
        math.exp(epsilon),  # the caller's (ε, δ), not the level the histogram reports
        delta,
        rtol=RTOL,
    )
    report.details.update(
        threshold=tau,
        one_cell_delta=float(histogram.release_probability(1)),
        threshold_rule_bound=float((1 + histogram.privacy.ratio) * histogram.noise.sf(tau)),
    )
    return report


def pcde_exact_privacy(config: VerifyConfig) -> CheckOutcome:
    """Thm 4.2 exactly: 1-D (3 cubes, one of them on the negative axis) and 2-D (3 cubes)
    instances, all substitution pairs of ≤ 8 / ≤ 6 points (counts above τ included); worst δ
    must be ≤ δ and equal P(Z ≥ τ − 1) (a lone point's cube released: the analytic worst
    case); control: τ − 2 must be caught (τ − 1 is still (ε, δ)-DP here, see the note)."""
    size = 10 if config.thorough else 8
    one_d = (-0.5, 0.5, 1.5)
    two_d = ((0.5, 0.5), (1.5, 0.5), (0.5, -0.5))
    reports = [
        verify_pcde(one_d, size, 1.0, 0.1),
        verify_pcde(one_d, size, 2.0, 0.05),
        verify_pcde(two_d, size - 2, 1.0, 0.1),
    ]
    control = verify_pcde(one_d, size, 2.0, 0.05, lowered=2)
    tight = all(
        math.isclose(float(r.worst_delta), r.details["one_cell_delta"], rel_tol=1e-9)
        for r in reports
    )
    ok = all(r.holds for r in reports) and tight and not control.holds
    return CheckOutcome(
        ok,
        "; ".join(r.summary() for r in reports)
        + f"; worst delta = P(Z >= tau-1) on every instance: {tight}; control: {control.summary()}",
        {
            "pairs": sum(r.pairs for r in reports),
            "worst_deltas": [float(r.worst_delta) for r in reports],
            "claimed_deltas": [0.1, 0.05, 0.1],
            "thresholds": [r.details["threshold"] for r in reports],
            "control_worst_delta": float(control.worst_delta),
            "control_caught": not control.holds,
        },
    )


def _fitted(n: int, d: int, seed: int) -> PrivateHistogramDensity:
    rng = np.random.default_rng(seed)
    return PrivateHistogramDensity(1.0, 1e-6, random_state=seed).fit(rng.standard_normal((n, d)))


def pcde_is_density(config: VerifyConfig) -> CheckOutcome:
    """Remark 4.1: f̂ ≥ 0, ∫f̂ = 1 (sum over released cubes, and through ``pdf`` at cube
    centres), f̂ = 0 off the released cubes; ``sample`` lands only in released cubes, picks
    them ∝ ĉ (chi-square) and is uniform inside (KS on the offsets), both at α = 1e-6;
    controls: cube proportions ∝ ĉ² and offsets squared must be rejected."""
    n_draw = 400_000 if config.thorough else 200_000
    problems: list[str] = []
    pvals: dict[str, float] = {}
    controls: dict[str, float] = {}
    for d in (1, 2):
        est = _fitted(100_000, d, SEED + d)
        rng = np.random.default_rng(SEED + 10 + d)
        r = est.side_
        mass = est.total_mass()
        centres = (est.released_cells_ + 0.5) * r
        via_pdf = math.fsum((est.pdf(centres) * r**d).tolist())
        if abs(mass - 1) > 1e-12 or abs(via_pdf - 1) > 1e-12:
            problems.append(f"d={d}: mass {mass!r}, via pdf {via_pdf!r}")
        probe = rng.standard_normal((50_000, d)) * 3
        dens = est.pdf(probe)
        inside = match_rows(est.released_cells_, cube_ids(probe, r)) >= 0
        if np.any(dens < 0) or np.any(dens[~inside] != 0) or np.any(dens[inside] <= 0):
            problems.append(f"d={d}: pdf negative, or nonzero off the released cubes")
        draws = est.sample(n_draw, rng)
        which = match_rows(est.released_cells_, cube_ids(draws, r))
        if np.any(which < 0):
            problems.append(f"d={d}: {int(np.sum(which < 0))} samples outside released cubes")
            continue
        probs = est.cube_probabilities()
        pvals[f"cubes d={d}"] = chisquare_gof(which, dict(enumerate(probs.tolist()))).pvalue
        squared = est.released_counts_**2 / np.sum(est.released_counts_**2)
        controls[f"cubes d={d}"] = chisquare_gof(which, dict(enumerate(squared.tolist()))).pvalue
        offsets = (draws / r - est.released_cells_[which]).ravel()
        pvals[f"offsets d={d}"] = float(stats.kstest(offsets, "uniform").pvalue)
        controls[f"offsets d={d}"] = float(stats.kstest(offsets**2, "uniform").pvalue)
    ok = (
        not problems
        and all(p > ALPHA for p in pvals.values())
        and all(p < ALPHA for p in controls.values())
        and len(pvals) == 4
    )
    return CheckOutcome(
        ok,
        f"problems: {problems}; p-values { ({k: f'{v:.3g}' for k, v in pvals.items()}) }; "
        f"controls rejected: {all(p < ALPHA for p in controls.values())}",
        {"pvalues": pvals, "control_pvalues": controls, "draws": n_draw},
    )


def l1_to_standard_normal(est: PrivateHistogramDensity) -> float:
    """∫|φ − f̂| for a fitted 1-D PCDE (φ the N(0, 1) density), in closed form per cube.

    On a cube [a, b) where f̂ = h: ∫|φ − h| = h(b − a) − (Φ(b) − Φ(a)) + 2∫_{[a,b]∩{φ>h}}(φ − h),
    with {φ > h} = (−x_h, x_h), x_h = √(−2 ln(h√(2π))) (empty when h ≥ φ(0)); off the released
    cubes f̂ = 0 and the distance is the normal mass there, 1 − Σ_j (Φ(b_j) − Φ(a_j)).
    Exact up to the accuracy of Φ (scipy's ``ndtr``, ~1e-16).
    """
    return density_l1_distance(est, DENSITIES["normal"])


Estimator = Callable[[NDArray[np.float64], int], PrivateHistogramDensity]


def l1_trend(
    estimator: Estimator,
    grid: Sequence[int],
    reps: int,
    seed: int,
    density: ProductDensity = DENSITIES["normal"],
) -> tuple[list[list[float]], list[float]]:
    """L1 distances to ``density`` (default N(0, 1)) for ``reps`` fits at each n, and the
    one-sided Welch p-values of H0: E L1(n_{k+1}) ≥ E L1(n_k) (small: a significant
    decrease). A fit that releases nothing counts as :data:`NO_RELEASE_L1`."""
    rng = np.random.default_rng(seed)

    def one(n: int, k: int) -> float:
        try:
            return density_l1_distance(estimator(density.sample(n, rng), k), density)
        except ValueError as exc:
            if "no cube was released" not in str(exc):
                raise
            return NO_RELEASE_L1

    l1 = [[one(n, k) for k in range(reps)] for n in grid]
    pvals = [welch_greater_pvalue(l1[k], l1[k + 1]) for k in range(len(grid) - 1)]
    return l1, pvals


def pcde_consistency_trend(config: VerifyConfig) -> CheckOutcome:
    """Thm 4.3 (a limit, so a trend, not a rate): for N(0, 1), ε = 1, δ = 1e-6, n ∈ {10^4, 10^5,
    10^6}, R fits each, every step must be a significant decrease (one-sided Welch t-test at
    α = 1e-6: a flat trend passes a step with probability ≤ 1e-6) and the mean L1 at 10^6
    must be < 0.15. Control: an estimator that ignores the sample (PCDE on 10^4 fresh points,
    whatever n is) must fail."""
    reps = 12 if config.thorough else 8
    grid = (10**4, 10**5, 10**6)

    def pcde(X: NDArray[np.float64], k: int) -> PrivateHistogramDensity:
        return PrivateHistogramDensity(1.0, 1e-6, random_state=k).fit(X)

    blind_rng = np.random.default_rng(SEED + 7)

    def blind(X: NDArray[np.float64], k: int) -> PrivateHistogramDensity:
        return pcde(blind_rng.standard_normal((10**4, 1)), k)

    l1, pvals = l1_trend(pcde, grid, reps, SEED + 5)
    c_l1, c_pvals = l1_trend(blind, grid, reps, SEED + 6)
    means = [float(np.mean(v)) for v in l1]
    c_means = [float(np.mean(v)) for v in c_l1]

    def shows_trend(p: list[float], m: list[float]) -> bool:
        return all(x < ALPHA for x in p) and m[-1] < 0.15

    ok = shows_trend(pvals, means) and not shows_trend(c_pvals, c_means)
    return CheckOutcome(
        ok,
        f"mean L1 at n={list(grid)}: {[round(m, 4) for m in means]} (Welch p-values "
        f"{[f'{p:.2g}' for p in pvals]}); data-ignoring control: "
        f"{[round(m, 4) for m in c_means]} (p {[f'{p:.2g}' for p in c_pvals]}) rejected: "
        f"{not shows_trend(c_pvals, c_means)}",
        {"grid": list(grid), "reps": reps, "l1": l1, "pvalues": pvals, "control_l1": c_l1},
    )


def _quadrature_l1(
    g: SymmetricMarginal, cells: NDArray[np.int64], side: float, values: NDArray[np.float64]
) -> float:
    """‖f − f̂‖₁ by scipy's adaptive quadrature cube by cube (the reference for the formulas)."""
    from scipy import integrate

    lo = cells.astype(np.float64) * side
    total = 1.0 - float(np.sum(np.prod(g.cdf(lo + side) - g.cdf(lo), axis=1)))
    for c, h in zip(lo, values, strict=True):
        if cells.shape[1] == 1:
            total += integrate.quad(
                lambda x, h=h: abs(float(g.pdf(np.array(x))) - h),
                c[0],
                c[0] + side,
                epsabs=1e-13,
                limit=200,
            )[0]
        else:
            total += integrate.dblquad(
                lambda y, x, h=h: abs(float(g.pdf(np.array(x)) * g.pdf(np.array(y))) - h),
                c[0],
                c[0] + side,
                c[1],
                c[1] + side,
                epsabs=1e-11,
            )[0]
    return total


def density_l1_formula(config: VerifyConfig) -> CheckOutcome:
    """The L1 formulas of ``impl/densities.py`` against scipy's adaptive quadrature on random
    histograms whose levels are within a factor 1.5 of f at the cube centres, so that level
    sets cut the cubes (every density of ``DENSITIES``; 1-D: piecewise ``quad`` to 1e-12; 2-D:
    ``dblquad`` per cube to 1e-10), agreement within 1e-7. Control: the same histograms scored
    against a different marginal (t₃ for the normal, N(0, 1) for the t's) must disagree with
    the quadrature by more than 1e-3 on some histogram."""
    rng = np.random.default_rng(SEED + 30)
    trials = 6 if config.thorough else 3
    worst, control_gap = 0.0, 0.0
    for density in DENSITIES.values():
        g = density.marginal
        other = (
            SymmetricMarginal("normal")
            if g.name == "student-t"
            else SymmetricMarginal("student-t", 3.0)
        )
        wrong = ProductDensity(other, density.d)
        for _ in range(trials):
            k = int(rng.integers(1, 4))
            side = float(rng.uniform(0.3, 1.5))
            cells = np.unique(rng.integers(-3, 3, size=(k, density.d)), axis=0)
            # levels near f on the cube, so the level sets {f > h} cut through the cubes
            centre = (cells.astype(np.float64) + 0.5) * side
            values = density.pdf(centre) * rng.uniform(0.5, 1.5, size=cells.shape[0])
            value, _ = density.l1_to_histogram(cells, side, values)
            truth = _quadrature_l1(g, cells, side, values)
            worst = max(worst, abs(value - truth))
            control_gap = max(
                control_gap, abs(wrong.l1_to_histogram(cells, side, values)[0] - truth)
            )
    ok = worst < 1e-7 and control_gap > 1e-3
    return CheckOutcome(
        ok,
        f"{len(DENSITIES)} densities × {trials} histograms: max |formula − quadrature| = "
        f"{worst:.2g}; wrong-marginal control gap {control_gap:.3g} (> 1e-3: caught)",
        {"max_error": worst, "control_gap": control_gap},
    )


def pcde_consistency_heavy_tailed(config: VerifyConfig) -> CheckOutcome:
    """Thm 4.3 holds for every density, heavy tails included: Cauchy on ℝ (no mean) and the
    product of two t₂ on ℝ², ε = 1, δ = 1e-6, n ∈ {10^4, 10^5, 10^6}. Every step must be a
    significant decrease of the exact L1 (one-sided Welch, α = 1e-6 per step) and the last mean
    must be below 0.6 (Cauchy) / 1.2 (t₂ ⊗ t₂). Control: the data-ignoring estimator (PCDE on
    10^4 fresh points whatever n is) must fail for both."""
    reps = 8 if config.thorough else 5
    grid = (10**4, 10**5, 10**6)
    cases = (("cauchy", 0.6), ("student-t-2d", 1.2))

    def pcde(X: NDArray[np.float64], k: int) -> PrivateHistogramDensity:
        return PrivateHistogramDensity(1.0, 1e-6, random_state=k).fit(X)

    blind_rng = np.random.default_rng(SEED + 9)
    summary: dict[str, Any] = {}
    ok = True
    for offset, (name, tol) in enumerate(cases):
        density = DENSITIES[name]

        def blind(X: NDArray[np.float64], k: int, density: ProductDensity = density) -> Any:
            return pcde(density.sample(10**4, blind_rng), k)

        l1, pvals = l1_trend(pcde, grid, reps, SEED + 10 + offset, density)
        c_l1, c_pvals = l1_trend(blind, grid, reps, SEED + 20 + offset, density)
        means = [float(np.mean(v)) for v in l1]
        c_means = [float(np.mean(v)) for v in c_l1]
        trend = all(p < ALPHA for p in pvals) and means[-1] < tol
        control = all(p < ALPHA for p in c_pvals) and c_means[-1] < tol
        ok = ok and trend and not control
        summary[name] = {
            "means": [round(m, 4) for m in means],
            "pvalues": [float(f"{p:.2g}") for p in pvals],
            "tolerance": tol,
            "control_means": [round(m, 4) for m in c_means],
            "control_rejected": not control,
        }
    return CheckOutcome(ok, f"grid {list(grid)}, {reps} fits each: {summary}", summary)


def pcde_grid_and_protocol(config: VerifyConfig) -> CheckOutcome:
    """Grid and estimator properties: r = n^{−1/(2d)}; cubes anchored at 0 (⌊x/r⌋, negative
    coordinates included); packed row keys agree with the np.unique fallback and with a
    dictionary lookup on random rows (huge spans force the fallback); occupied_cubes counts
    match a Counter; get/set_params round trip; same random_state → same model; bad input
    gets a ValueError naming the parameter (a control input that is fine must be accepted)."""
    from collections import Counter

    rng = np.random.default_rng(SEED + 40)
    problems: list[str] = []
    if not math.isclose(side_for(10**4, 2), 0.1) or not math.isclose(side_for(100, 1), 0.1):
        problems.append("side_for")
    got = cube_ids(np.array([[-0.05, 0.0, 0.25, 0.999]]).T, 0.1)[:, 0].tolist()
    if got != [-1, 0, 2, 9]:
        problems.append(f"cube_ids anchoring: {got}")
    for spread in (5, 2**40):
        rows = rng.integers(-spread, spread, size=(3000, 3)).astype(np.int64)
        rows[1000:2000] = rows[:1000]
        keys = row_keys(rows)
        same = keys[:, None] == keys[None, :1000]
        truth = np.all(rows[:, None, :] == rows[None, :1000, :], axis=2)
        if not np.array_equal(same, truth):
            problems.append(f"row_keys spread {spread}")
        cells, counts = occupied_cubes(rows)
        counted = dict(zip(map(tuple, cells.tolist()), counts.tolist(), strict=True))
        if Counter(map(tuple, rows.tolist())) != counted:
            problems.append(f"occupied_cubes spread {spread}")
        query = np.concatenate([rows[:50], rows[:50] + 2 * spread + 1])
        idx = match_rows(cells, query)
        lookup = {tuple(c): i for i, c in enumerate(cells.tolist())}
        expect = [lookup.get(tuple(q), -1) for q in query.tolist()]
        if idx.tolist() != expect:
            problems.append(f"match_rows spread {spread}")
    X = rng.standard_normal((20_000, 2))
    # cubes of side 0.5 hold hundreds of points: the release is never empty, whatever the draw
    est = PrivateHistogramDensity(0.5, 1e-5, side=0.5, random_state=3)
    clone = PrivateHistogramDensity(**est.get_params())
    a, b = est.fit(X), clone.fit(X)
    if not np.array_equal(a.released_counts_, b.released_counts_):
        problems.append("same random_state gave different releases")
    if est.set_params(epsilon=2.0).get_params()["epsilon"] != 2.0:
        problems.append("set_params")
    cases: list[tuple[dict[str, Any], Any, str]] = [
        ({}, X[:, 0], "X"),
        ({}, np.full((5, 1), np.nan), "X"),
        ({"epsilon": 0.0}, X, "epsilon"),
        ({"delta": 0.0}, X, "delta"),
        ({"delta": 1.0}, X, "delta"),
        ({"idealised": "gaussian"}, X, "idealised"),
        ({"side": -1.0}, X, "side"),
        ({"random_state": "seed"}, X, "random_state"),
        ({}, X[:10], "released"),
    ]
    for kwargs, data, name in cases:
        try:
            PrivateHistogramDensity(**kwargs).fit(data)
            problems.append(f"{name}: accepted")
        except ValueError as exc:
            if name not in str(exc):
                problems.append(f"{name}: {exc}")
    try:
        check_points(X)
        PrivateHistogramDensity(side=0.5, random_state=0).fit(X)  # control: valid input accepted
    except ValueError as exc:
        problems.append(f"valid input rejected: {exc}")
    try:
        dichotomies("rectangle", rng.random((65, 2)))
        problems.append("n_synthetic: 65 rectangle points accepted")
    except ValueError as exc:
        if "n_synthetic" not in str(exc):
            problems.append(f"n_synthetic: {exc}")
    ok = not problems
    return CheckOutcome(ok, f"problems: {problems}", {"cases": len(cases)})


def pcde_fit_conformance(config: VerifyConfig) -> CheckOutcome:
    """PCDE ``fit`` on 53 points in 3 cubes (counts 5, 8, 40 around τ): the joint release
    (released cubes and their counts) against ``release_law``; control: ``fit`` at ε = 2."""
    X = np.repeat([[-0.5], [0.5], [1.5]], [5, 8, 40], axis=0)
    reps = draws(config, 800)
    cap = 41

    def at(eps: float, offset: int) -> Callable[[int], list[Any]]:
        def draw(k: int) -> list[Any]:
            out = []
            for r in range(k):
                est = PrivateHistogramDensity(eps, 0.1, side=1.0, random_state=offset + r).fit(X)
                out.append(
                    tuple(
                        (tuple(int(v) for v in cell), TAIL if c >= cap else int(c))
                        for cell, c in zip(est.released_cells_, est.released_counts_, strict=True)
                    )
                )
            return out

        return draw

    def law(eps: float) -> dict[Any, Any]:
        return dict(PrivateHistogramDensity(eps, 0.1, side=1.0).release_law(X, cap=cap))

    return outcome(
        [conformance("PCDE fit, 3 cubes", law(1.0), at(1.0, 0), at(2.0, 10**6), law(2.0), reps)]
    )


def _idealised_law(hist: StabilityHistogram, count: int, edges: NDArray[np.float64]) -> Law:
    """Law of one cell's idealised release binned at ``edges`` (edges[0] = τ): 0 when dropped,
    bin i for a value in [e_i, e_{i+1}), the last bin open — continuous Laplace CDF differences."""
    released = float(hist.release_probability(count))
    if count <= 0:
        return {-1: 1.0 - released, 0: released}  # an empty cell: never noised, never released
    sf = [laplace_sf(float(e) - count, hist.scale) for e in edges]
    law: dict[Any, Any] = {-1: 1.0 - released}
    for i in range(len(edges) - 1):
        law[i] = sf[i] - sf[i + 1]
    law[len(edges) - 1] = sf[-1]
    return law


def _joint(a: Law, b: Law) -> Law:
    return {(x, y): float(pa) * float(pb) for x, pa in a.items() for y, pb in b.items()}


def idealised_histogram_conformance(config: VerifyConfig) -> CheckOutcome:
    """The idealised (paper) histogram's ``release_counts`` on an empty cell and 3 cells with
    counts around τ: each cell's release (dropped, or the value in one of 12 bins above τ)
    jointly with the empty cell's, against the continuous Laplace law and
    ``release_probability``, chi-square at α/3 per cell (Bonferroni); control: the histogram
    at 2ε."""
    n = draws(config, 40_000)
    good = StabilityHistogram(3, 1.0, 1e-2, idealised=True)
    bad = StabilityHistogram(3, 2.0, 1e-2, idealised=True)
    tau = float(good.threshold)
    counts = np.array([0, round(tau) - 2, round(tau), round(tau) + 3], dtype=np.int64)
    edges = tau + np.arange(12) * good.scale / 2
    reports = []
    for j, c in enumerate(counts.tolist()[1:], start=1):

        def draw(k: int, m: StabilityHistogram, tag: int, j: int = j) -> Any:
            released = m.release_counts(np.tile(counts, k), conformance_rng(tag)).reshape(k, 4)[
                :, [0, j]
            ]
            bins = np.searchsorted(edges, released, side="right") - 1
            return np.where(released > 0, bins, -1)

        reports.append(
            conformance(
                f"idealised histogram release_counts, counts (0, {c})",
                _joint(_idealised_law(good, 0, edges), _idealised_law(good, c, edges)),
                partial(draw, m=good, tag=110),
                partial(draw, m=bad, tag=111),
                _joint(_idealised_law(bad, 0, edges), _idealised_law(bad, c, edges)),
                n,
                alpha=ALPHA / 3,
            )
        )
    return outcome(reports)
