"""The discrete Laplace law stated once, in ``dpspec.spec.laws``, and what is derived from it.

* the spec's forms agree with one another exactly (pmf, survival function, cdf at rational q)
  and their interval evaluation encloses the exact value;
* the exact evaluations elsewhere are calls of it (``dpspec.noise``'s closed forms, equal to it
  at rational and float bases);
* the floating-point evaluations that invert it for speed (the conform tables' tail width,
  the adaptive game's error bound) are held to it on a grid (a differential test).
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from dpspec import noise
from dpspec.adaptive import LaplaceAnswers
from dpspec.conform.laws import TAIL_MASS, _tail_half_width
from dpspec.spec.laws import (
    Interval,
    factor,
    two_sided_cdf,
    two_sided_pmf,
    two_sided_sf,
    two_sided_spec,
)

BASES = (Fraction(1, 2), Fraction(1, 3), Fraction(9, 10), Fraction(99, 100), Fraction(1, 1000))
OFFSETS = range(-40, 41)


@pytest.mark.parametrize("q", BASES)
def test_the_spec_laws_forms_agree_exactly(q: Fraction) -> None:
    """P(Z = z) is symmetric; P(Z ≥ k) − P(Z ≥ k + 1) = P(Z = k) (with P(Z ≥ k) → 0 this pins
    the survival function to the pmf); P(Z ≤ t) = 1 − P(Z ≥ t + 1); the mass on [−K, K] is
    1 − 2 P(Z ≥ K + 1)."""
    for z in OFFSETS:
        p = two_sided_pmf(z, q)
        assert isinstance(p, Fraction) and p > 0
        assert p == two_sided_pmf(-z, q) == (1 - q) / (1 + q) * q ** abs(z)
        assert two_sided_sf(z, q) - two_sided_sf(z + 1, q) == p
        assert two_sided_cdf(z, q) == 1 - two_sided_sf(z + 1, q) == two_sided_sf(-z, q)
    assert two_sided_sf(0, q) + two_sided_sf(1, q) == 1  # P(Z ≥ 0) + P(Z ≤ −1)
    for k in (0, 1, 5, 20):
        inner = sum((two_sided_pmf(z, q) for z in range(-k, k + 1)), Fraction(0))
        assert inner == 1 - 2 * two_sided_sf(k + 1, q)


@pytest.mark.parametrize("q", BASES)
def test_the_interval_forms_enclose_the_exact_ones(q: Fraction) -> None:
    point = Interval.point(q)
    for z in OFFSETS:
        for form in (two_sided_pmf, two_sided_sf, two_sided_cdf):
            enclosure, exact = form(z, point), form(z, q)
            assert enclosure.lo <= exact <= enclosure.hi
        shifted = two_sided_spec(q, shift=3)(z + 3)
        assert shifted.lo <= two_sided_pmf(z, q) <= shifted.hi


def test_the_noise_closed_forms_are_the_spec_law() -> None:
    """``dpspec.noise.discrete_laplace_pmf`` / ``_sf`` (the mechanisms' pmf, the conform
    tables) equal the spec law: exactly at rational bases, bit for bit at float bases."""
    for q in BASES:
        for z in OFFSETS:
            assert noise.discrete_laplace_pmf(z, q) == two_sided_pmf(z, q)
            assert noise.discrete_laplace_sf(z, q) == two_sided_sf(z, q)
    for qf in (0.01, 0.5, math.exp(-0.5), 0.999):
        for z in OFFSETS:
            assert noise.discrete_laplace_pmf(z, qf) == two_sided_pmf(z, qf)
            assert noise.discrete_laplace_sf(z, qf) == two_sided_sf(z, qf)


@pytest.mark.parametrize("qf", [0.01, 0.1, 0.5, math.exp(-0.5), 0.9, 0.99, 0.999])
def test_float_evaluations_are_the_exact_law_to_rounding(qf: float) -> None:
    """At a float base the spec's forms are the exact law at that (rational) float to a
    relative error of a few ulps per power."""
    q = Fraction(qf)
    for z in OFFSETS:
        for form in (two_sided_pmf, two_sided_sf, two_sided_cdf):
            assert math.isclose(form(z, qf), float(form(z, q)), rel_tol=1e-13)


@pytest.mark.parametrize("qf", [1e-6, 0.01, 0.3, 0.5, math.exp(-0.5), 0.9, 0.99, 0.999, 0.9999])
@pytest.mark.parametrize("mass", [TAIL_MASS, 1e-6, 0.01])
def test_conform_tail_width_is_the_smallest_of_the_spec_law(qf: float, mass: float) -> None:
    """The conform tables' lumped tails: W (found with logarithms) is the smallest W ≥ 1 with
    P(|Z| > W) = 2·P(Z ≥ W + 1) ≤ mass under the spec law at the (rational) float base, up to
    a relative slack of 1e-9 for the logarithms' rounding."""
    w = _tail_half_width(qf, mass)
    q = Fraction(qf)
    assert 2 * two_sided_sf(w + 1, q) <= mass * (1 + 1e-9)
    assert w == 1 or 2 * two_sided_sf(w, q) > mass * (1 - 1e-9)


@pytest.mark.parametrize("k", [1, 3, 40, 400])
@pytest.mark.parametrize("beta", [0.5, 0.1, 1e-3, 1e-9])
@pytest.mark.parametrize("epsilon", [0.1, 1.0, 5.0])
def test_game_error_bound_is_the_smallest_of_the_spec_law(
    k: int, beta: float, epsilon: float
) -> None:
    """LaplaceAnswers.error_bound (exact path) is t/n for the smallest integer t ≥ 0 with
    k·P(|Z| > t) = k·2·P(Z ≥ t + 1) ≤ β, P of the spec law at the mechanism's (float) base
    e^{−1/scale}."""
    n = 1000
    mech = LaplaceAnswers(n, k, epsilon, 1e-6)
    t = round(mech.error_bound(beta) * n)
    q = math.exp(-1 / float(mech.scale))
    assert k * 2 * two_sided_sf(t + 1, q) <= beta
    assert t == 0 or k * 2 * two_sided_sf(t, q) > beta * (1 - 1e-12)


def test_the_scale_one_factor_is_an_enclosure() -> None:
    """The interval base of the exact checks (q = e^{−1/scale}) holds the float one, and the
    spec law at it encloses the float evaluation."""
    qi = factor(Fraction(1))
    qf = math.exp(-1)
    for z in (-3, 0, 7):
        enclosure = two_sided_pmf(z, qi)
        assert math.isclose(float(enclosure.lo), two_sided_pmf(z, qf), rel_tol=1e-14)
        assert enclosure.width < Fraction(1, 2**150)


@pytest.mark.parametrize("epsilon", [0.25, 0.5, 1.0, 2.0])
def test_the_learner_zoos_data_range_epsilon_is_the_spec_law_in_logs(epsilon: float) -> None:
    """``pcl-data-range``'s true ε is written in logs (finite at every ε); on a grid where the
    plain form does not underflow it equals the log-ratios of the spec law's survival
    function: the released bit is 1 with P(Z ≥ −19) under D and P(Z ≥ 22) under D'."""
    from dpspec.audit.learner_zoo import data_range_epsilon

    q = math.exp(-epsilon / 2)
    on_d, on_d2 = two_sided_sf(-19, q), two_sided_sf(22, q)
    expected = max(math.log(on_d / on_d2), math.log((1 - on_d2) / (1 - on_d)))
    assert data_range_epsilon(epsilon) == pytest.approx(expected, rel=1e-12)
    assert data_range_epsilon(epsilon) != pytest.approx(  # the control: a tail one step off
        max(math.log(two_sided_sf(-19, q) / two_sided_sf(21, q)), 0.0), rel=1e-6
    )
