"""Chaudhuri–Hsu's learners (seed 004): the exponential mechanism over a cover.

A1/A1r (:class:`PrivateCoverClassifier`, α-private) and A2
(:class:`LabelPrivateCoverClassifier`, α-label private), with their covers and certificates.
The paper's privacy parameter α is ``epsilon`` here; its accuracy ε and confidence δ are
``accuracy`` and ``confidence``.
"""

from dpspec.cover_learners.hypotheses import (
    Boxes,
    empirical_threshold_cover,
    interval_grid,
    threshold_grid,
)
from dpspec.cover_learners.learners import (
    LabelPrivateCoverClassifier,
    PrivateCoverClassifier,
    a1_certificate,
    a1r_certificate,
    a2_certificate,
    grid_size,
    kappa_hat,
)
from dpspec.cover_learners.lower_bound import sample_threshold_family

__all__ = [
    "Boxes",
    "LabelPrivateCoverClassifier",
    "PrivateCoverClassifier",
    "a1_certificate",
    "a1r_certificate",
    "a2_certificate",
    "empirical_threshold_cover",
    "grid_size",
    "interval_grid",
    "kappa_hat",
    "sample_threshold_family",
    "threshold_grid",
]
