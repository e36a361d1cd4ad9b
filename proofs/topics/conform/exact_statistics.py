"""``dpspec conform``'s budget statistics recomputed exactly (obligation
``conform.exact-statistics``).

The law test's critical counts and the run's false-alarm split are exact quantities; the
statistical checks of this topic (``checks.py``: 50 replicates at 1e-6, R replicates of the
power) cannot see them a few percent off. Here each is recomputed from first principles,
without calling the code under test for the expected value:

* the **critical counts** (lo, hi) of an event of mass m at n draws: the largest c with
  P(Bin(n, m) ≤ c) ≤ α_each/2 and the smallest c with P(Bin(n, m) ≥ c) ≤ α_each/2, walked
  count by count in exact integers (:class:`ExactBinomial`), against
  ``dpspec.conform.gof._critical_counts``;
* the **false-alarm split**: α over one law test per instance plus one audit per instance
  when the algorithm claims privacy, as an exact ``Fraction`` α/tests, against ``plan``'s
  ``alpha_each`` (a division is correctly rounded, so the float must be that rational's), with
  the union bound tests·α_each ≤ α.

The controls plant two real bugs in the code that runs (``BugControl``: the same snippets as
the topic's mutants): the counts at α_each per side instead of α_each/2, and the split that
forgets the audits (each law test at twice its share); each check must report them. The full
exact recomputation of the p-value, the stated power and the outcome tables is
``tests/test_conform_exact_statistics.py``, which imports the references here.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

import dpspec.conform.gof
from dpspec.conform import core, gof
from dpspec.conform.core import plan
from dpspec.proofs.engine.controls import BugControl, planted
from dpspec.proofs.engine.registry import (
    RECOMPUTED,
    CheckOutcome,
    Control,
    Method,
    Obligation,
    VerifyConfig,
)

#: the whole run's false alarm, the float 1e-6 (dpspec.conform.gof.ALPHA, restated: the
#: expectation is ours), as the exact rational it is
ALPHA = Fraction(1e-6)


class ExactBinomial:
    """Bin(n, p) for rational p = a/d in (0, 1), exactly: P(X = k)·d^n = C(n, k)·a^k·(d − a)^(n−k)
    is an integer, so every tail is an integer sum over d^n."""

    def __init__(self, n: int, p: Fraction) -> None:
        if not 0 < p < 1:
            raise ValueError(f"p: in (0, 1), got {p}")
        a, d = p.numerator, p.denominator
        b = d - a
        self.n, self.scale = n, d**n
        term, choose, running = b**n, 1, 0
        self.prefix: list[int] = []  # P(X ≤ k)·d^n
        for k in range(n + 1):
            running += choose * term
            self.prefix.append(running)
            if k < n:
                term = term // b * a  # a^(k+1)·b^(n−k−1): b^(n−k) divides a^k·b^(n−k)
                choose = choose * (n - k) // (k + 1)
        if self.prefix[-1] != self.scale:  # the pmf sums to 1, exactly
            raise ArithmeticError("the binomial pmf does not sum to 1")

    def le(self, c: int) -> Fraction:
        """P(X ≤ c)."""
        if c < 0:
            return Fraction(0)
        return Fraction(self.prefix[min(c, self.n)], self.scale)

    def ge(self, c: int) -> Fraction:
        """P(X ≥ c)."""
        return 1 - self.le(c - 1)

    def critical(self, half: Fraction) -> tuple[int, int]:
        """(largest c with P(X ≤ c) ≤ half, −1 if none; smallest c with P(X ≥ c) ≤ half, n + 1
        if none), by walking every count (integer comparisons of the tails times d^n)."""
        bound, den = half.numerator * self.scale, half.denominator
        below = [0, *self.prefix]  # P(X ≤ c − 1)·d^n for c = 0 … n + 1
        lo = max([-1, *(c for c in range(self.n + 1) if self.prefix[c] * den <= bound)])
        hi = min(c for c in range(self.n + 2) if (self.scale - below[c]) * den <= bound)
        return lo, hi


#: (n, event mass, α_each): masses of both kinds (dyadic, and irrational ones as their float)
CRITICAL_CASES = [
    (n, mass, alpha)
    for n in (30, 100, 250)
    for mass in (1 / 16, 0.3, 0.5, math.exp(-1), 0.97)
    for alpha in (0.05, 1e-3, 1e-6)
]


def critical_problems(n: int, mass: float, alpha_each: float) -> list[str]:
    """``gof._critical_counts`` against the exact (lo, hi) at α_each/2 per side."""
    lo, hi = gof._critical_counts(n, np.array([mass]), alpha_each)
    exact = ExactBinomial(n, Fraction(mass)).critical(Fraction(alpha_each) / 2)
    got = (int(lo[0]), int(hi[0]))
    return [] if got == exact else [f"n={n} m={mass!r} α={alpha_each!r}: {got}, exact {exact}"]


#: (algorithm, parameters, instances the catalogue states, whether it claims privacy)
SPLITS: list[tuple[str, dict[str, Any], int, bool]] = [
    ("discrete-laplace", {"scale": 2.0}, 6, True),  # v = 0, 1000, −7, both ends, one drawn
    ("randomized-response", {"epsilon": 1.0, "k": 3}, 3, True),  # x = 0, ⌊k/2⌋, k − 1
    ("bernoulli-exp", {}, 3, False),  # γ = 1/3, 1, 7/2: no privacy claim
]


def never_drawn(v: Any, size: int, rng: np.random.Generator) -> Any:
    """A vectorised target (never drawn from by plan)."""
    return np.zeros(size, dtype=np.int64)


def split_problems(name: str, params: dict[str, Any], instances: int, claims: bool) -> list[str]:
    """``plan``'s α per test against α/(instances × (2 if the algorithm claims privacy else 1))
    in exact Fractions (then its float: a division is correctly rounded), and the union bound
    over the run's tests: tests × α_each ≤ α (to one rounding)."""
    p = core.plan(never_drawn, name, audit_samples=10**6, **params)
    tests = instances * (2 if claims else 1)
    exact = ALPHA / tests
    problems = []
    if len(p.instances) != instances:
        problems.append(f"{len(p.instances)} instances, the catalogue states {instances}")
    if (p.claim is not None) != claims:
        problems.append(f"claim {p.claim}")
    if p.alpha_each != float(exact):
        problems.append(f"alpha_each {p.alpha_each!r}, exact α/{tests} = {float(exact)!r}")
    if Fraction(p.alpha_each) * tests > ALPHA * (1 + Fraction(1, 2**52)):
        problems.append(f"{tests} tests at {p.alpha_each!r} exceed α = {float(ALPHA)}")
    return problems


def _critical_problems() -> list[str]:
    return [p for case in CRITICAL_CASES for p in critical_problems(*case)]


def _split_problems(cases: list[tuple[str, dict[str, Any], int, bool]]) -> list[str]:
    return [p for case in cases for p in split_problems(*case)]


#: the controls: real bugs of the code that runs, planted for the duration of one recomputation
FULL_ALPHA_PER_SIDE = BugControl(
    "dpspec.conform.gof._critical_counts",
    "half = alpha_each / 2",
    "half = alpha_each",
    "the critical counts at α_each per side (not α_each/2)",
)
AUDITS_LEFT_OUT = BugControl(
    "dpspec.conform.core.plan",
    "tests = len(instances) * (2 if claim is not None else 1)",
    "tests = len(instances)",
    "the audits left out of the false-alarm split (each law test at twice its share)",
)


@Obligation(
    id="conform.exact-statistics",
    source="dpspec conform's law test (dpspec.conform.gof) and its budget (plan)",
    claim=(
        "the law test's critical counts are the exact binomial quantiles at alpha_each/2 "
        "per side, and alpha_each is exactly alpha over the run's law tests and audits"
    ),
    method=Method.EXACT,
    no_predicate=(
        f"{RECOMPUTED}: the critical counts by an exact binomial walk, α per test as α/tests"
    ),
    impls=(dpspec.conform.gof, plan),
    tests=(
        "tests/test_conform_exact_statistics.py::test_critical_counts_are_the_exact_binomial_quantiles",
        "tests/test_conform_exact_statistics.py::test_alpha_is_split_over_law_tests_and_audits",
    ),
)
def statistics_are_exact(config: VerifyConfig) -> CheckOutcome:
    """Every critical count of :data:`CRITICAL_CASES` equals the exact walk, and ``plan``'s
    α per test equals α/tests exactly for each of :data:`SPLITS`; each planted control must
    make its recomputation report a problem (the split's on randomized response)."""
    critical, split = _critical_problems(), _split_problems(SPLITS)
    with planted(FULL_ALPHA_PER_SIDE):
        critical_bug = _critical_problems()
    with planted(AUDITS_LEFT_OUT):  # on the algorithm with a claim whose plan is quickest
        split_bug = _split_problems(SPLITS[1:2])
    ok = not critical and not split
    return CheckOutcome(
        ok,
        f"critical counts: {len(CRITICAL_CASES) - len(critical)}/{len(CRITICAL_CASES)} equal "
        f"the exact binomial walk; α split: {len(SPLITS) - len(split)}/{len(SPLITS)} plans at "
        f"exactly α/tests"
        + (f"; problems: {critical + split}" if not ok else "")
        + f"; controls: {len(critical_bug)} counts differ at α per side, "
        f"{len(split_bug)} split problems without the audits",
        {"critical_problems": critical, "split_problems": split},
        [
            Control(FULL_ALPHA_PER_SIDE.bug, bool(critical_bug), f"{critical_bug[:1]}"),
            Control(AUDITS_LEFT_OUT.bug, bool(split_bug), f"{split_bug[:1]}"),
        ],
    )
