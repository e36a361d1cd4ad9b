"""The accountant's checks: the exact loss distributions against the enumerated product laws
(:mod:`.enumerated`), pure composition in closed form, and the grid engine against the
Gaussian mechanism's closed-form curve."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

from dpspec.accounting import (
    LossDistribution,
    PrivacyCurve,
    discrete_laplace_curve,
    pairs,
    pld,
    privacy_curve,
    randomized_response_curve,
    subsampled,
)
from dpspec.accounting import exact as accountant
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import (
    CheckOutcome,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
    stop_if_failed,
)
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY, THESIS
from dpspec.proofs.topics.accounting.enumerated import (
    COPIES,
    DELTAS,
    EPSILONS,
    RATIOS,
    WIDTH,
    Tally,
    compare,
    instances,
)
from dpspec.spec import accounting as stated
from dpspec.spec.laws import randomized_response_spec, two_sided_pmf
from dpspec.spec.privacy import hockey_stick


@Obligation(
    id="accounting.exact-interval-contains-enumerated",
    source=(
        f"{BAYES_CONSISTENCY}:L15 (Def 1.1: (ε, δ)-DP on one pair, whose least δ is the "
        "hockey-stick divergence of the output laws); Zhu, Dong & Wang 2022 and Balle, "
        "Barthe & Gaboardi 2018 (Poisson subsampling, the add and remove pairs)"
    ),
    claim=(
        "for randomized response (k ∈ {2, 3}, e^ε ∈ {2, 3/2, 1 + 2^-60}) and a pair with an "
        "atom at ∞, each Poisson-subsampled at p ∈ {1/2, 1/5} or not, and the discrete Laplace "
        "count (q ∈ {1/2, 2/3}) subsampled at p = 1/5 or not, composed 1–4 times, in both "
        "directions (remove and add when subsampled): the accountant's "
        "exact δ at e^ε ∈ {1, 6/5} equals the hockey-stick divergence of the enumerated product "
        "laws (lies in its enclosure for the windowed discrete Laplace, width < 10^-5), its "
        "certified δ(1/4) bracket contains the enumerated one (meets it), and its ε(1/100) "
        "bracket of width ≤ 2^-10 is certified by the enumeration (never refuted) — exactly, "
        "in Fractions"
    ),
    method=Method.EXACT,
    predicates=(
        hockey_stick,
        stated.product_laws_upto,
        stated.hockey_stick_enclosure,
        stated.hockey_stick_enclosure_at,
        stated.exp_bounds,
        stated.unreached_mass,
        stated.poisson_subsampled,
        stated.interval_contains,
        stated.intervals_meet,
        randomized_response_spec,
        two_sided_pmf,
    ),
    impls=(accountant, pairs),
    entry_points=(
        LossDistribution.power,
        LossDistribution.delta_at_ratio,
        LossDistribution.delta_at,
        LossDistribution.epsilon_at,
        PrivacyCurve.power,
        privacy_curve,
        randomized_response_curve,
        discrete_laplace_curve,
        subsampled,
    ),
    tests=(
        "tests/test_accounting.py::test_delta_is_monotone_and_a_probability",
        "tests/test_accounting.py::test_the_reversed_distribution_is_the_swapped_pair",
    ),
    bug_controls=(
        BugControl(
            subsampled,
            "add = _mixture_pair(curve.backward, rate, mixed_first=False)",
            "add = _mixture_pair(curve.backward, rate, mixed_first=True)",
            "the subsampled add direction built with the remove relation's pair "
            "((1 − p)·Q + p·P against Q instead of P against (1 − p)·P + p·Q)",
        ),
        BugControl(
            subsampled,
            "return PrivacyCurve(remove, add)",
            "return PrivacyCurve(remove, remove)",
            "the subsampled curve's add direction dropped (the remove pair in both)",
        ),
        BugControl(
            LossDistribution.delta_at,
            "lower = _delta(self.atoms, self.infinite, hi_ratio)",
            "lower = _delta(self.atoms, self.infinite, lo_ratio)",
            "the δ(ε) bracket rounded inward on one side (both ends at the lower bound of e^ε)",
        ),
        BugControl(
            "dpspec.accounting.exact._merged",
            "key = ratio",
            "key = float(ratio)",
            "equal ratios merged by float equality (1 + 2^-60, 1 and 1/(1 + 2^-60) one atom)",
        ),
        BugControl(
            "dpspec.accounting.exact._delta",
            "return total + infinite",
            "return total",
            "the atom at ∞ dropped from δ",
        ),
    ),
)
def exact_interval_contains_enumerated(config: VerifyConfig) -> CheckOutcome:
    """Every instance of :mod:`.enumerated`, every rate, copy count and direction: the exact δ,
    the certified δ(ε) bracket and the ε(δ) bracket against the enumerated product laws."""
    tally = Tally()
    found = instances()
    for inst in found:
        compare(inst, config, tally)
    ok = not tally.failures
    detail = (
        f"{len(found)} instances × their rates × {COPIES} copy counts × 2 directions = "
        f"{tally.compared} loss distributions against the enumerated product laws at e^ε in "
        f"{[str(r) for r in RATIOS]}, ε in {list(EPSILONS)}, δ in {[str(d) for d in DELTAS]}: "
        f"{len(tally.failures)} failures; ε(δ) brackets certified {tally.certified}, undecided "
        f"by a window's enclosure {tally.undecided}, widest {float(tally.widest):.3g} "
        f"(stated ≤ 2^-10)" + (f"; first: {tally.failures[0]}" if tally.failures else "")
    )
    return CheckOutcome(
        ok,
        detail,
        numbers={
            "compared": tally.compared,
            "certified": tally.certified,
            "undecided": tally.undecided,
            "failures": len(tally.failures),
        },
        slack=[Slack("ε bracket width", float(WIDTH), float(tally.widest))],
    )


#: Two-point curves whose largest ratio is e^ε: randomized response on 2 values (e^ε = r)
#: and the discrete Laplace count (e^ε = 1/q).
PURE_CURVES: tuple[tuple[str, Fraction, Callable[[], PrivacyCurve]], ...] = (
    ("RR k=2 e^eps=2", Fraction(2), lambda: randomized_response_curve(2, Fraction(2))),
    ("RR k=2 e^eps=3/2", Fraction(3, 2), lambda: randomized_response_curve(2, Fraction(3, 2))),
    ("RR k=2 e^eps=5/4", Fraction(5, 4), lambda: randomized_response_curve(2, Fraction(5, 4))),
    ("discrete Laplace q=1/2", Fraction(2), lambda: discrete_laplace_curve(Fraction(1, 2))),
    ("discrete Laplace q=2/3", Fraction(3, 2), lambda: discrete_laplace_curve(Fraction(2, 3))),
)
#: Copies composed.
PURE_COPIES = (1, 2, 3, 4, 6)
#: Width of the ε(0) bracket.
PURE_WIDTH = Fraction(1, 2**20)


def _pure_case(curve: PrivacyCurve, ratio: Fraction, copies: int) -> tuple[list[str], float]:
    """Failures of one curve composed ``copies`` times, and the ε(0) bracket's upper end."""
    out = []
    composed = curve.power(copies)
    top = stated.pure_composition(ratio, copies)  # e^{kε}
    if composed.delta_at_ratio(top) != 0:
        out.append(f"δ at e^(kε) = {composed.delta_at_ratio(top)}, not 0")
    below = (
        stated.pure_composition(ratio, copies - 1) * (1 + ratio) / 2,
        top * (1 - Fraction(1, 2**20)),
    )
    for r in below:  # between e^{(k−1)ε} and e^{kε}, and just below e^{kε}
        if not composed.delta_at_ratio(r) > 0:
            out.append(
                f"δ at e^eps' = {float(r):.9g} < e^(kε) is {composed.delta_at_ratio(r)}, not > 0"
            )
    bracket = composed.epsilon_at(0, PURE_WIDTH)
    lo_ok = stated.exp_bounds(Fraction(bracket.lo))[1] <= top  # e^{ε_lo} ≤ e^{kε}
    hi_ok = stated.exp_bounds(Fraction(bracket.hi))[0] >= top  # e^{ε_hi} ≥ e^{kε}
    if not (lo_ok and hi_ok and bracket.hi - bracket.lo <= PURE_WIDTH):
        out.append(f"ε(0) bracket [{float(bracket.lo):.9g}, {float(bracket.hi):.9g}] misses kε")
    return out, float(bracket.hi)


@Obligation(
    id="accounting.pure-composition-closed-form",
    source=f"{THESIS}:L645 (Sec 3.2: differential privacy preserved under composition)",
    claim=(
        "k ∈ {1, 2, 3, 4, 6} copies of a two-point ε-DP curve (randomized response on 2 "
        "values, e^ε ∈ {2, 3/2, 5/4}; the discrete Laplace count, q ∈ {1/2, 2/3}) give "
        "δ = 0 exactly at e^(kε) = (e^ε)^k, δ > 0 at ratios strictly below it (between "
        "e^((k−1)ε) and e^(kε), and e^(kε)·(1 − 2^-20)), and an ε(0) bracket of width "
        "≤ 2^-20 that contains kε"
    ),
    method=Method.EXACT,
    predicates=(stated.pure_composition, stated.exp_bounds),
    impls=(accountant,),
    entry_points=(PrivacyCurve.power, PrivacyCurve.delta_at_ratio, PrivacyCurve.epsilon_at),
    tests=("tests/test_accounting.py::test_epsilon_is_monotone_in_delta",),
    bug_controls=(
        BugControl(
            LossDistribution.power,
            "for _ in range(copies - 1):",
            "for _ in range(copies - 2):",
            "k-fold composition built from one copy too few",
        ),
    ),
)
def pure_composition_closed_form(config: VerifyConfig) -> CheckOutcome:
    """Every two-point curve and copy count of :data:`PURE_CURVES` × :data:`PURE_COPIES`."""
    failures: list[str] = []
    worst = 0.0
    for name, ratio, build in PURE_CURVES:
        curve = build()
        for copies in PURE_COPIES:
            found, upper = _pure_case(curve, ratio, copies)
            failures += [f"{name}, {copies} copies: {text}" for text in found]
            worst = max(worst, upper / (copies * math.log(ratio)))
            stop_if_failed(config, not found, failures[-1] if found else "")
    cases = len(PURE_CURVES) * len(PURE_COPIES)
    return CheckOutcome(
        not failures,
        f"{cases} compositions: δ(kε) = 0 and δ < kε positive, exactly; ε(0) brackets contain "
        f"kε (largest ε_hi/(kε) {worst:.9f}); {len(failures)} failures"
        + (f": {failures[0]}" if failures else ""),
        numbers={"cases": cases, "failures": len(failures)},
        slack=[Slack("ε", 1.0, worst)],
    )


#: The μ_i of each Gaussian composition (μ = √Σ μ_i²), the levels ε and targets δ compared.
GAUSS_CASES = ((0.5, 0.5), (1.0,), (0.3, 0.4), (2.0,))
GAUSS_LEVELS = (0.0, 0.5, 1.0, 2.0)
GAUSS_DELTAS = (1e-3, 1e-5)
#: The bracket's stated width: δ_pessimistic − δ_optimistic ≤ 10^-3 (the grid is 10^-3 nats).
GAUSS_ACCURACY = 1e-3
#: Floating-point slack of the comparison (the closed form's erfc and exp, ~1e-16 each).
GAUSS_TOLERANCE = 1e-12


def _gauss_case(mus: tuple[float, ...]) -> tuple[list[str], float]:
    """Failures of one composition of Gaussian grids, and its widest δ bracket."""
    mu = math.sqrt(sum(m * m for m in mus))
    pessimistic = pld.compose([pld.gaussian_grid(m, True) for m in mus], True)
    optimistic = pld.compose([pld.gaussian_grid(m, False) for m in mus], False)
    error = pld.FFT_ERROR * len(mus)
    out, widest = [], 0.0
    for eps in GAUSS_LEVELS:
        hi, lo, true = (
            pessimistic.delta(eps, error),
            optimistic.delta(eps),
            stated.gaussian_delta(eps, mu),
        )
        widest = max(widest, hi - lo)
        if not (lo - GAUSS_TOLERANCE <= true <= hi + GAUSS_TOLERANCE and hi - lo <= GAUSS_ACCURACY):
            out.append(f"δ({eps}) = {true:.9g} outside [{lo:.9g}, {hi:.9g}]")
    for delta in GAUSS_DELTAS:  # ε(δ) bracketed: the closed form's δ at both ends (the
        # optimistic end at its bisection's resolution, GRID/1000 below what it returns)
        upper, lower = pessimistic.epsilon(delta, error), optimistic.epsilon(delta)
        if not (
            stated.gaussian_delta(upper, mu) <= delta + GAUSS_TOLERANCE
            and stated.gaussian_delta(max(0.0, lower - pld.GRID / 1000), mu)
            >= delta - GAUSS_TOLERANCE
        ):
            out.append(f"ε({delta}) bracket [{lower:.6g}, {upper:.6g}] misses the closed form")
    return out, widest


@Obligation(
    id="accounting.gaussian-closed-form",
    source=(
        "Balle & Wang 2018, Thm 8 (the Gaussian mechanism's exact curve); Sommer, Meiser & "
        "Mohammadi 2019 (privacy loss distributions, pessimistic and optimistic rounding)"
    ),
    claim=(
        "the grid engine's compositions of Gaussian loss grids (μ_i (1/2, 1/2), (1), "
        "(0.3, 0.4), (2)) bracket the closed-form δ(ε) of μ = √Σ μ_i² at ε ∈ {0, 1/2, 1, 2} "
        "between the optimistic and pessimistic grids (to 1e-12), the bracket at most 10^-3 "
        "wide, and their ε(δ) at δ ∈ {10^-3, 10^-5} bracket the closed form's"
    ),
    method=Method.PROPERTY,
    predicates=(stated.gaussian_delta,),
    impls=(pld.gaussian_grid, pld.compose, pld.LossGrid),
    entry_points=(pld.gaussian_grid, pld.compose, pld.LossGrid.delta, pld.LossGrid.epsilon),
    tests=("tests/test_accounting.py::test_the_grid_brackets_the_gaussian_curve",),
    bug_controls=(
        BugControl(
            pld.gaussian_grid,
            "values = np.asarray(ends[1:] if pessimistic else ends[:-1], dtype=np.float64)",
            "values = np.asarray(ends[:-1], dtype=np.float64)",
            "the pessimistic Gaussian grid rounds the loss down (cells at their lower ends)",
        ),
    ),
)
def gaussian_closed_form(config: VerifyConfig) -> CheckOutcome:
    """Every composition of :data:`GAUSS_CASES` against the closed form."""
    failures: list[str] = []
    widest = 0.0
    for mus in GAUSS_CASES:
        found, width = _gauss_case(mus)
        widest = max(widest, width)
        failures += [f"μ_i {mus}: {text}" for text in found]
        stop_if_failed(config, not found, failures[-1] if found else "")
    return CheckOutcome(
        not failures,
        f"{len(GAUSS_CASES)} compositions × {len(GAUSS_LEVELS)} levels: the closed form inside "
        f"[optimistic, pessimistic], widest {widest:.3g} (stated ≤ {GAUSS_ACCURACY:g}); "
        f"ε(δ) bracketed at δ in {list(GAUSS_DELTAS)}; {len(failures)} failures"
        + (f": {failures[0]}" if failures else ""),
        numbers={"widest": widest, "failures": len(failures)},
        slack=[Slack("δ bracket width", GAUSS_ACCURACY, widest)],
    )
