"""Bug controls: a check re-run on the implementation with one plausible bug planted.

A :data:`BugControl` (an :class:`~dpspec.proofs.engine.edits.Edit`) names a function or method
of the package (``target``), a snippet of its source and the snippet that replaces it — a
one-line bug a developer could write (a ``>=`` that became ``>``, a scale halved, a boundary off
by one). :func:`planted` recompiles the target from its own source with the bug, puts it in
place of the original for the duration of a ``with`` block (re-applying
:func:`dpspec.validation.checked` when the original carried it), and restores it. ``dpspec
verify`` runs every passing obligation's check again under each of its bug controls: the check
must now fail, or the obligation fails for want of power.

Unlike the mutants of ``dpspec mutate`` (a scratch copy of the tree, one subprocess per
mutant), a bug control runs in the process, in the time of one more run of the check;
``dpspec mutate`` runs every bug control as a mutant too (the same edit made in its copy of the
file, :func:`dpspec.proofs.engine.mutation.controls`).
"""

from __future__ import annotations
import __future__

import inspect
import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from dpspec.proofs.engine.edits import Edit, raw, resolve

#: A bug control is an :class:`~dpspec.proofs.engine.edits.Edit` (the name the declarations
#: use): ``BugControl(target, original, replacement, bug)``.
BugControl = Edit


def mutated(function: Callable[..., Any], original: str, replacement: str) -> Callable[..., Any]:
    """``function`` recompiled from its own source with ``original`` replaced (it must occur
    exactly once), in its module's namespace; decorators in the source are applied again."""
    inner = inspect.unwrap(function)
    source = textwrap.dedent(inspect.getsource(inner))
    count = source.count(original)
    if count != 1:
        raise ValueError(
            f"original: occurs {count} times in {inner.__qualname__} (expected once): {original!r}"
        )
    namespace: dict[str, Any] = dict(inner.__globals__)
    code = compile(
        source.replace(original, replacement),
        f"<bug control of {inner.__qualname__}>",
        "exec",
        flags=__future__.annotations.compiler_flag,
        dont_inherit=True,
    )
    exec(code, namespace)
    made: Callable[..., Any] = namespace[inner.__name__]
    if getattr(function, "__dpspec_checked__", False) and not getattr(
        made, "__dpspec_checked__", False
    ):
        from dpspec.validation import checked

        made = checked(made)
    return made


@contextmanager
def planted(control: BugControl) -> Iterator[None]:
    """The package with ``control``'s bug in place, for the duration of the block."""
    owner, name, member = resolve(control.target)
    function, how = raw(member)
    bug = mutated(function, control.original, control.replacement)
    wrap: dict[str, Callable[[Any], Any]] = {
        "static": staticmethod,
        "class": classmethod,
        "property": property,
    }
    held = isinstance(bug, staticmethod | classmethod | property)  # its decorator re-applied
    replacement: Any = wrap[how](bug) if how in wrap and not held else bug
    holders = [(owner, name)]
    if inspect.ismodule(owner):  # modules that imported the function, by any name, use it too
        holders += [
            (module, alias)
            for key, module in list(sys.modules.items())
            if key.startswith("dpspec") and module is not owner
            for alias, value in list(vars(module).items())
            if value is member
        ]
    for holder, alias in holders:
        setattr(holder, alias, replacement)
    try:
        yield
    finally:
        for holder, alias in holders:
            setattr(holder, alias, member)
