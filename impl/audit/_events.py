"""Events: the measurable sets of outputs whose two probabilities an audit bounds."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.audit._structured import StructuredOutputs, _patterns, numbers_within, shapes_of

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
        """The event in words: coordinates named as the output's (``x[3]`` of a vector,
        ``x['count']`` of a dict), shapes drawn as templates (``{'count': num}``)."""
        return self._describe(None)

    def _describe(self, names: list[str] | None) -> str:
        """The event in words, coordinate j of the output named ``names[j]`` (default
        ``x[j]``; a scalar output is "output")."""
        if self.kind == "shape":
            shown = "; ".join(_short(shape_text(v)) for v in self.values[:3])
            more = f"; … ({len(self.values)} shapes)" if len(self.values) > 3 else ""
            return f"output shape in {{{shown}{more}}}"
        if self.kind == "within":
            assert self.inner is not None
            shape = self.values[0]
            inner = self.inner._describe(coordinate_names(shape))
            return f"output of shape {_short(shape_text(shape))} with {inner}"
        if self.kind == "box":
            ends = [(self.values[i], self.values[i + 1]) for i in range(0, len(self.values), 2)]
            sides = [
                _side(_name(names, j), lo, hi)
                for j, (lo, hi) in enumerate(ends)
                if not (lo == -math.inf and hi == math.inf)
            ]
            return " and ".join(sides) or "every output"
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
        if not self.weights:
            what = names[0] if names and len(names) == 1 else "output"
            return _range(what, self.lo, self.hi)
        d = (len(self.weights) - 1) // 2
        linear = self.weights[1 : 1 + d]
        if any(self.weights[1 + d :]):
            return _range("score", self.lo, self.hi)
        return _linear(linear, self.weights[0], self.lo, self.hi, names)


def _name(names: list[str] | None, j: int) -> str:
    return names[j] if names is not None and j < len(names) else f"x[{j}]"


def _side(name: str, lo: float, hi: float) -> str:
    """lo ≤ x < hi in words (an orthant's side)."""
    if lo == -math.inf:
        return f"{name} < {hi:.6g}"
    if hi == math.inf:
        return f"{name} {_at_least(lo)}"
    return f"{lo:.6g} <= {name} < {hi:.6g}"


def _range(what: str, lo: float, hi: float) -> str:
    """lo ≤ what ≤ hi in words."""
    if lo == -math.inf:
        return f"{what} {_at_most(hi)}"
    if hi == math.inf:
        return f"{what} {_at_least(lo)}"
    return f"{lo:.6g} <= {what} <= {hi:.6g}"


def _round(x: float) -> bool:
    return math.isfinite(x) and float(f"{x:.6g}") == x


def _at_least(lo: float) -> str:
    """≥ lo, written > c when lo is the float just above a number c of six digits (a cut
    just beyond a value the other side took: {x > max M(D')})."""
    below = math.nextafter(lo, -math.inf)
    return f"> {below:.6g}" if not _round(lo) and _round(below) else f">= {lo:.6g}"


def _at_most(hi: float) -> str:
    """≤ hi, written < c when hi is the float just below a number c of six digits."""
    above = math.nextafter(hi, math.inf)
    return f"< {above:.6g}" if not _round(hi) and _round(above) else f"<= {hi:.6g}"


#: the most terms a linear event is written out with
_TERMS = 6


def _linear(w: tuple[float, ...], c: float, lo: float, hi: float, names: list[str] | None) -> str:
    """lo ≤ c + w·x ≤ hi in words: a threshold of the coordinate itself when w has one
    non-zero entry (lo/w_j ≤ x_j ≤ hi/w_j, the sides swapped for w_j < 0), the sum written out
    for at most ``_TERMS`` non-zero entries, else w·x with its largest entries named."""
    used = [j for j, v in enumerate(w) if v != 0.0]
    lo, hi = lo - c, hi - c
    if len(used) == 1:
        j = used[0]
        a, b = lo / w[j], hi / w[j]
        return _range(_name(names, j), *((a, b) if w[j] > 0 else (b, a)))
    if not used:
        return _range("0", lo, hi)
    if len(used) <= _TERMS:
        terms = [f"{abs(w[j]):.3g}·{_name(names, j)}" for j in used]
        signs = ["-" if w[j] < 0 else "+" for j in used]
        text = ("-" if signs[0] == "-" else "") + terms[0]
        text += "".join(f" {sg} {t}" for sg, t in zip(signs[1:], terms[1:], strict=True))
        return _range(text, lo, hi)
    largest = sorted(used, key=lambda j: -abs(w[j]))[:3]
    top = ", ".join(f"{_name(names, j)} ({w[j]:.3g})" for j in largest)
    return _range("w·x", lo, hi) + f" (w on {len(used)} coordinates, largest: {top})"


def coordinate_names(shape: Any) -> list[str]:
    """The names of the numbers within ``shape``: ``x['key'][i]`` paths of a structured shape's
    numeric leaves, ``x[j]`` for the moderate coordinates of a NaN/inf pattern."""
    if all(isinstance(code, int) for code in shape):
        return [f"x[{j}]" for j, code in enumerate(shape) if code == 0]
    return [
        "x" + "".join(f"[{p}]" for p in leaf[0])
        for leaf in shape
        if len(leaf) == 2 and leaf[1] == "num"
    ]


def shape_text(shape: Any) -> str:
    """A structured shape drawn as a template of the output (``{'a': num, 'b': [num, nan]}``:
    ``num`` a moderate number, other leaves as they are); a NaN/inf pattern as its classes."""
    if all(isinstance(code, int) for code in shape):
        return repr(tuple(shape))
    leaves = iter(shape)

    def node() -> tuple[tuple[Any, ...], str]:
        entry = next(leaves)
        if len(entry) == 3:
            path, kind, count = entry
            children = [node() for _ in range(count)]
            if kind == "dict":
                return path, "{" + ", ".join(f"{p[-1]}: {t}" for p, t in children) + "}"
            return path, "[" + ", ".join(t for _, t in children) + "]"
        path, kind = entry
        if isinstance(kind, tuple):
            tag, value = kind
            return path, repr(bytes.fromhex(value) if tag == "bytes" else value)
        return path, "None" if kind == "none" else str(kind)

    try:
        return node()[1]
    except (StopIteration, ValueError, TypeError):  # not a shape of this module
        return repr(shape)


def _short(text: str) -> str:
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
