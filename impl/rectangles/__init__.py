"""Privately learning rectangles anchored at the origin (thesis ch. 5): the interior point
problem, RandMargins (Algorithm 4), the interior-point baseline and the non-private learner.

0.2 names kept as deprecated aliases: ``release_law`` (use
``PrivateRectangleClassifier.release_law``) and ``size_law`` (use
``RandMarginsParameters.size_pmf``)."""

from dpspec.rectangles.classifier import Accounting, PrivateRectangleClassifier, per_call_level
from dpspec.rectangles.interior_point import (
    ExponentialMedian,
    GridValues,
    interior_point_sample_complexity,
    median_base,
    median_scores,
)
from dpspec.rectangles.rand_margins import (
    PointArray,
    RandMarginsParameters,
    baseline_step,
    clamp_size,
    interior_point_baseline,
    margin_set,
    noisy_sizes,
    nonprivate_rectangle,
    rand_margins,
    rand_margins_trace,
    refined_points,
    release_law,
    size_law,
)

__all__ = [
    "Accounting",
    "ExponentialMedian",
    "GridValues",
    "PointArray",
    "PrivateRectangleClassifier",
    "RandMarginsParameters",
    "baseline_step",
    "clamp_size",
    "interior_point_baseline",
    "interior_point_sample_complexity",
    "margin_set",
    "median_base",
    "median_scores",
    "noisy_sizes",
    "nonprivate_rectangle",
    "per_call_level",
    "rand_margins",
    "rand_margins_trace",
    "refined_points",
    "release_law",
    "size_law",
]
