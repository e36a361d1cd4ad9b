"""The audit loop: arguments, selection draws, estimation blocks, bounds and the verdict.

Method (the strongest black-box auditors: DP-Sniper, StatDP):

1. **Selection.** Run the mechanism ``selection`` times on each of D, D' and choose events and
   directions among the candidate families (:mod:`dpspec.audit._selection`).
2. **Estimation.** On ``samples`` *fresh* draws per side (in blocks of ``BLOCK``, only counts
   kept) count k₁ = #{M(D) ∈ E}, k₂ = #{M(D') ∈ E} for each of the K chosen events.
3. **Bound.** Each event's Clopper–Pearson bounds p₁⁻, p₂⁺ at level α/(2K) per side
   (:func:`event_level`; α = 1 − ``confidence``): all 2K bounds hold with probability ≥ 1 − α
   (union bound). ε_LCB = ln((p₁⁻ − δ)/p₂⁺), the largest over the events. Because the events
   were fixed before the estimation draws, P(ε_LCB > ε_true) ≤ α for a mechanism that is
   (ε_true, δ)-DP on the pair (:mod:`dpspec.audit.bounds`). A violation is ε_LCB > ε.

There is **no floor on p₂**: when D' never produces E, p₂⁺ = 1 − (α/2K)^{1/N} ≈ ln(2K/α)/N,
so ε_LCB grows like ln N for a support-shift bug. The argument assumes the mechanism's runs
are independent given the dataset (true for the ``sample`` protocol with one Generator).
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import numpy as np

from dpspec.audit._budget import BLOCK as BLOCK
from dpspec.audit._budget import (
    audit_plan,
    check_budget,
    check_pairs_budget,
    planned_hook,
)
from dpspec.audit._checkpoint import AuditIdentity, Progress, _checkpoint_path
from dpspec.audit._domains import (
    MAX_SAMPLES,
    ClaimArg,
    ConfidenceArg,
    ErrorLevelArg,
    MechanismArg,
    OptionalPairArg,
    PairsArg,
    SamplesArg,
    SeedArg,
    _Datasets,
)
from dpspec.audit._domains import MAX_SELECTION as MAX_SELECTION
from dpspec.audit._events import Event
from dpspec.audit._freshness import probe
from dpspec.audit._pair_text import describe_pair
from dpspec.audit._selection import _best_events, _screen_bound
from dpspec.audit._targets import Mechanism, _draw, _space, as_mechanism, describe_sampling
from dpspec.audit.bounds import _cp_lower, _cp_upper, _epsilon_lower, _max_epsilon_lower
from dpspec.audit.pair_search import OptionalSearchArg, Search, _search_and_audit
from dpspec.audit.power import (
    DELTA_MARGIN,
    POWER,
    RESOLVED_FLOOR,
    RESOLVED_MARGIN,
    _delta_resolution,
    _resolution,
)
from dpspec.audit.replay import MAX_RUNS, TOLERANCE, ReplayResult, _replay_pair
from dpspec.spec.audit import bracket_verdict, claim_resolved, delta_resolved
from dpspec.validation import (
    Choice,
    DeltaArg,
    FlagArg,
    Function,
    GeneratorArg,
    Instance,
    Integer,
    MaxSecondsArg,
    RandomState,
    Real,
    check_count,
    checked,
    example,
)

# BLOCK (draws per estimation block: one child SeedSequence per block, whatever ``jobs`` is)
# and MAX_SELECTION (the largest ``selection``: its draws are held in memory) are imported
# above from dpspec.audit._budget and dpspec.audit._domains, which the pair search reads too.

#: largest ``jobs``
MAX_JOBS = 1024


class AuditCoverageWarning(UserWarning):
    """An event family could not run on these outputs (the result's ``warnings`` say which);
    the audit's bound is sound, its power on what was not covered is not stated."""


#: the execution backends of ``jobs`` > 1
BACKENDS = ("auto", "threading", "loky", "dask")


@dataclass(frozen=True)
class EventBound:
    """One estimated event and its bounds: ``event`` with M(``first``) in the role of p₁
    (``first`` is 0 for D, 1 for D'); hits k₁, k₂ of the n estimation draws per side; the
    one-sided Clopper–Pearson bounds at ``level`` each (p₁⁻ and p₂⁺ are the ones the bound
    uses; the other ends are reported); ε_LCB = ln((p₁⁻ − δ)/p₂⁺)."""

    __dpspec_declarative__ = "one estimated event and its bounds (a record the audit returns)"

    event: Event
    first: int
    hits: tuple[int, int]
    p1_interval: tuple[float, float]
    p2_interval: tuple[float, float]
    level: float
    epsilon_lower: float

    @property
    def direction(self) -> str:
        return "D' -> D" if self.first else "D -> D'"

    def to_json(self) -> dict[str, Any]:
        lcb = self.epsilon_lower
        return {
            "event": self.event.describe(),
            "direction": self.direction,
            "epsilon_lower": lcb if math.isfinite(lcb) else ("inf" if lcb > 0 else "-inf"),
            "hits": list(self.hits),
            "p1_interval": list(self.p1_interval),
            "p2_interval": list(self.p2_interval),
            "level": self.level,
        }


@dataclass
class AuditResult:
    """One audit's verdict. ``epsilon_lower`` holds with probability ≥ ``confidence``;
    ``violation`` = ``epsilon_lower`` > ``epsilon_claimed``. ``pair`` is (D, D') as given and
    ``direction`` says which one played the role of M(D) in p₁; ``sampling`` says how the
    draws were made (for a learner: its real ``fit`` or a conformance-bound shortcut);
    ``events`` lists every estimated event with its bounds (the reported one among them);
    ``pair_source`` is "given" or "search" (then ``extra["search"]`` states the budget, the α
    split and the chosen pair, and ``finalists`` holds the audits of the finalist pairs);
    ``warnings`` names every event family that could not run on these outputs.
    ``resolution`` is the smallest true ε the budget flags with probability ≥ 0.9 on the
    reported event (:func:`dpspec.audit.power.resolution`); ``delta_resolution`` the least
    mass of a region the other side cannot produce that it flags with probability ≥ 0.9
    (:func:`dpspec.audit.power.delta_resolution`); ``power`` says both in words.
    ``verdict`` from the lower side alone is "violation", "consistent" (the claim resolved:
    :func:`dpspec.spec.audit.claim_resolved` for ε, and for an (ε, δ) claim
    :func:`dpspec.spec.audit.delta_resolved`: a δ twice the claim flagged) or "inconclusive";
    or, with ``replay`` (the :class:`~dpspec.audit.replay.ReplayResult` of ``audit(...,
    replay=True)``), the bracket's verdict :func:`dpspec.spec.audit.bracket_verdict` over
    [``epsilon_lower``, ``epsilon_upper``]: "violation", "consistent" or "inconclusive"."""

    __dpspec_declarative__ = "one audit's verdict (a record the audit returns)"

    epsilon_claimed: float
    delta: float
    epsilon_lower: float
    epsilon_estimate: float
    confidence: float
    violation: bool
    event: str
    pair: tuple[Any, Any]
    p1: float
    p1_interval: tuple[float, float]
    p2: float
    p2_interval: tuple[float, float]
    samples_per_side: int
    direction: str = "D -> D'"
    selection_samples: int = 0
    sampling: str = ""
    events: list[EventBound] = field(default_factory=list)
    pair_source: str = "given"
    finalists: list[AuditResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    verdict: str = ""
    resolution: float = math.inf
    power: str = ""
    epsilon_upper: float | None = None
    delta_resolution: float = math.inf
    replay: ReplayResult | None = None
    _seconds: float = field(default=0.0, repr=False)

    @property
    def seconds(self) -> float:
        """The wall-clock time the audit took (not part of the result's value: two runs of
        one call compare equal)."""
        return self._seconds

    @property
    def pair_text(self) -> str:
        """(D, D') in one line: :func:`dpspec.audit._pair_text.describe_pair`."""
        return describe_pair(self.pair)

    def to_json(self) -> dict[str, Any]:
        out = {
            k: getattr(self, k)
            for k in self.__dataclass_fields__
            if k not in ("finalists", "_seconds")
        }
        out["seconds"] = self.seconds
        out["events"] = [e.to_json() for e in self.events]
        out["extra"] = dict(self.extra)
        out["pair"] = [repr(self.pair[0]), repr(self.pair[1])]
        out["replay"] = None if self.replay is None else self.replay.to_json()
        for key in (
            "epsilon_lower",
            "epsilon_estimate",
            "epsilon_upper",
            "resolution",
            "delta_resolution",
        ):
            if out[key] is not None and math.isinf(out[key]):
                out[key] = "inf" if out[key] > 0 else "-inf"
        return out


# --- estimation --------------------------------------------------------------------------------


def _blocks(n: int) -> list[int]:
    """Sizes of the estimation blocks of one side: BLOCK each, the last one shorter."""
    return [min(BLOCK, n - start) for start in range(0, n, BLOCK)]


def _count_block(
    mech: Mechanism,
    data: Any,
    events: list[Event],
    m: int,
    root: int,
    side: int,
    index: int,
    space: tuple[str, tuple[int, ...]] | None,
) -> list[int]:
    """Hits of each event in block ``index`` of ``side``: m draws from the generator seeded
    by the child SeedSequence(root, spawn_key=(side, index)) — the same block on any worker;
    every event is counted on the same draws."""
    rng = np.random.default_rng(np.random.SeedSequence(root, spawn_key=(side, index)))
    out = _draw(mech, data, m, rng, space)
    return [int(np.count_nonzero(event.contains(out))) for event in events]


def _estimate(
    mech: Mechanism,
    pair: tuple[Any, Any],
    state: Progress,
    n: int,
    jobs: int,
    backend: str,
    checkpoint: Path | None,
    tick: Callable[[int], None] | None,
    space: tuple[str, tuple[int, ...]] | None,
) -> None:
    """Counts of n draws per side (side 0: D, side 1: D') landing in each event, block by
    block (memory O(BLOCK)). Block i of a side always draws from the same child SeedSequence
    of ``state.root``, so the counts are the same for any ``jobs`` and for a resumed run. With
    ``jobs`` > 1 the blocks run on that many workers (``backend`` "threading": the standard
    library's threads; "loky" processes or "dask" for a running dask.distributed cluster: joblib)
    and come back in order; only counts travel back. The state is checkpointed after every block."""
    sizes = _blocks(n)
    todo = [
        (side, i, m)
        for side in (0, 1)
        for i, m in enumerate(sizes)
        if i * BLOCK >= state.done[side]
    ]

    def record(side: int, m: int, hits: list[int]) -> None:
        for e, h in enumerate(hits):
            state.hits[e][side] += h
        state.done[side] += m
        state.save(checkpoint)
        if tick is not None:
            tick(m)

    if getattr(mech, "sequential", False):  # an f(data) target draws from global generators
        jobs = 1
    if jobs == 1 or len(todo) <= 1:
        for side, i, m in todo:
            record(
                side, m, _count_block(mech, pair[side], state.events, m, state.root, side, i, space)
            )
        return
    if backend == "threading":  # the standard library's threads: no extra needed
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = [
                pool.submit(
                    _count_block, mech, pair[side], state.events, m, state.root, side, i, space
                )
                for side, i, m in todo
            ]
            for (side, _, m), future in zip(todo, futures, strict=True):
                record(side, m, future.result())
        return
    from joblib import Parallel, delayed, parallel_config  # checked by _check_backend

    work = [
        delayed(_count_block)(mech, pair[side], state.events, m, state.root, side, i, space)
        for side, i, m in todo
    ]
    with parallel_config(backend=backend, n_jobs=jobs):
        results = Parallel(return_as="generator")(work)
        for (side, _, m), hits in zip(todo, results, strict=True):
            record(side, m, [int(h) for h in hits])


# --- arguments ---------------------------------------------------------------------------------


def _check_samples(samples: Any, name: str = "samples") -> int:
    """Estimation draws per side: an integer in [1, MAX_SAMPLES]."""
    return check_count(samples, name, maximum=MAX_SAMPLES)


#: the largest N ``samples="auto"`` chooses (a claim needing more is refused with the N)
MAX_AUTO_SAMPLES = 10**8


def _auto_samples(epsilon: float, delta: float, confidence: float) -> tuple[int, str]:
    """(N, why) for ``samples="auto"``: enough draws that the claim can be refuted by a
    margin and, for δ > 0, that δ is resolved and the tails where an (ε, δ) claim is refuted
    are counted. The δ resolution of N draws is ≈ 10/N (an excess δ on an event shows only
    when N·δ is several times the Clopper–Pearson half-width, and p₂⁺ ≥ ≈ 3.7/N even at a
    count of 0); reaching ≈ 0.95 of a Gaussian's ε(δ) takes N ≈ 3000/δ (δ = 10⁻³ at 3·10⁶:
    0.95–0.98 in 1 to 16 dimensions, ``audit.vector-power``). So N = 3000/δ, at least 10⁶ and
    at most ``MAX_AUTO_SAMPLES`` (10⁸: at δ = 10⁻⁵ the bound then reaches ≈ 0.9 of ε(δ)); for
    δ = 0, 10⁶ — or more when the claim is so large that fewer draws could not refute ε × 1.2
    (every draw in the event on one side, none on the other). A δ N cannot resolve on one event
    (``DELTA_MARGIN`` × the claim: below ≈ 3·10⁻⁷ at confidence 0.95) is refused up front."""
    need = 1000
    while _max_epsilon_lower(need, confidence, delta) <= 1.2 * epsilon and need < MAX_SAMPLES:
        need *= 2
    if delta > 0:
        wanted = math.ceil(3000 / delta)
        n = min(max(wanted, need, 10**6), MAX_AUTO_SAMPLES)
        why = f"3000/delta = {wanted:.3g}" + (
            f", capped at {MAX_AUTO_SAMPLES:.0e}" if n < wanted else ""
        )
    else:
        n, why = max(10**6, need), "10^6 for a pure claim"
    if need > MAX_AUTO_SAMPLES:
        raise ValueError(
            f"samples: the claim epsilon={epsilon:g} needs more than {MAX_AUTO_SAMPLES:g} draws "
            "per side to be refuted; give samples= explicitly"
        )
    leak = _delta_resolution(n, (1.0 - confidence) / 2, epsilon, delta) if delta else 0.0
    if leak > DELTA_MARGIN * delta:
        raise ValueError(
            f"samples: 'auto' at delta={delta:g} needs 3000/delta = {wanted:.3g} draws per side; "
            f"at its cap {MAX_AUTO_SAMPLES:.0e} a delta of {DELTA_MARGIN:g}x the claim is not "
            f"resolved ({leak:.3g} on one event): the verdict could not be 'consistent'; give "
            "samples= (and max_seconds= for a long audit) or claim a larger delta"
        )
    return n, f"samples=auto: N = {n} draws per side ({why}; delta resolution ~ 10/N)"


def _check_backend(jobs: int, backend: Any) -> str:
    """The backend that will run: "auto" is loky processes when joblib is installed, else the
    standard library's threads (the counts do not depend on the backend, only the speed)."""
    if jobs == 1 or backend == "threading":
        return "threading"
    try:
        import joblib  # noqa: F401
    except ImportError as exc:
        if backend == "auto":
            return "threading"
        raise ValueError(
            f"backend: {backend!r} needs joblib (pip install 'dpspec[scale]'); "
            "backend='threading' needs nothing"
        ) from exc
    return "loky" if backend == "auto" else str(backend)


def _check_refutable(n: int, eps: float, delta: float, confidence: float) -> None:
    """Refuse an audit that cannot flag the claim whatever the mechanism does: its verdict
    would be "consistent" without a test behind it."""
    top = _max_epsilon_lower(n, confidence, delta)
    if top > eps:
        return
    need = n
    while _max_epsilon_lower(need, confidence, delta) <= eps and need <= MAX_SAMPLES:
        need *= 2
    hint = (
        f"use at least {need} draws per side"
        if need <= MAX_SAMPLES
        else f"no audit of at most {MAX_SAMPLES} draws per side can refute it"
    )
    raise ValueError(
        f"samples: {n} draws per side can never give an eps lower bound above {top:.4g} "
        f"(confidence {confidence}, delta {delta}), so the claim epsilon={eps:g} could not be "
        f"refuted; {hint}"
    )


@checked
@example(__call__={"samples": 1000})
def default_selection(samples: Annotated[int, Integer(1, hi=MAX_SAMPLES)]) -> int:
    """Selection draws per side when not given: samples/5, at least min(samples, 1000) (so a
    small audit still has a usable selection), at most MAX_SELECTION. The whole audit makes
    2·(samples + selection) mechanism draws, and the freshness probe's 4·64
    (:mod:`dpspec.audit._freshness`): 656 for samples = 100."""
    return min(max(samples // 5, min(samples, 1000)), MAX_SELECTION)


@checked
@example(__call__={"alpha": 0.05, "events": 2})
def event_level(alpha: ErrorLevelArg, events: Annotated[int, Integer(1, clean=2)]) -> float:
    """The level of each one-sided bound of an audit estimating ``events`` events at overall
    level ``alpha``: α/(2K) — two bounds per event, a union bound over all 2K."""
    return alpha / (2 * events)


@checked
@example(__call__={"pair": (0.0, 1.0), "epsilon": 1.0, "samples": 2000, "selection": 1000})
def audit(
    mechanism: MechanismArg,
    pair: OptionalPairArg = None,
    epsilon: ClaimArg = None,
    delta: DeltaArg = 0.0,
    *,
    samples: SamplesArg = 10**6,
    selection: Annotated[int | None, Integer(1, hi=MAX_SELECTION, optional=True)] = None,
    confidence: ConfidenceArg = 0.95,
    seed: Annotated[int | np.random.Generator, RandomState(optional=False)] = 0,
    event: Annotated[Event | None, Instance(types=(Event,), optional=True)] = None,
    float_bits: FlagArg = False,
    search: OptionalSearchArg = None,
    jobs: Annotated[int, Integer(1, hi=MAX_JOBS, clean=1)] = 1,
    backend: Annotated[str, Choice(BACKENDS)] = "auto",
    progress: Annotated[Callable[[int], None] | None, Function(optional=True)] = None,
    checkpoint: Annotated[str | Path | None, Instance(types=(str, Path), optional=True)] = None,
    replay: FlagArg = False,
    replay_runs: Annotated[int, Integer(1, hi=MAX_RUNS, clean=32)] = 32,
    max_seconds: MaxSecondsArg = None,
) -> AuditResult:
    """Audit ``mechanism`` on the neighbouring ``pair`` (D, D') against an (ε, δ) claim.

    The options are keyword-only, in three groups:

    * **the sample plan** — ``samples``: estimation draws per side (at most ``MAX_SAMPLES``,
      and enough that some outcome could refute the claim: :func:`max_epsilon_lower`), or
      "auto": sized from the claim by :func:`_auto_samples` (3000/δ for δ > 0) and said so in
      ``extra["samples_auto"]``;
      ``selection``: selection draws per side (default :func:`default_selection`; at most
      ``MAX_SELECTION``, held in memory); ``confidence``: 1 − α, the false-alarm bound is α;
      ``seed``: a non-negative integer or a numpy Generator;
    * **the pair** — ``pair`` = (D, D'), or None with ``search`` = a
      :class:`~dpspec.audit.pair_search.Search` saying where pairs live: the auditor screens
      candidate pairs and audits the best ones (budget and α split in ``extra["search"]``);
    * **the events** — ``event``: skip selection and test this :class:`Event` in both orders
      (D → D' and D' → D, α/4 each); ``float_bits=True`` adds events on the float64 bits
      of scalar outputs (sign, exponent, lowest mantissa bits): the mechanism is audited *as a
      floating-point program* (Mironov's attack);
    * **running it** — ``jobs`` workers for the estimation blocks (``backend`` "threading",
      the standard library's threads; "loky" processes or "dask" on a running
      dask.distributed cluster need joblib and a picklable mechanism; "auto": loky when joblib
      is installed, else threads — the counts are the same for every backend and ``jobs``);
      ``progress(k)`` is called as draws complete; ``checkpoint``: a file updated after every
      block, from which an interrupted audit of the *same* target, pair, claim, plan and seed
      resumes (any other audit is refused; a finished audit removes it; see
      :mod:`dpspec.audit._checkpoint` for what it records and its threat model). On
      KeyboardInterrupt the partial counts stay;
    * **the upper side** — ``replay=True``: also bound ε from above by replaying the target's
      own draws on the audited pair, ``replay_runs`` runs (:func:`dpspec.audit.replay.replay`);
      the result then holds ``epsilon_upper``, the ``replay`` record and the bracket's
      ``verdict`` (a replay that proves a violation exactly sets ``violation`` too);
    * **the budget** — ``max_seconds``: checked before the work (:mod:`dpspec.audit._budget`):
      without it at most 2^30 draws of a vectorised target, 5·10^6 calls (or learner fits)
      of a per-call one; an estimated peak memory within 4 GiB after a pilot batch (its own
      Generator: the result is unchanged); with it, the pilot's time estimate must be within
      ``max_seconds``. A ``progress`` with a method ``planned(plan)`` is given the plan.

    Outputs the auditor cannot represent are refused with an error naming ``mechanism``, never
    judged (:mod:`dpspec.audit._targets`). An exception of the mechanism is re-raised as
    :class:`MechanismError`. Selection keeps K ≥ 1 events (:func:`~dpspec.audit._selection.
    _best_events`); each is bounded at level α/(2K) per side (:func:`event_level`) and the
    largest bound is reported (all K are in ``events``). The estimation draws
    come in blocks of ``BLOCK``, block i of each side from the child SeedSequence (root,
    spawn_key=(side, i)), root drawn after the selection: the result is the same for every
    ``jobs`` and for a resumed run.
    """
    start = time.perf_counter()
    mech = as_mechanism(mechanism)
    if pair is None and search is None:
        raise ValueError(
            "pair: none given; pass pair=(D, D'), or search=dpspec.audit.Search(queries=m) for "
            "a mechanism of m query answers or Search(domain=..., relation=...) for a dataset "
            "mechanism, to search for one (no default pair is invented)"
        )
    if pair is not None and search is not None:
        raise ValueError("search: give a pair or a search, not both")
    if epsilon is None:
        raise ValueError("epsilon: required, the claimed epsilon")
    eps = float(epsilon)
    auto = None
    if isinstance(samples, str):
        samples, auto = _auto_samples(eps, delta, confidence)
    n = samples
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    n_sel = default_selection(n) if selection is None else selection
    backend = _check_backend(jobs, backend)
    _check_refutable(n, eps, delta, confidence)
    if pair is None:
        if not isinstance(search, Search):
            raise TypeError(f"search: expected a dpspec.audit.Search, got {search!r}")
        if checkpoint is not None:
            raise ValueError("checkpoint: not available with a pair search (give the pair)")
        options: dict[str, Any] = {"samples": n, "selection": n_sel, "event": event}
        options.update(float_bits=float_bits, jobs=jobs, backend=backend, progress=progress)
        options["max_seconds"] = max_seconds
        result = _search_and_audit(mech, search, eps, delta, confidence, rng, options, audit)
        if auto:
            result.extra["samples_auto"] = auto
        return _bracket(result, mech, replay, replay_runs, rng, start)
    check_pair = getattr(mech, "check_pair", None)
    if callable(check_pair):
        check_pair(pair)  # the target's own checks of the pair, before any draw
    path = _checkpoint_path(checkpoint)
    alpha = 1.0 - confidence
    d1, d2 = pair
    planned_selection = 0 if event is not None else n_sel
    workers = 1 if getattr(mech, "sequential", False) else jobs
    plan = audit_plan(n, planned_selection, workers, BLOCK)
    check_budget(mech, d1, plan, max_seconds, "samples", planned_hook(progress))
    state: Progress | None = None
    identity = None
    if path is not None:
        identity = AuditIdentity.of(
            mech,
            (d1, d2),
            eps,
            delta,
            (n, planned_selection, confidence, BLOCK),
            seed,
            event,
            {"float_bits": float_bits},
        )
        state = Progress.load(path, identity)
    space = None
    notes: list[str] = []
    if state is None:
        chosen: list[tuple[Event, bool]] = [] if event is None else [(event, False), (event, True)]
        if event is None:
            s1 = _draw(mech, d1, n_sel, rng)
            s2 = _draw(mech, d2, n_sel, rng)
            chosen = [(e, sw) for e, sw, _ in _best_events(s1, s2, delta, alpha, float_bits, notes)]
            plain = _space(s1) == _space(s2) and _space(s1)[0] != "structured"
            space = _space(s1) if plain else ("structured", ())
            del s1, s2
        root = int(rng.integers(2**63))  # after the selection draws: independent of them
        state = Progress(
            identity, planned_selection, [e for e, _ in chosen], [sw for _, sw in chosen], root
        )
        state.save(path)  # the selection's work survives an interrupt from here on
    if progress is not None:
        progress(2 * state.selection + sum(state.done))
    _estimate(mech, (d1, d2), state, n, jobs, backend, path, progress, space)
    state.finish(path)
    result = _verdict(state, (d1, d2), eps, delta, n, confidence, mech, start)
    fresh = probe(mech, (d1, d2), state.root)
    result.extra["freshness"] = fresh.detail
    if fresh.deterministic and not result.violation:
        result.violation = True
        result.epsilon_lower = math.inf
        result.event = fresh.detail
    result.warnings = notes
    for note in notes:
        warnings.warn(note, AuditCoverageWarning, stacklevel=2)
    if auto:
        result.extra["samples_auto"] = auto
    return _bracket(result, mech, replay, replay_runs, rng, start)


def _bracket(
    result: AuditResult,
    mech: Mechanism,
    replay: bool,
    runs: int,
    rng: np.random.Generator,
    start: float,
) -> AuditResult:
    """The verdict: from the lower side alone, or with the replay's upper side on the audited
    pair (its seed drawn after every estimation seed, so the lower side is unchanged)."""
    if not replay:
        if result.violation:
            result.verdict = "violation"
        else:
            resolved = claim_resolved(
                result.epsilon_claimed, result.resolution, RESOLVED_MARGIN, RESOLVED_FLOOR
            ) and delta_resolved(result.delta, result.delta_resolution, DELTA_MARGIN)
            result.verdict = "consistent" if resolved else "inconclusive"
        result._seconds = time.perf_counter() - start
        return result
    seed = int(rng.integers(2**63))
    pairs = [(result.pair[0], result.pair[1])]
    for final in result.finalists:  # a pair search: every finalist's pair is replayed too
        if not any(_same_pair(final.pair, p) for p in pairs):
            pairs.append((final.pair[0], final.pair[1]))
    replays = [
        _replay_pair(mech, pair, result.epsilon_claimed, result.delta, runs, (seed + i) % 2**63)
        for i, pair in enumerate(pairs)
    ]
    found = _worst_replay(replays)
    if len(pairs) > 1:
        result.extra["replay_pairs"] = [
            {
                "pair": [repr(p[0]), repr(p[1])],
                "finding": r.finding,
                "epsilon_upper": r.epsilon_upper,
            }
            for p, r in zip(pairs, replays, strict=True)
        ]
    result.replay = found
    result.epsilon_upper = found.epsilon_upper
    exacts = [r.epsilon_exact for r in replays if r.exact and r.epsilon_exact is not None]
    result.verdict = bracket_verdict(
        result.epsilon_lower,
        found.epsilon_upper,
        max(exacts) if exacts else None,
        result.epsilon_claimed,
        TOLERANCE,
    )
    result.violation = result.verdict == "violation"
    result._seconds = time.perf_counter() - start
    return result


def _same_pair(a: Any, b: Any) -> bool:
    """Two pairs given or found alike (their reprs: datasets are lists, arrays or scalars)."""
    return repr(a[0]) == repr(b[0]) and repr(a[1]) == repr(b[1])


def _worst_replay(replays: list[ReplayResult]) -> ReplayResult:
    """The replay the upper side rests on, over the replayed pairs: one that coupled nothing
    (then there is no number), else the largest upper bound (an exact one first when it is
    the largest lower bound too)."""
    for r in replays:
        if r.epsilon_upper is None:
            return r
    return max(
        replays,
        key=lambda r: (r.epsilon_upper or 0.0, r.epsilon_exact if r.epsilon_exact else -1.0),
    )


def _event_bounds(
    events: list[Event],
    first: list[int],
    hits: list[tuple[int, int]],
    n: int,
    confidence: float,
    delta: float,
) -> list[EventBound]:
    """Every estimated event bounded: ``hits[e]`` = (k₁, k₂) out of ``n`` draws per side with
    M(``first[e]``) as p₁; each one-sided Clopper–Pearson bound at :func:`event_level` (α/(2K)),
    so that all 2K bounds hold together with probability ≥ 1 − α."""
    level = event_level(1.0 - confidence, len(events))
    out = []
    for ev, side, (k1, k2) in zip(events, first, hits, strict=True):
        p1_lo, p1_hi = float(_cp_lower(k1, n, level)), float(_cp_upper(k1, n, level))
        p2_lo, p2_hi = float(_cp_lower(k2, n, level)), float(_cp_upper(k2, n, level))
        lcb = float(_epsilon_lower(p1_lo, p2_hi, delta))
        out.append(EventBound(ev, side, (k1, k2), (p1_lo, p1_hi), (p2_lo, p2_hi), level, lcb))
    return out


def _verdict(
    state: Progress,
    pair: tuple[Any, Any],
    eps: float,
    delta: float,
    n: int,
    confidence: float,
    mech: Mechanism,
    start: float,
) -> AuditResult:
    """The result from the counts: every event bounded at :func:`event_level`, the largest
    bound reported, all K listed in ``events``."""
    pairs = zip(state.hits, state.swapped, strict=True)
    hits = [(h[1], h[0]) if sw else (h[0], h[1]) for h, sw in pairs]
    bounds = _event_bounds(
        state.events, [int(sw) for sw in state.swapped], hits, n, confidence, delta
    )
    best = max(bounds, key=lambda b: b.epsilon_lower)
    p1, p2 = best.hits[0] / n, best.hits[1] / n
    if p2 == 0:
        estimate = math.inf if p1 > delta else -math.inf
    else:
        estimate = float(_epsilon_lower(p1, p2, delta))
    found = _resolution(n, p2, best.level, eps, delta)
    leak = _delta_resolution(n, best.level, eps, delta)
    power = (
        f"at {n} draws per side, on the reported event (p2 = {p2:.4g}): eps >= {found:.4g} at "
        f"delta = {delta:g} is detected with probability >= {POWER}; a region D' cannot "
        f"produce is detected from mass {leak:.3g} under D"
        + (f" (the claim's delta {delta:g} is {'' if leak <= DELTA_MARGIN * delta else 'not '}"
           f"resolved: a delta of {DELTA_MARGIN:g}x must be)" if delta > 0 else "")
    )  # fmt: skip
    return AuditResult(
        resolution=found,
        delta_resolution=leak,
        power=power,
        epsilon_claimed=eps,
        delta=delta,
        epsilon_lower=best.epsilon_lower,
        epsilon_estimate=estimate,
        confidence=confidence,
        violation=best.epsilon_lower > eps,
        event=best.event.describe(),
        pair=pair,
        p1=p1,
        p1_interval=best.p1_interval,
        p2=p2,
        p2_interval=best.p2_interval,
        samples_per_side=n,
        _seconds=time.perf_counter() - start,
        direction=best.direction,
        selection_samples=state.selection,
        sampling=describe_sampling(mech),
        events=bounds,
    )


@checked
@example(__call__={"pair": (0.0, 1.0), "n": 1000})
def screen_bound(
    mechanism: MechanismArg,
    pair: Annotated[Any, _Datasets()],
    n: Annotated[int, Integer(1, hi=MAX_SELECTION, clean=1000)],
    rng: GeneratorArg,
    delta: DeltaArg = 0.0,
    alpha: ErrorLevelArg = 0.05,
) -> float:
    """The best selection-stage ε bound on ``n`` fresh draws per side: how much ``pair``
    seems to leak (used to choose a pair; never a reported bound)."""
    return _screen_bound(as_mechanism(mechanism), pair, n, rng, delta, alpha)


@checked
@example(__call__={"epsilon": 1.0, "samples": 2000, "screen": 1000})
def audit_pairs(
    mechanism: MechanismArg,
    pairs: PairsArg,
    epsilon: Annotated[float, Real(0.0, clean=1.0)],
    delta: DeltaArg = 0.0,
    *,
    samples: SamplesArg = 10**6,
    confidence: ConfidenceArg = 0.95,
    seed: SeedArg = 0,
    screen: Annotated[int, Integer(1, hi=MAX_SELECTION, clean=1000)] = 50_000,
    max_seconds: MaxSecondsArg = None,
    **options: Any,
) -> AuditResult:
    """Pick the pair with the largest selection-stage score (``screen`` draws per side per
    pair), then audit it with fresh draws (``options``: the other options of :func:`audit`).
    The confidence statement is for the audited pair: screening only chooses which pair to
    test, on draws the final audit does not reuse. The screening scores are in
    ``extra["screen_scores"]``: rankings, not bounds (they are maxima over many candidates
    on few draws and overshoot). At most ``MAX_PAIRS`` (10^4) pairs; the plan (2·``screen`` draws
    per pair, then the final audit's) is checked before any draw as :func:`audit` checks its
    own (:mod:`dpspec.audit._budget`)."""
    rng = np.random.default_rng(seed)
    mech = as_mechanism(mechanism)
    alpha = 1.0 - confidence
    listed = pairs
    n = _auto_samples(float(epsilon), delta, confidence)[0] if samples == "auto" else int(samples)
    selected = options.get("selection") or default_selection(n)
    final = audit_plan(n, selected, int(options.get("jobs", 1)), BLOCK)
    check_pairs_budget(mech, listed, screen, final, max_seconds, options.get("progress"))
    options["max_seconds"] = max_seconds
    scores = [_screen_bound(mech, pair, screen, rng, delta, alpha) for pair in listed]
    best = listed[int(np.argmax(scores))]
    result = audit(
        mech, best, epsilon, delta, samples=samples, confidence=confidence, seed=rng, **options
    )
    result.extra["screened_pairs"] = len(listed)
    result.extra["screen_scores"] = scores
    return result
