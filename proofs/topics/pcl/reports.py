"""PCL's privacy report against Thm 3.1 (seed 000, ``000_dff3c4dc97cf0e21.txt:L206``): ε-DP for
the caller's ε, exact sampler unless idealised."""

from __future__ import annotations

from functools import partial

import numpy as np

from dpspec.contract import PrivacyLevel
from dpspec.learners.pcl import PrivateHistogramClassifier
from dpspec.proofs.engine.reports import ReportCase

_X = np.random.default_rng(0).random((60, 2))
_Y = (_X[:, 0] > 0.5).astype(np.int64)


def _report(ideal: bool) -> PrivacyLevel:
    clf = PrivateHistogramClassifier(0.6, idealised=ideal, random_state=0).fit(_X, _Y)
    assert clf.privacy_ is not None
    return clf.privacy_


REPORT_CASES: tuple[ReportCase, ...] = tuple(
    ReportCase(
        f"PCL ε=0.6 idealised={ideal}",
        PrivateHistogramClassifier,
        ideal,
        partial(_report, ideal),
        0.6,
    )
    for ideal in (False, True)
)
