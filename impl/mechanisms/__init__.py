"""Basic mechanisms of the seeds, vectorised, each with its exact output distribution.

Every mechanism has ``sample(data, size, rng)`` (``size`` independent runs on the same dataset; the
randomness only from the passed-in ``numpy.random.Generator``), a :class:`PrivacyLevel`
saying what it guarantees and whether that guarantee is exact or assumes ideal reals, and,
where its outputs are discrete or thresholded, ``pmf(data)`` for the exact verifiers.
"""

from dpspec.contract import PrivacyLevel
from dpspec.mechanisms.base import (
    check_base_loss,
    count_nonzero,
    counts_by_value,
    discrete_laplace_for,
    epsilon_rational,
    float_discrete_laplace,
    mean_value,
)
from dpspec.mechanisms.discrete_laplace import DiscreteLaplaceMechanism
from dpspec.mechanisms.exponential import ExponentialMechanism
from dpspec.mechanisms.laplace import LaplaceMechanism
from dpspec.mechanisms.noisy_majority import NoisyMajorityVote
from dpspec.mechanisms.randomized_response import RandomizedResponse
from dpspec.mechanisms.stability_histogram import (
    StabilityHistogram,
    discrete_threshold,
    paper_threshold,
    stability_histogram,
)

__all__ = [
    "DiscreteLaplaceMechanism",
    "ExponentialMechanism",
    "LaplaceMechanism",
    "NoisyMajorityVote",
    "PrivacyLevel",
    "RandomizedResponse",
    "StabilityHistogram",
    "check_base_loss",
    "count_nonzero",
    "counts_by_value",
    "discrete_laplace_for",
    "discrete_threshold",
    "epsilon_rational",
    "float_discrete_laplace",
    "mean_value",
    "paper_threshold",
    "stability_histogram",
]
