"""The exact samplers' draws against their stated laws, statistically: the public entries a
mechanism calls (``discrete_laplace``, ``discrete_laplace_base``, ``bernoulli_exp_neg``,
``categorical_exp_neg``, ``geometric``, randomized response) at large sample sizes, each
against its law in :mod:`dpspec.spec.laws` by a chi-square test — the end-to-end companion of
the enumerated laws of ``sampler_laws.py`` (which derive each law from the code, exactly, at
size 1)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

import numpy as np

from dpspec import noise
from dpspec.mechanisms import RandomizedResponse
from dpspec.noise import (
    bernoulli_exp_neg,
    bernoulli_power,
    bernoulli_rational,
    categorical_base,
    categorical_exp_neg,
    coarsen_up,
    discrete_laplace,
    discrete_laplace_base,
    discrete_laplace_pmf,
    discrete_laplace_sf,
    geometric,
    laplace_sf,
)
from dpspec.proofs.engine.registry import CheckOutcome, Control, Method, Obligation, VerifyConfig
from dpspec.proofs.engine.stats import ALPHA, chisquare_gof
from dpspec.spec.laws import (
    Interval,
    SpecLaw,
    bernoulli_spec,
    categorical_spec,
    exp_neg_interval,
    factor,
    geometric_spec,
    randomized_response_spec,
    two_sided_spec,
)

SEED = 20261122 + 4

Draw = Callable[[np.random.Generator], Any]


def _floats(law: SpecLaw, outcomes: Iterable[Any]) -> dict[Any, float]:
    """The stated law on ``outcomes`` in floating point (each probability's interval is at most
    2^-200 wide: its lower end, as a float, is the probability to within one ulp)."""
    out = {}
    for o in outcomes:
        p = law(o)
        out[o] = float(p.lo if isinstance(p, Interval) else p)
    return out


def _cases(n: int) -> dict[str, tuple[Draw, dict[Any, float], Draw]]:
    """Each sampler: its draws, its stated law, and the same sampler called with a parameter
    off by a modest margin (as a miscalibrated caller would)."""
    window = range(-60, 61)
    seven = np.full(n, 7, dtype=np.int64)
    levels = np.array([0, 1, 3, 6])
    e = 1 / exp_neg_interval(1)  # e^1, the randomized response ratio at ε = 1

    def rr(epsilon: float) -> Draw:
        return lambda r: RandomizedResponse(3, epsilon).randomise(np.zeros(n, dtype=np.int64), r)

    return {
        "discrete_laplace(scale=3)": (
            lambda r: noise.discrete_laplace(Fraction(3), n, r),
            _floats(two_sided_spec(factor(Fraction(3))), window),
            lambda r: noise.discrete_laplace(Fraction(15, 4), n, r),
        ),
        "discrete_laplace_base(1/2)": (
            lambda r: noise.discrete_laplace_base(Fraction(1, 2), n, r),
            _floats(two_sided_spec(Fraction(1, 2)), window),
            lambda r: noise.discrete_laplace_base(Fraction(4, 7), n, r),
        ),
        "bernoulli_exp_neg(7/3)": (
            lambda r: noise.bernoulli_exp_neg(seven, 3, r),
            _floats(bernoulli_spec(exp_neg_interval(Fraction(7, 3))), (1, 0)),
            lambda r: noise.bernoulli_exp_neg(4 * seven, 15, r),
        ),
        "categorical_exp_neg": (
            lambda r: noise.categorical_exp_neg(levels, 2, n, r),
            _floats(
                categorical_spec([exp_neg_interval(Fraction(a, 2)) for a in (0, 1, 3, 6)]),
                range(4),
            ),
            lambda r: noise.categorical_exp_neg(2 * levels, 5, n, r),
        ),
        "geometric(2/3)": (
            lambda r: noise.geometric(Fraction(2, 3), n, r),
            _floats(geometric_spec(Fraction(2, 3)), range(80)),
            lambda r: noise.geometric(Fraction(7, 10), n, r),
        ),
        "randomized_response(eps=1, k=3)": (
            rr(1.0),
            _floats(randomized_response_spec(e, 3, 0), range(3)),
            rr(1.25),
        ),
    }


@Obligation(
    id="noise.exact-samplers",
    source="Canonne–Kamath–Steinke 2020, Alg 1-2 (float-safe noise for every seed mechanism)",
    claim="the integer-only samplers draw exactly their stated laws",
    method=Method.STATISTICAL,
    predicates=(
        two_sided_spec,
        bernoulli_spec,
        categorical_spec,
        geometric_spec,
        randomized_response_spec,
    ),
    impls=(
        bernoulli_exp_neg,
        discrete_laplace,
        coarsen_up,
        bernoulli_rational,
        bernoulli_power,
        geometric,
        discrete_laplace_base,
        categorical_exp_neg,
        categorical_base,
        discrete_laplace_pmf,
        discrete_laplace_sf,
        laplace_sf,
    ),
    entry_points=(discrete_laplace, discrete_laplace_base, bernoulli_exp_neg, geometric),
)
def exact_samplers_statistical(config: VerifyConfig) -> CheckOutcome:
    """Each exact sampler matches its law of :mod:`dpspec.spec.laws` (chi-square, α = 1e-6
    each, 6 tests: family-wise false alarm ≤ 6e-6). Controls: the same samplers called with a
    parameter off by a modest margin (scale × 1.25, ε × 1.25, base 1/2 → 4/7, 2/3 → 7/10), as a
    miscalibrated caller would, are rejected against the stated law by the same test."""
    n = 10**6 if config.thorough else 2 * 10**5
    rng = np.random.default_rng(SEED)
    cases = _cases(n)
    accepted, pvalues, controls = 0, {}, []
    for name, (draw, law, miscalibrated) in cases.items():
        good = chisquare_gof(np.asarray(draw(rng)).astype(np.int64), law)
        accepted += not good.rejected
        pvalues[name] = good.pvalue
        bad = chisquare_gof(np.asarray(miscalibrated(rng)).astype(np.int64), law)
        controls.append(
            Control(
                f"{name} called with a parameter off by a modest margin",
                bad.rejected,
                f"p = {bad.pvalue:.3g} against the stated law",
            )
        )
    caught = sum(c.caught for c in controls)
    return CheckOutcome(
        accepted == len(cases) and caught == len(cases),
        f"{accepted}/{len(cases)} samplers fit their law at alpha={ALPHA}; miscalibrated "
        f"calls rejected: {caught}/{len(cases)}; n={n}",
        {"pvalues": pvalues, "alpha": ALPHA, "n": n},
        controls,
    )
