"""Exact discrete noise, vectorised with numpy.

Every sampler here draws only uniform integers from the passed-in ``numpy.random.Generator``
(``Generator.integers`` is an exact uniform sampler given ideal random bits) and decides with
integer comparisons, so **the output law is exactly the stated one** — no floating point
touches the randomness. The stated laws have irrational probabilities (e^{−γ}); they are met
exactly by inversion of a lazily drawn uniform U = 0.b₁b₂… against thresholds known exactly
to as many bits as needed (:mod:`dpspec.noise._tables`): one 64-bit word decides, except with
probability ≤ K·2^-64, when the next word is compared with the next 64 bits of the threshold.

Distributions:

* ``bernoulli_exp_neg(a, d)``: Bernoulli(exp(−a/d)) for integers a ≥ 0, d ≥ 1: U < e^{−a/d}
  with U's first word against ⌊2^64 e^{−a/d}⌋ (one table per distinct exponent; arrays with
  more distinct exponents than :data:`MAX_THRESHOLD_TABLES` use the alternating series of
  Canonne–Kamath–Steinke 2020, Alg 1, :mod:`dpspec.noise._series`).
* ``discrete_laplace(scale)``: P(Z = z) ∝ exp(−|z|/scale) on ℤ, scale = t/s rational: a table
  of the two-sided law (in blocks of 2^m values for large scales; :mod:`dpspec.noise._laws`).
* ``geometric(base)`` / ``discrete_laplace_base(base)``: P(G = g) = (1 − q)q^g and
  P(Z = z) = (1 − q)/(1 + q)·q^{|z|} for a rational q: every probability is rational, which is
  what the exact verifiers consume; sampled from the same tables.
* ``categorical_exp_neg(a, d)`` / ``categorical_base`` / ``categorical_exp_gap``: index i with
  P(i) ∝ exp(−a_i/d) (or q^{a_i}): the distinct exponents are *levels* of weight
  count·e^{−gap/d}; a table draws the level, a uniform integer the index inside it. The
  exponential mechanism and randomized response sample through it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Annotated, Any

import numpy as np
from numpy.typing import NDArray

from dpspec.noise import _closed_forms
from dpspec.noise._closed_forms import Real
from dpspec.noise._closed_forms import _integer as _integer
from dpspec.noise._domains import Factor, IntegerArray, Rational
from dpspec.noise._laws import (
    LevelSampler,
    SingleThreshold,
    bernoulli_floor,
    geometric_sampler,
    two_sided_sampler,
)
from dpspec.noise._reals import Ratio
from dpspec.noise._series import ExpNegExponents, bernoulli_exp_neg_series
from dpspec.noise._tables import WORD, count_at_or_below, sample_words
from dpspec.validation import (
    INT_BOUND,
    Base,
    Checked,
    GeneratorArg,
    Instance,
    Integer,
    checked,
    example,
)
from dpspec.validation import Real as RealInterval

__all__ = [
    "DiscreteLaplaceNoise",
    "ExpNegExponents",
    "Real",
    "bernoulli_exp_neg",
    "bernoulli_exp_neg_exponents",
    "bernoulli_power",
    "bernoulli_rational",
    "categorical_base",
    "categorical_exp_gap",
    "categorical_exp_levels",
    "categorical_exp_neg",
    "coarsen_up",
    "discrete_laplace",
    "discrete_laplace_base",
    "discrete_laplace_pmf",
    "discrete_laplace_sf",
    "exp_neg_exponents",
    "geometric",
    "laplace_sf",
]

Int64Array = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

# The samplers' parameter domains (checked once per call by ``checked``; the bodies and the
# private kernels ``_f`` they call then draw without checking again).
#: Draws one call returns: 0 ≤ size ≤ ``LIMITS["draws"]``.
_Draws = Annotated[int, Integer(0, limit="draws")]
#: A denominator d of exponents a/d: 1 ≤ d ≤ 2^62 (int64 arithmetic on a, d).
_Denominator = Annotated[int, Integer(1, hi=INT_BOUND)]
#: A rational base q ∈ (0, 1) the base samplers draw with (``check_sampling_base``).
_Base = Annotated[Fraction, Base()]
#: Exponents a_i ≥ 0, 1-D (empty allowed).
_Exponents = Annotated[Int64Array, IntegerArray(clean=np.array([0, 1, 3]))]
#: Weights' exponents: 1-D (one law) or 2-D (one law per draw), in [0, 2^63) or (−2^62, 2^62).
_Weights = Annotated[Int64Array, IntegerArray(ndims=(1, 2), signed=True, clean=np.array([2, 0, 1]))]

_INT64_SAFE = 2**56  # bound on the scale's terms t, s
#: Most distinct exponents one Bernoulli call tabulates (more: the alternating series).
MAX_THRESHOLD_TABLES = 4096


#: Most distinct levels (weights) a categorical law tabulates (its table: ≈ 3 µs per level).
MAX_LEVELS = 2**20


#: Draws per vectorised pass: the samplers' temporaries stay below ≈ 100 MB per call.
_CHUNK = 2**20


def _in_chunks(size: int, draw: Callable[[int], NDArray[Any]]) -> NDArray[Any]:
    """``draw(size)``, made ``_CHUNK`` values at a time into one array when ``size`` is larger
    (the draws are independent, so the law is the same)."""
    if size <= _CHUNK:
        return draw(size)
    first = draw(_CHUNK)
    out = np.empty(size, dtype=first.dtype)
    out[:_CHUNK] = first
    for start in range(_CHUNK, size, _CHUNK):
        stop = min(size, start + _CHUNK)
        out[start:stop] = draw(stop - start)
    return out


def _check_levels(count: int, name: str) -> None:
    if count > MAX_LEVELS:
        raise ValueError(
            f"{name}: {count} distinct weights exceed the limit of {MAX_LEVELS} (the exact "
            f"table of the law takes about {count * 3e-6:.0f} s to build); group the candidates"
        )


# --- closed forms ---------------------------------------------------------------------------

#: An offset z of the law: |z| ≤ 2^62 (beyond, a float base's q^|z| is 0.0 long before).
_Offset = Annotated[int, Integer(-INT_BOUND, hi=INT_BOUND, clean=0)]
#: The law's factor q: a Fraction in (0, 1) or a float in [0, 1).
_Factor = Annotated[Real, Factor()]


@checked
def discrete_laplace_pmf(z: _Offset, base: _Factor) -> Real:
    """P(Z = z) = (1 − q)/(1 + q) · q^{|z|} (a ``Fraction`` for a rational q)."""
    return _closed_forms.discrete_laplace_pmf(z, base)


@checked
def discrete_laplace_sf(k: _Offset, base: _Factor) -> Real:
    """P(Z ≥ k) = q^k/(1 + q) for k ≥ 0, and 1 − q^{1−k}/(1 + q) for k ≤ 0."""
    return _closed_forms.discrete_laplace_sf(k, base)


@checked
def laplace_sf(
    t: Annotated[float, RealInterval(infinite=True, clean=0.5)],
    scale: Annotated[float, RealInterval(0, lo_open=True, clean=2.0)],
) -> float:
    """P(L > t) for L ~ Lap(scale): ½ e^{−t/b} for t ≥ 0, 1 − ½ e^{t/b} otherwise (floats)."""
    return _closed_forms.laplace_sf(t, scale)


# --- Bernoulli(exp(−γ)) --------------------------------------------------------------------


@example(__call__={"gap": np.array([0, 1, 5]), "num": 3, "den": 7})
@checked
def exp_neg_exponents(
    gap: _Exponents, num: Annotated[int, Integer(0)], den: _Denominator
) -> ExpNegExponents:
    """γ_i = gap_i · num/den split into int64 parts without overflow (gap_i ≥ 0 integers).

    When max(gap)·num < 2^62 this is ``divmod(gap·num, den)`` in int64 (the fast path);
    otherwise the products are formed with Python integers and the whole parts capped at 2^62
    (the rest carried in ``excess``) — exact for every gap < 2^63 and any rate num/den.
    """
    g = gap
    top = int(g.max()) if g.size else 0
    if top * num < INT_BOUND:
        whole, rest = np.divmod(g * num, den)
        return ExpNegExponents(whole.astype(np.int64), rest.astype(np.int64), den)
    prod = g.astype(object) * num
    whole_obj = prod // den
    rest = (prod % den).astype(np.int64)
    capped = np.where(whole_obj > INT_BOUND, INT_BOUND, whole_obj)
    excess = whole_obj - capped
    has_excess = bool(np.any(excess > 0))
    return ExpNegExponents(capped.astype(np.int64), rest, den, excess if has_excess else None)


@checked
def bernoulli_exp_neg(a: _Exponents, d: _Denominator, rng: GeneratorArg) -> BoolArray:
    """Independent Bernoulli(exp(−a_i/d)) draws, exactly, for integer a_i ≥ 0 and d ≥ 1."""
    return _bernoulli_exp_neg(a, d, rng)


def _bernoulli_exp_neg(a: Int64Array, d: int, rng: np.random.Generator) -> BoolArray:
    whole, rest = np.divmod(a, d)
    return _bernoulli_exp_neg_exponents(ExpNegExponents(whole, rest, d), rng)


def _distinct(
    whole: Int64Array, rest: Int64Array, d: int
) -> tuple[list[int], NDArray[np.intp]] | None:
    """The distinct numerators n = whole·d + rest (γ = n/d) and each entry's index among them,
    or None when there are more than MAX_THRESHOLD_TABLES of them."""
    if whole.size == 0:
        return [], np.zeros(0, dtype=np.intp)
    if int(whole.min()) == int(whole.max()) and int(rest.min()) == int(rest.max()):
        return [int(whole[0]) * d + int(rest[0])], np.zeros(whole.size, dtype=np.intp)
    if (int(whole.max()) + 1) * d < INT_BOUND:
        keys, index = np.unique(whole * d + rest, return_inverse=True)
        values = keys.tolist()
    else:
        pairs, index = np.unique(np.stack([whole, rest], axis=1), axis=0, return_inverse=True)
        values = [w * d + r for w, r in pairs.tolist()]
    if len(values) > MAX_THRESHOLD_TABLES:
        return None
    return [int(v) for v in values], np.asarray(index, dtype=np.intp).ravel()


@example(__call__={"e": ExpNegExponents(np.array([0, 1, 0]), np.array([0, 2, 3]), 4)})
@checked
def bernoulli_exp_neg_exponents(
    e: Annotated[ExpNegExponents, Instance(types=(ExpNegExponents,))], rng: GeneratorArg
) -> BoolArray:
    """Independent Bernoulli(exp(−γ_i)) for split exponents (see :class:`ExpNegExponents`).

    True iff U_i < e^{−γ_i}: the first word w_i of U_i against F = ⌊2^64 e^{−γ_i}⌋ — True when
    w_i < F, False when w_i > F, decided one word further down when w_i = F.
    """
    if e.whole.ndim != 1 or e.whole.shape != e.rest.shape:
        raise ValueError(f"e: expected 1-D arrays of one shape, got {e.whole.shape}")
    return _bernoulli_exp_neg_exponents(e, rng)


def _bernoulli_exp_neg_exponents(e: ExpNegExponents, rng: np.random.Generator) -> BoolArray:
    whole, rest, d = e.whole, e.rest, e.d
    found = None if e.excess is not None else _distinct(whole, rest, d)
    if found is None:
        return bernoulli_exp_neg_series(e, rng)
    values, index = found
    # γ = 0 (e^0 = 1 > U always) is the floor 2^64 − 1, marked by None
    known = [None if n == 0 else bernoulli_floor(Ratio(n, d, exp=True)) for n in values]
    floors = np.array([WORD - 1 if f is None else f[0] for f in known], dtype=np.uint64)
    w = sample_words(rng, whole.size)
    threshold = np.take(floors, index)
    out = np.asarray(w < threshold)
    for i in np.flatnonzero(w == threshold).tolist():
        n = values[int(index[i])]
        floor = known[int(index[i])]
        if floor is None:
            out[i] = True
        elif floor[1]:  # U ≥ F/2^64 = e^{−γ}
            out[i] = False
        else:
            law = SingleThreshold(Ratio(n, d, exp=True))
            out[i] = count_at_or_below(law, [0], floor[0], rng) == 0
    return out


# --- discrete Laplace and geometric ---------------------------------------------------------


@example(__call__={"scale": Fraction(3, 2)})
@checked
def coarsen_up(scale: Annotated[Fraction, Rational()]) -> Fraction:
    """The scale itself, or a slightly larger rational whose terms are below 2^56.

    More noise never weakens privacy; the relative change is at most 2^-20. The scale is
    sensitivity/epsilon; out-of-range scales are refused naming both.
    """
    return _coarsen_up(scale)


def _magnitude(x: Fraction) -> str:
    """``x`` written to 3 digits, also beyond the float range (10^400/3 is "3.33e+399")."""
    if x == 0:
        return "0"
    digits = math.log10(abs(x.numerator)) - math.log10(x.denominator)  # ints of any size
    if abs(digits) < 300:
        return f"{float(x):.3g}"
    exponent = math.floor(digits)
    return f"{'-' if x < 0 else ''}{10 ** (digits - exponent):.3g}e{exponent:+d}"


def _coarsen_up(scale: Fraction) -> Fraction:
    if scale.numerator < _INT64_SAFE and scale.denominator < _INT64_SAFE:
        return scale
    ceiling = math.ceil(scale)
    if ceiling >= _INT64_SAFE // 2**20:
        raise ValueError(
            f"scale: sensitivity/epsilon = {_magnitude(scale)} is too large for the exact "
            "sampler (at most 2^36); use a larger epsilon or a smaller sensitivity"
        )
    den = max(1, (_INT64_SAFE // 2) // ceiling)
    coarse = Fraction(math.ceil(scale * den), den)
    if coarse - scale > scale / 2**20:  # a tiny scale with a huge denominator
        raise ValueError(
            f"scale: sensitivity/epsilon = {_magnitude(scale)} is too small for the exact "
            "sampler; use a smaller epsilon or a larger sensitivity"
        )
    return coarse


@example(__call__={"scale": Fraction(3), "size": 4})
@checked
def discrete_laplace(
    scale: Annotated[Fraction, Rational(round_up=True)], size: _Draws, rng: GeneratorArg
) -> Int64Array:
    """``size`` exact draws with P(Z = z) ∝ exp(−|z|/scale) on the integers: the two-sided law
    with factor Q = e^{−s/t} for scale = t/s (a real scale is first rounded up to a rational
    with denominator ≤ 2^32, then its terms to below 2^56: :func:`coarsen_up`)."""
    return _discrete_laplace(scale, size, rng)


def _discrete_laplace(scale: Fraction, size: int, rng: np.random.Generator) -> Int64Array:
    scale = _coarsen_up(scale)
    q = Ratio(scale.denominator, scale.numerator, exp=True)
    return _in_chunks(size, lambda m: two_sided_sampler(q).sample(m, rng))


@example(__call__={"p": Fraction(1, 3), "size": 4})
@checked
def bernoulli_rational(
    p: Annotated[Fraction, Rational(positive=False, hi=Fraction(1), max_denominator=INT_BOUND)],
    size: _Draws,
    rng: GeneratorArg,
) -> BoolArray:
    """Exact Bernoulli(p) for rational p ∈ [0, 1] (denominator ≤ 2^62)."""
    return np.asarray(rng.integers(0, p.denominator, size=size) < p.numerator)


@checked
def bernoulli_power(base: _Base, k: _Exponents, rng: GeneratorArg) -> BoolArray:
    """Exact Bernoulli(q^{k_i}) for rational q: k_i independent Bernoulli(q) all succeed."""
    return _bernoulli_power(base, k, rng)


def _bernoulli_power(q: Fraction, k: Int64Array, rng: np.random.Generator) -> BoolArray:
    out = np.ones(k.shape[0], dtype=np.bool_)
    remaining = k.copy()
    active = np.flatnonzero(remaining > 0)
    while active.size:
        ok = rng.integers(0, q.denominator, size=active.size) < q.numerator
        out[active[~ok]] = False
        remaining[active] -= 1
        active = active[ok & (remaining[active] > 0)]
    return out


def _base_ratio(q: Fraction) -> Ratio:
    return Ratio(q.numerator, q.denominator, exp=False)


@checked
def geometric(base: _Base, size: _Draws, rng: GeneratorArg) -> Int64Array:
    """P(G = g) = (1 − q) q^g for rational q = ``base`` ∈ (0, 1)."""
    q = _base_ratio(base)
    return _in_chunks(size, lambda m: geometric_sampler(q).sample(m, rng))


@checked
def discrete_laplace_base(base: _Base, size: _Draws, rng: GeneratorArg) -> Int64Array:
    """P(Z = z) = (1 − q)/(1 + q) · q^{|z|} for rational q = ``base`` ∈ (0, 1)."""
    return _discrete_laplace_base(base, size, rng)


def _discrete_laplace_base(base: Fraction, size: int, rng: np.random.Generator) -> Int64Array:
    q = _base_ratio(base)
    return _in_chunks(size, lambda m: two_sided_sampler(q).sample(m, rng))


# --- categorical laws -----------------------------------------------------------------------


@lru_cache(maxsize=32)
def _level_sampler(q: Ratio, gaps: tuple[int, ...], counts: tuple[int, ...]) -> LevelSampler:
    return LevelSampler(q, gaps, counts)


@example(__call__={"gaps": np.array([0, 1, 5]), "counts": np.array([1, 3, 2]), "num": 1, "den": 4})
@checked
def categorical_exp_levels(
    gaps: Annotated[Any, IntegerArray(empty=False, increasing=True)],
    counts: Annotated[Any, IntegerArray(lo=1, empty=False)],
    num: Annotated[int, Integer(1)],
    den: Annotated[int, Integer(1)],
    size: _Draws,
    rng: GeneratorArg,
) -> NDArray[np.intp]:
    """``size`` levels i with P(i) ∝ counts_i·exp(−gaps_i·num/den), exactly (gaps distinct,
    increasing integers ≥ 0; counts ≥ 1; num ≥ 1, den ≥ 1)."""
    if gaps.shape != counts.shape:
        raise ValueError(f"gaps: {gaps.size} levels, but {counts.size} counts: one count each")
    g, c = gaps.tolist(), counts.tolist()
    _check_levels(len(g), "gaps")
    q = Ratio(num, den, exp=True)
    sampler = _level_sampler(q, tuple(g), tuple(c))
    return _in_chunks(size, lambda m: sampler.sample(m, rng))


@dataclass(frozen=True, eq=False)
class _Members:
    """The levels of a gap vector: the level sampler, the members of each level in one array
    (``order``, level by level), each level's count and first position."""

    sampler: LevelSampler
    order: NDArray[np.intp]
    counts: NDArray[np.int64]
    offsets: NDArray[np.int64]
    single: bool  # every level has one member


@lru_cache(maxsize=32)
def _members(q: Ratio, gap_bytes: bytes) -> _Members:
    gap = np.frombuffer(gap_bytes, dtype=np.int64)
    order = np.argsort(gap, kind="stable")
    levels, counts = np.unique(gap, return_counts=True)
    _check_levels(levels.size, "a")
    sampler = _level_sampler(q, tuple(levels.tolist()), tuple(counts.tolist()))
    offsets = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    return _Members(sampler, order, counts.astype(np.int64), offsets, levels.size == gap.size)


def _categorical_levels(
    q: Ratio, gap: NDArray[Any], size: int, rng: np.random.Generator
) -> Int64Array:
    """``size`` indices i with P(i) ∝ Q^{gap_i} (gap ≥ 0 integers, min 0): the level of each
    distinct gap from a table, then a uniform index among the level's members (the levels and
    their tables cached per gap vector)."""
    members = _members(q, np.ascontiguousarray(gap, dtype=np.int64).tobytes())

    def draw(m: int) -> NDArray[Any]:
        level = members.sampler.sample(m, rng)
        if members.single:  # every level has one member
            return np.take(members.order, level)
        inside = rng.integers(0, np.take(members.counts, level))
        return np.take(members.order, np.take(members.offsets, level) + inside)

    return np.asarray(_in_chunks(size, draw), dtype=np.int64)


@example(__call__={"a": np.array([2, 0, 1]), "d": 2, "size": 4})
@checked
def categorical_exp_neg(
    a: _Weights, d: _Denominator, size: _Draws, rng: GeneratorArg
) -> Int64Array:
    """``size`` indices i with P(i) ∝ exp(−a_i/d) (a_i integers, d ≥ 1), exactly.

    ``a`` is 1-D (one distribution for every draw: levels and a table) or 2-D of shape
    (size, K) (row j is the distribution of draw j: rejection from the uniform proposal,
    acceptance ≥ 1/K per try, with the series Bernoulli).
    """
    rows = _weight_rows(a, size)
    if a.ndim == 2 and size and bool((rows == rows[0]).all()):
        a = rows[0]  # one distribution for every draw, written out row by row
    if a.ndim == 1:
        return _categorical_levels(Ratio(1, d, exp=True), a - a.min(), size, rng)
    return _categorical_by_rejection(rows, lambda e: _bernoulli_exp_neg(e, d, rng), rng)


@example(__call__={"gap": np.array([0, 5, 2]), "num": 3, "den": 7, "size": 4})
@checked
def categorical_exp_gap(
    gap: Annotated[Int64Array, IntegerArray(empty=False)],
    num: Annotated[int, Integer(1)],
    den: _Denominator,
    size: _Draws,
    rng: GeneratorArg,
) -> Int64Array:
    """``size`` indices i with P(i) ∝ exp(−gap_i·num/den), exactly, for any integer gaps
    0 ≤ gap_i < 2^63 with min gap = 0 (the weights e^{−num/den} to the power gap_i are
    bounded exactly whatever their size)."""
    return _categorical_levels(Ratio(num, den, exp=True), gap - int(gap.min()), size, rng)


@example(__call__={"a": np.array([2, 0, 1]), "size": 4})
@checked
def categorical_base(a: _Weights, base: _Base, size: _Draws, rng: GeneratorArg) -> Int64Array:
    """``size`` indices i with P(i) ∝ q^{a_i}, q a rational base (a as in categorical_exp_neg)."""
    q = base
    rows = _weight_rows(a, size)
    if a.ndim == 2 and size and bool((rows == rows[0]).all()):
        a = rows[0]  # one distribution for every draw, written out row by row
    if a.ndim == 1:
        return _categorical_levels(_base_ratio(q), a - a.min(), size, rng)
    return _categorical_by_rejection(rows, lambda e: _bernoulli_power(q, e, rng), rng)


def _weight_rows(a: Int64Array, size: int) -> Int64Array:
    rows = np.broadcast_to(a, (size, a.shape[-1])) if a.ndim == 1 else a
    if rows.ndim != 2 or rows.shape[0] != size or rows.shape[1] == 0:
        raise ValueError(f"a: expected shape (K,) or ({size}, K) with K >= 1, got {a.shape}")
    return rows


def _categorical_by_rejection(
    rows: Int64Array, accept_with: Callable[[Int64Array], BoolArray], rng: np.random.Generator
) -> Int64Array:
    """Propose uniformly, accept w.p. w(a_i − min a) with w decreasing and w(0) = 1."""
    size, k = rows.shape
    shifted = rows - rows.min(axis=1, keepdims=True)
    out = np.empty(size, dtype=np.int64)
    pending = np.arange(size)
    while pending.size:
        proposal = rng.integers(0, k, size=pending.size)
        accept = accept_with(shifted[pending, proposal])
        out[pending[accept]] = proposal[accept]
        pending = pending[~accept]
    return out


# --- the noise object the mechanisms use ---------------------------------------------------


@dataclass(frozen=True)
class DiscreteLaplaceNoise(Checked):
    """Discrete Laplace noise on ℤ given by a rational scale or a rational base q = e^{−1/scale}.

    With a rational ``base`` every probability is a ``Fraction`` (exact verification); with a
    ``scale`` (a real > 0, kept as the smallest rational ≥ it with denominator ≤ 2^32) the
    probabilities are floats. Both samplers are exact: privacy does not assume ideal reals.
    """

    scale: Annotated[Fraction | None, Rational(round_up=True, optional=True)] = None
    base: Annotated[Fraction | None, Base(optional=True)] = None

    #: Not a mechanism (no data, no privacy level of its own): the noise law the mechanisms
    #: hold and add (``noise.sample(size, rng)``, ``noise.pmf(z)``); its constructor and
    #: methods check their declared domains like every Checked class.
    __dpspec_declarative__ = "the noise law a mechanism holds (its checked parameters)"

    def __post_init__(self) -> None:
        super().__post_init__()
        if (self.scale is None) == (self.base is None):
            raise ValueError("scale: give exactly one of scale or base")

    @property
    def q(self) -> Real:
        """The per-unit factor q = exp(−1/scale) of the pmf (exact when ``base`` was given)."""
        if self.base is not None:
            return self.base
        assert self.scale is not None
        return math.exp(-1 / float(self.scale))

    def sample(self, size: _Draws, rng: GeneratorArg) -> Int64Array:
        """``size`` independent draws of the law."""
        if self.base is not None:
            return _discrete_laplace_base(self.base, size, rng)
        assert self.scale is not None
        return _discrete_laplace(self.scale, size, rng)

    def pmf(self, z: _Offset) -> Real:
        """P(Z = z)."""
        return _closed_forms.discrete_laplace_pmf(z, self.q)

    def sf(self, k: _Offset) -> Real:
        """P(Z ≥ k)."""
        return _closed_forms.discrete_laplace_sf(k, self.q)
