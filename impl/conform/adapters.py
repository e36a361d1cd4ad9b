"""Calling conventions of the implementations ``dpspec conform`` judges, in one place.

A target is run as a :class:`Sampler`: ``draw(data, size, rng)`` returns ``size`` independent
outputs of the implementation on the algorithm's input ``data`` (what ``data`` is depends on the
algorithm: ``dpspec conform --list`` says it). Accepted forms, detected in this order:

* an object with ``sample(data, size, rng)`` (dpspec's contract; vectorised, seeded);
* an object with ``randomise(data, rng)`` or ``randomise(data)`` (one output per call; the
  one-argument form — diffprivlib's mechanisms — draws from the library's own generator);
* a function ``f(data, size, rng)`` (vectorised), ``f(data, rng)`` or ``f(data)`` (one output per
  call), told apart by the number of parameters **without a default** (defaulted parameters
  after them are left alone);
* for learners (:mod:`dpspec.conform.learners`): a class taking ``epsilon`` and ``random_state``, an
  unfitted estimator with ``get_params`` / ``set_params`` (cloned per fit with a fresh
  ``random_state``), or a function ``seed -> unfitted estimator``.

A target whose randomness cannot be seeded (``f(data)``, ``randomise(data)``, a library's own
generator) is run all the same; the report says so: its draws do not reproduce, the verdict's
false-alarm bound does not need them to. ``pmf(data)`` on a target, when present, is its own
statement of its law, compared exactly with the spec's.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray

from dpspec.validation import (
    Checked,
    Domain,
    FlagArg,
    Function,
    GeneratorArg,
    InputTypeError,
    Instance,
    Integer,
    Pair,
    SizeArg,
    checked,
    example,
    optional,
)

#: outputs per call of a vectorised target (bounds the memory of one call)
BLOCK = 2**18
#: largest number of draws asked of a target called once per draw (one Python call each)
MAX_DRAWS_PER_CALL = 2 * 10**6


class TargetError(RuntimeError):
    """The target raised while drawing (the original exception is the cause)."""


@dataclass(frozen=True)
class _TargetDomain(Domain):
    """An implementation in one of the calling conventions of this module: a callable (a
    function, or a class for learners), or an object with ``sample``, ``randomise`` or ``fit``."""

    def convert(self, value: Any, name: str) -> Any:
        if callable(value) or any(
            callable(getattr(value, m, None)) for m in ("sample", "randomise", "fit", "draw")
        ):
            return value
        raise InputTypeError(
            f"{name}: expected a function f(data[, size], rng) or f(data), an object with "
            "sample(data, size, rng) or randomise(data[, rng]), or an estimator; got "
            f"{type(value).__name__}"
        )

    def hostile(self) -> tuple[Any, ...]:
        return (*super().hostile(), 3, 1.5, "f", b"f", [len], np.zeros(2))

    def describe(self) -> str:
        return "an implementation (a function, a sampler object or an estimator)"


#: The implementation judged: a function, an object with sample/randomise, an estimator.
TargetArg = Annotated[Any, _TargetDomain()]
#: how deep an algorithm's input nests (a dataset (X, y) of arrays: 2)
MAX_INPUT_DEPTH = 3


@dataclass(frozen=True)
class _InputDomain(Domain):
    """The input of one run of an algorithm of the catalogue: a finite real number (an int,
    a float, a ``Fraction``, a bool), or a tuple, list or numeric array of them (a score
    vector, a dataset of cell ids, a pair (X, y)), nested at most :data:`MAX_INPUT_DEPTH`
    deep. What the algorithm makes of it is the target's business."""

    def convert(self, value: Any, name: str) -> Any:
        _check_input(value, name, MAX_INPUT_DEPTH)
        return value

    def hostile(self) -> tuple[Any, ...]:
        return (
            *super().hostile(),
            float("nan"),
            float("inf"),
            1 + 1j,
            "3",
            b"3",
            {"a": 1},
            (1, None),
            np.array([1.0, np.nan]),
            np.array(["a"]),
            ((((1,),),),),
        )

    def equivalents(self, clean: Any) -> tuple[Any, ...]:
        return (np.int64(clean), Fraction(clean)) if type(clean) is int else ()

    @property
    def example(self) -> Any:
        return 0

    def describe(self) -> str:
        return "finite numbers, or tuples / lists / arrays of them"


def _check_input(value: Any, name: str, depth: int) -> None:
    if isinstance(value, (int, Fraction, np.integer, np.bool_)):
        return
    if isinstance(value, (float, np.floating)):
        if not np.isfinite(value):
            raise ValueError(f"{name}: {value!r} is not a finite number")
        return
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "biuf":
            raise InputTypeError(f"{name}: an array of {value.dtype} is no algorithm's input")
        if value.dtype.kind == "f" and not np.all(np.isfinite(value)):
            raise ValueError(f"{name}: contains NaN or infinite values")
        return
    if isinstance(value, (tuple, list)) and depth > 0:
        for item in value:
            _check_input(item, name, depth - 1)
        return
    raise InputTypeError(
        f"{name}: expected finite numbers or tuples / lists / arrays of them (nested at most "
        f"{MAX_INPUT_DEPTH} deep), got {type(value).__name__}"
    )


#: The input of one run of the algorithm (what it is depends on the algorithm).
InputArg = Annotated[Any, _InputDomain()]
#: A function drawing ``size`` outputs: ``call(data, size, rng)``.
CallArg = Annotated[Callable[[Any, int, np.random.Generator], Any], Function()]
#: A target's own law ``pmf(data)``, or None.
PmfArg = Annotated[Callable[[Any], Any] | None, optional(Function())]
#: A short text (the calling convention, a description).
TextArg = Annotated[str, Instance(types=(str,), clean="f(data, size, rng)")]
#: The integer inputs a target can take (lo, hi), or None: every input the algorithm declares.
InputsArg = Annotated[
    tuple[int, int] | None, Pair(inner=Integer(-(2**63), hi=2**63 - 1), optional=True)
]


def _required_positional(fn: Callable[..., Any]) -> int | None:
    """Number of positional parameters without a default, or None when unknown."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(1 for p in sig.parameters.values() if p.kind in kinds and p.default is p.empty)


def _stack(values: list[Any]) -> NDArray[Any]:
    try:
        return np.asarray(values)
    except (ValueError, TypeError):
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out


def _example_call(data: Any, size: int, rng: np.random.Generator) -> NDArray[np.int64]:
    """A vectorised target for the declared examples: a fair coin, whatever the input."""
    return rng.integers(0, 2, size)


@example(
    __init__={
        "call": _example_call,
        "form": "f(data, size, rng)",
        "seeded": True,
        "vectorised": True,
        "description": "a fair coin",
    },
    draw={"data": 3, "size": 5},
)
@dataclass
class Sampler(Checked):
    """A target in one calling convention: ``call(data, size, rng)`` draws ``size`` outputs;
    ``form`` names the convention, ``seeded`` says whether the generator dpspec passes drives
    all of its randomness, ``vectorised`` whether one call returns many draws (else ``call``
    calls the target once per draw). ``pmf`` is the target's own law, when it has one;
    ``inputs`` the integer inputs it can take (a count takes a dataset of v records:
    0 ≤ v ≤ 10^6), when narrower than the algorithm's (instances outside are left out, and the
    report says which)."""

    call: CallArg
    form: TextArg
    seeded: FlagArg
    vectorised: FlagArg
    description: TextArg
    pmf: PmfArg = None
    inputs: InputsArg = None

    def draw(self, data: InputArg, size: SizeArg, rng: GeneratorArg) -> NDArray[Any]:
        """``size`` outputs on ``data`` (vectorised targets are called in blocks of
        :data:`BLOCK`; a target called once per draw is asked at most
        :data:`MAX_DRAWS_PER_CALL` draws)."""
        if not self.vectorised and size > MAX_DRAWS_PER_CALL:
            raise ValueError(
                f"size: {size} draws of a target called once per draw; the limit is "
                f"{MAX_DRAWS_PER_CALL} (one Python call each)"
            )
        parts: list[NDArray[Any]] = []
        left = size
        while left > 0:  # at most size / BLOCK + 1 rounds
            k = min(left, BLOCK) if self.vectorised else left
            try:
                out = self.call(data, k, rng)
            except Exception as exc:
                raise TargetError(
                    f"target: {self.description} raised {type(exc).__name__}: {exc}"
                ) from exc
            if not isinstance(out, np.ndarray) and (
                isinstance(out, str | bytes | dict) or not hasattr(out, "__iter__")
            ):
                raise TargetError(
                    f"target: {self.description} returned one {type(out).__name__} "
                    f"({out!r:.40}) for {k} draws; a call f(data, size, rng) returns size "
                    "outputs (an array or a list)"
                )
            arr = out if isinstance(out, np.ndarray) else _stack(list(out))
            if arr.shape[:1] != (k,):
                raise TargetError(
                    f"target: {self.description} returned {arr.shape[:1] or 'a scalar'} "
                    f"outputs for {k} draws"
                )
            parts.append(arr)
            left -= k
        return parts[0] if len(parts) == 1 else np.concatenate(parts)


def _pmf_of(obj: Any) -> Callable[[Any], Any] | None:
    pmf = getattr(obj, "pmf", None)
    if pmf is None or not callable(pmf):
        return None
    return pmf  # type: ignore[no-any-return]


@example(__call__={"target": _example_call})
@checked
def as_sampler(target: TargetArg) -> Sampler:
    """The :class:`Sampler` of a mechanism-like target (module docstring for the forms); a
    TypeError naming ``target`` for anything else."""
    if isinstance(target, Sampler):
        return target
    label = getattr(target, "__qualname__", None) or type(target).__name__
    sample = getattr(target, "sample", None)
    if callable(sample) and not isinstance(target, type):
        return Sampler(
            lambda d, k, rng: sample(d, k, rng),
            "sample(data, size, rng)",
            True,
            True,
            f"{label}.sample",
            _pmf_of(target),
        )
    randomise = getattr(target, "randomise", None)
    if callable(randomise) and not isinstance(target, type):
        arity = _required_positional(randomise)
        if arity == 2:
            return Sampler(
                lambda d, k, rng: [randomise(d, rng) for _ in range(k)],
                "randomise(data, rng)",
                True,
                False,
                f"{label}.randomise",
                _pmf_of(target),
            )
        return Sampler(
            lambda d, k, rng: [randomise(d) for _ in range(k)],
            "randomise(data)",
            False,
            False,
            f"{label}.randomise",
            _pmf_of(target),
        )
    if callable(target) and not isinstance(target, type):
        arity = _required_positional(target)
        if arity == 3:
            return Sampler(target, "f(data, size, rng)", True, True, label, _pmf_of(target))
        if arity == 2:
            return Sampler(
                lambda d, k, rng: [target(d, rng) for _ in range(k)],
                "f(data, rng)",
                True,
                False,
                label,
                _pmf_of(target),
            )
        if arity in (1, None):
            return Sampler(
                lambda d, k, rng: [target(d) for _ in range(k)],
                "f(data)",
                False,
                False,
                label,
                _pmf_of(target),
            )
        raise TypeError(
            f"target: {label} has {arity} parameters without a default; expected f(data), "
            "f(data, rng) or f(data, size, rng) (parameters with defaults may follow)"
        )
    raise TypeError(
        "target: expected an object with sample(data, size, rng) or randomise(data[, rng]), "
        f"or a function f(data[, size], rng) / f(data); got {type(target).__name__}"
    )


def _learner_factory(target: Any, epsilon: float) -> tuple[Callable[[int], Any], str, bool]:
    """(seed → unfitted estimator, description, seeded) for a learner target."""
    if isinstance(target, type):
        cls = target

        def make_from_class(seed: int) -> Any:
            return cls(epsilon=epsilon, random_state=seed)

        return make_from_class, f"{cls.__qualname__}(epsilon={epsilon:g}, random_state=seed)", True
    if hasattr(target, "get_params") and hasattr(target, "fit"):
        params = dict(target.get_params())
        kind = type(target)
        seeded = "random_state" in params

        def make_clone(seed: int) -> Any:
            model = kind(**params)
            if seeded:
                model.set_params(random_state=seed)
            return model

        return make_clone, f"clones of {kind.__qualname__}({params})", seeded
    if callable(target):
        arity = _required_positional(target)
        if arity not in (1, None):
            raise TypeError(f"target: a learner factory takes one argument (the seed), got {arity}")
        label = getattr(target, "__qualname__", type(target).__name__)
        return target, f"{label}(seed)", True
    raise TypeError(
        "target: expected an estimator class, an unfitted estimator or a factory seed -> "
        f"estimator; got {type(target).__name__}"
    )


def _load(spec: str) -> Any:
    """``module:attribute`` (imported with the working directory on the path) or
    ``path/to/file.py:attribute`` (its folder on the path, so its siblings import)."""
    where, _, attr = spec.rpartition(":")
    if not where or not attr:
        raise ValueError(f"target: expected module:callable or file.py:callable, got {spec!r}")
    if where.endswith(".py"):
        path = Path(where)
        if not path.is_file():
            raise ValueError(f"target: no file {where!r}")
        folder = str(path.resolve().parent)
        if folder not in sys.path:
            sys.path.insert(0, folder)
        module_spec = importlib.util.spec_from_file_location(path.stem, path)
        if module_spec is None or module_spec.loader is None:
            raise ValueError(f"target: cannot load {where!r}")
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[path.stem] = module
        try:
            module_spec.loader.exec_module(module)
        except Exception as exc:
            raise TargetError(
                f"target: running {where!r} raised {type(exc).__name__}: {exc}"
            ) from exc
    else:
        cwd = os.getcwd()
        if cwd not in sys.path:
            sys.path.insert(0, cwd)
        try:
            module = importlib.import_module(where)
        except ImportError as exc:
            raise ValueError(f"target: cannot import {where!r} ({exc})") from exc
        except Exception as exc:
            raise TargetError(
                f"target: importing {where!r} raised {type(exc).__name__}: {exc}"
            ) from exc
    if not hasattr(module, attr):
        raise ValueError(f"target: {where!r} has no attribute {attr!r}")
    return getattr(module, attr)
