"""The exact law of a sampler, derived from its own code by enumerating its random draws.

A sampler of dpspec touches randomness only through ``Generator.integers`` (uniform integers
on [low, high)). :class:`EnumeratingGenerator` stands in for the generator: it runs the
sampler again and again, once for every sequence of draws that matters, depth first, and
weights each run exactly with ``Fraction``s. The result, :class:`EnumeratedLaw`, is the law of
the code that runs: every outcome with its exact probability, up to a *truncation mass* —
runs cut short because their probability fell below ``min_weight`` (or their draws exceeded
``max_draws``), reported exactly so that a comparison with the stated law can allow for it.

**Draws as classes of values.** A draw of range R is not branched into R values. The sampler
receives a :class:`Draws` object (array-like) holding, for each element, the lowest value of a
*class* [a, b) of values it stands for, and every use the sampler makes of it is recorded:

* a comparison with constants (``<``, ``<=``, ``>``, ``>=``, ``==``, ``!=``) and
  ``np.searchsorted(table, draws)`` record the points where the class would behave
  differently; a right shift by a constant is remembered (``draws >> s``);
* any other use (arithmetic, ``np.asarray``, ``int``, a table lookup ``np.take(table,
  draws >> s)``) *pins* the element: its class is split into pieces on which the (shifted)
  value is constant — single values without a shift — at most ``pin_limit`` pieces; a larger
  class is refused loudly.

After a run, a class with a recorded point inside it is split and its subtree explored again;
a run whose classes are all unsplit behaved the same for every value of every class, so its
outcome carries the probability Π (b − a)/R exactly. A comparison against a threshold table
of 64-bit words thus costs one run per table cell, not 2^64 of them. Any other generator
method (``random``, ``laplace``, ``bit_generator``, …) raises :class:`EnumerationError`: a
sampler that uses it is refused, never silently mis-enumerated.

The comparison with the stated laws (exact, or rational intervals where they are irrational)
is :mod:`dpspec.proofs.engine.law_checks`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

#: Default truncation weight: runs whose probability falls below it are cut (reported).
MIN_WEIGHT = Fraction(1, 2**100)


class EnumerationError(RuntimeError):
    """The sampler used the generator in a way the enumerator cannot follow exactly."""


class _Restart(BaseException):
    """Internal: a class must be split (or pinned) before the run can go on."""


class _Truncate(BaseException):
    """Internal: the run's probability fell below the truncation weight."""


@dataclass
class _Run:
    """The state of one run: the classes replayed, the draws made, the points recorded."""

    path: list[tuple[int, int, int, int]]  # (a, b, low, high) for draw ids 0..len−1
    weight: tuple[int, int]  # the path's probability Π (b − a)/(high − low), unreduced
    min_weight: Fraction
    max_draws: int
    pin_limit: int
    ranges: list[tuple[int, int]] = field(default_factory=list)
    points: dict[int, set[int]] = field(default_factory=dict)

    def cls(self, i: int) -> tuple[int, int]:
        if i < len(self.path):
            return self.path[i][0], self.path[i][1]
        return self.ranges[i]

    def new_draw(self, low: int, high: int) -> int:
        """Register draw number len(ranges) with range [low, high); its class value."""
        i = len(self.ranges)
        if i >= len(self.path) and (self._light() or i >= self.max_draws):
            raise _Truncate
        self.ranges.append((low, high))
        if i < len(self.path):
            a, _, plow, phigh = self.path[i]
            if (plow, phigh) != (low, high):
                raise EnumerationError(
                    f"draw {i}: range [{low}, {high}) on replay, [{plow}, {phigh}) before: the "
                    "sampler is not a function of its draws"
                )
            return a
        return low

    def _light(self) -> bool:
        """The path's probability is below ``min_weight`` (integers, no Fraction built)."""
        num, den = self.weight
        return num * self.min_weight.denominator < self.min_weight.numerator * den

    def record(self, ids: Iterable[int], points: Iterable[int]) -> None:
        """Record points of the draws' classes; a point inside a class ends the run (the
        class is split and the run made again for each piece)."""
        inside = False
        path, replayed = self.path, len(self.path)
        for i, p in zip(ids, points, strict=True):
            a, b = path[i][:2] if i < replayed else self.ranges[i]
            if a < p < b:
                self.points.setdefault(i, set()).add(p)
                inside = True
        if inside:
            raise _Restart

    def record_one(self, i: int, p: int) -> None:
        """:meth:`record` of one point ``p`` of draw ``i``."""
        a, b = self.path[i][:2] if i < len(self.path) else self.ranges[i]
        if a < p < b:
            self.points.setdefault(i, set()).add(p)
            raise _Restart

    def pin(self, ids: Iterable[int], shift: int, use: str) -> None:
        """Elements used by value: split each class into pieces on which ``raw >> shift`` is
        constant (single values when shift = 0), at most ``pin_limit`` pieces."""
        for i in sorted(set(ids)):
            a, b = self.cls(i)
            first, last = a >> shift, (b - 1) >> shift
            if first == last:
                continue
            if last - first + 1 > self.pin_limit:
                low, high = self.ranges[i]
                raise EnumerationError(
                    f"draw {i} of range [{low}, {high}) is used by value ({use}) while it "
                    f"stands for {last - first + 1} values (more than {self.pin_limit}): the "
                    "enumerator follows large draws only through comparisons, searchsorted, "
                    "and by value after a right shift leaving few values"
                )
            self.record([i] * (last - first), [(v + 1) << shift for v in range(first, last)])


def _ints(x: Any) -> list[int]:
    arr = np.asarray(x)
    values: list[int] = arr.ravel().tolist()
    if arr.dtype.kind in "iu":  # tolist() already gives Python ints
        return values
    return [int(v) for v in values]


_COMPARISONS = {
    np.less: ("lt", "gt"),
    np.less_equal: ("le", "ge"),
    np.greater: ("gt", "lt"),
    np.greater_equal: ("ge", "le"),
    np.equal: ("eq", "eq"),
    np.not_equal: ("eq", "eq"),
}


class Draws(np.lib.mixins.NDArrayOperatorsMixin):
    """Uniform integer draws as the sampler sees them (see the module docstring).

    ``values`` are the raw class values (the lowest of each class), ``ids`` the draw number of
    each element, ``shift`` a right shift applied to the raw values (floor division by 2^shift).
    """

    def __init__(self, run: _Run, values: NDArray[Any], ids: NDArray[np.intp], shift: int = 0):
        self._run, self._raw, self._ids, self._shift = run, values, ids, shift

    # --- array-like surface -------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self._raw.shape)

    @property
    def size(self) -> int:
        return int(self._raw.size)

    @property
    def ndim(self) -> int:
        return int(self._raw.ndim)

    @property
    def dtype(self) -> np.dtype[Any]:
        return self._raw.dtype

    def __len__(self) -> int:
        return len(self._raw)

    def __repr__(self) -> str:
        return f"Draws(ids={self._ids.tolist()}, shift={self._shift})"

    def _effective(self) -> NDArray[Any]:
        return self._raw >> self._shift if self._shift else self._raw

    def __getitem__(self, key: Any) -> Draws:
        if isinstance(key, Draws) or (
            isinstance(key, tuple) and any(isinstance(k, Draws) for k in key)
        ):
            raise EnumerationError("draws used as an index: use np.take(table, draws)")
        return Draws(self._run, np.asarray(self._raw[key]), np.asarray(self._ids[key]), self._shift)

    def __setitem__(self, key: Any, value: Any) -> None:
        raise EnumerationError("draws are read-only")

    def reshape(self, *shape: Any) -> Draws:
        return Draws(self._run, self._raw.reshape(*shape), self._ids.reshape(*shape), self._shift)

    def ravel(self) -> Draws:
        return Draws(self._run, self._raw.ravel(), self._ids.ravel(), self._shift)

    def __iter__(self) -> Any:
        return (self[i] for i in range(len(self)))

    def __bool__(self) -> bool:
        raise EnumerationError("draws used as a truth value")

    # --- uses by value: pinned ------------------------------------------------------------
    def _pinned(self, use: str) -> NDArray[Any]:
        self._run.pin(_ints(self._ids), self._shift, use)
        return self._effective()

    def __array__(self, dtype: Any = None, copy: Any = None) -> NDArray[Any]:
        values = self._pinned("converted to an array")
        return values if dtype is None else values.astype(dtype)

    def __int__(self) -> int:
        return int(self._pinned("int()"))

    def __index__(self) -> int:
        return int(self._pinned("an index"))

    def tolist(self) -> Any:
        return self._pinned("tolist()").tolist()

    def astype(self, dtype: Any, **kwargs: Any) -> NDArray[Any]:
        return self._pinned(f"astype({dtype})").astype(dtype, **kwargs)

    def view(self, dtype: Any) -> NDArray[Any]:
        return self._pinned(f"view({dtype})").view(dtype)

    # --- tracked uses -------------------------------------------------------------------
    def _record_compare(self, const: Any, kind: str) -> None:
        """Points where ``(raw >> shift) <kind> c`` changes value, in raw coordinates."""
        c_arr = np.asarray(const)
        if c_arr.dtype.kind not in "iu":  # np.issubdtype(dtype, np.integer)
            raise EnumerationError(f"draws compared with non-integers ({c_arr.dtype})")
        if c_arr.size == 1 and self._ids.size == 1:  # one point (two for eq), no sets
            i, c = int(self._ids.ravel()[0]), int(c_arr.ravel()[0])
            if kind in ("lt", "ge", "eq"):
                self._run.record_one(i, c << self._shift)
            if kind in ("le", "gt", "eq"):
                self._run.record_one(i, (c + 1) << self._shift)
            return
        ids, cs = np.broadcast_arrays(self._ids, c_arr)
        pairs = set(zip(_ints(ids), _ints(cs), strict=True))
        unit = 1 << self._shift
        if kind in ("lt", "ge", "eq"):
            self._run.record((i for i, _ in pairs), (c * unit for _, c in pairs))
        if kind in ("le", "gt", "eq"):
            self._run.record((i for i, _ in pairs), ((c + 1) * unit for _, c in pairs))

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        if method != "__call__" or kwargs.get("out") is not None:
            raise EnumerationError(f"draws used in {ufunc.__name__}.{method}")
        if ufunc in _COMPARISONS and len(inputs) == 2:
            first = isinstance(inputs[0], Draws)
            mine, other = (inputs[0], inputs[1]) if first else (inputs[1], inputs[0])
            if isinstance(other, Draws):
                raise EnumerationError("two draws compared with each other")
            kind = _COMPARISONS[ufunc][0 if first else 1]
            mine._record_compare(other, kind)
            args = (mine._effective(), other) if first else (other, mine._effective())
            return ufunc(*args, **kwargs)
        if ufunc is np.right_shift and isinstance(inputs[0], Draws) and len(inputs) == 2:
            s = inputs[1]
            if isinstance(s, Draws) or np.ndim(s) != 0 or int(s) < 0:
                raise EnumerationError("draws shifted by a non-constant amount")
            d = inputs[0]
            return Draws(d._run, d._raw, d._ids, d._shift + int(s))
        plain = [x._pinned(ufunc.__name__) if isinstance(x, Draws) else x for x in inputs]
        return ufunc(*plain, **kwargs)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        if func is np.searchsorted and len(args) >= 2 and isinstance(args[1], Draws):
            return self._searchsorted(args[0], args[1], *args[2:], **kwargs)
        if func in (np.shape, np.ndim, np.size):
            return func(self._raw)
        plain_args = [a._pinned(func.__name__) if isinstance(a, Draws) else a for a in args]
        plain_kwargs = {
            k: (v._pinned(func.__name__) if isinstance(v, Draws) else v) for k, v in kwargs.items()
        }
        return func(*plain_args, **plain_kwargs)

    @staticmethod
    def _searchsorted(table: Any, d: Draws, side: str = "left", sorter: Any = None) -> Any:
        if isinstance(table, Draws) or sorter is not None:
            raise EnumerationError("np.searchsorted with draws: only a plain sorted table")
        offset = 0 if side == "right" else 1  # right: #{t ≤ x}; left: #{t < x}
        points = [(t + offset) << d._shift for t in _ints(table)]
        for i in set(_ints(d._ids)):
            d._run.record([i] * len(points), points)
        return np.searchsorted(np.asarray(table), d._effective(), side=side)  # type: ignore[call-overload]


def _refuse(name: str) -> Callable[..., Any]:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise EnumerationError(
            f"Generator.{name}: the enumerator follows only Generator.integers; a sampler "
            f"calling {name} has no exactly enumerable law"
        )

    method.__name__ = name
    return method


#: The bit generator every :class:`EnumeratingGenerator` is built on (a Generator needs one;
#: seeding a new one per run costs more than the run of a small sampler).
_UNUSED_BITS = np.random.PCG64(0)


class EnumeratingGenerator(np.random.Generator):
    """A ``numpy.random.Generator`` whose ``integers`` replays and extends one run's classes.

    Made by :func:`enumerate_law`; every other method raises :class:`EnumerationError`.
    """

    def __init__(self, run: _Run) -> None:
        super().__init__(_UNUSED_BITS)  # never drawn from: every other method refuses
        self._enum_run = run

    @property
    def bit_generator(self) -> Any:
        raise EnumerationError("Generator.bit_generator: raw bits are not enumerated")

    def integers(
        self,
        low: Any,
        high: Any = None,
        size: Any = None,
        dtype: Any = np.int64,
        endpoint: bool = False,
    ) -> Any:
        if isinstance(low, Draws) or isinstance(high, Draws):
            raise EnumerationError("a draw's range depends on unpinned draws")
        lows, highs = (0, low) if high is None else (low, high)
        if (
            type(lows) is int
            and type(highs) is int
            and (size is None or (type(size) is int and size >= 0))
        ):
            return self._scalar_range(lows, highs + endpoint, size, dtype)
        lo_arr, hi_arr = np.asarray(lows, dtype=object), np.asarray(highs, dtype=object)
        if endpoint:
            hi_arr = hi_arr + 1
        shape: tuple[int, ...] = (
            np.broadcast_shapes(lo_arr.shape, hi_arr.shape)
            if size is None
            else ((int(size),) if np.ndim(size) == 0 else tuple(size))
        )
        count = math.prod(shape)
        if lo_arr.ndim == 0 and hi_arr.ndim == 0:
            lo_b, hi_b = [lo_arr.item()] * count, [hi_arr.item()] * count
        else:
            lo_b = np.broadcast_to(lo_arr, shape).ravel().tolist()
            hi_b = np.broadcast_to(hi_arr, shape).ravel().tolist()
        run = self._enum_run
        values, ids = [], []
        for lo_v, hi_v in zip(lo_b, hi_b, strict=True):
            lo_i, hi_i = int(lo_v), int(hi_v)
            if hi_i <= lo_i:
                raise ValueError("high <= low")
            ids.append(len(run.ranges))
            values.append(run.new_draw(lo_i, hi_i))
        raw = np.array(values, dtype=np.dtype(dtype)).reshape(shape)
        return Draws(run, raw, np.array(ids, dtype=np.intp).reshape(shape))

    def _scalar_range(self, low: int, high: int, size: int | None, dtype: Any) -> Draws:
        """:meth:`integers` on the one range [low, high) given as ints, ``size`` None or an
        int (the common call, without the object arrays of the general path)."""
        run = self._enum_run
        count = 1 if size is None else size
        if count > 0 and high <= low:
            raise ValueError("high <= low")
        first = len(run.ranges)
        values = [run.new_draw(low, high) for _ in range(count)]
        shape = () if size is None else (size,)
        raw = np.array(values, dtype=np.dtype(dtype)).reshape(shape)
        return Draws(run, raw, np.arange(first, first + count, dtype=np.intp).reshape(shape))


for _name in dir(np.random.Generator):
    if not _name.startswith("_") and _name not in ("integers", "bit_generator"):
        setattr(EnumeratingGenerator, _name, _refuse(_name))


# --- the depth-first enumeration ---------------------------------------------------------


@dataclass
class _Option:
    a: int
    b: int
    child: _Node | _Leaf | None = None


@dataclass
class _Node:
    low: int
    high: int
    options: list[_Option]


@dataclass
class _Leaf:
    outcome: Hashable
    truncated: bool = False


@dataclass
class EnumeratedLaw:
    """The law of a sampler's output derived from its code: ``probabilities`` (exact), the
    ``truncated`` mass of runs cut short, and the work done (``runs``, ``leaves``, the
    deepest run in draws ``depth``)."""

    probabilities: dict[Hashable, Fraction]
    truncated: Fraction
    runs: int
    leaves: int
    depth: int

    @property
    def total(self) -> Fraction:
        return sum(self.probabilities.values(), Fraction(0)) + self.truncated


def enumerate_law(
    program: Callable[[np.random.Generator], Hashable],
    *,
    min_weight: Fraction = MIN_WEIGHT,
    max_draws: int = 4096,
    max_runs: int = 200_000,
    pin_limit: int = 2**16,
) -> EnumeratedLaw:
    """The exact law of ``program(rng)``'s return value (hashable) over its integer draws.

    Depth-first over classes of draws (module docstring); a run that would make a new draw
    when its probability is below ``min_weight`` (or after ``max_draws`` draws) is cut and its
    probability added to ``truncated``. Raises :class:`EnumerationError` when the sampler uses
    the generator in a way that cannot be followed, or after ``max_runs`` runs.
    """
    root = _Option(0, 1)
    stack: list[tuple[_Node, int]] = []  # the current path: one (node, option) per draw
    runs = depth = 0
    while True:
        target = stack[-1][0].options[stack[-1][1]] if stack else root
        path = [(node.options[i].a, node.options[i].b, node.low, node.high) for node, i in stack]
        num = den = 1
        for a, b, low, high in path:
            num *= b - a
            den *= high - low
        run = _Run(path, (num, den), min_weight, max_draws, pin_limit)
        runs += 1
        if runs > max_runs:
            raise EnumerationError(f"more than {max_runs} runs: use a smaller instance")
        outcome: Hashable = None
        truncated = False
        try:
            outcome = program(EnumeratingGenerator(run))
            hash(outcome)
        except _Truncate:
            truncated = True
        except _Restart:
            pass
        depth = max(depth, len(run.ranges))
        split_at = _first_split(run)
        if split_at is not None:
            i, cuts = split_at
            if i < len(path):  # a replayed class is not uniform: split it, drop its subtree
                node, k = stack[i]
                old = node.options[k]
                node.options[k : k + 1] = [_Option(x, y) for x, y in _pieces(old.a, old.b, cuts)]
                del stack[i + 1 :]
                continue
            parent = target
            for j in range(len(path), i):  # new draws before i: one full class each
                low, high = run.ranges[j]
                node = _Node(low, high, [_Option(low, high)])
                _attach(parent, node)
                stack.append((node, 0))
                parent = node.options[0]
            low, high = run.ranges[i]
            node = _Node(low, high, [_Option(x, y) for x, y in _pieces(low, high, cuts)])
            _attach(parent, node)
            stack.append((node, 0))
            continue
        parent = target
        for j in range(len(path), len(run.ranges)):
            low, high = run.ranges[j]
            node = _Node(low, high, [_Option(low, high)])
            _attach(parent, node)
            stack.append((node, 0))
            parent = node.options[0]
        _attach(parent, _Leaf(outcome, truncated))
        while stack:  # the next unexplored option, depth first
            node, k = stack[-1]
            if k + 1 < len(node.options):
                stack[-1] = (node, k + 1)
                break
            stack.pop()
        if not stack:
            break
    probabilities: dict[Hashable, Fraction] = {}
    truncated_mass = Fraction(0)
    leaves = 0
    # (node, numerator, denominator): a leaf's probability is reduced to a Fraction once
    todo: list[tuple[_Node | _Leaf | None, int, int]] = [(root.child, 1, 1)]
    while todo:
        item, num, den = todo.pop()
        if isinstance(item, _Leaf):
            leaves += 1
            w = Fraction(num, den)
            if item.truncated:
                truncated_mass += w
            else:
                probabilities[item.outcome] = probabilities.get(item.outcome, Fraction(0)) + w
        elif isinstance(item, _Node):
            span = den * (item.high - item.low)
            todo.extend((o.child, num * (o.b - o.a), span) for o in item.options)
        else:
            raise EnumerationError("internal: an unexplored branch after the enumeration")
    return EnumeratedLaw(probabilities, truncated_mass, runs, leaves, depth)


def _attach(option: _Option, child: _Node | _Leaf) -> None:
    option.child = child


def _first_split(run: _Run) -> tuple[int, list[int]] | None:
    """The first draw whose class must be split, with the cut points."""
    for i in sorted(run.points):
        a, b = run.cls(i)
        cuts = sorted(p for p in run.points[i] if a < p < b)
        if cuts:
            return i, cuts
    return None


def _pieces(a: int, b: int, cuts: Sequence[int]) -> list[tuple[int, int]]:
    edges = [a, *cuts, b]
    return [(x, y) for x, y in itertools.pairwise(edges) if x < y]
