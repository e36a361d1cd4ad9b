"""Exact laws of the samplers and mechanisms, derived from the code that runs.

Each check drives a public entry point (``noise.geometric``, ``RandomizedResponse.randomise``,
``StabilityHistogram.sample``, …) at size 1 with the enumerating generator of
:mod:`dpspec.proofs.engine.enumeration`, on every dataset of a tiny domain, and compares the
law it derives — exact Fractions, up to a reported truncation mass — with the law the
mechanism states, written here in closed form from the public parameters only (never from
the object's own ``pmf``). Every outcome must agree within the truncation mass.

The controls are the same entry points with a plausible real bug of the size a chi-square
test cannot see: a success test ``<`` written ``<=`` (a probability off by 1/1000), a release
threshold off by one. Each must come out DIFFERENT.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from dpspec import noise
from dpspec.mechanisms import DiscreteLaplaceMechanism, RandomizedResponse, StabilityHistogram
from dpspec.proofs.engine.enumeration import (
    LawComparison,
    SpecLaw,
    compare_law,
    enumerate_law,
)
from dpspec.proofs.engine.registry import CheckOutcome, Control, Slack, VerifyConfig
from dpspec.spec.neighbours import datasets

#: The truncation mass every enumeration must stay below (reported as slack).
TRUNCATION_CLAIM = Fraction(1, 2**40)

Program = Callable[[np.random.Generator], Hashable]


@dataclass(frozen=True)
class LawCase:
    """One entry point on one instance: its program (rng → outcome), the stated law, the
    truncation weight of its enumeration and the truncated mass it may leave (2^-40 unless
    the instance is a product of independent draws, whose enumeration grows as a product)."""

    name: str
    program: Program
    spec: SpecLaw
    min_weight: Fraction = Fraction(1, 2**48)
    truncation: Fraction = TRUNCATION_CLAIM


def run_case(case: LawCase) -> LawComparison:
    law = enumerate_law(case.program, min_weight=case.min_weight)
    return compare_law(case.name, law, case.spec)


def law_check(cases: Sequence[LawCase], controls: Sequence[tuple[str, LawCase]]) -> CheckOutcome:
    """Every case equal to its stated law within its truncation mass (≤ 2^-40), every control
    (bug, case) different."""
    good = [run_case(c) for c in cases]
    bad = [(bug, run_case(c)) for bug, c in controls]
    # the case nearest its truncation claim
    tight = max(range(len(good)), key=lambda i: good[i].law.truncated / cases[i].truncation)
    truncated, claim = good[tight].law.truncated, cases[tight].truncation
    resolution = max(g.resolution for g in good)
    caught = [not b.holds for _, b in bad]
    within = all(g.law.truncated <= c.truncation for g, c in zip(good, cases, strict=True))
    passed = all(g.holds for g in good) and all(caught) and within
    failing = [g.summary() for g in good if not g.holds]
    detail = (
        f"{len(good)} laws derived from the code ({sum(g.law.runs for g in good)} runs), "
        f"{'all equal to the stated laws' if not failing else 'DIFFERENT: ' + '; '.join(failing)}"
        f", largest truncated mass {float(truncated):.3g}; controls: "
        + "; ".join(b.summary() for _, b in bad)
    )
    return CheckOutcome(
        passed,
        detail,
        {
            "laws": len(good),
            "runs": sum(g.law.runs for g in good),
            "truncated_mass": float(truncated),
            "resolution": float(resolution),
            "control_differences": [float(b.difference) for _, b in bad],
        },
        [Control(bug, not b.holds, b.summary()) for bug, b in bad],
        [
            Slack("truncated mass", float(claim), float(truncated)),
            Slack("undetectable |P_code − P_spec| (against 1e-3)", 1e-3, float(resolution)),
        ],
    )


def _first(values: Any) -> int:
    return int(np.asarray(values).ravel()[0])


def _drawing(sampler: Callable[..., Any], *args: Any) -> Program:
    """rng ↦ the one value ``sampler(*args, 1, rng)`` draws."""
    return lambda rng: _first(sampler(*args, 1, rng))


def _randomising(mech: RandomizedResponse, x: int) -> Program:
    return lambda rng: _first(mech.randomise(np.array([x]), rng))


def _sampling(mech: Any, data: tuple[int, ...]) -> Program:
    """rng ↦ the value of one release of a scalar ``mech.sample`` on ``data``."""
    return lambda rng: _first(mech.sample(np.array(data), 1, rng))


# --- closed forms of the stated laws (from the public parameters) -------------------------


def geometric_spec(q: Fraction) -> SpecLaw:
    """P(G = g) = (1 − q) q^g, g ≥ 0."""
    return lambda g: (1 - q) * q ** int(g) if int(g) >= 0 else Fraction(0)


def two_sided_spec(q: Fraction, shift: int = 0) -> SpecLaw:
    """P(Z = z) = (1 − q)/(1 + q) q^{|z − shift|} on the integers."""
    return lambda z: (1 - q) / (1 + q) * q ** abs(int(z) - shift)


def randomized_response_spec(ratio: Fraction, k: int, x: int) -> SpecLaw:
    """P(y | x) = r/(r + k − 1) for y = x, 1/(r + k − 1) otherwise (r = e^ε)."""
    return lambda y: (ratio if y == x else Fraction(1)) / (ratio + k - 1)


def histogram_threshold(q: Fraction, delta: Fraction) -> int:
    """τ = min{τ ≥ 1 : (1 + e^ε)·P(Z ≥ τ) ≤ δ}, e^ε = q^{-2}, P(Z ≥ τ) = q^τ/(1 + q)."""
    tau = 1
    while (1 + q**-2) * q**tau / (1 + q) > delta:
        tau += 1
    return tau


def histogram_spec(q: Fraction, tau: int, counts: Sequence[int]) -> SpecLaw:
    """The release of Alg 1 cell by cell: an empty cell stays 0; a cell of count c > 0 is
    c + Z when c + Z ≥ τ, else 0 (Z discrete Laplace of base q)."""

    def law(outcome: Any) -> Fraction:
        p = Fraction(1)
        for c, v in zip(counts, outcome, strict=True):
            v = int(v)
            if c == 0:
                p *= 1 if v == 0 else 0
            elif v == 0:  # P(c + Z < τ) = 1 − P(Z ≥ τ − c)
                p *= 1 - _upper_tail(q, tau - c)
            elif v >= tau:
                p *= (1 - q) / (1 + q) * q ** abs(v - c)
            else:
                p *= 0
        return p

    return law


def _upper_tail(q: Fraction, k: int) -> Fraction:
    """P(Z ≥ k) for the two-sided law of base q."""
    if k >= 0:
        return q**k / (1 + q)
    return 1 - q ** (1 - k) / (1 + q)


# --- the checks ----------------------------------------------------------------------------


def geometric_law(config: VerifyConfig) -> CheckOutcome:
    """``geometric`` and ``discrete_laplace_base`` at size 1 against (1 − q)q^g and
    (1 − q)/(1 + q) q^{|z|}; controls: the success test off by one (base (n + 1)/d)."""
    bases = [Fraction(1, 2), Fraction(2, 3), Fraction(333, 1000)]
    if config.thorough:
        bases.append(Fraction(3, 4))
    cases = [
        LawCase(f"geometric(q={q})", _drawing(noise.geometric, q), geometric_spec(q)) for q in bases
    ]
    cases.append(
        LawCase(
            "discrete_laplace_base(q=1/3)",
            lambda rng: _first(noise.discrete_laplace_base(Fraction(1, 3), 1, rng)),
            two_sided_spec(Fraction(1, 3)),
            Fraction(1, 2**48),
        )
    )
    q = Fraction(333, 1000)
    controls = [
        (
            "geometric's success test `<` written `<=` (q = 333/1000 drawn as 334/1000)",
            LawCase(
                "geometric, success test off by one",
                lambda rng: _first(noise.geometric(Fraction(334, 1000), 1, rng)),
                geometric_spec(q),
            ),
        ),
        (
            "discrete_laplace_base with its success test off by one (q = 1/3 drawn as 334/999)",
            LawCase(
                "discrete_laplace_base, success test off by one",
                lambda rng: _first(noise.discrete_laplace_base(Fraction(334, 999), 1, rng)),
                two_sided_spec(Fraction(1, 3)),
                Fraction(1, 2**48),
            ),
        ),
    ]
    return law_check(cases, controls)


def randomized_response_law(config: VerifyConfig) -> CheckOutcome:
    """``RandomizedResponse(k, base=1/r).randomise`` on every input x against r/(r + k − 1)
    and 1/(r + k − 1); control: the keep test `<` written `<=` (keep weight r + 1/den)."""
    cases = []
    ks = (2, 3, 5, 8) if config.thorough else (2, 3, 5)
    for k in ks:
        for r in (Fraction(3), Fraction(11, 10)):
            mech = RandomizedResponse(k, base=1 / r)
            for x in range(k):
                cases.append(
                    LawCase(
                        f"RR(k={k}, e^ε={r}) on x={x}",
                        _randomising(mech, x),
                        randomized_response_spec(r, k, x),
                    )
                )
    r = Fraction(3)
    bad = RandomizedResponse(3, base=1 / (r + Fraction(1, 1000)))
    controls = [
        (
            "RR keep weight off by 1/1000 (e^ε = 3 drawn as 3.001)",
            LawCase(
                "RR k=3, keep weight off by 1/1000",
                _randomising(bad, 1),
                randomized_response_spec(r, 3, 1),
            ),
        )
    ]
    return law_check(cases, controls)


def _histogram_case(
    mech: StabilityHistogram, data: tuple[int, ...], q: Fraction, tau: int, occupied: int
) -> LawCase:
    """One dataset; with two occupied cells the noise is a product of two independent draws
    and its enumeration a product of two trees: truncated at 2^-28 (mass ≤ 2^-16)."""
    counts = [sum(1 for v in data if v == b) for b in range(int(mech.bins or 0))]
    return LawCase(
        f"stability histogram (base {q}, τ {tau}) on {data}",
        lambda rng: tuple(
            int(v) for v in mech.sample(np.array(data, dtype=np.int64), 1, rng).ravel()
        ),
        histogram_spec(q, tau, counts),
        Fraction(1, 2**48) if occupied < 2 else Fraction(1, 2**28),
        TRUNCATION_CLAIM if occupied < 2 else Fraction(1, 2**16),
    )


def stability_histogram_law(config: VerifyConfig) -> CheckOutcome:
    """``StabilityHistogram(2, base=q, delta).sample`` on every dataset of ≤ 2 records over 2
    cells (with one occupied cell; both occupied under ``--thorough``: a product of two
    enumerations) against the product of the cells' laws (τ from the closed form); control:
    the release threshold lowered by one."""
    q, delta = Fraction(1, 4), Fraction(1, 100)
    tau = histogram_threshold(q, delta)
    mech = StabilityHistogram(2, base=q, delta=delta)
    max_size = 3 if config.thorough else 2
    cases = [
        _histogram_case(mech, data, q, tau, len(set(data)))
        for data in datasets((0, 1), max_size, min_size=1)
        if config.thorough or len(set(data)) < 2
    ]
    bad = StabilityHistogram(2, base=q, delta=delta)
    bad.threshold = int(bad.threshold) - 1
    controls = [
        (
            "release threshold τ − 1 (cells one below τ released)",
            _histogram_case(bad, (0, 0), q, tau, 1),
        )
    ]
    return law_check(cases, controls)


def discrete_laplace_mechanism_law(config: VerifyConfig) -> CheckOutcome:
    """``DiscreteLaplaceMechanism(count, base=q).sample`` on every dataset of ≤ 3 records over
    {0, 1} against f(S) + Z; control: the count query doubled (sensitivity 2 declared as 1 —
    the law of a value off by one or more)."""
    q = Fraction(1, 4)
    mech = DiscreteLaplaceMechanism(lambda d: int(np.sum(d == 1)), 1, base=q)
    max_size = 3 if config.thorough else 2
    cases = [
        LawCase(
            f"discrete Laplace count (base {q}) on {data}",
            _sampling(mech, data),
            two_sided_spec(q, sum(data)),
            Fraction(1, 2**48),
        )
        for data in datasets((0, 1), max_size, min_size=1)
    ]
    doubled = DiscreteLaplaceMechanism(lambda d: 2 * int(np.sum(d == 1)), 1, base=q)
    controls = [
        (
            "the count counted twice (f(S) = 2, stated 1)",
            LawCase(
                "discrete Laplace, query doubled",
                _sampling(doubled, (1,)),
                two_sided_spec(q, 1),
                Fraction(1, 2**48),
            ),
        )
    ]
    return law_check(cases, controls)
