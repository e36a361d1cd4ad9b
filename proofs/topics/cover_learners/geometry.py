"""Metric and smoothness checks of seed 004: the covers the learners use (Fig. 1–3), smoothness
and Lemma 19 with Example 1, Examples 2–3 with Lemmas 20–21 (bands and caps of the sphere),
Lemma 14 (packing size), Lemma 15 (large packings from the doubling dimension), Lemmas 16–17
(VC uniform convergence) and Lemma 25 (packings of linear separators).

Exact wherever the space is finite (``Fraction`` distances, exhaustive covers and packings);
the sphere's band masses come from the Beta law of (u·x)² (exact at n = 3, where u·x is
uniform on [−1, 1]).
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import pairwise
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.cover_learners import (
    Boxes,
    empirical_threshold_cover,
    grid_size,
    interval_grid,
    kappa_hat,
    threshold_grid,
)
from dpspec.proofs.engine.controls import BugControl
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
from dpspec.proofs.engine.seeds import CHAUDHURI_HSU
from dpspec.proofs.topics.cover_learners.common import SEED
from dpspec.spec import cover_learners as sc
from dpspec.spec.cover_learners import (
    distances_dominated,
    doubling_count,
    greedy_packing,
    is_cover,
    is_packing,
    is_smooth,
    lemma15_conclusion,
    packing_size_bound,
    smoothness,
)


def _threshold_distance(a: Fraction, b: Fraction) -> Fraction:
    return abs(a - b)


def _interval_distance(
    a: tuple[Fraction, Fraction] | None, b: tuple[Fraction, Fraction] | None
) -> Fraction:
    """ρ_𝒰 of two intervals in [0, 1] (None: the empty hypothesis) = λ(A △ B)."""
    la = a[1] - a[0] if a else Fraction(0)
    lb = b[1] - b[0] if b else Fraction(0)
    if a is None or b is None:
        return la + lb
    overlap = max(Fraction(0), min(a[1], b[1]) - max(a[0], b[0]))
    return la + lb - 2 * overlap


def _intervals(boxes: Boxes) -> list[tuple[Fraction, Fraction] | None]:
    return [
        (Fraction(lo), Fraction(hi)) if lo <= hi else None
        for lo, hi in zip(boxes.lower.tolist(), boxes.upper.tolist(), strict=True)
    ]


def _threshold_cover_radius(points: list[Fraction]) -> Fraction:
    """The exact cover radius of a set of thresholds on [0, 1]: the distance to the set is
    piecewise linear, largest at 0, 1 or a midpoint of two neighbours."""
    critical = [Fraction(0), Fraction(1), *((a + b) / 2 for a, b in pairwise(points))]
    return max(min(abs(c - g) for g in points) for c in critical)


def _a2_cover_radius(x: NDArray[np.float64], cover: Boxes) -> float:
    every = empirical_threshold_cover(x, 0.0)  # all dichotomies: the whole class on X
    return max(
        min(float(np.mean(every.predict(i, x) != cover.predict(j, x))) for j in range(cover.size))
        for i in range(every.size)
    )


@Obligation(
    id="cover-learners.cover.grids",
    source=(
        f"{CHAUDHURI_HSU}:L164-168 (covers, strict packings); {CHAUDHURI_HSU}:L842-857 "
        "(Fig. 1 step 2)"
    ),
    claim=(
        "A1's public threshold grid is a strict 1/(2J)-packing and 1/(2J)-cover; the "
        "interval grid a 1/J-cover; greedy maximal packings are covers; A2's cover is an "
        "ε/4-cover of ρ_X"
    ),
    method=Method.EXACT,
    predicates=(is_cover, is_packing, greedy_packing),
    impls=(threshold_grid, interval_grid, Boxes, empirical_threshold_cover, grid_size, kappa_hat),
    tests=("tests/test_cover_learners.py::test_covers",),
    bug_controls=(
        BugControl(
            threshold_grid,
            "w = (2 * np.arange(1, size + 1) - 1) / (2 * size)",
            "w = np.arange(1, size + 1) / size",
            "the threshold grid at j/J (cover radius 1/J)",
        ),
    ),
)
def cover_grids(config: VerifyConfig) -> CheckOutcome:
    """The covers of Fig. 1 step 2 and Fig. 3 step 1, in exact rationals: the threshold grid
    G_J is a strict 1/(2J)-packing and its cover radius is exactly 1/(2J); the interval grid
    I_J is a 1/J-cover of every interval with ends on the 1/(4J) lattice and a strict
    1/(2J)-packing; a greedy maximal packing is a cover; A2's cover is an (ε/4)-cover of
    (thresholds, ρ_X) on samples with ties; ``grid_size`` is the least power of two with cover
    radius ≤ ε/(4κ̂) and ``kappa_hat`` solves Fig. 1's sample-size equation. Controls: a
    threshold grid shifted half a step (points j/J: radius 1/J); A2's cover thinned with buckets
    two points wider (k + 2); a grid of spacing exactly r taken for a strict r-packing (L166)."""
    problems = []
    radii = []
    for size in (1, 2, 8, 64):
        g = [Fraction(v) for v in threshold_grid(size).lower.tolist()]
        r = Fraction(1, 2 * size)
        radius = _threshold_cover_radius(g)
        radii.append((r, radius))
        if not (sc.is_packing(g, _threshold_distance, r) and radius <= r):
            problems.append(f"thresholds J={size}")
    shifted = [Fraction(j, 8) for j in range(1, 9)]
    shifted_caught = _threshold_cover_radius(shifted) > Fraction(1, 16)
    for size in (1, 2, 4):
        grid = _intervals(interval_grid(size))
        lattice = [Fraction(k, 4 * size) for k in range(4 * size + 1)]
        space: list[tuple[Fraction, Fraction] | None] = [None]
        space += [(a, b) for a in lattice for b in lattice if a <= b]
        if not (
            sc.is_cover(space, grid, _interval_distance, Fraction(1, size))
            and sc.is_packing(grid, _interval_distance, Fraction(1, 2 * size))
        ):
            problems.append(f"intervals J={size}")
    points = [Fraction(k, 97) for k in range(98)]
    greedy = sc.greedy_packing(points, _threshold_distance, Fraction(1, 10))
    if not (
        sc.is_packing(greedy, _threshold_distance, Fraction(1, 10))
        and sc.is_cover(points, greedy, _threshold_distance, Fraction(1, 10))
    ):
        problems.append("greedy")
    rng = np.random.default_rng(SEED + 2)
    coarse_caught = 0
    a2_radii = []
    for t in range(10):
        x = np.round(rng.random(int(rng.integers(5, 60))) * 8) / 8  # ties
        eps = float(rng.choice([0.1, 0.3, 0.8]))
        radius_a2 = _a2_cover_radius(x, empirical_threshold_cover(x, eps / 4))
        a2_radii.append(radius_a2 / (eps / 4))
        if radius_a2 > eps / 4:
            problems.append(f"A2 cover t={t}")
        coarse = empirical_threshold_cover(x, min(1.0, eps / 4 + 2 / x.size))  # k + 2
        coarse_caught += _a2_cover_radius(x, coarse) > eps / 4
    for kappa in (1.0, 3.7, 64.0):
        for eps in (0.05, 0.2, 1.0):
            for cls, per, top in (("threshold", 2, 2**22), ("interval", 1, 2**11)):
                try:
                    size = grid_size(kappa, eps, cls)
                except ValueError:  # refused: right when the least J is beyond the limit
                    if Fraction(4 // per) * Fraction(kappa) / Fraction(eps) <= top:
                        problems.append(f"grid_size({kappa}, {eps}, {cls}) refused")
                    continue
                radius = Fraction(1, per * size)  # the grid's cover radius
                if not (radius <= Fraction(eps) / (4 * Fraction(kappa)) < 2 * radius or size == 1):
                    problems.append(f"grid_size({kappa}, {eps}, {cls}) = {size}")
    m, a, e, d = 20_000, 1.0, 0.2, 0.05
    k = kappa_hat(m, a, e, d, 1, kappa_max=1e9)
    equation = 56 * (1 / (a * e) + 1 / e**2) * (math.log(k / e) + math.log(1 / d))
    if not math.isclose(equation, m, rel_tol=1e-9):
        problems.append(f"kappa_hat: the sample-size equation gives {equation}, not {m}")
    spacing = [Fraction(k, 10) for k in range(11)]
    strict = not sc.is_packing(spacing, _threshold_distance, Fraction(1, 10))
    ok = not problems and shifted_caught and coarse_caught > 0 and strict
    return CheckOutcome(
        ok,
        f"problems: {problems or 'none'}; threshold grids' exact radius = 1/(2J) for "
        f"J ∈ {{1, 2, 8, 64}}; A2's cover radius ≤ {max(a2_radii):.3f}·ε/4; controls: grid "
        f"shifted half a step caught: {shifted_caught}; A2 buckets k + 2 caught on "
        f"{coarse_caught}/10 samples; spacing = r not a strict r-packing: {strict}",
        {"a2_radius_over_claim": max(a2_radii)},
        [
            Control("threshold grid at j/J instead of (2j − 1)/(2J)", shifted_caught),
            Control("A2's cover thinned with buckets k + 2", coarse_caught > 0),
            Control("a grid of spacing exactly r taken for a strict r-packing", strict),
        ],
        [
            Slack("cover radius of G_J (claim 1/(2J))", float(r), float(radius))
            for r, radius in radii[-1:]
        ]
        + [Slack("A2 cover radius in units of ε/4", 1.0, max(a2_radii))],
    )


def _finite_law(rng: np.random.Generator, size: int) -> dict[int, Fraction]:
    w = [int(v) for v in rng.integers(1, 20, size=size)]
    return {i: Fraction(v, sum(w)) for i, v in enumerate(w)}


@Obligation(
    id="cover-learners.smoothness.lemma-19",
    source=(
        f"{CHAUDHURI_HSU}:L244-250 (Def 6); {CHAUDHURI_HSU}:L500-510 (Lemma 19); "
        f"{CHAUDHURI_HSU}:L294-300 (Example 1)"
    ),
    claim=(
        "κ* = max D(x)/U(x) is the least smoothness constant on finite domains and ρ_D ≤ "
        "κ ρ_U (Lemma 19); D_z's κ = ½ + 3/(4η)"
    ),
    method=Method.EXACT,
    predicates=(smoothness, is_smooth, distances_dominated),
    tests=("tests/test_cover_learners.py::test_smoothness",),
)
def smoothness_lemma19(config: VerifyConfig) -> CheckOutcome:
    """Def 6 and Lemma 19 on finite domains, exactly: κ* = max D(x)/𝒰(x) makes D κ*-smooth
    and ρ_D ≤ κ* ρ_𝒰 on all thresholds of the domain; control: κ* − 1/1000 (the constant
    understated by 0.1 %) is not a smoothness constant and Lemma 19 fails at it. Example 1
    (L294–300): the discretised D_z (½ uniform on N points + ½ uniform on g of them) has
    κ* = ½ + N/(2g) — ½ + 3/(4η) in the continuum."""
    rng = np.random.default_rng(SEED + 1)
    problems = []
    caught = 0
    trials = 40 if config.thorough else 15
    for t in range(trials):
        n = int(rng.integers(2, 9))
        d, u = _finite_law(rng, n), _finite_law(rng, n)
        kappa = sc.smoothness(d, u)
        assert kappa is not None
        thresholds = [{x: int(x >= w) for x in range(n)} for w in range(n + 1)]
        if not (sc.is_smooth(d, u, kappa) and sc.distances_dominated(d, u, kappa, thresholds)):
            problems.append(f"trial {t}")
        smaller = kappa - Fraction(1, 1000)
        caught += not sc.is_smooth(d, u, smaller) and not sc.distances_dominated(
            d, u, smaller, thresholds
        )
    example = []
    for n, g in ((12, 3), (30, 2), (60, 5)):
        uniform = {x: Fraction(1, n) for x in range(n)}
        dz = {x: Fraction(1, 2 * n) + (Fraction(1, 2 * g) if x < g else 0) for x in range(n)}
        example.append(sc.smoothness(dz, uniform) == Fraction(1, 2) + Fraction(n, 2 * g))
    ok = not problems and caught == trials and all(example)
    return CheckOutcome(
        ok,
        f"{trials} random finite (D, 𝒰): problems {problems or 'none'}; controls caught "
        f"{caught}/{trials}; Example 1 κ* = ½ + N/(2g): {example}",
        {"trials": trials},
        [Control("the smoothness constant understated by 1/1000", caught == trials)],
        [Slack("κ claimed against the least κ* (exact)", 1.0, 1.0)],
    )


@Obligation(
    id="cover-learners.erratum.chaudhuri-hsu-lemma-14",
    source=f"{CHAUDHURI_HSU}:L437-440 (Lemma 14)",
    claim=(
        "a packing of a ball of radius r has ≤ (4r/ε)^d members only for ε ≤ 4r; beyond, "
        "the bound is < 1"
    ),
    method=Method.EXACT,
    predicates=(packing_size_bound,),
    tests=("tests/test_cover_learners.py::test_covers",),
)
def lemma14_erratum(config: VerifyConfig) -> CheckOutcome:
    """Lemma 14 (L437) holds for ε ≤ 4r and is false beyond: on [0, 1] (doubling dimension 1),
    greedy ε-packings of balls of radius r stay within (4r/ε) for ε ≤ 4r; for ε > 4r the bound
    is < 1 while a ball always holds a one-point packing. Controls: the printed, unconditional
    form (caught at ε = 1/2, r = 1/10); the bound understated 2× ((2r/ε)^d) is exceeded."""
    points = [Fraction(k, 200) for k in range(201)]
    problems, understated, tightest = [], False, 0.0
    for r in (Fraction(1, 10), Fraction(1, 4), Fraction(1, 2)):
        ball = [p for p in points if abs(p - Fraction(1, 2)) <= r]
        for eps in (Fraction(1, 50), Fraction(1, 10), r, 2 * r, 4 * r):
            packing = sc.greedy_packing(ball, _threshold_distance, eps)
            bound = sc.packing_size_bound(r, eps, 1)
            tightest = max(tightest, len(packing) / float(bound))
            if len(packing) > bound:
                problems.append(f"r={r}, ε={eps}: {len(packing)}")
            understated |= len(packing) > bound / 2
    r, eps = Fraction(1, 10), Fraction(1, 2)
    beyond = sc.packing_size_bound(r, eps, 1)
    printed_fails = beyond < 1 <= len(sc.greedy_packing([Fraction(1, 2)], _threshold_distance, eps))
    return CheckOutcome(
        not problems and printed_fails and understated,
        f"ε ≤ 4r: problems {problems or 'none'}, largest packing / bound = {tightest:.3f}; "
        f"ε = 1/2 > 4r = 2/5: bound {beyond} < 1 while a one-point packing exists: "
        f"{printed_fails}; bound / 2 exceeded: {understated}",
        {"tightest": tightest},
        [
            Control("Lemma 14 as printed (no ε ≤ 4r)", printed_fails, f"bound {beyond}"),
            Control("the bound understated 2×", understated),
        ],
        [Slack("packing size against (4r/ε)^d", 1.0, tightest)],
    )


# ---------------------------------------------------------------------------------------------
# Examples 2–3: bands and caps of the sphere (Lemmas 20–21)


def band_mass(n: int, gamma: float) -> float:
    """𝒰(W) = P(|u·x| ≤ γ) for x uniform on S^{n−1}: (u·x)² ~ Beta(1/2, (n − 1)/2)."""
    from scipy.special import betainc

    return float(betainc(0.5, (n - 1) / 2, gamma**2))


def _log_outside_mass(n: int, gamma: float) -> float:
    """log 𝒰(S^{n−1} ∖ W), computed without cancellation (the regularised upper tail)."""
    from scipy.special import betaincc

    return math.log(float(betaincc(0.5, (n - 1) / 2, gamma**2)))


def lemma20_kappa(n: int, gamma: float, exponent: float = 0.5) -> float | None:
    """Lemma 20's κ = 1/(1 − 2e^{−nγ²/2}) (None where 1 − 2e^{−nγ²/2} ≤ 0: no κ stated);
    ``exponent`` replaces the ½ (a control)."""
    base = 1 - 2 * math.exp(-n * gamma**2 * exponent)
    return 1 / base if base > 0 else None


def lemma21_log_kappa(n: int, gamma: float) -> float:
    """log of Lemma 21's κ = (2/(1 − γ))^{(n−1)/2}."""
    return (n - 1) / 2 * math.log(2 / (1 - gamma))


@Obligation(
    id="cover-learners.smoothness.examples-2-3",
    source=(
        f"{CHAUDHURI_HSU}:L320-336 (Examples 2-3); {CHAUDHURI_HSU}:L571-587 (Lemma 20); "
        f"{CHAUDHURI_HSU}:L589-605 (Lemma 21)"
    ),
    claim=(
        "the sphere's band (Example 2) and its complement (Example 3) are κ-smooth "
        "w.r.t. the uniform law with κ ≥ κ* = 1/𝒰(W), 1/(1 − 𝒰(W)) as Lemmas 20 and 21 "
        "state"
    ),
    method=Method.PROPERTY,
    no_predicate=(
        f"{STATED_BOUND}: Lemmas 20–21's κ against κ* = 1/𝒰(W) from the Beta law of (u·x)²"
    ),
    tests=("tests/test_cover_learners.py::test_sphere_band_masses",),
)
def examples_2_3(config: VerifyConfig) -> CheckOutcome:
    """Example 2 / Lemma 20 (L320–326, L571–587) and Example 3 / Lemma 21 (L328–336, L589–605):
    D uniform on the band W = {|u·x| ≤ γ} of S^{n−1} has least smoothness constant
    κ* = 1/𝒰(W), and D uniform outside it κ* = 1/(1 − 𝒰(W)) (D(A) = 𝒰(A ∩ W)/𝒰(W) ≤ 𝒰(A)/𝒰(W),
    with equality for A ⊆ W). The lemmas' κ are upper bounds of κ*: checked for n = 2..200 and
    γ on a grid of (0, 1) (𝒰(W) from the Beta law of (u·x)²), and exactly at n = 3 (u·x is
    uniform on [−1, 1]: κ* = 1/γ and 1/(1 − γ)). Controls: Lemma 20 with e^{−nγ²} (the exponent
    doubled) and Lemma 21's κ halved fall below κ* — both bounds come within a factor 2."""
    ns = range(2, 201, 1 if config.thorough else 3)
    gammas = [k / 200 for k in range(1, 200)]
    problems: list[str] = []
    ratio20, ratio21 = math.inf, math.inf
    control20 = control21 = False
    for n in ns:
        for g in gammas:
            kappa2 = 1 / band_mass(n, g)
            log_kappa3 = -_log_outside_mass(n, g)
            claim20 = lemma20_kappa(n, g)
            if claim20 is not None:
                ratio20 = min(ratio20, claim20 / kappa2)
                if claim20 < kappa2 * (1 - 1e-9):
                    problems.append(f"Lemma 20 n={n} γ={g}")
            doubled = lemma20_kappa(n, g, 1.0)
            control20 |= doubled is not None and doubled < kappa2 * (1 - 1e-9)
            gap21 = lemma21_log_kappa(n, g) - log_kappa3
            ratio21 = min(ratio21, math.exp(gap21))
            if gap21 < -1e-9:
                problems.append(f"Lemma 21 n={n} γ={g}")
            control21 |= gap21 - math.log(2) < -1e-9
    exact = []
    for tenth in (Fraction(k, 10) for k in range(1, 10)):
        # n = 3: 𝒰(W) = γ exactly; Lemma 20's κ where defined, Lemma 21's 2/(1 − γ)
        at_three = lemma20_kappa(3, float(tenth))
        exact.append(
            (at_three is None or at_three >= float(1 / tenth))
            and 2 / (1 - tenth) >= 1 / (1 - tenth)
        )
        exact.append(abs(band_mass(3, float(tenth)) - float(tenth)) < 1e-12)
    ok = not problems and all(exact) and control20 and control21
    return CheckOutcome(
        ok,
        f"{len(ns)}×{len(gammas)} (n, γ): problems {problems[:3] or 'none'}; tightest "
        f"claimed/κ*: Lemma 20 {ratio20:.4f}, Lemma 21 {ratio21:.4f}; n = 3 exact: "
        f"{all(exact)}; controls: Lemma 20 with e^(−nγ²) below κ*: {control20}; Lemma 21 halved "
        f"below κ*: {control21}",
        {"ratio20": ratio20, "ratio21": ratio21},
        [
            Control("Lemma 20's concentration exponent doubled (e^{−nγ²})", control20),
            Control("Lemma 21's κ understated 2×", control21),
        ],
        [Slack("Lemma 20 κ / κ*", ratio20, 1.0), Slack("Lemma 21 κ / κ*", ratio21, 1.0)],
    )


# ---------------------------------------------------------------------------------------------
# Lemma 15: a large packing from the doubling dimension


def _metric_instances(
    rng: np.random.Generator, count: int
) -> list[tuple[list[Any], Any, Fraction]]:
    """Finite metric spaces with a radius r ∈ (0, D/2): points of a 1/8 lattice on the line,
    of a 4×4 grid under L1 and L∞, and hypotheses (thresholds) under ρ_𝒰."""
    out: list[tuple[list[Any], Any, Fraction]] = []

    def l1(a: tuple[int, int], b: tuple[int, int]) -> Fraction:
        return Fraction(abs(a[0] - b[0]) + abs(a[1] - b[1]), 4)

    def linf(a: tuple[int, int], b: tuple[int, int]) -> Fraction:
        return Fraction(max(abs(a[0] - b[0]), abs(a[1] - b[1])), 4)

    grid = [(i, j) for i in range(4) for j in range(4)]
    for t in range(count):
        kind = t % 3
        if kind == 0:
            pts: list[Any] = sorted(
                {Fraction(int(v), 8) for v in rng.integers(0, 9, size=int(rng.integers(3, 9)))}
            )
            dist: Any = _threshold_distance
        else:
            idx = rng.choice(len(grid), size=int(rng.integers(4, 9)), replace=False)
            pts = [grid[int(i)] for i in sorted(idx)]
            dist = l1 if kind == 1 else linf
        diameter = max(dist(a, b) for a in pts for b in pts)
        if diameter == 0:
            continue
        steps = sorted({dist(a, b) for a in pts for b in pts if 0 < dist(a, b) < diameter / 2})
        for r in [*steps, diameter / 2 - Fraction(1, 64)]:
            if 0 < r < diameter / 2:
                out.append((pts, dist, r))
    return out


@Obligation(
    id="cover-learners.erratum.chaudhuri-hsu-lemma-15",
    source=f"{CHAUDHURI_HSU}:L441-447 (Lemma 15)",
    claim=(
        "Lemma 15 holds for ddim_r ≥ d (its proof's direction), exactly on finite metric "
        "spaces; as printed (ddim_r ≤ d) it fails on Z = {0, 1}"
    ),
    method=Method.EXACT,
    predicates=(doubling_count, lemma15_conclusion),
    tests=("tests/test_cover_learners.py::test_doubling_dimension",),
)
def lemma15(config: VerifyConfig) -> CheckOutcome:
    """Lemma 15 (L441–447) with the direction its proof shows — if ddim_r(Z, ρ) ≥ d then some
    B(z, r) holds an (r/2)-packing of ≥ 2^d points — exactly on finite metric spaces (a line
    lattice, subsets of a 4×4 grid under L1 and L∞) at every radius r < D/2 they realise:
    with N_r = 2^{ddim_r} (``doubling_count``), the largest (r/2)-packing of a ball is ≥ N_r.
    Controls: the bound raised by one (≥ N_r + 1) fails where the lemma is attained; the
    printed direction (ddim_r ≤ d) fails on Z = {0, 1}, r = 1/4, d = 1."""
    rng = np.random.default_rng(SEED + 11)
    instances = _metric_instances(rng, 18 if config.thorough else 9)
    problems, attained = [], 0
    for pts, dist, r in instances:
        n_r = sc.doubling_count(pts, dist, r)
        half = r / 2
        best = max(sc.max_packing_size(sc.ball(pts, dist, z, r), dist, half) for z in pts)
        if not sc.lemma15_conclusion(pts, dist, r, math.log2(n_r)):
            problems.append(f"{pts} r={r}")
        attained += best == n_r
    two = [Fraction(0), Fraction(1)]
    printed_fails = sc.doubling_count(two, _threshold_distance, Fraction(1, 4)) == 1 and not (
        sc.lemma15_conclusion(two, _threshold_distance, Fraction(1, 4), 1)
    )
    ok = not problems and attained > 0 and printed_fails
    return CheckOutcome(
        ok,
        f"{len(instances)} (space, r): problems {problems[:2] or 'none'}; the largest packing "
        f"equals N_r on {attained}; printed direction fails on Z = {{0, 1}}: {printed_fails}",
        {"instances": len(instances), "attained": attained},
        [
            Control("the packing bound raised by one (2^d + 1)", attained > 0),
            Control("Lemma 15 as printed (ddim_r ≤ d)", printed_fails),
        ],
        [Slack("largest packing against 2^{ddim_r} where attained", 1.0, 1.0)],
    )


# ---------------------------------------------------------------------------------------------
# Lemmas 16–17: VC uniform convergence (a demonstration)


def _lemma16_needed(samples: NDArray[np.float64]) -> NDArray[np.float64]:
    """For each sample (a row, sorted), the least ε for which both inequalities of Lemma 16 hold
    for every threshold f_w = 1[x ≥ w] under x ~ Unif[0, 1] (E f = 1 − w): the deviations are
    extreme at w = x_(k) (E_Z f = (m − k + 1)/m) and just above it ((m − k)/m), and each side
    holds iff ε ≥ deviation² / min(the two coefficients)."""
    m = samples.shape[1]
    k = np.arange(1, m + 1)
    ef = 1 - samples
    at = (m - k + 1) / m  # E_Z f at w = x_(k)
    above = (m - k) / m  # E_Z f just above x_(k)
    lower = np.maximum(at - ef, 0) ** 2 / np.minimum(at, ef + 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        upper = np.where(
            ef - above > 0, (ef - above) ** 2 / np.maximum(np.minimum(ef, above + 1), 1e-300), 0
        )
    return np.asarray(np.maximum(lower.max(axis=1), upper.max(axis=1)), dtype=np.float64)


def _lemma17_needed(samples: NDArray[np.float64]) -> NDArray[np.float64]:
    """The same for Lemma 17 on pairs of thresholds (they disagree on [a, b), ρ_D = b − a):
    both inequalities over intervals whose ends sit at sample points (closed or just open)."""
    m = samples.shape[1]
    out = np.zeros(samples.shape[0])
    i, j = np.triu_indices(m, k=1)
    for row, xs in enumerate(samples):
        length = xs[j] - xs[i]
        inside = (j - i + 1) / m  # [x_i, x_j] holds j − i + 1 points
        strict = np.maximum(j - i - 1, 0) / m  # (x_i, x_j) holds j − i − 1
        first = np.maximum(inside - length, 0) ** 2 / np.minimum(inside, length + 1)
        second = np.where(length > strict, (length - strict) ** 2 / np.maximum(length, 1e-300), 0)
        out[row] = max(float(first.max()), float(second.max()))
    return out


@Obligation(
    id="cover-learners.metric.vc-lemmas-16-17",
    source=f"{CHAUDHURI_HSU}:L451-469 (Lemmas 16-17)",
    claim=(
        "VC uniform convergence of thresholds and of their disagreement regions: the "
        "relative deviation bounds hold with ε_m as printed (failure rate ≤ δ)"
    ),
    method=Method.STATISTICAL,
    no_predicate=f"{STATED_BOUND}: the least ε each sample needs, computed exactly, against ε_m",
    tests=("tests/test_cover_learners.py::test_doubling_dimension",),
    kind=Kind.DEMONSTRATION,
    reason=(
        "Vapnik's constants are loose by design (ε_m ≈ 8× the (1 − δ)-quantile "
        "measured); no dpspec code relies on these lemmas (the certificates use "
        "Hoeffding and DKW)"
    ),
)
def vc_lemmas(config: VerifyConfig) -> CheckOutcome:
    """Lemmas 16 (L451–459) and 17 (L461–469), a demonstration on thresholds of [0, 1] under the
    uniform law (V = 1, s_F(n) = n + 1): m = 100, δ = 0.1, ε_m as printed (Lemma 16:
    (4/m)(log s_F(2m) + log(4/δ)); Lemma 17: (8V log(2em/V) + 4 log(4/δ))/m, read with m the
    sample size — L463's "m = V/2" is garbled). Over independent samples (fixed seed) the
    least ε each sample needs is computed exactly; the lemmas hold when its (1 − δ)-quantile is
    ≤ ε_m. They hold with ε_m ≈ 10× the quantile: Vapnik's constants are loose by design, so
    the check shows the statements, not a bound tight enough to see a modest error (no code of
    dpspec relies on them: the certificates use Hoeffding and DKW). Control: the inequalities
    with ε_m / 40 fail."""
    rng = np.random.default_rng(SEED + 12)
    m, delta = 100, 0.1
    reps16, reps17 = (4000, 800) if config.thorough else (1500, 250)
    eps16 = 4 / m * (math.log(2 * m + 1) + math.log(4 / delta))
    eps17 = (8 * math.log(2 * math.e * m) + 4 * math.log(4 / delta)) / m
    need16 = _lemma16_needed(np.sort(rng.random((reps16, m)), axis=1))
    need17 = _lemma17_needed(np.sort(rng.random((reps17, m)), axis=1))
    q16 = float(np.quantile(need16, 1 - delta))
    q17 = float(np.quantile(need17, 1 - delta))
    fail16 = float(np.mean(need16 > eps16))
    fail17 = float(np.mean(need17 > eps17))
    control = (
        float(np.mean(need16 > eps16 / 40)) > delta and float(np.mean(need17 > eps17 / 40)) > delta
    )
    ok = fail16 <= delta and fail17 <= delta and control
    return CheckOutcome(
        ok,
        f"Lemma 16: ε_m = {eps16:.3f}, (1 − δ)-quantile of the ε needed {q16:.4f}, failure "
        f"rate {fail16:.4f} ≤ δ = {delta}; Lemma 17: ε_m = {eps17:.3f}, quantile {q17:.4f}, "
        f"failure rate {fail17:.4f}; control ε_m / 40 fails: {control}",
        {"q16": q16, "q17": q17, "eps16": eps16, "eps17": eps17},
        [Control("ε_m understated 40×", control)],
        [Slack("Lemma 16 ε_m", eps16, q16), Slack("Lemma 17 ε_m", eps17, q17)],
    )


# ---------------------------------------------------------------------------------------------
# Lemma 25: packings of linear separators


def _cap_packing(n: int, r: float, rng: np.random.Generator, tries: int) -> list[NDArray[Any]]:
    """A greedy strict (r/2)-packing of B_D(h_u, r) under ρ_D(h_v, h_w) = ∠(v, w)/π, from points
    drawn in the cap of angular radius πr around u = e_1."""
    theta = math.pi * r
    kept: list[NDArray[Any]] = []
    for _ in range(tries):
        w = rng.standard_normal(n)
        w[0] = 0.0
        w /= np.linalg.norm(w)
        phi = theta * rng.random() ** (1 / max(n - 1, 1))
        v = math.cos(phi) * np.eye(n)[0] + math.sin(phi) * w
        if all(math.acos(min(1.0, float(v @ k))) > theta / 2 * (1 + 1e-9) for k in kept):
            kept.append(v)
    return kept


@Obligation(
    id="cover-learners.linear-separators.lemma-25",
    source=f"{CHAUDHURI_HSU}:L761-790 (Lemma 25); {CHAUDHURI_HSU}:L381-383 (Section 5.2)",
    claim=(
        "for small r, B_D(h_u, r) of linear separators on S^{n-1} holds an (r/2)-packing "
        "of ≥ 2^{n-2} members (exhibited at r = 1/10, n = 3..6)"
    ),
    method=Method.PROPERTY,
    no_predicate=f"{STATED_BOUND}: a greedy packing's size and angles against 2^(n−2), πr/2 and πr",
    tests=("tests/test_cover_learners.py::test_doubling_dimension",),
    kind=Kind.DEMONSTRATION,
    reason=(
        "an existence claim shown by a packing found greedily, 2-5x larger than "
        "2^{n-2}: no implementation of dpspec is involved"
    ),
)
def lemma25(config: VerifyConfig) -> CheckOutcome:
    """Lemma 25 (L765–790), a demonstration for small r: for linear separators through the
    origin under the uniform law on S^{n−1} (ρ_D = angle/π), B_D(h_u, r) holds an
    (r/2)-packing of ≥ 2^{n−2} members — exhibited at r = 1/10 for n = 3..6 by a greedy packing
    whose pairwise angles (> πr/2) and angles to u (≤ πr) are verified.
    The packings found are far larger than 2^{n−2}, so nothing here would see a modest error.
    For r ≥ 2 the statement is false (``cover-learners.erratum.chaudhuri-hsu-lemma-25``). Control: a
    set with two members at angle πr/2 is not taken for a strict packing."""
    rng = np.random.default_rng(SEED + 13)
    r = 0.1
    rows, problems = [], []
    for n in range(3, 7):
        packing = _cap_packing(n, r, rng, 400 if config.thorough else 200)
        inside = all(math.acos(min(1.0, float(v[0]))) <= math.pi * r + 1e-12 for v in packing)
        apart = all(
            math.acos(min(1.0, float(a @ b))) > math.pi * r / 2
            for i, a in enumerate(packing)
            for b in packing[i + 1 :]
        )
        rows.append((n, len(packing), 2 ** (n - 2)))
        if not (inside and apart and len(packing) >= 2 ** (n - 2)):
            problems.append(f"n={n}")
    angle = math.pi * r / 2
    close = [np.eye(3)[0], math.cos(angle) * np.eye(3)[0] + math.sin(angle) * np.eye(3)[1]]
    control = not (math.acos(min(1.0, float(close[0] @ close[1]))) > angle * (1 + 1e-9))
    return CheckOutcome(
        not problems and control,
        "r = 1/10: "
        + ", ".join(f"n={n}: packing {k} ≥ 2^(n−2) = {b}" for n, k, b in rows)
        + f"; problems {problems or 'none'}; control (two members at angle πr/2) refused: "
        + str(control),
        {"rows": rows},
        [Control("two separators exactly πr/2 apart taken for a strict packing", control)],
        [Slack("packing found against 2^{n−2} (n = 6)", float(rows[-1][1]), float(rows[-1][2]))],
    )
