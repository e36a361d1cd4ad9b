"""What the checks of seed 004 share: the record domain of the exact checks, the release laws of
the real learners keyed by hypothesis, the exact privacy verdict over neighbouring pairs, and the
learners with a real, modest bug that the controls run (the same entry points, with the noise
drawn for α × 1.25).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from dpspec.cover_learners import LabelPrivateCoverClassifier, PrivateCoverClassifier
from dpspec.cover_learners.machinery import (
    CoverExponentialClassifier as _CoverExponentialClassifier,
)
from dpspec.proofs.engine.exact import Dataset, ExactReport, verify_pairs
from dpspec.spec.neighbours import Relation, neighbouring_pairs
from dpspec.spec.privacy import Dist
from dpspec.validation import MAX_EPSILON, rational_at_most

SEED = 4004
#: The record domain of the exact privacy checks: x ∈ {0.1, 0.45, 0.8}, y ∈ {0, 1}.
DOMAIN = tuple((x, y) for x in (0.1, 0.45, 0.8) for y in (0, 1))
#: Relative tolerance of the exact checks on float laws (each probability is within a few ulp;
#: small enough to resolve a ×1.25 error at ε = 2^-32, where e^ε − 1 ≈ 2.3·10^-10).
LAW_RTOL = 1e-12
#: The modest privacy bug every privacy control runs: the noise drawn for ε × 1.25.
OVERSPEND = 1.25

Learner = _CoverExponentialClassifier


def arrays(data: Dataset) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """A dataset of (x, y) records as the (X, y) arrays ``fit`` takes."""
    recs = cast(tuple[tuple[float, int], ...], data)
    X = np.array([r[0] for r in recs], dtype=np.float64).reshape(-1, 1)
    return X, np.array([r[1] for r in recs], dtype=np.int64)


def learner_law(learner: Learner) -> Callable[[Dataset], Dist]:
    """The learner's ``release_law`` on a dataset of (x, y) records, keyed by the released box
    (so laws over different candidate sets compare by hypothesis, not by index)."""

    def law(data: Dataset) -> Dist:
        X, y = arrays(data)
        cands = learner.candidates(X)
        out: dict[Any, float] = {}
        for k, p in learner.release_law(X, y).items():
            key = (float(cands.lower[k]), float(cands.upper[k]))
            out[key] = out.get(key, 0.0) + p
        return out

    return law


def verify_learner(
    learner: Learner,
    relation: Relation,
    max_size: int,
    name: str,
    claimed: float | None = None,
    domain: tuple[Any, ...] = DOMAIN,
) -> ExactReport:
    """ε-DP of ``learner``'s release law against the caller's ε (``claimed``, default the
    learner's ``epsilon``: never what the learner reports) on every ``relation`` pair of datasets
    of size 1..max_size over ``domain``."""
    epsilon = float(learner.epsilon if claimed is None else claimed)
    return verify_pairs(
        name,
        learner_law(learner),
        neighbouring_pairs(domain, max_size, relation, min_size=1),
        math.exp(epsilon),
        relation=relation,
        rtol=LAW_RTOL,
    )


def overspent(learner: Learner, factor: float = OVERSPEND) -> Learner:
    """The same learner with a real bug: its selection step (fit's sampler and its release law)
    calibrated for ε × ``factor`` while ``epsilon`` — the caller's claim — and everything else
    (κ̂, the grid) are unchanged. With the exact sampler ε is rounded down to a rational of
    denominator ≤ 2^32, so at ε ≈ 2^-32 the bug can vanish in the rounding (see
    :func:`overspend_is_visible`)."""

    def selection_epsilon(self: Any, s: dict[str, Any]) -> float:
        return float(s["epsilon"]) * factor

    cls = type(
        f"Overspent{type(learner).__name__}",
        (type(learner),),
        {"_selection_epsilon": selection_epsilon},
    )
    bugged: Learner = cls(**learner.get_params())
    return bugged


def overspend_is_visible(epsilon: float, idealised: bool, factor: float = OVERSPEND) -> bool:
    """Whether the learner calibrated for ε × ``factor`` draws from another law than at ε: the
    exact sampler rounds both down to rationals of denominator ≤ 2^32 and refuses ε > 700."""
    if idealised:
        return True
    if epsilon * factor > MAX_EPSILON:
        return False
    return rational_at_most(epsilon * factor, "epsilon") != rational_at_most(epsilon, "epsilon")


def a1(epsilon: float, accuracy: float, **kw: Any) -> PrivateCoverClassifier:
    """A1 on thresholds (``hypothesis_class`` and the other keywords may be given)."""
    return PrivateCoverClassifier(epsilon, accuracy, **kw)


def a2(epsilon: float, accuracy: float, **kw: Any) -> LabelPrivateCoverClassifier:
    return LabelPrivateCoverClassifier(epsilon, accuracy, **kw)
