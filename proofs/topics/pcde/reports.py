"""PCDE's privacy report against Thm 4.2 (seed 000): (ε, δ)-DP for the caller's (ε, δ)."""

from __future__ import annotations

from functools import partial

import numpy as np

from dpspec.contract import PrivacyLevel
from dpspec.learners import PrivateHistogramDensity
from dpspec.proofs.engine.reports import ReportCase

_X1 = np.random.default_rng(0).standard_normal((4000, 1))


def _report(ideal: bool) -> PrivacyLevel:
    est = PrivateHistogramDensity(0.5, 1e-3, idealised=ideal, random_state=0).fit(_X1)
    level: PrivacyLevel = est.privacy_
    return level


REPORT_CASES: tuple[ReportCase, ...] = tuple(
    ReportCase(
        f"PCDE ε=0.5 δ=1e-3 idealised={ideal}",
        PrivateHistogramDensity,
        ideal,
        partial(_report, ideal),
        0.5,
        1e-3,
    )
    for ideal in (False, True)
)
