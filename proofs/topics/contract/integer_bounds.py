"""The exact samplers' integer arithmetic at its boundaries
(``contract.inputs.exact-integer-bounds``): exponent splits exact, values at ±(2^62 − 1) unwrapped,
larger ones refused naming the argument.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from dpspec.mechanisms import DiscreteLaplaceMechanism, ExponentialMechanism
from dpspec.noise import (
    ExpNegExponents,
    bernoulli_exp_neg_exponents,
    categorical_exp_gap,
    exp_neg_exponents,
)
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import (
    CONTRACT,
    CheckOutcome,
    Method,
    Obligation,
    VerifyConfig,
    stop_if_failed,
)
from dpspec.validation import bounded_int_array

#: ε = 0.1: gap·numerator just above 2^63 (the int64 overflow found in review).
_G = 21474836511

#: A dataset the constant queries ignore.
_D = np.array([0, 1, 1, 0, 1])


def _rng() -> np.random.Generator:
    return np.random.default_rng(0)


def _constant(value: Any) -> Callable[[Any], Any]:
    def query(d: Any) -> Any:
        return value

    return query


@Obligation(
    id="contract.inputs.exact-integer-bounds",
    source="dpspec standard: exact samplers use integer arithmetic that cannot wrap",
    claim=(
        "the exact samplers' and laws' integer arithmetic is overflow-safe: exponents "
        "split exactly into int64 parts, |f|, |Z| < 2^62, larger values refused naming "
        "the argument"
    ),
    method=Method.PROPERTY,
    no_predicate=f"{CONTRACT}: integer arithmetic below 2^62, refusals naming the argument",
    impls=(
        ExpNegExponents,
        exp_neg_exponents,
        bernoulli_exp_neg_exponents,
        categorical_exp_gap,
        bounded_int_array,
    ),
    entry_points=(
        DiscreteLaplaceMechanism.sample,
        ExponentialMechanism.sample,
        ExponentialMechanism.pmf,
    ),
    bug_controls=(
        BugControl(
            "dpspec.validation._rules._bounded_int_array",  # the body bounded_int_array runs
            "if arr.size and (int(arr.max()) >= INT_BOUND or int(arr.min()) <= -INT_BOUND):",
            "if arr.size and (int(arr.max()) > INT_BOUND or int(arr.min()) < -INT_BOUND):",
            "|v| = 2^62 accepted (the bound off by one)",
        ),
    ),
)
def exact_integer_bounds(config: VerifyConfig) -> CheckOutcome:
    """Exhaustive check, on the boundary grid, that the exact samplers' integer arithmetic is
    overflow-safe: the exponent split is exact, the bounds refuse with named errors, and values
    at ±(2^62 − 1) come out unwrapped.

    * ``exp_neg_exponents(gap, num, den)``: whole + excess + rest/den == gap·num/den exactly
      (Python Fractions), 0 ≤ rest < den, whole ≤ 2^62, for every gap in {0, 1, 2, B − 1, B,
      B + 1, 2^62, 2^63 − 1} (B = ⌊(2^62 − 1)/num⌋, the fast-path edge) × num × den on a grid
      of 5 × 5 boundary values — both the int64 fast path and the Python-int path;
    * ``bounded_int_array``: ±(2^62 − 1) accepted, ±2^62, uint64 2^63, 10^30 refused naming it;
    * ``discrete_laplace``: x = u + t·V ≤ (t − 1) + t·v_max < 2^62 for the scale numerators t at
      the coarsening edge (and v_max ≥ 63: P(V > v_max) < e^−63);
    * ``DiscreteLaplaceMechanism.sample`` at f = ±(2^62 − 1): every output within 200 of f as a
      Python int (no wrap-around), and f = 2^63 − 1 refused naming ``query``;
    * ``ExponentialMechanism`` at the reported scores (ε = 0.1, [0, g] vs [0, g − 1], g =
      21474836511) and at the widest gap 2^63 − 2: the top candidate has all the mass in pmf and
      in 200 samples, for both neighbours;
    * ``categorical_exp_gap`` draws exactly what ``categorical_exp_neg`` draws on the fast path
      (gap·num = 2^62 − 1, same seed);
    * the excess trials (beyond 2^62 whole factors) draw Bernoulli(e^{−excess}): 20,000 trials
      with excess 1 land within 6 standard deviations of e^{−1} (false alarm < 2·10^−9); a
      control that skips the excess (P = 1) is rejected.

    Under a bug control the check ends at the first problem found before the (costly) excess
    trials, and the excess-skipped control is not run.
    """
    from dpspec.noise import (
        ExpNegExponents,
        bernoulli_exp_neg_exponents,
        categorical_exp_gap,
        categorical_exp_neg,
        exp_neg_exponents,
    )
    from dpspec.noise.machinery import INT64_SAFE as _INT64_SAFE
    from dpspec.validation import INT_BOUND, bounded_int_array

    problems: list[str] = []
    checked = 0
    nums = [1, 3, 429496729, 2**32 - 1, 700 * 2**32]
    dens = [1, 2, 2**33, 2**61 - 1, 2**62]
    for num in nums:
        edge = (INT_BOUND - 1) // num
        gaps = sorted({0, 1, 2, edge - 1, edge, edge + 1, 2**62, 2**63 - 1})
        for den in dens:
            e = exp_neg_exponents(np.array(gaps, dtype=np.int64), num, den)
            for i, g in enumerate(gaps):
                checked += 1
                whole, rest = int(e.whole[i]), int(e.rest[i])
                excess = 0 if e.excess is None else int(e.excess[i])
                if not (0 <= rest < den and 0 <= whole <= INT_BOUND and excess >= 0):
                    problems.append(f"parts out of range at gap={g}, num={num}, den={den}")
                if whole + excess + Fraction(rest, den) != Fraction(g * num, den):
                    problems.append(f"split inexact at gap={g}, num={num}, den={den}")
    for ok_value in (INT_BOUND - 1, -(INT_BOUND - 1)):
        checked += 1
        if int(bounded_int_array([ok_value], "query")[0]) != ok_value:
            problems.append(f"bounded_int_array changed {ok_value}")
    for bad in ([INT_BOUND], [-INT_BOUND], np.array([2**63], dtype=np.uint64), [10**30]):
        checked += 1
        try:
            bounded_int_array(bad, "query")
            problems.append(f"bounded_int_array accepted {bad!r}")
        except ValueError as exc:
            if "query" not in str(exc):
                problems.append(f"bounded_int_array did not name the argument: {exc}")
    for t in (1, 2, _INT64_SAFE - 1):
        checked += 1
        v_max = (INT_BOUND - t) // t
        if (t - 1) + t * v_max >= INT_BOUND or v_max < 63:  # x = u + t·V, u < t
            problems.append(f"discrete_laplace bound at t={t}: v_max={v_max}")
    for f in (INT_BOUND - 1, -(INT_BOUND - 1)):
        checked += 1
        dl = DiscreteLaplaceMechanism(_constant(f), 1, 1.0)
        out = dl.sample(_D, 500, np.random.default_rng(1))
        if any(abs(int(o) - f) > 200 for o in out.tolist()):
            problems.append(f"DiscreteLaplaceMechanism wrapped at f={f}")
    try:
        DiscreteLaplaceMechanism(lambda d: 2**63 - 1, 1, 1.0).sample(_D, 5, _rng())
        problems.append("DiscreteLaplaceMechanism accepted f = 2^63 - 1")
    except ValueError as exc:
        if "query" not in str(exc):
            problems.append(f"f = 2^63 - 1 refused without naming query: {exc}")
    for scores in (
        [np.array([0, _G]), np.array([0, _G - 1])],
        [np.array([-(INT_BOUND - 1), INT_BOUND - 1]), np.array([-(INT_BOUND - 2), INT_BOUND - 1])],
    ):
        for s in scores:
            checked += 1
            mech = ExponentialMechanism(_constant(s), 1, 0.1)
            law = mech.pmf(_D)
            draws = mech.sample(_D, 200, np.random.default_rng(2))
            if float(law[1]) != 1.0 or not np.all(draws == 1):
                problems.append(f"exponential mechanism at scores {s.tolist()}: {law}")
    wide = np.array([-(INT_BOUND - 1), INT_BOUND - 1, INT_BOUND - 6])  # gaps up to 2^63 − 2
    checked += 1
    base_draws = ExponentialMechanism(_constant(wide), 1, base=Fraction(1, 2)).sample(
        _D, 200, np.random.default_rng(2)
    )
    if not set(np.unique(base_draws).tolist()) <= {1, 2}:
        problems.append("exponential mechanism (base) drew the candidate 2^63 - 2 below the top")
    num, den = 429496729, 2**33
    gap = np.array([0, (INT_BOUND - 1) // num, 5])
    a = categorical_exp_gap(gap, num, den, 300, np.random.default_rng(3))
    b = categorical_exp_neg(gap * num, den, 300, np.random.default_rng(3))
    checked += 1
    if not np.array_equal(a, b):
        problems.append("categorical_exp_gap differs from categorical_exp_neg on the fast path")
    stop_if_failed(config, not problems, "; ".join(problems[:3]))
    trials = 20_000
    excess_one = np.ones(trials, dtype=object)
    zeros = np.zeros(trials, dtype=np.int64)
    hits = bernoulli_exp_neg_exponents(
        ExpNegExponents(zeros, zeros, 1, excess_one), np.random.default_rng(4)
    )
    sd = math.sqrt(math.exp(-1) * (1 - math.exp(-1)) / trials)
    rate = float(hits.mean())
    if config.under_control:
        stop_if_failed(config, abs(rate - math.exp(-1)) <= 6 * sd, f"excess trials: {rate:.4f}")
        return CheckOutcome(True, f"under a bug control: {checked + 1} boundary cases hold")
    control = bernoulli_exp_neg_exponents(
        ExpNegExponents(zeros, zeros, 1, None), np.random.default_rng(4)
    )
    control_rate = float(control.mean())
    checked += 2
    if abs(rate - math.exp(-1)) > 6 * sd:
        problems.append(f"excess trials: rate {rate:.4f} vs e^-1 = {math.exp(-1):.4f}")
    if abs(control_rate - math.exp(-1)) <= 6 * sd:
        problems.append("control (excess skipped) not rejected")
    return CheckOutcome(
        not problems,
        f"{checked} boundary cases: exponent split exact on {len(nums)}×{len(dens)}×8 "
        f"boundary (num, den, gap), ±(2^62−1) unwrapped, 2^62 / 2^63 refused naming the "
        f"argument, the reported exponential-mechanism neighbours agree; excess trials rate "
        f"{rate:.4f} (e^-1 = {math.exp(-1):.4f}, control {control_rate:.3f} rejected)"
        + (f"; problems: {problems[:5]}" if problems else ""),
        {"checked": checked, "problems": problems, "excess_rate": rate},
    )
