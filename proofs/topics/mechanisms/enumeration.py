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

import contextlib
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any
from unittest import mock

import numpy as np

from dpspec import noise
from dpspec.mechanisms import (
    DiscreteLaplaceMechanism,
    ExponentialMechanism,
    LaplaceMechanism,
    RandomizedResponse,
    StabilityHistogram,
)
from dpspec.noise import DiscreteLaplaceNoise
from dpspec.noise import _laws as noise_laws
from dpspec.noise._laws import (
    GeometricSampler,
    LevelSampler,
    SingleThreshold,
    TablePolicy,
    TwoSidedSampler,
    geometric_sampler,
    two_sided_sampler,
)
from dpspec.noise._reals import Ratio
from dpspec.noise._series import ExpNegExponents, bernoulli_exp_neg_series
from dpspec.noise._tables import TABLE_BITS, first_floor
from dpspec.proofs.engine.law_checks import (
    Interval,
    LawCase,
    Program,
    SpecLaw,
    exp_neg_interval,
    ipow,
    law_check,
    law_off_by_one_ulp,
    table_off_by_one_ulp,
    table_without_refinement,
    with_attribute,
)
from dpspec.proofs.engine.registry import CheckOutcome, Control, Slack, VerifyConfig
from dpspec.spec.neighbours import datasets

#: Tiny tables that still take every path of the block sampler (blocks of 4 or 2 values,
#: the within-block mixture and its residual table, the block tails).
SMALL_POLICY = TablePolicy(direct_scale=2, block_scale=2, tail_nats=4, max_block=4, max_half=4)
#: Composed samplers and mechanisms (whose parts are checked at ulp resolution) are
#: enumerated to a coarser truncation: their maps (blocks, tails, offsets, thresholds) are
#: what is checked there, and a wrong map moves probabilities by far more than 2^-40.
COARSE = Fraction(1, 2**14)
COARSE_CLAIM = Fraction(1, 2**6)
THOROUGH = Fraction(1, 2**22)
MECHANISM = Fraction(1, 2**52)
MECHANISM_CLAIM = Fraction(1, 2**48)


def _first(values: Any) -> int:
    return int(np.asarray(values).ravel()[0])


def _drawing(sampler: Callable[..., Any], *args: Any) -> Program:
    """rng ↦ the one value ``sampler(*args, 1, rng)`` draws."""
    return lambda rng: _first(sampler(*args, 1, rng))


def _sizing(sampler: Any) -> Program:
    """rng ↦ the one value ``sampler.sample(1, rng)`` draws."""
    return lambda rng: _first(sampler.sample(1, rng))


def _locating(table: Any) -> Program:
    """rng ↦ the outcome of a table for one fresh uniform (its first word and refinement)."""
    return lambda rng: _first(table.locate(rng.integers(0, 2**64, size=1, dtype=np.uint64), rng))


def _bernoulli(a: int, d: int) -> Program:
    return lambda rng: bool(noise.bernoulli_exp_neg(np.array([a]), d, rng)[0])


def _series(e: ExpNegExponents) -> Program:
    return lambda rng: bool(bernoulli_exp_neg_series(e, rng)[0])


# --- closed forms of the stated laws (from the public parameters) -------------------------


def factor(scale: Fraction) -> Interval:
    """q = e^{−1/scale} as an interval."""
    return exp_neg_interval(1 / scale)


def geometric_spec(q: Interval | Fraction) -> SpecLaw:
    """P(G = g) = (1 − q) q^g, g ≥ 0."""
    qi = q if isinstance(q, Interval) else Interval.point(q)
    return lambda g: (1 - qi) * ipow(qi, int(g)) if int(g) >= 0 else Fraction(0)


def two_sided_spec(q: Interval | Fraction, shift: int = 0) -> SpecLaw:
    """P(Z = z) = (1 − q)/(1 + q) q^{|z − shift|} on the integers."""
    qi = q if isinstance(q, Interval) else Interval.point(q)
    c = (1 - qi) / (1 + qi)
    return lambda z: c * ipow(qi, abs(int(z) - shift))


def block_spec(q: Interval, block: int, half: int) -> SpecLaw:
    """The block outcome k of the two-sided table (k = 0: J < −K; k = 2K+2: J > K; else
    J = k − K − 1), R = q^B: P(J = j) = (1 − R)R^j/(1 + q) for j ≥ 0, q(1 − R)R^{|j|−1}/(1 + q)
    for j < 0; P(J > K) = R^{K+1}/(1 + q), P(J < −K) = q R^K/(1 + q)."""
    r = ipow(q, block)

    def law(k: Any) -> Interval:
        j = int(k) - half - 1
        if j > half:
            return ipow(r, half + 1) / (1 + q)
        if j < -half:
            return q * ipow(r, half) / (1 + q)
        if j >= 0:
            return (1 - r) * ipow(r, j) / (1 + q)
        return q * (1 - r) * ipow(r, -j - 1) / (1 + q)

    return law


def truncated_geometric_spec(q: Interval, block: int) -> SpecLaw:
    """P(R = r) = q^r (1 − q)/(1 − q^B) on {0..B−1}."""
    total = 1 - ipow(q, block)
    return lambda r: (ipow(q, int(r)) * (1 - q) / total) if 0 <= int(r) < block else Fraction(0)


def categorical_spec(weights: Sequence[Interval | Fraction]) -> SpecLaw:
    """P(i) = w_i / Σ w."""
    ws = [w if isinstance(w, Interval) else Interval.point(w) for w in weights]
    total = Interval.point(0)
    for w in ws:
        total = total + w
    return lambda i: ws[int(i)] / total if 0 <= int(i) < len(ws) else Fraction(0)


def bernoulli_spec(p: Interval) -> SpecLaw:
    return lambda b: p if b else 1 - p


# --- the noise samplers ---------------------------------------------------------------------


def discrete_laplace_law(config: VerifyConfig) -> CheckOutcome:
    """``discrete_laplace``, ``discrete_laplace_base`` and ``geometric`` at size 1 against the
    two-sided and geometric laws (ulp resolution); the block sampler of large scales through
    the same classes with tiny tables (its block table, within-block mixture and tail each at
    ulp resolution, composed with a coarse truncation: its maps move whole probabilities).
    Controls: a threshold one ulp high, the refinement of
    ties skipped, the tail loop stopped one step early, the within-block uniform part one
    unit (B·2^-64) too heavy, a base off by 1/1000."""
    cases: list[LawCase] = []
    for scale in (Fraction(1), Fraction(3, 2)) if config.thorough else (Fraction(1),):
        cases.append(
            LawCase(
                f"discrete_laplace(scale={scale})",
                _drawing(noise.discrete_laplace, scale),
                two_sided_spec(factor(scale)),
            )
        )
    for base in (Fraction(1, 2), Fraction(1, 3)):
        cases.append(
            LawCase(
                f"discrete_laplace_base({base})",
                _drawing(noise.discrete_laplace_base, base),
                two_sided_spec(base),
            )
        )
    for base in (Fraction(1, 2), Fraction(2, 3)) if config.thorough else (Fraction(2, 3),):
        cases.append(
            LawCase(f"geometric({base})", _drawing(noise.geometric, base), geometric_spec(base))
        )
    composed = THOROUGH if config.thorough else COARSE
    for scale in (Fraction(5),):
        q = Ratio(scale.denominator, scale.numerator, exp=True)
        block = TwoSidedSampler(q, SMALL_POLICY)
        qi = factor(scale)
        cases += [
            LawCase(
                f"block table (scale {scale}, B={block.block})",
                _locating(block.table),
                block_spec(qi, block.block, block.half),
            ),
            LawCase(
                f"within-block position (B={block.block})",
                _sizing(block.within),
                truncated_geometric_spec(qi, block.block),
            ),
            LawCase(
                f"block tail (factor q^{block.block})",
                _sizing(block.tail),
                geometric_spec(ipow(qi, block.block)),
            ),
            LawCase(
                f"block sampler, composed (scale {scale})",
                _sizing(block),
                two_sided_spec(qi),
                composed,
                COARSE_CLAIM,
            ),
        ]
        # geometric()'s own block path (scale above the direct table): G = B·A + W, A the
        # geometric at q^B (its own sampler), W the within-block position
        geo = GeometricSampler(q, SMALL_POLICY)
        cases += [
            LawCase(
                f"geometric block sampler: blocks at q^{geo.block}",
                _sizing(geo.outer),
                geometric_spec(ipow(qi, geo.block)),
            ),
            LawCase(
                f"geometric block sampler, composed (scale {scale}, B={geo.block})",
                _sizing(geo),
                geometric_spec(qi),
                composed,
                COARSE_CLAIM,
            ),
        ]
    one = two_sided_sampler(Ratio(1, 1, exp=True))
    block = TwoSidedSampler(Ratio(1, 5, exp=True), SMALL_POLICY)
    tail = geometric_sampler(Ratio(1, 1, exp=True))
    spec1 = two_sided_spec(factor(Fraction(1)))
    controls = [
        (
            "a two-sided table threshold one ulp (2^-64) high",
            LawCase(
                "scale 1, threshold 14 one ulp high",
                _sizing(with_attribute(one, "table", table_off_by_one_ulp(one.table, 14))),
                spec1,
            ),
        ),
        (
            "the refinement of ties skipped (a word equal to a floor decided by the floor)",
            LawCase(
                "scale 1, refinement skipped",
                _sizing(with_attribute(one, "table", table_without_refinement(one.table))),
                spec1,
            ),
        ),
        (
            "the geometric tail loop stopped one step early (G ≥ K not continued)",
            LawCase(
                "geometric e^-1, tail not continued",
                _sizing(with_attribute(tail, "size", tail.size + 1)),
                geometric_spec(factor(Fraction(1))),
            ),
        ),
        (
            "the within-block uniform part one unit (B·2^-64) too heavy",
            LawCase(
                "within-block, uniform part + B·2^-64",
                _sizing(_heavier(block.within)),
                truncated_geometric_spec(factor(Fraction(5)), block.block),
            ),
        ),
        (
            "geometric's base off by 1/1000 (333/1000 drawn as 334/1000)",
            LawCase(
                "geometric(334/1000) against 333/1000",
                _drawing(noise.geometric, Fraction(334, 1000)),
                geometric_spec(Fraction(333, 1000)),
            ),
        ),
    ]
    return law_check(cases, controls, paths=noise_laws)


def _heavier(within: Any) -> Any:
    """The sampler with its uniform part one unit heavier and the residual table of the true
    uniform part (the copy is given the original's table, not one built for its own part)."""
    bad = with_attribute(within, "uniform", within.uniform + within.block)
    bad.residual = within.residual
    bad.threshold = np.uint64(bad.uniform)
    return bad


def bernoulli_exp_law(config: VerifyConfig) -> CheckOutcome:
    """``bernoulli_exp_neg(a, d)`` at size 1 against e^{−a/d} (γ = 0, < 1, = 1, > 1, a 2^32
    denominator, and around 64·ln 2 ≈ 44.36, where the floor ⌊2^64 e^{−γ}⌋ becomes 0: γ = 44
    has floor 1, γ = 44.5 and 45 floor 0, the last one from the shortcut for γ ≥ 45), and the
    alternating series the vectorised path uses for many distinct exponents, through its
    scalar kernel. Controls, planted in the sampler's own code: the threshold one ulp high,
    the refinement skipped; and the probability off by 1/1000 (γ = 1/3 drawn as 1/3 + 1/1000)."""
    exponents = [(0, 1), (1, 3), (3, 3), (7, 3), (2**31, 2**32), (44, 1), (89, 2), (90, 2)]
    cases = [
        LawCase(
            f"bernoulli_exp_neg({a}/{d})",
            _bernoulli(a, d),
            bernoulli_spec(exp_neg_interval(Fraction(a, d))),
        )
        for a, d in exponents
    ]
    for whole, rest, d in ((0, 1, 3), (1, 1, 3), (2, 0, 5)):
        e = ExpNegExponents(np.array([whole]), np.array([rest]), d)
        cases.append(
            LawCase(
                f"alternating series γ = {whole} + {rest}/{d}",
                _series(e),
                bernoulli_spec(exp_neg_interval(whole + Fraction(rest, d))),
            )
        )
    spec = bernoulli_spec(exp_neg_interval(Fraction(1, 3)))
    controls = [
        (
            "the threshold ⌊2^64 e^{-1/3}⌋ one ulp high",
            LawCase(
                "Bernoulli(e^-1/3), threshold one ulp high",
                _bernoulli_planted(
                    1,
                    3,
                    {
                        "bernoulli_floor": _floor_one_ulp_high,
                        "SingleThreshold": _threshold_one_ulp_high,
                    },
                ),
                spec,
            ),
        ),
        (
            "the refinement of a word equal to the threshold skipped",
            LawCase(
                "Bernoulli(e^-1/3), refinement skipped",
                _bernoulli_planted(1, 3, {"count_at_or_below": _refinement_skipped}),
                spec,
            ),
        ),
        (
            "the probability off by 1/1000 (γ = 1/3 + 1/1000)",
            LawCase(
                "Bernoulli(e^-(1/3 + 1/1000)) against e^-1/3",
                lambda rng: bool(noise.bernoulli_exp_neg(np.array([1003]), 3000, rng)[0]),
                spec,
            ),
        ),
    ]
    return law_check(cases, controls)


def _threshold_one_ulp_high(q: Ratio) -> Any:
    return law_off_by_one_ulp(SingleThreshold(q), 0)


def _floor_one_ulp_high(q: Ratio) -> tuple[int, bool]:
    law = _threshold_one_ulp_high(q)
    return first_floor(law, 0, law.bounds(0, TABLE_BITS))


def _refinement_skipped(*args: Any) -> int:
    return 0  # a word equal to the inexact floor decided as U < e^{−γ}, never refined


def _bernoulli_planted(a: int, d: int, bugs: dict[str, Callable[..., Any]]) -> Program:
    """``bernoulli_exp_neg(a/d)`` at size 1 with the names ``bugs`` of ``dpspec.noise``
    replaced while it runs: the sampler's own code with one planted bug."""

    def run(rng: np.random.Generator) -> bool:
        with contextlib.ExitStack() as stack:
            for name, bug in bugs.items():
                stack.enter_context(mock.patch.object(noise, name, bug))
            return bool(noise.bernoulli_exp_neg(np.array([a]), d, rng)[0])

    return run


def categorical_law(config: VerifyConfig) -> CheckOutcome:
    """``categorical_exp_neg``, ``categorical_exp_gap``, ``categorical_base`` and
    ``categorical_exp_levels`` at size 1 against w_i/Σw (tied exponents included: a level with
    several members). Controls: a level threshold one ulp high, the refinement skipped, the
    exponents read at twice the denominator."""
    a, d = [0, 1, 3, 7, 1], 2
    w_exp = [exp_neg_interval(Fraction(x, d)) for x in a]
    gaps = [0, 5, 2**40]
    w_gap = [exp_neg_interval(Fraction(g * 3, 7)) for g in gaps]
    base, b = Fraction(2, 3), [2, 0, 1, 1]
    w_base = [base**x for x in b]
    levels_w = [exp_neg_interval(Fraction(g, 4)) * c for g, c in ((0, 1), (1, 3), (5, 2))]
    cases = [
        LawCase(
            "categorical_exp_neg(a=[0,1,3,7,1], d=2)",
            _drawing(noise.categorical_exp_neg, np.array(a), d),
            categorical_spec(w_exp),
        ),
        LawCase(
            "categorical_exp_gap(gap=[0,5,2^40], 3/7)",
            _drawing(noise.categorical_exp_gap, np.array(gaps), 3, 7),
            categorical_spec(w_gap),
        ),
        LawCase(
            "categorical_base(a=[2,0,1,1], 2/3)",
            _drawing(noise.categorical_base, np.array(b), base),
            categorical_spec(w_base),
        ),
        LawCase(
            "categorical_exp_levels(gaps=[0,1,5], counts=[1,3,2], 1/4)",
            _drawing(noise.categorical_exp_levels, [0, 1, 5], [1, 3, 2], 1, 4),
            categorical_spec(levels_w),
        ),
    ]
    sampler = LevelSampler(Ratio(1, 2, exp=True), (0, 1, 3, 7), (1, 2, 1, 1))
    spec = categorical_spec([w_exp[0], w_exp[1] * 2, w_exp[2], w_exp[3]])
    controls = [
        (
            "a level threshold one ulp high",
            LawCase(
                "levels, threshold 1 one ulp high",
                _sizing(with_attribute(sampler, "table", table_off_by_one_ulp(sampler.table, 1))),
                spec,
            ),
        ),
        (
            "the refinement of ties skipped",
            LawCase(
                "levels, refinement skipped",
                _sizing(with_attribute(sampler, "table", table_without_refinement(sampler.table))),
                spec,
            ),
        ),
        (
            "the exponents read at twice the denominator (e^{-a/(2d)})",
            LawCase(
                "categorical_exp_neg at d = 4 against d = 2",
                _drawing(noise.categorical_exp_neg, np.array(a), 2 * d),
                categorical_spec(w_exp),
            ),
        ),
    ]
    return law_check(cases, controls, paths=noise_laws)


# --- the mechanisms -------------------------------------------------------------------------


def _scores(data: Any) -> Any:
    """Three candidates scored by the counts of records 0 and 1 and a constant 1."""
    arr = np.asarray(data)
    return np.array([int(np.sum(arr == 0)), int(np.sum(arr == 1)), 1])


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
    return lambda rng: _first(mech.sample(np.array(data), 1, rng))


def randomized_response_spec(ratio: Interval | Fraction, k: int, x: int) -> SpecLaw:
    """P(y | x) = r/(r + k − 1) for y = x, 1/(r + k − 1) otherwise (r = e^ε)."""
    r = ratio if isinstance(ratio, Interval) else Interval.point(ratio)
    return lambda y: (r if y == x else Interval.point(1)) / (r + (k - 1))


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
    return lambda rng: _first(mech.randomise(np.array([x]), rng))


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
        expected: dict[Any, Fraction] = {
            y: (1 - q) / (1 + q) * q ** abs(y - c) for y in range(-3, 7)
        }
        expected["below"] = 1 - _upper_tail_exact(q, window[0] - c)
        expected["above"] = _upper_tail_exact(q, window[1] + 1 - c)
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


def _upper_tail_exact(q: Fraction, k: int) -> Fraction:
    """P(Z ≥ k) for the two-sided law of base q: q^k/(1 + q) (k ≥ 0), 1 − q^{1−k}/(1 + q)."""
    return q**k / (1 + q) if k >= 0 else 1 - q ** (1 - k) / (1 + q)


def _count(d: Any) -> int:
    return int(np.sum(np.asarray(d) == 1))


def histogram_threshold(q: Fraction, delta: Fraction) -> int:
    """τ = min{τ ≥ 1 : (1 + e^ε)·P(Z ≥ τ) ≤ δ}, e^ε = q^{-2}, P(Z ≥ τ) = q^τ/(1 + q)."""
    tau = 1
    while (1 + q**-2) * q**tau / (1 + q) > delta:
        tau += 1
    return tau


def histogram_spec(q: Interval | Fraction, tau: int, counts: Sequence[int]) -> SpecLaw:
    """Alg 1 cell by cell: an empty cell stays 0; a cell of count c > 0 is c + Z when
    c + Z ≥ τ, else 0 (Z two-sided of factor q)."""
    qi = q if isinstance(q, Interval) else Interval.point(q)
    cell = two_sided_spec(qi)

    def upper(k: int) -> Interval:  # P(Z ≥ k)
        return ipow(qi, k) / (1 + qi) if k >= 0 else 1 - ipow(qi, 1 - k) / (1 + qi)

    def law(outcome: Any) -> Interval:
        p = Interval.point(1)
        for c, v in zip(counts, outcome, strict=True):
            v = int(v)
            if c == 0:
                p = p * (1 if v == 0 else 0)
            elif v == 0:
                p = p * (1 - upper(tau - c))
            else:
                p = p * (cell(v - c) if v >= tau else Interval.point(0))
        return p

    return law


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
    above = ipow(qe, tau_eps) / (1 + qe) * (1 + ratio)
    below = ipow(qe, tau_eps - 1) / (1 + qe) * (1 + ratio)
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
