"""Events: the measurable sets of outputs whose two probabilities an audit bounds."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.audit._structured import StructuredOutputs, numbers_within, shapes_of
from dpspec.audit._targets import _patterns

#: the kinds of :class:`Event`
EVENT_KINDS = ("atoms", "ge", "le", "interval", "bits", "pattern", "box", "shape", "within")


@dataclass(frozen=True)
class Event:
    """A measurable set of outputs: ``kind`` atoms (a set of values; NaN is an atom of its
    own), ``ge``/``le`` (half-lines of a scalar or of a learned score), ``interval`` [lo, hi],
    ``bits`` (a set of float-representation keys: exponent and the ``bits`` lowest mantissa
    bits of a float64) or ``pattern`` (a set of per-coordinate classes NaN / ±inf / beyond
    ±1e30, see :func:`_patterns`) or ``box`` (vector rows with lo_j ≤ x_j < hi_j for every
    coordinate j; ``values`` = (lo_1, hi_1, lo_2, hi_2, …), infinite ends allowed) or
    ``shape`` (a set of shapes, :mod:`dpspec.audit._structured`: keys present or absent,
    lengths, categories, per-coordinate NaN/inf classes) or ``within`` (the rows of the one
    shape ``values[0]`` whose numbers lie in the event ``inner``). A threshold or box event
    never contains NaN; a learned-score event (``weights`` on the features (1, x, x²); a
    direction is a score with zero weights on x²) contains only rows whose coordinates are all
    finite and within ±1e30."""

    kind: str
    values: tuple[Any, ...] = ()
    lo: float = -math.inf
    hi: float = math.inf
    weights: tuple[float, ...] = ()  # learned score w·φ(x) for vector outputs
    bits: int = 0
    inner: Event | None = None  # the event on the numbers of a ``within`` event's shape

    def __post_init__(self) -> None:
        if self.kind not in EVENT_KINDS:
            raise ValueError(f"event: kind must be one of {EVENT_KINDS}, got {self.kind!r}")
        if (self.kind == "within") != (self.inner is not None):
            raise ValueError("event: a within event, and only it, has an inner event")
        if self.inner is not None and (
            not isinstance(self.inner, Event)
            or self.inner.kind in ("within", "shape")
            or len(self.values) != 1
        ):
            raise ValueError("event: within needs one shape and an inner event on numbers")
        if not isinstance(self.values, tuple) or not isinstance(self.weights, tuple):
            raise TypeError("event: values and weights must be tuples")
        for name in ("lo", "hi"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, numbers.Real) or math.isnan(v):
                raise ValueError(f"event: {name} must be a number, got {v!r}")
        if any(isinstance(w, bool) or not isinstance(w, numbers.Real) for w in self.weights):
            raise ValueError("event: weights must be numbers")
        if (
            isinstance(self.bits, bool)
            or not isinstance(self.bits, int)
            or not 0 <= self.bits <= 52
        ):
            raise ValueError(f"event: bits must be an integer in [0, 52], got {self.bits!r}")

    def contains(self, outputs: Any) -> NDArray[np.bool_]:
        if self.kind in ("shape", "within"):
            return self._contains_shaped(outputs)
        if isinstance(outputs, StructuredOutputs):
            return np.zeros(len(outputs), dtype=np.bool_)  # only shape events apply to them
        arr = np.asarray(outputs)
        if self.kind == "bits":
            keys = float_keys(_scalar(arr), self.bits)
            return np.isin(keys, np.asarray(self.values, dtype=np.uint64))
        if self.kind == "pattern":
            return _in_rows(_patterns(arr), self.values)
        if self.kind == "atoms":
            return _in_rows(arr, self.values)
        if self.kind == "box":
            x = np.asarray(arr, dtype=np.float64).reshape(len(arr), -1)
            ends = np.asarray(self.values, dtype=np.float64).reshape(-1, 2)
            if ends.shape[0] != x.shape[1]:
                return np.zeros(len(x), dtype=np.bool_)
            return np.asarray(np.all((x >= ends[:, 0]) & (x < ends[:, 1]), axis=1))
        if self.weights:
            x = np.asarray(arr, dtype=np.float64).reshape(len(arr), -1)
            ok = np.all(_patterns(x) == 0, axis=1)
            score = np.full(len(x), np.nan)
            score[ok] = _score(x[ok], self.weights)
            return np.asarray(ok & (score >= self.lo) & (score <= self.hi))
        x = _scalar(arr)
        return np.asarray((x >= self.lo) & (x <= self.hi))

    def _contains_shaped(self, outputs: Any) -> NDArray[np.bool_]:
        shapes, index = shapes_of(outputs)
        if self.kind == "shape":
            wanted = set(self.values)
            member = np.array([s in wanted for s in shapes], dtype=np.bool_)
            return member[index] if len(index) else np.zeros(0, dtype=np.bool_)
        out = np.zeros(len(index), dtype=np.bool_)
        target = self.values[0]
        if target not in shapes:
            return out
        rows = np.flatnonzero(index == shapes.index(target))
        numbers = numbers_within(outputs, target, rows)
        if numbers.shape[1] == 0:
            return out
        assert self.inner is not None
        out[rows] = self.inner.contains(numbers[:, 0] if numbers.shape[1] == 1 else numbers)
        return out

    def describe(self) -> str:
        if self.kind == "shape":
            shown = "; ".join(_short(v) for v in self.values[:3])
            more = f"; … ({len(self.values)} shapes)" if len(self.values) > 3 else ""
            return f"output shape in {{{shown}{more}}}"
        if self.kind == "within":
            assert self.inner is not None
            inner = self.inner.describe().replace("output", "numbers")
            return f"output of shape {_short(self.values[0])} with {inner}"
        if self.kind == "box":
            ends = [(self.values[i], self.values[i + 1]) for i in range(0, len(self.values), 2)]
            sides = [
                f"x{j} < {hi:.6g}" if lo == -math.inf else f"x{j} >= {lo:.6g}"
                for j, (lo, hi) in enumerate(ends)
                if not (lo == -math.inf and hi == math.inf)
            ]
            return "output in the orthant " + (" and ".join(sides) or "(everything)")
        if self.kind == "bits":
            return (
                f"float64 (sign, exponent, lowest {self.bits} mantissa bit(s)) in a set of "
                f"{len(self.values)} patterns"
            )
        if self.kind in ("atoms", "pattern"):
            shown = ", ".join(repr(v) for v in self.values[:6])
            more = f", … ({len(self.values)} values)" if len(self.values) > 6 else ""
            if self.kind == "pattern":
                return (
                    f"output class (0 moderate, 1 NaN, 2 +inf, 3 -inf, 4 > 1e30, 5 < -1e30) "
                    f"in {{{shown}{more}}}"
                )
            return f"output in {{{shown}{more}}}"
        linear = self.weights and not any(self.weights[1 + (len(self.weights) - 1) // 2 :])
        what = "direction w·x" if linear else "score" if self.weights else "output"
        if self.lo == -math.inf:
            return f"{what} <= {self.hi:.6g}"
        if self.hi == math.inf:
            return f"{what} >= {self.lo:.6g}"
        return f"{self.lo:.6g} <= {what} <= {self.hi:.6g}"


def _short(shape: Any) -> str:
    text = repr(shape)
    return text if len(text) <= 80 else text[:77] + "..."


def _in_rows(outputs: NDArray[Any], values: tuple[Any, ...]) -> NDArray[np.bool_]:
    """Membership of each output (a scalar, or a row compared as a whole) in ``values``."""
    arr = np.asarray(outputs)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if not values:
        return np.zeros(len(arr), dtype=bool)
    try:
        wanted = np.asarray(values)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"event: atoms must be values or rows of one length ({exc})") from exc
    if wanted.dtype.kind not in "biufUS":
        raise ValueError(f"event: atoms must be numbers, strings or bytes, got {wanted.dtype}")
    if arr.ndim == 1:
        if wanted.ndim != 1:
            return np.zeros(len(arr), dtype=bool)  # vector atoms never equal a scalar output
        if arr.dtype.kind in "US" or wanted.dtype.kind in "US":
            if arr.dtype.kind != wanted.dtype.kind:
                return np.zeros(len(arr), dtype=bool)
            return np.isin(arr, wanted)
        hit = np.isin(arr, wanted)
        if arr.dtype.kind == "f" and wanted.dtype.kind == "f" and np.isnan(wanted).any():
            hit |= np.isnan(arr)
        return hit
    if wanted.ndim != 2 or wanted.shape[1] != arr.shape[1]:
        return np.zeros(len(arr), dtype=bool)  # atoms of another width: no output equals them
    if (arr.dtype.kind in "US" or wanted.dtype.kind in "US") and (
        arr.dtype.kind != wanted.dtype.kind
    ):
        return np.zeros(len(arr), dtype=bool)
    common = np.result_type(arr.dtype, wanted.dtype)
    return np.isin(_atom_keys(arr.astype(common)), _atom_keys(wanted.astype(common)))


def float_keys(x: NDArray[np.float64], bits: int) -> NDArray[np.uint64]:
    """Sign, exponent and the ``bits`` lowest mantissa bits of each float64: the features of
    Mironov's attack on floating-point Laplace (which float values a noisy output *can* take
    depends on the input, and shows in the low bits)."""
    u = np.ascontiguousarray(x, dtype=np.float64).view(np.uint64)
    return np.asarray(((u >> np.uint64(52)) << np.uint64(bits)) | (u & np.uint64((1 << bits) - 1)))


def _scalar(outputs: NDArray[Any]) -> NDArray[np.float64]:
    arr = np.asarray(outputs)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(f"event: a threshold event needs scalar outputs, got shape {arr.shape}")
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"event: a threshold event needs numeric outputs, got {arr.dtype}")
    return arr.astype(np.float64)


def _atom_keys(outputs: NDArray[Any]) -> NDArray[Any]:
    """Hashable per-row keys: the value for scalars, a bytes view of the row for vectors
    (floats with −0.0 made +0.0, so equal rows have equal bytes)."""
    arr = np.asarray(outputs)
    if arr.ndim == 1:
        return arr
    if arr.ndim == 2 and arr.shape[1] == 1:
        return arr[:, 0]
    flat = np.ascontiguousarray(arr.reshape(arr.shape[0], -1))
    if flat.dtype.kind == "f":
        flat = flat + 0.0
    return flat.view(np.dtype((np.void, flat.dtype.itemsize * flat.shape[1]))).ravel()


def _features(outputs: NDArray[Any]) -> NDArray[np.float64]:
    x = np.asarray(outputs, dtype=np.float64).reshape(len(outputs), -1)
    return np.column_stack([np.ones(len(x)), x, x**2])


def _score(outputs: NDArray[Any], weights: tuple[float, ...]) -> NDArray[np.float64]:
    phi = _features(outputs)
    if phi.shape[1] != len(weights):
        raise ValueError(
            f"event: {len(weights)} score weights for outputs with {phi.shape[1]} features"
        )
    return np.asarray(phi @ np.asarray(weights, dtype=np.float64))
