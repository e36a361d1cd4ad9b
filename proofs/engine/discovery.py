"""What the package contains, found by walking it (nothing here lists a module or a class).

Every discipline the project applies to its public surface — the contract, the hostile-input
sweep, the exports, the registry's coverage — starts from :func:`modules` and
:func:`public_objects`, so a new module or class is covered by existing.

A module that only re-exports another under an old name (a deprecated alias, marked by a
module-level ``DEPRECATED_ALIAS_OF``) is skipped without importing it.
"""

from __future__ import annotations

import enum
import importlib
import importlib.util
import inspect
import pkgutil
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import dpspec

#: The subpackages that are not the algorithms: the predicates, the registry, the strategies,
#: and the command line (whose contract is argv's: ``contract.cli.options``,
#: ``contract.cli.exit-codes``).
MOUNTED = ("dpspec.spec", "dpspec.proofs", "dpspec.strategies", "dpspec.cli")


def is_alias(name: str) -> bool:
    """Whether the module ``name`` is a deprecated alias (read from its source, not imported)."""
    spec = importlib.util.find_spec(name)
    origin = getattr(spec, "origin", None)
    if not origin or not origin.endswith(".py"):
        return False
    return "\nDEPRECATED_ALIAS_OF = " in Path(origin).read_text(encoding="utf-8")


@cache
def modules(include_mounted: bool = False) -> tuple[str, ...]:
    """Every module and package of ``dpspec`` (the algorithms; with ``include_mounted`` the
    predicates, the registry and the strategies too), deprecated aliases and private modules
    (a name starting with ``_``: internal machinery) excluded, sorted."""
    found = ["dpspec"]
    for name in _walk(dpspec.__path__, "dpspec."):
        mounted = any(name == m or name.startswith(m + ".") for m in MOUNTED)
        if not mounted or include_mounted:
            found.append(name)
    return tuple(sorted(found))


def _walk(path: Sequence[str], prefix: str) -> Iterator[str]:
    """The modules and packages below ``path``, private ones and deprecated aliases skipped
    before they are imported (a package is imported only to read its ``__path__``)."""
    for info in pkgutil.iter_modules(path, prefix):
        if info.name.rpartition(".")[2].startswith("_") or is_alias(info.name):
            continue
        yield info.name
        if info.ispkg:
            yield from _walk(importlib.import_module(info.name).__path__, info.name + ".")


def leaf_modules(include_mounted: bool = False) -> tuple[str, ...]:
    """:func:`modules` without the packages (their ``__init__`` only re-exports)."""
    packages = {m.rsplit(".", 1)[0] for m in modules(include_mounted) if "." in m}
    return tuple(m for m in modules(include_mounted) if m not in packages)


# ---------------------------------------------------------------------------------------------
# The public surface: classes and functions defined in the package's modules


@dataclass(frozen=True)
class PublicObject:
    """A public class or function: defined (not re-exported) in ``module`` under ``name``."""

    module: str
    name: str
    obj: Any

    @property
    def dotted(self) -> str:
        return f"{self.module}.{self.name}"

    @property
    def package(self) -> str:
        """The subpackage that exports it (``dpspec.mechanisms``; ``dpspec`` for top-level
        modules such as ``dpspec.noise``)."""
        parts = self.module.split(".")
        return ".".join(parts[:2]) if len(parts) > 2 else self.module


def _is_public(name: str, obj: Any, module: str) -> bool:
    if name.startswith("_") or getattr(obj, "__module__", None) != module:
        return False
    return inspect.isclass(obj) or inspect.isfunction(obj)


@cache
def public_objects(include_mounted: bool = False) -> tuple[PublicObject, ...]:
    """Every public class and function of the algorithms (``include_mounted``: of the
    predicates, registry and strategies too), in module order."""
    found = []
    for module in modules(include_mounted):
        mod = importlib.import_module(module)
        for name, obj in vars(mod).items():
            if _is_public(name, obj, module):
                found.append(PublicObject(module, name, obj))
    return tuple(found)


#: Kinds of class that declare types rather than compute: no parameter to validate.
def declarative_kind(cls: Any) -> str | None:
    """Why a public class has no call to sweep (an enum, a Protocol, an exception or warning
    type), or None for a class that computes."""
    from dpspec.validation import Checked

    if cls is Checked:
        return "the base class that enforces declared domains"
    declared = getattr(cls, "__dpspec_declarative__", None)
    if isinstance(declared, str):
        return declared
    if not inspect.isclass(cls):
        return None
    if issubclass(cls, enum.Enum):
        return "an enumeration"
    if inspect.isabstract(cls):
        return "an abstract base class (its methods are swept through its concrete subclasses)"
    if getattr(cls, "_is_protocol", False):
        return "a Protocol (a declared interface)"
    if issubclass(cls, BaseException | Warning):
        return "an exception or warning type"
    return None


def public_methods(cls: type) -> list[str]:
    """The public methods of ``cls`` a user calls: functions (static, class or instance) defined
    in ``cls`` or a dpspec base, not properties, not the estimator protocol's plumbing, not a
    deprecated alias (it forwards to a method that is listed)."""
    names = []
    for klass in cls.__mro__:
        if not getattr(klass, "__module__", "").startswith("dpspec"):
            continue
        for name, member in vars(klass).items():
            if name.startswith("_") or name in names or name in _PLUMBING:
                continue
            raw = member.__func__ if isinstance(member, staticmethod | classmethod) else member
            if inspect.isfunction(raw) and not getattr(raw, "__deprecated_alias_of__", None):
                names.append(name)
    return sorted(names)


#: Methods every estimator inherits from the protocol (no domain of their own to sweep: they
#: read or set the constructor's parameters, which ``fit`` checks).
_PLUMBING = frozenset({"get_params", "set_params", "check_n_features"})
