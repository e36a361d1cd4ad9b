"""The production threshold tables of the exact samplers, recomputed independently.

The enumerations of :mod:`.enumeration` derive the laws of the samplers' code on small
tables; the tables the samplers build for the scales users ask for (the lattice Laplace's
scale ≈ 2^21, ε = 0.1, 2^16 exponential-mechanism candidates) are too large to enumerate.
Their correctness is a finite statement: every stored floor F_k equals ⌊2^64 c_k⌋ and every
"exact" flag is right, where c_k is the threshold of the stated law. This check recomputes
each c_k from the law's closed form in interval arithmetic at 2^-256 (fixed-point integers
rounded outward, written here; e^{−x} from the engine's
:func:`~dpspec.proofs.engine.law_checks.exp_neg_interval`, not ``dpspec.noise._reals``) and
compares: zero difference is required. The control is the same comparison on a
table rebuilt with one threshold one unit in the last place (2^-64) high.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from dpspec import noise
from dpspec.mechanisms import ExponentialMechanism
from dpspec.noise.machinery import (
    GeometricSampler,
    Ratio,
    ThresholdTable,
    TwoSidedSampler,
    WithinBlockSampler,
    bernoulli_floor,
    geometric_sampler,
    two_sided_sampler,
)
from dpspec.proofs.engine.law_checks import table_off_by_one_ulp
from dpspec.proofs.engine.registry import (
    RECOMPUTED,
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
)
from dpspec.spec.laws import Interval, exp_neg_interval

BITS = 256


Fixed = tuple[int, int]  # lo ≤ 2^BITS·x ≤ hi


def _fixed(x: Interval) -> Fixed:
    return math.floor(x.lo * 2**BITS), math.ceil(x.hi * 2**BITS)


def _mul(a: Fixed, b: Fixed) -> Fixed:
    return (a[0] * b[0]) >> BITS, -((-(a[1] * b[1])) >> BITS)


def _div(a: Fixed, b: Fixed) -> Fixed:
    return (a[0] << BITS) // b[1], -((-(a[1] << BITS)) // b[0])


def _one_minus(a: Fixed) -> Fixed:
    return (1 << BITS) - a[1], (1 << BITS) - a[0]


def _pow(a: Fixed, k: int) -> Fixed:
    result, base = (1 << BITS, 1 << BITS), a
    while k:
        if k & 1:
            result = _mul(result, base)
        k >>= 1
        if k:
            base = _mul(base, base)
    return result


def factor_of(q: Ratio) -> Fixed:
    """Q = e^{−power·num/den} or (num/den)^power, bounded at 2^-BITS (exact for a dyadic
    rational base)."""
    if q.exp:
        return _fixed(exp_neg_interval(Fraction(q.power * q.num, q.den), BITS + 8))
    return _pow(_fixed(Interval.point(Fraction(q.num, q.den))), q.power)


def geometric_thresholds(q: Fixed, count: int) -> Iterator[Fixed]:
    """c_g = 1 − Q^{g+1}, g < K."""
    p = q
    for _ in range(count):
        yield _one_minus(p)
        p = _mul(p, q)


def block_thresholds(q: Fixed, block: int, half: int) -> Iterator[Fixed]:
    """P(J ≤ j), j = −K−1..K: qR^{|j|−1}/(1 + q) for j < 0, 1 − R^{j+1}/(1 + q) for j ≥ 0."""
    r = _pow(q, block)
    powers = [(1 << BITS, 1 << BITS)]
    for _ in range(half + 1):
        powers.append(_mul(powers[-1], r))
    plus = ((1 << BITS) + q[0], (1 << BITS) + q[1])
    left, right = _div(q, plus), _div((1 << BITS, 1 << BITS), plus)
    for i in range(half + 1):
        yield _mul(left, powers[half - i])
    for j in range(half + 1):
        yield _one_minus(_mul(right, powers[j + 1]))


def residual_thresholds(q: Fixed, block: int, uniform: int) -> Iterator[Fixed]:
    """(c_r − (r + 1)u/B)/(1 − u), c_r = (1 − q^{r+1})/(1 − q^B), u = M/2^64."""
    total = _one_minus(_pow(q, block))
    step = (uniform // block) << (BITS - 64)  # u/B at 2^-BITS (M is a multiple of B)
    keep = (1 << BITS) - (uniform << (BITS - 64))
    p = q
    for r in range(block - 1):
        c = _div(_one_minus(p), total)
        yield _div((c[0] - (r + 1) * step, c[1] - (r + 1) * step), (keep, keep))
        p = _mul(p, q)


def level_thresholds(q: Fixed, gaps: list[int], counts: list[int]) -> Iterator[Fixed]:
    """Σ_{i≤k} counts_i q^{gaps_i} / Σ_i counts_i q^{gaps_i}, k < L − 1."""
    weights = [(c * _pow(q, g)[0], c * _pow(q, g)[1]) for g, c in zip(gaps, counts, strict=True)]
    total = (sum(w[0] for w in weights), sum(w[1] for w in weights))
    head = (0, 0)
    for w in weights[:-1]:
        head = (head[0] + w[0], head[1] + w[1])
        rest = (total[0] - head[0], total[1] - head[1])  # Σ of the later weights
        yield (
            (head[0] << BITS) // (head[0] + rest[1]),
            -((-(head[1] << BITS)) // (head[1] + rest[0])),
        )


def compare(table: ThresholdTable, thresholds: Iterator[Fixed]) -> tuple[int, int, int]:
    """(thresholds compared, floors or exact flags that differ, undetermined intervals)."""
    compared = differ = undetermined = 0
    if table.count == 0:
        return 0, sum(1 for _ in thresholds), 0
    for k, threshold in enumerate(thresholds):
        compared += 1
        verdict = floor_differs(int(table.floors[k]), bool(table.exact[k]), threshold)
        undetermined += verdict is None
        differ += verdict is True
    if compared != table.count:
        differ += abs(table.count - compared)
    return compared, differ, undetermined


def floor_differs(floor: int, exact: bool, threshold: Fixed) -> bool | None:
    """Whether a stored floor and exactness flag differ from ⌊2^64 c⌋ and [2^64 c integer]
    for c in the fixed-point interval ``threshold``; None when the interval cannot tell."""
    clo, chi = threshold
    drop = BITS - 64
    # every threshold is < 1 (the outcomes after it have positive mass): ⌊2^64 c⌋ < 2^64
    lo, hi = clo >> drop, min(chi >> drop, 2**64 - 1)
    if lo != hi:
        return None
    return floor != lo or exact != (clo == chi and clo & ((1 << drop) - 1) == 0)


def _tables_of(
    sampler: TwoSidedSampler | GeometricSampler, q: Ratio
) -> Iterator[tuple[str, ThresholdTable, Iterator[Fixed]]]:
    """Every table of a two-sided or geometric sampler with its recomputed thresholds."""
    qi = factor_of(q)
    if isinstance(sampler, TwoSidedSampler):
        yield "block table", sampler.table, block_thresholds(qi, sampler.block, sampler.half)
        if sampler.within is not None:
            yield from _within(sampler.within, qi)
        yield from _tables_of(sampler.tail, q.to(sampler.block))
    elif sampler.block == 1:
        yield "geometric table", sampler.table, geometric_thresholds(qi, sampler.size)
    else:
        yield from _within(sampler.within, qi)
        yield from _tables_of(sampler.outer, q.to(sampler.block))


def _within(
    within: WithinBlockSampler, qi: Fixed
) -> Iterator[tuple[str, ThresholdTable, Iterator[Fixed]]]:
    yield (
        "within-block residual",
        within.residual,
        residual_thresholds(qi, within.block, within.uniform),
    )


def production_samplers() -> list[tuple[str, TwoSidedSampler | GeometricSampler, Ratio]]:
    """The samplers the public entry points build for the scales of the benchmarks."""
    out: list[tuple[str, TwoSidedSampler | GeometricSampler, Ratio]] = []
    for name, scale in (
        ("discrete_laplace scale 1", Fraction(1)),
        ("discrete_laplace scale 10", Fraction(10)),
        ("discrete_laplace ε=0.1", 1 / Fraction(429496729, 2**32)),
        ("discrete_laplace scale 10^4", Fraction(10**4)),
        ("LaplaceMechanism lattice, ε=1/2", 2 * Fraction(2**20 + 1)),
    ):
        q = Ratio(scale.denominator, scale.numerator, exp=True)
        out.append((name, two_sided_sampler(q), q))
    for base in (Fraction(1, 2), Fraction(9, 10)):
        q = Ratio(base.numerator, base.denominator, exp=False)
        out.append((f"discrete_laplace_base {base}", two_sided_sampler(q), q))
        out.append((f"geometric {base}", geometric_sampler(q), q))
    return out


#: Rates γ whose Bernoulli(e^{−γ}) floor is recomputed: small ones, both sides of
#: 64·ln 2 ≈ 44.36 (where the floor becomes 0) and the shortcut γ ≥ 45.
BERNOULLI_RATES = tuple(
    Fraction(n, d) for n, d in ((1, 3), (1, 1), (7, 3), (44, 1), (4436, 100), (4437, 100), (45, 1))
)


@Obligation(
    id="noise.tables-exact",
    source="the threshold tables of the exact samplers",
    claim=(
        "every floor and exactness flag of the tables the samplers build for the "
        "benchmark scales (1, 10, 1/ε(0.1), 10^4, the lattice Laplace's ≈ 2^21, bases "
        "1/2 and 9/10, Bernoulli(e^{−1/3}), 2^16 exponential-mechanism candidates) "
        "equals ⌊2^64 c_k⌋ of the stated law, recomputed independently to 2^-256: zero "
        "difference"
    ),
    method=Method.EXACT,
    no_predicate=f"{RECOMPUTED}: every floor against ⌊2^64 c_k⌋ of the stated law to 2^-256",
    impls=("dpspec.noise._laws.TwoSidedSampler", "dpspec.noise._tables.ThresholdTable"),
)
def tables_exact(config: VerifyConfig) -> CheckOutcome:
    compared = differ = undetermined = 0
    names: list[str] = []
    for name, sampler, q in production_samplers():
        for part, table, thresholds in _tables_of(sampler, q):
            c, d, u = compare(table, thresholds)
            compared, differ, undetermined = compared + c, differ + d, undetermined + u
            names.append(f"{name} / {part} ({c})")
    for rate in BERNOULLI_RATES:  # the one threshold e^{−γ} of bernoulli_exp_neg
        q = Ratio(rate.numerator, rate.denominator, exp=True)
        verdict = floor_differs(*bernoulli_floor(q), _fixed(exp_neg_interval(rate, BITS + 8)))
        compared, differ = compared + 1, differ + (verdict is True)
        undetermined += verdict is None
    names.append(f"bernoulli_exp_neg floors ({len(BERNOULLI_RATES)})")
    mech = ExponentialMechanism(lambda d: _bench_scores(), 1, epsilon=Fraction(1, 2))
    gap = mech.score_vector([0]).max() - mech.score_vector([0])
    levels = sorted(set(gap.tolist()))
    counts = [int((gap == g).sum()) for g in levels]
    mech.sample([0], 1, np.random.default_rng(0))  # the table the mechanism builds (cached)
    level_table = noise._level_sampler(Ratio(1, 4, exp=True), tuple(levels), tuple(counts)).table
    c, d, u = compare(
        level_table,
        level_thresholds(_fixed(exp_neg_interval(Fraction(1, 4), BITS + 8)), levels, counts),
    )
    compared, differ, undetermined = compared + c, differ + d, undetermined + u
    names.append(f"exponential mechanism 2^16 candidates / levels ({c})")
    # control: the scale-10 block table with threshold 7 one ulp high
    q10 = Ratio(1, 10, exp=True)
    ten = two_sided_sampler(q10)
    bad = table_off_by_one_ulp(ten.table, 7)
    _, bad_differ, _ = compare(bad, block_thresholds(factor_of(q10), ten.block, ten.half))
    passed = differ == 0 and undetermined == 0 and bad_differ == 1
    return CheckOutcome(
        passed,
        f"{compared} thresholds of {len(names)} production tables recomputed to 2^-{BITS}: "
        f"{differ} differ, {undetermined} undetermined; control: the scale-10 table with one "
        f"threshold one ulp high: {bad_differ} difference found",
        {"thresholds": compared, "differ": differ, "undetermined": undetermined, "tables": names},
        [
            Control(
                "a threshold one ulp (2^-64) high",
                bad_differ == 1,
                f"{bad_differ} of {ten.table.count} floors differ",
            )
        ],
        [Slack("stored floors differing from ⌊2^64 c⌋ (a bug: ≥ 1)", 1.0, float(differ))],
    )


def _bench_scores() -> NDArray[np.int64]:
    """The scores of the 2^16-candidate exponential mechanism of ``bench_samplers.py``."""
    return np.asarray(np.arange(2**16) % 977, dtype=np.int64)
