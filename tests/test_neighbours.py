"""Properties of the neighbouring relations in ``dpspec.spec.neighbours``.

``is_neighbour`` is the positional definition; ``neighbours``/``datasets``/``neighbouring_pairs``
enumerate canonical multisets. The oracle for "neighbour up to reordering" is brute force: some
ordering of ``b`` is a positional neighbour of ``a``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from itertools import permutations
from math import comb
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from dpspec.spec.neighbours import (
    Relation,
    datasets,
    is_neighbour,
    neighbouring_pairs,
    neighbours,
)
from dpspec.strategies import finite_datasets
from dpspec.strategies import neighbouring_pairs as st_neighbouring_pairs

PLAIN = ("a", "b", "c")
# x = 0 has three labels, x = 1 only one: a LABEL change must keep x and stay in the domain.
LABELLED = ((0, "n"), (0, "y"), (0, "z"), (1, "n"))
DOMAINS: dict[Relation, tuple[Hashable, ...]] = {
    Relation.ADD_REMOVE: PLAIN,
    Relation.SUBSTITUTE: PLAIN,
    Relation.LABEL: LABELLED,
    Relation.LOCAL: PLAIN,
}
RELATIONS = list(Relation)


def canonical(d: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(sorted(d, key=repr))


def neighbour_up_to_order(a: Sequence[Any], b: Sequence[Any], relation: Relation) -> bool:
    """Brute force: some ordering of ``b`` is a positional neighbour of ``a``."""
    return any(is_neighbour(a, perm, relation) for perm in set(permutations(b)))


def two_datasets(relation: Relation) -> st.SearchStrategy[tuple[Any, Any]]:
    """Independent datasets, or a neighbouring pair (so both answers of the relation occur)."""
    dom = DOMAINS[relation]
    independent = st.tuples(finite_datasets(dom, 0, 4), finite_datasets(dom, 0, 4))
    return st.one_of(independent, st_neighbouring_pairs(dom, relation, max_size=4))


@st.composite
def relation_and_two(draw: st.DrawFn) -> tuple[Relation, Any, Any]:
    relation = draw(st.sampled_from(RELATIONS))
    a, b = draw(two_datasets(relation))
    return relation, a, b


# --- is_neighbour ---------------------------------------------------------------------------


@given(relation_and_two())
@example((Relation.ADD_REMOVE, ("a", "b", "c"), ("a", "c")))
@example((Relation.LABEL, ((0, "n"),), ((0, "y"),)))
def test_is_neighbour_is_symmetric(args: tuple[Relation, Any, Any]) -> None:
    relation, a, b = args
    assert is_neighbour(a, b, relation) == is_neighbour(b, a, relation)


@given(
    st.sampled_from(RELATIONS).flatmap(
        lambda r: st.tuples(st.just(r), finite_datasets(DOMAINS[r], 0, 6))
    )
)
def test_is_neighbour_is_irreflexive(args: tuple[Relation, tuple[Any, ...]]) -> None:
    relation, a = args
    assert not is_neighbour(a, a, relation)
    assert not is_neighbour(a, list(a), relation)


@pytest.mark.parametrize(
    ("a", "b", "relation", "expected"),
    [
        (("a", "b", "c"), ("a", "c"), Relation.ADD_REMOVE, True),  # middle removed
        (("a", "b", "c"), ("b", "c"), Relation.ADD_REMOVE, True),  # first removed
        (("a",), (), Relation.ADD_REMOVE, True),
        (("a", "b", "c"), ("c",), Relation.ADD_REMOVE, False),  # two removed
        (("a", "b"), ("b", "a", "c"), Relation.ADD_REMOVE, False),  # reordered, not positional
        (("a", "b"), ("a", "b"), Relation.SUBSTITUTE, False),
        (("a", "b"), ("a", "c"), Relation.SUBSTITUTE, True),
        (("a", "b"), ("c", "c"), Relation.SUBSTITUTE, False),  # two positions
        (("a", "b"), ("a",), Relation.SUBSTITUTE, False),  # lengths differ
        (((0, "n"), (1, "n")), ((0, "y"), (1, "n")), Relation.LABEL, True),
        (((0, "n"), (1, "n")), ((1, "n"), (1, "n")), Relation.LABEL, False),  # x changed
        (((0, "n"),), ((0, "n"), (1, "n")), Relation.LABEL, False),
    ],
)
def test_is_neighbour_examples(
    a: tuple[Any, ...], b: tuple[Any, ...], relation: Relation, expected: bool
) -> None:
    assert is_neighbour(a, b, relation) is expected
    assert is_neighbour(b, a, relation) is expected


def test_relation_given_by_value_is_the_same_relation() -> None:
    """``Relation`` is a ``str`` enum: its values name the same relation as its members."""
    assert is_neighbour(("a",), (), "add-remove") is True  # type: ignore[arg-type]
    assert is_neighbour(("a",), ("b",), "substitute") is True  # type: ignore[arg-type]
    assert set(neighbours(("a",), "add-remove", PLAIN)) == set(  # type: ignore[arg-type]
        neighbours(("a",), Relation.ADD_REMOVE, PLAIN)
    )


# --- neighbours -----------------------------------------------------------------------------


@pytest.mark.parametrize("relation", RELATIONS)
def test_neighbours_are_exactly_the_true_neighbours_up_to_order(relation: Relation) -> None:
    """Exhaustive on a tiny domain: ``neighbours`` = brute-force neighbours, each once."""
    domain = DOMAINS[relation]
    candidates = list(datasets(domain, 4))
    checked = 0
    for a in datasets(domain, 3):
        got = list(neighbours(a, relation, domain))
        assert len(got) == len(set(got)), f"{a}: a neighbour yielded twice"
        assert all(nb == canonical(nb) for nb in got)
        expected = {b for b in candidates if neighbour_up_to_order(a, b, relation)}
        assert set(got) == expected, a
        checked += len(got)
    assert checked > 0


@given(
    st.sampled_from(RELATIONS).flatmap(
        lambda r: st.tuples(st.just(r), finite_datasets(DOMAINS[r], 0, 5))
    )
)
def test_neighbours_depend_on_the_multiset_only(args: tuple[Relation, tuple[Any, ...]]) -> None:
    relation, a = args
    domain = DOMAINS[relation]
    got = set(neighbours(a, relation, domain))
    assert got == set(neighbours(canonical(a), relation, domain))
    assert got == set(neighbours(a[::-1], relation, domain))


def test_label_neighbours_keep_x_and_stay_in_the_domain() -> None:
    got = set(neighbours(((1, "n"), (0, "y")), Relation.LABEL, LABELLED))
    assert got == {((0, "n"), (1, "n")), ((0, "z"), (1, "n"))}


# --- datasets -------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(5))
@pytest.mark.parametrize(("min_size", "max_size"), [(0, 0), (0, 3), (1, 4), (2, 2), (3, 5)])
def test_dataset_counts_are_multiset_coefficients(n: int, min_size: int, max_size: int) -> None:
    domain = tuple(range(n))
    got = list(datasets(domain, max_size, min_size))
    assert len(got) == len(set(got))
    for k in range(min_size, max_size + 1):
        count = sum(1 for d in got if len(d) == k)
        # multiset coefficient ((n k)) = C(n + k - 1, k); ((0 0)) = 1
        assert count == (comb(n + k - 1, k) if n > 0 else int(k == 0)), (n, k)
    assert all(min_size <= len(d) <= max_size for d in got)
    assert all(d == canonical(d) and set(d) <= set(domain) for d in got)


# --- neighbouring_pairs ---------------------------------------------------------------------


@pytest.mark.parametrize("relation", RELATIONS)
@pytest.mark.parametrize(("min_size", "max_size"), [(0, 3), (1, 3), (2, 2)])
def test_neighbouring_pairs_yield_each_unordered_pair_once(
    relation: Relation, min_size: int, max_size: int
) -> None:
    domain = DOMAINS[relation]
    got = list(neighbouring_pairs(domain, max_size, relation, min_size))
    unordered = [frozenset(pair) for pair in got]
    assert len(unordered) == len(set(unordered)), "a pair was yielded twice"
    sets = list(datasets(domain, max_size, min_size))
    expected = {
        frozenset((a, b))
        for i, a in enumerate(sets)
        for b in sets[i + 1 :]
        if neighbour_up_to_order(a, b, relation)
    }
    assert set(unordered) == expected
    if (relation is Relation.ADD_REMOVE and min_size == max_size) or (
        relation is Relation.LOCAL and not min_size <= 1 <= max_size
    ):
        assert got == []  # no pair of equal sizes / no one-record datasets
    else:
        assert got


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: list(datasets(PLAIN, 1, 2)), "max_size"),
        (lambda: list(datasets(PLAIN, 2, -1)), "max_size"),
        (lambda: list(datasets(("a", "a"), 2)), "domain"),
        (lambda: list(neighbouring_pairs(PLAIN, 1, Relation.SUBSTITUTE, 2)), "max_size"),
        (lambda: list(neighbouring_pairs(("a", "b", "a"), 2, Relation.SUBSTITUTE)), "domain"),
        (lambda: is_neighbour(("a", "b"), ("a", "c"), Relation.LABEL), "relation"),
        (lambda: list(neighbours(("a",), Relation.LABEL, PLAIN)), "relation"),
        (lambda: is_neighbour(("a",), ("b",), "swap"), "relation"),  # type: ignore[arg-type]
        (lambda: list(neighbours(("a",), "swap", PLAIN)), "relation"),  # type: ignore[arg-type]
    ],
)
def test_bad_input_raises_value_error_naming_the_parameter(call: Any, name: str) -> None:
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call()
