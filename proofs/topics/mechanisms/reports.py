"""The privacy reports of the basic mechanisms against their theorems (seed 000 Def 2.2 /
Thm 2.3 for the Laplace mechanisms, McSherry–Talwar for the exponential mechanism, Warner for
randomized response, Alg 1 for the stability histogram): each class with ``idealised`` False and
True. ε given as a float is the level (up to the exact samplers' downward rounding); with a
rational base q the level is exactly q^(−c·Δ)."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import partial

import numpy as np
from numpy.typing import NDArray

from dpspec.contract import PrivacyLevel
from dpspec.mechanisms import (
    DiscreteLaplaceMechanism,
    ExponentialMechanism,
    LaplaceMechanism,
    NoisyMajorityVote,
    RandomizedResponse,
    StabilityHistogram,
    count_nonzero,
    counts_by_value,
)
from dpspec.proofs.engine.reports import ReportCase

_HALF = Fraction(1, 2)
_LN2 = math.log(2)


def _scores(data: object) -> NDArray[np.int64]:
    return counts_by_value(np.asarray(data))


def _discrete_laplace(ideal: bool) -> PrivacyLevel:
    return DiscreteLaplaceMechanism(count_nonzero, 1, 0.7, idealised=ideal).privacy


def _laplace(ideal: bool) -> PrivacyLevel:
    return LaplaceMechanism(count_nonzero, 1.0, 0.3, idealised=ideal).privacy


def _exponential(ideal: bool) -> PrivacyLevel:
    return ExponentialMechanism(_scores, 1, 0.4, idealised=ideal).privacy


def _randomized_response(ideal: bool) -> PrivacyLevel:
    return RandomizedResponse(3, 1.1, idealised=ideal).privacy


def _noisy_majority(ideal: bool) -> PrivacyLevel:
    return NoisyMajorityVote(4, 0.8, idealised=ideal).privacy


def _stability(ideal: bool) -> PrivacyLevel:
    return StabilityHistogram(3, 0.9, 1e-4, idealised=ideal).privacy


REPORT_CASES: tuple[ReportCase, ...] = (
    *(
        ReportCase(
            f"discrete Laplace ε=0.7 idealised={ideal}",
            DiscreteLaplaceMechanism,
            ideal,
            partial(_discrete_laplace, ideal),
            0.7,
        )
        for ideal in (False, True)
    ),
    ReportCase(
        "discrete Laplace base 1/2 Δ=2",
        DiscreteLaplaceMechanism,
        False,
        lambda: DiscreteLaplaceMechanism(count_nonzero, 2, base=_HALF).privacy,
        2 * _LN2,
        ratio=Fraction(4),
    ),
    *(
        ReportCase(
            f"Laplace ε=0.3 idealised={ideal}",
            LaplaceMechanism,
            ideal,
            partial(_laplace, ideal),
            0.3,
        )
        for ideal in (False, True)
    ),
    *(
        ReportCase(
            f"exponential ε=0.4 idealised={ideal}",
            ExponentialMechanism,
            ideal,
            partial(_exponential, ideal),
            0.4,
        )
        for ideal in (False, True)
    ),
    ReportCase(
        "exponential base 1/2",
        ExponentialMechanism,
        False,
        lambda: ExponentialMechanism(_scores, 1, base=_HALF).privacy,
        2 * _LN2,
        ratio=Fraction(4),
    ),
    ReportCase(
        "exponential base 1/2 Δ=2",
        ExponentialMechanism,
        False,
        lambda: ExponentialMechanism(_scores, 2, base=_HALF).privacy,
        4 * _LN2,
        ratio=Fraction(16),
    ),
    *(
        ReportCase(
            f"randomized response ε=1.1 idealised={ideal}",
            RandomizedResponse,
            ideal,
            partial(_randomized_response, ideal),
            1.1,
        )
        for ideal in (False, True)
    ),
    ReportCase(
        "randomized response ratio 3",
        RandomizedResponse,
        False,
        lambda: RandomizedResponse(3, base=Fraction(1, 3)).privacy,
        math.log(3),
        ratio=Fraction(3),
    ),
    *(
        ReportCase(
            f"noisy majority ε=0.8 idealised={ideal}",
            NoisyMajorityVote,
            ideal,
            partial(_noisy_majority, ideal),
            0.8,
        )
        for ideal in (False, True)
    ),
    ReportCase(
        "noisy majority base 1/2",
        NoisyMajorityVote,
        False,
        lambda: NoisyMajorityVote(4, base=_HALF).privacy,
        2 * _LN2,
        ratio=Fraction(4),
    ),
    *(
        ReportCase(
            f"stability histogram ε=0.9 δ=1e-4 idealised={ideal}",
            StabilityHistogram,
            ideal,
            partial(_stability, ideal),
            0.9,
            1e-4,
        )
        for ideal in (False, True)
    ),
    ReportCase(
        "stability histogram base 1/2",
        StabilityHistogram,
        False,
        lambda: StabilityHistogram(3, base=_HALF, delta=Fraction(1, 50)).privacy,
        2 * _LN2,
        Fraction(1, 50),
        ratio=Fraction(4),
    ),
)
