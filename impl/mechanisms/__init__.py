"""Basic mechanisms of the seeds, vectorised, each with its exact output distribution.

Every mechanism has ``sample(data, n, rng)`` (n independent runs on the same dataset; the
randomness only from the passed-in ``numpy.random.Generator``), a :class:`PrivacyLevel`
saying what it guarantees and whether that guarantee is exact or assumes ideal reals, and,
where its outputs are discrete or thresholded, ``pmf(data)`` for the exact verifiers.
"""

from dpspec.impl.mechanisms.base import PrivacyLevel
from dpspec.impl.mechanisms.discrete_laplace import DiscreteLaplaceMechanism
from dpspec.impl.mechanisms.exponential import ExponentialMechanism
from dpspec.impl.mechanisms.laplace import LaplaceMechanism
from dpspec.impl.mechanisms.noisy_majority import NoisyMajorityVote
from dpspec.impl.mechanisms.randomized_response import RandomizedResponse
from dpspec.impl.mechanisms.stability_histogram import StabilityHistogram, stability_histogram

__all__ = [
    "DiscreteLaplaceMechanism",
    "ExponentialMechanism",
    "LaplaceMechanism",
    "NoisyMajorityVote",
    "PrivacyLevel",
    "RandomizedResponse",
    "StabilityHistogram",
    "stability_histogram",
]
