"""The registry's checks pass, and the exact verifiers catch broken mechanisms."""

from __future__ import annotations

import inspect
import sys
from fractions import Fraction
from types import CodeType, FrameType

import pytest

from dpspec.proofs.engine.registry import (
    CheckOutcome,
    Method,
    Obligation,
    VerifyConfig,
    obligations,
)
from dpspec.proofs.engine.verify import check_of
from dpspec.proofs.topics.mechanisms import verifiers
from dpspec.spec.neighbours import Relation
from tests.test_registry import _resolve

RUNNABLE = [ob for ob in obligations() if ob.runs and ob.method != Method.CROSSHAIR]


def _code(dotted: str) -> CodeType | None:
    """The code object a call of ``dotted`` runs (None for classes, constants)."""
    obj = inspect.unwrap(_resolve(dotted))  # type: ignore[arg-type]
    code = getattr(obj, "__code__", None)
    return code if isinstance(code, CodeType) else None


def run_traced(ob: Obligation) -> tuple[CheckOutcome, set[str], set[str]]:
    """Run the check of ``ob`` and record which of its named predicates and entry points were called
    (a profiler that stops itself once every target has been seen)."""
    check = check_of(ob)
    assert check is not None
    targets: dict[CodeType, str] = {}
    for name in (*ob.predicates, *ob.entry_points):
        code = _code(name)
        if code is not None:
            targets[code] = name
    seen: set[str] = set()

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and frame.f_code in targets:
            seen.add(targets[frame.f_code])
            if len(seen) == len(targets):
                sys.setprofile(None)

    sys.setprofile(profile if targets else None)
    try:
        outcome = check(VerifyConfig())
    finally:
        sys.setprofile(None)
    return outcome, set(targets.values()), seen


def test_no_named_predicate_or_entry_point_is_cached() -> None:
    """A named predicate or entry point behind a cache (``functools.cache``/``lru_cache``)
    would not be entered on a cache hit: whether the tracer below sees it called would depend
    on what ran earlier in the process. Cache a private helper the named function calls."""
    cached = [
        f"{ob.id}: {name}"
        for ob in RUNNABLE
        for name in (*ob.predicates, *ob.entry_points)
        if hasattr(_resolve(name), "cache_info")
    ]
    assert not cached, cached


@pytest.mark.parametrize("ob", RUNNABLE, ids=[ob.id for ob in RUNNABLE])
def test_registry_checks_pass(ob):  # type: ignore[no-untyped-def]
    """Each check passes, and calls every predicate its entry names (the named predicate is
    what decides) and every entry point it names (the code a user calls is exercised)."""
    outcome, targets, seen = run_traced(ob)
    assert outcome.passed, outcome.detail
    assert targets <= seen, f"{ob.id}: named but never called: {sorted(targets - seen)}"


def test_exponential_without_half_is_caught() -> None:
    """Erratum ``mechanisms.erratum.thesis-L655-exponential-half``: the printed weights exp(ε s)
    violate ε-DP on a concrete pair."""
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
