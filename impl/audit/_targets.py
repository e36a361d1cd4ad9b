"""What the auditor samples and the outputs it can represent.

A target is a :class:`Mechanism` — ``sample(data, size, rng)`` returns n independent outputs on
``data`` — or a callable made into one by :class:`CallableMechanism`. Every batch of outputs is
put in one form every event can be evaluated on (:func:`outputs_of`): numbers, strings or bytes,
one per row, vectors as (n, k) rows; anything else is refused with an error naming
``mechanism``, never judged.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from dpspec.audit._identity import qualified_name
from dpspec.audit._structured import StructuredOutputs, structured_rows
from dpspec.validation import InputTypeError


class MechanismError(RuntimeError):
    """The audited mechanism raised while sampling (the original exception is the cause)."""


@runtime_checkable
class Mechanism(Protocol):
    """A randomised algorithm: ``sample(data, size, rng)`` returns ``size`` independent outputs
    on ``data``, shape (size,) for scalar outputs or (size, k) for vectors."""

    def sample(self, data: Any, size: int, rng: np.random.Generator) -> NDArray[Any]: ...


class CallableMechanism:
    """Wrap a callable as a :class:`Mechanism`. Its *required* positional parameters decide
    the form (parameters with defaults after them are left to their defaults):

    * ``f(data, n, rng)`` — vectorised: n outputs from the audit's Generator in one call;
    * ``f(data, rng)`` — one output per call, from the audit's Generator (called n times);
    * ``f(data)`` — one output per call from the function's own randomness (called n times):
      the audit seeds numpy's global generator and Python's ``random`` from its own
      Generator before the calls and restores them after, so a target drawing from those is
      reproducible; a target with a generator of its own is not (give it an ``rng``).

    Functions, lambdas, ``functools.partial`` objects and instances of classes with
    ``__call__`` are accepted; anything else is refused with a message saying what was found.
    The per-call forms run Python once per draw: prefer ``f(data, n, rng)`` for large audits.
    """

    def __init__(self, fn: Callable[..., Any]) -> None:
        if isinstance(fn, type):
            raise InputTypeError(
                f"mechanism: got the class {qualified_name(fn)}; pass an instance (its "
                "__call__ is the mechanism) or an object with sample(data, size, rng)"
            )
        if not callable(fn):
            raise InputTypeError(
                f"mechanism: expected a callable or .sample(data, size, rng), got {fn!r}"
            )
        self.fn = fn
        self.arity = _arity(fn)
        self.sequential = self.arity == 1  # draws from global generators: one thread at a time

    def sampling(self) -> str:
        """How a draw is made (reported in the audit result)."""
        name = qualified_name(self.fn)
        if self.arity == 3:
            return f"{name}(data, n, rng), vectorised"
        if self.arity == 2:
            return f"{name}(data, rng), called once per draw"
        return f"{name}(data), called once per draw, global generators seeded by the audit"

    def draw_kind(self) -> str:
        """ "vectorised" for ``f(data, n, rng)``, else "per-call" (one Python call per draw)."""
        return "vectorised" if self.arity == 3 else "per-call"

    def sample(self, data: Any, n: int, rng: np.random.Generator) -> Any:
        if self.arity == 3:
            return _stack(self.fn(data, n, rng))
        if self.arity == 2:
            return _stack([self.fn(data, rng) for _ in range(n)])
        with _SeededGlobals(rng):
            return _stack([self.fn(data) for _ in range(n)])


_FORMS = "f(data), f(data, rng) or f(data, n, rng)"


def _arity(fn: Callable[..., Any]) -> int:
    """1, 2 or 3: the form of ``fn`` by its required positional parameters (see
    :class:`CallableMechanism`), or a TypeError naming ``mechanism`` and what was found."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):  # builtins without a signature: assume f(data)
        return 1
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is p.empty]
    keyword_only = [p.name for p in params if p.kind == p.KEYWORD_ONLY and p.default is p.empty]
    variadic = any(p.kind == p.VAR_POSITIONAL for p in params)
    found = f"{qualified_name(fn)}({', '.join(p.name for p in positional)})"
    if keyword_only:
        raise InputTypeError(
            f"mechanism: {found} has required keyword-only parameters {keyword_only}; expected "
            f"{_FORMS} (further parameters need defaults)"
        )
    count = len(required) if required else min(len(positional), 3)
    if variadic and not required and not positional:
        raise InputTypeError(
            f"mechanism: {found} takes *args only, so its form is ambiguous; expected {_FORMS}"
        )
    if count == 0 or count > 3:
        raise InputTypeError(
            f"mechanism: {found} has {len(required)} required positional parameters; expected "
            f"{_FORMS} (further parameters need defaults)"
        )
    return count


class _SeededGlobals:
    """Seed numpy's legacy global generator and Python's ``random`` from ``rng`` for the
    duration of a block, and restore both states after."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.seed = int(rng.integers(2**32))

    def __enter__(self) -> None:
        import random

        self.saved = (np.random.get_state(), random.getstate())
        np.random.seed(self.seed)
        random.seed(self.seed)

    def __exit__(self, *exc: object) -> None:
        import random

        np.random.set_state(self.saved[0])
        random.setstate(self.saved[1])


def _stack(values: Any) -> Any:
    """Outputs as one array; rows numpy cannot stack faithfully (dicts, ragged rows, rows
    mixing kinds: :func:`~dpspec.audit._structured.structured_rows`) are passed on as a list
    for :func:`_outputs` to read as shapes and numbers. Arrays (masked ones included) are
    passed on as they are."""
    if isinstance(values, np.ndarray):
        return values
    if isinstance(values, list | tuple) and structured_rows(values) is not None:
        return list(values)
    try:
        return np.asarray(values)
    except (ValueError, TypeError):
        rows = list(values)
        out = np.empty(len(rows), dtype=object)
        out[:] = rows
        return out


def describe_sampling(mechanism: Any) -> str:
    """How an audit draws from ``mechanism``: its own ``sampling()`` account when it has one
    (callables, learners), else its class's ``sample``."""
    own = getattr(mechanism, "sampling", None)
    if callable(own):
        return str(own())
    return f"{qualified_name(mechanism)}.sample(data, size, rng)"


#: how a target makes its draws (:func:`draw_kind`)
DRAW_KINDS = ("vectorised", "per-call", "per-fit")


def draw_kind(mechanism: Any) -> str:
    """How ``mechanism`` makes its draws, one of :data:`DRAW_KINDS`: its own ``draw_kind()``
    when it has one (callables: "per-call" unless ``f(data, n, rng)``; learners: "per-fit"
    unless the vectorised shortcut runs), else "vectorised" (``sample(data, size, rng)``
    returns a batch by contract)."""
    own = getattr(mechanism, "draw_kind", None)
    kind = own() if callable(own) else "vectorised"
    return kind if kind in DRAW_KINDS else "vectorised"


def as_mechanism(mechanism: Any) -> Mechanism:
    """A :class:`Mechanism` from an object with ``sample`` or from a callable."""
    if isinstance(mechanism, Mechanism) and not isinstance(mechanism, type):
        return mechanism
    if callable(mechanism):
        return CallableMechanism(mechanism)
    raise InputTypeError(
        f"mechanism: expected .sample(data, size, rng) or a callable, got {mechanism!r}"
    )


# --- outputs: what the auditor can represent ---------------------------------------------------


def _from_objects(arr: NDArray[Any]) -> NDArray[Any]:
    """An object array as numbers, strings or bytes, or a TypeError naming what it holds.
    Integers beyond int64 become their decimal strings (exact atoms); real numbers are
    compared as float64 (a fixed map of the output: events on it are events on the output)."""
    flat = list(arr.reshape(-1))
    shape = arr.shape

    def every(*types: type) -> bool:
        return all(isinstance(v, types) for v in flat)

    if every(bool, np.bool_):
        return np.asarray(flat, dtype=bool).reshape(shape)
    if every(int, np.integer) and not any(isinstance(v, bool | np.bool_) for v in flat):
        try:
            return np.asarray(flat, dtype=np.int64).reshape(shape)
        except OverflowError:
            return np.asarray([str(int(v)) for v in flat]).reshape(shape)
    if every(int, float, np.integer, np.floating, np.bool_):
        return np.asarray(flat, dtype=np.float64).reshape(shape)
    if every(int, float, complex, np.number, np.bool_):
        return np.asarray(flat, dtype=np.complex128).reshape(shape)
    if every(str):
        return np.asarray(flat, dtype=str).reshape(shape)
    if every(bytes):
        return np.asarray(flat, dtype=bytes).reshape(shape)
    names = sorted({type(v).__name__ for v in flat})
    raise InputTypeError(
        f"mechanism: outputs of type {', '.join(names)} cannot be audited (supported: numbers, "
        "strings, bytes and fixed-length vectors of numbers); map the release to one of these"
    )


def _outputs(raw: Any, n: int) -> Any:
    """The mechanism's n outputs in a form every event can be evaluated on, or a clear error:
    numbers (bool, int, float64), strings or bytes, one per row; vectors as (n, k) rows;
    anything an array cannot hold faithfully — dicts, variable-length rows, rows mixing
    numbers with strings, bytes, None or containers — as
    :class:`~dpspec.audit._structured.StructuredOutputs` (shapes and the numbers within them).
    Complex values become (real, imaginary) columns and arrays of more than two dimensions
    are flattened per row (both one-to-one); NaN payloads are made canonical (one NaN atom)."""
    if isinstance(raw, np.ma.MaskedArray) and np.ma.getmaskarray(raw).any():
        raise InputTypeError(
            "mechanism: a masked array with masked entries cannot be audited (the mask is part "
            "of the release); fill the masked entries (e.g. with NaN) or return the mask too"
        )
    rows = structured_rows(raw)
    if rows is None and isinstance(raw, np.ndarray) and raw.dtype.kind == "O" and raw.ndim == 1:
        rows = structured_rows(list(raw))
    if rows is not None:
        if len(rows) != n:
            raise ValueError(f"mechanism: sample(data, {n}, rng) returned {len(rows)} outputs")
        structured = StructuredOutputs(rows)
        if all(key == (((), "none"),) for key in structured.keys):
            raise InputTypeError(
                "mechanism: every output is None: no release to audit (a missing return?)"
            )
        return structured
    try:
        arr = raw if type(raw) is np.ndarray else np.asarray(raw)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"mechanism: outputs do not form an array of {n} rows ({exc})") from exc
    if arr.ndim == 0 or arr.shape[0] != n:
        raise ValueError(f"mechanism: sample(data, {n}, rng) returned shape {arr.shape}")
    if arr.dtype.kind == "O":
        arr = _from_objects(arr)
    if arr.dtype.kind == "c":
        arr = np.stack([arr.real, arr.imag], axis=-1).astype(np.float64)
    if arr.dtype.kind not in "biufUS":
        raise InputTypeError(
            f"mechanism: outputs of dtype {arr.dtype} cannot be audited (supported: numbers, "
            "strings, bytes and fixed-length vectors of numbers)"
        )
    if arr.ndim > 2:
        arr = arr.reshape(n, -1)
    if arr.ndim == 2 and arr.shape[1] == 0:
        raise ValueError("mechanism: outputs are empty rows (shape (n, 0))")
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.dtype.kind == "f":
        arr = arr.astype(np.float64, copy=False)
        nan = np.isnan(arr)
        if nan.any():
            arr = np.where(nan, np.nan, arr)
    return arr


def as_structured(outputs: Any) -> StructuredOutputs:
    """Plain outputs (an array) read as shapes and numbers, to be compared with structured
    outputs of the same mechanism (a fixed map: a number is a number in both readings)."""
    if isinstance(outputs, StructuredOutputs):
        return outputs
    return StructuredOutputs(list(np.asarray(outputs)))


def _space(arr: Any) -> tuple[str, tuple[int, ...]]:
    """The output space of a batch: text kind, "number" or "structured", and the shape of
    one output (a structured output's shape varies: it is an event of its own)."""
    if isinstance(arr, StructuredOutputs):
        return ("structured", ())
    kind = arr.dtype.kind
    return (kind if kind in "US" else "number", tuple(arr.shape[1:]))


def _draw(
    mechanism: Mechanism,
    data: Any,
    n: int,
    rng: np.random.Generator,
    space: tuple[str, tuple[int, ...]] | None = None,
) -> Any:
    """n outputs of the mechanism on ``data`` (see :func:`_outputs`); an exception of the
    mechanism becomes :class:`MechanismError`, outputs of another space than ``space`` (the
    selection draws') a ValueError."""
    try:
        raw = mechanism.sample(data, n, rng)
    except Exception as exc:
        raise MechanismError(
            f"mechanism: sample(data, {n}, rng) raised {type(exc).__name__}: {exc}"
        ) from exc
    out = _outputs(raw, n)
    if space == ("structured", ()) and not isinstance(out, StructuredOutputs):
        out = as_structured(out)  # a block that happened to be all plain numbers
    if space is not None and _space(out) != space:
        raise ValueError(
            f"mechanism: outputs changed kind or shape between draws ({space} then "
            f"{_space(out)}); return one output type and shape for every input"
        )
    return out
