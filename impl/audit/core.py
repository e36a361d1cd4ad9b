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

import inspect
import json
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray
from scipy import special

from dpspec.impl.validation import check_count, check_delta, check_epsilon, check_rng

#: number of distinct output values up to which outputs are treated as discrete atoms
MAX_ATOMS = 4096
#: estimation draws per chunk (memory: two arrays of this many outputs)
CHUNK = 1 << 18


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
            return np.asarray(self.fn(data, n, rng))
        if self.arity == 2:
            return np.asarray([self.fn(data, rng) for _ in range(n)])
        return np.asarray([self.fn(data) for _ in range(n)])


def as_mechanism(mechanism: Any) -> Mechanism:
    """A :class:`Mechanism` from an object with ``sample`` or from a callable."""
    if isinstance(mechanism, Mechanism):
        return mechanism
    if callable(mechanism):
        return CallableMechanism(mechanism)
    raise ValueError(f"mechanism: expected .sample(data, n, rng) or a callable, got {mechanism!r}")


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


@dataclass(frozen=True)
class Event:
    """A measurable set of outputs: ``kind`` atoms (a set of values), ``ge``/``le`` (half-lines
    of a scalar or of a learned score), ``interval`` [lo, hi], or ``bits`` (a set of
    float-representation keys: exponent and the ``bits`` lowest mantissa bits of a float64)."""

    kind: str
    values: tuple[Any, ...] = ()
    lo: float = -math.inf
    hi: float = math.inf
    weights: tuple[float, ...] = ()  # learned score w·φ(x) for vector outputs
    bits: int = 0

    def contains(self, outputs: NDArray[Any]) -> NDArray[np.bool_]:
        if self.kind == "bits":
            keys = float_keys(_scalar(outputs), self.bits)
            return np.isin(keys, np.asarray(self.values, dtype=keys.dtype))
        if self.kind == "atoms":
            keys = _atom_keys(outputs)
            if keys.dtype.kind == "V":  # vector outputs: compare rows as bytes
                rows = np.asarray(self.values, dtype=np.asarray(outputs).dtype)
                wanted = _atom_keys(rows.reshape(len(self.values), -1))
                return np.isin(keys, wanted)
            return np.isin(keys, np.asarray(self.values, dtype=keys.dtype))
        x = _score(outputs, self.weights) if self.weights else _scalar(outputs)
        return np.asarray((x >= self.lo) & (x <= self.hi))

    def describe(self) -> str:
        if self.kind == "bits":
            return (
                f"float64 (sign, exponent, lowest {self.bits} mantissa bit(s)) in a set of "
                f"{len(self.values)} patterns"
            )
        if self.kind == "atoms":
            shown = ", ".join(repr(v) for v in self.values[:6])
            more = f", … ({len(self.values)} values)" if len(self.values) > 6 else ""
            return f"output in {{{shown}{more}}}"
        what = "score" if self.weights else "output"
        if self.lo == -math.inf:
            return f"{what} <= {self.hi:.6g}"
        if self.hi == math.inf:
            return f"{what} >= {self.lo:.6g}"
        return f"{self.lo:.6g} <= {what} <= {self.hi:.6g}"


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
        raise ValueError(f"mechanism: scalar outputs expected here, got shape {arr.shape}")
    return arr.astype(np.float64)


def _atom_keys(outputs: NDArray[Any]) -> NDArray[Any]:
    """Hashable per-row keys: the value for scalars, a bytes view of the row for vectors."""
    arr = np.asarray(outputs)
    if arr.ndim == 1:
        return arr
    if arr.ndim == 2 and arr.shape[1] == 1:
        return arr[:, 0]
    flat = np.ascontiguousarray(arr.reshape(arr.shape[0], -1))
    return flat.view(np.dtype((np.void, flat.dtype.itemsize * flat.shape[1]))).ravel()


def _features(outputs: NDArray[Any]) -> NDArray[np.float64]:
    x = np.asarray(outputs, dtype=np.float64).reshape(len(outputs), -1)
    return np.column_stack([np.ones(len(x)), x, x**2])


def _score(outputs: NDArray[Any], weights: tuple[float, ...]) -> NDArray[np.float64]:
    return np.asarray(_features(outputs) @ np.asarray(weights))


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


Candidates = tuple[NDArray[np.float64], NDArray[np.float64], Callable[[int], Event]]


def _discrete_candidates(a: NDArray[Any], b: NDArray[Any]) -> Candidates:
    """Likelihood-ratio-ordered prefix sets of atoms (the best events for M(a) vs M(b)):
    selection counts of every prefix, and a builder for the j-th prefix's event."""
    ka, kb = _atom_keys(a), _atom_keys(b)
    atoms, inverse = np.unique(np.concatenate([ka, kb]), return_inverse=True)
    ca = np.bincount(inverse[: len(ka)], minlength=atoms.size).astype(np.float64)
    cb = np.bincount(inverse[len(ka) :], minlength=atoms.size).astype(np.float64)
    order = np.argsort(-(ca + 0.5) / (cb + 0.5), kind="stable")

    row_dtype = np.asarray(a).dtype

    def build(j: int) -> Event:
        chosen = atoms[order[: j + 1]]
        return Event("atoms", tuple(_plain(v, row_dtype) for v in chosen))

    return np.cumsum(ca[order]), np.cumsum(cb[order]), build


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
) -> Candidates:
    """Half-lines {x ≥ q}, {x ≤ q} and intervals [q_i, q_j] at 129 pooled sample quantiles."""
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


def _with_repeats(sa: NDArray[np.float64], sb: NDArray[np.float64]) -> Candidates:
    """Threshold events plus single-value events for the values ``sa`` repeats (atoms in an
    otherwise continuous law, e.g. a raw value leaked with small probability). Both inputs
    are sorted."""
    k1, k2, build = _threshold_candidates(sa, sb, presorted=True)
    dup = sa[1:] == sa[:-1]
    if not np.any(dup):
        return k1, k2, build
    values, counts = np.unique(sa[1:][dup], return_counts=True)  # value → repeats − 1
    repeated = values[np.argsort(-counts, kind="stable")][:64]
    ka = np.searchsorted(sa, repeated, "right") - np.searchsorted(sa, repeated, "left")
    kb = np.searchsorted(sb, repeated, "right") - np.searchsorted(sb, repeated, "left")
    ka, kb = ka.astype(np.float64), kb.astype(np.float64)
    base = k1.size

    def build_all(j: int) -> Event:
        return build(j) if j < base else Event("atoms", (float(repeated[j - base]),))

    return np.concatenate([k1, ka]), np.concatenate([k2, kb]), build_all


def _is_discrete(a: NDArray[Any], b: NDArray[Any]) -> bool:
    arr = np.asarray(a)
    if arr.dtype.kind in "biuUSOV":
        return True
    pooled = np.concatenate([_atom_keys(a), _atom_keys(b)])
    if np.unique(pooled[: 4 * MAX_ATOMS]).size > MAX_ATOMS:  # cheap early exit
        return False
    return bool(np.unique(pooled).size <= MAX_ATOMS)


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
        out = asdict(self)
        out["pair"] = [repr(self.pair[0]), repr(self.pair[1])]
        for key in ("epsilon_lower", "epsilon_estimate"):
            if math.isinf(out[key]):
                out[key] = "inf" if out[key] > 0 else "-inf"
        return out


def _bits_candidates(a: NDArray[Any], b: NDArray[Any], bits: int) -> Candidates:
    """Likelihood-ratio-ordered sets of float-representation keys (see :func:`float_keys`)."""
    k1, k2, build = _discrete_candidates(float_keys(a, bits), float_keys(b, bits))

    def build_bits(j: int) -> Event:
        return Event("bits", build(j).values, bits=bits)

    return k1, k2, build_bits


def _best_event(
    s1: NDArray[Any], s2: NDArray[Any], delta: float, alpha: float, float_bits: bool = False
) -> tuple[Event, bool, float]:
    """(event, swapped, selection-sample ε_LCB) maximising the selection draws' bound, taken
    simultaneous over the candidates of each family (Bonferroni).
    ``float_bits`` adds the float-representation families (1 and 4 low mantissa bits) for
    float outputs: the floating-point attack."""
    best: tuple[Event, bool, float] | None = None
    discrete = _is_discrete(s1, s2)
    vector = np.asarray(s1).ndim == 2 and np.asarray(s1).shape[1] > 1
    scalar_float = not discrete and not vector
    families: list[tuple[str, int]] = [("main", 0)]
    if float_bits and scalar_float:
        families += [("bits", 1), ("bits", 4)]
    if scalar_float:  # sort once, reuse in both directions
        s1, s2 = np.sort(_scalar(s1)), np.sort(_scalar(s2))
    for (family, bits), swapped in ((f, sw) for f in families for sw in (False, True)):
        a, b = (s2, s1) if swapped else (s1, s2)
        if family == "bits":
            k1, k2, build = _bits_candidates(a, b, bits)
        elif discrete:
            k1, k2, build = _discrete_candidates(a, b)
        elif vector:
            half = len(a) // 2
            w = _logistic(_features(b[:half]), _features(a[:half]))
            a, b = a[half:], b[half:]
            k1, k2, build = _threshold_candidates(_score(a, w), _score(b, w), weights=w)
        else:
            k1, k2, build = _with_repeats(a, b)
        # rank every candidate by a cheap Wilson-score bound, then compute the exact
        # Clopper–Pearson bound for the best few (CP inverts the incomplete beta: slow)
        # Selection ranks by bounds that hold simultaneously for all candidates (Bonferroni,
        # α/#candidates): against the winner's curse, a noisy small event no longer beats a
        # large one whose ratio is known precisely (Laplace ε = 0.1 at 10^6: 0.070 → 0.096).
        sel = alpha / max(k1.size, 1)
        rough = epsilon_lower(
            _wilson(k1, len(a), sel / 2, lower=True),
            _wilson(k2, len(b), sel / 2, lower=False),
            delta,
        )
        top = np.argsort(-rough, kind="stable")[:_EXACT_TOP]
        bounds = epsilon_lower(
            cp_lower(k1[top], len(a), sel / 2), cp_upper(k2[top], len(b), sel / 2), delta
        )
        j = int(np.argmax(bounds))
        if best is None or bounds[j] > best[2]:
            best = (build(int(top[j])), swapped, float(bounds[j]))
    assert best is not None
    return best


def _draw(mechanism: Mechanism, data: Any, n: int, rng: np.random.Generator) -> NDArray[Any]:
    out = np.asarray(mechanism.sample(data, n, rng))
    if out.shape[:1] != (n,):
        raise ValueError(f"mechanism: sample(data, {n}, rng) returned shape {out.shape}")
    return out


@dataclass
class _Progress:
    """Estimation state: per side, draws done and hits; saved to a checkpoint after every
    chunk so that an interrupted audit resumes where it stopped."""

    event: Event
    swapped: bool
    selection: int
    done: list[int] = field(default_factory=lambda: [0, 0])
    hits: list[int] = field(default_factory=lambda: [0, 0])
    rng_state: dict[str, Any] | None = None
    key: str = ""

    def save(self, path: Path | None) -> None:
        if path is None:
            return
        payload = {
            "key": self.key,
            "event": asdict(self.event),
            "swapped": self.swapped,
            "selection": self.selection,
            "done": self.done,
            "hits": self.hits,
            "rng_state": self.rng_state,
        }
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(payload, default=_jsonable), encoding="utf-8")
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path, key: str) -> _Progress | None:
        if not path.is_file():
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("key") != key:
            raise ValueError(
                f"checkpoint: {path} belongs to a different audit (mechanism, pair, claim, "
                "samples or seed differ); remove it or pick another path"
            )
        ev = data["event"]
        values = tuple(tuple(v) if isinstance(v, list) else v for v in ev["values"])
        event = Event(
            ev["kind"], values, ev["lo"], ev["hi"], tuple(ev["weights"]), ev.get("bits", 0)
        )
        return cls(
            event,
            data["swapped"],
            data["selection"],
            data["done"],
            data["hits"],
            data["rng_state"],
            key,
        )


def _identity(mech: Any) -> str:
    """A process-independent name of a mechanism for checkpoint keys (its repr when it defines
    one, else its class)."""
    if "__repr__" in {k for cls in type(mech).__mro__[:-1] for k in vars(cls)}:
        return repr(mech)
    return f"{type(mech).__module__}.{type(mech).__qualname__}"


def _jsonable(v: Any) -> Any:
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if isinstance(v, np.generic):
        return v.item()
    raise TypeError(f"not JSON serialisable: {v!r}")


def _estimate(
    mech: Mechanism,
    sides: tuple[Any, Any],
    state: _Progress,
    n: int,
    rng: np.random.Generator,
    checkpoint: Path | None,
    tick: Callable[[int], None] | None,
) -> None:
    """Streamed counts of n draws per side landing in the event (memory O(CHUNK)); the state
    is checkpointed after every chunk, with the generator's state for an exact resume."""
    for side in (0, 1):
        while state.done[side] < n:
            m = min(CHUNK, n - state.done[side])
            out = _draw(mech, sides[side], m, rng)
            state.hits[side] += int(np.count_nonzero(state.event.contains(out)))
            state.done[side] += m
            state.rng_state = dict(rng.bit_generator.state)
            state.save(checkpoint)
            if tick is not None:
                tick(m)


def _count_block(
    mech: Mechanism, data: Any, event: Event, n: int, seed: np.random.SeedSequence
) -> int:
    """Hits of ``n`` draws on ``data`` with a generator of its own (one parallel work item)."""
    rng = np.random.default_rng(seed)
    hits, done = 0, 0
    while done < n:
        m = min(CHUNK, n - done)
        hits += int(np.count_nonzero(event.contains(_draw(mech, data, m, rng))))
        done += m
    return hits


def _estimate_parallel(
    mech: Mechanism,
    sides: tuple[Any, Any],
    state: _Progress,
    n: int,
    rng: np.random.Generator,
    jobs: int,
    backend: str,
    tick: Callable[[int], None] | None,
) -> None:
    """The estimation stage on ``jobs`` workers through joblib (``backend`` "loky" for local
    processes, "dask" for a dask.distributed cluster — a ``distributed.Client`` must exist).
    Each block draws from its own child of a SeedSequence taken from ``rng``: the blocks are
    independent of each other and of the selection draws, so the bound keeps its guarantee.
    Only counts travel back: memory per worker is O(CHUNK)."""
    try:
        from joblib import Parallel, delayed, parallel_config
    except ImportError as exc:  # pragma: no cover - joblib ships with scikit-learn
        raise ValueError("jobs: parallel audits need joblib (pip install joblib)") from exc
    blocks = [min(CHUNK * 4, n - start) for start in range(0, n, CHUNK * 4)]
    seeds = np.random.SeedSequence(int(rng.integers(2**63))).spawn(2 * len(blocks))
    work = [
        delayed(_count_block)(mech, sides[side], state.event, m, seeds[side * len(blocks) + i])
        for side in (0, 1)
        for i, m in enumerate(blocks)
    ]
    with parallel_config(backend=backend, n_jobs=jobs):
        hits = Parallel(return_as="generator")(work)
        for k, h in enumerate(hits):
            side, m = k // len(blocks), blocks[k % len(blocks)]
            state.hits[side] += int(h)
            state.done[side] += m
            if tick is not None:
                tick(m)


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

    ``samples``: estimation draws per side; ``selection``: selection draws per side (default
    max(samples // 5, 20 000)); ``event``: skip selection and test this event (both directions
    are then not searched: p₁ is D's side). ``progress(k)`` is called as draws complete.

    ``checkpoint``: a JSON file updated after every chunk of draws; an audit started again
    with the same arguments resumes from it (same event, counts and generator state, so the
    result equals an uninterrupted run). On KeyboardInterrupt the partial counts stay there.

    ``jobs`` > 1 runs the estimation draws on that many joblib workers (``backend`` "loky",
    or "dask" to use a running dask.distributed cluster); it cannot be combined with
    ``checkpoint``. The mechanism must then be picklable (cloudpickle handles lambdas).

    ``float_bits=True`` adds events on the float64 representation of scalar outputs (sign,
    exponent, lowest mantissa bits): it audits the mechanism *as a floating-point program*
    (Mironov's attack). Leave it off to audit a float implementation of an ideal-real
    mechanism against its ideal-real claim.
    """
    start = time.perf_counter()
    mech = as_mechanism(mechanism)
    eps = check_epsilon(epsilon) if epsilon != 0 else 0.0
    check_delta(delta)
    n = check_count(samples, "samples")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence: must be in (0, 1), got {confidence!r}")
    if not (isinstance(pair, tuple | list) and len(pair) == 2):
        raise ValueError("pair: expected (D, D'), two neighbouring datasets")
    jobs = check_count(jobs, "jobs")
    if jobs > 1 and checkpoint is not None:
        raise ValueError("checkpoint: not available with jobs > 1 (use one or the other)")
    if backend not in ("loky", "dask", "threading"):
        raise ValueError(f"backend: expected 'loky', 'dask' or 'threading', got {backend!r}")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    check_rng(rng)
    alpha = 1.0 - confidence
    d1, d2 = pair
    n_sel = max(n // 5, 20_000) if selection is None else check_count(selection, "selection")
    path = None if checkpoint is None else Path(checkpoint)
    key = repr(
        (
            _identity(mech),
            repr(pair),
            float(eps),
            float(delta),
            n,
            n_sel,
            confidence,
            seed,
            float_bits,
        )
    )
    state = None if path is None else _Progress.load(path, key)
    if state is not None and state.rng_state is not None:
        rng.bit_generator.state = state.rng_state
    if state is None:
        if event is None:
            s1 = _draw(mech, d1, n_sel, rng)
            s2 = _draw(mech, d2, n_sel, rng)
            if progress is not None:
                progress(2 * n_sel)
            event, swapped, _ = _best_event(s1, s2, delta, alpha, float_bits)
            del s1, s2
            state = _Progress(event, swapped, n_sel, key=key)
        else:
            state = _Progress(event, False, 0, key=key)
        state.rng_state = dict(rng.bit_generator.state)
        state.save(path)
    elif progress is not None:
        progress(2 * state.selection + sum(state.done))
    event, swapped = state.event, state.swapped
    sides = (d2, d1) if swapped else (d1, d2)
    if jobs == 1:
        _estimate(mech, sides, state, n, rng, path, progress)
    else:
        _estimate_parallel(mech, sides, state, n, rng, jobs, backend, progress)
    k1, k2 = state.hits
    p1_lo = float(cp_lower(k1, n, alpha / 2))
    p1_hi = float(cp_upper(k1, n, alpha / 2))
    p2_lo = float(cp_lower(k2, n, alpha / 2))
    p2_hi = float(cp_upper(k2, n, alpha / 2))
    lcb = float(epsilon_lower(p1_lo, p2_hi, delta))
    p1, p2 = k1 / n, k2 / n
    if p2 == 0:
        estimate = math.inf if p1 > delta else -math.inf
    else:
        estimate = float(epsilon_lower(p1, p2, delta))
    return AuditResult(
        epsilon_claimed=float(eps),
        delta=float(delta),
        epsilon_lower=lcb,
        epsilon_estimate=estimate,
        confidence=confidence,
        violation=lcb > eps,
        event=event.describe(),
        pair=(d1, d2),
        p1=p1,
        p1_interval=(p1_lo, p1_hi),
        p2=p2,
        p2_interval=(p2_lo, p2_hi),
        samples_per_side=n,
        seconds=time.perf_counter() - start,
        direction="D' -> D" if swapped else "D -> D'",
        selection_samples=state.selection,
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
    return _best_event(s1, s2, delta, alpha)[2]


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
    rng = np.random.default_rng(seed)
    mech = as_mechanism(mechanism)
    listed = list(pairs)
    if not listed:
        raise ValueError("pairs: no neighbouring pair given")
    alpha = 1.0 - confidence
    scores = [screen_bound(mech, pair, screen, rng, delta, alpha) for pair in listed]
    best = listed[int(np.argmax(scores))]
    result = audit(mech, best, epsilon, delta, samples, confidence, rng)
    result.extra["screened_pairs"] = len(listed)
    result.extra["screen_bounds"] = scores
    return result
