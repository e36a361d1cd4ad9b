"""Finite output distributions, exact (``Fraction``) or ``float``, alone or in pairs."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Literal, overload

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from dpspec.strategies.common import Out, check_records


def _weights(n: int, max_weight: int, allow_zero: bool) -> SearchStrategy[list[int]]:
    def positive_total(w: list[int]) -> list[int]:
        return w if sum(w) > 0 else [1, *w[1:]]

    low = 0 if allow_zero else 1
    return st.lists(st.integers(low, max_weight), min_size=n, max_size=n).map(positive_total)


@overload
def distributions(
    outcomes: Sequence[Out],
    exact: Literal[True] = True,
    *,
    max_weight: int = ...,
    allow_zero: bool = ...,
) -> SearchStrategy[dict[Out, Fraction]]: ...


@overload
def distributions(
    outcomes: Sequence[Out],
    exact: Literal[False],
    *,
    max_weight: int = ...,
    allow_zero: bool = ...,
) -> SearchStrategy[dict[Out, float]]: ...


@overload
def distributions(
    outcomes: Sequence[Out],
    exact: bool,
    *,
    max_weight: int = ...,
    allow_zero: bool = ...,
) -> SearchStrategy[dict[Out, Fraction]] | SearchStrategy[dict[Out, float]]: ...


def distributions(
    outcomes: Sequence[Out],
    exact: bool = True,
    *,
    max_weight: int = 16,
    allow_zero: bool = True,
) -> SearchStrategy[dict[Out, Fraction]] | SearchStrategy[dict[Out, float]]:
    """Random distributions on ``outcomes``: a dict with every outcome as a key.

    Probabilities are integer weights in ``[0, max_weight]`` (``[1, max_weight]`` when
    ``allow_zero`` is false) divided by their total, so each probability is a multiple of
    1/total. ``exact=True`` gives ``Fraction`` values summing to exactly 1; ``exact=False``
    gives the nearest ``float`` values (sum within a few ulps of 1). Zero probabilities occur
    when allowed, so two draws may have different supports. Shrinks towards a point mass on
    the first outcome.
    """
    outs: tuple[Out, ...] = check_records(outcomes, "outcomes")
    if not outs:
        raise ValueError("outcomes: need at least one outcome")
    if max_weight < 1:
        raise ValueError(f"max_weight: must be >= 1, got {max_weight}")
    weights = _weights(len(outs), max_weight, allow_zero)

    def exact_law(w: list[int]) -> dict[Out, Fraction]:
        total = sum(w)
        return {o: Fraction(wi, total) for o, wi in zip(outs, w, strict=True)}

    def float_law(w: list[int]) -> dict[Out, float]:
        total = sum(w)
        return {o: wi / total for o, wi in zip(outs, w, strict=True)}

    return weights.map(exact_law) if exact else weights.map(float_law)


@overload
def distribution_pairs(
    outcomes: Sequence[Out],
    exact: Literal[True] = True,
    *,
    max_weight: int = ...,
    allow_zero: bool = ...,
) -> SearchStrategy[tuple[dict[Out, Fraction], dict[Out, Fraction]]]: ...


@overload
def distribution_pairs(
    outcomes: Sequence[Out],
    exact: Literal[False],
    *,
    max_weight: int = ...,
    allow_zero: bool = ...,
) -> SearchStrategy[tuple[dict[Out, float], dict[Out, float]]]: ...


@overload
def distribution_pairs(
    outcomes: Sequence[Out],
    exact: bool,
    *,
    max_weight: int = ...,
    allow_zero: bool = ...,
) -> (
    SearchStrategy[tuple[dict[Out, Fraction], dict[Out, Fraction]]]
    | SearchStrategy[tuple[dict[Out, float], dict[Out, float]]]
): ...


def distribution_pairs(
    outcomes: Sequence[Out],
    exact: bool = True,
    *,
    max_weight: int = 16,
    allow_zero: bool = True,
) -> (
    SearchStrategy[tuple[dict[Out, Fraction], dict[Out, Fraction]]]
    | SearchStrategy[tuple[dict[Out, float], dict[Out, float]]]
):
    """Two independent :func:`distributions` on the same ``outcomes``, as ``(p, q)``.

    With ``allow_zero`` (the default) some draws put zero mass where the other distribution
    does not — the support mismatch that makes pure DP fail for every finite ratio.
    """
    if exact:
        ex = distributions(outcomes, True, max_weight=max_weight, allow_zero=allow_zero)
        return st.tuples(ex, ex)
    fl = distributions(outcomes, False, max_weight=max_weight, allow_zero=allow_zero)
    return st.tuples(fl, fl)
