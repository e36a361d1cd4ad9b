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

**The reference** (the closed-form cases, until ``dpspec.accounting.epsilon_interval`` covers
every composition): :func:`_epsilon_interval` certifies the **unsubsampled** compositions only —

* Gaussian, T steps of noise multiplier σ: the μ-composition, μ = √T/σ (Dong, Roth & Su
  2022, "Gaussian differential privacy", JRSS B; Balle & Wang 2018, "Improving the Gaussian
  mechanism for differential privacy: analytical calibration and optimal denoising", ICML),
  δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2);
* Laplace, noise multiplier b, ε₀ = 1/b: one step at any δ, ε(δ) = max(0, ε₀ + 2 ln(1 − δ))
  (from δ(ε) = 1 − e^{(ε − ε₀)/2} on [0, ε₀], the hockey-stick divergence of Lap(0, b) and
  Lap(1, b)); T steps at δ = 0, the pure sum ε = T·ε₀, exactly.

Units are those of ``dpspec.accounting.Composition``: the noise multiplier is the standard
deviation (the Laplace scale) over the sensitivity *under the composition's relation* (a sum
of records clipped to C has sensitivity C under add/remove, 2C under substitution), so one
step's pair is the noise law at 0 and at 1 under either relation.

Any other composition (a subsampled one, T > 1 Laplace steps at δ > 0) is refused with a
ValueError naming ``composition``, and its rows are reported as *no reference*.

Floating point: the Gaussian bracket is ε̂ ± w, ε̂ the root of the closed form to 10^-12
(:func:`dpspec.accounting.pld.gaussian_epsilon`), w = 10^-9·max(1, ε̂) (widened ×16 up to
six times until certified), and it is certified in floats: δ(ε_hi) + e ≤ δ and (ε_lo = 0 or
δ(ε_lo) − e > δ), where e = 2^-40·(1 + ε + |ln Φ(b)|)·(Φ(a) + e^ε Φ(b)) bounds the floating
error of the two terms (scipy's ``ndtr`` / ``log_ndtr``, relative error ~10^-15 by the Cephes
documentation — taken from there, not proven here — and the rounding of ε + ln Φ(b) inside
``exp``, at most 2^-52 of its size). δ decreases in ε, so ε_lo < ε(δ) ≤ ε_hi. The Laplace
bracket is the float value widened by 10^-12·(1 + ε₀) each way (log1p and the product are
within a few ulps). Floats cannot decide a row whose ε(δ) is within that width of a reported
value; such a report is judged against the bracket as it is.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Any

from scipy import special

from dpspec.accounting import Bracket, pld
from dpspec.validation import (
    Checked,
    Choice,
    Domain,
    Function,
    InputTypeError,
    Instance,
    Integer,
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
#: the Gaussian bracket's half-width, relative to max(1, ε̂), before widening
GAUSS_WIDTH = 1e-9
#: the relative floating error allowed for each term of the Gaussian closed form (× (1 + ε))
GAUSS_ERROR = 2.0**-40
#: the Laplace bracket's half-width, relative to 1 + ε₀
LAPLACE_WIDTH = 1e-12

#: A noise multiplier σ (Gaussian: std / sensitivity; Laplace: scale / sensitivity).
NoiseArg = Annotated[float, Real(0.0, 1e6, lo_open=True, clean=1.0)]
#: A sampling rate q ∈ (0, 1].
RateArg = Annotated[float, Real(0.0, 1.0, lo_open=True, clean=1.0)]
#: The number of steps composed.
StepsArg = Annotated[int, Integer(1, hi=10**9, clean=1)]
#: A target δ ∈ [0, 1).
TargetDeltaArg = Annotated[float, Real(0.0, 1.0, hi_open=True, clean=1e-5)]
#: The stated looseness r ≥ 0.
LoosenessArg = Annotated[float, Real(0.0, 100.0, clean=LOOSENESS)]


class NotExpressible(Exception):
    """Raised by a target that cannot state a composition (its message says why): the row gets
    no verdict."""


# --- the reference's closed-form cases ------------------------------------------------------


@example(
    __init__={
        "mechanism": "gaussian",
        "noise": 1.0,
        "sampling": "none",
        "rate": 1.0,
        "steps": 10,
        "relation": "add_remove",
    }
)
@dataclass(frozen=True)
class _Composition(Checked):
    """A composition the reference accounts (the fields and units of
    ``dpspec.accounting.Composition``): ``steps`` runs of ``mechanism`` with noise multiplier
    ``noise`` (std, or the Laplace scale, over the sensitivity *under* ``relation``), each on a
    sample drawn by ``sampling`` at ``rate`` (1 when "none"; "poisson" under add/remove,
    "without_replacement" under substitution)."""

    mechanism: Annotated[str, Choice(options=MECHANISMS)]
    noise: NoiseArg
    sampling: Annotated[str, Choice(options=SAMPLINGS)]
    rate: RateArg
    steps: StepsArg
    relation: Annotated[str, Choice(options=RELATIONS)]

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.sampling == "none" and self.rate != 1:
            raise ValueError(f"rate: must be 1 without sampling, got {self.rate!r}")
        if self.sampling == "poisson" and self.relation != "add_remove":
            raise ValueError("relation: Poisson sampling is stated under add_remove only")
        if self.sampling == "without_replacement" and self.relation != "substitution":
            raise ValueError("relation: sampling without replacement is stated under substitution")

    @property
    def label(self) -> str:
        sampled = "" if self.sampling == "none" else f" {self.sampling} q={self.rate:g}"
        return f"{self.mechanism} σ={self.noise:g}{sampled} T={self.steps} {self.relation}"


#: A composition the reference accounts.
CompositionArg = Annotated[
    _Composition,
    Instance(
        types=(_Composition,), clean=_Composition("gaussian", 1.0, "none", 1.0, 1, "add_remove")
    ),
]


def _gauss_terms(epsilon: float, mu: float) -> tuple[float, float, float]:
    """Φ(−ε/μ + μ/2), e^ε Φ(−ε/μ − μ/2) and |ln Φ(−ε/μ − μ/2)| in floats."""
    log_b = float(special.log_ndtr(-epsilon / mu - mu / 2))
    return float(special.ndtr(-epsilon / mu + mu / 2)), math.exp(epsilon + log_b), abs(log_b)


def _gauss_side(epsilon: float, mu: float, delta: float) -> int:
    """+1 when δ(ε) > δ is certified, −1 when δ(ε) ≤ δ is, 0 when floats cannot decide."""
    first, second, log_b = _gauss_terms(epsilon, mu)
    error = GAUSS_ERROR * (1 + epsilon + log_b) * (first + second)
    value = pld.gaussian_delta(epsilon, mu)
    if value - error > delta:
        return 1
    return -1 if value + error <= delta else 0


def _gaussian_interval(mu: float, delta: float) -> Bracket:
    """The certified bracket of the Gaussian ε(δ) at μ (module docstring)."""
    if delta == 0:
        return Bracket(math.inf, math.inf)
    if _gauss_side(0.0, mu, delta) < 0:
        return Bracket(Fraction(0), Fraction(0))
    guess = pld.gaussian_epsilon(delta, mu)
    width = GAUSS_WIDTH * max(1.0, guess)
    for _ in range(7):
        lo, hi = max(0.0, guess - width), guess + width
        if _gauss_side(hi, mu, delta) < 0 and (lo == 0 or _gauss_side(lo, mu, delta) > 0):
            return Bracket(Fraction(lo), Fraction(hi))
        width *= 16
    raise ValueError(f"composition: μ = {mu:g}, δ = {delta:g}: floats cannot certify ε(δ)")


def _laplace_interval(eps0: Fraction, steps: int, delta: float) -> Bracket:
    """The certified bracket of the Laplace ε(δ) (module docstring: one step, or δ = 0)."""
    if delta == 0:
        return Bracket(steps * eps0, steps * eps0)
    if steps != 1:
        raise ValueError(
            f"composition: {steps} Laplace steps at δ = {delta:g} > 0 have no closed form "
            "(the reference's shim certifies one step, or δ = 0)"
        )
    value = float(eps0) + 2 * math.log1p(-delta)
    if value <= 0:
        return Bracket(Fraction(0), Fraction(0))
    width = LAPLACE_WIDTH * (1 + float(eps0))
    return Bracket(Fraction(max(0.0, value - width)), Fraction(value + width))


def _epsilon_interval(composition: _Composition, delta: float) -> Bracket:
    """The reference's certified [ε_lo, ε_hi] ∋ ε(δ) of ``composition``: the closed-form
    cases only (module docstring); any other is refused naming ``composition``."""
    c = composition
    if c.sampling != "none":
        raise ValueError(
            f"composition: {c.sampling} sampling has no closed-form interval "
            "(the reference's shim certifies unsubsampled compositions only)"
        )
    if c.mechanism == "gaussian":
        return _gaussian_interval(math.sqrt(c.steps) / c.noise, delta)
    return _laplace_interval(1 / Fraction(c.noise), c.steps, delta)


# --- the grid -------------------------------------------------------------------------------


@example(
    __init__={
        "composition": _Composition("gaussian", 1.0, "none", 1.0, 1, "add_remove"),
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
        return f"{self.composition.label} δ={self.delta:g}"


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
                c = _Composition("gaussian", noise, sampling, rate, steps, "add_remove")
                rows += [Row(c, d) for d in (1e-5, 1e-12, 0.1)]
        for rate in (0.01, 1.0):
            sampling = "none" if rate == 1 else "without_replacement"
            c = _Composition("gaussian", noise, sampling, rate, 100, "substitution")
            rows.append(Row(c, 1e-5))
    for noise in (1.0, 10.0):
        one = _Composition("laplace", noise, "none", 1.0, 1, "add_remove")
        rows += [Row(one, d) for d in (1e-5, 1e-12, 0.1)]
        for t in (100, 10**4):
            rows.append(Row(_Composition("laplace", noise, "none", 1.0, t, "add_remove"), 0.0))
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
        interval = _epsilon_interval(row.composition, row.delta)
    except ValueError as exc:
        interval = None
        missing = str(exc).partition(": ")[2]
    lo = None if interval is None else float(interval.lo)
    hi = None if interval is None else float(interval.hi)
    try:
        reported = _as_epsilon(target(row.composition, row.delta))
    except NotExpressible as exc:
        verdict, why = ("not expressible", str(exc)) if interval else ("no reference", missing)
        return RowReport(
            row.label,
            row.delta,
            reported=None,
            lo=lo,
            hi=hi,
            verdict=verdict,
            why=why,
            _seconds=time.perf_counter() - start,
        )
    except Exception as exc:  # a library's failure is that row's finding, not the run's
        why = f"{type(exc).__name__}: {exc}".splitlines()[0][:200]
        return RowReport(
            row.label,
            row.delta,
            reported=None,
            lo=lo,
            hi=hi,
            verdict="error",
            why=why,
            _seconds=time.perf_counter() - start,
        )
    if interval is None:
        verdict, why = "no reference", missing
    else:
        verdict = judge(reported, interval, looseness)
        why = _why(verdict, reported, float(interval.lo), float(interval.hi))
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
    notes = [
        "reference: the closed-form cases only (unsubsampled Gaussian μ-composition; one "
        "Laplace step, or Laplace steps at δ = 0); other rows are 'no reference'"
    ]
    relation = getattr(target, "relation", None)
    if relation:
        notes.append(f"the library's relation: {relation}")
    reports = [_row(target, r, looseness) for r in chosen]
    return AccountantResult(str(name), looseness, reports, notes)


@example(
    __call__={
        "composition": _Composition("gaussian", 1.0, "none", 1.0, 1, "add_remove"),
        "delta": 1e-5,
    }
)
@checked
def reference_accountant(composition: CompositionArg, delta: TargetDeltaArg) -> float:
    """dpspec's own accountant as a target: the upper end ε_hi of the reference's certified
    interval (the smallest ε it certifies); NotExpressible where the reference has none."""
    try:
        return float(_epsilon_interval(composition, delta).hi)
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
