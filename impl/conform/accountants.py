"""``conform_accountant(target)``: does a third-party privacy accountant report a safe ε(δ)?

A *target* is an accountant asked for ε(δ) of a composition the grid names
(:data:`GRID`: the Gaussian or Laplace mechanism, noise multiplier σ, sampling at rate q,
T steps, a neighbouring relation, a target δ). Each answer is compared with the certified
interval [ε_lo, ε_hi] of the reference accountant, which contains the true ε(δ) = the smallest
ε ≥ 0 with δ(ε) ≤ δ (the privacy curve of the composition: Balle, Barthe & Gaboardi 2018,
"Privacy amplification by subsampling: tight analyses via couplings and divergences",
NeurIPS; Sommer, Meiser & Mohammadi 2019, "Privacy loss classes: the central limit theorem in
differential privacy", PoPETs). The verdict of one row (:func:`judge`):

* **unsafe** — the reported ε is below ε_lo: the composition is *not* (ε, δ)-DP at the
  reported ε (δ(ε) > δ there, since δ(·) decreases and ε_lo < ε(δ) or ε_lo = 0 ≤ ε(δ)):
  a privacy bug;
* **conforms** — ε_lo ≤ ε ≤ ε_hi + max(r·ε_hi, :data:`ABSOLUTE_SLACK`), r the stated
  looseness (default :data:`LOOSENESS`, 10%): a valid bound, at most that far above the truth;
* **loose** — above that: valid (ε ≥ ε(δ)) but wasteful;
* **not expressible** — the library cannot state this composition (its relation, sampling
  or mechanism is not among its calls): no verdict;
* **no reference** — the reference cannot certify the row (see below): no verdict;
* **error** — the target raised, or returned something other than a real number ≥ 0 (a
  negative ε is not a value of ε(δ): ε ≥ 0 by definition).

The run's verdict is *unsafe* if any row is, else *loose* if any is, else *conforms* if any
row was judged, else *not judged*.

**The reference** is the certified catalogue of :mod:`dpspec.accounting.compositions`:
:func:`dpspec.accounting.epsilon_interval` (closed forms where they exist — the unsubsampled
Gaussian μ-composition, μ = √T/σ (Dong, Roth & Su 2022, "Gaussian differential privacy", JRSS
B; Balle & Wang 2018, ICML), the pure Laplace sum — and a grid with every error bounded
otherwise: Poisson sampling under add/remove, sampling without replacement under
substitution, both directions of each relation kept apart). Its units are the rows' units:
the noise multiplier is the standard deviation (the Laplace scale) over the sensitivity
*under the composition's relation*. A row it refuses (a ValueError) is *no reference*, with
its reason. Its brackets can be wide where floats cannot resolve δ (at δ = 10^-12 on the grid
path ε_hi may be ∞): a report is then judged against the bracket as it is — only a report
below ε_lo is called unsafe, and ε_lo is certified.

The guarantees checked of this module are ``conform.accountant-reference-closed-form`` and
``conform.accountant-verdicts`` (``dpspec verify --only conform.accountant``); the library
table is ``proofs/notes/conformance-accountants.md`` (``benchmarks/conform_accountants.py``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Any

from dpspec.accounting import Bracket, Composition, epsilon_interval
from dpspec.validation import (
    Checked,
    Domain,
    Function,
    InputTypeError,
    Instance,
    Real,
    checked,
    example,
)

#: the mechanisms, samplings and relations a composition names
MECHANISMS = ("gaussian", "laplace")
SAMPLINGS = ("none", "poisson", "without_replacement")
RELATIONS = ("add_remove", "substitution")
#: the verdicts of one row, of the run
ROW_VERDICTS = ("unsafe", "conforms", "loose", "not expressible", "no reference", "error")
VERDICTS = ("unsafe", "loose", "conforms", "not judged")
#: the default looseness r: a report up to ε_hi·(1 + r) conforms
LOOSENESS = 0.1
#: a report within this many nats above ε_hi is never called loose (ε_hi = 0 rows)
ABSOLUTE_SLACK = 1e-3
#: A target δ ∈ [0, 1).
TargetDeltaArg = Annotated[float, Real(0.0, 1.0, hi_open=True, clean=1e-5)]
#: The stated looseness r ≥ 0.
LoosenessArg = Annotated[float, Real(0.0, 100.0, clean=LOOSENESS)]


class NotExpressible(Exception):
    """Raised by a target that cannot state a composition (its message says why): the row gets
    no verdict."""


#: A composition of the reference's catalogue.
CompositionArg = Annotated[
    Composition,
    Instance(
        types=(Composition,), clean=Composition("gaussian", 1.0, "none", 1.0, 1, "add_remove")
    ),
]


def _label(composition: Composition) -> str:
    """A short name of a composition (what the reports print)."""
    c = composition
    sampled = "" if c.sampling == "none" else f" {c.sampling} q={c.rate:g}"
    return f"{c.mechanism} σ={c.noise:g}{sampled} T={c.steps} {c.relation}"


# --- the grid -------------------------------------------------------------------------------


@example(
    __init__={
        "composition": Composition("gaussian", 1.0, "none", 1.0, 1, "add_remove"),
        "delta": 1e-5,
    }
)
@dataclass(frozen=True)
class Row(Checked):
    """One question asked of an accountant: ε(``delta``) of ``composition``."""

    composition: CompositionArg
    delta: TargetDeltaArg

    @property
    def label(self) -> str:
        return f"{_label(self.composition)} δ={self.delta:g}"


def _grid() -> tuple[Row, ...]:
    """The boundary grid: Gaussian σ ∈ {0.5, 10} × q ∈ {10^-4, 0.01, 1 (no sampling)} ×
    T ∈ {1, 100, 10^4} × δ ∈ {10^-5, 10^-12, 0.1} under add/remove (Poisson); T = 100,
    δ = 10^-5 under substitution, unsampled and sampled without replacement at 0.01; Laplace
    b ∈ {1, 10}, one step at each δ and T ∈ {100, 10^4} at δ = 0."""
    rows: list[Row] = []
    for noise in (0.5, 10.0):
        for rate in (1e-4, 0.01, 1.0):
            sampling = "none" if rate == 1 else "poisson"
            for steps in (1, 100, 10**4):
                c = Composition("gaussian", noise, sampling, rate, steps, "add_remove")
                rows += [Row(c, d) for d in (1e-5, 1e-12, 0.1)]
        for rate in (0.01, 1.0):
            sampling = "none" if rate == 1 else "without_replacement"
            c = Composition("gaussian", noise, sampling, rate, 100, "substitution")
            rows.append(Row(c, 1e-5))
    for noise in (1.0, 10.0):
        one = Composition("laplace", noise, "none", 1.0, 1, "add_remove")
        rows += [Row(one, d) for d in (1e-5, 1e-12, 0.1)]
        for t in (100, 10**4):
            rows.append(Row(Composition("laplace", noise, "none", 1.0, t, "add_remove"), 0.0))
    return tuple(rows)


#: every row :func:`conform_accountant` asks by default
GRID: tuple[Row, ...] = _grid()


@dataclass(frozen=True)
class _Rows(Domain):
    """A non-empty sequence of :class:`Row` (None: the whole :data:`GRID`)."""

    def convert(self, value: Any, name: str) -> tuple[Row, ...]:
        if isinstance(value, str | bytes) or not isinstance(value, Sequence) or not value:
            raise InputTypeError(f"{name}: expected a non-empty sequence of Row")
        for i, r in enumerate(value):
            if not isinstance(r, Row):
                raise InputTypeError(f"{name}[{i}]: expected a Row, got {type(r).__name__}")
        return tuple(value)

    def hostile(self) -> tuple[Any, ...]:
        return (*super().hostile(), (), [], "rows", 3, [1.0])

    def describe(self) -> str:
        return "a non-empty sequence of Row"


# --- the verdicts ---------------------------------------------------------------------------


#: A certified interval [ε_lo, ε_hi] (compared exactly: a Fraction end is not rounded).
IntervalArg = Annotated[
    Bracket, Instance(types=(Bracket,), clean=Bracket(Fraction(9, 10), Fraction(1)))
]


@example(__call__={"reported": 1.0})
@checked
def judge(
    reported: Annotated[float, Real(infinite=True)],
    interval: IntervalArg,
    looseness: LoosenessArg = LOOSENESS,
) -> str:
    """The verdict of a reported ε against the certified ``interval`` [ε_lo, ε_hi] ∋ ε(δ):
    "unsafe" below ε_lo, "conforms" up to ε_hi + max(r·ε_hi, ABSOLUTE_SLACK), "loose" above
    (compared exactly: a float against a Fraction end is not rounded)."""
    if reported < interval.lo:
        return "unsafe"
    hi = interval.hi
    if reported <= hi + max(looseness * hi, ABSOLUTE_SLACK):
        return "conforms"
    return "loose"


@dataclass
class RowReport:
    """What was found on one row (every number is in :meth:`to_json`); ``seconds`` is the
    wall-clock time the target took (not part of the report's value)."""

    __dpspec_declarative__ = "the numbers and verdict of one row (a result record)"

    label: str
    delta: float
    reported: float | None
    lo: float | None
    hi: float | None
    verdict: str
    why: str
    _seconds: float = field(default=0.0, repr=False, compare=False)

    @property
    def seconds(self) -> float:
        return self._seconds

    def to_json(self) -> dict[str, Any]:
        def num(x: float | None) -> float | str | None:
            return x if x is None or math.isfinite(x) else str(x)

        return {
            "row": self.label,
            "delta": self.delta,
            "reported": num(self.reported),
            "epsilon_lo": num(self.lo),
            "epsilon_hi": num(self.hi),
            "verdict": self.verdict,
            "why": self.why,
            "seconds": self.seconds,
        }


@dataclass
class AccountantResult:
    """The verdict of one :func:`conform_accountant` run, with every row's report."""

    __dpspec_declarative__ = "the verdict of one accountant conformance run (a result record)"

    target: str
    looseness: float
    rows: list[RowReport]
    notes: list[str] = field(default_factory=list)

    def count(self, verdict: str) -> int:
        return sum(r.verdict == verdict for r in self.rows)

    @property
    def verdict(self) -> str:
        return _overall([r.verdict for r in self.rows])

    @property
    def exit_code(self) -> int:
        return 0 if self.verdict in ("conforms", "loose") else 1

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "looseness": self.looseness,
            "absolute_slack": ABSOLUTE_SLACK,
            "verdict": self.verdict,
            "counts": {v: self.count(v) for v in ROW_VERDICTS},
            "rows": [r.to_json() for r in self.rows],
            "notes": self.notes,
        }

    def lines(self) -> list[str]:
        """The report as text lines (what ``dpspec conform … --as accountant`` prints)."""
        out = [f"{self.target} as a privacy accountant, {len(self.rows)} rows"]
        out += [f"  note: {n}" for n in self.notes]
        for r in self.rows:
            shown = "—" if r.reported is None else f"{r.reported:.6g}"
            interval = "—" if r.lo is None else f"[{r.lo:.6g}, {r.hi:.6g}]"
            out.append(f"  [{r.verdict.upper()}] {r.label}: ε {shown} vs {interval}; {r.why}")
        counts = ", ".join(f"{self.count(v)} {v}" for v in ROW_VERDICTS if self.count(v))
        out.append(
            f"verdict: {self.verdict} ({counts}; conforms = inside the certified interval or "
            f"above it by at most {self.looseness:g} of ε_hi or {ABSOLUTE_SLACK:g})"
        )
        return out


def _overall(verdicts: list[str]) -> str:
    """The run's verdict from its rows': unsafe, else loose, else conforms, else not judged."""
    for v in ("unsafe", "loose", "conforms"):
        if v in verdicts:
            return v
    return "not judged"


def _as_epsilon(value: Any) -> float:
    """A target's answer as a float (a real number, ∞ allowed), or TypeError."""
    number = isinstance(value, int | float | Fraction) and not isinstance(value, bool)
    if not number and (not hasattr(value, "__float__") or isinstance(value, str | bytes)):
        raise TypeError(f"returned {type(value).__name__} {value!r:.40}, not a real number")
    x = float(value)
    if math.isnan(x) or x < 0:
        raise TypeError(f"returned {x!r} (ε(δ) is the smallest ε ≥ 0 with δ(ε) ≤ δ)")
    return x


def _row(target: Callable[..., Any], row: Row, looseness: float) -> RowReport:
    """Ask ``target`` one row and judge its answer."""
    start = time.perf_counter()
    missing = ""
    try:
        interval = epsilon_interval(row.composition, row.delta)
    except ValueError as exc:
        interval = None
        missing = str(exc).partition(": ")[2]
    lo = None if interval is None else float(interval.lo)
    hi = None if interval is None else float(interval.hi)

    def report(reported: float | None, verdict: str, why: str) -> RowReport:
        return RowReport(
            row.label,
            row.delta,
            reported=reported,
            lo=lo,
            hi=hi,
            verdict=verdict,
            why=why,
            _seconds=time.perf_counter() - start,
        )

    try:
        reported = _as_epsilon(target(row.composition, row.delta))
    except NotExpressible as exc:
        verdict, why = ("not expressible", str(exc)) if interval else ("no reference", missing)
        return report(None, verdict, why)
    except Exception as exc:  # a library's failure is that row's finding, not the run's
        return report(None, "error", f"{type(exc).__name__}: {exc}".splitlines()[0][:200])
    if interval is None:
        return report(reported, "no reference", missing)
    verdict = judge(reported, interval, looseness)
    return report(
        reported, verdict, _why(verdict, reported, float(interval.lo), float(interval.hi))
    )


def _why(verdict: str, reported: float, lo: float, hi: float) -> str:
    if verdict == "unsafe":
        return f"below the certified ε_lo by {lo - reported:.3g}: not (ε, δ)-DP at the report"
    if verdict == "loose":
        return f"above ε_hi by {reported - hi:.3g} ({reported / hi - 1 if hi else math.inf:.1%})"
    gap = max(0.0, reported - hi)
    return f"above ε_hi by {gap:.3g}" if gap else "inside the certified interval"


@example(__call__={"target": lambda composition, delta: 100.0, "rows": GRID[:1]})
@checked
def conform_accountant(
    target: Annotated[Callable[..., Any], Function()],
    rows: Annotated[Sequence[Row] | None, _Rows(optional=True)] = None,
    looseness: LoosenessArg = LOOSENESS,
) -> AccountantResult:
    """Ask ``target(composition, delta) -> ε`` every row of ``rows`` (default :data:`GRID`) and
    judge each answer against the reference's certified interval (module docstring). A target
    raises :class:`NotExpressible` for a composition it cannot state; any other exception is
    that row's "error"."""
    chosen = GRID if rows is None else tuple(rows)
    name = getattr(target, "name", None) or getattr(target, "__qualname__", repr(target))
    notes = ["reference: dpspec.accounting.epsilon_interval (certified; closed forms or grid)"]
    relation = getattr(target, "relation", None)
    if relation:
        notes.append(f"the library's relation: {relation}")
    reports = [_row(target, r, looseness) for r in chosen]
    return AccountantResult(str(name), looseness, reports, notes)


@example(
    __call__={
        "composition": Composition("gaussian", 1.0, "none", 1.0, 1, "add_remove"),
        "delta": 1e-5,
    }
)
@checked
def reference_accountant(composition: CompositionArg, delta: TargetDeltaArg) -> float:
    """dpspec's own accountant as a target: the upper end ε_hi of
    :func:`dpspec.accounting.epsilon_interval` (the smallest ε it certifies); NotExpressible
    where the reference has none."""
    try:
        return float(epsilon_interval(composition, delta).hi)
    except ValueError as exc:
        raise NotExpressible(str(exc).partition(": ")[2]) from exc


__all__ = [
    "ABSOLUTE_SLACK",
    "GRID",
    "LOOSENESS",
    "MECHANISMS",
    "RELATIONS",
    "ROW_VERDICTS",
    "SAMPLINGS",
    "VERDICTS",
    "AccountantResult",
    "NotExpressible",
    "Row",
    "RowReport",
    "conform_accountant",
    "judge",
    "reference_accountant",
]
