"""Property tests of ``dpspec.spec.privacy`` against the event-level definition.

Seed 000 Def 1.1: A is (ε, δ)-DP when P(F) ≤ e^ε Q(F) + δ for every event F, both ways. The
predicates use the pointwise / hockey-stick forms; here they are compared with brute force
over all 2^|outcomes| events. Every probability and ratio is a ``Fraction``, so every
comparison is exact and nothing is flaky.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from fractions import Fraction
from itertools import chain, combinations, pairwise
from typing import Any

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from dpspec.spec.privacy import (
    INFINITY,
    Prob,
    event_level_dp,
    group_privacy_parameters,
    hockey_stick,
    max_likelihood_ratio,
    pure_dp_one_way,
    satisfies_approx_dp,
    satisfies_group_privacy,
    satisfies_ldp,
    satisfies_pure_dp,
)
from dpspec.strategies import distribution_pairs, distributions

F = Fraction
D = dict[str, Fraction]
OUTCOMES = ("a", "b", "c", "d")

#: Two exact distributions on the same 1–4 outcomes (zeros occur: support mismatch).
pairs = st.integers(1, len(OUTCOMES)).flatmap(lambda n: distribution_pairs(OUTCOMES[:n]))
#: Rational likelihood-ratio bounds e^ε ≥ 1 (1 itself included).
ratios = st.one_of(st.just(F(1)), st.fractions(min_value=1, max_value=8, max_denominator=12))
#: δ ∈ [0, 1).
deltas = st.fractions(min_value=0, max_value=F(39, 40), max_denominator=40)

# q(o) = 0 < p(o): pure DP fails for every finite ratio, the likelihood ratio is infinite.
MISMATCH = ({"a": F(1, 2), "b": F(1, 2)}, {"a": F(1), "b": F(0)})


# --- brute force over events ----------------------------------------------------------------


def events(p: D, q: D) -> Iterator[tuple[str, ...]]:
    outcomes = sorted(set(p) | set(q))
    return chain.from_iterable(combinations(outcomes, k) for k in range(len(outcomes) + 1))


def mass(p: D, event: Sequence[str]) -> Fraction:
    return sum((p.get(o, F(0)) for o in event), F(0))


def brute_max_ratio(p: D, q: D) -> Fraction | float:
    """max over events F with P(F) > 0 of P(F)/Q(F) (∞ when Q(F) = 0)."""
    best: Fraction | float = F(0)
    for event in events(p, q):
        pf, qf = mass(p, event), mass(q, event)
        if pf > 0:
            best = max(best, INFINITY if qf == 0 else pf / qf)
    return best


def brute_hockey(p: D, q: D, ratio: Fraction) -> Fraction:
    """sup over events F of P(F) − ratio · Q(F) (the empty event gives 0)."""
    return max(mass(p, e) - ratio * mass(q, e) for e in events(p, q))


def two_way_ratio(p: D, q: D) -> Fraction | float:
    return max(max_likelihood_ratio(p, q), max_likelihood_ratio(q, p))


def two_way_hockey(p: D, q: D, ratio: Prob) -> Fraction:
    return F(max(hockey_stick(p, q, ratio), hockey_stick(q, p, ratio)))


def below(x: Fraction, floor: Fraction) -> Fraction:
    """A number strictly between ``floor`` and ``x`` (needs floor < x)."""
    return (x + floor) / 2


# --- pure DP --------------------------------------------------------------------------------


@given(pairs, ratios)
@example(MISMATCH, F(10**6))
def test_pure_dp_agrees_with_event_level(pq: tuple[D, D], ratio: F) -> None:
    p, q = pq
    pure = satisfies_pure_dp(p, q, ratio)
    assert pure == event_level_dp(p, q, ratio, 0)
    assert pure == (two_way_ratio(p, q) <= ratio)
    assert pure == (pure_dp_one_way(p, q, ratio) and pure_dp_one_way(q, p, ratio))


def test_support_mismatch_fails_pure_dp_for_every_finite_ratio() -> None:
    p, q = MISMATCH
    assert max_likelihood_ratio(p, q) == INFINITY
    assert max_likelihood_ratio(q, p) == 2
    for ratio in (F(1), F(2), F(10**9)):
        assert not satisfies_pure_dp(p, q, ratio)
        assert not satisfies_pure_dp(q, p, ratio)
        assert not event_level_dp(p, q, ratio, 0)
    # (ε, δ) survives with δ = the mass q misses: H(p‖q) = 1/2 for every ratio
    assert hockey_stick(p, q, F(10**9)) == F(1, 2)
    assert satisfies_approx_dp(p, q, F(2), F(1, 2))
    assert not satisfies_approx_dp(p, q, F(10**9), F(49, 100))


@given(pairs)
@example(MISMATCH)
def test_max_likelihood_ratio_is_the_max_over_events(pq: tuple[D, D]) -> None:
    """max_F P(F)/Q(F) = max_o p(o)/q(o): the smallest ratio with event-level ε-DP (δ = 0)."""
    p, q = pq
    assert max_likelihood_ratio(p, q) == brute_max_ratio(p, q)
    assert max_likelihood_ratio(q, p) == brute_max_ratio(q, p)
    best = two_way_ratio(p, q)
    assert best >= 1  # both sum to 1, so some outcome has p(o) ≥ q(o) > 0 or q(o) = 0
    if best != INFINITY:
        best = F(best)
        assert event_level_dp(p, q, best, 0)
        if best > 1:
            assert not event_level_dp(p, q, below(best, F(1)), 0)
            assert not satisfies_pure_dp(p, q, below(best, F(1)))


# --- approximate DP -------------------------------------------------------------------------


@given(pairs, ratios)
@example(MISMATCH, F(3))
def test_hockey_stick_is_sup_over_events(pq: tuple[D, D], ratio: F) -> None:
    p, q = pq
    assert hockey_stick(p, q, ratio) == brute_hockey(p, q, ratio)
    assert hockey_stick(q, p, ratio) == brute_hockey(q, p, ratio)


@given(pairs, ratios, st.data())
@example(MISMATCH, F(3), None)
def test_approx_dp_agrees_with_the_event_level_definition(
    pq: tuple[D, D], ratio: F, data: st.DataObject | None
) -> None:
    p, q = pq
    threshold = two_way_hockey(p, q, ratio)
    # δ at, just below, or away from the threshold, so both answers are exercised
    candidates = [d for d in (threshold, below(threshold, F(0))) if d < 1]
    delta = F(1, 2) if data is None else data.draw(st.one_of(st.sampled_from(candidates), deltas))
    approx = satisfies_approx_dp(p, q, ratio, delta)
    assert approx == event_level_dp(p, q, ratio, delta)
    assert approx == (threshold <= delta)


@given(pairs, ratios)
def test_approx_dp_threshold_is_tight(pq: tuple[D, D], ratio: F) -> None:
    """δ* = max(H(p‖q), H(q‖p)) is the smallest δ with (ratio, δ)-DP."""
    p, q = pq
    threshold = two_way_hockey(p, q, ratio)
    assume(threshold < 1)
    assert satisfies_approx_dp(p, q, ratio, threshold)
    assert event_level_dp(p, q, ratio, threshold)
    if threshold > 0:
        assert not satisfies_approx_dp(p, q, ratio, below(threshold, F(0)))
        assert not event_level_dp(p, q, ratio, below(threshold, F(0)))


@given(pairs, ratios, deltas)
def test_approx_dp_with_zero_delta_is_pure_dp(pq: tuple[D, D], ratio: F, delta: F) -> None:
    p, q = pq
    assert satisfies_approx_dp(p, q, ratio, 0) == satisfies_pure_dp(p, q, ratio)
    if satisfies_pure_dp(p, q, ratio):
        assert satisfies_approx_dp(p, q, ratio, delta)


# --- monotonicity, symmetry, identity -------------------------------------------------------


@given(pairs, st.data())
def test_monotone_in_ratio_and_delta(pq: tuple[D, D], data: st.DataObject) -> None:
    p, q = pq
    best = two_way_ratio(p, q)
    # start at the exact pure-DP threshold when it is finite, else at a random ratio
    at_threshold = [F(best)] if best != INFINITY else []
    ratio = data.draw(st.one_of(st.sampled_from([*at_threshold, F(1)]), ratios))
    delta = data.draw(st.one_of(st.just(two_way_hockey(p, q, ratio)), deltas))
    assume(delta < 1)
    more_ratio = ratio + data.draw(st.fractions(min_value=0, max_value=4, max_denominator=10))
    more_delta = delta + data.draw(st.fractions(min_value=0, max_value=1 - delta))
    assume(more_delta < 1)
    if satisfies_pure_dp(p, q, ratio):
        assert satisfies_pure_dp(p, q, more_ratio)
    if satisfies_approx_dp(p, q, ratio, delta):
        assert satisfies_approx_dp(p, q, more_ratio, delta)
        assert satisfies_approx_dp(p, q, ratio, more_delta)
        assert satisfies_approx_dp(p, q, more_ratio, more_delta)
    assert hockey_stick(p, q, more_ratio) <= hockey_stick(p, q, ratio)


@given(pairs, ratios, deltas)
@example(MISMATCH, F(2), F(1, 2))
def test_predicates_are_symmetric(pq: tuple[D, D], ratio: F, delta: F) -> None:
    p, q = pq
    assert satisfies_pure_dp(p, q, ratio) == satisfies_pure_dp(q, p, ratio)
    assert satisfies_approx_dp(p, q, ratio, delta) == satisfies_approx_dp(q, p, ratio, delta)
    assert event_level_dp(p, q, ratio, delta) == event_level_dp(q, p, ratio, delta)
    for k in (1, 2, 3):
        assert satisfies_group_privacy(p, q, ratio, delta, k) == satisfies_group_privacy(
            q, p, ratio, delta, k
        )


@given(st.integers(1, 4).flatmap(lambda n: distributions(OUTCOMES[:n])))
def test_identical_distributions_satisfy_ratio_one(p: D) -> None:
    assert satisfies_pure_dp(p, p, 1)
    assert satisfies_approx_dp(p, p, 1, 0)
    assert event_level_dp(p, p, 1, 0)
    assert hockey_stick(p, p, 1) == 0
    assert max_likelihood_ratio(p, p) == 1


@given(st.integers(1, 4).flatmap(lambda n: distributions(OUTCOMES[:n], exact=False)))
def test_identical_float_distributions_satisfy_ratio_one(p: dict[str, float]) -> None:
    assert satisfies_pure_dp(p, p, 1.0)
    assert satisfies_approx_dp(p, p, 1.0, 0.0)
    assert hockey_stick(p, p, 1.0) == 0


# --- group privacy --------------------------------------------------------------------------


@st.composite
def chains(draw: st.DrawFn) -> tuple[list[D], Fraction, Fraction]:
    """p0, …, pk with every adjacent pair (ratio, δ)-DP at its exact (pure or approx) level."""
    k = draw(st.integers(1, 4))
    n = draw(st.integers(2, 4))
    pure = draw(st.booleans())
    law = distributions(OUTCOMES[:n], allow_zero=not pure)
    chain_ = [draw(law) for _ in range(k + 1)]
    adjacent = list(pairwise(chain_))
    if pure:
        ratio = F(max(two_way_ratio(p, q) for p, q in adjacent))
        return chain_, ratio, F(0)
    ratio = draw(ratios)
    delta = max(two_way_hockey(p, q, ratio) for p, q in adjacent)
    assume(delta < 1)
    return chain_, ratio, delta


@given(chains())
def test_group_privacy_chains(args: tuple[list[D], Fraction, Fraction]) -> None:
    chain_, ratio, delta = args
    k = len(chain_) - 1
    for p, q in pairwise(chain_):
        assert satisfies_approx_dp(p, q, ratio, delta)
    first, last = chain_[0], chain_[-1]
    group_ratio, group_delta = group_privacy_parameters(ratio, delta, k)
    assert (group_ratio, group_delta) == (ratio**k, k * ratio ** (k - 1) * delta)
    assert satisfies_group_privacy(first, last, ratio, delta, k)
    # the exact composition bound δ Σ_{i<k} r^i holds, and the spec's δ dominates it
    composed = delta * sum(ratio**i for i in range(k))
    assert two_way_hockey(first, last, group_ratio) <= composed <= group_delta
    if group_delta < 1:
        assert event_level_dp(first, last, group_ratio, group_delta)
    if delta == 0:
        assert satisfies_pure_dp(first, last, group_ratio)


def test_group_privacy_parameters_for_one_change_are_the_parameters() -> None:
    assert group_privacy_parameters(F(3), F(1, 10), 1) == (3, F(1, 10))
    assert group_privacy_parameters(F(2), F(1, 10), 3) == (8, F(12, 10))


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_group_privacy_ratio_is_tight(k: int) -> None:
    """p_i = (2^-(i+1), 1 − 2^-(i+1)): adjacent pairs are exactly 2-DP, p_0 vs p_k exactly 2^k."""
    chain_ = [{"a": F(1, 2 ** (i + 1)), "b": 1 - F(1, 2 ** (i + 1))} for i in range(k + 1)]
    for p, q in pairwise(chain_):
        assert two_way_ratio(p, q) == 2
        assert satisfies_pure_dp(p, q, 2)
    first, last = chain_[0], chain_[-1]
    group_ratio, group_delta = group_privacy_parameters(F(2), F(0), k)
    assert (group_ratio, group_delta) == (2**k, 0)
    assert satisfies_group_privacy(first, last, 2, 0, k)
    assert max_likelihood_ratio(first, last) == 2**k
    assert not satisfies_pure_dp(first, last, 2**k - F(1, 1000))
    assert not event_level_dp(first, last, 2**k - F(1, 1000), 0)


@pytest.mark.parametrize("k", [1, 2, 3, 4])
@pytest.mark.parametrize(("ratio", "delta"), [(F(1), F(1, 10)), (F(2), F(1, 100))])
def test_group_privacy_delta_is_attained(k: int, ratio: F, delta: F) -> None:
    """p_i(A) = δ Σ_{j<k−i} r^j: adjacent pairs are exactly (r, δ)-DP, and p_0 vs p_k needs
    δ Σ_{i<k} r^i at ratio r^k. For r = 1 that is the spec's k-fold δ exactly (tight)."""
    mass_a = [delta * sum(ratio**j for j in range(k - i)) for i in range(k + 1)]
    chain_ = [{"A": m, "B": 1 - m} for m in mass_a]
    for p, q in pairwise(chain_):
        assert two_way_hockey(p, q, ratio) == delta
        assert satisfies_approx_dp(p, q, ratio, delta)
        assert not satisfies_approx_dp(p, q, ratio, delta - F(1, 10**4))
    first, last = chain_[0], chain_[-1]
    group_ratio, group_delta = group_privacy_parameters(ratio, delta, k)
    needed = delta * sum(ratio**i for i in range(k))
    assert two_way_hockey(first, last, group_ratio) == needed <= group_delta
    assert satisfies_group_privacy(first, last, ratio, delta, k)
    assert not satisfies_approx_dp(first, last, group_ratio, needed - F(1, 10**4))
    if ratio == 1:
        assert needed == group_delta == k * delta


# --- local DP -------------------------------------------------------------------------------


def randomized_response(k: int, ratio: Fraction) -> dict[int, D]:
    """k-ary randomized response: keep the input w.p. r/(r+k−1), else each other value."""
    keep, other = ratio / (ratio + k - 1), 1 / (ratio + k - 1)
    return {x: {str(y): keep if y == x else other for y in range(k)} for x in range(k)}


def test_binary_randomized_response_is_exactly_log3_ldp() -> None:
    table = {0: {"0": F(3, 4), "1": F(1, 4)}, 1: {"0": F(1, 4), "1": F(3, 4)}}
    assert table == randomized_response(2, F(3))
    assert satisfies_ldp(table, F(3))
    assert not satisfies_ldp(table, F(29, 10))
    assert satisfies_ldp(table, F(31, 10))


@given(st.integers(2, 4), ratios)
def test_randomized_response_ldp_level_is_exact(k: int, ratio: F) -> None:
    table = randomized_response(k, ratio)
    assert all(sum(law.values()) == 1 for law in table.values())
    assert satisfies_ldp(table, ratio)
    if ratio > 1:
        assert not satisfies_ldp(table, below(ratio, F(1)))


def test_ldp_compares_every_pair_of_inputs_not_only_neighbours() -> None:
    """Inputs 0–1 and 1–2 are 2-DP, but 0 vs 2 needs ratio 4: LDP is over all input pairs."""
    table = {i: {"a": F(1, 2 ** (i + 1)), "b": 1 - F(1, 2 ** (i + 1))} for i in range(3)}
    assert not satisfies_ldp(table, F(2))
    assert not satisfies_ldp(table, F(399, 100))
    assert satisfies_ldp(table, F(4))


@given(
    st.integers(1, 4).flatmap(
        lambda k: st.lists(distributions(OUTCOMES[:3]), min_size=k, max_size=k)
    ),
    ratios,
)
def test_ldp_is_pure_dp_for_every_pair_of_inputs(laws: list[D], ratio: F) -> None:
    table = dict(enumerate(laws))
    expected = all(satisfies_pure_dp(p, q, ratio) for p in laws for q in laws)
    assert satisfies_ldp(table, ratio) == expected
    worst = max(max_likelihood_ratio(p, q) for p in laws for q in laws)
    assert satisfies_ldp(table, ratio) == (worst <= ratio)


def test_ldp_of_a_deterministic_randomiser_fails_every_finite_ratio() -> None:
    identity = {0: {"0": F(1), "1": F(0)}, 1: {"0": F(0), "1": F(1)}}
    assert not satisfies_ldp(identity, F(10**9))
    assert satisfies_ldp({0: {"0": F(1)}}, F(1))  # one input: nothing to compare


# --- bad input ------------------------------------------------------------------------------

P = {"a": F(1, 2), "b": F(1, 2)}
NAN = float("nan")
NAN_P = {"a": NAN, "b": 0.5}


@pytest.mark.parametrize("ratio", [F(1, 2), 0, -1, F(999, 1000), NAN])
@pytest.mark.parametrize(
    "call",
    [
        lambda r: satisfies_pure_dp(P, P, r),
        lambda r: pure_dp_one_way(P, P, r),
        lambda r: satisfies_approx_dp(P, P, r, 0),
        lambda r: hockey_stick(P, P, r),
        lambda r: event_level_dp(P, P, r, 0),
        lambda r: group_privacy_parameters(r, 0, 2),
        lambda r: satisfies_group_privacy(P, P, r, 0, 2),
        lambda r: satisfies_ldp({0: P, 1: P}, r),
    ],
)
def test_ratio_below_one_raises(call: Any, ratio: Any) -> None:
    with pytest.raises(ValueError, match=r"^ratio\b"):
        call(ratio)


@pytest.mark.parametrize("delta", [F(-1, 10), -1e-12, 1, F(3, 2), 1.0, NAN])
@pytest.mark.parametrize(
    "call",
    [
        lambda d: satisfies_approx_dp(P, P, 2, d),
        lambda d: event_level_dp(P, P, 2, d),
        lambda d: group_privacy_parameters(2, d, 2),
        lambda d: satisfies_group_privacy(P, P, 2, d, 2),
    ],
)
def test_delta_outside_unit_interval_raises(call: Any, delta: Any) -> None:
    with pytest.raises(ValueError, match=r"^delta\b"):
        call(delta)


@pytest.mark.parametrize(
    "call",
    [
        lambda p, q: satisfies_pure_dp(p, q, 2),
        lambda p, q: pure_dp_one_way(p, q, 2),
        lambda p, q: satisfies_approx_dp(p, q, 2, 0.1),
        lambda p, q: hockey_stick(p, q, 2),
        lambda p, q: max_likelihood_ratio(p, q),
        lambda p, q: event_level_dp(p, q, 2, 0.1),
        lambda p, q: satisfies_group_privacy(p, q, 2, 0.1, 2),
    ],
)
@pytest.mark.parametrize(
    ("p", "q", "name"),
    [
        (NAN_P, P, "p"),
        (P, NAN_P, "q"),
        ({"a": -0.5, "b": 1.5}, P, "p"),
        (P, {"a": F(-1, 2), "b": F(3, 2)}, "q"),
    ],
)
def test_bad_probabilities_raise_naming_the_distribution(
    call: Any, p: Any, q: Any, name: str
) -> None:
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call(p, q)


def test_group_size_below_one_raises() -> None:
    with pytest.raises(ValueError, match=r"^k\b"):
        group_privacy_parameters(2, 0, 0)


@given(pairs, st.sampled_from([F(1), F(3, 2), F(2), F(4)]))
def test_exact_reports_give_the_hockey_stick_of_every_pair(pq: tuple[D, D], ratio: F) -> None:
    """``verify_pairs`` on an exact pure claim reports as worst δ the largest hockey-stick
    divergence at the claimed ratio, both ways — 0 exactly when the claim holds (it is then
    not summed again), the divergence itself when it fails."""
    from dpspec.proofs.engine.exact import verify_pairs

    p, q = pq
    laws: dict[tuple[Hashable, ...], D] = {("a",): p, ("b",): q}
    report = verify_pairs("pair", laws.__getitem__, [(("a",), ("b",))], ratio)
    both = max(hockey_stick(p, q, ratio), hockey_stick(q, p, ratio))
    assert report.worst_delta == both
    assert report.holds == satisfies_pure_dp(p, q, ratio) == (both == 0)
