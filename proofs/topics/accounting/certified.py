"""The certified grid accountant's checks (:mod:`dpspec.accounting.certified`,
:mod:`dpspec.accounting.compositions`): its intervals against the exact engine on finite loss
distributions, and the catalogue's closed forms against the spec's."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

from dpspec.accounting import (
    Composition,
    PrivacyCurve,
    certified,
    compositions,
    delta_interval,
    discrete_laplace_curve,
    epsilon_interval,
    privacy_curve,
    randomized_response_curve,
    subsampled,
)
from dpspec.accounting.certified import GridCurve, compose_step, distribution_step, grid_curve
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

#: A pair with an atom at ∞: outcome 2 has P-mass 1/4 and Q-mass 0.
_P_INF = {0: Fraction(1, 2), 1: Fraction(1, 4), 2: Fraction(1, 4)}
_Q_INF = {0: Fraction(1, 2), 1: Fraction(1, 2)}

#: (name, curve, copies, cap): finite curves, composed by the grid and exactly. The swapped
#: pair has its ∞ atom in the add direction (a direction dropped shows); RR e^ε = 8 with cap 2
#: truncates its top atom (loss ln 8 > 2: the tail, at +∞ on the upper side).
EXACT_CASES: tuple[tuple[str, Callable[[], PrivacyCurve], int, float], ...] = (
    (
        "RR k=2 e^eps=3, p=1/5",
        lambda: subsampled(randomized_response_curve(2, Fraction(3)), Fraction(1, 5)),
        16,
        64.0,
    ),
    (
        "RR k=3 e^eps=3, p=1/2",
        lambda: subsampled(randomized_response_curve(3, Fraction(3)), Fraction(1, 2)),
        4,
        64.0,
    ),
    (
        "discrete Laplace q=1/2, p=1/5",
        lambda: subsampled(discrete_laplace_curve(Fraction(1, 2)), Fraction(1, 5)),
        16,
        64.0,
    ),
    ("pair with ∞ in add", lambda: privacy_curve(_Q_INF | {2: Fraction(0)}, _P_INF), 4, 64.0),
    (
        "pair with ∞, p=1/2",
        lambda: subsampled(privacy_curve(_P_INF, _Q_INF), Fraction(1, 2)),
        4,
        64.0,
    ),
    ("RR k=2 e^eps=8, cap 2", lambda: randomized_response_curve(2, Fraction(8)), 2, 2.0),
)
#: The grid step, the target δ and the levels ε read.
EXACT_GRID = 1e-3
EXACT_DELTA = Fraction(1, 100)
EXACT_LEVELS = (0.25, 1.0)
#: The exact ε(δ) bracket's width.
EXACT_WIDTH = Fraction(1, 2**20)
#: The grid ε bracket must be at most this wide where finite (its stated accuracy here).
EXACT_ACCURACY = 0.05


def _exact_case(curve: PrivacyCurve, copies: int, cap: float) -> tuple[list[str], float]:
    """Failures of one case (grid brackets against the exact ones), and its widest finite grid
    ε bracket."""
    steps = (distribution_step(curve.forward, cap), distribution_step(curve.backward, cap))
    exact = curve.power(copies)
    out, widest = [], 0.0
    truth = exact.epsilon_at(EXACT_DELTA, EXACT_WIDTH)
    composed = grid_curve(steps, copies, EXACT_GRID)
    grid = composed.epsilon_bracket(float(EXACT_DELTA))
    if not stated.intervals_meet((grid.lo, grid.hi), (truth.lo, truth.hi)):
        out.append(
            f"ε({EXACT_DELTA}) grid [{grid.lo:.6g}, {grid.hi:.6g}] misses the exact "
            f"[{float(truth.lo):.9g}, {float(truth.hi):.9g}]"
        )
    if math.isfinite(float(grid.hi)):
        widest = float(grid.hi - grid.lo)
    for eps in EXACT_LEVELS:
        found = composed.delta_bracket(eps)
        true = exact.delta_at(eps)
        if not stated.intervals_meet((found.lo, found.hi), (true.lo, true.hi)):
            out.append(
                f"δ({eps}) grid [{found.lo:.9g}, {found.hi:.9g}] misses the exact "
                f"{float(true.lo):.12g}"
            )
    return out, widest


@Obligation(
    id="accounting.grid-interval-contains-exact",
    source=(
        "Gopi, Lee & Wutschitz 2021 (arXiv:2106.02848: mean-preserving discretisation, the "
        "Hoeffding shift); Koskela, Jälkö & Honkela 2020 (arXiv:1906.03049: composition by one "
        "FFT power); the exact loss distributions of dpspec.accounting.exact"
    ),
    claim=(
        "on finite loss distributions (Poisson-subsampled randomized response k ∈ {2, 3}, the "
        "subsampled discrete Laplace count, a pair with an atom at ∞ in either direction, "
        "subsampled or not, randomized response with its top atom truncated), composed 2–16 "
        "times on a 10^-3 grid by one FFT power: the certified ε(1/100) bracket meets the "
        "exact Fraction bracket (width 2^-20) and, where finite, is at most 0.05 wide; the "
        "certified δ(ε) brackets at ε ∈ {1/4, 1} meet the exact ones"
    ),
    method=Method.EXACT,
    predicates=(stated.intervals_meet,),
    impls=(certified,),
    entry_points=(
        distribution_step,
        compose_step,
        grid_curve,
        GridCurve.epsilon_bracket,
        GridCurve.delta_bracket,
    ),
    tests=(
        "tests/test_accounting_grid.py::test_the_grid_contains_the_exact_curve",
        "tests/test_accounting_grid.py::test_one_step_matches_the_integrated_hockey_stick",
    ),
    bug_controls=(
        BugControl(
            GridCurve.epsilon_bracket,
            "found = [d.epsilon_bracket(delta) for d in self.directions]",
            "found = [d.epsilon_bracket(delta) for d in self.directions[:1]]",
            "only the first (remove) direction read: the add direction dropped",
        ),
        BugControl(
            "dpspec.accounting.certified._rounded",
            "v = values + rho if upper else values - rho",
            "v = values - grid if upper else values - rho",
            "the upper side's cell values rounded down a grid step instead of up",
        ),
        BugControl(
            "dpspec.accounting.certified._side",
            "top = step.infinite + step.tail if upper else step.infinite",
            "top = step.infinite if upper else step.infinite",
            "the truncated tail mass dropped on the pessimistic (upper) side",
        ),
        BugControl(
            certified.Side.upper_delta,
            "return min(1.0, self.infinite + value + self.extra + eta)",
            "return min(1.0, value + self.extra + eta)",
            "the composed atom at ∞ left out of the upper δ",
        ),
    ),
)
def grid_interval_contains_exact(config: VerifyConfig) -> CheckOutcome:
    """Every case of :data:`EXACT_CASES` against the exact engine."""
    failures: list[str] = []
    widest = 0.0
    for name, build, copies, cap in EXACT_CASES:
        found, width = _exact_case(build(), copies, cap)
        widest = max(widest, width)
        failures += [f"{name}, {copies} copies: {text}" for text in found]
        stop_if_failed(config, not found, failures[-1] if found else "")
    if widest > EXACT_ACCURACY:
        failures.append(f"a finite ε bracket {widest:.3g} wide (stated ≤ {EXACT_ACCURACY})")
    return CheckOutcome(
        not failures,
        f"{len(EXACT_CASES)} finite curves: the grid's ε({EXACT_DELTA}) and δ(ε) brackets meet "
        f"the exact Fraction ones, widest finite ε bracket {widest:.3g} (stated ≤ "
        f"{EXACT_ACCURACY}); {len(failures)} failures" + (f": {failures[0]}" if failures else ""),
        numbers={"cases": len(EXACT_CASES), "failures": len(failures), "widest": widest},
        slack=[Slack("ε bracket width", EXACT_ACCURACY, widest)],
    )


#: (steps, σ) of the unsubsampled Gaussian compositions; δ targets and ε levels.
GAUSS_CASES = ((1, 1.0), (10, 2.0), (100, 5.0), (1000, 20.0))
GAUSS_DELTAS = (1e-3, 1e-5, 1e-8)
GAUSS_LEVELS = (0.5, 2.0)
#: The closed-form brackets: relative width ≤ 2·10^-9 (+2·10^-12 absolute for ε).
CLOSED_TOLERANCE = 1e-9
#: (steps, b) of the pure Laplace sums, (steps, b, q) of the subsampled ones.
LAPLACE_CASES = ((1, 1.0), (7, 0.5), (50, 3.0))
LAPLACE_SAMPLED = ((10, 1.0, 0.1), (100, 2.0, 0.01))
#: The grid path on an unsubsampled Gaussian (steps, σ, δ), at accuracy 10^-2.
GRID_CASE = (4, 1.0, 1e-5)


def _gauss_closed(failures: list[str], config: VerifyConfig) -> float:
    """The Gaussian closed forms: failures appended, the widest relative bracket returned."""
    widest = 0.0
    for steps, sigma in GAUSS_CASES:
        mu = math.sqrt(steps) / sigma
        c = Composition("gaussian", sigma, "none", 1.0, steps, "add_remove")
        for delta in GAUSS_DELTAS:
            b, true = epsilon_interval(c, delta), stated.gaussian_epsilon(delta, mu)
            width = float(b.hi - b.lo) / true
            widest = max(widest, width)
            stated_width = 2 * CLOSED_TOLERANCE * (1 + 1e-6) + 2e-12 / true
            if not (b.lo <= true <= b.hi and width <= stated_width):
                failures.append(f"gaussian k={steps} σ={sigma}: ε({delta}) = {true!r} vs {b}")
            stop_if_failed(config, not failures, failures[-1] if failures else "")
        for eps in GAUSS_LEVELS:
            d, true = delta_interval(c, eps), stated.gaussian_delta(eps, mu)
            scale = max(true, 1e-300)
            inside = d.lo <= true * (1 + 1e-12) and true * (1 - 1e-12) <= d.hi
            if not (inside and float(d.hi - d.lo) <= 2.1 * CLOSED_TOLERANCE * scale):
                failures.append(f"gaussian k={steps} σ={sigma}: δ({eps}) = {true!r} vs {d}")
    return widest


def _laplace_closed(failures: list[str]) -> None:
    """The pure Laplace sums (exact) and their subsampled levels (to 10^-9)."""
    for steps, scale in LAPLACE_CASES:
        c = Composition("laplace", scale, "none", 1.0, steps, "add_remove")
        b, true = epsilon_interval(c, 0.0), stated.laplace_pure_epsilon(steps, Fraction(scale))
        if not (b.lo == b.hi == true):
            failures.append(f"laplace k={steps} b={scale}: ε(0) = {true} vs {b}")
        if delta_interval(c, float(true)).hi != 0:
            failures.append(f"laplace k={steps} b={scale}: δ is not 0 exactly from kε on")
    for steps, scale, rate in LAPLACE_SAMPLED:
        c = Composition("laplace", scale, "poisson", rate, steps, "add_remove")
        b = epsilon_interval(c, 0.0)
        level = steps * max(stated.subsampled_pure_epsilon(1 / scale, rate))
        if not (b.lo <= level * (1 + 1e-12) and level * (1 - 1e-12) <= b.hi):
            failures.append(f"laplace k={steps} b={scale} q={rate}: ε(0) = {level!r} vs {b}")
        if float(b.hi - b.lo) > 2 * CLOSED_TOLERANCE * level:
            failures.append(f"laplace k={steps} b={scale} q={rate}: ε(0) bracket too wide {b}")


@Obligation(
    id="accounting.closed-forms",
    source=(
        "Balle & Wang 2018, Thm 8 (the Gaussian mechanism's δ(ε)); Dong, Roth & Su 2022 "
        "(Gaussian differential privacy: μ-composition, μ = √k/σ); the pure composition "
        "theorem (k·ε at δ = 0)"
    ),
    claim=(
        "the catalogue's unsubsampled Gaussian compositions (k ∈ {1, 10, 100, 1000}) give ε(δ) "
        "brackets at δ ∈ {10^-3, 10^-5, 10^-8} and δ(ε) brackets at ε ∈ {1/2, 2} that contain "
        "the spec's closed form of μ = √k/σ and are at most 2·10^-9 wide relative; the "
        "general grid path (method='grid') contains it too; the Laplace sums give ε(0) = k/b "
        "exactly (a Fraction) and δ(ε) = 0 exactly from k/b on; the "
        "Poisson-subsampled Laplace's ε(0) is k·max(log(1 + q(e^{1/b} − 1)), "
        "−log(1 + q(e^{−1/b} − 1))) to 10^-9"
    ),
    method=Method.EXACT,
    predicates=(
        stated.gaussian_epsilon,
        stated.gaussian_delta,
        stated.laplace_pure_epsilon,
        stated.subsampled_pure_epsilon,
    ),
    impls=(compositions,),
    entry_points=(epsilon_interval, delta_interval),
    tests=("tests/test_accounting_grid.py::test_closed_forms_agree_with_the_grid_path",),
    bug_controls=(
        BugControl(
            "dpspec.accounting.compositions._mu",
            "return math.sqrt(c.steps) / c.noise",
            "return c.steps / c.noise",
            "μ-composition as k/σ instead of √k/σ",
        ),
        BugControl(
            "dpspec.accounting.compositions._pure",
            "value = Fraction(c.steps) / Fraction(c.noise)",
            "value = Fraction(c.steps - 1) / Fraction(c.noise)",
            "the pure Laplace sum one step short",
        ),
        BugControl(
            "dpspec.accounting.compositions._pure",
            "one = max(math.log1p(q * math.expm1(inv)), -math.log1p(q * math.expm1(-inv)))",
            "one = math.log1p(q * math.expm1(inv)) * 0.8",
            "the subsampled pure level 20% low",
        ),
        BugControl(
            epsilon_interval,
            "lo = max(0.0, eps * (1 - CLOSED_FORM_WIDENING) - 1e-12)",
            "lo = max(0.0, eps * (1 + CLOSED_FORM_WIDENING))",
            "the closed-form bracket's lower end widened the wrong way (above the value)",
        ),
    ),
)
def closed_forms(config: VerifyConfig) -> CheckOutcome:
    """The Gaussian and Laplace closed forms, and one grid-path Gaussian."""
    failures: list[str] = []
    widest = _gauss_closed(failures, config)
    stop_if_failed(config, not failures, failures[-1] if failures else "")
    _laplace_closed(failures)
    stop_if_failed(config, not failures, failures[-1] if failures else "")
    steps, sigma, delta = GRID_CASE
    c = Composition("gaussian", sigma, "none", 1.0, steps, "add_remove")
    grid = epsilon_interval(c, delta, accuracy=1e-2, method="grid")
    true = stated.gaussian_epsilon(delta, math.sqrt(steps) / sigma)
    if not (grid.lo <= true <= grid.hi and float(grid.hi - grid.lo) <= 1e-2 * true):
        failures.append(f"grid path k={steps} σ={sigma}: ε({delta}) = {true!r} vs {grid}")
    return CheckOutcome(
        not failures,
        f"{len(GAUSS_CASES)} Gaussian compositions × {len(GAUSS_DELTAS)} δ and "
        f"{len(GAUSS_LEVELS)} ε against μ = √k/σ (widest relative bracket {widest:.3g}, stated "
        f"≤ 2e-9); {len(LAPLACE_CASES)} Laplace sums exact, {len(LAPLACE_SAMPLED)} subsampled; "
        f"the grid path contains the closed form; {len(failures)} failures"
        + (f": {failures[0]}" if failures else ""),
        numbers={"failures": len(failures), "widest": widest},
        slack=[Slack("relative ε bracket width", 2 * CLOSED_TOLERANCE, widest)],
    )
