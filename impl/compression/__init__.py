"""Sample compression by boosting (seed 002, ch. 4): MedBoost, Sparsify, compression schemes."""

from dpspec.compression.boosting import (
    BoostResult,
    CompressionFailure,
    SparsifyResult,
    medboost,
    sparsify,
    weighted_median,
    weighted_quantiles,
)
from dpspec.compression.schemes import CompressedSample, compress, reconstruct

__all__ = [
    "BoostResult",
    "CompressedSample",
    "CompressionFailure",
    "SparsifyResult",
    "compress",
    "medboost",
    "reconstruct",
    "sparsify",
    "weighted_median",
    "weighted_quantiles",
]
