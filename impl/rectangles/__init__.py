"""Privately learning rectangles anchored at the origin (thesis ch. 5): the interior point
problem, RandMargins (Algorithm 4), the interior-point baseline and the non-private learner."""

from dpspec.rectangles.classifier import PrivateRectangleClassifier, per_call_level
from dpspec.rectangles.interior_point import (
    ExponentialMedian,
    interior_point_sample_complexity,
    median_scores,
)
from dpspec.rectangles.rand_margins import (
    RandMarginsParameters,
    interior_point_baseline,
    nonprivate_rectangle,
    rand_margins,
    release_law,
    size_law,
)

__all__ = [
    "ExponentialMedian",
    "PrivateRectangleClassifier",
    "RandMarginsParameters",
    "interior_point_baseline",
    "interior_point_sample_complexity",
    "median_scores",
    "nonprivate_rectangle",
    "per_call_level",
    "rand_margins",
    "release_law",
    "size_law",
]
