"""The registry's checks pass, and the exact verifiers catch broken mechanisms."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dpspec.proofs import verifiers
from dpspec.proofs.registry import Method, VerifyConfig, obligations
from dpspec.spec.neighbours import Relation

RUNNABLE = [ob for ob in obligations() if ob.check is not None and ob.method != Method.CROSSHAIR]


@pytest.mark.parametrize("ob", RUNNABLE, ids=[ob.id for ob in RUNNABLE])
def test_registry_checks_pass(ob):  # type: ignore[no-untyped-def]
    assert ob.check is not None
    outcome = ob.check(VerifyConfig())
    assert outcome.passed, outcome.detail


def test_exponential_without_half_is_caught() -> None:
    """Erratum E-002-L655: the printed weights exp(ε s) violate ε-DP on a concrete pair."""
    printed = verifiers.verify_exponential(Fraction(1, 2), half=False, max_size=3)
    assert not printed.holds
    assert printed.worst_ratio == Fraction(25, 7)
    assert printed.claimed_ratio == 2
    a, b = printed.worst_pair or ((), ())
    assert a == ((0, 0), (0, 0), (0, 0)) and b == ((0, 0), (0, 0), (0, 1))
    corrected = verifiers.verify_exponential(Fraction(1, 2), half=True, max_size=3)
    assert corrected.holds and corrected.claimed_ratio == 4


def test_discrete_laplace_mutant_is_caught() -> None:
    bad = verifiers.verify_discrete_laplace_mutant(Fraction(1, 2), 3)
    assert not bad.holds
    assert bad.worst_ratio == 4  # sensitivity 2 with a base-1/2 noise: ratio q^-2


def test_discrete_laplace_is_tight() -> None:
    """The worst ratio equals the claim exactly: the verifier is not loose."""
    good = verifiers.verify_discrete_laplace_count(Fraction(2, 3), 4, Relation.ADD_REMOVE)
    assert good.holds and good.worst_ratio == Fraction(3, 2)


def test_noisy_majority_add_remove_is_half_epsilon() -> None:
    """Centred-vote sensitivity ½ under add/remove: ratio ≤ e^{ε/2} (= 2 for base 1/2)."""
    rep = verifiers.verify_noisy_majority(Fraction(1, 2), 2, 3, Relation.ADD_REMOVE)
    assert rep.worst_ratio == 2
    sub = verifiers.verify_noisy_majority(Fraction(1, 2), 2, 3, Relation.SUBSTITUTE)
    assert sub.worst_ratio == 4


def test_stability_histogram_delta_is_exact_and_below_claim() -> None:
    rep = verifiers.verify_stability_histogram(Fraction(1, 2), Fraction(1, 100), 2, 3)
    assert rep.holds
    assert rep.worst_ratio == float("inf")  # a cell appearing: pure DP is impossible
    assert 0 < rep.worst_delta <= Fraction(1, 100)
    assert isinstance(rep.worst_delta, Fraction)


def test_laplace_lattice_mutant_is_caught() -> None:
    bad = verifiers.verify_laplace_lattice((0.0, 1.0), 3, 0.5, query_scale=2.0)
    assert not bad.holds
