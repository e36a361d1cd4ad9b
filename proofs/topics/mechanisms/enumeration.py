"""Exact laws of the samplers and mechanisms, derived from the code that runs.

Each check drives a public entry point (``noise.discrete_laplace``, ``noise.bernoulli_exp_neg``,
``ExponentialMechanism.sample``, ``RandomizedResponse.randomise``, ``StabilityHistogram.sample``,
…) at size 1 with the enumerating generator (:mod:`dpspec.proofs.engine.enumeration`) on every
dataset of a tiny domain, and compares the law it derives with the law the mechanism states,
written here in closed form from the public parameters only (rational intervals of width
≤ 2^-200 where it is irrational; never the object's own ``pmf``). The truncated mass of the
enumerations is below 2^-64, one unit in the last place of a threshold table, so a table one
ulp off is seen: the controls are exactly that, a table with one threshold 2^-64 off, the
refinement of ties skipped, a tail loop stopped one step early, a probability off by 1/1000.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from dpspec import noise
from dpspec.mechanisms import (
    DiscreteLaplaceMechanism,
    ExponentialMechanism,
    LaplaceMechanism,
    RandomizedResponse,
    StabilityHistogram,
)
from dpspec.mechanisms.base import check_base_loss
from dpspec.noise import (
    DiscreteLaplaceNoise,
)
from dpspec.proofs.engine.law_checks import (
    COARSE_CLAIM,
    THOROUGH,
    LawCase,
    Program,
    first_value,
    law_check,
    with_attribute,
)
from dpspec.proofs.engine.registry import (
    DIFFERENTIAL,
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
)
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY, THESIS
from dpspec.spec.laws import (
    Interval,
    SpecLaw,
    categorical_spec,
    exp_neg_interval,
    randomized_response_spec,
    two_sided_pmf,
    two_sided_sf,
    two_sided_spec,
)
from dpspec.spec.neighbours import datasets

MECHANISM = Fraction(1, 2**52)
MECHANISM_CLAIM = Fraction(1, 2**48)


# --- the mechanisms -------------------------------------------------------------------------


def _scores(data: Any) -> Any:
    """Three candidates scored by the counts of records 0 and 1 and a constant 1."""
    arr = np.asarray(data)
    return np.array([int(np.sum(arr == 0)), int(np.sum(arr == 1)), 1])


@Obligation(
    id="mechanisms.exponential.law-enumerated",
    source=f"{THESIS}:L655 (exponential mechanism, corrected)",
    claim=(
        "ExponentialMechanism.sample draws P(a) ∝ e^{ε s_a/(2Δ)} (and ∝ q^{−s_a} with a "
        "base) exactly on every dataset of a tiny domain: its law derived from its code"
    ),
    method=Method.EXACT,
    predicates=(categorical_spec,),
    impls=(ExponentialMechanism, check_base_loss),
    entry_points=(ExponentialMechanism.sample,),
)
def exponential_law(config: VerifyConfig) -> CheckOutcome:
    """``ExponentialMechanism.sample`` (epsilon given as a rational, and a rational base) on
    every dataset of ≤ 3 records over {0, 1} against P(a) ∝ e^{ε s_a/(2Δ)} (q^{−s_a}); control:
    the mechanism run at ε × 1.001."""
    eps = Fraction(1, 2)
    max_size = 4 if config.thorough else 3
    by_eps = ExponentialMechanism(_scores, 1, epsilon=eps)
    by_base = ExponentialMechanism(_scores, 1, base=Fraction(3, 4))
    cases = []
    for data in datasets((0, 1), max_size, min_size=1):
        s = _scores(data).tolist()
        top = max(s)
        cases.append(
            LawCase(
                f"exponential mechanism ε=1/2 on {data}",
                _mechanism(by_eps, data),
                categorical_spec([exp_neg_interval(eps * (top - x) / 2) for x in s]),
            )
        )
        cases.append(
            LawCase(
                f"exponential mechanism base 3/4 on {data}",
                _mechanism(by_base, data),
                categorical_spec([Fraction(3, 4) ** (top - x) for x in s]),
            )
        )
    data = (0, 0, 1)
    s = _scores(data).tolist()
    bad = ExponentialMechanism(_scores, 1, epsilon=eps * Fraction(1001, 1000))
    controls = [
        (
            "ε × 1.001 (a weight off by ~1/1000)",
            LawCase(
                "exponential mechanism at ε·1.001 against ε",
                _mechanism(bad, data),
                categorical_spec([exp_neg_interval(eps * (max(s) - x) / 2) for x in s]),
            ),
        )
    ]
    return law_check(cases, controls)


def _mechanism(mech: Any, data: tuple[int, ...]) -> Program:
    return lambda rng: first_value(mech.sample(np.array(data), 1, rng))


@Obligation(
    id="mechanisms.randomized-response.law-enumerated",
    source=f"{THESIS}:L429 (local DP; randomized response, Warner 1965)",
    claim=(
        "randomise draws y = x w.p. e^ε/(e^ε + k − 1), each other y w.p. 1/(e^ε + k − "
        "1), exactly, with ε and with a rational base: its law derived from its code on "
        "every input"
    ),
    method=Method.EXACT,
    predicates=(randomized_response_spec,),
    impls=(RandomizedResponse,),
    entry_points=(RandomizedResponse.randomise,),
)
def randomized_response_law(config: VerifyConfig) -> CheckOutcome:
    """``RandomizedResponse(k, …).randomise`` on every input, with a rational base and with ε,
    against r/(r + k − 1) and 1/(r + k − 1); controls: the keep weight off by 1/1000 (base
    path) and ε × 1.001 (ε path)."""
    cases = []
    ks = (2, 3, 5, 8) if config.thorough else (2, 3, 5)
    for k in ks:
        for r in (Fraction(3), Fraction(11, 10)):
            mech = RandomizedResponse(k, base=1 / r)
            cases += [
                LawCase(
                    f"RR(k={k}, e^ε={r}) on {x}",
                    _randomising(mech, x),
                    randomized_response_spec(r, k, x),
                )
                for x in range(k)
            ]
        e = Fraction(1, 2)
        by_eps = RandomizedResponse(k, e)
        ratio = 1 / exp_neg_interval(e)
        cases += [
            LawCase(
                f"RR(k={k}, ε=1/2) on {x}",
                _randomising(by_eps, x),
                randomized_response_spec(ratio, k, x),
            )
            for x in range(k)
        ]
    controls = [
        (
            "keep weight off by 1/1000 (e^ε = 3 drawn as 3.001)",
            LawCase(
                "RR k=3, keep weight 3.001",
                _randomising(RandomizedResponse(3, base=1 / (3 + Fraction(1, 1000))), 1),
                randomized_response_spec(Fraction(3), 3, 1),
            ),
        ),
        (
            "ε × 1.001 on the ε path",
            LawCase(
                "RR k=3 at ε = 1/2·1.001",
                _randomising(RandomizedResponse(3, Fraction(1001, 2000)), 1),
                randomized_response_spec(1 / exp_neg_interval(Fraction(1, 2)), 3, 1),
            ),
        ),
    ]
    return law_check(cases, controls)


def _randomising(mech: RandomizedResponse, x: int) -> Program:
    return lambda rng: first_value(mech.randomise(np.array([x]), rng))


@Obligation(
    id="mechanisms.discrete-laplace.law-enumerated",
    source=f"{BAYES_CONSISTENCY}:L117-121 (Def 2.2, Thm 2.3; discrete analogue)",
    claim=(
        "DiscreteLaplaceMechanism.sample releases f(S) + Z with P(Z = z) ∝ q^{|z|} "
        "exactly (base and ε) on every dataset of a tiny domain: its law derived from "
        "its code"
    ),
    method=Method.EXACT,
    predicates=(two_sided_spec, two_sided_pmf, two_sided_sf),
    impls=(
        DiscreteLaplaceMechanism,
        "dpspec.noise._closed_forms.discrete_laplace_pmf",
        "dpspec.noise._closed_forms.discrete_laplace_sf",
    ),
    entry_points=(DiscreteLaplaceMechanism.sample,),
)
def discrete_laplace_mechanism_law(config: VerifyConfig) -> CheckOutcome:
    """``DiscreteLaplaceMechanism(count, base=q).sample`` and the ε path on every dataset of
    ≤ 3 records over {0, 1} against f(S) + Z, and its ``pmf`` (the law the exact privacy checks
    decide on, tails lumped) against the same closed form; control: the count counted twice."""
    q, eps = Fraction(1, 4), Fraction(3, 4)
    by_base = DiscreteLaplaceMechanism(_count, 1, base=q)
    by_eps = DiscreteLaplaceMechanism(_count, 1, epsilon=eps)
    qe = exp_neg_interval(eps)
    max_size = 3 if config.thorough else 2
    cases = []
    for data in datasets((0, 1), max_size, min_size=1):
        cases.append(
            LawCase(
                f"discrete Laplace count, base {q}, on {data}",
                _mechanism(by_base, data),
                two_sided_spec(q, sum(data)),
                MECHANISM,
                MECHANISM_CLAIM,
            )
        )
        cases.append(
            LawCase(
                f"discrete Laplace count, ε {eps}, on {data}",
                _mechanism(by_eps, data),
                two_sided_spec(qe, sum(data)),
                MECHANISM,
                MECHANISM_CLAIM,
            )
        )
    # the law function the exact privacy checks consume: pmf (tails lumped) = closed form
    window = (-3, 6)
    pmf_mismatches = 0
    for data in datasets((0, 1), max_size, min_size=1):
        law = by_base.pmf(np.array(data), window)
        c = sum(data)
        expected: dict[Any, Fraction] = {y: two_sided_pmf(y - c, q) for y in range(-3, 7)}
        expected["below"] = 1 - two_sided_sf(window[0] - c, q)
        expected["above"] = two_sided_sf(window[1] + 1 - c, q)
        pmf_mismatches += sum(1 for y, p in expected.items() if law.get(y) != p)
    doubled = DiscreteLaplaceMechanism(lambda d: 2 * _count(d), 1, base=q)
    controls = [
        (
            "the count counted twice (f(S) = 2, stated 1)",
            LawCase(
                "discrete Laplace, query doubled",
                _mechanism(doubled, (1,)),
                two_sided_spec(q, 1),
                MECHANISM,
                MECHANISM_CLAIM,
            ),
        )
    ]
    outcome = law_check(cases, controls)
    outcome.passed = outcome.passed and pmf_mismatches == 0
    outcome.detail += f"; pmf (base path) against the closed form: {pmf_mismatches} mismatches"
    return outcome


def _count(d: Any) -> int:
    return int(np.sum(np.asarray(d) == 1))


def histogram_threshold(q: Fraction, delta: Fraction) -> int:
    """τ = min{τ ≥ 1 : (1 + e^ε)·P(Z ≥ τ) ≤ δ}, e^ε = q^{-2}, P(Z ≥ τ) = q^τ/(1 + q)
    (:func:`~dpspec.spec.laws.two_sided_sf`)."""
    tau = 1
    while (1 + q**-2) * two_sided_sf(tau, q) > delta:
        tau += 1
    return tau


def histogram_spec(q: Interval | Fraction, tau: int, counts: Sequence[int]) -> SpecLaw:
    """Alg 1 cell by cell: an empty cell stays 0; a cell of count c > 0 is c + Z when
    c + Z ≥ τ, else 0 (Z two-sided of factor q)."""
    qi = q if isinstance(q, Interval) else Interval.point(q)
    cell = two_sided_spec(qi)

    def law(outcome: Any) -> Interval:
        p = Interval.point(1)
        for c, v in zip(counts, outcome, strict=True):
            v = int(v)
            if c == 0:
                p = p * (1 if v == 0 else 0)
            elif v == 0:
                p = p * (1 - two_sided_sf(tau - c, qi))
            else:
                p = p * (cell(v - c) if v >= tau else Interval.point(0))
        return p

    return law


@Obligation(
    id="mechanisms.stability-histogram.law-enumerated",
    source=f"{BAYES_CONSISTENCY}:L125-147 (Alg 1)",
    claim=(
        "StabilityHistogram.sample releases each occupied cell as count + Z when ≥ τ, "
        "else 0, and empty cells as 0, exactly (base and ε; τ checked against its closed "
        "form): its law derived from its code on every dataset of a tiny domain"
    ),
    method=Method.EXACT,
    predicates=(two_sided_spec, two_sided_sf),
    impls=(StabilityHistogram,),
    entry_points=(StabilityHistogram.sample,),
)
def stability_histogram_law(config: VerifyConfig) -> CheckOutcome:
    """``StabilityHistogram(2, …).sample`` (base q and ε) on every dataset of ≤ 3 records in
    one of 2 cells (two occupied cells: a product of enumerations, under ``--thorough``)
    against the cells' laws (τ from the closed form); control: the threshold lowered by one."""
    q, delta = Fraction(1, 4), Fraction(1, 100)
    tau = histogram_threshold(q, delta)
    by_base = StabilityHistogram(2, base=q, delta=delta)
    max_size = 3 if config.thorough else 2
    cases = [
        _histogram_case(by_base, data, q, tau)
        for data in datasets((0, 1), max_size, min_size=1)
        if config.thorough or len(set(data)) < 2
    ]
    eps = Fraction(5, 4)
    by_eps = StabilityHistogram(2, epsilon=1.25, delta=delta)
    tau_eps = int(by_eps.threshold)  # checked against the closed form below
    qe = exp_neg_interval(eps / 2)
    cases += [_histogram_case(by_eps, data, qe, tau_eps) for data in ((0,), (1, 1))]
    bad = StabilityHistogram(2, base=q, delta=delta)
    bad.threshold = int(bad.threshold) - 1
    controls = [
        (
            "release threshold τ − 1 (cells one below τ released)",
            _histogram_case(bad, (0, 0), q, tau),
        )
    ]
    outcome = law_check(cases, controls)
    # τ of the ε path: the smallest τ with (1 + e^ε) P(Z ≥ τ) ≤ δ (interval arithmetic)
    ratio = 1 / exp_neg_interval(eps)
    above = two_sided_sf(tau_eps, qe) * (1 + ratio)
    below = two_sided_sf(tau_eps - 1, qe) * (1 + ratio)
    tau_ok = above.hi <= delta and below.lo > delta
    outcome.passed = outcome.passed and int(by_base.threshold) == tau and tau_ok
    outcome.detail += (
        f"; thresholds τ = {tau} (base), {tau_eps} (ε) match the closed form: {tau_ok}"
    )
    return outcome


def _histogram_case(
    mech: StabilityHistogram, data: tuple[int, ...], q: Interval | Fraction, tau: int
) -> LawCase:
    counts = [sum(1 for v in data if v == b) for b in range(int(mech.bins or 0))]
    occupied = sum(1 for c in counts if c)
    return LawCase(
        f"stability histogram (τ {tau}) on {data}",
        lambda rng: tuple(
            int(v) for v in mech.sample(np.array(data, dtype=np.int64), 1, rng).ravel()
        ),
        histogram_spec(q, tau, counts),
        MECHANISM if occupied < 2 else THOROUGH,
        MECHANISM_CLAIM if occupied < 2 else COARSE_CLAIM,
    )


@Obligation(
    id="mechanisms.laplace.law-bound",
    source=f"{BAYES_CONSISTENCY}:L117-121 (Def 2.2, Thm 2.3; the lattice path)",
    claim=(
        "LaplaceMechanism.sample (default, lattice) releases γ·(⌊f(S)/γ⌉ + Z) with Z "
        "exactly the draws of discrete_laplace at its lattice scale (value by value, "
        "same generator), whose law is enumerated and whose table at that scale is "
        "recomputed exactly"
    ),
    method=Method.PROPERTY,
    no_predicate=f"{DIFFERENTIAL}: the releases against discrete_laplace's draws, value by value",
    impls=(LaplaceMechanism,),
    entry_points=(LaplaceMechanism.sample,),
    binding="differential: noise.discrete-laplace-law-enumerated",
)
def laplace_binding(config: VerifyConfig) -> CheckOutcome:
    """``LaplaceMechanism.sample`` (the lattice path) releases exactly γ·(⌊f(S)/γ⌉ + Z) with Z
    the draws ``noise.discrete_laplace`` makes at the mechanism's lattice scale from the same
    generator: a differential check, value by value, on several queries, ε and sensitivities.
    The law of ``discrete_laplace`` is enumerated (``noise.discrete-laplace-law-enumerated``,
    the block sampler of large scales included) and its production table at the lattice scale
    is recomputed exactly (``noise.tables-exact``); the lattice scale ≈ 2^21/ε is too large to
    enumerate whole. Control: noise drawn at 1.25 × the lattice scale."""
    n = 20_000 if config.thorough else 5_000
    compared = mismatched = 0
    for epsilon, sensitivity, data in (
        (0.5, 1.0, [0.25, 0.5]),
        (1.0, 3.0, [1.3, -2.0, 7.5]),
        (0.1, 0.7, [0.0]),
    ):
        mech = LaplaceMechanism(lambda d: float(np.sum(d)), sensitivity, epsilon)
        compared += n
        mismatched += _lattice_mismatches(mech, np.array(data), n, mech.noise.scale)
    control = LaplaceMechanism(lambda d: float(np.sum(d)), 1.0, 0.5)
    assert control.noise.scale is not None
    bad = _lattice_mismatches(
        with_attribute(control, "noise", DiscreteLaplaceNoise(scale=control.noise.scale * 5 / 4)),
        np.array([0.25, 0.5]),
        n,
        control.noise.scale,
    )
    return CheckOutcome(
        mismatched == 0 and bad > 0,
        f"{compared} releases of LaplaceMechanism.sample equal γ·(lattice value + "
        f"discrete_laplace draw) from the same generator: {mismatched} differ; control (noise at "
        f"1.25 × the scale): {bad} of {n} differ",
        {"compared": compared, "mismatched": mismatched, "control_mismatched": bad},
        [Control("noise drawn at 1.25 × the lattice scale", bad > 0, f"{bad} of {n} differ")],
        [Slack("releases differing from the bound sampler (a bug: ≥ 1)", 1.0, float(mismatched))],
    )


def _lattice_mismatches(mech: Any, data: Any, n: int, scale: Fraction | None) -> int:
    seed = 20261125
    released = mech.sample(data, n, np.random.default_rng(seed))
    assert scale is not None
    z = noise.discrete_laplace(scale, n, np.random.default_rng(seed))
    expected = (int(mech.lattice_value(data)[0]) + z).astype(np.float64) * mech.granularity
    return int(np.count_nonzero(released != expected))
