"""``assert_dp``: a DP assertion for other projects' test suites, with a stated false alarm.

One audit of a truly (ε, δ)-DP mechanism reports a violation with probability at most
α = 1 − ``confidence`` (:mod:`dpspec.audit.loop`). ``assert_dp`` runs ``votes`` independent
audits (seeds ``seed``, ``seed + 1``, …; fresh draws each) and fails only when a strict majority
flags a violation, as Google's DP libraries do with 9 votes. For a correct mechanism:

    P(false alarm) ≤ Σ_{k > votes/2} C(votes, k) α^k (1 − α)^{votes − k}

(:func:`majority_false_alarm`: 3.3e-5 for 9 votes at α = 0.05). With the default fixed seed the
assertion is also deterministic: it gives the same verdict on every run, so it cannot flake.
Power (the "validity" tests): at the defaults, a mechanism whose true ε is 1.2× the claim is
rejected (``audit.assert-dp`` in the registry measures this on Laplace and randomized response).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dpspec.audit.loop import AuditResult, audit, check_samples
from dpspec.validation import check_confidence, check_seed


class DPViolation(AssertionError):
    """Raised by :func:`assert_dp` when a majority of its audits finds ε_LCB > ε."""


def majority_false_alarm(votes: int, alpha: float) -> float:
    """P(Bin(votes, alpha) > votes/2): the false-alarm bound of a majority of ``votes``."""
    if votes < 1 or votes % 2 == 0:
        raise ValueError(f"votes: must be a positive odd number, got {votes!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha: must be in (0, 1), got {alpha!r}")
    need = votes // 2 + 1
    return math.fsum(
        math.comb(votes, k) * alpha**k * (1 - alpha) ** (votes - k) for k in range(need, votes + 1)
    )


@dataclass
class VoteResult:
    """The audits behind one :func:`assert_dp` verdict."""

    results: list[AuditResult]
    violations: int
    votes: int
    false_alarm_bound: float

    @property
    def passed(self) -> bool:
        return self.violations <= self.votes // 2

    def summary(self) -> str:
        lower = ", ".join(f"{r.epsilon_lower:.4g}" for r in self.results)
        return (
            f"{self.violations}/{self.votes} audits flag a violation (eps lower bounds {lower}; "
            f"claimed {self.results[0].epsilon_claimed:g}); false-alarm bound "
            f"{self.false_alarm_bound:.2g}"
        )


def vote(
    mechanism: Any,
    pair: tuple[Any, Any],
    epsilon: float,
    delta: float = 0.0,
    samples: int = 200_000,
    confidence: float = 0.95,
    votes: int = 9,
    seed: int = 0,
    runner: Callable[..., AuditResult] = audit,
) -> VoteResult:
    """``votes`` independent audits (seeds seed .. seed + votes − 1) and their tally.
    Arguments are checked before any draw, each error naming its parameter."""
    confidence = check_confidence(confidence)
    samples = check_samples(samples)
    seed = check_seed(seed)
    if isinstance(votes, bool) or not isinstance(votes, int) or votes > 999:
        raise ValueError(f"votes: must be a positive odd integer <= 999, got {votes!r}")
    bound = majority_false_alarm(votes, 1 - confidence)
    results = [
        runner(
            mechanism, pair, epsilon, delta, samples=samples, confidence=confidence, seed=seed + k
        )
        for k in range(votes)
    ]
    return VoteResult(results, sum(r.violation for r in results), votes, bound)


def assert_dp(
    mechanism: Any,
    pair: tuple[Any, Any],
    epsilon: float,
    delta: float = 0.0,
    samples: int = 200_000,
    confidence: float = 0.95,
    votes: int = 9,
    seed: int = 0,
) -> VoteResult:
    """Fail (``DPViolation``) when a majority of ``votes`` audits of ``mechanism`` on ``pair``
    finds the (ε, δ) claim violated; return the tally otherwise. False alarm ≤
    :func:`majority_false_alarm` (votes, 1 − confidence) for a correct mechanism."""
    result = vote(mechanism, pair, epsilon, delta, samples, confidence, votes, seed)
    if not result.passed:
        raise DPViolation(f"(epsilon={epsilon}, delta={delta}) violated: {result.summary()}")
    return result
