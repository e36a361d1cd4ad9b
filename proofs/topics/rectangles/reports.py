"""The rectangles family's privacy reports against their theorems (thesis ch. 5).

The exponential median is ε-DP with the weights q^{gap} of a rational base q ≥ e^{−ε/2}
(``median_base``: denominator 2^24), so its level is exactly q^{−2} — the ratio of the
exponential mechanism with base q and a sensitivity-1 score (McSherry–Talwar, L655 with the ½) —
or e^ε itself for the idealised float weights. ``RandMarginsParameters.privacy`` is that level
for one call at the per-call ε₀; the learner's ``privacy_`` composes d calls at ε₀ = ε/d (basic
composition under add/remove, Algorithm 4 L1320–1326): q^{−2d}, or e^ε idealised.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import partial

import numpy as np

from dpspec.contract import PrivacyLevel
from dpspec.proofs.engine.reports import ReportCase
from dpspec.rectangles import (
    ExponentialMedian,
    PrivateRectangleClassifier,
    RandMarginsParameters,
    median_base,
)

#: ε = 1/3 is not a dyadic rational; ε₀ = ε/2 per axis for the learner on d = 2 axes.
_EPSILON = 1 / 3
_X = np.array([[1, 2], [2, 3], [3, 1], [12, 13]], dtype=np.int64)
_Y = np.array([1, 1, 1, 0], dtype=np.int64)


def _theorem(epsilon: float, calls: int, idealised: bool) -> tuple[float, Fraction | None]:
    """(ε, exact ratio) of ``calls`` composed exponential-median calls at ``epsilon`` each."""
    if idealised:
        return calls * epsilon, None
    q = median_base(epsilon)
    ratio = q ** (-2 * calls)
    return -2 * calls * math.log(q), ratio


def _learner(idealised: bool) -> PrivacyLevel:
    clf = PrivateRectangleClassifier(_EPSILON, 0.0, 15, idealised=idealised, random_state=0)
    level: PrivacyLevel = clf.fit(_X, _Y).privacy_
    return level


def _median(idealised: bool) -> PrivacyLevel:
    return ExponentialMedian(_EPSILON, grid_max=1023, idealised=idealised).privacy


def _call(idealised: bool) -> PrivacyLevel:
    return RandMarginsParameters(63, _EPSILON, 0.05, 4, idealised).privacy


def _cases() -> list[ReportCase]:
    out = []
    for ideal in (False, True):
        eps, ratio = _theorem(_EPSILON, 1, ideal)
        out.append(
            ReportCase(
                f"exponential median ε=1/3 idealised={ideal}",
                ExponentialMedian,
                ideal,
                partial(_median, ideal),
                eps,
                ratio=ratio,
            )
        )
        out.append(
            ReportCase(
                f"RandMargins one call ε₀=1/3 idealised={ideal}",
                RandMarginsParameters,
                ideal,
                partial(_call, ideal),
                eps,
                ratio=ratio,
            )
        )
        eps2, ratio2 = _theorem(_EPSILON / 2, 2, ideal)
        out.append(
            ReportCase(
                f"RandMargins learner ε=1/3 on d = 2 idealised={ideal}",
                PrivateRectangleClassifier,
                ideal,
                partial(_learner, ideal),
                eps2,
                ratio=ratio2,
            )
        )
    return out


REPORT_CASES: tuple[ReportCase, ...] = tuple(_cases())
