"""Goodness of fit of a target's draws against an exact law: a rigorous false alarm, exact power.

**The law.** A :class:`Law` is a finite table of outcomes with their exact probabilities (summing
to 1: infinite supports end in lumped tails, e.g. "below 3") and an ``encode`` that maps a batch
of the target's outputs to outcome indices, or to −1 for an output the law gives probability 0
(a value off the support, a non-integer where the law is on the integers, a non-lattice float).

**The test.** Before any draw, the law alone fixes a family of K events E_k (each outcome; for
ordered outcomes the lower sets {o ≤ t} and the intervals centred on the mode; for categorical
ones the sets of the j likeliest outcomes; for product laws every coordinate's marginal atoms
and lower sets). With n draws, the count of E_k is Binomial(n, P(E_k)) when the target has the
law; its exact two-sided binomial p-value is p_k = min(1, 2·min(P(X ≤ c_k), P(X ≥ c_k))), and
the test rejects when min_k K·p_k ≤ α, or when any output is impossible under the law. By the
union bound the false alarm is at most α, exactly (no asymptotics: each p_k is super-uniform).

**Power, exactly.** Against an alternative law Q on the same table, event k rejects when
c_k ≤ lo_k or c_k ≥ hi_k (critical counts of Bin(n, P(E_k)) at α/(2K) per side); under Q its
count is Bin(n, Q(E_k)), so P_Q(event k rejects) is an exact binomial sum, and the power of
the test is at least the largest of them (a rigorous lower bound: the test rejects whenever
any one event does). :func:`_draws_for_power` finds the smallest n whose bound reaches the
target (0.99 against the same algorithm at ε × 1.1 in :func:`dpspec.conform.conform`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, overload

import numpy as np
from numpy.typing import NDArray
from scipy import sparse, stats

#: false-alarm probability of one conformance run (every instance and test of it together)
ALPHA = 1e-6
#: power against the same algorithm at ε × 1.1 that the draw budget is sized for
POWER = 0.99
#: at most this many events of each kind (atoms, lower sets, centred sets, top sets)
MAX_EVENTS_PER_KIND = 256
#: largest draw budget :func:`_draws_for_power` searches
MAX_SEARCH = 10**10

FloatArray = NDArray[np.float64]
T = TypeVar("T")


class _Kept(Generic[T]):
    """Answers of a pure computation by the key of what they depend on, at most ``capacity``
    of them (the oldest dropped first)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.answers: dict[Hashable, T] = {}

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The answer kept for ``key``, else ``compute()``, then kept."""
        try:
            return self.answers[key]
        except KeyError:
            pass
        found = self.answers[key] = compute()
        if len(self.answers) > self.capacity:
            self.answers.pop(next(iter(self.answers)))
        return found


@dataclass(frozen=True)
class _Encoder:
    """How a law reads a batch of outputs: ``function(outputs, *args)`` gives each output's
    outcome index, or −1 for an output of probability 0. Kept as data (a module-level function
    and its arguments), so two laws built alike compare equal."""

    function: Callable[..., NDArray[np.int64]]
    args: tuple[Any, ...] = ()

    def __call__(self, outputs: Any) -> NDArray[np.int64]:
        return self.function(outputs, *self.args)


@dataclass(frozen=True)
class Law:
    """Exact probabilities of a finite outcome table.

    ``shape``: ``"ordered"`` (outcomes listed in increasing order, lumped tails at the ends),
    ``"categorical"`` (no order), or ``"product"`` (each outcome is a tuple of coordinates;
    ``coords[i, j]`` is the rank of outcome i's j-th coordinate among that coordinate's values).
    ``exact`` keeps the probabilities as the spec computed them (``Fraction`` where rational).
    """

    __dpspec_declarative__ = "an exact law: a table of outcomes and their probabilities"

    labels: tuple[Hashable, ...]
    probs: FloatArray
    shape: str
    encode: _Encoder
    coords: NDArray[np.int64] | None = None
    exact: tuple[Any, ...] | None = None
    note: str = ""

    def __post_init__(self) -> None:
        if self.probs.shape != (len(self.labels),):
            raise ValueError("probs: one probability per label")
        if np.any(self.probs < 0) or abs(float(self.probs.sum()) - 1.0) > 1e-9:
            raise ValueError(f"probs: not a distribution (sum {float(self.probs.sum())!r})")
        if self.shape not in ("ordered", "categorical", "product"):
            raise ValueError(f"shape: unknown {self.shape!r}")

    def with_probs(self, probs: Sequence[float] | FloatArray, note: str = "") -> Law:
        """The same table and encoding with other probabilities (an alternative law)."""
        p = np.asarray(probs, dtype=np.float64)
        return Law(self.labels, p / p.sum(), self.shape, self.encode, self.coords, None, note)


@dataclass(frozen=True)
class _Events:
    """The test's events: names and a (K, L) membership matrix over the law's outcomes."""

    names: tuple[str, ...]
    members: NDArray[np.bool_]
    #: ``members`` as a sparse matrix of 1.0s (built from it when not given)
    weights: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        # sparse: an event holds a fraction of the outcomes (one atom, a tail, an interval)
        weights = _ones(self.members) if self.weights is None else self.weights
        object.__setattr__(self, "_weights", weights)
        object.__setattr__(self, "_integer_weights", weights.astype(np.int64))
        object.__setattr__(self, "_masses", _Kept[FloatArray](_MASSES_KEPT))

    def probabilities(self, probs: FloatArray) -> FloatArray:
        """P(E_k) for every event under the outcome probabilities ``probs`` (a sum that rounds
        past 1 is 1). Kept for the last :data:`_MASSES_KEPT` tables asked (a law test reads
        its law's masses once per batch of draws): a fresh copy each time."""
        masses: _Kept[FloatArray] = self._masses  # type: ignore[attr-defined]
        weights = self._weights  # type: ignore[attr-defined]
        key = np.asarray(probs, dtype=np.float64).tobytes()
        mass = masses.get(key, lambda: np.clip(np.asarray(weights @ probs, np.float64), 0.0, 1.0))
        return mass.copy()

    def counts(self, counts: NDArray[np.int64]) -> NDArray[np.int64]:
        """The count of every event from the outcome counts (exact: integer sums); outcome
        counts of shape (L, R), R batches of draws, give the (K, R) event counts."""
        weights = self._integer_weights  # type: ignore[attr-defined]
        return np.asarray(weights @ counts, dtype=np.int64)


def _ones(members: NDArray[np.bool_]) -> Any:
    """The CSR matrix of 1.0s at the True entries of ``members`` (K, L), columns in increasing
    order in each row: what ``sparse.csr_matrix(members, dtype=np.float64)`` holds."""
    rows, size = members.shape
    flat = np.flatnonzero(members)
    indptr = np.zeros(rows + 1, dtype=np.int64)
    np.cumsum(np.count_nonzero(members, axis=1), out=indptr[1:])
    return sparse.csr_matrix((np.ones(flat.size), flat % size, indptr), shape=(rows, size))


#: the event masses :meth:`_Events.probabilities` keeps per event family (a law and the
#: alternatives its budget is sized against)
_MASSES_KEPT = 16


def _spread(count: int, limit: int) -> NDArray[np.int64]:
    """At most ``limit`` indices spread evenly over range(count)."""
    if count <= limit:
        return np.arange(count, dtype=np.int64)
    return np.unique(np.linspace(0, count - 1, limit).round().astype(np.int64))


def _event_family(law: Law) -> _Events:
    """The events the test counts (module docstring); fixed by the law alone, before any draw.
    Events of probability 0 or 1 and duplicates are dropped. Computed once per table (its
    shape, probabilities, coordinates and labels)."""
    cached: _Events | None = law.__dict__.get("_events")
    if cached is None:
        coords = None if law.coords is None else (law.coords.shape, law.coords.tobytes())
        # what the family is built from, and the functions that build it as they are now
        key = (law.shape, law.probs.tobytes(), coords, law.labels, _build_event_family, _spread)
        try:
            cached = _FAMILIES.get(key, lambda: _build_event_family(law))
        except TypeError:  # a label that cannot be hashed: the family is built, not kept
            cached = _build_event_family(law)
        object.__setattr__(law, "_events", cached)
    return cached


#: :func:`_event_family`'s families by the content they are built from (a plan and its run,
#: or two runs on one algorithm, build the same tables again)
_FAMILIES = _Kept[_Events](256)


def _build_event_family(law: Law) -> _Events:
    p = law.probs
    size = p.size
    outcomes = np.arange(size)
    blocks: list[NDArray[np.bool_]] = []  # each a (rows, L) membership block
    names: list[str] = []
    likeliest = np.argsort(-p, kind="stable")
    top = likeliest[:MAX_EVENTS_PER_KIND]
    blocks.append(outcomes[None, :] == top[:, None])
    names += [f"output = {law.labels[i]!r}" for i in top]
    if law.shape == "ordered":
        tops = _spread(size - 1, MAX_EVENTS_PER_KIND)
        blocks.append(outcomes[None, :] <= tops[:, None])
        names += [f"output <= {law.labels[t]!r}" for t in tops]
        mode = int(np.argmax(p))
        widths = _spread(size, MAX_EVENTS_PER_KIND)[1:]
        blocks.append(np.abs(outcomes - mode)[None, :] <= widths[:, None])
        names += [f"output within {int(w)} outcomes of {law.labels[mode]!r}" for w in widths]
    elif law.shape == "categorical":
        rank = np.empty(size, dtype=np.int64)
        rank[likeliest] = outcomes  # the j likeliest outcomes: those of rank < j
        js = np.arange(2, max(2, min(size, MAX_EVENTS_PER_KIND)))
        blocks.append(rank[None, :] < js[:, None])
        names += [f"output among the {j} likeliest" for j in js.tolist()]
    else:
        assert law.coords is not None
        for j in range(law.coords.shape[1]):
            col = law.coords[:, j]
            values = np.unique(col)[:, None]  # per value: the atom, then the lower set
            blocks.append(np.stack([col == values, col <= values], axis=1).reshape(-1, size))
            for v in values[:, 0].tolist():
                names += [f"coordinate {j} = value #{v}", f"coordinate {j} <= value #{v}"]
    members = np.concatenate(blocks)
    weights = _ones(members)
    mass = weights @ p  # summed as _Events sums them
    keep = np.flatnonzero((mass > 1e-300) & (mass < 1 - 1e-15))
    seen: set[bytes] = set()
    order = []
    for i, row in zip(keep.tolist(), np.packbits(members[keep], axis=1), strict=True):
        key = row.tobytes()
        if key not in seen:
            seen.add(key)
            order.append(i)
    return _Events(tuple(names[i] for i in order), members[order], weights[order])


def _critical_counts(
    n: int, mass: FloatArray, alpha_each: float
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """(lo, hi) per event: the largest c with P(Bin(n, m) ≤ c) ≤ α_each/2 (−1 if none) and
    the smallest c with P(Bin(n, m) ≥ c) ≤ α_each/2 (n + 1 if none)."""
    half = alpha_each / 2
    k = mass.size
    both = np.concatenate([mass, mass])
    # the two corrections of each side read the tail at two neighbouring counts: one call
    lo = stats.binom.ppf(half, n, mass).astype(np.int64)  # smallest c with cdf(c) >= half
    at, below = np.split(stats.binom.cdf(np.concatenate([lo, lo - 1]), n, both), [k])
    keep = at <= half
    lo = np.where(keep, lo, lo - 1)
    lo = np.where((lo >= 0) & (np.where(keep, at, below) > half), lo - 1, lo)
    hi = stats.binom.isf(half, n, mass).astype(np.int64) + 1  # smallest c with sf(c-1) <= half
    two, one = np.split(stats.binom.sf(np.concatenate([hi - 2, hi - 1]), n, both), [k])
    down = two <= half
    hi = np.where(down, hi - 1, hi)
    hi = np.where(np.where(down, two, one) > half, hi + 1, hi)
    return lo, np.minimum(hi, n + 1)


#: :func:`_critical_counts`' answers by their arguments (the budget searches against a law's
#: alternatives try the same first budgets, and a budget's power is read against each
#: alternative)
_CRITICAL = _Kept[tuple[NDArray[np.int64], NDArray[np.int64]]](1024)


def _critical_counts_kept(
    n: int, mass: FloatArray, alpha_each: float
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """:func:`_critical_counts`, answered again (read-only) for the arguments it was asked."""
    # the function as it is now: a bug planted in it (a verify control) is a different key
    key = (
        int(n),
        np.asarray(mass, dtype=np.float64).tobytes(),
        float(alpha_each),
        _critical_counts,
    )

    def compute() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        found = _critical_counts(n, mass, alpha_each)
        for counts in found:
            counts.flags.writeable = False
        return found

    return _CRITICAL.get(key, compute)


def _power_bound(law: Law, events: _Events, alternative: FloatArray, n: int, alpha: float) -> float:
    """Exact lower bound on the test's power with n draws from ``alternative``: the largest
    exact rejection probability of a single event (module docstring)."""
    return _power_at(_masses(law, events, alternative), n, alpha)


def _masses(
    law: Law, events: _Events, alternative: FloatArray
) -> tuple[FloatArray, FloatArray, float]:
    """(P(E_k) under the law, P(E_k) under the alternative, the alternative's mass on the
    outcomes the law gives probability 0): what the power depends on besides n and α."""
    null = events.probabilities(law.probs)
    alt = events.probabilities(alternative)
    impossible = float(alternative[law.probs == 0].sum()) if np.any(law.probs == 0) else 0.0
    return null, alt, impossible


def _power_at(masses: tuple[FloatArray, FloatArray, float], n: int, alpha: float) -> float:
    """:func:`_power_bound` from the masses of :func:`_masses`."""
    null, alt, impossible = masses
    k = null.size
    if k == 0:
        return 0.0
    lo, hi = _critical_counts_kept(n, null, alpha / k)
    reject = stats.binom.cdf(lo, n, alt) + stats.binom.sf(hi - 1, n, alt)
    sees_impossible = 1.0 - (1.0 - impossible) ** n
    return float(max(float(np.max(reject)), sees_impossible))


#: :func:`_draws_for_power`'s answers by the content they depend on (a plan and its control
#: run, or a conform run after its plan, size the same tables again)
_SIZED = _Kept[tuple[int, float]](1024)


def _draws_for_power(
    law: Law, alternative: FloatArray, alpha: float, power: float, limit: int = MAX_SEARCH
) -> tuple[int, float]:
    """The smallest n (to within 1%) whose :func:`_power_bound` against ``alternative`` is ≥
    ``power``, with that bound; (limit + 1, bound at limit) when even ``limit`` draws fall
    short. At most log2(limit/32) doublings, then bisections to 1% (about 7). A pure function
    of the law's shape, probabilities and coordinates (what its event family is built from),
    the alternative, α, the power and the limit (and of the functions it runs): answered
    again from those."""
    coords = None if law.coords is None else (law.coords.shape, law.coords.tobytes())
    key = (
        law.shape,
        law.probs.tobytes(),
        coords,
        np.asarray(alternative, dtype=np.float64).tobytes(),
        float(alpha),
        float(power),
        int(limit),
        # the functions the search runs, as they are now: a bug planted in one of them (a
        # verify control) is a different key, never an answer computed without it
        (_search_draws, _masses, _event_family, _build_event_family, _power_at),
        (_critical_counts_kept, _critical_counts),
    )
    return _SIZED.get(key, lambda: _search_draws(law, alternative, alpha, power, limit))


def _search_draws(
    law: Law, alternative: FloatArray, alpha: float, power: float, limit: int
) -> tuple[int, float]:
    """:func:`_draws_for_power`'s search, on the law's event family."""
    masses = _masses(law, _event_family(law), alternative)
    n = 32
    while _power_at(masses, n, alpha) < power:
        if n >= limit:
            return limit + 1, _power_at(masses, limit, alpha)
        n = min(2 * n, limit)
    lo, hi = n // 2, n
    while hi - lo > max(1, hi // 100):
        mid = (lo + hi) // 2
        if _power_at(masses, mid, alpha) >= power:
            hi = mid
        else:
            lo = mid
    return hi, _power_at(masses, hi, alpha)


@dataclass
class FitResult:
    """One goodness-of-fit test of n draws against a law: the draws, the number of events and
    the level, the p-value (after the union bound) and whether it rejected, the outputs
    impossible under the law, and the largest per-outcome discrepancy with where it is."""

    __dpspec_declarative__ = "the numbers of one law test (a result record)"

    draws: int
    events: int
    alpha: float
    pvalue: float
    rejected: bool
    impossible: int
    impossible_examples: list[str] = field(default_factory=list)
    worst_event: str = ""
    largest_discrepancy: float = 0.0
    discrepancy_at: str = ""
    observed: float = 0.0
    expected: float = 0.0
    z: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _counts_of(law: Law, outputs: Any) -> tuple[NDArray[np.int64], int, list[str]]:
    """(count per outcome, number of impossible outputs, up to 3 of them) of a batch."""
    idx = np.asarray(law.encode(outputs), dtype=np.int64).ravel()
    bad = idx < 0
    examples: list[str] = []
    if np.any(bad):
        flat = np.asarray(outputs, dtype=object)
        flat = flat.reshape(idx.size, -1) if flat.size != idx.size else flat.reshape(idx.size)
        examples = [
            repr(flat[i].tolist() if hasattr(flat[i], "tolist") else flat[i])[:80]
            for i in np.flatnonzero(bad)[:3]
        ]
    counts = np.bincount(idx[~bad], minlength=law.probs.size).astype(np.int64)
    zero = law.probs == 0
    if np.any(counts[zero]):  # listed outcomes of probability 0 are impossible too
        examples += [repr(law.labels[i]) for i in np.flatnonzero(zero & (counts > 0))[:3]]
        impossible = int(bad.sum()) + int(counts[zero].sum())
        counts = np.where(zero, 0, counts)
        return counts, impossible, examples[:3]
    return counts, int(bad.sum()), examples


@overload
def _count_test(
    law: Law, events: _Events, counts: NDArray[np.int64], n: int, union: bool = True
) -> tuple[float, int]: ...


@overload
def _count_test(
    law: Law,
    events: _Events,
    counts: NDArray[np.int64],
    n: NDArray[np.int64],
    union: bool = True,
) -> tuple[FloatArray, NDArray[np.int64]]: ...


def _count_test(
    law: Law,
    events: _Events,
    counts: NDArray[np.int64],
    n: int | NDArray[np.int64],
    union: bool = True,
) -> tuple[float, int] | tuple[FloatArray, NDArray[np.int64]]:
    """(p-value, index of the most significant event) of outcome counts from n draws: the
    smallest two-sided exact binomial p-value over the events, times K (the union bound;
    ``union=False`` leaves it out — a wrong test, kept as the control of its false alarm).

    Outcome counts of shape (L, R) with ``n`` an array of R draw counts are R batches tested
    at once: an array of R p-values and one of R indices (each the one-batch answer)."""
    batches = np.ndim(counts) == 2
    if not events.names:
        if batches:
            return np.ones(np.shape(counts)[1]), np.zeros(np.shape(counts)[1], dtype=np.int64)
        return 1.0, 0
    mass = events.probabilities(law.probs)
    c = events.counts(counts)
    if batches:
        mass = mass[:, None]  # one column per batch: every entry as a one-batch test has it
    two_sided = np.minimum(
        1.0, 2.0 * np.minimum(stats.binom.cdf(c, n, mass), stats.binom.sf(c - 1, n, mass))
    )
    k = len(events.names) if union else 1
    adjusted = np.minimum(1.0, k * two_sided)
    if batches:
        worsts = np.argmin(adjusted, axis=0)
        return np.take_along_axis(adjusted, worsts[None, :], axis=0)[0], worsts
    worst = int(np.argmin(adjusted))
    return float(adjusted[worst]), worst


def _fit_test(law: Law, outputs: Any, alpha: float, events: _Events | None = None) -> FitResult:
    """Test a batch of outputs against ``law`` at false-alarm ``alpha`` (module docstring)."""
    events = _event_family(law) if events is None else events
    counts, impossible, examples = _counts_of(law, outputs)
    n = int(counts.sum()) + impossible
    if n == 0:
        raise ValueError("outputs: no draws")
    pvalue, worst = _count_test(law, events, counts, n)
    if impossible:  # the test rejects whatever the events' counts
        pvalue = 0.0
    freq = counts / n
    gap = np.abs(freq - law.probs)
    at = int(np.argmax(gap))
    sd = np.sqrt(np.maximum(law.probs[at] * (1 - law.probs[at]) / n, 1e-300))
    return FitResult(
        draws=n,
        events=len(events.names),
        alpha=alpha,
        pvalue=pvalue,
        rejected=pvalue <= alpha,
        impossible=impossible,
        impossible_examples=examples,
        worst_event=events.names[worst] if events.names else "",
        largest_discrepancy=float(gap[at]),
        discrepancy_at=repr(law.labels[at]),
        observed=float(freq[at]),
        expected=float(law.probs[at]),
        z=float((freq[at] - law.probs[at]) / sd),
    )


def _rejections(
    law: Law, batches: Iterable[Any], alpha: float, events: _Events | None = None
) -> NDArray[np.bool_]:
    """Whether the law test at ``alpha`` rejects each batch of outputs of ``batches`` (taken
    one at a time, only its outcome counts kept): :func:`_fit_test`'s verdict on each, their
    counts tested together (:func:`_count_test` on R batches)."""
    events = _event_family(law) if events is None else events
    counted = [_counts_of(law, outputs)[:2] for outputs in batches]
    if not counted:
        return np.zeros(0, dtype=np.bool_)
    counts = np.stack([c for c, _ in counted], axis=1).reshape(law.probs.size, len(counted))
    impossible = np.array([i for _, i in counted], dtype=np.int64)
    n = counts.sum(axis=0) + impossible
    if np.any(n == 0):
        raise ValueError("outputs: no draws")
    pvalues, _ = _count_test(law, events, counts, n)
    # an impossible output rejects whatever the events' counts, as in _fit_test
    return np.asarray(np.where(impossible > 0, 0.0, pvalues) <= alpha, dtype=np.bool_)
