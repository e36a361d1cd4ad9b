"""``dpspec conform`` on batch samplers: the references conform, the real bugs are flagged.

Three obligations, one per algorithm of :mod:`dpspec.conform.samplers`. Each runs ``conform``
(the entry point a user calls) on dpspec's reference sampler (:mod:`dpspec.accounting.sampling`,
the vectorised ``*_membership`` form, through ``reference``) and on the numpy recipes users
write (:data:`RECIPES`, called once per epoch, the form ``f(n, rate_or_size, steps, rng)``):

* the reference must conform with a computed power >= 0.99 on every instance (false alarm
  <= 1e-6 for the whole run, split over its instances by the union bound), and so must the
  correct recipes (``rng.random(n) < q``; a Binomial(n, q) count then a fresh uniform subset of
  that size, which *is* Poisson in law; ``rng.choice(n, b, replace=False)``; a fresh
  permutation per epoch);
* the recipes that are another sampler must be reported as deviating (the power side): a
  Binomial(n, q) count of the next records of one permutation per epoch (jax_privacy issue
  #121) and a fixed size claimed as Poisson; with replacement claimed as fixed size; one
  permutation reused across epochs and a fresh subset per batch claimed as shuffling;
* the tiny instances' joint laws (the catalogue's enumeration) equal closed forms written here,
  on every epoch of their tables, which hold all of the closed form's mass: Poisson
  P(epoch) = Π_t q^{|B_t|}(1 − q)^{n − |B_t|}, fixed size 1/C(n, b)^steps on epochs of
  b-subsets, shuffling ((b!)^{n/b}/n!)^2 on two epochs of ordered partitions into batches of b.

The recipes are run at resolution 1 (each budget sized against the scheme off by a factor 2
either way: their bugs are far larger; the power against each bug at that budget is in the
report), the references at the default resolution 0.1.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

import dpspec.accounting.sampling
import dpspec.conform.samplers
from dpspec.accounting.sampling import (
    fixed_size_membership,
    poisson_membership,
    shuffled_membership,
)
from dpspec.conform import catalogue, conform, reference
from dpspec.conform.gof import POWER
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import (
    CHECKER_SOUNDNESS,
    CheckOutcome,
    Control,
    Method,
    Obligation,
    Slack,
    VerifyConfig,
    stop_if_failed,
)

#: the realistic parameters of each algorithm in these obligations (small: the cost of verify)
PARAMS: dict[str, dict[str, Any]] = {
    "poisson-batches": {"n": 200, "q": 0.05, "steps": 3},
    "fixed-size-batches": {"n": 200, "b": 10, "steps": 3},
    "shuffled-batches": {"n": 200, "b": 20},
}
#: the resolution the recipes are judged at (their bugs are gross; the budget stays small)
RECIPE_RESOLUTION = 1.0

Recipe = Callable[[int, Any, int, np.random.Generator], list[Any]]


# --- the numpy recipes users write -------------------------------------------------------------


def poisson_recipe(n: int, q: float, steps: int, rng: np.random.Generator) -> list[Any]:
    """``rng.random(n) < q`` per step: Poisson."""
    return [np.flatnonzero(rng.random(n) < q) for _ in range(steps)]


def binomial_then_fresh_subset(n: int, q: float, steps: int, rng: np.random.Generator) -> list[Any]:
    """A Binomial(n, q) count, then a fresh uniform subset of that size each step: Poisson in
    law (given its size, a Poisson batch is a uniform subset of that size)."""
    return [rng.choice(n, rng.binomial(n, q), replace=False) for _ in range(steps)]


def binomial_then_one_permutation(
    n: int, q: float, steps: int, rng: np.random.Generator
) -> list[Any]:
    """Binomial(n, q) counts, each batch the next records of ONE permutation per epoch
    (jax_privacy issue #121): a record is never in two steps of an epoch."""
    perm, start, out = rng.permutation(n), 0, []
    for _ in range(steps):
        size = int(rng.binomial(n, q))
        out.append(perm[start : start + size])
        start = min(start + size, n)
    return out


def fixed_size_as_poisson(n: int, q: float, steps: int, rng: np.random.Generator) -> list[Any]:
    """Batches of the fixed size round(nq), claimed as Poisson(q)."""
    b = max(1, round(n * q))
    return [rng.choice(n, b, replace=False) for _ in range(steps)]


def fixed_size_recipe(n: int, b: int, steps: int, rng: np.random.Generator) -> list[Any]:
    """``rng.choice(n, b, replace=False)`` each step (a fresh subset per batch)."""
    return [rng.choice(n, b, replace=False) for _ in range(steps)]


def with_replacement(n: int, b: int, steps: int, rng: np.random.Generator) -> list[Any]:
    """b draws with replacement, duplicates dropped, claimed as a b-subset."""
    return [np.unique(rng.integers(0, n, b)) for _ in range(steps)]


def shuffle_recipe(n: int, b: int, steps: int, rng: np.random.Generator) -> list[Any]:
    """``rng.permutation(n)`` each epoch, split into n/b batches."""
    per = n // b
    out: list[Any] = []
    while len(out) < steps:  # steps / per epochs
        perm = rng.permutation(n)
        out += [perm[j * b : (j + 1) * b] for j in range(per)]
    return out[:steps]


def shuffle_reusing_permutation(n: int, b: int, steps: int, rng: np.random.Generator) -> list[Any]:
    """One permutation drawn once and reused every epoch, claimed as shuffling."""
    perm, per = rng.permutation(n), n // b
    return [perm[(t % per) * b : (t % per + 1) * b] for t in range(steps)]


#: per algorithm: (recipe, whether it is the algorithm), run by the obligations (the tests run
#: :func:`poisson_recipe` too: it is the reference's recipe, one epoch per call)
RECIPES: dict[str, tuple[tuple[Recipe, bool], ...]] = {
    "poisson-batches": (
        (binomial_then_fresh_subset, True),
        (binomial_then_one_permutation, False),
        (fixed_size_as_poisson, False),
    ),
    "fixed-size-batches": ((fixed_size_recipe, True), (with_replacement, False)),
    "shuffled-batches": (
        (shuffle_recipe, True),
        (shuffle_reusing_permutation, False),
        (fixed_size_recipe, False),
    ),
}


# --- the closed forms of the tiny instances ----------------------------------------------------


def _rows(code: int, n: int, steps: int) -> list[int]:
    return [code >> (t * n) & ((1 << n) - 1) for t in range(steps)]


def closed_form(name: str, n: int, r: Any, steps: int, code: int) -> Fraction:
    """P(epoch = code) from the scheme's closed form (module docstring); bit t·n + i of the
    code is record i in step t."""
    rows = _rows(code, n, steps)
    sizes = [row.bit_count() for row in rows]
    if name == "poisson-batches":
        q = Fraction(r)
        return math.prod((q**s * (1 - q) ** (n - s) for s in sizes), start=Fraction(1))
    if name == "fixed-size-batches":
        return Fraction(1, math.comb(n, r) ** steps) if all(s == r for s in sizes) else Fraction(0)
    m = n // r
    partitions = all(s == r for s in sizes) and all(
        sum(rows[e * m : (e + 1) * m]) == (1 << n) - 1 for e in range(steps // m)
    )
    return (
        Fraction(math.factorial(r) ** m, math.factorial(n)) ** (steps // m)
        if partitions
        else Fraction(0)
    )


def _law_problems(name: str) -> list[str]:
    """Tiny instances whose catalogue law differs from the closed form on an epoch of its
    table, or whose table does not hold all of the closed form's mass (then an epoch off the
    table, which the law gives probability 0, would have mass under the closed form)."""
    algo = catalogue()[name]
    out = []
    for inst in algo._instances(algo._resolve(dict(PARAMS[name]))):
        n, r, steps, kind = inst.data[:4]
        if kind != dpspec.conform.samplers.JOINT:
            continue
        total, bad = Fraction(0), 0
        for code, exact in zip(inst.law.encode.args[0], inst.law.exact or (), strict=True):
            p = closed_form(name, n, r, steps, code)
            total += p
            bad += p != exact
        if bad or total != 1:  # mass 1 on the table: the closed form is 0 off it
            out.append(f"{inst.label}: {bad} epochs differ, the closed form sums to {total}")
    return out


# --- the check ---------------------------------------------------------------------------------


def _run(name: str, config: VerifyConfig, parts: tuple[str, ...]) -> CheckOutcome:
    """``parts``: "reference" (the reference conforms, the closed forms) and "recipes" (the
    correct recipes conform; then, not under a bug control, the wrong ones must deviate)."""
    params = PARAMS[name]
    rows: list[str] = []
    numbers: dict[str, Any] = {}
    controls: list[Control] = []
    slack: list[Slack] = []
    ok = True
    if "reference" in parts:
        own = conform(reference(name, **params), name, **params)
        powered = min(r.power for r in own.instances)
        stop_if_failed(config, own.conforms and powered >= POWER, f"{name}: {own.verdict}")
        problems = _law_problems(name)
        stop_if_failed(config, not problems, f"{name}: {problems}")
        ok = own.conforms and powered >= POWER and not problems
        rows.append(
            f"reference {own.verdict} ({len(own.instances)} instances, power >= {powered:.4f}); "
            f"joint laws {'equal' if not problems else 'differ from'} the closed forms"
        )
        numbers.update(draws=[r.draws for r in own.instances], laws=problems)
        slack.append(Slack("power", POWER, powered))
    if "recipes" in parts:
        for recipe, correct in sorted(RECIPES[name], key=lambda rc: not rc[1]):
            if config.under_control and not correct:
                break  # the controls below are run only on the code as it is
            run = conform(recipe, name, resolution=RECIPE_RESOLUTION, **params)
            numbers[recipe.__name__] = {r.label: r.verdict for r in run.instances}
            if correct:
                stop_if_failed(config, run.conforms, f"{recipe.__name__}: {run.verdict}")
                ok &= run.conforms
                rows.append(f"{recipe.__name__} {run.verdict}")
                continue
            caught = [r for r in run.instances if r.verdict != "conforms"] or run.instances
            controls.append(
                Control(
                    f"{name}: {recipe.__doc__ or recipe.__name__}",
                    not run.conforms,
                    f"{run.verdict} on {len(caught)} of {len(run.instances)} instances, e.g. "
                    f"{caught[0].label}: {caught[0].why()[:120]}",
                )
            )
    return CheckOutcome(ok, f"{name}: " + "; ".join(rows), numbers, controls, slack)


_SOURCE = "dpspec conform's batch-sampler catalogue (dpspec.conform.samplers)"
_IMPLS = (dpspec.conform.samplers, dpspec.accounting.sampling, conform, reference)
_NO_PREDICATE = (
    f"{CHECKER_SOUNDNESS}: conform's verdicts on dpspec's reference samplers and on real "
    "buggy recipes, the joint laws against closed forms"
)


@Obligation(
    id="conform.poisson-batches",
    source=_SOURCE,
    claim=(
        "dpspec's Poisson sampler conforms to poisson-batches (power >= 0.99 at odds "
        "q/(1-q) x 1.1 and / 1.1, false alarm <= 1e-6) and the catalogue's joint laws of the "
        "small instances equal the closed form prod_t q^|B_t| (1-q)^(n-|B_t|)"
    ),
    method=Method.STATISTICAL,
    no_predicate=_NO_PREDICATE,
    impls=_IMPLS,
    entry_points=(poisson_membership, conform),
    tests=("tests/test_conform_samplers.py::test_poisson_recipes",),
    bug_controls=(
        BugControl(
            poisson_membership,
            "rng.random((count, steps, n)) < rate",
            "rng.random((count, steps, n)) < rate * 1.25",
            "the rate 25% too high",
        ),
        BugControl(
            "dpspec.conform.samplers._Poisson._instances",
            "twice = float(stats.binom.sf(1, steps, q))",
            "twice = float(stats.binom.sf(1, steps + 1, q))",
            "the law of the records in two steps with one step too many (an off-by-one)",
        ),
    ),
)
def poisson_batches_conform(config: VerifyConfig) -> CheckOutcome:
    """:func:`_run` on ``poisson-batches``: the reference and the closed forms."""
    return _run("poisson-batches", config, ("reference",))


@Obligation(
    id="conform.poisson-batches-recipes",
    source=_SOURCE,
    claim=(
        "conform flags the samplers claimed as Poisson that are not: Binomial(n, q) counts "
        "over one permutation per epoch (jax_privacy #121) and a fixed size round(nq); a "
        "Binomial(n, q) count then a fresh uniform subset (Poisson in law) conforms"
    ),
    method=Method.STATISTICAL,
    no_predicate=_NO_PREDICATE,
    impls=_IMPLS,
    entry_points=(conform,),
    tests=("tests/test_conform_samplers.py::test_poisson_recipes",),
    bug_controls=(
        BugControl(
            "dpspec.conform.samplers._Poisson._instances",
            "twice = float(stats.binom.sf(1, steps, q))",
            "twice = float(stats.binom.sf(0, steps, q))",
            "the law of the records in two steps from P(Bin(steps, q) >= 1) (an off-by-one)",
        ),
    ),
)
def poisson_recipes_conform(config: VerifyConfig) -> CheckOutcome:
    """:func:`_run` on ``poisson-batches``: the numpy recipes."""
    return _run("poisson-batches", config, ("recipes",))


@Obligation(
    id="conform.fixed-size-batches",
    source=_SOURCE,
    claim=(
        "dpspec's fixed-size sampler and rng.choice(n, b, replace=False) conform to "
        "fixed-size-batches (power >= 0.99 at b + 1 and b - 1, false alarm <= 1e-6); draws "
        "with replacement deviate"
    ),
    method=Method.STATISTICAL,
    no_predicate=_NO_PREDICATE,
    impls=_IMPLS,
    entry_points=(fixed_size_membership, conform),
    tests=("tests/test_conform_samplers.py::test_fixed_size_recipes",),
    bug_controls=(
        BugControl(
            fixed_size_membership,
            "chosen = np.argpartition(keys, size - 1, axis=-1)[..., :size]",
            "chosen = np.argpartition(keys[..., :-1], size - 1, axis=-1)[..., :size]",
            "the last record never drawn (an off-by-one in the keys' range)",
        ),
    ),
)
def fixed_size_batches_conform(config: VerifyConfig) -> CheckOutcome:
    """:func:`_run` on ``fixed-size-batches``."""
    return _run("fixed-size-batches", config, ("reference", "recipes"))


@Obligation(
    id="conform.shuffled-batches",
    source=_SOURCE,
    claim=(
        "dpspec's shuffler and a fresh rng.permutation per epoch conform to shuffled-batches "
        "(power >= 0.99, false alarm <= 1e-6); one permutation reused across epochs and a "
        "fresh subset per batch deviate"
    ),
    method=Method.STATISTICAL,
    no_predicate=_NO_PREDICATE,
    impls=_IMPLS,
    entry_points=(shuffled_membership, conform),
    tests=("tests/test_conform_samplers.py::test_shuffled_recipes",),
    bug_controls=(
        BugControl(
            shuffled_membership,
            "order = rng.permuted(np.tile(np.arange(n), (count, epochs, 1)), axis=-1)",
            "order = np.tile(rng.permuted(np.tile(np.arange(n), (count, 1, 1)), axis=-1), "
            "(1, epochs, 1))",
            "one permutation reused in every epoch",
        ),
    ),
)
def shuffled_batches_conform(config: VerifyConfig) -> CheckOutcome:
    """:func:`_run` on ``shuffled-batches``."""
    return _run("shuffled-batches", config, ("reference", "recipes"))
