"""What the package contains, found by walking it (nothing here lists a module or a class).

Every discipline the project applies to its public surface — the contract, the hostile-input
sweep, the exports, the registry's coverage — starts from :func:`modules` and
:func:`public_objects`, so a new module or class is covered by existing.

A module that only re-exports another under an old name (a deprecated alias, marked by a
module-level ``DEPRECATED_ALIAS_OF``) is skipped without importing it.
"""

from __future__ import annotations

import importlib.util
import pkgutil
from functools import cache
from pathlib import Path

import dpspec

#: The mounted subpackages that are not the algorithms (predicates, registry, strategies).
MOUNTED = ("dpspec.spec", "dpspec.proofs", "dpspec.strategies")


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
    predicates, the registry and the strategies too), deprecated aliases excluded, sorted."""
    found = ["dpspec"]
    for info in pkgutil.walk_packages(dpspec.__path__, "dpspec."):
        mounted = any(info.name == m or info.name.startswith(m + ".") for m in MOUNTED)
        if (mounted and not include_mounted) or is_alias(info.name):
            continue
        found.append(info.name)
    return tuple(sorted(found))


def leaf_modules(include_mounted: bool = False) -> tuple[str, ...]:
    """:func:`modules` without the packages (their ``__init__`` only re-exports)."""
    packages = {m.rsplit(".", 1)[0] for m in modules(include_mounted) if "." in m}
    return tuple(m for m in modules(include_mounted) if m not in packages)
