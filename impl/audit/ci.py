"""``assert_dp``: a DP assertion for other projects' test suites, with a stated false alarm.

``assert_dp`` is :func:`~dpspec.audit.audit` run ``votes`` times: every option of ``audit``
(``selection``, ``float_bits``, ``jobs``/``backend``, ``event``, a pair search with ``search``
when no pair is given, ``samples="auto"``) is passed through. The votes are independent audits
(seeds ``seed``, ``seed + 1``, …, :func:`_vote_seeds`; fresh draws each) and the assertion fails
only when a strict majority flags a violation, as Google's DP libraries do with 9 votes. One
audit of a truly (ε, δ)-DP mechanism reports a violation with probability at most
α = 1 − ``confidence``, so for a correct mechanism:

    P(false alarm) ≤ Σ_{k > votes/2} C(votes, k) α^k (1 − α)^{votes − k}

(:func:`majority_false_alarm`: 3.3e-5 for 9 votes at α = 0.05; ``audit.assert-dp`` computes
it exactly from the vote rule this module applies). With the default fixed seed the assertion
is deterministic: the same verdict on every run, so it cannot flake. A failure raises
:class:`DPViolation`, which carries the audits (bounds, events, pairs) and prints them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from dpspec.audit._domains import (
    ClaimArg,
    ConfidenceArg,
    ErrorLevelArg,
    MechanismArg,
    OptionalPairArg,
    SamplesArg,
    SeedArg,
    _example_noise,
)
from dpspec.audit.loop import AuditResult, audit
from dpspec.audit.power import (
    DELTA_MARGIN,
    POWER,
    RESOLVED_FLOOR,
    RESOLVED_MARGIN,
    _delta_resolution,
    _resolution,
)
from dpspec.spec.audit import claim_resolved, delta_resolved
from dpspec.validation import DeltaArg, Function, Integer, checked, example

#: the largest number of votes
MAX_VOTES = 999


#: A number of votes: odd (a strict majority always exists), at most MAX_VOTES.
VotesArg = Annotated[int, Integer(1, hi=MAX_VOTES, clean=3)]


def _odd(votes: int) -> int:
    if votes % 2 == 0:
        raise ValueError(f"votes: must be a positive odd number, got {votes!r}")
    return votes


@checked
@example(__call__={"votes": 9, "alpha": 0.05})
def majority_false_alarm(votes: VotesArg, alpha: ErrorLevelArg) -> float:
    """P(Bin(votes, alpha) > votes/2): the false-alarm bound of a majority of ``votes``."""
    votes = _odd(votes)
    need = votes // 2 + 1
    return math.fsum(
        math.comb(votes, k) * alpha**k * (1 - alpha) ** (votes - k) for k in range(need, votes + 1)
    )


@checked
@example(__call__={"votes": 9})
def vote_power(votes: VotesArg) -> float:
    """The per-vote detection probability q at which a strict majority of ``votes``
    independent votes flags with probability ≥ 0.9: the smallest q (to 1e-6) with
    P(Bin(votes, q) > votes/2) ≥ 0.9."""
    votes = _odd(votes)
    lo, hi = 0.0, 1.0
    while hi - lo > 1e-6:
        mid = (lo + hi) / 2
        if majority_false_alarm(votes, mid) >= POWER:
            hi = mid
        else:
            lo = mid
    return hi


def _vote_seeds(seed: int, votes: int) -> list[int]:
    """The seeds of the votes: distinct, so that the audits are independent."""
    return [seed + k for k in range(votes)]


@dataclass
class VoteResult:
    """The audits behind one :func:`assert_dp` verdict."""

    __dpspec_declarative__ = "the audits behind one assert_dp verdict (a record)"

    results: list[AuditResult]
    violations: int
    votes: int
    false_alarm_bound: float

    @property
    def passed(self) -> bool:
        return self.violations <= self.votes // 2

    @property
    def resolution(self) -> float:
        """The smallest true ε that a majority of the votes flags with probability ≥ 0.9:
        each vote at the per-vote power :func:`vote_power` on its reported event, the median
        over the votes (a majority is flagged when more than half the votes are)."""
        need = vote_power(self.votes)
        found = sorted(
            _resolution(r.samples_per_side, max(r.p2, 1 / r.samples_per_side),
                        r.events[0].level if r.events else 0.025, r.epsilon_claimed, r.delta,
                        need)
            for r in self.results
        )  # fmt: skip
        return found[len(found) // 2]

    @property
    def delta_resolution(self) -> float:
        """The least mass of a region D' cannot produce that a majority of the votes flags
        with probability ≥ 0.9 (the per-vote power :func:`vote_power`; the median)."""
        need = vote_power(self.votes)
        found = sorted(
            _delta_resolution(r.samples_per_side, r.events[0].level if r.events else 0.025,
                              r.epsilon_claimed, r.delta, need)
            for r in self.results
        )  # fmt: skip
        return found[len(found) // 2]

    @property
    def resolved(self) -> bool:
        """Could the votes have caught a modest violation of the claim (ε × 1.25; for an
        (ε, δ) claim also a δ twice the claim)?"""
        first = self.results[0]
        return claim_resolved(
            first.epsilon_claimed, self.resolution, RESOLVED_MARGIN, RESOLVED_FLOOR
        ) and delta_resolved(first.delta, self.delta_resolution, DELTA_MARGIN)

    def power(self) -> str:
        """What a pass means, in words."""
        first = self.results[0]
        return (
            f"a majority of {self.votes} audits of {first.samples_per_side} draws per side "
            f"flags eps >= {self.resolution:.4g} at delta = {first.delta:g} with probability "
            f">= {POWER} on the events the votes reported"
            + (
                f", and a region D' cannot produce from mass {self.delta_resolution:.3g}"
                if first.delta > 0
                else ""
            )
            + ("" if self.resolved else "; the claim is beyond that: a pass is inconclusive")
        )

    def summary(self) -> str:
        lower = ", ".join(f"{r.epsilon_lower:.4g}" for r in self.results)
        first = self.results[0]
        worst = max(self.results, key=lambda r: r.epsilon_lower)
        return (
            f"{self.violations}/{self.votes} audits flag a violation (eps lower bounds {lower}; "
            f"claimed {first.epsilon_claimed:g}, delta {first.delta:g}); largest bound on the "
            f"pair {worst.pair!r:.120} with the event {worst.event} [{worst.direction}]; "
            f"false-alarm bound {self.false_alarm_bound:.2g}; {self.power()}"
        )


class DPViolation(AssertionError):
    """Raised by :func:`assert_dp` when a majority of its audits finds ε_LCB > ε; ``result``
    holds every audit (bounds, events, the pair each ran on)."""

    def __init__(self, message: str, result: VoteResult) -> None:
        super().__init__(message)
        self.result = result


@checked
@example(
    __call__={"pair": (0.0, 1.0), "epsilon": 1.0, "votes": 3, "samples": 2000, "selection": 1000}
)
def vote(
    mechanism: MechanismArg,
    pair: OptionalPairArg = None,
    epsilon: ClaimArg = None,
    delta: DeltaArg = 0.0,
    *,
    votes: VotesArg = 9,
    samples: SamplesArg = 10**6,
    confidence: ConfidenceArg = 0.95,
    seed: SeedArg = 0,
    runner: Annotated[Callable[..., AuditResult], Function(clean=audit)] = audit,
    **options: Any,
) -> VoteResult:
    """``votes`` independent audits (seeds :func:`_vote_seeds`) and their tally; ``options``
    go to every audit. Arguments are checked before any draw, each error naming its
    parameter."""
    votes = _odd(votes)
    if "checkpoint" in options or "progress" in options:
        name = "checkpoint" if "checkpoint" in options else "progress"
        raise ValueError(f"{name}: not an option of assert_dp (its audits are short and many)")
    bound = majority_false_alarm(votes, 1 - confidence)
    results = [
        runner(
            mechanism, pair, epsilon, delta, samples=samples, confidence=confidence, seed=s,
            **options,
        )
        for s in _vote_seeds(seed, votes)
    ]  # fmt: skip
    return VoteResult(results, sum(r.violation for r in results), votes, bound)


@checked
@example(
    __call__={
        "mechanism": _example_noise,
        "pair": (0.0, 1.0),
        "epsilon": 1.0,
        "votes": 3,
        "samples": 2000,
        "selection": 1000,
    }
)
def assert_dp(
    mechanism: MechanismArg,
    pair: OptionalPairArg = None,
    epsilon: ClaimArg = None,
    delta: DeltaArg = 0.0,
    *,
    votes: VotesArg = 9,
    samples: SamplesArg = 10**6,
    confidence: ConfidenceArg = 0.95,
    seed: SeedArg = 0,
    **options: Any,
) -> VoteResult:
    """Fail with :class:`DPViolation` when a strict majority of ``votes`` audits of
    ``mechanism`` finds the (ε, δ) claim violated; return the tally otherwise. Every option of
    :func:`~dpspec.audit.audit` is accepted (``options``). False alarm ≤
    :func:`majority_false_alarm` (votes, 1 − confidence) for a correct mechanism. Each vote
    is one audit at its default budget (10^6 draws per side), so the defaults are at least as
    strong as one audit: a majority needs each vote to flag with probability 0.699
    (:func:`vote_power`), where one audit's resolution asks 0.9."""
    result = vote(
        mechanism, pair, epsilon, delta, votes=votes, samples=samples, confidence=confidence,
        seed=seed, **options,
    )  # fmt: skip
    if not result.passed:
        raise DPViolation(
            f"(epsilon={result.results[0].epsilon_claimed}, delta={result.results[0].delta}) "
            f"violated: {result.summary()}",
            result,
        )
    return result
