"""An audit's budget, checked before the work: how many target draws it plans, how much memory
its outputs take, and — when asked — how long the target's draws take.

**The plan.** An audit of ``samples`` N and ``selection`` S per side makes T = 2·(N + S) + 4·64
target draws (the freshness probe's 4·64: :mod:`dpspec.audit._freshness`) and holds at most
H = max(2·S, jobs·min(N, BLOCK)) outputs at once (both sides' selection draws, then one
estimation block per worker); a pair search adds ``candidates`` × 2·``screen`` screening draws
(H ≥ 2·``screen``) and audits ``finalists`` pairs; :func:`~dpspec.audit.audit_pairs` adds
``len(pairs)`` × 2·``screen``.

**Refusals, in order, each a ValueError naming the parameter, with the estimate and the limit:**

1. *the unattended draw cap* (deterministic, before any call of the target): without
   ``max_seconds``, T ≤ :data:`UNATTENDED_DRAWS` of the target's kind — 2^30 draws of a
   vectorised target (``f(data, n, rng)``, ``.sample``; tens of seconds for a scalar Laplace
   draw of ~20 ns), 5·10^6 calls of a target called once per draw (``f(data, rng)``,
   ``f(data)``: ~13 s at 2.5 µs per call of a trivial function) or fits of a learner fitted
   once per draw (a fit's cost is the learner's: ``max_seconds`` bounds it). A larger plan
   runs only when ``max_seconds`` says how long it may take (then rule 3 decides);
2. *memory* (after a pilot): 4 · H · b ≤ ``MEMORY_LIMIT`` (4 GiB, :mod:`dpspec.validation`),
   b the bytes of one output measured on the pilot (the factor 4: the held outputs and the
   working copies the event families make of them);
3. *time* (only with ``max_seconds``): T · t ≤ ``max_seconds``, t the pilot's seconds per
   draw. This estimates the target's draws alone (event counting and selection come on top).

**The pilot** draws on D from a Generator of its own (SeedSequence(:data:`PILOT_ENTROPY`)).
When T > :data:`PILOT_FROM` it is one call of one draw, for b. When ``max_seconds`` is given,
or the caller asks for the plan (``notify``: the CLI's progress display), it is *timed*:
batches of 1, 2, 4, … draws until a batch takes :data:`PILOT_SECONDS`, holds
:data:`PILOT_BYTES` or reaches the kind's :data:`PILOT_BATCH`; t and b are the last batch's
per draw. The audit's own Generator is not touched, so its draws — and its result for a
given seed — are those of an audit without the pilot (a target keeping state of its own
between calls is advanced by the pilot's calls, as by any other call). Small plans
(T ≤ :data:`PILOT_FROM`, no ``max_seconds``, no ``notify``) run no pilot and no extra call.

Sizes are refused before any call elsewhere too: more than :data:`MAX_PAIRS` pairs for
:func:`~dpspec.audit.audit_pairs`, a finite search domain of more than
:data:`~dpspec.audit.pair_search.MAX_DOMAIN` records, ``samples="auto"`` at a δ its cap cannot
resolve (:func:`dpspec.audit.loop._auto_samples`), samples beyond ``MAX_SAMPLES``.

A refusal is a usage error decided before the work, never a verdict: without ``max_seconds``
every refusal is deterministic (counts, and the bytes of the target's outputs), so an audit
runs or is refused alike on every machine; with ``max_seconds`` the caller accepts that the
pilot's timing, on this machine, decides whether it starts.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from dpspec.audit._freshness import PROBE
from dpspec.audit._structured import StructuredOutputs
from dpspec.audit._targets import Mechanism, _draw, draw_kind
from dpspec.validation import MEMORY_LIMIT

#: the largest plan (target draws in all) an audit runs without ``max_seconds``, per kind
UNATTENDED_DRAWS = {"vectorised": 2**30, "per-call": 5 * 10**6, "per-fit": 5 * 10**6}
#: what one draw of each kind is, in messages
_UNIT = {"vectorised": "draws", "per-call": "calls", "per-fit": "fits"}
#: held outputs and their working copies: the memory estimate is this × held × bytes per output
MEMORY_FACTOR = 4
#: plans of at most this many target draws run no pilot (and make no extra call)
PILOT_FROM = 10**4
#: the pilot stops doubling once a batch takes this long (seconds) ...
PILOT_SECONDS = 0.05
#: ... or holds this many bytes ...
PILOT_BYTES = 2**24
#: ... or reaches this many draws (per kind); at most 2·PILOT_BATCH − 1 pilot draws in all
PILOT_BATCH = {"vectorised": 2**16, "per-call": 2**9, "per-fit": 2**3}
#: draws per estimation block: one child SeedSequence per block, whatever ``jobs`` is (each
#: worker holds one block's outputs: :func:`audit_plan`)
BLOCK = 1 << 18
#: the largest number of candidate pairs :func:`~dpspec.audit.audit_pairs` screens
MAX_PAIRS = 10_000
#: the entropy of the pilot's own Generator (independent of every audit seed's draws)
PILOT_ENTROPY = 0x5EED_B0D6E7


def planned_hook(progress: Any) -> Callable[[Plan], None] | None:
    """The ``planned(plan)`` method of a progress callback that has one, else None."""
    hook = getattr(progress, "planned", None)
    return hook if callable(hook) else None


@dataclass(frozen=True)
class Pilot:
    """What the pilot measured: ``draws`` made in all; the last batch's seconds and bytes
    per draw; ``timed``: the batches grew until the time is a per-draw estimate (else one
    draw, for the bytes)."""

    draws: int
    seconds_per_draw: float
    bytes_per_draw: float
    timed: bool = True


@dataclass(frozen=True)
class Plan:
    """An audit's budget: ``draws`` target draws in all (``parts`` says how they add up),
    at most ``held`` outputs in memory at once, the target's ``kind`` of draw; ``pilot``
    when one ran."""

    kind: str
    draws: int
    held: int
    parts: str
    pilot: Pilot | None = None

    @property
    def seconds(self) -> float | None:
        """The pilot's estimate of the target's draws alone (None without a pilot)."""
        if self.pilot is None or not self.pilot.timed:
            return None
        return self.draws * self.pilot.seconds_per_draw

    @property
    def bytes(self) -> float | None:
        """The memory estimate: MEMORY_FACTOR × held × bytes per output (None without a
        pilot)."""
        return None if self.pilot is None else MEMORY_FACTOR * self.held * self.pilot.bytes_per_draw

    def describe(self) -> str:
        """One line: the planned draws and, after a pilot, the time and memory estimates."""
        unit = _UNIT[self.kind]
        text = f"{self.draws} target {unit} planned ({self.parts})"
        if self.pilot is not None and self.seconds is not None and self.bytes is not None:
            text += (
                f"; estimated {_seconds(self.seconds)} for the target's {unit} (pilot: "
                f"{self.pilot.draws} {unit}, {_seconds(self.pilot.seconds_per_draw)} each), "
                f"peak memory ~{_bytes(self.bytes)}"
            )
        return text


def audit_plan(samples: int, selection: int, jobs: int, block: int) -> tuple[int, int, str]:
    """(draws, held, parts) of one audit of a pair: 2·(samples + selection) + 4·PROBE draws,
    at most max(2·selection, jobs·min(samples, block)) outputs held."""
    draws = 2 * (samples + selection) + 4 * PROBE
    held = max(2 * selection, jobs * min(samples, block))
    return draws, held, f"2·({samples} + {selection}) + {4 * PROBE}"


def screening_plan(
    pairs: int, screen: int, final: tuple[int, int, str], finalists: int = 1
) -> tuple[int, int, str]:
    """(draws, held, parts) of screening ``pairs`` candidate pairs with ``screen`` draws per
    side each, then ``finalists`` audits of plan ``final``."""
    draws, held, parts = final
    total = pairs * 2 * screen + finalists * draws
    text = f"{pairs} pairs × 2·{screen} screening + {finalists} × ({parts})"
    return total, max(held, 2 * screen), text


def check_pairs_budget(
    mechanism: Mechanism,
    pairs: list[Any],
    screen: int,
    final: tuple[int, int, str],
    max_seconds: float | None,
    progress: Any,
) -> Plan:
    """The budget of :func:`~dpspec.audit.audit_pairs`: at most :data:`MAX_PAIRS` pairs, then
    :func:`check_budget` of screening them all and auditing one (``final``), named "pairs",
    the pilot on the first pair's D."""
    if len(pairs) > MAX_PAIRS:
        raise ValueError(f"pairs: {len(pairs)} pairs to screen; the limit is {MAX_PAIRS}")
    plan = screening_plan(len(pairs), screen, final)
    return check_budget(mechanism, pairs[0][0], plan, max_seconds, "pairs", planned_hook(progress))


def check_budget(
    mechanism: Mechanism,
    data: Any,
    plan: tuple[int, int, str],
    max_seconds: float | None,
    name: str,
    notify: Callable[[Plan], None] | None = None,
) -> Plan:
    """Refuse, before the work, a ``plan`` (draws, held, parts; see :func:`audit_plan`) beyond
    the budget (the module docstring's rules 1–3), naming ``name`` (rules 1, 2) or
    ``max_seconds`` (rule 3); else the :class:`Plan`, with the pilot's measures when one ran
    on ``data`` (None: no pilot). ``notify(plan)`` is told the plan before the work."""
    draws, held, parts = plan
    kind = draw_kind(mechanism)
    unit, cap = _UNIT[kind], UNATTENDED_DRAWS[kind]
    if max_seconds is None and draws > cap:
        raise ValueError(
            f"{name}: the audit plans {_count(draws)} target {unit} ({parts}); without max_seconds "
            f"the limit for a {_KIND_TEXT[kind]} is {_count(cap)} {unit}; pass max_seconds=S "
            "(CLI --max-seconds S) to run it if a pilot estimates it within S seconds, or "
            "plan fewer draws"
        )
    pilot = None
    timed = max_seconds is not None or notify is not None
    if data is not None and (draws > PILOT_FROM or timed):
        pilot = run_pilot(mechanism, data, kind, timed)
    out = Plan(kind, draws, held, parts, pilot)
    if pilot is not None and MEMORY_FACTOR * held * pilot.bytes_per_draw > MEMORY_LIMIT:
        raise ValueError(
            f"{name}: the audit would hold {_count(held)} outputs of "
            f"~{_bytes(pilot.bytes_per_draw)} each (pilot: {pilot.draws} {unit}): an estimated "
            f"~{_bytes(out.bytes or 0.0)} of "
            f"memory; the limit is {_bytes(MEMORY_LIMIT)}; plan fewer draws (selection, "
            "samples, screen) or release smaller outputs"
        )
    if max_seconds is not None and pilot is not None:
        seconds = draws * pilot.seconds_per_draw
        if seconds > max_seconds:
            raise ValueError(
                f"max_seconds: the audit's {_count(draws)} target {unit} ({parts}) take an "
                f"estimated {_seconds(seconds)} (pilot: {pilot.draws} {unit}, "
                f"{_seconds(pilot.seconds_per_draw)} each) > max_seconds={max_seconds:g}; "
                "pass a larger max_seconds or plan fewer draws"
            )
    if notify is not None:
        notify(out)
    return out


_KIND_TEXT = {
    "vectorised": "vectorised target",
    "per-call": "target called once per draw",
    "per-fit": "learner fitted once per draw",
}


def run_pilot(mechanism: Mechanism, data: Any, kind: str, timed: bool = True) -> Pilot:
    """Draws of ``mechanism`` on ``data`` from the pilot's own Generator: one (``timed``
    False), or batches of 1, 2, 4, … until one takes PILOT_SECONDS, holds PILOT_BYTES or
    reaches PILOT_BATCH[kind] draws; the last batch's seconds and bytes per draw. An
    exception of the target is a
    :class:`~dpspec.audit._targets.MechanismError`, outputs the auditor cannot represent an
    error naming ``mechanism`` — as they would be on the audit's first draws."""
    rng = np.random.default_rng(np.random.SeedSequence(PILOT_ENTROPY))
    m, total = 1, 0
    while True:
        start = time.perf_counter()
        out = _draw(mechanism, data, m, rng)
        elapsed = time.perf_counter() - start
        total += m
        size = outputs_nbytes(out)
        done = elapsed >= PILOT_SECONDS or 2 * size > PILOT_BYTES or 2 * m > PILOT_BATCH[kind]
        if done or not timed:
            return Pilot(total, elapsed / m, size / m, timed)
        m *= 2


def outputs_nbytes(outputs: Any) -> int:
    """The bytes a batch of outputs holds: an array's ``nbytes``; for structured outputs
    their blocks of numbers and indices, and 100 bytes per row for the Python rows they are
    read from."""
    if isinstance(outputs, StructuredOutputs):
        arrays = [*outputs.blocks, outputs.index, outputs.position]
        return sum(int(np.asarray(a).nbytes) for a in arrays) + 100 * len(outputs)
    return int(np.asarray(outputs).nbytes)


def _count(x: int) -> str:
    """A count as written: exactly below 10^6, else in scientific notation (2.4e7)."""
    if x < 10**6:
        return str(x)
    mantissa, exponent = f"{x:.3g}".split("e")
    return f"{mantissa}e{int(exponent)}"


def _seconds(x: float) -> str:
    if x >= 1:
        return f"{x:.3g} s"
    if x >= 1e-3:
        return f"{x * 1e3:.3g} ms"
    return f"{x * 1e6:.3g} µs"


def _bytes(x: float) -> str:
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if x >= size:
            return f"{x / size:.3g} {unit}"
    return f"{x:.0f} bytes" if math.isfinite(x) else "inf bytes"
