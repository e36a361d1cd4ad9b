"""``conform(target, "ALGORITHM", **params)``: is this implementation the algorithm it claims?

For each of the algorithm's instances (:mod:`dpspec.conform.catalogue`) the target is run
through its calling convention (:mod:`dpspec.conform.adapters`) and judged on three counts:

1. **law** — the draws against the exact law (:mod:`dpspec.conform.gof`; false alarm bounded
   exactly, power computed exactly) with a budget sized *before any draw* so that the power
   against the same algorithm at ε × (1 + r) and at ε / (1 + r) is ≥ ``power`` (0.99): the
   **resolution** r is 0.1 by default, or what ``resolution=`` asks for, and every report states
   it in the algorithm's own parameter ("scale off by a factor 1.05 either way") and as the
   total variation of those laws from the claimed one. The power against the instance's other
   alternatives (a shifted support, a truncated tail, a learner's bugs) at that budget is
   stated. When the target states its own law (``pmf``), that law is compared
   with the spec's too (max absolute difference ≤ 1e-12);
2. **privacy** — the auditor's ε lower bound (``dpspec.audit.audit``) on the instance's worst
   neighbouring pair from the spec, against the spec's claim, beside the spec's exact ε of that
   pair;
3. **other guarantees** where the spec has them (a histogram's empty cells, a classifier's
   consistency trend).

Verdict per instance and overall: ``conforms``, ``deviates`` (with the largest per-outcome
discrepancy and where) or ``not private``. The false alarm of the whole run — a verdict other
than "conforms" for a target that *is* the algorithm — is at most ``alpha`` (1e-6): it is split
evenly (union bound) over the instances' law tests and audits.

:func:`plan` fixes a run's budget before any draw is tested (every refusal happens there; a
target called once per draw is first timed on a pilot whose draws are discarded, and the run's
estimated time is printed before it starts); the records
:class:`Plan`, :class:`InstanceReport` and :class:`ConformResult` carry every number.
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass, field
from typing import Annotated, Any

import numpy as np

from dpspec.conform.adapters import (
    MAX_DRAWS_PER_CALL,
    Sampler,
    TargetArg,
    TargetError,
    _example_call,
)
from dpspec.conform.base import EPSILON_FACTOR, Algorithm, Instance
from dpspec.conform.catalogue import AlgorithmArg, _find
from dpspec.conform.gof import (
    ALPHA,
    MAX_SEARCH,
    POWER,
    FitResult,
    Law,
    _draws_for_power,
    _event_family,
    _fit_test,
    _power_bound,
    _rejections,
)
from dpspec.spec.privacy import hockey_stick, max_likelihood_ratio
from dpspec.validation import (
    LIMITS,
    MEMORY_LIMIT,
    Integer,
    MaxSecondsArg,
    Real,
    checked,
    example,
    require_within,
)

#: largest draw budget per instance for a vectorised target (one called once per draw:
#: ``MAX_DRAWS_PER_CALL`` of :mod:`dpspec.conform.adapters`)
MAX_DRAWS_VECTORISED = LIMITS["draws"]
#: default audit draws per side for a vectorised target / a per-call target / a learner
AUDIT_SAMPLES = {"vectorised": 10**6, "per-call": 10**5, "learner": 10**4}
#: an exposed pmf matches the spec's when every probability is within this of the spec's
PMF_TOLERANCE = 1e-12

VERDICTS = ("conforms", "deviates", "not private")

#: The seed of every generator a run passes to the target and the auditor.
SeedArg = Annotated[int, Integer(0, hi=2**63 - 1)]
#: The false-alarm probability of the whole run.
FalseAlarmArg = Annotated[float, Real(1e-12, 0.01)]
#: The power against the same algorithm at ε × (1 + r) and ε / (1 + r) the budget is sized for.
PowerArg = Annotated[float, Real(0.5, 1.0, hi_open=True)]
#: The resolution r: the budget resolves the algorithm at ε × (1 + r) and at ε / (1 + r)
#: (None: the default, 0.1).
ResolutionArg = Annotated[float | None, Real(1e-3, 1.0, optional=True)]
#: the default resolution (the algorithm at ε × 1.1 and ε / 1.1)
RESOLUTION = EPSILON_FACTOR - 1
#: the pilot that times a target called once per draw before a run (its draws discarded):
#: PILOT_DRAWS draws, doubled until one round takes PILOT_SECONDS or PILOT_MAX_DRAWS are drawn
PILOT_DRAWS = 32
PILOT_SECONDS = 0.1
PILOT_MAX_DRAWS = 4096
#: A cap on one instance's draw budget (None: the limit of the target's calling convention).
MaxDrawsArg = Annotated[int | None, Integer(1, limit="draws", optional=True)]
#: The privacy audit's draws per side (None: the default of the target's calling convention).
AuditSamplesArg = Annotated[int | None, Integer(100, hi=10**8, optional=True)]


class ConformanceFailure(AssertionError):
    """A target that does not conform (raised by the ``dpspec_conforms`` pytest fixture); the
    message is the whole report."""


@dataclass
class InstanceReport:
    """What was found on one instance (every number is in :meth:`to_json`). ``seconds`` is the
    wall-clock time it took (not part of the result's value: two runs of one call compare
    equal)."""

    __dpspec_declarative__ = "the numbers and verdict of one instance (a result record)"

    label: str
    data: Any
    neighbour: Any
    draws: int
    power: float
    alternatives: dict[str, float]
    fit: FitResult
    exact: dict[str, Any] | None
    privacy: dict[str, Any] | None
    guarantees: list[dict[str, Any]]
    verdict: str
    resolution: float = RESOLUTION
    deviations: dict[str, float] = field(default_factory=dict)
    _seconds: float = field(default=0.0, repr=False)

    @property
    def seconds(self) -> float:
        return self._seconds

    @property
    def resolution_tv(self) -> float:
        """The smallest total variation from the law among the deviations the budget resolves."""
        return min(self.deviations.values(), default=0.0)

    def resolution_text(self) -> str:
        """What a pass of this instance could see: the deviations its budget was sized for, in
        the algorithm's own parameter and in total variation from the law."""
        laws = "; ".join(f"{k}: TV {v:.3g}" for k, v in self.deviations.items())
        return (
            f"resolves the algorithm off by a factor {1 + self.resolution:.4g} either way "
            f"({laws}) with power >= {self.power:.4f}; smaller deviations may pass"
        )

    def why(self) -> str:
        """One line: why the verdict."""
        f = self.fit
        if self.verdict == "not private":
            assert self.privacy is not None
            return (
                f"ε lower bound {self.privacy['epsilon_lower']:.4g} > claim "
                f"{self.privacy['epsilon_claimed']:.4g} on {self.privacy['pair']}"
            )
        parts = []
        if f.impossible:
            parts.append(
                f"{f.impossible} outputs impossible under the law, e.g. "
                f"{', '.join(f.impossible_examples)}"
            )
        if f.rejected or self.verdict == "conforms":
            parts.append(
                f"largest discrepancy {f.largest_discrepancy:.3g} at output {f.discrepancy_at} "
                f"(observed {f.observed:.4g}, law {f.expected:.4g}, z = {f.z:.1f}); "
                f"p = {f.pvalue:.3g} (α = {f.alpha:.2g}) on '{f.worst_event}'"
            )
        if self.exact is not None and not self.exact["matches"]:
            parts.append(
                f"its pmf differs by {self.exact['max_abs_difference']:.3g} at {self.exact['at']}"
            )
        parts.extend(f"{g['guarantee']}: FAILS" for g in self.guarantees if not g["holds"])
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "data": _jsonable(self.data),
            "neighbour": _jsonable(self.neighbour),
            "draws": self.draws,
            "power_at_resolution": self.power,
            "power_alternatives": self.alternatives,
            "law": self.fit.to_json(),
            "exact_pmf": self.exact,
            "privacy": self.privacy,
            "guarantees": [_jsonable(g) for g in self.guarantees],
            "verdict": self.verdict,
            "resolution": self.resolution,
            "resolution_deviations_tv": self.deviations,
            "resolution_tv": self.resolution_tv,
            "resolution_text": self.resolution_text(),
            "why": self.why(),
            "seconds": self.seconds,
        }


@dataclass
class ConformResult:
    """The verdict of one ``conform`` run, with every instance's report. ``seconds`` is the
    wall-clock time of the run (not part of the result's value)."""

    __dpspec_declarative__ = "the verdict of one conform run (a result record)"

    algorithm: str
    params: dict[str, Any]
    target: str
    form: str
    seeded: bool
    alpha: float
    power_target: float
    instances: list[InstanceReport]
    notes: list[str] = field(default_factory=list)
    resolution: float = RESOLUTION
    _seconds: float = field(default=0.0, repr=False)

    @property
    def seconds(self) -> float:
        return self._seconds

    @property
    def verdict(self) -> str:
        found = {r.verdict for r in self.instances}
        for v in ("not private", "deviates"):
            if v in found:
                return v
        return "conforms"

    @property
    def conforms(self) -> bool:
        return self.verdict == "conforms"

    @property
    def exit_code(self) -> int:
        return 0 if self.conforms else 1

    def to_json(self) -> dict[str, Any]:
        return {
            "algorithm": self.algorithm,
            "params": _jsonable(self.params),
            "target": self.target,
            "form": self.form,
            "seeded": self.seeded,
            "alpha": self.alpha,
            "power_target": self.power_target,
            "resolution": self.resolution,
            "verdict": self.verdict,
            "instances": [r.to_json() for r in self.instances],
            "notes": self.notes,
            "seconds": self.seconds,
        }

    def lines(self) -> list[str]:
        """The report as text lines (what ``dpspec conform`` prints)."""
        out = [
            f"{self.target} as {self.algorithm} {_jsonable(self.params)}",
            f"  calls: {self.form}; seeded: {'yes' if self.seeded else 'NO'}",
        ]
        out += [f"  note: {n}" for n in self.notes]
        for r in self.instances:
            alts = ", ".join(f"{k} {v:.3f}" for k, v in r.alternatives.items())
            priv = "privacy: no claim"
            if r.privacy is not None:
                priv = (
                    f"privacy: ε_LCB {r.privacy['epsilon_lower']:.4g} vs claim "
                    f"{r.privacy['epsilon_claimed']:.4g} (spec's exact ε on the pair "
                    f"{r.privacy['epsilon_pair_exact']:.4g})"
                )
            out.append(
                f"  [{r.verdict.upper()}] {r.label}: {r.draws} draws, power at resolution "
                f"{r.power:.4f} (also: {alts}); {priv}; {r.seconds:.2f}s"
            )
            out.append(f"      {r.why()}")
            out.append(f"      {r.resolution_text()}")
            for g in r.guarantees:
                mark = "holds" if g["holds"] else "FAILS"
                out.append(f"      {g['guarantee']}: {mark} ({_short(g['measured'])})")
        out.append(
            f"verdict: {self.verdict} (false alarm <= {self.alpha:g} for the whole run; each "
            f"instance resolves the algorithm off by a factor {1 + self.resolution:.4g} either "
            f"way with power >= {self.power_target:g})"
        )
        return out


def _short(v: Any) -> str:
    text = str(_jsonable(v))
    return text if len(text) < 160 else text[:157] + "..."


def _jsonable(v: Any) -> Any:
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, (list, tuple)):
        return [_jsonable(u) for u in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(u) for k, u in v.items()}
    if isinstance(v, (np.integer, np.floating, np.bool_)):
        return v.item()
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    if isinstance(v, (int, float, str, bool)) or v is None:
        return v
    return str(v)


def _as_dict(law: Law) -> dict[Any, float]:
    return {label: float(p) for label, p in zip(law.labels, law.probs, strict=True)}


def _compare_pmf(law: Law, stated: Any) -> dict[str, Any]:
    """The target's own law against the spec's on every outcome both list."""
    try:
        items = dict(stated)
    except (TypeError, ValueError):
        return {
            "compared": 0,
            "matches": False,
            "max_abs_difference": math.inf,
            "at": "its pmf is not a mapping outcome -> probability",
        }
    worst, at, compared = 0.0, "", 0
    for label, p in zip(law.labels, law.probs, strict=True):
        if label in items:
            compared += 1
            gap = abs(float(items[label]) - float(p))
            if gap > worst:
                worst, at = gap, repr(label)
    return {
        "compared": compared,
        "max_abs_difference": worst,
        "at": at,
        "matches": compared > 0 and worst <= PMF_TOLERANCE,
    }


def _pair_epsilon(law: Law, other: Law | None, ratio_claim: float) -> tuple[float, float]:
    """(ln of the largest likelihood ratio between the two laws, their hockey-stick δ at the
    claim) — the spec's exact privacy of the pair, on the instance's table."""
    if other is None:
        return math.nan, math.nan
    p, q = _as_dict(law), _as_dict(other)
    ratio = max(float(max_likelihood_ratio(p, q)), float(max_likelihood_ratio(q, p)))
    delta = max(float(hockey_stick(p, q, ratio_claim)), float(hockey_stick(q, p, ratio_claim)))
    return (math.log(ratio) if ratio > 0 else -math.inf), delta


@dataclass
class Plan:
    """What a run will do, fixed before any draw: the algorithm and its resolved parameters,
    the target's calling convention, the instances with their exact laws, the draw budget of
    each and its computed power against the algorithm at ε × (1 + r) and ε / (1 + r) (r the
    resolution; ``deviations``: per instance, those laws' total variation from the claimed
    one, keyed by the algorithm's own parameter), the false alarm given to each test, the claim
    the audits test and their draws per side."""

    __dpspec_declarative__ = "the budget of a conform run, fixed before any draw (a record)"

    algo: Algorithm
    params: dict[str, Any]
    sampler: Sampler
    instances: list[Instance]
    draws: list[int]
    powers: list[float]
    alpha_each: float
    claim: tuple[float, float] | None
    audit_samples: int
    resolution: float = RESOLUTION
    deviations: list[dict[str, float]] = field(default_factory=list)
    estimate: dict[str, Any] | None = field(default=None, compare=False)

    def estimate_text(self) -> str:
        """The estimated time of the run, as ``conform`` prints it before the first draw."""
        e = self.estimate
        if e is None:
            return ""
        kind = "a vectorised target" if self.sampler.vectorised else "a target called once per draw"
        return (
            f"about {e['seconds']:.3g} s for {e['draws']} draws of {kind} "
            f"({e['seconds_per_draw'] * 1e6:.3g} µs each, timed on a pilot of "
            f"{e['pilot_draws']} draws)"
        )


def _estimate(
    sampler: Sampler, instances: list[Instance], draws: list[int], samples: int, audited: bool
) -> dict[str, Any] | None:
    """The wall-clock time of a run of a target called once per draw: the seconds per draw of
    a pilot on the first instance (after 4 untimed draws, which build what a target builds on
    its first call): :data:`PILOT_DRAWS` draws, doubled until one round takes
    :data:`PILOT_SECONDS` or reaches :data:`PILOT_MAX_DRAWS` (so that a target that batches
    its calls is timed in batches; all discarded, drawn with a generator of their own), times
    the run's draws — the law tests' budgets and, per audited instance, the audit's
    2·(samples + selection) draws and its freshness probe's 4·64
    (:func:`dpspec.audit.loop.default_selection`). None when the pilot raises (the run
    reports the target's error)."""
    from dpspec.audit.loop import default_selection

    per_audit = 2 * (samples + default_selection(samples)) + 4 * 64
    total = sum(draws) + (
        per_audit * sum(inst.neighbour is not None for inst in instances) if audited else 0
    )
    rng = np.random.default_rng([PILOT_DRAWS])
    n, took = PILOT_DRAWS // 2, 0.0
    try:
        sampler.draw(instances[0].data, 4, rng)  # warm-up: a target's first call builds
        while took < PILOT_SECONDS and n < PILOT_MAX_DRAWS:  # at most 8 rounds
            n *= 2
            begin = time.perf_counter()
            sampler.draw(instances[0].data, n, rng)
            took = time.perf_counter() - begin
    except Exception:
        return None
    each = took / n
    return {
        "pilot_draws": n,
        "seconds_per_draw": each,
        "draws": total,
        "seconds": each * total,
    }


def _total_variation(law: Law, other: Law) -> float:
    return 0.5 * float(np.abs(law.probs - other.probs).sum())


@example(__call__={"target": _example_call, "algorithm": "bernoulli-exp"})
@checked
def plan(
    target: TargetArg,
    algorithm: AlgorithmArg,
    *,
    alpha: FalseAlarmArg = ALPHA,
    power: PowerArg = POWER,
    max_draws: MaxDrawsArg = None,
    audit_samples: AuditSamplesArg = None,
    resolution: ResolutionArg = None,
    max_seconds: MaxSecondsArg = None,
    **params: Any,
) -> Plan:
    """Check every argument and size every instance's budget, before any draw: the draws
    each instance needs for power ≥ ``power`` against the same algorithm at ε × (1 + r) and
    at ε / (1 + r), r = ``resolution`` (default 0.1), and against the instance's harder forms
    of that bug, at its share of ``alpha``. A ValueError naming the argument refuses a budget
    above the limit (``max_draws``, by default 2^27 draws for a vectorised target and 2·10^6
    for one called once per draw), with the draws it would need, and audit draws that could
    not refute the claim at that confidence (``audit_samples``). A target called once per
    draw is timed on a pilot (:func:`_estimate`, its draws discarded) and the run's time
    estimated (``Plan.estimate``), a vectorised one too when ``max_seconds`` is given;
    ``max_seconds`` refuses a run estimated to take longer (a learner's run is not estimated:
    refused, name the draws with ``max_draws``)."""
    algo = _find(algorithm)
    resolved = algo._resolve(params)
    sampler = algo._sampler(target, resolved)
    kind = "learner" if algo.learner else "vectorised" if sampler.vectorised else "per-call"
    cap = MAX_DRAWS_VECTORISED if sampler.vectorised else MAX_DRAWS_PER_CALL
    limit = cap if max_draws is None else min(max_draws, cap)
    samples = AUDIT_SAMPLES[kind] if audit_samples is None else audit_samples
    if not sampler.vectorised and samples > MAX_DRAWS_PER_CALL:
        raise ValueError(
            f"audit_samples: {samples} draws per side of a target called once per draw; the "
            f"limit is {MAX_DRAWS_PER_CALL}"
        )
    r = RESOLUTION if resolution is None else float(resolution)
    factors = (1 + r, 1 / (1 + r))
    instances = algo._instances(resolved, factors[0])
    lower = algo._variants(resolved, factors[1])
    if sampler.inputs is not None:  # the target takes a narrower range of inputs
        lo, hi = sampler.inputs
        kept = [
            i for i, inst in enumerate(instances)
            if not isinstance(inst.data, int) or lo <= inst.data <= hi
        ]  # fmt: skip
        if not kept:
            raise ValueError(f"target: takes only inputs in [{lo}, {hi}]: no instance is in it")
        instances, lower = [instances[i] for i in kept], [lower[i] for i in kept]
    claim = algo._claim(resolved)
    tests = len(instances) * (2 if claim is not None else 1)
    alpha_each = alpha / tests
    draws, powers, deviations = [], [], []
    for inst, below in zip(instances, lower, strict=True):
        laws = (inst.variant, *inst.sized, *below)
        if any(a.labels != inst.law.labels for a in (*laws, *inst.alternatives)):
            raise RuntimeError(f"{algo.name}: alternatives of '{inst.label}' are on another table")
        n = 0
        for alt in laws:  # the budget reaches the power against each
            n_alt, _ = _draws_for_power(inst.law, alt.probs, alpha_each, power, limit)
            n = max(n, n_alt)
        events = _event_family(inst.law)
        pw = min(
            _power_bound(inst.law, events, v.probs, min(n, limit), alpha_each)
            for v in (inst.variant, below[0])
        )
        if n > limit:
            estimate = max(
                _draws_for_power(inst.law, alt.probs, alpha_each, power, MAX_SEARCH)[0]
                for alt in laws
            )
            needed = f"more than {MAX_SEARCH:.0e}" if estimate > MAX_SEARCH else f"{estimate}"
            raise ValueError(
                f"max_draws: instance '{inst.label}' needs {needed} draws for power {power} "
                f"at resolution {r:g} (power {pw:.3f} at {limit}); the limit is {limit} "
                f"(max_draws, at most {cap} for {kind} targets), or ask for a coarser resolution"
            )
        width = 1 if inst.law.coords is None else int(inst.law.coords.shape[1])
        require_within(8 * n * width, MEMORY_LIMIT, "max_draws", "bytes")  # the outputs held
        draws.append(n)
        powers.append(pw)
        deviations.append(
            {
                algo._deviation_text(f): _total_variation(inst.law, v)
                for f, v in zip(factors, (inst.variant, below[0]), strict=True)
            }
        )
    if claim is not None:
        from dpspec.audit.core import max_epsilon_lower

        top = max_epsilon_lower(samples=samples, confidence=1 - alpha_each, delta=claim[1])
        if top <= claim[0]:
            raise ValueError(
                f"audit_samples: {samples} draws per side cannot refute ε = {claim[0]:g} at "
                f"confidence 1 − {alpha_each:.2g} (largest bound {top:.3g}); use more"
            )
    if max_seconds is not None and algo.learner:
        raise ValueError(
            "max_seconds: a learner's run is not estimated (a pilot would be a fit per draw); "
            "bound it with max_draws"
        )
    timing = None
    if not algo.learner and (max_seconds is not None or not sampler.vectorised):
        timing = _estimate(sampler, instances, draws, samples, claim is not None)
    out = Plan(
        algo,
        resolved,
        sampler,
        instances,
        draws,
        powers,
        alpha_each,
        claim,
        samples,
        r,
        deviations,
        timing,
    )
    if max_seconds is not None and timing is not None and timing["seconds"] > max_seconds:
        raise ValueError(
            f"max_seconds: the run would take {out.estimate_text()}; the limit is "
            f"{max_seconds:g} s (fewer audit_samples or a coarser resolution need fewer draws)"
        )
    return out


@example(__call__={"target": _example_call, "algorithm": "bernoulli-exp"})
@checked
def conform(
    target: TargetArg,
    algorithm: AlgorithmArg,
    *,
    seed: SeedArg = 0,
    alpha: FalseAlarmArg = ALPHA,
    power: PowerArg = POWER,
    max_draws: MaxDrawsArg = None,
    audit_samples: AuditSamplesArg = None,
    resolution: ResolutionArg = None,
    max_seconds: MaxSecondsArg = None,
    **params: Any,
) -> ConformResult:
    """Judge ``target`` against the algorithm named ``algorithm`` with its ``params`` (module
    docstring): ``conform(my_sampler, "discrete-laplace", scale=2)``.

    ``seed`` drives every generator passed to the target and the auditor; ``alpha`` is the
    false alarm of the whole run; ``power`` the power each instance's budget is sized for
    against the algorithm at ε × (1 + r) and ε / (1 + r), r = ``resolution`` (default 0.1:
    ``resolution=0.02`` resolves a scale off by 2% either way, at a larger budget);
    ``max_draws`` caps the draw budget of one instance (default 2^27 for vectorised targets,
    2·10^6 for targets called once per draw; a budget above it is refused before any draw,
    with the draws it would need); ``audit_samples`` is the auditor's draws per side (default
    10^6 / 10^5 / 10^4 for vectorised / per-call / learner targets). A target called once
    per draw is timed first (a pilot, :func:`plan`): the estimated time of the run is written
    to stderr before the first draw and kept in the result's notes; ``max_seconds`` refuses a
    run estimated to take longer, before any draw is tested.
    """
    start = time.perf_counter()
    p = plan(
        target,
        algorithm,
        alpha=alpha,
        power=power,
        max_draws=max_draws,
        audit_samples=audit_samples,
        resolution=resolution,
        max_seconds=max_seconds,
        **params,
    )
    if p.estimate is not None:
        print(f"dpspec conform: {p.estimate_text()}", file=sys.stderr, flush=True)
    notes = []
    if not p.sampler.seeded:
        notes.append(
            "the target draws from its own generator: its draws do not reproduce run "
            "to run (the false-alarm bound does not need them to)"
        )
    if p.sampler.inputs is not None:
        left_out = len(p.algo._instances(p.params)) - len(p.instances)
        notes.append(
            f"the target takes inputs in [{p.sampler.inputs[0]}, {p.sampler.inputs[1]}] only: "
            f"{left_out} instance(s) of the algorithm outside it left out"
        )
    if p.algo.caveat:
        notes.append(f"caveat: {p.algo.caveat}")
    if p.estimate is not None:
        notes.append(f"estimated before the run: {p.estimate_text()}")
    reports = [_run_instance(p, i, seed) for i in range(len(p.instances))]
    return ConformResult(
        p.algo.name,
        p.params,
        p.sampler.description,
        p.sampler.form,
        p.sampler.seeded,
        alpha,
        power,
        reports,
        notes,
        p.resolution,
        _seconds=time.perf_counter() - start,
    )


def _run_instance(p: Plan, i: int, seed: int) -> InstanceReport:
    begin = time.perf_counter()
    inst, n, pw = p.instances[i], p.draws[i], p.powers[i]
    rng = np.random.default_rng([seed, i])
    outputs = p.sampler.draw(inst.data, n, rng)
    events = _event_family(inst.law)
    fit = _fit_test(inst.law, outputs, p.alpha_each, events)
    alternatives = {
        alt.note or f"alternative {j}": _power_bound(inst.law, events, alt.probs, n, p.alpha_each)
        for j, alt in enumerate((*inst.sized, *inst.alternatives))
    }
    exact = None if p.sampler.pmf is None else _compare_pmf(inst.law, _stated_pmf(p, inst))
    privacy = None
    if p.claim is not None and inst.neighbour is not None:
        privacy = _privacy(p, inst, seed, i)
    guarantees = p.algo._guarantees(
        p.params,
        inst,
        outputs,
        sampler=p.sampler if i == 0 else None,
        rng=np.random.default_rng([seed, 10**6]),
    )
    if privacy is not None and privacy["violation"]:
        verdict = "not private"
    elif (
        fit.rejected
        or (exact is not None and not exact["matches"])
        or not all(g["holds"] for g in guarantees)
    ):
        verdict = "deviates"
    else:
        verdict = "conforms"
    return InstanceReport(
        inst.label,
        inst.data,
        inst.neighbour,
        n,
        pw,
        alternatives,
        fit,
        exact,
        privacy,
        guarantees,
        verdict,
        resolution=p.resolution,
        deviations=p.deviations[i],
        _seconds=time.perf_counter() - begin,
    )


def _stated_pmf(p: Plan, inst: Instance) -> Any:
    """The target's own law on the instance (an exception of the target is a TargetError)."""
    assert p.sampler.pmf is not None
    try:
        return p.sampler.pmf(inst.data)
    except Exception as exc:
        raise TargetError(
            f"target: {p.sampler.description}'s pmf raised {type(exc).__name__}: {exc}"
        ) from exc


def _privacy(p: Plan, inst: Instance, seed: int, i: int) -> dict[str, Any]:
    from dpspec.audit import audit

    assert p.claim is not None
    eps, delta = p.claim
    exact_eps, exact_delta = _pair_epsilon(inst.law, inst.neighbour_law, math.exp(eps))
    result = audit(
        mechanism=p.sampler.draw,
        pair=(inst.data, inst.neighbour),
        epsilon=eps,
        delta=delta,
        samples=p.audit_samples,
        confidence=1 - p.alpha_each,
        seed=int(np.random.SeedSequence([seed, i, 7]).generate_state(1)[0]),
    )
    return {
        "epsilon_claimed": eps,
        "delta_claimed": delta,
        "epsilon_lower": float(result.epsilon_lower),
        "confidence": 1 - p.alpha_each,
        "violation": bool(result.violation),
        "event": result.event,
        "samples_per_side": int(result.samples_per_side),
        "epsilon_pair_exact": exact_eps,
        "delta_pair_exact_at_claim": exact_delta,
        "pair": f"{_short(inst.data)} vs {_short(inst.neighbour)}",
    }


def _empirical_power(
    alternative: Sampler, law: Law, data: Any, draws: int, alpha: float, reps: int, seed: int
) -> int:
    """How often the law test, run ``reps`` times on ``draws`` fresh outputs of
    ``alternative``, rejects ``law``: the empirical check of the computed power."""
    rngs = (np.random.default_rng([seed, 99, r]) for r in range(reps))
    batches = (alternative.draw(data, draws, rng) for rng in rngs)  # drawn one at a time
    return int(_rejections(law, batches, alpha).sum())
