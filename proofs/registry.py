"""The registry: every theorem/lemma dpspec implements, linked to spec, impl, proof method, tests.

An :class:`Obligation` names where a claim comes from (seed file, theorem/algorithm, line), the
claim in one line, the spec predicate(s) that state it, the impl function(s) it is about, how
it is discharged and the tests that exercise it. ``dpspec verify`` runs each obligation's
``check``; ``tests/test_registry.py`` fails when an impl module or public algorithm has no
entry or an entry names code or tests that do not exist.

Discharge methods:

* ``crosshair`` — a pure-Python lemma whose contract CrossHair confirms over all paths;
* ``exact`` — exact enumeration of neighbouring datasets with rational output laws;
* ``property`` — a property checked on many generated instances (Hypothesis / fixed seed);
* ``statistical`` — a hypothesis test with a stated false-alarm probability and a negative
  control that must be rejected;
* ``documented`` — existential or asymptotic statement: nothing to run, the proof note says why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Method(StrEnum):
    CROSSHAIR = "crosshair"
    EXACT = "exact"
    PROPERTY = "property"
    STATISTICAL = "statistical"
    DOCUMENTED = "documented"


@dataclass(frozen=True)
class VerifyConfig:
    """Knobs for ``dpspec verify``: ``thorough`` enlarges instance sizes and sample counts."""

    thorough: bool = False
    crosshair_timeout: float = 20.0


@dataclass
class CheckOutcome:
    """What one check found: pass/fail, a one-line detail, and the numbers behind it."""

    passed: bool
    detail: str
    numbers: dict[str, Any] = field(default_factory=dict)


Check = Callable[[VerifyConfig], CheckOutcome]


@dataclass(frozen=True)
class Obligation:
    """One registered guarantee.

    ``source``: seed file and line(s) plus the theorem/algorithm name, e.g.
    ``"000_dff3c4dc97cf0e21.txt:L125-147 (Alg 1, Thm 2.4)"``. ``predicates`` and ``impls`` are
    dotted names under ``dpspec.spec`` / ``dpspec`` (``dpspec.proofs`` for lemmas);
    ``tests`` are pytest node ids ``tests/test_x.py::test_name``.

    ``entry_points``: the public callables a user calls whose behaviour the check exercises
    (dotted names, e.g. ``dpspec.learners.pcl.PrivateHistogramClassifier.fit``); every
    privacy obligation (``privacy=True``) must name at least one, and the registry meta-test
    runs the check and fails when one of them is never called. ``binding`` says, for a lemma or
    a law function, how it is tied to the code that runs: ``"called by <dotted impl name>"``
    or ``"differential: <obligation id>"``.
    """

    id: str
    source: str
    claim: str
    predicates: tuple[str, ...]
    impls: tuple[str, ...]
    method: Method
    tests: tuple[str, ...]
    check: Check | None = None
    note: str = ""
    entry_points: tuple[str, ...] = ()
    privacy: bool = False
    binding: str = ""


@dataclass(frozen=True)
class Erratum:
    """A statement of a seed that is false as printed, with the test that exhibits it.

    ``obligation`` is the id of the registered obligation whose check exhibits it.
    """

    id: str
    source: str
    printed: str
    corrected: str
    counterexample: str
    tests: tuple[str, ...]
    obligation: str


def all_of(*checks: Check) -> Check:
    """One check that passes when every one of ``checks`` passes (e.g. the exact privacy of a
    law and the conformance of the entry point that samples it); details are joined and the
    numbers kept per part under the part's function name."""

    def run(config: VerifyConfig) -> CheckOutcome:
        parts = [(c.__name__, c(config)) for c in checks]
        return CheckOutcome(
            all(o.passed for _, o in parts),
            " | ".join(f"[{name}] {o.detail}" for name, o in parts),
            {name: o.numbers for name, o in parts},
        )

    run.__name__ = "+".join(c.__name__ for c in checks)
    return run


def _load() -> tuple[Obligation, ...]:
    from dpspec.proofs.obligations import OBLIGATIONS

    return OBLIGATIONS


def obligations() -> tuple[Obligation, ...]:
    """All registered obligations, in registry order."""
    return _load()


def by_id(obligation_id: str) -> Obligation:
    for ob in _load():
        if ob.id == obligation_id:
            return ob
    raise ValueError(f"obligation_id: no obligation {obligation_id!r}")
