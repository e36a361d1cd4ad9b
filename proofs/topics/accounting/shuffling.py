"""The shuffled accountant's checks (:mod:`dpspec.accounting.shuffling`): its upper bound
against the μ-composition written in the spec, its lower bound against the post-processed
pair's true δ (the cells' masses against the spec's closed form of the max statistic, and δ
itself by numerical integration of the statistic's densities), and the gap to Poisson
subsampling that ``dpspec conform`` relies on."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from scipy import optimize

from dpspec.accounting import shuffling
from dpspec.accounting.shuffling import (
    max_cells,
    shuffled_gaussian_delta,
    shuffled_gaussian_epsilon,
)
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import (
    CheckOutcome,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
    stop_if_failed,
)
from dpspec.spec import accounting as stated

#: (σ, T, E, relation) of the upper-bound cases; δ targets and ε levels read.
UPPER_CASES = ((2.0, 10, 2, "zero-out"), (2.0, 10, 5, "substitution"), (3.0, 3, 10, "zero-out"))
UPPER_DELTAS = (1e-5, 1e-3)
UPPER_LEVELS = (0.5, 2.0)
#: How far above the spec's closed form ε_hi (absolute) and δ_hi (relative) may lie.
UPPER_TOLERANCE = 1e-9
#: The sensitivity of each relation (the module docstring of dpspec.accounting.shuffling).
SENSITIVITY = {"zero-out": 1.0, "substitution": 2.0}

#: One case's failures and its measure (a distance, a width or a ratio).
CaseRun = Callable[..., tuple[list[str], float]]


def _each(
    config: VerifyConfig, label: str, cases: Sequence[tuple[Any, ...]], run: CaseRun
) -> tuple[list[str], list[float]]:
    """Every case run, its failures labelled (ending at the first under a bug control), and
    the measures."""
    failures: list[str] = []
    measures: list[float] = []
    for case in cases:
        found, measure = run(*case)
        measures.append(measure)
        failures += [f"{label} {case}: {text}" for text in found]
        stop_if_failed(config, not found, failures[-1] if found else "")
    return failures, measures


def _upper_case(sigma: float, batches: int, epochs: int, relation: str) -> tuple[list[str], float]:
    """Failures of one case's ε_hi and δ_hi against the spec's μ-composition, and the largest
    distance found (ε_hi − ε, or (δ_hi − δ)/δ)."""
    mu = SENSITIVITY[relation] * math.sqrt(epochs) / sigma
    out, worst = [], 0.0
    for delta in UPPER_DELTAS:
        hi = float(shuffled_gaussian_epsilon(sigma, batches, epochs, delta, relation).hi)
        expected = stated.gaussian_epsilon(delta, mu)
        worst = max(worst, abs(hi - expected))
        if not 0 <= hi - expected <= UPPER_TOLERANCE:
            out.append(f"ε_hi({delta:g}) = {hi!r}, the closed form {expected!r}")
    for eps in UPPER_LEVELS:
        hi = float(shuffled_gaussian_delta(sigma, batches, epochs, eps, relation).hi)
        expected = stated.gaussian_delta(eps, mu)
        gap = (hi - expected) / expected
        worst = max(worst, abs(gap))
        if not 0 <= gap <= UPPER_TOLERANCE:
            out.append(f"δ_hi({eps:g}) = {hi!r}, the closed form {expected!r}")
    return out, worst


@Obligation(
    id="accounting.shuffled-upper-mu-composition",
    source=(
        "Dong, Roth & Su 2022 (Gaussian differential privacy: composition, arXiv:1905.02383); "
        "Balle & Wang 2018, Thm 8 (the Gaussian mechanism's curve); joint convexity of the "
        "hockey-stick divergence over the data-independent permutations"
    ),
    claim=(
        "the shuffled accountant's ε_hi(δ) (δ ∈ {10^-5, 10^-3}) and δ_hi(ε) (ε ∈ {1/2, 2}) "
        "for (σ, T, E) ∈ {(2, 10, 2) zero-out, (2, 10, 5) substitution, (3, 3, 10) "
        "zero-out} are the μ-composition's closed form with μ = Δ·√E/σ (Δ = 1 zero-out, "
        "2 substitution), computed in the check from the spec's δ(ε) by bisection: never "
        "below it, at most 1e-9 above (ε absolute, δ relative)"
    ),
    method=Method.PROPERTY,
    predicates=(stated.gaussian_delta, stated.gaussian_epsilon),
    impls=(shuffling,),
    entry_points=(shuffled_gaussian_epsilon, shuffled_gaussian_delta),
    tests=("tests/test_accounting_shuffling.py::test_the_upper_bound_is_unamplified",),
    bug_controls=(
        BugControl(
            "dpspec.accounting.shuffling._mu",
            "(a - b) * math.sqrt(epochs) / noise",
            "(a - b) * epochs / noise",
            "the epochs composed linearly (μ = E/σ instead of √E/σ)",
        ),
        BugControl(
            "dpspec.accounting.shuffling._mu",
            "(a - b) * math.sqrt(epochs) / noise",
            "math.sqrt(epochs) / noise",
            "substitution's sensitivity taken as 1 (the two records' difference is 2)",
        ),
    ),
)
def shuffled_upper_mu_composition(config: VerifyConfig) -> CheckOutcome:
    """Every case of :data:`UPPER_CASES` against the spec's closed form."""
    failures, distances = _each(config, "case", UPPER_CASES, _upper_case)
    worst = max(distances)
    return CheckOutcome(
        not failures,
        f"{len(UPPER_CASES)} cases × {len(UPPER_DELTAS)} δ and {len(UPPER_LEVELS)} ε: the "
        f"upper ends at the μ-composition's closed form, largest distance {worst:.3g} (stated "
        f"≤ {UPPER_TOLERANCE:g}); {len(failures)} failures"
        + (f": {failures[0]}" if failures else ""),
        numbers={"largest distance": worst, "failures": len(failures)},
        slack=[Slack("distance to the closed form", UPPER_TOLERANCE, worst)],
    )


#: (σ, T, relation) of the cell cases.
CELL_CASES = ((1.0, 2, "zero-out"), (0.5, 2, "substitution"), (1.0, 100, "zero-out"))
#: A cell bracket may miss the spec's mass by this part of its scale s times 1 + |ln s| (the
#: spec's float error is ~10^-15 of that; the accountant's margin 2·10^-12·λ, λ ≈ |ln s|).
CELL_TOLERANCE = 1e-13
#: The widest a cell bracket may be, in the same unit.
CELL_WIDTH = 1e-10


def _spec_masses(
    edges: list[float], shift: float, sigma: float, batches: int
) -> tuple[list[float], list[float]]:
    """The spec's masses of the K + 2 cells of M, each with its scale (the smaller of the
    two cdf ends' sum and the two survival ends' sum, the side the mass is taken from)."""
    ends = [stated.max_of_shifted_cdf(c, shift, sigma, batches) for c in edges]
    masses, scales = [ends[0][0]], [ends[0][0]]
    for (f0, s0), (f1, s1) in itertools.pairwise(ends):
        if f0 + f1 <= s0 + s1:
            masses.append(f1 - f0)
            scales.append(f0 + f1)
        else:
            masses.append(s0 - s1)
            scales.append(s0 + s1)
    masses.append(ends[-1][1])
    scales.append(ends[-1][1])
    return masses, scales


def _cell_case(sigma: float, batches: int, relation: str) -> tuple[list[str], float]:
    """Failures of one case's cell brackets against the spec's masses, and the widest
    bracket (in units of its scale times 1 + |ln scale|)."""
    cells = max_cells(sigma, batches, relation)
    edges = cells.edges.tolist()
    out, widest = [], 0.0
    a, b = shuffling.SHIFTS[relation]
    for law, shift, lo, hi in (("P", a, cells.p_lo, cells.p_hi), ("Q", b, cells.q_lo, cells.q_hi)):
        masses, scales = _spec_masses(edges, shift, sigma, batches)
        for j, (m, scale) in enumerate(zip(masses, scales, strict=True)):
            unit = (scale * (1 + abs(math.log(scale))) if scale > 0 else 0.0) + 1e-300
            slack = CELL_TOLERANCE * unit
            widest = max(widest, (hi[j] - lo[j]) / unit)
            if not (
                lo[j] <= m + slack and m - slack <= hi[j] and hi[j] - lo[j] <= CELL_WIDTH * unit
            ):
                out.append(f"{law} cell {j}: [{lo[j]!r}, {hi[j]!r}] against {m!r}")
                break
        if not (float(np.sum(lo)) <= 1.0 <= float(np.sum(hi))):
            out.append(f"{law}: the brackets' sums [{np.sum(lo)!r}, {np.sum(hi)!r}] miss 1")
    return out, widest


#: (σ, T, relation) of the integration cases (E = 1), the levels ε and targets δ.
TRUE_CASES = ((1.0, 2, "zero-out"), (0.7, 2, "substitution"), (1.5, 3, "zero-out"))
TRUE_LEVELS = (0.25, 1.0, 2.0)
TRUE_DELTAS = (1e-2, 1e-4)
#: The points of the sign scan, and the relative float error allowed the spec's true δ.
SCAN = 801
TRUE_ERROR = 1e-9


def _interval_mass(left: float, right: float, shift: float, sigma: float, batches: int) -> float:
    """P(left < M ≤ right) from the spec's closed form (the cdf or the survival difference,
    whichever is smaller; ±inf ends allowed)."""
    f0, s0 = (
        (0.0, 1.0) if left == -math.inf else stated.max_of_shifted_cdf(left, shift, sigma, batches)
    )
    f1, s1 = (
        (1.0, 0.0) if right == math.inf else stated.max_of_shifted_cdf(right, shift, sigma, batches)
    )
    return f1 - f0 if f0 + f1 <= s0 + s1 else s0 - s1


def _true_delta(eps: float, sigma: float, batches: int, relation: str) -> float:
    """δ(ε) of the max statistic's pair itself (one epoch), the larger direction:
    ∫ (f_P − e^ε f_Q)₊ = Σ over the intervals where f_P > e^ε f_Q of P(I) − e^ε Q(I), the
    intervals' ends the sign changes of f_P − e^ε f_Q on a scan of :data:`SCAN` points
    refined by root finding, the masses from the spec's closed-form cdf."""
    a, b = shuffling.SHIFTS[relation]
    scan = np.linspace(-12.0 * sigma, a + 14.0 * sigma, SCAN).tolist()
    best = 0.0
    for first, second in ((a, b), (b, a)):

        def gap(c: float, first: float = first, second: float = second) -> float:
            p = stated.max_of_shifted_density(c, first, sigma, batches)
            return p - math.exp(eps) * stated.max_of_shifted_density(c, second, sigma, batches)

        signs = [gap(c) > 0 for c in scan]
        ends = [-math.inf]
        ends += [
            optimize.brentq(gap, scan[i - 1], scan[i], xtol=1e-14)
            for i in range(1, SCAN)
            if signs[i] != signs[i - 1]
        ]
        ends.append(math.inf)
        total, positive = 0.0, signs[0]
        for left, right in itertools.pairwise(ends):
            if positive:
                p = _interval_mass(left, right, first, sigma, batches)
                q = _interval_mass(left, right, second, sigma, batches)
                total += p - math.exp(eps) * q
            positive = not positive
        best = max(best, total)
    return best


def _true_case(sigma: float, batches: int, relation: str) -> tuple[list[str], float]:
    """Failures of one integration case, and the smallest δ_lo/δ found (the tightness)."""
    out, tightest = [], math.inf
    for eps in TRUE_LEVELS:
        true = _true_delta(eps, sigma, batches, relation)
        err = TRUE_ERROR * true
        bracket = shuffled_gaussian_delta(sigma, batches, 1, eps, relation)
        lo, hi = float(bracket.lo), float(bracket.hi)
        tightest = min(tightest, lo / true if true > 0 else math.inf)
        if not stated.interval_contains(lo - err, hi + err, true):
            out.append(f"δ({eps}): the true {true!r} ± {err:.2g} outside [{lo!r}, {hi!r}]")
    for delta in TRUE_DELTAS:
        bracket = shuffled_gaussian_epsilon(sigma, batches, 1, delta, relation)
        true = _true_delta(float(bracket.lo), sigma, batches, relation)
        err = TRUE_ERROR * true
        if not (true + err > delta and bracket.lo <= bracket.hi):  # ε_lo < the true ε(δ)
            out.append(f"ε({delta}) bracket lo {float(bracket.lo)!r}: true δ there {true!r}")
    return out, tightest


@Obligation(
    id="accounting.shuffled-lower-below-true",
    source=(
        "Chua, Ghazi, Kamath, Kumar, Manurangsi, Sinha & Zhang 2024, How private are DP-SGD "
        "implementations? (ICML, arXiv:2403.17673): the max-of-batches statistic; the "
        "hockey-stick divergence of a post-processing is at most the pair's"
    ),
    claim=(
        "the shuffled accountant's cell brackets of M = max_i x_i (σ, T) ∈ {(1, 2) zero-out, "
        "(1/2, 2) substitution, (1, 100) zero-out} contain the spec's closed-form masses "
        "(math.erfc, to 10^-13 of each cell's scale s times 1 + |ln s|) and are at most "
        "10^-10 of that wide; and "
        "for one epoch ((1, 2) zero-out, (0.7, 2) substitution, (1.5, 3) zero-out) its δ "
        "bracket at ε ∈ {1/4, 1, 2} contains the max statistic's true δ(ε) (the larger "
        "direction, from the spec's closed-form cdf between the sign changes of its densities' "
        "difference, to 10^-9 relative) and its "
        "ε(δ) lower end at δ ∈ {10^-2, 10^-4} is below the statistic's true ε(δ)"
    ),
    method=Method.PROPERTY,
    predicates=(
        stated.max_of_shifted_cdf,
        stated.max_of_shifted_density,
        stated.interval_contains,
    ),
    impls=(shuffling,),
    entry_points=(max_cells, shuffled_gaussian_delta, shuffled_gaussian_epsilon),
    tests=(
        "tests/test_accounting_shuffling.py::test_cells_are_laws",
        "tests/test_accounting_shuffling.py::test_one_batch_is_the_gaussian_mechanism",
    ),
    bug_controls=(
        BugControl(
            "dpspec.accounting.shuffling._masses",
            "np.nextafter(f_lo[1:] - f_hi[:-1], down)",
            "np.nextafter(f_hi[1:] - f_lo[:-1], down)",
            "a cell's lower mass bound rounded up (the cdf's upper end minus its lower end)",
        ),
        BugControl(
            "dpspec.accounting.shuffling._cdf_bounds",
            "- (batches - 1) * special.log_ndtr(",
            "- (batches - 2) * special.log_ndtr(",
            "the max taken over T − 1 coordinates (one batch too few)",
        ),
        BugControl(
            "dpspec.accounting.shuffling._lower_bounds",
            "pld.compose([grid] * epochs, False)",
            "pld.compose([grid] * (epochs + 1), False)",
            "the epoch count off by one (E + 1 copies of the epoch composed)",
        ),
    ),
)
def shuffled_lower_below_true(config: VerifyConfig) -> CheckOutcome:
    """The cells of :data:`CELL_CASES` against the spec, then :data:`TRUE_CASES` against the
    integrated δ."""
    failures, widths = _each(config, "cells", CELL_CASES, _cell_case)
    more, ratios = _each(config, "δ", TRUE_CASES, _true_case)
    failures += more
    tightest = min(ratios)
    return CheckOutcome(
        not failures,
        f"{len(CELL_CASES)} cell laws × 2 ({shuffling.CELLS + 2} cells each) inside their "
        f"brackets (widest {max(widths):.3g} of the scale, stated ≤ {CELL_WIDTH:g}); "
        f"{len(TRUE_CASES)} one-epoch cases: the true δ inside [δ_lo, δ_hi] at "
        f"{len(TRUE_LEVELS)} levels (smallest δ_lo/δ_true {tightest:.4f}) and ε_lo below the "
        f"true ε at {len(TRUE_DELTAS)} targets; {len(failures)} failures"
        + (f": {failures[0]}" if failures else ""),
        numbers={"smallest lo/true": tightest, "failures": len(failures)},
        slack=[Slack("δ_true / δ_lo", 1.0, tightest)],
    )


#: The gap's parameters: σ, T, the epochs E, δ.
GAP_NOISE, GAP_BATCHES, GAP_EPOCHS, GAP_DELTA = 1.0, 100, (1, 3, 10), 1e-5


@Obligation(
    id="accounting.shuffled-exceeds-poisson",
    source=(
        "Chua et al. 2024 (ICML, arXiv:2403.17673) and Chua et al. 2024, Scalable DP-SGD: "
        "shuffling vs. Poisson subsampling (NeurIPS, arXiv:2411.04205): shuffling's ε can "
        "exceed the Poisson value; Mironov, Talwar & Zhang 2019 (arXiv:1908.10530): the "
        "sampled Gaussian's RDP, an upper bound on the Poisson ε"
    ),
    claim=(
        "at σ = 1, T = 100 batches, E ∈ {1, 3, 10} epochs and δ = 10^-5, the shuffled "
        "accountant's certified ε_lo (zero-out) exceeds an upper bound on ε(δ) of Poisson "
        "subsampling at q = 1/T over T·E steps (the spec's RDP bound, integer orders 2–128): "
        "an accountant that reports the Poisson value for shuffled batches reports less than "
        "the true ε"
    ),
    method=Method.PROPERTY,
    predicates=(stated.poisson_gaussian_epsilon_upper, stated.sampled_gaussian_rdp),
    impls=(shuffling,),
    entry_points=(shuffled_gaussian_epsilon,),
    tests=("tests/test_accounting_shuffling.py::test_shuffling_exceeds_poisson",),
    bug_controls=(
        BugControl(
            shuffling.max_cells,
            "a, b = SHIFTS[relation]",
            "a, b = (1.0, 0.0) if relation == 'zero-out' else SHIFTS[relation]",
            "the lower pair with the other records contributing 0 (the differing record's "
            "batch hidden: a bound several times smaller at σ = 1)",
        ),
    ),
)
def shuffled_exceeds_poisson(config: VerifyConfig) -> CheckOutcome:
    """ε_lo(shuffle) against the Poisson upper bound at each of :data:`GAP_EPOCHS`."""
    failures: list[str] = []
    smallest = math.inf
    rows = []
    for epochs in GAP_EPOCHS:
        lo = float(shuffled_gaussian_epsilon(GAP_NOISE, GAP_BATCHES, epochs, GAP_DELTA).lo)
        poisson = stated.poisson_gaussian_epsilon_upper(
            1 / GAP_BATCHES, GAP_NOISE, GAP_BATCHES * epochs, GAP_DELTA
        )
        smallest = min(smallest, lo / poisson)
        rows.append(f"E={epochs}: {lo:.3f} > {poisson:.3f}")
        if not lo > poisson:
            failures.append(f"E = {epochs}: ε_lo(shuffle) {lo!r} ≤ ε_hi(Poisson) {poisson!r}")
        stop_if_failed(config, lo > poisson, failures[-1] if failures else "")
    return CheckOutcome(
        not failures,
        f"σ = {GAP_NOISE:g}, T = {GAP_BATCHES}, δ = {GAP_DELTA:g}: ε_lo(shuffle) against "
        f"ε_hi(Poisson, RDP) — {'; '.join(rows)}; smallest ratio {smallest:.3f}; "
        f"{len(failures)} failures" + (f": {failures[0]}" if failures else ""),
        numbers={"smallest ratio": smallest, "failures": len(failures)},
        slack=[Slack("ε_lo(shuffle) / ε_hi(Poisson)", smallest, 1.0)],
    )
