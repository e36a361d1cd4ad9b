"""Checks of PCDE (seed 000, Alg 3): exact privacy through the real ``fit`` (tight in ε, δ
pinned to the threshold rule), the density, the grid and its protocol, the cube rule of ``fit``
= the cube rule of ``pdf``. The consistency trends are in ``consistency.py``, the paper's
idealised histogram in ``idealised.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray
from scipy import stats

from dpspec.learners.estimator import check_score_labels
from dpspec.learners.machinery import check_points as _check_points
from dpspec.learners.machinery import cube_ids as _cube_ids
from dpspec.learners.machinery import match_rows as _match_rows
from dpspec.learners.machinery import occupied_cubes as _occupied_cubes
from dpspec.learners.machinery import row_keys as _row_keys
from dpspec.learners.pcde import PrivateHistogramDensity, side_for
from dpspec.learners.semi_supervised import dichotomies
from dpspec.mechanisms.stability_histogram import TAIL, StabilityHistogram
from dpspec.proofs.engine.conformance import conformance, draws, outcome, power_against
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.exact import (
    RTOL,
    Dataset,
    ExactReport,
    control_of,
    reports_until_failure,
    slack_of,
    verify_pairs,
)
from dpspec.proofs.engine.registry import (
    RECOMPUTED,
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
    stop_if_failed,
)
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY
from dpspec.proofs.engine.stats import ALPHA, chisquare_gof
from dpspec.spec.laws import two_sided_sf
from dpspec.spec.neighbours import Relation, neighbouring_pairs
from dpspec.spec.privacy import Dist, hockey_stick, satisfies_approx_dp

SEED = 4000

#: The bug every privacy control of this topic plants: noise calibrated for ε × 1.25.
CONTROL_FACTOR = 1.25

Points = Sequence[float] | Sequence[tuple[float, ...]]


class LoweredThresholdDensity(PrivateHistogramDensity):
    """Negative control: PCDE whose histogram threshold is ``lowered`` below the exact one."""

    lowered = 2

    def make_histogram(self) -> StabilityHistogram:
        histogram = super().make_histogram()
        histogram.threshold = int(histogram.threshold) - self.lowered
        return histogram


def _pcde_law(est: PrivateHistogramDensity, d: int, cap: int) -> Callable[[Dataset], Dist]:
    """The law of PCDE's release on a dataset of points (its own ``release_law``, one cap)."""

    def law(data: Dataset) -> Dist:
        return est.release_law(np.array(data, dtype=np.float64).reshape(-1, d), cap=cap)

    return law


def verify_pcde(
    points: Points,
    max_size: int,
    epsilon: float,
    delta: float,
    *,
    lowered: int = 0,
    side: float = 1.0,
    claim: tuple[float, float] | None = None,
    min_size: int = 1,
) -> ExactReport:
    """(ε, δ)-DP of PCDE's release over all substitution pairs of multisets of ``points`` of
    sizes in [``min_size``, ``max_size``], against the caller's (ε, δ) (or ``claim``).

    The law of each dataset is :meth:`PrivateHistogramDensity.release_law` (f̂ is a function of
    the release, so the bound carries over by post-processing) with one common ``cap`` ≥ every
    count (required for the lumped tail to be exact across the pair). ``lowered`` > 0 uses
    :class:`LoweredThresholdDensity`. Worst δ is compared with relative slack :data:`RTOL`.
    """
    if lowered:
        est: PrivateHistogramDensity = LoweredThresholdDensity(epsilon, delta, side=side)
        cast(LoweredThresholdDensity, est).lowered = lowered
    else:
        est = PrivateHistogramDensity(epsilon, delta, side=side)
    tau = int(est.make_histogram().threshold)
    cap = max(tau, max_size) + 1
    domain = tuple(points)
    d = 1 if not isinstance(domain[0], tuple) else len(domain[0])
    eps_claim, delta_claim = (epsilon, delta) if claim is None else claim
    report = verify_pairs(
        f"PCDE d={d}, {len(domain)} cubes, ε={epsilon:g}, δ={delta:g}, τ={tau}"
        + (f" (lowered by {lowered})" if lowered else ""),
        _pcde_law(est, d, cap),
        neighbouring_pairs(domain, max_size, Relation.SUBSTITUTE, min_size=min_size),
        math.exp(eps_claim),  # the caller's (ε, δ), not the level the histogram reports
        delta_claim,
        rtol=RTOL,
    )
    report.details.update(threshold=tau, cap=cap, d=d)
    return report


def threshold_of(epsilon: float, delta: float) -> int:
    """The exact stability histogram's threshold, written out from its rule (Alg 1 with
    discrete Laplace noise P(z) ∝ q^{|z|}, q = e^{−ε/2}, L1 sensitivity 2): the least integer
    τ ≥ 1 with (1 + e^ε)·P(Z ≥ τ) ≤ δ, P(Z ≥ τ) = q^τ/(1 + q)
    (:func:`~dpspec.spec.laws.two_sided_sf`)."""
    q = math.exp(-epsilon / 2)
    tau = 1
    while (1 + math.exp(epsilon)) * two_sided_sf(tau, q) > delta:
        tau += 1
    return tau


def lone_point_delta(epsilon: float, delta: float) -> float:
    """δ of PCDE on "one point alone in cube A" / "… alone in cube B" in closed form: the lone
    cube is released with probability P(Z ≥ τ − 1) = q^{τ−1}/(1 + q) and nothing else differs,
    so H_γ = P(Z ≥ τ − 1) for every γ ≥ 1 (the worst δ of the histogram)."""
    q = math.exp(-epsilon / 2)
    return two_sided_sf(threshold_of(epsilon, delta) - 1, q)


def epsilon_at(delta: float, laws: list[tuple[Dist, Dist]], top: float) -> float:
    """The smallest ε' in [0, top] with H_{e^{ε'}} ≤ δ both ways on every pair (bisection to
    1e-6; each law pair aligned once as two float vectors)."""
    aligned = []
    for p, q in laws:
        keys = list(set(p) | set(q))
        a = np.array([float(p.get(k, 0)) for k in keys])
        b = np.array([float(q.get(k, 0)) for k in keys])
        aligned += [(a, b), (b, a)]

    def holds(e: float) -> bool:
        g = math.exp(e)
        return all(float(np.maximum(a - g * b, 0.0).sum()) <= delta for a, b in aligned)

    lo, hi = 0.0, top
    if not holds(hi):
        return math.inf
    while hi - lo > 1e-6:
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if holds(mid) else (mid, hi)
    return hi


def _lone_point_pins() -> list[tuple[float, float, float, float]]:
    """(ε, δ, measured δ, closed form P(Z ≥ τ − 1)) of PCDE on a lone point moving between
    two cubes, for three levels (the pins of :func:`pcde_exact_privacy`)."""
    pins = []
    for e, dl in ((1.0, 0.1), (2.0, 0.05), (1.0, 1e-3)):
        lone = _pcde_law(PrivateHistogramDensity(e, dl, side=1.0), 1, threshold_of(e, dl))
        got = float(hockey_stick(lone((0.5,)), lone((1.5,)), math.exp(e)))
        pins.append((e, dl, got, lone_point_delta(e, dl)))
    return pins


def _pinned(pins: list[tuple[float, float, float, float]]) -> bool:
    """Every pin's measured δ equals its closed form (relative tolerance 1e-6)."""
    return all(math.isclose(g, w, rel_tol=1e-6) for *_, g, w in pins)


def pcde_exact_privacy(config: VerifyConfig) -> CheckOutcome:
    """Thm 4.2 exactly, through PCDE's own ``release_law``, against the caller's (ε, δ):

    * every substitution pair of ≤ 6 points over 3 cubes (1-D, one cube on the negative
      axis; ε = 1, δ = 0.1 and ε = 2, δ = 0.05) and ≤ 4 points over 3 cubes of ℝ²;
    * tight in ε: 12 points in two cubes, counts above τ (ε = 2, δ = 0.05), where a moved
      point shifts both released counts: the smallest ε' with H_{e^{ε'}} ≤ δ is reported
      against ε, and PCDE with noise for ε × 1.25 is caught;
    * δ pinned: on a lone point moving between cubes the measured δ equals the closed form
      P(Z ≥ τ − 1) with τ the threshold rule written out — the claim δ is loose by the rule's
      own factor (1 + e^ε)e^{−ε/2} ≥ 2, so a histogram run at 2δ is caught by this pin, not by
      the claim; a threshold lowered by 2 is caught by the claim.

    Under a bug control the cheap pins run first and the check stops at the first claim that
    fails (pins, then the reports); the controls and the reported ε at δ are skipped."""
    size = 8 if config.thorough else 6
    one_d = (-0.5, 0.5, 1.5)
    two_d = ((0.5, 0.5), (1.5, 0.5), (0.5, -0.5))
    eps, delta, n = 2.0, 0.05, 12
    if config.under_control:
        pins = _lone_point_pins()
        stop_if_failed(config, _pinned(pins), f"lone-point δ = P(Z ≥ τ − 1): {pins}")
    *reports, tight = reports_until_failure(
        config,
        lambda: verify_pcde(one_d, size, 1.0, 0.1),
        lambda: verify_pcde(one_d, size, 2.0, 0.05),
        lambda: verify_pcde(two_d, size - 2, 1.0, 0.1),
        lambda: verify_pcde((0.5, 1.5), n, eps, delta, min_size=n),
    )
    if config.under_control:  # every claim held (a failing one ended the check above)
        return CheckOutcome(True, "under a bug control: the pins and every report hold")
    control, lowered = reports_until_failure(
        config,
        lambda: verify_pcde(
            (0.5, 1.5), n, CONTROL_FACTOR * eps, delta, claim=(eps, delta), min_size=n
        ),
        lambda: verify_pcde(one_d, size, 2.0, 0.05, lowered=2),
        controls=True,
    )
    law = _pcde_law(PrivateHistogramDensity(eps, delta, side=1.0), 1, n + 1)
    pairs = list(neighbouring_pairs((0.5, 1.5), n, Relation.SUBSTITUTE, min_size=n))
    measured = epsilon_at(delta, [(law(a), law(b)) for a, b in pairs], 4 * eps)
    pins = _lone_point_pins()
    pinned = _pinned(pins)
    ok = all(r.holds for r in reports) and tight.holds and pinned
    ok = ok and not control.holds and not lowered.holds
    return CheckOutcome(
        ok,
        "; ".join(r.summary() for r in [*reports, tight])
        + f"; ε at δ on the tight instance {measured:.4f} vs claim ε = {eps}; lone-point δ = "
        f"P(Z ≥ τ − 1): {[(round(g, 6), round(w, 6)) for *_, g, w in pins]}; controls: "
        f"{control.summary()}; {lowered.summary()}",
        {
            "pairs": sum(r.pairs for r in reports) + tight.pairs,
            "worst_deltas": [float(r.worst_delta) for r in reports],
            "thresholds": [r.details["threshold"] for r in reports],
            "epsilon_at_delta": measured,
            "pins": pins,
        },
        [
            control_of(control, "PCDE with noise for ε × 1.25 (claim (ε, δ))"),
            control_of(lowered, "PCDE's threshold lowered by 2"),
            Control(
                "δ pinned to P(Z ≥ τ − 1) (a histogram run at 2δ moves τ)",
                True,
                f"measured = closed form on {len(pins)} instances: {pinned}",
            ),
        ],
        [
            Slack("ε (PCDE, at δ)", eps, measured),
            *(slack_of(r) for r in reports),
            *(Slack("lone-point δ vs closed form", w, g) for *_, g, w in pins),
        ],
    )


@Obligation(
    id="pcde.privacy",
    source=(f"{BAYES_CONSISTENCY}:L249-262 (Alg 3, Thm 4.2); {BAYES_CONSISTENCY}:L125-147 (Alg 1)"),
    claim=(
        "PCDE's release (stability histogram of the cube counts) is (ε, δ)-DP for the "
        "caller's (ε, δ), exactly, through the law fit draws; tight in ε, δ pinned to "
        "the threshold rule's closed form"
    ),
    method=Method.EXACT,
    predicates=(satisfies_approx_dp, hockey_stick),
    impls=(
        PrivateHistogramDensity,
        "dpspec.learners.pcde._cube_ids",
        "dpspec.learners.pcde._occupied_cubes",
    ),
    entry_points=(PrivateHistogramDensity.fit,),
    tests=("tests/test_pcde.py::test_release_law_is_a_distribution",),
    privacy=True,
    bug_controls=(
        BugControl(
            "dpspec.learners.pcde.PrivateHistogramDensity._histogram",
            "bins=None, epsilon=float(self.epsilon), delta=self.delta,",
            "bins=None, epsilon=1.25 * float(self.epsilon), delta=self.delta,",
            "the histogram noised for ε × 1.25",
        ),
        BugControl(
            "dpspec.learners.pcde.PrivateHistogramDensity._histogram",
            "bins=None, epsilon=float(self.epsilon), delta=self.delta,",
            "bins=None, epsilon=float(self.epsilon), delta=2 * self.delta,",
            "the histogram run at 2δ",
        ),
    ),
    before=(pcde_exact_privacy,),
)
def pcde_fit_conformance(config: VerifyConfig) -> CheckOutcome:
    """PCDE ``fit`` on 53 points in 3 cubes (counts 5, 8, 40 around τ): the joint release
    (released cubes and their counts) against ``release_law``; control: ``fit`` at ε = 2;
    the power against ``fit`` at ε × 1.25 is stated (the exact check catches that bug). Under
    a bug control only ``fit`` at ε is drawn and no power is computed."""
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

    result = outcome(
        [
            conformance(
                "PCDE fit, 3 cubes",
                law(1.0),
                at(1.0, 0),
                at(2.0, 10**6),
                law(2.0),
                reps,
                config=config,
            )
        ]
    )
    if config.under_control:
        return result
    power = power_against(law(1.0), law(CONTROL_FACTOR), reps)
    result.numbers["power_at_1.25_epsilon"] = power
    result.detail += f"; power against fit at ε × 1.25: {power:.2f}"
    return result


#: Thm 4.2 through ``fit``: the exact checks of the law, then the conformance of ``fit`` to it.


def _fitted(n: int, d: int, seed: int) -> PrivateHistogramDensity:
    rng = np.random.default_rng(seed)
    return PrivateHistogramDensity(1.0, 1e-6, random_state=seed).fit(rng.standard_normal((n, d)))


@Obligation(
    id="pcde.density",
    source=f"{BAYES_CONSISTENCY}:L258 (Remark 4.1 and its footnote, L268)",
    claim="f̂ is a density: ≥ 0, integrates to 1, sample_points draws from it",
    method=Method.STATISTICAL,
    no_predicate=(
        "the definition of a density checked directly (f̂ ≥ 0, ∫ f̂ = 1) and sample_points "
        "against f̂'s own cube law ĉ/Σĉ (chi-square, KS)"
    ),
    impls=(PrivateHistogramDensity, "dpspec.learners.pcde._match_rows"),
    tests=("tests/test_pcde.py::test_sample_lands_in_released_cubes",),
    bug_controls=(
        BugControl(
            "dpspec.learners.pcde.PrivateHistogramDensity._fit",
            "self.density_values_ = self.released_counts_ / (mass * side**d)",
            "self.density_values_ = self.released_counts_ / (mass * side)",
            "f̂ normalised by the side r instead of the cube volume r^d",
        ),
        BugControl(
            PrivateHistogramDensity.sample_points,
            "size=size, p=self.cube_probabilities())",
            "size=size)",
            "sample_points picks released cubes uniformly, not ∝ ĉ",
        ),
    ),
)
def pcde_is_density(config: VerifyConfig) -> CheckOutcome:
    """Remark 4.1: f̂ ≥ 0, ∫f̂ = 1 (sum over released cubes, and through ``pdf`` at cube
    centres), f̂ = 0 off the released cubes; ``sample_points`` lands only in released cubes,
    picks them ∝ ĉ (chi-square against ĉ/Σĉ) and is uniform inside (KS on the offsets), both
    at α = 1e-6 with fixed seeds (the tests reject cube proportions ∝ ĉ² and squared offsets:
    they see a wrong law). Bug controls: f̂ normalised by side instead of side^d, cubes drawn
    uniformly. Slack: |∫f̂ − 1| against 1e-12. Under a bug control the check ends at the first
    problem or test that fails, and the wrong laws (ĉ², squared offsets) are not tested."""
    n_draw = 400_000 if config.thorough else 200_000
    problems: list[str] = []
    pvals: dict[str, float] = {}
    controls: dict[str, float] = {}
    mass_error = 0.0
    for d in (1, 2):
        est = _fitted(100_000, d, SEED + d)
        rng = np.random.default_rng(SEED + 10 + d)
        r = est.side_
        mass = est.total_mass()
        centres = (est.released_cells_ + 0.5) * r
        via_pdf = math.fsum((est.pdf(centres) * r**d).tolist())
        mass_error = max(mass_error, abs(mass - 1), abs(via_pdf - 1))
        if abs(mass - 1) > 1e-12 or abs(via_pdf - 1) > 1e-12:
            problems.append(f"d={d}: mass {mass!r}, via pdf {via_pdf!r}")
            stop_if_failed(config, False, problems[-1])
        probe = rng.standard_normal((50_000, d)) * 3
        dens = est.pdf(probe)
        inside = _match_rows(est.released_cells_, _cube_ids(probe, r)) >= 0
        if np.any(dens < 0) or np.any(dens[~inside] != 0) or np.any(dens[inside] <= 0):
            problems.append(f"d={d}: pdf negative, or nonzero off the released cubes")
            stop_if_failed(config, False, problems[-1])
        draws = est.sample_points(n_draw, rng)
        which = _match_rows(est.released_cells_, _cube_ids(draws, r))
        if np.any(which < 0):
            problems.append(f"d={d}: {int(np.sum(which < 0))} samples outside released cubes")
            stop_if_failed(config, False, problems[-1])
            continue
        probs = est.released_counts_ / est.released_counts_.sum()  # P_f̂(cube) = ĉ/Σĉ
        pvals[f"cubes d={d}"] = chisquare_gof(which, dict(enumerate(probs.tolist()))).pvalue
        stop_if_failed(config, pvals[f"cubes d={d}"] > ALPHA, f"d={d}: cubes not ∝ ĉ")
        if config.under_control:
            offsets = (draws / r - est.released_cells_[which]).ravel()
            uniform = float(stats.kstest(offsets, "uniform").pvalue) > ALPHA
            stop_if_failed(config, uniform, f"d={d}: offsets not uniform")
            continue
        squared = est.released_counts_**2 / np.sum(est.released_counts_**2)
        controls[f"cubes d={d}"] = chisquare_gof(which, dict(enumerate(squared.tolist()))).pvalue
        offsets = (draws / r - est.released_cells_[which]).ravel()
        pvals[f"offsets d={d}"] = float(stats.kstest(offsets, "uniform").pvalue)
        controls[f"offsets d={d}"] = float(stats.kstest(offsets**2, "uniform").pvalue)
    if config.under_control:  # every part held (a failing one ended the check above)
        return CheckOutcome(True, "under a bug control: f̂ is a density, sampled by its law")
    ok = (
        not problems
        and all(p > ALPHA for p in pvals.values())
        and all(p < ALPHA for p in controls.values())
        and len(pvals) == 4
    )
    return CheckOutcome(
        ok,
        f"problems: {problems}; p-values { ({k: f'{v:.3g}' for k, v in pvals.items()}) }; "
        f"wrong laws rejected: {all(p < ALPHA for p in controls.values())}",
        {"pvalues": pvals, "control_pvalues": controls, "draws": n_draw},
        slack=[Slack("|∫ f̂ − 1| (claim ≤ 1e-12)", 1e-12, mass_error)],
    )


@Obligation(
    id="pcde.grid-protocol",
    source=(
        f"{BAYES_CONSISTENCY}:L251-253 (Alg 3: r = n^(-1/(2d)), cubes of ℝ^d); sklearn protocol"
    ),
    claim=(
        "the grid is anchored at 0 with side n^(-1/(2d)); cube keys, lookups, counts and "
        "the estimator protocol are correct"
    ),
    method=Method.PROPERTY,
    no_predicate=(
        f"{RECOMPUTED}: cube keys, lookups and counts by brute force; the estimator protocol"
    ),
    impls=(
        side_for,
        "dpspec.learners.pcde._check_points",
        "dpspec.learners.pcde._cube_ids",
        "dpspec.learners.pcde._row_keys",
        "dpspec.learners.pcde._occupied_cubes",
        "dpspec.learners.pcde._match_rows",
        check_score_labels,
        PrivateHistogramDensity,
    ),
    tests=("tests/test_pcde.py::test_row_keys_fallback_agrees",),
    bug_controls=(
        BugControl(
            "dpspec.learners.pcde._cube_ids",
            "scaled = np.floor(X / side)",
            "scaled = np.trunc(X / side)",
            "cubes of negative coordinates truncated toward 0 (the grid not anchored at 0)",
        ),
        BugControl(
            "dpspec.learners.pcde._match_rows",
            "pos = np.minimum(np.searchsorted(tk[order], qk), k - 1)",
            "pos = np.minimum(np.searchsorted(tk[order], qk, side='right'), k - 1)",
            "a row looked up one place to the right",
        ),
    ),
)
def pcde_grid_and_protocol(config: VerifyConfig) -> CheckOutcome:
    """Grid and estimator properties: r = n^{−1/(2d)}; cubes anchored at 0 (⌊x/r⌋, negative
    coordinates included); packed row keys agree with the np.unique fallback and with a
    dictionary lookup on random rows (huge spans force the fallback); occupied-cube counts
    match a Counter; get/set_params round trip; the same random_state gives the same release.
    (Bad input is the contract sweep's: every declared domain of the class is swept.) Bug
    controls: the cube of a negative coordinate truncated toward 0, a row lookup off by one.
    Under a bug control the check ends at the first problem of the grid and the row keys."""
    from collections import Counter

    rng = np.random.default_rng(SEED + 40)
    problems: list[str] = []
    checked = 0
    if not math.isclose(side_for(10**4, 2), 0.1) or not math.isclose(side_for(100, 1), 0.1):
        problems.append("side_for")
    got = _cube_ids(np.array([[-0.05, 0.0, 0.25, 0.999, -1.0]]).T, 0.1)[:, 0].tolist()
    if got != [-1, 0, 2, 9, -10]:
        problems.append(f"cube anchoring: {got}")
    stop_if_failed(config, not problems, "; ".join(problems))
    for spread in (5, 2**40):
        rows = rng.integers(-spread, spread, size=(3000, 3)).astype(np.int64)
        rows[1000:2000] = rows[:1000]
        keys = _row_keys(rows)
        same = keys[:, None] == keys[None, :1000]
        truth = np.all(rows[:, None, :] == rows[None, :1000, :], axis=2)
        checked += truth.size
        if not np.array_equal(same, truth):
            problems.append(f"row keys, spread {spread}")
        cells, counts = _occupied_cubes(rows)
        counted = dict(zip(map(tuple, cells.tolist()), counts.tolist(), strict=True))
        if Counter(map(tuple, rows.tolist())) != counted:
            problems.append(f"occupied cubes, spread {spread}")
        query = np.concatenate([rows[:50], rows[:50] + 2 * spread + 1])
        idx = _match_rows(cells, query)
        lookup = {tuple(c): i for i, c in enumerate(cells.tolist())}
        expect = [lookup.get(tuple(q), -1) for q in query.tolist()]
        checked += len(expect)
        if idx.tolist() != expect:
            problems.append(f"row lookup, spread {spread}")
        stop_if_failed(config, not problems, "; ".join(problems))
    X = rng.standard_normal((20_000, 2))
    # cubes of side 0.5 hold hundreds of points: the release is never empty, whatever the draw
    est = PrivateHistogramDensity(0.5, 1e-5, side=0.5, random_state=3)
    clone = PrivateHistogramDensity(**est.get_params())
    a, b = est.fit(X), clone.fit(X)
    if not np.array_equal(a.released_counts_, b.released_counts_):
        problems.append("same random_state gave different releases")
    if est.set_params(epsilon=2.0).get_params()["epsilon"] != 2.0:
        problems.append("set_params")
    if check_score_labels(np.array([[1], [0]]), 2).tolist() != [1, 0]:
        problems.append("score labels: a column vector not ravelled")
    try:
        check_score_labels([1, 0, 1], 2)
        problems.append("score labels: 3 labels for 2 rows accepted")
    except ValueError:
        pass
    _check_points(X)
    try:
        dichotomies("rectangle", rng.random((65, 2)))
        problems.append("n_synthetic: 65 rectangle points accepted")
    except ValueError as exc:
        if "n_synthetic" not in str(exc):
            problems.append(f"n_synthetic: {exc}")
    return CheckOutcome(
        not problems,
        f"{checked} keys and lookups against brute force; problems: {problems}",
        {"checked": checked, "problems": problems},
        slack=[Slack("mismatches with brute force (claim 0)", 0.0, float(len(problems)))],
    )


# --- the cube fit counts is the cube pdf reads -------------------------------

#: ε at which the exact histogram noise is 0 except with probability ~e^{−350} per cube.
NOISELESS_EPSILON = 700.0


@Obligation(
    id="pcde.score-is-pdf",
    source=f"{BAYES_CONSISTENCY}:L249-256 (Alg 3: f̂(x) = ĉ(C(x))/(n r^d))",
    claim=(
        "the cube whose count fit releases for a point is the cube pdf reads there "
        "(cubes [k r, (k+1) r) anchored at 0), on points on and next to cube faces"
    ),
    method=Method.PROPERTY,
    no_predicate=f"{RECOMPUTED}: f̂(x) = c(C(x))/(n r^d) with ⌊x/r⌋ written out in the check",
    impls=(PrivateHistogramDensity, "dpspec.learners.pcde._cube_ids"),
    tests=("tests/test_pcde.py::test_pdf_integrates_to_one",),
    bug_controls=(
        BugControl(
            PrivateHistogramDensity.pdf,
            "idx = _match_rows(self.released_cells_, _cube_ids(X, self.side_))",
            (
                "idx = _match_rows(self.released_cells_, _cube_ids(np.nextafter(X, -np.inf), "
                "self.side_))"
            ),
            "pdf reads cubes (k r, (k+1) r] while fit counts [k r, (k+1) r)",
        ),
    ),
)
def pcde_score_is_pdf(config: VerifyConfig) -> CheckOutcome:
    """For the density: the cube whose count ``fit`` releases for a point is
    the cube ``pdf`` reads there — cubes [k r, (k + 1) r) of ℝ^d anchored at 0 — on Hypothesis
    samples on cube faces k·r (negative ones included) and one ulp either side of them. At
    ε = 700 the noise is 0, so with every point repeated τ times each occupied cube is
    released with its count and f̂(x) = c(C(x))/(n r^d), c counted with ⌊x/r⌋ written out.
    Its bug control reads the cube of the point below x in ``pdf``."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    problems: list[str] = []
    samples = 0

    @st.composite
    def cases(draw: Any) -> tuple[float, NDArray[np.float64]]:
        m = draw(st.sampled_from([2, 3, 4, 10]))
        r = 1.0 / m
        d = draw(st.integers(1, 2))
        faces = [k / m for k in range(-m, m + 1)]
        faces += [float(np.nextafter(f, np.inf)) for f in faces[:3]]
        faces += [float(np.nextafter(f, -np.inf)) for f in faces[-3:]]
        rows = draw(st.lists(st.tuples(*[st.sampled_from(faces)] * d), min_size=1, max_size=6))
        return r, np.array(rows, dtype=np.float64)

    @settings(
        max_examples=90 if config.thorough else 30,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(cases())
    def sample(case: tuple[float, NDArray[np.float64]]) -> None:
        nonlocal samples
        r, X = case
        samples += 1
        est = PrivateHistogramDensity(NOISELESS_EPSILON, 0.5, side=r, random_state=0)
        tau = int(est.make_histogram().threshold)
        data = np.repeat(X, tau, axis=0)  # every occupied cube holds ≥ τ points: released
        est.fit(data)

        def cube(x: tuple[float, ...]) -> tuple[int, ...]:
            return tuple(math.floor(v / r) for v in x)

        counts: dict[tuple[int, ...], int] = {}
        for row in data.tolist():
            counts[cube(tuple(row))] = counts.get(cube(tuple(row)), 0) + 1
        volume = r ** X.shape[1]
        probes = np.concatenate([X, np.nextafter(X, -np.inf), np.nextafter(X, np.inf)])
        want = [counts.get(cube(tuple(p)), 0) / (data.shape[0] * volume) for p in probes.tolist()]
        got = est.pdf(probes)
        if not np.allclose(got, want, rtol=1e-12, atol=0.0):
            bad = int(np.flatnonzero(~np.isclose(got, want, rtol=1e-12, atol=0.0))[0])
            problems.append(f"r={r:g}: probe {probes[bad].tolist()} f̂ {got[bad]} ≠ {want[bad]}")

    sample()
    return CheckOutcome(
        not problems,
        f"{samples} samples on cube faces: "
        f"{'pdf reads the cube fit counted' if not problems else problems[:3]}",
        {"samples": samples, "problems": problems[:10]},
        [],
        [Slack("probes whose cube differs from fit's (claim 0)", 0.0, float(len(problems)))],
    )
