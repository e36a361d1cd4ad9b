"""Validation by construction: the declared domains of a callable's parameters are enforced
before its body runs.

* :func:`checked` wraps a function or method: every argument whose annotation carries a
  :class:`~dpspec.validation.domains.Domain` is checked (and converted) first; an argument of
  the wrong kind or out of its domain gets a ValueError / TypeError naming the parameter.
* :class:`Checked` is the base of every public class: each public method it defines (and
  ``__init__``) is wrapped by :func:`checked` when the class is created, and a dataclass's
  fields are checked after its generated ``__init__`` — so a new class inherits the discipline
  by existing. A scikit-learn estimator (``validate_params_at = "fit"``) keeps its constructor
  inert, as scikit-learn requires, and has its constructor parameters checked at ``fit``.
* :class:`Example` declares, beside a class or function, one clean call: the hostile-input
  sweep varies one argument of it at a time.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

from dpspec.validation.domains import Anything, Domain, domain_of

P = ParamSpec("P")
R = TypeVar("R")

#: Marks a callable whose declared parameters are enforced.
CHECKED_MARK = "__dpspec_checked__"


class Unresolved:
    """An annotation that could not be evaluated (reported by the discovery obligation)."""

    __dpspec_declarative__ = "a report of an annotation that did not resolve"

    def __init__(self, text: str, error: str) -> None:
        self.text, self.error = text, error

    def __repr__(self) -> str:
        return f"Unresolved({self.text!r}: {self.error})"


def _evaluate(annotation: Any, namespace: dict[str, Any]) -> Any:
    if not isinstance(annotation, str):
        return annotation
    try:
        return eval(annotation, namespace)
    except Exception as exc:  # an annotation naming what only TYPE_CHECKING imports
        return Unresolved(annotation, f"{type(exc).__name__}: {exc}")


_DOMAINS: dict[Any, dict[str, Any]] = {}


def parameter_domains(fn: Callable[..., Any]) -> dict[str, Domain | Unresolved | None]:
    """Each parameter of ``fn`` (``self`` / ``cls`` and ``*args`` / ``**kwargs`` excluded) with
    its declared domain, ``None`` when it has none, or :class:`Unresolved` (read once per
    function and kept)."""
    target = inspect.unwrap(fn)
    found = _DOMAINS.get(target)
    if found is None:
        found = _DOMAINS[target] = _read_domains(target)
    return dict(found)


def _read_domains(target: Callable[..., Any]) -> dict[str, Domain | Unresolved | None]:
    namespace = dict(getattr(target, "__globals__", {}))
    out: dict[str, Domain | Unresolved | None] = {}
    for i, param in enumerate(inspect.signature(target).parameters.values()):
        if i == 0 and param.name in ("self", "cls"):
            continue
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        annotation = _evaluate(param.annotation, namespace)
        out[param.name] = (
            annotation if isinstance(annotation, Unresolved) else domain_of(annotation)
        )
    return out


parameter_domains.__dpspec_declarative__ = "machinery of the declarations"  # type: ignore[attr-defined]


def checked(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn`` with its declared arguments checked and converted before the body runs.

    Positional arguments are matched to their parameters by position and keyword arguments by
    name (no ``Signature.bind`` on the common path: a call costs a few dictionary lookups);
    a signature with ``*args`` goes through ``bind``.
    """
    if getattr(fn, CHECKED_MARK, False):
        return fn
    signature = inspect.signature(fn)
    params = list(signature.parameters.values())
    variadic = any(p.kind is p.VAR_POSITIONAL for p in params)
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    declared: dict[str, Domain] | None = None
    by_position: list[tuple[int, str, Domain]] = []

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        nonlocal declared, by_position
        if declared is None:
            declared = {  # an Anything domain checks nothing: no call for it
                name: d
                for name, d in parameter_domains(fn).items()
                if isinstance(d, Domain) and not isinstance(d, Anything)
            }
            by_position = [
                (i, name, declared[name]) for i, name in enumerate(positional) if name in declared
            ]
        if not declared:
            return fn(*args, **kwargs)
        if variadic or len(args) > len(positional):
            bound = signature.bind(*args, **kwargs)
            values = bound.arguments
            for name, domain in declared.items():
                if name in values:
                    values[name] = domain.check(values[name], name)
            return fn(*bound.args, **bound.kwargs)
        given = list(args)
        for i, name, domain in by_position:
            if i >= len(given):
                break
            given[i] = domain.check(given[i], name)
        for name in kwargs:
            found = declared.get(name)
            if found is not None:
                kwargs[name] = found.check(kwargs[name], name)
        return fn(*given, **kwargs)  # type: ignore[arg-type]

    setattr(run, CHECKED_MARK, True)
    return run


checked.__dpspec_declarative__ = "machinery of the declarations"  # type: ignore[attr-defined]


def _wrap_members(cls: type) -> None:
    for name, member in list(vars(cls).items()):
        if name.startswith("_") and name != "__init__":
            continue
        if getattr(member, "__deprecated_alias_of__", None):
            continue  # forwards to the checked method it names
        if isinstance(member, staticmethod):
            setattr(cls, name, staticmethod(checked(member.__func__)))
        elif isinstance(member, classmethod):
            setattr(cls, name, classmethod(checked(member.__func__)))
        elif inspect.isfunction(member):
            if name == "__init__" and getattr(cls, "validate_params_at", "") == "fit":
                continue
            setattr(cls, name, checked(member))


def constructor_domains(cls: type) -> dict[str, Domain | Unresolved | None]:
    """The declared domains of ``cls``'s constructor parameters (a dataclass's fields)."""
    init = cls.__init__  # type: ignore[misc]
    return parameter_domains(init)


constructor_domains.__dpspec_declarative__ = "machinery of the declarations"  # type: ignore[attr-defined]


def check_constructor_params(obj: Any) -> dict[str, Any]:
    """``obj``'s constructor parameters, read back from its attributes, checked against their
    declared domains (scikit-learn's convention: an estimator validates at ``fit``); the
    converted values by name."""
    out = {}
    for name, domain in constructor_domains(type(obj)).items():
        value = getattr(obj, name)
        out[name] = domain.check(value, name) if isinstance(domain, Domain) else value
    return out


check_constructor_params.__dpspec_declarative__ = "machinery of the declarations"  # type: ignore[attr-defined]


class Checked:
    """Base of every public class: declared parameters are enforced by construction.

    ``validate_params_at = "fit"`` (scikit-learn estimators): the constructor only stores its
    arguments and ``fit`` checks them first (:func:`check_constructor_params`).
    """

    validate_params_at: str = "__init__"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _wrap_members(cls)
        fit = vars(cls).get("fit")
        if cls.validate_params_at == "fit" and inspect.isfunction(fit):
            cls.fit = _checking_params(fit)  # type: ignore[attr-defined]

    def __post_init__(self) -> None:
        """A dataclass's fields are checked (and converted) after its generated ``__init__``."""
        if not dataclasses.is_dataclass(self):
            return
        for name, value in check_constructor_params(self).items():
            object.__setattr__(self, name, value)


def _checking_params(fit: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fit)
    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        check_constructor_params(self)
        return fit(self, *args, **kwargs)

    setattr(run, CHECKED_MARK, True)
    return run


@dataclass(frozen=True)
class Example:
    """One clean call, declared beside a public class or function.

    (A declaration: its own fields are what the sweep reads, not parameters it sweeps.)

    For a class: ``init`` holds constructor arguments and ``calls`` the method calls made in
    order on the instance (``{"fit": {...}, "predict": {...}}``); for a function: ``calls``
    holds ``{"__call__": {...}}``. ``every`` gives arguments by name to every call that takes
    them (the dataset ``data``, the features ``X``). Arguments not given come from the
    parameter's default or its domain's example.
    """

    init: dict[str, Any] = field(default_factory=dict)
    calls: dict[str, dict[str, Any]] = field(default_factory=dict)
    every: dict[str, Any] = field(default_factory=dict)

    __dpspec_declarative__ = "a declared clean call (read by the sweep)"

    def arguments(self, call: str) -> dict[str, Any]:
        """The example's arguments of one call (``every``'s, then the call's own)."""
        own = self.init if call == "__init__" else self.calls.get(call, {})
        return {**self.every, **own}


#: The attribute holding a class's or function's :class:`Example`.
EXAMPLE_ATTRIBUTE = "__dpspec_example__"


def example(every: dict[str, Any] | None = None, **calls: dict[str, Any]) -> Callable[[R], R]:
    """Attach an :class:`Example` to a function (``@example(__call__={...})``) or a class
    (``@example(every={"X": X}, __init__={...}, fit={"y": y})``)."""

    def attach(obj: R) -> R:
        init = calls.pop("__init__", {})
        setattr(obj, EXAMPLE_ATTRIBUTE, Example(init, dict(calls), dict(every or {})))
        return obj

    return attach


example.__dpspec_declarative__ = "machinery of the declarations"  # type: ignore[attr-defined]
