"""What an audit is *of*: a fingerprint of a target's code and data, for checkpoint keys.

A checkpoint must be refused by any audit other than the one that wrote it. Names alone do not
identify a target: ``lambda d, n, r: d + r.laplace(0, 1, n)`` and ``lambda d, n, r: d +
r.laplace(0, .05, n)`` share the qualified name ``<lambda>``, two ``FunctionMechanism("lap",
…)`` share their repr, and ``repr`` of a large array elides its middle. :func:`fingerprint`
hashes a canonical description instead:

* numbers, strings, bytes: their type and exact value; numpy arrays: dtype, shape and the
  SHA-256 of their bytes; containers: their items, in order (dict and set items sorted);
* a function: module, qualified name, its code (bytecode, constants — nested code included —
  and names; of a function wrapped by :func:`dpspec.validation.checked`, the code it wraps),
  defaults, the contents of its closure cells and the module globals its code
  names (values and functions of its own module are followed; other modules' objects by name);
* a class: module, qualified name and the code and values defined in every class of its MRO
  outside the standard library's ``builtins`` (:class:`dpspec.validation.Checked`, the base
  of every public class, by name); an instance: its class and its ``__dict__`` /
  ``__slots__`` values.

Walking is bounded (depth 12, 20 000 nodes): what lies beyond is summarised by its type name.
What is not covered — the code of other installed packages the target calls (numpy, a DP
library), random generators held by the target (their state changes as they draw), objects
reached only through C extensions — is named by type only. The README states this as the
checkpoint's threat model.
"""

from __future__ import annotations

import functools
import hashlib
import types
from typing import Any

import numpy as np

from dpspec.validation import CHECKED_MARK

#: bounds of one fingerprint walk: deeper or further objects are named by their type only
MAX_DEPTH = 12
MAX_NODES = 20_000

_SKIPPED_CLASS_ATTRIBUTES = frozenset(
    {"__dict__", "__weakref__", "__doc__", "__module__", "__qualname__", "__annotations__"}
)


def qualified_name(obj: Any) -> str:
    """``module.qualname`` of a function or class; of an instance, its class's."""
    target: Any = type(obj)
    if isinstance(obj, type | types.FunctionType | types.BuiltinFunctionType):
        target = obj
    elif isinstance(obj, types.MethodType):
        target = obj.__func__
    module = getattr(target, "__module__", None) or "?"
    return f"{module}.{getattr(target, '__qualname__', type(target).__name__)}"


class _Walk:
    """One canonical walk: tokens appended to a SHA-256, with a node budget and cycle marks."""

    def __init__(self) -> None:
        self.hash = hashlib.sha256()
        self.nodes = 0
        self.open: set[int] = set()

    def token(self, *parts: Any) -> None:
        for part in parts:
            text = part if isinstance(part, str) else repr(part)
            self.hash.update(text.encode("utf-8", "backslashreplace"))
            self.hash.update(b"\x1f")

    def visit(self, obj: Any, depth: int) -> None:
        self.nodes += 1
        if depth > MAX_DEPTH or self.nodes > MAX_NODES:
            self.token("beyond", qualified_name(type(obj)))
            return
        if obj is None or isinstance(obj, bool | int | float | complex | str | bytes):
            self.token(type(obj).__name__, obj)
            return
        if isinstance(obj, np.ndarray):
            self._array(obj, depth)
            return
        if isinstance(obj, np.generic):
            self.token("numpy", obj.dtype.str, repr(obj.item()))
            return
        key = id(obj)
        if key in self.open:
            self.token("cycle", qualified_name(type(obj)))
            return
        self.open.add(key)
        try:
            self._composite(obj, depth)
        finally:
            self.open.discard(key)

    def _array(self, arr: np.ndarray[Any, Any], depth: int) -> None:
        self.token("ndarray", arr.dtype.str, arr.shape)
        if arr.dtype.kind == "O":
            for item in arr.reshape(-1)[:1000].tolist():
                self.visit(item, depth + 1)
            self.token("objects", arr.size)
            return
        self.token(hashlib.sha256(np.ascontiguousarray(arr).tobytes()).hexdigest())

    def _composite(self, obj: Any, depth: int) -> None:
        if isinstance(obj, tuple | list):
            self.token(type(obj).__name__, len(obj))
            for item in obj:
                self.visit(item, depth + 1)
        elif isinstance(obj, dict):
            self.token("dict", len(obj))
            for k, v in sorted(obj.items(), key=lambda kv: repr(kv[0])):
                self.visit(k, depth + 1)
                self.visit(v, depth + 1)
        elif isinstance(obj, set | frozenset):
            self.token("set", sorted(fingerprint(v) for v in obj))
        elif isinstance(obj, types.FunctionType):
            self._function(obj, depth)
        elif isinstance(obj, types.MethodType):
            self.token("method")
            self.visit(obj.__func__, depth + 1)
            self.visit(obj.__self__, depth + 1)
        elif isinstance(obj, types.CodeType):
            self._code(obj, depth)
        elif isinstance(obj, functools.partial):
            self.token("partial")
            self.visit(obj.func, depth + 1)
            self.visit(obj.args, depth + 1)
            self.visit(obj.keywords, depth + 1)
        elif isinstance(obj, staticmethod | classmethod):
            self.token(type(obj).__name__)
            self.visit(obj.__func__, depth + 1)
        elif isinstance(obj, property):
            self.token("property")
            for part in (obj.fget, obj.fset, obj.fdel):
                self.visit(part, depth + 1)
        elif isinstance(obj, types.ModuleType | types.BuiltinFunctionType):
            self.token(type(obj).__name__, getattr(obj, "__name__", "?"))
        elif isinstance(obj, np.random.Generator | np.random.RandomState | np.random.BitGenerator):
            self.token("generator", qualified_name(type(obj)))  # its state moves as it draws
        elif isinstance(obj, type):
            self._class(obj, depth)
        else:
            self._instance(obj, depth)

    def _function(self, fn: types.FunctionType, depth: int) -> None:
        wrapped = getattr(fn, "__wrapped__", None)
        if getattr(fn, CHECKED_MARK, False) and isinstance(wrapped, types.FunctionType):
            self.token("checked")  # dpspec's validation wrapper: the code it runs is wrapped's
            self._function(wrapped, depth)
            return
        self.token("function", qualified_name(fn))
        self._code(fn.__code__, depth)
        self.visit(fn.__defaults__, depth + 1)
        self.visit(fn.__kwdefaults__, depth + 1)
        for cell in fn.__closure__ or ():
            try:
                content = cell.cell_contents
            except ValueError:  # an empty cell
                self.token("empty cell")
                continue
            self.visit(content, depth + 1)
        own = fn.__module__
        for name in _global_names(fn.__code__):
            if name not in fn.__globals__:
                continue
            value = fn.__globals__[name]
            self.token("global", name)
            if isinstance(value, types.ModuleType):
                self.token("module", value.__name__)
            elif getattr(value, "__module__", own) == own or _plain(value):
                self.visit(value, depth + 1)
            else:
                self.token("named", qualified_name(value))

    def _code(self, code: types.CodeType, depth: int) -> None:
        self.token("code", code.co_argcount, code.co_kwonlyargcount, code.co_flags)
        self.token(code.co_code.hex(), code.co_names, code.co_varnames, code.co_freevars)
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                self._code(const, depth + 1)
            else:
                self.visit(const, depth + 1)

    def _class(self, cls: type, depth: int) -> None:
        self.token("class", qualified_name(cls))
        for base in cls.__mro__:
            if base.__module__ == "builtins":
                continue
            self.token("base", qualified_name(base))
            if base.__module__.startswith("dpspec.validation"):
                continue  # the validation every public class inherits: named, not walked
            for name, value in sorted(vars(base).items()):
                if name in _SKIPPED_CLASS_ATTRIBUTES:
                    continue
                self.token("attribute", name)
                code = isinstance(value, types.FunctionType | staticmethod | classmethod | property)
                if code or _plain(value):
                    self.visit(value, depth + 1)
                else:
                    self.token("named", qualified_name(value))

    def _instance(self, obj: Any, depth: int) -> None:
        cls = type(obj)
        self.token("instance")
        self._class(cls, depth + 1)
        state = getattr(obj, "__dict__", None)
        if isinstance(state, dict):
            self.visit(dict(state), depth + 1)
        for name in _slot_names(cls):
            if hasattr(obj, name):
                self.token("slot", name)
                self.visit(getattr(obj, name), depth + 1)


def _plain(value: Any) -> bool:
    """A value (not code): numbers, text, arrays and containers of them."""
    return value is None or isinstance(
        value, bool | int | float | complex | str | bytes | np.ndarray | np.generic | tuple | list
    )


def _global_names(code: types.CodeType) -> list[str]:
    """The global names a code object and its nested code objects read, in order, once."""
    out: dict[str, None] = dict.fromkeys(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            out.update(dict.fromkeys(_global_names(const)))
    return list(out)


def _slot_names(cls: type) -> list[str]:
    names: list[str] = []
    for base in cls.__mro__:
        slots = vars(base).get("__slots__", ())
        names.extend([slots] if isinstance(slots, str) else list(slots))
    return [n for n in names if n not in ("__dict__", "__weakref__")]


def fingerprint(obj: Any) -> str:
    """SHA-256 (hex) of the canonical description of ``obj`` (see the module docstring): equal
    for two objects with the same code and data, in any process."""
    walk = _Walk()
    walk.visit(obj, 0)
    return walk.hash.hexdigest()
