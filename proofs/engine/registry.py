"""The registry: every theorem dpspec implements, linked to spec, impl, proof method and tests.

An :class:`Obligation` names where a claim comes from (seed file, line, theorem), the claim in
one line, the spec predicate(s) that state it, the code it is about, how it is discharged and
the tests that exercise it. ``dpspec verify`` runs each obligation's checks.

**Topics.** Obligations live in topic packages, one per guarantee family:
``dpspec.proofs.topics.<family>`` with

* ``checks.py`` (and further modules) — the functions ``check(config: VerifyConfig) ->
  CheckOutcome``, each with the obligation(s) it discharges declared on it
  (``@Obligation(...)``);
* ``obligations.py`` — ``OBLIGATIONS``: the entries without a check (documented statements,
  and those proven by their CrossHair lemmas alone);
* ``lemmas.py`` — CrossHair lemmas (pure Python, PEP 316 contracts), found by ``dpspec prove``;
* ``errata.py`` — ``ERRATA: tuple[Erratum, ...]``, statements of the seeds false as printed;
* ``mutants.py`` — ``MUTANTS: tuple[Mutant, ...]``, privacy bugs ``dpspec mutate`` plants;
* ``note.md`` — the proof note.

The registry discovers the packages and imports every module of each: nothing outside a
topic's folder lists it, and an entry links its parts as objects. The fast commands
(``dpspec list``, ``errata``) read the committed index instead (:mod:`dpspec.proofs.engine.index`).

**Ids.** One scheme, ``<topic>.<subject>.<claim>`` in lower case with hyphens
(``mechanisms.stability-histogram.privacy``, ``compression.erratum.thesis-lemma-4.1.3``): an id
starts with its topic's folder name (``_`` written ``-``: ``cover-learners.a1.privacy``), then
names the algorithm or notion the claim is about, omitted when it is the topic
(``pcl.privacy``). The ids of 0.1 and 0.2 still resolve
(:mod:`dpspec.proofs.engine.legacy_ids`). The citation is data: ``source`` reads
``<seed file>:L<line>[-<line>] (<theorem>)``, several joined by ``"; "`` (:attr:`citations`).

Discharge methods:

* ``crosshair`` — a pure-Python lemma whose contract CrossHair confirms over all paths;
* ``exact`` — exact enumeration of neighbouring datasets with rational output laws;
* ``property`` — a property checked on many generated instances (Hypothesis / fixed seed);
* ``statistical`` — a hypothesis test with a stated false-alarm probability and a negative
  control that must be rejected;
* ``documented`` — existential or asymptotic statement: nothing to run, the proof note says why.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import math
import pkgutil
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from dpspec.proofs.engine.controls import BugControl
from dpspec.proofs.engine.links import dotted_name


class Kind(StrEnum):
    """What a running check can show.

    * ``discriminating`` — the check reports at least one :class:`Control`, a plausible bug of
      the implementation that violates the guarantee by a modest margin (noise for ε × 1.25, a
      bound understated 2×, a boundary off by one), and it must reject every one of them;
    * ``demonstration`` — an instance of a theorem that holds with no claim to catch bugs (a
      packing inequality loose by nature); :attr:`Obligation.reason` says why it cannot
      discriminate;
    * ``documented`` — nothing runs (existential or asymptotic statements).
    """

    DISCRIMINATING = "discriminating"
    DEMONSTRATION = "demonstration"
    DOCUMENTED = "documented"


class Method(StrEnum):
    CROSSHAIR = "crosshair"
    EXACT = "exact"
    PROPERTY = "property"
    STATISTICAL = "statistical"
    DOCUMENTED = "documented"


#: CrossHair's CPU budget per condition, in seconds (``dpspec prove --timeout``,
#: ``dpspec verify --crosshair-timeout``): every lemma condition needs at most a fifth of it.
CROSSHAIR_BUDGET = 40.0


@dataclass(frozen=True)
class VerifyConfig:
    """Knobs for ``dpspec verify``: ``thorough`` enlarges instance sizes and sample counts;
    ``under_control`` is set while a bug control is planted (only the verdict counts then: a
    check may stop at its first failure and skip its own controls)."""

    thorough: bool = False
    crosshair_timeout: float = CROSSHAIR_BUDGET
    under_control: bool = False


@dataclass(frozen=True)
class Control:
    """A plausible bug of the code under check, run through the same check.

    ``bug`` says what is wrong and by how much (``"noise drawn for ε × 1.25"``); ``caught`` is
    True when the check's predicate rejected it (the check fails on the bug, as it must);
    ``measured`` is what the check saw on it (``"worst ratio 3.49 > e^1"``).
    """

    bug: str
    caught: bool
    measured: str = ""


@dataclass(frozen=True)
class Slack:
    """The claim against what was measured, on the claim's natural scale.

    ``quantity`` names the scale (``"ε"``, ``"δ"``, ``"P(error > α)"``, ``"bound"``); both
    numbers are on it and :attr:`ratio` = claim / measured (≥ 1 when an upper-bound claim holds;
    ``inf`` when nothing was measured above 0). A ratio close to 1 means the instance is tight:
    a modest bug crosses the claim. ``bracket``: an audit's [ε_lower, ε_upper] (statistical,
    replay) where the check ran one, shown beside the slack by ``dpspec report``.
    """

    quantity: str
    claim: float
    measured: float
    bracket: tuple[float, float] | None = None

    @property
    def ratio(self) -> float:
        if self.measured == 0:
            return math.inf if self.claim > 0 else 1.0
        return float(self.claim) / float(self.measured)

    def to_json(self) -> dict[str, Any]:
        return {
            "quantity": self.quantity,
            "claim": self.claim,
            "measured": self.measured,
            "ratio": self.ratio,
            **({} if self.bracket is None else {"bracket": list(self.bracket)}),
        }


@dataclass
class CheckOutcome:
    """What one check found: pass/fail, a one-line detail, the numbers behind it, the
    :class:`Control` runs that show the check can fail, and its :class:`Slack`."""

    passed: bool
    detail: str
    numbers: dict[str, Any] = field(default_factory=dict)
    controls: list[Control] = field(default_factory=list)
    slack: list[Slack] = field(default_factory=list)

    @property
    def tightest(self) -> Slack | None:
        """The slack with the smallest ratio (the part of the check nearest its claim)."""
        return min(self.slack, key=lambda s: s.ratio, default=None)


Check = Callable[[VerifyConfig], CheckOutcome]
C = TypeVar("C", bound=Check)

#: The attribute of a check function holding the obligations declared on it.
DECLARED = "__dpspec_obligations__"

#: ``<topic>.<claim>``: the topic prefix (:func:`topic_prefix`) in lower case with hyphens; the
#: claim may keep the case and dots of a theorem or line
#: (``compression.erratum.thesis-lemma-4.1.3``, ``mechanisms.erratum.thesis-L655-...``).
ID_PATTERN = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*\.[A-Za-z0-9]+([.-][A-Za-z0-9]+)*$")

#: One citation of a seed: ``000_dff3c4dc97cf0e21.txt:L125-147 (Alg 1, Thm 2.4)``.
CITATION_PATTERN = re.compile(
    r"(?P<seed>\d{3}_[0-9a-f]{16}\.txt):L(?P<first>\d+)(?:-L?(?P<last>\d+))?"
    r"(?: \((?P<theorem>[^)]*)\))?"
)


@dataclass(frozen=True)
class Citation:
    """Seed file, first and last line, and the theorem/algorithm name of one citation."""

    seed: str
    first: int
    last: int
    theorem: str


# Why a running obligation names no spec predicate (``Obligation.no_predicate``): what its
# property is checked against instead. An entry gives one of these, followed by ``": "`` and
# what it is in that check, or text of its own where none fits.

#: The expectation is a second computation of the same quantity by independent exact
#: arithmetic (closed forms, brute force, rationals, quadrature) written in the check.
RECOMPUTED = "checked against an independent exact recomputation of the same quantity"
#: The property is the project's own input, CLI or API contract: no seed states it.
CONTRACT = (
    "the project's own input/CLI/API contract, which no seed states, documented in "
    "docs/layout-and-api.md and docs/commands.md"
)
#: A utility, consistency or tail rate (or a support property) against the bound the claim
#: states, measured exactly or by a test with a stated false alarm.
STATED_BOUND = "a rate or bound checked against its statement in the claim"
#: The false-alarm rate and power of dpspec's own checkers (the auditor, ``dpspec conform``).
CHECKER_SOUNDNESS = (
    "a checker's own soundness, the false alarm and power of dpspec's auditor or conform"
)
#: Two code paths of dpspec against each other (value by value or in law).
DIFFERENTIAL = "a differential check, two code paths of dpspec against each other"
#: A sampler's outputs against the law the implementation itself states (its ``pmf``), whose
#: privacy the topic's privacy obligation decides against the spec.
OWN_LAW = (
    "conformance to the law the implementation states, its pmf, whose privacy the topic's "
    "privacy obligation decides against the spec"
)
#: A seed's statement refuted as printed by a counterexample (exact, or by a test with a stated
#: false alarm), the corrected form checked as the claim states it.
ERRATUM = (
    "an erratum, the printed statement refuted by a counterexample and the corrected one checked"
)
#: The shared reasons, for the report and the tests.
NO_PREDICATE_REASONS = (
    RECOMPUTED,
    CONTRACT,
    STATED_BOUND,
    CHECKER_SOUNDNESS,
    DIFFERENTIAL,
    OWN_LAW,
    ERRATUM,
)


@dataclass(frozen=True)
class Obligation:
    """One registered guarantee, declared where it is checked.

    An obligation with a check is declared on its check function, as a decorator::

        @Obligation(
            id="pcl.privacy",
            source=f"{BAYES_CONSISTENCY}:L125-147 (Alg 1, Thm 2.4)",
            claim="...",
            method=Method.EXACT,
            predicates=(dpspec.spec.privacy.satisfies_pure_dp,),
            entry_points=(dpspec.learners.pcl.PrivateHistogramClassifier.fit,),
            bug_controls=(BugControl(dpspec.learners.pcl.PrivateHistogramClassifier.fit, ...),),
        )
        def pcl_privacy(config: VerifyConfig) -> CheckOutcome: ...

    The links are objects: ``predicates`` (the spec predicates the check evaluates),
    ``impls`` (the code or modules it is about), ``entry_points`` (the public callables a user
    calls whose behaviour the check exercises), ``lemmas`` (CrossHair lemmas of the topic's
    ``lemmas`` module: the entry passes when CrossHair confirms all their conditions), and
    ``before`` / ``after`` (further check functions run with the decorated one; every part
    must pass; under a bug control the parts stop at the first failure, so put the cheap
    exact part first). The registry keeps their dotted names (:func:`dotted_name`), so a
    renamed function fails at import. An entry without a check — a documented statement, or
    one proven by its lemmas alone — is data in the topic's ``OBLIGATIONS``.

    ``tests`` are pytest node ids ``tests/test_x.py::test_y`` (every runnable entry is also run
    by ``tests/test_verifiers.py::test_registry_checks_pass[<id>]``).

    ``predicates`` or ``no_predicate``: a running entry (not ``documented``, not proven by its
    ``lemmas`` alone) names the spec functions its check evaluates — a predicate or a stated law
    of :mod:`dpspec.spec`, called by the check or passed to the engine helper that applies it —
    or, when it evaluates none, says in ``no_predicate`` what its property is checked against
    instead: one of the shared reasons (:data:`NO_PREDICATE_REASONS`: :data:`RECOMPUTED`,
    :data:`CONTRACT`, :data:`STATED_BOUND`, :data:`CHECKER_SOUNDNESS`, :data:`DIFFERENTIAL`,
    :data:`OWN_LAW`, :data:`ERRATUM`), followed by ``": "`` and what it is in this check, or
    text of its own. Construction refuses a running entry with neither, and one with both (a
    reason for naming no predicate beside named predicates). ``dpspec report`` shows the
    reason in the predicate column: ``— (<reason>)``.

    ``bug_controls``: plausible one-line bugs of the implementation (:class:`BugControl`);
    ``dpspec verify`` runs the passing check again with each planted and the check must fail.

    Every privacy obligation (``privacy=True``) names at least one entry point, and the
    registry meta-test runs the check under a tracer and fails when one of them is never
    called. ``binding`` says, for a lemma or a law function, how it is tied to the code that
    runs: ``"called by <dotted impl name>"`` or ``"differential: <obligation id>"``. ``topic``
    is filled in by discovery; ``checks`` (``"module:function"`` of each part) is derived.
    """

    id: str
    source: str
    claim: str
    method: Method
    predicates: tuple[Any, ...] = ()
    impls: tuple[Any, ...] = ()
    lemmas: tuple[Any, ...] = ()
    tests: tuple[str, ...] = ()
    entry_points: tuple[Any, ...] = ()
    privacy: bool = False
    binding: str = ""
    kind: Kind | None = None
    reason: str = ""
    no_predicate: str = ""
    bug_controls: tuple[BugControl, ...] = ()
    before: tuple[Check, ...] = ()
    after: tuple[Check, ...] = ()
    function: Check | None = None
    topic: str = ""
    checks: tuple[str, ...] = field(default=(), init=False)

    def __post_init__(self) -> None:
        for name in ("predicates", "impls", "entry_points"):
            links = getattr(self, name)
            object.__setattr__(self, name, tuple(dotted_name(o) for o in links))
        lemmas = tuple(o if isinstance(o, str) else o.__name__ for o in self.lemmas)
        object.__setattr__(self, "lemmas", lemmas)
        parts = self.parts
        object.__setattr__(self, "checks", tuple(f"{f.__module__}:{f.__name__}" for f in parts))
        if self.predicates and self.no_predicate:
            raise ValueError(
                f"{self.id}: no_predicate gives a reason for naming no predicate, but "
                f"predicates {self.predicates} are named"
            )
        if self.needs_predicate and not self.predicates and not self.no_predicate.strip():
            raise ValueError(
                f"{self.id}: a running obligation names the spec function(s) its check "
                "evaluates (predicates=) or says what it is checked against instead "
                "(no_predicate=, e.g. one of NO_PREDICATE_REASONS)"
            )

    def __call__(self, check: C) -> C:
        """Declare this obligation on its check function (which is returned unchanged)."""
        declared = (*getattr(check, DECLARED, ()), replace(self, function=check))
        setattr(check, DECLARED, declared)
        return check

    @property
    def needs_predicate(self) -> bool:
        """Whether the entry must name a predicate or say why not: it runs a check (not
        ``documented``) and is not proven by its CrossHair ``lemmas`` alone (a lemma's
        contract is its statement)."""
        return self.method is not Method.DOCUMENTED and not self.lemmas

    @property
    def parts(self) -> tuple[Check, ...]:
        """The check functions ``dpspec verify`` runs for this entry, in order."""
        return () if self.function is None else (*self.before, self.function, *self.after)

    @property
    def effective_kind(self) -> Kind:
        """``kind`` as given; by default ``documented`` for a documented entry, else
        ``discriminating`` (a running check must show it can fail unless it says why not)."""
        if self.kind is not None:
            return self.kind
        return Kind.DOCUMENTED if self.method is Method.DOCUMENTED else Kind.DISCRIMINATING

    @property
    def lemma_module(self) -> str:
        """The module of the CrossHair lemmas this entry names (the topic's ``lemmas``)."""
        return f"{TOPICS_PACKAGE}.{self.topic}.lemmas"

    @property
    def runs(self) -> bool:
        """Whether ``dpspec verify`` runs something for this entry (a check or a lemma): every
        entry but a documented one (:func:`dpspec.proofs.engine.verify.check_of` builds it)."""
        return bool(self.checks or self.lemmas)

    @property
    def note(self) -> str:
        """The topic's proof note, relative to ``proofs/``."""
        return f"topics/{self.topic}/note.md" if self.topic else ""

    @property
    def citations(self) -> tuple[Citation, ...]:
        """The seed citations in ``source`` (non-seed sources, e.g. a standard, give none)."""
        return citations_of(self.source)

    @property
    def declared_at(self) -> str:
        """Where the entry is declared: ``module:function`` of its check function, or the
        topic's ``obligations`` module for an entry without one."""
        if self.function is None:
            return f"{TOPICS_PACKAGE}.{self.topic}.obligations"
        return f"{self.function.__module__}:{self.function.__name__}"


def citations_of(source: str) -> tuple[Citation, ...]:
    """The seed citations in a ``source`` text (non-seed sources, e.g. a standard, give none)."""
    return tuple(
        Citation(m["seed"], int(m["first"]), int(m["last"] or m["first"]), m["theorem"] or "")
        for m in CITATION_PATTERN.finditer(source)
    )


@dataclass(frozen=True)
class Erratum:
    """A statement of a seed that is false as printed, with the check that exhibits it.

    ``obligation`` is the id of the registered obligation whose check exhibits it (its id is
    ``<topic>.erratum.<paper>-<where>``, like the erratum's, the topic being the one whose
    ``errata`` module lists it).
    """

    id: str
    source: str
    printed: str
    corrected: str
    counterexample: str
    tests: tuple[str, ...]
    obligation: str


class FailedUnderControl(Exception):
    """Raised by :func:`stop_if_failed`: under a bug control, a part of the check failed."""


def stop_if_failed(config: VerifyConfig, holds: bool, part: str) -> None:
    """Under a bug control (``config.under_control``), end the check at a ``part`` that
    failed: its verdict is fail whatever the rest finds, so the control is caught there.
    Outside a control it does nothing (the check goes on and reports every part)."""
    if config.under_control and not holds:
        raise FailedUnderControl(part)


def all_of(*checks: Check) -> Check:
    """One check that passes when every one of ``checks`` passes (e.g. the exact privacy of a
    law and the conformance of the entry point that samples it); details are joined and the
    numbers kept per part under the part's function name. Under a bug control it stops at
    the first failing part (:func:`in_order`: the verdict is the same)."""
    if len(checks) == 1:
        return checks[0]
    ordered = in_order(*checks)

    def run(config: VerifyConfig) -> CheckOutcome:
        if config.under_control:
            return ordered(config)
        parts = [(c.__name__, c(config)) for c in checks]
        return CheckOutcome(
            all(o.passed for _, o in parts),
            " | ".join(f"[{name}] {o.detail}" for name, o in parts),
            {name: o.numbers for name, o in parts},
            [control for _, o in parts for control in o.controls],
            [s for _, o in parts for s in o.slack],
        )

    run.__name__ = "+".join(c.__name__ for c in checks)
    return run


def in_order(*checks: Check) -> Check:
    """:func:`all_of` that stops at the first failing part: the verdict is the same (every part
    must pass), and a run with a bug planted (``bug_controls``) costs only the parts up to the
    one that catches it — put the cheap exact part before the statistical one."""

    def run(config: VerifyConfig) -> CheckOutcome:
        parts: list[tuple[str, CheckOutcome]] = []
        for c in checks:
            parts.append((c.__name__, c(config)))
            if not parts[-1][1].passed:
                break
        skipped = [c.__name__ for c in checks[len(parts) :]]
        return CheckOutcome(
            all(o.passed for _, o in parts) and not skipped,
            " | ".join(f"[{name}] {o.detail}" for name, o in parts)
            + (f" | not run after the failure: {', '.join(skipped)}" if skipped else ""),
            {name: o.numbers for name, o in parts},
            [control for _, o in parts for control in o.controls],
            [s for _, o in parts for s in o.slack],
        )

    run.__name__ = "+".join(c.__name__ for c in checks)
    return run


TOPICS_PACKAGE = "dpspec.proofs.topics"


def check_modules(selected: Iterable[Obligation]) -> list[str]:
    """The modules holding the checks of ``selected``, in first-use order (a process that
    forks check processes imports them once, for all of its children)."""
    return list(dict.fromkeys(f.__module__ for ob in selected for f in ob.parts))


@cache
def topics() -> tuple[str, ...]:
    """The topic packages, in name order."""
    package = importlib.import_module(TOPICS_PACKAGE)
    return tuple(sorted(m.name for m in pkgutil.iter_modules(package.__path__) if m.ispkg))


def topic_module(topic: str, name: str) -> Any | None:
    """``dpspec.proofs.topics.<topic>.<name>`` imported, or None when the topic has none."""
    dotted = f"{TOPICS_PACKAGE}.{topic}.{name}"
    if importlib.util.find_spec(dotted) is None:
        return None
    return importlib.import_module(dotted)


def topic_folder(topic: str) -> Path:
    package = importlib.import_module(f"{TOPICS_PACKAGE}.{topic}")
    return Path(package.__file__ or "").parent


def topic_prefix(topic: str) -> str:
    """What every id of the topic starts with (then a dot): its folder name, ``_`` written
    ``-`` (``cover_learners`` → ``cover-learners``)."""
    return topic.replace("_", "-")


def declared_in(module: Any) -> list[Obligation]:
    """The obligations a module declares: those on its check functions (in source order),
    then its ``OBLIGATIONS`` (the entries without a check)."""
    functions = [
        value
        for value in vars(module).values()
        if inspect.isfunction(value) and value.__module__ == module.__name__
    ]
    functions.sort(key=lambda f: f.__code__.co_firstlineno)
    found = [ob for f in functions for ob in getattr(f, DECLARED, ())]
    return found + list(getattr(module, "OBLIGATIONS", ()))


@cache
def obligations() -> tuple[Obligation, ...]:
    """All registered obligations: in each topic (topics in name order), those declared by
    each of its modules (modules in name order)."""
    found: list[Obligation] = []
    for topic in topics():
        package = importlib.import_module(f"{TOPICS_PACKAGE}.{topic}")
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            found.extend(replace(ob, topic=topic) for ob in declared_in(module))
    return tuple(found)


@cache
def errata() -> tuple[Erratum, ...]:
    """Every topic's ``ERRATA``."""
    found: list[Erratum] = []
    for topic in topics():
        module = topic_module(topic, "errata")
        if module is not None:
            found.extend(module.ERRATA)
    return tuple(found)


def by_id(obligation_id: str) -> Obligation:
    """The obligation with this id (an id of 0.1 or 0.2 is accepted too)."""
    from dpspec.proofs.engine.legacy_ids import LEGACY_IDS

    wanted = LEGACY_IDS.get(obligation_id, obligation_id)
    for ob in obligations():
        if ob.id == wanted:
            return ob
    raise ValueError(f"obligation_id: no obligation {obligation_id!r}")
