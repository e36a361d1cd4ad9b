"""Locally private partitioning regression and classification (seed 003, Berrett–Györfi–Walk).

Two-party use: each user runs :meth:`LocalRandomiser.randomise` on their own record; the server
calls :func:`aggregate` on the reports. The estimators do both for a whole sample.
"""

from dpspec.ldp.estimators import (
    LDPPartitionClassifier,
    LDPPartitionRegressor,
    PartitioningRegressor,
    ball_radius,
)
from dpspec.ldp.mechanism import (
    LocalRandomiser,
    ReportLaw,
    Reports,
    aggregate,
    noise_scales,
    privacy_level,
)
from dpspec.ldp.partition import CubicPartition, bandwidth, threshold_constant, truncation_level
from dpspec.ldp.problems import SineProblem

__all__ = [
    "CubicPartition",
    "LDPPartitionClassifier",
    "LDPPartitionRegressor",
    "LocalRandomiser",
    "PartitioningRegressor",
    "ReportLaw",
    "Reports",
    "SineProblem",
    "aggregate",
    "ball_radius",
    "bandwidth",
    "noise_scales",
    "privacy_level",
    "threshold_constant",
    "truncation_level",
]
