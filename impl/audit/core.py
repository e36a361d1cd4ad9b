"""A statistical DP auditor: a lower confidence bound on ε from samples of a mechanism.

Method (the strongest black-box auditors, see ``../shared/notes/auditing.md``):

1. **Selection.** Run the mechanism ``selection`` times on each of two neighbouring datasets
   D, D'. From these samples choose an event E and a direction (D → D' or D' → D) among a
   family of candidates: for discrete outputs the likelihood-ratio-ordered sets of output values
   (Neyman–Pearson: the best event for a ratio test is a super-level set of the ratio); for 1-D
   outputs half-lines and intervals between sample quantiles; for vector outputs a logistic
   score learned on one half of the selection samples, thresholded on the other half.
2. **Estimation.** On ``samples`` *fresh* draws per side (streamed in chunks, only counts kept)
   count k₁ = #{M(D) ∈ E}, k₂ = #{M(D') ∈ E}. Clopper–Pearson: p₁ ≥ p₁⁻ and p₂ ≤ p₂⁺, each
   one-sided at level α/2, so both hold with probability ≥ 1 − α (union bound; α = 1 −
   ``confidence``).
3. **Bound.** ε_LCB = ln((p₁⁻ − δ)/p₂⁺). Because E was fixed before the estimation samples were
   drawn, P(ε_LCB > ε_true) ≤ α for a mechanism that is (ε_true, δ)-DP: if
   P(M(D) ∈ E) ≤ e^{ε}P(M(D') ∈ E) + δ, then p₁⁻ ≤ p₁ and p₂⁺ ≥ p₂ give
   (p₁⁻ − δ)/p₂⁺ ≤ e^{ε}. A violation verdict is ε_LCB > ε_claimed.

There is **no floor on p₂**: when D' never produces E, p₂⁺ = 1 − (α/2)^{1/N} ≈ ln(2/α)/N, so
ε_LCB grows like ln N for a support-shift bug (DP-Sniper's threshold c caps it at ln(1/c)).

Guarantee type: the soundness argument is exact (Clopper–Pearson is exact for binomial
counts; the estimation draws are independent of the selection). It assumes the mechanism's runs
are independent given the dataset (true for the ``sample`` protocol with one Generator).
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import json
import math
import numbers
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray
from scipy import special

from dpspec.spec.audit import checkpoint_counts_valid
from dpspec.validation import check_delta

#: number of distinct output values up to which float outputs also get atom events
MAX_ATOMS = 4096
#: draws per estimation block: one child SeedSequence per block, whatever ``jobs`` is
BLOCK = 1 << 18
#: kept for callers that size their own batches: the estimation block
CHUNK = BLOCK
#: largest ``samples`` (estimation draws per side; streamed, so this bounds time, not memory)
MAX_SAMPLES = 10**10
#: largest ``selection`` (selection draws per side are held in memory)
MAX_SELECTION = 10**7
#: largest ``jobs``
MAX_JOBS = 1024
#: outputs beyond this magnitude are kept out of the learned vector score (its features x²
#: must not overflow); events on them come from the representation family (see ``_patterns``)
_MODERATE = 1e30
_CHECKPOINT_FORMAT = "dpspec-audit-checkpoint/3"


class MechanismError(RuntimeError):
    """The audited mechanism raised while sampling (the original exception is the cause)."""


@runtime_checkable
class Mechanism(Protocol):
    """A randomised algorithm: ``sample(data, n, rng)`` returns n independent outputs on
    ``data``, shape (n,) for scalar outputs or (n, k) for vectors."""

    def sample(self, data: Any, n: int, rng: np.random.Generator) -> NDArray[Any]: ...


class CallableMechanism:
    """Wrap a function as a :class:`Mechanism`: ``f(data, n, rng)`` (vectorised) is used
    directly; ``f(data, rng)`` or ``f(data)`` (one output per call) is called n times — slow
    (Python per sample): prefer a vectorised function for large audits."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        if not callable(fn):
            raise ValueError(f"fn: expected a callable, got {fn!r}")
        self.fn = fn
        try:
            params = [
                p
                for p in inspect.signature(fn).parameters.values()
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
            ]
        except (TypeError, ValueError):  # builtins without a signature: assume f(data)
            params = []
        self.arity = len(params) if params else 1
        if self.arity > 3:
            raise ValueError("fn: expected f(data), f(data, rng) or f(data, n, rng)")

    def sample(self, data: Any, n: int, rng: np.random.Generator) -> NDArray[Any]:
        if self.arity == 3:
            return _stack(self.fn(data, n, rng))
        if self.arity == 2:
            return _stack([self.fn(data, rng) for _ in range(n)])
        return _stack([self.fn(data) for _ in range(n)])


def _stack(values: Any) -> NDArray[Any]:
    """Outputs as one array; rows numpy cannot stack (ragged rows) become an object array,
    which :func:`_outputs` then accepts or refuses by element type. Arrays (masked ones
    included) are passed on as they are."""
    if isinstance(values, np.ndarray):
        return values
    try:
        return np.asarray(values)
    except (ValueError, TypeError):
        rows = list(values)
        out = np.empty(len(rows), dtype=object)
        out[:] = rows
        return out


def as_mechanism(mechanism: Any) -> Mechanism:
    """A :class:`Mechanism` from an object with ``sample`` or from a callable."""
    if isinstance(mechanism, Mechanism):
        return mechanism
    if callable(mechanism):
        return CallableMechanism(mechanism)
    raise ValueError(f"mechanism: expected .sample(data, n, rng) or a callable, got {mechanism!r}")


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
    raise TypeError(
        f"mechanism: outputs of type {', '.join(names)} cannot be audited (supported: numbers, "
        "strings, bytes and fixed-length vectors of numbers); map the release to one of these"
    )


def _outputs(raw: Any, n: int) -> NDArray[Any]:
    """The mechanism's n outputs in a form every event can be evaluated on, or a clear error:
    numbers (bool, int, float64), strings or bytes, one per row; vectors as (n, k) rows.
    Complex values become (real, imaginary) columns and arrays of more than two dimensions
    are flattened per row (both one-to-one); NaN payloads are made canonical (one NaN atom)."""
    if isinstance(raw, np.ma.MaskedArray) and np.ma.getmaskarray(raw).any():
        raise TypeError(
            "mechanism: a masked array with masked entries cannot be audited (the mask is part "
            "of the release); fill the masked entries (e.g. with NaN) or return the mask too"
        )
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
        raise TypeError(
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


def _space(arr: NDArray[Any]) -> tuple[str, tuple[int, ...]]:
    """The output space of a batch: text kind or "number", and the shape of one output."""
    kind = arr.dtype.kind
    return (kind if kind in "US" else "number", tuple(arr.shape[1:]))


def _patterns(outputs: NDArray[Any]) -> NDArray[np.int8]:
    """Per coordinate: 0 moderate (finite, |x| <= 1e30), 1 NaN, 2 +inf, 3 −inf, 4 > 1e30,
    5 < −1e30 — the values a threshold or a learned score cannot order, as atoms."""
    x = np.asarray(outputs)
    p = np.zeros(x.shape, dtype=np.int8)
    if x.dtype.kind != "f":
        return p
    p[np.isnan(x)] = 1
    p[x == np.inf] = 2
    p[x == -np.inf] = 3
    finite = np.isfinite(x)
    p[finite & (x > _MODERATE)] = 4
    p[finite & (x < -_MODERATE)] = 5
    return p


# --- Clopper–Pearson ---------------------------------------------------------------------------


def cp_lower(k: Any, n: Any, alpha: float) -> NDArray[np.float64]:
    """One-sided Clopper–Pearson lower bound: P(p ≥ bound) ≥ 1 − alpha (0 when k = 0)."""
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    out = np.zeros(np.broadcast(k, n).shape)
    pos = np.broadcast_to(k > 0, out.shape)
    kk, nn = np.broadcast_to(k, out.shape), np.broadcast_to(n, out.shape)
    out[pos] = special.betaincinv(kk[pos], nn[pos] - kk[pos] + 1, alpha)
    return out


def cp_upper(k: Any, n: Any, alpha: float) -> NDArray[np.float64]:
    """One-sided Clopper–Pearson upper bound: P(p ≤ bound) ≥ 1 − alpha (1 when k = n)."""
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    return 1.0 - cp_lower(n - k, n, alpha)


#: candidates whose exact Clopper–Pearson bound is computed after the Wilson ranking
_EXACT_TOP = 64


def _wilson(k: Any, n: int, alpha: float, lower: bool) -> NDArray[np.float64]:
    """One-sided Wilson score bound (a fast proxy used only to rank candidate events)."""
    z = float(special.ndtri(1 - alpha))
    p = np.asarray(k, dtype=np.float64) / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return np.clip(centre - half if lower else centre + half, 0.0, 1.0)


def epsilon_lower(p1_lo: Any, p2_hi: Any, delta: float) -> NDArray[np.float64]:
    """ln((p₁⁻ − δ)/p₂⁺), −inf when p₁⁻ ≤ δ (no evidence)."""
    num = np.asarray(p1_lo, dtype=np.float64) - delta
    den = np.asarray(p2_hi, dtype=np.float64)
    out = np.full(np.broadcast(num, den).shape, -np.inf)
    ok = np.broadcast_to((num > 0) & (den > 0), out.shape)
    np.log(np.broadcast_to(num, out.shape), out=out, where=ok)
    out[ok] -= np.log(np.broadcast_to(den, out.shape)[ok])
    return out


# --- events ------------------------------------------------------------------------------------

#: the kinds of :class:`Event`
EVENT_KINDS = ("atoms", "ge", "le", "interval", "bits", "pattern", "box")


@dataclass(frozen=True)
class Event:
    """A measurable set of outputs: ``kind`` atoms (a set of values; NaN is an atom of its
    own), ``ge``/``le`` (half-lines of a scalar or of a learned score), ``interval`` [lo, hi],
    ``bits`` (a set of float-representation keys: exponent and the ``bits`` lowest mantissa
    bits of a float64) or ``pattern`` (a set of per-coordinate classes NaN / ±inf / beyond
    ±1e30, see :func:`_patterns`) or ``box`` (vector rows with lo_j ≤ x_j < hi_j for every
    coordinate j; ``values`` = (lo_1, hi_1, lo_2, hi_2, …), infinite ends allowed). A threshold
    or box event never contains NaN; a learned-score event contains only rows whose
    coordinates are all finite and within ±1e30."""

    kind: str
    values: tuple[Any, ...] = ()
    lo: float = -math.inf
    hi: float = math.inf
    weights: tuple[float, ...] = ()  # learned score w·φ(x) for vector outputs
    bits: int = 0

    def __post_init__(self) -> None:
        if self.kind not in EVENT_KINDS:
            raise ValueError(f"event: kind must be one of {EVENT_KINDS}, got {self.kind!r}")
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

    def contains(self, outputs: NDArray[Any]) -> NDArray[np.bool_]:
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

    def describe(self) -> str:
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
        what = "score" if self.weights else "output"
        if self.lo == -math.inf:
            return f"{what} <= {self.hi:.6g}"
        if self.hi == math.inf:
            return f"{what} >= {self.lo:.6g}"
        return f"{self.lo:.6g} <= {what} <= {self.hi:.6g}"


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


def _one_blas_thread() -> Any:
    """A context limiting BLAS to one thread (threadpoolctl, when installed)."""
    try:
        from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - threadpoolctl ships with scikit-learn
        return contextlib.nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


def _logistic(x0: NDArray[np.float64], x1: NDArray[np.float64]) -> tuple[float, ...]:
    """Weights of a ridge logistic regression separating x1 (label 1) from x0 (Newton steps)."""
    X = np.vstack([x0, x1])
    y = np.concatenate([np.zeros(len(x0)), np.ones(len(x1))])
    scale = np.maximum(np.std(X, axis=0), 1e-12)
    scale[0] = 1.0
    Z = X / scale
    w = np.zeros(Z.shape[1])
    for _ in range(25):
        z = np.clip(Z @ w, -30, 30)
        p = 1.0 / (1.0 + np.exp(-z))
        grad = Z.T @ (p - y) + 1e-3 * w
        hess = (Z * (p * (1 - p))[:, None]).T @ Z + 1e-3 * np.eye(Z.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return tuple(float(v) for v in w / scale)


#: (k₁, k₂, n₁, n₂, build): selection counts of each candidate event on the two sides, the
#: number of draws they are out of, and a builder for the j-th candidate's event
Candidates = tuple[NDArray[np.float64], NDArray[np.float64], int, int, Callable[[int], Event]]


def _discrete_candidates(a: NDArray[Any], b: NDArray[Any], kind: str = "atoms") -> Candidates:
    """Likelihood-ratio-ordered prefix sets of atoms (the best events for M(a) vs M(b)):
    selection counts of every prefix, and a builder for the j-th prefix's event."""
    ka, kb = _atom_keys(a), _atom_keys(b)
    atoms, inverse = np.unique(np.concatenate([ka, kb]), return_inverse=True)
    inverse = inverse.reshape(-1)
    ca = np.bincount(inverse[: len(ka)], minlength=atoms.size).astype(np.float64)
    cb = np.bincount(inverse[len(ka) :], minlength=atoms.size).astype(np.float64)
    order = np.argsort(-(ca + 0.5) / (cb + 0.5), kind="stable")

    row_dtype = np.asarray(a).dtype

    def build(j: int) -> Event:
        chosen = atoms[order[: j + 1]]
        return Event(kind, tuple(_plain(v, row_dtype) for v in chosen))

    return np.cumsum(ca[order]), np.cumsum(cb[order]), len(a), len(b), build


def _plain(v: Any, dtype: np.dtype[Any]) -> Any:
    """A readable Python value for an atom: a number, or a tuple for a vector output."""
    if isinstance(v, np.void):
        return tuple(np.frombuffer(v.tobytes(), dtype=dtype).tolist())
    return v.item() if hasattr(v, "item") else v


def _threshold_candidates(
    a: NDArray[np.float64],
    b: NDArray[np.float64],
    weights: tuple[float, ...] = (),
    presorted: bool = False,
) -> tuple[NDArray[np.float64], NDArray[np.float64], Callable[[int], Event]]:
    """Half-lines {x ≥ q}, {x ≤ q} and intervals [q_i, q_j] at 129 pooled sample quantiles
    (counts over the values given; both sides non-empty, no NaN)."""
    sa, sb = (a, b) if presorted else (np.sort(a), np.sort(b))
    # cuts: pooled quantiles, plus each side's extremes and the floats just outside them
    # (a support shift shows as {x < min M(D')} with p₂ = 0)
    edges = np.array([sa[0], sa[-1], sb[0], sb[-1]])
    qs = np.unique(
        np.concatenate(
            [
                np.sort(np.concatenate([sa, sb]), kind="stable")[  # two sorted runs: O(n)
                    np.linspace(0, sa.size + sb.size - 1, 129).astype(np.int64)
                ],
                edges,
                np.nextafter(edges, -np.inf),
                np.nextafter(edges, np.inf),
            ]
        )
    )
    lt_a, lt_b = np.searchsorted(sa, qs, side="left"), np.searchsorted(sb, qs, side="left")
    le_a, le_b = np.searchsorted(sa, qs, side="right"), np.searchsorted(sb, qs, side="right")
    i_idx, j_idx = np.nonzero(np.triu(np.ones((qs.size, qs.size), dtype=bool), 1))
    k1 = np.concatenate([len(sa) - lt_a, le_a, le_a[j_idx] - lt_a[i_idx]]).astype(np.float64)
    k2 = np.concatenate([len(sb) - lt_b, le_b, le_b[j_idx] - lt_b[i_idx]]).astype(np.float64)
    m = qs.size

    def build(j: int) -> Event:
        if j < m:
            return Event("ge", lo=float(qs[j]), weights=weights)
        if j < 2 * m:
            return Event("le", hi=float(qs[j - m]), weights=weights)
        i = j - 2 * m
        return Event("interval", lo=float(qs[i_idx[i]]), hi=float(qs[j_idx[i]]), weights=weights)

    return k1, k2, build


#: Cuts per coordinate of the orthant family by output dimension (≈ 4096 candidates at most).
_BOX_CUTS = {2: 15, 3: 7, 4: 3}


def _box_candidates(a: NDArray[Any], b: NDArray[Any]) -> Candidates | None:
    """Vector outputs of dimension 2–4: orthants {s_j x_j ≥ s_j c_j for every j}, each
    coordinate either unconstrained or cut below/above one of q pooled quantiles (q = 15, 7, 3
    for d = 2, 3, 4). For a product of Laplace (or any log-concave, centred) noises the
    privacy loss is largest, and constant, in the orthant beyond both means — the event that
    makes a vector release as tight as a scalar one. Counts come from one q^d histogram per
    side contracted with per-coordinate membership matrices: O(n d + (2q)^d)."""
    xa = np.asarray(a, dtype=np.float64).reshape(len(a), -1)
    xb = np.asarray(b, dtype=np.float64).reshape(len(b), -1)
    d = xa.shape[1]
    if d not in _BOX_CUTS:
        return None
    xa = xa[np.all(_patterns(xa) == 0, axis=1)]
    xb = xb[np.all(_patterns(xb) == 0, axis=1)]
    if min(len(xa), len(xb)) < 2:
        return None
    q = _BOX_CUTS[d]
    pooled = np.concatenate([xa, xb])
    levels = np.arange(1, q + 1) / (q + 1)
    cuts = [np.unique(np.quantile(pooled[:, j], levels)) for j in range(d)]
    # options per coordinate: "x < c_k" (k = 1..q, then unconstrained) and "x ≥ c_k"
    # (unconstrained, then k = 1..q); membership of each of the q+1 bins in each option
    members, ends = [], []
    for c in cuts:
        k = c.size
        bins = np.arange(k + 1)
        lower = [bins < t for t in range(1, k + 2)]
        upper = [bins >= t for t in range(0, k + 1)]
        members.append(np.array(lower + upper, dtype=np.float64))
        ends.append(
            [(-math.inf, float(c[t - 1]) if t <= k else math.inf) for t in range(1, k + 2)]
            + [(float(c[t - 1]) if t >= 1 else -math.inf, math.inf) for t in range(0, k + 1)]
        )

    def counts(x: NDArray[np.float64]) -> NDArray[np.float64]:
        shape = tuple(c.size + 1 for c in cuts)
        idx = [np.searchsorted(c, x[:, j], side="right") for j, c in enumerate(cuts)]
        hist = np.bincount(
            np.ravel_multi_index(tuple(idx), shape), minlength=int(np.prod(shape))
        ).astype(np.float64)
        table = hist.reshape(shape)
        for j in range(d):  # contract axis j with its membership matrix (options × bins)
            table = np.moveaxis(np.tensordot(members[j], table, axes=([1], [j])), 0, j)
        return table.ravel()

    shape = tuple(len(e) for e in ends)

    def build(j: int) -> Event:
        where = np.unravel_index(j, shape)
        return Event("box", tuple(v for axis, w in enumerate(where) for v in ends[axis][w]))

    return counts(xa), counts(xb), len(a), len(b), build


def _repeat_candidates(
    sa: NDArray[np.float64], sb: NDArray[np.float64], n1: int, n2: int
) -> Candidates | None:
    """Single-value events for the (at most 64 most) repeated values of ``sa``: atoms in an
    otherwise continuous law, e.g. a raw value leaked with small probability. Both inputs are
    sorted non-NaN values out of n1 and n2 draws; None when ``sa`` repeats no value."""
    dup = sa[1:] == sa[:-1]
    if not np.any(dup):
        return None
    values, counts = np.unique(sa[1:][dup], return_counts=True)  # value → repeats − 1
    repeated = values[np.argsort(-counts, kind="stable")][:64]
    ka = np.searchsorted(sa, repeated, "right") - np.searchsorted(sa, repeated, "left")
    kb = np.searchsorted(sb, repeated, "right") - np.searchsorted(sb, repeated, "left")

    def build(j: int) -> Event:
        return Event("atoms", (float(repeated[j]),))

    return ka.astype(np.float64), kb.astype(np.float64), n1, n2, build


def _sorted_thresholds(
    sa: NDArray[np.float64], sb: NDArray[np.float64], n1: int, n2: int
) -> Candidates:
    """Threshold and interval events on sorted non-NaN values out of n1 and n2 draws."""
    k1, k2, build = _threshold_candidates(sa, sb, presorted=True)
    return k1, k2, n1, n2, build


def _score_candidates(a: NDArray[Any], b: NDArray[Any]) -> Candidates | None:
    """Vector outputs: a ridge logistic score trained on the first half of each side's rows
    (those with every coordinate moderate), thresholded on the second half."""
    ha, hb = len(a) // 2, len(b) // 2
    xa = np.asarray(a, dtype=np.float64).reshape(len(a), -1)
    xb = np.asarray(b, dtype=np.float64).reshape(len(b), -1)
    ok_a = np.all(_patterns(xa) == 0, axis=1)
    ok_b = np.all(_patterns(xb) == 0, axis=1)
    train_a, train_b = xa[:ha][ok_a[:ha]], xb[:hb][ok_b[:hb]]
    test_a, test_b = xa[ha:][ok_a[ha:]], xb[hb:][ok_b[hb:]]
    if min(len(train_a), len(train_b), len(test_a), len(test_b)) < 2:
        return None
    with _one_blas_thread():  # 2k+1 features: threads only contend
        w = _logistic(_features(train_b), _features(train_a))
    if not all(math.isfinite(v) for v in w):
        return None
    k1, k2, build = _threshold_candidates(_score(test_a, w), _score(test_b, w), weights=w)
    return k1, k2, len(a) - ha, len(b) - hb, build


def _repeating(a: NDArray[Any], b: NDArray[Any]) -> bool:
    """The pooled selection draws take at most MAX_ATOMS distinct values (rows), each seen
    4 times on average: an atom law, whose value sets can be selected and then estimated.
    (Values that do not repeat would make every value set fit the selection draws exactly
    and never recur in the estimation draws.)"""
    pooled = np.concatenate([_atom_keys(a), _atom_keys(b)])
    limit = min(MAX_ATOMS, pooled.size // 4)
    if np.unique(pooled[: 4 * MAX_ATOMS]).size > limit:  # cheap early exit
        return False
    return bool(np.unique(pooled).size <= limit)


def _bits_candidates(a: NDArray[Any], b: NDArray[Any], bits: int) -> Candidates:
    """Likelihood-ratio-ordered sets of float-representation keys (see :func:`float_keys`)."""
    k1, k2, n1, n2, build = _discrete_candidates(float_keys(a, bits), float_keys(b, bits))

    def build_bits(j: int) -> Event:
        return Event("bits", build(j).values, bits=bits)

    return k1, k2, n1, n2, build_bits


Family = Callable[[int, int], "Candidates | None"]


def _families(x: tuple[NDArray[Any], NDArray[Any]], float_bits: bool) -> list[Family]:
    """The candidate-event families for outputs ``x`` = (selection draws on D, on D'); each
    family maps a direction (i, j) — M(x[i]) against M(x[j]) — to its candidates.

    * atoms (likelihood-ratio-ordered value sets): text and bool outputs, and numbers that
      repeat (at most MAX_ATOMS distinct values, seen 4 times each on average); text whose
      values do not repeat (more distinct values than a quarter of the draws) is refused;
    * numeric scalars: thresholds and intervals on the non-NaN values, and (a family of its
      own) the values that repeat, always (continuous outputs are never judged by atom
      events only, whatever the number of selection draws); with ``float_bits`` the float64
      representation;
    * numeric vectors whose values do not repeat: the learned score, and for dimensions 2–4
      the orthants (:func:`_box_candidates`);
    * float outputs holding NaN, ±inf or values beyond ±1e30: sets of those classes, so that
      a NaN (or infinite) release is an event of its own.
    """
    kind = x[0].dtype.kind
    text = kind in "US"
    floats = kind == "f"
    vector = x[0].ndim == 2
    fams: list[Family] = []
    if text:
        pooled = np.concatenate([_atom_keys(x[0]), _atom_keys(x[1])])
        distinct = int(np.unique(pooled).size)
        if distinct > pooled.size // 4:
            raise ValueError(
                f"mechanism: text outputs that rarely repeat ({distinct} distinct values in "
                f"{pooled.size} draws) cannot be audited: no event on them can be selected and "
                "then estimated; release numbers (parse them) or coarser text"
            )
    atoms = text or kind == "b" or _repeating(*x)
    if atoms:
        fams.append(lambda i, j: _discrete_candidates(x[i], x[j]))
    if not text and not vector:
        values = [_scalar(v) for v in x]
        ordered = [np.sort(v[~np.isnan(v)]) for v in values]
        if ordered[0].size and ordered[1].size:
            sizes = (len(x[0]), len(x[1]))
            fams.append(lambda i, j: _sorted_thresholds(ordered[i], ordered[j], sizes[i], sizes[j]))
            fams.append(lambda i, j: _repeat_candidates(ordered[i], ordered[j], sizes[i], sizes[j]))
        if float_bits and floats:
            fams.append(lambda i, j: _bits_candidates(values[i], values[j], 1))
            fams.append(lambda i, j: _bits_candidates(values[i], values[j], 4))
    if not text and vector and not atoms:
        fams.append(lambda i, j: _score_candidates(x[i], x[j]))
        fams.append(lambda i, j: _box_candidates(x[i], x[j]))
    if floats:
        patterns = [_patterns(v) for v in x]
        if any(p.any() for p in patterns):
            fams.append(lambda i, j: _discrete_candidates(patterns[i], patterns[j], "pattern"))
    return fams


def _best_events(
    s1: NDArray[Any], s2: NDArray[Any], delta: float, alpha: float, float_bits: bool = False
) -> list[tuple[Event, bool, float]]:
    """The events the estimation draws will test, as (event, swapped, selection-sample ε_LCB):
    first the event maximising the selection draws' bound (taken simultaneous over the
    candidates of each family: Bonferroni), then the best event of every other family whose
    plug-in ε on the selection draws exceeds that bound — a family that looks more revealing
    than the winner but lost on counts too small to bound, e.g. an atom leaked with
    probability 1e-5 seen 20 times against none, next to the Laplace body. The choice uses the
    selection draws only; the estimation then splits α between the K events (Bonferroni), so
    each rare family is estimated on the large draws at a price of α/K.
    ``float_bits`` adds the float-representation families (1 and 4 low mantissa bits) for
    float outputs: the floating-point attack."""
    x = (np.asarray(s1), np.asarray(s2))
    if _space(x[0]) != _space(x[1]):
        raise ValueError(
            f"mechanism: outputs on D and on D' differ in kind or shape ({_space(x[0])} vs "
            f"{_space(x[1])}); such outputs reveal the dataset outright — return one output "
            "type and shape for every input"
        )
    if x[0].dtype != x[1].dtype and x[0].dtype.kind not in "US":
        common = np.result_type(x[0].dtype, x[1].dtype)
        x = (x[0].astype(common), x[1].astype(common))
    per_family: list[tuple[Event, bool, float, float]] = []
    for family in _families(x, float_bits):
        best: tuple[Event, bool, float, float] | None = None
        for swapped in (False, True):
            cands = family(1, 0) if swapped else family(0, 1)
            if cands is None:
                continue
            k1, k2, n1, n2, build = cands
            # rank every candidate by a cheap Wilson-score bound, then compute the exact
            # Clopper–Pearson bound for the best few (CP inverts the incomplete beta: slow).
            # Selection ranks by bounds that hold simultaneously for all candidates
            # (Bonferroni, α/#candidates): against the winner's curse, a noisy small event no
            # longer beats a large one whose ratio is known precisely.
            sel = alpha / max(k1.size, 1)
            rough = epsilon_lower(
                _wilson(k1, n1, sel / 2, lower=True), _wilson(k2, n2, sel / 2, lower=False), delta
            )
            top = np.argsort(-rough, kind="stable")[:_EXACT_TOP]
            bounds = epsilon_lower(
                cp_lower(k1[top], n1, sel / 2), cp_upper(k2[top], n2, sel / 2), delta
            )
            j = int(np.argmax(bounds))
            if best is None or bounds[j] > best[2]:
                k = int(top[j])
                plug_in = _plug_in(k1[k] / n1, k2[k] / n2, delta)
                best = (build(k), swapped, float(bounds[j]), plug_in)
        if best is not None:
            per_family.append(best)
    if not per_family:
        raise ValueError("mechanism: no candidate event could be formed from its outputs")
    first = max(range(len(per_family)), key=lambda i: per_family[i][2])
    chosen = [per_family[first][:3]]
    for i, (event, swapped, bound, plug_in) in enumerate(per_family):
        if i != first and plug_in > per_family[first][2]:
            chosen.append((event, swapped, bound))
    return chosen


def _plug_in(p1: float, p2: float, delta: float) -> float:
    """ln((p₁ − δ)/p₂) from point estimates: +inf when p₂ = 0 < p₁ − δ, −inf when p₁ ≤ δ."""
    if p1 - delta <= 0:
        return -math.inf
    return math.inf if p2 == 0 else math.log((p1 - delta) / p2)


def _draw(
    mechanism: Mechanism,
    data: Any,
    n: int,
    rng: np.random.Generator,
    space: tuple[str, tuple[int, ...]] | None = None,
) -> NDArray[Any]:
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
    if space is not None and _space(out) != space:
        raise ValueError(
            f"mechanism: outputs changed kind or shape between draws ({space} then "
            f"{_space(out)}); return one output type and shape for every input"
        )
    return out


@dataclass
class AuditResult:
    """One audit's verdict. ``epsilon_lower`` holds with probability ≥ ``confidence``;
    ``violation`` = ``epsilon_lower`` > ``epsilon_claimed``. ``pair`` is (D, D') as given and
    ``direction`` says which one played the role of M(D) in p₁."""

    epsilon_claimed: float
    delta: float
    epsilon_lower: float
    epsilon_estimate: float
    confidence: float
    violation: bool
    event: str
    pair: tuple[Any, Any]
    p1: float
    p1_interval: tuple[float, float]
    p2: float
    p2_interval: tuple[float, float]
    samples_per_side: int
    seconds: float
    direction: str = "D -> D'"
    selection_samples: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in self.__dataclass_fields__}
        out["extra"] = dict(self.extra)
        out["pair"] = [repr(self.pair[0]), repr(self.pair[1])]
        for key in ("epsilon_lower", "epsilon_estimate"):
            if math.isinf(out[key]):
                out[key] = "inf" if out[key] > 0 else "-inf"
        return out


# --- checkpoints -------------------------------------------------------------------------------


def _value_json(v: Any) -> Any:
    if isinstance(v, tuple | list):
        return [_value_json(u) for u in v]
    if isinstance(v, bytes):
        return {"bytes": v.hex()}
    if isinstance(v, np.generic):
        return _value_json(v.item())
    if isinstance(v, bool | int | float | str):
        return v
    raise TypeError(f"checkpoint: cannot store an event value {v!r}")


def _value_back(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_value_back(u) for u in v)
    if isinstance(v, dict) and set(v) == {"bytes"} and isinstance(v["bytes"], str):
        return bytes.fromhex(v["bytes"])
    if isinstance(v, bool | int | float | str):
        return v
    raise ValueError(f"an event value {v!r} of type {type(v).__name__}")


def _event_json(event: Event) -> dict[str, Any]:
    return {
        "kind": event.kind,
        "values": [_value_json(v) for v in event.values],
        "lo": event.lo,
        "hi": event.hi,
        "weights": list(event.weights),
        "bits": event.bits,
    }


def _event_back(d: Any) -> Event:
    keys = {"kind", "values", "lo", "hi", "weights", "bits"}
    if not isinstance(d, dict) or set(d) != keys:
        raise ValueError(f"event: expected the fields {sorted(keys)}")
    if not isinstance(d["values"], list) or not isinstance(d["weights"], list):
        raise ValueError("event: values and weights must be lists")
    if not isinstance(d["kind"], str):
        raise ValueError("event: kind must be a string")
    return Event(
        d["kind"],
        tuple(_value_back(v) for v in d["values"]),
        d["lo"],
        d["hi"],
        tuple(d["weights"]),
        d["bits"],
    )


def _digest(body: dict[str, Any]) -> str:
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), allow_nan=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass
class _Progress:
    """Estimation state: the events and their directions, the seed of the estimation blocks
    and, per side, draws done (whole blocks) and, per event and side, hits; saved to a
    checkpoint after every block so that an interrupted audit resumes where it stopped."""

    events: list[Event]
    swapped: list[bool]
    selection: int
    root: int
    key: str
    done: list[int] = field(default_factory=lambda: [0, 0])
    hits: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.hits:
            self.hits = [[0, 0] for _ in self.events]

    def save(self, path: Path | None) -> None:
        """Write atomically (temporary file, then rename), with a SHA-256 of the content and
        the audit key: a file edited by hand or damaged in storage is refused on load."""
        if path is None:
            return
        body = {
            "format": _CHECKPOINT_FORMAT,
            "key": self.key,
            "events": [_event_json(e) for e in self.events],
            "swapped": list(self.swapped),
            "selection": self.selection,
            "root": self.root,
            "done": list(self.done),
            "hits": [list(h) for h in self.hits],
        }
        body = json.loads(json.dumps(body, allow_nan=True))  # exactly what a load will see
        payload = {**body, "sha256": _digest(body)}
        tmp = path.with_name(path.name + ".tmp")
        try:
            tmp.write_text(json.dumps(payload), encoding="utf-8")
            tmp.replace(path)
        except OSError as exc:
            raise OSError(f"checkpoint: cannot write {path} ({exc.strerror or exc})") from exc

    @classmethod
    def load(cls, path: Path, key: str, n: int, selection: int) -> _Progress | None:
        """The saved state of this audit (``key``: mechanism, pair, claim, sizes, seed), None
        when there is none; a ValueError naming ``checkpoint`` for another audit's file, a
        damaged or edited one, or counts that cannot come from n draws per side."""
        if not path.is_file() or path.stat().st_size == 0:
            return None

        def bad(why: str) -> ValueError:
            return ValueError(
                f"checkpoint: {path} is not a valid checkpoint of this audit ({why}); remove "
                "it to start again"
            )

        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise bad(f"unreadable: {exc}") from exc
        fields = {"format", "key", "events", "swapped", "selection", "root", "done", "hits"}
        if not isinstance(data, dict) or set(data) != fields | {"sha256"}:
            raise bad("unexpected content or fields")
        if data["format"] != _CHECKPOINT_FORMAT:
            raise bad(f"format {data['format']!r}, expected {_CHECKPOINT_FORMAT!r}")
        if data["key"] != key:
            raise ValueError(
                f"checkpoint: {path} belongs to a different audit (mechanism, pair, claim, "
                "samples, selection, event or seed differ); remove it or pick another path"
            )
        body = {k: data[k] for k in fields}
        if data["sha256"] != _digest(body):
            raise bad("its SHA-256 does not match its content: edited or damaged")
        done, hits, swapped, events = data["done"], data["hits"], data["swapped"], data["events"]
        if not (isinstance(events, list) and events and isinstance(swapped, list)):
            raise bad("events and swapped must be non-empty lists")
        if not (isinstance(done, list) and len(done) == 2 and isinstance(hits, list)):
            raise bad("done must be two counts and hits one pair of counts per event")
        if not (len(hits) == len(swapped) == len(events)):
            raise bad("events, swapped and hits must have one entry per event")
        for pair in hits:
            if not (isinstance(pair, list) and len(pair) == 2):
                raise bad("hits must be one pair of counts per event")
            for d, h in zip(done, pair, strict=True):
                if not checkpoint_counts_valid(d, h, n, BLOCK):
                    raise bad(
                        f"draws done {d!r} and hits {h!r}: need whole blocks of {BLOCK} draws "
                        f"in [0, {n}] and 0 <= hits <= done"
                    )
        if not all(isinstance(v, bool) for v in swapped):
            raise bad("swapped must be true or false for every event")
        if data["selection"] != selection or not _is_int(data["selection"]):
            raise bad(f"selection must be {selection}")
        if not (_is_int(data["root"]) and 0 <= data["root"] < 2**63):
            raise bad("root seed must be an integer in [0, 2^63)")
        try:
            back = [_event_back(e) for e in events]
        except (ValueError, TypeError) as exc:
            raise bad(str(exc)) from exc
        return cls(
            back, list(swapped), selection, data["root"], key, list(done),
            [list(h) for h in hits],
        )  # fmt: skip


def _checkpoint_path(checkpoint: Any) -> Path | None:
    """The checkpoint path, refused up front (before any draw) when it cannot be written."""
    if checkpoint is None:
        return None
    if not isinstance(checkpoint, str | os.PathLike):
        raise TypeError(f"checkpoint: expected a path, got {type(checkpoint).__name__}")
    if str(checkpoint) == "":
        raise ValueError("checkpoint: empty path")
    path = Path(checkpoint)
    if path.is_dir():
        raise ValueError(f"checkpoint: {path} is a directory")
    tmp = path.with_name(path.name + ".tmp")
    try:
        with tmp.open("w", encoding="utf-8"):
            pass
        tmp.unlink()
    except OSError as exc:
        raise ValueError(f"checkpoint: cannot write {path} ({exc.strerror or exc})") from exc
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise ValueError(f"checkpoint: {path} exists but cannot be read and replaced")
    return path


def _identity(mech: Any) -> str:
    """A process-independent name of a mechanism for checkpoint keys (its repr when it defines
    one, else its class)."""
    if "__repr__" in {k for cls in type(mech).__mro__[:-1] for k in vars(cls)}:
        return repr(mech)
    return f"{type(mech).__module__}.{type(mech).__qualname__}"


# --- estimation --------------------------------------------------------------------------------


def _blocks(n: int) -> list[int]:
    """Sizes of the estimation blocks of one side: BLOCK each, the last one shorter."""
    return [min(BLOCK, n - start) for start in range(0, n, BLOCK)]


def _count_block(
    mech: Mechanism,
    data: Any,
    events: list[Event],
    m: int,
    root: int,
    side: int,
    index: int,
    space: tuple[str, tuple[int, ...]] | None,
) -> list[int]:
    """Hits of each event in block ``index`` of ``side``: m draws from the generator seeded
    by the child SeedSequence(root, spawn_key=(side, index)) — the same block on any worker;
    every event is counted on the same draws."""
    rng = np.random.default_rng(np.random.SeedSequence(root, spawn_key=(side, index)))
    out = _draw(mech, data, m, rng, space)
    return [int(np.count_nonzero(event.contains(out))) for event in events]


def _estimate(
    mech: Mechanism,
    pair: tuple[Any, Any],
    state: _Progress,
    n: int,
    jobs: int,
    backend: str,
    checkpoint: Path | None,
    tick: Callable[[int], None] | None,
    space: tuple[str, tuple[int, ...]] | None,
) -> None:
    """Counts of n draws per side (side 0: D, side 1: D') landing in each event, block by
    block (memory O(BLOCK)). Block i of a side always draws from the same child SeedSequence
    of ``state.root``, so the counts are the same for any ``jobs`` and for a resumed run. With
    ``jobs`` > 1 the blocks run on joblib workers (``backend`` "loky" processes, "threading",
    or "dask" for a running dask.distributed cluster) and come back in order; only counts
    travel back. The state is checkpointed after every block."""
    sizes = _blocks(n)
    todo = [
        (side, i, m)
        for side in (0, 1)
        for i, m in enumerate(sizes)
        if i * BLOCK >= state.done[side]
    ]

    def record(side: int, m: int, hits: list[int]) -> None:
        for e, h in enumerate(hits):
            state.hits[e][side] += h
        state.done[side] += m
        state.save(checkpoint)
        if tick is not None:
            tick(m)

    if jobs == 1 or len(todo) <= 1:
        for side, i, m in todo:
            record(
                side, m, _count_block(mech, pair[side], state.events, m, state.root, side, i, space)
            )
        return
    try:
        from joblib import Parallel, delayed, parallel_config
    except ImportError as exc:  # pragma: no cover - joblib ships with scikit-learn
        raise ValueError("jobs: parallel audits need joblib (pip install joblib)") from exc
    work = [
        delayed(_count_block)(mech, pair[side], state.events, m, state.root, side, i, space)
        for side, i, m in todo
    ]
    with parallel_config(backend=backend, n_jobs=jobs):
        results = Parallel(return_as="generator")(work)
        for (side, _, m), hits in zip(todo, results, strict=True):
            record(side, m, [int(h) for h in hits])


# --- arguments ---------------------------------------------------------------------------------


def check_confidence(confidence: Any, name: str = "confidence") -> float:
    """A number strictly between 0 and 1 (not a string, not bool, not NaN)."""
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real):
        raise TypeError(f"{name}: expected a number in (0, 1), got {confidence!r}")
    c = float(confidence)
    if not 0 < c < 1:
        raise ValueError(f"{name}: must be in (0, 1), got {confidence!r}")
    return c


def check_seed(seed: Any, name: str = "seed") -> int:
    """A non-negative integer seed (numpy integers accepted; not bool, float or string)."""
    if isinstance(seed, bool | np.bool_) or not isinstance(seed, int | np.integer):
        raise TypeError(f"{name}: expected a non-negative integer, got {seed!r}")
    if int(seed) < 0:
        raise ValueError(f"{name}: must be >= 0, got {seed!r}")
    return int(seed)


def _check_int(v: Any, name: str, low: int, high: int, why: str = "") -> int:
    if isinstance(v, bool | np.bool_) or not isinstance(v, int | np.integer):
        raise TypeError(f"{name}: expected an integer, got {v!r}")
    if not low <= int(v) <= high:
        raise ValueError(f"{name}: must be in [{low}, {high}]{why}, got {v!r}")
    return int(v)


def check_samples(samples: Any, name: str = "samples") -> int:
    """Estimation draws per side: an integer in [1, MAX_SAMPLES]."""
    return _check_int(samples, name, 1, MAX_SAMPLES, " (draws per side; larger is refused)")


def _check_epsilon_claim(epsilon: Any) -> float:
    if isinstance(epsilon, bool | np.bool_) or not isinstance(epsilon, numbers.Real):
        raise TypeError(f"epsilon: expected a number >= 0, got {epsilon!r}")
    e = float(epsilon)
    if not math.isfinite(e) or e < 0:
        raise ValueError(f"epsilon: must be finite and >= 0, got {epsilon!r}")
    return e


def max_epsilon_lower(samples: int, confidence: float, delta: float = 0.0) -> float:
    """The largest ε_LCB an audit with ``samples`` draws per side can report: every draw on
    one side in the event, none on the other (p₁⁻ = (α/2)^{1/N}, p₂⁺ = 1 − (α/2)^{1/N})."""
    alpha = 1.0 - confidence
    return float(
        epsilon_lower(cp_lower(samples, samples, alpha / 2), cp_upper(0, samples, alpha / 2), delta)
    )


def _check_refutable(n: int, eps: float, delta: float, confidence: float) -> None:
    """Refuse an audit that cannot flag the claim whatever the mechanism does: its verdict
    would be "consistent" without a test behind it."""
    top = max_epsilon_lower(n, confidence, delta)
    if top > eps:
        return
    need = n
    while max_epsilon_lower(need, confidence, delta) <= eps and need <= MAX_SAMPLES:
        need *= 2
    hint = (
        f"use at least {need} draws per side"
        if need <= MAX_SAMPLES
        else f"no audit of at most {MAX_SAMPLES} draws per side can refute it"
    )
    raise ValueError(
        f"samples: {n} draws per side can never give an eps lower bound above {top:.4g} "
        f"(confidence {confidence}, delta {delta}), so the claim epsilon={eps:g} could not be "
        f"refuted; {hint}"
    )


def default_selection(samples: int) -> int:
    """Selection draws per side when not given: samples/5, at least min(samples, 1000) (so a
    small audit still has a usable selection), at most MAX_SELECTION. The whole audit makes
    2·(samples + selection) mechanism calls: 400 for samples = 100."""
    return min(max(samples // 5, min(samples, 1000)), MAX_SELECTION)


def audit(
    mechanism: Any,
    pair: tuple[Any, Any],
    epsilon: float,
    delta: float = 0.0,
    samples: int = 10**6,
    confidence: float = 0.95,
    seed: int | np.random.Generator = 0,
    selection: int | None = None,
    event: Event | None = None,
    progress: Callable[[int], None] | None = None,
    checkpoint: str | Path | None = None,
    jobs: int = 1,
    backend: str = "loky",
    float_bits: bool = False,
) -> AuditResult:
    """Audit ``mechanism`` on the neighbouring ``pair`` (D, D') against an (ε, δ) claim.

    ``samples``: estimation draws per side (at most ``MAX_SAMPLES``, and enough that some
    outcome could refute the claim: see :func:`max_epsilon_lower`); ``selection``: selection
    draws per side (default :func:`default_selection`: samples/5, at least min(samples, 1000);
    at most ``MAX_SELECTION``, as they are held in memory); ``event``: skip selection and test
    this :class:`Event` (both directions are then not searched: p₁ is D's side).
    ``progress(k)`` is called as draws complete. ``seed``: a non-negative integer or a numpy
    Generator.

    Outputs the auditor cannot represent — dicts, None, ragged rows, mixed types, outputs of
    another kind or shape on D than on D' — are refused with an error naming ``mechanism``,
    never judged. NaN is an output of its own (events "output is NaN" are tested like any
    other value), complex outputs are audited as (real, imaginary) pairs. An exception of the
    mechanism is re-raised as :class:`MechanismError`.

    Selection keeps the best event and, when another family's best event looks more revealing
    on the selection draws than that event's bound (see :func:`_best_events`: rare atoms in a
    continuous law), that family's best too; the K events are counted on the same estimation
    draws, each bounded at confidence 1 − α/K, and the largest bound is reported (the others
    are in ``extra["events"]``). A smooth mechanism keeps K = 1.

    The estimation draws come in blocks of ``BLOCK`` draws, block i of each side from the
    child SeedSequence (root, spawn_key=(side, i)), root drawn after the selection: the result
    is the same for every ``jobs`` and for a resumed run.

    ``checkpoint``: a JSON file (with a SHA-256 of its content and of the audit's arguments)
    updated after every block; an audit started again with the same arguments resumes from
    it. An unwritable path is refused before any draw; a damaged, edited or foreign file is
    refused with an error naming ``checkpoint``. On KeyboardInterrupt the partial counts stay.

    ``jobs`` > 1 runs the estimation blocks on that many joblib workers (``backend`` "loky",
    "threading", or "dask" to use a running dask.distributed cluster); the mechanism must then
    be picklable (cloudpickle handles lambdas).

    ``float_bits=True`` adds events on the float64 representation of scalar outputs (sign,
    exponent, lowest mantissa bits): it audits the mechanism *as a floating-point program*
    (Mironov's attack). Leave it off to audit a float implementation of an ideal-real
    mechanism against its ideal-real claim.
    """
    start = time.perf_counter()
    mech = as_mechanism(mechanism)
    if not (isinstance(pair, tuple | list) and len(pair) == 2):
        raise ValueError("pair: expected (D, D'), two neighbouring datasets")
    eps = _check_epsilon_claim(epsilon)
    delta = check_delta(delta)
    n = check_samples(samples)
    confidence = check_confidence(confidence)
    if isinstance(seed, np.random.Generator):
        rng = seed
        seed_key: Any = ("generator", repr(rng.bit_generator.state))
    else:
        seed_key = check_seed(seed)
        rng = np.random.default_rng(seed_key)
    if selection is None:
        n_sel = default_selection(n)
    else:
        n_sel = _check_int(selection, "selection", 1, MAX_SELECTION, " (held in memory)")
    if event is not None and not isinstance(event, Event):
        raise TypeError(f"event: expected an Event or None, got {event!r}")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress: expected a callable or None, got {progress!r}")
    jobs = _check_int(jobs, "jobs", 1, MAX_JOBS)
    if backend not in ("loky", "dask", "threading"):
        raise ValueError(f"backend: expected 'loky', 'dask' or 'threading', got {backend!r}")
    if not isinstance(float_bits, bool | np.bool_):
        raise TypeError(f"float_bits: expected True or False, got {float_bits!r}")
    _check_refutable(n, eps, delta, confidence)
    path = _checkpoint_path(checkpoint)
    alpha = 1.0 - confidence
    d1, d2 = pair
    key = repr(
        (
            _identity(mech),
            repr(pair),
            eps,
            delta,
            n,
            0 if event is not None else n_sel,
            confidence,
            seed_key,
            bool(float_bits),
            None if event is None else repr(event),
        )
    )
    expected_selection = 0 if event is not None else n_sel
    state = None if path is None else _Progress.load(path, key, n, expected_selection)
    space = None
    if state is None:
        chosen: list[tuple[Event, bool]] = [(event, False)] if event is not None else []
        if event is None:
            s1 = _draw(mech, d1, n_sel, rng)
            s2 = _draw(mech, d2, n_sel, rng)
            if progress is not None:
                progress(2 * n_sel)
            chosen = [(e, sw) for e, sw, _ in _best_events(s1, s2, delta, alpha, bool(float_bits))]
            space = _space(s1)
            del s1, s2
        root = int(rng.integers(2**63))  # after the selection draws: independent of them
        state = _Progress(
            [e for e, _ in chosen], [sw for _, sw in chosen], expected_selection, root, key
        )
        state.save(path)
    elif progress is not None:
        progress(2 * state.selection + sum(state.done))
    _estimate(mech, (d1, d2), state, n, jobs, backend, path, progress, space)
    # Bonferroni over the K estimated events: each bound at α/K, the largest reported
    share = alpha / len(state.events)
    rows = []
    for e, (ev, swapped) in enumerate(zip(state.events, state.swapped, strict=True)):
        k1, k2 = state.hits[e][::-1] if swapped else state.hits[e]
        p1_lo, p1_hi = float(cp_lower(k1, n, share / 2)), float(cp_upper(k1, n, share / 2))
        p2_lo, p2_hi = float(cp_lower(k2, n, share / 2)), float(cp_upper(k2, n, share / 2))
        lcb = float(epsilon_lower(p1_lo, p2_hi, delta))
        rows.append((lcb, ev, swapped, k1, k2, (p1_lo, p1_hi), (p2_lo, p2_hi)))
    best = max(range(len(rows)), key=lambda i: rows[i][0])
    lcb, ev, swapped, k1, k2, p1_int, p2_int = rows[best]
    p1, p2 = k1 / n, k2 / n
    if p2 == 0:
        estimate = math.inf if p1 > delta else -math.inf
    else:
        estimate = float(epsilon_lower(p1, p2, delta))
    extra: dict[str, Any] = {}
    if len(rows) > 1:
        extra["events"] = [
            {
                "event": r[1].describe(),
                "direction": "D' -> D" if r[2] else "D -> D'",
                "epsilon_lower": r[0] if math.isfinite(r[0]) else repr(r[0]),
                "hits": [r[3], r[4]],
            }
            for r in rows
        ]
    return AuditResult(
        epsilon_claimed=eps,
        delta=delta,
        epsilon_lower=lcb,
        epsilon_estimate=estimate,
        confidence=confidence,
        violation=lcb > eps,
        event=ev.describe(),
        pair=(d1, d2),
        p1=p1,
        p1_interval=p1_int,
        p2=p2,
        p2_interval=p2_int,
        samples_per_side=n,
        seconds=time.perf_counter() - start,
        direction="D' -> D" if swapped else "D -> D'",
        selection_samples=state.selection,
        extra=extra,
    )


def screen_bound(
    mechanism: Mechanism,
    pair: tuple[Any, Any],
    n: int,
    rng: np.random.Generator,
    delta: float = 0.0,
    alpha: float = 0.05,
) -> float:
    """The best selection-stage ε bound on ``n`` fresh draws per side: how much ``pair``
    seems to leak (used to choose a pair; never the reported bound)."""
    s1, s2 = _draw(mechanism, pair[0], n, rng), _draw(mechanism, pair[1], n, rng)
    return _best_events(s1, s2, delta, alpha)[0][2]


def audit_pairs(
    mechanism: Any,
    pairs: Iterable[tuple[Any, Any]],
    epsilon: float,
    delta: float = 0.0,
    samples: int = 10**6,
    confidence: float = 0.95,
    seed: int = 0,
    screen: int = 50_000,
) -> AuditResult:
    """Pick the pair with the largest selection-sample bound (``screen`` draws per side per
    pair), then audit it with fresh draws. The confidence statement is for the audited pair:
    screening only chooses which pair to test, on draws the final audit does not reuse."""
    rng = np.random.default_rng(check_seed(seed))
    mech = as_mechanism(mechanism)
    screen = _check_int(screen, "screen", 1, MAX_SELECTION, " (held in memory)")
    alpha = 1.0 - check_confidence(confidence)
    listed = list(pairs)
    if not listed:
        raise ValueError("pairs: no neighbouring pair given")
    scores = [screen_bound(mech, pair, screen, rng, delta, alpha) for pair in listed]
    best = listed[int(np.argmax(scores))]
    result = audit(mech, best, epsilon, delta, samples, confidence, rng)
    result.extra["screened_pairs"] = len(listed)
    result.extra["screen_bounds"] = scores
    return result
