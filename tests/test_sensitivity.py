"""Global sensitivities of the seeds' queries, computed exactly over all neighbouring pairs.

``global_sensitivity`` over ``neighbouring_pairs(domain, max_size, relation)`` is the exact
maximum over every pair of multisets of size ≤ max_size: the values below are the constants
the privacy proofs use (seed 000 Def 2.1, ``000_dff3c4dc97cf0e21.txt:L117``; Alg 1 L125–147;
Alg 2 L193–206), and mutants with a larger sensitivity are caught.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from functools import partial
from typing import Any, TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpspec.spec.neighbours import Relation, neighbouring_pairs
from dpspec.spec.sensitivity import (
    QueryValue,
    centred_votes,
    count,
    global_sensitivity,
    histogram,
    l1_distance,
    mistakes,
    satisfies_sensitivity,
    sensitivity_counterexample,
)

R = TypeVar("R", bound=Hashable)

DOMAIN = (0, 1, 2)
CELL_LABELS = tuple((c, y) for c in range(2) for y in (0, 1))
MAX_SIZE = 4


def _pairs(
    domain: Sequence[R], relation: Relation, max_size: int = MAX_SIZE
) -> list[tuple[tuple[R, ...], tuple[R, ...]]]:
    pairs = list(neighbouring_pairs(domain, max_size, relation))
    assert pairs, "the enumeration must not be empty"
    return pairs


def _positive(x: object) -> bool:
    return isinstance(x, int) and x >= 1


def count_positive(data: Sequence[int]) -> int:
    return count(data, _positive)


def histogram3(data: Sequence[int]) -> tuple[int, ...]:
    return histogram(data, 3)


def votes2(records: Sequence[tuple[int, int]]) -> tuple[Fraction, ...]:
    return centred_votes(records, 2)


# --- the constants of the proofs --------------------------------------------------------------


@pytest.mark.parametrize("relation", [Relation.SUBSTITUTE, Relation.ADD_REMOVE])
def test_count_has_sensitivity_one(relation: Relation) -> None:
    pairs = _pairs(DOMAIN, relation)
    assert global_sensitivity(count_positive, pairs) == 1
    assert satisfies_sensitivity(count_positive, pairs, 1)


@pytest.mark.parametrize(
    ("relation", "expected"), [(Relation.SUBSTITUTE, 2), (Relation.ADD_REMOVE, 1)]
)
def test_histogram_sensitivity(relation: Relation, expected: int) -> None:
    pairs = _pairs(DOMAIN, relation)
    assert global_sensitivity(histogram3, pairs) == expected
    assert satisfies_sensitivity(histogram3, pairs, expected)
    assert not satisfies_sensitivity(histogram3, pairs, expected - 1)


@pytest.mark.parametrize(
    ("relation", "expected"),
    [
        (Relation.SUBSTITUTE, Fraction(1)),  # move between cells: ½ + ½; label flip: 1
        (Relation.ADD_REMOVE, Fraction(1, 2)),  # one cell changes by ½
        (Relation.LABEL, Fraction(1)),  # a label flip moves its cell by 1
    ],
)
def test_centred_votes_sensitivity(relation: Relation, expected: Fraction) -> None:
    pairs = _pairs(CELL_LABELS, relation)
    assert global_sensitivity(votes2, pairs) == expected


def test_centred_votes_substitution_witnesses() -> None:
    # same cell, label flip: 1; different cells, same label: ½ + ½ = 1
    flip = l1_distance(votes2([(0, 0)]), votes2([(0, 1)]))
    move = l1_distance(votes2([(0, 1)]), votes2([(1, 1)]))
    assert flip == move == 1


@pytest.mark.parametrize("candidate", [(0, 0, 0), (1, 0, 1), (1, 1, 1), (0, 1, 1)])
def test_mistakes_score_has_sensitivity_one(candidate: tuple[int, ...]) -> None:
    records = tuple((x, y) for x in DOMAIN for y in (0, 1))
    pairs = _pairs(records, Relation.SUBSTITUTE, max_size=3)
    assert global_sensitivity(partial(mistakes, candidate=candidate), pairs) == 1


# --- mutants are caught -----------------------------------------------------------------------


def sum_of_squares(data: Sequence[int]) -> int:
    return sum(x * x for x in data)


def count_twice(data: Sequence[int]) -> int:
    return 2 * count(data, _positive)


def votes_uncentred(records: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """Σ yᵢ per cell *and* |C| per cell, released together: sensitivity 2 under substitution."""
    return tuple(sum(y for c, y in records if c == cell) for cell in range(2)) + histogram(
        [c for c, _ in records], 2
    )


@pytest.mark.parametrize(
    ("mutant", "domain", "relation", "claimed"),
    [
        (sum_of_squares, DOMAIN, Relation.SUBSTITUTE, 1),
        (sum_of_squares, DOMAIN, Relation.ADD_REMOVE, 1),
        (count_twice, DOMAIN, Relation.SUBSTITUTE, 1),
        (count_twice, DOMAIN, Relation.ADD_REMOVE, 1),
        (histogram3, DOMAIN, Relation.SUBSTITUTE, 1),
        (votes_uncentred, CELL_LABELS, Relation.SUBSTITUTE, 1),
    ],
)
def test_mutants_exceed_their_claimed_bound(
    mutant: Callable[[Any], QueryValue], domain: Sequence[Any], relation: Relation, claimed: int
) -> None:
    pairs = _pairs(domain, relation)
    assert global_sensitivity(mutant, pairs) > claimed
    assert not satisfies_sensitivity(mutant, pairs, claimed)
    witness = sensitivity_counterexample(mutant, pairs, claimed)
    assert witness is not None
    s, s_prime, distance = witness
    assert distance > claimed and (s, s_prime) in pairs


def test_sum_of_squares_sensitivity_is_the_largest_square() -> None:
    assert global_sensitivity(sum_of_squares, _pairs(DOMAIN, Relation.ADD_REMOVE)) == 4
    assert global_sensitivity(sum_of_squares, _pairs(DOMAIN, Relation.SUBSTITUTE)) == 4


# --- the building blocks ----------------------------------------------------------------------


def test_l1_distance_is_exact_on_mixed_inputs() -> None:
    assert l1_distance([1, Fraction(1, 2)], [0, Fraction(-1, 3)]) == Fraction(11, 6)
    assert isinstance(l1_distance([1, 2], [3, 5]), int)
    assert l1_distance([], []) == 0
    with pytest.raises(ValueError, match="lengths"):
        l1_distance([1], [1, 2])


def test_global_sensitivity_scalar_and_empty() -> None:
    assert global_sensitivity(len, []) == 0
    assert global_sensitivity(len, [((1, 2), (1,))]) == 1
    with pytest.raises(ValueError, match="lengths"):
        global_sensitivity(lambda d: tuple(d), [((1, 2), (1,))])


def test_query_validation() -> None:
    with pytest.raises(ValueError, match="bin index"):
        histogram([0, 3], 3)
    with pytest.raises(ValueError, match="at least one bin"):
        histogram([], 0)
    with pytest.raises(ValueError, match="label"):
        centred_votes([(0, 2)], 1)
    with pytest.raises(ValueError, match="cell"):
        centred_votes([(1, 0)], 1)
    with pytest.raises(ValueError, match="domain index"):
        mistakes([(3, 0)], (0, 1, 0))


@given(st.lists(st.integers(0, 4), max_size=12))
def test_histogram_counts_every_record_once(data: list[int]) -> None:
    h = histogram(data, 5)
    assert sum(h) == len(data)
    assert all(h[j] == data.count(j) for j in range(5))


@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 1)), max_size=12))
def test_centred_votes_match_the_pcl_majority(records: list[tuple[int, int]]) -> None:
    votes = centred_votes(records, 3)
    for cell in range(3):
        labels = [y for c, y in records if c == cell]
        # v_C = Σ y − |C|/2, so v_C > 0 ⟺ Σ y > |C|/2 (000_dff3c4dc97cf0e21.txt:L206)
        assert votes[cell] == sum(labels) - Fraction(len(labels), 2)
        assert (votes[cell] > 0) == (sum(labels) > Fraction(len(labels), 2))


@given(
    st.tuples(st.integers(0, 1), st.integers(0, 1), st.integers(0, 1)),
    st.lists(st.tuples(st.integers(0, 2), st.integers(0, 1)), max_size=10),
)
def test_mistakes_counts_disagreements(
    candidate: tuple[int, int, int], records: list[tuple[int, int]]
) -> None:
    assert mistakes(records, candidate) == sum(candidate[x] != y for x, y in records)
