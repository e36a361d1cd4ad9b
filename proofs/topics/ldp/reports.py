"""The LDP objects' privacy reports against Prop 1 (seed 003,
``003_5e2a1f46235ac29b.txt:L247–251``):
each report states the level Prop 1 gives at the paper's calibration — 2^{3/2}/σ_W + 2^{3/2}M/σ_Z
with σ_W = 4√2/ε, σ_Z = 4√2M/ε (σ_Z = 2√2M/ε with Z alone), computed here by the spec's
``prop1_bound`` from the caller's ε — local (one user's report), with the exact sampler unless
idealised (the estimators run user by user, ``simulate="users"``)."""

from __future__ import annotations

from functools import partial

import numpy as np

from dpspec.contract import PrivacyLevel
from dpspec.ldp.estimators import LDPPartitionClassifier, LDPPartitionRegressor
from dpspec.ldp.mechanism import LocalRandomiser, noise_scales
from dpspec.ldp.partition import CubicPartition
from dpspec.proofs.engine.reports import ReportCase
from dpspec.spec.ldp import prop1_bound

_X = np.random.default_rng(0).uniform(-1.0, 1.0, (50, 1))
_Y = np.sin(3 * _X[:, 0])
_LABELS = np.where(_Y > 0, 1, -1)
_EPSILON, _TRUNCATION = 0.7, 1.5


def _randomiser(ideal: bool, z_only: bool) -> PrivacyLevel:
    part = CubicPartition(0.5, 1.0, 1)
    return LocalRandomiser(part, _EPSILON, _TRUNCATION, z_only, idealised=ideal).privacy


def _regressor(ideal: bool) -> PrivacyLevel:
    est = LDPPartitionRegressor(
        _EPSILON, h=0.5, truncation=_TRUNCATION, idealised=ideal, random_state=0
    )
    return est.fit(_X, _Y).privacy_


def _classifier(ideal: bool) -> PrivacyLevel:
    est = LDPPartitionClassifier(_EPSILON, h=0.5, idealised=ideal, random_state=0)
    return est.fit(_X, _LABELS).privacy_


def _theorem(truncation: float, z_only: bool) -> float:
    """Prop 1's level at the paper's calibration for the caller's ε and M."""
    return prop1_bound(truncation, *noise_scales(_EPSILON, truncation, z_only))


REPORT_CASES: tuple[ReportCase, ...] = tuple(
    case
    for ideal in (False, True)
    for case in (
        ReportCase(
            f"LocalRandomiser ε=0.7 M=1.5 W+Z idealised={ideal}",
            LocalRandomiser,
            ideal,
            partial(_randomiser, ideal, False),
            _theorem(_TRUNCATION, False),
        ),
        ReportCase(
            f"LocalRandomiser ε=0.7 M=1.5 Z only idealised={ideal}",
            LocalRandomiser,
            ideal,
            partial(_randomiser, ideal, True),
            _theorem(_TRUNCATION, True),
        ),
        ReportCase(
            f"LDPPartitionRegressor ε=0.7 M=1.5 idealised={ideal}",
            LDPPartitionRegressor,
            ideal,
            partial(_regressor, ideal),
            _theorem(_TRUNCATION, False),
        ),
        ReportCase(
            f"LDPPartitionClassifier ε=0.7 idealised={ideal}",
            LDPPartitionClassifier,
            ideal,
            partial(_classifier, ideal),
            _theorem(1.0, True),
        ),
    )
)
