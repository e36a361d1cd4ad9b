"""Checks of seed 004 (Chaudhuri–Hsu): privacy of A1/A1r/A2 through the real ``fit``, covers and
smoothness, the threshold lower bound's packing inequality, utility against the certificates,
Lemma 11's exact instance, and the errata.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from itertools import combinations, pairwise
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from dpspec.cover_learners import (
    Boxes,
    LabelPrivateCoverClassifier,
    PrivateCoverClassifier,
    empirical_threshold_cover,
    grid_size,
    interval_grid,
    kappa_hat,
    sample_threshold_family,
    threshold_grid,
)
from dpspec.cover_learners.learners import _CoverExponentialClassifier
from dpspec.mechanisms.exponential import ExponentialMechanism
from dpspec.proofs.engine.conformance import (
    conformance,
    conformance_rng,
    draws,
    outcome,
    power_against,
)
from dpspec.proofs.engine.exact import RTOL, Dataset, ExactReport, verify_pairs
from dpspec.proofs.engine.registry import CheckOutcome, VerifyConfig
from dpspec.proofs.engine.stats import ALPHA
from dpspec.spec import cover_learners as sc
from dpspec.spec.neighbours import Relation, datasets, is_neighbour, neighbouring_pairs
from dpspec.spec.privacy import Dist, max_likelihood_ratio, satisfies_group_privacy

SEED = 4004
#: The record domain of the exact privacy checks: x ∈ {0.1, 0.45, 0.8}, y ∈ {0, 1}.
DOMAIN = tuple((x, y) for x in (0.1, 0.45, 0.8) for y in (0, 1))


class PrintedWeightsCoverClassifier(PrivateCoverClassifier):
    """Negative control: A1 with weights exp(−α·mistakes) (the ½ dropped), still declared α."""

    def selection_mechanism(self, candidates: Boxes) -> ExponentialMechanism:
        mech = super().selection_mechanism(candidates)
        return ExponentialMechanism(mech.scores, 1, epsilon=self.epsilon, half=False)


class ErmThresholdClassifier(PrivateCoverClassifier):
    """Negative control: empirical risk minimisation over A1's grid (first minimiser), a
    deterministic — hence not private — proper learner."""

    def release_law(self, X: Any, y: Any) -> dict[int, float]:
        x, labels, _ = self._data(X, y)
        mistakes = self.candidates(x, x.size).mistakes(x, labels)
        return {int(np.argmin(mistakes)): 1.0}


def _arrays(data: Dataset) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    recs = cast(tuple[tuple[float, int], ...], data)
    X = np.array([r[0] for r in recs], dtype=np.float64).reshape(-1, 1)
    return X, np.array([r[1] for r in recs], dtype=np.int64)


def learner_law(learner: _CoverExponentialClassifier) -> Callable[[Dataset], Dist]:
    """The learner's ``release_law`` on a dataset of (x, y) records, keyed by the released box
    (so laws over different candidate sets compare by hypothesis, not by index)."""

    def law(data: Dataset) -> Dist:
        X, y = _arrays(data)
        x = X[:, 0]
        cands = learner.candidates(x, x.size)
        out: dict[Any, float] = {}
        for k, p in learner.release_law(X, y).items():
            key = (float(cands.lower[k]), float(cands.upper[k]))
            out[key] = out.get(key, 0.0) + p
        return out

    return law


def verify_learner(
    learner: _CoverExponentialClassifier, relation: Relation, max_size: int, name: str
) -> ExactReport:
    """α-DP (the caller's ``epsilon``) of ``learner`` on every ``relation`` pair of datasets of
    size 1..max_size over :data:`DOMAIN`."""
    return verify_pairs(
        name,
        learner_law(learner),
        neighbouring_pairs(DOMAIN, max_size, relation, min_size=1),
        math.exp(float(learner.epsilon)),
        relation=relation,
        rtol=RTOL,
    )


def _fit_conformance(make: Callable[[float, int], _CoverExponentialClassifier], tag: int) -> Any:
    """``fit`` of ``make(α, seed)`` on a fixed 8-example dataset: the chosen index follows
    ``release_law`` (chi-square, α = 1e-6); control: ``fit`` at 2α."""
    rng = conformance_rng(tag)
    X = rng.random((8, 1))
    y = (X[:, 0] > 0.5).astype(np.int64) ^ (rng.random(8) < 0.3)
    reps = draws(VerifyConfig(), 600)
    law = make(1.0, 0).release_law(X, y)
    doubled = make(2.0, 0).release_law(X, y)

    def at(alpha: float, offset: int) -> Callable[[int], list[int]]:
        return lambda n: [make(alpha, offset + r).fit(X, y).choice_ for r in range(n)]

    report = conformance(
        f"{type(make(1.0, 0)).__name__}.fit: chosen candidate",
        law,
        at(1.0, 0),
        at(2.0, 10**6),
        doubled,
        reps,
    )
    report.power = power_against(law, doubled, reps)
    return report


def a1_privacy(config: VerifyConfig) -> CheckOutcome:
    """Thm 7 (α-privacy of A1, Def 3): every substitution pair of datasets of size ≤ 3 over
    :data:`DOMAIN`, thresholds (|G| = 32; size ≤ 2 for intervals, |G| = 137), α = 1 as passed; the
    law is ``release_law`` and ``fit`` conforms to it. Controls: the weights without the ½;
    A2's data-dependent cover used as fully private."""
    size = 4 if config.thorough else 3
    reports = [
        verify_learner(
            PrivateCoverClassifier("threshold", 1.0, accuracy=0.1),
            Relation.SUBSTITUTE,
            size,
            "A1 thresholds",
        ),
        verify_learner(
            PrivateCoverClassifier("interval", 1.0, accuracy=0.25),
            Relation.SUBSTITUTE,
            2,
            "A1 intervals",
        ),
    ]
    half = verify_learner(
        PrintedWeightsCoverClassifier("threshold", 1.0, accuracy=0.1),
        Relation.SUBSTITUTE,
        2,
        "control: no 1/2",
    )
    dependent = verify_learner(
        LabelPrivateCoverClassifier(1.0, accuracy=0.1),
        Relation.SUBSTITUTE,
        2,
        "control: A2's data-dependent cover as fully private",
    )
    fit = _fit_conformance(
        lambda a, s: PrivateCoverClassifier("threshold", a, accuracy=0.5, random_state=s), 400
    )
    return _exact_outcome(reports, [half, dependent], [fit])


def a1r_privacy(config: VerifyConfig) -> CheckOutcome:
    """Thm 7 for A1r (Fig. 2, same mechanism, the realizable κ̂): substitution pairs as for
    A1 (κ̂ and so G depend on the public m only); control: the weights without the ½."""
    size = 4 if config.thorough else 3
    good = verify_learner(
        PrivateCoverClassifier("threshold", 1.0, accuracy=0.1, realizable=True),
        Relation.SUBSTITUTE,
        size,
        "A1r thresholds",
    )
    bad = verify_learner(
        PrintedWeightsCoverClassifier("threshold", 1.0, accuracy=0.1, realizable=True),
        Relation.SUBSTITUTE,
        2,
        "control: no 1/2",
    )
    fit = _fit_conformance(
        lambda a, s: PrivateCoverClassifier(
            "threshold", a, accuracy=0.5, realizable=True, random_state=s
        ),
        401,
    )
    return _exact_outcome([good], [bad], [fit])


class PrintedWeightsLabelClassifier(LabelPrivateCoverClassifier):
    """Negative control: A2 with the ½ dropped."""

    def selection_mechanism(self, candidates: Boxes) -> ExponentialMechanism:
        mech = super().selection_mechanism(candidates)
        return ExponentialMechanism(mech.scores, 1, epsilon=self.epsilon, half=False)


def a2_label_privacy(config: VerifyConfig) -> CheckOutcome:
    """Thm 26: A2 is α-label private (Def 2): every label-change pair of datasets of size ≤ 3
    over :data:`DOMAIN` (α = 1); ``fit`` conforms to ``release_law``; control: no ½."""
    size = 4 if config.thorough else 3
    good = verify_learner(LabelPrivateCoverClassifier(1.0, 0.1), Relation.LABEL, size, "A2")
    bad = verify_learner(
        PrintedWeightsLabelClassifier(1.0, 0.1), Relation.LABEL, 2, "control: no 1/2"
    )
    fit = _fit_conformance(lambda a, s: LabelPrivateCoverClassifier(a, 0.1, random_state=s), 402)
    return _exact_outcome([good], [bad], [fit])


def _exact_outcome(
    goods: list[ExactReport], bads: list[ExactReport], fits: list[Any]
) -> CheckOutcome:
    conf = outcome(fits)
    ok = all(r.holds for r in goods) and not any(r.holds for r in bads) and conf.passed
    return CheckOutcome(
        ok,
        "; ".join(r.summary() for r in goods)
        + "; controls: "
        + "; ".join(r.summary() for r in bads)
        + f"; {conf.detail}",
        {
            "pairs": sum(r.pairs for r in goods),
            "worst_ratios": [float(r.worst_ratio) for r in goods],
            "controls_caught": [not r.holds for r in bads],
            "conformance": conf.numbers,
        },
    )


def a2_not_private(config: VerifyConfig) -> CheckOutcome:
    """A2 is **not** α-private under Def 3 (its cover is built from the x's): on substitution
    pairs the exact law violates α-DP (the released threshold can be the replaced x itself:
    ratio ∞), and the statistical auditor, run on ``fit`` as a mechanism on the worst pair,
    flags the α = 1 claim (ε_LCB > 1 at 95 % confidence). Control: A1 on the same pair is not
    flagged."""
    learner = LabelPrivateCoverClassifier(1.0, 0.1)
    exact = verify_learner(learner, Relation.SUBSTITUTE, 2, "A2 under substitution")
    records = (((0.1, 0), (0.8, 1)), ((0.45, 0), (0.8, 1)))
    pair = (_arrays(records[0]), _arrays(records[1]))
    from dpspec.audit import audit
    from dpspec.audit.learners import LearnerMechanism

    def threshold(model: _CoverExponentialClassifier) -> float:
        return float(model.lower_)

    def a2(seed: int) -> LabelPrivateCoverClassifier:
        return LabelPrivateCoverClassifier(1.0, 0.1, random_state=seed)

    def a1(seed: int) -> PrivateCoverClassifier:
        return PrivateCoverClassifier("threshold", 1.0, 0.1, random_state=seed)

    samples = 2000 if config.thorough else 300
    flagged = audit(
        LearnerMechanism(a2, threshold), pair, 1.0, samples=samples, seed=SEED, selection=150
    )
    control = audit(
        LearnerMechanism(a1, threshold), pair, 1.0, samples=samples, seed=SEED, selection=150
    )
    ok = not exact.holds and flagged.violation and not control.violation
    return CheckOutcome(
        ok,
        f"{exact.summary()}; auditor on A2.fit: ε_LCB = {flagged.epsilon_lower:.3g} "
        f"(flagged: {flagged.violation}); control A1.fit: ε_LCB = "
        f"{control.epsilon_lower:.3g} (flagged: {control.violation})",
        {
            "exact_worst_ratio": float(exact.worst_ratio),
            "audit_epsilon_lower": flagged.epsilon_lower,
            "control_epsilon_lower": control.epsilon_lower,
        },
    )


def privacy_report(config: VerifyConfig) -> CheckOutcome:
    """``privacy_`` states the theorems' levels for the caller's α: (α, 0) under substitution
    for A1/A1r (Thm 7), (α, 0) under label change for A2 (Thm 26); the exact sampler flag is
    set. Control: a report read off A2 as if fully private is told apart."""
    rng = np.random.default_rng(SEED)
    X = rng.random((50, 1))
    y = (X[:, 0] > 0.3).astype(np.int64)
    problems = []
    for alpha in (0.25, 1.0, 3.0):
        for learner, relation in (
            (PrivateCoverClassifier("threshold", alpha, random_state=1), Relation.SUBSTITUTE),
            (PrivateCoverClassifier("interval", alpha, random_state=1), Relation.SUBSTITUTE),
            (
                PrivateCoverClassifier("threshold", alpha, realizable=True, random_state=1),
                Relation.SUBSTITUTE,
            ),
            (LabelPrivateCoverClassifier(alpha, random_state=1), Relation.LABEL),
        ):
            p = learner.fit(X, y).privacy_
            if not (
                math.isclose(p.epsilon, alpha, rel_tol=1e-12)
                and p.delta == 0
                and p.relation is relation
                and p.exact_sampler
            ):
                problems.append(f"{type(learner).__name__}(α={alpha}): {p}")
    a2 = LabelPrivateCoverClassifier(1.0, random_state=1).fit(X, y).privacy_
    control_caught = a2.relation is not Relation.SUBSTITUTE
    return CheckOutcome(
        not problems and control_caught,
        f"problems: {problems or 'none'}; A2's report is not a substitution guarantee: "
        f"{control_caught}",
    )


def label_privacy_implied(config: VerifyConfig) -> CheckOutcome:
    """α-privacy ⇒ α-label privacy (L149): every label-change pair (Def 2) of datasets of size
    ≤ 4 over :data:`DOMAIN` is a substitution pair (Def 3), so a learner α-private under
    substitution is α-label private — checked on A1 under LABEL too. Control: add/remove pairs
    are not substitution pairs (the containment test can fail)."""
    label = list(neighbouring_pairs(DOMAIN, 4, Relation.LABEL, min_size=1))
    contained = all(is_neighbour(a, b, Relation.SUBSTITUTE) for a, b in label)
    add_remove = list(neighbouring_pairs(DOMAIN, 3, Relation.ADD_REMOVE, min_size=1))
    control = not all(is_neighbour(a, b, Relation.SUBSTITUTE) for a, b in add_remove)
    a1 = verify_learner(
        PrivateCoverClassifier("threshold", 1.0, 0.1), Relation.LABEL, 3, "A1 under LABEL"
    )
    ok = contained and control and a1.holds
    return CheckOutcome(
        ok,
        f"{len(label)} label pairs, all substitution pairs: {contained}; {a1.summary()}; "
        f"control (add/remove pairs not all substitution pairs): {control}",
    )


def _finite_law(rng: np.random.Generator, size: int) -> dict[int, Fraction]:
    w = [int(v) for v in rng.integers(1, 20, size=size)]
    return {i: Fraction(v, sum(w)) for i, v in enumerate(w)}


def smoothness_lemma19(config: VerifyConfig) -> CheckOutcome:
    """Def 6 and Lemma 19 on finite domains, exactly: κ* = max D(x)/𝒰(x) makes D κ*-smooth
    and ρ_D ≤ κ* ρ_𝒰 on all thresholds of the domain; κ* − 1/1000 is not a smoothness constant
    and Lemma 19 fails at it (control). Example 1 (L294–300): the discretised D_z (½ uniform on
    N points + ½ uniform on g of them) has κ* = ½ + N/(2g) — ½ + 3/(4η) in the continuum."""
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


def cover_grids(config: VerifyConfig) -> CheckOutcome:
    """The public covers of A1 (Fig. 1 step 2) in exact rationals: the threshold grid G_J is a
    strict 1/(2J)-packing and a 1/(2J)-cover of [0, 1] (the distance to G_J is piecewise linear,
    maximal at 0, 1 and the midpoints: all checked); the interval grid I_J is a 1/J-cover of
    every interval with ends on the 1/(4J) lattice and a strict 1/(2J)-packing; a greedy maximal
    packing is a cover; A2's empirical cover is an (ε/4)-cover of (thresholds, ρ_X) on samples
    with ties; ``grid_size`` picks the least power of two with cover radius ≤ ε₀ = ε/(4κ̂) and
    ``kappa_hat`` solves Fig. 1's sample-size equation. Control (L166, strict packing): the grid
    with spacing exactly r is not an r-packing."""
    problems = []
    for size in (1, 2, 8, 64):
        g = [Fraction(v) for v in threshold_grid(size).lower.tolist()]
        r = Fraction(1, 2 * size)
        critical = [
            Fraction(0),
            Fraction(1),
            *((a + b) / 2 for a, b in pairwise(g)),
        ]
        if not (
            sc.is_packing(g, _threshold_distance, r)
            and sc.is_cover(critical, g, _threshold_distance, r)
        ):
            problems.append(f"thresholds J={size}")
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
    for t in range(10):
        x = np.round(rng.random(int(rng.integers(5, 60))) * 8) / 8  # ties
        eps = float(rng.choice([0.1, 0.3, 0.8]))
        cover = empirical_threshold_cover(x, eps / 4)
        every = empirical_threshold_cover(x, 0.0)  # all dichotomies: the whole class on X
        rho = [
            [float(np.mean(every.predict(i, x) != cover.predict(j, x))) for j in range(cover.size)]
            for i in range(every.size)
        ]
        if max(min(row) for row in rho) > eps / 4:
            problems.append(f"A2 cover t={t}")
    for kappa in (1.0, 3.7, 64.0):
        for eps in (0.05, 0.2, 1.0):
            for cls, per in (("threshold", 2), ("interval", 1)):
                size = grid_size(kappa, eps, cls)
                radius = Fraction(1, per * size)  # the grid's cover radius
                if not (radius <= Fraction(eps) / (4 * Fraction(kappa)) < 2 * radius or size == 1):
                    problems.append(f"grid_size({kappa}, {eps}, {cls}) = {size}")
    m, a, e, d = 20_000, 1.0, 0.2, 0.05
    k = kappa_hat(m, a, e, d, 1, kappa_max=1e9)
    equation = 56 * (1 / (a * e) + 1 / e**2) * (math.log(k / e) + math.log(1 / d))
    if not math.isclose(equation, m, rel_tol=1e-9):
        problems.append(f"kappa_hat: the sample-size equation gives {equation}, not {m}")
    spacing = [Fraction(k, 10) for k in range(11)]
    control = not sc.is_packing(spacing, _threshold_distance, Fraction(1, 10))
    return CheckOutcome(
        not problems and control,
        f"problems: {problems or 'none'}; control (spacing = r is not a strict r-packing): "
        f"{control}",
    )


def lemma14_erratum(config: VerifyConfig) -> CheckOutcome:
    """Lemma 14 (L437) holds for ε ≤ 4r and is false beyond: on [0, 1] (doubling dimension 1),
    greedy ε-packings of balls of radius r stay within (4r/ε) for ε ≤ 4r; for ε > 4r the bound is
    < 1 while a ball always holds a one-point packing."""
    points = [Fraction(k, 200) for k in range(201)]
    problems = []
    for r in (Fraction(1, 10), Fraction(1, 4), Fraction(1, 2)):
        ball = [p for p in points if abs(p - Fraction(1, 2)) <= r]
        for eps in (Fraction(1, 50), Fraction(1, 10), r, 2 * r, 4 * r):
            packing = sc.greedy_packing(ball, _threshold_distance, eps)
            if len(packing) > sc.packing_size_bound(r, eps, 1):
                problems.append(f"r={r}, ε={eps}: {len(packing)}")
    r, eps = Fraction(1, 10), Fraction(1, 2)
    beyond = sc.packing_size_bound(r, eps, 1)
    printed_fails = beyond < 1 <= len(sc.greedy_packing([Fraction(1, 2)], _threshold_distance, eps))
    return CheckOutcome(
        not problems and printed_fails,
        f"ε ≤ 4r: problems {problems or 'none'}; ε = 1/2 > 4r = 2/5: bound {beyond} < 1 while a "
        f"one-point packing exists: {printed_fails}",
    )


def group_privacy(config: VerifyConfig) -> CheckOutcome:
    """Lemma 22 (L611–623) on A1: datasets k = 2 substitutions apart (size 2; 3 with
    ``--thorough``; over :data:`DOMAIN`) have laws within e^{2α}; control: A1 without the ½
    violates it."""
    pairs = []
    for size in (2, 3) if config.thorough else (2,):
        data = list(datasets(DOMAIN, size, size))
        for a, b in combinations(data, 2):
            common = sum(min(a.count(r), b.count(r)) for r in set(a))
            if size - common == 2:
                pairs.append((a, b))

    def check(learner: _CoverExponentialClassifier) -> tuple[bool, float]:
        law = learner_law(learner)
        worst = 0.0
        ok = True
        for a, b in pairs:
            pa, pb = law(a), law(b)
            ok &= satisfies_group_privacy(pa, pb, math.e, 0, 2, rtol=RTOL)
            worst = max(
                worst, float(max_likelihood_ratio(pa, pb)), float(max_likelihood_ratio(pb, pa))
            )
        return ok, worst

    good, worst = check(PrivateCoverClassifier("threshold", 1.0, 0.1))
    bad, bad_worst = check(PrintedWeightsCoverClassifier("threshold", 1.0, 0.1))
    return CheckOutcome(
        good and not bad,
        f"{len(pairs)} pairs 2 substitutions apart: worst ratio {worst:.4g} vs e^2 = "
        f"{math.e**2:.4g} -> {'holds' if good else 'VIOLATED'}; control (no ½): worst "
        f"{bad_worst:.4g}, caught: {not bad}",
    )


#: Thm 5's instance: α = 1/2, M = 4 (e^{αM} = e², η ≈ 0.028, K = 34 distributions P_z).
LOWER_ALPHA, LOWER_HORIZON = Fraction(1, 2), 4


def _success_probabilities(
    learner: PrivateCoverClassifier,
    samples: list[tuple[NDArray[np.float64], NDArray[np.int64]]],
    zs: list[Fraction],
    eta: Fraction,
) -> list[float]:
    """q_z = P(A(S_z) ∈ 𝒢_z) = Σ_{g ∈ G ∩ G_z} p_g from ``release_law`` on each S_z."""
    out = []
    for (X, y), z in zip(samples, zs, strict=True):
        lower = learner.candidates(X[:, 0], X.shape[0]).lower
        law = learner.release_law(X, y)
        out.append(sum(p for k, p in law.items() if abs(Fraction(float(lower[k])) - z) <= eta / 3))
    return out


def _family_samples(
    zs: list[Fraction], eta: Fraction, m: int, rng: np.random.Generator
) -> list[tuple[NDArray[np.float64], NDArray[np.int64]]]:
    return [sample_threshold_family(float(z), float(eta), m, rng) for z in zs]


def packing_inequality(config: VerifyConfig) -> CheckOutcome:
    """Thm 5's proof (L212–228) as an executable test of privacy: for datasets S_z ~ P_z^m
    (m = M = 4, one per z ∈ Z, K = 34) and the disjoint success sets 𝒢_z, every α-private proper
    learner satisfies q_z + e^{−αm} Σ_{z'≠z} q_{z'} ≤ 1 (``satisfies_packing_inequality``). A1
    (the exact law of ``fit``, α = 1/2 as passed) satisfies it; ERM over the same grid (not
    private) violates it (Σ q_z ≫ e^{αm})."""
    eta, zs = sc.threshold_family(LOWER_ALPHA, LOWER_HORIZON)
    rng = np.random.default_rng(SEED + 3)
    ratio = math.exp(float(LOWER_ALPHA) * LOWER_HORIZON)
    rounds = 6 if config.thorough else 3
    a1 = PrivateCoverClassifier("threshold", float(LOWER_ALPHA), accuracy=0.02)
    erm = ErmThresholdClassifier("threshold", float(LOWER_ALPHA), accuracy=0.02)
    holds, totals, erm_fails, erm_totals = True, [], 0, []
    for _ in range(rounds):
        samples = _family_samples(zs, eta, LOWER_HORIZON, rng)
        q = _success_probabilities(a1, samples, zs, eta)
        holds &= sc.satisfies_packing_inequality([qz * (1 - RTOL) for qz in q], ratio)
        totals.append(sum(q))
        qe = _success_probabilities(erm, samples, zs, eta)
        erm_fails += not sc.satisfies_packing_inequality(qe, ratio)
        erm_totals.append(sum(qe))
    ok = holds and erm_fails == rounds
    return CheckOutcome(
        ok,
        f"η = {float(eta):.4f}, K = {len(zs)}, e^(αm) = {ratio:.3f}; A1: Σ q_z = "
        f"{max(totals):.3f} (max over {rounds} sample sets), inequality holds: {holds}; "
        f"control ERM: Σ q_z up to {max(erm_totals):.1f}, violated in {erm_fails}/{rounds}",
        {"a1_sums": totals, "erm_sums": erm_totals, "eta": float(eta), "K": len(zs)},
    )


def lower_bound_failure(config: VerifyConfig) -> CheckOutcome:
    """Thm 5 (L196–205) shown on A1 at α = 1/2, M = 4: for every z ∈ Z and every drawn sample
    of size m ≤ M, P(err_z(A1(S)) ≥ 1/5) ≥ 1/2, exactly from ``release_law`` and the exact error
    of P_z (``threshold_family_error``; it is 0 at τ = z and ≥ 1/4 + η/6 off G_z, checked).
    Control: non-private ERM succeeds (error < 1/5 w.p. 1) on some drawn sample for every z."""
    eta, zs = sc.threshold_family(LOWER_ALPHA, LOWER_HORIZON)
    rng = np.random.default_rng(SEED + 4)
    a1 = PrivateCoverClassifier("threshold", float(LOWER_ALPHA), accuracy=0.02)
    erm = ErmThresholdClassifier("threshold", float(LOWER_ALPHA), accuracy=0.02)
    formula_ok = all(
        sc.threshold_family_error(z, z, eta) == 0
        and all(
            sc.threshold_family_error(t, z, eta) >= Fraction(1, 4) + eta / 6
            for t in (Fraction(0), Fraction(1), z - eta / 3 - Fraction(1, 10**9), z + eta / 2)
        )
        for z in zs
    )
    reps = 8 if config.thorough else 3
    worst, erm_success = 1.0, set()
    bad: dict[tuple[Fraction, tuple[float, ...]], set[int]] = {}

    def failing(z: Fraction, lower: NDArray[np.float64]) -> set[int]:
        """Candidates with err_z ≥ 1/5, exactly (cached per z and public grid)."""
        key = (z, tuple(lower.tolist()))
        if key not in bad:
            bad[key] = {
                k
                for k, t in enumerate(lower.tolist())
                if sc.threshold_family_error(Fraction(t), z, eta) >= Fraction(1, 5)
            }
        return bad[key]

    for _ in range(reps):
        for m in range(1, LOWER_HORIZON + 1):
            for z, (X, y) in zip(zs, _family_samples(zs, eta, m, rng), strict=True):
                for learner in (a1, erm):
                    wrong = failing(z, learner.candidates(X[:, 0], m).lower)
                    fail = sum(p for k, p in learner.release_law(X, y).items() if k in wrong)
                    if learner is a1:
                        worst = min(worst, fail)
                    elif fail == 0:
                        erm_success.add(z)
    ok = formula_ok and worst >= 0.5 and len(erm_success) == len(zs)
    return CheckOutcome(
        ok,
        f"A1: min over z, m ≤ {LOWER_HORIZON}, {reps} samples each of P(err ≥ 1/5) = "
        f"{worst:.4f} (≥ 1/2: {worst >= 0.5}); error formula checks: {formula_ok}; control "
        f"ERM succeeds on some sample for {len(erm_success)}/{len(zs)} of the z",
    )


TARGET = 0.37  # the target threshold of the utility checks (x ~ Unif[0, 1], κ = 1)


class HoledGridClassifier(PrivateCoverClassifier):
    """Negative control for utility: A1 whose grid misses every threshold within 0.3 of the
    target — not a cover, so every candidate's excess error exceeds the accuracy."""

    def candidates(self, X: NDArray[np.float64], m: int) -> Boxes:
        grid = super().candidates(X, m)
        keep = np.abs(grid.lower - TARGET) > 0.3
        return Boxes(grid.lower[keep], grid.upper[keep])


def _utility(
    make: Callable[[], _CoverExponentialClassifier],
    control: Callable[[], _CoverExponentialClassifier],
    m: int,
    noise: float,
    accuracy: float,
    reps: int,
    seed: int,
) -> tuple[float, float, float, float, int]:
    """(mean exact failure probability, certificate, control mean, bound slack, reps): for each
    of ``reps`` samples S ~ P^m (x uniform, label 1[x ≥ TARGET] flipped w.p. ``noise``), the
    exact P(excess(h) > accuracy) = Σ_g p_g·1[(1 − 2·noise)|g − TARGET| > accuracy] from
    ``release_law`` (the law ``fit`` draws from)."""
    rng = np.random.default_rng(seed)
    fails: list[float] = []
    control_fails: list[float] = []
    certificate = 0.0
    for _ in range(reps):
        X = rng.random((m, 1))
        y = (X[:, 0] >= TARGET).astype(np.int64) ^ (rng.random(m) < noise)
        for learner, out in ((make(), fails), (control(), control_fails)):
            lower = learner.candidates(X[:, 0], m).lower
            law = learner.release_law(X, y)
            out.append(
                sum(
                    p
                    for k, p in law.items()
                    if (1 - 2 * noise) * abs(min(lower[k], 1.0) - TARGET) > accuracy
                )
            )
        certificate = max(certificate, make().fit(X, y).certificate_)
    slack = math.sqrt(math.log(1 / ALPHA) / (2 * reps))  # Hoeffding: P(mean ≥ E + slack) ≤ α
    return float(np.mean(fails)), certificate, float(np.mean(control_fails)), slack, reps


def _utility_outcome(name: str, result: tuple[float, float, float, float, int]) -> CheckOutcome:
    mean, cert, control, slack, reps = result
    ok = mean <= cert + slack and control > cert + slack and cert < 1
    return CheckOutcome(
        ok,
        f"{name}: {reps} samples, mean exact P(excess > ε) = {mean:.3g} vs certificate δ_cert = "
        f"{cert:.3g} (+ Hoeffding slack {slack:.3g} at α = 1e-6): "
        f"{'holds' if mean <= cert + slack else 'EXCEEDED'}; control (grid with a hole): "
        f"{control:.3g}, rejected: {control > cert + slack}",
        {"mean_failure": mean, "certificate": cert, "control_mean": control, "slack": slack},
    )


def a1_utility(config: VerifyConfig) -> CheckOutcome:
    """Thm 8 (L264–274) with the explicit certificate: x ~ Unif[0, 1] (κ = 1), 10 % label noise,
    m = 1200, α = 1, ε = 0.2: the mean over samples of the exact P(excess > ε) stays below
    δ_cert = 2|G|e^{−mε²/8} + |G|e^{−αmε/8} (one-sided Hoeffding test, false alarm 1e-6);
    control: a grid with a hole is rejected."""
    reps = 600 if config.thorough else 200
    return _utility_outcome(
        "A1",
        _utility(
            lambda: PrivateCoverClassifier("threshold", 1.0, 0.2, 0.05, random_state=0),
            lambda: HoledGridClassifier("threshold", 1.0, 0.2, 0.05),
            1200,
            0.1,
            0.2,
            reps,
            SEED + 5,
        ),
    )


def a1r_utility(config: VerifyConfig) -> CheckOutcome:
    """Thm 9 (L278–290) with the corrected certificate |G|e^{−mε/400} + δ/4 + |G|e^{−3αmε/40}:
    realizable thresholds, m = 40000, α = 1/2, ε = 0.1 (κ̂ = κ_max = 64, |G| = 2048); control:
    a grid with a hole."""
    reps = 200 if config.thorough else 60
    return _utility_outcome(
        "A1r",
        _utility(
            lambda: PrivateCoverClassifier("threshold", 0.5, 0.1, 0.05, True, random_state=0),
            lambda: HoledGridClassifier("threshold", 0.5, 0.1, 0.05, True),
            40_000,
            0.0,
            0.1,
            reps,
            SEED + 6,
        ),
    )


def a2_utility(config: VerifyConfig) -> CheckOutcome:
    """Thm 27 (L804–812) on thresholds with the certificate 4e^{−mε²/32} + |G|e^{−αmε/8}: 10 %
    label noise, m = 4000, α = 1, ε = 0.2; control: A1's holed grid."""
    reps = 600 if config.thorough else 200
    return _utility_outcome(
        "A2",
        _utility(
            lambda: LabelPrivateCoverClassifier(1.0, 0.2, 0.05, random_state=0),
            lambda: HoledGridClassifier("threshold", 1.0, 0.2, 0.05),
            4000,
            0.1,
            0.2,
            reps,
            SEED + 7,
        ),
    )


def _lemma11_instance(alpha: float) -> tuple[NDArray[np.int64], list[int], ExponentialMechanism]:
    """X of size 12, H = labelings of weight ≤ 4 (h₀ = all zeros), P = the 66 weight-2
    labelings (an s-packing of B_X(h₀, 4s), s = 1/12), the exponential mechanism over H with
    score −mistakes (α-label private)."""
    rows = [
        [1 if i in ones else 0 for i in range(12)]
        for w in range(5)
        for ones in combinations(range(12), w)
    ]
    H = np.array(rows, dtype=np.int64)
    packing = [k for k in range(H.shape[0]) if int(H[k].sum()) == 2]

    def scores(labels: NDArray[Any]) -> NDArray[np.int64]:
        mistakes: NDArray[np.int64] = np.sum(np.asarray(labels).reshape(1, -1) != H, axis=1)
        return -mistakes

    return H, packing, ExponentialMechanism(scores, 1, epsilon=alpha)


def lemma11(config: VerifyConfig) -> CheckOutcome:
    """Lemma 11 (L358–365), corrected, on the exact instance m = 12, |P| = 66, s = 1/12,
    α = 0.3 (the hypothesis m < log(|P|/2 − 1)/(8αs) ≈ 17.3 holds): for the exponential
    mechanism (α-label private), P(A(S_{X,h}) ∉ B_X(h, s/2)) = 1 − P(A = h) > 1/2 for all 66
    h ∈ P (so |Q| ≥ |P|/2). Control: ERM (not private) returns h itself — the conclusion fails,
    so it is not vacuous."""
    alpha, s = 0.3, Fraction(1, 12)
    H, packing, mech = _lemma11_instance(alpha)
    miss = [1.0 - float(mech.pmf(H[k])[k]) for k in packing]
    erm = [0.0 for _ in packing]
    condition = sc.lemma11_condition(12, len(packing), alpha, s)
    ok = condition and sc.lemma11_conclusion(miss) and not sc.lemma11_conclusion(erm)
    return CheckOutcome(
        ok,
        f"|H| = {H.shape[0]}, |P| = {len(packing)}, condition m = 12 < "
        f"{math.log(len(packing) / 2 - 1) / (8 * alpha * float(s)):.2f}: {condition}; exponential "
        f"mechanism: min miss = {min(miss):.4f} (> 1/2 for {sum(v > 0.5 for v in miss)}/66); "
        f"control ERM: conclusion fails: {not sc.lemma11_conclusion(erm)}",
        {"miss": min(miss)},
    )


def lemma11_printed(config: VerifyConfig) -> CheckOutcome:
    """Erratum: Lemma 11 as printed (L365: "≤ 1/2") is false — on the exact instance the
    α-label private exponential mechanism misses every h ∈ P with probability > 1/2, so no Q
    with |Q| ≥ |P|/2 and miss ≤ 1/2 exists; the corrected "> 1/2" holds (check ``lemma11``)."""
    H, packing, mech = _lemma11_instance(0.3)
    miss = [1.0 - float(mech.pmf(H[k])[k]) for k in packing]
    printed = sc.lemma11_conclusion(miss, printed=True)
    corrected = sc.lemma11_conclusion(miss)
    return CheckOutcome(
        not printed and corrected,
        f"miss ∈ [{min(miss):.4f}, {max(miss):.4f}]: printed (≤ 1/2 for ≥ 33) holds: {printed}; "
        f"corrected (> 1/2 for ≥ 33) holds: {corrected}",
    )


def thm9_exponent(config: VerifyConfig) -> CheckOutcome:
    """Erratum (L565): Thm 9's final step bounds P(err(h, S) > err(g₀, S) + 3ε/20) by
    |G|e^{−3ε|S|/20}; Lemma 18 with a_g = α|S|err(g, S)/2 gives |G|e^{−3α|S|ε/40}. On A1r's
    exact law (realizable thresholds, m = 2000, ε = 0.1): at α = 0.01 the tail (≈ 0.7) exceeds
    the printed bound (≈ 10^-5) and respects the corrected one; at α = 1 both hold."""
    rng = np.random.default_rng(SEED + 8)
    m, eps = 2000, 0.1
    X = rng.random((m, 1))
    y = (X[:, 0] >= TARGET).astype(np.int64)
    rows = []
    for alpha in (0.01, 1.0):
        learner = PrivateCoverClassifier("threshold", alpha, eps, 0.05, True)
        cands = learner.candidates(X[:, 0], m)
        mistakes = cands.mistakes(X[:, 0], y)
        law = learner.release_law(X, y)
        best = int(mistakes.min())
        tail = sum(p for k, p in law.items() if mistakes[k] > best + 3 * eps * m / 20)
        printed = cands.size * math.exp(-3 * eps * m / 20)
        corrected = cands.size * math.exp(-3 * alpha * m * eps / 40)
        a = [alpha * float(v) / 2 for v in mistakes]
        lemma = sc.exponential_tail_holds(a, int(np.argmin(mistakes)), alpha * m * 3 * eps / 40)
        rows.append((alpha, tail, printed, corrected, lemma))
    low, high = rows
    ok = (
        low[1] > low[2]
        and low[1] <= low[3]
        and low[4]
        and high[1] <= high[2]
        and high[1] <= high[3]
        and high[4]
    )
    return CheckOutcome(
        ok,
        "; ".join(
            f"α={a}: tail {t:.3g}, printed bound {p:.3g}, corrected bound {c:.3g}, Lemma 18: {lm}"
            for a, t, p, c, lm in rows
        ),
    )


def lemma18_part1(config: VerifyConfig) -> CheckOutcome:
    """Erratum (L484): Lemma 18.1 prints "a_i ≤ t ⇒ P(j = i) ≥ e^{−(t − a_{i₀})}"; its proof
    (L490) shows a_i ≥ t ⇒ P(j = i) ≤ e^{−(t − a_{i₀})}. Printed form fails on a = (0, 0),
    i = i₀ = 0, t = 0 (P = 1/2 < 1); the corrected form holds on random weight vectors."""
    rng = np.random.default_rng(SEED + 9)
    printed_fails = math.exp(-(0 - 0)) > 0.5
    corrected = True
    for _ in range(200):
        a = rng.exponential(2.0, size=int(rng.integers(2, 12)))
        p = np.exp(-(a - a.min()))
        p /= p.sum()
        i0, t = int(rng.integers(a.size)), float(rng.uniform(0, 6))
        corrected &= bool(np.all(p[a >= t] <= np.exp(-(t - a[i0])) * (1 + RTOL)))
        corrected &= sc.exponential_tail_holds(a.tolist(), i0, t)
    return CheckOutcome(
        printed_fails and corrected,
        f"printed 18.1 fails on a = (0, 0): {printed_fails}; corrected 18.1 and 18.2 on 200 "
        f"random vectors: {corrected}",
    )


def thm5_counting(config: VerifyConfig) -> CheckOutcome:
    """Errata in Thm 5's proof, exactly (η from ``threshold_family``): L226 — |Z ∖ {z}| =
    ⌊1/η⌋ − 2 is ≥ 1/η − 3 but **not** ≥ 1/η − 2 (printed) when 1/η ∉ ℤ, and the contradiction
    e^{−αm}(1/η − 3)/2 > 1/2 still holds for m ≤ M; L228 — "since m ≥ M" must read m ≤ M: for
    m = M + ⌈2/α⌉ + 1 the bound drops below 1/2."""
    rows = []
    ok = True
    for alpha, horizon in ((Fraction(1, 2), 4), (Fraction(1, 10), 10), (Fraction(1), 3)):
        eta, zs = sc.threshold_family(alpha, horizon)
        others = len(zs) - 1
        printed = others >= 1 / eta - 2
        corrected = others >= 1 / eta - 3
        holds = all(
            math.exp(-float(alpha) * m) * float(1 / eta - 3) / 2 > 0.5
            for m in range(1, horizon + 1)
        )
        far = horizon + math.ceil(2 / alpha) + 1  # e^{αm} > 7 e^{αM} ≥ 1/η − 3
        beyond = math.exp(-float(alpha) * far) * float(1 / eta - 3) / 2 > 0.5
        ok &= (not printed) and corrected and holds and not beyond
        rows.append(f"α={alpha}, M={horizon}: |Z∖z| = {others}, 1/η = {float(1 / eta):.3f}")
    return CheckOutcome(ok, "; ".join(rows) + f" -> printed −2 fails, −3 holds, m ≤ M: {ok}")
