"""Batch samplers in ``dpspec conform``'s catalogue: is this the sampler the accountant assumes?

A DP-SGD accountant's guarantee is for one sampler (:mod:`dpspec.accounting.sampling`):
``poisson-batches`` (every record in each step's batch independently with probability q,
independently across steps), ``fixed-size-batches`` (a uniformly random b-subset per step,
independent steps) or ``shuffled-batches`` (per epoch a fresh uniform permutation cut into n/b
batches of b). A sampler of the right average batch size can still be another one: batch sizes
drawn from Binomial(n, q) and then the next records of one shuffled epoch (jax_privacy issue
#121: a record cannot be in two steps of an epoch), fixed-size batches reported as Poisson, one
permutation reused every epoch.

**The target** is ``f(n, rate_or_size, steps, rng) -> steps index arrays``: given the number of
records n, the rate q (Poisson) or batch size b (the others), the number of steps and a numpy
Generator, it returns the epoch's batches (each a sequence of record indices; a list, an array,
a tensor). One call is one draw: the run asks for the epoch as many times as its budget says.
An epoch that is not ``steps`` batches of distinct integers in [0, n) is impossible under every
law (the run reports it). A target may instead draw many epochs at once,
``f(n, rate_or_size, steps, count, rng) -> bool array (count, steps, n)`` (record i in step t of
epoch c; dpspec's ``*_membership`` functions), judged the same way, vectorised.

**What is judged.** Each instance reads one integer from an epoch, with its exact law:

* at tiny n and steps (n·steps ≤ 18 bits) the whole epoch, as the set of (step, record)
  pairs: the full joint law in ``Fraction`` arithmetic (2^{n·steps} outcomes for Poisson; the
  union of the supports of the law and of its alternatives for the others, every other epoch
  impossible). This alone sees dependence between steps, marginals and sizes;
* at the realistic n, q (or b) and steps of the run's parameters, statistics whose laws are
  exact closed forms evaluated in floats (scipy's binomial / hypergeometric pmf, relative
  error ~1e-15; tails beyond 1e-13 lumped):

  - Poisson: the epoch's total inclusions Σ_t |B_t| ~ Binomial(n·steps, q) (sizes and the
    marginal in aggregate); the records in two or more steps ~ Binomial(n, P(Bin(steps, q) ≥ 2))
    (records are independent and each in each step independently: same record in two steps
    at q² per pair of steps); the disjoint pairs (2i, 2i + 1) both in one step, summed over
    steps, ~ Binomial(steps·⌊n/2⌋, q²) (within-step independence);
  - fixed size: the inclusions of the records below ⌊n/2⌋, a sum of steps independent
    Hypergeometric(n, ⌊n/2⌋, b); the overlaps |B_t ∩ B_{t+1}|, t < steps, i.i.d.
    Hypergeometric(n, b, b) (given B_t its overlap with the independent uniform B_{t+1} has
    that law whatever B_t is, so the overlaps of a chain are independent);
  - shuffling (two epochs): the batch of record 0 in each epoch (in at most 16 groups of
    batches), uniform and independent across epochs, "not exactly once" impossible;

* deterministic guarantees (no false alarm): every epoch well formed; on the first instance,
  probes at the boundaries — Poisson at q = 0 (every batch empty) and q = 1 (every batch all
  n records); fixed size b = n (all records) and b exact at the run's parameters; shuffling
  every complete epoch a partition of the records, at b = n and b = 1 too.

The budget of each instance is sized (:func:`dpspec.conform.core.plan`) against the scheme off
by the resolution either way: Poisson at odds q/(1 − q) × (1 + r) and / (1 + r); fixed size at
b + 1 and b − 1; shuffling against a fresh subset per batch (sampling without replacement,
not a permutation) and the first epoch's permutation reused; and, on the tiny instances of
fixed size and shuffling, against a non-uniform draw with record 0 (1 + r) times likelier, and
1/(1 + r), in the first step of each block (a step; an epoch). The power against the realistic
bugs (the jax_privacy #121 recipe, a fixed size claimed as Poisson, with replacement) is stated.
No privacy claim is audited (a sampler releases nothing).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import permutations, product
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import stats

from dpspec.accounting.sampling import (
    fixed_size_membership,
    poisson_membership,
    shuffled_membership,
)
from dpspec.conform.adapters import Sampler, _required_positional
from dpspec.conform.base import EPSILON_FACTOR, Algorithm, Instance, Param
from dpspec.conform.gof import Law, _Encoder, _Kept
from dpspec.conform.laws import _encode_index

#: what an instance reads from an epoch (the fourth entry of its data)
JOINT, TOTAL, REPEATED, PAIRS, LEFT, OVERLAP, PLACE, SHAPE = range(8)
#: the output of an epoch that is not ``steps`` batches of distinct records in [0, n)
MALFORMED = -1
#: each lumped tail of a statistic's table holds at most this mass under the claimed law
TAIL = 1e-13
#: a statistic is judged only when its mean under the claimed law is at least this (below it
#: no budget within the limit resolves the scheme off by 10%: the report says it is left out)
MIN_MEAN = 0.1
#: at most this many groups of batches in the shuffling statistic (its table has (G + 1)^2 rows)
GROUPS = 16
#: the form of a target, as reports name it
FORM = "f(n, rate_or_size, steps, rng) -> steps index arrays"
#: the vectorised form: ``count`` epochs at once as membership arrays
VECTORISED_FORM = "f(n, rate_or_size, steps, count, rng) -> bool array (count, steps, n)"

IntArray = NDArray[np.int64]


# --- reading an epoch -----------------------------------------------------------------------

#: at most this many (epoch, step, record) cells are held at once while reading draws
CHUNK_CELLS = 2**24


def _members(out: Any, n: int, steps: int) -> NDArray[np.bool_] | None:
    """The target's epoch as a membership array (steps, n): ``steps`` batches of distinct
    integers in [0, n), or None when it is not that."""
    try:
        items = [np.asarray(item) for item in out]
    except (TypeError, ValueError):
        return None
    if len(items) != steps or any(a.ndim != 1 for a in items):
        return None
    full = [a for a in items if a.size]  # an empty batch may be of any dtype
    if not full:
        return np.zeros((steps, n), dtype=np.bool_)
    records = np.concatenate(full)
    if records.dtype.kind not in "iu" or records.min() < 0 or records.max() >= n:
        return None
    mask = np.zeros((steps, n), dtype=np.bool_)
    mask[np.repeat(np.arange(steps), [a.size for a in items]), records] = True
    if np.count_nonzero(mask) != records.size:  # a record twice in one batch
        return None
    return mask


def _statistic(masks: NDArray[np.bool_], data: tuple[Any, ...]) -> IntArray:
    """The integer the instance ``data`` = (n, rate or size, steps, statistic, extra…) reads
    from each epoch of ``masks`` (epochs, steps, n)."""
    return np.asarray(_read_statistic(masks, data), dtype=np.int64)


def _read_statistic(masks: NDArray[np.bool_], data: tuple[Any, ...]) -> Any:
    k, steps, n = masks.shape
    kind = int(data[3])
    if kind == JOINT:
        weights = np.left_shift(1, np.arange(steps * n, dtype=np.int64))
        return masks.reshape(k, -1).astype(np.int64) @ weights
    if kind == TOTAL:
        return masks.sum(axis=(1, 2), dtype=np.int64)
    if kind == REPEATED:
        return (masks.sum(axis=1) >= 2).sum(axis=1, dtype=np.int64)
    if kind == PAIRS:
        h = n // 2
        both = masks[:, :, 0 : 2 * h : 2] & masks[:, :, 1 : 2 * h : 2]
        return both.sum(axis=(1, 2), dtype=np.int64)
    if kind == LEFT:
        return masks[:, :, : n // 2].sum(axis=(1, 2), dtype=np.int64)
    if kind == OVERLAP:
        return (masks[:, :-1] & masks[:, 1:]).sum(axis=(1, 2), dtype=np.int64)
    if kind == PLACE:
        return _place(masks, n // int(data[1]), int(data[4]))
    return _shape(masks, int(data[4]), bool(data[5]))


def _group(j: Any, m: int, groups: int) -> Any:
    """The group of batch j of an epoch of m batches (groups of ⌊m/G⌋ or ⌈m/G⌉ batches)."""
    return j * groups // m


def _place(masks: NDArray[np.bool_], m: int, groups: int) -> IntArray:
    """(g1, g2) as g1·(G + 1) + g2: g_e the group of the batch holding record 0 in epoch e
    (of m batches), G when record 0 is not in exactly one batch of that epoch."""
    code = np.zeros(masks.shape[0], dtype=np.int64)
    for e in range(2):
        col = masks[:, e * m : (e + 1) * m, 0]
        once = col.sum(axis=1) == 1
        g = np.where(once, _group(np.argmax(col, axis=1), m, groups), groups)
        code = code * (groups + 1) + g
    return code


def _shape(masks: NDArray[np.bool_], size: int, partition: bool) -> IntArray:
    """Deterministic rules: bit 1 set when a batch is not of ``size`` (size ≥ 0), bit 2 when a
    complete epoch is not a partition of the n records."""
    k, steps, n = masks.shape
    bits = np.zeros(k, dtype=np.int64)
    if size >= 0:
        bits |= np.any(masks.sum(axis=2) != size, axis=1).astype(np.int64)
    if partition and size > 0:
        m = n // size
        whole = (steps // m) * m
        per = masks[:, :whole].reshape(k, steps // m, m, n).sum(axis=2)
        bits |= 2 * np.any(per != 1, axis=(1, 2)).astype(np.int64)
    return bits


def _read(data: Any, k: int, draw: Callable[[int], tuple[NDArray[np.bool_], Any]]) -> IntArray:
    """k outputs, drawn in chunks of at most :data:`CHUNK_CELLS` cells: ``draw(c)`` gives the
    membership of c epochs and which of them are malformed."""
    n, steps = int(data[0]), int(data[2])
    chunk = max(1, CHUNK_CELLS // (n * steps))
    parts = []
    for start in range(0, k, chunk):  # k / chunk rounds
        masks, bad = draw(min(chunk, k - start))
        parts.append(np.where(bad, MALFORMED, _statistic(masks, tuple(data))))
    return np.concatenate(parts).astype(np.int64)


def _wrap(fn: Callable[..., Any], description: str) -> Sampler:
    """A target ``fn(n, rate, steps, rng)`` (one epoch of index arrays per call) as a
    :class:`Sampler`, each epoch read by the instance's statistic (:data:`MALFORMED` for an
    epoch of the wrong shape)."""

    def call(data: Any, k: int, rng: np.random.Generator) -> IntArray:
        n, rate, steps = int(data[0]), data[1], int(data[2])

        def draw(c: int) -> tuple[NDArray[np.bool_], Any]:
            found = [_members(fn(n, rate, steps, rng), n, steps) for _ in range(c)]
            bad = np.array([m is None for m in found])
            empty = np.zeros((steps, n), dtype=np.bool_)
            return np.stack([empty if m is None else m for m in found]), bad

        return _read(data, k, draw)

    return Sampler(call, FORM, True, False, description)


def _wrap_vectorised(fn: Callable[..., Any], description: str) -> Sampler:
    """A target ``fn(n, rate, steps, count, rng)`` returning the membership of ``count`` epochs
    (a boolean array (count, steps, n)) as a :class:`Sampler` (an array of another shape or
    kind makes every epoch of the call malformed)."""

    def call(data: Any, k: int, rng: np.random.Generator) -> IntArray:
        n, rate, steps = int(data[0]), data[1], int(data[2])

        def draw(c: int) -> tuple[NDArray[np.bool_], Any]:
            out = np.asarray(fn(n, rate, steps, c, rng))
            if out.shape != (c, steps, n) or out.dtype != np.bool_:
                return np.zeros((c, steps, n), dtype=np.bool_), np.ones(c, dtype=np.bool_)
            return out, np.zeros(c, dtype=np.bool_)

        return _read(data, k, draw)

    return Sampler(call, VECTORISED_FORM, True, True, description)


def _as_target(target: Any) -> Sampler:
    if isinstance(target, Sampler):
        return target
    fn = target
    arity = _required_positional(fn) if callable(fn) and not isinstance(fn, type) else -1
    label = str(getattr(fn, "__qualname__", None) or type(fn).__name__)
    if arity == 5:
        return _wrap_vectorised(fn, label)
    if arity in (4, None):
        return _wrap(fn, label)
    raise TypeError(
        f"target: expected a function {FORM} or {VECTORISED_FORM} (a sampler object's bound "
        f"method), got {type(target).__name__}"
    )


# --- exact laws -----------------------------------------------------------------------------

Dist = dict[int, Fraction]


def _steps_product(step: Dist, n: int, steps: int) -> Dist:
    """The law of ``steps`` independent steps, each with the law ``step`` of its n-bit mask."""
    out: Dist = {0: Fraction(1)}
    for t in range(steps):
        out = {c | (s << (t * n)): p * w for c, p in out.items() for s, w in step.items()}
    return out


def _mask(records: Sequence[int]) -> int:
    return sum(1 << r for r in records)


def _poisson_step(n: int, q: Fraction) -> Dist:
    return {s: q ** s.bit_count() * (1 - q) ** (n - s.bit_count()) for s in range(1 << n)}


def _subset_step(n: int, b: int) -> Dist:
    masks = [s for s in range(1 << n) if s.bit_count() == b]
    return {s: Fraction(1, len(masks)) for s in masks}


def _with_replacement_step(n: int, b: int) -> Dist:
    """b uniform draws with replacement, duplicates dropped (``np.unique(rng.integers(0, n,
    b))``)."""
    out: Dist = {}
    for draws in product(range(n), repeat=b):
        s = _mask(draws)
        out[s] = out.get(s, Fraction(0)) + Fraction(1, n**b)
    return out


def _shuffle_epochs(n: int, b: int, epochs: int, reuse: bool) -> Dist:
    """Per epoch a uniform permutation cut into n/b batches (``reuse``: one for every epoch)."""
    m, one = n // b, Fraction(1, math.factorial(n))
    epoch: Dist = {}
    for perm in permutations(range(n)):
        code = sum(_mask(perm[j * b : (j + 1) * b]) << (j * n) for j in range(m))
        epoch[code] = epoch.get(code, Fraction(0)) + one
    if reuse:
        return {sum(c << (e * m * n) for e in range(epochs)): p for c, p in epoch.items()}
    return _steps_product(epoch, m * n, epochs)


def _binomial_prefix(n: int, q: Fraction, steps: int) -> Dist:
    """jax_privacy #121: sizes s_t ~ Binomial(n, q), batch t the next s_t records of one
    uniform permutation per epoch (cut at n): a record is in at most one step."""
    size = {k: math.comb(n, k) * q**k * (1 - q) ** (n - k) for k in range(n + 1)}
    one = Fraction(1, math.factorial(n))
    out: Dist = {}
    for perm in permutations(range(n)):
        for sizes in product(range(n + 1), repeat=steps):
            code, start, p = 0, 0, one
            for t, s in enumerate(sizes):
                code |= _mask(perm[start : min(start + s, n)]) << (t * n)
                start, p = min(start + s, n), p * size[s]
            out[code] = out.get(code, Fraction(0)) + p
    return out


def _label(code: int, n: int, steps: int) -> str:
    return "|".join(
        "{" + ",".join(str(r) for r in range(n) if code >> (t * n + r) & 1) + "}"
        for t in range(steps)
    )


def _encode_codes(outputs: Any, codes: tuple[int, ...]) -> IntArray:
    """An epoch's code is its row of the table (sorted codes); any other code is impossible."""
    table = np.asarray(codes, dtype=np.int64)
    x = np.asarray(outputs, dtype=np.int64).ravel()
    at = np.minimum(np.searchsorted(table, x), table.size - 1)
    return np.where(table[at] == x, at, -1).astype(np.int64)


def _joint_laws(claimed: Dist, others: Sequence[tuple[Dist, str]], n: int, steps: int) -> list[Law]:
    """The claimed law and the others on one table: every epoch one of them can give."""
    codes = tuple(
        sorted({c for d in (claimed, *(o for o, _ in others)) for c, p in d.items() if p})
    )
    encode = _Encoder(_encode_codes, (codes,))
    labels = tuple(_label(c, n, steps) for c in codes)
    exact = tuple(claimed.get(c, Fraction(0)) for c in codes)
    law = Law(labels, np.array([float(p) for p in exact]), "categorical", encode, exact=exact)
    return [law] + [law.with_probs([float(d.get(c, 0)) for c in codes], note) for d, note in others]


#: the tiny instances' joint laws by what they are built from (a plan builds them twice, at
#: the resolution either way, and every run of the same algorithm again)
_JOINT = _Kept[list[Law]](64)
#: the functions a joint law is built with, looked up when asked (a planted bug in one of them,
#: a verify control, is another key, never a law built without it)
_BUILDERS = (
    "_steps_product",
    "_poisson_step",
    "_subset_step",
    "_with_replacement_step",
    "_shuffle_epochs",
    "_binomial_prefix",
    "_joint_laws",
    "_mask",
    "_label",
    "_encode_codes",
    "_favoured",
)


def _kept_joint(build: Callable[..., list[Law]], *args: Any) -> list[Law]:
    """``build(*args)``, kept by the method, its code and arguments and the builders as they
    are now."""
    found = tuple(globals()[f] for f in _BUILDERS)
    key = (build.__qualname__, build.__code__, args, found)
    return _JOINT.get(key, lambda: build(*args))


def _encode_count(outputs: Any, lo: int, hi: int) -> IntArray:
    """A count below lo → 0, above hi → the last row, else its atom; a negative one impossible."""
    x = np.asarray(outputs, dtype=np.int64).ravel()
    idx = np.where(x < lo, 0, np.where(x > hi, hi - lo + 2, x - lo + 1))
    return np.where(x < 0, -1, idx).astype(np.int64)


def _count_laws(claimed: NDArray[np.float64], others: Sequence[tuple[Any, str]]) -> list[Law]:
    """Laws of a count on 0 … N (pmf arrays) on the claimed law's table: atoms lo … hi, each
    tail beyond them (mass ≤ :data:`TAIL` under the claimed law) lumped."""
    cdf = np.cumsum(claimed)
    lo = int(np.searchsorted(cdf, TAIL, side="right"))
    hi = max(lo, int(np.searchsorted(cdf, 1 - TAIL, side="left")))
    hi = min(hi, claimed.size - 1)

    def table(pmf: Any) -> NDArray[np.float64]:
        p = np.zeros(claimed.size)
        full = np.asarray(pmf, dtype=np.float64)[: claimed.size]
        p[: full.size] = full
        return np.concatenate([[p[:lo].sum()], p[lo : hi + 1], [p[hi + 1 :].sum()]])

    labels = (f"< {lo}", *range(lo, hi + 1), f"> {hi}")
    encode = _Encoder(_encode_count, (lo, hi))
    law = Law(labels, table(claimed), "ordered", encode, note="float closed form, error < 1e-14")
    return [law] + [law.with_probs(table(p), note) for p, note in others]


def _binomial(size: int, p: float) -> NDArray[np.float64]:
    return np.asarray(stats.binom.pmf(np.arange(size + 1), size, p), dtype=np.float64)


def _hypergeometric_sum(n: int, marked: int, drawn: int, copies: int) -> NDArray[np.float64]:
    """The law of a sum of ``copies`` independent Hypergeometric(n, marked, drawn)."""
    one = stats.hypergeom.pmf(np.arange(drawn + 1), n, marked, drawn)
    out = np.ones(1)
    for _ in range(copies):
        out = np.convolve(out, one)
    return np.asarray(out, dtype=np.float64)


def _point(at: int, size: int) -> NDArray[np.float64]:
    p = np.zeros(size + 1)
    p[min(at, size)] = 1.0
    return p


def _odds(q: float, factor: float) -> float:
    """The rate whose odds q/(1 − q) are ``factor`` times q's."""
    return factor * q / (1 - q + factor * q)


def _instance(label: str, data: tuple[Any, ...], laws: list[Law], sized: int = 0) -> Instance:
    """laws = [claimed, variant, alternatives…, the last ``sized`` of them laws the budget is
    sized against too]."""
    end = len(laws) - sized
    return Instance(label, data, laws[0], laws[1], alternatives=laws[2:end], sized=laws[end:])


def _favoured(law: Dist, factor: float, n: int, per: int, units: int) -> Dist:
    """``law`` of ``units`` independent blocks of ``per`` n-bit steps (a step, an epoch) with
    each block's outcomes holding record 0 in its first step weighted by ``factor`` (one
    record ``factor`` times likelier than the others: a non-uniform draw), renormalised per
    block; computed from the block's law (the marginal of the first block)."""
    width = per * n
    block: Dist = {}
    for code, p in law.items():
        b = code & ((1 << width) - 1)
        block[b] = block.get(b, Fraction(0)) + p
    weight = Fraction(factor)
    weighted = {b: p * (weight if b & 1 else 1) for b, p in block.items()}
    total = sum(weighted.values())
    return _steps_product({b: p / total for b, p in weighted.items()}, width, units)


def _favoured_text(factor: float) -> str:
    return f"record 0 × {factor:.4g} likelier in the first step (a non-uniform draw)"


# --- the three algorithms -------------------------------------------------------------------


class _BatchSampler(Algorithm):
    """What the three schemes share: the target's form, no privacy claim, the guarantees."""

    caveat = (
        "a batch sampler makes no privacy claim of its own: the verdict says whether it is the "
        "sampler the accountant assumes (its law), not that a training run is private"
    )
    deviation = ("odds q/(1 − q)", 1)

    def _claim(self, params: dict[str, Any]) -> tuple[float, float] | None:
        return None

    def _sampler(self, target: Any, params: dict[str, Any]) -> Sampler:
        return _as_target(target)

    def _probes(self, params: dict[str, Any]) -> list[tuple[str, tuple[Any, ...]]]:
        """(what, data of a :data:`SHAPE` read) of the deterministic probes."""
        return []

    def _guarantees(
        self,
        params: dict[str, Any],
        instance: Instance,
        outputs: NDArray[Any],
        *,
        sampler: Sampler | None = None,
        rng: np.random.Generator | None = None,
    ) -> list[dict[str, Any]]:
        """Every epoch well formed; on the first instance the deterministic probes (20 epochs
        each, no false alarm: a rule broken once is broken)."""
        bad = int(np.count_nonzero(np.asarray(outputs) == MALFORMED))
        out = [
            {
                "guarantee": "every epoch is steps batches of distinct records in [0, n)",
                "holds": bad == 0,
                "measured": f"{bad} malformed epochs of {len(outputs)}",
            }
        ]
        if sampler is None or rng is None:
            return out
        for what, data in self._probes(params):
            found = sampler.draw(data, 20, rng)
            broken = int(np.count_nonzero(found != 0))
            out.append(
                {
                    "guarantee": what,
                    "holds": broken == 0,
                    "measured": f"{broken} of 20 epochs break it (n={data[0]}, {data[1]}, "
                    f"steps={data[2]})",
                }
            )
        return out


def _limited(params: dict[str, Any], n: int, steps: int) -> None:
    if n * steps > 2**22:
        raise ValueError(f"steps: n · steps must be <= 2^22, got {n * steps}")


class _Poisson(_BatchSampler):
    name = "poisson-batches"
    aliases = ("poisson-sampling", "poisson-subsampling")
    summary = (
        "each step's batch holds every record independently with probability q, "
        "independently across steps (the batch size is Binomial(n, q))"
    )
    source = "Abadi et al. 2016 (arXiv:1607.00133); dpspec.accounting.sampling.poisson_batches"
    convention = f"{FORM}: f(n, q, steps, rng), q a float rate"
    params = (
        Param("n", "int", 1000, "records n of the realistic instances", 2, 10**6),
        Param("q", "positive", 0.01, "the rate q in (0, 1) of the realistic instances"),
        Param("steps", "int", 4, "steps of one epoch of the realistic instances", 1, 64),
    )
    #: the tiny instances (n, q, steps): the full joint law (q near 0 and 1, one step)
    TINY = ((3, 0.5, 2), (3, 0.125, 3), (4, 0.25, 2), (2, 0.875, 1))

    def _complete(self, params: dict[str, Any]) -> dict[str, Any]:
        if not params["q"] < 1:
            raise ValueError(f"q: must be in (0, 1), got {params['q']!r}")
        _limited(params, params["n"], params["steps"])
        return params

    def _instances(self, params: dict[str, Any], factor: float = EPSILON_FACTOR) -> list[Instance]:
        out = []
        text = self._deviation_text(factor)
        for n, q, steps in self.TINY:
            laws = _kept_joint(self._joint, n, q, steps, factor)
            label = f"joint law of the epoch, n={n}, q={q}, steps={steps}"
            out.append(_instance(label, (n, q, steps, JOINT), laws))
        n, q, steps = params["n"], float(params["q"]), params["steps"]
        fixed = max(1, round(n * q))
        q2 = _odds(q, factor)
        where = f"n={n}, q={q:g}, steps={steps}"
        total = _count_laws(
            _binomial(n * steps, q),
            [
                (_binomial(n * steps, q2), text),
                (_point(fixed * steps, n * steps), f"a fixed size {fixed} claimed as Poisson"),
            ],
        )
        out.append(
            _instance(f"total inclusions ~ Bin(n·steps, q), {where}", (n, q, steps, TOTAL), total)
        )
        twice = float(stats.binom.sf(1, steps, q))
        if steps >= 2 and n * twice >= MIN_MEAN:
            laws = _count_laws(
                _binomial(n, twice),
                [
                    (_binomial(n, float(stats.binom.sf(1, steps, q2))), text),
                    (_point(0, n), "jax_privacy #121 (no record twice in an epoch)"),
                ],
            )
            label = f"records in >= 2 steps ~ Bin(n, P(Bin(steps, q) >= 2)), {where}"
            out.append(_instance(label, (n, q, steps, REPEATED), laws))
        if steps * (n // 2) * q * q >= MIN_MEAN:
            laws = _count_laws(
                _binomial(steps * (n // 2), q * q), [(_binomial(steps * (n // 2), q2 * q2), text)]
            )
            label = f"pairs (2i, 2i+1) together in a step ~ Bin(steps·⌊n/2⌋, q²), {where}"
            out.append(_instance(label, (n, q, steps, PAIRS), laws))
        return out[len(self.TINY) :] + out[: len(self.TINY)]  # the realistic ones first

    def _joint(self, n: int, q: float, steps: int, factor: float) -> list[Law]:
        exact, fixed = Fraction(q), max(1, round(n * q))
        return _joint_laws(
            _steps_product(_poisson_step(n, exact), n, steps),
            [
                (
                    _steps_product(_poisson_step(n, Fraction(_odds(q, factor))), n, steps),
                    self._deviation_text(factor),
                ),
                (_binomial_prefix(n, exact, steps), "jax_privacy #121 (one permutation)"),
                (
                    _steps_product(_subset_step(n, fixed), n, steps),
                    f"a fixed size {fixed} claimed as Poisson",
                ),
            ],
            n,
            steps,
        )

    def _reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
        def call(n: int, q: float, steps: int, count: int, rng: np.random.Generator) -> Any:
            return poisson_membership(n, _odds(q, factor) if factor != 1 else q, steps, count, rng)

        return _wrap_vectorised(call, f"dpspec poisson_membership (odds × {factor:g})")

    def _probes(self, params: dict[str, Any]) -> list[tuple[str, tuple[Any, ...]]]:
        n, steps = params["n"], params["steps"]
        return [
            ("q = 0: every batch is empty", (n, 0.0, steps, SHAPE, 0, False)),
            ("q = 1: every batch holds all n records", (n, 1.0, steps, SHAPE, n, False)),
        ]


class _FixedSize(_BatchSampler):
    name = "fixed-size-batches"
    aliases = ("sampling-without-replacement", "wor-batches")
    summary = "each step's batch is a uniformly random b-subset of the n records, independent steps"
    source = (
        "Balle, Barthe, Gaboardi 2018 (arXiv:1807.01647); "
        "dpspec.accounting.sampling.fixed_size_batches"
    )
    convention = f"{FORM}: f(n, b, steps, rng), b an int"
    params = (
        Param("n", "int", 1000, "records n of the realistic instances", 2, 10**6),
        Param("b", "int", 10, "the batch size b, 1 <= b < n", 1, 10**6),
        Param("steps", "int", 4, "steps of the realistic instances", 1, 64),
    )
    #: the tiny instances (n, b, steps): b = 1, b = n − 1, one step
    TINY = ((3, 1, 3), (3, 2, 2), (4, 2, 2), (4, 3, 1))

    def _complete(self, params: dict[str, Any]) -> dict[str, Any]:
        if params["b"] >= params["n"]:
            raise ValueError(
                f"b: must be < n = {params['n']} (b = n gives every record every step: "
                f"checked as a deterministic probe), got {params['b']}"
            )
        _limited(params, params["n"], params["steps"])
        return params

    def _deviation_text(self, factor: float) -> str:
        return "b + 1" if factor > 1 else "b − 1"

    def _instances(self, params: dict[str, Any], factor: float = EPSILON_FACTOR) -> list[Instance]:
        out, text = [], self._deviation_text(factor)
        for n, b, steps in self.TINY:
            laws = _kept_joint(self._joint, n, b, steps, factor)
            label = f"joint law of the epoch, n={n}, b={b}, steps={steps}"
            out.append(_instance(label, (n, b, steps, JOINT), laws, sized=1))
        n, b, steps = params["n"], params["b"], params["steps"]
        other = b + 1 if factor > 1 else b - 1
        where = f"n={n}, b={b}, steps={steps}"
        left = _count_laws(
            _hypergeometric_sum(n, n // 2, b, steps),
            [
                (_hypergeometric_sum(n, n // 2, other, steps), text),
                (_binomial(steps * (n // 2), b / n), "Poisson(b/n)"),
            ],
        )
        label = f"inclusions below n/2 ~ Σ_t Hyp(n, ⌊n/2⌋, b), {where}"
        out.append(_instance(label, (n, b, steps, LEFT), left))
        if steps >= 2 and (steps - 1) * b * b / n >= MIN_MEAN:
            laws = _count_laws(
                _hypergeometric_sum(n, b, b, steps - 1),
                [(_hypergeometric_sum(n, other, other, steps - 1), text)],
            )
            label = f"overlaps |B_t ∩ B_t+1| ~ Σ Hyp(n, b, b), {where}"
            out.append(_instance(label, (n, b, steps, OVERLAP), laws))
        return out[len(self.TINY) :] + out[: len(self.TINY)]  # the realistic ones first

    def _joint(self, n: int, b: int, steps: int, factor: float) -> list[Law]:
        other = b + 1 if factor > 1 else b - 1
        claimed = _steps_product(_subset_step(n, b), n, steps)
        return _joint_laws(
            claimed,
            [
                (_steps_product(_subset_step(n, other), n, steps), self._deviation_text(factor)),
                (_steps_product(_poisson_step(n, Fraction(b, n)), n, steps), "Poisson(b/n)"),
                (
                    _steps_product(_with_replacement_step(n, b), n, steps),
                    "with replacement, duplicates dropped",
                ),
                (_favoured(claimed, factor, n, 1, steps), _favoured_text(factor)),
            ],
            n,
            steps,
        )

    def _reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
        shift = 0 if factor == 1 else (1 if factor > 1 else -1)

        def call(n: int, b: int, steps: int, count: int, rng: np.random.Generator) -> Any:
            size = min(b + shift, n)  # b + 1 at b = n: every record still
            if size == 0:
                return np.zeros((count, steps, n), dtype=np.bool_)
            return fixed_size_membership(n, size, steps, count, rng)

        return _wrap_vectorised(call, f"dpspec fixed_size_membership (b {shift:+d})")

    def _probes(self, params: dict[str, Any]) -> list[tuple[str, tuple[Any, ...]]]:
        n, b, steps = params["n"], params["b"], params["steps"]
        return [
            (f"every batch holds exactly b = {b} records", (n, b, steps, SHAPE, b, False)),
            ("b = n: every batch holds all n records", (n, n, steps, SHAPE, n, False)),
        ]


def _reused_shuffle(n: int, b: int, steps: int, count: int, rng: np.random.Generator) -> Any:
    """Shuffling with the first epoch's permutation reused every epoch (a bug)."""
    per = n // b
    first = shuffled_membership(n, b, per, count, rng)
    return np.tile(first, (1, -(-steps // per), 1))[:, :steps]


class _Shuffled(_BatchSampler):
    name = "shuffled-batches"
    aliases = ("shuffling", "random-reshuffling")
    summary = (
        "per epoch a fresh uniform permutation of the n records cut into n/b batches of b "
        "(every record in exactly one batch of each epoch)"
    )
    source = "Chua et al. 2024 (arXiv:2403.17673); dpspec.accounting.sampling.shuffled_batches"
    convention = f"{FORM}: f(n, b, steps, rng); steps = 2n/b (two epochs)"
    params = (
        Param("n", "int", 1000, "records n of the realistic instance", 2, 10**6),
        Param("b", "int", 100, "the batch size b: divides n, b < n", 1, 10**6),
    )
    #: the tiny instances (n, b), two epochs each: b = 1, b = n/2
    TINY = ((2, 1), (3, 1), (4, 2))

    def _complete(self, params: dict[str, Any]) -> dict[str, Any]:
        n, b = params["n"], params["b"]
        if b >= n or n % b:
            raise ValueError(f"b: must divide n = {n} and be < n (b = n is a probe), got {b}")
        _limited(params, n, 2 * n // b)
        return params

    def _deviation_text(self, factor: float) -> str:
        return "a fresh subset per batch" if factor > 1 else "the first permutation reused"

    def _instances(self, params: dict[str, Any], factor: float = EPSILON_FACTOR) -> list[Instance]:
        out, text = [], self._deviation_text(factor)
        for n, b in self.TINY:
            steps = 2 * n // b
            laws = _kept_joint(self._joint, n, b, factor)
            label = f"joint law of two epochs, n={n}, b={b}, steps={steps}"
            out.append(_instance(label, (n, b, steps, JOINT), laws, sized=1))
        n, b = params["n"], params["b"]
        m = n // b
        groups = min(m, GROUPS)
        sizes = np.bincount([_group(j, m, groups) for j in range(m)], minlength=groups) / m
        claimed = np.zeros((groups + 1, groups + 1))
        claimed[:groups, :groups] = np.outer(sizes, sizes)
        bug_table = np.zeros_like(claimed)
        if factor > 1:  # record 0 in each step with probability b/n, independently
            once = np.append(sizes * m * (b / n) * (1 - b / n) ** (m - 1), 0.0)
            once[-1] = 1 - once.sum()
            bug_table = np.outer(once, once)
        else:
            bug_table[np.arange(groups), np.arange(groups)] = sizes
        law = _categorical(claimed.ravel(), groups)
        laws = [law, law.with_probs(bug_table.ravel(), text)]
        label = f"batch of record 0 in epochs 1 and 2 ({groups} groups), n={n}, b={b}"
        out.append(_instance(label, (n, b, 2 * m, PLACE, groups), laws))
        return out[len(self.TINY) :] + out[: len(self.TINY)]  # the realistic ones first

    def _joint(self, n: int, b: int, factor: float) -> list[Law]:
        steps = 2 * n // b
        fresh = (_steps_product(_subset_step(n, b), n, steps), self._deviation_text(2.0))
        reused = (_shuffle_epochs(n, b, 2, reuse=True), self._deviation_text(0.5))
        bugs = [fresh, reused] if factor > 1 else [reused, fresh]  # both on the table
        claimed = _shuffle_epochs(n, b, 2, reuse=False)
        favoured = (_favoured(claimed, factor, n, n // b, 2), _favoured_text(factor))
        return _joint_laws(claimed, [*bugs, favoured], n, steps)

    def _reference(self, params: dict[str, Any], factor: float = 1.0) -> Sampler:
        if factor == 1:
            return _wrap_vectorised(shuffled_membership, "dpspec shuffled_membership")
        if factor > 1:
            return _wrap_vectorised(
                fixed_size_membership, "dpspec fixed_size_membership (a fresh subset per batch)"
            )
        return _wrap_vectorised(_reused_shuffle, "shuffling with the first permutation reused")

    def _probes(self, params: dict[str, Any]) -> list[tuple[str, tuple[Any, ...]]]:
        n, b = params["n"], params["b"]
        return [
            ("every epoch is a partition into batches of b", (n, b, 4 * n // b, SHAPE, b, True)),
            ("b = n: every batch holds all n records", (n, n, 3, SHAPE, n, True)),
            ("b = 1: every epoch a permutation", (min(n, 50), 1, 2 * min(n, 50), SHAPE, 1, True)),
        ]


def _categorical(probs: NDArray[np.float64], groups: int) -> Law:
    """(g1, g2) outcomes coded g1·(G + 1) + g2; G is "not exactly once"."""
    labels = tuple(
        f"({'x' if a == groups else a}, {'x' if c == groups else c})"
        for a in range(groups + 1)
        for c in range(groups + 1)
    )
    encode = _Encoder(_encode_index, ((groups + 1) ** 2,))
    return Law(labels, probs / probs.sum(), "categorical", encode, note="exact ratios in floats")


#: the sampler entries of the catalogue, in the order ``dpspec conform --list`` shows them
SAMPLERS: tuple[Algorithm, ...] = (_Poisson(), _FixedSize(), _Shuffled())
