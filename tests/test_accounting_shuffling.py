"""Tests of ``dpspec.accounting.shuffling``: the certified interval of shuffled fixed batches of
the Gaussian mechanism.

Expected values are computed independently of the code under test: the Gaussian curve and its
ε by bisection (``dpspec.spec.accounting``, math.erfc), the max statistic's closed-form law, and
the Poisson upper bound of the sampled Gaussian's RDP written in the spec. Nothing is random.
"""

from __future__ import annotations

import itertools
import math
import time

import numpy as np
import pytest

from dpspec.accounting import (
    Bracket,
    max_cells,
    shuffled_gaussian_delta,
    shuffled_gaussian_epsilon,
    shuffling,
)
from dpspec.proofs.engine.registry import VerifyConfig, by_id
from dpspec.proofs.engine.verify import check_of
from dpspec.spec import accounting as stated


@pytest.mark.parametrize("relation", ["zero-out", "substitution"])
@pytest.mark.parametrize(("noise", "batches"), [(1.0, 1), (0.5, 2), (2.0, 1000)])
def test_cells_are_laws(noise: float, batches: int, relation: str) -> None:
    """The cell brackets are ordered, within [0, 1], and their sums enclose 1 for both laws."""
    cells = max_cells(noise, batches, relation)
    assert np.all(np.diff(cells.edges) > 0)
    assert cells.p_lo.size == cells.edges.size + 1
    for lo, hi in ((cells.p_lo, cells.p_hi), (cells.q_lo, cells.q_hi)):
        assert np.all(lo >= 0) and np.all(hi <= 1) and np.all(lo <= hi)
        assert float(np.sum(lo)) <= 1.0 <= float(np.sum(hi))


def test_the_upper_bound_is_unamplified() -> None:
    """ε_hi is the Gaussian mechanism's ε at μ = Δ√E/σ, whatever the number of batches; the δ
    bracket's upper end is the closed form's δ (never below, within 1e-9)."""
    for relation, sensitivity in (("zero-out", 1.0), ("substitution", 2.0)):
        for batches in (2, 1000):
            mu = sensitivity * math.sqrt(3) / 2.0
            hi = float(shuffled_gaussian_epsilon(2.0, batches, 3, 1e-4, relation).hi)
            expected = stated.gaussian_epsilon(1e-4, mu)
            assert 0 <= hi - expected <= 1e-9
            d = float(shuffled_gaussian_delta(2.0, batches, 3, 1.0, relation).hi)
            assert 0 <= d - stated.gaussian_delta(1.0, mu) <= 1e-9 * d


def test_one_batch_is_the_gaussian_mechanism() -> None:
    """T = 1 (the full batch, every step sees the record): the lower bound meets the upper one
    to the grid's resolution (the max statistic is the step itself)."""
    for epochs in (1, 4):
        bracket = shuffled_gaussian_epsilon(1.0, 1, epochs, 1e-5)
        assert bracket.lo <= bracket.hi
        assert float(bracket.hi - bracket.lo) < 2e-3 * epochs


def test_shuffling_exceeds_poisson() -> None:
    """σ = 1, T = 100, δ = 10^-5, E = 1..10 epochs: ε_lo(shuffle) exceeds an upper bound on the
    Poisson-subsampled value at q = 1/T (the spec's RDP bound), by more than 2×."""
    for epochs in (1, 2, 5, 10):
        lo = float(shuffled_gaussian_epsilon(1.0, 100, epochs, 1e-5).lo)
        poisson = stated.poisson_gaussian_epsilon_upper(0.01, 1.0, 100 * epochs, 1e-5)
        assert lo > 2 * poisson, (epochs, lo, poisson)


def test_brackets_are_consistent() -> None:
    """The δ bracket is decreasing in ε; the ε bracket's ends sit on the right sides of δ:
    δ_lo(ε_lo) > δ (ε_lo is certified below) and δ_hi(ε_hi) ≤ δ."""
    levels = (0.0, 0.5, 1.0, 2.0, 4.0)
    brackets = [shuffled_gaussian_delta(0.8, 20, 3, eps) for eps in levels]
    for b in brackets:
        assert 0 <= b.lo <= b.hi <= 1
    assert all(a.lo >= b.lo and a.hi >= b.hi for a, b in itertools.pairwise(brackets))
    eps = shuffled_gaussian_epsilon(0.8, 20, 3, 1e-3)
    assert shuffled_gaussian_delta(0.8, 20, 3, float(eps.lo)).lo > 1e-3
    assert shuffled_gaussian_delta(0.8, 20, 3, float(eps.hi)).hi <= 1e-3
    assert isinstance(eps, Bracket)


def test_more_epochs_more_epsilon() -> None:
    """Both ends grow with the epochs (a composition of more copies)."""
    found = [shuffled_gaussian_epsilon(1.0, 10, e, 1e-5) for e in (1, 2, 4)]
    assert all(a.lo < b.lo and a.hi < b.hi for a, b in itertools.pairwise(found))


def test_refusals_name_the_parameter() -> None:
    """Bad arguments are refused naming the parameter; an epoch count past the limit is refused
    before any work, stating the estimate and the limit."""
    with pytest.raises(ValueError, match="noise"):
        shuffled_gaussian_epsilon(0.0, 10, 1, 1e-5)
    with pytest.raises(ValueError, match="batches"):
        shuffled_gaussian_epsilon(1.0, 0, 1, 1e-5)
    with pytest.raises(ValueError, match="delta"):
        shuffled_gaussian_epsilon(1.0, 10, 1, 0.0)
    with pytest.raises(ValueError, match="relation"):
        shuffled_gaussian_delta(1.0, 10, 1, 1.0, "add")
    start = time.process_time()
    with pytest.raises(ValueError, match=r"epochs: the request needs .* the limit is"):
        shuffled_gaussian_epsilon(1.0, 10, 10**6, 1e-5)
    assert time.process_time() - start < 0.05


def test_the_limit_is_what_finishes() -> None:
    """The largest epoch count the limit admits at the largest grid is the stated 525."""
    top = 2 * round(shuffling.pld.LOSS_CAP / shuffling.pld.GRID) + 1
    admitted = max(
        e
        for e in range(1, 2000)
        if sum(shuffling._convolved_entries(top, e)) <= shuffling.MAX_ENTRIES
    )
    assert 400 <= admitted <= 600


@pytest.mark.parametrize(
    "obligation",
    [
        "accounting.shuffled-upper-mu-composition",
        "accounting.shuffled-lower-below-true",
        "accounting.shuffled-exceeds-poisson",
    ],
)
def test_the_checks_pass(obligation: str) -> None:
    """Each obligation's check passes at the default configuration."""
    check = check_of(by_id(obligation))
    assert check is not None
    outcome = check(VerifyConfig())
    assert outcome.passed, outcome.detail
