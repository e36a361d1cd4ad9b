"""Basic mechanisms of the seeds, vectorised, each with its exact output distribution.

Every mechanism has ``sample(data, n, rng)`` (n independent runs on the same dataset; the
randomness only from the passed-in ``numpy.random.Generator``), a :class:`PrivacyLevel`
saying what it guarantees and whether that guarantee is exact or assumes ideal reals, and,
where its outputs are discrete or thresholded, ``pmf(data)`` for the exact verifiers.
"""

from dpspec.contract import PrivacyLevel
from dpspec.mechanisms.discrete_laplace import DiscreteLaplaceMechanism
from dpspec.mechanisms.exponential import ExponentialMechanism
from dpspec.mechanisms.laplace import LaplaceMechanism
from dpspec.mechanisms.noisy_majority import NoisyMajorityVote
from dpspec.mechanisms.randomized_response import RandomizedResponse
from dpspec.mechanisms.stability_histogram import StabilityHistogram, stability_histogram

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
