"""The certified grid accountant (dpspec.accounting.certified, .compositions): against the exact
engine, numerical integration written here, the closed forms, and its own consistency."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from dpspec.accounting import (
    Composition,
    delta_interval,
    epsilon_interval,
    randomized_response_curve,
    subsampled,
)
from dpspec.accounting.certified import distribution_step, grid_curve
from dpspec.accounting.pld import power_fft
from dpspec.proofs.engine.registry import VerifyConfig, by_id
from dpspec.proofs.engine.verify import check_of
from dpspec.spec import accounting as stated


def test_the_grid_contains_the_exact_curve() -> None:
    curve = subsampled(randomized_response_curve(4, Fraction(2)), Fraction(1, 3))
    steps = (distribution_step(curve.forward), distribution_step(curve.backward))
    for copies in (1, 5):
        exact = curve.power(copies)
        grid = grid_curve(steps, copies, 1e-3)
        truth = exact.epsilon_at(Fraction(1, 50), Fraction(1, 2**20))
        found = grid.epsilon_bracket(0.02)
        assert found.lo <= truth.hi and truth.lo <= found.hi
        assert float(found.hi - found.lo) < 0.02
        for eps in (0.0, 0.3, 1.0):
            d, true = grid.delta_bracket(eps), exact.delta_at(eps)
            assert d.lo <= true.hi and true.lo <= d.hi


Density = Callable[[float], float]


def _hockey(p: Density, q: Density, eps: float, lo: float, hi: float) -> float:
    """∫ (p − e^ε q)₊ by quadrature (the two densities given as callables)."""

    def f(x: float) -> float:
        return max(0.0, float(p(x)) - math.exp(eps) * float(q(x)))

    points = np.linspace(lo, hi, 41)
    return sum(
        float(integrate.quad(f, a, b, epsabs=1e-13, epsrel=1e-11, limit=200)[0])
        for a, b in itertools.pairwise(points)
    )


def _densities(c: Composition) -> tuple[Density, Density, float, float]:
    """The base laws at 0 and 1 (A, B) and the mixture M_q = (1 − q)A + qB, as densities."""
    if c.mechanism == "gaussian":
        a = stats.norm(0, c.noise).pdf
        b = stats.norm(1, c.noise).pdf
        lo, hi = -12 * c.noise, 1 + 12 * c.noise
    else:
        a = stats.laplace(0, c.noise).pdf
        b = stats.laplace(1, c.noise).pdf
        lo, hi = -40 * c.noise, 1 + 40 * c.noise
    q = c.rate

    def m(x: float) -> float:
        return float((1 - q) * a(x) + q * b(x))

    return a, m, lo, hi


@pytest.mark.parametrize(
    "composition",
    [
        Composition("gaussian", 1.0, "poisson", 0.1, 1, "add_remove"),
        Composition("gaussian", 0.7, "without_replacement", 0.25, 1, "substitution"),
        Composition("laplace", 1.0, "poisson", 0.2, 1, "add_remove"),
        Composition("laplace", 0.5, "none", 1.0, 1, "add_remove"),
    ],
)
def test_one_step_matches_the_integrated_hockey_stick(composition: Composition) -> None:
    """One step's δ(ε): the max over (M_q, A) and (A, M_q) of ∫ (p − e^ε q)₊, by quadrature."""
    a, m, lo, hi = _densities(composition)
    for eps in (0.05, 0.3, 1.0):
        true = max(_hockey(m, a, eps, lo, hi), _hockey(a, m, eps, lo, hi))
        found = delta_interval(composition, eps, accuracy=1e-3, method="grid")
        assert found.lo - 1e-10 <= true <= found.hi + 1e-10, (eps, true, found)
        assert float(found.hi - found.lo) <= 0.02 * true + 1e-9


def test_closed_forms_agree_with_the_grid_path() -> None:
    for steps, sigma in ((3, 1.0), (20, 4.0)):
        c = Composition("gaussian", sigma, "none", 1.0, steps, "add_remove")
        mu = math.sqrt(steps) / sigma
        closed = epsilon_interval(c, 1e-5)
        grid = epsilon_interval(c, 1e-5, accuracy=5e-3, method="grid")
        true = stated.gaussian_epsilon(1e-5, mu)
        assert closed.lo <= true <= closed.hi and grid.lo <= true <= grid.hi
        assert grid.lo <= closed.lo <= closed.hi <= grid.hi
        d = delta_interval(c, 0.5, accuracy=5e-3, method="grid")
        assert d.lo <= stated.gaussian_delta(0.5, mu) <= d.hi
    pure = Composition("laplace", 0.25, "none", 1.0, 6, "add_remove")
    assert epsilon_interval(pure, 0.0) == epsilon_interval(pure, 0.0, method="grid")
    assert epsilon_interval(pure, 0.0).lo == Fraction(24)
    assert (
        epsilon_interval(Composition("gaussian", 1.0, "none", 1.0, 2, "add_remove"), 0.0).hi
        == math.inf
    )


def test_the_poisson_gaussian_lies_below_its_renyi_bound() -> None:
    c = Composition("gaussian", 1.0, "poisson", 0.01, 1000, "add_remove")
    found = epsilon_interval(c, 1e-5, accuracy=1e-2)
    assert found.lo <= stated.poisson_gaussian_epsilon_upper(0.01, 1.0, 1000, 1e-5)
    assert float(found.hi - found.lo) <= 1e-2 * float(found.hi)


def test_the_catalogue_refuses_what_it_does_not_compute() -> None:
    with pytest.raises(ValueError, match="mechanism"):
        Composition("laplace", 1.0, "shuffle", 0.1, 10, "add_remove")
    with pytest.raises(ValueError, match="rate"):
        Composition("gaussian", 1.0, "shuffle", 0.3, 10, "add_remove")
    with pytest.raises(ValueError, match="steps"):
        Composition("gaussian", 1.0, "shuffle", 0.1, 15, "add_remove")
    with pytest.raises(ValueError, match="epsilon"):
        delta_interval(Composition("gaussian", 1.0, "shuffle", 0.1, 10, "add_remove"), 65.0)
    with pytest.raises(ValueError, match="rate"):
        Composition("gaussian", 1.0, "none", 0.5, 10, "add_remove")
    with pytest.raises(ValueError, match="relation"):
        Composition("gaussian", 1.0, "poisson", 0.5, 10, "substitution")
    with pytest.raises(ValueError, match="relation"):
        Composition("laplace", 1.0, "without_replacement", 0.5, 10, "add_remove")
    with pytest.raises(ValueError, match="noise"):
        Composition("laplace", -1.0, "none", 1.0, 10, "add_remove")


def test_one_fft_power_matches_direct_convolution_within_its_bound() -> None:
    rng = np.random.default_rng(7)
    x = rng.random(50)
    x /= x.sum()
    direct = x
    for _ in range(6):
        direct = np.convolve(direct, x)
    found, error = power_fft(x, 7, 1024)
    assert np.abs(found[: direct.size] - direct).sum() + np.abs(found[direct.size :]).sum() <= error
    assert error < 1e-12


compositions = st.builds(
    Composition,
    mechanism=st.sampled_from(["gaussian", "laplace"]),
    noise=st.floats(0.8, 3.0),
    sampling=st.just("poisson"),
    rate=st.floats(0.02, 0.5),
    steps=st.integers(1, 30),
    relation=st.just("add_remove"),
)


@settings(max_examples=8, deadline=None)
@given(compositions)
def test_the_curve_is_monotone_and_its_two_readings_agree(c: Composition) -> None:
    """δ(ε) decreasing, ε(δ) decreasing, and δ at ε(δ)'s ends on the right side of δ."""
    d1, d2 = delta_interval(c, 0.2, accuracy=0.05), delta_interval(c, 0.6, accuracy=0.05)
    assert d2.lo <= d1.hi
    e1, e2 = epsilon_interval(c, 1e-3, accuracy=0.02), epsilon_interval(c, 1e-2, accuracy=0.02)
    assert e2.lo <= e1.hi
    for target, e in ((1e-3, e1), (1e-2, e2)):
        if math.isfinite(float(e.hi)):
            assert delta_interval(c, float(e.hi), accuracy=0.05).lo <= target
        if e.lo > 0:
            assert delta_interval(c, float(e.lo), accuracy=0.05).hi >= target


@pytest.mark.parametrize(
    "identifier", ["accounting.grid-interval-contains-exact", "accounting.closed-forms"]
)
def test_the_obligations_pass(identifier: str) -> None:
    outcome = check_of(by_id(identifier))(VerifyConfig())
    assert outcome.passed, outcome.detail


@pytest.mark.parametrize("relation", ["add_remove", "substitution"])
def test_a_shuffled_composition_is_the_shuffling_bracket_in_its_units(relation: str) -> None:
    """Composition's noise is over the relation's sensitivity (C, or 2C under substitution);
    the shuffling module's is over C, the factor 2 applied inside: the same bracket."""
    from dpspec.accounting import shuffled_gaussian_delta, shuffled_gaussian_epsilon

    c = Composition("gaussian", 0.75, "shuffle", 0.1, 20, relation)
    sigma, rel = (0.75, "zero-out") if relation == "add_remove" else (1.5, "substitution")
    assert epsilon_interval(c, 1e-5) == shuffled_gaussian_epsilon(sigma, 10, 2, 1e-5, rel)
    assert delta_interval(c, 1.0) == shuffled_gaussian_delta(sigma, 10, 2, 1.0, rel)


def test_shuffling_is_bracketed_above_poisson_at_the_same_rate() -> None:
    """σ = 1, T = 100 batches, 3 epochs, δ = 1e-5: the shuffled ε_lo is above the Poisson
    ε_hi at q = 1/T (the gap an accountant treating shuffling as Poisson misses)."""
    shuffled = epsilon_interval(
        Composition("gaussian", 1.0, "shuffle", 0.01, 300, "add_remove"), 1e-5
    )
    poisson = epsilon_interval(
        Composition("gaussian", 1.0, "poisson", 0.01, 300, "add_remove"), 1e-5
    )
    assert float(shuffled.lo) > 2 * float(poisson.hi)
