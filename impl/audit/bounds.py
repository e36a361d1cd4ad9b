"""Confidence bounds and the ε lower bound they certify.

One-sided Clopper–Pearson bounds for a binomial count (exact: P(p ≥ cp_lower) ≥ 1 − α), the
Wilson score bound used only to rank candidate events, and ε_LCB = ln((p₁⁻ − δ)/p₂⁺): if M is
(ε, δ)-DP on the pair and both bounds hold, ε_LCB ≤ ε (the CrossHair lemma
``dpspec.proofs.topics.audit.lemmas.lower_bound_sound``).

The public functions check their arguments (a count or an array of counts, a probability or an
array of probabilities, α in (0, 1)); the auditor's loops call the unchecked kernels
(``_cp_lower``, ``_cp_upper``, ``_epsilon_lower``) on arguments it has already checked.
"""

from __future__ import annotations

import functools
import math
from collections import OrderedDict
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import special

from dpspec.audit._domains import (
    ConfidenceArg,
    CountsArg,
    DrawsArg,
    ErrorLevelArg,
    ProbabilitiesArg,
)
from dpspec.validation import DeltaArg, checked, example


def _counts(k: NDArray[np.float64], n: NDArray[np.float64]) -> None:
    """Refuse counts k above their totals n (or shapes that do not broadcast)."""
    try:
        over = np.broadcast_to(k > n, np.broadcast(k, n).shape)
    except ValueError as exc:
        raise ValueError(f"k: shape {k.shape} does not match n's {n.shape}") from exc
    if np.any(over) or np.any(n == 0):
        raise ValueError("k: every count must be at most its n (and n ≥ 1)")


@checked
@example(__call__={"k": 5, "n": 10, "alpha": 0.05})
def cp_lower(k: CountsArg, n: CountsArg, alpha: ErrorLevelArg) -> NDArray[np.float64]:
    """One-sided Clopper–Pearson lower bound on p from k successes in n draws:
    P(p ≥ bound) ≥ 1 − alpha (0 when k = 0)."""
    _counts(k, n)
    return _cp_lower(k, n, alpha)


@checked
@example(__call__={"k": 5, "n": 10, "alpha": 0.05})
def cp_upper(k: CountsArg, n: CountsArg, alpha: ErrorLevelArg) -> NDArray[np.float64]:
    """One-sided Clopper–Pearson upper bound on p from k successes in n draws:
    P(p ≤ bound) ≥ 1 − alpha (1 when k = n)."""
    _counts(k, n)
    return _cp_upper(k, n, alpha)


#: one count (not an array of counts): the kernels' scalar path
_COUNT = (int, np.integer)


def _cp_lower(k: Any, n: Any, alpha: float) -> NDArray[np.float64]:
    """The kernel of :func:`cp_lower` (arguments already checked). One count (the estimation
    stage bounds its events one at a time) takes the same ``betaincinv`` without the array
    machinery (:func:`_cp_lower_one`)."""
    if isinstance(k, _COUNT) and isinstance(n, _COUNT):
        return np.asarray(_cp_lower_one(int(k), int(n), alpha))
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    if n.ndim == 0:  # counts out of one total (the auditor's loops): no broadcasting
        out = np.zeros(k.shape)
        pos = k > 0
        hit = k[pos]
        out[pos] = special.betaincinv(hit, n - hit + 1, alpha)
        return out
    out = np.zeros(np.broadcast(k, n).shape)
    pos = np.broadcast_to(k > 0, out.shape)
    kk, nn = np.broadcast_to(k, out.shape), np.broadcast_to(n, out.shape)
    out[pos] = special.betaincinv(kk[pos], nn[pos] - kk[pos] + 1, alpha)
    return out


#: distinct (k, n, α) whose one-count lower bounds are kept: replicate audits of one budget
#: bound the same few counts at the same levels
_ONE_KEPT = 1 << 16


@functools.lru_cache(maxsize=_ONE_KEPT)
def _cp_lower_one(k: int, n: int, alpha: float) -> float:
    """The Clopper–Pearson lower bound of one count k out of n (a pure function of its
    arguments: kept for the last ``_ONE_KEPT`` distinct ones)."""
    return float(special.betaincinv(k, n - k + 1, alpha)) if k > 0 else 0.0


class _LowerTables:
    """Clopper–Pearson lower bounds of integral counts out of n at a level, each computed once:
    a table of the n + 1 bounds per (n, level), NaN where not yet asked for; the last ``keep``
    tables are kept, for n ≤ ``largest`` (beyond, every call computes its bounds)."""

    def __init__(self, keep: int, largest: int) -> None:
        self.keep = keep
        self.largest = largest
        self._tables: OrderedDict[tuple[int, float], NDArray[np.float64]] = OrderedDict()

    def _table(self, n: int, level: float) -> NDArray[np.float64]:
        key = (n, level)
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = np.full(n + 1, np.nan)
            if len(self._tables) > self.keep:
                self._tables.popitem(last=False)
        else:
            self._tables.move_to_end(key)
        return table

    def lower(self, counts: NDArray[np.float64], n: int, level: float) -> NDArray[np.float64]:
        """``_cp_lower(counts, n, level)`` for integral float counts in [0, n]."""
        if n > self.largest:
            return _cp_lower(counts, float(n), level)
        table = self._table(n, level)
        at = counts.astype(np.intp)
        got = table[at]
        missing = np.isnan(got)
        if missing.any():
            got[missing] = table[at[missing]] = _cp_lower(counts[missing], float(n), level)
        return got

    def upper(self, counts: NDArray[np.float64], n: int, level: float) -> NDArray[np.float64]:
        """``_cp_upper(counts, n, level)`` for integral float counts in [0, n]."""
        return 1.0 - self.lower(n - counts, n, level)


def _cp_upper(k: Any, n: Any, alpha: float) -> NDArray[np.float64]:
    """The kernel of :func:`cp_upper` (arguments already checked)."""
    if isinstance(k, _COUNT) and isinstance(n, _COUNT):
        return np.asarray(1.0 - float(_cp_lower(int(n) - int(k), int(n), alpha)))
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    return 1.0 - _cp_lower(n - k, n, alpha)


#: candidates whose exact Clopper–Pearson bound is computed after the Wilson ranking
_EXACT_TOP = 64


def _wilson(k: Any, n: int, alpha: float, lower: bool) -> NDArray[np.float64]:
    """One-sided Wilson score bound (a fast proxy used only to rank candidate events) for
    counts k (integers in [0, n]); more counts than n + 1 are read off the bounds of 0..n."""
    counts = np.asarray(k, dtype=np.float64)
    if counts.size > n + 1:  # the same elementwise formula, once per possible count
        every = _wilson(np.arange(n + 1, dtype=np.float64), n, alpha, lower)
        return every[counts.astype(np.intp)]
    z = float(special.ndtri(1 - alpha))
    p = counts / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return np.clip(centre - half if lower else centre + half, 0.0, 1.0)


#: largest n whose Wilson ranking terms are tabulated (:func:`_rough_epsilon_lower`)
_RANK_TABLE_MAX = 1 << 14


@functools.lru_cache(maxsize=128)
def _wilson_logs(n: int, alpha: float, delta: float, lower: bool) -> NDArray[np.float64]:
    """The terms of ε_LCB from Wilson bounds, per possible count 0..n (read-only, shared):
    ln(lower bound − δ) (−inf where it is ≤ 0) for ``lower``, else ln(upper bound) (+inf
    where it is 0)."""
    every = _wilson(np.arange(n + 1, dtype=np.float64), n, alpha, lower)
    if lower:
        every = every - delta
    positive = every > 0
    out = np.log(every, out=np.full(n + 1, -np.inf if lower else np.inf), where=positive)
    out.setflags(write=False)
    return out


def _rough_epsilon_lower(
    k1: NDArray[np.float64], n1: int, k2: NDArray[np.float64], n2: int, alpha: float, delta: float
) -> NDArray[np.float64]:
    """``_epsilon_lower`` of the Wilson lower bound of k₁ out of n₁ and the Wilson upper bound
    of k₂ out of n₂, both at ``alpha`` (equal-length arrays of integral counts): the ranking
    of candidate events, read off per-count tables (:func:`_wilson_logs`) up to n =
    ``_RANK_TABLE_MAX``."""
    if max(n1, n2) > _RANK_TABLE_MAX:
        return _epsilon_lower(
            _wilson(k1, n1, alpha, lower=True), _wilson(k2, n2, alpha, lower=False), delta
        )
    top = _wilson_logs(n1, alpha, delta, True)[k1.astype(np.intp)]
    return top - _wilson_logs(n2, alpha, 0.0, False)[k2.astype(np.intp)]


@checked
@example(__call__={"p1_lo": 0.5, "p2_hi": 0.25, "delta": 0.0})
def epsilon_lower(
    p1_lo: ProbabilitiesArg, p2_hi: ProbabilitiesArg, delta: DeltaArg
) -> NDArray[np.float64]:
    """ε_LCB = ln((p₁⁻ − δ)/p₂⁺) from a lower bound on P(M(D) ∈ E) and an upper bound on
    P(M(D') ∈ E); −inf when p₁⁻ ≤ δ (no evidence)."""
    return _epsilon_lower(p1_lo, p2_hi, delta)


def _epsilon_lower(p1_lo: Any, p2_hi: Any, delta: float) -> NDArray[np.float64]:
    """The kernel of :func:`epsilon_lower` (arguments already checked)."""
    if type(p1_lo) is float and type(p2_hi) is float:
        top = p1_lo - delta
        if top > 0 and p2_hi > 0:
            return np.asarray(float(np.log(top)) - float(np.log(p2_hi)))
        return np.asarray(-np.inf)
    num = np.asarray(p1_lo, dtype=np.float64) - delta
    den = np.asarray(p2_hi, dtype=np.float64)
    if num.shape == den.shape:  # the candidates of a family: no broadcasting
        ok = (num > 0) & (den > 0)
        out = np.log(num, out=np.full(num.shape, -np.inf), where=ok)
        logs = np.log(den, out=np.empty(den.shape), where=ok)  # read only where ok
        return np.subtract(out, logs, out=out, where=ok)
    out = np.full(np.broadcast(num, den).shape, -np.inf)
    ok = np.broadcast_to((num > 0) & (den > 0), out.shape)
    np.log(np.broadcast_to(num, out.shape), out=out, where=ok)
    out[ok] -= np.log(np.broadcast_to(den, out.shape)[ok])
    return out


def _plug_in(p1: float, p2: float, delta: float) -> float:
    """ln((p₁ − δ)/p₂) from point estimates: +inf when p₂ = 0 < p₁ − δ, −inf when p₁ ≤ δ."""
    if p1 - delta <= 0:
        return -math.inf
    return math.inf if p2 == 0 else math.log((p1 - delta) / p2)


@checked
def max_epsilon_lower(
    samples: DrawsArg, confidence: ConfidenceArg = 0.95, delta: DeltaArg = 0.0
) -> float:
    """The largest ε_LCB an audit with ``samples`` draws per side can report: every draw on
    one side in the event, none on the other (p₁⁻ = (α/2)^{1/N}, p₂⁺ = 1 − (α/2)^{1/N})."""
    return _max_epsilon_lower(samples, confidence, delta)


def _max_epsilon_lower(samples: int, confidence: float, delta: float) -> float:
    """The kernel of :func:`max_epsilon_lower` (arguments already checked)."""
    alpha = 1.0 - confidence
    top = float(_cp_lower(samples, samples, alpha / 2))
    return float(_epsilon_lower(top, float(_cp_upper(0, samples, alpha / 2)), delta))
