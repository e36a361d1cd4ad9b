"""Guarantees of a statistical DP audit, as predicates (seed-independent; auditing literature).

An audit of a neighbouring pair picks an event E and bounds p₁ = P(M(D) ∈ E) from below and
p₂ = P(M(D') ∈ E) from above. The reported ε_LCB = ln((p₁⁻ − δ)/p₂⁺) is *sound*: whenever both
bounds hold and M is (ε, δ)-DP on the pair (p₁ ≤ e^ε p₂ + δ for every event), ε_LCB ≤ ε.
Stated division- and log-free on integers or Fractions with e^ε = ``ratio_num/ratio_den``
(the CrossHair lemma ``dpspec.proofs.topics.audit.lemmas.lower_bound_sound`` proves the
implication).

The remaining predicates are the statistical side: exact coverage of a confidence-bound rule
for a binomial count, and the acceptance rule for an observed false-alarm rate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

Number = int | Fraction


def event_within(p1: Number, p2: Number, delta: Number, ratio_num: int, ratio_den: int) -> bool:
    """P(M(D) ∈ E) ≤ e^ε P(M(D') ∈ E) + δ with e^ε = ratio_num/ratio_den (multiplied out)."""
    return p1 * ratio_den <= ratio_num * p2 + delta * ratio_den


def bound_certified(
    p1_lo: Number, p2_hi: Number, delta: Number, ratio_num: int, ratio_den: int
) -> bool:
    """ln((p₁⁻ − δ)/p₂⁺) ≤ ε, i.e. (p₁⁻ − δ)·den ≤ num·p₂⁺ (true as well when p₁⁻ ≤ δ)."""
    return (p1_lo - delta) * ratio_den <= ratio_num * p2_hi


def binomial_pmf(n: int, k: int, p: Fraction) -> Fraction:
    """C(n, k) p^k (1 − p)^{n−k}, exactly."""
    return math.comb(n, k) * p**k * (1 - p) ** (n - k)


def lower_bound_coverage(n: int, p: Fraction, bounds: Sequence[float]) -> Fraction:
    """Exact P(bounds[K] ≤ p) for K ~ Bin(n, p): the coverage of a lower-confidence-bound rule
    that reports ``bounds[k]`` after k successes in n trials."""
    if len(bounds) != n + 1:
        raise ValueError(f"bounds: expected {n + 1} values (k = 0..n), got {len(bounds)}")
    return sum(
        (binomial_pmf(n, k, p) for k in range(n + 1) if Fraction(bounds[k]) <= p), Fraction(0)
    )


def binomial_upper_tail(n: int, k: int, p: Fraction) -> Fraction:
    """P(Bin(n, p) ≥ k), exactly."""
    return sum((binomial_pmf(n, j, p) for j in range(max(k, 0), n + 1)), Fraction(0))


def false_alarm_rate_acceptable(
    violations: int, audits: int, level: Fraction, alpha: Fraction
) -> bool:
    """Is ``violations`` out of ``audits`` consistent with a false-alarm rate ≤ ``level``?
    Rejects when P(Bin(audits, level) ≥ violations) < ``alpha`` (a one-sided exact test whose
    own false rejection probability is ≤ ``alpha``)."""
    if not 0 <= violations <= audits:
        raise ValueError(f"violations: must be in [0, {audits}], got {violations}")
    return binomial_upper_tail(audits, violations, level) >= alpha


def misses_acceptable(missed: int, levels: Sequence[float], alpha: float) -> bool:
    """Independent one-sided bounds, bound i missing with probability at most ``levels[i]``:
    is ``missed`` misses consistent with that? Rejects when P(S ≥ missed) < ``alpha`` for S a
    sum of independent Bernoulli(levels) (it dominates the count of misses, so the test's own
    false rejection probability is ≤ ``alpha``). P(S ≤ missed − 1) by the exact recursion
    over the bounds, truncated at ``missed`` terms."""
    if missed < 0:
        raise ValueError(f"missed: must be >= 0, got {missed}")
    if missed == 0:
        return True
    below = [1.0] + [0.0] * (missed - 1)  # P(S_t = j) for j < missed
    for p in levels:
        if not 0 <= p <= 1:
            raise ValueError(f"levels: each must be in [0, 1], got {p}")
        for j in range(missed - 1, 0, -1):
            below[j] = below[j] * (1 - p) + below[j - 1] * p
        below[0] *= 1 - p
    return 1.0 - math.fsum(below) >= alpha


def checkpoint_counts_valid(done: int, hits: int, n: int, block: int) -> bool:
    """Counts a checkpoint of an audit with ``n`` estimation draws per side may hold for one
    side: ``done`` draws in whole blocks of ``block`` (or all n), and 0 ≤ hits ≤ done — the hits
    are a count of those draws. Integers only (a bool is not a count)."""
    ints = all(isinstance(v, int) and not isinstance(v, bool) for v in (done, hits, n, block))
    if not ints or n < 1 or block < 1:
        return False
    whole = done == n or done % block == 0
    return 0 <= done <= n and whole and 0 <= hits <= done


def bracket_verdict(
    lower: float, upper: float | None, exact: float | None, claim: float, tolerance: float
) -> str:
    """The one verdict of a bracketed audit of an ε claim: ``"violation"`` when the
    statistical lower bound exceeds the claim, or the replay is exact (the release determines
    the coupled noise, so ``exact`` is the pair's own ε, a lower bound as well) and exceeds it;
    ``"consistent"`` when the replay's upper bound meets the claim (within ``tolerance``
    relative: the shifts are computed in floating point) and the lower bound agrees;
    ``"inconclusive"`` otherwise (no upper bound, or one above the claim that no lower bound
    confirms)."""
    if lower > claim or (exact is not None and exact > claim * (1 + tolerance)):
        return "violation"
    if upper is not None and upper <= claim * (1 + tolerance):
        return "consistent"
    return "inconclusive"


def claim_resolved(claim: float, resolution: float, margin: float, floor: float) -> bool:
    """Could an audit whose resolution (the least true ε it flags with probability ≥ 0.9) is
    ``resolution`` have caught a modest violation of ``claim``: ε × ``margin``, or
    ε + ``floor`` for small claims?"""
    return resolution <= max(margin * claim, claim + floor)


def delta_resolved(delta: float, delta_resolution: float, margin: float) -> bool:
    """Could an audit whose δ resolution (the least leak, on a region the other side cannot
    produce, it flags with probability ≥ 0.9) is ``delta_resolution`` have caught a δ of
    ``margin`` × ``delta``? A pure claim (δ = 0) has nothing more to resolve here: its ε
    resolution decides."""
    return delta == 0 or delta_resolution <= margin * delta
