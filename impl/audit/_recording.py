"""A numpy Generator that records every draw a target makes, and replays them coupled.

:class:`RecordingGenerator` is a real :class:`numpy.random.Generator` (a target's own
``isinstance`` checks pass). Each call of a sampling method is a :class:`Call`: its method, its
distribution parameters, its shape and its call site (file:line of the target's code).

* **Location families** (``laplace``, ``normal``, ``standard_normal``, ``gumbel``,
  ``logistic``: :data:`~dpspec.accounting.pld.FAMILIES`) are drawn as loc + scale·e with e
  standardised; what is recorded is e. The draw is returned as a :class:`Noise` array, which
  notes the first arithmetic it takes part in: ``c + noise``, ``noise + c``, ``c − noise`` or
  ``noise − c`` record the other operand c per element (the value the noise is added to), and
  any other use marks those elements *transformed*. The result of that first operation is a
  plain array.
* **Every other method** (``integers``, ``random``, ``choice``, ``permutation``, ``shuffle``,
  …: all public methods of the Generator class, found by walking it) is recorded as it came
  out, with its arguments, and replayed identically (the identity coupling).

In replay mode the generator returns the given standardised noise (shifted by the coupling)
and the recorded outputs of the other methods, and raises :class:`ReplayMismatch` with the
site as soon as the target asks for something else: another method or shape, another scale, an
uncoupled draw with other arguments, or more draws than recorded. Its bit generator is freshly
seeded, so a target that draws around the wrapper (``rng.bit_generator``, a Generator of its
own, the global generators) releases something else on a replay of the same draws.
"""

from __future__ import annotations

import inspect
import sys
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.accounting.pld import FAMILIES

_HERE = __file__


class ReplayMismatch(Exception):
    """The target asked a replaying generator for another draw than the recorded one."""

    def __init__(self, kind: str, site: str, detail: str) -> None:
        super().__init__(f"{kind} at {site}: {detail}")
        self.kind = kind
        self.site = site
        self.detail = detail


def _site() -> str:
    """file:line of the first frame outside this module (the target's call)."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename == _HERE:
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return "?"
    return f"{frame.f_code.co_filename}:{frame.f_lineno}"


@dataclass
class Call:
    """One draw request: ``method`` with ``family`` (a location family, else None), at
    ``site``, of ``shape``; for a location family ``loc`` and ``scale`` broadcast to the shape,
    ``standard`` the standardised noise e, and per element the value ``offset`` it was added
    to (NaN where it was not combined by + or −), its ``sign`` (+1 added, −1 subtracted from
    the other operand) and ``transformed`` (used otherwise); for other methods ``key`` (the
    arguments) and ``output``."""

    method: str
    family: str | None
    site: str
    shape: tuple[int, ...]
    loc: NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    scale: NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    standard: NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    offset: NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    sign: NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    transformed: NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, dtype=bool))
    key: Any = None
    output: Any = None

    def start_tracking(self) -> None:
        size = int(np.prod(self.shape, dtype=np.int64))
        self.offset = np.full(size, np.nan)
        self.sign = np.ones(size)
        self.transformed = np.zeros(size, dtype=bool)


class Noise(np.ndarray):
    """A location-family draw that notes the first arithmetic it takes part in (see the
    module docstring); ``_call`` is its :class:`Call`, ``_pos`` the flat positions of its
    elements in the call's draw."""

    _call: Call | None
    _pos: NDArray[np.int64]

    def __array_finalize__(self, obj: Any) -> None:
        self._call = getattr(obj, "_call", None)
        self._pos = getattr(obj, "_pos", np.zeros(0, dtype=np.int64))

    def __getitem__(self, key: Any) -> Any:
        out = np.asarray(self).__getitem__(key)
        pos = self._pos.reshape(self.shape)[key]
        view = np.asarray(out).view(Noise)
        view._call, view._pos = self._call, np.asarray(pos, dtype=np.int64)
        return view

    def _plain(self) -> NDArray[Any]:
        return np.asarray(self).view(np.ndarray)

    def _mark(self) -> None:
        if self._call is not None and self._call.transformed.size:
            self._call.transformed[self._pos.ravel()] = True

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        noisy = [i for i, x in enumerate(inputs) if isinstance(x, Noise)]
        plain = [x._plain() if isinstance(x, Noise) else x for x in inputs]
        if "out" in kwargs:
            kwargs["out"] = tuple(x._plain() if isinstance(x, Noise) else x for x in kwargs["out"])
        result = getattr(ufunc, method)(*plain, **kwargs)
        additive = ufunc in (np.add, np.subtract) and method == "__call__"
        if additive and len(noisy) == 1 and len(inputs) == 2 and "out" not in kwargs:
            me = inputs[noisy[0]]
            other = np.asarray(plain[1 - noisy[0]], dtype=np.float64)
            if np.shape(result) == me.shape and me._call is not None:
                me._record(other, noisy[0], ufunc is np.subtract)
                return result
        for i in noisy:
            inputs[i]._mark()
        return result

    def _record(self, other: NDArray[np.float64], where: int, subtract: bool) -> None:
        call = self._call
        assert call is not None
        if not call.offset.size:
            return
        pos = self._pos.ravel()
        seen = ~np.isnan(call.offset[pos])
        if seen.any():  # the same draw used twice: not a single additive release
            call.transformed[pos] = True
            return
        c = np.broadcast_to(other, self.shape).ravel()
        # u = c + σ·noise with σ = −1 for c − noise; noise − c = (−c) + noise
        sign = -1.0 if (subtract and where == 1) else 1.0
        value = -c if (subtract and where == 0) else c
        call.offset[pos] = value
        call.sign[pos] = sign

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        self._mark()

        def strip(x: Any) -> Any:
            if isinstance(x, Noise):
                x._mark()
                return x._plain()
            if isinstance(x, list | tuple):
                return type(x)(strip(v) for v in x)
            return x

        return func(*strip(args), **{k: strip(v) for k, v in kwargs.items()})

    def __float__(self) -> float:
        self._mark()
        return float(self._plain())

    def __int__(self) -> int:
        self._mark()
        return int(self._plain())

    def tolist(self) -> Any:
        self._mark()
        return self._plain().tolist()

    def item(self, *args: Any) -> Any:
        self._mark()
        return self._plain().item(*args)


def _freeze(value: Any) -> Any:
    """A comparable key of a call's arguments (arrays by dtype, shape and bytes)."""
    if isinstance(value, np.ndarray | np.generic):
        arr = np.asarray(value)
        return ("array", arr.dtype.str, arr.shape, arr.tobytes())
    if isinstance(value, list | tuple):
        return (type(value).__name__, tuple(_freeze(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((str(k), _freeze(v)) for k, v in value.items())))
    if isinstance(value, int | float | str | bytes | bool | type(None)):
        return (type(value).__name__, value)
    return ("object", repr(value))


#: the Generator methods that draw (public, callable, not the bit generator or spawning)
_NOT_DRAWS = frozenset({"bit_generator", "spawn"})


def _draw_methods() -> tuple[str, ...]:
    return tuple(
        name
        for name, member in inspect.getmembers(np.random.Generator)
        if not name.startswith("_") and callable(member) and name not in _NOT_DRAWS
    )


DRAW_METHODS = _draw_methods()


class RecordingGenerator(np.random.Generator):
    """A Generator that records (``replaying`` None) or replays (``replaying`` a list of
    :class:`Call` to follow, with ``noise`` the standardised draws to hand out per call) every
    draw, into ``calls``."""

    def __init__(
        self,
        seed: int,
        replaying: list[Call] | None = None,
        noise: list[NDArray[np.float64]] | None = None,
    ) -> None:
        super().__init__(np.random.PCG64(seed))
        # the draws themselves, from a plain Generator on the same bit generator (numpy's own
        # methods call each other: permutation calls shuffle)
        self._base = np.random.Generator(self.bit_generator)
        self.calls: list[Call] = []
        self.replaying = replaying
        self.noise = noise

    def _expected(self, method: str, site: str) -> Call | None:
        if self.replaying is None:
            return None
        index = len(self.calls)
        if index >= len(self.replaying):
            raise ReplayMismatch(
                "draw count",
                site,
                f"{method} is draw {index + 1}; the recorded run made {len(self.replaying)}",
            )
        old = self.replaying[index]
        if old.method != method:
            raise ReplayMismatch(
                "draw family",
                site,
                f"draw {index + 1} is {method}; the recorded run drew {old.method} at {old.site}",
            )
        return old

    def _location(self, method: str, loc: Any, scale: Any, size: Any) -> Any:
        site = _site()
        old = self._expected(method, site)
        loc_a = np.asarray(loc, dtype=np.float64)
        scale_a = np.asarray(scale, dtype=np.float64)
        if size is None:
            shape = np.broadcast_shapes(loc_a.shape, scale_a.shape)
        else:
            shape = tuple(np.atleast_1d(np.asarray(size, dtype=np.int64)).tolist())
            np.broadcast_shapes(loc_a.shape, scale_a.shape, shape)
        if np.any(scale_a < 0) or not np.all(np.isfinite(scale_a)):
            return getattr(self._base, method)(loc, scale, size)  # numpy's own error
        family = FAMILIES[method]
        loc_b = np.broadcast_to(loc_a, shape).astype(np.float64)
        scale_b = np.broadcast_to(scale_a, shape).astype(np.float64)
        if old is None:
            base = self._base
            draw = (
                base.standard_normal(shape)
                if method == "standard_normal"
                else getattr(base, method)(0.0, 1.0, shape)
            )
            standard = np.asarray(draw, dtype=np.float64)
        else:
            if old.shape != tuple(shape):
                raise ReplayMismatch(
                    "draw count",
                    site,
                    f"{method} of shape {tuple(shape)}; the recorded run "
                    f"drew shape {old.shape} at {old.site}",
                )
            if not np.array_equal(old.scale, scale_b.ravel()):
                raise ReplayMismatch(
                    "data-dependent scale",
                    site,
                    f"{method} with scale "
                    f"{_short(scale_b)}; the recorded run used {_short(old.scale)}",
                )
            assert self.noise is not None
            standard = self.noise[len(self.calls)].reshape(shape)
        call = Call(
            method,
            family,
            site,
            tuple(shape),
            loc_b.ravel().copy(),
            scale_b.ravel().copy(),
            standard.ravel().copy(),
        )
        call.start_tracking()
        self.calls.append(call)
        values = np.asarray(loc_b + scale_b * standard, dtype=np.float64)
        out = values.view(Noise)
        out._call, out._pos = call, np.arange(values.size, dtype=np.int64).reshape(values.shape)
        return out

    def laplace(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        return self._location("laplace", loc, scale, size)

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        return self._location("normal", loc, scale, size)

    def gumbel(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        return self._location("gumbel", loc, scale, size)

    def logistic(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        return self._location("logistic", loc, scale, size)

    def standard_normal(self, size: Any = None, dtype: Any = np.float64, out: Any = None) -> Any:
        if out is not None or np.dtype(dtype) != np.float64:
            return self._other("standard_normal", (size,), {"dtype": dtype, "out": out})
        return self._location("standard_normal", 0.0, 1.0, size)

    def _other(self, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        site = _site()
        old = self._expected(method, site)
        key = _freeze((args, kwargs))
        if method == "shuffle":  # in place: recorded as the permutation applied
            x = args[0] if args else kwargs["x"]
            axis = kwargs.get("axis", args[1] if len(args) > 1 else 0)
            if old is None:
                perm = self._base.permutation(np.shape(x)[axis])
            else:
                perm = old.output
                if old.key != _freeze(((np.shape(x), axis), {})):
                    raise ReplayMismatch(
                        "data-dependent draw",
                        site,
                        f"shuffle of shape {np.shape(x)}; the "
                        f"recorded run shuffled another shape at {old.site}",
                    )
            x[...] = np.take(np.array(x), perm, axis=axis)
            self.calls.append(
                Call(method, None, site, (), key=_freeze(((np.shape(x), axis), {})), output=perm)
            )
            return None
        if old is None:
            out = getattr(self._base, method)(*args, **kwargs)
        else:
            if old.key != key:
                raise ReplayMismatch(
                    "data-dependent draw",
                    site,
                    f"{method} with other arguments than the "
                    f"recorded run's at {old.site} (an uncoupled draw whose use depends on the "
                    "data)",
                )
            out = old.output.copy() if isinstance(old.output, np.ndarray) else old.output
        kept = out.copy() if isinstance(out, np.ndarray) else out
        self.calls.append(Call(method, None, site, np.shape(out), key=key, output=kept))
        return out


def _short(values: NDArray[np.float64]) -> str:
    flat = np.unique(values)
    return f"{flat[0]:.6g}" if flat.size == 1 else f"{values.size} values"


def _make_other(name: str) -> Any:
    def method(self: RecordingGenerator, *args: Any, **kwargs: Any) -> Any:
        return self._other(name, args, kwargs)

    method.__name__ = name
    method.__doc__ = f"numpy's Generator.{name}, recorded and replayed identically."
    return method


for _name in DRAW_METHODS:
    if _name not in FAMILIES and _name not in vars(RecordingGenerator):
        setattr(RecordingGenerator, _name, _make_other(_name))
