"""Shared checks of learners that release one independent bit per cell (PCL, PCL2, PCL2b).

:func:`verify_cell_classifier` decides exact ε-DP of the released hypothesis from the learner's
own per-cell law on every neighbouring pair of a small domain; :func:`cell_bits` draws the bits
its real ``fit`` + ``predict`` release (for the conformance check that binds the two);
:func:`checkerboard_sample` is the classification problem the fixed-hypothesis checks use.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Protocol, cast

import numpy as np
from numpy.typing import NDArray

from dpspec.proofs.engine.exact import RTOL, Dataset, ExactReport, verify_pairs
from dpspec.spec.neighbours import Relation, neighbouring_pairs
from dpspec.spec.privacy import Dist, bernoulli_product


class CellBitClassifier(Protocol):
    """A classifier releasing one independent bit per cell, with its exact per-cell law."""

    def release_law(self, X: Any, y: Any) -> list[Fraction | float]: ...


def verify_cell_classifier(
    name: str,
    clf: CellBitClassifier,
    representatives: Sequence[tuple[float, ...]],
    max_size: int,
    epsilon: float,
    relation: Relation = Relation.SUBSTITUTE,
    claimed_epsilon: float | None = None,
) -> ExactReport:
    """Exact ε-DP of a one-bit-per-cell hypothesis (PCL, PCL2): enumerate every neighbouring
    pair of datasets of records (cell representative, label) and compare the laws
    ∏_C Bernoulli(P(h_C = 1)) of the whole hypothesis (empty cells included).

    Probabilities come from the classifier's own ``release_law`` in floating point
    (relative error ~1e-15) and are compared with relative slack ``RTOL`` = 1e-9, far below
    the margin by which the controls fail. ``claimed_epsilon`` < ε makes a negative control.
    """
    d = len(representatives[0])
    domain = tuple((c, y) for c in representatives for y in (0, 1))

    def law(data: Dataset) -> Dist:
        recs = cast(tuple[tuple[tuple[float, ...], int], ...], data)
        X = np.array([r[0] for r in recs], dtype=np.float64).reshape(-1, d)
        y = np.array([r[1] for r in recs], dtype=np.int64)
        return bernoulli_product([float(p) for p in clf.release_law(X, y)])

    claimed = math.exp(epsilon if claimed_epsilon is None else claimed_epsilon)
    report = verify_pairs(
        name,
        law,
        neighbouring_pairs(domain, max_size, relation, min_size=1),
        claimed,
        relation=relation,
        rtol=RTOL,
    )
    report.details["rtol"] = RTOL
    return report


def checkerboard_sample(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """n points of [0,1]² labelled by a 4×4 checkerboard with 10% label noise (Bayes error
    0.1): a problem every cell learner must resolve cell by cell."""
    X = rng.random((n, 2))
    black = (np.floor(X[:, 0] * 4) + np.floor(X[:, 1] * 4)) % 2 == 0
    y = np.where(rng.random(n) < 0.9, black, ~black).astype(np.int64)
    return X, y


def cell_bits(
    make: Callable[[float, int], Any], X: Any, y: Any, centres: Any
) -> Callable[[float, int], Callable[[int], NDArray[np.int64]]]:
    """``at(ε, offset)(reps)``: the predicted bits at ``centres`` of ``reps`` fits of
    ``make(ε, seed)`` on (X, y), seeds offset, offset + 1, … — the draws of a conformance check
    of a cell learner's real ``fit`` + ``predict``."""

    def at(epsilon: float, offset: int) -> Callable[[int], NDArray[np.int64]]:
        def draw(reps: int) -> NDArray[np.int64]:
            return np.array(
                [make(epsilon, offset + r).fit(X, y).predict(centres) for r in range(reps)],
                dtype=np.int64,
            )

        return draw

    return at
