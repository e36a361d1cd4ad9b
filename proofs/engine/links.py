"""Links from a registry entry to the code: objects, kept as dotted names.

An entry names its predicates, entry points, implementations and bug-control targets as the
objects themselves (so a renamed or moved function fails where the entry is declared, at
import); the registry keeps :func:`dotted_name` of each (the defining module and qualified
name), which reports, the mutation engine and the tests read.
"""

from __future__ import annotations

import importlib
import inspect
from functools import cache
from typing import Any


def dotted_name(obj: object) -> str:
    """The dotted name the registry keeps for an object an entry links: a module's name, or
    the defining module and qualified name of a function, class, method or property (a
    renamed or moved function then fails where the entry is declared, at import). A name
    inside private code (``dpspec.learners.pcl._cube_keys``: a topic does not import private
    names) is given as its dotted string, and must resolve."""
    if isinstance(obj, str):
        _resolves(obj)
        return obj
    if inspect.ismodule(obj):
        return obj.__name__
    if isinstance(obj, property) and obj.fget is not None:
        obj = obj.fget
    if isinstance(obj, staticmethod | classmethod) or inspect.ismethod(obj):
        obj = obj.__func__
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if not module or not qualname or "<locals>" in qualname:
        raise TypeError(f"a registry link must be a module, function or class, not {obj!r}")
    return f"{module}.{qualname}"


@cache
def _resolves(dotted: str) -> None:
    """Raise ``ValueError`` unless ``dotted`` names a module or an attribute path below one."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            owner: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(owner, attr):
                raise ValueError(f"registry link {dotted!r}: no {attr!r} in {owner!r}")
            owner = getattr(owner, attr)
        return
    raise ValueError(f"registry link {dotted!r}: no such module")
