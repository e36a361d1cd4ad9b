"""Differential checks: the implementation's code equals a lemma's function input by input.

A CrossHair lemma is a statement about a pure-Python function on ints/Fractions; the
implementation computes the same quantity vectorised with numpy. A binding check runs the
implementation's own code path and requires *equality* with the lemma's function on the
lemma's domain: first on an explicit list of boundary inputs (thresholds hit exactly,
empty cells, ties, zero weights), then on ``EXAMPLES`` Hypothesis inputs (derandomised:
the same inputs on every machine), drawn ``BATCH`` to a Hypothesis example so that the
engine's fixed cost per example (seeding and restoring the global random states, its
bookkeeping) is paid once per batch; each input is still drawn by the check's strategy.
A mismatch fails the check and names the input. Where the implementation draws noise, the
noise is injected, so the release rule is compared on exactly the draws the lemma
quantifies over. The checks themselves live in each topic's ``bindings`` module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from dpspec.proofs.engine.registry import CheckOutcome, VerifyConfig

#: Hypothesis inputs per check (after the boundary list).
EXAMPLES = 2000


THOROUGH_EXAMPLES = 10000

#: Cases per Hypothesis example.
BATCH = 8


Case = dict[str, Any]


class Mismatch(AssertionError):
    pass


def differential(
    config: VerifyConfig,
    boundaries: Iterable[Case],
    strategy: st.SearchStrategy[Case],
    compare: Callable[[Case], str | None],
    examples: int | None = None,
) -> CheckOutcome:
    """Run ``compare`` on every boundary case, then on Hypothesis cases (``examples``, default
    :data:`EXAMPLES`, ×5 with ``--thorough``); ``compare`` returns None when the
    implementation equals the lemma's function, else a description."""
    n_boundary = 0
    for case in boundaries:
        n_boundary += 1
        problem = compare(case)
        if problem is not None:
            return CheckOutcome(False, f"boundary case {case}: {problem}", {"case": repr(case)})
    if examples is None:
        examples = THOROUGH_EXAMPLES if config.thorough else EXAMPLES
    elif config.thorough:
        examples *= 5
    ran = [0]
    # BATCH cases per Hypothesis example: each case is drawn by ``strategy`` on its own, and
    # the engine's work per example (seeding, bookkeeping, mutation) is paid once per batch
    batches = max(1, -(-examples // BATCH))
    phases = [Phase.explicit, Phase.generate]
    if not config.under_control:  # a counterexample found under a bug control is not shrunk:
        phases.append(Phase.shrink)  # only the verdict counts there

    @settings(
        max_examples=batches,
        derandomize=True,
        database=None,
        deadline=None,
        phases=phases,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.lists(strategy, min_size=BATCH, max_size=BATCH))
    def prop(cases: list[Case]) -> None:
        for case in cases:
            ran[0] += 1
            problem = compare(case)
            if problem is not None:
                raise Mismatch(f"{case}: {problem}")

    try:
        prop()
    except Mismatch as exc:
        return CheckOutcome(False, str(exc), {"boundary": n_boundary, "examples": ran[0]})
    return CheckOutcome(
        True,
        f"implementation == lemma function on {n_boundary} boundary and {ran[0]} generated inputs",
        {"boundary": n_boundary, "examples": ran[0]},
    )
