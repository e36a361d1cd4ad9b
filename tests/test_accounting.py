"""Tests of ``dpspec.accounting``: the exact accountant (loss distributions of finite laws, their
composition, δ(ε) and ε(δ) brackets), the mechanisms' curves and the grid engine.

Every expected value here is computed independently of the code under test: the hockey-stick
divergence of the laws (``dpspec.spec.privacy.hockey_stick``), product laws built in the test,
the loss distributions of randomized response and the discrete Laplace count written out in
closed form, the Gaussian curve of ``dpspec.spec.accounting``. Probabilities are Fractions, so
the comparisons are exact and nothing is flaky.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpspec.accounting import (
    EXP_BITS,
    LossDistribution,
    PrivacyCurve,
    discrete_laplace_curve,
    exp_bounds,
    loss_distribution,
    pld,
    privacy_curve,
    randomized_response_curve,
    subsampled,
)
from dpspec.proofs.engine.registry import VerifyConfig, by_id
from dpspec.proofs.engine.verify import check_of
from dpspec.spec.accounting import gaussian_delta
from dpspec.spec.privacy import hockey_stick
from dpspec.strategies import distribution_pairs

F = Fraction
OUTCOMES = ("a", "b", "c", "d")

#: Two exact laws on the same 1–4 outcomes, P with full mass where it is positive (zeros on
#: either side occur: atoms at ∞ and mass P does not reach).
pairs = st.integers(1, len(OUTCOMES)).flatmap(lambda n: distribution_pairs(OUTCOMES[:n]))
ratios = st.fractions(min_value=1, max_value=8, max_denominator=16)


def _product(p: dict[Any, Fraction], q: dict[Any, Fraction]) -> dict[Any, Fraction]:
    return {(a, b): pa * qb for (a, pa), (b, qb) in product(p.items(), q.items())}


@given(pairs, ratios, ratios)
def test_delta_is_monotone_and_a_probability(
    pq: tuple[dict[str, Fraction], dict[str, Fraction]], r1: Fraction, r2: Fraction
) -> None:
    """δ at a ratio is the hockey-stick divergence of the laws, in [0, 1], nonincreasing."""
    p, q = pq
    dist = loss_distribution(p, q)
    lo, hi = sorted((r1, r2))
    assert dist.delta_at_ratio(lo) == hockey_stick(p, q, lo)
    assert 0 <= dist.delta_at_ratio(hi) <= dist.delta_at_ratio(lo) <= 1


@given(pairs)
def test_the_reversed_distribution_is_the_swapped_pair(
    pq: tuple[dict[str, Fraction], dict[str, Fraction]],
) -> None:
    p, q = pq
    assert loss_distribution(p, q).reversed() == loss_distribution(q, p)
    curve = privacy_curve(p, q)
    assert curve.backward == curve.forward.reversed()


@given(pairs, pairs, ratios)
def test_composition_is_the_product_pair(
    a: tuple[dict[str, Fraction], dict[str, Fraction]],
    b: tuple[dict[str, Fraction], dict[str, Fraction]],
    ratio: Fraction,
) -> None:
    """Composing two distributions gives the distribution of the product laws, either order."""
    composed = loss_distribution(*a).compose(loss_distribution(*b))
    direct = loss_distribution(_product(a[0], b[0]), _product(a[1], b[1]))
    assert composed == direct == loss_distribution(*b).compose(loss_distribution(*a))
    assert composed.delta_at_ratio(ratio) == hockey_stick(
        _product(a[0], b[0]), _product(a[1], b[1]), ratio
    )


@given(pairs, st.floats(0, 4), st.sampled_from([32, 64, EXP_BITS]))
def test_the_delta_bracket_contains_the_value_and_is_narrow(
    pq: tuple[dict[str, Fraction], dict[str, Fraction]], epsilon: float, bits: int
) -> None:
    """[δ(R_hi), δ(R_lo)] holds the hockey-stick divergence at every ratio in [R_lo, R_hi]
    (e^ε among them), and its width is at most R_hi − R_lo."""
    p, q = pq
    bracket = loss_distribution(p, q).delta_at(epsilon, bits)
    r_lo, r_hi = exp_bounds(epsilon, bits)
    assert r_lo <= r_hi and r_hi - r_lo <= math.exp(epsilon) * 2.0 ** (8 - bits)
    assert bracket.lo == hockey_stick(p, q, r_hi) and bracket.hi == hockey_stick(p, q, r_lo)
    assert 0 <= bracket.lo <= bracket.hi <= 1
    assert bracket.hi - bracket.lo <= r_hi - r_lo


@given(
    pairs,
    st.fractions(0, F(1, 2), max_denominator=64),
    st.fractions(0, F(1, 2), max_denominator=64),
)
def test_epsilon_is_monotone_in_delta(
    pq: tuple[dict[str, Fraction], dict[str, Fraction]], d1: Fraction, d2: Fraction
) -> None:
    """ε(δ) brackets are certified by δ itself (δ(ε_hi) ≤ δ < δ(ε_lo) or ε_lo = 0), at most
    ``width`` wide, and ε(δ) does not increase with δ."""
    curve = privacy_curve(*pq)
    small, large = sorted((d1, d2))
    width = F(1, 2**12)
    at_small, at_large = curve.epsilon_at(small, width), curve.epsilon_at(large, width)
    for delta, b in ((small, at_small), (large, at_large)):
        if math.isinf(b.hi):
            assert curve.forward.infinite > delta or curve.backward.infinite > delta
            continue
        assert b.hi - b.lo <= width
        assert curve.delta_at(b.hi).hi <= delta
        assert b.lo == 0 or curve.delta_at(b.lo).lo > delta
    assert at_large.hi <= at_small.hi + width


def test_the_two_ends_of_epsilon_of_delta() -> None:
    """ε(δ) = 0 when δ(0) ≤ δ, ∞ when the mass Q does not reach exceeds δ."""
    p, q = {0: F(1, 2), 1: F(1, 2)}, {1: F(1, 2), 2: F(1, 2)}
    dist = loss_distribution(p, q)
    assert dist.infinite == F(1, 2) and dist.q_only == F(1, 2)
    assert math.isinf(dist.epsilon_at(F(1, 4)).lo)
    assert dist.epsilon_at(F(1, 2)).hi == 0  # δ(0) = 1/2 ≤ 1/2


def test_discrete_laplace_loss_takes_two_values() -> None:
    """(1 + Z, Z) with P(Z = z) ∝ q^|z|: ratio 1/q with mass P(Z ≥ 0) = 1/(1 + q), ratio q
    with mass q/(1 + q) (written out here, not computed by the accountant)."""
    for q in (F(1, 2), F(2, 3), F(9, 10)):
        curve = discrete_laplace_curve(q)
        expected = ((q, q / (1 + q)), (1 / q, 1 / (1 + q)))
        assert curve.forward.atoms == expected and curve.forward.infinite == 0
        assert curve.backward.atoms == expected  # symmetric: Z against 1 + Z


def test_randomized_response_atoms() -> None:
    """RR on k values, e^ε = r: ratio r with mass r/(r + k − 1), 1 with (k − 2)/(r + k − 1),
    1/r with 1/(r + k − 1)."""
    for k, r in ((2, F(2)), (3, F(3, 2)), (5, F(7, 4))):
        total = r + k - 1
        expected = [(1 / r, 1 / total), (F(1), (k - 2) / total), (r, r / total)]
        atoms = tuple(a for a in expected if a[1] > 0)
        assert randomized_response_curve(k, r).forward.atoms == atoms


@pytest.mark.parametrize("rate", [F(1, 2), F(1, 5), F(1)])
def test_subsampled_is_the_mixture_pair(rate: Fraction) -> None:
    """Remove: ((1 − p)Q + pP, Q); add: (Q, (1 − p)Q + pP), the mixtures built here from
    randomized response's laws."""
    r, k = F(2), 3
    p = {y: (r if y == 0 else 1) / (r + k - 1) for y in range(k)}
    q = {y: (r if y == 1 else 1) / (r + k - 1) for y in range(k)}
    mix = {y: (1 - rate) * q[y] + rate * p[y] for y in range(k)}
    curve = subsampled(randomized_response_curve(k, r), rate)
    assert curve.forward == loss_distribution(mix, q)
    assert curve.backward == loss_distribution(q, mix)


def test_pure_composition_is_tight() -> None:
    """k copies of RR on 2 values: δ = 0 at r^k, positive just below."""
    curve = randomized_response_curve(2, F(3, 2))
    for k in (1, 2, 5):
        composed = curve.power(k)
        assert composed.delta_at_ratio(F(3, 2) ** k) == 0
        assert composed.delta_at_ratio(F(3, 2) ** k * F(999, 1000)) > 0


def test_the_size_refusal_states_the_estimate_and_the_limit() -> None:
    dist = randomized_response_curve(3, F(2)).forward
    with pytest.raises(ValueError, match=r"copies: the request needs .* the limit is 1000"):
        dist.power(40, limit=1000)
    with pytest.raises(ValueError, match=r"limit: the request needs 9 products"):
        dist.compose(dist, limit=8)
    started = __import__("time").process_time()
    with pytest.raises(ValueError, match="copies"):
        dist.power(2**32)
    assert __import__("time").process_time() - started < 0.1


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: loss_distribution({0: 0.5, 1: 0.5}, {0: F(1)}), "p"),
        (lambda: loss_distribution({0: F(1)}, {0: F(1, 2)}), "q"),
        (lambda: LossDistribution(((F(2), F(1, 2)),)), "atoms"),
        (lambda: LossDistribution(((F(1, 2), F(1)),)), "atoms"),
        (
            lambda: LossDistribution(
                ((F(2), F(1)), (F(1), F(0))),
            ),
            "atoms",
        ),
        (lambda: randomized_response_curve(2, F(1)), "ratio"),
        (lambda: randomized_response_curve(1, F(2)), "values"),
        (lambda: randomized_response_curve(2, 2.0), "ratio"),
        (lambda: discrete_laplace_curve(F(1)), "base"),
        (lambda: subsampled(randomized_response_curve(2, F(2)), F(0)), "rate"),
        (lambda: subsampled(randomized_response_curve(2, F(2)), 0.2), "rate"),
        (lambda: subsampled("curve", F(1, 2)), "curve"),  # type: ignore[arg-type]
        (lambda: randomized_response_curve(2, F(2)).delta_at(-1.0), "epsilon"),
        (lambda: randomized_response_curve(2, F(2)).delta_at(math.nan), "epsilon"),
        (lambda: randomized_response_curve(2, F(2)).epsilon_at(1.0), "delta"),
        (lambda: randomized_response_curve(2, F(2)).epsilon_at(F(1, 10), width=0), "width"),
        (lambda: randomized_response_curve(2, F(2)).delta_at_ratio(F(1, 2)), "ratio"),
        (lambda: randomized_response_curve(2, F(2)).power(0), "copies"),
        (lambda: PrivacyCurve(3, 4), "forward"),  # type: ignore[arg-type]
    ],
)
def test_bad_input_names_the_parameter(call: Any, name: str) -> None:
    with pytest.raises((ValueError, TypeError), match=name):
        call()


@pytest.mark.parametrize("mus", [(0.5, 0.5), (1.0,), (0.3, 0.4, 0.5)])
def test_the_grid_brackets_the_gaussian_curve(mus: tuple[float, ...]) -> None:
    """The pessimistic and optimistic compositions of Gaussian grids bracket the closed form
    of μ = √Σ μ_i² (``dpspec.spec.accounting.gaussian_delta``), within 10^-3 per grid (each
    rounds the loss by at most one 10^-3-nat cell)."""
    mu = math.sqrt(sum(m * m for m in mus))
    pessimistic = pld.compose([pld.gaussian_grid(m, True) for m in mus], True)
    optimistic = pld.compose([pld.gaussian_grid(m, False) for m in mus], False)
    for eps in (0.0, 0.7, 1.5):
        hi = pessimistic.delta(eps, pld.FFT_ERROR * len(mus))
        lo, true = optimistic.delta(eps), gaussian_delta(eps, mu)
        assert lo - 1e-12 <= true <= hi + 1e-12 and hi - lo <= 1e-3 * len(mus)


def test_the_docs_example_runs() -> None:
    """The example of docs/families.md (the block after its ``accounting-example`` marker)."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "families.md").read_text("utf-8")
    block = text.split("<!-- accounting-example -->", 1)[1].split("```python\n", 1)[1]
    exec(compile(block.split("```", 1)[0], "docs/families.md", "exec"), {})


@pytest.mark.parametrize(
    "obligation",
    [
        "accounting.exact-interval-contains-enumerated",
        "accounting.pure-composition-closed-form",
        "accounting.gaussian-closed-form",
    ],
)
def test_the_obligations_pass(obligation: str) -> None:
    assert check_of(by_id(obligation))(VerifyConfig()).passed
