"""dpspec: differential-privacy learning guarantees as a specification that runs.

The package root is the folder ``impl/`` of the repository (the algorithms); the predicates are
mounted as :mod:`dpspec.spec`, the registry of guarantees as :mod:`dpspec.proofs` and the public
Hypothesis strategies as :mod:`dpspec.strategies`.

Subpackages: :mod:`dpspec.mechanisms` (Laplace, discrete Laplace, exponential, randomized
response, stability histogram, noisy majority), :mod:`dpspec.learners` (PCL, PCDE, PCL2, PCL2b,
semi-supervised, DP-SGD), :mod:`dpspec.ldp` (locally private partitioning estimates),
:mod:`dpspec.compression` (sample compression by boosting), :mod:`dpspec.audit` (the statistical
auditor), :mod:`dpspec.noise` (exact samplers). Randomness comes only from a passed-in
``numpy.random.Generator`` (``rng``) or an estimator's ``random_state``; the default samplers are
exact, the papers' continuous-noise versions are ``idealised=True`` and say so in their privacy
report.

The main names are importable from here (``from dpspec import PrivateHistogramClassifier``);
they are loaded on first use, so ``import dpspec`` stays cheap.
"""

from __future__ import annotations

import importlib
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

try:
    __version__ = version("dpspec")
except PackageNotFoundError:  # a source tree that was never installed
    __version__ = "0+unknown"

#: Public name → the module that defines it.
_EXPORTS = {
    "PrivacyLevel": "dpspec.contract",
    "LaplaceMechanism": "dpspec.mechanisms",
    "DiscreteLaplaceMechanism": "dpspec.mechanisms",
    "ExponentialMechanism": "dpspec.mechanisms",
    "RandomizedResponse": "dpspec.mechanisms",
    "StabilityHistogram": "dpspec.mechanisms",
    "NoisyMajorityVote": "dpspec.mechanisms",
    "HistogramRuleClassifier": "dpspec.learners",
    "DPSGDRegressor": "dpspec.learners",
    "PrivateHistogramClassifier": "dpspec.learners",
    "PrivateHistogramDensity": "dpspec.learners",
    "PrivatePackingClassifier": "dpspec.learners",
    "PrivateUnboundedClassifier": "dpspec.learners",
    "PrivateSemiSupervisedClassifier": "dpspec.learners",
    "PrivateCoverClassifier": "dpspec.cover_learners",
    "LabelPrivateCoverClassifier": "dpspec.cover_learners",
    "LDPPartitionRegressor": "dpspec.ldp",
    "LDPPartitionClassifier": "dpspec.ldp",
    "LocalRandomiser": "dpspec.ldp",
    "PartitioningRegressor": "dpspec.ldp",
    "assert_dp": "dpspec.audit",
    "ExponentialMedian": "dpspec.rectangles",
    "PrivateRectangleClassifier": "dpspec.rectangles",
    "RandMarginsParameters": "dpspec.rectangles",
    "LaplaceAnswers": "dpspec.adaptive",
    "DeviatingAlgorithm": "dpspec.adaptive",
    "PredicateMechanism": "dpspec.adaptive",
}

__all__ = [
    "DPSGDRegressor",
    "DeviatingAlgorithm",
    "DiscreteLaplaceMechanism",
    "ExponentialMechanism",
    "ExponentialMedian",
    "HistogramRuleClassifier",
    "LDPPartitionClassifier",
    "LDPPartitionRegressor",
    "LabelPrivateCoverClassifier",
    "LaplaceAnswers",
    "LaplaceMechanism",
    "LocalRandomiser",
    "NoisyMajorityVote",
    "PartitioningRegressor",
    "PredicateMechanism",
    "PrivacyLevel",
    "PrivateCoverClassifier",
    "PrivateHistogramClassifier",
    "PrivateHistogramDensity",
    "PrivatePackingClassifier",
    "PrivateRectangleClassifier",
    "PrivateSemiSupervisedClassifier",
    "PrivateUnboundedClassifier",
    "RandMarginsParameters",
    "RandomizedResponse",
    "StabilityHistogram",
    "__version__",
    "assert_dp",
]

if TYPE_CHECKING:
    from dpspec.adaptive import DeviatingAlgorithm, LaplaceAnswers, PredicateMechanism
    from dpspec.audit import assert_dp
    from dpspec.contract import PrivacyLevel
    from dpspec.cover_learners import LabelPrivateCoverClassifier, PrivateCoverClassifier
    from dpspec.ldp import (
        LDPPartitionClassifier,
        LDPPartitionRegressor,
        LocalRandomiser,
        PartitioningRegressor,
    )
    from dpspec.learners import (
        DPSGDRegressor,
        HistogramRuleClassifier,
        PrivateHistogramClassifier,
        PrivateHistogramDensity,
        PrivatePackingClassifier,
        PrivateSemiSupervisedClassifier,
        PrivateUnboundedClassifier,
    )
    from dpspec.mechanisms import (
        DiscreteLaplaceMechanism,
        ExponentialMechanism,
        LaplaceMechanism,
        NoisyMajorityVote,
        RandomizedResponse,
        StabilityHistogram,
    )
    from dpspec.rectangles import (
        ExponentialMedian,
        PrivateRectangleClassifier,
        RandMarginsParameters,
    )


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'dpspec' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
