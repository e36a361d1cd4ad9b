"""Selection: the candidate-event families and the choice of the events to estimate.

From the selection draws on D and on D' each family proposes candidate events (likelihood-ratio
ordered atom sets, thresholds and intervals, repeated values, float-representation keys,
orthants and a learned score for vectors, NaN/inf classes); :func:`best_events` keeps the best
event overall and the best of every family that looks more revealing than it (see its
docstring); :func:`_screen_bound` scores a candidate pair of a pair search by that choice on
screening draws of its own. Nothing here touches the estimation draws.
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.audit._events import (
    Event,
    _atom_keys,
    _features,
    _scalar,
    _score,
    float_keys,
)
from dpspec.audit._structured import (
    StructuredOutputs,
    _patterns,
    numbers_in,
    numbers_within,
    shapes_of,
)
from dpspec.audit._targets import Mechanism, _draw, _space, as_structured
from dpspec.audit.bounds import (
    _EXACT_TOP,
    _epsilon_lower,
    _LowerTables,
    _plug_in,
    _rough_epsilon_lower,
)

#: number of distinct output values up to which float outputs also get atom events
MAX_ATOMS = 4096

#: the exact Clopper–Pearson bounds of the selection's best candidates, per (draws, level)
_SELECTION_BOUNDS = _LowerTables(keep=256, largest=1 << 14)


@functools.cache
def _blas_controller() -> Any:
    """threadpoolctl's view of the loaded BLAS libraries (found once: the search reads the
    process's loaded libraries), or None without threadpoolctl."""
    try:
        from threadpoolctl import ThreadpoolController  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - threadpoolctl ships with scikit-learn
        return None
    return ThreadpoolController()


def _one_blas_thread() -> Any:
    """A context limiting BLAS to one thread (threadpoolctl, when installed)."""
    controller = _blas_controller()
    if controller is None:  # pragma: no cover
        return contextlib.nullcontext()
    return controller.limit(limits=1, user_api="blas")


def _logistic(x0: NDArray[np.float64], x1: NDArray[np.float64]) -> tuple[float, ...]:
    """Weights of a ridge logistic regression separating x1 (label 1) from x0 (Newton steps).
    Constant features (beyond the intercept) get weight 0: they separate nothing and would
    make the Newton system singular."""
    X = np.vstack([x0, x1])
    y = np.concatenate([np.zeros(len(x0)), np.ones(len(x1))])
    spread = np.std(X, axis=0)
    used = spread > 1e-12 * np.maximum(np.abs(X).max(axis=0), 1.0)
    used[0] = True
    scale = np.where(used, np.maximum(spread, 1e-12), 1.0)
    scale[0] = 1.0
    Z = X[:, used] / scale[used]
    w = np.zeros(Z.shape[1])
    for _ in range(25):
        z = np.clip(Z @ w, -30, 30)
        p = 1.0 / (1.0 + np.exp(-z))
        grad = Z.T @ (p - y) + 1e-3 * w
        hess = (Z * (p * (1 - p))[:, None]).T @ Z + 1e-3 * np.eye(Z.shape[1])
        step = np.linalg.lstsq(hess, grad, rcond=None)[0]
        w -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    full = np.zeros(X.shape[1])
    full[used] = w / scale[used]
    return tuple(float(v) for v in full)


#: (k₁, k₂, n₁, n₂, build): selection counts of each candidate event on the two sides, the
#: number of draws they are out of, and a builder for the j-th candidate's event
Candidates = tuple[NDArray[np.float64], NDArray[np.float64], int, int, Callable[[int], Event]]


#: the distinct atoms of two sides' draws (sorted) and how often each side shows each
AtomTable = tuple[NDArray[Any], NDArray[np.float64], NDArray[np.float64]]


def _atom_table(a: NDArray[Any], b: NDArray[Any]) -> AtomTable:
    """(atoms, counts in a, counts in b): the pooled keys' distinct values, each counted on
    both sides. Swapping a and b swaps the two count arrays (the atoms are sorted)."""
    ka, kb = _atom_keys(a), _atom_keys(b)
    atoms, inverse = np.unique(np.concatenate([ka, kb]), return_inverse=True)
    inverse = inverse.reshape(-1)
    ca = np.bincount(inverse[: len(ka)], minlength=atoms.size).astype(np.float64)
    cb = np.bincount(inverse[len(ka) :], minlength=atoms.size).astype(np.float64)
    return atoms, ca, cb


def _discrete_candidates(
    a: NDArray[Any], b: NDArray[Any], kind: str = "atoms", table: AtomTable | None = None
) -> Candidates:
    """Likelihood-ratio-ordered prefix sets of atoms (the best events for M(a) vs M(b)):
    selection counts of every prefix, and a builder for the j-th prefix's event. ``table``:
    :func:`_atom_table` of (a, b), when already counted."""
    atoms, ca, cb = _atom_table(a, b) if table is None else table
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
    # and cuts at geometric depths into both tails (the 2nd, 4th, 8th, … smallest and largest
    # pooled values): an (ε, δ) claim is refuted in the tails, where the body's quantiles
    # are too coarse
    edges = np.array([sa[0], sa[-1], sb[0], sb[-1]])
    qs = np.unique(
        np.concatenate(
            [
                np.sort(np.concatenate([sa, sb]), kind="stable")[  # two sorted runs: O(n)
                    _cut_ranks(sa.size + sb.size)
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


@functools.lru_cache(maxsize=256)
def _cut_ranks(total: int) -> NDArray[np.int64]:
    """The ranks, among ``total`` pooled values, of the threshold cuts: 129 evenly spaced
    quantiles and the geometric depths 2, 4, 8, … into both tails (read-only, shared)."""
    depth = 2 ** np.arange(1, max(int(math.log2(max(total, 2))) - 3, 1))
    at = np.concatenate([np.linspace(0, total - 1, 129), depth, total - 1 - depth]).astype(np.int64)
    ranks = np.clip(at, 0, total - 1)
    ranks.setflags(write=False)
    return ranks


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


def _beyond_candidates(
    sa: NDArray[np.float64], sb: NDArray[np.float64], n1: int, n2: int, deep: bool
) -> Candidates | None:
    """The region beyond the other side's range, for (ε, δ) claims: {x ≤ c} with c among
    the values of the first side below every value of the second, and {x ≥ c} above; the
    cut at the last such value (``deep`` False) or half-way into them (``deep``: the deepest
    tail the estimation can still count, where a truncation point or a support shift leaves
    the second side no mass at all). Both are families of their own, so that the selection
    keeps them beside the body's winner (their plug-in ε is infinite) and the estimation, on
    many more draws, can see a δ the body's events cannot."""
    below = sa[: int(np.searchsorted(sa, sb[0], side="left"))]
    above = sa[int(np.searchsorted(sa, sb[-1], side="right")) :]
    k1: list[float] = []
    cuts: list[Event] = []
    if below.size:
        i = (below.size - 1) // 2 if deep else below.size - 1
        k1.append(float(i + 1))
        cuts.append(Event("le", hi=float(below[i])))
    if above.size:
        i = above.size // 2 if deep else 0
        k1.append(float(above.size - i))
        cuts.append(Event("ge", lo=float(above[i])))
    if not cuts:
        return None
    counts = np.array(k1)
    return counts, np.zeros_like(counts), n1, n2, cuts.__getitem__


def _beyond_family(
    ordered: list[NDArray[np.float64]], sizes: tuple[int, int], deep: bool, i: int, j: int
) -> Candidates | None:
    return _beyond_candidates(ordered[i], ordered[j], sizes[i], sizes[j], deep)


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


def _repeating(a: NDArray[Any], b: NDArray[Any]) -> AtomTable | None:
    """The pooled selection draws take at most MAX_ATOMS distinct values (rows), each seen
    4 times on average: an atom law, whose value sets can be selected and then estimated —
    then its :func:`_atom_table`, else None. (Values that do not repeat would make every
    value set fit the selection draws exactly and never recur in the estimation draws.)"""
    pooled = np.concatenate([_atom_keys(a), _atom_keys(b)])
    limit = min(MAX_ATOMS, pooled.size // 4)
    if np.unique(pooled[: 4 * MAX_ATOMS]).size > limit:  # cheap early exit
        return None
    table = _atom_table(a, b)
    return table if table[0].size <= limit else None


def _bits_candidates(a: NDArray[Any], b: NDArray[Any], bits: int) -> Candidates:
    """Likelihood-ratio-ordered sets of float-representation keys (see :func:`float_keys`)."""
    k1, k2, n1, n2, build = _discrete_candidates(float_keys(a, bits), float_keys(b, bits))

    def build_bits(j: int) -> Event:
        return Event("bits", build(j).values, bits=bits)

    return k1, k2, n1, n2, build_bits


#: coordinates the orthant family keeps of a vector of more than 4 (the ones that differ most)
_SCREENED_COORDINATES = 3


def _moderate_rows(a: Any) -> NDArray[np.float64]:
    x = np.asarray(a, dtype=np.float64).reshape(len(a), -1)
    return x[np.all(_patterns(x) == 0, axis=1)]


def _direction_candidates(a: NDArray[Any], b: NDArray[Any]) -> Candidates | None:
    """Vector outputs: the direction w = (μ_a − μ_b)/σ² (per coordinate, σ² pooled) of the
    moderate selection rows, and thresholds of w·x. For a Gaussian (or any spherical) release
    the likelihood ratio is monotone in w·x, so these half-lines are the Neyman–Pearson
    events — in any dimension, where a learned quadratic score is too noisy to reach the
    tails an (ε, δ) claim is refuted in. The event is a score with zero weights on x² (the
    features are (1, x, x²)); direction and thresholds come from the selection draws only.

    Coordinates whose means differ by more than 10⁹ of their spread (a coordinate released
    without noise) are the limit of Δμ/σ² as their σ → 0: the direction is then Δμ on those
    coordinates alone — for one such coordinate, a threshold of that coordinate. The direction
    is scaled by a power of two to largest |w_j| in [0.5, 1) (exactly: the same events, its
    thresholds in the output's units)."""
    xa, xb = _moderate_rows(a), _moderate_rows(b)
    if min(len(xa), len(xb)) < 2:
        return None
    variance = (np.var(xa, axis=0) + np.var(xb, axis=0)) / 2
    gap = xa.mean(axis=0) - xb.mean(axis=0)
    exact = (gap != 0) & (np.sqrt(variance) <= 1e-9 * np.abs(gap))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        w = np.where(exact, gap, 0.0) if exact.any() else gap / np.where(variance > 0, variance, 1)
    if not np.all(np.isfinite(w)) or not np.any(w):
        return None
    w = np.ldexp(w, -np.frexp(np.max(np.abs(w)))[1])
    d = xa.shape[1]
    weights = (0.0, *(float(v) for v in w), *([0.0] * d))
    k1, k2, build = _threshold_candidates(xa @ w, xb @ w, weights=weights)
    return k1, k2, len(a), len(b), build


def _screened_box_candidates(a: NDArray[Any], b: NDArray[Any]) -> Candidates | None:
    """Vectors of more than 4 coordinates: the orthants of :func:`_box_candidates` on the
    3 coordinates whose means differ most (|μ_a − μ_b|/σ on the moderate selection rows),
    the other coordinates free. A histogram whose neighbours differ in one or two bins leaks
    only there: the orthant on those bins is its optimal event, in any dimension."""
    xa, xb = _moderate_rows(a), _moderate_rows(b)
    if min(len(xa), len(xb)) < 2:
        return None
    d = xa.shape[1]
    spread = np.sqrt((np.var(xa, axis=0) + np.var(xb, axis=0)) / 2)
    gap = np.abs(xa.mean(axis=0) - xb.mean(axis=0)) / np.maximum(spread, 1e-300)
    cols = np.sort(np.argsort(-gap, kind="stable")[:_SCREENED_COORDINATES])
    inner = _box_candidates(np.asarray(a)[:, cols], np.asarray(b)[:, cols])
    if inner is None:
        return None
    k1, k2, n1, n2, build = inner

    def widen(j: int) -> Event:
        ends = [(-math.inf, math.inf)] * d
        chosen = build(j).values
        for t, col in enumerate(cols):
            ends[int(col)] = (chosen[2 * t], chosen[2 * t + 1])
        return Event("box", tuple(v for pair in ends for v in pair))

    return k1, k2, n1, n2, widen


#: the most frequent shapes whose numbers get the continuous families
MAX_SHAPES = 8
#: pooled selection draws a shape needs before its numbers get the continuous families
MIN_SHAPE_DRAWS = 40


def _shape_family(x: tuple[Any, Any]) -> Family:
    """Likelihood-ratio-ordered sets of shapes (:mod:`dpspec.audit._structured`)."""
    (sa, ia), (sb, ib) = shapes_of(x[0]), shapes_of(x[1])
    table: dict[Any, int] = {}
    for shape in (*sa, *sb):
        table.setdefault(shape, len(table))
    shapes = list(table)
    codes = (
        np.asarray([table[s] for s in sa], dtype=np.int64)[ia],
        np.asarray([table[s] for s in sb], dtype=np.int64)[ib],
    )

    def family(i: int, j: int) -> Candidates:
        k1, k2, n1, n2, build = _discrete_candidates(codes[i], codes[j])
        return k1, k2, n1, n2, lambda t: Event("shape", tuple(shapes[c] for c in build(t).values))

    return family


def _within_families(x: tuple[Any, Any], warnings: list[str]) -> list[Family]:
    """For each of the most frequent shapes holding numbers (at most ``MAX_SHAPES``, each
    seen ``MIN_SHAPE_DRAWS`` times), the continuous families on its numbers, restricted to
    the rows of that shape: thresholds for one number; for several, the direction, the learned
    score and the orthants. For a float array the all-moderate shape is left to the families
    of plain outputs."""
    structured = isinstance(x[0], StructuredOutputs)
    (sa, ia), (sb, ib) = shapes_of(x[0]), shapes_of(x[1])
    counts: dict[Any, int] = {}
    for shapes, index in ((sa, ia), (sb, ib)):
        for t, c in enumerate(np.bincount(index, minlength=len(shapes))):
            counts[shapes[t]] = counts.get(shapes[t], 0) + int(c)
    holding = [
        s for s in counts if numbers_in(s, x[0]) >= 1 and (structured or any(c != 0 for c in s))
    ]
    frequent = sorted(
        (s for s in holding if counts[s] >= MIN_SHAPE_DRAWS), key=lambda s: -counts[s]
    )[:MAX_SHAPES]
    left = len(holding) - len(frequent)
    if left:
        warnings.append(
            f"{left} of {len(holding)} output shapes holding numbers are audited by their "
            f"shape only (the continuous families run within the {MAX_SHAPES} most frequent "
            f"shapes seen at least {MIN_SHAPE_DRAWS} times in the selection draws)"
        )
    sizes = (len(x[0]), len(x[1]))
    fams: list[Family] = []
    for shape in frequent:
        rows = (
            np.flatnonzero(ia == sa.index(shape)) if shape in sa else np.zeros(0, np.intp),
            np.flatnonzero(ib == sb.index(shape)) if shape in sb else np.zeros(0, np.intp),
        )
        v = (numbers_within(x[0], shape, rows[0]), numbers_within(x[1], shape, rows[1]))
        if min(len(v[0]), len(v[1])) == 0:
            continue
        builders: list[Callable[[Any, Any], Candidates | None]]
        if v[0].shape[1] == 1:
            builders = [_numbers_thresholds]
        else:
            box = _box_candidates if v[0].shape[1] <= 4 else _screened_box_candidates
            builders = [_direction_candidates, _score_candidates, box]
        for builder in builders:
            fams.append(_within(shape, v, sizes, builder))
    return fams


def _numbers_thresholds(a: Any, b: Any) -> Candidates:
    sa, sb = np.sort(np.asarray(a).reshape(-1)), np.sort(np.asarray(b).reshape(-1))
    k1, k2, build = _threshold_candidates(sa, sb, presorted=True)
    return k1, k2, len(sa), len(sb), build


def _mirrored(candidates: Callable[[], Candidates | None]) -> Family:
    """The family of ``candidates`` (its events for M(x[0]) against M(x[1])) whose events do
    not depend on the direction — cuts at pooled quantiles: thresholds, intervals, orthants —
    so that the direction (1, 0) has the same events with the two sides' counts swapped: built
    once, read in both directions."""
    built: list[Candidates | None] = []

    def family(i: int, j: int) -> Candidates | None:
        if not built:
            built.append(candidates())
        forward = built[0]
        if forward is None or (i, j) == (0, 1):
            return forward
        k1, k2, n1, n2, build = forward
        return k2, k1, n2, n1, build

    return family


def _within(
    shape: Any,
    values: tuple[NDArray[np.float64], NDArray[np.float64]],
    sizes: tuple[int, int],
    builder: Callable[[Any, Any], Candidates | None],
) -> Family:
    """A family of ``within`` events: ``builder``'s events on the numbers of ``shape``, their
    counts out of every selection draw (the rows of other shapes are outside the event)."""

    def family(i: int, j: int) -> Candidates | None:
        inner = builder(values[i], values[j])
        if inner is None:
            return None
        k1, k2, _, _, build = inner
        return k1, k2, sizes[i], sizes[j], lambda t: Event("within", (shape,), inner=build(t))

    return _mirrored(lambda: family(0, 1)) if builder in _MIRRORED else family


Family = Callable[[int, int], "Candidates | None"]

#: the builders whose events do not depend on the direction (see :func:`_mirrored`)
_MIRRORED = (_numbers_thresholds, _box_candidates, _screened_box_candidates)


def _families(
    x: tuple[Any, Any], float_bits: bool, warnings: list[str], delta: float = 0.0
) -> list[Family]:
    """The candidate-event families for outputs ``x`` = (selection draws on D, on D'); each
    family maps a direction (i, j) — M(x[i]) against M(x[j]) — to its candidates.

    * atoms (likelihood-ratio-ordered value sets): text and bool outputs, and numbers that
      repeat (at most MAX_ATOMS distinct values, seen 4 times each on average); text whose
      values do not repeat (more distinct values than a quarter of the draws) is refused;
    * numeric scalars: thresholds and intervals on the non-NaN values, for an (ε, δ) claim
      the region beyond the other side's range at two depths (:func:`_beyond_candidates`,
      two families), and (a family of its own) the values that repeat, always (continuous
      outputs are never judged by atom events only, whatever the number of selection
      draws); with ``float_bits`` the float64
      representation;
    * numeric vectors whose values do not repeat: the learned score, the mean-difference
      direction (:func:`_direction_candidates`), and the orthants — on all coordinates for
      dimensions 2–4, on the 3 that differ most beyond (:func:`_screened_box_candidates`);
    * float outputs holding NaN, ±inf or values beyond ±1e30: sets of those classes, so that
      a NaN (or infinite) release is an event of its own, and the continuous families within
      each frequent pattern, on its finite coordinates (:func:`_within_families`);
    * structured outputs (dicts, variable length, mixed kinds): sets of shapes and the
      continuous families within each frequent shape.

    ``warnings`` receives a sentence for every family that cannot run on these outputs.
    """
    if isinstance(x[0], StructuredOutputs):
        return [_shape_family(x), *_within_families(x, warnings)]
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
    table = None if text or kind == "b" else _repeating(*x)
    atoms = text or kind == "b" or table is not None
    if atoms:
        if table is None:
            table = _atom_table(*x)
        tables = (table, (table[0], table[2], table[1]))  # (0, 1) and the sides swapped
        fams.append(lambda i, j: _discrete_candidates(x[i], x[j], table=tables[i]))
    if not text and not vector:
        values = [_scalar(v) for v in x]
        ordered = [np.sort(v[~np.isnan(v)]) for v in values]
        if ordered[0].size and ordered[1].size:
            sizes = (len(x[0]), len(x[1]))
            fams.append(
                _mirrored(lambda: _sorted_thresholds(ordered[0], ordered[1], sizes[0], sizes[1]))
            )
            if delta > 0:
                for deep in (False, True):
                    fams.append(functools.partial(_beyond_family, ordered, sizes, deep))
            fams.append(lambda i, j: _repeat_candidates(ordered[i], ordered[j], sizes[i], sizes[j]))
        if float_bits and floats:
            fams.append(lambda i, j: _bits_candidates(values[i], values[j], 1))
            fams.append(lambda i, j: _bits_candidates(values[i], values[j], 4))
    if not text and vector and not atoms:
        fams.append(lambda i, j: _score_candidates(x[i], x[j]))
        fams.append(lambda i, j: _direction_candidates(x[i], x[j]))
        box = _box_candidates if x[0].shape[1] <= 4 else _screened_box_candidates
        fams.append(_mirrored(lambda: box(x[0], x[1])))
    if float_bits and not (floats and not vector):
        warnings.append("float_bits: the float-representation events apply to scalar floats only")
    if floats:
        patterns = [_patterns(v) for v in x]
        if any(p.any() for p in patterns):
            fams.append(lambda i, j: _discrete_candidates(patterns[i], patterns[j], "pattern"))
            fams.extend(_within_families(x, warnings))
    return fams


def _best_events(
    s1: Any,
    s2: Any,
    delta: float,
    alpha: float,
    float_bits: bool = False,
    warnings: list[str] | None = None,
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
    notes: list[str] = [] if warnings is None else warnings
    if isinstance(s1, StructuredOutputs) or isinstance(s2, StructuredOutputs):
        x: tuple[Any, Any] = (as_structured(s1), as_structured(s2))
    else:
        x = (np.asarray(s1), np.asarray(s2))
    if _space(x[0]) != _space(x[1]):  # the kind or shape itself depends on the input:
        x = (as_structured(x[0]), as_structured(x[1]))  # audited as shapes (a support shift)
    if _space(x[0])[0] != "structured" and x[0].dtype != x[1].dtype and x[0].dtype.kind not in "US":
        common = np.result_type(x[0].dtype, x[1].dtype)
        x = (x[0].astype(common), x[1].astype(common))
    per_family: list[tuple[Event, bool, float, float]] = []
    for family in _families(x, float_bits, notes, delta):
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
            rough = _rough_epsilon_lower(k1, n1, k2, n2, sel / 2, delta)
            top = _top(rough, _EXACT_TOP)
            bounds = _epsilon_lower(
                _SELECTION_BOUNDS.lower(k1[top], n1, sel / 2),
                _SELECTION_BOUNDS.upper(k2[top], n2, sel / 2),
                delta,
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
    seen: set[bytes] = set()  # the chosen sets, once a second family is a candidate
    for i, (event, swapped, bound, point) in enumerate(per_family):
        if i != first and point > per_family[first][2]:
            if not seen:
                seen.add(_membership(per_family[first][0], per_family[first][1], x))
            key = _membership(event, swapped, x)
            if key not in seen:  # another family's name for a set already chosen: no α spent
                seen.add(key)
                chosen.append((event, swapped, bound))
    return chosen


def _membership(event: Event, swapped: bool, x: tuple[Any, Any]) -> bytes:
    """The direction and the indicator of ``event`` on the selection draws of both sides: two
    families proposing the same set in the same direction (on integer outputs {1}, {x ≥ 1}
    and the repeated value 1) are one test, estimated once."""
    hits = np.concatenate([event.contains(x[0]), event.contains(x[1])])
    return bytes([swapped]) + np.packbits(hits).tobytes()


def _screen_bound(
    mechanism: Mechanism,
    pair: tuple[Any, Any],
    n: int,
    rng: np.random.Generator,
    delta: float,
    alpha: float,
) -> float:
    """The best selection-stage ε bound on ``n`` fresh draws per side of ``pair``: the kernel
    of :func:`dpspec.audit.loop.screen_bound` (the pair searches call it on checked
    arguments; a score to choose a pair by, never a reported bound)."""
    s1, s2 = _draw(mechanism, pair[0], n, rng), _draw(mechanism, pair[1], n, rng)
    return _best_events(s1, s2, delta, alpha)[0][2]
