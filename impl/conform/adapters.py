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
* for learners (:func:`learner_factory`): a class taking ``epsilon`` and ``random_state``, an
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
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

#: outputs per call of a vectorised target (bounds the memory of one call)
BLOCK = 2**18


class TargetError(RuntimeError):
    """The target raised while drawing (the original exception is the cause)."""


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


@dataclass
class Sampler:
    """A target in one calling convention: ``form`` names it, ``seeded`` says whether the
    generator dpspec passes drives all of its randomness, ``vectorised`` whether one call
    returns many draws. ``pmf`` is the target's own law, when it has one."""

    call: Callable[[Any, int, np.random.Generator], Any]
    form: str
    seeded: bool
    vectorised: bool
    description: str
    pmf: Callable[[Any], Any] | None = None

    def draw(self, data: Any, size: int, rng: np.random.Generator) -> NDArray[Any]:
        """``size`` outputs on ``data`` (vectorised targets are called in blocks)."""
        parts: list[NDArray[Any]] = []
        left = size
        while left > 0:
            k = min(left, BLOCK) if self.vectorised else left
            try:
                out = self.call(data, k, rng)
            except Exception as exc:
                raise TargetError(
                    f"target: {self.description} raised {type(exc).__name__}: {exc}"
                ) from exc
            arr = out if isinstance(out, np.ndarray) else _stack(list(out))
            if arr.shape[:1] != (k,):
                raise TargetError(
                    f"target: {self.description} returned {arr.shape[:1] or 'a scalar'} "
                    f"outputs for {k} draws"
                )
            parts.append(arr)
            left -= k
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    # the auditor's Mechanism protocol: sample(data, n, rng)
    def sample(self, data: Any, n: int, rng: np.random.Generator) -> NDArray[Any]:
        return self.draw(data, n, rng)


def _pmf_of(obj: Any) -> Callable[[Any], Any] | None:
    pmf = getattr(obj, "pmf", None)
    if pmf is None or not callable(pmf):
        return None
    return pmf  # type: ignore[no-any-return]


def as_sampler(target: Any, name: str = "target") -> Sampler:
    """The :class:`Sampler` of a mechanism-like target (module docstring for the forms)."""
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
            f"{name}: {label} has {arity} parameters without a default; expected f(data), "
            "f(data, rng) or f(data, size, rng) (parameters with defaults may follow)"
        )
    raise TypeError(
        f"{name}: expected an object with sample(data, size, rng) or randomise(data[, rng]), "
        f"or a function f(data[, size], rng) / f(data); got {type(target).__name__}"
    )


def learner_factory(
    target: Any, epsilon: float, name: str = "target"
) -> tuple[Callable[[int], Any], str, bool]:
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
            raise TypeError(f"{name}: a learner factory takes one argument (the seed), got {arity}")
        label = getattr(target, "__qualname__", type(target).__name__)
        return target, f"{label}(seed)", True
    raise TypeError(
        f"{name}: expected an estimator class, an unfitted estimator or a factory seed -> "
        f"estimator; got {type(target).__name__}"
    )


def load(spec: str) -> Any:
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
