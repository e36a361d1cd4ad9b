"""Goodness of fit of the exact samplers of ``dpspec.noise`` against their exact pmfs.

Every statistical test here has a fixed seed, 2·10^5 or more draws and level α = 1e-6 (stated
in each docstring): a correct sampler fails with probability ≤ 1e-6 per test, and because the
seeds are fixed the outcome is reproducible, not flaky. Each family also has a negative
control: the same test applied to a deliberately wrong sampler (or against the pmf of a
shifted distribution) must reject at the same α, which shows the test has the power to see
the kind of error it is there for.

Chi-square tests bin the exact pmf outcome by outcome, put all unlisted outcomes (the far
tails) into one extra bin, and merge the bins of smallest expected count until every
expected count is ≥ 5; the binning depends on the pmf only, never on the data.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from dpspec import noise
from dpspec.proofs.engine.stats import binomial_pvalue, chisquare_pvalue
from dpspec.validation import rational_at_most

ALPHA = 1e-6
N = 200_000

Prob = Fraction | float


# --- test helpers --------------------------------------------------------------------------


def counts_of(samples: np.ndarray) -> dict[Hashable, int]:
    """Observed count of every distinct value of a 1-D sample."""
    values, counts = np.unique(np.asarray(samples), return_counts=True)
    return dict(zip(values.tolist(), counts.tolist(), strict=True))


def integer_pmf(pmf_at: Callable[[int], Prob], lo: int, hi: int) -> dict[Hashable, Prob]:
    """{z: pmf(z)} for lo ≤ z ≤ hi (the rest of the mass goes to the tail bin)."""
    return {z: pmf_at(z) for z in range(lo, hi + 1)}


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


# --- bernoulli_exp_neg ---------------------------------------------------------------------

BERNOULLI_CASES = [
    (1, [0, 1, 2, 5]),  # γ = 0, 1 (boundary of the series trick), a > d
    (3, [0, 1, 2, 3, 7, 10]),  # γ ≤ 1 and γ > 1 with a remainder
    (4, [0, 3, 13]),
    (2**32, [0, 2**31, 3 * 2**31]),  # a large denominator, as ε = 0.1 produces
]


@pytest.mark.parametrize(("d", "exponents"), BERNOULLI_CASES)
def test_bernoulli_exp_neg_matches_exp_minus_a_over_d(d: int, exponents: list[int]) -> None:
    """Exact binomial test per exponent, α = 1e-6: P(True) = exp(−a/d).

    All exponents are drawn in one vectorised call (mixed entries), N draws each.
    """
    a = np.repeat(np.array(exponents, dtype=np.int64), N)
    out = noise.bernoulli_exp_neg(a, d, rng(101 + d % 1000))
    assert out.dtype == np.bool_ and out.shape == a.shape
    for i, ai in enumerate(exponents):
        group = out[i * N : (i + 1) * N]
        p = binomial_pvalue(int(group.sum()), N, math.exp(-ai / d))
        assert p >= ALPHA, f"a={ai}, d={d}: p-value {p:.3g}"


@pytest.mark.parametrize(("d", "exponents"), BERNOULLI_CASES)
def test_bernoulli_exp_neg_negative_control(d: int, exponents: list[int]) -> None:
    """Negative control, α = 1e-6: draws of Bernoulli(exp(−(a + d/10)/d)) tested as
    Bernoulli(exp(−a/d)) must be rejected for every exponent."""
    shift = max(1, d // 10)
    a = np.repeat(np.array(exponents, dtype=np.int64), N)
    out = noise.bernoulli_exp_neg(a + shift, d, rng(202 + d % 1000))
    for i, ai in enumerate(exponents):
        group = out[i * N : (i + 1) * N]
        p = binomial_pvalue(int(group.sum()), N, math.exp(-ai / d))
        assert p < ALPHA, f"a={ai}, d={d}: wrong sampler not rejected (p={p:.3g})"


def test_bernoulli_exp_neg_zero_exponent_is_always_true() -> None:
    """exp(−0/d) = 1: deterministic, no test level needed."""
    out = noise.bernoulli_exp_neg(np.zeros(10_000, dtype=np.int64), 7, rng(5))
    assert out.all()


def test_bernoulli_exp_neg_empty() -> None:
    out = noise.bernoulli_exp_neg(np.zeros(0, dtype=np.int64), 3, rng(5))
    assert out.shape == (0,) and out.dtype == np.bool_


# --- discrete_laplace (CKS sampler, rational scale) ------------------------------------------

EPS_POINT_ONE = rational_at_most(0.1, "epsilon")
SCALES = [Fraction(1), Fraction(10), Fraction(1, 3), 1 / EPS_POINT_ONE]


def discrete_laplace_float_pmf(scale: Fraction) -> dict[Hashable, Prob]:
    """Exact pmf (as floats) of P(Z = z) ∝ exp(−|z|/scale) on a window holding all but ~1e-15."""
    q = math.exp(-1 / float(scale))
    k = int(36 * float(scale)) + 5
    return integer_pmf(lambda z: noise.discrete_laplace_pmf(z, q), -k, k)


@pytest.mark.parametrize("scale", SCALES, ids=["1", "10", "1/3", "1/eps(0.1)"])
def test_discrete_laplace_matches_pmf(scale: Fraction) -> None:
    """Chi-square, α = 1e-6, 4·10^5 draws: P(Z = z) = (1 − q)/(1 + q) q^{|z|}, q = e^{−1/scale}."""
    z = noise.discrete_laplace(scale, 2 * N, rng(11))
    assert z.dtype == np.int64 and z.shape == (2 * N,)
    p = chisquare_pvalue(counts_of(z), discrete_laplace_float_pmf(scale))
    assert p >= ALPHA, f"scale={scale}: p-value {p:.3g}"


@pytest.mark.parametrize("scale", SCALES, ids=["1", "10", "1/3", "1/eps(0.1)"])
def test_discrete_laplace_negative_control(scale: Fraction) -> None:
    """Negative controls, α = 1e-6: the sampler at 1.1× the scale, and the correct sampler
    shifted by +1, both tested against the pmf of ``scale``, must be rejected."""
    pmf = discrete_laplace_float_pmf(scale)
    wide = noise.discrete_laplace(scale * Fraction(11, 10), 2 * N, rng(12))
    assert chisquare_pvalue(counts_of(wide), pmf) < ALPHA
    shifted = noise.discrete_laplace(scale, 2 * N, rng(13)) + 1
    assert chisquare_pvalue(counts_of(shifted), pmf) < ALPHA


def test_discrete_laplace_float_scale_and_empty() -> None:
    """A float scale is taken as the smallest rational ≥ it; size 0 gives an empty int64 array."""
    empty = noise.discrete_laplace(Fraction(1, 2), 0, rng(1))
    assert empty.shape == (0,) and empty.dtype == np.int64
    z = noise.discrete_laplace(2.5, 1000, rng(1))  # type: ignore[arg-type]
    assert z.dtype == np.int64 and z.shape == (1000,)
    np.testing.assert_array_equal(z, noise.discrete_laplace(Fraction(5, 2), 1000, rng(1)))


# --- coarsen_up ----------------------------------------------------------------------------

_SAFE = 2**56


@given(
    num=st.integers(min_value=1, max_value=2**90),
    den=st.integers(min_value=1, max_value=2**90),
)
@example(num=1, den=2**60)  # tiny scale with a huge denominator
@example(num=2**60 + 1, den=3)
@example(num=3**40, den=2**57 + 1)
@example(num=2**56 - 1, den=2**56 - 3)
def test_coarsen_up_contract(num: int, den: int) -> None:
    """Result ≥ scale, relative change ≤ 2^-20, both terms < 2^56; or a ValueError naming
    ``scale`` — which must not happen for scales in [2^-30, 2^30] (the range the samplers use)."""
    scale = Fraction(num, den)
    try:
        out = noise.coarsen_up(scale)
    except ValueError as exc:
        assert str(exc).startswith("scale:")
        assert not Fraction(1, 2**30) <= scale <= 2**30, f"refused a usable scale {scale}"
        return
    assert out >= scale
    assert (out - scale) / scale <= Fraction(1, 2**20)
    assert out.numerator < _SAFE and out.denominator < _SAFE
    if scale.numerator < _SAFE and scale.denominator < _SAFE:
        assert out == scale


def test_coarsen_up_keeps_small_terms_and_rejects_huge_scales() -> None:
    assert noise.coarsen_up(Fraction(7, 3)) == Fraction(7, 3)
    with pytest.raises(ValueError, match=r"^scale:"):
        noise.coarsen_up(Fraction(2**70 + 1, 3))


# --- geometric -----------------------------------------------------------------------------

GEOMETRIC_BASES = [Fraction(1, 2), Fraction(9, 10), Fraction(1, 7)]


def geometric_pmf(q: Fraction, shift: int = 0) -> dict[Hashable, Prob]:
    """Exact P(G = g) = (1 − q) q^(g − shift), g ≥ shift, on a window holding all but ~1e-15."""
    k = int(36 / -math.log(float(q))) + 5
    return {g + shift: (1 - q) * q**g for g in range(k)}


@pytest.mark.parametrize("q", GEOMETRIC_BASES, ids=str)
def test_geometric_matches_pmf(q: Fraction) -> None:
    """Chi-square, α = 1e-6, 2·10^5 draws: P(G = g) = (1 − q) q^g (exact Fractions)."""
    g = noise.geometric(q, N, rng(21))
    assert g.dtype == np.int64 and g.shape == (N,) and g.min() >= 0
    p = chisquare_pvalue(counts_of(g), geometric_pmf(q))
    assert p >= ALPHA, f"q={q}: p-value {p:.3g}"


@pytest.mark.parametrize("q", GEOMETRIC_BASES, ids=str)
def test_geometric_negative_control(q: Fraction) -> None:
    """Negative control, α = 1e-6: the same draws against the pmf of G + 1 must be rejected
    (and so must draws with base q + (1 − q)/10 against the pmf of q)."""
    g = noise.geometric(q, N, rng(22))
    assert chisquare_pvalue(counts_of(g), geometric_pmf(q, shift=1)) < ALPHA
    wrong = noise.geometric(q + (1 - q) / 10, N, rng(23))
    assert chisquare_pvalue(counts_of(wrong), geometric_pmf(q)) < ALPHA


# --- discrete_laplace_base -----------------------------------------------------------------

LAPLACE_BASES = [Fraction(1, 2), Fraction(3, 4), Fraction(1, 10)]


def discrete_laplace_exact_pmf(q: Fraction) -> dict[Hashable, Prob]:
    k = int(36 / -math.log(float(q))) + 5
    return integer_pmf(lambda z: noise.discrete_laplace_pmf(z, q), -k, k)


@pytest.mark.parametrize("q", LAPLACE_BASES, ids=str)
def test_discrete_laplace_base_matches_pmf(q: Fraction) -> None:
    """Chi-square, α = 1e-6, 2·10^5 draws: P(Z = z) = (1 − q)/(1 + q) q^{|z|} (exact)."""
    z = noise.discrete_laplace_base(q, N, rng(31))
    assert z.dtype == np.int64 and z.shape == (N,)
    p = chisquare_pvalue(counts_of(z), discrete_laplace_exact_pmf(q))
    assert p >= ALPHA, f"q={q}: p-value {p:.3g}"


@pytest.mark.parametrize("q", LAPLACE_BASES, ids=str)
def test_discrete_laplace_base_negative_control(q: Fraction) -> None:
    """Negative control, α = 1e-6: draws with base 1.1·q (a wider law), tested against the
    pmf of q, must be rejected; so must the correct draws shifted by +1."""
    pmf = discrete_laplace_exact_pmf(q)
    wrong = noise.discrete_laplace_base(q * Fraction(11, 10), N, rng(32))
    assert chisquare_pvalue(counts_of(wrong), pmf) < ALPHA
    shifted = noise.discrete_laplace_base(q, N, rng(33)) + 1
    assert chisquare_pvalue(counts_of(shifted), pmf) < ALPHA


def test_discrete_laplace_pmf_and_sf_are_exact_with_a_rational_base() -> None:
    """The closed forms sum to 1 and agree with each other exactly (Fractions)."""
    q = Fraction(2, 3)
    window = range(-60, 61)
    inside = sum(noise.discrete_laplace_pmf(z, q) for z in window)
    tails = (1 - noise.discrete_laplace_sf(-60, q)) + noise.discrete_laplace_sf(61, q)
    assert inside + tails == 1
    for k in range(-5, 6):
        assert noise.discrete_laplace_sf(k, q) - noise.discrete_laplace_sf(
            k + 1, q
        ) == noise.discrete_laplace_pmf(k, q)


# --- bernoulli_power -----------------------------------------------------------------------

POWER_CASES = [(Fraction(2, 3), [0, 1, 3, 7]), (Fraction(1, 2), [0, 2, 5])]


@pytest.mark.parametrize(("q", "ks"), POWER_CASES, ids=["2/3", "1/2"])
def test_bernoulli_power_matches_q_to_the_k(q: Fraction, ks: list[int]) -> None:
    """Exact binomial test per k, α = 1e-6, 2·10^5 draws each: P(True) = q^k."""
    k = np.repeat(np.array(ks, dtype=np.int64), N)
    out = noise.bernoulli_power(q, k, rng(41))
    assert out.dtype == np.bool_ and out.shape == k.shape
    for i, ki in enumerate(ks):
        group = out[i * N : (i + 1) * N]
        p = binomial_pvalue(int(group.sum()), N, q**ki)
        assert p >= ALPHA, f"q={q}, k={ki}: p-value {p:.3g}"


@pytest.mark.parametrize(("q", "ks"), POWER_CASES, ids=["2/3", "1/2"])
def test_bernoulli_power_negative_control(q: Fraction, ks: list[int]) -> None:
    """Negative control, α = 1e-6: draws of Bernoulli(q^{k+1}) tested as Bernoulli(q^k)
    must be rejected for every k."""
    k = np.repeat(np.array(ks, dtype=np.int64), N)
    out = noise.bernoulli_power(q, k + 1, rng(42))
    for i, ki in enumerate(ks):
        group = out[i * N : (i + 1) * N]
        assert binomial_pvalue(int(group.sum()), N, q**ki) < ALPHA


# --- categorical_exp_neg / categorical_base ------------------------------------------------


def categorical_float_pmf(a: list[int], d: int) -> dict[Hashable, Prob]:
    w = [math.exp(-(ai - min(a)) / d) for ai in a]
    return {i: wi / sum(w) for i, wi in enumerate(w)}


def categorical_exact_pmf(a: list[int], q: Fraction) -> dict[Hashable, Prob]:
    w = [q ** (ai - min(a)) for ai in a]
    return {i: wi / sum(w) for i, wi in enumerate(w)}


CATEGORICAL_EXP_CASES = [([0, 1, 3, 7], 2), ([5, 2, 2, 9, 0], 3), ([-3, 0, 4], 1)]


@pytest.mark.parametrize(("a", "d"), CATEGORICAL_EXP_CASES)
def test_categorical_exp_neg_matches_pmf(a: list[int], d: int) -> None:
    """Chi-square, α = 1e-6, 2·10^5 draws: P(i) ∝ exp(−a_i/d)."""
    out = noise.categorical_exp_neg(np.array(a), d, N, rng(51))
    assert out.dtype == np.int64 and out.shape == (N,)
    p = chisquare_pvalue(counts_of(out), categorical_float_pmf(a, d))
    assert p >= ALPHA, f"a={a}, d={d}: p-value {p:.3g}"


@pytest.mark.parametrize(("a", "d"), CATEGORICAL_EXP_CASES)
def test_categorical_exp_neg_negative_control(a: list[int], d: int) -> None:
    """Negative control, α = 1e-6: draws with denominator d + 1 (a flatter law), tested
    against the pmf with d, must be rejected."""
    out = noise.categorical_exp_neg(np.array(a), d + 1, N, rng(52))
    assert chisquare_pvalue(counts_of(out), categorical_float_pmf(a, d)) < ALPHA


def test_categorical_exp_neg_per_row_distributions() -> None:
    """2-D weights, one law per draw. Chi-square per row type, α = 1e-6, 10^5 draws each;
    negative control (α = 1e-6): each row type's draws against the other type's law."""
    rows = np.array([[0, 1, 2], [4, 0, 0]] * (N // 2))
    out = noise.categorical_exp_neg(rows, 2, N, rng(53))
    assert out.shape == (N,) and out.dtype == np.int64
    first, second = counts_of(out[0::2]), counts_of(out[1::2])
    pmf_first, pmf_second = categorical_float_pmf([0, 1, 2], 2), categorical_float_pmf([4, 0, 0], 2)
    assert chisquare_pvalue(first, pmf_first) >= ALPHA
    assert chisquare_pvalue(second, pmf_second) >= ALPHA
    assert chisquare_pvalue(first, pmf_second) < ALPHA
    assert chisquare_pvalue(second, pmf_first) < ALPHA


CATEGORICAL_BASE_CASES = [([0, 1, 2, 5], Fraction(2, 3)), ([3, 0, 1], Fraction(1, 2))]


@pytest.mark.parametrize(("a", "q"), CATEGORICAL_BASE_CASES, ids=["2/3", "1/2"])
def test_categorical_base_matches_pmf(a: list[int], q: Fraction) -> None:
    """Chi-square, α = 1e-6, 2·10^5 draws: P(i) ∝ q^{a_i} (exact Fractions)."""
    out = noise.categorical_base(np.array(a), q, N, rng(61))
    assert out.dtype == np.int64 and out.shape == (N,)
    p = chisquare_pvalue(counts_of(out), categorical_exact_pmf(a, q))
    assert p >= ALPHA, f"a={a}, q={q}: p-value {p:.3g}"


@pytest.mark.parametrize(("a", "q"), CATEGORICAL_BASE_CASES, ids=["2/3", "1/2"])
def test_categorical_base_negative_control(a: list[int], q: Fraction) -> None:
    """Negative control, α = 1e-6: draws with base q + (1 − q)/4, tested against the pmf
    of q, must be rejected."""
    out = noise.categorical_base(np.array(a), q + (1 - q) / 4, N, rng(62))
    assert chisquare_pvalue(counts_of(out), categorical_exact_pmf(a, q)) < ALPHA


def test_categorical_shapes() -> None:
    assert noise.categorical_base(np.array([0, 1]), Fraction(1, 2), 0, rng(1)).shape == (0,)
    assert noise.categorical_exp_neg(np.array([0]), 1, 5, rng(1)).tolist() == [0] * 5
    with pytest.raises(ValueError, match=r"^a:"):
        noise.categorical_exp_neg(np.zeros((3, 2), dtype=np.int64), 1, 4, rng(1))
    with pytest.raises(ValueError, match=r"^a:"):
        noise.categorical_base(np.zeros(0, dtype=np.int64), Fraction(1, 2), 4, rng(1))


# --- the chi-square helper itself ----------------------------------------------------------


def test_chisquare_helper_flags_impossible_outcomes_and_merges_tails() -> None:
    """An outcome outside the support gives p = 0; a correct fit is accepted."""
    pmf = {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert chisquare_pvalue({0: 500, 1: 499, 2: 1}, pmf) == 0.0
    assert chisquare_pvalue({0: 500, 1: 500}, pmf) == pytest.approx(1.0)
    assert chisquare_pvalue({0: 600, 1: 400}, pmf) < ALPHA


# --- input validation ----------------------------------------------------------------------

BAD_RNGS = [None, 42, np.random.RandomState(0)]
BAD_BASES = [Fraction(0), Fraction(1), Fraction(3, 2), Fraction(-1, 2), 0.5, 1, True]
GOOD = Fraction(1, 2)


@pytest.mark.parametrize("bad", BAD_RNGS, ids=["None", "int", "RandomState"])
def test_non_generator_rng_is_rejected(bad: object) -> None:
    calls: list[Callable[[Any], object]] = [
        lambda r: noise.bernoulli_exp_neg(np.array([1, 2]), 3, r),
        lambda r: noise.discrete_laplace(Fraction(2), 3, r),
        lambda r: noise.geometric(GOOD, 3, r),
        lambda r: noise.discrete_laplace_base(GOOD, 3, r),
        lambda r: noise.bernoulli_power(GOOD, np.array([1, 2]), r),
        lambda r: noise.categorical_exp_neg(np.array([0, 1]), 1, 3, r),
        lambda r: noise.categorical_base(np.array([0, 1]), GOOD, 3, r),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=r"^rng:"):
            call(bad)


@pytest.mark.parametrize("bad", BAD_BASES, ids=str)
def test_base_outside_open_unit_interval_is_rejected(bad: object) -> None:
    calls: list[Callable[[Any], object]] = [
        lambda b: noise.geometric(b, 3, rng(0)),
        lambda b: noise.discrete_laplace_base(b, 3, rng(0)),
        lambda b: noise.bernoulli_power(b, np.array([1]), rng(0)),
        lambda b: noise.categorical_base(np.array([0, 1]), b, 3, rng(0)),
        lambda b: noise.DiscreteLaplaceNoise(base=b),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=r"^base:"):
            call(bad)


def test_exponents_and_denominators_are_validated() -> None:
    with pytest.raises(ValueError, match=r"^a:"):
        noise.bernoulli_exp_neg(np.array([1, -1]), 2, rng(0))
    with pytest.raises(ValueError, match=r"^a:"):
        noise.bernoulli_exp_neg(np.zeros((2, 2), dtype=np.int64), 2, rng(0))
    for bad_d in (0, -3, 1.5, True):
        with pytest.raises(ValueError, match=r"^d:"):
            noise.bernoulli_exp_neg(np.array([1]), bad_d, rng(0))  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=r"^d:"):
            noise.categorical_exp_neg(np.array([0, 1]), bad_d, 3, rng(0))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^k:"):
        noise.bernoulli_power(GOOD, np.array([2, -1]), rng(0))


def test_scale_and_size_are_validated() -> None:
    for bad_scale in (0, -1, float("nan"), float("inf"), Fraction(-1, 2), "2"):
        with pytest.raises(ValueError, match=r"^scale:"):
            noise.discrete_laplace(bad_scale, 3, rng(0))  # type: ignore[arg-type]
    for bad_size in (-1, 2.0, None):
        with pytest.raises(ValueError, match=r"^size:"):
            noise.discrete_laplace(Fraction(1), bad_size, rng(0))  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=r"^size:"):
            noise.geometric(GOOD, bad_size, rng(0))  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=r"^size:"):
            noise.categorical_base(np.array([0, 1]), GOOD, bad_size, rng(0))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^scale:"):
        noise.DiscreteLaplaceNoise()
    with pytest.raises(ValueError, match=r"^scale:"):
        noise.DiscreteLaplaceNoise(scale=Fraction(1), base=GOOD)


def test_declared_domains_refuse_what_the_samplers_once_truncated() -> None:
    """Floats are refused as exponents (never truncated to integers), a float is not an exact
    rational for coarsen_up, and the noise law's methods check their arguments too."""
    with pytest.raises(ValueError, match=r"^a:"):
        noise.bernoulli_exp_neg(np.array([1.5]), 2, rng(0))
    with pytest.raises(ValueError, match=r"^num:"):
        noise.exp_neg_exponents(np.array([1]), 1.5, 2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^scale:"):
        noise.coarsen_up(0.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^size:"):
        noise.bernoulli_rational(Fraction(1, 2), -1, rng(0))
    law = noise.DiscreteLaplaceNoise(scale=0.1)  # type: ignore[arg-type]
    assert isinstance(law.scale, Fraction) and law.scale >= Fraction(1, 10)  # the law sampled
    with pytest.raises(ValueError, match=r"^size:"):
        law.sample(-1, rng(0))
    with pytest.raises(ValueError, match=r"^z:"):
        law.pmf(0.5)  # type: ignore[arg-type]
