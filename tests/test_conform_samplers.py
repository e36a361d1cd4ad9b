"""``dpspec conform`` on batch samplers (:mod:`dpspec.conform.samplers`): the reference samplers
and the correct numpy recipes conform, the real bugs are flagged, the laws are exact."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations, pairwise, product
from typing import Any

import numpy as np
import pytest

from dpspec.accounting import fixed_size_batches, poisson_batches, shuffled_batches
from dpspec.accounting.sampling import (
    fixed_size_membership,
    poisson_membership,
    shuffled_membership,
)
from dpspec.conform import catalogue, conform, plan, reference
from dpspec.conform.samplers import JOINT, OVERLAP, REPEATED
from dpspec.proofs.topics.conform import samplers as recipes

SMALL = recipes.PARAMS


def _run(target: Any, name: str, **extra: Any) -> Any:
    return conform(target, name, resolution=1.0, **{**SMALL[name], **extra})


def test_poisson_recipes() -> None:
    """rng.random(n) < q and a Binomial count then a fresh subset conform; jax_privacy #121
    (one permutation per epoch) and a fixed size claimed as Poisson deviate; #121 is seen by
    the records-in-two-steps statistic at realistic n too."""
    assert _run(recipes.poisson_recipe, "poisson-batches").conforms
    assert _run(recipes.binomial_then_fresh_subset, "poisson-batches").conforms
    bug = _run(recipes.binomial_then_one_permutation, "poisson-batches")
    assert bug.verdict == "deviates"
    caught = {r.label for r in bug.instances if r.verdict == "deviates"}
    assert any(label.startswith("records in >= 2 steps") for label in caught), caught
    fixed = _run(recipes.fixed_size_as_poisson, "poisson-batches")
    assert fixed.verdict == "deviates"
    assert any(
        r.label.startswith("total inclusions") for r in fixed.instances if r.verdict != "conforms"
    )


def test_fixed_size_recipes() -> None:
    """rng.choice(n, b, replace=False) conforms; with replacement, a Poisson sampler and an
    off-by-one that never draws the last record deviate."""
    assert _run(recipes.fixed_size_recipe, "fixed-size-batches").conforms
    assert _run(recipes.with_replacement, "fixed-size-batches").verdict == "deviates"

    def poisson(n: int, b: int, steps: int, rng: np.random.Generator) -> list[Any]:
        return recipes.poisson_recipe(n, b / n, steps, rng)

    def never_last(n: int, b: int, steps: int, rng: np.random.Generator) -> list[Any]:
        return [rng.choice(n - 1, min(b, n - 1), replace=False) for _ in range(steps)]

    assert _run(poisson, "fixed-size-batches").verdict == "deviates"
    assert _run(never_last, "fixed-size-batches").verdict == "deviates"


def test_shuffled_recipes() -> None:
    """A fresh permutation per epoch conforms; one permutation reused across epochs and a fresh
    subset per batch deviate (the reused permutation is a deviation: the algorithm says a fresh
    permutation each epoch)."""
    assert _run(recipes.shuffle_recipe, "shuffled-batches").conforms
    reused = _run(recipes.shuffle_reusing_permutation, "shuffled-batches")
    assert reused.verdict == "deviates"
    assert all(r.verdict == "deviates" for r in reused.instances)
    assert _run(recipes.fixed_size_recipe, "shuffled-batches").verdict == "deviates"


@pytest.mark.parametrize("name", ["poisson-batches", "fixed-size-batches", "shuffled-batches"])
def test_references_conform_at_the_default_resolution(name: str) -> None:
    """dpspec's own sampler conforms with power >= 0.99 on every instance; its deviation (odds
    × 1.1, b + 1, a fresh subset per batch) is flagged."""
    result = conform(reference(name, **SMALL[name]), name, **SMALL[name])
    assert result.conforms and min(r.power for r in result.instances) >= 0.99
    algo = catalogue()[name]
    bug = algo._reference(algo._resolve(dict(SMALL[name])), 1.1)
    assert conform(bug, name, **SMALL[name]).verdict == "deviates"


@pytest.mark.parametrize("name", ["poisson-batches", "fixed-size-batches", "shuffled-batches"])
def test_joint_laws_equal_the_closed_forms_everywhere(name: str) -> None:
    """On every one of the 2^{n·steps} epochs of each tiny instance (off the table too)."""
    algo = catalogue()[name]
    for inst in algo._instances(algo._resolve(dict(SMALL[name]))):
        n, r, steps, kind = inst.data[:4]
        if kind != JOINT:
            continue
        table = dict(zip(inst.law.encode.args[0], inst.law.exact or (), strict=True))
        total = Fraction(0)
        for code in range(1 << (n * steps)):
            p = recipes.closed_form(name, n, r, steps, code)
            assert table.get(code, Fraction(0)) == p, (inst.label, code)
            total += p
        assert total == 1


def test_statistics_laws_by_enumeration() -> None:
    """The realistic statistics' laws on small n against brute force: the records in two or
    more steps (Poisson) and the overlaps of consecutive fixed-size batches."""
    algo = catalogue()["poisson-batches"]
    n, q, steps = 6, 0.375, 3
    inst = next(
        i
        for i in algo._instances(algo._resolve({"n": n, "q": q, "steps": steps}))
        if i.data[3] == REPEATED
    )
    qq = Fraction(q)
    twice = 1 - (1 - qq) ** steps - steps * qq * (1 - qq) ** (steps - 1)
    expected = [math.comb(n, k) * twice**k * (1 - twice) ** (n - k) for k in range(n + 1)]
    got = {
        lab: p
        for lab, p in zip(inst.law.labels, inst.law.probs, strict=True)
        if isinstance(lab, int)
    }
    for k, p in got.items():
        assert abs(p - float(expected[k])) < 1e-12
    fixed = catalogue()["fixed-size-batches"]
    n, b, steps = 6, 2, 3
    inst = next(
        i
        for i in fixed._instances(fixed._resolve({"n": n, "b": b, "steps": steps}))
        if i.data[3] == OVERLAP
    )
    subsets = list(combinations(range(n), b))
    counts: dict[int, int] = {}
    for chain in product(subsets, repeat=steps):
        k = sum(len(set(a) & set(c)) for a, c in pairwise(chain))
        counts[k] = counts.get(k, 0) + 1
    total = len(subsets) ** steps
    got = {
        lab: p
        for lab, p in zip(inst.law.labels, inst.law.probs, strict=True)
        if isinstance(lab, int)
    }
    for k, p in got.items():
        assert abs(p - counts.get(k, 0) / total) < 1e-12


def test_malformed_epochs_are_reported() -> None:
    """Duplicates in a batch, records out of range and a wrong number of batches are
    impossible epochs (the run deviates and says how many); so is the wrong membership array of
    a vectorised target."""

    def duplicated(n: int, q: float, steps: int, rng: np.random.Generator) -> list[Any]:
        return [np.array([0, 0]), *recipes.poisson_recipe(n, q, steps - 1, rng)]

    def short(n: int, q: float, steps: int, rng: np.random.Generator) -> list[Any]:
        return recipes.poisson_recipe(n, q, steps - 1, rng)

    def outside(n: int, q: float, steps: int, rng: np.random.Generator) -> list[Any]:
        return [np.flatnonzero(rng.random(n) < q) + 1 for _ in range(steps)]

    def wrong_shape(n: int, q: float, steps: int, count: int, rng: np.random.Generator) -> Any:
        return rng.random((count, n)) < q

    for target in (duplicated, short, outside, wrong_shape):
        result = _run(target, "poisson-batches")
        assert result.verdict == "deviates"
        first = result.instances[0]
        assert first.fit.impossible > 0
        assert not first.guarantees[0]["holds"]


def test_boundary_probes() -> None:
    """Poisson at q = 0 and q = 1, fixed size at b = n, shuffling at b = n and b = 1 are
    deterministic: a sampler that caps q below 1 breaks the q = 1 probe."""

    def capped(n: int, q: float, steps: int, rng: np.random.Generator) -> list[Any]:
        return recipes.poisson_recipe(n, min(q, 0.99), steps, rng)

    result = _run(capped, "poisson-batches")
    probes = {g["guarantee"]: g["holds"] for g in result.instances[0].guarantees}
    assert probes["q = 1: every batch holds all n records"] is False
    assert probes["q = 0: every batch is empty"] is True
    assert result.verdict == "deviates"
    ok = _run(recipes.shuffle_recipe, "shuffled-batches")
    assert (
        all(g["holds"] for g in ok.instances[0].guarantees) and len(ok.instances[0].guarantees) == 4
    )


def test_the_instances_cover_the_boundaries() -> None:
    """q near 0 and 1 and one step (Poisson), b = 1 and b = n − 1 and one step (fixed size),
    b = 1 and b = n/2 (shuffling), each a full joint law."""
    tiny = {
        name: [
            i.data[:3] for i in a._instances(a._resolve(dict(SMALL[name]))) if i.data[3] == JOINT
        ]
        for name, a in catalogue().items()
        if name in SMALL
    }
    qs = [q for _, q, _ in tiny["poisson-batches"]]
    assert min(qs) <= 0.125 and max(qs) >= 0.875
    assert any(steps == 1 for _, _, steps in tiny["poisson-batches"])
    assert {(n, b) for n, b, _ in tiny["fixed-size-batches"]} >= {(3, 1), (4, 3)}
    assert any(steps == 1 for _, _, steps in tiny["fixed-size-batches"])
    assert {b for _, b, _ in tiny["shuffled-batches"]} >= {1, 2}


def test_vectorised_and_object_targets() -> None:
    """The membership form f(n, rate, steps, count, rng) and a sampler object's bound method."""
    assert _run(poisson_membership, "poisson-batches").conforms

    class Sampler:
        def batches(self, n: int, b: int, steps: int, rng: np.random.Generator) -> list[Any]:
            return fixed_size_batches(n, b, steps, rng)

    assert _run(Sampler().batches, "fixed-size-batches").conforms
    assert _run(shuffled_batches, "shuffled-batches").conforms
    assert _run(poisson_batches, "poisson-batches").conforms


def test_arguments_are_refused_with_their_name() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="rate"):
        poisson_batches(5, 1.5, 2, rng)
    with pytest.raises(ValueError, match="size"):
        fixed_size_batches(5, 6, 2, rng)
    with pytest.raises(ValueError, match="size"):
        shuffled_membership(6, 4, 2, 1, rng)
    with pytest.raises(TypeError, match="rng"):
        fixed_size_membership(5, 2, 2, 1, 42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="count"):
        poisson_membership(2**20, 0.5, 2**10, 2**10, rng)
    with pytest.raises(ValueError, match="q"):
        plan(recipes.poisson_recipe, "poisson-batches", q=1.0)
    with pytest.raises(ValueError, match="b"):
        plan(recipes.fixed_size_recipe, "fixed-size-batches", n=10, b=10)
    with pytest.raises(ValueError, match="b"):
        plan(recipes.shuffle_recipe, "shuffled-batches", n=10, b=3)
    with pytest.raises(TypeError, match="target"):
        plan(lambda n: n, "poisson-batches")


def test_reference_samplers_have_the_stated_shape() -> None:
    rng = np.random.default_rng(1)
    batches = shuffled_batches(12, 3, 9, rng)
    assert len(batches) == 9 and all(b.size == 3 for b in batches)
    for e in range(2):
        assert sorted(np.concatenate(batches[4 * e : 4 * e + 4]).tolist()) == list(range(12))
    assert all(b.size == 4 for b in fixed_size_batches(10, 4, 5, rng))
    assert [b.size for b in poisson_batches(7, 1.0, 3, rng)] == [7, 7, 7]
    assert [b.size for b in poisson_batches(7, 0.0, 3, rng)] == [0, 0, 0]
