"""Exact verification: enumerate neighbouring datasets, compute output laws exactly, decide
the spec predicate on every pair.

For a mechanism with discrete (or thresholded) outputs, the output law on every dataset of
a small finite domain is computable; built from a rational noise base every probability is
a ``Fraction``, so the privacy predicates of :mod:`dpspec.spec.privacy` are decided without
rounding. :func:`verify_pairs` returns an :class:`ExactReport` with the worst pair found;
:func:`exact_with_control` turns a report and a broken control's report into a check.

What "exact" covers: every neighbouring pair of multisets of size ≤ ``max_size`` over the
stated domain, under the stated relation, for the stated parameters — a finite, complete
check of those instances, not a proof for all sizes (the CrossHair lemmas carry the
general combinatorial step).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dpspec.proofs.engine.registry import (
    CheckOutcome,
    Control,
    Slack,
    VerifyConfig,
    stop_if_failed,
)
from dpspec.spec.neighbours import Relation
from dpspec.spec.privacy import (
    Dist,
    Prob,
    hockey_stick,
    max_likelihood_ratio,
    satisfies_approx_dp,
    satisfies_pure_dp,
    satisfies_pure_dp_losses,
)

#: Set by :func:`reports_until_failure` while it runs the real runs of a check under a bug
#: control: :func:`verify_pairs` then ends at the first pair violating the predicate.
_FIRST_VIOLATION_ENDS: ContextVar[bool] = ContextVar("first_violation_ends", default=False)

#: Relative tolerance of the exact checks on laws computed in floating point (float ε).
RTOL = 1e-9

Dataset = tuple[Hashable, ...]


Pmf = Callable[[Dataset], Dist]


@dataclass
class ExactReport:
    """Outcome of an exact check over all neighbouring pairs of an instance family."""

    name: str
    relation: str
    pairs: int
    claimed_ratio: Prob
    claimed_delta: Prob
    worst_ratio: Prob = 0
    worst_delta: Prob = 0
    worst_pair: tuple[Dataset, Dataset] | None = None
    seconds: float = 0.0
    details: dict[str, Any] = field(default_factory=dict)
    #: (worst, claimed) privacy-loss exponents when ratios e^x are irrational: compared exactly.
    exponents: tuple[Fraction, Fraction] | None = None
    #: pairs on which the spec predicate (``satisfies_pure_dp`` / ``satisfies_approx_dp`` /
    #: ``satisfies_pure_dp_losses``) returned False: the verdict is the predicates' verdict.
    violations: int = 0
    #: the spec predicate that decided each pair
    predicate: str = ""

    @property
    def holds(self) -> bool:
        """Whether the spec predicate held on every pair (worst ratio/δ are reported numbers)."""
        return self.pairs > 0 and self.violations == 0

    def summary(self) -> str:
        ratio = float(self.worst_ratio)
        return (
            f"{self.name}: {self.pairs} pairs ({self.relation}), worst ratio {ratio:.6g} vs "
            f"claimed {float(self.claimed_ratio):.6g}, worst delta {float(self.worst_delta):.3g}"
            f" vs claimed {float(self.claimed_delta):.3g} -> "
            f"{'holds' if self.holds else 'VIOLATED'}"
        )


def verify_pairs(
    name: str,
    pmf: Pmf,
    pairs: Iterable[tuple[Dataset, Dataset]],
    ratio: Prob,
    delta: Prob = 0,
    relation: Relation = Relation.SUBSTITUTE,
    rtol: float = 0.0,
) -> ExactReport:
    """Decide ε-DP (δ = 0: :func:`satisfies_pure_dp`) or (ε, δ)-DP (:func:`satisfies_approx_dp`)
    on every pair; the worst likelihood ratio and hockey-stick δ are reported alongside."""
    start = time.perf_counter()
    report = ExactReport(name, relation.value, 0, ratio, delta)
    report.predicate = "satisfies_pure_dp" if delta == 0 else "satisfies_approx_dp"
    cache: dict[Dataset, Dist] = {}

    def law(d: Dataset) -> Dist:
        if d not in cache:
            cache[d] = pmf(d)
        return cache[d]

    first_ends = _FIRST_VIOLATION_ENDS.get()
    for a, b in pairs:
        pa, pb = law(a), law(b)
        report.pairs += 1
        if delta == 0:
            holds = satisfies_pure_dp(pa, pb, ratio, rtol)
        else:
            holds = satisfies_approx_dp(pa, pb, ratio, delta, rtol)
        report.violations += not holds
        r = max(max_likelihood_ratio(pa, pb), max_likelihood_ratio(pb, pa))
        # an exact pure claim that holds bounds p by ratio·q everywhere: no mass above the
        # ratio either way, so its hockey-stick δ is exactly 0 (not summed again)
        exactly_zero = delta == 0 and rtol == 0 and holds
        d = 0 if exactly_zero else max(hockey_stick(pa, pb, ratio), hockey_stick(pb, pa, ratio))
        worse = r > report.worst_ratio if delta == 0 else d > report.worst_delta
        if worse or report.worst_pair is None:
            report.worst_pair = (a, b)
        report.worst_ratio = max(report.worst_ratio, r)
        report.worst_delta = max(report.worst_delta, d)
        if first_ends and not holds:
            report.details["ended"] = "at the first violating pair (a real run under a control)"
            break
    report.seconds = time.perf_counter() - start
    return report


def reports_until_failure(
    config: VerifyConfig, *runs: Callable[[], ExactReport], controls: bool = False
) -> list[ExactReport]:
    """The reports of ``runs``, in order. Under a bug control the check stops at the first
    report that would fail it (:func:`~dpspec.proofs.engine.registry.stop_if_failed`): one that
    does not hold, or for ``controls`` (the check's own controls, which must be violated) one
    that holds."""
    out = []
    # a real run under a control fails the check at its first violating pair: the rest of
    # its enumeration cannot change that verdict (:func:`verify_pairs` ends there)
    token = _FIRST_VIOLATION_ENDS.set(config.under_control and not controls)
    try:
        for run in runs:
            out.append(run())
            report = out[-1]
            stop_if_failed(config, report.holds != controls, report.summary())
    finally:
        _FIRST_VIOLATION_ENDS.reset(token)
    return out


def slack_of(report: ExactReport) -> Slack:
    """The report's slack on the ε scale (claimed ln ratio against the worst ln ratio), or on
    the δ scale when the claim has δ > 0."""
    if report.claimed_delta:
        return Slack("δ", float(report.claimed_delta), float(report.worst_delta))
    if report.exponents is not None:
        worst, claimed = report.exponents
        return Slack("ε", float(claimed), float(worst))
    return Slack("ε", _log(report.claimed_ratio), _log(report.worst_ratio))


def _log(ratio: Prob) -> float:
    r = float(ratio)
    return math.inf if math.isinf(r) else math.log(r) if r > 0 else -math.inf


def control_of(bad: ExactReport, bug: str | None = None) -> Control:
    """A broken variant's report as a :class:`Control` (caught when its predicate failed)."""
    return Control(bug or bad.name, not bad.holds, bad.summary())


def exact_with_control(good: ExactReport, bad: ExactReport, bug: str | None = None) -> CheckOutcome:
    ok = good.holds and not bad.holds
    return CheckOutcome(
        ok,
        f"{good.summary()}; control: {bad.summary()}",
        {
            "pairs": good.pairs,
            "worst_ratio": str(good.worst_ratio),
            "claimed_ratio": str(good.claimed_ratio),
            "worst_delta": str(good.worst_delta),
            "control_caught": not bad.holds,
        },
        [control_of(bad, bug)],
        [slack_of(good)],
    )


def verify_losses(
    name: str,
    losses: Callable[[Dataset, Dataset], Sequence[Fraction]],
    pairs: Iterable[tuple[Dataset, Dataset]],
    claimed: Fraction,
    relation: Relation = Relation.SUBSTITUTE,
) -> ExactReport:
    """Decide ε-DP from exact privacy losses: on every pair, ``losses(a, b)`` are the values of
    ln P(y|a)/P(y|b) at the outputs where the extreme is attained, and the verdict is
    :func:`dpspec.spec.privacy.satisfies_pure_dp_losses` against ``claimed`` (for laws whose
    ratios e^x are irrational: compared as exponents, exactly)."""
    start = time.perf_counter()
    report = ExactReport(name, relation.value, 0, 0, 0)
    report.predicate = "satisfies_pure_dp_losses"
    worst = Fraction(0)
    for a, b in pairs:
        values = losses(a, b)
        report.pairs += 1
        report.violations += not satisfies_pure_dp_losses(values, claimed)
        loss = max(abs(x) for x in values)
        if loss > worst or report.worst_pair is None:
            worst, report.worst_pair = loss, (a, b)
    report.exponents = (worst, claimed)
    report.worst_ratio, report.claimed_ratio = math.exp(worst), math.exp(claimed)
    report.details = {"worst_loss": str(worst), "claimed_epsilon": str(claimed)}
    report.seconds = time.perf_counter() - start
    return report
