"""Locally private partitioning regression and classification (seed 003, Berrett–Györfi–Walk).

Two-party use: each user runs :meth:`LocalRandomiser.randomise` on their own record; the server
calls :func:`aggregate` on the reports. The estimators do both for a whole sample.
"""

from dpspec.ldp.estimators import (
    LDPPartitionClassifier,
    LDPPartitionRegressor,
    PartitioningRegressor,
)
from dpspec.ldp.mechanism import LocalRandomiser, Reports, aggregate
from dpspec.ldp.partition import CubicPartition
from dpspec.ldp.problems import SineProblem

__all__ = [
    "CubicPartition",
    "LDPPartitionClassifier",
    "LDPPartitionRegressor",
    "LocalRandomiser",
    "PartitioningRegressor",
    "Reports",
    "SineProblem",
    "aggregate",
]
