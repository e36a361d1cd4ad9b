"""CrossHair layer of the auditor: the algebra that makes ε_LCB sound.

If M is (ε, δ)-DP on the pair then p₁ ≤ e^ε p₂ + δ for the chosen event; with the confidence
bounds p₁⁻ ≤ p₁ and p₂ ≤ p₂⁺ this gives (p₁⁻ − δ) ≤ e^ε p₂⁺, i.e. ε_LCB ≤ ε. The statement is
positively homogeneous, so it is checked on integers (probabilities times a common
denominator, e^ε = num/den as a ratio of integers): no Fractions, no logs.
"""

from __future__ import annotations

from dpspec.spec.audit import (  # event_within is used in the docstring contracts
    bound_certified,
    event_within,  # noqa: F401
)


def lower_bound_sound(
    p1: int, p2: int, p1_lo: int, p2_hi: int, delta: int, num: int, den: int
) -> bool:
    """Whenever the bounds hold and the event respects (ε, δ), the reported bound is ≤ ε.

    pre: 0 <= p1_lo <= p1
    pre: 0 <= p2 <= p2_hi
    pre: 0 <= delta
    pre: 1 <= den <= num
    pre: event_within(p1, p2, delta, num, den)
    post: __return__
    """
    return bound_certified(p1_lo, p2_hi, delta, num, den)


def lower_bound_sound_reversed(
    p1: int, p2: int, p1_lo: int, p2_hi: int, delta: int, num: int, den: int
) -> bool:
    """The same for the other direction (D' → D), which the auditor also searches: the claim
    bounds both directions, so swapping the roles of D and D' keeps the bound sound.

    pre: 0 <= p1_lo <= p2
    pre: 0 <= p1 <= p2_hi
    pre: 0 <= delta
    pre: 1 <= den <= num
    pre: event_within(p2, p1, delta, num, den)
    post: __return__
    """
    return bound_certified(p1_lo, p2_hi, delta, num, den)
