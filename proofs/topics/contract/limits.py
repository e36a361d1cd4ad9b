"""Declared limits, run at their maximum.

A parameter whose domain caps it (``Integer(..., limit="draws")``: the draws one ``sample`` call
returns, the cells of a partition, the outcomes a law lists …) promises that a request at the cap
either finishes or is refused, before any work, naming the parameter — never a memory error or a
run without end. ``declared_maximum`` runs every public callable's clean call with each capped
parameter set to its maximum, in a child process capped in memory and CPU (a request that
starts work it cannot finish is stopped there, not on the machine), under a CPU budget of
``MAXIMUM_CPU_SECONDS``, with
``--thorough`` (a call at its maximum allocates up to gigabytes: too heavy for the default run,
which checks instead that every cap raised to 2^40 — a request no call can finish — is refused
within 0.1 s, not attempted). A refusal must name a parameter of the calls made: a maximum
``dimension`` may be refused by the ``size`` of the draw that follows (their product is capped).
"""

from __future__ import annotations

from functools import partial

from dpspec.proofs.engine import sweep
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import (
    CONTRACT,
    CheckOutcome,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
    stop_if_failed,
)
from dpspec.proofs.engine.sweep import (
    REFUSAL_CPU_SECONDS,
    entries,
    execute,
    names_parameter,
    plan,
    refusal_cpu_seconds,
    run,
    run_isolated,
)
from dpspec.validation import Domain, Integer

#: CPU seconds a call at its declared maximum may take under ``--thorough``.
MAXIMUM_CPU_SECONDS = 120.0


def capped(domain: Domain | object) -> int | None:
    """The maximum of a capped integer domain (one with a ``limit``), or None."""
    if isinstance(domain, Integer) and domain.limit is not None:
        return domain.top
    return None


@Obligation(
    id="contract.declared-maximum",
    source="dpspec standard: a public entry refuses, before any work, what it cannot finish",
    claim=(
        "every capped parameter (draws, cells, outcomes, ...) of every public callable, "
        "set to its declared maximum, finishes or is refused naming it within the CPU "
        "budget; at 2^40 it is refused within 0.1 s"
    ),
    method=Method.PROPERTY,
    no_predicate=f"{CONTRACT}: declared maxima finish or are refused in time",
    impls=(Integer, "dpspec.validation.checks.LIMITS"),
    bug_controls=(
        BugControl(
            Integer.convert,
            "if v < self.lo or (top is not None and v > top):",
            "if v < self.lo:",
            "the caps of integer domains not enforced",
        ),
    ),
)
def declared_maximum(config: VerifyConfig) -> CheckOutcome:
    """Every capped parameter at its maximum: the call finishes or is refused naming the
    parameter, within the CPU budget; and at 2^40 (a request no call can finish) it is refused
    within 0.1 s, not attempted."""
    budget = MAXIMUM_CPU_SECONDS
    finished, refused, deferred, failures = 0, 0, 0, []
    slowest = 0.0
    controls_ok = 0
    cases = 0
    saved = sweep.CASE_CPU_SECONDS
    sweep.CASE_CPU_SECONDS = budget
    try:
        for entry in entries():
            for name, domain in entry.domains.items():
                top = capped(domain)
                if top is None:
                    continue
                try:
                    the_plan = plan(entry)
                except LookupError:
                    continue  # reported by contract.discovery
                cases += 1
                names = {name, *the_plan.init, *(n for _, a in the_plan.calls for n in a)}
                label = f"{entry.label}[{name}={top}]"
                if not config.thorough:
                    deferred += 1
                else:
                    out = run_isolated(partial(execute, the_plan, name, top), budget)
                    slowest = max(slowest, out.cpu_seconds)
                    if out.failure is not None:
                        failures.append(f"{label}: {out.failure}")
                    elif out.refused is not None:
                        if any(names_parameter(out.refused, n) for n in names):
                            refused += 1
                        else:
                            failures.append(f"{label}: refusal naming no parameter: {out.refused}")
                    else:
                        finished += 1
                run(partial(execute, the_plan))  # first-call costs (imports, declarations) out
                beyond = partial(execute, the_plan, name, 2**40)
                seconds = refusal_cpu_seconds(partial(run_isolated, beyond, 10.0))
                controls_ok += seconds <= REFUSAL_CPU_SECONDS
                stop_if_failed(
                    config, seconds <= REFUSAL_CPU_SECONDS, f"{entry.label}[{name}=2^40]"
                )
    finally:
        sweep.CASE_CPU_SECONDS = saved
    beyond_ok = controls_ok == cases
    return CheckOutcome(
        not failures and beyond_ok,
        f"{cases} capped parameters at their maximum: {finished} finished, {refused} refused "
        f"naming a parameter, within {budget:g} s CPU"
        + (f" ({deferred} run with --thorough only)" if deferred else "")
        + f", {len(failures)} failures; at 2^40: {controls_ok}/{cases} refused within "
        f"{REFUSAL_CPU_SECONDS} s (the least of up to three runs)"
        + (f"; failures: {failures[:5]}" if failures else ""),
        {"cases": cases, "finished": finished, "refused": refused, "deferred": deferred},
        [],
        [Slack("CPU seconds of the slowest call at its maximum", budget, slowest)],
    )
