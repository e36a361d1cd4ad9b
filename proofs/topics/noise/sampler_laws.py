"""The exact laws of the noise samplers (the discrete Laplace and geometric samplers on every
path: direct tables, blocks, within-block mixtures, tails; Bernoulli(exp(−γ)); the categorical
sampler of the exponential mechanism), derived from the code that runs by the enumerating
generator and compared with the stated laws of :mod:`dpspec.spec.laws` at one ulp of a table."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from fractions import Fraction
from typing import Any
from unittest import mock

import numpy as np

from dpspec import noise
from dpspec.noise import (
    bernoulli_exp_neg,
    bernoulli_exp_neg_exponents,
    categorical_base,
    categorical_exp_gap,
    categorical_exp_levels,
    categorical_exp_neg,
    coarsen_up,
    discrete_laplace,
    discrete_laplace_base,
    exp_neg_exponents,
    geometric,
)
from dpspec.noise.machinery import (
    TABLE_BITS,
    ExpNegExponents,
    GeometricSampler,
    LevelSampler,
    Ratio,
    SingleThreshold,
    TablePolicy,
    TwoSidedSampler,
    bernoulli_exp_neg_series,
    first_floor,
    geometric_sampler,
    two_sided_sampler,
)
from dpspec.noise.machinery import laws as noise_laws
from dpspec.proofs.engine.law_checks import (
    COARSE,
    COARSE_CLAIM,
    THOROUGH,
    LawCase,
    Program,
    drawing,
    law_check,
    law_off_by_one_ulp,
    locating,
    sizing,
    table_off_by_one_ulp,
    table_without_refinement,
    with_attribute,
)
from dpspec.proofs.engine.registry import (
    CheckOutcome,
    Method,
    Obligation,
    VerifyConfig,
)
from dpspec.spec.laws import (
    bernoulli_spec,
    block_spec,
    categorical_spec,
    exp_neg_interval,
    factor,
    geometric_spec,
    ipow,
    truncated_geometric_spec,
    two_sided_spec,
)

#: Tiny tables that still take every path of the block sampler (blocks of 4 or 2 values,
#: the within-block mixture and its residual table, the block tails).
SMALL_POLICY = TablePolicy(direct_scale=2, block_scale=2, tail_nats=4, max_block=4, max_half=4)


def _bernoulli(a: int, d: int) -> Program:
    return lambda rng: bool(noise.bernoulli_exp_neg(np.array([a]), d, rng)[0])


def _series(e: ExpNegExponents) -> Program:
    return lambda rng: bool(bernoulli_exp_neg_series(e, rng)[0])


@Obligation(
    id="noise.discrete-laplace-law-enumerated",
    source="the two-sided geometric (discrete Laplace) and geometric laws",
    claim=(
        "discrete_laplace(scale), discrete_laplace_base(q) and geometric(q) at size 1 "
        "have exactly the laws ∝ q^{|z|} and (1 − q)q^g: derived from their code by "
        "enumerating every draw sequence, within a truncated mass below 2^-64 (one ulp "
        "of a table); the block samplers of large scales (two-sided and geometric) part "
        "by part, and composed; every line of every sampler's sample method these laws "
        "reach is run"
    ),
    method=Method.EXACT,
    predicates=(two_sided_spec, geometric_spec, block_spec, truncated_geometric_spec),
    impls=(
        discrete_laplace,
        discrete_laplace_base,
        geometric,
        coarsen_up,
        "dpspec.noise._laws.TwoSidedSampler",
        "dpspec.noise._laws.GeometricSampler",
        "dpspec.noise._laws.TwoSidedLaw",
        "dpspec.noise._laws.GeometricLaw",
        "dpspec.noise._laws.TruncatedGeometricLaw",
        "dpspec.noise._laws.ResidualLaw",
        "dpspec.noise._laws.WithinBlockSampler",
        "dpspec.noise._laws.TablePolicy",
        "dpspec.noise._laws.two_sided_sampler",
        "dpspec.noise._laws.geometric_sampler",
        "dpspec.noise._tables.ThresholdTable",
        "dpspec.noise._tables.CdfLaw",
        "dpspec.noise._tables.threshold_floor",
        "dpspec.noise._tables.count_at_or_below",
        "dpspec.noise._tables.sample_words",
        "dpspec.noise._tables.locate_fresh",
        "dpspec.noise._reals.Ratio",
        "dpspec.noise._reals.exp_neg_bounds",
        "dpspec.noise._reals.ratio_bounds",
        "dpspec.noise._reals.mul",
        "dpspec.noise._reals.div",
        "dpspec.noise._reals.rescale",
        "dpspec.noise._reals.power",
        "dpspec.noise._reals.floor_at",
    ),
    entry_points=(discrete_laplace, discrete_laplace_base, geometric),
    tests=("tests/test_enumeration.py::test_enumerated_geometric_law_is_exact",),
)
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
                drawing(noise.discrete_laplace, scale),
                two_sided_spec(factor(scale)),
            )
        )
    for base in (Fraction(1, 2), Fraction(1, 3)):
        cases.append(
            LawCase(
                f"discrete_laplace_base({base})",
                drawing(noise.discrete_laplace_base, base),
                two_sided_spec(base),
            )
        )
    for base in (Fraction(1, 2), Fraction(2, 3)) if config.thorough else (Fraction(2, 3),):
        cases.append(
            LawCase(f"geometric({base})", drawing(noise.geometric, base), geometric_spec(base))
        )
    composed = THOROUGH if config.thorough else COARSE
    for scale in (Fraction(5),):
        q = Ratio(scale.denominator, scale.numerator, exp=True)
        block = TwoSidedSampler(q, SMALL_POLICY)
        qi = factor(scale)
        cases += [
            LawCase(
                f"block table (scale {scale}, B={block.block})",
                locating(block.table),
                block_spec(qi, block.block, block.half),
            ),
            LawCase(
                f"within-block position (B={block.block})",
                sizing(block.within),
                truncated_geometric_spec(qi, block.block),
            ),
            LawCase(
                f"block tail (factor q^{block.block})",
                sizing(block.tail),
                geometric_spec(ipow(qi, block.block)),
            ),
            LawCase(
                f"block sampler, composed (scale {scale})",
                sizing(block),
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
                sizing(geo.outer),
                geometric_spec(ipow(qi, geo.block)),
            ),
            LawCase(
                f"geometric block sampler, composed (scale {scale}, B={geo.block})",
                sizing(geo),
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
                sizing(with_attribute(one, "table", table_off_by_one_ulp(one.table, 14))),
                spec1,
            ),
        ),
        (
            "the refinement of ties skipped (a word equal to a floor decided by the floor)",
            LawCase(
                "scale 1, refinement skipped",
                sizing(with_attribute(one, "table", table_without_refinement(one.table))),
                spec1,
            ),
        ),
        (
            "the geometric tail loop stopped one step early (G ≥ K not continued)",
            LawCase(
                "geometric e^-1, tail not continued",
                sizing(with_attribute(tail, "size", tail.size + 1)),
                geometric_spec(factor(Fraction(1))),
            ),
        ),
        (
            "the within-block uniform part one unit (B·2^-64) too heavy",
            LawCase(
                "within-block, uniform part + B·2^-64",
                sizing(_heavier(block.within)),
                truncated_geometric_spec(factor(Fraction(5)), block.block),
            ),
        ),
        (
            "geometric's base off by 1/1000 (333/1000 drawn as 334/1000)",
            LawCase(
                "geometric(334/1000) against 333/1000",
                drawing(noise.geometric, Fraction(334, 1000)),
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


@Obligation(
    id="noise.bernoulli-exp-law-enumerated",
    source="Canonne–Kamath–Steinke 2020, Alg 1 (Bernoulli(exp(−γ)))",
    claim=(
        "bernoulli_exp_neg(a, d) at size 1 is exactly Bernoulli(e^{−a/d}) (γ = 0, < 1, "
        "1, > 1, tiny; a 2^32 denominator), and so is the alternating series of the "
        "many-exponent path: derived from their code, within 2^-64"
    ),
    method=Method.EXACT,
    predicates=(bernoulli_spec,),
    impls=(
        bernoulli_exp_neg,
        bernoulli_exp_neg_exponents,
        exp_neg_exponents,
        "dpspec.noise._series.ExpNegExponents",
        "dpspec.noise._series.bernoulli_exp_neg_series",
        "dpspec.noise._series.bernoulli_at_most_one",
        "dpspec.noise._laws.SingleThreshold",
        "dpspec.noise._laws.bernoulli_floor",
    ),
    entry_points=(bernoulli_exp_neg,),
)
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


@Obligation(
    id="noise.categorical-law-enumerated",
    source="the exponential mechanism's sampler (P(i) ∝ e^{−a_i/d})",
    claim=(
        "categorical_exp_neg, categorical_exp_gap, categorical_base and "
        "categorical_exp_levels at size 1 draw exactly P(i) = w_i/Σw (tied weights "
        "included): derived from their code, within 2^-64"
    ),
    method=Method.EXACT,
    predicates=(categorical_spec,),
    impls=(
        categorical_exp_neg,
        categorical_exp_gap,
        categorical_base,
        categorical_exp_levels,
        "dpspec.noise._laws.LevelsLaw",
        "dpspec.noise._laws.LevelSampler",
    ),
    entry_points=(categorical_exp_neg, categorical_base),
)
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
            drawing(noise.categorical_exp_neg, np.array(a), d),
            categorical_spec(w_exp),
        ),
        LawCase(
            "categorical_exp_gap(gap=[0,5,2^40], 3/7)",
            drawing(noise.categorical_exp_gap, np.array(gaps), 3, 7),
            categorical_spec(w_gap),
        ),
        LawCase(
            "categorical_base(a=[2,0,1,1], 2/3)",
            drawing(noise.categorical_base, np.array(b), base),
            categorical_spec(w_base),
        ),
        LawCase(
            "categorical_exp_levels(gaps=[0,1,5], counts=[1,3,2], 1/4)",
            drawing(noise.categorical_exp_levels, [0, 1, 5], [1, 3, 2], 1, 4),
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
                sizing(with_attribute(sampler, "table", table_off_by_one_ulp(sampler.table, 1))),
                spec,
            ),
        ),
        (
            "the refinement of ties skipped",
            LawCase(
                "levels, refinement skipped",
                sizing(with_attribute(sampler, "table", table_without_refinement(sampler.table))),
                spec,
            ),
        ),
        (
            "the exponents read at twice the denominator (e^{-a/(2d)})",
            LawCase(
                "categorical_exp_neg at d = 4 against d = 2",
                drawing(noise.categorical_exp_neg, np.array(a), 2 * d),
                categorical_spec(w_exp),
            ),
        ),
    ]
    return law_check(cases, controls, paths=noise_laws)
