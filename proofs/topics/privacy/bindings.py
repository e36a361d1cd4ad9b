"""Binding of the sensitivity lemmas to the code that counts: cell counts, PCL's votes and
predictions equal the spec functions the lemmas reason about.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import strategies as st
from numpy.typing import NDArray

from dpspec.learners.pcl import PrivateHistogramClassifier
from dpspec.mechanisms.stability_histogram import StabilityHistogram
from dpspec.proofs.engine.bindings import Case, differential
from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.registry import CheckOutcome, Method, Obligation, VerifyConfig
from dpspec.proofs.engine.seeds import BAYES_CONSISTENCY
from dpspec.proofs.topics.privacy.lemmas import pushforward
from dpspec.spec.sensitivity import centred_votes, count, histogram


def _equals(j: int) -> Callable[[int], bool]:
    return lambda r: r == j


def _compare_counts(case: Case, released_by: Callable[[int], Any]) -> str | None:
    """``released_by(bins)``: the ``StabilityHistogram`` whose ``counts`` are compared."""
    from dpspec.mechanisms.machinery import cell_counts as _cell_counts
    from dpspec.spec.sensitivity import count, histogram

    data, bins = case["data"], case["bins"]
    if not data:
        return None
    ids, counts = _cell_counts(np.asarray(data, dtype=np.int64))
    dense = [0] * bins
    for i, c in zip(ids.tolist(), counts.tolist(), strict=True):
        dense[i] = c
    spec_hist = list(histogram(data, bins))
    if dense != spec_hist:
        return f"impl counts {dense} != spec histogram {spec_hist}"
    per_bin = [count(data, _equals(j)) for j in range(bins)]
    if per_bin != spec_hist:
        return f"spec count {per_bin} != spec histogram {spec_hist}"
    # the counts StabilityHistogram.sample releases (the finite-bins path)
    released = released_by(bins).counts(np.asarray(data, dtype=np.int64))
    if released.tolist() != spec_hist:
        return f"StabilityHistogram.counts {released.tolist()} != spec histogram {spec_hist}"
    return None


def _compare_votes(case: Case) -> str | None:
    from dpspec.learners.pcl import PrivateHistogramClassifier, cube_index
    from dpspec.proofs.topics.privacy.lemmas import pushforward
    from dpspec.spec.sensitivity import centred_votes

    m, cells_, labels = case["m"], case["cells"], case["labels"]
    # one point at the centre of each chosen cube of [0, 1] split into m cubes
    X = ((np.asarray(cells_, dtype=np.float64) + 0.5) / m).reshape(-1, 1)
    y = np.asarray(labels, dtype=np.int64)
    clf = PrivateHistogramClassifier(
        epsilon=1.0, cells_per_axis=m, random_state=case.get("seed", 0)
    )
    seen: list[tuple[NDArray[np.int64], NDArray[np.int64]]] = []
    original = clf._bits

    def spy(cells: NDArray[np.int64], margins: NDArray[np.int64]) -> NDArray[np.bool_]:
        seen.append((np.asarray(cells).copy(), np.asarray(margins).copy()))
        return original(cells, margins)

    clf._bits = spy  # type: ignore[method-assign]
    try:
        clf.fit(X, y)
    except ValueError as exc:
        return None if len(set(labels)) < 2 else f"fit raised {exc}"
    if not seen:
        return "fit never computed margins"
    votes = centred_votes(list(zip(cells_, labels, strict=True)), m)
    for cells, margins in seen:
        for c, mc in zip(cells.tolist(), margins.tolist(), strict=True):
            if Fraction(mc) != 2 * votes[c]:
                return f"cube {c}: fit's margin {mc} != 2 * centred vote {votes[c]}"
    # Post-processing: predict is a deterministic map g of the released grid of bits. Its law
    # is the lemma's pushforward of the grid's law (here the point mass of this run's grid).
    grid = tuple(int(b) for b in clf.grid_labels().reshape(-1))
    T = np.asarray(case["test"], dtype=np.float64).reshape(-1, 1)
    predicted = clf.predict(T)
    classes = [int(c) for c in clf.classes_]
    for k, cube in enumerate(cube_index(T, m).tolist()):

        def g(released: tuple[int, ...], c: int = cube) -> int:
            return classes[released[c]]

        law = pushforward({grid: Fraction(1)}, g)
        if law != {predicted[k].item(): Fraction(1)}:
            return f"predict({case['test'][k]}) = {predicted[k]}: not the bit of cube {cube}"
    return None


def _reduce_counts(c: dict[str, Any]) -> Case:
    return {**c, "data": tuple(r % c["bins"] for r in c["data"])}


def _reduce_votes(c: dict[str, Any]) -> Case:
    return {
        "kind": "votes",
        "m": c["m"],
        "cells": tuple(r[0] % c["m"] for r in c["records"]),
        "labels": tuple(r[1] for r in c["records"]),
        "test": c["test"],
        "seed": c["seed"],
    }


@Obligation(
    id="privacy.sensitivity.counts-binding",
    source=(
        f"{BAYES_CONSISTENCY}:L117, L125-147, L206 (counts, histograms, PCL votes, post-processing)"
    ),
    claim=(
        "impl cell counts == spec histogram/count; PCL fit's margins == 2 x spec "
        "centred_votes; PCL predict == pushforward of the released bits"
    ),
    method=Method.PROPERTY,
    predicates=(histogram, count, centred_votes, pushforward),
    impls=(
        "dpspec.mechanisms.stability_histogram._cell_counts",
        StabilityHistogram.counts,
        PrivateHistogramClassifier.fit,
        "dpspec.learners.pcl.PrivateHistogramClassifier._margins",
        PrivateHistogramClassifier.predict,
    ),
    tests=("tests/test_lemma_bindings.py::test_binding_checks_catch_a_broken_rule",),
    bug_controls=(
        BugControl(
            "dpspec.learners.pcl.PrivateHistogramClassifier._margins",
            "return cells, ones[cells] - zeros[cells]",
            "return cells, ones[cells] - zeros[cells] + 1",
            "PCL's margins off by one",
        ),
        BugControl(
            "dpspec.mechanisms.stability_histogram._cell_counts",
            "return_counts=True)",
            "return_counts=True); counts = np.minimum(counts, 2)",
            "cell counts capped at 2",
        ),
        BugControl(
            StabilityHistogram.counts,
            "minlength=self.bins)",
            "minlength=self.bins) - (arr.size > 2)",
            "the finite-bins counts one short on datasets of 3 or more records",
        ),
    ),
)
def counts_binding(config: VerifyConfig) -> CheckOutcome:
    """The implementation's counting (``np.unique`` counts of the stability histogram on
    unbounded cell ids, and ``StabilityHistogram.counts`` on its finite bins, the counts
    ``sample`` releases) equals
    :func:`dpspec.spec.sensitivity.histogram` / ``count``; the margins PCL's ``fit`` feeds its
    noise step equal 2 × :func:`dpspec.spec.sensitivity.centred_votes`; and PCL's ``predict``
    is a deterministic map of the released bits (the post-processing lemma's hypothesis): each
    prediction is the lemma's :func:`pushforward` of the released grid through "class of the
    bit of x's cube"."""
    boundaries: list[Case] = [
        {"kind": "counts", "data": (0,), "bins": 1},
        {"kind": "counts", "data": (3, 3, 3), "bins": 4},
        {"kind": "counts", "data": (0, 3), "bins": 4},
        {"kind": "votes", "m": 1, "cells": (0, 0), "labels": (0, 1), "test": (0.0, 1.0)},  # tie
        {"kind": "votes", "m": 2, "cells": (1, 1), "labels": (1, 0), "test": (0.5, 0.4999)},
        {"kind": "votes", "m": 40, "cells": (0, 39), "labels": (0, 1), "test": (0.0, 0.99)},
        {"kind": "votes", "m": 2, "cells": (0, 1, 1, 1), "labels": (1, 0, 0, 1), "test": (1.0,)},
    ]
    # flat strategies (cheap to generate); cells and bins are reduced modulo the drawn size
    counts = st.fixed_dictionaries(
        {
            "kind": st.just("counts"),
            "bins": st.integers(1, 5),
            "data": st.lists(st.integers(0, 59), min_size=1, max_size=12).map(tuple),
        }
    ).map(_reduce_counts)
    records = st.lists(st.tuples(st.integers(0, 59), st.integers(0, 1)), min_size=2, max_size=12)
    votes = st.fixed_dictionaries(
        {
            "kind": st.just("votes"),
            "m": st.sampled_from([1, 2, 3, 7, 60]),
            "records": records,
            "test": st.lists(st.floats(0.0, 1.0), min_size=1, max_size=4).map(tuple),
            "seed": st.integers(0, 2**16),
        }
    ).map(_reduce_votes)

    from dpspec.mechanisms.stability_histogram import StabilityHistogram

    histograms: dict[int, StabilityHistogram] = {}  # one per bins for this run of the check

    def released_by(bins: int) -> StabilityHistogram:
        if bins not in histograms:
            histograms[bins] = StabilityHistogram(bins, 1.0, 1e-3)
        return histograms[bins]

    def compare(case: Case) -> str | None:
        if case["kind"] == "counts":
            return _compare_counts(case, released_by)
        return _compare_votes(case)

    return differential(config, boundaries, st.one_of(counts, votes), compare)
