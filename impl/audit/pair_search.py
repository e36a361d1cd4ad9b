"""Auditing without a known worst pair: :class:`Search` says where neighbouring pairs live,
:func:`_search_and_audit` finds the ones that look most revealing and audits them (with the
audit it is handed: :func:`dpspec.audit.loop.audit` passes itself, so this module does not
import the audit loop).

**Candidates.** For a mechanism of query answers (``Search(queries=m)``, the data is the
vector of m answers, each moving by at most ``sensitivity``): StatDP's patterns and the domain
edges — the patterns moved to the ends of ``bounds``, to extreme magnitudes (10³, 10⁶, 10¹²)
and to 0, since bounded-range mechanisms (clamping, truncated noise) break at the edges — then
Hypothesis's targeted search over neighbouring vectors. For a dataset mechanism
(``Search(domain=…, relation=…)``): edge pairs (the empty dataset against one record, a
dataset of one extreme record against the other extreme, ``contribution`` records of one user
added or replaced at once) and then :mod:`dpspec.strategies`' neighbouring pairs over the
domain, steered by ``hypothesis.target``.

**Budget and α.** Each candidate costs ``screen`` draws per side; at most ``candidates`` are
screened. The screening scores (selection-stage ε bounds, maxima over many events on few
draws: they overshoot) only *rank* pairs and are never reported as bounds. The
``finalists`` best pairs are then audited with fresh draws — none of the screening draws is
reused — each at level α/F (Bonferroni over the F finalists), so the reported ε_LCB, the
largest of the F, holds with probability ≥ 1 − α: the search spends no α, the final audits
split it. The result names the chosen pair and states the budget and the split
(``AuditResult.extra["search"]``).

Hypothesis runs with its example database off and its home folder in a temporary directory:
a search leaves nothing in the working directory.
"""

from __future__ import annotations

import contextlib
import math
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Protocol, TypeVar

import numpy as np
from hypothesis import given, target
from hypothesis import strategies as st

from dpspec.audit._budget import BLOCK, audit_plan, check_budget, planned_hook, screening_plan
from dpspec.audit._candidates import statdp_patterns, targeted_search
from dpspec.audit._domains import MAX_SAMPLES, MAX_SELECTION
from dpspec.audit._selection import _screen_bound
from dpspec.audit._targets import Mechanism
from dpspec.validation import (
    Checked,
    Choice,
    Domain,
    InputTypeError,
    Instance,
    Integer,
    Pair,
    Real,
    check_real,
    example,
)

#: the relations a dataset search knows
RELATIONS = ("substitute", "add-remove")
#: magnitudes the query edges are moved to (a clamp or a truncated law shows there)
_MAGNITUDES = (0.0, 1e3, -1e3, 1e6, -1e6, 1e12, -1e12)
#: largest dimension of a query search (each pair holds 2·m numbers)
MAX_QUERIES = 10_000
#: largest number of screened candidates and of finalists
MAX_CANDIDATES = 10_000
MAX_FINALISTS = 16
#: largest dataset of a dataset search
MAX_SIZE = 10_000
#: largest finite domain of a dataset search (its records are listed and sampled from)
MAX_DOMAIN = 10**5


@example(__init__={"queries": 2}, budget={"samples": 1000, "selection": 1000})
@dataclass(frozen=True)
class Search(Checked):
    """Where the neighbouring pairs of a search live, and its budget.

    Query mechanisms: ``queries`` = m, the length of the vector of answers the mechanism takes
    as ``data`` (a scalar when m = 1), each answer moving by at most ``sensitivity`` between
    neighbours and lying in ``bounds`` when given. Dataset mechanisms: ``domain`` = the
    records (a sequence of hashable records, or ``(lo, hi)`` for real-valued records, vectors
    of length ``dim`` when given), ``relation`` "substitute" or "add-remove", datasets of at
    most ``max_size`` records, ``contribution`` records per user (user-level privacy: that
    many records of one user differ). Budget: ``candidates`` pairs screened with ``screen``
    draws per side each, then ``finalists`` pairs audited (α split among them). A finite
    ``domain`` has at most ``MAX_DOMAIN`` (10^5) records (refused before any draw: give an
    interval ``(lo, hi)`` or a representative subset); the whole budget is checked before the
    first screening draw as :func:`~dpspec.audit.audit` checks its own
    (:mod:`dpspec.audit._budget`).
    """

    queries: Annotated[int | None, Integer(1, hi=MAX_QUERIES, optional=True)] = None
    sensitivity: Annotated[float, Real(0.0, lo_open=True)] = 1.0
    bounds: Annotated[tuple[float, float] | None, Pair(Real(), optional=True)] = None
    domain: Annotated[Any, Instance(types=(tuple, list, range, np.ndarray), optional=True)] = None
    relation: Annotated[str, Choice(RELATIONS)] = "substitute"
    max_size: Annotated[int, Integer(1, hi=MAX_SIZE)] = 8
    contribution: Annotated[int, Integer(1, hi=MAX_SIZE)] = 1
    dim: Annotated[int | None, Integer(1, hi=MAX_QUERIES, optional=True)] = None
    candidates: Annotated[int, Integer(1, hi=MAX_CANDIDATES)] = 40
    screen: Annotated[int, Integer(1, hi=MAX_SELECTION)] = 10_000
    finalists: Annotated[int, Integer(1, hi=MAX_FINALISTS)] = 2

    def __post_init__(self) -> None:
        super().__post_init__()  # the declared domains
        if (self.queries is None) == (self.domain is None):
            raise ValueError(
                "search: give queries=m for a mechanism of m query answers, or domain=... for "
                "a dataset mechanism (one of the two)"
            )
        if self.bounds is not None and not self.bounds[0] < self.bounds[1]:
            raise ValueError(f"bounds: expected finite lo < hi, got {self.bounds!r}")
        if self.contribution > self.max_size:
            raise ValueError(
                f"contribution: at most max_size = {self.max_size}, got {self.contribution!r}"
            )
        if self.domain is not None and not _is_interval(self.domain):
            size = len(self.domain)
            if size > MAX_DOMAIN:
                raise ValueError(
                    f"domain: {size} records; the limit is {MAX_DOMAIN} (give an interval "
                    "(lo, hi) for real-valued records, or a representative subset)"
                )
            records = list(self.domain)
            if len(records) < 2 and self.relation == "substitute":
                raise ValueError("domain: substitution needs at least two records")
            if not records:
                raise ValueError("domain: empty")

    def budget(
        self,
        samples: Annotated[int, Integer(1, hi=MAX_SAMPLES)],
        selection: Annotated[int, Integer(0, hi=MAX_SELECTION)],
    ) -> dict[str, int]:
        """The draws the search may make, per side: screening and final audits."""
        return {
            "screened_pairs_at_most": self.candidates,
            "screen_draws_per_side_per_pair": self.screen,
            "finalists": self.finalists,
            "final_draws_per_side_per_finalist": samples + selection,
            "total_draws_per_side_at_most": self.candidates * self.screen
            + self.finalists * (samples + selection),
        }


@dataclass(frozen=True)
class _SearchSpec(Domain):
    """A :class:`Search` (the domain of :func:`dpspec.audit.audit`'s ``search``)."""

    def convert(self, value: Any, name: str) -> Any:
        if not isinstance(value, Search):
            raise InputTypeError(
                f"{name}: expected a dpspec.audit.Search, got {type(value).__name__}"
            )
        return value

    def hostile(self) -> tuple[Any, ...]:
        return (*super().hostile(), 3, "queries", {"queries": 1}, object())

    def describe(self) -> str:
        return "a dpspec.audit.Search"


#: A pair search, or None.
OptionalSearchArg = Annotated[Any, _SearchSpec(optional=True)]


def _is_interval(domain: Any) -> bool:
    return (
        isinstance(domain, tuple)
        and len(domain) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in domain)
    )


def _interval(value: Any, name: str) -> tuple[float, float]:
    if not (isinstance(value, tuple | list) and len(value) == 2):
        raise ValueError(f"{name}: expected (lo, hi), got {value!r}")
    lo, hi = (check_real(v, name) for v in value)
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise ValueError(f"{name}: expected finite lo < hi, got {value!r}")
    return lo, hi


# --- candidate pairs ---------------------------------------------------------------------------


def _query_edges(search: Search) -> list[tuple[Any, Any]]:
    """StatDP's patterns (m ≥ 2) or (a, a ± Δ) (m = 1), moved to the edges of the domain."""
    m, step = int(search.queries or 1), float(search.sensitivity)
    shapes: list[tuple[tuple[float, ...], tuple[float, ...]]]
    if m == 1:
        shapes = [((0.0,), (step,)), ((0.0,), (-step,))]
    else:
        shapes = [
            (tuple(step * a for a in p), tuple(step * b for b in q)) for p, q in statdp_patterns(m)
        ]
    lows = list(_MAGNITUDES)
    if search.bounds is not None:
        lo, hi = _interval(search.bounds, "bounds")
        lows = [lo, hi - 2 * step, (lo + hi) / 2 - step]
    out = []
    for base in lows:
        for p, q in shapes:
            a, b = tuple(base + v for v in p), tuple(base + v for v in q)
            if search.bounds is not None:
                lo, hi = search.bounds
                if not all(lo <= v <= hi for v in (*a, *b)):
                    continue
            out.append((a[0], b[0]) if m == 1 else (a, b))
    return out


def _query_strategy(search: Search) -> st.SearchStrategy[tuple[Any, Any]]:
    m, step = int(search.queries or 1), float(search.sensitivity)
    lo, hi = search.bounds if search.bounds is not None else (-1e6, 1e6)
    value = st.floats(lo, hi - step, allow_nan=False, allow_infinity=False)
    move = st.sampled_from([-step, 0.0, step])

    def build(args: tuple[list[float], list[float]]) -> tuple[Any, Any]:
        q, d = args
        b = [min(max(v + s, lo), hi) for v, s in zip(q, d, strict=True)]
        return (q[0], b[0]) if m == 1 else (tuple(q), tuple(b))

    vectors = st.lists(value, min_size=m, max_size=m)
    steps = st.lists(move, min_size=m, max_size=m)
    return st.tuples(vectors, steps).map(build)


def _records(search: Search) -> list[Any]:
    """Extreme records of the domain: the ends of an interval (as vectors when ``dim`` is
    given), or the first, last, smallest and largest of a finite domain."""
    if _is_interval(search.domain):
        lo, hi = _interval(search.domain, "domain")
        ends: list[Any] = [lo, hi, (lo + hi) / 2]
        if search.dim is not None:
            ends = [tuple([v] * int(search.dim)) for v in ends]
        return ends
    records = list(search.domain)
    with contextlib.suppress(TypeError):
        records = [min(records), max(records), *records]
    seen: list[Any] = []
    for r in records:
        if r not in seen:
            seen.append(r)
            if len(seen) == 6:
                break
    return seen


def _dataset_edges(search: Search) -> list[tuple[Any, Any]]:
    """The empty dataset against ``contribution`` copies of an extreme record (add-remove),
    or a dataset of one extreme record against the other (substitute), at sizes 1 and
    ``max_size``."""
    ends = _records(search)
    k = int(search.contribution)
    out: list[tuple[Any, Any]] = []
    for size in sorted({k, int(search.max_size)}):
        for r in ends:
            for s in ends:
                if search.relation == "add-remove":
                    base = (s,) * (size - k)
                    if r == s or size - k < 0:
                        out.append((base, base + (r,) * k))
                elif r != s:
                    base = (s,) * (size - k)
                    out.append((base + (r,) * k, base + (s,) * k))
    unique: list[tuple[Any, Any]] = []
    for pair in out:
        if pair not in unique:
            unique.append(pair)
    return unique


def _dataset_strategy(search: Search) -> st.SearchStrategy[tuple[Any, Any]]:
    """:mod:`dpspec.strategies`' neighbouring pairs over the domain, with ``contribution``
    records of one user differing (repeated single-record steps of the relation)."""
    from dpspec.spec.neighbours import Relation
    from dpspec.strategies import continuous_neighbouring_pairs, neighbouring_pairs

    relation = Relation(search.relation)
    k = int(search.contribution)
    if _is_interval(search.domain):
        lo, hi = _interval(search.domain, "domain")
        base = continuous_neighbouring_pairs(
            lo, hi, relation, min_size=k, max_size=int(search.max_size), dim=search.dim
        ).map(lambda p: (_rows(p[0]), _rows(p[1])))
    else:
        records = tuple(search.domain)
        lo_size = 1 if search.relation == "substitute" else 0
        base = neighbouring_pairs(
            records, relation, min_size=lo_size, max_size=int(search.max_size)
        )
    if k == 1:
        return base

    @st.composite
    def grouped(draw: Any) -> tuple[Any, Any]:
        first, second = draw(base)
        if len(first) == len(second):  # substitution: replace k positions by the new record
            new = next(b for a, b in zip(first, second, strict=True) if a != b)
            where = draw(st.lists(st.integers(0, len(first) - 1), min_size=1, max_size=k))
            second = tuple(new if i in where else a for i, a in enumerate(first))
            return first, second
        small, large = (first, second) if len(first) < len(second) else (second, first)
        extra = next(
            (b for i, b in enumerate(large) if i >= len(small) or small[i] != b), large[-1]
        )
        grown = small + (extra,) * draw(st.integers(1, k))
        return (small, grown) if small is first else (grown, small)

    return grouped()


def _rows(values: Any) -> tuple[Any, ...]:
    arr = np.asarray(values)
    return tuple(v.item() if arr.ndim == 1 else tuple(v.tolist()) for v in arr)


@contextlib.contextmanager
def _private_hypothesis_home() -> Iterator[None]:
    """Hypothesis's home folder in a temporary directory for the duration of a search (its
    example database is off as well): nothing is written to the working directory."""
    import hypothesis.configuration as configuration

    previous = getattr(configuration, "__hypothesis_home_directory", None)
    with tempfile.TemporaryDirectory(prefix="dpspec-hypothesis-") as home:
        configuration.set_hypothesis_home_dir(home)
        try:
            yield
        finally:
            configuration.set_hypothesis_home_dir(previous)


# --- the search --------------------------------------------------------------------------------


def _edges(search: Search) -> list[tuple[Any, Any]]:
    """The edge pairs of a search, screened first (:func:`_query_edges`,
    :func:`_dataset_edges`)."""
    return _query_edges(search) if search.queries is not None else _dataset_edges(search)


def _screen_pairs(
    mechanism: Mechanism,
    search: Search,
    delta: float,
    alpha: float,
    rng: np.random.Generator,
) -> list[tuple[float, Any]]:
    """Screening scores of the candidate pairs: the edge pairs first, then Hypothesis's
    targeted examples, up to ``search.candidates`` in all; (score, pair), best first."""
    edges = _edges(search)
    scored: list[tuple[float, Any]] = []
    for pair in edges[: search.candidates]:
        scored.append((_screen_bound(mechanism, pair, search.screen, rng, delta, alpha), pair))
    left = search.candidates - len(scored)
    if left > 0:
        strategy = (
            _query_strategy(search) if search.queries is not None else _dataset_strategy(search)
        )

        @targeted_search(left)
        @given(strategy)
        def probe(pair: tuple[Any, Any]) -> None:
            if len(scored) >= search.candidates:
                return
            value = _screen_bound(mechanism, pair, search.screen, rng, delta, alpha)
            target(value if math.isfinite(value) else math.copysign(1e6, value))
            scored.append((value, pair))

        with _private_hypothesis_home():
            probe()
    order = sorted(range(len(scored)), key=lambda i: -scored[i][0])  # stable: edges first
    return [scored[i] for i in order]


class _Audited(Protocol):
    """What the search reads and sets on the results of the audit it is handed (an
    :class:`~dpspec.audit.loop.AuditResult`)."""

    epsilon_lower: float
    pair: tuple[Any, Any]
    samples_per_side: int
    selection_samples: int
    confidence: float
    pair_source: str
    extra: dict[str, Any]
    finalists: list[Any]


_Result = TypeVar("_Result", bound=_Audited)


def _search_and_audit(
    mechanism: Mechanism,
    search: Search,
    epsilon: float,
    delta: float,
    confidence: float,
    rng: np.random.Generator,
    options: dict[str, Any],
    audit: Callable[..., _Result],
) -> _Result:
    """Screen the candidates, audit the ``finalists`` best pairs with fresh draws at α/F
    each, report the largest bound (see the module docstring). ``options``: the other audit
    options (samples, selection, events, jobs); ``audit``: the audit of one pair
    (:func:`dpspec.audit.loop.audit`, which hands itself over), called per finalist as
    ``audit(mechanism, pair, epsilon, delta, confidence=..., seed=rng, **options)``."""
    if not isinstance(search, Search):
        raise TypeError(f"search: expected a dpspec.audit.Search, got {search!r}")
    alpha = 1.0 - confidence
    final = audit_plan(options["samples"], options["selection"], options["jobs"], BLOCK)
    if options.get("event") is not None:
        final = audit_plan(options["samples"], 0, options["jobs"], BLOCK)
    plan = screening_plan(search.candidates, search.screen, final, search.finalists)
    edges = _edges(search)
    check_budget(
        mechanism,
        edges[0][0] if edges else None,
        plan,
        options.get("max_seconds"),
        "search",
        planned_hook(options.get("progress")),
    )
    scored = _screen_pairs(mechanism, search, delta, alpha, rng)
    if not scored:
        raise ValueError("search: no candidate pair could be formed from the domain")
    finalists = _distinct([pair for _, pair in scored])[: search.finalists]
    share = alpha / len(finalists)
    audits = [
        audit(
            mechanism, pair, epsilon, delta, confidence=1.0 - share, seed=rng, **options
        )
        for pair in finalists
    ]  # fmt: skip
    best = max(range(len(audits)), key=lambda i: audits[i].epsilon_lower)
    result = audits[best]
    samples, selection = result.samples_per_side, result.selection_samples
    result.confidence = confidence
    result.pair_source = "search"
    result.extra["search"] = {
        "kind": "queries" if search.queries is not None else "datasets",
        "relation": None if search.queries is not None else search.relation,
        "contribution": search.contribution,
        "budget": search.budget(samples, selection),
        "screened_pairs": len(scored),
        "alpha": {"search": 0.0, "final": alpha, "per_finalist": share},
        "chosen_pair": [repr(result.pair[0]), repr(result.pair[1])],
        "finalists": [
            {
                "pair": [repr(a.pair[0]), repr(a.pair[1])],
                "epsilon_lower": a.epsilon_lower if math.isfinite(a.epsilon_lower) else "-inf",
                "confidence": 1.0 - share,
            }
            for a in audits
        ],
        "screening_scores_not_bounds": [s for s, _ in scored[: 2 * search.finalists]],
    }
    result.finalists = audits
    return result


def _distinct(pairs: Sequence[Any]) -> list[Any]:
    out: list[Any] = []
    for pair in pairs:
        if not any(repr(pair) == repr(seen) for seen in out):
            out.append(pair)
    return out
