"""The cover learners' privacy reports against their theorems (seed 004): A1/A1r are α-private
under substitution (Thm 7, ``004_2f105cca2f6050df.txt:L258``), A2 α-label private (Thm 26,
L798), for the caller's ε (the paper's α), δ = 0, exact sampler unless idealised."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from dpspec.contract import PrivacyLevel
from dpspec.cover_learners import LabelPrivateCoverClassifier, PrivateCoverClassifier
from dpspec.proofs.engine.reports import ReportCase

_X = np.random.default_rng(4).random((60, 1))
_Y = (_X[:, 0] > 0.4).astype(np.int64)
#: ε = 1/3 is not a dyadic rational: the exact sampler rounds it down (within 2^-32).
_EPSILON = 1 / 3


def _report(cls: type, ideal: bool, kw: dict[str, Any]) -> PrivacyLevel:
    model = cls(_EPSILON, idealised=ideal, random_state=0, **kw).fit(_X, _Y)
    level: PrivacyLevel = model.privacy_
    return level


_KINDS: tuple[tuple[str, type, dict[str, Any]], ...] = (
    ("A1 thresholds", PrivateCoverClassifier, {}),
    ("A1 intervals", PrivateCoverClassifier, {"hypothesis_class": "interval"}),
    ("A1r", PrivateCoverClassifier, {"realizable": True}),
    ("A2", LabelPrivateCoverClassifier, {}),
)

REPORT_CASES: tuple[ReportCase, ...] = tuple(
    ReportCase(
        f"{name} ε=1/3 idealised={ideal}",
        cls,
        ideal,
        partial(_report, cls, ideal, kw),
        _EPSILON,
    )
    for name, cls, kw in _KINDS
    for ideal in (False, True)
)
