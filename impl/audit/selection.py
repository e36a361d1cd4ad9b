"""Selection: the candidate-event families and the choice of the events to estimate.

From the selection draws on D and on D' each family proposes candidate events (likelihood-ratio
ordered atom sets, thresholds and intervals, repeated values, float-representation keys,
orthants and a learned score for vectors, NaN/inf classes); :func:`best_events` keeps the best
event overall and the best of every family that looks more revealing than it (see its
docstring). Nothing here touches the estimation draws.
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.audit.bounds import _EXACT_TOP, _plug_in, _wilson, cp_lower, cp_upper, epsilon_lower
from dpspec.audit.events import (
    Event,
    _atom_keys,
    _features,
    _scalar,
    _score,
    float_keys,
)
from dpspec.audit.targets import _patterns, _space

#: number of distinct output values up to which float outputs also get atom events
MAX_ATOMS = 4096


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
    i_idx, j_idx = _pairs_above_diagonal(qs.size)
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


@functools.cache
def _pairs_above_diagonal(m: int) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """The index pairs (i, j), i < j < m, in row order (read-only, shared)."""
    i_idx, j_idx = np.triu_indices(m, 1)
    i_idx.setflags(write=False)
    j_idx.setflags(write=False)
    return i_idx, j_idx


def _top(values: NDArray[np.float64], k: int) -> NDArray[np.intp]:
    """Indices of the k largest values, largest first, ties in index order: the first k of a
    stable descending sort, in O(n + k log k)."""
    if values.size <= k:
        return np.argsort(-values, kind="stable")
    threshold = np.partition(values, values.size - k)[values.size - k]
    candidates = np.flatnonzero(values >= threshold)
    return candidates[np.argsort(-values[candidates], kind="stable")][:k]


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
            top = _top(rough, _EXACT_TOP)
            bounds = epsilon_lower(
                cp_lower(k1[top], n1, sel / 2), cp_upper(k2[top], n2, sel / 2), delta
            )
            j = int(np.argmax(bounds))
            if best is None or bounds[j] > best[2]:
                k = int(top[j])
                point = _plug_in(k1[k] / n1, k2[k] / n2, delta)
                best = (build(k), swapped, float(bounds[j]), point)
        if best is not None:
            per_family.append(best)
    if not per_family:
        raise ValueError("mechanism: no candidate event could be formed from its outputs")
    first = max(range(len(per_family)), key=lambda i: per_family[i][2])
    chosen = [per_family[first][:3]]
    seen = {_membership(per_family[first][0], per_family[first][1], x)}
    for i, (event, swapped, bound, point) in enumerate(per_family):
        if i != first and point > per_family[first][2]:
            key = _membership(event, swapped, x)
            if key not in seen:  # another family's name for a set already chosen: no α spent
                seen.add(key)
                chosen.append((event, swapped, bound))
    return chosen


def _membership(event: Event, swapped: bool, x: tuple[NDArray[Any], NDArray[Any]]) -> bytes:
    """The direction and the indicator of ``event`` on the selection draws of both sides: two
    families proposing the same set in the same direction (on integer outputs {1}, {x ≥ 1}
    and the repeated value 1) are one test, estimated once."""
    hits = np.concatenate([event.contains(x[0]), event.contains(x[1])])
    return bytes([swapped]) + np.packbits(hits).tobytes()
