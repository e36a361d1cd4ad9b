"""PCL2's and PCL2b's privacy reports against Thm A.12 / A.15 (seed 000, appendix A): PCL2 is
ε-DP; PCL2b composes its radius search and its release to (2ε, 2δ)."""

from __future__ import annotations

from functools import partial

import numpy as np

from dpspec.contract import PrivacyLevel
from dpspec.learners import PrivatePackingClassifier, PrivateUnboundedClassifier
from dpspec.proofs.engine.reports import ReportCase

_X = np.random.default_rng(0).random((60, 2))
_Y = (_X[:, 0] > 0.5).astype(np.int64)


def _pcl2(ideal: bool) -> PrivacyLevel:
    clf = PrivatePackingClassifier(0.6, idealised=ideal, random_state=0).fit(_X, _Y)
    level: PrivacyLevel = clf.privacy_
    return level


def _pcl2b(ideal: bool) -> PrivacyLevel:
    clf = PrivateUnboundedClassifier(0.5, 1e-3, idealised=ideal, random_state=0)
    level: PrivacyLevel = clf.fit(_X, _Y).privacy_
    return level


REPORT_CASES: tuple[ReportCase, ...] = (
    *(
        ReportCase(
            f"PCL2 ε=0.6 idealised={ideal}",
            PrivatePackingClassifier,
            ideal,
            partial(_pcl2, ideal),
            0.6,
        )
        for ideal in (False, True)
    ),
    *(
        ReportCase(
            f"PCL2b ε=0.5 δ=1e-3 idealised={ideal}",
            PrivateUnboundedClassifier,
            ideal,
            partial(_pcl2b, ideal),
            1.0,
            2e-3,
        )
        for ideal in (False, True)
    ),
)
