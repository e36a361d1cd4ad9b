"""The public strategies of ``dpspec.strategies`` produce what their docstrings promise."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import find, given
from hypothesis import strategies as st

from dpspec.spec.neighbours import Relation, is_neighbour
from dpspec.spec.privacy import is_distribution, support
from dpspec.strategies import (
    FloatArray,
    as_records,
    continuous_datasets,
    continuous_neighbouring_pairs,
    distribution_pairs,
    distributions,
    finite_datasets,
    labelled_datasets,
    labelled_domain,
    neighbouring_pairs,
)

DOMAIN = ("a", "b", "c")
XS = (0, 1, 2)
LABELS = ("neg", "pos", "unk")
LDOMAIN = labelled_domain(XS, LABELS)
# x = 9 occurs with one label only: it never has a LABEL neighbour.
SPARSE_LDOMAIN = ((0, 0), (0, 1), (9, 0))
OUTCOMES = ("o1", "o2", "o3", "o4")

Pair = tuple[tuple[Any, ...], tuple[Any, ...]]


# --- datasets -------------------------------------------------------------------------------


@given(finite_datasets(DOMAIN, min_size=2, max_size=5))
def test_finite_datasets_are_tuples_over_the_domain(d: tuple[str, ...]) -> None:
    assert isinstance(d, tuple)
    assert 2 <= len(d) <= 5
    assert set(d) <= set(DOMAIN)


@given(labelled_datasets(XS, LABELS, min_size=1, max_size=6))
def test_labelled_datasets_are_x_y_pairs(d: tuple[tuple[int, str], ...]) -> None:
    assert 1 <= len(d) <= 6
    for record in d:
        assert isinstance(record, tuple) and len(record) == 2
        assert record[0] in XS and record[1] in LABELS


def test_labelled_domain_is_the_product() -> None:
    assert labelled_domain((0, 1)) == ((0, 0), (0, 1), (1, 0), (1, 1))
    assert len(LDOMAIN) == len(set(LDOMAIN)) == len(XS) * len(LABELS)


@given(continuous_datasets(-2.5, 4.0, min_size=1, max_size=7))
def test_continuous_datasets_1d(x: FloatArray) -> None:
    assert x.dtype == np.float64 and x.ndim == 1
    assert 1 <= x.shape[0] <= 7
    assert np.all(np.isfinite(x))
    assert np.all((x >= -2.5) & (x <= 4.0))


@given(continuous_datasets(-1.0, 1.0, min_size=0, max_size=5, dim=3))
def test_continuous_datasets_with_dim(x: FloatArray) -> None:
    assert x.dtype == np.float64 and x.ndim == 2
    assert 0 <= x.shape[0] <= 5 and x.shape[1] == 3
    assert np.all(np.isfinite(x))
    assert np.all(np.abs(x) <= 1.0)


# --- neighbouring pairs over a finite domain ------------------------------------------------


def check_pair(pair: Pair, relation: Relation, domain: tuple[Any, ...], lo: int, hi: int) -> None:
    d, d2 = pair
    assert isinstance(d, tuple) and isinstance(d2, tuple)
    assert is_neighbour(d, d2, relation)
    assert is_neighbour(d2, d, relation)
    assert set(d) | set(d2) <= set(domain)
    assert lo <= len(d) <= hi and lo <= len(d2) <= hi


@given(neighbouring_pairs(DOMAIN, Relation.ADD_REMOVE, max_size=4))
def test_add_remove_pairs_from_a_domain(pair: Pair) -> None:
    check_pair(pair, Relation.ADD_REMOVE, DOMAIN, 0, 4)


@given(neighbouring_pairs(DOMAIN, Relation.SUBSTITUTE, DOMAIN, min_size=2, max_size=5))
def test_substitute_pairs_from_a_domain(pair: Pair) -> None:
    check_pair(pair, Relation.SUBSTITUTE, DOMAIN, 2, 5)


@given(neighbouring_pairs(LDOMAIN, Relation.LABEL, max_size=5))
def test_label_pairs_from_a_domain(pair: Pair) -> None:
    check_pair(pair, Relation.LABEL, LDOMAIN, 1, 5)


@given(neighbouring_pairs(SPARSE_LDOMAIN, Relation.LABEL, max_size=4))
def test_label_pairs_only_change_records_that_have_another_label(pair: Pair) -> None:
    check_pair(pair, Relation.LABEL, SPARSE_LDOMAIN, 1, 4)


@pytest.mark.parametrize("relation", list(Relation))
def test_pairs_from_a_dataset_strategy(relation: Relation) -> None:
    domain = LDOMAIN
    data = labelled_datasets(XS, LABELS, min_size=0, max_size=5)

    @given(neighbouring_pairs(data, relation, domain))
    def check(pair: Pair) -> None:
        d, d2 = pair
        assert is_neighbour(d, d2, relation)
        assert len(d) <= 5 and set(d2) <= set(domain)

    check()


@given(neighbouring_pairs(finite_datasets((7, 8), 0, 3), Relation.SUBSTITUTE, DOMAIN))
def test_pairs_from_a_strategy_substitute_records_outside_the_domain(pair: Pair) -> None:
    d, d2 = pair
    assert is_neighbour(d, d2, Relation.SUBSTITUTE)
    assert len(set(d2) - set(d)) == 1 and (set(d2) - set(d)) <= set(DOMAIN)


def test_add_remove_pairs_both_add_and_remove() -> None:
    """Not degenerate: additions and removals, not only at the end, are both generated."""
    pairs = neighbouring_pairs(DOMAIN, Relation.ADD_REMOVE, max_size=4)
    grown = find(pairs, lambda p: len(p[1]) == len(p[0]) + 1 and p[1][: len(p[0])] != p[0])
    shrunk = find(pairs, lambda p: len(p[1]) == len(p[0]) - 1 and p[1] != p[0][:-1])
    assert is_neighbour(*grown, Relation.ADD_REMOVE)
    assert is_neighbour(*shrunk, Relation.ADD_REMOVE)


# --- neighbouring pairs of continuous datasets ----------------------------------------------


def check_continuous(
    pair: tuple[FloatArray, FloatArray], relation: Relation, lo: int, hi: int, dim: int | None
) -> None:
    x, y = pair
    assert is_neighbour(as_records(x), as_records(y), relation)
    for arr in (x, y):
        assert arr.dtype == np.float64
        assert lo <= arr.shape[0] <= hi
        assert arr.shape[1:] == (() if dim is None else (dim,))
        assert np.all(np.isfinite(arr)) and np.all(np.abs(arr) <= 3.0)


@pytest.mark.parametrize("dim", [None, 1, 3])
@pytest.mark.parametrize("relation", [Relation.SUBSTITUTE, Relation.ADD_REMOVE])
def test_continuous_neighbouring_pairs(relation: Relation, dim: int | None) -> None:
    @given(continuous_neighbouring_pairs(-3.0, 3.0, relation, min_size=1, max_size=6, dim=dim))
    def check(pair: tuple[FloatArray, FloatArray]) -> None:
        check_continuous(pair, relation, 1, 6, dim)

    check()


def test_continuous_substitution_differs_from_the_old_row() -> None:
    """A 0.0 row is never "replaced" by -0.0 (equal under ==, so not a neighbour)."""
    pairs = continuous_neighbouring_pairs(-1.0, 1.0, min_size=1, max_size=1)
    x, y = find(pairs, lambda p: p[0][0] == 0.0 and abs(p[1][0]) < 0.5)
    assert x[0] == 0.0 and y[0] != 0.0


def test_as_records() -> None:
    assert as_records(np.array([1.0, -0.0])) == (1.0, 0.0)
    assert as_records(np.array([[1.0, 2.0]])) == ((1.0, 2.0),)
    with pytest.raises(ValueError, match=r"^data"):
        as_records(np.zeros((1, 1, 1)))


# --- distributions --------------------------------------------------------------------------


@given(distributions(OUTCOMES))
def test_exact_distributions_sum_to_exactly_one(p: dict[str, Fraction]) -> None:
    assert set(p) == set(OUTCOMES)
    assert all(isinstance(v, Fraction) and v >= 0 for v in p.values())
    assert sum(p.values()) == 1  # exact: Fractions, no tolerance
    assert is_distribution(p)


@given(distributions(OUTCOMES, exact=False, max_weight=1000))
def test_float_distributions_sum_to_one_within_rounding(p: dict[str, float]) -> None:
    assert set(p) == set(OUTCOMES)
    assert all(isinstance(v, float) and 0 <= v <= 1 for v in p.values())
    assert math.isclose(math.fsum(p.values()), 1.0, rel_tol=0, abs_tol=4 * len(p) * 2.0**-53)
    assert is_distribution(p)


@given(distributions(("only",)))
def test_one_outcome_is_a_point_mass(p: dict[str, Fraction]) -> None:
    assert p == {"only": 1}


@given(distributions(OUTCOMES, allow_zero=False))
def test_no_zero_probabilities_when_disallowed(p: dict[str, Fraction]) -> None:
    assert support(p) == set(OUTCOMES)


@given(distribution_pairs(OUTCOMES))
def test_distribution_pairs_share_outcomes(
    pq: tuple[dict[str, Fraction], dict[str, Fraction]],
) -> None:
    p, q = pq
    assert set(p) == set(q) == set(OUTCOMES)
    assert sum(p.values()) == 1 == sum(q.values())


@given(distribution_pairs(OUTCOMES, exact=False))
def test_float_distribution_pairs(pq: tuple[dict[str, float], dict[str, float]]) -> None:
    assert all(is_distribution(p) and set(p) == set(OUTCOMES) for p in pq)


def test_distribution_pairs_exercise_support_mismatch() -> None:
    """Occasional zeros: some pair has q(o) = 0 < p(o), and some pair has full supports."""
    pairs = distribution_pairs(OUTCOMES)
    p, q = find(pairs, lambda pq: bool(support(pq[0]) - support(pq[1])))
    assert any(p[o] > 0 == q[o] for o in OUTCOMES)
    p, q = find(pairs, lambda pq: support(pq[0]) == support(pq[1]) == set(OUTCOMES))
    assert min(min(p.values()), min(q.values())) > 0


# --- bad arguments --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "name"),
    [
        (lambda: finite_datasets(DOMAIN, 3, 2), "max_size"),
        (lambda: finite_datasets(DOMAIN, -1, 2), "min_size"),
        (lambda: finite_datasets(("a", "a"), 0, 2), "domain"),
        (lambda: finite_datasets((), 1, 2), "domain"),
        (lambda: labelled_datasets((0, 0)), "domain_x"),
        (lambda: continuous_datasets(1.0, 0.0), "max_value"),
        (lambda: continuous_datasets(0.0, math.inf), "min_value"),
        (lambda: continuous_datasets(0.0, 1.0, dim=0), "dim"),
        (
            lambda: neighbouring_pairs(DOMAIN, Relation.ADD_REMOVE, min_size=2, max_size=2),
            "max_size",
        ),
        (lambda: neighbouring_pairs(DOMAIN, Relation.SUBSTITUTE, max_size=0), "max_size"),
        (lambda: neighbouring_pairs(("a",), Relation.SUBSTITUTE), "data"),
        (lambda: neighbouring_pairs(DOMAIN, Relation.LABEL), "domain"),
        (lambda: neighbouring_pairs(((0, 0), (1, 0)), Relation.LABEL), "data"),
        (lambda: neighbouring_pairs(DOMAIN, Relation.SUBSTITUTE, ("a", "z")), "domain"),
        (lambda: neighbouring_pairs(finite_datasets(DOMAIN), Relation.SUBSTITUTE), "domain"),
        (lambda: neighbouring_pairs(DOMAIN, "swap"), "relation"),  # type: ignore[arg-type]
        (lambda: continuous_neighbouring_pairs(0.0, 1.0, Relation.LABEL), "relation"),
        (lambda: continuous_neighbouring_pairs(1.0, 1.0), "max_value"),
        (lambda: distributions(()), "outcomes"),
        (lambda: distributions(("a", "a")), "outcomes"),
        (lambda: distributions(("a",), max_weight=0), "max_weight"),
    ],
)
def test_bad_arguments_raise_value_error_naming_them(make: Any, name: str) -> None:
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        make()


def test_relation_value_strings_are_accepted() -> None:
    @given(neighbouring_pairs(DOMAIN, "substitute", max_size=3))  # type: ignore[arg-type]
    def check(pair: Pair) -> None:
        assert is_neighbour(*pair, Relation.SUBSTITUTE)

    check()


@given(st.data())
def test_strategies_compose_with_data(data: st.DataObject) -> None:
    """Drawn interactively, a pair and a distribution pair of matching size work together."""
    d, d2 = data.draw(neighbouring_pairs(DOMAIN, Relation.SUBSTITUTE, max_size=3))
    p, q = data.draw(distribution_pairs(tuple(range(len(d) + 1))))
    assert is_neighbour(d, d2, Relation.SUBSTITUTE)
    assert len(p) == len(q) == len(d) + 1
