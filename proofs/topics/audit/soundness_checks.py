"""The auditor's soundness, powered: every check here can see an auditor whose false-alarm rate
is twice the one it states.

An audit of a correct mechanism raises a false alarm only when its ε_LCB exceeds the true ε,
which needs a confidence bound to miss *and* the miss to go the right way: on ordinary targets
that happens far less often than α (0/240 at α = 0.05 in 0.2's check), so a check of the
false-alarm rate alone cannot tell α from 2α. What the soundness proof spends α on is the union
bound: all 2K one-sided Clopper–Pearson bounds of the K estimated events hold together with
probability ≥ 1 − α (each at α/(2K), :func:`dpspec.audit.loop.event_level`). On a target whose
events all have moderate probabilities on both sides, each bound misses with probability close
to its level, so the rate of audits in which *some* bound misses its true probability is close
to α: the bound is attained. These checks measure that rate against the exact probabilities of
the events the audit chose (closed forms of the target, not numbers the auditor produced), with
an exact binomial test at 1e-6 on fixed seeds, and state its power against a rate 2α. Controls
are the two bugs that double the rate: a confidence level silently halved (each bound at 2α/(2K))
and α not split over the events (each at α/2 whatever K is); each is run through the real bound
code on the same audits' counts (selection and counting do not depend on the level).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any
from unittest import mock

import numpy as np
from scipy import stats

import dpspec.audit.loop as audit_loop
from dpspec.audit import EventBound, audit
from dpspec.audit.events import Event
from dpspec.proofs.engine.registry import CheckOutcome, Control, Slack, VerifyConfig
from dpspec.spec.audit import false_alarm_rate_acceptable

SEED = 9300
#: false rejection of the rate tests (fixed seeds: the verdicts reproduce)
ALPHA_TEST = Fraction(1, 10**6)
#: confidence of the powered audits: α = 0.2 makes a doubled rate (0.4) visible in ~10³ audits
POWERED_CONFIDENCE = 0.8

#: the two bugs that double the miss rate, as replacements of ``event_level(alpha, K)``
LEVEL_BUGS: dict[str, Callable[[float, int], float]] = {
    "confidence silently halved (each bound at 2α/(2K))": lambda alpha, k: alpha / k,
    "α not split over the K events (each bound at α/2)": lambda alpha, k: alpha / 2,
}


def rate_test(misses: int, runs: int, level: float) -> tuple[bool, float]:
    """(``misses`` of ``runs`` consistent with a rate ≤ ``level``, the exact power of this test
    against a rate 2·``level``): one-sided exact binomial test at ``ALPHA_TEST``."""
    ok = false_alarm_rate_acceptable(
        misses, runs, Fraction(level).limit_denominator(10**6), ALPHA_TEST
    )
    cut = int(stats.binom.isf(float(ALPHA_TEST), runs, level))
    while stats.binom.sf(cut - 1, runs, level) >= float(ALPHA_TEST):
        cut += 1
    return ok, float(stats.binom.sf(cut - 1, runs, min(2 * level, 1.0)))


def misses(bounds: Sequence[EventBound], truth: Callable[[Event, int], float]) -> bool:
    """Does some bound miss: p₁ below its lower bound or p₂ above its upper bound, with the
    exact probabilities ``truth(event, side)`` (side 0: D, 1: D')?"""
    for b in bounds:
        p1, p2 = truth(b.event, b.first), truth(b.event, 1 - b.first)
        if p1 < b.p1_interval[0] or p2 > b.p2_interval[1]:
            return True
    return False


def rebound(bounds: Sequence[EventBound], n: int, confidence: float) -> list[EventBound]:
    """The same events and counts bounded again by the real :func:`event_bounds` (used with
    ``event_level`` replaced by a bug)."""
    return audit_loop.event_bounds(
        [b.event for b in bounds], [b.first for b in bounds], [b.hits for b in bounds], n,
        confidence, 0.0,
    )  # fmt: skip


def powered_soundness(
    name: str,
    runs: int,
    one: Callable[[int], tuple[Sequence[EventBound], int]],
    truth: Callable[[Event, int], float],
    bugs: Sequence[str] = tuple(LEVEL_BUGS),
) -> CheckOutcome:
    """``runs`` audits (``one(r)`` → its event bounds and draws per side) of a target whose
    events have exact probabilities ``truth``: the rate of audits with a missed bound must be
    consistent with ≤ α; each of the ``bugs`` (keys of :data:`LEVEL_BUGS`), applied to the
    same counts, must be rejected by that test."""
    alpha = 1.0 - POWERED_CONFIDENCE
    nominal = 0
    buggy = dict.fromkeys(bugs, 0)
    events = 0
    for r in range(runs):
        bounds, n = one(r)
        events += len(bounds)
        nominal += misses(bounds, truth)
        for bug in bugs:
            with mock.patch.object(audit_loop, "event_level", LEVEL_BUGS[bug]):
                buggy[bug] += misses(rebound(bounds, n, POWERED_CONFIDENCE), truth)
    ok, power = rate_test(nominal, runs, alpha)
    controls = []
    for bug, count in buggy.items():
        rejected = not rate_test(count, runs, alpha)[0]
        controls.append(Control(bug, rejected, f"{count}/{runs} audits with a missed bound"))
    return CheckOutcome(
        ok,
        f"{name}: {nominal}/{runs} audits with a missed bound (K = {events / runs:.2f} events "
        f"on average; consistent with <= alpha = {alpha:.2g}: {ok}; power of the test against "
        f"a rate 2 alpha: {power:.4f}); controls: "
        + "; ".join(f"{c.bug}: {c.measured} (rejected: {c.caught})" for c in controls),
        {"runs": runs, "missed": nominal, "alpha": alpha, "power_at_2alpha": power,
         "controls": buggy},
        controls,
        [Slack(f"P(a bound misses) ({name})", alpha, nominal / runs)],
    )  # fmt: skip


# --- mechanism audits with several events ------------------------------------------------------

#: the NaN-Laplace target: scale b and the NaN probability on D = 0 and D' = 1
_SCALE = 2.0
_NAN = (0.33, 0.2)


def nan_laplace(d: Any, n: int, rng: np.random.Generator) -> Any:
    """q + Laplace(2), NaN with probability 0.33 (q = 0) or 0.2 (q = 1): ε = 0.5 on the body
    and ln(0.33/0.2) ≈ 0.5 on {NaN}, so selection keeps an event of each family (K = 2)."""
    q = float(d)
    out = q + rng.laplace(0.0, _SCALE, n)
    out[rng.random(n) < _NAN[int(q)]] = np.nan
    return out


def _laplace_sf(z: float) -> float:
    """P(Laplace(b) ≥ z)."""
    return 0.5 * math.exp(-z / _SCALE) if z >= 0 else 1.0 - 0.5 * math.exp(z / _SCALE)


def nan_laplace_probability(event: Event, side: int) -> float:
    """The exact probability of ``event`` under :func:`nan_laplace` on q = ``side``."""
    q, w = float(side), _NAN[side]
    if event.kind == "pattern":  # value classes: 0 a moderate number, 1 NaN
        return (w if 1 in event.values else 0.0) + ((1 - w) if 0 in event.values else 0.0)
    if event.kind == "atoms":  # single values: NaN, or a number (probability 0)
        return w if any(isinstance(v, float) and math.isnan(v) for v in event.values) else 0.0
    if event.kind in ("ge", "le", "interval") and not event.weights:
        upper = _laplace_sf(event.hi - q) if event.hi < math.inf else 0.0
        lower = _laplace_sf(event.lo - q) if event.lo > -math.inf else 1.0
        return (1 - w) * (lower - upper)
    raise ValueError(f"event: no closed form for {event.describe()}")


def soundness(config: VerifyConfig) -> CheckOutcome:
    """Mechanism audits with several candidate events (see the module docstring): R = 1000
    audits (3000 with ``--thorough``) of :func:`nan_laplace` on (0, 1) at confidence 0.8 with
    1000 selection and 1000 estimation draws per side keep K = 2 events (a threshold or
    interval and {NaN}); the rate of audits in which one of the 4 bounds misses its exact
    probability must be consistent with ≤ 0.2 (exact binomial test at 1e-6; its power against
    0.4 is stated). Controls: the confidence silently halved, α not split over the events."""
    runs = 3000 if config.thorough else 1000
    n = 1000

    def one(r: int) -> tuple[Sequence[EventBound], int]:
        result = audit(
            nan_laplace, (0.0, 1.0), 0.5, samples=n, selection=n,
            confidence=POWERED_CONFIDENCE, seed=SEED + r,
        )  # fmt: skip
        return result.events, n

    return powered_soundness("NaN-Laplace audits", runs, one, nan_laplace_probability)


# --- learner audits ----------------------------------------------------------------------------


def _lone_canary_pair(seed: int) -> tuple[Any, Any, Any]:
    """50 background points on [0, 0.7]², labels from x₁; the canary (0.9, 0.9) alone in the
    corner cube of a 4 × 4 grid, label 1 in D and 0 in D'."""
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.random((50, 2)) * 0.7, [[0.9, 0.9]]])
    y = (rng.random(51) < X[:, 0]).astype(np.int64)
    y1, y2 = y.copy(), y.copy()
    y1[-1], y2[-1] = 1, 0
    return (X, y1), (X, y2), np.array([[0.9, 0.9]])


def _lone_canary_probability(epsilon: float) -> Callable[[Event, int], float]:
    """The exact law of idealised PCL's released bit at a lone canary: 1[Σy + w > |C|/2] with
    |C| = 1 and w ~ Lap(1/ε) (seed 000 Alg 2, L193-200): P(bit = 1) = P(w > −1/2) =
    1 − e^{−ε/2}/2 on D (label 1) and P(w > 1/2) = e^{−ε/2}/2 on D' (label 0); closed form."""
    tail = math.exp(-epsilon / 2) / 2
    one = (1 - tail, tail)

    def truth(event: Event, side: int) -> float:
        law = {0: 1 - one[side], 1: one[side]}
        if event.kind == "atoms":
            return sum(law[int(v)] for v in event.values)
        if event.kind in ("ge", "le", "interval") and not event.weights:
            return sum(p for v, p in law.items() if event.lo <= v <= event.hi)
        raise ValueError(f"event: no closed form for {event.describe()}")

    return truth


def learner_soundness(config: VerifyConfig) -> CheckOutcome:
    """Learner audits: R = 1000 audits (3000 with ``--thorough``) of idealised PCL (ε = 1, a
    fixed 4 × 4 grid; the exact sampler's draws cost 8× more) on a lone canary whose label
    flips, sampled as the auditor samples it (the conformance-bound ``repeated_predictions``
    of exactly PCL's class, bound to ``fit`` by ``audit.learner-repeated-fits``), at
    confidence 0.8 with 1000 + 1000 draws per side: the rate of audits in which a bound misses
    PCL's exact law must be consistent with ≤ 0.2 (exact binomial test at 1e-6, power against
    0.4 stated). A learner release of bits keeps K = 1 event, so the control is the confidence
    silently halved (α not split over events is the mechanism check's control; the bound code
    is the same)."""
    from dpspec.audit.learners import LearnerMechanism
    from dpspec.learners.pcl import PrivateHistogramClassifier

    runs = 3000 if config.thorough else 1000
    n = 1000
    D, D2, probe = _lone_canary_pair(SEED)

    def factory(seed: int) -> PrivateHistogramClassifier:
        return PrivateHistogramClassifier(1.0, idealised=True, cells_per_axis=4, random_state=seed)

    mech = LearnerMechanism(factory, probe=probe, name="pcl")
    assert mech.sampling().startswith("vectorised")

    def one(r: int) -> tuple[Sequence[EventBound], int]:
        result = audit(
            mech, (D, D2), 1.0, samples=n, selection=n, confidence=POWERED_CONFIDENCE,
            seed=SEED + r,
        )  # fmt: skip
        return result.events, n

    bug = next(b for b in LEVEL_BUGS if b.startswith("confidence"))
    return powered_soundness("PCL learner audits", runs, one, _lone_canary_probability(1.0), [bug])
