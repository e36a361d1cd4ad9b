"""The internals of :mod:`dpspec.noise` that other packages rely on, public under one name.

These are the objects the package's own code runs (re-exported, never copies): the exact checks
and the command line drive them directly. They validate nothing themselves (the public entry
points validate before calling them), so they are not part of the user-facing API.
"""

from __future__ import annotations

from dpspec.noise import _INT64_SAFE as INT64_SAFE
from dpspec.noise import _closed_forms as closed_forms
from dpspec.noise import _laws as laws
from dpspec.noise._laws import (
    CumulativeLevels,
    GeometricSampler,
    LevelSampler,
    SingleThreshold,
    TablePolicy,
    TwoSidedSampler,
    WithinBlockSampler,
    bernoulli_floor,
    geometric_sampler,
    two_sided_sampler,
)
from dpspec.noise._reals import Bounds, Ratio
from dpspec.noise._series import ExpNegExponents, bernoulli_exp_neg_series
from dpspec.noise._tables import TABLE_BITS, CdfLaw, ThresholdTable, first_floor

__all__ = [
    "INT64_SAFE",
    "TABLE_BITS",
    "Bounds",
    "CdfLaw",
    "CumulativeLevels",
    "ExpNegExponents",
    "GeometricSampler",
    "LevelSampler",
    "Ratio",
    "SingleThreshold",
    "TablePolicy",
    "ThresholdTable",
    "TwoSidedSampler",
    "WithinBlockSampler",
    "bernoulli_exp_neg_series",
    "bernoulli_floor",
    "closed_forms",
    "first_floor",
    "geometric_sampler",
    "laws",
    "two_sided_sampler",
]
