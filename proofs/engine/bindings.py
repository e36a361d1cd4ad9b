"""Differential checks: the implementation's code equals a lemma's function input by input.

A CrossHair lemma is a statement about a pure-Python function on ints/Fractions; the
implementation computes the same quantity vectorised with numpy. A binding check runs the
implementation's own code path and requires *equality* with the lemma's function on the
lemma's domain: first on an explicit list of boundary inputs (thresholds hit exactly,
empty cells, ties, zero weights), then on ``EXAMPLES`` Hypothesis inputs (derandomised:
the same inputs on every machine). A mismatch fails the check and names the input. Where
the implementation draws noise, the noise is injected, so the release rule is compared on
exactly the draws the lemma quantifies over. The checks themselves live in each topic's
``bindings`` module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dpspec.proofs.engine.registry import CheckOutcome, VerifyConfig

#: Hypothesis inputs per check (after the boundary list).
EXAMPLES = 2000


THOROUGH_EXAMPLES = 10000


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

    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def prop(case: Case) -> None:
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
