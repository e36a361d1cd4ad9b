"""Checks of ``conform_accountant`` (:mod:`dpspec.conform.accountants`): its reference against
closed forms written here, and its verdicts on control accountants whose truth is known.

* ``conform.accountant-reference-closed-form``: every closed-form row of the grid (the
  unsubsampled Gaussian, the pure Laplace sums) read through ``conform_accountant`` — the
  reference's [ε_lo, ε_hi] (:func:`dpspec.accounting.epsilon_interval`) and dpspec's own
  report against the closed form evaluated here, independently of the code under test: the
  Gaussian δ(ε) of :func:`dpspec.spec.accounting.gaussian_delta` (in logs, with the asymptotic
  series of log Φ, where e^ε overflows), the pure sum T/b exactly.
* ``conform.accountant-verdicts``: control accountants — dpspec's own (ε_hi: must conform on
  every row), one that reports the optimistic side of a grid (the optimistic privacy loss
  distribution of :mod:`dpspec.accounting.pld`), one 2× off upward (must be loose) and one
  that accounts only the *add* direction of Poisson subsampling (randomized response, in
  exact arithmetic, where *remove* dominates; and of the Poisson-subsampled Gaussian, on
  dpspec's own grid engine, judged against the reference's grid interval). Each verdict
  "unsafe" must coincide with what the closed form, or the enumerated product laws of
  :mod:`dpspec.spec.accounting`, state: δ(reported) > δ; each control must be caught on at
  least one row.
"""

from __future__ import annotations

import importlib.util
import math
from fractions import Fraction

from dpspec.accounting import (
    Bracket,
    Composition,
    epsilon_interval,
    pld,
    randomized_response_curve,
    subsampled,
)
from dpspec.accounting.certified import compose_step
from dpspec.accounting.compositions import composition_steps
from dpspec.conform import accountant_libraries, accountants
from dpspec.conform.accountants import (
    GRID,
    AccountantResult,
    Row,
    conform_accountant,
    judge,
    reference_accountant,
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
from dpspec.spec.laws import as_interval, randomized_response_spec

#: a float comparison of δ's closer than this (relative) is not called either way
RELATIVE = 1e-9


def _log_sf(x: float) -> float:
    """log P(N(0, 1) > x): from erfc while it is representable, else the asymptotic series
    log(φ(x)/x) + log(1 − 1/x² + 3/x⁴ − …) (8 terms: relative error < 10^-14 for x ≥ 20)."""
    if x < 20:
        return math.log(0.5 * math.erfc(x / math.sqrt(2)))
    series, term = 1.0, 1.0
    for n in range(1, 9):
        term *= -(2 * n - 1) / (x * x)
        series += term
    return -x * x / 2 - math.log(x * math.sqrt(2 * math.pi)) + math.log(series)


def gaussian_delta(epsilon: float, mu: float) -> float:
    """δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (Balle & Wang 2018): the spec's formula where
    e^ε is a float (ε < 600), else the same in logs (its e^ε overflows)."""
    if epsilon < 600:
        return stated.gaussian_delta(epsilon, mu)
    first = math.exp(_log_sf(epsilon / mu - mu / 2))
    return first - math.exp(epsilon + _log_sf(epsilon / mu + mu / 2))


def _side(value: float, delta: float) -> int:
    """+1: δ(ε) > δ; −1: ≤ δ; 0: within RELATIVE of δ (floats do not decide)."""
    if value > delta * (1 + RELATIVE):
        return 1
    return -1 if value <= delta * (1 - RELATIVE) else 0


def closed_form_side(row: Row, epsilon: float) -> int:
    """Whether the row's true δ at ``epsilon`` exceeds its δ (+1), is at most it (−1), or
    floats cannot say (0), from the closed forms written here."""
    c = row.composition
    if c.mechanism == "gaussian":
        if row.delta == 0:
            return 1  # δ(ε) > 0 at every finite ε
        return _side(gaussian_delta(epsilon, math.sqrt(c.steps) / c.noise), row.delta)
    eps0 = 1 / c.noise
    if row.delta == 0:  # the pure sum: δ(ε) = 0 exactly from T·ε₀ on
        return 1 if Fraction(epsilon) < c.steps / Fraction(c.noise) else -1
    assert c.steps == 1
    value = 0.0 if epsilon >= eps0 else -math.expm1((epsilon - eps0) / 2)
    return _side(value, row.delta)


def _closed_rows() -> list[Row]:
    """The rows the reference answers in closed form (the unsubsampled Gaussian, the pure
    Laplace sums); the one-step Laplace rows at δ > 0 take the reference's grid path (0.1 s
    each) and are the tests' and the benchmark's."""
    return [
        r
        for r in GRID
        if r.composition.sampling == "none"
        and (r.composition.mechanism == "gaussian" or r.delta == 0)
    ]


@Obligation(
    id="conform.accountant-reference-closed-form",
    source=(
        "Balle & Wang 2018 (the Gaussian mechanism's exact curve); Dong, Roth & Su 2022 "
        "(μ-GDP composition, μ = √T/σ); the Laplace pair's hockey-stick divergence"
    ),
    claim=(
        "for every closed-form row of the accountant grid (the unsubsampled Gaussian, σ ∈ "
        "{0.5, 10}, T ∈ {1, 100, 10^4}, δ ∈ {10^-5, 10^-12, 0.1}, add/remove, and T = 100 "
        "under substitution; the Laplace sums b ∈ {1, 10}, T ∈ {100, 10^4} at δ = 0), read "
        "through conform_accountant with dpspec's own accountant: the reference's interval "
        "[ε_lo, ε_hi] brackets ε(δ) by the closed form evaluated independently — δ(ε_hi) ≤ δ "
        "and (ε_lo = 0 or δ(ε_lo) > δ), floats within 10^-9 relative of δ not deciding — and "
        "the report satisfies δ(report) ≤ δ; the pure sums exactly T/b"
    ),
    method=Method.PROPERTY,
    predicates=(stated.gaussian_delta,),
    impls=(accountants, epsilon_interval),
    entry_points=(conform_accountant, reference_accountant),
    tests=("tests/test_conform_accountants.py::test_the_reference_brackets_the_closed_form",),
    bug_controls=(
        BugControl(
            reference_accountant,
            "return float(epsilon_interval(composition, delta).hi)",
            "return float(epsilon_interval(composition, delta).lo)",
            "dpspec's own accountant reporting the optimistic end of its interval",
        ),
        BugControl(
            "dpspec.conform.accountants._row",
            "lo = None if interval is None else float(interval.lo)",
            "lo = None if interval is None else float(interval.hi)",
            "a row's lower end recorded from the interval's upper end",
        ),
    ),
)
def accountant_reference_closed_form(config: VerifyConfig) -> CheckOutcome:
    """Every closed-form row: the reference's bracket and dpspec's own report against the
    closed form, read through the public entry point (``conform_accountant``)."""
    rows = _closed_rows()
    result = conform_accountant(reference_accountant, rows)
    failures: list[str] = []
    undecided, widest = 0, 0.0
    for row, report in zip(rows, result.rows, strict=True):
        if report.lo is None or report.hi is None:
            failures.append(f"{row.label}: no interval ({report.why})")
            continue
        if report.reported is None or closed_form_side(row, report.reported) > 0:
            failures.append(f"{row.label}: dpspec's own report {report.reported} is not safe")
        top = closed_form_side(row, report.hi)
        bottom = 1 if report.lo == 0 else closed_form_side(row, report.lo)
        if row.delta == 0 and row.composition.mechanism == "laplace":
            exact = row.composition.steps / Fraction(row.composition.noise)
            if not Fraction(report.lo) == Fraction(report.hi) == exact:
                failures.append(f"{row.label}: [{report.lo}, {report.hi}] is not T·ε₀ = {exact}")
            continue
        undecided += (top == 0) + (bottom == 0 and report.lo != 0)
        if top > 0 or bottom < 0:
            failures.append(
                f"{row.label}: [{report.lo:.9g}, {report.hi:.9g}] misses the closed form "
                f"(δ at ε_hi {'above' if top > 0 else 'ok'}, at ε_lo "
                f"{'at most δ' if bottom < 0 else 'ok'})"
            )
        widest = max(widest, (report.hi - report.lo) / max(1.0, report.hi))
        stop_if_failed(config, not failures, failures[-1] if failures else "")
    return CheckOutcome(
        not failures,
        f"{len(rows)} closed-form rows: the reference's interval brackets the closed form "
        f"(widest relative width {widest:.3g}; {undecided} ends floats did not decide); "
        f"{len(failures)} failures" + (f": {failures[0]}" if failures else ""),
        numbers={"rows": len(rows), "undecided": undecided, "failures": len(failures)},
        slack=[Slack("relative width", 1e-6, widest)],
    )


def _optimistic_grid(composition: object, delta: float) -> float:
    """A control accountant: ε(δ) of the *optimistic* grid of the Gaussian loss (rounded
    down), as an accountant that keeps the wrong side of its discretisation would report."""
    c = composition
    assert isinstance(c, Composition)
    if c.mechanism != "gaussian" or c.sampling != "none":
        raise accountants.NotExpressible("the control covers unsubsampled Gaussians")
    mu = math.sqrt(c.steps) / c.noise
    if mu > 2:
        raise accountants.NotExpressible("the control's grid covers μ ≤ 2")
    return pld.gaussian_grid(mu, False).epsilon(delta)


def _doubled(composition: object, delta: float) -> float:
    """A control accountant 2× off upward (a valid but loose bound)."""
    return 2 * reference_accountant(composition, delta) + 1  # type: ignore[arg-type]


def _verdicts_agree(name: str, result: AccountantResult, rows: list[Row]) -> list[str]:
    """Failures where a row's verdict disagrees with what the closed form says of it."""
    out = []
    for row, report in zip(rows, result.rows, strict=True):
        if report.reported is None or report.verdict not in ("unsafe", "conforms", "loose"):
            continue
        side = closed_form_side(row, report.reported)
        if (report.verdict == "unsafe") != (side > 0) and side != 0:
            out.append(
                f"{name} on {row.label}: {report.verdict} at ε {report.reported:.9g}, the "
                f"closed form's δ there {'>' if side > 0 else '<='} δ"
            )
    return out


#: the Gaussian add-only control's row: one step, σ = 0.5, Poisson q = 0.01, δ = 10^-5 (the
#: remove direction dominates: ε ≈ 3.02 against the add direction's ≈ 0.01)
GAUSS_ADD_ONLY = next(
    r
    for r in GRID
    if r.composition.sampling == "poisson"
    and (r.composition.noise, r.composition.rate, r.composition.steps, r.delta)
    == (0.5, 0.01, 1, 1e-5)
)


def _add_only(composition: object, delta: float) -> float:
    """A control accountant that composes only the *add* direction of a Poisson-subsampled
    composition (dpspec's own certified grid engine, ε_hi of that direction alone)."""
    assert isinstance(composition, Composition)
    add = composition_steps(composition, 1e-2)[1]
    return float(compose_step(add, composition.steps, 1e-2).epsilon_bracket(delta).hi)


def remove_delta(row: Row, epsilon: float) -> float:
    """δ(ε) of one step of the remove pair of the Poisson-subsampled Gaussian, written here:
    P = (1 − q)N(0, σ²) + qN(1, σ²) against Q = N(0, σ²); P/Q(x) = 1 − q + q·e^{(2x − 1)/(2σ²)}
    increases in x, so δ(ε) = P(X > x*) − e^ε Q(X > x*) at P/Q(x*) = e^ε."""
    c = row.composition
    sigma, q = c.noise, c.rate
    cut = sigma**2 * math.log((math.exp(epsilon) - (1 - q)) / q) + 0.5

    def sf(x: float) -> float:
        return 0.5 * math.erfc(x / math.sqrt(2))

    return (
        (1 - q) * sf(cut / sigma) + q * sf((cut - 1) / sigma) - math.exp(epsilon) * sf(cut / sigma)
    )


#: the add-only control's instance: randomized response (k = 2, e^ε = 3) Poisson-subsampled at
#: rate 1/5, composed 1–3 times, at δ = 1/100 (remove dominates: the add-only ε is too small)
DIRECTION_RATIO, DIRECTION_RATE, DIRECTION_COPIES = Fraction(3), Fraction(1, 5), (1, 2, 3)
DIRECTION_DELTA = Fraction(1, 100)
DIRECTION_WIDTH = Fraction(1, 2**12)


def _direction_case(copies: int) -> tuple[str, str, bool]:
    """(verdict of the add-only report, the report, whether the enumerated remove pair
    certifies δ(report) > δ)."""
    curve = subsampled(randomized_response_curve(2, DIRECTION_RATIO), DIRECTION_RATE).power(copies)
    add_only = curve.backward.epsilon_at(DIRECTION_DELTA, DIRECTION_WIDTH).hi  # a Fraction
    reference = curve.epsilon_at(DIRECTION_DELTA, DIRECTION_WIDTH)
    verdict = judge(float(add_only), Bracket(reference.lo, reference.hi))
    p = {y: as_interval(randomized_response_spec(DIRECTION_RATIO, 2, 0)(y)).lo for y in (0, 1)}
    q = {y: as_interval(randomized_response_spec(DIRECTION_RATIO, 2, 1)(y)).lo for y in (0, 1)}
    remove_p, remove_q = stated.poisson_subsampled(p, q, DIRECTION_RATE, "remove")
    ratio_hi = stated.exp_bounds(Fraction(float(add_only)))[1]  # e^ε ≤ R_hi: δ(ε) ≥ δ(R_hi)
    low, _ = stated.product_hockey_stick(remove_p, remove_q, copies, ratio_hi)
    return verdict, f"{float(add_only):.6g}", low > DIRECTION_DELTA


#: the shuffled control's row: σ = 1, T = 100 fixed batches, one epoch, δ = 10^-5, add/remove
#: (the zero-out pair of :mod:`dpspec.accounting.shuffling`)
SHUFFLED = Row(Composition("gaussian", 1.0, "shuffle", 0.01, 100, "add_remove"), 1e-5)
#: the cells of the midpoint rule of :func:`max_statistic_delta`
MAX_CELLS = 2**12


def _shuffle_as_poisson(composition: object, delta: float) -> float:
    """A control accountant that accounts shuffled fixed batches as Poisson sampling at
    q = 1/T (common practice): dpspec's certified Poisson ε_hi for the same (σ, q, steps)."""
    assert isinstance(composition, Composition)
    c = composition
    if c.sampling != "shuffle":
        raise accountants.NotExpressible("the control answers shuffled compositions only")
    poisson = Composition(c.mechanism, c.noise, "poisson", c.rate, c.steps, "add_remove")
    return float(epsilon_interval(poisson, delta, accuracy=1e-2).hi)


def max_statistic_delta(epsilon: float, sigma: float, batches: int) -> float:
    """A lower bound on δ(ε) of one shuffled epoch, written here: the hockey-stick divergence
    ∫(p − e^ε q)₊ of the epoch's maximum M = max_i x_i under the zero-out pair (one batch
    shifted by 2 under P, by 1 under Q, the others 0; densities from the spec), by the midpoint
    rule on [−6σ, 2 + 12σ] (the mass outside is below 10^-8); M is a post-processing of the
    releases, so its divergence is at most the mechanism's."""
    lo, hi = -6 * sigma, 2 + 12 * sigma
    width = (hi - lo) / MAX_CELLS
    total = 0.0
    for i in range(MAX_CELLS):
        c = lo + (i + 0.5) * width
        p = stated.max_of_shifted_density(c, 2.0, sigma, batches)
        q = stated.max_of_shifted_density(c, 1.0, sigma, batches)
        total += max(0.0, p - math.exp(epsilon) * q) * width
    return total


@Obligation(
    id="conform.accountant-verdicts",
    source=(
        "Balle, Barthe & Gaboardi 2018 and Zhu, Dong & Wang 2022 (Poisson subsampling: the add "
        "and remove pairs, the curve their maximum); Sommer, Meiser & Mohammadi 2019 "
        "(optimistic and pessimistic rounding of a privacy loss distribution)"
    ),
    claim=(
        "conform_accountant's verdicts agree with the truth stated independently: dpspec's own "
        "accountant conforms on every unsubsampled row; an accountant reporting the optimistic "
        "grid of the Gaussian loss is flagged unsafe exactly on the rows where the closed form "
        "says δ(reported) > δ (at least one); one 2× off upward is loose, never unsafe; one "
        "that accounts only the add direction of Poisson-subsampled randomized response "
        "(e^ε = 3, rate 1/5, 1–3 copies, δ = 1/100) is unsafe where the enumerated remove "
        "pair certifies δ(reported) > δ (every case), and one that composes only the add "
        "direction of the Poisson-subsampled Gaussian (σ = 0.5, q = 0.01, one step, δ = "
        "10^-5) is unsafe, the remove pair's δ at its report written here in closed form "
        "above δ; one that accounts shuffled fixed batches (σ = 1, T = 100, one epoch, δ = "
        "10^-5) as Poisson sampling at q = 1/T is unsafe, the max-of-batches statistic's δ at "
        "its report (integrated here from the spec's densities) above 10·δ; each library "
        "adapter asked a row "
        "either answers it or, its library absent, says so as 'not expressible' (the "
        "adapters' verdicts are the table of benchmarks/conform_accountants.py)"
    ),
    method=Method.PROPERTY,
    predicates=(
        stated.gaussian_delta,
        stated.poisson_subsampled,
        stated.product_hockey_stick,
        stated.max_of_shifted_density,
    ),
    impls=(accountants, accountant_libraries),
    entry_points=(conform_accountant, judge, reference_accountant),
    tests=("tests/test_conform_accountants.py::test_judge_reads_the_interval",),
    bug_controls=(
        BugControl(
            judge,
            "if reported < interval.lo:",
            "if reported * 1.25 < interval.lo:",
            "a report up to 25% below the certified lower end accepted",
        ),
        BugControl(
            judge,
            "if reported <= hi + max(looseness * hi, ABSOLUTE_SLACK):",
            "if reported <= 3 * hi + max(looseness * hi, ABSOLUTE_SLACK):",
            "the loose bound taken 3× too wide",
        ),
        BugControl(
            conform_accountant,
            "reports = [_row(target, r, looseness) for r in chosen]",
            "reports = [_row(target, r, looseness) for r in chosen[1:]]",
            "the first row never asked",
        ),
        BugControl(
            epsilon_interval,
            'if c.sampling == "shuffle":',
            'if c.sampling == "shuffle" and False:',
            "the reference accountant computing shuffled fixed batches as Poisson sampling",
        ),
        BugControl(
            "dpspec.conform.accountants._overall",
            'for v in ("unsafe", "loose", "conforms"):',
            'for v in ("conforms", "unsafe", "loose"):',
            "a run with unsafe and conforming rows called conforming",
        ),
    ),
)
def accountant_verdicts(config: VerifyConfig) -> CheckOutcome:
    """The control accountants through ``conform_accountant`` (the add-only one through
    ``judge``: its reference is the exact accountant, not a grid row)."""
    rows = _closed_rows()
    failures: list[str] = []
    shuffled = conform_accountant(_shuffle_as_poisson, [SHUFFLED]).rows[0]
    shuffle_truth = max_statistic_delta(shuffled.reported or 0.0, 1.0, 100)
    if shuffled.verdict != "unsafe" or shuffle_truth <= 10 * SHUFFLED.delta:
        failures.append(
            f"shuffling as Poisson on {SHUFFLED.label}: {shuffled.verdict} at ε "
            f"{shuffled.reported}; the max statistic's δ there {shuffle_truth:.3g}"
        )
    stop_if_failed(config, not failures, failures[-1] if failures else "")
    own = conform_accountant(reference_accountant, rows)
    if len(own.rows) != len(rows) or own.count("conforms") != len(rows):
        failures.append(f"dpspec's own: {own.count('conforms')} of {len(rows)} rows conform")
    optimistic = conform_accountant(_optimistic_grid, rows)
    failures += _verdicts_agree("optimistic grid", optimistic, rows)
    caught = optimistic.count("unsafe")
    if not caught or optimistic.verdict != "unsafe":
        failures.append(f"optimistic grid: verdict {optimistic.verdict}, {caught} rows unsafe")
    doubled = conform_accountant(_doubled, rows)
    failures += _verdicts_agree("2× upward", doubled, rows)
    if doubled.count("loose") != len(rows) or doubled.verdict != "loose":
        failures.append(f"2× upward: {doubled.count('loose')} of {len(rows)} rows loose")
    stop_if_failed(config, not failures, failures[-1] if failures else "")
    direction = 0
    for copies in DIRECTION_COPIES:
        verdict, shown, certified = _direction_case(copies)
        direction += verdict == "unsafe"
        if not certified or verdict != "unsafe":
            failures.append(
                f"add-only, {copies} copies: {verdict} at ε {shown}; the enumerated remove pair "
                f"{'certifies' if certified else 'does not certify'} δ(ε) > δ"
            )
    gauss = conform_accountant(_add_only, [GAUSS_ADD_ONLY])
    report = gauss.rows[0]
    truth = _side(remove_delta(GAUSS_ADD_ONLY, report.reported or 0.0), GAUSS_ADD_ONLY.delta)
    if report.verdict != "unsafe" or truth <= 0:
        failures.append(
            f"add-only on {GAUSS_ADD_ONLY.label}: {report.verdict} at ε {report.reported}; the "
            f"remove pair's δ there {'>' if truth > 0 else '<='} δ"
        )
    absent = 0
    for entry in accountant_libraries.ACCOUNTANT_TARGETS:
        if importlib.util.find_spec(entry.library) is not None:
            continue  # installed: its answers are the benchmark's table, not this check's
        absent += 1
        answer = conform_accountant(entry, rows[:1]).rows[0]
        if answer.verdict != "not expressible" or "not installed" not in answer.why:
            failures.append(f"{entry.name} without its library: {answer.verdict} ({answer.why})")
    return CheckOutcome(
        not failures,
        f"{absent} library adapters without their library say so; "
        f"{len(rows)} rows: dpspec's own conforms on {own.count('conforms')}; optimistic grid "
        f"unsafe on {caught} ({optimistic.count('not expressible')} beyond its μ ≤ 2), every "
        f"verdict matching the closed form; 2× upward loose on {doubled.count('loose')}; "
        f"add-only unsafe on {direction}/{len(DIRECTION_COPIES)} subsampled randomized "
        f"responses and on {GAUSS_ADD_ONLY.label} ({report.verdict} at ε "
        f"{report.reported or 0.0:.4g}, reference [{report.lo or 0.0:.4g}, "
        f"{report.hi or 0.0:.4g}]); shuffling as Poisson {shuffled.verdict} at ε "
        f"{shuffled.reported or 0.0:.4g} (reference [{shuffled.lo or 0.0:.4g}, "
        f"{shuffled.hi or 0.0:.4g}], the max statistic's δ there {shuffle_truth:.3g}); "
        f"{len(failures)} failures" + (f": {failures[0]}" if failures else ""),
        numbers={
            "rows": len(rows),
            "optimistic_unsafe": caught,
            "direction_unsafe": direction,
            "shuffle_as_poisson_delta": shuffle_truth,
            "failures": len(failures),
        },
        slack=[Slack("controls caught", 1.0, min(caught, direction) / max(caught, 1))],
    )
