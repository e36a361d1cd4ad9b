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
from numpy.typing import NDArray
from scipy import stats

import dpspec.audit.loop as audit_loop
from dpspec.audit import EventBound, audit
from dpspec.audit.learners import LearnerMechanism
from dpspec.audit.loop import AuditCoverageWarning, AuditResult, event_level
from dpspec.audit.machinery import Event
from dpspec.audit.pair_search import Search
from dpspec.proofs.engine.registry import (
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
)
from dpspec.spec.audit import false_alarm_rate_acceptable, misses_acceptable

SEED = 9300
#: false rejection of the miss tests (fixed seeds: the verdicts reproduce)
ALPHA_TEST = Fraction(1, 10**6)
#: confidence of the powered audits: α = 0.4 puts each bound's level at a few per cent, where
#: a doubled level shows in a few hundred audits
POWERED_CONFIDENCE = 0.6

#: the two bugs that double the levels, as replacements of ``event_level(alpha, K)``
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


def _sum_law(levels: Sequence[float]) -> NDArray[np.float64]:
    """P(S = j), j = 0..len(levels), for S a sum of independent Bernoulli(levels) (exact
    recursion)."""
    dist = np.zeros(len(levels) + 1)
    dist[0] = 1.0
    for t, p in enumerate(levels):
        dist[1 : t + 2] = dist[1 : t + 2] * (1 - p) + dist[: t + 1] * p
        dist[0] *= 1 - p
    return dist


def _tail(dist: NDArray[np.float64], at_least: int) -> float:
    """P(S ≥ at_least) from the law of S (:func:`_sum_law`)."""
    return float(dist[at_least:].sum())


def miss_test(missed: int, levels: Sequence[float]) -> tuple[bool, float, int]:
    """Independent one-sided bounds, each missing with probability at most its level: is
    ``missed`` consistent with that (P(S ≥ missed) ≥ 1e-6 for S the sum of independent
    Bernoulli(levels), which dominates the count of misses)? Also the power of the test
    against levels doubled, and its critical count."""
    law = _sum_law(levels)
    cut = 0
    while _tail(law, cut) >= float(ALPHA_TEST):
        cut += 1
    doubled = _sum_law([min(2 * p, 1.0) for p in levels])
    return misses_acceptable(missed, levels, float(ALPHA_TEST)), _tail(doubled, cut), cut


def side_misses(bound: EventBound, truth: Callable[[Event, int], float]) -> tuple[bool, bool]:
    """(p₁ below its lower bound, p₂ above its upper bound) with the exact probabilities
    ``truth(event, side)`` (side 0: D, 1: D'): two bounds on independent draws."""
    p1, p2 = truth(bound.event, bound.first), truth(bound.event, 1 - bound.first)
    return p1 < bound.p1_interval[0], p2 > bound.p2_interval[1]


def rebound(bounds: Sequence[EventBound], n: int, confidence: float) -> list[EventBound]:
    """The same events and counts bounded again by the real :func:`_event_bounds` (used with
    ``event_level`` replaced by a bug)."""
    return audit_loop._event_bounds(
        [b.event for b in bounds], [b.first for b in bounds], [b.hits for b in bounds], n,
        confidence, 0.0,
    )  # fmt: skip


Pick = Callable[[Sequence[EventBound]], int | None]


def first_event(bounds: Sequence[EventBound]) -> int | None:
    """The bounds tested: those of the first estimated event."""
    return 0


def powered_soundness(
    name: str,
    runs: int,
    one: Callable[[int], Sequence[tuple[Sequence[EventBound], int]]],
    truth: Callable[[int, int], Callable[[Event, int], float]],
    bugs: Sequence[str] = tuple(LEVEL_BUGS),
    pick: Pick = first_event,
) -> CheckOutcome:
    """``runs`` audits; ``one(r)`` gives the estimated events of each audit it ran (several
    for a pair search: one per finalist) and their draws per side, ``truth(r, k)`` the exact
    law of its k-th audit. Of each audit, the two bounds of the event ``pick`` chooses (from
    what selection chose: independent of the estimation draws) are tested: on independent
    draws, each misses with probability at most its level, so the misses must be consistent
    with :func:`miss_test`. Each of the ``bugs`` (keys of :data:`LEVEL_BUGS`), applied to the
    same counts through the real bound code, must be rejected by that test."""
    missed = 0
    levels: list[float] = []
    buggy = dict.fromkeys(bugs, 0)
    bug_levels: dict[str, list[float]] = {bug: [] for bug in bugs}
    events = audits = 0
    for r in range(runs):
        for k, (bounds, n) in enumerate(one(r)):
            audits += 1
            events += len(bounds)
            e = pick(bounds)
            if e is None:
                continue
            law = truth(r, k)
            missed += sum(side_misses(bounds[e], law))
            levels += [bounds[e].level] * 2
            for bug in bugs:
                with mock.patch.object(audit_loop, "event_level", LEVEL_BUGS[bug]):
                    wrong = rebound(bounds, n, POWERED_CONFIDENCE)[e]
                buggy[bug] += sum(side_misses(wrong, law))
                bug_levels[bug] += [wrong.level] * 2
    ok, power, cut = miss_test(missed, levels)
    controls = []
    for bug, count in buggy.items():
        rejected = count >= cut
        controls.append(
            Control(bug, rejected, f"{count} missed bounds (the test rejects from {cut})")
        )
    expected = float(np.sum(levels))
    return CheckOutcome(
        ok,
        f"{name}: {missed} of {len(levels)} tested bounds missed their exact probability "
        f"(at most {expected:.1f} expected from their levels; K = {events / max(audits, 1):.2f} "
        f"events per audit; consistent: {ok}, the test rejects from {cut}, power against "
        f"doubled levels {power:.4f}); controls: "
        + "; ".join(f"{c.bug}: {c.measured} (rejected: {c.caught})" for c in controls),
        {"runs": runs, "tested_bounds": len(levels), "missed": missed, "critical": cut,
         "power_at_doubled_levels": power, "controls": buggy},
        controls,
        [Slack(f"missed bounds ({name})", expected, float(missed))],
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


@Obligation(
    id="audit.soundness",
    source="auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds)",
    claim=(
        "all 2K confidence bounds of the K events an audit estimates hold together with "
        "probability >= confidence: over 1000 audits with two events each, on a target "
        "where this is nearly attained, the rate of a missed bound is consistent with <= "
        "0.2 at confidence 0.8, and an auditor with the confidence halved or alpha not "
        "split over the events is rejected"
    ),
    method=Method.STATISTICAL,
    predicates=(misses_acceptable,),
    impls=(
        audit,
        audit,
        AuditResult,
        event_level,
        AuditCoverageWarning,
        "dpspec.audit.loop._event_bounds",
        EventBound,
        "dpspec.audit._targets.describe_sampling",
        "dpspec.audit._selection._best_events",
        "dpspec.audit._events.Event",
        "dpspec.audit._targets.Mechanism",
        "dpspec.audit._targets.CallableMechanism",
        "dpspec.audit._targets.as_mechanism",
    ),
    tests=(
        "tests/test_audit.py::test_audit_result_json_and_validation",
        "tests/test_audit.py::test_callable_shapes",
        "tests/test_audit_kinds.py::test_any_callable_is_a_target",
        "tests/test_audit_kinds.py::test_refused_callables_say_what_was_found",
    ),
)
def soundness(config: VerifyConfig) -> CheckOutcome:
    """Mechanism audits with several candidate events (see the module docstring): R = 400
    audits (1200 with ``--thorough``) of :func:`nan_laplace` on (0, 1) at confidence 0.6 with
    1000 selection and 1000 estimation draws per side keep K = 2 events (a threshold or
    interval and {NaN}); the two bounds of the first event of each audit against their exact
    probabilities must miss no more often than their levels allow (:func:`miss_test`, exact
    at 1e-6; its power against doubled levels is stated). Controls: the confidence silently
    halved, α not split over the events."""
    runs = 1200 if config.thorough else 400
    n = 1000

    def one(r: int) -> list[tuple[Sequence[EventBound], int]]:
        result = audit(
            nan_laplace, (0.0, 1.0), 0.5, samples=n, selection=n,
            confidence=POWERED_CONFIDENCE, seed=SEED + r,
        )  # fmt: skip
        return [(result.events, n)]

    return powered_soundness("NaN-Laplace audits", runs, one, lambda r, k: nan_laplace_probability)


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


@Obligation(
    id="audit.learner-soundness",
    source="auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds); seed 000 Alg 2",
    claim=(
        "learner audits' confidence bounds hold together with probability >= confidence: "
        "over 1000 audits of PCL (its exact law, through the shortcut the auditor "
        "samples) the rate of a missed bound is consistent with <= 0.2 at confidence "
        "0.8, and the confidence halved is rejected"
    ),
    method=Method.STATISTICAL,
    predicates=(misses_acceptable,),
    impls=(LearnerMechanism,),
)
def learner_soundness(config: VerifyConfig) -> CheckOutcome:
    """Learner audits: R = 400 audits (1200 with ``--thorough``) of idealised PCL (ε = 1, a
    fixed 4 × 4 grid; the exact sampler's draws cost 8× more) on a lone canary whose label
    flips, sampled as the auditor samples it (the conformance-bound ``repeated_predictions``
    of exactly PCL's class, bound to ``fit`` by ``audit.learner-repeated-fits``), at
    confidence 0.6 with 1000 + 1000 draws per side: the misses of its two bounds against PCL's
    exact law must be consistent with their levels (:func:`miss_test`, power stated). A
    learner release of bits keeps K = 1 event, so the control is the confidence silently
    halved (α not split over events is the mechanism check's control; the bound code
    is the same)."""
    from dpspec.audit.learners import LearnerMechanism
    from dpspec.learners.pcl import PrivateHistogramClassifier

    runs = 1200 if config.thorough else 400
    n = 1000
    D, D2, probe = _lone_canary_pair(SEED)

    def factory(seed: int) -> PrivateHistogramClassifier:
        return PrivateHistogramClassifier(1.0, idealised=True, cells_per_axis=4, random_state=seed)

    mech = LearnerMechanism(factory, probe=probe, name="pcl")
    assert mech.sampling().startswith("vectorised")

    def one(r: int) -> list[tuple[Sequence[EventBound], int]]:
        result = audit(
            mech, (D, D2), 1.0, samples=n, selection=n, confidence=POWERED_CONFIDENCE,
            seed=SEED + r,
        )  # fmt: skip
        return [(result.events, n)]

    bug = next(b for b in LEVEL_BUGS if b.startswith("confidence"))
    law = _lone_canary_probability(1.0)
    return powered_soundness("PCL learner audits", runs, one, lambda r, k: law, [bug])


# --- the new families: within a NaN pattern, directions, and the pair search --------------------


def _one_coordinate_probability(scale: float) -> Callable[[Event, int], float]:
    """Exact laws of :func:`dpspec.audit.zoo_kinds.one_coordinate_released` on q = (s, s)
    (side s): the hidden coordinate is 0 or 1 with probability ½, the other is s + Lap(b)."""

    def sf(z: float) -> float:
        return 0.5 * math.exp(-z / scale) if z >= 0 else 1.0 - 0.5 * math.exp(z / scale)

    def inside(event: Event, q: float) -> float:
        if event.kind in ("ge", "le", "interval") and not event.weights:
            upper = sf(event.hi - q) if event.hi < math.inf else 0.0
            lower = sf(event.lo - q) if event.lo > -math.inf else 1.0
            return lower - upper
        raise ValueError(f"event: no closed form for {event.describe()}")

    def truth(event: Event, side: int) -> float:
        q = float(side)
        shapes = {(1, 0), (0, 1)}  # the NaN coordinate first or second
        if event.kind == "pattern":
            return 0.5 * sum(tuple(v) in shapes for v in event.values)
        if event.kind == "within":
            assert event.inner is not None
            return 0.5 * inside(event.inner, q) if tuple(event.values[0]) in shapes else 0.0
        raise ValueError(f"event: no closed form for {event.describe()}")

    return truth


def _gaussian_2d_probability(sigma: float) -> Callable[[Event, int], float]:
    """Exact laws of events on q + N(0, σ² I₂) with q = (s, s) (side s): orthants as products
    of normal probabilities, a direction w·x as a normal, a learned score Σ (b_j x_j + a_j
    x_j²) by Gauss–Hermite quadrature (200 nodes) over the first coordinate of the exact
    probability of the second's quadratic (its level set is at most two intervals)."""
    from scipy import special

    nodes, weights = np.polynomial.hermite_e.hermegauss(200)
    weights = weights / weights.sum()

    def normal_between(lo: float, hi: float, m: float) -> float:
        return float(special.ndtr((hi - m) / sigma) - special.ndtr((lo - m) / sigma))

    def quadratic_between(a: float, b: float, lo: float, hi: float, m: float) -> float:
        """P(lo ≤ a X² + b X ≤ hi), X ~ N(m, σ²)."""

        def below(t: float) -> float:  # P(a X² + b X ≤ t)
            if t == math.inf:
                return 1.0
            if t == -math.inf:
                return 0.0
            if abs(a) < 1e-300:
                if b == 0:
                    return 1.0 if t >= 0 else 0.0
                cut = t / b
                return (
                    normal_between(-math.inf, cut, m) if b > 0 else normal_between(cut, math.inf, m)
                )
            disc = b * b + 4 * a * t
            if disc < 0:
                return 0.0 if a > 0 else 1.0
            r1, r2 = sorted(((-b - math.sqrt(disc)) / (2 * a), (-b + math.sqrt(disc)) / (2 * a)))
            inner = normal_between(r1, r2, m)
            return inner if a > 0 else 1.0 - inner

        return max(below(hi) - below(lo), 0.0)

    def truth(event: Event, side: int) -> float:
        q = float(side)
        if event.kind == "box":
            ends = np.asarray(event.values, dtype=np.float64).reshape(-1, 2)
            return math.prod(normal_between(lo, hi, q) for lo, hi in ends.tolist())
        if event.kind in ("ge", "le", "interval") and event.weights:
            c, b1, b2, a1, a2 = event.weights
            if a1 == 0 and a2 == 0:  # a direction
                spread = sigma * math.hypot(b1, b2)
                m = c + (b1 + b2) * q
                return float(
                    special.ndtr((event.hi - m) / spread) - special.ndtr((event.lo - m) / spread)
                )
            x1 = q + sigma * nodes
            return float(
                sum(
                    w * quadratic_between(
                        a2, b2, event.lo - c - b1 * x - a1 * x * x,
                        event.hi - c - b1 * x - a1 * x * x, q,
                    )
                    for w, x in zip(weights.tolist(), x1.tolist(), strict=True)
                )
            )  # fmt: skip
        raise ValueError(f"event: no closed form for {event.describe()}")

    return truth


def _parity_nan_laplace(d: Any, n: int, rng: np.random.Generator) -> Any:
    """q + Laplace(2), NaN with probability 0.33 when q is an even integer, 0.2 when odd:
    every neighbour (q, q ± 1) of the query search is a NaN-Laplace pair."""
    q = float(d)
    out = q + rng.laplace(0.0, _SCALE, n)
    out[rng.random(n) < (_NAN[0] if round(q) % 2 == 0 else _NAN[1])] = np.nan
    return out


def _parity_probability(event: Event, q: float) -> float:
    w = _NAN[0] if round(q) % 2 == 0 else _NAN[1]
    if event.kind == "pattern":
        return (w if 1 in event.values else 0.0) + ((1 - w) if 0 in event.values else 0.0)
    if event.kind in ("ge", "le", "interval") and not event.weights:
        upper = _laplace_sf(event.hi - q) if event.hi < math.inf else 0.0
        lower = _laplace_sf(event.lo - q) if event.lo > -math.inf else 1.0
        return (1 - w) * (lower - upper)
    if event.kind == "atoms":
        return w if any(isinstance(v, float) and math.isnan(v) for v in event.values) else 0.0
    raise ValueError(f"event: no closed form for {event.describe()}")


def _direction_event(bounds: Sequence[EventBound]) -> int | None:
    """The direction event of an audit (chosen by its selection draws), if any."""
    for e, b in enumerate(bounds):
        w = b.event.weights
        if w and b.event.kind in ("ge", "le", "interval") and not any(w[1 + (len(w) - 1) // 2 :]):
            return e
    return None


def _within_event(bounds: Sequence[EventBound]) -> int | None:
    """The first event within a NaN pattern (or a pattern set) of an audit, if any."""
    for e, b in enumerate(bounds):
        if b.event.kind in ("within", "pattern"):
            return e
    return None


def _laplace_probability(event: Event, q: float) -> float:
    """P(q + Lap(2) ∈ event) for threshold and interval events."""
    if event.kind in ("ge", "le", "interval") and not event.weights:
        upper = _laplace_sf(event.hi - q) if event.hi < math.inf else 0.0
        lower = _laplace_sf(event.lo - q) if event.lo > -math.inf else 1.0
        return lower - upper
    raise ValueError(f"event: no closed form for {event.describe()}")


@Obligation(
    id="audit.new-events-soundness",
    source=(
        "auditing.md (DP-Sniper, StatDP: Clopper-Pearson event bounds); the union bound "
        "over events and over searched pairs (Bonferroni)"
    ),
    claim=(
        "the bounds of events within a NaN pattern, of direction events and of the "
        "finalists of a pair search miss their exact probabilities no more often than "
        "their levels allow; the confidence halved, alpha not split over the events and "
        "the finalists bounded at the full alpha are rejected"
    ),
    method=Method.STATISTICAL,
    predicates=(misses_acceptable,),
    impls=(
        Search,
        "dpspec.audit.pair_search._search_and_audit",
        "dpspec.audit.pair_search._screen_pairs",
        "dpspec.audit._structured.StructuredOutputs",
        "dpspec.audit._structured.flatten",
        "dpspec.audit._structured.shapes_of",
        "dpspec.audit._structured.numbers_within",
        "dpspec.audit._structured.numbers_in",
        "dpspec.audit.pair_search._private_hypothesis_home",
        "dpspec.audit._selection._within_families",
        "dpspec.audit._selection._direction_candidates",
    ),
    tests=(
        "tests/test_audit_kinds.py::test_search_finds_the_edge_and_states_its_budget",
        "tests/test_audit_kinds.py::test_nan_coordinates_are_audited_within_their_pattern",
        "tests/test_audit_kinds.py::test_keyed_and_variable_length_releases",
        "tests/test_audit_kinds.py::test_a_family_that_cannot_run_is_said",
    ),
)
def new_families_soundness(config: VerifyConfig) -> CheckOutcome:
    """The bounds of the auditor's new events against their exact laws, each as in
    :func:`soundness` (confidence 0.6, :func:`miss_test` at 1e-6, power against doubled levels
    stated), 1000 + 1000 draws per audit:

    * **within a NaN pattern** (300 audits; 900 with ``--thorough``): one of two coordinates
      released by a fair coin, the other NaN (:func:`~dpspec.audit.zoo_kinds.
      one_coordinate_released`, Lap(2)): the event within a pattern, exact by closed forms;
    * **directions** (300; 900): q + N(0, 4 I₂) on ((0, 0), (1, 1)), the direction event
      w·x (a normal law);
    * **the pair search** (150; 450), its α split over the finalists: ``Search(queries=1,
      candidates=4, screen=300, finalists=2)`` on q + Lap(2), the bounds of both finalists'
      events (each finalist at α/2) against the exact Laplace law of its pair.

    Controls, on the same counts through the real bound code: the confidence halved and α not
    split over the events (within, directions); the finalists bounded at the full α (search)."""
    from dpspec.audit import Search
    from dpspec.audit.zoo import laplace_sampler
    from dpspec.audit.zoo_kinds import gaussian_vector, one_coordinate_released

    scale = 3 if config.thorough else 1
    n = 1000
    within_mech = one_coordinate_released(2.0)
    gauss = gaussian_vector(2.0, 2)
    lap = laplace_sampler(2.0)

    def within(r: int) -> list[tuple[Sequence[EventBound], int]]:
        res = audit(
            within_mech, ((0.0, 0.0), (1.0, 1.0)), 0.5, samples=n, selection=n,
            confidence=POWERED_CONFIDENCE, seed=SEED + 10**5 + r,
        )  # fmt: skip
        return [(res.events, n)]

    def direction(r: int) -> list[tuple[Sequence[EventBound], int]]:
        res = audit(
            gauss, ((0.0, 0.0), (1.0, 1.0)), 0.5, samples=n, selection=n,
            confidence=POWERED_CONFIDENCE, seed=SEED + 2 * 10**5 + r,
        )  # fmt: skip
        return [(res.events, n)]

    search = Search(queries=1, candidates=4, screen=300, finalists=2)
    pairs: dict[tuple[int, int], tuple[float, float]] = {}

    def searched(r: int) -> list[tuple[Sequence[EventBound], int]]:
        res = audit(
            lap, None, 0.5, samples=n, selection=n, confidence=POWERED_CONFIDENCE,
            seed=SEED + 3 * 10**5 + r, search=search,
        )  # fmt: skip
        for k, final in enumerate(res.finalists):
            pairs[(r, k)] = (float(final.pair[0]), float(final.pair[1]))
        return [(final.events, n) for final in res.finalists]

    def search_law(r: int, k: int) -> Callable[[Event, int], float]:
        q = pairs[(r, k)]
        return lambda event, side: _laplace_probability(event, q[side])

    within_law = _one_coordinate_probability(2.0)
    gauss_law = _gaussian_2d_probability(2.0)
    unsplit = {"search finalists bounded at the full α (not split over the 2 finalists)": 0}
    # the finalists' counts bounded by the real bound code at the audit's overall confidence:
    # each finalist at the full α, as if it had not been split over the finalists
    with mock.patch.dict(LEVEL_BUGS, {next(iter(unsplit)): audit_loop.event_level}):
        parts = [
            powered_soundness(
                "within NaN patterns", 300 * scale, within, lambda r, k: within_law,
                pick=_within_event,
            ),
            powered_soundness(
                "directions", 300 * scale, direction, lambda r, k: gauss_law,
                pick=_direction_event,
            ),
            powered_soundness(
                "pair search", 150 * scale, searched, search_law, bugs=list(unsplit)
            ),
        ]  # fmt: skip
    return CheckOutcome(
        all(p.passed for p in parts),
        " | ".join(p.detail for p in parts),
        {f"part{i}": p.numbers for i, p in enumerate(parts)},
        [c for p in parts for c in p.controls],
        [sl for p in parts for sl in p.slack],
    )
