"""One edit of the package's source: a bug ``dpspec verify`` plants and ``dpspec mutate`` runs.

An :class:`Edit` names the code it changes (``target``: a function, method, class or module,
kept as its dotted name, :func:`~dpspec.proofs.engine.links.dotted_name`), a snippet of that
code (``original``), what replaces it (``replacement``) and what is then wrong (``bug``). The
snippet must occur exactly once in the target's *span*: the lines of its definition (its
decorators included) in its file, or the whole file for a module. The span is found from the
resolved object (:func:`locate`: its module, qualified name and file) and read by the syntax
tree of whatever text the edit is made in (:meth:`Edit.apply`), so the same edit is made in
the installed tree and in the scratch copy ``dpspec mutate`` makes of it.

The bug controls of the registry (``bug_controls=`` of an obligation,
:data:`dpspec.proofs.engine.controls.BugControl`) are edits planted in the process
(:func:`dpspec.proofs.engine.controls.planted`); the mutants of ``dpspec mutate``
(:class:`dpspec.proofs.engine.mutation.Mutant`) are edits with an id, made in a copy of the
file. Two edits are the same change (:meth:`Edit.same_change`) when they change the same
definition into the same syntax tree.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from dpspec.proofs.engine.layout import ROOTS
from dpspec.proofs.engine.links import dotted_name


class StaleEdit(ValueError):
    """The edit's snippet does not occur exactly once in its target's span (or the target's
    definition is not in the text)."""


@dataclass(frozen=True)
class Location:
    """Where an edit's target is defined: ``file`` (repo-relative), the import name of its
    ``module``, its ``qualname`` inside the module ("" for the module itself) and ``nth``, which
    definition of that name it is (0 but for a redefinition: an overload, a property's setter).
    """

    file: str
    module: str
    qualname: str
    nth: int = 0

    def span_in(self, text: str) -> tuple[int, int]:
        """The first and last line (1-based) of the definition in ``text`` (a module: every
        line); :class:`StaleEdit` when ``text`` does not define it."""
        if not self.qualname:
            return 1, max(1, len(text.splitlines()))
        found = definitions(ast.parse(text), self.qualname)
        if len(found) <= self.nth:
            raise StaleEdit(f"{self.module}.{self.qualname}: not defined in {self.file}")
        return found[self.nth]


def _scope(node: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef]:
    """The definitions whose name ``node`` binds (inside its ``if``/``try``/``with`` blocks too,
    not inside the definitions themselves)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield child
        elif not isinstance(child, ast.expr):
            yield from _scope(child)


def definitions(tree: ast.Module, qualname: str) -> list[tuple[int, int]]:
    """The line spans (decorators included) of every definition of ``qualname`` in ``tree``,
    in the order of the source."""
    nodes: list[ast.AST] = [tree]
    for part in qualname.split("."):
        nodes = [d for node in nodes for d in _scope(node) if d.name == part]
    return [
        (min([n.lineno, *(d.lineno for d in n.decorator_list)]), n.end_lineno or n.lineno)
        for n in nodes
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    ]


def file_of(module: Any) -> str:
    """The repo-relative source file of an imported module (``dpspec.noise._series`` →
    ``impl/noise/_series.py``), by the import names of :data:`layout.ROOTS`."""
    name: str = module.__name__
    package = Path(module.__file__ or "").name == "__init__.py"
    for prefix, folder in sorted(ROOTS.items(), key=lambda pf: -len(pf[0])):
        if name == prefix or name.startswith(prefix + "."):
            parts = [folder, *name[len(prefix) :].split(".")[1:]]
            return "/".join(parts) + ("/__init__.py" if package else ".py")
    raise ValueError(f"target: {name} is not a module of dpspec")


def resolve(dotted: str) -> tuple[Any, str, Any]:
    """(owner, attribute, member) of a dotted name: the module or class that holds it."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            owner: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:-1]:
            owner = getattr(owner, attr)
        name = parts[-1]
        return owner, name, inspect.getattr_static(owner, name)
    raise ValueError(f"target: cannot resolve {dotted!r}")


def raw(member: Any) -> tuple[Callable[..., Any], str]:
    """The function under a member, and how it is held (function, staticmethod, classmethod,
    or the getter of a property)."""
    if isinstance(member, staticmethod):
        return member.__func__, "static"
    if isinstance(member, classmethod):
        return member.__func__, "class"
    if isinstance(member, property) and member.fget is not None:
        return member.fget, "property"
    return member, "function"


@cache
def locate(dotted: str) -> Location:
    """Where the object a dotted name resolves to is defined (a module, a class, or the
    function under a method, property, cached property or decorator)."""
    try:
        return Location(file_of(importlib.import_module(dotted)), dotted, "")
    except ImportError:
        pass
    member = resolve(dotted)[2]
    held = member.func if isinstance(member, cached_property) else raw(member)[0]
    obj: Any = inspect.unwrap(held)
    module = importlib.import_module(obj.__module__)
    where = Location(file_of(module), module.__name__, obj.__qualname__)
    spans = definitions(ast.parse(inspect.getsource(module)), where.qualname)
    if len(spans) <= 1:
        return where
    line = inspect.getsourcelines(obj)[1]
    nth = next((k for k, (a, b) in enumerate(spans) if a <= line <= b), 0)
    return Location(where.file, where.module, where.qualname, nth)


def _source(location: Location) -> str:
    """The text of the installed file that defines ``location``."""
    return inspect.getsource(importlib.import_module(location.module))


@dataclass(frozen=True)
class Edit:
    """``original`` replaced by ``replacement`` (it must occur exactly once) in the source of
    ``target`` (a function, method, class or module, e.g. ``discrete_laplace_pmf`` or
    ``StabilityHistogram.release_counts``; the dotted name of one inside private code); ``bug``
    says what is wrong. ``target`` is kept as its dotted name (:func:`dotted_name`)."""

    target: Any
    original: str
    replacement: str
    bug: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "target", dotted_name(self.target))

    @property
    def location(self) -> Location:
        return locate(self.target)

    @property
    def file(self) -> str:
        """The repo-relative file the edit is made in."""
        return self.location.file

    @property
    def span(self) -> tuple[int, int]:
        """The first and last line of the target in the installed file."""
        return self.location.span_in(_source(self.location))

    def apply(self, text: str | None = None) -> str:
        """``text`` (default: the installed file) with the edit made in the target's span;
        :class:`StaleEdit` unless ``original`` occurs exactly once there."""
        text = _source(self.location) if text is None else text
        first, last = self.location.span_in(text)
        lines = text.splitlines(keepends=True)
        head, body, tail = lines[: first - 1], lines[first - 1 : last], lines[last:]
        span = "".join(body)
        count = span.count(self.original)
        if count != 1:
            raise StaleEdit(
                f"snippet occurs {count} times in {self.target} ({self.file}:{first}-{last}, "
                f"expected exactly once): {self.original!r}"
            )
        return "".join([*head, span.replace(self.original, self.replacement), *tail])

    def check(self) -> None:
        """:class:`StaleEdit` unless the edit can be made in the installed file."""
        self.apply()

    def same_change(self, other: Edit) -> bool:
        """Whether both edits change the same definition into the same syntax tree (spacing,
        comments and the context each snippet carries aside)."""
        if self.location != other.location:
            return False
        text = _source(self.location)
        mine, theirs = (ast.dump(ast.parse(e.apply(text))) for e in (self, other))
        return mine == theirs
