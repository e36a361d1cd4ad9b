"""The contract, checked on whatever the package contains.

:func:`contract_problems` takes public objects (found by walking the package:
:func:`dpspec.proofs.engine.discovery.public_objects`) and reports every way one breaks the
contract of :mod:`dpspec.contract`:

* **by construction** — a computing class subclasses :class:`dpspec.validation.Checked` and a
  function carries :func:`dpspec.validation.checked`, so declared domains are enforced;
* **declared** — every parameter of every public callable has a domain (the sweep reads it) and
  a clean call can be assembled from the declarations (the sweep reaches it);
* **one contract** — a mechanism (a class with ``sample``) has ``sample(data, size, rng)``, its
  exact law is ``pmf(data, window=None)`` and it satisfies :class:`dpspec.contract.Mechanism`;
  a learner (a class with ``fit``) follows the estimator protocol; an object stating a privacy
  level (a constructor taking ``epsilon``) takes ``idealised`` as a real bool, orders its
  keywords ``epsilon``, ``delta``, ``idealised``, ``random_state``, and reports a
  :class:`~dpspec.contract.PrivacyLevel` (``privacy``, or ``privacy_`` after ``fit``);
* **exported** — from its subpackage's ``__all__`` (or from a module the subpackage exports
  whole, by that module's ``__all__``), and mechanisms and learners from the root's (but
  fixtures built broken on purpose and the auditor's adapters, :func:`claims_no_privacy`);
* **registered** — named by some obligation of the registry.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Iterable
from typing import Any

from dpspec.contract import Mechanism, PrivacyLevel
from dpspec.learners.estimator import EstimatorProtocol
from dpspec.proofs.engine.discovery import PublicObject, declarative_kind, public_methods
from dpspec.proofs.engine.registry import obligations
from dpspec.proofs.engine.sweep import Entry, entries, execute, plan, run, undeclared
from dpspec.validation import CHECKED_MARK, Checked, Domain, Flag, parameter_domains

#: Names an exact law had before 0.3; a class may keep one only as a marked deprecated alias.
OLD_LAW_NAMES = ("law", "report_law", "size_law", "cell_release_law")

#: The keyword order every privacy-stating constructor keeps (those it has).
KEYWORD_ORDER = ("epsilon", "delta", "idealised", "random_state")


def kinds(cls: type) -> set[str]:
    """``mechanism`` (has ``sample``), ``learner`` (has ``fit``), ``private`` (its constructor
    takes ``epsilon``)."""
    methods = set(public_methods(cls))
    out = set()
    if "sample" in methods:
        out.add("mechanism")
    if "fit" in methods:
        out.add("learner")
    if "epsilon" in _params(cls):
        out.add("private")
    return out


def _registered_names() -> set[str]:
    names: set[str] = set()
    for ob in obligations():
        names.update(ob.impls)
        names.update(ob.entry_points)
        names.update(ob.predicates)
    return names


def _is_registered(public: PublicObject, registered: set[str]) -> bool:
    """Named by an obligation: the object itself, one of its members, or its whole module (an
    obligation about every definition in it)."""
    dotted = public.dotted
    return public.module in registered or any(
        r == dotted or r.startswith(dotted + ".") for r in registered
    )


def _exported(public: PublicObject) -> bool:
    """In its subpackage's ``__all__``, or in the ``__all__`` of a module the subpackage exports
    whole (a catalogue such as ``dpspec.audit.zoo``, whose names stay under its own name)."""
    exported = getattr(importlib.import_module(public.package), "__all__", ())
    if public.name in exported:
        return True
    if public.module.rsplit(".", 1)[-1] not in exported:
        return False
    return public.name in vars(importlib.import_module(public.module)).get("__all__", ())


def _root_exports() -> set[str]:
    import dpspec

    return set(dpspec.__all__)


def claims_no_privacy(obj: Any) -> bool:
    """A class with ``sample`` that states no privacy of its own to report or export, but keeps
    the validation contract: a target of the auditor's zoo built broken on purpose
    (``__dpspec_fixture__ = "why"``), or an adapter that presents someone else's code to the
    auditor, whose privacy is what the audit measures (``__dpspec_audit_adapter__ = "why"``)."""
    return any(
        isinstance(getattr(obj, marker, None), str)
        for marker in ("__dpspec_fixture__", "__dpspec_audit_adapter__")
    )


def _params(cls: type) -> list[str]:
    init = inspect.getattr_static(cls, "__init__")
    return [p for p in inspect.signature(init).parameters if p != "self"]


def _class_problems(public: PublicObject) -> Iterable[str]:
    cls = public.obj
    label = public.dotted
    if not issubclass(cls, Checked):
        yield f"{label}: does not subclass dpspec.validation.Checked (no enforced validation)"
    found = kinds(cls)
    params = _params(cls)
    if "mechanism" in found:
        sample = list(parameter_domains(cls.sample))
        if sample[:3] != ["data", "size", "rng"]:
            yield f"{label}.sample: parameters {sample}, the contract is (data, size, rng)"
        if "pmf" in public_methods(cls):
            pmf = inspect.signature(inspect.unwrap(cls.pmf)).parameters
            window = pmf.get("window")
            names = list(pmf)[1:]
            if names[:2] != ["data", "window"] or window is None or window.default is not None:
                yield f"{label}.pmf: parameters {names}, the contract is (data, window=None)"
    if "learner" in found and not issubclass(cls, EstimatorProtocol):
        yield f"{label}: a learner not following the estimator protocol (EstimatorProtocol)"
    for old in OLD_LAW_NAMES:
        member = getattr(cls, old, None)
        if member is not None and not getattr(member, "__deprecated_alias_of__", None):
            yield f"{label}.{old}: an exact law is pmf (mechanisms) or release_law (learners)"
    if "private" in found:
        domains = parameter_domains(inspect.getattr_static(cls, "__init__"))
        if "idealised" not in params:
            yield f"{label}: states a privacy level (takes epsilon) but has no idealised switch"
        elif not isinstance(domains.get("idealised"), Flag):
            yield f"{label}: idealised is not declared a Flag (a real bool)"
        present = [k for k in KEYWORD_ORDER if k in params]
        if [p for p in params if p in KEYWORD_ORDER] != present:
            yield f"{label}: keyword order {[p for p in params if p in KEYWORD_ORDER]}, the "
            "contract is epsilon, delta, idealised, random_state"
        if "learner" in found and "random_state" not in params:
            yield f"{label}: a private learner without random_state"


def _report_problems(public: PublicObject) -> Iterable[str]:
    """A privacy-stating object reports a PrivacyLevel once built (or fitted), and a mechanism
    satisfies the Mechanism protocol, on its example."""
    cls = public.obj
    found = kinds(cls)
    if not found & {"mechanism", "private"}:
        return
    method = "fit" if "learner" in found else "__init__"
    try:
        the_plan = plan(Entry(public, method))
    except LookupError:
        return  # reported by the reach check
    outcome = run(lambda: _built(the_plan))
    if outcome.failure is not None or outcome.refused is not None:
        return  # the sweep reports a failing clean call
    obj = outcome.result
    attribute = "privacy_" if "learner" in found else "privacy"
    if "private" in found and not isinstance(getattr(obj, attribute, None), PrivacyLevel):
        yield f"{public.dotted}: no PrivacyLevel in {attribute}"
    if "mechanism" in found and not isinstance(obj, Mechanism) and not claims_no_privacy(cls):
        yield f"{public.dotted}: does not satisfy dpspec.contract.Mechanism"


def _built(the_plan: Any) -> Any:
    """The instance the plan builds (fitted when the plan's calls include fit)."""
    entry = the_plan.entry
    if entry.method == "__init__":
        return entry.public.obj(**the_plan.init)
    return execute(the_plan) if entry.method == "fit" else None


def contract_problems(objects: Iterable[PublicObject]) -> list[str]:
    """Every way the given public objects break the contract (empty: all keep it)."""
    problems: list[str] = []
    registered = _registered_names()
    root = _root_exports()
    selected = tuple(objects)
    for public in selected:
        label = public.dotted
        if not _exported(public):
            problems.append(f"{label}: not in {public.package}.__all__")
        if not _is_registered(public, registered):
            problems.append(f"{label}: named by no obligation of the registry")
        if inspect.isfunction(public.obj) and declarative_kind(public.obj) is None:
            if not getattr(public.obj, CHECKED_MARK, False):
                problems.append(f"{label}: not wrapped by dpspec.validation.checked")
            continue
        if declarative_kind(public.obj) is not None or inspect.isfunction(public.obj):
            continue
        problems.extend(_class_problems(public))
        if (
            kinds(public.obj) & {"mechanism", "learner", "private"}
            and public.name not in root
            and not claims_no_privacy(public.obj)  # a fixture or an adapter is no DP API
        ):
            problems.append(f"{label}: a mechanism or learner missing from dpspec.__all__")
        problems.extend(_report_problems(public))
    swept = entries(selected)
    problems.extend(undeclared(swept))
    for entry in swept:
        try:
            plan(entry)
        except LookupError as exc:
            problems.append(f"{entry.label}: the sweep cannot reach it ({exc})")
    return problems


def declared_parameters(selected: list[Entry]) -> int:
    """How many parameters the given callables declare a domain for."""
    return sum(isinstance(d, Domain) for e in selected for d in e.domains.values())
