"""Bugs of ``dpspec conform`` itself that ``dpspec mutate`` plants (see
``proofs/notes/mutation.md``): each weakens what a verdict promises — its false alarm or its
stated power — and must be killed by this topic's obligations."""

from __future__ import annotations

from dpspec.proofs.engine.mutation import Mutant

MUTANTS: tuple[Mutant, ...] = (
    Mutant(
        id="conform.union-bound-dropped",
        file="impl/conform/gof.py",
        original="k = len(events.names) if union else 1",
        replacement="k = 1",
        description=(
            "the law test without its union bound: each of the K events at alpha instead of "
            "alpha/K (false alarm above the stated level)"
        ),
        kind="level",
    ),
    Mutant(
        id="conform.budget-sized-for-epsilon-x1.2",
        file="impl/conform/mechanisms.py",
        original="_integer_law(v, q**EPSILON_FACTOR, v - w, v + w",
        replacement="_integer_law(v, q ** (EPSILON_FACTOR + 0.1), v - w, v + w",
        description=(
            "discrete Laplace's budget sized against eps x 1.2 instead of eps x 1.1: the stated "
            "power 0.99 against eps x 1.1 is not reached"
        ),
        kind="power",
    ),
    Mutant(
        id="conform.stated-power-at-epsilon",
        file="impl/conform/core.py",
        original="_power_bound(inst.law, events, inst.variant.probs, min(n, limit), alpha_each)",
        replacement="_power_bound(inst.law, events, inst.law.probs, min(n, limit), alpha_each)",
        description="the stated power computed against the law at eps instead of eps x 1.1",
        kind="power",
    ),
)
