"""Privacy reports against the theorems, case by case, discovered in the topics.

Each topic lists, in its ``reports.py``, ``REPORT_CASES``: constructions of its privacy-stating
classes with the level their theorem gives for those arguments (computed by the case from the
theorem's formula, not read from the object). ``privacy.privacy-report.theorem-levels`` checks every
case found; ``contract.privacy-coverage`` checks that every privacy-stating class of the package
has cases with ``idealised`` False and True — so a new class without its report check fails.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from dpspec.contract import PrivacyLevel
from dpspec.proofs.engine.registry import topic_module, topics

#: ε is rounded down to a rational with denominator ≤ 2^32 (``epsilon_rational``) and scales up;
#: the effective ε may sit this far (relative) below the ε asked, never above.
ROUNDING = 2.0**-28


@dataclass(frozen=True)
class ReportCase:
    """One construction: ``subject`` is the class, ``build`` returns the report it gives
    (``privacy``, or ``privacy_`` after ``fit``), and ``epsilon``, ``delta``, ``exact`` (and the
    exact ``ratio`` when the noise has a rational base) are the theorem's level."""

    name: str
    subject: type
    idealised: bool
    build: Callable[[], PrivacyLevel]
    epsilon: float
    delta: float | Fraction = 0
    ratio: Fraction | None = None

    @property
    def exact(self) -> bool:
        """The exact samplers run unless the paper's idealised version was asked for."""
        return not self.idealised


def level_problem(level: Any, case: ReportCase) -> str | None:
    """None when ``level`` is the theorem's level of ``case``, else what is wrong."""
    if not isinstance(level, PrivacyLevel):
        return f"not a PrivacyLevel: {type(level).__name__}"
    if case.ratio is not None and level.ratio != case.ratio:
        return f"ratio {level.ratio} != {case.ratio}"
    eps = case.epsilon
    if not eps * (1 - ROUNDING) - 1e-12 <= level.epsilon <= eps * (1 + 1e-12):
        return f"epsilon {level.epsilon} vs theorem {eps}"
    if not math.isclose(float(level.ratio), math.exp(level.epsilon), rel_tol=1e-9):
        return f"ratio {float(level.ratio)} != e^epsilon {math.exp(level.epsilon)}"
    delta = case.delta
    if level.delta != delta and not math.isclose(float(level.delta), float(delta), rel_tol=1e-12):
        return f"delta {level.delta} vs theorem {delta}"
    if level.exact_sampler != case.exact:
        return f"exact_sampler {level.exact_sampler} vs {case.exact}"
    return None


def report_cases() -> list[ReportCase]:
    """Every topic's ``REPORT_CASES``, topics in name order."""
    found: list[ReportCase] = []
    for topic in topics():
        module = topic_module(topic, "reports")
        if module is not None:
            found.extend(module.REPORT_CASES)
    return found
