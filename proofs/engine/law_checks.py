"""Enumerated laws against the laws the samplers state, as registry checks.

The stated laws are often irrational (e^{−γ}); they are computed here independently of
``dpspec.noise`` as rational intervals (:class:`Interval`, :func:`exp_neg_interval`: the
alternating Taylor series with argument halving, width ≤ 2^-bits). :func:`compare_law` decides
whether an :class:`~dpspec.proofs.engine.enumeration.EnumeratedLaw` can be the stated law
outcome by outcome; :func:`law_check` turns cases and controls (the same entry points with a
plausible real bug) into a :class:`~dpspec.proofs.engine.registry.CheckOutcome`. The controls
for threshold tables — one threshold one unit in the last place off, the refinement of ties
skipped — are built by :func:`table_off_by_one_ulp` and :func:`table_without_refinement`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from dpspec.noise.machinery import Bounds, CdfLaw, ThresholdTable
from dpspec.proofs.engine.enumeration import EnumeratedLaw, enumerate_law
from dpspec.proofs.engine.registry import CheckOutcome, Control, Slack
from dpspec.spec.laws import SpecLaw, as_interval

#: The truncated mass an enumeration may leave unless a case states otherwise.
TRUNCATION_CLAIM = Fraction(1, 2**64)
#: One unit in the last place of a 64-bit threshold: the smallest table bug the checks see.
ULP = Fraction(1, 2**64)

Program = Callable[[np.random.Generator], Hashable]


#: Composed samplers and mechanisms (whose parts are checked at ulp resolution) are
#: enumerated to a coarser truncation: their maps (blocks, tails, offsets, thresholds) are
#: what is checked there, and a wrong map moves probabilities by far more than 2^-40.
COARSE = Fraction(1, 2**14)
COARSE_CLAIM = Fraction(1, 2**6)
#: The truncation of the thorough (``--thorough``) enumerations of composed samplers.
THOROUGH = Fraction(1, 2**22)


def first_value(values: Any) -> int:
    """The first value of a sampler's output, as an int (the draw of a size-1 call)."""
    return int(np.asarray(values).ravel()[0])


def drawing(sampler: Callable[..., Any], *args: Any) -> Program:
    """rng ↦ the one value ``sampler(*args, 1, rng)`` draws."""
    return lambda rng: first_value(sampler(*args, 1, rng))


def sizing(sampler: Any) -> Program:
    """rng ↦ the one value ``sampler.sample(1, rng)`` draws."""
    return lambda rng: first_value(sampler.sample(1, rng))


def locating(table: Any) -> Program:
    """rng ↦ the outcome of a table for one fresh uniform (its first word and refinement)."""
    return lambda rng: first_value(
        table.locate(rng.integers(0, 2**64, size=1, dtype=np.uint64), rng)
    )


# --- comparing an enumerated law with the stated one --------------------------------------


@dataclass
class LawComparison:
    """An enumerated law against the stated law.

    The code's probability of an outcome o lies in [L_o, L_o + R] (L_o enumerated, R the
    truncated mass, which may belong to any outcome); the spec's in its interval. ``difference``
    is the largest *proved* difference (the two ranges do not meet; 0 when every outcome, and
    the mass of the outcomes the code never produced, is consistent); ``resolution`` is the
    largest difference |P_code − P_spec| the comparison cannot exclude.
    """

    name: str
    law: EnumeratedLaw
    difference: Fraction
    resolution: Fraction
    worst: Hashable

    @property
    def holds(self) -> bool:
        return self.difference == 0

    def summary(self) -> str:
        verdict = "equal" if self.holds else f"DIFFERENT by {float(self.difference):.3g}"
        return (
            f"{self.name}: {len(self.law.probabilities)} outcomes from {self.law.runs} runs, "
            f"truncated mass {float(self.law.truncated):.3g}, |P_code − P_spec| ≤ "
            f"{float(self.resolution):.3g} -> {verdict}"
            + ("" if self.holds else f" at {self.worst!r}")
        )


def compare_law(name: str, law: EnumeratedLaw, spec: SpecLaw) -> LawComparison:
    """Compare ``law`` with ``spec`` (outcome → exact probability or an enclosing interval)
    outcome by outcome, and on the mass of the outcomes the code never produced."""
    r = law.truncated
    difference, resolution, worst = Fraction(0), Fraction(0), None
    inside_lo, inside_hi = Fraction(0), Fraction(0)
    for outcome, p in law.probabilities.items():
        s = as_interval(spec(outcome))
        inside_lo, inside_hi = inside_lo + s.lo, inside_hi + s.hi
        gap = max(p - s.hi, s.lo - (p + r), Fraction(0))
        resolution = max(resolution, p + r - s.lo, s.hi - p)
        if gap > difference or worst is None:
            difference, worst = max(difference, gap), outcome
    outside_gap = max(1 - inside_hi - r, Fraction(0))
    resolution = max(resolution, 1 - inside_lo, r)
    if outside_gap > difference:
        difference, worst = outside_gap, "the outcomes the code never produced"
    return LawComparison(name, law, difference, resolution, worst)


# --- cases, controls and the check --------------------------------------------------------


@dataclass(frozen=True)
class LawCase:
    """One entry point on one instance: its program (rng → outcome), the stated law, the
    truncation weight of its enumeration and the truncated mass it may leave."""

    name: str
    program: Program
    spec: SpecLaw
    min_weight: Fraction = Fraction(1, 2**72)
    truncation: Fraction = TRUNCATION_CLAIM


def run_case(case: LawCase) -> LawComparison:
    law = enumerate_law(case.program, min_weight=case.min_weight)
    return compare_law(case.name, law, case.spec)


def _sample_methods(module: Any) -> dict[str, tuple[type, set[int]]]:
    """Every class of ``module`` (walked) defining ``sample``, with the lines of that method's
    body that must run: all but the ``def``, its docstring and ``raise`` statements."""
    import inspect

    out: dict[str, tuple[type, set[int]]] = {}
    for name, cls in inspect.getmembers(module, inspect.isclass):
        fn = vars(cls).get("sample")
        if cls.__module__ != module.__name__ or fn is None:
            continue
        source, first = inspect.getsourcelines(fn)
        doc_lines = (fn.__doc__ or "").count("\n") + 1 if fn.__doc__ else 0
        skip = set(range(first, first + 1 + doc_lines))
        for offset, text in enumerate(source):
            if text.strip().startswith("raise") or not text.strip():
                skip.add(first + offset)
        lines = {line for _, _, line in fn.__code__.co_lines() if line is not None} - skip
        out[f"{name}.sample"] = (cls, lines)
    return out


def _run_tracing_paths(
    cases: Sequence[LawCase], module: Any
) -> tuple[list[Any], dict[str, set[int]], dict[str, int]]:
    """The cases run with the lines of ``module``'s ``sample`` methods recorded (each method
    wrapped so that tracing is on only inside it): (results, the lines never reached per
    method that ran at all, the lines to reach per method)."""
    import sys

    wanted = _sample_methods(module)
    seen: dict[str, set[int]] = {}
    originals = {name: vars(cls)["sample"] for name, (cls, _) in wanted.items()}

    def traced(name: str) -> Any:
        original = originals[name]
        code = original.__code__
        lines = seen.setdefault(name, set())
        need = wanted[name][1]

        def local(frame: Any, event: str, arg: Any) -> Any:
            if event == "line":
                lines.add(frame.f_lineno)
            return local

        def tracer(frame: Any, event: str, arg: Any) -> Any:
            return local if frame.f_code is code else None

        def sample(self: Any, *args: Any, **kwargs: Any) -> Any:
            if need <= lines:  # every line has run: no more tracing
                return original(self, *args, **kwargs)
            previous = sys.gettrace()
            sys.settrace(tracer)
            try:
                return original(self, *args, **kwargs)
            finally:
                sys.settrace(previous)

        return sample

    attribute = "sample"
    wrapped = {name: traced(name) for name in wanted}
    try:
        for name, (cls, _) in wanted.items():
            setattr(cls, attribute, wrapped[name])
        good = [run_case(c) for c in cases]
    finally:
        for name, (cls, _) in wanted.items():
            setattr(cls, attribute, originals[name])
    ran = {n: got for n, got in seen.items() if got}
    missing = {n: wanted[n][1] - got for n, got in ran.items() if wanted[n][1] - got}
    return good, missing, {n: len(wanted[n][1]) for n in ran}


def law_check(
    cases: Sequence[LawCase],
    controls: Sequence[tuple[str, LawCase]],
    paths: Any = None,
) -> CheckOutcome:
    """Every case equal to its stated law within its truncated mass, every control (a bug
    and its case) DIFFERENT; slack: the truncated mass against its claim, and the largest
    difference the comparison cannot exclude, over the cases enumerated to the finest
    truncation, against that truncation (2^-64, one unit in the last place of a table, for the
    samplers). ``paths``: a module whose samplers the cases drive; every ``sample`` method of
    it that the cases reach must have every line but its ``raise`` statements run (the paths
    to cover come from the code: a branch no case reaches fails the check)."""
    missing: dict[str, set[int]] = {}
    reached: dict[str, int] = {}
    if paths is None:
        good = [run_case(c) for c in cases]
    else:
        good, missing, reached = _run_tracing_paths(cases, paths)
    bad = [(bug, run_case(c)) for bug, c in controls]
    tight = max(range(len(good)), key=lambda i: good[i].law.truncated / cases[i].truncation)
    truncated, claim = good[tight].law.truncated, cases[tight].truncation
    finest = min(c.truncation for c in cases)
    resolution = max(
        g.resolution for g, c in zip(good, cases, strict=True) if c.truncation == finest
    )
    within = all(g.law.truncated <= c.truncation for g, c in zip(good, cases, strict=True))
    passed = all(g.holds for g in good) and all(not b.holds for _, b in bad) and within
    passed = passed and not missing
    failing = [g.summary() for g in good if not g.holds]
    failing += [f"{n}: lines {sorted(m)} never run" for n, m in missing.items()]
    detail = (
        f"{len(good)} laws derived from the code ({sum(g.law.runs for g in good)} runs), "
        + ("all equal to the stated laws" if not failing else "DIFFERENT: " + "; ".join(failing))
        + f", largest truncated mass {float(truncated):.3g} (allowed {float(claim):.3g}); "
        + (
            "every line of "
            + ", ".join(f"{n} ({k})" for n, k in sorted(reached.items()))
            + " run; "
            if reached and not missing
            else ""
        )
        + "controls: "
        + "; ".join(b.summary() for _, b in bad)
    )
    return CheckOutcome(
        passed,
        detail,
        {
            "laws": len(good),
            "runs": sum(g.law.runs for g in good),
            "truncated_mass": float(truncated),
            "resolution": float(resolution),
            "control_differences": [float(b.difference) for _, b in bad],
        },
        [Control(bug, not b.holds, b.summary()) for bug, b in bad],
        [
            Slack("truncated mass", float(claim), float(truncated)),
            Slack("undetectable |P_code − P_spec|", float(finest), float(resolution)),
        ],
    )


class _OffByOneUlp:
    """A law whose threshold ``index`` is 2^-64 larger: a table one unit in the last place
    off, consistently at every depth of the refinement."""

    def __init__(self, law: CdfLaw, index: int) -> None:
        self.law, self.index = law, index

    @property
    def count(self) -> int:
        return self.law.count

    def _shift(self, b: Bounds, k: int, bits: int) -> Bounds:
        if k != self.index:
            return b
        step = 1 << (bits - 64)
        return b[0] + step, b[1] + step

    def bounds(self, k: int, bits: int) -> Bounds:
        return self._shift(self.law.bounds(k, bits), k, bits)

    def all_bounds(self, bits: int) -> list[Bounds]:
        return [self._shift(b, k, bits) for k, b in enumerate(self.law.all_bounds(bits))]

    def exact(self, k: int) -> Fraction | None:
        value = self.law.exact(k)
        return None if value is None else value + (ULP if k == self.index else 0)


def law_off_by_one_ulp(law: CdfLaw, index: int) -> CdfLaw:
    """``law`` with threshold ``index`` one unit in the last place (2^-64) higher, at every
    depth of the refinement."""
    return _OffByOneUlp(law, index)


def table_off_by_one_ulp(table: ThresholdTable, index: int) -> ThresholdTable:
    """The table rebuilt with threshold ``index`` one unit in the last place (2^-64) higher."""
    return ThresholdTable.build(law_off_by_one_ulp(table.law, index))


class _Unrefined(ThresholdTable):
    def refine(self, count: int, rng: np.random.Generator) -> int:
        return count  # the tie w = F taken as c ≤ U: the refinement skipped


def table_without_refinement(table: ThresholdTable) -> ThresholdTable:
    """The table with its refinement of ties skipped (a word equal to an inexact floor is
    decided as if the floor were the threshold)."""
    bad = copy.copy(table)
    bad.__class__ = _Unrefined
    return bad


def with_attribute(obj: Any, name: str, value: Any) -> Any:
    """A shallow copy of ``obj`` with one attribute replaced (a sampler with a bad table)."""
    bad = copy.copy(obj)
    setattr(bad, name, value)
    return bad
