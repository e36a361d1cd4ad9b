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
        id="conform.budget-sized-for-the-squared-factor",
        file="impl/conform/mechanisms.py",
        original="_integer_law(v, q**factor, v - w, v + w",
        replacement="_integer_law(v, q ** (factor**2), v - w, v + w",
        description=(
            "discrete Laplace's budget sized against eps x 1.21 and eps / 1.21 instead of "
            "eps x 1.1 and eps / 1.1: the stated power 0.99 at the resolution is not reached"
        ),
        kind="power",
    ),
    Mutant(
        id="conform.stated-power-at-epsilon",
        file="impl/conform/core.py",
        original="for v in (inst.variant, below[0])",
        replacement="for v in (inst.law, inst.law)",
        description="the stated power computed against the law at eps instead of the resolution",
        kind="power",
    ),
    Mutant(
        id="conform.resolution-ignored",
        file="impl/conform/core.py",
        original="r = RESOLUTION if resolution is None else float(resolution)",
        replacement="r = RESOLUTION",
        description="resolution= accepted and ignored: the budget of the default 10% stated",
        kind="power",
    ),
)
