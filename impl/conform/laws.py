"""Outcome tables of the catalogue's algorithms, with their exact probabilities and encodings.

Every probability here comes from dpspec's own exact laws — ``dpspec.noise``'s
``discrete_laplace_pmf`` / ``discrete_laplace_sf`` (the discrete Laplace law stated in
:mod:`dpspec.spec.laws`, evaluated at the float base), the mechanisms' ``pmf`` / ``local_pmf`` /
``cell_pmf`` and the learners' ``release_law`` — arranged as a :class:`~dpspec.conform.gof.Law`:
a finite table (infinite supports end in two lumped tails whose mass is computed exactly from
the survival function) and an ``encode`` that maps a batch of a target's outputs to outcome
indices, −1 marking an output the law gives probability 0.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Sequence
from itertools import pairwise, product
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.conform.gof import Law, _Encoder, _Kept
from dpspec.noise import discrete_laplace_sf
from dpspec.noise.machinery import closed_forms as _closed_forms
from dpspec.spec.laws import two_sided_pmf, two_sided_sf

#: the lumped tails of an integer table hold at most this much mass together (ε × 1.1 included)
TAIL_MASS = 1e-12
#: integer tables wider than this are grouped into this many intervals of equal width
MAX_ATOMS = 4096


def _as_float_array(outputs: Any) -> NDArray[np.float64]:
    """Outputs as float64 (anything that is not a real number becomes NaN: impossible)."""
    try:
        return np.asarray(outputs, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        flat = np.asarray(outputs, dtype=object).ravel()
        out = np.full(flat.size, np.nan)
        for i, v in enumerate(flat):
            with contextlib.suppress(TypeError, ValueError):
                out[i] = float(v)
        return out


def _tail_half_width(q: float, mass: float = TAIL_MASS) -> int:
    """Smallest W with P(|Z| > W) = 2q^{W+1}/(1 + q) ≤ mass for discrete Laplace base q (the
    tail :func:`~dpspec.spec.laws.two_sided_sf` inverted with logarithms; a differential test
    holds it to the spec law on a grid)."""
    if q <= 0:
        return 1
    return max(1, math.ceil(math.log(mass * (1 + q) / 2) / math.log(q)) - 1)


#: :func:`_integer_law`'s tables by their arguments (an algorithm's instances and the
#: variants its budget is sized against share them, and a plan's run builds them again)
_INTEGER_LAWS = _Kept[Law](64)


def _closed_form_functions() -> tuple[Any, ...]:
    """The closed forms of the discrete Laplace law this module reads, as they are now (the
    noise's and the spec's they call): part of the key of a kept table (a bug planted in one
    of them, a verify control, is a different key, never a table computed without it)."""
    return (
        discrete_laplace_sf,
        _closed_forms.discrete_laplace_pmf,
        _closed_forms.discrete_laplace_sf,
        two_sided_pmf,
        two_sided_sf,
    )


def _integer_law(center: int, q: float, lo: int, hi: int, unit: float = 1.0, note: str = "") -> Law:
    """center + Z, Z discrete Laplace with P(Z = z) = (1 − q)/(1 + q)·q^{|z|}, on the lattice
    unit·ℤ: atoms lo … hi (grouped into at most MAX_ATOMS equal intervals when wider) and the
    two lumped tails. An output is encoded by k = output/unit, which must be a finite integer
    (else impossible).

    A pure function of its arguments (their types too: a numpy scalar computes in numpy's
    arithmetic) and of the closed forms it reads: the same arguments give the same table,
    kept (its probabilities read-only) and answered again."""
    args = (center, q, lo, hi, unit, note)
    key = (
        tuple((type(a), a) for a in args),
        (_build_integer_law, _between, *_closed_form_functions()),
    )

    def compute() -> Law:
        law = _build_integer_law(*args)
        law.probs.flags.writeable = False
        return law

    return _INTEGER_LAWS.get(key, compute)


def _build_integer_law(
    center: int, q: float, lo: int, hi: int, unit: float = 1.0, note: str = ""
) -> Law:
    """:func:`_integer_law`'s table, computed."""
    width = max(1, math.ceil((hi - lo + 1) / MAX_ATOMS))
    starts = np.arange(lo, hi + 1, width, dtype=np.int64)
    ends = np.minimum(starts + width - 1, hi)
    inner = _between(starts - center, ends - center, q)
    if width == 1:
        labels_inner: list[Any] = (
            starts.tolist() if unit == 1.0 else [k * unit for k in starts.tolist()]
        )
    else:
        pairs = zip(starts.tolist(), ends.tolist(), strict=True)
        if unit == 1.0:
            labels_inner = [f"[{a}, {b}]" for a, b in pairs]
        else:
            labels_inner = [f"[{a * unit}, {b * unit}]" for a, b in pairs]
    below = float(discrete_laplace_sf(center - lo + 1, q))  # P(Z < lo − c) = P(Z > c − lo)
    above = float(discrete_laplace_sf(hi + 1 - center, q))
    probs = np.concatenate([[below], inner, [above]])
    labels = (f"< {_value(lo, unit)}", *labels_inner, f"> {_value(hi, unit)}")
    encode = _Encoder(_encode_lattice, (unit, lo, hi, width, int(starts.size)))
    return Law(labels, probs / probs.sum(), "ordered", encode, note=note)


def _encode_lattice(
    outputs: Any, unit: float, lo: int, hi: int, width: int, count: int
) -> NDArray[np.int64]:
    """k = output/unit must be a finite integer; below lo → 0, above hi → count + 1, else the
    atom (or interval of ``width`` atoms) holding it.

    Integer outputs on the integer lattice (unit 1, the table within ±2^52) are encoded in
    integer arithmetic: the same indices (every float step below is exact there, or rounds
    an output beyond ±2^53 to a float on the same side of the table)."""
    ints = outputs if isinstance(outputs, np.ndarray) and outputs.dtype.kind == "i" else None
    if ints is not None and unit == 1.0 and max(abs(lo), abs(hi), hi - lo + width) < 2**52:
        z = np.clip(ints.astype(np.int64, copy=False).ravel(), lo - 1, hi + 1) - lo
        # z: −1 below the table, hi − lo + 1 above it
        if width == 1:
            return np.asarray(z + 1, dtype=np.int64)
        return np.asarray(np.where(z > hi - lo, count + 1, z // width + 1), dtype=np.int64)
    x = _as_float_array(outputs)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        k = x / unit
    ok = np.isfinite(k) & (k == np.floor(k))
    k = np.where(ok, k, 0.0)
    idx = np.where(
        k < lo,
        0,
        np.where(k > hi, count + 1, 1 + np.floor((np.clip(k, lo, hi) - lo) / width)),
    ).astype(np.int64)
    return np.where(ok, idx, -1)


def _pmf(z: NDArray[np.int64], q: float) -> NDArray[np.float64]:
    """P(Z = z) elementwise: the closed form of :func:`dpspec.noise.discrete_laplace_pmf` (its
    float arithmetic, bit for bit; the arguments are this module's own integers)."""
    pmf = _closed_forms.discrete_laplace_pmf
    return np.array([pmf(v, q) for v in z.ravel().tolist()], dtype=np.float64).reshape(z.shape)


def _sf(k: NDArray[np.int64], q: float) -> NDArray[np.float64]:
    """P(Z ≥ k) elementwise: the closed form of :func:`dpspec.noise.discrete_laplace_sf`."""
    sf = _closed_forms.discrete_laplace_sf
    return np.array([sf(v, q) for v in k.ravel().tolist()], dtype=np.float64).reshape(k.shape)


def _between(a: NDArray[np.int64], b: NDArray[np.int64], q: float) -> NDArray[np.float64]:
    """P(a ≤ Z ≤ b) elementwise for discrete Laplace Z, from the tail on the side away from 0
    (no cancellation of numbers near 1: the far bins keep their relative precision)."""
    pmf, closed_sf = _closed_forms.discrete_laplace_pmf, _closed_forms.discrete_laplace_sf
    seen: dict[int, float] = {}  # adjacent cells share an end: each tail computed once

    def sf(k: int, base: float) -> float:
        found = seen.get(k)
        if found is None:
            found = seen[k] = float(closed_sf(k, base))
        return found

    def one(lo: int, hi: int) -> float:
        if lo == hi:
            return float(pmf(lo, q))
        if lo > 0:
            return float(sf(lo, q)) - float(sf(hi + 1, q))
        if hi < 0:
            return float(sf(-hi, q)) - float(sf(1 - lo, q))
        return 1.0 - float(sf(hi + 1, q)) - float(sf(1 - lo, q))

    return np.array([one(lo, hi) for lo, hi in zip(a.tolist(), b.tolist(), strict=True)])


def _value(k: int, unit: float) -> Any:
    return k if unit == 1.0 else k * unit


def _categorical_law(
    probs: Sequence[Any], labels: Sequence[Any] | None = None, note: str = ""
) -> Law:
    """Outcomes 0 … K−1 (indices, or the given labels, matched exactly) with these
    probabilities."""
    p = np.array([float(v) for v in probs])
    keys = list(range(len(p))) if labels is None else list(labels)
    exact = tuple(probs)

    encode = (
        _Encoder(_encode_index, (len(keys),))
        if labels is None
        else _Encoder(_encode_label, ({k: i for i, k in enumerate(keys)},))
    )
    return Law(tuple(keys), p / p.sum(), "categorical", encode, exact=exact, note=note)


def _encode_index(outputs: Any, size: int) -> NDArray[np.int64]:
    """An output is its own index: an integer in [0, size)."""
    x = _as_float_array(outputs)
    ok = np.isfinite(x) & (x == np.floor(x)) & (x >= 0) & (x < size)
    return np.where(ok, np.where(ok, x, 0).astype(np.int64), -1)


def _encode_label(outputs: Any, where: dict[Any, int]) -> NDArray[np.int64]:
    """An output is one of the labels, matched exactly."""
    flat = np.asarray(outputs, dtype=object).ravel()
    return np.array([where.get(_key(v), -1) for v in flat], dtype=np.int64)


def _key(v: Any) -> Any:
    if isinstance(v, np.generic):
        return v.item()
    return v


def _bernoulli_law(p_one: Any, note: str = "") -> Law:
    """{0, 1} (bools or 0/1 numbers) with P(1) = ``p_one``."""
    p = float(p_one)
    encode = _Encoder(_encode_bit)
    return Law(
        (0, 1), np.array([1.0 - p, p]), "ordered", encode, exact=(1 - p_one, p_one), note=note
    )


def _encode_bit(outputs: Any) -> NDArray[np.int64]:
    """0 / False → 0, 1 / True → 1, anything else impossible."""
    x = _as_float_array(outputs)
    return np.where((x == 0) | (x == 1), np.where(x == 1, 1, 0), -1).astype(np.int64)


def _product_law(coordinates: Sequence[Law], note: str = "", width: int | None = None) -> Law:
    """The law of independent coordinates (each a Law): outcome = tuple of coordinate
    outcomes. A batch is an (n, m) array, one row per output."""
    m = len(coordinates)
    sizes = [c.probs.size for c in coordinates]
    total = math.prod(sizes)
    if total > 2**18:
        raise ValueError(f"coordinates: {total} joint outcomes exceed 2^18")
    combos = list(product(*(range(s) for s in sizes)))
    coords = np.array(combos, dtype=np.int64).reshape(total, m)
    probs = np.ones(total)
    for j, c in enumerate(coordinates):
        probs *= c.probs[coords[:, j]]
    labels = tuple(product(*(c.labels for c in coordinates)))  # in the order of ``combos``
    radix = np.array([math.prod(sizes[j + 1 :]) for j in range(m)], dtype=np.int64)
    expected = m if width is None else width
    encode = _Encoder(_encode_rows, (tuple(coordinates), radix, expected))
    return Law(labels, probs / probs.sum(), "product", encode, coords=coords, note=note)


def _encode_rows(
    outputs: Any, coordinates: tuple[Law, ...], radix: NDArray[np.int64], width: int
) -> NDArray[np.int64]:
    """A batch of (n, width) rows: each coordinate encoded by its own law, the joint index in
    mixed radix (a row with an impossible coordinate, or of another width, is impossible)."""
    arr = np.asarray(outputs)
    if arr.ndim != 2 or arr.shape[1] != width:
        rows = arr.shape[0] if arr.ndim else 1
        return np.full(rows, -1, dtype=np.int64)
    idx = np.zeros(arr.shape[0], dtype=np.int64)
    bad = np.zeros(arr.shape[0], dtype=np.bool_)
    for j, c in enumerate(coordinates):
        k = c.encode(arr[:, j])
        bad |= k < 0
        idx += np.maximum(k, 0) * radix[j]
    return np.where(bad, -1, idx)


#: :func:`_noisy_max_law`'s probabilities by their arguments (a plan's run computes them again)
_NOISY_MAX_LAWS = _Kept[tuple[float, ...]](64)


def _noisy_max_law(scores: Sequence[int], q: float) -> list[float]:
    """P(argmax_i (s_i + Z_i) = i), Z_i i.i.d. discrete Laplace of base q, ties to the smallest
    index (numpy's argmax): Σ_v P(X_i = v) Π_{j<i} P(X_j ≤ v − 1) Π_{j>i} P(X_j ≤ v).

    The sum runs over v within W of the scores, W = :func:`_tail_half_width` at mass 1e-17 per
    coordinate; what is left out is at most K·1e-17 in total (floats: about 1e-15 absolute).
    A pure function of the scores, q (and its type) and the closed forms it reads: answered
    again for the same ones.
    """
    s = tuple(int(v) for v in scores)
    key = (s, type(q), q, (_noisy_max_terms, _pmf, _sf, *_closed_form_functions()))
    return list(_NOISY_MAX_LAWS.get(key, lambda: tuple(_noisy_max_terms(s, q))))


def _noisy_max_terms(s: tuple[int, ...], q: float) -> list[float]:
    """:func:`_noisy_max_law`'s probabilities, computed."""
    w = _tail_half_width(q, 1e-17)
    vs = np.arange(min(s) - w, max(s) + w + 1, dtype=np.int64)
    offsets = vs[None, :] - np.asarray(s, dtype=np.int64)[:, None]
    pmf = _pmf(offsets, q)
    cdf = 1.0 - _sf(offsets + 1, q)
    below = np.hstack([np.zeros((len(s), 1)), cdf[:, :-1]])  # P(X_j <= v - 1)
    out = []
    for i in range(len(s)):
        term = pmf[i].copy()
        for j in range(len(s)):
            if j != i:
                term *= below[j] if j < i else cdf[j]
        out.append(float(term.sum()))
    total = sum(out)
    return [p / total for p in out]


def _shifted(law: Law, note: str = "the support shifted by one outcome") -> Law:
    """The alternative whose outcomes are moved one step up (ordered; last outcome kept) or
    relabelled i → i + 1 mod K (categorical)."""
    p = law.probs
    if law.shape == "ordered":
        q = np.concatenate([[0.0], p[:-2], [p[-2] + p[-1]]])
    else:
        q = np.roll(p, 1)
    return law.with_probs(q, note)


def _truncated(law: Law, mass: float = 1e-2, note: str = "") -> Law:
    """The alternative that never outputs its least likely outcomes holding ``mass`` together
    (renormalised): a tail cut off, as by a sampler with a bounded range."""
    order = np.argsort(law.probs, kind="stable")
    cut = np.cumsum(law.probs[order]) <= mass
    if not np.any(cut):
        cut[0] = True
    q = law.probs.copy()
    q[order[cut]] = 0.0
    return law.with_probs(
        q,
        note
        or f"the least likely outcomes (mass {float(law.probs[order[cut]].sum()):.2g}) never drawn",
    )


def _discrete_gaussian_law(
    center: int, sigma: float, lo: int, hi: int, unit: float = 1.0, note: str = ""
) -> Law:
    """center + Z, Z discrete Gaussian with P(Z = z) = exp(−z²/(2σ²)) / Σ_{y∈ℤ} exp(−y²/(2σ²))
    (Canonne, Kamath, Steinke 2020, Def 1; σ in lattice units), on the lattice unit·ℤ: atoms
    lo … hi (grouped into at most MAX_ATOMS equal intervals when wider) and the two lumped
    tails, encoded as :func:`_integer_law` encodes (k = output/unit a finite integer).

    Every mass is a sum of positive terms exp(−z²/(2σ²)) over |z| ≤ 40σ + 1 (no cancellation;
    the terms left out are below e^{−800}, zero in float64), divided by their total."""
    m = math.ceil(40 * sigma) + 1
    z = np.arange(-m, m + 1, dtype=np.float64)
    weights = np.exp(-(z * z) / (2.0 * sigma * sigma))
    total = float(weights.sum())
    width = max(1, math.ceil((hi - lo + 1) / MAX_ATOMS))
    starts = np.arange(lo, hi + 1, width, dtype=np.int64)
    ends = np.minimum(starts + width - 1, hi)

    def mass(a: int, b: int) -> float:  # P(a ≤ center + Z ≤ b), a ≤ b (clipped to ±m)
        i, j = max(a - center, -m), min(b - center, m)
        return float(weights[i + m : j + m + 1].sum()) if i <= j else 0.0

    inner = [mass(int(a), int(b)) for a, b in zip(starts, ends, strict=True)]
    below = mass(center - m, lo - 1)
    above = mass(hi + 1, center + m)
    probs = np.array([below, *inner, above]) / total
    if width == 1:
        labels_inner: list[Any] = [_value(int(s), unit) for s in starts]
    else:
        labels_inner = [
            f"[{_value(int(a), unit)}, {_value(int(b), unit)}]"
            for a, b in zip(starts, ends, strict=True)
        ]
    labels = (f"< {_value(lo, unit)}", *labels_inner, f"> {_value(hi, unit)}")
    encode = _Encoder(_encode_lattice, (unit, lo, hi, width, int(starts.size)))
    return Law(labels, probs / probs.sum(), "ordered", encode, note=note)


#: the continuous noise laws :func:`_binned_law` tabulates (standardised: the output is
#: center + loc + scale·T)
CONTINUOUS = ("normal", "laplace")


def _binned_law(
    kind: str,
    center: float,
    unit: float,
    cells: int,
    loc: float = 0.0,
    scale: float = 1.0,
    note: str = "",
) -> Law:
    """A continuous law judged on intervals: the output X = center + loc + scale·T, T standard
    normal (``kind`` "normal", cdf Φ) or standard Laplace ("laplace", cdf ½e^t for t < 0,
    1 − ½e^{−t} for t ≥ 0), on the table of cells [center + k·unit, center + (k + 1)·unit),
    k = −cells … cells − 1, and the two lumped tails below and above. P(cell) =
    F((e_{k+1} − loc)/scale) − F((e_k − loc)/scale), from the survival function on the right
    of 0 (no cancellation in the far cells: scipy.stats ``cdf`` / ``sf``).

    An output is encoded by k = ⌊(x − center)/unit⌋ (computed in float64: the binning's
    resolution is the table's, outputs within a rounding error of an edge may land either
    side); a non-finite output is impossible."""
    from scipy import stats

    if kind not in CONTINUOUS:
        raise ValueError(f"kind: one of {CONTINUOUS}, got {kind!r}")
    dist = stats.norm if kind == "normal" else stats.laplace
    edges = np.arange(-cells, cells + 1, dtype=np.float64) * unit
    t = (edges - loc) / scale
    cdf, sf = dist.cdf(t), dist.sf(t)
    right = t[:-1] >= 0
    inner = np.where(right, sf[:-1] - sf[1:], cdf[1:] - cdf[:-1])
    probs = np.concatenate([[cdf[0]], inner, [sf[-1]]])
    labels = (
        f"< {center + edges[0]:.12g}",
        *(f"[{center + a:.12g}, {center + b:.12g})" for a, b in pairwise(edges.tolist())),
        f">= {center + edges[-1]:.12g}",
    )
    encode = _Encoder(_encode_bins, (float(center), float(unit), int(cells)))
    return Law(labels, probs / probs.sum(), "ordered", encode, note=note)


def _encode_bins(outputs: Any, center: float, unit: float, cells: int) -> NDArray[np.int64]:
    """k = ⌊(x − center)/unit⌋: below −cells → 0, at or above cells → 2·cells + 1, else the
    cell k + cells + 1; NaN and ±∞ are impossible."""
    x = _as_float_array(outputs)
    ok = np.isfinite(x)
    with np.errstate(invalid="ignore", over="ignore"):
        k = np.floor((np.where(ok, x, center) - center) / unit)
    idx = np.clip(k, -cells - 1, cells) + cells + 1
    return np.where(ok, idx, -1).astype(np.int64)
