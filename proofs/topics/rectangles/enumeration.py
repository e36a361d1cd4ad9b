"""Exact laws of the ch. 5 samplers, derived from the code that runs.

* ``ExponentialMedian.sample`` on every dataset of ≤ 3 points of a small grid, against
  P(x) ∝ q^{top − score(x)} written from the public base q and the score's definition
  (min(#{z ≤ x}, #{z ≥ x}), counted here directly, not with ``median_scores``);
* RandMargins' size noise ``noisy_sizes`` (k = ⌈μ⌉ + Z, Z discrete Laplace of scale 2Δ) on
  parameters with Δ = 1 and 2, against ⌈μ⌉ + the two-sided law of factor e^{−1/(2Δ)}.

The enumerations use the engine's enumerating generator (truncated mass below 2^-64).
Controls: the median's grid one point short at its upper end (an off-by-one of its outside
region), its base off by 1/1000, and the size noise drawn for the wrong Δ.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from dpspec.noise.machinery import laws as noise_laws
from dpspec.proofs.engine.law_checks import LawCase, Program, law_check, with_attribute
from dpspec.proofs.engine.registry import RECOMPUTED, CheckOutcome, Method, Obligation, VerifyConfig
from dpspec.proofs.engine.seeds import THESIS
from dpspec.rectangles.interior_point import ExponentialMedian
from dpspec.rectangles.rand_margins import RandMarginsParameters, noisy_sizes
from dpspec.spec.laws import SpecLaw, exp_neg_interval, two_sided_spec
from dpspec.spec.neighbours import datasets


def median_spec(base: Fraction, grid_max: int, data: Sequence[int]) -> SpecLaw:
    """P(x) = q^{top − s(x)}/Σ_y q^{top − s(y)}, s(x) = min(#{z ≤ x}, #{z ≥ x}); uniform on the
    grid when the data are empty."""
    scores = [
        min(sum(1 for z in data if z <= x), sum(1 for z in data if z >= x))
        for x in range(grid_max + 1)
    ]
    top = max(scores)
    weights = [base ** (top - s) for s in scores]
    total = sum(weights, Fraction(0))
    return lambda x: weights[int(x)] / total if 0 <= int(x) <= grid_max else Fraction(0)


def _median(median: ExponentialMedian, data: tuple[int, ...]) -> Program:
    return lambda rng: int(median.sample(np.array(data, dtype=np.int64), 1, rng)[0])


def _sizes(params: RandMarginsParameters) -> Program:
    return lambda rng: int(noisy_sizes(params, 1, rng)[0])


def size_spec(params: RandMarginsParameters) -> SpecLaw:
    """k = ⌈μ⌉ + Z with P(Z = z) = (1 − q)/(1 + q) q^{|z|} (:func:`two_sided_spec`),
    q = e^{−1/(2Δ)}, μ = 4Δ ln(1/β)."""
    delta = params.sample_complexity
    shift = math.ceil(4 * delta * math.log(1 / params.beta))
    return two_sided_spec(exp_neg_interval(Fraction(1, 2 * delta)), shift)


@Obligation(
    id="rectangles.interior-point.law-enumerated",
    source=f"{THESIS}:L1221 (Def 5.1.1); {THESIS}:L655 (exponential mechanism)",
    claim=(
        "ExponentialMedian.sample draws P(x) ∝ q^{top − score(x)} exactly on every "
        "dataset of ≤ 3 points of {0..4}: its law derived from its code (truncated mass "
        "< 2^-64)"
    ),
    method=Method.EXACT,
    no_predicate=(
        f"{RECOMPUTED}: the law P(x) ∝ q^(top − s(x)) written out in the check (median_spec)"
    ),
    impls=(
        ExponentialMedian,
        "dpspec.noise._laws.CumulativeLevels",
        "dpspec.noise._tables.locate_lazily",
        "dpspec.noise._tables.LazyFloors",
    ),
    entry_points=(ExponentialMedian.sample,),
)
def interior_point_law(config: VerifyConfig) -> CheckOutcome:
    """ExponentialMedian on {0..4} at ε = 1 and ε = 3 (its base q from :func:`median_base`,
    a public attribute) on every dataset of ≤ 3 points (≤ 4 under ``--thorough``)."""
    grid = 4
    max_size = 4 if config.thorough else 3
    cases = []
    for eps in (1.0, 3.0):
        median = ExponentialMedian(eps, grid_max=grid)
        for data in datasets(tuple(range(grid + 1)), max_size):
            cases.append(
                LawCase(
                    f"exponential median ε={eps} on {data}",
                    _median(median, data),
                    median_spec(median.base, grid, data),
                )
            )
    median = ExponentialMedian(1.0, grid_max=grid)
    data = (1, 1, 3)
    spec = median_spec(median.base, grid, data)
    controls = [
        (
            "the grid's upper end excluded (the outside region one point short)",
            LawCase(
                "median with grid_max − 1 against grid_max",
                _median(with_attribute(median, "grid_max", grid - 1), data),
                spec,
            ),
        ),
        (
            "the base off by 1/1000",
            LawCase(
                "median with base + 1/1000",
                _median(with_attribute(median, "base", median.base + Fraction(1, 1000)), data),
                spec,
            ),
        ),
    ]
    return law_check(cases, controls, paths=noise_laws)


@Obligation(
    id="rectangles.rand-margins.size-noise-law-enumerated",
    source=f"{THESIS}:L1320-1326 (Algorithm 4: k_i = ⌈μ + Lap(2Δ)⌉, discrete here)",
    claim=(
        "noisy_sizes draws k = ⌈μ⌉ + Z with Z discrete Laplace of scale 2Δ exactly: its "
        "law derived from its code for Δ = 1 (and 2, 3 with --thorough)"
    ),
    method=Method.EXACT,
    predicates=(two_sided_spec,),
    impls=(noisy_sizes, RandMarginsParameters),
    entry_points=(noisy_sizes,),
)
def size_noise_law(config: VerifyConfig) -> CheckOutcome:
    """``noisy_sizes`` at d = 1 for parameters with Δ = 1 (and 2, 3 under ``--thorough``)
    against ⌈μ⌉ + the two-sided law of scale 2Δ; control: the noise of Δ = 2 checked against
    the law of Δ = 1 (the size noise drawn for the wrong Δ)."""
    one = RandMarginsParameters(1, 40.0, 0.2)  # Δ = ⌈(4/40) ln(2/0.2)⌉ = 1
    two = RandMarginsParameters(1, 8.0, 0.2)  # Δ = ⌈(4/8) ln 10⌉ = 2
    params = [one]
    if config.thorough:
        params += [two, RandMarginsParameters(1, 4.0, 0.2)]  # Δ = 2, 3
    cases = [
        LawCase(f"noisy_sizes with Δ = {p.sample_complexity}", _sizes(p), size_spec(p))
        for p in params
    ]
    controls = [
        (
            "size noise drawn for Δ = 2 where Δ = 1 is stated",
            LawCase(
                "noisy_sizes for the wrong Δ",
                _sizes(two),
                size_spec(one),
                Fraction(1, 2**24),
                Fraction(1, 2**16),
            ),
        )
    ]
    return law_check(cases, controls)  # the samplers' paths: noise.discrete-laplace-law-enumerated
