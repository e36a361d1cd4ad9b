"""The semi-supervised learner's report (seed 000 Sec 4.1): PCDE's (ε, δ) on the unlabelled
sample and the label level on the labels, reported as their maximum (disjoint inputs)."""

from __future__ import annotations

from functools import partial

import numpy as np

from dpspec.contract import PrivacyLevel
from dpspec.learners import PrivateSemiSupervisedClassifier
from dpspec.proofs.engine.reports import ReportCase

_X1 = np.random.default_rng(0).standard_normal((4000, 1))
_LABELS = (_X1[:30, 0] > 0).astype(np.int64)


def _report(label_epsilon: float, idealised: bool) -> PrivacyLevel:
    level: PrivacyLevel = (
        PrivateSemiSupervisedClassifier(
            "threshold",
            0.5,
            1e-3,
            label_epsilon=label_epsilon,
            idealised=idealised,
            random_state=0,
        )
        .fit(_X1[:30], _LABELS, _X1)
        .privacy_
    )
    return level


REPORT_CASES: tuple[ReportCase, ...] = tuple(
    ReportCase(
        f"semi-supervised ε=0.5 δ=1e-3 ε_label={label_epsilon} idealised={ideal}",
        PrivateSemiSupervisedClassifier,
        ideal,
        partial(_report, label_epsilon, ideal),
        max(0.5, label_epsilon),
        1e-3,
    )
    for label_epsilon in (0.7, 0.3)
    for ideal in (False, True)
)
