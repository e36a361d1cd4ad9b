"""Sample compression by boosting (seed 002, ch. 4): MedBoost, Sparsify, compression schemes."""

from dpspec.compression.boosting import (
    BoostResult,
    CompressionFailure,
    SparsifyResult,
    WeakLearner,
    medboost,
    sparsify,
    weighted_median,
    weighted_quantiles,
)
from dpspec.compression.learners import (
    IntervalLearner,
    LinearLearner,
    RectangleLearner,
    StepLearner,
    ThresholdLearner,
)
from dpspec.compression.schemes import (
    CompressedSample,
    bv_target,
    compress,
    random_realizable_sample,
    reconstruct,
    rectangle_baseline,
)

__all__ = [
    "BoostResult",
    "CompressedSample",
    "CompressionFailure",
    "IntervalLearner",
    "LinearLearner",
    "RectangleLearner",
    "SparsifyResult",
    "StepLearner",
    "ThresholdLearner",
    "WeakLearner",
    "bv_target",
    "compress",
    "medboost",
    "random_realizable_sample",
    "reconstruct",
    "rectangle_baseline",
    "sparsify",
    "weighted_median",
    "weighted_quantiles",
]
