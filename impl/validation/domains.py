"""Parameter domains, declared once beside each parameter and enforced by construction.

A public parameter states what it accepts in its annotation::

    def sample(self, data: DataArg, size: DrawsArg, rng: GeneratorArg) -> ...

where ``DrawsArg = Annotated[int, Integer(1, limit="draws")]``: the :class:`Domain` in the
``Annotated`` metadata is the parameter's one declaration. Three things read it:

* :func:`checked` (and the :class:`Checked` base, which applies it to every public method of a
  class) validates and converts each declared argument before the body runs, raising a
  ``ValueError`` / ``TypeError`` that names the parameter;
* the hostile-input sweep of ``dpspec.proofs`` generates, from each domain, values outside it
  (:meth:`Domain.refused`: they must be refused naming the parameter) and values equal to a
  clean one in another type (:meth:`Domain.equivalents`: they must give the same result);
* the discovery obligation, which fails for a public callable with an undeclared parameter.

A domain converts as it checks: numpy scalars and ``Fraction`` become the exact ``float`` /
``int`` the body computes with, so a float32 ε or a numpy integer cannot change an answer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from dpspec.validation._rules import (
    LIMITS,
    MAX_EPSILON,
    InputTypeError,
    _as_finite_array,
    _bounded_int_array,
    _check_base,
    _check_delta,
    _check_epsilon,
    _check_flag,
    _check_rng,
    _check_sampling_base,
    _exact_fraction,
)

_NAN = float("nan")
_INF = float("inf")

#: Values of the wrong kind for any number parameter (each must be refused).
_NOT_A_NUMBER: tuple[Any, ...] = ("1", b"1", [1.0], (1,), {"a": 1}, 1 + 0j, object())


class NoExample:
    """Marks a domain that has no clean value of its own (an array shaped by the call)."""

    __dpspec_declarative__ = "a marker"

    def __repr__(self) -> str:
        return "NO_EXAMPLE"


NO_EXAMPLE: Any = NoExample()


@dataclass(frozen=True)
class Domain:
    """The values one parameter accepts. ``optional`` (keyword only): ``None`` is accepted
    (and kept)."""

    optional: bool = field(default=False, kw_only=True)

    #: Domains are declarations (read by ``checked`` and the sweep), not entry points.
    __dpspec_declarative__ = "a parameter domain (a declaration)"

    def check(self, value: Any, name: str) -> Any:
        """The value the body computes with, or a ValueError / TypeError naming ``name``."""
        if value is None and self.optional:
            return None
        return self.convert(value, name)

    def convert(self, value: Any, name: str) -> Any:
        raise NotImplementedError

    def refused(self) -> tuple[Any, ...]:
        """The values a parameter of this domain must refuse: :meth:`hostile`, the fixed
        expectation of its kind computed from its declared parameters (bounds, openness,
        optionality), never filtered through its own :meth:`check` — a domain that wrongly
        admits NaN, ±inf or a value past its bounds keeps that value in its sweep, and the
        sweep fails on it."""
        return self.hostile()

    def hostile(self) -> tuple[Any, ...]:
        """The values this kind of domain must refuse, given its declared parameters."""
        return () if self.optional else (None,)

    def equivalents(self, clean: Any) -> tuple[Any, ...]:
        """Values that denote ``clean`` in other types (they must give the same result)."""
        return ()

    @property
    def example(self) -> Any:
        """A clean value (``NO_EXAMPLE`` when the call must supply one)."""
        return None if self.optional else NO_EXAMPLE

    def describe(self) -> str:
        return type(self).__name__.lower()


def _real_equivalents(clean: Any) -> tuple[Any, ...]:
    if isinstance(clean, bool) or not isinstance(clean, (int, float, Fraction)):
        return ()
    out: list[Any] = [np.float64(clean), Fraction(clean)]
    if float(np.float32(clean)) == float(clean):
        out.append(np.float32(clean))
    if float(clean).is_integer() and abs(float(clean)) < 2**62:
        out.append(np.int64(int(clean)))
    return tuple(out)


@dataclass(frozen=True)
class Real(Domain):
    """A finite real in [lo, hi] (``lo_open`` / ``hi_open`` exclude the ends), as a float;
    ``infinite``: ±inf accepted too (a threshold beyond every value)."""

    lo: float = -math.inf
    hi: float = math.inf
    lo_open: bool = False
    hi_open: bool = False
    clean: float | None = None
    infinite: bool = False

    def convert(self, value: Any, name: str) -> float:
        if type(value) is float and math.isfinite(value):  # the common case, exact in floats
            inside_lo = value > self.lo if self.lo_open else value >= self.lo
            inside_hi = value < self.hi if self.hi_open else value <= self.hi
            if inside_lo and inside_hi:
                return value
        if (
            self.infinite
            and isinstance(value, float | np.floating)
            and not isinstance(value, bool)
            and math.isinf(value)
        ):
            return float(value)
        x = _exact_fraction(value, name)  # refuses bool, str, complex, NaN, ±inf
        low = math.isfinite(self.lo) and (
            x <= Fraction(self.lo) if self.lo_open else x < Fraction(self.lo)
        )
        high = math.isfinite(self.hi) and (
            x >= Fraction(self.hi) if self.hi_open else x > Fraction(self.hi)
        )
        if low or high:
            raise ValueError(f"{name}: must be in {self.interval()}, got {value!r}")
        if not math.isfinite(float(x)):
            raise ValueError(f"{name}: {value!r} is beyond the float range")
        return float(x)

    def interval(self) -> str:
        left = "(" if self.lo_open or not math.isfinite(self.lo) else "["
        right = ")" if self.hi_open or not math.isfinite(self.hi) else "]"
        return f"{left}{self.lo:g}, {self.hi:g}{right}"

    def hostile(self) -> tuple[Any, ...]:
        out: list[Any] = [*super().hostile(), _NAN, True, *_NOT_A_NUMBER]
        if not self.infinite:
            out += [_INF, -_INF]
        if math.isfinite(self.lo):
            out += [self.lo - max(1.0, abs(self.lo))]
            out += [-1e300] if self.lo > -1e300 else []
            if self.lo_open:
                out.append(self.lo)
        if math.isfinite(self.hi):
            out += [self.hi + max(1.0, abs(self.hi))]
            out += [1e300] if self.hi < 1e300 else []
            if self.hi_open:
                out.append(self.hi)
        return tuple(out)

    def equivalents(self, clean: Any) -> tuple[Any, ...]:
        return _real_equivalents(clean)

    @property
    def example(self) -> Any:
        if self.clean is not None:
            return self.clean
        if self.optional:
            return None
        lo = self.lo if math.isfinite(self.lo) else min(0.0, self.hi - 1)
        hi = self.hi if math.isfinite(self.hi) else max(1.0, lo + 1)
        return (lo + hi) / 2

    def describe(self) -> str:
        return f"a real in {self.interval()}"


@dataclass(frozen=True)
class Epsilon(Domain):
    """A privacy level ε ∈ [2^-32, 700] (``dpspec.validation.check_epsilon``); an int or
    ``Fraction`` stays exact (the exact samplers use it as a rational), any other real becomes
    the float it denotes."""

    def convert(self, value: Any, name: str) -> Any:
        v = _check_epsilon(value, name)
        if isinstance(value, Fraction):
            return value
        if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
            return int(value)
        return v

    def hostile(self) -> tuple[Any, ...]:
        return (
            *super().hostile(),
            0,
            0.0,
            -1.0,
            _NAN,
            _INF,
            -_INF,
            MAX_EPSILON + 1,
            1e300,
            True,
            *_NOT_A_NUMBER,
        )

    def equivalents(self, clean: Any) -> tuple[Any, ...]:
        return _real_equivalents(clean)

    @property
    def example(self) -> Any:
        return None if self.optional else 1.0

    def describe(self) -> str:
        return f"ε in (0, {MAX_EPSILON}]"


@dataclass(frozen=True)
class Delta(Domain):
    """δ ∈ [0, 1), or (0, 1) when ``positive``; ``least``: the smallest δ > 0 accepted (a
    search in float logarithms of δ); ``exact``: an int or ``Fraction`` δ is kept exact (its
    law is then compared in rationals), other reals become floats."""

    positive: bool = False
    least: float = 0.0
    exact: bool = False

    def convert(self, value: Any, name: str) -> Any:
        v = _check_delta(value, name, allow_zero=not self.positive)
        if 0 < v < self.least:
            raise ValueError(f"{name}: must be >= {self.least:g}, got {value!r}")
        if self.exact and isinstance(value, (Fraction, int)) and not isinstance(value, bool):
            return Fraction(value)
        return v

    def hostile(self) -> tuple[Any, ...]:
        extra: tuple[Any, ...] = (0, 0.0) if self.positive else ()
        if self.least > 0:
            extra += (self.least / 2,)
        return (*super().hostile(), *extra, -1e-9, 1, 1.0, 2.0, _NAN, _INF, True, *_NOT_A_NUMBER)

    def equivalents(self, clean: Any) -> tuple[Any, ...]:
        return _real_equivalents(clean)

    @property
    def example(self) -> Any:
        return None if self.optional else 1e-6

    def describe(self) -> str:
        return "δ in (0, 1)" if self.positive else "δ in [0, 1)"


@dataclass(frozen=True)
class Integer(Domain):
    """An integer in [lo, hi]; ``limit`` names the entry of ``LIMITS`` that caps it."""

    lo: int = 0
    hi: int | None = None
    limit: str | None = None
    clean: int | None = None

    @property
    def top(self) -> int | None:
        """The largest value accepted: ``hi`` or the ``LIMITS`` entry, whichever is smaller
        (read at every call: ``LIMITS`` may be changed)."""
        if not self.limit:
            return self.hi
        cap = LIMITS[self.limit]
        return cap if self.hi is None else min(self.hi, cap)

    def convert(self, value: Any, name: str) -> int:
        if type(value) is int:  # the common case: no conversion
            v = value
        elif isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise InputTypeError(
                f"{name}: expected an integer, got {type(value).__name__} {value!r}"
            )
        else:
            v = int(value)
        top = self.top
        if v < self.lo or (top is not None and v > top):
            bound = f"[{self.lo}, {top}]" if top is not None else f">= {self.lo}"
            why = f" (dpspec.validation.LIMITS[{self.limit!r}])" if self.limit else ""
            raise ValueError(f"{name}: must be an integer {bound}{why}, got {value!r}")
        return v

    def hostile(self) -> tuple[Any, ...]:
        out: list[Any] = [*super().hostile(), self.lo - 1, 1.5, 2.0, _NAN, _INF, True, "3"]
        out += [*_NOT_A_NUMBER[2:]]
        out += [-(2**63)] if self.lo > -(2**63) else []
        if self.top is not None:
            out += [self.top + 1] + ([2**64] if self.top < 2**64 else [])
        return tuple(out)

    def equivalents(self, clean: Any) -> tuple[Any, ...]:
        if isinstance(clean, bool) or not isinstance(clean, int):
            return ()
        return (np.int64(clean), np.int32(clean)) if abs(clean) < 2**31 else (np.int64(clean),)

    @property
    def example(self) -> Any:
        if self.clean is not None:
            return self.clean
        if self.optional:
            return None
        top = self.top
        return self.lo + 2 if top is None else min(self.lo + 2, top)

    def describe(self) -> str:
        top = self.top
        return (
            f"an integer in [{self.lo}, {top}]" if top is not None else f"an integer >= {self.lo}"
        )


@dataclass(frozen=True)
class Flag(Domain):
    """A switch: ``True`` or ``False`` (a numpy bool too); never a truthy string or number."""

    def convert(self, value: Any, name: str) -> bool:
        return _check_flag(value, name)

    def hostile(self) -> tuple[Any, ...]:
        return (*super().hostile(), "no", "False", 0, 1, 1.0, _NAN, [True])

    def equivalents(self, clean: Any) -> tuple[Any, ...]:
        return (np.bool_(clean),) if isinstance(clean, bool) else ()

    @property
    def example(self) -> Any:
        return None if self.optional else False

    def describe(self) -> str:
        return "True or False"


@dataclass(frozen=True)
class Choice(Domain):
    """One of a fixed set of strings (or other hashables)."""

    options: tuple[Any, ...] = ()

    def convert(self, value: Any, name: str) -> Any:
        try:
            ok = value in self.options and isinstance(value, type(self.options[0]))
        except TypeError:  # an unhashable value
            ok = False
        if not ok:
            raise ValueError(f"{name}: expected one of {list(self.options)}, got {value!r}")
        return value

    def hostile(self) -> tuple[Any, ...]:
        return (*super().hostile(), "bogus", "", 0, True, _NAN, [self.options[0]])

    @property
    def example(self) -> Any:
        return None if self.optional else self.options[0]

    def describe(self) -> str:
        return f"one of {list(self.options)}"


@dataclass(frozen=True)
class RandomGenerator(Domain):
    """A ``numpy.random.Generator`` (randomness only from the caller)."""

    def convert(self, value: Any, name: str) -> np.random.Generator:
        return _check_rng(value, name)

    def hostile(self) -> tuple[Any, ...]:
        return (*super().hostile(), 42, "0", np.random.RandomState(0), np.random.PCG64(0))

    @property
    def example(self) -> Any:
        return None if self.optional else np.random.default_rng(0)

    def describe(self) -> str:
        return "a numpy.random.Generator"


#: Largest integer seed accepted as a random_state (numpy's SeedSequence takes any int ≥ 0).
MAX_SEED = 2**128 - 1


@dataclass(frozen=True)
class RandomState(Domain):
    """scikit-learn's ``random_state``: None (fresh entropy), an int in [0, 2^128), or a
    ``numpy.random.Generator``."""

    optional: bool = field(default=True, kw_only=True)

    def convert(self, value: Any, name: str) -> Any:
        if isinstance(value, np.random.Generator):
            return value
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise InputTypeError(
                f"{name}: expected None, an integer seed or a numpy.random.Generator, got "
                f"{type(value).__name__} {value!r}"
            )
        if not 0 <= int(value) <= MAX_SEED:
            raise ValueError(f"{name}: an integer seed must be in [0, 2^128), got {value!r}")
        return int(value)

    def hostile(self) -> tuple[Any, ...]:
        return (-1, 2**128, 1.5, "0", _NAN, True, np.random.RandomState(0), object())

    def equivalents(self, clean: Any) -> tuple[Any, ...]:
        return (np.int64(clean),) if isinstance(clean, int) and not isinstance(clean, bool) else ()

    @property
    def example(self) -> Any:
        return 0

    def describe(self) -> str:
        return "None, an integer seed in [0, 2^128) or a numpy.random.Generator"


@dataclass(frozen=True)
class Base(Domain):
    """A rational noise base q = e^{−ε/Δ} ∈ (0, 1); ``sampling``: one the exact base samplers
    can draw with (denominator ≤ 2^62, 1 − q ≥ 2^-12)."""

    sampling: bool = True

    def convert(self, value: Any, name: str) -> Fraction:
        return _check_sampling_base(value, name) if self.sampling else _check_base(value, name)

    def hostile(self) -> tuple[Any, ...]:
        return (
            *super().hostile(),
            0.5,
            Fraction(0),
            Fraction(1),
            Fraction(3, 2),
            Fraction(-1, 2),
            *((Fraction(2**13 - 1, 2**13),) if self.sampling else ()),
            True,
            "1/2",
        )

    @property
    def example(self) -> Any:
        return None if self.optional else Fraction(1, 2)

    def describe(self) -> str:
        return "a Fraction in (0, 1)"


#: Array kinds: the dtype family a parameter accepts.
_ARRAY_KINDS = ("real", "integer", "label", "any")


@dataclass(frozen=True)
class Array(Domain):
    """A non-empty (``empty``: or empty) array of finite numbers with ``ndim`` dimensions
    (None: any), of ``kind``
    ``real`` (converted to float64), ``integer`` (|v| < 2^62, int64), ``label`` (any
    numbers or strings: class labels, checked by the learner) or ``any``.

    The shape a call needs (rows matching another argument, columns matching the fit) is the
    body's check; the domain refuses what no call accepts."""

    ndim: int | None = None
    kind: str = "real"
    clean: Any = None
    empty: bool = False

    def __post_init__(self) -> None:
        if self.kind not in _ARRAY_KINDS:
            raise ValueError(f"kind: expected one of {_ARRAY_KINDS}, got {self.kind!r}")

    def convert(self, value: Any, name: str) -> Any:
        if self.kind == "any":
            return value
        if self.kind == "label":
            arr = np.asarray(value) if value is not None else None
            if arr is None or arr.size == 0:
                raise ValueError(f"{name}: expected a non-empty array of labels, got {value!r}")
            if self.ndim is not None and arr.ndim != self.ndim:
                raise ValueError(f"{name}: expected {self.ndim} dimension(s), got {arr.shape}")
            if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
                raise ValueError(f"{name}: contains NaN or infinite values")
            if arr.dtype.kind == "c":
                raise InputTypeError(f"{name}: Complex data not supported")
            return value
        if self.empty and isinstance(value, np.ndarray | list | tuple) and len(value) == 0:
            return np.asarray(value, dtype=np.int64 if self.kind == "integer" else np.float64)
        arr = _as_finite_array(value, name, self.ndim)
        if arr.ndim == 0:
            raise ValueError(f"{name}: expected an array, got the scalar {value!r}")
        if self.kind == "integer":
            return _bounded_int_array(arr, name)
        return arr

    def hostile(self) -> tuple[Any, ...]:
        out: list[Any] = [*super().hostile(), [_NAN], [[_INF, 0.5]]]
        if not self.empty:
            out += [[], np.empty((0, 2))]
        if self.kind != "label":  # labels may be strings
            out += [np.array(["a", "b"])]
        out += [np.array([1 + 1j, 2]), "data", 3.0, {"a": 1}]
        if self.ndim == 2:
            out += [np.zeros(3), np.zeros((2, 2, 2))]
        elif self.ndim == 1:
            out += [np.zeros((3, 2))]
        if self.kind == "integer":
            out += [np.array([0.5, 1.5]), np.array([2**63 - 1, 0])]
        return tuple(out)

    @property
    def example(self) -> Any:
        return NO_EXAMPLE if self.clean is None else self.clean

    def describe(self) -> str:
        dims = "" if self.ndim is None else f"{self.ndim}-D "
        return f"a non-empty {dims}array ({self.kind})"


@dataclass(frozen=True)
class Function(Domain):
    """A callable supplied by the caller (a query, a score, an analyst); what it returns is
    checked where it is used."""

    clean: Callable[..., Any] | None = None

    def convert(self, value: Any, name: str) -> Any:
        if not callable(value):
            raise InputTypeError(f"{name}: must be callable, got {type(value).__name__}")
        return value

    def hostile(self) -> tuple[Any, ...]:
        return (*super().hostile(), 3, "f", [len])

    @property
    def example(self) -> Any:
        return NO_EXAMPLE if self.clean is None else self.clean

    def describe(self) -> str:
        return "a callable"


@dataclass(frozen=True)
class Instance(Domain):
    """An object of one of ``types`` (given as classes)."""

    types: tuple[type, ...] = ()
    clean: Any = None

    def convert(self, value: Any, name: str) -> Any:
        if not isinstance(value, self.types):
            names = " or ".join(t.__name__ for t in self.types)
            raise InputTypeError(f"{name}: expected {names}, got {type(value).__name__}")
        return value

    def hostile(self) -> tuple[Any, ...]:
        values = (3, "x", [1], object())
        return (*super().hostile(), *(v for v in values if not isinstance(v, self.types)))

    @property
    def example(self) -> Any:
        return NO_EXAMPLE if self.clean is None else self.clean

    def describe(self) -> str:
        return "an instance of " + " or ".join(t.__name__ for t in self.types)


@dataclass(frozen=True)
class Anything(Domain):
    """No constraint: the parameter is data the function itself judges (a validator's input,
    a value compared for equality). ``why`` says so."""

    why: str = ""
    clean: Any = None

    def convert(self, value: Any, name: str) -> Any:
        return value

    def hostile(self) -> tuple[Any, ...]:
        return ()

    @property
    def example(self) -> Any:
        return self.clean

    def describe(self) -> str:
        return f"anything ({self.why})"


@dataclass(frozen=True)
class Pair(Domain):
    """A pair (lo, hi) of values of ``inner`` with lo ≤ hi."""

    inner: Domain = field(default_factory=Domain)
    clean: tuple[Any, Any] | None = None

    def convert(self, value: Any, name: str) -> tuple[Any, Any]:
        if not isinstance(value, (tuple, list)) or len(value) != 2:
            raise ValueError(f"{name}: expected a pair (lo, hi), got {value!r}")
        lo, hi = (self.inner.check(v, name) for v in value)
        try:  # NaN compares false both ways: refused as unordered
            ordered = lo is not None and hi is not None and bool(lo <= hi)
        except (TypeError, ValueError):  # ends that do not compare
            ordered = False
        if not ordered:
            raise ValueError(f"{name}: expected comparable ends with lo <= hi, got {value!r}")
        return lo, hi

    def hostile(self) -> tuple[Any, ...]:
        return (*super().hostile(), (5, 0), (0,), "ab", (_NAN, 1), 3)

    @property
    def example(self) -> Any:
        return None if self.optional else (NO_EXAMPLE if self.clean is None else self.clean)

    def describe(self) -> str:
        return f"a pair (lo, hi) of {self.inner.describe()}"


def domain_of(annotation: Any) -> Domain | None:
    """The :class:`Domain` in an ``Annotated`` annotation's metadata, or None."""
    for meta in getattr(annotation, "__metadata__", ()):
        if isinstance(meta, Domain):
            return meta
    return None


def optional(domain: Domain) -> Domain:
    """The same domain with ``None`` accepted."""
    from dataclasses import replace

    return replace(domain, optional=True)


def sequence_of(values: Sequence[Any], inner: Domain, name: str) -> list[Any]:
    """Each element of ``values`` checked against ``inner`` (named ``name[i]``)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise InputTypeError(f"{name}: expected a sequence, got {type(values).__name__}")
    return [inner.check(v, f"{name}[{i}]") for i, v in enumerate(values)]


domain_of.__dpspec_declarative__ = "machinery of the declarations"  # type: ignore[attr-defined]

optional.__dpspec_declarative__ = "machinery of the declarations"  # type: ignore[attr-defined]

sequence_of.__dpspec_declarative__ = "machinery of the declarations"  # type: ignore[attr-defined]
