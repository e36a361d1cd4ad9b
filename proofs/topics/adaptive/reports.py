"""The privacy reports of ch. 7's privacy-stating classes against their theorems, each with
``idealised`` False and True:

* :class:`LaplaceAnswers` — k answers compose to the caller's level by basic composition
  (kε₀ = ε, δ' = 0) when ε/k is at least the advanced per-step level, else by advanced
  composition (ε' = ε, δ' = δ: the per-step level is solved for it, ``spec.composition``);
* :class:`DeviatingAlgorithm` — Algorithm 10 post-processes the stability histogram: the
  caller's (ε, δ) (Lemma 7.1.5), exactly q^{−2} and δ with a rational base;
* :class:`PredicateMechanism` — the exponential mechanism with weights exp((εn/2)·score):
  ε-DP, δ = 0; exactly q^{−2} with a rational base.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import partial

from dpspec.adaptive import DeviatingAlgorithm, LaplaceAnswers, PredicateMechanism
from dpspec.contract import PrivacyLevel
from dpspec.proofs.engine.reports import ReportCase

_LN2 = math.log(2)
_POPULATION = [Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)]


def _laplace(k: int, ideal: bool) -> PrivacyLevel:
    return LaplaceAnswers(100, k, 1.0, 1e-6, ideal).privacy


def _deviating(ideal: bool) -> PrivacyLevel:
    return DeviatingAlgorithm(3, 0.9, 1e-4, idealised=ideal).privacy


def _predicate(ideal: bool) -> PrivacyLevel:
    return PredicateMechanism(3, 4, _POPULATION, 1.0, idealised=ideal).privacy


REPORT_CASES: tuple[ReportCase, ...] = (
    *(
        ReportCase(
            f"LaplaceAnswers k=3 (basic composition) idealised={ideal}",
            LaplaceAnswers,
            ideal,
            partial(_laplace, 3, ideal),
            1.0,
            0,
        )
        for ideal in (False, True)
    ),
    *(
        ReportCase(
            f"LaplaceAnswers k=400 (advanced composition) idealised={ideal}",
            LaplaceAnswers,
            ideal,
            partial(_laplace, 400, ideal),
            1.0,
            1e-6,
        )
        for ideal in (False, True)
    ),
    *(
        ReportCase(
            f"DeviatingAlgorithm ε=0.9 δ=1e-4 idealised={ideal}",
            DeviatingAlgorithm,
            ideal,
            partial(_deviating, ideal),
            0.9,
            1e-4,
        )
        for ideal in (False, True)
    ),
    ReportCase(
        "DeviatingAlgorithm base 1/2 δ=1/8",
        DeviatingAlgorithm,
        False,
        lambda: DeviatingAlgorithm(3, base=Fraction(1, 2), delta=Fraction(1, 8)).privacy,
        2 * _LN2,
        Fraction(1, 8),
        ratio=Fraction(4),
    ),
    *(
        ReportCase(
            f"PredicateMechanism ε=1 idealised={ideal}",
            PredicateMechanism,
            ideal,
            partial(_predicate, ideal),
            1.0,
        )
        for ideal in (False, True)
    ),
    ReportCase(
        "PredicateMechanism base 1/2",
        PredicateMechanism,
        False,
        lambda: PredicateMechanism(3, 4, _POPULATION, base=Fraction(1, 2)).privacy,
        2 * _LN2,
        ratio=Fraction(4),
    ),
)
