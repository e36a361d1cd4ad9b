"""Exact discrete noise, vectorised with numpy.

Every sampler here uses only uniform integers from the passed-in ``numpy.random.Generator``
(``Generator.integers`` is an exact uniform sampler given ideal random bits), integer
arithmetic and comparisons: **no floating point touches the randomness**, so the output
distribution is exactly the stated one. This is the float-safe default of dpspec, after
Canonne, Kamath and Steinke, "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020),
Algorithms 1–2 (Bernoulli(exp(−γ)) and the discrete Laplace), re-derived and vectorised here:
each loop runs over the still-undecided samples as a whole array.

Distributions:

* ``bernoulli_exp_neg(a, d)``: Bernoulli(exp(−a/d)) for integers a ≥ 0, d ≥ 1.
  For γ = a/d ≤ 1, draw A_k ~ Bernoulli(γ/k) for k = 1, 2, … until the first failure at K;
  P(K odd) = Σ_j (−γ)^j / j! = e^{−γ}. For γ > 1: ∏ of ⌊γ⌋ Bernoulli(e^{−1}) and one
  Bernoulli(e^{−(γ−⌊γ⌋)}).
* ``discrete_laplace(scale)``: P(Z = z) ∝ exp(−|z|/scale) on ℤ, scale = t/s rational.
  X = U + tV with U uniform on {0..t−1} kept w.p. exp(−U/t) and V ~ Geometric(1 − e^{−1})
  has P(X = x) ∝ exp(−x/t); Y = ⌊X/s⌋ has P(Y = y) ∝ exp(−ys/t); a fair sign with the
  (sign −, Y = 0) case rejected gives the two-sided law.
* ``geometric(base)`` / ``discrete_laplace_base(base)``: P(G = g) = (1 − q) q^g for a rational
  q (successes of Bernoulli(q) before the first failure); G₁ − G₂ is discrete Laplace with
  P(Z = z) = (1 − q)/(1 + q) · q^{|z|}. With a rational base every probability of the output
  is rational, which is what the exact verifiers consume.
* ``categorical_exp_neg(a, d)``: index i with P(i) ∝ exp(−a_i/d) by rejection: propose i
  uniformly, accept w.p. exp(−(a_i − min a)/d). The exponential mechanism and k-ary
  randomized response sample through it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpspec.validation import (
    INT_BOUND,
    LIMITS,
    check_count,
    check_rng,
    check_sampling_base,
    rational_at_least,
)

Int64Array = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

_INT64_SAFE = 2**56  # bound on the scale's terms t, s: t·V stays below 2^62 unless V ≥ 64
#: Proposals drawn per round of the discrete Laplace sampler (bounds its temporary memory).
_CHUNK = 2**22


#: Steps of the alternating-series trials drawn per round: a round decides every trial that
#: stops within this many steps; a trial goes on past it with probability ≤ 1/STEPS!.
_STEPS = 8


def _bernoulli_exp_neg_at_most_one(r: Int64Array, d: int, rng: np.random.Generator) -> BoolArray:
    """Bernoulli(exp(−r/d)) for 0 ≤ r ≤ d (γ ≤ 1), the alternating-series trick.

    A_k ~ Bernoulli(γ/k), k = 1, 2, …; K = the first k with A_k = 0; the output is K odd
    (P(K > j) = γ^j/j!, so P(K odd) = e^{−γ}). Each round draws the next ``_STEPS`` trials
    A_k of every undecided entry at once (k is known in advance: it only counts up) and keeps
    the first failure; the trials drawn after it are unused, which leaves the law unchanged.
    """
    n = r.shape[0]
    first_failure = np.empty(n, dtype=np.int64)
    active = np.arange(n)
    k0 = 1
    while active.size:
        ks = np.arange(k0, k0 + _STEPS, dtype=np.int64)
        # A_k: a uniform integer in [0, dk) is below r iff its "which block of d" digit is 0
        # and its low digit is below r (r ≤ d)
        success = (rng.integers(0, ks, size=(active.size, _STEPS)) == 0) & (
            rng.integers(0, d, size=(active.size, _STEPS)) < r[active, None]
        )
        failed = ~success
        stops = failed.any(axis=1)
        first_failure[active[stops]] = k0 + np.argmax(failed[stops], axis=1)
        active = active[~stops]
        k0 += _STEPS
    return np.asarray(first_failure % 2 == 1)


@dataclass(frozen=True)
class ExpNegExponents:
    """Rational exponents γ_i = whole_i + excess_i + rest_i/d, split so every array is int64.

    ``whole`` is capped at 2^62; the part above the cap, ``excess`` (Python ints, ``None``
    when all are 0), matters only after 2^62 consecutive Bernoulli(e^{−1}) successes and is
    then consumed exactly, one trial at a time. 0 ≤ rest < d ≤ 2^62.
    """

    whole: Int64Array
    rest: Int64Array
    d: int
    excess: NDArray[Any] | None = None

    def take(self, index: NDArray[np.int64]) -> ExpNegExponents:
        """The exponents at the given positions (1-D result)."""
        excess = None if self.excess is None else self.excess[index]
        return ExpNegExponents(self.whole[index], self.rest[index], self.d, excess)


def exp_neg_exponents(gap: Any, num: int, den: int) -> ExpNegExponents:
    """γ_i = gap_i · num/den split into int64 parts without overflow (gap_i ≥ 0 integers).

    When max(gap)·num < 2^62 this is ``divmod(gap·num, den)`` in int64 (the fast path);
    otherwise the products are formed with Python integers and the whole parts capped at 2^62
    (the rest carried in ``excess``) — exact for every gap < 2^63 and any rate num/den.
    """
    g = np.asarray(gap)
    if g.size and not np.issubdtype(g.dtype, np.integer):
        raise ValueError("gap: expected integers")
    g = g.astype(np.int64)
    if g.size and int(g.min()) < 0:
        raise ValueError("gap: exponents must be >= 0")
    num, den = int(num), check_count(den, "d", maximum=INT_BOUND)
    if num < 0:
        raise ValueError("num: must be >= 0")
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


def bernoulli_exp_neg(a: Int64Array, d: int, rng: np.random.Generator) -> BoolArray:
    """Independent Bernoulli(exp(−a_i/d)) draws, exactly, for integer a_i ≥ 0 and d ≥ 1."""
    check_rng(rng)
    d = check_count(d, "d", maximum=INT_BOUND)
    a = np.asarray(a, dtype=np.int64)
    if a.ndim != 1:
        raise ValueError(f"a: expected a 1-D integer array, got shape {a.shape}")
    if a.size and int(a.min()) < 0:
        raise ValueError("a: exponents must be >= 0")
    whole, rest = np.divmod(a, d)
    return bernoulli_exp_neg_exponents(ExpNegExponents(whole, rest, d), rng)


def bernoulli_exp_neg_exponents(e: ExpNegExponents, rng: np.random.Generator) -> BoolArray:
    """Independent Bernoulli(exp(−γ_i)) for split exponents (see :class:`ExpNegExponents`)."""
    check_rng(rng)
    whole, rest, d = e.whole, e.rest, e.d
    if whole.ndim != 1 or whole.shape != rest.shape:
        raise ValueError(f"whole: expected 1-D arrays of one shape, got {whole.shape}")
    out = np.ones(whole.shape[0], dtype=np.bool_)
    # ⌊γ⌋ factors Bernoulli(e^{-1}): stop an entry at its first failure.
    remaining = whole.copy()
    active = np.flatnonzero(remaining > 0)
    ones = np.ones(whole.shape[0], dtype=np.int64)
    while active.size:
        ok = _bernoulli_exp_neg_at_most_one(ones[: active.size], 1, rng)
        out[active[~ok]] = False
        remaining[active] -= 1
        active = active[ok & (remaining[active] > 0)]
    if e.excess is not None:  # survived 2^62 factors already (probability e^{-2^62})
        for i in np.flatnonzero(out & np.asarray(e.excess > 0, dtype=np.bool_)):
            left = int(e.excess[i])
            while left > 0:
                if not bool(_bernoulli_exp_neg_at_most_one(ones[:1], 1, rng)[0]):
                    out[i] = False
                    break
                left -= 1
    todo = np.flatnonzero(out & (rest > 0))
    if todo.size:
        out[todo] = _bernoulli_exp_neg_at_most_one(rest[todo], d, rng)
    return out


#: U uniform on [0, 20!): P(U < 20!/j!) = 1/j!, the chance that a γ = 1 alternating-series
#: trial passes its first j steps; ``_PASS[j − 1]`` = 20!/j!, j = 1..20.
_PASS = np.array([math.factorial(20) // math.factorial(j) for j in range(1, 21)], dtype=np.int64)
#: Bernoulli(e^{−1}) trials of the geometric sampler drawn per round and entry.
_TRIALS = 4


def _unit_trial_stops(size: int, rng: np.random.Generator) -> Int64Array:
    """K, the stopping step of ``size`` independent γ = 1 alternating-series trials
    (P(K > j) = 1/j!), from one uniform integer each: K = 1 + #{j ≤ 20: U < 20!/j!}. A trial
    with U = 0 (probability 1/20!) has passed 20 steps and goes on one step at a time."""
    u = rng.integers(0, math.factorial(20), size=size)
    k = np.asarray(1 + np.sum(u[:, None] < _PASS[None, :], axis=1), dtype=np.int64)
    for i in np.flatnonzero(k > 20):  # continue at step 21: A_j ~ Bernoulli(1/j)
        j = 21
        while rng.integers(0, j) == 0:
            j += 1
        k[i] = j
    return k


def _geometric_exp_neg_one(size: int, rng: np.random.Generator) -> Int64Array:
    """V with P(V = v) = (1 − e^{−1}) e^{−v}: successes of Bernoulli(e^{−1}) before a failure.

    Each Bernoulli(e^{−1}) trial is the γ = 1 alternating-series trial, a success when it stops
    at an odd step (:func:`_unit_trial_stops`). A round draws ``_TRIALS`` trials for every
    undecided sample and counts its leading successes; a sample whose trials all succeed
    (probability e^{−4}) takes part in the next round. Trials after the first failure are
    unused, which leaves the law unchanged.
    """
    v = np.zeros(size, dtype=np.int64)
    active = np.arange(size)
    while active.size:
        stops = _unit_trial_stops(active.size * _TRIALS, rng).reshape(active.size, _TRIALS)
        success = stops % 2 == 1  # the trial stopped at an odd step
        failed = ~success
        ended = failed.any(axis=1)
        leading = np.where(ended, np.argmax(failed, axis=1), _TRIALS)
        v[active] += leading
        active = active[~ended]
    return v


def coarsen_up(scale: Fraction) -> Fraction:
    """The scale itself, or a slightly larger rational whose terms are below 2^56.

    More noise never weakens privacy; the relative change is at most 2^-20. The scale is
    sensitivity/epsilon; out-of-range scales are refused naming both.
    """
    if scale.numerator < _INT64_SAFE and scale.denominator < _INT64_SAFE:
        return scale
    ceiling = math.ceil(scale)
    if ceiling >= _INT64_SAFE // 2**20:
        raise ValueError(
            f"scale: sensitivity/epsilon = {float(scale):.3g} is too large for the exact "
            "sampler (at most 2^36); use a larger epsilon or a smaller sensitivity"
        )
    den = max(1, (_INT64_SAFE // 2) // ceiling)
    coarse = Fraction(math.ceil(scale * den), den)
    if coarse - scale > scale / 2**20:  # a tiny scale with a huge denominator
        raise ValueError(
            f"scale: sensitivity/epsilon = {float(scale):.3g} is too small for the exact "
            "sampler; use a smaller epsilon or a larger sensitivity"
        )
    return coarse


def discrete_laplace(scale: Fraction, size: int, rng: np.random.Generator) -> Int64Array:
    """``size`` exact draws with P(Z = z) ∝ exp(−|z|/scale) on the integers (scale rational)."""
    check_rng(rng)
    size = check_count(size, "size", minimum=0)
    scale = coarsen_up(rational_at_least(scale, "scale"))
    t, s = scale.numerator, scale.denominator
    out = np.empty(size, dtype=np.int64)
    filled = 0
    v_max = (INT_BOUND - t) // t  # t + t·V < 2^62: no int64 overflow (P(V > 63) < 2^-91)
    while filled < size:
        # Oversampled rejection: accepted proposals are i.i.d. from the target, so taking the
        # first ones needed keeps the law exact (acceptance is between 0.32 and 0.7).
        need = size - filled
        m = min(int(need * 1.25) + (64 if need > 256 else 8), _CHUNK)
        u = rng.integers(0, t, size=m)
        keep_u = bernoulli_exp_neg(u, t, rng)
        v = _geometric_exp_neg_one(int(keep_u.sum()), rng)
        if v.size and int(v.max()) > v_max:
            raise ValueError(
                f"scale: a noise draw exceeded 2^62 (probability below e^-{v_max}); "
                "the exact sampler refuses to wrap around"
            )
        x = u[keep_u] + t * v
        y = x // s
        negative = rng.integers(0, 2, size=y.size) == 1
        accept = ~(negative & (y == 0))
        z = np.where(negative, -y, y)[accept][: size - filled]
        out[filled : filled + z.size] = z
        filled += z.size
    return out


def bernoulli_rational(p: Fraction, size: int, rng: np.random.Generator) -> BoolArray:
    """Exact Bernoulli(p) for rational p ∈ [0, 1]."""
    check_rng(rng)
    if not isinstance(p, Fraction) or not 0 <= p <= 1:
        raise ValueError(f"p: must be in [0, 1], got {p}")
    if p.denominator > INT_BOUND:
        raise ValueError(f"p: denominator exceeds 2^62, got {p}")
    return np.asarray(rng.integers(0, p.denominator, size=size) < p.numerator)


def bernoulli_power(base: Fraction, k: Int64Array, rng: np.random.Generator) -> BoolArray:
    """Exact Bernoulli(q^{k_i}) for rational q: k_i independent Bernoulli(q) all succeed."""
    check_rng(rng)
    q = check_sampling_base(base)
    k = np.asarray(k, dtype=np.int64)
    if k.ndim != 1 or (k.size and int(k.min()) < 0):
        raise ValueError("k: expected a 1-D array of integers >= 0")
    out = np.ones(k.shape[0], dtype=np.bool_)
    remaining = k.copy()
    active = np.flatnonzero(remaining > 0)
    while active.size:
        ok = rng.integers(0, q.denominator, size=active.size) < q.numerator
        out[active[~ok]] = False
        remaining[active] -= 1
        active = active[ok & (remaining[active] > 0)]
    return out


def geometric(base: Fraction, size: int, rng: np.random.Generator) -> Int64Array:
    """P(G = g) = (1 − q) q^g for rational q = ``base`` ∈ (0, 1): expected O(size/(1 − q)) work."""
    check_rng(rng)
    q = check_sampling_base(base)
    size = check_count(size, "size", minimum=0)
    g = np.zeros(size, dtype=np.int64)
    active = np.arange(size)
    while active.size:
        ok = rng.integers(0, q.denominator, size=active.size) < q.numerator
        active = active[ok]
        g[active] += 1
    return g


def discrete_laplace_base(base: Fraction, size: int, rng: np.random.Generator) -> Int64Array:
    """P(Z = z) = (1 − q)/(1 + q) · q^{|z|}: difference of two independent geometrics."""
    return geometric(base, size, rng) - geometric(base, size, rng)


def categorical_exp_neg(a: Int64Array, d: int, size: int, rng: np.random.Generator) -> Int64Array:
    """``size`` indices i with P(i) ∝ exp(−a_i/d) (a_i integers, d ≥ 1), exactly.

    ``a`` is 1-D (one distribution for every draw) or 2-D of shape (size, K) (row j is the
    distribution of draw j). Rejection from the uniform proposal: acceptance ≥ 1/K per try.
    """
    check_rng(rng)
    d = check_count(d, "d", maximum=INT_BOUND)
    a = _bounded_ints(a, "a")
    size = check_count(size, "size", minimum=0)
    rows = _weight_rows(a, size)
    return _categorical_by_rejection(rows, lambda e: bernoulli_exp_neg(e, d, rng), rng)


def categorical_exp_gap(
    gap: Any, num: int, den: int, size: int, rng: np.random.Generator
) -> Int64Array:
    """``size`` indices i with P(i) ∝ exp(−gap_i·num/den), exactly, for any integer gaps
    0 ≤ gap_i < 2^63 with min gap = 0 (overflow-safe: :func:`exp_neg_exponents`).

    Same rejection scheme and the same draws as ``categorical_exp_neg(gap·num, den, …)``
    whenever gap·num fits in int64.
    """
    check_rng(rng)
    size = check_count(size, "size", minimum=0)
    exps = exp_neg_exponents(gap, num, den)
    k = exps.whole.shape[0]
    if exps.whole.ndim != 1 or k == 0:
        raise ValueError(f"gap: expected a non-empty 1-D array, got shape {exps.whole.shape}")
    out = np.empty(size, dtype=np.int64)
    pending = np.arange(size)
    while pending.size:
        proposal = rng.integers(0, k, size=pending.size)
        accept = bernoulli_exp_neg_exponents(exps.take(proposal), rng)
        out[pending[accept]] = proposal[accept]
        pending = pending[~accept]
    return out


def _bounded_ints(a: Any, name: str) -> Int64Array:
    """An int64 array whose row-wise differences cannot overflow: entries in [0, 2^63) (the
    gaps the mechanisms pass), or any signs with |a_i| < 2^62."""
    arr = np.asarray(a)
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"{name}: expected integers, got dtype {arr.dtype}")
    if arr.size:
        top, bottom = int(arr.max()), int(arr.min())
        if top >= 2**63 or (bottom < 0 and (top >= INT_BOUND or bottom <= -INT_BOUND)):
            raise ValueError(f"{name}: entries must be in [0, 2^63) or in (-2^62, 2^62)")
    return arr.astype(np.int64)


def categorical_base(
    a: Int64Array, base: Fraction, size: int, rng: np.random.Generator
) -> Int64Array:
    """``size`` indices i with P(i) ∝ q^{a_i}, q a rational base (a as in categorical_exp_neg)."""
    check_rng(rng)
    q = check_sampling_base(base)
    a = _bounded_ints(a, "a")
    size = check_count(size, "size", minimum=0)
    rows = _weight_rows(a, size)
    return _categorical_by_rejection(rows, lambda e: bernoulli_power(q, e, rng), rng)


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
    one = size > 0 and rows.strides[0] == 0  # one distribution for every draw: O(K) memory
    if one:
        rows = rows[:1]
    shifted = rows - rows.min(axis=1, keepdims=True)
    out = np.empty(size, dtype=np.int64)
    pending = np.arange(size)
    while pending.size:
        proposal = rng.integers(0, k, size=pending.size)
        accept = accept_with(shifted[0 if one else pending, proposal])
        out[pending[accept]] = proposal[accept]
        pending = pending[~accept]
    return out


# --- exact probabilities ------------------------------------------------------------------

Real = Fraction | float


def _bounded_exponent(base: Real, k: int, name: str) -> int:
    """k itself, checked: an exact rational base needs |k| ≤ LIMITS["exponent"] (q^k has
    O(|k|·bits) digits); a float base saturates at ±2^62 (q^k is 0.0 long before)."""
    if isinstance(base, Fraction):
        if abs(k) > LIMITS["exponent"]:
            raise ValueError(
                f"{name}: |{name}| = {abs(k)} exceeds {LIMITS['exponent']} for an exact "
                "rational base (q^k would have millions of digits); use a window nearer "
                "the value"
            )
        return k
    return max(-INT_BOUND, min(k, INT_BOUND))


def _integer(k: Any, name: str) -> int:
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
        raise ValueError(f"{name}: expected an integer, got {k!r}")
    return int(k)


def discrete_laplace_pmf(z: int, base: Real) -> Real:
    """P(Z = z) = (1 − q)/(1 + q) · q^{|z|}."""
    z = _bounded_exponent(base, _integer(z, "z"), "z")
    return (1 - base) / (1 + base) * base ** abs(z)


def discrete_laplace_sf(k: int, base: Real) -> Real:
    """P(Z ≥ k) = q^k/(1 + q) for k ≥ 0, and 1 − q^{1−k}/(1 + q) for k ≤ 0."""
    k = _bounded_exponent(base, _integer(k, "k"), "k")
    if k >= 0:
        return base**k / (1 + base)
    return 1 - base ** (1 - k) / (1 + base)


def laplace_sf(t: float, scale: float) -> float:
    """P(L > t) for L ~ Lap(scale): ½ e^{−t/b} for t ≥ 0, 1 − ½ e^{t/b} otherwise (floats)."""
    if math.isnan(t):
        raise ValueError("t: must not be NaN")
    if t >= 0:
        return 0.5 * math.exp(-t / scale)
    return 1.0 - 0.5 * math.exp(t / scale)


@dataclass(frozen=True)
class DiscreteLaplaceNoise:
    """Discrete Laplace noise on ℤ given by a rational scale or a rational base q = e^{−1/scale}.

    With a rational ``base`` every probability is a ``Fraction`` (exact verification); with a
    rational ``scale`` the sampler is the exact CKS sampler and probabilities are floats.
    Both samplers are exact: privacy does not assume ideal reals.
    """

    scale: Fraction | None = None
    base: Fraction | None = None

    def __post_init__(self) -> None:
        if (self.scale is None) == (self.base is None):
            raise ValueError("scale: give exactly one of scale or base")
        if self.base is not None:
            check_sampling_base(self.base)

    @property
    def q(self) -> Real:
        """The per-unit factor q = exp(−1/scale) of the pmf (exact when ``base`` was given)."""
        if self.base is not None:
            return self.base
        assert self.scale is not None
        return math.exp(-1 / float(self.scale))

    def sample(self, size: int, rng: np.random.Generator) -> Int64Array:
        if self.base is not None:
            return discrete_laplace_base(self.base, size, rng)
        assert self.scale is not None
        return discrete_laplace(self.scale, size, rng)

    def pmf(self, z: int) -> Real:
        return discrete_laplace_pmf(z, self.q)

    def sf(self, k: int) -> Real:
        """P(Z ≥ k)."""
        return discrete_laplace_sf(k, self.q)
